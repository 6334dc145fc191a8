// The page side of the engine: a small pool of workers, each with its own wasm instance
// (compiled once by the page and shared as a WebAssembly.Module). The runs of a comparison
// are spread over the pool, so four algorithms on two cores take about two runs' time.
//
// Latest wins: every request gets a new generation number; messages of older generations
// are dropped here, and the workers drop older requests still queued.
import { attach, Replies, type Attached, type WorkerLike as AnyWorkerLike } from '../lib/workerRpc';
import {
  failedMessage,
  type ExplainQuery,
  type ExplainResult,
  type FromWorker,
  type RunMode,
  type RunSpec,
  runKeys,
  specSignature,
  type ToWorker,
} from './protocol';

export type ChunkMessage = Extract<FromWorker, { type: 'chunk' }>;

/** What the client needs of a Worker (tests pass an in-process stand-in). */
export type WorkerLike = AnyWorkerLike<ToWorker, FromWorker>;

/** Told that comparison `index` of an `ahead` list has all its results on the page. */
export type AheadHeld = (index: number, results: readonly ChunkMessage[]) => void;

/** Messages the client passes on: only those of the current generation. */
export type EngineListener = (msg: Exclude<FromWorker, { type: 'ready' | 'explained' }>) => void;

/** The interface the app controller drives (a fake-free seam for tests). */
export interface Engine {
  start(mode: RunMode, runs: RunSpec[]): number;
  advance(dt: number): void;
  change(path: string, valueJson: string): void;
  /** Drops the current comparison; returns the new (empty) generation. */
  cancel(): number;
  /** Comparisons to compute ahead while the workers are idle (each the specs `start` would
   *  be given; an empty list frees what was computed ahead). A later `start` with the same
   *  specs in the same order gets those results at once. `held(i, results)`: comparison i's
   *  results are all on the page (every run's chunks, the messages `start` will pass on),
   *  called once per comparison until the next `ahead`, `start` or `cancel`. */
  ahead(comparisons: RunSpec[][], held?: AheadHeld): void;
  /** Asks the worker that holds the run (any worker, for a divergence) to explain; an
   *  answer of an older comparison, or none (the worker was lost), is an error result. */
  explain(query: ExplainQuery): Promise<ExplainResult>;
  /** Workers in the pool. */
  readonly size: number;
}

interface Slot {
  /** The slot's worker, wired (lib/workerRpc.ts): nothing of it arrives once stopped. */
  worker: Attached<ToWorker> | null;
  /** Keys of the current generation's runs on this worker. */
  keys: string[];
  /** Those of `keys` not finished yet (lost if the worker fails). */
  open: Set<string>;
  /** True once the worker has said it is ready (an error before that: it could not start). */
  ready: boolean;
  /** When the worker last sent anything (the watchdog's clock). */
  heardAt: number;
  /** The watchdog of a full comparison: fires if the worker stops answering. */
  watchdog: ReturnType<typeof setTimeout> | null;
  /** Messages held until the engine module is there and the worker has its 'init' (null
   *  once it has). */
  outbox: ToWorker[] | null;
  /** The current generation's runs as posted to this slot (a worker that fails as it
   *  starts has begun none of them: they go to the one that replaces it). */
  posted: { mode: RunMode; runs: RunSpec[] } | null;
  /** The generation whose runs were last handed to a replacement worker (once each). */
  movedGen: number;
}

/** Why an engine worker was given up. */
export type EngineFault = 'crashed' | 'load' | 'hang';

/** What the page says when an engine worker fails, in plain words: what happened, what it
 *  means for what is on screen, and what to do. The technical cause goes in `detail`. */
export const ENGINE_FAULT_TEXT: Record<EngineFault, string> = {
  crashed:
    'The simulation engine stopped unexpectedly, so some runs did not finish: the plots and the ' +
    'summary may be incomplete. Change any setting to try again.',
  load:
    'The simulation engine could not start, so some runs did not finish: the plots and the summary ' +
    'may be incomplete. Change any setting to try again; if this keeps happening, reload the page.',
  hang:
    'The simulation engine stopped answering, so it was stopped and some runs did not finish: the ' +
    'plots and the summary may be incomplete. Change any setting to try again.',
};

/** How long a worker computing a full comparison may stay silent before it is taken as hung,
 *  ms. Generous: a working worker reports progress about every 100 ms. */
export const HANG_MS = 30_000;

export interface EngineClientOptions {
  /** The watchdog's limit (HANG_MS). */
  hangMs?: number;
  /** The clock, ms. */
  now?: () => number;
}

/**
 * A pool of engine workers.
 *
 * A worker that fails (its wasm trapped, e.g. a Rust panic; it could not start; it stopped
 * answering a full comparison for HANG_MS) is terminated at once, never used again, and every
 * run it had not finished is reported failed with a plain-words message (ENGINE_FAULT_TEXT).
 * Its slot stays empty until the next comparison starts, which spawns a fresh worker: the next
 * change retries, and a worker that cannot load is not respawned in a loop.
 */
export class EngineClient implements Engine {
  private slots: Slot[] = [];
  private gen = 0;
  private mode: RunMode = 'full';
  /** Explain requests waiting for their answer, by number. */
  private waiting = new Replies<ExplainResult>();
  private readonly hangMs: number;
  private readonly now: () => number;
  /** Specs of the last `ahead` list, by signature. */
  private aheadListed = new Set<string>();
  /** Results of runs computed ahead (every flow's last chunk), by signature. */
  private aheadResults = new Map<string, ChunkMessage[]>();
  /** Runs of the current generation that a worker may have finished ahead before the
   *  request reached it: their results come with `aheadOf` and are this generation's. */
  private awaitingAhead = new Set<string>();
  /** The `ahead` list's comparisons not yet reported held, and whom to tell. */
  private aheadWatch: { comparisons: RunSpec[][]; unreported: Set<number>; held: AheadHeld } | null = null;

  /** Settles when the first worker has its engine and has said so ('ready'), or when a
   *  worker could not start. */
  private readonly firstReady: Promise<void>;
  private markReady: () => void = () => {};

  /** The compiled engine the workers instantiate, once it is there. */
  private module: WebAssembly.Module | null = null;
  private readonly moduleLoad: Promise<WebAssembly.Module> | null = null;

  /** `module` may still be on its way (the page renders before the engine has loaded):
   *  the workers start at once, and what is posted to them waits for it. */
  constructor(
    module: WebAssembly.Module | Promise<WebAssembly.Module>,
    private readonly spawn: () => WorkerLike,
    readonly size: number,
    private readonly listener: EngineListener,
    options: EngineClientOptions = {},
  ) {
    this.firstReady = new Promise<void>((resolve) => (this.markReady = resolve));
    this.hangMs = options.hangMs ?? HANG_MS;
    this.now = options.now ?? (() => Date.now());
    if (module instanceof Promise) {
      this.moduleLoad = module.then((m) => (this.module = m));
      // A failed load is the page's to report (start.tsx); the held messages stay held.
      this.moduleLoad.catch(() => {});
    } else {
      this.module = module;
    }
    for (let i = 0; i < size; i += 1) {
      const slot: Slot = {
        worker: null,
        keys: [],
        open: new Set(),
        ready: false,
        heardAt: 0,
        watchdog: null,
        outbox: null,
        posted: null,
        movedGen: 0,
      };
      this.slots.push(slot);
      this.boot(i);
    }
  }

  /** Starts a fresh worker in slot `index`. */
  private boot(index: number): void {
    const slot = this.slots[index];
    if (!slot) return;
    const worker = attach<ToWorker, FromWorker>(
      this.spawn(),
      (msg) => this.receive(index, msg),
      (detail) => this.crashed(index, slot.ready ? 'crashed' : 'load', detail || 'the engine worker stopped'),
    );
    slot.worker = worker;
    slot.ready = false;
    slot.heardAt = this.now();
    if (this.module) {
      slot.outbox = null;
      worker.post({ type: 'init', module: this.module });
      return;
    }
    slot.outbox = [];
    void this.moduleLoad?.then((module) => {
      if (slot.worker !== worker) return;
      worker.post({ type: 'init', module });
      const held = slot.outbox ?? [];
      slot.outbox = null;
      slot.heardAt = this.now();
      for (const msg of held) worker.post(msg);
    });
  }

  /** Posts to the slot's worker, or holds the message until the worker has its engine. */
  private post(slot: Slot, msg: ToWorker): void {
    if (!slot.worker) return;
    if (slot.outbox) slot.outbox.push(msg);
    else slot.worker.post(msg);
  }

  private receive(index: number, msg: FromWorker) {
    const slot = this.slots[index];
    if (slot) slot.heardAt = this.now();
    if (msg.type === 'ready') {
      if (slot) slot.ready = true;
      this.markReady();
      return;
    }
    if (msg.type === 'explained') {
      this.waiting.settle(msg.id, msg.gen === this.gen ? msg.result : { what: 'error', message: 'superseded' });
      return;
    }
    if (msg.type === 'chunk' && msg.aheadOf !== undefined) {
      // A run computed ahead. Already asked for (it finished before the request reached
      // its worker): this generation's result. Otherwise kept until asked for.
      if (this.awaitingAhead.has(msg.aheadOf)) {
        msg = { ...msg, gen: this.gen };
      } else {
        if (this.aheadListed.has(msg.aheadOf)) {
          this.aheadResults.set(msg.aheadOf, [...(this.aheadResults.get(msg.aheadOf) ?? []), msg]);
          this.reportHeld();
        }
        return;
      }
    }
    if (msg.gen !== this.gen) return;
    if (msg.type === 'failed' && msg.fatal) {
      // Every unfinished run on that worker is lost with it.
      this.crashed(index, 'crashed', msg.detail ?? msg.message);
      return;
    }
    if (slot && ((msg.type === 'chunk' && msg.finished) || msg.type === 'failed')) {
      if (msg.key !== null) slot.open.delete(msg.key);
      if (slot.open.size === 0) this.disarm(slot);
    }
    this.listener(msg);
  }

  /** Watches slot `index` until its open runs finish: silence for hangMs is a hang. */
  private arm(index: number) {
    const slot = this.slots[index];
    if (!slot) return;
    this.disarm(slot);
    const check = () => {
      slot.watchdog = null;
      if (slot.open.size === 0 || !slot.worker) return;
      if (slot.outbox) {
        // Still waiting for the engine to load: not the worker's silence.
        slot.watchdog = setTimeout(check, this.hangMs);
        return;
      }
      const quiet = this.now() - slot.heardAt;
      if (quiet >= this.hangMs) {
        this.crashed(index, 'hang', `no answer from the engine worker for ${Math.round(quiet / 1000)} s`);
        return;
      }
      slot.watchdog = setTimeout(check, this.hangMs - quiet);
    };
    slot.watchdog = setTimeout(check, this.hangMs);
  }

  private disarm(slot: Slot) {
    if (slot.watchdog !== null) clearTimeout(slot.watchdog);
    slot.watchdog = null;
  }

  /** Answers every waiting explain request with an error (a new comparison, a lost worker). */
  private dropWaiting(message: string) {
    this.waiting.settleAll({ what: 'error', message });
  }

  explain(query: ExplainQuery): Promise<ExplainResult> {
    const slot =
      query.what === 'divergence' ? this.live()[0] : this.slots.find((s) => s.worker && s.keys.includes(query.key));
    if (!slot?.worker) return Promise.resolve({ what: 'error', message: 'no engine worker holds this run' });
    return new Promise((resolve) => {
      const id = this.waiting.add(resolve);
      this.post(slot, { type: 'explain', gen: this.gen, id, query });
    });
  }

  /** Worker `index` failed: it is terminated and its slot left empty (the next comparison
   *  starts a fresh one); its unfinished runs are reported failed, in plain words. A worker
   *  that failed as it started (before it said ready) began none of its runs: the first time
   *  in a comparison, a fresh worker takes its place and its runs, and nothing is reported
   *  (the page's first comparison can reach a worker before its start fails: start.tsx waits
   *  for the first worker to start, at most a second). */
  private crashed(index: number, fault: EngineFault, detail: string) {
    const slot = this.slots[index];
    if (!slot) return;
    this.markReady();
    this.disarm(slot);
    slot.worker?.stop();
    slot.worker = null;
    const posted = slot.posted;
    if (fault === 'load' && posted && slot.movedGen !== this.gen && slot.open.size > 0) {
      slot.movedGen = this.gen;
      this.boot(index);
      slot.heardAt = this.now();
      // Only runs still open: one answered from results computed ahead is not run again.
      const runs = posted.runs.filter((run) => runKeys(run).some((key) => slot.open.has(key)));
      this.post(slot, { type: 'run', gen: this.gen, mode: posted.mode, runs });
      if (posted.mode === 'full') this.arm(index);
      return;
    }
    this.dropWaiting(ENGINE_FAULT_TEXT[fault]);
    const lost = [...slot.open];
    slot.keys = [];
    slot.open = new Set();
    for (const key of lost) this.listener(failedMessage(this.gen, key, ENGINE_FAULT_TEXT[fault], detail));
  }

  /** Settles once a worker has started (its engine instantiated and warmed), or failed to:
   *  the page's first use of its own engine waits for it (start.tsx). */
  started(): Promise<void> {
    return this.firstReady;
  }

  /** Workers that are up. */
  private live(): Slot[] {
    return this.slots.filter((s) => s.worker !== null);
  }

  /** Starts a comparison; returns its generation. */
  start(mode: RunMode, runs: RunSpec[]): number {
    this.gen += 1;
    this.dropWaiting('superseded');
    this.mode = mode;
    // A worker lost earlier is replaced now: the change after a failure retries.
    this.slots.forEach((slot, i) => {
      if (!slot.worker) this.boot(i);
    });
    const slots = this.slots;
    const per = this.spread(runs);
    // Runs computed ahead: finished ones are answered from here; one a worker may just
    // have finished is awaited under its signature (its worker adopts the run either way).
    const ready: ChunkMessage[] = [];
    this.awaitingAhead = new Set();
    slots.forEach((slot, i) => {
      const mine = per[i] ?? [];
      // The keys the page tracks: each flow of a competition, else the run's.
      slot.keys = mine.flatMap(runKeys);
      slot.open = new Set();
      for (const run of mine) {
        const signature = specSignature(run);
        const done = mode === 'full' ? this.aheadResults.get(signature) : undefined;
        if (done && done.length === runKeys(run).length) {
          ready.push(...done);
          continue;
        }
        for (const key of runKeys(run)) slot.open.add(key);
        if (mode === 'full' && this.aheadListed.has(signature)) this.awaitingAhead.add(signature);
      }
      slot.heardAt = this.now();
      slot.posted = { mode, runs: mine };
      this.post(slot, { type: 'run', gen: this.gen, mode, runs: mine });
      if (mode === 'full' && slot.open.size > 0) this.arm(i);
      else this.disarm(slot);
    });
    // The workers drop what they computed ahead for other specs; so does the page.
    this.aheadResults = new Map();
    this.aheadListed = new Set();
    this.aheadWatch = null;
    if (ready.length > 0) {
      // After the caller has taken the generation (the controller starts its comparison
      // with it), before the next task: the results are there for the next frame.
      const gen = this.gen;
      queueMicrotask(() => {
        if (this.gen !== gen) return;
        for (const msg of ready) this.listener({ ...msg, gen });
      });
    }
    return this.gen;
  }

  /** Each worker's share of a comparison's runs: run i on worker i mod size (`ahead`
   *  relies on it: a run computed ahead is on the worker its request goes to). */
  private spread(runs: readonly RunSpec[]): RunSpec[][] {
    const per: RunSpec[][] = this.slots.map(() => []);
    runs.forEach((run, i) => per[i % Math.max(1, this.slots.length)]?.push(run));
    return per;
  }

  ahead(comparisons: RunSpec[][], held?: AheadHeld): void {
    const per: RunSpec[][] = this.slots.map(() => []);
    for (const runs of comparisons) this.spread(runs).forEach((mine, i) => per[i]?.push(...mine));
    this.aheadListed = new Set(comparisons.flat().map(specSignature));
    for (const signature of this.aheadResults.keys()) {
      if (!this.aheadListed.has(signature)) this.aheadResults.delete(signature);
    }
    this.aheadWatch = held ? { comparisons, unreported: new Set(comparisons.keys()), held } : null;
    // Results kept from the list before may complete a comparison at once.
    if (this.aheadWatch && this.aheadResults.size > 0) queueMicrotask(() => this.reportHeld());
    this.slots.forEach((slot, i) => {
      // A lost worker's slot stays empty until the next comparison (nothing to compute for).
      if (slot.worker) this.post(slot, { type: 'ahead', runs: per[i] ?? [] });
    });
  }

  /** Tells the `ahead` list's watcher of each comparison whose runs are now all held. */
  private reportHeld() {
    const watch = this.aheadWatch;
    if (!watch) return;
    for (const i of [...watch.unreported]) {
      const results: ChunkMessage[] = [];
      const complete = (watch.comparisons[i] ?? []).every((run) => {
        const done = this.aheadResults.get(specSignature(run));
        if (!done || done.length !== runKeys(run).length) return false;
        results.push(...done);
        return true;
      });
      if (!complete) continue;
      watch.unreported.delete(i);
      watch.held(i, results);
      // The watcher may have started a comparison or listed others.
      if (this.aheadWatch !== watch) return;
    }
  }

  /** Runs computed ahead whose results the page holds (tests). */
  aheadReady(): number {
    return this.aheadResults.size;
  }

  /** Live mode: every run advances by dt seconds of simulated time. */
  advance(dt: number): void {
    if (this.mode !== 'live') return;
    for (const slot of this.slots) {
      if (slot.keys.length > 0) this.post(slot, { type: 'advance', gen: this.gen, dt });
    }
  }

  /** Live mode: a parameter changes now in every run (becomes a timeline entry). */
  change(path: string, valueJson: string): void {
    for (const slot of this.slots) {
      if (slot.keys.length > 0) this.post(slot, { type: 'change', gen: this.gen, path, valueJson });
    }
  }

  /** Drops the current comparison; returns the new (empty) generation. */
  cancel(): number {
    this.gen += 1;
    this.dropWaiting('superseded');
    // The workers drop what they computed ahead (a cancel frees everything).
    this.aheadListed = new Set();
    this.aheadResults = new Map();
    this.awaitingAhead = new Set();
    this.aheadWatch = null;
    for (const slot of this.slots) {
      slot.keys = [];
      slot.open = new Set();
      this.disarm(slot);
      this.post(slot, { type: 'cancel', gen: this.gen });
    }
    return this.gen;
  }

  /** Stops every worker. */
  dispose(): void {
    for (const slot of this.slots) {
      this.disarm(slot);
      slot.worker?.stop();
    }
    this.slots = [];
  }
}
