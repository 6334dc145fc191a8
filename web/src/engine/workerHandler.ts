// The engine side of the worker protocol, as a plain object so Vitest can drive it in Node
// with the real wasm (engine.worker.ts only binds it to `self`).
//
// Scheduling: a `run` request is not started at once; the pump starts on the next task, so
// when several requests are queued (a slider being dragged) only the newest runs. Full runs
// advance in slices of ~SLICE_MS and yield between them, so a newer request or a cancel is
// seen within one slice, whatever the scenario.
import {
  problemsOf,
  TABLES,
  transferList,
  type FromWorker,
  type RunMode,
  type RunSpec,
  SUMMARY_EVERY_MS,
  type RunSummary,
  type TableName,
  type ToWorker,
  type TraceChunk,
} from './protocol';
import type { JsonValue } from '../lib/json';

/** The part of the wasm `Sim` class the worker uses. */
export interface SimLike {
  run_events(maxEvents: number): boolean;
  advance(dt: number): number;
  apply_change(path: string, valueJson: string): void;
  now(): number;
  finished(): boolean;
  flow_count(): number;
  series_len(flow: number): number;
  series_col(flow: number, name: string, from: number): Float64Array;
  events_len(): number;
  events_col(name: string, from: number): Float64Array;
  queue_len(queue: number): number;
  queue_col(queue: number, name: string, from: number): Float64Array;
  summary_json(): string;
  scenario_json(): string;
  free(): void;
}

/** What the handler needs from the wasm module. */
export interface EngineApi {
  createSim(scenarioJson: string): SimLike;
  /** `codes_json()`, parsed. */
  codes: { events: string[]; phases: string[] };
}

/** Knobs (tests shorten them). */
export interface HandlerOptions {
  /** Engine time per slice before yielding, ms. */
  sliceMs?: number;
  /** Minimum time between progress chunks of an unfinished full run, ms. */
  progressMs?: number;
  /** Events between clock checks inside a slice. */
  eventsPerCheck?: number;
  /** Lets queued messages in (a macrotask). */
  yieldToMessages?: () => Promise<void>;
  now?: () => number;
}

type Post = (msg: FromWorker, transfer: Transferable[]) => void;

interface Run {
  key: string;
  sim: SimLike;
  cursors: { series: number; events: number; queue: number };
  computeMs: number;
  lastPost: number;
  lastSummary: number;
  done: boolean;
  /** Flows in the scenario. */
  flows: number;
}

/** Which table each event kind goes to (kinds the plots do not draw are left out). */
function routeKinds(events: string[]): Map<number, Exclude<TableName, 'series' | 'queue'>> {
  const route = new Map<number, Exclude<TableName, 'series' | 'queue'>>();
  const to: Record<string, Exclude<TableName, 'series' | 'queue'>> = {
    data_send: 'sends',
    retransmit: 'retx',
    queue_drop: 'drops',
    error_drop: 'drops',
    scripted_drop: 'drops',
    ack_queue_drop: 'drops',
    ack_error_drop: 'drops',
    ack_received: 'acks',
    fast_retransmit: 'marks',
    partial_ack: 'marks',
    timeout: 'marks',
    recovery_exit: 'marks',
    param_change: 'marks',
  };
  events.forEach((name, code) => {
    const table = to[name];
    if (table) route.set(code, table);
  });
  return route;
}

function defaultYield(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Creates the handler; `post` sends a message with its transfer list. */
export function createWorkerHandler(api: EngineApi, post: Post, opts: HandlerOptions = {}) {
  const sliceMs = opts.sliceMs ?? 12;
  const progressMs = opts.progressMs ?? 100;
  const eventsPerCheck = opts.eventsPerCheck ?? 2000;
  const yieldToMessages = opts.yieldToMessages ?? defaultYield;
  const clock = opts.now ?? (() => performance.now());
  const route = routeKinds(api.codes.events);

  let gen = -1;
  let mode: RunMode = 'full';
  let runs: Run[] = [];
  let pumping = false;

  function dispose() {
    for (const r of runs) r.sim.free();
    runs = [];
  }

  function fail(key: string | null, error: unknown, fatal: boolean) {
    const problems = problemsOf(error);
    const message = problems.map((p) => (p.path ? `${p.path} ${p.message}` : p.message)).join('; ');
    post({ type: 'failed', gen, key, message, problems, fatal }, []);
  }

  /** New rows since the run's cursors, split into the plot tables. */
  function readChunk(run: Run): TraceChunk {
    const { sim, cursors } = run;
    const series = {} as Record<string, Float64Array>;
    for (const name of TABLES.series) series[name] = sim.series_col(0, name, cursors.series);
    cursors.series = sim.series_len(0);

    const queue = {} as Record<string, Float64Array>;
    for (const name of TABLES.queue) queue[name] = sim.queue_col(0, name, cursors.queue);
    cursors.queue = sim.queue_len(0);

    const t = sim.events_col('t', cursors.events);
    // With one flow every row is flow 0: skip reading that column.
    const flow = run.flows > 1 ? sim.events_col('flow', cursors.events) : new Float64Array(t.length);
    const kind = sim.events_col('kind', cursors.events);
    const seq = sim.events_col('seq', cursors.events);
    const len = sim.events_col('len', cursors.events);
    cursors.events = sim.events_len();

    // Count, allocate exactly, fill: every column owns its buffer (transferable).
    const counts = { sends: 0, retx: 0, drops: 0, acks: 0, marks: 0 };
    for (let i = 0; i < t.length; i += 1) {
      const table = flow[i] === 0 ? route.get(kind[i] ?? -1) : undefined;
      if (table) counts[table] += 1;
    }
    const groups = {} as Record<keyof typeof counts, Record<string, Float64Array>>;
    for (const table of Object.keys(counts) as (keyof typeof counts)[]) {
      const cols: Record<string, Float64Array> = {};
      for (const name of TABLES[table]) cols[name] = new Float64Array(counts[table]);
      groups[table] = cols;
    }
    const fill = { sends: 0, retx: 0, drops: 0, acks: 0, marks: 0 };
    const source: Record<string, Float64Array> = { t, kind, seq, len };
    for (let i = 0; i < t.length; i += 1) {
      const table = flow[i] === 0 ? route.get(kind[i] ?? -1) : undefined;
      if (!table) continue;
      const row = fill[table];
      const cols = groups[table];
      for (const name of TABLES[table]) {
        const dst = cols[name];
        const src = source[name];
        if (dst && src) dst[row] = src[i] ?? 0;
      }
      fill[table] = row + 1;
    }
    return { series, queue, ...groups } as unknown as TraceChunk;
  }

  function postChunk(run: Run) {
    const t0 = clock();
    const chunk = readChunk(run);
    const finished = run.sim.finished();
    const wantSummary = mode === 'full' || finished || t0 - run.lastSummary >= SUMMARY_EVERY_MS;
    const summary = wantSummary ? (JSON.parse(run.sim.summary_json()) as RunSummary) : null;
    if (wantSummary) run.lastSummary = t0;
    run.lastPost = clock();
    const readMs = run.lastPost - t0;
    post(
      {
        type: 'chunk',
        gen,
        key: run.key,
        chunk,
        now: run.sim.now(),
        finished,
        summary,
        computeMs: run.computeMs,
        readMs,
      },
      transferList(chunk),
    );
  }

  /** Runs every unfinished full run to its end, one slice at a time. */
  async function pump() {
    if (pumping) return;
    pumping = true;
    try {
      // Let requests already queued arrive first: only the newest one runs.
      await yieldToMessages();
      for (;;) {
        const run = mode === 'full' ? runs.find((r) => !r.done) : undefined;
        if (!run) break;
        const t0 = clock();
        let finished = false;
        try {
          do {
            finished = run.sim.run_events(eventsPerCheck);
          } while (!finished && clock() - t0 < sliceMs);
        } catch (e) {
          // A trap leaves the wasm instance unusable: the page replaces this worker.
          run.done = true;
          fail(run.key, e, true);
          break;
        }
        run.computeMs += clock() - t0;
        run.done = finished;
        if (finished || clock() - run.lastPost >= progressMs) postChunk(run);
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
    const created: Run[] = [];
    for (const spec of msg.runs as RunSpec[]) {
      try {
        const sim = api.createSim(spec.scenarioJson);
        created.push({
          key: spec.key,
          sim,
          cursors: { series: 0, events: 0, queue: 0 },
          computeMs: 0,
          lastPost: clock(),
          lastSummary: -Infinity,
          done: false,
          flows: sim.flow_count(),
        });
      } catch (e) {
        fail(spec.key, e, false);
      }
    }
    runs = created;
    if (mode === 'full') void pump();
  }

  function advance(dt: number) {
    for (const run of runs) {
      if (!run.done) {
        const t0 = clock();
        try {
          run.sim.advance(dt);
        } catch (e) {
          run.done = true;
          fail(run.key, e, true);
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
        const scenario = JSON.parse(run.sim.scenario_json()) as { timeline?: JsonValue };
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
        fail(run.key, e, false);
      }
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
        case 'cancel':
          if (msg.gen >= gen) {
            gen = msg.gen;
            dispose();
          }
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
    dispose,
  };
}
