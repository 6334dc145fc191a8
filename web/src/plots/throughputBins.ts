// The throughput plot's data: the engine's binned bytes per traffic class, added together
// into wider bins. A plotted bin is always a whole number k of the engine's bins (k ≥ 1),
// and its bytes are the exact sum of theirs (integers, exact in doubles), so the rate of a
// 1 s bin is the bytes of its hundred 10 ms engine bins × 8 / 1 s, nothing interpolated.
//
//   engine bins   |0.00|0.01|0.02| … |0.99|1.00|1.01| …       (rows only where bytes moved)
//   plotted bins  |<────────── j = 0 ────────>|<── j = 1 ── …  (k = 100)
//
// Rows are folded in incrementally (a run in progress only adds closed bins), cached per
// trace, bin factor and column.
import type { RunTrace } from '../engine/traceStore';
import type { ThroughputColumn } from '../scenario/shareState';

/** The engine column each choice reads. */
const COLUMN: Record<ThroughputColumn, 'delivered_bytes' | 'bottleneck_bytes'> = {
  delivered: 'delivered_bytes',
  bottleneck: 'bottleneck_bytes',
};

/** Bin widths offered, s (each used only where it is a whole number of engine bins); 3 s and
 *  5 s are the bins of Jacobson's figures 10 to 12 (source 003). */
export const BIN_CHOICES: readonly number[] = [0.01, 0.1, 1, 3, 5];

/** Above this many bins per run, the automatic width moves up to the next choice. */
const AUTO_MIN_BINS = 10;

/** Engine bins per plotted bin for a wanted width (at least 1). */
export function binFactor(base: number, width: number): number {
  if (!(base > 0) || !(width > 0)) return 1;
  return Math.max(1, Math.round(width / base));
}

/** True when `width` is a whole number (≥ 1) of engine bins `base`. */
export function isWholeBins(base: number, width: number): boolean {
  if (!(base > 0) || !(width >= base * (1 - 1e-9))) return false;
  const k = width / base;
  return Math.abs(k - Math.round(k)) <= 1e-6 * k;
}

/** The widths a person may choose for engine bins `base`: the engine's own bin, then the
 *  choices that are whole numbers of it, ascending. */
export function binChoices(base: number): number[] {
  const out = [base, ...BIN_CHOICES.filter((w) => w > base * (1 + 1e-9) && isWholeBins(base, w))];
  return out.sort((a, b) => a - b);
}

/**
 * The width used when the person has not chosen one: the widest choice up to 1 s that still
 * gives at least AUTO_MIN_BINS bins over the run (1 s for runs of 10 s and more), else the
 * engine's bin.
 */
export function autoBinWidth(duration: number, base: number): number {
  let best = base;
  for (const w of binChoices(base)) if (w <= 1 && w * AUTO_MIN_BINS <= duration * (1 + 1e-9)) best = w;
  return best;
}

/** Bytes per plotted bin and class, for rows [0, upTo) of a trace's throughput table. */
export class ThroughputBins {
  /** bytes[c][j]: bytes of class c in plotted bin j (capacity ≥ bins). */
  bytes: Float64Array[] = [];
  /** Plotted bins with data so far (the last one with a row, + 1). */
  bins = 0;
  /** Rows folded in. */
  upTo = 0;
  /** Plotted bin width, s. */
  readonly width: number;

  constructor(
    /** Engine bin width, s. */
    readonly base: number,
    /** Engine bins per plotted bin. */
    readonly k: number,
    classes: number,
  ) {
    this.width = base * k;
    for (let c = 0; c < classes; c += 1) this.bytes.push(new Float64Array(64));
  }

  /** Adds rows [upTo, to) of (t, class, bytes). */
  add(t: ArrayLike<number>, cls: ArrayLike<number>, bytes: ArrayLike<number>, to: number): void {
    for (let i = this.upTo; i < to; i += 1) {
      // t is the engine bin's start, i·base as a double: rounding recovers i exactly.
      const engineBin = Math.round((t[i] ?? 0) / this.base);
      const j = Math.floor(engineBin / this.k);
      const c = cls[i] ?? 0;
      while (c >= this.bytes.length) this.bytes.push(new Float64Array(this.bytes[0]?.length ?? 64));
      if (j >= (this.bytes[0]?.length ?? 0)) this.grow(j + 1);
      const col = this.bytes[c];
      if (col) col[j] = (col[j] ?? 0) + (bytes[i] ?? 0);
      if (j + 1 > this.bins) this.bins = j + 1;
    }
    this.upTo = Math.max(this.upTo, to);
  }

  private grow(n: number) {
    const cap = Math.max(n, 2 * (this.bytes[0]?.length ?? 0));
    this.bytes = this.bytes.map((b) => {
      const g = new Float64Array(cap);
      g.set(b);
      return g;
    });
  }

  /** Bytes of class c in plotted bin j (0 where nothing moved). */
  at(c: number, j: number): number {
    return j < this.bins ? (this.bytes[c]?.[j] ?? 0) : 0;
  }

  /** Total bytes of class c. */
  total(c: number): number {
    let sum = 0;
    const col = this.bytes[c];
    if (!col) return 0;
    for (let j = 0; j < this.bins; j += 1) sum += col[j] ?? 0;
    return sum;
  }

  /** Start of plotted bin j, s. */
  start(j: number): number {
    return j * this.k * this.base;
  }

  /**
   * The rate of class c in bin j, bit/s: its bytes × 8 over the part of the bin the data
   * covers (a run in progress, or a run whose end falls inside the bin, covers part of its
   * last one); NaN for a bin not covered at all.
   */
  rate(c: number, j: number, covered: number): number {
    const a = this.start(j);
    const b = Math.min(this.start(j + 1), covered);
    if (!(b > a)) return NaN;
    return (this.at(c, j) * 8) / (b - a);
  }
}

/**
 * How far the throughput table of a trace is complete, s: the run's end once it has
 * finished (the engine then writes the open bin), else the start of the bin still open.
 */
export function coveredUntil(trace: RunTrace, duration: number): number {
  const base = trace.throughput.bin;
  if (trace.now >= duration || !(base > 0)) return trace.now;
  return Math.floor(trace.now / base + 1e-9) * base;
}

/** Bins kept per owner (each width and column adds some). */
const MAX_BINS = 8;

/** `owner`'s entry `key` in `cache`, made by `make` when it has none (an owner keeps at most
 *  MAX_BINS: with more, its old ones are dropped). */
export function cachedFor<K, V>(cache: WeakMap<object, Map<K, V>>, owner: object, key: K, make: () => V): V {
  let map = cache.get(owner);
  if (!map) {
    map = new Map();
    cache.set(owner, map);
  }
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    if (map.size >= MAX_BINS) map.clear();
    map.set(key, v);
  }
  return v;
}

// Keyed by the table, not the trace: the flows of a competition share one throughput table
// (traceStore.ts), so its bins are summed once for all of them.
const cache = new WeakMap<object, Map<string, ThroughputBins>>();

/** The bins of `trace` for `width` (rounded to whole engine bins) and `column`, updated with
 *  the rows that arrived since the last call. */
export function binnedThroughput(trace: RunTrace, width: number, column: ThroughputColumn): ThroughputBins {
  const base = trace.throughput.bin;
  const k = binFactor(base, width);
  const b = cachedFor(
    cache,
    trace.tables.throughput,
    `${base}|${k}|${column}`,
    () => new ThroughputBins(base, k, trace.throughput.classes.length),
  );
  const tb = trace.tables.throughput;
  if (b.upTo < tb.length) b.add(tb.cols.t, tb.cols.class, tb.cols[COLUMN[column]], tb.length);
  return b;
}
