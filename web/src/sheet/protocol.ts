// Messages between the page and its sheet worker: the engine makes an exercise sheet by
// running the scenario to the end (`exercise_json`), so never on the page's thread.

/** Page → worker. */
export type ToSheetWorker =
  | { type: 'init'; module: WebAssembly.Module }
  | {
      type: 'sheet';
      id: number;
      scenarioJson: string;
      title: string;
      number: number;
      count: number;
      compareJson: string;
      /** The unit windows are written in first (`segments`, `bytes`; '' the run's own). */
      unit: string;
      /** Ask in the textbook's round model, in this convention (`textbook_exercise_json`). */
      textbook?: string;
    }
  /** The textbook model of the scenario's flow 0 beside its per-packet run (`textbook_beside_json`). */
  | { type: 'textbook'; id: number; scenarioJson: string; convention: string };

/** Worker → page: the engine's sheet JSON, or its reason for refusing. */
export type FromSheetWorker =
  | { type: 'ready' }
  | { type: 'sheet'; id: number; json: string }
  | { type: 'textbook'; id: number; json: string }
  /** fatal: the engine trapped (a panic), the page replaces the worker; `detail`: the cause. */
  | { type: 'failed'; id: number; message: string; fatal?: boolean; detail?: string };
