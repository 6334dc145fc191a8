// Competition mode with the real engine (in-process workers): one run of several flows, read
// flow by flow; the page's numbers are the engine's; the link reproduces the run; the modes
// switch into each other sensibly; the flow limit is named.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunSummary } from '../engine/protocol';
import { tables } from '../engine/tables';
import { flowKey, flowsOf, MAX_FLOWS } from '../scenario/competition';
import { getAt } from '../scenario/paths';
import { decodeShareState, encodeShareState } from '../scenario/url';
import { createHarness } from '../test/appHarness';
import { waitFor } from '../test/inProcessWorker';
import { engineWasm, realValidator } from '../test/wasm';
import { shareStateOf } from './urlSync';

const wasm = engineWasm();
const harnesses: ReturnType<typeof createHarness>[] = [];
const make = (query = '', workers = 2) => {
  const h = createHarness(query, workers);
  harnesses.push(h);
  return h;
};
afterEach(() => harnesses.splice(0).forEach((h) => h.dispose()));

/** NewReno, Reno and Old Tahoe, started 0, 1 and 2 s apart, on a 10 s run. */
const THREE = '?v=3&mode=compete&flows=3&duration=10&f1.algorithm=reno&f1.start=1&f2.algorithm=old_tahoe&f2.start=2';

function direct(scenario: object): { summary: RunSummary; sim: InstanceType<typeof wasm.Sim> } {
  const sim = new wasm.Sim(JSON.stringify(scenario));
  sim.run_to_end();
  return { summary: JSON.parse(sim.summary_json()) as RunSummary, sim };
}

describe('competition mode', () => {
  it('runs the flows in one run and gives each flow its own tables, as the engine has them', async () => {
    const h = make(THREE);
    h.controller.runFull();
    await waitFor(h.allDone);
    const s = h.store.getState();
    expect(s.mode).toBe('compete');
    expect(s.keys).toEqual(['flow0', 'flow1', 'flow2']);
    const { summary, sim } = direct(s.scenario);
    // One run: every flow carries the same summary, the engine's own.
    for (const key of s.keys) expect(s.runs[key]?.summary).toEqual(summary);
    expect(summary.flows.map((f) => f.algorithm)).toEqual(['newreno', 'reno', 'old_tahoe']);
    // Each flow's window series is the engine's series of that flow, row for row.
    const codes = JSON.parse(wasm.codes_json()) as { series_columns: string[] };
    const cwndBit = 1 << codes.series_columns.indexOf('cwnd');
    for (let i = 0; i < 3; i += 1) {
      const trace = h.traces.get(flowKey(i));
      const n = sim.series_len(i);
      expect(trace?.tables.series.length).toBe(n);
      expect([...(trace?.tables.series.col('cwnd') ?? [])]).toEqual([...sim.series_cols(i, 0, cwndBit)]);
    }
    // The run-wide tables are one table shared by the flows (sent once, with flow 0).
    expect(h.traces.get('flow1')?.tables.throughput).toBe(h.traces.get('flow0')?.tables.throughput);
    expect(h.traces.get('flow2')?.tables.queue).toBe(h.traces.get('flow0')?.tables.queue);
    expect(h.traces.get('flow0')?.tables.throughput.length).toBe(sim.throughput_len());
    expect(h.traces.get('flow1')?.tables.series).not.toBe(h.traces.get('flow0')?.tables.series);
    sim.free();
    h.controller.frameDrawn();
    // One engine run, however many flows.
    expect(h.store.getState().timing).toMatchObject({ runs: 1 });
  });

  it('a copied link reproduces the run: the same summary and digest', async () => {
    const h = make(THREE);
    h.controller.runFull();
    await waitFor(h.allDone);
    const link = encodeShareState(shareStateOf(h.store.getState()));
    expect(link).toContain('mode=compete');
    expect(link).not.toContain('alg=');
    const again = make(`?${link}`);
    again.controller.runFull();
    await waitFor(again.allDone);
    expect(again.store.getState().runs.flow2?.summary).toEqual(h.store.getState().runs.flow2?.summary);
    expect(again.store.getState().runs.flow0?.summary?.digest).toBe(h.store.getState().runs.flow0?.summary?.digest);
  });

  it('edits flows: algorithm, application, adding a copy, removing one (timeline and hidden flows follow)', async () => {
    const h = make(THREE);
    h.controller.runFull();
    await waitFor(h.allDone);
    expect(h.controller.setFlowAlgorithm(1, 'linux_3_15')).toBe(true);
    await waitFor(h.allDone);
    let s = h.store.getState();
    expect(getAt(s.scenario, 'flows[1].algorithm')).toBe('linux_3_15');
    expect(s.runs.flow1?.summary?.flows[1]?.algorithm).toBe('linux_3_15');
    // Back to NewReno: the profile's own settings (its initial window) go back to the defaults.
    h.controller.setFlowAlgorithm(1, 'newreno');
    await waitFor(h.allDone);
    s = h.store.getState();
    expect(getAt(s.scenario, 'flows[1].tcp.initial_window')).toBe(getAt(s.scenario, 'flows[0].tcp.initial_window'));
    expect(s.runs.flow1?.summary?.flows[1]?.algorithm).toBe('newreno');
    expect(h.controller.setParam('flows[2].app.kind', 'thin')).toBe(true);
    await waitFor(h.allDone);
    expect(h.store.getState().runs.flow2?.summary?.flows[2]?.writes).toBeGreaterThan(0);
    expect(h.controller.addFlow()).toBe(true);
    await waitFor(h.allDone);
    s = h.store.getState();
    expect(s.keys).toHaveLength(4);
    // A copy of the last flow.
    expect(getAt(s.scenario, 'flows[3].app.kind')).toBe('thin');
    expect(getAt(s.scenario, 'flows[3].start')).toBe(2);
    s.toggleHidden(3);
    expect(h.controller.removeFlow(1)).toBe(true);
    await waitFor(h.allDone);
    s = h.store.getState();
    expect(s.keys).toEqual(['flow0', 'flow1', 'flow2']);
    expect(getAt(s.scenario, 'flows[1].algorithm')).toBe('old_tahoe');
    // Flow 3 was hidden; it is flow 2 now.
    expect(s.hidden).toEqual([2]);
    expect(s.runs.flow2?.summary?.flows).toHaveLength(3);
  });

  it('at the engine’s flow limit, adding says so and changes nothing', async () => {
    expect(MAX_FLOWS).toBe(64);
    const h = make(`?v=3&mode=compete&flows=${MAX_FLOWS}&duration=0.2`);
    h.controller.runFull();
    await waitFor(h.allDone, 60_000);
    expect(h.controller.addFlow()).toBe(false);
    const s = h.store.getState();
    expect(flowsOf(s.scenario)).toHaveLength(64);
    expect(s.notices.map((n) => n.message).join(' ')).toContain('The engine runs at most 64 flows in one run');
  });

  it('switching modes keeps the scenario sensible, both ways', async () => {
    const h = make('?v=3&alg=reno,newreno&duration=5&network.bottleneck.queue_packets=12');
    h.controller.runFull();
    await waitFor(h.allDone);
    h.controller.setMode('compete');
    await waitFor(h.allDone);
    let s = h.store.getState();
    // One flow per compared algorithm, on the same path.
    expect(s.keys).toEqual(['flow0', 'flow1']);
    expect(flowsOf(s.scenario).map((f) => f.algorithm)).toEqual(['reno', 'newreno']);
    expect(getAt(s.scenario, 'network.bottleneck.queue_packets')).toBe(12);
    expect(s.layout).toBe('overlay');
    expect(s.plots).toContain('fairness');
    expect(s.series.ssthresh).toBe(false);
    // And back: the algorithms the flows ran, each alone on flow 0.
    h.controller.setMode('compare');
    await waitFor(h.allDone);
    s = h.store.getState();
    expect(s.algorithms).toEqual(['reno', 'newreno']);
    expect(flowsOf(s.scenario)).toHaveLength(1);
    expect(getAt(s.scenario, 'flows[0].algorithm')).toBe('newreno');
    expect(s.keys).toEqual(['reno', 'newreno']);
    expect(s.layout).toBe('multiples');
    expect(s.plots).toEqual(['window', 'seq', 'queue']);
  });

  it('plays live: every flow advances step by step, and the finished run is the full run', async () => {
    const h = make('?v=3&mode=compete&flows=3&duration=3&f1.algorithm=reno&f2.start=1');
    h.controller.runFull();
    await waitFor(h.allDone);
    const full = h.store.getState().runs.flow0?.summary?.digest;
    h.controller.play();
    let done = false;
    for (let i = 0; i < 20_000 && !done; i += 1) {
      h.flushFrames();
      await new Promise((r) => setTimeout(r, 0));
      const s = h.store.getState();
      // Every flow is at the same simulated time.
      const nows = s.keys.map((k) => h.traces.get(k)?.now ?? 0);
      expect(new Set(nows).size).toBe(1);
      done = !s.live;
    }
    expect(done).toBe(true);
    expect(h.store.getState().runs.flow2?.summary?.digest).toBe(full);
  });

  it('a preset with several flows loads as a competition, its flows as they are', async () => {
    const preset = tables.presets.find((p) => flowsOf(p.scenario).length > 1);
    if (!preset) return;
    const h = make('?v=3&alg=reno');
    h.controller.runFull();
    await waitFor(h.allDone);
    h.controller.loadPreset(preset.name);
    await waitFor(h.allDone, 60_000);
    const s = h.store.getState();
    expect(s.mode).toBe('compete');
    expect(s.scenario).toEqual(preset.scenario);
    expect(s.keys).toHaveLength(flowsOf(preset.scenario).length);
    expect(s.runs.flow0?.summary?.flows).toHaveLength(flowsOf(preset.scenario).length);
  });

  it('an old comparison link still opens as a comparison', () => {
    const validate = realValidator();
    const { state, notices } = decodeShareState(
      '?v=2&alg=reno,newreno&flows=2&f1.algorithm=reno&f1.variant=reno',
      validate,
    );
    expect(notices).toEqual([]);
    expect(state.mode).toBe('compare');
    expect(state.algorithms).toEqual(['reno', 'newreno']);
    expect(getAt(state.scenario, 'flows[1].variant')).toBe('reno');
  });
});
