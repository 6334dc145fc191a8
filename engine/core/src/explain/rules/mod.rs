//! The rules, by mechanism: each file holds its rules' rows and sentences, a `rule!` row
//! followed by the rule's `words`. The list below gives every rule's place in [`Rule`]
//! (a rule's index is part of the decision digests: rules added later go last) and the file
//! that holds it.
//!
//! A row names the rule's id, kind, title, source and formula, then its inputs and outputs:
//! each an identifier, the display name when it differs (`smss = "SMSS"`: the name in JSON,
//! the CLI and docs/rules.md), and a unit. From it `rule!` makes a module of the same name
//! (re-exported in [`view`]): its `INFO` (the [`RuleInfo`] in [`RULES`]), `In` and `Out`
//! with the recorded values as fields, and `of(&decision)`. The rule's sentence is a
//! function on those fields (`impl SsAckCounting::In { fn words(i, o, w) }`): `i` its
//! inputs, `o` its outputs, `w` how values are written ([`W`]). A value the rule does not
//! record does not compile, nor does a rule without a sentence.

use super::format::{format_bps, group, ordinal, target_name};
use super::{format_ns, format_segments, format_value, ByteUnit, Decision, RuleInfo, Unit};

/// The display name of a recorded value: its identifier, or the name written beside it.
macro_rules! value_name {
    ($id:ident) => {
        stringify!($id)
    };
    ($id:ident $name:literal) => {
        $name
    };
}

/// One rule's row: its [`RuleInfo`] and its typed values, in a module named after it.
macro_rules! rule {
    ($name:ident = $id:literal, $kind:ident, $title:literal, $source:literal, $formula:literal,
        [$($iid:ident $(= $iname:literal)? : $iunit:ident),* $(,)?]
        => [$($oid:ident $(= $oname:literal)? : $ounit:ident),* $(,)?] $(,)?) => {
        #[doc = concat!("`", $id, "`: ", $title, ".")]
        #[allow(non_snake_case)]
        pub mod $name {
            use crate::explain::{Decision, Kind, Rule, RuleInfo, Unit};

            /// The rule's row.
            pub const INFO: RuleInfo = RuleInfo {
                id: $id,
                kind: Kind::$kind,
                title: $title,
                source: $source,
                formula: $formula,
                inputs: &[$((value_name!($iid $($iname)?), Unit::$iunit)),*],
                outputs: &[$((value_name!($oid $($oname)?), Unit::$ounit)),*],
            };

            #[doc = concat!("The inputs of `", $id, "`, in recording order.")]
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub struct In {
                $(#[doc = concat!("`", value_name!($iid $($iname)?), "`")] pub $iid: u64,)*
            }

            #[doc = concat!("The outputs of `", $id, "`, in recording order.")]
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub struct Out {
                $(#[doc = concat!("`", value_name!($oid $($oname)?), "`")] pub $oid: u64,)*
            }

            /// The decision's inputs and outputs (it must be of this rule: a decision of
            /// another rule panics, naming both).
            pub fn of(d: &Decision) -> (In, Out) {
                assert!(d.rule == Rule::$name, "a {} decision read as {}", d.rule.info().id, $id);
                let mut v = d.values.iter().copied();
                let mut next = || v.next().expect("a rule records at most MAX_VALUES values");
                let i = In { $($iid: next(),)* };
                let o = Out { $($oid: next(),)* };
                (i, o)
            }
        }
    };
}

/// The list of rules: [`Rule`] in order, [`RULES`], [`view`] and the call to each rule's
/// sentence.
macro_rules! rules {
    ($( $(#[$doc:meta])* $name:ident in $file:ident; )*) => {
        /// A rule of the engine: every decision names one.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Rule {
            $( $(#[$doc])* $name, )*
        }

        /// Every rule's description, in [`Rule`] order.
        pub static RULES: &[RuleInfo] = &[$($file::$name::INFO),*];

        impl Rule {
            /// Every rule, in code order.
            pub const ALL: &'static [Rule] = &[$(Rule::$name),*];
        }

        /// Each rule's recorded values as named fields: `view::SsAckCounting::of(&d)` gives
        /// the decision's inputs and outputs, so the wording (and a test) reads `i.cwnd`,
        /// `o.cwnd`, and a name the rule does not record does not compile.
        pub mod view {
            $(pub use super::$file::$name;)*
        }

        impl Decision {
            /// The rule's sentence (without its source).
            pub(super) fn words(&self, w: &W) -> String {
                match self.rule {
                    $(Rule::$name => {
                        let (i, o) = $file::$name::of(self);
                        $file::$name::In::words(&i, &o, w)
                    })*
                }
            }
        }
    };
}

mod aqm;
mod bbr;
mod cubic;
mod ecn;
mod endpoint;
mod increase;
mod loss;
mod sack;
mod textbook;
mod timer;
mod validation;

/// How a sentence writes the values it names.
pub(crate) struct W {
    /// The unit of the byte counts it names.
    pub(crate) unit: ByteUnit,
}

impl W {
    /// A byte count, in bytes or segments.
    pub(crate) fn b(&self, v: u64) -> String {
        match self.unit {
            ByteUnit::Bytes => format_value(v, Unit::Bytes),
            ByteUnit::Segments(smss) => format_segments(v, smss),
        }
    }

    /// A duration.
    pub(crate) fn t(&self, v: u64) -> String {
        format_ns(v)
    }
}

rules! {
    /// Slow start, one SMSS per new ACK.
    SsAckCounting in increase;
    /// Slow start with RFC 3465 byte counting.
    SsAbc in increase;
    /// Linux 3.x slow start.
    SsLinux in increase;
    /// No slow start (4.3BSD before Jacobson 1988).
    SsNone in increase;
    /// Congestion avoidance, SMSS²/cwnd per ACK.
    CaPerAck in increase;
    /// Congestion avoidance with byte counting.
    CaByteCounting in increase;
    /// Linux 3.x congestion avoidance counter.
    CaLinux in increase;
    /// Binomial increase.
    CaBinomial in increase;
    /// The configured cwnd cap.
    CwndCap in increase;
    /// RFC 2861 §2 gate refused growth.
    GateWindowFull in validation;
    /// Linux ≤ 3.15 gate refused growth.
    GateLinux315 in validation;
    /// Linux 3.16 gate refused growth.
    GateLinux316 in validation;
    /// RFC 7661 refused growth in the non-validated phase.
    GateNewCwv in validation;
    /// ssthresh = max(FlightSize/2, 2·SMSS).
    SsthreshHalfFlight in loss;
    /// ssthresh = max(min(cwnd, rwnd)/2, 2·SMSS).
    SsthreshHalfCwnd in loss;
    /// No multiplicative decrease.
    SsthreshNone in loss;
    /// BR-TCP's reserved-rate ssthresh.
    SsthreshBrTcp in loss;
    /// Binomial decrease.
    SsthreshBinomial in loss;
    /// A repeated timeout keeps ssthresh.
    SsthreshHold in loss;
    /// Tahoe's fast retransmit.
    FastRetransmitTahoe in loss;
    /// Reno/NewReno fast retransmit and fast recovery.
    FastRetransmit in loss;
    /// BR-TCP's literal response.
    FastRetransmitBr in loss;
    /// The recover guard suppressed a second response.
    FastRetransmitSuppressed in loss;
    /// New CWV's loss response in the NVP.
    NewCwvLoss in validation;
    /// Window inflation in fast recovery.
    Inflate in loss;
    /// Reno leaves fast recovery on the first new ACK.
    RenoExit in loss;
    /// NewReno partial ACK, RFC 6582 deflation.
    PartialDeflate in loss;
    /// NewReno partial ACK, ns-2 reset.
    PartialReset in loss;
    /// NewReno full ACK, min with the flight.
    FullAckMinFlight in loss;
    /// NewReno full ACK, cwnd = ssthresh.
    FullAckSsthresh in loss;
    /// New CWV's window at the end of a recovery from an NVP loss.
    NewCwvRecoveryEnd in validation;
    /// A retransmission timeout.
    Timeout in timer;
    /// RTO backoff.
    Backoff in timer;
    /// SYN lost: RTO at least 3 s.
    SynTimeout in timer;
    /// First RFC 6298 sample.
    RttFirst in timer;
    /// Later RFC 6298 sample.
    RttUpdate in timer;
    /// Jacobson 1988 estimator.
    RttJacobson in timer;
    /// RFC 793 estimator.
    RttRfc793 in timer;
    /// Karn's rule.
    Karn in timer;
    /// Restart after idle.
    Restart in validation;
    /// RFC 2861 idle decay.
    CwvIdle in validation;
    /// RFC 2861 application-limited decay.
    CwvAppLimited in validation;
    /// New CWV enters the NVP.
    NvpEnter in validation;
    /// New CWV leaves the NVP.
    NvpExit in validation;
    /// New CWV's NVP time limit.
    NvpExpiry in validation;
    /// Nagle holds a small segment.
    Nagle in endpoint;
    /// Limited Transmit sends beyond cwnd.
    LimitedTransmit in endpoint;
    /// Delayed ACK held.
    DelAckHold in endpoint;
    /// Delayed ACK: every second segment.
    DelAckSecond in endpoint;
    /// Delayed ACK timer fired.
    DelAckTimer in endpoint;
    // Rules added later go last: a rule's index is part of the decision digests.
    /// HyStart++'s slow-start increase.
    SsHystart in increase;
    /// HyStart++ sees the RTT rise: conservative slow start.
    HystartCssEnter in increase;
    /// HyStart++: the rise was spurious.
    HystartCssResume in increase;
    /// HyStart++ ends slow start.
    HystartExit in increase;
    /// CUBIC's decrease from cwnd (Linux, ns-3).
    SsthreshCubicCwnd in cubic;
    /// A CUBIC congestion-avoidance epoch begins.
    CubicEpoch in cubic;
    /// CUBIC's window increase.
    CaCubic in cubic;
    /// CUBIC's multiplicative decrease and W_max.
    SsthreshCubic in cubic;
    /// BBR's bandwidth filter takes a new maximum (or loses an old one).
    BbrMaxBw in bbr;
    /// BBR's minimum-RTT filter changes.
    BbrMinRtt in bbr;
    /// Once per round in Startup: has the bandwidth stopped growing?
    BbrFullBwCheck in bbr;
    /// Startup ends: Drain.
    BbrFullPipe in bbr;
    /// Drain ends: ProbeBW.
    BbrDrainDone in bbr;
    /// ProbeBW's gain cycle moves on.
    BbrCycle in bbr;
    /// RTprop is 10 s old: ProbeRTT.
    BbrProbeRttEnter in bbr;
    /// ProbeRTT ends.
    BbrProbeRttExit in bbr;
    /// The pacing rate changes.
    BbrPacing in bbr;
    /// cwnd toward gain × BDP.
    BbrCwnd in bbr;
    /// Packet conservation in the first round of recovery.
    BbrConservation in bbr;
    /// cwnd restored at the end of recovery.
    BbrRestore in bbr;
    /// BBR's fast retransmit.
    FastRetransmitBbr in bbr;
    /// BBR's partial ACK.
    BbrPartialAck in bbr;
    /// BBR's ssthresh on a loss: kept; cwnd saved.
    SsthreshBbr in bbr;
    SackRecovery in sack;
    SackNextSeg in sack;
    PrrSend in sack;
    SackRecoveryExit in sack;
    RackLost in sack;
    TlpProbe in sack;
    TlpRepaired in sack;
    /// RED drops an arrival.
    RedDrop in aqm;
    /// CoDel drops a departing packet.
    CodelDrop in aqm;
    /// FQ-CoDel's queue drops a departing packet.
    FqCodelDrop in aqm;
    /// FQ-CoDel cuts its fattest queue.
    FqCodelOverflow in aqm;
    /// PIE drops an arrival.
    PieDrop in aqm;
    /// The textbook model's first round.
    TextbookStart in textbook;
    /// The textbook model's slow start.
    TextbookSlowStart in textbook;
    /// The textbook model's congestion avoidance.
    TextbookCongestionAvoidance in textbook;
    /// The textbook model's triple duplicate ACK, Kurose & Ross.
    TextbookTripleDupKr in textbook;
    /// The textbook model's triple duplicate ACK, RFC 5681 read per round.
    TextbookTripleDupRfc in textbook;
    /// The textbook model's triple duplicate ACK, Tahoe.
    TextbookTripleDupTahoe in textbook;
    /// The textbook model's timeout.
    TextbookTimeout in textbook;
    /// RED marks an arrival CE.
    RedMark in ecn;
    /// CoDel marks a departing packet CE.
    CodelMark in ecn;
    /// The step queue marks an arrival CE.
    StepMark in ecn;
    /// An ECN-Echo reduces the window.
    EcnReduce in ecn;
    /// DCTCP updates α.
    DctcpAlpha in ecn;
    /// DCTCP cuts the window by α/2.
    DctcpCut in ecn;
    /// PIE marks an arrival CE.
    PieMark in ecn;
    /// FQ-CoDel's queue marks a departing packet CE.
    FqCodelMark in ecn;
    /// An ECN-Echo ACK does not grow the window.
    EcnNoGrowth in ecn;
    /// The receiver starts echoing ECE.
    EcnEchoStart in ecn;
    /// CWR: the receiver stops echoing ECE.
    EcnEchoStop in ecn;
    /// DCTCP's receiver: the CE state changed.
    DctcpEcho in ecn;
}
