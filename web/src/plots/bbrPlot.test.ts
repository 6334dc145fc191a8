// BBR's model with the engine's own data: the `model` table as step series (BtlBw, RTprop,
// BDP, pacing, state) read at the cursor, the model plot's y range and lines, and the BDP
// line on the window plot in segments, on the bufferbloat path (10 Mbit/s, 1 000-packet
// buffer) where BBR is compared with CUBIC.
import { scaleLinear } from 'd3';
import { afterEach, describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import { presetBase } from '../scenario/algorithms';
import { runStyle } from '../scenario/competition';
import { formatNumber } from '../scenario/params';
import { defaultShareState } from '../scenario/shareState';
import { encodeShareState } from '../scenario/url';
import { createHarness } from '../test/appHarness';
import { plotContext, recordingCtx } from '../test/canvas';
import { waitFor } from '../test/inProcessWorker';
import { engineWasm } from '../test/wasm';
import { BBR_LINES } from '../lib/styles';
import { bbrPlot } from './bbrPlot';
import { BOTTLENECK_DASH } from './core/plotStyle';
import { bbrRowAt, bbrSeries } from './bbrModel';
import { linearOf } from './core/decimate';
import type { DrawFrame, PlotContext, PlotRun } from './core/types';
import { windowPlot } from './windowPlot';

const wasm = engineWasm();
const EVENTS = tables.codes.events;
const MODEL = EVENTS.indexOf('bbr_model');
const PACING = EVENTS.indexOf('bbr_pacing');

const harnesses: ReturnType<typeof createHarness>[] = [];
afterEach(() => harnesses.splice(0).forEach((h) => h.dispose()));

const DURATION = 12;

/** cubic-bufferbloat's path for 12 s, CUBIC and BBR compared. */
async function bufferbloat(): Promise<{ runs: PlotRun[]; context: PlotContext; json: string }> {
  const preset = tables.presets.find((p) => p.name === 'cubic-bufferbloat');
  if (!preset) throw new Error('no cubic-bufferbloat preset');
  const scenario = { ...presetBase(preset.scenario).base, duration: DURATION };
  const h = createHarness(`?${encodeShareState({ ...defaultShareState(), scenario, algorithms: ['cubic', 'bbr'] })}`);
  harnesses.push(h);
  h.controller.runFull();
  await waitFor(h.allDone);
  const s = h.store.getState();
  const runs = (['cubic', 'bbr'] as const).map((key) => {
    const trace = h.traces.get(key);
    if (!trace) throw new Error(`no trace for ${key}`);
    const summary = s.runs[key]?.summary ?? null;
    return { key, label: key === 'bbr' ? 'BBR v1' : 'CUBIC', style: runStyle(key), trace, summary };
  });
  // The scenario BBR's run simulated, for the engine's own event log.
  const bbrScenario = JSON.parse(JSON.stringify(s.scenario)) as { flows: Record<string, unknown>[] };
  const entry = tables.catalogue.find((e) => e.name === 'bbr');
  const flow = bbrScenario.flows[0] ?? {};
  for (const [k, v] of Object.entries(entry?.settings ?? {})) {
    const parts = k.split('.');
    let o = flow as Record<string, unknown>;
    while (parts.length > 1) o = o[parts.shift() ?? ''] as Record<string, unknown>;
    o[parts[0] ?? ''] = v;
  }
  flow.algorithm = 'bbr';
  return { runs, context: plotContext(s.scenario), json: JSON.stringify(bbrScenario) };
}

/** The engine's own bbr_model and bbr_pacing rows of flow 0 (t, kind, seq, len, seg, tx). */
function engineRows(json: string): number[][] {
  const sim = new wasm.Sim(json);
  sim.run_to_end();
  const cols = ['t', 'flow', 'kind', 'seq', 'len', 'seg', 'tx'].map((c) => Array.from(sim.events_col(c, 0)));
  sim.free();
  const [t = [], flow = [], kind = [], seq = [], len = [], seg = [], tx = []] = cols;
  const out: number[][] = [];
  for (let i = 0; i < t.length; i += 1) {
    if (flow[i] === 0 && (kind[i] === MODEL || kind[i] === PACING)) {
      out.push([t[i] ?? 0, kind[i] ?? 0, seq[i] ?? 0, len[i] ?? 0, seg[i] ?? 0, tx[i] ?? 0]);
    }
  }
  return out;
}

/** The engine's row of `kind` in force at t (the last at or before it). */
function inForce(rows: number[][], kind: number, t: number): number[] | undefined {
  let found: number[] | undefined;
  for (const r of rows) if (r[1] === kind && (r[0] ?? Infinity) <= t) found = r;
  return found;
}

function frame(runs: PlotRun[], context: PlotContext, yMax: number, t0 = 0, t1 = DURATION): DrawFrame {
  const rec = recordingCtx();
  const x = scaleLinear().domain([t0, t1]).range([0, 600]);
  const y = scaleLinear().domain([0, yMax]).range([200, 0]);
  return {
    ctx: rec.ctx,
    x,
    y,
    xl: linearOf(x),
    yl: linearOf(y),
    width: 600,
    height: 200,
    dpr: 1,
    t0,
    t1,
    runs,
    context,
  };
}

describe('BBR’s model', () => {
  it('holds every bbr_model and bbr_pacing row the engine logged, and reads them as steps at any time', async () => {
    const { runs, context, json } = await bufferbloat();
    const [cubic, bbr] = runs;
    if (!cubic || !bbr) throw new Error('no runs');
    // CUBIC has no model; BBR's table is the engine's rows, in order, both kinds.
    expect(cubic.trace.tables.model.length).toBe(0);
    const rows = engineRows(json);
    const m = bbr.trace.tables.model;
    expect(m.length).toBe(rows.length);
    expect(m.length).toBeGreaterThan(100);
    for (const [i, c] of (['t', 'kind', 'seq', 'len', 'seg', 'tx'] as const).entries()) {
      expect(Array.from(m.col(c)), c).toEqual(rows.map((r) => r[i]));
    }
    // Logged in pairs, model then pacing, at one instant.
    for (let i = 0; i < m.length; i += 2) {
      expect([m.cols.kind[i], m.cols.kind[i + 1]]).toEqual([MODEL, PACING]);
      expect(m.cols.t[i + 1]).toBe(m.cols.t[i]);
    }
    // At any time, the series are the rows in force: BtlBw, RTprop and BDP from the model
    // row, the pacing rate and gains from the pacing row.
    const s = bbrSeries(bbr.trace);
    for (const t of [0.2, 0.5, 1, 2.5, 5, 7.77, 11.9]) {
      const r = bbrRowAt(bbr.trace, t);
      const model = inForce(rows, MODEL, t);
      const pacing = inForce(rows, PACING, t);
      if (!model || !pacing) throw new Error(`no model at ${t}`);
      expect(s.btlBw[r], `BtlBw at ${t}`).toBe(model[2]);
      expect(s.rtProp[r], `RTprop at ${t}`).toBe((model[3] ?? 0) / 1e6);
      expect(s.bdp[r], `BDP at ${t}`).toBe(model[4]);
      expect(s.state[r], `state at ${t}`).toBe(model[5]);
      expect(s.pacing[r], `pacing at ${t}`).toBe(pacing[2]);
      expect(s.pacingGain[r], `pacing gain at ${t}`).toBe((pacing[3] ?? 0) / 256);
      expect(s.cwndGain[r], `cwnd gain at ${t}`).toBe((pacing[4] ?? 0) / 256);
    }
    // By 5 s BBR has left Startup and measures the path: BtlBw is the payload rate of the
    // 10 Mbit/s link (1 460 of every 1 500 bytes), RTprop the 40 ms round trip, plus the
    // serialisation and access delays.
    const r5 = bbrRowAt(bbr.trace, 5);
    expect(Math.floor((s.state[r5] ?? 0) / 16)).toBe(2);
    expect(s.btlBw[r5]).toBeGreaterThan(9.6e6);
    expect(s.btlBw[r5]).toBeLessThanOrEqual(10e6 * (1460 / 1500) + 1);
    expect(s.rtProp[r5]).toBeGreaterThan(0.04);
    expect(s.rtProp[r5]).toBeLessThan(0.05);
    // The readout says it, in Mbit/s, ms and segments.
    const text = bbrPlot.readout(runs, 5, context)[1]?.text ?? '';
    expect(text).toMatch(
      /^ProbeBW phase [0-7] \(pacing gain (1\.25|0\.75|1)\) · BtlBw 9\.\d+ Mbit\/s · RTprop 4\d(\.\d+)? ms · pacing \d+(\.\d+)? Mbit\/s · BDP \d+(\.\d+)? seg$/,
    );
    expect(text).toContain(`BDP ${formatNumber((s.bdp[r5] ?? 0) / 1460, 4)} seg`);
    // CUBIC is named as not BBR; before BBR's first estimate there is none.
    expect(bbrPlot.readout(runs, 5, context)[0]?.text).toBe('not BBR: no bandwidth estimate or pacing rate');
    expect(bbrPlot.readout(runs, 0.01, context)[1]?.text).toBe('no model yet (BBR estimates from its first ACK)');
    // In Startup BBR paces at 2.89 × BtlBw.
    const r0 = bbrRowAt(bbr.trace, 0.15);
    expect(bbrPlot.readout(runs, 0.15, context)[1]?.text).toMatch(/^Startup \(pacing gain 2\.89\) · /);
    expect(s.pacingGain[r0]).toBeCloseTo(2.885, 2);
  });

  it('fits its lines and the bottleneck in the y range, draws them in the run’s colour, and says what they are', async () => {
    const { runs, context } = await bufferbloat();
    const bbr = runs[1];
    if (!bbr) throw new Error('no BBR run');
    const s = bbrSeries(bbr.trace);
    const m = bbr.trace.tables.model;
    const maxOf = (a: Float64Array) => Math.max(...a.subarray(0, m.length));
    // The whole run: Startup's pacing (2.89 × BtlBw) is the highest line.
    const [lo, hi] = bbrPlot.yExtent(runs, 0, DURATION, context);
    expect(lo).toBe(0);
    expect(hi).toBeGreaterThanOrEqual(maxOf(s.pacing) / 1e6);
    expect(maxOf(s.pacing)).toBeGreaterThan(2.5 * maxOf(s.btlBw));
    // Zoomed into ProbeBW: the range follows the lines in view, and keeps the bottleneck.
    const [, late] = bbrPlot.yExtent(runs, 6, DURATION, context);
    expect(late).toBeLessThan(hi);
    expect(late).toBeGreaterThanOrEqual(10);
    expect(late).toBeLessThan(10 * 1.25 * 1.15);
    // A plot of CUBIC alone still shows the bottleneck.
    expect(bbrPlot.yExtent(runs.slice(0, 1), 0, DURATION, context)[1]).toBeGreaterThanOrEqual(10);
    // Drawn: BtlBw solid and pacing dashed in BBR's colour, the bottleneck dotted grey,
    // each named.
    const f = frame(runs, context, hi);
    const drawn = recordingCtx();
    bbrPlot.draw({ ...f, ctx: drawn.ctx });
    expect(drawn.strokes).toContainEqual({ color: bbr.style.color, dash: [...BBR_LINES.btlBw.dash] });
    expect(drawn.strokes).toContainEqual({ color: bbr.style.color, dash: [...BBR_LINES.pacing.dash] });
    expect(drawn.strokes).toContainEqual({ color: '#555555', dash: BOTTLENECK_DASH });
    expect(drawn.texts).toContain('bottleneck 10 Mbit/s (payload at most 9.733)');
    expect(drawn.texts).toEqual(expect.arrayContaining(['BtlBw', 'pacing']));
    // Only CUBIC: nothing drawn but the bottleneck and a sentence saying why.
    const none = recordingCtx();
    bbrPlot.draw({ ...f, ctx: none.ctx, runs: runs.slice(0, 1) });
    // (The line, and the sample of its dash beside its name.)
    expect(none.strokes).toEqual([
      { color: '#555555', dash: BOTTLENECK_DASH },
      { color: '#555555', dash: BOTTLENECK_DASH },
    ]);
    expect(none.texts).toContain('CUBIC is not BBR: no bandwidth model to draw');
    // The screen-reader text names BtlBw and the pacing rate, and CUBIC as not BBR.
    const text = bbrPlot.describe(runs, context);
    expect(text).toContain(
      "BBR's model over time in Mbit/s: the bottleneck-bandwidth estimate BtlBw (solid) and the pacing rate (dashed)",
    );
    expect(text).toMatch(
      /BBR v1: BtlBw at most 9\.7\d* Mbit\/s, at the end 9\.7\d* Mbit\/s; pacing rate at most 2\d(\.\d+)? Mbit\/s; RTprop 4\d(\.\d+)? ms at the end; ProbeRTT entered \d+ times?\./,
    );
    expect(text).toContain('CUBIC is not BBR: no bandwidth model to show.');
  });

  it('puts BBR’s estimated BDP on the window plot in segments, in the y range, and its state at the cursor', async () => {
    const { runs, context } = await bufferbloat();
    const bbr = runs[1];
    if (!bbr) throw new Error('no BBR run');
    const s = bbrSeries(bbr.trace);
    const m = bbr.trace.tables.model;
    const mss = 1460;
    // The y range holds the largest BDP estimate in view (in segments), even with cwnd hidden.
    const noLines = plotContext(context.scenario, {
      series: { cwnd: false, ssthresh: false, flight: false, inflated: false, w_used: false, pipeack: false },
    });
    const maxBdp = Math.max(...s.bdp.subarray(0, m.length)) / mss;
    const [, hi] = windowPlot.yExtent([bbr], 0, DURATION, noLines);
    expect(hi).toBeGreaterThanOrEqual(maxBdp);
    // ≈ 10 Mbit/s × 40 ms / 1 460 B ≈ 34 segments.
    expect(maxBdp).toBeGreaterThan(30);
    expect(maxBdp).toBeLessThan(40);
    // Drawn dash-dot in BBR's colour and named; CUBIC has none.
    const drawn = recordingCtx();
    windowPlot.draw({ ...frame([bbr], context, hi), ctx: drawn.ctx });
    expect(drawn.strokes).toContainEqual({ color: bbr.style.color, dash: [...BBR_LINES.bdp.dash] });
    expect(drawn.texts).toContain('BDP');
    const cubic = recordingCtx();
    windowPlot.draw({ ...frame(runs.slice(0, 1), context, hi), ctx: cubic.ctx });
    expect(cubic.texts).not.toContain('BDP');
    // The readout: BBR's state in place of the phase, then its estimates and the BDP.
    const r = bbrRowAt(bbr.trace, 7);
    const text = windowPlot.readout([bbr], 7, context)[0]?.text ?? '';
    expect(text).toMatch(/ seg · BBR ProbeBW phase [0-7] \(pacing gain [\d.]+\) · BtlBw 9\.\d+ Mbit\/s · RTprop /);
    expect(text).toContain(`BDP ${formatNumber((s.bdp[r] ?? 0) / mss, 4)} seg`);
    expect(text).not.toContain('BBR ProbeBW · ');
    expect(windowPlot.describe([bbr], context)).toContain("BBR's estimated BDP (BtlBw × RTprop) as a dash-dot line");
  });
});
