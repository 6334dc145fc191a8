// The thin-stream samples behind the CDFs: exact (every value, compared with slow
// references), the same read live or at the end, windowed as the caption says, and in
// agreement with the engine's summary percentiles.
import { describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import type { RunSummary } from '../engine/protocol';
import { cdfLevelAt } from '../test/canvas';
import { liveTrace, lossyThinScenario, thinScenario } from '../test/traces';
import { engineWasm } from '../test/wasm';
import { linearOf, mapLinear } from './core/decimate';
import { scaleLinear } from 'd3';
import {
  cdfAt,
  cdfPolyline,
  meanOf,
  mergeSorted,
  nearestRank,
  THIN_KINDS,
  thinSamples,
  windowSamples,
  type ThinSamples,
} from './thinSamples';

/** A small seeded generator (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random values with many ties (a thin stream's gaps are mostly equal). */
function sample(n: number, seed: number): Float64Array {
  const r = rng(seed);
  return Float64Array.from({ length: n }, () => (r() < 0.4 ? 0.01 : Math.round(r() * 2000) / 1e4));
}

const sortedOf = (v: ArrayLike<number>) => Float64Array.from(v).sort();

describe('exact empirical CDFs', () => {
  it('the share at or below x and the nearest-rank percentiles equal a slow count', () => {
    for (const [n, seed] of [
      [1, 1],
      [2, 2],
      [7, 3],
      [1000, 4],
      [1500, 5],
    ] as const) {
      const v = sample(n, seed);
      const sorted = sortedOf(v);
      const probes = [...v.slice(0, 200), -1, 0, 0.005, 0.01, 0.0100001, 0.1, 1, Infinity];
      for (const x of probes) {
        const slow = v.filter((y) => y <= x).length / n;
        expect(cdfAt(sorted, x), `n=${n} x=${x}`).toBe(slow);
      }
      for (const p of [1, 10, 50, 90, 99, 99.9, 100]) {
        // Nearest rank: the smallest value with at least p % of the sample at or below it.
        const slow = [...sorted].find((y) => v.filter((z) => z <= y).length >= (p / 100) * n);
        expect(nearestRank(sorted, p), `n=${n} p=${p}`).toBe(slow);
      }
    }
    expect(nearestRank(new Float64Array(0), 50)).toBeNaN();
    expect(cdfAt(new Float64Array(0), 1)).toBe(0);
  });

  it('merges sorted runs of values into one sorted array holding every value', () => {
    const a = sortedOf(sample(300, 7));
    const b = sortedOf(sample(211, 8));
    expect(Array.from(mergeSorted(a, b))).toEqual(Array.from(sortedOf([...a, ...b])));
    expect(mergeSorted(a, new Float64Array(0))).toBe(a);
  });

  it('draws the exact staircase when values are sparse; dense, at most two vertices per device column, every level within a pixel of exact', () => {
    const x = scaleLinear().domain([0, 0.2]).range([0, 400]);
    const y = scaleLinear().domain([0, 1]).range([100, 0]);
    const [xl, yl] = [linearOf(x), linearOf(y)];
    const sparse = Float64Array.from([0.02, 0.05, 0.05, 0.1]);
    const p = cdfPolyline(sparse, 1, xl, yl, 1, 400);
    const pts = Array.from({ length: p.n }, (_, i) => [p.xs[i], p.ys[i]]);
    expect(pts).toEqual([
      [0, 100],
      [40, 100],
      [40, 75],
      [100, 75],
      [100, 25],
      [200, 25],
      [200, 0],
      [400, 0],
    ]);
    for (const dpr of [1, 2]) {
      const dense = sortedOf(sample(20000, 9));
      const line = cdfPolyline(dense, 1, xl, yl, dpr, 400);
      // Columns 0 … 400·dpr (the largest value sits on the right edge), two vertices each,
      // plus the start and the end.
      expect(line.n).toBeLessThanOrEqual(2 * (400 * dpr + 1) + 2);
      const slack = 1 / dpr;
      for (let px = 0.5; px < 400; px += 3.7) {
        const v = x.invert(px);
        const lo = cdfAt(dense, x.invert(px - slack - 1e-9) - 1e-12);
        const hi = cdfAt(dense, x.invert(px + slack));
        const got = cdfLevelAt(line, px);
        expect(got, `x=${v}`).toBeGreaterThanOrEqual(lo - 1e-12);
        expect(got, `x=${v}`).toBeLessThanOrEqual(hi + 1e-12);
      }
    }
    // Values beyond the axis: the line leaves at the right edge at the level reached there.
    const cut = cdfPolyline(Float64Array.from([0.1, 0.5]), 1, xl, yl, 1, 400);
    expect(cut.xs[cut.n - 1]).toBe(402);
    expect(cut.ys[cut.n - 1]).toBe(mapLinear(yl, 0.5));
  });
});

/** The compared flow's data packets (time, payload) and write rows, straight from the engine. */
function engineRows(scenario: object) {
  const sim = new (engineWasm().Sim)(JSON.stringify(scenario));
  sim.run_to_end();
  const col = (name: string) => Array.from(sim.events_col(name, 0));
  const [t, flow, kind, len] = ['t', 'flow', 'kind', 'len'].map(col) as number[][];
  const data = new Set(['data_send', 'retransmit'].map((k) => tables.codes.events.indexOf(k)));
  const packets = (t ?? [])
    .map((ti, i) => ({ t: ti, len: len?.[i] ?? 0, ok: flow?.[i] === 0 && data.has(kind?.[i] ?? -1) }))
    .filter((p) => p.ok);
  const n = sim.writes_len(0);
  const w = sim.writes_cols(0, 0, 0xf);
  const writes = Array.from({ length: n }, (_, i) => ({
    t: w[i] ?? 0,
    sojourn: w[2 * n + i] ?? 0,
    latency: w[3 * n + i] ?? 0,
  }));
  const summary = JSON.parse(sim.summary_json()) as RunSummary;
  sim.free();
  return { packets, writes, summary };
}

/** The samples by a slow route: the packets in time order, each gap from the one before. */
function slowSamples(rows: ReturnType<typeof engineRows>, t0 = -Infinity, t1 = Infinity): ThinSamples {
  const ps = [...rows.packets].sort((a, b) => a.t - b.t);
  const payload: number[] = [];
  const itt: number[] = [];
  ps.forEach((p, i) => {
    if (p.t < t0 || p.t > t1) return;
    payload.push(p.len);
    const prev = ps[i - 1];
    if (prev) itt.push(p.t - prev.t);
  });
  const ws = rows.writes.filter((w) => w.t >= t0 && w.t <= t1);
  return {
    payload: sortedOf(payload),
    itt: sortedOf(itt),
    sojourn: sortedOf(ws.map((w) => w.sojourn)),
    latency: sortedOf(ws.map((w) => w.latency)),
  };
}

const plain = (s: ThinSamples) => Object.fromEntries(THIN_KINDS.map((k) => [k, Array.from(s[k])]));

const lossy = lossyThinScenario();
/** The same without loss (the e2e link's scenario): every write sent at once. */
const clean = thinScenario('newreno');

describe('thin-stream samples of a run', () => {
  it('hold every data packet’s payload and gap and every delivered write, the same read live as at the end', () => {
    const rows = engineRows(lossy);
    let reads = 0;
    // Read after every live step, as the page does while it plays.
    const { trace, chunks } = liveTrace(lossy, 0.37, (t) => {
      thinSamples(t, null);
      reads += 1;
    });
    expect(chunks).toBeGreaterThan(40);
    expect(reads).toBe(chunks);
    const whole = thinSamples(trace, null);
    expect(plain(whole)).toEqual(plain(slowSamples(rows)));
    // And the same as reading the finished trace in one go.
    expect(plain(whole)).toEqual(plain(windowSamples(trace, -Infinity, Infinity)));
    expect(whole.payload.length).toBe(rows.summary.flows[0]?.data_packets_sent);
    expect(whole.itt.length).toBe(whole.payload.length - 1);
    expect(whole.latency.length).toBe(trace.tables.writes.length);
    // Cached: the same arrays until the trace grows.
    expect(thinSamples(trace, null)).toBe(whole);
  });

  it('takes, in a time window, the packets sent and the writes made in it, each gap from the packet before', () => {
    const rows = engineRows(lossy);
    const { trace } = liveTrace(lossy, 1);
    for (const [a, b] of [
      [3, 5],
      [0, 0.5],
      [7.25, 7.3],
      [19.5, 20],
    ] as const) {
      const got = thinSamples(trace, [a, b]);
      expect(plain(got), `${a}–${b}`).toEqual(plain(slowSamples(rows, a, b)));
      expect(thinSamples(trace, [a, b])).toBe(got);
    }
    expect(thinSamples(trace, [3, 5]).payload.length).toBeGreaterThan(50);
  });

  it.each([
    { name: 'without loss', s: clean },
    { name: 'with 2 % loss', s: lossy },
  ])(
    'agrees with the engine’s summary $name: counts, mean payload, ITT and latency percentiles within 0.2 %',
    ({ s }) => {
      const { trace, summary } = liveTrace(s, 0.5);
      const f = summary.flows[0];
      if (!f) throw new Error('no flow');
      const x = thinSamples(trace, null);
      expect(x.payload.length).toBe(f.data_packets_sent);
      expect(meanOf(x.payload)).toBeCloseTo(f.mean_payload_bytes, 9);
      const within = (exact: number, engine: number | null) => {
        // The histogram's value is its bucket's lower bound: at most 1/512 below the exact one.
        expect(engine).not.toBeNull();
        expect(engine ?? NaN).toBeLessThanOrEqual(exact * (1 + 1e-12));
        expect(engine ?? NaN).toBeGreaterThanOrEqual(exact * (1 - 1 / 512) - 1e-12);
      };
      for (const p of [50, 90, 99] as const) {
        within(nearestRank(x.itt, p), f[`itt_p${p}_s`]);
        within(nearestRank(x.latency, p), f[`latency_p${p}_s`]);
      }
      // The summary's sojourn counts every write sent, the table only those delivered by the
      // end. Without loss every write leaves at once (sojourn 0), so they agree; otherwise the
      // writes sent but not delivered (at most writes − delivered) can only lift the summary's
      // percentile above the delivered writes' value that many ranks lower.
      const writes = f.writes ?? 0;
      const delivered = x.sojourn.length;
      expect(writes).toBeGreaterThanOrEqual(delivered);
      for (const p of [50, 90, 99] as const) {
        const engine = f[`sojourn_p${p}_s`] ?? NaN;
        if (x.sojourn[delivered - 1] === 0) within(nearestRank(x.sojourn, p), engine);
        let lo = Infinity;
        for (let sent = delivered; sent <= writes; sent += 1) {
          const rank = Math.ceil((p / 100) * sent);
          lo = Math.min(lo, x.sojourn[Math.max(0, rank - 1 - (sent - delivered))] ?? Infinity);
        }
        expect(engine).toBeGreaterThanOrEqual(lo * (1 - 1 / 512) - 1e-12);
      }
    },
  );
});
