//! `cwndlab sweep` and `cwndlab sweep-merge`: every combination of parameter values,
//! algorithms and seeds is one run; runs execute in parallel (rayon), each single-threaded
//! and deterministic, and results are collected in run order, so the output is byte-identical
//! whatever `--jobs` is. `--shard I/N` runs the I-th of N contiguous slices of the same run
//! list and writes them as JSON; `sweep-merge` checks the shards cover the sweep exactly once
//! and prints what the unsharded sweep prints.
//!
//! Numbers that pass through a shard file (parameter values, metrics) are stored as their
//! exact decimal text, so merging never re-rounds anything.

use crate::input::{problems_error, read_json_file, ScenarioArgs};
use crate::interrupt;
use crate::output::write_atomically;
use crate::progress::Progress;
use crate::{Fail, Format};
use clap::Args;
use cwndlab_core::scenario::{normalise_path, parse_set_value, set_path, Scenario};
use cwndlab_core::schema::{self, Kind};
use cwndlab_core::sim::{Recording, Simulation};
use rayon::prelude::*;
use serde_json::{json, Map, Value};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Most runs one sweep may hold.
const MAX_RUNS: usize = 1_000_000;

/// Events per slice of a run: between slices a worker updates the progress and checks for
/// Ctrl-C.
const SLICE_EVENTS: u64 = 50_000;

/// Options of `cwndlab sweep`.
#[derive(Args, Debug)]
pub struct SweepArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// The parameter to vary (a scenario path, e.g. network.bottleneck.loss.ber)
    #[arg(long, value_name = "PATH")]
    pub param: String,
    /// Its values, comma-separated (numbers, or names for enumerated settings)
    #[arg(
        long,
        value_name = "V1,V2,...",
        value_delimiter = ',',
        required_unless_present = "range",
        conflicts_with = "range"
    )]
    pub values: Vec<String>,
    /// Its values as N points from FROM to TO, evenly spaced (or geometrically with `:log`)
    #[arg(long, value_name = "FROM:TO:N[:log]")]
    pub range: Option<String>,
    /// A second parameter to vary (every combination with the first is run)
    #[arg(long, value_name = "PATH")]
    pub param2: Option<String>,
    /// Values of the second parameter
    #[arg(
        long,
        value_name = "V1,V2,...",
        value_delimiter = ',',
        requires = "param2",
        conflicts_with = "range2"
    )]
    pub values2: Vec<String>,
    /// Values of the second parameter as a range
    #[arg(long, value_name = "FROM:TO:N[:log]", requires = "param2")]
    pub range2: Option<String>,
    /// Named algorithms to run at every point (`cwndlab algorithms`), set on every flow;
    /// default: the scenario's own
    #[arg(long, value_name = "A,B,...", value_delimiter = ',')]
    pub algorithms: Vec<String>,
    /// Seeds 1 to N at every point (default: the scenario's seed only)
    #[arg(long, value_name = "N", conflicts_with = "seed_list")]
    pub seeds: Option<u64>,
    /// These seeds at every point
    #[arg(long, value_name = "S1,S2,...", value_delimiter = ',')]
    pub seed_list: Vec<u64>,
    /// Metrics to report (default: all; see docs/cli.md)
    #[arg(long, value_name = "M1,M2,...", value_delimiter = ',')]
    pub metrics: Vec<String>,
    /// Parallel runs (default: one per core)
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Run only the I-th of N slices of the sweep and write it as JSON for sweep-merge
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Output format: csv (default) or json; a shard is always JSON
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Write the output to FILE (atomically, when the sweep is complete) instead of stdout
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// No progress on stderr (a bar on a terminal, else a line every 10 s)
    #[arg(long, short)]
    pub quiet: bool,
}

/// Options of `cwndlab sweep-merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shard files (`cwndlab sweep --shard I/N` outputs), in any order
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Csv)]
    pub format: Format,
    /// Write the output to FILE (atomically) instead of stdout
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Every metric a sweep can report, in output order: the per-flow summary fields.
pub const METRICS: &[&str] = &[
    "goodput_bps",
    "transfer_goodput_bps",
    "throughput_bps",
    "delivered_bytes",
    "data_packets_sent",
    "retransmits",
    "spurious_retransmits",
    "retransmit_fraction",
    "timeouts",
    "fast_retransmits",
    "partial_acks",
    "dupacks",
    "acks_sent",
    "mean_cwnd_bytes",
    "mean_cwnd_segments",
    "cwnd_cv",
    "final_cwnd_bytes",
    "final_ssthresh_bytes",
    "srtt_s",
    "rto_s",
    "max_burst_packets",
    "window_decays",
    "queue_drops",
    "error_drops",
    "scripted_drops",
    "ack_queue_drops",
    "ack_error_drops",
    "completion_time_s",
    "writes",
    "mean_payload_bytes",
    "itt_p50_s",
    "itt_p90_s",
    "itt_p99_s",
    "sojourn_p50_s",
    "sojourn_p90_s",
    "sojourn_p99_s",
    "latency_p50_s",
    "latency_p90_s",
    "latency_p99_s",
];

/// A metric's value in a flow summary (as JSON); None when it is null (e.g. no completion).
fn metric(flow: &Value, name: &str) -> Option<f64> {
    let v = match name.strip_suffix("_drops") {
        Some(kind) if flow.get(name).is_none() => &flow["drops"][kind],
        _ => &flow[name],
    };
    v.as_f64()
}

/// One parameter axis: the path and its values (exact text and parsed value).
#[derive(Clone, Debug)]
struct Axis {
    path: String,
    values: Vec<(String, Value)>,
}

/// The sweep as planned: what is varied, over what, and which metrics are reported.
#[derive(Clone, Debug)]
struct Plan {
    source: String,
    axes: Vec<Axis>,
    algorithms: Vec<String>,
    seeds: Vec<u64>,
    metrics: Vec<String>,
}

/// One run of the plan.
#[derive(Clone, Debug)]
struct RunSpec {
    index: usize,
    values: Vec<usize>,
    algorithm: Option<usize>,
    seed: u64,
}

/// One result row: a run and one of its flows.
#[derive(Clone, Debug)]
struct Row {
    run: usize,
    values: Vec<String>,
    algorithm: String,
    seed: u64,
    flow: u32,
    metrics: Vec<Option<f64>>,
}

/// Parses `FROM:TO:N[:log]` into N values as exact text, integers for an integer parameter.
fn range_values(spec: &str, path: &str) -> Result<Vec<String>, Fail> {
    let bad = |why: &str| Fail::usage(format!("--range {spec}: {why}; expected FROM:TO:N or FROM:TO:N:log"));
    let parts: Vec<&str> = spec.split(':').collect();
    if !(3..=4).contains(&parts.len()) {
        return Err(bad("wrong number of fields"));
    }
    let from: f64 = parts[0].parse().map_err(|_| bad("FROM is not a number"))?;
    let to: f64 = parts[1].parse().map_err(|_| bad("TO is not a number"))?;
    let n: usize = parts[2].parse().map_err(|_| bad("N is not a whole number"))?;
    let log = match parts.get(3) {
        None => false,
        Some(&"log") => true,
        Some(_) => return Err(bad("the fourth field can only be `log`")),
    };
    if n == 0 || !from.is_finite() || !to.is_finite() {
        return Err(bad("N must be at least 1 and FROM, TO finite"));
    }
    if log && (from <= 0.0 || to <= 0.0) {
        return Err(bad("a log range needs FROM and TO above 0"));
    }
    let integer = normalise_path(path)
        .ok()
        .and_then(|(p, _)| schema::find(&p))
        .is_some_and(|d| matches!(d.kind, Kind::Int { .. }));
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let f = if n == 1 { 0.0 } else { i as f64 / (n - 1) as f64 };
        let x = if log {
            // from · (to/from)^f by exp/ln of the host: the values are written out exactly
            // and every run reads the same text, so this is reproducible per sweep file.
            (from.ln() + f * (to.ln() - from.ln())).exp()
        } else {
            from + f * (to - from)
        };
        let x = if i == 0 {
            from
        } else if i == n - 1 {
            to
        } else {
            // Ten significant digits: the text written is the value every run uses.
            format!("{x:.9e}").parse().unwrap_or(x)
        };
        out.push(if integer {
            format!("{}", x.round() as u64)
        } else {
            number_text(x)
        });
    }
    Ok(out)
}

fn axis(path: &str, values: &[String], range: &Option<String>) -> Result<Axis, Fail> {
    let texts = match range {
        Some(r) => range_values(r, path)?,
        None => values.iter().map(|s| s.trim().to_string()).collect(),
    };
    if texts.is_empty() || texts.iter().any(String::is_empty) {
        return Err(Fail::usage(format!("{path}: give at least one value, none empty")));
    }
    Ok(Axis {
        path: path.to_string(),
        values: texts.into_iter().map(|t| (t.clone(), parse_set_value(&t))).collect(),
    })
}

impl Plan {
    fn runs(&self) -> Vec<RunSpec> {
        let sizes: Vec<usize> = self.axes.iter().map(|a| a.values.len()).collect();
        let points: usize = sizes.iter().product();
        let algs: Vec<Option<usize>> = if self.algorithms.is_empty() {
            vec![None]
        } else {
            (0..self.algorithms.len()).map(Some).collect()
        };
        let mut out = Vec::with_capacity(points * algs.len() * self.seeds.len());
        for p in 0..points {
            // The first axis varies slowest.
            let mut rest = p;
            let mut values = vec![0; sizes.len()];
            for (k, &n) in sizes.iter().enumerate().rev() {
                values[k] = rest % n;
                rest /= n;
            }
            for &a in &algs {
                for &seed in &self.seeds {
                    out.push(RunSpec {
                        index: out.len(),
                        values: values.clone(),
                        algorithm: a,
                        seed,
                    });
                }
            }
        }
        out
    }

    /// The scenario of one run: the base, then each axis value, the algorithm, the seed.
    fn scenario(&self, base: &Value, r: &RunSpec) -> Result<Scenario, Fail> {
        let mut doc = base.clone();
        let mut problems = Vec::new();
        for (axis, &i) in self.axes.iter().zip(&r.values) {
            if let Err(p) = set_path(&mut doc, &axis.path, axis.values[i].1.clone()) {
                problems.push(p);
            }
        }
        if let Some(a) = r.algorithm {
            if let Err(p) = set_path(&mut doc, "flows[].algorithm", json!(self.algorithms[a])) {
                problems.push(p);
            }
        }
        if let Err(p) = set_path(&mut doc, "seed", json!(r.seed)) {
            problems.push(p);
        }
        if !problems.is_empty() {
            return Err(problems_error(&self.describe(r), &problems));
        }
        Scenario::from_value(&doc).map_err(|p| problems_error(&self.describe(r), &p))
    }

    fn describe(&self, r: &RunSpec) -> String {
        let mut s = format!("run {}", r.index);
        for (axis, &i) in self.axes.iter().zip(&r.values) {
            let _ = write!(s, ", {} = {}", axis.path, axis.values[i].0);
        }
        if let Some(a) = r.algorithm {
            let _ = write!(s, ", algorithm {}", self.algorithms[a]);
        }
        let _ = write!(s, ", seed {}", r.seed);
        s
    }

    /// Reads back [`Plan::to_json`] (a shard file's `sweep`).
    fn from_json(def: &Value) -> Plan {
        let strings = |v: &Value| -> Vec<String> {
            v.as_array()
                .into_iter()
                .flatten()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        };
        Plan {
            source: def["source"].as_str().unwrap_or_default().to_string(),
            axes: def["params"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| Axis {
                    path: p["path"].as_str().unwrap_or_default().to_string(),
                    values: strings(&p["values"])
                        .into_iter()
                        .map(|t| {
                            let v = parse_set_value(&t);
                            (t, v)
                        })
                        .collect(),
                })
                .collect(),
            algorithms: strings(&def["algorithms"]),
            seeds: def["seeds"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_u64)
                .collect(),
            metrics: strings(&def["metrics"]),
        }
    }

    /// The sweep's definition as JSON: shards of one sweep carry the same.
    fn to_json(&self, runs_total: usize) -> Value {
        json!({
            "source": self.source,
            "params": self.axes.iter().map(|a| json!({
                "path": a.path,
                "values": a.values.iter().map(|(t, _)| t.clone()).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "algorithms": self.algorithms,
            "seeds": self.seeds,
            "metrics": self.metrics,
            "runs_total": runs_total,
        })
    }
}

fn build_plan(a: &SweepArgs) -> Result<(Plan, Value), Fail> {
    let (source, base) = a.scenario.load()?;
    let mut axes = vec![axis(&a.param, &a.values, &a.range)?];
    if let Some(p2) = &a.param2 {
        if a.values2.is_empty() && a.range2.is_none() {
            return Err(Fail::usage("--param2 needs --values2 or --range2"));
        }
        axes.push(axis(p2, &a.values2, &a.range2)?);
    }
    let base_seed = base["seed"].as_u64().unwrap_or(1);
    let seeds = match (a.seeds, a.seed_list.is_empty()) {
        (Some(0), _) => return Err(Fail::usage("--seeds must be at least 1")),
        (Some(n), _) => (1..=n).collect(),
        (None, false) => a.seed_list.clone(),
        (None, true) => vec![base_seed],
    };
    let metrics: Vec<String> = if a.metrics.is_empty() {
        METRICS.iter().map(|m| m.to_string()).collect()
    } else {
        let bad: Vec<&String> = a.metrics.iter().filter(|m| !METRICS.contains(&m.as_str())).collect();
        if !bad.is_empty() {
            return Err(Fail::usage(format!(
                "--metrics: unknown metric {}; allowed: {}",
                bad.iter().map(|b| format!("`{b}`")).collect::<Vec<_>>().join(", "),
                METRICS.join(", ")
            )));
        }
        a.metrics.clone()
    };
    let plan = Plan {
        source,
        axes,
        algorithms: a.algorithms.iter().map(|s| s.trim().to_string()).collect(),
        seeds,
        metrics,
    };
    Ok((plan, base))
}

/// Parses `I/N` (1 ≤ I ≤ N).
fn parse_shard(s: &str) -> Result<(usize, usize), Fail> {
    let bad = || Fail::usage(format!("--shard {s}: expected I/N with 1 ≤ I ≤ N, e.g. 2/8"));
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if i == 0 || n == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// Runs `cwndlab sweep`.
pub fn sweep(a: &SweepArgs) -> Result<String, Fail> {
    let (plan, base) = build_plan(a)?;
    let runs = plan.runs();
    if runs.len() > MAX_RUNS {
        return Err(Fail::usage(format!(
            "this sweep has {} runs; at most {MAX_RUNS} per sweep (split it with --shard, or use fewer values or seeds)",
            runs.len()
        )));
    }
    let shard = a.shard.as_deref().map(parse_shard).transpose()?;
    if shard.is_some() && a.format == Some(Format::Csv) {
        return Err(Fail::usage(
            "a shard is written as JSON for `cwndlab sweep-merge`; choose the final format there",
        ));
    }
    let mine: Vec<RunSpec> = match shard {
        None => runs.clone(),
        Some((i, n)) => {
            let (lo, hi) = ((i - 1) * runs.len() / n, i * runs.len() / n);
            runs[lo..hi].to_vec()
        }
    };
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        return Err(Fail::usage("--jobs must be at least 1"));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| Fail::invalid(format!("cannot start {jobs} worker threads: {e}")))?;
    // Validation before work: every run's scenario is built and checked first.
    let scenarios: Vec<Result<Scenario, Fail>> =
        pool.install(|| mine.par_iter().map(|r| plan.scenario(&base, r)).collect());
    if let Some(Err(_)) = scenarios.iter().find(|s| s.is_err()) {
        let first = scenarios.into_iter().find_map(Result::err).expect("an error");
        return Err(Fail(format!("the sweep was not started: {}", first.0), first.1));
    }
    // Progress in simulated time over every run (a sweep of a few long runs moves too),
    // with the runs done as its detail.
    let total_ms: u64 = scenarios
        .iter()
        .map(|s| s.as_ref().map_or(0, |s| (s.duration * 1000.0) as u64))
        .sum();
    drop(scenarios);
    interrupt::install();
    let progress = Mutex::new(Progress::new(total_ms, "", a.quiet));
    let done = AtomicU64::new(0);
    let done_ms = AtomicU64::new(0);
    let n_runs = mine.len();
    let runs_done = |n: u64| format!("{n} of {n_runs} runs done");
    let rows: Vec<Option<Vec<Row>>> = pool.install(|| {
        mine.par_iter()
            .map(|r| {
                if interrupt::requested().is_some() {
                    return None;
                }
                let s = plan.scenario(&base, r).expect("validated above");
                let mut sim = Simulation::new(&s);
                sim.set_recording(Recording::Summary { digest: false });
                let mut last_ms = 0;
                loop {
                    let finished = sim.run_events(SLICE_EVENTS);
                    let now_ms = sim.now() / 1_000_000;
                    let ms = done_ms.fetch_add(now_ms - last_ms, Ordering::Relaxed) + now_ms - last_ms;
                    last_ms = now_ms;
                    if interrupt::requested().is_some() {
                        return None;
                    }
                    if finished {
                        break;
                    }
                    // Another worker drawing: this slice's progress shows with the next.
                    if let Ok(mut p) = progress.try_lock() {
                        p.set(ms, || runs_done(done.load(Ordering::Relaxed)));
                    }
                }
                let summary = serde_json::to_value(sim.summary()).expect("json");
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if let Ok(mut p) = progress.lock() {
                    p.set(done_ms.load(Ordering::Relaxed), || runs_done(n));
                }
                let flows = summary["flows"].as_array().cloned().unwrap_or_default();
                Some(
                    flows
                        .iter()
                        .enumerate()
                        .map(|(f, fv)| Row {
                            run: r.index,
                            values: r
                                .values
                                .iter()
                                .zip(&plan.axes)
                                .map(|(&i, ax)| ax.values[i].0.clone())
                                .collect(),
                            algorithm: r.algorithm.map_or_else(
                                || fv["algorithm"].as_str().unwrap_or("").to_string(),
                                |k| plan.algorithms[k].clone(),
                            ),
                            seed: r.seed,
                            flow: f as u32,
                            metrics: plan.metrics.iter().map(|m| metric(fv, m)).collect(),
                        })
                        .collect(),
                )
            })
            .collect()
    });
    let progress = progress.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some((signal, code)) = interrupt::requested() {
        drop(progress);
        let mut msg = format!(
            "cwndlab: {signal} after {} of {n_runs} runs: no output was written",
            done.load(Ordering::Relaxed)
        );
        if let Some(out) = &a.out {
            msg.push_str(&format!(" ({} as before)", out.display()));
        }
        return Err(Fail(msg, code));
    }
    progress.finish(|| runs_done(n_runs as u64));
    let rows: Vec<Vec<Row>> = rows.into_iter().map(|r| r.expect("every run done")).collect();
    let rows: Vec<Row> = rows.into_iter().flatten().collect();
    let text = match shard {
        Some((i, n)) => {
            let mut v = json!({"sweep": plan.to_json(runs.len()), "shard": {"index": i, "of": n}});
            v["runs"] = Value::Array(rows.iter().map(|r| run_json(&plan, r, true)).collect());
            serde_json::to_string_pretty(&v).expect("json")
        }
        None => render(&plan, &rows, runs.len(), a.format.unwrap_or(Format::Csv)),
    };
    emit(text, &a.out)
}

/// Writes the output to stdout (returned) or atomically to a file: a temporary file beside
/// it, renamed into place once complete (an error leaves no partial file, and an existing
/// file as it was).
fn emit(text: String, out: &Option<PathBuf>) -> Result<String, Fail> {
    match out {
        None => Ok(text),
        Some(path) => {
            write_atomically(path, format!("{text}\n").as_bytes())
                .map_err(|e| Fail::invalid(format!("--out: {}.\nNothing was written.", e.describe())))?;
            Ok(String::new())
        }
    }
}

/// A number as its shortest exact decimal text.
fn num(x: f64) -> String {
    format!("{x}")
}

/// A parameter value as readable exact text: plain decimals in [0.001, 10⁷), else
/// scientific (1e-7, not 0.0000001).
fn number_text(x: f64) -> String {
    if x == 0.0 || (1e-3..1e7).contains(&x.abs()) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

fn run_json(plan: &Plan, r: &Row, exact_text: bool) -> Value {
    let params: Map<String, Value> = plan
        .axes
        .iter()
        .zip(&r.values)
        .map(|(a, t)| (a.path.clone(), if exact_text { json!(t) } else { parse_set_value(t) }))
        .collect();
    let metrics: Map<String, Value> = plan
        .metrics
        .iter()
        .zip(&r.metrics)
        .map(|(m, v)| {
            let v = match v {
                None => Value::Null,
                Some(x) if exact_text => json!(num(*x)),
                Some(x) => json!(x),
            };
            (m.clone(), v)
        })
        .collect();
    json!({"run": r.run, "params": params, "algorithm": r.algorithm, "seed": r.seed, "flow": r.flow, "metrics": metrics})
}

/// Mean, sample standard deviation, min and max of the values present.
fn stats(xs: &[f64]) -> Option<(f64, f64, f64, f64)> {
    if xs.is_empty() {
        return None;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let min = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Some((mean, var.sqrt(), min, max))
}

/// A point: the rows of one (parameter values, algorithm, flow) over seeds.
struct Point<'a> {
    rows: Vec<&'a Row>,
}

fn points(rows: &[Row]) -> Vec<Point<'_>> {
    let mut out: Vec<Point> = Vec::new();
    for r in rows {
        let same = |p: &Point| {
            let f = p.rows[0];
            f.values == r.values && f.algorithm == r.algorithm && f.flow == r.flow
        };
        match out.iter_mut().rev().find(|p| same(p)) {
            Some(p) => p.rows.push(r),
            None => out.push(Point { rows: vec![r] }),
        }
    }
    out
}

fn csv_field(t: &str) -> String {
    if t.contains([',', '"', '\n']) {
        format!("\"{}\"", t.replace('"', "\"\""))
    } else {
        t.to_string()
    }
}

/// The whole sweep's output: one row per run and flow, then one per point.
fn render(plan: &Plan, rows: &[Row], runs_total: usize, format: Format) -> String {
    let pts = points(rows);
    match format {
        Format::Json => {
            let points: Vec<Value> = pts
                .iter()
                .map(|p| {
                    let f = p.rows[0];
                    let params: Map<String, Value> =
                        plan.axes.iter().zip(&f.values).map(|(a, t)| (a.path.clone(), parse_set_value(t))).collect();
                    let metrics: Map<String, Value> = plan
                        .metrics
                        .iter()
                        .enumerate()
                        .map(|(k, m)| {
                            let xs: Vec<f64> = p.rows.iter().filter_map(|r| r.metrics[k]).collect();
                            let v = stats(&xs).map_or(Value::Null, |(mean, sd, min, max)| {
                                json!({"mean": mean, "std": sd, "min": min, "max": max})
                            });
                            (m.clone(), v)
                        })
                        .collect();
                    json!({"params": params, "algorithm": f.algorithm, "flow": f.flow, "n": p.rows.len(), "metrics": metrics})
                })
                .collect();
            let v = json!({
                "sweep": plan.to_json(runs_total),
                "runs": rows.iter().map(|r| run_json(plan, r, false)).collect::<Vec<_>>(),
                "points": points,
            });
            serde_json::to_string_pretty(&v).expect("json")
        }
        Format::Csv => {
            let mut out = String::from("kind,run");
            for a in &plan.axes {
                out.push(',');
                out.push_str(&csv_field(&a.path));
            }
            out.push_str(",algorithm,seed,flow,n");
            for m in &plan.metrics {
                let _ = write!(out, ",{m},{m}_std,{m}_min,{m}_max");
            }
            out.push('\n');
            let opt = |x: Option<f64>| x.map_or(String::new(), num);
            for r in rows {
                let _ = write!(out, "run,{}", r.run);
                for t in &r.values {
                    let _ = write!(out, ",{}", csv_field(t));
                }
                let _ = write!(out, ",{},{},{},1", csv_field(&r.algorithm), r.seed, r.flow);
                for x in &r.metrics {
                    let _ = write!(out, ",{},,,", opt(*x));
                }
                out.push('\n');
            }
            for p in &pts {
                let f = p.rows[0];
                out.push_str("point,");
                for t in &f.values {
                    let _ = write!(out, ",{}", csv_field(t));
                }
                let _ = write!(out, ",{},,{},{}", csv_field(&f.algorithm), f.flow, p.rows.len());
                for k in 0..plan.metrics.len() {
                    let xs: Vec<f64> = p.rows.iter().filter_map(|r| r.metrics[k]).collect();
                    match stats(&xs) {
                        Some((mean, sd, min, max)) => {
                            let _ = write!(out, ",{},{},{},{}", num(mean), num(sd), num(min), num(max));
                        }
                        None => out.push_str(",,,,"),
                    }
                }
                out.push('\n');
            }
            out.trim_end().to_string()
        }
    }
}

fn merge_error(path: &Path, why: impl std::fmt::Display) -> Fail {
    Fail::invalid(format!("{}: {why}", path.display()))
}

/// Runs `cwndlab sweep-merge`.
pub fn merge(a: &MergeArgs) -> Result<String, Fail> {
    let mut sweep: Option<Value> = None;
    let mut rows: Vec<Row> = Vec::new();
    let mut shards_of: Option<u64> = None;
    let mut seen_shards = std::collections::BTreeSet::new();
    for path in &a.files {
        let v = read_json_file(path)?;
        let (Some(def), Some(shard)) = (v.get("sweep"), v.get("shard")) else {
            return Err(merge_error(path, "not a shard file of `cwndlab sweep --shard I/N`"));
        };
        match &sweep {
            None => sweep = Some(def.clone()),
            Some(s) if s != def => {
                return Err(merge_error(path, "belongs to a different sweep than the other files"));
            }
            _ => {}
        }
        let (i, n) = (shard["index"].as_u64().unwrap_or(0), shard["of"].as_u64().unwrap_or(0));
        if shards_of.is_some_and(|m| m != n) {
            return Err(merge_error(
                path,
                format!("is shard {i}/{n}; the others are of {}", shards_of.unwrap_or(0)),
            ));
        }
        shards_of = Some(n);
        if !seen_shards.insert(i) {
            return Err(merge_error(path, format!("shard {i}/{n} is given twice")));
        }
        let plan = Plan::from_json(sweep.as_ref().expect("set above"));
        let params: Vec<&String> = plan.axes.iter().map(|a| &a.path).collect();
        let metrics = &plan.metrics;
        for r in v["runs"].as_array().into_iter().flatten() {
            let text = |x: &Value| x.as_str().map(String::from);
            let row = (|| {
                Some(Row {
                    run: r["run"].as_u64()? as usize,
                    values: params
                        .iter()
                        .map(|p| text(&r["params"][p]))
                        .collect::<Option<Vec<_>>>()?,
                    algorithm: r["algorithm"].as_str()?.to_string(),
                    seed: r["seed"].as_u64()?,
                    flow: r["flow"].as_u64()? as u32,
                    metrics: metrics
                        .iter()
                        .map(|m| match &r["metrics"][m] {
                            Value::Null => Some(None),
                            Value::String(t) => t.parse::<f64>().ok().map(Some),
                            _ => None,
                        })
                        .collect::<Option<Vec<_>>>()?,
                })
            })()
            .ok_or_else(|| merge_error(path, format!("run entry {r} is malformed")))?;
            rows.push(row);
        }
    }
    let def = sweep.ok_or_else(|| Fail::usage("give the shard files to merge"))?;
    let n = shards_of.unwrap_or(0) as usize;
    let missing: Vec<String> = (1..=n as u64)
        .filter(|i| !seen_shards.contains(i))
        .map(|i| format!("{i}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(Fail::invalid(format!(
            "missing shard{}: {}",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", ")
        )));
    }
    rows.sort_by_key(|r| (r.run, r.flow));
    let total = def["runs_total"].as_u64().unwrap_or(0) as usize;
    let mut runs: Vec<usize> = rows.iter().map(|r| r.run).collect();
    runs.dedup();
    if runs.len() != total || runs.iter().enumerate().any(|(i, &r)| i != r) {
        return Err(Fail::invalid(format!(
            "the shards hold {} distinct runs of the sweep's {total}; some are missing or repeated",
            runs.len()
        )));
    }
    let plan = Plan::from_json(&def);
    emit(render(&plan, &rows, total, a.format), &a.out)
}
