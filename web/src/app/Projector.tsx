// Projector mode: the root's `projector` class (large type and high contrast in styles.css)
// and the plots' look (thick lines, big canvas text and marks: plots/core/plotStyle.ts),
// both following the store's `projector` (in the link as `projector=1`); the key
// PROJECTOR_KEY turns it on and off.
import { useEffect } from 'react';
import { setProjectorLook } from '../plots/core/plotStyle';
import type { AppStore } from '../state/store';
import { useApp } from './AppContext';

/** The key that turns projector mode on and off ("big"). */
export const PROJECTOR_KEY = 'b';

/** Puts the page in or out of projector mode now. */
export function applyProjector(on: boolean, root: HTMLElement = document.documentElement): void {
  setProjectorLook(on);
  root.classList.toggle('projector', on);
}

/** Follows the store's `projector` until the returned function is called. */
export function followProjector(store: AppStore, root?: HTMLElement): () => void {
  applyProjector(store.getState().projector, root);
  return store.subscribe((s, prev) => {
    if (s.projector !== prev.projector) applyProjector(s.projector, root);
  });
}

/** Whether a key press is meant for the page (not typed into a field). */
function forPage(e: KeyboardEvent): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return false;
  const el = e.target as HTMLElement | null;
  const tag = el?.tagName ?? '';
  return !(tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el?.isContentEditable === true);
}

/** Installs projector mode's class, look and key; renders nothing. */
export function ProjectorMode() {
  const { store } = useApp();
  useEffect(() => {
    const stop = followProjector(store);
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== PROJECTOR_KEY || !forPage(e)) return;
      const s = store.getState();
      s.setProjector(!s.projector);
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      stop();
    };
  }, [store]);
  return null;
}
