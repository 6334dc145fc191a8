// Test helpers for plot modules: a 2D context that records what is drawn, and the plot
// context every plot module reads.
import type { PlotContext } from '../plots/core/types';
import type { Scenario } from '../engine/tables';

/** A 2D context that records strokes (colour, dash), filled shapes and text. */
export function recordingCtx() {
  const strokes: { color: string; dash: number[] }[] = [];
  const fills: string[] = [];
  const texts: string[] = [];
  let dash: number[] = [];
  const ctx = {
    strokeStyle: '',
    fillStyle: '',
    lineWidth: 1,
    font: '',
    textAlign: '',
    textBaseline: '',
    setLineDash: (d: number[]) => (dash = d),
    stroke: () => strokes.push({ color: String(ctx.strokeStyle), dash }),
    fill: () => fills.push(String(ctx.fillStyle)),
    fillText: (t: string) => texts.push(t),
    measureText: (t: string) => ({ width: 6 * t.length }),
    beginPath() {},
    closePath() {},
    moveTo() {},
    lineTo() {},
    arc() {},
    fillRect() {},
    save() {},
    restore() {},
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, strokes, fills, texts };
}

/** The plot context with every window line on, multiples layout, automatic throughput bins. */
export function plotContext(scenario: Scenario, over: Partial<PlotContext> = {}): PlotContext {
  return {
    scenario,
    series: { cwnd: true, ssthresh: true, flight: true, inflated: true, w_used: true, pipeack: true },
    overlay: false,
    pxTime: 0.01,
    throughputBin: null,
    throughputColumn: 'delivered',
    ...over,
  };
}

/** Reads a drawn CDF polyline (y in percent, 100 at the bottom) at x = `px`: the share at
 *  the last vertex at or left of it (NaN left of the line). */
export function cdfLevelAt(line: { n: number; xs: ArrayLike<number>; ys: ArrayLike<number> }, px: number): number {
  let level = NaN;
  for (let i = 0; i < line.n && (line.xs[i] ?? 0) <= px; i += 1) level = 1 - (line.ys[i] ?? 0) / 100;
  return level;
}
