// Turning thousands of rows into at most a few vertices per device-pixel column, without
// losing what a lesson is about: every column keeps the first, minimum, maximum and last
// value of the rows that fall in it (uPlot's min/max decimation), so each sawtooth peak,
// each drop to one segment, survives at any zoom. Sparse data passes through unchanged.
//
// Decimation works in value space: rows are grouped by device-pixel column (which needs
// only the time → x mapping), and the kept values are mapped to y only when drawn. So the
// result depends on the data, the time window, the width and the pixel ratio, not on the
// y range: it is computed once per data change and kept (see lineCache.ts), rows appended
// later (a run in progress) are added to it, and a redraw costs O(vertices) = O(width).

/** Vertices to stroke in order; a NaN y lifts the pen (a gap, e.g. ssthresh = ∞). */
export interface Polyline {
  xs: Float64Array;
  ys: Float64Array;
  n: number;
}

/**
 * A linear scale's map, computed exactly as d3's scaleLinear does (so positions are bit for
 * bit the same): u = (v − d0) / (d1 − d0), then r0·(1 − u) + r1·u. Inlined in loops instead
 * of calling the scale (a d3 scale call is a chain of closures).
 */
export interface Linear {
  d0: number;
  /** d1 − d0 (0: every value maps to the middle of the range, as in d3). */
  span: number;
  r0: number;
  r1: number;
}

/** Something that maps values to pixels: a Linear, or any function. */
export type Mapper = Linear | ((v: number) => number);

/** The Linear of a d3 linear scale (two-element domain and range, no clamping). */
export function linearOf(scale: { domain(): number[]; range(): number[] }): Linear {
  let [d0 = 0, d1 = 1] = scale.domain().map(Number);
  let [r0 = 0, r1 = 1] = scale.range().map(Number);
  // d3 swaps a descending domain (and its range) before interpolating.
  if (d1 < d0) {
    [d0, d1] = [d1, d0];
    [r0, r1] = [r1, r0];
  }
  return { d0, span: d1 - d0, r0, r1 };
}

/** Maps one value through a Linear (d3's arithmetic). */
export function mapLinear(l: Linear, v: number): number {
  const u = l.span ? (v - l.d0) / l.span : Number.isNaN(l.span) ? NaN : 0.5;
  return l.r0 * (1 - u) + l.r1 * u;
}

function mapper(m: Mapper): (v: number) => number {
  return typeof m === 'function' ? m : (v) => mapLinear(m, v);
}

/** How a series is drawn between rows. */
export interface LineOptions {
  /** Value holds until the next row (cwnd, queue length) instead of a straight segment. */
  step: boolean;
  /** Device pixels per CSS pixel. */
  dpr: number;
  /** Plot width in CSS pixels (sizes the output). */
  width: number;
  /** Step series: extend the last value to this time (the run's current time). */
  endT?: number;
}

function grow(a: Float64Array, n: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(Math.max(16, n * 2));
  b.set(a);
  return b;
}

/**
 * Min/max decimation of one series, resumable: `add` takes rows in order (more can be
 * added later), `polyline` gives the vertices so far with the last column closed and the
 * step extended to the run's current time, without changing what was added.
 */
export class LineDecimator {
  /** Kept vertices: x in CSS pixels, values (NaN = pen up). */
  private xs: Float64Array;
  private vs: Float64Array;
  private n = 0;
  private col = NaN; // current device column
  private colX = 0;
  private first = 0;
  private lo = 0;
  private hi = 0;
  private last = 0;
  private has = false; // a column is open
  private prev = NaN; // last value of the previous column (NaN = pen up)
  private skippedX = NaN; // x of the last column that drew nothing (its value was unchanged)
  /** Rows added so far: [from, upTo). */
  upTo: number;

  constructor(
    readonly step: boolean,
    readonly dpr: number,
    width: number,
    readonly from: number,
  ) {
    const cap = 5 * (Math.ceil(width * dpr) + 8) + 8;
    this.xs = new Float64Array(cap);
    this.vs = new Float64Array(cap);
    this.upTo = from;
  }

  private emit(px: number, v: number) {
    if (this.n >= this.xs.length) {
      this.xs = grow(this.xs, this.n);
      this.vs = grow(this.vs, this.n);
    }
    this.xs[this.n] = px;
    this.vs[this.n] = v;
    this.n += 1;
  }

  private flush() {
    if (!this.has) return;
    const { first, lo, hi, last, prev, colX } = this;
    this.has = false;
    // A step series whose value did not change draws nothing new: the horizontal line
    // simply continues (most rows change some other column, so this is the common case,
    // and it keeps dashed lines such as ssthresh cheap to stroke).
    if (this.step && first === prev && lo === prev && hi === prev) {
      this.skippedX = colX;
      return;
    }
    this.skippedX = NaN;
    if (this.step && Number.isFinite(prev)) this.emit(colX, prev);
    this.emit(colX, first);
    // The column's extremes, then its last value: the path leaves the column where the
    // data does (a step line stays axis-aligned; core/stepStroke.ts relies on it).
    let at = first;
    if (lo !== first && lo !== last) this.emit(colX, (at = lo));
    if (hi !== first && hi !== last && hi !== lo) this.emit(colX, (at = hi));
    if (last !== at) this.emit(colX, last);
    this.prev = last;
  }

  /** Adds rows [this.upTo, to) of (t, v); x maps time to CSS pixels. */
  add(t: ArrayLike<number>, v: ArrayLike<number>, to: number, x: Mapper): void {
    const lin = typeof x === 'function' ? null : x;
    const fx = typeof x === 'function' ? x : null;
    const { dpr, step } = this;
    for (let i = this.upTo; i < to; i += 1) {
      const ti = t[i] ?? NaN;
      const vi = v[i] ?? NaN;
      if (!Number.isFinite(vi)) {
        this.flush();
        if (Number.isFinite(this.prev)) {
          const px = lin ? mapLinear(lin, ti) : (fx as (v: number) => number)(ti);
          if (step) this.emit(px, this.prev);
          this.emit(px, NaN);
        }
        this.prev = NaN;
        this.skippedX = NaN;
        this.col = NaN;
        continue;
      }
      const px = lin ? mapLinear(lin, ti) : (fx as (v: number) => number)(ti);
      const c = Math.floor(px * dpr);
      if (this.has && c === this.col) {
        if (vi < this.lo) this.lo = vi;
        if (vi > this.hi) this.hi = vi;
        this.last = vi;
      } else {
        this.flush();
        this.col = c;
        this.colX = (c + 0.5) / dpr;
        this.first = this.lo = this.hi = this.last = vi;
        this.has = true;
      }
    }
    this.upTo = Math.max(this.upTo, to);
  }

  /** Kept vertices so far (not counting the open column). */
  get vertices(): number {
    return this.n;
  }

  /**
   * The largest value added so far (-Infinity if none), in O(vertices): every row's value is
   * a kept vertex, in the open column, or equal to the one before it (an unchanged step).
   */
  max(): number {
    let m = this.has ? this.hi : -Infinity;
    for (let i = 0; i < this.n; i += 1) {
      const v = this.vs[i] ?? NaN;
      if (v > m) m = v;
    }
    return m;
  }

  /**
   * The vertices in CSS pixels: y maps values; a step line ends at endT (x maps it) or,
   * without one, at the last column. Costs O(vertices): the rows are not visited again.
   */
  polyline(y: Mapper, x?: Mapper, endT?: number): Polyline {
    // Close the open column on a copy of the state: more rows may be added later.
    const saved = { n: this.n, has: this.has, prev: this.prev, skippedX: this.skippedX };
    this.flush();
    if (this.step && Number.isFinite(this.prev)) {
      if (endT !== undefined && x !== undefined) this.emit(mapper(x)(endT), this.prev);
      else if (!Number.isNaN(this.skippedX)) this.emit(this.skippedX, this.prev);
    }
    const n = this.n;
    const xs = this.xs.slice(0, n);
    const ys = new Float64Array(n);
    const lin = typeof y === 'function' ? null : y;
    const fy = typeof y === 'function' ? y : null;
    for (let i = 0; i < n; i += 1) {
      const v = this.vs[i] ?? NaN;
      ys[i] = Number.isNaN(v) ? NaN : lin ? mapLinear(lin, v) : (fy as (v: number) => number)(v);
    }
    // Restore: the arrays may have grown, but only entries past `saved.n` were written.
    this.n = saved.n;
    this.has = saved.has;
    this.prev = saved.prev;
    this.skippedX = saved.skippedX;
    return { xs, ys, n };
  }
}

/**
 * Vertices for rows [i0, i1) of (t, v), merged per device-pixel column. x and y map time
 * and value to CSS pixels.
 */
export function decimateLine(
  t: ArrayLike<number>,
  v: ArrayLike<number>,
  i0: number,
  i1: number,
  x: Mapper,
  y: Mapper,
  opts: LineOptions,
): Polyline {
  const d = new LineDecimator(opts.step, opts.dpr, opts.width, i0);
  d.add(t, v, i1, x);
  return d.polyline(y, x, opts.endT);
}

/** Vertical spans per column: [lo, hi] in CSS pixels at x. */
export interface Spans {
  xs: Float64Array;
  y0: Float64Array;
  y1: Float64Array;
  n: number;
}

/**
 * Bars from lo[i] to lo[i] + len[i] at t[i] (tcptrace: a segment from its first to its last
 * byte), merged per device-pixel column into one bar covering them all; resumable like
 * LineDecimator. Kept in value space: the lowest and highest value of each column.
 */
export class SpanDecimator {
  private xs = new Float64Array(64);
  private lo = new Float64Array(64);
  private hi = new Float64Array(64);
  private n = 0;
  private col = NaN;
  upTo: number;

  constructor(
    readonly dpr: number,
    readonly from: number,
  ) {
    this.upTo = from;
  }

  /** Adds rows [this.upTo, to). */
  add(t: ArrayLike<number>, lo: ArrayLike<number>, len: ArrayLike<number>, to: number, x: Mapper): void {
    const lin = typeof x === 'function' ? null : x;
    const fx = typeof x === 'function' ? x : null;
    const dpr = this.dpr;
    for (let i = this.upTo; i < to; i += 1) {
      const ti = t[i] ?? NaN;
      const px = lin ? mapLinear(lin, ti) : (fx as (v: number) => number)(ti);
      const c = Math.floor(px * dpr);
      const a = lo[i] ?? NaN;
      const b = a + (len[i] ?? 0);
      const k = this.n - 1;
      if (k >= 0 && c === this.col) {
        this.lo[k] = Math.min(this.lo[k] ?? a, a, b);
        this.hi[k] = Math.max(this.hi[k] ?? b, a, b);
      } else {
        if (this.n >= this.xs.length) {
          this.xs = grow(this.xs, this.n);
          this.lo = grow(this.lo, this.n);
          this.hi = grow(this.hi, this.n);
        }
        this.col = c;
        this.xs[this.n] = (c + 0.5) / dpr;
        this.lo[this.n] = Math.min(a, b);
        this.hi[this.n] = Math.max(a, b);
        this.n += 1;
      }
    }
    this.upTo = Math.max(this.upTo, to);
  }

  /** The bars in CSS pixels (y maps values; a monotonic map keeps each column's extremes). */
  spans(y: Mapper): Spans {
    const n = this.n;
    const fy = mapper(y);
    const y0 = new Float64Array(n);
    const y1 = new Float64Array(n);
    for (let k = 0; k < n; k += 1) {
      const a = fy(this.lo[k] ?? NaN);
      const b = fy(this.hi[k] ?? NaN);
      y0[k] = Math.min(a, b);
      y1[k] = Math.max(a, b);
    }
    return { xs: this.xs.slice(0, n), y0, y1, n };
  }
}

/**
 * Vertical bars from y(lo[i]) to y(lo[i] + len[i]) at x(t[i]), merged per device-pixel
 * column into one bar covering them all.
 */
export function decimateSpans(
  t: ArrayLike<number>,
  lo: ArrayLike<number>,
  len: ArrayLike<number>,
  i0: number,
  i1: number,
  x: Mapper,
  y: Mapper,
  dpr: number,
): Spans {
  const d = new SpanDecimator(dpr, i0);
  d.add(t, lo, len, i1, x);
  return d.spans(y);
}

/** Marks to draw: positions in CSS pixels and the row each came from. */
export interface Marks {
  xs: Float64Array;
  ys: Float64Array;
  rows: Int32Array;
  n: number;
}

/**
 * Point marks (drops, timeouts), at most one per `cell`×`cell` pixel square: a burst of
 * drops at the same place draws one mark; drops at different sequence numbers stay apart.
 */
export function thinMarks(
  t: ArrayLike<number>,
  v: ArrayLike<number>,
  i0: number,
  i1: number,
  x: Mapper,
  y: Mapper,
  cell: number,
): Marks {
  const cap = Math.max(0, i1 - i0);
  const xs = new Float64Array(cap);
  const ys = new Float64Array(cap);
  const rows = new Int32Array(cap);
  const seen = new Set<number>();
  const fx = mapper(x);
  const fy = mapper(y);
  let n = 0;
  for (let i = i0; i < i1; i += 1) {
    const px = fx(t[i] ?? NaN);
    const py = fy(v[i] ?? NaN);
    if (!Number.isFinite(px) || !Number.isFinite(py)) continue;
    const key = Math.floor(px / cell) * 100003 + Math.floor(py / cell);
    if (seen.has(key)) continue;
    seen.add(key);
    xs[n] = px;
    ys[n] = py;
    rows[n] = i;
    n += 1;
  }
  return { xs, ys, rows, n };
}
