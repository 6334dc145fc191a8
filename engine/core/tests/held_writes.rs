//! Held writes (sim.rs, `release_writes`): a periodic application's writes behind a full
//! segment that waits are not queued one by one; the sender's next event, a timeline
//! change and the end of every stretch of the run make those due by then in one step.
//! Held against the same runs with every write queued as an event.

use cwndlab_core::presets;
use cwndlab_core::scenario::Scenario;
use cwndlab_core::sim::Simulation;
use serde_json::json;

fn summary_without_event_count(sim: &Simulation) -> serde_json::Value {
    let mut v = serde_json::to_value(sim.summary()).unwrap();
    v.as_object_mut().unwrap().remove("events_processed");
    v
}

/// The run as it is and with every write queued (both with early entry).
fn pair(s: &Scenario) -> (Simulation, Simulation) {
    let mut held = Simulation::new(s);
    held.run_to_end();
    let mut queued = Simulation::new(s).with_every_write_queued();
    queued.run_to_end();
    (held, queued)
}

/// A preset run both ways, checked to give the same trace and summary.
fn same_run(name: &str) -> (Simulation, Simulation) {
    let s = presets::find(name).unwrap().scenario().unwrap();
    let (held, queued) = pair(&s);
    assert_eq!(held.digest(), queued.digest(), "{name}");
    assert_eq!(
        summary_without_event_count(&held),
        summary_without_event_count(&queued),
        "{name}"
    );
    (held, queued)
}

#[test]
fn the_netsim_backlog_is_written_in_steps_with_the_same_trace() {
    // The lab's CBR source writes 10 Mbit/s into a path that carries about 4, so after
    // the first round trips every write waits behind a full segment.
    for name in ["netsim-newreno", "netsim-reno", "netsim-tahoe", "netsim-old-tahoe"] {
        let (held, queued) = same_run(name);
        let writes = held.writes(0).unwrap();
        assert_eq!(writes.writes, queued.writes(0).unwrap().writes, "{name}");
        assert_eq!(writes.rows, queued.writes(0).unwrap().rows, "{name}");
        // 20 s of writes every 1168 µs: 17 124 writes, all but a few hundred held (those
        // made while the sender could still send: slow start, recoveries).
        assert_eq!(writes.writes, 17_124, "{name}");
        let saved = queued.events_processed() - held.events_processed();
        assert!(saved > 16_000 && saved < writes.writes, "{name}: {saved} events saved");
        if name == "netsim-newreno" {
            assert_eq!(saved, 16_472);
        }
    }
}

#[test]
fn thin_streams_keep_their_trace() {
    // Thin streams seldom have a full segment waiting, so few writes are held; the trace
    // is the same either way, except where a held write falls on the very instant of
    // another event of its sender: held, it runs first (`release_writes`); queued, the two
    // run in the order they were scheduled. thin-20b-1ms with the Linux profiles' SACK
    // recovery has such instants (an ACK at an exact millisecond, 22.098 s first).
    for name in [
        "thin-20b-10ms",
        "thin-20b-1ms",
        "thin-50b-10ms",
        "thin-50b-20ms",
        "thin-vs-greedy",
    ] {
        let s = presets::find(name).unwrap().scenario().unwrap();
        let (held, queued) = pair(&s);
        if held.digest() == queued.digest() {
            assert_eq!(
                summary_without_event_count(&held),
                summary_without_event_count(&queued),
                "{name}"
            );
            continue;
        }
        assert!(queued.tied_events() > 0, "{name}: traces differ without a tie");
        let (a, b) = (&held.events().rows, &queued.events().rows);
        let i = (0..a.len().min(b.len())).find(|&i| a[i] != b[i]).expect("a difference");
        let t = a[i].t.min(b[i].t);
        let f = &s.flows[0];
        let (start, gap) = (
            cwndlab_core::time::secs_to_ns(f.start),
            cwndlab_core::time::secs_to_ns(f.app.write_interval),
        );
        assert_eq!(
            (t - start) % gap,
            0,
            "{name}: first difference at {t} ns, not a write instant"
        );
        assert!(
            a[..i].iter().rev().take_while(|r| r.t == t).count() > 0 || a[i].t == t,
            "{name}: the first difference is not at the write's instant"
        );
    }
}

/// A CBR source faster than its path for 3 s, then (timeline) slower: the backlog drains
/// and the writes go back to events of their own. The write size changes while writes are
/// held, and the run ends while they are.
fn outpace_then_drain() -> Scenario {
    Scenario::from_value(&json!({
        "duration": 8.0,
        "network": {"bottleneck": {"bandwidth": 2_000_000, "delay": 0.0203, "queue_packets": 40}},
        "flows": [{"algorithm": "newreno",
                   "app": {"kind": "cbr", "write_size": 1460, "write_interval": 0.0037}}],
        "timeline": [
            {"at": 1.5013, "set": "flows[0].app.write_size", "value": 1000},
            {"at": 3.0, "set": "flows[0].app.write_interval", "value": 0.0507},
            {"at": 7.2, "set": "flows[0].app.write_interval", "value": 0.0011}
        ]
    }))
    .unwrap()
}

#[test]
fn writes_held_through_timeline_changes_and_released_when_the_backlog_drains() {
    let s = outpace_then_drain();
    let (held, queued) = pair(&s);
    assert_eq!(queued.tied_events(), 0, "no tie can reorder this run");
    assert_eq!(held.digest(), queued.digest());
    assert_eq!(summary_without_event_count(&held), summary_without_event_count(&queued));
    let rows = &held.writes(0).unwrap().rows;
    assert_eq!(rows, &queued.writes(0).unwrap().rows);
    // Both sizes were written, and writes after the slowdown were delivered: the backlog
    // drained and the sender went back to queued writes.
    assert!(rows.iter().any(|r| r.1 == 1460) && rows.iter().any(|r| r.1 == 1000));
    assert!(
        rows.iter().any(|r| r.0 > 5_000_000_000),
        "writes after the slowdown were delivered"
    );
    let saved = queued.events_processed() - held.events_processed();
    assert!(saved > 200, "writes were held ({saved} events saved)");
}

#[test]
fn slicing_a_run_with_held_writes_changes_nothing() {
    let s = outpace_then_drain();
    let mut whole = Simulation::new(&s);
    whole.run_to_end();
    let mut sliced = Simulation::new(&s);
    let mut k = 0u64;
    while !sliced.is_finished() {
        k += 1;
        match k % 3 {
            0 => {
                sliced.advance(1_000_003 * (k % 17));
            }
            1 => {
                sliced.step();
            }
            _ => {
                sliced.run_events(5);
            }
        }
        // Reads between stretches see every write due by now: until the interval changes
        // at 3 s, one every 3.7 ms from 0 (the one due at this very instant may still wait
        // when a budget stopped the stretch before it).
        let now = sliced.now();
        if now < 3_000_000_000 {
            let (made, due) = (sliced.writes(0).unwrap().writes, now / 3_700_000 + 1);
            assert!(
                made == due || (made + 1 == due && now.is_multiple_of(3_700_000)),
                "{made} of {due} at {now}"
            );
        }
    }
    assert_eq!(whole.digest(), sliced.digest());
    assert_eq!(
        serde_json::to_value(whole.summary()).unwrap(),
        serde_json::to_value(sliced.summary()).unwrap()
    );
}

#[test]
fn a_summary_counts_every_write_due_by_its_instant() {
    // Stopped at any instant, the count of writes made is the one of a run with every write
    // queued stopped there: writes every 3.7 ms from 0, so floor(t / 3.7 ms) + 1 by t.
    let s = outpace_then_drain();
    for t in [0.5, 1.0, 1.2345, 1.4999] {
        let stop = (t * 1e9) as u64;
        let mut held = Simulation::new(&s);
        held.advance(stop);
        let mut queued = Simulation::new(&s).with_every_write_queued();
        queued.advance(stop);
        let n = held.writes(0).unwrap().writes;
        assert_eq!(n, queued.writes(0).unwrap().writes, "at {t} s");
        assert_eq!(n, stop / 3_700_000 + 1, "at {t} s");
        assert_eq!(held.sender(0).app_written, queued.sender(0).app_written, "at {t} s");
    }
}
