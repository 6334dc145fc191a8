//! CoDel's parameters (`network.bottleneck.codel.*`) and their schema rows; defaults from
//! RFC 8289 §4.2–4.4 (target 5 ms, interval 100 ms). Part of the settings layer.

use crate::schema::{p, Display, Kind, ParamDef};

const MS: Option<Display> = Some(Display {
    unit: "ms",
    factor: 1e3,
});

/// CoDel's settings (`network.bottleneck.codel`), shared by both directions.
#[derive(Clone, Debug, PartialEq)]
pub struct CodelCfg {
    /// Acceptable standing queue delay, s.
    pub target: f64,
    /// How long the delay must stay above target before a drop, and the control law's
    /// base, s.
    pub interval: f64,
    /// Bytes that may wait without counting as a standing queue (RFC 8289's MAXPACKET).
    pub mtu: u64,
}
crate::scenario::json::json_struct!(CodelCfg: target, interval, mtu);

impl Default for CodelCfg {
    fn default() -> CodelCfg {
        CodelCfg {
            target: 0.005,
            interval: 0.1,
            mtu: 1500,
        }
    }
}

/// The schema's rows for CoDel (`schema::params` places them).
pub(crate) fn params() -> Vec<ParamDef> {
    vec![
        p!("network.bottleneck.codel.target", "CoDel target", "network", "s", Kind::Float { min: 0.000_001, max: 10.0, default: 0.005, log: true }, false, MS,
            "Acceptable standing queue delay (RFC 8289 §4.3: 5 ms): a packet that waited less than this, as it leaves, ends the dropping state."),
        p!("network.bottleneck.codel.interval", "CoDel interval", "network", "s", Kind::Float { min: 0.000_01, max: 100.0, default: 0.1, log: true }, false, MS,
            "How long the queue delay must stay above target before the first drop, and the base of the control law: the next drop comes interval/√count after the last (RFC 8289 §4.4: 100 ms, a worst-case RTT)."),
        p!("network.bottleneck.codel.mtu", "CoDel MTU", "network", "B", Kind::Int { min: 1, max: 1_000_000, default: 1500 }, false, None,
            "A queue holding no more than this many bytes after the departing packet is never above target (RFC 8289 §5.2's MAXPACKET; Linux uses the device's MTU plus its link header, 1514 B on Ethernet)."),
    ]
}
