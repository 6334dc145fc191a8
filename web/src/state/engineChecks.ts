// The engine's checks as the controller uses them: one validation per scenario JSON, the
// last few kept (a slider's value, its neighbours and a few before), and the notices a
// refusal gives, naming the parameter, with the engine's own words.
import type { Scenario } from '../engine/tables';
import type { Problem } from '../engine/protocol';
import type { Validation } from '../engine/validation';
import type { JsonValue } from '../lib/json';
import type { Notice } from '../scenario/shareState';
import type { Validator } from '../scenario/url';

/** Validations kept (a slider's value, its neighbours and a few before). */
export const VALIDATIONS_KEPT = 8;

/** The engine's validations by the scenario's JSON (a pure function of it): the key press
 *  that asks for a value computed ahead, and the look-ahead back to the value before, do not
 *  validate again. At most VALIDATIONS_KEPT, the oldest dropped first. */
export class KeptValidations {
  private readonly kept = new Map<string, Validation>();

  constructor(private readonly validate: Validator) {}

  /** The engine's validation of `json`, kept for the next VALIDATIONS_KEPT. */
  get(json: string): Validation {
    const result = this.kept.get(json) ?? this.validate(json);
    this.kept.delete(json);
    this.kept.set(json, result);
    for (const old of this.kept.keys()) {
      if (this.kept.size <= VALIDATIONS_KEPT) break;
      this.kept.delete(old);
    }
    return result;
  }
}

/** What a refusal says: one notice per problem, about `keyOf(problem)` (its path). */
export function refusalNotices(problems: readonly Problem[], keyOf = (p: Problem) => p.path): Notice[] {
  return problems.map((p) => ({ key: keyOf(p), message: `Not applied: ${p.text}` }));
}

/** Live changes (set while playing, at the current simulated time) as the engine checks
 *  them: the scenario with each change as a timeline entry (the parameter may change while
 *  running, the value is allowed). `notices` words a refusal, each problem of an added entry
 *  about its parameter. */
export function liveCheck(
  scenario: Scenario,
  changes: readonly (readonly [string, JsonValue])[],
): { json: string; notices: (problems: readonly Problem[]) => Notice[] } {
  const timeline = Array.isArray(scenario.timeline) ? scenario.timeline : [];
  const entries = changes.map(([set, value]) => ({ at: 0, set, value }));
  const first = timeline.length;
  return {
    json: JSON.stringify({ ...scenario, timeline: [...timeline, ...entries] }),
    notices: (problems) =>
      refusalNotices(problems, (p) => {
        const i = /^timeline\[(\d+)\]/.exec(p.path)?.[1];
        return i !== undefined && Number(i) >= first ? (changes[Number(i) - first]?.[0] ?? p.path) : p.path;
      }),
  };
}
