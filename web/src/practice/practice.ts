// Predict-then-reveal practice: the run is shown only up to the cursor; at each next decision
// the student says which event happens and the cwnd and ssthresh after it, then the page
// reveals the engine's decision (the cursor moves to it, the plots extend to it, and the
// engine's explanation is shown) and marks the answer. The questions, their wording and the
// answers are the engine's (questions.ts); this class only walks them and holds the view.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { rowAt } from '../engine/lookup';
import type { DecisionJson } from '../engine/protocol';
import type { TraceStore } from '../engine/traceStore';
import type { Explainer } from '../explain/explainer';
import { durationOf, getAt, mssOf } from '../scenario/paths';
import { DEFAULT_UNIT } from '../lib/units';
import { runScenario, type AlgorithmName } from '../scenario/algorithms';
import { flowIndexOf } from '../scenario/competition';
import { presetFocus } from '../scenario/presets';
import { encodeShareState } from '../scenario/url';
import { shareStateOf } from '../state/urlSync';
import type { AppStore } from '../state/store';
import type { AppState } from '../state/types';
import type { PracticeLink, PracticeScope } from './link';
import {
  eventChoices,
  mark,
  questionsOf,
  scoreOf,
  truthOf,
  type AnswerUnit,
  type Given,
  type Marked,
  type Question,
  type Score,
} from './questions';

/** Where a practice is. */
export type PracticeStatus = 'off' | 'loading' | 'asking' | 'checking' | 'revealed' | 'done';

export interface PracticeState {
  status: PracticeStatus;
  scope: PracticeScope;
  /** The run predicted for. */
  key: string | null;
  questions: Question[];
  choices: string[];
  /** The question asked or last revealed (0-based). */
  k: number;
  answers: Marked[];
  score: Score;
  unit: AnswerUnit;
  mss: number;
  /** The plots show the run up to this time, s (null: the whole run). */
  until: number | null;
  /** The revealed decisions of the instant (the telling one first). */
  revealed: DecisionJson[];
  /** cwnd and ssthresh (bytes) and the phase code at `until`, from the run's trace. */
  now: { cwnd: number; ssthresh: number; phase: number } | null;
  error: string;
}

/** The MSS of the flow predicted for (flow 0's, else the default). */
function flowMss(scenario: Parameters<typeof mssOf>[0], flow: number): number {
  const mss = getAt(scenario, `flows[${flow}].tcp.mss`);
  return typeof mss === 'number' && mss > 0 ? mss : mssOf(scenario);
}

const initial = (): PracticeState => ({
  status: 'off',
  scope: 'events',
  key: null,
  questions: [],
  choices: [],
  k: 0,
  answers: [],
  score: scoreOf([]),
  unit: DEFAULT_UNIT,
  mss: 1460,
  until: null,
  revealed: [],
  now: null,
  error: '',
});

/** How far before a question's instant the plots stop while it is asked: a few pixels of a
 *  plot (0.4 % of the time shown), never past the previous question. */
function askUntil(t: number, prev: number): number {
  const gap = Math.min((t - prev) / 2, Math.max(1e-6, 0.004 * t));
  return Math.max(t - gap, Number.MIN_VALUE);
}

/** How far the plots go once a question is revealed: a little past its instant (1 % of the
 *  time shown, so the change at the decision is seen off the plot's edge), never as far as
 *  the next question (the plots then stop where that one is asked) nor past the run. */
export function revealUntil(t: number, next: number | null, duration: number): number {
  const end = Math.min(t + 0.01 * t, duration);
  return next === null ? Math.max(t, end) : Math.max(t, Math.min(end, askUntil(next, t)));
}

export class Practice {
  readonly state: StoreApi<PracticeState> = createStore<PracticeState>()(initial);
  private readonly unsubscribe: () => void;
  private gen = -1;
  private link: PracticeLink | null = null;

  constructor(
    private readonly store: AppStore,
    private readonly explainer: Explainer,
    private readonly traces: TraceStore,
  ) {
    this.unsubscribe = store.subscribe((s, prev) => this.changed(s, prev));
    const s = store.getState();
    if (s.practice) this.begin(s.practice);
  }

  dispose(): void {
    this.unsubscribe();
  }

  get(): PracticeState {
    return this.state.getState();
  }

  /** Whether the page hides what lies after the cursor (a practice under way). */
  hiding(p: PracticeState = this.get()): boolean {
    return p.status !== 'off' && p.status !== 'done';
  }

  /** Starts (or restarts) a practice; the link says so (`practice=`). */
  start(scope: PracticeScope, run: string | null = null): void {
    const link = { scope, run };
    this.store.getState().setPractice(link);
    this.begin(link);
  }

  /** Ends the practice and shows the whole run again. */
  stop(): void {
    this.link = null;
    this.state.setState(initial());
    const s = this.store.getState();
    s.setPractice(null);
    s.setXDomain(null);
  }

  private begin(link: PracticeLink) {
    this.link = link;
    const s = this.store.getState();
    // No run named: the run the preset's lesson is about, else the first.
    const key =
      link.run !== null && s.keys.includes(link.run)
        ? link.run
        : (presetFocus(s.preset ?? s.lesson, s.keys) ?? s.keys[0] ?? null);
    const flow = key === null ? 0 : (flowIndexOf(key) ?? 0);
    const scenario =
      key === null || flowIndexOf(key) !== null ? s.scenario : runScenario(s.scenario, key as AlgorithmName);
    this.gen = s.gen;
    this.state.setState({
      ...initial(),
      status: 'loading',
      scope: link.scope,
      key,
      // Asked in the page's unit (`unit=`, segments by default), whatever the run counts
      // cwnd in.
      unit: s.unit,
      mss: flowMss(scenario, flow),
      until: 0,
    });
    if (key !== null) {
      s.setFocus(key);
      s.setExplaining(true);
    }
    s.setPlayback({ playing: false });
    this.tryReady();
  }

  /** The unit questions ask in: the page's unit (`unit=`, segments by default), which the
   *  plots, the Why card and the sheets follow too; a number typed without a unit is read in
   *  it. Changing it here changes it for the whole page. */
  setUnit(unit: AnswerUnit): void {
    this.store.getState().setUnit(unit);
  }

  private changed(s: AppState, prev: AppState) {
    if (s.practice !== prev.practice && s.practice === null && this.link !== null) {
      this.stop();
      return;
    }
    const p = this.get();
    if (p.status === 'off') return;
    if (s.unit !== prev.unit) this.state.setState({ unit: s.unit });
    if (s.gen !== this.gen && this.link) {
      // New runs (a changed setting): new decisions, new questions.
      this.begin(this.link);
      return;
    }
    if (p.status === 'loading' && (s.decisionsVersion !== prev.decisionsVersion || s.runs !== prev.runs)) {
      this.tryReady();
    }
    this.holdView();
  }

  /** While practising, nothing after `until` is shown: the time window ends there and the
   *  cursor stays at or before it (zoom and cursor keys work inside it). */
  private holdView() {
    const p = this.get();
    if (!this.hiding(p) || p.until === null) return;
    const s = this.store.getState();
    const until = p.until;
    if (until <= 0) return;
    const dom = s.xDomain;
    if (!dom || dom[0] !== 0 || dom[1] !== until) s.setXDomain([0, until]);
    if (s.cursor === null || s.cursor > until) s.setCursor(until);
  }

  /** Once the run is computed and its decisions read: the questions, then the first. */
  private tryReady() {
    const p = this.get();
    const s = this.store.getState();
    if (p.status !== 'loading' || p.key === null) return;
    const run = s.runs[p.key];
    const idx = this.explainer.index(p.key);
    if (run?.status === 'error') {
      this.state.setState({ error: run.error ?? 'This run failed.' });
      return;
    }
    if (!idx || run?.status !== 'done' || idx.now < run.now) return;
    const questions = questionsOf(idx, p.scope);
    const choices = eventChoices(idx, questions, p.scope);
    if (questions.length === 0) {
      this.state.setState({ status: 'done', questions, choices, until: null });
      this.store.getState().setXDomain(null);
      return;
    }
    this.state.setState({ questions, choices });
    this.ask(0);
  }

  /** Shows the run up to just before question k and asks it. */
  private ask(k: number) {
    const p = this.get();
    const q = p.questions[k];
    if (!q) return;
    const prev = k > 0 ? (p.questions[k - 1]?.t ?? 0) : 0;
    const until = askUntil(q.t, prev);
    this.state.setState({ status: 'asking', k, until, revealed: [], now: this.stateAt(until), error: '' });
    this.holdView();
    this.store.getState().setCursor(until);
  }

  /** cwnd, ssthresh (bytes) and the phase in force at time t, from the run's trace. */
  stateAt(t: number): PracticeState['now'] {
    const key = this.get().key;
    const series = key ? this.traces.get(key)?.tables.series : undefined;
    if (!series || series.length === 0) return null;
    const r = rowAt(series.cols.t, series.length, t);
    if (r < 0) return null;
    return {
      cwnd: series.cols.cwnd[r] ?? NaN,
      ssthresh: series.cols.ssthresh[r] ?? NaN,
      phase: series.cols.phase[r] ?? NaN,
    };
  }

  /** The decisions of a question's instant, read from the workers (the telling one first). */
  private async decisionsOf(q: Question): Promise<DecisionJson[]> {
    const key = this.get().key;
    const idx = key ? this.explainer.index(key) : null;
    if (!key || !idx) return [];
    const [a, b] = q.instant;
    const all = () => {
      const list: DecisionJson[] = [];
      for (let r = a; r <= b; r += 1) {
        const d = this.explainer.detail(key, idx.get('index', r));
        if (!d) return null;
        list.push(d);
      }
      return list;
    };
    for (let tries = 0; tries < 8; tries += 1) {
      const list = all();
      if (list) return list;
      // The explainer fetches an instant's decisions (64 at a time), from the telling one's.
      const missing = Array.from({ length: b - a + 1 }, (_, i) => a + i).find(
        (r) => !this.explainer.detail(key, idx.get('index', r)),
      );
      await this.explainer.load(key, idx.get('index', missing ?? q.row));
    }
    return all() ?? [];
  }

  /** Marks an answer to the question asked and reveals the engine's decision. */
  async answer(given: Given): Promise<Marked | null> {
    const p = this.get();
    const q = p.questions[p.k];
    if (p.status !== 'asking' || !q || p.key === null) return null;
    this.state.setState({ status: 'checking' });
    const decisions = await this.decisionsOf(q);
    const now = this.get();
    if (now.status !== 'checking' || now.k !== p.k || now.key !== p.key) return null;
    const telling = decisions.find((d) => d.index === q.index);
    if (!telling) {
      this.state.setState({ status: 'asking', error: 'The engine’s decision could not be read; try again.' });
      return null;
    }
    const trace = this.stateAt(q.t) ?? { cwnd: NaN, ssthresh: NaN };
    const truth = truthOf(decisions, trace, p.mss);
    const marked = mark(q, given, truth, { id: telling.rule, title: telling.title }, p.unit, p.mss);
    const answers = [...p.answers, marked];
    this.state.setState({
      status: 'revealed',
      answers,
      score: scoreOf(answers),
      until: revealUntil(q.t, p.questions[p.k + 1]?.t ?? null, durationOf(this.store.getState().scenario, q.t)),
      revealed: [telling, ...decisions.filter((d) => d !== telling)],
      now: this.stateAt(q.t),
    });
    // The cursor moves to the decision and the plots extend to it.
    this.holdView();
    this.explainer.goTo({ key: p.key, index: q.index });
    return marked;
  }

  /** The next question, or the summary after the last. */
  next(): void {
    const p = this.get();
    if (p.status !== 'revealed') return;
    if (p.k + 1 < p.questions.length) {
      this.ask(p.k + 1);
      return;
    }
    this.state.setState({ status: 'done', until: null, revealed: [] });
    this.store.getState().setXDomain(null);
  }

  /** A link that replays the run from a question's decision, explained, without practice. */
  replayLink(m: Marked): string {
    const s = this.store.getState();
    const key = this.get().key ?? '';
    return `?${encodeShareState({
      ...shareStateOf(s),
      practice: null,
      xDomain: null,
      cursor: m.question.t,
      why: { key, index: m.question.index },
    })}`;
  }
}
