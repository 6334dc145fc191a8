//! Loss recovery: what each variant does on duplicate ACKs, on new ACKs during fast
//! recovery, and on a retransmission timeout (RFC 5681 §3.1–3.2, RFC 6582, RFC 3042), and
//! the ssthresh rule they share.

pub mod settings;

use super::increase::milli;
use super::{why, Cc, DupAckAction, Flight, NewAckAction};
use crate::explain::Rule;
use crate::scenario::{
    BrRecovery, NewRenoFullAck, NewRenoTimer, PartialWindow, RepeatedRto, SsthreshRule, Units, Variant,
};

impl Cc {
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

    /// ssthresh after a loss, explained by the rule that computes it.
    pub fn loss_ssthresh(&mut self, flight: Flight) -> u64 {
        if self.bbr.is_some() {
            return self.bbr_save_cwnd();
        }
        let v = self.ssthresh_rule(flight);
        self.hystart_loss();
        // RFC 9438 §4.6–4.8: CUBIC's W_max and epoch go with its decrease.
        let cubic = self.cfg.ssthresh_rule == SsthreshRule::Cubic && !self.own_decrease();
        let w_max_before = if cubic { self.cubic_on_loss() } else { 0 };
        if self.why.on {
            let (from, s, old) = (self.phase(), self.smss, self.ssthresh);
            let (w, l2, b2) = (self.cwnd.min(self.rwnd), self.cfg.binomial_l, self.cfg.binomial_beta);
            if self.variant == Variant::BrTcp {
                let size = match self.cfg.br_packet_size {
                    crate::scenario::BrPacketSize::Wire => s + self.header,
                    crate::scenario::BrPacketSize::Mss => s,
                };
                let rtt = self.br.rtt(self.cfg.br_rtt);
                why!(
                    self,
                    Rule::SsthreshBrTcp,
                    from,
                    [self.br.reserved_bps, rtt, size, s, old, v]
                );
            } else if self.cfg.binomial {
                why!(self, Rule::SsthreshBinomial, from, [w, s, milli(l2), milli(b2), old, v]);
            } else {
                match (self.cfg.ssthresh_rule, self.cfg.units) {
                    (SsthreshRule::None, _) => why!(self, Rule::SsthreshNone, from, [old, v]),
                    (SsthreshRule::HalfFlight, Units::Bytes) => {
                        why!(self, Rule::SsthreshHalfFlight, from, [flight.bytes, s, old, v])
                    }
                    (SsthreshRule::HalfFlight, Units::Segments) => {
                        why!(self, Rule::SsthreshHalfFlight, from, [flight.segs * s, s, old, v])
                    }
                    (SsthreshRule::HalfCwnd, _) => {
                        why!(self, Rule::SsthreshHalfCwnd, from, [self.cwnd, self.rwnd, s, old, v])
                    }
                    (SsthreshRule::Cubic, _) => {
                        let (c, b, w) = (self.cwnd, milli(self.cfg.cubic_beta), self.cubic.w_max);
                        let fc = self.cfg.cubic_fast_convergence as u64;
                        match self.cfg.cubic_ssthresh_from {
                            crate::scenario::CubicSsthreshFrom::Flight => {
                                let fs = self.flight_in_units(flight);
                                why!(
                                    self,
                                    Rule::SsthreshCubic,
                                    from,
                                    [fs, c, b, w_max_before, fc, s, old, v, w]
                                )
                            }
                            crate::scenario::CubicSsthreshFrom::Cwnd => {
                                why!(
                                    self,
                                    Rule::SsthreshCubicCwnd,
                                    from,
                                    [c, b, w_max_before, fc, s, old, v, w]
                                )
                            }
                        }
                    }
                }
            }
        }
        v
    }

    /// BR-TCP and binomial controls decrease by their own rule, whatever `ssthresh_rule` says.
    fn own_decrease(&self) -> bool {
        self.variant == Variant::BrTcp || self.cfg.binomial
    }

    /// ssthresh after a loss.
    pub fn ssthresh_rule(&self, flight: Flight) -> u64 {
        let smss = self.smss;
        if self.variant == Variant::BrTcp {
            // Source 002 eqs. (1)–(2): the reserved rate's bandwidth-delay product.
            return self
                .br
                .ssthresh(self.cfg.br_rtt, self.cfg.br_packet_size, smss, self.header);
        }
        if self.cfg.binomial {
            // Source 004 §3.2 eq. (1), D: w − β·w^l packets, whole packets in segment units.
            let b = super::binomial::decreased(
                self.cwnd.min(self.rwnd),
                smss,
                (2.0 * self.cfg.binomial_l) as i32,
                self.cfg.binomial_beta,
            );
            return match self.cfg.units {
                Units::Bytes => b,
                Units::Segments => b / smss * smss,
            };
        }
        match (self.cfg.units, self.cfg.ssthresh_rule) {
            // Jacobson 1988 §3, before it: no multiplicative decrease.
            (_, SsthreshRule::None) => self.ssthresh,
            // RFC 5681 §3.1 eq. (4): max(FlightSize/2, 2·SMSS).
            (Units::Bytes, SsthreshRule::HalfFlight) => (flight.bytes / 2).max(2 * smss),
            // ns-2 / BSD / Linux: half of min(cwnd, rwnd), at least 2 segments.
            (Units::Bytes, SsthreshRule::HalfCwnd) => (self.cwnd.min(self.rwnd) / 2).max(2 * smss),
            // Segment units: whole segments, at least 2.
            (Units::Segments, SsthreshRule::HalfFlight) => (flight.segs / 2).max(2) * smss,
            (Units::Segments, SsthreshRule::HalfCwnd) => (self.cwnd.min(self.rwnd) / (2 * smss)).max(2) * smss,
            // RFC 9438 §4.6: max(FlightSize·β_cubic, 2·SMSS).
            (_, SsthreshRule::Cubic) => self.cubic_ssthresh(self.flight_in_units(flight)),
        }
    }

    /// The window fast recovery works around: ssthresh, or with no decrease (ssthresh rule
    /// `none`, before Jacobson 1988 §3) the window the loss found (at most ssthresh), so
    /// Reno and NewReno keep their recovery but never shrink the window. During recovery
    /// cwnd already equals it.
    pub(super) fn recovery_target(&self) -> u64 {
        if self.cfg.ssthresh_rule == SsthreshRule::None && !self.own_decrease() {
            // ssthresh is then the scenario's initial value, which may be below a segment:
            // never less than one SMSS (RFC 5681 §3.1's loss window).
            self.cwnd.min(self.ssthresh).max(self.smss)
        } else {
            self.ssthresh
        }
    }

    /// Whether a loss whose duplicate ACKs carry `ack` is a new loss episode: the ACK must
    /// cover more than `recover` (RFC 6582 §3.2 step 2; ns-2's `highest_ack_ > recover_`).
    pub(super) fn past_recover(&self, ack: u64) -> bool {
        self.recover.is_none_or(|r| ack > r)
    }

    /// A new ACK during fast recovery (RFC 5681 §3.2 step 6, RFC 6582 §3.2 step 3).
    pub(super) fn fast_recovery_ack(&mut self, ack: u64, acked: u64, flight: Flight, head: u64) -> NewAckAction {
        let (from, w0, rec) = (self.why_phase(), self.inflated, self.recover.unwrap_or(u64::MAX));
        match self.variant {
            Variant::Newreno | Variant::BrTcp if ack < self.recover.unwrap_or(0) => {
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
                match self.cfg.newreno_partial_window {
                    PartialWindow::Deflate => why!(
                        self,
                        Rule::PartialDeflate,
                        from,
                        [ack, rec, w0, acked, self.smss, head, self.inflated, restart_timer]
                    ),
                    PartialWindow::Reset => why!(
                        self,
                        Rule::PartialReset,
                        from,
                        [ack, rec, w0, self.cwnd, head, self.inflated, restart_timer]
                    ),
                }
                NewAckAction::PartialAck { restart_timer }
            }
            Variant::Newreno | Variant::BrTcp => {
                // RFC 6582 §3.2 step 3, full ACK: leave fast recovery.
                let target = self.recovery_target();
                let fs = match self.cfg.units {
                    Units::Bytes => flight.bytes,
                    Units::Segments => flight.segs * self.smss,
                };
                self.cwnd = match self.cfg.newreno_full_ack {
                    NewRenoFullAck::MinFlight => target.min(fs.max(self.smss) + self.smss),
                    NewRenoFullAck::Ssthresh => target,
                };
                self.leave_fast_recovery();
                match self.cfg.newreno_full_ack {
                    NewRenoFullAck::MinFlight => {
                        why!(
                            self,
                            Rule::FullAckMinFlight,
                            from,
                            [ack, rec, self.ssthresh, target, fs, self.smss, self.cwnd]
                        )
                    }
                    NewRenoFullAck::Ssthresh => why!(
                        self,
                        Rule::FullAckSsthresh,
                        from,
                        [ack, rec, self.ssthresh, target, self.cwnd]
                    ),
                }
                NewAckAction::ExitRecovery
            }
            _ => {
                // RFC 5681 §3.2 step 6 (Reno): any new ACK deflates to ssthresh and ends fast
                // recovery; this ACK does not grow cwnd.
                self.cwnd = self.recovery_target();
                self.leave_fast_recovery();
                why!(
                    self,
                    Rule::RenoExit,
                    from,
                    [ack, rec, w0, self.ssthresh, self.cwnd, self.cwnd]
                );
                NewAckAction::ExitRecovery
            }
        }
    }

    pub(super) fn leave_fast_recovery(&mut self) {
        self.in_fast_recovery = false;
        self.inflated = self.cwnd;
        self.dupacks = 0;
        self.bytes_acked = 0;
    }

    /// A duplicate ACK carrying `ack` (= snd_una) arrived; `flight` is `snd_nxt − snd_una`,
    /// `snd_max` the highest byte sent (one past).
    /// `head` is the segment at snd_una (the one a fast retransmit resends).
    pub fn on_dupack(&mut self, ack: u64, flight: Flight, snd_max: u64, head: u64) -> DupAckAction {
        if self.bbr.is_some() {
            return self.bbr_dupack(self.now, ack, flight, snd_max, head);
        }
        self.dupacks = self.dupacks.saturating_add(1);
        let (from, c0, ss0) = (self.why_phase(), self.cwnd, self.ssthresh);
        if self.in_fast_recovery {
            // RFC 5681 §3.2 step 4: each further duplicate ACK inflates the window by SMSS.
            self.inflated += self.smss;
            why!(
                self,
                Rule::Inflate,
                from,
                [self.dupacks, self.inflated - self.smss, self.smss, self.inflated]
            );
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
            Variant::Newreno | Variant::BrTcp => true,
        };
        if guarded && !self.past_recover(ack) {
            why!(
                self,
                Rule::FastRetransmitSuppressed,
                from,
                [self.dupacks, ack, self.recover.unwrap_or(u64::MAX)]
            );
            return DupAckAction::Suppressed;
        }
        self.ssthresh = self.loss_ssthresh(flight);
        self.recover = Some(snd_max);
        self.bytes_acked = 0;
        let action = match self.variant {
            Variant::Tahoe => {
                // Tahoe: cwnd = 1 segment (LW), slow start, go back N.
                self.cwnd = self.restart_window();
                self.inflated = self.cwnd;
                self.fast_retransmit(true)
            }
            Variant::BrTcp if self.cfg.br_recovery == BrRecovery::SetCwnd => {
                // Source 002 §2 step 1: cwnd = ssthresh, resend, continue in avoidance.
                self.cwnd = self.ssthresh;
                self.inflated = self.cwnd;
                self.fast_retransmit(false)
            }
            _ => {
                // RFC 5681 §3.2 steps 2–3: cwnd = ssthresh, the window in force is
                // ssthresh + 3·SMSS (one SMSS per duplicate that left the network).
                self.cwnd = self.recovery_target();
                self.inflated = self.cwnd + self.dupthresh as u64 * self.smss;
                self.in_fast_recovery = true;
                self.partial_seen = false;
                self.fast_retransmit(false)
            }
        };
        if self.why.on {
            let (d, fs, s, ss) = (self.dupacks, self.flight_in_units(flight), self.smss, self.ssthresh);
            match (self.variant, action) {
                (Variant::Tahoe, _) => why!(
                    self,
                    Rule::FastRetransmitTahoe,
                    from,
                    [d, head, fs, c0, ss0, s, ss, self.cwnd, snd_max]
                ),
                (Variant::BrTcp, _) if !self.in_fast_recovery => {
                    why!(
                        self,
                        Rule::FastRetransmitBr,
                        from,
                        [d, head, fs, c0, ss0, ss, self.cwnd, snd_max]
                    )
                }
                _ => why!(
                    self,
                    Rule::FastRetransmit,
                    from,
                    [d, head, fs, c0, ss0, s, ss, self.cwnd, self.inflated, snd_max]
                ),
            }
        }
        // RFC 7661 §4.4.1: a loss in the non-validated phase sizes cwnd from pipeACK.
        self.validation_loss(flight);
        action
    }

    /// The retransmission timer expired with `flight` outstanding; `snd_max` the highest byte
    /// sent (one past).
    /// `head` is the segment at snd_una (resent first).
    pub fn on_timeout(&mut self, flight: Flight, snd_max: u64, head: u64) {
        let (from, c0, ss0) = (self.why_phase(), self.cwnd, self.ssthresh);
        // RFC 5681 §3.1: lower ssthresh unless this segment was already resent by the timer
        // (and nothing was acknowledged since) and the "hold" rule is chosen.
        let hold = self.rto_retransmitted && self.cfg.repeated_rto_ssthresh == RepeatedRto::Hold;
        if !hold {
            // RFC 5681 eq. (4) uses the flight before the timeout; go-back-N comes after.
            self.ssthresh = self.loss_ssthresh(flight);
        } else {
            why!(self, Rule::SsthreshHold, from, [ss0, ss0]);
        }
        self.rto_retransmitted = true;
        self.validation_timeout();
        if self.cfg.congestion_avoidance == crate::scenario::CongAvoidRule::Cubic {
            self.cubic_timeout();
        }
        // Loss window: one segment (RFC 5681 §3.1); without slow start, the whole window.
        self.cwnd = self.restart_window();
        self.inflated = self.cwnd;
        self.in_fast_recovery = false;
        self.sack_recovery = false;
        self.dupacks = 0;
        self.bytes_acked = 0;
        self.after_rto = true;
        // RFC 6582 §3.2 step 4 (and ns-2 for every variant): remember the highest sent.
        self.recover = Some(snd_max);
        self.timeout_recovery = Some(snd_max);
        if self.bbr.is_some() {
            self.bbr_timeout();
        }
        let fs = self.flight_in_units(flight);
        why!(
            self,
            Rule::Timeout,
            from,
            [head, fs, c0, ss0, self.cwnd, self.ssthresh, snd_max]
        );
    }
}

/// Whether the flow has a fast recovery phase: Reno, NewReno, and BR-TCP with NewReno's recovery.
fn has_fast_recovery(variant: Variant, cc: &crate::scenario::CcCfg) -> bool {
    matches!(variant, Variant::Reno | Variant::Newreno)
        || (variant == Variant::BrTcp && cc.br_recovery == BrRecovery::Newreno)
}

/// The recovery phases: fast recovery (when the variant has it), then timeout recovery.
pub(crate) fn states(variant: Variant, cc: &crate::scenario::CcCfg) -> Vec<super::Phase> {
    use super::Phase::{FastRecovery as Fr, TimeoutRecovery as Tr};
    if has_fast_recovery(variant, cc) {
        vec![Fr, Tr]
    } else {
        vec![Tr]
    }
}

/// The state-machine edges of loss recovery for the flow's variant: the fast retransmit
/// (Tahoe's, fast recovery's or BR-TCP's), fast recovery's own, the suppressed second
/// reduction, the timeout, and the way out of timeout recovery (growing by the increase rules).
pub(crate) fn edges(variant: Variant, cc: &crate::scenario::CcCfg) -> Vec<super::edges::Transition> {
    use super::edges::edge as t;
    use super::Phase::{CongestionAvoidance as Ca, FastRecovery as Fr, SlowStart as Ss, TimeoutRecovery as Tr};
    let (ss_rules, ca_rules) = (super::increase::ss_rules(cc), super::increase::ca_rules(cc));
    let fast_recovery = has_fast_recovery(variant, cc);
    let mut tr = Vec::new();
    match variant {
        Variant::OldTahoe => {}
        Variant::Tahoe => tr.push(t(
            &[Ss, Ca],
            Some(Ss),
            "3 duplicate ACKs: fast retransmit, cwnd = 1 segment",
            &[Rule::FastRetransmitTahoe],
        )),
        _ if fast_recovery => {
            tr.push(t(
                &[Ss, Ca],
                Some(Fr),
                "3 duplicate ACKs: fast retransmit, enter fast recovery",
                &[Rule::FastRetransmit],
            ));
            tr.push(t(&[Fr], None, "duplicate ACK: inflate the window", &[Rule::Inflate]));
            if variant == Variant::Reno {
                tr.push(t(
                    &[Fr],
                    Some(Ca),
                    "first new ACK: deflate to ssthresh, leave",
                    &[Rule::RenoExit],
                ));
            } else {
                tr.push(t(
                    &[Fr],
                    None,
                    "partial ACK: resend the next hole, stay",
                    &[Rule::PartialDeflate, Rule::PartialReset],
                ));
                tr.push(t(
                    &[Fr],
                    Some(Ca),
                    "full ACK: leave fast recovery",
                    &[Rule::FullAckMinFlight, Rule::FullAckSsthresh],
                ));
            }
        }
        _ => tr.push(t(
            &[Ss, Ca],
            Some(Ca),
            "3 duplicate ACKs: fast retransmit, cwnd = ssthresh from the reserved rate",
            &[Rule::FastRetransmitBr],
        )),
    }
    if variant != Variant::OldTahoe {
        tr.push(t(
            &[Ss, Ca],
            None,
            "3 duplicate ACKs below recover: no second reduction",
            &[Rule::FastRetransmitSuppressed],
        ));
    }
    let mut timeout_from = vec![Ss, Ca, Tr];
    if fast_recovery {
        timeout_from.insert(2, Fr);
    }
    tr.push(t(
        &timeout_from,
        Some(Tr),
        "retransmission timeout: cwnd = 1 segment, go back N",
        &[Rule::Timeout],
    ));
    tr.push(t(&[Tr], None, "ACK: slow start again", ss_rules));
    tr.push(t(
        &[Tr],
        Some(Ss),
        "everything outstanding at the timeout is acknowledged",
        ss_rules,
    ));
    tr.push(t(
        &[Tr],
        Some(Ca),
        "everything outstanding at the timeout is acknowledged",
        ca_rules,
    ));
    tr
}
