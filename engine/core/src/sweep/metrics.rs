//! The metric table: the per-flow summary fields a sweep can report, with labels and units
//! (`cwndlab sweep --metrics`, the page's sweep view through `vocabulary_json`).

use super::*;
use serde_json::{json, Value};

/// A metric a sweep can report: a per-flow summary field.
#[derive(Clone, Copy, Debug)]
pub struct Metric {
    /// The summary field (a CSV column, a JSON key).
    pub name: &'static str,
    /// What it is, in words.
    pub label: &'static str,
    /// Its unit ("" for a count or a ratio).
    pub unit: &'static str,
}

const fn m(name: &'static str, label: &'static str, unit: &'static str) -> Metric {
    Metric { name, label, unit }
}

/// Every metric a sweep can report, in output order.
pub const METRIC_TABLE: &[Metric] = &[
    m("goodput_bps", "Goodput", "bit/s"),
    m("transfer_goodput_bps", "Transfer goodput", "bit/s"),
    m("throughput_bps", "Throughput (data on the wire)", "bit/s"),
    m("delivered_bytes", "Bytes delivered", "B"),
    m("data_packets_sent", "Data packets sent", ""),
    m("retransmits", "Retransmissions", ""),
    m("spurious_retransmits", "Spurious retransmissions", ""),
    m("retransmit_fraction", "Retransmitted fraction", ""),
    m("timeouts", "Timeouts", ""),
    m("fast_retransmits", "Fast retransmits", ""),
    m("partial_acks", "Partial ACKs", ""),
    m("dupacks", "Duplicate ACKs", ""),
    m("acks_sent", "ACKs sent", ""),
    m("mean_cwnd_bytes", "Mean cwnd", "B"),
    m("mean_cwnd_segments", "Mean cwnd (segments)", "MSS"),
    m("cwnd_cv", "cwnd coefficient of variation", ""),
    m("final_cwnd_bytes", "Final cwnd", "B"),
    m("final_ssthresh_bytes", "Final ssthresh", "B"),
    m("srtt_s", "Final SRTT", "s"),
    m("rto_s", "Final RTO", "s"),
    m("max_burst_packets", "Largest burst", "packets"),
    m("window_decays", "Window decays (idle policy)", ""),
    m("queue_drops", "Queue drops", ""),
    m("error_drops", "Error drops", ""),
    m("scripted_drops", "Scripted drops", ""),
    m("ce_marks", "CE marks (ECN)", ""),
    m("ack_queue_drops", "ACK queue drops", ""),
    m("ack_error_drops", "ACK error drops", ""),
    m("qdelay_mean_ms", "Queueing delay, mean", "ms"),
    m("qdelay_p95_ms", "Queueing delay p95", "ms"),
    m("rtt_mean_ms", "RTT samples, mean", "ms"),
    m("rtt_p95_ms", "RTT samples p95", "ms"),
    m("completion_time_s", "Completion time", "s"),
    m("writes", "Application writes", ""),
    m("mean_payload_bytes", "Mean payload", "B"),
    m("itt_p50_s", "Inter-transmission time p50", "s"),
    m("itt_p90_s", "Inter-transmission time p90", "s"),
    m("itt_p99_s", "Inter-transmission time p99", "s"),
    m("sojourn_p50_s", "Sojourn p50", "s"),
    m("sojourn_p90_s", "Sojourn p90", "s"),
    m("sojourn_p99_s", "Sojourn p99", "s"),
    m("latency_p50_s", "Write latency p50", "s"),
    m("latency_p90_s", "Write latency p90", "s"),
    m("latency_p99_s", "Write latency p99", "s"),
    m("transfers_completed", "Short transfers completed", ""),
    m("transfer_mean_s", "Transfer completion time, mean", "s"),
    m("transfer_p50_s", "Transfer completion time p50", "s"),
    m("transfer_p90_s", "Transfer completion time p90", "s"),
    m("transfer_p99_s", "Transfer completion time p99", "s"),
];

/// The metric names, in output order.
pub fn metric_names() -> Vec<&'static str> {
    METRIC_TABLE.iter().map(|m| m.name).collect()
}

/// What a front end shows of sweeps: `{"metrics": [{name, label, unit}], "max_runs": n,
/// "page_max_runs": n, "spread": "<what the spread columns are>"}`.
pub fn vocabulary_json() -> Value {
    json!({
        "metrics": METRIC_TABLE.iter().map(|m| json!({"name": m.name, "label": m.label, "unit": m.unit})).collect::<Vec<_>>(),
        "max_runs": MAX_RUNS,
        "page_max_runs": PAGE_MAX_RUNS,
        "spread": "over the seeds of a point: mean, sample standard deviation (n − 1), minimum and maximum",
    })
}

/// A metric's value in a flow summary (as JSON); None when it is null (e.g. no completion).
pub fn metric(flow: &Value, name: &str) -> Option<f64> {
    if let Some((_, field)) = crate::summary::TRANSFER_SUMMARY_COLUMNS
        .iter()
        .find(|(c, _)| *c == name)
    {
        return flow["transfers"][field].as_f64();
    }
    if name == "ce_marks" {
        return flow["drops"]["ce_marks"].as_f64();
    }
    let v = match name.strip_suffix("_drops") {
        Some(kind) if flow.get(name).is_none() => &flow["drops"][kind],
        _ => &flow[name],
    };
    v.as_f64()
}
