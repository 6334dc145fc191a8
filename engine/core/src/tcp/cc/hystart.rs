//! HyStart++ (RFC 9406): the first slow start watches the smallest RTT of each round; when
//! it has grown by more than a threshold over the last round's (a queue building), slow
//! start turns conservative (CSS: a quarter of the growth) for CSS_ROUNDS rounds and then
//! ends (ssthresh = cwnd), unless the RTT falls back, which shows the rise was noise. After
//! the first loss, or once it has ended, standard slow start. Constants from RFC 9406 §4.3;
//! the per-ACK RTT sample is the time since the newest segment the ACK covers was sent (a
//! first transmission; none for a retransmission).

use super::{why, Cc};
use crate::explain::Rule;
use crate::time::Ns;

const MS: Ns = 1_000_000;
/// RFC 9406 §4.3.
pub const MIN_RTT_THRESH: Ns = 4 * MS;
pub const MAX_RTT_THRESH: Ns = 16 * MS;
pub const MIN_RTT_DIVISOR: Ns = 8;
pub const N_RTT_SAMPLE: u32 = 8;
pub const CSS_GROWTH_DIVISOR: u64 = 4;
pub const CSS_ROUNDS: u32 = 5;
/// L for a sender that does not pace: at most 8 SMSS per ACK.
pub const L: u64 = 8;

/// The delay threshold of a round (RFC 9406 §4.2): max(4 ms, min(lastRoundMinRTT/8, 16 ms)).
pub fn rtt_thresh(last_round_min: Ns) -> Ns {
    (last_round_min / MIN_RTT_DIVISOR).clamp(MIN_RTT_THRESH, MAX_RTT_THRESH)
}

/// HyStart++'s state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HyStart {
    /// snd_nxt when the current round began (its end); None before the first ACK.
    pub(super) window_end: Option<u64>,
    pub(super) last_round_min: Ns,
    pub(super) current_round_min: Ns,
    pub(super) samples: u32,
    /// In conservative slow start: the baseline min RTT and the rounds completed in it.
    pub(super) css: Option<(Ns, u32)>,
    /// HyStart++ is over (it ended slow start, or a loss came): standard slow start.
    pub(super) done: bool,
}

impl Default for HyStart {
    fn default() -> Self {
        HyStart {
            window_end: None,
            last_round_min: Ns::MAX,
            current_round_min: Ns::MAX,
            samples: 0,
            css: None,
            done: false,
        }
    }
}

impl Cc {
    fn hystart_on(&self) -> bool {
        self.cfg.slow_start == crate::scenario::SlowStartRule::HystartPp
            && !self.hystart.done
            && self.cwnd < self.ssthresh
    }

    /// An ACK moved snd_una to `ack` with `snd_nxt` sent and, when it covers a first
    /// transmission, the RTT `sample` it gives: rounds, the minimum RTT per round, and the
    /// entries into and out of CSS (RFC 9406 §4.2).
    pub(super) fn hystart_on_ack(&mut self, ack: u64, snd_nxt: u64, sample: Option<Ns>) {
        if !self.hystart_on() {
            return;
        }
        let from = self.why_phase();
        let h = &mut self.hystart;
        let end = *h.window_end.get_or_insert(snd_nxt);
        if ack >= end {
            // A round ended: the next starts now.
            h.last_round_min = h.current_round_min;
            h.current_round_min = Ns::MAX;
            h.samples = 0;
            h.window_end = Some(snd_nxt);
            if let Some((baseline, rounds)) = h.css {
                h.css = Some((baseline, rounds + 1));
                if rounds + 1 >= CSS_ROUNDS {
                    // CSS_ROUNDS rounds in CSS: congestion avoidance (ssthresh = cwnd).
                    h.css = None;
                    h.done = true;
                    let old = self.ssthresh;
                    self.ssthresh = self.cwnd;
                    // RFC 9438 §4.10: a CUBIC sender starts from cwnd_prior = cwnd.
                    self.cubic.cwnd_prior = self.cwnd;
                    why!(
                        self,
                        Rule::HystartExit,
                        from,
                        [self.cwnd, old, CSS_ROUNDS as u64, self.ssthresh]
                    );
                    return;
                }
            }
        }
        let Some(rtt) = sample else { return };
        let h = &mut self.hystart;
        h.current_round_min = h.current_round_min.min(rtt);
        h.samples += 1;
        if h.samples < N_RTT_SAMPLE || h.current_round_min == Ns::MAX || h.last_round_min == Ns::MAX {
            return;
        }
        let (last, cur) = (h.last_round_min, h.current_round_min);
        match h.css {
            None => {
                let thresh = rtt_thresh(last);
                if cur >= last + thresh {
                    h.css = Some((cur, 0));
                    why!(self, Rule::HystartCssEnter, from, [last, cur, thresh, self.cwnd]);
                }
            }
            Some((baseline, _)) => {
                if cur < baseline {
                    h.css = None;
                    why!(self, Rule::HystartCssResume, from, [baseline, cur, self.cwnd]);
                }
            }
        }
    }

    /// A loss: HyStart++ is over (RFC 9406 §4.2: the normal loss response, then standard
    /// slow start).
    pub(super) fn hystart_loss(&mut self) {
        self.hystart.done = true;
        self.hystart.css = None;
    }

    /// Slow start's growth under HyStart++: min(acked, L·SMSS), a quarter of it in CSS.
    pub(super) fn hystart_increase(&self, acked: u64) -> (u64, bool) {
        let inc = acked.min(L * self.smss);
        let css = self.hystart.css.is_some() && !self.hystart.done;
        (if css { inc / CSS_GROWTH_DIVISOR } else { inc }, css)
    }
}

/// The rules whose decisions grow cwnd in slow start with HyStart++.
/// Once HyStart++ is over (it ended the first slow start, or a loss came), slow start is
/// RFC 3465's byte counting (`increase.rs`), so `ss.abc` is one of its rules too: a slow start
/// after a timeout, or a fresh connection's in a short transfer, can reach ssthresh by it.
pub(crate) const SS_RULES: &[Rule] = &[
    Rule::SsHystart,
    Rule::HystartCssEnter,
    Rule::HystartCssResume,
    Rule::SsAbc,
];

/// HyStart++'s edge, when the flow uses it: slow start ends on a rising RTT.
pub(crate) fn edges(cc: &crate::scenario::CcCfg) -> Vec<super::edges::Transition> {
    use super::Phase::{CongestionAvoidance as Ca, SlowStart as Ss};
    if cc.slow_start != crate::scenario::SlowStartRule::HystartPp {
        return Vec::new();
    }
    vec![super::edges::edge(
        &[Ss],
        Some(Ca),
        "HyStart++: the RTT rose for 5 rounds, ssthresh = cwnd",
        &[Rule::HystartExit],
    )]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_threshold_is_an_eighth_of_the_last_minimum_within_4_and_16_ms() {
        assert_eq!(rtt_thresh(20 * MS), 4 * MS, "2.5 ms → 4 ms");
        assert_eq!(rtt_thresh(80 * MS), 10 * MS);
        assert_eq!(rtt_thresh(200 * MS), 16 * MS, "25 ms → 16 ms");
    }
}
