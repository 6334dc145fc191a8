//! Congestion control: one state struct, and one file per mechanism that changes it.
//!
//! - [`recovery`]: loss recovery, the only thing the variant (Old Tahoe, Tahoe, Reno,
//!   NewReno) decides, and the ssthresh rule.
//! - [`increase`]: slow start and congestion avoidance.
//! - [`gate`]: whether an ACK may grow cwnd at all (RFC 2861 §2's full-window test).
//! - [`brtcp`]: BR-TCP's ssthresh from a reserved rate (source 002).
//! - [`binomial`]: binomial increase and decrease (source 004 §3.2).
//! - [`validation`]: what idle and application-limited periods do to cwnd, dispatching to
//!   [`restart`] (RFC 5681 §4.1), [`cwv`] (RFC 2861) or [`newcwv`] (RFC 7661).
//!
//! Every other choice is an independent axis, so one axis can change at a time. The sender
//! owns the sequence space and the timer and calls these hooks; each hook returns what the
//! sender must do (retransmit, go back N, restart the timer) or what changed (a decay).
//!
//! Conventions: byte counts throughout. `recover` is one past the highest byte sent when the
//! last loss response began (`snd_max`), so "the ACK covers more than recover" in RFC 6582's
//! inclusive numbering reads `ack > recover` here.

pub mod bbr;
pub mod binomial;
pub mod brtcp;
pub mod cubic;
pub mod cwv;
pub mod dctcp;
pub mod ecn;
pub mod edges;
pub mod gate;
pub mod hooks;
pub mod hystart;
pub mod increase;
pub mod newcwv;
pub mod recovery;
pub mod restart;
pub mod sack_recovery;
pub mod validation;

use crate::explain::Why;
use crate::scenario::{CcCfg, Units, Variant};

/// Records a decision when explanations are on: `why!(cc, Rule::X, from_phase, [values…])`
/// (inputs then outputs, as the rule names them); the phase after is read from `cc`.
macro_rules! why {
    ($cc:expr, $rule:expr, $from:expr, [$($v:expr),* $(,)?]) => {
        if $cc.why.on {
            let to = $cc.phase() as u8;
            $cc.why.push($rule, $from as u8, to, &[$(($v) as u64),*]);
        }
    };
}
pub use crate::trace::ValidationRow;
pub use ecn::EcnAnswer;
pub use validation::{Validation, WindowChange};
pub(crate) use why;

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
    /// BBR's Startup: pacing and cwnd gain 2/ln 2 until the bandwidth stops growing.
    BbrStartup = 5,
    /// BBR's Drain: pacing below the bandwidth until the queue Startup built is gone.
    BbrDrain = 6,
    /// BBR's ProbeBW: the pacing gain cycles around the bandwidth estimate.
    BbrProbeBw = 7,
    /// BBR's ProbeRTT: four segments in flight to measure the path's own RTT.
    BbrProbeRtt = 8,
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
            Phase::BbrStartup => "bbr_startup",
            Phase::BbrDrain => "bbr_drain",
            Phase::BbrProbeBw => "bbr_probe_bw",
            Phase::BbrProbeRtt => "bbr_probe_rtt",
        }
    }

    /// All phases, in code order.
    pub const ALL: [Phase; 9] = [
        Phase::Handshake,
        Phase::SlowStart,
        Phase::CongestionAvoidance,
        Phase::FastRecovery,
        Phase::TimeoutRecovery,
        Phase::BbrStartup,
        Phase::BbrDrain,
        Phase::BbrProbeBw,
        Phase::BbrProbeRtt,
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

/// A row for the event log that a rule writes (the sender logs it as it is).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Note {
    /// The event kind.
    pub kind: crate::trace::EventKind,
    /// The row's fields, as that kind defines them.
    pub seq: u64,
    pub len: u32,
    pub seg: u32,
    pub tx: u32,
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
        /// Whether the retransmission timer restarts (stops, for go-back-N) with it.
        restart_timer: bool,
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
    variant: Variant,
    /// The axes.
    cfg: CcCfg,
    /// SMSS in bytes.
    smss: u64,
    /// Receiver window in bytes (fixed).
    rwnd: u64,
    /// Duplicate ACKs that trigger fast retransmit.
    dupthresh: u32,
    /// Congestion window, bytes.
    cwnd: u64,
    /// Slow-start threshold, bytes (`u64::MAX` = arbitrarily high).
    ssthresh: u64,
    /// The window in force during fast recovery (RFC 5681's "cwnd = ssthresh + 3·SMSS" and
    /// its inflation), kept apart from cwnd as ns-3 does.
    inflated: u64,
    /// In Reno/NewReno fast recovery, or SACK-based recovery.
    in_fast_recovery: bool,
    /// The recovery is SACK-based (RFC 6675): the sender's scoreboard leads it, and new
    /// ACKs neither grow cwnd nor take the variant's recovery steps.
    sack_recovery: bool,
    /// RFC 6582 `recover` (one past); None = the initial send sequence (any loss qualifies).
    recover: Option<u64>,
    /// Consecutive duplicate ACKs.
    dupacks: u32,
    /// RFC 3465 byte counter for congestion avoidance.
    bytes_acked: u64,
    /// Slow start after a timeout: ABC uses L = 1 (RFC 3465 §2.3).
    after_rto: bool,
    /// A partial ACK was already seen in this recovery episode.
    partial_seen: bool,
    /// The segment at snd_una was resent by the timer and nothing new was acknowledged since.
    rto_retransmitted: bool,
    /// After a timeout: `snd_max` at the timeout, until acknowledged.
    timeout_recovery: Option<u64>,
    /// Initial window, bytes (restart window and new CWV floor).
    iw: u64,
    /// Idle and application-limited state (restart, CWV, new CWV).
    validation: Validation,
    /// Changes made by window validation since the sender last drained them (for the trace).
    changes: Vec<WindowChange>,
    /// Other rows a rule wants in the event log (CUBIC's epochs), drained with `changes`.
    notes: Vec<Note>,
    /// The TCP clock tick, ns (window validation's time base).
    tick: u64,
    /// Header bytes per packet (BR-TCP's packet size).
    header: u64,
    /// What BR-TCP's ssthresh formula reads.
    br: brtcp::BrState,
    /// Linux 3.16's record of how the window was used (growth gate `linux_3_16`).
    usage: gate::CwndUsage,
    /// CUBIC's W_max, epoch, K and W_est (congestion avoidance `cubic`).
    cubic: cubic::CubicState,
    /// HyStart++'s rounds and conservative slow start (slow start `hystart_pp`).
    hystart: hystart::HyStart,
    /// BBR's model and state (controller `bbr`); None for window-based control.
    bbr: Option<Box<bbr::Bbr>>,
    /// ECN's state at the sender (RFC 3168 §6.1; unread without ECN).
    ecn: ecn::EcnState,
    /// DCTCP's α and window measurement (`ecn = "dctcp"`); None otherwise.
    dctcp: Option<Box<dctcp::Dctcp>>,
    /// The time of the event being handled (set by the sender before it calls in).
    now: crate::time::Ns,
    /// Decisions explained since the sender last drained them (off unless asked for).
    pub why: Why,
}

impl Cc {
    /// Initial state: cwnd = IW, ssthresh as configured (RFC 5681 §3.1).
    pub fn new(variant: Variant, cfg: CcCfg, smss: u64, rwnd: u64, iw_segs: u64, ssthresh: u64, dupthresh: u64) -> Cc {
        let cwnd = iw_segs * smss;
        let validation = Validation::new(&cfg);
        let mut cc = Cc {
            variant,
            cfg,
            smss,
            rwnd,
            dupthresh: dupthresh as u32,
            cwnd,
            ssthresh: if ssthresh == 0 { u64::MAX } else { ssthresh },
            inflated: cwnd,
            in_fast_recovery: false,
            sack_recovery: false,
            recover: None,
            dupacks: 0,
            bytes_acked: 0,
            after_rto: false,
            partial_seen: false,
            rto_retransmitted: false,
            timeout_recovery: None,
            iw: cwnd,
            validation,
            changes: Vec::new(),
            notes: Vec::new(),
            tick: 1,
            header: 0,
            br: brtcp::BrState::default(),
            usage: gate::CwndUsage::default(),
            cubic: cubic::CubicState::default(),
            hystart: hystart::HyStart::default(),
            bbr: None,
            ecn: Default::default(),
            dctcp: None,
            now: 0,
            why: Why::default(),
        };
        if cc.cfg.controller == crate::scenario::Controller::Bbr {
            cc.bbr = Some(Box::default());
            // ssthresh plays no part in BBR (Linux starts it at "infinity").
            cc.ssthresh = u64::MAX;
        }
        if cc.cfg.slow_start == crate::scenario::SlowStartRule::None {
            // Jacobson 1988 §1: without slow start the whole window opens at once.
            cc.cwnd = cc.restart_window();
            cc.inflated = cc.cwnd;
        }
        cc
    }

    /// Gives the rules that draw at random (BBR's ProbeBW phase) their key: a function of
    /// the scenario's seed and the flow, so every run of a seed draws the same.
    pub fn seed_draws(&mut self, seed: u64, flow: u32) {
        if let Some(b) = self.bbr.as_deref_mut() {
            b.draw_key = crate::rng::hash_words(&[seed, flow as u64, 0xBB]);
        }
    }

    /// The phase as a decision's `from`: only computed when explanations are on (read it
    /// before the state changes; `why!` reads the phase after).
    #[inline]
    pub fn why_phase(&self) -> Phase {
        if self.why.on {
            self.phase()
        } else {
            Phase::Handshake
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

    /// Phase for plotting.
    pub fn phase(&self) -> Phase {
        if self.in_fast_recovery {
            Phase::FastRecovery
        } else if self.timeout_recovery.is_some() {
            Phase::TimeoutRecovery
        } else if let Some(b) = &self.bbr {
            b.mode.phase()
        } else if self.cwnd < self.ssthresh {
            Phase::SlowStart
        } else {
            Phase::CongestionAvoidance
        }
    }

    /// The window the sender may fill, as the full-window tests see it: min(window, rwnd).
    pub fn usable_window(&self) -> u64 {
        self.window().min(self.rwnd)
    }

    /// Flight in the cwnd's unit, as bytes: whole segments count SMSS each in segment mode.
    pub fn flight_in_units(&self, flight: Flight) -> u64 {
        match self.cfg.units {
            Units::Bytes => flight.bytes,
            Units::Segments => flight.segs * self.smss,
        }
    }

    /// An RTT sample of a data segment was taken; `srtt` is the estimator's value after it.
    /// What reads RTT samples (BR-TCP's formula) takes them here.
    #[inline]
    pub fn on_rtt_sample(&mut self, sample: crate::time::Ns, srtt: crate::time::Ns) {
        self.br.on_rtt_sample(sample, srtt);
        self.cubic_rtt_sample(sample);
    }

    /// A data segment of `len` bytes left for the `tx`-th time at `now` (RTO `rto`), with
    /// `flight` now outstanding and `app_has_more` when unsent data waits: the idle
    /// policy's bookkeeping (RFC 2861 §2.2 after each send; RFC 7661's R counts first
    /// retransmissions).
    #[inline]
    pub fn on_data_sent(
        &mut self,
        now: crate::time::Ns,
        rto: crate::time::Ns,
        len: u64,
        tx: u32,
        flight: Flight,
        app_has_more: bool,
    ) {
        if tx == 2 {
            self.validation_retransmitted(len);
        }
        self.after_send(now, rto, flight, app_has_more);
    }

    /// A new ACK (`ack > snd_una`) acknowledged `acked` bytes; `before` is the flight when it
    /// arrived, `flight` the flight after it; `head` the segment now at snd_una (the one a
    /// partial ACK resends).
    #[inline(always)]
    pub fn on_new_ack(&mut self, ack: u64, acked: u64, flight: Flight, before: Flight, head: u64) -> NewAckAction {
        if self.bbr.is_some() {
            return self.bbr_new_ack(self.now, ack, acked, flight, before, head);
        }
        // RFC 5681 §3.1: new data acknowledged, so a later timeout may lower ssthresh again.
        self.rto_retransmitted = false;
        if self.timeout_recovery.is_some_and(|p| ack >= p) {
            self.timeout_recovery = None;
        }
        if !self.in_fast_recovery {
            self.dupacks = 0;
            if self.growth_allowed(before) {
                self.grow(acked, before.segs.saturating_sub(flight.segs));
            }
            return NewAckAction::Normal;
        }
        self.recovery_ack(ack, acked, flight, head)
    }

    /// A new ACK in recovery: the variant's steps, or nothing while the sender's SACK
    /// recovery decides the window (until it ends).
    #[inline(never)]
    fn recovery_ack(&mut self, ack: u64, acked: u64, flight: Flight, head: u64) -> NewAckAction {
        if self.sack_recovery {
            return NewAckAction::Normal;
        }
        let action = self.fast_recovery_ack(ack, acked, flight, head);
        if action == NewAckAction::ExitRecovery {
            self.validation_recovery_end();
        }
        action
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{CongAvoidRule, RepeatedRto, Scenario, SlowStartRule, SsthreshRule};

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
        assert_eq!(c.on_dupack(0, fl(10), 10 * S, 0), DupAckAction::None);
        assert_eq!(c.on_dupack(0, fl(10), 10 * S, 0), DupAckAction::None);
        assert_eq!(
            c.on_dupack(0, fl(10), 10 * S, 0),
            DupAckAction::FastRetransmit {
                go_back_n: false,
                restart_timer: true
            }
        );
        assert_eq!((c.ssthresh, c.cwnd, c.inflated), (5 * S, 5 * S, 8 * S));
        let mut inflated = vec![];
        for _ in 4..=9 {
            assert_eq!(c.on_dupack(0, fl(10), 10 * S, 0), DupAckAction::Inflate);
            inflated.push(c.inflated / S);
        }
        assert_eq!(inflated, vec![9, 10, 11, 12, 13, 14]);
        // The ACK for the retransmission acknowledges all 10 old segments; 4 new are out.
        assert_eq!(
            c.on_new_ack(10 * S, 10 * S, fl(4), fl(4), 0),
            NewAckAction::ExitRecovery
        );
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
            c.on_dupack(0, fl(10), 10 * S, 0);
        }
        for _ in 0..6 {
            c.on_dupack(0, fl(10), 10 * S, 0);
        }
        assert_eq!((c.inflated, c.ssthresh, c.recover), (14 * S, 5 * S, Some(10 * S)));
        let a = c.on_new_ack(3 * S, 3 * S, fl(11), fl(11), 0);
        assert_eq!(a, NewAckAction::PartialAck { restart_timer: true });
        assert_eq!(c.inflated, 12 * S);
        assert!(c.in_fast_recovery);
        // A second partial ACK under "first_partial" does not restart the timer.
        assert_eq!(
            c.on_new_ack(5 * S, 2 * S, fl(10), fl(10), 0),
            NewAckAction::PartialAck { restart_timer: false }
        );
        assert_eq!(c.inflated, 11 * S);
        // Full ACK, option (a): min(ssthresh, max(FlightSize, SMSS) + SMSS) with flight 3.
        assert_eq!(c.on_new_ack(10 * S, 5 * S, fl(3), fl(3), 0), NewAckAction::ExitRecovery);
        assert_eq!(c.cwnd, 4 * S);
    }

    #[test]
    fn newreno_ignores_dupacks_below_recover_after_timeout() {
        let mut c = cc(Variant::Newreno, Units::Bytes);
        c.on_timeout(fl(10), 10 * S, 0);
        assert_eq!((c.cwnd, c.ssthresh), (S, 5 * S));
        for _ in 0..2 {
            c.on_dupack(2 * S, fl(1), 10 * S, 0);
        }
        // ack = 2000 does not cover more than recover = 10000: no second reduction.
        assert_eq!(c.on_dupack(2 * S, fl(1), 10 * S, 0), DupAckAction::Suppressed);
        assert_eq!(c.ssthresh, 5 * S);
    }

    #[test]
    fn tahoe_third_dupack_sets_one_segment_and_goes_back_n() {
        let mut c = cc(Variant::Tahoe, Units::Bytes);
        c.on_dupack(0, fl(8), 8 * S, 0);
        c.on_dupack(0, fl(8), 8 * S, 0);
        assert_eq!(
            c.on_dupack(0, fl(8), 8 * S, 0),
            DupAckAction::FastRetransmit {
                go_back_n: true,
                restart_timer: true
            }
        );
        assert_eq!((c.cwnd, c.ssthresh, c.phase()), (S, 4 * S, Phase::SlowStart));
    }

    #[test]
    fn old_tahoe_never_acts_on_dupacks() {
        let mut c = cc(Variant::OldTahoe, Units::Bytes);
        for _ in 0..10 {
            assert_eq!(c.on_dupack(0, fl(8), 8 * S, 0), DupAckAction::None);
        }
        assert_eq!(c.cwnd, 10 * S);
    }

    #[test]
    fn repeated_timeouts_hold_or_recompute_ssthresh() {
        let mut c = cc(Variant::Reno, Units::Bytes);
        c.on_timeout(fl(10), 10 * S, 0);
        assert_eq!(c.ssthresh, 5 * S);
        c.on_timeout(fl(1), 10 * S, 0);
        assert_eq!(c.ssthresh, 5 * S, "RFC 5681: held");
        c.cfg.repeated_rto_ssthresh = RepeatedRto::HalveAgain;
        c.on_timeout(fl(1), 10 * S, 0);
        assert_eq!(c.ssthresh, 2 * S, "recomputed from a one-segment flight, floored at 2");
    }

    #[test]
    fn slow_start_and_avoidance_increments() {
        let mut c = cc(Variant::Reno, Units::Bytes);
        c.ssthresh = 12 * S;
        c.on_new_ack(S, S, fl(9), fl(9), 0);
        assert_eq!(c.cwnd, 11 * S);
        c.on_new_ack(2 * S, 2 * S, fl(9), fl(9), 0); // ACK counting: still +1 SMSS for 2 segments
        assert_eq!(c.cwnd, 12 * S);
        c.on_new_ack(3 * S, S, fl(9), fl(9), 0); // cwnd = ssthresh: congestion avoidance
        assert_eq!(c.cwnd, 12 * S + S * S / (12 * S));
        // ABC with L = 2 in slow start.
        let mut c = cc(Variant::Reno, Units::Bytes);
        c.cfg.slow_start = SlowStartRule::Abc;
        c.on_new_ack(3 * S, 3 * S, fl(7), fl(7), 0);
        assert_eq!(c.cwnd, 12 * S);
        // Byte counting in CA: +1 SMSS only after a whole cwnd is acknowledged.
        let mut c = cc(Variant::Reno, Units::Bytes);
        c.cfg.congestion_avoidance = CongAvoidRule::ByteCounting;
        c.ssthresh = 4 * S;
        for _ in 0..9 {
            c.on_new_ack(S, S, fl(9), fl(9), 0);
        }
        assert_eq!(c.cwnd, 10 * S);
        c.on_new_ack(S, S, fl(9), fl(9), 0);
        assert_eq!(c.cwnd, 11 * S);
    }

    #[test]
    fn the_window_full_gate_blocks_growth_unless_the_window_was_full() {
        use crate::scenario::{FullWindowSlack, GrowthGate};
        let mut c = cc(Variant::Newreno, Units::Bytes);
        c.cfg.growth_gate = GrowthGate::WindowFull;
        c.ssthresh = 4 * S;
        c.cwnd = 10 * S + 500; // congestion avoidance
                               // 6 of 10.5 segments were out when the ACK came: application-limited, no growth.
        c.on_new_ack(S, S, fl(5), fl(6), 0);
        assert_eq!(c.cwnd, 10 * S + 500);
        // 10 segments out: 500 B unused, less than one SMSS: full under one_mss.
        c.on_new_ack(2 * S, S, fl(9), fl(10), 0);
        assert_eq!(c.cwnd, 10 * S + 500 + S * S / (10 * S + 500));
        // The literal test never sees a fractional window full.
        let w = c.cwnd;
        c.cfg.full_window_slack = FullWindowSlack::None;
        c.on_new_ack(3 * S, S, fl(9), fl(10), 0);
        assert_eq!(c.cwnd, w);
        // Slow start is gated too; a receiver-window-limited sender counts as full.
        let mut c = cc(Variant::Newreno, Units::Bytes);
        c.cfg.growth_gate = GrowthGate::WindowFull;
        c.rwnd = 4 * S;
        c.on_new_ack(S, S, fl(3), fl(4), 0);
        assert_eq!(c.cwnd, 11 * S, "min(cwnd 10, rwnd 4) = 4 segments, all out");
    }

    #[test]
    fn br_tcp_sets_ssthresh_from_the_reserved_rate_in_either_recovery() {
        use crate::scenario::BrRecovery;
        // 1 Mbit/s reserved, 100 ms minimum RTT, 1000 + 40-byte packets:
        // 1e6 · 0.1 / 8320 = 12.02 → 12 segments.
        let br = |recovery| {
            let mut c = cc(Variant::BrTcp, Units::Bytes);
            c.cfg.br_recovery = recovery;
            c.header = 40;
            c.br.reserved_bps = 1_000_000;
            c.br.on_rtt_sample(100_000_000, 100_000_000);
            c
        };
        let mut c = br(BrRecovery::SetCwnd);
        c.cwnd = 30 * S;
        for _ in 0..2 {
            assert_eq!(c.on_dupack(0, fl(30), 30 * S, 0), DupAckAction::None);
        }
        assert_eq!(
            c.on_dupack(0, fl(30), 30 * S, 0),
            DupAckAction::FastRetransmit {
                go_back_n: false,
                restart_timer: true
            }
        );
        assert_eq!(
            (c.ssthresh, c.cwnd, c.inflated, c.in_fast_recovery),
            (12 * S, 12 * S, 12 * S, false)
        );
        // Later duplicates of the window change nothing; a new 3rd one below recover is suppressed.
        for _ in 0..5 {
            assert_eq!(c.on_dupack(0, fl(30), 30 * S, 0), DupAckAction::None);
        }
        c.on_new_ack(2 * S, 2 * S, fl(28), fl(30), 0);
        for _ in 0..2 {
            c.on_dupack(2 * S, fl(28), 30 * S, 0);
        }
        assert_eq!(c.on_dupack(2 * S, fl(28), 30 * S, 0), DupAckAction::Suppressed);
        // A timeout: the same ssthresh, one segment.
        c.on_timeout(fl(28), 30 * S, 0);
        assert_eq!((c.ssthresh, c.cwnd), (12 * S, S));
        // NewReno-style recovery: the window in force is ssthresh + 3 SMSS and inflates.
        let mut c = br(BrRecovery::Newreno);
        c.cwnd = 30 * S;
        for _ in 0..3 {
            c.on_dupack(0, fl(30), 30 * S, 0);
        }
        assert_eq!(
            (c.ssthresh, c.cwnd, c.inflated, c.in_fast_recovery),
            (12 * S, 12 * S, 15 * S, true)
        );
        assert_eq!(c.on_dupack(0, fl(30), 30 * S, 0), DupAckAction::Inflate);
        assert_eq!(
            c.on_new_ack(10 * S, 10 * S, fl(21), fl(30), 0),
            NewAckAction::PartialAck { restart_timer: true }
        );
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
