//! The `cwndlab` command line as a user runs it: outputs, files, and every class of bad
//! input (a clear message naming the problem, a non-zero exit, never a panic).

use std::process::{Command, Output};

mod common;
use common::{cwndlab, stdout};

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A failing run: exit code 1 or 2, a message containing every `needle`, no panic text.
fn fails_with(args: &[&str], needles: &[&str]) {
    let o = cwndlab(args);
    let err = stderr(&o);
    assert!(!o.status.success(), "{args:?} should fail");
    assert!(
        matches!(o.status.code(), Some(1) | Some(2)),
        "{args:?}: exit {:?}",
        o.status.code()
    );
    for n in needles {
        assert!(err.contains(n), "{args:?}: stderr lacks {n:?}:\n{err}");
    }
    assert!(
        !err.contains("panicked") && !err.contains("internal error") && !err.contains("RUST_BACKTRACE"),
        "{err}"
    );
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cwndlab-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn run_preset_prints_per_flow_metrics_as_json() {
    let o = cwndlab(&["run", "--preset", "fall-floyd-reno-3drops", "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let f = &v["flows"][0];
    for key in ["goodput_bps", "retransmits", "timeouts", "fast_retransmits"] {
        assert!(f[key].is_number(), "missing {key}");
    }
    assert_eq!(f["timeouts"], 1);
    assert_eq!(f["fast_retransmits"], 1);
    // Every setting is echoed, so the output says how it was produced.
    assert_eq!(v["scenario"]["flows"][0]["cc"]["recover_guard"], true);
    assert_eq!(v["scenario"]["flows"][0]["rto"]["min"], 1.0);
    // A summary-only run computes the trace digest only when asked.
    assert!(v["digest"].is_null());
    let o = cwndlab(&["run", "--preset", "fall-floyd-reno-3drops", "--digest"]);
    let d: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(d["digest"].as_str().unwrap().len(), 16);
    assert_eq!(d["flows"], v["flows"]);
}

#[test]
fn seed_duration_and_set_change_the_run() {
    // BER 1e-5 loses ~11 % of 1500-byte packets: two seeds cannot lose the same ones.
    let ber = "network.bottleneck.loss.ber=1e-5";
    let run_2s = |extra: &[&str]| {
        let mut args = vec!["run", "--preset", "netsim-newreno", "--duration", "2", "--digest"];
        args.extend_from_slice(extra);
        cwndlab(&args)
    };
    let base = run_2s(&["--set", ber]);
    let other = run_2s(&["--set", ber, "--seed", "7"]);
    let reno = run_2s(&["--set", "flows[0].variant=reno"]);
    let v = |o: &Output| serde_json::from_str::<serde_json::Value>(&stdout(o)).unwrap();
    let (a, b, c) = (v(&base), v(&other), v(&reno));
    assert_eq!(a["duration_s"], 2.0);
    assert_eq!(b["seed"], 7);
    assert_ne!(a["digest"], b["digest"], "another seed, other BER losses");
    assert_eq!(c["flows"][0]["variant"], "reno");
}

#[test]
fn the_summary_reports_queueing_delay_and_rtt_in_ms() {
    // The bufferbloat preset: NewReno fills a 1 000-packet buffer (1.2 s at 10 Mbit/s).
    let o = cwndlab(&["run", "--preset", "cubic-bufferbloat", "--duration", "10"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let f = &v["flows"][0];
    let q = f["qdelay_mean_ms"].as_f64().unwrap();
    assert!(q > 100.0 && f["qdelay_p95_ms"].as_f64().unwrap() > q, "{f}");
    assert!(f["rtt_p95_ms"].as_f64().unwrap() > 40.0 + q, "{f}");
    assert!(f["rtt_mean_ms"].as_f64().unwrap() > 40.0, "{f}");
    // The CSV summary carries the same numbers, to the µs.
    let o = cwndlab(&[
        "run",
        "--preset",
        "cubic-bufferbloat",
        "--duration",
        "10",
        "--format",
        "csv",
    ]);
    let csv = stdout(&o);
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    for name in ["qdelay_mean_ms", "qdelay_p95_ms", "rtt_mean_ms", "rtt_p95_ms"] {
        let k = header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("{name}"));
        assert_eq!(row[k], format!("{:.3}", f[name].as_f64().unwrap()), "{name}");
    }
}

#[test]
fn csv_format_and_out_dir_write_the_trace() {
    let dir = std::env::temp_dir().join(format!("cwndlab-out-{}", std::process::id()));
    let o = cwndlab(&[
        "run",
        "--preset",
        "fall-floyd-newreno-2drops",
        "--format",
        "csv",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = stdout(&o);
    let mut lines = csv.lines();
    assert!(lines
        .next()
        .unwrap()
        .starts_with("flow,algorithm,variant,goodput_bps,throughput_bps"));
    assert!(lines.next().unwrap().starts_with("0,newreno,newreno,"));
    let events = std::fs::read_to_string(dir.join("events.csv")).unwrap();
    assert!(events.starts_with("time_s,flow,kind,seq,len,seg,tx\n"));
    assert!(events.contains(",0,scripted_drop,27000,1000,28,1\n"));
    assert!(events.contains(",0,partial_ack,"));
    let series = std::fs::read_to_string(dir.join("series_flow0.csv")).unwrap();
    assert!(series
        .starts_with("time_s,cwnd_bytes,inflated_bytes,ssthresh_bytes,flight_bytes,srtt_s,rttvar_s,rto_s,phase\n"));
    assert!(series.contains(",fast_recovery\n"));
    for f in ["queue_bottleneck.csv", "summary.json", "scenario.json"] {
        assert!(dir.join(f).exists(), "{f}");
    }
    // The queue's delay column is its bytes drained at the bottleneck's rate, in ms.
    let queue = std::fs::read_to_string(dir.join("queue_bottleneck.csv")).unwrap();
    let mut rows = queue.lines();
    assert_eq!(rows.next(), Some("time_s,packets,bytes,queueing_delay_ms"));
    let scenario: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("scenario.json")).unwrap()).unwrap();
    let rate = scenario["network"]["bottleneck"]["bandwidth"].as_f64().unwrap();
    let mut nonzero = 0;
    for line in rows {
        let c: Vec<f64> = line.split(',').map(|x| x.parse().unwrap()).collect();
        assert!((c[3] - c[2] * 8e3 / rate).abs() < 1e-9, "{line}");
        nonzero += usize::from(c[3] > 0.0);
    }
    assert!(nonzero > 10);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn out_writes_the_throughput_table_and_each_class_queue() {
    let dir = std::env::temp_dir().join(format!("cwndlab-classes-{}", std::process::id()));
    let o = cwndlab(&[
        "run",
        "--preset",
        "br-tcp-komuro",
        "--set",
        "duration=3",
        "--set",
        "trace.throughput_bin=1",
        "--format",
        "json",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    // 100 Mbit/s of 1500-byte UDP packets for 3 s: 25 000 sent; the best-effort class
    // carries 60 Mbit/s of it.
    assert_eq!(summary["cross"][0]["sent_packets"], 25_000);
    let tput = std::fs::read_to_string(dir.join("throughput.csv")).unwrap();
    let mut lines = tput.lines();
    assert_eq!(lines.next(), Some("bin_start_s,class,bottleneck_bytes,delivered_bytes"));
    // One-second bins: the UDP source crosses at exactly 60 Mbit/s = 7.5 MB per second,
    // give or take the packet in service at a bin edge.
    let cross: Vec<u64> = tput
        .lines()
        .filter(|l| l.contains(",cross 0,"))
        .map(|l| l.split(',').nth(2).unwrap().parse().unwrap())
        .collect();
    assert_eq!(cross.len(), 3);
    assert!(cross[1].abs_diff(7_500_000) <= 1500, "{cross:?}");
    assert!(tput.contains(",flow 0,"));
    for f in [
        "queue_bottleneck.csv",
        "queue_bottleneck_best_effort.csv",
        "queue_bottleneck_flow_0_reserved.csv",
    ] {
        assert!(dir.join(f).exists(), "{f}");
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn presets_schema_and_validate() {
    let o = cwndlab(&["presets"]);
    assert_eq!(stdout(&o).lines().count(), cwndlab_core::presets::all().len());
    assert!(stdout(&o).contains("fall-floyd-newreno-4drops"));
    // The course path: one stop a line, in order, with its id and preset.
    let o = cwndlab(&["presets", "--course"]);
    let course = &cwndlab_core::presets::course::COURSE;
    let lines: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), course.len());
    for (line, s) in lines.iter().zip(course.iter()) {
        assert!(
            line.contains(s.id) && line.contains(s.preset) && line.contains(s.title),
            "{line}"
        );
    }
    assert!(lines[0].starts_with(" 1. slow-start"), "{}", lines[0]);
    let schema: serde_json::Value = serde_json::from_str(&stdout(&cwndlab(&["schema"]))).unwrap();
    let p = schema["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["path"] == "network.bottleneck.bandwidth")
        .unwrap();
    assert_eq!((p["unit"].as_str(), p["min"].as_u64()), (Some("bit/s"), Some(1000)));
    let good = temp_file("good.json", r#"{"flows": [{"variant": "tahoe"}, {"variant": "reno"}]}"#);
    let o = cwndlab(&["validate", good.to_str().unwrap()]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("valid (2 flows, 20 s)"), "{}", stdout(&o));
}

#[test]
fn bad_input_gets_a_specific_message() {
    const P: &str = "netsim-reno";
    let cases: &[(&[&str], &[&str])] = &[
        (&["run", "--preset", "nope"], &["unknown preset `nope`", "netsim-reno"]),
        (&["run"], &["required arguments were not provided", "<FILE.json>"]),
        (
            &["run", "--preset", P, "--set", "network.bottlenek.delay=1"],
            &["network.bottlenek.delay", "unknown parameter"],
        ),
        (
            &["run", "--preset", P, "--set", "network.bottleneck.delay=99"],
            &["network.bottleneck.delay = 99 s is out of range; allowed 0 to 10 s"],
        ),
        (
            &["run", "--preset", P, "--set", "flows[0].variant=vegas"],
            &["not one of: old_tahoe, tahoe, reno, newreno"],
        ),
        (&["run", "--preset", P, "--set", "duration"], &["expected PATH=VALUE"]),
        (&["run", "--preset", P, "--seed", "-3"], &["-3"]),
        (
            &["run", "--preset", P, "--duration", "0"],
            &[
                "--duration: 1 problem",
                "duration = 0 s is out of range; allowed 0.001 to 100000 s",
            ],
        ),
        (
            &["run", "--preset", P, "--format", "xml"],
            &["invalid value 'xml' for '--format <FORMAT>'", "json, csv"],
        ),
        (&["run", "--preset", P, "--bogus"], &["unexpected argument '--bogus'"]),
        (&["run", "--preset", P, "netsim.json"], &["cannot be used with"]),
        (&["schema", "--yaml"], &["unexpected argument '--yaml'"]),
        (&["frobnicate"], &["unrecognized subcommand 'frobnicate'"]),
        (&["run", "/no/such/file.json"], &["cannot read /no/such/file.json"]),
    ];
    for (args, needles) in cases {
        fails_with(args, needles);
    }
    let broken = temp_file("broken.json", "{\"seed\": 1,,}");
    fails_with(&["run", broken.to_str().unwrap()], &["is not valid JSON", "line 1"]);
    fails_with(&["validate", broken.to_str().unwrap()], &["is not valid JSON"]);
}

#[test]
fn validate_lists_every_problem_at_once() {
    let bad = temp_file(
        "bad.json",
        r#"{"duration": 0, "network": {"bottleneck": {"bandwidth": 5, "loss": {"ber": 0.5}}},
            "flows": [{"tcp": {"mss": 100000, "rwnd": 10}, "app": {"kind": "scripted"}}]}"#,
    );
    let o = cwndlab(&["validate", bad.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1));
    for n in [
        "4 problems",
        "duration = 0 s is out of range; allowed 0.001 to 100000 s",
        "network.bottleneck.bandwidth = 5 bit/s is out of range; allowed 1000 to 100000000000 bit/s",
        "network.bottleneck.loss.ber = 0.5 1/bit is out of range; allowed 0 to 0.01 1/bit",
        "flows[0].tcp.mss = 100000 B is out of range; allowed 1 to 65495 B",
    ] {
        assert!(err.contains(n), "missing {n:?} in\n{err}");
    }
    // Cross-field rules are checked once every value is in range.
    let bad2 = temp_file(
        "bad2.json",
        r#"{"flows": [{"tcp": {"rwnd": 10}, "app": {"kind": "scripted"}, "start": 30}]}"#,
    );
    let err = stderr(&cwndlab(&["validate", bad2.to_str().unwrap()]));
    for n in [
        "flows[0].tcp.rwnd",
        "smaller than the MSS",
        "flows[0].start",
        "flows[0].app.writes",
    ] {
        assert!(err.contains(n), "missing {n:?} in\n{err}");
    }
}

#[test]
fn algorithms_are_listed_and_expand_into_their_settings() {
    let o = cwndlab(&["algorithms"]);
    assert!(o.status.success());
    for name in [
        "old_tahoe",
        "newreno",
        "newreno_restart",
        "newreno_cwv",
        "newreno_newcwv",
    ] {
        assert!(stdout(&o).contains(name), "{name}");
    }
    // Every setting's value is shown, numbers and booleans too (a sender profile's).
    assert!(
        stdout(&o).contains("tcp.initial_window=10, tcp.nagle=false, rto.min=0.2, rto.initial=1,"),
        "{}",
        stdout(&o)
    );
    let list: serde_json::Value = serde_json::from_str(&stdout(&cwndlab(&["algorithms", "--json"]))).unwrap();
    let cwv = list
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "newreno_cwv")
        .unwrap();
    assert_eq!(cwv["settings"]["cc.idle_policy"], "rfc2861");
    // The echo of a run shows the expanded settings, and a later explicit key overrides them.
    let o = cwndlab(&[
        "run",
        "--preset",
        "cwv-quiescent-100ms",
        "--set",
        "flows[0].algorithm=newreno_cwv",
        "--set",
        "flows[0].cc.full_window_slack=none",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let f = &v["scenario"]["flows"][0];
    assert_eq!(
        (
            &f["algorithm"],
            &f["cc"]["idle_policy"],
            &f["cc"]["growth_gate"],
            &f["cc"]["full_window_slack"]
        ),
        (
            &serde_json::json!("newreno_cwv"),
            &serde_json::json!("rfc2861"),
            &serde_json::json!("window_full"),
            &serde_json::json!("none")
        )
    );
    assert_eq!(v["flows"][0]["window_decays"], 1);
    let o = cwndlab(&["algorithms", "--yaml"]);
    assert_eq!(o.status.code(), Some(2), "bad usage");
}

#[test]
fn window_validation_settings_are_checked_by_name() {
    let o = cwndlab(&[
        "run",
        "--preset",
        "cwv-classroom-onoff",
        "--set",
        "flows[0].cc.idle_policy=sometimes",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("flows[0].cc.idle_policy = \"sometimes\" is not one of: none, restart, rfc2861, rfc7661"),
        "{}",
        stderr(&o)
    );
    // BBR sets cwnd itself: window rules that would also set it are named and refused.
    let o = cwndlab(&[
        "run",
        "--preset",
        "cubic-bufferbloat",
        "--set",
        "flows[0].cc.controller=bbr",
        "--set",
        "flows[0].variant=reno",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("flows[0].cc.controller = \"bbr\" needs variant = \"newreno\""),
        "{}",
        stderr(&o)
    );
    let o = cwndlab(&[
        "run",
        "--preset",
        "cwv-classroom-onoff",
        "--set",
        "flows[0].algorithm=vegas",
    ]);
    assert_eq!(o.status.code(), Some(1));
    // Every catalogue entry, in catalogue order, then custom.
    let mut names: Vec<&str> = cwndlab_core::catalogue::CATALOGUE.iter().map(|a| a.name).collect();
    names.push("custom");
    assert!(
        stderr(&o).contains(&format!("is not one of: {}", names.join(", "))),
        "{}",
        stderr(&o)
    );
    let o = cwndlab(&[
        "run",
        "--preset",
        "cwv-classroom-onoff",
        "--set",
        "flows[0].algorithm=newreno_newcwv",
        "--set",
        "flows[0].cc.growth_gate=window_full",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o)
            .contains("flows[0].cc.growth_gate = \"window_full\" cannot be combined with cc.idle_policy = \"rfc7661\""),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_validation_series_is_written_for_flows_that_keep_one() {
    let dir = std::env::temp_dir().join(format!("cwndlab-cli-cwv-{}", std::process::id()));
    let o = cwndlab(&[
        "run",
        "--preset",
        "cwv-quiescent-100ms-fine",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = std::fs::read_to_string(dir.join("validation_flow0.csv")).unwrap();
    assert!(v.starts_with("time_s,t_last_s,t_prev_s,w_used_bytes,pipeack_bytes,nvp\n"));
    let events = std::fs::read_to_string(dir.join("events.csv")).unwrap();
    assert!(events.contains("2.4,0,idle_decay,2657,100,2500,2500\n"), "{events}");
    std::fs::remove_dir_all(&dir).ok();
    let o = cwndlab(&[
        "run",
        "--preset",
        "netsim-reno",
        "--duration",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert!(!dir.join("validation_flow0.csv").exists(), "no idle policy, no series");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_recovery_series_is_written_for_sack_flows_only() {
    let dir = std::env::temp_dir().join(format!("cwndlab-cli-sack-{}", std::process::id()));
    let o = cwndlab(&[
        "run",
        "--preset",
        "fall-floyd-newreno-3drops",
        "--set",
        "flows[].sack.enabled=true",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = std::fs::read_to_string(dir.join("recovery_flow0.csv")).unwrap();
    let mut lines = v.lines();
    assert_eq!(
        lines.next(),
        Some("time_s,pipe_bytes,sacked_bytes,lost_bytes,in_recovery,recovery_point,prr_delivered,prr_out,reo_wnd_s,timer_at_s,timer_kind,probe_out")
    );
    // Some row is in recovery with a RecoveryPoint; rows outside recovery leave it empty.
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert!(rows.iter().any(|r| r[4] == "1" && !r[5].is_empty()), "{v}");
    assert!(rows.iter().all(|r| (r[4] == "1") != r[5].is_empty()), "{v}");
    std::fs::remove_dir_all(&dir).ok();
    let o = cwndlab(&[
        "run",
        "--preset",
        "fall-floyd-newreno-3drops",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert!(!dir.join("recovery_flow0.csv").exists(), "no SACK, no series");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn help_version_and_exit_codes() {
    for args in [
        &["--help"][..],
        &["-h"],
        &["run", "--help"],
        &["sweep", "--help"],
        &["help", "run"],
    ] {
        let o = cwndlab(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        assert!(stdout(&o).contains("Usage: cwndlab"), "{args:?}: {}", stdout(&o));
    }
    assert!(stdout(&cwndlab(&["--help"])).contains("Exit codes: 0 success"));
    assert!(stdout(&cwndlab(&["sweep", "--help"])).contains("--shard <I/N>"));
    let o = cwndlab(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o).trim(), format!("cwndlab {}", env!("CARGO_PKG_VERSION")));
    // 2: bad usage; 1: an invalid scenario; 0: success.
    assert_eq!(cwndlab(&["run", "--preset"]).status.code(), Some(2));
    assert_eq!(
        cwndlab(&["run", "--preset", "netsim-reno", "--set", "seed=-1"])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(cwndlab(&["presets"]).status.code(), Some(0));
}

#[test]
fn an_internal_error_exits_3_without_a_backtrace() {
    // A hidden test hook makes the binary panic, as a bug would.
    let o = Command::new(env!("CARGO_BIN_EXE_cwndlab"))
        .args(["presets"])
        .env("CWNDLAB_TEST_PANIC", "1")
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3));
    let err = stderr(&o);
    assert!(
        err.contains("internal error") && err.contains("Please report it"),
        "{err}"
    );
    assert!(
        !err.contains("stack backtrace") && !err.contains("RUST_BACKTRACE"),
        "{err}"
    );
}

#[test]
fn a_summary_only_run_and_a_streamed_run_agree_with_each_other() {
    let dir = std::env::temp_dir().join(format!("cwndlab-cli-stream-{}", std::process::id()));
    let args = ["run", "--preset", "netsim-newreno", "--duration", "30"];
    let mut digest = args.to_vec();
    digest.push("--digest");
    let lean: serde_json::Value = serde_json::from_str(&stdout(&cwndlab(&digest))).unwrap();
    let mut with_out = args.to_vec();
    with_out.extend(["--out", dir.to_str().unwrap()]);
    let o = cwndlab(&with_out);
    assert!(o.status.success(), "{}", stderr(&o));
    let full: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(lean, full, "same summary and digest with and without the trace");
    let events = std::fs::read_to_string(dir.join("events.csv")).unwrap();
    // Every packet the run sent is in the streamed log (sends + retransmissions + ACKs).
    let sends = events
        .lines()
        .filter(|l| l.contains(",data_send,") || l.contains(",retransmit,"))
        .count();
    assert_eq!(sends as u64, full["flows"][0]["data_packets_sent"].as_u64().unwrap());
    std::fs::remove_dir_all(&dir).ok();
    // Without --digest, the same summary and no digest; --no-digest (the former option)
    // is still accepted and means the same.
    let bare: serde_json::Value = serde_json::from_str(&stdout(&cwndlab(&args))).unwrap();
    assert!(bare["digest"].is_null());
    assert_eq!(bare["flows"], lean["flows"]);
    let mut old = args.to_vec();
    old.push("--no-digest");
    assert_eq!(stdout(&cwndlab(&old)), stdout(&cwndlab(&args)));
    let mut both = digest.clone();
    both.push("--no-digest");
    let o = cwndlab(&both);
    assert_eq!(o.status.code(), Some(2), "--digest and --no-digest conflict");
    assert!(stderr(&o).contains("--digest"), "{}", stderr(&o));
}

const SWEEP: &[&str] = &[
    "sweep",
    "--preset",
    "netsim-newreno",
    "--duration",
    "4",
    "--param",
    "network.bottleneck.loss.ber",
    "--values",
    "1e-7,1e-6",
    "--algorithms",
    "reno,newreno",
    "--seeds",
    "3",
    "--metrics",
    "goodput_bps,retransmits,timeouts",
];

fn sweep(extra: &[&str]) -> Output {
    let mut args = SWEEP.to_vec();
    args.extend_from_slice(extra);
    cwndlab(&args)
}

#[test]
fn a_sweep_prints_a_row_per_run_and_per_point_whatever_the_jobs() {
    let o = sweep(&["--jobs", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = stdout(&o);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "kind,run,network.bottleneck.loss.ber,algorithm,seed,flow,n,goodput_bps,goodput_bps_std,goodput_bps_min,goodput_bps_max,retransmits,retransmits_std,retransmits_min,retransmits_max,timeouts,timeouts_std,timeouts_min,timeouts_max"
    );
    // 2 values × 2 algorithms × 3 seeds = 12 runs, then 4 points.
    assert_eq!(lines.iter().filter(|l| l.starts_with("run,")).count(), 12);
    assert_eq!(lines.iter().filter(|l| l.starts_with("point,")).count(), 4);
    assert!(lines[1].starts_with("run,0,1e-7,reno,1,0,1,"), "{}", lines[1]);
    assert!(lines[13].starts_with("point,,1e-7,reno,,0,3,"), "{}", lines[13]);
    // Each run equals the same scenario run alone.
    let one: serde_json::Value = serde_json::from_str(&stdout(&cwndlab(&[
        "run",
        "--preset",
        "netsim-newreno",
        "--duration",
        "4",
        "--set",
        "network.bottleneck.loss.ber=1e-6",
        "--set",
        "flows[].algorithm=newreno",
        "--seed",
        "2",
    ])))
    .unwrap();
    let row: Vec<&str> = lines[11].split(',').collect();
    assert_eq!(&row[..6], &["run", "10", "1e-6", "newreno", "2", "0"]);
    assert_eq!(
        row[7].parse::<f64>().unwrap(),
        one["flows"][0]["goodput_bps"].as_f64().unwrap()
    );
    // The mean of a point is the mean of its runs.
    let gp: Vec<f64> = lines[1..4]
        .iter()
        .map(|l| l.split(',').nth(7).unwrap().parse().unwrap())
        .collect();
    let point: Vec<&str> = lines[13].split(',').collect();
    assert_eq!(point[7].parse::<f64>().unwrap(), gp.iter().sum::<f64>() / 3.0);
    // Byte-identical with one worker, and as JSON the same numbers.
    assert_eq!(stdout(&sweep(&["--jobs", "1"])), csv);
    let json: serde_json::Value = serde_json::from_str(&stdout(&sweep(&["--format", "json"]))).unwrap();
    assert_eq!(json["runs"].as_array().unwrap().len(), 12);
    assert_eq!(json["points"][0]["n"], 3);
    assert_eq!(json["sweep"]["runs_total"], 12);
}

#[test]
fn shards_merge_into_exactly_the_unsharded_output() {
    let dir = std::env::temp_dir().join(format!("cwndlab-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let whole_csv = stdout(&sweep(&[]));
    let whole_json = stdout(&sweep(&["--format", "json"]));
    let mut files = vec![];
    for i in 1..=5 {
        let f = dir.join(format!("s{i}.json"));
        let o = sweep(&[
            "--shard",
            &format!("{i}/5"),
            "--out",
            f.to_str().unwrap(),
            "--jobs",
            "1",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        files.push(f.to_str().unwrap().to_string());
    }
    files.reverse();
    let mut merge = vec!["sweep-merge"];
    merge.extend(files.iter().map(String::as_str));
    assert_eq!(stdout(&cwndlab(&merge)), whole_csv);
    let mut merge_json = merge.clone();
    merge_json.extend(["--format", "json"]);
    assert_eq!(stdout(&cwndlab(&merge_json)), whole_json);
    // A missing or repeated shard is refused.
    let o = cwndlab(&["sweep-merge", &files[0], &files[1]]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("missing shards: 1/5, 2/5, 3/5"), "{}", stderr(&o));
    let o = cwndlab(&["sweep-merge", &files[0], &files[0]]);
    assert!(stderr(&o).contains("given twice"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_bad_sweep_is_refused_before_any_run() {
    let cases: &[(&[&str], &str, i32)] = &[
        (
            &["--param", "network.bottleneck.los", "--values", "1"],
            "network.bottleneck.los: unknown parameter",
            1,
        ),
        (
            &["--param", "network.bottleneck.loss.ber", "--values", "1e-7,5"],
            "network.bottleneck.loss.ber = 5 1/bit is out of range",
            1,
        ),
        (
            &["--param", "seed", "--values", "1", "--algorithms", "vegas"],
            "\"vegas\" is not one of",
            1,
        ),
        (
            &["--param", "seed", "--range", "1:5"],
            "--range 1:5: wrong number of fields",
            2,
        ),
        (
            &["--param", "seed", "--values", "1", "--metrics", "speed"],
            "unknown metric `speed`",
            2,
        ),
        (
            &["--param", "seed", "--values", "1", "--shard", "4/3"],
            "--shard 4/3",
            2,
        ),
        (
            &["--param", "seed", "--values", "1", "--shard", "1/2", "--format", "csv"],
            "a shard is written as JSON",
            2,
        ),
        (
            &["--param", "seed", "--range", "1:2000000:2000000"],
            "at most 1000000 per sweep",
            2,
        ),
        (&["--param", "seed"], "required arguments were not provided", 2),
    ];
    for (extra, needle, code) in cases {
        let mut args = vec!["sweep", "--preset", "netsim-newreno", "--duration", "1"];
        args.extend_from_slice(extra);
        let o = cwndlab(&args);
        assert_eq!(o.status.code(), Some(*code), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "nothing is printed");
    }
}

#[test]
fn the_gnu_parallel_recipe_reproduces_the_sweep() {
    // docs/cli.md: one shard per job through GNU parallel, then sweep-merge.
    let ok = Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "GNU parallel is needed for this test: apt-get install parallel (npm test installs it)"
    );
    let dir = std::env::temp_dir().join(format!("cwndlab-parallel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = env!("CARGO_BIN_EXE_cwndlab");
    let args = SWEEP[1..].join(" ");
    let o = Command::new("parallel")
        .current_dir(&dir)
        .args(["--will-cite", "--halt", "now,fail=1", "-j", "3"])
        .arg(format!(
            "{bin} sweep {args} --quiet --shard {{}}/3 --out shard{{}}.json"
        ))
        .args([":::", "1", "2", "3"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let merged = Command::new(bin)
        .current_dir(&dir)
        .args(["sweep-merge", "shard1.json", "shard2.json", "shard3.json"])
        .output()
        .unwrap();
    assert!(merged.status.success(), "{}", stderr(&merged));
    assert_eq!(stdout(&merged), stdout(&sweep(&[])));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_reader_that_stops_early_is_not_an_internal_error() {
    // `cwndlab run … | head`: the pipe closes before the output is written.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_cwndlab"))
        .args(["run", "--preset", "jacobson-four-new"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&o.stderr).contains("internal error"));
}

#[test]
fn explain_prints_each_decision_with_its_arithmetic_and_source() {
    let o = cwndlab(&[
        "explain",
        "--preset",
        "fall-floyd-reno-3drops",
        "--kind",
        "loss",
        "--kind",
        "timeout",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(
        &"2.069200 s  flow 0  ssthresh = max(min(cwnd, rwnd)/2, 2·SMSS) = max(15 000/2, 2 000) = 7 000 B (4.3BSD-Reno tcp_input / ns-2 (window_/2))"
    ), "{out}");
    assert!(
        lines.iter().any(
            |l| l.starts_with("2.069200 s  flow 0  3rd duplicate ACK for segment 14: fast retransmit.")
                && l.contains("window in force = ssthresh + 3·SMSS = 10 000 B")
        ),
        "{out}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("3.281080 s  flow 0  Retransmission timer expired")
                && l.contains("resend segment 26")),
        "{out}"
    );
    // Only the kinds asked for.
    assert!(!out.contains("Slow start") && !out.contains("RTT sample"), "{out}");
}

#[test]
fn explain_json_lines_filter_by_time_flow_and_rule() {
    let o = cwndlab(&[
        "explain",
        "--preset",
        "fall-floyd-newreno-3drops",
        "--format",
        "json",
        "--from",
        "2.2",
        "--to",
        "3",
        "--flow",
        "0",
        "--rule",
        "recovery.partial_ack_reset",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 2, "two partial ACKs between 2.2 and 3 s");
    for r in &rows {
        assert_eq!(r["rule"], "recovery.partial_ack_reset");
        let t = r["t"].as_f64().unwrap();
        assert!((2.2..=3.0).contains(&t));
        assert_eq!(r["flow"], 0);
        assert!(r["source"].as_str().unwrap().contains("ns-2"));
        assert!(r["inputs"].as_array().unwrap().iter().any(|i| i["name"] == "segment"));
        assert_eq!(r["outputs"][0]["name"], "window");
        assert!(r["text"].as_str().unwrap().starts_with("Partial ACK"));
    }
    let seg = |r: &serde_json::Value| {
        r["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["name"] == "segment")
            .unwrap()["value"]
            .clone()
    };
    assert_eq!(
        (seg(&rows[0]), seg(&rows[1])),
        (serde_json::json!(26), serde_json::json!(28))
    );
}

#[test]
fn explain_against_prints_the_first_divergence() {
    let o = cwndlab(&["explain", "--preset", "fall-floyd-reno-3drops", "--against", "newreno"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("reno and newreno first differ at 2.281080 s, after "),
        "{out}"
    );
    assert!(
        out.contains("Reno leaves it at once") && out.contains("Partial ACK 25 000"),
        "{out}"
    );
    let o = cwndlab(&[
        "explain",
        "--preset",
        "fall-floyd-reno-3drops",
        "--against",
        "newreno",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["a"], "reno");
    assert_eq!(v["divergence"]["a"][0]["rule"], "recovery.reno_exit");
    assert_eq!(v["divergence"]["b"][0]["rule"], "recovery.partial_ack_reset");
    // The same algorithm never diverges.
    let o = cwndlab(&["explain", "--preset", "fall-floyd-reno-3drops", "--against", "reno"]);
    assert_eq!(
        stdout(&o).trim(),
        "reno and reno make the same decisions for the whole run"
    );
}

#[test]
fn explain_rejects_bad_filters_naming_the_option_and_the_allowed_values() {
    let p = ["explain", "--preset", "fall-floyd-reno-3drops"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> { p.iter().chain(extra).copied().collect() };
    fails_with(
        &with(&["--kind", "slowstart"]),
        &[
            "--kind slowstart",
            "increase, gate, loss, recovery, timeout, rtt, idle, send, ack",
        ],
    );
    fails_with(&with(&["--flow", "2"]), &["--flow 2", "1 flow", "takes 0"]);
    fails_with(&with(&["--from", "5", "--to", "2"]), &["time range is empty", "--from"]);
    fails_with(
        &with(&["--from", "50"]),
        &["--from 50", "time range is empty", "lasts 10 s"],
    );
    fails_with(&with(&["--from", "-1"]), &["--from -1", "0 or more"]);
    fails_with(&with(&["--rule", "loss.nope"]), &["--rule loss.nope", "cwndlab rules"]);
    fails_with(&with(&["--against", "cubic9"]), &["--against cubic9", "newreno"]);
    fails_with(&["explain"], &["FILE.json"]);
}

#[test]
fn rules_lists_every_rule_by_kind() {
    let o = cwndlab(&["rules"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for id in [
        "loss.fast_retransmit",
        "recovery.partial_ack_deflate",
        "rtt.karn",
        "ack.delay",
        "idle.rfc7661_nvp_enter",
    ] {
        assert!(out.contains(id), "{id}");
    }
    let o = cwndlab(&["rules", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["rules"].as_array().unwrap().len() >= 40);
    assert!(v["glossary"].as_array().unwrap().iter().any(|g| g["term"] == "pipeack"));
}

#[test]
fn exercise_prints_a_sheet_and_its_answer_key_and_names_bad_options() {
    let o = cwndlab(&[
        "exercise",
        "--preset",
        "textbook-reno",
        "--sheet",
        "4",
        "--questions",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = stdout(&o);
    assert!(md.starts_with("# Exercise sheet: textbook-reno"), "{md}");
    assert!(
        md.contains("regenerate it with `cwndlab exercise --preset textbook-reno --sheet 4 --questions 5`"),
        "{md}"
    );
    let (questions, key) = md.split_once("## Answer key").expect("an answer key");
    assert_eq!(questions.matches("Answer: ___").count(), 5);
    assert!(key.contains("*Rule:*"));
    // The same sheet again, and as JSON with the same questions.
    assert_eq!(
        stdout(&cwndlab(&[
            "exercise",
            "--preset",
            "textbook-reno",
            "--sheet",
            "4",
            "--questions",
            "5"
        ])),
        md
    );
    let j = cwndlab(&[
        "exercise",
        "--preset",
        "textbook-reno",
        "--sheet",
        "4",
        "--questions",
        "5",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&j)).unwrap();
    let qs = v["questions"].as_array().unwrap();
    assert_eq!(qs.len(), 5);
    for q in qs {
        assert!(md.contains(q["text"].as_str().unwrap()));
        assert!(q["answer"].is_string() && q["rules"].is_array());
    }
    // A lesson that compares algorithms gets the comparison question when asked for.
    let c = cwndlab(&[
        "exercise",
        "--preset",
        "fall-floyd-reno-3drops",
        "--compare",
        "reno,newreno",
        "--questions",
        "20",
        "--format",
        "json",
    ]);
    assert!(stdout(&c).contains("\"kind\": \"compare\""), "{}", stderr(&c));
    fails_with(
        &["exercise", "--preset", "textbook-reno", "--questions", "0"],
        &["--questions 0", "1 to 20"],
    );
    fails_with(
        &["exercise", "--preset", "textbook-reno", "--compare", "reno,warp"],
        &["--compare warp", "unknown algorithm"],
    );
    fails_with(
        &["exercise", "--preset", "textbook-reno", "--duration", "0.05"],
        &["nothing to ask about"],
    );
}

#[test]
fn textbook_prints_the_round_model_in_a_convention_and_names_bad_options() {
    // Kurose & Ross's figure: a triple duplicate ACK after round 16 (cwnd 42), a timeout
    // after round 22 (cwnd 29).
    let o = cwndlab(&[
        "textbook",
        "--loss",
        "16:triple-dup",
        "--loss",
        "22:timeout",
        "--segment",
        "70",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let cw: Vec<u64> = v["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["cwnd"].as_u64().unwrap())
        .collect();
    assert_eq!(&cw[14..18], &[41, 42, 24, 25]);
    assert_eq!(&cw[21..26], &[29, 1, 2, 4, 8]);
    assert_eq!(v["rounds"][16]["rule"], "textbook.triple_dup_kr");
    assert_eq!(v["segment"]["round"], 7);
    // RFC 5681 read per round deflates to ssthresh.
    let o = cwndlab(&["textbook", "--convention", "rfc5681", "--loss", "16:triple-dup"]);
    assert!(
        stdout(&o).contains("   17    21        21  congestion_avoidance"),
        "{}",
        stdout(&o)
    );
    // The per-packet run's losses replayed.
    let o = cwndlab(&["textbook", "--losses-from", "textbook-reno", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        v["model"]["losses"],
        serde_json::json!([{"round": 17, "kind": "triple-dup"}, {"round": 25, "kind": "timeout"}])
    );
    // A sheet.
    let o = cwndlab(&[
        "textbook",
        "--loss",
        "16:triple-dup",
        "--sheet",
        "2",
        "--questions",
        "4",
    ]);
    assert!(stdout(&o).contains("## Answer key"));
    // Bad values exit 2, naming the option and what is allowed.
    let o = cwndlab(&["textbook", "--loss", "40:timeout"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--loss 40:timeout: expected ROUND:KIND with ROUND from 1 to 26"),
        "{}",
        stderr(&o)
    );
    let o = cwndlab(&["textbook", "--initial-ssthresh", "zero"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("allowed 1 to 1000000 segments, or none"));
    let o = cwndlab(&["textbook", "--loss", "3:timeout", "--loss", "3:triple-dup"]);
    assert!(stderr(&o).contains("round 3 already ends with a loss"));
}
