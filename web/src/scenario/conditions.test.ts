// The engine's conditions on settings (`applies_when` in its schema), as the page reads them.
import { describe, expect, it } from 'vitest';
import { appliesWith, settingsDependingOn, settingsUnder, specOf } from './params';

describe('settings that act only under a condition', () => {
  it('gives each application kind the fields the engine says it reads, in the engine order', () => {
    expect(settingsUnder('flows[].app.kind', 'bulk')).toEqual(['flows[].app.bytes']);
    expect(settingsUnder('flows[].app.kind', 'on_off')).toEqual([
      'flows[].app.write_size',
      'flows[].app.write_interval',
      'flows[].app.on',
      'flows[].app.off',
    ]);
    expect(settingsUnder('flows[].app.kind', 'scripted')).toEqual(['flows[].app.writes']);
    expect(settingsUnder('flows[].app.kind', 'poisson')).toEqual([
      'flows[].app.write_size',
      'flows[].app.write_interval',
    ]);
  });

  it('says a SACK setting acts only with SACK on, and a setting without a condition always', () => {
    expect(specOf('flows[0].sack.rack')?.applies_when).toEqual({ path: 'flows[].sack.enabled', values: [true] });
    expect(appliesWith('flows[0].sack.rack', true)).toBe(true);
    expect(appliesWith('flows[0].sack.rack', false)).toBe(false);
    expect(appliesWith('flows[0].sack.rack', undefined)).toBe(false);
    expect(appliesWith('flows[0].tcp.mss', undefined)).toBe(true);
    expect(settingsUnder('flows[].sack.enabled', true)).toHaveLength(6);
  });

  it('gives each queue discipline its own parameters, under either direction’s choice', () => {
    expect(settingsUnder('network.bottleneck.qdisc', 'codel')).toEqual([
      'network.bottleneck.codel.target',
      'network.bottleneck.codel.interval',
      'network.bottleneck.codel.mtu',
    ]);
    expect(settingsUnder('network.bottleneck.reverse_qdisc', 'codel')).toEqual(
      settingsUnder('network.bottleneck.qdisc', 'codel'),
    );
    expect(settingsUnder('network.bottleneck.qdisc', 'droptail')).toEqual([]);
    expect(settingsUnder('network.bottleneck.qdisc', 'step')).toEqual(['network.bottleneck.step.k']);
    const all = settingsDependingOn('network.bottleneck.qdisc');
    expect(all).toContain('network.bottleneck.red.min_th');
    expect(all.every((p) => p.startsWith('network.bottleneck.'))).toBe(true);
    expect(appliesWith('network.bottleneck.pie.target', 'pie')).toBe(true);
    expect(appliesWith('network.bottleneck.pie.target', 'red')).toBe(false);
  });
});
