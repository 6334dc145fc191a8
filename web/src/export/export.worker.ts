// Export worker entry: instantiates the wasm compiled by the page, then hands every message
// to the handler (exportHandler.ts). No logic lives here (the plumbing: lib/workerRpc.ts).
import { debug_panic, Exporter, initSync } from '../engine/pkg/cwndlab_wasm.js';
import { hang } from '../engine/fault';
import { messageYielder } from '../engine/yieldToMessages';
import { serveWorker } from '../lib/workerRpc';
import { createExportHandler } from './exportHandler';
import type { FromExportWorker, ToExportWorker } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (msg: FromExportWorker, transfer: Transferable[]) => scope.postMessage(msg, transfer);

const yieldToMessages = messageYielder();

serveWorker<ToExportWorker>(
  'export',
  scope,
  (module, fault) => {
    initSync({ module });
    /** An exporter; with a fault armed at 'run' or 'hang', the first one fails in its first step. */
    const createExporter = (scenarioJson: string, requestJson: string): Exporter => {
      const exporter = new Exporter(scenarioJson, requestJson);
      const at = fault.take();
      if (at === 'run' || at === 'hang') {
        const step = exporter.step.bind(exporter);
        exporter.step = (n: number) => (at === 'run' ? debug_panic() : hang(), step(n));
      }
      return exporter;
    };
    const handler = createExportHandler({ createExporter }, post, { yieldToMessages });
    post({ type: 'ready' }, []);
    return (request) => handler.handle(request);
  },
  (request, e) =>
    post(
      { type: 'failed', id: 'id' in request ? request.id : -1, message: e instanceof Error ? e.message : String(e) },
      [],
    ),
);
