// The algorithms a comparison can run: the engine's catalogue of named algorithms
// (`catalogue_json()`, in tables.json), plus `custom`, the scenario's own flow-0 settings.
// This is the one place the page knows algorithms: names, labels, groups, descriptions and
// the settings each implies all come from the engine.
//
// A comparison runs the base scenario once per selected name. For a catalogue name, flow 0's
// catalogue-controlled settings (every path some entry sets), and those of any algorithm
// whose rules flow 0 carries (`carriedAlgorithms`), go back to their defaults, then the
// entry's settings are applied and `flows[0].algorithm` names it; for `custom`, the base
// scenario's flow 0 runs exactly as it is. The base scenario keeps those settings at their
// defaults unless a preset or a link made flow 0 custom.
import { tables, type CatalogueEntry, type Scenario } from '../engine/tables';
import { SELECTOR_KEYS } from '../engine/pkg/vocabulary';
import { isJsonObject, jsonEqual, type JsonObject, type JsonValue } from '../lib/json';
import { PARAMS, requireSpec } from './params';
import { getAt, getIn } from './paths';

/** A catalogue name (`newreno`, `newreno_cwv`, …) or CUSTOM. */
export type AlgorithmName = string;

/** The catalogue, in the engine's (picker) order. */
export const CATALOGUE: readonly CatalogueEntry[] = tables.catalogue;

const BY_NAME: ReadonlyMap<string, CatalogueEntry> = new Map(CATALOGUE.map((e) => [e.name, e]));

const algorithmSpec = requireSpec('flows[].algorithm');

/** The schema's name for "no catalogue entry": the one choice of `flows[].algorithm` that is
 *  not in the catalogue. */
export const CUSTOM: AlgorithmName = (() => {
  const extra = (algorithmSpec.options ?? []).map((o) => o.value).filter((v) => !BY_NAME.has(v));
  if (extra.length !== 1 || extra[0] === undefined) {
    throw new Error(`flows[].algorithm should list the catalogue plus one name for custom settings`);
  }
  return extra[0];
})();

/** Every name a comparison may run, in display order: the catalogue, then custom. */
export const ALGORITHM_NAMES: readonly AlgorithmName[] = [...CATALOGUE.map((e) => e.name), CUSTOM];

/** True when `name` is a catalogue name or custom. */
export function isAlgorithm(name: string): name is AlgorithmName {
  return ALGORITHM_NAMES.includes(name);
}

/** The catalogue entry of a name (undefined for custom and unknown names). */
export function catalogueEntry(name: AlgorithmName): CatalogueEntry | undefined {
  return BY_NAME.get(name);
}

/** The label a person reads ("NewReno + CWV"; custom: the schema's label, "Custom"). */
export function algorithmLabel(name: AlgorithmName): string {
  const entry = BY_NAME.get(name);
  if (entry) return entry.label;
  return algorithmSpec.options?.find((o) => o.value === name)?.label ?? name;
}

/** One line on what it is (custom: the schema's help for it). */
export function algorithmDescription(name: AlgorithmName): string {
  return BY_NAME.get(name)?.description ?? algorithmSpec.options?.find((o) => o.value === name)?.help ?? '';
}

/** Puts a selection in display order without duplicates or unknown names. */
export function orderAlgorithms(list: readonly AlgorithmName[]): AlgorithmName[] {
  return ALGORITHM_NAMES.filter((a) => list.includes(a));
}

/** Catalogue entries under one heading of the picker. */
export interface AlgorithmGroup {
  name: string;
  entries: CatalogueEntry[];
}

/** The catalogue's groups, in order of first appearance. */
export const GROUPS: readonly AlgorithmGroup[] = (() => {
  const groups = new Map<string, AlgorithmGroup>();
  for (const e of CATALOGUE) {
    let g = groups.get(e.group);
    if (!g) {
      g = { name: e.group, entries: [] };
      groups.set(e.group, g);
    }
    g.entries.push(e);
  }
  return [...groups.values()];
})();

/** What a comparison shows when nothing else is asked for: the first group (the classic
 *  loss-recovery algorithms, which the default bulk sender tells apart). */
export const DEFAULT_SELECTION: readonly AlgorithmName[] = (GROUPS[0]?.entries ?? CATALOGUE).map((e) => e.name);

/** The settings every catalogue entry sets. */
const COMMON_KEYS: readonly string[] = Object.keys(CATALOGUE[0]?.settings ?? {}).filter((k) =>
  CATALOGUE.every((e) => k in e.settings),
);

/** Paths inside a flow that every catalogue entry sets (`variant`, `cc.idle_policy`,
 *  `cc.growth_gate`), in the schema's order: the algorithm choice owns them. Settings only
 *  some entries set (a sender profile's initial window, a binomial control's k and l) stay
 *  scenario settings: a run of such an entry takes the entry's values (`runScenario`), every
 *  other run the scenario's, as the engine does for `flows[].algorithm`. Taking only the
 *  common keys keeps links and presets that set those as scenario settings (an ns-2
 *  emulation's segment units, a preset's minimum RTO) reading as before. Plus SELECTOR_KEYS
 *  (the controller and the loss recovery, from the engine's vocabulary), which some entry sets. */
export const CONTROLLED_KEYS: readonly string[] = [
  ...new Set([...COMMON_KEYS, ...SELECTOR_KEYS.filter((k) => CATALOGUE.some((e) => k in e.settings))]),
].sort(
  (a, b) => PARAMS.findIndex((p) => p.path === `flows[].${a}`) - PARAMS.findIndex((p) => p.path === `flows[].${b}`),
);

/** Schema paths the algorithm choice owns for the compared flow: `flows[].algorithm` and
 *  every catalogue-controlled setting. Shown for flow 0 only when custom is compared. */
export const CONTROLLED_PATHS: ReadonlySet<string> = new Set([
  'flows[].algorithm',
  ...CONTROLLED_KEYS.map((k) => `flows[].${k}`),
]);

const DEFAULTS = new Map<string, JsonValue>();
function defaultOf(key: string): JsonValue {
  let v = DEFAULTS.get(key);
  if (v === undefined) {
    v = requireSpec(`flows[].${key}`).default;
    DEFAULTS.set(key, v);
  }
  return v;
}

/**
 * A copy of a scenario whose flow 0 is written key by key (`put('cc.idle_policy', …)`): what
 * a chain of `setAt(s, 'flows[0].…', …)` gives (the same values, the same key order: a key
 * written anew comes last, an existing one keeps its place), with each object on a written
 * path copied once rather than once per write. The page's first render groups the presets
 * with it (PresetMenu) and every run's scenario is made with it, so it is kept cheap;
 * algorithms.test.ts compares it with the chain of `setAt`s.
 */
class Flow0Writer {
  readonly scenario: Scenario;
  private readonly flow: JsonObject;
  /** The objects this copy made (written in place); any other is copied before a write. */
  private readonly own = new Set<JsonObject>();

  constructor(base: Scenario) {
    const flows = Array.isArray(base.flows) ? [...base.flows] : [];
    const first = flows[0];
    this.flow = isJsonObject(first) ? { ...first } : {};
    this.own.add(this.flow);
    flows[0] = this.flow;
    this.scenario = { ...base, flows };
  }

  put(key: string, value: JsonValue): void {
    const keys = key.split('.');
    const last = keys.pop() as string;
    let obj = this.flow;
    for (const k of keys) {
      const child = obj[k];
      if (isJsonObject(child) && this.own.has(child)) {
        obj = child;
        continue;
      }
      const copy: JsonObject = isJsonObject(child) ? { ...child } : {};
      this.own.add(copy);
      obj[k] = copy;
      obj = copy;
    }
    obj[last] = value;
  }
}

/** True when flow 0's catalogue-controlled settings are not all at their defaults: the
 *  scenario carries an algorithm of its own ("custom"). */
export function isCustomFlow(scenario: Scenario): boolean {
  return CONTROLLED_KEYS.some((k) => {
    const v = getAt(scenario, `flows[0].${k}`);
    return v !== undefined && !jsonEqual(v, defaultOf(k));
  });
}

/** The scenario with flow 0's algorithm and catalogue-controlled settings at their defaults
 *  (what the base scenario holds when the comparison chooses the algorithms). A flow 0 named
 *  after an entry loses every setting of that entry (CUBIC's rules, a Linux profile's initial
 *  window and timers, 4.3BSD's timer), as the engine does when a flow's algorithm is renamed
 *  (`catalogue::switch_to`) and when it makes a compared run (`scenario::runs::run_value`, the
 *  rule this mirrors, checked against it by algorithms.test.ts): a base that kept them would
 *  be a changed profile, which the engine names `custom`. Settings the flow has beyond its
 *  entry (a thin stream, a segment size) stay. */
export function withDefaultAlgorithm(scenario: Scenario): Scenario {
  return defaulted(scenario).scenario;
}

/** Every entry that has rules, with its rules as (path inside a flow split at its dots,
 *  value), made once: `carriedAlgorithms` runs with every run's scenario the page makes
 *  (`runScenario`, also from store selectors), so it reads the flow without parsing paths. */
const RULES: readonly (readonly [CatalogueEntry, readonly (readonly [string[], JsonValue])[]])[] = CATALOGUE.map(
  (e) => [e, Object.entries(e.rules).map(([k, v]) => [k.split('.'), v] as const)] as const,
).filter(([, rules]) => rules.length > 0);

/** The catalogue entries whose rules flow `i` of a scenario carries in full (every setting
 *  that makes the entry an algorithm, as the engine lists them: `rules`; a profile has none).
 *  A flow that is CUBIC with another C carries CUBIC; the engine names it `custom`. The same
 *  rule as the engine's `catalogue::carried`, from the engine's data; runs.test.ts checks
 *  the runs made with it against the engine's. */
export function carriedAlgorithms(scenario: Scenario, i = 0): CatalogueEntry[] {
  const flow = Array.isArray(scenario.flows) ? scenario.flows[i] : undefined;
  return RULES.filter(([, rules]) => rules.every(([keys, v]) => jsonEqual(getIn(flow, keys), v))).map(([e]) => e);
}

/** `withDefaultAlgorithm(scenario)` as a writer on its flow 0 (for `runScenario`). A flow 0
 *  that carries an algorithm's rules without its name (`custom`: CUBIC with C = 0.2) loses
 *  that algorithm's settings too, so that a compared run is its entry, not the entry on
 *  CUBIC's congestion avoidance; a profile's settings (timers, counters) stay. */
function defaulted(scenario: Scenario): Flow0Writer {
  const named = getAt(scenario, 'flows[0].algorithm');
  const old = typeof named === 'string' && named !== algorithmSpec.default ? BY_NAME.get(named) : undefined;
  const carried = carriedAlgorithms(scenario);
  const w = new Flow0Writer(scenario);
  w.put('algorithm', algorithmSpec.default);
  for (const k of COMMON_KEYS) w.put(k, defaultOf(k));
  for (const e of old ? [old, ...carried] : carried) for (const k of Object.keys(e.settings)) w.put(k, defaultOf(k));
  for (const k of CONTROLLED_KEYS) w.put(k, defaultOf(k));
  return w;
}

/** The scenario one run of a comparison simulates: `base` with `name`'s settings on flow 0
 *  (custom: `base` as it is). */
export function runScenario(base: Scenario, name: AlgorithmName): Scenario {
  const entry = BY_NAME.get(name);
  if (!entry) return base;
  const w = defaulted(base);
  for (const [k, v] of Object.entries(entry.settings)) w.put(k, v);
  w.put('algorithm', name);
  return w.scenario;
}

/** The catalogue-controlled settings a run of `name` on `base` uses (path inside a flow →
 *  value). */
export function runSettings(base: Scenario, name: AlgorithmName): Record<string, JsonValue> {
  const s = runScenario(base, name);
  return Object.fromEntries(CONTROLLED_KEYS.map((k) => [k, getAt(s, `flows[0].${k}`) ?? null]));
}

/** The setting that decides whether a run keeps window-validation state (W_used, pipeACK,
 *  the non-validated phase): the engine records that series unless it is at its default
 *  (`none`). */
const IDLE_POLICY = 'cc.idle_policy';

/** The idle policy that measures pipeACK and has a non-validated phase (RFC 7661). */
const NEW_CWV_POLICY = 'rfc7661';

function idlePolicyOf(base: Scenario, name: AlgorithmName): JsonValue | undefined {
  const entry = BY_NAME.get(name);
  return entry ? (entry.settings[IDLE_POLICY] ?? defaultOf(IDLE_POLICY)) : getAt(base, `flows[0].${IDLE_POLICY}`);
}

/** A flow setting (`path` inside a flow, e.g. `cc.units`) as the run of `name` on `base`
 *  simulates it (`runScenario`), its default when the scenario leaves it out. */
export function flowSettingOf(base: Scenario, name: AlgorithmName, path: string): JsonValue {
  return getAt(runScenario(base, name), `flows[0].${path}`) ?? defaultOf(path);
}

/** True when a run of `name` on `base` has an idle policy, so its trace has a window-
 *  validation series and its plot the lines and marks that go with it. */
export function hasWindowValidation(base: Scenario, name: AlgorithmName): boolean {
  const value = idlePolicyOf(base, name);
  return value !== undefined && !jsonEqual(value, defaultOf(IDLE_POLICY));
}

/** True when a run of `name` on `base` is new CWV (pipeACK, the non-validated phase). */
export function isNewCwv(base: Scenario, name: AlgorithmName): boolean {
  return idlePolicyOf(base, name) === NEW_CWV_POLICY;
}

/** A preset as the page loads it: its flow-0 algorithm (a catalogue name, or custom when
 *  its settings match no entry) and the base scenario (catalogue-controlled settings at
 *  their defaults, except for custom, which keeps the preset's own). */
export function presetBase(scenario: Scenario): { own: AlgorithmName; base: Scenario } {
  const named = getAt(scenario, 'flows[0].algorithm');
  const own = typeof named === 'string' && BY_NAME.has(named) ? named : CUSTOM;
  return { own, base: own === CUSTOM ? scenario : withDefaultAlgorithm(scenario) };
}
