// Sheet worker entry: instantiates the wasm compiled by the page, then hands every message
// to the handler (sheetHandler.ts). No logic lives here (the plumbing: lib/workerRpc.ts).
import {
  debug_panic,
  exercise_json,
  initSync,
  textbook_beside_json,
  textbook_exercise_json,
} from '../engine/pkg/cwndlab_wasm.js';
import { hang } from '../engine/fault';
import { serveWorker } from '../lib/workerRpc';
import { createSheetHandler } from './sheetHandler';
import type { FromSheetWorker, ToSheetWorker } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (msg: FromSheetWorker) => scope.postMessage(msg);

serveWorker<ToSheetWorker>(
  'sheet',
  scope,
  (module, fault) => {
    initSync({ module });
    /** `exercise_json`; with a fault armed at 'run' or 'hang', the first call fails. */
    const exercise: typeof exercise_json = (...args) => {
      const at = fault.take();
      if (at === 'run') debug_panic();
      if (at === 'hang') hang();
      return exercise_json(...args);
    };
    const handler = createSheetHandler(
      { exercise, textbookExercise: textbook_exercise_json, beside: textbook_beside_json },
      post,
    );
    post({ type: 'ready' });
    return (request) => handler.handle(request);
  },
  // The handler answers every request itself; anything else is the worker's failure.
  (_request, e) => {
    throw e;
  },
);
