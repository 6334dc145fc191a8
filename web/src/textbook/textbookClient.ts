// The page side of the textbook model: a sheet worker of its own (so that a sheet and the
// model do not replace each other's requests), asked for `textbook_beside_json`. A new
// request makes older answers stale: only the latest is delivered, the others resolve null.
import { compiledEngine } from '../engine/wasmMain';
import { RequestChannel } from '../lib/workerRpc';
import type { FromSheetWorker, ToSheetWorker } from '../sheet/protocol';
import { SHEET_WORKER_FAILED, spawnSheetWorker, type SheetWorkerLike } from '../sheet/sheetClient';
import { parseBeside, type TextbookBeside } from './textbook';

/** The worker and the request in progress. */
export class TextbookClient {
  private readonly channel: RequestChannel<ToSheetWorker, FromSheetWorker, TextbookBeside>;

  constructor(module: WebAssembly.Module, spawn: () => SheetWorkerLike) {
    this.channel = new RequestChannel({ spawn, init: () => ({ type: 'init', module }), lost: SHEET_WORKER_FAILED });
  }

  /** The model of `scenarioJson`'s flow 0 in `convention` beside its run; null when a newer
   *  request replaced it. Rejects with the engine's reason. */
  request(scenarioJson: string, convention: string): Promise<TextbookBeside | null> {
    return this.channel.request(
      (id) => ({ msg: { type: 'textbook', id, scenarioJson, convention } }),
      (msg, current) => {
        if (msg.type !== 'textbook') return;
        this.channel.finish(current.id);
        try {
          current.resolve(parseBeside(msg.json));
        } catch (e) {
          current.reject(e instanceof Error ? e : new Error(String(e)));
        }
      },
    ).promise;
  }

  dispose(): void {
    this.channel.dispose();
  }
}

let client: TextbookClient | null = null;

/** The page's textbook client, or null before the engine has loaded. */
export function pageTextbook(): TextbookClient | null {
  const module = compiledEngine();
  if (!module) return null;
  client ??= new TextbookClient(module, spawnSheetWorker);
  return client;
}
