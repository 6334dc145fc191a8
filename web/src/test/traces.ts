// Traces for plot tests, made by the real engine: a run's throughput table as the worker
// would deliver it (the other tables empty), in one chunk or several.
import { TABLE_NAMES, TABLES, type TraceChunk } from '../engine/protocol';
import type { RunSummary } from '../engine/protocol';
import { tables, type Scenario } from '../engine/tables';
import { RunTrace } from '../engine/traceStore';
import { engineWasm } from './wasm';

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
