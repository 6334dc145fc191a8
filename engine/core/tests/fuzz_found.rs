//! What the fuzzing driver (engine/fuzz, issue 25) found, pinned: one event's work is
//! bounded whatever the window (a run advanced by an event budget returns after about that
//! much work); an application stream that would pass 64-bit offsets is refused; a bandwidth
//! decrease lets what is already on its way leave at the former rate (the invariant's
//! allowance); a delay decrease soon after delay variation began does not let a varied
//! packet overtake one that left before it.

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

#[test]
fn an_application_stream_past_64_bits_is_refused_naming_the_write_size() {
    // 1 GB every microsecond for 43 060 s: 4.3·10^19 bytes (fuzzing driver, seed 1 case 858 276).
    let doc = json!({"duration": 43060.0, "flows": [{"app": {"kind": "thin", "write_size": 1_000_000_000u64, "write_interval": 1e-6}}]});
    let problems = Scenario::from_value(&doc).unwrap_err();
    assert!(
        problems.iter().any(|p| p.path == "flows[0].app.write_size"),
        "{problems:?}"
    );
    // The same through the timeline: the shortest interval the run will have counts.
    let doc = json!({"duration": 43060.0, "flows": [{"app": {"kind": "thin", "write_size": 1_000_000_000u64, "write_interval": 1.0}}],
                     "timeline": [{"at": 1.0, "set": "flows[0].app.write_interval", "value": 1e-6}]});
    assert!(Scenario::from_value(&doc).is_err());
    // A realistic fast application is accepted.
    let doc = json!({"duration": 100.0, "flows": [{"app": {"kind": "cbr", "write_size": 1_000_000u64, "write_interval": 1e-6}}]});
    assert!(Scenario::from_value(&doc).is_ok());
}

#[test]
fn a_bandwidth_decrease_lets_what_is_on_its_way_leave_at_the_former_rate() {
    // Fuzzing driver, seed 1 case 884 981: 61 B above a full queue's allowance after the
    // bottleneck drops from 2 Mbit/s to 36 470 bit/s, carried by packets already on their way.
    let s = Scenario::from_value(&json!({
        "duration": 0.7181966149576676,
        "flows": [{"access": {"bandwidth": 2081679}, "algorithm": "bsd_4_3",
                   "cc": {"controller": "window", "fast_retransmit_restarts_timer": false,
                          "limited_transmit": false, "repeated_rto_ssthresh": "hold"},
                   "rto": {"initial": 159.96227850823635, "rfc793_beta": 1.000003}}],
        "timeline": [{"at": 0.06863383181676647, "set": "network.bottleneck.bandwidth", "value": 36470}],
    }))
    .unwrap();
    let mut sim = Simulation::new(&s);
    sim.run_to_end();
    cwndlab_core::invariants::check(&s, &sim).unwrap();
}

#[test]
fn a_write_while_the_next_pass_waits_changes_nothing_but_the_bytes_written() {
    // Fuzzing driver, seed 1 case 756 955: an application write came at the instant a pass
    // of the send loop had left the rest of the window to the next one; the sender took the
    // waiting segment as not held (a debug assertion in the held-writes path). The pending
    // pass now holds it, as a paced sender's timer does.
    let doc: serde_json::Value = serde_json::from_str(include_str!("data/fuzz-seed1-case756955.json")).unwrap();
    let s = Scenario::from_value(&doc).unwrap();
    let mut sim = Simulation::new(&s);
    sim.run_events(2000);
    cwndlab_core::invariants::check(&s, &sim).unwrap();
}

#[test]
fn a_delay_decrease_after_variation_began_lets_no_ack_overtake_one_already_on_its_way() {
    // Seed 7 case 13 278, reduced: delay variation (at most 23 ns) from 0.68 s, then the
    // bottleneck's delay falls from 40 ms to 10 µs at 0.6956 s. Every ACK repeats 97 820
    // (a loss), one every 6 ms, each 60.1664 ms on its way, 40 ms less once the delay is
    // 10 µs. So an ACK sent after the decrease would arrive before the ACKs sent up to
    // 36 ms earlier that are still on the wire, and reach the sender's access link before
    // one that had already entered
    // it early: a debug build (as `cargo test` builds) stopped on that entry out of time
    // order; a release build let those ACKs overtake the ones before them. Now the
    // variation is added to the arrival a packet would have had without it, which the
    // decrease does not move ahead of the packets before it: ACKs arrive in the order they
    // were sent, give or take the variation's 23 ns.
    let s = Scenario::from_value(&json!({
        "duration": 1.0,
        "flows": [{}],
        "timeline": [
            {"at": 0.68, "set": "network.bottleneck.delay_variation", "value": 2.3e-8},
            {"at": 0.6956, "set": "network.bottleneck.delay", "value": 1e-5}
        ]
    }))
    .unwrap();
    let mut sim = Simulation::new(&s);
    sim.run_to_end();
    let times = |k: EventKind| -> Vec<u64> {
        sim.events()
            .rows
            .iter()
            .filter(|r| r.kind == k as u8 && r.t > 600_000_000 && r.t < 800_000_000)
            .map(|r| r.t)
            .collect()
    };
    let (sent, received) = (times(EventKind::AckSent), times(EventKind::AckReceived));
    assert_eq!(sent[..3], [601_459_200, 607_459_200, 613_459_200]);
    // Before the change: each ACK sent at t arrives at t + 60.1664 ms (give or take the
    // variation's 23 ns).
    let first = received
        .iter()
        .position(|&t| t == 661_625_600)
        .expect("the ACK sent at 601.4592 ms");
    let arrivals = &received[first..];
    let near = |a: u64, want: u64| a.abs_diff(want) <= 23;
    for k in 0..13 {
        assert!(
            near(arrivals[k], sent[k] + 60_166_400),
            "ACK {k} sent at {}: {}",
            sent[k],
            arrivals[k]
        );
    }
    // The six sent from 679.4592 to 709.4592 ms met the decrease on their way. Without
    // the fix they would arrive about 20 ms after they were sent, ahead of the three sent
    // before them; now each waits for the one before it and they follow the ACK sent at
    // 673.4592 ms one behind the other, 3.2 µs apart (a 40-byte ACK at 100 Mbit/s on the
    // sender's access link).
    assert_eq!(sent[13], 679_459_200);
    for (k, &a) in arrivals.iter().enumerate().take(19).skip(13) {
        assert!(near(a, 733_625_600 + (k as u64 - 12) * 3_200), "ACK {k}: {a}");
    }
    // From the one sent at 715.4592 ms on, the path is 20.1764 ms.
    for k in 19..arrivals.len().min(sent.len()) {
        assert!(
            near(arrivals[k], sent[k] + 20_176_400),
            "ACK {k} sent at {}: {}",
            sent[k],
            arrivals[k]
        );
    }
}
