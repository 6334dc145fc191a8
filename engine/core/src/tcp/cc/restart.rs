//! Restart after idle (RFC 5681 §4.1; Jacobson 1988 appendix C): a sender that has sent no
//! data for longer than the retransmission timeout has no ACK clock left and an out-of-date
//! cwnd, so before it sends again cwnd drops to at most the restart window
//! RW = min(IW, cwnd). ssthresh is left alone, so slow start climbs back to it.

use super::validation::Win;
use crate::time::Ns;

/// Restart-after-idle state: when the last data segment left (TCP clock time).
#[derive(Clone, Debug, Default)]
pub struct Restart {
    /// TCP-clock time of the last data send; None before the first.
    pub t_last: Option<Ns>,
}

impl Restart {
    /// Before a data segment is sent at `now`: the window it may use.
    // RFC 5681 §4.1: idle "in an interval exceeding the retransmission timeout".
    pub fn before_send(&self, now: Ns, rto: Ns, win: Win, iw: u64) -> Win {
        match self.t_last {
            Some(t) if now.saturating_sub(t) > rto => Win {
                cwnd: win.cwnd.min(iw),
                ssthresh: win.ssthresh,
            },
            _ => win,
        }
    }

    /// After a data segment was sent at `now`.
    pub fn after_send(&mut self, now: Ns) {
        self.t_last = Some(now);
    }
}

/// The restart's state-machine edge: back to slow start after an idle period.
pub(crate) fn edges() -> Vec<super::edges::Transition> {
    use super::Phase::{CongestionAvoidance as Ca, SlowStart as Ss};
    vec![super::edges::edge(
        &[Ss, Ca],
        Some(Ss),
        "idle longer than the RTO: restart",
        &[crate::explain::Rule::Restart],
    )]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restart_sets_cwnd_to_iw_and_leaves_ssthresh() {
        let mut r = Restart::default();
        let w = Win {
            cwnd: 20_000,
            ssthresh: 8_000,
        };
        assert_eq!(r.before_send(0, 300, w, 2_000), w, "no send yet: nothing to measure");
        r.after_send(1_000);
        assert_eq!(
            r.before_send(1_300, 300, w, 2_000),
            w,
            "exactly one RTO is not exceeding it"
        );
        assert_eq!(
            r.before_send(1_301, 300, w, 2_000),
            Win {
                cwnd: 2_000,
                ssthresh: 8_000
            }
        );
        let small = Win {
            cwnd: 1_000,
            ssthresh: 8_000,
        };
        assert_eq!(r.before_send(9_999, 300, small, 2_000), small, "RW = min(IW, cwnd)");
    }
}
