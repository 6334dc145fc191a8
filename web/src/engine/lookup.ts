// Binary searches on a sorted time column (only the first `length` rows are valid).

/** First index i in [0, length) with t[i] >= x (length when none). */
export function lowerBound(t: ArrayLike<number>, length: number, x: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((t[mid] ?? Infinity) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index i with t[i] > x (length when none). */
export function upperBound(t: ArrayLike<number>, length: number, x: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((t[mid] ?? Infinity) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the row in force at time x (the last with t <= x), or -1 before the first. */
export function rowAt(t: ArrayLike<number>, length: number, x: number): number {
  return upperBound(t, length, x) - 1;
}

/**
 * Rows to draw for the window [x0, x1]: the row in force at x0 (so a step line starts at the
 * left edge) through the first row after x1 (so the line reaches the right edge).
 */
export function visibleRange(t: ArrayLike<number>, length: number, x0: number, x1: number): [number, number] {
  const i0 = Math.max(0, rowAt(t, length, x0));
  const i1 = Math.min(length, upperBound(t, length, x1) + 1);
  return [i0, i1];
}

/** Rows whose time lies in [x0, x1] (for marks and for the y range of marks). */
export function rowsWithin(t: ArrayLike<number>, length: number, x0: number, x1: number): [number, number] {
  return [lowerBound(t, length, x0), upperBound(t, length, x1)];
}

/**
 * Rows whose value is shown in [x0, x1] for a step series: the row in force at x0 through
 * the last row at or before x1 (for the y range: the row after x1 is never seen).
 */
export function rowsInForce(t: ArrayLike<number>, length: number, x0: number, x1: number): [number, number] {
  return [Math.max(0, rowAt(t, length, x0)), upperBound(t, length, x1)];
}
