//! Named scenarios that reproduce the source documents' experiments. Each preset is a
//! partial scenario merged over the defaults, so it states only what differs.

use crate::scenario::{Problem, Scenario};
use serde_json::{json, Value};

/// A named scenario.
#[derive(Clone, Debug)]
pub struct Preset {
    /// Name used on the command line and in URLs.
    pub name: String,
    /// One line on what it shows.
    pub description: String,
    /// The partial scenario.
    pub overrides: Value,
}

impl Preset {
    /// The complete scenario.
    pub fn scenario(&self) -> Result<Scenario, Vec<Problem>> {
        Scenario::from_value(&self.overrides)
    }
}

const VARIANTS: [(&str, &str, &str); 4] = [
    ("old-tahoe", "old_tahoe", "Old Tahoe"),
    ("tahoe", "tahoe", "Tahoe"),
    ("reno", "reno", "Reno"),
    ("newreno", "newreno", "NewReno"),
];

/// The NetSim lab (source 001): sender – router – router – receiver, all links 10 Mbit/s,
/// 0.1 ms access delays, a 50 ms backbone with BER 1e-7 on the data direction, a CBR
/// source of 1460-byte packets every 1168 µs, 20 s.
///
/// Buffer sizes are our choice (the lab does not state them): every queue holds 1000
/// packets, so that every loss is a bit error, as the lab intends (it studies TCP over a
/// lossy link, and its figures show only loss responses). With all links at 10 Mbit/s the
/// queue that grows is the sender's own access link; only the first slow start, before the
/// first bit error, fills it (to about 530 packets with seed 1). With a 100-packet buffer
/// that slow start would instead end in a burst of queue drops. The receive window keeps
/// its default (1 MiB), so the window is limited by congestion control, not by the
/// receiver; the initial window is 1 segment, as in the Tahoe-era stacks the lab compares.
fn netsim(variant: &str) -> Value {
    json!({
        "duration": 20.0,
        "seed": 1,
        "network": {"bottleneck": {
            "bandwidth": 10_000_000u64, "delay": 0.05, "queue_packets": 1000,
            "loss": {"model": "ber", "ber": 1e-7},
            "reverse_loss": {"model": "none"}
        }},
        "flows": [{
            "variant": variant,
            "access": {"bandwidth": 10_000_000u64, "delay": 0.0001, "queue_packets": 1000},
            "receiver_access": {"bandwidth": 10_000_000u64, "delay": 0.0001, "queue_packets": 1000},
            "tcp": {"mss": 1460, "header": 40, "initial_window": 1},
            "app": {"kind": "cbr", "write_size": 1460, "write_interval": 0.001168}
        }]
    })
}

/// Fall & Floyd 1996 as in ns-2's test-suite-tcpVariants: 8 Mb/s 0 ms access link,
/// 800 kb/s 100 ms bottleneck with a queue limit of 8 (7 waiting + 1 in service), receiver
/// window 28 packets of 1000 B (+40 B header), 40 B ACKs, no delayed ACK, SYN at 1.0 s,
/// initial window 2, ssthresh = rwnd, min RTO 1 s, initial RTO 6 s, 10 ms tick, ns-2's
/// ssthresh and window arithmetic in packets, the recover guard on, NewReno restarting the
/// timer on every partial ACK without partial-window deflation.
fn fall_floyd(variant: &str, drops: &[u64]) -> Value {
    let drops: Vec<Value> = drops.iter().map(|&s| json!({"segment": s, "attempt": 1})).collect();
    json!({
        "duration": 10.0,
        "seed": 1,
        "network": {"bottleneck": {"bandwidth": 800_000u64, "delay": 0.1, "queue_packets": 8}},
        "flows": [{
            "variant": variant,
            "start": 1.0,
            "access": {"bandwidth": 8_000_000u64, "delay": 0.0, "queue_packets": 1000},
            "receiver_access": {"bandwidth": 100_000_000_000u64, "delay": 0.0, "queue_packets": 1000},
            "tcp": {"mss": 1000, "header": 40, "rwnd": 28_000, "initial_window": 2,
                    "initial_ssthresh": 28_000, "syn": true, "nagle": false},
            "cc": {"units": "segments", "slow_start": "ack_counting", "congestion_avoidance": "per_ack",
                   "ssthresh_rule": "half_cwnd", "limited_transmit": false, "recover_guard": true,
                   "fast_retransmit_restarts_timer": true, "newreno_timer": "every_partial",
                   "newreno_full_ack": "ssthresh", "newreno_partial_window": "reset",
                   "repeated_rto_ssthresh": "halve_again"},
            "rto": {"estimator": "jacobson88", "clock_tick": 0.01, "initial": 6.0, "min": 1.0, "max": 64.0},
            "receiver": {"delayed_ack": false},
            "app": {"kind": "bulk"},
            "drops": drops
        }]
    })
}

const FF_DROPS: [&[u64]; 4] = [&[14], &[14, 28], &[14, 26, 28], &[14, 24, 26, 28]];

/// Every preset, in menu order.
pub fn all() -> Vec<Preset> {
    let mut out = Vec::new();
    for (slug, v, label) in VARIANTS {
        out.push(Preset {
            name: format!("netsim-{slug}"),
            description: format!(
                "NetSim lab: {label} over a 10 Mbit/s, 100 ms path with BER 1e-7 on the data direction, CBR 1460 B every 1168 µs, 20 s"
            ),
            overrides: netsim(v),
        });
    }
    for (slug, v, label) in VARIANTS {
        for (n, drops) in FF_DROPS.iter().enumerate() {
            let list: Vec<String> = drops.iter().map(u64::to_string).collect();
            out.push(Preset {
                name: format!("fall-floyd-{slug}-{}drops", n + 1),
                description: format!(
                    "Fall & Floyd 1996: {label}, 800 kb/s 100 ms bottleneck, 8-packet queue, packets {} dropped from one window",
                    list.join(", ")
                ),
                overrides: fall_floyd(v, drops),
            });
        }
    }
    out
}

/// Looks a preset up by name.
pub fn find(name: &str) -> Option<Preset> {
    all().into_iter().find(|p| p.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_a_valid_scenario() {
        let all = all();
        assert_eq!(all.len(), 20);
        for p in all {
            if let Err(e) = p.scenario() {
                panic!("{}: {e:?}", p.name);
            }
        }
    }
}
