//! `cwndlab run --pcap` read by Wireshark's own analyser, tshark: its TCP analysis finds the
//! retransmissions, duplicate ACKs and fast retransmits the engine counted, at the instants
//! the engine made them; checksums verify; a handshake tells it the MSS, the window scale
//! and the round trip.
//!
//! tshark is Debian's package `tshark`; `npm test` installs it when missing and sets
//! CWNDLAB_REQUIRE_TSHARK=1, so these tests cannot be skipped there. Run alone without
//! tshark (`cargo test`), they say so and pass.
//!
//! Retransmissions are compared by flow and sequence number (how often each segment was
//! resent). Wireshark's heuristics name a few resent segments differently from the
//! sender's reason, and the tests hold it to that, case by case:
//! - a segment resent within 3 ms of the newest segment (a NewReno partial ACK resends one
//!   and sends new data at the same instant) is "out-of-order" to Wireshark, not a
//!   retransmission; together the two sets are exactly the engine's retransmissions;
//! - a segment resent by a timeout after two or more duplicate ACKs is a "fast
//!   retransmission" to Wireshark; every such extra is a segment the engine's timer
//!   resent;
//! - in SACK recovery (RFC 6675) every segment the scoreboard marks lost is resent after
//!   duplicate ACKs, so each is a "fast retransmission" to Wireshark, while the engine
//!   logs `fast_retransmit` once, when recovery starts: such an extra is a segment the
//!   engine logged as `marked_lost`;
//! - RACK (RFC 8985) marks a segment lost by time, often after fewer than two duplicate
//!   ACKs: the fast retransmit that starts such a recovery is a plain retransmission to
//!   Wireshark; every engine fast retransmit Wireshark does not call fast is one RACK
//!   marked (`marked_lost` with tx 2).

use serde_json::Value;
use std::path::PathBuf;
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
        eprintln!("tshark is not installed: the pcap analysis tests are skipped (npm test installs it)");
    }
    found
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cwndlab-pcap-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs the CLI with `--pcap` and `--out`; (summary, events.csv lines, pcap path).
fn run(name: &str, args: &[&str]) -> (Value, Vec<Vec<String>>, PathBuf) {
    let d = dir(name);
    let pcap = d.join("run.pcap");
    let out = d.join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_cwndlab"))
        .args(["run", "-q", "--pcap"])
        .arg(&pcap)
        .arg("--out")
        .arg(&out)
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary: Value = serde_json::from_slice(&o.stdout).unwrap();
    let events = std::fs::read_to_string(out.join("events.csv")).unwrap();
    let rows = events
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    (summary, rows, pcap)
}

/// tshark's fields of the packets a display filter selects (absolute sequence numbers; a
/// field that occurs more than once in a packet lists its values joined by `;`).
fn tshark(pcap: &PathBuf, filter: &str, fields: &[&str], prefs: &[&str]) -> Vec<Vec<String>> {
    let mut c = Command::new("tshark");
    c.arg("-r")
        .arg(pcap)
        .args(["-n", "-o", "tcp.relative_sequence_numbers:FALSE"]);
    for p in prefs {
        c.args(["-o", p]);
    }
    c.args(["-Y", filter, "-T", "fields", "-E", "separator=,", "-E", "aggregator=;"]);
    for f in fields {
        c.args(["-e", f]);
    }
    let o = c.output().unwrap();
    assert!(o.status.success(), "tshark: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split(',').map(String::from).collect())
        .collect()
}

/// (flow, absolute sequence number) of each marked segment, sorted (a multiset: a
/// segment resent twice is there twice). The engine's byte b is sequence number b+1;
/// flow i's port is 40000+i. Times are not compared: the engine logs a retransmission
/// when the sender makes it, the capture when its transmission starts, which is later
/// while the sender's access link has a queue.
type Marks = Vec<(u64, u64)>;

fn engine_marks(events: &[Vec<String>], kind: &str) -> Marks {
    let mut m: Marks = events
        .iter()
        .filter(|r| r[2] == kind)
        .map(|r| (r[1].parse().unwrap(), r[3].parse::<u64>().unwrap() + 1))
        .collect();
    m.sort_unstable();
    m
}

fn tshark_marks(rows: &[Vec<String>]) -> Marks {
    let mut m: Marks = rows
        .iter()
        .map(|r| (r[0].parse::<u64>().unwrap() - 40_000, r[1].parse().unwrap()))
        .collect();
    m.sort_unstable();
    m
}

const SCALE_5: &str = "tcp.default_window_scaling:5 (multiply by 32)";

fn count(events: &[Vec<String>], kind: &str) -> usize {
    events.iter().filter(|r| r[2] == kind).count()
}

/// Checks tshark's analysis against the engine's record of one run.
/// `window_room`: the run never fills its receiver window, so Wireshark must not say it
/// does (it would, wrongly, without the window scale).
fn agrees(name: &str, args: &[&str], prefs: &[&str], window_room: bool) -> (Value, PathBuf) {
    let (summary, events, pcap) = run(name, args);
    let f = ["tcp.srcport", "tcp.seq"];
    let retx = tshark_marks(&tshark(&pcap, "tcp.analysis.retransmission", &f, prefs));
    let ooo = tshark_marks(&tshark(&pcap, "tcp.analysis.out_of_order", &f, prefs));
    let fast = tshark_marks(&tshark(&pcap, "tcp.analysis.fast_retransmission", &f, prefs));
    let engine_retx = engine_marks(&events, "retransmit");
    let engine_fast = engine_marks(&events, "fast_retransmit");
    let timeouts = engine_marks(&events, "timeout");
    let marked = engine_marks(&events, "marked_lost");
    let mut both = [retx, ooo].concat();
    both.sort_unstable();
    assert_eq!(both, engine_retx, "{name}: retransmissions");
    let by_rack: Marks = events
        .iter()
        .filter(|r| r[2] == "marked_lost" && r[6] == "2")
        .map(|r| (r[1].parse().unwrap(), r[3].parse::<u64>().unwrap() + 1))
        .collect();
    let mut rest = fast.clone();
    for m in &engine_fast {
        match rest.binary_search(m) {
            Ok(i) => {
                rest.remove(i);
            }
            Err(_) => assert!(
                by_rack.contains(m),
                "{name}: fast retransmit {m:?} is neither Wireshark's fast retransmission nor RACK's ({fast:?})"
            ),
        }
    }
    for m in &fast {
        assert!(
            engine_fast.contains(m) || timeouts.contains(m) || marked.contains(m),
            "{name}: tshark's fast retransmission {m:?} is neither a fast retransmit, a timeout's nor one marked lost"
        );
    }
    let dup = tshark(&pcap, "tcp.analysis.duplicate_ack", &["frame.number"], prefs).len();
    assert_eq!(dup, count(&events, "dup_ack"), "{name}: duplicate ACKs");
    let flows = summary["flows"].as_array().unwrap();
    let total = |k: &str| flows.iter().map(|f| f[k].as_u64().unwrap()).sum::<u64>();
    assert_eq!(engine_retx.len() as u64, total("retransmits"), "{name}");
    assert_eq!(engine_fast.len() as u64, total("fast_retransmits"), "{name}");
    if window_room {
        let full = tshark(
            &pcap,
            "tcp.analysis.window_full or tcp.analysis.zero_window",
            &["frame.number"],
            prefs,
        );
        assert!(full.is_empty(), "{name}: {} window warnings", full.len());
    }
    // Checksums verify (status 1 good, 0 bad, 2 unverified: a segment cut at the snap
    // length cannot be checked, its headers can).
    let mut check = prefs.to_vec();
    check.extend(["tcp.check_checksum:TRUE", "ip.check_checksum:TRUE"]);
    let status = tshark(&pcap, "frame", &["ip.checksum.status", "tcp.checksum.status"], &check);
    assert!(
        status.iter().all(|r| r[0] == "1" && r[1] != "0"),
        "{name}: a bad checksum"
    );
    assert!(status.iter().any(|r| r[1] == "1"), "{name}: no TCP checksum verified");
    (summary, pcap)
}

#[test]
fn netsim_reno_fast_retransmits_and_duplicate_acks_as_wireshark_counts_them() {
    if !tshark_here() {
        return;
    }
    let (_, pcap) = agrees("netsim", &["--preset", "netsim-reno"], &[SCALE_5], true);
    // A 20 s NetSim run's capture stays under 2 MB.
    let size = std::fs::metadata(&pcap).unwrap().len();
    assert!(size < 2_000_000, "{size} bytes");
}

#[test]
fn newreno_partial_acks_and_reno_timeouts_as_wireshark_counts_them() {
    if !tshark_here() {
        return;
    }
    for preset in [
        "fall-floyd-newreno-3drops",
        "fall-floyd-reno-4drops",
        "fall-floyd-tahoe-2drops",
    ] {
        agrees(preset, &["--preset", preset], &[], false);
    }
    agrees(
        "bufferbloat",
        &["--preset", "cubic-bufferbloat", "--duration", "10"],
        &[SCALE_5],
        false,
    );
    agrees(
        "timers",
        &["--preset", "jacobson-four-new", "--duration", "60"],
        &[SCALE_5],
        false,
    );
}

#[test]
fn a_handshake_tells_wireshark_the_mss_the_window_scale_and_the_first_rtt() {
    if !tshark_here() {
        return;
    }
    let (_, pcap) = agrees(
        "syn",
        &[
            "--preset",
            "netsim-newreno",
            "--set",
            "flows[].tcp.syn=true",
            "--duration",
            "5",
            "--snaplen",
            "65535",
        ],
        &[],
        true,
    );
    // Whole packets: every TCP checksum verifies.
    let status = tshark(&pcap, "frame", &["tcp.checksum.status"], &["tcp.check_checksum:TRUE"]);
    assert!(status.iter().all(|r| r[0] == "1"));
    let syn = tshark(
        &pcap,
        "tcp.flags.syn == 1",
        &["tcp.flags.ack", "tcp.options.mss_val", "tcp.options.wscale.shift"],
        &[],
    );
    assert_eq!(syn, vec![vec!["0", "1460", "5"], vec!["1", "1460", "5"]]);
    let scale = tshark(
        &pcap,
        "tcp.len > 0",
        &["tcp.window_size_scalefactor", "tcp.window_size"],
        &[],
    );
    assert!(
        scale.iter().all(|r| r[0] == "32" && r[1] == "1048576"),
        "{:?}",
        &scale[..2]
    );
    // The SYN-ACK's round trip, as Wireshark measures it, is the handshake's in the engine.
    let rtt = tshark(
        &pcap,
        "tcp.flags.syn == 1 and tcp.flags.ack == 1",
        &["tcp.analysis.ack_rtt"],
        &[],
    );
    let (_, events, _) = run(
        "syn-events",
        &[
            "--preset",
            "netsim-newreno",
            "--set",
            "flows[].tcp.syn=true",
            "--duration",
            "1",
        ],
    );
    let at = |k: &str| {
        events
            .iter()
            .find(|r| r[2] == k)
            .map(|r| r[0].parse::<f64>().unwrap())
            .unwrap()
    };
    let engine_rtt = at("syn_ack_received") - at("syn_send");
    assert!(
        (rtt[0][0].parse::<f64>().unwrap() - engine_rtt).abs() < 1e-9,
        "{rtt:?} vs {engine_rtt}"
    );
}

#[test]
fn wireshark_reads_the_receiver_and_bottleneck_captures() {
    if !tshark_here() {
        return;
    }
    for point in ["receiver", "bottleneck"] {
        let d = dir(point);
        let pcap = d.join("p.pcap");
        let o = Command::new(env!("CARGO_BIN_EXE_cwndlab"))
            .args(["run", "-q", "--preset", "br-tcp-komuro", "--duration", "5", "--pcap"])
            .arg(&pcap)
            .args(["--pcap-point", point])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let all = tshark(&pcap, "frame", &["frame.number"], &[]);
        let malformed = tshark(
            &pcap,
            "_ws.malformed or _ws.expert.severity == error",
            &["frame.number"],
            &[],
        );
        assert!(!all.is_empty());
        assert!(malformed.is_empty(), "{point}: {} malformed", malformed.len());
    }
}

/// The SACK blocks of each ACK the sender received, in arrival order, as the engine logged
/// them (`sack_block` rows after their `ack_received` row) and numbered as in the capture
/// (byte + 1): (ACK number, [(left, right)], D-SACK first block).
type AckSacks = Vec<(u64, Vec<(u64, u64)>, bool)>;

fn engine_sacks(events: &[Vec<String>]) -> AckSacks {
    let mut acks: AckSacks = Vec::new();
    for r in events {
        let n = |i: usize| r[i].parse::<u64>().unwrap();
        match r[2].as_str() {
            "ack_received" => acks.push((n(3) + 1, Vec::new(), false)),
            "sack_block" => {
                let a = acks.last_mut().expect("a block follows its ACK");
                assert_eq!(n(5) as usize, a.1.len(), "blocks in the option's order");
                a.1.push((n(3) + 1, n(3) + n(4) + 1));
                a.2 |= n(6) == 1;
            }
            _ => {}
        }
    }
    acks
}

fn tshark_sacks(pcap: &PathBuf) -> AckSacks {
    let fields = [
        "tcp.ack",
        "tcp.options.sack_le",
        "tcp.options.sack_re",
        "tcp.options.sack.dsack_le",
    ];
    let list = |s: &str| -> Vec<u64> {
        s.split(';')
            .filter(|x| !x.is_empty())
            .map(|x| x.parse().unwrap())
            .collect()
    };
    tshark(pcap, "tcp.srcport == 9 and tcp.flags.syn == 0", &fields, &[])
        .iter()
        .map(|r| {
            let (le, re) = (list(&r[1]), list(&r[2]));
            assert_eq!(le.len(), re.len());
            (
                r[0].parse().unwrap(),
                le.into_iter().zip(re).collect(),
                !r[3].is_empty(),
            )
        })
        .collect()
}

#[test]
fn sack_options_as_wireshark_reads_them() {
    if !tshark_here() {
        return;
    }
    // Fall and Floyd's three drops with SACK (and a handshake to offer it): the blocks of
    // every ACK, the D-SACK of the spurious retransmission, and the retransmissions.
    let args = [
        "--preset",
        "fall-floyd-newreno-3drops",
        "--set",
        "flows[].sack.enabled=true",
        "--set",
        "flows[].tcp.syn=true",
    ];
    let (_, pcap) = agrees("sack", &args, &[], false);
    let perm = tshark(
        &pcap,
        "tcp.flags.syn == 1",
        &["tcp.flags.ack", "tcp.options.sack_perm"],
        &[],
    );
    assert_eq!(perm.len(), 2, "{perm:?}");
    assert!(
        perm.iter().all(|r| !r[1].is_empty()),
        "SACK-permitted in SYN and SYN-ACK: {perm:?}"
    );
    let (_, events, _) = run("sack-events", &args);
    let engine = engine_sacks(&events);
    let seen = tshark_sacks(&pcap);
    assert_eq!(seen.len(), engine.len(), "ACKs");
    for (k, (a, b)) in seen.iter().zip(&engine).enumerate() {
        assert_eq!(a, b, "ACK {k}");
    }
    let with_blocks = engine.iter().filter(|a| !a.1.is_empty()).count();
    let dsacks: Vec<_> = engine.iter().filter(|a| a.2).collect();
    assert!(with_blocks >= 30, "{with_blocks} ACKs with blocks");
    assert_eq!(dsacks.len(), 1, "{dsacks:?}");
    // Wireshark names the D-SACK's edges: the first block, below the ACK.
    let d = tshark(
        &pcap,
        "tcp.options.sack.dsack",
        &["tcp.ack", "tcp.options.sack.dsack_le", "tcp.options.sack.dsack_re"],
        &[],
    );
    let (ack, blocks, _) = dsacks[0];
    assert_eq!(
        d,
        vec![vec![ack.to_string(), blocks[0].0.to_string(), blocks[0].1.to_string()]]
    );
    assert_eq!(count(&events, "spurious_retransmit"), 1);
    // Without SACK no option is written at all.
    let (_, plain) = agrees(
        "nosack",
        &["--preset", "fall-floyd-newreno-3drops", "--set", "flows[].tcp.syn=true"],
        &[],
        false,
    );
    let any = tshark(
        &plain,
        "tcp.options.sack or tcp.options.sack_perm",
        &["frame.number"],
        &[],
    );
    assert!(any.is_empty(), "{} packets with SACK options", any.len());
}

#[test]
fn rack_and_a_tail_loss_probe_as_wireshark_counts_them() {
    if !tshark_here() {
        return;
    }
    agrees(
        "rack",
        &[
            "--preset",
            "fall-floyd-newreno-3drops",
            "--set",
            "flows[].sack.enabled=true",
            "--set",
            "flows[].sack.rack=true",
            "--set",
            "flows[].sack.tlp=true",
        ],
        &[],
        false,
    );
    // The last of 14 segments dropped once: the probe resends it, and Wireshark sees that
    // resend as the one retransmission.
    let d = dir("tlp-scenario");
    let file = d.join("tlp.json");
    let s = r#"{"duration": 3, "flows": [{"app": {"kind": "bulk", "bytes": 20000},
        "drops": [{"segment": 14, "attempt": 1}], "tcp": {"syn": true},
        "sack": {"enabled": true, "rack": true, "tlp": true}}]}"#;
    std::fs::write(&file, s).unwrap();
    let (_, pcap) = agrees("tlp", &[file.to_str().unwrap()], &[], false);
    let (_, events, _) = run("tlp-events", &[file.to_str().unwrap()]);
    let probes = engine_marks(&events, "tail_loss_probe");
    assert_eq!(probes.len(), 1);
    let f = ["tcp.srcport", "tcp.seq"];
    assert_eq!(
        tshark_marks(&tshark(&pcap, "tcp.analysis.retransmission", &f, &[])),
        probes
    );
}

/// ECN in the capture (RFC 3168): the ECN-setup SYN (ECE+CWR) and SYN-ACK (ECE), ECT(0) on
/// new data, CE as CoDel marked it, ECE on the receiver's echoes and CWR on the sender's
/// answers, each counted as the engine logged them.
#[test]
fn ecn_codepoints_and_flags_as_wireshark_reads_them() {
    if !tshark_here() {
        return;
    }
    let d = dir("ecn");
    let pcap = d.join("p.pcap");
    let out = d.join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_cwndlab"))
        .args(["run", "-q", "--preset", "cubic-bufferbloat", "--duration", "10"])
        .args(["--set", "flows[].ecn=rfc3168", "--set", "flows[].tcp.syn=true"])
        .args(["--set", "network.bottleneck.qdisc=codel", "--pcap"])
        .arg(&pcap)
        .args(["--pcap-point", "receiver", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let events: Vec<Vec<String>> = std::fs::read_to_string(out.join("events.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    let syn = tshark(
        &pcap,
        "tcp.flags.syn == 1",
        &["tcp.flags.ack", "tcp.flags.ece", "tcp.flags.cwr"],
        &[],
    );
    assert_eq!(syn.len(), 2, "{syn:?}");
    assert!(
        syn.iter().any(|r| r[0] == "0" && r[1] == "1" && r[2] == "1"),
        "ECN-setup SYN: {syn:?}"
    );
    assert!(
        syn.iter().any(|r| r[0] == "1" && r[1] == "1" && r[2] == "0"),
        "ECN-setup SYN-ACK: {syn:?}"
    );
    // At the receiver every data segment that crossed CoDel is ECT(0) (2) or CE (3), and
    // the CE ones are the engine's marks.
    let ce = tshark(&pcap, "ip.dsfield.ecn == 3 and tcp.len > 0", &["tcp.seq"], &[]);
    assert_eq!(ce.len(), count(&events, "ce_mark"), "CE-marked segments");
    assert!(!ce.is_empty());
    let cwr = tshark(&pcap, "tcp.flags.cwr == 1 and tcp.flags.syn == 0", &["tcp.seq"], &[]);
    assert_eq!(cwr.len(), count(&events, "cwr"), "CWR segments");
    let ece = tshark(&pcap, "tcp.flags.ece == 1 and tcp.flags.syn == 0", &["tcp.ack"], &[]);
    assert!(!ece.is_empty(), "ACKs with ECE");
    let malformed = tshark(
        &pcap,
        "_ws.malformed or _ws.expert.severity == error",
        &["frame.number"],
        &[],
    );
    assert!(malformed.is_empty(), "{} malformed", malformed.len());
}
