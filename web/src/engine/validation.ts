import type { Scenario } from './tables';
import { plainProblem, type Problem } from './protocol';

/** A validated scenario (every setting resolved) with the engine's packet estimate. */
export type Validation =
  { ok: true; scenario: Scenario; estimatedPackets?: number } | { ok: false; problems: Problem[] };

/** A scenario taken as it is, before the engine is there to check it (the page's start-up,
 *  the prerendered first view): the engine's worker checks what it runs. */
export function acceptedAsIs(scenarioJson: string): Validation {
  return { ok: true, scenario: JSON.parse(scenarioJson) as Scenario };
}

/** Parses `validate_json()` output into a typed result. */
export function parseValidation(text: string): Validation {
  const v = JSON.parse(text) as {
    ok?: boolean;
    scenario?: Scenario;
    problems?: Problem[];
    estimated_packets?: number;
  };
  if (v.ok === true && v.scenario) {
    return typeof v.estimated_packets === 'number'
      ? { ok: true, scenario: v.scenario, estimatedPackets: v.estimated_packets }
      : { ok: true, scenario: v.scenario };
  }
  return { ok: false, problems: v.problems ?? [plainProblem('the engine refused the scenario')] };
}
