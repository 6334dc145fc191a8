//! The retransmission timer and the RTT estimators: timeouts, backoff, RFC 6298, Jacobson
//! 1988, RFC 793, Karn.
//!
//! Each rule's row, then its sentence with the arithmetic on its recorded values: `i` its
//! inputs, `o` its outputs (fields of the module its row makes, so a misspelt name does not
//! compile), `w` how values are written.

use super::*;

rule! {
    Timeout = "timeout.expire", Timeout, "Retransmission timeout",
        "RFC 5681 §3.1 (LW), RFC 6298 (5.4)", "cwnd = LW (1 SMSS); resend from snd_una (go back N); recover = highest sent",
        [segment: Seg, flight_size = "FlightSize": Bytes, cwnd: Bytes, ssthresh: Bytes]
        => [cwnd: Bytes, ssthresh: Bytes, recover: Seq]
}

impl Timeout::In {
    pub(crate) fn words(i: &Self, o: &Timeout::Out, w: &W) -> String {
        format!(
            "Retransmission timer expired with {} in flight: ssthresh {} → {}; cwnd = {} (loss window); resend segment {} and go back N",
            w.b(i.flight_size), w.b(i.ssthresh), w.b(o.ssthresh), w.b(o.cwnd), group(i.segment)
        )
    }
}

rule! {
    Backoff = "timeout.backoff", Timeout, "The RTO doubles",
        "RFC 6298 (5.5)", "RTO = min(2·RTO, max RTO)",
        [rto = "RTO": Ns, backoffs: Count, max_rto = "max RTO": Ns] => [rto = "RTO": Ns, backoffs: Count]
}

impl Backoff::In {
    pub(crate) fn words(i: &Self, o: &Backoff::Out, w: &W) -> String {
        format!(
            "RTO doubles for the next expiry: min(2·{}, {}) = {} (backoff {})",
            w.t(i.rto),
            w.t(i.max_rto),
            w.t(o.rto),
            o.backoffs
        )
    }
}

rule! {
    SynTimeout = "timeout.syn_rto", Timeout, "A SYN was lost: data starts with an RTO of at least 3 s",
        "RFC 6298 (5.7)", "RTO = max(RTO, 3 s)",
        [rto = "RTO": Ns] => [rto = "RTO": Ns]
}

impl SynTimeout::In {
    pub(crate) fn words(i: &Self, o: &SynTimeout::Out, w: &W) -> String {
        format!("A SYN was lost: RTO = max({}, 3 s) = {}", w.t(i.rto), w.t(o.rto))
    }
}

rule! {
    RttFirst = "rtt.rfc6298_first", Rtt, "First RTT sample",
        "RFC 6298 (2.2), bounds (2.4)–(2.5)", "SRTT = R; RTTVAR = R/2; RTO = SRTT + max(G, 4·RTTVAR), within [min, max]",
        [r = "R": Ns, elapsed: Ns, segment: Seg, g = "G": Ns, min_rto = "min RTO": Ns, max_rto = "max RTO": Ns]
        => [srtt = "SRTT": Ns, rttvar = "RTTVAR": Ns, rto = "RTO": Ns]
}

impl RttFirst::In {
    pub(crate) fn words(i: &Self, o: &RttFirst::Out, w: &W) -> String {
        let text =
            format!(
            "First RTT sample R = {} (segment {}): SRTT = {}, RTTVAR = R/2 = {}, RTO = SRTT + max(G, 4·RTTVAR) = {}",
            w.t(i.r), group(i.segment), w.t(o.srtt), w.t(o.rttvar), w.t(o.rto)
        );
        text + rto_bound(o.rto, i.min_rto, i.max_rto, o.srtt + i.g.max(4 * o.rttvar))
    }
}

rule! {
    RttUpdate = "rtt.rfc6298", Rtt, "RTT sample",
        "RFC 6298 (2.3), bounds (2.4)–(2.5)", "RTTVAR = ¾·RTTVAR + ¼·|SRTT − R|; SRTT = ⅞·SRTT + ⅛·R; RTO = SRTT + max(G, 4·RTTVAR), within [min, max]",
        [r = "R": Ns, elapsed: Ns, segment: Seg, srtt = "SRTT": Ns, rttvar = "RTTVAR": Ns, g = "G": Ns, min_rto = "min RTO": Ns, max_rto = "max RTO": Ns]
        => [srtt = "SRTT": Ns, rttvar = "RTTVAR": Ns, rto = "RTO": Ns]
}

impl RttUpdate::In {
    pub(crate) fn words(i: &Self, o: &RttUpdate::Out, w: &W) -> String {
        let text = format!(
            "RTT sample R = {} (segment {}): RTTVAR = ¾·{} + ¼·|{} − {}| = {}; SRTT = ⅞·{} + ⅛·{} = {}; RTO = {}",
            w.t(i.r),
            group(i.segment),
            w.t(i.rttvar),
            w.t(i.srtt),
            w.t(i.r),
            w.t(o.rttvar),
            w.t(i.srtt),
            w.t(i.r),
            w.t(o.srtt),
            w.t(o.rto)
        );
        text + rto_bound(o.rto, i.min_rto, i.max_rto, o.srtt + i.g.max(4 * o.rttvar))
    }
}

rule! {
    RttJacobson = "rtt.jacobson88", Rtt, "RTT sample (Jacobson 1988)",
        "Jacobson & Karels 1988 appendix A", "err = m − A; A += err/8; D += (|err| − D)/4; RTO = A + 4·D (in clock ticks)",
        [r = "R": Ns, elapsed: Ns, segment: Seg, a = "A": Ns, d = "D": Ns, tick: Ns, min_rto = "min RTO": Ns, max_rto = "max RTO": Ns]
        => [a = "A": Ns, d = "D": Ns, rto = "RTO": Ns]
}

impl RttJacobson::In {
    pub(crate) fn words(i: &Self, o: &RttJacobson::Out, w: &W) -> String {
        let text = if i.a == 0 {
            format!(
                "First RTT sample R = {} (segment {}): mean A = R = {}, deviation D = R/2 = {}; RTO = A + 4·D = {}",
                w.t(i.r),
                group(i.segment),
                w.t(o.a),
                w.t(o.d),
                w.t(o.rto)
            )
        } else {
            format!(
                "RTT sample R = {} (segment {}): mean A {} → {}, deviation D {} → {}; RTO = A + 4·D = {}",
                w.t(i.r),
                group(i.segment),
                w.t(i.a),
                w.t(o.a),
                w.t(i.d),
                w.t(o.d),
                w.t(o.rto)
            )
        };
        text + rto_bound(o.rto, i.min_rto, i.max_rto, o.a + 4 * o.d)
    }
}

rule! {
    RttRfc793 = "rtt.rfc793", Rtt, "RTT sample (RFC 793)",
        "RFC 793 §3.7", "SRTT = α·SRTT + (1 − α)·R; RTO = min(UBOUND, max(LBOUND, β·SRTT))",
        [r = "R": Ns, elapsed: Ns, segment: Seg, srtt = "SRTT": Ns, alpha: Milli, beta: Milli, min_rto = "min RTO": Ns, max_rto = "max RTO": Ns]
        => [srtt = "SRTT": Ns, rto = "RTO": Ns]
}

impl RttRfc793::In {
    pub(crate) fn words(i: &Self, o: &RttRfc793::Out, w: &W) -> String {
        let text = if i.srtt == 0 {
            format!(
                "First RTT sample R = {} (segment {}): SRTT = R = {}; RTO = β·SRTT = {} (β = {})",
                w.t(i.r),
                group(i.segment),
                w.t(o.srtt),
                w.t(o.rto),
                format_value(i.beta, Unit::Milli)
            )
        } else {
            format!(
                "RTT sample R = {} (segment {}): SRTT = α·{} + (1 − α)·R = {} (α = {}); RTO = β·SRTT = {} (β = {})",
                w.t(i.r),
                group(i.segment),
                w.t(i.srtt),
                w.t(o.srtt),
                format_value(i.alpha, Unit::Milli),
                w.t(o.rto),
                format_value(i.beta, Unit::Milli)
            )
        };
        text + rto_bound(o.rto, i.min_rto, i.max_rto, o.srtt * i.beta / 1000)
    }
}

rule! {
    Karn = "rtt.karn", Rtt, "No RTT sample from this round trip (Karn's rule)",
        "Karn & Partridge 1987; RFC 6298 §3", "a segment was retransmitted while being timed: its ACK would be ambiguous",
        [timed_segment = "timed segment": Seg, resent_segment = "resent segment": Seg] => []
}

impl Karn::In {
    pub(crate) fn words(i: &Self, _o: &Karn::Out, _w: &W) -> String {
        format!(
            "Segment {} is resent while segment {} is being timed: no RTT sample from it (Karn's rule)",
            group(i.resent_segment),
            group(i.timed_segment)
        )
    }
}

/// For an RTT rule whose RTO came out at a bound: which one (`raw`: the estimate before the
/// bounds, as the rule's estimator forms it).
fn rto_bound(rto: u64, min: u64, max: u64, raw: u64) -> &'static str {
    if rto == min && raw < min {
        ", raised to the minimum RTO"
    } else if rto == max && raw > max {
        ", capped at the maximum RTO"
    } else {
        ""
    }
}
