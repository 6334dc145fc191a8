//! Early entry (net.rs): a packet that only one link can bring to the next enters that
//! link at its far-end instant without an event of its own. It must change nothing but the
//! order in which events of one instant are processed. Held against the same runs with an
//! event at every hop (and, as the runs here also hold writes, an event for every write:
//! tests/held_writes.rs holds those on their own).

use cwndlab_core::presets;
use cwndlab_core::sim::Simulation;

fn pair(name: &str) -> (Simulation, Simulation) {
    let s = presets::find(name).unwrap().scenario().unwrap();
    let mut early = Simulation::new(&s);
    early.run_to_end();
    let mut events = Simulation::new(&s).with_every_event();
    events.run_to_end();
    (early, events)
}

fn summary_without_event_count(sim: &Simulation) -> serde_json::Value {
    let mut v = serde_json::to_value(sim.summary()).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("events_processed");
    o.remove("digest");
    v
}

/// Every table by name, the event log as a multiset per instant (rows sorted within their
/// instant).
fn tables(sim: &Simulation) -> Vec<(String, String)> {
    let mut events = sim.events().rows.clone();
    events.sort_by_key(|r| (r.t, format!("{r:?}")));
    let mut out = vec![
        ("events".to_string(), format!("{events:?}")),
        ("throughput".to_string(), format!("{:?}", sim.throughput().rows)),
    ];
    for (name, q) in sim.queues() {
        out.push((name.to_string(), format!("{:?}", q.rows)));
    }
    for f in 0..sim.flow_count() {
        // The sender's state at the end of each instant (within one, the rows follow the
        // order in which its events were processed).
        let mut ends = sim.series(f).rows.clone();
        ends.reverse();
        ends.dedup_by_key(|r| r.0);
        ends.reverse();
        out.push((format!("series {f}"), format!("{ends:?}")));
        out.push((format!("writes {f}"), format!("{:?}", sim.writes(f).map(|w| &w.rows))));
    }
    out
}

/// The names of the tables that differ.
fn differing(a: &Simulation, b: &Simulation) -> Vec<String> {
    tables(a)
        .into_iter()
        .zip(tables(b))
        .filter(|(x, y)| x != y)
        .map(|(x, _)| x.0)
        .collect()
}

#[test]
fn without_tied_instants_the_runs_are_identical() {
    // Presets whose events never share an instant: the whole trace, digest included, is
    // the same, with a third of the events.
    for name in [
        "fall-floyd-reno-3drops",
        "fall-floyd-newreno-4drops",
        "cwv-quiescentB",
        "cwv-underutilized-100ms",
        "jacobson-four-old",
        "thin-20b-10ms",
        "br-tcp-komuro-fifo",
    ] {
        let (early, events) = pair(name);
        assert_eq!(early.digest(), events.digest(), "{name}");
        assert!(
            early.events_processed() < events.events_processed(),
            "{name}: {} events, {} with an event at every hop",
            early.events_processed(),
            events.events_processed()
        );
    }
    let (early, events) = pair("fall-floyd-reno-3drops");
    assert_eq!((early.events_processed(), events.events_processed()), (888, 2662));
}

#[test]
fn tied_instants_only_reorder_events_within_their_instant() {
    // The NetSim runs have 111 events that share their instant with another; processed in
    // another order, they leave every table the same as a set of rows per instant.
    for name in ["netsim-newreno", "netsim-reno", "netsim-tahoe", "netsim-old-tahoe"] {
        let (early, events) = pair(name);
        assert_ne!(
            early.digest(),
            events.digest(),
            "{name}: the order within an instant shows"
        );
        assert_eq!(
            summary_without_event_count(&early),
            summary_without_event_count(&events),
            "{name}"
        );
        assert_eq!(differing(&early, &events), Vec::<String>::new(), "{name}");
    }
    let (early, events) = pair("netsim-newreno");
    // Early entry alone takes half the events away; held writes (tests/held_writes.rs),
    // most of the rest.
    let s = presets::find("netsim-newreno").unwrap().scenario().unwrap();
    let mut early_only = Simulation::new(&s).with_every_write_queued();
    early_only.run_to_end();
    assert_eq!(
        (
            early_only.events_processed(),
            early.events_processed(),
            events.events_processed()
        ),
        (33_690, 17_218, 66_812)
    );
}

#[test]
fn no_link_fed_by_two_others_takes_early_entries() {
    // Two flows share the bottleneck: their packets still enter it at their own events, so
    // the four-conversation run keeps every drop of the shared queue.
    let (early, events) = pair("jacobson-four-old");
    assert_eq!(
        summary_without_event_count(&early),
        summary_without_event_count(&events)
    );
    let drops: u64 = early.summary().flows.iter().map(|f| f.drops.queue).sum();
    assert!(drops > 0, "the shared queue drops packets");
}

#[test]
fn a_packet_the_next_link_would_refuse_keeps_its_event_and_is_dropped_at_its_instant() {
    // One flow; the receiver's access link is slower than the bottleneck and holds three
    // packets, so it overflows: those packets fall back to their far-end event on the
    // bottleneck and are dropped there, as with an event at every hop.
    let v = serde_json::json!({
        "duration": 10.0,
        "network": {"bottleneck": {"bandwidth": 10_000_000, "delay": 0.02, "queue_packets": 100}},
        "flows": [{"algorithm": "newreno", "receiver_access": {"bandwidth": 2_000_000, "delay": 0.001, "queue_packets": 3}}],
    });
    let s = cwndlab_core::scenario::Scenario::from_value(&v).unwrap();
    let mut early = Simulation::new(&s);
    early.run_to_end();
    let mut events = Simulation::new(&s).with_every_event();
    events.run_to_end();
    assert_eq!(events.tied_events(), 0);
    assert_eq!(early.digest(), events.digest());
    let drops = early.summary().flows[0].drops.queue;
    assert!(drops > 10, "the receiver's access link drops ({drops})");
    assert!(early.events_processed() < events.events_processed());
}
