//! Loss responses and fast recovery: ssthresh, fast retransmit, the recover guard, inflation, partial and full ACKs (RFC 5681, RFC 6582, BR-TCP, binomial).
//!
//! Each rule's sentence, with the arithmetic on its recorded values: `i` its inputs, `o` its
//! outputs (fields of its [`view`] module, so a misspelt name does not compile), `w` how
//! values are written.

use super::*;

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

impl SsthreshNone::In {
    pub(crate) fn words(_i: &Self, o: &SsthreshNone::Out, w: &W) -> String {
        format!("No multiplicative decrease: ssthresh stays {}", w.b(o.ssthresh))
    }
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

impl SsthreshHold::In {
    pub(crate) fn words(_i: &Self, o: &SsthreshHold::Out, w: &W) -> String {
        format!(
            "The timer had already resent this segment: ssthresh stays {}",
            w.b(o.ssthresh)
        )
    }
}

impl FastRetransmitTahoe::In {
    pub(crate) fn words(i: &Self, o: &FastRetransmitTahoe::Out, w: &W) -> String {
        format!(
            "{} duplicate ACKs for segment {}: fast retransmit. ssthresh {} → {}; cwnd = 1 SMSS = {}; resend from snd_una (go back N)",
            ordinal(i.dupacks), group(i.segment), w.b(i.ssthresh), w.b(o.ssthresh), w.b(o.cwnd)
        )
    }
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

impl FastRetransmitBr::In {
    pub(crate) fn words(i: &Self, o: &FastRetransmitBr::Out, w: &W) -> String {
        format!(
            "{} duplicate ACK for segment {}: fast retransmit. ssthresh = {} from the reserved rate; cwnd = ssthresh = {}, no inflation",
            ordinal(i.dupacks), group(i.segment), w.b(o.ssthresh), w.b(o.cwnd)
        )
    }
}

impl FastRetransmitSuppressed::In {
    pub(crate) fn words(i: &Self, _o: &FastRetransmitSuppressed::Out, _w: &W) -> String {
        format!(
            "{} duplicate ACK at {}, which does not cover more than recover = {}: this window's loss was already handled, no second reduction",
            ordinal(i.dupacks), group(i.ack), group(i.recover)
        )
    }
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

impl RenoExit::In {
    pub(crate) fn words(i: &Self, o: &RenoExit::Out, w: &W) -> String {
        format!(
            "New ACK {} in fast recovery: Reno leaves it at once (even below recover = {}); cwnd = {} = {} (window {} deflated)",
            group(i.ack), group(i.recover), target_name(i.ssthresh, i.target), w.b(o.cwnd), w.b(i.window)
        )
    }
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

impl FullAckMinFlight::In {
    pub(crate) fn words(i: &Self, o: &FullAckMinFlight::Out, w: &W) -> String {
        format!(
            "Full ACK {} (covers recover = {}): leave fast recovery; cwnd = min({}, max(FlightSize, SMSS) + SMSS) = min({}, max({}, {}) + {}) = {}",
            group(i.ack), group(i.recover), target_name(i.ssthresh, i.target), group(i.target),
            group(i.flight_size), group(i.smss), group(i.smss), w.b(o.cwnd)
        )
    }
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
