//! Slow start and congestion avoidance: the loss-based increases (RFC 5681, RFC 3465, Linux 3.x, binomial), the cwnd cap, HyStart++.
//!
//! Each rule's sentence, with the arithmetic on its recorded values: `i` its inputs, `o` its
//! outputs (fields of its [`view`] module, so a misspelt name does not compile), `w` how
//! values are written.

use super::*;

impl SsAckCounting::In {
    pub(crate) fn words(i: &Self, o: &SsAckCounting::Out, w: &W) -> String {
        format!(
            "Slow start (cwnd {} < ssthresh {}): a new ACK for {} adds one SMSS, cwnd = {} + {} = {}",
            w.b(i.cwnd),
            w.b(i.ssthresh),
            w.b(i.acked),
            w.b(i.cwnd),
            w.b(i.smss),
            w.b(o.cwnd)
        )
    }
}

impl SsAbc::In {
    pub(crate) fn words(i: &Self, o: &SsAbc::Out, w: &W) -> String {
        format!(
            "Slow start with byte counting: cwnd += min(acked, L·SMSS) = min({}, {}·{}) → cwnd = {}",
            w.b(i.acked),
            i.l,
            w.b(i.smss),
            w.b(o.cwnd)
        )
    }
}

impl SsLinux::In {
    pub(crate) fn words(i: &Self, o: &SsLinux::Out, w: &W) -> String {
        format!(
            "Slow start (Linux, cwnd {} ≤ ssthresh {}): {} packet(s) acknowledged, cwnd grows by min({}, ssthresh + 1 − cwnd) packets to {}",
            w.b(i.cwnd), w.b(i.ssthresh), i.packets_acked, i.packets_acked, w.b(o.cwnd)
        )
    }
}

impl SsNone::In {
    pub(crate) fn words(i: &Self, o: &SsNone::Out, w: &W) -> String {
        format!(
            "No slow start: the window opens at once to min(ssthresh {}, rwnd {}) in whole segments = {}",
            w.b(i.ssthresh),
            w.b(i.rwnd),
            w.b(o.cwnd)
        )
    }
}

impl CaPerAck::In {
    pub(crate) fn words(i: &Self, o: &CaPerAck::Out, w: &W) -> String {
        let (c, s) = (i.cwnd, i.smss);
        format!(
            "Congestion avoidance (cwnd {} ≥ ssthresh {}): cwnd += max(1, SMSS·SMSS/cwnd) = {}·{}/{} = {} B → cwnd = {}",
            w.b(c), w.b(i.ssthresh), group(s), group(s), group(c), group((s * s / c.max(1)).max(1)), w.b(o.cwnd)
        )
    }
}

impl CaByteCounting::In {
    pub(crate) fn words(i: &Self, o: &CaByteCounting::Out, w: &W) -> String {
        format!(
            "Congestion avoidance with byte counting: bytes_acked {} + {} acknowledged = {} against cwnd {}: {}",
            w.b(i.bytes_acked),
            w.b(i.acked),
            w.b(i.bytes_acked.saturating_add(i.acked)),
            w.b(i.cwnd),
            if o.cwnd > i.cwnd {
                format!(
                    "a whole window acknowledged, cwnd = {} + SMSS = {}",
                    w.b(i.cwnd),
                    w.b(o.cwnd)
                )
            } else {
                "less than a window, cwnd unchanged".to_string()
            }
        )
    }
}

impl CaLinux::In {
    pub(crate) fn words(i: &Self, o: &CaLinux::Out, w: &W) -> String {
        let pk = i.cwnd / i.smss.max(1);
        if o.cwnd > i.cwnd {
            format!(
                "Congestion avoidance (Linux): the ACK counter {} has reached cwnd {} packets: cwnd += 1 packet = {}, counter reset",
                i.snd_cwnd_cnt, pk, w.b(o.cwnd)
            )
        } else {
            format!(
                "Congestion avoidance (Linux): ACK counter {} < cwnd {} packets: counter = {}, cwnd unchanged",
                i.snd_cwnd_cnt, pk, o.snd_cwnd_cnt
            )
        }
    }
}

impl CaBinomial::In {
    pub(crate) fn words(i: &Self, o: &CaBinomial::Out, w: &W) -> String {
        format!(
            "Binomial increase (k = {}, α = {}): cwnd {} grows by α/w^k per RTT, {} on this ACK → {}",
            format_value(i.k, Unit::Milli),
            format_value(i.alpha, Unit::Milli),
            w.b(i.cwnd),
            w.b(o.cwnd.saturating_sub(i.cwnd)),
            w.b(o.cwnd)
        )
    }
}

impl CwndCap::In {
    pub(crate) fn words(i: &Self, o: &CwndCap::Out, w: &W) -> String {
        format!(
            "cwnd would grow from {} to {} but is capped at max_cwnd {}: cwnd = {}",
            w.b(i.cwnd_before),
            w.b(i.cwnd),
            w.b(i.max_cwnd),
            w.b(o.cwnd)
        )
    }
}

impl SsHystart::In {
    pub(crate) fn words(i: &Self, o: &SsHystart::Out, w: &W) -> String {
        format!(
            "{}: cwnd += min(acked {}, 8·SMSS){} → {}",
            if i.css == 1 {
                "Conservative slow start (HyStart++)"
            } else {
                "Slow start (HyStart++)"
            },
            w.b(i.acked),
            if i.css == 1 { "/4" } else { "" },
            w.b(o.cwnd)
        )
    }
}

impl HystartCssEnter::In {
    pub(crate) fn words(i: &Self, _o: &HystartCssEnter::Out, w: &W) -> String {
        format!(
            "HyStart++: this round's smallest RTT {} is at least the last round's {} + {} (max(4 ms, min(last/8, 16 ms))): a queue is building, so growth drops to a quarter (conservative slow start) at cwnd = {}",
            w.t(i.current_round_min_rtt), w.t(i.last_round_min_rtt), w.t(i.rtt_thresh), w.b(i.cwnd)
        )
    }
}

impl HystartCssResume::In {
    pub(crate) fn words(i: &Self, _o: &HystartCssResume::Out, w: &W) -> String {
        format!(
            "HyStart++: this round's smallest RTT {} is below the baseline {} it rose from: the rise was noise, slow start resumes at cwnd = {}",
            w.t(i.current_round_min_rtt), w.t(i.css_baseline_min_rtt), w.b(i.cwnd)
        )
    }
}

impl HystartExit::In {
    pub(crate) fn words(i: &Self, o: &HystartExit::Out, w: &W) -> String {
        format!(
            "HyStart++: {} rounds of conservative slow start: slow start ends, ssthresh {} → cwnd = {}",
            i.css_rounds,
            w.b(i.ssthresh),
            w.b(o.ssthresh)
        )
    }
}
