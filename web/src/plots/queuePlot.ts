// Bottleneck queue occupancy (data direction), in packets, with the buffer size as a
// dashed reference line: a full buffer is where drop-tail losses come from. The readout and
// the buffer's label also give the queue as time: the delay a packet joining it waits
// (the queued bytes drained at the bottleneck's rate), so a deep buffer's cost reads in ms.
import { rowAt, rowsInForce } from '../engine/lookup';
import { formatNumber } from '../scenario/params';
import { getAt } from '../scenario/paths';
import type { PlotContext, PlotDef } from './core/types';
import { drawQueueLines, referenceLine } from './layers';
import {
  aqmEventTimes,
  describeDiscipline,
  disciplineOf,
  drawDropsAndMarks,
  drawProbability,
  drawStateLine,
  stateMax,
  stateText,
  thresholdsOf,
} from './qdiscLayers';

/** RED's average in the plot's unit: packets (byte mode: packets of packet_size, as the
 *  engine scales the thresholds). */
function avgScale(context: PlotContext): number {
  const th = thresholdsOf(context);
  return th?.bytes ? 1 / th.bytes : 1;
}

/** The bottleneck's rate at t = 0, bit/s (0 when unknown). */
function rate(context: PlotContext): number {
  const b = getAt(context.scenario, 'network.bottleneck.bandwidth');
  return typeof b === 'number' ? b : 0;
}

/** The time `bytes` take to drain at the bottleneck's rate, as text ("1.2 s", "34 ms"). */
function drainText(bytes: number, context: PlotContext): string {
  const r = rate(context);
  if (r <= 0) return '';
  const s = (bytes * 8) / r;
  return s >= 1 ? `${formatNumber(s, 3)} s` : `${formatNumber(s * 1000, 3)} ms`;
}

/** The size of a full-sized packet on the wire, bytes (MSS + header of flow 0). */
function packetBytes(context: PlotContext): number {
  const mss = getAt(context.scenario, 'flows[0].tcp.mss');
  const header = getAt(context.scenario, 'flows[0].tcp.header');
  return (typeof mss === 'number' ? mss : 0) + (typeof header === 'number' ? header : 0);
}

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
  yTick: (v) => formatNumber(v, 4),

  yExtent(runs, t0, t1, context) {
    // Under a discipline the queue stays far below a deep buffer: the range is the data's
    // (and RED's thresholds), the buffer's line drawn only when in it.
    let hi = Math.max(1, disciplineOf(context) ? 0 : capacity(context));
    for (const run of runs) {
      const q = run.trace.tables.queue;
      const [i0, i1] = rowsInForce(q.cols.t, q.length, t0, t1);
      for (let i = i0; i < i1; i += 1) hi = Math.max(hi, q.cols.packets[i] ?? 0);
    }
    const th = thresholdsOf(context);
    if (th) hi = Math.max(hi, th.max * 1.25, stateMax(runs, 'avg', t0, t1) * avgScale(context));
    return [0, hi];
  },

  draw(f) {
    const { context } = f;
    const cap = capacity(context);
    const full = drainText(cap * packetBytes(context), context);
    referenceLine(
      f,
      cap,
      `buffer ${cap} packets${perClass(context) ? ' per class' : ''}${full ? ` ≈ ${full} of full-sized packets` : ''}`,
      [5, 4],
    );
    // A discipline's thresholds (RED), its average queue and drop probability, and its
    // drops and CE marks on the queue line; nothing of it under drop-tail.
    const th = thresholdsOf(context);
    if (th) {
      const unit = th.bytes ? ` × ${th.bytes} B` : '';
      referenceLine(f, th.min, `min_th ${formatNumber(th.min)}${unit}`, [6, 3]);
      referenceLine(f, th.max, `max_th ${formatNumber(th.max)}${unit}`, [6, 3]);
      drawProbability(f);
    }
    drawQueueLines(f, 'packets', f.yl);
    if (th) {
      const k = avgScale(context);
      drawStateLine(f, 'avg', (v) => f.y(v * k));
    }
    if (disciplineOf(context)) {
      drawDropsAndMarks(f, (run, t) => {
        const q = run.trace.tables.queue;
        const r = rowAt(q.cols.t, q.length, t);
        return f.y(r < 0 ? 0 : (q.cols.packets[r] ?? 0));
      });
    }
  },

  eventTimes(runs) {
    return aqmEventTimes(runs);
  },

  // Its ✕ and ◆ are a discipline's decisions (`red.drop`, `codel.mark`, …: kind queue).
  explains: 'queue',

  readout(runs, t, context) {
    const shown = context.competition ? runs.slice(0, 1) : runs;
    return shown.map((run) => {
      const q = run.trace.tables.queue;
      const r = rowAt(q.cols.t, q.length, t);
      const v = r < 0 ? 0 : (q.cols.packets[r] ?? 0);
      const bytes = r < 0 ? 0 : (q.cols.bytes[r] ?? 0);
      const wait = drainText(bytes, context);
      const state = thresholdsOf(context) ? stateText(run, t, context) : '';
      const text = `queue ${formatNumber(v)} packets${wait ? ` · ${wait} of queueing delay` : ''}${state ? ` · ${state}` : ''}`;
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
    return `Bottleneck queue length in packets; ${buffer}. ${parts.join('; ')}.${describeDiscipline(runs, context)}`;
  },
};
