//! The sender's wiring of SACK-based recovery (`tcp::sack`): the send loop that asks
//! NextSeg what goes next and measures the window against pipe, the ACK path that feeds the
//! scoreboard, RACK and PRR and starts and ends recovery, the loss timer (RACK's reordering
//! timer and the tail loss probe), and the timeout. Only flows that negotiated SACK come
//! here; every other flow's path is unchanged.

use super::{ConnState, Env, Sender, MAX_PASS_SEGMENTS};
use crate::event::Event;
use crate::explain::Rule;
use crate::net::sack::SackBlocks;
use crate::scenario::Units;
use crate::tcp::sack::scoreboard::Next;
use crate::tcp::sack::settings::RecoveryBudget;
use crate::tcp::sack::{rack, LossTimer, Probe, SackSender, Trigger};
use crate::time::Ns;
use crate::trace::EventKind;

impl Sender {
    fn sk(&self) -> &SackSender {
        self.sack.as_deref().expect("a SACK flow")
    }

    fn sk_mut(&mut self) -> &mut SackSender {
        self.sack.as_deref_mut().expect("a SACK flow")
    }

    /// Bytes of new data the next segment would carry, if the receiver's window and Nagle
    /// let it go (0 otherwise).
    fn sack_new_len(&self) -> u64 {
        let avail = self.app_written.saturating_sub(self.snd_max);
        let len = avail.min(self.mss);
        if len == 0 || self.snd_max + len - self.snd_una > self.rwnd {
            return 0;
        }
        if self.nagle && len < self.mss && self.snd_max > self.snd_una {
            return 0;
        }
        len
    }

    /// The send loop of a SACK flow: NextSeg (or, outside recovery, the segments a timeout
    /// left lost, then new data), while the segment fits cwnd beside pipe (RFC 6675 §5 step
    /// (C.5): cwnd − pipe ≥ the segment).
    #[inline(never)]
    pub(super) fn sack_send_loop(&mut self, w: &mut impl Env) -> u32 {
        debug_assert!(self.state == ConnState::Established);
        let mut sent = 0u32;
        let mut cwnd_stop = false;
        let mut checked = false;
        let (mut pipe_b, mut pipe_s) = self.sk().sb.pipe();
        let mut new_sent = false;
        loop {
            let new_len = self.sack_new_len();
            let una = self.snd_una;
            let Some(next) = self.sk_mut().next(new_len > 0, una) else {
                if self.cc.why.on {
                    self.explain_nagle_hold(pipe_b, pipe_s);
                }
                break;
            };
            if sent == MAX_PASS_SEGMENTS {
                if self.pace_event.is_none() {
                    self.pace_event = Some(w.now());
                    w.schedule(w.now(), Event::Pace { flow: self.flow });
                }
                break;
            }
            if !checked && self.cc.watches_idle() {
                checked = true;
                self.cc.before_send(w.now(), self.rtt.rto());
                self.trace_changes(w);
            }
            let len = match next {
                Next::New => new_len,
                Next::Lost(i) | Next::Unsacked(i) | Next::Rescue(i) => self.sk().sb.get(i).len as u64,
            };
            // In recovery and after a timeout the window is measured against pipe (RFC 6675
            // §5); before, against the flight, with Limited Transmit's allowance for new
            // data on the first two duplicate ACKs (RFC 3042), as for any flow.
            let fits = if self.sk().in_recovery || self.sk().rto_point.is_some() || next != Next::New {
                self.cc.fits(pipe_b + len, pipe_s, self.header, 0)
            } else {
                let extra = self.sack_limited_transmit();
                let after = self.snd_max + len - self.snd_una;
                let ok = self.cc.fits(after, self.segs.len() as u64, self.header, extra);
                if ok && extra > 0 && self.cc.why.on && !self.cc.fits(after, self.segs.len() as u64, self.header, 0) {
                    let p = self.cc.phase() as u8;
                    let v = [
                        self.sk().dupacks,
                        self.cc.cwnd(),
                        self.snd_max - self.snd_una,
                        self.next_seg_no as u64,
                    ];
                    self.cc.why.push(Rule::LimitedTransmit, p, p, &v);
                }
                ok
            };
            if !fits {
                cwnd_stop = true;
                break;
            }
            let now = w.now();
            match next {
                Next::New => {
                    let (seq, no) = (self.snd_max, self.next_seg_no);
                    self.send_next::<true>(w, len, false);
                    self.sk_mut().sb.sent_new(seq, len as u32, no, now);
                    new_sent = true;
                }
                Next::Lost(i) | Next::Unsacked(i) | Next::Rescue(i) => {
                    if self.cc.why.on && self.sk().in_recovery {
                        let rule = match next {
                            Next::Lost(_) => 1,
                            Next::Unsacked(_) => 3,
                            _ => 4,
                        };
                        let p = self.cc.phase() as u8;
                        let v = [rule, self.segs[i].no as u64, pipe_b, self.cc.cwnd()];
                        self.cc.why.push(Rule::SackNextSeg, p, p, &v);
                    }
                    if let Next::Rescue(_) = next {
                        let rp = self.sk().recovery_point;
                        self.sk_mut().sb.rescue_rxt = Some(rp);
                    }
                    self.segs[i].tx += 1;
                    let seg = self.segs[i];
                    self.sk_mut().sb.resent(i, now);
                    self.transmit(w, seg);
                }
            }
            if self.sk().in_recovery {
                let n = match self.units() {
                    Units::Bytes => len,
                    Units::Segments => 1,
                };
                self.sk_mut().prr.sent(n);
            }
            pipe_b += len;
            pipe_s += 1;
            sent += 1;
        }
        if sent > 0 {
            self.cc
                .on_send_pass_end(self.nxt_idx as u64, self.snd_nxt, self.snd_una, cwnd_stop);
        }
        if new_sent {
            // RFC 8985 §7.2: (re)start the probe timer after new data leaves.
            self.arm_probe(w, true);
        }
        sent
    }

    /// Nothing goes because Nagle holds a small segment the windows would let out: say so
    /// (RFC 896), as the send loop of any flow does.
    #[cold]
    fn explain_nagle_hold(&mut self, pipe_b: u64, pipe_s: u64) {
        let len = self.app_written.saturating_sub(self.snd_max).min(self.mss);
        let unacked = self.snd_max - self.snd_una;
        if len == 0 || len >= self.mss || !self.nagle || unacked == 0 || self.snd_max + len - self.snd_una > self.rwnd {
            return;
        }
        let fits = if self.sk().in_recovery || self.sk().rto_point.is_some() {
            self.cc.fits(pipe_b + len, pipe_s, self.header, 0)
        } else {
            self.cc.fits(unacked + len, self.segs.len() as u64, self.header, 0)
        };
        if fits {
            let p = self.cc.phase() as u8;
            self.cc.why.push(Rule::Nagle, p, p, &[len, self.mss, unacked]);
        }
    }

    /// An ACK of a SACK flow: the cumulative part as for any flow, then the blocks, RACK,
    /// the probe's outcome, and recovery's start, budget or end.
    #[inline(never)]
    pub(super) fn sack_ack(&mut self, w: &mut impl Env, ack: u64, blocks: Option<&SackBlocks>) {
        let now = w.now();
        if let Some(b) = blocks {
            for (k, (l, r)) in b.iter().enumerate() {
                let len = u32::try_from(r.saturating_sub(l)).unwrap_or(u32::MAX);
                w.log(
                    self.flow,
                    EventKind::SackBlock,
                    l,
                    len,
                    k as u32,
                    (k == 0 && b.dsack) as u32,
                );
            }
        }
        let prev_una = self.snd_una;
        let new_ack = ack > self.snd_una && ack <= self.snd_max;
        let dup = ack == self.snd_una && self.snd_max > self.snd_una;
        if new_ack {
            self.on_new_ack::<true>(w, ack);
        } else if dup {
            self.stats.dupacks += 1;
        }
        let snd_max = self.snd_max;
        let srtt = self.rtt.srtt();
        let (fresh, cum_newest) = if new_ack {
            self.sk_mut().sb.cum_ack(ack)
        } else {
            (0, None)
        };
        let sk = self.sk_mut();
        if sk.rto_point.is_some_and(|p| ack >= p) {
            sk.rto_point = None;
        }
        let u = sk.on_blocks(now, ack, snd_max, blocks, cum_newest);
        if new_ack {
            sk.dupacks = 0;
        } else if dup && u.newly_sacked > 0 {
            // RFC 6675 §2: a duplicate ACK counts when it carries new SACK information.
            sk.dupacks += 1;
        }
        if dup {
            let d = self.sk().dupacks as u32;
            w.log(self.flow, EventKind::DupAck, ack, d, 0, 0);
        }
        let mut wait = None;
        if self.sk().rack_on {
            wait = self.sk_mut().rack_detect(now, srtt);
            self.log_lost(w, 2, srtt);
        }
        self.probe_outcome(w, ack);
        let delivered = fresh + u.newly_sacked;
        if self.sk().in_recovery {
            if ack >= self.sk().recovery_point {
                let point = self.sk().recovery_point;
                self.sk_mut().exit();
                self.cc.on_sack_recovery_end(ack, point);
                self.trace_changes(w);
                w.log(self.flow, EventKind::RecoveryExit, ack, 0, 0, 0);
            } else {
                if !self.sk().rack_on {
                    self.mark_is_lost(w);
                }
                self.recovery_budget(delivered);
            }
        } else {
            self.maybe_enter_recovery(w, ack, delivered);
        }
        match wait {
            Some(t) if t > 0 => self.arm_loss_timer(w, now + t, LossTimer::Reorder),
            _ => {
                if self.sk().timer.is_some_and(|(_, k)| k == LossTimer::Reorder) {
                    self.sk_mut().timer = None;
                }
            }
        }
        if new_ack && ack > prev_una {
            // RFC 8985 §7.2: restart the probe timer on an ACK of new data.
            self.arm_probe(w, true);
        }
    }

    /// Marks (and logs) what IsLost says is lost.
    fn mark_is_lost(&mut self, w: &mut impl Env) {
        let sk = self.sk_mut();
        let (d, s) = (sk.dupthresh, sk.smss);
        let mut out = std::mem::take(&mut sk.newly_lost);
        sk.sb.mark_is_lost(d, s, &mut out);
        sk.newly_lost = out;
        self.log_lost(w, 1, 0);
    }

    /// Logs the segments newly deemed lost (`how`: 1 IsLost, 2 RACK, 3 the first segment
    /// at recovery's start) and explains RACK's.
    fn log_lost(&mut self, w: &mut impl Env, how: u32, srtt: Ns) {
        let lost = std::mem::take(&mut self.sk_mut().newly_lost);
        for &i in &lost {
            let e = self.sk().sb.get(i);
            w.log(self.flow, EventKind::MarkedLost, e.seq, e.len, e.no, how);
            if how == 2 && self.cc.why.on {
                let sk = self.sk();
                let reo = sk.rack.reo_wnd(sk.in_recovery, sk.sb.sacked_segs, sk.dupthresh, srtt);
                let v = [e.no as u64, e.xmit, sk.rack.rtt, reo, w.now()];
                let p = self.cc.phase() as u8;
                self.cc.why.push(Rule::RackLost, p, p, &v);
            }
        }
        let mut lost = lost;
        lost.clear();
        self.sk_mut().newly_lost = lost;
    }

    /// Outside recovery: whether this ACK starts one (RFC 6675 §5 step 4: DupThresh
    /// duplicate ACKs or IsLost(HighACK + 1); early retransmit's lower threshold; with RACK,
    /// a segment RACK deemed lost).
    fn maybe_enter_recovery(&mut self, w: &mut impl Env, ack: u64, delivered: u64) {
        let sk = self.sk();
        if sk.rto_point.is_some() || sk.sb.is_empty() {
            return;
        }
        let new_waits = self.app_written.saturating_sub(self.snd_max) > 0;
        let (threshold, er) = sk.threshold(new_waits);
        let trigger = if sk.rack_on {
            sk.sb.any_waiting().then_some(Trigger::Rack)
        } else if sk.dupacks >= threshold {
            Some(if er {
                Trigger::EarlyRetransmit
            } else {
                Trigger::DupThresh
            })
        } else if sk.sb.head_is_lost(threshold, sk.smss) {
            // IsLost(HighACK + 1), with early retransmit's lower threshold counted in SACKed
            // segments (RFC 5827 §3.2; Linux's sacked_out test).
            Some(if er { Trigger::EarlyRetransmit } else { Trigger::IsLost })
        } else {
            None
        };
        let Some(trigger) = trigger else {
            return;
        };
        if !self.sk().rack_on {
            self.mark_is_lost(w);
        }
        let (flight, snd_max) = (self.loss_flight(), self.snd_max);
        let sacked = self.sk().sb.sacked_bytes;
        // PRR's RecoverFS is snd.nxt − snd.una (RFC 6937 §3), whatever sized ssthresh.
        let all = self.flight();
        let fs = match self.units() {
            Units::Bytes => all.bytes,
            Units::Segments => all.segs,
        };
        self.sk_mut().enter(fs, snd_max);
        self.log_lost(w, 3, 0);
        let head = self.segs.front().map_or(0, |s| s.no);
        self.cc
            .on_sack_loss(flight, snd_max, head as u64, trigger as u8, threshold, sacked);
        self.trace_changes(w);
        self.stats.fast_retransmits += 1;
        w.log(self.flow, EventKind::FastRetransmit, ack, 0, head, 0);
        self.forget_timing(head);
        self.disarm_probe();
        self.recovery_budget(delivered);
        // RFC 6675 §5 step 4.3: the first segment is resent now, whatever the window says;
        // then (4.5) NextSeg while cwnd − pipe allows.
        if !self.sk().sb.get(0).sacked {
            let now = w.now();
            self.segs[0].tx += 1;
            let seg = self.segs[0];
            self.sk_mut().sb.resent(0, now);
            let n = match self.units() {
                Units::Bytes => seg.len as u64,
                Units::Segments => 1,
            };
            self.sk_mut().prr.sent(n);
            self.transmit(w, seg);
        }
        self.restart_rto(w);
    }

    /// The window for this ACK in recovery: PRR's pipe + sndcnt, or RFC 6675's cwnd =
    /// ssthresh as set at the start.
    fn recovery_budget(&mut self, delivered: u64) {
        let budget = self.sk().budget;
        if budget == RecoveryBudget::Rfc6675 {
            return;
        }
        let (pipe_b, pipe_s) = self.sk().sb.pipe();
        let smss = self.mss;
        // Segment-based windows count in whole segments (as Linux's PRR does); byte-based
        // ones in bytes (as RFC 6937 writes it).
        let (unit, pipe, delivered) = match self.units() {
            Units::Bytes => (1, pipe_b, delivered),
            Units::Segments => (smss, pipe_s, delivered.div_ceil(smss)),
        };
        let ss = self.cc.ssthresh() / unit;
        let prr_before = self.sk().prr;
        let step = self
            .sk_mut()
            .prr
            .on_ack(delivered, pipe, ss, smss / unit, budget == RecoveryBudget::PrrCrb);
        let cwnd = (pipe + step.sndcnt) * unit;
        self.cc.set_recovery_window(cwnd);
        if self.cc.why.on {
            let p = self.cc.phase() as u8;
            let v = [
                delivered * unit,
                (prr_before.delivered + delivered) * unit,
                prr_before.out * unit,
                prr_before.recover_fs * unit,
                pipe * unit,
                self.cc.ssthresh(),
                step.proportional as u64,
                step.limit * unit,
                step.sndcnt * unit,
                cwnd,
            ];
            self.cc.why.push(Rule::PrrSend, p, p, &v);
        }
    }

    /// The flight a loss response of a SACK flow sizes ssthresh from: RFC 6675's pipe, the
    /// data the scoreboard believes is in the network (what ns-3 passes, BytesInFlight),
    /// not snd.nxt − snd.una, which counts what the receiver already holds above a hole
    /// and grows across a long recovery.
    pub(super) fn loss_flight(&self) -> crate::tcp::cc::Flight {
        let (bytes, segs) = self.sk().sb.pipe();
        crate::tcp::cc::Flight { bytes, segs }
    }

    /// RFC 3042's allowance: one new segment per duplicate ACK, at most two, below DupThresh.
    fn sack_limited_transmit(&self) -> u64 {
        let d = self.sk().dupacks;
        if self.cc.limited_transmit() && d > 0 && d < self.sk().dupthresh {
            d.min(2)
        } else {
            0
        }
    }

    fn units(&self) -> Units {
        self.cc.units()
    }

    /// What the probe's ACK tells (RFC 8985 §7.4): once the cumulative ACK passes the
    /// probe, a resent probe that no D-SACK showed redundant repaired a loss.
    fn probe_outcome(&mut self, w: &mut impl Env, ack: u64) {
        let Some(p) = self.sk().probe else {
            return;
        };
        if ack < p.end {
            return;
        }
        self.sk_mut().probe = None;
        if p.retrans && !p.dsacked && !self.sk().in_recovery {
            let seg = self.next_seg_no.saturating_sub(1) as u64;
            let flight = self.loss_flight();
            self.cc.on_probe_repaired(flight, p.end, seg);
            self.trace_changes(w);
        }
    }

    /// Arms the probe timer if TLP wants one (`restart`: even if one is armed).
    fn arm_probe(&mut self, w: &mut impl Env, restart: bool) {
        if !self.sk().wants_probe() {
            return;
        }
        if !restart && self.sk().timer.is_some() {
            return;
        }
        if self.sk().timer.is_some_and(|(_, k)| k == LossTimer::Reorder) {
            return;
        }
        let srtt = (self.rtt.srtt() > 0).then(|| self.rtt.srtt());
        let one = self.segs.len() == 1;
        let at = w.now() + rack::pto(srtt, one, w.now(), self.rto_deadline);
        self.arm_loss_timer(w, at, LossTimer::Probe);
    }

    fn disarm_probe(&mut self) {
        if self.sk().timer.is_some_and(|(_, k)| k == LossTimer::Probe) {
            self.sk_mut().timer = None;
        }
    }

    /// Sets the loss timer; as the retransmission timer, only an earlier deadline needs a
    /// new queue entry.
    fn arm_loss_timer(&mut self, w: &mut impl Env, at: Ns, kind: LossTimer) {
        self.sk_mut().timer = Some((at, kind));
        if self.loss_event.is_none_or(|e| e > at) {
            self.loss_gen = self.loss_gen.wrapping_add(1);
            self.loss_event = Some(at);
            w.schedule(
                at,
                Event::LossTimer {
                    flow: self.flow,
                    gen: self.loss_gen,
                },
            );
        }
    }

    /// The loss timer's entry fired.
    pub fn on_loss_timer(&mut self, w: &mut impl Env, gen: u32) {
        if gen != self.loss_gen || self.sack.is_none() {
            return;
        }
        self.loss_event = None;
        let Some((at, kind)) = self.sk().timer else {
            return;
        };
        let now = w.now();
        if at > now {
            self.loss_gen = self.loss_gen.wrapping_add(1);
            self.loss_event = Some(at);
            w.schedule(
                at,
                Event::LossTimer {
                    flow: self.flow,
                    gen: self.loss_gen,
                },
            );
            return;
        }
        self.sk_mut().timer = None;
        self.cc.set_now(now);
        match kind {
            LossTimer::Reorder => {
                let srtt = self.rtt.srtt();
                let wait = self.sk_mut().rack_detect(now, srtt);
                self.log_lost(w, 2, srtt);
                if self.sk().in_recovery {
                    self.recovery_budget(0);
                } else {
                    let ack = self.snd_una;
                    self.maybe_enter_recovery(w, ack, 0);
                }
                if let Some(t) = wait.filter(|&t| t > 0) {
                    self.arm_loss_timer(w, now + t, LossTimer::Reorder);
                }
                self.send_loop(w);
            }
            LossTimer::Probe => self.send_probe(w),
        }
    }

    /// RFC 8985 §7.3: the probe: a new segment if the windows allow it, else the last
    /// segment sent, again.
    fn send_probe(&mut self, w: &mut impl Env) {
        if self.snd_una >= self.snd_max || !self.sk().wants_probe() {
            return;
        }
        let new_len = self.sack_new_len();
        let (pipe_b, pipe_s) = self.sk().sb.pipe();
        let now = w.now();
        let srtt = self.rtt.srtt();
        let outstanding = self.segs.len() as u64;
        let pto = rack::pto((srtt > 0).then_some(srtt), outstanding == 1, now, None);
        let retrans = !(new_len > 0 && self.cc.fits(pipe_b + new_len, pipe_s, self.header, 0));
        let seg = if !retrans {
            let (seq, no) = (self.snd_max, self.next_seg_no);
            self.send_next::<true>(w, new_len, false);
            self.sk_mut().sb.sent_new(seq, new_len as u32, no, now);
            self.segs.back().copied().expect("just sent")
        } else {
            let i = self.segs.len() - 1;
            self.segs[i].tx += 1;
            let seg = self.segs[i];
            self.sk_mut().sb.resent(i, now);
            self.transmit(w, seg);
            seg
        };
        self.stats.tail_loss_probes += 1;
        w.log(self.flow, EventKind::TailLossProbe, seg.seq, seg.len, seg.no, seg.tx);
        if self.cc.why.on {
            let p = self.cc.phase() as u8;
            let v = [pto, srtt, outstanding, (!retrans) as u64, seg.no as u64];
            self.cc.why.push(Rule::TlpProbe, p, p, &v);
        }
        let end = self.snd_max;
        self.sk_mut().probe = Some(Probe {
            end,
            retrans,
            dsacked: false,
        });
        // RFC 8985 §7.3: the retransmission timer guards the probe.
        self.restart_rto(w);
    }

    /// The SACK state as the recovery series records it (None for a flow without SACK).
    pub fn recovery_row(&self) -> Option<crate::trace::RecoveryRow> {
        let sk = self.sack.as_deref()?;
        let (pipe, _) = sk.sb.pipe();
        let lost = sk.sb.waiting_bytes();
        let reo = if sk.rack_on {
            sk.rack
                .reo_wnd(sk.in_recovery, sk.sb.sacked_segs, sk.dupthresh, self.rtt.srtt())
        } else {
            u64::MAX
        };
        let (timer_at, timer_kind) = match sk.timer {
            None => (u64::MAX, 0),
            Some((at, LossTimer::Reorder)) => (at, 1),
            Some((at, LossTimer::Probe)) => (at, 2),
        };
        Some(crate::trace::RecoveryRow {
            pipe,
            sacked: sk.sb.sacked_bytes,
            lost,
            in_recovery: sk.in_recovery,
            recovery_point: sk.recovery_point,
            prr_delivered: sk.prr.delivered,
            prr_out: sk.prr.out,
            reo_wnd: reo,
            timer_at,
            timer_kind,
            probe_out: sk.probe.is_some(),
        })
    }

    /// The retransmission timer expired (after the controller's response): RFC 6675 §5.1.
    #[inline(never)]
    pub(super) fn sack_timeout(&mut self) {
        let snd_max = self.snd_max;
        self.sk_mut().on_timeout(snd_max);
    }
}
