//! Window increase on a new ACK outside recovery: slow start (one SMSS per ACK, or RFC 3465
//! byte counting with limit L) and congestion avoidance (SMSS²/cwnd per ACK, or one SMSS per
//! cwnd of acknowledged bytes).

pub mod settings;

use super::{why, Cc};
use crate::explain::Rule;
use crate::scenario::{CongAvoidRule, SlowStartRule};

impl Cc {
    /// cwnd at the start and after a timeout (or Tahoe's fast retransmit): one segment with
    /// slow start (RFC 5681 §3.1's loss window); without it (Jacobson 1988 §1, 4.3BSD),
    /// min(ssthresh, rwnd) at once, in whole segments, at least one.
    pub fn restart_window(&self) -> u64 {
        match self.cfg.slow_start {
            SlowStartRule::None => (self.ssthresh.min(self.rwnd) / self.smss).max(1) * self.smss,
            _ => self.smss,
        }
    }

    /// cwnd growth on a new ACK outside fast recovery; `acked` bytes in `acked_pkts`
    /// packets.
    #[inline(always)]
    pub(super) fn grow(&mut self, acked: u64, acked_pkts: u64) {
        let before = self.cwnd;
        self.increase(acked, acked_pkts);
        // BSD's tcp_input: snd_cwnd = min(cw + incr, TCP_MAXWIN << snd_scale). A cap never
        // lowers a cwnd set above it by other means.
        let cap = self.cfg.max_cwnd;
        if cap > 0 && self.cwnd > cap {
            let (from, grown) = (self.phase(), self.cwnd);
            self.cwnd = cap.max(before);
            why!(self, Rule::CwndCap, from, [grown, before, cap, self.cwnd]);
        }
    }

    #[inline(always)]
    fn increase(&mut self, acked: u64, acked_pkts: u64) {
        let smss = self.smss;
        let (from, c0, ss, cnt0) = (self.why_phase(), self.cwnd, self.ssthresh, self.bytes_acked);
        // Linux 3.x tests slow start as cwnd <= ssthresh.
        let slow_start = match self.cfg.slow_start {
            SlowStartRule::Linux => self.cwnd <= self.ssthresh,
            _ => self.cwnd < self.ssthresh,
        };
        if slow_start {
            // Slow start (RFC 5681 §3.1). Once HyStart++ is over (it ended the first slow
            // start, or a loss came), standard slow start: RFC 3465's byte counting.
            let rule_now = match self.cfg.slow_start {
                SlowStartRule::HystartPp if self.hystart.done => SlowStartRule::Abc,
                r => r,
            };
            let (rule, l) = match rule_now {
                SlowStartRule::AckCounting => (Rule::SsAckCounting, 0),
                SlowStartRule::Abc => (Rule::SsAbc, if self.after_rto { 1 } else { self.cfg.abc_limit }),
                SlowStartRule::Linux => (Rule::SsLinux, 0),
                SlowStartRule::None => (Rule::SsNone, 0),
                SlowStartRule::HystartPp => (Rule::SsHystart, 0),
            };
            let inc = match rule_now {
                // One SMSS per new ACK, however much it acknowledges (RFC 2581 §3.1).
                SlowStartRule::AckCounting => smss,
                // RFC 3465 §2.2: the bytes acknowledged, at most L·SMSS; L = 1 after an RTO
                // (§2.3).
                SlowStartRule::Abc => {
                    let l = if self.after_rto { 1 } else { self.cfg.abc_limit };
                    acked.min(l * smss)
                }
                // Linux 3.x: one packet per packet acknowledged, whatever its size, up to
                // ssthresh + 1 packet.
                SlowStartRule::Linux => (acked_pkts * smss).min(self.ssthresh.saturating_add(smss) - self.cwnd),
                // No slow start: the window is already as open as it gets.
                SlowStartRule::None => self.restart_window().saturating_sub(self.cwnd),
                // RFC 9406 §4.2: min(N, L·SMSS), divided by CSS_GROWTH_DIVISOR in CSS.
                SlowStartRule::HystartPp => self.hystart_increase(acked).0,
            };
            self.cwnd += inc;
            self.bytes_acked = 0;
            if self.why.on {
                let c1 = self.cwnd;
                match rule {
                    Rule::SsAckCounting => why!(self, rule, from, [c0, ss, smss, acked, c1]),
                    Rule::SsAbc => why!(self, rule, from, [c0, ss, smss, acked, l, c1]),
                    Rule::SsLinux => why!(self, rule, from, [c0, ss, smss, acked_pkts, c1]),
                    Rule::SsHystart => {
                        let css = self.hystart.css.is_some() as u64;
                        why!(self, rule, from, [c0, ss, smss, acked, css, c1])
                    }
                    _ => why!(self, rule, from, [c0, ss, self.rwnd, smss, c1]),
                }
            }
        } else {
            self.after_rto = false;
            if self.cfg.binomial {
                // Source 004 §3.2 eq. (1), I: α / w^k packets per RTT.
                self.cwnd += super::binomial::increase_per_ack(
                    self.cwnd,
                    smss,
                    (2.0 * self.cfg.binomial_k) as i32,
                    self.cfg.binomial_alpha,
                );
                why!(
                    self,
                    Rule::CaBinomial,
                    from,
                    [
                        c0,
                        ss,
                        smss,
                        milli(self.cfg.binomial_k),
                        milli(self.cfg.binomial_alpha),
                        self.cwnd
                    ]
                );
                return;
            }
            match self.cfg.congestion_avoidance {
                // RFC 5681 §3.1 eq. (3): SMSS·SMSS/cwnd per ACK, at least one byte.
                CongAvoidRule::PerAck => {
                    self.cwnd += (smss * smss / self.cwnd).max(1);
                    why!(self, Rule::CaPerAck, from, [c0, ss, smss, self.cwnd]);
                }
                // RFC 3465 §2.1: one SMSS per cwnd of acknowledged bytes.
                CongAvoidRule::ByteCounting => {
                    self.bytes_acked += acked;
                    if self.bytes_acked >= self.cwnd {
                        self.bytes_acked -= self.cwnd;
                        self.cwnd += smss;
                    }
                    why!(
                        self,
                        Rule::CaByteCounting,
                        from,
                        [c0, ss, smss, acked, cnt0, self.cwnd, self.bytes_acked]
                    );
                }
                // Linux 3.x: if the ACK count has reached cwnd (packets), grow by one packet
                // and restart the count; otherwise count this ACK.
                // RFC 9438 §4.2–4.5.
                CongAvoidRule::Cubic => self.cubic_increase(acked),
                CongAvoidRule::LinuxCounter => {
                    if self.bytes_acked >= self.cwnd / smss {
                        self.cwnd += smss;
                        self.bytes_acked = 0;
                    } else {
                        self.bytes_acked += 1;
                    }
                    why!(
                        self,
                        Rule::CaLinux,
                        from,
                        [c0, ss, smss, cnt0, self.cwnd, self.bytes_acked]
                    );
                }
            }
        }
    }
}

/// A real setting in thousandths, for the record.
pub(super) fn milli(x: f64) -> u64 {
    (x * 1000.0).round().max(0.0) as u64
}

/// Slow start's and congestion avoidance's phases, which every window-based flow has.
pub(crate) const STATES: [super::Phase; 2] = [super::Phase::SlowStart, super::Phase::CongestionAvoidance];

/// The rules whose decisions grow cwnd in slow start, for the flow's settings.
pub(crate) fn ss_rules(cc: &crate::scenario::CcCfg) -> &'static [Rule] {
    match cc.slow_start {
        SlowStartRule::AckCounting => &[Rule::SsAckCounting],
        SlowStartRule::Abc => &[Rule::SsAbc],
        SlowStartRule::Linux => &[Rule::SsLinux],
        SlowStartRule::None => &[Rule::SsNone],
        SlowStartRule::HystartPp => super::hystart::SS_RULES,
    }
}

/// The rules whose decisions grow cwnd in congestion avoidance, for the flow's settings.
pub(crate) fn ca_rules(cc: &crate::scenario::CcCfg) -> &'static [Rule] {
    if cc.binomial {
        return &[Rule::CaBinomial];
    }
    match cc.congestion_avoidance {
        CongAvoidRule::PerAck => &[Rule::CaPerAck],
        CongAvoidRule::ByteCounting => &[Rule::CaByteCounting],
        CongAvoidRule::LinuxCounter => &[Rule::CaLinux],
        CongAvoidRule::Cubic => super::cubic::CA_RULES,
    }
}

/// The state-machine edges of the increase rules: growth in each phase, and slow start's end.
pub(crate) fn edges(cc: &crate::scenario::CcCfg) -> Vec<super::edges::Transition> {
    use super::edges::edge;
    use super::Phase::{CongestionAvoidance as Ca, SlowStart as Ss};
    let (ss, ca) = (ss_rules(cc), ca_rules(cc));
    vec![
        edge(&[Ss], None, "ACK: slow-start increase", ss),
        edge(&[Ss], Some(Ca), "cwnd reaches ssthresh", ss),
        edge(&[Ca], None, "ACK: congestion-avoidance increase", ca),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Scenario, Units, Variant};

    const S: u64 = 1000;

    fn linux() -> Cc {
        let mut cfg = Scenario::default().flows[0].cc.clone();
        cfg.units = Units::Segments;
        cfg.slow_start = SlowStartRule::Linux;
        cfg.congestion_avoidance = CongAvoidRule::LinuxCounter;
        Cc::new(Variant::Newreno, cfg, S, 1 << 30, 10, 12 * S, 3)
    }

    #[test]
    fn linux_slow_start_adds_the_packets_acked_up_to_ssthresh_plus_one() {
        let mut c = linux();
        // An ACK for 3 small packets (150 bytes) adds 3 packets, whatever their size.
        c.grow(150, 3);
        assert_eq!(c.cwnd, 12 * S + S, "min(10 + 3, ssthresh 12 + 1)");
        // cwnd 13 > ssthresh 12: congestion avoidance from now on.
        c.grow(150, 3);
        assert_eq!(c.cwnd, 13 * S);
        // At cwnd = ssthresh, Linux is still in slow start (cwnd <= ssthresh).
        let mut d = linux();
        d.cwnd = 12 * S;
        d.grow(S, 1);
        assert_eq!(d.cwnd, 13 * S);
    }

    #[test]
    fn linux_congestion_avoidance_counts_acks_not_bytes() {
        let mut c = linux();
        c.cwnd = 4 * S;
        c.ssthresh = 2 * S;
        // Four ACKs fill the counter (0 → 4); the fifth adds a packet and clears it,
        // however many bytes or packets each acknowledged.
        for k in 0..4 {
            c.grow(50 * (k + 1), 1 + k);
            assert_eq!(c.cwnd, 4 * S, "ACK {k}");
        }
        c.grow(50, 1);
        assert_eq!((c.cwnd, c.bytes_acked), (5 * S, 0));
    }
}
