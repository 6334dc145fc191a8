//! Queue disciplines of a bottleneck direction other than drop-tail (`network.bottleneck.
//! qdisc`): the seam, and the queue model they need.
//!
//! A drop-tail link keeps the engine's FIFO model (`net/mod.rs`): a packet's departure and
//! arrival are computed when it enters, and nothing here runs. A managed link instead keeps
//! its waiting packets with their entry times and the packet in service, as the reservation
//! scheduler does (`net/sched.rs`): the simulation starts a transmission when the link
//! frees up and schedules a `LinkService` event at its end. That is what a discipline that
//! drops at dequeue needs: a packet CoDel drops as it reaches the head never occupies the
//! link, so the packets behind it leave earlier.
//!
//! The seam is two calls: [`Managed::enqueue`] (the arrival's verdict: RED decides here) and
//! [`Managed::start`] (the head's verdict when the link takes the next packet: CoDel
//! decides here). A verdict is pass, drop or "mark CE if the packet is ECN-capable, else
//! drop" ([`Verdict`]); nothing is ECN-capable yet, so the last is a drop (RFC 3168 §5: an
//! AQM marks instead of dropping only an ECT packet). The buffer's capacity (queue_packets,
//! queue_bytes, counting the packet in service) still refuses arrivals first, as a forced
//! drop-tail drop.

pub mod codel;
pub mod fq_codel;
pub mod pie;
pub mod red;
pub mod settings;
pub mod step;

use super::Packet;
use crate::time::{tx_time, Ns};
use codel::{Codel, CodelWhy};
use fq_codel::{FqCodel, FqWhy};
use pie::{Pie, PieWhy};
use red::{Red, RedWhy};
use std::collections::VecDeque;

/// Waiting packets with their entry times, and their bytes.
#[derive(Clone, Debug, Default)]
pub struct Fifo {
    q: VecDeque<(Packet, Ns)>,
    /// Bytes waiting.
    pub bytes: u64,
}

impl Fifo {
    /// Appends a packet that entered at `at`.
    pub fn push(&mut self, pkt: Packet, at: Ns) {
        self.bytes += pkt.size as u64;
        self.q.push_back((pkt, at));
    }

    /// Takes the head.
    pub fn pop(&mut self) -> Option<(Packet, Ns)> {
        let head = self.q.pop_front();
        if let Some((p, _)) = head {
            self.bytes -= p.size as u64;
        }
        head
    }

    /// Packets waiting.
    pub fn len(&self) -> usize {
        self.q.len()
    }

    /// Whether none waits.
    pub fn is_empty(&self) -> bool {
        self.q.is_empty()
    }
}

/// What a discipline does with a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It goes on.
    Pass,
    /// It is dropped whatever it carries (RED above max_th).
    Drop,
    /// Congestion is signalled: CE if the packet is ECN-capable (ECT), else a drop.
    MarkCeIfEct,
    /// It goes on, marked CE (an ECN-capable packet under `MarkCeIfEct`, or the step
    /// queue's mark).
    Marked,
}

/// The arithmetic of a discipline's drop, for its event and its explanation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AqmWhy {
    /// RED at arrival.
    Red(RedWhy),
    /// CoDel at dequeue.
    Codel(CodelWhy),
    /// FQ-CoDel: a queue's CoDel at dequeue, or an overflow's cut of the fattest queue.
    FqCodel(FqWhy),
    /// PIE at arrival.
    Pie(PieWhy),
    /// The step queue at arrival: the packets it found, and K.
    Step(u64, u64),
}

/// The discipline's state.
#[derive(Clone, Debug)]
pub enum Disc {
    /// Random Early Detection.
    Red(Red),
    /// Controlled Delay.
    Codel(Codel),
    /// Flow queues with CoDel each.
    FqCodel(FqCodel),
    /// Proportional Integral controller Enhanced.
    Pie(Pie),
    /// Step marking at K packets (DCTCP's switches).
    Step(step::Step),
}

/// A managed bottleneck direction: its waiting packets, the packet in service and its
/// discipline.
#[derive(Clone, Debug)]
pub struct Managed {
    /// The waiting packets.
    pub fifo: Fifo,
    /// The packet being transmitted and when it entered.
    in_service: Option<(Packet, Ns)>,
    /// Generation of the link's pending service event (older ones are stale).
    pub gen: u32,
    /// The discipline.
    pub disc: Disc,
    /// When the system last became empty (RED's idle correction).
    idle_since: Ns,
    /// The discipline's state over time.
    pub series: crate::trace::QdiscSeries,
    /// Scratch for the packets one dequeue drops.
    dropped: Vec<(Packet, CodelWhy)>,
    /// The same for FQ-CoDel.
    fq_dropped: Vec<(Packet, FqWhy)>,
}

impl Managed {
    /// A managed queue with this discipline.
    pub fn new(disc: Disc) -> Managed {
        Managed {
            fifo: Fifo::default(),
            in_service: None,
            gen: 0,
            disc,
            idle_since: 0,
            series: Default::default(),
            dropped: Vec::new(),
            fq_dropped: Vec::new(),
        }
    }

    /// Packets and bytes waiting (not counting the one in service).
    pub fn waiting(&self) -> (usize, u64) {
        match &self.disc {
            Disc::FqCodel(f) => (f.len, f.bytes),
            _ => (self.fifo.len(), self.fifo.bytes),
        }
    }

    /// Packets and bytes in the system (waiting plus in service).
    pub fn total(&self) -> (usize, u64) {
        let s = self.in_service.map_or(0, |(p, _)| p.size as u64);
        let (n, b) = self.waiting();
        (n + self.in_service.is_some() as usize, b + s)
    }

    /// Whether the discipline enforces the buffer's capacity itself (FQ-CoDel cuts the
    /// fattest queue instead of refusing the arrival).
    pub fn owns_capacity(&self) -> bool {
        matches!(self.disc, Disc::FqCodel(_))
    }

    /// Whether a packet is being transmitted.
    pub fn busy(&self) -> bool {
        self.in_service.is_some()
    }

    /// The packet being transmitted and when it entered the queue.
    pub fn in_service(&self) -> Option<&(Packet, Ns)> {
        self.in_service.as_ref()
    }

    /// The verdict on a packet arriving at `now` (already admitted by the buffer's
    /// capacity unless the discipline [owns it](Self::owns_capacity): `cap` is the buffer's
    /// (packets, bytes; 0 bytes = no byte limit)), with the arithmetic of a drop; a passed
    /// packet joins the queue. `draw(n)` is the link's n-th random draw. Packets an
    /// overflow cuts from the queue go to `dropped`.
    pub fn enqueue(
        &mut self,
        now: Ns,
        pkt: Packet,
        bandwidth: u64,
        cap: (u64, u64),
        draw: impl FnOnce(u64) -> u64,
        mut dropped: impl FnMut(Packet, Verdict, AqmWhy),
    ) -> (Verdict, Option<AqmWhy>) {
        let verdict = match &mut self.disc {
            Disc::FqCodel(f) => {
                let (busy, s) = self.in_service.map_or((0, 0), |(p, _)| (1, p.size as u64));
                let over = |n: usize, b: u64| n as u64 + busy > cap.0 || (cap.1 > 0 && b + s > cap.1);
                let mut scratch = std::mem::take(&mut self.fq_dropped);
                f.enqueue(now, pkt, over, &mut scratch);
                if !scratch.is_empty() && !self.series.silent() {
                    let row = fq_row(f);
                    self.series.record(now, row);
                }
                for (p, why) in scratch.drain(..) {
                    dropped(p, Verdict::Drop, AqmWhy::FqCodel(why));
                }
                self.fq_dropped = scratch;
                return (Verdict::Pass, None);
            }
            Disc::Pie(pie) => {
                let backlog = self.fifo.bytes;
                let series = &mut self.series;
                pie.advance(now, backlog, |t, pie| series.record(t, pie_row(pie)));
                let why = pie.decide(backlog, draw);
                self.series.record(now, pie_row(pie));
                if let Some(why) = why {
                    // Linux marks an ECT packet only while p ≤ 10 %, and drops above.
                    if why.p <= pie::ONE / 10 {
                        if pkt.ecn_capable() {
                            let mut p = pkt;
                            p.ecn |= super::Packet::CE;
                            self.fifo.push(p, now);
                            return (Verdict::Marked, Some(AqmWhy::Pie(why)));
                        }
                        return (Verdict::MarkCeIfEct, Some(AqmWhy::Pie(why)));
                    }
                    return (Verdict::Drop, Some(AqmWhy::Pie(why)));
                }
                Verdict::Pass
            }
            Disc::Red(r) => {
                let empty = self.fifo.is_empty() && self.in_service.is_none();
                let q = if r.bytes {
                    self.fifo.bytes
                } else {
                    self.fifo.len() as u64
                };
                let m = if empty {
                    r.idle_packets(now - self.idle_since.min(now), bandwidth)
                } else {
                    0
                };
                r.average(q, empty, m);
                let why = r.decide(q, m, pkt.size, draw);
                let row = red_row(r);
                self.series.record(now, row);
                match why.verdict {
                    0 => Verdict::Pass,
                    1 if pkt.ecn_capable() => {
                        // RFC 3168 §5: an ECN-capable packet is marked, not dropped.
                        let mut p = pkt;
                        p.ecn |= super::Packet::CE;
                        self.fifo.push(p, now);
                        return (Verdict::Marked, Some(AqmWhy::Red(why)));
                    }
                    1 => return (Verdict::MarkCeIfEct, Some(AqmWhy::Red(why))),
                    _ => return (Verdict::Drop, Some(AqmWhy::Red(why))),
                }
            }
            Disc::Codel(_) => Verdict::Pass,
            Disc::Step(s) => {
                let q = self.fifo.len() as u64 + self.in_service.is_some() as u64;
                if s.marks(q) && pkt.ecn_capable() {
                    let mut p = pkt;
                    p.ecn |= super::Packet::CE;
                    self.fifo.push(p, now);
                    return (Verdict::Marked, Some(AqmWhy::Step(q, s.k)));
                }
                Verdict::Pass
            }
        };
        self.fifo.push(pkt, now);
        (verdict, None)
    }

    /// With the link idle at `now`, takes the next packet into service: returns when its
    /// transmission ends at `bandwidth`, or None when nothing is left. The packets the
    /// discipline drops on the way are handed to `dropped` with their verdict and
    /// arithmetic.
    pub fn start(&mut self, now: Ns, bandwidth: u64, mut dropped: impl FnMut(Packet, Verdict, AqmWhy)) -> Option<Ns> {
        debug_assert!(self.in_service.is_none());
        let head = match &mut self.disc {
            Disc::Red(_) | Disc::Step(_) => self.fifo.pop(),
            Disc::Pie(pie) => {
                let series = &mut self.series;
                pie.advance(now, self.fifo.bytes, |t, pie| series.record(t, pie_row(pie)));
                let head = self.fifo.pop();
                if let Some((_, entered)) = head {
                    pie.measure(now, entered, self.fifo.bytes);
                }
                self.series.record(now, pie_row(pie));
                head
            }
            Disc::Codel(c) => {
                let mut scratch = std::mem::take(&mut self.dropped);
                let head = c.dequeue(now, &mut self.fifo, &mut scratch);
                let row = codel_row(c);
                self.series.record(now, row);
                for (p, why) in scratch.drain(..) {
                    dropped(p, Verdict::MarkCeIfEct, AqmWhy::Codel(why));
                }
                self.dropped = scratch;
                if let (Some(why), Some((p, _))) = (c.marked.take(), head) {
                    // The head goes on, marked CE (reported as `Verdict::Marked`).
                    dropped(p, Verdict::Marked, AqmWhy::Codel(why));
                }
                head
            }
            Disc::FqCodel(f) => {
                let mut scratch = std::mem::take(&mut self.fq_dropped);
                let head = f.dequeue(now, &mut scratch);
                // The row scans every active queue for the fattest: not made when nothing
                // would store or hash it (a summary-only run without digest).
                if !self.series.silent() {
                    let row = fq_row(f);
                    self.series.record(now, row);
                }
                for (p, why) in scratch.drain(..) {
                    dropped(p, Verdict::MarkCeIfEct, AqmWhy::FqCodel(why));
                }
                self.fq_dropped = scratch;
                if let (Some(why), Some((p, _))) = (f.take_mark(), head) {
                    // The served queue's CoDel marked its head CE: it goes on.
                    dropped(p, Verdict::Marked, AqmWhy::FqCodel(why));
                }
                head
            }
        };
        match head {
            Some((pkt, at)) => {
                self.in_service = Some((pkt, at));
                Some(now + tx_time(pkt.size as u64, bandwidth))
            }
            None => {
                self.idle_since = now;
                None
            }
        }
    }

    /// The packet in service finished at `now`: it leaves the queue.
    pub fn complete(&mut self, now: Ns) -> Packet {
        let (pkt, _) = self.in_service.take().expect("a packet in service");
        if self.waiting().0 == 0 {
            self.idle_since = now;
        }
        pkt
    }
}

/// RED's state as a trace row.
fn red_row(r: &Red) -> crate::trace::QdiscRow {
    crate::trace::QdiscRow {
        avg: (r.avg >> 16).min(u64::MAX as u128) as u64,
        p: r.p,
        count: r.count,
        ..Default::default()
    }
}

/// CoDel's state as a trace row.
fn codel_row(c: &Codel) -> crate::trace::QdiscRow {
    crate::trace::QdiscRow {
        sojourn: c.sojourn,
        dropping: c.dropping,
        count: c.count as i64,
        drop_next: if c.dropping { c.drop_next } else { u64::MAX },
        ..Default::default()
    }
}

/// FQ-CoDel's state as a trace row: the lists, the fattest queue, and the CoDel of the
/// queue served last.
fn fq_row(f: &FqCodel) -> crate::trace::QdiscRow {
    let (active, fattest, _) = f.fattest();
    let (new, old) = f.lists();
    let c = f.codel(f.served);
    crate::trace::QdiscRow {
        sojourn: c.sojourn,
        dropping: c.dropping,
        count: c.count as i64,
        drop_next: if c.dropping { c.drop_next } else { u64::MAX },
        active: active as u32,
        new: new as u32,
        old: old as u32,
        fattest,
        ..Default::default()
    }
}

/// PIE's state as a trace row: p (in 2⁻³²), the latest delay, the burst allowance left.
fn pie_row(p: &Pie) -> crate::trace::QdiscRow {
    crate::trace::QdiscRow {
        p: p.p >> 24,
        sojourn: p.qdelay,
        burst: p.burst,
        ..Default::default()
    }
}

/// The managed queue a bottleneck direction with discipline `kind` gets (None: drop-tail,
/// the FIFO link as it is); `seed` and `link` key its hash and draws.
pub fn managed(
    kind: settings::QdiscKind,
    b: &crate::scenario::BottleneckCfg,
    seed: u64,
    link: u32,
) -> Option<Box<Managed>> {
    use settings::QdiscKind;
    let disc = match kind {
        QdiscKind::DropTail => return None,
        QdiscKind::Red => Disc::Red(Red::new(&b.red)),
        QdiscKind::Codel => Disc::Codel(Codel::new(&b.codel)),
        QdiscKind::FqCodel => Disc::FqCodel(FqCodel::new(&b.fq_codel, seed, link)),
        QdiscKind::Pie => Disc::Pie(Pie::new(&b.pie)),
        QdiscKind::Step => Disc::Step(step::Step::new(&b.step)),
    };
    Some(Box::new(Managed::new(disc)))
}
