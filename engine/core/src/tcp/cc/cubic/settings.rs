//! CUBIC's settings of choice (`cc.cubic_ssthresh_from`, `cc.cubic_rtt`, `cc.cubic_growth`;
//! C, β and the two switches are plain numbers and flags in `CcCfg`). Part of the settings
//! layer: it names no rule, and the scenario reads it.

use crate::schema::{p, Choice, Kind, ParamDef};

/// What CUBIC multiplies by β_cubic on a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CubicSsthreshFrom {
    /// The flight size (RFC 9438 §4.6).
    Flight,
    /// cwnd (Linux's tcp_cubic.c and ns-3).
    Cwnd,
}
crate::scenario::json::names!(CubicSsthreshFrom { Flight = "flight", Cwnd = "cwnd" });

/// How CUBIC's increase combines the cubic and the Reno-friendly W_est.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CubicGrowth {
    /// RFC 9438 §4.2–4.3: in the Reno-friendly region (W_cubic(t) < W_est) cwnd = W_est,
    /// else the step toward the cubic's target.
    Rfc,
    /// Linux's tcp_cubic.c: the larger of the two steps (the smaller of its two ACK
    /// counters), and at least 5 % growth per RTT while no W_max is known.
    Linux,
}
crate::scenario::json::names!(CubicGrowth { Rfc = "rfc", Linux = "linux" });

/// How far ahead CUBIC's target reads the cubic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CubicRtt {
    /// One smoothed RTT (RFC 9438 §4.2).
    Srtt,
    /// One minimum RTT (Linux's delay_min, ns-3).
    MinRtt,
}
crate::scenario::json::names!(CubicRtt { Srtt = "srtt", MinRtt = "min_rtt" });

/// The schema's rows for CUBIC's settings (`schema::params` places them).
pub(crate) fn params() -> Vec<ParamDef> {
    vec![
        p!("flows[].cc.cubic_c", "CUBIC C", "cc", "segments/s³", Kind::Float { min: 0.01, max: 10.0, default: 0.4, log: true }, false, None,
            "CUBIC's aggressiveness: W_cubic(t) = C·(t − K)³ + W_max, windows in segments (RFC 9438 §4.2: 0.4). Used to three decimals."),
        p!("flows[].cc.cubic_beta", "CUBIC β", "cc", "1", Kind::Float { min: 0.5, max: 0.95, default: 0.7, log: false }, false, None,
            "CUBIC's multiplicative decrease factor β_cubic (RFC 9438 §4.6: 0.7; Linux 717/1024 ≈ 0.7002). Used to three decimals."),
        p!("flows[].cc.cubic_fast_convergence", "CUBIC fast convergence", "cc", "", Kind::Bool { default: true }, false, None,
            "RFC 9438 §4.7: a loss before the window has regained the last W_max sets W_max = cwnd·(1 + β_cubic)/2, giving room to a newer flow sooner."),
        p!("flows[].cc.cubic_ssthresh_from", "CUBIC decrease from", "cc", "", Kind::Enum { options: &[
            Choice { value: "flight", label: "FlightSize (RFC)", help: help!("RFC 9438 §4.6: ssthresh = max(FlightSize·β_cubic, 2·SMSS).") },
            Choice { value: "cwnd", label: "cwnd (Linux, ns-3)", help: help!("Linux's tcp_cubic.c (cubictcp_recalc_ssthresh) and ns-3's TcpCubic: ssthresh = max(cwnd·β_cubic, 2 segments).") },
        ], default: "flight" }, false, None,
            "What CUBIC's multiplicative decrease multiplies by β_cubic."),
        p!("flows[].cc.cubic_rtt", "CUBIC look-ahead", "cc", "", Kind::Enum { options: &[
            Choice { value: "srtt", label: "One SRTT (RFC)", help: help!("RFC 9438 §4.2: the target is W_cubic(t + RTT) with RTT the smoothed round-trip time.") },
            Choice { value: "min_rtt", label: "One minimum RTT (Linux, ns-3)", help: help!("Linux (bictcp_update: t + delay_min) and ns-3: the target is the cubic one minimum RTT ahead.") },
        ], default: "srtt" }, false, None,
            "How far ahead of now CUBIC reads its cubic for the target window."),
        p!("flows[].cc.cubic_growth", "CUBIC growth", "cc", "", Kind::Enum { options: &[
            Choice { value: "rfc", label: "RFC 9438", help: help!("§4.2–4.3: in the Reno-friendly region (W_cubic(t) < W_est) cwnd = W_est; otherwise cwnd steps toward the cubic's target.") },
            Choice { value: "linux", label: "Linux", help: help!("tcp_cubic.c: each ACK takes the larger of the cubic's step and the step toward W_est (the smaller of its two ACK counters), and while no W_max is known (no loss yet, or after a timeout) at least one segment per 20 acknowledged, about 5 % per RTT, however flat the cubic (ns-3: CntClamp = 20). Not in RFC 9438.") },
        ], default: "rfc" }, false, None,
            "How CUBIC's increase combines the cubic and the Reno-friendly window."),
        p!("flows[].cc.cubic_reno_friendly", "CUBIC Reno-friendly region", "cc", "", Kind::Bool { default: true }, false, None,
            "RFC 9438 §4.3: track W_est, the window AIMD with α_cubic = 3(1 − β)/(1 + β) would have, and never let cwnd fall behind it (Linux: tcp_friendliness)."),
    ]
}
