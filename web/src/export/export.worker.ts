// Export worker entry: instantiates the wasm compiled by the page, then hands every message
// to the handler (exportHandler.ts). No logic lives here.
import { debug_panic, Exporter, initSync } from '../engine/pkg/cwndlab_wasm.js';
import { hang, isFaultMessage, type FaultAt } from '../engine/fault';
import { messageYielder } from '../engine/yieldToMessages';
import { createExportHandler } from './exportHandler';
import type { FromExportWorker, ToExportWorker } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (msg: FromExportWorker, transfer: Transferable[]) => scope.postMessage(msg, transfer);
let handler: ReturnType<typeof createExportHandler> | null = null;

const yieldToMessages = messageYielder();

/** TEST-ONLY (engine/fault.ts): the fault this worker was told to have, if any. */
let fault: FaultAt | null = null;

/** An exporter; with a fault armed at 'run' or 'hang', the first one fails in its first step. */
function createExporter(scenarioJson: string, requestJson: string): Exporter {
  const exporter = new Exporter(scenarioJson, requestJson);
  const at = fault;
  if (at === 'run' || at === 'hang') {
    fault = null;
    const step = exporter.step.bind(exporter);
    exporter.step = (n: number) => (at === 'run' ? debug_panic() : hang(), step(n));
  }
  return exporter;
}

scope.onmessage = (event: MessageEvent<unknown>) => {
  const msg = event.data;
  if (isFaultMessage(msg)) {
    fault = msg.at;
    return;
  }
  const request = msg as ToExportWorker;
  if (request.type === 'init') {
    if (fault === 'load') throw new Error('cwndlab test fault: the export worker failed to start');
    initSync({ module: request.module });
    handler = createExportHandler({ createExporter }, post, { yieldToMessages });
    post({ type: 'ready' }, []);
    return;
  }
  try {
    handler?.handle(request);
  } catch (e) {
    post(
      { type: 'failed', id: 'id' in request ? request.id : -1, message: e instanceof Error ? e.message : String(e) },
      [],
    );
  }
};
