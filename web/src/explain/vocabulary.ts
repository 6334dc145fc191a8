// The explanation vocabulary the engine publishes (tables.json `rules`): rule kinds, rules
// with their titles, sources and formulas, and the glossary. Nothing here is retyped: the
// page only looks up what the engine wrote.
import { tables, type RuleSpec } from '../engine/tables';

/** Every rule, by its index (the `rule` column of a decision index). */
export const RULES: readonly RuleSpec[] = tables.rules?.rules ?? [];

/** Every rule kind, with its description. */
export const RULE_KINDS = tables.rules?.kinds ?? [];

/** The glossary, by term id. */
export const GLOSSARY: ReadonlyMap<string, { term: string; label: string; definition: string }> = new Map(
  (tables.rules?.glossary ?? []).map((g) => [g.term, g]),
);

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
for (const g of tables.rules?.glossary ?? []) {
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
