// The export worker's logic as a plain object (export.worker.ts binds it to the worker;
// Vitest drives it in Node with the real wasm). One export at a time: a new one or a cancel
// drops the current one. Each job (one engine run) is an engine `Exporter`; every Exporter is
// made first, so a refusal (the export is too large for the page, a bad request) comes at
// once, before anything runs. Then the jobs run one after another in slices of about
// `sliceMs`, yielding between slices so a cancel is seen; each file's new bytes go to the
// page every `postMs` (and at the end) with the file's running CRC-32.
import { isTrap, problemsOf } from '../engine/protocol';
import type { ExportChunk, ExportFileInfo, FromExportWorker, ToExportWorker } from './protocol';
import { crc32 } from './zip';

/** What the handler uses of the wasm `Exporter`. */
export interface ExporterLike {
  /** JSON: `[{"name":"series_flow0.csv","mime":"text/csv"}, …]`, in file-index order. */
  file_names(): string;
  /** Runs up to `maxEvents` events and formats their rows; true once every file is complete. */
  step(maxEvents: number): boolean;
  /** The bytes of file `file` made since the last take. */
  take(file: number): Uint8Array;
  /** What to know to read the files ('' if nothing), in the engine's words. */
  note(): string;
  /** 0 to 1. */
  progress(): number;
  free(): void;
}

/** What the handler needs from the wasm module. */
export interface ExportApi {
  /** `new Exporter(scenarioJson, requestJson)`; throws with the engine's reason. */
  createExporter(scenarioJson: string, requestJson: string): ExporterLike;
}

export interface ExportHandlerOptions {
  /** Engine time per slice before yielding, ms. */
  sliceMs?: number;
  /** Events per step between clock checks. */
  eventsPerStep?: number;
  /** Least time between data messages, ms. */
  postMs?: number;
  yieldToMessages?: () => Promise<void>;
  now?: () => number;
}

type Post = (msg: FromExportWorker, transfer: Transferable[]) => void;

interface Running {
  id: number;
  jobs: { exporter: ExporterLike; files: ExportFileInfo[]; crcs: number[] }[];
}

/** The engine's reason in one line (its message, or the texts of its problem list). */
export function reasonOf(e: unknown): string {
  return problemsOf(e)
    .map((p) => p.text)
    .join('; ');
}

/** What an export says when the engine trapped (a panic): plain words, then what to do. */
export const EXPORT_TRAP_TEXT = 'the engine failed unexpectedly. Try the export again.';

/** The failure message for `error`: a trap is fatal (the page replaces the worker) and said
 *  in plain words, with the cause as `detail`; anything else is the engine's reason. */
export function failure(id: number, error: unknown, prefix = ''): Extract<FromExportWorker, { type: 'failed' }> {
  if (isTrap(error)) return { type: 'failed', id, message: EXPORT_TRAP_TEXT, fatal: true, detail: String(error) };
  return { type: 'failed', id, message: `${prefix}${reasonOf(error)}` };
}

function defaultYield(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Parses `file_names()`, keeping only well-formed entries. */
function parseFiles(json: string): ExportFileInfo[] {
  const raw: unknown = JSON.parse(json);
  if (!Array.isArray(raw)) throw new Error('the engine listed no export files');
  return raw.map((f: unknown) => {
    const o = (typeof f === 'object' && f !== null ? f : {}) as Record<string, unknown>;
    return { name: String(o.name ?? 'file'), mime: String(o.mime ?? 'application/octet-stream') };
  });
}

/** Creates the handler; `post` sends a message with its transfer list. */
export function createExportHandler(api: ExportApi, post: Post, opts: ExportHandlerOptions = {}) {
  const sliceMs = opts.sliceMs ?? 12;
  const eventsPerStep = opts.eventsPerStep ?? 4000;
  const postMs = opts.postMs ?? 100;
  const yieldToMessages = opts.yieldToMessages ?? defaultYield;
  const clock = opts.now ?? (() => performance.now());
  let current: Running | null = null;

  function drop() {
    if (!current) return;
    for (const j of current.jobs) j.exporter.free();
    current = null;
  }

  /** Takes every file's new bytes of job `j` and posts them (nothing when there are none). */
  function flush(run: Running, j: number, progress: number) {
    const job = run.jobs[j];
    if (!job) return;
    const chunks: ExportChunk[] = [];
    job.files.forEach((_, file) => {
      const got = job.exporter.take(file);
      if (got.length === 0) return;
      // The engine's bytes are a fresh JS-owned copy; a view of anything else is copied so
      // it can be transferred.
      const bytes =
        got.byteOffset === 0 && got.byteLength === got.buffer.byteLength && got.buffer instanceof ArrayBuffer
          ? (got as Uint8Array<ArrayBuffer>)
          : new Uint8Array(got);
      job.crcs[file] = crc32(bytes, job.crcs[file] ?? 0);
      chunks.push({ file, bytes, crc: job.crcs[file] ?? 0 });
    });
    post(
      { type: 'data', id: run.id, job: j, chunks, progress },
      chunks.map((c) => c.bytes.buffer),
    );
  }

  async function pump(run: Running) {
    const n = run.jobs.length;
    for (let j = 0; j < n; j += 1) {
      const job = run.jobs[j];
      if (!job) continue;
      let lastPost = clock();
      let finished = false;
      while (!finished) {
        if (current !== run) return;
        const t0 = clock();
        try {
          do {
            finished = job.exporter.step(eventsPerStep);
          } while (!finished && clock() - t0 < sliceMs);
        } catch (e) {
          post(failure(run.id, e, 'The export stopped: '), []);
          drop();
          return;
        }
        const progress = (j + (finished ? 1 : job.exporter.progress())) / n;
        if (finished || clock() - lastPost >= postMs) {
          flush(run, j, progress);
          lastPost = clock();
        }
        if (!finished) await yieldToMessages();
      }
    }
    if (current !== run) return;
    post({ type: 'done', id: run.id }, []);
    drop();
  }

  function start(msg: Extract<ToExportWorker, { type: 'export' }>) {
    drop();
    const jobs: Running['jobs'] = [];
    try {
      for (const job of msg.jobs) {
        const exporter = api.createExporter(job.scenarioJson, msg.request);
        // Owned from here on: freed with the export, whatever happens next.
        jobs.push({ exporter, files: [], crcs: [] });
        const files = parseFiles(exporter.file_names());
        const last = jobs[jobs.length - 1];
        if (last) {
          last.files = files;
          last.crcs = files.map(() => 0);
        }
      }
    } catch (e) {
      for (const j of jobs) j.exporter.free();
      post(failure(msg.id, e), []);
      return;
    }
    const run: Running = { id: msg.id, jobs };
    current = run;
    const notes = [...new Set(jobs.map((j) => j.exporter.note()).filter((n) => n !== ''))];
    post({ type: 'files', id: msg.id, files: jobs.map((j) => j.files), notes }, []);
    void pump(run);
  }

  return {
    handle(msg: ToExportWorker): void {
      switch (msg.type) {
        case 'init':
          return;
        case 'export':
          start(msg);
          return;
        case 'cancel':
          if (current?.id === msg.id) drop();
          return;
        default: {
          const never: never = msg;
          throw new Error(`unknown message ${JSON.stringify(never)}`);
        }
      }
    },
    /** True while an export runs. */
    busy(): boolean {
      return current !== null;
    },
    dispose: drop,
  };
}
