// Every plot kind of the page, in one place: the time plots by definition (what they draw,
// their title, size), the thin-stream CDF group, and for each the engine's trace tables it
// draws from — what the Export panel offers as "the data behind the plot" (the engine's
// export table names, checked against `export_tables_json()` by registry.test.ts; the
// engine writes the files, named and with the columns of `cwndlab run --out DIR`).
import type { Mode } from '../scenario/competition';
import { COMPETITION_PLOTS, type PlotId } from '../scenario/shareState';
import type { PlotDef } from './core/types';
import { unitLabel, type WindowUnit } from '../lib/units';
import { lazyModule, loadedModule, type LazyModule } from './core/lazyModule';
import { queuePlot } from './queuePlot';
import { queueDelayPlot } from './queueDelayPlot';
import { rttPlot } from './rttPlot';
import { seqPlot } from './seqPlot';
import { throughputPlot } from './throughputPlot';
import { windowPlot } from './windowPlot';

// The plots the default view does not show are chunks of their own, loaded when first shown
// (core/lazyModule.ts); the three competition plots share one.
const competitionPlots = () => import('./competitionPlots');

/** The plots on the shared time axis. */
export type TimePlotId = Exclude<PlotId, 'thin' | 'rounds' | 'transfers'>;

/** A time plot kind. */
export interface TimePlotKind {
  /** How it draws: part of the page's script, or loaded when first shown. */
  plot: LazyModule<PlotDef>;
  title: string;
  /** The y axis's unit, in the plot's title ("Throughput (Mbit/s)"); `PAGE_UNIT`: the
   *  page's unit for windows and sequence numbers (`unit=`: segments or bytes; see
   *  `plotUnit`). */
  unit: string | typeof PAGE_UNIT;
  /** Short name for the keyboard help ("congestion window"). */
  name: string;
  size: 'tall' | 'medium' | 'short';
  /** The engine's trace tables it draws from (export table names). */
  tables: readonly string[];
}

/** A plot whose y axis is in the page's unit for windows and sequence numbers. */
export const PAGE_UNIT = Symbol('the page’s window unit');

/** A time plot's unit in its title: its own, or the page's unit for windows. */
export function plotUnit(kind: TimePlotKind, unit: WindowUnit): string {
  return kind.unit === PAGE_UNIT ? unitLabel(unit) : kind.unit;
}

/** Every time plot kind. */
export const TIME_PLOTS: Record<TimePlotId, TimePlotKind> = {
  // The window lines, and W_used / pipeACK for runs with an idle policy (its marks are rows
  // of the event log, which the time–sequence plot's data and "All data" hold).
  window: {
    plot: loadedModule(windowPlot),
    title: 'Congestion window',
    unit: PAGE_UNIT,
    name: 'congestion window',
    size: 'tall',
    tables: ['series', 'validation'],
  },
  seq: {
    plot: loadedModule(seqPlot),
    title: 'Time–sequence',
    unit: PAGE_UNIT,
    name: 'time–sequence',
    size: 'tall',
    tables: ['events'],
  },
  queue: {
    plot: loadedModule(queuePlot),
    title: 'Bottleneck queue',
    unit: 'packets',
    name: 'queue',
    size: 'short',
    tables: ['queues'],
  },
  qdelay: {
    plot: loadedModule(queueDelayPlot),
    title: 'Queueing delay at the bottleneck',
    unit: 'ms',
    name: 'queueing delay',
    size: 'short',
    tables: ['queues'],
  },
  throughput: {
    plot: loadedModule(throughputPlot),
    title: 'Throughput',
    unit: 'Mbit/s',
    name: 'throughput',
    size: 'medium',
    tables: ['throughput'],
  },
  share: {
    plot: lazyModule(() => competitionPlots().then((m) => m.sharePlot)),
    title: 'Share of the bottleneck',
    unit: '% of link',
    name: 'share of the bottleneck',
    size: 'medium',
    tables: ['throughput'],
  },
  fairness: {
    plot: lazyModule(() => competitionPlots().then((m) => m.fairnessPlot)),
    title: 'Jain’s fairness index',
    unit: '1 = equal shares',
    name: 'fairness index',
    size: 'short',
    tables: ['throughput'],
  },
  // Data packets and retransmissions per bin: the event log's sends and retransmissions.
  retx: {
    plot: lazyModule(() => competitionPlots().then((m) => m.retxPlot)),
    title: 'Retransmitted fraction',
    unit: '% of data packets',
    name: 'retransmitted fraction',
    size: 'short',
    tables: ['events'],
  },
  // RTT samples from the event log; SRTT and RTO from the window series.
  rtt: {
    plot: loadedModule(rttPlot),
    title: 'Round-trip time: samples, SRTT and RTO',
    unit: 'ms',
    name: 'round-trip time',
    size: 'medium',
    tables: ['events', 'series'],
  },
  writes: {
    plot: lazyModule(() => import('./writesPlot').then((m) => m.writesPlot)),
    title: 'Writes',
    unit: 'latency ms',
    name: 'write timeline',
    size: 'medium',
    tables: ['writes'],
  },
  bbr: {
    plot: lazyModule(() => import('./bbrPlot').then((m) => m.bbrPlot)),
    title: 'BBR’s model: bandwidth estimate and pacing rate',
    unit: 'Mbit/s',
    name: 'BBR’s model',
    size: 'medium',
    tables: ['events'],
  },
};

/** The thin-stream CDFs (ThinPlots.tsx): sojourn and latency from the write table, payload
 *  and inter-transmission time from the event log's sends and retransmissions. */
export const THIN_PLOTS_KIND = { title: 'Thin stream: CDFs', tables: ['writes', 'events'] } as const;

/** The rounds view (RoundsPlots.tsx, roundsPlot.ts): cwnd and ssthresh per transmission
 *  round, x = the round number, on the shared cursor through each round's time span; the
 *  engine's `rounds` table (`Sim.rounds_json`, the rounds of each flow). */
export const ROUNDS_KIND = {
  title: 'Rounds: cwnd and ssthresh per round',
  name: 'rounds',
  tables: ['rounds'],
} as const;

/** The transfers view (TransfersPlots.tsx): the CDF of the short transfers' completion
 *  times, one line per run (cdfPlot.ts, kind `transfer`), their count, mean and percentiles,
 *  and the ping sources' round trips, all read from the engine's summary; the engine's
 *  `transfers` and `pings` tables hold the same rows. */
export const TRANSFERS_KIND = {
  title: 'Transfers: completion times',
  name: 'transfers',
  tables: ['transfers', 'pings'],
} as const;

/** The views that are not time plots, by id. */
const OTHER_KINDS = { thin: THIN_PLOTS_KIND, rounds: ROUNDS_KIND, transfers: TRANSFERS_KIND } as const;

/** The title of a plot kind. */
export function plotTitle(id: PlotId): string {
  return id in OTHER_KINDS ? OTHER_KINDS[id as keyof typeof OTHER_KINDS].title : TIME_PLOTS[id as TimePlotId].title;
}

/** The engine tables a plot kind draws from. */
export function plotTables(id: PlotId): readonly string[] {
  return id in OTHER_KINDS ? OTHER_KINDS[id as keyof typeof OTHER_KINDS].tables : TIME_PLOTS[id as TimePlotId].tables;
}

/** The plots of `plots` the page shows in `mode`: the competition plots only in a
 *  competition. */
export function shownPlots(plots: readonly PlotId[], mode: Mode): PlotId[] {
  return plots.filter((p) => mode === 'compete' || !COMPETITION_PLOTS.includes(p));
}
