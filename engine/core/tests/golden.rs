//! Golden digests: the trace digest of every preset, recorded in `tests/golden/digests.json`.
//! The same file is checked against the wasm build (engine/wasm/tests/determinism.mjs), so
//! together they prove native and wasm runs are bit-identical. After an intended behaviour
//! change, regenerate with `CWNDLAB_UPDATE_GOLDEN=1 cargo test -p cwndlab-core --test golden`
//! and review the diff.

use cwndlab_core::presets;
use cwndlab_core::sim::Simulation;
use std::collections::BTreeMap;

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/digests.json");
const VALIDATION_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/validation-digests.json");
const RECOVERY_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/recovery-digests.json");
const DECISIONS_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/decision-digests.json");
const COMPARISONS_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/comparison-digests.json");
const SUMMARIES_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/summary-digests.json");

/// FNV-1a (64 bits) of a summary's JSON text: engine/wasm/tests/determinism.mjs hashes the
/// wasm build's `summary_json()` the same way (the summary's integer sums take other
/// arithmetic in WebAssembly, `wide.rs`, and must give the same numbers).
fn fnv1a(text: &str) -> String {
    let h = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{h:016x}")
}

fn check_or_update(file: &str, now: &BTreeMap<String, String>) {
    if std::env::var_os("CWNDLAB_UPDATE_GOLDEN").is_some() {
        std::fs::write(file, serde_json::to_string_pretty(now).unwrap() + "\n").unwrap();
        return;
    }
    let text = std::fs::read_to_string(file).expect("golden file (regenerate with CWNDLAB_UPDATE_GOLDEN=1)");
    let golden: BTreeMap<String, String> = serde_json::from_str(&text).unwrap();
    assert_eq!(
        &golden, now,
        "{file}: digests changed; if intended, regenerate the golden file and review"
    );
}

#[test]
fn every_preset_matches_its_golden_digest() {
    let mut now = BTreeMap::new();
    let mut validation = BTreeMap::new();
    let mut recovery = BTreeMap::new();
    let mut summaries = BTreeMap::new();
    for p in presets::all() {
        let mut sim = Simulation::new(&p.scenario().expect("valid preset"));
        sim.run_to_end();
        now.insert(p.name.clone(), format!("{:016x}", sim.digest()));
        summaries.insert(p.name.clone(), fnv1a(&serde_json::to_string(&sim.summary()).unwrap()));
        if let Some(v) = sim.validation_digest() {
            validation.insert(p.name.clone(), format!("{v:016x}"));
        }
        if let Some(v) = sim.recovery_digest() {
            recovery.insert(p.name.clone(), format!("{v:016x}"));
        }
    }
    check_or_update(FILE, &now);
    check_or_update(VALIDATION_FILE, &validation);
    check_or_update(RECOVERY_FILE, &recovery);
    check_or_update(SUMMARIES_FILE, &summaries);
}

/// The explained decisions of every preset (`Simulation::decisions_digest`), checked against
/// the wasm build by engine/wasm/tests/determinism.mjs: native and wasm explain alike.
#[test]
fn every_presets_decisions_match_their_golden_digest() {
    let mut now = BTreeMap::new();
    for p in presets::all() {
        let mut sim = Simulation::new(&p.scenario().expect("valid preset")).explained();
        sim.run_to_end();
        now.insert(p.name.clone(), format!("{:016x}", sim.decisions_digest()));
    }
    check_or_update(DECISIONS_FILE, &now);
}

#[test]
fn summary_only_and_streamed_runs_keep_the_full_runs_digest_and_summary() {
    use cwndlab_core::sim::Recording;
    for p in presets::all() {
        let s = p.scenario().expect("valid preset");
        let mut full = Simulation::new(&s);
        full.run_to_end();
        // No rows kept, every row hashed as it is produced.
        let mut lean = Simulation::new(&s);
        lean.set_recording(Recording::Summary { digest: true });
        lean.run_to_end();
        assert!(
            lean.series(0).rows.is_empty() && lean.events().rows.is_empty(),
            "{}",
            p.name
        );
        assert_eq!(full.digest(), lean.digest(), "{}", p.name);
        assert_eq!(
            serde_json::to_value(full.summary()).unwrap(),
            serde_json::to_value(lean.summary()).unwrap(),
            "{}",
            p.name
        );
        // Rows taken out in slices (as `--out` writes them): same rows, same digest.
        let mut streamed = Simulation::new(&s);
        let mut events = 0;
        while !streamed.is_finished() {
            streamed.advance(250_000_000);
            events += streamed.take_rows().events.len();
        }
        assert_eq!(events, full.events().len(), "{}", p.name);
        assert_eq!(full.digest(), streamed.digest(), "{}", p.name);
        // No digest at all: reported as null.
        let mut bare = Simulation::new(&s);
        bare.set_recording(Recording::Summary { digest: false });
        bare.run_to_end();
        let mut summary = bare.summary();
        assert_eq!(summary.digest, None);
        // Making no rows at all (no event log, no queue traces) changes no number.
        summary.digest = full.summary().digest;
        assert_eq!(
            serde_json::to_value(full.summary()).unwrap(),
            serde_json::to_value(summary).unwrap(),
            "{}",
            p.name
        );
        assert!(bare.events().is_empty(), "{}", p.name);
    }
}

/// The runs a lesson compares (the page's comparison of a preset): each named algorithm's
/// settings written onto flow 0 of the resolved preset, as the page does, digested; the
/// wasm build checks the same runs (engine/wasm/tests/determinism.mjs).
#[test]
fn every_lesson_comparison_matches_its_golden_digest() {
    use cwndlab_core::catalogue;
    let mut now = BTreeMap::new();
    for p in presets::all() {
        let Some(lesson) = &p.lesson else { continue };
        if lesson.mode != "compare" {
            continue;
        }
        // As the page makes a compared run (`Runs`, `scenario::runs`): the algorithm choice
        // owns the common keys and the selector keys (the controller, SACK's), which go back
        // to their defaults before the entry's settings are written.
        let base = p.scenario().unwrap().to_value();
        for alg in &lesson.compare {
            assert!(catalogue::find(alg).is_some(), "{}: {alg}", p.name);
            let s = cwndlab_core::scenario::runs::run_scenario(&base, Some(alg)).unwrap();
            let mut sim = Simulation::new(&s);
            sim.run_to_end();
            now.insert(format!("{}@{alg}", p.name), format!("{:016x}", sim.digest()));
        }
    }
    check_or_update(COMPARISONS_FILE, &now);
}
