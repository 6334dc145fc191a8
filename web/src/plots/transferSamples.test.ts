// The transfers view reads the engine's summary: which summary holds a run's flow, its
// transfers and ping sources, and the sorted completion times the CDF draws; checked on a
// real run of the engine, whose summary's own percentiles the sorted times must give.
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../engine/protocol';
import { PING_SUMMARY_FIELDS, TRANSFER_SUMMARY_COLUMNS } from '../engine/pkg/vocabulary';
import type { RunInfo } from '../state/types';
import { engineWasm } from '../test/wasm';
import { nearestRank } from './thinSamples';
import { pingsOf, sortedTimes, summaryOfKey, transfersOf } from './transferSamples';

const scenario = {
  duration: 6,
  seed: 3,
  network: { bottleneck: { bandwidth: 2_000_000, delay: 0.02, queue_packets: 30 } },
  flows: [{ algorithm: 'newreno', app: { kind: 'transfers', write_size: 30_000, write_interval: 0.4 } }],
  cross: [{ kind: 'ping', packet_size: 64, interval: 0.05 }],
};

function summaryOf(json: object): RunSummary {
  const sim = new (engineWasm().Sim)(JSON.stringify(json));
  sim.run_to_end();
  const summary = JSON.parse(sim.summary_json()) as RunSummary;
  sim.free();
  return summary;
}

const done = (summary: RunSummary): RunInfo => ({ status: 'done', now: 6, summary, previous: null, error: null });

describe('transfer samples', () => {
  const summary = summaryOf(scenario);

  it('reads a comparison run by its key and a competition flow from flow 0 key', () => {
    const runs = { newreno: done(summary), flow0: done(summary) };
    expect(summaryOfKey({ runs }, 'newreno')).toEqual({ summary, flow: 0 });
    expect(summaryOfKey({ runs }, 'flow1')).toEqual({ summary, flow: 1 });
    expect(transfersOf({ runs }, 'cubic')).toBeNull();
  });

  it('the sorted times give the engine summary count and percentiles', () => {
    const t = transfersOf({ runs: { newreno: done(summary) } }, 'newreno');
    expect(t).not.toBeNull();
    if (!t) return;
    // Drawn transfers of 30 kB, about one per 0.4 s for 6 s: several complete.
    expect(t.completed).toBeGreaterThan(3);
    const sorted = sortedTimes(t);
    expect(sorted.length).toBe(t.completed);
    expect(nearestRank(sorted, 50)).toBe(t.p50_s);
    expect(nearestRank(sorted, 90)).toBe(t.p90_s);
    expect(nearestRank(sorted, 99)).toBe(t.p99_s);
    for (let i = 1; i < sorted.length; i += 1) expect(sorted[i]).toBeGreaterThanOrEqual(sorted[i - 1] ?? 0);
    // Cached per summary.
    expect(sortedTimes(t)).toBe(sorted);
    expect(sortedTimes(null).length).toBe(0);
  });

  it('names the columns by the engine and finds each field in its summary', () => {
    const t = transfersOf({ runs: { newreno: done(summary) } }, 'newreno') as unknown as Record<string, unknown>;
    expect(TRANSFER_SUMMARY_COLUMNS.map(([c]) => c)).toContain('transfer_p90_s');
    for (const [, field] of TRANSFER_SUMMARY_COLUMNS) expect(t, field).toHaveProperty(field);
    const pings = pingsOf({ runs: { newreno: done(summary) } }, 'newreno');
    expect(pings.map((p) => p.source)).toEqual([0]);
    for (const f of PING_SUMMARY_FIELDS) expect(pings[0]?.ping, f).toHaveProperty(f);
    // A 64 B probe across a 20 ms path and back: at least the 40 ms of propagation.
    expect(pings[0]?.ping.p50_s ?? 0).toBeGreaterThan(0.04);
  });
});
