// The worker protocol against the real engine (wasm in Node): what the page receives is the
// engine's own output, sliced however the worker slices it.
import { describe, expect, it } from 'vitest';
import { engineWasm, realEngineApi } from '../test/wasm';
import { tables } from './tables';
import { specSignature, TABLE_NAMES, type FromWorker, type RunSummary, type TraceChunk } from './protocol';
import { createWorkerHandler, kindMasks, type HandlerOptions } from './workerHandler';
import { EVENT_TABLE_KINDS } from './pkg/vocabulary';

type Posted = { msg: FromWorker; transfer: Transferable[] };

const wasm = engineWasm();
const scenarioOf = (variant: string, patch: (s: Record<string, unknown>) => void = () => {}) => {
  const s = structuredClone(tables.defaultScenario) as Record<string, unknown> & { flows: Record<string, unknown>[] };
  const flow = s.flows[0];
  if (flow) flow.variant = variant;
  patch(s);
  return JSON.stringify(s);
};

function harness(opts: HandlerOptions = {}) {
  const posted: Posted[] = [];
  const handler = createWorkerHandler(realEngineApi(), (msg, transfer) => posted.push({ msg, transfer }), {
    yieldToMessages: () => new Promise((r) => setTimeout(r, 0)),
    ...opts,
  });
  return { handler, posted };
}

async function until(cond: () => boolean, ms = 20_000) {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out waiting for the worker');
    await new Promise((r) => setTimeout(r, 1));
  }
}

function chunksOf(posted: Posted[], key: string) {
  return posted
    .map((p) => p.msg)
    .filter((m): m is Extract<FromWorker, { type: 'chunk' }> => m.type === 'chunk' && m.key === key);
}

/** Concatenates one column over chunks. */
function concat(chunks: TraceChunk[], table: keyof TraceChunk, col: string): number[] {
  return chunks.flatMap((c) => Array.from((c[table] as Record<string, Float64Array>)[col] ?? []));
}

/** Runs a scenario straight through the engine (no worker) for comparison. */
function direct(json: string) {
  const sim = new wasm.Sim(json);
  sim.run_to_end();
  const out = {
    summary: JSON.parse(sim.summary_json()) as RunSummary,
    t: Array.from(sim.series_col(0, 't', 0)),
    cwnd: Array.from(sim.series_col(0, 'cwnd', 0)),
    queue: Array.from(sim.queue_col(0, 'packets', 0)),
  };
  sim.free();
  return out;
}

describe('the engine worker', () => {
  it('runs every algorithm of a comparison to the end and sends the engine’s own results', async () => {
    const { handler, posted } = harness();
    const runs = ['reno', 'newreno'].map((key) => ({ key, scenarioJson: scenarioOf(key) }));
    handler.handle({ type: 'run', gen: 1, mode: 'full', runs });
    await until(() => chunksOf(posted, 'newreno').some((c) => c.finished));
    for (const { key, scenarioJson } of runs) {
      const chunks = chunksOf(posted, key);
      const trace = chunks.map((c) => c.chunk);
      const last = chunks[chunks.length - 1];
      const want = direct(scenarioJson);
      expect(last?.finished).toBe(true);
      expect(last?.gen).toBe(1);
      expect(last?.summary).toEqual(want.summary);
      expect(concat(trace, 'series', 't')).toEqual(want.t);
      expect(concat(trace, 'series', 'cwnd')).toEqual(want.cwnd);
      expect(concat(trace, 'queue', 'packets')).toEqual(want.queue);
      // Every packet the sender sent is either a first transmission or a retransmission.
      const flow = want.summary.flows[0];
      const sends = concat(trace, 'sends', 't').length;
      const retx = concat(trace, 'retx', 't').length;
      expect(sends + retx).toBe(flow?.data_packets_sent);
      const drops = concat(trace, 'drops', 't').length;
      expect(drops).toBe((flow?.drops.queue ?? 0) + (flow?.drops.error ?? 0) + (flow?.drops.scripted ?? 0));
      const kinds = concat(trace, 'marks', 'kind');
      const timeoutCode = tables.codes.events.indexOf('timeout');
      expect(kinds.filter((k) => k === timeoutCode).length).toBe(flow?.timeouts);
    }
  });

  it('frees a finished run’s simulation once its last chunk is posted, and still explains it', async () => {
    const api = realEngineApi();
    const freed: string[] = [];
    const posted: Posted[] = [];
    const handler = createWorkerHandler(
      {
        ...api,
        createSim: (json) => {
          const sim = api.createSim(json);
          const free = sim.free.bind(sim);
          sim.free = () => {
            freed.push(json);
            free();
          };
          return sim;
        },
      },
      (msg, transfer) => posted.push({ msg, transfer }),
      { yieldToMessages: () => new Promise((r) => setTimeout(r, 0)) },
    );
    const runs = ['reno', 'newreno'].map((key) => ({ key, scenarioJson: scenarioOf(key) }));
    handler.handle({ type: 'run', gen: 1, mode: 'full', runs });
    await until(() => chunksOf(posted, 'reno').some((c) => c.finished));
    // The first run is freed when it finishes, before the second one is done.
    expect(freed).toContain(runs[0]?.scenarioJson);
    await until(() => chunksOf(posted, 'newreno').some((c) => c.finished));
    expect(freed.length).toBe(2);
    handler.handle({ type: 'explain', gen: 1, id: 3, query: { what: 'index', key: 'reno', from: 0 } });
    await until(() => posted.some((p) => p.msg.type === 'explained'));
    const answer = posted.find((p) => p.msg.type === 'explained')?.msg as Extract<FromWorker, { type: 'explained' }>;
    expect(answer.result).toMatchObject({ what: 'index', now: 20 });
  });

  it('keeps only the compared flow’s events when flows share the bottleneck', async () => {
    const { handler, posted } = harness();
    const json = scenarioOf('reno', (s) => {
      const flows = s.flows as Record<string, unknown>[];
      flows.push({ ...structuredClone(flows[0]), variant: 'newreno', start: 1 });
    });
    handler.handle({ type: 'run', gen: 1, mode: 'full', runs: [{ key: 'reno', scenarioJson: json }] });
    await until(() => chunksOf(posted, 'reno').some((c) => c.finished));
    const chunks = chunksOf(posted, 'reno');
    const trace = chunks.map((c) => c.chunk);
    const summary = chunks.at(-1)?.summary;
    expect(summary?.flows).toHaveLength(2);
    const [f0, f1] = summary?.flows ?? [];
    const sent = ['sends', 'retx'].reduce((n, table) => n + concat(trace, table as 'sends', 't').length, 0);
    expect(sent).toBe(f0?.data_packets_sent);
    expect(sent).not.toBe((f0?.data_packets_sent ?? 0) + (f1?.data_packets_sent ?? 0));
  });

  it('transfers every table as one engine-made buffer that its columns are views of', async () => {
    const { handler, posted } = harness();
    handler.handle({ type: 'run', gen: 1, mode: 'full', runs: [{ key: 'reno', scenarioJson: scenarioOf('reno') }] });
    await until(() => chunksOf(posted, 'reno').some((c) => c.finished));
    const { msg, transfer } = posted.find((p) => p.msg.type === 'chunk') as Posted;
    const chunk = (msg as Extract<FromWorker, { type: 'chunk' }>).chunk;
    // One buffer per table, each transferred once.
    expect(transfer).toHaveLength(TABLE_NAMES.length);
    expect(new Set(transfer).size).toBe(transfer.length);
    for (const t of TABLE_NAMES) {
      const cols = Object.values(chunk[t]) as Float64Array[];
      const buffers = new Set(cols.map((c) => c.buffer));
      expect(buffers.size, t).toBe(1);
      const [buffer] = [...buffers];
      expect(transfer).toContain(buffer);
      // The buffer is the table's own (not wasm memory): no bigger than its columns' block.
      const rows = cols[0]?.length ?? 0;
      expect(buffer?.byteLength ?? 0).toBeLessThanOrEqual(9 * 8 * rows);
      for (const c of cols) expect(c.length).toBe(rows);
    }
  });

  /** A CWV sender that is idle between transfers: the classroom preset's scenario (or a
   *  stand-in on/off sender when that preset is absent), with new CWV or CWV on flow 0. */
  const idleSender = (algorithm: string) => {
    const preset = tables.presets.find((p) => p.name === 'cwv-classroom-onoff')?.scenario;
    const s = structuredClone(preset ?? tables.defaultScenario) as Record<string, unknown> & {
      flows: (Record<string, unknown> & { cc?: Record<string, unknown> })[];
    };
    const flow = s.flows[0];
    if (flow) {
      // The entry's settings, as the engine applies them to a flow that does not set them.
      flow.algorithm = algorithm;
      delete flow.variant;
      delete flow.cc?.idle_policy;
      delete flow.cc?.growth_gate;
      if (!preset) flow.app = { kind: 'on_off', write_size: 100000, write_interval: 1.5, on: 1, off: 0.5 };
    }
    return JSON.stringify(s);
  };

  it.each([
    ['a bulk NewReno sender', scenarioOf('newreno', (s) => (s.duration = 30)), false],
    ['an on/off CWV sender', idleSender('newreno_cwv'), true],
    ['an on/off new CWV sender', idleSender('newreno_newcwv'), true],
  ])('splits the event log of %s into the same tables as the engine’s whole columns', async (_what, json, idle) => {
    const { handler, posted } = harness({ sliceMs: 0, progressMs: 0, eventsPerCheck: 200 });
    handler.handle({ type: 'run', gen: 1, mode: 'full', runs: [{ key: 'newreno', scenarioJson: json }] });
    await until(() => chunksOf(posted, 'newreno').some((c) => c.finished));
    const chunks = chunksOf(posted, 'newreno').map((c) => c.chunk);
    expect(chunks.length).toBeGreaterThan(5);
    const sim = new wasm.Sim(json);
    sim.run_to_end();
    const col = (name: string) => Array.from(sim.events_col(name, 0));
    const [t, flow, kind, seq, len, seg, tx] = ['t', 'flow', 'kind', 'seq', 'len', 'seg', 'tx'].map(col);
    const codes = tables.codes.events;
    const windowKinds = [
      'idle_decay',
      'app_limited_decay',
      'idle_restart',
      'nvp_enter',
      'nvp_exit',
      'nvp_expiry',
      'nvp_loss_response',
    ];
    const kinds: Record<string, string[]> = {
      sends: ['data_send'],
      retx: ['retransmit'],
      drops: ['queue_drop', 'error_drop', 'scripted_drop', 'ack_queue_drop', 'ack_error_drop'],
      acks: ['ack_received'],
      marks: ['fast_retransmit', 'partial_ack', 'timeout', 'recovery_exit', 'param_change', ...windowKinds],
    };
    const source: Record<string, number[] | undefined> = { t, kind, seq, len, seg, tx };
    for (const [table, names] of Object.entries(kinds)) {
      const wanted = new Set(names.map((n) => codes.indexOf(n)));
      const rows = (t ?? []).map((_, i) => i).filter((i) => flow?.[i] === 0 && wanted.has(kind?.[i] ?? -1));
      expect(rows.length, table).toBeGreaterThan(table === 'marks' || table === 'drops' || table === 'retx' ? 0 : 100);
      const tb = table as 'sends';
      for (const c of Object.keys(chunks[0]?.[tb] ?? {})) {
        expect(concat(chunks, tb, c), `${table}.${c}`).toEqual(rows.map((i) => source[c]?.[i]));
      }
    }
    // Window decays and phase changes are marks, with cwnd and ssthresh before and after.
    const windowCodes = new Set(windowKinds.map((n) => codes.indexOf(n)));
    const marked = concat(chunks, 'marks', 'kind').filter((k) => windowCodes.has(k)).length;
    if (idle) expect(marked).toBeGreaterThan(0);
    else expect(marked).toBe(0);
    // The window-validation series, whole, as the engine has it (none without an idle policy).
    const names = tables.codes.validation_columns;
    expect(sim.validation_len(0) > 0).toBe(idle);
    for (const c of ['t', 'w_used', 'pipeack', 'nvp']) {
      const i = names.indexOf(c);
      const whole = Array.from(sim.validation_cols(0, 0, 1 << i));
      expect(concat(chunks, 'validation', c), `validation.${c}`).toEqual(whole);
    }
    sim.free();
  });

  it('builds kind masks by adding 2 ** code, so kinds coded 32 and up select their own rows', () => {
    const codes = tables.codes.events;
    const masks = kindMasks(codes);
    const code = codes.indexOf('sack_block');
    expect(code).toBeGreaterThanOrEqual(32);
    expect(masks.sack_blocks).toBe(2 ** code);
    // A 32-bit shift would have wrapped it onto code - 32 (syn_send's bit, for code 32).
    expect(masks.sack_blocks % 2 ** 32).toBe(0);
    const lost = codes.indexOf('marked_lost');
    const probe = codes.indexOf('tail_loss_probe');
    expect(masks.loss_marks).toBe(2 ** lost + 2 ** probe);
    for (const [table, kinds] of Object.entries(EVENT_TABLE_KINDS)) {
      const want = kinds.reduce((m, k) => m + 2 ** codes.indexOf(k), 0);
      expect(masks[table as keyof typeof masks], table).toBe(want);
    }
  });

  it('sends a SACK flow’s blocks, loss marks and recovery series as the engine has them', async () => {
    const preset = tables.presets.find((p) => p.name === 'fall-floyd-newreno-3drops');
    if (!preset) throw new Error('preset');
    const s = structuredClone(preset.scenario) as { flows: { sack?: Record<string, unknown> }[] };
    for (const f of s.flows) f.sack = { enabled: true, rack: true, tlp: true };
    const json = JSON.stringify(s);
    const { handler, posted } = harness({ sliceMs: 0, progressMs: 0, eventsPerCheck: 200 });
    handler.handle({ type: 'run', gen: 1, mode: 'full', runs: [{ key: 'newreno', scenarioJson: json }] });
    await until(() => chunksOf(posted, 'newreno').some((c) => c.finished));
    const chunks = chunksOf(posted, 'newreno').map((c) => c.chunk);
    const sim = new wasm.Sim(json);
    sim.run_to_end();
    const codes = tables.codes.events;
    const kind = Array.from(sim.events_col('kind', 0));
    const seq = Array.from(sim.events_col('seq', 0));
    const blocks = kind.map((k, i) => [k, i] as const).filter(([k]) => k === codes.indexOf('sack_block'));
    expect(blocks.length).toBeGreaterThan(10);
    expect(concat(chunks, 'sack_blocks', 'seq')).toEqual(blocks.map(([, i]) => seq[i]));
    const lost = kind.filter((k) => k === codes.indexOf('marked_lost')).length;
    expect(lost).toBeGreaterThan(0);
    expect(concat(chunks, 'loss_marks', 'kind').filter((k) => k === codes.indexOf('marked_lost')).length).toBe(lost);
    const names = tables.codes.recovery_columns;
    expect(sim.recovery_len(0)).toBeGreaterThan(10);
    for (const c of ['t', 'pipe', 'sacked', 'recovery_point', 'reo_wnd', 'timer_at']) {
      const whole = Array.from(sim.recovery_cols(0, 0, 2 ** names.indexOf(c)));
      expect(concat(chunks, 'recovery', c), `recovery.${c}`).toEqual(whole);
    }
    sim.free();
  });

  it('gives the same trace whether a run is sliced into many chunks or not', async () => {
    const json = scenarioOf('newreno');
    const { handler, posted } = harness({ sliceMs: 0, progressMs: 0, eventsPerCheck: 500 });
    handler.handle({ type: 'run', gen: 3, mode: 'full', runs: [{ key: 'newreno', scenarioJson: json }] });
    await until(() => chunksOf(posted, 'newreno').some((c) => c.finished));
    const chunks = chunksOf(posted, 'newreno');
    expect(chunks.length).toBeGreaterThan(10);
    const want = direct(json);
    const trace = chunks.map((c) => c.chunk);
    expect(concat(trace, 'series', 'cwnd')).toEqual(want.cwnd);
    expect(chunks[chunks.length - 1]?.summary?.digest).toBe(want.summary.digest);
    // Progress is monotonic and reported as simulated time.
    const nows = chunks.map((c) => c.now);
    expect([...nows].sort((a, b) => a - b)).toEqual(nows);
  });

  it('sends the throughput table (every class) once, in order, with its bin and class names first', async () => {
    const preset = tables.presets.find((p) => p.name === 'br-tcp-komuro')?.scenario ?? tables.defaultScenario;
    const json = JSON.stringify({ ...preset, duration: 4 });
    const sim = new wasm.Sim(json);
    sim.run_to_end();
    const n = sim.throughput_len();
    const whole = Array.from(sim.throughput_cols(0, 0xf));
    const meta = { bin: sim.throughput_bin(), classes: JSON.parse(sim.throughput_classes()) as string[] };
    sim.free();
    expect(meta.classes).toEqual(['flow 0', 'cross 0']);
    // Full runs in many slices, and live steps: the same rows either way.
    const full = harness({ sliceMs: 0, progressMs: 0, eventsPerCheck: 3000 });
    full.handler.handle({ type: 'run', gen: 1, mode: 'full', runs: [{ key: 'br_tcp', scenarioJson: json }] });
    await until(() => chunksOf(full.posted, 'br_tcp').some((c) => c.finished));
    const live = harness();
    live.handler.handle({ type: 'run', gen: 1, mode: 'live', runs: [{ key: 'br_tcp', scenarioJson: json }] });
    while (!chunksOf(live.posted, 'br_tcp').some((c) => c.finished)) {
      live.handler.handle({ type: 'advance', gen: 1, dt: 0.137 });
    }
    for (const { posted } of [full, live]) {
      const chunks = chunksOf(posted, 'br_tcp');
      expect(chunks.length).toBeGreaterThan(5);
      expect(chunks[0]?.throughput).toEqual(meta);
      expect(chunks.slice(1).every((c) => c.throughput === null)).toBe(true);
      const trace = chunks.map((c) => c.chunk);
      const cols = tables.codes.throughput_columns;
      for (const [i, c] of cols.entries()) {
        expect(concat(trace, 'throughput', c), c).toEqual(whole.slice(i * n, (i + 1) * n));
      }
    }
  });

  it('sends a writing sender’s write table in order, full or live, as the engine has it; none for bulk', async () => {
    // 20-byte writes every 10 ms, 2 % loss: writes wait, are delivered late and in bursts.
    const json = scenarioOf('newreno', (s) => {
      const flow = (s.flows as Record<string, Record<string, unknown>>[])[0] ?? {};
      flow.app = { ...flow.app, kind: 'thin', write_size: 20, write_interval: 0.01 };
      flow.tcp = { ...flow.tcp, nagle: false };
      flow.cc = { ...flow.cc, units: 'segments' };
      const net = s.network as { bottleneck: Record<string, unknown> };
      net.bottleneck = { ...net.bottleneck, delay: 0.075, loss: { model: 'bernoulli', probability: 0.02 } };
      s.duration = 8;
    });
    const sim = new wasm.Sim(json);
    sim.run_to_end();
    const n = sim.writes_len(0);
    const whole = Array.from(sim.writes_cols(0, 0, 0xf));
    const writes = (JSON.parse(sim.summary_json()) as RunSummary).flows[0]?.writes;
    sim.free();
    expect(n).toBeGreaterThan(500);
    expect(writes).toBeGreaterThanOrEqual(n);
    const full = harness({ sliceMs: 0, progressMs: 0, eventsPerCheck: 200 });
    full.handler.handle({ type: 'run', gen: 1, mode: 'full', runs: [{ key: 'newreno', scenarioJson: json }] });
    await until(() => chunksOf(full.posted, 'newreno').some((c) => c.finished));
    const live = harness();
    live.handler.handle({ type: 'run', gen: 1, mode: 'live', runs: [{ key: 'newreno', scenarioJson: json }] });
    while (!chunksOf(live.posted, 'newreno').some((c) => c.finished)) {
      live.handler.handle({ type: 'advance', gen: 1, dt: 0.093 });
    }
    for (const { posted } of [full, live]) {
      const chunks = chunksOf(posted, 'newreno');
      expect(chunks.length).toBeGreaterThan(5);
      // Rows arrive as writes are delivered: spread over the chunks, not all at the end.
      expect(chunks.filter((c) => c.chunk.writes.t.length > 0).length).toBeGreaterThan(5);
      const trace = chunks.map((c) => c.chunk);
      for (const [i, c] of tables.codes.write_columns.entries()) {
        expect(concat(trace, 'writes', c), c).toEqual(whole.slice(i * n, (i + 1) * n));
      }
    }
    // A bulk sender has no writes: empty tables, and a null count in the summary.
    const bulk = harness();
    bulk.handler.handle({
      type: 'run',
      gen: 1,
      mode: 'full',
      runs: [{ key: 'reno', scenarioJson: scenarioOf('reno') }],
    });
    await until(() => chunksOf(bulk.posted, 'reno').some((c) => c.finished));
    const chunks = chunksOf(bulk.posted, 'reno');
    expect(
      concat(
        chunks.map((c) => c.chunk),
        'writes',
        't',
      ),
    ).toEqual([]);
    expect(chunks.at(-1)?.summary?.flows[0]?.writes).toBeNull();
  });

  it('runs only the newest of several queued requests (latest wins)', async () => {
    const { handler, posted } = harness();
    handler.handle({ type: 'run', gen: 1, mode: 'full', runs: [{ key: 'reno', scenarioJson: scenarioOf('reno') }] });
    handler.handle({ type: 'run', gen: 2, mode: 'full', runs: [{ key: 'reno', scenarioJson: scenarioOf('reno') }] });
    handler.handle({
      type: 'run',
      gen: 3,
      mode: 'full',
      runs: [{ key: 'tahoe', scenarioJson: scenarioOf('tahoe') }],
    });
    await until(() => chunksOf(posted, 'tahoe').some((c) => c.finished));
    const gens = new Set(posted.map((p) => ('gen' in p.msg ? p.msg.gen : -1)));
    expect([...gens]).toEqual([3]);
  });

  it('reports an invalid scenario with the engine’s problem list', () => {
    const { handler, posted } = harness();
    handler.handle({ type: 'run', gen: 1, mode: 'full', runs: [{ key: 'reno', scenarioJson: '{"duration": -1}' }] });
    const failed = posted.find((p) => p.msg.type === 'failed')?.msg;
    expect(failed).toMatchObject({ type: 'failed', gen: 1, key: 'reno', fatal: false });
    expect(failed && 'problems' in failed ? failed.problems[0]?.path : '').toBe('duration');
  });

  it('live: every step answers once per run; a change becomes a timeline entry that replays exactly', () => {
    // A clock that advances 1 ms per reading makes the summary schedule deterministic.
    let clock = 0;
    const { handler, posted } = harness({ now: () => (clock += 1) });
    const json = scenarioOf('newreno', (s) => {
      s.duration = 6;
    });
    handler.handle({ type: 'run', gen: 5, mode: 'live', runs: [{ key: 'newreno', scenarioJson: json }] });
    expect(posted).toHaveLength(0); // live runs wait for steps
    const step = 1 / 60;
    let steps = 0;
    let changedAt = -1;
    for (;;) {
      handler.handle({ type: 'advance', gen: 5, dt: 5 * step });
      steps += 1;
      const last = chunksOf(posted, 'newreno').at(-1);
      expect(chunksOf(posted, 'newreno')).toHaveLength(steps);
      if (steps === 40) {
        handler.handle({ type: 'change', gen: 5, path: 'network.bottleneck.bandwidth', valueJson: '5000000' });
        const changed = posted.at(-1)?.msg;
        expect(changed?.type).toBe('changed');
        if (changed?.type === 'changed') {
          changedAt = changed.now;
          expect(changed.timeline).toEqual([{ at: changed.now, set: 'network.bottleneck.bandwidth', value: 5000000 }]);
        }
      }
      if (last?.finished) break;
    }
    // Stale steps are ignored.
    handler.handle({ type: 'advance', gen: 4, dt: 1 });
    expect(chunksOf(posted, 'newreno')).toHaveLength(steps);

    // Live steps carry a summary now and then, and always at the end.
    const withSummary = chunksOf(posted, 'newreno').filter((c) => c.summary !== null).length;
    expect(withSummary).toBeGreaterThan(0);
    expect(withSummary).toBeLessThan(steps);
    const liveSummary = chunksOf(posted, 'newreno').at(-1)?.summary;
    const replayed = direct(
      scenarioOf('newreno', (s) => {
        s.duration = 6;
        s.timeline = [{ at: changedAt, set: 'network.bottleneck.bandwidth', value: 5000000 }];
      }),
    );
    expect(changedAt).toBeGreaterThan(3);
    expect(liveSummary?.digest).toBe(replayed.summary.digest);
    // Every per-flow metric is identical. (events_processed counts the replayed timeline
    // entry as an event, one more than the live run: an engine bookkeeping detail.)
    expect(liveSummary?.flows).toEqual(replayed.summary.flows);
    // And the change did change the run.
    expect(replayed.summary.digest).not.toBe(direct(scenarioOf('newreno', (s) => (s.duration = 6))).summary.digest);
  });

  it('refuses a live change to a parameter that cannot change during a run', () => {
    const { handler, posted } = harness();
    handler.handle({ type: 'run', gen: 1, mode: 'live', runs: [{ key: 'reno', scenarioJson: scenarioOf('reno') }] });
    handler.handle({ type: 'change', gen: 1, path: 'duration', valueJson: '5' });
    const failed = posted.at(-1)?.msg;
    expect(failed?.type).toBe('failed');
    expect(failed && 'message' in failed ? failed.message : '').toContain('cannot change during a run');
  });

  it('stops sending after a cancel', async () => {
    const { handler, posted } = harness({ sliceMs: 0, progressMs: 1e9, eventsPerCheck: 200 });
    handler.handle({ type: 'run', gen: 1, mode: 'full', runs: [{ key: 'reno', scenarioJson: scenarioOf('reno') }] });
    handler.handle({ type: 'cancel', gen: 2 });
    await new Promise((r) => setTimeout(r, 50));
    expect(posted).toHaveLength(0);
    expect(handler.busy()).toBe(false);
  });

  describe('computing ahead', () => {
    const chunkMsgs = (posted: Posted[]) =>
      posted.map((p) => p.msg).filter((m): m is Extract<FromWorker, { type: 'chunk' }> => m.type === 'chunk');
    const spec = (key: string, bandwidth: number) => ({
      key,
      scenarioJson: scenarioOf(
        key,
        (s) => ((s.network as { bottleneck: { bandwidth: number } }).bottleneck.bandwidth = bandwidth),
      ),
    });

    it('computes the listed runs while idle and posts each once, finished, under its signature', async () => {
      const { handler, posted } = harness({ progressMs: 0 });
      const a = spec('reno', 1_500_000);
      const b = spec('newreno', 2_500_000);
      handler.handle({ type: 'ahead', runs: [a, b] });
      await until(() => chunkMsgs(posted).filter((m) => m.finished).length === 2);
      const msgs = chunkMsgs(posted);
      // No progress chunks (progressMs 0 would give one per slice): one message per run.
      expect(msgs).toHaveLength(2);
      for (const [m, s] of [
        [msgs[0], a],
        [msgs[1], b],
      ] as const) {
        expect(m).toMatchObject({ gen: -1, aheadOf: specSignature(s), ahead: true, finished: true, key: s.key });
        expect(m?.summary).toEqual(direct(s.scenarioJson).summary);
        expect(concat([m!.chunk], 'series', 'cwnd')).toEqual(direct(s.scenarioJson).cwnd);
      }
      expect(handler.aheadCount()).toBe(2);
    });

    it('a request for a finished run adopts it: nothing is posted again, and it can still be explained', async () => {
      const { handler, posted } = harness();
      const a = spec('reno', 1_500_000);
      handler.handle({ type: 'ahead', runs: [a] });
      await until(() => chunkMsgs(posted).some((m) => m.finished));
      const before = posted.length;
      handler.handle({ type: 'run', gen: 4, mode: 'full', runs: [a] });
      await new Promise((r) => setTimeout(r, 30));
      expect(posted.length).toBe(before);
      expect(handler.aheadCount()).toBe(0);
      handler.handle({ type: 'explain', gen: 4, id: 1, query: { what: 'index', key: 'reno', from: 0 } });
      await until(() => posted.some((p) => p.msg.type === 'explained'));
      const answer = posted.at(-1)?.msg as Extract<FromWorker, { type: 'explained' }>;
      expect(answer.result).toMatchObject({ what: 'index', key: 'reno', now: 20 });
    });

    it('a request while the run is still computing ahead adopts it: it finishes as the request’s run', async () => {
      const { handler, posted } = harness({ sliceMs: 0, eventsPerCheck: 200, progressMs: 1e9 });
      const a = spec('newreno', 1_500_000);
      handler.handle({ type: 'ahead', runs: [a] });
      // A few slices ahead, then the request.
      await new Promise((r) => setTimeout(r, 5));
      expect(chunkMsgs(posted)).toHaveLength(0);
      handler.handle({ type: 'run', gen: 7, mode: 'full', runs: [a] });
      await until(() => chunkMsgs(posted).some((m) => m.finished));
      const msgs = chunkMsgs(posted);
      expect(msgs.every((m) => m.gen === 7 && m.aheadOf === undefined && m.ahead === true)).toBe(true);
      expect(msgs.at(-1)?.summary).toEqual(direct(a.scenarioJson).summary);
      expect(
        concat(
          msgs.map((m) => m.chunk),
          'series',
          'cwnd',
        ),
      ).toEqual(direct(a.scenarioJson).cwnd);
    });

    it('another spec runs afresh; a new list frees what it no longer holds; a live session computes nothing ahead', async () => {
      const { handler, posted } = harness();
      const a = spec('reno', 1_500_000);
      const b = spec('reno', 2_500_000);
      handler.handle({ type: 'ahead', runs: [a] });
      await until(() => chunkMsgs(posted).some((m) => m.finished));
      // Same key, another scenario: not adopted (it is computed and posted under gen 2).
      handler.handle({ type: 'run', gen: 2, mode: 'full', runs: [b] });
      await until(() => chunkMsgs(posted).some((m) => m.gen === 2 && m.finished));
      const fresh = chunkMsgs(posted).filter((m) => m.gen === 2);
      expect(fresh.every((m) => m.ahead === undefined)).toBe(true);
      expect(fresh.at(-1)?.summary).toEqual(direct(b.scenarioJson).summary);
      expect(handler.aheadCount()).toBe(0);
      handler.handle({ type: 'ahead', runs: [a, b] });
      expect(handler.aheadCount()).toBe(2);
      handler.handle({ type: 'ahead', runs: [b] });
      expect(handler.aheadCount()).toBe(1);
      handler.handle({ type: 'ahead', runs: [] });
      expect(handler.aheadCount()).toBe(0);
      handler.handle({ type: 'run', gen: 3, mode: 'live', runs: [a] });
      handler.handle({ type: 'ahead', runs: [b] });
      expect(handler.aheadCount()).toBe(0);
    });
  });
});
