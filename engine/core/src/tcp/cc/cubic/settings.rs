//! CUBIC's settings of choice (`cc.cubic_ssthresh_from`, `cc.cubic_rtt`, `cc.cubic_growth`;
//! C, β and the two switches are plain numbers and flags in `CcCfg`). Part of the settings
//! layer: it names no rule, and the scenario reads it.

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
