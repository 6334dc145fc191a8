// Worker entry: instantiates the wasm compiled by the page, then hands every message to the
// handler. No logic lives here (see workerHandler.ts).
import { codes_json, first_divergence_json, initSync, Sim } from './pkg/lite/cwndlab_wasm.js';
import { failedMessage, type FromWorker, type ToWorker } from './protocol';
import type { Codes } from './tables';
import { createWorkerHandler } from './workerHandler';
import { messageYielder } from './yieldToMessages';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (msg: FromWorker, transfer: Transferable[]) => scope.postMessage(msg, transfer);
let handler: ReturnType<typeof createWorkerHandler> | null = null;

const yieldToMessages = messageYielder();

scope.onmessage = (event: MessageEvent<ToWorker>) => {
  const msg = event.data;
  if (msg.type === 'init') {
    initSync({ module: msg.module });
    const codes = JSON.parse(codes_json()) as Codes;
    handler = createWorkerHandler(
      { createSim: (json) => new Sim(json), firstDivergence: first_divergence_json, codes },
      post,
      { yieldToMessages },
    );
    post({ type: 'ready' }, []);
    return;
  }
  try {
    handler?.handle(msg);
  } catch (e) {
    post(failedMessage('gen' in msg ? msg.gen : -1, null, String(e)), []);
  }
};
