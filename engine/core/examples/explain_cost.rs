//! What explaining costs (docs/performance.md): best of N runs of a preset without and with
//! explanations, alternating, in three settings: summary only (`cwndlab run`), summary only
//! with the decisions taken out every 50 000 events (`cwndlab explain`), and every trace row
//! kept (the web app). `cargo run --release --example explain_cost -- netsim-newreno 200 15`
//! (preset, duration in seconds, runs).
use cwndlab_core::{presets, sim::Recording, sim::Simulation};
use std::time::Instant;

fn once(s: &cwndlab_core::Scenario, full: bool, explain: bool, stream: bool) -> (f64, usize) {
    let t0 = Instant::now();
    let mut sim = Simulation::new(s);
    if !full {
        sim.set_recording(Recording::Summary { digest: false });
    }
    sim.set_explain(explain);
    let mut n = 0;
    if stream {
        loop {
            let done = sim.run_events(50_000);
            n += sim.decisions().len();
            sim.clear_decisions();
            if done {
                break;
            }
        }
    } else {
        sim.run_to_end();
        n = sim.decisions().len();
    }
    (t0.elapsed().as_secs_f64() * 1e3, n)
}

fn main() {
    let mut a = std::env::args().skip(1);
    let name = a.next().unwrap_or("netsim-newreno".into());
    let duration: f64 = a.next().and_then(|s| s.parse().ok()).unwrap_or(200.0);
    let runs: usize = a.next().and_then(|s| s.parse().ok()).unwrap_or(15);
    let mut s = presets::find(&name).expect("preset").scenario().expect("valid");
    s.duration = duration;
    // `on` or `off` as a fourth argument: one summary-only run in that mode (for a profiler).
    if let Some(mode) = a.next() {
        let (t, n) = once(&s, false, mode == "on", false);
        println!("{name} {duration} s, one run, explanations {mode}: {t:.2} ms, {n} decisions");
        return;
    }
    for (label, full, stream) in [
        ("summary only, decisions kept", false, false),
        ("summary only, decisions streamed (cwndlab explain)", false, true),
        ("every trace row kept (the page)", true, false),
    ] {
        let (mut off, mut on, mut n) = (f64::MAX, f64::MAX, 0);
        for _ in 0..runs {
            off = off.min(once(&s, full, false, stream).0);
            let (t, k) = once(&s, full, true, stream);
            on = on.min(t);
            n = k;
        }
        println!(
            "{name} {duration} s, {label}: best of {runs}: {off:.2} ms without explanations, {on:.2} ms with ({n} decisions): {:+.1} %",
            (on / off - 1.0) * 100.0
        );
    }
}
