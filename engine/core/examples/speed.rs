//! Quick probe: simulated packets per wall-clock second (best of N runs) for a preset name or
//! a scenario file (`*.json`).
use cwndlab_core::{presets, scenario::Scenario, sim::Simulation};
fn main() {
    let name = std::env::args().nth(1).unwrap_or("netsim-newreno".into());
    let runs: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(30);
    // `digest` as a third argument: each run also computes its trace digest, as the page's
    // runs and `scripts/wasm-speed.mjs` do (for a like-for-like native/wasm ratio). Such a
    // run keeps its whole trace; with glibc's defaults each run then faults its memory in
    // again, which the wasm module (keeping its memory) does not: set GLIBC_TUNABLES as
    // docs/performance.md says ("Third round") for the like-for-like figure.
    let digest = std::env::args().nth(3).is_some_and(|a| a == "digest");
    let s = if name.ends_with(".json") {
        let text = std::fs::read_to_string(&name).expect("readable scenario file");
        Scenario::from_json_str(&text).expect("valid")
    } else {
        presets::find(&name).expect("preset").scenario().expect("valid")
    };
    let mut best = f64::MAX;
    let mut pk = 0;
    for _ in 0..runs {
        let t0 = std::time::Instant::now();
        let mut sim = Simulation::new(&s);
        sim.run_to_end();
        if digest {
            std::hint::black_box(sim.digest());
        }
        best = best.min(t0.elapsed().as_secs_f64());
        pk = sim.packets();
    }
    println!(
        "{name}: {pk} packets, best {:.2} ms per run = {:.2} M packets/s",
        best * 1e3,
        pk as f64 / best / 1e6
    );
}
