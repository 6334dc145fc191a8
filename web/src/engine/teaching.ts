// The teaching texts the engine publishes: each lesson's text, each preset's steps, the
// explanation rules and their kinds (scripts/setup.mjs writes pkg/teaching.json from the
// wasm, as it writes tables.json). The first view shows none of them, so they are a chunk of
// their own: loaded once the first view is drawn (start.tsx), at start-up when the link opens
// a lesson, and by the explainer before it takes a run's first decisions, so that wherever
// there is a decision index its rules are there too. Offline, the service worker precaches
// the chunk like every other file of the build.
import { useEffect, useSyncExternalStore } from 'react';
import type { Lesson, LessonStep, RuleKind, RuleSpec } from './tables';

/** pkg/teaching.json. */
export interface Teaching {
  /** The lesson's text, by preset name (the presets with a lesson). */
  lessons: Record<string, Lesson>;
  /** Where the explanation tools lead in a preset, by preset name (the presets with steps). */
  steps: Record<string, LessonStep[]>;
  /** Every rule, by its index (the `rule` column of a decision index). */
  rules: RuleSpec[];
  /** Every rule kind, with its description. */
  kinds: RuleKind[];
}

let loaded: Teaching | null = null;
let loading: Promise<Teaching | null> | null = null;
const listeners = new Set<() => void>();

/** The teaching texts, or null while they are not loaded. */
export function teaching(): Teaching | null {
  return loaded;
}

/**
 * Loads the teaching texts (once; later calls share the first). Resolves with null when the
 * chunk cannot be fetched (a server gone, offline before the site was cached): the page then
 * goes on without lesson texts and rule titles, and the next call tries again.
 */
export function loadTeaching(): Promise<Teaching | null> {
  loading ??= import('./pkg/teaching.json').then(
    (m) => {
      loaded = m.default as unknown as Teaching;
      for (const changed of listeners) changed();
      return loaded;
    },
    () => {
      loading = null;
      return null;
    },
  );
  return loading;
}

const subscribe = (changed: () => void) => {
  listeners.add(changed);
  return () => listeners.delete(changed);
};

/** The teaching texts for a component: null until loaded, then the texts. `wanted`: the
 *  component shows some of them now, so they are asked for at once. */
export function useTeaching(wanted: boolean): Teaching | null {
  const t = useSyncExternalStore(subscribe, teaching, () => null);
  useEffect(() => {
    if (wanted && t === null) void loadTeaching();
  }, [wanted, t]);
  return t;
}
