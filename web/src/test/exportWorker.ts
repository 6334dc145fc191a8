// An in-process stand-in for the export worker: the real export handler and the real wasm
// Exporter in the test process, messages delivered asynchronously as a worker would.
import type { ExportWorkerLike } from '../export/exportClient';
import { createExportHandler, type ExportApi, type ExportHandlerOptions } from '../export/exportHandler';
import type { FromExportWorker, ToExportWorker } from '../export/protocol';
import { engineWasm } from './wasm';

/** The handler's engine: the real wasm `Exporter`. */
export function realExportApi(): ExportApi {
  const w = engineWasm();
  return { createExporter: (scenario, request) => new w.Exporter(scenario, request) };
}

/** An ExportWorkerLike running in-process (`opts` shortens slices for tests). */
export class InProcessExportWorker implements ExportWorkerLike {
  onmessage: ((event: MessageEvent<FromExportWorker>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  private handler: ReturnType<typeof createExportHandler> | null = null;
  private terminated = false;
  /** Every message the worker sent (for tests). */
  readonly sent: FromExportWorker[] = [];

  constructor(private readonly opts: ExportHandlerOptions = {}) {}

  postMessage(msg: ToExportWorker): void {
    setTimeout(() => {
      if (this.terminated) return;
      if (msg.type === 'init') {
        this.handler = createExportHandler(realExportApi(), (out) => this.deliver(out), {
          yieldToMessages: () => new Promise((r) => setTimeout(r, 0)),
          ...this.opts,
        });
        this.deliver({ type: 'ready' });
        return;
      }
      this.handler?.handle(msg);
    }, 0);
  }

  private deliver(msg: FromExportWorker) {
    this.sent.push(msg);
    setTimeout(() => {
      if (!this.terminated) this.onmessage?.({ data: msg } as MessageEvent<FromExportWorker>);
    }, 0);
  }

  /** True while the handler runs an export. */
  busy(): boolean {
    return this.handler?.busy() ?? false;
  }

  terminate(): void {
    this.terminated = true;
    this.handler?.dispose();
  }
}
