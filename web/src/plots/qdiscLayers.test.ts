// The queue plots under a queue discipline: its state from the engine's qdisc table, its
// drops and CE marks apart, its target, and nothing of it under drop-tail.
import { scaleLinear } from 'd3';
import { afterEach, describe, expect, it } from 'vitest';
import { rowAt } from '../engine/lookup';
import type { JsonObject } from '../lib/json';
import { tables } from '../engine/tables';
import { presetBase } from '../scenario/algorithms';
import { runStyle } from '../scenario/competition';
import { setAt } from '../scenario/paths';
import { defaultShareState } from '../scenario/shareState';
import { encodeShareState } from '../scenario/url';
import { createHarness } from '../test/appHarness';
import { plotContext, recordingCtx } from '../test/canvas';
import { waitFor } from '../test/inProcessWorker';
import { linearOf } from './core/decimate';
import type { DrawFrame, PlotContext, PlotRun } from './core/types';
import {
  aqmEvents,
  disciplineOf,
  DROP_COLOR,
  MARK_COLOR,
  onSpans,
  probabilityTop,
  stateText,
  targetOf,
  thresholdsOf,
} from './qdiscLayers';
import { queueDelayPlot } from './queueDelayPlot';
import { queuePlot } from './queuePlot';

const harnesses: ReturnType<typeof createHarness>[] = [];
afterEach(() => harnesses.splice(0).forEach((h) => h.dispose()));

/** NewReno on cubic-bufferbloat's path (10 Mbit/s, 40 ms, 1 000 packets) for 4 s, with
 *  `sets` applied. */
async function bloat(sets: [string, string][]): Promise<{ run: PlotRun; context: PlotContext }> {
  const preset = tables.presets.find((p) => p.name === 'cubic-bufferbloat');
  if (!preset) throw new Error('no cubic-bufferbloat preset');
  const base: JsonObject = { ...presetBase(preset.scenario).base, duration: 4 };
  const scenario = sets.reduce((s, [p, v]) => setAt(s, p, v), base);
  const h = createHarness(`?${encodeShareState({ ...defaultShareState(), scenario, algorithms: ['newreno'] })}`);
  harnesses.push(h);
  h.controller.runFull();
  await waitFor(h.allDone);
  const trace = h.traces.get('newreno');
  if (!trace) throw new Error('no trace');
  const summary = h.store.getState().runs.newreno?.summary ?? null;
  const run: PlotRun = { key: 'newreno', label: 'NewReno', style: runStyle('newreno'), trace, summary };
  return { run, context: plotContext(h.store.getState().scenario) };
}

function frame(runs: PlotRun[], context: PlotContext, yMax: number) {
  const rec = recordingCtx();
  const x = scaleLinear().domain([0, 4]).range([0, 600]);
  const y = scaleLinear().domain([0, yMax]).range([200, 0]);
  const f: DrawFrame = {
    ctx: rec.ctx,
    x,
    y,
    xl: linearOf(x),
    yl: linearOf(y),
    width: 600,
    height: 200,
    dpr: 1,
    t0: 0,
    t1: 4,
    runs,
    context,
  };
  return { f, rec };
}

describe('the discipline’s layers, as pure functions', () => {
  it('finds the spans a change series is on, clipped to the window and to the run', () => {
    const t = [0, 1, 2, 3, 5];
    const v = [0, 1, 1, 0, 1];
    expect(onSpans(t, v, 5, 0, 10, 6)).toEqual([
      [1, 3],
      [5, 6],
    ]);
    // A span in force before the window starts at the window.
    expect(onSpans(t, v, 5, 1.5, 10, 6)).toEqual([
      [1.5, 3],
      [5, 6],
    ]);
    expect(onSpans(t, v, 5, 3.2, 4.5, 6)).toEqual([]);
    expect(onSpans([], [], 0, 0, 10, 10)).toEqual([]);
  });

  it('tops the probability scale at 1, 2 or 5 × 10^k, never above 1', () => {
    expect(probabilityTop(0.013)).toBe(0.02);
    expect(probabilityTop(0.02)).toBe(0.02);
    expect(probabilityTop(0.3)).toBe(0.5);
    expect(probabilityTop(0.7)).toBe(1);
    expect(probabilityTop(1)).toBe(1);
    expect(probabilityTop(0)).toBe(0.01);
  });
});

describe('the queue plots under a queue discipline', () => {
  it('draw and read drop-tail as before: no discipline, no state, no marks', async () => {
    const { run, context } = await bloat([]);
    expect(disciplineOf(context)).toBeNull();
    expect(targetOf(context)).toBeNull();
    expect(run.trace.tables.qdisc.length).toBe(0);
    const { f, rec } = frame([run], context, 1200);
    queuePlot.draw(f);
    // The buffer's line and the queue line, one label: nothing else.
    expect(rec.strokes).toEqual([
      { color: '#555555', dash: [5, 4] },
      { color: run.style.color, dash: [] },
    ]);
    expect(rec.texts).toEqual(['buffer 1000 packets ≈ 1.2 s of full-sized packets']);
    expect(queuePlot.readout([run], 3, context)[0]?.text).toMatch(/^queue \d+ packets · [\d.]+ ms of queueing delay$/);
    expect(queuePlot.yExtent([run], 0, 4, context)[1]).toBeGreaterThanOrEqual(1000);
  });

  it('under CoDel: drops only in its dropping state, read at the cursor with the next drop’s time', async () => {
    const { run, context } = await bloat([['network.bottleneck.qdisc', 'codel']]);
    expect(disciplineOf(context)).toBe('codel');
    expect(targetOf(context)).toBe(0.005);
    expect(thresholdsOf(context)).toBeNull();
    const q = run.trace.tables.qdisc;
    expect(q.length).toBeGreaterThan(10);
    const { drops, marks } = aqmEvents(run, 0, 4);
    expect(marks).toEqual([]);
    expect(drops.length).toBeGreaterThan(0);
    // Every drop is the engine's and counted in its summary (a full buffer drops none here).
    expect(drops.length).toBe(run.summary?.flows[0]?.drops.queue);
    // Every drop falls in a span of the dropping state the engine's series records.
    const spans = onSpans(q.cols.t, q.cols.dropping, q.length, 0, 4, run.trace.now);
    for (const t of drops)
      expect(
        spans.some(([a, b]) => t >= a && t <= b),
        `drop at ${t}`,
      ).toBe(true);
    // At a drop CoDel is dropping and its next drop is due later: the readout says when.
    const t = drops[0] ?? 0;
    const r = rowAt(q.cols.t, q.length, t);
    const next = q.cols.drop_next[r] ?? NaN;
    expect(next).toBeGreaterThan(t);
    expect(stateText(run, t, context)).toContain(`dropping, next drop at ${Number(next.toPrecision(6))} s`);
    expect(queueDelayPlot.readout([run], t, context)[0]?.text).toContain('CoDel: sojourn ');
    expect(queueDelayPlot.readout([run], t, context)[0]?.text).toContain('(target 5 ms)');
    // Drawn: the target line with its label, drops in their colour; no CE mark.
    const { f, rec } = frame([run], context, 40);
    queueDelayPlot.draw(f);
    expect(rec.texts).toContain('CoDel target 5 ms');
    expect(rec.strokes.some((s) => s.color === DROP_COLOR)).toBe(true);
    expect(rec.fills).not.toContain(MARK_COLOR);
    expect(queueDelayPlot.describe([run], context)).toContain(`CoDel manages the queue with a target of 5 ms`);
    // The range is the discipline's, not a 1.2-s deep buffer's.
    expect(queueDelayPlot.yExtent([run], 0, 4, context)[1]).toBeLessThan(1200);
  });

  it('with ECN, marks CE instead of dropping, each mark one of the engine’s', async () => {
    const { run, context } = await bloat([
      ['network.bottleneck.qdisc', 'codel'],
      ['flows[0].ecn', 'rfc3168'],
    ]);
    const { drops, marks } = aqmEvents(run, 0, 4);
    expect(drops).toEqual([]);
    expect(marks.length).toBeGreaterThan(0);
    expect(marks.length).toBe(run.summary?.flows[0]?.drops.ce_marks);
    const { f, rec } = frame([run], context, 40);
    queuePlot.draw(f);
    expect(rec.fills).toContain(MARK_COLOR);
    expect(rec.strokes.some((s) => s.color === DROP_COLOR)).toBe(false);
  });

  it('under RED: its thresholds, its average queue and drop probability', async () => {
    const { run, context } = await bloat([['network.bottleneck.qdisc', 'red']]);
    expect(thresholdsOf(context)).toEqual({ min: 5, max: 15, bytes: null });
    const q = run.trace.tables.qdisc;
    const r = rowAt(q.cols.t, q.length, 3);
    const avg = q.cols.avg[r] ?? NaN;
    expect(stateText(run, 3, context)).toContain(`RED: average queue ${Number(avg.toPrecision(4))} packets`);
    const { f, rec } = frame([run], context, 40);
    queuePlot.draw(f);
    expect(rec.texts).toEqual(expect.arrayContaining(['min_th 5', 'max_th 15']));
    expect(rec.texts.some((t) => t.startsWith('drop probability (right): 0 – '))).toBe(true);
  });
});
