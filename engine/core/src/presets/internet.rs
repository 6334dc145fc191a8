//! The algorithms the Internet runs today, beside the classics: CUBIC (RFC 9438) on a long
//! fat path and in a deep buffer. The paths are ours
//! (the examples); docs/validation.md says what was checked.

use super::{compete_lesson, lesson, Preset};
use serde_json::{json, Value};

const SOURCE: &str = "RFC 9438 (CUBIC)";
const BBR: &str = "draft-cardwell-iccrg-bbr-congestion-control-00 (BBR v1); Cardwell et al., BBR: Congestion-Based Congestion Control, ACM Queue 14(5), 2016";

/// A clean path: `bandwidth` bit/s, `delay` s one way, a `queue`-packet drop-tail buffer,
/// no random loss; fast access links.
fn path(duration: f64, bandwidth: u64, delay: f64, queue: u64, flows: Vec<Value>) -> Value {
    json!({
        "duration": duration,
        "seed": 1,
        "trace": {"throughput_bin": 1.0},
        "network": {"bottleneck": {"bandwidth": bandwidth, "delay": delay, "queue_packets": queue,
                                   "loss": {"model": "none"}, "reverse_loss": {"model": "none"}}},
        "flows": flows
    })
}

/// A greedy flow with a window the receiver never limits and an initial window of 10. The
/// presets name NewReno, the default algorithm, so that the page and `sweep --algorithms`
/// apply each compared algorithm's settings to a clean base (the lesson names the pair).
fn greedy(algorithm: &str, extra: Value) -> Value {
    let mut f = json!({"algorithm": algorithm, "tcp": {"rwnd": 100_000_000u64, "initial_window": 10},
                       "app": {"kind": "bulk"}});
    if let (Some(f), Some(extra)) = (f.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            f.insert(k.clone(), v.clone());
        }
    }
    f
}

/// The family, in menu order.
pub(super) fn presets() -> Vec<Preset> {
    vec![
        Preset {
            steps: &[],
            family: "",
            focus: Some("cubic".into()),
            name: "cubic-long-fat-path".into(),
            title: "CUBIC against NewReno after one loss on a long fat path".into(),
            description: "CUBIC against NewReno after one loss on a 100 Mbit/s, 200 ms RTT path (2 000-packet buffer; slow start ends at 1 500 segments, segment 40 000 is dropped)".into(),
            overrides: path(
                30.0,
                100_000_000,
                0.1,
                2000,
                vec![greedy(
                    "newreno",
                    json!({"tcp": {"rwnd": 100_000_000u64, "initial_window": 10, "initial_ssthresh": 1500 * 1460},
                           "drops": [{"segment": 40_000}]}),
                )],
            ),
            lesson: lesson(
                "The congestion window after the drop near 6.9 s, and the summary's goodput.",
                "The path holds 1 712 segments (bandwidth × RTT). At the drop NewReno halves its flight (to 763 segments) and then adds one segment per 200 ms round trip: at 30 s it has reached 823 and would need about 150 s more to get back. CUBIC keeps 0.7 of its flight (1 089 segments), remembers W_max = 1 556 segments and follows C·(t − K)³ + W_max with K = ∛((W_max − cwnd)/C) = 10.53 s: it is back at W_max 10.66 s after its epoch began (17.8 s) and probes beyond it. Over 30 s: 83.7 Mbit/s for CUBIC, 50.8 for NewReno.",
                &format!("{SOURCE} §4.2 (the cubic window), §4.6 (β = 0.7), §5 (why: Reno's per-RTT growth on a large BDP)"),
                "How long does NewReno take to regain a window of W segments after a loss, and how does CUBIC make that independent of the RTT?",
                &["cubic", "newreno"],
            ),
        },
        Preset {
            steps: &[],
            family: "",
            focus: Some("bbr".into()),
            name: "cubic-bufferbloat".into(),
            title: "Bufferbloat: NewReno and CUBIC fill a deep buffer, BBR does not".into(),
            description: "One flow over a 10 Mbit/s, 40 ms RTT path with a 1 000-packet buffer (1.2 s of queue): NewReno and CUBIC fill it, BBR keeps it short".into(),
            overrides: path(30.0, 10_000_000, 0.02, 1000, vec![greedy("newreno", json!({}))]),
            lesson: lesson(
                "The queue and queueing-delay plots (how full the buffer is and how long every packet waits in it), and BBR's model plot: its bandwidth estimate and pacing rate.",
                "The path itself holds 34 segments (10 Mbit/s × 40 ms). A loss-based algorithm only backs off when the buffer overflows, so NewReno and CUBIC fill the 1 000-packet queue: 533 and 511 packets on average, 0.6 s added to every round trip (mean windows of 606 and 830 segments). Slow start first overshoots and loses hundreds of packets at once (1 038 queue drops for NewReno, 3 864 for CUBIC, with timeouts: no SACK here). BBR paces at its estimate of the bottleneck rate (BtlBw 9.73 Mbit/s: the link's payload rate) and keeps about twice the path's BDP in flight: after Startup's burst (82 packets) the queue holds 7 packets on average (9 ms), nothing is lost, and goodput is 9.7 Mbit/s against 9.2 and 7.2.",
                &format!("{SOURCE} §5 (loss as the only congestion signal); Gettys & Nichols 2011 (bufferbloat); {BBR}"),
                "All three keep the link busy. What did the application pay with each, and which signals let BBR keep the queue short?",
                &["newreno", "cubic", "bbr"],
            ),
        },
        bbr_vs_cubic("bbr-cubic-shallow", 17, "a shallow 17-packet buffer (half the path's BDP)"),
        bbr_vs_cubic("bbr-cubic-deep", 1000, "a deep 1 000-packet buffer (30 BDPs)"),
        sharing(
            "cubic-newreno-share",
            "CUBIC and NewReno sharing one bottleneck",
            "CUBIC and NewReno share a 100 Mbit/s bottleneck, both with a 40 ms round trip (400-packet buffer; a little random cross traffic)",
            ["cubic", "newreno"],
            [0.001, 0.001],
            "The share plot and the two window plots.",
            "The path holds 333 segments. Both flows lose packets when the buffer overflows, but after each loss NewReno halves its window and climbs back one segment per round trip, while CUBIC keeps 0.7 of it and climbs back along its cubic, so CUBIC spends more of the time near the top: 54.7 Mbit/s against 37.8 (seed 1; seeds 2–5: 47.1/39.5, 55.3/34.8, 51.0/36.7, 52.7/41.8). The 2 Mbit/s of small random packets only make the drop-tail queue's choice of victims random: without them, two deterministic flows lock into a pattern that decides the share instead (phase effects, Floyd & Jacobson 1992).",
            "CUBIC is meant to be fair to Reno where Reno does well (its Reno-friendly region) and faster on long fat paths. Is this path one where it should take more? Try a 10 Mbit/s bottleneck.",
        ),
        sharing(
            "cubic-two-rtts",
            "Two CUBIC flows with round trips of 40 and 120 ms",
            "Two CUBIC flows with round trips of 40 and 120 ms share a 100 Mbit/s bottleneck (400-packet buffer; a little random cross traffic)",
            ["cubic", "cubic"],
            [0.001, 0.041],
            "The share plot: the 40 ms flow against the 120 ms flow.",
            "A window-based sender gets about one window per round trip, so the shorter round trip wins: 61.0 against 19.6 Mbit/s, a ratio of 3.1 (seed 1). Two NewReno flows on the same path (set both algorithms to newreno) split 76.1/16.0, a ratio of 4.8: NewReno grows one segment per round trip, so the long flow also regains its window three times more slowly. CUBIC's growth follows time, not round trips, which narrows the gap (RFC 9438 §5.2). Over seeds 1–5 the CUBIC ratio is 1.6–4.1 (mean 2.6), NewReno's 3.7–5.0 (mean 4.4).",
            "Why does a flow with a longer round trip get less, and why less so with CUBIC? What would equal shares need?",
        ),
        Preset {
            steps: &[],
            family: "",
            focus: Some("bbr".into()),
            name: "bbr-random-loss".into(),
            title: "BBR, CUBIC and NewReno under 1 % random loss".into(),
            description: "One flow on a 10 Mbit/s, 40 ms RTT path (100-packet buffer) that loses 1 % of its data packets at random".into(),
            overrides: {
                let mut v = path(30.0, 10_000_000, 0.02, 100, vec![greedy("newreno", json!({}))]);
                v["network"]["bottleneck"]["loss"] = json!({"model": "bernoulli", "probability": 0.01});
                v
            },
            lesson: lesson(
                "The window and goodput of each algorithm, and BBR's bandwidth estimate on the window plot.",
                "A loss-based sender reads every random loss as congestion: NewReno halves its window about every 100 segments and CUBIC cuts it to 0.7, so neither fills the 34-segment pipe: 2.9 Mbit/s each, close to Mathis et al.'s MSS/RTT · 1.22/√p = 3.1 Mbit/s. BBR's model ignores loss: its bandwidth estimate stays at the link's rate and only the first round of each recovery conserves packets: 9.1 Mbit/s. Without SACK it still recovers as NewReno does, one hole per round trip, guessing from duplicate ACKs: 567 retransmissions, 347 of them of segments that had arrived. With SACK (bbr_sack, as Linux runs BBR) it resends only the 235 lost segments, never times out, and gets 9.6 Mbit/s.",
                &format!("{BBR}, §1 (loss is not congestion); Mathis et al. 1997 (the 1/√p law of loss-based TCP); RFC 6675 and RFC 8985 (SACK recovery, RACK-TLP)"),
                "Why does a 1 % loss rate cost NewReno most of the link, and BBR almost nothing? What would BBR do if the losses did mean congestion? What do SACK blocks tell BBR that duplicate ACKs do not?",
                &["newreno", "cubic", "bbr", "bbr_sack"],
            ),
        },
        Preset {
            steps: &[],
            family: "",
            focus: Some("newreno".into()),
            name: "reorder-dupthresh".into(),
            title: "A path that reorders: DupThresh's spurious fast retransmits".into(),
            description: "One NewReno flow on a 10 Mbit/s, 40 ms RTT path whose bottleneck adds 0–10 ms to each packet's delay (each direction), so packets overtake one another; a 1 000-packet buffer and a 64 KiB receive window: nothing is lost".into(),
            overrides: reorder_path(),
            lesson: lesson(
                "The event log's fast retransmits and spurious retransmissions, the window plot, and the summary's goodput; then set the delay variation to 0.",
                "Without variation this path carries 9.70 Mbit/s. With 0–10 ms added to each packet, 3.4 % of the segments reach the receiver after three or more segments sent after them (31 % after at least one, seed 1): each of those draws three duplicate ACKs, and DupThresh = 3 takes them for a loss. Nothing is lost here (no drop of any kind), so every retransmission is spurious (the summary's spurious retransmissions equal its retransmissions): NewReno's 29 fast retransmits and the 152 segments it resends on partial ACKs, which the late segments cause too. Each fast retransmit halves the window: 1.94 Mbit/s. Reno: 32 fast retransmits, all spurious, 2.28 Mbit/s; Tahoe: 52, then go-back-N (327 spurious retransmissions), 1.75 Mbit/s.",
                "RFC 5681 §3.2 (three duplicate ACKs as the sign of a loss); RFC 4653 and RFC 8985 §2 (reordering makes that sign wrong)",
                "How late must a segment be to cause a fast retransmit here, and why does a sender that counts duplicate ACKs have no way to tell reordering from loss?",
                &["newreno", "reno", "tahoe"],
            ),
        },
    ]
}

/// The reordering path (issue 39): 10 Mbit/s, 20 ms one way, and each packet's delay on the
/// bottleneck varied by 0–10 ms in each direction. A 1 000-packet buffer and a 64 KiB
/// receive window (45 segments: the path holds 34) keep the queue short and lossless, so
/// every retransmission is spurious. Measured with seed 1 (tests/reorder.rs pins it):
/// 3.4 % of the segments arrive three or more places late, and all of NewReno's 29 fast
/// retransmits are spurious.
pub(super) fn reorder_path() -> Value {
    let mut v = path(
        20.0,
        10_000_000,
        0.02,
        1000,
        vec![greedy(
            "newreno",
            json!({"tcp": {"rwnd": 65_535, "initial_window": 10}}),
        )],
    );
    v["network"]["bottleneck"]["delay_variation"] = json!(0.01);
    v
}

/// Two flows sharing a 100 Mbit/s bottleneck (18 ms one way, 400 packets) for 120 s, their
/// own access delays `delays` (one way); 2 Mbit/s of Poisson cross traffic in 64-byte
/// packets makes the drop-tail queue's losses fall at random (without it the flows' packet
/// trains lock into a phase that decides the shares: docs/validation.md §3e).
#[allow(clippy::too_many_arguments)]
pub(super) fn sharing(
    name: &str,
    title: &str,
    description: &str,
    algs: [&str; 2],
    delays: [f64; 2],
    look: &str,
    happens: &str,
    question: &str,
) -> Preset {
    let flows = algs
        .iter()
        .zip(delays)
        .map(|(a, d)| {
            greedy(
                a,
                json!({"tcp": {"rwnd": 1_000_000_000u64, "initial_window": 10},
                       "access": {"delay": d, "bandwidth": 1_000_000_000u64},
                       "receiver_access": {"bandwidth": 1_000_000_000u64}}),
            )
        })
        .collect();
    let mut v = path(120.0, 100_000_000, 0.018, 400, flows);
    v["cross"] = json!([{"kind": "poisson", "rate": 2_000_000u64, "packet_size": 64, "start": 0.0}]);
    Preset {
        steps: &[],
        family: "",
        focus: None,
        name: name.into(),
        title: title.into(),
        description: description.into(),
        overrides: v,
        lesson: compete_lesson(
            look,
            happens,
            &format!("{SOURCE} §5.2 (RTT fairness), §4.3 (the Reno-friendly region); Floyd & Jacobson 1992 (phase effects in drop-tail gateways)"),
            question,
        ),
    }
}

/// BBR and CUBIC sharing one 10 Mbit/s, 40 ms RTT bottleneck with a `queue`-packet buffer,
/// both starting at once, for 60 s.
fn bbr_vs_cubic(name: &str, queue: u64, what: &str) -> Preset {
    let shallow = queue < 34;
    Preset {
        steps: &[],
        family: "",
        focus: None,
        name: name.into(),
        title: format!(
            "BBR against CUBIC in a {} buffer",
            if shallow { "shallow" } else { "deep" }
        ),
        description: format!("BBR and CUBIC share a 10 Mbit/s, 40 ms RTT bottleneck with {what}"),
        overrides: path(
            60.0,
            10_000_000,
            0.02,
            queue,
            vec![greedy("bbr", json!({})), greedy("cubic", json!({}))],
        ),
        lesson: compete_lesson(
            "The share plot (each flow's goodput), the queue, and BBR's state bands and estimates on its window plot.",
            if shallow {
                "The buffer holds half a BDP. BBR's ProbeBW phases push up to 1.25 × its estimate into a queue that holds 17 packets, so the queue overflows often; CUBIC reads each loss as congestion and backs off (31 timeouts), BBR does not (2.7 % of its packets are resent, yet its model is unchanged). BBR gets 7.8 Mbit/s, CUBIC 1.0. The queue stays short (7 packets on average) and it is CUBIC that pays for it."
            } else {
                "The buffer holds 30 BDPs. CUBIC fills it (563 packets on average, 0.7 s of queue) and BBR's in-flight cap of 2 × BtlBw × RTprop, with RTprop the empty path's 45 ms, is far less than what the path now holds, so BBR is cwnd-limited: 1.5 Mbit/s against CUBIC's 6.4. Every 10 s without a new minimum its RTprop expires (ProbeRTT at 20.9 s and 52.9 s) and is re-measured through CUBIC's queue (968 ms), which enlarges its cap until a lower sample comes back."
            },
            BBR,
            if shallow {
                "Who gets the bandwidth when the buffer is shallow, and why does loss not slow BBR down?"
            } else {
                "Why is BBR's share smaller in a deep buffer? What does its RTprop measure here, and what would a second BBR flow do instead of CUBIC?"
            },
        ),
    }
}
