// What the person does → what the engine does. Panels call these actions; the store only
// records state. Rules (issue 3):
//   - paused (or finished), any change re-runs every selected algorithm to the end at once;
//   - playing, a live parameter becomes a timeline change at the current simulated time
//     (Sim.apply_change), so the run stays reproducible; any other change restarts playback
//     from t = 0 with the new value;
//   - playback advances the engine by a fixed step per animation frame (speed / 60 s).
import type { ChunkMessage, Engine, EngineListener } from '../engine/client';
import type { FrameReport } from '../plots/core/scheduler';
import { ENGINE_NOTICE, epochNow, type RunSpec } from '../engine/protocol';
import type { Validation } from '../engine/validation';
import type { Scenario } from '../engine/tables';
import { TraceStore } from '../engine/traceStore';
import type { World } from '../plots/core/prerender';
import { isJsonObject, type JsonValue } from '../lib/json';
import type { AlgorithmName } from '../scenario/algorithms';
import { hasTransfers, THIN_PLOTS, writesStream } from '../scenario/apps';
import { anyBbr, BBR_PLOTS } from '../scenario/bbr';
import {
  flowKey,
  flowsOf,
  hiddenAfterRemoval,
  MAX_FLOWS,
  maxFlowsText,
  newFlow,
  runKeysOf,
  toComparison,
  toCompetition,
  withFlowAlgorithm,
  withoutFlow,
  type Mode,
} from '../scenario/competition';
import { presetFocus, presetNamed, presetView } from '../scenario/presets';
import { specOf } from '../scenario/params';
import { concretePath, durationOf, setAt } from '../scenario/paths';
import { defaultLayout, defaultPlots, PLOT_IDS, type Notice, type PlotId } from '../scenario/shareState';
import type { Validator } from '../scenario/url';
import { seriesFor, type AppStore } from './store';
import { Explainer } from '../explain/explainer';
import { KeptValidations, liveCheck, refusalNotices } from './engineChecks';
import { RequestTiming } from './requestTiming';
import { runSizeCheck } from './runSize';
import type { AppState, RunInfo, Timing } from './types';

/** Simulated seconds per frame at speed 1 (one frame of a 60 Hz display). */
export const FRAME_STEP_S = 1 / 60;
/** Playback speeds offered. */
export const SPEEDS: readonly number[] = [0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20];

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
  /** Marks an instant for performance traces (performance.mark); optional. */
  mark?(name: string): void;
  /** The comparisons computed ahead whose results are in, as the page would show them, the
   *  likeliest first: their plots are drawn ahead (plots/core/prerender.ts); an empty list
   *  lets go of them, or with `keepBitmaps` only stops drawing ahead. Optional. */
  prerender?(worlds: readonly World[], keepBitmaps?: boolean): void;
}

/** During playback, changes to one setting are sent to the engine at most once per this
 *  many frames (the last value wins), so dragging a slider for a second records a few
 *  timeline entries rather than sixty. */
export const LIVE_CHANGE_FRAMES = 8;

/** With reduced motion, live plots are redrawn at most this often instead of every frame, ms. */
export const REDUCED_MOTION_DRAW_MS = 500;

/** While a long run computes, the plots redraw with its progress at most this often, ms. */
export const PROGRESS_DRAW_MS = 100;

/** What a comparison run to the end sets of the playback (runFull; a step computed ahead
 *  is drawn as it). */
const FULL_RUN = { live: false, playing: false, time: 0 } as const;

/** Timings kept for the benchmark page (window.__cwndlab.timings). */
export const TIMINGS_KEPT = 200;

/** A focused slider's neighbouring values are computed ahead only for scenarios of at most
 *  this many simulated packets per run (the engine's estimate): about 10 ms of engine time
 *  per run in a browser, so the two neighbours of a four-algorithm comparison cost a
 *  worker ~40 ms after each step, while nothing else runs. Larger runs are not computed
 *  ahead (the default comparison simulates ~6 000 packets per run). */
export const AHEAD_MAX_PACKETS = 50_000;

/** A slider that has the keyboard focus: its setting (`allFlows`: a schema path set on every
 *  flow of a competition, as `setParamAllFlows`) and the values its next key press may
 *  choose (the neighbouring stops), the likeliest first (the workers compute them in this
 *  order). */
export interface LookAhead {
  path: string;
  allFlows: boolean;
  values: readonly number[];
}

/** How a parameter change is applied: the paths it sets, whether the engine's reading of
 *  the scenario is stored, and the view change that goes with it. */
interface ParamChange {
  paths: readonly string[];
  engineReading: boolean;
  viewOf: (before: Scenario, next: Scenario) => Partial<AppState>;
}

export class AppController {
  /** The current request's phases, for its Timing. */
  private readonly timing = new RequestTiming();
  private resultsAt: number | null = null;
  private awaitingDraw = false;
  /** The current comparison's plots in view are drawn (false from its request until then). */
  private viewDrawn = true;
  /** Run progress received but not yet in the store: applied in one update per redraw. */
  private pending = new Map<string, Partial<RunInfo>>();
  private outstanding = 0;
  private frame = 0;
  private lastBump = 0;
  /** Engine runs of the current comparison (a competition is one run of several flows). */
  private runCount = 0;
  /** Live changes waiting for the next flush, by path. */
  private liveQueue = new Map<string, JsonValue>();
  private frameCount = 0;
  private lastLiveFlush = -Infinity;
  /** Every timing recorded (benchmarks read it). */
  readonly timings: Timing[] = [];
  /** Explanations: asks the workers for decisions once the tools are used. */
  readonly explainer: Explainer;
  /** The focused slider's next values (`lookAhead`), or null. */
  private aheadTarget: LookAhead | null = null;
  /** A computation ahead is scheduled (a timer) or waits for the comparison to be drawn. */
  private aheadTimer: ReturnType<typeof setTimeout> | null = null;
  /** The engine's last validations (engineChecks.ts). */
  private readonly validations: KeptValidations;
  /** Runs computed ahead were asked for (an empty list frees them when the focus leaves). */
  private aheadAsked = false;

  constructor(
    readonly store: AppStore,
    private readonly engine: Engine,
    readonly traces: TraceStore,
    validate: Validator,
    private readonly env: ControllerEnv,
  ) {
    this.explainer = new Explainer(store, engine);
    this.validations = new KeptValidations(validate);
  }

  /** The listener to give the engine client. */
  readonly onEngine: EngineListener = (msg) => {
    const s = this.store.getState();
    if (msg.gen !== s.gen) return;
    switch (msg.type) {
      case 'chunk': {
        this.traces.append(msg.key, msg.chunk, msg.now, msg.throughput, msg.rounds ?? null);
        this.timing.chunk(msg, epochNow());
        // Held here and applied with the redraw: the page re-renders once per comparison
        // (or per live step, or per progress redraw), not once per arriving run.
        this.pending.set(msg.key, {
          ...this.pending.get(msg.key),
          status: msg.finished ? 'done' : 'running',
          now: msg.now,
          ...(msg.summary ? { summary: msg.summary } : {}),
        });
        if (s.live) {
          this.liveStepAnswered(msg.now);
          return;
        }
        // A long run's progress (at most every 100 ms per run) goes to the store at once;
        // finished runs wait for the comparison's redraw.
        if (!msg.finished) this.flush(false);
        this.checkComplete();
        return;
      }
      case 'changed': {
        const timeline = Array.isArray(msg.timeline) ? msg.timeline : [];
        s.setTimeline(timeline);
        const last = timeline[timeline.length - 1];
        if (isJsonObject(last) && typeof last.set === 'string') {
          s.setPendingLive(last.set, undefined);
        }
        return;
      }
      case 'failed': {
        if (msg.key) this.pending.set(msg.key, { ...this.pending.get(msg.key), status: 'error', error: msg.message });
        s.clearPendingLive();
        // A lost worker (client.ts) says what happened in plain words, with its cause folded;
        // the notice goes when the next comparison starts (on a fresh worker).
        if (msg.fatal) {
          this.notify([{ key: ENGINE_NOTICE, message: msg.message, ...(msg.detail ? { detail: msg.detail } : {}) }]);
        } else {
          this.notify([{ key: msg.problems[0]?.path ?? '', message: `The engine stopped: ${msg.message}` }]);
        }
        if (s.live) this.liveStepAnswered(s.time);
        else this.checkComplete();
        this.bump();
        return;
      }
    }
  };

  /** Status of a run including progress not yet applied to the store. */
  private statusOf(key: string): RunInfo['status'] | undefined {
    return this.pending.get(key)?.status ?? this.store.getState().runs[key]?.status;
  }

  /** Applies held progress to the store, with a redraw if asked: one store update. */
  private flush(redraw: boolean) {
    const s = this.store.getState();
    if (this.pending.size === 0 && !redraw) return;
    const updates = this.pending;
    this.pending = new Map();
    if (redraw) this.lastBump = this.env.now();
    s.runsProgress(s.gen, updates, redraw);
    if (redraw) this.env.requestRedraw();
  }

  private notify(list: Notice[]) {
    this.store.getState().addNotices(list);
  }

  /** One run per algorithm: the base scenario with that algorithm on flow 0 (the engine
   *  applies it, reading the scenario once: RunSpec.algorithm); in a competition one run of
   *  the scenario as it is, read flow by flow. */
  private runSpecs(mode: Mode, scenario: Scenario, algorithms: readonly AlgorithmName[], rounds: boolean): RunSpec[] {
    if (mode === 'compete') {
      const flowKeys = flowsOf(scenario).map((_, i) => flowKey(i));
      return [{ key: 'compete', scenarioJson: JSON.stringify(scenario), flowKeys, rounds }];
    }
    const scenarioJson = JSON.stringify(scenario);
    return algorithms.map((key) => ({ key, scenarioJson, algorithm: key, rounds }));
  }

  /**
   * The rounds view was shown after its runs were made without rounds (RunSpec.rounds):
   * re-runs them with their rounds. Nothing when every shown run has its rounds or is still
   * computing (a run started while the view is shown reads them).
   */
  loadRounds(): void {
    const s = this.store.getState();
    if (!s.plots.includes('rounds') || s.live) return;
    const { keys } = this.runKeysFor({});
    const lacking = keys.some((k) => s.runs[k]?.status === 'done' && this.traces.get(k)?.rounds === null);
    if (lacking) this.rerun();
  }

  /** False (with a notice) when the scenario is too large to run in a browser tab. `v` is
   *  the scenario's validation when the caller already has it. */
  private sizeAllowed(scenario: Scenario, v: Validation = this.validation(JSON.stringify(scenario))): boolean {
    const { allowed, notice } = runSizeCheck(v.ok ? v.estimatedPackets : undefined);
    if (notice) this.notify([notice]);
    return allowed;
  }

  /**
   * Starts a comparison of `patch` applied to the state (a changed scenario, selection,
   * playback, view): the runs are posted to the workers first, then the store is updated
   * once, so the engine starts while the page renders the change.
   */
  /** The runs a comparison of `patch` applied to the state posts, in `mode`. Rounds only
   *  where they are shown (or the run plays live, where the view may open any time): reading
   *  them is on the way from a slider step to its plots. */
  private specsFor(mode: 'full' | 'live', patch: Partial<AppState>): RunSpec[] {
    const s = this.store.getState();
    const rounds = mode === 'live' || (patch.plots ?? s.plots).includes('rounds');
    return this.runSpecs(patch.mode ?? s.mode, patch.scenario ?? s.scenario, patch.algorithms ?? s.algorithms, rounds);
  }

  private begin(mode: 'full' | 'live', patch: Partial<AppState> = {}, validation?: Validation) {
    const s = this.store.getState();
    const scenario = patch.scenario ?? s.scenario;
    const { keys, oneRun } = this.runKeysFor(patch);
    if (!this.sizeAllowed(scenario, validation)) {
      this.pending.clear();
      this.stopLoop();
      const gen = this.engine.cancel();
      this.traces.reset(keys, oneRun);
      s.comparisonStarted(gen, keys, { ...patch, live: false, playing: false });
      const stopped = { status: 'stopped', error: 'too large to run' } as const;
      s.runsProgress(gen, new Map(keys.map((a) => [a, stopped])), false);
      this.env.requestRedraw();
      return;
    }
    this.timing.start(this.env.now(), epochNow());
    this.pending.clear();
    s.dismissNoticesAbout(ENGINE_NOTICE);
    this.env.mark?.('cwndlab:request');
    const specs = this.specsFor(mode, patch);
    this.runCount = specs.length;
    // Nothing is drawn ahead until this comparison is drawn (its frame may copy what was).
    this.env.prerender?.([], true);
    const gen = this.engine.start(mode, specs);
    this.traces.reset(keys, oneRun);
    this.resultsAt = null;
    this.awaitingDraw = false;
    this.viewDrawn = false;
    this.outstanding = 0;
    this.lastBump = this.timing.at;
    s.comparisonStarted(gen, keys, patch);
    this.env.requestRedraw();
  }

  /** Runs every selected algorithm to the end at once. */
  runFull(patch: Partial<AppState> = {}, validation?: Validation): void {
    this.stopLoop();
    this.begin('full', { ...patch, ...FULL_RUN }, validation);
  }

  /** Starts live playback from t = 0. */
  startLive(patch: Partial<AppState> = {}, validation?: Validation): void {
    this.begin('live', { ...patch, live: true, playing: true, time: 0 }, validation);
    if (this.store.getState().live) this.startLoop();
  }

  private checkComplete() {
    const s = this.store.getState();
    if (this.resultsAt !== null) return;
    if (s.keys.some((a) => (this.statusOf(a) ?? 'running') === 'running')) {
      // A long run: show its progress now and then, not on every chunk, and never spend
      // more than about a fifth of the time drawing it.
      const wait = Math.max(PROGRESS_DRAW_MS, 4 * this.env.lastFrameMs());
      if (this.env.now() - this.lastBump >= wait) this.bump();
      return;
    }
    this.resultsAt = this.env.now();
    this.env.mark?.('cwndlab:results');
    this.awaitingDraw = true;
    // One redraw per comparison, when every run is in (not one per arriving run).
    this.bump();
  }

  private bump() {
    this.flush(true);
  }

  /**
   * The plots drew a frame (called after every animation frame; without a report: every
   * plot is drawn). Records when a comparison's results reached the plots in view, and
   * when every plot had them.
   */
  frameDrawn(report?: FrameReport): void {
    if (!this.awaitingDraw || this.resultsAt === null) return;
    const now = this.env.now();
    const r = report ?? { start: now, pendingInView: 0, pending: 0, drawn: 0, drawMs: 0, burstMs: 0 };
    const inView = () => {
      this.env.mark?.('cwndlab:drawn');
      // The plots in view show the results: a focused slider's next values may be computed
      // now, while the plots out of view are drawn.
      this.viewDrawn = true;
      this.scheduleAhead();
    };
    if (!this.timing.frame(r, now, inView)) return;
    this.awaitingDraw = false;
    const s = this.store.getState();
    const meta = { gen: s.gen, runs: this.runCount, workers: this.engine.size, resultsAt: this.resultsAt };
    const timing = this.timing.timing(meta, now, r.burstMs);
    this.timings.push(timing);
    if (this.timings.length > TIMINGS_KEPT) this.timings.shift();
    s.setTiming(timing);
    this.scheduleAhead();
  }

  /** True when nothing is running, playing or waiting to be drawn. */
  isIdle(): boolean {
    const s = this.store.getState();
    return !s.playing && !this.awaitingDraw && s.keys.every((a) => s.runs[a]?.status !== 'running');
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
      const active = s.keys.filter((a) => s.runs[a]?.status !== 'error').length;
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
    const done = s.keys.every((a) => this.statusOf(a) !== 'running');
    // Reduced motion: the plots advance in calm steps rather than scrolling every frame.
    const redraw = done || !this.env.reducedMotion() || this.env.now() - this.lastBump >= REDUCED_MOTION_DRAW_MS;
    this.flush(redraw);
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

  /** The engine's check of live changes; false (with a notice naming the parameter and the
   *  allowed values) if refused. */
  private acceptLive(changes: readonly (readonly [string, JsonValue])[]): boolean {
    const check = liveCheck(this.store.getState().scenario, changes);
    const result = this.validation(check.json);
    if (!result.ok) this.notify(check.notices(result.problems));
    return result.ok;
  }

  /** The engine's validation of a changed scenario, or null (with a notice) if refused. */
  private accept(next: Scenario): Validation | null {
    const result = this.validation(JSON.stringify(next));
    if (result.ok) return result;
    this.notify(refusalNotices(result.problems));
    return null;
  }

  /** The engine's validation of a scenario's JSON (kept: engineChecks.ts). */
  private validation(json: string): Validation {
    return this.validations.get(json);
  }

  /** Re-runs with `patch` applied: to the end when paused, from t = 0 when playing. */
  private rerun(patch: Partial<AppState> = {}, validation?: Validation) {
    const s = this.store.getState();
    if (s.live && s.playing) this.startLive(this.clamped(patch), validation);
    else this.runFull(this.clamped(patch), validation);
  }

  /** `patch` with the view clamped to its scenario's end (clampView). */
  private clamped(patch: Partial<AppState>): Partial<AppState> {
    return { ...this.clampView(patch.scenario ?? this.store.getState().scenario), ...patch };
  }

  /** The runs' page keys of a comparison of `patch` applied to the state, and whether they
   *  are the flows of one run (a competition). */
  private runKeysFor(patch: Partial<AppState>): { keys: string[]; oneRun: boolean } {
    const s = this.store.getState();
    const mode = patch.mode ?? s.mode;
    return {
      keys: runKeysOf(mode, patch.algorithms ?? s.algorithms, patch.scenario ?? s.scenario),
      oneRun: mode === 'compete',
    };
  }

  /** Drops a zoom window or cursor beyond the scenario's end. */
  private clampView(scenario: Scenario): Partial<AppState> {
    const s = this.store.getState();
    const d = durationOf(scenario, Infinity);
    const out: Partial<AppState> = {};
    if (s.xDomain && s.xDomain[1] > d) out.xDomain = null;
    if (s.cursor !== null && s.cursor > d) out.cursor = null;
    return out;
  }

  /**
   * A control changed one parameter (concrete path, engine units); `view` is a change of
   * the view that goes with it (e.g. showing the throughput plot when cross traffic is
   * added), applied only if the value is. Returns false when the value was refused (a
   * notice says why).
   */
  setParam(path: string, value: JsonValue, view: Partial<AppState> = {}): boolean {
    return this.applyParams(this.paramChange(path, false, view), value);
  }

  /**
   * Several parameters at once, in one re-run: a control whose value implies another's (a
   * bit error rate chosen while another loss model is in force makes "ber" the model). Each
   * value is checked as setParam checks it; while playing, live ones queue as timeline
   * changes together.
   */
  setParams(changes: readonly (readonly [string, JsonValue])[]): boolean {
    const first = changes[0];
    if (first === undefined) return false;
    const s = this.store.getState();
    if (s.live && s.playing && changes.every(([p]) => specOf(p)?.live)) {
      if (!this.acceptLive(changes)) return false;
      for (const [p, v] of changes) {
        s.setPendingLive(p, v);
        this.liveQueue.set(p, v);
      }
      return true;
    }
    let next = s.scenario;
    for (const [p, v] of changes) next = setAt(next, p, v);
    const validation = this.accept(next);
    if (!validation) return false;
    this.rerun(this.patchOf(this.paramChange(first[0], false), next, validation), validation);
    return true;
  }

  /** How `setParam` (or, with `allFlows`, `setParamAllFlows`) applies a change of `path`. */
  private paramChange(path: string, allFlows: boolean, view: Partial<AppState> = {}): ParamChange {
    const s = this.store.getState();
    if (allFlows) {
      return {
        paths: flowsOf(s.scenario).map((_, i) => concretePath(path, i)),
        engineReading: true,
        viewOf: () => ({}),
      };
    }
    // A competition keeps the engine's reading of its flows, so a flow whose settings no
    // longer match its entry is named custom, as the engine names it.
    return {
      paths: [path],
      engineReading: s.mode === 'compete',
      viewOf: (before, next) => ({ ...this.viewForApp(before, next), ...view }),
    };
  }

  /** The scenario `value` makes of the current one (at every path of the change). */
  private changed({ paths }: ParamChange, value: JsonValue): Scenario {
    let next = this.store.getState().scenario;
    for (const p of paths) next = setAt(next, p, value);
    return next;
  }

  /** The state a change leads to: the patch a re-run applies. */
  private patchOf(change: ParamChange, next: Scenario, validation: Validation): Partial<AppState> {
    const s = this.store.getState();
    const stored = change.engineReading && validation.ok ? validation.scenario : next;
    return { ...change.viewOf(s.scenario, next), scenario: stored, presetName: null };
  }

  /**
   * Sets `value` at every path of the change (checked against the first) and re-runs;
   * playing, live parameters queue as timeline changes.
   */
  private applyParams(change: ParamChange, value: JsonValue): boolean {
    const { paths } = change;
    const first = paths[0];
    if (first === undefined) return false;
    const s = this.store.getState();
    if (s.live && s.playing && specOf(first)?.live) {
      if (!this.acceptLive(paths.map((p) => [p, value] as const))) return false;
      for (const p of paths) {
        s.setPendingLive(p, value);
        this.liveQueue.set(p, value);
      }
      return true;
    }
    const next = this.changed(change, value);
    const validation = this.accept(next);
    if (!validation) return false;
    this.rerun(this.patchOf(change, next, validation), validation);
    return true;
  }

  // ---- computing ahead ----

  /**
   * A slider has the keyboard focus (null: none has): its neighbouring values are computed
   * in the workers while nothing else runs, so that the key press that chooses one finds
   * its results ready (the workers adopt an identical run; the results are the engine's
   * own, only earlier). Only while paused or finished, for runs of at most
   * AHEAD_MAX_PACKETS packets, and never for a value the engine refuses.
   */
  lookAhead(target: LookAhead | null): void {
    this.aheadTarget = target;
    if (target === null) {
      if (this.aheadTimer !== null) clearTimeout(this.aheadTimer);
      this.aheadTimer = null;
      if (this.aheadAsked) this.engine.ahead([]);
      this.aheadAsked = false;
      this.env.prerender?.([]);
      return;
    }
    this.scheduleAhead();
  }

  /** Paused or finished, every run in, and the plots in view drawn: what runs next is
   *  computed ahead only then (never competing with the frame that shows results). */
  private settled(): boolean {
    const s = this.store.getState();
    return !s.live && !s.playing && this.viewDrawn && s.keys.every((a) => this.statusOf(a) !== 'running');
  }

  /** Computes ahead on a later task (not inside the frame that drew), once settled. */
  private scheduleAhead() {
    if (this.aheadTarget === null || this.aheadTimer !== null || !this.settled()) return;
    this.aheadTimer = setTimeout(() => {
      this.aheadTimer = null;
      this.computeAhead();
    }, 0);
  }

  private computeAhead() {
    const target = this.aheadTarget;
    if (target === null || !this.settled()) return;
    const change = this.paramChange(target.path, target.allFlows);
    const first = change.paths[0];
    if (first === undefined) return;
    const comparisons: RunSpec[][] = [];
    const patches: Partial<AppState>[] = [];
    for (const value of target.values) {
      const next = this.changed(change, value);
      const validation = this.validation(JSON.stringify(next));
      if (!validation.ok) continue;
      const estimated = validation.estimatedPackets;
      if (estimated === undefined || estimated > AHEAD_MAX_PACKETS) continue;
      // The very specs the step would post (a paused or finished page re-runs in full).
      const patch = this.patchOf(change, next, validation);
      comparisons.push(this.specsFor('full', patch));
      patches.push(patch);
    }
    this.aheadAsked = comparisons.length > 0;
    // The plots drawn ahead for the values before are of no use now.
    this.env.prerender?.([]);
    const worlds: (World | undefined)[] = [];
    this.engine.ahead(comparisons, (i, results) => {
      const patch = patches[i];
      if (!patch || !this.env.prerender) return;
      worlds[i] = this.worldOf(patch, results);
      this.env.prerender(worlds.filter((w): w is World => w !== undefined));
    });
  }

  /** What the page would hold after the step to `patch` answered with `results` (rerun's
   *  view and runFull's playback, the runs finished with their summaries and traces). */
  private worldOf(patch: Partial<AppState>, results: readonly ChunkMessage[]): World {
    const { keys, oneRun } = this.runKeysFor(patch);
    const traces = new TraceStore();
    traces.reset(keys, oneRun);
    const runs: Record<string, RunInfo> = {};
    for (const msg of results) {
      traces.append(msg.key, msg.chunk, msg.now, msg.throughput, msg.rounds ?? null);
      runs[msg.key] = {
        status: msg.finished ? 'done' : 'running',
        now: msg.now,
        summary: msg.summary ?? null,
        previous: null,
        error: null,
      };
    }
    return { patch: { ...this.clamped(patch), ...FULL_RUN, keys, runs }, traces };
  }

  /** Choosing an application that writes a stream (thin, CBR, Poisson, on/off) in place of
   *  one that does not shows what it is about: the write timeline and the thin-stream CDFs;
   *  choosing short transfers, the transfers view. */
  private viewForApp(before: Scenario, after: Scenario): Partial<AppState> {
    const shown = this.store.getState().plots;
    const add: PlotId[] = [];
    if (!writesStream(before) && writesStream(after)) add.push(...THIN_PLOTS);
    if (!hasTransfers(before) && hasTransfers(after)) add.push('transfers');
    if (add.every((p) => shown.includes(p))) return {};
    return { plots: PLOT_IDS.filter((p) => add.includes(p) || shown.includes(p)) };
  }

  /**
   * A setting of every flow at once (`flows[].x`, "All settings" in a competition, where the
   * flows differ only in what the flow table edits). Returns false when refused.
   */
  setParamAllFlows(schemaPath: string, value: JsonValue): boolean {
    return this.applyParams(this.paramChange(schemaPath, true), value);
  }

  // ---- modes and competing flows ----

  /**
   * Switches between comparison and competition, keeping the scenario sensible: a comparison
   * becomes one flow per compared algorithm sharing the path (or, with several flows
   * already, flow 0 runs the first compared algorithm); a competition becomes a comparison
   * of the algorithms its flows ran, on flow 0 alone. The view takes the mode's defaults
   * (layout, plots, window lines); the path, run and cross traffic stay as they are.
   */
  setMode(mode: Mode): void {
    const s = this.store.getState();
    if (s.mode === mode) return;
    let scenario: Scenario;
    let algorithms = s.algorithms;
    if (mode === 'compete') {
      scenario = toCompetition(s.scenario, s.algorithms);
    } else {
      const back = toComparison(s.scenario);
      scenario = back.scenario;
      algorithms = back.algorithms;
    }
    const validation = this.accept(scenario);
    if (!validation) return;
    scenario = validation.ok ? validation.scenario : scenario;
    const shown = s.plots;
    // The plots the person chose besides the mode's defaults stay (the write timeline of a
    // thin stream, say).
    const extra = shown.filter((p) => !defaultPlots(s.mode).includes(p));
    const plots = PLOT_IDS.filter((p) => defaultPlots(mode).includes(p) || extra.includes(p));
    this.rerun(
      {
        mode,
        scenario,
        algorithms,
        presetName: null,
        layout: defaultLayout(mode),
        plots,
        series: seriesFor(mode),
        hidden: [],
      },
      validation,
    );
  }

  /** Flow i of the competition runs `name` (a catalogue entry, or custom: its own settings). */
  setFlowAlgorithm(i: number, name: AlgorithmName): boolean {
    const s = this.store.getState();
    const next = withFlowAlgorithm(s.scenario, i, name);
    const validation = this.accept(next);
    if (!validation) return false;
    this.rerun({ scenario: next, presetName: null, ...this.viewForBbr(() => ({ ...s, scenario: next })) }, validation);
    return true;
  }

  /** A first BBR run among the page's runs shows what BBR is about: its model and the
   *  queueing delay (BBR_PLOTS). `after` gives the page's state once the change is made;
   *  called before it is. */
  private viewForBbr(after: () => Pick<AppState, 'mode' | 'algorithms' | 'scenario'>): Partial<AppState> {
    const s = this.store.getState();
    if (anyBbr(s.mode, s.algorithms, s.scenario) || BBR_PLOTS.every((p) => s.plots.includes(p))) return {};
    const a = after();
    if (!anyBbr(a.mode, a.algorithms, a.scenario)) return {};
    return { plots: PLOT_IDS.filter((p) => BBR_PLOTS.includes(p) || s.plots.includes(p)) };
  }

  /** Adds a flow to the competition (a copy of the last); at the engine's limit, a notice
   *  says so and nothing changes. */
  addFlow(): boolean {
    const s = this.store.getState();
    const flows = flowsOf(s.scenario);
    if (MAX_FLOWS !== null && flows.length >= MAX_FLOWS) {
      this.notify([{ key: 'flows', message: `Not added: ${maxFlowsText()} Remove a flow to add another.` }]);
      return false;
    }
    const next = { ...s.scenario, flows: [...flows, newFlow(s.scenario)] };
    const validation = this.accept(next);
    if (!validation) return false;
    this.rerun({ scenario: next, presetName: null }, validation);
    return true;
  }

  /** Removes flow i (never the last one); later flows move down one number. */
  removeFlow(i: number): boolean {
    const s = this.store.getState();
    if (flowsOf(s.scenario).length <= 1) return false;
    const next = withoutFlow(s.scenario, i);
    const validation = this.accept(next);
    if (!validation) return false;
    this.rerun({ scenario: next, presetName: null, hidden: hiddenAfterRemoval(s.hidden, i) }, validation);
    return true;
  }

  /** Adds or removes an algorithm from the comparison. */
  toggleAlgorithm(v: AlgorithmName): void {
    const s = this.store.getState();
    const view = s.algorithms.includes(v) ? {} : this.viewForBbr(() => ({ ...s, algorithms: [...s.algorithms, v] }));
    s.toggleAlgorithm(v);
    this.rerun(view);
  }

  /** Compares exactly these algorithms. */
  setAlgorithms(list: readonly AlgorithmName[]): void {
    const s = this.store.getState();
    const view = this.viewForBbr(() => ({ ...s, algorithms: [...list] }));
    s.setAlgorithms(list);
    this.rerun(view);
  }

  /**
   * Loads an engine preset (scenario/presets.ts `presetView`: a link's bare `preset=NAME`
   * opens the same). Its flow-0 algorithm joins the comparison: a catalogue name is then
   * chosen by the comparison (the stored scenario keeps the defaults); `custom` keeps the
   * preset's own flow-0 settings and compares them as "custom". A preset with a lesson
   * selects the lesson's algorithms (plus its own) and shows the lesson; the explanation
   * tools start at the run the lesson is about (its focus).
   */
  loadPreset(name: string): void {
    const preset = presetNamed(name);
    if (!preset) {
      this.notify([{ key: 'preset', message: `There is no preset "${name}".` }]);
      return;
    }
    const s = this.store.getState();
    const view = presetView(preset, s.mode, s.algorithms);
    if (view.mode !== s.mode) {
      s.setMode(view.mode);
      s.setLayout(defaultLayout(view.mode));
      s.setPlots(defaultPlots(view.mode));
      s.setSeries(seriesFor(view.mode));
    }
    s.setAlgorithms(view.algorithms);
    s.setScenario(view.scenario, name);
    s.setLesson(preset.lesson ? name : null);
    for (const p of view.plots) s.showPlot(p);
    s.setFocus(presetFocus(name, runKeysOf(view.mode, this.store.getState().algorithms, view.scenario)));
    s.setHidden([]);
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
    for (const a of s.keys) {
      if (this.statusOf(a) === 'running') this.pending.set(a, { ...this.pending.get(a), status: 'stopped' });
    }
    s.setPlayback({ live: false, playing: false });
    this.bump();
  }

  /** Stops everything (page unload, tests). */
  dispose(): void {
    this.lookAhead(null);
    this.explainer.dispose();
    this.stopLoop();
    this.engine.cancel();
  }
}
