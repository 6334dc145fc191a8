// The controller with the real engine (in-process workers): what a person does, what runs.
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINE_FAULT_TEXT } from '../engine/client';
import { ENGINE_NOTICE, failedMessage, type RunSpec } from '../engine/protocol';
import { tables } from '../engine/tables';
import { CUSTOM, isCustomFlow, orderAlgorithms, presetBase, runScenario } from '../scenario/algorithms';
import { getAt, setAt } from '../scenario/paths';
import { encodeShareState } from '../scenario/url';
import { createHarness } from '../test/appHarness';
import { engineWasm } from '../test/wasm';
import { waitFor } from '../test/inProcessWorker';
import { shareStateOf } from './urlSync';

const wasm = engineWasm();
const harnesses: ReturnType<typeof createHarness>[] = [];
const make = (query = '', workers = 2, reducedMotion = false) => {
  const h = createHarness(query, workers, reducedMotion);
  harnesses.push(h);
  return h;
};
afterEach(() => harnesses.splice(0).forEach((h) => h.dispose()));

/** A comparison run to its end and drawn: the page settled, as computing ahead needs it. */
async function settledHarness(query: string) {
  const h = make(query);
  h.controller.runFull();
  await waitFor(h.allDone);
  h.controller.frameDrawn();
  return h;
}

function directDigest(scenario: object, variant: string): string {
  const sim = new wasm.Sim(JSON.stringify(setAt(scenario as never, 'flows[0].variant', variant)));
  sim.run_to_end();
  const d = sim.digest();
  sim.free();
  return d;
}

function directDigestOf(scenario: object): string {
  const sim = new wasm.Sim(JSON.stringify(scenario));
  sim.run_to_end();
  const d = sim.digest();
  sim.free();
  return d;
}

function digests(h: ReturnType<typeof createHarness>): Record<string, string | undefined> {
  const s = h.store.getState();
  return Object.fromEntries(s.algorithms.map((a) => [a, s.runs[a]?.summary?.digest]));
}

/** Plays a live session to its end, running `during` once after `at` simulated seconds. */
async function playToEnd(h: ReturnType<typeof createHarness>, at = Infinity, during: () => void = () => {}) {
  let done = false;
  for (let i = 0; i < 100_000 && !done; i += 1) {
    h.flushFrames();
    await new Promise((r) => setTimeout(r, 0));
    const s = h.store.getState();
    if (s.time >= at && at !== Infinity) {
      during();
      at = Infinity;
    }
    done = !s.live;
  }
  expect(done).toBe(true);
}

describe('the app controller', () => {
  it('runs every selected algorithm on the same scenario and seed, as the engine would alone', async () => {
    const h = make('?v=1&alg=tahoe,reno,newreno');
    h.controller.runFull();
    await waitFor(h.allDone);
    const s = h.store.getState();
    for (const a of ['tahoe', 'reno', 'newreno']) {
      expect(s.runs[a]?.summary?.digest).toBe(directDigest(s.scenario, a));
      expect(s.runs[a]?.summary?.flows[0]?.variant).toBe(a);
    }
    // One redraw request for the finished comparison; its timing is recorded once drawn.
    expect(s.drawn).toBeGreaterThan(0);
    h.controller.frameDrawn();
    expect(h.store.getState().timing).toMatchObject({ runs: 3, workers: 2 });
    expect(h.controller.isIdle()).toBe(true);
  });

  it('a lost engine worker is one plain notice with its cause folded; the next comparison clears it', async () => {
    const h = make('?v=1&alg=reno,newreno');
    h.controller.runFull();
    const gen = h.store.getState().gen;
    const text = ENGINE_FAULT_TEXT.crashed;
    // What the engine client reports when a worker's wasm trapped: each lost run, fatally.
    h.controller.onEngine(failedMessage(gen, 'reno', text, 'unreachable'));
    h.controller.onEngine(failedMessage(gen, 'newreno', text, 'unreachable'));
    const notices = h.store.getState().notices;
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ key: ENGINE_NOTICE, message: text, detail: 'unreachable' });
    h.controller.runFull();
    expect(h.store.getState().notices).toEqual([]);
    await waitFor(h.allDone);
    expect(h.store.getState().runs.reno?.status).toBe('done');
  });

  it('reads rounds only for a shown rounds view; showing it later re-runs for them', async () => {
    const h = make('?v=1&alg=reno,newreno');
    h.controller.runFull();
    await waitFor(h.allDone);
    expect(h.traces.get('reno')?.rounds).toBeNull();
    // Showing the view asks for the rounds (RoundsPlots calls loadRounds when it mounts).
    const gen = h.store.getState().gen;
    h.store.getState().showPlot('rounds');
    h.controller.loadRounds();
    expect(h.store.getState().gen).toBe(gen + 1);
    await waitFor(h.allDone);
    for (const a of ['reno', 'newreno']) expect(h.traces.get(a)?.rounds?.rounds.length).toBeGreaterThan(5);
    // Every run has them now: nothing more to do; a change re-runs with them.
    h.controller.loadRounds();
    expect(h.store.getState().gen).toBe(gen + 1);
    h.controller.setParam('network.bottleneck.queue_packets', 12);
    await waitFor(h.allDone);
    expect(h.traces.get('reno')?.rounds?.rounds.length).toBeGreaterThan(5);
  });

  it('paused, a change re-runs to the end at once; the newest change wins', async () => {
    const h = make('?v=1&alg=reno');
    h.controller.runFull();
    await waitFor(h.allDone);
    const first = digests(h).reno;
    h.controller.setParam('network.bottleneck.queue_packets', 10);
    h.controller.setParam('network.bottleneck.queue_packets', 12);
    const gen = h.store.getState().gen;
    await waitFor(h.allDone);
    const s = h.store.getState();
    expect(s.gen).toBe(gen);
    expect(getAt(s.scenario, 'network.bottleneck.queue_packets')).toBe(12);
    expect(s.runs.reno?.summary?.digest).toBe(directDigest(s.scenario, 'reno'));
    expect(s.runs.reno?.summary?.digest).not.toBe(first);
  });

  it('refuses a value out of range or a combination the engine refuses, with a notice', async () => {
    const h = make('?v=1&alg=reno');
    const before = h.store.getState().scenario;
    h.controller.setParam('network.bottleneck.bandwidth', 5);
    h.controller.setParam('flows[0].tcp.rwnd', 100);
    const s = h.store.getState();
    expect(s.scenario).toBe(before);
    // The engine's words: the parameter's path, the value and what is allowed.
    expect(s.notices.map((n) => n.message).join('\n')).toMatch(
      /Not applied: network\.bottleneck\.bandwidth = 5 bit\/s is out of range; allowed 1000 to/,
    );
    expect(s.notices.map((n) => n.message).join('\n')).toMatch(/smaller than the MSS/);
    expect(s.notices.map((n) => n.key)).toContain('network.bottleneck.bandwidth');
  });

  it('a slider step: one engine validation, and the runs take one scenario text and their algorithm', async () => {
    const h = make('?v=1&alg=reno,newreno,tahoe');
    h.controller.runFull();
    await waitFor(h.allDone);
    const posted: RunSpec[][] = [];
    const start = h.client.start.bind(h.client);
    h.client.start = (mode, runs) => {
      posted.push(runs);
      return start(mode, runs);
    };
    const validated = h.validations();
    expect(h.controller.setParam('network.bottleneck.delay', 0.03)).toBe(true);
    expect(h.validations()).toBe(validated + 1);
    const runs = posted[0] ?? [];
    expect(runs.map((r) => r.key).sort()).toEqual(['newreno', 'reno', 'tahoe']);
    for (const r of runs) expect(r.algorithm).toBe(r.key);
    expect(new Set(runs.map((r) => r.scenarioJson)).size).toBe(1);
    expect(runs[0]?.scenarioJson).toBe(JSON.stringify(h.store.getState().scenario));
    await waitFor(h.allDone);
    // The runs the engine made are those the page's own runScenario describes.
    const s = h.store.getState();
    for (const key of ['reno', 'newreno', 'tahoe']) {
      expect(s.runs[key]?.summary?.digest).toBe(directDigestOf(runScenario(s.scenario, key)));
    }
    // A refused value costs one validation too, and its notice is the engine's.
    expect(h.controller.setParam('network.bottleneck.delay', -1)).toBe(false);
    expect(h.validations()).toBe(validated + 2);
    expect(h.store.getState().notices.at(-1)?.message).toMatch(/^Not applied: network\.bottleneck\.delay = -1/);
  });

  it('live: a value the engine refuses is not queued, and its notice names the parameter', () => {
    const h = make('?v=1&alg=reno&duration=5');
    h.controller.play();
    const timeline = h.store.getState().scenario.timeline;
    expect(h.controller.setParam('network.bottleneck.bandwidth', 5)).toBe(false);
    const s = h.store.getState();
    expect(s.pendingLive).toEqual({});
    expect(s.scenario.timeline).toEqual(timeline);
    const notice = s.notices.at(-1);
    expect(notice?.key).toBe('network.bottleneck.bandwidth');
    expect(notice?.message).toMatch(/Not applied: .*network\.bottleneck\.bandwidth = 5 bit\/s .*allowed 1000 to/);
    expect(h.controller.setParam('network.bottleneck.bandwidth', 3_000_000)).toBe(true);
    expect(h.store.getState().pendingLive).toEqual({ 'network.bottleneck.bandwidth': 3_000_000 });
  });

  it('live: a live change becomes a timeline entry at the play head, and the link replays it exactly', async () => {
    const h = make('?v=1&alg=reno,newreno&duration=5');
    h.controller.setSpeed(10);
    h.controller.play();
    expect(h.store.getState()).toMatchObject({ live: true, playing: true });
    await playToEnd(h, 2, () => h.controller.setParam('network.bottleneck.bandwidth', 3000000));
    const s = h.store.getState();
    expect(s.playing).toBe(false);
    const timeline = s.scenario.timeline as { at: number; set: string; value: number }[];
    expect(timeline).toHaveLength(1);
    expect(timeline[0]).toMatchObject({ set: 'network.bottleneck.bandwidth', value: 3000000 });
    expect(timeline[0]?.at).toBeGreaterThanOrEqual(2);
    // The base value is unchanged: the change lives on the timeline.
    expect(getAt(s.scenario, 'network.bottleneck.bandwidth')).toBe(2000000);
    const live = digests(h);

    // The link, opened elsewhere, runs to the end at once and gives the same runs.
    const other = make(`?${encodeShareState(shareStateOf(s))}`);
    other.controller.runFull();
    await waitFor(other.allDone);
    expect(digests(other)).toEqual(live);
    expect(other.store.getState().notices).toEqual([]);
  });

  it('live: a slider dragged over many frames records a few timeline entries, the last value winning', async () => {
    const h = make('?v=1&alg=reno&duration=3');
    h.controller.setSpeed(2);
    h.controller.play();
    const values = Array.from({ length: 24 }, (_, i) => 2_000_000 + 100_000 * (i + 1));
    for (const v of values) {
      h.controller.setParam('network.bottleneck.bandwidth', v);
      const t = h.store.getState().time;
      h.flushFrames();
      // Each frame's step is answered before the next frame (as on a fast machine).
      await waitFor(() => h.store.getState().time > t);
    }
    h.controller.pause();
    await waitFor(() => Object.keys(h.store.getState().pendingLive).length === 0);
    const timeline = h.store.getState().scenario.timeline as { value: number }[];
    expect(timeline.length).toBeGreaterThanOrEqual(2);
    expect(timeline.length).toBeLessThanOrEqual(Math.ceil(values.length / 8) + 1);
    expect(timeline.at(-1)?.value).toBe(values.at(-1));
  });

  it('live: a change to a setting that cannot change mid-run restarts playback with it', async () => {
    const h = make('?v=1&alg=reno&duration=4');
    h.controller.setSpeed(20);
    h.controller.play();
    for (let i = 0; i < 20; i += 1) {
      h.flushFrames();
      await new Promise((r) => setTimeout(r, 1));
    }
    const gen = h.store.getState().gen;
    expect(h.store.getState().time).toBeGreaterThan(0);
    h.controller.setParam('flows[0].tcp.initial_window', 4);
    const s = h.store.getState();
    expect(s.gen).toBeGreaterThan(gen);
    expect(s).toMatchObject({ live: true, playing: true, time: 0 });
    expect(s.scenario.timeline).toEqual([]);
    expect(getAt(s.scenario, 'flows[0].tcp.initial_window')).toBe(4);
  });

  it('pause keeps the session; a change while paused re-runs to the end', async () => {
    const h = make('?v=1&alg=newreno&duration=4');
    h.controller.play();
    for (let i = 0; i < 10; i += 1) {
      h.flushFrames();
      await new Promise((r) => setTimeout(r, 1));
    }
    h.controller.pause();
    expect(h.store.getState()).toMatchObject({ live: true, playing: false });
    expect(h.flushFrames()).toBe(0);
    h.controller.setParam('network.bottleneck.bandwidth', 3000000);
    expect(h.store.getState()).toMatchObject({ live: false, playing: false });
    await waitFor(h.allDone);
    expect(h.store.getState().scenario.timeline).toEqual([]);
    expect(getAt(h.store.getState().scenario, 'network.bottleneck.bandwidth')).toBe(3000000);
  });

  it('loads a preset: its scenario, its algorithm added to the comparison', async () => {
    const h = make('?v=1&alg=newreno');
    h.controller.loadPreset('fall-floyd-reno-2drops');
    const s = h.store.getState();
    expect(s.presetName).toBe('fall-floyd-reno-2drops');
    expect(s.algorithms).toEqual(['reno', 'newreno']);
    const preset = tables.presets.find((p) => p.name === 'fall-floyd-reno-2drops');
    expect(getAt(s.scenario, 'flows[0].drops')).toEqual(getAt(preset?.scenario ?? {}, 'flows[0].drops'));
    await waitFor(h.allDone);
    expect(digests(h).reno).toBe(directDigest(preset?.scenario ?? {}, 'reno'));
    // Changing anything leaves the exact preset; the one it came from stays named.
    h.controller.setParam('seed', 2);
    expect(h.store.getState().presetName).toBeNull();
    expect(h.store.getState().preset).toBe('fall-floyd-reno-2drops');
    expect(shareStateOf(h.store.getState()).preset).toBe('fall-floyd-reno-2drops');
  });

  it('starts the explanation tools at the run a preset’s lesson is about (its focus), else at the first run', () => {
    const h = make('?v=4&alg=old_tahoe,tahoe,reno,newreno');
    const ex = h.controller.explainer;
    expect(ex.focusKey()).toBe('old_tahoe');
    // NewReno against Reno: Reno runs first, the lesson is about NewReno.
    h.controller.loadPreset('fall-floyd-newreno-3drops');
    expect(h.store.getState().algorithms).toEqual(['reno', 'newreno']);
    expect(h.store.getState().focus).toBe('newreno');
    expect(ex.focusKey()).toBe('newreno');
    // CUBIC's lesson on the long fat path starts at CUBIC, not at NewReno.
    h.controller.loadPreset('cubic-long-fat-path');
    expect(ex.focusKey()).toBe('cubic');
    // A competition preset about one flow starts at that flow; one about none at the first.
    h.controller.loadPreset('thin-vs-greedy');
    expect(ex.focusKey()).toBe('flow0');
    h.controller.loadPreset('jacobson-four-new');
    expect([h.store.getState().focus, ex.focusKey()]).toEqual([null, 'flow0']);
    // A link to a preset starts at its focus too; a link without one at the first run.
    const linked = make('?v=4&alg=old_tahoe,tahoe,reno,newreno&preset=fall-floyd-reno-3drops');
    expect(linked.controller.explainer.focusKey()).toBe('reno');
    const query = encodeShareState({ ...shareStateOf(linked.store.getState()), preset: null, lesson: null });
    expect(make(`?${query}`).controller.explainer.focusKey()).toBe('old_tahoe');
  });

  it('loads a preset with cross traffic: the throughput plot is shown and the throughput table arrives', async () => {
    const h = make('?v=2&alg=newreno');
    expect(h.store.getState().plots).toEqual(['window', 'seq', 'queue']);
    h.controller.loadPreset('br-tcp-komuro');
    const s = h.store.getState();
    expect(s.plots).toEqual(['window', 'seq', 'queue', 'throughput']);
    expect(s.algorithms).toEqual(['newreno', 'br_tcp']);
    await waitFor(h.allDone, 60_000);
    const runs = h.store.getState().runs;
    // BR-TCP keeps the reserved pipe full; NewReno halves below it on every loss.
    const goodput = (a: string) => runs[a]?.summary?.flows[0]?.goodput_bps ?? 0;
    expect(goodput('br_tcp')).toBeGreaterThan(2 * goodput('newreno'));
    for (const a of ['newreno', 'br_tcp']) {
      const trace = h.traces.get(a);
      expect(trace?.throughput.classes).toEqual(['flow 0', 'cross 0']);
      expect(trace?.tables.throughput.length).toBeGreaterThan(1000);
      expect(runs[a]?.summary?.cross[0]?.delivered_bps).toBeGreaterThan(0);
    }
    // The link carries the plot, so it opens the same view.
    expect(encodeShareState(shareStateOf(h.store.getState()))).toContain('plots=window,seq,queue,throughput');
  }, 60_000);

  it('shows the write timeline and the CDFs for a preset or an application that writes a stream, and the write table arrives', async () => {
    const h = make('?v=3&alg=newreno&duration=3');
    h.controller.setParam('flows[0].app.kind', 'scripted');
    expect(h.store.getState().plots).toEqual(['window', 'seq', 'queue']);
    h.controller.setParam('flows[0].app.kind', 'thin');
    expect(h.store.getState().plots).toEqual(['window', 'seq', 'queue', 'writes', 'thin']);
    await waitFor(h.allDone);
    const summary = h.store.getState().runs.newreno?.summary?.flows[0];
    const trace = h.traces.get('newreno');
    expect(trace?.tables.writes.length).toBeGreaterThan(200);
    expect(trace?.tables.writes.length).toBeLessThanOrEqual(summary?.writes ?? 0);
    expect(encodeShareState(shareStateOf(h.store.getState()))).toContain('plots=window,seq,queue,writes,thin');
    // Hidden by hand, they stay hidden while the sender keeps writing.
    h.store.getState().togglePlot('writes');
    h.controller.setParam('flows[0].app.kind', 'cbr');
    expect(h.store.getState().plots).toEqual(['window', 'seq', 'queue', 'thin']);
    // A preset whose sender writes a stream (the NetSim CBR lab) shows them; a bulk one
    // leaves the view as it is.
    const p = make('?v=3&alg=newreno');
    p.controller.loadPreset('fall-floyd-reno-1drops');
    expect(p.store.getState().plots).toEqual(['window', 'seq', 'queue']);
    p.controller.loadPreset('netsim-reno');
    expect(p.store.getState().plots).toEqual(['window', 'seq', 'queue', 'writes', 'thin']);
    await waitFor(p.allDone, 60_000);
  }, 60_000);

  it('shows BBR’s model and the queueing delay for a preset or a comparison with a BBR run', async () => {
    // A comparison that includes BBR (cubic-bufferbloat's lesson) and a competition with a
    // BBR flow (bbr-cubic-deep): both add them to what is shown.
    const h = make('?v=4&alg=newreno');
    h.controller.loadPreset('cubic-bufferbloat');
    expect(h.store.getState().algorithms).toContain('bbr');
    expect(h.store.getState().plots).toEqual(['window', 'seq', 'queue', 'qdelay', 'bbr']);
    expect(encodeShareState(shareStateOf(h.store.getState()))).toContain('plots=window,seq,queue,qdelay,bbr');
    h.controller.loadPreset('bbr-cubic-deep');
    expect(h.store.getState().mode).toBe('compete');
    expect(h.store.getState().plots).toEqual([
      'window',
      'queue',
      'qdelay',
      'throughput',
      'share',
      'fairness',
      'retx',
      'bbr',
    ]);
    // A preset without BBR leaves the view as it is.
    const c = make('?v=4&alg=newreno');
    c.controller.loadPreset('cubic-long-fat-path');
    expect(c.store.getState().plots).toEqual(['window', 'seq', 'queue']);
    // Ticking BBR into a comparison adds them once; hidden by hand, they stay hidden while
    // BBR stays compared.
    c.controller.toggleAlgorithm('bbr');
    expect(c.store.getState().plots).toEqual(['window', 'seq', 'queue', 'qdelay', 'bbr']);
    c.store.getState().togglePlot('bbr');
    c.controller.toggleAlgorithm('newreno');
    expect(c.store.getState().plots).toEqual(['window', 'seq', 'queue', 'qdelay']);
    // A competition flow made BBR does the same.
    const k = make('?v=4&mode=compete&flows=2&duration=2');
    expect(k.store.getState().plots).not.toContain('bbr');
    k.controller.setFlowAlgorithm(1, 'bbr');
    expect(k.store.getState().plots).toContain('bbr');
    expect(k.store.getState().plots).toContain('qdelay');
    await waitFor(k.allDone, 60_000);
    expect(k.traces.get('flow1')?.tables.model.length).toBeGreaterThan(10);
    expect(k.traces.get('flow0')?.tables.model.length).toBe(0);
  }, 60_000);

  it('runs catalogue names as the engine names them; custom runs the scenario’s own flow 0', async () => {
    const h = make('?v=2&alg=newreno,newreno_cwv,custom&f0.app.kind=on_off&f0.cc.idle_policy=restart&duration=8');
    h.controller.runFull();
    await waitFor(h.allDone);
    const s = h.store.getState();
    for (const a of ['newreno', 'newreno_cwv', CUSTOM]) {
      const run = s.runs[a]?.summary;
      expect(run?.digest, a).toBe(directDigestOf(runScenario(s.scenario, a)));
      expect(run?.flows[0]?.algorithm).toBe(a === CUSTOM ? 'newreno_restart' : a);
    }
    // The custom flow here is NewReno + restart exactly: the engine names it so.
    expect(s.runs.custom?.summary?.digest).toBe(directDigestOf(runScenario(s.scenario, 'newreno_restart')));
  });

  it('loads a preset with a lesson: the lesson’s algorithms, the defaults in the scenario', async () => {
    const preset = tables.presets.find((p) => p.lesson && presetBase(p.scenario).own !== CUSTOM);
    if (!preset?.lesson) return;
    const h = make('?v=2&alg=reno');
    h.controller.loadPreset(preset.name);
    const s = h.store.getState();
    expect(s.lesson).toBe(preset.name);
    expect(s.algorithms).toEqual(orderAlgorithms([...preset.lesson.compare, presetBase(preset.scenario).own]));
    expect(isCustomFlow(s.scenario)).toBe(false);
    await waitFor(h.allDone);
    // Its own algorithm reproduces the preset's run exactly.
    const own = presetBase(preset.scenario).own;
    expect(digests(h)[own]).toBe(directDigestOf(preset.scenario));
    // Another preset shows its own lesson (every preset has one).
    h.controller.loadPreset('fall-floyd-reno-1drops');
    expect(h.store.getState().lesson).toBe('fall-floyd-reno-1drops');
  });

  it('loads a preset whose flow 0 matches no catalogue entry as custom, keeping its settings', async () => {
    const preset = tables.presets.find((p) => presetBase(p.scenario).own === CUSTOM);
    if (!preset) return;
    const h = make('?v=2&alg=newreno');
    h.controller.loadPreset(preset.name);
    const s = h.store.getState();
    expect(s.algorithms).toContain(CUSTOM);
    expect(s.scenario).toEqual(preset.scenario);
    await waitFor(h.allDone);
    expect(digests(h)[CUSTOM]).toBe(directDigestOf(preset.scenario));
    // Loading a preset without a lesson afterwards drops custom (it was that scenario's).
    h.controller.loadPreset('fall-floyd-reno-1drops');
    expect(h.store.getState().algorithms).not.toContain(CUSTOM);
  });

  it('live: moving the write interval of an on/off CWV sender is recorded and replayed', async () => {
    const h = make('?v=2&alg=newreno,newreno_cwv&f0.app.kind=on_off&f0.app.write_size=2000&duration=4');
    h.controller.setSpeed(10);
    h.controller.play();
    await playToEnd(h, 1.5, () => h.controller.setParam('flows[0].app.write_interval', 0.5));
    const s = h.store.getState();
    const timeline = s.scenario.timeline as { at: number; set: string; value: number }[];
    expect(timeline).toHaveLength(1);
    expect(timeline[0]).toMatchObject({ set: 'flows[0].app.write_interval', value: 0.5 });
    const live = digests(h);
    expect(live.newreno).not.toBe(live.newreno_cwv);
    const other = make(`?${encodeShareState(shareStateOf(s))}`);
    other.controller.runFull();
    await waitFor(other.allDone);
    expect(digests(other)).toEqual(live);
  });

  it('reduced motion: live plots redraw in a few calm steps, not every frame', async () => {
    const redraws = async (reduced: boolean) => {
      const h = make('?v=1&alg=reno&duration=1', 1, reduced);
      h.controller.setSpeed(1);
      h.controller.play();
      const start = h.store.getState().drawn;
      await playToEnd(h);
      return h.store.getState().drawn - start;
    };
    const normal = await redraws(false);
    const calm = await redraws(true);
    // 1 s at 1/60 s per frame: one redraw per step normally.
    expect(normal).toBeGreaterThanOrEqual(60);
    expect(calm).toBeLessThan(normal / 4);
    expect(calm).toBeGreaterThanOrEqual(1);
  });

  it('does not start a run too large for a browser tab, and says why', () => {
    const h = make('?v=1&alg=reno&duration=100000&network.bottleneck.bandwidth=1000000000');
    h.controller.runFull();
    const s = h.store.getState();
    expect(s.runs.reno).toMatchObject({ status: 'stopped', error: 'too large to run' });
    expect(s.notices.map((n) => n.message).join()).toMatch(/Not run: .* million packets per algorithm/);
    expect(h.controller.isIdle()).toBe(true);
  });

  it('warns before a long run, and Stop ends it keeping what was computed', async () => {
    const h = make('?v=1&alg=reno&duration=2000&network.bottleneck.bandwidth=100000000');
    h.controller.runFull();
    expect(
      h.store
        .getState()
        .notices.map((n) => n.message)
        .join(),
    ).toMatch(/takes a while/);
    await waitFor(() => (h.store.getState().runs.reno?.now ?? 0) > 0);
    h.controller.stop();
    const s = h.store.getState();
    expect(s.runs.reno?.status).toBe('stopped');
    const now = s.runs.reno?.now ?? 0;
    expect(now).toBeLessThan(2000);
    await new Promise((r) => setTimeout(r, 50));
    expect(h.store.getState().runs.reno?.now).toBe(now);
    expect(h.controller.isIdle()).toBe(true);
  });

  it('computes a focused slider’s neighbouring values ahead; the key press gets them at once, not validated again', async () => {
    const h = await settledHarness('?v=1&alg=reno,newreno');
    const asked: RunSpec[][][] = [];
    const ahead = h.client.ahead.bind(h.client);
    h.client.ahead = (comparisons) => {
      asked.push(comparisons);
      ahead(comparisons);
    };
    const path = 'network.bottleneck.bandwidth';
    // The neighbours are computed; 0 bit/s is out of the parameter's range: skipped.
    h.controller.lookAhead({ path, allFlows: false, values: [2_500_000, 1_500_000, 0] });
    await waitFor(() => asked.length === 1);
    const scenarios = (asked[0] ?? []).map((c) => c.map((r) => JSON.parse(r.scenarioJson) as object));
    expect((asked[0] ?? []).map((c) => c.map((r) => r.key))).toEqual([
      ['reno', 'newreno'],
      ['reno', 'newreno'],
    ]);
    expect(scenarios.map((c) => c.map((x) => getAt(x as never, path)))).toEqual([
      [2_500_000, 2_500_000],
      [1_500_000, 1_500_000],
    ]);
    await waitFor(() => h.client.aheadReady() === 4);
    const validated = h.validations();
    h.controller.setParam(path, 2_500_000);
    expect(h.validations()).toBe(validated);
    // The results are there before the next task: a microtask after the request.
    await Promise.resolve();
    expect(h.allDone()).toBe(true);
    h.controller.frameDrawn();
    const s = h.store.getState();
    expect(s.timing).toMatchObject({ runs: 2, aheadRuns: 2 });
    for (const a of ['reno', 'newreno']) expect(s.runs[a]?.summary?.digest).toBe(directDigest(s.scenario, a));
    expect(directDigest(s.scenario, 'reno')).not.toBe(directDigest(setAt(s.scenario, path, 1_500_000), 'reno'));
    // The next look-ahead (3 and 2 Mbit/s) validates only the new value: 2 Mbit/s was the
    // value before, and its validation is kept.
    const before = h.validations();
    h.controller.lookAhead({ path, allFlows: false, values: [3_000_000, 2_000_000] });
    await waitFor(() => asked.length === 2);
    expect(h.validations()).toBe(before + 1);
    // Focus gone: what was computed ahead is freed.
    h.controller.lookAhead(null);
    expect(asked.at(-1)).toEqual([]);
  });

  it('hands the plots each comparison computed ahead as the step will show it, the same chunks and summaries', async () => {
    const h = await settledHarness('?v=1&alg=reno,newreno');
    const path = 'network.bottleneck.bandwidth';
    h.controller.lookAhead({ path, allFlows: false, values: [2_500_000, 1_500_000] });
    await waitFor(() => (h.worlds.at(-1) ?? []).length === 2);
    const worlds = h.worlds.at(-1) ?? [];
    // The likeliest first, whatever order the workers finished in.
    expect(worlds.map((w) => getAt(w.patch.scenario as never, path))).toEqual([2_500_000, 1_500_000]);
    const [up] = worlds;
    if (!up) throw new Error('no world');
    expect(up.patch).toMatchObject({ live: false, playing: false, time: 0, keys: ['reno', 'newreno'] });
    for (const k of ['reno', 'newreno']) {
      expect(up.patch.runs?.[k]?.status).toBe('done');
      expect(up.traces.get(k)?.source).not.toBeNull();
    }
    // The step shows exactly those: its traces hold the same chunk, its runs the same summary
    // objects (what a plot drawn ahead is matched by). Nothing more is drawn ahead until
    // its frame, and what was drawn is kept for it.
    const suspends = h.suspends();
    const calls = h.worlds.length;
    h.controller.setParam(path, 2_500_000);
    expect(h.suspends()).toBe(suspends + 1);
    expect(h.worlds.length).toBe(calls);
    await Promise.resolve();
    expect(h.allDone()).toBe(true);
    const s = h.store.getState();
    for (const k of ['reno', 'newreno']) {
      expect(h.traces.get(k)?.source).toBe(up.traces.get(k)?.source);
      expect(s.runs[k]?.summary).toBe(up.patch.runs?.[k]?.summary);
    }
    expect(s.scenario).toEqual(up.patch.scenario);
    // The next look-ahead first lets go of these; the focus leaving, of everything.
    h.controller.frameDrawn();
    h.controller.lookAhead({ path, allFlows: false, values: [3_000_000] });
    await waitFor(() => h.worlds.length > calls);
    expect(h.worlds[calls]).toEqual([]);
    h.controller.lookAhead(null);
    expect(h.worlds.at(-1)).toEqual([]);
  });

  it('computes ahead in a competition too: one run of every flow, as the step would start it', async () => {
    const h = await settledHarness('?v=4&mode=compete&flows=2&duration=2');
    const path = 'network.bottleneck.bandwidth';
    h.controller.lookAhead({ path, allFlows: false, values: [2_500_000, 1_500_000] });
    await waitFor(() => h.client.aheadReady() === 2);
    h.controller.setParam(path, 1_500_000);
    await Promise.resolve();
    expect(h.allDone()).toBe(true);
    h.controller.frameDrawn();
    const s = h.store.getState();
    expect(s.timing).toMatchObject({ runs: 1, aheadRuns: 2 });
    // The engine's reading of the scenario is stored, as a step without computing ahead does.
    expect(getAt(s.scenario as never, path)).toBe(1_500_000);
    expect(s.runs.flow0?.summary?.digest).toBe(directDigestOf(s.scenario));
    expect(s.runs.flow1?.summary?.digest).toBe(directDigestOf(s.scenario));
  });

  it('computes nothing ahead while playing live or for runs above the limit', async () => {
    const h = await settledHarness('?v=1&alg=reno');
    const asked: RunSpec[][][] = [];
    h.client.ahead = (comparisons) => void asked.push(comparisons);
    // 20 s at 100 Gbit/s: millions of packets, above AHEAD_MAX_PACKETS.
    h.controller.lookAhead({ path: 'network.bottleneck.bandwidth', allFlows: false, values: [100e9] });
    await waitFor(() => asked.length === 1);
    expect(asked[0]).toEqual([]);
    h.controller.lookAhead(null);
    h.controller.startLive();
    const before = asked.length;
    h.controller.lookAhead({ path: 'network.bottleneck.bandwidth', allFlows: false, values: [1_500_000] });
    await new Promise((r) => setTimeout(r, 20));
    expect(asked.length).toBe(before);
  });

  it('keeps at least one algorithm selected', () => {
    const h = make('?v=1&alg=reno');
    h.controller.toggleAlgorithm('reno');
    expect(h.store.getState().algorithms).toEqual(['reno']);
    h.controller.toggleAlgorithm('tahoe');
    expect(h.store.getState().algorithms).toEqual(['tahoe', 'reno']);
  });
});
