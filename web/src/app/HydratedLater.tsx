// The phone's hydration of the prerendered first view, in parts. Preact hydrates a tree in
// one task (its startTransition runs at once), ~300–450 ms at Lighthouse's 4× CPU for this
// page; a part of the page wrapped in <HydratedLater> throws a promise while the page
// hydrates, and Preact keeps that part's server-rendered element on screen as it is
// (preact/compat's Suspense shows no fallback during a hydration) and hydrates it when the
// promise resolves. Each part resolves in a task of its own, in page order, so the page
// stays responsive between them; start.tsx (`hydrateInParts`) waits for every part before
// the engine's part of the start-up updates the store. Outside a hydration (wider screens,
// the build's prerender, tests) a part renders at once.
import { Component, Suspense, type ReactElement, type ReactNode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';

let hydrating = false;
/** Parts waiting for their task, in page order. */
const queue: (() => void)[] = [];
/** Parts that suspended and have not hydrated yet. */
let open = 0;
let scheduled = false;
let allDone: (() => void) | null = null;

function runNext() {
  scheduled = false;
  queue.shift()?.();
  schedule();
}

function schedule() {
  if (scheduled || queue.length === 0) return;
  scheduled = true;
  setTimeout(runNext, 0);
}

/** Resolves once every part that waited has hydrated (at once when none did); later
 *  renders of a part are ordinary. */
function partsHydrated(): Promise<void> {
  return new Promise((resolve) => {
    const finish = () => {
      hydrating = false;
      allDone = null;
      resolve();
    };
    if (open === 0) finish();
    else allDone = finish;
  });
}

class Part extends Component<{ children: ReactNode }> {
  private wait: Promise<void> | null = null;
  private hydrated = false;

  override render() {
    if (!hydrating || this.hydrated) return this.props.children;
    if (!this.wait) {
      open += 1;
      this.wait = new Promise<void>((resolve) => {
        queue.push(() => {
          this.hydrated = true;
          resolve();
        });
        schedule();
      });
    }
    throw this.wait;
  }

  override componentDidMount() {
    if (!this.wait) return;
    open -= 1;
    if (open === 0) allDone?.();
  }
}

/** `children` (one element: the part Preact keeps while it waits) hydrated in a task of its
 *  own on a phone's first load; rendered as usual otherwise. */
export function HydratedLater({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={null}>
      <Part>{children}</Part>
    </Suspense>
  );
}

/**
 * Hydrates `app` (given the callback its first commit calls) into `container`, the parts in
 * <HydratedLater> in later tasks; resolves with the root once every part has hydrated.
 * Preact does not compare attributes while it hydrates, so a part hydrated after the page's
 * state changed (`watch` reports each change: a preset chosen in the header before the
 * summary had hydrated) could keep attributes the server wrote for the old state: then the
 * tree is rendered anew from `anew` (a different key, so nothing is reused).
 */
export async function hydrateInParts(
  container: Element,
  app: (committed: () => void) => ReactElement,
  watch: (changed: () => void) => () => void,
  anew: () => ReactElement,
): Promise<Root> {
  let changed = false;
  const unwatch = watch(() => (changed = true));
  hydrating = true;
  let root!: Root;
  await new Promise<void>((committed) => {
    root = hydrateRoot(container, app(committed));
  });
  await partsHydrated();
  unwatch();
  if (changed) root.render(anew());
  return root;
}
