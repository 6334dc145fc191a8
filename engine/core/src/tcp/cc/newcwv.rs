//! New Congestion Window Validation, RFC 7661 (which obsoletes RFC 2861).
//!
//! Instead of decaying cwnd while the sender is idle or application-limited, new CWV keeps
//! it, but only trusts it as far as the sender has recently used it:
//!
//! - pipeACK (§4.2): a sample is the data acknowledged over one round (snd_una passing the
//!   snd_nxt recorded at the previous sample, as the Linux module measures it); pipeACK is
//!   the largest sample within the sampling period max(3·SRTT, 1 s). It is undefined at the
//!   start and after loss recovery (§4.1); once defined, a period with no ACKs counts as
//!   zero (the §4.5.1 example filter). No samples are taken during recovery.
//! - Phase (§4.3): validated while pipeACK is undefined or ≥ ½·cwnd; otherwise the
//!   non-validated phase (NVP).
//! - In the NVP (§4.4) cwnd neither decays nor grows; it may grow only when the sender is
//!   cwnd-limited (the window was full when the ACK arrived).
//! - Loss in the NVP (§4.4.1): at detection cwnd = max(pipeACK, LossFlightSize)/2; at the end
//!   of recovery cwnd = (max(pipeACK, LossFlightSize) − R)/2, at least one SMSS, with R the
//!   data retransmitted in the episode, and ssthresh = cwnd; pipeACK becomes undefined.
//!   An RTO leaves the NVP and takes the standard response.
//! - Time limit (§4.4.3, §4.5.2): for each whole `nvp_limit` (5 minutes in the RFC) spent in
//!   the NVP, checked before sending: ssthresh = max(ssthresh, ¾·cwnd), then cwnd set to
//!   at most max(cwnd/2, IW) (a cwnd already below IW stays).
//!
//! Not modelled: the pacing §4.4.2 recommends in the NVP (the summary's max burst shows
//! what it would limit).

use super::edges::{Overlay, OverlayTransition};
use super::validation::Win;
use crate::explain::Rule;
use crate::time::{Ns, NS_PER_S};
use crate::trace::EventKind;
use std::collections::VecDeque;

/// RFC 7661 state.
#[derive(Clone, Debug)]
pub struct NewCwv {
    /// TCP-clock time of the last data send.
    pub t_last: Option<Ns>,
    /// (time, bytes) samples that can still be the largest within the period: oldest first,
    /// each larger than every later one (a newer, larger sample makes older, smaller ones
    /// irrelevant), so the first is pipeACK and memory stays small on any path.
    samples: VecDeque<(Ns, u64)>,
    /// pipeACK is defined (a sample was taken since the start or the last recovery).
    measured: bool,
    /// The current round: (snd_una when it began, the snd_nxt that ends it once known).
    round: Option<(u64, Option<u64>)>,
    /// Sampling period, ns (max(3·SRTT, 1 s), updated with each ACK).
    period: Ns,
    /// Start of the current NVP, advanced by one limit per expiry reduction: the last time
    /// the sender was found validated before it entered (as Linux's newcwv keeps
    /// `cwnd_valid_ts`), so a silence counts from its beginning even though the phase is
    /// only re-judged when the sender next acts.
    pub nvp_since: Option<Ns>,
    /// Last time the phase was judged validated.
    validated_at: Ns,
    /// The NVP time limit, ns.
    pub limit: Ns,
    /// A loss was detected in the NVP: (pipeACK then, LossFlightSize).
    loss: Option<(u64, u64)>,
    /// Bytes retransmitted since that loss (R).
    retransmitted: u64,
}

impl Default for NewCwv {
    fn default() -> NewCwv {
        NewCwv::new(300 * NS_PER_S)
    }
}

/// ¾ of cwnd as history for ssthresh, without overflow.
fn three_quarters(x: u64) -> u64 {
    3 * (x / 4) + (3 * (x % 4)) / 4
}

impl NewCwv {
    /// Fresh state with an NVP time limit.
    pub fn new(limit: Ns) -> NewCwv {
        NewCwv {
            t_last: None,
            samples: VecDeque::new(),
            measured: false,
            round: None,
            period: NS_PER_S,
            nvp_since: None,
            validated_at: 0,
            limit: limit.max(1),
            loss: None,
            retransmitted: 0,
        }
    }

    /// pipeACK now: None while undefined; the largest sample within the period (0 if none).
    pub fn pipeack(&self) -> Option<u64> {
        self.measured.then(|| self.samples.front().map_or(0, |&(_, b)| b))
    }

    /// Adds a sample, dropping the older ones it outranks.
    fn push_sample(&mut self, now: Ns, bytes: u64) {
        while self.samples.back().is_some_and(|&(_, b)| b <= bytes) {
            self.samples.pop_back();
        }
        self.samples.push_back((now, bytes));
        self.measured = true;
    }

    /// Drops samples older than the sampling period.
    fn expire(&mut self, now: Ns) {
        let since = now.saturating_sub(self.period);
        while self.samples.front().is_some_and(|&(t, _)| t < since) {
            self.samples.pop_front();
        }
    }

    /// Re-evaluates the phase (§4.3) at `now` against `cwnd`; returns the change, if any.
    fn update_phase(&mut self, now: Ns, cwnd: u64) -> Option<EventKind> {
        self.expire(now);
        let nvp = self.pipeack().is_some_and(|p| 2 * p < cwnd);
        if !nvp {
            self.validated_at = now;
        }
        match (nvp, self.nvp_since.is_some()) {
            (true, false) => {
                self.nvp_since = Some(self.validated_at);
                Some(EventKind::NvpEnter)
            }
            (false, true) => {
                self.nvp_since = None;
                Some(EventKind::NvpExit)
            }
            _ => None,
        }
    }

    /// pipeACK becomes undefined (after recovery or a timeout); the sender is validated.
    fn reset(&mut self) -> Option<EventKind> {
        self.samples.clear();
        self.measured = false;
        self.round = None;
        self.loss = None;
        self.retransmitted = 0;
        self.nvp_since.take().map(|_| EventKind::NvpExit)
    }

    /// An ACK moved snd_una; samples pipeACK (outside recovery) and re-evaluates the phase.
    pub fn on_ack(
        &mut self,
        now: Ns,
        snd_una: u64,
        snd_nxt: u64,
        srtt: Ns,
        cwnd: u64,
        recovering: bool,
    ) -> Option<EventKind> {
        // §4.2: the sampling period is max(3·RTT, 1 s).
        self.period = (3 * srtt).max(NS_PER_S);
        if recovering || self.loss.is_some() {
            return None;
        }
        // A round ends when everything outstanding after the ACK that began it (its sends
        // included) is acknowledged: the marker is snd_nxt as the next ACK finds it.
        if let Some((start, None)) = self.round {
            self.round = Some((start, Some(snd_nxt)));
        }
        match self.round {
            None => self.round = Some((snd_una, None)),
            Some((start, Some(marker))) if snd_una >= marker => {
                self.push_sample(now, snd_una - start);
                self.round = Some((snd_una, None));
                // The phase is judged when pipeACK is measured, once per round (and before
                // sending, when samples may have aged out), not on every ACK: within a
                // slow-start round cwnd runs ahead of the last round's sample.
                return self.update_phase(now, cwnd);
            }
            Some(_) => {}
        }
        None
    }

    /// Before a data segment leaves at `now`: the phase, then the time limit. Returns the
    /// reduced window when the NVP outlasted its limit.
    pub fn before_send(&mut self, now: Ns, w: Win, iw: u64) -> (Option<EventKind>, Option<Win>) {
        if self.loss.is_some() {
            return (None, None);
        }
        let phase = self.update_phase(now, w.cwnd);
        let Some(since) = self.nvp_since else {
            return (phase, None);
        };
        let periods = now.saturating_sub(since) / self.limit;
        if periods == 0 {
            return (phase, None);
        }
        // §4.4.3, once per whole limit elapsed (§4.5.2).
        let mut after = w;
        for _ in 0..periods {
            let before = after;
            after.ssthresh = after.ssthresh.max(three_quarters(after.cwnd));
            // "not greater than max(½·cwnd, IW)": never raised.
            after.cwnd = after.cwnd.min((after.cwnd / 2).max(iw));
            if after == before {
                break;
            }
        }
        self.nvp_since = Some(since + periods * self.limit);
        (phase, Some(after))
    }

    /// After a data segment left at `now`.
    pub fn after_send(&mut self, now: Ns) {
        self.t_last = Some(now);
    }

    /// §4.4: in the NVP, growth only when cwnd-limited.
    pub fn allows_growth(&self, cwnd_limited: bool) -> bool {
        self.nvp_since.is_none() || cwnd_limited
    }

    /// A loss was detected by duplicate ACKs with `flight` (LossFlightSize) outstanding.
    /// Returns the NVP's cwnd for the recovery, if the sender is in the NVP.
    pub fn on_loss(&mut self, flight: u64, smss: u64) -> Option<u64> {
        self.nvp_since?;
        let pipeack = self.pipeack().unwrap_or(0);
        self.loss = Some((pipeack, flight));
        self.retransmitted = 0;
        // §4.4.1: cwnd = max(pipeACK, LossFlightSize)/2 for the recovery.
        Some((pipeack.max(flight) / 2).max(smss))
    }

    /// What the end of a recovery from an NVP loss reads: [pipeACK, LossFlightSize, R]
    /// (zeros when there was no such loss).
    pub fn loss_record(&self) -> [u64; 3] {
        self.loss.map_or([0; 3], |(p, lfs)| [p, lfs, self.retransmitted])
    }

    /// Counts data retransmitted during a recovery from a loss in the NVP (R).
    pub fn on_retransmit(&mut self, bytes: u64) {
        if self.loss.is_some() {
            self.retransmitted += bytes;
        }
    }

    /// Fast recovery ended. After a loss in the NVP, returns the §4.4.1 window; in any case
    /// pipeACK becomes undefined (§4.2).
    pub fn on_recovery_end(&mut self, smss: u64) -> (Option<EventKind>, Option<Win>) {
        let (loss, r) = (self.loss, self.retransmitted);
        let exit = self.reset();
        let win = loss.map(|(pipeack, lfs)| {
            let cwnd = (pipeack.max(lfs).saturating_sub(r) / 2).max(smss);
            Win { cwnd, ssthresh: cwnd }
        });
        (exit, win)
    }

    /// A retransmission timeout: leave the NVP, pipeACK undefined, standard response.
    pub fn on_timeout(&mut self) -> Option<EventKind> {
        self.reset()
    }
}

/// New CWV's validated and non-validated phases and their transitions, an overlay beside
/// the phases (read from the window-validation series).
pub(crate) const OVERLAY: Overlay = Overlay {
    states: &[
        ("validated", "pipeACK ≥ ½·cwnd (or undefined): the window is in use"),
        (
            "non_validated",
            "pipeACK < ½·cwnd: cwnd is kept but not grown unless cwnd-limited (RFC 7661)",
        ),
    ],
    transitions: &[
        OverlayTransition {
            from: "validated",
            to: "non_validated",
            label: "pipeACK drops below ½·cwnd",
            rules: &[Rule::NvpEnter],
        },
        OverlayTransition {
            from: "non_validated",
            to: "validated",
            label: "pipeACK ≥ ½·cwnd, or after a recovery or timeout",
            rules: &[Rule::NvpExit],
        },
        OverlayTransition {
            from: "non_validated",
            to: "non_validated",
            label: "the phase outlasts its limit: cwnd halves toward IW",
            rules: &[Rule::NvpExpiry],
        },
        OverlayTransition {
            from: "non_validated",
            to: "non_validated",
            label: "a loss: cwnd from pipeACK",
            rules: &[Rule::NewCwvLoss, Rule::NewCwvRecoveryEnd],
        },
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    const S: u64 = 1000;
    const MS: Ns = 1_000_000;

    fn win(cwnd: u64, ssthresh: u64) -> Win {
        Win { cwnd, ssthresh }
    }

    /// A sender whose rounds each acknowledge `per_round` bytes, one round per 100 ms, the
    /// flight drained at each ACK (an application-limited sender sending once per round).
    fn rounds(n: &mut NewCwv, from: Ns, count: u64, per_round: u64, una: &mut u64, cwnd: u64) -> Vec<EventKind> {
        let mut out = vec![];
        for k in 0..count {
            *una += per_round;
            let t = from + k * 100 * MS;
            out.extend(n.on_ack(t, *una, *una, 100 * MS, cwnd, false));
        }
        out
    }

    #[test]
    fn pipeack_is_undefined_until_a_round_completes_then_the_largest_recent_sample() {
        let mut n = NewCwv::default();
        assert_eq!(n.pipeack(), None);
        let mut una = 0;
        // The first ACK starts the first round; the next completes it.
        assert!(rounds(&mut n, 0, 1, 10 * S, &mut una, 20 * S).is_empty());
        assert_eq!(n.pipeack(), None, "no round completed yet: validated");
        rounds(&mut n, 100 * MS, 3, 10 * S, &mut una, 20 * S);
        assert_eq!(n.pipeack(), Some(10 * S));
        // 10 segments per round against cwnd 20: exactly half is still validated (§4.3).
        assert_eq!(n.nvp_since, None);
        // Rounds of 4 segments: pipeACK stays 10 until the 10-segment samples are older than
        // the sampling period, max(3·100 ms, 1 s) = 1 s.
        let ch = rounds(&mut n, 400 * MS, 10, 4 * S, &mut una, 20 * S);
        assert_eq!(n.pipeack(), Some(10 * S), "{ch:?}");
        let ch = rounds(&mut n, 1400 * MS, 1, 4 * S, &mut una, 20 * S);
        assert_eq!(n.pipeack(), Some(4 * S));
        assert_eq!(ch, vec![EventKind::NvpEnter], "4 < ½·20: non-validated");
        // The NVP counts from the last round judged validated (1.3 s).
        assert_eq!(n.nvp_since, Some(1300 * MS));
    }

    #[test]
    fn an_idle_sender_enters_the_nvp_when_its_samples_age_out_and_keeps_cwnd() {
        let mut n = NewCwv::default();
        let mut una = 0;
        rounds(&mut n, 0, 5, 20 * S, &mut una, 20 * S);
        assert_eq!(n.pipeack(), Some(20 * S));
        // No ACKs for 2 s: before the next send, the period holds no sample: pipeACK = 0.
        let (phase, reduced) = n.before_send(2_500 * MS, win(20 * S, 8 * S), 2 * S);
        assert_eq!((phase, reduced), (Some(EventKind::NvpEnter), None));
        assert_eq!(n.pipeack(), Some(0));
        assert!(!n.allows_growth(false), "§4.4: no growth unless cwnd-limited");
        assert!(n.allows_growth(true));
    }

    #[test]
    fn the_nvp_time_limit_halves_cwnd_to_iw_and_keeps_history_once_per_limit() {
        let mut n = NewCwv::new(300 * 1_000 * MS);
        let mut una = 0;
        rounds(&mut n, 0, 5, 20 * S, &mut una, 40 * S);
        let w = win(40 * S, 10 * S);
        let (phase, reduced) = n.before_send(2 * 1_000 * MS, w, 4 * S);
        assert_eq!((phase, reduced), (Some(EventKind::NvpEnter), None));
        // The NVP counts from the last round judged validated, at 0.4 s.
        assert_eq!(n.nvp_since, Some(400 * MS));
        assert_eq!(n.before_send(300_399 * MS, w, 4 * S), (None, None));
        // 300 s: one reduction: ssthresh = max(10, ¾·40) = 30, cwnd = max(20, 4) = 20.
        let (_, reduced) = n.before_send(300_400 * MS, w, 4 * S);
        assert_eq!(reduced, Some(win(20 * S, 30 * S)));
        assert_eq!(n.nvp_since, Some(300_400 * MS));
        // Three more limits at once (900 s later): 20 → 10 → 5 → 4 (IW floor); ssthresh 30.
        let (_, reduced) = n.before_send(1_200_400 * MS, win(20 * S, 30 * S), 4 * S);
        assert_eq!(reduced, Some(win(4 * S, 30 * S)));
    }

    #[test]
    fn a_loss_in_the_nvp_sizes_cwnd_from_pipeack_and_resets_it_after_recovery() {
        let mut n = NewCwv::default();
        let mut una = 0;
        rounds(&mut n, 0, 5, 6 * S, &mut una, 30 * S);
        assert!(n.nvp_since.is_some(), "6 < ½·30");
        // Loss with 8 segments in flight: cwnd = max(6, 8)/2 = 4 segments for the recovery.
        assert_eq!(n.on_loss(8 * S, S), Some(4 * S));
        // No sampling during recovery.
        assert_eq!(
            n.on_ack(600 * MS, una + 50 * S, una + 60 * S, 100 * MS, 30 * S, true),
            None
        );
        // Two segments retransmitted (R = 2): end of recovery cwnd = ssthresh = (8 − 2)/2 = 3.
        n.on_retransmit(S);
        n.on_retransmit(S);
        let (phase, w) = n.on_recovery_end(S);
        assert_eq!(w, Some(win(3 * S, 3 * S)));
        assert_eq!(phase, Some(EventKind::NvpExit));
        assert_eq!(n.pipeack(), None, "§4.4.1: pipeACK undefined after recovery");
        // The floor is one SMSS.
        let mut n = NewCwv::default();
        let mut una = 0;
        rounds(&mut n, 0, 5, S, &mut una, 30 * S);
        n.on_loss(S, S);
        n.on_retransmit(S);
        assert_eq!(n.on_recovery_end(S).1, Some(win(S, S)));
    }

    #[test]
    fn a_validated_sender_takes_the_standard_response_and_a_timeout_leaves_the_nvp() {
        let mut n = NewCwv::default();
        let mut una = 0;
        rounds(&mut n, 0, 5, 20 * S, &mut una, 30 * S);
        assert_eq!(n.on_loss(20 * S, S), None, "validated: standard loss response");
        assert_eq!(n.on_recovery_end(S), (None, None));
        assert_eq!(n.pipeack(), None);
        let mut una = 0;
        rounds(&mut n, 0, 5, 2 * S, &mut una, 30 * S);
        assert!(n.nvp_since.is_some());
        assert_eq!(n.on_timeout(), Some(EventKind::NvpExit));
        assert_eq!((n.pipeack(), n.nvp_since), (None, None));
    }
}
