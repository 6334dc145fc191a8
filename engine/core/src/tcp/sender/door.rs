//! The sender as a loss-recovery mechanism sees it: [`Conn`] over the sender and its world
//! (`tcp::recovery`), and the sender's calls into its mechanism. A flow without a mechanism
//! never comes here.

use super::{Env, Seg, Sender, MAX_PASS_SEGMENTS};
use crate::event::Event;
use crate::tcp::cc::{Cc, Flight};
use crate::tcp::recovery::{Conn, Count, Recovery, Sent};
use crate::time::Ns;
use crate::trace::EventKind;

/// The door a recovery mechanism acts through: the sender (its mechanism taken out while it
/// acts) and the world.
pub(super) struct Door<'a, E: Env> {
    s: &'a mut Sender,
    w: &'a mut E,
}

fn sent(seg: Seg) -> Sent {
    Sent {
        seq: seg.seq,
        len: seg.len,
        no: seg.no,
        tx: seg.tx,
    }
}

impl<E: Env> Conn for Door<'_, E> {
    #[inline]
    fn now(&self) -> Ns {
        self.w.now()
    }

    fn log(&mut self, kind: EventKind, seq: u64, len: u32, seg: u32, tx: u32) {
        self.w.log(self.s.flow, kind, seq, len, seg, tx);
    }

    fn wake(&mut self, at: Ns, gen: u32) {
        let flow = self.s.flow;
        self.w.schedule(at, Event::LossTimer { flow, gen });
    }

    #[inline]
    fn una(&self) -> u64 {
        self.s.snd_una
    }

    #[inline]
    fn max(&self) -> u64 {
        self.s.snd_max
    }

    fn flight(&self) -> Flight {
        self.s.flight()
    }

    #[inline]
    fn outstanding(&self) -> usize {
        self.s.segs.len()
    }

    fn next_seg_no(&self) -> u32 {
        self.s.next_seg_no
    }

    fn new_len(&self) -> u64 {
        let s = &self.s;
        let len = s.app_written.saturating_sub(s.snd_max).min(s.mss);
        if len == 0 || s.snd_max + len - s.snd_una > s.rwnd {
            return 0;
        }
        if s.nagle && len < s.mss && s.snd_max > s.snd_una {
            return 0;
        }
        len
    }

    fn new_waits(&self) -> bool {
        self.s.app_written > self.s.snd_max
    }

    fn nagle_held(&self) -> Option<(u64, u64)> {
        let s = &self.s;
        let len = s.app_written.saturating_sub(s.snd_max).min(s.mss);
        let unacked = s.snd_max - s.snd_una;
        let held = len > 0 && len < s.mss && s.nagle && unacked > 0 && s.snd_max + len - s.snd_una <= s.rwnd;
        held.then_some((len, unacked))
    }

    fn mss(&self) -> u64 {
        self.s.mss
    }

    fn header(&self) -> u64 {
        self.s.header
    }

    fn srtt(&self) -> Ns {
        self.s.rtt.srtt()
    }

    fn rto_deadline(&self) -> Option<Ns> {
        self.s.rto_deadline
    }

    #[inline]
    fn cc(&self) -> &Cc {
        &self.s.cc
    }

    #[inline]
    fn cc_mut(&mut self) -> &mut Cc {
        &mut self.s.cc
    }

    fn send_new(&mut self, len: u64) -> Sent {
        self.s.send_next::<true>(self.w, len, false);
        sent(*self.s.segs.back().expect("just sent"))
    }

    fn resend(&mut self, i: usize) -> Sent {
        let seg = &mut self.s.segs[i];
        seg.tx += 1;
        let seg = *seg;
        self.s.transmit(self.w, seg);
        sent(seg)
    }

    fn new_ack(&mut self, ack: u64) {
        self.s.on_new_ack::<true>(self.w, ack);
    }

    fn count(&mut self, c: Count) {
        let st = &mut self.s.stats;
        match c {
            Count::DupAck => st.dupacks += 1,
            Count::FastRetransmit => st.fast_retransmits += 1,
            Count::Probe => st.tail_loss_probes += 1,
        }
    }

    fn restart_rto(&mut self) {
        self.s.restart_rto(self.w);
    }

    fn forget_timing(&mut self, no: u32) {
        self.s.forget_timing(no);
    }

    fn trace_changes(&mut self) {
        self.s.trace_changes(self.w);
    }

    fn before_send(&mut self) {
        self.s.cc.before_send(self.w.now(), self.s.rtt.rto());
        self.s.trace_changes(self.w);
    }

    #[inline]
    fn pacing_wait(&mut self) -> bool {
        if self.s.paced && self.s.next_departure > self.w.now() {
            self.s.wait_for_pacing(self.w);
            return true;
        }
        false
    }

    fn defer_pass(&mut self) {
        if self.s.pace_event.is_none() {
            let now = self.w.now();
            self.s.pace_event = Some(now);
            self.w.schedule(now, Event::Pace { flow: self.s.flow });
        }
    }

    #[inline]
    fn pass_limit(&self) -> u32 {
        MAX_PASS_SEGMENTS
    }

    fn out_of_data(&self) -> bool {
        self.s.app_written.saturating_sub(self.s.snd_max) < self.s.mss
    }

    fn pass_end(&mut self, cwnd_stop: bool) {
        let s = &mut self.s;
        s.cc.on_send_pass_end(s.nxt_idx as u64, s.snd_nxt, s.snd_una, cwnd_stop);
    }
}

impl Sender {
    /// Runs `f` on the flow's mechanism with the door to the sender (None without one).
    fn with_recovery<E: Env, R>(
        &mut self,
        w: &mut E,
        f: impl FnOnce(&mut Recovery, &mut Door<'_, E>) -> R,
    ) -> Option<R> {
        let mut r = self.recovery.take()?;
        let out = f(&mut r, &mut Door { s: self, w });
        self.recovery = Some(r);
        Some(out)
    }

    /// The mechanism's send loop.
    #[inline(never)]
    pub(super) fn recovery_send_loop(&mut self, w: &mut impl Env) -> u32 {
        self.with_recovery(w, |r, c| r.send_loop(c)).unwrap_or(0)
    }

    /// An ACK's options and what follows from them, by the mechanism.
    #[inline(never)]
    pub(super) fn recovery_ack(&mut self, w: &mut impl Env, ack: u64, blocks: Option<&crate::net::AckOptions>) {
        self.with_recovery(w, |r, c| r.on_ack(c, ack, blocks));
    }

    /// The retransmission timer expired (after the controller's response).
    #[inline(never)]
    pub(super) fn recovery_timeout(&mut self, w: &mut impl Env) {
        self.with_recovery(w, |r, c| r.on_timeout(c));
    }

    /// The loss timer's entry `gen` fired.
    pub fn on_loss_timer(&mut self, w: &mut impl Env, gen: u32) {
        self.with_recovery(w, |r, c| r.on_loss_timer(c, gen));
    }

    /// The mechanism's state as the recovery series records it (None without one).
    pub fn recovery_row(&self) -> Option<crate::trace::RecoveryRow> {
        Some(self.recovery.as_deref()?.row(self.rtt.srtt()))
    }
}
