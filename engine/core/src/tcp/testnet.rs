//! A fake network for the endpoints' unit tests: it implements [`Env`] by recording what
//! an endpoint does (packets put on the wire, timers set, log rows) at a clock the test
//! moves by hand. A test feeds packets and fires timers at explicit times, so a sender or a
//! receiver runs alone, without a `Simulation`.

use super::env::Env;
use crate::event::Event;
use crate::net::sack::SackBlocks;
use crate::net::{Fate, Packet, PktKind};
use crate::scenario::{FlowCfg, Scenario};
use crate::time::Ns;
use crate::trace::EventKind;

/// One millisecond, in ns.
pub const MS: Ns = 1_000_000;

/// What an endpoint did, in order.
#[derive(Debug, Default)]
pub struct FakeNet {
    /// The clock (the test moves it).
    pub now: Ns,
    /// Packets transmitted: (time, link, packet).
    pub sent: Vec<(Ns, u32, Packet)>,
    /// Timers scheduled: (due time, event).
    pub timers: Vec<(Ns, Event)>,
    /// Event-log rows: (time, kind, seq, len, seg, tx).
    pub log: Vec<(Ns, EventKind, u64, u32, u32, u32)>,
    /// Data copies reported sent: (segment, attempt).
    pub copies_sent: Vec<(u32, u32)>,
    /// Data copies reported arrived: (segment, attempt).
    pub copies_arrived: Vec<(u32, u32)>,
    /// The SACK options of the ACKs sent, by handle − 1.
    pub sacks: Vec<SackBlocks>,
}

impl Env for FakeNet {
    fn now(&self) -> Ns {
        self.now
    }
    fn schedule(&mut self, at: Ns, ev: Event) {
        assert!(at >= self.now, "a timer in the past: {at} < {}", self.now);
        self.timers.push((at, ev));
    }
    fn transmit(&mut self, link: u32, pkt: Packet) {
        self.sent.push((self.now, link, pkt));
    }
    fn transmit_sack(&mut self, link: u32, mut pkt: Packet, blocks: SackBlocks) {
        self.sacks.push(blocks);
        pkt.len = self.sacks.len() as u32;
        self.sent.push((self.now, link, pkt));
    }
    fn log(&mut self, _flow: u32, kind: EventKind, seq: u64, len: u32, seg: u32, tx: u32) {
        self.log.push((self.now, kind, seq, len, seg, tx));
    }
    fn data_sent(&mut self, _flow: u32, _seq: u64, _len: u32, seg: u32, attempt: u32) {
        self.copies_sent.push((seg, attempt));
    }
    fn data_arrived(&mut self, _flow: u32, seg: u32, attempt: u32) {
        self.copies_arrived.push((seg, attempt));
    }
}

impl FakeNet {
    /// Takes the packets sent so far.
    pub fn take_sent(&mut self) -> Vec<Packet> {
        self.sent.drain(..).map(|(_, _, p)| p).collect()
    }

    /// The segments (number, attempt) of the data packets sent so far, taken.
    pub fn take_segments(&mut self) -> Vec<(u32, u32)> {
        self.take_sent()
            .into_iter()
            .filter(|p| p.kind == PktKind::Data)
            .map(|p| (p.seg, p.tx))
            .collect()
    }

    /// The latest retransmission-timer entry: (due time, generation).
    pub fn last_rto(&self) -> Option<(Ns, u32)> {
        self.timers.iter().rev().find_map(|&(at, e)| match e {
            Event::Rto { gen, .. } => Some((at, gen)),
            _ => None,
        })
    }

    /// The latest delayed-ACK timer entry: (due time, generation).
    pub fn last_delack(&self) -> Option<(Ns, u32)> {
        self.timers.iter().rev().find_map(|&(at, e)| match e {
            Event::DelAck { gen, .. } => Some((at, gen)),
            _ => None,
        })
    }

    /// The kinds logged so far.
    pub fn kinds(&self) -> Vec<EventKind> {
        self.log.iter().map(|r| r.1).collect()
    }
}

/// A flow's settings for the endpoint tests: SMSS 1000 B, 40-byte headers, IW 2, NewReno,
/// RFC 6298 with a 1 ms tick and a 200 ms minimum RTO, no SYN, no Nagle, no delayed ACKs.
pub fn flow() -> FlowCfg {
    let mut f = Scenario::default().flows[0].clone();
    f.tcp.mss = 1000;
    f.tcp.header = 40;
    f.tcp.initial_window = 2;
    f.rto.min = 0.2;
    f.rto.initial = 1.0;
    f.rto.clock_tick = 0.001;
    f
}

/// A cumulative ACK for `ack`, the receiver's `dup`-th duplicate of it.
pub fn ack(ack: u64, dup: u32) -> Packet {
    Packet {
        flow: 0,
        kind: PktKind::Ack,
        seq: ack,
        len: 0,
        seg: dup,
        tx: 1,
        size: 40,
        fate: Fate::Ok,
        ecn: 0,
    }
}

/// A SYN-ACK.
pub fn syn_ack() -> Packet {
    Packet {
        kind: PktKind::SynAck,
        seq: 0,
        seg: 1,
        ..ack(0, 0)
    }
}

/// Data segment `seg` (1-based, 1000 bytes each from byte 0), its `tx`-th copy.
pub fn data(seg: u32, tx: u32) -> Packet {
    Packet {
        flow: 0,
        kind: PktKind::Data,
        seq: (seg as u64 - 1) * 1000,
        len: 1000,
        seg,
        tx,
        size: 1040,
        fate: Fate::Ok,
        ecn: 0,
    }
}
