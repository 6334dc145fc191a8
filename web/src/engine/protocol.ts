// The messages between the page and the engine workers. Both sides import this module.
//
// Results cross as columns: every table is a set of Float64Arrays of equal length whose
// buffers are transferred, never copied and never JSON. Units as the engine gives them:
// time in seconds, sizes and sequence numbers in bytes, codes as in `codes_json()`.
import type { JsonValue } from '../lib/json';
import { DECISION_INDEX_COLUMNS, TABLES, type TableName } from './pkg/vocabulary';
import type { Machine } from './tables';

/** The page's trace tables and their columns, the queue's column order, and the table
 *  names: generated from the engine (pkg/vocabulary.ts, written by scripts/setup.mjs from
 *  engine/core/src/export/vocabulary.rs, where each column's meaning is written). A run
 *  produces these tables for one flow (its first in a comparison, each of them in a
 *  competition: see RunSpec.flowKeys); the queue and throughput tables are the run's (the
 *  throughput table has every traffic class), sent with flow 0's chunk. Each table's
 *  columns are views of one transferred buffer (the engine's block for that table). Each
 *  combined read returns the columns its mask selects, in the engine's order, one after
 *  another in one array. */
export { QDISC_COLUMNS, QUEUE_COLUMNS, TABLES, type TableName } from './pkg/vocabulary';

/** A u32 field of an event row that saturated: "unlimited" (ssthresh ∞). */
export const U32_UNLIMITED = 4294967295;

/** The column names of a table. */
export type ColumnOf<T extends TableName> = (typeof TABLES)[T][number];
/** One table's columns. */
export type Table<T extends TableName> = Record<ColumnOf<T>, Float64Array>;
/** Where a long run's bounded recording began reducing its rows (the engine's
 *  `reduction_json`, rule in engine/core/src/bounded.rs): rows before `at` (s) are every
 *  row; from `at` on, each table keeps, per bucket of `width` seconds (buckets start at 0)
 *  and per flow, routine event kind (send, ACK, RTT sample) or queue, the first and last row
 *  and the rows holding each column's minimum and maximum; losses, retransmissions and the
 *  other marks are all kept. Drawn at one bucket per device pixel or coarser, the min/max
 *  envelope is the full run's; finer than that it is not (ask for a window: `ExplainQuery`
 *  'window'). */
export interface Reduction {
  at: number;
  width: number;
}

/** New rows of every table since the previous chunk of the same run; `reduced`: the run's
 *  reduction once it began (absent or null: every row). */
export type TraceChunk = { [T in TableName]: Table<T> } & { reduced?: Reduction | null };

/** Stored rows of one run (window series, event log, queue) above which the worker reduces
 *  the rows that follow (40 to 70 bytes a row in the engine and about as much in the page):
 *  the presets that record more per run are today's 100 Mbit/s competitions, the long fat
 *  path, BR-TCP's and BBR–CUBIC's; every other preset is kept whole. */
export const BOUNDED_BUDGET_ROWS = 300_000;
/** Buckets over a run's duration once reduced (about 4 per device pixel of a 1 000-pixel
 *  plot). */
export const BOUNDED_BUCKETS = 4096;
/** Every table name, in a fixed order. */
export const TABLE_NAMES = Object.keys(TABLES) as TableName[];

/** Per-flow metrics of `Sim.summary_json()` that the page shows. */
export interface FlowSummary {
  flow: number;
  /** The catalogue entry the flow's settings match, or custom. */
  algorithm: string;
  variant: string;
  goodput_bps: number;
  /** Delivered bytes over the flow's own transfer (its start to its completion, or to now),
   *  bit/s: what the run's Jain index compares. */
  transfer_goodput_bps: number;
  throughput_bps: number;
  delivered_bytes: number;
  data_packets_sent: number;
  retransmits: number;
  /** Retransmissions an earlier copy of which had reached the receiver. */
  spurious_retransmits: number;
  timeouts: number;
  fast_retransmits: number;
  partial_acks: number;
  dupacks: number;
  mean_cwnd_bytes: number;
  mean_cwnd_segments: number;
  cwnd_cv: number;
  /** Drops by cause (`queue`: a full buffer and a queue discipline) and CE marks (RFC 3168). */
  drops: {
    queue: number;
    error: number;
    scripted: number;
    ack_queue: number;
    ack_error: number;
    ce_marks?: number;
  };
  completion_time_s: number | null;
  /** Most data packets sent back to back at one instant. */
  max_burst_packets: number;
  /** cwnd reductions by the idle policy: idle and application-limited decays, restarts
   *  after idle, new CWV's time-limit and loss responses. */
  window_decays: number;
  /** BR-TCP: the reserved rate's bandwidth-delay product its ssthresh rule gives, bytes;
   *  null for other variants. */
  reserved_bdp_bytes: number | null;
  /** Application writes made; null for a bulk sender (which has no writes). */
  writes: number | null;
  /** Mean payload of the data packets sent (retransmissions included), bytes. */
  mean_payload_bytes: number;
  /** Inter-transmission time of data packets (both kinds), 50th/90th/99th percentile, s;
   *  null when undefined (fewer than two packets). Every percentile here is nearest-rank,
   *  read from the engine's log-linear histograms: its bucket's lower bound, at most 0.2 %
   *  below the exact value. */
  itt_p50_s: number | null;
  itt_p90_s: number | null;
  itt_p99_s: number | null;
  /** Sojourn time of the writes transmitted so far (written until their last byte was
   *  first sent), s; null without writes. */
  sojourn_p50_s: number | null;
  sojourn_p90_s: number | null;
  sojourn_p99_s: number | null;
  /** Latency of the writes delivered so far (written until delivered in order), s; null
   *  without writes. */
  latency_p50_s: number | null;
  latency_p90_s: number | null;
  latency_p99_s: number | null;
  /** Queueing delay of the flow's data packets at the bottleneck (from entering its queue to
   *  the start of their transmission), mean and 95th percentile, ms; null before the first
   *  packet. */
  qdelay_mean_ms: number | null;
  qdelay_p95_ms: number | null;
  /** The RTT samples the sender took (the RTT plot's dots; not SRTT), mean and 95th
   *  percentile, ms; null before the first sample. */
  rtt_mean_ms: number | null;
  rtt_p95_ms: number | null;
  /** Short transfers (a `transfers` application; absent otherwise). */
  transfers?: TransferSummary;
}

/** A flow's short transfers in `Sim.summary_json()` (engine/core/src/summary.rs): its
 *  fields are named by TRANSFER_SUMMARY_COLUMNS (pkg/vocabulary.ts). */
export interface TransferSummary {
  started: number;
  completed: number;
  mean_s: number | null;
  p50_s: number | null;
  p90_s: number | null;
  p99_s: number | null;
  /** Every completion time, s, in completion order. */
  completion_times_s: number[];
}

/** A ping source's round-trip times in `Sim.summary_json()` (PING_SUMMARY_FIELDS). */
export interface PingSummary {
  samples: number;
  lost: number;
  mean_s: number | null;
  p50_s: number | null;
  p90_s: number | null;
  p99_s: number | null;
}

/** Per cross-traffic source metrics of `Sim.summary_json()`. */
export interface CrossSummary {
  source: number;
  kind: string;
  rate_bps: number;
  /** Sends in the ACK direction. */
  reverse: boolean;
  sent_packets: number;
  delivered_packets: number;
  delivered_bytes: number;
  queue_drops: number;
  error_drops: number;
  /** Delivered bytes × 8 / the run's duration. */
  delivered_bps: number;
  /** A ping source's round-trip times (absent for other kinds). */
  ping?: PingSummary;
}

/** `Sim.summary_json()`. */
export interface RunSummary {
  seed: number;
  duration_s: number;
  now_s: number;
  finished: boolean;
  events_processed: number;
  packets: number;
  digest: string;
  flows: FlowSummary[];
  /** Jain's fairness index of the flows' transfer goodputs; null when no flow delivered
   *  anything. */
  jain_index: number | null;
  /** One entry per cross-traffic source (empty without cross traffic). */
  cross: CrossSummary[];
}

/** What the throughput table's rows refer to; constant for a run. */
export interface ThroughputMeta {
  /** Width of the engine's bins, s (`Sim.throughput_bin()`). */
  bin: number;
  /** Class names by class index: "flow 0", …, "cross 0", … (`Sim.throughput_classes()`). */
  classes: string[];
}

/** During live playback, the worker sends a fresh summary at most this often, ms. */
export const SUMMARY_EVERY_MS = 250;

/** One transmission round of a flow, as the engine counts them (`Sim.rounds_json`: its
 *  definition travels with the rounds). Times in s, windows in bytes. */
export interface RoundJson {
  /** 1, 2, 3, … */
  round: number;
  start: number;
  /** null: still open at the end of the record (the end of the run, or now). */
  end: number | null;
  cwnd: number;
  /** null = unlimited. */
  ssthresh: number | null;
  mss: number;
  /** The sender's phase just before the round ended (the engine's definition): an engine phase name (`codes.phases`). */
  phase: string;
  /** Segments sent in the round, and of those retransmitted. */
  sent: number;
  retransmitted: number;
  /** Congestion events during the round: engine event-kind names, in order. */
  events: string[];
}

/** `Sim.rounds_json(flow)`: the definition of a round (one sentence, the engine's) and the
 *  rounds so far; with `unavailable` (the engine's reason) and no rounds when the run did
 *  not keep the sender's events. */
export interface RoundsJson {
  definition: string;
  rounds: RoundJson[];
  unavailable?: string;
}

/** The worker reads a run's rounds (O(run so far)) at most this often before its end, ms. */
export const ROUNDS_EVERY_MS = 250;

/** A problem the engine reports: where, what, and `text`, the engine's one-line form of both. */
export interface Problem {
  path: string;
  message: string;
  text: string;
}

/** A problem with no parameter to name (a crash, a failed load). */
export function plainProblem(message: string): Problem {
  return { path: '', message, text: message };
}

/** The notices' key of an engine worker's failure (the banner says so; the next comparison
 *  clears it). */
export const ENGINE_NOTICE = 'engine-worker';

/** A fatal failure with no parameter to name: every run of that worker is lost. `detail`:
 *  the technical cause, for a collapsed part of the message (never its main text). */
export function failedMessage(
  gen: number,
  key: string | null,
  message: string,
  detail?: string,
): Extract<FromWorker, { type: 'failed' }> {
  return {
    type: 'failed',
    gen,
    key,
    message,
    problems: [plainProblem(message)],
    fatal: true,
    ...(detail ? { detail } : {}),
  };
}

/** Now, in ms since the epoch: a clock the page and its workers share (performance.now()
 *  alone counts from each one's own start). */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/** One run of a comparison: a key (the algorithm) and its complete scenario. */
/** The page keys of a run: each flow's in a competition (`flowKeys`), else the run's. */
export function runKeys(spec: RunSpec): string[] {
  return spec.flowKeys && spec.flowKeys.length > 0 ? spec.flowKeys : [spec.key];
}

/** What makes two run specs the same run (a run computed ahead is adopted only by an
 *  identical spec): its key, flow keys, rounds and scenario. */
export function specSignature(spec: RunSpec): string {
  return [
    spec.key,
    spec.algorithm ?? '',
    (spec.flowKeys ?? []).join(','),
    spec.rounds === true ? 'rounds' : '',
    spec.scenarioJson,
  ].join('\n');
}

export interface RunSpec {
  key: string;
  /** The comparison's scenario: the same text for every run of a comparison (the engine
   *  reads it once per worker), or, without `algorithm`, the run's own scenario. */
  scenarioJson: string;
  /** The catalogue entry this run compares: the engine applies its settings to flow 0 of
   *  `scenarioJson` (engine/core/src/scenario/runs.rs, as the page's `runScenario` does).
   *  Absent: `scenarioJson` runs as it is (a competition). */
  algorithm?: string;
  /** A competition: the key of each flow of the run (flow i's tables, summary and status go
   *  to flowKeys[i], one chunk message per flow, the run-wide tables with flow 0's). Absent:
   *  flow 0 only, under `key`. */
  flowKeys?: string[];
  /** Read the run's transmission rounds (`rounds_json`) with its chunks: the rounds view is
   *  shown, or the run plays live. Absent or false: no rounds (they cost about a millisecond
   *  per run, on the way from a slider step to its plots). */
  rounds?: boolean;
}

/** One value of an explained decision: its name, unit, value (null = unlimited) and text. */
export interface DecisionValue {
  name: string;
  unit: string;
  value: number | null;
  text: string;
}

/** One explained decision, as the engine writes it (`Sim.decisions_json`), with its index
 *  in the run's decisions. Wording, source and formula are the engine's. */
export interface DecisionJson {
  index: number;
  t: number;
  flow: number;
  rule: string;
  kind: string;
  title: string;
  source: string;
  formula: string;
  inputs: DecisionValue[];
  outputs: DecisionValue[];
  /** Phase codes before and after (255: a receiver's decision, no phase). */
  from: number;
  to: number;
  text: string;
  /** The same sentence with the byte counts it names in segments (the plots' unit), where
   *  the engine wrote one (`Sim.decisions_json`; not the first divergence's records). */
  text_segments?: string;
}

/** Where two runs first differ (`first_divergence_json`): null when they never do. */
export interface DivergenceJson {
  t: number;
  common: number;
  a: Omit<DecisionJson, 'index'>[];
  b: Omit<DecisionJson, 'index'>[];
}

/** A flow's decision index (`Sim.decisions_index`): one row per decision, in the order made.
 *  `index`: in the run's decisions; `rule`: into the rules table; `from`/`to`: phase codes;
 *  `transition`/`overlay`: of the flow's machine (-1: none). */
export { DECISION_INDEX_COLUMNS } from './pkg/vocabulary';
export type DecisionIndexColumns = Record<(typeof DECISION_INDEX_COLUMNS)[number], Float64Array>;

/** What the page asks of a run's explanations. The worker explains a run only when asked:
 *  it replays the run with explanations on (deterministic: the same decisions the run made)
 *  and keeps that replay for the next questions. */
export type ExplainQuery =
  /** The key's decision index from the run's decision `from` on, and its state machine. */
  | { what: 'index'; key: string; from: number }
  /** Decisions of the key's run, by index. */
  | { what: 'detail'; key: string; indices: number[] }
  /** The first divergence of two complete scenarios. */
  | { what: 'divergence'; a: string; b: string }
  /** Every row of the key's run between `from` and `to` (s): the run replayed from its
   *  start keeping only that window's rows (deterministic: the very rows the run made),
   *  for zooming into a reduced run finer than its buckets. */
  | { what: 'window'; key: string; from: number; to: number };

/** The worker's answer. `epoch` numbers the replays of a run: a new one (after a live
 *  change) starts the index afresh. */
export type ExplainResult =
  | {
      what: 'index';
      key: string;
      epoch: number;
      /** Rows from the asked `from` on. */
      cols: DecisionIndexColumns;
      /** The run's decisions so far (the next `from`). */
      end: number;
      /** Simulated time the replay has reached, s. */
      now: number;
      machine: Machine | null;
    }
  | { what: 'detail'; key: string; epoch: number; decisions: DecisionJson[] }
  | { what: 'divergence'; divergence: DivergenceJson | null }
  /** Every row the run produced from `from` to `to` (the key's flow; its run's queue and
   *  throughput): what a full recording holds between those times (the window series'
   *  state in force at `from` is the last row before it, not in the window). */
  | { what: 'window'; key: string; from: number; to: number; chunk: TraceChunk; computeMs: number }
  | { what: 'error'; message: string };

/** full: run to the end at once (in time slices); live: wait for `advance` steps. */
export type RunMode = 'full' | 'live';

/** Page → worker. `gen` numbers requests; anything older than the newest is dropped. */
export type ToWorker =
  | { type: 'init'; module: WebAssembly.Module }
  | { type: 'run'; gen: number; mode: RunMode; runs: RunSpec[] }
  | { type: 'advance'; gen: number; dt: number }
  | { type: 'change'; gen: number; path: string; valueJson: string }
  | { type: 'cancel'; gen: number }
  | { type: 'explain'; gen: number; id: number; query: ExplainQuery }
  /** Runs to compute ahead, while the worker has nothing else to do: the comparisons a
   *  slider's next key press may ask for (its neighbouring stops). Replaces the previous
   *  list (runs already computed for a spec still listed are kept); an empty list frees
   *  them. A finished run computed ahead posts its chunks once, with `aheadOf` (its spec's
   *  signature, `specSignature`) and no generation. A later full `run` of an identical spec
   *  adopts it instead of starting it again: finished, nothing more is posted (the page
   *  has its results, or they are on their way); unfinished, it goes on computing and
   *  posts as any run. The engine is deterministic: they are the very results a fresh run
   *  would give. */
  | { type: 'ahead'; runs: RunSpec[] };

/** Worker → page. */
export type FromWorker =
  | { type: 'ready' }
  | {
      type: 'chunk';
      gen: number;
      key: string;
      chunk: TraceChunk;
      /** With a run's first chunk only (null afterwards). */
      throughput: ThroughputMeta | null;
      /** Simulated time reached, s. */
      now: number;
      finished: boolean;
      /** Metrics so far; null on live steps between summaries (computing one costs about
       *  as much as a step, so live mode sends one every SUMMARY_EVERY_MS). */
      summary: RunSummary | null;
      /** The flow's rounds so far (the whole list, replacing the previous one); null when
       *  not read for this chunk (throttled: ROUNDS_EVERY_MS, and always at the end). */
      rounds?: RoundsJson | null;
      /** Wall-clock time spent in the engine for this run so far, ms. */
      computeMs: number;
      /** Time spent reading this chunk's columns out of the engine, ms. */
      readMs: number;
      /** Time spent computing and parsing the summary, ms (0 when none is sent). */
      summaryMs: number;
      /** When the worker took the request, ms since the epoch (epochNow(), comparable
       *  between the page and its workers). */
      receivedAt: number;
      /** When the worker posted this message, ms since the epoch. */
      postedAt: number;
      /** The run was begun before it was asked for (a spec computed ahead, `ahead`);
       *  `computeMs` is then engine time spent ahead of the request. */
      ahead?: boolean;
      /** A run computed ahead, finished before any request adopted it: its spec's
       *  signature (`gen` is then -1). */
      aheadOf?: string;
    }
  | { type: 'changed'; gen: number; key: string; timeline: JsonValue; now: number }
  | { type: 'explained'; gen: number; id: number; result: ExplainResult }
  | {
      type: 'failed';
      gen: number;
      key: string | null;
      message: string;
      problems: Problem[];
      fatal: boolean;
      /** A fatal failure's technical cause (the page's message is plain words). */
      detail?: string;
    };

/** True when `error` is a wasm trap (a Rust panic, an out-of-bounds access): the instance
 *  that trapped must not be used again, so its worker is replaced. */
export function isTrap(error: unknown): boolean {
  return typeof WebAssembly !== 'undefined' && error instanceof WebAssembly.RuntimeError;
}

/** Reads the problem list an engine error carries in its message (JSON), or wraps the text. */
export function problemsOf(error: unknown): Problem[] {
  const text = error instanceof Error ? error.message : String(error);
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed)) {
      return parsed.map((p: unknown) => {
        const o = (typeof p === 'object' && p !== null ? p : {}) as Record<string, unknown>;
        const message = String(o.message ?? '');
        return { path: String(o.path ?? ''), message, text: String(o.text ?? message) };
      });
    }
  } catch {
    // Not JSON: an engine trap or another failure.
  }
  return [plainProblem(text)];
}
