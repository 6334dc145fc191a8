//! BR-TCP (Komuro et al., ICC 2006, source 002): a flow with a reserved rate r sets
//! ssthresh, on a loss, to the reserved rate's bandwidth-delay product instead of half its
//! window:
//!
//!   ssthresh = r / (8 · size) · RTT packets      (source 002 eqs. 1 and 2)
//!
//! then cwnd = ssthresh after three duplicate ACKs, or one segment after a timeout; slow
//! start and congestion avoidance are otherwise the usual ones. What the paper leaves open is
//! a named setting:
//!
//! - `cc.br_rtt`: the RTT of the formula, `min_rtt` (the smallest RTT sample so far: "in
//!   this simulation, minimum RTT was adopted", §3) or `srtt`. Before any sample: the path's
//!   round trip as built (propagation plus one full packet and one ACK on every link).
//! - `cc.br_packet_size`: `wire` (the whole packet, SMSS plus headers: the paper's
//!   1500-byte packets are IP packets) or `mss`.
//! - Rounding: whole packets, rounded down, at least two (RFC 5681's floor), times SMSS.
//! - `cc.br_recovery`: `set_cwnd` (the paper's text read literally: cwnd = ssthresh, no
//!   window inflation, resend the lost segment and continue in congestion avoidance; later
//!   duplicate ACKs of the window change nothing, and the `recover` guard stops a second
//!   reduction for the same window) or `newreno` (RFC 6582 fast recovery with partial ACKs
//!   around the same ssthresh and cwnd), the default: on the paper's own setup the literal
//!   reading stalls for an RTT after each loss, then bursts a whole reserved BDP at line
//!   rate into the reserved class and times out, which the paper's steady windows
//!   (figures 5, 6, 10) rule out (`tests/reservation.rs`).

pub mod settings;

use crate::scenario::BrPacketSize;
use crate::scenario::BrRtt;
use crate::time::{Ns, NS_PER_S};

/// What BR-TCP's formula reads.
#[derive(Clone, Debug, Default)]
pub struct BrState {
    /// Reserved rate, bit/s.
    pub(super) reserved_bps: u64,
    /// Round trip of the path as built, ns (before any RTT sample).
    pub(super) path_rtt: Ns,
    /// Smallest RTT sample so far, ns.
    pub(super) min_rtt: Option<Ns>,
    /// Smoothed RTT, ns (0 before any sample).
    pub(super) srtt: Ns,
}

impl BrState {
    /// An RTT sample was taken; `srtt` is the estimator's value after it.
    pub fn on_rtt_sample(&mut self, sample: Ns, srtt: Ns) {
        self.min_rtt = Some(self.min_rtt.map_or(sample, |m| m.min(sample)));
        self.srtt = srtt;
    }

    /// The RTT the formula uses.
    pub fn rtt(&self, mode: BrRtt) -> Ns {
        match mode {
            BrRtt::MinRtt => self.min_rtt.unwrap_or(self.path_rtt),
            BrRtt::Srtt if self.srtt > 0 => self.srtt,
            BrRtt::Srtt => self.path_rtt,
        }
    }

    /// ssthresh in bytes: ⌊r · RTT / (8 · size)⌋ packets, at least 2, times SMSS.
    pub fn ssthresh(&self, mode: BrRtt, size: BrPacketSize, smss: u64, header: u64) -> u64 {
        let size = match size {
            BrPacketSize::Wire => smss + header,
            BrPacketSize::Mss => smss,
        }
        .max(1);
        let bits = self.reserved_bps as u128 * self.rtt(mode) as u128;
        let packets = bits / (8 * size as u128 * NS_PER_S as u128);
        (packets.min(u64::MAX as u128 / smss as u128) as u64).max(2) * smss
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_papers_numbers() {
        // 40 Mbit/s reserved, 58 ms minimum RTT, 1500-byte packets (1460 + 40):
        // 40e6 · 0.058 / 12 000 = 193.33 → 193 packets.
        let mut b = BrState {
            reserved_bps: 40_000_000,
            path_rtt: 60_000_000,
            ..BrState::default()
        };
        assert_eq!(
            b.ssthresh(BrRtt::MinRtt, BrPacketSize::Wire, 1460, 40),
            200 * 1460,
            "before any sample: the path's 60 ms → 200 packets"
        );
        b.on_rtt_sample(58_000_000, 58_000_000);
        b.on_rtt_sample(70_000_000, 59_500_000);
        assert_eq!(b.ssthresh(BrRtt::MinRtt, BrPacketSize::Wire, 1460, 40), 193 * 1460);
        // SRTT 59.5 ms: 198.33 → 198 packets.
        assert_eq!(b.ssthresh(BrRtt::Srtt, BrPacketSize::Wire, 1460, 40), 198 * 1460);
        // Payload-only size: 40e6 · 0.058 / 11 680 = 198.63 → 198.
        assert_eq!(b.ssthresh(BrRtt::MinRtt, BrPacketSize::Mss, 1460, 40), 198 * 1460);
        // A tiny reservation is floored at two segments.
        b.reserved_bps = 10_000;
        assert_eq!(b.ssthresh(BrRtt::MinRtt, BrPacketSize::Wire, 1460, 40), 2 * 1460);
    }
}
