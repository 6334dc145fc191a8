//! FQ-CoDel's parameters (`network.bottleneck.fq_codel.*`) and their schema rows; defaults
//! from RFC 8290 §4–5 and Linux's net/sched/sch_fq_codel.c (fq_codel_init: 1 024 queues, a
//! 10 240-packet limit, a quantum and CoDel MTU of the device's MTU plus its link header,
//! 1 514 B on Ethernet, batches of 64 overflow drops; CoDel's 5 ms and 100 ms). Part of the
//! settings layer.

use crate::schema::{p, Display, Kind, ParamDef};

const MS: Option<Display> = Some(Display {
    unit: "ms",
    factor: 1e3,
});

/// FQ-CoDel's settings (`network.bottleneck.fq_codel`), shared by both directions.
#[derive(Clone, Debug, PartialEq)]
pub struct FqCodelCfg {
    /// Number of queues the flows are hashed into.
    pub flows: u64,
    /// Bytes a queue may send per round of the deficit round robin.
    pub quantum: u64,
    /// Packets all queues together may hold before the fattest is cut.
    pub limit: u64,
    /// Most packets one overflow drops from the fattest queue.
    pub drop_batch_size: u64,
    /// Each queue's CoDel target, s.
    pub target: f64,
    /// Each queue's CoDel interval, s.
    pub interval: f64,
    /// Bytes that may wait without counting as a standing queue.
    pub mtu: u64,
}
crate::scenario::json::json_struct!(FqCodelCfg: flows, quantum, limit, drop_batch_size, target, interval, mtu);

impl Default for FqCodelCfg {
    fn default() -> FqCodelCfg {
        FqCodelCfg {
            flows: 1024,
            quantum: 1514,
            limit: 10_240,
            drop_batch_size: 64,
            target: 0.005,
            interval: 0.1,
            mtu: 1514,
        }
    }
}

/// The schema's rows for FQ-CoDel (`schema::params` places them).
pub(crate) fn params() -> Vec<ParamDef> {
    vec![
        p!("network.bottleneck.fq_codel.flows", "FQ-CoDel queues", "network", "", Kind::Int { min: 1, max: 65_536, default: 1024 }, false, None,
            "Number of queues the flows are hashed into (RFC 8290 §5.1, Linux: 1 024). Two flows that hash to the same queue share it."),
        p!("network.bottleneck.fq_codel.quantum", "FQ-CoDel quantum", "network", "B", Kind::Int { min: 1, max: 1_000_000, default: 1514 }, false, None,
            "Bytes a queue may send before its turn passes, in the deficit round robin (RFC 8290 §4.2; Linux: the device MTU plus the link header, 1 514 B)."),
        p!("network.bottleneck.fq_codel.limit", "FQ-CoDel limit", "network", "packets", Kind::Int { min: 1, max: 1_000_000, default: 10_240 }, false, None,
            "Packets all queues together may hold (Linux: 10 240). Beyond it, or beyond the buffer's queue_packets and queue_bytes, packets are dropped from the head of the queue with the largest backlog instead of the arrival."),
        p!("network.bottleneck.fq_codel.drop_batch_size", "FQ-CoDel drop batch", "network", "packets", Kind::Int { min: 1, max: 1_000_000, default: 64 }, false, None,
            "On overflow, packets are dropped from the head of the fattest queue until half its bytes are gone or this many are dropped (Linux: 64); 1 drops a single packet as RFC 8290 §4.1 describes."),
        p!("network.bottleneck.fq_codel.target", "FQ-CoDel target", "network", "s", Kind::Float { min: 0.000_001, max: 10.0, default: 0.005, log: true }, false, MS,
            "Each queue's CoDel target (RFC 8290 §5.2: 5 ms)."),
        p!("network.bottleneck.fq_codel.interval", "FQ-CoDel interval", "network", "s", Kind::Float { min: 0.000_01, max: 100.0, default: 0.1, log: true }, false, MS,
            "Each queue's CoDel interval (RFC 8290 §5.2: 100 ms)."),
        p!("network.bottleneck.fq_codel.mtu", "FQ-CoDel MTU", "network", "B", Kind::Int { min: 1, max: 1_000_000, default: 1514 }, false, None,
            "CoDel's MAXPACKET: a queue whose departing packet leaves no more than this many bytes waiting in the whole discipline is never above target (Linux compares the whole qdisc's backlog)."),
    ]
}
