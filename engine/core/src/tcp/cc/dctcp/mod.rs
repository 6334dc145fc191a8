//! DCTCP's sender (RFC 8257 §3.3; Linux net/ipv4/tcp_dctcp.c): α, the smoothed fraction of
//! bytes whose ACKs carried ECE, updated once per window of data, and the window cut
//! cwnd ← cwnd·(1 − α/2) on the first ECE of a window (the once-per-window gate is ECN's,
//! `super::ecn`). α is kept as Linux keeps it, in 1/1024 (`DCTCP_MAX_ALPHA`):
//! α ← α − max(α >> g_shift, …) + (marked << (10 − g_shift)) / acked, capped at 1024, where
//! Linux subtracts α itself when α >> g_shift is 0 (`min_not_zero`). The fraction counts
//! bytes (RFC 8257 §3.3's DCTCP.BytesMarked / DCTCP.BytesAcked); current Linux counts
//! delivered packets. A loss keeps the flow's loss response (RFC 8257 §3.4; Linux's
//! `dctcp_react_to_loss` halves).

pub mod settings;

use super::{why, Cc, Note};
use crate::explain::Rule;
use crate::scenario::Units;
use crate::trace::EventKind;

/// α in 1/1024 at its largest (α = 1).
pub const ALPHA_ONE: u64 = 1024;

/// DCTCP's per-window measurement and α.
#[derive(Clone, Debug)]
pub(super) struct Dctcp {
    /// α in 1/1024.
    pub(super) alpha: u64,
    /// g = 1/2^g_shift.
    pub(super) g_shift: u32,
    /// The window ends when snd_una reaches it (Linux `next_seq`; 0: at the first ACK).
    pub(super) window_end: u64,
    /// Bytes acknowledged in the window.
    pub(super) acked: u64,
    /// Of them, by ACKs with ECE.
    pub(super) marked: u64,
}

impl Dctcp {
    pub(super) fn new(cfg: &settings::DctcpCfg) -> Dctcp {
        Dctcp {
            alpha: cfg.alpha_init.min(ALPHA_ONE),
            g_shift: cfg.g_shift.min(10) as u32,
            window_end: 0,
            acked: 0,
            marked: 0,
        }
    }
}

/// One window's α update (RFC 8257 §3.3 in Linux's fixed point): α in 1/1024.
pub fn next_alpha(alpha: u64, g_shift: u32, marked: u64, acked: u64) -> u64 {
    let decay = alpha >> g_shift;
    let mut a = alpha - if decay == 0 { alpha } else { decay };
    if marked > 0 {
        a = (a + (marked << (10 - g_shift)) / acked.max(1)).min(ALPHA_ONE);
    }
    a
}

/// The window after a cut: cwnd − cwnd·α/2, at least 2·SMSS (Linux: in packets,
/// max(cwnd − (cwnd·α >> 11), 2)); whole segments in segment units.
pub fn cut(cwnd: u64, alpha: u64, smss: u64, units: Units) -> u64 {
    let c = match units {
        Units::Bytes => cwnd - ((cwnd as u128 * alpha as u128) >> 11) as u64,
        Units::Segments => {
            let p = cwnd / smss;
            (p - ((p * alpha) >> 11)) * smss
        }
    };
    c.max(2 * smss)
}

impl Cc {
    /// An ACK of a DCTCP flow newly acknowledged `acked` bytes (`ece`: it echoed CE); at the
    /// window's end α is updated and a new window starts at `snd_max`.
    pub(super) fn dctcp_ack(&mut self, ece: bool, acked: u64, snd_una: u64, snd_max: u64) {
        let Some(d) = self.dctcp.as_deref_mut() else {
            return;
        };
        d.acked += acked;
        if ece {
            d.marked += acked;
        }
        if snd_una < d.window_end {
            return;
        }
        let (a0, marked, total) = (d.alpha, d.marked, d.acked);
        d.alpha = next_alpha(a0, d.g_shift, marked, total);
        let (a1, g) = (d.alpha, d.g_shift);
        d.window_end = snd_max;
        d.acked = 0;
        d.marked = 0;
        self.notes.push(Note {
            kind: EventKind::DctcpAlpha,
            seq: a1,
            len: marked.min(u32::MAX as u64) as u32,
            seg: total.min(u32::MAX as u64) as u32,
            tx: a0 as u32,
        });
        let from = self.why_phase();
        why!(self, Rule::DctcpAlpha, from, [marked, total, a0, g, a1]);
    }

    /// The first ECE of a window: ssthresh = cwnd·(1 − α/2), cwnd = ssthresh.
    pub(super) fn dctcp_cut(&mut self) {
        let alpha = self.dctcp.as_deref().map_or(ALPHA_ONE, |d| d.alpha);
        let (from, c0) = (self.why_phase(), self.cwnd);
        self.ssthresh = cut(self.cwnd, alpha, self.smss, self.cfg.units);
        self.cwnd = self.ssthresh;
        why!(self, Rule::DctcpCut, from, [c0, alpha, self.smss, self.ssthresh]);
    }

    /// DCTCP's α in 1/1024 (None: not a DCTCP flow).
    pub fn dctcp_alpha(&self) -> Option<u64> {
        self.dctcp.as_deref().map(|d| d.alpha)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alpha_stays_one_under_full_marking_and_decays_by_fifteen_sixteenths_without() {
        // F = 1 from α = 1: 1024 − 64 + (B << 6)/B = 1024.
        assert_eq!(next_alpha(1024, 4, 14_600, 14_600), 1024);
        // F = 0: α − α>>4 each window, in 1/1024: 1024, 960, 900, 844, 792, 743.
        let mut a = 1024;
        let mut seen = vec![a];
        for _ in 0..5 {
            a = next_alpha(a, 4, 0, 14_600);
            seen.push(a);
        }
        assert_eq!(seen, vec![1024, 960, 900, 844, 792, 743]);
        // Below 16, α >> 4 is 0 and Linux's min_not_zero takes α itself: α falls to 0.
        assert_eq!(next_alpha(15, 4, 0, 1), 0);
        // F = 1/2 from α = 0: (B/2 << 6)/B = 32, α = 1/32.
        assert_eq!(next_alpha(0, 4, 7_300, 14_600), 32);
    }

    #[test]
    fn the_cut_removes_alpha_over_two_of_the_window() {
        // α = 1: half; α = 1/2 (512): a quarter; floor 2·SMSS.
        assert_eq!(cut(20 * 1460, 1024, 1460, Units::Bytes), 10 * 1460);
        assert_eq!(cut(20 * 1460, 512, 1460, Units::Bytes), 15 * 1460);
        assert_eq!(cut(20 * 1460, 32, 1460, Units::Segments), 20 * 1460);
        assert_eq!(cut(3 * 1460, 1024, 1460, Units::Bytes), 2 * 1460);
    }
}
