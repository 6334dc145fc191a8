import { describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import { setAt } from '../scenario/paths';
import { defaultScenario } from '../scenario/shareState';
import { placeholderLabel } from './PresetMenu';

describe('the preset menu without a preset', () => {
  it('names the default scenario as such, and any other as custom', () => {
    expect(placeholderLabel(false, defaultScenario())).toBe('Default scenario');
    const bw = tables.defaultScenario.network as { bottleneck: { bandwidth: number } };
    const changed = setAt(defaultScenario(), 'network.bottleneck.bandwidth', bw.bottleneck.bandwidth * 2);
    expect(placeholderLabel(false, changed)).toBe('Custom scenario');
    // Changed back: the default again.
    const back = setAt(changed, 'network.bottleneck.bandwidth', bw.bottleneck.bandwidth);
    expect(placeholderLabel(false, back)).toBe('Default scenario');
  });

  it('shows a dash while a preset is shown', () => {
    expect(placeholderLabel(true, defaultScenario())).toBe('—');
  });
});
