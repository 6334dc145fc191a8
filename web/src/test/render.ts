// What the component tests render and fire events with. The page runs on Preact (its React
// API, preact/compat: web/vite.config.ts), so the tests render with Preact's testing library;
// its events come from the project's own @testing-library/dom, wrapped in Preact's act() like
// the library's own (whose older copy of the DOM library does not reach the listeners of
// jsdom's elements here).
import { act as preactAct } from '@testing-library/preact';
import { configure } from '@testing-library/dom';
import { options } from 'preact';

// Effects run after a plain timer, not after the next frame: Preact's frame wait arms a
// 100 ms fallback timer that calls `cancelAnimationFrame`, and one still pending when a test
// file ends fired after jsdom's globals were gone ("cancelAnimationFrame is not defined", an
// unhandled error that failed a whole, passing run under load).
(options as { requestAnimationFrame?: (cb: () => void) => void }).requestAnimationFrame = (cb) => {
  setTimeout(cb);
};

configure({
  eventWrapper: (cb) => {
    let result: unknown;
    preactAct(() => {
      result = cb();
    });
    return result;
  },
});

/** Runs `cb` and applies the renders it caused (as React's act does); whatever `cb` returns
 *  is ignored, except a promise, which is awaited. */
export function act(cb: () => unknown): Promise<void> | void {
  return preactAct(() => {
    const result = cb();
    if (result instanceof Promise) return result.then(() => undefined);
  });
}

export { cleanup, render } from '@testing-library/preact';
export { fireEvent, screen, within } from '@testing-library/dom';
