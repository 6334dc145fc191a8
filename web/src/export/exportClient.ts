// The page side of exports: one export worker (started on the first export, with the
// page's compiled engine), one export at a time (a new one, or Cancel, drops the current
// one). The worker streams each file's bytes with its CRC-32; they become Blob parts of a
// STORE zip (zip.ts), or, when the export is one file, that file itself. Nothing heavy runs
// on the page: no formatting, no per-byte work.
import type { JsonObject } from '../lib/json';
import { RequestChannel, type Current, type WorkerLike } from '../lib/workerRpc';
import type { ExportFileInfo, ExportJob, FromExportWorker, ToExportWorker } from './protocol';
import { ZipWriter, type ZipFile } from './zip';

/** How an export's files are saved: exactly one file as itself (its own name, without the
 *  run's folder, and its own media type), several as one zip named `zipName`.zip. */
export function packaging(
  files: readonly { path: string; mime: string }[],
  zipName: string,
): { kind: 'file'; name: string; mime: string } | { kind: 'zip'; name: string; mime: string } {
  const [only] = files;
  if (files.length === 1 && only) {
    return { kind: 'file', name: only.path.split('/').pop() ?? only.path, mime: only.mime };
  }
  return { kind: 'zip', name: `${zipName}.zip`, mime: 'application/zip' };
}

/** What the client needs of a Worker (tests pass an in-process stand-in). */
export type ExportWorkerLike = WorkerLike<ToExportWorker, FromExportWorker>;

/** A finished export: what to save and under which name, and what it holds. */
export interface ExportOutput {
  blob: Blob;
  /** The one file's own name, or the archive's. */
  name: string;
  /** Every file: its path in the archive (folder/name), media type and size in bytes. */
  files: { path: string; mime: string; size: number }[];
  /** What the engine says the user should know to read the files (may be empty). */
  notes: string[];
}

/** An export under way: its result (null when cancelled or replaced) and its cancel. */
export interface ExportTask {
  promise: Promise<ExportOutput | null>;
  cancel(): void;
}

export interface ExportOptions {
  /** The archive's name when there are several files (".zip" is added). */
  zipName: string;
  /** 0 to 1, as the engine runs. */
  onProgress?: (progress: number) => void;
  /** The files' time in the archive (default: now). */
  date?: Date;
}

interface Active {
  opts: ExportOptions;
  /** Each job's folder in the archive. */
  folders: string[];
  zip: ZipWriter | null;
  files: { path: string; mime: string; file: ZipFile }[][];
  notes: string[];
}

/** What an export says when its worker stopped or could not start (plain words). */
export const EXPORT_WORKER_FAILED = 'its worker stopped unexpectedly. Try the export again.';

/** The export worker and the export in progress (lib/workerRpc.ts's one-at-a-time
 *  channel: a new export, or Cancel, drops the current one and tells the worker). */
export class ExportClient {
  private readonly channel: RequestChannel<ToExportWorker, FromExportWorker, ExportOutput>;

  constructor(module: WebAssembly.Module, spawn: () => ExportWorkerLike) {
    this.channel = new RequestChannel({
      spawn,
      init: () => ({ type: 'init', module }),
      // A trap or a worker that could not load: the export fails; the next one starts a
      // fresh worker.
      lost: EXPORT_WORKER_FAILED,
      onDropped: (id, post) => post({ type: 'cancel', id }),
    });
  }

  /** Starts an export of `request` (the engine's request object) over `jobs`. */
  run(request: JsonObject, jobs: ExportJob[], opts: ExportOptions): ExportTask {
    const a: Active = { opts, folders: jobs.map((j) => j.folder), zip: null, files: [], notes: [] };
    const { id, promise } = this.channel.request(
      (id) => ({ msg: { type: 'export', id, request: JSON.stringify(request), jobs } }),
      (msg, current) => this.receive(a, msg, current),
    );
    return { promise, cancel: () => this.cancel(id) };
  }

  /** Drops export `id` if it is the one running (its promise resolves with null). */
  cancel(id: number): void {
    this.channel.cancel(id);
  }

  private receive(a: Active, msg: FromExportWorker, current: Current<ExportOutput>) {
    try {
      switch (msg.type) {
        case 'files':
          this.openFiles(a, msg.files);
          a.notes = msg.notes;
          return;
        case 'data':
          for (const c of msg.chunks) a.files[msg.job]?.[c.file]?.file.write(c.bytes, c.crc);
          a.opts.onProgress?.(msg.progress);
          return;
        case 'done':
          this.channel.finish(current.id);
          current.resolve(this.finish(a));
          return;
      }
    } catch (e) {
      // A zip limit (4 GiB, 65 535 files): the export fails with the reason.
      this.channel.post({ type: 'cancel', id: current.id });
      this.channel.fail(current.id, e instanceof Error ? e.message : String(e));
    }
  }

  private openFiles(a: Active, files: ExportFileInfo[][]) {
    a.zip = new ZipWriter(a.opts.date ?? new Date());
    const zip = a.zip;
    a.files = files.map((list, j) =>
      list.map((f) => {
        const folder = a.folders[j] ?? '';
        const path = folder ? `${folder}/${f.name}` : f.name;
        return { path, mime: f.mime, file: zip.file(path) };
      }),
    );
  }

  private finish(a: Active): ExportOutput {
    const zip = a.zip ?? new ZipWriter(a.opts.date ?? new Date());
    const flat = a.files.flat();
    const files = zip.files().map((f, i) => ({ path: f.path, size: f.size, mime: flat[i]?.mime ?? '' }));
    const how = packaging(files, a.opts.zipName);
    const [only] = zip.files();
    if (how.kind === 'file' && only) {
      return { blob: new Blob(only.parts, { type: how.mime }), name: how.name, files, notes: a.notes };
    }
    return { blob: zip.blob(), name: how.name, files, notes: a.notes };
  }

  /** Stops the worker (the page is going away, or a test ends). */
  dispose(): void {
    this.channel.dispose();
  }
}
