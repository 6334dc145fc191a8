//! SACK recovery at work on its connection (through [`Conn`]): the send loop that asks
//! NextSeg what goes next and measures the window against pipe, the ACK path that feeds the
//! scoreboard, RACK and PRR and starts and ends recovery, the loss timer (RACK's reordering
//! timer and the tail loss probe), and the timeout.

use super::prr::Bound;
use super::scoreboard::Next;
use super::settings::RecoveryBudget;
use super::{rack, LossTimer, Probe, SackSender, Trigger};
use crate::explain::Rule;
use crate::net::sack::SackBlocks;
use crate::scenario::Units;
use crate::tcp::cc::Flight;
use crate::tcp::recovery::{Conn, Count};
use crate::time::Ns;
use crate::trace::EventKind;

impl SackSender {
    /// The send loop of a SACK flow: NextSeg (or, outside recovery, the segments a timeout
    /// left lost, then new data), while the segment fits cwnd beside pipe (RFC 6675 §5 step
    /// (C.5): cwnd − pipe ≥ the segment).
    #[inline(never)]
    pub(crate) fn send_loop(&mut self, c: &mut impl Conn) -> u32 {
        let mut sent = 0u32;
        let mut cwnd_stop = false;
        let mut checked = false;
        let (mut pipe_b, mut pipe_s) = self.sb.pipe();
        let mut new_sent = false;
        let header = c.header();
        loop {
            let new_len = c.new_len();
            let Some(next) = self.next(new_len > 0, c.una()) else {
                if c.cc().why.on {
                    self.explain_nagle_hold(c, pipe_b, pipe_s);
                }
                break;
            };
            if sent == c.pass_limit() {
                c.defer_pass();
                break;
            }
            if !checked && c.cc().watches_idle() {
                checked = true;
                c.before_send();
            }
            let len = match next {
                Next::New => new_len,
                Next::Lost(i) | Next::Unsacked(i) | Next::Rescue(i) => self.sb.get(i).len as u64,
            };
            // In recovery and after a timeout the window is measured against pipe (RFC 6675
            // §5); before, against the flight, with Limited Transmit's allowance for new
            // data on the first two duplicate ACKs (RFC 3042), as for any flow.
            // A controller that models the path caps pipe at all times (Linux's packets in
            // flight).
            let by_pipe = self.in_recovery || self.rto_point.is_some() || next != Next::New || c.cc().models_path();
            let fits = if by_pipe {
                c.cc().fits(pipe_b + len, pipe_s, header, 0)
            } else {
                let extra = self.limited_transmit(c);
                let after = c.max() + len - c.una();
                let out = c.outstanding() as u64;
                let ok = c.cc().fits(after, out, header, extra);
                if ok && extra > 0 && c.cc().why.on && !c.cc().fits(after, out, header, 0) {
                    let p = c.cc().phase() as u8;
                    let v = [self.dupacks, c.cc().cwnd(), c.max() - c.una(), c.next_seg_no() as u64];
                    c.cc_mut().why.push(Rule::LimitedTransmit, p, p, &v);
                }
                ok
            };
            if !fits {
                cwnd_stop = true;
                break;
            }
            // A paced sender waits for its next departure time.
            if c.pacing_wait() {
                break;
            }
            let now = c.now();
            match next {
                Next::New => {
                    let s = c.send_new(len);
                    self.sb.sent_new(s.seq, s.len, s.no, now);
                    new_sent = true;
                }
                Next::Lost(i) | Next::Unsacked(i) | Next::Rescue(i) => {
                    if c.cc().why.on && self.in_recovery {
                        let rule = match next {
                            Next::Lost(_) => 1,
                            Next::Unsacked(_) => 3,
                            _ => 4,
                        };
                        let p = c.cc().phase() as u8;
                        let v = [rule, self.sb.get(i).no as u64, pipe_b, c.cc().cwnd()];
                        c.cc_mut().why.push(Rule::SackNextSeg, p, p, &v);
                    }
                    if let Next::Rescue(_) = next {
                        self.sb.rescue_rxt = Some(self.recovery_point);
                    }
                    self.sb.resent(i, now);
                    c.resend(i);
                }
            }
            if self.in_recovery {
                let n = match c.cc().units() {
                    Units::Bytes => len,
                    Units::Segments => 1,
                };
                self.prr.sent(n);
            }
            pipe_b += len;
            pipe_s += 1;
            sent += 1;
        }
        if sent > 0 {
            c.pass_end(cwnd_stop);
        }
        if c.cc().paces() && c.out_of_data() && !self.sb.any_waiting() {
            // Less than a segment left to send and nothing to resend: the samples to come
            // may be application-limited.
            c.cc_mut().on_out_of_data(self.loss_flight());
        }
        if new_sent {
            // RFC 8985 §7.2: (re)start the probe timer after new data leaves.
            self.arm_probe(c, true);
        }
        sent
    }

    /// Nothing goes because Nagle holds a small segment the windows would let out: say so
    /// (RFC 896), as the send loop of any flow does.
    #[cold]
    fn explain_nagle_hold(&self, c: &mut impl Conn, pipe_b: u64, pipe_s: u64) {
        let Some((len, unacked)) = c.nagle_held() else {
            return;
        };
        let fits = if self.in_recovery || self.rto_point.is_some() {
            c.cc().fits(pipe_b + len, pipe_s, c.header(), 0)
        } else {
            c.cc().fits(unacked + len, c.outstanding() as u64, c.header(), 0)
        };
        if fits {
            let (p, mss) = (c.cc().phase() as u8, c.mss());
            c.cc_mut().why.push(Rule::Nagle, p, p, &[len, mss, unacked]);
        }
    }

    /// An ACK of a SACK flow: the cumulative part as for any flow, then the blocks, RACK,
    /// the probe's outcome, and recovery's start, budget or end.
    #[inline(never)]
    pub(crate) fn on_ack(&mut self, c: &mut impl Conn, ack: u64, blocks: Option<&SackBlocks>) {
        let now = c.now();
        let models = c.cc().models_path();
        let pipe_before = self.loss_flight();
        self.lost_in_ack = 0;
        self.resent_in_ack = (0, 0);
        if let Some(b) = blocks {
            for (k, (l, r)) in b.iter().enumerate() {
                let len = u32::try_from(r.saturating_sub(l)).unwrap_or(u32::MAX);
                c.log(EventKind::SackBlock, l, len, k as u32, (k == 0 && b.dsack) as u32);
            }
        }
        let prev_una = c.una();
        let new_ack = ack > c.una() && ack <= c.max();
        let dup = ack == c.una() && c.max() > c.una();
        if new_ack {
            c.new_ack(ack);
        } else if dup {
            c.count(Count::DupAck);
        }
        let snd_max = c.max();
        let srtt = c.srtt();
        let (fresh, cum_newest) = if new_ack { self.sb.cum_ack(ack) } else { (0, None) };
        if self.rto_point.is_some_and(|p| ack >= p) {
            self.rto_point = None;
        }
        let u = self.on_blocks(now, ack, snd_max, blocks, cum_newest);
        if models {
            for &i in &self.newly_sacked {
                let len = self.sb.get(i).len as u64;
                c.cc_mut().on_sack_delivered(now, i, len);
            }
        }
        if new_ack {
            self.dupacks = 0;
        } else if dup && u.newly_sacked > 0 {
            // RFC 6675 §2: a duplicate ACK counts when it carries new SACK information.
            self.dupacks += 1;
        }
        if dup {
            c.log(EventKind::DupAck, ack, self.dupacks as u32, 0, 0);
        }
        let mut wait = None;
        if self.rack_on {
            wait = self.rack_detect(now, srtt);
            self.log_lost(c, 2, srtt);
        }
        self.probe_outcome(c, ack);
        let delivered = fresh + u.newly_sacked;
        if self.in_recovery {
            if ack >= self.recovery_point {
                let point = self.recovery_point;
                self.exit();
                c.cc_mut().on_sack_recovery_end(ack, point);
                c.trace_changes();
                c.log(EventKind::RecoveryExit, ack, 0, 0, 0);
            } else {
                if !self.rack_on {
                    self.mark_is_lost(c);
                }
                // RFC 9937's safe ACK: snd.una advanced and nothing newly deemed lost.
                let safe_ack = ack > prev_una && self.lost_in_ack == 0;
                self.recovery_budget(c, delivered, safe_ack);
            }
        } else {
            self.maybe_enter_recovery(c, ack, delivered);
        }
        match wait {
            Some(t) if t > 0 => self.arm_loss_timer(c, now + t, LossTimer::Reorder),
            _ => {
                if self.timer.is_some_and(|(_, k)| k == LossTimer::Reorder) {
                    self.timer = None;
                }
            }
        }
        if new_ack && ack > prev_una {
            // RFC 8985 §7.2: restart the probe timer on an ACK of new data.
            self.arm_probe(c, true);
        }
        if models {
            // The whole ACK is read: the model takes its sample, with pipe as it was before
            // anything this ACK resent (Linux's cong_control runs before the resends).
            let p = self.loss_flight();
            let (rb, rs) = self.resent_in_ack;
            let pipe = Flight {
                bytes: p.bytes - rb,
                segs: p.segs - rs,
            };
            c.cc_mut().on_ack_read(now, pipe_before, pipe, self.lost_in_ack);
            c.trace_changes();
        }
    }

    /// Marks (and logs) what IsLost says is lost.
    fn mark_is_lost(&mut self, c: &mut impl Conn) {
        let mut out = std::mem::take(&mut self.newly_lost);
        self.sb.mark_is_lost(self.dupthresh, self.smss, &mut out);
        self.newly_lost = out;
        self.log_lost(c, 1, 0);
    }

    /// Logs the segments newly deemed lost (`how`: 1 IsLost, 2 RACK, 3 the first segment
    /// at recovery's start) and explains RACK's.
    fn log_lost(&mut self, c: &mut impl Conn, how: u32, srtt: Ns) {
        let mut lost = std::mem::take(&mut self.newly_lost);
        self.lost_in_ack += lost.len() as u64;
        for &i in &lost {
            let e = self.sb.get(i);
            c.log(EventKind::MarkedLost, e.seq, e.len, e.no, how);
            if how == 2 && c.cc().why.on {
                let reo = self
                    .rack
                    .reo_wnd(self.in_recovery, self.sb.sacked_segs, self.dupthresh, srtt);
                let v = [e.no as u64, e.xmit, self.rack.rtt, reo, c.now()];
                let p = c.cc().phase() as u8;
                c.cc_mut().why.push(Rule::RackLost, p, p, &v);
            }
        }
        lost.clear();
        self.newly_lost = lost;
    }

    /// Outside recovery: whether this ACK starts one (RFC 6675 §5 step 4: DupThresh
    /// duplicate ACKs or IsLost(HighACK + 1); early retransmit's lower threshold; with RACK,
    /// a segment RACK deemed lost).
    fn maybe_enter_recovery(&mut self, c: &mut impl Conn, ack: u64, delivered: u64) {
        if self.rto_point.is_some() || self.sb.is_empty() {
            return;
        }
        let (threshold, er) = self.threshold(c.new_waits());
        let trigger = if self.rack_on {
            self.sb.any_waiting().then_some(Trigger::Rack)
        } else if self.dupacks >= threshold {
            Some(if er {
                Trigger::EarlyRetransmit
            } else {
                Trigger::DupThresh
            })
        } else if self.sb.head_is_lost(threshold, self.smss) {
            // IsLost(HighACK + 1), with early retransmit's lower threshold counted in SACKed
            // segments (RFC 5827 §3.2; Linux's sacked_out test).
            Some(if er { Trigger::EarlyRetransmit } else { Trigger::IsLost })
        } else {
            None
        };
        let Some(trigger) = trigger else {
            return;
        };
        if !self.rack_on {
            self.mark_is_lost(c);
        }
        let (flight, snd_max) = (self.loss_flight(), c.max());
        let sacked = self.sb.sacked_bytes;
        // PRR's RecoverFS is snd.nxt − snd.una (RFC 6937 §3), whatever sized ssthresh.
        let all = c.flight();
        let fs = match c.cc().units() {
            Units::Bytes => all.bytes,
            Units::Segments => all.segs,
        };
        self.enter(fs, snd_max);
        self.log_lost(c, 3, 0);
        let head = self.sb.get(0).no;
        c.cc_mut()
            .on_sack_loss(flight, snd_max, head as u64, trigger as u8, threshold, sacked);
        c.trace_changes();
        c.count(Count::FastRetransmit);
        c.log(EventKind::FastRetransmit, ack, 0, head, 0);
        c.forget_timing(head);
        self.disarm_probe();
        // The ACK that starts recovery shows a loss: never a safe ACK.
        self.recovery_budget(c, delivered, false);
        // RFC 6675 §5 step 4.3: the first segment is resent now, whatever the window says;
        // then (4.5) NextSeg while cwnd − pipe allows.
        if !self.sb.get(0).sacked {
            let e = self.sb.resent(0, c.now());
            let n = match c.cc().units() {
                Units::Bytes => e.len as u64,
                Units::Segments => 1,
            };
            self.prr.sent(n);
            self.resent_in_ack = (e.len as u64, 1);
            c.resend(0);
        }
        c.restart_rto();
    }

    /// The window for this ACK in recovery: PRR's pipe + sndcnt, or RFC 6675's cwnd =
    /// ssthresh as set at the start. `safe_ack`: this ACK advanced snd.una and showed no new
    /// loss (RFC 9937's bound reads it).
    fn recovery_budget(&mut self, c: &mut impl Conn, delivered: u64, safe_ack: bool) {
        // A controller that models the path sets its own window in recovery (Linux runs
        // BBR's instead of PRR).
        if self.budget == RecoveryBudget::Rfc6675 || c.cc().models_path() {
            return;
        }
        let bound = match self.budget {
            RecoveryBudget::PrrCrb => Bound::Conservative,
            RecoveryBudget::PrrRfc9937 => Bound::Rfc9937 { safe_ack },
            _ => Bound::SlowStart,
        };
        // RFC 9937 (as Linux's tcp_cwnd_reduction): an ACK or timer that delivers nothing
        // leaves the window as it is.
        if delivered == 0 && matches!(bound, Bound::Rfc9937 { .. }) {
            return;
        }
        let (pipe_b, pipe_s) = self.sb.pipe();
        let smss = c.mss();
        // Segment-based windows count in whole segments (as Linux's PRR does); byte-based
        // ones in bytes (as RFC 6937 writes it).
        let (unit, pipe, delivered) = match c.cc().units() {
            Units::Bytes => (1, pipe_b, delivered),
            Units::Segments => (smss, pipe_s, delivered.div_ceil(smss)),
        };
        let ss = c.cc().ssthresh() / unit;
        let prr_before = self.prr;
        let step = self.prr.on_ack(delivered, pipe, ss, smss / unit, bound);
        let cwnd = (pipe + step.sndcnt) * unit;
        c.cc_mut().set_recovery_window(cwnd);
        if c.cc().why.on {
            let p = c.cc().phase() as u8;
            let v = [
                delivered * unit,
                (prr_before.delivered + delivered) * unit,
                prr_before.out * unit,
                prr_before.recover_fs * unit,
                pipe * unit,
                c.cc().ssthresh(),
                step.proportional as u64,
                step.limit * unit,
                bound.code(),
                step.sndcnt * unit,
                cwnd,
            ];
            c.cc_mut().why.push(Rule::PrrSend, p, p, &v);
        }
    }

    /// The flight a loss response of a SACK flow sizes ssthresh from: RFC 6675's pipe, the
    /// data the scoreboard believes is in the network (what ns-3 passes, BytesInFlight),
    /// not snd.nxt − snd.una, which counts what the receiver already holds above a hole
    /// and grows across a long recovery.
    pub(crate) fn loss_flight(&self) -> Flight {
        let (bytes, segs) = self.sb.pipe();
        Flight { bytes, segs }
    }

    /// RFC 3042's allowance: one new segment per duplicate ACK, at most two, below DupThresh.
    fn limited_transmit(&self, c: &impl Conn) -> u64 {
        let d = self.dupacks;
        if c.cc().limited_transmit() && d > 0 && d < self.dupthresh {
            d.min(2)
        } else {
            0
        }
    }

    /// What the probe's ACK tells (RFC 8985 §7.4): once the cumulative ACK passes the
    /// probe, a resent probe that no D-SACK showed redundant repaired a loss.
    fn probe_outcome(&mut self, c: &mut impl Conn, ack: u64) {
        let Some(p) = self.probe else {
            return;
        };
        if ack < p.end {
            return;
        }
        self.probe = None;
        if p.retrans && !p.dsacked && !self.in_recovery {
            let seg = c.next_seg_no().saturating_sub(1) as u64;
            let flight = self.loss_flight();
            c.cc_mut().on_probe_repaired(flight, p.end, seg);
            c.trace_changes();
        }
    }

    /// Arms the probe timer if TLP wants one (`restart`: even if one is armed).
    fn arm_probe(&mut self, c: &mut impl Conn, restart: bool) {
        if !self.wants_probe() {
            return;
        }
        if !restart && self.timer.is_some() {
            return;
        }
        if self.timer.is_some_and(|(_, k)| k == LossTimer::Reorder) {
            return;
        }
        let srtt = (c.srtt() > 0).then(|| c.srtt());
        let one = c.outstanding() == 1;
        let now = c.now();
        let at = now + rack::pto(srtt, one, now, c.rto_deadline());
        self.arm_loss_timer(c, at, LossTimer::Probe);
    }

    fn disarm_probe(&mut self) {
        if self.timer.is_some_and(|(_, k)| k == LossTimer::Probe) {
            self.timer = None;
        }
    }

    /// Sets the loss timer; as the retransmission timer, only an earlier deadline needs a
    /// new queue entry.
    fn arm_loss_timer(&mut self, c: &mut impl Conn, at: Ns, kind: LossTimer) {
        self.timer = Some((at, kind));
        if self.timer_event.is_none_or(|e| e > at) {
            self.timer_gen = self.timer_gen.wrapping_add(1);
            self.timer_event = Some(at);
            c.wake(at, self.timer_gen);
        }
    }

    /// The loss timer's entry `gen` fired.
    pub(crate) fn on_loss_timer(&mut self, c: &mut impl Conn, gen: u32) {
        if gen != self.timer_gen {
            return;
        }
        self.timer_event = None;
        let Some((at, kind)) = self.timer else {
            return;
        };
        let now = c.now();
        if at > now {
            self.timer_gen = self.timer_gen.wrapping_add(1);
            self.timer_event = Some(at);
            c.wake(at, self.timer_gen);
            return;
        }
        self.timer = None;
        c.cc_mut().set_now(now);
        match kind {
            LossTimer::Reorder => {
                let srtt = c.srtt();
                let wait = self.rack_detect(now, srtt);
                self.log_lost(c, 2, srtt);
                if self.in_recovery {
                    self.recovery_budget(c, 0, false);
                } else {
                    let ack = c.una();
                    self.maybe_enter_recovery(c, ack, 0);
                }
                if let Some(t) = wait.filter(|&t| t > 0) {
                    self.arm_loss_timer(c, now + t, LossTimer::Reorder);
                }
                self.send_loop(c);
            }
            LossTimer::Probe => self.send_probe(c),
        }
    }

    /// RFC 8985 §7.3: the probe: a new segment if the windows allow it, else the last
    /// segment sent, again.
    fn send_probe(&mut self, c: &mut impl Conn) {
        if c.una() >= c.max() || !self.wants_probe() {
            return;
        }
        let new_len = c.new_len();
        let (pipe_b, pipe_s) = self.sb.pipe();
        let now = c.now();
        let srtt = c.srtt();
        let outstanding = c.outstanding() as u64;
        let pto = rack::pto((srtt > 0).then_some(srtt), outstanding == 1, now, None);
        let retrans = !(new_len > 0 && c.cc().fits(pipe_b + new_len, pipe_s, c.header(), 0));
        let seg = if !retrans {
            let s = c.send_new(new_len);
            self.sb.sent_new(s.seq, s.len, s.no, now);
            s
        } else {
            let i = c.outstanding() - 1;
            self.sb.resent(i, now);
            c.resend(i)
        };
        c.count(Count::Probe);
        c.log(EventKind::TailLossProbe, seg.seq, seg.len, seg.no, seg.tx);
        if c.cc().why.on {
            let p = c.cc().phase() as u8;
            let v = [pto, srtt, outstanding, (!retrans) as u64, seg.no as u64];
            c.cc_mut().why.push(Rule::TlpProbe, p, p, &v);
        }
        let end = c.max();
        self.probe = Some(Probe {
            end,
            retrans,
            dsacked: false,
        });
        // RFC 8985 §7.3: the retransmission timer guards the probe.
        c.restart_rto();
    }

    /// The state as the recovery series records it.
    pub(crate) fn row(&self, srtt: Ns) -> crate::trace::RecoveryRow {
        let (pipe, _) = self.sb.pipe();
        let reo = if self.rack_on {
            self.rack
                .reo_wnd(self.in_recovery, self.sb.sacked_segs, self.dupthresh, srtt)
        } else {
            u64::MAX
        };
        let (timer_at, timer_kind) = match self.timer {
            None => (u64::MAX, 0),
            Some((at, LossTimer::Reorder)) => (at, 1),
            Some((at, LossTimer::Probe)) => (at, 2),
        };
        crate::trace::RecoveryRow {
            pipe,
            sacked: self.sb.sacked_bytes,
            lost: self.sb.waiting_bytes(),
            in_recovery: self.in_recovery,
            recovery_point: self.recovery_point,
            prr_delivered: self.prr.delivered,
            prr_out: self.prr.out,
            reo_wnd: reo,
            timer_at,
            timer_kind,
            probe_out: self.probe.is_some(),
        }
    }
}
