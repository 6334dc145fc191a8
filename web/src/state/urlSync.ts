// Keeps the address bar equal to the state: scenario, selection, timeline, pinned cursor,
// zoom and view, written with replaceState (no history entry per slider step) at most once
// per THROTTLE_MS, because browsers rate-limit the History API (nuqs NUQS-429). The write
// trails the change by THROTTLE_MS: it is never urgent, and right after a change the page's
// main thread and the engine workers have a re-run to finish.
import { shallow } from 'zustand/vanilla/shallow';
import { PACK_MARK, splitLink } from '../scenario/longLink';
import { encodeShareState } from '../scenario/url';
import type { ShareState } from '../scenario/shareState';
import type { AppState } from './types';
import type { AppStore } from './store';

/** Minimum time between two address-bar writes, ms. */
export const THROTTLE_MS = 150;

/** The part of the state a link carries. */
export function shareStateOf(s: AppState): ShareState {
  return {
    scenario: s.scenario,
    mode: s.mode,
    algorithms: s.algorithms,
    cursor: s.cursor,
    xDomain: s.xDomain,
    layout: s.layout,
    plots: s.plots,
    lesson: s.lesson,
    preset: s.preset,
    throughputBin: s.throughputBin,
    throughputColumn: s.throughputColumn,
    cdfScale: s.cdfScale,
    unit: s.unit,
    hidden: s.hidden,
    why: s.selected,
    practice: s.practice,
    projector: s.projector,
    sheet: s.sheet,
    theory: s.theory,
    textbook: s.textbook,
    sweep: s.sweep,
  };
}

let lastShare: ShareState | null = null;
let lastQuery = '';

/** The link's query for `share` (`encodeShareState`), encoded once per state however many
 *  parts of the page ask for it: the address bar, the share panel, the printed header and
 *  the sheet's printed questions each asked on every change (~0.7 ms each per slider step). */
export function shareQuery(share: ShareState): string {
  // Compared part by part (the store's state is never changed in place).
  if (lastShare === null || !shallow(lastShare, share)) {
    lastQuery = encodeShareState(share);
    lastShare = share;
  }
  return lastQuery;
}

/** Subscribes the address bar to the store; returns the unsubscribe function. */
export function startUrlSync(store: AppStore, win: Window = window): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const write = () => {
    timer = null;
    // A long link (v=5) carries part of itself after `#~` (scenario/longLink.ts); any other
    // fragment (`#plots`, the skip link's) is the page's own and is kept, unless the link
    // needs the fragment.
    const { query, fragment } = splitLink(shareQuery(shareStateOf(store.getState())));
    const current = win.location.hash;
    const hash = fragment !== '' ? `#${fragment}` : current.startsWith(`#${PACK_MARK}`) ? '' : current;
    const url = `${win.location.pathname}?${query}${hash}`;
    if (url !== `${win.location.pathname}${win.location.search}${current}`) {
      try {
        win.history.replaceState(win.history.state, '', url);
      } catch {
        // A link past what the browser takes (Chromium: 2 MB) stays as it was; the link
        // field still shows the whole link and says it is long.
      }
    }
  };
  // Following an in-page link (`#plots`) replaces the fragment: a long link gets its own back.
  const onHash = () => write();
  win.addEventListener('hashchange', onHash);
  const unsubscribe = store.subscribe((s, prev) => {
    const changed =
      s.scenario !== prev.scenario ||
      s.mode !== prev.mode ||
      s.algorithms !== prev.algorithms ||
      s.hidden !== prev.hidden ||
      s.cursor !== prev.cursor ||
      s.xDomain !== prev.xDomain ||
      s.layout !== prev.layout ||
      s.plots !== prev.plots ||
      s.lesson !== prev.lesson ||
      s.throughputBin !== prev.throughputBin ||
      s.throughputColumn !== prev.throughputColumn ||
      s.cdfScale !== prev.cdfScale ||
      s.unit !== prev.unit ||
      s.selected !== prev.selected ||
      s.practice !== prev.practice ||
      s.projector !== prev.projector ||
      s.sheet !== prev.sheet ||
      s.theory !== prev.theory ||
      s.textbook !== prev.textbook ||
      s.sweep !== prev.sweep;
    if (!changed || timer !== null) return;
    timer = setTimeout(write, THROTTLE_MS);
  });
  write();
  return () => {
    unsubscribe();
    win.removeEventListener('hashchange', onHash);
    if (timer !== null) clearTimeout(timer);
  };
}
