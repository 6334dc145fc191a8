// Jain's index, flow activity, each class's share of the bottleneck and the per-flow bin sums
// of a competition, against definitions and against the engine's own tables and summary.
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../engine/protocol';
import type { Scenario } from '../engine/tables';
import { flowKey } from '../scenario/competition';
import { setAt } from '../scenario/paths';
import { encodeShareState, decodeShareState } from '../scenario/url';
import { shareStateOf } from '../state/urlSync';
import { createHarness } from '../test/appHarness';
import { waitFor } from '../test/inProcessWorker';
import { engineThroughput, throughputTrace } from '../test/traces';
import { realValidator } from '../test/wasm';
import {
  activeIn,
  bandwidthSteps,
  capacityBytes,
  flowSpans,
  jainInBin,
  jainIndex,
  packetBins,
  retransmittedFraction,
  retransmittedFractions,
  runJainIndex,
  shareOfCapacity,
} from './competitionBins';
import { binnedThroughput, coveredUntil, ThroughputBins } from './throughputBins';

/** A competition scenario as a link gives it (validated by the engine). */
function competition(query: string): Scenario {
  return decodeShareState(query, realValidator()).state.scenario;
}

describe('Jain’s fairness index', () => {
  it('is 1 for equal shares and 1/n when one of n flows takes everything', () => {
    expect(jainIndex([5, 5, 5, 5])).toBeCloseTo(1, 12);
    expect(jainIndex([0.1, 0.1, 0.1])).toBeCloseTo(1, 12);
    expect(jainIndex([10, 0, 0, 0])).toBe(0.25);
    expect(jainIndex([7, 0])).toBe(0.5);
    // (1 + 2 + 3)² / (3 · (1 + 4 + 9)) = 36 / 42.
    expect(jainIndex([1, 2, 3])).toBeCloseTo(36 / 42, 12);
    // Scale does not matter.
    expect(jainIndex([2, 4, 6])).toBeCloseTo(jainIndex([1, 2, 3]), 12);
  });

  it('defines the edge cases: one flow 1, no flows and no bytes NaN, bad amounts NaN', () => {
    expect(jainIndex([3])).toBe(1);
    expect(jainIndex([])).toBeNaN();
    expect(jainIndex([0, 0, 0])).toBeNaN();
    expect(jainIndex([1, -1])).toBeNaN();
    expect(jainIndex([1, NaN])).toBeNaN();
    expect(jainIndex([1, Infinity])).toBeNaN();
  });

  it('per bin counts only the flows active in that bin, with the bytes they moved there', () => {
    // Three flows, 1 s bins (engine bins of 1 s, k = 1): flow 2 starts at 5 s, flow 1 has
    // finished by 3 s.
    const bins = new ThroughputBins(1, 1, 3);
    const t = [0, 0, 1, 1, 5, 5, 5];
    const cls = [0, 1, 0, 1, 0, 1, 2];
    const bytes = [100, 100, 300, 100, 200, 0, 200];
    bins.add(t, cls, bytes, t.length);
    const spans = [
      { start: 0, end: Infinity },
      { start: 0, end: 3 },
      { start: 5, end: Infinity },
    ];
    expect(activeIn(spans[2] ?? { start: 0, end: 0 }, 4, 5)).toBe(false);
    expect(activeIn(spans[2] ?? { start: 0, end: 0 }, 5, 6)).toBe(true);
    expect(jainInBin(bins, [0, 1, 2], spans, 0)).toBe(1);
    expect(jainInBin(bins, [0, 1, 2], spans, 1)).toBeCloseTo(jainIndex([300, 100]), 12);
    // Flow 1 has completed: flows 0 and 2 share equally.
    expect(jainInBin(bins, [0, 1, 2], spans, 5)).toBe(1);
    // A bin in which the active flows moved nothing has no index.
    expect(jainInBin(bins, [0, 1, 2], spans, 3)).toBeNaN();
  });
});

describe('the bottleneck’s capacity and each class’s share of it', () => {
  it('integrates the bandwidth over time, timeline changes included', () => {
    const s = setAt({ network: { bottleneck: { bandwidth: 1e6 } }, timeline: [] }, 'timeline', [
      { at: 2, set: 'network.bottleneck.bandwidth', value: 4e6 },
    ]);
    const steps = bandwidthSteps(s);
    expect(steps).toEqual([
      [0, 1e6],
      [2, 4e6],
    ]);
    expect(capacityBytes(steps, 0, 1)).toBe(125000);
    expect(capacityBytes(steps, 1, 3)).toBe((1e6 + 4e6) / 8);
  });

  it('adds up, over the classes, to the link’s use: at most the capacity, near all of it for bulk flows', () => {
    const scenario = competition('?v=3&mode=compete&flows=3&duration=20&f1.start=2&f2.algorithm=reno&f2.start=4');
    const e = engineThroughput(scenario);
    const trace = throughputTrace(e);
    const bins = binnedThroughput(trace, 1, 'bottleneck');
    const covered = coveredUntil(trace, 20);
    const steps = bandwidthSteps(scenario);
    const packet = 1500 / capacityBytes(steps, 0, 1);
    let total = 0;
    for (let j = 0; j < bins.bins; j += 1) {
      let used = 0;
      for (let c = 0; c < 3; c += 1) used += shareOfCapacity(bins, c, j, covered, steps);
      // At most the capacity, give or take a packet at the bin's edges.
      expect(used).toBeLessThanOrEqual(1 + packet + 1e-12);
      total += used;
    }
    // Three bulk flows keep a 2 Mbit/s link busy after the first seconds.
    expect(total / bins.bins).toBeGreaterThan(0.85);
    // A bin the data does not cover has no share.
    expect(shareOfCapacity(bins, 0, bins.bins + 3, covered, steps)).toBeNaN();
  });
});

describe('per-flow sums of a competition', () => {
  it('each flow’s bins add up to what the engine says it delivered', () => {
    const scenario = competition('?v=3&mode=compete&flows=4&duration=15&f1.algorithm=reno&f2.start=3&f3.start=6');
    const e = engineThroughput(scenario);
    const trace = throughputTrace(e, 5);
    for (const width of [0.01, 1, 3, 5]) {
      const bins = binnedThroughput(trace, width, 'delivered');
      e.summary.flows.forEach((f, i) => expect(bins.total(i)).toBe(f.delivered_bytes));
    }
    // The spans: starts from the scenario, no end for unbounded bulk flows.
    expect(flowSpans(scenario, e.summary)).toEqual([
      { start: 0, end: Infinity },
      { start: 0, end: Infinity },
      { start: 3, end: Infinity },
      { start: 6, end: Infinity },
    ]);
  });

  it('data packets and retransmissions per bin add up to the engine’s counts; fractions are theirs', async () => {
    const h = createHarness(
      '?v=3&mode=compete&flows=3&duration=10&f1.algorithm=old_tahoe&f2.algorithm=reno&f2.start=1',
    );
    try {
      h.controller.runFull();
      await waitFor(h.allDone);
      const summary = h.store.getState().runs.flow0?.summary as RunSummary;
      for (let i = 0; i < 3; i += 1) {
        const trace = h.traces.get(flowKey(i));
        if (!trace) throw new Error('no trace');
        const b = packetBins(trace, 1);
        let sent = 0;
        let retx = 0;
        for (let j = 0; j < b.bins; j += 1) {
          sent += b.sentAt(j);
          retx += b.retxAt(j);
          expect(b.retxAt(j)).toBeLessThanOrEqual(b.sentAt(j));
        }
        expect(sent).toBe(summary.flows[i]?.data_packets_sent);
        expect(retx).toBe(summary.flows[i]?.retransmits);
      }
      const fr = retransmittedFractions(summary);
      const retxAll = summary.flows.reduce((a, f) => a + f.retransmits, 0);
      const sentAll = summary.flows.reduce((a, f) => a + f.data_packets_sent, 0);
      expect(fr.total).toBe(retxAll / sentAll);
      // The engine's own fraction per flow, when its summary has one, is the same.
      summary.flows.forEach((f, i) => {
        const own = (f as { retransmit_fraction?: number }).retransmit_fraction;
        if (own !== undefined && f.data_packets_sent > 0) expect(fr.flows[i]).toBeCloseTo(own, 12);
      });
      expect(fr.flows[1]).toBe((summary.flows[1]?.retransmits ?? 0) / (summary.flows[1]?.data_packets_sent ?? 1));
      expect(retransmittedFraction(0, 0)).toBeNaN();
      // The link reproduces it (a competition link names every flow).
      const link = encodeShareState(shareStateOf(h.store.getState()));
      expect(link).toMatch(/mode=compete&flows=3&.*f1\.algorithm=old_tahoe.*f2\.algorithm=reno/);
    } finally {
      h.dispose();
    }
  });

  it('identical flows started together share almost equally: the run’s index is near 1', () => {
    const scenario = competition('?v=3&mode=compete&flows=4&duration=30');
    const e = engineThroughput(scenario);
    expect(runJainIndex(scenario, e.summary)).toBeGreaterThan(0.98);
    // The engine's index is the one shown (null: nothing delivered).
    expect(runJainIndex(scenario, { ...e.summary, jain_index: 0.5 })).toBe(0.5);
    expect(runJainIndex(scenario, { ...e.summary, jain_index: null })).toBeNaN();
    // Staggered starts and finite transfers do not count as unfairness: the engine's index
    // is Jain's over each flow's goodput over its own active time.
    const staggered = competition(
      '?v=3&mode=compete&flows=3&duration=30&f0.app.bytes=300000&f1.start=3&f2.start=6&f2.algorithm=reno',
    );
    const s = engineThroughput(staggered).summary;
    expect(runJainIndex(staggered, s)).toBeCloseTo(jainIndex(s.flows.map((f) => f.transfer_goodput_bps)), 12);
  });
});
