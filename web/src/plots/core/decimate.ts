// Turning thousands of rows into at most a few vertices per device-pixel column, without
// losing what a lesson is about: every column keeps the first, minimum, maximum and last
// value of the rows that fall in it (uPlot's min/max decimation), so each sawtooth peak,
// each drop to one segment, survives at any zoom. Sparse data passes through unchanged.
// Pure functions: input columns and scales, output vertices in CSS pixels.

/** Vertices to stroke in order; a NaN y lifts the pen (a gap, e.g. ssthresh = ∞). */
export interface Polyline {
  xs: Float64Array;
  ys: Float64Array;
  n: number;
}

/** How a series is drawn between rows. */
export interface LineOptions {
  /** Value holds until the next row (cwnd, queue length) instead of a straight segment. */
  step: boolean;
  /** Device pixels per CSS pixel. */
  dpr: number;
  /** Plot width in CSS pixels (bounds the output size). */
  width: number;
  /** Step series: extend the last value to this time (the run's current time). */
  endT?: number;
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
  x: (t: number) => number,
  y: (v: number) => number,
  opts: LineOptions,
): Polyline {
  const rows = Math.max(0, i1 - i0);
  const cap = Math.min(5 * rows, 5 * (Math.ceil(opts.width * opts.dpr) + 8)) + 8;
  const xs = new Float64Array(cap);
  const ys = new Float64Array(cap);
  let n = 0;
  const emit = (px: number, py: number) => {
    if (n < cap) {
      xs[n] = px;
      ys[n] = py;
      n += 1;
    }
  };

  let col = NaN; // current device column
  let colX = 0;
  let first = 0;
  let lo = 0;
  let hi = 0;
  let last = 0;
  let has = false; // a column is open
  let prev = NaN; // last value of the previous column (NaN = pen up)
  let skippedX = NaN; // x of the last column that drew nothing (its value was unchanged)

  const flush = () => {
    if (!has) return;
    // A step series whose value did not change draws nothing new: the horizontal line
    // simply continues (most rows change some other column, so this is the common case,
    // and it keeps dashed lines such as ssthresh cheap to stroke).
    if (opts.step && first === prev && lo === prev && hi === prev) {
      skippedX = colX;
      has = false;
      return;
    }
    skippedX = NaN;
    if (opts.step && Number.isFinite(prev)) emit(colX, y(prev));
    emit(colX, y(first));
    if (lo !== first && lo !== last) emit(colX, y(lo));
    if (hi !== first && hi !== last && hi !== lo) emit(colX, y(hi));
    if (last !== first) emit(colX, y(last));
    prev = last;
    has = false;
  };

  for (let i = i0; i < i1; i += 1) {
    const ti = t[i] ?? NaN;
    const vi = v[i] ?? NaN;
    if (!Number.isFinite(vi)) {
      flush();
      if (Number.isFinite(prev)) {
        if (opts.step) emit(x(ti), y(prev));
        emit(x(ti), NaN);
      }
      prev = NaN;
      skippedX = NaN;
      col = NaN;
      continue;
    }
    const px = x(ti);
    const c = Math.floor(px * opts.dpr);
    if (has && c === col) {
      if (vi < lo) lo = vi;
      if (vi > hi) hi = vi;
      last = vi;
    } else {
      flush();
      col = c;
      colX = (c + 0.5) / opts.dpr;
      first = lo = hi = last = vi;
      has = true;
    }
  }
  flush();
  if (opts.step && Number.isFinite(prev)) {
    if (opts.endT !== undefined) emit(x(opts.endT), y(prev));
    else if (!Number.isNaN(skippedX)) emit(skippedX, y(prev));
  }
  return { xs, ys, n };
}

/** Vertical spans per column: [lo, hi] in CSS pixels at x. */
export interface Spans {
  xs: Float64Array;
  y0: Float64Array;
  y1: Float64Array;
  n: number;
}

/**
 * Vertical bars from y(lo[i]) to y(lo[i] + len[i]) at x(t[i]) (tcptrace: a segment from its
 * first to its last byte), merged per device-pixel column into one bar covering them all.
 */
export function decimateSpans(
  t: ArrayLike<number>,
  lo: ArrayLike<number>,
  len: ArrayLike<number>,
  i0: number,
  i1: number,
  x: (t: number) => number,
  y: (v: number) => number,
  dpr: number,
): Spans {
  const cap = Math.max(0, i1 - i0);
  const xs = new Float64Array(cap);
  const y0 = new Float64Array(cap);
  const y1 = new Float64Array(cap);
  let n = -1;
  let col = NaN;
  for (let i = i0; i < i1; i += 1) {
    const px = x(t[i] ?? NaN);
    const c = Math.floor(px * dpr);
    const a = lo[i] ?? NaN;
    const b = a + (len[i] ?? 0);
    if (n >= 0 && c === col) {
      const ya = y(a);
      const yb = y(b);
      y0[n] = Math.min(y0[n] ?? ya, ya, yb);
      y1[n] = Math.max(y1[n] ?? yb, ya, yb);
    } else {
      n += 1;
      col = c;
      xs[n] = (c + 0.5) / dpr;
      y0[n] = Math.min(y(a), y(b));
      y1[n] = Math.max(y(a), y(b));
    }
  }
  return { xs, y0, y1, n: n + 1 };
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
  x: (t: number) => number,
  y: (v: number) => number,
  cell: number,
): Marks {
  const cap = Math.max(0, i1 - i0);
  const xs = new Float64Array(cap);
  const ys = new Float64Array(cap);
  const rows = new Int32Array(cap);
  const seen = new Set<number>();
  let n = 0;
  for (let i = i0; i < i1; i += 1) {
    const px = x(t[i] ?? NaN);
    const py = y(v[i] ?? NaN);
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
