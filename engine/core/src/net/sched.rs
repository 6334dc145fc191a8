//! The reservation scheduler of a bottleneck direction (`network.bottleneck.scheduler =
//! "reservation"`): class-based queueing as Komuro et al. 2006 configured it at their routers.
//!
//! - Every flow with a reserved bandwidth is a class of its own; everything else (unreserved
//!   flows and cross traffic) is the best-effort class 0, whose rate is the link's bandwidth
//!   minus the reservations.
//! - Each class has its own drop-tail queue with the bottleneck's capacity (counting its
//!   packet in service).
//! - Guarantee: each class keeps an eligibility clock that advances by `size · 8 / rate` for
//!   every packet it sends at its own rate; a class is eligible when its clock is not ahead
//!   of now. The link sends the eligible class whose clock is furthest behind. A class that
//!   goes idle and comes back restarts its clock at the arrival (no saved-up credit), and
//!   one held back by another class's packet in service catches up afterwards, so a
//!   backlogged class gets its rate to within a packet over any long interval.
//! - Without borrowing (the paper's bounded classes) a class never sends above its rate: the
//!   link idles until the next clock comes due even when packets wait. With borrowing, idle
//!   capacity goes to the backlogged classes in proportion to their rates (a second,
//!   self-clocked fair-queueing clock that only borrowed packets advance), and borrowing
//!   never costs a class its guarantee.
//!
//! Service is non-preemptive; a packet's departure is decided when it starts, so the link
//! needs an event at the end of each transmission (see `Event::LinkService`).

use super::{Packet, PktKind, QueueSeries};
use crate::time::{tx_time, Ns};
use std::collections::VecDeque;

/// One traffic class.
#[derive(Clone, Debug)]
pub struct Class {
    /// Who is in it, e.g. "flow 0 (reserved)" or "best effort".
    pub name: String,
    /// Guaranteed rate, bit/s (0: none).
    pub rate: u64,
    /// Waiting packets with the time each entered.
    queue: VecDeque<(Packet, Ns)>,
    bytes: u64,
    /// The class's own-rate clock: it may send at its rate once now ≥ eligible.
    eligible: Ns,
    /// Borrowing clock (share of idle capacity).
    excess: Ns,
    /// Occupancy of this class (waiting plus in service).
    pub series: QueueSeries,
    /// Bytes this class has sent on the link.
    pub sent_bytes: u64,
}

impl Class {
    fn new(name: String, rate: u64) -> Class {
        Class {
            name,
            rate,
            queue: VecDeque::new(),
            bytes: 0,
            eligible: 0,
            excess: 0,
            series: QueueSeries::default(),
            sent_bytes: 0,
        }
    }

    /// Transmission time of `size` bytes at this class's rate (borrowing weight for a class
    /// without a guarantee: 1 bit/s, i.e. last in line).
    fn own_time(&self, size: u32) -> Ns {
        tx_time(size as u64, self.rate.max(1))
    }
}

/// What the link does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// A packet started; its transmission ends at this time.
    Started(Ns),
    /// Packets wait but no class may send before this time (no borrowing).
    WaitUntil(Ns),
    /// Nothing queued.
    Empty,
}

/// A bottleneck direction's classes and the packet in service.
#[derive(Clone, Debug)]
pub struct Sched {
    /// Whether idle capacity is lent.
    pub borrow: bool,
    /// Class 0 is best effort; then one class per reserved flow, in flow order.
    pub classes: Vec<Class>,
    /// Class of each flow's packets.
    flow_class: Vec<u32>,
    /// The packet being transmitted, its class and when it entered the queue.
    in_service: Option<(Packet, u32, Ns)>,
    /// Generation of the link's pending service event (older ones are stale).
    pub gen: u32,
    excess_clock: Ns,
    /// Packets and bytes in the system, all classes.
    pub total: (usize, u64),
}

impl Sched {
    /// Classes for flows with these reservations (bit/s, 0 = none) on a link of `bandwidth`.
    pub fn new(reservations: &[u64], bandwidth: u64, borrow: bool) -> Sched {
        let reserved: u64 = reservations.iter().sum();
        let mut classes = vec![Class::new("best effort".into(), bandwidth.saturating_sub(reserved))];
        let mut flow_class = Vec::with_capacity(reservations.len());
        for (i, &r) in reservations.iter().enumerate() {
            if r > 0 {
                flow_class.push(classes.len() as u32);
                classes.push(Class::new(format!("flow {i} (reserved)"), r));
            } else {
                flow_class.push(0);
            }
        }
        Sched {
            borrow,
            classes,
            flow_class,
            in_service: None,
            gen: 0,
            excess_clock: 0,
            total: (0, 0),
        }
    }

    /// The link's bandwidth changed (timeline): best effort gets what the reservations
    /// leave (nothing if they now exceed it).
    pub fn set_bandwidth(&mut self, bandwidth: u64) {
        let reserved: u64 = self.classes[1..].iter().map(|c| c.rate).sum();
        self.classes[0].rate = bandwidth.saturating_sub(reserved);
    }

    /// The class a packet joins: its flow's, or best effort for cross traffic.
    pub fn class_of(&self, pkt: &Packet) -> usize {
        match pkt.kind {
            PktKind::Udp => 0,
            _ => self.flow_class.get(pkt.flow as usize).copied().unwrap_or(0) as usize,
        }
    }

    /// Packets of class `c` in the system (waiting plus the one in service).
    fn count(&self, c: usize) -> u64 {
        let serving = matches!(self.in_service, Some((_, k, _)) if k as usize == c);
        self.classes[c].queue.len() as u64 + serving as u64
    }

    /// Drop-tail admission to the packet's class queue (capacities per class, counting
    /// its packet in service). Returns false if dropped.
    pub fn admit(&mut self, now: Ns, pkt: Packet, cap_packets: u64, cap_bytes: u64) -> bool {
        let c = self.class_of(&pkt);
        let serving_bytes = match self.in_service {
            Some((p, k, _)) if k as usize == c => p.size as u64,
            _ => 0,
        };
        let cl = &self.classes[c];
        if self.count(c) >= cap_packets || (cap_bytes > 0 && cl.bytes + serving_bytes + pkt.size as u64 > cap_bytes) {
            return false;
        }
        let was_empty = self.count(c) == 0;
        let excess_clock = self.excess_clock;
        let cl = &mut self.classes[c];
        if was_empty {
            // Back from idle: no credit saved up, and a fair place in the borrowing order.
            cl.eligible = cl.eligible.max(now);
            cl.excess = cl.excess.max(excess_clock);
        }
        cl.queue.push_back((pkt, now));
        cl.bytes += pkt.size as u64;
        self.total.0 += 1;
        self.total.1 += pkt.size as u64;
        let n = self.count(c) as usize;
        let b = self.classes[c].bytes + serving_bytes;
        self.classes[c].series.push(now, n, b);
        true
    }

    /// The packet being transmitted, if any.
    pub fn in_service(&self) -> Option<&Packet> {
        self.in_service.as_ref().map(|(p, _, _)| p)
    }

    /// The packet being transmitted, if any, and when it entered its class's queue.
    pub fn in_service_entered(&self) -> Option<(&Packet, Ns)> {
        self.in_service.as_ref().map(|(p, _, at)| (p, *at))
    }

    /// Whether a packet is being transmitted.
    pub fn busy(&self) -> bool {
        self.in_service.is_some()
    }

    /// With the link idle at `now`, starts the next packet if a class may send.
    pub fn next(&mut self, now: Ns, bandwidth: u64) -> Next {
        debug_assert!(self.in_service.is_none());
        let backlogged = || self.classes.iter().enumerate().filter(|(_, c)| !c.queue.is_empty());
        // Own-rate service first: the eligible class whose clock is furthest behind.
        let own = backlogged()
            .filter(|(_, c)| c.rate > 0 && c.eligible <= now)
            .min_by_key(|(i, c)| (c.eligible, *i))
            .map(|(i, _)| i);
        let (c, borrowed) = match own {
            Some(c) => (c, false),
            None => {
                if !self.borrow {
                    return match backlogged().filter(|(_, c)| c.rate > 0).map(|(_, c)| c.eligible).min() {
                        Some(t) => Next::WaitUntil(t),
                        None => Next::Empty,
                    };
                }
                match backlogged().min_by_key(|(i, c)| (c.excess, *i)).map(|(i, _)| i) {
                    Some(c) => (c, true),
                    None => return Next::Empty,
                }
            }
        };
        let cl = &mut self.classes[c];
        let (pkt, entered) = cl.queue.pop_front().expect("a backlogged class");
        cl.bytes -= pkt.size as u64;
        if borrowed {
            self.excess_clock = cl.excess;
            cl.excess += cl.own_time(pkt.size);
        } else {
            cl.eligible += cl.own_time(pkt.size);
        }
        cl.sent_bytes += pkt.size as u64;
        self.in_service = Some((pkt, c as u32, entered));
        Next::Started(now + tx_time(pkt.size as u64, bandwidth))
    }

    /// The packet in service finished at `now`: it leaves the system.
    pub fn complete(&mut self, now: Ns) -> Packet {
        let (pkt, c, _) = self.in_service.take().expect("a packet in service");
        let c = c as usize;
        self.total.0 -= 1;
        self.total.1 -= pkt.size as u64;
        let n = self.count(c) as usize;
        let b = self.classes[c].bytes;
        self.classes[c].series.push(now, n, b);
        pkt
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::Fate;
    use crate::time::NS_PER_S;

    fn pkt(flow: u32, kind: PktKind) -> Packet {
        Packet {
            flow,
            kind,
            seq: 0,
            len: 1460,
            seg: 1,
            tx: 1,
            size: 1500,
            fate: Fate::Ok,
            ecn: 0,
        }
    }

    /// Runs the scheduler alone for `secs` with every class given in `load` kept
    /// backlogged (refilled to 5 packets); returns bytes sent per class.
    fn run(s: &mut Sched, bw: u64, load: &[Packet], secs: u64) -> Vec<u64> {
        let end = secs * NS_PER_S;
        let mut now = 0;
        while now < end {
            for p in load {
                while s.count(s.class_of(p)) < 5 {
                    assert!(s.admit(now, *p, 100, 0));
                }
            }
            now = match s.next(now, bw) {
                Next::Started(done) => {
                    s.complete(done);
                    done
                }
                Next::WaitUntil(t) => t,
                Next::Empty => unreachable!(),
            };
        }
        s.classes.iter().map(|c| c.sent_bytes).collect()
    }

    #[test]
    fn a_backlogged_reserved_class_gets_its_rate_within_a_packet() {
        // 100 Mbit/s link, flow 0 reserves 40 Mbit/s, UDP saturates the best-effort class.
        for borrow in [false, true] {
            let mut s = Sched::new(&[40_000_000], 100_000_000, borrow);
            let sent = run(&mut s, 100_000_000, &[pkt(0, PktKind::Data), pkt(0, PktKind::Udp)], 10);
            // 10 s: 400 Mbit = 50 MB for the reserved class, 75 MB for best effort.
            assert!((sent[1] as i64 - 50_000_000).abs() <= 1500, "{borrow}: {sent:?}");
            assert!((sent[0] as i64 - 75_000_000).abs() <= 3000, "{borrow}: {sent:?}");
        }
    }

    #[test]
    fn without_borrowing_a_class_stays_at_its_rate_when_alone() {
        let mut s = Sched::new(&[40_000_000], 100_000_000, false);
        let sent = run(&mut s, 100_000_000, &[pkt(0, PktKind::Data)], 10);
        assert!((sent[1] as i64 - 50_000_000).abs() <= 1500, "{sent:?}");
        assert_eq!(sent[0], 0);
    }

    #[test]
    fn borrowing_shares_idle_capacity_in_proportion_to_rates() {
        // Reserved 40 and 20 Mbit/s on 100 Mbit/s; best effort (40 Mbit/s) idle: the two
        // share 100 Mbit/s 2 : 1.
        let mut s = Sched::new(&[40_000_000, 20_000_000], 100_000_000, true);
        let sent = run(&mut s, 100_000_000, &[pkt(0, PktKind::Data), pkt(1, PktKind::Data)], 6);
        let total = 75_000_000i64;
        assert!((sent[1] as i64 - total * 2 / 3).abs() <= 3000, "{sent:?}");
        assert!((sent[2] as i64 - total / 3).abs() <= 3000, "{sent:?}");
    }

    #[test]
    fn each_class_has_its_own_drop_tail_queue() {
        let mut s = Sched::new(&[40_000_000], 100_000_000, false);
        for _ in 0..3 {
            assert!(s.admit(0, pkt(0, PktKind::Udp), 3, 0));
        }
        assert!(!s.admit(0, pkt(0, PktKind::Udp), 3, 0), "best effort is full");
        assert!(s.admit(0, pkt(0, PktKind::Data), 3, 0), "the reserved class is not");
        // Unreserved flows and ACKs of unreserved flows share best effort.
        let t = Sched::new(&[0, 5], 100, false);
        assert_eq!(t.class_of(&pkt(0, PktKind::Ack)), 0);
        assert_eq!(t.class_of(&pkt(1, PktKind::Ack)), 1);
    }

    #[test]
    fn a_bandwidth_change_resizes_best_effort_only() {
        let mut s = Sched::new(&[40_000_000, 0], 100_000_000, false);
        assert_eq!(s.classes[0].rate, 60_000_000);
        s.set_bandwidth(50_000_000);
        assert_eq!((s.classes[0].rate, s.classes[1].rate), (10_000_000, 40_000_000));
        s.set_bandwidth(30_000_000);
        assert_eq!(
            s.classes[0].rate, 0,
            "reservations above the link leave best effort nothing"
        );
        let sent = run(&mut s, 30_000_000, &[pkt(0, PktKind::Data), pkt(1, PktKind::Data)], 2);
        assert_eq!(sent[0], 0, "a class without a rate never sends when bounded");
    }

    #[test]
    fn a_class_back_from_idle_has_no_saved_credit() {
        let mut s = Sched::new(&[40_000_000], 100_000_000, false);
        // Idle until 1 s, then a burst of 10: they leave at the class rate (300 µs apart),
        // not at the link rate.
        for _ in 0..10 {
            assert!(s.admit(NS_PER_S, pkt(0, PktKind::Data), 100, 0));
        }
        let mut now = NS_PER_S;
        let mut starts = vec![];
        loop {
            match s.next(now, 100_000_000) {
                Next::Started(done) => {
                    starts.push(now);
                    s.complete(done);
                    now = done;
                }
                Next::WaitUntil(t) => now = t,
                Next::Empty => break,
            }
        }
        let gaps: Vec<u64> = starts.windows(2).map(|w| w[1] - w[0]).collect();
        assert_eq!(gaps, vec![300_000; 9]);
    }
}
