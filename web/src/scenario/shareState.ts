// What a shared link carries besides the scenario: the algorithms compared and the view.
import { tables, type Scenario } from '../engine/tables';
import { DEFAULT_SELECTION, type AlgorithmName } from './algorithms';
import type { Mode } from './competition';
import type { PracticeLink } from '../practice/link';
import type { SheetLink } from '../sheet/link';
import type { TextbookConventionName } from '../engine/pkg/vocabulary';
import type { SweepLink } from '../sweep/link';
import { DEFAULT_UNIT, type WindowUnit } from '../lib/units';

/** The plots a page can show: time plots on the shared cursor (`share`, `fairness` and
 *  `retx` only in competition mode; `rtt`, the RTT samples with SRTT and RTO, in both), then
 *  the thin-stream CDFs (`thin`, four panels whose x axis is a value), then BBR's model
 *  (`bbr`: BtlBw and the pacing rate; added last, so the lists' order, which is the page's,
 *  stays that of earlier pages; a link names its plots, so old links mean what they did), then
 *  the rounds view (`rounds`: cwnd and ssthresh per transmission round, the engine's rounds;
 *  added last for the same reason), then the transfers view (`transfers`: the short
 *  transfers' completion times and the ping probes' round trips; last, likewise). */
export type PlotId =
  | 'window'
  | 'seq'
  | 'queue'
  | 'qdelay'
  | 'throughput'
  | 'share'
  | 'fairness'
  | 'retx'
  | 'rtt'
  | 'writes'
  | 'thin'
  | 'bbr'
  | 'rounds'
  | 'transfers';
/** Every plot, in page order. */
export const PLOT_IDS: readonly PlotId[] = [
  'window',
  'seq',
  'queue',
  'qdelay',
  'throughput',
  'share',
  'fairness',
  'retx',
  'rtt',
  'writes',
  'thin',
  'bbr',
  'rounds',
  'transfers',
];
/** The plots about flows sharing the bottleneck: drawn and offered in competition mode only
 *  (a comparison link may name them; they show once the page competes). */
export const COMPETITION_PLOTS: readonly PlotId[] = ['share', 'fairness', 'retx'];
/** The plots a link without `plots=` shows (the throughput plot is added by choice, by a
 *  preset with cross traffic, or by adding cross traffic; the write timeline and the
 *  thin-stream CDFs by choice, by a preset whose sender writes, or by choosing such an
 *  application; BBR's model and the queueing delay by choice, by a preset with a BBR run, or
 *  by adding a BBR run: scenario/bbr.ts). */
export const DEFAULT_PLOTS: readonly PlotId[] = ['window', 'seq', 'queue'];
/** The plots a competition link without `plots=` shows: the windows, the queue, and what the
 *  flows got (throughput, share of the link, fairness, retransmitted fraction). */
export const DEFAULT_COMPETITION_PLOTS: readonly PlotId[] = [
  'window',
  'queue',
  'throughput',
  'share',
  'fairness',
  'retx',
];
/** Several algorithms (flows) drawn in one plot, or one plot per algorithm (flow). */
export type Layout = 'overlay' | 'multiples';
/** Every layout. */
export const LAYOUTS: readonly Layout[] = ['multiples', 'overlay'];

/** The plots shown when a link does not say (per mode). */
export function defaultPlots(mode: Mode): PlotId[] {
  return [...(mode === 'compete' ? DEFAULT_COMPETITION_PLOTS : DEFAULT_PLOTS)];
}

/** The layout used when a link does not say: small multiples for a comparison, every flow
 *  overlaid in a competition (a plot per flow is a choice: 16 flows make 16 plots). */
export function defaultLayout(mode: Mode): Layout {
  return mode === 'compete' ? 'overlay' : 'multiples';
}
/** Which bytes the throughput plot counts: delivered to the receiver (goodput; UDP bytes at
 *  the sink), or sent across the bottleneck (each class's share of the link). */
export type ThroughputColumn = 'delivered' | 'bottleneck';
/** Every throughput column, the default first. */
export const THROUGHPUT_COLUMNS: readonly ThroughputColumn[] = ['delivered', 'bottleneck'];
/** The x axis of the thin-stream CDFs: linear from 0, or logarithmic (ITT, sojourn and
 *  latency span orders of magnitude; zeros are drawn at the axis start, cdfPlot.ts). */
export type CdfScale = 'linear' | 'log';
/** Every CDF x scale, the default first. */
export const CDF_SCALES: readonly CdfScale[] = ['linear', 'log'];

/** Everything a link reproduces. */
export interface ShareState {
  scenario: Scenario;
  /** Compare the algorithms (each alone on flow 0), or let the scenario's flows compete. */
  mode: Mode;
  /** The compared algorithms (kept in competition mode, for going back). */
  algorithms: AlgorithmName[];
  /** Pinned cursor, seconds of simulated time. */
  cursor: number | null;
  /** Zoomed time range in seconds; null = the whole run. */
  xDomain: [number, number] | null;
  layout: Layout;
  plots: PlotId[];
  /** The preset whose lesson the page shows, or null. */
  lesson: string | null;
  /** The preset the scenario came from (`preset=`), while it is still recognisable
   *  (scenario/presets.ts `presetStatus`), or null. */
  preset: string | null;
  /** Bin width of the throughput plot, s; null = chosen from the run's duration. */
  throughputBin: number | null;
  throughputColumn: ThroughputColumn;
  /** The thin-stream CDFs' x axis (`cdfx=` in the link). */
  cdfScale: CdfScale;
  /** The unit of every window and byte count on the page (`unit=` in the link; web/src/lib/
   *  units.ts): segments by default. A view key: old links open in segments, as before. */
  unit: WindowUnit;
  /** Flows hidden from the plots (competition mode; flow indices, ascending). */
  hidden: number[];
  /** The selected decision (`why=key:index`): a run's key (an algorithm, or `flow<i>` in a
   *  competition) and the decision's index among that run's decisions. */
  why: DecisionRef | null;
  /** Predict-then-reveal practice (`practice=predict…`; web/src/practice/link.ts), or null. */
  practice: PracticeLink | null;
  /** Projector mode (`projector=1`): large type, thick lines, high contrast. A view key: old
   *  links, which do not have it, open without it. */
  projector: boolean;
  /** The exercise sheet shown (`sheet=N` or `sheet=N:C`; web/src/sheet), or null. */
  sheet: SheetLink | null;
  /** The textbook round model beside the rounds view (`tb=NAME`; web/src/textbook), or null. */
  textbook: TextbookConventionName | null;
  /** Mathis and Padhye reference lines on the throughput plot (`theory=1`; web/src/theory). */
  theory: boolean;
  /** The sweep view (`sweep=PATH:FROM:TO:N[:log]` or `PATH:V1,V2`, `sweepseeds`, `sweepalg`, `sweepm`;
   *  web/src/sweep/link.ts), or null when it is closed. */
  sweep: SweepLink | null;
}

/** A decision of a run: the run's key and the decision's index in the run. */
export interface DecisionRef {
  key: string;
  index: number;
}

/** The scenario the app opens on: the engine's default. */
export function defaultScenario(): Scenario {
  return structuredClone(tables.defaultScenario);
}

/** The page with no query string. */
export function defaultShareState(): ShareState {
  return {
    scenario: defaultScenario(),
    mode: 'compare',
    algorithms: [...DEFAULT_SELECTION],
    cursor: null,
    xDomain: null,
    layout: 'multiples',
    plots: [...DEFAULT_PLOTS],
    lesson: null,
    preset: null,
    throughputBin: null,
    throughputColumn: 'delivered',
    cdfScale: 'linear',
    unit: DEFAULT_UNIT,
    hidden: [],
    why: null,
    practice: null,
    projector: false,
    sheet: null,
    theory: false,
    textbook: null,
    sweep: null,
  };
}

/** A message for the person reading the page: something in their link was not used. */
export interface Notice {
  /** The URL key or parameter it is about ('' for the whole link). */
  key: string;
  message: string;
  /** Technical details, shown folded under the message (an engine failure's cause). */
  detail?: string;
}
