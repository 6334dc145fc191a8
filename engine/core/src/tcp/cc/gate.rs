//! The growth gate: whether a new ACK may grow cwnd at all.
//!
//! RFC 2861 §2 (Handley, Padhye, Floyd 1999 §2): grow cwnd on an ACK only if the window was
//! full when it arrived, so a sender that never uses its window cannot inflate it. "Full"
//! compares the flight with min(cwnd, rwnd), the window the sender may actually fill; the
//! paper's §5 tolerance counts a window with less than one SMSS unused as full (a sender
//! that sends whole segments, or holds small ones under Nagle, never fills it exactly).
//! New CWV (RFC 7661) brings its own rule, applied in [`super::validation`].

use super::{Cc, Flight};
use crate::scenario::{FullWindowSlack, GrowthGate, Units};

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
    /// (RFC 2861 §2), then the idle policy's own rule (RFC 7661 §4.3).
    pub(super) fn growth_allowed(&self, before: Flight) -> bool {
        let gate = match self.cfg.growth_gate {
            GrowthGate::Always => true,
            GrowthGate::WindowFull => self.window_full(before),
        };
        gate && self.validation.allows_growth(self, before)
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
