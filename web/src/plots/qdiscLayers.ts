// What the queue plots add when a queue discipline manages the bottleneck's data direction
// (RED, CoDel, FQ-CoDel, PIE, step marking): the discipline's state from the engine's
// `qdisc` table (RED's average queue and drop probability, CoDel's dropping state and next
// drop, the sojourn a departing packet had, PIE's probability), its target or thresholds
// from the scenario's own parameters, and each drop (✕) and CE mark (◆) apart. Which
// discipline has which parameter is the schema's: a discipline with a `target` parameter
// holds the sojourn to it, one with `min_th`/`max_th` thresholds the average queue. Under
// drop-tail none of this draws: the plots are as they always were.
import { rowAt, rowsInForce, visibleRange } from '../engine/lookup';
import type { JsonValue } from '../lib/json';
import { formatNumber, formatValue, requireSpec, specOf } from '../scenario/params';
import { getAt } from '../scenario/paths';
import { canvasFont, lw } from './core/plotStyle';
import type { DrawFrame, PlotContext, PlotRun } from './core/types';
import { EVENT_CODE, strokeCrosses, visibleLine, strokePolyline } from './layers';

const QDISC = 'network.bottleneck.qdisc';
const PREFIX = 'network.bottleneck.';

/** Drops (✕) and CE marks (◆): the colours the legend shows. */
export const DROP_COLOR = '#b2182b';
export const MARK_COLOR = '#2166ac';
/** The dropping state's band and the probability line. */
export const DROPPING_FILL = 'rgba(230, 97, 1, 0.16)';
export const PROBABILITY_COLOR = '#762a83';
/** Dash of the target and thresholds; of the sojourn and RED's average. */
export const TARGET_DASH = [6, 3];
export const STATE_DASH = [2, 2];

/** The data direction's discipline (its schema value), or null under drop-tail (the
 *  schema's default). */
export function disciplineOf(context: PlotContext): string | null {
  const q = getAt(context.scenario, QDISC);
  return typeof q === 'string' && q !== requireSpec(QDISC).default ? q : null;
}

/** The discipline's label ("CoDel"), from the schema. */
export function disciplineLabel(kind: string): string {
  return formatValue(requireSpec(QDISC), kind);
}

/** The discipline's own parameter `name` (`network.bottleneck.<kind>.<name>`), or
 *  undefined when it has none. */
export function disciplineParam(context: PlotContext, kind: string, name: string): JsonValue | undefined {
  const path = `${PREFIX}${kind}.${name}`;
  return specOf(path) ? (getAt(context.scenario, path) ?? specOf(path)?.default) : undefined;
}

/** A discipline that holds the queue's delay to a target (CoDel, FQ-CoDel, PIE): the
 *  target, s; else null. */
export function targetOf(context: PlotContext): number | null {
  const kind = disciplineOf(context);
  const v = kind ? disciplineParam(context, kind, 'target') : undefined;
  return typeof v === 'number' ? v : null;
}

/** A discipline that drops by its average queue (RED): its thresholds (in packets, or in
 *  packets of packet_size in byte mode, as the engine counts them) and whether it counts
 *  bytes; else null. */
export function thresholdsOf(context: PlotContext): { min: number; max: number; bytes: number | null } | null {
  const kind = disciplineOf(context);
  if (!kind) return null;
  const min = disciplineParam(context, kind, 'min_th');
  const max = disciplineParam(context, kind, 'max_th');
  if (typeof min !== 'number' || typeof max !== 'number') return null;
  const size = disciplineParam(context, kind, 'packet_size');
  const bytes = disciplineParam(context, kind, 'bytes') === true && typeof size === 'number' ? size : null;
  return { min, max, bytes };
}

/** The runs whose queue a plot draws: one in a competition (a shared bottleneck). */
function queueRuns(f: { runs: PlotRun[]; context: PlotContext }): PlotRun[] {
  return f.context.competition ? f.runs.slice(0, 1) : f.runs;
}

/** Spans [start, end) within [t0, t1] where a change series' `v` is non-zero (the last one
 *  runs to `tEnd`, what the run has reached). */
export function onSpans(
  t: ArrayLike<number>,
  v: ArrayLike<number>,
  length: number,
  t0: number,
  t1: number,
  tEnd: number,
): [number, number][] {
  const [i0, i1] = rowsInForce(t, length, t0, t1);
  const out: [number, number][] = [];
  let start: number | null = null;
  for (let i = i0; i < i1; i += 1) {
    const on = (v[i] ?? 0) !== 0;
    const at = Math.max(t0, t[i] ?? t0);
    if (on && start === null) start = at;
    else if (!on && start !== null) {
      out.push([start, at]);
      start = null;
    }
  }
  if (start !== null) out.push([start, Math.min(t1, tEnd)]);
  return out.filter(([a, b]) => b > a);
}

/** CoDel's dropping state (FQ-CoDel's, of the queue it served last) as shaded bands. */
export function drawDroppingBands(f: DrawFrame): void {
  const { ctx } = f;
  ctx.save();
  ctx.fillStyle = DROPPING_FILL;
  for (const run of queueRuns(f)) {
    const q = run.trace.tables.qdisc;
    for (const [a, b] of onSpans(q.cols.t, q.cols.dropping, q.length, f.t0, f.t1, run.trace.now)) {
      const x0 = f.x(a);
      ctx.fillRect(x0, 0, Math.max(1, f.x(b) - x0), f.height);
    }
  }
  ctx.restore();
}

/** The smallest of 1, 2, 5 × 10^k at or above `p` (at most 1): the probability scale's top. */
export function probabilityTop(p: number): number {
  if (!(p > 0)) return 0.01;
  for (let k = -6; k <= 0; k += 1) {
    for (const m of [1, 2, 5]) {
      const top = m * 10 ** k;
      if (top >= p * (1 - 1e-9)) return Math.min(1, Number(top.toPrecision(3)));
    }
  }
  return 1;
}

/** The largest drop probability of the runs' discipline in [t0, t1]. */
function maxProbability(runs: PlotRun[], t0: number, t1: number): number {
  let hi = 0;
  for (const run of runs) {
    const q = run.trace.tables.qdisc;
    const [i0, i1] = rowsInForce(q.cols.t, q.length, t0, t1);
    for (let i = i0; i < i1; i += 1) hi = Math.max(hi, q.cols.p[i] ?? 0);
  }
  return hi;
}

/** Whether any run's discipline had a drop probability above 0 (RED, PIE). */
export function hasProbability(runs: PlotRun[]): boolean {
  return maxProbability(runs, -Infinity, Infinity) > 0;
}

/** The drop probability on a scale of its own along the plot's right edge (0 at the
 *  bottom, its top labelled), as a line in the probability's colour. */
export function drawProbability(f: DrawFrame): void {
  const runs = queueRuns(f);
  const hi = maxProbability(runs, f.t0, f.t1);
  if (hi <= 0) return;
  const top = probabilityTop(hi);
  const toY = (p: number) => f.height * (1 - p / top);
  const { ctx } = f;
  ctx.save();
  ctx.strokeStyle = PROBABILITY_COLOR;
  ctx.lineWidth = lw(1.2);
  for (const run of runs) {
    const line = visibleLine(f, run.trace, 'qdisc', 'p').polyline(toY, f.xl, Math.min(run.trace.now, f.t1));
    strokePolyline(ctx, line);
  }
  const text = `drop probability (right): 0 – ${formatNumber(top, 3)}`;
  ctx.font = canvasFont(11);
  const w = ctx.measureText(text).width;
  ctx.fillStyle = 'rgba(255,255,255,0.85)';
  ctx.fillRect(f.width - w - 10, 2, w + 6, 14);
  ctx.fillStyle = PROBABILITY_COLOR;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'top';
  ctx.fillText(text, f.width - 7, 3);
  ctx.restore();
}

/** A `qdisc` column of each run as a dotted line in the run's colour, through `toY`. */
export function drawStateLine(f: DrawFrame, column: 'avg' | 'sojourn', toY: (v: number) => number): void {
  const { ctx } = f;
  ctx.save();
  ctx.setLineDash(STATE_DASH);
  ctx.lineWidth = lw(1.5);
  for (const run of queueRuns(f)) {
    ctx.strokeStyle = f.context.competition ? '#333333' : run.style.color;
    strokePolyline(ctx, visibleLine(f, run.trace, 'qdisc', column).polyline(toY, f.xl, Math.min(run.trace.now, f.t1)));
  }
  ctx.restore();
}

/** The largest value of a `qdisc` column in [t0, t1] (0 when none). */
export function stateMax(runs: PlotRun[], column: 'avg' | 'sojourn', t0: number, t1: number): number {
  let hi = 0;
  for (const run of runs) {
    const q = run.trace.tables.qdisc;
    const [i0, i1] = rowsInForce(q.cols.t, q.length, t0, t1);
    for (let i = i0; i < i1; i += 1) hi = Math.max(hi, q.cols[column][i] ?? 0);
  }
  return hi;
}

const AQM_DROP = EVENT_CODE.get('aqm_drop');

/** The discipline's drops (`aqm_drop` rows of the drops table) and CE marks (the
 *  `ce_marks` table) of a run in [t0, t1]: their times. */
export function aqmEvents(run: PlotRun, t0: number, t1: number): { drops: number[]; marks: number[] } {
  const d = run.trace.tables.drops;
  const m = run.trace.tables.ce_marks;
  const drops: number[] = [];
  const marks: number[] = [];
  const [a0, a1] = visibleRange(d.cols.t, d.length, t0, t1);
  for (let i = a0; i < a1; i += 1) {
    const t = d.cols.t[i] ?? 0;
    if (d.cols.kind[i] === AQM_DROP && t >= t0 && t <= t1) drops.push(t);
  }
  const [b0, b1] = visibleRange(m.cols.t, m.length, t0, t1);
  for (let i = b0; i < b1; i += 1) {
    const t = m.cols.t[i] ?? 0;
    if (t >= t0 && t <= t1) marks.push(t);
  }
  return { drops, marks };
}

/** Drops as ✕ and CE marks as ◆ on each run's queue line (`yAt`: the line's y at t),
 *  thinned to one per few-pixel cell, each kind one path (a white halo, then its colour). */
export function drawDropsAndMarks(f: DrawFrame, yAt: (run: PlotRun, t: number) => number): void {
  const { ctx } = f;
  const points = { drops: [] as number[], marks: [] as number[] };
  const cells = { drops: new Set<number>(), marks: new Set<number>() };
  const lineRun = queueRuns(f)[0];
  // Every flow's drops in a competition, on the one queue line drawn.
  for (const run of f.runs) {
    const events = aqmEvents(run, f.t0, f.t1);
    const on = f.context.competition && lineRun ? lineRun : run;
    for (const kind of ['drops', 'marks'] as const) {
      for (const t of events[kind]) {
        const x = f.x(t);
        const y = yAt(on, t);
        const cell = Math.round(x / 5) * 100000 + Math.round(y / 5);
        if (cells[kind].has(cell)) continue;
        cells[kind].add(cell);
        points[kind].push(x, y);
      }
    }
  }
  ctx.save();
  ctx.setLineDash([]);
  const p = points.drops;
  if (p.length > 0) {
    strokeCrosses(
      ctx,
      p.length / 2,
      (k) => p[2 * k] ?? 0,
      (k) => p[2 * k + 1] ?? 0,
      DROP_COLOR,
    );
  }
  const m = points.marks;
  if (m.length > 0) {
    ctx.beginPath();
    for (let k = 0; k < m.length; k += 2) {
      const x = m[k] ?? 0;
      const y = m[k + 1] ?? 0;
      ctx.moveTo(x, y - 5);
      ctx.lineTo(x + 5, y);
      ctx.lineTo(x, y + 5);
      ctx.lineTo(x - 5, y);
      ctx.closePath();
    }
    ctx.fillStyle = MARK_COLOR;
    ctx.fill();
    ctx.lineWidth = lw(1);
    ctx.strokeStyle = '#ffffff';
    ctx.stroke();
  }
  ctx.restore();
}

/** Times of the discipline's drops and marks (what [ and ] step through). */
export function aqmEventTimes(runs: PlotRun[]): number[] {
  const out: number[] = [];
  for (const run of runs) {
    const e = aqmEvents(run, -Infinity, Infinity);
    out.push(...e.drops, ...e.marks);
  }
  return out.sort((a, b) => a - b);
}

/** The discipline's state at time t, in words ("CoDel: sojourn 7.2 ms (target 5 ms),
 *  dropping, next drop at 3.214 s"); '' without a discipline or before its first row. */
export function stateText(run: PlotRun, t: number, context: PlotContext): string {
  const kind = disciplineOf(context);
  if (!kind) return '';
  const q = run.trace.tables.qdisc;
  const r = rowAt(q.cols.t, q.length, t);
  const label = disciplineLabel(kind);
  if (r < 0) return `${label}: no packet yet`;
  const col = (c: keyof typeof q.cols) => q.cols[c][r] ?? 0;
  const parts: string[] = [];
  const th = thresholdsOf(context);
  if (th) parts.push(`average queue ${formatNumber(col('avg'), 4)} ${th.bytes ? 'bytes' : 'packets'}`);
  const target = targetOf(context);
  if (target !== null) {
    parts.push(`sojourn ${formatNumber(col('sojourn') * 1000, 3)} ms (target ${formatNumber(target * 1000, 3)} ms)`);
  }
  if (col('dropping') !== 0) {
    const next = col('drop_next');
    parts.push(Number.isFinite(next) ? `dropping, next drop at ${formatNumber(next, 6)} s` : 'dropping');
  }
  if (th || col('p') > 0) parts.push(`drop probability ${formatNumber(col('p'), 3)}`);
  return `${label}: ${parts.length > 0 ? parts.join(', ') : 'state unchanged'}`;
}

/** The sentence for screen readers: who manages the queue, and each run's drops and marks
 *  (the engine's summary: drops.queue counts a discipline's drops and a full buffer's). */
export function describeDiscipline(runs: PlotRun[], context: PlotContext): string {
  const kind = disciplineOf(context);
  if (!kind) return '';
  const target = targetOf(context);
  const th = thresholdsOf(context);
  const what =
    target !== null
      ? ` with a target of ${formatNumber(target * 1000, 3)} ms`
      : th
        ? ` with thresholds ${formatNumber(th.min)} and ${formatNumber(th.max)}`
        : '';
  const counts = runs.map((r) => {
    const f = r.summary?.flows[r.flow ?? 0];
    return f ? `${r.label}: ${f.drops.queue} drops, ${f.drops.ce_marks ?? 0} CE marks` : `${r.label}: running`;
  });
  return ` ${disciplineLabel(kind)} manages the queue${what}; ${counts.join('; ')}.`;
}
