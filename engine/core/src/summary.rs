//! Per-flow metrics of a run.

use serde::Serialize;

/// Drops of one flow's packets, by cause.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Drops {
    /// Data packets dropped by a full queue.
    pub queue: u64,
    /// Data packets lost to random errors (BER / per-packet probability).
    pub error: u64,
    /// Data packets dropped by the script.
    pub scripted: u64,
    /// ACKs dropped by a full queue.
    pub ack_queue: u64,
    /// ACKs lost to random errors.
    pub ack_error: u64,
    /// Data packets a queue discipline marked CE instead of dropping (RFC 3168 §5).
    pub ce_marks: u64,
}

/// Metrics of one flow.
#[derive(Clone, Debug, Serialize)]
pub struct FlowSummary {
    /// Flow index.
    pub flow: u32,
    /// Catalogue name of the flow's algorithm (or "custom").
    pub algorithm: String,
    /// Loss-recovery variant.
    pub variant: String,
    /// In-order payload bytes delivered to the receiving application, per second of the
    /// flow's active time (from its start to now), in bit/s.
    pub goodput_bps: f64,
    /// Goodput over the transfer itself: from the flow's start to the moment a finite
    /// application's data was all acknowledged (to now while it is not), bit/s. Equals
    /// goodput_bps for a flow still sending; what a finished 1 MB transfer "got".
    pub transfer_goodput_bps: f64,
    /// Bits of data packets the sender put on the wire (headers and retransmissions
    /// included) per second of active time.
    pub throughput_bps: f64,
    /// In-order payload bytes delivered.
    pub delivered_bytes: u64,
    /// Data packets sent, retransmissions included.
    pub data_packets_sent: u64,
    /// Retransmitted data packets.
    pub retransmits: u64,
    /// Retransmissions of which an earlier copy reached the receiver (Jacobson 1988 §2).
    pub spurious_retransmits: u64,
    /// Retransmitted share of the data packets sent (retransmits / data_packets_sent; 0
    /// when nothing was sent).
    pub retransmit_fraction: f64,
    /// Retransmission-timer expiries.
    pub timeouts: u64,
    /// Fast retransmits.
    pub fast_retransmits: u64,
    /// NewReno partial ACKs.
    pub partial_acks: u64,
    /// Duplicate ACKs received.
    pub dupacks: u64,
    /// ACKs the receiver sent.
    pub acks_sent: u64,
    /// Time-weighted mean cwnd, bytes.
    pub mean_cwnd_bytes: f64,
    /// Time-weighted mean cwnd, in MSS.
    pub mean_cwnd_segments: f64,
    /// Coefficient of variation of cwnd over time (standard deviation / mean).
    pub cwnd_cv: f64,
    /// cwnd now, bytes.
    pub final_cwnd_bytes: u64,
    /// ssthresh now, bytes (null while unlimited).
    pub final_ssthresh_bytes: Option<u64>,
    /// Smoothed RTT now, s.
    pub srtt_s: f64,
    /// RTO now, s.
    pub rto_s: f64,
    /// Most data packets sent back to back at one instant (the burst CWV guards against).
    pub max_burst_packets: u64,
    /// cwnd reductions by the idle policy: idle and application-limited decays (RFC 2861),
    /// restarts after idle (RFC 5681 §4.1), new CWV's expiry and loss response (RFC 7661).
    pub window_decays: u64,
    /// BR-TCP flows: the reserved rate's bandwidth-delay product BR-TCP would set ssthresh to
    /// now (its formula with the RTT it reads), bytes; null for other variants.
    pub reserved_bdp_bytes: Option<u64>,
    /// Drops by cause.
    pub drops: Drops,
    /// Application writes made (None for a bulk sender, which has no writes).
    pub writes: Option<u64>,
    /// Mean payload of the data packets sent (retransmissions included), bytes.
    pub mean_payload_bytes: f64,
    /// Inter-transmission time of data packets: 50th, 90th, 99th percentile, s (0.2 %).
    pub itt_p50_s: Option<f64>,
    /// See `itt_p50_s`.
    pub itt_p90_s: Option<f64>,
    /// See `itt_p50_s`.
    pub itt_p99_s: Option<f64>,
    /// Sojourn time of the writes delivered (written until their last byte was first sent), s.
    pub sojourn_p50_s: Option<f64>,
    /// See `sojourn_p50_s`.
    pub sojourn_p90_s: Option<f64>,
    /// See `sojourn_p50_s`.
    pub sojourn_p99_s: Option<f64>,
    /// Latency of writes (written until delivered in order to the receiving application), s.
    pub latency_p50_s: Option<f64>,
    /// See `latency_p50_s`.
    pub latency_p90_s: Option<f64>,
    /// See `latency_p50_s`.
    pub latency_p99_s: Option<f64>,
    /// Mean queueing delay of the flow's data packets at the bottleneck, ms: per data packet
    /// the forward bottleneck admitted (retransmissions included, tail drops not), from its
    /// entry into the queue to the start of its transmission (docs/algorithms.md, "Delay
    /// metrics"); null before the first.
    pub qdelay_mean_ms: Option<f64>,
    /// The same delays' 95th percentile (nearest rank, at most 0.2 % below the exact
    /// value), ms.
    pub qdelay_p95_ms: Option<f64>,
    /// Mean of the RTT samples the sender's estimator took (Karn-valid, quantised to the
    /// clock tick; what the RTT plot shows as dots; not SRTT), ms; null before the first.
    pub rtt_mean_ms: Option<f64>,
    /// The RTT samples' 95th percentile (nearest rank, at most 0.2 % below), ms.
    pub rtt_p95_ms: Option<f64>,
    /// When a finite application's data was all acknowledged, s.
    pub completion_time_s: Option<f64>,
    /// Seconds from the flow's start to now.
    pub active_time_s: f64,
    /// Short transfers (a `transfers` application; omitted otherwise): how many began and
    /// completed, their completion times' mean and nearest-rank percentiles, and the list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transfers: Option<TransferSummary>,
}

/// Metrics of a run.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Seed used.
    pub seed: u64,
    /// Configured duration, s.
    pub duration_s: f64,
    /// Simulated time reached, s.
    pub now_s: f64,
    /// Whether the run reached its end.
    pub finished: bool,
    /// Events processed.
    pub events_processed: u64,
    /// Packets simulated (data, ACK, SYN, SYN-ACK).
    pub packets: u64,
    /// Digest of every output row (see `Simulation::digest`), hex; null when the run was
    /// told to keep no trace and no digest (`Recording::Summary { digest: false }`).
    pub digest: Option<String>,
    /// Per-flow metrics.
    pub flows: Vec<FlowSummary>,
    /// Jain's fairness index of the transfer goodputs (each over its own transfer) of the
    /// flows that have started:
    /// (Σx)² / (n·Σx²), 1 when all are equal, 1/n when one flow has it all; null when no
    /// flow delivered anything.
    pub jain_index: Option<f64>,
    /// Per cross-traffic source, in `cross` order.
    pub cross: Vec<CrossSummary>,
}

/// What one cross-traffic source sent and got through.
#[derive(Clone, Debug, Serialize)]
pub struct CrossSummary {
    /// Index in `cross`.
    pub source: u32,
    /// cbr, poisson, on_off or ping.
    pub kind: crate::scenario::CrossKind,
    /// Configured rate, bit/s.
    pub rate_bps: u64,
    /// Whether it sends in the ACK direction.
    pub reverse: bool,
    /// Packet counts and delivered bytes.
    #[serde(flatten)]
    pub stats: crate::cross::CrossStats,
    /// Delivered bytes · 8 over the time the source was active so far (start to stop).
    pub delivered_bps: f64,
    /// A ping source's round-trip times (omitted for other kinds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ping: Option<PingSummary>,
}

/// Jain's fairness index of `xs`: (Σx)² / (n·Σx²). 1 when every x is equal, 1/n when one
/// takes everything; None for an empty list or when every x is 0 (no share to judge).
pub fn jain_index(xs: &[f64]) -> Option<f64> {
    let sum: f64 = xs.iter().sum();
    let squares: f64 = xs.iter().map(|x| x * x).sum();
    (!xs.is_empty() && squares > 0.0).then(|| sum * sum / (xs.len() as f64 * squares))
}

#[cfg(test)]
mod tests {
    use super::jain_index;

    #[test]
    fn jain_index_bounds_and_a_worked_case() {
        assert_eq!(jain_index(&[5.0, 5.0, 5.0, 5.0]), Some(1.0));
        assert_eq!(jain_index(&[8.0, 0.0, 0.0, 0.0]), Some(0.25));
        assert_eq!(jain_index(&[7.0]), Some(1.0));
        assert_eq!(jain_index(&[]), None);
        assert_eq!(jain_index(&[0.0, 0.0]), None);
        // Jacobson 1988 fig. 8's shares (8, 5, 5, 0.5 KB/s): 18.5² / (4 · 114.25) = 0.749.
        let j = jain_index(&[8.0, 5.0, 5.0, 0.5]).unwrap();
        assert!((j - 342.25 / 457.0).abs() < 1e-12, "{j}");
    }
}

/// What the summary reports of a flow's transfers.
#[derive(Clone, Debug, Serialize)]
pub struct TransferSummary {
    /// Transfers begun.
    pub started: u32,
    /// Transfers completed.
    pub completed: u32,
    /// Mean completion time, s (null when none completed).
    pub mean_s: Option<f64>,
    /// Median completion time, s (nearest rank).
    pub p50_s: Option<f64>,
    /// 90th percentile, s (nearest rank).
    pub p90_s: Option<f64>,
    /// 99th percentile, s (nearest rank).
    pub p99_s: Option<f64>,
    /// Every completion time, s, in completion order.
    pub completion_times_s: Vec<f64>,
}

/// The summary CSV's transfer columns (`summary.csv`, the last five) and the field of
/// [`TransferSummary`] each holds: the page's transfers view names its columns by these.
pub const TRANSFER_SUMMARY_COLUMNS: [(&str, &str); 5] = [
    ("transfers_completed", "completed"),
    ("transfer_mean_s", "mean_s"),
    ("transfer_p50_s", "p50_s"),
    ("transfer_p90_s", "p90_s"),
    ("transfer_p99_s", "p99_s"),
];

/// The fields of [`PingSummary`], in the order the page's transfers view shows them.
pub const PING_SUMMARY_FIELDS: [&str; 6] = ["samples", "lost", "mean_s", "p50_s", "p90_s", "p99_s"];

/// What the summary reports of a ping source.
#[derive(Clone, Debug, Serialize)]
pub struct PingSummary {
    /// Echoes received (RTT samples).
    pub samples: u64,
    /// Probes or echoes dropped (queue, discipline or random loss).
    pub lost: u64,
    /// Mean RTT, s (null without samples).
    pub mean_s: Option<f64>,
    /// Median RTT, s (nearest rank).
    pub p50_s: Option<f64>,
    /// 90th percentile, s.
    pub p90_s: Option<f64>,
    /// 99th percentile, s.
    pub p99_s: Option<f64>,
}
