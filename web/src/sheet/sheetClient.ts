// The page side of exercise sheets: one sheet worker (started on the first sheet, with the
// page's compiled engine). A new request makes older answers stale: only the latest one is
// delivered, the others resolve with null.
import { compiledEngine } from '../engine/wasmMain';
import { RequestChannel, spawnWorker, type WorkerLike } from '../lib/workerRpc';
import type { FromSheetWorker, ToSheetWorker } from './protocol';
import { parseSheet, type Sheet, type SheetInput } from './sheet';

/** What the client needs of a Worker (tests pass an in-process stand-in). */
export type SheetWorkerLike = WorkerLike<ToSheetWorker, FromSheetWorker>;

/** What a sheet request says when its worker stopped or could not start (plain words). */
export const SHEET_WORKER_FAILED = 'its worker stopped unexpectedly; try again';

/** The sheet worker and the request in progress (lib/workerRpc.ts's one-at-a-time channel). */
export class SheetClient {
  private readonly channel: RequestChannel<ToSheetWorker, FromSheetWorker, Sheet>;

  constructor(module: WebAssembly.Module, spawn: () => SheetWorkerLike) {
    this.channel = new RequestChannel({
      spawn,
      init: () => ({ type: 'init', module }),
      lost: SHEET_WORKER_FAILED,
    });
  }

  /** Asks the engine for sheet `number` with `count` questions; null when a newer request
   *  replaced it. Rejects with the engine's reason. */
  request(input: SheetInput, number: number, count: number, textbook?: string): Promise<Sheet | null> {
    return this.channel.request(
      (id) => ({ msg: { type: 'sheet', id, number, count, ...input, ...(textbook ? { textbook } : {}) } }),
      (msg, current) => {
        if (msg.type !== 'sheet') return;
        this.channel.finish(current.id);
        try {
          current.resolve(parseSheet(msg.json));
        } catch (e) {
          current.reject(e instanceof Error ? e : new Error(String(e)));
        }
      },
    ).promise;
  }

  /** Stops the worker. */
  dispose(): void {
    this.channel.dispose();
  }
}

let client: SheetClient | null = null;

/** Starts the sheet worker (Vite bundles it from this exact expression; lib/workerRpc.ts
 *  arms a test's fault). */
export function spawnSheetWorker(): SheetWorkerLike {
  return spawnWorker(
    'sheet',
    () =>
      new Worker(new URL('./sheet.worker.ts', import.meta.url), {
        type: 'module',
        name: 'cwndlab-sheet',
      }),
  );
}

/** The page's sheet client, or null before the engine has loaded. */
export function pageSheets(): SheetClient | null {
  const module = compiledEngine();
  if (!module) return null;
  client ??= new SheetClient(module, spawnSheetWorker);
  return client;
}
