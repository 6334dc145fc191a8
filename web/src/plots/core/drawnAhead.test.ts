import { describe, expect, it } from 'vitest';
import { TraceStore } from '../../engine/traceStore';
import { DrawnAheadCache, jsonOf, type DrawKey } from './drawnAhead';
import type { World } from './prerender';

/** A stand-in bitmap that records its close(). */
function bitmap(width = 10, height = 5) {
  const b = { width, height, closed: false, close: () => void (b.closed = true) };
  return b as typeof b & ImageBitmap;
}

const world = (): World => ({ patch: {}, traces: new TraceStore() });
const spec = {};
const chunk = {};
const summary = {};
const keyOf = (key = 'k', sources: unknown[] = [chunk, summary], s: object = spec): DrawKey => ({
  key,
  spec: s,
  sources,
});

describe('a plot’s bitmaps drawn ahead', () => {
  it('match only a draw with the same key, spec and the very same chunks and summaries', () => {
    const cache = new DrawnAheadCache();
    const w = world();
    const d = { drawKey: keyOf(), bitmap: bitmap(), extent: [0, 1] as [number, number], description: '' };
    cache.set(w, d);
    expect(cache.match(keyOf())).toBe(d);
    expect(cache.holds(w, keyOf())).toBe(true);
    // Equal but not the same objects: the rows could differ (another run of equal JSON).
    expect(cache.match(keyOf('k', [{}, summary]))).toBeUndefined();
    expect(cache.match(keyOf('k', [chunk, {}]))).toBeUndefined();
    expect(cache.match(keyOf('k', [chunk]))).toBeUndefined();
    expect(cache.match(keyOf('k2'))).toBeUndefined();
    expect(cache.match(keyOf('k', [chunk, summary], {}))).toBeUndefined();
    expect(cache.holds(world(), keyOf())).toBe(false);
  });

  it('closes a bitmap it replaces or lets go of, and counts what it holds', () => {
    const cache = new DrawnAheadCache();
    const [a, b] = [world(), world()];
    const first = bitmap();
    cache.set(a, { drawKey: keyOf(), bitmap: first, extent: [0, 1], description: '' });
    const second = bitmap(20, 5);
    cache.set(a, { drawKey: keyOf('k2'), bitmap: second, extent: [0, 1], description: '' });
    expect(first.closed).toBe(true);
    const third = bitmap();
    cache.set(b, { drawKey: keyOf('k3'), bitmap: third, extent: [0, 1], description: '' });
    expect(cache.count).toBe(2);
    expect(cache.bytes).toBe((20 * 5 + 10 * 5) * 4);
    cache.drop(new Set([b]));
    expect(second.closed).toBe(true);
    expect(third.closed).toBe(false);
    expect(cache.count).toBe(1);
  });

  it('spells a scenario once per object', () => {
    const s = { a: 1 };
    expect(jsonOf(s)).toBe('{"a":1}');
    s.a = 2; // (scenarios are never changed in place; the first spelling stays)
    expect(jsonOf(s)).toBe('{"a":1}');
    expect(jsonOf({ a: 2 })).toBe('{"a":2}');
  });
});
