// Messages between the page and its export worker. An export runs each of the view's
// engine runs again, from the start and to the end, in the engine's streaming `Exporter`
// (the engine formats every byte: file names, columns, numbers); the worker sends each
// file's new bytes as they are made (buffers transferred, never copied) with the file's
// running CRC-32, so the page only appends Blob parts.

/** One run to export: where its files go in an archive ('' = the top) and its complete
 *  scenario (the run as the page simulated it, live changes as timeline entries). */
export interface ExportJob {
  folder: string;
  scenarioJson: string;
}

/** A file an Exporter makes (`Exporter.file_names()`). */
export interface ExportFileInfo {
  name: string;
  mime: string;
}

/** New bytes of one file and its CRC-32 over every byte so far. */
export interface ExportChunk {
  file: number;
  bytes: Uint8Array<ArrayBuffer>;
  crc: number;
}

/** Page → worker. */
export type ToExportWorker =
  | { type: 'init'; module: WebAssembly.Module }
  /** `request`: the engine's request JSON (`{"format":"csv","tables":[…]}`, pcap, qlog). */
  | { type: 'export'; id: number; request: string; jobs: ExportJob[] }
  | { type: 'cancel'; id: number };

/** Worker → page. */
export type FromExportWorker =
  | { type: 'ready' }
  /** Every job's files, once every Exporter accepted the request (before any runs), and
   *  what the engine says the user should know to read them (`Exporter.note()`, each
   *  distinct one once: e.g. the window scale a capture cannot announce). */
  | { type: 'files'; id: number; files: ExportFileInfo[][]; notes: string[] }
  /** New bytes of a job's files; `progress` of the whole export, 0 to 1. */
  | { type: 'data'; id: number; job: number; chunks: ExportChunk[]; progress: number }
  | { type: 'done'; id: number }
  /** Refused (the engine's message: too large for the page, a bad request) or failed. */
  | {
      type: 'failed';
      id: number;
      message: string;
      /** The engine trapped (a panic): the page replaces the worker; `detail`: the cause. */
      fatal?: boolean;
      detail?: string;
    };
