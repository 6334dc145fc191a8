// What a shared link carries besides the scenario: the algorithms compared and the view.
import { tables, type Scenario } from '../engine/tables';
import { DEFAULT_SELECTION, type AlgorithmName } from './algorithms';

/** The plots a page can show. */
export type PlotId = 'window' | 'seq' | 'queue';
/** Every plot, in page order. */
export const PLOT_IDS: readonly PlotId[] = ['window', 'seq', 'queue'];
/** Several algorithms drawn in one plot, or one plot per algorithm. */
export type Layout = 'overlay' | 'multiples';
/** Every layout. */
export const LAYOUTS: readonly Layout[] = ['multiples', 'overlay'];

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
    plots: [...PLOT_IDS],
    lesson: null,
  };
}

/** A message for the person reading the page: something in their link was not used. */
export interface Notice {
  /** The URL key or parameter it is about ('' for the whole link). */
  key: string;
  message: string;
}
