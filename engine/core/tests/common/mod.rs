//! Helpers shared by the scenario tests: build runs from presets plus overrides, and read
//! the trace back as plain tuples.
#![allow(dead_code)]

use cwndlab_core::explain::{Decision, Kind};
use cwndlab_core::presets;
use cwndlab_core::scenario::{parse_set_value, resolve, set_path, Scenario};
use cwndlab_core::sim::Simulation;
use cwndlab_core::trace::{EventKind, FlowState};
use serde_json::Value;

/// Nanoseconds per millisecond.
pub const MS: u64 = 1_000_000;
/// Nanoseconds per second.
pub const SEC: u64 = 1_000_000_000;

/// A decision's values read by name, for checks that read any rule's values by the same
/// name (the engine's wording reads `explain::view` instead). A name the rule does not
/// record panics, naming the rule, so a misspelt name fails the test instead of reading 0.
pub trait Named {
    /// Input `name`.
    fn input(&self, name: &str) -> u64;
    /// Output `name`.
    fn output(&self, name: &str) -> u64;
}

impl Named for Decision {
    fn input(&self, name: &str) -> u64 {
        let v = self.inputs().find(|&(n, _, _)| n == name);
        v.unwrap_or_else(|| panic!("{} records no input {name:?}", self.info().id))
            .2
    }

    fn output(&self, name: &str) -> u64 {
        let v = self.outputs().find(|&(n, _, _)| n == name);
        v.unwrap_or_else(|| panic!("{} records no output {name:?}", self.info().id))
            .2
    }
}

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

/// For every flow, the cwnd and ssthresh a decision reads are the values the previous
/// decision left (or the initial ones), and the last decision's values are the flow's final
/// state: every change to either is explained, with its before and after.
pub fn check_chain(name: &str, sim: &Simulation) {
    for f in 0..sim.flow_count() {
        let s = &sim.scenario().flows[f];
        // A short-transfers flow restarts its window with each transfer's fresh connection
        // (`Sender::reopen`), which no decision explains yet: its chain is not checked.
        if s.app.kind == cwndlab_core::scenario::AppKind::Transfers {
            continue;
        }
        let mut cwnd = sim.series(f).rows.first().map(|r| r.1.cwnd);
        let mut ssthresh = if s.tcp.initial_ssthresh == 0 {
            u64::MAX
        } else {
            s.tcp.initial_ssthresh
        };
        let mut last_t = 0;
        // A loss response explains ssthresh twice: the ssthresh rule's own entry, then the
        // response's, which reads ssthresh as it was before both.
        let mut before_loss: Option<u64> = None;
        for e in sim.decisions().iter().filter(|e| e.flow as usize == f) {
            assert!(e.t >= last_t, "{name}: decisions out of order");
            last_t = e.t;
            let info = e.d.info();
            let has_in = |n: &str| info.inputs.iter().any(|(x, _)| *x == n);
            let has_out = |n: &str| info.outputs.iter().any(|(x, _)| *x == n);
            if has_in("cwnd") {
                if let Some(c) = cwnd {
                    assert_eq!(
                        e.d.input("cwnd"),
                        c,
                        "{name} flow {f}: {} at {} reads cwnd",
                        info.id,
                        e.t
                    );
                }
            }
            let responds = matches!(info.kind, Kind::Loss | Kind::Timeout) && !info.id.starts_with("ssthresh.");
            if has_in("ssthresh") {
                let want = match before_loss {
                    Some(b) if responds => b,
                    _ => ssthresh,
                };
                assert_eq!(
                    e.d.input("ssthresh"),
                    want,
                    "{name} flow {f}: {} at {} reads ssthresh",
                    info.id,
                    e.t
                );
            }
            if info.id.starts_with("ssthresh.") {
                before_loss = Some(ssthresh);
            } else if responds {
                before_loss = None;
            }
            if has_out("cwnd") {
                cwnd = Some(e.d.output("cwnd"));
            }
            if has_out("ssthresh") {
                ssthresh = e.d.output("ssthresh");
            }
        }
        let last = sim.series(f).rows.last().expect("a row").1;
        if let Some(c) = cwnd {
            assert_eq!(last.cwnd, c, "{name} flow {f}: final cwnd unexplained");
        }
        assert_eq!(last.ssthresh, ssthresh, "{name} flow {f}: final ssthresh unexplained");
    }
}
