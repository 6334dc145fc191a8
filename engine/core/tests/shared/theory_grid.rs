//! The theory grid's path (docs/validation.md §3h), defined once for the table that
//! examples/validate.rs writes and the check in tests/sources_qualitative.rs: one NewReno
//! flow, Bernoulli loss p on the data direction, every link 1 Gbit/s (no queueing: the
//! receiver window, 1 000 segments, is below the smallest BDP), bottleneck delay
//! RTT/2 − 2 ms (1 ms access links), no delayed ACKs, RTO minimum 1 s (the preset's). The
//! duration gives about 200 losses at Mathis's rate (at least 30 s).

/// The preset the grid's scenarios start from.
pub const GRID_PRESET: &str = "bbr-random-loss";

/// The settings over [`GRID_PRESET`] for round trip `rtt_ms`, loss rate `p` and `seed`.
pub fn grid_settings(rtt_ms: f64, p: f64, seed: u64) -> Vec<(&'static str, String)> {
    let rate_pkts = 1.22 / p.sqrt() / (rtt_ms / 1e3);
    let duration = (200.0 / (p * rate_pkts)).max(30.0).round();
    vec![
        ("flows[0].algorithm", "newreno".into()),
        ("network.bottleneck.bandwidth", "1000000000".into()),
        ("network.bottleneck.queue_packets", "1000".into()),
        ("network.bottleneck.delay", format!("{}", (rtt_ms / 2.0 - 2.0) / 1e3)),
        ("network.bottleneck.loss.probability", format!("{p}")),
        ("flows[0].access.bandwidth", "1000000000".into()),
        ("flows[0].receiver_access.bandwidth", "1000000000".into()),
        ("flows[0].tcp.rwnd", "1460000".into()),
        ("flows[0].receiver.delayed_ack", "false".into()),
        ("duration", format!("{duration}")),
        ("seed", seed.to_string()),
    ]
}
