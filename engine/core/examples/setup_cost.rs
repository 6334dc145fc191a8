//! The set-up of a compared run as the page makes it (`Runs.sim` in the wasm bindings):
//! `runs::run_scenario` on the step's scenario for each of the default comparison's
//! algorithms, then `Simulation::new`, repeated; nothing is run. For instruction counts
//! (docs/performance.md): `valgrind --tool=callgrind target/release/examples/setup_cost N`
//! against N = 0 gives the cost of N × 4 set-ups.
use cwndlab_core::scenario::runs::run_scenario;
use cwndlab_core::sim::Simulation;

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let base = serde_json::json!({});
    let mut packets = 0;
    for _ in 0..n {
        for alg in ["tahoe", "reno", "newreno", "cubic"] {
            let s = run_scenario(&base, Some(alg)).expect("a valid run");
            packets += Simulation::new(&s).packets();
        }
    }
    println!("{n} × 4 set-ups ({packets} packets)");
}
