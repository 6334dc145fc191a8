// What the person does → what the engine does. Panels call these actions; the store only
// records state. Rules (issue 3):
//   - paused (or finished), any change re-runs every selected algorithm to the end at once;
//   - playing, a live parameter becomes a timeline change at the current simulated time
//     (Sim.apply_change), so the run stays reproducible; any other change restarts playback
//     from t = 0 with the new value;
//   - playback advances the engine by a fixed step per animation frame (speed / 60 s).
import type { Engine, EngineListener } from '../engine/client';
import type { RunSpec } from '../engine/protocol';
import { tables, type Scenario } from '../engine/tables';
import type { TraceStore } from '../engine/traceStore';
import type { JsonValue } from '../lib/json';
import { orderVariants, type Variant } from '../scenario/algorithms';
import { specOf } from '../scenario/params';
import { setAt } from '../scenario/paths';
import type { Notice } from '../scenario/shareState';
import { checkParam, type Validator } from '../scenario/url';
import type { AppStore } from './store';
import type { Timing } from './types';

/** Simulated seconds per frame at speed 1 (one frame of a 60 Hz display). */
export const FRAME_STEP_S = 1 / 60;
/** Playback speeds offered. */
export const SPEEDS: readonly number[] = [0.1, 0.25, 0.5, 1, 2, 5, 10, 20];

/** Browser services the controller uses (tests substitute their own). */
export interface ControllerEnv {
  now(): number;
  requestFrame(cb: () => void): number;
  cancelFrame(id: number): void;
  /** Asks the plots for a frame (so the 'drawn' time and idle flag are recorded). */
  requestRedraw(): void;
  /** How long the last frame's drawing took, ms. */
  lastFrameMs(): number;
  /** The person asked for reduced motion (prefers-reduced-motion). */
  reducedMotion(): boolean;
}

/** During playback, changes to one setting are sent to the engine at most once per this
 *  many frames (the last value wins), so dragging a slider for a second records a few
 *  timeline entries rather than sixty. */
export const LIVE_CHANGE_FRAMES = 8;

/** With reduced motion, live plots are redrawn at most this often instead of every frame, ms. */
export const REDUCED_MOTION_DRAW_MS = 500;

/** While a long run computes, the plots redraw with its progress at most this often, ms. */
export const PROGRESS_DRAW_MS = 100;

/** Above this many simulated packets per run (the engine's estimate), a notice says the
 *  run will take a while; it still runs, with progress and a Stop button. */
export const WARN_PACKETS = 5e6;
/** Above this many, the run is not started: the engine keeps every trace row, so such a
 *  run would exhaust a browser tab's memory (the CLI has no such limit). */
export const MAX_PACKETS = 50e6;

/** Timings kept for the benchmark page (window.__cwndlab.timings). */
export const TIMINGS_KEPT = 200;

/** The app's actions. */
export class AppController {
  private requestAt = 0;
  private resultsAt: number | null = null;
  private awaitingDraw = false;
  private outstanding = 0;
  private frame = 0;
  private lastBump = 0;
  /** Live changes waiting for the next flush, by path. */
  private liveQueue = new Map<string, JsonValue>();
  private frameCount = 0;
  private lastLiveFlush = -Infinity;
  /** Every timing recorded (benchmarks read it). */
  readonly timings: Timing[] = [];

  constructor(
    readonly store: AppStore,
    private readonly engine: Engine,
    readonly traces: TraceStore,
    private readonly validate: Validator,
    private readonly env: ControllerEnv,
  ) {}

  /** The listener to give the engine client. */
  readonly onEngine: EngineListener = (msg) => {
    const s = this.store.getState();
    if (msg.gen !== s.gen) return;
    switch (msg.type) {
      case 'chunk': {
        const trace = this.traces.append(msg.key, msg.chunk, msg.now);
        s.runProgress(msg.gen, msg.key, {
          status: msg.finished ? 'done' : 'running',
          now: msg.now,
          ...(msg.summary ? { summary: msg.summary } : {}),
          version: trace?.version ?? 0,
          computeMs: msg.computeMs,
          readMs: msg.readMs,
        });
        if (s.live) this.liveStepAnswered(msg.now);
        else this.checkComplete();
        return;
      }
      case 'changed': {
        const timeline = Array.isArray(msg.timeline) ? msg.timeline : [];
        s.setTimeline(timeline);
        const last = timeline[timeline.length - 1];
        if (last && typeof last === 'object' && !Array.isArray(last) && typeof last.set === 'string') {
          s.setPendingLive(last.set, undefined);
        }
        return;
      }
      case 'failed': {
        if (msg.key) s.runProgress(msg.gen, msg.key, { status: 'error', error: msg.message });
        s.clearPendingLive();
        this.notify([{ key: msg.problems[0]?.path ?? '', message: `The engine stopped: ${msg.message}` }]);
        if (s.live) this.liveStepAnswered(s.time);
        else this.checkComplete();
        this.bump();
        return;
      }
    }
  };

  private notify(list: Notice[]) {
    this.store.getState().addNotices(list);
  }

  private runSpecs(scenario: Scenario, algorithms: readonly Variant[]): RunSpec[] {
    return algorithms.map((key) => ({
      key,
      scenarioJson: JSON.stringify(setAt(scenario, 'flows[0].variant', key)),
    }));
  }

  /** False (with a notice) when the scenario is too large to run in a browser tab. */
  private sizeAllowed(): boolean {
    const s = this.store.getState();
    const v = this.validate(JSON.stringify(s.scenario));
    const est = v.ok ? v.estimatedPackets : undefined;
    if (est === undefined || est < WARN_PACKETS) return true;
    const millions = `${(est / 1e6).toPrecision(3)} million`;
    if (est >= MAX_PACKETS) {
      this.notify([
        {
          key: 'duration',
          message:
            `Not run: this scenario simulates about ${millions} packets per algorithm, more than a browser tab ` +
            `can hold (limit ${MAX_PACKETS / 1e6} million). Shorten the duration or lower the bandwidth.`,
        },
      ]);
      return false;
    }
    this.notify([
      {
        key: 'duration',
        message: `This scenario simulates about ${millions} packets per algorithm: it takes a while (progress below; Stop ends it).`,
      },
    ]);
    return true;
  }

  private begin(mode: 'full' | 'live') {
    const s = this.store.getState();
    if (!this.sizeAllowed()) {
      this.stopLoop();
      const gen = this.engine.cancel();
      this.traces.reset(s.algorithms);
      s.runsStarted(gen, s.algorithms);
      for (const a of s.algorithms) s.runProgress(gen, a, { status: 'stopped', error: 'too large to run' });
      s.setPlayback({ live: false, playing: false });
      this.env.requestRedraw();
      return;
    }
    const gen = this.engine.start(mode, this.runSpecs(s.scenario, s.algorithms));
    this.traces.reset(s.algorithms);
    s.runsStarted(gen, s.algorithms);
    s.clearPendingLive();
    this.requestAt = this.env.now();
    this.resultsAt = null;
    this.awaitingDraw = false;
    this.outstanding = 0;
    this.lastBump = this.requestAt;
    this.env.requestRedraw();
  }

  /** Runs every selected algorithm to the end at once. */
  runFull(): void {
    this.stopLoop();
    this.store.getState().setPlayback({ live: false, playing: false, time: 0 });
    this.begin('full');
  }

  /** Starts live playback from t = 0. */
  startLive(): void {
    this.store.getState().setPlayback({ live: true, playing: true, time: 0 });
    this.begin('live');
    this.startLoop();
  }

  private checkComplete() {
    const s = this.store.getState();
    const infos = s.algorithms.map((a) => s.runs[a]);
    if (this.resultsAt !== null) return;
    if (infos.some((r) => !r || r.status === 'running')) {
      // A long run: show its progress now and then, not on every chunk, and never spend
      // more than about a fifth of the time drawing it.
      const wait = Math.max(PROGRESS_DRAW_MS, 4 * this.env.lastFrameMs());
      if (this.env.now() - this.lastBump >= wait) this.bump();
      return;
    }
    this.resultsAt = this.env.now();
    this.awaitingDraw = true;
    // One redraw per comparison, when every run is in (not one per arriving run).
    this.bump();
  }

  private bump() {
    this.lastBump = this.env.now();
    this.store.getState().bumpDrawn();
    this.env.requestRedraw();
  }

  /** The plots drew a frame: records when a comparison's results reached the screen. */
  frameDrawn(): void {
    if (!this.awaitingDraw || this.resultsAt === null) return;
    this.awaitingDraw = false;
    const s = this.store.getState();
    const timing: Timing = {
      gen: s.gen,
      runs: s.algorithms.length,
      workers: this.engine.size,
      computeMs: Math.max(0, ...s.algorithms.map((a) => s.runs[a]?.computeMs ?? 0)),
      readMs: Math.max(0, ...s.algorithms.map((a) => s.runs[a]?.readMs ?? 0)),
      resultsMs: this.resultsAt - this.requestAt,
      drawnMs: this.env.now() - this.requestAt,
      drawMs: this.env.lastFrameMs(),
    };
    this.timings.push(timing);
    if (this.timings.length > TIMINGS_KEPT) this.timings.shift();
    s.setTiming(timing);
  }

  /** True when nothing is running, playing or waiting to be drawn. */
  isIdle(): boolean {
    const s = this.store.getState();
    return !s.playing && !this.awaitingDraw && s.algorithms.every((a) => s.runs[a]?.status !== 'running');
  }

  // ---- live playback ----

  private startLoop() {
    if (this.frame) return;
    const loop = () => {
      this.frame = 0;
      const s = this.store.getState();
      if (!s.playing || !s.live) return;
      this.frame = this.env.requestFrame(loop);
      this.frameCount += 1;
      // One fixed step per frame; if the engine has not answered the last one, skip this
      // frame rather than queue work (the page never falls behind the engine).
      if (this.outstanding > 0) return;
      if (this.frameCount - this.lastLiveFlush >= LIVE_CHANGE_FRAMES) this.flushLive();
      const active = s.algorithms.filter((a) => s.runs[a]?.status !== 'error').length;
      if (active === 0) return;
      this.outstanding = active;
      this.engine.advance(s.speed * FRAME_STEP_S);
    };
    this.frame = this.env.requestFrame(loop);
  }

  /** Sends queued live changes; they take effect at the current simulated time. */
  private flushLive() {
    if (this.liveQueue.size === 0) return;
    for (const [path, value] of this.liveQueue) this.engine.change(path, JSON.stringify(value));
    this.liveQueue.clear();
    this.lastLiveFlush = this.frameCount;
  }

  private stopLoop() {
    this.liveQueue.clear();
    if (this.frame) this.env.cancelFrame(this.frame);
    this.frame = 0;
    this.outstanding = 0;
  }

  private liveStepAnswered(now: number) {
    this.outstanding = Math.max(0, this.outstanding - 1);
    const s = this.store.getState();
    if (this.outstanding > 0) return;
    s.setPlayback({ time: now });
    const done = s.algorithms.every((a) => s.runs[a]?.status !== 'running');
    // Reduced motion: the plots advance in calm steps rather than scrolling every frame.
    if (done || !this.env.reducedMotion() || this.env.now() - this.lastBump >= REDUCED_MOTION_DRAW_MS) this.bump();
    if (done) {
      // The end of the run: what is on screen is now a complete, reproducible result.
      this.stopLoop();
      s.setPlayback({ live: false, playing: false });
      this.env.requestRedraw();
    }
  }

  /** Play: resumes a paused live session, or starts one from t = 0. */
  play(): void {
    const s = this.store.getState();
    if (s.live) {
      s.setPlayback({ playing: true });
      this.startLoop();
    } else {
      this.startLive();
    }
  }

  /** Pause: the live session stays where it is (changes still queued apply now). */
  pause(): void {
    this.flushLive();
    this.store.getState().setPlayback({ playing: false });
    this.stopLoop();
    this.env.requestRedraw();
  }

  /** Restart playback from t = 0. */
  restart(): void {
    this.stopLoop();
    this.startLive();
  }

  /** Sets the playback speed (simulated seconds per second at 60 frames/s). */
  setSpeed(speed: number): void {
    this.store.getState().setPlayback({ speed });
  }

  // ---- changes ----

  private accept(next: Scenario): boolean {
    const result = this.validate(JSON.stringify(next));
    if (result.ok) return true;
    this.notify(result.problems.map((p) => ({ key: p.path, message: `Not applied: ${p.path} ${p.message}` })));
    return false;
  }

  private rerun() {
    const s = this.store.getState();
    this.clampView();
    if (s.live && s.playing) this.startLive();
    else this.runFull();
  }

  private clampView() {
    const s = this.store.getState();
    const d = typeof s.scenario.duration === 'number' ? s.scenario.duration : Infinity;
    if (s.xDomain && s.xDomain[1] > d) s.setXDomain(null);
    if (s.cursor !== null && s.cursor > d) s.setCursor(null);
  }

  /** A control changed one parameter (concrete path, engine units). */
  setParam(path: string, value: JsonValue): void {
    const checked = checkParam(path, value);
    if (!checked.ok) {
      this.notify([{ key: path, message: `Not applied: ${checked.message}.` }]);
      return;
    }
    const s = this.store.getState();
    if (s.live && s.playing && specOf(path)?.live) {
      s.setPendingLive(path, value);
      this.liveQueue.set(path, value);
      return;
    }
    const next = setAt(s.scenario, path, value);
    if (!this.accept(next)) return;
    s.setParamValue(path, value);
    this.rerun();
  }

  /** Adds or removes an algorithm from the comparison. */
  toggleAlgorithm(v: Variant): void {
    this.store.getState().toggleAlgorithm(v);
    this.rerun();
  }

  /** Compares exactly these algorithms. */
  setAlgorithms(list: readonly Variant[]): void {
    this.store.getState().setAlgorithms(list);
    this.rerun();
  }

  /** Loads an engine preset; its algorithm joins the comparison. */
  loadPreset(name: string): void {
    const preset = tables.presets.find((p) => p.name === name);
    if (!preset) {
      this.notify([{ key: 'preset', message: `There is no preset "${name}".` }]);
      return;
    }
    const s = this.store.getState();
    const variant = preset.scenario.flows;
    const presetVariant =
      Array.isArray(variant) && variant[0] && typeof variant[0] === 'object' && !Array.isArray(variant[0])
        ? variant[0].variant
        : undefined;
    // The comparison sets each run's algorithm; the stored scenario keeps the default.
    const def = specOf('flows[].variant')?.default ?? null;
    const scenario = setAt(structuredClone(preset.scenario), 'flows[0].variant', def);
    s.setScenario(scenario, name);
    if (typeof presetVariant === 'string') s.setAlgorithms(orderVariants([...s.algorithms, presetVariant]));
    s.setXDomain(null);
    s.setCursor(null);
    this.rerun();
  }

  /** Removes one timeline change. */
  removeTimelineEntry(index: number): void {
    this.store.getState().removeTimelineEntry(index);
    this.rerun();
  }

  /** Stops the runs in progress; what they computed so far stays on screen. */
  stop(): void {
    const s = this.store.getState();
    this.stopLoop();
    this.engine.cancel();
    for (const a of s.algorithms) {
      if (s.runs[a]?.status === 'running') s.runProgress(s.gen, a, { status: 'stopped' });
    }
    s.setPlayback({ live: false, playing: false });
    this.bump();
  }

  /** Stops everything (page unload, tests). */
  dispose(): void {
    this.stopLoop();
    this.engine.cancel();
  }
}
