// @vitest-environment jsdom
// The first view's hydration in parts: each part keeps its server-rendered element and is
// hydrated in a task of its own, in page order; a change of state while a part waits has
// the tree rendered anew; outside a hydration a part renders at once.
import { act } from 'preact/test-utils';
import { useState, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { HydratedLater, hydrateInParts } from './HydratedLater';

/** A tiny store: one value, its listeners. */
function makeStore(value: string) {
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(v: string) {
      value = v;
      for (const l of listeners) l();
    },
    subscribe(l: () => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}
type Store = ReturnType<typeof makeStore>;

function Counter({ id }: { id: string }) {
  const [n, setN] = useState(0);
  return (
    <button type="button" id={id} onClick={() => setN(n + 1)}>
      {id} {n}
    </button>
  );
}

/** A paragraph whose attribute and text both follow the store. */
function Shown({ store }: { store: Store }) {
  const v = useSyncExternalStore(store.subscribe, store.get, store.get);
  return (
    <p id="shown" data-v={v}>
      {v}
    </p>
  );
}

function Page({ store }: { store: Store }) {
  return (
    <div>
      <Counter id="first" />
      <HydratedLater>
        <header>
          <Counter id="second" />
          <button type="button" id="set" onClick={() => store.set('b')}>
            set
          </button>
        </header>
      </HydratedLater>
      <HydratedLater>
        <aside>
          <Counter id="third" />
          <Shown store={store} />
        </aside>
      </HydratedLater>
    </div>
  );
}

const nextTask = async () => {
  await new Promise((resolve) => setTimeout(resolve, 0));
};
const click = (id: string) => act(() => document.getElementById(id)?.click());
const text = (id: string) => document.getElementById(id)?.textContent;

/** The page rendered by the server into a container, and its hydration started. */
function hydrating(store: Store) {
  const container = document.createElement('div');
  container.innerHTML = renderToString(<Page store={store} />);
  document.body.append(container);
  const before = [...container.querySelectorAll('*')];
  let rendered = false;
  let anew = false;
  void hydrateInParts(
    container,
    (committed) => {
      queueMicrotask(committed);
      return <Page store={store} />;
    },
    (changed) => store.subscribe(changed),
    () => {
      anew = true;
      return <Page key="anew" store={store} />;
    },
  ).then(() => (rendered = true));
  return { container, before, done: () => rendered, anew: () => anew };
}

describe('hydrating in parts', () => {
  it('keeps every server-rendered element and hydrates each part in a later task, in order', async () => {
    const page = hydrating(makeStore('a'));
    expect(page.before.map((e) => e.tagName)).toEqual([
      'DIV',
      'BUTTON',
      'HEADER',
      'BUTTON',
      'BUTTON',
      'ASIDE',
      'BUTTON',
      'P',
    ]);
    await act(async () => {});
    // The rest of the page is live; the parts are on screen but not hydrated yet.
    await click('first');
    expect(text('first')).toBe('first 1');
    await click('second');
    expect(text('second')).toBe('second 0');

    await act(nextTask);
    await click('second');
    expect(text('second')).toBe('second 1');
    await click('third');
    expect(text('third')).toBe('third 0');
    expect(page.done()).toBe(false);

    await act(nextTask);
    await click('third');
    expect(text('third')).toBe('third 1');
    await act(nextTask);
    expect(page.done()).toBe(true);
    expect(page.anew()).toBe(false);
    // Not one element was replaced.
    expect([...page.container.querySelectorAll('*')]).toEqual(page.before);
    page.container.remove();
  });

  it('renders the tree anew when the state changed while a part waited', async () => {
    const store = makeStore('a');
    const page = hydrating(store);
    await act(async () => {});
    await act(nextTask);
    // The header is hydrated, the aside is not: a click there changes the state.
    await click('set');
    await act(nextTask);
    await act(nextTask);
    expect(page.done()).toBe(true);
    expect(page.anew()).toBe(true);
    // Hydrated alone, the paragraph would say "b" with data-v="a" (Preact does not compare
    // attributes while hydrating).
    const shown = document.getElementById('shown');
    expect(shown?.textContent).toBe('b');
    expect(shown?.getAttribute('data-v')).toBe('b');
    page.container.remove();
  });

  it('renders a part at once outside a hydration', () => {
    const container = document.createElement('div');
    document.body.append(container);
    act(() => createRoot(container).render(<Page store={makeStore('a')} />));
    expect(text('second')).toBe('second 0');
    expect(text('third')).toBe('third 0');
    container.remove();
  });
});
