//! A fake connection for testing a recovery mechanism alone: [`Conn`] over a list of
//! outstanding segments, a controller and a clock, recording what the mechanism sent and
//! logged. Nothing of the sender or the simulation is involved.

use super::{Conn, Count, Sent};
use crate::scenario::{FlowCfg, Scenario};
use crate::tcp::cc::{Cc, Flight};
use crate::time::Ns;
use crate::trace::EventKind;

/// The fake connection.
pub(crate) struct FakeConn {
    pub now: Ns,
    pub una: u64,
    /// Outstanding segments from snd.una: (seq, len, no, tx).
    pub segs: Vec<Sent>,
    /// Bytes the application has handed over beyond what was sent.
    pub waiting: u64,
    pub mss: u64,
    pub cc: Cc,
    pub srtt: Ns,
    /// What the mechanism sent, in order.
    pub sent: Vec<Sent>,
    pub log: Vec<(EventKind, u64, u32, u32, u32)>,
    pub wakes: Vec<(Ns, u32)>,
    pub counts: Vec<Count>,
    pub rto_restarts: u32,
}

/// A flow as the fake uses it: 1 000-byte segments with 40 bytes of headers, IW 2.
pub(crate) fn flow() -> FlowCfg {
    let mut f = Scenario::default().flows[0].clone();
    f.tcp.mss = 1000;
    f.tcp.header = 40;
    f.tcp.initial_window = 2;
    f.sack.enabled = true;
    f
}

impl FakeConn {
    /// A connection of `f` with `n` segments of `mss` bytes written and none sent, and the
    /// controller's window at `cwnd` segments (its initial window).
    pub(crate) fn with_written(f: &FlowCfg, n: u32, cwnd: u64) -> FakeConn {
        let mut f = f.clone();
        f.tcp.initial_window = cwnd;
        let mss = f.tcp.mss;
        let cc = Cc::for_flow(&f, 1_000_000);
        FakeConn {
            now: 0,
            una: 0,
            segs: Vec::new(),
            waiting: n as u64 * mss,
            mss,
            cc,
            srtt: 100_000_000,
            sent: Vec::new(),
            log: Vec::new(),
            wakes: Vec::new(),
            counts: Vec::new(),
            rto_restarts: 0,
        }
    }

    /// The numbers of the segments sent, with their transmission counts.
    pub(crate) fn sent_nos(&self) -> Vec<(u32, u32)> {
        self.sent.iter().map(|s| (s.no, s.tx)).collect()
    }
}

impl Conn for FakeConn {
    fn now(&self) -> Ns {
        self.now
    }
    fn log(&mut self, kind: EventKind, seq: u64, len: u32, seg: u32, tx: u32) {
        self.log.push((kind, seq, len, seg, tx));
    }
    fn wake(&mut self, at: Ns, gen: u32) {
        self.wakes.push((at, gen));
    }
    fn una(&self) -> u64 {
        self.una
    }
    fn max(&self) -> u64 {
        self.segs.last().map_or(self.una, |s| s.seq + s.len as u64)
    }
    fn flight(&self) -> Flight {
        Flight {
            bytes: self.max() - self.una,
            segs: self.segs.len() as u64,
        }
    }
    fn outstanding(&self) -> usize {
        self.segs.len()
    }
    fn next_seg_no(&self) -> u32 {
        self.segs.last().map_or(1, |s| s.no + 1)
    }
    fn new_len(&self) -> u64 {
        self.waiting.min(self.mss)
    }
    fn new_waits(&self) -> bool {
        self.waiting > 0
    }
    fn nagle_held(&self) -> Option<(u64, u64)> {
        None
    }
    fn mss(&self) -> u64 {
        self.mss
    }
    fn header(&self) -> u64 {
        40
    }
    fn srtt(&self) -> Ns {
        self.srtt
    }
    fn rto_deadline(&self) -> Option<Ns> {
        None
    }
    fn cc(&self) -> &Cc {
        &self.cc
    }
    fn cc_mut(&mut self) -> &mut Cc {
        &mut self.cc
    }
    fn send_new(&mut self, len: u64) -> Sent {
        let s = Sent {
            seq: self.max(),
            len: len as u32,
            no: self.next_seg_no(),
            tx: 1,
        };
        self.waiting -= len;
        self.segs.push(s);
        self.sent.push(s);
        s
    }
    fn resend(&mut self, i: usize) -> Sent {
        self.segs[i].tx += 1;
        self.sent.push(self.segs[i]);
        self.segs[i]
    }
    fn new_ack(&mut self, ack: u64) {
        self.segs.retain(|s| s.seq + s.len as u64 > ack);
        self.una = ack;
    }
    fn count(&mut self, c: Count) {
        self.counts.push(c);
    }
    fn restart_rto(&mut self) {
        self.rto_restarts += 1;
    }
    fn forget_timing(&mut self, _: u32) {}
    fn trace_changes(&mut self) {}
    fn before_send(&mut self) {}
    fn pacing_wait(&mut self) -> bool {
        false
    }
    fn defer_pass(&mut self) {}
    fn pass_limit(&self) -> u32 {
        4096
    }
    fn out_of_data(&self) -> bool {
        self.waiting < self.mss
    }
    fn pass_end(&mut self, _: bool) {}
}
