// The page's export service: one ExportClient, made on the first export from the engine the
// page compiled (wasmMain.ts), with its own worker; and saving a Blob as a download.
import { compiledEngine } from '../engine/wasmMain';
import { spawnWorker } from '../lib/workerRpc';
import { ExportClient, type ExportWorkerLike } from './exportClient';

let client: ExportClient | null = null;

/** Starts the export worker (Vite bundles it from this exact expression; lib/workerRpc.ts
 *  arms a test's fault). */
function spawnExportWorker(): ExportWorkerLike {
  return spawnWorker(
    'export',
    () =>
      new Worker(new URL('./export.worker.ts', import.meta.url), {
        type: 'module',
        name: 'cwndlab-export',
      }),
  );
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
