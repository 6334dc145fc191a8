//! Golden digests: the trace digest of every preset, recorded in `tests/golden/digests.json`.
//! The same file is checked against the wasm build (engine/wasm/tests/determinism.mjs), so
//! together they prove native and wasm runs are bit-identical. After an intended behaviour
//! change, regenerate with `CWNDLAB_UPDATE_GOLDEN=1 cargo test -p cwndlab-core --test golden`
//! and review the diff.

use cwndlab_core::presets;
use cwndlab_core::sim::Simulation;
use std::collections::BTreeMap;

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/digests.json");

#[test]
fn every_preset_matches_its_golden_digest() {
    let mut now = BTreeMap::new();
    for p in presets::all() {
        let mut sim = Simulation::new(&p.scenario().expect("valid preset"));
        sim.run_to_end();
        now.insert(p.name.clone(), format!("{:016x}", sim.digest()));
    }
    if std::env::var_os("CWNDLAB_UPDATE_GOLDEN").is_some() {
        std::fs::write(FILE, serde_json::to_string_pretty(&now).unwrap() + "\n").unwrap();
        return;
    }
    let text = std::fs::read_to_string(FILE).expect("golden file (regenerate with CWNDLAB_UPDATE_GOLDEN=1)");
    let golden: BTreeMap<String, String> = serde_json::from_str(&text).unwrap();
    assert_eq!(
        golden, now,
        "trace digests changed; if intended, regenerate the golden file and review"
    );
}
