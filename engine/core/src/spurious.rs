//! Spurious retransmissions (Jacobson 1988 §2, issue 11's RTT view): a retransmission is
//! spurious when an earlier copy of the same segment reached the receiver, whether that copy
//! arrived before the retransmission was sent or after it.
//!
//! The rule is exact and needs no guess about intent: for every data segment the tracker
//! keeps the highest attempt sent, the lowest attempt the receiver has seen, and how many
//! copies are still in the network. Attempt k is spurious exactly when some attempt j < k
//! arrived, so each time the lowest arrived attempt falls, the attempts above it that were
//! not already spurious become so, and an attempt sent after an earlier one arrived is
//! spurious at once. A segment is forgotten once the receiver has it and no copy is left in
//! the network: any later resend of it is then spurious at once, and nothing still to come
//! could change an earlier verdict. State is therefore bounded by the segments in flight.

use crate::ring::Ring;

/// What is known about one data segment's copies.
#[derive(Clone, Copy, Debug, Default)]
struct Copies {
    /// First byte (for the event row).
    seq: u64,
    /// Payload bytes.
    len: u32,
    /// Highest attempt sent (1 = the original).
    sent: u32,
    /// Lowest attempt that reached the receiver; 0 = none yet.
    arrived: u32,
    /// Copies sent and not yet arrived or lost.
    in_network: u32,
}

/// A retransmission found spurious.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spurious {
    /// First byte of the segment.
    pub seq: u64,
    /// Payload bytes.
    pub len: u32,
    /// Segment number.
    pub seg: u32,
    /// The attempt that was spurious (≥ 2).
    pub attempt: u32,
}

/// A segment sent once, neither arrived nor lost yet: what most segments in flight are.
/// Its first byte and length are not kept: only a retransmission's report needs them, and
/// the retransmission's `sent` sets them.
const PRISTINE: Copies = Copies {
    seq: 0,
    len: 0,
    sent: 1,
    arrived: 0,
    in_network: 1,
};

/// One flow's tracker.
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    /// Segment number of `segs[0]`.
    base: u32,
    /// Segments from `base` on, up to the first of the `pristine` ones.
    segs: Ring<Copies>,
    /// Segments after those in `segs` that are all [`PRISTINE`]: counted, not stored, until
    /// one of them changes (`materialize`). While nothing is retransmitted or lost, `segs`
    /// stays empty and a segment costs a count up when sent and down when it arrives.
    pristine: u32,
    /// Spurious retransmissions found so far.
    pub count: u64,
}

impl Tracker {
    /// A copy of segment `seg` (attempt `attempt`) was sent. Returns it if it is spurious
    /// already (an earlier copy has arrived).
    pub fn sent(&mut self, seq: u64, len: u32, seg: u32, attempt: u32) -> Option<Spurious> {
        if seg < self.base {
            // Forgotten: the receiver has it and no copy is in the network.
            return (attempt > 1).then(|| self.found(seq, len, seg, attempt));
        }
        if self.segs.is_empty() && self.pristine == 0 {
            // Segments are numbered in sending order: everything below a first send or a
            // new segment after a quiet spell is resolved (or the SYN, never tracked).
            self.base = seg;
        }
        let i = (seg - self.base) as usize;
        if i == self.tracked() && attempt == 1 {
            // The common case: a new segment, next in line.
            self.pristine += 1;
            return None;
        }
        if i >= self.segs.len() {
            self.materialize(i);
            if i >= self.segs.len() {
                // Past every segment tracked: the ones between were never sent.
                self.segs.resize(i + 1, Copies::default());
            }
        }
        let c = &mut self.segs[i];
        c.seq = seq;
        c.len = len;
        c.sent = c.sent.max(attempt);
        c.in_network += 1;
        let spurious = c.arrived != 0 && c.arrived < attempt;
        spurious.then(|| self.found(seq, len, seg, attempt))
    }

    /// A copy was lost in the network (queue overflow, error, script).
    pub fn lost(&mut self, seg: u32) {
        if let Some(c) = self.get(seg) {
            c.in_network = c.in_network.saturating_sub(1);
        }
        self.forget();
    }

    /// Attempt `attempt` of segment `seg` reached the receiver; `out` receives the
    /// retransmissions this arrival shows to be spurious, lowest attempt first.
    #[inline]
    pub fn arrived(&mut self, seg: u32, attempt: u32, out: &mut Vec<Spurious>) {
        // The common case first: the oldest segment's only copy, an original, arrives (it
        // resolves the segment, which is forgotten at once; nothing was spurious).
        if seg == self.base && attempt == 1 {
            if self.segs.is_empty() {
                if self.pristine > 0 {
                    self.pristine -= 1;
                    self.base += 1;
                }
                return;
            }
            if let Some(&Copies {
                sent: 1,
                arrived: 0,
                in_network: 1,
                ..
            }) = self.segs.front()
            {
                self.segs.pop_front();
                self.base += 1;
                return self.forget();
            }
        }
        let Some(c) = self.get(seg) else {
            return;
        };
        c.in_network = c.in_network.saturating_sub(1);
        let found = out.len();
        let before = if c.arrived == 0 { c.sent } else { c.arrived.min(c.sent) };
        if c.arrived == 0 || attempt < c.arrived {
            c.arrived = attempt;
            let (seq, len) = (c.seq, c.len);
            // Attempts in (attempt, before] were not spurious until now.
            for k in attempt + 1..=before {
                out.push(Spurious {
                    seq,
                    len,
                    seg,
                    attempt: k,
                });
            }
            self.count += (out.len() - found) as u64;
        }
        self.forget();
    }

    fn found(&mut self, seq: u64, len: u32, seg: u32, attempt: u32) -> Spurious {
        self.count += 1;
        Spurious { seq, len, seg, attempt }
    }

    #[cfg_attr(target_arch = "wasm32", inline(always))]
    fn get(&mut self, seg: u32) -> Option<&mut Copies> {
        let i = seg.checked_sub(self.base)? as usize;
        if i >= self.segs.len() {
            if i >= self.tracked() {
                return None;
            }
            self.materialize(i);
        }
        self.segs.get_mut(i)
    }

    /// Segments tracked from `base` on, stored or pristine.
    #[inline]
    fn tracked(&self) -> usize {
        self.segs.len() + self.pristine as usize
    }

    /// Stores the pristine segments up to index `i` (all of them when `i` is past them), so
    /// that segment `base + i` can change; `i` is past the stored ones.
    #[cold]
    #[inline(never)]
    fn materialize(&mut self, i: usize) {
        let n = (i + 1 - self.segs.len()).min(self.pristine as usize);
        for _ in 0..n {
            self.segs.push_back(PRISTINE);
        }
        self.pristine -= n as u32;
    }

    /// Drops resolved segments from the front.
    #[cfg_attr(target_arch = "wasm32", inline(always))]
    fn forget(&mut self) {
        while let Some(c) = self.segs.front() {
            if c.arrived == 0 || c.in_network > 0 {
                break;
            }
            self.segs.pop_front();
            self.base += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arrive(t: &mut Tracker, seg: u32, attempt: u32) -> Vec<u32> {
        let mut out = vec![];
        t.arrived(seg, attempt, &mut out);
        out.iter().map(|s| s.attempt).collect()
    }

    #[test]
    fn a_resend_of_a_lost_segment_is_not_spurious() {
        let mut t = Tracker::default();
        assert_eq!(t.sent(0, 100, 1, 1), None);
        t.lost(1);
        assert_eq!(t.sent(0, 100, 1, 2), None);
        assert!(arrive(&mut t, 1, 2).is_empty());
        assert_eq!(t.count, 0);
        assert_eq!(t.tracked(), 0, "resolved and forgotten");
    }

    #[test]
    fn originals_arriving_in_order_are_forgotten_one_by_one_and_a_later_gap_still_counts() {
        let mut t = Tracker::default();
        for seg in 1..=4 {
            t.sent(seg as u64 * 100, 100, seg, 1);
        }
        for seg in 1..=2 {
            assert!(arrive(&mut t, seg, 1).is_empty());
            assert_eq!((t.base, t.tracked()), (seg + 1, (4 - seg) as usize));
        }
        // Segment 4 arrives before 3 (not the oldest: the general path), then 3 resolves both.
        assert!(arrive(&mut t, 4, 1).is_empty());
        assert_eq!((t.base, t.tracked()), (3, 2));
        assert!(arrive(&mut t, 3, 1).is_empty());
        assert!(t.tracked() == 0 && t.base == 5 && t.count == 0);
        // A resend of 5 sent before its original arrived: the original is then spurious-free
        // but the resend is spurious (the general path, two copies in the network).
        t.sent(500, 100, 5, 1);
        t.sent(500, 100, 5, 2);
        assert_eq!(arrive(&mut t, 5, 1), vec![2]);
        assert_eq!(t.count, 1);
    }

    #[test]
    fn a_resend_after_the_original_arrived_is_spurious_at_once() {
        let mut t = Tracker::default();
        t.sent(0, 100, 1, 1);
        t.sent(100, 100, 2, 1);
        assert!(arrive(&mut t, 1, 1).is_empty());
        // Segment 1 is forgotten (arrived, nothing in flight); segment 2 is still out.
        assert_eq!((t.base, t.tracked()), (2, 1));
        assert_eq!(t.sent(0, 100, 1, 2).map(|s| s.attempt), Some(2));
        // Segment 2's original arrives after its resend was sent: the resend was spurious.
        assert_eq!(t.sent(100, 100, 2, 2), None);
        assert_eq!(arrive(&mut t, 2, 1), vec![2]);
        // The resend itself arrives later: nothing new.
        assert!(arrive(&mut t, 2, 2).is_empty());
        assert_eq!(t.count, 2);
    }

    #[test]
    fn a_late_original_makes_every_later_copy_spurious_even_one_that_arrived_first() {
        let mut t = Tracker::default();
        t.sent(0, 100, 1, 1);
        t.sent(0, 100, 1, 2);
        t.sent(0, 100, 1, 3);
        // Attempt 2 arrives first: attempt 3 is spurious.
        assert_eq!(arrive(&mut t, 1, 2), vec![3]);
        // Then the delayed original: attempt 2 was spurious too (3 is already counted).
        assert_eq!(arrive(&mut t, 1, 1), vec![2]);
        assert!(arrive(&mut t, 1, 3).is_empty());
        assert_eq!(t.count, 2);
        assert_eq!(t.tracked(), 0);
    }

    #[test]
    fn pristine_segments_are_counted_until_one_changes_then_stored_with_the_same_verdicts() {
        let mut t = Tracker::default();
        for seg in 1..=5 {
            assert_eq!(t.sent(seg as u64 * 100, 100, seg, 1), None);
        }
        assert_eq!((t.segs.len(), t.pristine), (0, 5), "counted, not stored");
        // Segment 3 is lost: segments 1 to 3 are stored, 4 and 5 stay counted.
        t.lost(3);
        assert_eq!((t.segs.len(), t.pristine), (3, 2));
        assert_eq!(t.sent(300, 100, 3, 2), None, "a resend of a lost segment");
        for seg in [1, 2, 4, 5] {
            assert!(arrive(&mut t, seg, 1).is_empty());
        }
        assert_eq!((t.base, t.tracked()), (3, 3), "3 still missing, 4 and 5 kept behind it");
        assert!(arrive(&mut t, 3, 2).is_empty());
        assert_eq!((t.base, t.tracked(), t.count), (6, 0, 0));
        // A resend of a pristine segment whose original then arrives: spurious, reported
        // with the resend's bytes.
        t.sent(600, 100, 6, 1);
        t.sent(700, 60, 7, 1);
        assert_eq!(t.sent(700, 60, 7, 2), None);
        let mut out = vec![];
        t.arrived(7, 1, &mut out);
        assert_eq!(
            out,
            vec![Spurious {
                seq: 700,
                len: 60,
                seg: 7,
                attempt: 2
            }]
        );
        assert!(arrive(&mut t, 6, 1).is_empty());
        assert!(arrive(&mut t, 7, 2).is_empty());
        assert_eq!((t.tracked(), t.count), (0, 1));
    }
}
