// Types for what the web tests import from setup.mjs (web/src/engine/teaching.test.ts).

/** The engine's answers, split into tables.json (`tables`) and teaching.json (`teaching`). */
export function splitTables(answers: {
  schema: unknown;
  defaultScenario: unknown;
  presets: unknown[];
  families?: unknown;
  /** The course path (`course_json()`). */
  course: unknown[];
  codes: unknown;
  catalogue: unknown[];
  rules: unknown;
  limits: unknown;
  sweep: unknown;
}): { tables: unknown; teaching: unknown };

/** The TypeScript module pkg/vocabulary.ts, from `codes_json()` and `vocabulary_json()`. */
export function vocabularyModule(codes: unknown, vocabulary: unknown): string;
