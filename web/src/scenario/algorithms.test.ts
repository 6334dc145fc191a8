// The algorithm model against the engine's own catalogue and validator: what the page runs
// for a name is what the engine means by that name.
import { SELECTOR_KEYS } from '../engine/pkg/vocabulary';
import { describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import { engineWasm, realValidator } from '../test/wasm';
import {
  ALGORITHM_NAMES,
  algorithmLabel,
  carriedAlgorithms,
  CATALOGUE,
  catalogueEntry,
  CONTROLLED_KEYS,
  CONTROLLED_PATHS,
  CUSTOM,
  DEFAULT_SELECTION,
  GROUPS,
  flowSettingOf,
  hasWindowValidation,
  isAlgorithm,
  isCustomFlow,
  orderAlgorithms,
  presetBase,
  runScenario,
  runSettings,
  withDefaultAlgorithm,
} from './algorithms';
import type { Scenario } from '../engine/tables';
import { requireSpec } from './params';
import { flowsOf } from './competition';
import { getAt, setAt } from './paths';

const validate = realValidator();
const wasm = engineWasm();
// A reserved rate, which BR-TCP needs and no other entry reads.
const base = setAt(tables.defaultScenario, 'flows[0].reserved_bandwidth', 1_000_000);

function digestOf(scenario: object): string {
  const sim = new wasm.Sim(JSON.stringify(scenario));
  sim.run_to_end();
  const d = sim.digest();
  sim.free();
  return d;
}

describe('the algorithm model', () => {
  it('is the engine’s catalogue, in its order, plus custom (the schema’s other choice)', () => {
    expect(ALGORITHM_NAMES).toEqual([...tables.catalogue.map((e) => e.name), CUSTOM]);
    expect(requireSpec('flows[].algorithm').options?.map((o) => o.value)).toEqual(expect.arrayContaining([CUSTOM]));
    expect(CATALOGUE.map((e) => e.name)).not.toContain(CUSTOM);
    for (const e of CATALOGUE) expect(algorithmLabel(e.name)).toBe(e.label);
    expect(isAlgorithm('newreno_cwv')).toBe(true);
    expect(isAlgorithm('vegas')).toBe(false);
    expect(orderAlgorithms([CUSTOM, 'newreno', 'reno', 'newreno', 'vegas'])).toEqual(['reno', 'newreno', CUSTOM]);
  });

  it('groups every entry once, in catalogue order; the first group is the default selection', () => {
    expect(GROUPS.flatMap((g) => g.entries)).toEqual(
      [...CATALOGUE].sort(
        (a, b) => GROUPS.findIndex((g) => g.name === a.group) - GROUPS.findIndex((g) => g.name === b.group),
      ),
    );
    expect(new Set(GROUPS.map((g) => g.name)).size).toBe(GROUPS.length);
    expect(DEFAULT_SELECTION).toEqual(GROUPS[0]?.entries.map((e) => e.name));
    // v=1 compared the four classic variants by default: still the first group today.
    expect(DEFAULT_SELECTION).toEqual(['old_tahoe', 'tahoe', 'reno', 'newreno']);
  });

  it('knows which settings the catalogue controls, with their defaults', () => {
    // The keys every entry sets, and the engine's selector keys: the controller (which only
    // BBR's entry sets) and SACK's (which the SACK entries and the profiles set); the others
    // (a profile's initial window) stay scenario settings.
    expect(CONTROLLED_KEYS).toEqual([
      'variant',
      'cc.idle_policy',
      'cc.growth_gate',
      'cc.controller',
      'sack.enabled',
      'sack.budget',
      'sack.rack',
      'sack.tlp',
      'sack.early_retransmit',
    ]);
    for (const e of CATALOGUE) {
      for (const k of CONTROLLED_KEYS)
        if (!(SELECTOR_KEYS as readonly string[]).includes(k)) expect(Object.keys(e.settings)).toContain(k);
    }
    expect(CONTROLLED_PATHS.has('flows[].algorithm')).toBe(true);
    for (const k of CONTROLLED_KEYS) expect(CONTROLLED_PATHS.has(`flows[].${k}`)).toBe(true);
    expect(isCustomFlow(base)).toBe(false);
    const custom = setAt(base, 'flows[0].cc.idle_policy', 'restart');
    expect(isCustomFlow(custom)).toBe(true);
    expect(withDefaultAlgorithm(custom)).toEqual(base);
  });

  it.each(CATALOGUE.map((e) => [e.name]))('runs %s as the engine means it', (name) => {
    const run = runScenario(base, name);
    const entry = CATALOGUE.find((e) => e.name === name);
    for (const [k, v] of Object.entries(entry?.settings ?? {})) expect(getAt(run, `flows[0].${k}`)).toEqual(v);
    expect(getAt(run, 'flows[0].algorithm')).toBe(name);
    // The engine agrees that these settings are that entry…
    const v = validate(JSON.stringify(run));
    expect(v.ok && getAt(v.scenario, 'flows[0].algorithm')).toBe(name);
    // …and a partial scenario naming the entry alone runs identically.
    const partial = structuredClone(run) as { flows: Record<string, Record<string, unknown>>[] };
    const flow = partial.flows[0] ?? {};
    for (const k of CONTROLLED_KEYS) {
      const [head = '', tail] = k.split('.');
      if (tail === undefined) delete flow[head];
      else delete flow[head]?.[tail];
    }
    expect(digestOf(partial)).toBe(digestOf(run));
  });

  it('keeps settings only some entries set as scenario settings: old links and presets read as before', () => {
    // An ns-2 emulation's segment units and a preset's initial window are scenario settings,
    // even though the sender profiles set them too.
    const ns2 = setAt(setAt(base, 'flows[0].cc.units', 'segments'), 'flows[0].tcp.initial_window', 3);
    expect(isCustomFlow(ns2)).toBe(false);
    expect(withDefaultAlgorithm(ns2)).toEqual(ns2);
    const reno = runScenario(ns2, 'reno');
    expect([getAt(reno, 'flows[0].cc.units'), getAt(reno, 'flows[0].tcp.initial_window')]).toEqual(['segments', 3]);
    // A profile brings its own values for the keys it sets, and only for its own runs.
    for (const name of ['linux_3_15', 'freebsd_10'].filter(isAlgorithm)) {
      const entry = CATALOGUE.find((e) => e.name === name);
      const run = runScenario(ns2, name);
      for (const [k, v] of Object.entries(entry?.settings ?? {})) expect(getAt(run, `flows[0].${k}`)).toEqual(v);
    }
  });

  it('never keeps BBR’s controller or CUBIC’s rules in a base: every other name runs as itself', () => {
    // Only BBR's entry sets the controller; the algorithm choice owns it all the same.
    const bbr = runScenario(base, 'bbr');
    expect(getAt(bbr, 'flows[0].cc.controller')).toBe('bbr');
    expect(isCustomFlow(setAt(base, 'flows[0].cc.controller', 'bbr'))).toBe(true);
    expect(withDefaultAlgorithm(bbr)).toEqual(base);
    for (const name of ['newreno', 'cubic']) {
      const run = runScenario(bbr, name);
      expect(getAt(run, 'flows[0].cc.controller'), name).toBe('window');
      const v = validate(JSON.stringify(run));
      expect(v.ok && getAt(v.scenario, 'flows[0].algorithm'), name).toBe(name);
    }
    // Nor CUBIC's rules: a base made from a CUBIC flow is NewReno again.
    expect(withDefaultAlgorithm(runScenario(base, 'cubic'))).toEqual(base);
    // A preset whose flow 0 is BBR: the base the comparison chooses from is not BBR.
    const preset = tables.presets.find((p) => getAt(p.scenario, 'flows[0].algorithm') === 'bbr');
    if (!preset) throw new Error('no preset with BBR on flow 0');
    const { own, base: made } = presetBase(preset.scenario);
    expect(own).toBe('bbr');
    expect(getAt(made, 'flows[0].cc.controller')).toBe('window');
  });

  it('takes an algorithm’s rules off a custom base that carries them; a profile’s settings stay', () => {
    // CUBIC with C = 0.2 is no entry (custom). Compared with Reno it gave Reno's variant on
    // CUBIC's congestion avoidance, a run the engine itself named custom.
    const changed = (name: string, key: string, value: number): Scenario =>
      setAt(setAt(runScenario(base, name), `flows[0].${key}`, value), 'flows[0].algorithm', CUSTOM);
    const cubic = changed('cubic', 'cc.cubic_c', 0.2);
    expect(carriedAlgorithms(cubic).map((e) => e.name)).toEqual(['cubic']);
    for (const [what, custom] of [
      ['CUBIC with C = 0.2', cubic],
      ['Binomial IIAD with α = 2', changed('binomial_iiad', 'cc.binomial_alpha', 2)],
    ] as const) {
      const v = validate(JSON.stringify(custom));
      expect(v.ok && getAt(v.scenario, 'flows[0].algorithm'), what).toBe(CUSTOM);
      for (const e of CATALOGUE) {
        const run = validate(JSON.stringify(runScenario(custom, e.name)));
        expect(run.ok && getAt(run.scenario, 'flows[0].algorithm'), `${e.name} on ${what}`).toBe(e.name);
      }
      expect(runScenario(custom, CUSTOM)).toBe(custom);
    }
    expect(getAt(runScenario(cubic, 'reno'), 'flows[0].cc.congestion_avoidance')).toBe(
      requireSpec('flows[].cc.congestion_avoidance').default,
    );
    // A profile has no rules: a changed Linux 3.15 keeps its timers and initial window.
    const linux = changed('linux_3_15', 'rto.min', 0.3);
    expect(carriedAlgorithms(linux).some((e) => e.name.startsWith('linux'))).toBe(false);
    for (const e of CATALOGUE.filter((c) => c.group === catalogueEntry('linux_3_15')?.group)) {
      expect(e.rules, e.name).toEqual({});
    }
    expect(getAt(runScenario(linux, 'newreno'), 'flows[0].rto.min')).toBe(0.3);
    expect(getAt(runScenario(linux, 'newreno'), 'flows[0].tcp.initial_window')).toBe(10);
  });

  it('runs a catalogue name the same on a custom base; custom runs the base as it is', () => {
    const custom = setAt(setAt(base, 'flows[0].cc.idle_policy', 'rfc2861'), 'flows[0].variant', 'reno');
    expect(runScenario(custom, 'newreno')).toEqual(runScenario(base, 'newreno'));
    expect(runScenario(custom, CUSTOM)).toBe(custom);
    expect(runSettings(custom, CUSTOM)).toMatchObject({ variant: 'reno', 'cc.idle_policy': 'rfc2861' });
    expect(runSettings(custom, 'newreno_cwv')).toMatchObject({
      'cc.idle_policy': 'rfc2861',
      'cc.growth_gate': 'window_full',
    });
  });

  it('reads a flow setting as the run simulates it: the entry’s, else the scenario’s own', () => {
    const ns2 = setAt(base, 'flows[0].cc.units', 'segments');
    // NewReno leaves the units to the scenario; Linux 3.15 sets segments; 4.3BSD bytes.
    expect(flowSettingOf(ns2, 'newreno', 'cc.units')).toBe('segments');
    expect(flowSettingOf(base, 'newreno', 'cc.units')).toBe('bytes');
    expect(flowSettingOf(ns2, CUSTOM, 'cc.units')).toBe('segments');
  });

  it('says which runs keep window-validation state', () => {
    expect(hasWindowValidation(base, 'newreno')).toBe(false);
    expect(hasWindowValidation(base, 'newreno_cwv')).toBe(true);
    expect(hasWindowValidation(base, CUSTOM)).toBe(false);
    expect(hasWindowValidation(setAt(base, 'flows[0].cc.idle_policy', 'restart'), CUSTOM)).toBe(true);
  });

  it.each(tables.presets.map((p) => [p.name, p] as const))(
    'loads preset %s: its own algorithm, custom when no entry matches',
    (_name, preset) => {
      const { own, base: b } = presetBase(preset.scenario);
      const named = getAt(preset.scenario, 'flows[0].algorithm');
      expect(own).toBe(named);
      expect(isCustomFlow(b)).toBe(own === CUSTOM);
      // Run with its own algorithm, the base gives the preset's run exactly.
      expect(runSettings(b, own)).toEqual(runSettings(preset.scenario, CUSTOM));
      for (const a of preset.lesson?.compare ?? []) expect(isAlgorithm(a), a).toBe(true);
    },
  );

  it.each(tables.presets.filter((p) => flowsOf(p.scenario).length === 1).map((p) => [p.name, p] as const))(
    'compares preset %s from the base the engine makes: flow 0 renamed, its entry’s settings cleared',
    (_name, preset) => {
      const { own, base: b } = presetBase(preset.scenario);
      // The engine's base: the run of the default entry (`scenario::runs::run_value`), or,
      // for a custom flow 0, the preset as it is.
      const runs = new wasm.Runs(JSON.stringify(preset.scenario));
      const sim = runs.sim(own === CUSTOM ? null : (requireSpec('flows[].algorithm').default as string));
      const engine = JSON.parse(sim.scenario_json()) as Scenario;
      sim.free();
      runs.free();
      const v = validate(JSON.stringify(b));
      expect(v.ok && v.scenario).toEqual(engine);
      // …which the engine names as the page does: the default entry, or custom.
      expect(getAt(engine, 'flows[0].algorithm')).toBe(
        own === CUSTOM ? CUSTOM : requireSpec('flows[].algorithm').default,
      );
    },
  );

  it('makes a run’s scenario as the chain of setAt it stands for: same values, same key order, input untouched', () => {
    // The rule as it was written before the writer (algorithms.ts, Flow0Writer): one setAt
    // per setting, each copying the path to it.
    const defaultOf = (k: string) => requireSpec(`flows[].${k}`).default;
    const common = Object.keys(CATALOGUE[0]?.settings ?? {}).filter((k) => CATALOGUE.every((e) => k in e.settings));
    const byChain = (scenario: Scenario): Scenario => {
      const named = getAt(scenario, 'flows[0].algorithm');
      const old =
        typeof named === 'string' && named !== requireSpec('flows[].algorithm').default
          ? CATALOGUE.find((e) => e.name === named)
          : undefined;
      const carried = CATALOGUE.filter((e) => {
        const rules = Object.entries(e.rules);
        const has = ([k, v]: [string, unknown]) =>
          JSON.stringify(getAt(scenario, `flows[0].${k}`)) === JSON.stringify(v);
        return rules.length > 0 && rules.every(has);
      });
      let s = setAt(scenario, 'flows[0].algorithm', requireSpec('flows[].algorithm').default);
      for (const k of common) s = setAt(s, `flows[0].${k}`, defaultOf(k));
      if (old) for (const k of Object.keys(old.settings)) s = setAt(s, `flows[0].${k}`, defaultOf(k));
      for (const e of carried) for (const k of Object.keys(e.settings)) s = setAt(s, `flows[0].${k}`, defaultOf(k));
      for (const k of CONTROLLED_KEYS) s = setAt(s, `flows[0].${k}`, defaultOf(k));
      return s;
    };
    const runByChain = (scenario: Scenario, name: string): Scenario => {
      const entry = CATALOGUE.find((e) => e.name === name);
      if (!entry) return scenario;
      let s = byChain(scenario);
      for (const [k, v] of Object.entries(entry.settings)) s = setAt(s, `flows[0].${k}`, v);
      return setAt(s, 'flows[0].algorithm', name);
    };
    const cubic = CATALOGUE.find((e) => e.name === 'cubic');
    const odd: Scenario[] = [
      {},
      { flows: [] },
      { flows: [5] },
      { duration: 3, flows: [{ variant: 'reno' }, { variant: 'tahoe' }] },
      // Named after an entry whose settings it keeps, then one whose settings it changed.
      runScenario(base, 'cubic'),
      setAt(runScenario(base, 'cubic'), `flows[0].${Object.keys(cubic?.settings ?? {}).at(-1) ?? 'variant'}`, 'x'),
      // Custom, carrying CUBIC's rules.
      setAt(setAt(runScenario(base, 'cubic'), 'flows[0].cc.cubic_c', 0.2), 'flows[0].algorithm', CUSTOM),
    ];
    const scenarios = [tables.defaultScenario, base, ...tables.presets.map((p) => p.scenario), ...odd];
    let compared = 0;
    for (const scenario of scenarios) {
      const before = JSON.stringify(scenario);
      expect(JSON.stringify(withDefaultAlgorithm(scenario))).toBe(JSON.stringify(byChain(scenario)));
      for (const name of ALGORITHM_NAMES) {
        expect(JSON.stringify(runScenario(scenario, name))).toBe(JSON.stringify(runByChain(scenario, name)));
        compared++;
      }
      expect(JSON.stringify(scenario)).toBe(before);
    }
    expect(compared).toBeGreaterThan(500);
  });
});
