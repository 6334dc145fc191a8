// The RTT view with the engine's own data: every Karn-valid sample, SRTT and the RTO, and the
// spurious retransmissions, per flow of a competition and per algorithm of a comparison.
import { scaleLinear } from 'd3';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunSummary } from '../engine/protocol';
import type { Scenario } from '../engine/tables';
import { flowKey, flowLabel, flowStyle } from '../scenario/competition';
import { plotContext, recordingCtx } from '../test/canvas';
import { createHarness } from '../test/appHarness';
import { waitFor } from '../test/inProcessWorker';
import { engineWasm } from '../test/wasm';
import { linearOf } from './core/decimate';
import type { DrawFrame, PlotRun } from './core/types';
import { RTO_DASH, rttPlot } from './rttPlot';

const wasm = engineWasm();
const codes = JSON.parse(wasm.codes_json()) as { events: string[] };
const HAS_RTT = codes.events.includes('rtt_sample') && codes.events.includes('spurious_retransmit');

const harnesses: ReturnType<typeof createHarness>[] = [];
afterEach(() => harnesses.splice(0).forEach((h) => h.dispose()));

/** Flow 0 with RFC 793's timer (β = 2) against a NewReno flow from 1 s: the queue the second
 *  flow builds varies the first one's delay, and its timer fires early. */
const LINK = '?v=3&mode=compete&flows=2&duration=10&f0.rto.estimator=rfc793&f1.start=1&plots=window,rtt';

async function competitionRuns(): Promise<{ runs: PlotRun[]; summary: RunSummary; scenario: Scenario }> {
  const h = createHarness(LINK);
  harnesses.push(h);
  h.controller.runFull();
  await waitFor(h.allDone);
  const s = h.store.getState();
  const summary = s.runs.flow0?.summary as RunSummary;
  const runs = [0, 1].map((i) => {
    const trace = h.traces.get(flowKey(i));
    if (!trace) throw new Error('no trace');
    return { key: flowKey(i), label: flowLabel(s.scenario, i), style: flowStyle(i), trace, summary, flow: i };
  });
  return { runs, summary, scenario: s.scenario };
}

/** The engine's count of event `kind` for `flow`, from a run of its own. */
function engineCount(scenario: object, kind: string, flow: number): number {
  const sim = new wasm.Sim(JSON.stringify(scenario));
  sim.run_to_end();
  const n = sim.events_select(0, (1 << codes.events.indexOf(kind)) >>> 0, flow, 1).length;
  sim.free();
  return n;
}

describe.runIf(HAS_RTT)('the RTT view', () => {
  it('holds every RTT sample and spurious retransmission the engine logged, per flow', async () => {
    const { runs, summary, scenario } = await competitionRuns();
    for (const run of runs) {
      const i = run.flow ?? 0;
      expect(run.trace.tables.rtt.length).toBe(engineCount(scenario, 'rtt_sample', i));
      expect(run.trace.tables.spurious.length).toBe(engineCount(scenario, 'spurious_retransmit', i));
      const own = summary.flows[i]?.spurious_retransmits;
      if (own !== undefined) expect(run.trace.tables.spurious.length).toBe(own);
    }
    // RFC 793's timer retransmits spuriously here.
    expect(runs[0]?.trace.tables.spurious.length).toBeGreaterThan(0);
    // The screen-reader text says the same counts.
    const text = rttPlot.describe(runs, plotContext(scenario));
    for (const run of runs) {
      expect(text).toContain(`${run.label}: ${run.trace.tables.rtt.length} RTT samples, median ` /* then the median */);
      expect(text).toContain(`${run.trace.tables.spurious.length} spurious retransmissions`);
    }
    // ] and [ step through the spurious retransmissions.
    const times = rttPlot.eventTimes?.(runs) ?? [];
    expect(times).toHaveLength(runs.reduce((a, r) => a + r.trace.tables.spurious.length, 0));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('draws the samples as dots and SRTT solid, RTO dashed, in each run’s colour; reads them at the cursor', async () => {
    const { runs, scenario } = await competitionRuns();
    const context = plotContext(scenario, { overlay: true, competition: true });
    const [lo, hi] = rttPlot.yExtent(runs, 0, 10, context);
    expect(lo).toBe(0);
    // At least the largest sample.
    const samples = runs.flatMap((r) => [...r.trace.tables.rtt.col('seq')].map((ns) => ns / 1e6));
    expect(hi).toBeGreaterThanOrEqual(Math.max(...samples));
    const rec = recordingCtx();
    const x = scaleLinear().domain([0, 10]).range([0, 600]);
    const y = scaleLinear().domain([0, hi]).range([200, 0]);
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
      t1: 10,
      runs,
      context,
    };
    rttPlot.draw(f);
    for (const run of runs) {
      expect(rec.fills).toContain(run.style.color);
      expect(rec.strokes).toContainEqual({ color: run.style.color, dash: [] });
      expect(rec.strokes).toContainEqual({ color: run.style.color, dash: RTO_DASH });
    }
    const [line] = rttPlot.readout(runs, 5, context);
    expect(line?.text).toMatch(
      /^last sample [\d.]+ ms \(at [\d.]+ s\) · SRTT [\d.]+ · RTO [\d.]+ ms · \d+ spurious so far$/,
    );
    expect(rttPlot.readout(runs, 0, context)[1]?.text).toMatch(/^(no sample yet|no data yet)/);
  });

  it('works per algorithm in a comparison too (a link with plots=rtt)', async () => {
    const h = createHarness('?v=3&alg=reno,newreno&duration=5&plots=rtt');
    harnesses.push(h);
    h.controller.runFull();
    await waitFor(h.allDone);
    for (const a of ['reno', 'newreno']) {
      const trace = h.traces.get(a);
      expect(trace?.tables.rtt.length).toBeGreaterThan(10);
    }
    expect(h.store.getState().plots).toEqual(['rtt']);
  });
});
