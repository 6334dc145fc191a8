// Arithmetic on the shared time window (the store's xDomain, s; null = the whole run), for
// the store, the plots and the overview alike.

/** Two windows are equal within `tol` seconds (null only equals null). */
export function sameDomain(a: readonly number[] | null, b: readonly number[] | null, tol: number): boolean {
  if (a === null || b === null) return a === b;
  return Math.abs((a[0] ?? 0) - (b[0] ?? 0)) <= tol && Math.abs((a[1] ?? 0) - (b[1] ?? 0)) <= tol;
}

/**
 * The window after zooming `domain` by `factor` (> 1 zooms in) around the instant `around`
 * (default: its middle), kept within [0, duration] and no narrower than `minSpan`; null when
 * it would show the whole run.
 */
export function zoomWindow(
  domain: readonly [number, number] | null,
  duration: number,
  factor: number,
  around: number | null,
  minSpan: number,
): [number, number] | null {
  const [d0, d1] = domain ?? [0, duration];
  const c = around ?? (d0 + d1) / 2;
  const span = Math.min(duration, Math.max(minSpan, (d1 - d0) / factor));
  if (span >= duration) return null;
  const a = Math.max(0, Math.min(duration - span, c - (c - d0) / factor));
  return [a, a + span];
}
