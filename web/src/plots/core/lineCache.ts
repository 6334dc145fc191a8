// Decimations kept per run trace: a redraw that changes neither the data, the time window,
// the width nor the pixel ratio (a series shown or hidden, the shared y range of small
// multiples moving, a plot drawn again) does not visit the rows again, and a run in
// progress (live playback, a long run's progress) only adds its new rows. A trace is
// append-only and a new comparison has new traces, so entries never go stale; they are
// dropped with their trace (WeakMap).
import { LineDecimator, SpanDecimator, type Linear } from './decimate';

/** Entries kept per trace (each zoom window adds some). */
const MAX_ENTRIES = 64;

const caches = new WeakMap<object, Map<string, LineDecimator | SpanDecimator>>();

function entriesOf(owner: object): Map<string, LineDecimator | SpanDecimator> {
  let map = caches.get(owner);
  if (!map) {
    map = new Map();
    caches.set(owner, map);
  }
  return map;
}

function keyOf(kind: string, name: string, x: Linear, dpr: number, i0: number, extra: string): string {
  return `${kind}|${name}|${x.d0}|${x.span}|${x.r0}|${x.r1}|${dpr}|${i0}|${extra}`;
}

function remember<T extends LineDecimator | SpanDecimator>(
  map: Map<string, LineDecimator | SpanDecimator>,
  key: string,
  d: T,
): T {
  if (map.size >= MAX_ENTRIES) map.clear();
  map.set(key, d);
  return d;
}

/**
 * The min/max decimation of rows [i0, i1) of (t, v) for the time map x, from the cache or
 * computed; `owner` (the run's trace) and `name` identify the column.
 */
export function cachedLine(
  owner: object,
  name: string,
  t: ArrayLike<number>,
  v: ArrayLike<number>,
  i0: number,
  i1: number,
  x: Linear,
  dpr: number,
  width: number,
  step: boolean,
): LineDecimator {
  const map = entriesOf(owner);
  const key = keyOf('line', name, x, dpr, i0, `${width}|${step}`);
  let d = map.get(key);
  if (!(d instanceof LineDecimator) || d.upTo > i1) d = remember(map, key, new LineDecimator(step, dpr, width, i0));
  if (d.upTo < i1) d.add(t, v, i1, x);
  return d;
}

/** The per-column bars of rows [i0, i1) (t, lo, len) for the time map x, cached likewise. */
export function cachedSpans(
  owner: object,
  name: string,
  t: ArrayLike<number>,
  lo: ArrayLike<number>,
  len: ArrayLike<number>,
  i0: number,
  i1: number,
  x: Linear,
  dpr: number,
): SpanDecimator {
  const map = entriesOf(owner);
  const key = keyOf('spans', name, x, dpr, i0, '');
  let d = map.get(key);
  if (!(d instanceof SpanDecimator) || d.upTo > i1) d = remember(map, key, new SpanDecimator(dpr, i0));
  if (d.upTo < i1) d.add(t, lo, len, i1, x);
  return d;
}
