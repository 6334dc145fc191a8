// The explanation vocabulary the engine publishes: rule kinds and rules with their titles,
// sources and formulas (teaching.json), and the glossary (tables.json). Nothing here is
// retyped: the page only looks up what the engine wrote.
import { tables, type GlossaryEntry, type RuleKind, type RuleSpec } from '../engine/tables';
import { teaching } from '../engine/teaching';

const NONE: readonly never[] = [];

/** Every rule, by its index (the `rule` column of a decision index). Empty until the
 *  teaching texts are loaded: the explainer loads them before it takes a run's first
 *  decisions, so wherever there is a decision index, its rules are here. */
export function ruleSpecs(): readonly RuleSpec[] {
  return teaching()?.rules ?? NONE;
}

/** The rule of row `row` of a decision index (undefined before the rules are loaded). */
export function ruleOf(idx: { rule(row: number): number }, row: number): RuleSpec | undefined {
  return teaching()?.rules[idx.rule(row)];
}

/** Every rule kind, with its description (empty until loaded, as `ruleSpecs`). */
export function ruleKinds(): readonly RuleKind[] {
  return teaching()?.kinds ?? NONE;
}

/** The glossary, by term id. */
export const GLOSSARY: ReadonlyMap<string, GlossaryEntry> = new Map(tables.glossary.map((g) => [g.term, g]));

/** A phase code's name (`codes.phases`), e.g. "fast_recovery" → shown as "fast recovery". */
export function phaseName(code: number): string {
  const name = tables.codes.phases[code];
  return name === undefined ? 'receiver' : name.replace(/_/g, ' ');
}

/** Normalises a name for glossary lookups: "FlightSize" and "flight size" alike. */
function norm(text: string): string {
  return text.toLowerCase().replace(/[\s_·-]+/g, '');
}

const BY_NAME = new Map<string, string>();
for (const g of tables.glossary) {
  BY_NAME.set(norm(g.term), g.term);
  BY_NAME.set(norm(g.label), g.term);
}

/** The glossary term a name on screen stands for (an input's name, a series, a state), or
 *  null when the glossary has none. Looked up by the term's id and its label. */
export function termOf(name: string): string | null {
  const n = norm(name);
  if (BY_NAME.has(n)) return BY_NAME.get(n) ?? null;
  // Plurals: "dupacks", "backoffs".
  if (n.endsWith('s') && BY_NAME.has(n.slice(0, -1))) return BY_NAME.get(n.slice(0, -1)) ?? null;
  // "cwnd before", "ssthresh after", "dup ACKs": the leading word.
  const head = norm(name.split(/[\s(]/)[0] ?? '');
  return BY_NAME.get(head) ?? null;
}
