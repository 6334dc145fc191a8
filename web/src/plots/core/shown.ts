// How a plot shows windows and sequence numbers: in the unit the page shows them in
// (`unit=`; lib/units.ts), with the flow's segment size. Geometry divides bytes by `scale`;
// text writes them with `num` (segments to a few digits, bytes whole and grouped).
import { amountNumber, DEFAULT_UNIT, unitEntry, unitScale, type WindowUnit } from '../../lib/units';
import { mssOf } from '../../scenario/paths';
import type { PlotContext } from './types';

/** A plot's unit for windows and sequence numbers. */
export interface Shown {
  unit: WindowUnit;
  /** The segment size the unit divides by (segments). */
  mss: number;
  /** Bytes per unit drawn: the segment size, or 1 for bytes. */
  scale: number;
  /** "segments", "bytes" (titles, readouts after a list of numbers). */
  label: string;
  /** "seg", "B" (after one number). */
  symbol: string;
  /** A byte count as a number in the unit, without the unit ("35", "51 100", "∞"). */
  num(bytes: number, digits?: number): string;
}

/** The unit of `unit` with segments of `mss` bytes. */
export function shownIn(unit: WindowUnit, mss: number): Shown {
  const e = unitEntry(unit);
  return {
    unit,
    mss,
    scale: unitScale(unit, mss),
    label: e.label,
    symbol: e.symbol,
    num: (bytes, digits = 4) => amountNumber(bytes, unit, mss, digits),
  };
}

/** The unit a plot draws in: the page's choice, with flow 0's segment size (or `mss`). */
export function shownOf(context: Pick<PlotContext, 'scenario' | 'unit'>, mss = mssOf(context.scenario)): Shown {
  return shownIn(context.unit ?? DEFAULT_UNIT, mss);
}
