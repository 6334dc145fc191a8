import { describe, expect, it } from 'vitest';
import { CATALOGUE, catalogueEntry, CUSTOM, presetBase, runScenario } from '../scenario/algorithms';
import { requireSpec } from '../scenario/params';
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
  // Custom flows that carry an algorithm's rules (whose runs take them off) or a profile's
  // settings (which stay), as a link or a scenario file makes them.
  const changed = (name: string, key: string, value: number): Scenario =>
    setAt(setAt(runScenario(tables.defaultScenario, name), `flows[0].${key}`, value), 'flows[0].algorithm', CUSTOM);
  const carrying: [string, Scenario][] = [
    ['CUBIC with C = 0.2', changed('cubic', 'cc.cubic_c', 0.2)],
    ['DCTCP with a gain of 1/32', changed('dctcp', 'dctcp.g_shift', 5)],
  ];
  // Linux's CUBIC today with another C carries CUBIC's rules (which its runs lose) but not
  // all of its own entry's (its C differs), so its runs keep Linux's sender settings
  // (HyStart++, the initial window, the timers) and the engine names them custom.
  const linuxToday = changed('cubic_linux_today', 'cc.cubic_c', 0.3);
  bases.push(
    ...carrying,
    ['Linux CUBIC today with C = 0.3', linuxToday],
    ['Linux 3.15 with a 300 ms minimum RTO', changed('linux_3_15', 'rto.min', 0.3)],
  );

  it('are the runs the page made with runScenario, for every catalogue entry on every base', () => {
    let compared = 0;
    for (const [name, base] of bases) {
      const json = JSON.stringify(base);
      const runs = new wasm.Runs(json);
      for (const entry of [...CATALOGUE.map((e) => e.name), CUSTOM]) {
        const want = read(() => new wasm.Sim(JSON.stringify(runScenario(base, entry))));
        const got = read(() => runs.sim(entry));
        expect(got, `${entry} on ${name}`).toBe(want);
        // Each entry's run is that entry, whatever algorithm's rules the base carried (BR-TCP
        // aside: the default path has no reservation, so the engine refuses it).
        if (carrying.some(([n]) => n === name) && entry !== CUSTOM && !got.startsWith('refused')) {
          expect(JSON.parse(got).flows[0].algorithm, `${entry} on ${name}`).toBe(entry);
        }
        if (base === linuxToday && entry !== CUSTOM && !got.startsWith('refused')) {
          const own = catalogueEntry(entry)?.settings['cc.congestion_avoidance'];
          const ca = (JSON.parse(got) as { flows: { cc: { congestion_avoidance: string } }[] }).flows[0]?.cc;
          expect(ca?.congestion_avoidance, `${entry} on ${name}`).toBe(
            own ?? requireSpec('flows[].cc.congestion_avoidance').default,
          );
        }
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
