//! Window validation's settings (`cc.idle_policy`, `cc.nvp_limit`). Part of the settings
//! layer: it names no rule, and the scenario reads it.

use crate::schema::{p, Choice, Kind, ParamDef};

/// What happens to cwnd while the sender is idle or application-limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdlePolicy {
    /// cwnd survives any idle period.
    None,
    /// RFC 5681 §4.1: after more than an RTO without sending, cwnd = min(cwnd, IW).
    Restart,
    /// RFC 2861 (Handley, Padhye, Floyd 1999): decay per RTO idle or application-limited.
    Rfc2861,
    /// RFC 7661 (new CWV): keep cwnd while rate-limited, for up to a time limit.
    Rfc7661,
}
crate::scenario::json::names!(IdlePolicy { None = "none", Restart = "restart", Rfc2861 = "rfc2861", Rfc7661 = "rfc7661" });

/// The schema's rows for window validation's settings (`schema::params` places them).
pub(crate) fn params() -> [ParamDef; 2] {
    [
        p!("flows[].cc.idle_policy", "Idle / application-limited policy", "cc", "", Kind::Enum { options: &[
            Choice { value: "none", label: "None", help: help!("cwnd survives any idle or application-limited period.") },
            Choice { value: "restart", label: "Restart after idle", help: help!("RFC 5681 §4.1 (Jacobson 1988 app. C): after more than an RTO without sending data, cwnd = min(cwnd, IW) before the next send; ssthresh unchanged.") },
            Choice { value: "rfc2861", label: "CWV (RFC 2861)", help: help!("After each send: per RTO idle, ssthresh = max(ssthresh, ¾·cwnd) and cwnd halves (at least 1 segment); per RTO application-limited, cwnd = (min(cwnd, rwnd) + W_used)/2.") },
            Choice { value: "rfc7661", label: "New CWV (RFC 7661)", help: help!("Keeps cwnd while the sender uses less than half of it (the non-validated phase, measured by pipeACK) for up to nvp_limit; no growth in that phase; a loss in it reduces cwnd from the rate used.") },
        ], default: "none" }, false, None,
            "What happens to cwnd when the sender is idle or sends less than cwnd allows. Time is the TCP clock (rto.clock_tick); the period is the current RTO."),
        p!("flows[].cc.nvp_limit", "New CWV time limit", "cc", "s", Kind::Float { min: 0.1, max: 3600.0, default: 300.0, log: true }, false, None,
            "RFC 7661 §4.4.3: after this long in the non-validated phase, ssthresh = max(ssthresh, ¾·cwnd) and cwnd = max(cwnd/2, IW), repeated each period (the RFC's 5 minutes; shorter to show it in class)."),
    ]
}
