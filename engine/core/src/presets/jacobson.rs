//! Jacobson 1988 ("Congestion Avoidance and Control", source 003) reproduced: start-up with
//! and without slow start (figures 3–4), the two retransmit timers on a path whose delay
//! varies (figures 5–6), four conversations without and with congestion avoidance
//! (figures 7–11); and source 004 §3's thin stream competing with a greedy one.
//!
//! The paper gives the bottleneck (230.4 kbit/s), the packets (512 data bytes), the windows
//! (16 KB) and the gateway buffers (30 and 50 packets), not the delays: ours are our
//! choice, stated in docs/validation.md §3d with what they change.

use super::{compete_lesson, lesson, Preset};
use serde_json::{json, Value};

const SOURCE: &str = "Source 003 (Jacobson 1988)";

/// A 10 Mbit/s Ethernet on either side of the bottleneck.
fn ethernet() -> Value {
    json!({"bandwidth": 10_000_000u64, "delay": 0.001, "queue_packets": 1000})
}

/// One 4.3BSD conversation's flow: 512-byte segments, a 16 KB window, a greedy or 1 MB
/// transfer starting at `start`.
fn conversation(algorithm: &str, start: f64, bytes: u64) -> Value {
    json!({
        "algorithm": algorithm,
        "start": start,
        "access": ethernet(),
        "receiver_access": ethernet(),
        "tcp": {"mss": 512, "header": 40, "rwnd": 16384, "initial_window": 1},
        "app": {"kind": "bulk", "bytes": bytes}
    })
}

/// The LBL–UCB path of figure 7: a 230.4 kbit/s microwave link with `queue` packets of
/// buffer, 30 ms one way (our choice; about 3 packets in the pipe).
fn lbl_ucb(duration: f64, queue: u64, flows: Vec<Value>) -> Value {
    json!({
        "duration": duration,
        "seed": 1,
        "trace": {"throughput_bin": 1.0},
        "network": {"bottleneck": {"bandwidth": 230_400u64, "delay": 0.03, "queue_packets": queue}},
        "flows": flows
    })
}

/// Four 1 MB conversations started 3 s apart (figure 7), all with `algorithm`; throughput
/// in the 5 s bins of figures 10 and 11.
fn four(algorithm: &str) -> Value {
    let flows = (0..4)
        .map(|i| conversation(algorithm, 3.0 * i as f64, 1 << 20))
        .collect();
    let mut s = lbl_ucb(300.0, 50, flows);
    s["trace"]["throughput_bin"] = json!(5.0);
    s
}

/// Figures 5–6: one window-limited conversation (2 packets, 1 KB) across a 56 kbit/s
/// Arpanet trunk loaded to 75 % by Poisson traffic of 1500-byte packets, the load of "last
/// April's collapse" (§2); a buffer that never overflows, so every retransmission is the
/// timer's mistake.
fn timers() -> Value {
    json!({
        "duration": 300.0,
        "seed": 1,
        "network": {"bottleneck": {"bandwidth": 56_000u64, "delay": 0.1, "queue_packets": 1000}},
        "cross": [{"kind": "poisson", "rate": 42_000u64, "packet_size": 1500}],
        "flows": [{
            "algorithm": "bsd_4_3_ss_ca",
            "access": ethernet(),
            "receiver_access": ethernet(),
            "tcp": {"mss": 512, "header": 40, "rwnd": 1024, "initial_window": 1},
            "app": {"kind": "bulk"}
        }]
    })
}

/// Source 004 §3: a thin stream (50-byte writes every 20 ms, Linux 3.18-like) alone for
/// 20 s, then sharing a 5 Mbit/s, 150 ms RTT bottleneck with a greedy NewReno transfer.
pub(super) fn thin_vs_greedy() -> Value {
    let access = json!({"bandwidth": 100_000_000u64, "delay": 0.0, "queue_packets": 1000});
    json!({
        "duration": 60.0,
        "seed": 1,
        "trace": {"throughput_bin": 1.0},
        "network": {"bottleneck": {"bandwidth": 5_000_000u64, "delay": 0.075, "queue_packets": 100}},
        "flows": [
            {"algorithm": "linux_3_18", "access": access, "receiver_access": access,
             "app": {"kind": "thin", "write_size": 50, "write_interval": 0.02}},
            {"algorithm": "newreno", "start": 20.0, "access": access, "receiver_access": access,
             "app": {"kind": "bulk"}}
        ]
    })
}

/// The family, in menu order.
pub(super) fn presets() -> Vec<Preset> {
    vec![
        Preset {
            steps: &[],
            family: "",
            focus: None,
            name: "jacobson-startup".into(),
            title: "Start-up without and with slow start".into(),
            description: "Jacobson 1988 figures 3–4: one 4.3BSD conversation starting over a 230.4 kbit/s link with a 30-packet gateway buffer and a 16 KB window, without and with slow start".into(),
            overrides: lbl_ucb(10.0, 30, vec![conversation("bsd_4_3", 0.0, 0)]),
            lesson: lesson(
                "The time–sequence plot: retransmissions (two marks at the same height) and the slope of the line; the summary's goodput and retransmissions.",
                "Without slow start the sender puts its whole 32-packet window on the Ethernet at once; the gateway, draining at 230.4 kbit/s, holds 30 and drops the rest. The RFC 793 timer then fires and the sender goes back N, bursting the window again, so half the link carries retransmissions (many of data the receiver already had). With slow start the window opens one packet per ACK, the queue never overflows and the line runs at the link's slope after the first second. Paper: 35 % of the available bandwidth without slow start, no retransmissions with it. Here, over 10 s: 13.3 KB/s (50 % of the link's 26.7 KB/s of data) with 160 of 452 packets resent, against 26.3 KB/s (98.5 %) with none.",
                &format!("{SOURCE} §1, figures 3 and 4"),
                "The gateway queue plus the pipe can hold a whole window. Why does sending it at once still fail?",
                &["bsd_4_3", "bsd_4_3_ss"],
            ),
        },
        Preset {
            steps: &[],
            family: "",
            focus: None,
            name: "jacobson-timers".into(),
            title: "The RFC 793 timer against mean + 4·deviation".into(),
            description: "Jacobson 1988 figures 5–6: the RFC 793 timer (2 × SRTT) against mean + 4·deviation on a 56 kbit/s path loaded to 75 % by Poisson cross traffic".into(),
            overrides: timers(),
            lesson: lesson(
                "The RTT view: every RTT sample, SRTT and the RTO; the spurious retransmissions marked on it; the summary's spurious retransmissions.",
                "At 75 % load the round-trip time varies by a factor of several from one packet to the next. RFC 793's timer sits at twice the smoothed mean, so a sample in the tail outruns it and the sender retransmits data that was only delayed, every retransmission here is spurious (the buffer never overflows). Jacobson's timer adds four mean deviations and stays above the samples. Paper: β = 2 adapts to loads of at most 30 %; the variance estimate \"essentially eliminates spurious retransmissions\". Here (seeds 1–10): 12.6 spurious retransmissions per 300 s on average with RFC 793, 0.2 with mean + 4·deviation.",
                &format!("{SOURCE} §2 and appendix A, figures 5 and 6"),
                "The RFC suggests β = 2. What load can that β survive, and why does estimating the deviation fix it for any load?",
                &["bsd_4_3_ss_ca", "jacobson_88"],
            ),
        },
        Preset {
            steps: &[],
            family: "",
            focus: None,
            name: "jacobson-four-old".into(),
            title: "Four conversations without congestion avoidance".into(),
            description: "Jacobson 1988 figure 8: four 1 MB conversations started 3 s apart over the 230.4 kbit/s link (50-packet queue, 16 KB windows), 4.3BSD without slow start or congestion avoidance".into(),
            overrides: four("bsd_4_3"),
            lesson: compete_lesson(
                "The throughput plot in 5 s bins (bottleneck and delivered), each conversation's share, the retransmitted fraction and Jain's index in the summary.",
                "Four 16 KB windows are 128 packets; the queue holds 50. Without congestion avoidance nobody backs off: the queue overflows, every timeout resends a whole window, and about a third of all packets sent are retransmissions, most of data that had arrived. The link is busy but carries only about three quarters useful data, and the conversations' shares swing wildly. Paper: 4 000 of 11 000 packets retransmitted, 75 % of the link delivered. Here: 3 889 of 12 081 (32 %), 2 513 of them spurious; 73 % delivered.",
                &format!("{SOURCE} §3–4, figures 7, 8, 10 and 11"),
                "The link is never idle. Where does a quarter of its bandwidth go?",
            ),
        },
        Preset {
            steps: &[],
            family: "",
            focus: None,
            name: "jacobson-four-new".into(),
            title: "Four conversations with congestion avoidance".into(),
            description: "Jacobson 1988 figure 9: the same four conversations with slow start, congestion avoidance and the mean + variance timer (4.3BSD-Tahoe)".into(),
            overrides: four("jacobson_88"),
            lesson: compete_lesson(
                "The same views as jacobson-four-old: delivered bandwidth in 5 s bins, the retransmitted fraction, the per-conversation shares.",
                "Each loss halves a conversation's window and the windows then grow by one packet per RTT, so the four together settle near what the link and its queue hold: about 1 % of the packets are retransmitted and the delivered bandwidth stays at the link rate once all four run. Paper: 89 of 8 281 packets retransmitted (1 %), the full link delivered. Here: 115 of 8 307 (1.4 %), 93 % delivered; the first conversation keeps more than its share (paper: 8, 8, 4.5, 4.5 KB/s; here 20.9, 6.9, 6.9, 6.6).",
                &format!("{SOURCE} §3–4, figures 9, 10 and 11"),
                "The shares are not equal even though all four run the same algorithm. What in a drop-tail gateway favours the conversation that started first?",
            ),
        },
        Preset {
            steps: &[],
            family: "",
            focus: Some("flow0".into()),
            name: "thin-vs-greedy".into(),
            title: "A thin stream meets a greedy transfer".into(),
            description: "Source 004 §3: a thin stream (50 B every 20 ms, Linux 3.18-like) alone for 20 s, then sharing a 5 Mbit/s, 150 ms RTT bottleneck with a greedy NewReno transfer".into(),
            overrides: thin_vs_greedy(),
            lesson: compete_lesson(
                "Flow 0's write timeline and latency before and after 20 s; both flows' cwnd; the queue; the thin stream's retransmissions.",
                "Alone, the thin stream's writes arrive one RTT after they are written. Once the greedy flow fills the 100-packet queue, every write waits behind it (about 0.16 s more) and the thin stream shares the greedy flow's losses; each loss halves its window as if it were greedy, although it never asked for more than 2.5 kB/s. Here: 75 ms latency for every write before 20 s; 277 ms on average and 1.25 s at worst after, with 20 of its packets dropped and 4 timeouts. Jain's index 0.51.",
                "Source 004 §3 (congestion-control fairness)",
                "By the bandwidth measure this sharing is fair. By what measure is it not, and what would a fair congestion control look at instead?",
            ),
        },
    ]
}
