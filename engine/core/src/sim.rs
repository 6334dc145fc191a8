//! The simulation: a dumbbell of flows around one bottleneck, driven by the event queue.
//!
//! ```text
//!  sender i ──access──► R1 ══bottleneck══► R2 ──receiver access──► receiver i
//!  sender i ◄──access── R1 ◄══bottleneck══ R2 ◄──receiver access── receiver i
//! ```
//! Link ids: 0 = bottleneck (data direction), 1 = bottleneck (ACK direction); for flow i,
//! base = 2 + 4i: base = sender access (data), base+1 = receiver access (data),
//! base+2 = receiver access (ACKs), base+3 = sender access (ACKs).
//!
//! `advance(dt)` processes every event up to now + dt; `run_to_end()` runs to the end;
//! `step()` processes one event. However a run is sliced, the trace is the same.

use crate::app::App;
use crate::cross::{CrossSource, CrossStats};
use crate::event::{Event, EventQueue, AFTER_INSTANT};
use crate::net::{Fate, Hop, Link, LinkLoss, Packet, PktKind, QueueSeries};
use crate::scenario::{FlowSel, LossModel, Problem, Scenario, SchedulerKind};
use crate::sched::{Next, Sched};
use crate::summary::{Drops, FlowSummary, Summary};
use crate::tcp::receiver::Receiver;
use crate::tcp::sender::Sender;
use crate::throughput::{Col, ThroughputRow, ThroughputTable};
use crate::time::{ns_to_secs, secs_to_ns, Ns};
use crate::trace::{EventKind, EventLog, FlowSeries, SectionDigests, ValidationSeries};
use serde_json::Value;

mod recording;

/// What a run keeps of its trace (see [`Simulation::set_recording`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recording {
    /// Every row of every table (the web app, tests).
    Full,
    /// No rows; the summary only. With `digest`, rows are hashed as they are produced.
    Summary {
        /// Keep the trace digest.
        digest: bool,
    },
}

/// Rows taken out of a simulation by [`Simulation::take_rows`], table by table.
#[derive(Debug, Default)]
pub struct TakenRows {
    /// Per flow: (time, state) rows.
    pub series: Vec<Vec<(Ns, crate::trace::FlowState)>>,
    /// Event-log rows.
    pub events: Vec<crate::trace::EventRow>,
    /// Per traced queue, in [`Simulation::queues`] order: (time, packets, bytes).
    pub queues: Vec<Vec<(Ns, u32, u64)>>,
    /// Per flow: window-validation rows (None for flows without a series).
    pub validation: Vec<Option<Vec<(Ns, crate::tcp::cc::ValidationRow)>>>,
    /// Throughput-table rows.
    pub throughput: Vec<ThroughputRow>,
    /// Per flow: delivered writes (None for bulk senders).
    pub writes: Vec<Option<Vec<crate::thin::WriteRow>>>,
}

/// Shared state every endpoint acts on: the clock, the event queue, the links, the log.
#[derive(Debug)]
pub struct World {
    /// Current simulated time.
    pub now: Ns,
    events: EventQueue,
    /// All links.
    pub links: Vec<Link>,
    /// The event log.
    pub log: EventLog,
    seed: u64,
    /// Packets created by endpoints (data, ACK, SYN, SYN-ACK) and cross-traffic sources.
    pub packets: u64,
    /// Drops by cause, per flow.
    pub drops: Vec<Drops>,
    /// Per flow: the queueing delay of each data packet the forward bottleneck admitted
    /// (from its entry into the queue to the start of its transmission).
    pub qdelay: Vec<crate::delay::Delays>,
    /// What became of each cross-traffic source's packets.
    pub cross: Vec<CrossStats>,
    /// Bytes per class per bin (flows, then cross sources).
    pub tput: ThroughputTable,
    /// Scripted drops per flow, sorted: (segment, attempt).
    scripted: Vec<Vec<(u64, u64)>>,
    /// Which retransmissions were spurious, per flow.
    pub spurious: Vec<crate::spurious::Tracker>,
    /// Scratch for the spurious retransmissions one arrival reveals.
    found: Vec<crate::spurious::Spurious>,
    /// The end of the run: nothing enters a link early past it.
    end: Ns,
    /// Packet capture, when asked for (see `capture.rs`).
    pub capture: Option<Box<crate::capture::Capture>>,
}

impl World {
    /// Schedules an event.
    #[inline]
    pub fn schedule(&mut self, at: Ns, ev: Event) {
        self.events.push(at, ev);
    }

    /// Appends an event-log row at the current time.
    #[inline]
    pub fn log(&mut self, flow: u32, kind: EventKind, seq: u64, len: u32, seg: u32, tx: u32) {
        self.log.push(self.now, flow, kind, seq, len, seg, tx);
    }

    /// A data segment was sent: records the copy, and logs the retransmission if an earlier
    /// copy has already reached the receiver.
    #[inline]
    pub fn data_sent(&mut self, flow: u32, seq: u64, len: u32, seg: u32, attempt: u32) {
        if let Some(s) = self.spurious[flow as usize].sent(seq, len, seg, attempt) {
            self.log(flow, EventKind::SpuriousRetransmit, s.seq, s.len, s.seg, s.attempt);
        }
    }

    /// A data segment reached the receiver: logs the retransmissions this shows were
    /// spurious.
    #[inline]
    pub fn data_arrived(&mut self, flow: u32, seg: u32, attempt: u32) {
        let mut found = std::mem::take(&mut self.found);
        self.spurious[flow as usize].arrived(seg, attempt, &mut found);
        for s in found.drain(..) {
            self.log(flow, EventKind::SpuriousRetransmit, s.seq, s.len, s.seg, s.attempt);
        }
        self.found = found;
    }

    /// A packet was dropped (queue or wire): a data segment's copy no longer travels.
    fn data_lost(&mut self, pkt: &Packet) {
        if pkt.kind == PktKind::Data {
            self.spurious[pkt.flow as usize].lost(pkt.seg);
        }
    }

    /// An endpoint puts a new packet on its first link.
    pub fn transmit(&mut self, link: u32, pkt: Packet) {
        self.packets += 1;
        self.offer(link, pkt);
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
            if link.sched.is_some() {
                debug_assert_eq!(at, self.now, "a scheduled link takes no early entry");
                return self.offer_scheduled(link_id, pkt);
            }
            // The fate is a pure function of the packet: deciding it before admission changes
            // nothing for a packet the queue then refuses.
            pkt.fate = fate(link, &self.scripted, self.seed, link_id, &pkt);
            if !admitted && !link.admits(at, pkt.size) {
                return self.tail_drop(pkt);
            }
            let (done, arrival) = link.serve(at, pkt.size);
            if let Some(c) = self.capture.as_deref_mut() {
                c.starts(link_id, done - link.last_service_time(), &pkt);
            }
            if link_id == 0 && pkt.kind == PktKind::Data {
                // Its transmission starts at done − its service time; it entered at `at`.
                self.qdelay[pkt.flow as usize].add(done - link.last_service_time() - at);
            }
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
    fn tail_drop(&mut self, pkt: Packet) {
        if pkt.kind == PktKind::Udp {
            self.cross[pkt.flow as usize].queue_drops += 1;
            return;
        }
        self.data_lost(&pkt);
        let d = &mut self.drops[pkt.flow as usize];
        let kind = if is_forward(pkt.kind) {
            d.queue += 1;
            EventKind::QueueDrop
        } else {
            d.ack_queue += 1;
            EventKind::AckQueueDrop
        };
        self.log
            .push(self.now, pkt.flow, kind, pkt.seq, pkt.len, pkt.seg, pkt.tx);
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
        let bandwidth = link.bandwidth;
        let sched = link.sched.as_mut().expect("a scheduled link");
        let at = match sched.next(self.now, bandwidth) {
            Next::Started(done) => {
                if let (Some(c), Some(pkt)) = (self.capture.as_deref_mut(), sched.in_service()) {
                    c.starts(link_id, self.now, pkt);
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
    fn on_service(&mut self, link_id: u32, gen: u32) {
        let now = self.now;
        let link = &mut self.links[link_id as usize];
        let sched = link.sched.as_mut().expect("a scheduled link");
        if sched.gen != gen {
            return;
        }
        if sched.busy() {
            let pkt = sched.complete(now);
            link.trace_total(now);
            if link.launch(now, pkt) {
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
fn fate(link: &mut Link, scripted: &[Vec<(u64, u64)>], seed: u64, link_id: u32, pkt: &Packet) -> Fate {
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

fn is_forward(k: PktKind) -> bool {
    matches!(k, PktKind::Data | PktKind::Syn)
}

/// The round trip of a flow's path as built: propagation both ways plus one full data
/// packet and one ACK serialised on every link (BR-TCP's RTT before any sample).
pub(crate) fn path_rtt(s: &Scenario, f: &crate::scenario::FlowCfg) -> Ns {
    use crate::time::tx_time;
    let b = &s.network.bottleneck;
    let links = [
        (f.access.bandwidth, f.access.delay),
        (b.bandwidth, b.delay),
        (f.receiver_access.bandwidth, f.receiver_access.delay),
    ];
    let (data, ack) = (f.tcp.mss + f.tcp.header, f.tcp.header.max(1));
    links
        .iter()
        .map(|&(bw, d)| 2 * secs_to_ns(d) + tx_time(data, bw) + tx_time(ack, bw))
        .sum()
}

/// Base link id of flow `i`.
pub(crate) fn flow_base(i: u32) -> u32 {
    2 + 4 * i
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

/// A running simulation.
#[derive(Debug)]
pub struct Simulation {
    scenario: Scenario,
    world: World,
    senders: Vec<Sender>,
    receivers: Vec<Receiver>,
    apps: Vec<App>,
    cross: Vec<CrossSource>,
    series: Vec<FlowSeries>,
    /// Window-validation state per flow (None for flows whose idle policy keeps none).
    validation: Vec<Option<ValidationSeries>>,
    /// Some flow has a validation series.
    any_validation: bool,
    starts: Vec<Ns>,
    /// Bytes each application has ready when its flow starts.
    first_bytes: Vec<u64>,
    completion: Vec<Option<Ns>>,
    finished: bool,
    events_processed: u64,
    digests: std::cell::RefCell<SectionDigests>,
    /// Events processed at the same instant as the event before them (see `tied_events`).
    tied: u64,
    /// Events scheduled before the run starts.
    first_seq: u64,
    /// Per flow, the time of the next write of a periodic application whose writes are
    /// held instead of queued (see `release_writes`); None while its next write is queued.
    held: Vec<Option<Ns>>,
    /// Whether such writes are held at all (the reference runs of the tests queue them).
    hold_writes: bool,
    /// Whether decisions are explained (see `set_explain`).
    explain: bool,
    /// The order in which the endpoints' batches of explained decisions were made.
    decision_order: Vec<crate::explain::Order>,
    /// Decisions stamped so far.
    decision_total: u32,
    /// Per flow, what [`Simulation::rounds`] has read of the stored rows so far.
    rounds: std::cell::RefCell<Vec<crate::rounds::RoundsReader>>,
    /// Bounded recording, when asked for (see [`Simulation::set_bounded`]).
    bounded: Option<Box<crate::bounded::Bounded>>,
    /// Packets estimated for the trace's up-front reserve, until it is made (`reserve_rows`).
    reserve: usize,
}

impl Simulation {
    /// Parses, validates and builds a simulation from scenario JSON.
    pub fn from_json(text: &str) -> Result<Simulation, Vec<Problem>> {
        Scenario::from_json_str(text).map(|s| Simulation::new(&s))
    }

    /// Builds a simulation from a validated scenario.
    pub fn new(s: &Scenario) -> Simulation {
        let b = &s.network.bottleneck;
        let bdelay = secs_to_ns(b.delay);
        let mut links = Vec::with_capacity(2 + 4 * s.flows.len());
        let mut fwd = Link::new("bottleneck", b.bandwidth, bdelay, b.queue_packets, Hop::FlowForward);
        fwd.cap_bytes = b.queue_bytes;
        fwd.loss = LinkLoss::from_cfg(&b.loss);
        fwd.scripted = true;
        fwd.series = Some(QueueSeries::default());
        let mut rev = Link::new(
            "bottleneck (ACK direction)",
            b.bandwidth,
            bdelay,
            b.queue_packets,
            Hop::FlowReverse,
        );
        rev.cap_bytes = b.queue_bytes;
        rev.loss = LinkLoss::from_cfg(&b.reverse_loss);
        rev.series = Some(QueueSeries::default());
        if b.scheduler == SchedulerKind::Reservation {
            let res: Vec<u64> = s.flows.iter().map(|f| f.reserved_bandwidth).collect();
            for l in [&mut fwd, &mut rev] {
                let mut sched = Sched::new(&res, b.bandwidth, b.borrow);
                for c in sched.classes.iter_mut() {
                    c.name = format!("{} · {}", l.name, c.name);
                }
                l.sched = Some(Box::new(sched));
            }
        }
        links.push(fwd);
        links.push(rev);
        let mut scripted = Vec::new();
        let mut senders = Vec::new();
        let mut receivers = Vec::new();
        let mut apps = Vec::new();
        let mut starts = Vec::new();
        for (i, f) in s.flows.iter().enumerate() {
            let i = i as u32;
            let base = flow_base(i);
            let (sa, ra) = (&f.access, &f.receiver_access);
            let mut access = Link::new(
                format!("flow {i} sender access"),
                sa.bandwidth,
                secs_to_ns(sa.delay),
                sa.queue_packets,
                Hop::Link(0),
            );
            access.series = Some(QueueSeries::default());
            links.push(access);
            links.push(Link::new(
                format!("flow {i} receiver access"),
                ra.bandwidth,
                secs_to_ns(ra.delay),
                ra.queue_packets,
                Hop::Receiver,
            ));
            links.push(Link::new(
                format!("flow {i} receiver access (ACKs)"),
                ra.bandwidth,
                secs_to_ns(ra.delay),
                ra.queue_packets,
                Hop::Link(1),
            ));
            links.push(Link::new(
                format!("flow {i} sender access (ACKs)"),
                sa.bandwidth,
                secs_to_ns(sa.delay),
                sa.queue_packets,
                Hop::Sender,
            ));
            let mut d: Vec<(u64, u64)> = f.drops.iter().map(|d| (d.segment, d.attempt)).collect();
            d.sort_unstable();
            scripted.push(d);
            let mut sender = Sender::new(i, base, f);
            sender.cc.br.path_rtt = path_rtt(s, f);
            sender.cc.seed_draws(s.seed, i);
            senders.push(sender);
            receivers.push(Receiver::new(i, base + 2, f));
            let start = secs_to_ns(f.start);
            apps.push(App::new(&f.app, start, s.seed, i));
            starts.push(start);
        }
        let n = s.flows.len();
        // Early entry (net.rs): a link takes it from its upstream link when that is its only
        // feed and neither link has a scheduler. Each flow's receiver-side links are fed by
        // one bottleneck direction only; a bottleneck direction, only while one flow and no
        // cross traffic in that direction share it.
        let fifo = b.scheduler != SchedulerKind::Reservation;
        let one_feed = |reverse: bool| n == 1 && !s.cross.iter().any(|c| c.reverse == reverse);
        links[0].express_in = fifo && one_feed(false);
        links[1].express_in = fifo && one_feed(true);
        for i in 0..n as u32 {
            links[(flow_base(i) + 1) as usize].express_in = fifo;
            links[(flow_base(i) + 3) as usize].express_in = fifo;
        }
        // Trace space for the data packets the run can carry (capped: an estimate for a long
        // run would otherwise hold memory it may never use, which matters in wasm). Reserved
        // when the run starts (`reserve_rows`), once it is known what the run keeps.
        let est = ((s.estimated_packets() / 2) as usize).min(1 << 17);
        let log = EventLog::new(s.trace.events);
        let mut world = World {
            now: 0,
            events: EventQueue::default(),
            links,
            log,
            seed: s.seed,
            packets: 0,
            drops: vec![Drops::default(); n],
            qdelay: vec![Default::default(); n],
            cross: vec![CrossStats::default(); s.cross.len()],
            tput: ThroughputTable::new(n + s.cross.len(), secs_to_ns(s.trace.throughput_bin)),
            scripted,
            spurious: vec![Default::default(); n],
            found: Vec::new(),
            end: secs_to_ns(s.duration),
            capture: None,
        };
        let end = world.end;
        let cross: Vec<CrossSource> = s
            .cross
            .iter()
            .enumerate()
            .map(|(k, c)| CrossSource::new(c, k as u32, s.seed, end))
            .collect();
        for (k, src) in cross.iter().enumerate() {
            if let Some(t) = src.next_time() {
                world.schedule(t, Event::CrossSend { source: k as u32 });
            }
        }
        // Bulk data available at each flow's start, and each application's first write.
        let mut first_bytes = Vec::with_capacity(n);
        for (i, app) in apps.iter_mut().enumerate() {
            world.schedule(starts[i], Event::FlowStart { flow: i as u32 });
            let (bytes, at) = app.first();
            first_bytes.push(bytes);
            if let Some(at) = at {
                world.schedule(at, Event::AppWrite { flow: i as u32 });
            }
        }
        for (k, e) in s.timeline.iter().enumerate() {
            world
                .events
                .push_after_instant(secs_to_ns(e.at), k as u32, Event::Timeline { index: k as u32 });
        }
        let validation: Vec<Option<ValidationSeries>> = senders
            .iter()
            .map(|s| s.cc.validation.row().map(|_| ValidationSeries::default()))
            .collect();
        let any_validation = validation.iter().any(Option::is_some);
        let first_seq = world.events.pushed();
        Simulation {
            scenario: s.clone(),
            world,
            senders,
            receivers,
            apps,
            cross,
            series: (0..n).map(|_| FlowSeries::default()).collect(),
            validation,
            any_validation,
            starts,
            first_bytes,
            completion: vec![None; n],
            finished: false,
            events_processed: 0,
            digests: Default::default(),
            tied: 0,
            first_seq,
            held: vec![None; n],
            hold_writes: true,
            explain: false,
            decision_order: Vec::new(),
            decision_total: 0,
            rounds: std::cell::RefCell::new((0..n as u32).map(crate::rounds::RoundsReader::new).collect()),
            bounded: None,
            reserve: est,
        }
    }

    /// The same run with every packet waiting for its far-end event on every link (no early
    /// entry, see `net.rs`) and every application write an event of its own (none held,
    /// see `release_writes`): the reference the tests hold both to. Not for products: a
    /// run's model is the scenario's alone.
    #[doc(hidden)]
    pub fn with_every_event(self) -> Simulation {
        self.with_an_event_at_every_hop().with_every_write_queued()
    }

    /// The same run without early entry only (see [`Simulation::with_every_event`]).
    #[doc(hidden)]
    pub fn with_an_event_at_every_hop(mut self) -> Simulation {
        for l in self.world.links.iter_mut() {
            l.express_in = false;
        }
        self
    }

    /// The same run without held writes only (see [`Simulation::with_every_event`]).
    #[doc(hidden)]
    pub fn with_every_write_queued(mut self) -> Simulation {
        self.hold_writes = false;
        self
    }

    /// Events processed so far at the same nanosecond as the event before them. Events of
    /// one instant run in the order they were scheduled; a run without such ties does not
    /// depend on that order at all. Not counted: ties among events scheduled before the run
    /// (flow starts, first writes) and timeline entries, whose order is the same in every
    /// model.
    pub fn tied_events(&self) -> u64 {
        self.tied
    }

    /// The scenario being run (every setting resolved).
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Current simulated time.
    pub fn now(&self) -> Ns {
        self.world.now
    }

    /// End of the run.
    pub fn end(&self) -> Ns {
        self.world.end
    }

    /// True once the clock reached the end.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Events processed so far.
    pub fn events_processed(&self) -> u64 {
        self.events_processed
    }

    /// Packets created so far (data + ACK + SYN + SYN-ACK).
    pub fn packets(&self) -> u64 {
        self.world.packets
    }

    /// Processes every event up to `now + dt` (capped at the end) and moves the clock there.
    /// Returns the number of events processed.
    pub fn advance(&mut self, dt: Ns) -> u64 {
        let target = self.world.now.saturating_add(dt).min(self.world.end);
        self.run_until(target, u64::MAX)
    }

    /// Runs to the end.
    pub fn run_to_end(&mut self) -> u64 {
        self.run_until(self.world.end, u64::MAX)
    }

    /// Processes at most `budget` events toward the end; returns true when finished.
    pub fn run_events(&mut self, budget: u64) -> bool {
        self.run_until(self.world.end, budget);
        self.finished
    }

    /// Processes the next event (if any before the end); returns false when there was none
    /// and the run is finished.
    pub fn step(&mut self) -> bool {
        if self.finished {
            return false;
        }
        let n = self.run_until(self.world.end, 1);
        n == 1
    }

    fn run_until(&mut self, target: Ns, budget: u64) -> u64 {
        if self.reserve > 0 {
            self.reserve_rows();
        }
        let mut n = 0u64;
        while n < budget {
            match self.world.events.peek_time() {
                Some(t) if t <= target => {}
                _ => {
                    self.world.now = self.world.now.max(target);
                    break;
                }
            }
            let (t, seq, ev) = self.world.events.pop_keyed().expect("peeked");
            // A tie counts when its order could differ in another model: not between events
            // scheduled before the run (their order is fixed), nor for a timeline entry
            // (after every event of its instant, in every model).
            if t == self.world.now && self.events_processed + n > 0 && (self.first_seq..AFTER_INSTANT).contains(&seq) {
                self.tied += 1;
            }
            self.world.now = t;
            self.dispatch(ev);
            n += 1;
        }
        self.events_processed += n;
        let now = self.world.now;
        self.release_all_writes(now);
        for l in self.world.links.iter_mut().filter(|l| l.series.is_some()) {
            l.drain(now);
        }
        if now >= self.world.end && !self.finished {
            self.finished = true;
            self.world.tput.flush();
        }
        n
    }

    /// Makes flow `i`'s held writes due by `t`. A periodic application's write behind a
    /// full segment that waits changes nothing but the bytes written and the write log
    /// (`Sender::write_changes_nothing`), and that holds until the sender's next event. So
    /// such writes are not queued one by one: the sender's next event, a timeline change
    /// and the end of every stretch of the run first make the writes due by then, all at
    /// once (`Sender::held_writes`), each at its own time in the log. A held write due at
    /// the very instant of one of those runs before it.
    #[inline]
    fn release_writes(&mut self, i: usize, t: Ns) {
        let Some(at) = self.held[i] else { return };
        if at > t {
            return;
        }
        let app = &self.apps[i];
        let (bytes, gap) = (app.write_size, app.write_interval);
        let n = (t - at) / gap + 1;
        self.held[i] = Some(at + n * gap);
        if bytes > 0 {
            self.senders[i].held_writes(at, bytes, gap, n);
        }
    }

    /// Every flow's held writes due by `t`.
    fn release_all_writes(&mut self, t: Ns) {
        for i in 0..self.held.len() {
            self.release_writes(i, t);
        }
    }

    /// After the sender's own event: once a write would change something again, the next
    /// write is queued as an event.
    #[inline]
    fn resume_writes(&mut self, i: usize) {
        if let Some(at) = self.held[i] {
            if !self.senders[i].write_changes_nothing() {
                self.held[i] = None;
                self.world.schedule(at, Event::AppWrite { flow: i as u32 });
            }
        }
    }

    /// Stamps flow `i`'s decisions made in this event with the time: each endpoint keeps
    /// its own, and the run keeps the order of their batches.
    #[inline]
    fn drain_why(&mut self, i: usize) {
        if self.senders[i].cc.why.log.has_open() || self.receivers[i].why.log.has_open() {
            self.stamp_why(i);
        }
    }

    #[cold]
    fn stamp_why(&mut self, i: usize) {
        if let Some((first, n)) = self.senders[i].cc.why.log.stamp() {
            self.push_order(2 * i as u32, first, n);
        }
        if let Some((first, n)) = self.receivers[i].why.log.stamp() {
            self.push_order(2 * i as u32 + 1, first, n);
        }
    }

    /// `n` decisions of `endpoint`'s log, from its decision `first` on, were made now.
    #[inline]
    fn push_order(&mut self, endpoint: u32, first: u32, n: u32) {
        self.decision_order.push(crate::explain::Order {
            t: self.world.now,
            cum: self.decision_total,
            endpoint,
            first,
        });
        self.decision_total += n;
    }

    fn record(&mut self, flow: u32) {
        let i = flow as usize;
        if self.explain {
            self.drain_why(i);
        }
        self.series[i].record(self.world.now, self.senders[i].state_row());
        if self.any_validation {
            if let (Some(v), Some(row)) = (self.validation[i].as_mut(), self.senders[i].cc.validation.row()) {
                v.record(self.world.now, row);
            }
        }
    }

    fn dispatch(&mut self, ev: Event) {
        match ev {
            Event::LinkHead { link } => {
                let l = &mut self.world.links[link as usize];
                let pkt = l.arrive(self.world.now);
                if let Some(next) = l.head_arrival() {
                    self.world.events.push(next, Event::LinkHead { link });
                }
                self.on_arrive(link, pkt);
            }
            Event::Rto { flow, gen } => {
                let now = self.world.now;
                self.release_writes(flow as usize, now);
                self.senders[flow as usize].on_rto_event(&mut self.world, gen);
                self.resume_writes(flow as usize);
                self.record(flow);
            }
            Event::Pace { flow } => {
                let now = self.world.now;
                self.release_writes(flow as usize, now);
                self.senders[flow as usize].on_pace_event(&mut self.world);
                self.resume_writes(flow as usize);
                self.record(flow);
            }
            Event::DelAck { flow, gen } => {
                self.receivers[flow as usize].on_delack(&mut self.world, gen);
                if self.explain {
                    self.drain_why(flow as usize);
                }
            }
            Event::AppWrite { flow } => {
                let i = flow as usize;
                let now = self.world.now;
                let (bytes, next) = self.apps[i].on_write(now);
                if let Some(at) = next {
                    // Behind a full segment that waits, the next writes are held, not
                    // queued (see `release_writes`). Decided before this write, which then
                    // changes nothing either.
                    if self.hold_writes && self.apps[i].periodic() && self.senders[i].write_changes_nothing() {
                        self.held[i] = Some(at);
                    } else {
                        self.world.schedule(at, Event::AppWrite { flow });
                    }
                }
                if bytes > 0 && self.senders[i].app_write(&mut self.world, bytes) {
                    self.record(flow);
                } else if self.explain {
                    self.drain_why(i);
                }
            }
            Event::FlowStart { flow } => {
                let i = flow as usize;
                let bytes = self.first_bytes[i];
                self.senders[i].app_written = self.senders[i].app_written.saturating_add(bytes);
                let written = self.senders[i].app_written;
                if let (Some(log), true) = (self.senders[i].writes.as_mut(), bytes > 0) {
                    log.write(self.world.now, bytes, written);
                }
                self.senders[i].start(&mut self.world);
                self.record(flow);
            }
            Event::Timeline { index } => {
                // A change to an application applies from its instant on: the held writes
                // due by then are made first (a timeline entry runs after every event at
                // its instant).
                self.release_all_writes(self.world.now);
                self.apply_timeline(index);
            }
            Event::LinkService { link, gen } => self.world.on_service(link, gen),
            Event::CrossSend { source } => {
                let src = &mut self.cross[source as usize];
                let pkt = src.emit();
                if let Some(t) = src.next_time() {
                    self.world.schedule(t, Event::CrossSend { source });
                }
                let link = if src.reverse { 1 } else { 0 };
                self.world.cross[source as usize].sent_packets += 1;
                self.world.transmit(link, pkt);
            }
        }
    }

    /// A cross-traffic packet reached the far end of the bottleneck (its sink).
    fn cross_arrive(&mut self, link: u32, pkt: Packet) {
        let w = &mut self.world;
        let st = &mut w.cross[pkt.flow as usize];
        if pkt.fate != Fate::Ok {
            st.error_drops += 1;
            return;
        }
        st.delivered_packets += 1;
        st.delivered_bytes += pkt.size as u64;
        let class = self.senders.len() + pkt.flow as usize;
        if link == 0 {
            w.tput.add(w.now, w.now, class, Col::Bottleneck, pkt.size as u64);
        }
        w.tput.add(w.now, w.now, class, Col::Delivered, pkt.size as u64);
    }

    fn on_arrive(&mut self, link: u32, pkt: Packet) {
        if pkt.kind == PktKind::Udp {
            return self.cross_arrive(link, pkt);
        }
        let w = &mut self.world;
        if pkt.fate != Fate::Ok {
            w.data_lost(&pkt);
            let d = &mut w.drops[pkt.flow as usize];
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
            w.log(pkt.flow, kind, pkt.seq, pkt.len, pkt.seg, pkt.tx);
            return;
        }
        if link == 0 {
            w.tput
                .add(w.now, w.now, pkt.flow as usize, Col::Bottleneck, pkt.size as u64);
        }
        let hop = w.links[link as usize].next;
        let next = match hop {
            Hop::Link(_) | Hop::FlowForward | Hop::FlowReverse => next_link(hop, pkt.flow).expect("a link"),
            Hop::Receiver => {
                if let Some(c) = w.capture.as_deref_mut() {
                    c.arrived(w.now, &pkt);
                }
                let r = &mut self.receivers[pkt.flow as usize];
                let before = r.delivered;
                r.on_packet(w, &pkt);
                if self.explain {
                    self.drain_why(pkt.flow as usize);
                }
                let (w, r) = (&mut self.world, &mut self.receivers[pkt.flow as usize]);
                if r.delivered > before {
                    w.tput
                        .add(w.now, w.now, pkt.flow as usize, Col::Delivered, r.delivered - before);
                    if let Some(log) = self.senders[pkt.flow as usize].writes.as_mut() {
                        log.delivered(w.now, r.delivered);
                    }
                }
                return;
            }
            Hop::Sender => {
                if let Some(c) = w.capture.as_deref_mut() {
                    c.arrived(w.now, &pkt);
                }
                let i = pkt.flow as usize;
                let now = w.now;
                self.release_writes(i, now);
                let w = &mut self.world;
                self.senders[i].on_ack(w, &pkt);
                self.resume_writes(i);
                let w = &mut self.world;
                let s = &self.senders[i];
                if self.completion[i].is_none()
                    && self.apps[i].exhausted()
                    && s.app_written > 0
                    && s.snd_una == s.app_written
                {
                    self.completion[i] = Some(w.now);
                    w.log(pkt.flow, EventKind::FlowComplete, s.snd_una, 0, 0, 0);
                }
                self.record(pkt.flow);
                return;
            }
        };
        // It waited for this event, so nothing entered the next link ahead of it.
        let l = &mut w.links[next as usize];
        if l.express_in {
            l.inbound -= 1;
        }
        w.offer(next, pkt);
    }

    /// Changes a live parameter now, during the run (a slider moved during playback). The
    /// change is appended to the scenario's timeline at the current time, after every event
    /// at this instant has been processed, so replaying the resulting scenario from the start
    /// reproduces this run exactly. Returns that time.
    pub fn apply_change(&mut self, path: &str, value: Value) -> Result<Ns, Problem> {
        let (def, _) = crate::scenario::live_target(path, self.senders.len()).map_err(|m| Problem {
            path: path.to_string(),
            message: m,
        })?;
        if let Some(msg) = crate::scenario::check_leaf(def, &value) {
            return Err(Problem {
                path: path.to_string(),
                message: msg,
            });
        }
        if self.finished {
            return Err(Problem {
                path: path.to_string(),
                message: "the run has ended; change the scenario instead".into(),
            });
        }
        let now = self.world.now;
        let at = ns_to_secs(now);
        // Round-trip the time through seconds so the replay schedules it at the same ns.
        debug_assert_eq!(secs_to_ns(at), now);
        self.scenario.timeline.push(crate::scenario::TimelineEntry {
            at,
            set: path.to_string(),
            value,
        });
        let index = (self.scenario.timeline.len() - 1) as u32;
        // Scheduled as `new` schedules the timeline, so it runs after every event at this
        // instant (after `step`, some may remain) and the loop counts it, as in a replay.
        self.world
            .events
            .push_after_instant(now, index, Event::Timeline { index });
        self.run_until(now, u64::MAX);
        Ok(now)
    }

    /// Applies timeline entry `index` (validated at load: a live parameter and a valid value).
    fn apply_timeline(&mut self, index: u32) {
        let entry = &self.scenario.timeline[index as usize];
        let Ok((table_path, sel)) = crate::scenario::normalise_path(&entry.set) else {
            return;
        };
        let v = entry.value.clone();
        let flows: Vec<u32> = match sel {
            FlowSel::Global => vec![],
            FlowSel::All => (0..self.senders.len() as u32).collect(),
            FlowSel::One(i) => vec![i as u32],
        };
        let applied = apply_live(&mut self.world.links, &mut self.apps, &table_path, &flows, &v);
        debug_assert!(applied, "live parameter without a handler: {table_path}");
        let flow = flows.first().copied().unwrap_or(0);
        self.world.log(flow, EventKind::ParamChange, index as u64, 0, 0, 0);
    }

    /// Explains every decision from now on (or stops): each congestion-control, timer and
    /// acknowledgment decision records its rule, inputs and outputs (`crate::explain`).
    /// Off by default, when it costs one test per decision point. Turning it on mid-run
    /// explains the decisions made from then on.
    pub fn set_explain(&mut self, on: bool) {
        self.explain = on;
        for s in &mut self.senders {
            s.cc.why.on = on;
        }
        for r in &mut self.receivers {
            r.why.on = on;
        }
    }

    /// Builder form of [`Simulation::set_explain`]`(true)`.
    pub fn explained(mut self) -> Simulation {
        self.set_explain(true);
        self
    }

    /// The decisions explained so far, in the order they were made.
    pub fn decisions(&self) -> crate::explain::Decisions<'_> {
        let mut logs = Vec::with_capacity(2 * self.senders.len());
        for (s, r) in self.senders.iter().zip(&self.receivers) {
            logs.push(&s.cc.why.log);
            logs.push(&r.why.log);
        }
        crate::explain::Decisions {
            order: &self.decision_order,
            logs,
            total: self.decision_total as usize,
        }
    }

    /// Takes the decisions explained so far out of the simulation (a long run streamed by
    /// the CLI keeps no more than one slice of them).
    pub fn take_decisions(&mut self) -> Vec<crate::explain::Entry> {
        let out = self.decisions().iter().collect();
        self.clear_decisions();
        out
    }

    /// Forgets the decisions explained so far, keeping the memory for the next ones (a
    /// reader that has used them: `cwndlab explain` between slices).
    pub fn clear_decisions(&mut self) {
        for s in &mut self.senders {
            s.cc.why.log.clear();
        }
        for r in &mut self.receivers {
            r.why.log.clear();
        }
        self.decision_order.clear();
        self.decision_total = 0;
    }

    /// A 64-bit digest of every explained decision (time, flow, rule, phases, values), for
    /// checking that two builds (native and wasm) explain a run identically.
    pub fn decisions_digest(&self) -> u64 {
        let mut d = crate::trace::Digest::default();
        for e in self.decisions().iter() {
            d.words(&[
                e.t,
                e.flow as u64,
                e.d.rule as u64,
                ((e.d.from as u64) << 8) | e.d.to as u64,
            ]);
            d.words(&e.d.values);
        }
        d.finish()
    }

    /// Per-flow time series.
    pub fn series(&self, flow: usize) -> &FlowSeries {
        &self.series[flow]
    }

    /// Number of flows.
    pub fn flow_count(&self) -> usize {
        self.senders.len()
    }

    /// A flow's window-validation series (None when its idle policy keeps no state).
    pub fn validation_series(&self, flow: usize) -> Option<&ValidationSeries> {
        self.validation.get(flow).and_then(Option::as_ref)
    }

    /// A flow's per-write measurements (None for a bulk sender).
    pub fn writes(&self, flow: usize) -> Option<&crate::thin::WriteLog> {
        self.senders.get(flow).and_then(|s| s.writes.as_ref())
    }

    /// The event log.
    pub fn events(&self) -> &EventLog {
        &self.world.log
    }

    /// Traced queues: (link name, occupancy series).
    pub fn queues(&self) -> Vec<(&str, &QueueSeries)> {
        self.world.links.iter().flat_map(Link::traced).collect()
    }

    /// The rate (bit/s) of the link each traced queue belongs to, in [`Simulation::queues`]
    /// order (a scheduler's classes share their link's).
    pub fn queue_rates(&self) -> Vec<u64> {
        self.world
            .links
            .iter()
            .flat_map(|l| std::iter::repeat_n(l.bandwidth, l.traced().count()))
            .collect()
    }

    /// The throughput table (bytes per flow and cross source, bin by bin).
    pub fn throughput(&self) -> &ThroughputTable {
        &self.world.tput
    }

    /// Names of the throughput table's classes: "flow i", then "cross j".
    pub fn throughput_classes(&self) -> Vec<String> {
        (0..self.senders.len())
            .map(|i| format!("flow {i}"))
            .chain((0..self.cross.len()).map(|k| format!("cross {k}")))
            .collect()
    }

    /// A sender (read-only), for tests and teaching views.
    pub fn sender(&self, flow: usize) -> &Sender {
        &self.senders[flow]
    }

    /// A receiver (read-only).
    pub fn receiver(&self, flow: usize) -> &Receiver {
        &self.receivers[flow]
    }

    /// Metrics so far (at the end of the run, the final summary).
    pub fn summary(&self) -> Summary {
        let now = self.world.now;
        let flows: Vec<FlowSummary> = (0..self.senders.len())
            .map(|i| {
                let s = &self.senders[i];
                let r = &self.receivers[i];
                let f = &self.scenario.flows[i];
                let active = ns_to_secs(now.saturating_sub(self.starts[i]));
                let rate = |bytes: u64| if active > 0.0 { bytes as f64 * 8.0 / active } else { 0.0 };
                let (mean_cwnd, cv) = self.series[i].cwnd_stats(now);
                let log = s.writes.as_ref();
                let pct = |h: Option<&crate::thin::Histogram>, p: f64| h.and_then(|h| h.percentile(p)).map(ns_to_secs);
                let (itt, soj, lat) = (log.map(|l| &l.itt), log.map(|l| &l.sojourn), log.map(|l| &l.latency));
                FlowSummary {
                    flow: i as u32,
                    algorithm: f.algorithm.clone(),
                    variant: f.variant.name().to_string(),
                    goodput_bps: rate(r.delivered),
                    transfer_goodput_bps: {
                        let end = self.completion[i].unwrap_or(now);
                        let t = ns_to_secs(end.saturating_sub(self.starts[i]));
                        if t > 0.0 {
                            r.delivered as f64 * 8.0 / t
                        } else {
                            0.0
                        }
                    },
                    throughput_bps: rate(s.stats.wire_bytes),
                    delivered_bytes: r.delivered,
                    data_packets_sent: s.stats.data_packets,
                    retransmits: s.stats.retransmits,
                    spurious_retransmits: self.world.spurious[i].count,
                    retransmit_fraction: if s.stats.data_packets > 0 {
                        s.stats.retransmits as f64 / s.stats.data_packets as f64
                    } else {
                        0.0
                    },
                    timeouts: s.stats.timeouts,
                    fast_retransmits: s.stats.fast_retransmits,
                    partial_acks: s.stats.partial_acks,
                    dupacks: s.stats.dupacks,
                    acks_sent: r.acks_sent,
                    mean_cwnd_bytes: mean_cwnd,
                    mean_cwnd_segments: mean_cwnd / f.tcp.mss as f64,
                    cwnd_cv: cv,
                    final_cwnd_bytes: s.cc.cwnd,
                    final_ssthresh_bytes: (s.cc.ssthresh != u64::MAX).then_some(s.cc.ssthresh),
                    srtt_s: ns_to_secs(s.rtt.srtt()),
                    rto_s: ns_to_secs(s.rtt.rto()),
                    max_burst_packets: s.stats.max_burst_packets,
                    window_decays: s.stats.window_decays,
                    reserved_bdp_bytes: (f.variant == crate::scenario::Variant::BrTcp).then(|| {
                        s.cc.br
                            .ssthresh(f.cc.br_rtt, f.cc.br_packet_size, f.tcp.mss, f.tcp.header)
                    }),
                    drops: self.world.drops[i],
                    writes: log.map(|l| l.writes),
                    mean_payload_bytes: if s.stats.data_packets > 0 {
                        s.stats.payload_bytes as f64 / s.stats.data_packets as f64
                    } else {
                        0.0
                    },
                    itt_p50_s: pct(itt, 50.0),
                    itt_p90_s: pct(itt, 90.0),
                    itt_p99_s: pct(itt, 99.0),
                    sojourn_p50_s: pct(soj, 50.0),
                    sojourn_p90_s: pct(soj, 90.0),
                    sojourn_p99_s: pct(soj, 99.0),
                    latency_p50_s: pct(lat, 50.0),
                    latency_p90_s: pct(lat, 90.0),
                    latency_p99_s: pct(lat, 99.0),
                    qdelay_mean_ms: self.world.qdelay[i].mean_ms(),
                    qdelay_p95_ms: self.world.qdelay[i].p95_ms(),
                    rtt_mean_ms: s.rtt_samples.mean_ms(),
                    rtt_p95_ms: s.rtt_samples.p95_ms(),
                    completion_time_s: self.completion[i].map(ns_to_secs),
                    active_time_s: active,
                }
            })
            .collect();
        let cross = self
            .scenario
            .cross
            .iter()
            .enumerate()
            .map(|(k, c)| {
                let stats = self.world.cross[k];
                let from = secs_to_ns(c.start);
                let to = if c.stop > 0.0 { now.min(secs_to_ns(c.stop)) } else { now };
                let active = ns_to_secs(to.saturating_sub(from));
                crate::summary::CrossSummary {
                    source: k as u32,
                    kind: c.kind,
                    rate_bps: c.rate,
                    reverse: c.reverse,
                    stats,
                    delivered_bps: if active > 0.0 {
                        stats.delivered_bytes as f64 * 8.0 / active
                    } else {
                        0.0
                    },
                }
            })
            .collect();
        // Flows that have not started yet (mid-run, in playback) have no share to judge.
        let goodputs: Vec<f64> = flows
            .iter()
            .zip(&self.starts)
            .filter(|(_, &start)| start < now)
            .map(|(f, _)| f.transfer_goodput_bps)
            .collect();
        Summary {
            jain_index: crate::summary::jain_index(&goodputs),
            cross,
            seed: self.scenario.seed,
            duration_s: self.scenario.duration,
            now_s: ns_to_secs(now),
            finished: self.finished,
            events_processed: self.events_processed,
            packets: self.world.packets,
            digest: (!self.world.log.stream.drop || self.world.log.stream.hash)
                .then(|| format!("{:016x}", self.digest())),
            flows,
        }
    }
}

/// Applies a live parameter change. Returns false if `table_path` has no handler (a bug
/// caught by the test that walks every live parameter).
fn apply_live(links: &mut [Link], apps: &mut [App], table_path: &str, flows: &[u32], v: &Value) -> bool {
    let f = v.as_f64().unwrap_or(0.0);
    let u = v.as_u64().unwrap_or(f as u64);
    // The value was checked against the table before it came here.
    let model = v.as_str().and_then(LossModel::from_name).unwrap_or(LossModel::None);
    let bottleneck = |links: &mut [Link], apply: &dyn Fn(&mut Link)| {
        apply(&mut links[0]);
        apply(&mut links[1]);
    };
    match table_path {
        "network.bottleneck.bandwidth" => bottleneck(links, &|l| {
            l.bandwidth = u;
            if let Some(s) = l.sched.as_mut() {
                s.set_bandwidth(u);
            }
        }),
        "network.bottleneck.delay" => bottleneck(links, &|l| l.delay = secs_to_ns(f)),
        "network.bottleneck.queue_packets" => bottleneck(links, &|l| l.cap_packets = u),
        "network.bottleneck.queue_bytes" => bottleneck(links, &|l| l.cap_bytes = u),
        "network.bottleneck.loss.model" => links[0].loss.set_model(model),
        "network.bottleneck.loss.ber" => links[0].loss.set_ber(f),
        "network.bottleneck.loss.probability" => links[0].loss.set_probability(f),
        "network.bottleneck.reverse_loss.model" => links[1].loss.set_model(model),
        "network.bottleneck.reverse_loss.ber" => links[1].loss.set_ber(f),
        "network.bottleneck.reverse_loss.probability" => links[1].loss.set_probability(f),
        _ => {
            let Some(rest) = table_path.strip_prefix("flows[].") else {
                return false;
            };
            for &i in flows {
                let base = flow_base(i) as usize;
                match rest {
                    "access.bandwidth" => {
                        links[base].bandwidth = u;
                        links[base + 3].bandwidth = u;
                    }
                    "access.delay" => {
                        links[base].delay = secs_to_ns(f);
                        links[base + 3].delay = secs_to_ns(f);
                    }
                    "receiver_access.bandwidth" => {
                        links[base + 1].bandwidth = u;
                        links[base + 2].bandwidth = u;
                    }
                    "receiver_access.delay" => {
                        links[base + 1].delay = secs_to_ns(f);
                        links[base + 2].delay = secs_to_ns(f);
                    }
                    "app.write_size" => apps[i as usize].write_size = u,
                    "app.write_interval" => apps[i as usize].write_interval = secs_to_ns(f).max(1),
                    _ => return false,
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema;

    #[test]
    fn a_live_change_replays_identically_from_the_timeline() {
        let s = crate::presets::find("netsim-reno").unwrap().scenario().unwrap();
        let mut live = Simulation::new(&s);
        live.advance(3_000_000_000);
        live.step();
        live.step();
        live.apply_change("network.bottleneck.loss.ber", serde_json::json!(1e-5))
            .unwrap();
        live.advance(2_500_000_000);
        live.apply_change("flows[0].app.write_interval", serde_json::json!(0.002))
            .unwrap();
        live.run_to_end();
        assert_eq!(live.scenario().timeline.len(), 2);
        let mut replay = Simulation::new(live.scenario());
        replay.run_to_end();
        assert_eq!(live.digest(), replay.digest());
        assert_eq!(
            serde_json::to_value(live.summary()).unwrap(),
            serde_json::to_value(replay.summary()).unwrap(),
            "every summary field, events_processed included"
        );
        assert_ne!(live.digest(), {
            let mut plain = Simulation::new(&s);
            plain.run_to_end();
            plain.digest()
        });
        let err = live
            .apply_change("flows[0].tcp.mss", serde_json::json!(500))
            .unwrap_err();
        assert!(err.message.contains("cannot change during a run"), "{err}");
    }

    #[test]
    fn a_live_change_to_a_link_applies_now_and_replays_while_packets_entered_it_early() {
        // One flow: packets enter the bottleneck from the access links ahead of the clock.
        // A change now applies to the packets that reach the access link from now on; the
        // replay makes the same early entries, since none depends on changes to come.
        let s = crate::presets::find("netsim-newreno").unwrap().scenario().unwrap();
        let mut live = Simulation::new(&s);
        live.advance(5_000_000_000);
        // A moment when a packet still on the access link has already entered the
        // bottleneck: the bottleneck's occupancy trace has a row ahead of the clock.
        let ahead = |sim: &Simulation| {
            let rows = &sim.world.links[0].series.as_ref().unwrap().rows;
            rows.last().is_some_and(|r| r.0 > sim.now())
        };
        while !ahead(&live) {
            live.step();
        }
        let now = live.now();
        let at = live
            .apply_change("network.bottleneck.bandwidth", serde_json::json!(1_000_000))
            .unwrap();
        assert_eq!(at, now);
        assert_eq!(live.world.links[0].bandwidth, 1_000_000, "applied at once");
        assert_eq!(live.scenario().timeline[0].at, ns_to_secs(now));
        live.run_to_end();
        let mut replay = Simulation::new(live.scenario());
        replay.run_to_end();
        assert_eq!(live.digest(), replay.digest());
        assert_eq!(
            serde_json::to_value(live.summary()).unwrap(),
            serde_json::to_value(replay.summary()).unwrap()
        );
    }

    #[test]
    fn every_live_parameter_has_a_handler() {
        let s = Scenario::default();
        let mut sim = Simulation::new(&s);
        for p in schema::params().iter().filter(|p| p.live) {
            let v = schema::default_value(p);
            let ok = apply_live(&mut sim.world.links, &mut sim.apps, p.path, &[0], &v);
            assert!(ok, "no handler for live parameter {}", p.path);
        }
    }
}
