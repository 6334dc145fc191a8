// Derived reads of the store that decide what the plots and the legend show.
import { describe, expect, it } from 'vitest';
import { setAt } from '../scenario/paths';
import { defaultShareState } from '../scenario/shareState';
import { selectSack } from './selectors';
import { createAppStore } from './store';

describe('selectSack', () => {
  it('is true when a compared run has SACK on, false otherwise', () => {
    const plain = createAppStore(defaultShareState());
    expect(selectSack(plain.getState())).toBe(false);
    // The algorithm choice owns SACK's settings (the engine's selector keys): a compared
    // run has SACK when its catalogue entry does, whatever the scenario's flow says.
    const scenario = setAt(defaultShareState().scenario, 'flows[0].sack.enabled', true);
    const owned = createAppStore({ ...defaultShareState(), scenario, algorithms: ['newreno'] });
    expect(selectSack(owned.getState())).toBe(false);
    const sack = createAppStore({ ...defaultShareState(), algorithms: ['newreno', 'newreno_sack'] });
    expect(selectSack(sack.getState())).toBe(true);
    // The same scenario object answers from the cache, and a change of it is seen.
    expect(selectSack(sack.getState())).toBe(true);
    sack.getState().setAlgorithms(['reno']);
    expect(selectSack(sack.getState())).toBe(false);
    // In competition mode a flow's own setting counts.
    const compete = createAppStore({ ...defaultShareState(), mode: 'compete', scenario });
    expect(selectSack(compete.getState())).toBe(true);
  });
});
