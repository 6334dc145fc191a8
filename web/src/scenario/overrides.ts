// Which of the scenario's controls a compared algorithm's run does not use. A catalogue entry
// may set flow settings beyond the ones the algorithm choice owns (CONTROLLED_KEYS): a sender
// profile (linux_3_15, linux_3_18, freebsd_10) brings its era's initial window, RTO bounds,
// delayed ACK, Nagle and cwnd units; a binomial control its k, l, α and β. A run of such an
// entry takes the entry's values (`runScenario`), whatever the controls say; every other run
// takes the controls'. This module lists, per compared algorithm, the settings whose value
// in its run differs from the controls' current value: only those (a profile value equal to
// the control's is no surprise). Labels, units and value texts are the engine's schema's.
import type { Scenario } from '../engine/tables';
import { jsonEqual, type JsonValue } from '../lib/json';
import { algorithmLabel, catalogueEntry, CONTROLLED_KEYS, orderAlgorithms, type AlgorithmName } from './algorithms';
import { listText } from './identical';
import { formatValue, PARAMS, requireSpec } from './params';
import { getAt } from './paths';

/** One setting a run takes from its catalogue entry instead of the controls. */
export interface Override {
  /** Path inside a flow (`tcp.initial_window`). */
  key: string;
  /** The schema's label (`Initial window`). */
  label: string;
  /** The value the run uses, and the controls' value (engine units). */
  own: JsonValue;
  control: JsonValue;
  /** Both as the page shows values (`10 segments`, `200 ms`, `on`). */
  ownText: string;
  controlText: string;
}

/** Compared algorithms that override the same settings with the same values. */
export interface OverrideGroup {
  names: AlgorithmName[];
  overrides: Override[];
}

/** Schema order of the per-flow settings (`tcp.initial_window` → its row). */
const ORDER = new Map(
  PARAMS.filter((p) => p.path.startsWith('flows[].')).map((p, i) => [p.path.slice('flows[].'.length), i]),
);

/** The settings a run of `name` on `base` takes from its catalogue entry where that differs
 *  from the controls (flow 0 of `base`), in the schema's order; none for custom and for the
 *  entries that set only the controlled keys. */
export function runOverrides(base: Scenario, name: AlgorithmName): Override[] {
  const entry = catalogueEntry(name);
  if (!entry) return [];
  const out: Override[] = [];
  for (const [key, own] of Object.entries(entry.settings)) {
    if (CONTROLLED_KEYS.includes(key)) continue;
    const spec = requireSpec(`flows[].${key}`);
    const control = getAt(base, `flows[0].${key}`) ?? spec.default;
    if (jsonEqual(own, control)) continue;
    out.push({
      key,
      label: spec.label,
      own,
      control,
      ownText: formatValue(spec, own),
      controlText: formatValue(spec, control),
    });
  }
  return out.sort((a, b) => (ORDER.get(a.key) ?? 0) - (ORDER.get(b.key) ?? 0));
}

/** The compared algorithms with overrides, those with the very same overrides together (in
 *  catalogue order), and the algorithms that run on the controls throughout (`plain`). */
export function overrideGroups(
  base: Scenario,
  algorithms: readonly AlgorithmName[],
): { groups: OverrideGroup[]; plain: AlgorithmName[] } {
  const groups = new Map<string, OverrideGroup>();
  const plain: AlgorithmName[] = [];
  for (const name of orderAlgorithms(algorithms)) {
    const overrides = runOverrides(base, name);
    if (overrides.length === 0) {
      plain.push(name);
      continue;
    }
    const id = JSON.stringify(overrides.map((o) => [o.key, o.own]));
    const g = groups.get(id);
    if (g) g.names.push(name);
    else groups.set(id, { names: [name], overrides });
  }
  return { groups: [...groups.values()], plain };
}

/** The algorithms' labels as a list: "A", "A and B", "A, B and C". */
export function listNames(names: readonly AlgorithmName[]): string {
  return listText(names.map(algorithmLabel));
}

/** "Initial window 10 segments (controls: 2 segments)". */
export function overrideText(o: Override): string {
  return `${o.label} ${o.ownText} (controls: ${o.controlText})`;
}

/** One sentence per group: "Linux 3.15-like runs with its own Initial window 10 segments
 *  (controls: 2 segments), Minimum RTO 200 ms (controls: 1000 ms)." */
export function groupText(g: OverrideGroup): string {
  const verb = g.names.length === 1 ? 'runs with its own' : 'run with their own';
  return `${listNames(g.names)} ${verb} ${g.overrides.map(overrideText).join(', ')}.`;
}
