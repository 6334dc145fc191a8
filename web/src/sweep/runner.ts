// Runs a sweep's runs in parallel workers of its own (one per core, at most one per run),
// each run one message; reports progress (runs done of the total) and can be cancelled at
// any moment (the workers are terminated: a run in progress stops at once). Rows come back
// as the engine wrote them, in any order; the engine's sweep_output puts them in run order.
import type { FromSweepWorker, ToSweepWorker } from './protocol';

/** A worker as the runner uses it (a real Worker, or a stand-in in tests). */
export interface SweepWorkerLike {
  postMessage(msg: ToSweepWorker): void;
  onmessage: ((e: MessageEvent<FromSweepWorker>) => void) | null;
  onerror: ((e: ErrorEvent) => void) | null;
  terminate(): void;
}

/** How a sweep ended. */
export type SweepOutcome =
  { kind: 'done'; rows: unknown[] } | { kind: 'cancelled'; done: number } | { kind: 'failed'; message: string };

/** One sweep in progress. */
export class SweepRun {
  private workers: SweepWorkerLike[] = [];
  private rows: unknown[] = [];
  private next = 0;
  private done = 0;
  private finished = false;
  private resolve: (o: SweepOutcome) => void = () => {};
  /** Resolves once every run is done, or on cancel or failure. */
  readonly outcome: Promise<SweepOutcome>;

  constructor(
    module: WebAssembly.Module,
    spawn: () => SweepWorkerLike,
    private readonly def: string,
    private readonly base: string,
    private readonly total: number,
    private readonly onProgress: (done: number, total: number) => void,
    size: number,
  ) {
    this.outcome = new Promise((r) => (this.resolve = r));
    if (total === 0) {
      this.finish({ kind: 'done', rows: [] });
      return;
    }
    for (let i = 0; i < Math.max(1, Math.min(size, total)); i++) {
      const w = spawn();
      w.onmessage = (e) => this.message(w, e.data);
      w.onerror = (e) => this.finish({ kind: 'failed', message: e.message || 'a sweep worker stopped' });
      w.postMessage({ type: 'init', module });
      this.workers.push(w);
    }
  }

  private give(w: SweepWorkerLike): void {
    if (this.next >= this.total) return;
    w.postMessage({ type: 'run', def: this.def, base: this.base, index: this.next++ });
  }

  private message(w: SweepWorkerLike, msg: FromSweepWorker): void {
    if (this.finished) return;
    if (msg.type === 'ready') return this.give(w);
    if (msg.type === 'failed') return this.finish({ kind: 'failed', message: `run ${msg.index}: ${msg.message}` });
    this.rows.push(...msg.rows);
    this.done++;
    this.onProgress(this.done, this.total);
    if (this.done === this.total) this.finish({ kind: 'done', rows: this.rows });
    else this.give(w);
  }

  private finish(o: SweepOutcome): void {
    if (this.finished) return;
    this.finished = true;
    for (const w of this.workers) w.terminate();
    this.workers = [];
    this.resolve(o);
  }

  /** Stops every run now. */
  cancel(): void {
    this.finish({ kind: 'cancelled', done: this.done });
  }
}

/** Starts a sweep worker (Vite bundles it from this exact expression). */
export function spawnSweepWorker(): SweepWorkerLike {
  return new Worker(new URL('./sweep.worker.ts', import.meta.url), {
    type: 'module',
    name: 'cwndlab-sweep',
  }) as unknown as SweepWorkerLike;
}

/** Workers for a sweep: one per core. */
export function sweepPoolSize(): number {
  return typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
}
