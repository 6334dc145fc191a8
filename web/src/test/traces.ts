// Traces for plot tests, made by the real engine: a run's throughput table as the worker
// would deliver it (the other tables empty), in one chunk or several; or every table, as
// the worker handler delivers a live run step by step.
import { TABLE_NAMES, TABLES, type TraceChunk } from '../engine/protocol';
import type { RunSummary } from '../engine/protocol';
import { tables, type Scenario } from '../engine/tables';
import { RunTrace } from '../engine/traceStore';
import { createWorkerHandler } from '../engine/workerHandler';
import { engineWasm, realEngineApi } from './wasm';

/** The engine's throughput table (and summary) after running `scenario` to the end, or to
 *  `stopAt` seconds. */
export function engineThroughput(scenario: Scenario, stopAt?: number) {
  const sim = new (engineWasm().Sim)(JSON.stringify(scenario));
  if (stopAt === undefined) sim.run_to_end();
  else sim.advance(stopAt);
  const n = sim.throughput_len();
  const block = sim.throughput_cols(0, 0xf);
  const out = {
    t: block.slice(0, n),
    cls: block.slice(n, 2 * n),
    bottleneck: block.slice(2 * n, 3 * n),
    delivered: block.slice(3 * n, 4 * n),
    n,
    bin: sim.throughput_bin(),
    classes: JSON.parse(sim.throughput_classes()) as string[],
    summary: JSON.parse(sim.summary_json()) as RunSummary,
    now: sim.now(),
  };
  sim.free();
  return out;
}

/** A preset's scenario with changes (e.g. a shorter duration). */
export function presetScenario(name: string, patch: Scenario = {}): Scenario {
  const preset = tables.presets.find((p) => p.name === name);
  if (!preset) throw new Error(`no preset ${name}`);
  return { ...structuredClone(preset.scenario), ...patch };
}

/** A trace holding that throughput table, appended in `pieces` chunks. */
export function throughputTrace(e: ReturnType<typeof engineThroughput>, pieces = 1): RunTrace {
  const trace = new RunTrace();
  const empty = () =>
    Object.fromEntries(
      TABLE_NAMES.map((name) => [name, Object.fromEntries(TABLES[name].map((c) => [c, new Float64Array(0)]))]),
    ) as unknown as TraceChunk;
  const step = Math.max(1, Math.ceil(e.n / pieces));
  for (let a = 0; a < e.n; a += step) {
    const b = Math.min(e.n, a + step);
    const chunk = empty();
    chunk.throughput = {
      t: e.t.slice(a, b),
      class: e.cls.slice(a, b),
      bottleneck_bytes: e.bottleneck.slice(a, b),
      delivered_bytes: e.delivered.slice(a, b),
    };
    trace.append(chunk, e.now, { bin: e.bin, classes: e.classes });
  }
  return trace;
}

/** A scenario with a thin-stream sender on flow 0: `write_size` bytes every `interval` s,
 *  the given algorithm, and `patch` applied last (e.g. a loss model). */
export function thinScenario(
  algorithm: string,
  opts: { writeSize?: number; interval?: number; duration?: number; patch?: (s: Scenario) => void } = {},
): Scenario {
  const s = structuredClone(tables.defaultScenario) as Scenario & {
    flows: (Scenario & { app: Scenario })[];
    network: { bottleneck: Scenario };
  };
  const flow = s.flows[0];
  if (flow) {
    flow.algorithm = algorithm;
    delete flow.variant;
    flow.app = { ...flow.app, kind: 'thin', write_size: opts.writeSize ?? 50, write_interval: opts.interval ?? 0.01 };
  }
  s.network.bottleneck.delay = 0.075;
  s.duration = opts.duration ?? 10;
  opts.patch?.(s);
  return s;
}

/** A run as the page holds it: the worker handler (real engine) in live mode, stepped by
 *  `dt` s, every chunk appended to a trace as the page does; `onChunk` sees the trace after
 *  each one. Returns the trace, the final summary and the number of chunks. */
export function liveTrace(scenario: Scenario, dt: number, onChunk: (trace: RunTrace) => void = () => {}) {
  const trace = new RunTrace();
  let summary: RunSummary | null = null;
  let finished = false;
  let chunks = 0;
  const handler = createWorkerHandler(realEngineApi(), (msg) => {
    if (msg.type === 'failed') throw new Error(msg.message);
    if (msg.type !== 'chunk') return;
    trace.append(msg.chunk, msg.now, msg.throughput);
    chunks += 1;
    summary = msg.summary ?? summary;
    finished = msg.finished;
    onChunk(trace);
  });
  handler.handle({ type: 'run', gen: 1, mode: 'live', runs: [{ key: 'run', scenarioJson: JSON.stringify(scenario) }] });
  while (!finished) handler.handle({ type: 'advance', gen: 1, dt });
  handler.dispose();
  if (!summary) throw new Error('no summary');
  return { trace, summary: summary as RunSummary, chunks };
}

/** 20-byte writes every 10 ms over a 150 ms path that loses 2 % of the data packets, with a
 *  window in segments (so small writes wait): gaps, payloads and waits of every size. */
export function lossyThinScenario(algorithm = 'newreno', duration = 20): Scenario {
  return thinScenario(algorithm, {
    writeSize: 20,
    duration,
    patch: (s) => {
      const net = s.network as { bottleneck: { loss: Record<string, unknown> } };
      net.bottleneck.loss = { ...net.bottleneck.loss, model: 'bernoulli', probability: 0.02 };
      const flow = (s.flows as { cc: Record<string, unknown> }[])[0];
      if (flow) flow.cc.units = 'segments';
    },
  });
}
