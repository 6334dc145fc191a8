// Congestion window plot: cwnd, ssthresh, flight size and the inflated window over time, in
// segments, with phase bands and marks for the events a lesson is about (3rd duplicate ACK
// → fast retransmit, retransmission timeout, NewReno partial ACK).
import { rowAt, rowsInForce, visibleRange } from '../engine/lookup';
import { formatNumber } from '../scenario/params';
import { mssOf } from '../scenario/paths';
import { drawMarker, EVENT_MARKS, PHASES, SERIES_STYLES } from '../lib/styles';
import type { SeriesVisibility } from '../state/types';
import { mapLinear, thinMarks } from './core/decimate';
import type { DrawFrame, PlotContext, PlotDef, PlotRun } from './core/types';
import { drawPhaseBands, EVENT_CODE, rowBefore, strokePolyline, visibleLine } from './layers';

const SERIES_ORDER: (keyof SeriesVisibility)[] = ['flight', 'ssthresh', 'inflated', 'cwnd'];

/** Height of one phase lane, CSS px. */
export const LANE_H = 11;

function visibleSeries(context: PlotContext): (keyof SeriesVisibility)[] {
  return SERIES_ORDER.filter((k) => context.series[k]);
}

function drawEventMarks(f: DrawFrame, run: PlotRun, mss: number) {
  const { ctx, x, y } = f;
  const marks = run.trace.tables.marks;
  const series = run.trace.tables.series;
  const [i0, i1] = visibleRange(marks.cols.t, marks.length, f.t0, f.t1);
  const cwnd = series.cols.cwnd;
  // y of each mark: the window the event interrupted (just before it).
  const yAt = (i: number) => {
    const te = marks.cols.t[i] ?? 0;
    const r = Math.max(0, rowBefore(series.cols.t, series.length, te));
    return y((cwnd[r] ?? 0) / mss) - 9;
  };
  for (const [name, look] of Object.entries(EVENT_MARKS)) {
    const code = EVENT_CODE.get(name);
    if (code === undefined) continue;
    // Rows of this kind, thinned to one mark per 7-px cell.
    const rows: number[] = [];
    for (let i = i0; i < i1; i += 1) if (marks.cols.kind[i] === code) rows.push(i);
    if (rows.length === 0) continue;
    const ts = rows.map((i) => marks.cols.t[i] ?? 0);
    const ys = rows.map((i) => yAt(i));
    const thin = thinMarks(
      ts,
      ys,
      0,
      rows.length,
      (t) => x(t),
      (v) => v,
      7,
    );
    // One path per kind and run: a few paint operations however many events there are.
    ctx.save();
    ctx.setLineDash([]);
    ctx.beginPath();
    for (let k = 0; k < thin.n; k += 1) {
      const px = thin.xs[k] ?? 0;
      const py = Math.max(6, thin.ys[k] ?? 0);
      if (look.glyph === 'down') {
        ctx.moveTo(px - 5, py - 4);
        ctx.lineTo(px + 5, py - 4);
        ctx.lineTo(px, py + 4);
        ctx.closePath();
      } else if (look.glyph === 'x') {
        ctx.moveTo(px - 5, py - 5);
        ctx.lineTo(px + 5, py + 5);
        ctx.moveTo(px + 5, py - 5);
        ctx.lineTo(px - 5, py + 5);
      } else {
        ctx.moveTo(px + 3.5, py);
        ctx.arc(px, py, 3.5, 0, Math.PI * 2);
      }
    }
    if (look.glyph === 'down') {
      ctx.fillStyle = run.style.color;
      ctx.fill();
      ctx.lineWidth = 1;
      ctx.strokeStyle = '#111';
      ctx.stroke();
    } else if (look.glyph === 'x') {
      ctx.lineWidth = 3.5;
      ctx.strokeStyle = '#fff';
      ctx.stroke();
      ctx.lineWidth = 2;
      ctx.strokeStyle = '#111';
      ctx.stroke();
    } else {
      ctx.fillStyle = '#fff';
      ctx.fill();
      ctx.lineWidth = 2;
      ctx.strokeStyle = run.style.color;
      ctx.stroke();
    }
    ctx.restore();
  }
}

/** Markers along a run's cwnd line, so overlaid runs differ by shape as well as colour. */
function drawIdentityMarkers(f: DrawFrame, run: PlotRun, index: number, mss: number) {
  const s = run.trace.tables.series;
  const spacing = 110;
  for (let px = 30 + index * 26; px < f.width; px += spacing) {
    const t = f.x.invert(px);
    if (t > run.trace.now) break;
    const r = rowAt(s.cols.t, s.length, t);
    if (r < 0) continue;
    drawMarker(f.ctx, run.style.marker, px, f.y((s.cols.cwnd[r] ?? 0) / mss), 4, run.style.color);
  }
}

/** The window plot definition. */
export const windowPlot: PlotDef = {
  yLabel: 'segments',
  yTick: (v) => formatNumber(v, 4),

  yExtent(runs, t0, t1, context) {
    const mss = mssOf(context.scenario);
    let hi = 1;
    for (const run of runs) {
      const s = run.trace.tables.series;
      const [i0, i1] = rowsInForce(s.cols.t, s.length, t0, t1);
      for (const name of visibleSeries(context)) {
        const col = s.cols[name];
        for (let i = i0; i < i1; i += 1) {
          const v = col[i] ?? 0;
          if (v > hi * mss && Number.isFinite(v)) hi = v / mss;
        }
      }
    }
    // Room above the data for the phase lanes and event marks.
    const lanes = context.overlay ? runs.length : 1;
    return [0, hi * (1.1 + 0.05 * lanes)];
  },

  draw(f) {
    const { ctx, runs, context } = f;
    const mss = mssOf(context.scenario);
    drawPhaseBands(f, LANE_H);
    const { xl, yl } = f;
    const toY = (v: number) => mapLinear(yl, v / mss);
    for (const run of runs) {
      for (const name of visibleSeries(context)) {
        const look = SERIES_STYLES[name];
        const line = visibleLine(f, run.trace, 'series', name).polyline(toY, xl, Math.min(run.trace.now, f.t1));
        ctx.strokeStyle = run.style.color;
        ctx.globalAlpha = look.alpha;
        ctx.lineWidth = look.width;
        ctx.setLineDash(look.dash);
        ctx.lineJoin = 'round';
        strokePolyline(ctx, line);
      }
      ctx.globalAlpha = 1;
      ctx.setLineDash([]);
    }
    runs.forEach((run, i) => {
      if (context.overlay) drawIdentityMarkers(f, run, i, mss);
      drawEventMarks(f, run, mss);
    });
  },

  readout(runs, t, context) {
    const mss = mssOf(context.scenario);
    return runs.map((run) => {
      const s = run.trace.tables.series;
      const r = rowAt(s.cols.t, s.length, t);
      if (r < 0 || t > run.trace.now) {
        return { key: run.key, label: run.label, color: run.style.color, text: 'no data yet' };
      }
      const seg = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? '∞' : formatNumber(v / mss, 4));
      const phase = PHASES[s.cols.phase[r] ?? -1]?.label ?? '';
      const text =
        `cwnd ${seg(s.cols.cwnd[r])} · ssthresh ${seg(s.cols.ssthresh[r])} · ` +
        `flight ${seg(s.cols.flight[r])} · inflated ${seg(s.cols.inflated[r])} seg · ${phase}`;
      return { key: run.key, label: run.label, color: run.style.color, text };
    });
  },

  describe(runs) {
    const parts = runs.map((r) => {
      const f = r.summary?.flows[0];
      return f
        ? `${r.label}: mean cwnd ${formatNumber(f.mean_cwnd_segments, 3)} segments, ` +
            `${f.fast_retransmits} fast retransmits, ${f.timeouts} timeouts, ${f.partial_acks} partial ACKs`
        : `${r.label}: running`;
    });
    return `Congestion window over time in segments, with phase bands and event marks. ${parts.join('; ')}.`;
  },
};
