//! Packet capture: the packets that pass one point of the network, as a `tcpdump` there
//! would see them, for the pcap export (`export::pcap`).
//!
//! Capture points, each on every flow at once:
//! - `sender`: at the senders' network interfaces: what a sender puts on its access link
//!   (data, SYN), at the instant it hands it over, and what reaches it (ACKs, SYN-ACKs), at
//!   the instant it arrives. What is lost on the way never shows here.
//! - `receiver`: the same at the receivers.
//! - `bottleneck`: at the routers' bottleneck interfaces: every packet as its transmission
//!   onto the bottleneck starts (data at R1, ACKs at R2), cross traffic included. What the
//!   queue drops never starts, so a capture here has the gaps a lost segment leaves; a
//!   packet corrupted on the bottleneck itself is captured (it is lost later, on the wire).
//!
//! Records are pushed as the simulation decides them; a bottleneck record may be dated
//! ahead of the clock (a link's whole future is known when a packet enters it, see
//! `net.rs`), but never before it, so [`Capture::take_until`] returns every record dated at
//! or before the clock in time order, and the rest later. Capture is off unless asked for:
//! a run without it pays one untaken branch per packet.

use crate::net::{Packet, PktKind};
use crate::time::Ns;

/// Where packets are captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CapturePoint {
    /// At the senders.
    Sender,
    /// At the receivers.
    Receiver,
    /// At the bottleneck's two interfaces.
    Bottleneck,
}

impl CapturePoint {
    /// Every point, the default first.
    pub const ALL: [CapturePoint; 3] = [CapturePoint::Sender, CapturePoint::Receiver, CapturePoint::Bottleneck];

    /// Name in options and links.
    pub fn name(self) -> &'static str {
        match self {
            CapturePoint::Sender => "sender",
            CapturePoint::Receiver => "receiver",
            CapturePoint::Bottleneck => "bottleneck",
        }
    }

    /// One line for menus and `--help`.
    pub fn description(self) -> &'static str {
        match self {
            CapturePoint::Sender => {
                "at the senders: every transmission as it leaves, every ACK that arrives (tcpdump on the sending host)"
            }
            CapturePoint::Receiver => {
                "at the receivers: every segment that arrives, every ACK as it leaves (tcpdump on the receiving host)"
            }
            CapturePoint::Bottleneck => {
                "at the bottleneck: each packet as its transmission starts, after the queue (what the queue drops is missing); cross traffic included"
            }
        }
    }

    /// The point named `s`.
    pub fn parse(s: &str) -> Option<CapturePoint> {
        CapturePoint::ALL.into_iter().find(|p| p.name() == s)
    }
}

/// One captured packet.
#[derive(Clone, Copy, Debug)]
pub struct Captured {
    /// When it passed the capture point.
    pub t: Ns,
    /// The packet (flow, kind, sequence or acknowledgment number, payload, wire size).
    pub pkt: Packet,
}

/// The capture of a running simulation.
#[derive(Clone, Debug)]
pub struct Capture {
    /// Where.
    pub point: CapturePoint,
    /// Records not yet taken, with the order they were pushed in (ties keep it).
    pending: Vec<(Ns, u64, Packet)>,
    pushed: u64,
}

impl Capture {
    /// An empty capture at `point`.
    pub fn new(point: CapturePoint) -> Capture {
        Capture {
            point,
            pending: Vec::new(),
            pushed: 0,
        }
    }

    /// Records a packet passing the point at `t` (never before the clock).
    pub fn push(&mut self, t: Ns, pkt: Packet) {
        self.pending.push((t, self.pushed, pkt));
        self.pushed += 1;
    }

    /// An endpoint handed `pkt` to its first link at `now`: captured at the sender (data,
    /// SYN) or the receiver (ACK, SYN-ACK). Cross traffic passes neither.
    #[inline]
    pub fn sent(&mut self, now: Ns, pkt: &Packet) {
        let at = match pkt.kind {
            PktKind::Data | PktKind::Syn => CapturePoint::Sender,
            PktKind::Ack | PktKind::SynAck => CapturePoint::Receiver,
            PktKind::Udp => return,
        };
        if self.point == at {
            self.push(now, *pkt);
        }
    }

    /// `pkt` reached its endpoint at `now`: captured at the receiver (data, SYN) or the
    /// sender (ACK, SYN-ACK).
    #[inline]
    pub fn arrived(&mut self, now: Ns, pkt: &Packet) {
        let at = match pkt.kind {
            PktKind::Data | PktKind::Syn => CapturePoint::Receiver,
            PktKind::Ack | PktKind::SynAck => CapturePoint::Sender,
            PktKind::Udp => return,
        };
        if self.point == at {
            self.push(now, *pkt);
        }
    }

    /// `pkt`'s transmission onto the bottleneck (either direction) starts at `t`.
    #[inline]
    pub fn bottleneck(&mut self, t: Ns, pkt: &Packet) {
        if self.point == CapturePoint::Bottleneck {
            self.push(t, *pkt);
        }
    }

    /// Packets captured so far.
    pub fn count(&self) -> u64 {
        self.pushed
    }

    /// The records dated at or before `now`, in time order (pushed order within an
    /// instant). Nothing pushed later can be dated before `now`.
    pub fn take_until(&mut self, now: Ns) -> Vec<Captured> {
        // Nearly sorted already (only bottleneck records run ahead): the stable sort is
        // close to linear.
        self.pending.sort_by_key(|&(t, n, _)| (t, n));
        let split = self.pending.partition_point(|&(t, _, _)| t <= now);
        let rest = self.pending.split_off(split);
        let taken = std::mem::replace(&mut self.pending, rest);
        taken.into_iter().map(|(t, _, pkt)| Captured { t, pkt }).collect()
    }

    /// Every record left, in time order (the end of the run).
    pub fn take_all(&mut self) -> Vec<Captured> {
        self.take_until(Ns::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::Fate;

    fn pkt(seq: u64) -> Packet {
        Packet {
            flow: 0,
            kind: PktKind::Data,
            seq,
            len: 1,
            seg: 1,
            tx: 1,
            size: 41,
            fate: Fate::Ok,
        }
    }

    #[test]
    fn records_come_out_in_time_order_and_only_once_the_clock_has_passed_them() {
        let mut c = Capture::new(CapturePoint::Bottleneck);
        c.push(30, pkt(1));
        c.push(10, pkt(2));
        c.push(10, pkt(3));
        c.push(20, pkt(4));
        let first: Vec<(Ns, u64)> = c.take_until(15).iter().map(|r| (r.t, r.pkt.seq)).collect();
        assert_eq!(first, vec![(10, 2), (10, 3)]);
        c.push(25, pkt(5));
        let rest: Vec<(Ns, u64)> = c.take_all().iter().map(|r| (r.t, r.pkt.seq)).collect();
        assert_eq!(rest, vec![(20, 4), (25, 5), (30, 1)]);
        assert_eq!(c.count(), 5);
    }

    #[test]
    fn points_are_named_once() {
        for p in CapturePoint::ALL {
            assert_eq!(CapturePoint::parse(p.name()), Some(p));
        }
        assert_eq!(CapturePoint::parse("router"), None);
    }
}
