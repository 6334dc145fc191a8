import { scaleLinear } from 'd3';
import { describe, expect, it } from 'vitest';
import { decimateLine, decimateSpans, LineDecimator, linearOf, mapLinear, SpanDecimator, thinMarks } from './decimate';

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

  it('maps values exactly as the d3 scale does (same pixels)', () => {
    const scales = [
      scaleLinear().domain([0, 20]).range([0, 437]),
      scaleLinear().domain([3.25, 7.125]).range([0, 1234.5]),
      scaleLinear().domain([0, 187.3]).range([276, 0]).nice(7),
      scaleLinear().domain([5, 1]).range([0, 100]),
    ];
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 250 - 20;
    for (const sc of scales) {
      const l = linearOf(sc);
      for (let i = 0; i < 2000; i += 1) {
        const v = rnd();
        expect(mapLinear(l, v)).toBe(sc(v));
      }
    }
  });

  it('gives the same vertices whether rows come at once or in pieces, with a scale or its Linear', () => {
    const n = 5000;
    let seed = 3;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const t = Float64Array.from({ length: n }, (_, i) => i * 0.004 + rnd() * 0.001);
    const v = Float64Array.from({ length: n }, (_, i) => (i > 100 && i < 140 ? Infinity : Math.round(rnd() * 50)));
    const x = scaleLinear().domain([0, 20]).range([0, 300]);
    const y = scaleLinear().domain([0, 60]).range([200, 0]);
    const opts = { step: true, dpr: 2, width: 300, endT: 19.5 };
    const whole = decimateLine(
      t,
      v,
      0,
      n,
      (s) => x(s),
      (s) => y(s),
      opts,
    );
    const d = new LineDecimator(true, 2, 300, 0);
    for (const to of [1, 2, 99, 101, 120, 150, 151, 2000, 4999, n]) {
      d.add(t, v, to, linearOf(x));
      // Looking at the result in between does not change what follows.
      d.polyline(linearOf(y), linearOf(x), 19.5);
    }
    const pieces = d.polyline(linearOf(y), linearOf(x), 19.5);
    expect(vertices(pieces)).toEqual(vertices(whole));
  });

  it('knows the largest value added, whichever rows came so far', () => {
    let seed = 11;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const n = 4000;
    const t = Float64Array.from({ length: n }, (_, i) => i * 0.005);
    // Steps that often repeat a value, a lone spike, and a few non-finite rows (pen up).
    const v = Float64Array.from({ length: n }, (_, i) =>
      i === 2500 ? 999 : i % 700 === 5 ? NaN : Math.floor(i / 40) % 7 === 0 ? 3 : Math.round(rnd() * 80),
    );
    const x = linearOf(scaleLinear().domain([0, 20]).range([0, 250]));
    const d = new LineDecimator(true, 1, 250, 0);
    expect(d.max()).toBe(-Infinity);
    for (const to of [1, 37, 600, 2500, 2501, 3999, n]) {
      d.add(t, v, to, x);
      const rows = Array.from(v.subarray(0, to)).filter((a) => !Number.isNaN(a));
      expect(d.max(), `after ${to} rows`).toBe(Math.max(...rows));
    }
  });

  it('merges bars in value space into the same pixels as in pixel space', () => {
    const n = 3000;
    let seed = 11;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const t = Float64Array.from({ length: n }, (_, i) => i * 0.007);
    const lo = Float64Array.from({ length: n }, (_, i) => i * 1460 - (rnd() < 0.05 ? 40000 : 0));
    const len = Float64Array.from({ length: n }, () => 1460);
    const x = scaleLinear().domain([0, 21]).range([0, 411]);
    const y = scaleLinear().domain([0, 3000]).range([276, 0]).nice(6);
    const mss = 1460;
    // The previous implementation: every bar mapped to pixels, then merged per column.
    const ref: [number, number, number][] = [];
    let col = NaN;
    for (let i = 0; i < n; i += 1) {
      const px = x(t[i] ?? 0);
      const c = Math.floor(px * 1);
      const ya = y((lo[i] ?? 0) / mss);
      const yb = y(((lo[i] ?? 0) + (len[i] ?? 0)) / mss);
      const last = ref[ref.length - 1];
      if (last && c === col) {
        last[1] = Math.min(last[1], ya, yb);
        last[2] = Math.max(last[2], ya, yb);
      } else {
        col = c;
        ref.push([(c + 0.5) / 1, Math.min(ya, yb), Math.max(ya, yb)]);
      }
    }
    const d = new SpanDecimator(1, 0);
    d.add(t, lo, len, 1000, linearOf(x));
    d.add(t, lo, len, n, linearOf(x));
    const s = d.spans((v) => mapLinear(linearOf(y), v / mss));
    expect(Array.from({ length: s.n }, (_, k) => [s.xs[k], s.y0[k], s.y1[k]])).toEqual(ref);
  });
});
