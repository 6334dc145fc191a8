// Throughput over time, in Mbit/s: one step line per traffic class of each run (the compared
// flow in its algorithm's colour, other flows grey, each cross-traffic source in its own
// dark colour and dash, every line named at its end), from the engine's binned byte counts
// added into wider bins (throughputBins.ts). It counts either the bytes delivered (goodput;
// UDP bytes at the sink) or the bytes that crossed the bottleneck (each class's share of
// the link), per bin of the width chosen under "View" (automatic: 1 s for runs of 10 s and
// more).
import { formatNumber } from '../scenario/params';
import { crossKindLabel, crossOf, trafficClasses, type TrafficClass } from '../scenario/cross';
import { durationOf, getAt } from '../scenario/paths';
import type { ThroughputColumn } from '../scenario/shareState';
import { crossStyle, OTHER_FLOW_STYLE, type ClassStyle } from '../lib/styles';
import { formatDuration } from '../lib/format';
import type { DrawFrame, PlotContext, PlotDef, PlotRun, ReadoutLine } from './core/types';
import { drawEndLabels, strokeStep, type StrokeLook } from './layers';
import { drawTheoryLines, theoryExtent } from '../theory/theoryLines';
import { autoBinWidth, binFactor, binnedThroughput, coveredUntil, type ThroughputBins } from './throughputBins';

/** What each column is called in text. */
export const THROUGHPUT_COLUMN_TEXT: Record<ThroughputColumn, string> = {
  delivered: 'delivered (goodput)',
  bottleneck: 'across the bottleneck',
};

/** Each column's short name (plot titles, the view controls). */
export const THROUGHPUT_COLUMN_SHORT: Record<ThroughputColumn, string> = {
  delivered: 'delivered',
  bottleneck: 'bottleneck share',
};

/** The engine's bin width for a run (its own, else the scenario's setting). */
function baseBin(context: PlotContext, run?: PlotRun): number {
  const b = run?.trace.throughput.bin ?? 0;
  if (b > 0) return b;
  const s = getAt(context.scenario, 'trace.throughput_bin');
  return typeof s === 'number' && s > 0 ? s : 0.01;
}

/** The bin width the plot draws, s: the chosen one (or the automatic one) as a whole
 *  number of engine bins. */
export function wantedBinWidth(context: PlotContext, run?: PlotRun): number {
  const base = baseBin(context, run);
  const want = context.throughputBin ?? autoBinWidth(durationOf(context.scenario, 1), base);
  return base * binFactor(base, want);
}

interface RunBins {
  run: PlotRun;
  bins: ThroughputBins;
  classes: TrafficClass[];
  covered: number;
}

function runBins(run: PlotRun, context: PlotContext): RunBins | null {
  if (!(run.trace.throughput.bin > 0)) return null;
  const bins = binnedThroughput(run.trace, wantedBinWidth(context, run), context.throughputColumn);
  return {
    run,
    bins,
    classes: trafficClasses(run.trace.throughput.classes),
    covered: coveredUntil(run.trace, durationOf(context.scenario, Infinity)),
  };
}

/** Plotted bins (their width and where each starts) and how far their data is complete: a
 *  run's throughput bins, the table a competition's flows share, or the packet counts' grid. */
export interface CoveredBins {
  bins: Pick<ThroughputBins, 'width' | 'start'>;
  covered: number;
}

/** Plotted bins [j0, j1) that overlap [t0, t1] and hold data. */
export function visibleBins(b: CoveredBins, t0: number, t1: number): [number, number] {
  const w = b.bins.width;
  const last = Math.ceil(b.covered / w - 1e-9);
  return [Math.max(0, Math.floor(t0 / w)), Math.max(0, Math.min(last, Math.ceil(t1 / w + 1e-9)))];
}

/** The plotted bin under the cursor t ≥ 0: the last closed one at or past the end of the
 *  data. */
export function binUnder(b: CoveredBins, t: number): number {
  const w = b.bins.width;
  return Math.min(Math.floor(t / w), Math.ceil(b.covered / w - 1e-9) - 1);
}

/** Bin j's time span as the readouts give it ("bin 2–3 s"), ending where the data does. */
export function binText(b: CoveredBins, j: number): string {
  const end = Math.min(b.bins.start(j + 1), b.covered);
  return `bin ${formatNumber(b.bins.start(j), 6)}–${formatNumber(end, 6)} s`;
}

/** Short name of a class on the plot ("flow 0", "cross 1"). */
function shortName(c: TrafficClass): string {
  return `${c.kind} ${c.index}`;
}

/** A class with what it is ("cross 0 (UDP CBR)"). */
function longName(c: TrafficClass, context: PlotContext): string {
  if (c.kind === 'flow') return shortName(c);
  const source = crossOf(context.scenario)[c.index];
  const back = source?.reverse === true ? ', ACK direction' : '';
  return `${shortName(c)} (UDP ${crossKindLabel(source?.kind)}${back})`;
}

function styleOf(c: TrafficClass, run: PlotRun, overlay: boolean): ClassStyle & { width: number } {
  if (c.kind === 'cross') return { ...crossStyle(c.index), width: 1.5 };
  if (c.index > 0) return { ...OTHER_FLOW_STYLE, width: 1.5 };
  return { color: run.style.color, dash: overlay ? run.style.dash : [], width: 2 };
}

/** Draw order: cross traffic underneath, the compared flow on top. */
function drawOrder(classes: TrafficClass[]): number[] {
  const rank = (c: TrafficClass) => (c.kind === 'cross' ? 0 : c.index > 0 ? 1 : 2);
  return classes.map((_, i) => i).sort((a, b) => rank(classes[a] as TrafficClass) - rank(classes[b] as TrafficClass));
}

const MBIT = 1e6;

function mbps(bps: number): string {
  return formatNumber(bps / MBIT, 4);
}

/** Mean rate of class c over what the table covers, bit/s. */
function meanRate(b: RunBins, c: number): number {
  return b.covered > 0 ? (b.bins.total(c) * 8) / b.covered : NaN;
}

/** The class index of flow i in a run's classes (-1 when absent). */
export function flowClassIndex(classes: readonly TrafficClass[], flow: number): number {
  return classes.findIndex((c) => c.kind === 'flow' && c.index === flow);
}

/** The colour of all flows together (the readout's last line). */
const TOTAL_COLOR = '#111111';

/** Sum of every flow class's bytes in bin j. */
function flowTotal(b: RunBins, j: number): number {
  let sum = 0;
  b.classes.forEach((c, i) => {
    if (c.kind === 'flow') sum += b.bins.at(i, j);
  });
  return sum;
}

/** The rate of all flows together in bin j, bit/s (NaN where the bin is not covered). */
function totalRate(b: RunBins, j: number): number {
  const a = b.bins.start(j);
  const e = Math.min(b.bins.start(j + 1), b.covered);
  return e > a ? (flowTotal(b, j) * 8) / (e - a) : NaN;
}

/** A competition: every shown flow's line in the flow's look (named fN at its end) and each
 *  cross source once (the flows share one table). All flows together are in the readout and
 *  the share plot (as a part of the link), not drawn here: with 16 flows their sum would
 *  squash every flow's line to the bottom. */
function drawCompetition(f: DrawFrame) {
  const { ctx, runs, context } = f;
  const first = runs[0];
  const b = first ? runBins(first, context) : null;
  if (!b) return;
  const [j0, j1] = visibleBins(b, f.t0, f.t1);
  const n = Math.max(0, j1 - j0);
  const ts = new Float64Array(n);
  const vs = new Float64Array(n);
  for (let k = 0; k < n; k += 1) ts[k] = b.bins.start(j0 + k);
  const endT = Math.min(b.covered, b.bins.start(j1));
  const labels: { text: string; color: string; x: number; y: number }[] = [];
  const stroke = (rate: (j: number) => number, st: StrokeLook, name: string) => {
    for (let k = 0; k < n; k += 1) vs[k] = rate(j0 + k) / MBIT;
    const lastY = strokeStep(f, ts, vs, n, endT, st);
    if (Number.isFinite(lastY)) labels.push({ text: name, color: st.color, x: f.x(endT), y: lastY });
  };
  b.classes.forEach((c, i) => {
    if (c.kind === 'cross')
      stroke((j) => b.bins.rate(i, j, b.covered), { ...crossStyle(c.index), width: 1.5 }, shortName(c));
  });
  for (const run of runs) {
    const c = flowClassIndex(b.classes, run.flow ?? 0);
    if (c < 0) continue;
    stroke(
      (j) => b.bins.rate(c, j, b.covered),
      { color: run.style.color, dash: run.style.dash, width: 2 },
      `f${run.flow ?? 0}`,
    );
  }
  drawEndLabels(ctx, labels, f);
}

/** The throughput plot definition. */
export const throughputPlot: PlotDef = {
  yTick: (v) => formatNumber(v, 4),

  yExtent(runs, t0, t1, context) {
    let hi = 0;
    if (context.competition) {
      const first = runs[0];
      const b = first ? runBins(first, context) : null;
      if (!b) return [0, 0];
      const [j0, j1] = visibleBins(b, t0, t1);
      const shown = new Set(runs.map((r) => r.flow ?? 0));
      for (let j = j0; j < j1; j += 1) {
        b.classes.forEach((c, i) => {
          if (c.kind === 'cross' || shown.has(c.index)) hi = Math.max(hi, b.bins.rate(i, j, b.covered) || 0);
        });
      }
      return [0, Math.max(hi, theoryExtent(runs, context)) / MBIT];
    }
    for (const run of runs) {
      const b = runBins(run, context);
      if (!b) continue;
      const [j0, j1] = visibleBins(b, t0, t1);
      for (let c = 0; c < b.classes.length; c += 1) {
        for (let j = j0; j < j1; j += 1) {
          const r = b.bins.rate(c, j, b.covered);
          if (r > hi) hi = r;
        }
      }
    }
    return [0, Math.max(hi, theoryExtent(runs, context)) / MBIT];
  },

  draw(f) {
    const { ctx, runs, context } = f;
    // The models' estimates under the data (theory=1).
    drawTheoryLines(f);
    if (context.competition) {
      drawCompetition(f);
      return;
    }
    const labels: { text: string; color: string; x: number; y: number }[] = [];
    runs.forEach((run, r) => {
      const b = runBins(run, context);
      if (!b) return;
      const [j0, j1] = visibleBins(b, f.t0, f.t1);
      const n = Math.max(0, j1 - j0);
      const ts = new Float64Array(n);
      const vs = new Float64Array(n);
      const endT = Math.min(b.covered, b.bins.start(j1));
      for (let k = 0; k < n; k += 1) ts[k] = b.bins.start(j0 + k);
      for (const c of drawOrder(b.classes)) {
        const cls = b.classes[c] as TrafficClass;
        for (let k = 0; k < n; k += 1) vs[k] = b.bins.rate(c, j0 + k, b.covered) / MBIT;
        const st = styleOf(cls, run, context.overlay);
        const lastY = strokeStep(f, ts, vs, n, endT, st);
        // Names at the line ends: every class when one run is drawn; in an overlay the
        // algorithms' own lines are told apart by the legend, the others are named once.
        const named =
          b.classes.length > 1 && (!context.overlay || (r === 0 && !(cls.kind === 'flow' && cls.index === 0)));
        if (named && Number.isFinite(lastY)) {
          labels.push({ text: shortName(cls), color: st.color, x: f.x(endT), y: lastY });
        }
      }
    });
    drawEndLabels(ctx, labels, f);
  },

  readout(runs, t, context) {
    if (context.competition) return competitionReadout(runs, t, context);
    return runs.map((run) => {
      const line = { key: run.key, label: run.label, color: run.style.color };
      const b = runBins(run, context);
      // Up to the run's current time (the play head) the last closed bins are read.
      if (!b || b.covered <= 0 || t > run.trace.now || t < 0) return { ...line, text: 'no data yet' };
      // The cursor at the end (or past the last closed bin) reads the last bin.
      const j = binUnder(b, t);
      const parts = b.classes.map((c, i) => `${shortName(c)} ${mbps(b.bins.rate(i, j, b.covered))}`);
      return { ...line, text: `${parts.join(' · ')} Mbit/s (${binText(b, j)})` };
    });
  },

  describe(runs, context) {
    const what = THROUGHPUT_COLUMN_TEXT[context.throughputColumn];
    if (context.competition) {
      const first = runs[0];
      const b = first ? runBins(first, context) : null;
      if (!b || b.covered <= 0) return `Throughput of each flow over time in Mbit/s, bytes ${what}: running.`;
      const parts = runs.map((run) => {
        const c = flowClassIndex(b.classes, run.flow ?? 0);
        return `${run.label} mean ${mbps(c < 0 ? NaN : meanRate(b, c))} Mbit/s`;
      });
      let total = 0;
      b.classes.forEach((c, i) => {
        if (c.kind === 'flow') total += b.bins.total(i);
      });
      const cross = b.classes.flatMap((c, i) =>
        c.kind === 'cross' ? [`${longName(c, context)} mean ${mbps(meanRate(b, i))} Mbit/s`] : [],
      );
      return (
        `Throughput of each flow over time in Mbit/s, bytes ${what} per ${formatDuration(b.bins.width)} bin, ` +
        `one line per flow (named f and its number at its end). ` +
        `${[...parts, `all flows mean ${mbps((total * 8) / b.covered)} Mbit/s`, ...cross].join('; ')}.`
      );
    }
    let width = NaN;
    const parts = runs.map((run) => {
      const b = runBins(run, context);
      if (!b || b.covered <= 0) return `${run.label}: running`;
      width = b.bins.width;
      const means = b.classes.map((c, i) => `${longName(c, context)} mean ${mbps(meanRate(b, i))} Mbit/s`);
      return `${run.label}: ${means.join(', ')}`;
    });
    const per = Number.isFinite(width) ? ` per ${formatDuration(width)} bin` : '';
    return `Throughput over time in Mbit/s, bytes ${what}${per}, one line per traffic class. ${parts.join('; ')}.`;
  },
};

/** A competition's readout: each shown flow's rate in the bin under the cursor, then all
 *  flows together and each cross source. */
function competitionReadout(runs: PlotRun[], t: number, context: PlotContext): ReadoutLine[] {
  const first = runs[0];
  const b = first ? runBins(first, context) : null;
  if (!first || !b || b.covered <= 0 || t > first.trace.now || t < 0) {
    return runs.map((run) => ({ key: run.key, label: run.label, color: run.style.color, text: 'no data yet' }));
  }
  const j = binUnder(b, t);
  const lines: ReadoutLine[] = runs.map((run) => {
    const c = flowClassIndex(b.classes, run.flow ?? 0);
    return {
      key: run.key,
      label: run.label,
      color: run.style.color,
      text: `${mbps(c < 0 ? NaN : b.bins.rate(c, j, b.covered))} Mbit/s`,
    };
  });
  lines.push({
    key: 'all',
    label: 'all flows',
    color: TOTAL_COLOR,
    text: `${mbps(totalRate(b, j))} Mbit/s (${binText(b, j)})`,
  });
  b.classes.forEach((c, i) => {
    if (c.kind === 'cross') {
      lines.push({
        key: c.name,
        label: shortName(c),
        color: crossStyle(c.index).color,
        text: `${mbps(b.bins.rate(i, j, b.covered))} Mbit/s`,
      });
    }
  });
  return lines;
}
