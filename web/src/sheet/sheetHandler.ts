// The sheet worker's logic as a plain object (sheet.worker.ts binds it to the worker; Vitest
// drives it in Node with the real wasm): each request is one `exercise_json` call.
import { isTrap } from '../engine/protocol';
import { reasonOf } from '../export/exportHandler';
import type { FromSheetWorker, ToSheetWorker } from './protocol';

/** What the handler needs from the wasm module. */
export interface SheetApi {
  /** `exercise_json(scenario, title, number, count, compare, unit)`; throws with the reason. */
  exercise(
    scenarioJson: string,
    title: string,
    number: number,
    count: number,
    compareJson: string,
    unit: string,
  ): string;
  /** `textbook_exercise_json(scenario, title, number, count, convention)`; throws with the reason. */
  textbookExercise?(scenarioJson: string, title: string, number: number, count: number, convention: string): string;
  /** `textbook_beside_json(scenario, convention)`; throws with the reason. */
  beside?(scenarioJson: string, convention: string): string;
}

/** What a sheet request says when the engine trapped (a panic). */
export const SHEET_TRAP_TEXT = 'the engine failed unexpectedly; try again';

/** Creates the handler; `post` sends a message to the page. */
export function createSheetHandler(api: SheetApi, post: (msg: FromSheetWorker) => void) {
  return {
    handle(msg: ToSheetWorker): void {
      if (msg.type !== 'sheet' && msg.type !== 'textbook') return;
      try {
        if (msg.type === 'textbook') {
          if (!api.beside) throw new Error('this engine has no textbook model');
          post({ type: 'textbook', id: msg.id, json: api.beside(msg.scenarioJson, msg.convention) });
          return;
        }
        let json: string;
        if (msg.textbook) {
          if (!api.textbookExercise) throw new Error('this engine has no textbook model');
          json = api.textbookExercise(msg.scenarioJson, msg.title, msg.number, msg.count, msg.textbook);
        } else {
          json = api.exercise(msg.scenarioJson, msg.title, msg.number, msg.count, msg.compareJson, msg.unit);
        }
        post({ type: 'sheet', id: msg.id, json });
      } catch (e) {
        // A trap (a panic): plain words, and the page replaces the worker.
        post(
          isTrap(e)
            ? { type: 'failed', id: msg.id, message: SHEET_TRAP_TEXT, fatal: true, detail: String(e) }
            : { type: 'failed', id: msg.id, message: reasonOf(e) },
        );
      }
    },
  };
}
