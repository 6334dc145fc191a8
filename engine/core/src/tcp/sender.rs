//! The TCP sender: sequence space, the send loop, the retransmission timer (RFC 6298 §5,
//! `timer.rs`), RTT timing with Karn's rule, and the calls into congestion control.
//!
//! Sequence numbers count payload bytes from 0; the SYN, when used, is segment 0 and
//! occupies no sequence space. Segment boundaries are fixed when a segment is first sent,
//! and every retransmission resends the same segment.

use super::cc::{Cc, DupAckAction, Flight, NewAckAction, Phase};
use super::env::Env;
use super::recovery::Recovery;
use super::rtt::RttEstimator;
use crate::event::Event;
use crate::explain::Rule;
use crate::net::AckOptions;
use crate::net::{Fate, Packet, PktKind};
use crate::ring::Ring;
use crate::scenario::FlowCfg;
use crate::time::Ns;
use crate::trace::{EventKind, FlowState};

/// Most segments one pass of the send loop sends (see `Sender::send_loop`). Found by the
/// fuzzing driver: with 1-byte segments and a 1 MiB receiver window, a sender without slow
/// start sent a million segments in one event (and their rows), past any event budget.
pub const MAX_PASS_SEGMENTS: u32 = 4096;

/// Connection state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnState {
    /// Not started.
    Closed,
    /// SYN sent, waiting for the SYN-ACK.
    SynSent,
    /// Data may flow.
    Established,
}

/// A sent, unacknowledged segment.
#[derive(Clone, Copy, Debug)]
pub(super) struct Seg {
    pub(super) seq: u64,
    pub(super) len: u32,
    pub(super) no: u32,
    pub(super) tx: u32,
    /// When it was first sent.
    pub(super) sent: Ns,
}

/// Counters reported in the summary.
#[derive(Clone, Copy, Debug, Default)]
pub struct SenderStats {
    /// Data packets transmitted, retransmissions included.
    pub data_packets: u64,
    /// Retransmitted data packets (any cause).
    pub retransmits: u64,
    /// Retransmission-timer expiries.
    pub timeouts: u64,
    /// Fast retransmits (loss responses on duplicate ACKs).
    pub fast_retransmits: u64,
    /// NewReno partial ACKs.
    pub partial_acks: u64,
    /// Duplicate ACKs received.
    pub dupacks: u64,
    /// Bytes put on the wire by data packets, headers included.
    pub wire_bytes: u64,
    /// Payload bytes transmitted, retransmissions included.
    pub payload_bytes: u64,
    /// SYNs sent.
    pub syns: u64,
    /// Most data packets sent back to back at one instant.
    pub max_burst_packets: u64,
    /// Tail loss probes sent (RFC 8985 §7).
    pub tail_loss_probes: u64,
    /// cwnd reductions by the idle policy (idle and application-limited decays, restarts,
    /// new CWV's expiry and loss response).
    pub window_decays: u64,
}

/// Which window stopped a segment from leaving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Full {
    /// The receiver's.
    Rwnd,
    /// The congestion window (or the window in force during recovery).
    Cwnd,
}

/// One TCP sender.
#[derive(Clone, Debug)]
pub struct Sender {
    /// Flow index.
    pub flow: u32,
    /// First link of the forward path.
    pub link: u32,
    /// SMSS, bytes.
    pub mss: u64,
    /// Header bytes per packet.
    pub header: u64,
    /// Receiver window, bytes.
    pub rwnd: u64,
    nagle: bool,
    syn: bool,
    /// Connection state.
    pub state: ConnState,
    /// Oldest unacknowledged byte.
    pub snd_una: u64,
    /// Next byte to send.
    pub snd_nxt: u64,
    /// One past the highest byte ever sent.
    pub snd_max: u64,
    /// Bytes the application has handed over so far.
    pub app_written: u64,
    segs: Ring<Seg>,
    /// Segments in [snd_una, snd_nxt): an index into `segs`.
    nxt_idx: u32,
    next_seg_no: u32,
    /// Congestion control.
    pub cc: Cc,
    /// RTT estimator and RTO.
    pub rtt: RttEstimator,
    /// The timed segment: (end sequence, send time, segment number).
    timing: Option<(u64, Ns, u32)>,
    rto_deadline: Option<Ns>,
    rto_event: Option<Ns>,
    rto_gen: u32,
    syn_tx: u32,
    syn_sent_at: Ns,
    /// Time of the current burst and data packets sent in it.
    burst: (Ns, u64),
    /// Counters.
    pub stats: SenderStats,
    /// Per-write measurements (applications that write; None for bulk senders).
    pub writes: Option<crate::thin::WriteLog>,
    /// The RTT samples the estimator took (Karn-valid, quantised to the clock tick: the
    /// `rtt_sample` events), for the summary's mean and 95th percentile.
    pub rtt_samples: crate::delay::Delays,
    /// Whether the controller sets a pacing rate: the pacing and per-segment hooks run
    /// only then.
    paced: bool,
    /// A paced sender's next departure: no data segment leaves before it.
    next_departure: Ns,
    /// The pacing timer's pending entry.
    pace_event: Option<Ns>,
    /// The flow's loss-recovery mechanism, if its settings choose one (`tcp::recovery`):
    /// it then runs the send loop, reads every ACK and owns the loss timer.
    recovery: Option<Box<Recovery>>,
    /// ECN is in force (`sender/ecn.rs`): every ACK goes to [`Sender::on_ecn_ack`].
    ecn: bool,
    cold_send: bool,  // paced or ECN: each segment takes `Sender::cold_send`
    ack_extras: bool, // a recovery mechanism or ECN: each ACK takes `Sender::on_ack_extras`
}

impl Sender {
    /// Builds a sender from its flow's settings.
    pub fn new(flow: u32, link: u32, cfg: &FlowCfg) -> Sender {
        let rtt = RttEstimator::new(&cfg.rto);
        let cc = Cc::for_flow(cfg, rtt.tick());
        let (paced, recovery) = (cc.paces(), Recovery::for_flow(cfg));
        Sender {
            flow,
            link,
            mss: cfg.tcp.mss,
            header: cfg.tcp.header,
            rwnd: cfg.tcp.rwnd,
            nagle: cfg.tcp.nagle,
            syn: cfg.tcp.syn,
            state: ConnState::Closed,
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            app_written: 0,
            segs: Ring::default(),
            nxt_idx: 0,
            next_seg_no: 1,
            cc,
            rtt,
            timing: None,
            rto_deadline: None,
            rto_event: None,
            rto_gen: 0,
            syn_tx: 0,
            syn_sent_at: 0,
            burst: (0, 0),
            stats: SenderStats::default(),
            writes: (cfg.app.kind != crate::scenario::AppKind::Bulk).then(crate::thin::WriteLog::default),
            rtt_samples: Default::default(),
            paced,
            next_departure: 0,
            pace_event: None,
            ack_extras: recovery.is_some(),
            recovery,
            ecn: false,
            cold_send: paced,
        }
    }

    /// Flight size in both units.
    pub fn flight(&self) -> Flight {
        Flight {
            bytes: self.snd_nxt - self.snd_una,
            segs: self.nxt_idx as u64,
        }
    }

    /// The values plotted for this flow now.
    pub fn state_row(&self) -> FlowState {
        let phase = if self.state == ConnState::Established {
            self.cc.phase()
        } else {
            Phase::Handshake
        };
        FlowState {
            cwnd: self.cc.cwnd(),
            inflated: self.cc.window(),
            ssthresh: self.cc.ssthresh(),
            flight: self.snd_nxt - self.snd_una,
            srtt: self.rtt.srtt(),
            rttvar: self.rtt.rttvar(),
            rto: self.rtt.rto(),
            phase: phase as u8,
        }
    }

    /// Opens the connection (SYN) or starts sending.
    pub fn start(&mut self, w: &mut impl Env) {
        if self.syn {
            self.state = ConnState::SynSent;
            self.send_syn(w);
        } else {
            self.state = ConnState::Established;
            self.ecn = self.cc.ecn_active();
            (self.cold_send, self.ack_extras) = (self.cold_send | self.ecn, self.ack_extras | self.ecn);
            self.send_loop(w);
        }
    }

    /// The application handed over `bytes` more. Returns false when the traced state
    /// cannot have changed (nothing left and no idle policy looked at the window), so the
    /// caller need not record it: a backlogged sender gets a write per packet time.
    pub fn app_write(&mut self, w: &mut impl Env, bytes: u64) -> bool {
        let blocked = self.write_changes_nothing();
        self.app_written = self.app_written.saturating_add(bytes);
        if let Some(log) = self.writes.as_mut() {
            log.write(w.now(), bytes, self.app_written);
        }
        if blocked {
            // (A recovery mechanism's send loop measures the window its own way: the check
            // is the sender's own loop's.)
            debug_assert!(
                self.recovery.is_some() || self.next_is_held(),
                "a waiting full segment was not held"
            );
            return false;
        }
        self.send_loop(w) > 0 || self.cc.watches_idle()
    }

    /// Whether a write now would change nothing but the bytes written and the write log: a
    /// full segment is already waiting. Every event that moves the windows ends in the send
    /// loop, so the window (or the receiver's) is what holds it, and more data behind it
    /// changes nothing: the loop would stop at the same segment. This holds until the
    /// sender's next event (an ACK or a timer); only those change what it has sent.
    #[inline]
    pub fn write_changes_nothing(&self) -> bool {
        self.state == ConnState::Established
            && self.app_written.saturating_sub(self.snd_max) >= self.mss
            && !self.cc.watches_idle()
    }

    /// `n` writes of `bytes`, `gap` apart from `at`, made while
    /// [`Sender::write_changes_nothing`]: only the bytes written and the write log move.
    pub fn held_writes(&mut self, at: Ns, bytes: u64, gap: Ns, n: u64) {
        debug_assert!(self.write_changes_nothing() && bytes > 0);
        let first_end = self.app_written.saturating_add(bytes);
        self.app_written = self.app_written.saturating_add(bytes.saturating_mul(n));
        if let Some(log) = self.writes.as_mut() {
            log.write_periodic(at, bytes, gap, n, first_end);
        }
    }

    /// Whether the send loop would send nothing now (checked in debug builds).
    fn next_is_held(&self) -> bool {
        self.next_segment()
            .is_some_and(|(len, resend)| self.window_allows(len, resend).is_err() || self.pace_event.is_some())
    }

    /// The next segment the send loop considers: (length, whether it is a resend), or None
    /// when nothing waits.
    #[cfg_attr(target_arch = "wasm32", inline(always))]
    fn next_segment(&self) -> Option<(u64, bool)> {
        if self.snd_nxt < self.snd_max {
            return Some((self.segs[self.nxt_idx as usize].len as u64, true));
        }
        let avail = self.app_written.saturating_sub(self.snd_max);
        (avail > 0).then(|| (avail.min(self.mss), false))
    }

    fn send_syn(&mut self, w: &mut impl Env) {
        self.syn_tx += 1;
        self.syn_sent_at = w.now();
        self.stats.syns += 1;
        let pkt = Packet {
            flow: self.flow,
            kind: PktKind::Syn,
            seq: 0,
            len: 0,
            seg: 0,
            tx: self.syn_tx,
            size: self.header as u32,
            fate: Fate::Ok,
            ecn: self.cc.syn_ecn_flags(),
        };
        w.log(self.flow, EventKind::SynSend, 0, 0, 0, self.syn_tx);
        w.transmit(self.link, pkt);
        let at = w.now() + self.rtt.rto();
        self.arm_rto(w, at);
    }

    // ---- sending ----

    /// Sends whatever the windows, Nagle and the application allow; returns how many
    /// segments left. A window of more than `MAX_PASS_SEGMENTS` segments leaves in passes of
    /// that many, each the rest of the last at the same instant (an event of its own).
    pub fn send_loop(&mut self, w: &mut impl Env) -> u32 {
        if self.state != ConnState::Established {
            return 0;
        }
        if self.recovery.is_some() {
            return self.recovery_send_loop(w);
        }
        let mut checked = false;
        let mut sent = 0u32;
        let mut cwnd_stop = false;
        while let Some((len, resend)) = self.next_segment() {
            if sent == MAX_PASS_SEGMENTS && !self.paced {
                // The rest goes in the next pass, at this instant: an event's work stays
                // bounded (a window of a million 1-byte segments is a million events' worth),
                // so the run's event budget bounds a slice of a run. Until that pass the
                // waiting segment counts as held, as a paced sender's does (`next_is_held`:
                // a write meanwhile changes nothing but the bytes written).
                if self.pace_event.is_none() {
                    self.pace_event = Some(w.now());
                    w.schedule(w.now(), Event::Pace { flow: self.flow });
                }
                break;
            }
            // RFC 5681 §4.1 / RFC 7661 §4.4.3: the idle policy looks before data leaves
            // (once per pass: after the first send the sender is no longer idle).
            if !checked && self.cc.watches_idle() {
                checked = true;
                self.cc.before_send(w.now(), self.rtt.rto());
                self.trace_changes(w);
            }
            if let Err(full) = self.window_allows(len, resend) {
                cwnd_stop = full == Full::Cwnd;
                break;
            }
            // A paced sender waits for its next departure time.
            if self.paced && self.next_departure > w.now() {
                self.wait_for_pacing(w);
                break;
            }
            // RFC 896 / RFC 1122 §4.2.3.4: hold a small segment while data is unacknowledged.
            if !resend && self.nagle && len < self.mss && self.snd_max > self.snd_una {
                if self.cc.why.on {
                    let (p, unacked) = (self.cc.phase() as u8, self.snd_max - self.snd_una);
                    self.cc.why.push(Rule::Nagle, p, p, &[len, self.mss, unacked]);
                }
                break;
            }
            // RFC 3042: a new segment that only the duplicate ACKs' allowance lets out.
            if self.cc.why.on && !resend && self.cc.dupacks() > 0 && self.window_fits(len, 0).is_err() {
                let p = self.cc.phase() as u8;
                let v = [
                    self.cc.dupacks() as u64,
                    self.cc.cwnd(),
                    self.snd_nxt - self.snd_una,
                    self.next_seg_no as u64,
                ];
                self.cc.why.push(Rule::LimitedTransmit, p, p, &v);
            }
            self.send_next::<false>(w, len, resend);
            sent += 1;
        }
        if sent > 0 {
            self.cc
                .on_send_pass_end(self.nxt_idx as u64, self.snd_nxt, self.snd_una, cwnd_stop);
        }
        if self.paced && self.app_written.saturating_sub(self.snd_max) < self.mss && self.snd_nxt == self.snd_max {
            // Less than a segment left to send (nothing to resend either).
            self.cc.on_out_of_data(self.flight());
        }
        sent
    }

    /// Schedules the pacing timer for the next departure, unless it is pending.
    fn wait_for_pacing(&mut self, w: &mut impl Env) {
        if self.pace_event.is_none() {
            self.pace_event = Some(self.next_departure);
            w.schedule(self.next_departure, Event::Pace { flow: self.flow });
        }
    }

    /// The pacing timer fired: send what the windows allow.
    pub fn on_pace_event(&mut self, w: &mut impl Env) {
        self.pace_event = None;
        self.cc.set_now(w.now());
        self.send_loop(w);
    }

    /// Whether a segment of `len` bytes may leave now, or which window is full.
    #[cfg_attr(target_arch = "wasm32", inline(always))]
    fn window_allows(&self, len: u64, resend: bool) -> Result<(), Full> {
        let extra = if resend {
            0
        } else {
            self.cc.limited_transmit_allowance()
        };
        self.window_fits(len, extra)
    }

    /// Whether a segment of `len` bytes fits the windows with `extra` segments allowed
    /// beyond the window in force.
    #[cfg_attr(target_arch = "wasm32", inline(always))]
    fn window_fits(&self, len: u64, extra: u64) -> Result<(), Full> {
        let after = self.snd_nxt + len - self.snd_una;
        if after > self.rwnd {
            return Err(Full::Rwnd);
        }
        if self.cc.fits(after, self.nxt_idx as u64, self.header, extra) {
            Ok(())
        } else {
            Err(Full::Cwnd)
        }
    }

    /// `DOOR`: as for `on_new_ack`.
    fn send_next<const DOOR: bool>(&mut self, w: &mut impl Env, len: u64, resend: bool) {
        let seg = if resend {
            let s = &mut self.segs[self.nxt_idx as usize];
            s.tx += 1;
            *s
        } else {
            let s = Seg {
                seq: self.snd_max,
                len: len as u32,
                no: self.next_seg_no,
                tx: 1,
                sent: w.now(),
            };
            self.next_seg_no += 1;
            self.segs.push_back(s);
            s
        };
        self.nxt_idx += 1;
        self.snd_nxt = seg.seq + seg.len as u64;
        if self.snd_nxt > self.snd_max {
            self.snd_max = self.snd_nxt;
        }
        self.transmit(w, seg);
    }

    /// Resends the segment at snd_una outside the window (fast retransmit, partial ACK).
    fn retransmit_head(&mut self, w: &mut impl Env) {
        if let Some(s) = self.segs.front_mut() {
            s.tx += 1;
            let seg = *s;
            self.transmit(w, seg);
        }
    }

    fn transmit(&mut self, w: &mut impl Env, seg: Seg) {
        let retx = seg.tx > 1;
        let ecn = if self.cold_send {
            self.cold_send(w, seg, retx)
        } else {
            0
        };
        self.stats.data_packets += 1;
        self.stats.payload_bytes += seg.len as u64;
        self.stats.wire_bytes += seg.len as u64 + self.header;
        if retx {
            self.stats.retransmits += 1;
            // Karn: a retransmission makes the outstanding measurement ambiguous.
            self.forget_timing(seg.no);
        } else if self.timing.is_none() {
            // One timed segment per RTT (Jacobson/BSD).
            self.timing = Some((seg.seq + seg.len as u64, w.now(), seg.no));
        }
        let kind = if retx {
            EventKind::Retransmit
        } else {
            EventKind::DataSend
        };
        w.log(self.flow, kind, seg.seq, seg.len, seg.no, seg.tx);
        w.data_sent(self.flow, seg.seq, seg.len, seg.no, seg.tx);
        let pkt = Packet {
            flow: self.flow,
            kind: PktKind::Data,
            seq: seg.seq,
            len: seg.len,
            seg: seg.no,
            tx: seg.tx,
            size: (seg.len as u64 + self.header) as u32,
            fate: Fate::Ok,
            ecn,
        };
        w.transmit(self.link, pkt);
        if let Some(log) = self.writes.as_mut() {
            log.sent(w.now(), self.snd_max);
        }
        // RFC 6298 (5.1): start the timer if it is not running.
        if !self.rto_running() {
            self.restart_rto(w);
        }
        self.count_burst(w.now());
        if self.cc.watches_idle() {
            self.after_send(w, seg);
        }
    }

    /// A paced sender tells the controller the segment left (for its delivery-rate
    /// estimate) and sets its next departure: the segment's wire size at the pacing rate
    /// (Linux's fq: the packet's length, headers included, over sk_pacing_rate).
    #[cold]
    fn paced_send(&mut self, w: &mut impl Env, seg: Seg, retx: bool) {
        let index = (seg.no - self.segs[0].no) as usize;
        let outstanding = if retx {
            self.snd_max - self.snd_una
        } else {
            seg.seq - self.snd_una
        };
        let end = seg.seq + seg.len as u64;
        self.cc
            .on_transmit(w.now(), index, end, retx, outstanding, self.rtt.srtt());
        if let Some(rate) = self.cc.pacing_rate() {
            let size = (seg.len as u64 + self.header) as u128;
            let gap = (size * 1_000_000_000).div_ceil(rate as u128) as Ns;
            self.next_departure = w.now() + gap;
        }
    }

    /// The idle policy's bookkeeping after a data segment left.
    fn after_send(&mut self, w: &mut impl Env, seg: Seg) {
        let app_has_more = self.app_written > self.snd_max;
        self.cc.on_data_sent(
            w.now(),
            self.rtt.rto(),
            seg.len as u64,
            seg.tx,
            self.flight(),
            app_has_more,
        );
        self.trace_changes(w);
    }

    /// The segment at snd_una, when explanations are on (0 otherwise: nobody reads it).
    #[inline]
    fn explained_head(&self) -> u64 {
        if self.cc.why.on {
            self.segs.front().map_or(0, |s| s.no as u64)
        } else {
            0
        }
    }

    /// Karn: segment `resent` is sent again, so the outstanding measurement would be
    /// ambiguous and is dropped.
    fn forget_timing(&mut self, resent: u32) {
        if let (Some((_, _, timed)), true) = (self.timing, self.cc.why.on) {
            let p = self.cc.phase() as u8;
            self.cc.why.push(Rule::Karn, p, p, &[timed as u64, resent as u64]);
        }
        self.timing = None;
    }

    /// Counts data packets sent back to back at one instant.
    fn count_burst(&mut self, now: Ns) {
        if self.burst.0 == now && self.burst.1 > 0 {
            self.burst.1 += 1;
        } else {
            self.burst = (now, 1);
        }
        self.stats.max_burst_packets = self.stats.max_burst_packets.max(self.burst.1);
    }

    /// Logs the window changes congestion control made since the last call.
    #[inline]
    fn trace_changes(&mut self, w: &mut impl Env) {
        if self.cc.has_rows() {
            self.log_changes(w);
        }
    }

    #[cold]
    fn log_changes(&mut self, w: &mut impl Env) {
        let (flow, decays) = (self.flow, &mut self.stats.window_decays);
        self.cc.drain_rows(|r| {
            *decays += r.decay as u64;
            w.log(flow, r.kind, r.seq, r.len, r.seg, r.tx);
        });
    }

    // ---- acknowledgments ----

    /// An ACK or SYN-ACK arrived at a sender without a recovery mechanism (a flow with one
    /// gets its ACKs through [`Sender::on_ack_with_options`]).
    #[inline]
    pub fn on_ack(&mut self, w: &mut impl Env, pkt: &Packet) {
        if self.ack_extras {
            return self.on_ack_extras(w, pkt);
        }
        if pkt.kind == PktKind::SynAck {
            self.on_syn_ack(w, pkt.ecn);
            return;
        }
        if self.state != ConnState::Established {
            return;
        }
        let ack = pkt.seq;
        self.cc.set_now(w.now());
        w.log(self.flow, EventKind::AckReceived, ack, 0, pkt.seg, 0);
        if ack > self.snd_una && ack <= self.snd_max {
            self.on_new_ack::<false>(w, ack);
        } else if ack == self.snd_una && self.snd_max > self.snd_una {
            self.on_dupack(w, ack);
        }
        self.send_loop(w);
    }

    /// Whether the flow has a recovery mechanism (its ACKs, with the options they carry, go
    /// to [`Sender::on_ack_with_options`]).
    #[inline]
    pub fn has_recovery(&self) -> bool {
        self.recovery.is_some()
    }

    /// An ACK of a flow with a recovery mechanism arrived, with its SACK option `blocks` if
    /// it carries one.
    #[inline(never)]
    pub fn on_ack_with_options(&mut self, w: &mut impl Env, pkt: &Packet, blocks: Option<&AckOptions>) {
        debug_assert!(self.recovery.is_some(), "ACK options reached a sender that reads none");
        if pkt.kind == PktKind::SynAck {
            self.on_syn_ack(w, pkt.ecn);
            return;
        }
        if self.state != ConnState::Established || self.recovery.is_none() {
            return;
        }
        if self.ecn {
            return self.on_ecn_ack(w, pkt, blocks);
        }
        let ack = pkt.seq;
        self.cc.set_now(w.now());
        w.log(self.flow, EventKind::AckReceived, ack, 0, pkt.seg, 0);
        self.recovery_ack(w, ack, blocks);
        self.send_loop(w);
    }

    fn on_syn_ack(&mut self, w: &mut impl Env, ecn: u8) {
        if self.state != ConnState::SynSent {
            return;
        }
        w.log(self.flow, EventKind::SynAckReceived, 0, 0, 0, self.syn_tx);
        self.state = ConnState::Established;
        self.ecn = self.cc.on_syn_ack_ecn(ecn);
        (self.cold_send, self.ack_extras) = (self.cold_send | self.ecn, self.ack_extras | self.ecn);
        self.stop_rto();
        let phase = self.cc.why_phase() as u8;
        if self.syn_tx == 1 {
            let sample = self
                .rtt
                .on_measurement(self.syn_sent_at, w.now(), 0, &mut self.cc.why, phase);
            log_rtt_sample(w, self.flow, sample, w.now() - self.syn_sent_at, 0);
            self.rtt_samples.add(sample);
        } else {
            // RFC 6298 (5.7): a SYN was lost, so data starts with an RTO of at least 3 s.
            self.rtt.after_syn_timeout(&mut self.cc.why, phase);
        }
        self.send_loop(w);
    }

    /// `DOOR` (a call from a recovery mechanism, through its door) only makes that call a
    /// copy of its own, so the sender's own path stays inlined where it was (a flow without
    /// a mechanism pays nothing for it).
    fn on_new_ack<const DOOR: bool>(&mut self, w: &mut impl Env, ack: u64) {
        let acked = ack - self.snd_una;
        let before = self.flight();
        let mut popped = 0u32;
        // The per-ACK RTT: since the newest segment this ACK covers was sent, if it was sent
        // once (what a rule that reads every ACK's RTT takes; the estimator keeps Karn's one
        // timed segment).
        let mut sample = None;
        while let Some(s) = self.segs.front() {
            if s.seq + s.len as u64 > ack {
                break;
            }
            sample = (s.tx == 1).then(|| w.now() - s.sent);
            self.segs.pop_front();
            popped += 1;
        }
        self.snd_una = ack;
        if self.snd_nxt < self.snd_una {
            // Go-back-N resends overtaken by this ACK are skipped.
            self.snd_nxt = self.snd_una;
            self.nxt_idx = 0;
        } else {
            self.nxt_idx -= popped;
        }
        if let Some((end, sent, no)) = self.timing {
            if ack >= end {
                let phase = self.cc.why_phase() as u8;
                let sample = self.rtt.on_measurement(sent, w.now(), no, &mut self.cc.why, phase);
                log_rtt_sample(w, self.flow, sample, w.now() - sent, no);
                self.rtt_samples.add(sample);
                self.cc.on_rtt_sample(sample, self.rtt.srtt());
                self.timing = None;
            }
        }
        // RFC 7661 §4.1: pipeACK is measured as snd_una moves (before growth is decided).
        self.cc
            .on_ack_progress(w.now(), ack, self.snd_nxt, self.rtt.srtt(), sample);
        // The segment a partial ACK resends, for its explanation.
        let head = self.explained_head();
        let action = self.cc.on_new_ack(ack, acked, self.flight(), before, head);
        self.trace_changes(w);
        let restart = match action {
            NewAckAction::Normal => true,
            NewAckAction::ExitRecovery => {
                w.log(self.flow, EventKind::RecoveryExit, ack, 0, 0, 0);
                true
            }
            NewAckAction::PartialAck { restart_timer } => {
                self.stats.partial_acks += 1;
                let head = self.segs.front().map_or(0, |s| s.no);
                w.log(self.flow, EventKind::PartialAck, ack, 0, head, 0);
                self.forget_timing(head);
                self.retransmit_head(w);
                restart_timer
            }
        };
        if self.snd_una == self.snd_max {
            // RFC 6298 (5.2): everything acknowledged.
            self.stop_rto();
        } else if restart {
            // RFC 6298 (5.3): new data acknowledged.
            self.restart_rto(w);
        }
    }

    #[inline(always)]
    fn on_dupack(&mut self, w: &mut impl Env, ack: u64) {
        self.stats.dupacks += 1;
        let head = self.explained_head();
        let action = self.cc.on_dupack(ack, self.flight(), self.snd_max, head);
        self.trace_changes(w);
        w.log(self.flow, EventKind::DupAck, ack, self.cc.dupacks(), 0, 0);
        match action {
            DupAckAction::None | DupAckAction::Inflate => {}
            DupAckAction::Suppressed => {
                w.log(self.flow, EventKind::FastRetransmitSuppressed, ack, 0, 0, 0);
            }
            DupAckAction::FastRetransmit {
                go_back_n,
                restart_timer: restart,
            } => {
                self.stats.fast_retransmits += 1;
                let head = self.segs.front().map_or(0, |s| s.no);
                w.log(self.flow, EventKind::FastRetransmit, ack, 0, head, 0);
                self.forget_timing(head);
                if go_back_n {
                    // Tahoe: back to snd_una; the send loop resends with cwnd = 1 and, if the
                    // timer was stopped, starts it afresh (RFC 6298 (5.1)).
                    self.snd_nxt = self.snd_una;
                    self.nxt_idx = 0;
                    if restart {
                        self.stop_rto();
                    }
                } else {
                    self.retransmit_head(w);
                    if restart {
                        self.restart_rto(w);
                    }
                }
            }
        }
    }
}

/// Logs one Karn-valid RTT sample: `seq` = the sample the estimator took (quantised to the
/// clock tick), ns; `len` = the exact elapsed time, µs (saturating); `seg` = the timed
/// segment (0 = the SYN).
fn log_rtt_sample(w: &mut impl Env, flow: u32, sample: Ns, exact: Ns, seg: u32) {
    let us = u32::try_from(exact / 1_000).unwrap_or(u32::MAX);
    w.log(flow, EventKind::RttSample, sample, us, seg, 1);
}

mod door;
mod ecn;
mod reopen;
#[cfg(test)]
mod tests;
mod timer;
