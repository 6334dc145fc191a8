// The page side of exercise sheets: one sheet worker (started on the first sheet, with the
// page's compiled engine). A new request makes older answers stale: only the latest one is
// delivered, the others resolve with null.
import { takeFault } from '../engine/fault';
import { compiledEngine } from '../engine/wasmMain';
import type { FromSheetWorker, ToSheetWorker } from './protocol';
import { parseSheet, type Sheet, type SheetInput } from './sheet';

/** What the client needs of a Worker (tests pass an in-process stand-in). */
export interface SheetWorkerLike {
  postMessage(msg: ToSheetWorker): void;
  onmessage: ((event: MessageEvent<FromSheetWorker>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  terminate(): void;
}

interface Pending {
  id: number;
  resolve: (sheet: Sheet | null) => void;
  reject: (e: Error) => void;
}

/** What a sheet request says when its worker stopped or could not start (plain words). */
export const SHEET_WORKER_FAILED = 'its worker stopped unexpectedly; try again';

/** The sheet worker and the request in progress. */
export class SheetClient {
  private worker: SheetWorkerLike | null = null;
  private nextId = 0;
  private pending: Pending | null = null;

  constructor(
    private readonly module: WebAssembly.Module,
    private readonly spawn: () => SheetWorkerLike,
  ) {}

  private ensureWorker(): SheetWorkerLike {
    if (this.worker) return this.worker;
    const worker = this.spawn();
    worker.onmessage = (event) => this.receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault?.();
      this.worker?.terminate();
      this.worker = null;
      const p = this.pending;
      this.pending = null;
      p?.reject(new Error(SHEET_WORKER_FAILED));
    };
    worker.postMessage({ type: 'init', module: this.module });
    this.worker = worker;
    return worker;
  }

  /** Asks the engine for sheet `number` with `count` questions; null when a newer request
   *  replaced it. Rejects with the engine's reason. */
  request(input: SheetInput, number: number, count: number): Promise<Sheet | null> {
    this.pending?.resolve(null);
    this.nextId += 1;
    const id = this.nextId;
    const promise = new Promise<Sheet | null>((resolve, reject) => {
      this.pending = { id, resolve, reject };
    });
    try {
      this.ensureWorker().postMessage({ type: 'sheet', id, number, count, ...input });
    } catch (e) {
      this.pending = null;
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    return promise;
  }

  private receive(msg: FromSheetWorker) {
    if (msg.type === 'ready') return;
    const p = this.pending;
    if (!p || p.id !== msg.id) return;
    this.pending = null;
    if (msg.type === 'failed') {
      // A trap: this worker's engine must not be used again; the next request starts afresh.
      if (msg.fatal) {
        this.worker?.terminate();
        this.worker = null;
      }
      p.reject(new Error(msg.message));
      return;
    }
    try {
      p.resolve(parseSheet(msg.json));
    } catch (e) {
      p.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }

  /** Stops the worker. */
  dispose(): void {
    this.pending?.resolve(null);
    this.pending = null;
    this.worker?.terminate();
    this.worker = null;
  }
}

let client: SheetClient | null = null;

/** Starts the sheet worker (Vite bundles it from this exact expression). In a fault test
 *  only (engine/fault.ts), the first one started is told to fail. */
function spawnSheetWorker(): SheetWorkerLike {
  const worker = new Worker(new URL('./sheet.worker.ts', import.meta.url), {
    type: 'module',
    name: 'cwndlab-sheet',
  });
  const fault = takeFault('sheet');
  if (fault) worker.postMessage(fault);
  return worker as unknown as SheetWorkerLike;
}

/** The page's sheet client, or null before the engine has loaded. */
export function pageSheets(): SheetClient | null {
  const module = compiledEngine();
  if (!module) return null;
  client ??= new SheetClient(module, spawnSheetWorker);
  return client;
}
