// Messages between the page and a sweep worker (sweep.worker.ts). A worker runs one run of a
// sweep per message with the engine's `sweep_run_json` (the plan, the run's scenario and its
// rows are the engine's, as `cwndlab sweep` has them).

export type ToSweepWorker =
  | { type: 'init'; module: WebAssembly.Module }
  /** Run `index` of the sweep defined by `def` (JSON) over the scenario `base` (JSON). */
  | { type: 'run'; def: string; base: string; index: number };

export type FromSweepWorker =
  | { type: 'ready' }
  /** The run's rows (`sweep_run_json`'s `rows`: one per flow, numbers as exact text). */
  | { type: 'rows'; index: number; rows: unknown[] }
  | { type: 'failed'; index: number; message: string };
