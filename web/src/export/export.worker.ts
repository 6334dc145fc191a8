// Export worker entry: instantiates the wasm compiled by the page, then hands every message
// to the handler (exportHandler.ts). No logic lives here.
import { Exporter, initSync } from '../engine/pkg/cwndlab_wasm.js';
import { messageYielder } from '../engine/yieldToMessages';
import { createExportHandler } from './exportHandler';
import type { FromExportWorker, ToExportWorker } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (msg: FromExportWorker, transfer: Transferable[]) => scope.postMessage(msg, transfer);
let handler: ReturnType<typeof createExportHandler> | null = null;

const yieldToMessages = messageYielder();

scope.onmessage = (event: MessageEvent<ToExportWorker>) => {
  const msg = event.data;
  if (msg.type === 'init') {
    initSync({ module: msg.module });
    handler = createExportHandler({ createExporter: (s, r) => new Exporter(s, r) }, post, { yieldToMessages });
    post({ type: 'ready' }, []);
    return;
  }
  try {
    handler?.handle(msg);
  } catch (e) {
    post({ type: 'failed', id: 'id' in msg ? msg.id : -1, message: e instanceof Error ? e.message : String(e) }, []);
  }
};
