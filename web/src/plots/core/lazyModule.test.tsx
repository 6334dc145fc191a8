// @vitest-environment jsdom
// A plot kind loaded when first shown: loaded once, a failure said and retried on the next
// load, and the page held busy (pendingDraws) from the first render until the commit that
// shows the loaded part, so a test or a screenshot never takes the stand-in for the plot.
import { act, cleanup, render, screen } from '../../test/render';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lazyModule, loadedModule, useLazyModule, type LazyModule } from './lazyModule';
import { pendingDraws } from './scheduler';

/** A loader whose promise the test settles. */
function deferredLoader<T>() {
  const calls: { resolve: (v: T) => void; reject: (e: unknown) => void }[] = [];
  const load = vi.fn(
    () =>
      new Promise<T>((resolve, reject) => {
        calls.push({ resolve, reject });
      }),
  );
  return { load, calls };
}

function Shown({ m }: { m: LazyModule<string> }) {
  const { value, error } = useLazyModule(m);
  return <p>{value ?? (error ? `failed: ${error}` : 'loading')}</p>;
}

beforeEach(() => {
  vi.stubGlobal('requestAnimationFrame', () => 1);
  vi.stubGlobal('cancelAnimationFrame', () => {});
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('lazyModule', () => {
  it('loads once however often it is asked, and tells its subscribers', async () => {
    const { load, calls } = deferredLoader<string>();
    const m = lazyModule(load);
    const seen: (string | null)[] = [];
    m.subscribe(() => seen.push(m.state().value));
    const first = m.load();
    const second = m.load();
    expect(load).toHaveBeenCalledTimes(1);
    const before = m.state();
    expect(before).toEqual({ value: null, error: null });
    calls[0]?.resolve('plot');
    await Promise.all([first, second]);
    expect(m.state()).toEqual({ value: 'plot', error: null });
    expect(m.state()).not.toBe(before);
    expect(seen).toEqual(['plot']);
    await m.load();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a failed load is said, and the next load tries again', async () => {
    const { load, calls } = deferredLoader<string>();
    const m = lazyModule(load);
    const p = m.load();
    calls[0]?.reject(new Error('Failed to fetch dynamically imported module'));
    await p;
    expect(m.state()).toEqual({ value: null, error: 'Failed to fetch dynamically imported module' });
    const again = m.load();
    expect(load).toHaveBeenCalledTimes(2);
    calls[1]?.resolve('plot');
    await again;
    expect(m.state()).toEqual({ value: 'plot', error: null });
  });

  it('a module of the page itself is there at once and never holds the page', () => {
    const base = pendingDraws();
    render(<Shown m={loadedModule('window plot')} />);
    expect(screen.getByText('window plot')).toBeTruthy();
    expect(pendingDraws()).toBe(base);
  });

  it('holds the page busy from the first render until the loaded part is committed', async () => {
    const { load, calls } = deferredLoader<string>();
    const m = lazyModule(load);
    const base = pendingDraws();
    render(<Shown m={m} />);
    expect(screen.getByText('loading')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
    expect(pendingDraws()).toBeGreaterThan(base);
    await act(async () => {
      calls[0]?.resolve('bbr plot');
      await Promise.resolve();
    });
    expect(screen.getByText('bbr plot')).toBeTruthy();
    // The hold is gone; what remains is at most the frame the release asked for.
    expect(pendingDraws()).toBeLessThanOrEqual(base + 1);
  });

  it('a part that cannot load says so and no longer holds the page', async () => {
    const { load, calls } = deferredLoader<string>();
    const m = lazyModule(load);
    const base = pendingDraws();
    render(<Shown m={m} />);
    await act(async () => {
      calls[0]?.reject(new Error('offline'));
      await Promise.resolve();
    });
    expect(screen.getByText('failed: offline')).toBeTruthy();
    expect(pendingDraws()).toBeLessThanOrEqual(base + 1);
  });
});
