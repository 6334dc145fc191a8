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
use crate::net::sched::Sched;
use crate::net::{flow_base, path_rtt, Hop, Link, LinkLoss, Packet, QueueSeries};
use crate::scenario::{Problem, Scenario, SchedulerKind};
use crate::summary::Drops;
use crate::tcp::env::Env;
use crate::tcp::receiver::Receiver;
use crate::tcp::sender::Sender;
use crate::throughput::{Col, ThroughputRow, ThroughputTable};
use crate::time::{secs_to_ns, Ns};
use crate::trace::{EventKind, EventLog, FlowSeries, RecoverySeries, SectionDigests, ValidationSeries};

mod aqm;
mod flow;
mod live;
pub mod ping;
mod recording;
mod summary;
#[cfg(test)]
mod tests;
pub mod transfers;
mod world;

use flow::{Flow, Keep};
use world::Endpoint;
pub use world::World;

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
    /// Per flow: SACK recovery rows (None for flows without SACK).
    pub recovery: Vec<Option<Vec<(Ns, crate::trace::RecoveryRow)>>>,
    /// Throughput-table rows.
    pub throughput: Vec<ThroughputRow>,
    /// Per flow: delivered writes (None for bulk senders).
    pub writes: Vec<Option<Vec<crate::thin::WriteRow>>>,
}

/// A running simulation.
#[derive(Debug)]
pub struct Simulation {
    scenario: Scenario,
    world: World,
    /// Per flow: its endpoints, application and records (`sim/flow.rs`).
    flows: Vec<Flow>,
    cross: Vec<CrossSource>,
    /// What the run keeps after each event: explanations, validation and recovery series.
    keep: Keep,
    starts: Vec<Ns>,
    /// Bytes each application has ready when its flow starts.
    first_bytes: Vec<u64>,
    /// Per flow, its short transfers (`transfers` applications only; `sim/transfers.rs`).
    transfers: Vec<Option<Box<transfers::Transfers>>>,
    finished: bool,
    events_processed: u64,
    digests: std::cell::RefCell<SectionDigests>,
    /// Events processed at the same instant as the event before them (see `tied_events`).
    tied: u64,
    /// Events scheduled before the run starts.
    first_seq: u64,
    /// Whether such writes are held at all (the reference runs of the tests queue them).
    hold_writes: bool,
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
        // Only a scenario with scripted drops looks them up (a lookup in an empty list finds
        // nothing: the same fates, one test per packet fewer).
        fwd.scripted = s.flows.iter().any(|f| !f.drops.is_empty());
        fwd.variation = secs_to_ns(b.delay_variation);
        fwd.series = Some(QueueSeries::default());
        let mut rev = Link::new(
            "bottleneck (ACK direction)",
            b.bandwidth,
            bdelay,
            b.queue_packets,
            Hop::FlowReverse,
        );
        rev.cap_bytes = b.queue_bytes;
        rev.variation = secs_to_ns(b.delay_variation);
        rev.loss = LinkLoss::from_cfg(&b.reverse_loss);
        rev.series = Some(QueueSeries::default());
        for (k, (l, kind)) in [(&mut fwd, b.qdisc), (&mut rev, b.reverse_qdisc)]
            .into_iter()
            .enumerate()
        {
            l.qdisc = crate::net::qdisc::managed(kind, b, s.seed, k as u32);
        }
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
        for l in [&mut fwd, &mut rev] {
            l.serves = l.sched.is_some() || l.qdisc.is_some();
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
            sender.cc.set_path_rtt(path_rtt(s, f));
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
        // A managed direction (a queue discipline) is fed and feeds as a scheduled one.
        let fifo = b.scheduler != SchedulerKind::Reservation;
        let (fwd_fifo, rev_fifo) = (fifo && links[0].qdisc.is_none(), fifo && links[1].qdisc.is_none());
        // A ping source feeds both directions (its echoes come back on the other).
        let one_feed = |reverse: bool| {
            n == 1
                && !s
                    .cross
                    .iter()
                    .any(|c| c.reverse == reverse || c.kind == crate::scenario::CrossKind::Ping)
        };
        links[0].express_in = fwd_fifo && one_feed(false);
        links[1].express_in = rev_fifo && one_feed(true);
        for i in 0..n as u32 {
            links[(flow_base(i) + 1) as usize].express_in = fwd_fifo;
            links[(flow_base(i) + 3) as usize].express_in = rev_fifo;
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
            pings: ping::logs(&s.cross),
            tput: ThroughputTable::new(n + s.cross.len(), secs_to_ns(s.trace.throughput_bin)),
            scripted,
            spurious: vec![Default::default(); n],
            found: Vec::new(),
            decision_order: Vec::new(),
            decision_total: 0,
            aqm_why: (0..n).map(|_| Default::default()).collect(),
            aqm_scratch: Vec::new(),
            end: secs_to_ns(s.duration),
            capture: None,
            sacks: Default::default(),
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
        // A transfers flow opens a connection per transfer, when it is due: it has no
        // start event of its own, and its writes are transfers.
        for (i, app) in apps.iter_mut().enumerate() {
            let flow = i as u32;
            let transfers = s.flows[i].app.kind == crate::scenario::AppKind::Transfers;
            if !transfers {
                world.schedule(starts[i], Event::FlowStart { flow });
            }
            let (bytes, at) = app.first();
            first_bytes.push(bytes);
            if let Some(at) = at {
                let ev = if transfers {
                    Event::TransferDue { flow }
                } else {
                    Event::AppWrite { flow }
                };
                world.schedule(at, ev);
            }
        }
        for (k, e) in s.timeline.iter().enumerate() {
            world
                .events
                .push_after_instant(secs_to_ns(e.at), k as u32, Event::Timeline { index: k as u32 });
        }
        let flows: Vec<Flow> = senders
            .into_iter()
            .zip(receivers)
            .zip(apps)
            .map(|((sender, receiver), app)| Flow {
                validation: sender.cc.validation_row().map(|_| ValidationSeries::default()),
                recovery: sender.recovery_row().map(|_| RecoverySeries::default()),
                sender,
                receiver,
                app,
                series: FlowSeries::default(),
                held: None,
                completion: None,
            })
            .collect();
        let keep = Keep {
            explain: false,
            validation: flows.iter().any(|f| f.validation.is_some()),
            recovery: flows.iter().any(|f| f.recovery.is_some()),
        };
        let first_seq = world.events.pushed();
        Simulation {
            scenario: s.clone(),
            world,
            flows,
            cross,
            keep,
            starts,
            first_bytes,
            transfers: s
                .flows
                .iter()
                .map(|f| (f.app.kind == crate::scenario::AppKind::Transfers).then(Box::default))
                .collect(),
            finished: false,
            events_processed: 0,
            digests: Default::default(),
            tied: 0,
            first_seq,
            hold_writes: true,
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

    /// Every flow's held writes due by `t` (see [`Flow::release_writes`]).
    fn release_all_writes(&mut self, t: Ns) {
        for f in self.flows.iter_mut() {
            f.release_writes(t);
        }
    }

    /// Records flow `i`'s state after an event (its decisions first, when explained).
    #[inline(always)]
    fn record(&mut self, flow: u32) {
        self.flows[flow as usize].settle(&mut self.world, &self.keep);
    }

    /// A sender's own event (`act` on its timer or pacing): held writes due first, then
    /// the event, then the writes it lets go and the record.
    #[inline(always)]
    fn sender_event(&mut self, flow: u32, act: impl FnOnce(&mut Sender, &mut World)) {
        let i = flow as usize;
        let now = self.world.now;
        let f = &mut self.flows[i];
        f.release_writes(now);
        act(&mut f.sender, &mut self.world);
        f.resume_writes(&mut self.world);
        f.settle(&mut self.world, &self.keep);
    }

    #[inline(always)]
    fn dispatch(&mut self, ev: Event) {
        match ev {
            // One arm for both, so that the deliveries are inlined once.
            Event::LinkHead { link } | Event::LinkLate { link } => {
                let reached = if matches!(ev, Event::LinkHead { .. }) {
                    self.world.on_link_head(link)
                } else {
                    self.world.on_link_late(link)
                };
                match reached {
                    Some((Endpoint::Receiver, pkt)) => self.deliver_to_receiver(pkt),
                    Some((Endpoint::Sender, pkt)) => self.deliver_to_sender(pkt),
                    None => {}
                }
            }
            Event::Rto { flow, gen } => self.sender_event(flow, |s, w| s.on_rto_event(w, gen)),
            Event::LossTimer { flow, gen } => self.sender_event(flow, |s, w| s.on_loss_timer(w, gen)),
            Event::Pace { flow } => self.sender_event(flow, |s, w| s.on_pace_event(w)),
            Event::DelAck { flow, gen } => {
                self.flows[flow as usize].receiver.on_delack(&mut self.world, gen);
                if self.keep.explain {
                    self.flows[flow as usize].drain_why(&mut self.world);
                }
            }
            Event::AppWrite { flow } => {
                let i = flow as usize;
                let now = self.world.now;
                let f = &mut self.flows[i];
                let (bytes, next) = f.app.on_write(now);
                if let Some(at) = next {
                    // Behind a full segment that waits, the next writes are held, not
                    // queued (see `Flow::release_writes`). Decided before this write,
                    // which then changes nothing either.
                    if self.hold_writes && f.app.periodic() && f.sender.write_changes_nothing() {
                        f.held = Some(at);
                    } else {
                        self.world.schedule(at, Event::AppWrite { flow });
                    }
                }
                let changed = bytes > 0 && f.sender.app_write(&mut self.world, bytes);
                if self.keep.explain {
                    f.drain_why(&mut self.world);
                }
                if changed {
                    f.record(now, &self.keep);
                }
            }
            Event::FlowStart { flow } => {
                let i = flow as usize;
                let bytes = self.first_bytes[i];
                self.flows[i].sender.app_written = self.flows[i].sender.app_written.saturating_add(bytes);
                let written = self.flows[i].sender.app_written;
                if let (Some(log), true) = (self.flows[i].sender.writes.as_mut(), bytes > 0) {
                    log.write(self.world.now, bytes, written);
                }
                self.flows[i].sender.start(&mut self.world);
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
            Event::TransferDue { flow } => self.on_transfer_due(flow),
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

    /// A packet reached its flow's receiver.
    #[inline]
    fn deliver_to_receiver(&mut self, pkt: Packet) {
        let i = pkt.flow as usize;
        let (w, f) = (&mut self.world, &mut self.flows[i]);
        let before = f.receiver.delivered;
        f.receiver.on_packet(w, &pkt);
        if self.keep.explain {
            f.drain_why(w);
        }
        let delivered = f.receiver.delivered;
        if delivered > before {
            w.tput.add(w.now, w.now, i, Col::Delivered, delivered - before);
            if let Some(log) = f.sender.writes.as_mut() {
                log.delivered(w.now, delivered);
            }
        }
    }

    /// An ACK of a SACK flow: its blocks (if it carries any) leave the store with it.
    #[cold]
    #[inline(never)]
    fn deliver_sack(sender: &mut Sender, world: &mut World, pkt: &Packet) {
        let sack = world.sacks.take(pkt.sack_handle());
        sender.on_ack_with_options(world, pkt, sack.as_ref());
    }

    /// An ACK or SYN-ACK reached its flow's sender.
    #[inline]
    fn deliver_to_sender(&mut self, pkt: Packet) {
        let i = pkt.flow as usize;
        let now = self.world.now;
        let (w, f) = (&mut self.world, &mut self.flows[i]);
        f.release_writes(now);
        if f.sender.has_recovery() {
            Self::deliver_sack(&mut f.sender, w, &pkt);
        } else {
            f.sender.on_ack(w, &pkt);
        }
        f.resume_writes(w);
        let s = &f.sender;
        if f.completion.is_none() && f.app.exhausted() && s.app_written > 0 && s.snd_una == s.app_written {
            self.all_acked(i);
            return self.record(pkt.flow);
        }
        f.settle(w, &self.keep);
    }

    /// Everything flow `i`'s application wrote is acknowledged and it writes no more: the
    /// flow completes. A transfers application is always "exhausted": everything written
    /// acknowledged is when its running transfer completes, and the flow completes once
    /// no transfer is left (`sim/transfers.rs`). Out of line, so that the per-ACK path
    /// holds one test (main's 212.63 M instructions on the NetSim run).
    #[cold]
    #[inline(never)]
    fn all_acked(&mut self, i: usize) {
        if self.transfers[i].is_some() && !self.transfer_acked(i) {
            return;
        }
        let w = &mut self.world;
        self.flows[i].completion = Some(w.now);
        w.log(i as u32, EventKind::FlowComplete, self.flows[i].sender.snd_una, 0, 0, 0);
    }

    /// Explains every decision from now on (or stops): each congestion-control, timer and
    /// acknowledgment decision records its rule, inputs and outputs (`crate::explain`).
    /// Off by default, when it costs one test per decision point. Turning it on mid-run
    /// explains the decisions made from then on.
    pub fn set_explain(&mut self, on: bool) {
        self.keep.explain = on;
        for f in &mut self.flows {
            f.sender.cc.why.on = on;
            f.receiver.why.on = on;
        }
        for w in &mut self.world.aqm_why {
            w.on = on;
        }
    }

    /// Builder form of [`Simulation::set_explain`]`(true)`.
    pub fn explained(mut self) -> Simulation {
        self.set_explain(true);
        self
    }

    /// The decisions explained so far, in the order they were made.
    pub fn decisions(&self) -> crate::explain::Decisions<'_> {
        let mut logs = Vec::with_capacity(2 * self.flows.len());
        for f in &self.flows {
            logs.push(&f.sender.cc.why.log);
            logs.push(&f.receiver.why.log);
        }
        let queue_from = logs.len();
        logs.extend(self.world.aqm_why.iter().map(|w| &w.log));
        crate::explain::Decisions {
            order: &self.world.decision_order,
            queue_from,
            logs,
            total: self.world.decision_total as usize,
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
        for f in &mut self.flows {
            f.sender.cc.why.log.clear();
            f.receiver.why.log.clear();
        }
        for w in &mut self.world.aqm_why {
            w.log.clear();
        }
        self.world.decision_order.clear();
        self.world.decision_total = 0;
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
        &self.flows[flow].series
    }

    /// Number of flows.
    pub fn flow_count(&self) -> usize {
        self.flows.len()
    }

    /// A flow's window-validation series (None when its idle policy keeps no state).
    pub fn validation_series(&self, flow: usize) -> Option<&ValidationSeries> {
        self.flows.get(flow).and_then(|f| f.validation.as_ref())
    }

    /// A flow's SACK loss-recovery series (None for a flow without SACK).
    pub fn recovery_series(&self, flow: usize) -> Option<&RecoverySeries> {
        self.flows.get(flow).and_then(|f| f.recovery.as_ref())
    }

    /// A flow's per-write measurements (None for a bulk sender).
    pub fn writes(&self, flow: usize) -> Option<&crate::thin::WriteLog> {
        self.flows.get(flow).and_then(|f| f.sender.writes.as_ref())
    }

    /// A flow's short transfers (None unless its application is `transfers`).
    pub fn transfers(&self, flow: usize) -> Option<&transfers::Transfers> {
        self.transfers.get(flow).and_then(|t| t.as_deref())
    }

    /// A cross-traffic source's ping samples (None unless it is a ping source).
    pub fn pings(&self, source: usize) -> Option<&ping::PingLog> {
        self.world.pings.get(source).and_then(|p| p.as_deref())
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
            .flat_map(|l| std::iter::repeat_n(l.bandwidth(), l.traced().count()))
            .collect()
    }

    /// The throughput table (bytes per flow and cross source, bin by bin).
    pub fn throughput(&self) -> &ThroughputTable {
        &self.world.tput
    }

    /// Names of the throughput table's classes: "flow i", then "cross j".
    pub fn throughput_classes(&self) -> Vec<String> {
        (0..self.flows.len())
            .map(|i| format!("flow {i}"))
            .chain((0..self.cross.len()).map(|k| format!("cross {k}")))
            .collect()
    }

    /// A sender (read-only), for tests and teaching views.
    pub fn sender(&self, flow: usize) -> &Sender {
        &self.flows[flow].sender
    }

    /// A receiver (read-only).
    pub fn receiver(&self, flow: usize) -> &Receiver {
        &self.flows[flow].receiver
    }
}
