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
//!
//! This file holds the rule table (each rule's id, kind, source, formula, inputs and
//! outputs) and the record types; beside it, one job each: `text.rs` the wording of every
//! rule, `format.rs` how values are written, `log.rs` where records are kept and read back
//! (`DecisionLog`, `Why`), `json.rs` records and the rule table as JSON, `glossary.rs` the
//! terms, `doc.rs` docs/rules.md.

use crate::time::Ns;

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

mod doc;
mod format;
mod glossary;
mod json;
mod log;
mod text;

pub use doc::markdown;
pub use format::{format_ns, format_segments, format_value, ByteUnit};
pub use glossary::GLOSSARY;
pub use json::rules_json;
pub use log::{DecisionLog, Decisions, Order, Why};

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
}

#[cfg(test)]
mod tests {
    use super::format::ordinal;
    use super::*;
    use serde_json::json;

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
