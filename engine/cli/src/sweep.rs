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
use cwndlab_core::scenario::Scenario;
use cwndlab_core::sim::{Recording, Simulation};
use cwndlab_core::sweep::{self, Definition, Plan, Row, RunSpec, MAX_RUNS};
use rayon::prelude::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

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

/// Builds the plan from the options (`cwndlab_core::sweep` defines it, for the page too).
fn build_plan(a: &SweepArgs) -> Result<(Plan, Value), Fail> {
    let (source, base) = a.scenario.load()?;
    let def = Definition {
        param: a.param.clone(),
        values: a.values.clone(),
        range: a.range.clone(),
        param2: a.param2.clone(),
        values2: a.values2.clone(),
        range2: a.range2.clone(),
        algorithms: a.algorithms.clone(),
        seeds: a.seeds,
        seed_list: a.seed_list.clone(),
        metrics: a.metrics.clone(),
        source: None,
    };
    let plan = Plan::new(&def, &source, &base, "--").map_err(|e| Fail::usage(e.message))?;
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
    let scenarios: Vec<Result<Scenario, Fail>> = pool.install(|| {
        mine.par_iter()
            .map(|r| plan.scenario(&base, r).map_err(|(run, p)| problems_error(&run, &p)))
            .collect()
    });
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
                let Ok(s) = plan.scenario(&base, r) else {
                    unreachable!("every run's scenario was validated above")
                };
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
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if let Ok(mut p) = progress.lock() {
                    p.set(done_ms.load(Ordering::Relaxed), || runs_done(n));
                }
                Some(plan.rows(r, &sim.summary()))
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
            v["runs"] = Value::Array(rows.iter().map(|r| plan.row_json(r, true)).collect());
            serde_json::to_string_pretty(&v).expect("json")
        }
        None => plan.render(&rows, runs.len(), format(a.format.unwrap_or(Format::Csv))),
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

fn format(f: Format) -> sweep::Format {
    match f {
        Format::Csv => sweep::Format::Csv,
        Format::Json => sweep::Format::Json,
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
        for r in v["runs"].as_array().into_iter().flatten() {
            let row = plan
                .row_from_json(r)
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
    emit(plan.render(&rows, total, format(a.format)), &a.out)
}
