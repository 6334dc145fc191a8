//! A path that reorders, read by Wireshark's analyser: the capture of `reorder-dupthresh`
//! (delay variation on the bottleneck, nothing lost) at the receiver has its records in
//! time order, tshark finds segments out of order, and it calls spurious exactly the
//! retransmissions the engine found spurious (all of them: nothing was lost).
//!
//! Like tests/pcap_tshark.rs: skipped without tshark unless CWNDLAB_REQUIRE_TSHARK is set.

use std::process::Command;

fn tshark_here() -> bool {
    let found = Command::new("tshark")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CWNDLAB_REQUIRE_TSHARK").is_none(),
            "tshark is required (CWNDLAB_REQUIRE_TSHARK is set) but missing: apt-get install tshark"
        );
        eprintln!("tshark is not installed: the reordering capture test is skipped");
    }
    found
}

/// How many packets of the capture a display filter selects.
fn tshark_count(pcap: &std::path::Path, filter: &str) -> usize {
    let o = Command::new("tshark")
        .arg("-r")
        .arg(pcap)
        .args(["-n", "-Y", filter, "-T", "fields", "-e", "frame.number"])
        .output()
        .unwrap();
    assert!(o.status.success(), "tshark: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap().lines().count()
}

#[test]
fn wireshark_finds_the_reordering_and_the_same_spurious_retransmissions() {
    if !tshark_here() {
        return;
    }
    let d = std::env::temp_dir().join(format!("cwndlab-pcap-reorder-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let pcap = d.join("run.pcap");
    let o = Command::new(env!("CARGO_BIN_EXE_cwndlab"))
        .args([
            "run",
            "-q",
            "--preset",
            "reorder-dupthresh",
            "--pcap-point",
            "receiver",
            "--pcap",
        ])
        .arg(&pcap)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let f = &summary["flows"][0];
    assert_eq!(f["spurious_retransmits"], f["retransmits"]);
    let spurious = f["spurious_retransmits"].as_u64().unwrap() as usize;
    assert_eq!(spurious, 181);
    // Records in time order (pcap: 24-byte header, then 16-byte record headers).
    let bytes = std::fs::read(&pcap).unwrap();
    let (mut at, mut last) = (24, 0u64);
    while at < bytes.len() {
        let word = |k: usize| u32::from_le_bytes(bytes[at + k..at + k + 4].try_into().unwrap()) as u64;
        let t = word(0) * 1_000_000_000 + word(4);
        assert!(t >= last, "a record at {t} ns after one at {last} ns");
        last = t;
        at += 16 + word(8) as usize;
    }
    assert!(tshark_count(&pcap, "tcp.analysis.out_of_order") > 100);
    assert_eq!(tshark_count(&pcap, "tcp.analysis.spurious_retransmission"), spurious);
    let _ = std::fs::remove_dir_all(&d);
}
