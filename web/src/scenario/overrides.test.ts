// Which controls a compared algorithm's run does not use, checked against the engine: the
// settings listed are exactly those in which the engine's resolved scenario of the run
// (Sim.scenario_json) differs from the controls, with the run's and the controls' values.
import { describe, expect, it } from 'vitest';
import { tables, type Scenario } from '../engine/tables';
import { isJsonObject, jsonEqual, type JsonObject, type JsonValue } from '../lib/json';
import { engineWasm } from '../test/wasm';
import { ALGORITHM_NAMES, CATALOGUE, CONTROLLED_KEYS, CUSTOM, presetBase, runScenario } from './algorithms';
import { groupText, overrideGroups, overrideText, runOverrides } from './overrides';
import { defaultScenario } from './shareState';
import { setAt } from './paths';

/** Leaf paths of a flow object (`tcp.initial_window` → 10); lists are leaves. */
function leaves(obj: JsonObject, prefix = ''): Map<string, JsonValue> {
  const out = new Map<string, JsonValue>();
  for (const [k, v] of Object.entries(obj)) {
    if (isJsonObject(v)) for (const [kk, vv] of leaves(v, `${prefix}${k}.`)) out.set(kk, vv);
    else out.set(`${prefix}${k}`, v);
  }
  return out;
}

/** Flow 0 of the scenario the engine runs (resolved: every setting present). */
function resolvedFlow0(scenario: Scenario): Map<string, JsonValue> {
  const sim = new (engineWasm().Sim)(JSON.stringify(scenario));
  const resolved = JSON.parse(sim.scenario_json()) as Scenario;
  sim.free();
  const flows = resolved.flows;
  const f0 = Array.isArray(flows) ? flows[0] : undefined;
  if (!isJsonObject(f0)) throw new Error('no flow 0');
  return leaves(f0);
}

/** Where the engine's run of `name` differs from the controls (the base's flow 0), beyond
 *  the keys the algorithm choice owns and the algorithm's name. */
function engineDifferences(base: Scenario, name: string): Map<string, { run: JsonValue; control: JsonValue }> {
  const control = resolvedFlow0(base);
  const run = resolvedFlow0(runScenario(base, name));
  const out = new Map<string, { run: JsonValue; control: JsonValue }>();
  for (const [k, v] of run) {
    if (k === 'algorithm' || CONTROLLED_KEYS.includes(k)) continue;
    const c = control.get(k) ?? null;
    if (!jsonEqual(v, c)) out.set(k, { run: v, control: c });
  }
  return out;
}

const THIN = tables.presets.filter((p) => p.name.startsWith('thin-')).map((p) => p.name);

/** The bases a comparison can run on: the default page, each thin preset as loaded, and a
 *  thin preset whose initial window was moved to the profiles' 10; each with a reserved
 *  rate, which BR-TCP needs to run at all. */
function bases(): [string, Scenario][] {
  const out: [string, Scenario][] = [['default', defaultScenario()]];
  for (const name of THIN) {
    const preset = tables.presets.find((p) => p.name === name);
    if (preset) out.push([name, presetBase(preset.scenario).base]);
  }
  const first = out[1]?.[1];
  if (first) out.push(['thin, IW 10', setAt(first, 'flows[0].tcp.initial_window', 10)]);
  return out.map(([where, s]) => [where, setAt(s, 'flows[0].reserved_bandwidth', 1e6)]);
}

describe('the settings an algorithm brings with it', () => {
  it('are exactly where the engine’s run differs from the controls, with both values', () => {
    expect(THIN.length).toBeGreaterThanOrEqual(5);
    for (const [where, base] of bases()) {
      for (const name of ALGORITHM_NAMES) {
        const listed = runOverrides(base, name);
        const engine = engineDifferences(base, name);
        expect(listed.map((o) => o.key).sort(), `${name} on ${where}`).toEqual([...engine.keys()].sort());
        for (const o of listed) {
          expect(o.own, `${name} ${o.key} on ${where}`).toEqual(engine.get(o.key)?.run);
          expect(o.control, `${name} ${o.key} on ${where}`).toEqual(engine.get(o.key)?.control);
        }
      }
    }
  });

  it('are none for custom and for the entries that set only what the algorithm choice owns', () => {
    const base = defaultScenario();
    expect(runOverrides(base, CUSTOM)).toEqual([]);
    for (const e of CATALOGUE) {
      const beyond = Object.keys(e.settings).some((k) => !CONTROLLED_KEYS.includes(k));
      if (!beyond) expect(runOverrides(base, e.name), e.name).toEqual([]);
    }
  });

  it('on the default page: a profile’s initial window, RTOs and delayed ACK, in the schema’s words and units', () => {
    const base = defaultScenario();
    const linux = runOverrides(base, 'linux_3_15');
    const text = linux.map(overrideText);
    expect(text).toContain('Initial window 10 segments (controls: 2 segments)');
    expect(text).toContain('Minimum RTO 200 ms (controls: 1000 ms)');
    expect(text).toContain('Delayed ACK on (controls: off)');
    expect(text).toContain('Delayed-ACK timeout 40 ms (controls: 200 ms)');
    expect(text).toContain('cwnd units Segments (controls: Bytes)');
    // Nagle is off in the profile and in the controls: not listed.
    expect(linux.map((o) => o.key)).not.toContain('tcp.nagle');
    // The two Linux profiles bring the same values: one sentence for both.
    const { groups, plain } = overrideGroups(base, ['newreno', 'freebsd_10', 'linux_3_18', 'linux_3_15']);
    expect(groups.map((g) => g.names)).toEqual([['linux_3_15', 'linux_3_18'], ['freebsd_10']]);
    expect(plain).toEqual(['newreno']);
    expect(groupText(groups[0]!)).toMatch(
      /^Linux 3\.15-like and Linux 3\.18-like run with their own Initial window 10 segments \(controls: 2 segments\), /,
    );
    expect(groupText(groups[1]!)).toMatch(/^FreeBSD 10-like runs with its own .*Initial RTO 3 s \(controls: 1 s\)/);
  });

  it('on a thin preset: the controls hold the schema’s values, not Linux 3.15’s, so every profile lists its own — until a control moves', () => {
    // The comparison base renames flow 0 to NewReno as the engine does, clearing Linux
    // 3.15's settings (`scenario::runs::run_value`): the base is NewReno, not a changed
    // Linux 3.15 (which the engine would name custom).
    const preset = tables.presets.find((p) => p.name === 'thin-20b-10ms');
    if (!preset) throw new Error('no thin-20b-10ms preset');
    const { base } = presetBase(preset.scenario);
    const all = ['linux_3_15', 'linux_3_18', 'freebsd_10'];
    const { groups, plain } = overrideGroups(base, all);
    expect(plain).toEqual([]);
    expect(groups.map((g) => g.names)).toEqual([['linux_3_15', 'linux_3_18'], ['freebsd_10']]);
    expect(groups[0]?.overrides.map(overrideText)).toEqual(
      expect.arrayContaining([
        'Initial window 10 segments (controls: 2 segments)',
        'Minimum RTO 200 ms (controls: 1000 ms)',
      ]),
    );
    expect(groups[1]?.overrides.map(overrideText)).toEqual(
      expect.arrayContaining(['Initial window 10 segments (controls: 2 segments)', 'Initial RTO 3 s (controls: 1 s)']),
    );
    // The initial window moved to the profiles' 10: no group lists it any more.
    const moved = overrideGroups(setAt(base, 'flows[0].tcp.initial_window', 10), all);
    expect(moved.groups.map((g) => g.names)).toEqual([['linux_3_15', 'linux_3_18'], ['freebsd_10']]);
    for (const g of moved.groups) expect(g.overrides.map((o) => o.key)).not.toContain('tcp.initial_window');
  });
});
