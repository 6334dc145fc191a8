// Bottleneck queue occupancy (data direction), in packets, with the buffer size as a
// dashed reference line: a full buffer is where drop-tail losses come from.
import { rowAt, rowsInForce } from '../engine/lookup';
import { formatNumber } from '../scenario/params';
import { getAt } from '../scenario/paths';
import type { PlotContext, PlotDef } from './core/types';
import { strokePolyline, visibleLine } from './layers';

function capacity(context: PlotContext): number {
  const c = getAt(context.scenario, 'network.bottleneck.queue_packets');
  return typeof c === 'number' ? c : 0;
}

/** With the reservation scheduler each class has a queue of that size, and the plotted
 *  queue is the link's whole backlog (every class). */
function perClass(context: PlotContext): boolean {
  return getAt(context.scenario, 'network.bottleneck.scheduler') === 'reservation';
}

/** The queue plot definition. */
export const queuePlot: PlotDef = {
  yLabel: 'packets',
  yTick: (v) => formatNumber(v, 4),

  yExtent(runs, t0, t1, context) {
    let hi = Math.max(1, capacity(context));
    for (const run of runs) {
      const q = run.trace.tables.queue;
      const [i0, i1] = rowsInForce(q.cols.t, q.length, t0, t1);
      for (let i = i0; i < i1; i += 1) hi = Math.max(hi, q.cols.packets[i] ?? 0);
    }
    return [0, hi];
  },

  draw(f) {
    const { ctx, context } = f;
    // The flows of a competition share one bottleneck: its queue is drawn once.
    const runs = context.competition ? f.runs.slice(0, 1) : f.runs;
    const cap = capacity(context);
    ctx.save();
    ctx.setLineDash([5, 4]);
    ctx.strokeStyle = '#555';
    ctx.lineWidth = 1;
    const py = Math.round(f.y(cap)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(0, py);
    ctx.lineTo(f.width, py);
    ctx.stroke();
    ctx.setLineDash([]);
    // The label sits on a white box so the data under it cannot make it unreadable.
    const label = `buffer ${cap} packets${perClass(context) ? ' per class' : ''}`;
    ctx.font = '11px system-ui, sans-serif';
    const tw = ctx.measureText(label).width;
    const ly = Math.max(1, py - 15);
    ctx.fillStyle = 'rgba(255,255,255,0.7)';
    ctx.fillRect(4, ly, tw + 6, 14);
    ctx.fillStyle = '#333';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillText(label, 7, ly + 1);
    ctx.restore();
    for (const run of runs) {
      const line = visibleLine(f, run.trace, 'queue', 'packets').polyline(f.yl, f.xl, Math.min(run.trace.now, f.t1));
      ctx.strokeStyle = context.competition ? '#333333' : run.style.color;
      ctx.lineWidth = 1.5;
      ctx.setLineDash(context.overlay && !context.competition ? run.style.dash : []);
      strokePolyline(ctx, line);
      ctx.setLineDash([]);
    }
  },

  readout(runs, t, context) {
    const shown = context.competition ? runs.slice(0, 1) : runs;
    return shown.map((run) => {
      const q = run.trace.tables.queue;
      const r = rowAt(q.cols.t, q.length, t);
      const v = r < 0 ? 0 : (q.cols.packets[r] ?? 0);
      const text = `queue ${formatNumber(v)} packets`;
      return context.competition
        ? { key: 'queue', label: 'all flows', color: '#333333', text }
        : { key: run.key, label: run.label, color: run.style.color, text };
    });
  },

  describe(runs, context) {
    const parts = runs.map((r) => {
      const f = r.summary?.flows[r.flow ?? 0];
      return f ? `${r.label}: ${f.drops.queue} queue drops` : `${r.label}: running`;
    });
    if (context.competition) parts.unshift('one queue shared by every flow');
    const buffer = perClass(context)
      ? `every class's buffer holds ${capacity(context)} (the line is the backlog of all classes)`
      : `the buffer holds ${capacity(context)}`;
    return `Bottleneck queue length in packets; ${buffer}. ${parts.join('; ')}.`;
  },
};
