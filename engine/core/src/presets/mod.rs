//! Named scenarios that reproduce the source documents' experiments. Each preset is a
//! partial scenario merged over the defaults, so it states only what differs.

use crate::scenario::{Problem, Scenario};
use serde::Serialize;
use serde_json::{json, Value};

mod aqm;
pub mod course;
mod internet;
mod jacobson;
mod lesson;
mod recovery;
mod textbook;
mod thin;

pub use lesson::Lesson;
use lesson::{compete_lesson, lesson};

/// A place in a run worth stepping to: the first decision of one of `rules`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Step {
    /// What the button says ("Step to the first timeout").
    pub label: &'static str,
    /// The rule ids (`crate::explain`) it steps to.
    pub rules: &'static [&'static str],
}

const FAST_RETRANSMIT: Step = Step {
    label: "Step to the first fast retransmit",
    rules: &[
        "loss.fast_retransmit",
        "loss.fast_retransmit_tahoe",
        "loss.fast_retransmit_br_tcp",
    ],
};
const PARTIAL_ACK: Step = Step {
    label: "Step to the first partial ACK",
    rules: &["recovery.partial_ack_deflate", "recovery.partial_ack_reset"],
};
const RENO_EXIT: Step = Step {
    label: "Step to Reno leaving fast recovery",
    rules: &["recovery.reno_exit"],
};
const SUPPRESSED: Step = Step {
    label: "Step to a loss the recover guard ignores",
    rules: &["loss.recover_guard"],
};
const CUBIC_CUT: Step = Step {
    label: "Step to CUBIC’s first reduction (β and W_max)",
    rules: &["ssthresh.cubic"],
};
const CUBIC_EPOCH: Step = Step {
    label: "Step to the start of a CUBIC epoch (K)",
    rules: &["ca.cubic_epoch"],
};
const TIMEOUT: Step = Step {
    label: "Step to the first timeout",
    rules: &["timeout.expire"],
};
const IDLE: Step = Step {
    label: "Step to the first idle decay or restart",
    rules: &["idle.restart", "idle.rfc2861_idle", "idle.rfc7661_nvp_expiry"],
};
const APP_LIMITED: Step = Step {
    label: "Step to the first application-limited decay",
    rules: &["idle.rfc2861_app_limited", "idle.rfc7661_nvp_enter"],
};
const GATE: Step = Step {
    label: "Step to growth a gate refused",
    rules: &["gate.window_full", "gate.linux_3_15", "gate.linux_3_16", "gate.rfc7661"],
};
const BR_SSTHRESH: Step = Step {
    label: "Step to the reserved-rate ssthresh",
    rules: &["ssthresh.br_tcp"],
};
const DELACK: Step = Step {
    label: "Step to the first delayed ACK",
    rules: &["ack.delay"],
};
const RTT: Step = Step {
    label: "Step to the first RTT sample",
    rules: &["rtt.rfc6298_first", "rtt.rfc6298", "rtt.jacobson88", "rtt.rfc793"],
};
const AQM_DROP: Step = Step {
    label: "Step to the first drop the queue discipline chose",
    rules: &[
        "red.drop",
        "codel.drop",
        "fq_codel.drop",
        "fq_codel.overflow",
        "pie.drop",
    ],
};
const CE_MARK: Step = Step {
    label: "Step to the first CE mark",
    rules: &["red.mark", "codel.mark", "fq_codel.mark", "pie.mark", "step.mark"],
};
const ECN_REDUCE: Step = Step {
    label: "Step to the first reduction for an ECN echo",
    rules: &["ecn.reduce"],
};
const CAP: Step = Step {
    label: "Step to cwnd reaching its cap",
    rules: &["increase.max_cwnd"],
};

/// A named scenario.
#[derive(Clone, Debug)]
pub struct Preset {
    /// Name used on the command line and in URLs.
    pub name: String,
    /// What a lecturer calls it ("Reno against NewReno: three drops in one window"): the
    /// page's menu lists presets by title, with the name beside it for the command line.
    pub title: String,
    /// The name of its family (`FAMILIES`, `families`); set per family.
    pub family: &'static str,
    /// The run its lesson is about, which the page's explanation tools, practice and
    /// exercise sheet start at: in a comparison a catalogue name the lesson compares, in a
    /// competition `flow<i>`; None: no one run (the page starts at the first). A comparison
    /// that does not name one is about its own flow-0 algorithm (set per family): `custom`
    /// when flow 0 has settings of its own (the page compares those as "custom").
    pub focus: Option<String>,
    /// One line on what it shows.
    pub description: String,
    /// The partial scenario.
    pub overrides: Value,
    /// Where the page's and the CLI's explanation tools lead in this run: "step to the first
    /// timeout" and the like, as (label, rule ids); set per family (`FAMILIES`).
    pub steps: &'static [Step],
    /// Its lesson, if it has one.
    pub lesson: Option<Lesson>,
}

impl Preset {
    /// The complete scenario.
    pub fn scenario(&self) -> Result<Scenario, Vec<Problem>> {
        Scenario::from_value(&self.overrides)
    }
}

const VARIANTS: [(&str, &str, &str); 4] = [
    ("old-tahoe", "old_tahoe", "Old Tahoe"),
    ("tahoe", "tahoe", "Tahoe"),
    ("reno", "reno", "Reno"),
    ("newreno", "newreno", "NewReno"),
];

/// The NetSim lab (source 001): sender – router – router – receiver, all links 10 Mbit/s,
/// 0.1 ms access delays, a 50 ms backbone with BER 1e-7 on the data direction, a CBR
/// source of 1460-byte packets every 1168 µs, 20 s.
///
/// Buffer sizes are our choice (the lab does not state them): every queue holds 1000
/// packets, so that every loss is a bit error, as the lab intends (it studies TCP over a
/// lossy link, and its figures show only loss responses). With all links at 10 Mbit/s the
/// queue that grows is the sender's own access link; only the first slow start, before the
/// first bit error, fills it (to about 530 packets with seed 1). With a 100-packet buffer
/// that slow start would instead end in a burst of queue drops. The receive window keeps
/// its default (1 MiB), so the window is limited by congestion control, not by the
/// receiver; the initial window is 1 segment, as in the Tahoe-era stacks the lab compares.
fn netsim(variant: &str) -> Value {
    json!({
        "duration": 20.0,
        "seed": 1,
        "network": {"bottleneck": {
            "bandwidth": 10_000_000u64, "delay": 0.05, "queue_packets": 1000,
            "loss": {"model": "ber", "ber": 1e-7},
            "reverse_loss": {"model": "none"}
        }},
        "flows": [{
            "variant": variant,
            "access": {"bandwidth": 10_000_000u64, "delay": 0.0001, "queue_packets": 1000},
            "receiver_access": {"bandwidth": 10_000_000u64, "delay": 0.0001, "queue_packets": 1000},
            "tcp": {"mss": 1460, "header": 40, "initial_window": 1},
            "app": {"kind": "cbr", "write_size": 1460, "write_interval": 0.001168}
        }]
    })
}

/// Fall & Floyd 1996 as in ns-2's test-suite-tcpVariants: 8 Mb/s 0 ms access link,
/// 800 kb/s 100 ms bottleneck with a queue limit of 8 (7 waiting + 1 in service), receiver
/// window 28 packets of 1000 B (+40 B header), 40 B ACKs, no delayed ACK, SYN at 1.0 s,
/// initial window 2, ssthresh = rwnd, min RTO 1 s, initial RTO 6 s, 10 ms tick, ns-2's
/// ssthresh and window arithmetic in packets, the recover guard on, NewReno restarting the
/// timer on every partial ACK without partial-window deflation.
fn fall_floyd(variant: &str, drops: &[u64]) -> Value {
    let drops: Vec<Value> = drops.iter().map(|&s| json!({"segment": s, "attempt": 1})).collect();
    json!({
        "duration": 10.0,
        "seed": 1,
        "network": {"bottleneck": {"bandwidth": 800_000u64, "delay": 0.1, "queue_packets": 8}},
        "flows": [{
            "variant": variant,
            "start": 1.0,
            "access": {"bandwidth": 8_000_000u64, "delay": 0.0, "queue_packets": 1000},
            "receiver_access": {"bandwidth": 100_000_000_000u64, "delay": 0.0, "queue_packets": 1000},
            "tcp": {"mss": 1000, "header": 40, "rwnd": 28_000, "initial_window": 2,
                    "initial_ssthresh": 28_000, "syn": true, "nagle": false},
            "cc": {"units": "segments", "slow_start": "ack_counting", "congestion_avoidance": "per_ack",
                   "ssthresh_rule": "half_cwnd", "limited_transmit": false, "recover_guard": true,
                   "fast_retransmit_restarts_timer": true, "newreno_timer": "every_partial",
                   "newreno_full_ack": "ssthresh", "newreno_partial_window": "reset",
                   "repeated_rto_ssthresh": "halve_again"},
            "rto": {"estimator": "jacobson88", "clock_tick": 0.01, "initial": 6.0, "min": 1.0, "max": 64.0},
            "receiver": {"delayed_ack": false},
            "app": {"kind": "bulk"},
            "drops": drops
        }]
    })
}

/// The topology and TCP of ns-2's test-suite-tcp.tcl CWV tests (`net6`, source 000 §3):
/// 8 Mbit/s 5 ms links to and from an 800 kbit/s 20 ms bottleneck holding 25 packets,
/// 100-byte segments, a receiver window of `window` packets, initial window 1, the TCP clock
/// tick `tick`, RTO from Jacobson's integer estimator in ticks with no minimum (minrto_ 0)
/// and an initial RTO of 6 s (rtxcur_init_), ns-2's window arithmetic in packets. ns-2's
/// bottleneck is RED with a 25-packet limit; ours is drop-tail (docs/validation.md).
fn ns_cwv(algorithm: &str, tick: f64, window: u64, duration: f64) -> Value {
    json!({
        "duration": duration,
        "seed": 1,
        "network": {"bottleneck": {"bandwidth": 800_000u64, "delay": 0.02, "queue_packets": 25,
                                   "loss": {"model": "none"}, "reverse_loss": {"model": "none"}}},
        "flows": [{
            "algorithm": algorithm,
            "access": {"bandwidth": 8_000_000u64, "delay": 0.005, "queue_packets": 50},
            "receiver_access": {"bandwidth": 8_000_000u64, "delay": 0.005, "queue_packets": 50},
            "tcp": {"mss": 100, "header": 40, "rwnd": window * 100, "initial_window": 1,
                    "initial_ssthresh": window * 100, "syn": false, "nagle": false},
            "cc": {"units": "segments", "slow_start": "ack_counting", "congestion_avoidance": "per_ack",
                   "ssthresh_rule": "half_cwnd", "recover_guard": true, "repeated_rto_ssthresh": "halve_again"},
            "rto": {"estimator": "jacobson88", "clock_tick": tick, "initial": 6.0, "min": 0.0, "max": 60.0},
            "receiver": {"delayed_ack": false}
        }]
    })
}

/// ns-2's `run1` for the quiescent tests: an FTP source that has 100 packets at 0 s, 100
/// more at 2.4 s and 100 more at 2.5 s.
fn quiescent(algorithm: &str, tick: f64, duration: f64) -> Value {
    let mut v = ns_cwv(algorithm, tick, 25, duration);
    v["flows"][0]["app"] = json!({"kind": "scripted", "writes": [
        {"at": 0.0, "bytes": 10_000}, {"at": 2.4, "bytes": 10_000}, {"at": 2.5, "bytes": 10_000}]});
    v
}

/// ns-2's `run2` for the underutilized tests: a Telnet source of 100-byte packets with
/// exponential gaps of mean 0.5 ms, 10 ms from 0.045 s, 0.5 ms again from 2.2 s, stopped at
/// 2.5 s (a mean gap of an hour), run to 3 s; a receiver window of 100 packets.
fn underutilized(algorithm: &str, cc: Value) -> Value {
    let mut v = ns_cwv(algorithm, 0.1, 100, 3.0);
    let f = &mut v["flows"][0];
    f["app"] = json!({"kind": "poisson", "write_size": 100, "write_interval": 0.0005});
    for (k, val) in cc.as_object().into_iter().flatten() {
        f["cc"][k] = val.clone();
    }
    v["timeline"] = json!([
        {"at": 0.045, "set": "flows[0].app.write_interval", "value": 0.01},
        {"at": 2.2, "set": "flows[0].app.write_interval", "value": 0.0005},
        {"at": 2.5, "set": "flows[0].app.write_interval", "value": 3600.0}
    ]);
    v
}

/// The classroom comparison: an on/off sender that hands TCP 100 kB at the start of every
/// 1.5 s cycle (a page of a web session, say) on a 2 Mbit/s, 100 ms RTT path with a
/// 20-packet buffer; RTO as RFC 6298 with a 200 ms minimum (Linux's). Each transfer takes
/// about a second, so the sender is silent for roughly one to two RTOs between them.
fn classroom_onoff() -> Value {
    json!({
        "duration": 20.0,
        "seed": 1,
        "network": {"bottleneck": {"bandwidth": 2_000_000u64, "delay": 0.04, "queue_packets": 20,
                                   "loss": {"model": "none"}, "reverse_loss": {"model": "none"}}},
        "flows": [{
            "algorithm": "newreno",
            "tcp": {"initial_window": 2},
            "rto": {"min": 0.2},
            "app": {"kind": "on_off", "write_size": 100_000, "write_interval": 1.5, "on": 1.0, "off": 0.5}
        }]
    })
}

/// Source 000 (Handley, Padhye, Floyd 1999) §3, as ns-2's test-suite-tcp.tcl runs it.
fn cwv_presets() -> Vec<Preset> {
    let cwv4 = ["newreno", "newreno_restart", "newreno_cwv", "newreno_newcwv"];
    let quiet_look = "The window plot from 0 to 3 s: cwnd, the W_used line, and the marks where the sender restarts or decays its window after the idle period that ends at 2.4 s.";
    let mut out = vec![
        Preset {
            steps: &[],
            family: "",
            focus: None,
            name: "cwv-quiescent-100ms".into(),
            title: "After a silence: restart, CWV and new CWV".into(),
            description: "CWV paper §3.1 (ns quiescent_100ms): a receiver-window-limited sender (25 packets) idle from 0.6 s to 2.4 s; standard ns TCP restarts from one packet; 100 ms TCP clock".into(),
            overrides: quiescent("newreno_restart", 0.1, 4.0),
            lesson: lesson(quiet_look,
                "Without CWV the sender keeps its full window while idle; ns's standard TCP (restart) drops to one packet after an RTO of silence but keeps ssthresh, so it slow-starts back. CWV halves cwnd for every RTO of silence (here 0.3 s: six halvings, down to one packet) and first raises ssthresh to ¾ of the old cwnd.",
                "Handley, Padhye, Floyd 1999, §3.1 and figure 1; ns-2 test-suite-tcp.tcl quiescent_100ms / quiescent_100ms_fine.",
                "After 1.8 s of silence, which of the four senders may send its whole old window at once, and why is that risky?",
                &cwv4),
        },
        Preset {
            steps: &[],
            family: "",
            focus: None,
            name: "cwv-quiescent-100ms-fine".into(),
            title: "CWV halves the window for every RTO of silence (100 ms clock)".into(),
            description: "CWV paper §3.1 (ns quiescent_100ms_fine): the same idle period with CWV (RFC 2861 decay and growth gate), 100 ms TCP clock (RTO 0.3 s)".into(),
            overrides: quiescent("newreno_cwv", 0.1, 4.0),
            lesson: lesson(quiet_look,
                "With a 100 ms clock the RTO is 3 ticks (0.3 s), so 1.8 s of silence is six RTOs: six halvings take cwnd from 25 packets to one; ssthresh keeps ¾ of the old window, so slow start climbs straight back to it.",
                "Handley, Padhye, Floyd 1999, §3.1 and figure 1 (bottom); ns-2 quiescent_100ms_fine.",
                "How many halvings would a 0.9 s pause cause, and what would cwnd be at the restart?",
                &["newreno_restart", "newreno_cwv"]),
        },
        Preset {
            steps: &[],
            family: "",
            focus: None,
            name: "cwv-quiescent-1ms-fine".into(),
            title: "CWV's decay with a 1 ms TCP clock".into(),
            description: "CWV paper §3.1 figure 2 (ns quiescent_1ms_fine): CWV with a 1 ms TCP clock: the RTO is about 55 ms, so the window decays fast".into(),
            overrides: quiescent("newreno_cwv", 0.001, 4.0),
            lesson: lesson("The idle-decay mark at 2.4 s and its before → after values; compare with the 100 ms and 500 ms clocks.",
                "A fine clock measures the RTT precisely, so the RTO is close to the real 52 ms round trip; the decay runs once per RTO, so a long silence takes cwnd to one packet.",
                "Handley, Padhye, Floyd 1999, §3.1 and figure 2 (top); ns-2 quiescent_1ms_fine.",
                "Why does the TCP clock tick change how fast CWV forgets the window?",
                &["newreno_restart", "newreno_cwv"]),
        },
        Preset {
            steps: &[],
            family: "",
            focus: None,
            name: "cwv-quiescent-500ms-fine".into(),
            title: "CWV's decay with a 500 ms TCP clock".into(),
            description: "CWV paper §3.1 figure 2 (ns quiescent_500ms_fine): CWV with a 500 ms TCP clock: the RTO is 1.5 s, so the window has decayed only part of the way".into(),
            overrides: quiescent("newreno_cwv", 0.5, 4.0),
            lesson: lesson("The idle-decay mark at 2.4 s: how far cwnd fell, compared with the 1 ms clock.",
                "With 500 ms ticks every RTT sample is one tick and the RTO is 3 ticks = 1.5 s; 1.8 s of silence is a single RTO, so cwnd is halved once, not six times.",
                "Handley, Padhye, Floyd 1999, §3.1 and figure 2 (bottom); ns-2 quiescent_500ms_fine.",
                "Is a coarse clock more or less conservative after idle periods? What else does a coarse clock slow down?",
                &["newreno_restart", "newreno_cwv"]),
        },
    ];
    for (name, alg, what, title) in [
        (
            "cwv-quiescentB",
            "newreno_restart",
            "standard ns TCP (restart after idle): ssthresh stays small",
            "An early drop, then a silence: restart keeps ssthresh small",
        ),
        (
            "cwv-quiescentB-qoption",
            "newreno_cwv",
            "CWV: ssthresh keeps ¾ of the window before the idle period",
            "An early drop, then a silence: CWV keeps ¾ of the window in ssthresh",
        ),
    ] {
        let mut v = quiescent(alg, 0.1, 3.0);
        // ns-2 drop_pkts {2}: the first transmission of the third data packet (seqno 2).
        v["flows"][0]["drops"] = json!([{"segment": 3, "attempt": 1}]);
        out.push(Preset {
            steps: &[],
            family: "",
            focus: None,
            name: name.into(),
            title: title.into(),
            description: format!("CWV paper §3.2 (ns {}): an early drop leaves ssthresh small; after the idle period, {what}", name.trim_start_matches("cwv-").replace('-', "_")),
            overrides: v,
            lesson: lesson("ssthresh before and after the restart at 2.4 s, and how long each sender takes to reopen its window.",
                "The drop of the third packet halves ssthresh to 2 packets. Restart after idle resets cwnd to one packet but leaves that small ssthresh, so the sender crawls back in congestion avoidance. CWV raises ssthresh to ¾ of the window it had before the silence, so slow start reopens it in a few round trips.",
                "Handley, Padhye, Floyd 1999, §3.2 and figure 3; ns-2 quiescentB and quiescentB qoption.",
                "Which variable carries the connection's memory across an idle period, and why is ¾·cwnd a sensible value?",
                &["newreno_restart", "newreno_cwv"]),
        });
    }
    let under = [
        (
            "cwv-underutilized-100ms",
            "newreno_restart",
            json!({}),
            "neither mechanism (standard ns TCP)",
            "Application-limited, then a burst: neither gate nor decay",
        ),
        (
            "cwv-underutilized-100ms-control",
            "newreno_restart",
            json!({"growth_gate": "window_full"}),
            "the growth gate alone",
            "Application-limited, then a burst: the growth gate alone",
        ),
        (
            "cwv-underutilized-100ms-q",
            "newreno_restart",
            json!({"idle_policy": "rfc2861"}),
            "the decay alone",
            "Application-limited, then a burst: the decay alone",
        ),
        (
            "cwv-underutilized-100ms-control-q",
            "newreno_cwv",
            json!({}),
            "both (CWV)",
            "Application-limited, then a burst: gate and decay (CWV)",
        ),
    ];
    for (name, alg, cc, what, title) in under {
        out.push(Preset {
            steps: &[],
            family: "",
            focus: None,
            name: name.into(),
            title: title.into(),
            description: format!("CWV paper §3.3 (ns {}): a Telnet-like sender application-limited from 0.045 s to 2.2 s, then a burst; {what}", name.trim_start_matches("cwv-").replace('-', "_").replace("control_q", "control_Q")),
            overrides: underutilized(alg, cc),
            lesson: lesson("cwnd during the application-limited period (0.05–2.2 s) and the burst at 2.2 s: packets sent back to back (max burst) and the drops that follow.",
                "While the application writes a packet every 10 ms, every ACK still grows an ungated cwnd, so it climbs far beyond what was ever used; when the burst comes at 2.2 s the sender dumps that window at once and the 25-packet buffer overflows. The gate stops the growth (the window is never full); the decay brings cwnd down to about what was used; with both the burst leaves at the pace slow start allows.",
                "Handley, Padhye, Floyd 1999, §3.3 and figure 4; ns-2 underutilized_100ms, _control, _Q and _control_Q.",
                "Which of the two mechanisms matters most here, and which would matter for a sender that was idle rather than application-limited?",
                &["newreno_restart", "newreno_cwv"]),
        });
    }
    out.push(Preset {
        steps: &[],
        family: "",
        focus: None,
        name: "cwv-classroom-onoff".into(),
        title: "Web pages every 1.5 s: four ways to restart after a silence".into(),
        description: "Classroom: an on/off sender (100 kB every 1.5 s over a 2 Mbit/s, 100 ms path, silent in between) with NewReno, NewReno + restart, NewReno + CWV and NewReno + new CWV".into(),
        overrides: classroom_onoff(),
        lesson: lesson("cwnd at the start of each transfer (every 1.5 s), the burst each sender sends then (max burst in the summary), and the drops and retransmissions that follow.",
            "A timeout in the first transfer leaves ssthresh at 2 packets. NewReno keeps its old window through each silence and dumps it at once, overflowing the buffer now and then. Restart drops to the initial window and, with that small ssthresh, crawls back in congestion avoidance every time. CWV halves cwnd once per RTO of silence and raises ssthresh to ¾ of the old window, so it slow-starts back quickly. New CWV keeps cwnd (the silence puts it in the non-validated phase), so it bursts like NewReno, but answers a loss from the rate it actually used (pipeACK).",
            "RFC 5681 §4.1; RFC 2861 §3 (source 000 §2); RFC 7661 §4.3–4.4.",
            "Which sender delivers the most data after each silence, and which one is kindest to the other users of the bottleneck?",
            &cwv4),
    });
    out
}

/// Source 002 (Komuro et al. 2006) §4: PC1 → R1 → R2 → PC3 over 100 Mbit/s links, 2 ms
/// to and from the routers, `router_delay` between them (25 ms: RTT 58 ms), 100-packet
/// router buffers, 1500-byte packets, the TCP flow reserving 40 Mbit/s at a class-based
/// router, and PC2 → PC4 sending UDP. Our choices where the paper is silent: the link
/// between the routers also runs at 100 Mbit/s; the UDP source is CBR at PC2's line rate
/// (100 Mbit/s, so the best-effort class is always saturated); the run lasts 30 s.
fn komuro(scheduler: &str, borrow: bool, udp: Value) -> Value {
    let access = json!({"bandwidth": 100_000_000u64, "delay": 0.002, "queue_packets": 1000});
    json!({
        "duration": 30.0,
        "seed": 1,
        "network": {"bottleneck": {"bandwidth": 100_000_000u64, "delay": 0.025, "queue_packets": 100,
                                   "loss": {"model": "none"}, "reverse_loss": {"model": "none"},
                                   "scheduler": scheduler, "borrow": borrow}},
        "flows": [{
            "algorithm": "br_tcp",
            "reserved_bandwidth": 40_000_000u64,
            "access": access,
            "receiver_access": access
        }],
        "cross": [udp]
    })
}

/// The BR-TCP family (source 002).
fn br_tcp_presets() -> Vec<Preset> {
    let both = ["newreno", "br_tcp"];
    let udp = json!({"kind": "cbr", "rate": 100_000_000u64, "packet_size": 1500});
    vec![
        Preset {
            steps: &[],
            family: "",
            focus: None,
            name: "br-tcp-komuro".into(),
            title: "BR-TCP against NewReno behind a 40 Mbit/s reservation".into(),
            description: "Komuro et al. 2006, figures 4–8: a TCP flow with 40 Mbit/s reserved at a class-based router (100 Mbit/s links, RTT 58 ms, 100-packet buffers) against 100 Mbit/s of UDP; NewReno versus BR-TCP".into(),
            overrides: komuro("reservation", false, udp.clone()),
            lesson: lesson(
                "The window plot (cwnd, ssthresh and the dashed reserved-BDP line at 193 packets), the throughput plot in 1 s bins, and the queue plot: the bottleneck holds 100 packets per class, the best-effort class always full of UDP, the rest the flow's own queue.",
                "The reserved class drains at 40 Mbit/s and holds 100 packets, so the pipe is full from a window of 193 packets (the reserved rate's bandwidth-delay product) and overflows above about 293. NewReno halves to below 193 on every loss and leaves the reservation partly unused while it climbs back one packet per RTT; its slow-start overshoot at 40 Mbit/s loses so many packets per window that it times out again and again. BR-TCP drops only to the reserved BDP, so the pipe stays full and the throughput flat. The UDP source gets the other 60 Mbit/s whatever TCP does.",
                "Komuro et al. 2006 (source 002) §3 eq. (1)–(2), §4, figures 4–8; the paper's testbed: NewReno 2.5 MB/s average, BR-TCP 3.4 MB/s.",
                "Why does halving the window cost NewReno throughput here, when on a path with a buffer as large as its bandwidth-delay product it would cost nothing?",
                &both,
            ),
        },
        Preset {
            steps: &[],
            family: "",
            focus: None,
            name: "br-tcp-komuro-fifo".into(),
            title: "Without the reservation: TCP and UDP in one FIFO queue".into(),
            description: "The same network with a plain FIFO router: 100 Mbit/s of UDP and the TCP flow share one drop-tail queue and nothing is reserved".into(),
            overrides: komuro("fifo", false, udp),
            lesson: lesson(
                "Goodput in the summary and the throughput plot: the UDP source against the TCP flow.",
                "Without the reservation the UDP source keeps the single queue full: nearly every TCP packet meets a full buffer, TCP backs off on every loss and times out, and UDP, which never slows down, takes almost the whole link. BR-TCP's formula cannot help: it sets ssthresh from a rate the network no longer guarantees.",
                "Komuro et al. 2006 (source 002) §4: the routers use class-based queueing; this preset removes it.",
                "What does a reservation buy a TCP flow that no congestion-control algorithm can?",
                &both,
            ),
        },
        Preset {
            steps: &[],
            family: "",
            focus: None,
            name: "br-tcp-komuro-borrow".into(),
            title: "A reservation that may borrow: UDP on and off".into(),
            description: "The paper's network with borrowing on and the UDP source on for 5 s, off for 5 s: the TCP class may use the capacity UDP leaves idle".into(),
            overrides: komuro(
                "reservation",
                true,
                json!({"kind": "on_off", "rate": 100_000_000u64, "packet_size": 1500, "on": 5.0, "off": 5.0}),
            ),
            lesson: lesson(
                "The throughput plot: the TCP flow while the UDP source is off (5–10 s, 15–20 s, 25–30 s) against while it is on.",
                "With borrowing the TCP class may take the whole 100 Mbit/s while UDP is silent. BR-TCP still falls back to the 40 Mbit/s reserved BDP on each loss, so it climbs back to the larger window slowly, while NewReno halves a window that was sized for 100 Mbit/s. When UDP returns, the TCP class is cut back to its reservation and both see a burst of losses.",
                "Komuro et al. 2006 (source 002) assume bounded classes (no borrowing); the CBQ of Floyd and Jacobson 1995 allows it.",
                "BR-TCP's ssthresh is the reserved rate's BDP. Is that the right floor when the flow may borrow more?",
                &both,
            ),
        },
    ]
}

const FF_DROPS: [&[u64]; 4] = [&[14], &[14, 28], &[14, 26, 28], &[14, 24, 26, 28]];

/// The four classic variants, as the NetSim and Fall & Floyd lessons compare them.
const FOUR: [&str; 4] = ["old_tahoe", "tahoe", "reno", "newreno"];

/// The NetSim lab's lesson (every variant's preset shares it; its focus is its own variant).
/// The numbers are the presets' (seed 1) and docs/lessons/netsim.md's.
fn netsim_lesson() -> Option<Lesson> {
    lesson(
        "The window plot and the time–sequence plot around the first bit error (packet 1 223, lost at 2.10 s), then the summary: goodput, timeouts and fast retransmits of each variant.",
        "Every loss here is a bit error (the buffers hold 1 000 packets). Old Tahoe ignores the duplicate ACKs and waits for its timer (3.15 s), then restarts from one packet: six timeouts in 20 s. Tahoe resends on the third duplicate ACK at 2.15 s, 50 ms after the loss instead of a whole RTO later, but also restarts from one packet. Reno and NewReno resend at 2.15 s too and continue from half the window: no timeout at all. A single random loss per window is the common case, so Reno and NewReno behave almost alike. Seed 1, 20 s: Old Tahoe 4.12 Mbit/s, Tahoe 3.68, Reno 5.14, NewReno 4.83; over 400 s the order settles at NewReno ≥ Reno > Tahoe > Old Tahoe (4.15, 4.10, 3.60, 2.70 Mbit/s), close to Mathis et al.'s 4.02.",
        "Source 001 (the NetSim lab, TCP congestion control algorithms); RFC 5681 §3.2 (fast retransmit and fast recovery); docs/validation.md §3.",
        "Why is Tahoe faster than Old Tahoe on average, if both end with cwnd = 1 after a loss? Change the seed: how much does one 20-second run tell you?",
        &FOUR,
    )
}

/// The Fall & Floyd lesson for `n` drops (1–4) from one window, comparing `pair` (the
/// preset's variant and the one its title sets it against): the variants' presets share its
/// texts, which tell all four variants' story; its focus is each preset's own variant. The times are the engine's
/// (`cwndlab explain --preset fall-floyd-<variant>-<n>drops`, pinned by
/// tests/loss_recovery.rs) and docs/lessons/fall-floyd.md's.
fn fall_floyd_lesson(n: usize, pair: [&str; 2]) -> Option<Lesson> {
    let look = "The window plot and the time–sequence plot from 2.0 to 3.5 s: the third duplicate ACK for packet 14 at 2.069 s, the window inflating in fast recovery, the ACK of the retransmission at 2.281 s, and which variant then waits for its timer. Add the other variants to the comparison to see all four.";
    let source = "Fall & Floyd 1996, Simulation-based Comparisons of Tahoe, Reno and SACK TCP, §3–4 (one to four packets dropped from one window), as ns-2's test-suite-tcpVariants runs it; RFC 5681 §3.2, RFC 6582 §3.2.";
    let (happens, question) = match n {
        1 => (
            "Packet 14 is dropped from a window of 15. Tahoe, Reno and NewReno resend it on the third duplicate ACK at 2.069 s and set ssthresh = 7 packets. Tahoe restarts from one packet; Reno and NewReno set cwnd = 7, inflate the window by one packet per further duplicate ACK until new packets leave, and the ACK of the retransmission at 2.281 s covers everything sent: recovery ends with cwnd 7, no timeout. With one loss Reno and NewReno trace the same events. Old Tahoe counts 14 duplicate ACKs and ignores them: its timer fires at 2.899 s, one second after the last new ACK, and cwnd falls to one packet.",
            "With a single loss, Reno and NewReno behave exactly alike. Why? What does Old Tahoe lose by waiting for its timer?",
        ),
        2 => (
            "Packets 14 and 28 are dropped from one window. Tahoe, Reno and NewReno resend 14 on the third duplicate ACK at 2.069 s (ssthresh 7). At 2.281 s the ACK of that retransmission stops at the second hole (27 000): a partial ACK. Reno takes any new ACK as the end of recovery: cwnd = 7 with 7 packets still in flight, so it sends nothing; the recover guard ignores the duplicate ACKs that follow, and Reno waits for its timer, which fires at 3.281 s, one RTO after the partial ACK (ssthresh ⌊7/2⌋ = 3, cwnd 1). NewReno resends packet 28 at once on the partial ACK and leaves recovery at 2.493 s, one round trip later, without a timeout. Old Tahoe's timer fires at 2.899 s.",
            "Why can Reno send nothing after the partial ACK at 2.281 s? Count cwnd and the packets in flight.",
        ),
        3 => (
            "Packets 14, 26 and 28 are dropped from one window. The third duplicate ACK at 2.069 s resends 14 (ssthresh 7). At 2.281 s the ACK of the retransmission stops at packet 26: a partial ACK (25 000). Reno leaves fast recovery on it with cwnd 7 and 7 packets in flight, the recover guard ignores the duplicate ACKs for 26, and its timer fires at 3.281 s: cwnd 1, ssthresh 3, and go-back-N resends 26, 28 and also 29, which the receiver already had. NewReno stays in recovery: it resends 26 on the partial ACK, 28 on the next one at 2.493 s, and leaves at 2.705 s on the full ACK, one round trip per lost packet, without a timeout. Old Tahoe's timer fires at 2.899 s.",
            "Reno times out with three drops in one window and NewReno does not. Which ACK do they read differently, and what does each do with it?",
        ),
        _ => (
            "Packets 14, 24, 26 and 28 are dropped from one window. The third duplicate ACK at 2.069 s resends 14 (ssthresh 7). The partial ACK at 2.281 s (23 000) ends Reno's recovery with 8 packets in flight; the recover guard ignores the duplicate ACKs that follow and its timer fires at 3.281 s (cwnd 1, ssthresh 3). NewReno resends one hole per partial ACK, each one round trip after the last (24 at 2.281 s, 26 at 2.493 s, 28 at 2.705 s), and leaves recovery at 2.917 s, three round trips after the fast retransmit, without a timeout. Old Tahoe's timer fires at 2.899 s.",
            "NewReno needs one round trip per lost packet. What would 20 losses in one window cost it, and what would a receiver that reports every hole at once (SACK) change?",
        ),
    };
    lesson(look, happens, source, question, &pair)
}

fn netsim_presets() -> Vec<Preset> {
    VARIANTS
        .iter()
        .map(|(slug, v, label)| Preset {
            steps: &[],
            family: "",
            focus: None,
            name: format!("netsim-{slug}"),
            title: format!("NetSim lab: {label} over a link with bit errors"),
            description: format!(
                "NetSim lab: {label} over a 10 Mbit/s, 100 ms path with BER 1e-7 on the data direction, CBR 1460 B every 1168 µs, 20 s"
            ),
            overrides: netsim(v),
            lesson: netsim_lesson(),
        })
        .collect()
}

/// The variant each Fall & Floyd preset is set against in its title and lesson (the one
/// whose difference the drops show), by `VARIANTS` index: (catalogue name, label).
const FF_AGAINST: [(&str, &str); 4] = [
    ("tahoe", "Tahoe"),
    ("reno", "Reno"),
    ("newreno", "NewReno"),
    ("reno", "Reno"),
];

fn fall_floyd_presets() -> Vec<Preset> {
    let mut out = Vec::new();
    for (i, (slug, v, label)) in VARIANTS.into_iter().enumerate() {
        for (n, drops) in FF_DROPS.iter().enumerate() {
            let list: Vec<String> = drops.iter().map(u64::to_string).collect();
            out.push(Preset {
                steps: &[],
                family: "",
                focus: None,
                name: format!("fall-floyd-{slug}-{}drops", n + 1),
                title: format!(
                    "{label} against {}: {} in one window",
                    FF_AGAINST[i].1,
                    ["one drop", "two drops", "three drops", "four drops"][n]
                ),
                description: format!(
                    "Fall & Floyd 1996: {label}, 800 kb/s 100 ms bottleneck, 8-packet queue, packets {} dropped from one window",
                    list.join(", ")
                ),
                overrides: fall_floyd(v, drops),
                lesson: fall_floyd_lesson(n + 1, [v, FF_AGAINST[i].0]),
            });
        }
    }
    out
}

/// A family of presets: the experiments of one source, listed together in the menu.
pub struct Family {
    /// Its name (`Preset::family`).
    pub name: &'static str,
    /// Its title in the menu ("Fall & Floyd 1996: the four variants under drops").
    pub title: &'static str,
    build: fn() -> Vec<Preset>,
    /// Where its lessons lead (the steps a preset offers are those whose rules its runs
    /// explain).
    steps: &'static [Step],
}

/// The preset families, in menu order. `find` builds them one at a time, so looking up a
/// preset does not build all 60 (it took about half of a short CLI run's setup).
pub const FAMILIES: [Family; 10] = [
    Family {
        name: "netsim",
        title: "NetSim lab: the four variants over a link with bit errors",
        build: netsim_presets,
        steps: &[FAST_RETRANSMIT, PARTIAL_ACK, RENO_EXIT, TIMEOUT],
    },
    Family {
        name: "fall-floyd",
        title: "Fall & Floyd 1996: the four variants under drops",
        build: fall_floyd_presets,
        steps: &[FAST_RETRANSMIT, PARTIAL_ACK, RENO_EXIT, SUPPRESSED, TIMEOUT],
    },
    Family {
        name: "recovery",
        title: "Loss recovery as deployed today: SACK, PRR, RACK-TLP",
        build: recovery::presets,
        steps: &[
            recovery::SACK_RECOVERY,
            recovery::NEXT_SEG,
            recovery::PRR,
            recovery::RACK,
            recovery::TLP,
            TIMEOUT,
        ],
    },
    Family {
        name: "cwv",
        title: "Handley, Padhye & Floyd 1999: the window after a silence (CWV)",
        build: cwv_presets,
        steps: &[IDLE, APP_LIMITED, GATE, FAST_RETRANSMIT, TIMEOUT],
    },
    Family {
        name: "br-tcp",
        title: "Komuro et al. 2006: BR-TCP behind a bandwidth reservation",
        build: br_tcp_presets,
        steps: &[BR_SSTHRESH, FAST_RETRANSMIT, TIMEOUT],
    },
    Family {
        name: "thin-streams",
        title: "Thin streams (Simula 2015): small writes, windows in packets",
        build: thin::presets,
        steps: &[DELACK, GATE, recovery::SACK_RECOVERY, recovery::TLP, TIMEOUT],
    },
    Family {
        name: "jacobson",
        title: "Jacobson 1988: slow start, timers, conversations sharing a link",
        build: jacobson::presets,
        steps: &[TIMEOUT, RTT, CAP],
    },
    Family {
        name: "internet",
        title: "The Internet today: CUBIC and BBR",
        build: internet::presets,
        steps: &[CUBIC_CUT, CUBIC_EPOCH, FAST_RETRANSMIT, TIMEOUT],
    },
    Family {
        name: "textbook",
        title: "Textbook exercises",
        build: textbook::presets,
        steps: &[FAST_RETRANSMIT, RENO_EXIT, TIMEOUT],
    },
    Family {
        name: "aqm",
        title: "Queues that manage themselves: AQM, ECN and DCTCP",
        build: aqm::presets,
        steps: &[AQM_DROP, CE_MARK, ECN_REDUCE, FAST_RETRANSMIT, TIMEOUT],
    },
];

/// A family's presets, with its name and steps, and the focus of a comparison that names
/// none: its own flow-0 algorithm.
fn family(f: &Family) -> Vec<Preset> {
    (f.build)().into_iter().map(|p| finish(f, p)).collect()
}

/// One preset of family `f` with its family's name and steps, and its focus (working the
/// focus out resolves the preset's scenario, so [`find`] does it for the one it returns).
fn finish(f: &Family, p: Preset) -> Preset {
    let own = || {
        p.scenario()
            .ok()
            .and_then(|s| s.flows.first().map(|f| f.algorithm.clone()))
    };
    let compares = p.lesson.as_ref().is_some_and(|l| l.mode == "compare");
    let focus = p.focus.clone().or_else(|| if compares { own() } else { None });
    Preset {
        steps: f.steps,
        family: f.name,
        focus,
        ..p
    }
}

/// Every preset, in menu order.
pub fn all() -> Vec<Preset> {
    FAMILIES.iter().flat_map(family).collect()
}

/// Looks a preset up by name.
pub fn find(name: &str) -> Option<Preset> {
    FAMILIES
        .iter()
        .find_map(|f| (f.build)().into_iter().find(|p| p.name == name).map(|p| finish(f, p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_builds_the_same_preset_as_the_menu_for_every_name() {
        for p in all() {
            let f = find(&p.name).unwrap_or_else(|| panic!("{} not found", p.name));
            assert_eq!((&f.name, &f.overrides), (&p.name, &p.overrides));
        }
        assert!(find("netsim-cubic").is_none());
    }

    #[test]
    fn every_preset_has_a_title_a_family_a_lesson_and_a_focus_among_its_runs() {
        let mut titles = std::collections::BTreeSet::new();
        for p in all() {
            assert!(!p.title.trim().is_empty(), "{}: no title", p.name);
            assert!(
                titles.insert(p.title.clone()),
                "{}: title {:?} used twice",
                p.name,
                p.title
            );
            let family = FAMILIES.iter().find(|f| f.name == p.family);
            assert!(family.is_some_and(|f| !f.title.is_empty()), "{}: no family", p.name);
            let lesson = p.lesson.as_ref().unwrap_or_else(|| panic!("{}: no lesson", p.name));
            for text in [&lesson.look, &lesson.happens, &lesson.source, &lesson.question] {
                assert!(!text.trim().is_empty(), "{}: an empty lesson text", p.name);
            }
            match lesson.mode {
                "compare" => {
                    let focus = p.focus.as_deref().unwrap_or_else(|| panic!("{}: no focus", p.name));
                    // `custom`: the preset's own flow-0 settings, which no catalogue entry
                    // has (the page compares them as "custom" beside the lesson's list).
                    let own = &p.scenario().unwrap().flows[0].algorithm;
                    assert!(
                        lesson.compare.iter().any(|a| a == focus) || (focus == "custom" && own == "custom"),
                        "{}: focus {focus} is not one of {:?}",
                        p.name,
                        lesson.compare
                    );
                }
                _ => {
                    let flows = p.scenario().unwrap().flows.len();
                    if let Some(f) = &p.focus {
                        let i: usize = f
                            .strip_prefix("flow")
                            .and_then(|i| i.parse().ok())
                            .unwrap_or(usize::MAX);
                        assert!(i < flows, "{}: focus {f} is not one of its {flows} flows", p.name);
                    }
                }
            }
        }
        // The families in menu order, each one block of presets.
        let order: Vec<&str> = all().iter().map(|p| p.family).collect();
        let mut blocks = order.clone();
        blocks.dedup();
        assert_eq!(blocks, FAMILIES.iter().map(|f| f.name).collect::<Vec<_>>());
        // The classic lesson: its focus is the variant the preset names.
        let reno = find("fall-floyd-reno-3drops").unwrap();
        assert_eq!(reno.focus.as_deref(), Some("reno"));
        assert_eq!(reno.title, "Reno against NewReno: three drops in one window");
        assert_eq!(find("textbook-reno").unwrap().focus.as_deref(), Some("reno"));
        assert_eq!(find("cubic-long-fat-path").unwrap().focus.as_deref(), Some("cubic"));
    }

    #[test]
    fn every_preset_is_a_valid_scenario() {
        let all = all();
        assert_eq!(all.len(), 66);
        for p in all {
            if let Err(e) = p.scenario() {
                panic!("{}: {e:?}", p.name);
            }
        }
    }
}
