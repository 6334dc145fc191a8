//! Proportional Rate Reduction (RFC 6937 §3): how much a sender in recovery may send on each
//! ACK, so the window comes down to ssthresh smoothly instead of all at once (RFC 6675) and
//! never far below it after heavy loss (the slow-start reduction bound).

/// PRR's state for one recovery.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prr {
    /// Bytes delivered to the receiver since recovery began (cumulatively or by SACK).
    pub delivered: u64,
    /// Bytes sent since recovery began.
    pub out: u64,
    /// The flight when recovery began: snd.nxt − snd.una.
    pub recover_fs: u64,
}

/// One ACK's computation, for its explanation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrrStep {
    /// What this ACK delivered, bytes.
    pub delivered_data: u64,
    /// Whether pipe was above ssthresh (the proportional part).
    pub proportional: bool,
    /// The bound below ssthresh (0 in the proportional part).
    pub limit: u64,
    /// Bytes this ACK lets out.
    pub sndcnt: u64,
}

impl Prr {
    /// Recovery begins with `flight` = snd.nxt − snd.una.
    pub fn start(flight: u64) -> Prr {
        Prr {
            delivered: 0,
            out: 0,
            recover_fs: flight.max(1),
        }
    }

    /// An ACK in recovery delivered `delivered_data` bytes; `pipe` after it, `ssthresh`, and
    /// whether the conservative bound is used. Returns sndcnt, bytes. Before anything is sent
    /// in this recovery at least one segment may go (the fast retransmit; Linux, and
    /// RFC 6937's revision), `smss`.
    pub fn on_ack(&mut self, delivered_data: u64, pipe: u64, ssthresh: u64, smss: u64, conservative: bool) -> PrrStep {
        self.delivered += delivered_data;
        let (proportional, limit, mut sndcnt) = if pipe > ssthresh {
            // Proportional: ⌈prr_delivered · ssthresh / RecoverFS⌉ − prr_out.
            let target = (self.delivered as u128 * ssthresh as u128).div_ceil(self.recover_fs as u128) as u64;
            (true, 0, target.saturating_sub(self.out))
        } else {
            let limit = if conservative {
                self.delivered.saturating_sub(self.out)
            } else {
                self.delivered.saturating_sub(self.out).max(delivered_data) + smss
            };
            (false, limit, (ssthresh - pipe).min(limit))
        };
        if self.out == 0 {
            sndcnt = sndcnt.max(smss);
        }
        PrrStep {
            delivered_data,
            proportional,
            limit,
            sndcnt,
        }
    }

    /// `bytes` were sent in recovery.
    pub fn sent(&mut self, bytes: u64) {
        self.out += bytes;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: u64 = 1000;

    #[test]
    fn rfc6937_example_one_loss_in_twenty_sends_every_other_ack() {
        // RFC 6937 §4's first example, in segments (as Linux counts): 20 segments out,
        // segment 1 lost, ssthresh 10. Each duplicate ACK delivers one segment; PRR sends on
        // every second one.
        let mut p = Prr::start(20);
        let mut sent = vec![];
        let mut pipe = 19; // 20 outstanding, one lost
        for _ in 1..=19u64 {
            pipe -= 1;
            let n = p.on_ack(1, pipe, 10, 1, false).sndcnt;
            p.sent(n);
            pipe += n;
            sent.push(n);
        }
        // The first ACK sends the retransmission (at least one segment), then one segment
        // per two ACKs: 10 sent over 19 ACKs, pipe ends at ssthresh.
        assert_eq!(sent.iter().sum::<u64>(), 10, "{sent:?}");
        assert_eq!(&sent[..6], &[1, 0, 1, 0, 1, 0]);
    }

    #[test]
    fn below_ssthresh_the_bounds_differ() {
        // Heavy loss: pipe already 2 segments under ssthresh 10 with 4 delivered, 1 sent.
        let mut ss = Prr {
            delivered: 3 * S,
            out: S,
            recover_fs: 20 * S,
        };
        let mut cr = ss;
        let a = ss.on_ack(S, 2 * S, 10 * S, S, false);
        let b = cr.on_ack(S, 2 * S, 10 * S, S, true);
        // SSRB: max(4 − 1, 1) + 1 = 4 segments; CRB: 4 − 1 = 3.
        assert_eq!((a.sndcnt, b.sndcnt), (4 * S, 3 * S));
        assert!(!a.proportional);
    }

    /// The case the property tests found (seed 387576): recovery began with the fast
    /// retransmit (prr_out 618 B); the ACK that delivers it (DeliveredData 618 B) also shows
    /// the next segment lost, so pipe is 0 B with ssthresh 1236 B. The conservative bound is
    /// prr_delivered − prr_out = 0: nothing may be sent and cwnd = pipe + sndcnt = 0 until the
    /// timer. The slow-start bound lets max(0, 618) + 618 = 1236 B out.
    #[test]
    fn the_conservative_bound_sends_nothing_once_the_pipe_is_empty_and_sends_match_deliveries() {
        let mut p = Prr::start(2472);
        p.sent(618);
        let mut q = p;
        let crb = p.on_ack(618, 0, 1236, 618, true);
        assert_eq!((crb.proportional, crb.limit, crb.sndcnt), (false, 0, 0));
        let ssrb = q.on_ack(618, 0, 1236, 618, false);
        assert_eq!((ssrb.limit, ssrb.sndcnt), (1236, 1236));
    }
}
