//! Window increase on a new ACK outside recovery: slow start (one SMSS per ACK, or RFC 3465
//! byte counting with limit L) and congestion avoidance (SMSS²/cwnd per ACK, or one SMSS per
//! cwnd of acknowledged bytes).

use super::Cc;
use crate::scenario::{CongAvoidRule, SlowStartRule};

impl Cc {
    /// cwnd growth on a new ACK outside fast recovery.
    pub(super) fn grow(&mut self, acked: u64) {
        let smss = self.smss;
        if self.cwnd < self.ssthresh {
            // Slow start (RFC 5681 §3.1).
            let inc = match self.cfg.slow_start {
                // One SMSS per new ACK, however much it acknowledges (RFC 2581 §3.1).
                SlowStartRule::AckCounting => smss,
                // RFC 3465 §2.2: the bytes acknowledged, at most L·SMSS; L = 1 after an RTO
                // (§2.3).
                SlowStartRule::Abc => {
                    let l = if self.after_rto { 1 } else { self.cfg.abc_limit };
                    acked.min(l * smss)
                }
            };
            self.cwnd += inc;
            self.bytes_acked = 0;
        } else {
            self.after_rto = false;
            match self.cfg.congestion_avoidance {
                // RFC 5681 §3.1 eq. (3): SMSS·SMSS/cwnd per ACK, at least one byte.
                CongAvoidRule::PerAck => self.cwnd += (smss * smss / self.cwnd).max(1),
                // RFC 3465 §2.1: one SMSS per cwnd of acknowledged bytes.
                CongAvoidRule::ByteCounting => {
                    self.bytes_acked += acked;
                    if self.bytes_acked >= self.cwnd {
                        self.bytes_acked -= self.cwnd;
                        self.cwnd += smss;
                    }
                }
            }
        }
    }
}
