// Derived reads of the store. Each returns a primitive or a reference already in the state.
import type { JsonValue } from '../lib/json';
import { getAt } from '../scenario/paths';
import type { AppState } from './types';

/**
 * The value a control shows: a change waiting for the engine, else (during a live session)
 * the base value overridden by timeline changes up to the play head, else the base value.
 */
export function effectiveValue(s: AppState, path: string): JsonValue | undefined {
  if (Object.prototype.hasOwnProperty.call(s.pendingLive, path)) return s.pendingLive[path];
  const base = getAt(s.scenario, path);
  if (!s.live) return base;
  let v = base;
  const tl = Array.isArray(s.scenario.timeline) ? s.scenario.timeline : [];
  for (const e of tl) {
    if (
      e &&
      typeof e === 'object' &&
      !Array.isArray(e) &&
      e.set === path &&
      typeof e.at === 'number' &&
      e.at <= s.time
    ) {
      v = e.value;
    }
  }
  return v;
}

/** Number of timeline changes that touch a path. */
export function timelineCount(s: AppState, path: string): number {
  const tl = Array.isArray(s.scenario.timeline) ? s.scenario.timeline : [];
  return tl.filter((e) => e && typeof e === 'object' && !Array.isArray(e) && e.set === path).length;
}

/** The scenario's duration, s. */
export function durationOf(s: AppState): number {
  const d = s.scenario.duration;
  return typeof d === 'number' ? d : 0;
}
