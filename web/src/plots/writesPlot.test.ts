// The write timeline with the engine's own write table: every write in the window is drawn
// (alone, or with writes on the same pixels), thousands of writes become at most a few per
// pixel, and the readout and screen-reader text are the table's.
import { scaleLinear } from 'd3';
import { describe, expect, it } from 'vitest';
import { algStyle } from '../lib/styles';
import { formatNumber } from '../scenario/params';
import { plotContext } from '../test/canvas';
import { liveTrace, lossyThinScenario, thinScenario } from '../test/traces';
import { linearOf, mapLinear } from './core/decimate';
import type { DrawFrame, PlotContext, PlotRun } from './core/types';
import { nearestRank, thinSamples } from './thinSamples';
import { maxLatency, writeMarks, writesPlot, type Spans } from './writesPlot';

const scenario = lossyThinScenario('newreno', 20);
const live = liveTrace(scenario, 0.7);
const run: PlotRun = {
  key: 'newreno',
  label: 'NewReno',
  style: algStyle('newreno'),
  trace: live.trace,
  summary: live.summary,
};
const w = run.trace.tables.writes;
const context: PlotContext = plotContext(scenario);

function scales(t0: number, t1: number, yMax: number, width = 600) {
  const x = scaleLinear().domain([t0, t1]).range([0, width]);
  const y = scaleLinear().domain([0, yMax]).range([200, 0]);
  return { x, y, xl: linearOf(x), yl: linearOf(y) };
}

describe('the write timeline', () => {
  it('has the engine’s rows: one per delivered write, in the order written', () => {
    expect(w.length).toBeGreaterThan(1500);
    expect(w.length).toBeLessThanOrEqual(live.summary.flows[0]?.writes ?? 0);
    for (let i = 1; i < w.length; i += 1) expect(w.cols.t[i] ?? 0).toBeGreaterThanOrEqual(w.cols.t[i - 1] ?? 0);
    for (let i = 0; i < w.length; i += 1) {
      expect(w.cols.bytes[i]).toBe(20);
      expect(w.cols.latency[i] ?? 0).toBeGreaterThanOrEqual(w.cols.sojourn[i] ?? 0);
    }
    expect(maxLatency(run.trace)).toBe(Math.max(...w.col('latency')));
  });

  it('draws every write in a window (begun before it too), as the union of the writes on each pixel row', () => {
    for (const [t0, t1, width, dpr] of [
      [3, 4, 4000, 1],
      [0, 20, 300, 1],
      [0, 20, 300, 2],
      [7.5, 9, 900, 2],
    ] as const) {
      const { xl, yl } = scales(t0, t1, 1500, width);
      const m = writeMarks(run.trace, t0, t1, xl, yl, dpr);
      const rowOf = (yPx: number) => Math.round(yPx * dpr);
      const rows = { lines: new Map<number, [number, number][]>(), bars: new Map<number, [number, number][]>() };
      const add = (map: Map<number, [number, number][]>, row: number, a: number, b: number) =>
        map.set(row, [...(map.get(row) ?? []), [a, b]]);
      const ticks = new Set<string>();
      let writes = 0;
      let before = 0;
      for (let i = 0; i < w.length; i += 1) {
        const t = w.cols.t[i] ?? 0;
        const l = w.cols.latency[i] ?? 0;
        if (t > t1 || t + l < t0) continue;
        writes += 1;
        if (t < t0) before += 1;
        const x0 = mapLinear(xl, t);
        const x1 = mapLinear(xl, t + (w.cols.sojourn[i] ?? 0));
        const row = rowOf(mapLinear(yl, l * 1e3));
        add(rows.lines, row, x1, mapLinear(xl, t + l));
        if (x1 - x0 >= 1 / dpr) add(rows.bars, row, x0, x1);
        else ticks.add(`${Math.floor(x0 * dpr)}|${row}`);
      }
      expect(m.writes).toBe(writes);
      if (t0 > 0) expect(before).toBeGreaterThan(0);
      // The union of intervals on each row, closing gaps under a device pixel (a slow sort).
      const union = (map: Map<number, [number, number][]>) =>
        new Map(
          [...map].map(([row, list]) => {
            const out: [number, number][] = [];
            for (const [a, b] of [...list].sort((p, q) => p[0] - q[0])) {
              const last = out[out.length - 1];
              if (last && a <= last[1] + 1 / dpr) last[1] = Math.max(last[1], b);
              else out.push([a, b]);
            }
            return [row, out] as const;
          }),
        );
      const drawn = (s: Spans) => {
        const map = new Map<number, [number, number][]>();
        for (let k = 0; k < s.n; k += 1) add(map, rowOf(s.y[k] ?? 0), s.a[k] ?? 0, s.b[k] ?? 0);
        return map;
      };
      expect(union(drawn(m.lines))).toEqual(union(rows.lines));
      expect(union(drawn(m.bars))).toEqual(union(rows.bars));
      const drawnTicks = new Set(
        Array.from(
          { length: m.ticks.n },
          (_, k) => `${Math.floor((m.ticks.a[k] ?? 0) * dpr)}|${rowOf(m.ticks.y[k] ?? 0)}`,
        ),
      );
      expect(drawnTicks).toEqual(ticks);
      expect(m.ticks.n).toBe(ticks.size);
    }
  });

  it('keeps thousands of writes to a few spans per pixel row', () => {
    // (Drawing cost follows the pixels covered, not the writes.)
    const { xl, yl } = scales(0, 20, 1500, 300);
    const m = writeMarks(run.trace, 0, 20, xl, yl, 1);
    expect(m.writes).toBe(w.length);
    // Latencies of every size here (few writes share a row), yet overlapping lines merge.
    expect(m.lines.n).toBeLessThan(w.length / 2);
    // A steady stream (no loss, every write alike) is a level line or two.
    const steady = liveTrace(thinScenario('newreno', { duration: 30, interval: 0.002 }), 5).trace;
    const s = scales(0, 30, 100, 300);
    const sm = writeMarks(steady, 0, 30, s.xl, s.yl, 1);
    expect(sm.writes).toBeGreaterThan(14000);
    expect(sm.lines.n).toBeLessThan(40);
    expect(sm.bars.n + sm.ticks.n).toBeLessThan(2 * 301);
  });

  it('fits the y range to the writes in view, reads the write at the cursor, and says what it shows', () => {
    const [, hi] = writesPlot.yExtent([run], 0, 20, context);
    expect(hi).toBe(maxLatency(run.trace) * 1e3);
    const [, low] = writesPlot.yExtent([run], 1, 1.2, context);
    expect(low).toBeLessThan(hi);
    const i = 250;
    const t = w.cols.t[i] ?? 0;
    const [line] = writesPlot.readout([run], t + 0.001, context);
    expect(line?.text).toBe(
      `write ${i + 1} at ${formatNumber(t, 6)} s, 20 B: sojourn ${formatNumber((w.cols.sojourn[i] ?? 0) * 1e3, 4)} ms, ` +
        `latency ${formatNumber((w.cols.latency[i] ?? 0) * 1e3, 4)} ms`,
    );
    // ] and [ step to where runs of the slowest writes (top 1 %) begin.
    const slow = nearestRank(thinSamples(run.trace, null).latency, 99);
    const times = writesPlot.eventTimes?.([run]) ?? [];
    expect(times.length).toBeGreaterThan(0);
    for (const at of times) {
      const k = w.col('t').indexOf(at);
      expect(w.cols.latency[k] ?? 0).toBeGreaterThanOrEqual(slow);
      expect(k === 0 || (w.cols.latency[k - 1] ?? 0) < slow).toBe(true);
    }
    const text = writesPlot.describe([run], context);
    const median = nearestRank(thinSamples(run.trace, null).latency, 50);
    expect(text).toContain(`NewReno: ${w.length} writes delivered, latency median ${formatNumber(median * 1e3, 6)} ms`);
  });

  it('draws the delivery lines, the sojourn bars and the start ticks in the run’s colour', () => {
    const ops: string[] = [];
    const ctx = {
      strokeStyle: '',
      fillStyle: '',
      lineWidth: 1,
      globalAlpha: 1,
      lineCap: '',
      save() {},
      restore() {},
      beginPath() {},
      moveTo() {},
      lineTo() {},
      rect() {},
      setLineDash() {},
      stroke: () => ops.push(`stroke ${String(ctx.strokeStyle)} ${ctx.lineWidth} ${ctx.globalAlpha}`),
      fill: () => ops.push(`fill ${String(ctx.fillStyle)} ${ctx.globalAlpha}`),
    };
    const { x, y, xl, yl } = scales(0, 20, 1500);
    const f: DrawFrame = {
      ctx: ctx as unknown as CanvasRenderingContext2D,
      x,
      y,
      xl,
      yl,
      width: 600,
      height: 200,
      dpr: 1,
      t0: 0,
      t1: 20,
      runs: [run],
      context,
    };
    writesPlot.draw(f);
    const color = algStyle('newreno').color;
    expect(ops).toEqual([
      `stroke ${color} 1.5 1`,
      `fill ${color} 0.3`,
      `stroke ${color} 1 0.9`,
      `stroke ${color} 1 0.7`,
    ]);
  });
});
