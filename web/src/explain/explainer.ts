// The page side of explanations: asks the workers for the decisions it shows, never before
// the explanation tools are used (then each worker replays its runs explained, once), keeps
// each run's decision index, and moves the selection: a click picks the decision near it, a
// cursor moved any other way selects the decision in force there, and the step actions walk
// decisions forwards and backwards. Wording and numbers are the engine's; nothing here
// decides anything about TCP.
import type { Engine } from '../engine/client';
import type { DecisionJson } from '../engine/protocol';
import { runScenario, type AlgorithmName } from '../scenario/algorithms';
import type { DecisionRef } from '../scenario/shareState';
import type { AppStore } from '../state/store';
import type { AppState } from '../state/types';
import { DecisionIndex } from './decisionIndex';
import { loadTeaching, teaching } from '../engine/teaching';
import { ruleOf } from './vocabulary';

/** What a step looks for. */
export type StepTarget =
  /** Any decision. */
  | { kind: 'any' }
  /** The next instant with a decision of a rule kind (loss, timeout, rtt, …). */
  | { kind: 'ruleKind'; ruleKind: string }
  /** A decision of the same kind as the selected one. */
  | { kind: 'sameKind' }
  /** The next decision of one of these rules (a lesson's step). */
  | { kind: 'rules'; rules: readonly string[] };

/** What a step to the next instant of a kind looks for, in words. */
const RULE_KIND_NAMES: Record<string, string> = {
  loss: 'loss detected',
  timeout: 'timeout',
  rtt: 'RTT sample',
};

/** Kinds a click on an instant prefers to explain (what its mark shows). */
const TELLING = ['loss', 'timeout', 'recovery', 'idle', 'gate', 'queue'];

/** The decision of `kind` that tells what happened at the instant of `row`: the one that
 *  took a transition of the machine (the fast retransmit, not the ssthresh it set; the
 *  expiry, not the backoff), else the one the kind is named after, else the first. */
function telling(idx: DecisionIndex, row: number, kind: string): number | undefined {
  const [a, b] = idx.instantOf(row);
  const rows = Array.from({ length: b - a + 1 }, (_, k) => a + k).filter((r) => ruleOf(idx, r)?.kind === kind);
  return (
    rows.find((r) => idx.get('transition', r) >= 0 && idx.get('from', r) !== idx.get('to', r)) ??
    rows.find((r) => ruleOf(idx, r)?.id.startsWith(`${kind}.`)) ??
    rows[0]
  );
}

/** The decision that tells what happened at the instant of `row`, the one a click there
 *  explains: the first of the telling kinds (in `TELLING` order) that took a transition of
 *  the machine (the timeout's expiry, not the ssthresh it set, although both are loss
 *  responses: the ssthresh rule is of kind loss and comes first in the list); else the
 *  telling decision of the first telling kind present; else the instant's last decision. */
export function tellingOfInstant(idx: DecisionIndex, row: number): number {
  const [a, b] = idx.instantOf(row);
  const moved = (r: number) => idx.get('transition', r) >= 0 && idx.get('from', r) !== idx.get('to', r);
  for (const kind of TELLING) {
    for (let r = a; r <= b; r += 1) if (ruleOf(idx, r)?.kind === kind && moved(r)) return r;
  }
  for (const kind of TELLING) {
    const r = telling(idx, row, kind);
    if (r !== undefined) return r;
  }
  return b;
}

/** How a step moved: the decision, or why it did not. */
export type StepResult = { ok: true; ref: DecisionRef } | { ok: false; message: string };

export class Explainer {
  private indexes = new Map<string, DecisionIndex>();
  private details = new Map<string, Map<number, DecisionJson>>();
  private inFlight = new Set<string>();
  private again = new Set<string>();
  private gen: number;
  /** A selection from the link, applied once its run's index has it. */
  private pendingWhy: DecisionRef | null;
  /** The teaching chunk was asked for (refresh). */
  private teachingAsked = false;
  /** A step asked for before the index. */
  private pendingStep: { dir: 1 | -1; target: StepTarget } | null = null;
  /** A click that came before the index. */
  private pendingPick: AppState['pick'] = null;
  /** The cursor this class set itself (not a person's move). */
  private ownCursor: number | null = null;
  private divergenceFor = '';
  /** A new comparison replaced the runs: the selection follows the cursor into them. */
  private resync = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: AppStore,
    private readonly engine: Engine,
  ) {
    const s = store.getState();
    this.gen = s.gen;
    this.pendingWhy = s.selected;
    this.unsubscribe = store.subscribe((now, prev) => this.changed(now, prev));
  }

  dispose(): void {
    this.unsubscribe();
  }

  /** The store's state now. */
  state(): AppState {
    return this.store.getState();
  }

  /** The decision index of a run (null until the workers have answered). */
  index(key: string): DecisionIndex | null {
    return this.indexes.get(key) ?? null;
  }

  /** A decision's explanation, when fetched (the inspector asks with `load`). */
  detail(key: string, index: number): DecisionJson | null {
    return this.details.get(key)?.get(index) ?? null;
  }

  /** The run the step actions walk: the focused one, else the first shown. */
  focusKey(s: AppState = this.store.getState()): string | null {
    if (s.focus !== null && s.keys.includes(s.focus)) return s.focus;
    return s.keys[0] ?? null;
  }

  private changed(s: AppState, prev: AppState) {
    if (s.gen !== this.gen) {
      // A new comparison: new runs, new decisions. The cursor stays; the selection follows
      // it once the new indexes arrive.
      this.gen = s.gen;
      this.indexes.clear();
      this.details.clear();
      this.inFlight.clear();
      this.again.clear();
      this.divergenceFor = '';
      this.resync = s.selected !== null && this.pendingWhy === null;
    }
    if (s.explaining && (s.drawn !== prev.drawn || !prev.explaining || s.gen !== prev.gen)) this.refresh();
    if (s.explaining && s.mode !== prev.mode) this.refreshDivergence();
    if (s.pick !== prev.pick && s.pick) {
      this.pendingPick = s.pick;
      this.applyPick();
    } else if (s.cursor !== prev.cursor && s.cursor !== this.ownCursor && s.cursor !== null) {
      this.followCursor(s.cursor);
    } else if (s.focus !== prev.focus && s.cursor !== null) {
      this.followCursor(s.cursor);
    }
    if (s.selected !== prev.selected && s.selected) void this.load(s.selected.key, s.selected.index);
  }

  /** Asks every run's worker for the decisions made since the last answer. */
  refresh(): void {
    // The rules come with the teaching chunk (engine/teaching.ts): the first question waits
    // for it, so every index has its rules (vocabulary.ts). Where the chunk cannot be
    // fetched, the decisions are taken without their titles.
    if (teaching() === null && !this.teachingAsked) {
      this.teachingAsked = true;
      void loadTeaching().then(() => this.refresh());
      return;
    }
    const s = this.store.getState();
    for (const key of s.keys) {
      if (this.inFlight.has(key)) {
        this.again.add(key);
        continue;
      }
      this.inFlight.add(key);
      const gen = this.gen;
      const from = this.indexes.get(key)?.end ?? 0;
      void this.engine.explain({ what: 'index', key, from }).then((result) => {
        if (gen !== this.gen) return;
        this.inFlight.delete(key);
        if (result.what === 'index') {
          let idx = this.indexes.get(key);
          if (!idx || idx.epoch !== result.epoch) {
            // A new replay (a live change): its rows start at 0.
            if (idx && from > 0) {
              this.indexes.delete(key);
              this.details.delete(key);
              this.again.add(key);
            } else {
              idx = new DecisionIndex(result.epoch, result.machine);
              this.indexes.set(key, idx);
              this.details.set(key, new Map());
            }
          }
          if (idx && this.indexes.get(key) === idx) idx.append(result.cols, result.end, result.now);
          this.indexed(key);
        }
        if (this.again.delete(key)) this.refresh();
      });
    }
    this.refreshDivergence();
  }

  /** A run's index grew: apply what waited for it. */
  private indexed(key: string) {
    const s = this.store.getState();
    const idx = this.indexes.get(key);
    if (!idx) return;
    s.bumpDecisions();
    const why = this.pendingWhy;
    if (why && why.key === key) {
      if (idx.rowOf(why.index) >= 0) {
        this.pendingWhy = null;
        this.goTo(why);
        return;
      }
      if (s.runs[key]?.status === 'done' && !this.inFlight.has(key)) {
        this.pendingWhy = null;
        s.addNotices([
          {
            key: 'why',
            message: `why=${key}:${why.index}: this run made ${idx.end} decisions and none of index ${why.index} for this run; showing the decision at the cursor.`,
          },
        ]);
      } else {
        return;
      }
    }
    if (this.pendingStep && key === this.focusKey()) {
      const { dir, target } = this.pendingStep;
      this.pendingStep = null;
      const r = this.step(dir, target);
      s.setStepMessage(r.ok ? '' : r.message);
      return;
    }
    if (this.pendingPick && (this.pendingPick.key ?? this.focusKey()) === key) {
      this.applyPick();
      return;
    }
    if (this.resync && key === this.focusKey()) {
      this.resync = false;
      if (s.cursor !== null) this.followCursor(s.cursor, true);
      else s.select(null);
      return;
    }
    const cur = s.selected;
    const stale = cur !== null && cur.key === key && this.indexes.get(key)?.rowOf(cur.index) === -1;
    if (key === this.focusKey() && (cur === null || stale || cur.key !== key) && s.cursor !== null) {
      this.followCursor(s.cursor);
    }
    if (cur && cur.key === key && !stale) void this.load(cur.key, cur.index);
  }

  /** Fetches a decision and the others made at the same instant. */
  async load(key: string, index: number): Promise<void> {
    const idx = this.indexes.get(key);
    const have = this.details.get(key);
    if (!idx || !have) return;
    const row = idx.rowOf(index);
    if (row < 0) return;
    const [a, b] = idx.instantOf(row);
    const wanted: number[] = [];
    // The instant, and the previous and next decision (the inspector names them).
    for (let r = Math.max(0, a - 1); r <= Math.min(idx.length - 1, b + 1); r += 1) {
      const i = idx.get('index', r);
      if (!have.has(i)) wanted.push(i);
    }
    if (wanted.length === 0) return;
    const gen = this.gen;
    const result = await this.engine.explain({ what: 'detail', key, indices: wanted.slice(0, 64) });
    if (gen !== this.gen || result.what !== 'detail' || this.indexes.get(key) !== idx) return;
    if (result.epoch !== idx.epoch) return;
    for (const d of result.decisions) have.set(d.index, d);
    this.store.getState().bumpDecisions();
  }

  /** Selects a decision and moves the cursor to it. */
  goTo(ref: DecisionRef): void {
    const idx = this.indexes.get(ref.key);
    const row = idx?.rowOf(ref.index) ?? -1;
    if (!idx || row < 0) return;
    const t = idx.t(row);
    this.ownCursor = t;
    this.store.setState({ selected: ref, focus: ref.key, cursor: t, explaining: true });
  }

  /** The focused run's decision in force at time t (the last at or before it) becomes the
   *  selection; the cursor stays where it is. */
  private followCursor(t: number, fresh = false) {
    const key = this.focusKey();
    const idx = key ? this.indexes.get(key) : undefined;
    if (!key || !idx) return;
    const s = this.store.getState();
    const cur = s.selected;
    if (cur && cur.key === key && !fresh) {
      const row = idx.rowOf(cur.index);
      if (row >= 0 && idx.t(row) === t) return; // one of several at this instant: kept
    }
    const row = idx.lastAtOrBefore(t);
    const next = row < 0 ? null : { key, index: idx.get('index', row) };
    if (fresh || next?.key !== cur?.key || next?.index !== cur?.index) this.store.setState({ selected: next });
  }

  /** A click: the decision nearest the click within its tolerance (the most telling one of
   *  its instant), else the one in force there. */
  private applyPick() {
    const pick = this.pendingPick;
    const key = pick?.key ?? this.focusKey();
    const idx = key ? this.indexes.get(key) : undefined;
    if (!pick || !key || !idx) return;
    this.pendingPick = null;
    // A plot whose marks show decisions of one kind (the queue plots' drops and marks):
    // the nearest of that kind within the tolerance.
    if (pick.kind !== undefined) {
      let near = -1;
      for (let r = idx.lastAtOrBefore(pick.t + pick.tol); r >= 0 && idx.t(r) >= pick.t - pick.tol; r -= 1) {
        if (ruleOf(idx, r)?.kind !== pick.kind) continue;
        if (near < 0 || Math.abs(idx.t(r) - pick.t) < Math.abs(idx.t(near) - pick.t)) near = r;
      }
      if (near >= 0) {
        this.goTo({ key, index: idx.get('index', near) });
        return;
      }
    }
    const before = idx.lastAtOrBefore(pick.t);
    let best = -1;
    for (const r of [before, before + 1]) {
      if (r < 0 || r >= idx.length) continue;
      const d = Math.abs(idx.t(r) - pick.t);
      if (d <= pick.tol && (best < 0 || d < Math.abs(idx.t(best) - pick.t))) best = r;
    }
    if (best < 0) {
      this.followCursor(pick.t);
      return;
    }
    this.goTo({ key, index: idx.get('index', tellingOfInstant(idx, best)) });
  }

  /** The focused run's current row: the selected decision, else the one in force at the
   *  cursor (-1 before any). */
  private currentRow(idx: DecisionIndex, key: string): number {
    const s = this.store.getState();
    if (s.selected?.key === key) {
      const row = idx.rowOf(s.selected.index);
      if (row >= 0) return row;
    }
    return s.cursor === null ? -1 : idx.lastAtOrBefore(s.cursor);
  }

  /** Steps the focused run forwards (1) or backwards (-1) to the next decision `target`
   *  names; says why not when there is none. */
  step(dir: 1 | -1, target: StepTarget = { kind: 'any' }): StepResult {
    const key = this.focusKey();
    const idx = key ? this.indexes.get(key) : undefined;
    if (!key || !idx) {
      // The first step explains the runs; it is taken once the decisions are read.
      this.pendingStep = { dir, target };
      this.store.getState().setExplaining(true);
      return { ok: false, message: 'Reading the run’s decisions…' };
    }
    const row = this.currentRow(idx, key);
    let found = -1;
    let what = 'decision';
    if (target.kind === 'any') {
      found = row + dir >= 0 && row + dir < idx.length ? row + dir : -1;
    } else if (target.kind === 'sameKind') {
      const kind = ruleOf(idx, row)?.kind;
      what = kind ? `${kind} decision` : 'decision';
      if (kind) found = idx.find(row, dir, (r) => ruleOf(idx, r)?.kind === kind);
    } else if (target.kind === 'rules') {
      const wanted = new Set(target.rules);
      what = 'such decision';
      found = idx.find(row, dir, (r) => wanted.has(ruleOf(idx, r)?.id ?? ''));
    } else {
      // Instants: the next instant with a decision of this kind, at its first such decision.
      what = RULE_KIND_NAMES[target.ruleKind] ?? `${target.ruleKind} decision`;
      const t0 = row < 0 ? -Infinity : idx.t(row);
      // An instant counts when a rule named after the kind fired in it (loss.*: a loss
      // detected; the ssthresh a timeout sets is of kind loss too, but that is a timeout).
      const of = (r: number) => ruleOf(idx, r)?.id.startsWith(`${target.ruleKind}.`) ?? false;
      found = idx.find(row, dir, (r) => of(r) && (dir > 0 ? idx.t(r) > t0 : idx.t(r) < t0));
      if (found >= 0) {
        // Within the instant, the decision the kind is named after (loss.*: the fast
        // retransmit rather than the ssthresh it set), else the first of the kind.
        found = telling(idx, found, target.ruleKind) ?? found;
      }
    }
    if (found < 0) {
      const where = dir > 0 ? 'after' : 'before';
      const at = row < 0 ? 'the start' : `t = ${idx.t(row).toFixed(6)} s`;
      return { ok: false, message: `No ${what} ${where} ${at} in this run.` };
    }
    const ref = { key, index: idx.get('index', found) };
    this.goTo(ref);
    return { ok: true, ref };
  }

  /** The runs (focused first) that made a decision of one of `rules`. */
  runsWith(rules: readonly string[]): string[] {
    const s = this.store.getState();
    const wanted = new Set(rules);
    const focus = this.focusKey(s);
    const keys = focus ? [focus, ...s.keys.filter((k) => k !== focus)] : s.keys;
    return keys.filter((k) => {
      const idx = this.indexes.get(k);
      return !!idx && idx.find(-1, 1, (r) => wanted.has(ruleOf(idx, r)?.id ?? '')) >= 0;
    });
  }

  /** A lesson's step: the next decision of one of `rules` in the focused run (from the
   *  start again after its last), else the first in another run that has one. */
  stepToRules(rules: readonly string[]): StepResult {
    const wanted = new Set(rules);
    const focus = this.focusKey();
    for (const key of this.runsWith(rules)) {
      const idx = this.indexes.get(key);
      if (!idx) continue;
      const test = (r: number) => wanted.has(ruleOf(idx, r)?.id ?? '');
      let row = key === focus ? idx.find(this.currentRow(idx, key), 1, test) : -1;
      if (row < 0) row = idx.find(-1, 1, test);
      if (row >= 0) {
        const ref = { key, index: idx.get('index', row) };
        this.goTo(ref);
        return { ok: true, ref };
      }
    }
    return { ok: false, message: 'No run here makes such a decision.' };
  }

  /** Moves the cursor to time t (selecting the decision in force there). */
  jumpTo(t: number): void {
    const s = this.store.getState();
    s.setExplaining(true);
    s.setCursor(t);
  }

  /** The first decision that enters phase `code` after the cursor (wrapping to the start),
   *  or the first overlay transition into `overlayTo`. */
  enterState(key: string, test: (idx: DecisionIndex, row: number) => boolean): StepResult {
    const idx = this.indexes.get(key);
    if (!idx) return { ok: false, message: 'The decisions are being read; try again in a moment.' };
    const s = this.store.getState();
    const row =
      s.selected?.key === key ? idx.rowOf(s.selected.index) : s.cursor === null ? -1 : idx.lastAtOrBefore(s.cursor);
    let found = idx.find(row, 1, (r) => test(idx, r));
    if (found < 0) found = idx.find(-1, 1, (r) => test(idx, r));
    if (found < 0) return { ok: false, message: 'This run never enters that state.' };
    const ref = { key, index: idx.get('index', found) };
    this.goTo(ref);
    return { ok: true, ref };
  }

  /** The first divergence of the pair shown (comparison mode, two runs or more). */
  private refreshDivergence() {
    const s = this.store.getState();
    if (!s.explaining || s.mode !== 'compare' || s.keys.length < 2) {
      if (s.divergence) s.setDivergence(null);
      this.divergenceFor = '';
      return;
    }
    const old = s.divergence?.pair;
    const pair: [string, string] =
      old && s.keys.includes(old[0]) && s.keys.includes(old[1]) && old[0] !== old[1]
        ? old
        : [s.keys[0] ?? '', s.keys[1] ?? ''];
    this.divergence(pair);
  }

  /** Finds where two compared runs first differ (the engine runs both, explained). */
  divergence(pair: [string, string], force = false): void {
    const s = this.store.getState();
    const a = JSON.stringify(runScenario(s.scenario, pair[0] as AlgorithmName));
    const b = JSON.stringify(runScenario(s.scenario, pair[1] as AlgorithmName));
    const id = `${this.gen}|${pair.join()}`;
    if (!force && this.divergenceFor === id) return;
    this.divergenceFor = id;
    s.setDivergence({ pair, status: 'computing', result: null, error: null });
    void this.engine.explain({ what: 'divergence', a, b }).then((result) => {
      if (this.divergenceFor !== id) return;
      const st = this.store.getState();
      if (result.what === 'divergence') {
        st.setDivergence({ pair, status: 'done', result: result.divergence, error: null });
      } else if (result.what === 'error' && result.message !== 'superseded') {
        st.setDivergence({ pair, status: 'error', result: null, error: result.message });
      }
    });
  }
}
