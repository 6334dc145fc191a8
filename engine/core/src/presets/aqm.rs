//! Queues that manage themselves (issue 40): the cures for bufferbloat that routers
//! deployed (RED, CoDel, FQ-CoDel, PIE), ECN instead of drops, and DCTCP on a shallow
//! marking queue. The paths are ours; the numbers in the lessons are the presets' own
//! (seed 1), and docs/lessons/aqm.md derives them.

use super::{compete_lesson, lesson, Preset};
use serde_json::{json, Value};

const CODEL: &str = "RFC 8289 (CoDel) §3–5";
const FQ: &str = "RFC 8290 (FQ-CoDel) §1.1, §4";
const PIE: &str = "RFC 8033 (PIE) §4";
const RED: &str = "Floyd & Jacobson 1993, Random Early Detection Gateways for Congestion Avoidance, §4, §6–7";
const ECN: &str = "RFC 3168 (ECN) §5–6.1";
const DCTCP: &str = "RFC 8257 (DCTCP) §3–4; Alizadeh et al. 2010, Data Center TCP, §3";
const BLOAT: &str = "Gettys & Nichols 2011 (bufferbloat); Nichols & Jacobson 2012, Controlling Queue Delay";

/// The bufferbloat path of `cubic-bufferbloat`: 10 Mbit/s, 20 ms one way, a 1 000-packet
/// buffer (1.2 s of queue), under `qdisc`; one greedy flow.
fn bloat_path(qdisc: &str, duration: f64) -> Value {
    json!({
        "duration": duration,
        "seed": 1,
        "trace": {"throughput_bin": 1.0},
        "network": {"bottleneck": {"bandwidth": 10_000_000u64, "delay": 0.02, "queue_packets": 1000,
                                   "qdisc": qdisc,
                                   "loss": {"model": "none"}, "reverse_loss": {"model": "none"}}},
        "flows": [{"algorithm": "newreno", "tcp": {"rwnd": 100_000_000u64, "initial_window": 10},
                   "app": {"kind": "bulk"}}]
    })
}

/// Floyd & Jacobson's RED network (1993 §6): four bulk transfers from 100 Mbit/s access
/// links of 1, 4, 5 and 8 ms into a 45 Mbit/s, 2 ms gateway link with a 100-packet buffer,
/// 1 000-byte packets, windows of at most 240 packets; the paper's RED parameters (min_th 5,
/// max_th 15, w_q 0.002, max_p 1/50). The transfers start 0.5 s apart.
fn red_network() -> Value {
    let flows: Vec<Value> = [0.001, 0.004, 0.005, 0.008]
        .iter()
        .enumerate()
        .map(|(i, d)| {
            json!({"algorithm": "newreno", "start": i as f64 * 0.5,
                   "access": {"bandwidth": 100_000_000u64, "delay": d},
                   "receiver_access": {"bandwidth": 100_000_000u64, "delay": 0.0},
                   "tcp": {"mss": 960, "rwnd": 240 * 960, "initial_window": 1},
                   "app": {"kind": "bulk"}})
        })
        .collect();
    json!({
        "duration": 10.0,
        "seed": 1,
        "trace": {"throughput_bin": 0.1},
        "network": {"bottleneck": {"bandwidth": 45_000_000u64, "delay": 0.002, "queue_packets": 100,
                                   "qdisc": "red",
                                   "red": {"min_th": 5, "max_th": 15, "max_p": 0.02, "w_q": 0.002, "packet_size": 1000},
                                   "loss": {"model": "none"}, "reverse_loss": {"model": "none"}}},
        "flows": flows
    })
}

/// A data-centre path: 1 Gbit/s, 0.5 ms one way (about 83 packets in flight fill it), a
/// 200-packet switch buffer that marks ECN-capable arrivals above K = 20 packets; 10 Gbit/s
/// hosts; one greedy flow for 2 s.
fn dc_path() -> Value {
    let host = json!({"bandwidth": 10_000_000_000u64, "delay": 0.00001});
    json!({
        "duration": 2.0,
        "seed": 1,
        "trace": {"throughput_bin": 0.01},
        "network": {"bottleneck": {"bandwidth": 1_000_000_000u64, "delay": 0.0005, "queue_packets": 200,
                                   "qdisc": "step", "step": {"k": 20},
                                   "loss": {"model": "none"}, "reverse_loss": {"model": "none"}}},
        "flows": [{"algorithm": "newreno", "access": host, "receiver_access": host,
                   "tcp": {"rwnd": 100_000_000u64, "initial_window": 10}, "app": {"kind": "bulk"}}]
    })
}

/// The bufferbloat path with a web-page fetch: flow 0 fetches 100 kB at a time (each on a
/// fresh connection, Poisson arrivals 2 s apart on average), flow 1 is a bulk transfer
/// filling the buffer, both CUBIC as Linux runs it; a ping probe every 100 ms; 60 s.
fn web_fetch_path() -> Value {
    let flow = |app: Value| json!({"algorithm": "cubic_linux_today", "tcp": {"rwnd": 100_000_000u64, "initial_window": 10}, "app": app});
    json!({
        "duration": 60.0,
        "seed": 1,
        "trace": {"throughput_bin": 1.0},
        "network": {"bottleneck": {"bandwidth": 10_000_000u64, "delay": 0.02, "queue_packets": 1000,
                                   "qdisc": "droptail",
                                   "loss": {"model": "none"}, "reverse_loss": {"model": "none"}}},
        "flows": [flow(json!({"kind": "transfers", "write_size": 100_000, "write_interval": 2.0})),
                  flow(json!({"kind": "bulk"}))],
        "cross": [{"kind": "ping", "packet_size": 64, "interval": 0.1, "start": 0.05}]
    })
}

fn preset(name: &str, focus: Option<&str>, title: &str, description: &str, overrides: Value) -> Preset {
    Preset {
        steps: &[],
        family: "",
        focus: focus.map(Into::into),
        name: name.into(),
        title: title.into(),
        description: description.into(),
        overrides,
        lesson: None,
    }
}

/// The family, in menu order.
pub(super) fn presets() -> Vec<Preset> {
    vec![
        Preset {
            lesson: lesson(
                "The queueing-delay plot against cubic-bufferbloat's, the CoDel drops on the queue plot (click one: the inspector shows the control law's arithmetic), and the summary's goodput; then the sweep: the same flow under drop-tail, CoDel, FQ-CoDel and PIE side by side.",
                "The buffer still holds 1 000 packets, but CoDel measures how long each packet waited as it leaves. Once that has stayed above 5 ms for a whole 100 ms interval it drops one packet, then the next interval/√count later, until a packet leaves having waited less than 5 ms. CUBIC (as Linux runs it, with SACK) backs off at the first of those drops instead of when 1 000 packets are waiting: the mean queueing delay falls from 875 ms under drop-tail to 4.1 ms (95th percentile 1.2 s → 7.2 ms), 39 packets are dropped instead of 251, and goodput stays at 9.19 Mbit/s (9.71 under drop-tail: CoDel lets the queue empty now and then). PIE steers the delay to its 15 ms target: 16.0 ms, 9.44 Mbit/s. RED, tuned for packets rather than time, keeps 5.5 ms but costs more: 8.50 Mbit/s. With one flow FQ-CoDel is CoDel: its queues matter when flows share (aqm-fq-codel-thin).",
                &format!("{CODEL}; {PIE}; {BLOAT}"),
                "The link is as busy under CoDel as under drop-tail. Then what was the 1 000-packet buffer doing for the flow, and why is CoDel's signal a time rather than a queue length?",
                &["cubic_linux_today", "newreno_sack_prr"],
            )
            .map(|l| l.with_sweep("sweep=network.bottleneck.qdisc:droptail,red,codel,fq_codel,pie&sweepseeds=1&sweepalg=cubic_linux_today&sweepm=qdelay_mean_ms")),
            ..preset(
                "aqm-bufferbloat-cured",
                Some("cubic_linux_today"),
                "Bufferbloat cured: CoDel in the same deep buffer",
                "cubic-bufferbloat's path (10 Mbit/s, 40 ms RTT, a 1 000-packet buffer) with CoDel managing the bottleneck queue: CUBIC as Linux runs it, and NewReno with SACK",
                bloat_path("codel", 30.0),
            )
        },
        Preset {
            lesson: compete_lesson(
                "The queue plot: the instantaneous queue, RED's average queue and its thresholds min_th = 5 and max_th = 15; the drops (click one: p_b, count and p_a).",
                "RED averages the queue over about 500 arrivals (w_q = 0.002: about 90 ms at 5 625 packets a second), so the average moves slowly while the queue itself swings with each window. Between min_th and max_th an arrival is dropped with p_a = p_b/(1 − count·p_b), p_b rising linearly to max_p = 1/50, so the drops are spread out rather than bunched, and the flow that sends most loses most. Each transfer's slow start overshoots: the average climbs to 24 packets, past max_th, and RED then drops every arrival until it falls back (664 of the run's 831 drops, all before 4 s), so every transfer times out about a second after it starts (1.07, 1.64, 2.15, 2.71 s); flow 1's retransmissions are dropped too and its timer doubles (3.71, 7.8 s): 0.38 Mbit/s in 10 s. Once all four run (from 4 s) the average stays between 2.6 and 10.2 packets (5.7 on average; the queue itself 6.2, at most 25), never reaching max_th, about 19 early drops a second, and the link carries 40.3 Mbit/s, 90 % of its rate.",
                RED,
                "The average queue reacts to a burst only after hundreds of arrivals. Why is that what Floyd and Jacobson wanted, and what does it cost when a slow start overshoots? Try network.bottleneck.red.gentle.",
            ),
            ..preset(
                "aqm-red-average",
                None,
                "RED's average queue: Floyd & Jacobson's gateway",
                "Floyd & Jacobson 1993 §6's network: four transfers (1, 4, 5 and 8 ms access links, starting 0.5 s apart) through a 45 Mbit/s gateway link with a 100-packet RED queue (min_th 5, max_th 15, w_q 0.002, max_p 1/50)",
                red_network(),
            )
        },
        Preset {
            lesson: lesson(
                "The event log's ce_mark rows against the other run's aqm_drop rows, the retransmissions in the summary, and the window plots: the same reductions, with and without a lost packet.",
                "Under CoDel both flows get the same signal at the same moments; only its form differs. Without ECN CoDel drops the packet: 39 drops, 42 retransmissions, each costing the flow a round trip of recovery. With ECN negotiated in the handshake the data packets are ECN-capable and CoDel marks them CE instead (34 marks); the receiver echoes ECE until the sender's CWR, and the sender cuts its window once per round trip as for a loss, but nothing is lost and nothing is resent: 0 drops, 0 retransmissions, the same 3.9 ms of queueing delay and 9.18 Mbit/s.",
                &format!("{ECN}; {CODEL}"),
                "If the window is cut exactly as for a loss, what does the application gain from ECN? Think of the last packets of a short transfer.",
                &["cubic_linux_today", "cubic_linux_ecn"],
            ),
            ..preset(
                "aqm-ecn-vs-drops",
                Some("cubic_linux_ecn"),
                "ECN against drops at the same CoDel queue",
                "The bufferbloat path under CoDel (10 Mbit/s, 40 ms RTT, 1 000-packet buffer): CUBIC as Linux runs it, with and without ECN",
                bloat_path("codel", 30.0),
            )
        },
        Preset {
            lesson: compete_lesson(
                "Flow 0's write latency before and after 20 s (the thin-stream latency CDF) and the queue; then set Path → queue discipline to drop-tail and to CoDel.",
                "FQ-CoDel hashes each flow into its own queue and serves the queues in turn, new (sparse) queues first: the thin stream's packets never wait behind the greedy flow's. Before 20 s every write arrives 75 ms after it was written; after, 76 ms on average, 80 ms at worst, and none of its packets is dropped. Under plain CoDel the thin stream shares the one queue: 80 ms on average but 302 ms at worst. Under drop-tail (thin-vs-greedy) it waits behind the full 100-packet buffer: 200 ms on average, 870 ms at worst, 40 retransmissions and 7 timeouts.",
                &format!("{FQ}; Source 004 §3"),
                "The greedy flow gets no less bandwidth under FQ-CoDel. Who pays for the thin stream's low latency, and why is flow isolation more than fairness in bandwidth?",
            ),
            ..preset(
                "aqm-fq-codel-thin",
                Some("flow0"),
                "FQ-CoDel keeps a thin stream's latency low beside a bulk flow",
                "thin-vs-greedy (a thin stream, 50 B every 20 ms, then a greedy NewReno transfer from 20 s over a 5 Mbit/s, 150 ms RTT path) with FQ-CoDel at the bottleneck",
                {
                    let mut v = super::jacobson::thin_vs_greedy();
                    v["network"]["bottleneck"]["qdisc"] = json!("fq_codel");
                    v
                },
            )
        },
        Preset {
            lesson: compete_lesson(
                "The transfers view: the CDF of flow 0's completion times and the ping's round trips; then the sweep: the mean completion time under each discipline.",
                "A 100 kB page takes 0.22 s to fetch on the empty path (slow start's 10, 20 and 40 segments, three round trips, and 80 ms of sending). Behind the bulk flow's full 1 000-packet buffer every packet of the fetch waits about a second, and its first window lands in a full queue: under drop-tail the fetches take 12.1 s on average (median 5.0 s, the worst 41 s: 4 timeouts and 66 retransmissions in 10 fetches), and a fetch due while one runs waits, so only 11 of the 30 begin. The ping sees a 1.05 s round trip (median). Under CoDel the same fetches take 0.28 s (p99 0.38 s) and the ping 42 ms; FQ-CoDel 0.28 s and 41 ms (p99 43 ms: the ping's queue is its own); PIE 0.43 s; RED 0.31 s. The bulk flow pays: 9.57 Mbit/s under drop-tail, 8.09 under CoDel.",
                &format!("{CODEL}; {FQ}; {BLOAT}"),
                "Which number would a user notice: the bulk flow's 15 % or the page's 40-fold? Why does a short transfer suffer more from a standing queue than a long one?",
            )
            .map(|l| l.with_sweep("sweep=network.bottleneck.qdisc:droptail,red,codel,fq_codel,pie&sweepseeds=1&sweepalg=cubic_linux_today&sweepm=transfer_mean_s")),
            ..preset(
                "aqm-web-fetch",
                Some("flow0"),
                "A web page behind a full buffer: short transfers under drop-tail and AQM",
                "The bufferbloat path (10 Mbit/s, 40 ms RTT, 1 000-packet buffer): 100 kB fetches on fresh connections (2 s apart on average) beside a bulk transfer, and a ping every 100 ms; drop-tail, and the sweep across RED, CoDel, FQ-CoDel and PIE",
                web_fetch_path(),
            )
        },
        Preset {
            lesson: lesson(
                "The queue plot (the step queue's marks above K = 20 packets), each run's window plot, and the summary's goodput and queueing delay.",
                "The path holds about 83 packets; the switch marks every ECN-capable arrival that finds more than 20 waiting. DCTCP counts the fraction of its bytes that came back marked (α, smoothed with g = 1/16) and cuts its window by α/2 once per window: a few marks mean a small cut. The queue hovers at K: 22 004 marks, 0.20 ms of queueing on average and 971 Mbit/s. CUBIC with ECN reads any mark as a loss and cuts to 0.7 (1 496 marks): the window falls below what the path holds, the queue empties (0.08 ms) and the link idles: 936 Mbit/s. Without ECN the step queue is drop-tail for CUBIC: it fills the 200-packet buffer, 1.9 ms of queue and 525 drops. The sweep varies K: CUBIC with ECN needs 0.7·(83 + K) ≥ 83, K ≥ 36, to keep the link busy (841 Mbit/s at K = 5, 970 at K = 35), DCTCP hardly any (952 Mbit/s at K = 5).",
                DCTCP,
                "DCTCP and CUBIC-with-ECN see the same marks. Why does one keep the link full with a short queue and the other not, and why does DCTCP need a shallow threshold to work?",
                &["dctcp", "cubic_linux_ecn", "cubic_linux_today"],
            )
            .map(|l| l.with_sweep("sweep=network.bottleneck.step.k:5:80:6&sweepseeds=1&sweepalg=dctcp,cubic_linux_ecn&sweepm=goodput_bps")),
            ..preset(
                "aqm-dctcp",
                Some("dctcp"),
                "DCTCP against CUBIC on a shallow-marking switch queue",
                "A 1 Gbit/s, 1 ms RTT data-centre path whose 200-packet switch buffer marks ECN-capable arrivals above K = 20 packets: DCTCP, CUBIC with ECN and CUBIC without",
                dc_path(),
            )
        },
    ]
}
