//! The sender's retransmission timer (RFC 6298 §5), lazily rescheduled: one queue entry
//! at a time, moved only when the deadline comes earlier; a later deadline is picked up
//! when the entry fires. The timeout itself: back-off, Karn, the controller's timeout rule
//! and go-back-N (or the loss-recovery mechanism's resend).

use super::{ConnState, Sender};
use crate::event::Event;
use crate::tcp::cc::Phase;
use crate::tcp::env::Env;
use crate::time::Ns;
use crate::trace::EventKind;

impl Sender {
    /// Sets the timer to expire at `at`. Only an earlier deadline needs a new queue entry;
    /// a later one is picked up when the pending entry fires.
    #[cfg_attr(target_arch = "wasm32", inline(always))]
    pub(super) fn arm_rto(&mut self, w: &mut impl Env, at: Ns) {
        self.rto_deadline = Some(at);
        if self.rto_event.is_none_or(|e| e > at) {
            self.rto_gen = self.rto_gen.wrapping_add(1);
            self.rto_event = Some(at);
            w.schedule(
                at,
                Event::Rto {
                    flow: self.flow,
                    gen: self.rto_gen,
                },
            );
        }
    }

    pub(super) fn restart_rto(&mut self, w: &mut impl Env) {
        let at = w.now() + self.rtt.rto();
        self.arm_rto(w, at);
    }

    pub(super) fn stop_rto(&mut self) {
        self.rto_deadline = None;
    }

    pub(super) fn rto_running(&self) -> bool {
        self.rto_deadline.is_some()
    }

    /// A timer entry fired; acts only if it is current and the deadline has come.
    pub fn on_rto_event(&mut self, w: &mut impl Env, gen: u32) {
        if gen != self.rto_gen {
            return;
        }
        self.rto_event = None;
        match self.rto_deadline {
            None => {}
            Some(d) if d > w.now() => {
                self.rto_gen = self.rto_gen.wrapping_add(1);
                self.rto_event = Some(d);
                w.schedule(
                    d,
                    Event::Rto {
                        flow: self.flow,
                        gen: self.rto_gen,
                    },
                );
            }
            Some(_) => self.on_timeout(w),
        }
    }

    fn on_timeout(&mut self, w: &mut impl Env) {
        self.rto_deadline = None;
        self.cc.set_now(w.now());
        if self.state == ConnState::SynSent {
            self.stats.timeouts += 1;
            let phase = Phase::Handshake as u8;
            self.rtt.back_off(&mut self.cc.why, phase);
            w.log(self.flow, EventKind::Timeout, 0, 0, 0, self.rtt.backoff_count());
            self.send_syn(w);
            return;
        }
        if self.snd_una >= self.snd_max {
            return;
        }
        self.stats.timeouts += 1;
        let head = self.segs.front().map_or(0, |s| s.no);
        // RFC 6298 (5.5): back off; Karn: no sample from what is resent.
        let phase = self.cc.why_phase() as u8;
        self.rtt.back_off(&mut self.cc.why, phase);
        self.forget_timing(head);
        w.log(
            self.flow,
            EventKind::Timeout,
            self.snd_una,
            0,
            head,
            self.rtt.backoff_count(),
        );
        let flight = match self.recovery.as_deref() {
            Some(r) => r.loss_flight(),
            None => self.flight(),
        };
        self.cc.on_timeout(flight, self.snd_max, head as u64);
        self.trace_changes(w);
        if self.recovery.is_some() {
            // The mechanism says what the timeout leaves to resend; its send loop resends it.
            self.recovery_timeout(w);
            self.send_loop(w);
            return;
        }
        // Go back N (BSD, ns-2): resend from snd_una as the window reopens. (5.4) The send
        // loop resends the first segment and (5.6) restarts the timer with the new RTO.
        self.snd_nxt = self.snd_una;
        self.nxt_idx = 0;
        self.send_loop(w);
    }
}
