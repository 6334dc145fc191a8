// The shape of the app store. Only small, serialisable state lives here: columns stay in
// the trace store, and plots read them when `drawn` changes.
import type { Scenario } from '../engine/tables';
import type { RunSummary } from '../engine/protocol';
import type { AlgorithmName } from '../scenario/algorithms';
import type { Mode } from '../scenario/competition';
import type { WindowUnit } from '../lib/units';
import type { CdfScale, DecisionRef, Layout, Notice, PlotId, ThroughputColumn } from '../scenario/shareState';
import type { DivergenceJson } from '../engine/protocol';
import type { JsonValue } from '../lib/json';
import type { PracticeLink } from '../practice/link';
import type { SheetLink } from '../sheet/link';
import type { TextbookConventionName } from '../engine/pkg/vocabulary';
import type { SweepLink } from '../sweep/link';

/** Scenario slice: the base scenario (t = 0 values plus the timeline of changes). */
export interface ScenarioSlice {
  scenario: Scenario;
  /** The preset the scenario came from, until something changes it. */
  presetName: string | null;
  /** The preset the scenario came from, kept when something changes it: the page names it
   *  "changed from the preset" while it is recognisable (scenario/presets.ts `presetStatus`). */
  preset: string | null;
  /** The preset whose lesson is shown (in the link; kept while the scenario is explored). */
  lesson: string | null;
  setScenario(scenario: Scenario, presetName?: string | null): void;
  setLesson(presetName: string | null): void;
  setParamValue(path: string, value: JsonValue): void;
  setTimeline(timeline: JsonValue[]): void;
  removeTimelineEntry(index: number): void;
}

/** Selection slice: comparison or competition, and the algorithms compared, in the
 *  engine's order; never empty. */
export interface SelectionSlice {
  /** compare: the scenario once per algorithm; compete: one run, the scenario's flows. */
  mode: Mode;
  algorithms: AlgorithmName[];
  setMode(mode: Mode): void;
  setAlgorithms(list: readonly AlgorithmName[]): void;
  toggleAlgorithm(v: AlgorithmName): void;
}

/** The state of one run of a comparison. */
export interface RunInfo {
  /** stopped: the person stopped it, or it was too large to start. */
  status: 'running' | 'done' | 'error' | 'stopped';
  /** Simulated time reached, s. */
  now: number;
  summary: RunSummary | null;
  /** The previous comparison's summary of this algorithm, shown while this run computes
   *  (like its plots: nothing flashes empty while a slider is dragged). */
  previous: RunSummary | null;
  error: string | null;
}

/**
 * How long the last full comparison took, phase by phase (ms). "Request" is the moment the
 * controller posted the runs to the workers (right after the input was validated); the
 * benchmark adds the time from the input event to the request.
 */
export interface Timing {
  gen: number;
  /** When the request was posted (performance.now()). */
  at: number;
  runs: number;
  workers: number;
  /** Slowest run's engine time. */
  computeMs: number;
  /** Runs (keys) whose results were computed ahead of the request (a focused slider's
   *  neighbouring value): their engine time was spent before it. */
  aheadRuns: number;
  /** Slowest run's time reading columns out of the engine. */
  readMs: number;
  /** Slowest run's time computing and parsing its summary. */
  summaryMs: number;
  /** Request to the last worker taking it (message passing, worker busy). */
  startMs: number;
  /** Longest time from a worker posting a result to the page receiving it (message
   *  passing and the page's main thread being busy). */
  transferMs: number;
  /** Request to the last result arriving. */
  resultsMs: number;
  /** Request to the start of the animation frame that drew the results. */
  frameMs: number | null;
  /** Request to the end of drawing every plot in view (the JavaScript of that frame). */
  drawnMs: number | null;
  /** JavaScript drawing of the plots in view in that frame. */
  drawMs: number | null;
  /** Plots drawn in that frame (those in view) and plots in all. */
  plotsInView: number;
  plots: number;
  /** Request to every plot drawn, those out of view included (drawn in the next frames). */
  allDrawnMs: number | null;
  /** JavaScript drawing of every plot over those frames. */
  allDrawMs: number | null;
}

/** Runs slice: the current comparison. */
export interface RunsSlice {
  gen: number;
  /** The runs the page shows, in order: the compared algorithms, or in a competition one key
   *  per flow (`flow0`, `flow1`, …; scenario/competition.ts). */
  keys: string[];
  runs: Record<AlgorithmName, RunInfo>;
  /** Bumped when the plots should redraw with new results: once per finished comparison,
   *  per live step, and now and then while a long run progresses. */
  drawn: number;
  timing: Timing | null;
  /** A new comparison: `patch` (the change that caused it: scenario, selection, playback,
   *  view), fresh runs and no pending live values, in one store update. */
  comparisonStarted(gen: number, keys: readonly AlgorithmName[], patch: Partial<AppState>): void;
  /** Several runs' progress at once, and optionally a redraw (`drawn` + 1): one store
   *  update, so the page re-renders once per comparison rather than once per run. */
  runsProgress(gen: number, updates: ReadonlyMap<AlgorithmName, Partial<RunInfo>>, redraw: boolean): void;
  setTiming(timing: Timing): void;
}

/** Playback slice: live mode. */
export interface PlaybackSlice {
  /** A live session exists (the workers hold simulations at `time`). */
  live: boolean;
  playing: boolean;
  /** Simulated seconds per animation frame = speed / 60. */
  speed: number;
  /** Simulated time of the live session, s. */
  time: number;
  /** Values changed live and not yet confirmed by the engine, by path. */
  pendingLive: Record<string, JsonValue>;
  setPlayback(p: Partial<Pick<PlaybackSlice, 'live' | 'playing' | 'speed' | 'time'>>): void;
  setPendingLive(path: string, value: JsonValue | undefined): void;
  clearPendingLive(): void;
}

/** Which window series the window plot draws. */
export interface SeriesVisibility {
  cwnd: boolean;
  ssthresh: boolean;
  flight: boolean;
  inflated: boolean;
  /** RFC 2861's window actually used (runs with an idle policy). */
  w_used: boolean;
  /** RFC 7661's pipeACK (new CWV runs). */
  pipeack: boolean;
}

/** View slice. */
export interface ViewSlice {
  layout: Layout;
  plots: PlotId[];
  /** Zoomed time range, s; null = the whole run. */
  xDomain: [number, number] | null;
  /** Pinned cursor, s (in the link). */
  cursor: number | null;
  /** Hover position, s (transient). */
  hover: number | null;
  series: SeriesVisibility;
  /** Bin width of the throughput plot, s; null = chosen from the run's duration. */
  throughputBin: number | null;
  /** Which bytes the throughput plot counts. */
  throughputColumn: ThroughputColumn;
  /** Flows hidden from the plots (competition mode; flow indices, ascending). */
  hidden: number[];
  /** The thin-stream CDFs' x axis. */
  cdfScale: CdfScale;
  /** The unit of every window and byte count on the page (`unit=`; lib/units.ts). */
  unit: WindowUnit;
  /** Projector mode: large type, thick lines, high contrast (in the link, `projector=1`). */
  projector: boolean;
  setLayout(layout: Layout): void;
  togglePlot(id: PlotId): void;
  /** Shows a plot (no change when it is shown already). */
  showPlot(id: PlotId): void;
  setPlots(list: readonly PlotId[]): void;
  setSeries(series: SeriesVisibility): void;
  setThroughputBin(width: number | null): void;
  setThroughputColumn(column: ThroughputColumn): void;
  setCdfScale(scale: CdfScale): void;
  setUnit(unit: WindowUnit): void;
  setProjector(on: boolean): void;
  /** The exercise sheet shown (in the link, `sheet=N`; web/src/sheet), or null. */
  sheet: SheetLink | null;
  setSheet(sheet: SheetLink | null): void;
  /** The textbook round model drawn beside the rounds view, in this convention (in the
   *  link, `tb=NAME`; web/src/textbook), or null. */
  textbook: TextbookConventionName | null;
  setTextbook(textbook: TextbookConventionName | null): void;
  /** The Mathis and Padhye lines on the throughput plot (in the link, `theory=1`). */
  theory: boolean;
  setTheory(on: boolean): void;
  /** The sweep view's sweep (in the link, `sweep=PATH:FROM:TO:N` or `PATH:V1,V2`; web/src/sweep), or null. */
  sweep: SweepLink | null;
  setSweep(sweep: SweepLink | null): void;
  /** Hides or shows flow i (never the last one shown). */
  toggleHidden(flow: number): void;
  setHidden(list: readonly number[]): void;
  setXDomain(domain: [number, number] | null): void;
  setCursor(t: number | null): void;
  setHover(t: number | null): void;
  toggleSeries(name: keyof SeriesVisibility): void;
}

/** Notices slice: what the person should know (bad link fields, refused values). */
export interface NoticesSlice {
  notices: (Notice & { id: number })[];
  addNotices(list: readonly Notice[]): void;
  dismissNotice(id: number): void;
  /** Drops every notice about `key` (e.g. an engine failure, when the next comparison starts). */
  dismissNoticesAbout(key: string): void;
  clearNotices(): void;
}

/** The first divergence of two compared runs, as the engine found it. */
export interface DivergenceState {
  /** The two runs (keys), in the order compared. */
  pair: [string, string];
  status: 'computing' | 'done' | 'error';
  /** null when done and the runs never differ. */
  result: DivergenceJson | null;
  error: string | null;
}

/** Explain slice: the inspector, stepping, state machines and the first divergence. */
export interface ExplainSlice {
  /** The explanation tools are in use: the workers are asked for decisions (never before). */
  explaining: boolean;
  /** The run the inspector and the step controls walk. */
  focus: string | null;
  /** The selected decision (in the link as `why`). */
  selected: DecisionRef | null;
  /** Bumped when the decisions the page knows change (indexes, details). */
  decisionsVersion: number;
  /** A click or tap on a plot: where, how near (s) a decision must be to be taken, and the
   *  run of the plot (null: several). `n` makes each click a change. */
  /** A click on a plot: its time, tolerance and run; `kind`: the rule kind the plot's marks
   *  show (a click near one of its decisions explains that one). */
  pick: { t: number; tol: number; key: string | null; n: number; y?: number; kind?: string } | null;
  /** The two runs whose first divergence is shown (comparison mode), and the answer. */
  divergence: DivergenceState | null;
  /** The keyboard help overlay is open. */
  helpOpen: boolean;
  /** Why the last step did not move ('' when it did). */
  stepMessage: string;
  setStepMessage(message: string): void;
  setExplaining(on: boolean): void;
  setFocus(key: string | null): void;
  /** Selects a decision (and focuses its run); null clears the selection. */
  select(ref: DecisionRef | null): void;
  bumpDecisions(): void;
  /** A click on a plot at time t: pins the cursor there and asks for the decision near it. */
  /** `y`: where on the screen the click was (client pixels), for the Why card to keep it in view. */
  pickAt(t: number, tol: number, key: string | null, y?: number, kind?: string): void;
  setDivergence(d: DivergenceState | null): void;
  setHelpOpen(open: boolean): void;
  /** Predict-then-reveal practice (in the link as `practice`; web/src/practice), or null. */
  practice: PracticeLink | null;
  setPractice(practice: PracticeLink | null): void;
}

/** The whole store. */
export type AppState = ScenarioSlice &
  SelectionSlice &
  RunsSlice &
  PlaybackSlice &
  ViewSlice &
  NoticesSlice &
  ExplainSlice;
