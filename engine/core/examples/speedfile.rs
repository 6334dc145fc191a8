//! Probe: packets per second (best of N) for a scenario file.
use cwndlab_core::{scenario::Scenario, sim::Simulation};
fn main() {
    let path = std::env::args().nth(1).expect("scenario file");
    let s = Scenario::from_json_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut best = f64::MAX;
    let mut pk = 0;
    for _ in 0..10 {
        let t0 = std::time::Instant::now();
        let mut sim = Simulation::new(&s);
        sim.run_to_end();
        best = best.min(t0.elapsed().as_secs_f64());
        pk = sim.packets();
    }
    println!("{path}: {pk} packets, {:.2} M packets/s", pk as f64 / best / 1e6);
}
