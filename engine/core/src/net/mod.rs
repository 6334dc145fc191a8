//! Links: a rate, a propagation delay, a drop-tail queue and a loss model.
//!
//! A link is FIFO, so a packet's whole future on it is known when it is enqueued: it starts
//! serialising when the link frees up and arrives at the far end `delay` later. We therefore
//! schedule one `Arrive` event per hop and keep only the departure times of the packets still
//! in the system; occupancy at any instant is the number whose serialisation has not ended.
//!
//! Queue convention: capacity counts the packet being transmitted (ns-2's DropTail with
//! `limit 8` holds at most 7 waiting plus 1 in service; here `queue_packets = 8`).
//!
//! Random and scripted losses model corruption on the wire: the packet still occupies the
//! link and is discarded when it arrives, which is when the drop is logged.
//!
//! Early entry. When nothing but link A feeds link B (`express_in`: B's one upstream is A,
//! and neither has a scheduler), a packet's entry into B at A's far-end instant T is known
//! when it enters A: no other packet can reach B first. The simulation then offers it to B
//! at once, dated T, instead of scheduling an event at T, provided that B will admit it at
//! T, that no packet bound for B still waits for its own event on A, and that T is within
//! the run (`World::offer_at` in `sim.rs`). Everything B computes (admission, service,
//! occupancy rows) is what it would compute at T; only the order in which events of one
//! instant are processed can differ. A keeps counting such a packet in its queue until its
//! transmission ends (`passed`).
//!
//! A timeline change to B (its rate, delay, capacity or loss) therefore applies to the
//! packets that reach A after the change; a packet already on A when B changes has entered
//! B and keeps B's former settings, as a packet already in a queue keeps its departure time
//! when the rate changes. Entries never depend on changes still to come, so a change made
//! live, at the current time, replays exactly from the timeline.
//!
//! Delay variation (reordering). A link with `variation` > 0 adds to each packet's
//! propagation an extra delay drawn uniformly from [0, variation] ns by [`variation_draw`]:
//! a pure function of (seed, link, the link's count of such draws), never of event order.
//! Serialisation stays FIFO (the queue and its occupancy are unchanged); only the wire
//! varies, so a later packet can reach the far end before an earlier one. Such a packet
//! does not go in the FIFO `flying` queue (whose arrival times never decrease) but in
//! `late`, ordered by (arrival, draw count), with a `LinkLate` event of its own at its
//! arrival; it counts in the queue until its transmission ends, as a passed packet does. It
//! never enters the next link early (its entry would not be in time order) and, while it
//! travels, nothing behind it does either (`inbound`). With variation 0 (the default) none
//! of this runs: no draw, no event, the same run as before the setting existed.

pub mod qdisc;
pub mod sack;

/// The TCP options an ACK carries beyond its header, as an endpoint reads them: today its
/// SACK blocks (RFC 2018, D-SACK RFC 2883) and the timestamp-like echo ([`sack`]).
pub type AckOptions = sack::SackBlocks;
pub mod sched;

use crate::ring::Ring;
use crate::rng::{ber_packet_loss, hash_more, hash_words, Threshold};
use crate::scenario::{LossCfg, LossModel};
use crate::time::{tx_time, Ns};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What a packet carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PktKind {
    /// Data segment (sender → receiver).
    Data,
    /// Cumulative acknowledgment (receiver → sender).
    Ack,
    /// Connection request (sender → receiver).
    Syn,
    /// Reply to a SYN (receiver → sender).
    SynAck,
    /// A cross-traffic datagram (`flow` is the source's index in `cross`).
    Udp,
}

/// Why a transmitted packet will be discarded at the far end of a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Delivered.
    Ok,
    /// Random loss (BER or per-packet probability).
    Error,
    /// Scripted drop.
    Scripted,
}

/// A packet in flight. Small and `Copy`: it travels inside events.
#[derive(Clone, Copy, Debug)]
pub struct Packet {
    /// Flow index.
    pub flow: u32,
    /// Data, ACK, SYN or SYN-ACK.
    pub kind: PktKind,
    /// Data: first payload byte. ACK: cumulative acknowledgment (next byte expected).
    pub seq: u64,
    /// Payload bytes. An ACK carries none: its `len` holds the handle of its SACK option in
    /// the world's store instead (0 = none; see `sack.rs` and [`Packet::sack_handle`]), so a
    /// packet stays 32 bytes and a flow without SACK pays nothing for the option.
    pub len: u32,
    /// Data/SYN: segment number (SYN = 0). ACK: how many earlier ACKs carried the same value
    /// (the ACK's identity for loss decisions).
    pub seg: u32,
    /// Data/SYN: transmission attempt, 1 = original.
    pub tx: u32,
    /// Bytes on the wire (payload + header).
    pub size: u32,
    /// Whether it will be discarded on arrival.
    pub fate: Fate,
    /// ECN bits (RFC 3168), in a byte that was padding: the IP header's codepoint in the
    /// low two bits ([`Packet::ECT0`], [`Packet::ECT1`], [`Packet::CE`]; 0 = Not-ECT) and the
    /// TCP header's flags [`Packet::ECE`] and [`Packet::CWR`]. 0 for a flow without ECN.
    pub ecn: u8,
}

impl Packet {
    /// The IP codepoint's bits (RFC 3168 §5: ECT(0) = 10, ECT(1) = 01, CE = 11).
    pub const ECN_MASK: u8 = 0b11;
    /// ECN-Capable Transport (0).
    pub const ECT0: u8 = 0b10;
    /// ECN-Capable Transport (1).
    pub const ECT1: u8 = 0b01;
    /// Congestion Experienced.
    pub const CE: u8 = 0b11;
    /// TCP flag ECN-Echo (RFC 3168 §6.1).
    pub const ECE: u8 = 0b100;
    /// TCP flag Congestion Window Reduced.
    pub const CWR: u8 = 0b1000;

    /// Whether an AQM may mark it instead of dropping it: ECT(0), ECT(1), or already CE
    /// (RFC 3168 §5; Linux's `INET_ECN_set_ce` succeeds on all three).
    #[inline]
    pub fn ecn_capable(&self) -> bool {
        self.ecn & Self::ECN_MASK != 0
    }

    /// The handle of an ACK's SACK option in the world's store (0: none, or not an ACK).
    #[inline]
    pub fn sack_handle(&self) -> u32 {
        if self.kind == PktKind::Ack {
            self.len
        } else {
            0
        }
    }

    /// Payload bytes (an ACK's `len` is its SACK handle).
    #[inline]
    pub fn payload(&self) -> u32 {
        if self.kind == PktKind::Ack {
            0
        } else {
            self.len
        }
    }
}

/// Where a packet goes after crossing a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hop {
    /// Onto another link.
    Link(u32),
    /// Onto the receiver-side access link of the packet's flow (after the forward
    /// bottleneck).
    FlowForward,
    /// Onto the sender-side access link of the packet's flow (after the reverse bottleneck).
    FlowReverse,
    /// To the flow's receiver.
    Receiver,
    /// To the flow's sender.
    Sender,
}

/// The extra propagation delay of the `n`-th packet (counting from 0) that crosses link
/// `link` while its delay variation is `max` ns: uniform over the integers [0, max], a pure
/// function of (seed, link, n). The 64-bit hash is scaled by multiplication (the high word
/// of hash × (max + 1)), so every value has the same chance to within (max + 1) / 2^64.
pub fn variation_draw(seed: u64, link: u32, n: u64, max: Ns) -> Ns {
    if max == 0 {
        return 0;
    }
    // A word of its own keeps these draws apart from the loss draws of the same link.
    let h = hash_words(&[seed, link as u64, VARIATION_WORD, n]);
    ((h as u128 * (max as u128 + 1)) >> 64) as Ns
}

/// Distinguishes delay-variation draws from every other draw keyed by (seed, link).
const VARIATION_WORD: u64 = 0x0072_656f_7264_6572; // "reorder" in ASCII

/// Random loss of one link, in integer form.
#[derive(Clone, Debug)]
pub struct LinkLoss {
    model: LossModel,
    /// The configured BER: only ever turned into integer thresholds (by repeated squaring,
    /// identical on every platform); decisions compare integers.
    ber: f64,
    bernoulli: Threshold,
    /// BER thresholds for the last two packet sizes seen (data and ACK sizes repeat).
    cache: [(u32, Threshold); 2],
    /// (seed, link) and the hash of that prefix of every draw's words.
    prefix: Option<(u64, u32, u64)>,
    /// What the last draw needed, kept for the next one: a link carries one flow's data
    /// (or its ACKs), all of one size, in long runs.
    last: Option<LastDraw>,
}

/// The key of a draw apart from the packet's own words, with its threshold and the hash of
/// (seed, link, flow, kind).
#[derive(Clone, Copy, Debug)]
struct LastDraw {
    seed: u64,
    link: u32,
    flow: u32,
    kind: PktKind,
    size: u32,
    threshold: Threshold,
    prefix: u64,
}

impl LinkLoss {
    /// No loss.
    pub fn none() -> LinkLoss {
        LinkLoss {
            model: LossModel::None,
            ber: 0.0,
            bernoulli: Threshold::NEVER,
            cache: [(0, Threshold::NEVER); 2],
            prefix: None,
            last: None,
        }
    }

    /// From scenario settings.
    pub fn from_cfg(cfg: &LossCfg) -> LinkLoss {
        let mut l = LinkLoss::none();
        l.model = cfg.model;
        l.set_ber(cfg.ber);
        l.bernoulli = Threshold::from_probability(cfg.probability);
        l
    }

    /// Whether no packet can be lost (the model is `none`).
    pub fn is_none(&self) -> bool {
        matches!(self.model, LossModel::None)
    }

    /// Changes the loss model (timeline).
    pub fn set_model(&mut self, m: LossModel) {
        self.model = m;
        self.last = None;
    }

    /// Changes the BER (timeline).
    pub fn set_ber(&mut self, ber: f64) {
        self.ber = ber;
        self.cache = [(0, Threshold::NEVER); 2];
        self.last = None;
    }

    /// Changes the per-packet probability (timeline).
    pub fn set_probability(&mut self, p: f64) {
        self.bernoulli = Threshold::from_probability(p);
        self.last = None;
    }

    fn threshold(&mut self, size: u32) -> Threshold {
        match self.model {
            LossModel::None => Threshold::NEVER,
            LossModel::Bernoulli => self.bernoulli,
            LossModel::Ber => {
                if let Some(&(_, t)) = self.cache.iter().find(|(s, _)| *s == size && size != 0) {
                    return t;
                }
                let t = Threshold::from_probability(ber_packet_loss(self.ber, size as u64));
                self.cache[1] = self.cache[0];
                self.cache[0] = (size, t);
                t
            }
        }
    }

    /// Whether this packet is corrupted: a pure function of (seed, link, packet identity).
    #[inline]
    pub fn corrupts(&mut self, seed: u64, link: u32, pkt: &Packet) -> bool {
        !matches!(self.model, LossModel::None) && self.draw(seed, link, pkt)
    }

    fn draw(&mut self, seed: u64, link: u32, pkt: &Packet) -> bool {
        let (t, prefix) = match self.last {
            Some(l)
                if l.size == pkt.size
                    && l.flow == pkt.flow
                    && l.kind == pkt.kind
                    && l.seed == seed
                    && l.link == link =>
            {
                (l.threshold, l.prefix)
            }
            _ => self.prepare(seed, link, pkt),
        };
        if t.is_never() {
            return false;
        }
        // The draw hashes (seed, link, flow, kind, seq, segment, attempt).
        let draw = hash_more(prefix, &[pkt.seq, pkt.seg as u64, pkt.tx as u64]);
        t.hit(draw)
    }

    /// The threshold and the prefix hash of a draw for another flow, kind or size than the
    /// last one, kept for the next draws (the last draw's hash again when only the size
    /// changed).
    #[inline(never)]
    fn prepare(&mut self, seed: u64, link: u32, pkt: &Packet) -> (Threshold, u64) {
        let threshold = self.threshold(pkt.size);
        let prefix = match self.last {
            Some(l) if l.flow == pkt.flow && l.kind == pkt.kind && l.seed == seed && l.link == link => l.prefix,
            _ => self.flow_prefix(seed, link, pkt),
        };
        self.last = Some(LastDraw {
            seed,
            link,
            flow: pkt.flow,
            kind: pkt.kind,
            size: pkt.size,
            threshold,
            prefix,
        });
        (threshold, prefix)
    }

    /// The hash of (seed, link, flow, kind) for `pkt`'s draw.
    fn flow_prefix(&mut self, seed: u64, link: u32, pkt: &Packet) -> u64 {
        let prefix = match self.prefix {
            Some((s, l, h)) if s == seed && l == link => h,
            _ => {
                let h = hash_words(&[seed, link as u64]);
                self.prefix = Some((seed, link, h));
                h
            }
        };
        hash_more(prefix, &[pkt.flow as u64, pkt.kind as u64])
    }
}

/// Column names of a queue series: t (s), packets and bytes in the system.
pub const QUEUE_COLUMNS: [&str; 3] = ["t", "packets", "bytes"];

/// Occupancy of a queue over time: one row per change (packets and bytes in the system,
/// waiting plus in service).
#[derive(Clone, Debug, Default)]
pub struct QueueSeries {
    /// (time, packets, bytes) rows in time order.
    pub rows: Vec<(Ns, u32, u64)>,
    /// Whether rows are stored or dropped (see [`crate::trace::Stream`]).
    pub stream: crate::trace::Stream,
}

impl QueueSeries {
    #[cfg_attr(target_arch = "wasm32", inline(always))]
    pub(crate) fn push(&mut self, now: Ns, packets: usize, bytes: u64) {
        let row = (now, packets as u32, bytes);
        if self.stream.take(&row) {
            self.rows.push(row);
        }
    }

    /// How many rows are dated at or before `t`. A link that packets enter ahead of time
    /// (see the module doc) has rows up to a hop ahead of the clock; a live view reads only
    /// those up to now.
    pub fn rows_until(&self, t: Ns) -> usize {
        self.rows.partition_point(|r| r.0 <= t)
    }
}

impl crate::trace::Table for QueueSeries {
    type Row = (Ns, u32, u64);
    const COLUMNS: &'static [&'static str] = &QUEUE_COLUMNS;
    fn rows(&self) -> &[Self::Row] {
        &self.rows
    }
    fn field(name: &str) -> Option<crate::trace::Field<Self::Row>> {
        queue_field(name)
    }
}

/// How to read one [`QUEUE_COLUMNS`] column from a row (time in seconds).
fn queue_field(name: &str) -> Option<crate::trace::Field<(Ns, u32, u64)>> {
    Some(match name {
        "t" => |r| crate::time::ns_to_secs(r.0),
        "packets" => |r| r.1 as f64,
        "bytes" => |r| r.2 as f64,
        _ => return None,
    })
}

/// Result of offering a packet to a link.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enqueue {
    /// Queue full: dropped at the tail.
    Dropped,
    /// Accepted; reaches the far end at this time.
    Arrives(Ns),
}

/// A packet in the queue or on the wire of a link.
#[derive(Clone, Copy, Debug)]
struct Flight {
    /// When it reaches the far end.
    arrival: Ns,
    /// When its serialisation ends (it leaves the queue).
    done: Ns,
    pkt: Packet,
}

/// A packet on the wire of a link with delay variation, ordered by (arrival, draw count):
/// the earliest arrival first, ties in the order the packets entered.
#[derive(Clone, Copy, Debug)]
struct Late {
    arrival: Ns,
    n: u64,
    pkt: Packet,
}

impl PartialEq for Late {
    fn eq(&self, o: &Late) -> bool {
        (self.arrival, self.n) == (o.arrival, o.n)
    }
}
impl Eq for Late {}
impl PartialOrd for Late {
    fn partial_cmp(&self, o: &Late) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Late {
    fn cmp(&self, o: &Late) -> std::cmp::Ordering {
        (self.arrival, self.n).cmp(&(o.arrival, o.n))
    }
}

/// A unidirectional link with its queue.
#[derive(Clone, Debug)]
pub struct Link {
    /// Human name, e.g. "bottleneck" or "flow 0 sender access".
    pub name: String,
    /// bit/s (`set_bandwidth` changes it: the serialisation time cached for the last size
    /// goes with it).
    bandwidth: u64,
    /// Propagation delay.
    pub delay: Ns,
    /// Capacity in packets, counting the one in service.
    pub cap_packets: u64,
    /// Capacity in bytes, counting the one in service; 0 = none.
    pub cap_bytes: u64,
    /// Random loss.
    pub loss: LinkLoss,
    /// Where packets go next.
    pub next: Hop,
    /// Whether scripted drops apply here (the forward bottleneck).
    pub scripted: bool,
    /// Occupancy trace, if this link is traced.
    pub series: Option<QueueSeries>,
    /// Class-based scheduler (reservation); None = FIFO.
    pub sched: Option<Box<sched::Sched>>,
    /// A queue discipline other than drop-tail (`qdisc/`); None = drop-tail FIFO.
    pub qdisc: Option<Box<qdisc::Managed>>,
    /// Whether the link serves its packets itself (a scheduler or a discipline: a
    /// departure is decided when it starts, not at entry); one test on the FIFO path.
    pub serves: bool,
    /// Whether packets may enter this link ahead of time from its only upstream link (see
    /// the module doc); decided once from the topology.
    pub express_in: bool,
    /// Packets bound here that still wait for their far-end event on the upstream link:
    /// while any does, nothing enters early (it would pass them).
    pub inbound: u32,
    /// Largest extra propagation delay of a packet (delay variation, see the module doc);
    /// 0 = none.
    pub variation: Ns,
    /// Draws of the delay variation so far (the key of the next one).
    draws: u64,
    /// Packets with an extra delay on the wire, earliest arrival first (see the module doc).
    late: BinaryHeap<Reverse<Late>>,
    /// Packets in the queue or on the wire, in order (arrival times never decrease).
    flying: Ring<Flight>,
    /// (end of transmission, bytes passed so far including this packet) of packets that
    /// went on to the next link without a far-end event here: they count in the queue until
    /// their transmission ends. Ends never decrease (FIFO service), so the packets gone by a
    /// time are found by bisection and their bytes by one subtraction (`forget`).
    passed: Ring<(Ns, u64)>,
    /// Bytes of all packets ever passed (the running total `passed` records).
    passed_in: u64,
    /// Bytes of the passed packets no longer counted.
    passed_out: u64,
    /// The latest entry, checked in debug builds: entries never go back in time, early
    /// ones included.
    #[cfg(debug_assertions)]
    last_entry: Ns,
    /// How many of the first `flying` packets have finished serialising: the rest are in
    /// the system (waiting or being transmitted). Scheduled links only launch packets
    /// whose transmission has ended.
    departed: usize,
    bytes_in_system: u64,
    busy_until: Ns,
    /// The latest arrival of a packet served so far, without its extra delay (variation):
    /// no packet arrives before it, so a delay decrease never lets one overtake another.
    last_arrival: Ns,
    /// (size, serialisation time) of the last packet at the current rate: sizes repeat.
    tx_cache: (u32, Ns),
}

impl Link {
    /// A link with no loss and no trace.
    pub fn new(name: impl Into<String>, bandwidth: u64, delay: Ns, cap_packets: u64, next: Hop) -> Link {
        Link {
            name: name.into(),
            bandwidth,
            delay,
            cap_packets,
            cap_bytes: 0,
            loss: LinkLoss::none(),
            next,
            scripted: false,
            series: None,
            sched: None,
            qdisc: None,
            serves: false,
            express_in: false,
            inbound: 0,
            variation: 0,
            draws: 0,
            late: BinaryHeap::new(),
            flying: Ring::default(),
            passed: Ring::default(),
            passed_in: 0,
            passed_out: 0,
            #[cfg(debug_assertions)]
            last_entry: 0,
            departed: 0,
            bytes_in_system: 0,
            busy_until: 0,
            last_arrival: 0,
            tx_cache: (u32::MAX, 0),
        }
    }

    /// Forgets packets whose serialisation ended at or before `now`, tracing each departure
    /// at its own time (packets still on the wire and those passed on merge by that time).
    #[inline]
    pub fn drain(&mut self, now: Ns) {
        if self.series.is_none() {
            return self.forget(now);
        }
        loop {
            // The passed packets that end before the wire's next departure (by `now`) leave
            // first, in a run; a tie goes to the wire.
            let wire = self.flying.get(self.departed).map(|f| (f.done, f.pkt.size));
            let bound = match wire {
                Some((done, _)) => done.checked_sub(1).map(|b| b.min(now)),
                None => Some(now),
            };
            if let Some(bound) = bound {
                while let Some(&(done, total)) = self.passed.front() {
                    if done > bound {
                        break;
                    }
                    self.passed.pop_front();
                    self.passed_gone(total);
                    self.trace_departure(done);
                }
            }
            match wire {
                Some((done, size)) if done <= now => {
                    self.departed += 1;
                    self.bytes_in_system -= size as u64;
                    self.trace_departure(done);
                }
                _ => break,
            }
        }
    }

    /// A departure at `done` (the counts already updated): its row.
    #[inline(always)]
    fn trace_departure(&mut self, done: Ns) {
        let n = self.occupancy();
        if let Some(s) = self.series.as_mut() {
            s.push(done, n, self.bytes_in_system);
        }
    }

    /// `drain` without a trace: no rows to order, so each kind of departure is counted on
    /// its own.
    fn forget(&mut self, now: Ns) {
        while let Some(f) = self.flying.get(self.departed) {
            if f.done > now {
                break;
            }
            self.bytes_in_system -= f.pkt.size as u64;
            self.departed += 1;
        }
        let gone = self.passed.partition_point(|&(done, _)| done <= now);
        if gone > 0 {
            self.passed_gone(self.passed[gone - 1].1);
            self.passed.drop_front(gone);
        }
    }

    /// The passed packets up to the one whose running total is `total` leave the count.
    #[inline(always)]
    fn passed_gone(&mut self, total: u64) {
        self.bytes_in_system -= total - self.passed_out;
        self.passed_out = total;
    }

    /// Packets currently in the system (exact after `drain(now)`; an untraced link drains
    /// only when its capacity is in question).
    #[inline]
    pub fn occupancy(&self) -> usize {
        self.flying.len() - self.departed + self.passed.len()
    }

    /// Arrival time at the far end of the first packet on the wire.
    #[inline]
    pub fn head_arrival(&self) -> Option<Ns> {
        self.flying.front().map(|f| f.arrival)
    }

    /// Takes the first packet off the wire as it reaches the far end at `now`.
    #[inline]
    pub fn arrive(&mut self, now: Ns) -> Packet {
        if self.departed == 0 && self.series.is_some() {
            // Its transmission ended by now: trace that departure first.
            self.drain(now);
        }
        let f = self.flying.pop_front().expect("a head event has a packet");
        if self.departed > 0 {
            self.departed -= 1;
        } else {
            // An untraced link counts departures only when its capacity is in question
            // (see `enqueue`): this one leaves the system as it leaves the wire.
            self.bytes_in_system -= f.pkt.size as u64;
        }
        f.pkt
    }

    /// Packets on the wire or waiting (their arrival is still to come) in FIFO order: those
    /// with an extra delay (`late`) are not counted.
    #[inline]
    pub fn in_flight(&self) -> usize {
        self.flying.len()
    }

    /// The extra propagation delay of the next packet this link serves (delay variation),
    /// counted as drawn; `None` when the link has no variation (then nothing is drawn).
    #[inline]
    pub fn draw_variation(&mut self, seed: u64, link: u32) -> Option<(u64, Ns)> {
        if self.variation == 0 {
            return None;
        }
        let n = self.draws;
        self.draws += 1;
        Some((n, variation_draw(seed, link, n, self.variation)))
    }

    /// Keeps a served packet with an extra delay (draw `n`) until its own far-end event at
    /// `arrival`; it counts in the queue until its transmission ends at `done`.
    pub fn hold_late(&mut self, now: Ns, done: Ns, arrival: Ns, n: u64, pkt: Packet) {
        self.late.push(Reverse(Late { arrival, n, pkt }));
        self.pass(now, done, pkt.size);
    }

    /// When a packet whose transmission ends at `done` reaches the far end with an extra
    /// delay `extra`: `extra` after the arrival it would have had without one, which, as
    /// for any packet, a delay decrease (timeline) does not move ahead of the packets
    /// before it. So the variation alone reorders packets (by at most its own size), and
    /// none arrives before a packet that left earlier without one and may already have
    /// entered the next link early (found by the fuzzing driver, seed 7 case 13 278: a
    /// decrease from 40 ms to 10 µs 15 ms after the variation began let a packet arrive
    /// 22 ms before one already on its way).
    #[inline]
    pub fn varied_arrival(&mut self, done: Ns, extra: Ns) -> Ns {
        let base = (done + self.delay).max(self.last_arrival);
        self.last_arrival = base;
        base + extra
    }

    /// Puts a packet whose transmission ended at `done` (scheduled links) on the wire with
    /// an extra delay (draw `n`): it reaches the far end at the returned time.
    pub fn launch_late(&mut self, done: Ns, extra: Ns, n: u64, pkt: Packet) -> Ns {
        let arrival = self.varied_arrival(done, extra);
        self.late.push(Reverse(Late { arrival, n, pkt }));
        arrival
    }

    /// Takes the packet with an extra delay that reaches the far end first (its own
    /// `LinkLate` event, at its arrival time `now`).
    pub fn arrive_late(&mut self, now: Ns) -> Packet {
        let Reverse(l) = self.late.pop().expect("a late event has a packet");
        debug_assert_eq!(l.arrival, now, "{}: late packet due at {}", self.name, l.arrival);
        l.pkt
    }

    /// Packets with an extra delay still on their way (see the module doc).
    pub fn late_in_flight(&self) -> usize {
        self.late.len()
    }

    /// Puts a packet whose transmission ended at `done` on the wire (scheduled links);
    /// true if it is now the first packet on the wire (the link needs a head event).
    pub fn launch(&mut self, done: Ns, pkt: Packet) -> bool {
        let arrival = (done + self.delay).max(self.last_arrival);
        self.last_arrival = arrival;
        self.flying.push_back(Flight { arrival, done, pkt });
        self.departed += 1;
        self.flying.len() == 1
    }

    /// A scheduled link's occupancy changed: trace the packets and bytes of all its classes.
    pub fn trace_total(&mut self, now: Ns) {
        if let (Some(series), Some(sched)) = (self.series.as_mut(), self.sched.as_ref()) {
            series.push(now, sched.total.0, sched.total.1);
        }
    }

    /// A managed link's occupancy changed: trace its packets and bytes.
    pub fn trace_managed(&mut self, now: Ns) {
        if let (Some(series), Some(m)) = (self.series.as_mut(), self.qdisc.as_ref()) {
            let (n, b) = m.total();
            series.push(now, n, b);
        }
    }

    /// Traced occupancy series: the link's own, then one per class of its scheduler.
    pub fn traced(&self) -> impl Iterator<Item = (&str, &QueueSeries)> {
        let own = self.series.as_ref().map(|s| (self.name.as_str(), s));
        let classes = self
            .sched
            .iter()
            .flat_map(|s| s.classes.iter().map(|c| (c.name.as_str(), &c.series)));
        own.into_iter().chain(classes)
    }

    /// The same, mutably.
    pub fn traced_mut(&mut self) -> impl Iterator<Item = &mut QueueSeries> {
        let own = self.series.as_mut();
        let classes = self
            .sched
            .iter_mut()
            .flat_map(|s| s.classes.iter_mut().map(|c| &mut c.series));
        own.into_iter().chain(classes)
    }

    /// Offers a packet at `now`: drop-tail admission, then FIFO service, kept until its
    /// far-end event. The simulation takes these steps itself (`admits`, `serve`, then
    /// `hold` or `pass`), so that it can pass a packet on; tests use them in one.
    #[cfg(test)]
    pub fn enqueue(&mut self, now: Ns, pkt: Packet) -> Enqueue {
        if !self.admits(now, pkt.size) {
            return Enqueue::Dropped;
        }
        let (done, arrival) = self.serve(now, pkt.size);
        self.hold(now, done, arrival, pkt);
        Enqueue::Arrives(arrival)
    }

    #[inline]
    fn full(&self, size: u32) -> bool {
        self.occupancy() as u64 >= self.cap_packets
            || (self.cap_bytes > 0 && self.bytes_in_system + size as u64 > self.cap_bytes)
    }

    /// Drop-tail admission of a packet of `size` bytes offered at `now`.
    #[inline]
    pub fn admits(&mut self, now: Ns, size: u32) -> bool {
        // A traced link logs each departure at its time, so it drains on every offer. An
        // untraced one may still count packets whose transmission has ended: that count is
        // an upper bound, so only a queue that looks full needs the exact one.
        if self.series.is_some() || self.full(size) {
            self.drain(now);
            return !self.full(size);
        }
        true
    }

    /// Serves an admitted packet entering at `now`: returns when its transmission ends and
    /// when it reaches the far end. The caller then holds it (`hold`) or passes it on
    /// (`pass`).
    #[inline]
    pub fn serve(&mut self, now: Ns, size: u32) -> (Ns, Ns) {
        #[cfg(debug_assertions)]
        {
            assert!(
                now >= self.last_entry,
                "{}: entry at {now} after one at {}",
                self.name,
                self.last_entry
            );
            self.last_entry = now;
        }
        let start = self.busy_until.max(now);
        if self.tx_cache.0 != size {
            self.refresh_tx(size);
        }
        let done = start + self.tx_cache.1;
        self.busy_until = done;
        self.bytes_in_system += size as u64;
        // A delay decrease (timeline) must not let a packet overtake an earlier one.
        let arrival = (done + self.delay).max(self.last_arrival);
        self.last_arrival = arrival;
        (done, arrival)
    }

    /// A packet of another size, or the first after a new rate: its serialisation time. Out
    /// of line, so that the hot path does not prepare the division's operands for every
    /// packet.
    #[cold]
    #[inline(never)]
    fn refresh_tx(&mut self, size: u32) {
        self.tx_cache = (size, tx_time(size as u64, self.bandwidth));
    }

    /// The rate, bit/s.
    #[inline]
    pub fn bandwidth(&self) -> u64 {
        self.bandwidth
    }

    /// A new rate (a timeline change): the next packet's serialisation time is computed
    /// anew, whatever its size (no packet has size `u32::MAX`).
    pub fn set_bandwidth(&mut self, bandwidth: u64) {
        self.bandwidth = bandwidth;
        self.tx_cache = (u32::MAX, 0);
    }

    /// Whether the link is a drop-tail FIFO and nothing else: no scheduler or discipline,
    /// no random or scripted loss, no delay variation (what an access link always is).
    pub fn is_plain_fifo(&self) -> bool {
        !self.serves && !self.scripted && self.variation == 0 && self.loss.is_none()
    }

    /// The transmission time of the packet `serve` took last (its start is its end minus
    /// this).
    pub fn last_service_time(&self) -> Ns {
        self.tx_cache.1
    }

    /// Keeps a served packet until its far-end event.
    #[inline]
    pub fn hold(&mut self, now: Ns, done: Ns, arrival: Ns, pkt: Packet) {
        self.flying.push_back(Flight { arrival, done, pkt });
        self.trace_entry(now);
    }

    /// A served packet goes on to the next link without a far-end event here: it counts in
    /// the queue until `done`.
    #[inline(always)]
    pub fn pass(&mut self, now: Ns, done: Ns, size: u32) {
        self.passed_in += size as u64;
        self.passed.push_back((done, self.passed_in));
        self.trace_entry(now);
    }

    #[inline]
    fn trace_entry(&mut self, now: Ns) {
        let n = self.occupancy();
        if let Some(s) = self.series.as_mut() {
            s.push(now, n, self.bytes_in_system);
        }
    }
}

/// The round trip of a flow's path as built: propagation both ways plus one full data
/// packet and one ACK serialised on every link (BR-TCP's RTT before any sample).
pub fn path_rtt(s: &crate::scenario::Scenario, f: &crate::scenario::FlowCfg) -> Ns {
    use crate::time::secs_to_ns;
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

/// Base link id of flow `i` (the dumbbell's numbering: see `sim.rs`).
pub fn flow_base(i: u32) -> u32 {
    2 + 4 * i
}

#[cfg(test)]
mod tests;
