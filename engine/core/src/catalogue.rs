//! The catalogue of named algorithms: each a loss-recovery variant plus values of the other
//! congestion-control axes, with a display name and a one-line description. The CLI
//! (`cwndlab algorithms`), the wasm API, the web app's picker and the link format all read
//! this one list.
//!
//! A scenario names an entry with `flows[].algorithm`: the entry's settings are applied to
//! the flow before any explicit key, so `{"algorithm": "newreno_cwv", "cc": {"full_window_slack":
//! "none"}}` is CWV with the literal full-window test. After loading, `algorithm` is
//! rewritten to the entry the resolved settings match (the most specific one), or `custom`
//! when none does or when the flow is rather a changed other entry (`identify`: CUBIC with
//! another C is not `newreno`), so an output never claims a name its settings contradict.

use serde_json::{json, Value};

/// A setting's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SettingValue {
    /// An enum choice.
    Str(&'static str),
    /// A whole number.
    Int(u64),
    /// A number.
    Num(f64),
    /// true / false.
    Bool(bool),
}

impl std::fmt::Display for SettingValue {
    /// As written on a command line (`--set path=value`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SettingValue::Str(s) => f.write_str(s),
            SettingValue::Int(n) => write!(f, "{n}"),
            SettingValue::Num(x) => write!(f, "{x}"),
            SettingValue::Bool(b) => write!(f, "{b}"),
        }
    }
}

impl SettingValue {
    /// As JSON.
    pub fn to_json(self) -> Value {
        match self {
            SettingValue::Str(s) => json!(s),
            SettingValue::Int(n) => json!(n),
            SettingValue::Num(x) => json!(x),
            SettingValue::Bool(b) => json!(b),
        }
    }
}

/// One named algorithm.
#[derive(Debug)]
pub struct Algorithm {
    /// Name used in scenarios, links and on the command line.
    pub name: &'static str,
    /// Display name.
    pub label: &'static str,
    /// Group in the picker.
    pub group: &'static str,
    /// One line on what it is.
    pub description: &'static str,
    /// Flow settings it implies, as (path inside a flow, value).
    pub settings: &'static [(&'static str, SettingValue)],
}

/// The name of "no catalogue entry".
pub const CUSTOM: &str = "custom";

impl Algorithm {
    /// Whether the entry is an operating system's sender (a profile: one implementation's
    /// timers, counters, units and defaults, the Linux, FreeBSD and 4.3BSD entries) rather
    /// than an algorithm. A profile has no rules of its own ([`rules`]): its settings describe
    /// the sender a scenario is about, so a comparison keeps them (docs/algorithms.md).
    pub fn is_profile(&self) -> bool {
        matches!(self.group, PROFILES | BEFORE_1988)
    }
}

use SettingValue::{Bool, Int, Num, Str};

const CLASSIC: &str = "Classic loss recovery";
const VALIDATION: &str = "Idle and application-limited senders (NewReno)";
const RESERVED: &str = "Reserved bandwidth";
const PROFILES: &str = "Operating-system senders (thin streams)";
const BINOMIAL: &str = "Binomial controls (NewReno loss detection)";
const BEFORE_1988: &str = "Before and after Jacobson 1988 (4.3BSD)";
const INTERNET: &str = "The Internet's algorithms today";
const SACK: &str = "Loss recovery as deployed today (SACK, PRR, RACK-TLP)";

/// A 4.3BSD sender, one Jacobson 1988 mechanism at a time (docs/algorithms.md, "Before
/// 1988", says where each value comes from): slow start or not, congestion avoidance (the
/// halved ssthresh on a timeout) or not, the RFC 793 timer or mean + 4·deviation. Timeouts
/// are the only loss signal, the timer ticks every 500 ms (PR_SLOWHZ = 2), RTOs lie in
/// 1…64 s, an unmeasured RTO is 3 s, every timeout recomputes ssthresh and cwnd never grows
/// past TCP_MAXWIN (65535 bytes), as BSD does.
macro_rules! bsd_4_3 {
    ($slow_start:expr, $ssthresh:expr, $estimator:expr) => {
        &[
            ("variant", Str("old_tahoe")),
            ("cc.idle_policy", Str("none")),
            ("cc.growth_gate", Str("always")),
            ("cc.units", Str("bytes")),
            ("cc.slow_start", Str($slow_start)),
            ("cc.congestion_avoidance", Str("per_ack")),
            ("cc.ssthresh_rule", Str($ssthresh)),
            ("cc.repeated_rto_ssthresh", Str("halve_again")),
            ("cc.max_cwnd", Int(65535)),
            ("rto.estimator", Str($estimator)),
            ("rto.rfc793_alpha", Num(0.9)),
            ("rto.rfc793_beta", Num(2.0)),
            ("rto.clock_tick", Num(0.5)),
            ("rto.min", Num(1.0)),
            ("rto.max", Num(64.0)),
            ("rto.initial", Num(3.0)),
        ]
    };
}

/// A binomial control (source 004 §3.2) with α = 1, β = ½ on NewReno's loss detection.
macro_rules! binomial {
    ($k:expr, $l:expr) => {
        &[
            ("variant", Str("newreno")),
            ("cc.idle_policy", Str("none")),
            ("cc.growth_gate", Str("always")),
            ("cc.binomial", Bool(true)),
            ("cc.binomial_k", Num($k)),
            ("cc.binomial_l", Num($l)),
            ("cc.binomial_alpha", Num(1.0)),
            ("cc.binomial_beta", Num(0.5)),
        ]
    };
}

/// What the Linux 3.x profiles share (source 004 §4; docs/algorithms.md, "Sender profiles",
/// says where each value comes from). Nagle is off, as in the paper's tests (TCP_NODELAY).
macro_rules! linux_3x {
    ($gate:expr) => {
        &[
            ("variant", Str("newreno")),
            ("cc.units", Str("segments")),
            ("cc.slow_start", Str("linux")),
            ("cc.congestion_avoidance", Str("linux_counter")),
            ("cc.ssthresh_rule", Str("half_cwnd")),
            ("cc.idle_policy", Str("none")),
            ("cc.growth_gate", Str($gate)),
            ("cc.header_in_window", Bool(false)),
            ("tcp.initial_window", Int(10)),
            ("tcp.nagle", Bool(false)),
            ("rto.min", Num(0.2)),
            ("rto.initial", Num(1.0)),
            ("receiver.delayed_ack", Bool(true)),
            ("receiver.delack_timeout", Num(0.04)),
            // What these kernels had on by default (docs/algorithms.md, "Sender profiles",
            // cites the source lines): SACK with D-SACK, PRR's slow-start bound, and
            // tcp_early_retrans = 3 (early retransmit and tail loss probes). Their packets in
            // flight leave out what SACKs reported, which lets new data out on the first
            // duplicates (RFC 3042's effect).
            ("sack.enabled", Bool(true)),
            ("sack.budget", Str("prr_ssrb")),
            ("sack.tlp", Bool(true)),
            ("sack.early_retransmit", Bool(true)),
            ("cc.limited_transmit", Bool(true)),
        ]
    };
}

/// CUBIC (RFC 9438) on NewReno's loss detection and recovery, a full ACK leaving cwnd =
/// ssthresh (§4.6), with C, β and the three choices where Linux differs from the RFC
/// (docs/algorithms.md, "CUBIC").
macro_rules! cubic {
    ($c:expr, $beta:expr, $from:expr, $rtt:expr, $growth:expr) => {
        &[
            ("variant", Str("newreno")),
            ("cc.idle_policy", Str("none")),
            ("cc.growth_gate", Str("always")),
            ("cc.congestion_avoidance", Str("cubic")),
            ("cc.ssthresh_rule", Str("cubic")),
            ("cc.newreno_full_ack", Str("ssthresh")),
            ("cc.cubic_c", Num($c)),
            ("cc.cubic_beta", Num($beta)),
            ("cc.cubic_fast_convergence", Bool(true)),
            ("cc.cubic_reno_friendly", Bool(true)),
            ("cc.cubic_ssthresh_from", Str($from)),
            ("cc.cubic_rtt", Str($rtt)),
            ("cc.cubic_growth", Str($growth)),
        ]
    };
}

/// NewReno's increase and decrease with SACK-based recovery (RFC 6675), sending in recovery by
/// `budget`, and the detectors `extra` names (docs/algorithms.md, "SACK-based loss recovery").
macro_rules! newreno_sack {
    ($budget:expr $(, $extra:expr)* $(,)?) => {
        &[
            ("variant", Str("newreno")),
            ("cc.idle_policy", Str("none")),
            ("cc.growth_gate", Str("always")),
            ("sack.enabled", Bool(true)),
            ("sack.budget", Str($budget)),
            $(($extra, Bool(true)),)*
        ]
    };
}

/// What a Linux host sends with by default (`cubic_linux_today`), and `extra` settings.
macro_rules! linux_today {
    ($($extra:expr),* $(,)?) => {
        &[
            ("variant", Str("newreno")),
            ("cc.idle_policy", Str("none")),
            ("cc.growth_gate", Str("always")),
            ("cc.congestion_avoidance", Str("cubic")),
            ("cc.ssthresh_rule", Str("cubic")),
            ("cc.newreno_full_ack", Str("ssthresh")),
            ("cc.cubic_c", Num(0.4004)),
            ("cc.cubic_beta", Num(0.7002)),
            ("cc.cubic_fast_convergence", Bool(true)),
            ("cc.cubic_reno_friendly", Bool(true)),
            ("cc.cubic_ssthresh_from", Str("cwnd")),
            ("cc.cubic_rtt", Str("min_rtt")),
            ("cc.cubic_growth", Str("linux")),
            ("cc.slow_start", Str("hystart_pp")),
            ("cc.limited_transmit", Bool(true)),
            ("tcp.initial_window", Int(10)),
            ("rto.min", Num(0.2)),
            ("receiver.delayed_ack", Bool(true)),
            ("receiver.delack_timeout", Num(0.04)),
            ("sack.enabled", Bool(true)),
            ("sack.budget", Str("prr_ssrb")),
            ("sack.rack", Bool(true)),
            ("sack.tlp", Bool(true)),
            $($extra,)*
        ]
    };
}

/// Every entry, in picker order (new entries go last: an entry's place is its colour on the
/// page).
pub static CATALOGUE: &[Algorithm] = &[
    Algorithm {
        name: "old_tahoe",
        label: "Old Tahoe",
        group: CLASSIC,
        description: help!("Jacobson 1988: slow start and congestion avoidance; a retransmission timeout is the only loss signal."),
        settings: &[("variant", Str("old_tahoe")), ("cc.idle_policy", Str("none")), ("cc.growth_gate", Str("always"))],
    },
    Algorithm {
        name: "tahoe",
        label: "Tahoe",
        group: CLASSIC,
        description: help!("Adds fast retransmit: on the 3rd duplicate ACK, ssthresh = half, cwnd = 1 segment, go back N."),
        settings: &[("variant", Str("tahoe")), ("cc.idle_policy", Str("none")), ("cc.growth_gate", Str("always"))],
    },
    Algorithm {
        name: "reno",
        label: "Reno",
        group: CLASSIC,
        description: help!("Adds fast recovery (RFC 5681 §3.2): cwnd = ssthresh, inflated by one segment per further duplicate ACK; any new ACK ends recovery."),
        settings: &[("variant", Str("reno")), ("cc.idle_policy", Str("none")), ("cc.growth_gate", Str("always"))],
    },
    Algorithm {
        name: "newreno",
        label: "NewReno",
        group: CLASSIC,
        description: help!("RFC 6582: stays in fast recovery until everything sent before the loss is acknowledged, resending one hole per partial ACK. cwnd survives idle periods."),
        settings: &[("variant", Str("newreno")), ("cc.idle_policy", Str("none")), ("cc.growth_gate", Str("always"))],
    },
    Algorithm {
        name: "newreno_restart",
        label: "NewReno + restart",
        group: VALIDATION,
        description: help!("NewReno with restart after idle (RFC 5681 §4.1, Jacobson 1988 app. C): after more than an RTO without sending, cwnd = min(cwnd, IW)."),
        settings: &[("variant", Str("newreno")), ("cc.idle_policy", Str("restart")), ("cc.growth_gate", Str("always"))],
    },
    Algorithm {
        name: "newreno_cwv",
        label: "NewReno + CWV",
        group: VALIDATION,
        description: help!("NewReno with Congestion Window Validation (RFC 2861): cwnd halves per idle RTO and decays toward the window used while application-limited; ssthresh keeps ¾ of the old cwnd; no growth unless the window is full."),
        settings: &[("variant", Str("newreno")), ("cc.idle_policy", Str("rfc2861")), ("cc.growth_gate", Str("window_full"))],
    },
    Algorithm {
        name: "newreno_newcwv",
        label: "NewReno + new CWV",
        group: VALIDATION,
        description: help!("NewReno with new CWV (RFC 7661): cwnd is kept while the sender is rate-limited (up to a time limit), does not grow then, and a loss in that phase reduces it from the rate actually used (pipeACK)."),
        settings: &[("variant", Str("newreno")), ("cc.idle_policy", Str("rfc7661")), ("cc.growth_gate", Str("always"))],
    },
    Algorithm {
        name: "br_tcp",
        label: "BR-TCP",
        group: RESERVED,
        description: help!("Komuro et al. 2006: on a loss, ssthresh = the reserved rate's bandwidth-delay product instead of half the window (needs the flow's reserved bandwidth)."),
        settings: &[("variant", Str("br_tcp")), ("cc.idle_policy", Str("none")), ("cc.growth_gate", Str("always"))],
    },
    Algorithm {
        name: "binomial_aimd",
        label: "Binomial AIMD (k 0, l 1)",
        group: BINOMIAL,
        description: help!("Additive increase (α/w^0 = 1 packet per RTT), multiplicative decrease (β·w = half the window): TCP's own control written as a binomial one."),
        settings: binomial!(0.0, 1.0),
    },
    Algorithm {
        name: "binomial_iiad",
        label: "Binomial IIAD (k 1, l 0)",
        group: BINOMIAL,
        description: help!("Inverse increase (1/w packets per RTT), additive decrease (β = ½ packet per loss): a window that hardly moves, for streaming media."),
        settings: binomial!(1.0, 0.0),
    },
    Algorithm {
        name: "binomial_sqrt",
        label: "Binomial SQRT (k ½, l ½)",
        group: BINOMIAL,
        description: help!("Increase 1/√w packets per RTT, decrease ½·√w packets per loss: between AIMD and IIAD, still TCP-compatible (k + l = 1)."),
        settings: binomial!(0.5, 0.5),
    },
    Algorithm {
        name: "linux_3_15",
        label: "Linux 3.15-like",
        group: PROFILES,
        description: help!("Segment-based cwnd (packets, whatever their size), Linux slow start and ACK counter, grows while the packets in flight fill cwnd (tcp_is_cwnd_limited before 3.16); IW 10, minimum RTO 200 ms, Nagle off."),
        settings: linux_3x!("linux_3_15"),
    },
    Algorithm {
        name: "linux_3_18",
        label: "Linux 3.18-like",
        group: PROFILES,
        description: help!("As Linux 3.15, but with the 3.16 growth test (commit ca8a22): in congestion avoidance cwnd grows only if the sender was cwnd-limited, which a thin stream rarely is."),
        settings: linux_3x!("linux_3_16"),
    },
    Algorithm {
        name: "freebsd_10",
        label: "FreeBSD 10-like",
        group: PROFILES,
        description: help!("Byte-based cwnd with Appropriate Byte Counting (RFC 3465, L = 2, L = 1 after a timeout), so small segments share cwnd by their bytes; IW 10, initial RTO 3 s, Nagle off."),
        settings: &[
            ("variant", Str("newreno")),
            ("cc.units", Str("bytes")),
            ("cc.slow_start", Str("abc")),
            ("cc.abc_limit", Int(2)),
            ("cc.congestion_avoidance", Str("byte_counting")),
            ("cc.ssthresh_rule", Str("half_cwnd")),
            ("cc.idle_policy", Str("none")),
            ("cc.growth_gate", Str("always")),
            ("cc.header_in_window", Bool(false)),
            ("tcp.initial_window", Int(10)),
            ("tcp.nagle", Bool(false)),
            ("rto.min", Num(0.03)),
            ("rto.initial", Num(3.0)),
            ("receiver.delayed_ack", Bool(true)),
            ("receiver.delack_timeout", Num(0.1)),
            // FreeBSD 10: SACK on (net.inet.tcp.sack.enable), no D-SACK reports, RFC 3042 on
            // (tcp_do_rfc3042), no PRR, no tail loss probe (docs/algorithms.md).
            ("sack.enabled", Bool(true)),
            ("sack.dsack", Bool(false)),
            ("cc.limited_transmit", Bool(true)),
        ],
    },
    Algorithm {
        name: "bsd_4_3",
        label: "4.3BSD (before 1988)",
        group: BEFORE_1988,
        description: help!("The TCP Jacobson 1988 starts from: no slow start (the whole window leaves at once, at the start and after every timeout, go back N), no congestion avoidance (the window never shrinks), the RFC 793 timer (2 × smoothed RTT)."),
        settings: bsd_4_3!("none", "none", "rfc793"),
    },
    Algorithm {
        name: "bsd_4_3_ss",
        label: "4.3BSD + slow start",
        group: BEFORE_1988,
        description: help!("4.3BSD with slow start only: after every timeout cwnd restarts at one segment and doubles per RTT back to the receiver's window, which it never halves; RFC 793 timer."),
        settings: bsd_4_3!("ack_counting", "none", "rfc793"),
    },
    Algorithm {
        name: "bsd_4_3_ca",
        label: "4.3BSD + congestion avoidance",
        group: BEFORE_1988,
        description: help!("4.3BSD with congestion avoidance only: a timeout halves the window (ssthresh) and the sender opens it to that at once, then adds one segment per RTT; no slow start; RFC 793 timer."),
        settings: bsd_4_3!("none", "half_cwnd", "rfc793"),
    },
    Algorithm {
        name: "bsd_4_3_ss_ca",
        label: "4.3BSD + slow start + CA, old timer",
        group: BEFORE_1988,
        description: help!("Jacobson 1988's window algorithms (slow start and congestion avoidance combined, appendix B) with the RFC 793 timer still in place: only the timer differs from jacobson_88."),
        settings: bsd_4_3!("ack_counting", "half_cwnd", "rfc793"),
    },
    Algorithm {
        name: "jacobson_88",
        label: "Jacobson 1988 (4.3BSD-Tahoe)",
        group: BEFORE_1988,
        description: help!("All of Jacobson 1988 on 4.3BSD: slow start, congestion avoidance and the mean + 4·deviation timer (appendix A) with Karn's rule and exponential backoff, on 500 ms timer ticks; timeouts are the only loss signal."),
        settings: bsd_4_3!("ack_counting", "half_cwnd", "jacobson88"),
    },
    Algorithm {
        name: "cubic",
        label: "CUBIC",
        group: INTERNET,
        description: help!("RFC 9438: after a loss the window follows a cubic of the time since, C·(t − K)³ + W_max, regaining the last maximum W_max in K seconds and then probing beyond it, never slower than Reno (W_est); a loss takes it to 0.7 of the flight. NewReno's loss recovery; standard slow start (no HyStart++)."),
        settings: cubic!(0.4, 0.7, "flight", "srtt", "rfc"),
    },
    Algorithm {
        name: "cubic_linux",
        label: "CUBIC (Linux-like)",
        group: INTERNET,
        description: help!("CUBIC's rules as Linux's tcp_cubic.c (and ns-3's TcpCubic) apply them: ssthresh = 0.7·cwnd (β = 717/1024), the cubic read one minimum RTT ahead, and at least 5 % growth per RTT while no W_max is known. Standard slow start (no HyStart), NewReno's recovery."),
        settings: cubic!(0.4004, 0.7002, "cwnd", "min_rtt", "linux"),
    },
    Algorithm {
        name: "bbr",
        label: "BBR v1",
        group: INTERNET,
        description: help!("BBR version 1 (draft-cardwell-00, Linux 4.9): a model of the path instead of a reaction to loss. The bottleneck bandwidth (the highest delivery rate of the last 10 round trips) and RTprop (the lowest RTT of the last 10 s) set a pacing rate and cwnd = gain × BDP: Startup at 2.885×, Drain, ProbeBW cycling 1.25, 0.75, 1…, ProbeRTT at 4 segments every 10 s. Segments are paced; NewReno's loss recovery, as Linux's without SACK."),
        settings: &[
            ("variant", Str("newreno")),
            ("cc.controller", Str("bbr")),
            ("cc.idle_policy", Str("none")),
            ("cc.growth_gate", Str("always")),
            // Linux's packets in flight leave out what duplicate ACKs reported: one or two
            // duplicates let as many new segments out (RFC 3042's effect).
            ("cc.limited_transmit", Bool(true)),
        ],
    },
    Algorithm {
        name: "newreno_sack",
        label: "NewReno + SACK (RFC 6675)",
        group: SACK,
        description: help!("Fall & Floyd's fifth variant, as RFC 6675 writes it today: the receiver reports up to 3 blocks it holds above a hole; the sender keeps a scoreboard, deems a segment lost once 3 segments above it are SACKed (IsLost), and in recovery resends every hole it knows of while cwnd − pipe allows, instead of one hole per round trip. cwnd = ssthresh = FlightSize/2 for the whole recovery (Limited Transmit stays the scenario's choice)."),
        settings: newreno_sack!("rfc6675"),
    },
    Algorithm {
        name: "newreno_sack_prr",
        label: "NewReno + SACK + PRR",
        group: SACK,
        description: help!("SACK recovery whose sending is paced by Proportional Rate Reduction (RFC 6937, Linux since 3.2): each ACK lets out about ssthresh/RecoverFS of what it delivered, so the window comes down to ssthresh smoothly over the recovery instead of a silence then a burst; below ssthresh the slow-start bound lets it climb back."),
        settings: newreno_sack!("prr_ssrb"),
    },
    Algorithm {
        name: "newreno_rack_tlp",
        label: "NewReno + SACK + PRR + RACK-TLP",
        group: SACK,
        description: help!("Loss detection by time (RFC 8985): a segment is lost once a later-sent one was delivered RACK.rtt + min RTT/4 ago, however few duplicate ACKs came, and a reordered segment gets that long to arrive; a tail loss probe 2·SRTT after the last ACK draws the SACKs that repair a lost tail without a timeout. PRR sends in recovery."),
        settings: newreno_sack!("prr_ssrb", "sack.rack", "sack.tlp"),
    },
    Algorithm {
        name: "bbr_sack",
        label: "BBR v1 + SACK + RACK-TLP",
        group: SACK,
        description: help!("BBR v1 as Linux runs it with SACK (4.10 and later): the same model and pacing, over SACK-based loss detection (the scoreboard, RACK and tail loss probes) instead of NewReno's one hole per round trip. A segment counts as delivered when it is first SACKed, so the delivery rate does not wait for a hole to be filled; in recovery BBR sets the window itself (packet conservation for a round, then the window it had), not PRR."),
        settings: &[
            ("variant", Str("newreno")),
            ("cc.controller", Str("bbr")),
            ("cc.idle_policy", Str("none")),
            ("cc.growth_gate", Str("always")),
            ("cc.limited_transmit", Bool(true)),
            ("sack.enabled", Bool(true)),
            ("sack.budget", Str("rfc6675")),
            ("sack.rack", Bool(true)),
            ("sack.tlp", Bool(true)),
        ],
    },
    Algorithm {
        name: "cubic_linux_today",
        label: "CUBIC as Linux runs it today",
        group: SACK,
        description: help!("What a Linux host sends with by default: CUBIC as tcp_cubic.c computes it, HyStart++ slow start (RFC 9406), SACK recovery with PRR, RACK-TLP loss detection, initial window 10, minimum RTO 200 ms, and a receiver that delays ACKs (40 ms)."),
        settings: linux_today!(),
    },
    Algorithm {
        name: "dctcp",
        label: "DCTCP",
        group: INTERNET,
        description: help!("Data Center TCP (RFC 8257; Linux tcp_dctcp.c): ECN always on; the receiver echoes each segment's CE mark exactly, the sender keeps α, the smoothed fraction of its bytes that were marked (g = 1/16, α starting at 1), and once per window with marks cuts cwnd by α/2 instead of half. Reno's slow start and congestion avoidance, NewReno's loss recovery; a loss still halves. Meant for a queue that marks at a shallow threshold (the step queue)."),
        settings: &[
            ("variant", Str("newreno")),
            ("cc.idle_policy", Str("none")),
            ("cc.growth_gate", Str("always")),
            ("ecn", Str("dctcp")),
        ],
    },
    Algorithm {
        name: "cubic_linux_ecn",
        label: "CUBIC as Linux runs it today, with ECN",
        group: SACK,
        description: help!("cubic_linux_today with ECN negotiated (RFC 3168; Linux's net.ipv4.tcp_ecn = 1): data packets are ECN-capable, a queue that manages itself marks them CE instead of dropping them, the receiver echoes ECE until the sender's CWR, and the sender answers a marked window as it would a loss, CUBIC's 0.7, once per round trip, without resending anything."),
        settings: linux_today!(("ecn", Str("rfc3168"))),
    },
];

/// Looks an entry up by name.
pub fn find(name: &str) -> Option<&'static Algorithm> {
    CATALOGUE.iter().find(|a| a.name == name)
}

/// Writes an entry's settings into a flow object (a JSON object, partial or complete).
pub fn apply(flow: &mut Value, alg: &Algorithm) {
    for (path, value) in alg.settings {
        crate::scenario::set_dotted(flow, path, value.to_json());
    }
}

/// Renames a resolved flow object's algorithm to `alg`: what the flow's earlier entry set
/// and `alg` does not name goes back to its default (so `newreno` after `cubic` or `bbr`
/// keeps neither CUBIC's rules nor BBR's controller), then `alg` is applied. Settings no
/// entry names (the segment size, a preset's own choices) stay.
pub fn switch_to(flow: &mut Value, alg: &Algorithm) {
    if let Some(old) = find(identify(flow)).or_else(|| nearest(flow)) {
        let defaults = crate::schema::flow_defaults_ref();
        for (p, _) in old.settings {
            if alg.settings.iter().all(|(q, _)| q != p) {
                if let Some(d) = crate::scenario::get_path(defaults, p) {
                    crate::scenario::set_dotted(flow, p, d.clone());
                }
            }
        }
    }
    apply(flow, alg);
}

/// Whether a flow's value at `path` is the entry's `want`. Numbers compare by value: a
/// scenario written by JavaScript has `1` where the entry says `1.0`.
fn same(have: Option<&Value>, want: &Value) -> bool {
    match (have, want.as_f64()) {
        (Some(h), Some(w)) => h.as_f64() == Some(w),
        (h, _) => h == Some(want),
    }
}

/// The catalogue as `identify` reads it, made once: every path an entry names, and per entry
/// its settings as (path index, value, whether the value differs from the schema's default:
/// a setting that sets the entry apart, like CUBIC's congestion avoidance or Reno's variant).
struct Index {
    paths: Vec<&'static str>,
    entries: Vec<Vec<(usize, Value, bool)>>,
}

fn index() -> &'static Index {
    static INDEX: std::sync::OnceLock<Index> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let mut at: std::collections::HashMap<&'static str, usize> = std::collections::HashMap::new();
        let mut paths: Vec<&'static str> = Vec::new();
        let settings: Vec<Vec<(usize, Value)>> = CATALOGUE
            .iter()
            .map(|a| {
                a.settings
                    .iter()
                    .map(|(path, v)| {
                        let i = *at.entry(path).or_insert_with(|| {
                            paths.push(path);
                            paths.len() - 1
                        });
                        (i, v.to_json())
                    })
                    .collect()
            })
            .collect();
        // Each named path's default, in one pass over the schema.
        let mut defaults: Vec<Option<Value>> = vec![None; paths.len()];
        for p in crate::schema::params() {
            if let Some(&i) = p.path.strip_prefix("flows[].").and_then(|rest| at.get(rest)) {
                defaults[i] = Some(crate::schema::default_value(p));
            }
        }
        let entries = settings
            .into_iter()
            .map(|list| {
                list.into_iter()
                    .map(|(i, want)| {
                        let apart = !same(defaults[i].as_ref(), &want);
                        (i, want, apart)
                    })
                    .collect()
            })
            .collect();
        Index { paths, entries }
    })
}

/// The position of an entry in the catalogue.
fn position(alg: &Algorithm) -> usize {
    CATALOGUE
        .iter()
        .position(|a| a.name == alg.name)
        .expect("a catalogue entry")
}

/// An entry's rules: its settings whose value differs from the schema's default (CUBIC's
/// congestion avoidance, ssthresh rule and full-ACK choice; DCTCP's ECN), as (path, value);
/// none for a profile ([`Algorithm::is_profile`]). What a flow must carry in full for a
/// comparison to take the entry's settings off it ([`carried`]).
pub fn rules(alg: &Algorithm) -> Vec<(&'static str, Value)> {
    if alg.is_profile() {
        return Vec::new();
    }
    let ix = index();
    ix.apart(position(alg))
        .map(|(i, want)| (ix.paths[i], want.clone()))
        .collect()
}

/// The algorithms whose rules a flow object (as a scenario holds it, partial or complete)
/// carries in full: every entry, profiles aside, that has rules and whose every rule the flow
/// has. A compared run of another entry takes their settings back to the defaults
/// (`scenario::runs::run_value`), so that a changed CUBIC (C = 0.2, `custom`) compared with
/// Reno gives Reno, not Reno's variant on CUBIC's congestion avoidance.
pub fn carried(flow: &Value) -> Vec<&'static Algorithm> {
    let ix = index();
    let vals = values(ix, flow);
    CATALOGUE
        .iter()
        .enumerate()
        .filter(|(k, a)| {
            let (shared, total) = distinctive(ix, &vals, *k);
            !a.is_profile() && total > 0 && shared == total
        })
        .map(|(_, a)| a)
        .collect()
}

impl Index {
    /// Entry `k`'s settings that set it apart from the defaults (its rules), as (path index,
    /// value).
    fn apart(&self, k: usize) -> impl Iterator<Item = (usize, &Value)> {
        self.entries[k]
            .iter()
            .filter(|(_, _, apart)| *apart)
            .map(|(i, want, _)| (*i, want))
    }
}

/// A flow's values at the index's paths.
fn values<'a>(ix: &Index, flow: &'a Value) -> Vec<Option<&'a Value>> {
    ix.paths.iter().map(|p| crate::scenario::get_path(flow, p)).collect()
}

/// Of entry `k`'s settings that set it apart from the defaults, how many the flow has, and
/// how many there are.
fn distinctive(ix: &Index, vals: &[Option<&Value>], k: usize) -> (usize, usize) {
    ix.apart(k).fold((0, 0), |(shared, total), (i, want)| {
        (shared + usize::from(same(vals[i], want)), total + 1)
    })
}

/// Whether a flow that matches entry `best` (with `own` of its distinctive settings) is
/// rather a changed entry `k`: it has more than half of `k`'s distinctive settings and more
/// of them than of `best`'s, and `k` does not refine `best` (name every distinctive setting
/// of a `best` that has some). Fall & Floyd's Reno, with four of Jacobson 1988's eight,
/// stays Reno; their Old Tahoe, with five, stays Old Tahoe (Jacobson 1988 is Old Tahoe with
/// its timers); CUBIC with another C is CUBIC's three rules on `newreno`, which has none of
/// its own: custom.
fn rather(ix: &Index, vals: &[Option<&Value>], k: usize, best: usize, own: usize) -> bool {
    let (shared, total) = distinctive(ix, vals, k);
    if shared <= own || 2 * shared <= total {
        return false;
    }
    let refines = ix
        .apart(best)
        .all(|(i, want)| ix.entries[k].iter().any(|(j, w, _)| *j == i && w == want));
    own == 0 || !refines
}

/// The entry a resolved flow object matches: every setting equal, the most specific entry
/// (most settings) first, catalogue order among equals; `custom` when none matches, and
/// when the flow is rather a changed other entry (`rather`: a CUBIC flow with its C changed
/// is no longer `cubic`, and not `newreno` either, whose few settings it still matches). A
/// preset's own choice that an entry also names (NewReno counting segments, as the Linux
/// entries do) leaves the name as it is.
pub fn identify(flow: &Value) -> &'static str {
    let ix = index();
    let vals = values(ix, flow);
    let mut best: Option<usize> = None;
    for (k, settings) in ix.entries.iter().enumerate() {
        if settings.iter().all(|(i, want, _)| same(vals[*i], want))
            && best.is_none_or(|b| settings.len() > ix.entries[b].len())
        {
            best = Some(k);
        }
    }
    let Some(best) = best else { return CUSTOM };
    let own = distinctive(ix, &vals, best).0;
    if (0..ix.entries.len()).any(|k| k != best && rather(ix, &vals, k, best, own)) {
        return CUSTOM;
    }
    CATALOGUE[best].name
}

/// The entry a flow is nearest to, matched or not: the most of its distinctive settings
/// (then the most specific, then catalogue order); None when the flow has none of any
/// entry's. What `switch_to` clears when the flow is `custom`.
fn nearest(flow: &Value) -> Option<&'static Algorithm> {
    let ix = index();
    let vals = values(ix, flow);
    let mut best: Option<(usize, usize)> = None;
    for k in 0..ix.entries.len() {
        let n = distinctive(ix, &vals, k).0;
        if n > 0 && best.is_none_or(|(b, m)| n > m || (n == m && ix.entries[k].len() > ix.entries[b].len())) {
            best = Some((k, n));
        }
    }
    best.map(|(k, _)| &CATALOGUE[k])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    #[test]
    fn setting_an_algorithm_clears_what_the_last_one_set_and_keeps_the_rest() {
        let mut doc = crate::scenario::resolve(
            &serde_json::json!({"flows": [{"algorithm": "bbr", "cc": {"units": "segments"}}]}),
        )
        .unwrap();
        crate::scenario::set_path(&mut doc, "flows[0].algorithm", Value::String("newreno".into())).unwrap();
        let s = Scenario::from_value(&doc).unwrap();
        let cc = &s.flows[0].cc;
        assert_eq!(
            cc.controller,
            crate::scenario::Controller::Window,
            "BBR's controller is cleared"
        );
        assert!(!cc.limited_transmit, "and the Limited Transmit it turned on");
        assert_eq!(
            cc.units,
            crate::scenario::Units::Segments,
            "a setting no entry names stays"
        );
        assert_eq!(identify(&doc["flows"][0]), "newreno");
        // CUBIC's rules go too; an entry that names a superset keeps the flow's own choices.
        let mut doc = crate::scenario::resolve(&serde_json::json!({"flows": [{"algorithm": "cubic"}]})).unwrap();
        crate::scenario::set_path(&mut doc, "flows[].algorithm", Value::String("newreno".into())).unwrap();
        let s = Scenario::from_value(&doc).unwrap();
        assert_eq!(
            s.flows[0].cc.congestion_avoidance,
            crate::scenario::CongAvoidRule::PerAck
        );
        assert_eq!(s.flows[0].cc.ssthresh_rule, crate::scenario::SsthreshRule::HalfFlight);
        let mut doc =
            crate::scenario::resolve(&serde_json::json!({"flows": [{"cc": {"full_window_slack": "none"}}]})).unwrap();
        crate::scenario::set_path(&mut doc, "flows[0].algorithm", Value::String("newreno_cwv".into())).unwrap();
        let s = Scenario::from_value(&doc).unwrap();
        assert_eq!(s.flows[0].cc.full_window_slack, crate::scenario::FullWindowSlack::None);
        assert_eq!(s.flows[0].cc.idle_policy, crate::scenario::IdlePolicy::Rfc2861);
    }

    #[test]
    fn names_are_unique_and_each_entry_identifies_itself() {
        let mut names: Vec<&str> = CATALOGUE.iter().map(|a| a.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), CATALOGUE.len());
        for a in CATALOGUE {
            // BR-TCP needs a reserved rate; no other entry reads it.
            let s = Scenario::from_value(&json!({"flows": [{"algorithm": a.name, "reserved_bandwidth": 1_000_000}]}))
                .unwrap_or_else(|e| panic!("{}: {e:?}", a.name));
            assert_eq!(s.flows[0].algorithm, a.name);
        }
    }

    #[test]
    fn an_algorithm_has_its_distinctive_settings_as_rules_and_a_profile_none() {
        let names = |a: &str| rules(find(a).unwrap()).into_iter().map(|(p, _)| p).collect::<Vec<_>>();
        assert_eq!(
            names("cubic"),
            ["cc.congestion_avoidance", "cc.ssthresh_rule", "cc.newreno_full_ack"]
        );
        assert_eq!(names("reno"), ["variant"]);
        assert!(names("newreno").is_empty(), "NewReno is the defaults");
        for a in CATALOGUE.iter().filter(|a| a.is_profile()) {
            assert!(rules(a).is_empty(), "{}", a.name);
        }
        assert!(find("linux_3_15").unwrap().is_profile() && find("jacobson_88").unwrap().is_profile());
        assert!(!find("cubic_linux_today").unwrap().is_profile());
        // A flow carries an algorithm when it has every one of its rules: CUBIC with another
        // C carries CUBIC (and nothing else: Linux's CUBIC has its own C among its rules);
        // a Linux 3.15 flow carries none (a profile has no rules; the SACK entries' rules are
        // the comparison's own selector keys).
        let flow = |v: Value| Scenario::from_value(&json!({"flows": [v]})).unwrap().to_value()["flows"][0].clone();
        let of = |v: Value| carried(&flow(v)).iter().map(|a| a.name).collect::<Vec<_>>();
        assert_eq!(of(json!({"algorithm": "cubic", "cc": {"cubic_c": 0.2}})), ["cubic"]);
        assert!(!of(json!({"algorithm": "linux_3_15"}))
            .iter()
            .any(|n| n.starts_with("linux")));
        assert!(of(json!({"algorithm": "newreno", "cc": {"newreno_full_ack": "ssthresh"}})).is_empty());
    }

    #[test]
    fn numbers_match_by_value_whatever_their_json_spelling() {
        // JavaScript writes 1.0 as 1 and 0.0 as 0.
        let s = Scenario::from_json_str(
            r#"{"flows": [{"variant": "newreno", "cc": {"binomial": true, "binomial_k": 0, "binomial_l": 1,
                "binomial_alpha": 1, "binomial_beta": 0.5}}]}"#,
        )
        .unwrap();
        assert_eq!(s.flows[0].algorithm, "binomial_aimd");
    }

    #[test]
    fn explicit_keys_override_the_entry_and_the_name_follows_the_settings() {
        let s = Scenario::from_value(&json!({"flows": [{"algorithm": "newreno_cwv",
            "cc": {"full_window_slack": "none"}}]}))
        .unwrap();
        assert_eq!(
            s.flows[0].algorithm, "newreno_cwv",
            "slack is not one of the entry's settings"
        );
        let s = Scenario::from_value(&json!({"flows": [{"algorithm": "newreno_cwv",
            "cc": {"growth_gate": "always"}}]}))
        .unwrap();
        assert_eq!(s.flows[0].algorithm, CUSTOM, "rfc2861 without the gate is no entry");
        let s = Scenario::from_value(&json!({"flows": [{"variant": "reno"}]})).unwrap();
        assert_eq!(s.flows[0].algorithm, "reno", "derived from the settings when not given");
    }

    #[test]
    fn a_cubic_flow_with_one_of_its_settings_changed_is_custom_not_newreno() {
        let s = Scenario::from_value(&json!({"flows": [{"algorithm": "cubic", "cc": {"cubic_c": 0.2}}]})).unwrap();
        assert_eq!(s.flows[0].algorithm, CUSTOM, "CUBIC's rules with another C: no entry");
        // Switching it to Reno clears CUBIC's rules (its nearest entry), C included.
        let mut doc =
            crate::scenario::resolve(&json!({"flows": [{"algorithm": "cubic", "cc": {"cubic_c": 0.2}}]})).unwrap();
        switch_to(&mut doc["flows"][0], find("reno").unwrap());
        let s = Scenario::from_value(&doc).unwrap();
        assert_eq!(s.flows[0].algorithm, "reno");
        let d = crate::schema::flow_defaults();
        for p in ["cc.congestion_avoidance", "cc.ssthresh_rule", "cc.cubic_c"] {
            assert_eq!(
                crate::scenario::get_path(&doc["flows"][0], p),
                crate::scenario::get_path(&d, p),
                "{p}"
            );
        }
        // A preset's own choice that an entry also names keeps the label: Reno counting
        // segments (textbook-reno) is still Reno.
        let s = Scenario::from_value(&json!({"flows": [{"algorithm": "reno", "cc": {"units": "segments"}}]})).unwrap();
        assert_eq!(s.flows[0].algorithm, "reno");
    }
}

#[cfg(test)]
mod switching {
    /// Every preset's flow 0 switched to every entry is named that entry: a preset's own
    /// choices (segments counted, Jacobson's timers) never make a switched flow `custom`.
    #[test]
    fn every_preset_switched_to_every_entry_is_named_that_entry() {
        let mut bad = Vec::new();
        for p in crate::presets::all() {
            let doc = crate::scenario::resolve(&p.overrides).unwrap();
            for a in super::CATALOGUE.iter() {
                let mut d = doc.clone();
                super::switch_to(&mut d["flows"][0], a);
                let got = super::identify(&d["flows"][0]);
                if got != a.name {
                    bad.push(format!("{} -> {}: {got}", p.name, a.name));
                }
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }
}
