//! Packet capture: the packets that pass one point of the network, as a `tcpdump` there
//! would see them, for the pcap export (`export::pcap`).
//!
//! Capture points, each on every flow at once, where tcpdump on a host or router would
//! stand (it sees a packet leave when the interface starts sending it, after the
//! interface's queue, and arrive when it has been received):
//! - `sender`: at the senders' network interfaces: each segment (data, SYN) as its
//!   transmission onto the sender's access link starts, and each ACK (SYN-ACK) as it
//!   arrives. What the access link's queue drops, or the path loses, never shows here.
//! - `receiver`: the same at the receivers: each segment as it arrives, each ACK as its
//!   transmission onto the receiver's access link starts.
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

use crate::net::sack::{SackBlocks, SackStore};
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
                "at the senders (tcpdump on the sending host): each segment as its transmission onto the sender's link starts, each ACK as it arrives"
            }
            CapturePoint::Receiver => {
                "at the receivers (tcpdump on the receiving host): each segment as it arrives, each ACK as its transmission starts"
            }
            CapturePoint::Bottleneck => {
                "at the bottleneck router (both directions, cross traffic included): each packet as its transmission starts, after the queue (what the queue drops is missing)"
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
    /// An ACK's SACK option (empty when it carries none).
    pub sack: SackBlocks,
}

/// The capture of a running simulation.
#[derive(Clone, Debug)]
pub struct Capture {
    /// Where.
    pub point: CapturePoint,
    /// Records not yet taken, with the order they were pushed in (ties keep it).
    pending: Vec<(Ns, u64, Packet, SackBlocks)>,
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
    pub fn push(&mut self, t: Ns, pkt: Packet, sack: Option<&SackBlocks>) {
        self.pending
            .push((t, self.pushed, pkt, sack.copied().unwrap_or_default()));
        self.pushed += 1;
    }

    /// `pkt`'s transmission onto link `link` starts at `t`: captured if that link is the
    /// point's (the bottleneck either way; a sender's access link for its data and SYNs; a
    /// receiver's access link for its ACKs and SYN-ACKs).
    #[cold]
    #[inline(never)]
    pub fn starts(&mut self, link: u32, t: Ns, pkt: &Packet, sacks: &SackStore) {
        let mine = match self.point {
            CapturePoint::Bottleneck => link < 2,
            CapturePoint::Sender => {
                matches!(pkt.kind, PktKind::Data | PktKind::Syn) && link == crate::net::flow_base(pkt.flow)
            }
            CapturePoint::Receiver => {
                matches!(pkt.kind, PktKind::Ack | PktKind::SynAck) && link == crate::net::flow_base(pkt.flow) + 2
            }
        };
        if mine {
            self.push(t, *pkt, sacks.get(pkt.sack_handle()));
        }
    }

    /// `pkt` reached its endpoint at `now`: captured at the receiver (data, SYN) or the
    /// sender (ACK, SYN-ACK).
    #[inline]
    pub fn arrived(&mut self, now: Ns, pkt: &Packet, sacks: &SackStore) {
        let at = match pkt.kind {
            PktKind::Data | PktKind::Syn => CapturePoint::Receiver,
            PktKind::Ack | PktKind::SynAck => CapturePoint::Sender,
            PktKind::Udp => return,
        };
        if self.point == at {
            self.push(now, *pkt, sacks.get(pkt.sack_handle()));
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
        self.pending.sort_by_key(|&(t, n, _, _)| (t, n));
        let split = self.pending.partition_point(|&(t, _, _, _)| t <= now);
        let rest = self.pending.split_off(split);
        let taken = std::mem::replace(&mut self.pending, rest);
        taken
            .into_iter()
            .map(|(t, _, pkt, sack)| Captured { t, pkt, sack })
            .collect()
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
            ecn: 0,
        }
    }

    #[test]
    fn records_come_out_in_time_order_and_only_once_the_clock_has_passed_them() {
        let mut c = Capture::new(CapturePoint::Bottleneck);
        c.push(30, pkt(1), None);
        c.push(10, pkt(2), None);
        c.push(10, pkt(3), None);
        c.push(20, pkt(4), None);
        let first: Vec<(Ns, u64)> = c.take_until(15).iter().map(|r| (r.t, r.pkt.seq)).collect();
        assert_eq!(first, vec![(10, 2), (10, 3)]);
        c.push(25, pkt(5), None);
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
