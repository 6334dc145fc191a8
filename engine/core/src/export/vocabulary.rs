//! The page's trace tables: which of the engine's tables each one reads, which columns, and
//! for the tables read from the event log, which event kinds. The page imports these as
//! literal types (scripts/setup.mjs writes web/src/engine/pkg/vocabulary.ts from
//! [`trace_tables_json`]), so it never retypes a kind or a column, and a misspelt one fails
//! its type check. Adding an event kind the page draws: add it to [`EventKind`] and to one
//! table's `kinds` here.
//!
//! Units as the engine gives them to the page: time in seconds, sizes and sequence numbers
//! in bytes, codes as in `codes_json()`.

use crate::net::QUEUE_COLUMNS;
use crate::thin::WRITE_COLUMNS;
use crate::throughput::THROUGHPUT_COLUMNS;
use crate::trace::{EventKind, EVENT_COLUMNS, QDISC_COLUMNS, RECOVERY_COLUMNS, SERIES_COLUMNS, VALIDATION_COLUMNS};
use serde_json::{json, Value};

/// Where a trace table's rows come from: one of the engine's column reads (`Sim.*_cols`,
/// `Sim.events_select`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceSource {
    /// A flow's window series (`series_cols`).
    Series,
    /// The event log, the rows of the table's kinds and one flow (`events_select`).
    Events,
    /// The bottleneck queue (`queue_cols`), run-wide.
    Queue,
    /// A flow's window-validation series (`validation_cols`).
    Validation,
    /// A SACK flow's loss-recovery series (`recovery_cols`).
    Recovery,
    /// Bytes per bin and traffic class (`throughput_cols`), run-wide.
    Throughput,
    /// A flow's delivered writes (`writes_cols`).
    Writes,
    /// The data direction's queue-discipline state (`qdisc_cols`), run-wide; no rows under
    /// drop-tail.
    Qdisc,
}

impl TraceSource {
    /// Its name in `trace_tables_json()`.
    pub fn name(self) -> &'static str {
        match self {
            TraceSource::Series => "series",
            TraceSource::Events => "events",
            TraceSource::Queue => "queue",
            TraceSource::Validation => "validation",
            TraceSource::Recovery => "recovery",
            TraceSource::Throughput => "throughput",
            TraceSource::Writes => "writes",
            TraceSource::Qdisc => "qdisc",
        }
    }

    /// The columns of the read, in the engine's order (bit i of a column mask = column i).
    pub fn columns(self) -> &'static [&'static str] {
        match self {
            TraceSource::Series => &SERIES_COLUMNS,
            TraceSource::Events => &EVENT_COLUMNS,
            TraceSource::Queue => &QUEUE_COLUMNS,
            TraceSource::Validation => &VALIDATION_COLUMNS,
            TraceSource::Recovery => &RECOVERY_COLUMNS,
            TraceSource::Throughput => &THROUGHPUT_COLUMNS,
            TraceSource::Writes => &WRITE_COLUMNS,
            TraceSource::Qdisc => &QDISC_COLUMNS,
        }
    }
}

/// One of the page's trace tables.
#[derive(Clone, Copy, Debug)]
pub struct TraceTable {
    /// Its name in the page (`TraceChunk`'s keys).
    pub name: &'static str,
    pub source: TraceSource,
    /// The columns the page keeps, each one of `source`'s.
    pub columns: &'static [&'static str],
    /// The event kinds it holds (`TraceSource::Events` only; a kind in at most one table;
    /// kinds no table names, such as `dup_ack`, are not sent to the page).
    pub kinds: &'static [EventKind],
}

const fn table(name: &'static str, source: TraceSource, columns: &'static [&'static str]) -> TraceTable {
    TraceTable {
        name,
        source,
        columns,
        kinds: &[],
    }
}

const fn events(name: &'static str, columns: &'static [&'static str], kinds: &'static [EventKind]) -> TraceTable {
    TraceTable {
        name,
        source: TraceSource::Events,
        columns,
        kinds,
    }
}

/// The tables a run produces for the page, per flow (the queue and throughput tables are the
/// run's), in the page's order.
pub const TRACE_TABLES: [TraceTable; 18] = [
    // Window state, one row per change: cwnd, inflated, ssthresh (+∞ = unlimited), flight in
    // bytes; srtt and rto in seconds; phase code.
    table(
        "series",
        TraceSource::Series,
        &["t", "cwnd", "inflated", "ssthresh", "flight", "srtt", "rto", "phase"],
    ),
    // First transmissions: first byte and length.
    events("sends", &["t", "seq", "len"], &[EventKind::DataSend]),
    // Retransmissions (any later transmission of a segment).
    events("retx", &["t", "seq", "len"], &[EventKind::Retransmit]),
    // Lost packets (a full queue, a queue discipline, error, script; data or ACK
    // direction): kind code.
    events(
        "drops",
        &["t", "seq", "kind"],
        &[
            EventKind::QueueDrop,
            EventKind::ErrorDrop,
            EventKind::ScriptedDrop,
            EventKind::AckQueueDrop,
            EventKind::AckErrorDrop,
            EventKind::AqmDrop,
            EventKind::AckAqmDrop,
        ],
    ),
    // Data packets a queue discipline marked CE instead of dropping them (RFC 3168 §5):
    // first byte, length.
    events("ce_marks", &["t", "seq", "len"], &[EventKind::CeMark]),
    // ACKs arriving at the sender: seq = acknowledgment number.
    events("acks", &["t", "seq"], &[EventKind::AckReceived]),
    // Congestion events: fast retransmit (3rd dup ACK), partial ACK, timeout, recovery exit,
    // timeline changes; and the window-validation events (idle and application-limited
    // decays, restart after idle, new CWV's phase changes), for which seq = cwnd before,
    // len = cwnd after, seg = ssthresh before, tx = ssthresh after (bytes; u32::MAX =
    // unlimited); and CUBIC's epochs, for which seq = W_max, len = cwnd at the epoch's start
    // (bytes), seg = K (µs); kind code.
    events(
        "marks",
        &["t", "kind", "seq", "len", "seg", "tx"],
        &[
            EventKind::FastRetransmit,
            EventKind::PartialAck,
            EventKind::Timeout,
            EventKind::RecoveryExit,
            EventKind::ParamChange,
            EventKind::IdleDecay,
            EventKind::AppLimitedDecay,
            EventKind::IdleRestart,
            EventKind::NvpEnter,
            EventKind::NvpExit,
            EventKind::NvpExpiry,
            EventKind::NvpLossResponse,
            EventKind::CubicEpoch,
        ],
    ),
    // Bottleneck queue occupancy (data direction): packets, and bytes (what the queueing
    // delay is read from: bytes × 8 / the bottleneck's rate).
    table("queue", TraceSource::Queue, &["t", "packets", "bytes"]),
    // RTT samples (one per Karn-valid sample): seq = the sample as the estimator took it
    // (quantised to the clock tick), ns, exact (a 64-bit field); seg = the timed segment
    // (0 = SYN).
    events("rtt", &["t", "seq", "seg"], &[EventKind::RttSample]),
    // Spurious retransmissions, marked when they became known (an earlier copy of the
    // segment had reached the receiver): first byte, length, segment, the spurious attempt.
    events(
        "spurious",
        &["t", "seq", "len", "seg", "tx"],
        &[EventKind::SpuriousRetransmit],
    ),
    // BBR's model (empty for other controllers), two rows at each instant it changes,
    // `bbr_model` then `bbr_pacing` (kind code). bbr_model: seq = BtlBw, bit/s; len =
    // RTprop, µs (0 = none yet); seg = BDP, bytes. bbr_pacing: seq = the pacing rate, bit/s;
    // len = the pacing gain ×256; seg = the cwnd gain ×256. Both: tx = state·16 + ProbeBW's
    // gain-cycle phase (state 0 Startup, 1 Drain, 2 ProbeBW, 3 ProbeRTT).
    events(
        "model",
        &["t", "kind", "seq", "len", "seg", "tx"],
        &[EventKind::BbrModel, EventKind::BbrPacing],
    ),
    // Window validation, one row per change, only for flows with an idle policy: W_used and
    // pipeACK (NaN while undefined) in bytes; nvp = 1 in new CWV's non-validated phase.
    table(
        "validation",
        TraceSource::Validation,
        &["t", "w_used", "pipeack", "nvp"],
    ),
    // SACK blocks, one row per block of each ACK a SACK flow receives (after its
    // `ack_received` row): seq = left edge, len = bytes, seg = the block's position in the
    // option (0 first), tx = 1 for a D-SACK block, else 0.
    events(
        "sack_blocks",
        &["t", "seq", "len", "seg", "tx"],
        &[EventKind::SackBlock],
    ),
    // SACK loss recovery's marks: `marked_lost` (seq, len, seg; tx = 1 RFC 6675's IsLost,
    // 2 RACK, 3 the head at recovery start) and `tail_loss_probe` (seq, len, seg of the
    // probe; tx its transmission); kind code.
    events(
        "loss_marks",
        &["t", "kind", "seq", "len", "seg", "tx"],
        &[EventKind::MarkedLost, EventKind::TailLossProbe],
    ),
    // SACK loss recovery's state, one row per change, only for flows with SACK on (see
    // RECOVERY_COLUMNS: bytes, seconds, NaN for none).
    table("recovery", TraceSource::Recovery, &RECOVERY_COLUMNS),
    // Bytes per bin and traffic class: t = the bin's start; class index; bytes that crossed
    // the forward bottleneck; bytes delivered.
    table(
        "throughput",
        TraceSource::Throughput,
        &["t", "class", "bottleneck_bytes", "delivered_bytes"],
    ),
    // The data direction's queue discipline (RED, CoDel, FQ-CoDel, PIE, step), one row per
    // change, none under drop-tail (see QDISC_COLUMNS: avg in packets, or bytes in RED's
    // byte mode; p a probability; sojourn and drop_next in seconds, drop_next NaN when not
    // dropping; dropping 1 or 0).
    table(
        "qdisc",
        TraceSource::Qdisc,
        &["t", "avg", "p", "count", "sojourn", "dropping", "drop_next"],
    ),
    // The application's writes (every application but bulk), one row per write delivered:
    // when it was written, its bytes, its sojourn and latency (s).
    table("writes", TraceSource::Writes, &["t", "bytes", "sojourn", "latency"]),
];

/// Event kinds an `events_select` mask can name: bit k = kind code k, passed from
/// JavaScript as a number, whose integers are exact to 2^53 (so the page adds 2^k, as bitwise
/// operators there work on 32 bits).
pub const EVENT_MASK_BITS: usize = 53;

/// `[{"name", "source", "columns", "kinds"}]`, [`TRACE_TABLES`] in order (kinds by name).
pub fn trace_tables_json() -> Value {
    Value::Array(
        TRACE_TABLES
            .iter()
            .map(|t| {
                let kinds: Vec<&str> = t.kinds.iter().map(|k| k.name()).collect();
                json!({"name": t.name, "source": t.source.name(), "columns": t.columns, "kinds": kinds})
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_column_is_its_sources_and_every_kind_fits_the_mask() {
        let mut names = Vec::new();
        let mut kinds = Vec::new();
        for t in TRACE_TABLES {
            assert!(!names.contains(&t.name), "table {} twice", t.name);
            names.push(t.name);
            assert!(!t.columns.is_empty(), "{} has no column", t.name);
            for c in t.columns {
                assert!(
                    t.source.columns().contains(c),
                    "{}: {c} is not a {} column",
                    t.name,
                    t.source.name()
                );
            }
            assert_eq!(t.kinds.is_empty(), t.source != TraceSource::Events, "{}: kinds", t.name);
            for &k in t.kinds {
                assert!(
                    (k as usize) < EVENT_MASK_BITS,
                    "{}: {} does not fit the 53-bit mask",
                    t.name,
                    k.name()
                );
                assert!(!kinds.contains(&k), "{} is in two tables", k.name());
                kinds.push(k);
            }
        }
    }

    #[test]
    fn the_json_names_kinds_by_name() {
        let v = trace_tables_json();
        let drops = v.as_array().unwrap().iter().find(|t| t["name"] == "drops").unwrap();
        assert_eq!(drops["source"], "events");
        assert_eq!(drops["kinds"][0], "queue_drop");
        assert_eq!(drops["columns"], json!(["t", "seq", "kind"]));
    }
}
