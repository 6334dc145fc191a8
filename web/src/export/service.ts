// The page's export service: one ExportClient, made on the first export from the engine the
// page compiled (wasmMain.ts), with its own worker; and saving a Blob as a download.
import { takeFault } from '../engine/fault';
import { compiledEngine } from '../engine/wasmMain';
import { ExportClient, type ExportWorkerLike } from './exportClient';

let client: ExportClient | null = null;

/** Starts the export worker (Vite bundles it from this exact expression). In a fault test
 *  only (engine/fault.ts), the first one started is told to fail. */
function spawnExportWorker(): ExportWorkerLike {
  const worker = new Worker(new URL('./export.worker.ts', import.meta.url), {
    type: 'module',
    name: 'cwndlab-export',
  });
  const fault = takeFault('export');
  if (fault) worker.postMessage(fault);
  return worker as unknown as ExportWorkerLike;
}

/** The page's export client, or null before the engine has loaded. */
export function pageExporter(): ExportClient | null {
  const module = compiledEngine();
  if (!module) return null;
  client ??= new ExportClient(module, spawnExportWorker);
  return client;
}

/** Saves `blob` as a download named `name` (a same-page object URL, revoked after a while). */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // The browser has taken the file once the click's task has run; a minute is ample.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
