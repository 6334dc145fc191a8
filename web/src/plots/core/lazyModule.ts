// Plot kinds the default view does not show (the competition plots, BBR's model, the write
// timeline, the thin-stream CDFs, the rounds view) are separate chunks, loaded when a view
// first shows them (issue 24: "views not in the default view loaded when first shown"). The
// service worker precaches them with every other file of the build, so they load offline.
// While one loads, the page does not count as drawn (holdIdle), so screenshots, exports and
// tests wait for the real plot; if it cannot load, its place says so and the page goes on.
import { useEffect, useSyncExternalStore } from 'react';
import { holdIdle } from './scheduler';

/** Where a lazily loaded module stands: loaded (`value`), failed (`error`), or neither. */
export interface LazyState<T> {
  readonly value: T | null;
  readonly error: string | null;
}

/** A module loaded when first needed (or one that is already there). */
export interface LazyModule<T> {
  /** The current state (the same object until it changes). */
  state(): LazyState<T>;
  /** Loads it (once; again after a failure). */
  load(): Promise<void>;
  subscribe(listener: () => void): () => void;
}

/** A module that `load` fetches when first asked for. */
export function lazyModule<T>(load: () => Promise<T>): LazyModule<T> {
  let state: LazyState<T> = { value: null, error: null };
  let loading: Promise<void> | null = null;
  const listeners = new Set<() => void>();
  const set = (next: LazyState<T>) => {
    state = next;
    for (const l of listeners) l();
  };
  return {
    state: () => state,
    load() {
      if (state.value !== null) return Promise.resolve();
      loading ??= load().then(
        (value) => set({ value, error: null }),
        (e: unknown) => {
          loading = null;
          set({ value: null, error: e instanceof Error ? e.message : String(e) });
        },
      );
      return loading;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A module that is part of the page's own script (no loading). */
export function loadedModule<T>(value: T): LazyModule<T> {
  const state: LazyState<T> = { value, error: null };
  return { state: () => state, load: () => Promise.resolve(), subscribe: () => () => {} };
}

/**
 * The module's state, loading it when it is not there. Until it has loaded the page is held
 * busy; the hold ends in the commit that shows the loaded part, whose plots then ask for
 * their first draw in that same commit (before any frame), so the page stays busy until
 * they are drawn. The server renderer (the prerendered first view) sees only loaded modules.
 */
export function useLazyModule<T>(m: LazyModule<T>): LazyState<T> {
  const state = useSyncExternalStore(m.subscribe, m.state, m.state);
  const waiting = state.value === null && state.error === null;
  useEffect(() => {
    if (!waiting) return;
    const release = holdIdle();
    void m.load();
    return release;
  }, [m, waiting]);
  return state;
}
