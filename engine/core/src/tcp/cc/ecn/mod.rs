//! The sender's part of ECN (RFC 3168 §6.1): what its packets carry and its answer to an
//! ECN-Echo. The answer is the flow's own loss response without a retransmission (its
//! ssthresh rule through [`Cc::loss_ssthresh`], then cwnd = ssthresh), so it combines with
//! every increase and ssthresh rule; DCTCP's answer (`super::dctcp`) replaces it for a
//! DCTCP flow. BBR v1 ignores ECN, as Linux's tcp_bbr.c does (it sets no `ssthresh` answer
//! to CE and its model reads only deliveries and RTTs).
//!
//! Once per window of data (RFC 3168 §6.1.2): after a reduction no ECE counts until the
//! cumulative ACK passes `high`, one past the highest byte sent at the reduction: ACKs up
//! to `high` may still echo the mark already answered, since the receiver echoes until the
//! CWR segment (sent at or above `high`) reaches it. In fast recovery or after a timeout
//! the loss response already covers the window (Linux: no CWR while in Recovery or Loss).

pub mod settings;

use super::{why, Cc, Flight};
use crate::explain::Rule;
use crate::net::Packet;
use settings::EcnMode;

/// A flow's ECN state at the sender (all zero and unread for a flow without ECN).
#[derive(Clone, Debug, Default)]
pub(super) struct EcnState {
    /// What the flow is configured for (what its SYN offers).
    pub(super) configured: Option<EcnMode>,
    /// What is in force (after the handshake, or by configuration without one).
    pub(super) active: Option<EcnMode>,
    /// One past the highest byte sent at the last reduction (None: none yet).
    pub(super) high: Option<u64>,
    /// The next new data segment carries CWR.
    pub(super) cwr_pending: bool,
    /// Reductions made.
    pub(super) reductions: u64,
}

/// What the sender does after an ACK of an ECN flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EcnAnswer {
    /// Nothing (no ECE, or one the window already answered, or BBR).
    None,
    /// The window was reduced (CWR goes on the next new segment).
    Reduced,
}

impl Cc {
    /// Sets the flow's ECN configuration; `handshake`: it is negotiated by the SYN exchange
    /// (off until then), else in force at once (both ends configured alike).
    pub fn set_ecn(&mut self, mode: EcnMode, handshake: bool, dctcp: &crate::scenario::DctcpCfg) {
        if !mode.on() {
            return;
        }
        self.ecn.configured = Some(mode);
        self.ecn.active = (!handshake).then_some(mode);
        if mode == EcnMode::Dctcp {
            self.dctcp = Some(Box::new(super::dctcp::Dctcp::new(dctcp)));
        }
    }

    /// The ECN flags a SYN carries: ECE and CWR when the flow is configured for ECN (RFC
    /// 3168 §6.1.1: an "ECN-setup SYN").
    pub fn syn_ecn_flags(&self) -> u8 {
        if self.ecn.configured.is_some() {
            Packet::ECE | Packet::CWR
        } else {
            0
        }
    }

    /// The SYN-ACK arrived with `flags`: ECE (and not CWR) accepts ECN (RFC 3168 §6.1.1).
    /// Returns whether ECN is now in force.
    pub fn on_syn_ack_ecn(&mut self, flags: u8) -> bool {
        if flags & (Packet::ECE | Packet::CWR) == Packet::ECE {
            self.ecn.active = self.ecn.configured;
        }
        self.ecn.active.is_some()
    }

    /// Whether ECN is in force (the sender then hands every ACK to [`Cc::on_ecn_ack`]).
    pub fn ecn_active(&self) -> bool {
        self.ecn.active.is_some()
    }

    /// The ECN bits of a data segment of an ECN flow: ECT(0) on new data, Not-ECT on a
    /// retransmission (RFC 3168 §6.1.5); CWR on the first new segment after a reduction.
    pub fn data_ecn(&mut self, retx: bool) -> u8 {
        if retx {
            return 0;
        }
        if std::mem::take(&mut self.ecn.cwr_pending) {
            Packet::ECT0 | Packet::CWR
        } else {
            Packet::ECT0
        }
    }

    /// An ACK of an ECN flow was processed: `ece` its ECN-Echo flag, `before` the flight
    /// and `cwnd0` the window when it arrived, `acked` the bytes it newly acknowledged,
    /// `snd_una`/`snd_max` after it. An ECE ACK grows nothing (RFC 3168 §6.1.2: cwnd is not
    /// increased in response to an ECE ACK), and the first one of a window reduces.
    pub fn on_ecn_ack(
        &mut self,
        ece: bool,
        before: Flight,
        cwnd0: u64,
        acked: u64,
        snd_una: u64,
        snd_max: u64,
    ) -> EcnAnswer {
        if self.bbr.is_some() {
            return EcnAnswer::None;
        }
        if self.dctcp.is_some() {
            self.dctcp_ack(ece, acked, snd_una, snd_max);
        }
        if !ece {
            return EcnAnswer::None;
        }
        if self.cwnd > cwnd0 && !self.in_fast_recovery {
            let (p, grown) = (self.why_phase(), self.cwnd);
            self.cwnd = cwnd0;
            self.inflated = cwnd0;
            why!(self, Rule::EcnNoGrowth, p, [grown, cwnd0, cwnd0]);
        }
        if self.in_fast_recovery || self.timeout_recovery.is_some() || self.ecn.high.is_some_and(|h| snd_una <= h) {
            return EcnAnswer::None;
        }
        let (from, c0, ss0, prev) = (self.why_phase(), self.cwnd, self.ssthresh, self.ecn.high.unwrap_or(0));
        if self.dctcp.is_some() {
            self.dctcp_cut();
        } else {
            self.ssthresh = self.loss_ssthresh(before);
            self.cwnd = self.recovery_target();
        }
        self.inflated = self.cwnd;
        self.bytes_acked = 0;
        self.ecn.high = Some(snd_max);
        self.ecn.cwr_pending = true;
        self.ecn.reductions += 1;
        let fs = self.flight_in_units(before);
        why!(
            self,
            Rule::EcnReduce,
            from,
            [snd_una, prev, fs, c0, ss0, self.ssthresh, self.cwnd, snd_max]
        );
        EcnAnswer::Reduced
    }

    /// Window reductions ECN marks caused.
    pub fn ecn_reductions(&self) -> u64 {
        self.ecn.reductions
    }
}
