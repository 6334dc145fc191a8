// The retransmit timer, visible (source 003, figures 5 and 6): every RTT sample the sender
// took (Karn-valid; the engine's `rtt_sample` events) as a dot, the smoothed RTT (SRTT) as a
// solid line and the retransmission timeout (RTO) as a dashed one (the window series' srtt
// and rto columns), and each spurious retransmission (a retransmission an earlier copy of
// which had reached the receiver; `spurious_retransmit`) marked S along the bottom, at the
// time it became known. One set per run: per algorithm in a comparison, per flow in a
// competition. Times on y in milliseconds.
import { rowAt, rowsInForce, rowsWithin, visibleRange } from '../engine/lookup';
import type { RunTrace } from '../engine/traceStore';
import { formatNumber } from '../scenario/params';
import { mapLinear, thinMarks } from './core/decimate';
import type { DrawFrame, PlotDef, PlotRun } from './core/types';
import { drawLabel, strokePolyline, visibleLine } from './layers';
import { canvasFont, lw } from './core/plotStyle';

/** The RTO's dash (SRTT is solid). */
export const RTO_DASH = [6, 3];

/** Radius of a sample's dot, CSS px. */
const DOT = 2;

/** A sample's value in ms (`seq` is a 64-bit field: any sample is exact in ns). */
function sampleMs(ns: number): number {
  return Number.isFinite(ns) ? ns / 1e6 : NaN;
}

/** A series value in ms (srtt and rto are in seconds; SRTT is 0 before the first sample). */
function seriesMs(s: number | undefined, positive = false): number {
  if (s === undefined || !Number.isFinite(s) || (positive && !(s > 0))) return NaN;
  return s * 1e3;
}

/** The samples of a run (ms) in [t0, t1], for the y range and the summary text. */
function samplesIn(trace: RunTrace, t0: number, t1: number): number[] {
  const r = trace.tables.rtt;
  const [i0, i1] = rowsWithin(r.cols.t, r.length, t0, t1);
  const out: number[] = [];
  for (let i = i0; i < i1; i += 1) {
    const v = sampleMs(r.cols.seq[i] ?? NaN);
    if (Number.isFinite(v)) out.push(v);
  }
  return out;
}

/** Spurious retransmissions of a run (from its table; the summary's count when the table
 *  was not recorded). */
function spuriousCount(run: PlotRun): number {
  const n = run.trace.tables.spurious.length;
  const own = run.summary?.flows[run.flow ?? 0]?.spurious_retransmits;
  return typeof own === 'number' ? own : n;
}

function drawSamples(f: DrawFrame, run: PlotRun) {
  const r = run.trace.tables.rtt;
  const [i0, i1] = visibleRange(r.cols.t, r.length, f.t0, f.t1);
  // One dot per 2-px cell: thousands of samples cost a few hundred arcs.
  const dots = thinMarks(
    r.cols.t,
    r.cols.seq,
    i0,
    i1,
    (t) => f.x(t),
    (v) => f.y(sampleMs(v)),
    2,
  );
  const { ctx } = f;
  ctx.save();
  ctx.beginPath();
  for (let k = 0; k < dots.n; k += 1) {
    const x = dots.xs[k] ?? 0;
    const y = dots.ys[k] ?? 0;
    ctx.moveTo(x + DOT, y);
    ctx.arc(x, y, DOT, 0, Math.PI * 2);
  }
  ctx.globalAlpha = 0.75;
  ctx.fillStyle = run.style.color;
  ctx.fill();
  ctx.restore();
}

function drawSpurious(f: DrawFrame, run: PlotRun, index: number) {
  const sp = run.trace.tables.spurious;
  const [i0, i1] = visibleRange(sp.cols.t, sp.length, f.t0, f.t1);
  // Along the bottom (one row per run when several share the plot), thinned to one per
  // 10 px: a burst of spurious go-back-N copies is one S.
  const row = f.height - 4 - index * 14;
  const marks = thinMarks(
    sp.cols.t,
    sp.cols.t,
    i0,
    i1,
    (t) => f.x(t),
    () => row,
    10,
  );
  for (let k = 0; k < marks.n; k += 1) {
    const x = marks.xs[k] ?? 0;
    f.ctx.save();
    f.ctx.strokeStyle = run.style.color;
    f.ctx.globalAlpha = 0.35;
    f.ctx.lineWidth = lw(1);
    f.ctx.beginPath();
    f.ctx.moveTo(Math.round(x) + 0.5, 0);
    f.ctx.lineTo(Math.round(x) + 0.5, row - 12);
    f.ctx.stroke();
    f.ctx.restore();
    drawLabel(f.ctx, 'S', run.style.color, x, row + 2, f.dpr);
  }
}

/** The RTO is shown up to this many times the largest sample or SRTT: above, a backed-off
 *  timer (seconds, against RTTs of milliseconds) would squash every sample to the bottom. */
const RTO_ROOM = 4;

/** The largest sample or SRTT, and the largest RTO, in [t0, t1] (ms). */
function ranges(runs: readonly PlotRun[], t0: number, t1: number): { rtt: number; rto: number } {
  let rtt = 0;
  let rto = 0;
  for (const run of runs) {
    for (const v of samplesIn(run.trace, t0, t1)) if (v > rtt) rtt = v;
    const s = run.trace.tables.series;
    const [i0, i1] = rowsInForce(s.cols.t, s.length, t0, t1);
    for (let i = i0; i < i1; i += 1) {
      const srtt = seriesMs(s.cols.srtt[i], true);
      const r = seriesMs(s.cols.rto[i]);
      if (srtt > rtt) rtt = srtt;
      if (r > rto) rto = r;
    }
  }
  return { rtt, rto };
}

/** The RTT plot definition. */
export const rttPlot: PlotDef = {
  yTick: (v) => formatNumber(v, 4),

  yExtent(runs, t0, t1) {
    const { rtt, rto } = ranges(runs, t0, t1);
    // Without samples yet, the RTO alone.
    const hi = rtt > 0 ? Math.max(rtt, Math.min(rto, RTO_ROOM * rtt)) : Math.max(1, rto);
    return [0, hi * 1.04];
  },

  draw(f) {
    const { ctx, runs } = f;
    const ms = (positive: boolean) => (v: number) => mapLinear(f.yl, seriesMs(v, positive));
    runs.forEach((run) => {
      const end = Math.min(run.trace.now, f.t1);
      drawSamples(f, run);
      ctx.strokeStyle = run.style.color;
      ctx.lineJoin = 'round';
      ctx.lineWidth = lw(2);
      ctx.setLineDash([]);
      strokePolyline(ctx, visibleLine(f, run.trace, 'series', 'srtt').polyline(ms(true), f.xl, end));
      ctx.lineWidth = lw(1.5);
      ctx.setLineDash(RTO_DASH);
      strokePolyline(ctx, visibleLine(f, run.trace, 'series', 'rto').polyline(ms(false), f.xl, end));
      ctx.setLineDash([]);
    });
    runs.forEach((run, i) => drawSpurious(f, run, i));
    // A timer above the plot (backed off, or a minimum far above the RTT) is said, not hidden.
    const { rto } = ranges(runs, f.t0, f.t1);
    const top = f.y.domain()[1] ?? Infinity;
    if (rto > top) {
      const text = `RTO above the plot, up to ${formatNumber(rto, 4)} ms (the readout has it)`;
      ctx.save();
      ctx.font = canvasFont(11);
      const w = ctx.measureText(text).width;
      const x = Math.max(4, f.width - w - 10);
      ctx.fillStyle = 'rgba(255,255,255,0.85)';
      ctx.fillRect(x - 3, 2, w + 6, 15);
      ctx.fillStyle = '#222222';
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      ctx.fillText(text, x, 3);
      ctx.restore();
    }
  },

  readout(runs, t) {
    return runs.map((run) => {
      const line = { key: run.key, label: run.label, color: run.style.color };
      const s = run.trace.tables.series;
      const r = rowAt(s.cols.t, s.length, t);
      if (r < 0 || t > run.trace.now) return { ...line, text: 'no data yet' };
      const rt = run.trace.tables.rtt;
      const k = rowAt(rt.cols.t, rt.length, t);
      const sample =
        k < 0
          ? 'no sample yet'
          : `last sample ${formatNumber(sampleMs(rt.cols.seq[k] ?? NaN), 4)} ms (at ${formatNumber(rt.cols.t[k] ?? 0, 6)} s)`;
      const srtt = seriesMs(s.cols.srtt[r], true);
      const sp = run.trace.tables.spurious;
      const spurious = rowAt(sp.cols.t, sp.length, t) + 1;
      return {
        ...line,
        text:
          `${sample} · SRTT ${Number.isFinite(srtt) ? formatNumber(srtt, 4) : '—'} · ` +
          `RTO ${formatNumber(seriesMs(s.cols.rto[r]), 4)} ms · ${spurious} spurious so far`,
      };
    });
  },

  describe(runs) {
    const parts = runs.map((run) => {
      if (!run.summary) return `${run.label}: running`;
      const samples = samplesIn(run.trace, 0, Infinity).sort((a, b) => a - b);
      const median = samples.length > 0 ? formatNumber(samples[Math.ceil(samples.length / 2) - 1] ?? NaN, 4) : '—';
      const f = run.summary.flows[run.flow ?? 0];
      const retx = f ? `, ${f.retransmits} retransmissions` : '';
      return `${run.label}: ${samples.length} RTT samples, median ${median} ms, ${spuriousCount(run)} spurious retransmissions${retx}`;
    });
    return (
      'Round-trip time in ms: every Karn-valid RTT sample as a dot, SRTT (solid) and the retransmission timeout ' +
      `(dashed), spurious retransmissions marked S (] and [ step through them). ${parts.join('; ')}.`
    );
  },

  eventTimes(runs) {
    const out: number[] = [];
    for (const run of runs) {
      const sp = run.trace.tables.spurious;
      for (let i = 0; i < sp.length; i += 1) out.push(sp.cols.t[i] ?? 0);
    }
    return out.sort((a, b) => a - b);
  },
};
