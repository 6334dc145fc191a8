// What the Why card leads with: the change of cwnd at the instant the person pointed at, in
// the plot's unit (segments), and the decision that caused it ("cwnd 35 → 1 segment:
// Retransmission timeout, RFC 6298 §5.4"). Read from the engine's records of that instant:
// the cwnd before is the first record's input, the cwnd after the last record's output; the
// cause is the instant's telling decision (explainer.ts), with the engine's title and source.
// Nothing here decides anything about TCP; the arithmetic stays in the records below it.
import type { DecisionJson, DecisionValue } from '../engine/protocol';
import { formatNumber } from '../scenario/params';

/** A window change at one instant, in segments. */
export interface WindowChange {
  /** "cwnd 35 → 1 segment". */
  text: string;
  /** Before and after, in bytes (null: unlimited). */
  before: number | null;
  after: number | null;
}

const value = (vs: readonly DecisionValue[], name: string) => vs.find((v) => v.name === name);

/** A byte count in segments of `mss`: whole numbers as they are, else three digits. */
export function segments(bytes: number | null, mss: number): string {
  if (bytes === null) return '∞';
  return formatNumber(bytes / mss, 3);
}

/** The unit after a segment count: "segment" for exactly one. */
export function segmentWord(bytes: number | null, mss: number): string {
  return bytes !== null && bytes === mss ? 'segment' : 'segments';
}

/** The change of cwnd over the records of one instant (in the order made), or null when the
 *  instant leaves cwnd as it was or no record of it names cwnd in bytes. */
export function windowChange(instant: readonly Omit<DecisionJson, 'index'>[], mss: number): WindowChange | null {
  const first = instant.find((d) => value(d.inputs, 'cwnd')?.unit === 'B');
  const last = instant.findLast((d) => value(d.outputs, 'cwnd')?.unit === 'B');
  if (!first || !last) return null;
  const before = value(first.inputs, 'cwnd')?.value ?? null;
  const after = value(last.outputs, 'cwnd')?.value ?? null;
  if (before === after) return null;
  return {
    before,
    after,
    text: `cwnd ${segments(before, mss)} → ${segments(after, mss)} ${segmentWord(after, mss)}`,
  };
}

/** A value as the Why card shows it: byte counts in segments first (the plots' unit), the
 *  engine's own text after them; everything else as the engine wrote it. */
export function valueText(v: DecisionValue, mss: number): string {
  if (v.unit !== 'B' || v.value === null || !Number.isFinite(v.value) || v.text === '∞') return v.text;
  return `${segments(v.value, mss)} ${segmentWord(v.value, mss)} (${v.text})`;
}

/** A decision's time as a student writes it: milliseconds ("3.281 s"), or microseconds
 *  when two decisions could not be told apart otherwise ("0.000125 s"). */
export function decisionTime(t: number): string {
  const ms = Number(t.toFixed(3));
  return Math.abs(ms - t) < 5e-7 || t >= 1e-3 ? `${t.toFixed(3)} s` : `${t.toFixed(6)} s`;
}
