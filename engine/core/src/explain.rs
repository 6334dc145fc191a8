//! Explanations: why each congestion-control and timer decision was made.
//!
//! The code that makes a decision records it at that moment, as a [`Decision`]: a stable
//! [`Rule`] (whose static [`RuleInfo`] names the source — RFC and section, paper, or the
//! kernel function of a Linux/FreeBSD profile — the formula, and the names and units of
//! its inputs and outputs), the values of those inputs (the state before) and outputs (the
//! state after), and the phase before and after. The wording of every rule lives here once
//! ([`Decision::text`]); the CLI, the wasm API and the page all read it from here.
//!
//! Recording is off unless asked for ([`Why::on`]): every call site tests one bool before it
//! gathers anything, so a run without explanations does no other work (`set_explain` on
//! `Simulation`). Entries are buffered where they are made (the congestion controller of a
//! sender, a receiver) and stamped with the time and flow by the simulation as it drains
//! them at the end of the endpoint's event, so their order is the order the rules ran in.

use crate::time::Ns;
use serde_json::{json, Value};

/// The unit of a recorded value, for formatting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Bytes (`u64::MAX` = unlimited).
    Bytes,
    /// Nanoseconds, shown as seconds or milliseconds.
    Ns,
    /// A plain count.
    Count,
    /// A segment number (1 = first data segment).
    Seg,
    /// A sequence number (byte offset).
    Seq,
    /// Bits per second.
    Bps,
    /// 0 or 1.
    Flag,
    /// Thousandths (a real parameter such as binomial k, shown as k/1000).
    Milli,
    /// Packets.
    Packets,
}

impl Unit {
    /// Name used in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Bytes => "B",
            Unit::Ns => "ns",
            Unit::Count => "count",
            Unit::Seg => "segment",
            Unit::Seq => "seq",
            Unit::Bps => "bit/s",
            Unit::Flag => "flag",
            Unit::Milli => "milli",
            Unit::Packets => "packets",
        }
    }
}

/// What part of TCP a rule belongs to (the CLI's `--kind` and the page's filters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Slow start and congestion avoidance.
    Increase,
    /// A growth gate refusing growth.
    Gate,
    /// A loss response on duplicate ACKs (and the ssthresh it computes).
    Loss,
    /// Fast recovery: inflation, partial and full ACKs, exit.
    Recovery,
    /// The retransmission timer expiring, and its backoff.
    Timeout,
    /// An RTT sample and the RTO computed from it (or refused).
    Rtt,
    /// Idle and application-limited periods (restart, CWV, new CWV).
    Idle,
    /// What the sender holds or sends beyond the window (Nagle, Limited Transmit).
    Send,
    /// The receiver's acknowledgment policy (delayed ACKs).
    Ack,
    /// BBR's model of the path: its filters, states, pacing rate and cwnd.
    Model,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 10] = [
        Kind::Increase,
        Kind::Gate,
        Kind::Loss,
        Kind::Recovery,
        Kind::Timeout,
        Kind::Rtt,
        Kind::Idle,
        Kind::Send,
        Kind::Ack,
        Kind::Model,
    ];

    /// Name used in JSON and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Increase => "increase",
            Kind::Gate => "gate",
            Kind::Loss => "loss",
            Kind::Recovery => "recovery",
            Kind::Timeout => "timeout",
            Kind::Rtt => "rtt",
            Kind::Idle => "idle",
            Kind::Send => "send",
            Kind::Ack => "ack",
            Kind::Model => "model",
        }
    }

    /// What the kind covers, one line.
    pub fn description(self) -> &'static str {
        match self {
            Kind::Increase => "slow-start and congestion-avoidance increases",
            Kind::Gate => "a growth gate refusing to grow cwnd",
            Kind::Loss => "loss responses on duplicate ACKs and the ssthresh they set",
            Kind::Recovery => "fast recovery: window inflation, partial and full ACKs, leaving it",
            Kind::Timeout => "the retransmission timer expiring and backing off",
            Kind::Rtt => "RTT samples, the RTO computed from them, Karn's rule refusing one",
            Kind::Idle => "restart after idle, CWV decays, new CWV's phases",
            Kind::Send => "data held by Nagle or sent by Limited Transmit",
            Kind::Ack => "the receiver's delayed ACKs",
            Kind::Model => "BBR's model: bandwidth and RTT filters, its states, pacing rate and cwnd",
        }
    }

    /// The kind named `s`.
    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// Static description of a rule.
#[derive(Debug)]
pub struct RuleInfo {
    /// Stable id (never renamed: links and saved files refer to it).
    pub id: &'static str,
    /// Its kind.
    pub kind: Kind,
    /// Short title.
    pub title: &'static str,
    /// Where the rule comes from.
    pub source: &'static str,
    /// The formula, in the names of the inputs and outputs.
    pub formula: &'static str,
    /// Inputs: name and unit, in recording order.
    pub inputs: &'static [(&'static str, Unit)],
    /// Outputs: name and unit, in recording order (after the inputs).
    pub outputs: &'static [(&'static str, Unit)],
}

macro_rules! rules {
    ($( $(#[$doc:meta])* $name:ident = $id:literal, $kind:ident, $title:literal, $source:literal, $formula:literal,
        [$($iname:literal : $iunit:ident),* $(,)?] => [$($oname:literal : $ounit:ident),* $(,)?]; )*) => {
        /// A rule of the engine: every decision names one.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Rule {
            $( $(#[$doc])* $name, )*
        }

        /// Every rule's description, in [`Rule`] order.
        pub static RULES: &[RuleInfo] = &[
            $( RuleInfo {
                id: $id,
                kind: Kind::$kind,
                title: $title,
                source: $source,
                formula: $formula,
                inputs: &[$(($iname, Unit::$iunit)),*],
                outputs: &[$(($oname, Unit::$ounit)),*],
            }, )*
        ];

        impl Rule {
            /// Every rule, in code order.
            pub const ALL: &'static [Rule] = &[$(Rule::$name),*];
        }
    };
}

rules! {
    /// Slow start, one SMSS per new ACK.
    SsAckCounting = "ss.ack_counting", Increase, "Slow start: one SMSS per ACK",
        "RFC 5681 §3.1 (RFC 2581 §3.1)", "cwnd += SMSS",
        ["cwnd": Bytes, "ssthresh": Bytes, "SMSS": Bytes, "acked": Bytes] => ["cwnd": Bytes];
    /// Slow start with RFC 3465 byte counting.
    SsAbc = "ss.abc", Increase, "Slow start with Appropriate Byte Counting",
        "RFC 3465 §2.2 (L = 1 after a timeout, §2.3)", "cwnd += min(acked, L·SMSS)",
        ["cwnd": Bytes, "ssthresh": Bytes, "SMSS": Bytes, "acked": Bytes, "L": Count] => ["cwnd": Bytes];
    /// Linux 3.x slow start.
    SsLinux = "ss.linux", Increase, "Slow start, Linux 3.x",
        "Linux 3.x tcp_slow_start()", "cwnd += min(packets acked, ssthresh + 1 − cwnd) packets",
        ["cwnd": Bytes, "ssthresh": Bytes, "SMSS": Bytes, "packets acked": Packets] => ["cwnd": Bytes];
    /// No slow start (4.3BSD before Jacobson 1988).
    SsNone = "ss.none", Increase, "No slow start: the whole window at once",
        "Jacobson 1988 §1 (4.3BSD before slow start)", "cwnd = max(1, ⌊min(ssthresh, rwnd)/SMSS⌋)·SMSS",
        ["cwnd": Bytes, "ssthresh": Bytes, "rwnd": Bytes, "SMSS": Bytes] => ["cwnd": Bytes];
    /// Congestion avoidance, SMSS²/cwnd per ACK.
    CaPerAck = "ca.per_ack", Increase, "Congestion avoidance: SMSS·SMSS/cwnd per ACK",
        "RFC 5681 §3.1 eq. (3)", "cwnd += max(1, ⌊SMSS·SMSS/cwnd⌋)",
        ["cwnd": Bytes, "ssthresh": Bytes, "SMSS": Bytes] => ["cwnd": Bytes];
    /// Congestion avoidance with byte counting.
    CaByteCounting = "ca.byte_counting", Increase, "Congestion avoidance with byte counting",
        "RFC 3465 §2.1", "bytes_acked += acked; if bytes_acked ≥ cwnd: bytes_acked −= cwnd, cwnd += SMSS",
        ["cwnd": Bytes, "ssthresh": Bytes, "SMSS": Bytes, "acked": Bytes, "bytes_acked": Bytes]
        => ["cwnd": Bytes, "bytes_acked": Bytes];
    /// Linux 3.x congestion avoidance counter.
    CaLinux = "ca.linux_counter", Increase, "Congestion avoidance, Linux 3.x ACK counter",
        "Linux 3.x tcp_cong_avoid_ai()", "if snd_cwnd_cnt ≥ cwnd (packets): cwnd += 1 packet, snd_cwnd_cnt = 0; else snd_cwnd_cnt += 1",
        ["cwnd": Bytes, "ssthresh": Bytes, "SMSS": Bytes, "snd_cwnd_cnt": Count] => ["cwnd": Bytes, "snd_cwnd_cnt": Count];
    /// Binomial increase.
    CaBinomial = "ca.binomial", Increase, "Binomial increase: α/w^k packets per RTT",
        "Bansal & Balakrishnan 2001 §3.2 eq. (1), I (source 004)", "cwnd += α/w^k · SMSS/w per ACK (w = cwnd in packets)",
        ["cwnd": Bytes, "ssthresh": Bytes, "SMSS": Bytes, "k": Milli, "alpha": Milli] => ["cwnd": Bytes];
    /// The configured cwnd cap.
    CwndCap = "increase.max_cwnd", Increase, "cwnd held at its cap",
        "4.3BSD tcp_input (TCP_MAXWIN << snd_scale)", "cwnd = max(min(grown, max_cwnd), cwnd before)",
        ["cwnd": Bytes, "cwnd before": Bytes, "max_cwnd": Bytes] => ["cwnd": Bytes];
    /// RFC 2861 §2 gate refused growth.
    GateWindowFull = "gate.window_full", Gate, "No growth: the window was not full",
        "RFC 2861 §2 (Handley, Padhye, Floyd 1999 §2, slack from §5)", "grow only if flight ≥ min(cwnd, rwnd) (less than one SMSS unused counts as full under the one_mss slack)",
        ["cwnd": Bytes, "window": Bytes, "flight": Bytes, "flight packets": Packets, "SMSS": Bytes, "slack one_mss": Flag] => [];
    /// Linux ≤ 3.15 gate refused growth.
    GateLinux315 = "gate.linux_3_15", Gate, "No growth: not cwnd-limited (Linux ≤ 3.15)",
        "Linux 3.15 tcp_is_cwnd_limited(sk, in_flight)", "limited if in_flight ≥ cwnd, or left = cwnd − in_flight with (3·left < cwnd and left·SMSS < 64 KiB) or left ≤ 3",
        ["cwnd": Bytes, "cwnd packets": Packets, "in_flight": Packets, "SMSS": Bytes] => [];
    /// Linux 3.16 gate refused growth.
    GateLinux316 = "gate.linux_3_16", Gate, "No growth: not cwnd-limited (Linux 3.16)",
        "Linux 3.16 tcp_is_cwnd_limited(sk) and tcp_cwnd_validate()", "slow start (cwnd ≤ ssthresh): cwnd < 2·max_packets_out; otherwise is_cwnd_limited",
        ["cwnd": Bytes, "ssthresh": Bytes, "cwnd packets": Packets, "max_packets_out": Packets, "is_cwnd_limited": Flag] => [];
    /// RFC 7661 refused growth in the non-validated phase.
    GateNewCwv = "gate.rfc7661", Gate, "No growth in the non-validated phase",
        "RFC 7661 §4.3", "in the NVP, grow only when cwnd-limited (flight fills cwnd)",
        ["cwnd": Bytes, "flight": Bytes] => [];
    /// ssthresh = max(FlightSize/2, 2·SMSS).
    SsthreshHalfFlight = "ssthresh.half_flight", Loss, "ssthresh from the flight size",
        "RFC 5681 §3.1 eq. (4)", "ssthresh = max(FlightSize/2, 2·SMSS)",
        ["FlightSize": Bytes, "SMSS": Bytes, "ssthresh": Bytes] => ["ssthresh": Bytes];
    /// ssthresh = max(min(cwnd, rwnd)/2, 2·SMSS).
    SsthreshHalfCwnd = "ssthresh.half_cwnd", Loss, "ssthresh from the window",
        "4.3BSD-Reno tcp_input / ns-2 (window_/2)", "ssthresh = max(min(cwnd, rwnd)/2, 2·SMSS)",
        ["cwnd": Bytes, "rwnd": Bytes, "SMSS": Bytes, "ssthresh": Bytes] => ["ssthresh": Bytes];
    /// No multiplicative decrease.
    SsthreshNone = "ssthresh.none", Loss, "ssthresh unchanged (no multiplicative decrease)",
        "Jacobson 1988 §3 (the sender before it)", "ssthresh unchanged",
        ["ssthresh": Bytes] => ["ssthresh": Bytes];
    /// BR-TCP's reserved-rate ssthresh.
    SsthreshBrTcp = "ssthresh.br_tcp", Loss, "ssthresh from the reserved rate",
        "Komuro et al. 2006 (source 002) eqs. (1)–(2)", "ssthresh = max(2, ⌊r·RTT/(8·size)⌋)·SMSS",
        ["reserved rate": Bps, "RTT": Ns, "size": Bytes, "SMSS": Bytes, "ssthresh": Bytes] => ["ssthresh": Bytes];
    /// Binomial decrease.
    SsthreshBinomial = "ssthresh.binomial", Loss, "Binomial decrease: w − β·w^l",
        "Bansal & Balakrishnan 2001 §3.2 eq. (1), D (source 004)", "ssthresh = w − β·w^l packets (w = min(cwnd, rwnd))",
        ["window": Bytes, "SMSS": Bytes, "l": Milli, "beta": Milli, "ssthresh": Bytes] => ["ssthresh": Bytes];
    /// A repeated timeout keeps ssthresh.
    SsthreshHold = "ssthresh.hold_repeated_rto", Loss, "ssthresh kept on a repeated timeout",
        "RFC 5681 §3.1 (the segment was already resent by the timer)", "ssthresh unchanged",
        ["ssthresh": Bytes] => ["ssthresh": Bytes];
    /// Tahoe's fast retransmit.
    FastRetransmitTahoe = "loss.fast_retransmit_tahoe", Loss, "Fast retransmit, then slow start (Tahoe)",
        "4.3BSD-Tahoe; RFC 5681 §3.2 steps 2–3 with cwnd = LW", "cwnd = 1 SMSS; resend from snd_una (go back N)",
        ["dupacks": Count, "segment": Seg, "FlightSize": Bytes, "cwnd": Bytes, "ssthresh": Bytes, "SMSS": Bytes]
        => ["ssthresh": Bytes, "cwnd": Bytes, "recover": Seq];
    /// Reno/NewReno fast retransmit and fast recovery.
    FastRetransmit = "loss.fast_retransmit", Loss, "Fast retransmit and fast recovery",
        "RFC 5681 §3.2 steps 2–3 (RFC 6582 §3.2 step 2: recover = highest sent)", "cwnd = ssthresh; window in force = ssthresh + dupthresh·SMSS; resend the segment at snd_una",
        ["dupacks": Count, "segment": Seg, "FlightSize": Bytes, "cwnd": Bytes, "ssthresh": Bytes, "SMSS": Bytes]
        => ["ssthresh": Bytes, "cwnd": Bytes, "window": Bytes, "recover": Seq];
    /// BR-TCP's literal response.
    FastRetransmitBr = "loss.fast_retransmit_br_tcp", Loss, "Fast retransmit, cwnd = ssthresh (BR-TCP)",
        "Komuro et al. 2006 (source 002) §2 step 1", "cwnd = ssthresh; resend; continue in congestion avoidance",
        ["dupacks": Count, "segment": Seg, "FlightSize": Bytes, "cwnd": Bytes, "ssthresh": Bytes]
        => ["ssthresh": Bytes, "cwnd": Bytes, "recover": Seq];
    /// The recover guard suppressed a second response.
    FastRetransmitSuppressed = "loss.recover_guard", Loss, "No fast retransmit: this loss was already handled",
        "RFC 6582 §3.2 step 2 (Floyd's bugfix)", "act only if the duplicate ACKs cover more than recover",
        ["dupacks": Count, "ack": Seq, "recover": Seq] => [];
    /// New CWV's loss response in the NVP.
    NewCwvLoss = "loss.rfc7661_nvp", Loss, "Loss in the non-validated phase",
        "RFC 7661 §4.4.1", "cwnd = max(pipeACK, LossFlightSize)/2 (at least SMSS) for the recovery",
        ["pipeACK": Bytes, "LossFlightSize": Bytes, "cwnd": Bytes] => ["cwnd": Bytes];
    /// Window inflation in fast recovery.
    Inflate = "recovery.inflate", Recovery, "Fast recovery: the window inflates by one SMSS",
        "RFC 5681 §3.2 step 4", "window += SMSS for each further duplicate ACK",
        ["dupacks": Count, "window": Bytes, "SMSS": Bytes] => ["window": Bytes];
    /// Reno leaves fast recovery on the first new ACK.
    RenoExit = "recovery.reno_exit", Recovery, "Reno leaves fast recovery on the first new ACK",
        "RFC 5681 §3.2 step 6", "cwnd = target (deflate the window); target = ssthresh, or min(cwnd, ssthresh) with no multiplicative decrease",
        ["ack": Seq, "recover": Seq, "window": Bytes, "ssthresh": Bytes, "target": Bytes] => ["cwnd": Bytes];
    /// NewReno partial ACK, RFC 6582 deflation.
    PartialDeflate = "recovery.partial_ack_deflate", Recovery, "Partial ACK: resend the next hole, deflate",
        "RFC 6582 §3.2 step 3 (partial ACK)", "window = max(SMSS, window − acked) + (SMSS if acked ≥ SMSS); resend the segment at snd_una",
        ["ack": Seq, "recover": Seq, "window": Bytes, "acked": Bytes, "SMSS": Bytes, "segment": Seg]
        => ["window": Bytes, "timer restarted": Flag];
    /// NewReno partial ACK, ns-2 reset.
    PartialReset = "recovery.partial_ack_reset", Recovery, "Partial ACK: resend the next hole, window back to cwnd",
        "ns-2 NewReno without partial_window_deflation_", "window = cwnd; resend the segment at snd_una",
        ["ack": Seq, "recover": Seq, "window": Bytes, "cwnd": Bytes, "segment": Seg]
        => ["window": Bytes, "timer restarted": Flag];
    /// NewReno full ACK, min with the flight.
    FullAckMinFlight = "recovery.full_ack_min_flight", Recovery, "Full ACK: leave fast recovery",
        "RFC 6582 §3.2 step 3 (full ACK), option (1)", "cwnd = min(target, max(FlightSize, SMSS) + SMSS); target = ssthresh, or min(cwnd, ssthresh) with no multiplicative decrease",
        ["ack": Seq, "recover": Seq, "ssthresh": Bytes, "target": Bytes, "FlightSize": Bytes, "SMSS": Bytes] => ["cwnd": Bytes];
    /// NewReno full ACK, cwnd = ssthresh.
    FullAckSsthresh = "recovery.full_ack_ssthresh", Recovery, "Full ACK: leave fast recovery",
        "RFC 6582 §3.2 step 3 (full ACK), option (2)", "cwnd = target; target = ssthresh, or min(cwnd, ssthresh) with no multiplicative decrease",
        ["ack": Seq, "recover": Seq, "ssthresh": Bytes, "target": Bytes] => ["cwnd": Bytes];
    /// New CWV's window at the end of a recovery from an NVP loss.
    NewCwvRecoveryEnd = "recovery.rfc7661_end", Recovery, "End of recovery from a loss in the non-validated phase",
        "RFC 7661 §4.4.1", "cwnd = ssthresh = max((max(pipeACK, LossFlightSize) − R)/2, SMSS)",
        ["pipeACK": Bytes, "LossFlightSize": Bytes, "R": Bytes, "cwnd": Bytes, "ssthresh": Bytes]
        => ["cwnd": Bytes, "ssthresh": Bytes];
    /// A retransmission timeout.
    Timeout = "timeout.expire", Timeout, "Retransmission timeout",
        "RFC 5681 §3.1 (LW), RFC 6298 (5.4)", "cwnd = LW (1 SMSS); resend from snd_una (go back N); recover = highest sent",
        ["segment": Seg, "FlightSize": Bytes, "cwnd": Bytes, "ssthresh": Bytes]
        => ["cwnd": Bytes, "ssthresh": Bytes, "recover": Seq];
    /// RTO backoff.
    Backoff = "timeout.backoff", Timeout, "The RTO doubles",
        "RFC 6298 (5.5)", "RTO = min(2·RTO, max RTO)",
        ["RTO": Ns, "backoffs": Count, "max RTO": Ns] => ["RTO": Ns, "backoffs": Count];
    /// SYN lost: RTO at least 3 s.
    SynTimeout = "timeout.syn_rto", Timeout, "A SYN was lost: data starts with an RTO of at least 3 s",
        "RFC 6298 (5.7)", "RTO = max(RTO, 3 s)",
        ["RTO": Ns] => ["RTO": Ns];
    /// First RFC 6298 sample.
    RttFirst = "rtt.rfc6298_first", Rtt, "First RTT sample",
        "RFC 6298 (2.2), bounds (2.4)–(2.5)", "SRTT = R; RTTVAR = R/2; RTO = SRTT + max(G, 4·RTTVAR), within [min, max]",
        ["R": Ns, "elapsed": Ns, "segment": Seg, "G": Ns, "min RTO": Ns, "max RTO": Ns]
        => ["SRTT": Ns, "RTTVAR": Ns, "RTO": Ns];
    /// Later RFC 6298 sample.
    RttUpdate = "rtt.rfc6298", Rtt, "RTT sample",
        "RFC 6298 (2.3), bounds (2.4)–(2.5)", "RTTVAR = ¾·RTTVAR + ¼·|SRTT − R|; SRTT = ⅞·SRTT + ⅛·R; RTO = SRTT + max(G, 4·RTTVAR), within [min, max]",
        ["R": Ns, "elapsed": Ns, "segment": Seg, "SRTT": Ns, "RTTVAR": Ns, "G": Ns, "min RTO": Ns, "max RTO": Ns]
        => ["SRTT": Ns, "RTTVAR": Ns, "RTO": Ns];
    /// Jacobson 1988 estimator.
    RttJacobson = "rtt.jacobson88", Rtt, "RTT sample (Jacobson 1988)",
        "Jacobson & Karels 1988 appendix A", "err = m − A; A += err/8; D += (|err| − D)/4; RTO = A + 4·D (in clock ticks)",
        ["R": Ns, "elapsed": Ns, "segment": Seg, "A": Ns, "D": Ns, "tick": Ns, "min RTO": Ns, "max RTO": Ns]
        => ["A": Ns, "D": Ns, "RTO": Ns];
    /// RFC 793 estimator.
    RttRfc793 = "rtt.rfc793", Rtt, "RTT sample (RFC 793)",
        "RFC 793 §3.7", "SRTT = α·SRTT + (1 − α)·R; RTO = min(UBOUND, max(LBOUND, β·SRTT))",
        ["R": Ns, "elapsed": Ns, "segment": Seg, "SRTT": Ns, "alpha": Milli, "beta": Milli, "min RTO": Ns, "max RTO": Ns]
        => ["SRTT": Ns, "RTO": Ns];
    /// Karn's rule.
    Karn = "rtt.karn", Rtt, "No RTT sample from this round trip (Karn's rule)",
        "Karn & Partridge 1987; RFC 6298 §3", "a segment was retransmitted while being timed: its ACK would be ambiguous",
        ["timed segment": Seg, "resent segment": Seg] => [];
    /// Restart after idle.
    Restart = "idle.restart", Idle, "Restart after idle",
        "RFC 5681 §4.1", "idle > RTO: cwnd = min(IW, cwnd)",
        ["idle": Ns, "RTO": Ns, "IW": Bytes, "cwnd": Bytes] => ["cwnd": Bytes];
    /// RFC 2861 idle decay.
    CwvIdle = "idle.rfc2861_idle", Idle, "Idle: cwnd halves once per RTO",
        "RFC 2861 §3 (Handley, Padhye, Floyd 1999 §2.2)", "ssthresh = max(ssthresh, ¾·cwnd); then, per whole RTO idle, cwnd = max(min(cwnd, rwnd)/2, SMSS)",
        ["idle": Ns, "RTO": Ns, "cwnd": Bytes, "ssthresh": Bytes] => ["cwnd": Bytes, "ssthresh": Bytes];
    /// RFC 2861 application-limited decay.
    CwvAppLimited = "idle.rfc2861_app_limited", Idle, "Application-limited: cwnd decays toward the window used",
        "RFC 2861 §3 (Handley, Padhye, Floyd 1999 §2.2)", "ssthresh = max(ssthresh, ¾·cwnd); cwnd = (min(cwnd, rwnd) + W_used)/2",
        ["since T_prev": Ns, "RTO": Ns, "W_used": Bytes, "cwnd": Bytes, "ssthresh": Bytes] => ["cwnd": Bytes, "ssthresh": Bytes];
    /// New CWV enters the NVP.
    NvpEnter = "idle.rfc7661_nvp_enter", Idle, "Enter the non-validated phase",
        "RFC 7661 §4.3", "pipeACK < ½·cwnd: non-validated",
        ["pipeACK": Bytes, "cwnd": Bytes] => [];
    /// New CWV leaves the NVP.
    NvpExit = "idle.rfc7661_nvp_exit", Idle, "Leave the non-validated phase",
        "RFC 7661 §4.3 (and §4.2: pipeACK undefined after recovery or a timeout)", "pipeACK ≥ ½·cwnd, or pipeACK undefined: validated",
        ["pipeACK": Bytes, "cwnd": Bytes] => [];
    /// New CWV's NVP time limit.
    NvpExpiry = "idle.rfc7661_nvp_expiry", Idle, "The non-validated phase outlasted its limit",
        "RFC 7661 §4.4.3, §4.5.2", "per whole limit: ssthresh = max(ssthresh, ¾·cwnd); cwnd = min(cwnd, max(cwnd/2, IW))",
        ["in NVP": Ns, "NVP limit": Ns, "IW": Bytes, "cwnd": Bytes, "ssthresh": Bytes] => ["cwnd": Bytes, "ssthresh": Bytes];
    /// Nagle holds a small segment.
    Nagle = "send.nagle", Send, "Nagle: a small segment waits",
        "RFC 896; RFC 1122 §4.2.3.4", "hold a segment shorter than SMSS while data is unacknowledged",
        ["length": Bytes, "SMSS": Bytes, "unacknowledged": Bytes] => [];
    /// Limited Transmit sends beyond cwnd.
    LimitedTransmit = "send.limited_transmit", Send, "Limited Transmit: a new segment on a duplicate ACK",
        "RFC 3042; RFC 5681 §3.2 step 1", "on the 1st and 2nd duplicate ACK, send one new segment beyond cwnd",
        ["dupacks": Count, "cwnd": Bytes, "flight": Bytes, "segment": Seg] => [];
    /// Delayed ACK held.
    DelAckHold = "ack.delay", Ack, "Delayed ACK: the ACK waits",
        "RFC 1122 §4.2.3.2; RFC 5681 §4.2", "in-order data, less than 2·SMSS unacknowledged: wait up to the delayed-ACK timeout",
        ["unacknowledged": Bytes, "SMSS": Bytes, "timeout": Ns] => [];
    /// Delayed ACK: every second segment.
    DelAckSecond = "ack.every_second", Ack, "Delayed ACK: every second full segment is acknowledged",
        "RFC 1122 §4.2.3.2; RFC 5681 §4.2", "ACK at once when 2·SMSS or more is unacknowledged",
        ["unacknowledged": Bytes, "SMSS": Bytes] => [];
    /// Delayed ACK timer fired.
    DelAckTimer = "ack.timer", Ack, "Delayed-ACK timer: the waiting ACK leaves",
        "RFC 1122 §4.2.3.2 (at most 500 ms)", "the timer fired: send the ACK",
        ["unacknowledged": Bytes, "timeout": Ns] => [];
    // Rules added later go last: a rule's index is part of the decision digests.
    /// HyStart++'s slow-start increase.
    SsHystart = "ss.hystart_pp", Increase, "Slow start under HyStart++",
        "RFC 9406 §4.2", "cwnd += min(acked, L·SMSS), L = 8; in conservative slow start (CSS) a quarter of it",
        ["cwnd": Bytes, "ssthresh": Bytes, "SMSS": Bytes, "acked": Bytes, "CSS": Flag] => ["cwnd": Bytes];
    /// HyStart++ sees the RTT rise: conservative slow start.
    HystartCssEnter = "hystart.css_enter", Increase, "HyStart++: the RTT rose, conservative slow start",
        "RFC 9406 §4.2", "after N_RTT_SAMPLE samples: if currentRoundMinRTT ≥ lastRoundMinRTT + max(4 ms, min(lastRoundMinRTT/8, 16 ms)): enter CSS",
        ["lastRoundMinRTT": Ns, "currentRoundMinRTT": Ns, "RttThresh": Ns, "cwnd": Bytes] => [];
    /// HyStart++: the rise was spurious.
    HystartCssResume = "hystart.css_resume", Increase, "HyStart++: the RTT fell back, slow start resumes",
        "RFC 9406 §4.2", "in CSS, after N_RTT_SAMPLE samples: if currentRoundMinRTT < cssBaselineMinRtt: back to slow start",
        ["cssBaselineMinRtt": Ns, "currentRoundMinRTT": Ns, "cwnd": Bytes] => [];
    /// HyStart++ ends slow start.
    HystartExit = "hystart.exit", Increase, "HyStart++ ends slow start",
        "RFC 9406 §4.2 (RFC 9438 §4.10 for CUBIC)", "after CSS_ROUNDS rounds of CSS: ssthresh = cwnd",
        ["cwnd": Bytes, "ssthresh": Bytes, "CSS rounds": Count] => ["ssthresh": Bytes];
    /// CUBIC's decrease from cwnd (Linux, ns-3).
    SsthreshCubicCwnd = "ssthresh.cubic_cwnd", Loss, "CUBIC decrease: β_cubic times cwnd (Linux)",
        "Linux tcp_cubic.c cubictcp_recalc_ssthresh(); RFC 9438 §4.7 (fast convergence)",
        "ssthresh = max(cwnd·β_cubic, 2·SMSS); W_max = cwnd, or cwnd·(1 + β_cubic)/2 if cwnd < the last W_max (fast convergence)",
        ["cwnd": Bytes, "beta": Milli, "W_max before": Bytes, "fast convergence": Flag, "SMSS": Bytes, "ssthresh": Bytes]
        => ["ssthresh": Bytes, "W_max": Bytes];
    /// A CUBIC congestion-avoidance epoch begins.
    CubicEpoch = "ca.cubic_epoch", Increase, "A CUBIC epoch begins: K and W_est",
        "RFC 9438 §4.2 eq. (2), §4.3 (§4.8, §4.10: K = 0 and W_max = cwnd_epoch after a timeout or with no loss yet)",
        "t_epoch = now; cwnd_epoch = cwnd; K = ∛((W_max − cwnd_epoch)/C); W_est = cwnd_epoch",
        ["cwnd": Bytes, "W_max before": Bytes, "C": Milli, "SMSS": Bytes] => ["W_max": Bytes, "K": Ns, "W_est": Bytes];
    /// CUBIC's window increase.
    CaCubic = "ca.cubic", Increase, "CUBIC increase toward W_cubic(t + RTT)",
        "RFC 9438 §4.2–4.5",
        "W_cubic(t) = C·(t − K)³ + W_max; target = clamp(W_cubic(t + RTT), cwnd, 1.5·cwnd); cwnd += (target − cwnd)·acked/cwnd; if W_cubic(t) < W_est: cwnd = W_est",
        ["cwnd": Bytes, "ssthresh": Bytes, "acked": Bytes, "t": Ns, "RTT": Ns, "K": Ns, "W_max": Bytes, "W_cubic(t+RTT)": Bytes, "W_cubic(t)": Bytes, "W_est": Bytes]
        => ["cwnd": Bytes, "region": Count];
    /// CUBIC's multiplicative decrease and W_max.
    SsthreshCubic = "ssthresh.cubic", Loss, "CUBIC decrease: β_cubic times the flight",
        "RFC 9438 §4.6 (decrease), §4.7 (fast convergence)",
        "ssthresh = max(FlightSize·β_cubic, 2·SMSS); W_max = cwnd, or cwnd·(1 + β_cubic)/2 if cwnd < the last W_max (fast convergence)",
        ["FlightSize": Bytes, "cwnd": Bytes, "beta": Milli, "W_max before": Bytes, "fast convergence": Flag, "SMSS": Bytes, "ssthresh": Bytes]
        => ["ssthresh": Bytes, "W_max": Bytes];    /// BBR's bandwidth filter takes a new maximum (or loses an old one).
    BbrMaxBw = "bbr.max_bw", Model, "BBR: a new bottleneck-bandwidth estimate (BtlBw)",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.1.1 (BBRUpdateBtlBw); draft-cheng-iccrg-delivery-rate-estimation; Linux 4.9 bbr_update_bw()",
        "rate = delivered / max(send phase, ACK phase); BtlBw = max of the rates over the last 10 round trips (app-limited samples only if they raise it)",
        ["delivered": Bytes, "interval": Ns, "rate": Bps, "app-limited": Flag, "round": Count, "BtlBw before": Bps] => ["BtlBw": Bps];
    /// BBR's minimum-RTT filter changes.
    BbrMinRtt = "bbr.min_rtt", Model, "BBR: a new RTprop (minimum RTT)",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.1.2 (BBRUpdateRTprop); Linux 4.9 bbr_update_min_rtt()",
        "if rtt ≤ RTprop or RTprop is older than 10 s: RTprop = rtt",
        ["rtt": Ns, "RTprop before": Ns, "age": Ns, "expired": Flag] => ["RTprop": Ns];
    /// Once per round in Startup: has the bandwidth stopped growing?
    BbrFullBwCheck = "bbr.full_bw_check", Model, "BBR Startup: did the bandwidth grow by 25 % this round?",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.2.2 (BBRCheckFullPipe); Linux 4.9 bbr_check_full_bw_reached()",
        "if BtlBw ≥ 1.25·full_bw: full_bw = BtlBw, count = 0; else count += 1; the pipe is full after 3 rounds",
        ["round": Count, "BtlBw": Bps, "full_bw": Bps, "count before": Count, "1.25·full_bw": Bps] => ["count": Count, "filled pipe": Flag];
    /// Startup ends: Drain.
    BbrFullPipe = "bbr.full_pipe", Model, "BBR: the pipe is full, Startup → Drain",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.2.3 (BBRCheckDrain); Linux 4.9 bbr_check_drain()",
        "3 rounds without 25 % growth: mode = Drain, pacing gain = 1/2.885 (cwnd gain stays 2.885); ssthresh = BBRInflight(1) (Linux)",
        ["BtlBw": Bps, "RTprop": Ns, "rounds": Count, "ssthresh before": Bytes] => ["ssthresh": Bytes];
    /// Drain ends: ProbeBW.
    BbrDrainDone = "bbr.drain_done", Model, "BBR: the queue is drained, Drain → ProbeBW",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.3 (BBREnterProbeBW); Linux 4.9 bbr_check_drain(), bbr_reset_probe_bw_mode()",
        "if in flight ≤ BBRInflight(1) = BtlBw·RTprop + 3·send quantum: mode = ProbeBW at a random phase of the gain cycle other than 3/4",
        ["in flight": Bytes, "BBRInflight(1)": Bytes] => ["phase": Count, "pacing gain": Milli];
    /// ProbeBW's gain cycle moves on.
    BbrCycle = "bbr.cycle", Model, "BBR ProbeBW: next phase of the gain cycle",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.3 (BBRCheckCyclePhase, BBRIsNextCyclePhase); Linux 4.9 bbr_is_next_cycle_phase()",
        "after one RTprop; a 5/4 phase also waits for losses or in flight ≥ BBRInflight(5/4); a 3/4 phase ends early once in flight ≤ BBRInflight(1); gains 5/4, 3/4, 1, 1, 1, 1, 1, 1",
        ["phase before": Count, "gain before": Milli, "elapsed": Ns, "RTprop": Ns, "in flight": Bytes, "target": Bytes, "losses": Count] => ["phase": Count, "pacing gain": Milli];
    /// RTprop is 10 s old: ProbeRTT.
    BbrProbeRttEnter = "bbr.probe_rtt_enter", Model, "BBR: RTprop is 10 s old, enter ProbeRTT",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.4 (BBRCheckProbeRTT); Linux 4.9 bbr_update_min_rtt()",
        "if no RTT ≤ RTprop for 10 s: save cwnd, mode = ProbeRTT, cwnd ≤ 4 segments for max(200 ms, one round)",
        ["RTprop": Ns, "age": Ns, "window": Ns, "cwnd": Bytes] => ["saved cwnd": Bytes];
    /// ProbeRTT ends.
    BbrProbeRttExit = "bbr.probe_rtt_exit", Model, "BBR: ProbeRTT done",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.4 (BBRHandleProbeRTT, BBRExitProbeRTT); Linux 4.9 bbr_check_probe_rtt_done()",
        "200 ms and a round at 4 segments: RTprop's stamp = now, cwnd = max(cwnd, saved cwnd), back to ProbeBW (Startup if the pipe was never full)",
        ["done at": Ns, "cwnd before": Bytes, "saved cwnd": Bytes, "filled pipe": Flag] => ["cwnd": Bytes, "phase": Count];
    /// The pacing rate changes.
    BbrPacing = "bbr.pacing", Model, "BBR sets its pacing rate",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.2.1 (BBRSetPacingRateWithGain); Linux 4.9 bbr_set_pacing_rate()",
        "rate = pacing_gain·BtlBw; taken once the pipe is full, or before that only if higher",
        ["BtlBw": Bps, "pacing gain": Milli, "rate before": Bps] => ["pacing rate": Bps];
    /// cwnd toward gain × BDP.
    BbrCwnd = "bbr.cwnd", Model, "BBR sets cwnd toward cwnd_gain × BDP",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.2.3 (BBRSetCwnd, BBRInflight); Linux 4.9 bbr_set_cwnd()",
        "target = cwnd_gain·BtlBw·RTprop (whole segments) + 3·send quantum; full pipe: cwnd = min(cwnd + acked, target); before: cwnd += acked while below target; at least 4 segments; ProbeRTT: at most 4",
        ["cwnd before": Bytes, "acked": Bytes, "BtlBw": Bps, "RTprop": Ns, "cwnd gain": Milli, "target": Bytes, "filled pipe": Flag, "ProbeRTT cap": Flag] => ["cwnd": Bytes];
    /// Packet conservation in the first round of recovery.
    BbrConservation = "bbr.conservation", Recovery, "BBR in recovery: packet conservation",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.2.3.4 (BBRModulateCwndForRecovery); Linux 4.9 bbr_set_cwnd_to_recover_or_restore()",
        "first round of recovery: cwnd = max(cwnd − losses, in flight + delivered): one segment out per segment delivered",
        ["cwnd before": Bytes, "in flight": Bytes, "delivered": Bytes, "losses": Count] => ["cwnd": Bytes];
    /// cwnd restored at the end of recovery.
    BbrRestore = "bbr.restore", Recovery, "BBR leaves recovery: cwnd restored",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.2.3.4 (BBRRestoreCwnd); Linux 4.9 bbr_set_cwnd_to_recover_or_restore()",
        "cwnd = max(cwnd, the cwnd saved when recovery began)",
        ["cwnd before": Bytes, "saved cwnd": Bytes] => ["cwnd": Bytes];
    /// BBR's fast retransmit.
    FastRetransmitBbr = "loss.fast_retransmit_bbr", Loss, "Fast retransmit under BBR",
        "RFC 6582 (loss recovery, as Linux without SACK); Linux 4.9 bbr_ssthresh(), bbr_set_cwnd_to_recover_or_restore()",
        "3rd duplicate ACK: resend the segment at snd_una, enter recovery; BBR keeps ssthresh and saves cwnd, then conserves packets",
        ["dupacks": Count, "segment": Seg, "FlightSize": Bytes, "cwnd": Bytes, "recover": Seq] => [];
    /// BBR's partial ACK.
    BbrPartialAck = "recovery.partial_ack_bbr", Recovery, "Partial ACK under BBR: resend the next hole",
        "RFC 6582 §3.2 step 3 (as Linux without SACK); the window is BBR's",
        "ack < recover: resend the segment at snd_una, stay in recovery; cwnd is set by BBR (bbr.conservation, bbr.cwnd)",
        ["ack": Seq, "recover": Seq, "segment": Seg, "restart timer": Flag] => [];
    /// BBR's ssthresh on a loss: kept; cwnd saved.
    SsthreshBbr = "ssthresh.bbr", Loss, "BBR keeps ssthresh and saves cwnd",
        "Linux 4.9 bbr_ssthresh(), bbr_save_cwnd(); draft-cardwell-iccrg-bbr-congestion-control-00 §4.2.3.4 (BBRSaveCwnd)",
        "saved cwnd = cwnd (the larger of the two if already recovering or in ProbeRTT); ssthresh unchanged",
        ["cwnd": Bytes, "saved before": Bytes, "ssthresh before": Bytes] => ["saved cwnd": Bytes, "ssthresh": Bytes];
}

impl Rule {
    /// The rule's description.
    pub fn info(self) -> &'static RuleInfo {
        &RULES[self as usize]
    }

    /// The rule with id `id`.
    pub fn parse(id: &str) -> Option<Rule> {
        Rule::ALL.iter().copied().find(|r| r.info().id == id)
    }
}

/// Most values (inputs and outputs) a decision records.
pub const MAX_VALUES: usize = 12;

/// One decision, as recorded by the rule that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The rule.
    pub rule: Rule,
    /// Phase code before (see `Phase`).
    pub from: u8,
    /// Phase code after.
    pub to: u8,
    /// Inputs then outputs, in the rule's order.
    pub values: [u64; MAX_VALUES],
}

/// A decision with its time and flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// When.
    pub t: Ns,
    /// Which flow.
    pub flow: u32,
    /// What.
    pub d: Decision,
}

/// Elements per chunk of a [`Chunked`] store.
const CHUNK: usize = 1 << 13;

/// A growing store of `Copy` elements in fixed-size chunks: growing never moves what is
/// stored (a `Vec` would copy everything at each doubling), and a slice pushed at once
/// stays contiguous (it starts a new chunk if the current one lacks room).
#[derive(Clone, Debug)]
struct Chunked<T> {
    chunks: Vec<Vec<T>>,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked { chunks: Vec::new() }
    }
}

impl<T: Copy> Chunked<T> {
    /// Appends `items` contiguously; returns the global index of the first.
    #[inline(always)]
    fn push_all<const N: usize>(&mut self, items: [T; N]) -> usize {
        if self.chunks.last().is_none_or(|c| c.len() + N > CHUNK) {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        let k = self.chunks.len() - 1;
        let c = &mut self.chunks[k];
        let at = k * CHUNK + c.len();
        c.extend(items);
        at
    }

    /// Element `i` (global index).
    #[inline]
    fn get(&self, i: usize) -> T {
        self.chunks[i / CHUNK][i % CHUNK]
    }

    /// `n` elements from global index `i`.
    fn slice(&self, i: usize, n: usize) -> &[T] {
        &self.chunks[i / CHUNK][i % CHUNK..i % CHUNK + n]
    }

    fn clear(&mut self) {
        self.chunks.truncate(1);
        if let Some(c) = self.chunks.first_mut() {
            c.clear();
        }
    }
}

/// One endpoint's decisions, stored compactly and never moved: an 8-byte head per
/// decision and only the values its rule names (most name 4 to 7 of the [`MAX_VALUES`] a
/// [`Decision`] can hold). The time is kept once per batch (the decisions one endpoint
/// made in one event) by the run's [`Order`]; decisions pushed since the last
/// [`DecisionLog::stamp`] form the open batch.
#[derive(Clone, Debug, Default)]
pub struct DecisionLog {
    heads: Chunked<Head>,
    values: Chunked<u64>,
    /// Decisions in all.
    len: u32,
    /// Where the open batch starts (a decision index).
    open: u32,
}

/// A decision's rule, phases and where its values start.
#[derive(Clone, Copy, Debug)]
struct Head {
    start: u32,
    rule: Rule,
    from: u8,
    to: u8,
}

impl DecisionLog {
    /// Appends a decision of `N` values to the open batch.
    #[inline(always)]
    pub fn push_array<const N: usize>(&mut self, rule: Rule, from: u8, to: u8, values: [u64; N]) {
        let start = self.values.push_all(values) as u32;
        self.heads.push_all([Head { start, rule, from, to }]);
        self.len += 1;
    }

    /// Whether decisions wait to be stamped.
    #[inline]
    pub fn has_open(&self) -> bool {
        self.len > self.open
    }

    /// Closes the open batch; returns its first decision and how many it holds, or None
    /// when it is empty.
    #[inline]
    pub fn stamp(&mut self) -> Option<(u32, u32)> {
        if !self.has_open() {
            return None;
        }
        let first = self.open;
        self.open = self.len;
        Some((first, self.len - first))
    }

    /// How many decisions (stamped or not).
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Decision `i`'s rule.
    fn rule(&self, i: usize) -> Rule {
        self.heads.get(i).rule
    }

    /// Decision `i`'s rule and its phases before and after.
    fn rule_phases(&self, i: usize) -> (Rule, u8, u8) {
        let h = self.heads.get(i);
        (h.rule, h.from, h.to)
    }

    /// Decision `i`, made at `t` by `flow`.
    fn get_in(&self, i: usize, t: Ns, flow: u32) -> Entry {
        let h = self.heads.get(i);
        let info = h.rule.info();
        let n = info.inputs.len() + info.outputs.len();
        let mut values = [0u64; MAX_VALUES];
        values[..n].copy_from_slice(self.values.slice(h.start as usize, n));
        Entry {
            t,
            flow,
            d: Decision {
                rule: h.rule,
                from: h.from,
                to: h.to,
                values,
            },
        }
    }

    /// Decision `i` of this log, by `flow`, with time 0 (the run's [`Order`] knows when).
    pub fn get(&self, i: usize, flow: u32) -> Option<Entry> {
        (i < self.len()).then(|| self.get_in(i, 0, flow))
    }

    /// Forgets every decision (keeping some memory).
    pub fn clear(&mut self) {
        self.heads.clear();
        self.values.clear();
        self.len = 0;
        self.open = 0;
    }
}

/// Which endpoint's batch came next: decisions `cum..` (in the run's order) were made at
/// `t` by endpoint `endpoint` (2·flow for a sender, 2·flow + 1 for its receiver), from its
/// decision `first` on.
#[derive(Clone, Copy, Debug)]
pub struct Order {
    /// When.
    pub t: Ns,
    /// Index of the batch's first decision among all the run's decisions.
    pub cum: u32,
    /// 2·flow (sender) or 2·flow + 1 (receiver).
    pub endpoint: u32,
    /// The batch's first decision, in the endpoint's log.
    pub first: u32,
}

/// A run's decisions in the order they were made: the endpoints' logs read through the
/// order of their batches (`Simulation::decisions`).
pub struct Decisions<'a> {
    /// The batches in order.
    pub order: &'a [Order],
    /// The logs, by endpoint.
    pub logs: Vec<&'a DecisionLog>,
    /// Decisions in all.
    pub total: usize,
}

impl Decisions<'_> {
    /// How many decisions.
    pub fn len(&self) -> usize {
        self.total
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    fn locate(&self, i: usize) -> Option<(&Order, usize)> {
        if i >= self.total {
            return None;
        }
        let k = self.order.partition_point(|o| o.cum as usize <= i) - 1;
        let o = &self.order[k];
        Some((o, o.first as usize + (i - o.cum as usize)))
    }

    /// Decision `i`.
    pub fn get(&self, i: usize) -> Option<Entry> {
        let (o, local) = self.locate(i)?;
        Some(self.logs[o.endpoint as usize].get_in(local, o.t, o.endpoint / 2))
    }

    /// Decision `i`'s time, flow and rule (without copying its values).
    pub fn time_flow(&self, i: usize) -> Option<(Ns, u32, Rule)> {
        let (o, local) = self.locate(i)?;
        let log = self.logs[o.endpoint as usize];
        Some((o.t, o.endpoint / 2, log.rule(local)))
    }

    /// Flow `flow`'s decisions from the run's decision `from` on, in order, without copying
    /// their values: `(index in the run, time, rule, phase before, phase after)`. Walks the
    /// batches once (the page's index of a run: times to step through, rules to filter by,
    /// phases for the state machine).
    pub fn heads_of(&self, flow: u32, from: usize) -> impl Iterator<Item = (usize, Ns, Rule, u8, u8)> + '_ {
        let start = self
            .order
            .partition_point(|o| (o.cum as usize) <= from)
            .saturating_sub(1);
        self.order[start.min(self.order.len())..]
            .iter()
            .enumerate()
            .filter(move |(_, o)| o.endpoint / 2 == flow)
            .flat_map(move |(k, o)| {
                let end = self.order.get(start + k + 1).map_or(self.total, |n| n.cum as usize);
                let log = self.logs[o.endpoint as usize];
                (o.cum as usize..end).filter(move |&i| i >= from).map(move |i| {
                    let (rule, a, b) = log.rule_phases(o.first as usize + (i - o.cum as usize));
                    (i, o.t, rule, a, b)
                })
            })
    }

    /// The decisions `from..to` (clamped), in order.
    pub fn range(&self, from: usize, to: usize) -> impl Iterator<Item = Entry> + '_ {
        let to = to.min(self.len());
        (from.min(to)..to).map(|i| self.get(i).expect("in range"))
    }

    /// Every decision, in order.
    pub fn iter(&self) -> impl Iterator<Item = Entry> + '_ {
        self.range(0, self.len())
    }
}

/// Where an endpoint records its decisions until the simulation stamps them.
#[derive(Clone, Debug, Default)]
pub struct Why {
    /// Whether to record at all.
    pub on: bool,
    /// Decisions since the last drain (time and flow not yet stamped).
    pub log: DecisionLog,
}

impl Why {
    /// Records a decision (call only when `on`). `values` are the inputs then the outputs,
    /// exactly as many as the rule names.
    #[cold]
    pub fn push<const N: usize>(&mut self, rule: Rule, from: u8, to: u8, values: &[u64; N]) {
        let info = rule.info();
        debug_assert_eq!(
            values.len(),
            info.inputs.len() + info.outputs.len(),
            "rule {} records {} values",
            info.id,
            values.len()
        );
        const { assert!(N <= MAX_VALUES) };
        self.log.push_array(rule, from, to, *values);
    }
}

/// How a sentence writes the byte counts it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ByteUnit {
    /// In bytes: "7 000 B" (the CLI, the logs, the JSON's `text`).
    Bytes,
    /// In segments of this many bytes: "7 segments" (the JSON's `text_segments`).
    Segments(u64),
}

/// A byte count in segments of `smss` bytes, to the hundredth (rounded half up, integer
/// arithmetic): "7 segments", "1 segment", "7.5 segments", "∞" for unlimited.
pub fn format_segments(v: u64, smss: u64) -> String {
    if v == u64::MAX {
        return "∞".into();
    }
    if smss == 0 {
        return format_value(v, Unit::Bytes);
    }
    let hundredths = (u128::from(v) * 100 + u128::from(smss) / 2) / u128::from(smss);
    let whole = u64::try_from(hundredths / 100).unwrap_or(u64::MAX);
    let frac = hundredths % 100;
    let n = if frac == 0 {
        group(whole)
    } else {
        let f = format!("{frac:02}");
        format!("{}.{}", group(whole), f.trim_end_matches('0'))
    };
    let word = if hundredths == 100 { "segment" } else { "segments" };
    format!("{n} {word}")
}

/// Formats a value of a unit for text.
pub fn format_value(v: u64, unit: Unit) -> String {
    match unit {
        Unit::Bytes if v == u64::MAX => "∞".into(),
        Unit::Bytes => format!("{} B", group(v)),
        Unit::Ns => format_ns(v),
        Unit::Count | Unit::Packets => group(v),
        Unit::Seg => group(v),
        Unit::Seq if v == u64::MAX => "none".into(),
        Unit::Seq => group(v),
        Unit::Bps => format_bps(v),
        Unit::Flag => if v != 0 { "yes" } else { "no" }.into(),
        Unit::Milli => {
            let s = format!("{}.{:03}", v / 1000, v % 1000);
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        }
    }
}

/// Thousands separated by a space (the docs' style): 14600 → "14 600".
fn group(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// A duration: ms with up to three decimals below 10 s, else seconds.
pub fn format_ns(ns: u64) -> String {
    if ns == u64::MAX {
        return "∞".into();
    }
    if ns < 10_000_000_000 {
        let ms = ns as f64 / 1e6;
        let s = format!("{ms:.3}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        format!("{s} ms")
    } else {
        let s = format!("{:.3}", ns as f64 / 1e9);
        let s = s.trim_end_matches('0').trim_end_matches('.');
        format!("{s} s")
    }
}

fn format_bps(v: u64) -> String {
    let (x, u) = if v >= 1_000_000_000 {
        (v as f64 / 1e9, "Gbit/s")
    } else if v >= 1_000_000 {
        (v as f64 / 1e6, "Mbit/s")
    } else if v >= 1_000 {
        (v as f64 / 1e3, "kbit/s")
    } else {
        (v as f64, "bit/s")
    };
    let s = format!("{x:.3}");
    format!("{} {u}", s.trim_end_matches('0').trim_end_matches('.'))
}

impl Decision {
    /// The rule's description.
    pub fn info(&self) -> &'static RuleInfo {
        self.rule.info()
    }

    /// Input `name`.
    pub fn input(&self, name: &str) -> u64 {
        let i = self.info().inputs.iter().position(|(n, _)| *n == name);
        i.map_or(0, |i| self.values[i])
    }

    /// Output `name`.
    pub fn output(&self, name: &str) -> u64 {
        let info = self.info();
        let i = info.outputs.iter().position(|(n, _)| *n == name);
        i.map_or(0, |i| self.values[info.inputs.len() + i])
    }

    /// The inputs as (name, unit, value).
    pub fn inputs(&self) -> impl Iterator<Item = (&'static str, Unit, u64)> + '_ {
        self.info()
            .inputs
            .iter()
            .enumerate()
            .map(|(i, &(n, u))| (n, u, self.values[i]))
    }

    /// The outputs as (name, unit, value).
    pub fn outputs(&self) -> impl Iterator<Item = (&'static str, Unit, u64)> + '_ {
        let k = self.info().inputs.len();
        self.info()
            .outputs
            .iter()
            .enumerate()
            .map(move |(i, &(n, u))| (n, u, self.values[k + i]))
    }

    /// The explanation in words, with the arithmetic on the recorded numbers (byte counts
    /// in bytes).
    pub fn text(&self) -> String {
        self.text_in(ByteUnit::Bytes)
    }

    /// The explanation in words with the byte counts it names written in `unit`: the page
    /// shows it in segments, the plots' unit. Only the counts the sentence names change;
    /// its arithmetic on raw byte values (FlightSize/2 and the like) stays in bytes.
    pub fn text_in(&self, unit: ByteUnit) -> String {
        let i = |n: &str| self.input(n);
        let o = |n: &str| self.output(n);
        let b = |v: u64| match unit {
            ByteUnit::Bytes => format_value(v, Unit::Bytes),
            ByteUnit::Segments(smss) => format_segments(v, smss),
        };
        let t = format_ns;
        let src = self.info().source;
        let body = match self.rule {
            Rule::SsAckCounting => format!(
                "Slow start (cwnd {} < ssthresh {}): a new ACK for {} adds one SMSS, cwnd = {} + {} = {}",
                b(i("cwnd")), b(i("ssthresh")), b(i("acked")), b(i("cwnd")), b(i("SMSS")), b(o("cwnd"))
            ),
            Rule::SsAbc => format!(
                "Slow start with byte counting: cwnd += min(acked, L·SMSS) = min({}, {}·{}) → cwnd = {}",
                b(i("acked")), i("L"), b(i("SMSS")), b(o("cwnd"))
            ),
            Rule::SsLinux => format!(
                "Slow start (Linux, cwnd {} ≤ ssthresh {}): {} packet(s) acknowledged, cwnd grows by min({}, ssthresh + 1 − cwnd) packets to {}",
                b(i("cwnd")), b(i("ssthresh")), i("packets acked"), i("packets acked"), b(o("cwnd"))
            ),
            Rule::SsNone => format!(
                "No slow start: the window opens at once to min(ssthresh {}, rwnd {}) in whole segments = {}",
                b(i("ssthresh")), b(i("rwnd")), b(o("cwnd"))
            ),
            Rule::CaPerAck => {
                let (c, s) = (i("cwnd"), i("SMSS"));
                format!(
                    "Congestion avoidance (cwnd {} ≥ ssthresh {}): cwnd += max(1, SMSS·SMSS/cwnd) = {}·{}/{} = {} B → cwnd = {}",
                    b(c), b(i("ssthresh")), group(s), group(s), group(c), group((s * s / c.max(1)).max(1)), b(o("cwnd"))
                )
            }
            Rule::CaByteCounting => format!(
                "Congestion avoidance with byte counting: bytes_acked {} + {} acknowledged = {} against cwnd {}: {}",
                b(i("bytes_acked")), b(i("acked")), b(i("bytes_acked").saturating_add(i("acked"))), b(i("cwnd")),
                if o("cwnd") > i("cwnd") {
                    format!("a whole window acknowledged, cwnd = {} + SMSS = {}", b(i("cwnd")), b(o("cwnd")))
                } else {
                    "less than a window, cwnd unchanged".to_string()
                }
            ),
            Rule::CaLinux => {
                let pk = i("cwnd") / i("SMSS").max(1);
                if o("cwnd") > i("cwnd") {
                    format!(
                        "Congestion avoidance (Linux): the ACK counter {} has reached cwnd {} packets: cwnd += 1 packet = {}, counter reset",
                        i("snd_cwnd_cnt"), pk, b(o("cwnd"))
                    )
                } else {
                    format!(
                        "Congestion avoidance (Linux): ACK counter {} < cwnd {} packets: counter = {}, cwnd unchanged",
                        i("snd_cwnd_cnt"), pk, o("snd_cwnd_cnt")
                    )
                }
            }
            Rule::CaBinomial => format!(
                "Binomial increase (k = {}, α = {}): cwnd {} grows by α/w^k per RTT, {} on this ACK → {}",
                format_value(i("k"), Unit::Milli), format_value(i("alpha"), Unit::Milli), b(i("cwnd")),
                b(o("cwnd").saturating_sub(i("cwnd"))), b(o("cwnd"))
            ),
            Rule::CubicEpoch => {
                if o("K") == 0 {
                    format!(
                        "A CUBIC congestion-avoidance epoch begins at cwnd = {}{}: W_max = cwnd_epoch = {}, K = 0 (the cubic starts at its inflection point and only grows faster); W_est = {}",
                        b(i("cwnd")),
                        if i("W_max before") == 0 { " with no loss yet" } else if i("W_max before") <= i("cwnd") { ", at or above the last W_max" } else { " after a timeout" },
                        b(o("W_max")), b(o("W_est"))
                    )
                } else {
                    format!(
                        "A CUBIC congestion-avoidance epoch begins at cwnd = {}: K = ∛((W_max − cwnd_epoch)/C) = ∛(({} − {})/({} SMSS per s³)) = {} to regain W_max; W_est = {}",
                        b(i("cwnd")), b(o("W_max")), b(i("cwnd")),
                        format_value(i("C"), Unit::Milli),
                        format_value(o("K"), Unit::Ns), b(o("W_est"))
                    )
                }
            }
            Rule::CaCubic => {
                let region = match o("region") {
                    2 if o("cwnd") == i("W_est").max(i("cwnd")) => format!("Reno-friendly region (W_cubic(t) = {} < W_est = {}): cwnd = W_est", b(i("W_cubic(t)")), b(i("W_est"))),
                    2 => format!("Reno-friendly region (W_cubic(t) = {} < W_est = {}): cwnd steps toward W_est, the larger of the two steps (Linux)", b(i("W_cubic(t)")), b(i("W_est"))),
                    1 => "convex region (cwnd ≥ W_max): probing beyond the last maximum".to_string(),
                    _ => "concave region (cwnd < W_max): closing in on the last maximum".to_string(),
                };
                format!(
                    "CUBIC, t = {} into the epoch (K = {}, W_max = {}): W_cubic(t + RTT {}) = {}, target = clamp(…, cwnd, 1.5·cwnd); {}; cwnd {} → {}",
                    format_value(i("t"), Unit::Ns), format_value(i("K"), Unit::Ns), b(i("W_max")),
                    format_value(i("RTT"), Unit::Ns), b(i("W_cubic(t+RTT)")), region, b(i("cwnd")), b(o("cwnd"))
                )
            }
            Rule::BbrMaxBw => {
                let al = if i("app-limited") == 1 { " (application-limited, taken because it is higher)" } else { "" };
                if o("BtlBw") >= i("BtlBw before") {
                    format!(
                        "BBR delivery-rate sample: {} delivered in {} = {}{} in round {}: the highest of the last 10 rounds, BtlBw {} → {}",
                        b(i("delivered")), t(i("interval")), format_bps(i("rate")), al, i("round"), format_bps(i("BtlBw before")), format_bps(o("BtlBw"))
                    )
                } else {
                    format!(
                        "BBR: round {}: the old maximum is more than 10 rounds old, so BtlBw falls to the best newer sample, {} → {} (this sample: {} in {} = {})",
                        i("round"), format_bps(i("BtlBw before")), format_bps(o("BtlBw")), b(i("delivered")), t(i("interval")), format_bps(i("rate"))
                    )
                }
            }
            Rule::BbrMinRtt => if i("expired") == 1 && i("RTprop before") != u64::MAX && i("rtt") > i("RTprop before") {
                format!(
                    "BBR: RTprop {} is {} old (over 10 s): it takes the new sample, {}, even though it is higher",
                    t(i("RTprop before")), t(i("age")), t(o("RTprop"))
                )
            } else if i("RTprop before") == u64::MAX {
                format!("BBR's first RTT sample: RTprop = {}", t(o("RTprop")))
            } else {
                format!("BBR: an RTT sample of {} is below the current RTprop: RTprop {} → {}", t(i("rtt")), t(i("RTprop before")), t(o("RTprop")))
            },
            Rule::BbrFullBwCheck => if o("count") == 0 {
                format!(
                    "BBR Startup, round {}: BtlBw {} ≥ 1.25 × {} = {}: still growing, count reset",
                    i("round"), format_bps(i("BtlBw")), format_bps(i("full_bw")), format_bps(i("1.25·full_bw"))
                )
            } else {
                format!(
                    "BBR Startup, round {}: BtlBw {} < 1.25 × {} = {}: {} of 3 rounds without 25 % growth{}",
                    i("round"), format_bps(i("BtlBw")), format_bps(i("full_bw")), format_bps(i("1.25·full_bw")), o("count"),
                    if o("filled pipe") == 1 { ": the pipe is full" } else { "" }
                )
            },
            Rule::BbrFullPipe => format!(
                "BBR: the bandwidth stopped growing for {} rounds at BtlBw = {} (RTprop {}, BDP {}): Startup → Drain, pacing at 1/2.885 of BtlBw to empty the queue Startup built; ssthresh = {}",
                i("rounds"), format_bps(i("BtlBw")), t(i("RTprop")),
                b((i("BtlBw") as u128 * i("RTprop") as u128).div_ceil(8_000_000_000u128) as u64), b(o("ssthresh"))
            ),
            Rule::BbrDrainDone => format!(
                "BBR: {} in flight ≤ BBRInflight(1) = {}: the queue is drained, Drain → ProbeBW, starting at phase {} of the gain cycle (pacing gain {})",
                b(i("in flight")), b(i("BBRInflight(1)")), o("phase"), format_value(o("pacing gain"), Unit::Milli)
            ),
            Rule::BbrCycle => {
                let why = if i("gain before") > 1000 {
                    format!("after {} (> RTprop {}) {}", t(i("elapsed")), t(i("RTprop")),
                        if i("losses") > 0 { "and a loss".to_string() } else { format!("and {} in flight ≥ {}", b(i("in flight")), b(i("target"))) })
                } else if i("gain before") < 1000 && i("elapsed") <= i("RTprop") {
                    format!("early: {} in flight ≤ BBRInflight(1) = {}, the queue is drained", b(i("in flight")), b(i("target")))
                } else {
                    format!("after {} (> RTprop {})", t(i("elapsed")), t(i("RTprop")))
                };
                format!(
                    "BBR ProbeBW: phase {} (gain {}) ends {}: phase {}, pacing gain {}",
                    i("phase before"), format_value(i("gain before"), Unit::Milli), why, o("phase"), format_value(o("pacing gain"), Unit::Milli)
                )
            }
            Rule::BbrProbeRttEnter => format!(
                "BBR: RTprop {} was measured {} ago, more than 10 s: ProbeRTT — cwnd drops to 4 segments for at least 200 ms and a round trip so the queue empties and the path's own RTT shows; cwnd {} saved",
                t(i("RTprop")), t(i("age")), b(o("saved cwnd"))
            ),
            Rule::BbrProbeRttExit => format!(
                "BBR: 200 ms (until {}) and a round trip at 4 segments are over: RTprop is fresh again; cwnd = max({}, saved {}) = {}; {}",
                t(i("done at")), b(i("cwnd before")), b(i("saved cwnd")), b(o("cwnd")),
                if i("filled pipe") == 1 { format!("back to ProbeBW at phase {}", o("phase")) } else { "back to Startup (the pipe was never full)".to_string() }
            ),
            Rule::BbrPacing => format!(
                "BBR pacing rate = pacing gain × BtlBw = {} × {} = {} (was {})",
                format_value(i("pacing gain"), Unit::Milli), format_bps(i("BtlBw")), format_bps(o("pacing rate")), format_bps(i("rate before"))
            ),
            Rule::BbrCwnd => {
                let how = if i("ProbeRTT cap") == 1 {
                    "ProbeRTT caps it at 4 segments".to_string()
                } else if i("filled pipe") == 1 {
                    format!("cwnd = min(cwnd + acked, target) = min({} + {}, {})", b(i("cwnd before")), b(i("acked")), b(i("target")))
                } else {
                    format!("Startup: cwnd + acked = {} + {} while below the target {}", b(i("cwnd before")), b(i("acked")), b(i("target")))
                };
                format!(
                    "BBR cwnd: target = {} × BtlBw {} × RTprop {} + 3 send quanta = {}; {}; cwnd {} → {}",
                    format_value(i("cwnd gain"), Unit::Milli), format_bps(i("BtlBw")), t(i("RTprop")), b(i("target")), how, b(i("cwnd before")), b(o("cwnd"))
                )
            }
            Rule::BbrConservation => format!(
                "BBR, first round of recovery: packet conservation, cwnd = max(cwnd{}, in flight + delivered) = max({}, {} + {}) = {}: a segment leaves only as one is delivered",
                if i("losses") > 0 { " − losses" } else { "" }, b(i("cwnd before")), b(i("in flight")), b(i("delivered")), b(o("cwnd"))
            ),
            Rule::BbrRestore => format!(
                "BBR: recovery is over, cwnd = max({}, the {} saved when it began) = {}",
                b(i("cwnd before")), b(i("saved cwnd")), b(o("cwnd"))
            ),
            Rule::FastRetransmitBbr => format!(
                "Fast retransmit under BBR: duplicate ACK {} resends segment {} ({} in flight); BBR does not cut ssthresh or halve cwnd ({}): it conserves packets for a round and keeps pacing at its model's rate; recovery lasts until {} is acknowledged",
                i("dupacks"), group(i("segment")), b(i("FlightSize")), b(i("cwnd")), group(i("recover"))
            ),
            Rule::BbrPartialAck => format!(
                "Partial ACK {} (recover {}): resend segment {} and stay in recovery{}; BBR sets cwnd",
                group(i("ack")), group(i("recover")), group(i("segment")), if i("restart timer") == 1 { ", restarting the timer" } else { "" }
            ),
            Rule::SsthreshBbr => format!(
                "BBR on a loss: ssthresh stays {}; cwnd {} is saved to restore when recovery ends",
                b(o("ssthresh")), b(o("saved cwnd"))
            ),
            Rule::CwndCap => format!(
                "cwnd would grow from {} to {} but is capped at max_cwnd {}: cwnd = {}",
                b(i("cwnd before")), b(i("cwnd")), b(i("max_cwnd")), b(o("cwnd"))
            ),
            Rule::GateWindowFull => format!(
                "No growth: {} of min(cwnd, rwnd) = {} was in flight when the ACK came, so the window was not full ({})",
                b(i("flight")), b(i("window")),
                if i("slack one_mss") != 0 { "one SMSS of slack allowed" } else { "no slack" }
            ),
            Rule::GateLinux315 => format!(
                "No growth: {} of cwnd {} packets in flight, and the {} unused are too many for TSO to defer: not cwnd-limited",
                i("in_flight"), i("cwnd packets"), i("cwnd packets").saturating_sub(i("in_flight"))
            ),
            Rule::GateLinux316 => if i("cwnd") <= i("ssthresh") {
                format!(
                    "No growth: in slow start cwnd {} packets is not below 2·max_packets_out = 2·{}",
                    i("cwnd packets"), i("max_packets_out")
                )
            } else {
                "No growth: the last send pass was not stopped by cwnd (is_cwnd_limited = 0)".to_string()
            },
            Rule::GateNewCwv => format!(
                "No growth: in the non-validated phase and not cwnd-limited ({} in flight, cwnd {})",
                b(i("flight")), b(i("cwnd"))
            ),
            Rule::SsthreshHalfFlight => format!(
                "ssthresh = max(FlightSize/2, 2·SMSS) = max({}/2, {}) = {}",
                group(i("FlightSize")), group(2 * i("SMSS")), b(o("ssthresh"))
            ),
            Rule::SsthreshHalfCwnd => format!(
                "ssthresh = max(min(cwnd, rwnd)/2, 2·SMSS) = max({}/2, {}) = {}",
                group(i("cwnd").min(i("rwnd"))), group(2 * i("SMSS")), b(o("ssthresh"))
            ),
            Rule::SsthreshNone => format!("No multiplicative decrease: ssthresh stays {}", b(o("ssthresh"))),
            Rule::SsthreshBrTcp => format!(
                "ssthresh from the reserved rate: ⌊{} · {} / (8 · {})⌋ packets (at least 2) · SMSS = {}",
                format_bps(i("reserved rate")), t(i("RTT")), b(i("size")), b(o("ssthresh"))
            ),
            Rule::SsthreshBinomial => format!(
                "Binomial decrease (l = {}, β = {}): ssthresh = w − β·w^l with w = {} → {}",
                format_value(i("l"), Unit::Milli), format_value(i("beta"), Unit::Milli), b(i("window")), b(o("ssthresh"))
            ),
            Rule::SsHystart => format!(
                "{}: cwnd += min(acked {}, 8·SMSS){} → {}",
                if i("CSS") == 1 { "Conservative slow start (HyStart++)" } else { "Slow start (HyStart++)" },
                b(i("acked")), if i("CSS") == 1 { "/4" } else { "" }, b(o("cwnd"))
            ),
            Rule::HystartCssEnter => format!(
                "HyStart++: this round's smallest RTT {} is at least the last round's {} + {} (max(4 ms, min(last/8, 16 ms))): a queue is building, so growth drops to a quarter (conservative slow start) at cwnd = {}",
                t(i("currentRoundMinRTT")), t(i("lastRoundMinRTT")), t(i("RttThresh")), b(i("cwnd"))
            ),
            Rule::HystartCssResume => format!(
                "HyStart++: this round's smallest RTT {} is below the baseline {} it rose from: the rise was noise, slow start resumes at cwnd = {}",
                t(i("currentRoundMinRTT")), t(i("cssBaselineMinRtt")), b(i("cwnd"))
            ),
            Rule::HystartExit => format!(
                "HyStart++: {} rounds of conservative slow start: slow start ends, ssthresh {} → cwnd = {}",
                i("CSS rounds"), b(i("ssthresh")), b(o("ssthresh"))
            ),
            Rule::SsthreshCubic | Rule::SsthreshCubicCwnd => {
                // Fast convergence (RFC 9438 §4.7) said the same way for either base.
                let wmax = if i("fast convergence") == 1 && i("cwnd") < i("W_max before") {
                    format!(
                        "fast convergence: cwnd {} is below the last W_max {}, so W_max = cwnd·(1 + β)/2 = {}",
                        b(i("cwnd")), b(i("W_max before")), b(o("W_max"))
                    )
                } else {
                    format!("W_max = cwnd before the reduction = {}", b(o("W_max")))
                };
                let (what, base, v) = if self.rule == Rule::SsthreshCubic {
                    ("CUBIC decrease", "FlightSize", i("FlightSize"))
                } else {
                    ("CUBIC decrease (Linux)", "cwnd", i("cwnd"))
                };
                format!(
                    "{what}: ssthresh = max({base}·β, 2·SMSS) = max({}·{}, {}) = {}; {}",
                    b(v), format_value(i("beta"), Unit::Milli), b(2 * i("SMSS")), b(o("ssthresh")), wmax
                )
            }
            Rule::SsthreshHold => format!(
                "The timer had already resent this segment: ssthresh stays {}",
                b(o("ssthresh"))
            ),
            Rule::FastRetransmitTahoe => format!(
                "{} duplicate ACKs for segment {}: fast retransmit. ssthresh {} → {}; cwnd = 1 SMSS = {}; resend from snd_una (go back N)",
                ordinal(i("dupacks")), group(i("segment")), b(i("ssthresh")), b(o("ssthresh")), b(o("cwnd"))
            ),
            Rule::FastRetransmit => format!(
                "{} duplicate ACK for segment {}: fast retransmit. ssthresh {} → {}; cwnd = ssthresh = {}; window in force = ssthresh + {}·SMSS = {}; recover = {}",
                ordinal(i("dupacks")), group(i("segment")), b(i("ssthresh")), b(o("ssthresh")), b(o("cwnd")),
                i("dupacks"), b(o("window")), group(o("recover"))
            ),
            Rule::FastRetransmitBr => format!(
                "{} duplicate ACK for segment {}: fast retransmit. ssthresh = {} from the reserved rate; cwnd = ssthresh = {}, no inflation",
                ordinal(i("dupacks")), group(i("segment")), b(o("ssthresh")), b(o("cwnd"))
            ),
            Rule::FastRetransmitSuppressed => format!(
                "{} duplicate ACK at {}, which does not cover more than recover = {}: this window's loss was already handled, no second reduction",
                ordinal(i("dupacks")), group(i("ack")), group(i("recover"))
            ),
            Rule::NewCwvLoss => format!(
                "Loss in the non-validated phase: cwnd = max(pipeACK {}, LossFlightSize {})/2 = {}",
                b(i("pipeACK")), b(i("LossFlightSize")), b(o("cwnd"))
            ),
            Rule::Inflate => format!(
                "Duplicate ACK {} in fast recovery: a segment left the network, window = {} + SMSS = {}",
                i("dupacks"), b(i("window")), b(o("window"))
            ),
            Rule::RenoExit => format!(
                "New ACK {} in fast recovery: Reno leaves it at once (even below recover = {}); cwnd = {} = {} (window {} deflated)",
                group(i("ack")), group(i("recover")), target_name(i("ssthresh"), i("target")), b(o("cwnd")), b(i("window"))
            ),
            Rule::PartialDeflate => format!(
                "Partial ACK {} (below recover = {}): resend segment {}; window = {} − {} acknowledged{} = {}{}",
                group(i("ack")), group(i("recover")), group(i("segment")), group(i("window")), group(i("acked")),
                if i("acked") >= i("SMSS") { format!(" + {}", group(i("SMSS"))) } else { String::new() },
                b(o("window")),
                if o("timer restarted") != 0 { "; timer restarted" } else { "" }
            ),
            Rule::PartialReset => format!(
                "Partial ACK {} (below recover = {}): resend segment {}; window back to cwnd = {}{}",
                group(i("ack")), group(i("recover")), group(i("segment")), b(o("window")),
                if o("timer restarted") != 0 { "; timer restarted" } else { "" }
            ),
            Rule::FullAckMinFlight => format!(
                "Full ACK {} (covers recover = {}): leave fast recovery; cwnd = min({}, max(FlightSize, SMSS) + SMSS) = min({}, max({}, {}) + {}) = {}",
                group(i("ack")), group(i("recover")), target_name(i("ssthresh"), i("target")), group(i("target")),
                group(i("FlightSize")), group(i("SMSS")), group(i("SMSS")), b(o("cwnd"))
            ),
            Rule::FullAckSsthresh => format!(
                "Full ACK {} (covers recover = {}): leave fast recovery; cwnd = {} = {}",
                group(i("ack")), group(i("recover")), target_name(i("ssthresh"), i("target")), b(o("cwnd"))
            ),
            Rule::NewCwvRecoveryEnd => format!(
                "Recovery from a loss in the non-validated phase ends: cwnd = ssthresh = (max(pipeACK {}, LossFlightSize {}) − R {})/2 = {}",
                b(i("pipeACK")), b(i("LossFlightSize")), b(i("R")), b(o("cwnd"))
            ),
            Rule::Timeout => format!(
                "Retransmission timer expired with {} in flight: ssthresh {} → {}; cwnd = {} (loss window); resend segment {} and go back N",
                b(i("FlightSize")), b(i("ssthresh")), b(o("ssthresh")), b(o("cwnd")), group(i("segment"))
            ),
            Rule::Backoff => format!(
                "RTO doubles for the next expiry: min(2·{}, {}) = {} (backoff {})",
                t(i("RTO")), t(i("max RTO")), t(o("RTO")), o("backoffs")
            ),
            Rule::SynTimeout => format!("A SYN was lost: RTO = max({}, 3 s) = {}", t(i("RTO")), t(o("RTO"))),
            Rule::RttFirst => format!(
                "First RTT sample R = {} (segment {}): SRTT = {}, RTTVAR = R/2 = {}, RTO = SRTT + max(G, 4·RTTVAR) = {}",
                t(i("R")), group(i("segment")), t(o("SRTT")), t(o("RTTVAR")), t(o("RTO"))
            ),
            Rule::RttUpdate => format!(
                "RTT sample R = {} (segment {}): RTTVAR = ¾·{} + ¼·|{} − {}| = {}; SRTT = ⅞·{} + ⅛·{} = {}; RTO = {}",
                t(i("R")), group(i("segment")), t(i("RTTVAR")), t(i("SRTT")), t(i("R")), t(o("RTTVAR")),
                t(i("SRTT")), t(i("R")), t(o("SRTT")), t(o("RTO"))
            ),
            Rule::RttJacobson if i("A") == 0 => format!(
                "First RTT sample R = {} (segment {}): mean A = R = {}, deviation D = R/2 = {}; RTO = A + 4·D = {}",
                t(i("R")), group(i("segment")), t(o("A")), t(o("D")), t(o("RTO"))
            ),
            Rule::RttJacobson => format!(
                "RTT sample R = {} (segment {}): mean A {} → {}, deviation D {} → {}; RTO = A + 4·D = {}",
                t(i("R")), group(i("segment")), t(i("A")), t(o("A")), t(i("D")), t(o("D")), t(o("RTO"))
            ),
            Rule::RttRfc793 if i("SRTT") == 0 => format!(
                "First RTT sample R = {} (segment {}): SRTT = R = {}; RTO = β·SRTT = {} (β = {})",
                t(i("R")), group(i("segment")), t(o("SRTT")), t(o("RTO")), format_value(i("beta"), Unit::Milli)
            ),
            Rule::RttRfc793 => format!(
                "RTT sample R = {} (segment {}): SRTT = α·{} + (1 − α)·R = {} (α = {}); RTO = β·SRTT = {} (β = {})",
                t(i("R")), group(i("segment")), t(i("SRTT")), t(o("SRTT")), format_value(i("alpha"), Unit::Milli),
                t(o("RTO")), format_value(i("beta"), Unit::Milli)
            ),
            Rule::Karn => format!(
                "Segment {} is resent while segment {} is being timed: no RTT sample from it (Karn's rule)",
                group(i("resent segment")), group(i("timed segment"))
            ),
            Rule::Restart => format!(
                "Idle for {} > RTO {}: restart with cwnd = min(IW {}, cwnd {}) = {}",
                t(i("idle")), t(i("RTO")), b(i("IW")), b(i("cwnd")), b(o("cwnd"))
            ),
            Rule::CwvIdle => format!(
                "Idle for {} (≥ RTO {}): ssthresh = max({}, ¾·{}) = {}; cwnd halved per RTO elapsed: {} → {}",
                t(i("idle")), t(i("RTO")), b(i("ssthresh")), b(i("cwnd")), b(o("ssthresh")), b(i("cwnd")), b(o("cwnd"))
            ),
            Rule::CwvAppLimited => format!(
                "Application-limited for {} (≥ RTO {}): ssthresh = max({}, ¾·{}) = {}; cwnd = (cwnd + W_used)/2 = ({} + {})/2 = {}",
                t(i("since T_prev")), t(i("RTO")), b(i("ssthresh")), b(i("cwnd")), b(o("ssthresh")),
                group(i("cwnd")), group(i("W_used")), b(o("cwnd"))
            ),
            Rule::NvpEnter => format!(
                "pipeACK {} is less than half of cwnd {}: the window is not validated (non-validated phase)",
                b(i("pipeACK")), b(i("cwnd"))
            ),
            Rule::NvpExit => if i("pipeACK") == u64::MAX {
                format!("pipeACK is undefined after a recovery or a timeout: the window (cwnd {}) counts as validated", b(i("cwnd")))
            } else {
                format!(
                    "pipeACK {} is at least half of cwnd {}: the window is validated again",
                    b(i("pipeACK")), b(i("cwnd"))
                )
            },
            Rule::NvpExpiry => format!(
                "Non-validated for {} (limit {}): ssthresh = max({}, ¾·cwnd) = {}; cwnd = min(cwnd, max(cwnd/2, IW {})) = {}",
                t(i("in NVP")), t(i("NVP limit")), b(i("ssthresh")), b(o("ssthresh")), b(i("IW")), b(o("cwnd"))
            ),
            Rule::Nagle => format!(
                "Nagle: a {} segment (< SMSS {}) waits while {} are unacknowledged",
                b(i("length")), b(i("SMSS")), b(i("unacknowledged"))
            ),
            Rule::LimitedTransmit => format!(
                "Limited Transmit: duplicate ACK {} lets new segment {} leave beyond cwnd {} ({} in flight)",
                i("dupacks"), group(i("segment")), b(i("cwnd")), b(i("flight"))
            ),
            Rule::DelAckHold => format!(
                "Delayed ACK: {} in order unacknowledged (< 2·SMSS = {}), the ACK waits up to {}",
                b(i("unacknowledged")), b(2 * i("SMSS")), t(i("timeout"))
            ),
            Rule::DelAckSecond => format!(
                "Delayed ACK: {} unacknowledged reaches 2·SMSS = {}, ACK at once",
                b(i("unacknowledged")), b(2 * i("SMSS"))
            ),
            Rule::DelAckTimer => format!(
                "Delayed-ACK timer ({}) fired: the ACK for {} leaves",
                t(i("timeout")), b(i("unacknowledged"))
            ),
        };
        format!("{body}{} ({src})", self.rto_bound_note())
    }

    /// For an RTT rule whose RTO came out at a bound: which one.
    fn rto_bound_note(&self) -> &'static str {
        let info = self.info();
        if info.kind != Kind::Rtt || !info.inputs.iter().any(|(n, _)| *n == "min RTO") {
            return "";
        }
        let (rto, lo, hi) = (self.output("RTO"), self.input("min RTO"), self.input("max RTO"));
        // The estimate before the bounds, as each estimator forms it.
        let raw = match self.rule {
            Rule::RttFirst | Rule::RttUpdate => self.output("SRTT") + self.input("G").max(4 * self.output("RTTVAR")),
            Rule::RttJacobson => self.output("A") + 4 * self.output("D"),
            _ => self.output("SRTT") * self.input("beta") / 1000,
        };
        if rto == lo && raw < lo {
            ", raised to the minimum RTO"
        } else if rto == hi && raw > hi {
            ", capped at the maximum RTO"
        } else {
            ""
        }
    }

    /// The decision as JSON (without time and flow).
    pub fn to_json(&self) -> Value {
        let info = self.info();
        let vals = |it: &mut dyn Iterator<Item = (&'static str, Unit, u64)>| -> Vec<Value> {
            it.map(|(n, u, v)| {
                let value = if v == u64::MAX && matches!(u, Unit::Bytes | Unit::Seq | Unit::Ns) {
                    Value::Null
                } else {
                    json!(v)
                };
                json!({"name": n, "unit": u.name(), "value": value, "text": format_value(v, u)})
            })
            .collect()
        };
        json!({
            "rule": info.id,
            "kind": info.kind.name(),
            "title": info.title,
            "source": info.source,
            "formula": info.formula,
            "inputs": vals(&mut self.inputs()),
            "outputs": vals(&mut self.outputs()),
            "from": self.from,
            "to": self.to,
            "text": self.text(),
        })
    }
}

impl Entry {
    /// The entry as JSON: time (s), flow, then the decision's fields.
    pub fn to_json(&self) -> Value {
        let mut v = self.d.to_json();
        let m = v.as_object_mut().expect("object");
        m.insert("t".into(), json!(crate::time::ns_to_secs(self.t)));
        m.insert("flow".into(), json!(self.flow));
        v
    }

    /// The entry as JSON with its sentence also in segments (`text_segments`): of the
    /// decision's own SMSS when it records one, else of `flow_mss` (the flow's).
    pub fn to_json_with_segments(&self, flow_mss: u64) -> Value {
        let smss = self
            .d
            .inputs()
            .find(|&(n, u, v)| n == "SMSS" && u == Unit::Bytes && v > 0)
            .map_or(flow_mss, |(_, _, v)| v);
        let mut v = self.to_json();
        if let Some(m) = v.as_object_mut() {
            m.insert("text_segments".into(), json!(self.d.text_in(ByteUnit::Segments(smss))));
        }
        v
    }

    /// One narrative line: `2.069 s  flow 0  …`.
    pub fn line(&self) -> String {
        format!(
            "{:.6} s  flow {}  {}",
            crate::time::ns_to_secs(self.t),
            self.flow,
            self.d.text()
        )
    }
}

/// What fast recovery worked around: ssthresh, or (no multiplicative decrease) the window
/// the loss found.
fn target_name(ssthresh: u64, target: u64) -> &'static str {
    if ssthresh == target {
        "ssthresh"
    } else {
        "the window at the loss (no decrease: min(cwnd, ssthresh))"
    }
}

fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The terms the page and the explanations use: (id, label, definition).
pub static GLOSSARY: &[(&str, &str, &str)] = &[
    ("cwnd", "cwnd", "Congestion window: how many bytes the sender lets itself have unacknowledged, its estimate of what the path holds."),
    ("ssthresh", "ssthresh", "Slow-start threshold: below it cwnd grows exponentially (slow start), above it linearly (congestion avoidance). A loss sets it to about half the window."),
    ("flight", "flight size", "FlightSize: the bytes sent and not yet acknowledged (snd_nxt − snd_una)."),
    ("inflated", "inflated window", "The window in force during fast recovery: ssthresh plus one SMSS per duplicate ACK, since each one means a segment has left the network."),
    ("smss", "SMSS", "Sender maximum segment size: the largest payload of one segment."),
    ("rto", "RTO", "Retransmission timeout: how long the sender waits for an ACK before it resends, computed from SRTT and RTTVAR and doubled by each timeout."),
    ("srtt", "SRTT", "Smoothed round-trip time: a moving average of the RTT samples."),
    ("rttvar", "RTTVAR", "Round-trip time variation: a moving average of how far samples stray from SRTT."),
    ("dupack", "duplicate ACK", "An ACK that acknowledges nothing new, sent when a segment arrives out of order: a hint that one was lost."),
    ("partial_ack", "partial ACK", "During NewReno's fast recovery, an ACK for some but not all of the data outstanding when the loss was detected: the next hole is resent at once."),
    ("full_ack", "full ACK", "An ACK that covers everything outstanding when fast recovery began (recover): recovery ends."),
    ("recover", "recover", "The highest sequence number sent when a loss response began; duplicate ACKs below it do not trigger a second one (RFC 6582)."),
    ("fast_retransmit", "fast retransmit", "Resending a segment after three duplicate ACKs, without waiting for the timer."),
    ("fast_recovery", "fast recovery", "Reno's and NewReno's phase after a fast retransmit, when new data keeps flowing on an inflated window instead of restarting slow start."),
    ("slow_start", "slow start", "cwnd grows by one SMSS per ACK, so it doubles every round trip, until it reaches ssthresh."),
    ("congestion_avoidance", "congestion avoidance", "cwnd grows by about one SMSS per round trip (SMSS·SMSS/cwnd per ACK)."),
    ("timeout", "timeout", "The retransmission timer expired: cwnd falls to one segment and everything unacknowledged is resent from the first hole (go back N)."),
    ("karn", "Karn's rule", "No RTT sample is taken from a segment that was retransmitted: its ACK might answer either copy."),
    ("backoff", "backoff", "Each timeout doubles the RTO until a fresh RTT sample is taken."),
    ("w_used", "W_used", "RFC 2861: the most data outstanding while the application did not fill the window."),
    ("pipeack", "pipeACK", "RFC 7661: the most data acknowledged in one round trip over the last few RTTs, the part of cwnd actually in use."),
    ("nvp", "non-validated phase", "RFC 7661: pipeACK is below half of cwnd, so cwnd is not known to be safe; it is kept, not grown."),
    ("abc", "ABC", "Appropriate Byte Counting (RFC 3465): cwnd grows by the bytes acknowledged instead of per ACK, so delayed ACKs do not slow it."),
    ("limited_transmit", "Limited Transmit", "RFC 3042: on the first two duplicate ACKs, send a new segment each, so a small window still gets three duplicates."),
    ("delayed_ack", "delayed ACK", "The receiver acknowledges every second segment, or after a short timer, instead of every one."),
    ("nagle", "Nagle", "RFC 896: a segment smaller than SMSS waits while earlier data is unacknowledged."),
    ("rwnd", "rwnd", "Receiver window: the most the receiver accepts unacknowledged; the sender uses min(cwnd, rwnd)."),
    ("iw", "IW", "Initial window: cwnd at the start, and after restarting from idle."),
    ("go_back_n", "go back N", "After a timeout (or Tahoe's fast retransmit) the sender resends from the first unacknowledged segment onward."),
    ("w_max", "W_max", "CUBIC: the window just before the last reduction (lowered by fast convergence); the cubic curve regains it K seconds after the reduction, then probes beyond it."),
    ("w_est", "W_est", "CUBIC: the window Reno would have reached since the reduction; CUBIC never grows more slowly than it (the Reno-friendly region)."),
    ("delivery_rate", "delivery rate", "BBR: data delivered per unit of time between a segment's sending and its ACK, measured on every ACK."),
    ("btl_bw", "BtlBw", "BBR's estimate of the bottleneck bandwidth: the highest delivery rate of the last 10 round trips."),
    ("rtprop", "RTprop", "BBR's estimate of the path's round-trip time without queueing: the lowest RTT of the last 10 s."),
    ("bdp", "BDP", "Bandwidth-delay product, BtlBw × RTprop: how much data the path itself holds, queues aside."),
    ("pacing_rate", "pacing rate", "The rate at which a paced sender releases segments, one segment's wire time apart; BBR sets it to pacing gain × BtlBw."),
    ("pacing_gain", "pacing gain", "BBR's multiplier of BtlBw for the pacing rate: 2.885 in Startup, 1/2.885 in Drain, 1.25, 0.75 and 1 in ProbeBW's cycle."),
    ("bbr_startup", "Startup", "BBR's first state: pacing at 2.885 × BtlBw doubles the rate each round until the bandwidth stops growing."),
    ("bbr_drain", "Drain", "BBR's state after Startup: pacing below BtlBw until the queue Startup built is gone."),
    ("bbr_probe_bw", "ProbeBW", "BBR's steady state: the pacing gain cycles 1.25, 0.75 and six rounds of 1, probing for more bandwidth and draining what the probe queued."),
    ("bbr_probe_rtt", "ProbeRTT", "BBR's state when RTprop is 10 s old: 4 segments in flight for 200 ms and a round, so the queue empties and the path's own RTT shows."),
];

/// The rule table as JSON (for the page and `cwndlab explain --rules`).
pub fn rules_json() -> Value {
    let fields =
        |f: &[(&str, Unit)]| -> Vec<Value> { f.iter().map(|(n, u)| json!({"name": n, "unit": u.name()})).collect() };
    json!({
        "glossary": GLOSSARY.iter().map(|(t, l, d)| json!({"term": t, "label": l, "definition": d})).collect::<Vec<_>>(),
        "kinds": Kind::ALL.iter().map(|k| json!({"id": k.name(), "description": k.description()})).collect::<Vec<_>>(),
        "rules": RULES.iter().map(|r| json!({
            "id": r.id,
            "kind": r.kind.name(),
            "title": r.title,
            "source": r.source,
            "formula": r.formula,
            "inputs": fields(r.inputs),
            "outputs": fields(r.outputs),
        })).collect::<Vec<_>>(),
    })
}

/// Where two runs first differ: the first decision, in the order made, that is not the
/// same in both (time, flow, rule, inputs and outputs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The instant: the earlier of the two differing decisions' times.
    pub t: Ns,
    /// How many decisions the runs share before it.
    pub common: usize,
    /// Run A's decisions at that instant, from the first that differs (empty: none then).
    pub a: Vec<Entry>,
    /// Run B's, likewise.
    pub b: Vec<Entry>,
}

impl Divergence {
    /// As JSON.
    pub fn to_json(&self) -> Value {
        json!({
            "t": crate::time::ns_to_secs(self.t),
            "common": self.common,
            "a": self.a.iter().map(Entry::to_json).collect::<Vec<_>>(),
            "b": self.b.iter().map(Entry::to_json).collect::<Vec<_>>(),
        })
    }
}

/// Runs `a` and `b` side by side with explanations and returns their first divergence,
/// or None when every decision of the two runs is the same. The runs advance together a
/// stretch of simulated time at a time and stop at the first difference, so an early
/// divergence costs little.
pub fn first_divergence(a: &crate::Scenario, b: &crate::Scenario) -> Option<Divergence> {
    use crate::sim::{Recording, Simulation};
    let mut sa = Simulation::new(a).explained();
    let mut sb = Simulation::new(b).explained();
    // Only the decisions are compared: keep no trace rows.
    sa.set_recording(Recording::Summary { digest: false });
    sb.set_recording(Recording::Summary { digest: false });
    let step = crate::time::NS_PER_S / 4;
    let mut compared = 0;
    loop {
        sa.advance(step);
        sb.advance(step);
        let (da, db) = (sa.decisions(), sb.decisions());
        let n = da.len().min(db.len());
        let done = sa.is_finished() && sb.is_finished();
        let common = compared
            + da.range(compared, n)
                .zip(db.range(compared, n))
                .take_while(|(x, y)| x == y)
                .count();
        compared = common;
        if common < n || (done && da.len() != db.len()) {
            let t = match (da.get(common), db.get(common)) {
                (Some(x), Some(y)) => x.t.min(y.t),
                (Some(x), None) => x.t,
                (None, Some(y)) => y.t,
                (None, None) => unreachable!("lengths differ"),
            };
            let at = |d: &Decisions| d.range(common, d.len()).take_while(|e| e.t == t).collect();
            return Some(Divergence {
                t,
                common,
                a: at(&da),
                b: at(&db),
            });
        }
        if done {
            return None;
        }
    }
}

/// The rule reference as Markdown (docs/rules.md is generated from it).
pub fn markdown() -> String {
    let fields = |f: &[(&str, Unit)]| -> String {
        if f.is_empty() {
            return "—".into();
        }
        f.iter()
            .map(|(n, u)| format!("{n} ({})", u.name()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = String::from(
        "# Rule reference\n\n<!-- Generated from engine/core/src/explain.rs: run \
         `CWNDLAB_UPDATE_DOCS=1 cargo test -p cwndlab-core --lib explain` after changing a rule. -->\n\n\
         Every decision the engine explains names one of these rules (`cwndlab rules` lists them; \
         `cwndlab explain --rule ID` selects one). How explanations are made: \
         [explanations.md](explanations.md).\n",
    );
    for k in Kind::ALL {
        out.push_str(&format!("\n## {} — {}\n\n", k.name(), k.description()));
        out.push_str("| id | rule | source | formula | inputs | outputs |\n|---|---|---|---|---|---|\n");
        for r in RULES.iter().filter(|r| r.kind == k) {
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | {} | {} |\n",
                r.id,
                r.title,
                r.source,
                r.formula.replace('|', "\\|"),
                fields(r.inputs),
                fields(r.outputs)
            ));
        }
    }
    out.push_str("\n## Glossary\n\n| term | meaning |\n|---|---|\n");
    for (_, label, def) in GLOSSARY {
        out.push_str(&format!("| {label} | {def} |\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_counts_in_segments_to_the_hundredth() {
        assert_eq!(format_segments(7_000, 1_000), "7 segments");
        assert_eq!(format_segments(1_000, 1_000), "1 segment");
        assert_eq!(format_segments(10_950, 1_460), "7.5 segments");
        assert_eq!(format_segments(1_461, 1_460), "1 segment");
        assert_eq!(format_segments(14_600 * 1_000, 1_460), "10 000 segments");
        assert_eq!(format_segments(1_000, 3_000), "0.33 segments");
        assert_eq!(format_segments(u64::MAX, 1_460), "∞");
        assert_eq!(format_segments(500, 0), "500 B");
    }

    #[test]
    fn a_sentence_in_segments_names_the_same_counts() {
        // Fall & Floyd's Reno at its timeout (3.281 s): 7 segments of 1 000 B in flight.
        let mut values = [0u64; MAX_VALUES];
        values[..7].copy_from_slice(&[26, 7_000, 7_000, 7_000, 1_000, 3_000, 32_000]);
        let d = Decision {
            rule: Rule::Timeout,
            from: 1,
            to: 4,
            values,
        };
        assert!(d.text().starts_with(
            "Retransmission timer expired with 7 000 B in flight: ssthresh 7 000 B → 3 000 B; cwnd = 1 000 B (loss window); resend segment 26"
        ));
        assert!(d.text_in(ByteUnit::Segments(1_000)).starts_with(
            "Retransmission timer expired with 7 segments in flight: ssthresh 7 segments → 3 segments; cwnd = 1 segment (loss window); resend segment 26"
        ));
        assert_eq!(d.text_in(ByteUnit::Bytes), d.text());
        // The JSON has both: the decision's own SMSS when it records one, else the flow's.
        let e = Entry {
            t: 3_281_080_000,
            flow: 0,
            d,
        };
        let v = e.to_json_with_segments(1_000);
        assert_eq!(v["text"], json!(d.text()));
        assert_eq!(v["text_segments"], json!(d.text_in(ByteUnit::Segments(1_000))));
    }

    #[test]
    fn the_rule_reference_is_up_to_date() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/rules.md");
        if std::env::var_os("CWNDLAB_UPDATE_DOCS").is_some() {
            std::fs::write(path, markdown()).unwrap();
        }
        let doc = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            doc == markdown(),
            "docs/rules.md is stale: run `CWNDLAB_UPDATE_DOCS=1 cargo test -p cwndlab-core --lib explain`"
        );
    }

    #[test]
    fn rule_ids_are_unique_and_fit_the_value_array() {
        let mut ids: Vec<_> = RULES.iter().map(|r| r.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), RULES.len());
        assert_eq!(Rule::ALL.len(), RULES.len());
        for r in RULES {
            assert!(r.inputs.len() + r.outputs.len() <= MAX_VALUES, "{}", r.id);
        }
        for &r in Rule::ALL {
            assert_eq!(Rule::parse(r.info().id), Some(r));
        }
    }

    #[test]
    fn a_log_keeps_each_decisions_values_read_in_the_runs_order() {
        let mut log = DecisionLog::default();
        log.push_array(Rule::CaPerAck, 2, 2, [10, 5, 1, 11]);
        log.push_array(Rule::Karn, 2, 2, [7, 8]);
        assert_eq!(log.stamp(), Some((0, 2)));
        assert_eq!(log.stamp(), None, "nothing open");
        log.push_array(Rule::SsthreshNone, 1, 1, [9, 9]);
        assert_eq!(log.stamp(), Some((2, 1)));
        let e: Vec<Entry> = (0..3).map(|i| log.get(i, 3).unwrap()).collect();
        assert_eq!((e[0].flow, &e[0].d.values[..5]), (3, &[10, 5, 1, 11, 0][..]));
        assert_eq!((e[1].d.rule, &e[1].d.values[..3]), (Rule::Karn, &[7, 8, 0][..]));
        assert_eq!(&e[2].d.values[..3], &[9, 9, 0][..]);
        // Read through an order of batches, as a run's decisions are.
        let order = [
            Order {
                t: 200,
                cum: 0,
                endpoint: 7,
                first: 2,
            },
            Order {
                t: 100,
                cum: 1,
                endpoint: 7,
                first: 0,
            },
        ];
        let d = Decisions {
            order: &order,
            logs: vec![&log; 8],
            total: 3,
        };
        let all: Vec<Entry> = d.iter().collect();
        assert_eq!(
            (all[0].t, all[0].flow, all[1].t, all[2].d.rule),
            (200, 3, 100, Rule::Karn)
        );
        assert_eq!(d.time_flow(2), Some((100, 3, Rule::Karn)));
        assert_eq!(d.range(1, 99).count(), 2);
        // Many decisions cross chunk boundaries whole.
        let mut big = DecisionLog::default();
        for k in 0..5000u64 {
            big.push_array(Rule::RttUpdate, 2, 2, [k; 11]);
        }
        assert_eq!(big.get(4999, 0).unwrap().d.values[10], 4999);
        assert_eq!(
            big.get(745, 0).unwrap().d.values,
            [745, 745, 745, 745, 745, 745, 745, 745, 745, 745, 745, 0]
        );
    }

    #[test]
    fn values_format_in_the_docs_style() {
        assert_eq!(format_value(14_600, Unit::Bytes), "14 600 B");
        assert_eq!(format_value(u64::MAX, Unit::Bytes), "∞");
        assert_eq!(format_value(1_500, Unit::Milli), "1.5");
        assert_eq!(format_ns(200_000_000), "200 ms");
        assert_eq!(format_ns(1_234_567), "1.235 ms");
        assert_eq!(format_ns(64_000_000_000), "64 s");
        assert_eq!(ordinal(3), "3rd");
        assert_eq!(ordinal(12), "12th");
    }

    #[test]
    fn the_fast_retransmit_text_shows_the_arithmetic() {
        let mut w = Why {
            on: true,
            log: DecisionLog::default(),
        };
        w.push(Rule::SsthreshHalfFlight, 2, 2, &[14_600, 1_460, 20_000, 7_300]);
        let d = w.log.get(0, 0).unwrap().d;
        assert_eq!(
            d.text(),
            "ssthresh = max(FlightSize/2, 2·SMSS) = max(14 600/2, 2 920) = 7 300 B (RFC 5681 §3.1 eq. (4))"
        );
        assert_eq!(d.input("FlightSize"), 14_600);
        assert_eq!(d.output("ssthresh"), 7_300);
    }
}
