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
import { decimateLine } from './core/decimate';
import type { DrawFrame, PlotContext, PlotDef, PlotRun } from './core/types';
import { strokePolyline } from './layers';
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

/** Plotted bins [j0, j1) that overlap [t0, t1] and hold data. */
function visibleBins(b: RunBins, t0: number, t1: number): [number, number] {
  const w = b.bins.width;
  const last = Math.ceil(b.covered / w - 1e-9);
  return [Math.max(0, Math.floor(t0 / w)), Math.max(0, Math.min(last, Math.ceil(t1 / w + 1e-9)))];
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

/** The throughput plot definition. */
export const throughputPlot: PlotDef = {
  yLabel: 'Mbit/s',
  yTick: (v) => formatNumber(v, 4),

  yExtent(runs, t0, t1, context) {
    let hi = 0;
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
    return [0, hi / MBIT];
  },

  draw(f) {
    const { ctx, runs, context } = f;
    const labels: { text: string; color: string; x: number; y: number }[] = [];
    runs.forEach((run, r) => {
      const b = runBins(run, context);
      if (!b) return;
      const [j0, j1] = visibleBins(b, f.t0, f.t1);
      const n = Math.max(0, j1 - j0);
      const ts = new Float64Array(n);
      const vs = new Float64Array(n);
      const endT = Math.min(b.covered, b.bins.start(j1));
      for (const c of drawOrder(b.classes)) {
        const cls = b.classes[c] as TrafficClass;
        for (let k = 0; k < n; k += 1) {
          ts[k] = b.bins.start(j0 + k);
          vs[k] = b.bins.rate(c, j0 + k, b.covered) / MBIT;
        }
        const line = decimateLine(ts, vs, 0, n, f.xl, f.yl, { step: true, dpr: f.dpr, width: f.width, endT });
        const st = styleOf(cls, run, context.overlay);
        ctx.strokeStyle = st.color;
        ctx.lineWidth = st.width;
        ctx.setLineDash(st.dash);
        strokePolyline(ctx, line);
        ctx.setLineDash([]);
        // Names at the line ends: every class when one run is drawn; in an overlay the
        // algorithms' own lines are told apart by the legend, the others are named once.
        const named =
          b.classes.length > 1 && (!context.overlay || (r === 0 && !(cls.kind === 'flow' && cls.index === 0)));
        const lastY = line.n > 0 ? (line.ys[line.n - 1] ?? NaN) : NaN;
        if (named && Number.isFinite(lastY)) {
          labels.push({ text: shortName(cls), color: st.color, x: f.x(endT), y: lastY });
        }
      }
    });
    drawLabels(ctx, labels, f);
  },

  readout(runs, t, context) {
    return runs.map((run) => {
      const line = { key: run.key, label: run.label, color: run.style.color };
      const b = runBins(run, context);
      // Up to the run's current time (the play head) the last closed bins are read.
      if (!b || b.covered <= 0 || t > run.trace.now || t < 0) return { ...line, text: 'no data yet' };
      const w = b.bins.width;
      // The cursor at the end (or past the last closed bin) reads the last bin.
      const j = Math.min(Math.floor(t / w), Math.ceil(b.covered / w - 1e-9) - 1);
      const a = b.bins.start(j);
      const parts = b.classes.map((c, i) => `${shortName(c)} ${mbps(b.bins.rate(i, j, b.covered))}`);
      const end = Math.min(b.bins.start(j + 1), b.covered);
      return {
        ...line,
        text: `${parts.join(' · ')} Mbit/s (bin ${formatNumber(a, 6)}–${formatNumber(end, 6)} s)`,
      };
    });
  },

  describe(runs, context) {
    const what = THROUGHPUT_COLUMN_TEXT[context.throughputColumn];
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

/** Class names at the right end of their lines, on a white box, moved apart vertically
 *  when they would overlap. */
function drawLabels(
  ctx: CanvasRenderingContext2D,
  labels: { text: string; color: string; x: number; y: number }[],
  f: DrawFrame,
) {
  if (labels.length === 0) return;
  ctx.save();
  ctx.font = '600 10px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  const h = 13;
  const placed: number[] = [];
  for (const l of [...labels].sort((a, b) => a.y - b.y)) {
    const w = ctx.measureText(l.text).width + 6;
    const x = Math.max(2, Math.min(f.width - w - 2, l.x - w - 4));
    let y = Math.max(h / 2, Math.min(f.height - h / 2, l.y - h / 2 - 1));
    for (const p of placed) if (Math.abs(p - y) < h) y = p + h;
    y = Math.min(f.height - h / 2, y);
    placed.push(y);
    ctx.fillStyle = 'rgba(255,255,255,0.7)';
    ctx.fillRect(x, y - h / 2, w, h);
    ctx.fillStyle = l.color;
    ctx.fillText(l.text, x + 3, y);
  }
  ctx.restore();
}
