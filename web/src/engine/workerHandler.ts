// The engine side of the worker protocol, as a plain object so Vitest can drive it in Node
// with the real wasm (engine.worker.ts only binds it to `self`).
//
// Scheduling: a `run` request is not started at once; the pump starts on the next task, so
// when several requests are queued (a slider being dragged) only the newest runs. Full runs
// advance in slices of ~SLICE_MS and yield between them, so a newer request or a cancel is
// seen within one slice, whatever the scenario.
import {
  BOUNDED_BUCKETS,
  BOUNDED_BUDGET_ROWS,
  DECISION_INDEX_COLUMNS,
  type DecisionIndexColumns,
  type DecisionJson,
  type DivergenceJson,
  epochNow,
  type ExplainQuery,
  type ExplainResult,
  problemsOf,
  QDISC_COLUMNS,
  QUEUE_COLUMNS,
  ROUNDS_EVERY_MS,
  type RoundsJson,
  TABLES,
  type FromWorker,
  type RunMode,
  type RunSpec,
  SUMMARY_EVERY_MS,
  runKeys,
  specSignature,
  type RunSummary,
  type Reduction,
  type TableName,
  type ThroughputMeta,
  type ToWorker,
  type TraceChunk,
} from './protocol';
import type { JsonValue } from '../lib/json';
import type { Sim } from './pkg/lite/cwndlab_wasm';
import { EVENT_TABLE_KINDS, type EventTableName, LIMITS } from './pkg/vocabulary';
import type { Codes, Machine } from './tables';

/** The part of the wasm `Sim` class the worker uses, typed by the engine's own bindings
 *  (pkg/lite/cwndlab_wasm.d.ts, whose comments are the engine's): the page always ships with
 *  its engine, so every method is there. */
export type SimLike = Pick<
  Sim,
  | 'run_events'
  | 'advance'
  | 'apply_change'
  | 'now'
  | 'finished'
  | 'series_len'
  | 'series_cols'
  | 'validation_len'
  | 'validation_cols'
  | 'recovery_len'
  | 'recovery_cols'
  | 'events_len'
  | 'events_select'
  | 'queue_len'
  | 'queue_cols'
  | 'qdisc_len'
  | 'qdisc_cols'
  | 'throughput_len'
  | 'throughput_cols'
  | 'writes_len'
  | 'writes_cols'
  | 'throughput_classes'
  | 'throughput_bin'
  | 'summary_json'
  | 'scenario_json'
  | 'set_explain'
  | 'decisions_len'
  | 'decisions_json'
  | 'decisions_index'
  | 'machine_json'
  | 'rounds_json'
  | 'set_bounded'
  | 'reduce_rows'
  | 'reduction_json'
  | 'keep_rows'
  | 'free'
>;

/** What the handler needs from the wasm module. */
export interface EngineApi {
  /** A run of catalogue entry `algorithm` on the comparison scenario `scenarioJson` (read
   *  once for every algorithm: runs.ts), or of `scenarioJson` as it is (no algorithm);
   *  throws with the engine's problems when it refuses the run's scenario. */
  createSim(scenarioJson: string, algorithm?: string): SimLike;
  /** `first_divergence_json(a, b)`: runs both scenarios explained. */
  firstDivergence(aJson: string, bJson: string): string;
  /** `codes_json()`, parsed. */
  codes: Codes;
}

/** Knobs (tests shorten them). */
export interface HandlerOptions {
  /** Engine time per slice before yielding, ms. */
  sliceMs?: number;
  /** The same for a run computed ahead: short, so that a request arriving meanwhile waits
   *  at most this long, ms. */
  aheadSliceMs?: number;
  /** Minimum time between progress chunks of an unfinished full run, ms. */
  progressMs?: number;
  /** Events between clock checks inside a slice. */
  eventsPerCheck?: number;
  /** Lets queued messages in (a macrotask). */
  yieldToMessages?: () => Promise<void>;
  now?: () => number;
  /** Wall clock shared with the page (ms since the epoch, sub-ms): timestamps messages so
   *  the page can tell transfer time apart from engine time. */
  epoch?: () => number;
  /** Bounded recording's budget (rows stored per run before reducing) and buckets. */
  boundedBudgetRows?: number;
  boundedBuckets?: number;
  /** Decisions an explained replay holds at most (EXPLAIN_BUDGET). */
  explainBudget?: number;
}

type Post = (msg: FromWorker, transfer: Transferable[]) => void;

interface Run {
  key: string;
  /** The key of each flow read: [key] (flow 0) in a comparison, one per flow in a
   *  competition (RunSpec.flowKeys). */
  keys: string[];
  sim: SimLike;
  /** Rows already sent: the run-wide tables and the event log (one cursor: each flow's
   *  events are selected from the same rows), then each flow's own tables. */
  cursors: {
    events: number;
    queue: number;
    qdisc: number;
    throughput: number;
    flows: { series: number; validation: number; recovery: number; writes: number }[];
  };
  /** The first chunk (which carries the throughput table's meta) has been posted. */
  sentMeta: boolean;
  computeMs: number;
  lastPost: number;
  lastSummary: number;
  /** When the rounds were last read (throttled to ROUNDS_EVERY_MS before the end). */
  lastRounds: number;
  /** Whether the page asked for the run's rounds (RunSpec.rounds). */
  rounds: boolean;
  done: boolean;
  /** When the worker took the request (ms since the epoch). */
  receivedAt: number;
  /** The scenario as started; live changes are added to it (`scenario_json()`). */
  scenarioJson: string;
  /** The catalogue entry the engine applies to `scenarioJson` (RunSpec.algorithm); none
   *  once a live change has made `scenarioJson` the run's own scenario. */
  algorithm?: string;
  /** Live changes applied so far (a replay made before one is stale). */
  changes: number;
  /** The explained replay of this run, made when the page first asks (null until then). */
  replay: { sim: SimLike; changes: number; epoch: number } | null;
  /** Begun before the page asked for it (an `ahead` spec). */
  ahead: boolean;
  /** While the run is computed ahead and no request has adopted it: its spec's signature
   *  (its results are posted once, when it finishes, under this signature); null once
   *  adopted (it then posts as any run) or for a run begun on request. */
  aheadOf: string | null;
}

/** Replays made in this worker (numbers each one). */
let replays = 0;

/** Each event table's kind mask for `events_select` (bit k = event code k). The engine
 *  takes the mask as a JavaScript number (`Sim::events_select(from, kinds: f64, …)`), whose
 *  integers are exact to 2^53: codes up to LIMITS.event_mask_bits − 1 fit, so the mask is
 *  built by adding 2 ** code (JavaScript's bitwise operators work on 32 bits and would wrap
 *  codes 32 and up, e.g. sack_block = 32, into bit 0). Which kinds each table holds is the
 *  engine's (EVENT_TABLE_KINDS, generated). */
export function kindMasks(events: readonly string[]): Record<EventTableName, number> {
  const masks = {} as Record<EventTableName, number>;
  for (const [table, kinds] of Object.entries(EVENT_TABLE_KINDS) as [EventTableName, readonly string[]][]) {
    let mask = 0;
    for (const kind of new Set(kinds)) {
      const code = events.indexOf(kind);
      if (code >= 0 && code < LIMITS.event_mask_bits) mask += 2 ** code;
    }
    masks[table] = mask;
  }
  return masks;
}

/** The engine's column mask for `wanted`: bit i set when `names[i]` (the engine's column
 *  order) is wanted. */
function columnMask(names: readonly string[], wanted: readonly string[]): number {
  return names.reduce((mask, name, i) => (wanted.includes(name) ? mask | (1 << i) : mask), 0);
}

/** Splits a block holding the wanted columns (in the engine's order `names`, one after
 *  another, equal lengths) into views. The views share the block's buffer: one buffer to
 *  transfer per table. */
function splitColumns(block: Float64Array, names: readonly string[], wanted: readonly string[]) {
  const present = names.filter((name) => wanted.includes(name));
  const n = present.length > 0 ? Math.floor(block.length / present.length) : 0;
  const out: Record<string, Float64Array> = {};
  for (const name of wanted) {
    const i = present.indexOf(name);
    out[name] = i < 0 ? new Float64Array(0) : block.subarray(i * n, (i + 1) * n);
  }
  return out;
}

/** The engine's column blocks are fresh JS-owned arrays; anything else (a view into wasm
 *  memory) is copied so that it can be transferred without detaching someone else's memory. */
function owned(block: Float64Array): Float64Array {
  return block.byteOffset === 0 && block.byteLength === block.buffer.byteLength && block.buffer instanceof ArrayBuffer
    ? block
    : block.slice();
}

/** A flow's rounds read from its simulation (null when the engine fails to give them: the
 *  plot then says it has none rather than the run failing). */
function roundsOf(sim: SimLike, flow: number): RoundsJson | null {
  try {
    const parsed = JSON.parse(sim.rounds_json(flow)) as RoundsJson | null;
    return parsed && Array.isArray(parsed.rounds) ? parsed : null;
  } catch {
    return null;
  }
}

/** Where a run's reduction began (null: every row is kept). */
function reductionOf(sim: SimLike): Reduction | null {
  try {
    const parsed = JSON.parse(sim.reduction_json()) as Reduction | null;
    return parsed && typeof parsed.at === 'number' && typeof parsed.width === 'number' ? parsed : null;
  } catch {
    return null;
  }
}

/** Decisions an explained replay holds at most (about 120 bytes each in the engine): every
 *  preset but the longest competitions is explained to its end; a long, fast run up to
 *  where its replay reached this many. */
export const EXPLAIN_BUDGET = 250_000;

/** Simulated time per `advance` call of a live run's replay catching up, s. */
const EXPLAIN_STEP_S = 0.1;

/** Simulated time per `advance` call of a window re-run, s (short: the worker checks its
 *  clock between calls). */
const WINDOW_STEP_S = 0.01;

function defaultYield(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Creates the handler; `post` sends a message with its transfer list. */
export function createWorkerHandler(api: EngineApi, post: Post, opts: HandlerOptions = {}) {
  const sliceMs = opts.sliceMs ?? 12;
  const aheadSliceMs = Math.min(sliceMs, opts.aheadSliceMs ?? 2);
  const progressMs = opts.progressMs ?? 100;
  const eventsPerCheck = opts.eventsPerCheck ?? 2000;
  const yieldToMessages = opts.yieldToMessages ?? defaultYield;
  const clock = opts.now ?? (() => performance.now());
  const epoch = opts.epoch ?? epochNow;
  const budgetRows = opts.boundedBudgetRows ?? BOUNDED_BUDGET_ROWS;
  const buckets = opts.boundedBuckets ?? BOUNDED_BUCKETS;
  const explainBudget = opts.explainBudget ?? EXPLAIN_BUDGET;
  const masks = kindMasks(api.codes.events);
  const {
    series_columns: seriesColumns,
    event_columns: eventColumns,
    validation_columns: validationColumns,
    recovery_columns: recoveryColumns,
    throughput_columns: throughputColumns,
    write_columns: writeColumns,
  } = api.codes;

  let gen = -1;
  let mode: RunMode = 'full';
  let runs: Run[] = [];
  /** Runs computed ahead (`ahead`), by spec signature, in the order the page listed them. */
  let aheads = new Map<string, Run>();
  let pumping = false;

  function free(list: Iterable<Run>) {
    for (const r of list) {
      r.sim.free();
      r.replay?.sim.free();
    }
  }

  function dispose() {
    free(runs);
    runs = [];
  }

  function disposeAhead() {
    free(aheads.values());
    aheads = new Map();
  }

  /** A new run of `spec`, or null when the engine refuses its scenario (`onError`). */
  function createRun(
    spec: RunSpec,
    receivedAt: number,
    aheadOf: string | null,
    onError: (e: unknown) => void,
  ): Run | null {
    try {
      const sim = api.createSim(spec.scenarioJson, spec.algorithm);
      sim.set_bounded(budgetRows, buckets);
      return {
        key: spec.key,
        keys: runKeys(spec),
        sim,
        cursors: { events: 0, queue: 0, qdisc: 0, throughput: 0, flows: [] },
        sentMeta: false,
        computeMs: 0,
        lastPost: clock(),
        lastSummary: -Infinity,
        lastRounds: -Infinity,
        rounds: spec.rounds === true,
        done: false,
        receivedAt,
        scenarioJson: spec.scenarioJson,
        ...(spec.algorithm === undefined ? {} : { algorithm: spec.algorithm }),
        changes: 0,
        replay: null,
        ahead: aheadOf !== null,
        aheadOf,
      };
    } catch (e) {
      onError(e);
      return null;
    }
  }

  /**
   * A finished full run has posted every row, its summary and its rounds: its simulation is
   * freed at once, so that the next run of this worker reuses its memory (wasm memory never
   * shrinks: two long runs kept side by side each held their stored rows to the end). What
   * is still asked of it later (finished, now: the explained replay's target) is kept.
   */
  function release(run: Run) {
    const now = run.sim.now();
    run.sim.free();
    run.sim = { finished: () => true, now: () => now, free: () => undefined } as unknown as SimLike;
  }

  function fail(key: string | null, error: unknown, fatal: boolean) {
    const problems = problemsOf(error);
    const message = problems.map((p) => p.text).join('; ');
    post({ type: 'failed', gen, key, message, problems, fatal }, []);
  }

  /** A run's failure, reported under the key of each of its flows (what the page tracks). */
  function failRun(run: Run, error: unknown, fatal: boolean) {
    for (const key of run.keys) fail(key, error, fatal);
  }

  /**
   * New rows since the run's cursors, split into the plot tables, one chunk per flow read
   * (the run-wide queue and throughput tables with flow 0's, empty in the others): one engine
   * call per table (the engine filters the event log by kind and flow), each returning every
   * column of its rows in one fresh buffer; the tables' columns are views of these buffers,
   * which are transferred (never copied).
   */
  function readChunks(run: Run): { chunk: TraceChunk; transfer: ArrayBuffer[] }[] {
    const { sim, cursors } = run;
    // Nothing runs between these calls, so the log's length is the same before and after.
    const eventsEnd = sim.events_len();
    const out = run.keys.map((_, flow) => {
      const transfer: ArrayBuffer[] = [];
      // One engine read of the `wanted` columns (of the engine's `names`), transferred.
      const take = (names: readonly string[], wanted: readonly string[], read: (mask: number) => Float64Array) => {
        const own = owned(read(columnMask(names, wanted)));
        transfer.push(own.buffer as ArrayBuffer);
        return splitColumns(own, names, wanted);
      };
      const none = () => new Float64Array(0);
      const c = (cursors.flows[flow] ??= { series: 0, validation: 0, recovery: 0, writes: 0 });
      const seriesEnd = sim.series_len(flow);
      const series = take(seriesColumns, TABLES.series, (mask) => sim.series_cols(flow, c.series, mask));
      c.series = seriesEnd;
      // Only flows with an idle policy have a window-validation series; the others get an
      // empty table without asking the engine.
      const validationEnd = sim.validation_len(flow);
      const validation = take(validationColumns, TABLES.validation, (mask) =>
        validationEnd > c.validation ? sim.validation_cols(flow, c.validation, mask) : none(),
      );
      c.validation = validationEnd;
      // Only flows with SACK on have a loss-recovery series; likewise.
      const recoveryEnd = sim.recovery_len(flow);
      const recovery = take(recoveryColumns, TABLES.recovery, (mask) =>
        recoveryEnd > c.recovery ? sim.recovery_cols(flow, c.recovery, mask) : none(),
      );
      c.recovery = recoveryEnd;
      // Only senders that write (every application but bulk) have a write table; rows arrive
      // as writes are delivered.
      const writesEnd = sim.writes_len(flow);
      const writes = take(writeColumns, TABLES.writes, (mask) =>
        writesEnd > c.writes ? sim.writes_cols(flow, c.writes, mask) : none(),
      );
      c.writes = writesEnd;
      // The run-wide tables travel with flow 0's chunk.
      let queue: Record<string, Float64Array>;
      let qdisc: Record<string, Float64Array>;
      let throughput: Record<string, Float64Array>;
      if (flow === 0) {
        const queueEnd = sim.queue_len(0);
        queue = take(QUEUE_COLUMNS, TABLES.queue, (mask) => sim.queue_cols(0, cursors.queue, mask));
        cursors.queue = queueEnd;
        // Only a managed data direction (a queue discipline other than drop-tail) has one.
        const qdiscEnd = sim.qdisc_len();
        qdisc = take(QDISC_COLUMNS, TABLES.qdisc, (mask) =>
          qdiscEnd > cursors.qdisc ? sim.qdisc_cols(cursors.qdisc, mask) : none(),
        );
        cursors.qdisc = qdiscEnd;
        const throughputEnd = sim.throughput_len();
        throughput = take(throughputColumns, TABLES.throughput, (mask) =>
          throughputEnd > cursors.throughput ? sim.throughput_cols(cursors.throughput, mask) : none(),
        );
        cursors.throughput = throughputEnd;
      } else {
        queue = splitColumns(none(), QUEUE_COLUMNS, TABLES.queue);
        qdisc = splitColumns(none(), QDISC_COLUMNS, TABLES.qdisc);
        throughput = splitColumns(none(), throughputColumns, TABLES.throughput);
      }
      const chunk = { series, queue, qdisc, validation, recovery, throughput, writes } as Record<
        TableName,
        Record<string, Float64Array>
      >;
      for (const table of Object.keys(EVENT_TABLE_KINDS) as EventTableName[]) {
        // A kind the engine does not have selects nothing (never "every kind").
        chunk[table] = take(eventColumns, TABLES[table], (columns) =>
          masks[table] === 0 ? none() : sim.events_select(cursors.events, masks[table], flow, columns),
        );
      }
      return { chunk: chunk as unknown as TraceChunk, transfer };
    });
    cursors.events = eventsEnd;
    return out;
  }

  function postChunk(run: Run) {
    const t0 = clock();
    const chunks = readChunks(run);
    const reduced = reductionOf(run.sim);
    for (const { chunk } of chunks) chunk.reduced = reduced;
    const t1 = clock();
    const finished = run.sim.finished();
    const wantSummary = mode === 'full' || finished || t0 - run.lastSummary >= SUMMARY_EVERY_MS;
    const summary = wantSummary ? (JSON.parse(run.sim.summary_json()) as RunSummary) : null;
    if (wantSummary) run.lastSummary = t0;
    // Each flow's rounds: the engine reads the whole run so far, so not on every chunk of a
    // long or live run; always with the last one.
    const wantRounds = run.rounds && (finished || t0 - run.lastRounds >= ROUNDS_EVERY_MS);
    if (wantRounds) run.lastRounds = t0;
    const rounds = run.keys.map((_, flow) => (wantRounds ? roundsOf(run.sim, flow) : null));
    let throughput: ThroughputMeta | null = null;
    if (!run.sentMeta) {
      run.sentMeta = true;
      throughput = { bin: run.sim.throughput_bin(), classes: JSON.parse(run.sim.throughput_classes()) as string[] };
    }
    run.lastPost = clock();
    const now = run.sim.now();
    chunks.forEach(({ chunk, transfer }, i) => {
      const msg = {
        type: 'chunk' as const,
        key: run.keys[i] ?? run.key,
        chunk,
        throughput,
        now,
        finished,
        summary,
        rounds: rounds[i] ?? null,
        computeMs: run.computeMs,
        readMs: t1 - t0,
        summaryMs: run.lastPost - t1,
        receivedAt: run.receivedAt,
        postedAt: epoch(),
        ...(run.ahead ? { ahead: true } : {}),
      };
      // Computed ahead and not yet asked for: the page keeps it by its signature (the
      // generation is not known yet).
      if (run.aheadOf !== null) post({ ...msg, gen: -1, aheadOf: run.aheadOf }, transfer);
      else post({ ...msg, gen }, transfer);
    });
  }

  /** A run computed ahead is now the request's. Finished, its results were posted when it
   *  finished (under its signature) and are not posted again; unfinished, it goes on
   *  computing and posts as any run. */
  function adopt(run: Run, receivedAt: number) {
    run.receivedAt = receivedAt;
    run.aheadOf = null;
  }

  /** Runs every unfinished full run to its end, one slice at a time. */
  async function pump() {
    if (pumping) return;
    pumping = true;
    try {
      // Let requests already queued arrive first: only the newest one runs.
      await yieldToMessages();
      for (;;) {
        // The page's runs first; with none left, the runs asked for ahead (never while a
        // live session holds the worker: its steps come every frame).
        const run =
          mode === 'full' ? (runs.find((r) => !r.done) ?? [...aheads.values()].find((r) => !r.done)) : undefined;
        if (!run) break;
        const t0 = clock();
        const slice = run.aheadOf !== null ? aheadSliceMs : sliceMs;
        let finished = false;
        try {
          do {
            finished = run.sim.run_events(eventsPerCheck);
          } while (!finished && clock() - t0 < slice);
          // A long, fast run reduces what it stores after every slice (bounded recording).
          run.sim.reduce_rows();
        } catch (e) {
          // A trap leaves the wasm instance unusable: the page replaces this worker.
          run.done = true;
          if (run.aheadOf !== null) {
            // Ahead of any request: nobody waits for it (the page's next run finds the
            // instance unusable and reports it). Nothing more is computed ahead.
            aheads = new Map();
            break;
          }
          failRun(run, e, true);
          break;
        }
        run.computeMs += clock() - t0;
        run.done = finished;
        // A run computed ahead posts nothing until it has finished (it is small).
        if (finished || (run.aheadOf === null && clock() - run.lastPost >= progressMs)) postChunk(run);
        if (finished) release(run);
        if (!finished) await yieldToMessages();
      }
    } finally {
      pumping = false;
    }
  }

  function start(msg: Extract<ToWorker, { type: 'run' }>) {
    dispose();
    gen = msg.gen;
    mode = msg.mode;
    const receivedAt = epoch();
    const created: Run[] = [];
    const adopted: Run[] = [];
    for (const spec of msg.runs as RunSpec[]) {
      const signature = specSignature(spec);
      const ahead = mode === 'full' ? aheads.get(signature) : undefined;
      if (ahead) {
        aheads.delete(signature);
        created.push(ahead);
        adopted.push(ahead);
        continue;
      }
      const run = createRun(spec, receivedAt, null, (e) => {
        for (const key of runKeys(spec)) fail(key, e, false);
      });
      if (run) created.push(run);
    }
    // What was computed ahead for other values is of no use now (the page lists new ones
    // once this comparison is drawn).
    disposeAhead();
    runs = created;
    for (const run of adopted) adopt(run, receivedAt);
    if (mode === 'full') void pump();
  }

  /** The page's list of runs to compute ahead (see ToWorker 'ahead'). */
  function setAhead(specs: RunSpec[]) {
    const next = new Map<string, Run>();
    if (mode === 'full') {
      for (const spec of specs) {
        const signature = specSignature(spec);
        if (next.has(signature)) continue;
        const kept = aheads.get(signature);
        if (kept) {
          aheads.delete(signature);
          next.set(signature, kept);
          continue;
        }
        const run = createRun(spec, epoch(), signature, () => {});
        if (run) next.set(signature, run);
      }
    }
    disposeAhead();
    aheads = next;
    if (aheads.size > 0) void pump();
  }

  function advance(dt: number) {
    for (const run of runs) {
      if (!run.done) {
        const t0 = clock();
        try {
          run.sim.advance(dt);
          run.sim.reduce_rows();
        } catch (e) {
          run.done = true;
          failRun(run, e, true);
          continue;
        }
        run.computeMs += clock() - t0;
        run.done = run.sim.finished();
      }
      // Every run answers every step, so the page knows when the step is complete.
      postChunk(run);
    }
  }

  function change(path: string, valueJson: string) {
    for (const run of runs) {
      try {
        run.sim.apply_change(path, valueJson);
        run.changes += 1;
        run.scenarioJson = run.sim.scenario_json();
        delete run.algorithm;
        const scenario = JSON.parse(run.scenarioJson) as { timeline?: JsonValue };
        post(
          {
            type: 'changed',
            gen,
            key: run.key,
            timeline: scenario.timeline ?? [],
            now: run.sim.now(),
          },
          [],
        );
      } catch (e) {
        failRun(run, e, false);
      }
    }
  }

  /**
   * The run's explained replay, brought up to where the run is: made from the run's
   * scenario (with its live changes) the first time the page asks, or again after a live
   * change; the engine is deterministic, so it makes the very decisions the run made.
   * Explaining costs nothing until then, and the run itself is never slowed.
   */
  function replayOf(run: Run): { sim: SimLike; epoch: number } {
    if (run.replay && run.replay.changes !== run.changes) {
      run.replay.sim.free();
      run.replay = null;
    }
    if (!run.replay) {
      const sim = api.createSim(run.scenarioJson, run.algorithm);
      sim.set_explain(true);
      // The replay is asked for decisions only: its rows are dropped (hashed) as they come.
      sim.keep_rows(false);
      replays += 1;
      run.replay = { sim, changes: run.changes, epoch: replays };
    }
    const { sim } = run.replay;
    // Bounded: a replay stops once it holds EXPLAIN_BUDGET decisions (every decision of a
    // long, fast run would not fit in memory); the answers' `now` says how far it got.
    const room = () => sim.decisions_len() < explainBudget;
    if (run.sim.finished()) {
      while (room() && !sim.run_events(1 << 14));
    } else {
      const target = run.sim.now();
      while (room() && sim.now() < target) sim.advance(Math.min(EXPLAIN_STEP_S, target - sim.now()));
    }
    return run.replay;
  }

  /**
   * Every row of `run` between `from` and `to` (s) for its flow `flow`: the run made again
   * from its scenario (with its live changes), its rows dropped (hashed) until `from`, kept
   * from then to `to`. The engine is deterministic, so these are the rows the run made. It
   * advances in short steps and yields between slices; a newer request supersedes it.
   */
  async function windowRows(
    run: Run,
    flow: number,
    from: number,
    to: number,
  ): Promise<{ chunk: TraceChunk; transfer: ArrayBuffer[]; computeMs: number }> {
    const mine = gen;
    const sim = api.createSim(run.scenarioJson, run.algorithm);
    let computeMs = 0;
    try {
      sim.keep_rows(false);
      const until = async (target: number) => {
        while (sim.now() < target && !sim.finished()) {
          const t0 = clock();
          do sim.advance(Math.min(WINDOW_STEP_S, target - sim.now()));
          while (sim.now() < target && !sim.finished() && clock() - t0 < sliceMs);
          computeMs += clock() - t0;
          await yieldToMessages();
          if (gen !== mine) throw new Error('superseded');
        }
      };
      await until(Math.max(0, from));
      sim.keep_rows(true);
      await until(Math.max(from, to));
      const window: Run = {
        ...run,
        sim,
        cursors: { events: 0, queue: 0, qdisc: 0, throughput: 0, flows: [] },
      };
      const chunks = readChunks(window);
      const mineChunk = chunks[flow] ?? chunks[0];
      if (!mineChunk) throw new Error('no rows');
      // The run-wide tables travel with flow 0's chunk: a later flow's window gets them too.
      if (flow > 0 && chunks[0]) {
        mineChunk.chunk.queue = chunks[0].chunk.queue;
        mineChunk.chunk.qdisc = chunks[0].chunk.qdisc;
        mineChunk.chunk.throughput = chunks[0].chunk.throughput;
        mineChunk.transfer.push(...chunks[0].transfer);
      }
      mineChunk.chunk.reduced = null;
      return { chunk: mineChunk.chunk, transfer: mineChunk.transfer, computeMs };
    } finally {
      sim.free();
    }
  }

  /** The run and flow a page key names. */
  function find(key: string): { run: Run; flow: number } | null {
    for (const run of runs) {
      const flow = run.keys.indexOf(key);
      if (flow >= 0) return { run, flow };
    }
    return null;
  }

  function explain(id: number, query: ExplainQuery) {
    const answer = (result: ExplainResult, transfer: Transferable[] = []) =>
      post({ type: 'explained', gen, id, result }, transfer);
    try {
      if (query.what === 'divergence') {
        const divergence = JSON.parse(api.firstDivergence(query.a, query.b)) as DivergenceJson | null;
        answer({ what: 'divergence', divergence });
        return;
      }
      const found = find(query.key);
      if (!found) {
        answer({ what: 'error', message: `no run ${query.key} in this worker` });
        return;
      }
      if (query.what === 'window') {
        void windowRows(found.run, found.flow, query.from, query.to).then(
          ({ chunk, transfer, computeMs }) =>
            answer({ what: 'window', key: query.key, from: query.from, to: query.to, chunk, computeMs }, transfer),
          (e: unknown) =>
            answer({
              what: 'error',
              message: problemsOf(e)
                .map((p) => p.text)
                .join('; '),
            }),
        );
        return;
      }
      const { sim, epoch } = replayOf(found.run);
      if (query.what === 'index') {
        const end = sim.decisions_len();
        const block = owned(sim.decisions_index(found.flow, query.from));
        const n = Math.floor(block.length / DECISION_INDEX_COLUMNS.length);
        const cols = Object.fromEntries(
          DECISION_INDEX_COLUMNS.map((name, i) => [name, block.subarray(i * n, (i + 1) * n)]),
        ) as DecisionIndexColumns;
        const machine = JSON.parse(sim.machine_json(found.flow)) as Machine | null;
        answer({ what: 'index', key: query.key, epoch, cols, end, now: sim.now(), machine }, [block.buffer]);
        return;
      }
      const decisions: DecisionJson[] = [];
      for (const i of query.indices) {
        const [d] = JSON.parse(sim.decisions_json(i, i + 1)) as Omit<DecisionJson, 'index'>[];
        if (d) decisions.push({ index: i, ...d });
      }
      answer({ what: 'detail', key: query.key, epoch, decisions });
    } catch (e) {
      answer({
        what: 'error',
        message: problemsOf(e)
          .map((p) => p.text)
          .join('; '),
      });
    }
  }

  return {
    /** Handles one message from the page. */
    handle(msg: ToWorker): void {
      switch (msg.type) {
        case 'init':
          return;
        case 'run':
          start(msg);
          return;
        case 'advance':
          if (msg.gen === gen && mode === 'live') advance(msg.dt);
          return;
        case 'change':
          if (msg.gen === gen) change(msg.path, msg.valueJson);
          return;
        case 'explain':
          if (msg.gen === gen) explain(msg.id, msg.query);
          else
            post({ type: 'explained', gen: msg.gen, id: msg.id, result: { what: 'error', message: 'superseded' } }, []);
          return;
        case 'cancel':
          if (msg.gen >= gen) {
            gen = msg.gen;
            dispose();
            disposeAhead();
          }
          return;
        case 'ahead':
          setAhead(msg.runs);
          return;
        default: {
          const never: never = msg;
          throw new Error(`unknown message ${JSON.stringify(never)}`);
        }
      }
    },
    /** True while full runs are being computed. */
    busy(): boolean {
      return pumping;
    },
    /** Frees every simulation. */
    dispose(): void {
      dispose();
      disposeAhead();
    },
    /** Runs held computed ahead (tests). */
    aheadCount(): number {
      return aheads.size;
    },
  };
}
