// Columns of every run, outside the zustand store (typed arrays do not belong in state that
// devtools or snapshots would copy). The store holds only a `drawn` counter; plots redraw
// when it changes and read the columns here.
import {
  TABLE_NAMES,
  TABLES,
  type ColumnOf,
  type Reduction,
  type RoundsJson,
  type TableName,
  type ThroughputMeta,
  type TraceChunk,
} from './protocol';

/** A table whose columns grow by doubling; only rows below `length` are valid. */
export class GrowTable<T extends TableName> {
  /** Backing columns (capacity ≥ length). */
  cols: Record<ColumnOf<T>, Float64Array>;
  /** Valid rows. */
  length = 0;

  constructor(readonly name: T) {
    this.cols = Object.fromEntries(TABLES[name].map((c) => [c, new Float64Array(0)])) as Record<
      ColumnOf<T>,
      Float64Array
    >;
  }

  /** Appends rows; the first chunk's arrays are adopted without copying. */
  append(chunk: Record<ColumnOf<T>, Float64Array>): void {
    const names = TABLES[this.name] as readonly ColumnOf<T>[];
    const first = names[0];
    const n = first === undefined ? 0 : chunk[first].length;
    if (n === 0) return;
    if (this.length === 0) {
      this.cols = { ...chunk };
      this.length = n;
      return;
    }
    const capacity = first === undefined ? 0 : this.cols[first].length;
    if (this.length + n > capacity) {
      const next = Math.max(this.length + n, capacity * 2, 1024);
      for (const c of names) {
        const grown = new Float64Array(next);
        grown.set(this.cols[c].subarray(0, this.length));
        this.cols[c] = grown;
      }
    }
    for (const c of names) this.cols[c].set(chunk[c], this.length);
    this.length += n;
  }

  /** One column's valid rows (a view; do not keep it across appends). */
  col(c: ColumnOf<T>): Float64Array {
    return this.cols[c].subarray(0, this.length);
  }
}

/** The tables of a whole run rather than of one flow: in a competition, every flow's trace
 *  holds the same objects (the worker sends their rows with flow 0's chunk only). */
export const RUN_TABLES: ReadonlySet<TableName> = new Set<TableName>(['queue', 'throughput', 'qdisc']);

/** Every table of one run (in a competition: of one flow of the run). */
export class RunTrace {
  readonly tables: { [T in TableName]: GrowTable<T> };
  /** Simulated time reached, s. */
  now = 0;
  /** Bumped on every append. */
  version = 0;
  /** What the throughput table's rows refer to (from the run's first chunk). */
  throughput: ThroughputMeta = { bin: 0, classes: [] };
  /** The flow's transmission rounds as last read by the worker (replaced, not appended:
   *  the engine's list is of the run so far); null until a chunk brings them. */
  rounds: RoundsJson | null = null;
  /** Where the run's bounded recording began reducing its rows (protocol.ts `Reduction`):
   *  null while every row is kept. Rows after `reduced.at` are a per-bucket selection whose
   *  min/max envelope is the full run's at `reduced.width` s per device pixel or coarser. */
  reduced: Reduction | null = null;
  /** The chunk this trace holds when it holds exactly one (a finished run's single answer,
   *  e.g. a run computed ahead), else null: two traces with the same source have the same
   *  rows, column arrays included (plots/core/prerender.ts matches drawings by it). */
  source: TraceChunk | null = null;

  /** `shared`: another flow of the same run, whose run-wide tables (RUN_TABLES) this trace
   *  uses as its own. */
  constructor(shared?: RunTrace) {
    const t = {} as Record<TableName, GrowTable<TableName>>;
    for (const name of TABLE_NAMES) {
      t[name] = shared && RUN_TABLES.has(name) ? (shared.tables[name] as GrowTable<TableName>) : new GrowTable(name);
    }
    this.tables = t as { [T in TableName]: GrowTable<T> };
  }

  /** Appends a chunk from the worker (`meta`: the throughput table's, with the first one). */
  append(chunk: TraceChunk, now: number, meta: ThroughputMeta | null = null, rounds: RoundsJson | null = null): void {
    if (meta) this.throughput = meta;
    if (rounds) this.rounds = rounds;
    if (chunk.reduced) this.reduced = chunk.reduced;
    this.source = this.version === 0 ? chunk : null;
    for (const name of TABLE_NAMES) {
      (this.tables[name] as GrowTable<TableName>).append(chunk[name] as Record<string, Float64Array>);
    }
    this.now = now;
    this.version += 1;
  }
}

/** The runs of the current comparison, by key (algorithm). */
export class TraceStore {
  private runs = new Map<string, RunTrace>();
  /** The previous comparison, shown until the new one has data (no empty flash). */
  private previous = new Map<string, RunTrace>();

  /** Starts empty traces for a new comparison. `oneRun`: the keys are the flows of one
   *  run (a competition), whose traces share the run-wide tables. */
  reset(keys: readonly string[], oneRun = false): void {
    this.previous = this.runs;
    let first: RunTrace | undefined;
    this.runs = new Map(
      keys.map((k) => {
        const trace = new RunTrace(oneRun ? first : undefined);
        first ??= trace;
        return [k, trace];
      }),
    );
  }

  /** Appends a chunk; ignored for keys not in the current comparison. */
  append(
    key: string,
    chunk: TraceChunk,
    now: number,
    meta: ThroughputMeta | null = null,
    rounds: RoundsJson | null = null,
  ): void {
    const run = this.runs.get(key);
    if (!run) return;
    run.append(chunk, now, meta, rounds);
    // The previous comparison's trace of this key is shown no more: let it go (a long run's
    // columns are tens of MB).
    this.previous.delete(key);
  }

  /** The trace of one run: the new one once it has data, else the previous one. */
  get(key: string): RunTrace | undefined {
    const run = this.runs.get(key);
    if (run && run.version > 0) return run;
    return this.previous.get(key) ?? run;
  }
}

/**
 * True when two runs sent the same packets with the same windows: every table the page
 * draws is equal row for row, except the window-validation and SACK recovery series
 * (bookkeeping: only runs with an idle policy, or with SACK on, have one) and the marks of `bookkeeping` kinds (e.g. new CWV entering its
 * non-validated phase, which changes nothing by itself).
 */
export function samePackets(a: RunTrace, b: RunTrace, bookkeeping: ReadonlySet<number>): boolean {
  for (const name of TABLE_NAMES) {
    if (name === 'validation' || name === 'recovery' || name === 'marks') continue;
    const ta = a.tables[name] as GrowTable<TableName>;
    const tb = b.tables[name] as GrowTable<TableName>;
    if (ta.length !== tb.length) return false;
    for (const c of TABLES[name] as readonly ColumnOf<TableName>[]) {
      const ca = ta.col(c);
      const cb = tb.col(c);
      for (let i = 0; i < ca.length; i += 1) if (!Object.is(ca[i], cb[i])) return false;
    }
  }
  const rows = (t: RunTrace) => {
    const m = t.tables.marks;
    const out: number[] = [];
    for (let i = 0; i < m.length; i += 1) if (!bookkeeping.has(m.cols.kind[i] ?? -1)) out.push(i);
    return out;
  };
  const ra = rows(a);
  const rb = rows(b);
  if (ra.length !== rb.length) return false;
  const ma = a.tables.marks.cols;
  const mb = b.tables.marks.cols;
  return ra.every((i, k) => {
    const j = rb[k] ?? -1;
    return (TABLES.marks as readonly ColumnOf<'marks'>[]).every((c) => Object.is(ma[c][i], mb[c][j]));
  });
}
