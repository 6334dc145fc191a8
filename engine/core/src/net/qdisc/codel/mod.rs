//! CoDel (RFC 8289; Linux's include/net/codel_impl.h): the time each packet spent in the
//! queue (its sojourn) is measured as it leaves, and drops are made at dequeue.
//!
//! - A packet leaving with sojourn < target, or leaving at most `mtu` bytes behind it, ends
//!   any "above target" period. Otherwise the first such packet sets
//!   first_above = now + interval, and a packet leaving after first_above (strictly, as
//!   Linux) may be dropped.
//! - Not dropping, and may drop: drop this packet, take the next one and enter the dropping
//!   state. count starts at 1, or, if the last dropping state ended recently
//!   (now − drop_next < 16·interval) and dropped more than once since its start
//!   (delta = count − lastcount > 1), at delta (RFC 8289 §5.5's re-entry rule, Linux's
//!   form); lastcount = count; drop_next = now + interval/√count.
//! - Dropping: a packet that may not be dropped ends the state. Otherwise, while
//!   now ≥ drop_next: count += 1, drop the packet, take the next one, and if that one may
//!   be dropped too, drop_next += interval/√count (else leave the state).
//! - An empty queue at dequeue ends the state.
//!
//! The control law is exact: ⌊interval/√count⌋ ns = ⌊√⌊interval²/count⌋⌋ (integer square
//! root in 128 bits), where Linux keeps 1/√count in 16-bit fixed point updated by one
//! Newton step per count (within about 2⁻¹⁶ after a few steps; its first interval is
//! interval·(1 − 2⁻¹⁶)).

pub mod settings;

use super::Fifo;
use crate::net::Packet;
use crate::time::Ns;
use settings::CodelCfg;

/// ⌊√n⌋ for a 128-bit n (Newton's method from above; exact).
pub fn isqrt(n: u128) -> u128 {
    if n < 2 {
        return n;
    }
    let mut x = 1u128 << (128 - n.leading_zeros()).div_ceil(2);
    loop {
        let y = (x + n / x) / 2;
        if y >= x {
            return x;
        }
        x = y;
    }
}

/// The control law's step: ⌊interval/√count⌋ ns.
pub fn step(interval: Ns, count: u32) -> Ns {
    isqrt(interval as u128 * interval as u128 / count.max(1) as u128) as Ns
}

/// One CoDel drop's arithmetic (what its explanation shows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodelWhy {
    /// The dropped packet's sojourn, ns.
    pub sojourn: Ns,
    /// Bytes still waiting behind it.
    pub backlog: u64,
    /// When its above-target period could start dropping (first_above).
    pub first_above: Ns,
    /// count after the drop.
    pub count: u32,
    /// The next drop's time (drop_next after this drop; `u64::MAX` when the packet behind
    /// ends the dropping state).
    pub next: Ns,
    /// 1: this drop entered the dropping state; 0: a drop in the dropping state.
    pub entered: u8,
    /// On entry: the count the re-entry rule carried over (delta), 0 when it restarted at 1.
    pub delta: u32,
}

/// A CoDel queue's state.
#[derive(Clone, Debug)]
pub struct Codel {
    /// Target sojourn, ns.
    pub target: Ns,
    /// Interval, ns.
    pub interval: Ns,
    mtu: u64,
    /// When the current above-target period may start dropping (0 = not above target).
    pub first_above: Ns,
    /// In the dropping state.
    pub dropping: bool,
    /// Drops in this dropping state (with the re-entry rule's carry-over).
    pub count: u32,
    lastcount: u32,
    /// The next drop's time while dropping.
    pub drop_next: Ns,
    /// The last packet's sojourn, ns, and the bytes that waited behind it.
    pub sojourn: Ns,
    backlog: u64,
    /// The head this dequeue marked CE instead of dropping, with the arithmetic (Linux's
    /// codel_impl.h with `params->ecn`: an ECN-capable head is marked and sent).
    pub marked: Option<CodelWhy>,
}

impl Codel {
    /// A CoDel queue from its settings.
    pub fn new(c: &CodelCfg) -> Codel {
        Codel {
            target: crate::time::secs_to_ns(c.target),
            interval: crate::time::secs_to_ns(c.interval),
            mtu: c.mtu,
            first_above: 0,
            dropping: false,
            count: 0,
            lastcount: 0,
            drop_next: 0,
            sojourn: 0,
            backlog: 0,
            marked: None,
        }
    }

    /// Whether the packet leaving now after entering at `entered`, with `backlog` bytes
    /// behind it, may be dropped (Linux's codel_should_drop); None: the queue was empty.
    fn ok_to_drop(&mut self, now: Ns, head: Option<&(Packet, Ns)>, backlog: u64) -> bool {
        let Some(&(_, entered)) = head else {
            self.first_above = 0;
            return false;
        };
        self.sojourn = now - entered;
        self.backlog = backlog;
        if self.sojourn < self.target || backlog <= self.mtu {
            self.first_above = 0;
            return false;
        }
        if self.first_above == 0 {
            self.first_above = now + self.interval;
            return false;
        }
        now > self.first_above
    }

    /// The drop of the packet just judged (its sojourn and backlog as `ok_to_drop` saw them).
    fn why(&self) -> CodelWhy {
        CodelWhy {
            sojourn: self.sojourn,
            backlog: self.backlog,
            first_above: self.first_above,
            count: 0,
            next: 0,
            entered: 0,
            delta: 0,
        }
    }

    /// Dequeues at `now` from `q`: returns the packet to send (with its entry time), if
    /// any, and puts each dropped packet with its arithmetic in `dropped`.
    pub fn dequeue(&mut self, now: Ns, q: &mut Fifo, dropped: &mut Vec<(Packet, CodelWhy)>) -> Option<(Packet, Ns)> {
        self.dequeue_among(now, q, 0, dropped)
    }

    /// The same for a queue that is one of several (FQ-CoDel): the backlog CoDel compares
    /// with its MTU counts `others` bytes waiting in the other queues too (Linux's
    /// fq_codel passes the whole qdisc's backlog to codel_dequeue).
    pub fn dequeue_among(
        &mut self,
        now: Ns,
        q: &mut Fifo,
        others: u64,
        dropped: &mut Vec<(Packet, CodelWhy)>,
    ) -> Option<(Packet, Ns)> {
        let Some(mut head) = q.pop() else {
            self.dropping = false;
            return None;
        };
        let drop = self.ok_to_drop(now, Some(&head), q.bytes + others);
        if self.dropping {
            if !drop {
                self.dropping = false;
            }
            while self.dropping && now >= self.drop_next {
                self.count = self.count.saturating_add(1);
                let why = self.why();
                if head.0.ecn_capable() {
                    // Marked, not dropped: the next signal on the control law, and the
                    // packet behind is not examined (codel_impl.h's `goto end`).
                    self.drop_next += step(self.interval, self.count);
                    head.0.ecn |= Packet::CE;
                    self.marked = Some(CodelWhy {
                        count: self.count,
                        next: self.drop_next,
                        ..why
                    });
                    break;
                }
                let next = q.pop();
                if self.ok_to_drop(now, next.as_ref(), q.bytes + others) {
                    self.drop_next += step(self.interval, self.count);
                } else {
                    self.dropping = false;
                }
                let at = if self.dropping { self.drop_next } else { u64::MAX };
                dropped.push((
                    head.0,
                    CodelWhy {
                        count: self.count,
                        next: at,
                        ..why
                    },
                ));
                head = next?;
            }
        } else if drop {
            let why = self.why();
            let mark = head.0.ecn_capable();
            let next = if mark { None } else { q.pop() };
            if !mark {
                self.ok_to_drop(now, next.as_ref(), q.bytes + others);
            }
            self.dropping = true;
            // Re-entry (RFC 8289 §5.5, Linux): a state that ended recently starts from the
            // drops its predecessor needed beyond its own first.
            let delta = self.count.wrapping_sub(self.lastcount);
            let recent = (now as i128 - self.drop_next as i128) < 16 * self.interval as i128;
            let carried = delta > 1 && delta < u32::MAX / 2 && recent;
            self.count = if carried { delta } else { 1 };
            self.lastcount = self.count;
            self.drop_next = now + step(self.interval, self.count);
            let delta = if carried { delta } else { 0 };
            let why = CodelWhy {
                count: self.count,
                next: self.drop_next,
                entered: 1,
                delta,
                ..why
            };
            if mark {
                head.0.ecn |= Packet::CE;
                self.marked = Some(why);
                return Some(head);
            }
            dropped.push((head.0, why));
            head = next?;
        }
        Some(head)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::{Fate, PktKind};
    const NS_PER_MS: Ns = 1_000_000;

    fn pkt(seg: u32) -> Packet {
        Packet {
            flow: 0,
            kind: PktKind::Data,
            seq: 0,
            len: 1460,
            seg,
            tx: 1,
            size: 1500,
            fate: Fate::Ok,
            ecn: 0,
        }
    }

    #[test]
    fn the_integer_square_root_is_exact() {
        for n in [
            0u128,
            1,
            2,
            3,
            4,
            15,
            16,
            17,
            99,
            100,
            (1 << 64) - 1,
            1 << 100,
            u128::MAX,
        ] {
            let r = isqrt(n);
            assert!(
                r * r <= n && (r + 1).checked_mul(r + 1).is_none_or(|s| s > n),
                "{n}: {r}"
            );
        }
        // 100 ms / √k, truncated to the ns: 100 000 000, 70 710 678, 57 735 026, 50 000 000.
        let gaps: Vec<Ns> = (1..=4).map(|k| step(100 * NS_PER_MS, k)).collect();
        assert_eq!(gaps, vec![100_000_000, 70_710_678, 57_735_026, 50_000_000]);
    }

    /// A queue held above target: every packet waits 20 ms and 10 packets (15 000 B) wait
    /// behind each departure; a dequeue every `tick` from `from` to `to`. Returns the drop
    /// times with each drop's count.
    fn held(c: &mut Codel, from: Ns, to: Ns, tick: Ns) -> Vec<(Ns, u32)> {
        let mut out = Vec::new();
        let mut now = from;
        let mut q = Fifo::default();
        let mut seg = 0;
        while now <= to {
            // Refill so that the head entered 20 ms ago and 10 wait behind it.
            while q.len() < 12 {
                seg += 1;
                q.push(pkt(seg), now - 20 * NS_PER_MS);
            }
            let mut dropped = Vec::new();
            c.dequeue(now, &mut q, &mut dropped);
            out.extend(dropped.iter().map(|(_, w)| (now, w.count)));
            now += tick;
        }
        out
    }

    #[test]
    fn a_queue_held_above_target_is_dropped_at_interval_over_root_count() {
        // From t = 1 s the sojourn stays 20 ms > 5 ms. first_above = 1.1 s; the first
        // dequeue strictly after it (1.1 s + 1 ms with a 1 ms tick) drops and enters with
        // count 1; then drop_next = 1.101 + 0.1 = 1.201 s (count 2), + 100/√2 = 70.710678 ms
        // → 1.271710678 s, dropped at the first tick at or after it, 1.272 s (count 3), +
        // 100/√3 = 57.735026 ms → 1.329445704 s → tick 1.330 s (count 4), + 50 ms →
        // 1.379445704 s → 1.380 s (count 5).
        let mut c = Codel::new(&CodelCfg::default());
        let ms = NS_PER_MS;
        let drops = held(&mut c, 1000 * ms, 1385 * ms, ms);
        assert_eq!(
            drops,
            vec![
                (1101 * ms, 1),
                (1201 * ms, 2),
                (1272 * ms, 3),
                (1330 * ms, 4),
                (1380 * ms, 5)
            ]
        );
        assert_eq!(
            c.drop_next,
            1_101_000_000 + 100_000_000 + 70_710_678 + 57_735_026 + 50_000_000 + 44_721_359
        );
    }

    #[test]
    fn dequeues_at_the_exact_instants_show_the_control_law() {
        // Dequeues at exactly the drop times: the gaps are interval/√count exactly.
        let mut c = Codel::new(&CodelCfg::default());
        let ms = NS_PER_MS;
        held(&mut c, 1000 * ms, 1100 * ms, 100 * ms); // first_above = 1.1 s
        let mut q = Fifo::default();
        let mut times = vec![1_100_000_001u64];
        for k in 1..=4u32 {
            times.push(times[k as usize - 1] + step(100 * ms, k));
        }
        let mut counts = Vec::new();
        for (i, &t) in times.iter().enumerate() {
            for s in 0..12 {
                q.push(pkt(100 * i as u32 + s), t - 20 * ms);
            }
            let mut dropped = Vec::new();
            c.dequeue(t, &mut q, &mut dropped);
            assert_eq!(dropped.len(), 1, "one drop at {t}");
            counts.push(dropped[0].1.count);
            q = Fifo::default();
        }
        assert_eq!(counts, vec![1, 2, 3, 4, 5]);
        assert_eq!(
            times,
            vec![
                1_100_000_001,
                1_200_000_001,
                1_270_710_679,
                1_328_445_705,
                1_378_445_705
            ]
        );
    }

    #[test]
    fn a_short_queue_or_a_short_sojourn_never_drops() {
        let mut c = Codel::new(&CodelCfg::default());
        let ms = NS_PER_MS;
        // One packet waits behind each departure (1 500 B ≤ mtu): never above target.
        for t in (0..1000).map(|k| k * ms) {
            let mut q = Fifo::default();
            q.push(pkt(1), t.saturating_sub(50 * ms));
            q.push(pkt(2), t);
            let mut dropped = Vec::new();
            assert!(c.dequeue(t, &mut q, &mut dropped).is_some());
            assert!(dropped.is_empty());
        }
        // Sojourn 4 ms < 5 ms with a long queue: not above target either.
        let drops = {
            let mut out = 0;
            for t in (0..1000).map(|k| 1000 * ms + k * ms) {
                let mut q = Fifo::default();
                while q.len() < 20 {
                    q.push(pkt(3), t - 4 * ms);
                }
                let mut dropped = Vec::new();
                c.dequeue(t, &mut q, &mut dropped);
                out += dropped.len();
            }
            out
        };
        assert_eq!(drops, 0);
    }

    #[test]
    fn re_entering_soon_after_keeps_the_count_its_predecessor_reached() {
        // Drop 5 times (count 5, lastcount 1), leave when the sojourn falls, come back
        // within 16 intervals: the new state starts at count delta = 5 − 1 = 4, so its next
        // drop comes 100/√4 = 50 ms after the first.
        let mut c = Codel::new(&CodelCfg::default());
        let ms = NS_PER_MS;
        held(&mut c, 1000 * ms, 1385 * ms, ms);
        assert_eq!(c.count, 5);
        let mut q = Fifo::default();
        q.push(pkt(1), 1390 * ms);
        q.push(pkt(2), 1390 * ms);
        q.push(pkt(3), 1390 * ms);
        let mut dropped = Vec::new();
        c.dequeue(1391 * ms, &mut q, &mut dropped);
        assert!(!c.dropping && dropped.is_empty(), "1 ms sojourn ends the state");
        let drops = held(&mut c, 1500 * ms, 1700 * ms, ms);
        // Above target from 1.5 s: first_above 1.6 s, entry at 1.601 s with count 4, the
        // next at 1.651 s (count 5), then + 100/√5 = 44.72 ms → 1.695721 s → 1.696 s.
        assert_eq!(drops, vec![(1601 * ms, 4), (1651 * ms, 5), (1696 * ms, 6)]);
    }
}
