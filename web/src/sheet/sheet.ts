// An exercise sheet as the engine writes it (`exercise_json`, engine/wasm/src/lib.rs): the
// questions about flow 0 of a run, each with its answer and the rules behind it. The page
// shows and prints these strings as they are; it computes none of them.
import { isJsonObject, type JsonObject, type JsonValue } from '../lib/json';
import type { AppState } from '../state/types';
import { exportRuns, scenarioName } from '../export/describe';
import { presetFocus } from '../scenario/presets';
import { DEFAULT_UNIT } from '../lib/units';

/** A rule behind an answer. */
export interface SheetRule {
  id: string;
  title: string;
  source: string;
  formula: string;
}

/** One question with its answer. */
export interface SheetQuestion {
  number: number;
  kind: string;
  text: string;
  answer: string;
  values: JsonValue;
  rules: SheetRule[];
  /** When it happened, s (time questions), or null: exact, for the cursor. */
  at_s: number | null;
  /** The same time as the sheet writes it ("3.281 s", the engine's), or null. */
  at_text: string | null;
}

/** A sheet. */
export interface Sheet {
  title: string;
  scenario: string;
  number: number;
  definition: string;
  questions: SheetQuestion[];
}

/** The question kinds about transmission rounds (the sheet then gives the round definition
 *  and prints the rounds view). */
export const ROUND_KINDS: ReadonlySet<string> = new Set([
  'slow_start_rounds',
  'ca_rounds',
  'ssthresh_change',
  'round_cwnd',
]);

/** True when a question of the sheet is about rounds. */
export function asksAboutRounds(sheet: Sheet): boolean {
  return sheet.questions.some((q) => ROUND_KINDS.has(q.kind));
}

const str = (o: JsonObject, k: string): string => (typeof o[k] === 'string' ? o[k] : '');
const num = (o: JsonObject, k: string): number => (typeof o[k] === 'number' ? o[k] : NaN);

/** Parses the engine's sheet JSON (throws when it is not a sheet). */
export function parseSheet(json: string): Sheet {
  const raw: unknown = JSON.parse(json);
  if (!isJsonObject(raw as JsonValue) || !Array.isArray((raw as JsonObject).questions)) {
    throw new Error('the engine returned no sheet');
  }
  const o = raw as JsonObject;
  const questions = (o.questions as JsonValue[]).filter(isJsonObject).map((q) => ({
    number: num(q, 'number'),
    kind: str(q, 'kind'),
    text: str(q, 'text'),
    answer: str(q, 'answer'),
    values: q.values ?? null,
    rules: (Array.isArray(q.rules) ? q.rules : []).filter(isJsonObject).map((r) => ({
      id: str(r, 'id'),
      title: str(r, 'title'),
      source: str(r, 'source'),
      formula: str(r, 'formula'),
    })),
    at_s: typeof q.at_s === 'number' ? q.at_s : null,
    at_text: typeof q.at_text === 'string' ? q.at_text : null,
  }));
  return {
    title: str(o, 'title'),
    scenario: str(o, 'scenario'),
    number: num(o, 'number'),
    definition: str(o, 'definition'),
    questions,
  };
}

/** What the engine needs to make a sheet of the view: the run asked about (flow 0 of the
 *  run the preset's lesson is about, else of the first run: the first algorithm compared,
 *  or the competition), its title, and in a
 *  comparison of several algorithms every run, for the comparison question. */
export interface SheetInput {
  scenarioJson: string;
  title: string;
  compareJson: string;
  /** The unit the sheet writes windows in first (the page's `unit=`: segments or bytes). */
  unit: string;
}

/** The sheet input of the page's view (each run's scenario as the export uses it). */
export function sheetInput(
  s: Pick<AppState, 'scenario' | 'mode' | 'algorithms' | 'presetName' | 'lesson' | 'preset'> & {
    unit?: AppState['unit'];
  },
): SheetInput {
  const runs = exportRuns(s);
  const focus = presetFocus(
    s.preset ?? s.lesson,
    runs.map((r) => r.key),
  );
  const first = runs.find((r) => r.key === focus) ?? runs[0];
  const compare =
    s.mode === 'compare' && runs.length >= 2
      ? runs.map((r) => ({ algorithm: r.key, scenario: JSON.parse(r.scenarioJson) as JsonValue }))
      : [];
  return {
    scenarioJson: first?.scenarioJson ?? JSON.stringify(s.scenario),
    title: scenarioName(s),
    compareJson: JSON.stringify(compare),
    unit: s.unit ?? DEFAULT_UNIT,
  };
}

/** The longest link a printed sheet carries as it is; a longer one (a preset's link runs
 *  to hundreds of characters) is replaced by the short form (`sheetReference`). */
export const PRINTED_LINK_LIMIT = 120;

/** How a printed sheet says where it comes from: the link when it is short, else the
 *  site, the preset (or "a custom scenario") and the sheet number, which make it again
 *  ("cwndlab.example/ · preset textbook-reno · sheet 3 (6 questions)"). */
export function sheetReference(
  site: string,
  query: string,
  presetName: string | null,
  link: { number: number; count: number },
): string {
  const url = `${site}?${query}`;
  if (url.length <= PRINTED_LINK_LIMIT) return url;
  const what = presetName ? `preset ${presetName}` : 'a custom scenario (its link is on the page)';
  const site0 = site.replace(/^https?:\/\//, '');
  return `cwndlab, ${site0} · ${what} · Exercise sheet ${link.number} (${link.count} question${link.count === 1 ? '' : 's'})`;
}
