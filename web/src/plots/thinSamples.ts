// The thin-stream measurements of one run as sorted samples, for exact empirical CDFs
// (source 004, figures 2–7): per data packet its payload and the time since the previous
// data packet (the inter-transmission time, ITT; first transmissions and retransmissions
// alike, as the engine counts them), per delivered write its sojourn and latency.
//
//   sends  ──t──►  ·    ·         ·    ·          (first transmissions, `len` = payload)
//   retx   ──t──►          ·                      (retransmissions)
//   merged ──t──►  ·    ·  ·      ·    ·          ITT = gap to the previous packet
//                       |←→|
//
// Over the whole run the samples are kept sorted and extended as rows arrive (a run in
// progress adds only its new rows: the new values are sorted and merged in). Over a time
// window (the shared zoom) they are taken afresh: the packets sent and the writes made
// (written) in [t0, t1], each packet's ITT measured from the packet before it, even when
// that one was sent before t0. Cached per trace and window.
//
// Percentiles are nearest-rank, with the engine's arithmetic (rank = ⌈p/100 · n⌉), so the
// exact values here and the summary's histogram values (each at most 0.2 % below the exact
// one) describe the same sample.
import { lowerBound, upperBound } from '../engine/lookup';
import type { RunTrace } from '../engine/traceStore';
import { mapLinear, type Linear, type Polyline } from './core/decimate';

/** The four measurements a thin-stream CDF shows. */
export type ThinKind = 'payload' | 'itt' | 'sojourn' | 'latency';
/** Every kind, in page order (the paper's: payload, ITT, sojourn, latency). */
export const THIN_KINDS: readonly ThinKind[] = ['payload', 'itt', 'sojourn', 'latency'];

/** One run's samples, each sorted ascending: payload in bytes, the times in seconds. */
export type ThinSamples = Record<ThinKind, Float64Array>;

/** A time window [t0, t1] in seconds, or null for the whole run. */
export type TimeWindow = readonly [number, number] | null;

/** A sorted copy of `values`. */
function sortedCopy(values: Float64Array): Float64Array {
  return Float64Array.from(values).sort();
}

/** Sorted `a` and sorted `b` merged into one new sorted array. */
export function mergeSorted(a: Float64Array, b: Float64Array): Float64Array {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out = new Float64Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] ?? 0;
    const y = b[j] ?? 0;
    if (x <= y) {
      out[k] = x;
      i += 1;
    } else {
      out[k] = y;
      j += 1;
    }
    k += 1;
  }
  while (i < a.length) out[k++] = a[i++] ?? 0;
  while (j < b.length) out[k++] = b[j++] ?? 0;
  return out;
}

/** The p-th percentile (0 < p ≤ 100) of sorted values by nearest rank, as the engine
 *  computes it; NaN when there are none. */
export function nearestRank(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const rank = Math.min(n, Math.max(1, Math.ceil((p / 100) * n)));
  return sorted[rank - 1] ?? NaN;
}

/** The empirical CDF at x: the share of values ≤ x (0 when there are none). */
export function cdfAt(sorted: ArrayLike<number>, x: number): number {
  const n = sorted.length;
  return n === 0 ? 0 : upperBound(sorted, n, x) / n;
}

/** Mean of the values (NaN when there are none). */
export function meanOf(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) sum += values[i] ?? 0;
  return values.length > 0 ? sum / values.length : NaN;
}

/**
 * Packets i ∈ [from sends a0.., from retx b0..) in time order, up to (and including) time
 * `until`: calls `visit(t, len)` for each. Returns where each table stopped.
 */
function walkPackets(
  trace: RunTrace,
  a0: number,
  b0: number,
  until: number,
  visit: (t: number, len: number) => void,
): [number, number] {
  const s = trace.tables.sends;
  const r = trace.tables.retx;
  const st = s.cols.t;
  const rt = r.cols.t;
  let a = a0;
  let b = b0;
  while (a < s.length || b < r.length) {
    const ta = a < s.length ? (st[a] ?? Infinity) : Infinity;
    const tb = b < r.length ? (rt[b] ?? Infinity) : Infinity;
    // A first transmission and a retransmission at the same instant: either order gives the
    // same gaps (one of them is 0) and the same payloads.
    if (a < s.length && ta <= tb) {
      if (!(ta <= until)) break;
      visit(ta, s.cols.len[a] ?? 0);
      a += 1;
    } else {
      if (!(tb <= until)) break;
      visit(tb, r.cols.len[b] ?? 0);
      b += 1;
    }
  }
  return [a, b];
}

/** A growable list of numbers. */
class Values {
  data = new Float64Array(64);
  n = 0;
  push(v: number) {
    if (this.n >= this.data.length) {
      const g = new Float64Array(this.data.length * 2);
      g.set(this.data);
      this.data = g;
    }
    this.data[this.n] = v;
    this.n += 1;
  }
  /** The values so far (a view). */
  view(): Float64Array {
    return this.data.subarray(0, this.n);
  }
}

/** The samples of a whole run, sorted, extended with the rows that arrive. */
class WholeRun {
  samples: ThinSamples = {
    payload: new Float64Array(0),
    itt: new Float64Array(0),
    sojourn: new Float64Array(0),
    latency: new Float64Array(0),
  };
  private sends = 0;
  private retx = 0;
  private writes = 0;
  private lastTx = NaN;

  update(trace: RunTrace): void {
    const payload = new Values();
    const itt = new Values();
    // Each chunk holds every table up to the same instant, so the new rows of both tables
    // all come after the rows already taken.
    [this.sends, this.retx] = walkPackets(trace, this.sends, this.retx, Infinity, (t, len) => {
      payload.push(len);
      if (!Number.isNaN(this.lastTx)) itt.push(t - this.lastTx);
      this.lastTx = t;
    });
    const w = trace.tables.writes;
    const s = this.samples;
    s.payload = mergeSorted(s.payload, sortedCopy(payload.view()));
    s.itt = mergeSorted(s.itt, sortedCopy(itt.view()));
    if (w.length > this.writes) {
      s.sojourn = mergeSorted(s.sojourn, sortedCopy(w.cols.sojourn.subarray(this.writes, w.length)));
      s.latency = mergeSorted(s.latency, sortedCopy(w.cols.latency.subarray(this.writes, w.length)));
      this.writes = w.length;
    }
  }
}

/** The samples of the packets sent and the writes made in [t0, t1] (computed afresh). */
export function windowSamples(trace: RunTrace, t0: number, t1: number): ThinSamples {
  const s = trace.tables.sends;
  const r = trace.tables.retx;
  const a0 = lowerBound(s.cols.t, s.length, t0);
  const b0 = lowerBound(r.cols.t, r.length, t0);
  // The packet before the window, from which the first packet's gap is measured.
  let prev = -Infinity;
  if (a0 > 0) prev = Math.max(prev, s.cols.t[a0 - 1] ?? -Infinity);
  if (b0 > 0) prev = Math.max(prev, r.cols.t[b0 - 1] ?? -Infinity);
  let last = Number.isFinite(prev) ? prev : NaN;
  const payload = new Values();
  const itt = new Values();
  walkPackets(trace, a0, b0, t1, (t, len) => {
    payload.push(len);
    if (!Number.isNaN(last)) itt.push(t - last);
    last = t;
  });
  const w = trace.tables.writes;
  const [w0, w1] = [lowerBound(w.cols.t, w.length, t0), upperBound(w.cols.t, w.length, t1)];
  return {
    payload: sortedCopy(payload.view()),
    itt: sortedCopy(itt.view()),
    sojourn: sortedCopy(w.cols.sojourn.subarray(w0, w1)),
    latency: sortedCopy(w.cols.latency.subarray(w0, w1)),
  };
}

interface Cached {
  whole: WholeRun;
  wholeVersion: number;
  windowKey: string;
  windowed: ThinSamples | null;
}

const cache = new WeakMap<RunTrace, Cached>();

/** A run's samples over the whole run (window null) or over a time window, sorted; cached
 *  per trace (extended as rows arrive) and window. Do not modify the arrays. */
export function thinSamples(trace: RunTrace, window: TimeWindow): ThinSamples {
  let c = cache.get(trace);
  if (!c) {
    c = { whole: new WholeRun(), wholeVersion: -1, windowKey: '', windowed: null };
    cache.set(trace, c);
  }
  if (!window) {
    if (c.wholeVersion !== trace.version) {
      c.whole.update(trace);
      c.wholeVersion = trace.version;
    }
    return c.whole.samples;
  }
  const key = `${trace.version}|${window[0]}|${window[1]}`;
  if (c.windowKey !== key || !c.windowed) {
    c.windowed = windowSamples(trace, window[0], window[1]);
    c.windowKey = key;
  }
  return c.windowed;
}

/**
 * The staircase of the empirical CDF of `sorted` (values × `factor` on the x axis, the share
 * 0…1 on y), in CSS pixels, at most two vertices per device-pixel column: a column's
 * vertical rises from the share before its first value to the share after its last, at
 * the x of its first value (within one device pixel of exact); the levels between columns
 * are exact. Starts at the left end of the x range at 0, ends at the right end at 1; stops
 * at the right edge (`width`) when values lie beyond it. `axis` maps a shown value (value ×
 * `factor`) into the x range's domain: the identity for a linear axis; for a logarithmic one
 * (cdfPlot.ts, `logPosition`) log10 of the value, values below the axis start (zeros) at the
 * start, so they rise there, in the first column.
 */
export function cdfPolyline(
  sorted: ArrayLike<number>,
  factor: number,
  xl: Linear,
  yl: Linear,
  dpr: number,
  width: number,
  axis: (shown: number) => number = (v) => v,
): Polyline {
  const n = sorted.length;
  let xs = new Float64Array(Math.min(2 * n + 4, 4 * Math.ceil(width * dpr + 8)));
  let ys = new Float64Array(xs.length);
  let k = 0;
  const emit = (x: number, y: number) => {
    if (k >= xs.length) {
      const gx = new Float64Array(xs.length * 2 + 8);
      const gy = new Float64Array(gx.length);
      gx.set(xs);
      gy.set(ys);
      xs = gx;
      ys = gy;
    }
    xs[k] = x;
    ys[k] = y;
    k += 1;
  };
  if (n === 0) return { xs, ys, n: 0 };
  const left = Math.min(mapLinear(xl, xl.d0), mapLinear(xl, axis((sorted[0] ?? 0) * factor)));
  emit(left, mapLinear(yl, 0));
  let col = NaN;
  let i = 0;
  let cut = false;
  while (i < n) {
    const v = sorted[i] ?? 0;
    let j = i + 1;
    while (j < n && sorted[j] === v) j += 1;
    const px = mapLinear(xl, axis(v * factor));
    if (px > width + 2) {
      // Beyond the right edge: the level runs out of the plot.
      emit(width + 2, mapLinear(yl, i / n));
      cut = true;
      break;
    }
    const c = Math.floor(px * dpr);
    if (c !== col) {
      emit(px, mapLinear(yl, i / n));
      emit(px, mapLinear(yl, j / n));
      col = c;
    } else {
      // Same device column: the vertical at its first value rises further.
      ys[k - 1] = mapLinear(yl, j / n);
    }
    i = j;
  }
  if (!cut) emit(Math.max(width, mapLinear(xl, axis((sorted[n - 1] ?? 0) * factor))), mapLinear(yl, 1));
  return { xs, ys, n: k };
}
