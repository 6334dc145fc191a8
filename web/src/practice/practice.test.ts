// Predict-then-reveal with the real engine (in-process workers): which decisions are asked
// about (from the engine's rule kinds and state machine, not a list typed in the page), how
// the events are worded (the engine's), how answers are marked, and what the page shows
// while a practice is under way (the plots only up to the cursor).
import { afterEach, describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import { ruleOf, ruleSpecs } from '../explain/vocabulary';
import { presetBase } from '../scenario/algorithms';
import { defaultShareState } from '../scenario/shareState';
import { encodeShareState } from '../scenario/url';
import { createHarness } from '../test/appHarness';
import { waitFor } from '../test/inProcessWorker';
import { Practice, revealUntil } from './practice';
import {
  eventChoices,
  isEventRow,
  mark,
  markValue,
  parseAnswer,
  readAnswer,
  questionsOf,
  scoreOf,
  valueRight,
  valueText,
  type Question,
  type Truth,
} from './questions';

const harnesses: ReturnType<typeof createHarness>[] = [];
afterEach(() => harnesses.splice(0).forEach((h) => h.dispose()));

const preset = tables.presets.find((p) => p.name === 'fall-floyd-reno-3drops');
if (!preset) throw new Error('no fall-floyd-reno-3drops preset');
const base = presetBase(preset.scenario).base;
const query = (extra = '') =>
  `?${encodeShareState({ ...defaultShareState(), scenario: base, algorithms: ['reno', 'newreno'] })}${extra}`;

async function practising(extra = '') {
  const h = createHarness(query(extra));
  harnesses.push(h);
  h.controller.runFull();
  const practice = new Practice(h.store, h.controller.explainer, h.traces);
  await waitFor(h.allDone);
  return { h, practice };
}

const idOf = (q: Question, idx: { rule(row: number): number }) => ruleOf(idx, q.row)?.id;

describe('predict-then-reveal: the run predicted for', () => {
  it('is the run the preset’s lesson is about when the link names none; the first run without a preset', async () => {
    const all = ['old_tahoe', 'tahoe', 'reno', 'newreno'];
    for (const [extra, want] of [
      ['&preset=fall-floyd-reno-3drops', 'reno'],
      ['', 'old_tahoe'],
    ] as const) {
      const h = createHarness(
        `?${encodeShareState({ ...defaultShareState(), scenario: base, algorithms: all })}${extra}`,
      );
      harnesses.push(h);
      h.controller.runFull();
      const practice = new Practice(h.store, h.controller.explainer, h.traces);
      await waitFor(h.allDone);
      practice.start('events');
      expect(practice.get().key).toBe(want);
    }
  });
});

describe('predict-then-reveal: the questions', () => {
  it('asks about congestion events and phase changes only, one per instant, named in the engine’s words', async () => {
    const { h, practice } = await practising();
    practice.start('events', 'reno');
    await waitFor(() => practice.get().status === 'asking');
    const idx = h.controller.explainer.index('reno');
    if (!idx) throw new Error('no index');
    const qs = practice.get().questions;
    // Reno on three drops: the fast retransmit of segment 14, leaving recovery on ACK 25 000,
    // the recover guard, the timeout at 3.281080 s, and later slow start reaching ssthresh.
    expect(qs.slice(0, 4).map((q) => idOf(q, idx))).toEqual([
      'loss.fast_retransmit',
      'recovery.reno_exit',
      'loss.recover_guard',
      'timeout.expire',
    ]);
    expect(qs[0]?.t).toBeCloseTo(2.0692, 4);
    expect(qs[3]?.t).toBeCloseTo(3.28108, 5);
    // Far fewer than the decisions (no per-ACK growth), and every one an event.
    expect(qs.length).toBeLessThan(idx.length / 10);
    for (const q of qs) expect(isEventRow(idx, q.row)).toBe(true);
    for (const q of qs) {
      const rows = Array.from({ length: q.instant[1] - q.instant[0] + 1 }, (_, i) => q.instant[0] + i);
      expect(rows.some((r) => isEventRow(idx, r))).toBe(true);
    }
    // One question per instant.
    expect(new Set(qs.map((q) => q.t)).size).toBe(qs.length);
    // The event's name is the label of the machine transition the decision took (engine).
    const machine = idx.machine;
    expect(qs[0]?.label).toBe(machine?.transitions[idx.get('transition', qs[0]?.row ?? -1)]?.label);
    const choices = practice.get().choices;
    for (const q of qs) expect(choices).toContain(q.label);
    // Every choice is the engine's wording: a transition label of the run's machine or a rule title.
    const words = new Set([...(machine?.transitions.map((t) => t.label) ?? []), ...ruleSpecs().map((r) => r.title)]);
    for (const c of choices) expect(words.has(c)).toBe(true);
    // Per-ACK growth is not a choice of the default scope.
    expect(choices).not.toContain(
      machine?.transitions.find((t) => t.rules.includes('ca.per_ack') && t.to === null)?.label,
    );
  });

  it('“every decision” asks about every instant', async () => {
    const { h, practice } = await practising();
    practice.start('every', 'newreno');
    await waitFor(() => practice.get().status === 'asking');
    const idx = h.controller.explainer.index('newreno');
    if (!idx) throw new Error('no index');
    const instants = new Set(Array.from({ length: idx.length }, (_, r) => idx.t(r)));
    expect(practice.get().questions.length).toBe(instants.size);
    expect(eventChoices(idx, questionsOf(idx, 'every'), 'every').length).toBeGreaterThan(
      practice.get().choices.length - 1,
    );
    // NewReno's default questions include its partial ACKs (the engine's rules, by kind and inputs).
    const ids = questionsOf(idx, 'events').map((q) => idOf(q, idx));
    expect(ids).toContain('recovery.partial_ack_reset');
    expect(ids).toContain('recovery.full_ack_ssthresh');
    expect(ids).not.toContain('recovery.inflate');
  });
});

describe('predict-then-reveal: marking', () => {
  it('asks in the unit of the page’s link (unit=bytes)', async () => {
    const { practice } = await practising('&unit=bytes&practice=predict:reno');
    await waitFor(() => practice.get().status === 'asking');
    expect(practice.get().unit).toBe('bytes');
  });

  it('marks a wrong answer and a right one against the engine’s outputs, and keeps the score', async () => {
    const { h, practice } = await practising('&practice=predict:reno');
    // The link started it.
    await waitFor(() => practice.get().status === 'asking');
    expect(practice.get().key).toBe('reno');
    // The preset counts cwnd in segments (its cwnd units setting): answers start in segments.
    expect(practice.get().unit).toBe('segments');
    // Practice's unit is the page's: changing it here changes the page's (and the link's)…
    practice.setUnit('bytes');
    expect(h.store.getState().unit).toBe('bytes');
    expect(practice.get().unit).toBe('bytes');
    // …and the page's choice changes the unit questions ask in.
    h.store.getState().setUnit('segments');
    expect(practice.get().unit).toBe('segments');
    h.store.getState().setUnit('bytes');
    expect(practice.get().unit).toBe('bytes');
    const q0 = practice.get().questions[0];
    if (!q0) throw new Error('no question');
    // While asked, the plots stop just before the decision and the cursor cannot pass it.
    const s = h.store.getState();
    expect(s.xDomain?.[0]).toBe(0);
    expect(s.xDomain?.[1]).toBeLessThan(q0.t);
    expect(s.xDomain?.[1]).toBeGreaterThan(q0.t - 0.01);
    h.store.getState().setCursor(9);
    expect(h.store.getState().cursor).toBe(s.xDomain?.[1]);
    h.store.getState().setXDomain(null);
    expect(h.store.getState().xDomain).toEqual(s.xDomain);

    // Wrong: a timeout, cwnd halved to 7 500 B, ssthresh 7 000 B.
    const wrong = await practice.answer({
      event: 'retransmission timeout: cwnd = 1 segment, go back N',
      cwnd: '7500',
      ssthresh: '7 000',
    });
    expect(wrong?.right).toEqual({ event: false, cwnd: false, ssthresh: true });
    // The engine's values: the fast retransmit sets ssthresh and cwnd to 7 000 B.
    expect(wrong?.truth.cwnd).toBe(7000);
    expect(wrong?.truth.ssthresh).toBe(7000);
    expect(wrong?.truth.cwndFrom).toBe('output');
    expect(wrong?.rule).toBe('loss.fast_retransmit');
    expect(practice.get().status).toBe('revealed');
    // Revealed: the cursor on the decision, the plots up to it, the decision selected.
    expect(h.store.getState().cursor).toBe(q0.t);
    // The plots extend past it a little (1 %), never to where the next question is asked.
    const dom = h.store.getState().xDomain;
    expect(dom?.[0]).toBe(0);
    expect(dom?.[1]).toBeCloseTo(q0.t * 1.01, 9);
    expect(dom?.[1]).toBeLessThan(practice.get().questions[1]?.t ?? 0);
    expect(h.store.getState().selected).toEqual({ key: 'reno', index: q0.index });
    expect(practice.get().revealed[0]?.rule).toBe('loss.fast_retransmit');
    expect(practice.get().revealed[0]?.text).toContain('3rd duplicate ACK for segment 14');
    expect(practice.get().score).toEqual({ asked: 1, event: 0, cwnd: 0, ssthresh: 1 });

    // Right: Reno leaves fast recovery on the new ACK, cwnd deflates to ssthresh (7 000 B).
    practice.next();
    const q1 = practice.get().questions[1];
    expect(practice.get().status).toBe('asking');
    const right = await practice.answer({ event: q1?.label ?? '', cwnd: '7000', ssthresh: '7000 B' });
    expect(right?.right).toEqual({ event: true, cwnd: true, ssthresh: true });
    expect(right?.rule).toBe('recovery.reno_exit');
    // ssthresh is not an output of the exit: it is read as the input it kept.
    expect(right?.truth.ssthreshFrom).toBe('input');
    expect(practice.get().score).toEqual({ asked: 2, event: 1, cwnd: 1, ssthresh: 2 });

    // The timeout, in segments: cwnd 1 segment, ssthresh 3 segments.
    practice.next();
    practice.next(); // not revealed yet: no effect
    expect(practice.get().k).toBe(2);
    await practice.answer({ event: 'x', cwnd: '7', ssthresh: '7' });
    practice.next();
    practice.setUnit('segments');
    const timeout = await practice.answer({
      event: 'retransmission timeout: cwnd = 1 segment, go back N',
      cwnd: '1',
      ssthresh: '3',
    });
    expect(timeout?.rule).toBe('timeout.expire');
    expect(timeout?.right).toEqual({ event: true, cwnd: true, ssthresh: true });
    expect(valueText(timeout?.truth.ssthresh ?? 0, 'segments', 1000)).toBe('3 segments');

    // To the end: the summary, the whole run shown again, a link to replay each decision.
    while (practice.get().status !== 'done') {
      if (practice.get().status === 'revealed') practice.next();
      else await practice.answer({ event: '', cwnd: '0', ssthresh: '0' });
    }
    expect(practice.get().answers.length).toBe(practice.get().questions.length);
    // The engine's values agree with the run's trace at each decision (the chain the engine
    // tests: every change of cwnd and ssthresh is a decision), which the page falls back to.
    for (const a of practice.get().answers) {
      const at = practice.stateAt(a.question.t);
      expect([a.question.label, a.truth.cwnd, a.truth.ssthresh]).toEqual([a.question.label, at?.cwnd, at?.ssthresh]);
    }
    expect(h.store.getState().xDomain).toBeNull();
    const link = practice.replayLink(practice.get().answers[0] ?? (null as never));
    expect(link).toContain(`why=reno:${q0.index}`);
    expect(link).toContain(`t=${q0.t}`);
    expect(link).not.toContain('practice');
    practice.stop();
    expect(h.store.getState().practice).toBeNull();
  });

  it('reveals a little past the decision, never up to the next question', () => {
    expect(revealUntil(2, null, 10)).toBeCloseTo(2.02, 12);
    expect(revealUntil(2, null, 2.01)).toBe(2.01);
    expect(revealUntil(2, 2.005, 10)).toBeLessThan(2.005);
    expect(revealUntil(2, 2.005, 10)).toBeGreaterThan(2);
    expect(revealUntil(2, 2, 10)).toBe(2);
  });

  it('tolerance 0 for whole numbers; three decimals otherwise; ∞ for no ssthresh', () => {
    expect(parseAnswer(' 7 000 ')).toBe(7000);
    expect(parseAnswer('7000B')).toBe(7000);
    expect(parseAnswer('3 segments')).toBe(3);
    expect(parseAnswer('∞')).toBe(Infinity);
    expect(parseAnswer('seven')).toBeNull();
    expect(valueRight(7000, 7000, 'bytes', 1000)).toBe(true);
    expect(valueRight(7001, 7000, 'bytes', 1000)).toBe(false);
    expect(valueRight(6999.9, 7000, 'bytes', 1000)).toBe(false);
    expect(valueRight(28.954, 28954, 'segments', 1000)).toBe(true);
    expect(valueRight(28.95, 28954, 'segments', 1000)).toBe(false);
    expect(valueRight(Infinity, 4294967295, 'bytes', 1000)).toBe(true);
    expect(valueRight(65535, 4294967295, 'bytes', 1000)).toBe(false);
    const q: Question = { row: 0, index: 0, t: 1, instant: [0, 0], label: 'A' };
    const truth: Truth = { cwnd: 2000, ssthresh: 1000, cwndFrom: 'output', ssthreshFrom: 'output' };
    const a = mark(q, { event: 'A', cwnd: '2', ssthresh: '2' }, truth, { id: 'r', title: 'R' }, 'segments', 1000);
    expect(a.right).toEqual({ event: true, cwnd: true, ssthresh: false });
    expect(scoreOf([a, a])).toEqual({ asked: 2, event: 2, cwnd: 2, ssthresh: 0 });
  });
});

describe('predict-then-reveal: answers in segments or bytes', () => {
  const mss = 1460;
  it('reads a number with or without its unit, and every way of saying “no ssthresh”', () => {
    expect(readAnswer('35')).toEqual({ value: 35, unit: null });
    for (const t of ['35 segments', '35 seg', '35segs', '35 segment', '35 MSS'])
      expect(readAnswer(t), t).toEqual({ value: 35, unit: 'segments' });
    for (const t of ['51100 B', '51 100 bytes', '51100b', '51,100 B', '51\u202f100 byte'])
      expect(readAnswer(t), t).toEqual({ value: 51100, unit: 'bytes' });
    for (const t of ['inf', 'INF', '∞', 'none', 'unset', ' Infinity ', 'unlimited'])
      expect(readAnswer(t), t).toEqual({ value: Infinity, unit: null });
    for (const t of ['seven', '', 'seg', '35 packets of fun', '5,10', '-3']) expect(readAnswer(t), t).toBeNull();
  });

  it('asks in the plots’ unit (segments) and accepts either unit', () => {
    const cwnd = 35 * mss; // 51 100 B
    for (const t of ['35', '35 segments', '35 seg', '51100 B', '51 100 bytes'])
      expect(markValue(t, cwnd, 'segments', mss), t).toEqual({ right: true, hint: '' });
    // Asked in bytes, a number alone is bytes; a unit typed says otherwise.
    expect(markValue('51100', cwnd, 'bytes', mss).right).toBe(true);
    expect(markValue('1 segment', mss, 'bytes', mss).right).toBe(true);
    expect(markValue('34', cwnd, 'segments', mss)).toEqual({ right: false, hint: '' });
    expect(markValue('51101 B', cwnd, 'segments', mss).right).toBe(false);
  });

  it('is right within a segment’s rounding when answered in segments, exactly in bytes', () => {
    const cwnd = 28954; // 19.83 segments of 1460 B
    expect(markValue('20', cwnd, 'segments', mss).right).toBe(true);
    expect(markValue('19.832', cwnd, 'segments', mss).right).toBe(true);
    expect(markValue('19', cwnd, 'segments', mss).right).toBe(false);
    expect(markValue('19.5', cwnd, 'segments', mss).right).toBe(false);
    expect(markValue('28954 B', cwnd, 'segments', mss).right).toBe(true);
    expect(markValue('29200 B', cwnd, 'segments', mss).right).toBe(false);
  });

  it('a number right in the other unit is wrong, with a hint saying the unit and the MSS', () => {
    const cwnd = 35 * mss;
    const asBytes = markValue('51100', cwnd, 'segments', mss);
    expect(asBytes.right).toBe(false);
    expect(asBytes.hint).toContain('That is in bytes? 1 segment = 1460 B');
    const asSegs = markValue('35', cwnd, 'bytes', mss);
    expect(asSegs.right).toBe(false);
    expect(asSegs.hint).toContain('That is in segments? 1 segment = 1460 B');
    expect(markValue('35 B', cwnd, 'segments', mss).hint).toContain('35 segments would be');
    expect(markValue('seven', cwnd, 'segments', mss).hint).toContain('Type a number');
  });

  it('no ssthresh yet: inf, ∞, none or unset', () => {
    for (const t of ['inf', '∞', 'none', 'unset'])
      expect(markValue(t, 4294967295, 'segments', mss).right, t).toBe(true);
    expect(markValue('inf', 7000, 'segments', mss).right).toBe(false);
    expect(markValue('65535', 4294967295, 'bytes', mss).right).toBe(false);
  });

  it('marks each field with its hint', () => {
    const q: Question = { row: 0, index: 0, t: 1, instant: [0, 0], label: 'A' };
    const truth: Truth = { cwnd: 7 * mss, ssthresh: 4294967295, cwndFrom: 'output', ssthreshFrom: 'output' };
    const m = mark(
      q,
      { event: 'A', cwnd: '10220', ssthresh: 'unset' },
      truth,
      { id: 'r', title: 'R' },
      'segments',
      mss,
    );
    expect(m.right).toEqual({ event: true, cwnd: false, ssthresh: true });
    expect(m.hints.cwnd).toContain('in bytes?');
    expect(m.hints.ssthresh).toBe('');
  });
});
