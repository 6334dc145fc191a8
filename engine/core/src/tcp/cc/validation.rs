//! Window validation: what idle and application-limited periods do to cwnd, chosen by
//! `cc.idle_policy` and dispatched here to [`super::restart`] (RFC 5681 §4.1),
//! [`super::cwv`] (RFC 2861) or [`super::newcwv`] (RFC 7661).
//!
//! The sender calls [`Cc::before_send`] before a data segment leaves, [`Cc::after_send`]
//! after it left, and [`Cc::on_ack_progress`] when an ACK moves snd_una; every change they
//! make to cwnd or ssthresh is recorded in `Cc::changes` for the sender to trace. All times are the TCP clock: the
//! current time rounded down to the clock tick (ns-2's tcp_now), and the period is the
//! current RTO, backoff included.

pub mod settings;

use super::cwv::{AfterSend, Cwv};
use super::newcwv::NewCwv;
use super::restart::Restart;
use super::{why, Cc, Flight};
use crate::explain::Rule;
use crate::scenario::{CcCfg, IdlePolicy, Units};
use crate::time::{secs_to_ns, Ns};
use crate::trace::{EventKind, ValidationRow};

/// cwnd and ssthresh, as a mechanism reads and rewrites them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Win {
    /// Congestion window, bytes.
    pub cwnd: u64,
    /// Slow-start threshold, bytes.
    pub ssthresh: u64,
}

/// One change, with the window before and after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowChange {
    /// What happened: one of the event kinds from `IdleDecay` to `NvpLossResponse`.
    pub kind: EventKind,
    /// Before.
    pub before: Win,
    /// After.
    pub after: Win,
}

/// The idle policy's state.
#[derive(Clone, Debug)]
pub enum Validation {
    /// cwnd survives idle periods.
    None,
    /// RFC 5681 §4.1.
    Restart(Restart),
    /// RFC 2861.
    Rfc2861(Cwv),
    /// RFC 7661.
    Rfc7661(NewCwv),
}

impl Validation {
    /// Fresh state for a flow's settings.
    pub fn new(cfg: &CcCfg) -> Validation {
        match cfg.idle_policy {
            IdlePolicy::None => Validation::None,
            IdlePolicy::Restart => Validation::Restart(Restart::default()),
            IdlePolicy::Rfc2861 => Validation::Rfc2861(Cwv::default()),
            IdlePolicy::Rfc7661 => Validation::Rfc7661(NewCwv::new(secs_to_ns(cfg.nvp_limit))),
        }
    }

    /// Whether the policy acts at all (not `none`).
    #[inline]
    pub fn is_active(&self) -> bool {
        !matches!(self, Validation::None)
    }

    /// The traced state (None for the policy `none`, which keeps nothing).
    pub fn row(&self) -> Option<ValidationRow> {
        let t = |o: Option<Ns>| o.unwrap_or(u64::MAX);
        match self {
            Validation::None => None,
            Validation::Restart(r) => Some(ValidationRow {
                t_last: t(r.t_last),
                t_prev: u64::MAX,
                w_used: 0,
                pipeack: u64::MAX,
                nvp: 0,
            }),
            Validation::Rfc2861(c) => Some(ValidationRow {
                t_last: t(c.t_last),
                t_prev: if c.t_last.is_some() { c.t_prev } else { u64::MAX },
                w_used: c.w_used,
                pipeack: u64::MAX,
                nvp: 0,
            }),
            Validation::Rfc7661(n) => Some(ValidationRow {
                t_last: t(n.t_last),
                t_prev: u64::MAX,
                w_used: 0,
                pipeack: n.pipeack().unwrap_or(u64::MAX),
                nvp: n.nvp_since.is_some() as u8,
            }),
        }
    }

    /// RFC 7661 §4.3: no growth in the non-validated phase unless cwnd-limited.
    #[cfg_attr(target_arch = "wasm32", inline(always))]
    pub(super) fn allows_growth(&self, cc: &Cc, before: Flight) -> bool {
        match self {
            // Cwnd-limited means against cwnd itself: a sender held back by the receiver's
            // window is rate-limited in RFC 7661's sense (§4.5.3).
            Validation::Rfc7661(n) => n.allows_growth(super::gate::is_full(
                cc.cfg.units,
                cc.cfg.full_window_slack,
                cc.window(),
                before,
                cc.smss,
            )),
            _ => true,
        }
    }
}

impl Cc {
    /// The TCP clock: `now` rounded down to a whole tick (ns-2's `tcp_now`).
    fn tcp_now(&self, now: Ns) -> Ns {
        now - now % self.tick
    }

    fn win(&self) -> Win {
        Win {
            cwnd: self.cwnd,
            ssthresh: self.ssthresh,
        }
    }

    /// Applies `after` and records the change for the trace (unless nothing changed), with
    /// its explanation. `ctx` holds what the mechanism read, by kind: a restart [idle, RTO,
    /// IW]; an idle decay [idle, RTO]; an application-limited decay [time since T_prev, RTO,
    /// W_used]; a phase change [pipeACK (`u64::MAX` undefined)]; an NVP expiry [time in
    /// the NVP, limit, IW]; the NVP loss response [pipeACK, LossFlightSize, R].
    fn set_win(&mut self, kind: EventKind, before: Win, after: Win, ctx: [u64; 3]) {
        let from = self.why_phase();
        self.cwnd = after.cwnd;
        self.ssthresh = after.ssthresh;
        if !self.in_fast_recovery {
            self.inflated = self.cwnd;
        }
        let phase_change = matches!(kind, EventKind::NvpEnter | EventKind::NvpExit);
        if phase_change || before != after {
            self.changes.push(WindowChange { kind, before, after });
            if self.why.on {
                let (c0, s0, c1, s1) = (before.cwnd, before.ssthresh, after.cwnd, after.ssthresh);
                match kind {
                    EventKind::IdleRestart => why!(self, Rule::Restart, from, [ctx[0], ctx[1], ctx[2], c0, c1]),
                    EventKind::IdleDecay => why!(self, Rule::CwvIdle, from, [ctx[0], ctx[1], c0, s0, c1, s1]),
                    EventKind::AppLimitedDecay => {
                        why!(
                            self,
                            Rule::CwvAppLimited,
                            from,
                            [ctx[0], ctx[1], ctx[2], c0, s0, c1, s1]
                        )
                    }
                    EventKind::NvpEnter => why!(self, Rule::NvpEnter, from, [ctx[0], c0]),
                    EventKind::NvpExit => why!(self, Rule::NvpExit, from, [ctx[0], c0]),
                    EventKind::NvpExpiry => why!(self, Rule::NvpExpiry, from, [ctx[0], ctx[1], ctx[2], c0, s0, c1, s1]),
                    _ => why!(
                        self,
                        Rule::NewCwvRecoveryEnd,
                        from,
                        [ctx[0], ctx[1], ctx[2], c0, s0, c1, s1]
                    ),
                }
            }
        }
    }

    /// pipeACK for the record (`u64::MAX` while undefined or not new CWV).
    fn pipeack_now(&self) -> u64 {
        match &self.validation {
            Validation::Rfc7661(n) => n.pipeack().unwrap_or(u64::MAX),
            _ => u64::MAX,
        }
    }

    /// Before a data segment leaves at time `now` with RTO `rto`.
    #[inline]
    pub fn before_send(&mut self, now: Ns, rto: Ns) {
        if !self.validation.is_active() {
            return;
        }
        let now = self.tcp_now(now);
        let rto = rto.max(1);
        let before = self.win();
        match &mut self.validation {
            Validation::Restart(r) => {
                let after = r.before_send(now, rto, before, self.iw);
                let idle = r.t_last.map_or(0, |t| now.saturating_sub(t));
                let iw = self.iw;
                self.set_win(EventKind::IdleRestart, before, after, [idle, rto, iw])
            }
            Validation::Rfc7661(n) => {
                let since = n.nvp_since;
                let (phase, reduced) = n.before_send(now, before, self.iw);
                let limit = n.limit;
                if let Some(kind) = phase {
                    let p = self.pipeack_now();
                    self.set_win(kind, before, before, [p, 0, 0]);
                }
                if let Some(after) = reduced {
                    // The NVP began at `since` (or now, if it was entered on this send).
                    let t = since.unwrap_or(now);
                    let iw = self.iw;
                    self.set_win(EventKind::NvpExpiry, before, after, [now.saturating_sub(t), limit, iw]);
                }
            }
            Validation::None | Validation::Rfc2861(_) => {}
        }
    }

    /// After a data segment left at time `now`; `flight` is what is outstanding now and
    /// `app_has_more` whether unsent data is queued.
    #[inline]
    pub fn after_send(&mut self, now: Ns, rto: Ns, flight: Flight, app_has_more: bool) {
        if !self.validation.is_active() {
            return;
        }
        let now = self.tcp_now(now);
        let rto = rto.max(1);
        let full = self.window_full(flight);
        let outstanding = self.flight_in_units(flight);
        let before = self.win();
        match &mut self.validation {
            Validation::None => {}
            Validation::Restart(r) => r.after_send(now),
            Validation::Rfc2861(c) => {
                let s = AfterSend {
                    now,
                    rto,
                    rwnd: self.rwnd,
                    smss: self.smss,
                    full,
                    app_has_more,
                    outstanding,
                    whole_segments: self.cfg.units == Units::Segments,
                };
                let (t_last, t_prev, w_used) = (c.t_last, c.t_prev, c.w_used.max(outstanding));
                if let (after, Some(kind)) = c.after_send(s, before) {
                    let ctx = match kind {
                        EventKind::IdleDecay => [t_last.map_or(0, |t| now.saturating_sub(t)), rto, 0],
                        _ => [now.saturating_sub(t_prev), rto, w_used],
                    };
                    self.set_win(kind, before, after, ctx);
                }
            }
            Validation::Rfc7661(n) => n.after_send(now),
        }
    }

    /// An ACK moved snd_una at time `now` (not rounded: pipeACK measures the network);
    /// `srtt` is the smoothed RTT (0 before the first sample).
    #[inline]
    pub fn on_ack_progress(&mut self, now: Ns, snd_una: u64, snd_nxt: u64, srtt: Ns, sample: Option<Ns>) {
        if self.cfg.congestion_avoidance == crate::scenario::CongAvoidRule::Cubic {
            self.cubic_clock(now, srtt);
        }
        if self.cfg.slow_start == crate::scenario::SlowStartRule::HystartPp {
            self.hystart_on_ack(snd_una, snd_nxt, sample);
        }
        if !matches!(self.validation, Validation::Rfc7661(_)) {
            return;
        }
        let before = self.win();
        let recovering = self.in_fast_recovery || self.timeout_recovery.is_some();
        if let Validation::Rfc7661(n) = &mut self.validation {
            if let Some(kind) = n.on_ack(now, snd_una, snd_nxt, srtt, before.cwnd, recovering) {
                let p = self.pipeack_now();
                self.set_win(kind, before, before, [p, 0, 0]);
            }
        }
    }

    /// A loss was detected by duplicate ACKs with `flight` outstanding, after the variant's
    /// own response: new CWV in the NVP replaces cwnd (RFC 7661 §4.4.1).
    pub(super) fn validation_loss(&mut self, flight: Flight) {
        let fs = self.flight_in_units(flight);
        let smss = self.smss;
        let from = self.why_phase();
        let c0 = self.cwnd;
        if let Validation::Rfc7661(n) = &mut self.validation {
            let pipeack = n.pipeack().unwrap_or(0);
            if let Some(cwnd) = n.on_loss(fs, smss) {
                why!(self, Rule::NewCwvLoss, from, [pipeack, fs, c0, cwnd]);
                if self.in_fast_recovery {
                    // The window in force keeps its inflation by the duplicate ACKs.
                    self.inflated = cwnd + self.inflated.saturating_sub(self.cwnd);
                } else {
                    self.inflated = cwnd;
                }
                self.cwnd = cwnd;
            }
        }
    }

    /// A retransmission timeout, before the standard response.
    pub(super) fn validation_timeout(&mut self) {
        let w = self.win();
        if let Validation::Rfc7661(n) = &mut self.validation {
            if let Some(kind) = n.on_timeout() {
                self.set_win(kind, w, w, [u64::MAX, 0, 0]);
            }
        }
    }

    /// Fast recovery ended (full ACK or Reno's first new ACK).
    pub(super) fn validation_recovery_end(&mut self) {
        let before = self.win();
        let smss = self.smss;
        if let Validation::Rfc7661(n) = &mut self.validation {
            let ctx = n.loss_record();
            let (phase, win) = n.on_recovery_end(smss);
            if let Some(after) = win {
                self.set_win(EventKind::NvpLossResponse, before, after, ctx);
            }
            if let Some(kind) = phase {
                let w = self.win();
                self.set_win(kind, w, w, [u64::MAX, 0, 0]);
            }
        }
    }

    /// Counts bytes retransmitted for the first time during a recovery episode (RFC 7661's
    /// R: resending the same data again does not add to it).
    pub fn validation_retransmitted(&mut self, bytes: u64) {
        if let Validation::Rfc7661(n) = &mut self.validation {
            n.on_retransmit(bytes);
        }
    }
}

/// The state-machine edges of the flow's idle policy (RFC 5681's restart, RFC 2861's decay);
/// RFC 7661's phases are an overlay beside the phases instead ([`overlay`]).
pub(crate) fn edges(cc: &CcCfg) -> Vec<super::edges::Transition> {
    match cc.idle_policy {
        IdlePolicy::None | IdlePolicy::Rfc7661 => Vec::new(),
        IdlePolicy::Restart => super::restart::edges(),
        IdlePolicy::Rfc2861 => super::cwv::edges(),
    }
}

/// New CWV's overlay, when the idle policy is RFC 7661.
pub(crate) fn overlay(cc: &CcCfg) -> Option<&'static super::edges::Overlay> {
    (cc.idle_policy == IdlePolicy::Rfc7661).then_some(&super::newcwv::OVERLAY)
}
