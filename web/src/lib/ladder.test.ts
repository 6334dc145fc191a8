import { describe, expect, it } from 'vitest';
import { requireSpec } from '../scenario/params';
import { ladderFor, nearestStop } from './ladder';

describe('slider stops', () => {
  it.each([
    'network.bottleneck.bandwidth',
    'network.bottleneck.delay',
    'network.bottleneck.queue_packets',
    'network.bottleneck.loss.ber',
    'flows[].reserved_bandwidth',
    'flows[].app.write_size',
    'flows[].app.write_interval',
    'duration',
  ])('%s: ascending, in range, round, and the default is a stop', (path) => {
    const spec = requireSpec(path);
    const stops = ladderFor(spec);
    expect(stops.length).toBeGreaterThan(10);
    expect(stops.length).toBeLessThan(200);
    stops.forEach((s, i) => {
      if (i > 0) expect(s).toBeGreaterThan(stops[i - 1] ?? -Infinity);
      expect(s).toBeGreaterThanOrEqual(spec.min ?? 0);
      expect(s).toBeLessThanOrEqual(spec.max ?? Infinity);
      // Round decimals: at most two significant digits, no float noise (the default aside).
      if (s !== spec.default)
        expect(String(s)).toMatch(/^(0|[1-9]\d?0*|0\.0*[1-9]\d?|[1-9]\.\d|[1-9]e-\d+|[1-9]\.\de-\d+|1e\+?\d+)$/);
    });
    expect(stops[stops.length - 1]).toBe(spec.max);
    expect(stops).toContain(spec.default);
    if (spec.type === 'int') stops.forEach((s) => expect(Number.isInteger(s)).toBe(true));
  });

  it('BER spans 1e-9 to 1e-2 on a log scale, with 0 first', () => {
    const stops = ladderFor(requireSpec('network.bottleneck.loss.ber'));
    expect(stops[0]).toBe(0);
    expect(stops).toContain(1e-9);
    expect(stops).toContain(1e-7);
    expect(stops[stops.length - 1]).toBe(0.01);
  });

  it('finds the nearest stop on a log scale', () => {
    const stops = [0, 1, 2, 5, 10];
    expect(nearestStop(stops, 0)).toBe(0);
    expect(nearestStop(stops, 3)).toBe(2);
    expect(nearestStop(stops, 7.5)).toBe(4);
    expect(nearestStop(stops, 1000)).toBe(4);
  });
});
