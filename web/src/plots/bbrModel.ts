// BBR's model as the plots read it. The engine logs two rows whenever the model changes, at
// one instant: `bbr_model` (BtlBw, RTprop, BDP, state) then `bbr_pacing` (pacing rate,
// pacing and cwnd gains, state); the worker keeps both in the `model` table. Here they
// become step series with a value at every row of that table: at each row, what BBR's
// model is once the rows of its instant have been applied, so either kind's row can be the
// one a lookup lands on, and a step line drawn through the table's time column changes
// value exactly at the instants the engine logged. Derived once per trace and extended as
// rows arrive (a trace is append-only; a new comparison has new traces).
import { rowAt, rowsInForce } from '../engine/lookup';
import type { RunTrace } from '../engine/traceStore';
import { formatNumber } from '../scenario/params';
import { EVENT_CODE } from './layers';
import type { Shown } from './core/shown';

const MODEL = EVENT_CODE.get('bbr_model');
const PACING = EVENT_CODE.get('bbr_pacing');

/** BBR's states by the engine's number (`tx >> 4` of its rows). */
export const BBR_STATES = ['Startup', 'Drain', 'ProbeBW', 'ProbeRTT'] as const;

/** The step series of one run's model, one value per row of its `model` table. */
export interface BbrSeries {
  /** Valid rows (the model table's length when derived). */
  length: number;
  /** Bottleneck-bandwidth estimate, bit/s. */
  btlBw: Float64Array;
  /** Minimum-RTT estimate, s (NaN: no sample yet). */
  rtProp: Float64Array;
  /** BtlBw·RTprop, bytes. */
  bdp: Float64Array;
  /** Pacing rate, bit/s. */
  pacing: Float64Array;
  /** Pacing and cwnd gains (1 = the estimate itself). */
  pacingGain: Float64Array;
  cwndGain: Float64Array;
  /** State·16 + ProbeBW's gain-cycle phase (BBR_STATES; phase 0–7). */
  state: Float64Array;
}

type Column = Exclude<keyof BbrSeries, 'length'>;
const COLUMNS: readonly Column[] = ['btlBw', 'rtProp', 'bdp', 'pacing', 'pacingGain', 'cwndGain', 'state'];

const derived = new WeakMap<RunTrace, BbrSeries>();

function empty(capacity: number): BbrSeries {
  const s = { length: 0 } as BbrSeries;
  for (const c of COLUMNS) s[c] = new Float64Array(capacity);
  return s;
}

/**
 * The model's step series of a run (empty for a run that is not BBR, or before its first
 * row). Rows of one instant are one change: each row of an instant takes the model and
 * pacing rows of that instant (or, for a kind the instant lacks, the values in force
 * before it).
 */
export function bbrSeries(trace: RunTrace): BbrSeries {
  const m = trace.tables.model;
  let s = derived.get(trace);
  if (!s) {
    s = empty(Math.max(16, m.length));
    derived.set(trace, s);
  }
  if (s.length === m.length) return s;
  if (s.btlBw.length < m.length) {
    const grown = empty(Math.max(m.length, s.btlBw.length * 2));
    for (const c of COLUMNS) grown[c].set(s[c].subarray(0, s.length));
    grown.length = s.length;
    s = grown;
    derived.set(trace, s);
  }
  const { t, kind, seq, len, seg, tx } = m.cols;
  // Redo the last instant already derived: its other row may have arrived only now.
  let i = s.length;
  while (i > 0 && t[i - 1] === t[s.length - 1]) i -= 1;
  // Values in force before row i.
  const last = i - 1;
  const cur = {
    btlBw: last >= 0 ? (s.btlBw[last] ?? NaN) : NaN,
    rtProp: last >= 0 ? (s.rtProp[last] ?? NaN) : NaN,
    bdp: last >= 0 ? (s.bdp[last] ?? NaN) : NaN,
    pacing: last >= 0 ? (s.pacing[last] ?? NaN) : NaN,
    pacingGain: last >= 0 ? (s.pacingGain[last] ?? NaN) : NaN,
    cwndGain: last >= 0 ? (s.cwndGain[last] ?? NaN) : NaN,
    state: last >= 0 ? (s.state[last] ?? NaN) : NaN,
  };
  while (i < m.length) {
    // One instant: rows [i, j).
    const ti = t[i];
    let j = i;
    while (j < m.length && t[j] === ti) {
      const k = kind[j];
      if (k === MODEL) {
        cur.btlBw = seq[j] ?? NaN;
        const us = len[j] ?? 0;
        cur.rtProp = us > 0 ? us / 1e6 : NaN;
        cur.bdp = seg[j] ?? NaN;
        cur.state = tx[j] ?? NaN;
      } else if (k === PACING) {
        cur.pacing = seq[j] ?? NaN;
        cur.pacingGain = (len[j] ?? NaN) / 256;
        cur.cwndGain = (seg[j] ?? NaN) / 256;
        cur.state = tx[j] ?? NaN;
      }
      j += 1;
    }
    for (; i < j; i += 1) for (const c of COLUMNS) s[c][i] = cur[c];
  }
  s.length = m.length;
  return s;
}

/** BBR's model at time t: the row in force (-1 before the first). */
export function bbrRowAt(trace: RunTrace, t: number): number {
  const m = trace.tables.model;
  return rowAt(m.cols.t, m.length, t);
}

/** The largest value of a model column shown in [t0, t1] (0 when none). */
export function bbrMaxIn(trace: RunTrace, column: 'btlBw' | 'pacing' | 'bdp', t0: number, t1: number): number {
  const m = trace.tables.model;
  const s = bbrSeries(trace);
  const [i0, i1] = rowsInForce(m.cols.t, m.length, t0, t1);
  let hi = 0;
  for (let i = i0; i < i1; i += 1) {
    const v = s[column][i] ?? 0;
    if (v > hi && Number.isFinite(v)) hi = v;
  }
  return hi;
}

/** A gain as text: 1.25, 0.75, 2.89. */
export function gainText(g: number): string {
  return formatNumber(g, 3);
}

/** "ProbeBW phase 0 (pacing gain 1.25)", "Startup (pacing gain 2.89)", "ProbeRTT (pacing
 *  gain 1)": the state of row i. ProbeBW's phases are numbered 0–7 from the 1.25 one, as
 *  the explanations do. */
export function bbrStateText(s: BbrSeries, i: number): string {
  const code = s.state[i] ?? NaN;
  if (!Number.isFinite(code)) return 'BBR';
  const state = BBR_STATES[Math.floor(code / 16)] ?? `state ${Math.floor(code / 16)}`;
  const phase = state === 'ProbeBW' ? ` phase ${code % 16}` : '';
  const gain = s.pacingGain[i] ?? NaN;
  return `${state}${phase}${Number.isFinite(gain) ? ` (pacing gain ${gainText(gain)})` : ''}`;
}

/** Mbit/s of a rate in bit/s, as text. */
export function mbitText(bps: number): string {
  return formatNumber(bps / 1e6, 4);
}

/** RTprop as text: "40.05 ms", or "none yet". */
export function rtPropText(s: number): string {
  return Number.isFinite(s) ? `${formatNumber(s * 1e3, 4)} ms` : 'none yet';
}

/** What BBR's model is at row i, for the readouts: "ProbeBW phase 2 (pacing gain 1) · BtlBw
 *  9.733 Mbit/s · RTprop 40.05 ms · pacing 9.733 Mbit/s · BDP 33.4 seg", the BDP in the
 *  page's unit. */
export function bbrModelText(s: BbrSeries, i: number, u: Shown): string {
  const bdp = s.bdp[i] ?? NaN;
  return (
    `${bbrStateText(s, i)} · BtlBw ${mbitText(s.btlBw[i] ?? NaN)} Mbit/s · RTprop ${rtPropText(s.rtProp[i] ?? NaN)} · ` +
    `pacing ${mbitText(s.pacing[i] ?? NaN)} Mbit/s · BDP ${u.num(bdp)} ${u.symbol}`
  );
}
