// The CDF panels: the thin-stream ones (source 004, figures 2–7), for payload, ITT, sojourn
// and latency, and the short transfers' completion times (TransfersPlots.tsx): the empirical
// CDF of each compared run, one line per algorithm in its colour, dash and marker, with markers at its 50th and 90th percentiles. The x axis is the value
// (not time), from 0 to the largest 99th percentile of the runs (so a long tail, such as
// one ITT of a backed-off timeout, does not squeeze the rest into a corner); the lines that
// go on run off the right edge, and a note above the panel gives the longest value.
//
// Or logarithmic (`cdfx=log`): ITT, sojourn and latency span orders of magnitude. The axis
// then runs from the decade below the smallest positive value of the runs (at most
// LOG_DECADES decades below the end) to 1, 2 or 5 × the power of ten at or above the largest
// value (no tail is cut: a log axis has room for it). A value at or below the axis start (0:
// a write sent at once, two packets at one instant) is drawn at the start, so a line rises
// there by the share of such values; a note above the panel says so, and the readout at the
// start counts them.
import { upperBound } from '../engine/lookup';
import { drawMarker } from '../lib/styles';
import { formatNumber } from '../scenario/params';
import { mapLinear, type Linear } from './core/decimate';
import type { PlotRun, ReadoutLine } from './core/types';
import { strokePolyline } from './layers';
import { cdfAt, cdfPolyline, meanOf, nearestRank, type ThinKind, type TimeWindow } from './thinSamples';

/** What a CDF panel shows: a thin-stream measurement, or the short transfers' completion
 *  times (TransfersPlots.tsx, from the engine's summary). */
export type CdfKind = ThinKind | 'transfer';
import { lw } from './core/plotStyle';

/** How one measurement is shown. */
export interface CdfKindSpec {
  /** Panel title (the unit follows in brackets). */
  title: string;
  /** Unit on the x axis. */
  unit: string;
  /** Engine unit → shown unit (s → ms). */
  factor: number;
  /** What the values are, for screen readers. */
  what: string;
  /** What is counted ("packets"). */
  items: string;
}

/** The four panels. */
export const CDF_KINDS: Record<CdfKind, CdfKindSpec> = {
  payload: { title: 'Payload per packet', unit: 'B', factor: 1, what: 'payload of each data packet', items: 'packets' },
  itt: {
    title: 'Inter-transmission time',
    unit: 'ms',
    factor: 1e3,
    what: 'time from each data packet to the next (ITT, retransmissions included)',
    items: 'gaps',
  },
  sojourn: {
    title: 'Sojourn time of writes',
    unit: 'ms',
    factor: 1e3,
    what: 'sojourn time of each delivered write (written until its last byte was first sent)',
    items: 'writes',
  },
  latency: {
    title: 'Latency of writes',
    unit: 'ms',
    factor: 1e3,
    what: 'latency of each delivered write (written until delivered in order)',
    items: 'writes',
  },
  transfer: {
    title: 'Completion time of transfers',
    unit: 'ms',
    factor: 1e3,
    what: 'completion time of each short transfer (from when it was due until its last byte was acknowledged)',
    items: 'transfers',
  },
};

/** Percentiles marked on each line (and listed in the text). */
export const MARKED_PERCENTILES = [50, 90] as const;

/** One run's sorted samples of the panel's measurement (engine units). */
export interface CdfRun {
  run: Pick<PlotRun, 'key' | 'label' | 'style'>;
  sorted: Float64Array;
}

/** The x range the runs need, in shown units: `hi`, where the axis ends (before nice()):
 *  the largest 99th percentile, or the largest value when that is 0; `max`, the largest. */
export function cdfRange(kind: CdfKind, runs: readonly CdfRun[]): { hi: number; max: number } {
  const f = CDF_KINDS[kind].factor;
  let hi = 0;
  let max = 0;
  for (const { sorted } of runs) {
    if (sorted.length === 0) continue;
    hi = Math.max(hi, nearestRank(sorted, 99) * f);
    max = Math.max(max, (sorted[sorted.length - 1] ?? 0) * f);
  }
  if (!(hi > 0)) hi = max;
  if (!(hi > 0)) hi = kind === 'payload' ? 100 : 1;
  return { hi, max };
}

/** Decades a logarithmic axis spans at most: smaller values are drawn at its start. */
export const LOG_DECADES = 6;

/** A logarithmic x axis in shown units, as positions (log10 of the value): from `lo` (a whole
 *  decade) to `hi` (the exponent of 1, 2 or 5 × a power of ten). */
export interface LogAxis {
  lo: number;
  hi: number;
  /** 10^lo, where values at or below it are drawn. */
  start: number;
  /** Some value lies below the start (a 0, or a positive value more than LOG_DECADES
   *  decades below the end); `zerosOnly`: each of them is 0. */
  clamped: boolean;
  zerosOnly: boolean;
}

/** The smallest of 1, 2, 5 × 10^k at or above `v` (> 0), as its exponent (a hair of
 *  tolerance, within the readout's: 10.000000000000009 ms, float noise of 10 ms, ends at
 *  10, not 20). */
function niceEnd(v: number): number {
  const k = Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) {
    if (m * 10 ** k >= v * (1 - 1e-12)) return m === 10 ? k + 1 : m === 1 ? k : Math.log10(m * 10 ** k);
  }
  return k + 1;
}

/** The logarithmic axis the runs need: from the decade below the smallest positive value
 *  (at most LOG_DECADES decades below the end) to 1, 2 or 5 × the power of ten at or above
 *  the largest value. With no positive value at all, one decade from 1 (every value is then
 *  drawn at the start). */
export function cdfLogAxis(kind: CdfKind, runs: readonly CdfRun[]): LogAxis {
  const f = CDF_KINDS[kind].factor;
  let minPos = Infinity;
  let max = 0;
  let zeros = false;
  for (const { sorted } of runs) {
    const n = sorted.length;
    const first = upperBound(sorted, n, 0);
    if (first > 0) zeros = true;
    if (first >= n) continue;
    minPos = Math.min(minPos, (sorted[first] ?? Infinity) * f);
    max = Math.max(max, (sorted[n - 1] ?? 0) * f);
  }
  if (!(max > 0)) return { lo: 0, hi: 1, start: 1, clamped: zeros, zerosOnly: true };
  const hi = niceEnd(max);
  // Below the smallest value (a value of exactly 10^k starts a decade lower, so the only
  // values drawn at the start are those below it), within LOG_DECADES of the end.
  const top = Math.ceil(hi - 1e-9);
  const lo = Math.min(top - 1, Math.max(top - LOG_DECADES, Math.floor(Math.log10(minPos) - 1e-9)));
  const start = 10 ** lo;
  const below = minPos < start;
  return { lo, hi, start, clamped: zeros || below, zerosOnly: !below };
}

/** Shown value → position on a logarithmic axis starting at `start` (log10; values at or
 *  below the start, 0 included, at the start). */
export function logPosition(start: number): (v: number) => number {
  const s = Math.log10(start);
  return (v) => (v > start ? Math.log10(v) : s);
}

/** A logarithmic axis's tick label: the value at position `e` (0.001, 1, 2000). */
export function logTickLabel(e: number): string {
  return formatNumber(10 ** e, 6);
}

/** Tick positions of a logarithmic axis from `lo` to `hi`, `width` px wide: every decade (and
 *  2 and 5 between when the decades have room for them), or every 2nd, 3rd… decade when the
 *  labels would collide; always the end, which carries the unit, and the start where it has
 *  room. */
export function logTicks(lo: number, hi: number, width: number): number[] {
  const perDecade = width / Math.max(1e-9, hi - lo);
  const widest = Math.max(...[lo, hi].map((e) => logTickLabel(e).length));
  // About 6 px per character of the 10 px sans-serif labels, and a gap.
  const room = 6 * widest + 12;
  const eps = 1e-9;
  if (perDecade * (1 - Math.log10(5)) >= room) {
    // 1, 2, 5 × each decade: the narrowest gap (5 → 10) has room.
    const out: number[] = [];
    for (let e = lo; e <= hi + eps; e += 1) {
      for (const m of [1, 2, 5]) {
        const p = e + Math.log10(m);
        if (p <= hi + eps) out.push(m === 1 ? e : p);
      }
    }
    return out;
  }
  const step = Math.max(1, Math.ceil(room / perDecade));
  const out: number[] = [];
  for (let e = Math.floor(hi + eps); e >= lo; e -= step) {
    // The end is labelled; a decade too close below it is not.
    if (e < hi - eps && (hi - e) * perDecade < room) continue;
    out.unshift(e);
  }
  if (out.at(-1) !== hi && Math.abs((out.at(-1) ?? -Infinity) - hi) > eps) out.push(hi);
  // The start too, where its label has room.
  if ((out[0] ?? lo) > lo && ((out[0] ?? lo) - lo) * perDecade >= room) out.unshift(lo);
  return out;
}

/** The note above a logarithmic panel whose values include some drawn at the start. */
export function startNote(kind: CdfKind, axis: LogAxis): string | null {
  if (!axis.clamped) return null;
  const unit = CDF_KINDS[kind].unit;
  const what = axis.zerosOnly ? '0' : `0 to ${logTickLabel(axis.lo)}`;
  return `← ${what} ${unit} drawn at the axis start`;
}

/** What a screen reader is told about a logarithmic axis. */
export function logAxisText(kind: CdfKind, axis: LogAxis): string {
  const unit = CDF_KINDS[kind].unit;
  const start = axis.clamped
    ? `; ${axis.zerosOnly ? 'values of 0' : `values from 0 to ${logTickLabel(axis.lo)} ${unit}`} are drawn at its start`
    : '';
  return `The x axis is logarithmic, ${logTickLabel(axis.lo)} to ${logTickLabel(axis.hi)} ${unit}${start}.`;
}

/** What a panel's draw call gets (CSS pixels inside the plot area). */
export interface CdfFrame {
  ctx: CanvasRenderingContext2D;
  /** Position on the x axis (`axis` of a value in shown units) → x; share 0…1 → y. */
  xl: Linear;
  yl: Linear;
  width: number;
  height: number;
  dpr: number;
  kind: CdfKind;
  runs: CdfRun[];
  /** Shown value → position on the x axis: the identity (linear), or `logPosition`. */
  axis?: (shown: number) => number;
}

/** Draws every run's CDF and its percentile markers. */
export function drawCdf(f: CdfFrame): void {
  const { ctx, kind, runs } = f;
  const spec = CDF_KINDS[kind];
  const several = runs.length > 1;
  const axis = f.axis ?? ((v: number) => v);
  for (const { run, sorted } of runs) {
    if (sorted.length === 0) continue;
    const line = cdfPolyline(sorted, spec.factor, f.xl, f.yl, f.dpr, f.width, axis);
    ctx.strokeStyle = run.style.color;
    ctx.lineWidth = lw(2);
    ctx.setLineDash(several ? run.style.dash : []);
    strokePolyline(ctx, line);
    ctx.setLineDash([]);
  }
  runs.forEach(({ run, sorted }) => {
    if (sorted.length === 0) return;
    for (const p of MARKED_PERCENTILES) {
      const x = mapLinear(f.xl, axis(nearestRank(sorted, p) * spec.factor));
      if (x <= f.width + 1) drawMarker(ctx, run.style.marker, x, mapLinear(f.yl, p / 100), 4, run.style.color);
    }
  });
}

/** The note shown above a panel whose lines run off the right end of the axis (`end`, in
 *  shown units): the longest value; null when every value is on the axis. */
export function tailNote(kind: CdfKind, runs: readonly CdfRun[], end: number): string | null {
  const { max } = cdfRange(kind, runs);
  return max > end * (1 + 1e-9) ? `longest ${formatNumber(max, 4)} ${CDF_KINDS[kind].unit} →` : null;
}

/** A value with enough digits to compare with the summary, in shown units. */
function shown(kind: CdfKind, v: number): string {
  const spec = CDF_KINDS[kind];
  return `${formatNumber(v * spec.factor, 6)} ${spec.unit}`;
}

/** Where the samples come from, in words; `soFar`: the runs have reached only this time
 *  (playing), else null. */
export function windowText(window: TimeWindow, soFar: number | null = null): string {
  if (window) return `from ${formatNumber(window[0], 6)} to ${formatNumber(window[1], 6)} s (the zoomed time window)`;
  return soFar === null ? 'over the whole run' : `over the run so far (to ${formatNumber(soFar, 4)} s)`;
}

/** The sentence for screen readers: per run, the count, median, 90th and 99th percentiles
 *  and the largest value (and the mean payload); then `axisText` (a logarithmic axis). */
export function describeCdf(
  kind: CdfKind,
  runs: readonly CdfRun[],
  window: TimeWindow,
  soFar: number | null = null,
  axisText = '',
): string {
  const spec = CDF_KINDS[kind];
  const parts = runs.map(({ run, sorted }) => {
    if (sorted.length === 0) return `${run.label}: no ${spec.items}`;
    const pct = (p: number) => shown(kind, nearestRank(sorted, p));
    const mean = kind === 'payload' ? `, mean ${shown(kind, meanOf(sorted))}` : '';
    return (
      `${run.label}: ${sorted.length} ${spec.items}, median ${pct(50)}, 90th percentile ${pct(90)}, ` +
      `99th percentile ${pct(99)}, largest ${shown(kind, sorted[sorted.length - 1] ?? NaN)}${mean}`
    );
  });
  const about = `CDF of the ${spec.what}, in ${spec.unit}, ${windowText(window, soFar)}. ${parts.join('; ')}.`;
  return axisText ? `${about} ${axisText}` : about;
}

/** Each run's share at or below `x` (shown units). */
export function readCdf(kind: CdfKind, runs: readonly CdfRun[], x: number): ReadoutLine[] {
  const f = CDF_KINDS[kind].factor;
  return runs.map(({ run, sorted }) => ({
    key: run.key,
    label: run.label,
    color: run.style.color,
    // A hair above x, so a value shown as x counts (the axis is in rounded units).
    text: sorted.length === 0 ? 'none' : `${formatNumber(cdfAt(sorted, (x / f) * (1 + 1e-12)) * 100, 4)} %`,
  }));
}
