import { describe, expect, it } from 'vitest';
import { decimateLine, decimateSpans, thinMarks } from './decimate';

const id = (v: number) => v;

function vertices(p: { xs: Float64Array; ys: Float64Array; n: number }): [number, number][] {
  return Array.from({ length: p.n }, (_, i) => [p.xs[i] ?? NaN, p.ys[i] ?? NaN]);
}

describe('min/max decimation', () => {
  it('passes sparse step data through as steps', () => {
    const t = [0, 10, 20];
    const v = [1, 5, 2];
    const p = decimateLine(t, v, 0, 3, id, id, { step: true, dpr: 1, width: 100, endT: 30 });
    expect(vertices(p)).toEqual([
      [0.5, 1],
      [10.5, 1],
      [10.5, 5],
      [20.5, 5],
      [20.5, 2],
      [30, 2],
    ]);
  });

  it('draws an unchanged step value as one horizontal line', () => {
    const t = [0, 10, 20, 30, 40];
    const v = [3, 3, 3, 7, 7];
    const p = decimateLine(t, v, 0, 5, id, id, { step: true, dpr: 1, width: 100 });
    expect(vertices(p)).toEqual([
      [0.5, 3],
      [30.5, 3],
      [30.5, 7],
      [40.5, 7],
    ]);
  });

  it('keeps the first, minimum, maximum and last value of every pixel column', () => {
    // 20 000 rows over 200 px: 100 rows per column, with spikes that sampling would miss.
    const n = 20_000;
    const t = Float64Array.from({ length: n }, (_, i) => i / 100);
    const v = Float64Array.from({ length: n }, (_, i) =>
      i % 997 === 0 ? 1000 : i % 991 === 0 ? -1000 : Math.sin(i / 50),
    );
    const p = decimateLine(t, v, 0, n, id, id, { step: false, dpr: 1, width: 200 });
    expect(p.n).toBeLessThanOrEqual(4 * 200 + 8);
    const byCol = new Map<number, number[]>();
    vertices(p).forEach(([x, y]) => byCol.set(Math.floor(x), [...(byCol.get(Math.floor(x)) ?? []), y]));
    for (let c = 0; c < 200; c += 1) {
      const rows = Array.from(v.subarray(c * 100, c * 100 + 100));
      const got = byCol.get(c) ?? [];
      expect(got[0]).toBe(rows[0]);
      expect(got[got.length - 1]).toBe(rows[rows.length - 1]);
      expect(Math.min(...got)).toBe(Math.min(...rows));
      expect(Math.max(...got)).toBe(Math.max(...rows));
    }
  });

  it('uses device pixels: twice the columns at a pixel ratio of 2', () => {
    const n = 10_000;
    const t = Float64Array.from({ length: n }, (_, i) => i / 100);
    const v = Float64Array.from({ length: n }, (_, i) => i % 2);
    const one = decimateLine(t, v, 0, n, id, id, { step: false, dpr: 1, width: 100 });
    const two = decimateLine(t, v, 0, n, id, id, { step: false, dpr: 2, width: 100 });
    expect(new Set(vertices(one).map(([x]) => x)).size).toBe(100);
    expect(new Set(vertices(two).map(([x]) => x)).size).toBe(200);
  });

  it('lifts the pen over values that are not finite (ssthresh = ∞)', () => {
    const t = [0, 1, 2, 3];
    const v = [Infinity, Infinity, 4, 2];
    const p = decimateLine(t, v, 0, 4, (x) => x * 10, id, { step: true, dpr: 1, width: 100 });
    expect(vertices(p)).toEqual([
      [20.5, 4],
      [30.5, 4],
      [30.5, 2],
    ]);
    const q = decimateLine([0, 1, 2], [3, Infinity, 5], 0, 3, (x) => x * 10, id, { step: true, dpr: 1, width: 100 });
    expect(vertices(q).some(([, y]) => Number.isNaN(y))).toBe(true);
  });

  it('merges segment bars per column into one covering bar', () => {
    const s = decimateSpans([0, 0.2, 0.4, 5], [10, 12, 11, 20], [1, 1, 1, 1], 0, 4, id, id, 1);
    expect(s.n).toBe(2);
    expect([s.y0[0], s.y1[0]]).toEqual([10, 13]);
    expect([s.y0[1], s.y1[1]]).toEqual([20, 21]);
  });

  it('draws one mark per cell but keeps marks that are apart', () => {
    const m = thinMarks([0, 1, 2, 50], [0, 1, 30, 0], 0, 4, id, id, 8);
    expect(Array.from(m.rows.subarray(0, m.n))).toEqual([0, 2, 3]);
  });
});
