// One zustand store made of slices (zustand's slices pattern). Actions here are pure state
// transitions; everything that talks to the engine lives in controller.ts.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { sameDomain } from '../lib/timeWindow';
import { orderAlgorithms } from '../scenario/algorithms';
import { flowsOf, runKeysOf } from '../scenario/competition';
import { setAt, timelineOf } from '../scenario/paths';
import { presetFocus, presetNamed, presetStatus } from '../scenario/presets';
import { defaultShareState, PLOT_IDS, type ShareState } from '../scenario/shareState';
import type {
  AppState,
  ExplainSlice,
  NoticesSlice,
  PlaybackSlice,
  RunInfo,
  RunsSlice,
  ScenarioSlice,
  SelectionSlice,
  ViewSlice,
} from './types';

type Set = StoreApi<AppState>['setState'];
type Get = StoreApi<AppState>['getState'];

/** The preset a link's scenario is, exactly (null: none, or changed from it). */
function presetOpened(init: ShareState): string | null {
  const preset = presetNamed(init.preset);
  if (!preset) return null;
  return presetStatus(preset, init.scenario, init.mode, init.algorithms).kind === 'same' ? preset.name : null;
}

const createScenarioSlice = (set: Set, init: ShareState): ScenarioSlice => ({
  scenario: init.scenario,
  // A link's preset (`preset=`) is the preset's name while its scenario is the preset's.
  presetName: presetOpened(init),
  preset: init.preset,
  lesson: init.lesson,
  setScenario: (scenario, presetName = null) =>
    set(presetName === null ? { scenario, presetName } : { scenario, presetName, preset: presetName }),
  setLesson: (lesson) => set({ lesson }),
  setParamValue: (path, value) => set((s) => ({ scenario: setAt(s.scenario, path, value), presetName: null })),
  setTimeline: (timeline) => set((s) => ({ scenario: { ...s.scenario, timeline } })),
  removeTimelineEntry: (index) =>
    set((s) => ({
      scenario: { ...s.scenario, timeline: timelineOf(s.scenario).filter((_, i) => i !== index) },
      presetName: null,
    })),
});

const createSelectionSlice = (set: Set, init: ShareState): SelectionSlice => ({
  mode: init.mode,
  algorithms: orderAlgorithms(init.algorithms),
  setMode: (mode) => set({ mode }),
  setAlgorithms: (list) => {
    const next = orderAlgorithms(list);
    if (next.length > 0) set({ algorithms: next });
  },
  toggleAlgorithm: (v) =>
    set((s) => {
      const next = s.algorithms.includes(v)
        ? s.algorithms.filter((a) => a !== v)
        : orderAlgorithms([...s.algorithms, v]);
      // A comparison of nothing is not a state the page can show.
      return next.length > 0 ? { algorithms: next } : {};
    }),
});

const emptyRun = (previous: RunInfo | undefined): RunInfo => ({
  status: 'running',
  now: 0,
  summary: null,
  previous: previous?.summary ?? previous?.previous ?? null,
  error: null,
});

const createRunsSlice = (set: Set, init: ShareState): RunsSlice => ({
  gen: 0,
  keys: runKeysOf(init.mode, orderAlgorithms(init.algorithms), init.scenario),
  runs: {},
  drawn: 0,
  timing: null,
  comparisonStarted: (gen, keys, patch) =>
    set((s) => ({
      ...patch,
      gen,
      keys: [...keys],
      runs: Object.fromEntries(keys.map((k) => [k, emptyRun(s.runs[k])])),
      pendingLive: {},
    })),
  runsProgress: (gen, updates, redraw) =>
    set((s) => {
      if (gen !== s.gen) return redraw ? { drawn: s.drawn + 1 } : {};
      const runs = { ...s.runs };
      for (const [key, info] of updates) {
        const cur = runs[key];
        if (cur) runs[key] = { ...cur, ...info };
      }
      return redraw ? { runs, drawn: s.drawn + 1 } : { runs };
    }),
  setTiming: (timing) => set({ timing }),
});

const createPlaybackSlice = (set: Set): PlaybackSlice => ({
  live: false,
  playing: false,
  speed: 1,
  time: 0,
  pendingLive: {},
  setPlayback: (p) => set(p),
  setPendingLive: (path, value) =>
    set((s) => {
      const next = { ...s.pendingLive };
      if (value === undefined) delete next[path];
      else next[path] = value;
      return { pendingLive: next };
    }),
  clearPendingLive: () => set({ pendingLive: {} }),
});

const createViewSlice = (set: Set, get: Get, init: ShareState): ViewSlice => ({
  layout: init.layout,
  plots: init.plots,
  xDomain: init.xDomain,
  cursor: init.cursor,
  hover: null,
  series: seriesFor(init.mode),
  throughputBin: init.throughputBin,
  throughputColumn: init.throughputColumn,
  cdfScale: init.cdfScale,
  unit: init.unit,
  projector: init.projector,
  setLayout: (layout) => set({ layout }),
  togglePlot: (id) =>
    set((s) => ({
      plots: s.plots.includes(id)
        ? s.plots.filter((p) => p !== id)
        : PLOT_IDS.filter((p) => p === id || s.plots.includes(p)),
    })),
  showPlot: (id) => {
    if (!get().plots.includes(id)) get().togglePlot(id);
  },
  setPlots: (list) => set({ plots: PLOT_IDS.filter((p) => list.includes(p)) }),
  setSeries: (series) => set({ series }),
  setThroughputBin: (throughputBin) => set({ throughputBin }),
  setThroughputColumn: (throughputColumn) => set({ throughputColumn }),
  setCdfScale: (cdfScale) => set({ cdfScale }),
  setUnit: (unit) => set({ unit }),
  setProjector: (projector) => set({ projector }),
  sheet: init.sheet,
  setSheet: (sheet) => set({ sheet }),
  textbook: init.textbook,
  setTextbook: (textbook) => set({ textbook }),
  theory: init.theory,
  setTheory: (theory) => set({ theory }),
  sweep: init.sweep,
  setSweep: (sweep) => set({ sweep }),
  hidden: init.hidden,
  toggleHidden: (flow) =>
    set((s) => {
      if (s.hidden.includes(flow)) return { hidden: s.hidden.filter((i) => i !== flow) };
      // At least one flow stays on the plots.
      if (s.hidden.length + 1 >= flowsOf(s.scenario).length) return {};
      return { hidden: [...s.hidden, flow].sort((a, b) => a - b) };
    }),
  setHidden: (list) => set({ hidden: [...new Set(list)].sort((a, b) => a - b) }),
  setXDomain: (domain) => {
    // Equal domains are not a change: zoom sync would otherwise loop (d3/d3-zoom#40).
    const cur = get().xDomain;
    if (!sameDomain(cur, domain, 1e-12 * Math.max(1, Math.abs(cur?.[1] ?? 0)))) set({ xDomain: domain });
  },
  setCursor: (t) => set({ cursor: t }),
  setHover: (t) => {
    if (get().hover !== t) set({ hover: t });
  },
  toggleSeries: (name) => set((s) => ({ series: { ...s.series, [name]: !s.series[name] } })),
});

/** The window lines a mode starts with: every line for a comparison; cwnd (and the idle
 *  policy's lines) for a competition, where four lines per flow would bury the flows. */
export function seriesFor(mode: ShareState['mode']): AppState['series'] {
  const all = mode !== 'compete';
  return { cwnd: true, ssthresh: all, flight: all, inflated: all, w_used: true, pipeack: true };
}

let noticeId = 0;
const createNoticesSlice = (set: Set, get: Get): NoticesSlice => ({
  notices: [],
  addNotices: (list) => {
    // A notice already on screen is not repeated (e.g. the same warning on every slider step).
    const fresh = (s: AppState) =>
      list.filter(
        (n, i) =>
          !s.notices.some((o) => o.key === n.key && o.message === n.message) &&
          list.findIndex((m) => m.key === n.key && m.message === n.message) === i,
      );
    if (fresh(get()).length === 0) return;
    set((s) => ({ notices: [...s.notices, ...fresh(s).map((n) => ({ ...n, id: (noticeId += 1) }))] }));
  },
  dismissNotice: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
  dismissNoticesAbout: (key) => {
    if (get().notices.some((n) => n.key === key)) set((s) => ({ notices: s.notices.filter((n) => n.key !== key) }));
  },
  clearNotices: () => set({ notices: [] }),
});

let pickCount = 0;
const createExplainSlice = (set: Set, init: ShareState): ExplainSlice => ({
  explaining: init.why !== null,
  // The run a link's preset (or lesson) is about, unless the link selects a decision.
  focus: init.why?.key ?? presetFocus(init.preset ?? init.lesson, runKeysOf(init.mode, init.algorithms, init.scenario)),
  selected: init.why,
  decisionsVersion: 0,
  pick: null,
  divergence: null,
  helpOpen: false,
  stepMessage: '',
  setStepMessage: (stepMessage) => set({ stepMessage }),
  setExplaining: (explaining) => set({ explaining }),
  setFocus: (focus) => set({ focus }),
  select: (selected) =>
    set((s) => (selected ? { selected, focus: selected.key, explaining: true } : { selected: null, focus: s.focus })),
  bumpDecisions: () => set((s) => ({ decisionsVersion: s.decisionsVersion + 1 })),
  pickAt: (t, tol, key, y, kind) =>
    set((s) => ({
      cursor: t,
      explaining: true,
      focus: key ?? s.focus,
      pick: {
        t,
        tol,
        key,
        n: (pickCount += 1),
        ...(y === undefined ? {} : { y }),
        ...(kind === undefined ? {} : { kind }),
      },
    })),
  setDivergence: (divergence) => set({ divergence }),
  setHelpOpen: (helpOpen) => set({ helpOpen }),
  // Predict-then-reveal practice (web/src/practice).
  practice: init.practice,
  setPractice: (practice) => set({ practice }),
});

/** A fresh store (one per page; one per test). */
export function createAppStore(init: ShareState = defaultShareState()): StoreApi<AppState> {
  return createStore<AppState>()((set, get) => ({
    ...createScenarioSlice(set, init),
    ...createSelectionSlice(set, init),
    ...createRunsSlice(set, init),
    ...createPlaybackSlice(set),
    ...createViewSlice(set, get, init),
    ...createNoticesSlice(set, get),
    ...createExplainSlice(set, init),
  }));
}

/** The store's type. */
export type AppStore = StoreApi<AppState>;
