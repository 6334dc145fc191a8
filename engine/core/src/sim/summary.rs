//! The run's metrics, read from the endpoints and the world (`Simulation::summary`).

use super::Simulation;
use crate::summary::{FlowSummary, Summary};
use crate::time::{ns_to_secs, secs_to_ns};

impl Simulation {
    /// Metrics so far (at the end of the run, the final summary).
    pub fn summary(&self) -> Summary {
        let now = self.world.now;
        let flows: Vec<FlowSummary> = (0..self.flows.len())
            .map(|i| {
                let s = &self.flows[i].sender;
                let r = &self.flows[i].receiver;
                let f = &self.scenario.flows[i];
                let active = ns_to_secs(now.saturating_sub(self.starts[i]));
                let rate = |bytes: u64| if active > 0.0 { bytes as f64 * 8.0 / active } else { 0.0 };
                let (mean_cwnd, cv) = self.flows[i].series.cwnd_stats(now);
                let log = s.writes.as_ref();
                let pct = |h: Option<&crate::thin::Histogram>, p: f64| h.and_then(|h| h.percentile(p)).map(ns_to_secs);
                let (itt, soj, lat) = (log.map(|l| &l.itt), log.map(|l| &l.sojourn), log.map(|l| &l.latency));
                FlowSummary {
                    flow: i as u32,
                    algorithm: f.algorithm.clone(),
                    variant: f.variant.name().to_string(),
                    goodput_bps: rate(r.delivered),
                    transfer_goodput_bps: {
                        let end = self.flows[i].completion.unwrap_or(now);
                        let t = ns_to_secs(end.saturating_sub(self.starts[i]));
                        if t > 0.0 {
                            r.delivered as f64 * 8.0 / t
                        } else {
                            0.0
                        }
                    },
                    throughput_bps: rate(s.stats.wire_bytes),
                    delivered_bytes: r.delivered,
                    data_packets_sent: s.stats.data_packets,
                    retransmits: s.stats.retransmits,
                    spurious_retransmits: self.world.spurious[i].count,
                    retransmit_fraction: if s.stats.data_packets > 0 {
                        s.stats.retransmits as f64 / s.stats.data_packets as f64
                    } else {
                        0.0
                    },
                    timeouts: s.stats.timeouts,
                    fast_retransmits: s.stats.fast_retransmits,
                    partial_acks: s.stats.partial_acks,
                    dupacks: s.stats.dupacks,
                    acks_sent: r.acks_sent,
                    mean_cwnd_bytes: mean_cwnd,
                    mean_cwnd_segments: mean_cwnd / f.tcp.mss as f64,
                    cwnd_cv: cv,
                    final_cwnd_bytes: s.cc.cwnd(),
                    final_ssthresh_bytes: (s.cc.ssthresh() != u64::MAX).then_some(s.cc.ssthresh()),
                    srtt_s: ns_to_secs(s.rtt.srtt()),
                    rto_s: ns_to_secs(s.rtt.rto()),
                    max_burst_packets: s.stats.max_burst_packets,
                    window_decays: s.stats.window_decays,
                    reserved_bdp_bytes: (f.variant == crate::scenario::Variant::BrTcp).then(|| s.cc.reserved_bdp()),
                    drops: self.world.drops[i],
                    writes: log.map(|l| l.writes),
                    mean_payload_bytes: if s.stats.data_packets > 0 {
                        s.stats.payload_bytes as f64 / s.stats.data_packets as f64
                    } else {
                        0.0
                    },
                    itt_p50_s: pct(itt, 50.0),
                    itt_p90_s: pct(itt, 90.0),
                    itt_p99_s: pct(itt, 99.0),
                    sojourn_p50_s: pct(soj, 50.0),
                    sojourn_p90_s: pct(soj, 90.0),
                    sojourn_p99_s: pct(soj, 99.0),
                    latency_p50_s: pct(lat, 50.0),
                    latency_p90_s: pct(lat, 90.0),
                    latency_p99_s: pct(lat, 99.0),
                    qdelay_mean_ms: self.world.qdelay[i].mean_ms(),
                    qdelay_p95_ms: self.world.qdelay[i].p95_ms(),
                    rtt_mean_ms: s.rtt_samples.mean_ms(),
                    rtt_p95_ms: s.rtt_samples.p95_ms(),
                    completion_time_s: self.flows[i].completion.map(ns_to_secs),
                    transfers: self.transfers[i].as_deref().map(crate::summary::TransferSummary::of),
                    active_time_s: active,
                }
            })
            .collect();
        let cross = self
            .scenario
            .cross
            .iter()
            .enumerate()
            .map(|(k, c)| {
                let stats = self.world.cross[k];
                let from = secs_to_ns(c.start);
                let to = if c.stop > 0.0 { now.min(secs_to_ns(c.stop)) } else { now };
                let active = ns_to_secs(to.saturating_sub(from));
                crate::summary::CrossSummary {
                    source: k as u32,
                    kind: c.kind,
                    rate_bps: c.rate,
                    reverse: c.reverse,
                    stats,
                    delivered_bps: if active > 0.0 {
                        stats.delivered_bytes as f64 * 8.0 / active
                    } else {
                        0.0
                    },
                    ping: self.world.pings[k]
                        .as_deref()
                        .map(|p| crate::summary::PingSummary::of(p, stats.queue_drops + stats.error_drops)),
                }
            })
            .collect();
        // Flows that have not started yet (mid-run, in playback) have no share to judge.
        let goodputs: Vec<f64> = flows
            .iter()
            .zip(&self.starts)
            .filter(|(_, &start)| start < now)
            .map(|(f, _)| f.transfer_goodput_bps)
            .collect();
        Summary {
            jain_index: crate::summary::jain_index(&goodputs),
            cross,
            seed: self.scenario.seed,
            duration_s: self.scenario.duration,
            now_s: ns_to_secs(now),
            finished: self.finished,
            events_processed: self.events_processed,
            packets: self.world.packets,
            digest: (!self.world.log.stream.drop || self.world.log.stream.hash)
                .then(|| format!("{:016x}", self.digest())),
            flows,
        }
    }
}
