//! PIE's parameters (`network.bottleneck.pie.*`) and their schema rows; defaults from RFC
//! 8033 §4–5 and Linux's include/net/pie.h (pie_params_init, pie_vars_init): target 15 ms,
//! tupdate 15 ms, α 0.125 and β 1.25 per second (Linux's 2/16 and 20/16), a 150 ms burst
//! allowance. Part of the settings layer.

use crate::schema::{p, Display, Kind, ParamDef};

const MS: Option<Display> = Some(Display {
    unit: "ms",
    factor: 1e3,
});

/// PIE's settings (`network.bottleneck.pie`), shared by both directions.
#[derive(Clone, Debug, PartialEq)]
pub struct PieCfg {
    /// Target queueing delay, s.
    pub target: f64,
    /// Time between updates of the drop probability, s.
    pub tupdate: f64,
    /// Weight of the delay's distance from target, per second.
    pub alpha: f64,
    /// Weight of the delay's change since the last update, per second.
    pub beta: f64,
    /// Burst allowance, s.
    pub max_burst: f64,
    /// Bytes: fewer than 2 × this waiting disables early drops.
    pub mtu: u64,
}
crate::scenario::json::json_struct!(PieCfg: target, tupdate, alpha, beta, max_burst, mtu);

impl Default for PieCfg {
    fn default() -> PieCfg {
        PieCfg {
            target: 0.015,
            tupdate: 0.015,
            alpha: 0.125,
            beta: 1.25,
            max_burst: 0.15,
            mtu: 1500,
        }
    }
}

/// The schema's rows for PIE (`schema::params` places them).
pub(crate) fn params() -> Vec<ParamDef> {
    vec![
        p!("network.bottleneck.pie.target", "PIE target", "network", "s", Kind::Float { min: 0.000_001, max: 10.0, default: 0.015, log: true }, false, MS,
            "Queueing delay the drop probability steers towards (RFC 8033 §4.2 QDELAY_REF: 15 ms)."),
        p!("network.bottleneck.pie.tupdate", "PIE update interval", "network", "s", Kind::Float { min: 0.001, max: 10.0, default: 0.015, log: true }, false, MS,
            "Time between updates of the drop probability (RFC 8033 §4.2 T_UPDATE: 15 ms)."),
        p!("network.bottleneck.pie.alpha", "PIE α", "network", "1/s", Kind::Float { min: 0.0, max: 100.0, default: 0.125, log: false }, false, None,
            "Weight of the delay's distance from target: p += α·(qdelay − target)·… per update (RFC 8033 §4.2: 0.125), scaled down while p is small (§4.2's table)."),
        p!("network.bottleneck.pie.beta", "PIE β", "network", "1/s", Kind::Float { min: 0.0, max: 100.0, default: 1.25, log: false }, false, None,
            "Weight of the delay's change since the last update: … + β·(qdelay − qdelay_old) (RFC 8033 §4.2: 1.25), scaled as α."),
        p!("network.bottleneck.pie.max_burst", "PIE burst allowance", "network", "s", Kind::Float { min: 0.0, max: 100.0, default: 0.15, log: false }, false, MS,
            "No early drop until this much time has passed in updates since the queue last settled (RFC 8033 §4.4 MAX_BURST: 150 ms)."),
        p!("network.bottleneck.pie.mtu", "PIE MTU", "network", "B", Kind::Int { min: 1, max: 1_000_000, default: 1500 }, false, None,
            "With fewer than twice this many bytes waiting no arrival is dropped early (RFC 8033 §5.1's safeguard; Linux: the device MTU)."),
    ]
}
