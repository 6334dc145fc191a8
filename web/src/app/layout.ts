// The page's one-column layout (styles.css: phones and narrow windows), where panels start
// folded and the parts below the fold mount after the first paint.
import { useEffect, useState } from 'react';

/** The media query of the one-column layout. */
export const NARROW = '(max-width: 999px)';

/**
 * Whether the page is in its one-column layout now. Prerendered at build time (no window:
 * prerender.tsx) the answer is yes, so the HTML's first paint is what a phone's first render
 * shows; without matchMedia (jsdom tests) no.
 */
export function narrowLayout(): boolean {
  if (typeof window === 'undefined') return true;
  return typeof window.matchMedia === 'function' && window.matchMedia(NARROW).matches;
}

/** Whether the page is in its one-column layout, following the window as it is resized
 *  (false without matchMedia, as narrowLayout). For parts rendered after the first paint
 *  only: the prerendered HTML has no window to ask. */
export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(narrowLayout);
  useEffect(() => {
    if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return;
    const mq = window.matchMedia(NARROW);
    const on = () => setNarrow(mq.matches);
    on();
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return narrow;
}
