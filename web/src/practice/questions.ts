// Predict-then-reveal: which decisions of a run are asked about, how each is named, and how
// an answer is marked. Everything here reads the engine's vocabulary (rule kinds, rule
// titles, inputs and outputs, the state machine's transitions and their labels) and the
// engine's decisions; nothing about TCP is decided or worded here.
import type { DecisionJson } from '../engine/protocol';
import type { RuleSpec } from '../engine/tables';
import { NO_PHASE, type DecisionIndex } from '../explain/decisionIndex';
import { ruleOf, ruleSpecs } from '../explain/vocabulary';
import type { PracticeScope } from './link';
import { amountText, inUnit, unitWord, unlimited, type WindowUnit } from '../lib/units';

/** Rule kinds whose every decision is a congestion event: loss detection and the ssthresh it
 *  sets, the recover guard, the retransmission timer expiring and backing off (the engine's
 *  kinds, `rules_json().kinds`). */
const EVENT_KINDS: ReadonlySet<string> = new Set(['loss', 'timeout']);

/** Whether a decision of this rule is a congestion event wherever it is made: a rule of an
 *  event kind, a rule that sets ssthresh (HyStart++'s exit, a CWV decay, BBR's full pipe),
 *  or a recovery rule that resends a segment (a partial ACK). Read from the engine's rule
 *  table: its kind, its outputs and its inputs. */
export function isEventRule(rule: RuleSpec | undefined): boolean {
  if (!rule) return false;
  if (EVENT_KINDS.has(rule.kind)) return true;
  if (rule.outputs.some((o) => o.name === 'ssthresh')) return true;
  return rule.kind === 'recovery' && rule.inputs.some((i) => i.name === 'segment');
}

/** The decision of `row` changed the flow's phase (the state machine moved to another
 *  state: slow start → congestion avoidance, into or out of recovery, a timeout, BBR's
 *  states), or moved the overlay (new CWV's validated / non-validated phases). */
export function changesPhase(idx: DecisionIndex, row: number): boolean {
  const from = idx.get('from', row);
  const to = idx.get('to', row);
  if (from !== NO_PHASE && to !== NO_PHASE && from !== to) return true;
  return idx.get('overlay', row) >= 0;
}

/** A congestion event or a phase change: what the default practice asks about. */
export function isEventRow(idx: DecisionIndex, row: number): boolean {
  return changesPhase(idx, row) || isEventRule(ruleOf(idx, row));
}

/** One question: an instant of the run and the decision that tells what happened there. */
export interface Question {
  /** Row of the telling decision in the run's decision index. */
  row: number;
  /** Its index among the run's decisions (what `why=` and the workers use). */
  index: number;
  t: number;
  /** The rows of its instant (first, last). */
  instant: [number, number];
  /** The event, in the engine's words (see `eventLabel`). */
  label: string;
}

/** The decision that tells what happened at an instant, among `rows`: the one that changed
 *  the phase (the fast retransmit rather than the ssthresh it set, the expiry rather than
 *  the backoff), else one that took a transition of the machine, else the one whose rule is
 *  named after its kind (`loss.*`, `timeout.*`), else the first. */
export function tellingRow(idx: DecisionIndex, rows: readonly number[]): number | undefined {
  const named = (r: number) => {
    const rule = ruleOf(idx, r);
    return !!rule && rule.id.startsWith(`${rule.kind}.`);
  };
  return (
    rows.find((r) => changesPhase(idx, r)) ??
    rows.find((r) => idx.get('transition', r) >= 0 && named(r)) ??
    rows.find((r) => idx.get('transition', r) >= 0) ??
    rows.find(named) ??
    rows[0]
  );
}

/** The event a decision stands for, in the engine's words: the label of the transition of
 *  the run's state machine it took ("3 duplicate ACKs: fast retransmit, enter fast
 *  recovery", "cwnd reaches ssthresh"), else its rule's title. */
export function eventLabel(idx: DecisionIndex, row: number): string {
  const tr = idx.get('transition', row);
  const label = tr >= 0 ? idx.machine?.transitions[tr]?.label : undefined;
  return label ?? ruleOf(idx, row)?.title ?? 'decision';
}

/** The questions of a run, in order: one per instant with a decision the scope counts
 *  (`events`: a congestion event or a phase change; `every`: any decision), asking about
 *  the decision that tells what happened there. */
export function questionsOf(idx: DecisionIndex, scope: PracticeScope): Question[] {
  const out: Question[] = [];
  let row = 0;
  while (row < idx.length) {
    const [a, b] = idx.instantOf(row);
    const rows: number[] = [];
    for (let r = a; r <= b; r += 1) if (scope === 'every' || isEventRow(idx, r)) rows.push(r);
    const tell = tellingRow(idx, rows);
    if (tell !== undefined) {
      out.push({
        row: tell,
        index: idx.get('index', tell),
        t: idx.t(tell),
        instant: [a, b],
        label: eventLabel(idx, tell),
      });
    }
    row = b + 1;
  }
  return out;
}

/** The events a student chooses from: the labels of the run's machine transitions the scope
 *  counts (a phase change, or one taken by an event rule; every transition for `every`),
 *  then any other event of the questions (a decision that took no transition), each once, in
 *  the machine's order. Plausible for the algorithm whatever this run does, so the list
 *  gives nothing away. */
export function eventChoices(idx: DecisionIndex, questions: readonly Question[], scope: PracticeScope): string[] {
  const out: string[] = [];
  const add = (label: string) => {
    if (!out.includes(label)) out.push(label);
  };
  const byId = new Map(ruleSpecs().map((r) => [r.id, r]));
  for (const tr of idx.machine?.transitions ?? []) {
    const moves = tr.to !== null && tr.from.some((f) => f !== tr.to);
    if (scope === 'every' || moves || tr.rules.some((id) => isEventRule(byId.get(id)))) add(tr.label);
  }
  for (const q of questions) add(q.label);
  return out;
}

/** cwnd and ssthresh after an instant, bytes (U32_UNLIMITED: no ssthresh yet), and where
 *  each was read: the output of a decision of the instant, else its input (unchanged by
 *  the instant), else the run's trace at that time. */
export interface Truth {
  cwnd: number;
  ssthresh: number;
  cwndFrom: 'output' | 'input' | 'trace';
  ssthreshFrom: 'output' | 'input' | 'trace';
}

/** A value of a decision in bytes (the engine writes windows in bytes, `B`, or in
 *  segments). */
function bytesOf(v: { unit: string; value: number | null }, mss: number): number | null {
  if (v.value === null) return null;
  return v.unit === 'B' || v.unit === 'bytes' || v.unit === '' ? v.value : v.value * mss;
}

/** The engine's cwnd and ssthresh after the decisions of one instant (in the order made):
 *  the last output of each, else the first input (the value it kept), else `trace`. */
export function truthOf(
  decisions: readonly DecisionJson[],
  trace: { cwnd: number; ssthresh: number },
  mss: number,
): Truth {
  const pick = (name: string, fallback: number) => {
    let out: number | null = null;
    let inp: number | null = null;
    for (const d of decisions) {
      for (const o of d.outputs) if (o.name === name) out = bytesOf(o, mss) ?? out;
      if (inp === null) for (const i of d.inputs) if (i.name === name) inp = bytesOf(i, mss) ?? inp;
    }
    if (out !== null) return { v: out, from: 'output' as const };
    if (inp !== null) return { v: inp, from: 'input' as const };
    return { v: fallback, from: 'trace' as const };
  };
  const c = pick('cwnd', trace.cwnd);
  const s = pick('ssthresh', trace.ssthresh);
  return { cwnd: c.v, ssthresh: s.v, cwndFrom: c.from, ssthreshFrom: s.from };
}

/** The unit answers are typed in: the page's unit (lib/units.ts). */
export type AnswerUnit = WindowUnit;

/** Tolerance for a value that is not a whole number in the unit (three decimals, as shown). */
export const FRACTION_TOLERANCE = 0.0005;

/** What an ssthresh not set yet may be typed as (no ssthresh: the engine's "unlimited"). */
export const UNSET_WORDS: readonly string[] = ['inf', '∞', 'none', 'unset', 'infinity', 'unlimited'];

export { inUnit, unlimited };

/** A value as the page shows it in the answer unit ("7000 B", "51 100 B", "7 segments",
 *  "19.832 segments", "∞"): bytes as every readout writes them (lib/units.ts), segments to
 *  three decimals, the precision an answer is marked to. */
export function valueText(bytes: number, unit: AnswerUnit, mss: number): string {
  if (unlimited(bytes) || unit === 'bytes') return amountText(bytes, unit, mss);
  const v = inUnit(bytes, unit, mss);
  const n = Number.isInteger(v) ? String(v) : String(Number(v.toFixed(3)));
  return `${n} ${unitWord(unit, v)}`;
}

/** A typed value: the number, and the unit typed after it (null: none typed). */
export interface Reading {
  value: number;
  unit: AnswerUnit | null;
}

const UNIT_WORDS: [RegExp, AnswerUnit][] = [
  [/(segments|segment|segs|seg|mss)$/, 'segments'],
  [/(bytes|byte|b)$/, 'bytes'],
];

/** What the student typed, read: a number with the unit typed after it, if any ("35",
 *  "35 segments", "35 seg", "51100 B", "51 100 bytes", "51,100 B"), or ∞ for no ssthresh
 *  (`inf`, `∞`, `none`, `unset`, …); null when nothing readable. */
export function readAnswer(text: string): Reading | null {
  let t = text
    .trim()
    .toLowerCase()
    .replace(/[\s\u00a0\u202f_]/g, '');
  if (UNSET_WORDS.includes(t)) return { value: Infinity, unit: null };
  let unit: AnswerUnit | null = null;
  for (const [re, u] of UNIT_WORDS) {
    if (re.test(t)) {
      unit = u;
      t = t.replace(re, '');
      break;
    }
  }
  // Thousands written with commas: 51,100.
  if (/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(t)) t = t.replace(/,/g, '');
  if (!/^[+]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(t)) return null;
  const v = Number(t);
  return Number.isFinite(v) ? { value: v, unit } : null;
}

/** The number typed, in the unit typed (see `readAnswer`); ∞ for no ssthresh. */
export function parseAnswer(text: string): number | null {
  return readAnswer(text)?.value ?? null;
}

/** Whether a value typed in `unit` is the engine's `bytes`: in bytes exactly; in segments
 *  within a segment's rounding (the nearest whole segment, or the value to three decimals,
 *  as shown); ∞ only for ∞. */
export function valueRight(given: number | null, bytes: number, unit: AnswerUnit, mss: number): boolean {
  if (given === null) return false;
  if (unlimited(bytes)) return given === Infinity;
  if (given === Infinity) return false;
  if (unit === 'bytes') return given === bytes;
  const v = bytes / mss;
  if (Math.abs(given - v) <= FRACTION_TOLERANCE) return true;
  // A whole number of segments: right when the engine's value rounds to it.
  return Number.isInteger(given) && Math.abs(given - v) <= 0.5;
}

/** How one typed value is marked: right or not, and a hint when the number would be right
 *  in the other unit ("that is in bytes? 1 segment = 1460 B"). */
export interface ValueMark {
  right: boolean;
  hint: string;
}

/** Marks what was typed against the engine's `bytes`; a number without a unit is read in
 *  `unit` (the unit the question asks in). */
export function markValue(text: string, bytes: number, unit: AnswerUnit, mss: number): ValueMark {
  const r = readAnswer(text);
  if (r === null) {
    const hint = text.trim() === '' ? '' : 'Type a number, with a unit if you like (35, 35 seg, 51100 B), or inf.';
    return { right: false, hint };
  }
  const typed = r.unit ?? unit;
  if (valueRight(r.value, bytes, typed, mss)) return { right: true, hint: '' };
  const other: AnswerUnit = typed === 'bytes' ? 'segments' : 'bytes';
  if (r.value !== Infinity && valueRight(r.value, bytes, other, mss)) {
    const n = String(r.value);
    const hint =
      r.unit !== null
        ? `${n} ${typed === 'bytes' ? 'B' : 'segments'} is not it, but ${n} ${other === 'bytes' ? 'B' : 'segments'} would be (1 segment = ${mss} B).`
        : other === 'bytes'
          ? `That is in bytes? 1 segment = ${mss} B: type “${n} B”, or the answer in segments.`
          : `That is in segments? 1 segment = ${mss} B: type “${n} seg”, or the answer in bytes.`;
    return { right: false, hint };
  }
  return { right: false, hint: '' };
}

/** A student's answer to one question. */
export interface Given {
  event: string;
  cwnd: string;
  ssthresh: string;
}

/** One answered question, marked. */
export interface Marked {
  question: Question;
  given: Given;
  truth: Truth;
  /** The telling decision's rule id and title (the engine's). */
  rule: string;
  title: string;
  unit: AnswerUnit;
  mss: number;
  right: { event: boolean; cwnd: boolean; ssthresh: boolean };
  /** Why a value was marked wrong when the number is right in the other unit ('' none). */
  hints: { cwnd: string; ssthresh: string };
}

/** Marks an answer against the engine's decision. */
export function mark(
  question: Question,
  given: Given,
  truth: Truth,
  rule: { id: string; title: string },
  unit: AnswerUnit,
  mss: number,
): Marked {
  const cwnd = markValue(given.cwnd, truth.cwnd, unit, mss);
  const ssthresh = markValue(given.ssthresh, truth.ssthresh, unit, mss);
  return {
    question,
    given,
    truth,
    rule: rule.id,
    title: rule.title,
    unit,
    mss,
    right: { event: given.event === question.label, cwnd: cwnd.right, ssthresh: ssthresh.right },
    hints: { cwnd: cwnd.hint, ssthresh: ssthresh.hint },
  };
}

/** The running score: right and asked, per field. */
export interface Score {
  asked: number;
  event: number;
  cwnd: number;
  ssthresh: number;
}

export function scoreOf(answers: readonly Marked[]): Score {
  return {
    asked: answers.length,
    event: answers.filter((a) => a.right.event).length,
    cwnd: answers.filter((a) => a.right.cwnd).length,
    ssthresh: answers.filter((a) => a.right.ssthresh).length,
  };
}
