// The controller's view of the engine's checks: validations kept by JSON (the oldest
// dropped past VALIDATIONS_KEPT), and a refused live change named by its parameter.
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../engine/tables';
import { KeptValidations, liveCheck, refusalNotices, VALIDATIONS_KEPT } from './engineChecks';

describe('engine checks', () => {
  it('validates a JSON once while it is among the last VALIDATIONS_KEPT', () => {
    const asked: string[] = [];
    const kept = new KeptValidations((json) => {
      asked.push(json);
      return { ok: true, scenario: JSON.parse(json) as Scenario };
    });
    for (let i = 0; i <= VALIDATIONS_KEPT; i++) kept.get(`{"seed":${i}}`);
    kept.get('{"seed":8}');
    kept.get('{"seed":1}');
    expect(asked).toHaveLength(VALIDATIONS_KEPT + 1);
    kept.get('{"seed":0}'); // dropped when the ninth came
    expect(asked.at(-1)).toBe('{"seed":0}');
  });

  it('words a refusal with the engine’s text, a live entry’s problem about its parameter', () => {
    const scenario = { timeline: [{ at: 1, set: 'network.bottleneck.delay', value: 0.1 }] } as unknown as Scenario;
    const check = liveCheck(scenario, [['network.bottleneck.bandwidth', 5]]);
    expect(JSON.parse(check.json).timeline).toEqual([
      { at: 1, set: 'network.bottleneck.delay', value: 0.1 },
      { at: 0, set: 'network.bottleneck.bandwidth', value: 5 },
    ]);
    const problems = [
      { path: 'timeline[1].value', message: 'out of range', text: 'bandwidth = 5 bit/s is out of range' },
      { path: 'timeline[0].value', message: 'x', text: 'an older entry' },
    ];
    expect(check.notices(problems)).toEqual([
      { key: 'network.bottleneck.bandwidth', message: 'Not applied: bandwidth = 5 bit/s is out of range' },
      { key: 'timeline[0].value', message: 'Not applied: an older entry' },
    ]);
    expect(refusalNotices([problems[1]!])).toEqual([
      { key: 'timeline[0].value', message: 'Not applied: an older entry' },
    ]);
  });
});
