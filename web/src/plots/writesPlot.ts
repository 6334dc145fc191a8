// The application's writes on the shared time axis (source 004's per-write view): each
// delivered write is a horizontal segment from when the application wrote it to when it was
// delivered in order to the receiving application, drawn at the height of its latency (ms):
//
//   latency ms
//      ▲        ▭▭▭▭▭▭▭▭▭▭▭▭▭▭▭▭──────────────   a write that waited: the pale outlined bar
//      │                                         is its sojourn (in the send buffer, not yet
//      │   |──────────────                       sent), the thin line its time in the network
//      └───┴────────┴─────────────────────► t   until delivered; a write sent at once starts
//                                                with a tick
//
// Why the height is the latency (not the write's number): the quantity a person feels is
// on the axis, in the unit of the latency CDF and the summary; slow writes stand out at any
// zoom; writes stuck behind a lost packet (all delivered at once) form a wedge whose right
// ends line up; several algorithms can share one plot; and equal latencies merge into one
// level line instead of thousands of rows.
//
// Thousands of writes stay cheap: on each device-pixel row (the same latency to a pixel)
// the lines and bars drawn are the unions of the writes' intervals, to the pixel, so what
// is drawn is bounded by the pixels covered, not by the number of writes. Overlaid runs differ
// by colour, and by their marker at each delivery once few enough writes are in view (the
// lines stay solid: dashes on thousands of short overlapping segments read as noise).
import { lowerBound, rowAt, upperBound } from '../engine/lookup';
import type { RunTrace } from '../engine/traceStore';
import { drawMarker } from '../lib/styles';
import { formatNumber } from '../scenario/params';
import { mapLinear, type Linear } from './core/decimate';
import type { DrawFrame, PlotDef, PlotRun } from './core/types';
import { meanOf, nearestRank, thinSamples } from './thinSamples';
import { lw, NETWORK_WIDTH, SOJOURN_WIDTH } from './core/plotStyle';

const MS = 1e3;

const maxCache = new WeakMap<RunTrace, { upTo: number; max: number }>();

/** The longest latency of a run's writes so far, s (0 without writes); extended as rows
 *  arrive. */
export function maxLatency(trace: RunTrace): number {
  const w = trace.tables.writes;
  let c = maxCache.get(trace);
  if (!c) {
    c = { upTo: 0, max: 0 };
    maxCache.set(trace, c);
  }
  for (let i = c.upTo; i < w.length; i += 1) c.max = Math.max(c.max, w.cols.latency[i] ?? 0);
  c.upTo = w.length;
  return c.max;
}

/** Rows [i0, i1) that may reach into [t0, t1]: written by t1, and written late enough
 *  that the longest latency could carry them past t0. */
export function writeRows(trace: RunTrace, t0: number, t1: number): [number, number] {
  const w = trace.tables.writes;
  return [lowerBound(w.cols.t, w.length, t0 - maxLatency(trace)), upperBound(w.cols.t, w.length, t1)];
}

/** Horizontal spans [a, b] at height y, CSS px. */
export interface Spans {
  a: Float64Array;
  b: Float64Array;
  y: Float64Array;
  n: number;
}

/** What the write timeline draws for one run, CSS px. */
export interface WriteMarks {
  /** Time in the network (first transmission → delivery): thin lines. */
  lines: Spans;
  /** Sojourn (written → first transmission): bars, for writes that waited a pixel or more. */
  bars: Spans;
  /** The start of each write sent within a pixel of being written (a = b = x). */
  ticks: Spans;
  /** Deliveries (a = b = x), when asked for. */
  ends: Spans;
  /** Writes in the window (each is drawn, alone or within others' spans). */
  writes: number;
}

function spans(cap: number): Spans {
  return { a: new Float64Array(cap), b: new Float64Array(cap), y: new Float64Array(cap), n: 0 };
}

function push(s: Spans, a: number, b: number, y: number): number {
  const k = s.n;
  s.a[k] = a;
  s.b[k] = b;
  s.y[k] = y;
  s.n += 1;
  return k;
}

/** A number per device row (−1 = none): an array over the plot's rows, a map beyond them. */
class PerRow {
  private arr: Int32Array;
  private far = new Map<number, number>();
  constructor(rows: number) {
    this.arr = new Int32Array(Math.max(0, rows)).fill(-1);
  }
  get(row: number): number {
    return row >= 0 && row < this.arr.length ? (this.arr[row] ?? -1) : (this.far.get(row) ?? -1);
  }
  set(row: number, v: number): void {
    if (row >= 0 && row < this.arr.length) this.arr[row] = v;
    else this.far.set(row, v);
  }
}

/**
 * Adds [a, b] on device row `row` to `s`: into the row's open span when they overlap or lie
 * within a device pixel of each other, else as a new span (which becomes the row's open
 * one). What is drawn is the union of the writes' intervals on each row, to the pixel.
 */
function addSpan(s: Spans, open: PerRow, row: number, a: number, b: number, y: number, px: number) {
  const k = open.get(row);
  if (k >= 0) {
    const ka = s.a[k] ?? 0;
    const kb = s.b[k] ?? 0;
    if (a <= kb + px && b >= ka - px) {
      s.a[k] = Math.min(ka, a);
      s.b[k] = Math.max(kb, b);
      return;
    }
  }
  open.set(row, push(s, a, b, y));
}

/**
 * What to draw of the writes in [t0, t1] (x: time in s → px, y: latency in ms → px). On
 * each device-pixel row (writes whose latencies round to the same pixel), the network
 * lines and the sojourn bars are the unions of the writes' intervals, to the pixel; a
 * write sent at once gets a tick at its start, one per device pixel. So however many
 * writes there are, the spans are bounded by the pixels they cover: a steady stream is one
 * level line. Writes are in the order written.
 */
export function writeMarks(
  trace: RunTrace,
  t0: number,
  t1: number,
  xl: Linear,
  yl: Linear,
  dpr: number,
  withEnds = false,
): WriteMarks {
  const w = trace.tables.writes;
  const { t, sojourn, latency } = w.cols;
  const [i0, i1] = writeRows(trace, t0, t1);
  const cap = Math.max(0, i1 - i0);
  const out: WriteMarks = {
    lines: spans(cap),
    bars: spans(cap),
    ticks: spans(cap),
    ends: spans(withEnds ? cap : 0),
    writes: 0,
  };
  const px = 1 / dpr;
  const rows = Math.ceil(Math.max(yl.r0, yl.r1) * dpr) + 2;
  const openLine = new PerRow(rows);
  const openBar = new PerRow(rows);
  // The device column of each row's last tick: writes come in the order written, so a
  // tick's column only grows and one per column and row is kept.
  const tickCol = new PerRow(rows);
  const seenEnd = new Set<number>();
  for (let i = i0; i < i1; i += 1) {
    const at = t[i] ?? 0;
    const l = latency[i] ?? 0;
    if (at + l < t0) continue;
    out.writes += 1;
    const x0 = mapLinear(xl, at);
    const x1 = mapLinear(xl, at + (sojourn[i] ?? 0));
    const x2 = mapLinear(xl, at + l);
    const y = mapLinear(yl, l * MS);
    const row = Math.round(y * dpr);
    addSpan(out.lines, openLine, row, x1, x2, y, px);
    if (x1 - x0 >= px) {
      addSpan(out.bars, openBar, row, x0, x1, y, px);
    } else {
      const col = Math.floor(x0 * dpr);
      if (tickCol.get(row) !== col) {
        tickCol.set(row, col);
        push(out.ticks, x0, x0, y);
      }
    }
    if (withEnds) {
      // Rows and columns as one number (both well inside ±2^20 on any screen).
      const key = Math.floor(x2 * dpr) * 2097152 + row;
      if (!seenEnd.has(key)) {
        seenEnd.add(key);
        push(out.ends, x2, x2, y);
      }
    }
  }
  return out;
}

/** ms with enough digits to compare with the summary. */
function ms(s: number): string {
  return `${formatNumber(s * MS, 6)} ms`;
}

/** One run: thin network lines first, the sojourn bars on top (filled pale, outlined), a
 *  tick at the start of each write sent at once; overlaid runs with few enough writes in
 *  view get their marker at each delivery. */
function drawRun(f: DrawFrame, run: PlotRun, markers: boolean) {
  const { ctx } = f;
  const m = writeMarks(run.trace, f.t0, f.t1, f.xl, f.yl, f.dpr, markers);
  if (m.writes === 0) return;
  ctx.save();
  ctx.strokeStyle = run.style.color;
  ctx.lineWidth = lw(NETWORK_WIDTH);
  ctx.beginPath();
  const { lines, bars, ticks } = m;
  for (let k = 0; k < lines.n; k += 1) {
    const y = lines.y[k] ?? 0;
    const a = lines.a[k] ?? 0;
    ctx.moveTo(a, y);
    // At least a pixel, so a write delivered at once is still seen.
    ctx.lineTo(Math.max(lines.b[k] ?? 0, a + 1), y);
  }
  ctx.stroke();
  ctx.lineWidth = lw(1);
  ctx.beginPath();
  const h = SOJOURN_WIDTH;
  for (let k = 0; k < bars.n; k += 1) {
    const a = bars.a[k] ?? 0;
    ctx.rect(a, (bars.y[k] ?? 0) - h / 2, (bars.b[k] ?? 0) - a, h);
  }
  ctx.globalAlpha = 0.3;
  ctx.fillStyle = run.style.color;
  ctx.fill();
  ctx.globalAlpha = 0.9;
  ctx.stroke();
  ctx.globalAlpha = 0.7;
  ctx.beginPath();
  for (let k = 0; k < ticks.n; k += 1) {
    const x = Math.round((ticks.a[k] ?? 0) * f.dpr) / f.dpr + 0.5 / f.dpr;
    const y = ticks.y[k] ?? 0;
    ctx.moveTo(x, y - 3);
    ctx.lineTo(x, y + 3);
  }
  ctx.stroke();
  ctx.restore();
  if (markers && m.writes <= f.width / 10) {
    for (let k = 0; k < m.ends.n; k += 1) {
      drawMarker(ctx, run.style.marker, m.ends.a[k] ?? 0, m.ends.y[k] ?? 0, 3, run.style.color);
    }
  }
}

/** The write timeline's definition. */
export const writesPlot: PlotDef = {
  yTick: (v) => formatNumber(v, 4),

  yExtent(runs, t0, t1) {
    let hi = 0;
    for (const run of runs) {
      const w = run.trace.tables.writes;
      const [i0, i1] = writeRows(run.trace, t0, t1);
      for (let i = i0; i < i1; i += 1) {
        const l = w.cols.latency[i] ?? 0;
        if ((w.cols.t[i] ?? 0) + l >= t0) hi = Math.max(hi, l * MS);
      }
    }
    return [0, hi];
  },

  draw(f) {
    f.runs.forEach((run) => drawRun(f, run, f.context.overlay));
  },

  readout(runs, t) {
    return runs.map((run) => {
      const line = { key: run.key, label: run.label, color: run.style.color };
      const w = run.trace.tables.writes;
      const i = rowAt(w.cols.t, w.length, t);
      if (i < 0) return { ...line, text: w.length === 0 ? 'no write delivered yet' : 'no write yet' };
      const at = w.cols.t[i] ?? 0;
      const sojourn = w.cols.sojourn[i] ?? 0;
      const latency = w.cols.latency[i] ?? 0;
      return {
        ...line,
        text:
          `write ${i + 1} at ${formatNumber(at, 6)} s, ${formatNumber(w.cols.bytes[i] ?? 0)} B: ` +
          `sojourn ${formatNumber(sojourn * MS, 4)} ms, latency ${formatNumber(latency * MS, 4)} ms`,
      };
    });
  },

  // ] and [ step through the slowest writes: where a run of writes above the 99th
  // percentile of latency begins (a loss, a timeout, a window that held writes back).
  eventTimes(runs) {
    const out: number[] = [];
    for (const run of runs) {
      const w = run.trace.tables.writes;
      const slow = nearestRank(thinSamples(run.trace, null).latency, 99);
      let inside = false;
      for (let i = 0; i < w.length; i += 1) {
        const now = (w.cols.latency[i] ?? 0) >= slow;
        if (now && !inside) out.push(w.cols.t[i] ?? 0);
        inside = now;
      }
    }
    return out.sort((a, b) => a - b);
  },

  describe(runs) {
    const parts = runs.map((run) => {
      const w = run.trace.tables.writes;
      if (w.length === 0) {
        return run.summary?.flows[run.flow ?? 0]?.writes === null
          ? `${run.label}: no writes (a bulk sender)`
          : `${run.label}: none yet`;
      }
      // The whole run's sorted samples (cached with the trace; shared with the CDFs).
      const { latency: lat, sojourn: soj } = thinSamples(run.trace, null);
      return (
        `${run.label}: ${w.length} writes delivered, latency median ${ms(nearestRank(lat, 50))}, ` +
        `max ${ms(lat[lat.length - 1] ?? NaN)}; sojourn median ${ms(nearestRank(soj, 50))}, ` +
        `mean ${ms(meanOf(soj))}`
      );
    });
    return (
      'Each write delivered, as a segment from when the application wrote it to when it was delivered in order, ' +
      `at the height of its latency in ms; its pale bar is the time it waited to be sent (sojourn); ] and [ step ` +
      `through the slowest writes (the top 1 %). ${parts.join('; ')}.`
    );
  },
};
