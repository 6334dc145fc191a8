// Exercise sheets in the link: `sheet=N` opens sheet number N (6 questions), `sheet=N:C` with
// C questions; `theory=1` draws the Mathis and Padhye reference lines on the throughput plot
// (docs/scenario-url.md). View keys that no older link has: old links open without them.
import type { TextbookConventionName } from '../engine/pkg/vocabulary';

/** The sheet a link opens: its number (which questions) and how many questions. */
export interface SheetLink {
  number: number;
  count: number;
  /** Asked in the textbook's round model in this convention (`tbsheet=NAME`), else about
   *  the per-packet run. */
  textbook?: TextbookConventionName;
}

/** Questions on a sheet when nobody says (the engine allows 1 to MAX_SHEET_QUESTIONS). */
export const DEFAULT_SHEET_QUESTIONS = 6;
/** The most questions the engine puts on a sheet (`cwndlab_core::exercise`). */
export const MAX_SHEET_QUESTIONS = 20;

/** The link's value of `sheet`. */
export function sheetText(s: SheetLink): string {
  return s.count === DEFAULT_SHEET_QUESTIONS ? String(s.number) : `${s.number}:${s.count}`;
}

/** Reads `sheet=`: the sheet, or a message saying what is allowed. The count's range is the
 *  engine's to check (its refusal is shown as a notice when the sheet is made). */
export function readSheet(text: string): SheetLink | { error: string } {
  const m = /^(\d{1,9})(?::(\d{1,3}))?$/.exec(text);
  if (!m) {
    return {
      error:
        `sheet=${text} is not an exercise sheet (allowed: N, the sheet number, a whole number, ` +
        `or N:C with C questions, 1 to ${MAX_SHEET_QUESTIONS}); no sheet is made.`,
    };
  }
  return { number: Number(m[1]), count: m[2] === undefined ? DEFAULT_SHEET_QUESTIONS : Number(m[2]) };
}

/** Reads `theory=`: on, off, or a message. */
export function readTheory(text: string): boolean | { error: string } {
  if (text === '1' || text === '0') return text === '1';
  return { error: `theory=${text} is not 1 (on) or 0 (off); the theory lines are off.` };
}
