//! Congestion control: one state struct and the rules that change it.
//!
//! The variant (Old Tahoe, Tahoe, Reno, NewReno) only decides loss recovery; the other
//! choices are independent axes (units, slow-start and congestion-avoidance increase,
//! ssthresh rule, and the open choices of the rulebook), so one axis can change at a time.
//!
//! The sender owns the sequence space and the timer and calls these hooks; each hook returns
//! what the sender must do (retransmit, go back N, restart the timer).
//!
//! Conventions: byte counts throughout. `recover` is one past the highest byte sent when the
//! last loss response began (`snd_max`), so "the ACK covers more than recover" in RFC 6582's
//! inclusive numbering reads `ack > recover` here.

use crate::scenario::{
    CcCfg, CongAvoidRule, NewRenoFullAck, NewRenoTimer, PartialWindow, RepeatedRto, SlowStartRule, SsthreshRule, Units,
    Variant,
};

/// Congestion-control phase, as plotted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Phase {
    /// Before data transfer (SYN exchange, or before the flow starts).
    Handshake = 0,
    /// cwnd < ssthresh.
    SlowStart = 1,
    /// cwnd ≥ ssthresh.
    CongestionAvoidance = 2,
    /// Reno/NewReno fast recovery.
    FastRecovery = 3,
    /// After a timeout, until everything outstanding at the timeout is acknowledged.
    TimeoutRecovery = 4,
}

impl Phase {
    /// Name used in outputs.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Handshake => "handshake",
            Phase::SlowStart => "slow_start",
            Phase::CongestionAvoidance => "congestion_avoidance",
            Phase::FastRecovery => "fast_recovery",
            Phase::TimeoutRecovery => "timeout_recovery",
        }
    }

    /// All phases, in code order.
    pub const ALL: [Phase; 5] = [
        Phase::Handshake,
        Phase::SlowStart,
        Phase::CongestionAvoidance,
        Phase::FastRecovery,
        Phase::TimeoutRecovery,
    ];
}

/// Flight size in both units, measured by the sender (`snd_nxt − snd_una`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flight {
    /// Bytes.
    pub bytes: u64,
    /// Segments.
    pub segs: u64,
}

/// What the sender must do after a new ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewAckAction {
    /// Ordinary ACK: cwnd may have grown.
    Normal,
    /// Fast recovery ended (Reno deflation, or a NewReno full ACK).
    ExitRecovery,
    /// NewReno partial ACK: resend the segment at snd_una; restart the timer if told to.
    PartialAck {
        /// Whether this partial ACK restarts the retransmission timer.
        restart_timer: bool,
    },
}

/// What the sender must do after a duplicate ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DupAckAction {
    /// Count only.
    None,
    /// Fast retransmit of snd_una. Tahoe also goes back N (`snd_nxt = snd_una`).
    FastRetransmit {
        /// Tahoe: resend everything from snd_una as the window allows.
        go_back_n: bool,
    },
    /// A fast retransmit was due but `recover` says this loss was already handled.
    Suppressed,
    /// In fast recovery: the window inflated by one segment.
    Inflate,
}

/// Congestion-control state of one sender.
#[derive(Clone, Debug)]
pub struct Cc {
    /// Which loss recovery.
    pub variant: Variant,
    /// The axes.
    pub cfg: CcCfg,
    /// SMSS in bytes.
    pub smss: u64,
    /// Receiver window in bytes (fixed).
    pub rwnd: u64,
    /// Duplicate ACKs that trigger fast retransmit.
    pub dupthresh: u32,
    /// Congestion window, bytes.
    pub cwnd: u64,
    /// Slow-start threshold, bytes (`u64::MAX` = arbitrarily high).
    pub ssthresh: u64,
    /// The window in force during fast recovery (RFC 5681's "cwnd = ssthresh + 3·SMSS" and
    /// its inflation), kept apart from cwnd as ns-3 does.
    pub inflated: u64,
    /// In Reno/NewReno fast recovery.
    pub in_fast_recovery: bool,
    /// RFC 6582 `recover` (one past); None = the initial send sequence (any loss qualifies).
    pub recover: Option<u64>,
    /// Consecutive duplicate ACKs.
    pub dupacks: u32,
    /// RFC 3465 byte counter for congestion avoidance.
    pub bytes_acked: u64,
    /// Slow start after a timeout: ABC uses L = 1 (RFC 3465 §2.3).
    pub after_rto: bool,
    /// A partial ACK was already seen in this recovery episode.
    pub partial_seen: bool,
    /// The segment at snd_una was resent by the timer and nothing new was acknowledged since.
    pub rto_retransmitted: bool,
    /// After a timeout: `snd_max` at the timeout, until acknowledged.
    pub timeout_recovery: Option<u64>,
}

impl Cc {
    /// Initial state: cwnd = IW, ssthresh as configured (RFC 5681 §3.1).
    pub fn new(variant: Variant, cfg: CcCfg, smss: u64, rwnd: u64, iw_segs: u64, ssthresh: u64, dupthresh: u64) -> Cc {
        let cwnd = iw_segs * smss;
        Cc {
            variant,
            cfg,
            smss,
            rwnd,
            dupthresh: dupthresh as u32,
            cwnd,
            ssthresh: if ssthresh == 0 { u64::MAX } else { ssthresh },
            inflated: cwnd,
            in_fast_recovery: false,
            recover: None,
            dupacks: 0,
            bytes_acked: 0,
            after_rto: false,
            partial_seen: false,
            rto_retransmitted: false,
            timeout_recovery: None,
        }
    }

    /// The window the sender may fill now: the inflated window during fast recovery, cwnd
    /// otherwise.
    pub fn window(&self) -> u64 {
        if self.in_fast_recovery {
            self.inflated
        } else {
            self.cwnd
        }
    }

    /// Extra segments Limited Transmit allows beyond the window (RFC 3042; RFC 5681 §3.2
    /// step 1): one per duplicate ACK, at most two, never during recovery.
    pub fn limited_transmit_allowance(&self) -> u64 {
        if self.cfg.limited_transmit
            && self.variant != Variant::OldTahoe
            && !self.in_fast_recovery
            && self.dupacks > 0
            && self.dupacks < self.dupthresh
        {
            self.dupacks.min(2) as u64
        } else {
            0
        }
    }

    /// Phase for plotting.
    pub fn phase(&self) -> Phase {
        if self.in_fast_recovery {
            Phase::FastRecovery
        } else if self.timeout_recovery.is_some() {
            Phase::TimeoutRecovery
        } else if self.cwnd < self.ssthresh {
            Phase::SlowStart
        } else {
            Phase::CongestionAvoidance
        }
    }

    /// ssthresh after a loss.
    pub fn loss_ssthresh(&self, flight: Flight) -> u64 {
        let smss = self.smss;
        match (self.cfg.units, self.cfg.ssthresh_rule) {
            // RFC 5681 §3.1 eq. (4): max(FlightSize/2, 2·SMSS).
            (Units::Bytes, SsthreshRule::HalfFlight) => (flight.bytes / 2).max(2 * smss),
            // ns-2 / BSD / Linux: half of min(cwnd, rwnd), at least 2 segments.
            (Units::Bytes, SsthreshRule::HalfCwnd) => (self.cwnd.min(self.rwnd) / 2).max(2 * smss),
            // Segment units: whole segments, at least 2.
            (Units::Segments, SsthreshRule::HalfFlight) => (flight.segs / 2).max(2) * smss,
            (Units::Segments, SsthreshRule::HalfCwnd) => (self.cwnd.min(self.rwnd) / (2 * smss)).max(2) * smss,
        }
    }

    /// Whether a loss whose duplicate ACKs carry `ack` is a new loss episode: the ACK must
    /// cover more than `recover` (RFC 6582 §3.2 step 2; ns-2's `highest_ack_ > recover_`).
    fn past_recover(&self, ack: u64) -> bool {
        self.recover.is_none_or(|r| ack > r)
    }

    /// cwnd growth on a new ACK outside fast recovery.
    fn grow(&mut self, acked: u64) {
        let smss = self.smss;
        if self.cwnd < self.ssthresh {
            // Slow start (RFC 5681 §3.1).
            let inc = match self.cfg.slow_start {
                // One SMSS per new ACK, however much it acknowledges (RFC 2581 §3.1).
                SlowStartRule::AckCounting => smss,
                // RFC 3465 §2.2: the bytes acknowledged, at most L·SMSS; L = 1 after an RTO
                // (§2.3).
                SlowStartRule::Abc => {
                    let l = if self.after_rto { 1 } else { self.cfg.abc_limit };
                    acked.min(l * smss)
                }
            };
            self.cwnd += inc;
            self.bytes_acked = 0;
        } else {
            self.after_rto = false;
            match self.cfg.congestion_avoidance {
                // RFC 5681 §3.1 eq. (3): SMSS·SMSS/cwnd per ACK, at least one byte.
                CongAvoidRule::PerAck => self.cwnd += (smss * smss / self.cwnd).max(1),
                // RFC 3465 §2.1: one SMSS per cwnd of acknowledged bytes.
                CongAvoidRule::ByteCounting => {
                    self.bytes_acked += acked;
                    if self.bytes_acked >= self.cwnd {
                        self.bytes_acked -= self.cwnd;
                        self.cwnd += smss;
                    }
                }
            }
        }
    }

    /// A new ACK (`ack > snd_una`) acknowledged `acked` bytes; `flight` is measured after it.
    pub fn on_new_ack(&mut self, ack: u64, acked: u64, flight: Flight) -> NewAckAction {
        // RFC 5681 §3.1: new data acknowledged, so a later timeout may lower ssthresh again.
        self.rto_retransmitted = false;
        if self.timeout_recovery.is_some_and(|p| ack >= p) {
            self.timeout_recovery = None;
        }
        if !self.in_fast_recovery {
            self.dupacks = 0;
            self.grow(acked);
            return NewAckAction::Normal;
        }
        match self.variant {
            Variant::Newreno if ack < self.recover.unwrap_or(0) => {
                // RFC 6582 §3.2 step 3, partial ACK: stay in fast recovery.
                match self.cfg.newreno_partial_window {
                    PartialWindow::Deflate => {
                        // Take off what was acknowledged; add back one SMSS if at least one
                        // SMSS was acknowledged.
                        let mut w = self.inflated.saturating_sub(acked);
                        if acked >= self.smss {
                            w += self.smss;
                        }
                        self.inflated = w.max(self.smss);
                    }
                    // ns-2 without partial_window_deflation_: back to cwnd (= ssthresh).
                    PartialWindow::Reset => self.inflated = self.cwnd,
                }
                let restart_timer = match self.cfg.newreno_timer {
                    NewRenoTimer::EveryPartial => true,
                    NewRenoTimer::FirstPartial => !self.partial_seen,
                };
                self.partial_seen = true;
                NewAckAction::PartialAck { restart_timer }
            }
            Variant::Newreno => {
                // RFC 6582 §3.2 step 3, full ACK: leave fast recovery.
                self.cwnd = match self.cfg.newreno_full_ack {
                    NewRenoFullAck::MinFlight => {
                        let fs = match self.cfg.units {
                            Units::Bytes => flight.bytes,
                            Units::Segments => flight.segs * self.smss,
                        };
                        self.ssthresh.min(fs.max(self.smss) + self.smss)
                    }
                    NewRenoFullAck::Ssthresh => self.ssthresh,
                };
                self.leave_fast_recovery();
                NewAckAction::ExitRecovery
            }
            _ => {
                // RFC 5681 §3.2 step 6 (Reno): any new ACK deflates to ssthresh and ends fast
                // recovery; this ACK does not grow cwnd.
                self.cwnd = self.ssthresh;
                self.leave_fast_recovery();
                NewAckAction::ExitRecovery
            }
        }
    }

    fn leave_fast_recovery(&mut self) {
        self.in_fast_recovery = false;
        self.inflated = self.cwnd;
        self.dupacks = 0;
        self.bytes_acked = 0;
    }

    /// A duplicate ACK carrying `ack` (= snd_una) arrived; `flight` is `snd_nxt − snd_una`,
    /// `snd_max` the highest byte sent (one past).
    pub fn on_dupack(&mut self, ack: u64, flight: Flight, snd_max: u64) -> DupAckAction {
        self.dupacks = self.dupacks.saturating_add(1);
        if self.in_fast_recovery {
            // RFC 5681 §3.2 step 4: each further duplicate ACK inflates the window by SMSS.
            self.inflated += self.smss;
            return DupAckAction::Inflate;
        }
        if self.dupacks != self.dupthresh {
            // 4th and later duplicates outside recovery change nothing (BSD acts on equality).
            return DupAckAction::None;
        }
        let guarded = match self.variant {
            // Old Tahoe: the timer is the only loss signal.
            Variant::OldTahoe => return DupAckAction::None,
            Variant::Tahoe | Variant::Reno => self.cfg.recover_guard,
            Variant::Newreno => true,
        };
        if guarded && !self.past_recover(ack) {
            return DupAckAction::Suppressed;
        }
        self.ssthresh = self.loss_ssthresh(flight);
        self.recover = Some(snd_max);
        self.bytes_acked = 0;
        match self.variant {
            Variant::Tahoe => {
                // Tahoe: cwnd = 1 segment (LW), slow start, go back N.
                self.cwnd = self.smss;
                self.inflated = self.cwnd;
                DupAckAction::FastRetransmit { go_back_n: true }
            }
            _ => {
                // RFC 5681 §3.2 steps 2–3: cwnd = ssthresh, the window in force is
                // ssthresh + 3·SMSS (one SMSS per duplicate that left the network).
                self.cwnd = self.ssthresh;
                self.inflated = self.ssthresh + self.dupthresh as u64 * self.smss;
                self.in_fast_recovery = true;
                self.partial_seen = false;
                DupAckAction::FastRetransmit { go_back_n: false }
            }
        }
    }

    /// The retransmission timer expired with `flight` outstanding; `snd_max` the highest byte
    /// sent (one past).
    pub fn on_timeout(&mut self, flight: Flight, snd_max: u64) {
        // RFC 5681 §3.1: lower ssthresh unless this segment was already resent by the timer
        // (and nothing was acknowledged since) and the "hold" rule is chosen.
        let hold = self.rto_retransmitted && self.cfg.repeated_rto_ssthresh == RepeatedRto::Hold;
        if !hold {
            // RFC 5681 eq. (4) uses the flight before the timeout; go-back-N comes after.
            self.ssthresh = self.loss_ssthresh(flight);
        }
        self.rto_retransmitted = true;
        // Loss window: one segment (RFC 5681 §3.1).
        self.cwnd = self.smss;
        self.inflated = self.cwnd;
        self.in_fast_recovery = false;
        self.dupacks = 0;
        self.bytes_acked = 0;
        self.after_rto = true;
        // RFC 6582 §3.2 step 4 (and ns-2 for every variant): remember the highest sent.
        self.recover = Some(snd_max);
        self.timeout_recovery = Some(snd_max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    const S: u64 = 1000;

    fn cc(variant: Variant, units: Units) -> Cc {
        let mut cfg = Scenario::default().flows[0].cc.clone();
        cfg.units = units;
        Cc::new(variant, cfg, S, 1 << 30, 10, 0, 3)
    }

    fn fl(segs: u64) -> Flight {
        Flight { bytes: segs * S, segs }
    }

    #[test]
    fn reno_inflation_sequence() {
        // Rulebook §3.5: cwnd 10, flight 10, first segment of the window lost.
        let mut c = cc(Variant::Reno, Units::Segments);
        assert_eq!(c.on_dupack(0, fl(10), 10 * S), DupAckAction::None);
        assert_eq!(c.on_dupack(0, fl(10), 10 * S), DupAckAction::None);
        assert_eq!(
            c.on_dupack(0, fl(10), 10 * S),
            DupAckAction::FastRetransmit { go_back_n: false }
        );
        assert_eq!((c.ssthresh, c.cwnd, c.inflated), (5 * S, 5 * S, 8 * S));
        let mut inflated = vec![];
        for _ in 4..=9 {
            assert_eq!(c.on_dupack(0, fl(10), 10 * S), DupAckAction::Inflate);
            inflated.push(c.inflated / S);
        }
        assert_eq!(inflated, vec![9, 10, 11, 12, 13, 14]);
        // The ACK for the retransmission acknowledges all 10 old segments; 4 new are out.
        assert_eq!(c.on_new_ack(10 * S, 10 * S, fl(4)), NewAckAction::ExitRecovery);
        assert_eq!(
            (c.cwnd, c.window(), c.phase()),
            (5 * S, 5 * S, Phase::CongestionAvoidance)
        );
    }

    #[test]
    fn newreno_partial_ack_arithmetic() {
        // Rulebook §3.6: inflated 14, ssthresh 5; a partial ACK covering 3 segments gives 12.
        let mut c = cc(Variant::Newreno, Units::Segments);
        for _ in 0..3 {
            c.on_dupack(0, fl(10), 10 * S);
        }
        for _ in 0..6 {
            c.on_dupack(0, fl(10), 10 * S);
        }
        assert_eq!((c.inflated, c.ssthresh, c.recover), (14 * S, 5 * S, Some(10 * S)));
        let a = c.on_new_ack(3 * S, 3 * S, fl(11));
        assert_eq!(a, NewAckAction::PartialAck { restart_timer: true });
        assert_eq!(c.inflated, 12 * S);
        assert!(c.in_fast_recovery);
        // A second partial ACK under "first_partial" does not restart the timer.
        assert_eq!(
            c.on_new_ack(5 * S, 2 * S, fl(10)),
            NewAckAction::PartialAck { restart_timer: false }
        );
        assert_eq!(c.inflated, 11 * S);
        // Full ACK, option (a): min(ssthresh, max(FlightSize, SMSS) + SMSS) with flight 3.
        assert_eq!(c.on_new_ack(10 * S, 5 * S, fl(3)), NewAckAction::ExitRecovery);
        assert_eq!(c.cwnd, 4 * S);
    }

    #[test]
    fn newreno_ignores_dupacks_below_recover_after_timeout() {
        let mut c = cc(Variant::Newreno, Units::Bytes);
        c.on_timeout(fl(10), 10 * S);
        assert_eq!((c.cwnd, c.ssthresh), (S, 5 * S));
        for _ in 0..2 {
            c.on_dupack(2 * S, fl(1), 10 * S);
        }
        // ack = 2000 does not cover more than recover = 10000: no second reduction.
        assert_eq!(c.on_dupack(2 * S, fl(1), 10 * S), DupAckAction::Suppressed);
        assert_eq!(c.ssthresh, 5 * S);
    }

    #[test]
    fn tahoe_third_dupack_sets_one_segment_and_goes_back_n() {
        let mut c = cc(Variant::Tahoe, Units::Bytes);
        c.on_dupack(0, fl(8), 8 * S);
        c.on_dupack(0, fl(8), 8 * S);
        assert_eq!(
            c.on_dupack(0, fl(8), 8 * S),
            DupAckAction::FastRetransmit { go_back_n: true }
        );
        assert_eq!((c.cwnd, c.ssthresh, c.phase()), (S, 4 * S, Phase::SlowStart));
    }

    #[test]
    fn old_tahoe_never_acts_on_dupacks() {
        let mut c = cc(Variant::OldTahoe, Units::Bytes);
        for _ in 0..10 {
            assert_eq!(c.on_dupack(0, fl(8), 8 * S), DupAckAction::None);
        }
        assert_eq!(c.cwnd, 10 * S);
    }

    #[test]
    fn repeated_timeouts_hold_or_recompute_ssthresh() {
        let mut c = cc(Variant::Reno, Units::Bytes);
        c.on_timeout(fl(10), 10 * S);
        assert_eq!(c.ssthresh, 5 * S);
        c.on_timeout(fl(1), 10 * S);
        assert_eq!(c.ssthresh, 5 * S, "RFC 5681: held");
        c.cfg.repeated_rto_ssthresh = RepeatedRto::HalveAgain;
        c.on_timeout(fl(1), 10 * S);
        assert_eq!(c.ssthresh, 2 * S, "recomputed from a one-segment flight, floored at 2");
    }

    #[test]
    fn slow_start_and_avoidance_increments() {
        let mut c = cc(Variant::Reno, Units::Bytes);
        c.ssthresh = 12 * S;
        c.on_new_ack(S, S, fl(9));
        assert_eq!(c.cwnd, 11 * S);
        c.on_new_ack(2 * S, 2 * S, fl(9)); // ACK counting: still +1 SMSS for 2 segments
        assert_eq!(c.cwnd, 12 * S);
        c.on_new_ack(3 * S, S, fl(9)); // cwnd = ssthresh: congestion avoidance
        assert_eq!(c.cwnd, 12 * S + S * S / (12 * S));
        // ABC with L = 2 in slow start.
        let mut c = cc(Variant::Reno, Units::Bytes);
        c.cfg.slow_start = SlowStartRule::Abc;
        c.on_new_ack(3 * S, 3 * S, fl(7));
        assert_eq!(c.cwnd, 12 * S);
        // Byte counting in CA: +1 SMSS only after a whole cwnd is acknowledged.
        let mut c = cc(Variant::Reno, Units::Bytes);
        c.cfg.congestion_avoidance = CongAvoidRule::ByteCounting;
        c.ssthresh = 4 * S;
        for _ in 0..9 {
            c.on_new_ack(S, S, fl(9));
        }
        assert_eq!(c.cwnd, 10 * S);
        c.on_new_ack(S, S, fl(9));
        assert_eq!(c.cwnd, 11 * S);
    }

    #[test]
    fn ssthresh_rules_in_both_units() {
        let mut c = cc(Variant::Reno, Units::Segments);
        c.cwnd = 9500; // 9.5 segments
        c.cfg.ssthresh_rule = SsthreshRule::HalfCwnd;
        assert_eq!(c.loss_ssthresh(fl(9)), 4 * S, "floor(9.5 / 2) = 4 segments, as ns-2");
        c.cfg.units = Units::Bytes;
        assert_eq!(c.loss_ssthresh(fl(9)), 4750);
        c.cfg.ssthresh_rule = SsthreshRule::HalfFlight;
        assert_eq!(
            c.loss_ssthresh(Flight { bytes: 3 * S, segs: 3 }),
            2 * S,
            "floor of 2·SMSS"
        );
    }
}
