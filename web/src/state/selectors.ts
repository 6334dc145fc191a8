// Derived reads of the store. Each returns a primitive or a reference already in the state.
import type { RunSummary } from '../engine/protocol';
import type { JsonValue } from '../lib/json';
import { flowSettingOf, hasWindowValidation, isNewCwv } from '../scenario/algorithms';
import { anyBbr } from '../scenario/bbr';
import { getAt, timelineOf } from '../scenario/paths';
import type { AppState, RunInfo } from './types';

/**
 * The value a control shows: a change waiting for the engine, else (during a live session)
 * the base value overridden by timeline changes up to the play head, else the base value.
 */
export function effectiveValue(s: AppState, path: string): JsonValue | undefined {
  if (Object.prototype.hasOwnProperty.call(s.pendingLive, path)) return s.pendingLive[path];
  const base = getAt(s.scenario, path);
  if (!s.live) return base;
  let v = base;
  for (const e of timelineOf(s.scenario)) {
    if (e.set === path && typeof e.at === 'number' && e.at <= s.time) v = e.value;
  }
  return v;
}

/** Number of timeline changes that touch a path. */
export function timelineCount(s: AppState, path: string): number {
  return timelineOf(s.scenario).filter((e) => e.set === path).length;
}

/** The summary to show for a run: while it computes, the previous comparison's stays in
 *  place (plots and table alike), so the numbers change once, when the new ones arrive. */
export function summaryShown(run: RunInfo | undefined): RunSummary | null {
  if (!run) return null;
  return run.summary ?? (run.status === 'running' ? run.previous : null);
}

/** A run still computing that has reported progress, i.e. a long one: a run that finishes
 *  within a frame or two is never shown as busy, so nothing flashes. */
export function reportsProgress(run: RunInfo | undefined): boolean {
  return run?.status === 'running' && run.now > 0;
}

/** True when some compared run has an idle policy, so the window plot has W_used, pipeACK
 *  and decay marks to show (and the legend and line toggles mention them). */
export function selectWindowValidation(s: AppState): boolean {
  return s.algorithms.some((a) => hasWindowValidation(s.scenario, a));
}

/** True when some compared run is new CWV (pipeACK and the non-validated phase to show). */
export function selectNewCwv(s: AppState): boolean {
  return s.algorithms.some((a) => isNewCwv(s.scenario, a));
}

/** True when some run of the page is BBR (its phases, BDP line and model plot to explain). */
export function selectBbr(s: AppState): boolean {
  return anyBbr(s.mode, s.algorithms, s.scenario);
}

/** Per scenario object: whether a run of each algorithm has SACK on (selectors run on every
 *  state change, hover included; the scenario object changes only with the scenario). */
const sackRuns = new WeakMap<object, Map<string, boolean>>();

/** True when some run has SACK on (`flows[i].sack.enabled`, the scenario's or the compared
 *  algorithm's: `flowSettingOf`), so the time–sequence plot may draw SACK blocks, lost marks
 *  and probes (and the legend names them). */
export function selectSack(s: AppState): boolean {
  if (s.mode === 'compete') {
    const flows = getAt(s.scenario, 'flows');
    const n = Array.isArray(flows) ? flows.length : 1;
    for (let i = 0; i < n; i += 1) if (getAt(s.scenario, `flows[${i}].sack.enabled`) === true) return true;
    return false;
  }
  let byAlg = sackRuns.get(s.scenario);
  if (!byAlg) sackRuns.set(s.scenario, (byAlg = new Map()));
  return s.algorithms.some((a) => {
    let on = byAlg.get(a);
    if (on === undefined) byAlg.set(a, (on = flowSettingOf(s.scenario, a, 'sack.enabled') === true));
    return on;
  });
}
