import { describe, expect, it } from 'vitest';
import { decimateLine, type Polyline } from './decimate';
import { axisAligned, fillBars, fillStepStroke, stepRects } from './stepStroke';

const line = (pts: [number, number][]): Polyline => ({
  xs: Float64Array.from(pts.map((p) => p[0])),
  ys: Float64Array.from(pts.map((p) => p[1])),
  n: pts.length,
});

/** A 2D context that records the calls these helpers make. */
function fakeContext(over: Partial<Record<string, unknown>> = {}) {
  const calls: string[] = [];
  const ctx = {
    lineWidth: 2,
    lineCap: 'butt',
    globalAlpha: 1,
    strokeStyle: '#0072b2',
    fillStyle: '#ffffff',
    dash: [] as number[],
    getLineDash() {
      return this.dash;
    },
    fillRect(x: number, y: number, w: number, h: number) {
      calls.push(`fillRect ${x} ${y} ${w} ${h} ${this.fillStyle}`);
    },
    beginPath() {
      calls.push('beginPath');
    },
    rect(x: number, y: number, w: number, h: number) {
      calls.push(`rect ${x} ${y} ${w} ${h}`);
    },
    fill() {
      calls.push(`fill ${this.fillStyle}`);
    },
    ...over,
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, calls, raw: ctx };
}

/** A counter-based pseudo-random sequence (no Math.random: the test is the same every run). */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('step lines drawn as rectangles', () => {
  it('a decimated step line is axis-aligned however the rows fall in the columns', () => {
    // Before the decimator ended each column at its last value, a column whose last value
    // equalled its first ended at its minimum or maximum and the line left it diagonally.
    for (let seed = 1; seed <= 40; seed += 1) {
      const r = lcg(seed);
      const n = 2000;
      const t = new Float64Array(n);
      const v = new Float64Array(n);
      let now = 0;
      for (let i = 0; i < n; i += 1) {
        now += r() * 0.02;
        t[i] = now;
        // Few distinct values, so first = last with a different extreme is common.
        v[i] = Math.floor(r() * 4) * 10 + (r() < 0.01 ? NaN : 0);
      }
      const x = { d0: 0, span: now, r0: 0, r1: 300 };
      const y = { d0: 0, span: 40, r0: 200, r1: 0 };
      const p = decimateLine(t, v, 0, n, x, y, { step: true, dpr: 1, width: 300, endT: now });
      expect(p.n).toBeGreaterThan(10);
      expect(axisAligned(p)).toBe(true);
    }
  });

  it('rectangles: square corners, butt ends, one per line, flush at reversals, pen lifted at NaN', () => {
    const p = line([
      [0, 0],
      [10, 0],
      [10, 5],
      [20, 5],
      [20, NaN],
      [30, 8],
      [30, 8],
      [30, 2],
      [30, 2],
      // A pixel column's first → min → max → last on one line, then a step to the right.
      [40, 2],
      [40, 9],
      [40, 1],
      [40, 4],
      [50, 4],
    ]);
    expect(axisAligned(p)).toBe(true);
    const rects: number[] = [];
    stepRects(p, 1, (...r) => rects.push(...r));
    expect(rects).toEqual([
      // (0,0)→(10,0): flush at the run's start, 1 past the corner.
      0, -1, 11, 2,
      // (10,0)→(10,5): 1 past both corners.
      9, -1, 2, 7,
      // (10,5)→(20,5): 1 before the corner, flush at the run's end.
      9, 4, 11, 2,
      // The second run: (30,8)→(30,2), flush at its start (the repeated vertices are
      // zero-length segments), 1 past the corner at (30,2).
      29, 1, 2, 7,
      // (30,2)→(40,2): corners at both ends.
      29, 1, 12, 2,
      // x = 40: 2 → 9 → 1 → 4, one rectangle from 1 to 9; 9 and 1 are reversals (flush);
      // the corners at 2 and 4 are inside it.
      39, 1, 2, 8,
      // (40,4)→(50,4): 1 before the corner, flush at the end.
      39, 3, 11, 2,
    ]);
    expect(
      axisAligned(
        line([
          [0, 0],
          [1, 1],
        ]),
      ),
    ).toBe(false);
  });

  it('fills the rectangles as one path in the stroke colour and puts the fill back', () => {
    const { ctx, calls, raw } = fakeContext();
    const p = line([
      [0, 0],
      [10, 0],
      [10, 5],
    ]);
    expect(fillStepStroke(ctx, p, true)).toBe(true);
    expect(calls).toEqual(['beginPath', 'rect 0 -1 11 2', 'rect 9 -1 2 6', 'fill #0072b2']);
    expect(raw.fillStyle).toBe('#ffffff');
  });

  it('leaves dashed, capped, diagonal lines and vector targets to the stroke', () => {
    const p = line([
      [0, 0],
      [10, 0],
    ]);
    const cases: [Partial<Record<string, unknown>>, Polyline, boolean][] = [
      [{ dash: [4, 2] }, p, true],
      [{ lineCap: 'round' }, p, true],
      [
        {},
        line([
          [0, 0],
          [3, 4],
        ]),
        true,
      ],
      [{}, p, false],
    ];
    for (const [over, poly, raster] of cases) {
      const { ctx, calls } = fakeContext(over);
      expect(fillStepStroke(ctx, poly, raster)).toBe(false);
      expect(calls).toEqual([]);
    }
  });

  it('on a canvas that scales and translates, the rectangles lie on whole device pixels, evenly thick', () => {
    const transform = { a: 2, b: 0, c: 0, d: 2, e: 10.3, f: 5 };
    const over = {
      getTransform: () => ({ ...transform }),
      setTransform(a: number, b: number, c: number, d: number, e: number, f: number) {
        transform.a = a;
        transform.b = b;
        transform.c = c;
        transform.d = d;
        transform.e = e;
        transform.f = f;
      },
    };
    const { ctx, calls, raw } = fakeContext(over);
    const p = line([
      [0, 0],
      [10, 0],
      [10, 5],
    ]);
    expect(fillStepStroke(ctx, p, true)).toBe(true);
    // 2 CSS px at scale 2: 4 device pixels; the corner's pieces meet.
    expect(calls).toEqual(['beginPath', 'rect 10 3 22 4', 'rect 28 3 4 12', 'fill #0072b2']);
    expect(transform).toEqual({ a: 2, b: 0, c: 0, d: 2, e: 10.3, f: 5 });
    expect(raw.fillStyle).toBe('#ffffff');
    // Random step lines at fractional positions, widths and scales: every edge on a pixel,
    // every piece as thick as the line in device pixels, rounded.
    const rnd = lcg(7);
    for (let trial = 0; trial < 40; trial += 1) {
      const scale = [1, 1.25, 1.5, 2, 3][trial % 5] ?? 1;
      Object.assign(transform, { a: scale, b: 0, c: 0, d: scale, e: rnd() * 40, f: rnd() * 40 });
      const width = [1, 1.5, 2, 2.5][trial % 4] ?? 2;
      const pts: [number, number][] = [];
      let x = rnd() * 10;
      let y = rnd() * 100;
      for (let k = 0; k < 30; k += 1) {
        pts.push([x, y]);
        if (rnd() < 0.5) x += 0.3 + rnd() * 20;
        else y += (rnd() - 0.5) * 40;
      }
      const got = fakeContext({ ...over, lineWidth: width });
      expect(fillStepStroke(got.ctx, line(pts), true)).toBe(true);
      const thick = Math.max(1, Math.round(width * scale));
      const rects = got.calls.filter((c) => c.startsWith('rect ')).map((c) => c.split(' ').slice(1).map(Number));
      expect(rects.length).toBeGreaterThan(0);
      for (const r of rects) {
        expect(r.every(Number.isInteger)).toBe(true);
        expect(Math.min(r[2] ?? 0, r[3] ?? 0)).toBeLessThanOrEqual(thick);
        expect(r[2] === thick || r[3] === thick).toBe(true);
      }
    }
  });

  it('bars: one path of rectangles, filled once in the stroke colour', () => {
    const { ctx, calls, raw } = fakeContext({ lineWidth: 1.5 });
    expect(fillBars(ctx, [5, 6], [10, 30], [20, 25], 2, true)).toBe(true);
    expect(calls).toEqual(['beginPath', 'rect 4.25 10 1.5 10', 'rect 5.25 25 1.5 5', 'fill #0072b2']);
    expect(raw.fillStyle).toBe('#ffffff');
    const dashed = fakeContext({ dash: [2, 2] });
    expect(fillBars(dashed.ctx, [5], [10], [20], 1, true)).toBe(false);
    expect(fillBars(fakeContext().ctx, [5], [10], [20], 1, false)).toBe(false);
  });
});
