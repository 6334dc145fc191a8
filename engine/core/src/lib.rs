//! cwndlab-core: a deterministic, packet-level TCP congestion-control simulator.
//!
//! The model keeps time in integer nanoseconds, sizes in bytes and rates in bit/s. Floats
//! appear only in the scenario file (converted once, at load) and in output columns, so a
//! scenario and seed give a bit-identical trace on every platform, natively and in wasm.
//!
//! Module map:
//! - [`schema`]: every scenario parameter (unit, default, range) defined once.
//! - [`scenario`]: the typed scenario, JSON loading, `--set` paths, validation.
//! - [`catalogue`]: named algorithms (a variant plus axis values), read by every front end.
//! - [`presets`]: named scenarios (NetSim lab, Fall & Floyd 1996).
//! - [`sim`]: the event loop tying links, senders, receivers and applications together.
//! - [`net`]: links with drop-tail queues and loss models; [`net::sched`], the reservation
//!   (class-based) scheduler of the bottleneck.
//! - [`cross`]: non-reactive cross-traffic sources.
//! - [`ring`]: the FIFO ring buffer of the per-packet queues.
//! - [`throughput`]: bytes per flow and source crossing the bottleneck, bin by bin.
//! - [`thin`]: per-write sojourn and latency, inter-transmission times (thin streams).
//! - [`delay`]: per-flow queueing delay at the bottleneck and RTT samples, for the summary.
//! - [`tcp`]: sender (sequence space, congestion control, RTO) and receiver.
//! - [`trace`]: columnar outputs; [`summary`]: per-flow metrics.
//! - [`capture`]: the packets passing one point (sender, receiver, bottleneck).
//! - [`export`]: the run as files: the trace tables (CSV, JSON), pcap, qlog.
//! - [`exercise`]: exercise sheets, each answer from the run's record with its rule.
//! - [`theory`]: Mathis et al.'s and Padhye et al.'s throughput for a flow's path, inputs stated.
//! - [`sweep`]: sweeps (axes, run list, per-run scenario, metrics, output), for the CLI and the page.
//! - [`rounds`]: transmission rounds (cwnd and ssthresh per round, as textbooks draw them).
//! - [`explain`]: why each decision was made, recorded by the rule that made it.
//! - [`divergence`]: where two runs' decisions first differ (runs both).
//! - [`invariants`]: what every run keeps (property tests and the fuzzing driver check it).
#![forbid(unsafe_code)]

/// A help text of the schema or the catalogue (a parameter's or choice's help, an algorithm's
/// description): the text itself with the `help-text` feature (the default: the CLI, the
/// docs, `schema_json`), an empty string without it. The page's first engine (engine/wasm
/// without `tools`) never shows them (the page reads them from tables.json), so they are not
/// in its download.
#[cfg(feature = "help-text")]
macro_rules! help {
    ($text:expr) => {
        $text
    };
}
#[cfg(not(feature = "help-text"))]
macro_rules! help {
    ($text:expr) => {
        ""
    };
}

pub mod app;
pub mod bounded;
pub mod capture;
pub mod catalogue;
pub mod cross;
pub mod delay;
pub mod divergence;
pub mod event;
pub mod exercise;
pub mod explain;
pub mod export;
pub mod invariants;
pub mod machine;
pub mod net;
pub mod presets;
pub mod ring;
pub mod rng;
pub mod rounds;
pub mod scenario;
pub mod schema;
pub mod sim;
pub mod spurious;
pub mod summary;
pub mod sweep;
pub mod tcp;
pub mod textbook;
pub mod theory;
pub mod thin;
pub mod throughput;
pub mod time;
pub mod trace;
pub mod wide;

pub use scenario::{Problem, Scenario};
pub use sim::Simulation;
pub use summary::Summary;
