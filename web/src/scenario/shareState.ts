// What a shared link carries besides the scenario: the algorithms compared and the view.
import { tables, type Scenario } from '../engine/tables';
import { DEFAULT_SELECTION, type AlgorithmName } from './algorithms';

/** The plots a page can show: time plots on the shared cursor, then the thin-stream CDFs
 *  (`thin`, four panels whose x axis is a value). */
export type PlotId = 'window' | 'seq' | 'queue' | 'throughput' | 'writes' | 'thin';
/** Every plot, in page order. */
export const PLOT_IDS: readonly PlotId[] = ['window', 'seq', 'queue', 'throughput', 'writes', 'thin'];
/** The plots a link without `plots=` shows (the throughput plot is added by choice, by a
 *  preset with cross traffic, or by adding cross traffic; the write timeline and the
 *  thin-stream CDFs by choice, by a preset whose sender writes, or by choosing such an
 *  application). */
export const DEFAULT_PLOTS: readonly PlotId[] = ['window', 'seq', 'queue'];
/** Several algorithms drawn in one plot, or one plot per algorithm. */
export type Layout = 'overlay' | 'multiples';
/** Every layout. */
export const LAYOUTS: readonly Layout[] = ['multiples', 'overlay'];
/** Which bytes the throughput plot counts: delivered to the receiver (goodput; UDP bytes at
 *  the sink), or sent across the bottleneck (each class's share of the link). */
export type ThroughputColumn = 'delivered' | 'bottleneck';
/** Every throughput column, the default first. */
export const THROUGHPUT_COLUMNS: readonly ThroughputColumn[] = ['delivered', 'bottleneck'];

/** Everything a link reproduces. */
export interface ShareState {
  scenario: Scenario;
  algorithms: AlgorithmName[];
  /** Pinned cursor, seconds of simulated time. */
  cursor: number | null;
  /** Zoomed time range in seconds; null = the whole run. */
  xDomain: [number, number] | null;
  layout: Layout;
  plots: PlotId[];
  /** The preset whose lesson the page shows, or null. */
  lesson: string | null;
  /** Bin width of the throughput plot, s; null = chosen from the run's duration. */
  throughputBin: number | null;
  throughputColumn: ThroughputColumn;
}

/** The scenario the app opens on: the engine's default. */
export function defaultScenario(): Scenario {
  return structuredClone(tables.defaultScenario);
}

/** The page with no query string. */
export function defaultShareState(): ShareState {
  return {
    scenario: defaultScenario(),
    algorithms: [...DEFAULT_SELECTION],
    cursor: null,
    xDomain: null,
    layout: 'multiples',
    plots: [...DEFAULT_PLOTS],
    lesson: null,
    throughputBin: null,
    throughputColumn: 'delivered',
  };
}

/** A message for the person reading the page: something in their link was not used. */
export interface Notice {
  /** The URL key or parameter it is about ('' for the whole link). */
  key: string;
  message: string;
}
