// The throughput plot's bins against the engine's own table and summary: plotted bins are
// exact sums of whole engine bins, whatever the width, however the rows arrive.
import { describe, expect, it } from 'vitest';
import { engineThroughput, presetScenario, throughputTrace } from '../test/traces';
import {
  autoBinWidth,
  binChoices,
  binFactor,
  binnedThroughput,
  coveredUntil,
  isWholeBins,
  ThroughputBins,
} from './throughputBins';

/** The engine's throughput table for a preset (duration changed if given, stopped early if asked). */
function engineTable(preset: string, duration?: number, stopAt?: number) {
  return engineThroughput(presetScenario(preset, duration === undefined ? {} : { duration }), stopAt);
}

const traceOf = throughputTrace;

/** The reference: engine rows summed by plotted bin, the slow way. */
function naive(e: ReturnType<typeof engineTable>, k: number, col: Float64Array) {
  const out = new Map<string, number>();
  for (let i = 0; i < e.n; i += 1) {
    const j = Math.floor(Math.round((e.t[i] ?? 0) / e.bin) / k);
    const key = `${e.cls[i]}|${j}`;
    out.set(key, (out.get(key) ?? 0) + (col[i] ?? 0));
  }
  return out;
}

describe('the throughput bins', () => {
  const komuro = engineTable('br-tcp-komuro');

  it.each([1, 10, 100, 500])('%i engine bins per plotted bin: every bin is the exact sum of its engine bins', (k) => {
    const trace = traceOf(komuro);
    for (const [column, col] of [
      ['delivered', komuro.delivered],
      ['bottleneck', komuro.bottleneck],
    ] as const) {
      const b = binnedThroughput(trace, k * komuro.bin, column);
      expect(b.k).toBe(k);
      const want = naive(komuro, k, col);
      for (let c = 0; c < komuro.classes.length; c += 1) {
        for (let j = 0; j < b.bins; j += 1) expect(b.at(c, j)).toBe(want.get(`${c}|${j}`) ?? 0);
      }
    }
  });

  it('adds up, at any width, to what the engine’s summary says each class delivered', () => {
    const trace = traceOf(komuro);
    const { flows, cross } = komuro.summary;
    expect(komuro.classes).toEqual(['flow 0', 'cross 0']);
    for (const k of [1, 7, 100, 3000]) {
      const b = binnedThroughput(trace, k * komuro.bin, 'delivered');
      expect(b.total(0)).toBe(flows[0]?.delivered_bytes);
      expect(b.total(1)).toBe(cross[0]?.delivered_bytes);
    }
    // The UDP source at 100 Mbit/s gets the 60 Mbit/s the reservation leaves it, every second.
    const b = binnedThroughput(trace, 1, 'delivered');
    for (let j = 1; j < b.bins; j += 1) expect(Math.abs(b.rate(1, j, komuro.now) / 60e6 - 1)).toBeLessThan(1e-3);
  });

  it('gives the same bins whether the rows arrive at once or in pieces (a run in progress)', () => {
    const whole = binnedThroughput(traceOf(komuro), 1, 'bottleneck');
    const pieces = traceOf(komuro, 7);
    // Read between appends too: the cache folds in only the new rows.
    const b = binnedThroughput(pieces, 1, 'bottleneck');
    expect(b.bins).toBe(whole.bins);
    for (let c = 0; c < 2; c += 1) for (let j = 0; j < b.bins; j += 1) expect(b.at(c, j)).toBe(whole.at(c, j));
    const incremental = new ThroughputBins(komuro.bin, 100, 2);
    for (let to = 0; to <= komuro.n; to += 333) incremental.add(komuro.t, komuro.cls, komuro.bottleneck, to);
    incremental.add(komuro.t, komuro.cls, komuro.bottleneck, komuro.n);
    for (let c = 0; c < 2; c += 1) {
      for (let j = 0; j < whole.bins; j += 1) expect(incremental.at(c, j)).toBe(whole.at(c, j));
    }
  });

  it('divides a partly covered last bin by the time it covers, not by its width', () => {
    // 3.005 s: the engine writes the open bin [3, 3.005) at the end.
    const e = engineTable('br-tcp-komuro', 3.005);
    const trace = traceOf(e);
    expect(coveredUntil(trace, 3.005)).toBe(3.005);
    const b = binnedThroughput(trace, 1, 'delivered');
    expect(b.bins).toBe(4);
    const lastBytes = b.at(1, 3);
    expect(lastBytes).toBeGreaterThan(0);
    expect(b.rate(1, 3, 3.005)).toBe((lastBytes * 8) / (3.005 - 3));
    expect(b.rate(1, 2, 3.005)).toBe(b.at(1, 2) * 8);
    expect(b.rate(1, 4, 3.005)).toBeNaN();
    // A run in progress covers the bins that have closed: up to the start of the open one.
    const live = engineTable('br-tcp-komuro', 30, 1.234);
    expect(coveredUntil(traceOf(live), 30)).toBeCloseTo(1.23, 12);
  });

  it('offers widths that are whole numbers of engine bins, and picks 1 s for runs of 10 s and more', () => {
    expect(binChoices(0.01)).toEqual([0.01, 0.1, 1, 3, 5]);
    expect(binChoices(0.05)).toEqual([0.05, 0.1, 1, 3, 5]);
    expect(binChoices(0.03)).toEqual([0.03, 3]);
    expect(binChoices(2)).toEqual([2]);
    expect(isWholeBins(0.01, 0.3)).toBe(true);
    expect(isWholeBins(0.01, 0.015)).toBe(false);
    expect(binFactor(0.01, 1)).toBe(100);
    expect(binFactor(0.01, 0.001)).toBe(1);
    expect(autoBinWidth(30, 0.01)).toBe(1);
    expect(autoBinWidth(10, 0.01)).toBe(1);
    expect(autoBinWidth(8, 0.01)).toBe(0.1);
    expect(autoBinWidth(0.5, 0.01)).toBe(0.01);
    expect(autoBinWidth(300, 0.03)).toBe(0.03);
  });
});
