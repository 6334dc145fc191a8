//! `cwndlab`: run, validate and inspect cwndlab scenarios from the command line.

use cwndlab_core::catalogue;
use cwndlab_core::presets;
use cwndlab_core::scenario::{parse_set_value, resolve, set_path, Problem, Scenario};
use cwndlab_core::schema;
use cwndlab_core::sim::Simulation;
use cwndlab_core::tcp::cc::Phase;
use cwndlab_core::time::ns_to_secs;
use cwndlab_core::trace::EventKind;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "\
cwndlab — a deterministic TCP congestion-control simulator

USAGE:
  cwndlab run (FILE.json | --preset NAME) [--seed N] [--duration SECONDS]
              [--set PATH=VALUE]... [--format json|csv] [--out DIR]
  cwndlab validate FILE.json
  cwndlab presets
  cwndlab algorithms [--json]
  cwndlab schema [--markdown]
  cwndlab help

run       Simulates the scenario and prints a summary (JSON by default; CSV gives one row
          per flow). --out DIR also writes the time series, the event log and the queue
          occupancy as CSV files, plus summary.json and scenario.json (every setting).
          --set changes one parameter, e.g. --set flows[0].variant=reno
          --set network.bottleneck.loss.ber=1e-6 (flows[].x changes every flow).
validate  Checks a scenario file and lists every problem at once.
presets   Lists the built-in scenarios.
algorithms
          Lists the named algorithms (flows[].algorithm, e.g. --set flows[0].algorithm=newreno_cwv):
          each a variant plus axis values; --json prints their settings too.
schema    Prints every parameter with its unit, default and allowed range (JSON, or a
          Markdown table with --markdown).
";

/// Packets above which `run` warns about time and memory.
const LARGE_RUN: u64 = 50_000_000;

/// A user-facing failure: message and exit code.
struct Fail(String, u8);

fn usage_error(msg: impl Into<String>) -> Fail {
    Fail(format!("{}\n\nRun `cwndlab help` for usage.", msg.into()), 2)
}

fn problems_error(context: &str, problems: &[Problem]) -> Fail {
    let mut s = format!(
        "{context}: {} problem{}\n",
        problems.len(),
        if problems.len() == 1 { "" } else { "s" }
    );
    for p in problems {
        let _ = writeln!(s, "  - {p}");
    }
    Fail(s.trim_end().to_string(), 1)
}

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("cwndlab: internal error ({info}). Please report this with the scenario that caused it.");
    }));
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run_cli(&args) {
        Ok(out) => {
            if !out.is_empty() {
                println!("{out}");
            }
            ExitCode::SUCCESS
        }
        Err(Fail(msg, code)) => {
            eprintln!("error: {msg}");
            ExitCode::from(code)
        }
    }
}

fn run_cli(args: &[String]) -> Result<String, Fail> {
    match args.first().map(String::as_str) {
        None | Some("help") | Some("--help") | Some("-h") => Ok(USAGE.trim_end().to_string()),
        Some("run") => cmd_run(&args[1..]),
        Some("validate") => cmd_validate(&args[1..]),
        Some("presets") => Ok(cmd_presets()),
        Some("algorithms") => match args.get(1).map(String::as_str) {
            None => Ok(cmd_algorithms()),
            Some("--json") => Ok(serde_json::to_string_pretty(&catalogue::catalogue_json()).expect("json")),
            Some(other) => Err(usage_error(format!(
                "algorithms: unknown option `{other}` (try --json)"
            ))),
        },
        Some("schema") => match args.get(1).map(String::as_str) {
            None => Ok(serde_json::to_string_pretty(&schema::schema_json()).expect("json")),
            Some("--markdown") => Ok(schema::markdown().trim_end().to_string()),
            Some(other) => Err(usage_error(format!(
                "schema: unknown option `{other}` (try --markdown)"
            ))),
        },
        Some(other) => Err(usage_error(format!("unknown command `{other}`"))),
    }
}

fn read_json_file(path: &str) -> Result<Value, Fail> {
    let text = std::fs::read_to_string(path).map_err(|e| Fail(format!("cannot read {path}: {e}"), 1))?;
    serde_json::from_str(&text).map_err(|e| Fail(format!("{path} is not valid JSON: {e}"), 1))
}

fn cmd_validate(args: &[String]) -> Result<String, Fail> {
    let [file] = args else {
        return Err(usage_error("validate takes exactly one FILE.json"));
    };
    let v = read_json_file(file)?;
    match Scenario::from_value(&v) {
        Ok(s) => Ok(format!(
            "{file}: valid ({} flow{}, {} s)",
            s.flows.len(),
            if s.flows.len() == 1 { "" } else { "s" },
            s.duration
        )),
        Err(p) => Err(problems_error(file, &p)),
    }
}

fn cmd_presets() -> String {
    let all = presets::all();
    let width = all.iter().map(|p| p.name.len()).max().unwrap_or(0);
    all.iter()
        .map(|p| format!("{:width$}  {}", p.name, p.description))
        .collect::<Vec<_>>()
        .join("\n")
}

fn cmd_algorithms() -> String {
    let width = catalogue::CATALOGUE.iter().map(|a| a.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    let mut group = "";
    for a in catalogue::CATALOGUE {
        if a.group != group {
            group = a.group;
            let _ = writeln!(out, "{}{group}:", if out.is_empty() { "" } else { "\n" });
        }
        let settings: Vec<String> = a
            .settings
            .iter()
            .map(|(p, v)| format!("{p}={}", v.to_json().as_str().unwrap_or_default()))
            .collect();
        let _ = writeln!(out, "  {:width$}  {} — {}", a.name, a.label, a.description);
        let _ = writeln!(out, "  {:width$}  ({})", "", settings.join(", "));
    }
    out.trim_end().to_string()
}

#[derive(PartialEq)]
enum Format {
    Json,
    Csv,
}

fn take_value<'a>(args: &'a [String], i: &mut usize, flag: &str) -> Result<&'a str, Fail> {
    *i += 1;
    args.get(*i)
        .map(String::as_str)
        .ok_or_else(|| usage_error(format!("{flag} needs a value")))
}

fn cmd_run(args: &[String]) -> Result<String, Fail> {
    let mut file: Option<&str> = None;
    let mut preset: Option<&str> = None;
    let mut sets: Vec<(String, Value)> = Vec::new();
    let mut format = Format::Json;
    let mut out_dir: Option<PathBuf> = None;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "--preset" => preset = Some(take_value(args, &mut i, a)?),
            "--seed" => {
                let v = take_value(args, &mut i, a)?;
                let n: u64 = v
                    .parse()
                    .map_err(|_| usage_error(format!("--seed {v}: not a whole number ≥ 0")))?;
                sets.push(("seed".into(), json!(n)));
            }
            "--duration" => {
                let v = take_value(args, &mut i, a)?;
                let d: f64 = v
                    .parse()
                    .map_err(|_| usage_error(format!("--duration {v}: not a number of seconds")))?;
                sets.push(("duration".into(), json!(d)));
            }
            "--set" => {
                let v = take_value(args, &mut i, a)?;
                let (path, value) = v
                    .split_once('=')
                    .ok_or_else(|| usage_error(format!("--set {v}: expected PATH=VALUE")))?;
                sets.push((path.trim().to_string(), parse_set_value(value.trim())));
            }
            "--format" => {
                format = match take_value(args, &mut i, a)? {
                    "json" => Format::Json,
                    "csv" => Format::Csv,
                    other => return Err(usage_error(format!("--format {other}: expected json or csv"))),
                }
            }
            "--out" => out_dir = Some(PathBuf::from(take_value(args, &mut i, a)?)),
            _ if a.starts_with("--") => return Err(usage_error(format!("unknown option `{a}`"))),
            _ => {
                if file.is_some() {
                    return Err(usage_error(format!(
                        "unexpected argument `{a}` (one scenario file only)"
                    )));
                }
                file = Some(a);
            }
        }
        i += 1;
    }
    let (source, mut doc) = match (file, preset) {
        (Some(_), Some(_)) => return Err(usage_error("give a scenario FILE.json or --preset NAME, not both")),
        (None, None) => return Err(usage_error("run needs a scenario FILE.json or --preset NAME")),
        (Some(f), None) => (f.to_string(), read_json_file(f)?),
        (None, Some(name)) => {
            let p = presets::find(name).ok_or_else(|| {
                let names: Vec<String> = presets::all().into_iter().map(|p| p.name).collect();
                usage_error(format!("unknown preset `{name}`; available: {}", names.join(", ")))
            })?;
            (format!("preset {name}"), p.overrides)
        }
    };
    // Resolve first so `--set` on a flow field applies to every flow the scenario has.
    doc = resolve(&doc).map_err(|p| problems_error(&source, &p))?;
    let mut set_problems = Vec::new();
    for (path, value) in sets {
        if let Err(p) = set_path(&mut doc, &path, value) {
            set_problems.push(p);
        }
    }
    if !set_problems.is_empty() {
        return Err(problems_error("--set", &set_problems));
    }
    let scenario = Scenario::from_value(&doc).map_err(|p| problems_error(&source, &p))?;
    let est = scenario.estimated_packets();
    if est > LARGE_RUN {
        eprintln!(
            "note: this run may simulate up to {:.0} million packets; with the default event log that needs several GB of memory (try --set trace.events=congestion or a shorter --duration)",
            est as f64 / 1e6
        );
    }
    let mut sim = Simulation::new(&scenario);
    sim.run_to_end();
    let summary = sim.summary();
    if let Some(dir) = &out_dir {
        write_outputs(dir, &sim).map_err(|e| Fail(format!("cannot write to {}: {e}", dir.display()), 1))?;
    }
    match format {
        Format::Json => {
            let mut v = serde_json::to_value(&summary).expect("json");
            v["scenario"] = scenario.to_value();
            Ok(serde_json::to_string_pretty(&v).expect("json"))
        }
        Format::Csv => Ok(summary_csv(&summary)),
    }
}

fn summary_csv(s: &cwndlab_core::Summary) -> String {
    let mut out = String::from(
        "flow,algorithm,variant,goodput_bps,throughput_bps,delivered_bytes,data_packets_sent,retransmits,timeouts,fast_retransmits,partial_acks,mean_cwnd_bytes,cwnd_cv,max_burst_packets,window_decays,queue_drops,error_drops,scripted_drops\n",
    );
    for f in &s.flows {
        let _ = writeln!(
            out,
            "{},{},{},{:.1},{:.1},{},{},{},{},{},{},{:.1},{:.4},{},{},{},{},{}",
            f.flow,
            f.algorithm,
            f.variant,
            f.goodput_bps,
            f.throughput_bps,
            f.delivered_bytes,
            f.data_packets_sent,
            f.retransmits,
            f.timeouts,
            f.fast_retransmits,
            f.partial_acks,
            f.mean_cwnd_bytes,
            f.cwnd_cv,
            f.max_burst_packets,
            f.window_decays,
            f.drops.queue,
            f.drops.error,
            f.drops.scripted
        );
    }
    out.trim_end().to_string()
}

fn secs(ns: u64) -> f64 {
    ns_to_secs(ns)
}

fn slug(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect::<String>()
        .split('_')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("_")
}

fn write_outputs(dir: &Path, sim: &Simulation) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for i in 0..sim.flow_count() {
        let s = sim.series(i);
        let mut out =
            String::from("time_s,cwnd_bytes,inflated_bytes,ssthresh_bytes,flight_bytes,srtt_s,rttvar_s,rto_s,phase\n");
        for &(t, r) in &s.rows {
            let ssthresh = if r.ssthresh == u64::MAX {
                "inf".to_string()
            } else {
                r.ssthresh.to_string()
            };
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{}",
                secs(t),
                r.cwnd,
                r.inflated,
                ssthresh,
                r.flight,
                secs(r.srtt),
                secs(r.rttvar),
                secs(r.rto),
                Phase::ALL.get(r.phase as usize).map_or("?", |p| p.name())
            );
        }
        std::fs::write(dir.join(format!("series_flow{i}.csv")), out)?;
        if let Some(v) = sim.validation_series(i) {
            let opt = |ns: u64| {
                if ns == u64::MAX {
                    String::new()
                } else {
                    secs(ns).to_string()
                }
            };
            let mut out = String::from("time_s,t_last_s,t_prev_s,w_used_bytes,pipeack_bytes,nvp\n");
            for &(t, r) in &v.rows {
                let pipeack = if r.pipeack == u64::MAX {
                    String::new()
                } else {
                    r.pipeack.to_string()
                };
                let _ = writeln!(
                    out,
                    "{},{},{},{},{},{}",
                    secs(t),
                    opt(r.t_last),
                    opt(r.t_prev),
                    r.w_used,
                    pipeack,
                    r.nvp
                );
            }
            std::fs::write(dir.join(format!("validation_flow{i}.csv")), out)?;
        }
    }
    let e = sim.events();
    let mut out = String::with_capacity(e.len() * 48);
    out.push_str("time_s,flow,kind,seq,len,seg,tx\n");
    for r in &e.rows {
        let kind = EventKind::ALL.get(r.kind as usize).map_or("?", |k| k.name());
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{}",
            secs(r.t),
            r.flow,
            kind,
            r.seq,
            r.len,
            r.seg,
            r.tx
        );
    }
    std::fs::write(dir.join("events.csv"), out)?;
    for (name, q) in sim.queues() {
        let mut out = String::from("time_s,packets,bytes\n");
        for &(t, p, b) in &q.rows {
            let _ = writeln!(out, "{},{},{}", secs(t), p, b);
        }
        std::fs::write(dir.join(format!("queue_{}.csv", slug(name))), out)?;
    }
    let mut summary = serde_json::to_value(sim.summary()).expect("json");
    summary["scenario"] = sim.scenario().to_value();
    std::fs::write(
        dir.join("summary.json"),
        serde_json::to_string_pretty(&summary).expect("json"),
    )?;
    std::fs::write(
        dir.join("scenario.json"),
        serde_json::to_string_pretty(&sim.scenario().to_value()).expect("json"),
    )?;
    Ok(())
}
