//! Textbook exercises: runs whose transmission rounds (`rounds.rs`) are the ones textbooks
//! draw when they ask which rounds are slow start, where ssthresh was set and to what.
//!
//! `textbook-reno` is in the style of the classic exercise on TCP Reno's congestion window
//! against transmission rounds (Kurose & Ross, *Computer Networking*, chapter 3's problem
//! on the cwnd-per-round figure): slow start from one segment to an initial ssthresh of 32,
//! congestion avoidance, a triple duplicate ACK, then a timeout. The path is fast and its
//! buffer deep, so nothing but the script drops, the window alone sets the pace and every
//! round is one round trip (100 ms); cwnd counts segments and grows by one segment per
//! round in congestion avoidance (RFC 3465 byte counting), so the numbers are the
//! textbook's small integers.

use super::{lesson, Preset};
use serde_json::json;

/// Segments 603–629: the whole of round 25 (27 segments), lost at once (a short outage),
/// so that no duplicate ACK comes and only the timer can detect it.
fn outage() -> Vec<serde_json::Value> {
    (603..=629).map(|s| json!({ "segment": s })).collect()
}

pub(super) fn presets() -> Vec<Preset> {
    let mut drops = vec![json!({ "segment": 400 })];
    drops.extend(outage());
    let gigabit = json!({"bandwidth": 1_000_000_000u64, "delay": 0.0001, "queue_packets": 1000});
    vec![Preset {
        steps: &[],
        family: "",
        focus: None,
        name: "textbook-reno".into(),
        title: "Reno's cwnd per round: the textbook exercise".into(),
        description: "A textbook exercise: Reno's cwnd per transmission round through slow start, congestion avoidance, a triple duplicate ACK (segment 400 lost) and a timeout (all of round 25 lost)".into(),
        overrides: json!({
            "duration": 4.5,
            "seed": 1,
            "network": {"bottleneck": {"bandwidth": 100_000_000u64, "delay": 0.05, "queue_packets": 1000,
                                       "loss": {"model": "none"}}},
            "flows": [{
                "algorithm": "reno",
                "access": gigabit,
                "receiver_access": gigabit,
                "tcp": {"initial_window": 1, "initial_ssthresh": 32 * 1460, "rwnd": 1 << 20},
                "cc": {"units": "segments", "congestion_avoidance": "byte_counting"},
                "drops": drops
            }]
        }),
        lesson: lesson(
            "The rounds view: cwnd and ssthresh (in segments) against the transmission round, and the rounds marked with a fast retransmit or a timeout.",
            "Slow start doubles cwnd every round: 1, 2, 4, 8, 16 in rounds 1–5, and 32 in round 6, where cwnd reaches the initial ssthresh of 32: congestion avoidance from there on adds one segment per round (33 in round 7 … 42 in round 16). Segment 400, the fourth of round 16, is lost; the third duplicate ACK arrives in round 17 and Reno retransmits at once: ssthresh = 42/2 = 21 and cwnd = 21 (inflated by the duplicate ACKs while it recovers, in round 18), then one more per round: 21 in round 19 … 27 in round 25. All 27 segments of round 25 are lost, so no duplicate ACK comes: the sender waits for its timer (at least 1 s) and then sets ssthresh = 27/2 = 13 (whole segments) and cwnd = 1. Round 26 resends with cwnd 1; slow start again gives 2, 4, 8 in rounds 27–29 and stops at ssthresh, 13, in round 30; congestion avoidance follows (14 in round 31, …). Rounds 26–30 are named timeout recovery: the sender is still resending what the timeout found outstanding, by slow start.",
            "In the style of Kurose & Ross, Computer Networking, chapter 3 (the TCP Reno cwnd-per-round exercise); RFC 5681 §3.1–3.2 (slow start, congestion avoidance, fast retransmit and recovery), RFC 6298 §5 (the timeout)",
            "In which rounds does cwnd grow by slow start, and in which by congestion avoidance? After the triple duplicate ACK and after the timeout, what are ssthresh and cwnd, and why are they different?",
            &["reno"],
        ),
    }]
}
