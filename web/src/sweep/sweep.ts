// The sweep view's logic, without React: the form's fields and their checks, the definition
// the engine reads (the CLI's options as JSON), the engine's plan and output, and the points
// the plot draws (the engine's per-point mean, std, min and max). The engine plans, runs and
// aggregates (engine/core/src/sweep.rs); the page checks only that the fields are numbers, or
// for an enumerated setting that its values are among the engine's choices.
import { sweep_output, sweep_plan_json } from '../engine/pkg/cwndlab_wasm.js';
import { tables, type ParamSpec, type Scenario } from '../engine/tables';
import { isJsonObject, type JsonValue } from '../lib/json';
import { CATALOGUE } from '../scenario/algorithms';
import { PARAMS, specOf } from '../scenario/params';
import { concretePath, getAt } from '../scenario/paths';
import { DEFAULT_METRIC, DEFAULT_SEEDS, rangeText, type SweepLink } from './link';

/** Most runs of a sweep in the page (the engine's limit, tables.json). */
export const PAGE_MAX_RUNS = tables.sweep.page_max_runs;

/** The parameters a sweep may vary: every numeric parameter of the schema, and every
 *  enumerated one (swept over a list of its values) but the algorithm, which the sweep's own
 *  algorithms set, and what a trace records (`trace.`), which changes no run. */
export const SWEEP_PARAMS: readonly ParamSpec[] = PARAMS.filter(
  (p) =>
    ((p.type === 'int' || p.type === 'float') && p.path !== 'version' && p.path !== 'seed') ||
    (p.type === 'enum' && p.path !== 'flows[].algorithm' && !p.path.startsWith('trace.')),
);

/** Whether a parameter is swept over a list of its values (an enumeration in the engine's
 *  schema) rather than a numeric range. */
export function isListParam(param: string): boolean {
  return specOf(param)?.type === 'enum';
}

/** The form as typed. */
export interface SweepForm {
  param: string;
  from: string;
  to: string;
  points: string;
  log: boolean;
  /** An enumerated setting's values ticked, in the order ticked (the range fields unused). */
  values: string[];
  seeds: string;
  algorithms: string[];
  metric: string;
}

/** A field's problem. */
export interface FieldError {
  field: keyof SweepForm | 'runs' | 'scenario';
  message: string;
}

const NUMBER = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/** The current value of a parameter in the scenario (flow 0's for a per-flow one). */
export function currentValue(scenario: Scenario, param: string): number | null {
  const v = getAt(scenario, concretePath(param, 0));
  return typeof v === 'number' ? v : null;
}

/** The current value of an enumerated parameter in the scenario (flow 0's for a per-flow one). */
export function currentName(scenario: Scenario, param: string): string | null {
  const v = getAt(scenario, concretePath(param, 0));
  return typeof v === 'string' ? v : null;
}

/** A sensible first range for a parameter: a decade either side of its value (log when the
 *  schema draws it on a log scale or it is a loss rate), within the schema's range. */
export function defaultForm(
  scenario: Scenario,
  algorithms: readonly string[],
  param = 'network.bottleneck.loss.ber',
): SweepForm {
  const spec = specOf(param);
  const common = {
    seeds: String(DEFAULT_SEEDS),
    algorithms: algorithms.filter((a) => CATALOGUE.some((e) => e.name === a)),
    metric: DEFAULT_METRIC,
  };
  // An enumerated setting: every one of its values, in the engine's order.
  if (spec?.type === 'enum') {
    const values = (spec.options ?? []).map((o) => o.value);
    return { param, from: '', to: '', points: String(values.length), log: false, values, ...common };
  }
  const cur = currentValue(scenario, param) ?? 0;
  const max = spec?.max ?? 1;
  const min = spec?.min ?? 0;
  const log = spec?.scale === 'log' || /loss\.(ber|probability)$/.test(param);
  let from = cur > 0 ? cur / 10 : max / 1e4;
  let to = cur > 0 ? cur * 10 : max / 10;
  if (!log) [from, to] = cur > 0 ? [cur / 2, cur * 2] : [min, max];
  const clip = (x: number) => Math.min(max, Math.max(log ? Math.max(min, Number.MIN_VALUE) : min, x));
  const text = (x: number) => (spec?.type === 'int' ? String(Math.round(x)) : String(Number(x.toPrecision(3))));
  return {
    param,
    from: text(clip(from)),
    to: text(clip(to)),
    points: '6',
    log,
    values: [],
    ...common,
  };
}

/** The form of a sweep from the link. */
export function formOf(s: SweepLink, algorithms: readonly string[]): SweepForm {
  return {
    param: s.param,
    from: s.from,
    to: s.to,
    points: String(s.points),
    log: s.log,
    values: s.values ? [...s.values] : [],
    seeds: String(s.seeds),
    algorithms: s.algorithms ?? algorithms.filter((a) => CATALOGUE.some((e) => e.name === a)),
    metric: s.metric,
  };
}

/** The form's own checks (numbers where numbers go); the engine checks the rest (the range,
 *  each value against the parameter's range, the most runs: `planSweep`). */
export function checkForm(f: SweepForm): FieldError[] {
  const errors: FieldError[] = [];
  const spec = specOf(f.param);
  if (!spec || !SWEEP_PARAMS.includes(spec))
    errors.push({
      field: 'param',
      message: `Parameter: ${f.param} is not a numeric or enumerated parameter of the scenario that a sweep can vary.`,
    });
  if (spec?.type === 'enum') {
    const allowed = (spec.options ?? []).map((o) => o.value);
    const unknown = f.values.filter((v) => !allowed.includes(v));
    if (f.values.length === 0 || unknown.length > 0)
      errors.push({
        field: 'values',
        message:
          `Values: ${unknown.length ? `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a value' : 'are not values'} of ${f.param}` : 'choose at least one'}` +
          ` (allowed: ${allowed.join(', ')}).`,
      });
  } else {
    if (!NUMBER.test(f.from.trim())) errors.push({ field: 'from', message: `From: “${f.from}” is not a number.` });
    if (!NUMBER.test(f.to.trim())) errors.push({ field: 'to', message: `To: “${f.to}” is not a number.` });
    const points = Number(f.points);
    if (!/^\d+$/.test(f.points.trim()) || points < 1) {
      errors.push({ field: 'points', message: `Points: “${f.points}” is not a whole number of points, 1 or more.` });
    }
  }
  const seeds = Number(f.seeds);
  if (!/^\d+$/.test(f.seeds.trim()) || seeds < 1) {
    errors.push({ field: 'seeds', message: `Seeds per point: “${f.seeds}” is not a whole number, 1 or more.` });
  }
  if (f.algorithms.length === 0) errors.push({ field: 'algorithms', message: 'Algorithms: choose at least one.' });
  return errors;
}

/** The link's sweep of a form (after checkForm passed). */
export function linkOf(f: SweepForm, pageAlgorithms: readonly string[]): SweepLink {
  const same = f.algorithms.length === pageAlgorithms.length && f.algorithms.every((a, i) => a === pageAlgorithms[i]);
  const view = {
    seeds: Number(f.seeds),
    algorithms: same ? null : [...f.algorithms],
    metric: f.metric,
  };
  if (isListParam(f.param))
    return { param: f.param, from: '', to: '', points: f.values.length, log: false, values: [...f.values], ...view };
  return {
    param: f.param,
    from: f.from.trim(),
    to: f.to.trim(),
    points: Number(f.points),
    log: f.log,
    seeds: Number(f.seeds),
    algorithms: same ? null : [...f.algorithms],
    metric: f.metric,
  };
}

/** What the engine reads: the CLI's `--param P --range R --algorithms A --seeds S`, or
 *  `--values V1,V2` for a list (every metric, so the downloads are the CLI's whole output). */
export function definitionOf(s: SweepLink, algorithms: readonly string[]): string {
  return JSON.stringify({
    param: s.param,
    ...(s.values ? { values: s.values } : { range: rangeText(s) }),
    algorithms: s.algorithms ?? algorithms,
    seeds: s.seeds,
  });
}

/** The CLI command that gives the same rows, the scenario saved as scenario.json. */
export function cliCommand(s: SweepLink, algorithms: readonly string[]): string {
  const axis = s.values ? `--values ${s.values.join(',')}` : `--range ${rangeText(s)}`;
  return (
    `cwndlab sweep scenario.json --param ${s.param} ${axis} ` +
    `--algorithms ${(s.algorithms ?? algorithms).join(',')} --seeds ${s.seeds}`
  );
}

/** The engine's plan: the run count, or the field and message of what it refused. */
export type Plan = { ok: true; runs: number; values: string[] } | { ok: false; error: FieldError };

export function planSweep(def: string, base: string): Plan {
  const raw = JSON.parse(sweep_plan_json(def, base)) as JsonValue;
  if (!isJsonObject(raw)) return { ok: false, error: { field: 'scenario', message: 'the engine gave no plan' } };
  if (raw.ok === true) {
    const sweep = raw.sweep as { params: { values: string[] }[]; runs_total: number };
    return { ok: true, runs: sweep.runs_total, values: sweep.params[0]?.values ?? [] };
  }
  const problems = Array.isArray(raw.problems) ? raw.problems : [];
  const texts = problems.map((p) => (isJsonObject(p) && typeof p.text === 'string' ? p.text : String(p)));
  const field = String(raw.field ?? 'scenario');
  const known: FieldError['field'][] = [
    'param',
    'from',
    'to',
    'points',
    'values',
    'seeds',
    'algorithms',
    'metric',
    'runs',
  ];
  const formField: FieldError['field'] =
    field === 'range' ? 'from' : known.includes(field as never) ? (field as FieldError['field']) : 'scenario';
  const message = [String(raw.message ?? ''), ...texts].filter((t) => t !== '').join(': ');
  return { ok: false, error: { field: formField, message } };
}

/** The sweep's output as `cwndlab sweep --format csv|json` prints it. */
export function sweepOutput(def: string, base: string, rows: unknown[], format: 'csv' | 'json'): string {
  return sweep_output(def, base, JSON.stringify(rows), format);
}

/** A point of the plot: one parameter value and algorithm, over its seeds (flow 0). */
export interface SweepPoint {
  /** The value as a number (NaN for an enumerated setting's name). */
  x: number;
  xText: string;
  /** The value's place on the axis (a categorical plot's band). */
  index: number;
  algorithm: string;
  n: number;
  mean: number;
  std: number;
  min: number;
  max: number;
  /** The seeds run at this point (for opening a run). */
  seeds: number[];
}

interface OutputJson {
  sweep: { params: { path: string; values: string[] }[]; seeds: number[] };
  points: {
    params: Record<string, number | string>;
    algorithm: string;
    flow: number;
    n: number;
    metrics: Record<string, { mean: number; std: number; min: number; max: number } | null>;
  }[];
}

/** The points of `metric` from the engine's JSON output (flow 0; null values left out). */
export function pointsOf(outputJson: string, metric: string): SweepPoint[] {
  const out = JSON.parse(outputJson) as OutputJson;
  const axis = out.sweep.params[0];
  if (!axis) return [];
  const points: SweepPoint[] = [];
  for (const p of out.points) {
    const m = p.metrics[metric];
    if (p.flow !== 0 || !m) continue;
    const raw = p.params[axis.path];
    const x = Number(raw);
    // A name is its own text; a number is matched to the text it was written as.
    const index = axis.values.findIndex((t) => (typeof raw === 'string' ? t === raw : Number(t) === x));
    const xText = axis.values[index] ?? String(raw);
    points.push({ x, xText, index, algorithm: p.algorithm, n: p.n, ...m, seeds: out.sweep.seeds });
  }
  return points;
}
