//! The step-marking queue's threshold (`network.bottleneck.step.k`) and its schema row.
//! Part of the settings layer.

use crate::schema::{p, Kind, ParamDef};

/// The step queue's settings (`network.bottleneck.step`), shared by both directions.
#[derive(Clone, Debug, PartialEq)]
pub struct StepCfg {
    /// Mark an ECN-capable arrival CE when more than this many packets are queued.
    pub k: u64,
}
crate::scenario::json::json_struct!(StepCfg: k);

impl Default for StepCfg {
    fn default() -> StepCfg {
        StepCfg { k: 20 }
    }
}

/// The schema's rows for the step queue (`schema::params` places them).
pub(crate) fn params() -> Vec<ParamDef> {
    vec![p!("network.bottleneck.step.k", "Step marking threshold K", "network", "packets", Kind::Int { min: 0, max: 1_000_000, default: 20 }, false, None,
        "The step queue marks an ECN-capable arrival CE when it finds more than K packets queued (waiting plus in service), as DCTCP's switches do (RFC 8257 §3.1; Alizadeh et al. 2010 §3.4 give K > C·RTT/7 for full throughput); other arrivals see drop-tail.")]
}
