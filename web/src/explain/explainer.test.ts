// Explanations in the page, with the real engine (in-process workers): nothing is asked of
// the workers until the tools are used; then each run's decisions are the engine's own (the
// same as an explained Sim run alone), the steps walk them, a click picks the one it lands
// on, the link's `why` selects one, and the first divergence is the engine's.
import { afterEach, describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import { presetBase, runScenario } from '../scenario/algorithms';
import { defaultShareState } from '../scenario/shareState';
import { encodeShareState } from '../scenario/url';
import { createHarness } from '../test/appHarness';
import { waitFor } from '../test/inProcessWorker';
import { engineWasm } from '../test/wasm';
import type { DecisionJson } from '../engine/protocol';

const wasm = engineWasm();
const harnesses: ReturnType<typeof createHarness>[] = [];
const make = (query: string) => {
  const h = createHarness(query);
  harnesses.push(h);
  h.controller.runFull();
  return h;
};
afterEach(() => harnesses.splice(0).forEach((h) => h.dispose()));

const preset = tables.presets.find((p) => p.name === 'fall-floyd-reno-3drops');
if (!preset) throw new Error('no fall-floyd-reno-3drops preset');
const base = presetBase(preset.scenario).base;
const query = (extra = '') =>
  `?${encodeShareState({ ...defaultShareState(), scenario: base, algorithms: ['reno', 'newreno'] })}${extra}`;

/** The decisions of an explained run of the same scenario, straight from the engine. */
function engineDecisions(alg: 'reno' | 'newreno'): Omit<DecisionJson, 'index'>[] {
  const sim = new wasm.Sim(JSON.stringify(runScenario(base, alg)));
  sim.set_explain(true);
  sim.run_to_end();
  const list = JSON.parse(sim.decisions_json(0, sim.decisions_len())) as Omit<DecisionJson, 'index'>[];
  sim.free();
  return list;
}

async function explained(h: ReturnType<typeof createHarness>) {
  await waitFor(h.allDone);
  h.store.getState().setExplaining(true);
  await waitFor(() => ['reno', 'newreno'].every((k) => h.controller.explainer.index(k) !== null));
}

describe('explanations in the page', () => {
  it('asks nothing of the workers until the tools are used', async () => {
    const h = make(query());
    await waitFor(h.allDone);
    await new Promise((r) => setTimeout(r, 20));
    expect(h.controller.explainer.index('reno')).toBeNull();
    expect(h.store.getState().explaining).toBe(false);
  });

  it('indexes every decision of each run, as the engine makes them alone', async () => {
    const h = make(query());
    await explained(h);
    for (const alg of ['reno', 'newreno'] as const) {
      const want = engineDecisions(alg);
      const idx = h.controller.explainer.index(alg);
      expect(idx?.length).toBe(want.length);
      expect(idx?.t(want.length - 1)).toBe(want.at(-1)?.t);
      expect(idx?.machine?.states.map((s) => s.id)).toContain('fast_recovery');
    }
  });

  it('steps to the next loss: the fast retransmit of segment 14 at 2.0692 s, in the engine’s words', async () => {
    const h = make(query());
    await explained(h);
    const ex = h.controller.explainer;
    const r = ex.step(1, { kind: 'ruleKind', ruleKind: 'loss' });
    expect(r.ok).toBe(true);
    const sel = h.store.getState().selected;
    expect(sel?.key).toBe('reno');
    await waitFor(() => sel !== null && ex.detail(sel.key, sel.index) !== null);
    const d = ex.detail(sel?.key ?? '', sel?.index ?? -1);
    expect(d?.rule).toBe('loss.fast_retransmit');
    expect(d?.t).toBeCloseTo(2.0692, 4);
    expect(d?.text).toContain('3rd duplicate ACK for segment 14');
    expect(d).toMatchObject(engineDecisions('reno')[sel?.index ?? -1] ?? {});
    expect(h.store.getState().cursor).toBe(d?.t);
    // Forwards and back by one decision.
    const at = sel?.index ?? 0;
    ex.step(1);
    expect(h.store.getState().selected?.index).toBe(at + 1);
    ex.step(-1);
    ex.step(-1);
    expect(h.store.getState().selected?.index).toBe(at - 1);
    // The phase machine: the fast retransmit took the transition into fast recovery.
    const idx = ex.index('reno');
    const row = idx?.rowOf(at) ?? -1;
    const tr = idx?.machine?.transitions[idx.get('transition', row)];
    expect(tr?.label).toContain('fast retransmit');
    expect(idx?.phaseAt(row)).toBe(tables.codes.phases.indexOf('fast_recovery'));
  });

  it('a preset’s step starts at the run its lesson is about: Reno’s first timeout at 3.281080 s, not Old Tahoe’s', async () => {
    const all = ['old_tahoe', 'tahoe', 'reno', 'newreno'];
    const link = (extra: string) =>
      `?${encodeShareState({ ...defaultShareState(), scenario: base, algorithms: all })}${extra}`;
    for (const [extra, key, t] of [
      ['&preset=fall-floyd-reno-3drops', 'reno', 3.28108],
      ['', 'old_tahoe', 2.89892],
    ] as const) {
      const h = make(link(extra));
      await waitFor(h.allDone);
      h.store.getState().setExplaining(true);
      await waitFor(() => all.every((k) => h.controller.explainer.index(k) !== null));
      const r = h.controller.explainer.stepToRules(['timeout.expire']);
      expect(r.ok && r.ref.key).toBe(key);
      expect(h.store.getState().cursor).toBeCloseTo(t, 5);
    }
  });

  it('a step with nothing left says so, and the selection stays', async () => {
    const h = make(query());
    await explained(h);
    const ex = h.controller.explainer;
    ex.step(1, { kind: 'ruleKind', ruleKind: 'timeout' });
    const first = h.store.getState().selected;
    const r = ex.step(1, { kind: 'ruleKind', ruleKind: 'timeout' });
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.message).toMatch(/No timeout after t = 3\.28\d+ s/);
    expect(h.store.getState().selected).toEqual(first);
  });

  it('a click near a mark picks that decision; elsewhere the one in force there', async () => {
    const h = make(query());
    await explained(h);
    const s = h.store.getState();
    s.pickAt(2.0695, 0.001, 'reno');
    await waitFor(() => h.store.getState().selected !== null);
    const idx = h.controller.explainer.index('reno');
    const sel = h.store.getState().selected;
    expect(idx?.t(idx.rowOf(sel?.index ?? -1))).toBeCloseTo(2.0692, 4);
    expect(h.store.getState().cursor).toBeCloseTo(2.0692, 4);
    // Far from any decision: the last one before the cursor, and the cursor stays.
    h.store.getState().setFocus('newreno');
    h.store.getState().setCursor(9.5);
    const nidx = h.controller.explainer.index('newreno');
    const nsel = h.store.getState().selected;
    expect(nsel?.key).toBe('newreno');
    expect(nidx?.rowOf(nsel?.index ?? -1)).toBe(nidx?.lastAtOrBefore(9.5));
    expect(h.store.getState().cursor).toBe(9.5);
  });

  it('a click on the drop at a timeout explains the timeout, not the ssthresh it set', async () => {
    const want = engineDecisions('reno');
    const expire = want.find((d) => d.rule === 'timeout.expire');
    expect(expire).toBeDefined();
    const t = expire?.t ?? 0;
    // The ssthresh rule of the same instant is a loss response too (kind loss, listed first).
    expect(want.filter((d) => d.t === t).map((d) => d.rule)).toContain('ssthresh.half_cwnd');
    const h = make(query());
    await explained(h);
    h.store.getState().pickAt(t + 0.0005, 0.002, 'reno');
    await waitFor(() => h.store.getState().selected !== null);
    const sel = h.store.getState().selected;
    await waitFor(() => sel !== null && h.controller.explainer.detail(sel.key, sel.index) !== null);
    expect(h.controller.explainer.detail(sel?.key ?? '', sel?.index ?? -1)?.rule).toBe('timeout.expire');
  });

  it('the link’s why selects that decision and moves the cursor to it', async () => {
    const want = engineDecisions('newreno');
    const i = want.findIndex((d) => d.rule === 'recovery.partial_ack_reset');
    expect(i).toBeGreaterThan(0);
    const h = make(query(`&why=newreno:${i}`));
    await waitFor(h.allDone);
    await waitFor(() => h.store.getState().cursor === want[i]?.t);
    expect(h.store.getState().selected).toEqual({ key: 'newreno', index: i });
    expect(h.store.getState().focus).toBe('newreno');
  });

  it('a why beyond the run’s decisions is named, and the page keeps working', async () => {
    const h = make(query('&why=reno:999999'));
    await waitFor(h.allDone);
    await waitFor(() => h.store.getState().notices.some((n) => n.key === 'why'));
    expect(h.store.getState().notices.find((n) => n.key === 'why')?.message).toContain('why=reno:999999');
  });

  it('the first divergence of Reno and NewReno: Reno leaves recovery where NewReno sees a partial ACK', async () => {
    const h = make(query());
    await explained(h);
    await waitFor(() => h.store.getState().divergence?.status === 'done');
    const d = h.store.getState().divergence;
    expect(d?.pair).toEqual(['reno', 'newreno']);
    expect(d?.result?.t).toBeCloseTo(2.281080448, 9);
    expect(d?.result?.a[0]?.rule).toBe('recovery.reno_exit');
    expect(d?.result?.b[0]?.rule).toBe('recovery.partial_ack_reset');
  });

  it('explains every flow of a competition, each from its own decisions', async () => {
    const link = '?v=4&mode=compete&flows=2&duration=8&f1.algorithm=reno&f1.start=1&network.bottleneck.queue_packets=6';
    const h = make(link);
    await waitFor(h.allDone);
    h.store.getState().setExplaining(true);
    await waitFor(() => ['flow0', 'flow1'].every((k) => h.controller.explainer.index(k) !== null));
    // The same run explained alone: each flow's index is its own decisions.
    const sim = new wasm.Sim(JSON.stringify(h.store.getState().scenario));
    sim.set_explain(true);
    sim.run_to_end();
    const all = JSON.parse(sim.decisions_json(0, sim.decisions_len())) as { flow: number }[];
    sim.free();
    for (const flow of [0, 1]) {
      const idx = h.controller.explainer.index(`flow${flow}`);
      expect(idx?.length).toBe(all.filter((d) => d.flow === flow).length);
      expect(idx?.length).toBeGreaterThan(10);
    }
    h.store.getState().setFocus('flow1');
    const r = h.controller.explainer.step(1, { kind: 'ruleKind', ruleKind: 'loss' });
    expect(r.ok).toBe(true);
    const sel = h.store.getState().selected;
    expect(sel?.key).toBe('flow1');
    await waitFor(() => h.controller.explainer.detail('flow1', sel?.index ?? -1) !== null);
    expect(h.controller.explainer.detail('flow1', sel?.index ?? -1)?.flow).toBe(1);
    // No divergence between flows of one run (that is for compared algorithms).
    expect(h.store.getState().divergence).toBeNull();
  });

  it('explains a live session up to where it is, and follows it as it plays on', async () => {
    const h = make(query());
    await waitFor(h.allDone);
    h.controller.setSpeed(20);
    h.controller.play();
    while (h.store.getState().time < 2.5) {
      const t = h.store.getState().time;
      h.flushFrames();
      await waitFor(() => h.store.getState().time > t);
    }
    h.controller.pause();
    const at = h.store.getState().time;
    h.store.getState().setExplaining(true);
    await waitFor(() => h.controller.explainer.index('reno') !== null);
    const idx = h.controller.explainer.index('reno');
    expect(idx?.now).toBeCloseTo(at, 9);
    // The same decisions as the engine makes up to that time.
    const sim = new wasm.Sim(JSON.stringify(runScenario(base, 'reno')));
    sim.set_explain(true);
    sim.advance(at);
    const want = (JSON.parse(sim.decisions_json(0, sim.decisions_len())) as { flow: number }[]).filter(
      (d) => d.flow === 0,
    ).length;
    sim.free();
    expect(idx?.length).toBe(want);
    // Playing on, the index grows with the run.
    h.controller.play();
    const n = idx?.length ?? 0;
    while (h.store.getState().live && h.store.getState().time < 4) {
      const t = h.store.getState().time;
      h.flushFrames();
      await waitFor(() => h.store.getState().time > t || !h.store.getState().live);
    }
    h.controller.pause();
    await waitFor(() => (h.controller.explainer.index('reno')?.length ?? 0) > n);
    expect(h.controller.explainer.index('reno')?.now).toBeGreaterThan(at);
  });
});
