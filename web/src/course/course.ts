// The course path (issue 41): the engine's lessons in a teaching order (its list, ids, titles
// and what each stop teaches come from the engine: `presets::course`, tables.json), the
// student's progress kept in this browser (localStorage, one versioned key, no server) and
// the link key `course=<id>` (docs/scenario-url.md).
import { tables, type CourseStop } from '../engine/tables';

/** The course, in teaching order. */
export const COURSE: readonly CourseStop[] = tables.course;

/** The stop with this id, if any. */
export function stopNamed(id: string, course: readonly CourseStop[] = COURSE): CourseStop | undefined {
  return course.find((s) => s.id === id);
}

/** The position (0-based) of the stop that opens this preset, or -1. */
export function stopIndexOf(preset: string | null, course: readonly CourseStop[] = COURSE): number {
  return preset === null ? -1 : course.findIndex((s) => s.preset === preset);
}

/** The link that opens a stop. */
export function courseHref(stop: CourseStop): string {
  return `?course=${encodeURIComponent(stop.id)}`;
}

// ---------------------------------------------------------------------------------------
// The link key.

type Pairs = [string, string][];

/**
 * Reads `course=<id>`: the stop opens its preset, as a bare `preset=NAME` does (the pair is
 * added to the link's pairs). An unknown id is named in a notice with the allowed ids, and the
 * link opens without it. A link that names its own `preset=` keeps it.
 */
export function withCourseStop(
  pairs: Pairs,
  note: (key: string, message: string) => void,
  course: readonly CourseStop[] = COURSE,
): Pairs {
  const text = pairs.find(([k]) => k === 'course')?.[1];
  if (text === undefined) return pairs;
  const stop = stopNamed(text, course);
  if (!stop) {
    note(
      'course',
      `course=${text} is not a lesson of the course (allowed: ${course.map((s) => s.id).join(', ')}); ` +
        'the page opens without it.',
    );
    return pairs;
  }
  const preset = pairs.find(([k]) => k === 'preset')?.[1];
  if (preset === undefined) return [...pairs, ['preset', stop.preset]];
  if (preset !== stop.preset) {
    note(
      'course',
      `course=${text} opens the preset ${stop.preset}, but the link names preset=${preset}; using preset=${preset}.`,
    );
  }
  return pairs;
}

// ---------------------------------------------------------------------------------------
// Progress, in this browser only.

/** The one localStorage key the course uses; its version is in the name and the value. */
export const PROGRESS_KEY = 'cwndlab.course.v1';
const PROGRESS_VERSION = 1;

/** Reads a stored value: the ids of the stops done, in course order. Anything else (no value,
 *  not JSON, another shape or version, ids the course does not have) is ignored. */
export function parseProgress(text: string | null, course: readonly CourseStop[] = COURSE): string[] {
  if (text === null) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  if (typeof value !== 'object' || value === null) return [];
  const { version, done } = value as { version?: unknown; done?: unknown };
  if (version !== PROGRESS_VERSION || !Array.isArray(done)) return [];
  const ids = new Set(done.filter((d): d is string => typeof d === 'string'));
  return course.filter((s) => ids.has(s.id)).map((s) => s.id);
}

/** The stored value for these stops done. */
export function progressText(done: readonly string[]): string {
  return JSON.stringify({ version: PROGRESS_VERSION, done: [...done] });
}

/** The browser's localStorage, or null where it cannot be used (disabled, sandboxed). */
export function courseStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The progress stored in `storage`; never throws. */
export function loadProgress(storage: Storage | null = courseStorage()): string[] {
  try {
    return parseProgress(storage?.getItem(PROGRESS_KEY) ?? null);
  } catch {
    return [];
  }
}

/** Stores the progress; false when the browser refuses (then it lasts until the page closes). */
export function saveProgress(done: readonly string[], storage: Storage | null = courseStorage()): boolean {
  if (!storage) return false;
  try {
    storage.setItem(PROGRESS_KEY, progressText(done));
    return true;
  } catch {
    return false;
  }
}

/** `done` with the stop marked (or unmarked), in course order. */
export function withDone(
  done: readonly string[],
  id: string,
  on: boolean,
  course: readonly CourseStop[] = COURSE,
): string[] {
  const set = new Set(done);
  if (on) set.add(id);
  else set.delete(id);
  return course.filter((s) => set.has(s.id)).map((s) => s.id);
}
