//! The controller's part in SACK-based recovery (RFC 6675 §5, RFC 6937): the congestion
//! response when the sender's scoreboard finds a loss (the flow's own ssthresh rule, then
//! cwnd = ssthresh), the window PRR sets on each ACK, and the end of recovery. The sender's
//! SACK state (`tcp::recovery::sack`) decides when; the rules of how much live here, so every
//! increase and decrease rule combines with SACK.

use super::{why, Cc, Flight};
use crate::explain::Rule;

impl Cc {
    /// SACK-based recovery begins: `trigger` says what found the loss (see
    /// `tcp::recovery::sack::Trigger`), `threshold` the duplicate-ACK threshold in force, `head` the
    /// segment at the cumulative ACK, `sacked` the bytes SACKed, `snd_max` one past the
    /// highest byte sent (the recovery point). ssthresh by the flow's rule, cwnd = ssthresh
    /// (RFC 6675 §5 step 4.2).
    pub fn on_sack_loss(&mut self, flight: Flight, snd_max: u64, head: u64, trigger: u8, threshold: u64, sacked: u64) {
        let (from, c0, ss0, d) = (self.why_phase(), self.cwnd, self.ssthresh, self.dupacks);
        self.ssthresh = self.loss_ssthresh(flight);
        self.recover = Some(snd_max);
        if self.bbr.is_none() {
            self.cwnd = self.recovery_target();
        }
        // (BBR keeps cwnd here: the ACK's sample sets it, with packet conservation.)
        self.inflated = self.cwnd;
        self.in_fast_recovery = true;
        self.sack_recovery = true;
        self.partial_seen = false;
        self.bytes_acked = 0;
        let fs = self.flight_in_units(flight);
        why!(
            self,
            Rule::SackRecovery,
            from,
            [
                trigger,
                threshold,
                d,
                sacked,
                head,
                fs,
                c0,
                ss0,
                self.ssthresh,
                self.cwnd,
                snd_max
            ]
        );
        self.validation_loss(flight);
    }

    /// PRR's window for this ACK: pipe + sndcnt (RFC 6937 §3, as Linux sets it).
    #[inline]
    pub fn set_recovery_window(&mut self, cwnd: u64) {
        self.cwnd = cwnd;
        self.inflated = cwnd;
    }

    /// Whether SACK-based recovery is under way.
    #[inline]
    pub fn in_sack_recovery(&self) -> bool {
        self.sack_recovery
    }

    /// The cumulative ACK `ack` reached the recovery point `point`: cwnd = ssthresh (RFC 6675
    /// §5; RFC 6937 §3's last step), recovery ends.
    pub fn on_sack_recovery_end(&mut self, ack: u64, point: u64) {
        let (from, c0) = (self.why_phase(), self.cwnd);
        if self.bbr.is_none() {
            self.cwnd = self.recovery_target();
        }
        // (BBR restores the window it had before the recovery with this ACK's sample.)
        self.sack_recovery = false;
        self.leave_fast_recovery();
        why!(
            self,
            Rule::SackRecoveryExit,
            from,
            [ack, point, c0, self.ssthresh, self.cwnd]
        );
        self.validation_recovery_end();
    }

    /// A tail loss probe's retransmission repaired a loss (RFC 8985 §7.4.2): the congestion
    /// response once, without a recovery.
    pub fn on_probe_repaired(&mut self, flight: Flight, probe_end: u64, seg: u64) {
        let (from, c0, ss0) = (self.why_phase(), self.cwnd, self.ssthresh);
        self.ssthresh = self.loss_ssthresh(flight);
        if self.bbr.is_none() {
            self.cwnd = self.recovery_target();
        }
        // (BBR only saves cwnd: Linux's CWR with an infinite ssthresh leaves it.)
        self.inflated = self.cwnd;
        self.bytes_acked = 0;
        why!(
            self,
            Rule::TlpRepaired,
            from,
            [seg, probe_end, c0, ss0, self.ssthresh, self.cwnd]
        );
    }
}
