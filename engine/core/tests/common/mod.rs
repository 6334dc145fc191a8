//! Helpers shared by the scenario tests: build runs from presets plus overrides, and read
//! the trace back as plain tuples.
#![allow(dead_code)]

use cwndlab_core::presets;
use cwndlab_core::scenario::{parse_set_value, resolve, set_path, Scenario};
use cwndlab_core::sim::Simulation;
use cwndlab_core::trace::{EventKind, FlowState};
use serde_json::Value;

/// Nanoseconds per millisecond.
pub const MS: u64 = 1_000_000;
/// Nanoseconds per second.
pub const SEC: u64 = 1_000_000_000;

/// A scenario from a preset with `path=value` overrides.
pub fn scenario(preset: &str, sets: &[(&str, &str)]) -> Scenario {
    let base = presets::find(preset)
        .unwrap_or_else(|| panic!("no preset {preset}"))
        .overrides;
    scenario_from(base, sets)
}

/// A scenario from a partial JSON object with `path=value` overrides.
pub fn scenario_from(base: Value, sets: &[(&str, &str)]) -> Scenario {
    let mut doc = resolve(&base).expect("base resolves");
    for (p, v) in sets {
        set_path(&mut doc, p, parse_set_value(v)).unwrap_or_else(|e| panic!("{e}"));
    }
    Scenario::from_value(&doc).unwrap_or_else(|e| panic!("{e:?}"))
}

/// Runs a scenario to the end.
pub fn run(s: &Scenario) -> Simulation {
    let mut sim = Simulation::new(s);
    sim.run_to_end();
    sim
}

/// An event row in test-friendly form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ev {
    /// Time, ns.
    pub t: u64,
    /// Kind.
    pub kind: EventKind,
    /// Sequence / ACK number.
    pub seq: u64,
    /// Length (or duplicate count).
    pub len: u32,
    /// Segment number.
    pub seg: u32,
    /// Transmission attempt.
    pub tx: u32,
}

/// Every event of the given kinds, in order.
pub fn events(sim: &Simulation, kinds: &[EventKind]) -> Vec<Ev> {
    sim.events()
        .rows
        .iter()
        .map(|r| Ev {
            t: r.t,
            kind: EventKind::ALL[r.kind as usize],
            seq: r.seq,
            len: r.len,
            seg: r.seg,
            tx: r.tx,
        })
        .filter(|e| kinds.contains(&e.kind))
        .collect()
}

/// Events of one kind.
pub fn of(sim: &Simulation, kind: EventKind) -> Vec<Ev> {
    events(sim, &[kind])
}

/// The flow state in force at time `t` (the last row at or before `t`).
pub fn state_at(sim: &Simulation, flow: usize, t: u64) -> FlowState {
    let rows = &sim.series(flow).rows;
    let i = rows.partition_point(|(rt, _)| *rt <= t);
    assert!(i > 0, "no state at or before {t}");
    rows[i - 1].1
}
