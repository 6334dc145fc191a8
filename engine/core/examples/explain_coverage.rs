//! Which rules the presets' runs explain, and how often (a development aid):
//! `cargo run --release --example explain_coverage`.
use std::collections::BTreeMap;
fn main() {
    let mut seen: BTreeMap<&str, (usize, String)> = BTreeMap::new();
    for p in cwndlab_core::presets::all() {
        let s = p.scenario().expect("valid");
        let mut sim = cwndlab_core::Simulation::new(&s).explained();
        sim.run_to_end();
        for e in sim.decisions().iter() {
            let c = seen.entry(e.d.info().id).or_insert((0, p.name.clone()));
            c.0 += 1;
        }
    }
    for r in cwndlab_core::explain::RULES {
        match seen.get(r.id) {
            Some((n, first)) => println!("{:34} {:>9}  first in {first}", r.id, n),
            None => println!("{:34} {:>9}", r.id, "never"),
        }
    }
}
