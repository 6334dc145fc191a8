// Theory beside the run: the throughput Mathis et al.'s and Padhye et al.'s models give for a
// flow, with their inputs, as the engine states them (`theory_json`, engine/wasm/src/lib.rs;
// no simulation, so it is called on the page's own engine instance). The page formats the
// engine's numbers and shows its strings; it never computes a formula.
import { fullEngine } from '../engine/wasmMain';
import type { Scenario } from '../engine/tables';
import { formatDuration } from '../lib/format';
import { isJsonObject, type JsonObject, type JsonValue } from '../lib/json';
import { runScenario } from '../scenario/algorithms';
import { formatNumber } from '../scenario/params';
import type { PlotRun } from '../plots/core/types';

/** One model's estimate. */
export interface TheoryModel {
  bps: number;
  formula: string;
  source: string;
}

/** The models' inputs (`rtt_s`, `t0_s` in seconds, `mss` bytes, `w_max` segments). */
export interface TheoryInputs {
  p: number;
  p_from: string;
  rtt_s: number;
  mss: number;
  b: number;
  t0_s: number;
  w_max: number;
}

/** The engine's answer: the estimates with their inputs, or why there are none. */
export type Theory = { inputs: TheoryInputs; mathis: TheoryModel; padhye: TheoryModel } | { unavailable: string };

/** Each model's name as the plot labels it. */
export const MODEL_NAMES = { mathis: 'Mathis et al.', padhye: 'Padhye et al.' } as const;

const num = (o: JsonObject, k: string): number => (typeof o[k] === 'number' ? o[k] : NaN);
const str = (o: JsonObject, k: string): string => (typeof o[k] === 'string' ? o[k] : '');

function model(v: JsonValue | undefined): TheoryModel {
  const o = isJsonObject(v ?? null) ? (v as JsonObject) : {};
  return { bps: num(o, 'bps'), formula: str(o, 'formula'), source: str(o, 'source') };
}

/** Parses `theory_json`'s answer. */
export function parseTheory(json: string): Theory {
  const raw = JSON.parse(json) as JsonValue;
  if (!isJsonObject(raw)) return { unavailable: 'the engine gave no estimate' };
  if (typeof raw.unavailable === 'string') return { unavailable: raw.unavailable };
  const i = isJsonObject(raw.inputs ?? null) ? (raw.inputs as JsonObject) : {};
  return {
    inputs: {
      p: num(i, 'p'),
      p_from: str(i, 'p_from'),
      rtt_s: num(i, 'rtt_s'),
      mss: num(i, 'mss'),
      b: num(i, 'b'),
      t0_s: num(i, 't0_s'),
      w_max: num(i, 'w_max'),
    },
    mathis: model(raw.mathis),
    padhye: model(raw.padhye),
  };
}

const cache = new Map<string, Theory>();

/** The engine's theory for flow `flow` of a scenario (cached; the engine must be loaded). */
export function theoryOf(scenarioJson: string, flow: number): Theory {
  const key = `${flow}|${scenarioJson}`;
  let t = cache.get(key);
  if (!t) {
    const engine = fullEngine();
    if (!engine) return { unavailable: 'the engine is not ready (the full engine is still loading)' };
    try {
      t = parseTheory(engine.theory_json(scenarioJson, flow));
    } catch (e) {
      return { unavailable: `the engine is not ready (${e instanceof Error ? e.message : String(e)})` };
    }
    if (cache.size > 64) cache.clear();
    cache.set(key, t);
  }
  return t;
}

/** The scenario a run simulates: a compared algorithm's run, or a competition's one run. */
export function runScenarioJson(scenario: Scenario, key: string, competition: boolean): string {
  return JSON.stringify(competition ? scenario : runScenario(scenario, key));
}

/** The theory of a plotted run (its flow: 0 in a comparison, the flow in a competition). */
export function theoryOfRun(scenario: Scenario, run: Pick<PlotRun, 'key' | 'flow'>, competition: boolean): Theory {
  return theoryOf(runScenarioJson(scenario, run.key, competition), competition ? (run.flow ?? 0) : 0);
}

/** A rate as the plot labels it: "3.1 Mbit/s". */
export function mbitText(bps: number): string {
  return `${formatNumber(bps / 1e6, 2)} Mbit/s`;
}

/** The line's label on the plot ("Mathis et al.: 3.1 Mbit/s"). */
export function theoryLabel(name: keyof typeof MODEL_NAMES, m: TheoryModel): string {
  return `${MODEL_NAMES[name]}: ${mbitText(m.bps)}`;
}

/** The inputs in one line, the engine's numbers formatted and its words as they are. */
export function inputsText(i: TheoryInputs): string {
  return [
    `p = ${formatNumber(i.p, 4)} (${i.p_from})`,
    `RTT = ${formatDuration(i.rtt_s)}`,
    `MSS = ${formatNumber(i.mss, 6)} B`,
    `b = ${formatNumber(i.b, 6)} segment${i.b === 1 ? '' : 's'} per ACK`,
    `T0 = ${formatDuration(i.t0_s)}`,
    `W_max = ${formatNumber(i.w_max, 4)} segments (the receiver window)`,
  ].join(', ');
}
