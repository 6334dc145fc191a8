//! The sender's ECN path (RFC 3168 §6.1), taken only by a flow with ECN in force: the
//! sender tests one flag per ACK and per data segment, so a flow without ECN pays that
//! test and nothing else. What the bits mean and what the answer is are the controller's
//! (`Cc::data_ecn`, `Cc::on_ecn_ack` in `tcp/cc/ecn`); the sender carries the bits, logs the
//! rows and processes the ACK as any other first.

use super::{Seg, Sender};
use crate::net::AckOptions;
use crate::net::Packet;
use crate::tcp::cc::EcnAnswer;
use crate::tcp::env::Env;
use crate::trace::EventKind;

impl Sender {
    /// A segment of a paced or ECN flow leaves: the pacing bookkeeping, and its ECN bits.
    #[cold]
    #[inline(never)]
    pub(super) fn cold_send(&mut self, w: &mut impl Env, seg: Seg, retx: bool) -> u8 {
        if self.paced {
            self.paced_send(w, seg, retx);
        }
        if self.ecn {
            self.data_ecn(w, seg)
        } else {
            0
        }
    }

    /// The ECN bits of a data segment of an ECN flow; a `cwr` row when it carries CWR.
    #[cold]
    #[inline(never)]
    pub(super) fn data_ecn(&mut self, w: &mut impl Env, seg: Seg) -> u8 {
        let bits = self.cc.data_ecn(seg.tx > 1);
        if bits & Packet::CWR != 0 {
            w.log(self.flow, EventKind::Cwr, seg.seq, seg.len, seg.no, seg.tx);
        }
        bits
    }

    /// An ACK of a flow with a recovery mechanism or ECN in force (one flag test in
    /// [`Sender::on_ack`] for both).
    #[cold]
    #[inline(never)]
    pub(super) fn on_ack_extras(&mut self, w: &mut impl Env, pkt: &Packet) {
        if self.recovery.is_some() {
            return self.on_ack_with_options(w, pkt, None);
        }
        if pkt.kind == crate::net::PktKind::SynAck {
            return self.on_syn_ack(w, pkt.ecn);
        }
        if self.state == super::ConnState::Established {
            self.on_ecn_ack(w, pkt, None);
        }
    }

    /// An ACK of an ECN flow: processed as any ACK (with the recovery mechanism's options
    /// when the flow has one), then handed to the controller with its ECE flag, the flight
    /// and window it found and the bytes it acknowledged.
    #[cold]
    #[inline(never)]
    pub(super) fn on_ecn_ack(&mut self, w: &mut impl Env, pkt: &Packet, blocks: Option<&AckOptions>) {
        let ack = pkt.seq;
        self.cc.set_now(w.now());
        w.log(self.flow, EventKind::AckReceived, ack, 0, pkt.seg, 0);
        let (before, una0, cwnd0) = (self.flight(), self.snd_una, self.cc.cwnd());
        if self.recovery.is_some() {
            self.recovery_ack(w, ack, blocks);
        } else if ack > self.snd_una && ack <= self.snd_max {
            self.on_new_ack::<true>(w, ack);
        } else if ack == self.snd_una && self.snd_max > self.snd_una {
            self.on_dupack(w, ack);
        }
        let ece = pkt.ecn & Packet::ECE != 0;
        let acked = self.snd_una - una0;
        let answer = self
            .cc
            .on_ecn_ack(ece, before, cwnd0, acked, self.snd_una, self.snd_max);
        if ece {
            let reduced = (answer == EcnAnswer::Reduced) as u32;
            w.log(self.flow, EventKind::EcnEcho, ack, 0, reduced, 0);
        }
        self.trace_changes(w);
        self.send_loop(w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{EcnMode, FlowCfg};
    use crate::tcp::testnet::{ack, flow, syn_ack, FakeNet, MS};

    fn ecn_flow(mode: EcnMode) -> FlowCfg {
        let mut f = flow();
        f.ecn = mode;
        f
    }

    /// An ACK for `a`, with ECE when `ece`.
    fn ack_ece(s: &mut Sender, n: &mut FakeNet, t: u64, a: u64, ece: bool) {
        n.now = t;
        let mut p = ack(a, 0);
        p.ecn = if ece { Packet::ECE } else { 0 };
        s.on_ack(n, &p);
    }

    #[test]
    fn the_syn_offers_ecn_and_an_ece_syn_ack_accepts_it_rfc3168_6_1_1() {
        let mut f = ecn_flow(EcnMode::Rfc3168);
        f.tcp.syn = true;
        let mut s = Sender::new(0, 2, &f);
        s.app_written = 10_000;
        let mut n = FakeNet::default();
        s.start(&mut n);
        let syn = n.take_sent();
        assert_eq!(syn[0].ecn, Packet::ECE | Packet::CWR);
        let mut sa = syn_ack();
        sa.ecn = Packet::ECE;
        n.now = 100 * MS;
        s.on_ack(&mut n, &sa);
        // Accepted: new data is ECT(0).
        assert!(n.take_sent().iter().all(|p| p.ecn == Packet::ECT0));
        // A SYN-ACK without ECE leaves the flow Not-ECT.
        let mut s = Sender::new(0, 2, &f);
        s.app_written = 10_000;
        let mut n = FakeNet::default();
        s.start(&mut n);
        n.now = 100 * MS;
        s.on_ack(&mut n, &syn_ack());
        let sent = n.take_sent();
        assert!(sent.len() > 1 && sent[1..].iter().all(|p| p.ecn == 0));
        // A flow without ECN offers nothing.
        let mut f = flow();
        f.tcp.syn = true;
        let mut s = Sender::new(0, 2, &f);
        let mut n = FakeNet::default();
        s.start(&mut n);
        assert_eq!(n.take_sent()[0].ecn, 0);
    }

    #[test]
    fn one_echo_reduces_once_per_window_without_a_retransmission_and_cwr_follows() {
        // SMSS 1000, IW 2, NewReno (ssthresh = max(FlightSize/2, 2·SMSS)), no SYN.
        let (mut s, mut n) = (Sender::new(0, 2, &ecn_flow(EcnMode::Rfc3168)), FakeNet::default());
        s.app_written = 1_000_000;
        s.start(&mut n);
        for (i, a) in [1000, 2000, 3000, 4000].into_iter().enumerate() {
            ack_ece(&mut s, &mut n, (i as u64 + 1) * 10 * MS, a, false);
        }
        // Slow start: cwnd 6000, segments 1–10 sent, 4000 acknowledged: flight 6000.
        assert_eq!((s.cc.cwnd(), s.snd_una, s.snd_max), (6000, 4000, 10_000));
        assert!(n.take_sent().iter().all(|p| p.ecn == Packet::ECT0));
        // The first ECE: no growth from it; ssthresh = 6000/2 = 3000, cwnd = 3000;
        // high = snd_max = 10 000. Flight 5000 > 3000: nothing is sent.
        ack_ece(&mut s, &mut n, 50 * MS, 5000, true);
        assert_eq!((s.cc.cwnd(), s.cc.ssthresh()), (3000, 3000));
        assert!(n.take_sent().is_empty());
        // Further echoes of the same window (ACKs up to high = 10 000, the last one an
        // echo that crossed the CWR segment) neither reduce nor grow.
        for (k, a) in [6000, 7000, 8000, 9000, 10_000].into_iter().enumerate() {
            ack_ece(&mut s, &mut n, (60 + 10 * k as u64) * MS, a, true);
            assert_eq!((s.cc.cwnd(), s.cc.ssthresh()), (3000, 3000), "ACK {a}");
        }
        let echoes: Vec<u32> = n
            .log
            .iter()
            .filter(|r| r.1 == EventKind::EcnEcho)
            .map(|r| r.4)
            .collect();
        assert_eq!(echoes, [1, 0, 0, 0, 0, 0]);
        // CWR on the first new segment after the reduction (segment 11, at ACK 8000),
        // ECT(0) on the rest; nothing resent.
        let sent = n.take_sent();
        assert_eq!(sent[0].seg, 11);
        assert_eq!(sent[0].ecn, Packet::ECT0 | Packet::CWR);
        assert!(sent[1..].iter().all(|p| p.ecn == Packet::ECT0));
        assert_eq!(n.log.iter().filter(|r| r.1 == EventKind::Cwr).count(), 1);
        assert_eq!(s.stats.retransmits, 0);
        assert_eq!(s.cc.ecn_reductions(), 1);
        // A mark past high is a new window's: the second reduction, from flight 3000:
        // ssthresh = max(1500, 2000) = 2000.
        ack_ece(&mut s, &mut n, 120 * MS, 11_000, true);
        assert_eq!((s.cc.cwnd(), s.cc.ssthresh(), s.cc.ecn_reductions()), (2000, 2000, 2));
    }

    #[test]
    fn dctcp_cuts_by_alpha_over_two_with_alpha_starting_at_one() {
        let (mut s, mut n) = (Sender::new(0, 2, &ecn_flow(EcnMode::Dctcp)), FakeNet::default());
        s.app_written = 1_000_000;
        s.start(&mut n);
        // The first ACK ends DCTCP's first (empty) window: F = 0, α = 1024 − 64 = 960.
        ack_ece(&mut s, &mut n, 10 * MS, 1000, false);
        assert_eq!(s.cc.dctcp_alpha(), Some(960));
        // Windows end at snd_max when the last ended: ACK 2000 (α = 960 − 60 = 900) and
        // ACK 4000 (α = 900 − 56 = 844); the next ends at 8000.
        for (i, a) in [2000, 3000, 4000].into_iter().enumerate() {
            ack_ece(&mut s, &mut n, (i as u64 + 2) * 10 * MS, a, false);
        }
        assert_eq!((s.cc.cwnd(), s.cc.dctcp_alpha()), (6000, Some(844)));
        // The first ECE: cwnd·(1 − α/2) = 6000 − ⌊6000·844/2048⌋ = 6000 − 2472 = 3528.
        ack_ece(&mut s, &mut n, 50 * MS, 5000, true);
        assert_eq!((s.cc.cwnd(), s.cc.ssthresh()), (3528, 3528));
        // The window [4000, 8000) ends at ACK 8000 with 4000 B acked, 3000 B of it with
        // ECE (ACKs 5000, 6000, 7000): α = 844 − 52 + ⌊(3000 << 6)/4000⌋ = 792 + 48 = 840.
        for a in [6000, 7000] {
            ack_ece(&mut s, &mut n, 60 * MS, a, true);
        }
        ack_ece(&mut s, &mut n, 80 * MS, 8000, false);
        assert_eq!(s.cc.dctcp_alpha(), Some(840));
        assert_eq!(s.cc.ecn_reductions(), 1);
        assert_eq!(s.stats.retransmits, 0);
    }
}
