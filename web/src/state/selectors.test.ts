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
    const scenario = setAt(defaultShareState().scenario, 'flows[0].sack.enabled', true);
    const sack = createAppStore({ ...defaultShareState(), scenario });
    expect(selectSack(sack.getState())).toBe(true);
    // The same scenario object answers from the cache, and a change of it is seen.
    expect(selectSack(sack.getState())).toBe(true);
    sack.getState().setScenario(setAt(scenario, 'flows[0].sack.enabled', false));
    expect(selectSack(sack.getState())).toBe(false);
  });
});
