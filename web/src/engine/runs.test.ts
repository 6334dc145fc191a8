import { describe, expect, it } from 'vitest';
import { CATALOGUE, CUSTOM, presetBase, runScenario } from '../scenario/algorithms';
import { setAt } from '../scenario/paths';
import { engineWasm } from '../test/wasm';
import { simFactory } from './runs';
import { tables, type Scenario } from './tables';

const wasm = engineWasm();

/** The run's scenario as the engine reads it, or the engine's reason for refusing it. */
function read(make: () => InstanceType<typeof wasm.Sim>): string {
  try {
    const sim = make();
    const json = sim.scenario_json();
    sim.free();
    return json;
  } catch (e) {
    return `refused: ${e instanceof Error ? e.message : String(e)}`;
  }
}

describe('runs made in the engine from a comparison scenario read once', () => {
  // Bases: every preset as it is and as the page compares it, and a custom flow 0.
  const bases: [string, Scenario][] = tables.presets.flatMap((p) => [
    [p.name, p.scenario],
    [`${p.name} (base)`, presetBase(p.scenario).base],
  ]);
  bases.push([
    'custom flow',
    setAt(setAt(tables.defaultScenario, 'flows[0].cc.controller', 'bbr'), 'flows[0].variant', 'reno'),
  ]);

  it('are the runs the page made with runScenario, for every catalogue entry on every base', () => {
    let compared = 0;
    for (const [name, base] of bases) {
      const json = JSON.stringify(base);
      const runs = new wasm.Runs(json);
      for (const entry of [...CATALOGUE.map((e) => e.name), CUSTOM]) {
        const want = read(() => new wasm.Sim(JSON.stringify(runScenario(base, entry))));
        const got = read(() => runs.sim(entry));
        expect(got, `${entry} on ${name}`).toBe(want);
        compared += 1;
      }
      runs.free();
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('a factory reads each comparison scenario once and frees the oldest beyond its limit', () => {
    const made: string[] = [];
    const freed: string[] = [];
    class Runs {
      constructor(private readonly json: string) {
        made.push(json);
      }
      sim(algorithm?: string | null) {
        return `${this.json}|${algorithm ?? ''}`;
      }
      free() {
        freed.push(this.json);
      }
    }
    class Sim {
      constructor(readonly json: string) {}
    }
    const create = simFactory<unknown>({ Sim: Sim as never, Runs }, 2);
    expect(create('a', 'reno')).toBe('a|reno');
    expect(create('a', 'tahoe')).toBe('a|tahoe');
    create('b', 'reno');
    create('a', 'reno');
    create('c', 'reno');
    expect(made).toEqual(['a', 'b', 'c']);
    // 'a' was used after 'b': 'b' is the oldest.
    expect(freed).toEqual(['b']);
    expect(create('x')).toBeInstanceOf(Sim);
    expect(made).toEqual(['a', 'b', 'c']);
  });
});
