//! The world the endpoints act on: the clock, the event queue, the links and what happens
//! to a packet between two endpoints (queues, the wire's fate, forwarding hop by hop, early
//! entry, the class scheduler, drops and their accounting). The endpoints reach it only
//! through [`Env`]; the simulation (`sim.rs`) owns the endpoints and hands them the packets
//! that reach them ([`World::on_link_head`]).

use crate::cross::CrossStats;
use crate::event::{Event, EventQueue};
use crate::net::sack::{SackBlocks, SackStore};
use crate::net::sched::Next;
use crate::net::{flow_base, Fate, Hop, Link, Packet, PktKind};
use crate::summary::Drops;
use crate::tcp::env::Env;
use crate::throughput::{Col, ThroughputTable};
use crate::time::Ns;
use crate::trace::{EventKind, EventLog};

/// Shared state every endpoint acts on: the clock, the event queue, the links, the log.
#[derive(Debug)]
pub struct World {
    /// Current simulated time.
    pub now: Ns,
    pub(super) events: EventQueue,
    /// All links.
    pub links: Vec<Link>,
    /// The event log.
    pub log: EventLog,
    pub(super) seed: u64,
    /// Packets created by endpoints (data, ACK, SYN, SYN-ACK) and cross-traffic sources.
    pub packets: u64,
    /// Drops by cause, per flow.
    pub drops: Vec<Drops>,
    /// Per flow: the queueing delay of each data packet the forward bottleneck admitted
    /// (from its entry into the queue to the start of its transmission).
    pub qdelay: Vec<crate::delay::Delays>,
    /// What became of each cross-traffic source's packets.
    pub cross: Vec<CrossStats>,
    /// Per cross-traffic source, a ping source's samples (`sim/ping.rs`).
    pub pings: Vec<Option<Box<super::ping::PingLog>>>,
    /// Bytes per class per bin (flows, then cross sources).
    pub tput: ThroughputTable,
    /// Scripted drops per flow, sorted: (segment, attempt).
    pub(super) scripted: Vec<Vec<(u64, u64)>>,
    /// Which retransmissions were spurious, per flow.
    pub spurious: Vec<crate::spurious::Tracker>,
    /// Scratch for the spurious retransmissions one arrival reveals.
    pub(super) found: Vec<crate::spurious::Spurious>,
    /// The end of the run: nothing enters a link early past it.
    pub(super) end: Ns,
    /// Packet capture, when asked for (see `capture.rs`).
    pub capture: Option<Box<crate::capture::Capture>>,
    /// The SACK blocks of the ACKs in flight (see `net/sack.rs`).
    pub sacks: SackStore,
    /// The order in which the batches of explained decisions were made (the endpoints'
    /// and the queues').
    pub(crate) decision_order: Vec<crate::explain::Order>,
    /// Decisions stamped so far.
    pub(crate) decision_total: u32,
    /// Per flow, the bottleneck queue disciplines' explained drops of its packets.
    pub aqm_why: Vec<crate::explain::Why>,
    /// Scratch for the packets one dequeue drops.
    pub(super) aqm_scratch: Vec<(Packet, crate::net::qdisc::AqmWhy, bool)>,
}

impl World {
    /// `n` decisions of `endpoint`'s log, from its decision `first` on, were made now.
    #[inline]
    pub(super) fn push_order(&mut self, endpoint: u32, first: u32, n: u32) {
        self.decision_order.push(crate::explain::Order {
            t: self.now,
            cum: self.decision_total,
            endpoint,
            first,
        });
        self.decision_total += n;
    }

    /// A packet was dropped (queue or wire): a data segment's copy no longer travels.
    pub(super) fn data_lost(&mut self, pkt: &Packet) {
        if pkt.kind == PktKind::Data {
            self.spurious[pkt.flow as usize].lost(pkt.seg);
        }
    }

    fn offer(&mut self, link_id: u32, pkt: Packet) {
        self.offer_at(link_id, self.now, pkt)
    }

    /// Offers a packet to a link at `at` (now, or ahead of now when it enters early; see
    /// `net.rs`). While the next link may take it early, it goes on at once, dated with its
    /// far-end instant here; otherwise it waits here for its far-end event.
    fn offer_at(&mut self, mut link_id: u32, mut at: Ns, mut pkt: Packet) {
        // An early entry was admitted before it was made.
        let mut admitted = false;
        loop {
            let link = &mut self.links[link_id as usize];
            let (done, arrival) = if link_id >= flow_base(0) {
                // An access link: a drop-tail FIFO and nothing else (`Simulation::new` builds
                // it without loss, scripted drops, delay variation or a scheduler, and no
                // setting adds one later), so a packet's fate is decided elsewhere: at the
                // bottleneck, or Ok for one that an endpoint sent. Three tests a hop fewer.
                debug_assert!(link.is_plain_fifo() && pkt.fate == Fate::Ok, "{}", link.name);
                if !admitted && !link.admits(at, pkt.size) {
                    return self.tail_drop(pkt);
                }
                let (done, arrival) = link.serve(at, pkt.size);
                if let Some(c) = self.capture.as_deref_mut() {
                    c.starts(link_id, done - link.last_service_time(), &pkt, &self.sacks);
                }
                (done, arrival)
            } else {
                if link.serves {
                    debug_assert_eq!(at, self.now, "a scheduled or managed link takes no early entry");
                    if link.qdisc.is_some() {
                        return self.offer_managed(link_id, pkt);
                    }
                    return self.offer_scheduled(link_id, pkt);
                }
                // The fate is a pure function of the packet: deciding it before admission
                // changes nothing for a packet the queue then refuses.
                pkt.fate = fate(link, &self.scripted, self.seed, link_id, &pkt);
                if !admitted && !link.admits(at, pkt.size) {
                    return self.tail_drop(pkt);
                }
                let (done, arrival) = link.serve(at, pkt.size);
                if let Some(c) = self.capture.as_deref_mut() {
                    c.starts(link_id, done - link.last_service_time(), &pkt, &self.sacks);
                }
                if link_id == 0 && pkt.kind == PktKind::Data {
                    // Its transmission starts at done − its service time; it entered at `at`.
                    self.qdelay[pkt.flow as usize].add(done - link.last_service_time() - at);
                }
                if link.variation != 0 {
                    return self.hold_varied(link_id, at, done, pkt);
                }
                (done, arrival)
            };
            let next = if pkt.fate != Fate::Ok || pkt.kind == PktKind::Udp {
                None
            } else {
                next_link(link.next, pkt.flow)
            };
            if let Some(b) = next.filter(|&b| self.links[b as usize].express_in) {
                if self.enters_early(b, arrival, pkt.size) {
                    self.links[link_id as usize].pass(at, done, pkt.size);
                    if link_id == 0 {
                        self.tput
                            .add(self.now, arrival, pkt.flow as usize, Col::Bottleneck, pkt.size as u64);
                    }
                    (link_id, at, admitted) = (b, arrival, true);
                    continue;
                }
                self.links[b as usize].inbound += 1;
            }
            let link = &mut self.links[link_id as usize];
            link.hold(at, done, arrival, pkt);
            if link.in_flight() == 1 {
                self.events.push(arrival, Event::LinkHead { link: link_id });
            }
            return;
        }
    }

    /// A packet served at `at` by a link with delay variation (net.rs): its extra delay is
    /// drawn, and it waits for an event of its own at its arrival. It never enters the next
    /// link early (its entry would not be in time order), and while it travels nothing
    /// behind it does (`inbound`). Apart from the hot path: without variation a link costs
    /// one test.
    #[inline(never)]
    fn hold_varied(&mut self, link_id: u32, at: Ns, done: Ns, pkt: Packet) {
        let link = &self.links[link_id as usize];
        let next = if pkt.fate != Fate::Ok || pkt.kind == PktKind::Udp {
            None
        } else {
            next_link(link.next, pkt.flow)
        };
        if let Some(b) = next.filter(|&b| self.links[b as usize].express_in) {
            self.links[b as usize].inbound += 1;
        }
        let link = &mut self.links[link_id as usize];
        let (n, extra) = link.draw_variation(self.seed, link_id).expect("a link with variation");
        let arrival = link.varied_arrival(done, extra);
        link.hold_late(at, done, arrival, n, pkt);
        self.events.push(arrival, Event::LinkLate { link: link_id });
    }

    /// Whether a packet reaching link `b` (which takes early entries) at `at` may enter it
    /// now: nothing bound for `b` waits for its event, the entry is within the run, and `b`
    /// will admit it. The entry is decided with `b` as it is now: a timeline change to `b`
    /// before `at` applies to the packets that come to `b`'s upstream link after it (see
    /// `net.rs`), so a run never depends on changes still to come, and a change made live
    /// replays exactly.
    #[inline]
    fn enters_early(&mut self, b: u32, at: Ns, size: u32) -> bool {
        let end = self.end;
        let l = &mut self.links[b as usize];
        l.inbound == 0 && at <= end && l.admits(at, size)
    }

    /// A full queue refused the packet.
    #[cold]
    pub(super) fn tail_drop(&mut self, pkt: Packet) {
        self.queue_lost(&pkt, EventKind::QueueDrop, EventKind::AckQueueDrop);
    }

    /// A queue lost `pkt` (a full buffer, or a discipline's drop): its SACK option freed,
    /// counted with the queue's drops, logged as `fwd` or `rev` by its direction. Returns
    /// false for a cross-traffic datagram (counted with its source, not logged).
    #[inline]
    pub(super) fn queue_lost(&mut self, pkt: &Packet, fwd: EventKind, rev: EventKind) -> bool {
        self.sacks.take(pkt.sack_handle());
        if pkt.kind == PktKind::Udp {
            self.cross[pkt.flow as usize].queue_drops += 1;
            return false;
        }
        self.data_lost(pkt);
        let d = &mut self.drops[pkt.flow as usize];
        let kind = if is_forward(pkt.kind) {
            d.queue += 1;
            fwd
        } else {
            d.ack_queue += 1;
            rev
        };
        self.log
            .push(self.now, pkt.flow, kind, pkt.seq, pkt.payload(), pkt.seg, pkt.tx);
        true
    }

    /// Offers a packet to a link with a class-based scheduler.
    fn offer_scheduled(&mut self, link_id: u32, mut pkt: Packet) {
        let now = self.now;
        let link = &mut self.links[link_id as usize];
        pkt.fate = fate(link, &self.scripted, self.seed, link_id, &pkt);
        let sched = link.sched.as_mut().expect("a scheduled link");
        if !sched.admit(now, pkt, link.cap_packets, link.cap_bytes) {
            return self.tail_drop(pkt);
        }
        let idle = !sched.busy();
        link.trace_total(now);
        if idle {
            self.serve(link_id);
        }
    }

    /// An idle scheduled link starts its next packet, or waits for a class to come due.
    fn serve(&mut self, link_id: u32) {
        let link = &mut self.links[link_id as usize];
        let bandwidth = link.bandwidth();
        let sched = link.sched.as_mut().expect("a scheduled link");
        let at = match sched.next(self.now, bandwidth) {
            Next::Started(done) => {
                if let (Some(c), Some(pkt)) = (self.capture.as_deref_mut(), sched.in_service()) {
                    c.starts(link_id, self.now, pkt, &self.sacks);
                }
                if let (0, Some((pkt, entered))) = (link_id, sched.in_service_entered()) {
                    if pkt.kind == PktKind::Data {
                        self.qdelay[pkt.flow as usize].add(self.now - entered);
                    }
                }
                done
            }
            Next::WaitUntil(t) => t,
            Next::Empty => return,
        };
        sched.gen = sched.gen.wrapping_add(1);
        let gen = sched.gen;
        self.events.push(at, Event::LinkService { link: link_id, gen });
    }

    /// A scheduled link's service event: the packet in service (if any) goes on the wire,
    /// then the next one starts.
    pub(super) fn on_service(&mut self, link_id: u32, gen: u32) {
        if self.links[link_id as usize].qdisc.is_some() {
            return self.on_managed_service(link_id, gen);
        }
        let now = self.now;
        let link = &mut self.links[link_id as usize];
        let sched = link.sched.as_mut().expect("a scheduled link");
        if sched.gen != gen {
            return;
        }
        if sched.busy() {
            let pkt = sched.complete(now);
            link.trace_total(now);
            if let Some((n, extra)) = link.draw_variation(self.seed, link_id) {
                let at = link.launch_late(now, extra, n, pkt);
                self.events.push(at, Event::LinkLate { link: link_id });
            } else if link.launch(now, pkt) {
                let at = link.head_arrival().expect("just launched");
                self.events.push(at, Event::LinkHead { link: link_id });
            }
        }
        self.serve(link_id);
    }
}

/// Whether a packet accepted by a link will be discarded at its far end: a pure function of
/// the packet's identity (scripted drops, then random loss).
#[inline(always)]
pub(super) fn fate(link: &mut Link, scripted: &[Vec<(u64, u64)>], seed: u64, link_id: u32, pkt: &Packet) -> Fate {
    if link.scripted
        && is_forward(pkt.kind)
        && scripted[pkt.flow as usize]
            .binary_search(&(pkt.seg as u64, pkt.tx as u64))
            .is_ok()
    {
        Fate::Scripted
    } else if link.loss.corrupts(seed, link_id, pkt) {
        Fate::Error
    } else {
        Fate::Ok
    }
}

pub(super) fn is_forward(k: PktKind) -> bool {
    matches!(k, PktKind::Data | PktKind::Syn)
}
impl Env for World {
    #[inline]
    fn now(&self) -> Ns {
        self.now
    }

    #[inline]
    fn schedule(&mut self, at: Ns, ev: Event) {
        self.events.push(at, ev);
    }

    /// An endpoint's packet goes on its first link (counted among the packets created).
    fn transmit(&mut self, link: u32, pkt: Packet) {
        self.packets += 1;
        self.offer(link, pkt);
    }

    /// An ACK with a SACK option: the blocks wait in the store under the ACK's handle.
    fn transmit_sack(&mut self, link: u32, mut pkt: Packet, blocks: SackBlocks) {
        pkt.len = self.sacks.put(blocks);
        self.transmit(link, pkt);
    }

    #[inline]
    fn log(&mut self, flow: u32, kind: EventKind, seq: u64, len: u32, seg: u32, tx: u32) {
        self.log.push(self.now, flow, kind, seq, len, seg, tx);
    }

    /// Records the copy, and logs the retransmission if an earlier copy has already reached
    /// the receiver.
    #[inline]
    fn data_sent(&mut self, flow: u32, seq: u64, len: u32, seg: u32, attempt: u32) {
        if let Some(s) = self.spurious[flow as usize].sent(seq, len, seg, attempt) {
            self.log(flow, EventKind::SpuriousRetransmit, s.seq, s.len, s.seg, s.attempt);
        }
    }

    /// Logs the retransmissions this arrival shows were spurious.
    #[inline]
    fn data_arrived(&mut self, flow: u32, seg: u32, attempt: u32) {
        self.spurious[flow as usize].arrived(seg, attempt, &mut self.found);
        if !self.found.is_empty() {
            self.log_found(flow);
        }
    }
}

impl World {
    /// Logs the spurious retransmissions an arrival found (`Env::data_arrived`).
    #[cold]
    fn log_found(&mut self, flow: u32) {
        for k in 0..self.found.len() {
            let s = self.found[k];
            self.log(flow, EventKind::SpuriousRetransmit, s.seq, s.len, s.seg, s.attempt);
        }
        self.found.clear();
    }
}

/// The endpoint a packet reached at the far end of its last link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Endpoint {
    /// Its flow's receiver (data, SYN).
    Receiver,
    /// Its flow's sender (ACK, SYN-ACK).
    Sender,
}

impl World {
    /// Link `link`'s first packet on the wire reached the far end: it is dropped there (its
    /// fate), sunk (cross traffic), forwarded to its next link, or handed back for the
    /// endpoint it reached.
    #[inline]
    pub(super) fn on_link_head(&mut self, link: u32) -> Option<(Endpoint, Packet)> {
        let l = &mut self.links[link as usize];
        let pkt = l.arrive(self.now);
        if let Some(next) = l.head_arrival() {
            self.events.push(next, Event::LinkHead { link });
        }
        self.arrive(link, pkt)
    }

    /// A packet with an extra delay (delay variation) reached the far end of link `link`
    /// at its own event: then as [`World::on_link_head`].
    #[inline(never)]
    pub(super) fn on_link_late(&mut self, link: u32) -> Option<(Endpoint, Packet)> {
        let pkt = self.links[link as usize].arrive_late(self.now);
        self.arrive(link, pkt)
    }

    /// Inlined in both callers (as it was in the one before delay variation: called from
    /// two places it was not, which cost 2 % of a NetSim run's instructions).
    #[inline(always)]
    fn arrive(&mut self, link: u32, pkt: Packet) -> Option<(Endpoint, Packet)> {
        if pkt.kind == PktKind::Udp {
            self.cross_arrive(link, pkt);
            return None;
        }
        if pkt.fate != Fate::Ok {
            self.wire_drop(pkt);
            return None;
        }
        if link == 0 {
            self.tput
                .add(self.now, self.now, pkt.flow as usize, Col::Bottleneck, pkt.size as u64);
        }
        let hop = self.links[link as usize].next;
        let to = match hop {
            Hop::Link(_) | Hop::FlowForward | Hop::FlowReverse => {
                let next = next_link(hop, pkt.flow).expect("a link");
                // It waited for this event, so nothing entered the next link ahead of it.
                let l = &mut self.links[next as usize];
                if l.express_in {
                    l.inbound -= 1;
                }
                self.offer(next, pkt);
                return None;
            }
            Hop::Receiver => Endpoint::Receiver,
            Hop::Sender => Endpoint::Sender,
        };
        if let Some(c) = self.capture.as_deref_mut() {
            c.arrived(self.now, &pkt, &self.sacks);
        }
        Some((to, pkt))
    }

    /// A packet the wire corrupted (or a scripted drop) reached the far end: logged and
    /// counted here, at its own instant.
    #[cold]
    fn wire_drop(&mut self, pkt: Packet) {
        self.sacks.take(pkt.sack_handle());
        self.data_lost(&pkt);
        let d = &mut self.drops[pkt.flow as usize];
        let kind = match (pkt.fate, is_forward(pkt.kind)) {
            (Fate::Scripted, _) => {
                d.scripted += 1;
                EventKind::ScriptedDrop
            }
            (_, true) => {
                d.error += 1;
                EventKind::ErrorDrop
            }
            (_, false) => {
                d.ack_error += 1;
                EventKind::AckErrorDrop
            }
        };
        self.log(pkt.flow, kind, pkt.seq, pkt.payload(), pkt.seg, pkt.tx);
    }

    /// A cross-traffic packet reached the far end of the bottleneck (its sink). A ping
    /// source's packets are handled apart (`sim/ping.rs`), out of line and given the
    /// packet's fields, not the packet: that keeps the flows' arrivals, which share
    /// `World::arrive` with this, as they were (212.63 M instructions on the NetSim run;
    /// the ping code here, given the packet, cost 1.2 %: the caller then kept the packet
    /// in registers across the event queue's insert).
    #[cold]
    fn cross_arrive(&mut self, link: u32, pkt: Packet) {
        if self.pings[pkt.flow as usize].is_some() {
            return self.ping_arrive(link, pkt.flow, pkt.seq, pkt.tx, pkt.size, pkt.fate);
        }
        let st = &mut self.cross[pkt.flow as usize];
        if pkt.fate != Fate::Ok {
            st.error_drops += 1;
            return;
        }
        st.delivered_packets += 1;
        self.cross_delivered(link, pkt.flow, pkt.size);
    }

    /// A cross-traffic packet's bytes delivered: the source's count and the throughput
    /// table (classes: the flows, then the cross sources).
    #[inline(always)]
    pub(super) fn cross_delivered(&mut self, link: u32, source: u32, size: u32) {
        self.cross[source as usize].delivered_bytes += size as u64;
        let class = self.drops.len() + source as usize;
        if link == 0 {
            self.tput.add(self.now, self.now, class, Col::Bottleneck, size as u64);
        }
        self.tput.add(self.now, self.now, class, Col::Delivered, size as u64);
    }
}

/// The link a packet of `flow` goes on to after a link whose next hop is `hop`; None when
/// it reaches an endpoint.
#[inline]
fn next_link(hop: Hop, flow: u32) -> Option<u32> {
    match hop {
        Hop::Link(n) => Some(n),
        Hop::FlowForward => Some(flow_base(flow) + 1),
        Hop::FlowReverse => Some(flow_base(flow) + 3),
        Hop::Receiver | Hop::Sender => None,
    }
}
