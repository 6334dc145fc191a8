//! Binomial control's settings (`cc.binomial`, `cc.binomial_k`, `cc.binomial_l`,
//! `cc.binomial_alpha`, `cc.binomial_beta`: a switch and four numbers, typed fields of
//! `CcCfg`). Part of the settings layer: it names no rule, and the scenario reads it.

use crate::schema::{p, Kind, ParamDef};

/// The schema's rows for binomial control's settings (`schema::params` places them).
pub(crate) fn params() -> Vec<ParamDef> {
    vec![
        p!("flows[].cc.binomial", "Binomial control", "cc", "", Kind::Bool { default: false }, false, None,
            "Bansal & Balakrishnan's binomial congestion control (source 004 §3.2): outside slow start cwnd grows by α/w^k packets per RTT and a loss takes it down by β·w^l packets (w = cwnd in packets), replacing the congestion-avoidance and ssthresh rules. k + l = 1 is TCP-compatible: AIMD (0, 1), IIAD (1, 0), SQRT (½, ½)."),
        p!("flows[].cc.binomial_k", "Binomial k", "cc", "1", Kind::Float { min: -1.0, max: 2.0, default: 0.0, log: false }, false, None,
            "Increase exponent: α/w^k packets per RTT. A whole or half number (k = 0 is additive increase)."),
        p!("flows[].cc.binomial_l", "Binomial l", "cc", "1", Kind::Float { min: 0.0, max: 1.0, default: 1.0, log: false }, false, None,
            "Decrease exponent: β·w^l packets on a loss. A whole or half number (l = 1 is multiplicative decrease)."),
        p!("flows[].cc.binomial_alpha", "Binomial α", "cc", "packets", Kind::Float { min: 0.01, max: 10.0, default: 1.0, log: false }, false, None,
            "Increase factor α (> 0)."),
        p!("flows[].cc.binomial_beta", "Binomial β", "cc", "1", Kind::Float { min: 0.01, max: 0.99, default: 0.5, log: false }, false, None,
            "Decrease factor β (0 < β < 1)."),
    ]
}
