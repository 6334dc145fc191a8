// BBR's model over time, in Mbit/s: per BBR run its bottleneck-bandwidth estimate BtlBw (the
// highest delivery rate of the last 10 round trips; solid) and the rate it paces at (gain ×
// BtlBw; dashed), as step lines in the run's colour, against the bottleneck's rate (a grey
// reference line). Startup paces at 2.89 × BtlBw while BtlBw climbs, Drain below it, ProbeBW
// cycles 1.25, 0.75, 1, … around it. BtlBw counts payload, so it levels off just below the
// link's rate (at the payload share of a full-sized packet). Runs that are not BBR have no
// model: the readout and the text say so.
import { visibleRange } from '../engine/lookup';
import { BBR_LINES } from '../lib/styles';
import { formatNumber } from '../scenario/params';
import { getAt, mssOf } from '../scenario/paths';
import { runIsBbr } from '../scenario/bbr';
import { bbrMaxIn, bbrModelText, bbrRowAt, bbrSeries, BBR_STATES, mbitText, rtPropText } from './bbrModel';
import { cachedLine } from './core/lineCache';
import { mapLinear } from './core/decimate';
import type { DrawFrame, PlotContext, PlotDef, PlotRun } from './core/types';
import { drawEndLabels, referenceRule, strokePolyline } from './layers';
import { BOTTLENECK_DASH, canvasFont, lw } from './core/plotStyle';
import { shownOf } from './core/shown';

/** The bottleneck's rate at t = 0, bit/s (0 when unknown). */
export function bottleneckBps(context: PlotContext): number {
  const b = getAt(context.scenario, 'network.bottleneck.bandwidth');
  return typeof b === 'number' && b > 0 ? b : 0;
}

/** The highest payload rate the bottleneck carries: its rate × MSS / (MSS + header), flow 0's
 *  full-sized packets, bit/s. What BtlBw, a payload rate, tends to. */
export function payloadCeilingBps(context: PlotContext): number {
  const mss = mssOf(context.scenario);
  const header = getAt(context.scenario, 'flows[0].tcp.header');
  const h = typeof header === 'number' && header >= 0 ? header : 0;
  return (bottleneckBps(context) * mss) / (mss + h);
}

/** True when the run is BBR: its flow's controller says so, or it logged BBR's model. */
export function isBbrRun(run: PlotRun, context: PlotContext): boolean {
  return run.trace.tables.model.length > 0 || runIsBbr(context.scenario, run.key);
}

/** "NewReno and CUBIC": run labels as a list. */
function listText(labels: string[]): string {
  if (labels.length <= 1) return labels.join('');
  return `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1] ?? ''}`;
}

/** A line of text in the middle of the plot (no BBR run to draw). */
function drawNote(f: DrawFrame, text: string) {
  const { ctx } = f;
  ctx.save();
  ctx.font = canvasFont(12);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const w = Math.min(f.width - 8, ctx.measureText(text).width + 12);
  ctx.fillStyle = 'rgba(255,255,255,0.85)';
  ctx.fillRect(f.width / 2 - w / 2, f.height / 2 - 10, w, 20);
  ctx.fillStyle = '#444444';
  ctx.fillText(text, f.width / 2, f.height / 2, f.width - 12);
  ctx.restore();
}

/**
 * The bottleneck's rate as a dotted grey line, named in the top right corner with a sample
 * of its dash: BBR's lines run along it (BtlBw just below, ProbeBW's pacing around it), so a
 * name on the line, as the queue plots have theirs, would hide them.
 */
function drawBottleneck(f: DrawFrame, rate: number, payload: number) {
  const { ctx } = f;
  if (referenceRule(f, rate / 1e6, BOTTLENECK_DASH) === null) return;
  ctx.save();
  ctx.strokeStyle = '#555555';
  ctx.lineWidth = lw(1);
  const text = `bottleneck ${mbitText(rate)} Mbit/s (payload at most ${mbitText(payload)})`;
  ctx.font = canvasFont(11);
  const sample = 16;
  const w = ctx.measureText(text).width + sample + 12;
  const x = Math.max(2, f.width - w - 4);
  ctx.fillStyle = 'rgba(255,255,255,0.85)';
  ctx.fillRect(x, 3, w, 15);
  ctx.setLineDash(BOTTLENECK_DASH);
  ctx.beginPath();
  ctx.moveTo(x + 4, 10.5);
  ctx.lineTo(x + 4 + sample, 10.5);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = '#222222';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillText(text, x + sample + 8, 4.5);
  ctx.restore();
}

/** The BtlBw and pacing lines of one BBR run; returns where they end (for their names). */
function drawRun(f: DrawFrame, run: PlotRun): { y: number; what: 'BtlBw' | 'pacing' }[] {
  const { ctx } = f;
  const s = bbrSeries(run.trace);
  const m = run.trace.tables.model;
  if (m.length === 0) return [];
  const [i0, i1] = visibleRange(m.cols.t, m.length, f.t0, f.t1);
  const end = Math.min(run.trace.now, f.t1);
  const toY = (v: number) => mapLinear(f.yl, v / 1e6);
  const ends: { y: number; what: 'BtlBw' | 'pacing' }[] = [];
  // Pacing first, BtlBw over it: where they coincide (ProbeBW's cruising phases, gain 1)
  // the solid line shows, the dashes beside it.
  for (const what of ['pacing', 'btlBw'] as const) {
    const look = BBR_LINES[what];
    const line = cachedLine(run.trace, `bbr.${what}`, m.cols.t, s[what], i0, i1, f.xl, f.dpr, f.width, true).polyline(
      toY,
      f.xl,
      end,
    );
    ctx.strokeStyle = run.style.color;
    ctx.lineWidth = lw(look.width);
    ctx.globalAlpha = what === 'pacing' ? 0.85 : 1;
    ctx.setLineDash([...look.dash]);
    ctx.lineJoin = 'round';
    strokePolyline(ctx, line);
    ctx.globalAlpha = 1;
    ctx.setLineDash([]);
    const y = line.n > 0 ? (line.ys[line.n - 1] ?? NaN) : NaN;
    if (Number.isFinite(y)) ends.push({ y, what: what === 'btlBw' ? 'BtlBw' : 'pacing' });
  }
  return ends;
}

/** The BBR model plot definition. */
export const bbrPlot: PlotDef = {
  yTick: (v) => formatNumber(v, 4),

  yExtent(runs, t0, t1, context) {
    let hi = bottleneckBps(context);
    for (const run of runs) {
      if (run.trace.tables.model.length === 0) continue;
      hi = Math.max(hi, bbrMaxIn(run.trace, 'btlBw', t0, t1), bbrMaxIn(run.trace, 'pacing', t0, t1));
    }
    // Room above the highest line for the bottleneck's name in the corner.
    return [0, Math.max(1, (hi / 1e6) * 1.15)];
  },

  draw(f) {
    const { context } = f;
    const rate = bottleneckBps(context);
    if (rate > 0) drawBottleneck(f, rate, payloadCeilingBps(context));
    const bbr = f.runs.filter((r) => isBbrRun(r, context));
    if (bbr.length === 0) {
      const who = listText(f.runs.map((r) => r.label));
      drawNote(f, `${who} ${f.runs.length > 1 ? 'are' : 'is'} not BBR: no bandwidth model to draw`);
      return;
    }
    const labels: { text: string; color: string; x: number; y: number }[] = [];
    const several = bbr.length > 1;
    for (const run of bbr) {
      const end = f.x(Math.min(run.trace.now, f.t1));
      for (const e of drawRun(f, run)) {
        const who = several ? `${context.competition ? `f${run.flow ?? 0}` : run.label} ` : '';
        labels.push({ text: `${who}${e.what}`, color: run.style.color, x: end, y: e.y });
      }
    }
    drawEndLabels(f.ctx, labels, f);
  },

  readout(runs, t, context) {
    const u = shownOf(context);
    return runs.map((run) => {
      const line = { key: run.key, label: run.label, color: run.style.color };
      if (!isBbrRun(run, context)) return { ...line, text: 'not BBR: no bandwidth estimate or pacing rate' };
      const r = bbrRowAt(run.trace, t);
      if (r < 0 || t > run.trace.now) return { ...line, text: 'no model yet (BBR estimates from its first ACK)' };
      return { ...line, text: bbrModelText(bbrSeries(run.trace), r, u) };
    });
  },

  describe(runs, context) {
    const rate = bottleneckBps(context);
    const head =
      "BBR's model over time in Mbit/s: the bottleneck-bandwidth estimate BtlBw (solid) and the pacing rate " +
      `(dashed), against the bottleneck's rate, ${mbitText(rate)} Mbit/s (a dotted grey line; payload at most ` +
      `${mbitText(payloadCeilingBps(context))} Mbit/s).`;
    const bbr = runs.filter((r) => isBbrRun(r, context));
    const others = runs.filter((r) => !isBbrRun(r, context)).map((r) => r.label);
    const parts = bbr.map((run) => {
      const m = run.trace.tables.model;
      if (m.length === 0) return `${run.label}: no model yet`;
      const s = bbrSeries(run.trace);
      const last = m.length - 1;
      let probeRtt = 0;
      for (let i = 0; i < m.length; i += 1) {
        const st = Math.floor((s.state[i] ?? 0) / 16);
        const before = i > 0 ? Math.floor((s.state[i - 1] ?? 0) / 16) : -1;
        if (BBR_STATES[st] === 'ProbeRTT' && st !== before) probeRtt += 1;
      }
      const maxBw = bbrMaxIn(run.trace, 'btlBw', 0, Infinity);
      const maxPacing = bbrMaxIn(run.trace, 'pacing', 0, Infinity);
      return (
        `${run.label}: BtlBw at most ${mbitText(maxBw)} Mbit/s, at the end ${mbitText(s.btlBw[last] ?? NaN)} Mbit/s; ` +
        `pacing rate at most ${mbitText(maxPacing)} Mbit/s; RTprop ${rtPropText(s.rtProp[last] ?? NaN)} at the end; ` +
        `ProbeRTT entered ${probeRtt} ${probeRtt === 1 ? 'time' : 'times'}`
      );
    });
    const none =
      others.length === 0
        ? ''
        : ` ${listText(others)} ${others.length > 1 ? 'are' : 'is'} not BBR: no bandwidth model to show.`;
    return `${head}${parts.length > 0 ? ` ${parts.join('; ')}.` : ''}${none}`;
  },
};
