//! Loss responses and fast recovery: ssthresh, fast retransmit, the recover guard,
//! inflation, partial and full ACKs (RFC 5681, RFC 6582, BR-TCP, binomial).
//!
//! Each rule's row, then its sentence with the arithmetic on its recorded values: `i` its
//! inputs, `o` its outputs (fields of the module its row makes, so a misspelt name does not
//! compile), `w` how values are written.

use super::*;

rule! {
    SsthreshHalfFlight = "ssthresh.half_flight", Loss, "ssthresh from the flight size",
        "RFC 5681 §3.1 eq. (4)", "ssthresh = max(FlightSize/2, 2·SMSS)",
        [flight_size = "FlightSize": Bytes, smss = "SMSS": Bytes, ssthresh: Bytes] => [ssthresh: Bytes]
}

impl SsthreshHalfFlight::In {
    pub(crate) fn words(i: &Self, o: &SsthreshHalfFlight::Out, w: &W) -> String {
        format!(
            "ssthresh = max(FlightSize/2, 2·SMSS) = max({}/2, {}) = {}",
            group(i.flight_size),
            group(2 * i.smss),
            w.b(o.ssthresh)
        )
    }
}

rule! {
    SsthreshHalfCwnd = "ssthresh.half_cwnd", Loss, "ssthresh from the window",
        "4.3BSD-Reno tcp_input / ns-2 (window_/2)", "ssthresh = max(min(cwnd, rwnd)/2, 2·SMSS)",
        [cwnd: Bytes, rwnd: Bytes, smss = "SMSS": Bytes, ssthresh: Bytes] => [ssthresh: Bytes]
}

impl SsthreshHalfCwnd::In {
    pub(crate) fn words(i: &Self, o: &SsthreshHalfCwnd::Out, w: &W) -> String {
        format!(
            "ssthresh = max(min(cwnd, rwnd)/2, 2·SMSS) = max({}/2, {}) = {}",
            group(i.cwnd.min(i.rwnd)),
            group(2 * i.smss),
            w.b(o.ssthresh)
        )
    }
}

rule! {
    SsthreshNone = "ssthresh.none", Loss, "ssthresh unchanged (no multiplicative decrease)",
        "Jacobson 1988 §3 (the sender before it)", "ssthresh unchanged",
        [ssthresh: Bytes] => [ssthresh: Bytes]
}

impl SsthreshNone::In {
    pub(crate) fn words(_i: &Self, o: &SsthreshNone::Out, w: &W) -> String {
        format!("No multiplicative decrease: ssthresh stays {}", w.b(o.ssthresh))
    }
}

rule! {
    SsthreshBrTcp = "ssthresh.br_tcp", Loss, "ssthresh from the reserved rate",
        "Komuro et al. 2006 (source 002) eqs. (1)–(2)", "ssthresh = max(2, ⌊r·RTT/(8·size)⌋)·SMSS",
        [reserved_rate = "reserved rate": Bps, rtt = "RTT": Ns, size: Bytes, smss = "SMSS": Bytes, ssthresh: Bytes] => [ssthresh: Bytes]
}

impl SsthreshBrTcp::In {
    pub(crate) fn words(i: &Self, o: &SsthreshBrTcp::Out, w: &W) -> String {
        format!(
            "ssthresh from the reserved rate: ⌊{} · {} / (8 · {})⌋ packets (at least 2) · SMSS = {}",
            format_bps(i.reserved_rate),
            w.t(i.rtt),
            w.b(i.size),
            w.b(o.ssthresh)
        )
    }
}

rule! {
    SsthreshBinomial = "ssthresh.binomial", Loss, "Binomial decrease: w − β·w^l",
        "Bansal & Balakrishnan 2001 §3.2 eq. (1), D (source 004)", "ssthresh = w − β·w^l packets (w = min(cwnd, rwnd))",
        [window: Bytes, smss = "SMSS": Bytes, l: Milli, beta: Milli, ssthresh: Bytes] => [ssthresh: Bytes]
}

impl SsthreshBinomial::In {
    pub(crate) fn words(i: &Self, o: &SsthreshBinomial::Out, w: &W) -> String {
        format!(
            "Binomial decrease (l = {}, β = {}): ssthresh = w − β·w^l with w = {} → {}",
            format_value(i.l, Unit::Milli),
            format_value(i.beta, Unit::Milli),
            w.b(i.window),
            w.b(o.ssthresh)
        )
    }
}

rule! {
    SsthreshHold = "ssthresh.hold_repeated_rto", Loss, "ssthresh kept on a repeated timeout",
        "RFC 5681 §3.1 (the segment was already resent by the timer)", "ssthresh unchanged",
        [ssthresh: Bytes] => [ssthresh: Bytes]
}

impl SsthreshHold::In {
    pub(crate) fn words(_i: &Self, o: &SsthreshHold::Out, w: &W) -> String {
        format!(
            "The timer had already resent this segment: ssthresh stays {}",
            w.b(o.ssthresh)
        )
    }
}

rule! {
    FastRetransmitTahoe = "loss.fast_retransmit_tahoe", Loss, "Fast retransmit, then slow start (Tahoe)",
        "4.3BSD-Tahoe; RFC 5681 §3.2 steps 2–3 with cwnd = LW", "cwnd = 1 SMSS; resend from snd_una (go back N)",
        [dupacks: Count, segment: Seg, flight_size = "FlightSize": Bytes, cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes]
        => [ssthresh: Bytes, cwnd: Bytes, recover: Seq]
}

impl FastRetransmitTahoe::In {
    pub(crate) fn words(i: &Self, o: &FastRetransmitTahoe::Out, w: &W) -> String {
        format!(
            "{} duplicate ACKs for segment {}: fast retransmit. ssthresh {} → {}; cwnd = 1 SMSS = {}; resend from snd_una (go back N)",
            ordinal(i.dupacks), group(i.segment), w.b(i.ssthresh), w.b(o.ssthresh), w.b(o.cwnd)
        )
    }
}

rule! {
    FastRetransmit = "loss.fast_retransmit", Loss, "Fast retransmit and fast recovery",
        "RFC 5681 §3.2 steps 2–3 (RFC 6582 §3.2 step 2: recover = highest sent)", "cwnd = ssthresh; window in force = ssthresh + dupthresh·SMSS; resend the segment at snd_una",
        [dupacks: Count, segment: Seg, flight_size = "FlightSize": Bytes, cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes]
        => [ssthresh: Bytes, cwnd: Bytes, window: Bytes, recover: Seq]
}

impl FastRetransmit::In {
    pub(crate) fn words(i: &Self, o: &FastRetransmit::Out, w: &W) -> String {
        format!(
            "{} duplicate ACK for segment {}: fast retransmit. ssthresh {} → {}; cwnd = ssthresh = {}; window in force = ssthresh + {}·SMSS = {}; recover = {}",
            ordinal(i.dupacks), group(i.segment), w.b(i.ssthresh), w.b(o.ssthresh), w.b(o.cwnd),
            i.dupacks, w.b(o.window), group(o.recover)
        )
    }
}

rule! {
    FastRetransmitBr = "loss.fast_retransmit_br_tcp", Loss, "Fast retransmit, cwnd = ssthresh (BR-TCP)",
        "Komuro et al. 2006 (source 002) §2 step 1", "cwnd = ssthresh; resend; continue in congestion avoidance",
        [dupacks: Count, segment: Seg, flight_size = "FlightSize": Bytes, cwnd: Bytes, ssthresh: Bytes]
        => [ssthresh: Bytes, cwnd: Bytes, recover: Seq]
}

impl FastRetransmitBr::In {
    pub(crate) fn words(i: &Self, o: &FastRetransmitBr::Out, w: &W) -> String {
        format!(
            "{} duplicate ACK for segment {}: fast retransmit. ssthresh = {} from the reserved rate; cwnd = ssthresh = {}, no inflation",
            ordinal(i.dupacks), group(i.segment), w.b(o.ssthresh), w.b(o.cwnd)
        )
    }
}

rule! {
    FastRetransmitSuppressed = "loss.recover_guard", Loss, "No fast retransmit: this loss was already handled",
        "RFC 6582 §3.2 step 2 (Floyd's bugfix)", "act only if the duplicate ACKs cover more than recover",
        [dupacks: Count, ack: Seq, recover: Seq] => []
}

impl FastRetransmitSuppressed::In {
    pub(crate) fn words(i: &Self, _o: &FastRetransmitSuppressed::Out, _w: &W) -> String {
        format!(
            "{} duplicate ACK at {}, which does not cover more than recover = {}: this window's loss was already handled, no second reduction",
            ordinal(i.dupacks), group(i.ack), group(i.recover)
        )
    }
}

rule! {
    Inflate = "recovery.inflate", Recovery, "Fast recovery: the window inflates by one SMSS",
        "RFC 5681 §3.2 step 4", "window += SMSS for each further duplicate ACK",
        [dupacks: Count, window: Bytes, smss = "SMSS": Bytes] => [window: Bytes]
}

impl Inflate::In {
    pub(crate) fn words(i: &Self, o: &Inflate::Out, w: &W) -> String {
        format!(
            "Duplicate ACK {} in fast recovery: a segment left the network, window = {} + SMSS = {}",
            i.dupacks,
            w.b(i.window),
            w.b(o.window)
        )
    }
}

rule! {
    RenoExit = "recovery.reno_exit", Recovery, "Reno leaves fast recovery on the first new ACK",
        "RFC 5681 §3.2 step 6", "cwnd = target (deflate the window); target = ssthresh, or min(cwnd, ssthresh) with no multiplicative decrease",
        [ack: Seq, recover: Seq, window: Bytes, ssthresh: Bytes, target: Bytes] => [cwnd: Bytes]
}

impl RenoExit::In {
    pub(crate) fn words(i: &Self, o: &RenoExit::Out, w: &W) -> String {
        format!(
            "New ACK {} in fast recovery: Reno leaves it at once (even below recover = {}); cwnd = {} = {} (window {} deflated)",
            group(i.ack), group(i.recover), target_name(i.ssthresh, i.target), w.b(o.cwnd), w.b(i.window)
        )
    }
}

rule! {
    PartialDeflate = "recovery.partial_ack_deflate", Recovery, "Partial ACK: resend the next hole, deflate",
        "RFC 6582 §3.2 step 3 (partial ACK)", "window = max(SMSS, window − acked) + (SMSS if acked ≥ SMSS); resend the segment at snd_una",
        [ack: Seq, recover: Seq, window: Bytes, acked: Bytes, smss = "SMSS": Bytes, segment: Seg]
        => [window: Bytes, timer_restarted = "timer restarted": Flag]
}

impl PartialDeflate::In {
    pub(crate) fn words(i: &Self, o: &PartialDeflate::Out, w: &W) -> String {
        format!(
            "Partial ACK {} (below recover = {}): resend segment {}; window = {} − {} acknowledged{} = {}{}",
            group(i.ack),
            group(i.recover),
            group(i.segment),
            group(i.window),
            group(i.acked),
            if i.acked >= i.smss {
                format!(" + {}", group(i.smss))
            } else {
                String::new()
            },
            w.b(o.window),
            if o.timer_restarted != 0 {
                "; timer restarted"
            } else {
                ""
            }
        )
    }
}

rule! {
    PartialReset = "recovery.partial_ack_reset", Recovery, "Partial ACK: resend the next hole, window back to cwnd",
        "ns-2 NewReno without partial_window_deflation_", "window = cwnd; resend the segment at snd_una",
        [ack: Seq, recover: Seq, window: Bytes, cwnd: Bytes, segment: Seg]
        => [window: Bytes, timer_restarted = "timer restarted": Flag]
}

impl PartialReset::In {
    pub(crate) fn words(i: &Self, o: &PartialReset::Out, w: &W) -> String {
        format!(
            "Partial ACK {} (below recover = {}): resend segment {}; window back to cwnd = {}{}",
            group(i.ack),
            group(i.recover),
            group(i.segment),
            w.b(o.window),
            if o.timer_restarted != 0 {
                "; timer restarted"
            } else {
                ""
            }
        )
    }
}

rule! {
    FullAckMinFlight = "recovery.full_ack_min_flight", Recovery, "Full ACK: leave fast recovery",
        "RFC 6582 §3.2 step 3 (full ACK), option (1)", "cwnd = min(target, max(FlightSize, SMSS) + SMSS); target = ssthresh, or min(cwnd, ssthresh) with no multiplicative decrease",
        [ack: Seq, recover: Seq, ssthresh: Bytes, target: Bytes, flight_size = "FlightSize": Bytes, smss = "SMSS": Bytes] => [cwnd: Bytes]
}

impl FullAckMinFlight::In {
    pub(crate) fn words(i: &Self, o: &FullAckMinFlight::Out, w: &W) -> String {
        format!(
            "Full ACK {} (covers recover = {}): leave fast recovery; cwnd = min({}, max(FlightSize, SMSS) + SMSS) = min({}, max({}, {}) + {}) = {}",
            group(i.ack), group(i.recover), target_name(i.ssthresh, i.target), group(i.target),
            group(i.flight_size), group(i.smss), group(i.smss), w.b(o.cwnd)
        )
    }
}

rule! {
    FullAckSsthresh = "recovery.full_ack_ssthresh", Recovery, "Full ACK: leave fast recovery",
        "RFC 6582 §3.2 step 3 (full ACK), option (2)", "cwnd = target; target = ssthresh, or min(cwnd, ssthresh) with no multiplicative decrease",
        [ack: Seq, recover: Seq, ssthresh: Bytes, target: Bytes] => [cwnd: Bytes]
}

impl FullAckSsthresh::In {
    pub(crate) fn words(i: &Self, o: &FullAckSsthresh::Out, w: &W) -> String {
        format!(
            "Full ACK {} (covers recover = {}): leave fast recovery; cwnd = {} = {}",
            group(i.ack),
            group(i.recover),
            target_name(i.ssthresh, i.target),
            w.b(o.cwnd)
        )
    }
}
