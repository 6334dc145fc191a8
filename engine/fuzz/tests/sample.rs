//! The fuzzing sample `npm test` runs (issue 25): 10 000 drawn cases through the driver
//! (worker processes, a watchdog of 10 s a case), none failing. `npm run fuzz` runs the
//! campaign of 1 000 000.

use std::process::Command;

#[test]
fn ten_thousand_fuzzed_cases_keep_every_invariant() {
    let dir = std::env::temp_dir().join(format!("cwndlab-fuzz-sample-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_cwndlab-fuzz"))
        .args([
            "--cases",
            "10000",
            "--seed",
            "25",
            "--threads",
            "2",
            // A case's time is not bounded by its event budget: one send pass may transmit a
            // whole window at once, and seed 25's case 2095 (4.3BSD without slow start, rwnd
            // 1 GiB, MSS 85: 12.6 million segments in its first pass) takes 2-3 s in this
            // profile, 6 s under load. A hang (an engine that never returns) still trips 10 s.
            "--hang",
            "10",
            "--quiet",
        ])
        .arg("--failures")
        .arg(&dir)
        .output()
        .expect("the driver runs");
    let text = String::from_utf8_lossy(&out.stdout);
    println!("{text}");
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("10000 cases in"), "{text}");
    // The draw reaches the engine: a fair share accepted, many flows, every catalogue entry.
    let accepted: u64 = text
        .split("accepted ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(accepted > 4000, "{accepted} of 10000 accepted");
    // The catalogue's entries and custom.
    let n = cwndlab_core::catalogue::CATALOGUE.len() + 1;
    assert!(text.contains(&format!("catalogue entries run: {n} of {n}")), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
