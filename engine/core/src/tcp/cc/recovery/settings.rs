//! Loss recovery's settings: the ssthresh rule, Limited Transmit, the recover guard, the
//! timer on a fast retransmit, NewReno's choices and ssthresh on repeated timeouts. Part of
//! the settings layer: it names no rule, and the scenario reads it.

use crate::schema::{p, Choice, Kind, ParamDef};

/// ssthresh rule on loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SsthreshRule {
    /// max(FlightSize/2, 2·SMSS).
    HalfFlight,
    /// max(min(cwnd, rwnd)/2, 2·SMSS).
    HalfCwnd,
    /// Unchanged: no multiplicative decrease (no congestion avoidance, before 1988).
    None,
    /// CUBIC (RFC 9438 §4.6–4.8): β_cubic times the window, W_max remembered (fast
    /// convergence).
    Cubic,
}
crate::scenario::json::names!(SsthreshRule { HalfFlight = "half_flight", HalfCwnd = "half_cwnd", None = "none", Cubic = "cubic" });

/// When a NewReno partial ACK restarts the RTO timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewRenoTimer {
    /// Only the first partial ACK of an episode ("Impatient").
    FirstPartial,
    /// Every partial ACK ("Slow-but-steady").
    EveryPartial,
}
crate::scenario::json::names!(NewRenoTimer { FirstPartial = "first_partial", EveryPartial = "every_partial" });

/// cwnd on a NewReno full ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewRenoFullAck {
    /// min(ssthresh, max(FlightSize, SMSS) + SMSS).
    MinFlight,
    /// ssthresh.
    Ssthresh,
}
crate::scenario::json::names!(NewRenoFullAck { MinFlight = "min_flight", Ssthresh = "ssthresh" });

/// What a NewReno partial ACK does to the inflated window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartialWindow {
    /// Subtract the acknowledged bytes, add back one SMSS (RFC 6582).
    Deflate,
    /// Fall back to cwnd (ns-2 without partial_window_deflation_).
    Reset,
}
crate::scenario::json::names!(PartialWindow { Deflate = "deflate", Reset = "reset" });

/// ssthresh on a timeout of an already timer-retransmitted segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepeatedRto {
    /// Keep it (RFC 5681 §3.1).
    Hold,
    /// Recompute it (ns-2, BSD).
    HalveAgain,
}
crate::scenario::json::names!(RepeatedRto { Hold = "hold", HalveAgain = "halve_again" });

/// The schema's rows for loss recovery's settings (`schema::params` places them).
pub(crate) fn params() -> Vec<ParamDef> {
    vec![
        p!("flows[].cc.ssthresh_rule", "ssthresh on loss", "cc", "", Kind::Enum { options: &[
            Choice { value: "half_flight", label: "FlightSize / 2", help: help!("ssthresh = max(FlightSize/2, 2·SMSS) (RFC 5681 eq. 4).") },
            Choice { value: "half_cwnd", label: "min(cwnd, rwnd) / 2", help: help!("ssthresh = max(min(cwnd, rwnd)/2, 2·SMSS), as ns-2, BSD and Linux compute it.") },
            Choice { value: "cubic", label: "CUBIC: β_cubic · cwnd", help: help!("RFC 9438 §4.6: ssthresh = max(cwnd·β_cubic, 2·SMSS) (β_cubic = 0.7), W_max = cwnd before the reduction, lowered to cwnd·(1 + β_cubic)/2 by fast convergence when cwnd had not regained the last W_max (§4.7); a timeout does the same and restarts from one segment (§4.8).") },
            Choice { value: "none", label: "Unchanged (no congestion avoidance)", help: help!("A loss leaves ssthresh as it was, so the window never shrinks for congestion (before Jacobson 1988 §3). With ssthresh unset, a sender with slow start climbs back to the receiver's window after every timeout; Reno and NewReno keep their fast recovery but around the window the loss found. BR-TCP and binomial controls have their own decrease and ignore this.") },
        ], default: "half_flight" }, false, None,
            "What ssthresh is set to on a loss."),
        p!("flows[].cc.limited_transmit", "Limited Transmit", "cc", "", Kind::Bool { default: false }, false, None,
            "RFC 3042: send one new segment on each of the first two duplicate ACKs (never Old Tahoe)."),
        p!("flows[].cc.recover_guard", "Recover guard (Tahoe, Reno)", "cc", "", Kind::Bool { default: false }, false, None,
            "ns-2's bug_fix: Tahoe and Reno skip a fast retransmit whose duplicate ACKs do not acknowledge past `recover` (the highest sequence sent at the last loss response). NewReno always applies it (RFC 6582 §3.2 step 2)."),
        p!("flows[].cc.fast_retransmit_restarts_timer", "Fast retransmit restarts RTO", "cc", "", Kind::Bool { default: true }, false, None,
            "Restart the retransmission timer when a fast retransmit is sent (ns-2, BSD). Off: the running timer keeps going (a literal RFC 6298 reading)."),
        p!("flows[].cc.newreno_timer", "NewReno timer on partial ACK", "cc", "", Kind::Enum { options: &[
            Choice { value: "first_partial", label: "First partial ACK only", help: help!("'Impatient': restart the timer only on the first partial ACK of a recovery episode.") },
            Choice { value: "every_partial", label: "Every partial ACK", help: help!("'Slow-but-steady': restart the timer on every partial ACK.") },
        ], default: "first_partial" }, false, None,
            "RFC 6582 §4: when a partial ACK restarts the retransmission timer."),
        p!("flows[].cc.newreno_full_ack", "NewReno exit window", "cc", "", Kind::Enum { options: &[
            Choice { value: "min_flight", label: "min(ssthresh, FlightSize + SMSS)", help: help!("RFC 6582 §3.2 step 3 option 1: cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS).") },
            Choice { value: "ssthresh", label: "ssthresh", help: help!("RFC 6582 §3.2 step 3 option 2: cwnd = ssthresh.") },
        ], default: "min_flight" }, false, None,
            "cwnd when a full ACK ends NewReno fast recovery."),
        p!("flows[].cc.newreno_partial_window", "NewReno partial-ACK window", "cc", "", Kind::Enum { options: &[
            Choice { value: "deflate", label: "Deflate by acked", help: help!("RFC 6582 §3.2 step 3: take the newly acknowledged bytes off the inflated window, add back one SMSS if at least one SMSS was acknowledged.") },
            Choice { value: "reset", label: "Reset to cwnd", help: help!("ns-2 without partial_window_deflation_: the inflated window falls back to cwnd and grows again with each duplicate ACK.") },
        ], default: "deflate" }, false, None,
            "What a partial ACK does to the inflated window."),
        p!("flows[].cc.repeated_rto_ssthresh", "ssthresh on repeated timeouts", "cc", "", Kind::Enum { options: &[
            Choice { value: "hold", label: "Hold", help: help!("RFC 5681 §3.1: if the timed-out segment was already resent by the timer and nothing new was acknowledged since, keep ssthresh.") },
            Choice { value: "halve_again", label: "Recompute", help: help!("Recompute ssthresh on every timeout (ns-2, 4.4BSD).") },
        ], default: "hold" }, false, None,
            "Whether back-to-back timeouts keep lowering ssthresh."),
    ]
}
