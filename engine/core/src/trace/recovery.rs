//! The recovery series of a SACK sender (`Sender::recovery_row`): its row, its columns as
//! the page and `--out` read them, and its digest.

use super::*;

/// A SACK sender's loss-recovery state (`Sender::recovery_row`), for the recovery series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecoveryRow {
    /// RFC 6675 pipe, bytes.
    pub pipe: u64,
    /// Bytes SACKed above the cumulative ACK.
    pub sacked: u64,
    /// Bytes deemed lost and not yet resent.
    pub lost: u64,
    /// In SACK-based recovery.
    pub in_recovery: bool,
    /// RecoveryPoint (one past; meaningful in recovery).
    pub recovery_point: u64,
    /// PRR's prr_delivered and prr_out (in the cwnd's unit as PRR counts: bytes, or
    /// segments for segment-based windows), this recovery.
    pub prr_delivered: u64,
    pub prr_out: u64,
    /// RACK's reordering window now, ns (`u64::MAX` without RACK).
    pub reo_wnd: u64,
    /// The loss timer's deadline, ns (`u64::MAX` when not armed), and use: 0 none, 1 RACK's
    /// reordering timer, 2 the probe timeout.
    pub timer_at: u64,
    pub timer_kind: u8,
    /// A tail loss probe is in the network.
    pub probe_out: bool,
}

/// What the loss timer is armed for, by `timer_kind` code (the recovery series' column; the
/// page names the timer with these).
pub const LOSS_TIMER_KINDS: [&str; 3] = ["none", "RACK's reordering timer", "the probe timeout (PTO)"];

/// Column names of a SACK flow's recovery series, in output order. Units: t in seconds;
/// pipe, sacked, lost in bytes (RFC 6675's pipe, the bytes SACKed above the cumulative ACK,
/// the bytes deemed lost and not yet resent); in_recovery 1 in SACK-based recovery, else 0;
/// recovery_point the sequence number one past RecoveryPoint (NaN outside recovery);
/// prr_delivered, prr_out PRR's counters this recovery (in the unit PRR counts: bytes, or
/// segments for segment-based windows); reo_wnd RACK's reordering window in seconds (NaN
/// without RACK); timer_at the loss timer's deadline in seconds (NaN when not armed),
/// timer_kind 0 none, 1 RACK's reordering timer, 2 the probe timeout; probe_out 1 while a
/// tail loss probe is in the network.
pub const RECOVERY_COLUMNS: [&str; 12] = [
    "t",
    "pipe",
    "sacked",
    "lost",
    "in_recovery",
    "recovery_point",
    "prr_delivered",
    "prr_out",
    "reo_wnd",
    "timer_at",
    "timer_kind",
    "probe_out",
];

/// SACK loss-recovery state of one flow over time (only for flows with SACK on): a row
/// whenever it changes.
pub type RecoverySeries = ChangeSeries<RecoveryRow>;

impl ChangeRow for RecoveryRow {
    const COLUMNS: &'static [&'static str] = &RECOVERY_COLUMNS;
    fn field(name: &str) -> Option<Field<(Ns, RecoveryRow)>> {
        recovery_field(name)
    }
}

/// How to read one [`RECOVERY_COLUMNS`] column from a row, in output units.
fn recovery_field(name: &str) -> Option<Field<(Ns, RecoveryRow)>> {
    Some(match name {
        "t" => |r| ns_to_secs(r.0),
        "pipe" => |r| r.1.pipe as f64,
        "sacked" => |r| r.1.sacked as f64,
        "lost" => |r| r.1.lost as f64,
        "in_recovery" => |r| r.1.in_recovery as u8 as f64,
        "recovery_point" => |r| {
            if r.1.in_recovery {
                r.1.recovery_point as f64
            } else {
                f64::NAN
            }
        },
        "prr_delivered" => |r| r.1.prr_delivered as f64,
        "prr_out" => |r| r.1.prr_out as f64,
        "reo_wnd" => |r| opt_secs(r.1.reo_wnd),
        "timer_at" => |r| opt_secs(r.1.timer_at),
        "timer_kind" => |r| r.1.timer_kind as f64,
        "probe_out" => |r| r.1.probe_out as u8 as f64,
        _ => return None,
    })
}

impl DigestRow for (Ns, RecoveryRow) {
    #[inline]
    fn digest_into(&self, d: &mut Digest) {
        let (t, r) = self;
        d.words(&[
            *t,
            r.pipe,
            r.sacked,
            r.lost,
            r.in_recovery as u64,
            r.recovery_point,
            r.prr_delivered,
            r.prr_out,
            r.reo_wnd,
            r.timer_at,
            ((r.timer_kind as u64) << 1) | r.probe_out as u64,
        ]);
    }
}
