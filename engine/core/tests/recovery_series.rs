//! The SACK recovery series (`Simulation::recovery_series`): kept for SACK flows only, a row
//! per change, its digest apart from the trace digest, its columns in output units.

mod common;

use common::{run, scenario_from};
use cwndlab_core::trace::Table;
use serde_json::json;

fn three_drops(sets: &[(&str, &str)]) -> cwndlab_core::scenario::Scenario {
    let doc = cwndlab_core::presets::find("fall-floyd-newreno-3drops")
        .unwrap()
        .overrides
        .clone();
    scenario_from(json!(doc), sets)
}

#[test]
fn a_sack_flow_keeps_a_recovery_series_and_a_plain_flow_none() {
    let plain = run(&three_drops(&[]));
    assert!(plain.recovery_series(0).is_none());
    assert_eq!(plain.recovery_digest(), None);

    let s = three_drops(&[("flows[].sack.enabled", "true")]);
    let sim = run(&s);
    cwndlab_core::invariants::check(&s, &sim).unwrap();
    let rec = sim.recovery_series(0).expect("a series for the SACK flow");
    assert!(rec.len() > 10, "{} rows", rec.len());
    // The three drops put the flow into recovery, with a RecoveryPoint, and take it out.
    let inside: Vec<_> = rec.rows.iter().filter(|r| r.1.in_recovery).collect();
    assert!(!inside.is_empty());
    assert!(rec.rows.last().is_some_and(|r| !r.1.in_recovery));
    assert!(rec.rows.iter().any(|r| r.1.sacked > 0));
    // Output units: NaN for none.
    let cols = rec.columns(0, u32::MAX);
    let n = rec.len();
    let col = |name: &str| {
        let k = cwndlab_core::trace::RECOVERY_COLUMNS
            .iter()
            .position(|c| *c == name)
            .unwrap();
        &cols[k * n..(k + 1) * n]
    };
    for (i, r) in rec.rows.iter().enumerate() {
        assert_eq!(col("pipe")[i], r.1.pipe as f64);
        assert_eq!(col("in_recovery")[i], if r.1.in_recovery { 1.0 } else { 0.0 });
        assert_eq!(col("recovery_point")[i].is_nan(), !r.1.in_recovery);
        assert!(col("reo_wnd")[i].is_nan(), "RACK off: no reordering window");
    }
    assert!(sim.recovery_digest().is_some());
    // Deterministic: the same run gives the same recovery digest.
    let again = run(&s);
    assert_eq!(sim.recovery_digest(), again.recovery_digest());
}

#[test]
fn rack_and_tlp_show_their_window_and_timer() {
    let s = three_drops(&[
        ("flows[].sack.enabled", "true"),
        ("flows[].sack.rack", "true"),
        ("flows[].sack.tlp", "true"),
    ]);
    let sim = run(&s);
    cwndlab_core::invariants::check(&s, &sim).unwrap();
    let rec = sim.recovery_series(0).unwrap();
    assert!(rec.rows.iter().all(|r| r.1.reo_wnd != u64::MAX));
    assert!(rec.rows.iter().any(|r| r.1.timer_kind == 2 && r.1.timer_at > r.0));
    let plain = run(&three_drops(&[("flows[].sack.enabled", "true")]));
    assert_ne!(sim.recovery_digest(), plain.recovery_digest());
}
