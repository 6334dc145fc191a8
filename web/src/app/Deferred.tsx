// The parts of the page its default view does not show (the export panel, the exercise
// sheet, the print-only handout), loaded as separate chunks once the first view is drawn, or
// at once when a link or a click needs one. A closed panel's summary line stands in for it
// meanwhile, with the same markup, so nothing moves when the real one arrives; opening it
// early loads it and the real one opens. The service worker precaches these chunks like
// every other file of the build, so they load offline too.
import { lazy, useLayoutEffect, useSyncExternalStore, type ComponentType, type ReactNode, type RefObject } from 'react';

let openGate: () => void = () => {};
let gateOpen = false;
const gate = new Promise<void>((resolve) => (openGate = resolve));

/** Loads the deferred parts now: the first view is drawn (start.tsx), a link opens one, or
 *  the user opened a stand-in. */
export function loadDeferredNow(): void {
  gateOpen = true;
  openGate();
}

const subscribeGate = (changed: () => void) => {
  void gate.then(changed);
  return () => {};
};

/**
 * `children` (deferred components) once the gate is open, `fallback` (what their Suspense
 * shows while they load) until then. In the first view prerendered at build time and while
 * the page hydrates it (src/prerender, start.tsx) the gate counts as closed: the server
 * renderer cannot wait for a lazy component, and hydration must meet the same stand-in.
 */
export function DeferredPart({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const open = useSyncExternalStore(
    subscribeGate,
    () => gateOpen,
    () => false,
  );
  return open ? children : fallback;
}

/** A component loaded once the gate opens (render it inside a Suspense, inside a
 *  DeferredPart with the same fallback). */
export function deferred<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  return lazy(() => gate.then(load).then((component) => ({ default: component })));
}

const opened = new Set<string>();
/** The stand-in whose summary last had the focus. */
let lastFocused: string | null = null;

/**
 * For a deferred panel, as it replaces its stand-in: opens it (`setOpen(true)`) when the
 * stand-in was opened, and gives its summary the focus when the stand-in had it (the focus
 * would otherwise be lost with the stand-in). A layout effect: in the same task as the swap,
 * so a key pressed next reaches the panel. `root`: the panel's element holding its summary.
 */
export function useTakeOver(name: string, root: RefObject<HTMLElement | null>, setOpen: (open: boolean) => void) {
  useLayoutEffect(() => {
    if (opened.delete(name)) setOpen(true);
    const active = document.activeElement;
    if (lastFocused === name && (active === null || active === document.body)) {
      root.current?.querySelector('summary')?.focus();
    }
  }, [name, root, setOpen]);
}

/** A closed panel's stand-in: its summary line in the panel's own markup; opening it loads
 *  the panel, which then opens. */
export function DeferredSummary({ name, className, summary }: { name: string; className?: string; summary: string }) {
  return (
    <details className={className}>
      {/* The click (mouse or keyboard) that opens it; synchronous, unlike the toggle event. */}
      <summary
        onFocus={() => (lastFocused = name)}
        onClick={(e) => {
          if ((e.currentTarget.parentElement as HTMLDetailsElement | null)?.open) return;
          opened.add(name);
          loadDeferredNow();
        }}
      >
        {summary}
      </summary>
      <p className="deferred-loading" role="status">
        Loading…
      </p>
    </details>
  );
}
