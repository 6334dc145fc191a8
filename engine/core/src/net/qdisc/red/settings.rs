//! RED's parameters (`network.bottleneck.red.*`), their schema rows and their checks.
//! Defaults from Floyd & Jacobson 1993 (§4's simulations and §11's guidelines); ns-2.35's
//! `ns-default.tcl` differs (see docs/algorithms.md). Part of the settings layer.

use crate::schema::{p, Kind, ParamDef};

/// RED's settings (`network.bottleneck.red`), shared by both directions.
#[derive(Clone, Debug, PartialEq)]
pub struct RedCfg {
    /// Minimum threshold of the average queue, packets (bytes mode: times packet_size).
    pub min_th: f64,
    /// Maximum threshold of the average queue, packets (bytes mode: times packet_size).
    pub max_th: f64,
    /// Drop probability at the maximum threshold.
    pub max_p: f64,
    /// Weight of the newest sample in the average queue.
    pub w_q: f64,
    /// Between max_th and 2·max_th the probability rises from max_p to 1 instead of 1 at once.
    pub gentle: bool,
    /// Byte mode: the queue and thresholds in bytes, each packet's probability scaled by its
    /// size over packet_size.
    pub bytes: bool,
    /// The reference packet size, bytes: the idle correction's packets per second, the
    /// thresholds in bytes mode and the scale of byte mode's probability.
    pub packet_size: u64,
}
crate::scenario::json::json_struct!(RedCfg: min_th, max_th, max_p, w_q, gentle, bytes, packet_size);

impl Default for RedCfg {
    fn default() -> RedCfg {
        RedCfg {
            min_th: 5.0,
            max_th: 15.0,
            max_p: 0.02,
            w_q: 0.002,
            gentle: false,
            bytes: false,
            packet_size: 500,
        }
    }
}

/// RED's settings that cannot work together.
pub fn clashes(r: &RedCfg) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if r.min_th >= r.max_th {
        out.push((
            "network.bottleneck.red.min_th",
            format!(
                "= {} is not below red.max_th = {}: the drop probability rises between the two thresholds, so min_th < max_th",
                r.min_th, r.max_th
            ),
        ));
    }
    out
}

/// The schema's rows for RED (`schema::params` places them).
pub(crate) fn params() -> Vec<ParamDef> {
    vec![
        p!("network.bottleneck.red.min_th", "RED min_th", "network", "packets", Kind::Float { min: 0.0, max: 1_000_000.0, default: 5.0, log: false }, false, None,
            "Below this average queue RED never drops early (Floyd & Jacobson 1993 §4: 5 packets). In bytes mode, times red.packet_size."),
        p!("network.bottleneck.red.max_th", "RED max_th", "network", "packets", Kind::Float { min: 0.001, max: 1_000_000.0, default: 15.0, log: false }, false, None,
            "At or above this average queue RED drops every arrival (gentle: from max_p up to 1 at twice it). Floyd & Jacobson 1993 §4: 15 packets; §11 advises at least twice min_th."),
        p!("network.bottleneck.red.max_p", "RED max_p", "network", "", Kind::Float { min: 0.0, max: 1.0, default: 0.02, log: false }, false, None,
            "Drop probability as the average reaches max_th (p_b = max_p·(avg − min_th)/(max_th − min_th)); Floyd & Jacobson 1993 §4: 1/50. ns-2's linterm_ is 1/max_p (10 by default)."),
        p!("network.bottleneck.red.w_q", "RED w_q", "network", "", Kind::Float { min: 0.000_001, max: 1.0, default: 0.002, log: true }, false, None,
            "Weight of each arrival's queue sample in the average: avg ← (1 − w_q)·avg + w_q·q (Floyd & Jacobson 1993 §4: 0.002)."),
        p!("network.bottleneck.red.gentle", "RED gentle", "network", "", Kind::Bool { default: false }, false, None,
            "Gentle RED (Floyd 2000; ns-2's default): between max_th and 2·max_th the probability rises linearly from max_p to 1, and only above 2·max_th is every arrival dropped."),
        p!("network.bottleneck.red.bytes", "RED byte mode", "network", "", Kind::Bool { default: false }, false, None,
            "Byte mode (Floyd & Jacobson 1993 §4): the queue and the thresholds are counted in bytes (thresholds × packet_size), and each packet's p_b is scaled by its size / packet_size, so small packets are dropped less often."),
        p!("network.bottleneck.red.packet_size", "RED packet size", "network", "B", Kind::Int { min: 1, max: 65_535, default: 500 }, false, None,
            "Reference packet size (ns-2's mean_pktsize_, 500 B): after an idle period the average decays as if link rate / this many packets per second had arrived to an empty queue; it scales the thresholds and the probability in byte mode."),
    ]
}
