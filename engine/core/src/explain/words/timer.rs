//! The retransmission timer and the RTT estimators: timeouts, backoff, RFC 6298, Jacobson 1988, RFC 793, Karn.
//!
//! Each rule's sentence, with the arithmetic on its recorded values: `i` its inputs, `o` its
//! outputs (fields of its [`view`] module, so a misspelt name does not compile), `w` how
//! values are written.

use super::*;

impl Timeout::In {
    pub(crate) fn words(i: &Self, o: &Timeout::Out, w: &W) -> String {
        format!(
            "Retransmission timer expired with {} in flight: ssthresh {} → {}; cwnd = {} (loss window); resend segment {} and go back N",
            w.b(i.flight_size), w.b(i.ssthresh), w.b(o.ssthresh), w.b(o.cwnd), group(i.segment)
        )
    }
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

impl SynTimeout::In {
    pub(crate) fn words(i: &Self, o: &SynTimeout::Out, w: &W) -> String {
        format!("A SYN was lost: RTO = max({}, 3 s) = {}", w.t(i.rto), w.t(o.rto))
    }
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
