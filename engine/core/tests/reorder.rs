//! A path that reorders (issue 39): the bottleneck's delay variation (net.rs) lets packets
//! overtake one another. Pinned here: the preset `reorder-dupthresh` (how many segments
//! arrive late, how many fast retransmits are spurious), and what a varying link must keep:
//! the invariants, the same run with an event at every hop, in slices, live and replayed,
//! and under the reservation scheduler.

use cwndlab_core::invariants;
use cwndlab_core::presets;
use cwndlab_core::scenario::Scenario;
use cwndlab_core::sim::Simulation;
use cwndlab_core::trace::EventKind;
use serde_json::json;

fn run(s: &Scenario) -> Simulation {
    let mut sim = Simulation::new(s);
    sim.run_to_end();
    sim
}

fn preset() -> Scenario {
    presets::find("reorder-dupthresh").unwrap().scenario().unwrap()
}

/// Of the original transmissions that reached the receiver, in the order they did: how
/// many arrived after at least one, and after at least three, segments sent after them.
fn late(sim: &Simulation) -> (usize, usize, usize) {
    let mut seen: Vec<u32> = Vec::new();
    let (mut n, mut one, mut three) = (0, 0, 0);
    for r in &sim.events().rows {
        if r.kind != EventKind::DataReceived as u8 || r.tx != 1 {
            continue;
        }
        let at = seen.partition_point(|&s| s <= r.seg);
        let overtaken_by = seen.len() - at;
        seen.insert(at, r.seg);
        n += 1;
        one += (overtaken_by >= 1) as usize;
        three += (overtaken_by >= 3) as usize;
    }
    (n, one, three)
}

#[test]
fn the_preset_reorders_and_every_fast_retransmit_is_spurious() {
    let s = preset();
    let sim = run(&s);
    invariants::check(&s, &sim).unwrap();
    let f = &sim.summary().flows[0];
    // Nothing is lost: no drop of any kind.
    let d = &f.drops;
    assert_eq!(
        (d.queue, d.error, d.scripted, d.ack_queue, d.ack_error),
        (0, 0, 0, 0, 0)
    );
    assert_eq!(
        (f.fast_retransmits, f.partial_acks, f.retransmits, f.timeouts),
        (29, 152, 181, 0)
    );
    assert_eq!(
        f.spurious_retransmits, f.retransmits,
        "every retransmission is spurious"
    );
    // Each fast retransmission is itself reported spurious.
    let rows = &sim.events().rows;
    let spurious: Vec<(u32, u32)> = rows
        .iter()
        .filter(|r| r.kind == EventKind::SpuriousRetransmit as u8)
        .map(|r| (r.seg, r.tx))
        .collect();
    let fast: Vec<(u32, u32)> = rows
        .iter()
        .filter(|r| r.kind == EventKind::FastRetransmit as u8)
        .map(|r| (r.seg, r.tx))
        .collect();
    assert_eq!(fast.len(), 29);
    for (seg, _) in &fast {
        assert!(
            spurious.iter().any(|s| s.0 == *seg),
            "fast retransmit of {seg} not spurious"
        );
    }
    // The note's numbers: 3.4 % of the segments three or more places late, 31 % one or more.
    let (n, one, three) = late(&sim);
    assert_eq!((n, one, three), (3314, 1029, 114));
    assert_eq!(format!("{:.1}", 100.0 * three as f64 / n as f64), "3.4");
    assert_eq!(format!("{:.0}", 100.0 * one as f64 / n as f64), "31");
    assert_eq!(format!("{:.2}", f.goodput_bps / 1e6), "1.94");
}

#[test]
fn the_lessons_numbers_hold_for_each_compared_algorithm_and_without_variation() {
    for (algorithm, fast, retransmits, goodput) in [("reno", 32, 32, "2.28"), ("tahoe", 52, 327, "1.75")] {
        let mut v = presets::find("reorder-dupthresh").unwrap().overrides;
        v["flows"][0]["algorithm"] = json!(algorithm);
        let s = Scenario::from_value(&v).unwrap();
        let f = run(&s).summary().flows[0].clone();
        assert_eq!((f.fast_retransmits, f.retransmits), (fast, retransmits), "{algorithm}");
        assert_eq!(f.spurious_retransmits, f.retransmits, "{algorithm}");
        assert_eq!(format!("{:.2}", f.goodput_bps / 1e6), goodput, "{algorithm}");
    }
    let mut v = presets::find("reorder-dupthresh").unwrap().overrides;
    v["network"]["bottleneck"]["delay_variation"] = json!(0);
    let sim = run(&Scenario::from_value(&v).unwrap());
    let f = &sim.summary().flows[0];
    assert_eq!((f.retransmits, f.fast_retransmits), (0, 0));
    assert_eq!(format!("{:.2}", f.goodput_bps / 1e6), "9.70");
    assert_eq!(late(&sim).1, 0, "no variation, no reordering");
}

#[test]
fn a_varying_link_takes_no_early_entry_and_keeps_the_run_with_an_event_at_every_hop() {
    let s = preset();
    let early = run(&s);
    let mut every = Simulation::new(&s).with_every_event();
    every.run_to_end();
    let strip = |sim: &Simulation| {
        let mut v = serde_json::to_value(sim.summary()).unwrap();
        v.as_object_mut().unwrap().remove("events_processed");
        v.as_object_mut().unwrap().remove("digest");
        v
    };
    assert_eq!(strip(&early), strip(&every));
    if every.tied_events() == 0 {
        assert_eq!(early.digest(), every.digest());
    }
    // The sender's access link still hands packets to the bottleneck early.
    assert!(early.events_processed() < every.events_processed());
}

#[test]
fn slices_and_live_changes_replay_exactly() {
    let s = preset();
    let whole = run(&s);
    let mut sliced = Simulation::new(&s);
    for dt in [1u64, 7_000_000, 333_333_333, 2_000_000_001, 5] {
        sliced.advance(dt);
        sliced.step();
    }
    sliced.run_to_end();
    assert_eq!(whole.digest(), sliced.digest());

    // Variation switched on, then off, during a run without it: the timeline replays it.
    let mut v = presets::find("reorder-dupthresh").unwrap().overrides;
    v["network"]["bottleneck"]["delay_variation"] = json!(0);
    let plain = Scenario::from_value(&v).unwrap();
    let mut live = Simulation::new(&plain);
    live.advance(3_000_000_000);
    live.step();
    live.apply_change("network.bottleneck.delay_variation", json!(0.01))
        .unwrap();
    live.advance(6_000_000_000);
    live.apply_change("network.bottleneck.delay_variation", json!(0))
        .unwrap();
    live.run_to_end();
    invariants::check(live.scenario(), &live).unwrap();
    let replay = run(live.scenario());
    assert_eq!(live.digest(), replay.digest());
    let f = &live.summary().flows[0];
    assert!(
        f.fast_retransmits > 0,
        "the variation reordered packets while it was on"
    );
    assert_eq!(f.spurious_retransmits, f.retransmits);
    // A bad value is refused, naming the parameter and its range.
    let err = live
        .apply_change("network.bottleneck.delay_variation", json!(-0.001))
        .unwrap_err();
    assert_eq!(err.path, "network.bottleneck.delay_variation");
}

#[test]
fn a_scheduled_bottleneck_varies_too() {
    // The reservation scheduler puts packets on the wire as their transmissions end
    // (`launch`): with variation they overtake one another there too.
    let v = json!({
        "duration": 5.0,
        "network": {"bottleneck": {"bandwidth": 10_000_000, "delay": 0.02, "delay_variation": 0.01,
                                   "queue_packets": 200, "scheduler": "reservation",
                                   "loss": {"model": "none"}, "reverse_loss": {"model": "none"}}},
        "flows": [{"algorithm": "newreno", "reserved_bandwidth": 2_000_000, "tcp": {"rwnd": 65_535}},
                  {"algorithm": "reno", "tcp": {"rwnd": 65_535}}],
    });
    let s = Scenario::from_value(&v).unwrap();
    let sim = run(&s);
    invariants::check(&s, &sim).unwrap();
    let again = run(&s);
    assert_eq!(sim.digest(), again.digest());
    let spurious: u64 = sim.summary().flows.iter().map(|f| f.spurious_retransmits).sum();
    assert!(spurious > 0, "reordering caused spurious retransmissions");
}

#[test]
fn bad_values_are_refused_with_the_parameter_and_its_range() {
    for bad in [json!(-0.001), json!(10.5), json!("fast"), json!(null)] {
        let v = json!({"network": {"bottleneck": {"delay_variation": bad}}});
        let problems = Scenario::from_value(&v).unwrap_err();
        let p = problems
            .iter()
            .find(|p| p.path == "network.bottleneck.delay_variation")
            .unwrap_or_else(|| panic!("{bad}: {problems:?}"));
        assert!(!p.message.is_empty());
        if bad.is_number() {
            assert!(p.message.contains("allowed 0 to 10 s"), "{bad}: {}", p.message);
        }
    }
    // The same through the timeline.
    let v = json!({"timeline": [{"at": 1.0, "set": "network.bottleneck.delay_variation", "value": 11}]});
    let problems = Scenario::from_value(&v).unwrap_err();
    assert!(
        problems.iter().any(|p| p.message.contains("allowed 0 to 10 s")),
        "{problems:?}"
    );
}
