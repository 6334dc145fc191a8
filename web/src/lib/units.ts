// The one unit of the page's windows and byte counts (issue 41): the window and
// time–sequence plots and the overview, their cursor readouts, the Why card, practice, the
// rounds view and the exercise sheets all turn bytes into text and plot coordinates here, in
// the unit the person chose (`unit=` in the link; segments by default, as textbooks count).
// The units, their words and what each means are the engine's (`rules_json().units`, the
// engine's `ShownUnit`); this module only divides by the segment size and writes the number.
import { U32_UNLIMITED } from '../engine/protocol';
import { tables, type ShownUnitEntry } from '../engine/tables';
import { formatNumber } from '../scenario/params';

/** A unit windows are shown in: the engine's `ShownUnit` names (units.test.ts checks that
 *  the engine has exactly these). */
export type WindowUnit = 'segments' | 'bytes';

/** The engine's units, the default first. */
export const UNIT_ENTRIES: readonly ShownUnitEntry[] = tables.units;

/** Every unit, the default first (segments). */
export const WINDOW_UNITS: readonly WindowUnit[] = UNIT_ENTRIES.map((u) => u.name as WindowUnit);

/** The unit a page without `unit=` shows: segments. */
export const DEFAULT_UNIT: WindowUnit = WINDOW_UNITS[0] ?? 'segments';

/** The engine's entry for a unit (its label, symbol and description). */
export function unitEntry(unit: WindowUnit): ShownUnitEntry {
  return (
    UNIT_ENTRIES.find((u) => u.name === unit) ?? {
      name: unit,
      label: unit,
      singular: unit,
      symbol: unit,
      description: '',
    }
  );
}

/** Whether `name` is a unit windows can be shown in. */
export function isWindowUnit(name: string): name is WindowUnit {
  return (WINDOW_UNITS as readonly string[]).includes(name);
}

/** No limit: an ssthresh not set yet (the engine's u32 "unlimited"), ∞ or NaN. */
export function unlimited(bytes: number): boolean {
  return !Number.isFinite(bytes) || bytes >= U32_UNLIMITED;
}

/** Bytes per unit shown: the segment size for segments, 1 for bytes. Plots divide byte
 *  values by it. */
export function unitScale(unit: WindowUnit, mss: number): number {
  return unit === 'bytes' || !(mss > 0) ? 1 : mss;
}

/** A byte count in the unit. */
export function inUnit(bytes: number, unit: WindowUnit, mss: number): number {
  return bytes / unitScale(unit, mss);
}

/** Thousands grouped with a narrow no-break space, as the engine's sentences group bytes ("51 100"; a line never breaks inside a number). */
function grouped(n: number): string {
  const [whole = '', frac] = String(n).split('.');
  const sign = whole.startsWith('-') ? '−' : '';
  const digits = whole.replace('-', '');
  const g = digits.length > 4 ? digits.replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f') : digits;
  return sign + g + (frac === undefined ? '' : `.${frac}`);
}

/** The number of a byte count in the unit, without the unit: segments to `digits`
 *  significant digits ("35", "19.83"), bytes to the whole byte and grouped ("51 100"; a mean
 *  of 33 219.3 B reads 33 219); "∞" unlimited. */
export function amountNumber(bytes: number, unit: WindowUnit, mss: number, digits = 4): string {
  if (unlimited(bytes)) return '∞';
  if (unit === 'bytes') return grouped(Math.round(bytes));
  return formatNumber(inUnit(bytes, unit, mss), digits);
}

/** The unit's word after a number: "segment" for exactly one segment, else the label. */
export function unitWord(unit: WindowUnit, value?: number): string {
  const e = unitEntry(unit);
  return value === 1 ? e.singular : e.label;
}

/** A byte count with its unit: "35 segments", "1 segment", "51 100 B", "∞". Bytes use the
 *  engine's symbol (B), segments the word. */
export function amountText(bytes: number, unit: WindowUnit, mss: number, digits = 4): string {
  if (unlimited(bytes)) return '∞';
  const n = amountNumber(bytes, unit, mss, digits);
  if (unit === 'bytes') return `${n} ${unitEntry(unit).symbol}`;
  return `${n} ${unitWord(unit, inUnit(bytes, unit, mss))}`;
}

/** The unit in a plot's title or a column's header: "segments", "bytes". */
export function unitLabel(unit: WindowUnit): string {
  return unitEntry(unit).label;
}
