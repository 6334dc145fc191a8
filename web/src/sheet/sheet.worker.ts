// Sheet worker entry: instantiates the wasm compiled by the page, then hands every message
// to the handler (sheetHandler.ts). No logic lives here.
import { debug_panic, exercise_json, initSync } from '../engine/pkg/cwndlab_wasm.js';
import { hang, isFaultMessage, type FaultAt } from '../engine/fault';
import { createSheetHandler } from './sheetHandler';
import type { FromSheetWorker, ToSheetWorker } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (msg: FromSheetWorker) => scope.postMessage(msg);
let handler: ReturnType<typeof createSheetHandler> | null = null;

/** TEST-ONLY (engine/fault.ts): the fault this worker was told to have, if any. */
let fault: FaultAt | null = null;

/** `exercise_json`; with a fault armed at 'run' or 'hang', the first call fails. */
const exercise: typeof exercise_json = (...args) => {
  const at = fault;
  fault = null;
  if (at === 'run') debug_panic();
  if (at === 'hang') hang();
  return exercise_json(...args);
};

scope.onmessage = (event: MessageEvent<unknown>) => {
  const msg = event.data;
  if (isFaultMessage(msg)) {
    fault = msg.at;
    return;
  }
  const request = msg as ToSheetWorker;
  if (request.type === 'init') {
    if (fault === 'load') throw new Error('cwndlab test fault: the sheet worker failed to start');
    initSync({ module: request.module });
    handler = createSheetHandler({ exercise }, post);
    post({ type: 'ready' });
    return;
  }
  handler?.handle(request);
};
