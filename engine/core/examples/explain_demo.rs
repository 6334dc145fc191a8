//! Prints the explained decisions of a preset (a development aid): `cargo run --example
//! explain_demo -- fall-floyd-reno-3drops [max lines]`.
fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "fall-floyd-reno-3drops".into());
    let max: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(80);
    let p = cwndlab_core::presets::find(&name).expect("a preset");
    let s = p.scenario().expect("valid");
    let mut sim = cwndlab_core::Simulation::new(&s).explained();
    sim.run_to_end();
    for e in sim
        .decisions()
        .iter()
        .filter(|e| e.d.info().kind != cwndlab_core::explain::Kind::Increase)
        .take(max)
    {
        println!("{}", e.line());
    }
    println!("{} decisions", sim.decisions().len());
}
