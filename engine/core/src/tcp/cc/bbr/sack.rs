//! BBR over SACK-based recovery, as Linux's tcp_rate.c counts deliveries with SACK: a
//! segment counts as delivered once, when it is first SACKed or, if never SACKed, when the
//! cumulative ACK covers it; the newest-stamped of an ACK's deliveries gives its rate
//! sample. The recovery mechanism reports the SACKed segments ([`Cc::on_sack_delivered`])
//! and, once it has read the whole ACK (blocks, loss marks, the start or end of recovery),
//! hands over its pipe ([`Cc::on_ack_read`]): then one sample feeds `bbr_main`, with pipe as
//! the data in flight (Linux's tcp_packets_in_flight). Without SACK, duplicate ACKs stand in
//! for the blocks (`bbr_dupack`) and none of this runs.

use super::model::{rate_gen, RateSample, TxStamp};
use super::Bbr;
use crate::tcp::cc::{Cc, Flight, NewAckAction};
use crate::time::Ns;

/// One ACK's deliveries so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Acc {
    /// Bytes and segments delivered.
    bytes: u64,
    segs: u64,
    /// RTT of the newest segment delivered that was sent once, and its send time.
    rtt: Option<(Ns, Ns)>,
    /// The delivered segment with the newest delivery stamp (the sample's).
    best: Option<TxStamp>,
}

impl Bbr {
    /// Segment `t` of `len` bytes is delivered at `now` (tcp_rate_skb_delivered).
    fn deliver(&mut self, now: Ns, t: TxStamp, len: u64) {
        self.delivered += len;
        let a = &mut self.acc;
        a.bytes += len;
        a.segs += 1;
        if !t.retx && a.rtt.is_none_or(|(_, sent)| t.sent >= sent) {
            a.rtt = Some((now.saturating_sub(t.sent), t.sent));
        }
        if a.best.is_none_or(|x| x.delivered == 0 || t.delivered > x.delivered) {
            a.best = Some(t);
        }
    }
}

impl Cc {
    /// A flow with SACK: the cumulative ACK `ack` acknowledged `acked` bytes. The segments
    /// it covers that no SACK block delivered before are delivered now; the rest of the ACK
    /// (its sample, the window) waits for [`Cc::on_ack_read`]. Recovery's start and end
    /// are the mechanism's, so nothing here decides a resend.
    pub(super) fn bbr_sack_new_ack(&mut self, now: Ns, ack: u64, acked: u64) -> NewAckAction {
        self.rto_retransmitted = false;
        if self.timeout_recovery.is_some_and(|p| ack >= p) {
            self.timeout_recovery = None;
        }
        let b = self.bbr.as_deref_mut().expect("bbr");
        let mut prev = ack - acked;
        while let Some(&t) = b.txs.front() {
            if t.end > ack {
                break;
            }
            b.txs.pop_front();
            let len = t.end - prev;
            prev = t.end;
            if !t.counted {
                b.deliver(now, t, len);
            }
        }
        NewAckAction::Normal
    }

    /// The recovery mechanism: outstanding segment `index` (0 at snd_una), `len` bytes,
    /// was newly SACKed at `now`. Only a controller that [`Cc::models_path`] keeps this.
    #[cold]
    pub fn on_sack_delivered(&mut self, now: Ns, index: usize, len: u64) {
        let Some(b) = self.bbr.as_deref_mut() else { return };
        let Some(t) = b.txs.get_mut(index) else { return };
        if !t.counted {
            t.counted = true;
            let t = *t;
            b.deliver(now, t, len);
        }
    }

    /// The recovery mechanism has read a whole ACK: its pipe was `pipe_before` when the ACK
    /// arrived and is `pipe` now (before anything the ACK lets out); `losses` segments were
    /// newly deemed lost. One rate sample from the ACK's deliveries feeds the model, which
    /// sets the pacing rate and cwnd (bbr_main; in recovery, packet conservation, then the
    /// window before it restored).
    #[cold]
    pub fn on_ack_read(&mut self, now: Ns, pipe_before: Flight, pipe: Flight, losses: u64) {
        let smss = self.smss;
        let Some(b) = self.bbr.as_deref_mut() else { return };
        let acc = std::mem::take(&mut b.acc);
        let mut rs = RateSample {
            acked: acc.bytes,
            acked_segs: acc.segs,
            losses,
            rtt: acc.rtt.map(|(r, _)| r),
            ..RateSample::default()
        };
        if let Some(r) = rs.rtt {
            b.conn_min_rtt = b.conn_min_rtt.min(r);
        }
        rate_gen(b, now, acc.best, &mut rs);
        // Linux counts packets: in flight = pipe in whole segments.
        self.bbr_main(now, &rs, pipe_before.segs * smss, pipe.segs * smss);
    }
}
