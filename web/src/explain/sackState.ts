// The SACK sender's state at an instant, as the engine recorded it (the `recovery` table, a
// row per change, only for flows with SACK on) and the SACK blocks of the last ACK (the
// `sack_blocks` table): read here, never recomputed.
import { rowAt } from '../engine/lookup';
import type { RunTrace } from '../engine/traceStore';
import { sackBlocksAt, type SackBlock } from '../plots/sackMarks';

/** One row of the recovery series, in the engine's units (bytes, seconds; null for none). */
export interface SackState {
  /** When the row was recorded, s. */
  t: number;
  pipe: number;
  sacked: number;
  lost: number;
  inRecovery: boolean;
  recoveryPoint: number | null;
  prrDelivered: number;
  prrOut: number;
  reoWnd: number | null;
  timerAt: number | null;
  timerKind: number;
  probeOut: boolean;
  /** The last ACK's time and SACK blocks (null before the first ACK). */
  ack: { t: number; blocks: SackBlock[] } | null;
}

const orNull = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? null : v);

/** The state in force at `t` (the last row at or before it); null for a run without SACK or
 *  before its first row. */
export function sackStateAt(trace: RunTrace, t: number): SackState | null {
  const tb = trace.tables.recovery;
  const i = rowAt(tb.cols.t, tb.length, t);
  if (i < 0) return null;
  const c = tb.cols;
  return {
    t: c.t[i] ?? 0,
    pipe: c.pipe[i] ?? 0,
    sacked: c.sacked[i] ?? 0,
    lost: c.lost[i] ?? 0,
    inRecovery: c.in_recovery[i] === 1,
    recoveryPoint: orNull(c.recovery_point[i]),
    prrDelivered: c.prr_delivered[i] ?? 0,
    prrOut: c.prr_out[i] ?? 0,
    reoWnd: orNull(c.reo_wnd[i]),
    timerAt: orNull(c.timer_at[i]),
    timerKind: c.timer_kind[i] ?? 0,
    probeOut: c.probe_out[i] === 1,
    ack: sackBlocksAt(trace, t),
  };
}
