// The parts of the page its default view does not show (the export panel, the exercise
// sheet, the print-only handout), loaded as separate chunks once the first view is drawn, or
// at once when a link or a click needs one. A closed panel's summary line stands in for it
// meanwhile, with the same markup, so nothing moves when the real one arrives; opening it
// early loads it and the real one opens. The service worker precaches these chunks like
// every other file of the build, so they load offline too.
import { lazy, type ComponentType } from 'react';

let openGate: () => void = () => {};
const gate = new Promise<void>((resolve) => (openGate = resolve));

/** Loads the deferred parts now: the first view is drawn (main.tsx), a link opens one, or
 *  the user opened a stand-in. */
export function loadDeferredNow(): void {
  openGate();
}

/** A component loaded once the gate opens (render it inside a Suspense). */
export function deferred<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  return lazy(() => gate.then(load).then((component) => ({ default: component })));
}

const opened = new Set<string>();

/** Whether the stand-in of panel `name` was opened before the panel loaded (read once). */
export function openedEarly(name: string): boolean {
  return opened.delete(name);
}

/** A closed panel's stand-in: its summary line in the panel's own markup; opening it loads
 *  the panel, which then opens. */
export function DeferredSummary({ name, className, summary }: { name: string; className?: string; summary: string }) {
  return (
    <details
      className={className}
      onToggle={(e) => {
        if (!e.currentTarget.open) return;
        opened.add(name);
        loadDeferredNow();
      }}
    >
      <summary>{summary}</summary>
      <p className="deferred-loading" role="status">
        Loading…
      </p>
    </details>
  );
}
