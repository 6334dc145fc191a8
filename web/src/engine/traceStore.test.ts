import { describe, expect, it } from 'vitest';
import { reducedText } from '../panels/Status';
import type { AppState } from '../state/types';
import { TABLE_NAMES, TABLES, type Reduction, type TraceChunk } from './protocol';
import { TraceStore } from './traceStore';

/** A chunk with `n` series rows (t = 0, 1, …) and no other rows. */
function chunk(n: number, reduced: Reduction | null = null): TraceChunk {
  const out = {} as Record<string, Record<string, Float64Array>>;
  for (const name of TABLE_NAMES) {
    out[name] = Object.fromEntries(
      (TABLES[name] as readonly string[]).map((c) => [
        c,
        name === 'series' ? Float64Array.from({ length: n }, (_, i) => i) : new Float64Array(0),
      ]),
    );
  }
  return { ...(out as unknown as TraceChunk), reduced };
}

describe('TraceStore', () => {
  it('shows the previous comparison until the new one has data, then lets it go', () => {
    const store = new TraceStore();
    store.reset(['a', 'b']);
    store.append('a', chunk(3), 1);
    store.append('b', chunk(2), 1);
    const old = store.get('a');
    store.reset(['a', 'b']);
    expect(store.get('a')).toBe(old);
    store.append('a', chunk(1), 0.5);
    expect(store.get('a')).not.toBe(old);
    expect(store.get('a')?.tables.series.length).toBe(1);
    // Once replaced, the old trace is not shown again, even before the next reset.
    expect(store.get('b')?.tables.series.length).toBe(2);
    store.append('b', chunk(4), 0.5);
    expect(store.get('b')?.tables.series.length).toBe(4);
    expect((store as unknown as { previous: Map<string, unknown> }).previous.size).toBe(0);
  });

  it('appends across growth, row for row', () => {
    const store = new TraceStore();
    store.reset(['a']);
    store.append('a', chunk(3), 1);
    for (let k = 0; k < 5; k += 1) store.append('a', chunk(700), 1);
    const t = store.get('a')?.tables.series.col('t');
    expect(t?.length).toBe(3 + 5 * 700);
    expect(Array.from(t?.subarray(0, 5) ?? [])).toEqual([0, 1, 2, 0, 1]);
    expect(t?.[3 + 5 * 700 - 1]).toBe(699);
  });
});

describe('the reduced-detail note', () => {
  const state = (keys: string[]) => ({ keys }) as unknown as AppState;

  it('says nothing while every row is kept', () => {
    const store = new TraceStore();
    store.reset(['a']);
    store.append('a', chunk(2), 1);
    expect(reducedText(state(['a']), store)).toBeNull();
  });

  it("gives the engine's numbers: the earliest start and the bucket width", () => {
    const store = new TraceStore();
    store.reset(['a', 'b']);
    store.append('a', chunk(2, { at: 5.499576, width: 0.244140625 }), 10);
    store.append('b', chunk(2, { at: 4.2996864, width: 0.244140625 }), 10);
    const text = reducedText(state(['a', 'b']), store);
    expect(text).toBe(
      'Detail reduced from t = 4.3 s: first, last, minimum and maximum per 0.244 s; losses, ' +
        'retransmissions and marks all kept. Zoomed in closer than that, the plots show 0.244 s buckets.',
    );
    // Only the runs shown count.
    expect(reducedText(state(['a']), store)).toContain('from t = 5.5 s');
  });
});
