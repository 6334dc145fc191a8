// Bounded recording through the worker (engine/core/src/bounded.rs): a long, fast run
// sends the page a reduced trace whose per-bucket envelope is the full run's, the same
// summary, every notable event, and, asked for a window, every row of that window.
import { describe, expect, it } from 'vitest';
import { engineWasm, realEngineApi } from '../test/wasm';
import { tables } from './tables';
import type { ExplainResult, FromWorker, RunSummary, TraceChunk } from './protocol';
import { TraceStore } from './traceStore';
import { createWorkerHandler } from './workerHandler';

type Chunk = Extract<FromWorker, { type: 'chunk' }>;

const wasm = engineWasm();

/** The default scenario at 100 Mbit/s for `duration` seconds (with random losses: every
 *  `lossy`-th packet on average). */
function fast(duration: number, lossy = 0): string {
  const s = structuredClone(tables.defaultScenario) as Record<string, unknown> & {
    network: { bottleneck: { bandwidth: number; loss: { model: string; probability: number } } };
  };
  s.duration = duration;
  s.network.bottleneck.bandwidth = 100_000_000;
  if (lossy > 0)
    s.network.bottleneck.loss = { ...s.network.bottleneck.loss, model: 'bernoulli', probability: 1 / lossy };
  return JSON.stringify(s);
}

async function until(cond: () => boolean, ms = 60_000) {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out waiting for the worker');
    await new Promise((r) => setTimeout(r, 1));
  }
}

const col = (chunks: TraceChunk[], table: keyof TraceChunk, c: string): number[] =>
  chunks.flatMap((k) => Array.from((k[table] as Record<string, Float64Array> | undefined)?.[c] ?? []));

/** Per bucket of `width` s from `from` on: [min, max] of `ys` at times `ts`. */
function envelope(ts: number[], ys: number[], from: number, width: number): Map<number, [number, number]> {
  const out = new Map<number, [number, number]>();
  ts.forEach((t, i) => {
    if (t < from) return;
    const b = Math.floor(t / width + 1e-9);
    const y = ys[i] ?? NaN;
    const e = out.get(b);
    out.set(b, e ? [Math.min(e[0], y), Math.max(e[1], y)] : [y, y]);
  });
  return out;
}

/** A direct full run of the engine: every row. */
function full(json: string) {
  const sim = new wasm.Sim(json);
  sim.run_to_end();
  const events = (kind: string) => {
    const code = tables.codes.events.indexOf(kind);
    const block = sim.events_select(0, 1 << code, 0, 0b1011); // t, flow, seq
    const n = block.length / 3;
    return { t: Array.from(block.subarray(0, n)), seq: Array.from(block.subarray(2 * n, 3 * n)) };
  };
  const out = {
    summary: JSON.parse(sim.summary_json()) as RunSummary,
    t: Array.from(sim.series_col(0, 't', 0)),
    cwnd: Array.from(sim.series_col(0, 'cwnd', 0)),
    flight: Array.from(sim.series_col(0, 'flight', 0)),
    qt: Array.from(sim.queue_col(0, 't', 0)),
    qbytes: Array.from(sim.queue_col(0, 'bytes', 0)),
    sends: events('data_send'),
    retx: events('retransmit'),
    acks: events('ack_received'),
    rows: sim.series_len(0) + sim.events_len() + sim.queue_len(0),
  };
  sim.free();
  return out;
}

describe('bounded recording in the worker', () => {
  it('sends a long, fast run reduced: the full run’s summary, per-bucket envelope and every retransmission; a window in full', async () => {
    const posted: { msg: FromWorker; transfer: Transferable[] }[] = [];
    const handler = createWorkerHandler(realEngineApi(), (msg, transfer) => posted.push({ msg, transfer }), {
      boundedBudgetRows: 5_000,
      boundedBuckets: 256,
      sliceMs: 1,
      eventsPerCheck: 500,
    });
    const json = fast(6, 2000);
    handler.handle({ type: 'run', gen: 1, mode: 'full', runs: [{ key: 'newreno', scenarioJson: json }] });
    const chunks = () => posted.map((p) => p.msg).filter((m): m is Chunk => m.type === 'chunk');
    await until(() => chunks().some((c) => c.finished));
    const got = chunks();
    const trace = got.map((c) => c.chunk);
    const last = got[got.length - 1];
    const want = full(json);

    expect(last?.summary).toEqual(want.summary);
    const reduced = last?.chunk.reduced;
    expect(reduced).toBeTruthy();
    if (!reduced) return;
    expect(reduced.width).toBeCloseTo(6 / 256, 9);
    expect(reduced.at).toBeGreaterThan(0);
    expect(reduced.at).toBeLessThan(6);

    // Far fewer rows than the full run.
    const rows = col(trace, 'series', 't').length + col(trace, 'queue', 't').length + col(trace, 'sends', 't').length;
    expect(rows * 4).toBeLessThan(want.rows);

    // Before the reduction began: every row.
    const st = col(trace, 'series', 't');
    const before = (ts: number[]) => ts.filter((t) => t < reduced.at).length;
    expect(before(st)).toBe(before(want.t));
    // After: the envelope of every bucket is the full run's (what min/max decimation draws).
    expect(envelope(st, col(trace, 'series', 'cwnd'), reduced.at, reduced.width)).toEqual(
      envelope(want.t, want.cwnd, reduced.at, reduced.width),
    );
    expect(envelope(st, col(trace, 'series', 'flight'), reduced.at, reduced.width)).toEqual(
      envelope(want.t, want.flight, reduced.at, reduced.width),
    );
    expect(envelope(col(trace, 'queue', 't'), col(trace, 'queue', 'bytes'), reduced.at, reduced.width)).toEqual(
      envelope(want.qt, want.qbytes, reduced.at, reduced.width),
    );
    expect(envelope(col(trace, 'sends', 't'), col(trace, 'sends', 'seq'), reduced.at, reduced.width)).toEqual(
      envelope(want.sends.t, want.sends.seq, reduced.at, reduced.width),
    );
    expect(envelope(col(trace, 'acks', 't'), col(trace, 'acks', 'seq'), reduced.at, reduced.width)).toEqual(
      envelope(want.acks.t, want.acks.seq, reduced.at, reduced.width),
    );
    expect(envelope(want.t, want.cwnd, reduced.at, reduced.width).size).toBeGreaterThan(50);
    // Retransmissions are notable: every one is kept.
    expect(want.retx.t.length).toBeGreaterThan(0);
    expect(col(trace, 'retx', 't')).toEqual(want.retx.t);
    expect(col(trace, 'retx', 'seq')).toEqual(want.retx.seq);

    // The page's trace store keeps the reduction with the rows (what a notice reads).
    const store = new TraceStore();
    store.reset(['newreno']);
    for (const c of got) store.append(c.key, c.chunk, c.now, c.throughput, c.rounds ?? null);
    expect(store.get('newreno')?.reduced).toEqual(reduced);
    expect(store.get('newreno')?.tables.series.length).toBe(st.length);
    expect(Array.from(store.get('newreno')?.tables.sends.col('seq') ?? [])).toEqual(col(trace, 'sends', 'seq'));

    // A window, re-run: every row the full run has there.
    const from = 4.0;
    const to = 4.4;
    handler.handle({ type: 'explain', gen: 1, id: 7, query: { what: 'window', key: 'newreno', from, to } });
    const answer = () =>
      posted
        .map((p) => p.msg)
        .find((m): m is Extract<FromWorker, { type: 'explained' }> => m.type === 'explained' && m.id === 7);
    await until(() => answer() !== undefined);
    const result = answer()?.result as ExplainResult;
    expect(result.what).toBe('window');
    if (result.what !== 'window') return;
    const inside = (t: number) => t > from + 1e-6 && t < to - 1e-6;
    const w = [result.chunk];
    expect(col(w, 'sends', 't').every((t) => t >= from - 1e-6 && t <= to + 1e-6)).toBe(true);
    expect(col(w, 'sends', 't').filter(inside)).toEqual(want.sends.t.filter(inside));
    expect(col(w, 'series', 't').filter(inside)).toEqual(want.t.filter(inside));
    const cw = col(w, 'series', 'cwnd');
    expect(col(w, 'series', 't').flatMap((t, i) => (inside(t) ? [cw[i]] : []))).toEqual(
      want.t.flatMap((t, i) => (inside(t) ? [want.cwnd[i]] : [])),
    );
    expect(col(w, 'sends', 't').filter(inside).length).toBeGreaterThan(100);
    handler.dispose();
  }, 120_000);

  it('explains a long run up to its decision budget, and says how far', async () => {
    const posted: { msg: FromWorker; transfer: Transferable[] }[] = [];
    const handler = createWorkerHandler(realEngineApi(), (msg, transfer) => posted.push({ msg, transfer }), {
      explainBudget: 3_000,
    });
    handler.handle({ type: 'run', gen: 1, mode: 'full', runs: [{ key: 'newreno', scenarioJson: fast(10) }] });
    await until(() => posted.some((p) => p.msg.type === 'chunk' && p.msg.finished));
    handler.handle({ type: 'explain', gen: 1, id: 1, query: { what: 'index', key: 'newreno', from: 0 } });
    const answer = posted
      .map((p) => p.msg)
      .find((m): m is Extract<FromWorker, { type: 'explained' }> => m.type === 'explained' && m.id === 1);
    const result = answer?.result;
    expect(result?.what).toBe('index');
    if (result?.what !== 'index') return;
    // Stopped at the first slice that reached the budget: well before the end of the run.
    expect(result.end).toBeGreaterThanOrEqual(3_000);
    expect(result.end).toBeLessThan(3_000 + 20_000);
    expect(result.now).toBeGreaterThan(0);
    expect(result.now).toBeLessThan(10);
    handler.dispose();
  });

  it('keeps every row of a run below its budget', async () => {
    const posted: { msg: FromWorker; transfer: Transferable[] }[] = [];
    const handler = createWorkerHandler(realEngineApi(), (msg, transfer) => posted.push({ msg, transfer }));
    const json = fast(0.5);
    handler.handle({ type: 'run', gen: 1, mode: 'full', runs: [{ key: 'newreno', scenarioJson: json }] });
    const chunks = () => posted.map((p) => p.msg).filter((m): m is Chunk => m.type === 'chunk');
    await until(() => chunks().some((c) => c.finished));
    const trace = chunks().map((c) => c.chunk);
    const want = full(json);
    expect(trace.every((c) => c.reduced === null)).toBe(true);
    expect(col(trace, 'series', 'cwnd')).toEqual(want.cwnd);
    expect(col(trace, 'sends', 't')).toEqual(want.sends.t);
    handler.dispose();
  });
});
