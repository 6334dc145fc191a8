// What the Why card leads with: the change of cwnd at the instant the person pointed at, in
// the page's unit (segments by default, or bytes: lib/units.ts), and the decision that caused it ("cwnd 35 → 1 segment:
// Retransmission timeout, RFC 6298 §5.4"). Read from the engine's records of that instant:
// the cwnd before is the first record's input, the cwnd after the last record's output; the
// cause is the instant's telling decision (explainer.ts), with the engine's title and source.
// Nothing here decides anything about TCP; the arithmetic stays in the records below it.
import type { DecisionJson, DecisionValue } from '../engine/protocol';
import { amountNumber, DEFAULT_UNIT, inUnit, unitEntry, unitWord, type WindowUnit } from '../lib/units';

/** A window change at one instant, in the page's unit. */
export interface WindowChange {
  /** "cwnd 35 → 1 segment", "cwnd 51 100 → 1 460 B". */
  text: string;
  /** Before and after, in bytes (null: unlimited). */
  before: number | null;
  after: number | null;
}

const value = (vs: readonly DecisionValue[], name: string) => vs.find((v) => v.name === name);

/** A byte count in `unit` (segments of `mss` by default), without the unit: whole numbers as
 *  they are, else three digits; "∞" for unlimited (null). */
export function segments(bytes: number | null, mss: number, unit: WindowUnit = DEFAULT_UNIT): string {
  if (bytes === null) return '∞';
  return amountNumber(bytes, unit, mss, 3);
}

/** The unit after a count: "segment" for exactly one segment, else "segments"; "B" in bytes. */
export function segmentWord(bytes: number | null, mss: number, unit: WindowUnit = DEFAULT_UNIT): string {
  if (unit === 'bytes') return unitEntry(unit).symbol;
  return unitWord(unit, bytes === null ? undefined : inUnit(bytes, unit, mss));
}

/** The change of cwnd over the records of one instant (in the order made), or null when the
 *  instant leaves cwnd as it was or no record of it names cwnd in bytes. */
export function windowChange(
  instant: readonly Omit<DecisionJson, 'index'>[],
  mss: number,
  unit: WindowUnit = DEFAULT_UNIT,
): WindowChange | null {
  const first = instant.find((d) => value(d.inputs, 'cwnd')?.unit === 'B');
  const last = instant.findLast((d) => value(d.outputs, 'cwnd')?.unit === 'B');
  if (!first || !last) return null;
  const before = value(first.inputs, 'cwnd')?.value ?? null;
  const after = value(last.outputs, 'cwnd')?.value ?? null;
  if (before === after) return null;
  return {
    before,
    after,
    text: `cwnd ${segments(before, mss, unit)} → ${segments(after, mss, unit)} ${segmentWord(after, mss, unit)}`,
  };
}

/** A value as the Why card shows it: in segments, byte counts first in segments with the
 *  engine's own text (bytes) after them; in bytes, the engine's text as it wrote it. Every
 *  other value as the engine wrote it. */
export function valueText(v: DecisionValue, mss: number, unit: WindowUnit = DEFAULT_UNIT): string {
  if (unit === 'bytes') return v.text;
  if (v.unit !== 'B' || v.value === null || !Number.isFinite(v.value) || v.text === '∞') return v.text;
  return `${segments(v.value, mss, unit)} ${segmentWord(v.value, mss, unit)} (${v.text})`;
}

/** The engine's sentence of a decision in the unit: its byte counts in segments
 *  (`text_segments`) or in bytes (`text`). */
export function decisionText(d: Pick<DecisionJson, 'text' | 'text_segments'>, unit: WindowUnit = DEFAULT_UNIT): string {
  return unit === 'bytes' ? d.text : (d.text_segments ?? d.text);
}

/** A decision's time as a student writes it: milliseconds ("3.281 s"), or microseconds
 *  when two decisions could not be told apart otherwise ("0.000125 s"). */
export function decisionTime(t: number): string {
  const ms = Number(t.toFixed(3));
  return Math.abs(ms - t) < 5e-7 || t >= 1e-3 ? `${t.toFixed(3)} s` : `${t.toFixed(6)} s`;
}
