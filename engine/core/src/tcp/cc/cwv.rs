//! Congestion Window Validation, RFC 2861 (Handley, Padhye, Floyd 1999 §2.1–2.2), as the
//! paper's pseudo-code runs it after each data segment is sent:
//!
//! - T_last: when the last segment was sent; T_prev: when the sender was last
//!   network-limited (window full) or last decayed; W_used: the most data outstanding since.
//! - Idle: if at least an RTO passed since T_last, first keep history,
//!   ssthresh = max(ssthresh, ¾·cwnd), then halve cwnd once per whole RTO elapsed,
//!   cwnd = max(min(cwnd, rwnd)/2, SMSS).
//! - Application-limited (window not full and nothing more to send): W_used tracks the
//!   flight; once an RTO passed since T_prev, ssthresh = max(ssthresh, ¾·cwnd) and
//!   cwnd = (min(cwnd, rwnd) + W_used)/2.
//!
//! Times are the TCP clock (now rounded down to the clock tick), and the period is the
//! current RTO, so a coarse tick (a large RTO) decays more slowly (the paper's figure 2).
//! Two guards of ours, both no-ops in the paper's runs: the application-limited decay never
//! raises cwnd (W_used can exceed a cwnd cut by a loss since) and never takes it below one
//! SMSS.

use super::validation::Win;
use crate::time::Ns;
use crate::trace::EventKind;

/// RFC 2861 state.
#[derive(Clone, Debug, Default)]
pub struct Cwv {
    /// TCP-clock time of the last data send (None before the first: "initially tcp_now").
    pub t_last: Option<Ns>,
    /// TCP-clock time the sender was last network-limited or last decayed.
    pub t_prev: Ns,
    /// Most data outstanding while application-limited, bytes (whole segments in segment
    /// units).
    pub w_used: u64,
}

/// What the sender looked like right after a data segment left.
#[derive(Clone, Copy, Debug)]
pub struct AfterSend {
    /// TCP-clock time.
    pub now: Ns,
    /// Current RTO.
    pub rto: Ns,
    /// Receiver's window, bytes.
    pub rwnd: u64,
    /// SMSS, bytes.
    pub smss: u64,
    /// The window is full (under the configured slack).
    pub full: bool,
    /// The application has more data queued than was sent.
    pub app_has_more: bool,
    /// Data outstanding, bytes (whole segments in segment units).
    pub outstanding: u64,
    /// cwnd counts whole segments (segment units).
    pub whole_segments: bool,
}

impl AfterSend {
    /// The window the sender may fill, min(cwnd, rwnd), in whole packets in segment units.
    fn window(&self, cwnd: u64) -> u64 {
        let w = cwnd.min(self.rwnd);
        if self.whole_segments {
            w / self.smss * self.smss
        } else {
            w
        }
    }

    /// ¾ of cwnd as history for ssthresh (RFC 2861 §3), whole packets in segment units.
    fn keep_history(&self, w: Win) -> u64 {
        let q = 3 * (w.cwnd / 4) + (3 * (w.cwnd % 4)) / 4;
        let q = if self.whole_segments {
            q / self.smss * self.smss
        } else {
            q
        };
        w.ssthresh.max(q)
    }
}

impl Cwv {
    /// Runs the pseudo-code after a data segment was sent; returns the new window and the
    /// decay that happened, if any.
    pub fn after_send(&mut self, s: AfterSend, mut w: Win) -> (Win, Option<EventKind>) {
        let mut change = None;
        // Initially T_last = T_prev = tcp_now, W_used = 0 (at the first send).
        let t_last = *self.t_last.get_or_insert_with(|| {
            self.t_prev = s.now;
            s.now
        });
        if s.now.saturating_sub(t_last) >= s.rto {
            // RFC 2861 §2.2, idle: remember, then halve once per RTO elapsed.
            w.ssthresh = s.keep_history(w);
            let periods = (s.now - t_last) / s.rto;
            for _ in 0..periods {
                let half = s.window(w.cwnd) / 2;
                let half = if s.whole_segments { half / s.smss * s.smss } else { half };
                let halved = half.max(s.smss);
                if halved == w.cwnd {
                    break;
                }
                w.cwnd = halved;
            }
            self.t_prev = s.now;
            self.w_used = 0;
            change = Some(EventKind::IdleDecay);
        }
        self.t_last = Some(s.now);
        if s.full {
            // Network-limited: the window is validated.
            self.t_prev = s.now;
            self.w_used = 0;
        } else if !s.app_has_more {
            // RFC 2861 §2.2, application-limited.
            self.w_used = self.w_used.max(s.outstanding);
            if s.now.saturating_sub(self.t_prev) >= s.rto {
                w.ssthresh = s.keep_history(w);
                let decayed = (s.window(w.cwnd) + self.w_used) / 2;
                w.cwnd = decayed.min(w.cwnd).max(s.smss);
                self.t_prev = s.now;
                self.w_used = 0;
                change = Some(EventKind::AppLimitedDecay);
            }
        }
        (w, change)
    }
}

/// RFC 2861's state-machine edges: the idle decay and the application-limited decay.
pub(crate) fn edges() -> Vec<super::edges::Transition> {
    use super::edges::edge;
    use super::Phase::{CongestionAvoidance as Ca, SlowStart as Ss};
    use crate::explain::Rule;
    vec![
        edge(&[Ss, Ca], Some(Ss), "idle: cwnd halves per RTO", &[Rule::CwvIdle]),
        edge(
            &[Ss, Ca],
            Some(Ss),
            "application-limited: cwnd decays toward the window used",
            &[Rule::CwvAppLimited],
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: u64 = 1000;
    const RTO: Ns = 200;

    fn sent(now: Ns, full: bool, more: bool, outstanding: u64) -> AfterSend {
        AfterSend {
            now,
            rto: RTO,
            rwnd: 1 << 30,
            smss: S,
            full,
            app_has_more: more,
            outstanding,
            whole_segments: false,
        }
    }

    fn win(cwnd: u64, ssthresh: u64) -> Win {
        Win { cwnd, ssthresh }
    }

    #[test]
    fn idle_for_k_rtos_halves_k_times_to_the_floor_and_keeps_three_quarters_in_ssthresh() {
        let mut c = Cwv::default();
        let (w, ch) = c.after_send(sent(0, true, true, 32 * S), win(32 * S, 4 * S));
        assert_eq!(
            (w, ch),
            (win(32 * S, 4 * S), None),
            "the first send only starts the clock"
        );
        // Idle 3 RTOs (and a bit): ssthresh = max(4, ¾·32) = 24 segments; 32 → 16 → 8 → 4.
        let (w, ch) = c.after_send(sent(3 * RTO + 50, false, false, S), w);
        assert_eq!((w, ch), (win(4 * S, 24 * S), Some(EventKind::IdleDecay)));
        assert_eq!(
            (c.t_prev, c.w_used),
            (3 * RTO + 50, S),
            "T_prev reset; W_used tracks the new flight"
        );
        // Idle 10 RTOs from 4 segments: floored at one SMSS; ssthresh never lowered.
        let (w, ch) = c.after_send(sent(13 * RTO + 50, false, false, S), w);
        assert_eq!((w, ch), (win(S, 24 * S), Some(EventKind::IdleDecay)));
        // Just under one RTO of idleness does nothing.
        let (w2, ch) = c.after_send(sent(14 * RTO + 49, true, true, S), w);
        assert_eq!((w2, ch), (w, None));
    }

    #[test]
    fn application_limited_decay_goes_halfway_to_the_window_used_once_per_rto() {
        let mut c = Cwv::default();
        let mut w = win(20 * S, u64::MAX);
        (w, _) = c.after_send(sent(0, true, true, 20 * S), w);
        // Application-limited sends every 50 with at most 6 segments outstanding.
        for (t, out) in [(50, 4 * S), (100, 6 * S), (150, 5 * S)] {
            let (w2, ch) = c.after_send(sent(t, false, false, out), w);
            assert_eq!((w2, ch), (w, None));
        }
        assert_eq!(c.w_used, 6 * S);
        // One RTO after T_prev: ssthresh = max(∞, 15) stays ∞; cwnd = (20 + 6)/2 = 13.
        let (w2, ch) = c.after_send(sent(200, false, false, 3 * S), w);
        assert_eq!((w2, ch), (win(13 * S, u64::MAX), Some(EventKind::AppLimitedDecay)));
        assert_eq!((c.t_prev, c.w_used), (200, 0));
        // With a finite ssthresh the history is kept: max(8, ¾·13 = 9.75) segments.
        let mut w3 = win(13 * S, 8 * S);
        (w3, _) = c.after_send(sent(399, false, false, 3 * S), w3);
        assert_eq!(w3, win(13 * S, 8 * S), "not yet an RTO since T_prev");
        let (w3, ch) = c.after_send(sent(400, false, false, 2 * S), w3);
        assert_eq!((w3, ch), (win(8 * S, 9_750), Some(EventKind::AppLimitedDecay)));
    }

    #[test]
    fn a_full_window_or_queued_data_is_not_application_limited() {
        let mut c = Cwv::default();
        let w = win(10 * S, u64::MAX);
        c.after_send(sent(0, true, true, 10 * S), w);
        for t in (20..=1000).step_by(20) {
            // Full at every send, or more data waiting (e.g. held by Nagle): no decay.
            let (w2, ch) = c.after_send(sent(t, t % 40 == 0, true, 9 * S), w);
            assert_eq!((w2, ch), (w, None), "t={t}");
        }
    }

    #[test]
    fn segment_units_halve_whole_packets_as_ns2_does() {
        // cwnd 12.9 packets, rwnd 25: window 12 → 6 → 3 → 1 → 1; ssthresh ⌊¾·12.9⌋ = 9.
        let mut c = Cwv::default();
        let seg = |now, full, out| AfterSend {
            whole_segments: true,
            ..sent(now, full, true, out)
        };
        c.after_send(seg(0, true, 12 * S), win(12_900, 2 * S));
        let (w, _) = c.after_send(seg(5 * RTO, false, S), win(12_900, 2 * S));
        assert_eq!(w, win(S, 9 * S));
        let (w, _) = c.after_send(seg(7 * RTO, false, S), win(12_900, 2 * S));
        assert_eq!(w, win(3 * S, 9 * S), "two RTOs: 12 → 6 → 3");
    }

    #[test]
    fn the_decay_never_raises_cwnd_nor_drops_below_one_segment() {
        let mut c = Cwv::default();
        c.after_send(sent(0, false, false, 12 * S), win(20 * S, u64::MAX));
        // cwnd was cut to 4 by a loss meanwhile; W_used 12 > cwnd.
        c.after_send(sent(100, false, false, S), win(4 * S, 2 * S));
        let (w, ch) = c.after_send(sent(RTO, false, false, S), win(4 * S, 2 * S));
        assert_eq!(ch, Some(EventKind::AppLimitedDecay));
        assert_eq!(w.cwnd, 4 * S);
        assert_eq!(w.ssthresh, 3 * S, "¾·4 segments");
        let mut c = Cwv::default();
        c.after_send(sent(0, false, false, 100), win(S, 2 * S));
        c.after_send(sent(100, false, false, 100), win(S, 2 * S));
        let (w, ch) = c.after_send(sent(RTO, false, false, 100), win(S, 2 * S));
        assert_eq!(ch, Some(EventKind::AppLimitedDecay));
        assert_eq!(w, win(S, 2 * S), "(1 SMSS + 100 B)/2 is floored at one SMSS");
    }
}
