import type { Scenario } from './tables';
import type { Problem } from './protocol';

/** Parses `validate_json()` output into a typed result. */
export function parseValidation(text: string): { ok: true; scenario: Scenario } | { ok: false; problems: Problem[] } {
  const v = JSON.parse(text) as { ok?: boolean; scenario?: Scenario; problems?: Problem[] };
  if (v.ok === true && v.scenario) return { ok: true, scenario: v.scenario };
  return { ok: false, problems: v.problems ?? [{ path: '', message: 'the engine refused the scenario' }] };
}
