// The sweep view's logic with the real engine (never a stub): the form's checks name their
// field, the engine's plan names what it refuses, the runner gives the same output whatever
// its pool size or order, Cancel stops it, and the plotted points are the engine's.
import { describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import { engineWasm } from '../test/wasm';
import type { FromSweepWorker, ToSweepWorker } from './protocol';
import { SweepRun, type SweepWorkerLike } from './runner';
import {
  checkForm,
  cliCommand,
  defaultForm,
  definitionOf,
  formOf,
  isListParam,
  linkOf,
  PAGE_MAX_RUNS,
  planSweep,
  pointsOf,
  sweepOutput,
  SWEEP_PARAMS,
  type SweepForm,
} from './sweep';

const wasm = engineWasm();
const base = JSON.stringify({
  duration: 2,
  network: { bottleneck: { loss: { model: 'ber', ber: 1e-6 } } },
});

const form = (patch: Partial<SweepForm> = {}): SweepForm => ({
  param: 'network.bottleneck.loss.ber',
  from: '1e-6',
  to: '1e-4',
  points: '3',
  log: true,
  values: [],
  seeds: '2',
  algorithms: ['reno', 'newreno'],
  metric: 'goodput_bps',
  ...patch,
});

/** A sweep of the queue discipline (an enumerated setting) as the form holds it. */
const qdiscForm = (patch: Partial<SweepForm> = {}): SweepForm =>
  form({ param: 'network.bottleneck.qdisc', values: ['droptail', 'codel'], algorithms: ['cubic'], ...patch });
const QDISC = tables.schema.params.find((p) => p.path === 'network.bottleneck.qdisc');

/** A worker that runs the real engine in this thread, answering asynchronously. */
function inProcess(log: string[]): () => SweepWorkerLike {
  return () => {
    const w: SweepWorkerLike = {
      onmessage: null,
      onerror: null,
      terminate: () => log.push('terminate'),
      postMessage(msg: ToSweepWorker) {
        queueMicrotask(() => {
          let reply: FromSweepWorker;
          if (msg.type === 'init') reply = { type: 'ready' };
          else {
            const out = JSON.parse(wasm.sweep_run_json(msg.def, msg.base, msg.index)) as { rows: unknown[] };
            reply = { type: 'rows', index: msg.index, rows: out.rows };
          }
          w.onmessage?.({ data: reply } as MessageEvent<FromSweepWorker>);
        });
      },
    };
    return w;
  };
}

const module = {} as WebAssembly.Module;

describe('the sweep form', () => {
  it('names each field it cannot use', () => {
    expect(checkForm(form())).toEqual([]);
    const errs = checkForm(form({ from: 'abc', to: '', points: '0', seeds: '1.5', algorithms: [] }));
    expect(errs.map((e) => e.field)).toEqual(['from', 'to', 'points', 'seeds', 'algorithms']);
    expect(errs[2]?.message).toBe('Points: “0” is not a whole number of points, 1 or more.');
    expect(checkForm(form({ param: 'trace.events' }))[0]?.field).toBe('param');
    expect(checkForm(form({ param: 'flows[].algorithm', values: ['reno'] }))[0]?.field).toBe('param');
  });

  it('offers every enumerated setting but the algorithm, with the engine’s values', () => {
    const enums = tables.schema.params.filter((p) => p.type === 'enum').map((p) => p.path);
    const offered = SWEEP_PARAMS.filter((p) => p.type === 'enum').map((p) => p.path);
    expect(offered).toEqual(enums.filter((p) => p !== 'flows[].algorithm' && !p.startsWith('trace.')));
    expect(offered).toContain('network.bottleneck.qdisc');
    expect(isListParam('network.bottleneck.qdisc')).toBe(true);
    expect(isListParam('network.bottleneck.delay')).toBe(false);
    // The form starts with every value ticked, in the engine's order.
    const f = defaultForm(JSON.parse(wasm.validate_json(base)).scenario, ['cubic'], 'network.bottleneck.qdisc');
    expect(f.values).toEqual(QDISC?.options?.map((o) => o.value));
    expect(f.values.length).toBeGreaterThan(2);
  });

  it('checks an enumerated setting’s values, not a range, naming the allowed ones', () => {
    expect(checkForm(qdiscForm({ from: 'x', points: '0' }))).toEqual([]);
    const none = checkForm(qdiscForm({ values: [] }));
    expect(none.map((e) => e.field)).toEqual(['values']);
    expect(none[0]?.message).toBe(
      `Values: choose at least one (allowed: ${QDISC?.options?.map((o) => o.value).join(', ')}).`,
    );
    const bad = checkForm(qdiscForm({ values: ['codel', 'cake'] }));
    expect(bad[0]?.message).toMatch(/^Values: cake is not a value of network\.bottleneck\.qdisc \(allowed: droptail, /);
  });

  it('sends the engine a list of values and writes the CLI’s --values, in the order ticked', () => {
    const link = linkOf(qdiscForm({ values: ['codel', 'droptail'] }), ['cubic']);
    expect(link).toMatchObject({ values: ['codel', 'droptail'], points: 2, algorithms: null });
    expect(JSON.parse(definitionOf(link, ['cubic']))).toEqual({
      param: 'network.bottleneck.qdisc',
      values: ['codel', 'droptail'],
      algorithms: ['cubic'],
      seeds: 2,
    });
    expect(cliCommand(link, ['cubic'])).toBe(
      'cwndlab sweep scenario.json --param network.bottleneck.qdisc --values codel,droptail --algorithms cubic --seeds 2',
    );
    expect(formOf(link, ['cubic'])).toMatchObject({ param: 'network.bottleneck.qdisc', values: ['codel', 'droptail'] });
    // A numeric sweep's link has no list.
    expect(linkOf(form(), [])).not.toHaveProperty('values');
  });

  it('starts from a decade either side of the current value, on a log scale for a loss rate', () => {
    const f = defaultForm(JSON.parse(wasm.validate_json(base)).scenario, ['reno', 'custom']);
    expect(f).toMatchObject({ from: '1e-7', to: '0.00001', log: true, algorithms: ['reno'] });
  });

  it('writes the definition the CLI reads, and the command that gives the same rows', () => {
    const link = linkOf(form(), ['reno', 'newreno']);
    expect(link.algorithms).toBeNull();
    expect(JSON.parse(definitionOf(link, ['reno', 'newreno']))).toEqual({
      param: 'network.bottleneck.loss.ber',
      range: '1e-6:1e-4:3:log',
      algorithms: ['reno', 'newreno'],
      seeds: 2,
    });
    expect(cliCommand(link, ['reno', 'newreno'])).toBe(
      'cwndlab sweep scenario.json --param network.bottleneck.loss.ber --range 1e-6:1e-4:3:log --algorithms reno,newreno --seeds 2',
    );
  });
});

describe('the engine plans and refuses by name', () => {
  it('plans the runs, or names the field and what is allowed', () => {
    const def = definitionOf(linkOf(form(), []), []);
    expect(planSweep(def, base)).toEqual({ ok: true, runs: 12, values: ['1e-6', '1e-5', '1e-4'] });
    const log0 = planSweep(definitionOf(linkOf(form({ from: '0' }), []), []), base);
    expect(log0).toMatchObject({ ok: false, error: { field: 'from' } });
    expect(!log0.ok && log0.error.message).toContain('a log range needs FROM and TO above 0');
    // More runs than the page runs: the engine says the limit (tables.json's page_max_runs).
    expect(PAGE_MAX_RUNS).toBe(tables.sweep.page_max_runs);
    const many = planSweep(definitionOf(linkOf(form({ points: String(PAGE_MAX_RUNS), seeds: '1' }), []), []), base);
    expect(many).toMatchObject({ ok: false, error: { field: 'runs' } });
    expect(!many.ok && many.error.message).toContain(
      `has ${2 * PAGE_MAX_RUNS} runs; at most ${PAGE_MAX_RUNS} per sweep in the page`,
    );
    const huge = planSweep(definitionOf(linkOf(form({ points: '99999999' }), []), []), base);
    expect(!huge.ok && huge.error.message).toContain(`at most ${PAGE_MAX_RUNS} runs per sweep in the page`);
    const high = planSweep(definitionOf(linkOf(form({ to: '0.5' }), []), []), base);
    expect(!high.ok && high.error.field).toBe('param');
    expect(!high.ok && high.error.message).toMatch(/network\.bottleneck\.loss\.ber = 0\.5 .*allowed 0 to 0\.01/);
  });
});

describe('the runner', () => {
  const def = definitionOf(linkOf(form(), []), []);

  it('gives the same output with any number of workers, in any order', async () => {
    const outputs: string[] = [];
    for (const size of [1, 3, 12]) {
      const log: string[] = [];
      const progress: number[] = [];
      const run = new SweepRun(module, inProcess(log), def, base, 12, (d) => progress.push(d), size);
      const o = await run.outcome;
      expect(o.kind).toBe('done');
      expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      expect(log.filter((l) => l === 'terminate')).toHaveLength(size);
      if (o.kind === 'done') outputs.push(sweepOutput(def, base, [...o.rows].reverse(), 'csv'));
    }
    expect(new Set(outputs).size).toBe(1);
    expect(outputs[0]?.split('\n')[0]).toMatch(
      /^kind,run,network\.bottleneck\.loss\.ber,algorithm,seed,flow,n,goodput_bps,/,
    );
  });

  it('stops at once when cancelled', async () => {
    const log: string[] = [];
    let run: SweepRun | null = null;
    run = new SweepRun(module, inProcess(log), def, base, 12, (d) => d === 2 && run?.cancel(), 2);
    const o = await run.outcome;
    expect(o).toEqual({ kind: 'cancelled', done: 2 });
    expect(log).toEqual(['terminate', 'terminate']);
  });

  it('plots the engine’s points: mean within the min–max of each value and algorithm', async () => {
    const run = new SweepRun(module, inProcess([]), def, base, 12, () => {}, 2);
    const o = await run.outcome;
    if (o.kind !== 'done') throw new Error(o.kind);
    const points = pointsOf(sweepOutput(def, base, o.rows, 'json'), 'goodput_bps');
    expect(points.map((p) => `${p.algorithm}@${p.xText}`)).toEqual([
      'reno@1e-6',
      'newreno@1e-6',
      'reno@1e-5',
      'newreno@1e-5',
      'reno@1e-4',
      'newreno@1e-4',
    ]);
    for (const p of points) {
      expect(p.n).toBe(2);
      expect(p.min).toBeLessThanOrEqual(p.mean);
      expect(p.mean).toBeLessThanOrEqual(p.max);
      expect(p.seeds).toEqual([1, 2]);
    }
  });
});

describe('a sweep over an enumerated setting', () => {
  it('plots a point per value and algorithm in the order chosen, the engine’s: CoDel’s queue shorter than drop-tail’s', async () => {
    const bloat = tables.presets.find((p) => p.name === 'cubic-bufferbloat');
    const scenario = JSON.stringify({ ...bloat?.scenario, duration: 4 });
    const def = definitionOf(linkOf(qdiscForm({ values: ['codel', 'droptail'], seeds: '2' }), []), []);
    const plan = planSweep(def, scenario);
    expect(plan).toEqual({ ok: true, runs: 4, values: ['codel', 'droptail'] });
    const run = new SweepRun(module, inProcess([]), def, scenario, 4, () => {}, 2);
    const o = await run.outcome;
    if (o.kind !== 'done') throw new Error(o.kind);
    const json = sweepOutput(def, scenario, o.rows, 'json');
    const points = pointsOf(json, 'qdelay_mean_ms');
    expect(points.map((p) => [p.xText, p.index, p.algorithm])).toEqual([
      ['codel', 0, 'cubic'],
      ['droptail', 1, 'cubic'],
    ]);
    // The engine's own per-point numbers, unchanged.
    const engine = (JSON.parse(json) as { points: { metrics: { qdelay_mean_ms: { mean: number } } }[] }).points;
    expect(points.map((p) => p.mean)).toEqual(engine.map((p) => p.metrics.qdelay_mean_ms.mean));
    const [codel, droptail] = points;
    expect(codel && droptail && codel.mean < droptail.mean / 5).toBe(true);
    for (const p of points) expect(p.min <= p.mean && p.mean <= p.max).toBe(true);
    expect(sweepOutput(def, scenario, o.rows, 'csv').split('\n')[0]).toMatch(
      /^kind,run,network\.bottleneck\.qdisc,algorithm,seed,flow,n,/,
    );
    // An unknown value is the engine's to refuse too, by name.
    const cake = planSweep(JSON.stringify({ param: 'network.bottleneck.qdisc', values: ['cake'] }), scenario);
    expect(!cake.ok && cake.error.message).toContain('cake');
  });
});
