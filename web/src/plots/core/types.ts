import type { ScaleLinear } from 'd3';
import type { Linear } from './decimate';
import type { RunSummary } from '../../engine/protocol';
import type { Scenario } from '../../engine/tables';
import type { RunTrace } from '../../engine/traceStore';
import type { AlgStyle } from '../../lib/styles';
import type { AlgorithmName } from '../../scenario/algorithms';
import type { ThroughputColumn } from '../../scenario/shareState';
import type { SeriesVisibility } from '../../state/types';
import type { WindowUnit } from '../../lib/units';

/** One run drawn in a plot: an algorithm of a comparison, or a flow of a competition. */
export interface PlotRun {
  key: AlgorithmName;
  label: string;
  style: AlgStyle;
  trace: RunTrace;
  summary: RunSummary | null;
  /** The flow it draws: its index in the summary's flows and the throughput table's classes
   *  (absent or 0 in a comparison, the flow's own in a competition). */
  flow?: number;
}

/** What a plot definition needs from the state besides the runs. */
export interface PlotContext {
  scenario: Scenario;
  series: SeriesVisibility;
  /** Several algorithms share this plot. */
  overlay: boolean;
  /** The runs are the flows of one competition (sharing the bottleneck, its queue and its
   *  throughput table); absent: a comparison. */
  competition?: boolean;
  /** Seconds per CSS pixel of the time axis (how near the cursor an event must be to be
   *  read out); 0 before the plot has a size. */
  pxTime: number;
  /** The throughput plot's bin width, s (null = chosen from the run's duration), and the
   *  bytes it counts. */
  throughputBin: number | null;
  throughputColumn: ThroughputColumn;
  /** The unit windows and sequence numbers are drawn and read out in (`unit=`; lib/units.ts);
   *  absent: segments. */
  unit?: WindowUnit;
  /** The throughput plot draws the Mathis and Padhye estimates (`theory=1`; theory/). */
  theory?: boolean;
}

/** Everything a draw call gets; coordinates are CSS pixels inside the plot area. */
export interface DrawFrame {
  ctx: CanvasRenderingContext2D;
  x: ScaleLinear<number, number>;
  y: ScaleLinear<number, number>;
  /** x and y as plain linear maps (what decimation and hot loops use; same arithmetic). */
  xl: Linear;
  yl: Linear;
  width: number;
  height: number;
  dpr: number;
  t0: number;
  t1: number;
  runs: PlotRun[];
  context: PlotContext;
}

/** One line of the cursor readout. */
export interface ReadoutLine {
  key: AlgorithmName;
  label: string;
  color: string;
  text: string;
}

/** A plot kind: what it draws and how it reads at the cursor. */
export interface PlotDef {
  /** Tick text of a y value. */
  yTick(v: number): string;
  /** The y range of the runs' data between t0 and t1 (before nice()). */
  yExtent(runs: PlotRun[], t0: number, t1: number, context: PlotContext): [number, number];
  draw(frame: DrawFrame): void;
  readout(runs: PlotRun[], t: number, context: PlotContext): ReadoutLine[];
  /** A sentence for screen readers. */
  describe(runs: PlotRun[], context: PlotContext): string;
  /** Times of the marked events, in order, which [ and ] step the cursor through. */
  eventTimes?(runs: PlotRun[]): number[];
  /** The rule kind (the engine's, teaching.json) of the decisions its marks show: a click
   *  near one explains it rather than a nearer decision of another kind. */
  explains?: string;
}
