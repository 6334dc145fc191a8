//! Transmission rounds (`rounds.rs`) on whole runs, pinned: the textbook exercise's rounds
//! are the lesson's numbers (slow start 1, 2, 4, …, 32; one more per round; the triple
//! duplicate ACK halves to 21; the timeout sets ssthresh 13 and cwnd 1), each derived in the
//! preset's doc from the rules; Fall & Floyd's Reno run with three drops gives its rounds.

mod common;

use common::{run, scenario};
use cwndlab_core::trace::EventKind;

#[test]
fn the_textbook_exercise_has_the_textbooks_rounds() {
    let s = scenario("textbook-reno", &[]);
    let sim = run(&s);
    let rounds = sim.rounds(0).unwrap();
    let seg = |b: u64| b / 1460;
    let cwnd: Vec<u64> = rounds.iter().take(34).map(|r| seg(r.cwnd)).collect();
    let mut want: Vec<u64> = vec![1, 2, 4, 8, 16, 32];
    want.extend(33..=42); // rounds 7–16: congestion avoidance, one segment per round
    want.push(42); // round 17: ended by the fast retransmit (cwnd not yet cut)
    want.extend([21, 21, 22, 23, 24, 25, 26, 27]); // rounds 18–25
    want.extend([1, 2, 4, 8, 13]); // rounds 26–30: after the timeout, slow start to ssthresh
    want.extend([14, 15, 16, 17]); // rounds 31–34
    assert_eq!(cwnd, want);
    let ssthresh: Vec<u64> = rounds.iter().take(34).map(|r| seg(r.ssthresh)).collect();
    assert!(ssthresh[..17].iter().all(|&s| s == 32));
    assert!(
        ssthresh[17..25].iter().all(|&s| s == 21),
        "42/2 after the triple duplicate ACK"
    );
    assert!(
        ssthresh[25..34].iter().all(|&s| s == 13),
        "27/2 in whole segments after the timeout"
    );
    // Phases: slow start in 1–5, congestion avoidance from 6 (cwnd reaches ssthresh 32),
    // fast recovery in 18, timeout recovery in 26–30.
    let phase = |i: usize| rounds[i - 1].phase_name();
    assert!((1..=5).all(|i| phase(i) == "slow_start"));
    assert!((6..=17)
        .chain(19..=25)
        .chain(31..=34)
        .all(|i| phase(i) == "congestion_avoidance"));
    assert_eq!(phase(18), "fast_recovery");
    assert!((26..=30).all(|i| phase(i) == "timeout_recovery"));
    // The events: the fast retransmit ends round 17; the timeout follows round 25.
    let with: Vec<(u32, Vec<EventKind>)> = rounds
        .iter()
        .filter(|r| !r.events.is_empty())
        .map(|r| (r.round, r.events.clone()))
        .collect();
    assert_eq!(
        with,
        vec![(17, vec![EventKind::FastRetransmit]), (25, vec![EventKind::Timeout])]
    );
    // Each round is one round trip (100 ms of propagation and a little serialisation) while
    // the window paces it; the timeout waits the 1 s minimum RTO after round 25.
    let len = |i: usize| (rounds[i - 1].end.unwrap() - rounds[i - 1].start) as f64 / 1e9;
    assert!((0.100..0.101).contains(&len(10)), "{}", len(10));
    let idle = (rounds[25].start - rounds[24].start) as f64 / 1e9;
    assert!(idle > 1.0, "{idle}");
    // Sent per round: the window when it limits (round 17 sent 3 before the loss showed).
    assert_eq!(rounds[16].sent, 3);
    assert_eq!((rounds[25].sent, rounds[25].retransmitted), (1, 1));
}

#[test]
fn fall_and_floyds_reno_with_three_drops_times_out_after_its_second_recovery() {
    let s = scenario("fall-floyd-reno-3drops", &[]);
    let sim = run(&s);
    let rounds = sim.rounds(0).unwrap();
    let row: Vec<(u32, u64, &str, Vec<EventKind>)> = rounds
        .iter()
        .take(8)
        .map(|r| (r.round, r.cwnd / 1000, r.phase_name(), r.events.clone()))
        .collect();
    use EventKind::*;
    assert_eq!(
        row,
        vec![
            (1, 2, "handshake", vec![]),
            (2, 2, "slow_start", vec![]),
            (3, 4, "slow_start", vec![]),
            (4, 8, "slow_start", vec![]),
            // Segment 14 is lost: only 7 of round 4's 8 segments are acknowledged before the
            // duplicate ACKs, so cwnd reaches 8 + 7 = 15 when the third ends the round.
            (5, 15, "slow_start", vec![FastRetransmit]),
            (6, 7, "fast_recovery", vec![Timeout]),
            (7, 1, "timeout_recovery", vec![]),
            (8, 2, "timeout_recovery", vec![]),
        ]
    );
}

#[test]
fn a_run_without_the_senders_events_says_why_it_has_no_rounds() {
    let s = scenario("netsim-reno", &[("trace.events", "congestion")]);
    let sim = run(&s);
    let e = sim.rounds(0).unwrap_err();
    assert!(e.contains("trace.events = congestion"), "{e}");
}
