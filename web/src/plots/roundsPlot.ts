// The rounds view: cwnd and ssthresh per transmission round, the way textbooks draw them
// (x: round 1, 2, 3, …; y: the window in the page's unit, segments by default), the phase of each round shaded and
// named, a mark on each round with a fast retransmit (▼), a timeout (✕) or a partial ACK
// (○). What a round is and every number come from the engine (`Sim.rounds_json`, carried
// with a run's chunks into `RunTrace.rounds`); this module only maps and draws them. The
// shared time cursor maps to the round containing it (roundIndexAt) and a round to its
// start time, which is where hovering a round puts the cursor.
import type { EventKindName } from '../engine/pkg/vocabulary';
import type { RoundJson, RoundsJson } from '../engine/protocol';
import { formatNumber } from '../scenario/params';
import { amountNumber, DEFAULT_UNIT, unitLabel, type WindowUnit } from '../lib/units';
import { drawMarker, EVENT_MARKS, PHASES, type AlgStyle, type PhaseStyle } from '../lib/styles';
import { canvasFont, lw, markerR, textPx } from './core/plotStyle';
import { LANE_H, laneHeight } from './windowPlot';

/** The unit of the y axis: the page's unit for windows (`unit=`; lib/units.ts). */
export type RoundsUnit = WindowUnit;
/** The unit a page without `unit=` draws the rounds in (segments). */
export const ROUNDS_UNIT: RoundsUnit = DEFAULT_UNIT;

/** One run's rounds as a plot draws them. */
export interface RoundsRun {
  key: string;
  label: string;
  style: AlgStyle;
  /** The engine's rounds (null: none read yet). */
  data: RoundsJson | null;
  /** Simulated time the run has reached, s (the end of a round still open). */
  now: number;
}

/** The index in `rounds` of the round containing time t: start ≤ t < end, or start ≤ t ≤
 *  now for the round still open; -1 before the first round and between rounds (no round is
 *  open while the application has nothing to send, or while a retransmission timer runs). */
export function roundIndexAt(rounds: readonly RoundJson[], t: number, now = Infinity): number {
  const i = lastStartingBy(rounds, t);
  const r = rounds[i];
  if (!r) return -1;
  const end = r.end ?? now;
  return t < end || (r.end === null && t <= end) ? i : -1;
}

/** The index of the last round starting at or before t (-1: none). */
export function lastStartingBy(rounds: readonly RoundJson[], t: number): number {
  let lo = 0;
  let hi = rounds.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((rounds[mid]?.start ?? Infinity) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** The time the cursor goes to for round number n (its start), or null without one. */
export function roundStart(rounds: readonly RoundJson[], n: number): number | null {
  // Rounds are numbered 1, 2, 3, … in order: round n is at index n − 1.
  const r = rounds[n - 1];
  return r && r.round === n ? r.start : (rounds.find((x) => x.round === n)?.start ?? null);
}

/** The rounds (numbers, inclusive) of `rounds` that overlap [t0, t1]; null when none. */
export function roundsWithin(
  rounds: readonly RoundJson[],
  t0: number,
  t1: number,
  now = Infinity,
): [number, number] | null {
  let first = -1;
  let last = -1;
  for (const r of rounds) {
    const end = r.end ?? now;
    if (r.start <= t1 && end >= t0) {
      if (first < 0) first = r.round;
      last = r.round;
    }
  }
  return first < 0 ? null : [first, last];
}

/** A window in the unit (null = unlimited stays null). */
export function inUnit(bytes: number | null, mss: number, unit: RoundsUnit = ROUNDS_UNIT): number | null {
  if (bytes === null || !Number.isFinite(bytes)) return null;
  return unit === 'bytes' || !(mss > 0) ? bytes : bytes / mss;
}

/** "segments" / "bytes": the engine's label of the unit. */
export function unitText(unit: RoundsUnit = ROUNDS_UNIT): string {
  return unitLabel(unit);
}

/** A round's window as text in the unit ("21", "30 660", "∞"). */
function windowText(bytes: number | null, mss: number, unit: RoundsUnit): string {
  return bytes === null ? '∞' : amountNumber(bytes, unit, mss);
}

/** The look of an engine phase (its fill, hatch and names), by name. */
export function phaseByName(name: string): PhaseStyle | undefined {
  return PHASES.find((p) => p.name === name);
}

/** How the page names an engine phase ("slow_start" → "Slow start"). */
export function phaseText(name: string): string {
  return phaseByName(name)?.label ?? name.replace(/_/g, ' ');
}

/** How the page names an engine event kind in a round. */
const EVENT_TEXT: Record<string, string> = {
  fast_retransmit: 'fast retransmit',
  timeout: 'timeout',
  partial_ack: 'partial ACK',
  recovery_exit: 'recovery exit',
  fast_retransmit_suppressed: 'fast retransmit suppressed',
};

/** "fast retransmit" for an engine event-kind name. */
export function eventText(name: string): string {
  return EVENT_TEXT[name] ?? name.replace(/_/g, ' ');
}

/** The events marked on the plot, in the window plot's glyphs, most important first. */
export const MARKED_EVENTS = ['timeout', 'fast_retransmit', 'partial_ack'] as const satisfies readonly EventKindName[];

/** One round in words: "round 7: cwnd 1, ssthresh 3 segments · Timeout recovery · 1 sent,
 *  1 retransmitted · timeout". */
export function roundText(r: RoundJson, unit: RoundsUnit = ROUNDS_UNIT): string {
  const parts = [
    `round ${r.round}: cwnd ${windowText(r.cwnd, r.mss, unit)}, ssthresh ${windowText(r.ssthresh, r.mss, unit)} ${unitText(unit)}`,
    phaseText(r.phase),
    `${r.sent} sent${r.retransmitted > 0 ? `, ${r.retransmitted} retransmitted` : ''}`,
  ];
  if (r.events.length > 0) parts.push(r.events.map(eventText).join(', '));
  if (r.end === null) parts.push('still open');
  return parts.join(' · ');
}

/** The readout of one run at time t. */
export function roundsReadout(run: RoundsRun, t: number, unit: RoundsUnit = ROUNDS_UNIT): string {
  const d = run.data;
  if (!d) return 'no rounds yet';
  if (d.unavailable !== undefined) return `no rounds: ${d.unavailable}`;
  const i = roundIndexAt(d.rounds, t, run.now);
  const r = d.rounds[i];
  if (r) return roundText(r, unit);
  const before = d.rounds[lastStartingBy(d.rounds, t)];
  if (!before)
    return d.rounds.length === 0
      ? 'no rounds yet'
      : `before round 1 (t = ${formatNumber(d.rounds[0]?.start ?? 0, 4)} s)`;
  const next = d.rounds[before.round];
  return next
    ? `between round ${before.round} and round ${next.round}: no round open (waiting${before.events.includes('timeout') || next.events.includes('timeout') || next.phase === 'timeout_recovery' ? ' for the retransmission timer' : ''})`
    : `after round ${before.round}, the last`;
}

/** A sentence for screen readers. */
export function roundsDescribe(runs: readonly RoundsRun[], unit: RoundsUnit = ROUNDS_UNIT): string {
  const parts = runs.map((run) => {
    const d = run.data;
    if (!d) return `${run.label}: running`;
    if (d.unavailable !== undefined) return `${run.label}: no rounds (${d.unavailable})`;
    const marks = MARKED_EVENTS.flatMap((kind) => {
      const at = d.rounds.filter((r) => r.events.includes(kind)).map((r) => r.round);
      if (at.length === 0) return [];
      const list = at.length > 6 ? `${at.slice(0, 6).join(', ')}, …` : at.join(', ');
      return [`${eventText(kind)} in round${at.length > 1 ? 's' : ''} ${list}`];
    });
    const peak = d.rounds.reduce((m, r) => Math.max(m, r.cwnd), 0);
    const mss = d.rounds[0]?.mss ?? 1;
    return `${run.label}: ${d.rounds.length} rounds, largest cwnd ${windowText(peak, mss, unit)}${marks.length > 0 ? `, ${marks.join(', ')}` : ''}`;
  });
  return `Congestion window and ssthresh per transmission round, in ${unitText(unit)}, with each round's phase shaded and named. ${parts.join('; ')}.`;
}

/** The largest window (cwnd, finite ssthresh) of the runs' rounds numbered r0…r1. */
export function roundsMax(runs: readonly RoundsRun[], r0: number, r1: number, unit: RoundsUnit = ROUNDS_UNIT): number {
  let hi = 0;
  for (const run of runs) {
    for (const r of run.data?.rounds ?? []) {
      if (r.round < r0 || r.round > r1) continue;
      hi = Math.max(hi, inUnit(r.cwnd, r.mss, unit) ?? 0, inUnit(r.ssthresh, r.mss, unit) ?? 0);
    }
  }
  return hi;
}

/** What a draw gets: the plot area's maps (round number → x, window → y, CSS px). */
export interface RoundsFrame {
  ctx: CanvasRenderingContext2D;
  x: (round: number) => number;
  y: (value: number) => number;
  width: number;
  height: number;
  /** Rounds shown, inclusive. */
  r0: number;
  r1: number;
  runs: RoundsRun[];
  /** Several runs in this plot. */
  overlay: boolean;
  unit?: RoundsUnit;
  /** The textbook round model of the same losses (web/src/textbook), drawn beside the
   *  per-packet rounds: its [round, cwnd in the plot's unit] points and its label. */
  textbook?: TextbookLine | null;
}

/** The textbook model's cwnd line. */
export interface TextbookLine {
  points: [number, number][];
  label: string;
}

/** The textbook line's colour: apart from every run's (a dark grey-violet), and dashed. */
export const TEXTBOOK_COLOR = '#4b3a6b';

/** The textbook model's cwnd: a dashed line with square markers, labelled at its end. */
function drawTextbook(f: RoundsFrame, line: TextbookLine): void {
  const { ctx } = f;
  const pts = line.points.map(([r, v]): [number, number] => [f.x(r), f.y(v)]);
  if (pts.length === 0) return;
  ctx.save();
  ctx.strokeStyle = TEXTBOOK_COLOR;
  ctx.lineWidth = lw(2);
  ctx.lineJoin = 'round';
  ctx.setLineDash([7, 4]);
  ctx.beginPath();
  pts.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
  ctx.stroke();
  ctx.setLineDash([]);
  const colW = f.x(1) - f.x(0);
  if (colW >= 5) {
    const s = Math.min(3, colW / 4);
    ctx.fillStyle = '#ffffff';
    for (const [x, y] of pts) {
      ctx.fillRect(x - s, y - s, 2 * s, 2 * s);
      ctx.strokeRect(x - s, y - s, 2 * s, 2 * s);
    }
  }
  // The label as a legend in the top right corner, under the phase lanes (the room kept
  // above the data): a dashed swatch and the name.
  ctx.font = canvasFont(11, 600);
  const w = ctx.measureText(line.label).width;
  const sw = 22;
  const lx = Math.max(2, f.width - w - sw - 12);
  const ly = roundsLaneHeight(f.runs.length) * Math.max(1, f.runs.length) + textPx(14);
  ctx.fillStyle = 'rgba(255,255,255,0.9)';
  ctx.fillRect(lx - 4, ly - textPx(11), w + sw + 12, textPx(15));
  ctx.setLineDash([7, 4]);
  ctx.beginPath();
  ctx.moveTo(lx, ly - textPx(4));
  ctx.lineTo(lx + sw, ly - textPx(4));
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = TEXTBOOK_COLOR;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  ctx.fillText(line.label, lx + sw + 4, ly);
  ctx.restore();
}

/** The height of the phase lanes of n runs (the window plot's). */
export function roundsLaneHeight(n: number): number {
  return n > 1 ? laneHeight(n) : textPx(LANE_H);
}

/** Consecutive rounds of one phase, [first, last] round numbers. */
function phaseSpans(rounds: readonly RoundJson[], r0: number, r1: number): [number, number, string][] {
  const out: [number, number, string][] = [];
  for (const r of rounds) {
    if (r.round < r0 || r.round > r1) continue;
    const last = out[out.length - 1];
    if (last && last[2] === r.phase && last[1] === r.round - 1) last[1] = r.round;
    else out.push([r.round, r.round, r.phase]);
  }
  return out;
}

/** Phase shading: full-height columns (one run) and a lane per run along the top, with the
 *  phase's name where the span has room (its short name where it has less). */
function drawPhases(f: RoundsFrame): void {
  const { ctx } = f;
  const laneH = roundsLaneHeight(f.runs.length);
  f.runs.forEach((run, i) => {
    const laneY = i * laneH;
    for (const [a, b, name] of phaseSpans(run.data?.rounds ?? [], f.r0, f.r1)) {
      const phase = phaseByName(name);
      if (!phase) continue;
      const xa = f.x(a - 0.5);
      const w = Math.max(1, f.x(b + 0.5) - xa);
      if (f.runs.length === 1) {
        ctx.globalAlpha = 0.3;
        ctx.fillStyle = phase.fill;
        ctx.fillRect(xa, 0, w, f.height);
        ctx.globalAlpha = 1;
      }
      // The lane: the phase's colour, its name on it (colour is never the only cue).
      ctx.fillStyle = phase.fill;
      ctx.fillRect(xa, laneY, w, laneH - 1);
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(xa, laneY, 1, laneH - 1);
      if (laneH >= 10) {
        ctx.font = canvasFont(9, 600);
        const long = phase.label;
        const text =
          ctx.measureText(long).width + 6 < w ? long : ctx.measureText(phase.short).width + 4 < w ? phase.short : '';
        if (text !== '') {
          ctx.fillStyle = '#1b1f24';
          ctx.textAlign = 'left';
          ctx.textBaseline = 'middle';
          ctx.fillText(text, xa + 3, laneY + laneH / 2);
        }
      }
    }
  });
}

/** ssthresh: a dashed level across each round (none where it is unlimited). */
function drawSsthresh(f: RoundsFrame, run: RoundsRun): void {
  const { ctx } = f;
  ctx.save();
  ctx.strokeStyle = run.style.color;
  ctx.globalAlpha = 0.9;
  ctx.lineWidth = lw(1.5);
  ctx.setLineDash([6, 4]);
  ctx.beginPath();
  let pen = false;
  for (const r of run.data?.rounds ?? []) {
    if (r.round < f.r0 || r.round > f.r1) continue;
    const v = inUnit(r.ssthresh, r.mss, f.unit);
    if (v === null) {
      pen = false;
      continue;
    }
    const y = f.y(v);
    if (pen) ctx.lineTo(f.x(r.round - 0.5), y);
    else ctx.moveTo(f.x(r.round - 0.5), y);
    ctx.lineTo(f.x(r.round + 0.5), y);
    pen = true;
  }
  ctx.stroke();
  ctx.restore();
}

/** cwnd: a line through each round's value, a marker on each round where they have room. */
function drawCwnd(f: RoundsFrame, run: RoundsRun): void {
  const { ctx } = f;
  const pts: [number, number][] = [];
  for (const r of run.data?.rounds ?? []) {
    if (r.round < f.r0 || r.round > f.r1) continue;
    pts.push([f.x(r.round), f.y(inUnit(r.cwnd, r.mss, f.unit) ?? 0)]);
  }
  ctx.save();
  ctx.strokeStyle = run.style.color;
  ctx.lineWidth = lw(2);
  ctx.lineJoin = 'round';
  ctx.setLineDash([]);
  ctx.beginPath();
  pts.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
  ctx.stroke();
  ctx.restore();
  const colW = f.x(1) - f.x(0);
  if (colW >= 5) {
    const r = Math.min(4, colW / 3);
    for (const [x, y] of pts) drawMarker(ctx, f.overlay ? run.style.marker : 'circle', x, y, r, run.style.color);
  }
}

/** ▼ fast retransmit, ✕ timeout, ○ partial ACK above the round's cwnd, stacked. */
function drawEvents(f: RoundsFrame, run: RoundsRun): void {
  const { ctx } = f;
  const m = markerR(1);
  const colW = f.x(1) - f.x(0);
  for (const r of run.data?.rounds ?? []) {
    if (r.round < f.r0 || r.round > f.r1) continue;
    const kinds = MARKED_EVENTS.filter((k) => r.events.includes(k));
    if (kinds.length === 0) continue;
    const px = f.x(r.round);
    let py = f.y(inUnit(r.cwnd, r.mss, f.unit) ?? 0) - 12 * m;
    for (const kind of kinds) {
      const glyph = EVENT_MARKS[kind]?.glyph;
      const s = Math.min(5 * m, Math.max(3, colW / 2));
      py = Math.max(s + 1, py);
      ctx.save();
      ctx.setLineDash([]);
      ctx.beginPath();
      if (glyph === 'down') {
        ctx.moveTo(px - s, py - 0.8 * s);
        ctx.lineTo(px + s, py - 0.8 * s);
        ctx.lineTo(px, py + 0.8 * s);
        ctx.closePath();
        ctx.fillStyle = run.style.color;
        ctx.fill();
        ctx.lineWidth = lw(1);
        ctx.strokeStyle = '#111';
        ctx.stroke();
      } else if (glyph === 'x') {
        ctx.moveTo(px - s, py - s);
        ctx.lineTo(px + s, py + s);
        ctx.moveTo(px + s, py - s);
        ctx.lineTo(px - s, py + s);
        ctx.lineWidth = lw(3.5);
        ctx.strokeStyle = '#fff';
        ctx.stroke();
        ctx.lineWidth = lw(2);
        ctx.strokeStyle = '#111';
        ctx.stroke();
      } else {
        ctx.arc(px, py, 0.7 * s, 0, Math.PI * 2);
        ctx.fillStyle = '#fff';
        ctx.fill();
        ctx.lineWidth = lw(2);
        ctx.strokeStyle = run.style.color;
        ctx.stroke();
      }
      ctx.restore();
      py -= 2.4 * s;
    }
  }
}

/** A notice in the middle of the plot (no rounds to draw, and why). */
function drawNotice(f: RoundsFrame, text: string): void {
  const { ctx } = f;
  ctx.save();
  ctx.font = canvasFont(12);
  ctx.fillStyle = '#1b1f24';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  // Wrapped to the plot's width, word by word.
  const words = text.split(' ');
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    const next = line === '' ? w : `${line} ${w}`;
    if (ctx.measureText(next).width > f.width - 24 && line !== '') {
      lines.push(line);
      line = w;
    } else line = next;
  }
  if (line !== '') lines.push(line);
  const h = textPx(16);
  lines.forEach((l, i) => ctx.fillText(l, f.width / 2, f.height / 2 + (i - (lines.length - 1) / 2) * h));
  ctx.restore();
}

/** The text drawn when no run has rounds to show (null when some run has). */
export function roundsNotice(runs: readonly RoundsRun[]): string | null {
  if (runs.some((r) => (r.data?.rounds.length ?? 0) > 0)) return null;
  const why = runs.map((r) => r.data?.unavailable).find((u) => u !== undefined);
  if (why !== undefined) return `No rounds to show: ${why}.`;
  return runs.every((r) => r.data !== null) ? 'No rounds yet.' : 'Rounds arrive when the run has computed.';
}

/** Draws every layer of the rounds view in plot-area coordinates. */
export function drawRounds(f: RoundsFrame): void {
  const notice = roundsNotice(f.runs);
  if (notice !== null) {
    drawNotice(f, notice);
    return;
  }
  drawPhases(f);
  for (const run of f.runs) drawSsthresh(f, run);
  for (const run of f.runs) drawCwnd(f, run);
  if (f.textbook) drawTextbook(f, f.textbook);
  for (const run of f.runs) drawEvents(f, run);
}
