// Queueing delay at the bottleneck over time, in ms: the bytes queued (data direction)
// drained at the bottleneck's rate, which is what a packet joining the queue waits. A deep
// buffer a loss-based sender fills reads here as hundreds of milliseconds added to every
// round trip; the dashed line is the delay of a full buffer of full-sized packets.
import { rowAt, rowsInForce } from '../engine/lookup';
import { formatNumber } from '../scenario/params';
import { getAt } from '../scenario/paths';
import { mapLinear } from './core/decimate';
import type { PlotContext, PlotDef } from './core/types';
import { drawQueueLines, referenceLine } from './layers';
import {
  aqmEventTimes,
  describeDiscipline,
  disciplineLabel,
  disciplineOf,
  drawDroppingBands,
  drawDropsAndMarks,
  drawProbability,
  drawStateLine,
  stateMax,
  stateText,
  targetOf,
} from './qdiscLayers';

/** ms per queued byte at the bottleneck's rate at t = 0 (0 when unknown). */
function msPerByte(context: PlotContext): number {
  const b = getAt(context.scenario, 'network.bottleneck.bandwidth');
  return typeof b === 'number' && b > 0 ? 8000 / b : 0;
}

/** The delay of a full buffer of full-sized packets (flow 0's MSS + header), ms. */
function fullBufferMs(context: PlotContext): number {
  const cap = getAt(context.scenario, 'network.bottleneck.queue_packets');
  const mss = getAt(context.scenario, 'flows[0].tcp.mss');
  const header = getAt(context.scenario, 'flows[0].tcp.header');
  const n = [cap, mss, header].map((v) => (typeof v === 'number' ? v : 0));
  return (n[0] ?? 0) * ((n[1] ?? 0) + (n[2] ?? 0)) * msPerByte(context);
}

/** The queueing-delay plot definition. */
export const queueDelayPlot: PlotDef = {
  yTick: (v) => formatNumber(v, 4),

  yExtent(runs, t0, t1, context) {
    const k = msPerByte(context);
    // Under a discipline the range is the data's and its target's (a deep buffer's delay
    // would flatten them), the full buffer's line drawn only when in it.
    let hi = Math.max(1, disciplineOf(context) ? 0 : fullBufferMs(context));
    for (const run of runs) {
      const q = run.trace.tables.queue;
      const [i0, i1] = rowsInForce(q.cols.t, q.length, t0, t1);
      for (let i = i0; i < i1; i += 1) hi = Math.max(hi, (q.cols.bytes[i] ?? 0) * k);
    }
    const target = targetOf(context);
    if (target !== null) hi = Math.max(hi, target * 2000, stateMax(runs, 'sojourn', t0, t1) * 1000);
    return [0, hi];
  },

  draw(f) {
    const k = msPerByte(f.context);
    const full = fullBufferMs(f.context);
    const kind = disciplineOf(f.context);
    const target = targetOf(f.context);
    // A discipline holding the delay to a target (CoDel, FQ-CoDel, PIE): its dropping state
    // as bands under everything, the target, the sojourn a departing packet had, the drop
    // probability (PIE), its drops and CE marks; nothing of it under drop-tail.
    if (target !== null) drawDroppingBands(f);
    referenceLine(f, full, `full buffer ≈ ${formatNumber(full, 3)} ms`, [5, 4]);
    if (kind && target !== null) {
      referenceLine(f, target * 1000, `${disciplineLabel(kind)} target ${formatNumber(target * 1000, 3)} ms`, [6, 3]);
      drawProbability(f);
    }
    drawQueueLines(f, 'bytes', (v) => mapLinear(f.yl, v * k));
    if (target !== null) drawStateLine(f, 'sojourn', (v) => f.y(v * 1000));
    if (kind) {
      drawDropsAndMarks(f, (run, t) => {
        const q = run.trace.tables.queue;
        const r = rowAt(q.cols.t, q.length, t);
        return f.y(r < 0 ? 0 : (q.cols.bytes[r] ?? 0) * k);
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
    const k = msPerByte(context);
    return shown.map((run) => {
      const q = run.trace.tables.queue;
      const r = rowAt(q.cols.t, q.length, t);
      const ms = r < 0 ? 0 : (q.cols.bytes[r] ?? 0) * k;
      const packets = r < 0 ? 0 : (q.cols.packets[r] ?? 0);
      const state = targetOf(context) !== null ? stateText(run, t, context) : '';
      const text = `queueing delay ${formatNumber(ms, 3)} ms (${formatNumber(packets)} packets)${state ? ` · ${state}` : ''}`;
      return context.competition
        ? { key: 'queue', label: 'all flows', color: '#333333', text }
        : { key: run.key, label: run.label, color: run.style.color, text };
    });
  },

  describe(runs, context) {
    const k = msPerByte(context);
    const parts = runs.map((run) => {
      const q = run.trace.tables.queue;
      let max = 0;
      let sum = 0;
      for (let i = 0; i < q.length; i += 1) {
        const ms = (q.cols.bytes[i] ?? 0) * k;
        max = Math.max(max, ms);
        sum += ms;
      }
      const mean = q.length > 0 ? sum / q.length : 0;
      return `${run.label}: at most ${formatNumber(max, 3)} ms, ${formatNumber(mean, 3)} ms on average over the queue's changes`;
    });
    return `Queueing delay at the bottleneck in ms (the queued bytes at the link's rate); a full buffer is about ${formatNumber(fullBufferMs(context), 3)} ms. ${parts.join('; ')}.${describeDiscipline(runs, context)}`;
  },
};
