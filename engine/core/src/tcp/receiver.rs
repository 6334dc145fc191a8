//! The TCP receiver: cumulative ACKs, an out-of-order store, and optional delayed ACKs.
//!
//! RFC 5681 §4.2: an ACK goes out at once for out-of-order data (a duplicate ACK), for data
//! that fills all or part of a gap, and for duplicates of data already received. In-order
//! data is acknowledged at once, or, with delayed ACKs, once two full segments' worth has
//! accumulated or the delayed-ACK timer fires (RFC 1122: at most 500 ms).

use super::env::Env;
use crate::event::Event;
use crate::explain::{Rule, Why};
use crate::net::sack::{SackBlocks, MAX_BLOCKS};
use crate::net::{Fate, Packet, PktKind};
use crate::scenario::{EcnMode, FlowCfg};
use crate::time::{secs_to_ns, Ns};
use crate::trace::EventKind;
use std::collections::VecDeque;

/// One TCP receiver.
#[derive(Clone, Debug)]
pub struct Receiver {
    /// Flow index.
    pub flow: u32,
    /// First link of the reverse path.
    pub link: u32,
    mss: u64,
    header: u64,
    /// Next byte expected (the cumulative ACK value).
    pub rcv_nxt: u64,
    /// Out-of-order data: sorted, non-overlapping, non-touching [start, end) ranges.
    /// Segments above a gap usually arrive in increasing order, so appends dominate.
    ooo: VecDeque<(u64, u64)>,
    delayed_ack: bool,
    delack_timeout: Ns,
    pending_bytes: u64,
    delack_gen: u32,
    delack_armed: bool,
    last_ack: Option<u64>,
    dup_index: u32,
    synacks: u32,
    /// Bytes delivered in order to the application.
    pub delivered: u64,
    /// Data packets that arrived (including duplicates).
    pub data_packets: u64,
    /// ACKs sent.
    pub acks_sent: u64,
    /// Decisions explained since the simulation last drained them (off unless asked for);
    /// their phase codes are [`NO_PHASE`]: the receiver has none.
    pub why: Why,
    /// SACK (RFC 2018), when negotiated: the blocks it reports.
    sack: Option<Box<SackReport>>,
    /// What the flow is configured for (`flows[].ecn`).
    ecn_cfg: EcnMode,
    /// ECN in force: by configuration without a handshake, else when the SYN offers it.
    ecn: EcnMode,
    /// SACK or ECN: data takes [`Receiver::on_data_with_options`] (one test per segment,
    /// as SACK's alone was).
    options: bool,
    /// The ECE flag of the ACKs sent now: RFC 3168, set by a CE segment until a CWR
    /// segment; DCTCP, the CE state of the last data segment (RFC 8257 §3.2). Kept as the
    /// ACK's ECN byte (0 or `Packet::ECE`), so an ACK copies it as it is.
    ece: u8,
}

/// What a SACK receiver keeps to fill its ACKs' options (RFC 2018 §4, RFC 2883 §4).
#[derive(Clone, Debug, Default)]
struct SackReport {
    /// Most blocks per ACK.
    max: usize,
    /// Report duplicates (D-SACK).
    dsack: bool,
    /// The out-of-order ranges, most recently changed first.
    recent: VecDeque<(u64, u64)>,
    /// The duplicate the next ACK reports first.
    dup: Option<(u64, u64)>,
    /// The last data segment that arrived: (end, attempt), echoed as a timestamp would be.
    echo: (u64, u32),
}

/// The phase code of a receiver's decisions.
pub const NO_PHASE: u8 = u8::MAX;

impl Receiver {
    /// Builds a receiver from its flow's settings.
    pub fn new(flow: u32, link: u32, cfg: &FlowCfg) -> Receiver {
        Receiver {
            flow,
            link,
            mss: cfg.tcp.mss,
            header: cfg.tcp.header,
            rcv_nxt: 0,
            ooo: VecDeque::new(),
            delayed_ack: cfg.receiver.delayed_ack,
            delack_timeout: secs_to_ns(cfg.receiver.delack_timeout),
            pending_bytes: 0,
            delack_gen: 0,
            delack_armed: false,
            last_ack: None,
            dup_index: 0,
            synacks: 0,
            delivered: 0,
            data_packets: 0,
            acks_sent: 0,
            why: Why::default(),
            sack: cfg.sack.enabled.then(|| {
                Box::new(SackReport {
                    max: cfg.sack.blocks.clamp(1, MAX_BLOCKS as u64) as usize,
                    dsack: cfg.sack.dsack,
                    ..SackReport::default()
                })
            }),
            ecn_cfg: cfg.ecn,
            ecn: if cfg.tcp.syn { EcnMode::Off } else { cfg.ecn },
            options: cfg.sack.enabled || (!cfg.tcp.syn && cfg.ecn != EcnMode::Off),
            ece: 0,
        }
    }

    /// A packet from the sender arrived.
    pub fn on_packet(&mut self, w: &mut impl Env, pkt: &Packet) {
        match pkt.kind {
            PktKind::Syn => self.send_synack(w, pkt.ecn),
            PktKind::Data if self.options => self.on_data_with_options(w, pkt),
            PktKind::Data => self.on_data::<false>(w, pkt),
            PktKind::Ack | PktKind::SynAck | PktKind::Udp => {}
        }
    }

    fn send_synack(&mut self, w: &mut impl Env, flags: u8) {
        self.synacks += 1;
        // RFC 3168 §6.1.1: an ECN-setup SYN (ECE and CWR) is answered with ECE alone.
        let setup = Packet::ECE | Packet::CWR;
        if self.ecn_cfg != EcnMode::Off && flags & setup == setup {
            self.ecn = self.ecn_cfg;
            self.options = true;
        }
        let ecn = if self.ecn != EcnMode::Off { Packet::ECE } else { 0 };
        let pkt = Packet {
            flow: self.flow,
            kind: PktKind::SynAck,
            seq: 0,
            len: 0,
            seg: self.synacks,
            tx: 1,
            size: self.header as u32,
            fate: Fate::Ok,
            ecn,
        };
        w.transmit(self.link, pkt);
    }

    /// A data segment of a flow with SACK or ECN.
    #[inline(never)]
    fn on_data_with_options(&mut self, w: &mut impl Env, pkt: &Packet) {
        if self.ecn != EcnMode::Off {
            return self.on_ecn_data(w, pkt);
        }
        self.on_data::<true>(w, pkt);
    }

    /// A data segment of an ECN flow. RFC 3168 §6.1.3: CWR ends the echo, CE starts it
    /// (in that order, as Linux's tcp_ecn_accept_cwr and tcp_ecn_check_ce). DCTCP (RFC 8257
    /// §3.2, Linux's dctcp_ece_ack_update): when the segment's CE state differs from the
    /// last one, a delayed ACK still pending goes out at once with the old state, and this
    /// segment is acknowledged at once with the new one.
    #[cold]
    #[inline(never)]
    fn on_ecn_data(&mut self, w: &mut impl Env, pkt: &Packet) {
        let ce = if pkt.ecn & Packet::ECN_MASK == Packet::CE {
            Packet::ECE
        } else {
            0
        };
        let mut now = false;
        let seg = pkt.seg as u64;
        if self.ecn == EcnMode::Dctcp {
            if ce != self.ece {
                if self.why.on {
                    let v = [seg, (ce != 0) as u64, self.delack_armed as u64];
                    self.why.push(Rule::DctcpEcho, NO_PHASE, NO_PHASE, &v);
                }
                if self.delack_armed {
                    self.any_ack(w);
                }
                self.ece = ce;
                now = true;
            }
        } else {
            let (before, cwr) = (self.ece, pkt.ecn & Packet::CWR != 0);
            if cwr {
                self.ece = 0;
            }
            self.ece |= ce;
            if self.why.on {
                if ce != 0 && (before == 0 || cwr) {
                    self.why
                        .push(Rule::EcnEchoStart, NO_PHASE, NO_PHASE, &[seg, cwr as u64]);
                } else if cwr && before != 0 {
                    self.why.push(Rule::EcnEchoStop, NO_PHASE, NO_PHASE, &[seg]);
                }
            }
        }
        if self.sack.is_some() {
            self.on_data::<true>(w, pkt);
        } else {
            self.on_data::<false>(w, pkt);
        }
        if now && self.delack_armed {
            self.any_ack(w);
        }
    }

    /// Sends an ACK now, with the SACK option if the flow has it.
    fn any_ack(&mut self, w: &mut impl Env) {
        if self.sack.is_some() {
            self.send_ack::<true>(w);
        } else {
            self.send_ack::<false>(w);
        }
    }

    /// A data segment arrived. `SACK` is the flow's SACK (a compile-time copy each, so a
    /// flow without it tests nothing per segment).
    #[inline(always)]
    fn on_data<const SACK: bool>(&mut self, w: &mut impl Env, pkt: &Packet) {
        self.data_packets += 1;
        if SACK {
            self.sack_arrival(pkt);
        }
        w.log(self.flow, EventKind::DataReceived, pkt.seq, pkt.len, pkt.seg, pkt.tx);
        w.data_arrived(self.flow, pkt.seg, pkt.tx);
        let start = pkt.seq;
        let end = start + pkt.len as u64;
        if end <= self.rcv_nxt {
            // A duplicate of data already received: acknowledge at once.
            if SACK {
                self.sack_duplicate(start, end);
            }
            self.send_ack::<SACK>(w);
        } else if start <= self.rcv_nxt {
            let had_gap = !self.ooo.is_empty();
            let before = self.rcv_nxt;
            self.rcv_nxt = end;
            // Absorb out-of-order data that is now contiguous.
            while let Some(&(s, e)) = self.ooo.front() {
                if s > self.rcv_nxt {
                    break;
                }
                self.ooo.pop_front();
                self.rcv_nxt = self.rcv_nxt.max(e);
            }
            self.delivered += self.rcv_nxt - before;
            if SACK {
                self.sack_advanced(start, before);
            }
            if had_gap || !self.delayed_ack {
                // Gap-filling data is acknowledged at once (RFC 5681 §4.2).
                self.send_ack::<SACK>(w);
            } else {
                self.pending_bytes += self.rcv_nxt - before;
                if self.pending_bytes >= 2 * self.mss {
                    // At least every second full-sized segment (RFC 5681 §4.2).
                    if self.why.on {
                        let v = [self.pending_bytes, self.mss];
                        self.why.push(Rule::DelAckSecond, NO_PHASE, NO_PHASE, &v);
                    }
                    self.send_ack::<SACK>(w);
                } else if !self.delack_armed {
                    if self.why.on {
                        let v = [self.pending_bytes, self.mss, self.delack_timeout];
                        self.why.push(Rule::DelAckHold, NO_PHASE, NO_PHASE, &v);
                    }
                    self.delack_armed = true;
                    self.delack_gen = self.delack_gen.wrapping_add(1);
                    w.schedule(
                        w.now() + self.delack_timeout,
                        Event::DelAck {
                            flow: self.flow,
                            gen: self.delack_gen,
                        },
                    );
                }
            }
        } else {
            // Above a gap: store it and send a duplicate ACK at once.
            if SACK {
                self.sack_store(start, end);
            } else {
                self.store::<false>(start, end);
            }
            self.send_ack::<SACK>(w);
        }
    }

    /// `SACK` only gives the SACK path a copy of its own (the classic one stays inlined).
    #[inline(always)]
    fn store<const SACK: bool>(&mut self, start: u64, end: u64) {
        match self.ooo.back_mut() {
            None => self.ooo.push_back((start, end)),
            // Common case: at or beyond the highest stored byte.
            Some(last) if start > last.1 => self.ooo.push_back((start, end)),
            Some(last) if start >= last.0 => last.1 = last.1.max(end),
            _ => {
                // Anywhere else: merge every range that overlaps or touches [start, end].
                let first = self.ooo.partition_point(|&(_, e)| e < start);
                let mut last = first;
                let (mut s, mut e) = (start, end);
                while let Some(&(rs, re)) = self.ooo.get(last) {
                    if rs > e {
                        break;
                    }
                    s = s.min(rs);
                    e = e.max(re);
                    last += 1;
                }
                self.ooo.drain(first..last);
                self.ooo.insert(first, (s, e));
            }
        }
    }

    /// A SACK receiver notes which copy of which segment arrived (its ACK echoes it).
    #[cold]
    #[inline(never)]
    fn sack_arrival(&mut self, pkt: &Packet) {
        let r = self.sack.as_deref_mut().expect("a SACK receiver");
        r.echo = (pkt.seq + pkt.len as u64, pkt.tx);
    }

    /// Data already acknowledged arrived again: the next ACK reports it first (D-SACK).
    #[cold]
    #[inline(never)]
    fn sack_duplicate(&mut self, start: u64, end: u64) {
        let r = self.sack.as_deref_mut().expect("a SACK receiver");
        r.dup = r.dsack.then_some((start, end));
    }

    /// The cumulative ACK advanced from `before` with data starting at `start`: the ranges
    /// it covered are no longer reported; a part already received is a duplicate.
    #[cold]
    #[inline(never)]
    fn sack_advanced(&mut self, start: u64, before: u64) {
        let nxt = self.rcv_nxt;
        let r = self.sack.as_deref_mut().expect("a SACK receiver");
        r.recent.retain(|&(_, e)| e > nxt);
        if start < before && r.dsack {
            r.dup = Some((start, before));
        }
    }

    /// Stores out-of-order data of a SACK flow: the range that holds it becomes the most
    /// recent (RFC 2018 §4: the first block reports the segment that triggered the ACK); a
    /// segment already held is a duplicate (RFC 2883 §4: reported first, its range second).
    #[cold]
    #[inline(never)]
    fn sack_store(&mut self, start: u64, end: u64) {
        let held = self.ooo.iter().any(|&(s, e)| s <= start && end <= e);
        if !held {
            self.store::<true>(start, end);
        }
        let k = self.ooo.partition_point(|&(_, e)| e < start);
        let (s, e) = self.ooo[k];
        let r = self.sack.as_deref_mut().expect("a SACK receiver");
        if held && r.dsack {
            r.dup = Some((start, end));
        }
        r.recent.retain(|&(a, b)| b < s || a > e);
        r.recent.push_front((s, e));
    }

    /// The SACK option of the next ACK: the duplicate first (D-SACK), then the ranges held,
    /// most recent first, as many as fit.
    fn sack_blocks(&mut self) -> Option<SackBlocks> {
        let r = self.sack.as_deref_mut()?;
        let mut b = SackBlocks {
            echo: r.echo,
            ..SackBlocks::default()
        };
        if let Some((l, rr)) = r.dup.take() {
            b.push(l, rr);
            b.dsack = true;
        }
        for &(l, rr) in r.recent.iter() {
            if b.n as usize >= r.max {
                break;
            }
            b.push(l, rr);
        }
        (!b.is_empty()).then_some(b)
    }

    /// The delayed-ACK timer fired.
    pub fn on_delack(&mut self, w: &mut impl Env, gen: u32) {
        if gen == self.delack_gen && self.delack_armed {
            if self.why.on {
                let v = [self.pending_bytes, self.delack_timeout];
                self.why.push(Rule::DelAckTimer, NO_PHASE, NO_PHASE, &v);
            }
            if self.sack.is_some() {
                self.send_ack::<true>(w);
            } else {
                self.send_ack::<false>(w);
            }
        }
    }

    /// `SACK`: the flow negotiated SACK (its ACKs may carry the option).
    fn send_ack<const SACK: bool>(&mut self, w: &mut impl Env) {
        self.delack_armed = false;
        self.pending_bytes = 0;
        if self.last_ack == Some(self.rcv_nxt) {
            self.dup_index += 1;
        } else {
            self.dup_index = 0;
            self.last_ack = Some(self.rcv_nxt);
        }
        self.acks_sent += 1;
        w.log(self.flow, EventKind::AckSent, self.rcv_nxt, 0, self.dup_index, 0);
        let pkt = Packet {
            flow: self.flow,
            kind: PktKind::Ack,
            seq: self.rcv_nxt,
            len: 0,
            seg: self.dup_index,
            tx: 1,
            size: self.header as u32,
            fate: Fate::Ok,
            ecn: self.ece,
        };
        if SACK {
            self.send_sack_ack(w, pkt);
        } else {
            w.transmit(self.link, pkt);
        }
    }

    /// An ACK of a SACK flow: with its option when there is a block to report.
    #[cold]
    #[inline(never)]
    fn send_sack_ack(&mut self, w: &mut impl Env, pkt: Packet) {
        match self.sack_blocks() {
            Some(b) => w.transmit_sack(self.link, pkt, b),
            None => w.transmit(self.link, pkt),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;
    use crate::tcp::testnet::{data, flow, FakeNet, MS};

    fn receiver(delayed_ack: bool) -> (Receiver, FakeNet) {
        let mut f = flow();
        f.receiver.delayed_ack = delayed_ack;
        f.receiver.delack_timeout = 0.2;
        (Receiver::new(0, 4, &f), FakeNet::default())
    }

    /// The ACKs sent so far, taken: (time, cumulative ACK, duplicate index).
    fn acks(n: &mut FakeNet) -> Vec<(Ns, u64, u32)> {
        let t: Vec<Ns> = n.sent.iter().map(|s| s.0).collect();
        n.take_sent()
            .into_iter()
            .zip(t)
            .map(|(p, t)| {
                assert_eq!((p.kind, p.size), (PktKind::Ack, 40));
                (t, p.seq, p.seg)
            })
            .collect()
    }

    fn arrive(r: &mut Receiver, n: &mut FakeNet, t: Ns, seg: u32, tx: u32) {
        n.now = t;
        r.on_packet(n, &data(seg, tx));
    }

    #[test]
    fn in_order_data_is_acknowledged_at_once_without_delayed_acks() {
        let (mut r, mut n) = receiver(false);
        arrive(&mut r, &mut n, 10 * MS, 1, 1);
        arrive(&mut r, &mut n, 11 * MS, 2, 1);
        assert_eq!(acks(&mut n), [(10 * MS, 1000, 0), (11 * MS, 2000, 0)]);
        assert_eq!(n.sent.len(), 0);
        assert_eq!((r.delivered, r.data_packets, r.acks_sent), (2000, 2, 2));
        assert_eq!(n.copies_arrived, [(1, 1), (2, 1)]);
        assert_eq!(
            n.kinds(),
            [
                EventKind::DataReceived,
                EventKind::AckSent,
                EventKind::DataReceived,
                EventKind::AckSent
            ]
        );
    }

    #[test]
    fn delayed_acks_acknowledge_every_second_full_segment_rfc5681_4_2() {
        let (mut r, mut n) = receiver(true);
        r.why.on = true;
        arrive(&mut r, &mut n, 10 * MS, 1, 1);
        assert!(acks(&mut n).is_empty(), "the first segment waits");
        let (at, gen) = n.last_delack().expect("the delayed-ACK timer");
        assert_eq!(at, 210 * MS, "200 ms after the segment");
        arrive(&mut r, &mut n, 12 * MS, 2, 1);
        assert_eq!(acks(&mut n), [(12 * MS, 2000, 0)]);
        // The timer's entry then finds nothing to acknowledge.
        n.now = at;
        r.on_delack(&mut n, gen);
        assert!(acks(&mut n).is_empty());
        let rules: Vec<Rule> = (0..r.why.log.len())
            .filter_map(|i| r.why.log.get(i, 0))
            .map(|e| e.d.rule)
            .collect();
        assert_eq!(rules, [Rule::DelAckHold, Rule::DelAckSecond]);
    }

    #[test]
    fn the_delayed_ack_timer_acknowledges_a_lone_segment() {
        let (mut r, mut n) = receiver(true);
        arrive(&mut r, &mut n, 10 * MS, 1, 1);
        let (at, gen) = n.last_delack().unwrap();
        n.now = at;
        r.on_delack(&mut n, gen);
        assert_eq!(acks(&mut n), [(210 * MS, 1000, 0)]);
        // A timer of an older generation does nothing.
        arrive(&mut r, &mut n, 300 * MS, 2, 1);
        r.on_delack(&mut n, gen);
        assert!(acks(&mut n).is_empty());
        assert_eq!(n.last_delack().map(|t| t.0), Some(500 * MS));
    }

    #[test]
    fn out_of_order_data_gets_duplicate_acks_at_once_and_the_gap_filler_an_ack_at_once() {
        let (mut r, mut n) = receiver(true);
        arrive(&mut r, &mut n, 10 * MS, 2, 1);
        arrive(&mut r, &mut n, 11 * MS, 3, 1);
        arrive(&mut r, &mut n, 12 * MS, 4, 1);
        // The first ACK of 0 is the first of its value; then duplicates 1 and 2.
        assert_eq!(acks(&mut n), [(10 * MS, 0, 0), (11 * MS, 0, 1), (12 * MS, 0, 2)]);
        assert_eq!(r.delivered, 0);
        // Segment 1 fills the gap: everything through 4 is delivered and acknowledged now,
        // delayed ACKs or not.
        arrive(&mut r, &mut n, 20 * MS, 1, 2);
        assert_eq!(acks(&mut n), [(20 * MS, 4000, 0)]);
        assert_eq!(r.delivered, 4000);
        assert!(n.timers.is_empty(), "no delayed-ACK timer was set");
    }

    #[test]
    fn a_duplicate_segment_is_acknowledged_at_once() {
        let (mut r, mut n) = receiver(true);
        arrive(&mut r, &mut n, 10 * MS, 1, 1);
        arrive(&mut r, &mut n, 11 * MS, 2, 1);
        acks(&mut n);
        arrive(&mut r, &mut n, 30 * MS, 1, 2);
        assert_eq!(acks(&mut n), [(30 * MS, 2000, 1)]);
        assert_eq!(r.delivered, 2000);
        assert_eq!(n.copies_arrived.last(), Some(&(1, 2)));
    }

    #[test]
    fn each_syn_gets_a_syn_ack() {
        let (mut r, mut n) = receiver(false);
        let syn = Packet {
            kind: PktKind::Syn,
            len: 0,
            seq: 0,
            seg: 0,
            size: 40,
            ..data(1, 1)
        };
        r.on_packet(&mut n, &syn);
        r.on_packet(&mut n, &Packet { tx: 2, ..syn });
        let got: Vec<(u32, PktKind, u32, u32)> = n.sent.iter().map(|&(_, l, p)| (l, p.kind, p.seg, p.size)).collect();
        assert_eq!(got, [(4, PktKind::SynAck, 1, 40), (4, PktKind::SynAck, 2, 40)]);
    }

    /// An ACK as the SACK tests read it: (cumulative ACK, D-SACK, blocks).
    type SackAck = (u64, bool, Vec<(u64, u64)>);

    /// The SACK blocks of the ACKs sent so far, taken.
    fn sack_acks(n: &mut FakeNet) -> Vec<SackAck> {
        let sacks = n.sacks.clone();
        n.take_sent()
            .into_iter()
            .map(|p| match p.sack_handle() {
                0 => (p.seq, false, vec![]),
                h => {
                    let b = sacks[h as usize - 1];
                    (p.seq, b.dsack, b.iter().collect())
                }
            })
            .collect()
    }

    #[test]
    fn sack_blocks_come_most_recent_first_and_a_duplicate_first_of_all_rfc2018_rfc2883() {
        let mut f = flow();
        f.sack.enabled = true;
        let (mut r, mut n) = (Receiver::new(0, 4, &f), FakeNet::default());
        // Segments of 1000 B: 1 arrives, 2 and 4 are missing, 3, 5 and 6 arrive.
        for (t, seg) in [(1, 1), (2, 3), (3, 5), (4, 6)] {
            arrive(&mut r, &mut n, t * MS, seg, 1);
        }
        let k = 1000;
        assert_eq!(
            sack_acks(&mut n),
            vec![
                (k, false, vec![]),
                (k, false, vec![(2 * k, 3 * k)]),
                (k, false, vec![(4 * k, 5 * k), (2 * k, 3 * k)]),
                // 6 joins 5's block, which stays first (it holds the latest segment).
                (k, false, vec![(4 * k, 6 * k), (2 * k, 3 * k)]),
            ]
        );
        // 3 again: reported first as a D-SACK, then its own block (now the most recent).
        arrive(&mut r, &mut n, 5 * MS, 3, 2);
        assert_eq!(
            sack_acks(&mut n),
            vec![(k, true, vec![(2 * k, 3 * k), (2 * k, 3 * k), (4 * k, 6 * k)])]
        );
        // 2 fills the first hole: the cumulative ACK takes in 3; only 5–6 is reported.
        arrive(&mut r, &mut n, 6 * MS, 2, 2);
        assert_eq!(sack_acks(&mut n), vec![(3 * k, false, vec![(4 * k, 6 * k)])]);
        // 1 again, below the cumulative ACK: a D-SACK of it, then 5–6.
        arrive(&mut r, &mut n, 7 * MS, 1, 2);
        assert_eq!(sack_acks(&mut n), vec![(3 * k, true, vec![(0, k), (4 * k, 6 * k)])]);
        // At most `blocks` blocks (3): four holes' worth of ranges report the newest three.
        for (t, seg) in [(8, 8), (9, 10), (10, 12)] {
            arrive(&mut r, &mut n, t * MS, seg, 1);
        }
        let last = sack_acks(&mut n).pop().unwrap();
        assert_eq!(last.2, vec![(11 * k, 12 * k), (9 * k, 10 * k), (7 * k, 8 * k)]);
    }

    #[test]
    fn out_of_order_ranges_merge_in_any_arrival_order() {
        let mut r = Receiver::new(0, 0, &Scenario::default().flows[0]);
        for (a, b) in [
            (50, 60),
            (70, 80),
            (30, 40),
            (60, 65),
            (75, 90),
            (10, 20),
            (20, 30),
            (100, 110),
            (0, 5),
        ] {
            r.store::<false>(a, b);
        }
        let got: Vec<(u64, u64)> = r.ooo.iter().copied().collect();
        assert_eq!(got, vec![(0, 5), (10, 40), (50, 65), (70, 90), (100, 110)]);
        r.store::<false>(4, 100);
        assert_eq!(r.ooo.iter().copied().collect::<Vec<_>>(), vec![(0, 110)]);
    }
}

#[cfg(test)]
mod ecn_tests {
    use super::*;
    use crate::tcp::testnet::{data, flow, FakeNet};

    fn receiver(mode: EcnMode, delayed_ack: bool) -> (Receiver, FakeNet) {
        let mut f = flow();
        f.ecn = mode;
        f.receiver.delayed_ack = delayed_ack;
        f.receiver.delack_timeout = 0.2;
        (Receiver::new(0, 4, &f), FakeNet::default())
    }

    /// Data segment `seg` with ECN bits `ecn`; returns the ACKs it caused as (ack, ECE).
    fn arrive(r: &mut Receiver, n: &mut FakeNet, seg: u32, ecn: u8) -> Vec<(u64, bool)> {
        r.on_packet(n, &Packet { ecn, ..data(seg, 1) });
        n.take_sent()
            .iter()
            .map(|p| (p.seq, p.ecn & Packet::ECE != 0))
            .collect()
    }

    #[test]
    fn a_ce_segment_is_echoed_on_every_ack_until_cwr_rfc3168_6_1_3() {
        let (mut r, mut n) = receiver(EcnMode::Rfc3168, false);
        let (ect, ce, cwr) = (Packet::ECT0, Packet::CE, Packet::ECT0 | Packet::CWR);
        assert_eq!(arrive(&mut r, &mut n, 1, ect), [(1000, false)]);
        assert_eq!(arrive(&mut r, &mut n, 2, ce), [(2000, true)]);
        assert_eq!(arrive(&mut r, &mut n, 3, ect), [(3000, true)]);
        assert_eq!(arrive(&mut r, &mut n, 4, cwr), [(4000, false)]);
        assert_eq!(arrive(&mut r, &mut n, 5, ect), [(5000, false)]);
    }

    /// The rules the receiver explained, with their segments.
    fn explained(r: &Receiver) -> Vec<(Rule, u64)> {
        (0..r.why.log.len())
            .filter_map(|i| r.why.log.get(i, 0))
            .map(|e| (e.d.rule, e.d.values[0]))
            .collect()
    }

    #[test]
    fn the_echo_starts_at_a_ce_segment_and_stops_at_cwr_and_says_so() {
        let (mut r, mut n) = receiver(EcnMode::Rfc3168, false);
        r.why.on = true;
        let (ect, ce, cwr) = (Packet::ECT0, Packet::CE, Packet::ECT0 | Packet::CWR);
        arrive(&mut r, &mut n, 1, ect);
        arrive(&mut r, &mut n, 2, ce);
        // A second CE while echoing continues the echo: nothing new to explain.
        arrive(&mut r, &mut n, 3, ce);
        arrive(&mut r, &mut n, 4, cwr);
        arrive(&mut r, &mut n, 5, ect);
        // CWR and CE on one segment: the old echo ends and a new one starts.
        arrive(&mut r, &mut n, 6, ce);
        assert_eq!(arrive(&mut r, &mut n, 7, Packet::CE | Packet::CWR), [(7000, true)]);
        assert_eq!(
            explained(&r),
            [
                (Rule::EcnEchoStart, 2),
                (Rule::EcnEchoStop, 4),
                (Rule::EcnEchoStart, 6),
                (Rule::EcnEchoStart, 7)
            ]
        );
    }

    #[test]
    fn dctcp_explains_each_change_of_the_ce_state() {
        let (mut r, mut n) = receiver(EcnMode::Dctcp, true);
        r.why.on = true;
        let (ect, ce) = (Packet::ECT0, Packet::CE);
        for (seg, bits) in [(1, ect), (2, ce), (3, ce), (4, ect), (5, ect)] {
            arrive(&mut r, &mut n, seg, bits);
        }
        let echo: Vec<_> = explained(&r).into_iter().filter(|e| e.0 == Rule::DctcpEcho).collect();
        assert_eq!(echo, [(Rule::DctcpEcho, 2), (Rule::DctcpEcho, 4)]);
    }

    #[test]
    fn the_syn_ack_accepts_an_ecn_setup_syn_with_ece_alone() {
        let mut f = flow();
        f.ecn = EcnMode::Rfc3168;
        f.tcp.syn = true;
        let (mut r, mut n) = (Receiver::new(0, 4, &f), FakeNet::default());
        let syn = Packet {
            kind: PktKind::Syn,
            ecn: Packet::ECE | Packet::CWR,
            ..data(1, 1)
        };
        r.on_packet(&mut n, &syn);
        assert_eq!(n.take_sent()[0].ecn, Packet::ECE);
        // A SYN without the offer: no ECN, and CE is not echoed.
        let (mut r, mut n) = (Receiver::new(0, 4, &f), FakeNet::default());
        r.on_packet(&mut n, &Packet { ecn: 0, ..syn });
        assert_eq!(n.take_sent()[0].ecn, 0);
        assert_eq!(arrive(&mut r, &mut n, 1, Packet::CE), [(1000, false)]);
    }

    #[test]
    fn dctcp_echoes_the_ce_state_exactly_with_an_ack_at_each_change_rfc8257_3_2() {
        let (mut r, mut n) = receiver(EcnMode::Dctcp, true);
        let (ect, ce) = (Packet::ECT0, Packet::CE);
        // Segment 1 waits for its delayed ACK; 2 is CE: the pending ACK leaves with the
        // old state, and 2 is acknowledged at once with the new one.
        assert_eq!(arrive(&mut r, &mut n, 1, ect), []);
        assert_eq!(arrive(&mut r, &mut n, 2, ce), [(1000, false), (2000, true)]);
        // 3 CE: no change, delayed; 4 not CE: 3's ACK with ECE, 4's without.
        assert_eq!(arrive(&mut r, &mut n, 3, ce), []);
        assert_eq!(arrive(&mut r, &mut n, 4, ect), [(3000, true), (4000, false)]);
        assert_eq!(arrive(&mut r, &mut n, 5, ect), []);
        assert_eq!(arrive(&mut r, &mut n, 6, ect), [(6000, false)]);
    }
}
