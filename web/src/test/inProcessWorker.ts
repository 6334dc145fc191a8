// A stand-in for `new Worker(...)` that runs the real worker handler (and the real wasm) in
// the test process, with messages delivered asynchronously as a worker would. It replaces
// only the thread, never the engine or its results.
import type { WorkerLike } from '../engine/client';
import type { FromWorker, ToWorker } from '../engine/protocol';
import { createWorkerHandler } from '../engine/workerHandler';
import { realEngineApi } from './wasm';

/** A WorkerLike running in-process. */
export class InProcessWorker implements WorkerLike {
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  private handler: ReturnType<typeof createWorkerHandler> | null = null;
  private terminated = false;

  postMessage(msg: ToWorker): void {
    setTimeout(() => {
      if (this.terminated) return;
      if (msg.type === 'init') {
        this.handler = createWorkerHandler(realEngineApi(), (out) => this.deliver(out), {
          yieldToMessages: () => new Promise((r) => setTimeout(r, 0)),
        });
        this.deliver({ type: 'ready' });
        return;
      }
      this.handler?.handle(msg);
    }, 0);
  }

  private deliver(msg: FromWorker) {
    setTimeout(() => {
      if (!this.terminated) this.onmessage?.({ data: msg } as MessageEvent<FromWorker>);
    }, 0);
  }

  terminate(): void {
    this.terminated = true;
    this.handler?.dispose();
  }
}

/** Resolves when `cond` holds (polling), or rejects after `ms`. */
export async function waitFor(cond: () => boolean, ms = 20_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 2));
  }
}
