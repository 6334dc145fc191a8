//! Slow start and congestion avoidance: the loss-based increases (RFC 5681, RFC 3465, Linux
//! 3.x, binomial), the cwnd cap, HyStart++.
//!
//! Each rule's row, then its sentence with the arithmetic on its recorded values: `i` its
//! inputs, `o` its outputs (fields of the module its row makes, so a misspelt name does not
//! compile), `w` how values are written.

use super::*;

rule! {
    SsAckCounting = "ss.ack_counting", Increase, "Slow start: one SMSS per ACK",
        "RFC 5681 §3.1 (RFC 2581 §3.1)", "cwnd += SMSS",
        [cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes, acked: Bytes] => [cwnd: Bytes]
}

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

rule! {
    SsAbc = "ss.abc", Increase, "Slow start with Appropriate Byte Counting",
        "RFC 3465 §2.2 (L = 1 after a timeout, §2.3)", "cwnd += min(acked, L·SMSS)",
        [cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes, acked: Bytes, l = "L": Count] => [cwnd: Bytes]
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

rule! {
    SsLinux = "ss.linux", Increase, "Slow start, Linux 3.x",
        "Linux 3.x tcp_slow_start()", "cwnd += min(packets acked, ssthresh + 1 − cwnd) packets",
        [cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes, packets_acked = "packets acked": Packets] => [cwnd: Bytes]
}

impl SsLinux::In {
    pub(crate) fn words(i: &Self, o: &SsLinux::Out, w: &W) -> String {
        format!(
            "Slow start (Linux, cwnd {} ≤ ssthresh {}): {} packet(s) acknowledged, cwnd grows by min({}, ssthresh + 1 − cwnd) packets to {}",
            w.b(i.cwnd), w.b(i.ssthresh), i.packets_acked, i.packets_acked, w.b(o.cwnd)
        )
    }
}

rule! {
    SsNone = "ss.none", Increase, "No slow start: the whole window at once",
        "Jacobson 1988 §1 (4.3BSD before slow start)", "cwnd = max(1, ⌊min(ssthresh, rwnd)/SMSS⌋)·SMSS",
        [cwnd: Bytes, ssthresh: Bytes, rwnd: Bytes, smss = "SMSS": Bytes] => [cwnd: Bytes]
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

rule! {
    CaPerAck = "ca.per_ack", Increase, "Congestion avoidance: SMSS·SMSS/cwnd per ACK",
        "RFC 5681 §3.1 eq. (3)", "cwnd += max(1, ⌊SMSS·SMSS/cwnd⌋)",
        [cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes] => [cwnd: Bytes]
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

rule! {
    CaByteCounting = "ca.byte_counting", Increase, "Congestion avoidance with byte counting",
        "RFC 3465 §2.1", "bytes_acked += acked; if bytes_acked ≥ cwnd: bytes_acked −= cwnd, cwnd += SMSS",
        [cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes, acked: Bytes, bytes_acked: Bytes]
        => [cwnd: Bytes, bytes_acked: Bytes]
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

rule! {
    CaLinux = "ca.linux_counter", Increase, "Congestion avoidance, Linux 3.x ACK counter",
        "Linux 3.x tcp_cong_avoid_ai()", "if snd_cwnd_cnt ≥ cwnd (packets): cwnd += 1 packet, snd_cwnd_cnt = 0; else snd_cwnd_cnt += 1",
        [cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes, snd_cwnd_cnt: Count] => [cwnd: Bytes, snd_cwnd_cnt: Count]
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

rule! {
    CaBinomial = "ca.binomial", Increase, "Binomial increase: α/w^k packets per RTT",
        "Bansal & Balakrishnan 2001 §3.2 eq. (1), I (source 004)", "cwnd += α/w^k · SMSS/w per ACK (w = cwnd in packets)",
        [cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes, k: Milli, alpha: Milli] => [cwnd: Bytes]
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

rule! {
    CwndCap = "increase.max_cwnd", Increase, "cwnd held at its cap",
        "4.3BSD tcp_input (TCP_MAXWIN << snd_scale)", "cwnd = max(min(grown, max_cwnd), cwnd before)",
        [cwnd: Bytes, cwnd_before = "cwnd before": Bytes, max_cwnd: Bytes] => [cwnd: Bytes]
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

rule! {
    SsHystart = "ss.hystart_pp", Increase, "Slow start under HyStart++",
        "RFC 9406 §4.2", "cwnd += min(acked, L·SMSS), L = 8; in conservative slow start (CSS) a quarter of it",
        [cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes, acked: Bytes, css = "CSS": Flag] => [cwnd: Bytes]
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

rule! {
    HystartCssEnter = "hystart.css_enter", Increase, "HyStart++: the RTT rose, conservative slow start",
        "RFC 9406 §4.2", "after N_RTT_SAMPLE samples: if currentRoundMinRTT ≥ lastRoundMinRTT + max(4 ms, min(lastRoundMinRTT/8, 16 ms)): enter CSS",
        [last_round_min_rtt = "lastRoundMinRTT": Ns, current_round_min_rtt = "currentRoundMinRTT": Ns, rtt_thresh = "RttThresh": Ns, cwnd: Bytes] => []
}

impl HystartCssEnter::In {
    pub(crate) fn words(i: &Self, _o: &HystartCssEnter::Out, w: &W) -> String {
        format!(
            "HyStart++: this round's smallest RTT {} is at least the last round's {} + {} (max(4 ms, min(last/8, 16 ms))): a queue is building, so growth drops to a quarter (conservative slow start) at cwnd = {}",
            w.t(i.current_round_min_rtt), w.t(i.last_round_min_rtt), w.t(i.rtt_thresh), w.b(i.cwnd)
        )
    }
}

rule! {
    HystartCssResume = "hystart.css_resume", Increase, "HyStart++: the RTT fell back, slow start resumes",
        "RFC 9406 §4.2", "in CSS, after N_RTT_SAMPLE samples: if currentRoundMinRTT < cssBaselineMinRtt: back to slow start",
        [css_baseline_min_rtt = "cssBaselineMinRtt": Ns, current_round_min_rtt = "currentRoundMinRTT": Ns, cwnd: Bytes] => []
}

impl HystartCssResume::In {
    pub(crate) fn words(i: &Self, _o: &HystartCssResume::Out, w: &W) -> String {
        format!(
            "HyStart++: this round's smallest RTT {} is below the baseline {} it rose from: the rise was noise, slow start resumes at cwnd = {}",
            w.t(i.current_round_min_rtt), w.t(i.css_baseline_min_rtt), w.b(i.cwnd)
        )
    }
}

rule! {
    HystartExit = "hystart.exit", Increase, "HyStart++ ends slow start",
        "RFC 9406 §4.2 (RFC 9438 §4.10 for CUBIC)", "after CSS_ROUNDS rounds of CSS: ssthresh = cwnd",
        [cwnd: Bytes, ssthresh: Bytes, css_rounds = "CSS rounds": Count] => [ssthresh: Bytes]
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
