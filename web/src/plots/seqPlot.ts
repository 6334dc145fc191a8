// Time–sequence plot in the style of tcptrace: each transmission is a vertical bar from its
// first to its last byte at the time it left the sender, retransmissions are marked R, the
// ACK line is a step line of the acknowledgment number, and drops are marked ✕.
// Sequence numbers are shown in the page's unit: segments (bytes / MSS) by default, so they
// match the lesson texts, or bytes (`unit=bytes`; lib/units.ts).
import { rowAt, rowsInForce, rowsWithin, visibleRange } from '../engine/lookup';
import { formatNumber } from '../scenario/params';
import { shownOf, type Shown } from './core/shown';
import { mapLinear, thinMarks } from './core/decimate';
import { cachedSpans } from './core/lineCache';
import type { DrawFrame, PlotDef, PlotRun } from './core/types';
import { drawLabel, strokeCrosses, strokePolyline, visibleLine } from './layers';
import { DROP_COLOR } from './qdiscLayers';
import { fillBars } from './core/stepStroke';
import { lw } from './core/plotStyle';
import { drawSack, hasSackRows, sackCounts, sackReadout } from './sackMarks';

function drawBars(f: DrawFrame, run: PlotRun, table: 'sends' | 'retx', u: Shown, width: number) {
  const tb = run.trace.tables[table];
  const [i0, i1] = visibleRange(tb.cols.t, tb.length, f.t0, f.t1);
  const spans = cachedSpans(run.trace, table, tb.cols.t, tb.cols.seq, tb.cols.len, i0, i1, f.xl, f.dpr).spans((v) =>
    mapLinear(f.yl, v / u.scale),
  );
  const { ctx } = f;
  ctx.lineWidth = lw(width);
  // Each bar from a − ½ to max(b, a + 1) + ½ px (a sent segment is never thinner than a
  // pixel); on a raster canvas filled as rectangles (the same pixels, cheaper: stepStroke.ts).
  const n = spans.n;
  const top = new Float64Array(n);
  const bottom = new Float64Array(n);
  for (let k = 0; k < n; k += 1) {
    const a = spans.y0[k] ?? 0;
    top[k] = a - 0.5;
    bottom[k] = Math.max(spans.y1[k] ?? 0, a + 1) + 0.5;
  }
  if (fillBars(ctx, spans.xs, top, bottom, n)) return;
  ctx.beginPath();
  for (let k = 0; k < n; k += 1) {
    ctx.moveTo(spans.xs[k] ?? 0, top[k] ?? 0);
    ctx.lineTo(spans.xs[k] ?? 0, bottom[k] ?? 0);
  }
  ctx.stroke();
}

function drawRetransmitLabels(f: DrawFrame, run: PlotRun, u: Shown) {
  const tb = run.trace.tables.retx;
  const [i0, i1] = visibleRange(tb.cols.t, tb.length, f.t0, f.t1);
  const top = new Float64Array(Math.max(0, i1 - i0));
  for (let i = i0; i < i1; i += 1) top[i - i0] = (tb.cols.seq[i] ?? 0) + (tb.cols.len[i] ?? 0);
  const marks = thinMarks(
    tb.cols.t.subarray(i0, i1),
    top,
    0,
    i1 - i0,
    (t) => f.x(t),
    (v) => f.y(v / u.scale),
    12,
  );
  for (let k = 0; k < marks.n; k += 1) {
    drawLabel(f.ctx, 'R', run.style.color, marks.xs[k] ?? 0, (marks.ys[k] ?? 0) - 1, f.dpr);
  }
}

function drawDrops(f: DrawFrame, run: PlotRun, u: Shown) {
  const tb = run.trace.tables.drops;
  const [i0, i1] = visibleRange(tb.cols.t, tb.length, f.t0, f.t1);
  const marks = thinMarks(
    tb.cols.t,
    tb.cols.seq,
    i0,
    i1,
    (t) => f.x(t),
    (v) => f.y((v + u.mss / 2) / u.scale),
    7,
  );
  strokeCrosses(
    f.ctx,
    marks.n,
    (k) => marks.xs[k] ?? 0,
    (k) => marks.ys[k] ?? 0,
    DROP_COLOR,
  );
}

/** The time–sequence plot definition. */
export const seqPlot: PlotDef = {
  yTick: (v) => formatNumber(v, 6),

  yExtent(runs, t0, t1, context) {
    const u = shownOf(context);
    let lo = Infinity;
    let hi = -Infinity;
    for (const run of runs) {
      for (const name of ['sends', 'retx', 'acks'] as const) {
        const tb = run.trace.tables[name];
        // Marks count only inside the window; the ACK line also by the value in force at t0.
        const [i0, i1] = (name === 'acks' ? rowsInForce : rowsWithin)(tb.cols.t, tb.length, t0, t1);
        const seq = tb.cols.seq;
        const len = name === 'acks' ? null : run.trace.tables[name].cols.len;
        for (let i = i0; i < i1; i += 1) {
          const a = seq[i] ?? 0;
          if (a < lo) lo = a;
          const b = a + (len ? (len[i] ?? 0) : 0);
          if (b > hi) hi = b;
        }
      }
    }
    if (!Number.isFinite(lo)) return [0, 10];
    return [lo / u.scale, hi / u.scale];
  },

  draw(f) {
    const { ctx, runs, context } = f;
    const u = shownOf(context);
    const single = !context.overlay;
    for (const run of runs) {
      ctx.setLineDash([]);
      ctx.strokeStyle = run.style.color;
      ctx.globalAlpha = 0.85;
      drawBars(f, run, 'sends', u, 1.5);
      ctx.globalAlpha = 1;
      drawBars(f, run, 'retx', u, 2.5);
      // The ACK line: dark for a single run, the run's colour and dash when overlaid.
      const line = visibleLine(f, run.trace, 'acks', 'seq').polyline(
        (v) => mapLinear(f.yl, v / u.scale),
        f.xl,
        Math.min(run.trace.now, f.t1),
      );
      ctx.strokeStyle = single ? '#333333' : run.style.color;
      ctx.setLineDash(single ? [] : run.style.dash);
      ctx.lineWidth = lw(1.5);
      strokePolyline(ctx, line);
      ctx.setLineDash([]);
    }
    for (const run of runs) {
      // SACK's blocks, lost marks and probes (flows with SACK on only), over the ACK line.
      if (hasSackRows(run.trace)) drawSack(f, run, u);
      drawRetransmitLabels(f, run, u);
      drawDrops(f, run, u);
    }
  },

  readout(runs, t, context) {
    const u = shownOf(context);
    return runs.map((run) => {
      const sends = run.trace.tables.sends;
      const acks = run.trace.tables.acks;
      const rs = rowAt(sends.cols.t, sends.length, t);
      const ra = rowAt(acks.cols.t, acks.length, t);
      const sent = rs < 0 ? '—' : u.num((sends.cols.seq[rs] ?? 0) + (sends.cols.len[rs] ?? 0), 6);
      const acked = ra < 0 ? '—' : u.num(acks.cols.seq[ra] ?? 0, 6);
      return {
        key: run.key,
        label: run.label,
        color: run.style.color,
        text: `highest sent ${sent} · acknowledged ${acked}${sackReadout(run.trace, t, u)} (${u.label})`,
      };
    });
  },

  describe(runs) {
    const parts = runs.map((r) => {
      const f = r.summary?.flows[r.flow ?? 0];
      const drops = f ? f.drops.queue + f.drops.error + f.drops.scripted : 0;
      const sack = hasSackRows(r.trace) ? `, ${sackCounts(r.trace)}` : '';
      return f ? `${r.label}: ${f.retransmits} retransmissions, ${drops} drops${sack}` : `${r.label}: running`;
    });
    const sack = runs.some((r) => hasSackRows(r.trace))
      ? ' SACK blocks are bars above the ACK line (D-SACK in orange), segments marked lost L, tail loss probes P.'
      : '';
    return `Time–sequence plot: segments sent, retransmissions marked R, the ACK line and drops marked ✕.${sack} ${parts.join('; ')}.`;
  },
};
