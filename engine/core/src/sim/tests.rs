//! The simulation's own tests: live changes and their replay.

use super::live::apply_live;
use super::*;
use crate::scenario::Scenario;
use crate::schema;
use crate::time::ns_to_secs;

#[test]
fn a_live_change_replays_identically_from_the_timeline() {
    let s = crate::presets::find("netsim-reno").unwrap().scenario().unwrap();
    let mut live = Simulation::new(&s);
    live.advance(3_000_000_000);
    live.step();
    live.step();
    live.apply_change("network.bottleneck.loss.ber", serde_json::json!(1e-5))
        .unwrap();
    live.advance(2_500_000_000);
    live.apply_change("flows[0].app.write_interval", serde_json::json!(0.002))
        .unwrap();
    live.run_to_end();
    assert_eq!(live.scenario().timeline.len(), 2);
    let mut replay = Simulation::new(live.scenario());
    replay.run_to_end();
    assert_eq!(live.digest(), replay.digest());
    assert_eq!(
        serde_json::to_value(live.summary()).unwrap(),
        serde_json::to_value(replay.summary()).unwrap(),
        "every summary field, events_processed included"
    );
    assert_ne!(live.digest(), {
        let mut plain = Simulation::new(&s);
        plain.run_to_end();
        plain.digest()
    });
    let err = live
        .apply_change("flows[0].tcp.mss", serde_json::json!(500))
        .unwrap_err();
    assert!(err.message.contains("cannot change during a run"), "{err}");
}

#[test]
fn a_live_change_to_a_link_applies_now_and_replays_while_packets_entered_it_early() {
    // One flow: packets enter the bottleneck from the access links ahead of the clock.
    // A change now applies to the packets that reach the access link from now on; the
    // replay makes the same early entries, since none depends on changes to come.
    let s = crate::presets::find("netsim-newreno").unwrap().scenario().unwrap();
    let mut live = Simulation::new(&s);
    live.advance(5_000_000_000);
    // A moment when a packet still on the access link has already entered the
    // bottleneck: the bottleneck's occupancy trace has a row ahead of the clock.
    let ahead = |sim: &Simulation| {
        let rows = &sim.world.links[0].series.as_ref().unwrap().rows;
        rows.last().is_some_and(|r| r.0 > sim.now())
    };
    while !ahead(&live) {
        live.step();
    }
    let now = live.now();
    let at = live
        .apply_change("network.bottleneck.bandwidth", serde_json::json!(1_000_000))
        .unwrap();
    assert_eq!(at, now);
    assert_eq!(live.world.links[0].bandwidth(), 1_000_000, "applied at once");
    assert_eq!(live.scenario().timeline[0].at, ns_to_secs(now));
    live.run_to_end();
    let mut replay = Simulation::new(live.scenario());
    replay.run_to_end();
    assert_eq!(live.digest(), replay.digest());
    assert_eq!(
        serde_json::to_value(live.summary()).unwrap(),
        serde_json::to_value(replay.summary()).unwrap()
    );
}

#[test]
fn every_live_parameter_has_a_handler() {
    let s = Scenario::default();
    let mut sim = Simulation::new(&s);
    for p in schema::params().iter().filter(|p| p.live) {
        let v = schema::default_value(p);
        let ok = apply_live(&mut sim.world.links, &mut sim.flows, p.path, &[0], &v);
        assert!(ok, "no handler for live parameter {}", p.path);
    }
}
