// The page's one-column layout (styles.css: phones and narrow windows), where panels start
// folded and the parts below the fold mount after the first paint.

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
