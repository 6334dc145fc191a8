//! BBR version 1 (draft-cardwell-iccrg-bbr-congestion-control-00; Linux 4.9's tcp_bbr.c):
//! a model of the path, not a reaction to loss. Every ACK yields a delivery-rate sample
//! (draft-cheng-iccrg-delivery-rate-estimation, Linux's tcp_rate.c); the bottleneck
//! bandwidth BtlBw is the windowed maximum of the samples over 10 round trips, RTprop the
//! minimum RTT over 10 s. The sender paces at pacing_gain·BtlBw and keeps at most
//! cwnd_gain·BtlBw·RTprop (plus a few segments of send quantum) in flight, the gains set by
//! the state: Startup (2/ln 2), Drain (its inverse), ProbeBW (cycling 5/4, 3/4, 1 × 6) and
//! ProbeRTT (cwnd of 4 segments for 200 ms and a round, when RTprop is 10 s old).
//!
//! Loss recovery (which segment is resent, when recovery ends) stays NewReno's, as Linux's
//! without SACK; BBR only sets cwnd during it: packet conservation for the first round,
//! then growth toward the target, the cwnd before recovery restored at its end.
//!
//! Model state is integer: gains in 1/256 (Linux's BBR_UNIT), rates in bytes per second,
//! times in ns, so native and wasm runs agree bit for bit. The counter `delivered` counts
//! payload bytes (Linux counts packets; with full-sized segments it is the same ×SMSS).

use super::{why, Cc, Flight, Phase};
use crate::explain::Rule;
use crate::time::Ns;
use std::collections::VecDeque;

pub mod settings;
pub use settings::{clashes, Controller};

/// Gains are in 1/256 (Linux's BBR_SCALE = 8).
pub const UNIT: u64 = 256;
/// Startup's pacing and cwnd gain, 2/ln 2 ≈ 2.885 (Linux: BBR_UNIT·2885/1000 + 1 = 739).
pub const HIGH_GAIN: u64 = UNIT * 2885 / 1000 + 1;
/// Drain's pacing gain, 1/2.885 (Linux: BBR_UNIT·1000/2885 = 88).
pub const DRAIN_GAIN: u64 = UNIT * 1000 / 2885;
/// ProbeBW's cwnd gain.
pub const CWND_GAIN: u64 = 2 * UNIT;
/// ProbeBW's pacing-gain cycle: probe, drain, six rounds of cruising.
pub const PACING_GAIN: [u64; CYCLE_LEN] = [UNIT * 5 / 4, UNIT * 3 / 4, UNIT, UNIT, UNIT, UNIT, UNIT, UNIT];
/// Phases of the gain cycle.
pub const CYCLE_LEN: usize = 8;
/// The starting phase is drawn from this many (every phase but the 3/4 one).
pub const CYCLE_RAND: u64 = 7;
/// The max filter's window, round trips (CYCLE_LEN + 2).
pub const BW_WINDOW_ROUNDS: u64 = CYCLE_LEN as u64 + 2;
/// RTprop's window: after this long without a lower sample, ProbeRTT.
pub const MIN_RTT_WINDOW: Ns = 10_000_000_000;
/// Time at the minimum window in ProbeRTT.
pub const PROBE_RTT_TIME: Ns = 200_000_000;
/// The smallest cwnd (and ProbeRTT's), segments.
pub const MIN_PIPE_SEGS: u64 = 4;
/// Startup ends after this many rounds without BtlBw growing by 25 %.
pub const FULL_BW_ROUNDS: u32 = 3;
/// 1.25 in gain units.
pub const FULL_BW_THRESH: u64 = UNIT * 5 / 4;
/// Below this pacing rate (bit/s) the send quantum is one segment, below the next two.
pub const QUANTUM_LOW_BPS: u64 = 1_200_000;
pub const QUANTUM_HIGH_BPS: u64 = 24_000_000;
/// The largest send quantum, bytes.
pub const QUANTUM_MAX: u64 = 64 * 1024;

/// BBR's states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Mode {
    Startup = 0,
    Drain = 1,
    ProbeBw = 2,
    ProbeRtt = 3,
}

impl Mode {
    /// The plotted phase.
    pub fn phase(self) -> Phase {
        match self {
            Mode::Startup => Phase::BbrStartup,
            Mode::Drain => Phase::BbrDrain,
            Mode::ProbeBw => Phase::BbrProbeBw,
            Mode::ProbeRtt => Phase::BbrProbeRtt,
        }
    }
}

mod edges;
mod model;
mod sack;
#[cfg(test)]
mod tests;

pub(crate) use edges::{edges, STATES};
pub use model::{bdp_bytes, milli, send_quantum, MaxFilter, RateSample};
use model::{init_pacing, rate_gen, TxStamp};

/// BBR's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bbr {
    /// The state.
    pub(super) mode: Mode,
    /// BtlBw's filter of delivery rates, bytes/s, over round trips.
    pub(super) bw: MaxFilter,
    /// RTprop, ns (`u64::MAX`: no sample yet).
    pub(super) min_rtt: Ns,
    /// When RTprop was last set.
    pub(super) min_rtt_stamp: Ns,
    /// When ProbeRTT may end (None: not yet at the minimum window).
    probe_rtt_done: Option<Ns>,
    /// A round has passed at ProbeRTT's minimum window.
    probe_rtt_round_done: bool,
    /// Packet-timed round trips so far.
    pub(super) round_count: u64,
    /// `delivered` at which the next round begins.
    next_round_delivered: u64,
    /// This ACK began a round.
    round_start: bool,
    /// BtlBw when Startup last saw it grow by 25 %.
    full_bw: u64,
    /// Rounds since it did.
    full_bw_count: u32,
    /// Startup has filled the pipe.
    pub(super) filled_pipe: bool,
    /// ProbeBW's phase.
    pub(super) cycle_idx: usize,
    /// When the phase began.
    cycle_stamp: Ns,
    /// Gains in 1/256.
    pub(super) pacing_gain: u64,
    pub(super) cwnd_gain: u64,
    /// The pacing rate, bytes/s.
    pub(super) pacing_rate: u64,
    /// The pacing rate has been set from an RTT sample.
    has_seen_rtt: bool,
    /// cwnd saved at a loss or ProbeRTT, restored after.
    pub(super) prior_cwnd: u64,
    /// First round of recovery: packet conservation.
    packet_conservation: bool,
    /// The recovery state at the last ACK: 0 open, 1 fast recovery, 2 after a timeout.
    prev_recovery: u8,
    /// Restarting from idle.
    idle_restart: bool,
    /// Bytes delivered so far.
    pub(super) delivered: u64,
    /// When the last delivery happened.
    delivered_time: Ns,
    /// Send time of the newest segment acknowledged (the next sample's window start).
    first_sent_time: Ns,
    /// `delivered` at the end of an application-limited stretch (0: not limited).
    app_limited: u64,
    /// The smallest RTT ever sampled (Linux's tcp_min_rtt), ns.
    conn_min_rtt: Ns,
    /// One stamp per segment in [snd_una, snd_max), in order.
    txs: VecDeque<TxStamp>,
    /// Segments duplicate ACKs said have left the network, not yet acknowledged (Linux's
    /// sacked_out without SACK): the window excludes them. Reset by a timeout, as Linux does.
    pub(super) sacked: u64,
    /// Segments duplicate ACKs counted as delivered and cumulative ACKs have not yet
    /// covered: kept across a timeout, so the cumulative ACK that fills the hole does not
    /// count the receiver's buffered segments a second time (what a SACK sender knows).
    dup_credit: u64,
    /// Set up (at the first segment sent).
    started: bool,
    /// The flow's recovery mechanism reads SACK blocks and reports deliveries
    /// (`bbr/sack.rs`): duplicate ACKs are not the controller's.
    pub(super) scoreboard: bool,
    /// This ACK's deliveries so far (SACK only).
    pub(super) acc: sack::Acc,
    /// Entries into ProbeBW so far (draws the starting phase).
    probe_bw_entries: u64,
    /// Hash of (seed, flow): the draws' prefix.
    pub(super) draw_key: u64,
    /// The last valid delivery-rate sample, bytes/s.
    pub(super) last_rate: u64,
    /// What the trace last showed: (BtlBw, RTprop, mode·16 + phase, pacing rate).
    shown: (u64, u64, u64, u64),
}

impl Default for Bbr {
    fn default() -> Bbr {
        Bbr {
            mode: Mode::Startup,
            bw: MaxFilter::default(),
            min_rtt: u64::MAX,
            min_rtt_stamp: 0,
            probe_rtt_done: None,
            probe_rtt_round_done: false,
            round_count: 0,
            next_round_delivered: 0,
            round_start: false,
            full_bw: 0,
            full_bw_count: 0,
            filled_pipe: false,
            cycle_idx: 0,
            cycle_stamp: 0,
            pacing_gain: HIGH_GAIN,
            cwnd_gain: HIGH_GAIN,
            pacing_rate: 0,
            has_seen_rtt: false,
            prior_cwnd: 0,
            packet_conservation: false,
            prev_recovery: 0,
            idle_restart: false,
            delivered: 0,
            delivered_time: 0,
            first_sent_time: 0,
            app_limited: 0,
            conn_min_rtt: u64::MAX,
            txs: VecDeque::new(),
            sacked: 0,
            dup_credit: 0,
            started: false,
            scoreboard: false,
            acc: sack::Acc::default(),
            probe_bw_entries: 0,
            draw_key: 0,
            last_rate: 0,
            shown: (u64::MAX, u64::MAX, u64::MAX, u64::MAX),
        }
    }
}

impl Bbr {
    /// BtlBw, bytes/s.
    pub fn btl_bw(&self) -> u64 {
        self.bw.get()
    }

    /// BBRInflight(gain): gain·BtlBw·RTprop rounded up to whole segments, plus three send
    /// quanta; the initial window before any RTT sample.
    pub fn inflight(&self, gain: u64, smss: u64, iw: u64) -> u64 {
        if self.min_rtt == u64::MAX {
            return iw;
        }
        let bdp = bdp_bytes(self.btl_bw(), self.min_rtt, gain).div_ceil(smss) * smss;
        bdp + 3 * send_quantum(self.pacing_rate, smss)
    }

    /// bbr_save_cwnd: remember `cwnd` to restore after recovery or ProbeRTT; while either
    /// has already cut it, keep the larger of the two.
    fn save_cwnd(&mut self, cwnd: u64) {
        self.prior_cwnd = if self.prev_recovery == 0 && self.mode != Mode::ProbeRtt {
            cwnd
        } else {
            self.prior_cwnd.max(cwnd)
        };
    }

    /// The pacing rate, bytes/s, once set.
    pub fn pacing(&self) -> Option<u64> {
        (self.pacing_rate > 0).then_some(self.pacing_rate)
    }
}

impl Cc {
    /// Whether BBR controls this flow.
    #[inline]
    pub fn is_bbr(&self) -> bool {
        self.bbr.is_some()
    }

    /// The pacing rate, bytes/s, for a paced sender.
    #[inline]
    pub fn pacing_rate(&self) -> Option<u64> {
        self.bbr.as_ref().and_then(|b| b.pacing())
    }

    /// A data segment [end − len, end) left at `now` (a resend if `retx`); `index` is its
    /// place among the segments outstanding, `outstanding` the bytes outstanding before it
    /// (Linux's packets_out: resends overtaken or not); `srtt` the smoothed RTT.
    #[cold]
    pub fn bbr_on_transmit(&mut self, now: Ns, index: usize, end: u64, retx: bool, outstanding: u64, srtt: Ns) {
        let (iw, cwnd) = (self.iw, self.cwnd);
        let Some(b) = self.bbr.as_deref_mut() else { return };
        if !b.started {
            // bbr_init: pacing at high_gain · IW / SRTT (1 ms before any sample); RTprop
            // starts as the connection's smallest RTT so far (tcp_min_rtt), which after a
            // handshake is the SYN's, the only sample yet.
            b.started = true;
            b.min_rtt_stamp = now;
            b.pacing_rate = init_pacing(cwnd.max(iw), srtt);
            b.has_seen_rtt = srtt > 0;
            if srtt > 0 {
                b.min_rtt = srtt;
                b.conn_min_rtt = srtt;
            }
        }
        if outstanding == 0 {
            // Nothing in flight: this segment starts a fresh sampling window.
            b.first_sent_time = now;
            b.delivered_time = now;
            if b.app_limited != 0 {
                // CA_EVENT_TX_START after an application-limited stretch.
                b.idle_restart = true;
                if b.mode == Mode::ProbeBw {
                    b.pacing_rate = b.btl_bw();
                }
            }
        }
        let stamp = TxStamp {
            end,
            delivered: b.delivered,
            delivered_time: b.delivered_time,
            first_sent: b.first_sent_time,
            sent: now,
            app_limited: b.app_limited != 0,
            retx,
            counted: false,
        };
        if index < b.txs.len() {
            b.txs[index] = stamp;
        } else {
            b.txs.push_back(stamp);
        }
    }

    /// The send loop ran out of data with `flight` outstanding; if cwnd is not full,
    /// the samples to come are application-limited (tcp_rate_check_app_limited).
    #[cold]
    pub fn bbr_out_of_data(&mut self, flight: Flight) {
        let (cwnd, pipe) = (self.cwnd, self.bbr_pipe(flight));
        if let Some(b) = self.bbr.as_deref_mut() {
            if pipe < cwnd {
                b.app_limited = (b.delivered + pipe).max(1);
            }
        }
    }

    /// The window the sender fills in recovery: cwnd plus the segments duplicate ACKs said
    /// have left the network (Linux's packets in flight exclude them). Before recovery the
    /// first two duplicates do the same through Limited Transmit (the entry turns it on).
    fn bbr_sync_window(&mut self) {
        let s = self.bbr.as_ref().map_or(0, |b| b.sacked);
        self.inflated = self.cwnd + s * self.smss;
    }

    /// What BBR counts in the network, in whole segments as bytes (Linux counts packets):
    /// the flight less the segments duplicate ACKs said have arrived.
    fn bbr_pipe(&self, flight: Flight) -> u64 {
        let s = self.bbr.as_ref().map_or(0, |b| b.sacked);
        flight.segs.saturating_sub(s) * self.smss
    }

    /// A new ACK for `ack` acknowledged `acked` bytes; `before` and `flight` the flight
    /// before and after. Returns what the sender must do (NewReno's recovery decides
    /// partial and full ACKs; BBR only sets cwnd).
    #[cold]
    pub(super) fn bbr_new_ack(
        &mut self,
        now: Ns,
        ack: u64,
        acked: u64,
        flight: Flight,
        before: Flight,
        head: u64,
    ) -> super::NewAckAction {
        use super::NewAckAction;
        if self.bbr.as_deref().is_some_and(|b| b.scoreboard) {
            return self.bbr_sack_new_ack(now, ack, acked);
        }
        let smss = self.smss;
        let pipe_before = self.bbr_pipe(before);
        let mut rs = RateSample::default();
        {
            let b = self.bbr.as_deref_mut().expect("bbr");
            // Which segments this ACK covers; the newest-sent one gives the sample.
            let mut best: Option<TxStamp> = None;
            let mut pkts = 0u64;
            while let Some(t) = b.txs.front() {
                if t.end > ack {
                    break;
                }
                let t = b.txs.pop_front().unwrap();
                pkts += 1;
                if !t.retx {
                    rs.rtt = Some(now.saturating_sub(t.sent));
                }
                if best.is_none_or(|x| x.delivered == 0 || t.delivered > x.delivered) {
                    best = Some(t);
                }
            }
            // Reno's SACK emulation: one acknowledged segment fills the hole, the rest
            // were already counted by duplicate ACKs (tcp_remove_reno_sacks).
            if pkts > 0 {
                b.sacked -= b.sacked.min(pkts - 1);
            }
            let (delivered, segs) = if b.dup_credit > 0 && pkts > 0 {
                let credited = b.dup_credit.min(pkts - 1);
                b.dup_credit -= credited;
                (
                    acked.saturating_sub(credited * smss).max(acked.min(smss)),
                    pkts - credited,
                )
            } else {
                (acked, pkts)
            };
            if let Some(r) = rs.rtt {
                b.conn_min_rtt = b.conn_min_rtt.min(r);
            }
            b.delivered += delivered;
            rs.acked = delivered;
            rs.acked_segs = segs;
            rate_gen(b, now, best, &mut rs);
        }
        // Recovery: NewReno's partial and full ACKs.
        let mut action = NewAckAction::Normal;
        self.rto_retransmitted = false;
        if self.timeout_recovery.is_some_and(|p| ack >= p) {
            self.timeout_recovery = None;
        }
        if self.in_fast_recovery {
            if ack < self.recover.unwrap_or(0) {
                let restart_timer = match self.cfg.newreno_timer {
                    crate::scenario::NewRenoTimer::EveryPartial => true,
                    crate::scenario::NewRenoTimer::FirstPartial => !self.partial_seen,
                };
                self.partial_seen = true;
                // The next hole is presumed lost and resent.
                rs.losses = 1;
                action = NewAckAction::PartialAck { restart_timer };
                let p = self.phase();
                why!(
                    self,
                    Rule::BbrPartialAck,
                    p,
                    [ack, self.recover.unwrap_or(0), head, restart_timer]
                );
            } else {
                self.in_fast_recovery = false;
                self.dupacks = 0;
                if let Some(b) = self.bbr.as_deref_mut() {
                    b.sacked = 0;
                }
                action = NewAckAction::ExitRecovery;
            }
        } else {
            self.dupacks = 0;
            if let Some(b) = self.bbr.as_deref_mut() {
                b.sacked = 0;
            }
        }
        let pipe = self.bbr_pipe(flight);
        self.bbr_main(now, &rs, pipe_before, pipe);
        action
    }

    /// A duplicate ACK: one more segment has left the network (Linux counts it delivered).
    /// Returns whether it is the one that starts fast retransmit.
    #[cold]
    pub(super) fn bbr_dupack(
        &mut self,
        now: Ns,
        ack: u64,
        flight: Flight,
        snd_max: u64,
        head: u64,
    ) -> super::DupAckAction {
        use super::DupAckAction;
        self.dupacks = self.dupacks.saturating_add(1);
        let pipe_before = self.bbr_pipe(flight);
        let smss = self.smss;
        let mut rs = RateSample::default();
        {
            let b = self.bbr.as_deref_mut().expect("bbr");
            if b.sacked + 1 < flight.segs {
                b.sacked += 1;
            }
            // Outstanding segments (go-back-N or not): all but the hole may have arrived.
            if b.dup_credit + 1 < snd_max.saturating_sub(ack).div_ceil(smss) {
                b.dup_credit += 1;
                b.delivered += smss;
                rs.acked = smss;
                rs.acked_segs = 1;
            }
            rate_gen(b, now, None, &mut rs);
        }
        let mut action = DupAckAction::None;
        if !self.in_fast_recovery && self.dupacks == self.dupthresh {
            if !self.past_recover(ack) {
                let from = self.phase();
                why!(
                    self,
                    Rule::FastRetransmitSuppressed,
                    from,
                    [self.dupacks, ack, self.recover.unwrap_or(u64::MAX)]
                );
                action = DupAckAction::Suppressed;
            } else {
                let from = self.phase();
                // ssthresh(): BBR keeps it and saves cwnd to restore after recovery.
                self.ssthresh = self.loss_ssthresh(flight);
                self.recover = Some(snd_max);
                self.in_fast_recovery = true;
                self.partial_seen = false;
                rs.losses = 1;
                action = self.fast_retransmit(false);
                let (d, fs, c) = (self.dupacks, flight.bytes, self.cwnd);
                why!(self, Rule::FastRetransmitBbr, from, [d, head, fs, c, snd_max]);
            }
        }
        let pipe = self.bbr_pipe(flight);
        self.bbr_main(now, &rs, pipe_before, pipe);
        action
    }

    /// The retransmission timer expired (after the generic response set cwnd to one
    /// segment): BBR treats it as the end of a round and forgets the full-pipe count
    /// (bbr_set_state(TCP_CA_Loss)).
    #[cold]
    pub(super) fn bbr_timeout(&mut self) {
        if let Some(b) = self.bbr.as_deref_mut() {
            b.prev_recovery = 2;
            b.full_bw = 0;
            b.round_start = true;
            b.sacked = 0;
            b.packet_conservation = false;
        }
        self.bbr_sync_window();
    }

    /// ssthresh on a loss: BBR leaves it and saves cwnd (bbr_ssthresh → bbr_save_cwnd).
    #[cold]
    pub(super) fn bbr_save_cwnd(&mut self) -> u64 {
        let (cwnd, from) = (self.cwnd, self.why_phase());
        let b = self.bbr.as_deref_mut().expect("bbr");
        let before = b.prior_cwnd;
        b.save_cwnd(cwnd);
        let (p, ss) = (b.prior_cwnd, self.ssthresh);
        why!(self, Rule::SsthreshBbr, from, [cwnd, before, ss, p, ss]);
        ss
    }

    /// bbr_main: update the model and the state from this ACK's sample, then set the pacing
    /// rate and cwnd.
    fn bbr_main(&mut self, now: Ns, rs: &RateSample, pipe_before: u64, pipe: u64) {
        let (smss, iw) = (self.smss, self.iw);
        self.bbr_update_bw(rs);
        self.bbr_update_cycle_phase(rs, pipe_before);
        self.bbr_check_full_pipe(rs);
        self.bbr_check_drain(pipe);
        self.bbr_update_min_rtt(now, rs, pipe);
        {
            let b = self.bbr.as_deref_mut().expect("bbr");
            (b.pacing_gain, b.cwnd_gain) = match b.mode {
                Mode::Startup => (HIGH_GAIN, HIGH_GAIN),
                Mode::Drain => (DRAIN_GAIN, HIGH_GAIN),
                Mode::ProbeBw => (PACING_GAIN[b.cycle_idx], CWND_GAIN),
                Mode::ProbeRtt => (UNIT, UNIT),
            };
        }
        self.bbr_set_pacing_rate();
        self.bbr_set_cwnd(rs, pipe, smss, iw);
        self.bbr_note();
    }

    fn bbr_update_bw(&mut self, rs: &RateSample) {
        let from = self.why_phase();
        let b = self.bbr.as_deref_mut().expect("bbr");
        b.round_start = false;
        let Some(rate) = rs.rate() else { return };
        if rs.prior_delivered >= b.next_round_delivered {
            b.next_round_delivered = b.delivered;
            b.round_count += 1;
            b.round_start = true;
            b.packet_conservation = false;
        }
        b.last_rate = rate;
        let old = b.btl_bw();
        if !rs.app_limited || rate >= old {
            let new = b.bw.update(BW_WINDOW_ROUNDS, b.round_count, rate);
            if new != old {
                let (round, d, iv, al) = (b.round_count, rs.delivered.unwrap_or(0), rs.interval, rs.app_limited);
                why!(
                    self,
                    Rule::BbrMaxBw,
                    from,
                    [d, iv, rate * 8, al, round, old * 8, new * 8]
                );
            }
        }
    }

    fn bbr_update_cycle_phase(&mut self, rs: &RateSample, pipe_before: u64) {
        let (smss, iw, from) = (self.smss, self.iw, self.why_phase());
        let b = self.bbr.as_deref_mut().expect("bbr");
        if b.mode != Mode::ProbeBw {
            return;
        }
        let elapsed = b.delivered_time.saturating_sub(b.cycle_stamp);
        let full_length = elapsed > b.min_rtt;
        let gain = b.pacing_gain;
        let (next, target) = if gain == UNIT {
            (full_length, 0)
        } else if gain > UNIT {
            let target = b.inflight(gain, smss, iw);
            (full_length && (rs.losses > 0 || pipe_before >= target), target)
        } else {
            let target = b.inflight(UNIT, smss, iw);
            (full_length || pipe_before <= target, target)
        };
        if next {
            let idx0 = b.cycle_idx;
            b.cycle_idx = (b.cycle_idx + 1) % CYCLE_LEN;
            b.cycle_stamp = b.delivered_time;
            let (idx, g, rtt) = (b.cycle_idx, PACING_GAIN[b.cycle_idx], b.min_rtt);
            why!(
                self,
                Rule::BbrCycle,
                from,
                [
                    idx0,
                    milli(gain),
                    elapsed,
                    rtt,
                    pipe_before,
                    target,
                    rs.losses,
                    idx,
                    milli(g)
                ]
            );
        }
    }

    fn bbr_check_full_pipe(&mut self, rs: &RateSample) {
        let from = self.why_phase();
        let b = self.bbr.as_deref_mut().expect("bbr");
        if b.filled_pipe || !b.round_start || rs.app_limited {
            return;
        }
        let (bw, full0, n0) = (b.btl_bw(), b.full_bw, b.full_bw_count);
        let thresh = (full0 as u128 * FULL_BW_THRESH as u128 / UNIT as u128) as u64;
        if bw >= thresh {
            b.full_bw = bw;
            b.full_bw_count = 0;
        } else {
            b.full_bw_count += 1;
            b.filled_pipe = b.full_bw_count >= FULL_BW_ROUNDS;
        }
        let (round, n, filled) = (b.round_count, b.full_bw_count, b.filled_pipe);
        why!(
            self,
            Rule::BbrFullBwCheck,
            from,
            [round, bw * 8, full0 * 8, n0, thresh * 8, n, filled]
        );
    }

    fn bbr_check_drain(&mut self, pipe: u64) {
        let (smss, iw) = (self.smss, self.iw);
        let from = self.why_phase();
        let b = self.bbr.as_deref_mut().expect("bbr");
        if b.mode == Mode::Startup && b.filled_pipe {
            b.mode = Mode::Drain;
            let target = b.inflight(UNIT, smss, iw);
            let (bw, rtt) = (b.btl_bw(), b.min_rtt);
            let ss0 = self.ssthresh;
            // Linux sets ssthresh to the estimated BDP here (the draft does not).
            self.ssthresh = target;
            why!(
                self,
                Rule::BbrFullPipe,
                from,
                [bw * 8, rtt, FULL_BW_ROUNDS, ss0, target]
            );
        }
        let from = self.why_phase();
        let b = self.bbr.as_deref_mut().expect("bbr");
        if b.mode == Mode::Drain {
            let target = b.inflight(UNIT, smss, iw);
            if pipe <= target {
                let k = self.bbr_enter_probe_bw();
                why!(self, Rule::BbrDrainDone, from, [pipe, target, k, milli(PACING_GAIN[k])]);
            }
        }
    }

    /// Enters ProbeBW at a random phase other than the 3/4 one; returns the phase.
    fn bbr_enter_probe_bw(&mut self) -> usize {
        let b = self.bbr.as_deref_mut().expect("bbr");
        b.mode = Mode::ProbeBw;
        let draw = crate::rng::hash_more(b.draw_key, &[b.probe_bw_entries]) % CYCLE_RAND;
        b.probe_bw_entries += 1;
        // CYCLE_LEN − 1 − draw, then one step on: phases 2…7 or 0, never 1 (3/4).
        b.cycle_idx = (CYCLE_LEN - 1 - draw as usize + 1) % CYCLE_LEN;
        b.cycle_stamp = b.delivered_time;
        b.cycle_idx
    }

    fn bbr_update_min_rtt(&mut self, now: Ns, rs: &RateSample, pipe: u64) {
        let (smss, cwnd) = (self.smss, self.cwnd);
        let from = self.why_phase();
        let b = self.bbr.as_deref_mut().expect("bbr");
        let expired = now > b.min_rtt_stamp.saturating_add(MIN_RTT_WINDOW);
        // What ProbeRTT's explanation shows: the estimate that went stale, and its age.
        let (stale, stale_age) = (b.min_rtt, now - b.min_rtt_stamp);
        if let Some(rtt) = rs.rtt {
            if rtt <= b.min_rtt || expired {
                let (old, age) = (b.min_rtt, now - b.min_rtt_stamp);
                b.min_rtt = rtt;
                b.min_rtt_stamp = now;
                if old != rtt {
                    why!(self, Rule::BbrMinRtt, from, [rtt, old, age, expired, rtt]);
                }
            }
        }
        let from = self.why_phase();
        let b = self.bbr.as_deref_mut().expect("bbr");
        if expired && !b.idle_restart && b.mode != Mode::ProbeRtt {
            b.save_cwnd(cwnd);
            b.mode = Mode::ProbeRtt;
            b.probe_rtt_done = None;
            let p = b.prior_cwnd;
            why!(
                self,
                Rule::BbrProbeRttEnter,
                from,
                [stale, stale_age, MIN_RTT_WINDOW, cwnd, p]
            );
        }
        let b = self.bbr.as_deref_mut().expect("bbr");
        if b.mode == Mode::ProbeRtt {
            // Samples now say little about the bandwidth.
            b.app_limited = (b.delivered + pipe).max(1);
            if b.probe_rtt_done.is_none() && pipe <= MIN_PIPE_SEGS * smss {
                b.probe_rtt_done = Some(now + PROBE_RTT_TIME);
                b.probe_rtt_round_done = false;
                b.next_round_delivered = b.delivered;
            } else if b.probe_rtt_done.is_some() {
                if b.round_start {
                    b.probe_rtt_round_done = true;
                }
                if b.probe_rtt_round_done {
                    self.bbr_check_probe_rtt_done(now);
                }
            }
        }
        let b = self.bbr.as_deref_mut().expect("bbr");
        if rs.acked > 0 {
            b.idle_restart = false;
        }
    }

    fn bbr_check_probe_rtt_done(&mut self, now: Ns) {
        let from = self.why_phase();
        let c0 = self.cwnd;
        let b = self.bbr.as_deref_mut().expect("bbr");
        let Some(done) = b.probe_rtt_done else { return };
        if now <= done {
            return;
        }
        b.min_rtt_stamp = now;
        let prior = b.prior_cwnd;
        let filled = b.filled_pipe;
        self.cwnd = c0.max(prior);
        let k = if filled {
            self.bbr_enter_probe_bw() as u64
        } else {
            self.bbr.as_deref_mut().expect("bbr").mode = Mode::Startup;
            u64::MAX
        };
        let c = self.cwnd;
        why!(self, Rule::BbrProbeRttExit, from, [done, c0, prior, filled, c, k]);
    }

    fn bbr_set_pacing_rate(&mut self) {
        let (cwnd, from) = (self.cwnd, self.why_phase());
        let b = self.bbr.as_deref_mut().expect("bbr");
        if !b.has_seen_rtt && b.conn_min_rtt != u64::MAX {
            b.has_seen_rtt = true;
            b.pacing_rate = init_pacing(cwnd, b.conn_min_rtt);
        }
        let bw = b.btl_bw();
        let rate = (bw as u128 * b.pacing_gain as u128 / UNIT as u128) as u64;
        if rate > 0 && (b.filled_pipe || rate > b.pacing_rate) {
            let old = b.pacing_rate;
            b.pacing_rate = rate;
            if old != rate {
                let g = b.pacing_gain;
                why!(self, Rule::BbrPacing, from, [bw * 8, milli(g), old * 8, rate * 8]);
            }
        }
    }

    fn bbr_set_cwnd(&mut self, rs: &RateSample, pipe: u64, smss: u64, iw: u64) {
        let from = self.why_phase();
        let c0 = self.cwnd;
        let recovering = if self.in_fast_recovery {
            1
        } else if self.timeout_recovery.is_some() {
            2
        } else {
            0
        };
        let acked = rs.acked_segs * smss;
        let b = self.bbr.as_deref_mut().expect("bbr");
        let mut cwnd = c0;
        let mut conserving = false;
        let mut restored: Option<(u64, u64)> = None;
        if acked > 0 {
            if rs.losses > 0 {
                cwnd = cwnd.saturating_sub(rs.losses * smss).max(smss);
            }
            if recovering == 1 && b.prev_recovery != 1 {
                // First round of recovery: packet conservation, a round starts now.
                b.packet_conservation = true;
                b.next_round_delivered = b.delivered;
                cwnd = pipe + acked;
            } else if b.prev_recovery != 0 && recovering == 0 {
                // Recovery over: back to the cwnd before it.
                restored = Some((b.prior_cwnd, cwnd.max(b.prior_cwnd)));
                cwnd = cwnd.max(b.prior_cwnd);
                b.packet_conservation = false;
            }
            b.prev_recovery = recovering;
            if b.packet_conservation {
                cwnd = cwnd.max(pipe + acked);
                conserving = true;
            }
        }
        let mut target = 0;
        if acked > 0 && !conserving {
            let grow_from = cwnd;
            target = b.inflight(b.cwnd_gain, smss, iw);
            if b.filled_pipe {
                cwnd = (grow_from + acked).min(target);
            } else if grow_from < target || b.delivered < iw {
                cwnd = grow_from + acked;
            }
            cwnd = cwnd.max(MIN_PIPE_SEGS * smss);
        }
        let capped = b.mode == Mode::ProbeRtt && cwnd > MIN_PIPE_SEGS * smss;
        if capped {
            cwnd = MIN_PIPE_SEGS * smss;
        }
        let (bw, rtt, gain, filled) = (b.btl_bw(), b.min_rtt, b.cwnd_gain, b.filled_pipe);
        let rtt_shown = if rtt == u64::MAX { 0 } else { rtt };
        self.cwnd = cwnd;
        self.bbr_sync_window();
        let mut c1 = c0;
        if let Some((p, r)) = restored {
            why!(self, Rule::BbrRestore, from, [c0, p, r]);
            c1 = r;
        }
        if conserving {
            why!(self, Rule::BbrConservation, from, [c0, pipe, acked, rs.losses, cwnd]);
        } else if cwnd != c1 {
            // (From the window recovery restored, if it did: the target caps it next.)
            why!(
                self,
                Rule::BbrCwnd,
                from,
                [c1, acked, bw * 8, rtt_shown, milli(gain), target, filled, capped, cwnd]
            );
        }
    }

    /// A row for the trace when the model changed: `bbr_model` (BtlBw, RTprop, BDP, state).
    fn bbr_note(&mut self) {
        let b = self.bbr.as_deref_mut().expect("bbr");
        let rtt = if b.min_rtt == u64::MAX { 0 } else { b.min_rtt };
        let state = b.mode as u64 * 16 + if b.mode == Mode::ProbeBw { b.cycle_idx as u64 } else { 0 };
        let now = (b.btl_bw(), rtt, state, b.pacing_rate);
        if now == b.shown {
            return;
        }
        b.shown = now;
        let sat = |x: u64| x.min(u32::MAX as u64) as u32;
        let bdp = bdp_bytes(now.0, rtt, UNIT);
        self.notes.push(super::Note {
            kind: crate::trace::EventKind::BbrModel,
            seq: now.0 * 8,
            len: sat(rtt / 1000),
            seg: sat(bdp),
            tx: sat(state),
        });
        self.notes.push(super::Note {
            kind: crate::trace::EventKind::BbrPacing,
            seq: now.3 * 8,
            len: sat(b.pacing_gain),
            seg: sat(b.cwnd_gain),
            tx: sat(state),
        });
    }
}
