//! One event's work is bounded, whatever the scenario: a run advanced by an event budget
//! returns after about that much work (found by the fuzzing driver, issue 25).

use cwndlab_core::scenario::Scenario;
use cwndlab_core::sim::Simulation;
use cwndlab_core::tcp::sender::MAX_PASS_SEGMENTS;
use cwndlab_core::trace::EventKind;
use serde_json::json;

fn sends(sim: &Simulation) -> usize {
    sim.events()
        .rows
        .iter()
        .filter(|r| r.kind == EventKind::DataSend as u8)
        .count()
}

#[test]
fn a_window_of_a_million_segments_leaves_in_passes_of_bounded_size() {
    // 4.3BSD (no slow start: the whole window at once) with 1-byte segments and a 1 MiB
    // receiver window: the first window is 1 048 576 segments.
    let s = Scenario::from_value(&json!({
        "duration": 2.0,
        "flows": [{"algorithm": "bsd_4_3", "tcp": {"mss": 1, "rwnd": 1_048_576}}],
    }))
    .unwrap();
    assert_eq!(MAX_PASS_SEGMENTS, 4096);
    let mut sim = Simulation::new(&s);
    // Event by event: each sends at most one pass of 4 096 segments, the passes follow one
    // another at t = 0.
    let mut per_event = Vec::new();
    let mut before = 0;
    for _ in 0..40 {
        sim.run_events(1);
        let now = sends(&sim);
        per_event.push(now - before);
        before = now;
    }
    assert!(
        per_event.iter().all(|&n| n <= 4096),
        "segments per event: {per_event:?}"
    );
    assert_eq!(per_event[..3], [4096, 4096, 4096], "the window leaves in full passes");
    assert_eq!(sim.now(), 0, "all at the same instant");
}

#[test]
fn windows_under_the_pass_size_are_sent_in_one_event_as_before() {
    // IW 1000 segments, 4.3BSD: the first window (1000 segments) leaves in one event.
    let s = Scenario::from_value(&json!({
        "duration": 1.0,
        "flows": [{"algorithm": "bsd_4_3", "tcp": {"initial_window": 1000, "rwnd": 1000 * 1460}}],
    }))
    .unwrap();
    let mut sim = Simulation::new(&s);
    let mut most = 0;
    let mut before = 0;
    for _ in 0..50 {
        sim.run_events(1);
        let now = sends(&sim);
        most = most.max(now - before);
        before = now;
    }
    assert_eq!(most, 1000, "the initial window in one event");
}
