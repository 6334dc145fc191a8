//! RACK-TLP (RFC 8985): loss detected by time rather than by counting, and the tail loss
//! probe.
//!
//! RACK remembers the most recently sent segment that has been delivered (cumulatively or
//! by SACK) and the RTT it measured. A segment sent before it that is still not delivered
//! is lost once RACK.rtt + the reordering window has passed since it was sent (§6.2); until
//! then the RACK timer waits for the rest. The reordering window is min RTT / 4, widened by
//! one step per round trip in which a D-SACK showed a spurious retransmission and back to
//! one step after 16 recoveries without one (§6.2 step 4).
//!
//! TLP (§7): with data outstanding and no recovery under way, a probe timeout (PTO) of
//! 2·SRTT, plus the worst-case delayed-ACK time when one segment is out, capped by the
//! retransmission timer; on expiry one segment goes out (new data if the window allows,
//! else the last segment sent again), so a lost tail draws SACKs and recovery instead of a
//! timeout. If the probe was a retransmission and its ACK is not a D-SACK, it repaired a
//! loss and the congestion response follows (§7.4).

use crate::time::Ns;

/// The worst-case delayed-ACK time TLP allows for (RFC 8985 §7.2: WCDelAckT, 200 ms).
pub const WC_DELACK: Ns = 200_000_000;
/// The PTO before any RTT sample (RFC 8985 §7.2: 1 s).
pub const PTO_NO_SRTT: Ns = 1_000_000_000;

/// RACK's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rack {
    /// The newest delivered segment's last send time and end (RACK.xmit_ts, RACK.end_seq).
    pub xmit: Ns,
    pub end: u64,
    /// RACK.rtt: since that segment was last sent, ns.
    pub rtt: Ns,
    /// The smallest RTT seen (RACK.min_RTT).
    pub min_rtt: Ns,
    /// The reordering window's multiplier (RACK.reo_wnd_mult) and the recoveries it persists.
    pub reo_mult: u32,
    pub reo_persist: u32,
    /// Reordering was seen: a segment delivered after a later one (RACK.reordering_seen).
    pub reordering_seen: bool,
    /// The cumulative ACK when the multiplier last grew (RACK.dsack_round).
    pub dsack_round: Option<u64>,
}

impl Rack {
    /// RACK before any delivery.
    pub fn new() -> Rack {
        Rack {
            reo_mult: 1,
            reo_persist: 16,
            ..Rack::default()
        }
    }

    /// §6.2 step 2, RACK_update: a segment that ends at `end`, last sent at `xmit` (more
    /// than once if `retx`), was delivered at `now`. Whether the latest transmission is what
    /// arrived is known from the timestamp echo when this ACK's own trigger was the segment
    /// (`latest`: Some); otherwise a retransmitted segment delivered sooner than min RTT after
    /// its resend is taken for the original's delivery: no update.
    pub fn on_delivered(&mut self, now: Ns, xmit: Ns, end: u64, retx: bool, latest: Option<bool>) {
        let rtt = now - xmit;
        let original = match latest {
            Some(l) => retx && !l,
            None => retx && self.min_rtt > 0 && rtt < self.min_rtt,
        };
        if original {
            return;
        }
        if self.min_rtt == 0 || rtt < self.min_rtt {
            self.min_rtt = rtt.max(1);
        }
        if (xmit, end) > (self.xmit, self.end) {
            self.xmit = xmit;
            self.end = end;
            self.rtt = rtt;
        } else if end < self.end {
            // §6.2 step 3: delivered after a segment sent later: reordering.
            self.reordering_seen = true;
        }
    }

    /// §6.2 step 4: a D-SACK arrived with the cumulative ACK at `ack`, `snd_max` sent:
    /// widen the window once per round trip.
    pub fn on_dsack(&mut self, ack: u64, snd_max: u64) {
        if self.dsack_round.is_none_or(|r| ack >= r) {
            self.dsack_round = Some(snd_max);
            self.reo_mult = self.reo_mult.saturating_add(1);
            self.reo_persist = 16;
        }
    }

    /// A recovery ended: the widened window persists 16 recoveries.
    pub fn on_recovery_end(&mut self) {
        self.reo_persist = self.reo_persist.saturating_sub(1);
        if self.reo_persist == 0 {
            self.reo_mult = 1;
            self.reo_persist = 16;
        }
    }

    /// §6.2 step 4, the reordering window: 0 while no reordering was seen and the loss is
    /// already clear (in recovery, or DupThresh segments SACKed); else
    /// min(multiplier · min RTT / 4, SRTT).
    pub fn reo_wnd(&self, in_recovery: bool, sacked_segs: u64, dupthresh: u64, srtt: Ns) -> Ns {
        if !self.reordering_seen && (in_recovery || sacked_segs >= dupthresh) {
            return 0;
        }
        (self.reo_mult as Ns * self.min_rtt / 4).min(srtt)
    }

    /// §6.2 step 5: how long after `now` a segment last sent at `xmit` becomes lost with
    /// reordering window `reo`; 0 = lost now; None = not judged (sent after RACK's segment).
    pub fn remaining(&self, now: Ns, xmit: Ns, end: u64, reo: Ns) -> Option<Ns> {
        if (xmit, end) >= (self.xmit, self.end) || self.end == 0 {
            return None;
        }
        let due = xmit + self.rtt + reo;
        Some(due.saturating_sub(now))
    }
}

/// The probe timeout (RFC 8985 §7.2): 2·SRTT, + WCDelAckT when one segment is out; 1 s
/// before any sample; never later than the retransmission timer's deadline.
pub fn pto(srtt: Option<Ns>, one_segment_out: bool, now: Ns, rto_deadline: Option<Ns>) -> Ns {
    let mut t = match srtt {
        Some(s) => 2 * s + if one_segment_out { WC_DELACK } else { 0 },
        None => PTO_NO_SRTT,
    };
    if let Some(d) = rto_deadline {
        t = t.min(d.saturating_sub(now));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Ns = 1_000_000;

    #[test]
    fn a_segment_is_lost_after_rack_rtt_plus_the_window() {
        let mut r = Rack::new();
        // Segment ending 2000 sent at 10 ms, SACKed at 110 ms: RACK.rtt 100 ms.
        r.on_delivered(110 * MS, 10 * MS, 2000, false, None);
        assert_eq!((r.rtt, r.min_rtt), (100 * MS, 100 * MS));
        // Segment 1 (sent at 0) with a window of 25 ms: due at 125 ms.
        let reo = r.reo_wnd(false, 1, 3, 100 * MS);
        assert_eq!(reo, 25 * MS);
        assert_eq!(r.remaining(110 * MS, 0, 1000, reo), Some(15 * MS));
        assert_eq!(r.remaining(125 * MS, 0, 1000, reo), Some(0));
        // A segment sent after RACK's is not judged.
        assert_eq!(r.remaining(200 * MS, 20 * MS, 3000, reo), None);
        // In recovery without reordering seen, the window is 0.
        assert_eq!(r.reo_wnd(true, 1, 3, 100 * MS), 0);
    }

    #[test]
    fn dsack_widens_the_window_once_per_round_and_it_decays_after_16_recoveries() {
        let mut r = Rack::new();
        r.on_delivered(100 * MS, 0, 1000, false, None);
        r.reordering_seen = true;
        r.on_dsack(1000, 9000);
        r.on_dsack(2000, 9000);
        assert_eq!(r.reo_mult, 2, "one step per round trip");
        assert_eq!(r.reo_wnd(false, 0, 3, 300 * MS), 50 * MS);
        r.on_dsack(9000, 20_000);
        assert_eq!(r.reo_mult, 3);
        for _ in 0..15 {
            r.on_recovery_end();
        }
        assert_eq!(r.reo_mult, 3);
        r.on_recovery_end();
        assert_eq!(r.reo_mult, 1);
        // Capped by SRTT.
        r.reo_mult = 10;
        assert_eq!(r.reo_wnd(false, 0, 3, 120 * MS), 120 * MS);
    }

    #[test]
    fn pto_is_two_srtt_plus_the_delayed_ack_allowance_for_one_segment() {
        assert_eq!(pto(Some(100 * MS), false, 0, None), 200 * MS);
        assert_eq!(pto(Some(100 * MS), true, 0, None), 400 * MS);
        assert_eq!(pto(None, false, 0, None), 1000 * MS);
        assert_eq!(pto(Some(100 * MS), true, 50 * MS, Some(300 * MS)), 250 * MS);
    }
}
