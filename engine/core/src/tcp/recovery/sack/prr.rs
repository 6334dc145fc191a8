//! Proportional Rate Reduction (RFC 6937 §3, revised by RFC 9937): how much a sender in
//! recovery may send on each ACK, so the window comes down to ssthresh smoothly instead of
//! all at once (RFC 6675) and never far below it after heavy loss (the reduction bound).

/// The bound on what PRR sends once pipe is at or below ssthresh.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// RFC 6937's slow-start reduction bound, on every ACK (Linux 3.2 to 4.1):
    /// max(prr_delivered − prr_out, DeliveredData) + SMSS.
    SlowStart,
    /// RFC 6937's conservative reduction bound: prr_delivered − prr_out.
    Conservative,
    /// RFC 9937 (Linux since 2022): max(prr_delivered − prr_out, DeliveredData), plus SMSS
    /// on a safe ACK, one that advances snd.una and shows no further loss.
    Rfc9937 {
        /// Whether this ACK is safe.
        safe_ack: bool,
    },
}

impl Bound {
    /// The code the explanation reads (`PrrSend`'s `bound`): 0 conservative, 1 slow start,
    /// 2 RFC 9937 on an ACK that is not safe, 3 on a safe one.
    pub fn code(self) -> u64 {
        match self {
            Bound::Conservative => 0,
            Bound::SlowStart => 1,
            Bound::Rfc9937 { safe_ack: false } => 2,
            Bound::Rfc9937 { safe_ack: true } => 3,
        }
    }
}

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
    /// the bound below ssthresh. Returns sndcnt, bytes. Before anything is sent in this
    /// recovery at least one segment may go (the fast retransmit; Linux, and RFC 9937),
    /// `smss`.
    pub fn on_ack(&mut self, delivered_data: u64, pipe: u64, ssthresh: u64, smss: u64, bound: Bound) -> PrrStep {
        self.delivered += delivered_data;
        let (proportional, limit, mut sndcnt) = if pipe > ssthresh {
            // Proportional: ⌈prr_delivered · ssthresh / RecoverFS⌉ − prr_out.
            let target = (self.delivered as u128 * ssthresh as u128).div_ceil(self.recover_fs as u128) as u64;
            (true, 0, target.saturating_sub(self.out))
        } else {
            let banked = self.delivered.saturating_sub(self.out);
            let limit = match bound {
                Bound::Conservative => banked,
                Bound::SlowStart | Bound::Rfc9937 { safe_ack: true } => banked.max(delivered_data) + smss,
                Bound::Rfc9937 { safe_ack: false } => banked.max(delivered_data),
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

    /// One ACK's step from `p` (a copy, so several bounds can be tried on one state).
    fn step(mut p: Prr, delivered: u64, pipe: u64, ssthresh: u64, smss: u64, bound: Bound) -> PrrStep {
        p.on_ack(delivered, pipe, ssthresh, smss, bound)
    }

    /// Recovery of 2 472 B began and its fast retransmit (618 B) has gone.
    fn after_fast_retransmit() -> Prr {
        let mut p = Prr::start(2472);
        p.sent(618);
        p
    }

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
            let n = p.on_ack(1, pipe, 10, 1, Bound::SlowStart).sndcnt;
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
        let ss = Prr {
            delivered: 3 * S,
            out: S,
            recover_fs: 20 * S,
        };
        let a = step(ss, S, 2 * S, 10 * S, S, Bound::SlowStart);
        let b = step(ss, S, 2 * S, 10 * S, S, Bound::Conservative);
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
        let p = after_fast_retransmit();
        let crb = step(p, 618, 0, 1236, 618, Bound::Conservative);
        assert_eq!((crb.proportional, crb.limit, crb.sndcnt), (false, 0, 0));
        let ssrb = step(p, 618, 0, 1236, 618, Bound::SlowStart);
        assert_eq!((ssrb.limit, ssrb.sndcnt), (1236, 1236));
    }

    /// RFC 9937 on the same case: the ACK that delivers the fast retransmit (618 B) and shows
    /// the next segment lost is not safe, so the limit is max(prr_delivered − prr_out,
    /// DeliveredData) = max(0, 618) = 618 B: one segment goes, where the conservative bound
    /// let none out. On a safe ACK (snd.una advanced, no new loss) a segment more: 1236 B.
    #[test]
    fn rfc9937_sends_what_was_delivered_and_a_segment_more_on_a_safe_ack() {
        let p = after_fast_retransmit();
        let unsafe_ack = step(p, 618, 0, 1236, 618, Bound::Rfc9937 { safe_ack: false });
        assert_eq!(
            (unsafe_ack.proportional, unsafe_ack.limit, unsafe_ack.sndcnt),
            (false, 618, 618)
        );
        let safe = step(p, 618, 0, 1236, 618, Bound::Rfc9937 { safe_ack: true });
        assert_eq!((safe.limit, safe.sndcnt), (1236, 1236));
        // Sends banked earlier (delivered, not yet matched by a send) count too: 3 segments
        // delivered, 1 sent, this ACK delivers 1 more; pipe 2 under ssthresh 10.
        let r = Prr {
            delivered: 3 * S,
            out: S,
            recover_fs: 20 * S,
        };
        // max(4 − 1, 1) = 3 segments, 4 on a safe ACK; ssthresh − pipe = 8 does not bind.
        assert_eq!(
            step(r, S, 2 * S, 10 * S, S, Bound::Rfc9937 { safe_ack: false }).sndcnt,
            3 * S
        );
        assert_eq!(
            step(r, S, 2 * S, 10 * S, S, Bound::Rfc9937 { safe_ack: true }).sndcnt,
            4 * S
        );
        // Above ssthresh the bound plays no part: the proportional share, as RFC 6937's.
        let mut u = Prr::start(20);
        let mut v = u;
        let a = u.on_ack(1, 18, 10, 1, Bound::Rfc9937 { safe_ack: true });
        let b = v.on_ack(1, 18, 10, 1, Bound::SlowStart);
        assert_eq!((a, u), (b, v));
    }

    /// In a byte-counted window RFC 9937's bound lets out what an unsafe ACK delivered, which
    /// with small segments is less than a segment: cwnd = pipe + sndcnt may then be below
    /// SMSS (the fuzzing driver's seed 8 case 134 932: 78 bytes delivered, SMSS 26 143).
    /// A safe ACK adds a segment.
    #[test]
    fn rfc9937_in_bytes_may_leave_less_than_a_segment_after_an_unsafe_ack() {
        let mut p = Prr::start(200);
        p.sent(100);
        let unsafe_ack = step(p, 78, 0, 52_286, 26_143, Bound::Rfc9937 { safe_ack: false });
        assert_eq!((unsafe_ack.limit, unsafe_ack.sndcnt), (78, 78));
        let safe = step(p, 78, 0, 52_286, 26_143, Bound::Rfc9937 { safe_ack: true });
        assert_eq!(safe.sndcnt, 78 + 26_143);
    }
}
