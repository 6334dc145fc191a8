use cwndlab_core::{presets, sim::Simulation};
fn main() {
    let s = presets::find("netsim-newreno").unwrap().scenario().unwrap();
    let mut sim = Simulation::new(&s);
    let mut mx = 0;
    let mut sum = 0;
    let mut n = 0;
    while sim.step() {
        let l = sim.pending_events();
        mx = mx.max(l);
        sum += l;
        n += 1;
    }
    println!("max {mx} mean {}", sum as f64 / n as f64);
}
