//! The `cwndlab` command line as a user runs it: outputs, files, and every class of bad
//! input (a clear message naming the problem, a non-zero exit, never a panic).

use std::process::{Command, Output};

fn cwndlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cwndlab"))
        .args(args)
        .output()
        .expect("run cwndlab")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

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
    assert_eq!(v["digest"].as_str().unwrap().len(), 16);
}

#[test]
fn seed_duration_and_set_change_the_run() {
    // BER 1e-5 loses ~11 % of 1500-byte packets: two seeds cannot lose the same ones.
    let ber = "network.bottleneck.loss.ber=1e-5";
    let run_2s = |extra: &[&str]| {
        let mut args = vec!["run", "--preset", "netsim-newreno", "--duration", "2"];
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
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn presets_schema_and_validate() {
    let o = cwndlab(&["presets"]);
    assert_eq!(stdout(&o).lines().count(), 31);
    assert!(stdout(&o).contains("fall-floyd-newreno-4drops"));
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
        (&["run"], &["needs a scenario FILE.json or --preset NAME"]),
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
        (&["run", "--preset", P, "--seed", "-3"], &["--seed -3"]),
        (
            &["run", "--preset", P, "--duration", "0"],
            &["duration = 0 s is out of range; allowed 0.001 to 100000 s"],
        ),
        (&["run", "--preset", P, "--format", "xml"], &["expected json or csv"]),
        (&["run", "--preset", P, "--bogus"], &["unknown option `--bogus`"]),
        (&["schema", "--yaml"], &["unknown option `--yaml`"]),
        (&["frobnicate"], &["unknown command `frobnicate`"]),
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
    assert_eq!(o.status.code(), Some(2));
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
    let o = cwndlab(&[
        "run",
        "--preset",
        "cwv-classroom-onoff",
        "--set",
        "flows[0].algorithm=cubic",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("newreno_newcwv, custom"), "{}", stderr(&o));
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
