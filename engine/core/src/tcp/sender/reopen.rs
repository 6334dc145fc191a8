//! A fresh connection on a flow's sender: the short-transfers application opens one for
//! each transfer (`sim/transfers.rs`), as a browser's fetch over a new connection would.

use super::Sender;
use crate::scenario::FlowCfg;
use crate::time::Ns;

impl Sender {
    /// Restarts the sender as a new connection once everything it sent is acknowledged:
    /// closed (the next [`Sender::start`] sends a SYN if `tcp.syn`), the initial window and
    /// ssthresh, a congestion controller and an RTT estimator as built (the initial RTO, no
    /// sample). What carries over is what belongs to the flow rather than to one
    /// connection: the byte and segment numbering (the new connection's first byte is the
    /// old one's end, so a late packet of the old one is an old duplicate to the new one
    /// and scripted drops count the flow's segments), the counters, the write log, the RTT
    /// samples, the explained decisions, the pending timer entries' generations (a stale
    /// entry is ignored) and the loss-recovery mechanism's state (all acknowledged, so
    /// empty but for its timers' generations and RACK's RTT memory).
    pub fn reopen(&mut self, cfg: &FlowCfg, path_rtt: Ns, seed: u64) {
        debug_assert_eq!(
            self.snd_una, self.snd_max,
            "a connection reopened with data unacknowledged"
        );
        let mut fresh = Sender::new(self.flow, self.link, cfg);
        fresh.cc.set_path_rtt(path_rtt);
        fresh.cc.seed_draws(seed, self.flow);
        std::mem::swap(&mut fresh.cc.why, &mut self.cc.why);
        fresh.snd_una = self.snd_una;
        fresh.snd_nxt = self.snd_una;
        fresh.snd_max = self.snd_max;
        fresh.app_written = self.app_written;
        fresh.next_seg_no = self.next_seg_no;
        // Timer entries still queued for the old connection carry older generations.
        fresh.rto_gen = self.rto_gen.wrapping_add(1);
        fresh.pace_event = self.pace_event;
        fresh.stats = self.stats;
        fresh.writes = self.writes.take();
        fresh.rtt_samples = std::mem::take(&mut self.rtt_samples);
        fresh.recovery = self.recovery.take();
        *self = fresh;
    }
}
