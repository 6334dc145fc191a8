// The page side of the engine: a small pool of workers, each with its own wasm instance
// (compiled once by the page and shared as a WebAssembly.Module). The runs of a comparison
// are spread over the pool, so four algorithms on two cores take about two runs' time.
//
// Latest wins: every request gets a new generation number; messages of older generations
// are dropped here, and the workers drop older requests still queued.
import {
  failedMessage,
  type ExplainQuery,
  type ExplainResult,
  type FromWorker,
  type RunMode,
  type RunSpec,
  type ToWorker,
} from './protocol';

/** What the client needs of a Worker (tests pass an in-process stand-in). */
export interface WorkerLike {
  postMessage(msg: ToWorker, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  terminate(): void;
}

/** Messages the client passes on: only those of the current generation. */
export type EngineListener = (msg: Exclude<FromWorker, { type: 'ready' | 'explained' }>) => void;

/** The interface the app controller drives (a fake-free seam for tests). */
export interface Engine {
  start(mode: RunMode, runs: RunSpec[]): number;
  advance(dt: number): void;
  change(path: string, valueJson: string): void;
  /** Drops the current comparison; returns the new (empty) generation. */
  cancel(): number;
  /** Asks the worker that holds the run (any worker, for a divergence) to explain; an
   *  answer of an older comparison, or none (the worker was lost), is an error result. */
  explain(query: ExplainQuery): Promise<ExplainResult>;
  /** Workers in the pool. */
  readonly size: number;
}

interface Slot {
  worker: WorkerLike | null;
  /** Keys of the current generation's runs on this worker. */
  keys: string[];
  /** Workers that failed in this slot so far. */
  crashes: number;
}

/** A slot whose workers keep failing (e.g. the worker script cannot load) is given up. */
const MAX_CRASHES = 3;

/** A pool of engine workers. */
export class EngineClient implements Engine {
  private slots: Slot[] = [];
  private gen = 0;
  private mode: RunMode = 'full';
  private nextId = 0;
  /** Explain requests waiting for their answer, by id. */
  private waiting = new Map<number, (result: ExplainResult) => void>();

  constructor(
    private readonly module: WebAssembly.Module,
    private readonly spawn: () => WorkerLike,
    readonly size: number,
    private readonly listener: EngineListener,
  ) {
    for (let i = 0; i < size; i += 1) this.slots.push({ worker: this.boot(i), keys: [], crashes: 0 });
  }

  private boot(index: number): WorkerLike {
    const worker = this.spawn();
    worker.onmessage = (event) => this.receive(index, event.data);
    worker.onerror = (event) => {
      event.preventDefault?.();
      this.crashed(index, event.message || 'the engine worker stopped');
    };
    worker.postMessage({ type: 'init', module: this.module });
    return worker;
  }

  private receive(index: number, msg: FromWorker) {
    if (msg.type === 'ready') return;
    if (msg.type === 'explained') {
      const done = this.waiting.get(msg.id);
      this.waiting.delete(msg.id);
      done?.(msg.gen === this.gen ? msg.result : { what: 'error', message: 'superseded' });
      return;
    }
    if (msg.gen !== this.gen) return;
    if (msg.type === 'failed' && msg.fatal) {
      // Every run on that worker is lost with it.
      this.crashed(index, msg.message);
      return;
    }
    this.listener(msg);
  }

  /** A worker whose wasm trapped cannot be trusted: replace it (up to MAX_CRASHES). */
  private replace(index: number) {
    const slot = this.slots[index];
    if (!slot) return;
    slot.worker?.terminate();
    slot.crashes += 1;
    slot.worker = slot.crashes < MAX_CRASHES ? this.boot(index) : null;
    slot.keys = [];
  }

  /** Answers every waiting explain request with an error (a new comparison, a lost worker). */
  private dropWaiting(message: string) {
    const list = [...this.waiting.values()];
    this.waiting.clear();
    for (const done of list) done({ what: 'error', message });
  }

  explain(query: ExplainQuery): Promise<ExplainResult> {
    const slot =
      query.what === 'divergence' ? this.live()[0] : this.slots.find((s) => s.worker && s.keys.includes(query.key));
    if (!slot?.worker) return Promise.resolve({ what: 'error', message: 'no engine worker holds this run' });
    this.nextId += 1;
    const id = this.nextId;
    const worker = slot.worker;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      worker.postMessage({ type: 'explain', gen: this.gen, id, query });
    });
  }

  private crashed(index: number, message: string) {
    this.dropWaiting(message);
    const keys = this.slots[index]?.keys ?? [];
    this.replace(index);
    const gaveUp = this.slots[index]?.worker === null;
    const text = gaveUp ? `${message} (the engine worker could not be restarted; reload the page)` : message;
    const failed = (key: string | null) => this.listener(failedMessage(this.gen, key, text));
    if (keys.length === 0 && gaveUp) failed(null);
    for (const key of keys) failed(key);
  }

  /** Workers that are up (a slot is dropped after repeated failures). */
  private live(): Slot[] {
    return this.slots.filter((s) => s.worker !== null);
  }

  /** Starts a comparison; returns its generation. */
  start(mode: RunMode, runs: RunSpec[]): number {
    this.gen += 1;
    this.dropWaiting('superseded');
    this.mode = mode;
    const slots = this.live();
    const per: RunSpec[][] = slots.map(() => []);
    runs.forEach((run, i) => per[i % Math.max(1, slots.length)]?.push(run));
    slots.forEach((slot, i) => {
      const mine = per[i] ?? [];
      // The keys the page tracks: each flow of a competition, else the run's.
      slot.keys = mine.flatMap((r) => (r.flowKeys && r.flowKeys.length > 0 ? r.flowKeys : [r.key]));
      slot.worker?.postMessage({ type: 'run', gen: this.gen, mode, runs: mine });
    });
    if (slots.length === 0) {
      const message = 'the engine workers could not start; reload the page';
      for (const run of runs) {
        for (const key of run.flowKeys && run.flowKeys.length > 0 ? run.flowKeys : [run.key]) {
          this.listener(failedMessage(this.gen, key, message));
        }
      }
    }
    return this.gen;
  }

  /** Live mode: every run advances by dt seconds of simulated time. */
  advance(dt: number): void {
    if (this.mode !== 'live') return;
    for (const slot of this.slots) {
      if (slot.keys.length > 0) slot.worker?.postMessage({ type: 'advance', gen: this.gen, dt });
    }
  }

  /** Live mode: a parameter changes now in every run (becomes a timeline entry). */
  change(path: string, valueJson: string): void {
    for (const slot of this.slots) {
      if (slot.keys.length > 0) slot.worker?.postMessage({ type: 'change', gen: this.gen, path, valueJson });
    }
  }

  /** Drops the current comparison; returns the new (empty) generation. */
  cancel(): number {
    this.gen += 1;
    this.dropWaiting('superseded');
    for (const slot of this.slots) {
      slot.keys = [];
      slot.worker?.postMessage({ type: 'cancel', gen: this.gen });
    }
    return this.gen;
  }

  /** Stops every worker. */
  dispose(): void {
    for (const slot of this.slots) slot.worker?.terminate();
    this.slots = [];
  }
}
