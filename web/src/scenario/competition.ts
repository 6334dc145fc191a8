// Competition mode: one run in which several flows share the bottleneck, each with its own
// algorithm (a catalogue entry, or custom), application, start time and reservation. Beside
// comparison mode (the same scenario run once per algorithm on flow 0), the page shows the
// flows of one run as its "runs": run key `flow<i>` is flow i of the scenario, drawn and
// summarised like an algorithm of a comparison.
//
// This module is the one place that knows what a flow's algorithm choice means (the entry's
// settings applied to that flow), how a comparison becomes a competition and back, and how
// flows are named and styled.
import { tables, type Scenario } from '../engine/tables';
import { LIMITS } from '../engine/pkg/vocabulary';
import { isJsonObject, type JsonObject, type JsonValue } from '../lib/json';
import { algStyle, styleAt, type AlgStyle } from '../lib/styles';
import {
  algorithmLabel,
  carriedAlgorithms,
  catalogueEntry,
  CONTROLLED_KEYS,
  CUSTOM,
  isAlgorithm,
  orderAlgorithms,
  runScenario,
  type AlgorithmName,
} from './algorithms';
import { requireSpec } from './params';
import { getAt, setAt } from './paths';

/** compare: the scenario once per algorithm (flow 0); compete: one run, every flow. */
export type Mode = 'compare' | 'compete';
/** Every mode, the default first. */
export const MODES: readonly Mode[] = ['compare', 'compete'];

/** The most flows the engine runs (its `MAX_FLOWS`, generated into pkg/vocabulary.ts). */
export const MAX_FLOWS: number = LIMITS.max_flows;

/** The run key of flow i in competition mode. */
export function flowKey(i: number): string {
  return `flow${i}`;
}

/** The flow index of a competition run key; null for an algorithm name. */
export function flowIndexOf(key: string): number | null {
  const m = /^flow(\d+)$/.exec(key);
  return m ? Number(m[1]) : null;
}

/** The scenario's flows. */
export function flowsOf(scenario: Scenario): JsonObject[] {
  return Array.isArray(scenario.flows) ? scenario.flows.filter(isJsonObject) : [];
}

/** The runs a page shows: the compared algorithms, or one key per flow. */
export function runKeysOf(mode: Mode, algorithms: readonly AlgorithmName[], scenario: Scenario): string[] {
  return mode === 'compete' ? flowsOf(scenario).map((_, i) => flowKey(i)) : [...algorithms];
}

/** Flow i's algorithm: its catalogue name, or custom (settings that match no entry). */
export function flowAlgorithm(scenario: Scenario, i: number): AlgorithmName {
  const name = getAt(scenario, `flows[${i}].algorithm`);
  return typeof name === 'string' && isAlgorithm(name) ? name : CUSTOM;
}

/** "flow 2 · Reno": how plots, legends and the summary name a flow. */
export function flowLabel(scenario: Scenario, i: number): string {
  return `flow ${i} · ${algorithmLabel(flowAlgorithm(scenario, i))}`;
}

/** Flow i's look: colour, dash and marker by index (twelve colours; dash × marker never
 *  repeats within 56 flows), so identity never depends on colour alone. */
export function flowStyle(i: number): AlgStyle {
  return styleAt(i);
}

/** The look of a run key in either mode: the algorithm's, or the flow's. */
export function runStyle(key: string): AlgStyle {
  const i = flowIndexOf(key);
  return i === null ? algStyle(key) : flowStyle(i);
}

/** The label of a run key in either mode. */
export function runLabel(scenario: Scenario, key: string): string {
  const i = flowIndexOf(key);
  return i === null ? algorithmLabel(key) : flowLabel(scenario, i);
}

function defaultOf(key: string): JsonValue {
  return requireSpec(`flows[].${key}`).default;
}

/** The paths inside flow `i` an algorithm choice owns when it replaces the flow's: every
 *  catalogue-controlled setting, every setting the previous entry set (a sender profile's
 *  initial window goes back to the default when the flow becomes NewReno), and every setting
 *  of an algorithm whose rules the flow carries without its name (a custom flow that is CUBIC
 *  with C = 0.2 becomes Reno, not Reno's variant on CUBIC's congestion avoidance;
 *  `carriedAlgorithms`, as a comparison's runs do). */
function ownedKeys(scenario: Scenario, i: number): string[] {
  const prev = catalogueEntry(flowAlgorithm(scenario, i));
  const carried = carriedAlgorithms(scenario, i).flatMap((e) => Object.keys(e.settings));
  return [...new Set([...CONTROLLED_KEYS, ...Object.keys(prev?.settings ?? {}), ...carried])];
}

/**
 * The scenario with flow i running `name`: the settings the previous choice owned go back to
 * their defaults, the entry's settings are applied and `flows[i].algorithm` names it (what
 * the engine does with a flow that names an entry and sets nothing else). Custom keeps the
 * flow's settings as they are.
 */
export function withFlowAlgorithm(scenario: Scenario, i: number, name: AlgorithmName): Scenario {
  const entry = catalogueEntry(name);
  if (!entry) return setAt(scenario, `flows[${i}].algorithm`, CUSTOM);
  let s = scenario;
  for (const k of ownedKeys(scenario, i)) s = setAt(s, `flows[${i}].${k}`, defaultOf(k));
  for (const [k, v] of Object.entries(entry.settings)) s = setAt(s, `flows[${i}].${k}`, structuredClone(v));
  return setAt(s, `flows[${i}].algorithm`, name);
}

/** The engine's default flow. */
export function defaultFlow(): JsonObject {
  const f = flowsOf(tables.defaultScenario)[0];
  return structuredClone(f ?? {});
}

const baselines = new Map<AlgorithmName, JsonObject>();

/** A default flow running `name` (custom: the default flow): what a competition link's flow
 *  is before its own keys apply, so the link writes only what differs from it. */
export function flowBaseline(name: AlgorithmName): JsonObject {
  let b = baselines.get(name);
  if (!b) {
    const s = withFlowAlgorithm({ flows: [defaultFlow()] }, 0, name);
    b = flowsOf(s)[0] ?? defaultFlow();
    baselines.set(name, b);
  }
  return b;
}

/**
 * Comparison → competition. A scenario with one flow becomes one flow per compared algorithm
 * (each a copy of flow 0 running that algorithm; custom keeps flow 0's own settings), at most
 * `max` of them; a scenario that already has several flows keeps them, flow 0 running the
 * first compared algorithm.
 */
export function toCompetition(
  scenario: Scenario,
  algorithms: readonly AlgorithmName[],
  max: number | null = MAX_FLOWS,
): Scenario {
  const flows = flowsOf(scenario);
  const names = orderAlgorithms(algorithms);
  const first = names[0] ?? CUSTOM;
  if (flows.length > 1) return runScenario(scenario, first);
  const picked = max === null ? names : names.slice(0, Math.max(1, max));
  const made = picked.map((name) => flowsOf(runScenario(scenario, name))[0] ?? defaultFlow());
  return { ...scenario, flows: made.length > 0 ? made : flows };
}

/**
 * Competition → comparison: flow 0 alone is the base scenario (its algorithm's settings back
 * to their defaults, unless it is custom), and the comparison runs every algorithm the flows
 * ran, in catalogue order (custom only when flow 0 is custom: another flow's own settings
 * are not flow 0's).
 */
export function toComparison(scenario: Scenario): { scenario: Scenario; algorithms: AlgorithmName[] } {
  const flows = flowsOf(scenario);
  const names = flows.map((_, i) => flowAlgorithm(scenario, i));
  const own = names[0] ?? CUSTOM;
  let base: Scenario = { ...scenario, flows: flows.slice(0, 1) };
  if (own !== CUSTOM) {
    base = withFlowAlgorithm(base, 0, requireSpec('flows[].algorithm').default as string);
  }
  const algorithms = orderAlgorithms(names.filter((n) => n !== CUSTOM || own === CUSTOM));
  return { scenario: base, algorithms: algorithms.length > 0 ? algorithms : [own] };
}

/** A new flow for the table: a copy of the last one (Jacobson's conversations are identical
 *  flows started apart), or the default flow. */
export function newFlow(scenario: Scenario): JsonObject {
  const flows = flowsOf(scenario);
  return structuredClone(flows[flows.length - 1] ?? defaultFlow());
}

/** The scenario without flow i (never the last one). */
export function withoutFlow(scenario: Scenario, i: number): Scenario {
  const flows = flowsOf(scenario);
  if (flows.length <= 1) return scenario;
  // Timeline changes of the removed flow go with it; later flows' are renumbered.
  const timeline: JsonValue[] = [];
  for (const e of Array.isArray(scenario.timeline) ? scenario.timeline : []) {
    const m = isJsonObject(e) && typeof e.set === 'string' ? /^flows\[(\d+)\]\.(.*)$/.exec(e.set) : null;
    const j = Number(m?.[1]);
    if (m && j === i) continue;
    timeline.push(m && j > i ? { ...(e as JsonObject), set: `flows[${j - 1}].${m[2] ?? ''}` } : e);
  }
  const out: Scenario = { ...scenario, flows: flows.filter((_, j) => j !== i) };
  if (Array.isArray(scenario.timeline)) out.timeline = timeline;
  return out;
}

/** Hidden flows after flow `removed` is gone: later indices move down by one. */
export function hiddenAfterRemoval(hidden: readonly number[], removed: number): number[] {
  return hidden.filter((i) => i !== removed).map((i) => (i > removed ? i - 1 : i));
}

/** "The engine runs at most 64 flows in one run": the limit's notice. */
export function maxFlowsText(max: number | null = MAX_FLOWS): string {
  return max === null
    ? 'The engine refuses more flows in one run.'
    : `The engine runs at most ${max} flows in one run (its limit).`;
}
