//! The scenario: every parameter of a run. Loading merges a (possibly partial) JSON object
//! over the defaults from [`crate::schema`], checks every value against the table and
//! reports every problem at once, each naming the parameter, the value and the allowed
//! range. A scenario that loads is one the engine can run without panicking.

use crate::schema::{self, ItemField, ItemKind, Kind, ParamDef};
use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt;

pub(crate) mod json;
use json::{Read, Write};

/// Loss model of one direction of the bottleneck.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossModel {
    /// No random loss.
    None,
    /// Bit errors: a packet of n bytes is lost with probability 1 − (1 − ber)^(8n).
    Ber,
    /// Each packet lost with a fixed probability.
    Bernoulli,
}
json::names!(LossModel { None = "none", Ber = "ber", Bernoulli = "bernoulli" });

/// Random-loss settings of one link direction.
#[derive(Clone, Debug, PartialEq)]
pub struct LossCfg {
    /// Which model applies.
    pub model: LossModel,
    /// Bit error rate (model `ber`).
    pub ber: f64,
    /// Per-packet probability (model `bernoulli`).
    pub probability: f64,
}
json::json_struct!(LossCfg: model, ber, probability);

/// The shared bottleneck (one link per direction, same rate, delay and buffer).
#[derive(Clone, Debug, PartialEq)]
pub struct BottleneckCfg {
    /// bit/s.
    pub bandwidth: u64,
    /// One-way propagation delay, s.
    pub delay: f64,
    /// Largest extra one-way delay of a packet, s (each direction): each packet's is drawn
    /// uniformly from [0, this], so packets can overtake one another; 0 = none.
    pub delay_variation: f64,
    /// Queue capacity in packets, counting the one in service.
    pub queue_packets: u64,
    /// Queue capacity in bytes, counting the one in service; 0 = none.
    pub queue_bytes: u64,
    /// Random loss on the data direction.
    pub loss: LossCfg,
    /// Random loss on the ACK direction.
    pub reverse_loss: LossCfg,
    /// How the bottleneck chooses the next packet to send.
    pub scheduler: SchedulerKind,
    /// Reservation scheduler: whether a class may use capacity the others leave idle.
    pub borrow: bool,
    /// Queue discipline of the data direction.
    pub qdisc: QdiscKind,
    /// Queue discipline of the ACK direction.
    pub reverse_qdisc: QdiscKind,
    /// RED's parameters (both directions).
    pub red: RedCfg,
    /// CoDel's parameters (both directions).
    pub codel: CodelCfg,
    /// FQ-CoDel's parameters (both directions).
    pub fq_codel: FqCodelCfg,
    /// PIE's parameters (both directions).
    pub pie: PieCfg,
    /// The step queue's threshold (`qdisc = "step"`).
    pub step: StepCfg,
}
json::json_struct!(BottleneckCfg:
    bandwidth, delay, delay_variation, queue_packets, queue_bytes, loss, reverse_loss, scheduler, borrow,
    qdisc, reverse_qdisc, red, codel, fq_codel, pie, step);

/// How a bottleneck direction chooses the next packet to send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchedulerKind {
    /// One drop-tail queue, first come first served.
    Fifo,
    /// A class (and queue) per flow with a reserved bandwidth, plus one best-effort class
    /// for everything else; each class is guaranteed its rate (see [`crate::net::sched`]).
    Reservation,
}
json::names!(SchedulerKind { Fifo = "fifo", Reservation = "reservation" });

/// What a cross-traffic source sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrossKind {
    /// A packet every packet_size·8/rate seconds.
    Cbr,
    /// Exponentially distributed gaps with mean packet_size·8/rate.
    Poisson,
    /// CBR at `rate` during on periods, silent during off periods.
    OnOff,
    /// A probe of `packet_size` bytes every `interval`, echoed back by the far end: each
    /// echo is a round-trip-time sample (see `sim/ping.rs`).
    Ping,
}
json::names!(CrossKind { Cbr = "cbr", Poisson = "poisson", OnOff = "on_off", Ping = "ping" });

/// A non-reactive (UDP-like) traffic source that sends across the bottleneck only.
#[derive(Clone, Debug, PartialEq)]
pub struct CrossCfg {
    /// cbr, poisson or on_off.
    pub kind: CrossKind,
    /// Sending rate, bit/s (the mean rate for poisson; the rate while on for on_off).
    pub rate: u64,
    /// Bytes per packet on the wire.
    pub packet_size: u64,
    /// First packet, s.
    pub start: f64,
    /// No packet at or after this time, s; 0 = until the end.
    pub stop: f64,
    /// On period, s (on_off).
    pub on: f64,
    /// Off period, s (on_off).
    pub off: f64,
    /// Send in the ACK direction instead of the data direction.
    pub reverse: bool,
    /// Time between probes, s (ping).
    pub interval: f64,
}
json::json_struct!(CrossCfg: kind, rate, packet_size, start, stop, on, off, reverse, interval);

/// Network part of the scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct NetworkCfg {
    /// The shared bottleneck.
    pub bottleneck: BottleneckCfg,
}
json::json_struct!(NetworkCfg: bottleneck);

/// An access link (both directions).
#[derive(Clone, Debug, PartialEq)]
pub struct AccessCfg {
    /// bit/s.
    pub bandwidth: u64,
    /// One-way propagation delay, s.
    pub delay: f64,
    /// Queue capacity in packets (counting the one in service).
    pub queue_packets: u64,
}
json::json_struct!(AccessCfg: bandwidth, delay, queue_packets);

/// Loss-recovery variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Timeout is the only loss signal.
    OldTahoe,
    /// Fast retransmit, then cwnd = 1 and go-back-N.
    Tahoe,
    /// Fast retransmit and fast recovery (RFC 5681).
    Reno,
    /// Reno with partial-ACK handling (RFC 6582).
    Newreno,
    /// BR-TCP (source 002): ssthresh from the reserved rate's bandwidth-delay product.
    BrTcp,
}
json::names!(Variant { OldTahoe = "old_tahoe", Tahoe = "tahoe", Reno = "reno", Newreno = "newreno", BrTcp = "br_tcp" });

/// TCP options of a flow.
#[derive(Clone, Debug, PartialEq)]
pub struct TcpCfg {
    /// SMSS, bytes of payload.
    pub mss: u64,
    /// Header bytes per packet.
    pub header: u64,
    /// Advertised receiver window, bytes.
    pub rwnd: u64,
    /// Initial window, segments.
    pub initial_window: u64,
    /// Initial ssthresh, bytes; 0 = unlimited.
    pub initial_ssthresh: u64,
    /// Duplicate ACKs that trigger fast retransmit.
    pub dupack_threshold: u64,
    /// Nagle's algorithm.
    pub nagle: bool,
    /// SYN exchange before data.
    pub syn: bool,
}
json::json_struct!(TcpCfg: mss, header, rwnd, initial_window, initial_ssthresh, dupack_threshold, nagle, syn);

/// cwnd accounting unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Units {
    /// cwnd limits bytes in flight.
    Bytes,
    /// cwnd limits packets in flight.
    Segments,
}
json::names!(Units { Bytes = "bytes", Segments = "segments" });

// Each congestion-control mechanism's settings live beside its rules
// (`tcp/cc/<mechanism>/settings.rs`: the enums and the schema rows).
pub use crate::net::qdisc::codel::settings::CodelCfg;
pub use crate::net::qdisc::fq_codel::settings::FqCodelCfg;
pub use crate::net::qdisc::pie::settings::PieCfg;
pub use crate::net::qdisc::red::settings::RedCfg;
pub use crate::net::qdisc::settings::QdiscKind;
pub use crate::net::qdisc::step::settings::StepCfg;
pub use crate::tcp::cc::bbr::settings::Controller;
pub use crate::tcp::cc::brtcp::settings::{BrPacketSize, BrRecovery, BrRtt};
pub use crate::tcp::cc::cubic::settings::{CubicGrowth, CubicRtt, CubicSsthreshFrom};
pub use crate::tcp::cc::dctcp::settings::DctcpCfg;
pub use crate::tcp::cc::ecn::settings::EcnMode;
pub use crate::tcp::cc::gate::settings::{FullWindowSlack, GrowthGate};
pub use crate::tcp::cc::increase::settings::{CongAvoidRule, SlowStartRule};
pub use crate::tcp::cc::recovery::settings::{NewRenoFullAck, NewRenoTimer, PartialWindow, RepeatedRto, SsthreshRule};
pub use crate::tcp::cc::validation::settings::IdlePolicy;
pub use crate::tcp::recovery::sack::settings::{RecoveryBudget, SackCfg};

/// Congestion-control axes of a flow.
#[derive(Clone, Debug, PartialEq)]
pub struct CcCfg {
    /// cwnd unit.
    pub units: Units,
    /// Slow-start rule.
    pub slow_start: SlowStartRule,
    /// ABC limit L in segments.
    pub abc_limit: u64,
    /// Congestion-avoidance rule.
    pub congestion_avoidance: CongAvoidRule,
    /// ssthresh rule.
    pub ssthresh_rule: SsthreshRule,
    /// RFC 3042 Limited Transmit.
    pub limited_transmit: bool,
    /// ns-2 bug_fix guard for Tahoe and Reno.
    pub recover_guard: bool,
    /// Fast retransmit restarts the RTO timer.
    pub fast_retransmit_restarts_timer: bool,
    /// NewReno timer rule.
    pub newreno_timer: NewRenoTimer,
    /// NewReno full-ACK rule.
    pub newreno_full_ack: NewRenoFullAck,
    /// NewReno partial-ACK window rule.
    pub newreno_partial_window: PartialWindow,
    /// Repeated-timeout ssthresh rule.
    pub repeated_rto_ssthresh: RepeatedRto,
    /// Idle and application-limited behaviour (restart, CWV, new CWV).
    pub idle_policy: IdlePolicy,
    /// When ACKs may grow cwnd.
    pub growth_gate: GrowthGate,
    /// Tolerance of the "window full" test (growth gate and RFC 2861).
    pub full_window_slack: FullWindowSlack,
    /// RFC 7661 §4.4.3: longest non-validated phase before cwnd is reduced, s.
    pub nvp_limit: f64,
    /// Source 004 §5.1: byte-based cwnd counts the headers of the packets in flight too.
    pub header_in_window: bool,
    /// Largest cwnd growth may reach, bytes; 0 = no cap (BSD: TCP_MAXWIN).
    pub max_cwnd: u64,
    /// Binomial increase and decrease instead of the congestion-avoidance and ssthresh rules.
    pub binomial: bool,
    /// Binomial k (increase α / w^k per RTT), a whole or half number.
    pub binomial_k: f64,
    /// Binomial l (decrease β · w^l on a loss), a whole or half number.
    pub binomial_l: f64,
    /// Binomial α.
    pub binomial_alpha: f64,
    /// Binomial β.
    pub binomial_beta: f64,
    /// CUBIC's C, segments/s³ (used to 0.001).
    pub cubic_c: f64,
    /// CUBIC's β_cubic (used to 0.001).
    pub cubic_beta: f64,
    /// CUBIC's fast convergence (RFC 9438 §4.7).
    pub cubic_fast_convergence: bool,
    /// CUBIC's Reno-friendly region (RFC 9438 §4.3).
    pub cubic_reno_friendly: bool,
    /// What CUBIC's decrease multiplies by β.
    pub cubic_ssthresh_from: CubicSsthreshFrom,
    /// How far ahead CUBIC's target reads the cubic.
    pub cubic_rtt: CubicRtt,
    /// How CUBIC's increase combines the cubic and W_est.
    pub cubic_growth: CubicGrowth,
    /// What sets the window: the window rules or BBR's model (with pacing).
    pub controller: Controller,
    /// BR-TCP: the RTT of the formula.
    pub br_rtt: BrRtt,
    /// BR-TCP: the packet size of the formula.
    pub br_packet_size: BrPacketSize,
    /// BR-TCP: the loss-episode behaviour.
    pub br_recovery: BrRecovery,
}
json::json_struct!(CcCfg:
    units, slow_start, abc_limit, congestion_avoidance, ssthresh_rule, limited_transmit, recover_guard,
    fast_retransmit_restarts_timer, newreno_timer, newreno_full_ack, newreno_partial_window,
    repeated_rto_ssthresh, idle_policy, growth_gate, full_window_slack, nvp_limit, header_in_window, max_cwnd,
    binomial, binomial_k, binomial_l, binomial_alpha, binomial_beta, cubic_c, cubic_beta,
    cubic_fast_convergence, cubic_reno_friendly, cubic_ssthresh_from, cubic_rtt, cubic_growth, controller,
    br_rtt, br_packet_size, br_recovery);

/// RTO estimator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Estimator {
    /// RFC 6298.
    Rfc6298,
    /// Jacobson & Karels 1988 appendix A (integer, ticks).
    Jacobson88,
    /// RFC 793 §3.7.
    Rfc793,
}
json::names!(Estimator { Rfc6298 = "rfc6298", Jacobson88 = "jacobson88", Rfc793 = "rfc793" });

/// Retransmission timer settings.
#[derive(Clone, Debug, PartialEq)]
pub struct RtoCfg {
    /// Estimator.
    pub estimator: Estimator,
    /// Clock tick, s.
    pub clock_tick: f64,
    /// Initial RTO, s.
    pub initial: f64,
    /// Minimum RTO, s.
    pub min: f64,
    /// Maximum RTO, s.
    pub max: f64,
    /// RFC 793 α.
    pub rfc793_alpha: f64,
    /// RFC 793 β.
    pub rfc793_beta: f64,
}
json::json_struct!(RtoCfg: estimator, clock_tick, initial, min, max, rfc793_alpha, rfc793_beta);

/// Receiver settings.
#[derive(Clone, Debug, PartialEq)]
pub struct ReceiverCfg {
    /// Delayed ACKs.
    pub delayed_ack: bool,
    /// Delayed-ACK timeout, s.
    pub delack_timeout: f64,
}
json::json_struct!(ReceiverCfg: delayed_ack, delack_timeout);

/// Application kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppKind {
    /// Greedy (or fixed size).
    Bulk,
    /// Constant bit rate writes.
    Cbr,
    /// Small periodic writes.
    Thin,
    /// Periodic writes during on periods.
    OnOff,
    /// Writes at given times.
    Scripted,
    /// Writes with exponentially distributed gaps (a remote-shell user typing).
    Poisson,
    /// Finite transfers, each on a fresh connection, at given times (`writes`) or drawn
    /// (Poisson arrivals of `write_size` bytes, mean gap `write_interval`); each one's
    /// completion time is measured (see `sim/transfers.rs`).
    Transfers,
}
json::names!(AppKind {
    Bulk = "bulk", Cbr = "cbr", Thin = "thin", OnOff = "on_off", Scripted = "scripted", Poisson = "poisson",
    Transfers = "transfers"
});

/// One scripted application write.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptedWrite {
    /// When, s.
    pub at: f64,
    /// How many bytes.
    pub bytes: u64,
}
json::json_struct!(ScriptedWrite: at, bytes);

/// Application settings.
#[derive(Clone, Debug, PartialEq)]
pub struct AppCfg {
    /// Kind.
    pub kind: AppKind,
    /// Bulk size, bytes; 0 = unbounded.
    pub bytes: u64,
    /// Bytes per write.
    pub write_size: u64,
    /// Seconds between writes.
    pub write_interval: f64,
    /// On period, s.
    pub on: f64,
    /// Off period, s.
    pub off: f64,
    /// Scripted writes.
    pub writes: Vec<ScriptedWrite>,
}
json::json_struct!(AppCfg: kind, bytes, write_size, write_interval, on, off, writes);

/// A scripted drop of one transmission of one data segment, at the bottleneck.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptedDrop {
    /// Segment number (SYN = 0, first data segment = 1).
    pub segment: u64,
    /// Transmission attempt (1 = original).
    pub attempt: u64,
}
json::json_struct!(ScriptedDrop: segment, attempt);

/// One flow: a sender, a receiver, their access links and an application.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowCfg {
    /// The catalogue entry these settings match (see [`crate::catalogue`]), or "custom".
    /// On input it expands to its settings before any explicit key is applied; on output
    /// it names the entry the resolved settings are.
    pub algorithm: String,
    /// Loss-recovery variant.
    pub variant: Variant,
    /// Start time, s.
    pub start: f64,
    /// Reserved bandwidth at the bottleneck, bit/s (BR-TCP only; 0 = none).
    pub reserved_bandwidth: u64,
    /// Sender-side access link.
    pub access: AccessCfg,
    /// Receiver-side access link.
    pub receiver_access: AccessCfg,
    /// TCP options.
    pub tcp: TcpCfg,
    /// Congestion-control axes.
    pub cc: CcCfg,
    /// Retransmission timer.
    pub rto: RtoCfg,
    /// Receiver.
    pub receiver: ReceiverCfg,
    /// SACK and the loss recovery that uses it.
    pub sack: SackCfg,
    /// Explicit Congestion Notification (RFC 3168, or DCTCP's).
    pub ecn: EcnMode,
    /// DCTCP's parameters (with `ecn = "dctcp"`).
    pub dctcp: DctcpCfg,
    /// Application.
    pub app: AppCfg,
    /// Scripted drops.
    pub drops: Vec<ScriptedDrop>,
}
json::json_struct!(FlowCfg:
    algorithm, variant, start, reserved_bandwidth, access, receiver_access, tcp, cc, rto, receiver, sack,
    ecn, dctcp, app, drops);

/// A parameter change at a given time.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineEntry {
    /// When, s.
    pub at: f64,
    /// Parameter path (a live parameter).
    pub set: String,
    /// New value.
    pub value: Value,
}
json::json_struct!(TimelineEntry: at, set, value);

/// Which events the event log keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventFilter {
    /// Everything.
    All,
    /// No receiver-side rows.
    Sender,
    /// Drops, retransmissions and congestion events only.
    Congestion,
}
json::names!(EventFilter { All = "all", Sender = "sender", Congestion = "congestion" });

/// Trace options.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceCfg {
    /// Event-log filter.
    pub events: EventFilter,
    /// Width of the throughput table's bins, s.
    pub throughput_bin: f64,
}
json::json_struct!(TraceCfg: events, throughput_bin);

/// Every parameter of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Format version (1).
    pub version: u64,
    /// Seed of every random decision.
    pub seed: u64,
    /// Simulated duration, s.
    pub duration: f64,
    /// Trace options.
    pub trace: TraceCfg,
    /// The network.
    pub network: NetworkCfg,
    /// The flows (at least one).
    pub flows: Vec<FlowCfg>,
    /// Non-reactive traffic sharing the bottleneck.
    pub cross: Vec<CrossCfg>,
    /// Parameter changes during the run.
    pub timeline: Vec<TimelineEntry>,
}
json::json_struct!(Scenario: version, seed, duration, trace, network, flows, cross, timeline);

/// Most flows a scenario may hold.
pub const MAX_FLOWS: usize = 64;

/// Most cross-traffic sources a scenario may hold.
pub const MAX_CROSS: usize = 16;

impl Default for Scenario {
    fn default() -> Scenario {
        Scenario::from_value(&Value::Object(Map::new())).expect("the defaults are valid")
    }
}

impl Scenario {
    /// Parses and validates a scenario from JSON text (a partial object is merged over the
    /// defaults).
    pub fn from_json_str(text: &str) -> Result<Scenario, Vec<Problem>> {
        let v: Value =
            serde_json::from_str(text).map_err(|e| vec![Problem::new("", format!("not valid JSON: {e}"))])?;
        Scenario::from_value(&v)
    }

    /// Validates a (possibly partial) scenario object and builds the typed scenario. Every
    /// problem is reported at once: unknown keys, wrong types and out-of-range values
    /// together; rules that relate several parameters once each value is valid.
    pub fn from_value(user: &Value) -> Result<Scenario, Vec<Problem>> {
        let (merged, mut problems) = merge_over_defaults(user)?;
        problems.extend(check_values(&merged));
        if !problems.is_empty() {
            return Err(problems);
        }
        Scenario::read_merged(merged)
    }

    /// A compared run's scenario (`runs::run_scenario`): `user` is a scenario the engine has
    /// validated with [`Scenario::from_value`] (the page's one validation of a step), with a
    /// catalogue entry's settings written on flow 0. Every value was checked then or is the
    /// catalogue's own (a test checks each against its parameter), so each value's range is
    /// not checked again; the rules that relate several settings are (an entry may not suit
    /// the path: BR-TCP without a reservation). Anything merging reports still refuses it.
    pub(crate) fn from_checked_value(user: &Value) -> Result<Scenario, Vec<Problem>> {
        let (merged, problems) = merge_over_defaults(user)?;
        if !problems.is_empty() {
            return Err(problems);
        }
        Scenario::read_merged(merged)
    }

    /// The typed scenario of a merged one whose values are checked: each flow named after
    /// the catalogue entry it is, then the rules that relate several settings.
    fn read_merged(mut merged: Value) -> Result<Scenario, Vec<Problem>> {
        // Name each flow after the catalogue entry its resolved settings are.
        let names: Vec<&str> = merged
            .get("flows")
            .and_then(Value::as_array)
            .map_or(Vec::new(), |flows| {
                flows.iter().map(crate::catalogue::identify).collect()
            });
        json::complete_items(&mut merged);
        let mut scenario = Scenario::read(&merged).map_err(|e| {
            vec![Problem::new(
                e.path(),
                format!(
                    "cannot be read: expected {} (a checked scenario should always read; please report this)",
                    e.expected_text()
                ),
            )]
        })?;
        for (f, name) in scenario.flows.iter_mut().zip(names) {
            f.algorithm = name.to_string();
        }
        let cross = scenario.cross_checks();
        if cross.is_empty() {
            Ok(scenario)
        } else {
            Err(cross)
        }
    }

    /// A rough upper bound on the packets (data + ACK) the run will simulate: the busiest of
    /// the bottleneck and the flows' own links (or their applications) kept full for the
    /// whole duration. Front ends use it to warn before a run that would take long or fill
    /// memory.
    pub fn estimated_packets(&self) -> u64 {
        let b = &self.network.bottleneck;
        let per_flow: f64 = self
            .flows
            .iter()
            .map(|f| {
                let wire = (f.tcp.mss + f.tcp.header).max(1) as f64;
                let link = f.access.bandwidth.min(f.receiver_access.bandwidth) as f64 / 8.0 / wire;
                let app = match f.app.kind {
                    AppKind::Bulk if f.app.bytes > 0 => f.app.bytes as f64 / f.tcp.mss as f64 / self.duration,
                    AppKind::Bulk | AppKind::Scripted => link,
                    _ => (f.app.write_size as f64 / f.tcp.mss as f64).ceil() / f.app.write_interval,
                };
                link.min(app)
            })
            .sum();
        let min_wire = self
            .flows
            .iter()
            .map(|f| f.tcp.mss + f.tcp.header)
            .min()
            .unwrap_or(1500)
            .max(1) as f64;
        let bottleneck = b.bandwidth as f64 / 8.0 / min_wire;
        let cross: f64 = self
            .cross
            .iter()
            .map(|c| c.rate as f64 / 8.0 / c.packet_size as f64 * (self.duration - c.start).max(0.0))
            .sum();
        // A sender without slow start sends its whole window at once (Jacobson 1988 §1), at
        // the start and again after a timeout, however slow the path: at least one window
        // of the receiver's size, in segments, leaves (a 1 GiB window of 24-byte segments is
        // 45 million packets in the first instant).
        let bursts: f64 = self
            .flows
            .iter()
            .filter(|f| f.cc.slow_start == SlowStartRule::None)
            .map(|f| (f.tcp.rwnd / f.tcp.mss.max(1)) as f64)
            .sum();
        // Each data packet brings an ACK back.
        (2.0 * (per_flow.min(bottleneck) * self.duration + bursts) + cross).ceil() as u64
    }

    /// The scenario as a complete JSON object (every setting, defaults included).
    pub fn to_value(&self) -> Value {
        self.write()
    }
}

mod check;
pub mod runs;
#[cfg(test)]
mod tests;

pub(crate) use check::get_path_mut;
pub use check::{
    check_leaf, get_path, live_target, normalise_path, parse_set_value, resolve, set_dotted, set_path, FlowSel, Problem,
};
use check::{check_values, merge_over_defaults};
