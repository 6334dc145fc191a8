//! Simulated packets (data + ACK) per wall-clock second on the NetSim lab scenario and the
//! default scenario. Run with `cargo bench -p cwndlab-core` (see docs/performance.md).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use cwndlab_core::presets;
use cwndlab_core::scenario::Scenario;
use cwndlab_core::sim::Simulation;

fn packets(s: &Scenario) -> u64 {
    let mut sim = Simulation::new(s);
    sim.run_to_end();
    sim.packets()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("engine");
    g.sample_size(30);
    let cases: Vec<(String, Scenario)> = ["netsim-newreno", "netsim-reno", "fall-floyd-newreno-4drops"]
        .iter()
        .map(|n| {
            (
                n.to_string(),
                presets::find(n).expect("preset").scenario().expect("valid"),
            )
        })
        .chain(std::iter::once(("default".to_string(), Scenario::default())))
        .collect();
    for (name, s) in &cases {
        // Throughput in simulated packets, so criterion reports packets per second.
        g.throughput(Throughput::Elements(packets(s)));
        // Build and run, trace recording included.
        g.bench_function(name, |b| b.iter(|| black_box(packets(black_box(s)))));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
