//! `cwndlab sweep` and the sweep API of `cwndlab_core` (which the page's wasm build calls)
//! give the same bytes: the plan, the runs and the output are defined once, in the core.

use cwndlab_core::scenario::resolve;
use cwndlab_core::sweep::{Definition, Format, Plan, Row};
use std::process::Command;

fn cwndlab(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_cwndlab"))
        .args(args)
        .output()
        .expect("run cwndlab");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).expect("utf-8")
}

#[test]
fn the_core_api_gives_the_clis_rows_and_output() {
    let dir = std::env::temp_dir().join(format!("cwndlab-sweep-core-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("base.json");
    let preset = cwndlab_core::presets::find("netsim-newreno").unwrap();
    let mut doc = preset.overrides.clone();
    doc["duration"] = serde_json::json!(2);
    std::fs::write(&file, doc.to_string()).unwrap();
    let path = file.to_str().unwrap();
    let args = [
        "sweep",
        path,
        "--param",
        "network.bottleneck.loss.ber",
        "--range",
        "1e-6:1e-4:3:log",
        "--algorithms",
        "reno,cubic",
        "--seeds",
        "2",
        "--metrics",
        "goodput_bps,retransmits,timeouts,completion_time_s",
        "--quiet",
    ];
    let csv = cwndlab(&args);
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let json = cwndlab(&json_args);

    let def = Definition {
        param: "network.bottleneck.loss.ber".into(),
        range: Some("1e-6:1e-4:3:log".into()),
        algorithms: vec!["reno".into(), "cubic".into()],
        seeds: Some(2),
        metrics: ["goodput_bps", "retransmits", "timeouts", "completion_time_s"]
            .map(String::from)
            .to_vec(),
        ..Definition::default()
    };
    let base = resolve(&doc).unwrap();
    let plan = Plan::new(&def, path, &base, "--").unwrap();
    assert_eq!(plan.runs_total(), 12);
    // Each run alone, in reverse order, through exact text (as the page's workers hand them).
    let mut rows: Vec<Row> = Vec::new();
    for r in plan.runs().iter().rev() {
        for row in plan.run_rows(&base, r).unwrap() {
            rows.push(plan.row_from_json(&plan.row_json(&row, true)).unwrap());
        }
    }
    rows.sort_by_key(|r| (r.run, r.flow));
    assert_eq!(plan.render(&rows, 12, Format::Csv), csv.trim_end());
    assert_eq!(plan.render(&rows, 12, Format::Json), json.trim_end());
    // The CLI's JSON rows are the core's rows.
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let cli_rows: Vec<serde_json::Value> = v["runs"].as_array().unwrap().clone();
    let core_rows: Vec<serde_json::Value> = rows.iter().map(|r| plan.row_json(r, false)).collect();
    assert_eq!(cli_rows, core_rows);
    std::fs::remove_dir_all(&dir).ok();
}
