//! The world's side of a managed bottleneck direction (`net/qdisc`): arrivals go through
//! the buffer's capacity and then the discipline's verdict; the link starts the next packet
//! when it frees up (the discipline may drop packets on the way) and ends each
//! transmission with a `LinkService` event, as the reservation scheduler does. A drop-tail
//! link never comes here.

use super::world::{fate, World};
use crate::event::Event;
use crate::net::qdisc::{red::red_draw, AqmWhy, Verdict};
use crate::net::{Packet, PktKind};
use crate::trace::EventKind;

impl World {
    /// Offers a packet to a managed link at now.
    #[inline(never)]
    pub(super) fn offer_managed(&mut self, link_id: u32, mut pkt: Packet) {
        let (now, seed) = (self.now, self.seed);
        let link = &mut self.links[link_id as usize];
        pkt.fate = fate(link, &self.scripted, seed, link_id, &pkt);
        let (bandwidth, cap_packets, cap_bytes) = (link.bandwidth(), link.cap_packets, link.cap_bytes);
        let m = link.qdisc.as_mut().expect("a managed link");
        let (n, bytes) = m.total();
        let full = n as u64 >= cap_packets || (cap_bytes > 0 && bytes + pkt.size as u64 > cap_bytes);
        if full && !m.owns_capacity() {
            return self.tail_drop(pkt);
        }
        let mut cut = std::mem::take(&mut self.aqm_scratch);
        let (verdict, why) = m.enqueue(
            now,
            pkt,
            bandwidth,
            (cap_packets, cap_bytes),
            |k| red_draw(seed, link_id, k),
            |p, _, why| cut.push((p, why, false)),
        );
        if !cut.is_empty() {
            return self.overflowed(link_id, cut);
        }
        self.aqm_scratch = cut;
        if verdict == Verdict::Marked {
            let idle = !m.busy();
            link.trace_managed(now);
            self.ce_mark(link_id, pkt, why.expect("a mark has its arithmetic"));
            if idle {
                self.serve_managed(link_id);
            }
            return;
        }
        if verdict != Verdict::Pass {
            // A drop, or "mark CE if ECT" for a packet that is not ECN-capable.
            return self.aqm_drop(link_id, pkt, why.expect("a drop has its arithmetic"));
        }
        let idle = !m.busy();
        link.trace_managed(now);
        if idle {
            self.serve_managed(link_id);
        }
    }

    /// The discipline cut packets from its queues to take an arrival (FQ-CoDel): each is
    /// an AQM drop; the link starts the next packet if it was idle.
    #[cold]
    fn overflowed(&mut self, link_id: u32, mut cut: Vec<(Packet, AqmWhy, bool)>) {
        let link = &mut self.links[link_id as usize];
        link.trace_managed(self.now);
        let idle = !link.qdisc.as_ref().expect("a managed link").busy();
        for (p, why, _) in cut.drain(..) {
            self.aqm_drop(link_id, p, why);
        }
        self.aqm_scratch = cut;
        if idle {
            self.serve_managed(link_id);
        }
    }

    /// An idle managed link starts its next packet (after the discipline's drops, if any)
    /// and schedules the end of its transmission.
    #[inline(never)]
    fn serve_managed(&mut self, link_id: u32) {
        let now = self.now;
        let mut drops = std::mem::take(&mut self.aqm_scratch);
        let link = &mut self.links[link_id as usize];
        let bandwidth = link.bandwidth();
        let m = link.qdisc.as_mut().expect("a managed link");
        let done = m.start(now, bandwidth, |p, v, why| drops.push((p, why, v == Verdict::Marked)));
        if !drops.is_empty() {
            link.trace_managed(now);
        }
        for (p, why, marked) in drops.drain(..) {
            if marked {
                self.ce_mark(link_id, p, why);
            } else {
                self.aqm_drop(link_id, p, why);
            }
        }
        self.aqm_scratch = drops;
        let Some(done) = done else {
            return;
        };
        let m = self.links[link_id as usize].qdisc.as_mut().expect("a managed link");
        let (pkt, entered) = *m.in_service().expect("just started");
        m.gen = m.gen.wrapping_add(1);
        let gen = m.gen;
        if let Some(c) = self.capture.as_deref_mut() {
            c.starts(link_id, now, &pkt, &self.sacks);
        }
        if link_id == 0 && pkt.kind == PktKind::Data {
            self.qdelay[pkt.flow as usize].add(now - entered);
        }
        self.events.push(done, Event::LinkService { link: link_id, gen });
    }

    /// A managed link's transmission ended: the packet goes on the wire, the next starts.
    #[inline(never)]
    pub(super) fn on_managed_service(&mut self, link_id: u32, gen: u32) {
        let now = self.now;
        let link = &mut self.links[link_id as usize];
        let m = link.qdisc.as_mut().expect("a managed link");
        if m.gen != gen || !m.busy() {
            return;
        }
        let pkt = m.complete(now);
        link.trace_managed(now);
        if let Some((n, extra)) = link.draw_variation(self.seed, link_id) {
            let at = link.launch_late(now, extra, n, pkt);
            self.events.push(at, Event::LinkLate { link: link_id });
        } else if link.launch(now, pkt) {
            let at = link.head_arrival().expect("just launched");
            self.events.push(at, Event::LinkHead { link: link_id });
        }
        self.serve_managed(link_id);
    }

    /// The discipline dropped a packet: counted with the queue's drops, logged as an
    /// `aqm_drop` row, and explained with its arithmetic.
    #[cold]
    fn aqm_drop(&mut self, link_id: u32, pkt: Packet, why: AqmWhy) {
        if self.queue_lost(&pkt, EventKind::AqmDrop, EventKind::AckAqmDrop) && self.aqm_why[pkt.flow as usize].on {
            self.explain_drop(link_id, &pkt, why, false);
        }
    }

    /// The discipline marked an ECN-capable packet CE instead of dropping it: counted per
    /// flow, logged as a `ce_mark` row, explained with the drop's arithmetic under the
    /// discipline's mark rule.
    #[cold]
    fn ce_mark(&mut self, link_id: u32, pkt: Packet, why: AqmWhy) {
        if pkt.kind == PktKind::Udp {
            return;
        }
        self.drops[pkt.flow as usize].ce_marks += 1;
        self.log.push(
            self.now,
            pkt.flow,
            EventKind::CeMark,
            pkt.seq,
            pkt.payload(),
            pkt.seg,
            pkt.tx,
        );
        if self.aqm_why[pkt.flow as usize].on {
            self.explain_drop(link_id, &pkt, why, true);
        }
    }

    /// Records a drop's (or, `marked`, a CE mark's) explanation in its flow's queue log and
    /// stamps it now.
    fn explain_drop(&mut self, link_id: u32, pkt: &Packet, why: AqmWhy, marked: bool) {
        use crate::explain::Rule;
        use crate::net::qdisc::{red::ONE, Disc};
        let link = &self.links[link_id as usize];
        let m = link.qdisc.as_ref().expect("a managed link");
        let flow = pkt.flow as usize;
        let log = &mut self.aqm_why[flow];
        match (why, &m.disc) {
            (AqmWhy::Red(r), Disc::Red(red)) => {
                let ppm = |p: u64| (p as u128 * 1_000_000 / ONE as u128) as u64;
                let milli = |v: u128| ((v * 1000) >> 32) as u64;
                let (min_th, max_th) = red.thresholds();
                let u = if r.draw == u64::MAX { 0 } else { ppm(r.draw) };
                log.push(
                    if marked { Rule::RedMark } else { Rule::RedDrop },
                    0,
                    0,
                    &[
                        r.q,
                        r.m,
                        milli(r.avg),
                        milli(min_th),
                        milli(max_th),
                        r.count.max(0) as u64,
                        ppm(r.p_b),
                        ppm(r.p_a),
                        u,
                        (r.verdict == 2) as u64,
                        pkt.size as u64,
                        0,
                    ],
                );
            }
            (AqmWhy::Codel(c), Disc::Codel(codel)) => {
                log.push(
                    if marked { Rule::CodelMark } else { Rule::CodelDrop },
                    0,
                    0,
                    &[
                        c.sojourn,
                        codel.target,
                        c.backlog,
                        c.first_above,
                        c.entered as u64,
                        c.delta as u64,
                        codel.interval,
                        c.count as u64,
                        c.next,
                    ],
                );
            }
            (AqmWhy::FqCodel(f), Disc::FqCodel(fq)) => {
                use crate::net::qdisc::fq_codel::FqCause;
                match f.cause {
                    FqCause::Codel(c) => {
                        let codel = fq.codel(f.queue);
                        log.push(
                            if marked { Rule::FqCodelMark } else { Rule::FqCodelDrop },
                            0,
                            0,
                            &[
                                f.queue as u64,
                                c.sojourn,
                                codel.target,
                                c.backlog,
                                c.first_above,
                                c.entered as u64,
                                c.delta as u64,
                                codel.interval,
                                c.count as u64,
                                c.next,
                            ],
                        );
                    }
                    FqCause::Overflow { backlog, waiting, nth } => {
                        log.push(
                            Rule::FqCodelOverflow,
                            0,
                            0,
                            &[
                                f.queue as u64,
                                backlog,
                                waiting,
                                fq.limit,
                                link.cap_packets,
                                fq.batch as u64,
                                pkt.size as u64,
                                nth as u64,
                            ],
                        );
                    }
                }
            }
            (AqmWhy::Pie(w), Disc::Pie(pie)) => {
                let ppm = |p: u64| ((p as u128 * 1_000_000) >> 56) as u64;
                log.push(
                    if marked { Rule::PieMark } else { Rule::PieDrop },
                    0,
                    0,
                    &[w.qdelay, pie.target, w.backlog, ppm(w.p), ppm(w.u), pkt.size as u64],
                );
            }
            (AqmWhy::Step(q, k), Disc::Step(_)) => {
                log.push(Rule::StepMark, 0, 0, &[q, k, pkt.size as u64]);
            }
            _ => return,
        }
        if let Some((first, n)) = log.log.stamp() {
            let queue_from = 2 * self.aqm_why.len() as u32;
            self.decision_order.push(crate::explain::Order {
                t: self.now,
                cum: self.decision_total,
                endpoint: queue_from + flow as u32,
                first,
            });
            self.decision_total += n;
        }
    }
}
