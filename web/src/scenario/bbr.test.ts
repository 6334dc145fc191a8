import { describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import type { JsonValue } from '../lib/json';
import type { AlgorithmName } from './algorithms';
import { bbrKeys } from './bbr';
import { setAt } from './paths';

describe('bbrKeys', () => {
  const base = tables.defaultScenario;
  const algorithms: AlgorithmName[] = ['cubic', 'bbr'];

  it('names the runs that are BBR, and answers again when an input changes', () => {
    const first = bbrKeys('compare', algorithms, base);
    expect(first).toEqual(['bbr']);
    // The same three objects: the answer kept.
    expect(bbrKeys('compare', algorithms, base)).toBe(first);
    expect(bbrKeys('compare', ['cubic', 'newreno'], base)).toEqual([]);
    // A competition whose second flow runs BBR.
    const flow = (base.flows as JsonValue[])[0] ?? {};
    const two = setAt(setAt(base, 'flows', [flow, flow]), 'flows[1].cc.controller', 'bbr');
    expect(bbrKeys('compete', algorithms, two)).toEqual(['flow1']);
    expect(bbrKeys('compare', algorithms, base)).toEqual(['bbr']);
  });
});
