// Sheet worker entry: instantiates the wasm compiled by the page, then hands every message
// to the handler (sheetHandler.ts). No logic lives here.
import { exercise_json, initSync } from '../engine/pkg/cwndlab_wasm.js';
import { createSheetHandler } from './sheetHandler';
import type { FromSheetWorker, ToSheetWorker } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (msg: FromSheetWorker) => scope.postMessage(msg);
let handler: ReturnType<typeof createSheetHandler> | null = null;

scope.onmessage = (event: MessageEvent<ToSheetWorker>) => {
  const msg = event.data;
  if (msg.type === 'init') {
    initSync({ module: msg.module });
    handler = createSheetHandler({ exercise: exercise_json }, post);
    post({ type: 'ready' });
    return;
  }
  handler?.handle(msg);
};
