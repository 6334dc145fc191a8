//! The scenario's parameter table: every parameter's path, unit, default and valid range,
//! defined once. Defaults, validation, `--set`, the timeline and the web app's controls all
//! read this table (the web app through `cwndlab schema` / the wasm `schema_json()`).
//!
//! Paths are dotted; `flows[].x` is a field of every flow. Values are JSON numbers in the
//! parameter's canonical unit: seconds for times, bytes for sizes, bit/s for rates.

use serde_json::{json, Map, Value};

/// One allowed value of an enumerated parameter.
#[derive(Debug)]
pub struct Choice {
    /// The value as written in JSON and URLs.
    pub value: &'static str,
    /// Short human label.
    pub label: &'static str,
    /// One sentence on what it means.
    pub help: &'static str,
}

/// A field of a list item (scripted drops, scripted writes, timeline entries).
#[derive(Debug)]
pub struct ItemField {
    /// Field name inside the item object.
    pub name: &'static str,
    /// Canonical unit.
    pub unit: &'static str,
    /// Value type and range.
    pub kind: ItemKind,
    /// Default when the field is omitted (`None`: required).
    pub default: Option<f64>,
    /// One sentence on what it means.
    pub help: &'static str,
}

impl ItemField {
    /// The value an item gets when the field is left out; `None` when it is required.
    pub fn default_value(&self) -> Option<Value> {
        match (self.default, &self.kind) {
            (Some(d), ItemKind::Int { .. }) => Some(json!(d as u64)),
            (Some(d), _) => Some(json!(d)),
            (None, kind) => kind.own_default(),
        }
    }
}

/// Value type of a list-item field.
#[derive(Debug)]
pub enum ItemKind {
    /// Non-negative integer in [min, max].
    Int { min: u64, max: u64 },
    /// Number in [min, max].
    Float { min: f64, max: f64 },
    /// A parameter path (timeline `set`).
    Path,
    /// Any JSON value, checked against the parameter named by the item's path.
    Value,
    /// One of a fixed set of strings.
    Enum {
        options: &'static [Choice],
        default: &'static str,
    },
    /// true / false.
    Bool { default: bool },
}

impl ItemKind {
    /// The default an item gets when the field is left out, for kinds that carry one.
    pub fn own_default(&self) -> Option<Value> {
        match self {
            ItemKind::Enum { default, .. } => Some(json!(default)),
            ItemKind::Bool { default } => Some(json!(default)),
            _ => None,
        }
    }
}

/// Value type, range and default of a parameter.
#[derive(Debug)]
pub enum Kind {
    /// Non-negative integer.
    Int { min: u64, max: u64, default: u64 },
    /// Real number; `log` suggests a logarithmic control.
    Float {
        min: f64,
        max: f64,
        default: f64,
        log: bool,
    },
    /// One of a fixed set of strings.
    Enum {
        options: &'static [Choice],
        default: &'static str,
    },
    /// true / false.
    Bool { default: bool },
    /// A list of small objects.
    List { items: &'static [ItemField] },
}

/// A display hint: show `value * factor` with `unit` (e.g. seconds as ms).
#[derive(Debug, Clone, Copy)]
pub struct Display {
    /// Unit shown to people.
    pub unit: &'static str,
    /// Multiply the canonical value by this to get the displayed value.
    pub factor: f64,
}

/// One scenario parameter.
#[derive(Debug)]
pub struct ParamDef {
    /// Dotted path; `flows[]` stands for every flow.
    pub path: &'static str,
    /// Short label for controls.
    pub label: &'static str,
    /// Grouping for controls and docs.
    pub group: &'static str,
    /// Canonical unit of the JSON value.
    pub unit: &'static str,
    /// Type, range and default.
    pub kind: Kind,
    /// One or two sentences of help.
    pub help: &'static str,
    /// Whether a timeline entry may change it during a run.
    pub live: bool,
    /// Preferred display unit.
    pub display: Option<Display>,
}

const MS: Option<Display> = Some(Display {
    unit: "ms",
    factor: 1e3,
});
const MBPS: Option<Display> = Some(Display {
    unit: "Mbit/s",
    factor: 1e-6,
});
const NONE: Option<Display> = None;

/// Largest integer a JavaScript number holds exactly (seeds must survive a URL round trip).
pub const MAX_SAFE_INT: u64 = (1 << 53) - 1;

macro_rules! p {
    ($path:expr, $label:expr, $group:expr, $unit:expr, $kind:expr, $live:expr, $display:expr, $help:expr) => {
        ParamDef {
            path: $path,
            label: $label,
            group: $group,
            unit: $unit,
            kind: $kind,
            help: help!($help),
            live: $live,
            display: $display,
        }
    };
}
pub(crate) use p;

const LOSS_MODELS: &[Choice] = &[
    Choice { value: "none", label: "None", help: help!("No random loss.") },
    Choice {
        value: "ber",
        label: "Bit error rate",
        help: help!("Each bit is corrupted with probability BER; a packet of n bytes is lost with probability 1 − (1 − BER)^(8n), headers included."),
    },
    Choice { value: "bernoulli", label: "Per-packet", help: help!("Each packet is lost with a fixed probability.") },
];

const VARIANTS: &[Choice] = &[
    Choice {
        value: "old_tahoe",
        label: "Old Tahoe",
        help: help!("Jacobson 1988: slow start and congestion avoidance; a retransmission timeout is the only loss signal."),
    },
    Choice {
        value: "tahoe",
        label: "Tahoe",
        help: help!("Adds fast retransmit: on the 3rd duplicate ACK, ssthresh = half, cwnd = 1 segment, go back N."),
    },
    Choice {
        value: "reno",
        label: "Reno",
        help: help!("Adds fast recovery (RFC 5681 §3.2): cwnd = ssthresh, the window inflates by one segment per further duplicate ACK, any new ACK ends recovery."),
    },
    Choice {
        value: "newreno",
        label: "NewReno",
        help: help!("RFC 6582: stays in fast recovery until everything sent before the loss is acknowledged, resending one hole per partial ACK."),
    },
    Choice {
        value: "br_tcp",
        label: "BR-TCP",
        help: help!("Komuro et al. 2006: on a loss, ssthresh = the reserved rate's bandwidth-delay product (reserved_bandwidth / (8 · packet size) · RTT packets), cwnd = ssthresh after 3 duplicate ACKs, 1 segment after a timeout."),
    },
];

/// The choices of `flows[].algorithm`: every catalogue entry, then `custom`.
static ALGORITHM_CHOICES: std::sync::LazyLock<Vec<Choice>> = std::sync::LazyLock::new(|| {
    let mut v: Vec<Choice> = crate::catalogue::CATALOGUE
        .iter()
        .map(|a| Choice {
            value: a.name,
            label: a.label,
            help: a.description,
        })
        .collect();
    v.push(Choice {
        value: crate::catalogue::CUSTOM,
        label: "Custom",
        help: help!("No catalogue entry: the variant and axes as set one by one."),
    });
    v
});

const DROP_ITEMS: &[ItemField] = &[
    ItemField {
        name: "segment",
        unit: "segment",
        kind: ItemKind::Int { min: 0, max: 1 << 32 },
        default: None,
        help: help!("Segment number as ns-2 numbers them: the SYN is 0, the first data segment 1."),
    },
    ItemField {
        name: "attempt",
        unit: "transmission",
        kind: ItemKind::Int { min: 1, max: 1000 },
        default: Some(1.0),
        help: help!("Which transmission of that segment is dropped: 1 = the original, 2 = the first retransmission, …"),
    },
];

const WRITE_ITEMS: &[ItemField] = &[
    ItemField {
        name: "at",
        unit: "s",
        kind: ItemKind::Float { min: 0.0, max: 1e5 },
        default: None,
        help: help!("Time of the write, in seconds from the start of the simulation."),
    },
    ItemField {
        name: "bytes",
        unit: "B",
        kind: ItemKind::Int { min: 1, max: 1 << 40 },
        default: None,
        help: help!("Bytes the application hands to TCP."),
    },
];

/// Fields of one cross-traffic source (`cross[i]`).
pub const CROSS_ITEMS: &[ItemField] = &[
    ItemField {
        name: "kind",
        unit: "",
        kind: ItemKind::Enum {
            options: &[
                Choice { value: "cbr", label: "CBR", help: help!("One packet every packet_size · 8 / rate seconds.") },
                Choice { value: "poisson", label: "Poisson", help: help!("Exponentially distributed gaps with that mean (counter-based randomness: the same seed gives the same packets).") },
                Choice { value: "on_off", label: "On/off", help: help!("CBR at rate during each 'on' period, silent during each 'off' period.") },
                Choice { value: "ping", label: "Ping", help: help!("A probe of packet_size bytes every interval, echoed back by the far end of the bottleneck; each echo is a round-trip-time sample (the RTT a small packet sees through the queues).") },
            ],
            default: "cbr",
        },
        default: None,
        help: help!("How the source spaces its packets."),
    },
    ItemField {
        name: "rate",
        unit: "bit/s",
        kind: ItemKind::Int { min: 1_000, max: 100_000_000_000 },
        default: Some(10_000_000.0),
        help: help!("Sending rate (the mean for poisson, the rate while on for on_off), counting whole packets on the wire."),
    },
    ItemField {
        name: "packet_size",
        unit: "B",
        kind: ItemKind::Int { min: 28, max: 65_535 },
        default: Some(1500.0),
        help: help!("Bytes per packet on the wire (IP header included)."),
    },
    ItemField {
        name: "start",
        unit: "s",
        kind: ItemKind::Float { min: 0.0, max: 1e5 },
        default: Some(0.0),
        help: help!("Time of the first packet."),
    },
    ItemField {
        name: "stop",
        unit: "s",
        kind: ItemKind::Float { min: 0.0, max: 1e5 },
        default: Some(0.0),
        help: help!("No packet is sent at or after this time; 0 = until the end of the run."),
    },
    ItemField {
        name: "on",
        unit: "s",
        kind: ItemKind::Float { min: 1e-6, max: 1e5 },
        default: Some(1.0),
        help: help!("Length of each 'on' period (on_off), starting at start."),
    },
    ItemField {
        name: "off",
        unit: "s",
        kind: ItemKind::Float { min: 0.0, max: 1e5 },
        default: Some(1.0),
        help: help!("Length of each 'off' period (on_off)."),
    },
    ItemField {
        name: "reverse",
        unit: "",
        kind: ItemKind::Bool { default: false },
        default: None,
        help: help!("Send in the ACK direction (competing with the flows' ACKs) instead of the data direction."),
    },
    ItemField {
        name: "interval",
        unit: "s",
        kind: ItemKind::Float { min: 1e-6, max: 1e5 },
        default: Some(0.1),
        help: help!("Time between probes (ping; rate is not used)."),
    },
];

const TIMELINE_ITEMS: &[ItemField] = &[
    ItemField {
        name: "at",
        unit: "s",
        kind: ItemKind::Float { min: 0.0, max: 1e5 },
        default: None,
        help: help!("When the change happens, in seconds from the start."),
    },
    ItemField {
        name: "set",
        unit: "",
        kind: ItemKind::Path,
        default: None,
        help: help!("Path of a live parameter, e.g. network.bottleneck.loss.ber or flows[0].app.write_interval."),
    },
    ItemField {
        name: "value",
        unit: "",
        kind: ItemKind::Value,
        default: None,
        help: help!("New value, in the parameter's unit."),
    },
];

macro_rules! loss_params {
    ($prefix:literal, $label:literal, $default_ber:expr) => {
        [
            p!(
                concat!($prefix, ".model"),
                concat!($label, " loss model"),
                "network",
                "",
                Kind::Enum {
                    options: LOSS_MODELS,
                    default: "none"
                },
                true,
                NONE,
                "How packets are lost at random on this direction of the bottleneck (queue overflow is separate)."
            ),
            p!(
                concat!($prefix, ".ber"),
                concat!($label, " bit error rate"),
                "network",
                "1/bit",
                Kind::Float {
                    min: 0.0,
                    max: 1e-2,
                    default: $default_ber,
                    log: true
                },
                true,
                NONE,
                "Bit error rate: each bit is corrupted with this probability, used when the loss model is “Bit error rate”. A packet of n bytes (headers included) is lost with probability 1 − (1 − BER)^(8n): 10⁻⁵ loses about 11 % of 1 500-byte packets."
            ),
            p!(
                concat!($prefix, ".probability"),
                concat!($label, " loss probability"),
                "network",
                "1",
                Kind::Float {
                    min: 0.0,
                    max: 1.0,
                    default: 0.01,
                    log: false
                },
                true,
                NONE,
                "Per-packet loss probability, used when the loss model is “Per-packet”."
            ),
        ]
    };
}

macro_rules! access_params {
    ($prefix:literal, $label:literal, $help:literal) => {
        [
            p!(
                concat!($prefix, ".bandwidth"),
                concat!($label, " bandwidth"),
                "flow",
                "bit/s",
                Kind::Int {
                    min: 1_000,
                    max: 100_000_000_000,
                    default: 100_000_000
                },
                true,
                MBPS,
                $help
            ),
            p!(
                concat!($prefix, ".delay"),
                concat!($label, " delay"),
                "flow",
                "s",
                Kind::Float {
                    min: 0.0,
                    max: 10.0,
                    default: 0.001,
                    log: false
                },
                true,
                MS,
                "One-way propagation delay of the access link (each direction)."
            ),
            p!(
                concat!($prefix, ".queue_packets"),
                concat!($label, " queue"),
                "flow",
                "packets",
                Kind::Int {
                    min: 1,
                    max: 1_000_000,
                    default: 1000
                },
                false,
                NONE,
                "Drop-tail capacity of the access link's queue in packets, counting the packet being transmitted."
            ),
        ]
    };
}

/// Every scenario parameter, in display order.
pub fn params() -> &'static [ParamDef] {
    &PARAMS
}

static PARAMS: std::sync::LazyLock<Vec<ParamDef>> = std::sync::LazyLock::new(build_params);

fn build_params() -> Vec<ParamDef> {
    let mut v = vec![
        p!("version", "Format version", "run", "", Kind::Int { min: 1, max: 1, default: 1 }, false, NONE,
            "Scenario format version; 1 is the only version so far."),
        p!("seed", "Seed", "run", "", Kind::Int { min: 0, max: MAX_SAFE_INT, default: 1 }, false, NONE,
            "Seed of every random decision (loss). Same scenario and seed give a bit-identical run."),
        p!("duration", "Duration", "run", "s", Kind::Float { min: 0.001, max: 100_000.0, default: 20.0, log: false }, false, NONE,
            "Simulated time to run, in seconds."),
        p!("trace.events", "Event log", "run", "", Kind::Enum { options: &[
            Choice { value: "all", label: "All", help: help!("Every packet event at sender and receiver.") },
            Choice { value: "sender", label: "Sender side", help: help!("Sends, retransmissions, ACK arrivals, drops and congestion events; no receiver-side rows.") },
            Choice { value: "congestion", label: "Congestion only", help: help!("Drops, retransmissions and congestion-control events only (smallest trace for long runs).") },
        ], default: "all" }, false, NONE,
            "Which events the event log records. Summaries and time series are the same either way."),
        p!("trace.throughput_bin", "Throughput bin", "run", "s", Kind::Float { min: 0.001, max: 100.0, default: 0.01, log: true }, false, MS,
            "Width of the bins of the throughput table (bytes per flow and per cross-traffic source crossing the bottleneck and delivered, bin by bin); plots add whole bins together."),
        p!("network.bottleneck.bandwidth", "Bottleneck bandwidth", "network", "bit/s",
            Kind::Int { min: 1_000, max: 100_000_000_000, default: 2_000_000 }, true, MBPS,
            "Rate of the shared link between the two routers, in each direction."),
        p!("network.bottleneck.delay", "Bottleneck delay", "network", "s",
            Kind::Float { min: 0.0, max: 10.0, default: 0.04, log: false }, true, MS,
            "One-way propagation delay of the bottleneck link (each direction). RTT ≈ 2 × (bottleneck + access delays) plus transmission times."),
        p!("network.bottleneck.delay_variation", "Delay variation", "network", "s",
            Kind::Float { min: 0.0, max: 10.0, default: 0.0, log: false }, true, MS,
            "Largest extra one-way delay of a packet on the bottleneck (each direction): each packet's is drawn uniformly from [0, this] by the seeded generator, after its transmission, so a later packet can arrive before an earlier one (reordering); the queue stays first come first served. 0 = none. At most 10 s, as the delay."),
        p!("network.bottleneck.queue_packets", "Bottleneck buffer", "network", "packets",
            Kind::Int { min: 1, max: 1_000_000, default: 20 }, true, NONE,
            "Drop-tail capacity of each bottleneck queue in packets, counting the packet being transmitted (ns-2's convention: limit 8 = 7 waiting + 1 in service)."),
        p!("network.bottleneck.queue_bytes", "Bottleneck buffer (bytes)", "network", "B",
            Kind::Int { min: 0, max: 1_000_000_000_000, default: 0 }, true, NONE,
            "Optional byte capacity of each bottleneck queue, counting the packet being transmitted; 0 = no byte limit."),
    ];
    v.extend(loss_params!("network.bottleneck.loss", "Data-direction", 1e-6));
    v.extend(loss_params!("network.bottleneck.reverse_loss", "ACK-direction", 1e-6));
    v.extend([
        p!("network.bottleneck.scheduler", "Bottleneck scheduler", "network", "", Kind::Enum { options: &[
            Choice { value: "fifo", label: "FIFO", help: help!("One drop-tail queue per direction, first come first served; reservations are not enforced.") },
            Choice { value: "reservation", label: "Reservation (class-based)", help: help!("Each flow with a reserved bandwidth is its own class with its own drop-tail queue (queue_packets) and is guaranteed its rate while it has packets queued; all other traffic shares the rest in one best-effort class.") },
        ], default: "fifo" }, false, NONE,
            "How each direction of the bottleneck picks the next packet. The sum of the reservations must not exceed the bottleneck bandwidth."),
        p!("network.bottleneck.borrow", "Borrow idle capacity", "network", "", Kind::Bool { default: false }, false, NONE,
            "Reservation scheduler only. Off: every class is held to its own rate, as the bounded CBQ classes of Komuro et al. 2006 (the best-effort class gets bandwidth minus the reservations). On: capacity a class leaves idle goes to the backlogged classes in proportion to their rates."),
    ]);
    v.extend(crate::net::qdisc::settings::params());
    v.extend(crate::net::qdisc::red::settings::params());
    v.extend(crate::net::qdisc::codel::settings::params());
    v.extend(crate::net::qdisc::fq_codel::settings::params());
    v.extend(crate::net::qdisc::pie::settings::params());
    v.extend(crate::net::qdisc::step::settings::params());
    v.extend([
        p!("cross", "Cross traffic", "network", "", Kind::List { items: CROSS_ITEMS }, false, NONE,
            "Non-reactive (UDP-like) sources that cross the bottleneck only: list of {kind, rate, packet_size, start, stop, on, off, reverse}. They fill the queue, take drops and report their delivered rate, but never slow down."),
    ]);
    v.push(p!(
        "flows[].algorithm",
        "Named algorithm",
        "flow",
        "",
        Kind::Enum {
            options: ALGORITHM_CHOICES.as_slice(),
            default: "newreno"
        },
        false,
        NONE,
        "A catalogue entry (`cwndlab algorithms`): sets the variant and the axes it names before any explicit setting is applied. In a resolved scenario it names the entry the settings match, or custom."
    ));
    v.extend([
        p!(
            "flows[].variant",
            "Algorithm",
            "flow",
            "",
            Kind::Enum {
                options: VARIANTS,
                default: "newreno"
            },
            false,
            NONE,
            "Loss recovery: Old Tahoe, Tahoe, Reno, NewReno or BR-TCP. The other congestion-control settings are shared axes."
        ),
        p!(
            "flows[].start",
            "Start time",
            "flow",
            "s",
            Kind::Float {
                min: 0.0,
                max: 100_000.0,
                default: 0.0,
                log: false
            },
            false,
            MS,
            "When the flow opens its connection (SYN) or, without a SYN, starts sending."
        ),
    ]);
    v.push(p!("flows[].reserved_bandwidth", "Reserved bandwidth", "flow", "bit/s",
        Kind::Int { min: 0, max: 100_000_000_000, default: 0 }, false, MBPS,
        "Bandwidth reserved for this flow; 0 = none. BR-TCP (Komuro et al. 2006) sets ssthresh on a loss to this rate's bandwidth-delay product, and needs it above 0. With network.bottleneck.scheduler = reservation the bottleneck guarantees the flow this rate (its own class and queue); with fifo the reservation is not enforced."));
    v.extend(access_params!(
        "flows[].access",
        "Sender access",
        "Rate of the link between the sender and the first router."
    ));
    v.extend(access_params!(
        "flows[].receiver_access",
        "Receiver access",
        "Rate of the link between the second router and the receiver."
    ));
    v.extend([
        p!("flows[].tcp.mss", "MSS", "tcp", "B", Kind::Int { min: 1, max: 65_495, default: 1460 }, false, NONE,
            "Sender maximum segment size: payload bytes of a full segment (SMSS)."),
        p!("flows[].tcp.header", "Header size", "tcp", "B", Kind::Int { min: 0, max: 1000, default: 40 }, false, NONE,
            "TCP/IP header bytes added to every packet, data and ACK alike (and the whole size of a SYN or pure ACK)."),
        p!("flows[].tcp.rwnd", "Receiver window", "tcp", "B", Kind::Int { min: 1, max: 1 << 30, default: 1 << 20 }, false, NONE,
            "Window the receiver advertises (fixed). The sender never has more than this outstanding."),
        p!("flows[].tcp.initial_window", "Initial window", "tcp", "segments", Kind::Int { min: 1, max: 1000, default: 2 }, false, NONE,
            "cwnd when data transfer starts, in segments (RFC 5681 §3.1 allows up to 2–4; RFC 6928 proposes 10)."),
        p!("flows[].tcp.initial_ssthresh", "Initial ssthresh", "tcp", "B", Kind::Int { min: 0, max: 1 << 40, default: 0 }, false, NONE,
            "Initial slow-start threshold in bytes; 0 means arbitrarily high (RFC 5681 §3.1)."),
        p!("flows[].tcp.dupack_threshold", "Duplicate-ACK threshold", "tcp", "ACKs", Kind::Int { min: 1, max: 64, default: 3 }, false, NONE,
            "Duplicate ACKs that trigger fast retransmit (3 in every standard)."),
        p!("flows[].tcp.nagle", "Nagle", "tcp", "", Kind::Bool { default: false }, false, NONE,
            "RFC 896: while data is unacknowledged, hold a segment smaller than the MSS until it fills or everything is acknowledged."),
        p!("flows[].tcp.syn", "SYN handshake", "tcp", "", Kind::Bool { default: false }, false, NONE,
            "Send a SYN (header-only packet, segment 0) first; data starts, with the initial window, when it is acknowledged."),
        p!("flows[].cc.units", "cwnd units", "cc", "", Kind::Enum { options: &[
            Choice { value: "bytes", label: "Bytes", help: help!("cwnd counts bytes in flight (FreeBSD, RFC 5681).") },
            Choice { value: "segments", label: "Segments", help: help!("cwnd counts packets in flight whatever their size (Linux, ns-2); ssthresh is rounded down to whole segments.") },
        ], default: "bytes" }, false, NONE,
            "Whether cwnd limits bytes or packets in flight."),
    ]);
    v.extend(crate::tcp::cc::increase::settings::params());
    v.extend(crate::tcp::cc::recovery::settings::params());
    // Window validation's two rows, in their places among the others.
    let [idle_policy, nvp_limit] = crate::tcp::cc::validation::settings::params();
    v.push(idle_policy);
    // The growth gate's two rows, in their places among the others.
    let [growth_gate, full_window_slack] = crate::tcp::cc::gate::settings::params();
    v.push(growth_gate);
    v.extend([
        p!("flows[].cc.header_in_window", "Count headers in cwnd", "cc", "", Kind::Bool { default: false }, false, NONE,
            "Byte-based cwnd only (source 004 §5.1, the paper's proposed fix): a segment may be sent only if its bytes plus the headers of every packet in flight (and its own) fit in cwnd, so many small packets cost what they put on the wire."),
        p!("flows[].cc.max_cwnd", "Largest cwnd", "cc", "B", Kind::Int { min: 0, max: 1 << 40, default: 0 }, false, NONE,
            "Growth never takes cwnd above this many bytes; 0 = no cap (the engine's default: a receiver-window-limited sender's cwnd keeps growing). BSD stacks cap it at TCP_MAXWIN = 65535 bytes (tcp_input.c: snd_cwnd = min(cw + incr, TCP_MAXWIN << snd_scale))."),
    ]);
    v.extend(crate::tcp::cc::binomial::settings::params());
    // Mechanisms' settings, each beside its mechanism (the controller first, then CUBIC's).
    v.extend(crate::tcp::cc::bbr::settings::params());
    v.extend(crate::tcp::cc::cubic::settings::params());
    v.push(full_window_slack);
    v.push(nvp_limit);
    v.extend(crate::tcp::cc::brtcp::settings::params());
    v.extend(crate::tcp::recovery::sack::settings::params());
    v.extend(
        crate::tcp::cc::ecn::settings::params()
            .into_iter()
            .chain(crate::tcp::cc::dctcp::settings::params()),
    );
    v.extend([
        p!("flows[].rto.estimator", "RTO estimator", "rto", "", Kind::Enum { options: &[
            Choice { value: "rfc6298", label: "RFC 6298", help: help!("SRTT/RTTVAR with gains 1/8 and 1/4, RTO = SRTT + max(G, 4·RTTVAR).") },
            Choice { value: "jacobson88", label: "Jacobson 88 (integer)", help: help!("Jacobson & Karels appendix A: scaled integer mean and deviation in clock ticks, rto = A + 4D.") },
            Choice { value: "rfc793", label: "RFC 793", help: help!("SRTT = α·SRTT + (1−α)·RTT, RTO = β·SRTT: no variance term.") },
        ], default: "rfc6298" }, false, NONE,
            "How the retransmission timeout is estimated from RTT samples (one timed segment per RTT, Karn's rule)."),
        p!("flows[].rto.clock_tick", "TCP clock tick", "rto", "s", Kind::Float { min: 1e-6, max: 1.0, default: 0.001, log: true }, false, MS,
            "Granularity of RTT measurement: samples count tick boundaries crossed (at least one); also RFC 6298's G."),
        p!("flows[].rto.initial", "Initial RTO", "rto", "s", Kind::Float { min: 0.001, max: 600.0, default: 1.0, log: false }, false, NONE,
            "RTO before the first RTT sample (RFC 6298 (2.1): 1 s; older stacks 3 s)."),
        p!("flows[].rto.min", "Minimum RTO", "rto", "s", Kind::Float { min: 0.0, max: 600.0, default: 1.0, log: false }, false, MS,
            "Lower bound on the computed RTO (RFC 6298 (2.4): 1 s; Linux 200 ms)."),
        p!("flows[].rto.max", "Maximum RTO", "rto", "s", Kind::Float { min: 0.001, max: 3600.0, default: 60.0, log: false }, false, NONE,
            "Upper bound on the RTO, backoff included (RFC 6298 (2.5): at least 60 s)."),
        p!("flows[].rto.rfc793_alpha", "RFC 793 α", "rto", "1", Kind::Float { min: 0.0, max: 0.999, default: 0.9, log: false }, false, NONE,
            "Smoothing gain of the RFC 793 estimator (0.8–0.9 suggested)."),
        p!("flows[].rto.rfc793_beta", "RFC 793 β", "rto", "1", Kind::Float { min: 1.0, max: 4.0, default: 2.0, log: false }, false, NONE,
            "Delay variance factor of the RFC 793 estimator (1.3–2.0 suggested)."),
        p!("flows[].receiver.delayed_ack", "Delayed ACK", "receiver", "", Kind::Bool { default: false }, false, NONE,
            "Acknowledge every second full segment's worth of in-order data, or when the delayed-ACK timer fires (RFC 5681 §4.2). Out-of-order and gap-filling data are always acknowledged at once."),
        p!("flows[].receiver.delack_timeout", "Delayed-ACK timeout", "receiver", "s", Kind::Float { min: 0.001, max: 0.5, default: 0.2, log: false }, false, MS,
            "Longest an ACK is delayed (RFC 1122 requires at most 500 ms)."),
        p!("flows[].app.kind", "Application", "app", "", Kind::Enum { options: &[
            Choice { value: "bulk", label: "Bulk", help: help!("A greedy sender: data is always waiting (or a fixed number of bytes, then done).") },
            Choice { value: "cbr", label: "CBR", help: help!("Constant bit rate: write_size bytes every write_interval (a packet-sized write, as the NetSim lab's CBR source).") },
            Choice { value: "thin", label: "Thin stream", help: help!("Small writes (write_size) at an application write frequency (write_interval), as in games and remote shells.") },
            Choice { value: "on_off", label: "On/off", help: help!("Writes write_size every write_interval during 'on' periods, nothing during 'off' periods.") },
            Choice { value: "scripted", label: "Scripted writes", help: help!("Writes of given sizes at given times (app.writes).") },
            Choice { value: "poisson", label: "Poisson (Telnet-like)", help: help!("Writes of write_size bytes with exponentially distributed gaps of mean write_interval, as a person typing into a remote shell.") },
            Choice { value: "transfers", label: "Short transfers", help: help!("Finite transfers (web page fetches), each on a fresh connection (handshake if tcp.syn, initial window, RTO from scratch), each one's completion time measured: at the times and sizes of app.writes, or, with none, Poisson arrivals of write_size bytes with mean gap write_interval. A transfer due while the one before is still running waits for it.") },
        ], default: "bulk" }, false, NONE,
            "What the sending application does."),
        p!("flows[].app.bytes", "Bulk size", "app", "B", Kind::Int { min: 0, max: 1 << 50, default: 0 }, false, NONE,
            "Bytes a bulk application sends; 0 = unbounded."),
        p!("flows[].app.write_size", "Write size", "app", "B", Kind::Int { min: 1, max: 1_000_000_000, default: 1460 }, true, NONE,
            "Bytes per application write (CBR, thin stream, on/off, Poisson); bytes per drawn transfer (short transfers)."),
        p!("flows[].app.write_interval", "Write interval", "app", "s", Kind::Float { min: 1e-6, max: 3600.0, default: 0.01, log: true }, true, MS,
            "Time between application writes (the mean gap for Poisson and for drawn transfers); its inverse is the application write frequency."),
        p!("flows[].app.on", "On period", "app", "s", Kind::Float { min: 1e-6, max: 100_000.0, default: 1.0, log: false }, false, NONE,
            "Length of each 'on' period (on/off application)."),
        p!("flows[].app.off", "Off period", "app", "s", Kind::Float { min: 0.0, max: 100_000.0, default: 1.0, log: false }, false, NONE,
            "Length of each 'off' period (on/off application)."),
        p!("flows[].app.writes", "Scripted writes", "app", "", Kind::List { items: WRITE_ITEMS }, false, NONE,
            "List of {at, bytes} writes for the scripted application; the transfers (start, size) of the short-transfers application (none: drawn)."),
        p!("flows[].drops", "Scripted drops", "loss", "", Kind::List { items: DROP_ITEMS }, false, NONE,
            "Data segments of this flow dropped at the bottleneck: list of {segment, attempt}. Deterministic, for exact lessons and tests."),
        p!("timeline", "Timeline", "run", "", Kind::List { items: TIMELINE_ITEMS }, false, NONE,
            "Parameter changes at given times, e.g. {\"at\": 10, \"set\": \"network.bottleneck.loss.ber\", \"value\": 1e-5}."),
    ]);
    v
}

/// Looks a parameter up by its table path (`flows[].x` form).
pub fn find(path: &str) -> Option<&'static ParamDef> {
    params().iter().find(|p| p.path == path)
}

/// Default JSON value of a parameter.
pub fn default_value(p: &ParamDef) -> Value {
    match &p.kind {
        Kind::Int { default, .. } => json!(default),
        Kind::Float { default, .. } => json!(default),
        Kind::Enum { default, .. } => json!(default),
        Kind::Bool { default } => json!(default),
        Kind::List { .. } => json!([]),
    }
}

/// Defaults of one flow, as a JSON object (the `flows[].` parameters): a copy of
/// [`flow_defaults_ref`], for a caller that changes it (every scenario read merges over one).
pub fn flow_defaults() -> Value {
    flow_defaults_ref().clone()
}

/// Defaults of one flow, built once from the parameter table, for a caller that only reads
/// them (a rename looking up the defaults it restores).
pub fn flow_defaults_ref() -> &'static Value {
    static FLOW: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    FLOW.get_or_init(|| {
        let mut obj = Value::Object(Map::new());
        for p in params() {
            if let Some(rest) = p.path.strip_prefix("flows[].") {
                crate::scenario::set_dotted(&mut obj, rest, default_value(p));
            }
        }
        obj
    })
}

/// The complete default scenario as JSON: one flow with every default (built once, as
/// [`flow_defaults`]).
pub fn scenario_defaults() -> Value {
    static ALL: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let mut obj = Value::Object(Map::new());
        for p in params() {
            if !p.path.starts_with("flows[].") {
                crate::scenario::set_dotted(&mut obj, p.path, default_value(p));
            }
        }
        obj["flows"] = Value::Array(vec![flow_defaults()]);
        obj
    })
    .clone()
}

mod applies;
mod table;
pub use applies::{applies, applies_to, Applies};

pub use table::{markdown, schema_json};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_lies_in_its_range() {
        for p in params() {
            match &p.kind {
                Kind::Int { min, max, default } => assert!(min <= default && default <= max, "{}", p.path),
                Kind::Float { min, max, default, .. } => assert!(min <= default && default <= max, "{}", p.path),
                Kind::Enum { options, default } => assert!(options.iter().any(|c| c.value == *default), "{}", p.path),
                Kind::Bool { .. } | Kind::List { .. } => {}
            }
        }
    }

    #[test]
    fn the_parameter_reference_is_up_to_date() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/parameters.md");
        if std::env::var_os("CWNDLAB_UPDATE_DOCS").is_some() {
            std::fs::write(path, markdown()).unwrap();
        }
        let doc = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            doc == markdown(),
            "docs/parameters.md is stale: run `CWNDLAB_UPDATE_DOCS=1 cargo test -p cwndlab-core --lib schema`"
        );
    }

    #[test]
    fn paths_are_unique() {
        let mut paths: Vec<&str> = params().iter().map(|p| p.path).collect();
        paths.sort_unstable();
        let n = paths.len();
        paths.dedup();
        assert_eq!(n, paths.len());
    }

    #[test]
    fn every_condition_names_real_settings_and_values() {
        let mut seen = Vec::new();
        for a in applies() {
            let p = params().iter().find(|p| p.path == a.path);
            assert!(p.is_some(), "{} is no setting", a.path);
            assert!(!seen.contains(&a.path), "{} has two conditions", a.path);
            seen.push(a.path);
            let when = params()
                .iter()
                .find(|p| p.path == a.when)
                .expect("the condition is a setting");
            assert!(!a.values.is_empty());
            for v in a.values {
                let ok = match &when.kind {
                    Kind::Enum { options, .. } => options.iter().any(|c| c.value == *v),
                    Kind::Bool { .. } => *v == "true" || *v == "false",
                    _ => false,
                };
                assert!(ok, "{} = {v} is not a value of {}", a.path, a.when);
            }
            for also in a.also {
                let other = params().iter().find(|p| p.path == *also).expect("a setting");
                assert_eq!(
                    format!("{:?}", other.kind),
                    format!("{:?}", when.kind),
                    "{} also",
                    a.path
                );
            }
        }
        // In the JSON a switch's values are booleans, an enum's strings.
        let j = schema_json();
        let row = |path: &str| {
            j["params"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["path"] == path)
                .unwrap()
                .clone()
        };
        assert_eq!(
            row("flows[].sack.rack")["applies_when"],
            json!({"path": "flows[].sack.enabled", "values": [true]})
        );
        assert_eq!(
            row("flows[].app.on")["applies_when"],
            json!({"path": "flows[].app.kind", "values": ["on_off"]})
        );
        assert!(row("flows[].sack.enabled").get("applies_when").is_none());
        assert_eq!(
            row("network.bottleneck.codel.target")["applies_when"],
            json!({"path": "network.bottleneck.qdisc", "values": ["codel"], "also": ["network.bottleneck.reverse_qdisc"]})
        );
    }

    /// What the conditions say of the applications is what they do: a field changes a run
    /// of a kind it applies to, and no run of the others.
    #[test]
    fn the_application_fields_act_exactly_where_their_conditions_say() {
        let digest = |kind: &str, field: &str, value: Value| {
            let mut j = scenario_defaults();
            j["duration"] = json!(3.0);
            j["flows"][0]["app"]["kind"] = json!(kind);
            j["flows"][0]["app"]["writes"] = json!([{"at": 0.1, "bytes": 5000}, {"at": 1.0, "bytes": 3000}]);
            j["flows"][0]["app"]["bytes"] = json!(50_000);
            j["flows"][0]["app"]["on"] = json!(0.5);
            j["flows"][0]["app"]["off"] = json!(0.5);
            j["flows"][0]["app"]["write_interval"] = json!(0.02);
            let f = field.trim_start_matches("flows[].app.");
            if kind == "transfers" && f != "writes" {
                j["flows"][0]["app"]["writes"] = json!([]); // drawn transfers read these
            }
            j["flows"][0]["app"][f] = value;
            let mut sim = crate::sim::Simulation::from_json(&j.to_string()).expect("a valid scenario");
            sim.run_to_end();
            sim.digest()
        };
        let changed: [(&str, Value, Value); 6] = [
            ("flows[].app.bytes", json!(50_000), json!(20_000)),
            ("flows[].app.write_size", json!(1460), json!(500)),
            ("flows[].app.write_interval", json!(0.02), json!(0.05)),
            ("flows[].app.on", json!(0.5), json!(0.3)),
            ("flows[].app.off", json!(0.5), json!(0.2)),
            (
                "flows[].app.writes",
                json!([{"at": 0.1, "bytes": 5000}, {"at": 1.0, "bytes": 3000}]),
                json!([{"at": 0.2, "bytes": 700}]),
            ),
        ];
        let kinds = ["bulk", "cbr", "thin", "on_off", "scripted", "poisson", "transfers"];
        for (field, a, b) in changed {
            let cond = applies_to(field).expect("an application field has a condition");
            for kind in kinds {
                let differs = digest(kind, field, a.clone()) != digest(kind, field, b.clone());
                assert_eq!(differs, cond.values.contains(&kind), "{field} with app.kind = {kind}");
            }
        }
    }

    #[test]
    fn defaults_json_has_one_flow() {
        let d = scenario_defaults();
        assert_eq!(d["flows"].as_array().unwrap().len(), 1);
        assert_eq!(d["network"]["bottleneck"]["bandwidth"], json!(2_000_000u64));
        assert_eq!(d["flows"][0]["tcp"]["mss"], json!(1460));
    }
}
