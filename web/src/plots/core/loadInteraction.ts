// The plots' pointer interactions (core/interaction.ts: d3-zoom, d3-brush, d3-selection),
// loaded once the first view is drawn (start.tsx); plots made before then install them when
// they arrive, plots made after at once.

export type Interaction = typeof import('./interaction');

let loading: Promise<Interaction> | null = null;
let loaded: Interaction | null = null;
/** Plots waiting for the interactions (each with its own check that it is still there). */
let waiting: { install: (i: Interaction) => void; alive: () => boolean }[] = [];

/** Fetches the interactions (once; a failed fetch is tried again on the next call, and
 *  meanwhile the plots keep their keyboard zoom) and installs them where they wait. */
export function loadInteraction(): Promise<Interaction> {
  loading ??= import('./interaction').then(
    (m) => {
      loaded = m;
      const list = waiting;
      waiting = [];
      for (const w of list) if (w.alive()) w.install(m);
      return m;
    },
    (e: unknown) => {
      loading = null;
      throw e;
    },
  );
  return loading;
}

/** Calls `install` with the interactions now if they are loaded, else once `loadInteraction`
 *  has them (never after `alive` turns false). Loads nothing itself: the first view draws
 *  without them. */
export function withInteraction(install: (i: Interaction) => void, alive: () => boolean): void {
  if (loaded) install(loaded);
  else waiting.push({ install, alive });
}
