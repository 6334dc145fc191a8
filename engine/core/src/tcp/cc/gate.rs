//! The growth gate: whether a new ACK may grow cwnd at all.
//!
//! RFC 2861 §2 (Handley, Padhye, Floyd 1999 §2): grow cwnd on an ACK only if the window was
//! full when it arrived, so a sender that never uses its window cannot inflate it. "Full"
//! compares the flight with min(cwnd, rwnd), the window the sender may actually fill; the
//! paper's §5 tolerance counts a window with less than one SMSS unused as full (a sender
//! that sends whole segments, or holds small ones under Nagle, never fills it exactly).
//! New CWV (RFC 7661) brings its own rule, applied in [`super::validation`].

pub mod settings;

use super::{why, Cc, Flight};
use crate::explain::Rule;
use crate::scenario::{FullWindowSlack, GrowthGate, Units};

/// Unused packets of cwnd that Linux ≤ 3.15 still counts as cwnd-limited
/// (`tcp_max_tso_deferred_mss`, 3; earlier kernels used `tcp_max_burst`, also 3).
pub const LINUX_DEFERRED_MSS: u64 = 3;
/// Linux's default `sysctl_tcp_tso_win_divisor`.
pub const LINUX_TSO_WIN_DIVISOR: u64 = 3;
/// Linux's default `sk_gso_max_size`, bytes.
pub const LINUX_GSO_MAX_SIZE: u64 = 65_536;

/// Linux ≤ 3.15, `tcp_is_cwnd_limited(sk, in_flight)`, in packets, with GSO on (Linux's
/// default for every device that can checksum): cwnd-limited if the flight reaches cwnd,
/// or if the unused part is small enough that TSO would have deferred sending it.
pub fn linux_315_limited(cwnd_pkts: u64, in_flight: u64, smss: u64) -> bool {
    if in_flight >= cwnd_pkts {
        return true;
    }
    let left = cwnd_pkts - in_flight;
    (left * LINUX_TSO_WIN_DIVISOR < cwnd_pkts && left * smss < LINUX_GSO_MAX_SIZE) || left <= LINUX_DEFERRED_MSS
}

/// Linux 3.16's window-usage record (`tcp_cwnd_validate`): the largest packets-in-flight
/// of the current window, where that window ends, and whether the send pass that reached
/// it was cwnd-limited.
#[derive(Clone, Debug, Default)]
pub struct CwndUsage {
    /// `max_packets_out`.
    pub(super) max_out: u64,
    /// `max_packets_seq`: snd_nxt when `max_out` was recorded.
    pub(super) max_seq: u64,
    /// `is_cwnd_limited`.
    pub(super) limited: bool,
}

impl CwndUsage {
    /// After a send pass that sent something (`tcp_write_xmit` → `tcp_cwnd_validate`): a
    /// new record once the window recorded last is acknowledged, or when the flight beats
    /// it. `limited`: the pass stopped because cwnd was full while data waited (a pass that
    /// runs out of data is not cwnd-limited, however full the window).
    pub fn after_send(&mut self, packets_out: u64, snd_nxt: u64, snd_una: u64, limited: bool) {
        if snd_una >= self.max_seq || packets_out > self.max_out {
            self.max_out = packets_out;
            self.max_seq = snd_nxt;
            self.limited = limited;
        }
    }

    /// `tcp_is_cwnd_limited(sk)` of 3.16: in slow start (cwnd ≤ ssthresh) while cwnd is
    /// under twice the recorded flight; in congestion avoidance only if it was cwnd-limited.
    pub fn allows(&self, cwnd_pkts: u64, slow_start: bool) -> bool {
        if slow_start {
            cwnd_pkts < 2 * self.max_out
        } else {
            self.limited
        }
    }
}

/// Whether a flight fills a window, under a slack rule. `window` in bytes; in segment units
/// the window holds floor(window / SMSS) packets.
pub fn is_full(units: Units, slack: FullWindowSlack, window: u64, flight: Flight, smss: u64) -> bool {
    match (units, slack) {
        // Less than one SMSS of the window unused.
        (Units::Bytes, FullWindowSlack::OneMss) => window.saturating_sub(flight.bytes) < smss,
        (Units::Bytes, FullWindowSlack::None) => flight.bytes >= window,
        // Whole packets: every packet the window allows is out.
        (Units::Segments, FullWindowSlack::OneMss) => flight.segs >= window / smss,
        // Literal: the packets out cover the window exactly (a fractional window never is).
        (Units::Segments, FullWindowSlack::None) => flight.segs * smss >= window,
    }
}

impl Cc {
    /// Whether the window the sender may fill is full with `flight` outstanding.
    pub fn window_full(&self, flight: Flight) -> bool {
        is_full(
            self.cfg.units,
            self.cfg.full_window_slack,
            self.usable_window(),
            flight,
            self.smss,
        )
    }

    /// Whether an ACK that arrived with `before` outstanding may grow cwnd: the gate
    /// (RFC 2861 §2), then the idle policy's own rule (RFC 7661 §4.3). A refusal is
    /// explained by the gate that refused.
    #[inline(always)]
    pub(super) fn growth_allowed(&mut self, before: Flight) -> bool {
        let gate = match self.cfg.growth_gate {
            GrowthGate::Always => true,
            GrowthGate::WindowFull => self.window_full(before),
            GrowthGate::Linux315 => linux_315_limited(self.cwnd / self.smss, before.segs, self.smss),
            // Linux 3.16 tests slow start as cwnd <= ssthresh.
            GrowthGate::Linux316 => self.usage.allows(self.cwnd / self.smss, self.cwnd <= self.ssthresh),
        };
        if !gate {
            if self.why.on {
                let (from, c, s) = (self.phase(), self.cwnd, self.smss);
                match self.cfg.growth_gate {
                    GrowthGate::WindowFull => why!(
                        self,
                        Rule::GateWindowFull,
                        from,
                        [
                            c,
                            self.usable_window(),
                            before.bytes,
                            before.segs,
                            s,
                            (self.cfg.full_window_slack == FullWindowSlack::OneMss) as u64
                        ]
                    ),
                    GrowthGate::Linux315 => why!(self, Rule::GateLinux315, from, [c, c / s, before.segs, s]),
                    _ => why!(
                        self,
                        Rule::GateLinux316,
                        from,
                        [c, self.ssthresh, c / s, self.usage.max_out, self.usage.limited as u64]
                    ),
                }
            }
            return false;
        }
        if !self.validation.allows_growth(self, before) {
            why!(self, Rule::GateNewCwv, self.phase(), [self.cwnd, before.bytes]);
            return false;
        }
        true
    }

    /// Linux 3.16's record of a send pass that sent something (`tcp_write_xmit` →
    /// `tcp_cwnd_validate`), kept only under that gate: `packets_out` and `snd_nxt` after
    /// the pass, and whether cwnd stopped it while data waited.
    #[inline]
    pub fn after_send_pass(&mut self, packets_out: u64, snd_nxt: u64, snd_una: u64, cwnd_stopped: bool) {
        if self.cfg.growth_gate == GrowthGate::Linux316 {
            self.usage.after_send(packets_out, snd_nxt, snd_una, cwnd_stopped);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: u64 = 1000;

    fn fl(bytes: u64, segs: u64) -> Flight {
        Flight { bytes, segs }
    }

    #[test]
    fn linux_3_15_counts_a_nearly_full_window_as_cwnd_limited() {
        let m = 1460;
        assert!(linux_315_limited(10, 10, m), "flight = cwnd");
        assert!(linux_315_limited(12, 9, m), "3 unused: TSO would defer");
        assert!(!linux_315_limited(12, 8, m), "4 unused, not under a third of 12");
        // GSO: unused under a third of cwnd and under 64 KB.
        assert!(linux_315_limited(30, 21, m), "9 of 30 unused, 13 140 B");
        assert!(!linux_315_limited(100, 60, m), "40 of 100 unused");
        assert!(linux_315_limited(300, 260, m), "40 of 300 unused, 58 400 B");
        assert!(!linux_315_limited(300, 250, m), "50 unused = 73 000 B, over 64 KB");
    }

    #[test]
    fn linux_3_16_remembers_the_largest_flight_of_a_window_and_whether_it_was_cwnd_limited() {
        let mut u = CwndUsage::default();
        // A pass leaves 6 packets out, application-limited, right edge 6000.
        u.after_send(6, 6000, 0, false);
        assert!(u.allows(11, true), "slow start: 11 < 2 × 6");
        assert!(!u.allows(12, true));
        assert!(!u.allows(12, false), "congestion avoidance needs a cwnd-limited window");
        // A smaller flight in the same window changes nothing; a larger one is the record.
        u.after_send(4, 7000, 2000, true);
        assert!(!u.limited);
        u.after_send(8, 8000, 2000, true);
        assert!(u.limited && u.allows(12, false));
        // Once the recorded window is acknowledged, the next pass starts a new record.
        u.after_send(2, 9000, 8000, false);
        assert_eq!((u.max_out, u.max_seq, u.limited), (2, 9000, false));
    }

    #[test]
    fn one_mss_slack_counts_a_window_short_of_one_segment_as_full() {
        use FullWindowSlack::{None as Literal, OneMss};
        // cwnd 10.5 segments in bytes, 10 full segments out: 500 B unused.
        assert!(is_full(Units::Bytes, OneMss, 10_500, fl(10 * S, 10), S));
        assert!(!is_full(Units::Bytes, Literal, 10_500, fl(10 * S, 10), S));
        // One whole SMSS unused is not full under either rule.
        assert!(!is_full(Units::Bytes, OneMss, 11 * S, fl(10 * S, 10), S));
        assert!(is_full(Units::Bytes, Literal, 10 * S, fl(10 * S, 10), S));
        // Segments: 9.5 segments of window hold 9 packets.
        assert!(is_full(Units::Segments, OneMss, 9_500, fl(9 * S, 9), S));
        assert!(!is_full(Units::Segments, Literal, 9_500, fl(9 * S, 9), S));
        assert!(!is_full(Units::Segments, OneMss, 9_500, fl(8 * S, 8), S));
    }
}
