// The plots of a competition (runs = the flows of one run, sharing the bottleneck and its
// throughput table), on the shared time cursor, in the throughput plot's bins:
//   share     each flow's share of the bottleneck's capacity per bin, stacked (the stack's
//             height is the link's utilisation; cross sources on top, hidden flows grey),
//             and the payload every flow delivered as a share of it (Jacobson's "effective
//             bandwidth" of the link: below the stack by the headers and retransmissions);
//   fairness  Jain's index per bin over the flows active in it, of their delivered bytes,
//             with the whole run's index and 1/n as reference lines;
//   retx      each flow's retransmitted fraction per bin (retransmissions / data packets
//             sent), and all shown flows together.
import type { RunSummary } from '../engine/protocol';
import { crossStyle } from '../lib/styles';
import { formatDuration } from '../lib/format';
import { flowsOf } from '../scenario/competition';
import { crossOf, trafficClasses, type TrafficClass } from '../scenario/cross';
import { formatNumber } from '../scenario/params';
import { durationOf } from '../scenario/paths';
import {
  activeIn,
  bandwidthSteps,
  capacityBytes,
  flowSpans,
  jainInBin,
  packetBins,
  retransmittedFractions,
  runJainIndex,
  shareOfCapacity,
  type PacketBins,
} from './competitionBins';
import type { DrawFrame, PlotContext, PlotDef, PlotRun, ReadoutLine } from './core/types';
import { drawEndLabels, referenceLine, strokeStep, type StrokeLook } from './layers';
import { binText, binUnder, flowClassIndex, visibleBins, wantedBinWidth, type CoveredBins } from './throughputPlot';
import { binnedThroughput, coveredUntil, type ThroughputBins } from './throughputBins';
import { lw } from './core/plotStyle';

/** A run's throughput table read for these plots: bins of the chosen width, classes, how far
 *  the data is complete, and the run's summary. */
interface Table {
  first: PlotRun;
  bins: ThroughputBins;
  classes: TrafficClass[];
  covered: number;
  summary: RunSummary | null;
}

function tableOf(runs: readonly PlotRun[], context: PlotContext, column: 'delivered' | 'bottleneck'): Table | null {
  const first = runs[0];
  if (!first || !(first.trace.throughput.bin > 0)) return null;
  return {
    first,
    bins: binnedThroughput(first.trace, wantedBinWidth(context, first), column),
    classes: trafficClasses(first.trace.throughput.classes),
    covered: coveredUntil(first.trace, durationOf(context.scenario, Infinity)),
    summary: runs.find((r) => r.summary)?.summary ?? null,
  };
}

/** The plotted bin under the cursor t (the last closed one at or past the end); -1 without. */
function binAt(t: Table, at: number): number {
  if (t.covered <= 0 || at < 0 || at > t.first.trace.now) return -1;
  return binUnder(t, at);
}

function pct(x: number, digits = 3): string {
  return Number.isFinite(x) ? `${formatNumber(100 * x, digits)} %` : '—';
}

/** Strokes a step line of `value(j)` over bins [j0, j1). */
function stepLine(
  f: DrawFrame,
  t: Table,
  j0: number,
  j1: number,
  value: (j: number) => number,
  look: StrokeLook,
): number {
  const n = Math.max(0, j1 - j0);
  const ts = new Float64Array(n);
  const vs = new Float64Array(n);
  for (let k = 0; k < n; k += 1) {
    ts[k] = t.bins.start(j0 + k);
    vs[k] = value(j0 + k);
  }
  return strokeStep(f, ts, vs, n, Math.min(t.covered, t.bins.start(j1)), look);
}

// ---- share of the bottleneck ----

/** Colour of a hidden flow's band (it still uses the link). */
const HIDDEN_FILL = '#d0d0d0';

/** The classes in stacking order (flows by number, then cross sources) with their look:
 *  shown flows in their own colour, hidden ones grey. */
function stackOf(t: Table, runs: readonly PlotRun[]): { c: number; color: string; name: string; run?: PlotRun }[] {
  const byFlow = new Map(runs.map((r) => [r.flow ?? 0, r]));
  const flows = t.classes
    .map((cls, c) => ({ cls, c }))
    .filter(({ cls }) => cls.kind === 'flow')
    .map(({ cls, c }) => {
      const run = byFlow.get(cls.index);
      return run ? { c, color: run.style.color, name: `f${cls.index}`, run } : { c, color: HIDDEN_FILL, name: '' };
    });
  const cross = t.classes
    .map((cls, c) => ({ cls, c }))
    .filter(({ cls }) => cls.kind === 'cross')
    .map(({ cls, c }) => ({ c, color: crossStyle(cls.index).color, name: `cross ${cls.index}` }));
  return [...flows, ...cross];
}

/** Every class's share of the link in bin j together: the link's utilisation there. */
function linkUsed(t: Table, j: number, steps: readonly [number, number][]): number {
  let sum = 0;
  for (let c = 0; c < t.classes.length; c += 1) sum += shareOfCapacity(t.bins, c, j, t.covered, steps) || 0;
  return sum;
}

function shareTable(runs: readonly PlotRun[], context: PlotContext): Table | null {
  return tableOf(runs, context, 'bottleneck');
}

/** Each flow's share of the bottleneck's capacity per bin, stacked. */
export const sharePlot: PlotDef = {
  yTick: (v) => formatNumber(v, 4),

  yExtent(runs, t0, t1, context) {
    const t = shareTable(runs, context);
    if (!t) return [0, 100];
    const steps = bandwidthSteps(context.scenario);
    const [j0, j1] = visibleBins(t, t0, t1);
    let hi = 1;
    for (let j = j0; j < j1; j += 1) {
      hi = Math.max(hi, linkUsed(t, j, steps));
    }
    // 100 % at the top (the plot adds 6 % above the extent); more only for a bin that
    // carried a packet more than its width allows.
    return [0, (100 * Math.min(hi, 1.5)) / 1.06];
  },

  draw(f) {
    const { ctx, runs, context } = f;
    const t = shareTable(runs, context);
    if (!t) return;
    const steps = bandwidthSteps(context.scenario);
    const [j0, j1] = visibleBins(t, f.t0, f.t1);
    const n = Math.max(0, j1 - j0);
    const stack = stackOf(t, runs);
    const below = new Float64Array(n);
    const xs = new Float64Array(n + 1);
    for (let k = 0; k <= n; k += 1) xs[k] = f.x(Math.min(t.bins.start(j0 + k), t.covered));
    const labels: { text: string; color: string; x: number; y: number }[] = [];
    for (const layer of stack) {
      const top = new Float64Array(n);
      for (let k = 0; k < n; k += 1) {
        const share = shareOfCapacity(t.bins, layer.c, j0 + k, t.covered, steps);
        top[k] = (below[k] ?? 0) + (Number.isFinite(share) ? share * 100 : 0);
      }
      // One polygon per layer: along its top, then back along the layer below.
      ctx.beginPath();
      for (let k = 0; k < n; k += 1) {
        const y = f.y(top[k] ?? 0);
        if (k === 0) ctx.moveTo(xs[k] ?? 0, y);
        else ctx.lineTo(xs[k] ?? 0, y);
        ctx.lineTo(xs[k + 1] ?? 0, y);
      }
      for (let k = n - 1; k >= 0; k -= 1) {
        const y = f.y(below[k] ?? 0);
        ctx.lineTo(xs[k + 1] ?? 0, y);
        ctx.lineTo(xs[k] ?? 0, y);
      }
      ctx.closePath();
      ctx.globalAlpha = layer.run ? 0.55 : 0.8;
      ctx.fillStyle = layer.color;
      ctx.fill();
      ctx.globalAlpha = 1;
      // The layer's top edge in its colour and dash, where the layer has any thickness
      // (bands differ by more than colour; an empty band draws nothing over the others).
      ctx.beginPath();
      let pen = false;
      for (let k = 0; k < n; k += 1) {
        if (!((top[k] ?? 0) > (below[k] ?? 0))) {
          pen = false;
          continue;
        }
        const y = f.y(top[k] ?? 0);
        if (pen) ctx.lineTo(xs[k] ?? 0, y);
        else ctx.moveTo(xs[k] ?? 0, y);
        ctx.lineTo(xs[k + 1] ?? 0, y);
        pen = true;
      }
      ctx.strokeStyle = layer.color;
      ctx.lineWidth = lw(1.25);
      ctx.setLineDash(layer.run?.style.dash ?? []);
      ctx.stroke();
      ctx.setLineDash([]);
      // Named in the middle of its band at the last bin, where the band is tall enough.
      if (n > 0 && layer.name) {
        const k = n - 1;
        const mid = ((top[k] ?? 0) + (below[k] ?? 0)) / 2;
        if (f.y(below[k] ?? 0) - f.y(top[k] ?? 0) >= 9) {
          labels.push({ text: layer.name, color: layer.color, x: xs[n] ?? f.width, y: f.y(mid) + 7 });
        }
      }
      below.set(top);
    }
    referenceLine(f, 100, 'link capacity', [5, 4]);
    const d = deliveredTable(runs, context);
    if (d) {
      const y = stepLine(f, d, j0, j1, (j) => 100 * deliveredShare(d, j, steps), {
        color: '#111111',
        dash: [6, 3],
        width: 2,
      });
      if (Number.isFinite(y)) labels.push({ text: 'delivered', color: '#111111', x: xs[n] ?? f.width, y });
    }
    drawEndLabels(ctx, labels, f);
  },

  readout(runs, at, context) {
    const t = shareTable(runs, context);
    const j = t ? binAt(t, at) : -1;
    if (!t || j < 0)
      return runs.map((r) => ({ key: r.key, label: r.label, color: r.style.color, text: 'no data yet' }));
    const steps = bandwidthSteps(context.scenario);
    const used = linkUsed(t, j, steps);
    const lines: ReadoutLine[] = runs.map((run) => {
      const c = flowClassIndex(t.classes, run.flow ?? 0);
      return {
        key: run.key,
        label: run.label,
        color: run.style.color,
        text: pct(c < 0 ? NaN : shareOfCapacity(t.bins, c, j, t.covered, steps)),
      };
    });
    const d = deliveredTable(runs, context);
    const delivered = d ? ` · delivered ${pct(deliveredShare(d, j, steps))}` : '';
    lines.push({
      key: 'used',
      label: 'link used',
      color: '#333333',
      text: `${pct(used)}${delivered} (${binText(t, j)})`,
    });
    return lines;
  },

  describe(runs, context) {
    const t = shareTable(runs, context);
    if (!t || t.covered <= 0) return 'Each flow’s share of the bottleneck’s capacity per bin, stacked: running.';
    const steps = bandwidthSteps(context.scenario);
    // Over the run: bytes over what the link could carry until the data's end.
    const capacity = capacityBytes(steps, 0, t.covered);
    const whole = (bytes: number) => (capacity > 0 ? bytes / capacity : NaN);
    const parts = runs.map((run) => {
      const c = flowClassIndex(t.classes, run.flow ?? 0);
      return `${run.label} ${pct(c < 0 ? NaN : whole(t.bins.total(c)))}`;
    });
    let used = 0;
    for (let c = 0; c < t.classes.length; c += 1) used += t.bins.total(c);
    const d = deliveredTable(runs, context);
    let delivered = 0;
    d?.classes.forEach((cls, c) => {
      if (cls.kind === 'flow') delivered += d.bins.total(c);
    });
    const cross = crossOf(context.scenario).length > 0 ? ', cross traffic on top' : '';
    return (
      `Each flow’s share of the bottleneck’s capacity per ${formatDuration(t.bins.width)} bin, stacked ` +
      `(bytes across the bottleneck, retransmissions included${cross}); the stack’s height is the link’s use, ` +
      `the dashed line the payload the flows delivered. Over the run: ${parts.join(', ')}; link used ` +
      `${pct(whole(used))}, delivered ${pct(d ? whole(delivered) : NaN)}.`
    );
  },
};

/** The delivered bytes of the same bins (the share plot's dashed line, the fairness plot). */
function deliveredTable(runs: readonly PlotRun[], context: PlotContext): Table | null {
  return tableOf(runs, context, 'delivered');
}

/** Every flow's delivered payload in bin j as a share of the link's capacity. */
function deliveredShare(t: Table, j: number, steps: readonly [number, number][]): number {
  let share = 0;
  let any = false;
  t.classes.forEach((cls, c) => {
    if (cls.kind !== 'flow') return;
    const v = shareOfCapacity(t.bins, c, j, t.covered, steps);
    if (Number.isFinite(v)) {
      share += v;
      any = true;
    }
  });
  return any ? share : NaN;
}

// ---- Jain's fairness index ----

/** Jain's index per bin (delivered bytes of the flows active in it) and its inputs. */
function jainSeries(t: Table, context: PlotContext) {
  const spans = flowSpans(context.scenario, t.summary);
  const flowClass = flowsOf(context.scenario).map((_, i) => flowClassIndex(t.classes, i));
  return {
    spans,
    at: (j: number) => jainInBin(t.bins, flowClass, spans, j),
    active: (j: number) => spans.filter((s) => activeIn(s, t.bins.start(j), t.bins.start(j + 1))).length,
  };
}

/** Jain's fairness index over time and for the whole run. */
export const fairnessPlot: PlotDef = {
  yTick: (v) => formatNumber(v, 3),

  yExtent() {
    return [0, 1 / 1.06];
  },

  draw(f) {
    const { runs, context } = f;
    const t = deliveredTable(runs, context);
    if (!t) return;
    const n = flowsOf(context.scenario).length;
    const series = jainSeries(t, context);
    const [j0, j1] = visibleBins(t, f.t0, f.t1);
    stepLine(f, t, j0, j1, series.at, { color: '#111111', dash: [], width: 2 });
    // The references over the data, so their names stay readable.
    if (n > 1) referenceLine(f, 1 / n, `1/${n}: one flow takes all`, [2, 3]);
    const whole = t.summary ? runJainIndex(context.scenario, t.summary) : NaN;
    if (Number.isFinite(whole)) referenceLine(f, whole, `whole run ${formatNumber(whole, 4)}`, [8, 4]);
  },

  readout(runs, at, context) {
    const t = deliveredTable(runs, context);
    const j = t ? binAt(t, at) : -1;
    if (!t || j < 0) return [{ key: 'jain', label: 'Jain', color: '#111111', text: 'no data yet' }];
    const s = jainSeries(t, context);
    const v = s.at(j);
    return [
      {
        key: 'jain',
        label: 'Jain',
        color: '#111111',
        text: `${Number.isFinite(v) ? formatNumber(v, 4) : '— (no bytes)'} over ${s.active(j)} active flows (${binText(t, j)})`,
      },
    ];
  },

  describe(runs, context) {
    const t = deliveredTable(runs, context);
    if (!t || t.covered <= 0) return 'Jain’s fairness index over time: running.';
    const s = jainSeries(t, context);
    const [j0, j1] = visibleBins(t, 0, t.covered);
    let lo = Infinity;
    let loAt = NaN;
    for (let j = j0; j < j1; j += 1) {
      const v = s.at(j);
      if (v < lo) {
        lo = v;
        loAt = t.bins.start(j);
      }
    }
    const whole = t.summary ? runJainIndex(context.scenario, t.summary) : NaN;
    const low = Number.isFinite(lo) ? `; lowest ${formatNumber(lo, 3)} in the bin from ${formatNumber(loAt, 6)} s` : '';
    return (
      `Jain’s fairness index per ${formatDuration(t.bins.width)} bin over the flows active in it, of their bytes ` +
      `delivered (1 = equal shares, 1/n = one of n flows takes all); whole run ${formatNumber(whole, 3)}${low}.`
    );
  },
};

// ---- retransmitted fraction ----

function packetsOf(runs: readonly PlotRun[], context: PlotContext): { run: PlotRun; b: PacketBins }[] {
  return runs.map((run) => ({ run, b: packetBins(run.trace, wantedBinWidth(context, run)) }));
}

/** The runs' packet-count bins: the throughput plot's width, up to the time reached. */
function packetGrid(runs: readonly PlotRun[], context: PlotContext): CoveredBins {
  const first = runs[0];
  const width = first ? wantedBinWidth(context, first) : 1;
  return { bins: { width, start: (j) => j * width }, covered: first ? first.trace.now : 0 };
}

function sumAt(list: { b: PacketBins }[], j: number): { retx: number; sent: number } {
  let retx = 0;
  let sent = 0;
  for (const { b } of list) {
    retx += b.retxAt(j);
    sent += b.sentAt(j);
  }
  return { retx, sent };
}

/** The shown flows' retransmitted fraction, per bin and together. */
export const retxPlot: PlotDef = {
  yTick: (v) => formatNumber(v, 4),

  yExtent(runs, t0, t1, context) {
    const g = packetGrid(runs, context);
    let hi = 0;
    const list = packetsOf(runs, context);
    const [j0, j1] = visibleBins(g, t0, t1);
    for (const { b } of list) {
      for (let j = j0; j < j1; j += 1) {
        const s = b.sentAt(j);
        if (s > 0) hi = Math.max(hi, b.retxAt(j) / s);
      }
    }
    // At most 100 % at the top (the plot adds 6 % above the extent).
    return [0, (100 * Math.min(1, Math.max(0.01, hi))) / 1.06];
  },

  draw(f) {
    const { runs, context } = f;
    const g = packetGrid(runs, context);
    const list = packetsOf(runs, context);
    const [j0, j1] = visibleBins(g, f.t0, f.t1);
    const n = Math.max(0, j1 - j0);
    const ts = new Float64Array(n);
    for (let k = 0; k < n; k += 1) ts[k] = g.bins.start(j0 + k);
    const labels: { text: string; color: string; x: number; y: number }[] = [];
    const endT = Math.min(g.covered, g.bins.start(j1));
    const line = (value: (j: number) => number, look: StrokeLook, name: string) => {
      const vs = new Float64Array(n);
      for (let k = 0; k < n; k += 1) vs[k] = value(j0 + k);
      const y = strokeStep(f, ts, vs, n, endT, look);
      if (Number.isFinite(y)) labels.push({ text: name, color: look.color, x: f.x(endT), y });
    };
    const frac = (retx: number, sent: number) => (sent > 0 ? (100 * retx) / sent : NaN);
    for (const { run, b } of list) {
      line(
        (j) => frac(b.retxAt(j), b.sentAt(j)),
        { color: run.style.color, dash: run.style.dash, width: 1.75 },
        `f${run.flow ?? 0}`,
      );
    }
    if (list.length > 1) {
      line(
        (j) => {
          const s = sumAt(list, j);
          return frac(s.retx, s.sent);
        },
        { color: '#111111', dash: [6, 3], width: 1.5 },
        'all',
      );
    }
    drawEndLabels(f.ctx, labels, f);
  },

  readout(runs, at, context) {
    const g = packetGrid(runs, context);
    const list = packetsOf(runs, context);
    if (runs.length === 0 || at < 0 || at > g.covered || g.covered <= 0) {
      return runs.map((r) => ({ key: r.key, label: r.label, color: r.style.color, text: 'no data yet' }));
    }
    const j = binUnder(g, at);
    const text = (retx: number, sent: number) =>
      sent > 0 ? `${formatNumber((100 * retx) / sent, 3)} % (${retx} of ${sent} packets)` : 'no packets sent';
    const lines: ReadoutLine[] = list.map(({ run, b }) => ({
      key: run.key,
      label: run.label,
      color: run.style.color,
      text: text(b.retxAt(j), b.sentAt(j)),
    }));
    const s = sumAt(list, j);
    lines.push({
      key: 'all',
      label: 'shown flows',
      color: '#111111',
      text: `${text(s.retx, s.sent)} (${binText(g, j)})`,
    });
    return lines;
  },

  describe(runs, context) {
    const summary = runs.find((r) => r.summary)?.summary;
    const g = packetGrid(runs, context);
    if (!summary) return 'Retransmitted fraction of each flow over time: running.';
    const fr = retransmittedFractions(summary);
    const parts = runs.map((r) => `${r.label} ${pct(fr.flows[r.flow ?? 0] ?? NaN)}`);
    return (
      `Retransmitted fraction (retransmissions over data packets sent) per ${formatDuration(g.bins.width)} bin, one line ` +
      `per flow, the shown flows together dashed. Whole run: ${parts.join(', ')}; every flow ${pct(fr.total)}.`
    );
  },
};
