// The thin-stream CDF panels (source 004, figures 2–7): for payload, ITT, sojourn and
// latency, the empirical CDF of each compared run, one line per algorithm in its colour,
// dash and marker, with markers at its 50th and 90th percentiles. The x axis is the value
// (not time), from 0 to the largest 99th percentile of the runs (so a long tail, such as
// one ITT of a backed-off timeout, does not squeeze the rest into a corner); the lines that
// go on run off the right edge, and a note above the panel gives the longest value.
import { drawMarker } from '../lib/styles';
import { formatNumber } from '../scenario/params';
import { mapLinear, type Linear } from './core/decimate';
import type { PlotRun, ReadoutLine } from './core/types';
import { strokePolyline } from './layers';
import { cdfAt, cdfPolyline, meanOf, nearestRank, type ThinKind, type TimeWindow } from './thinSamples';

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
export const CDF_KINDS: Record<ThinKind, CdfKindSpec> = {
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
export function cdfRange(kind: ThinKind, runs: readonly CdfRun[]): { hi: number; max: number } {
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

/** What a panel's draw call gets (CSS pixels inside the plot area). */
export interface CdfFrame {
  ctx: CanvasRenderingContext2D;
  /** Value (shown units) → x; share 0…1 → y. */
  xl: Linear;
  yl: Linear;
  width: number;
  height: number;
  dpr: number;
  kind: ThinKind;
  runs: CdfRun[];
}

/** Draws every run's CDF and its percentile markers. */
export function drawCdf(f: CdfFrame): void {
  const { ctx, kind, runs } = f;
  const spec = CDF_KINDS[kind];
  const several = runs.length > 1;
  for (const { run, sorted } of runs) {
    if (sorted.length === 0) continue;
    const line = cdfPolyline(sorted, spec.factor, f.xl, f.yl, f.dpr, f.width);
    ctx.strokeStyle = run.style.color;
    ctx.lineWidth = 2;
    ctx.setLineDash(several ? run.style.dash : []);
    strokePolyline(ctx, line);
    ctx.setLineDash([]);
  }
  runs.forEach(({ run, sorted }) => {
    if (sorted.length === 0) return;
    for (const p of MARKED_PERCENTILES) {
      const x = mapLinear(f.xl, nearestRank(sorted, p) * spec.factor);
      if (x <= f.width + 1) drawMarker(ctx, run.style.marker, x, mapLinear(f.yl, p / 100), 4, run.style.color);
    }
  });
}

/** The note shown above a panel whose lines run off the right end of the axis (`end`, in
 *  shown units): the longest value; null when every value is on the axis. */
export function tailNote(kind: ThinKind, runs: readonly CdfRun[], end: number): string | null {
  const { max } = cdfRange(kind, runs);
  return max > end * (1 + 1e-9) ? `longest ${formatNumber(max, 4)} ${CDF_KINDS[kind].unit} →` : null;
}

/** A value with enough digits to compare with the summary, in shown units. */
function shown(kind: ThinKind, v: number): string {
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
 *  and the largest value (and the mean payload). */
export function describeCdf(
  kind: ThinKind,
  runs: readonly CdfRun[],
  window: TimeWindow,
  soFar: number | null = null,
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
  return `CDF of the ${spec.what}, in ${spec.unit}, ${windowText(window, soFar)}. ${parts.join('; ')}.`;
}

/** Each run's share at or below `x` (shown units). */
export function readCdf(kind: ThinKind, runs: readonly CdfRun[], x: number): ReadoutLine[] {
  const f = CDF_KINDS[kind].factor;
  return runs.map(({ run, sorted }) => ({
    key: run.key,
    label: run.label,
    color: run.style.color,
    // A hair above x, so a value shown as x counts (the axis is in rounded units).
    text: sorted.length === 0 ? 'none' : `${formatNumber(cdfAt(sorted, (x / f) * (1 + 1e-12)) * 100, 4)} %`,
  }));
}
