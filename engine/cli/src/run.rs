//! `cwndlab run`: one simulation, its summary on stdout, optionally its trace as CSV files.

use crate::input::{problems_error, ScenarioArgs};
use crate::output::{summary_csv, TraceFiles};
use crate::progress::Progress;
use crate::{Fail, Format};
use clap::Args;
use cwndlab_core::scenario::Scenario;
use cwndlab_core::sim::{Recording, Simulation};
use std::path::PathBuf;

/// Events per slice of a run: progress is updated, and with `--out` rows are written,
/// between slices, so memory holds at most one slice of trace rows (about 6 rows per event
/// in the NetSim run, since packets cross most hops and writes are made without events of
/// their own).
const SLICE_EVENTS: u64 = 50_000;

/// Packets above which `run` warns about time.
const LARGE_RUN: u64 = 200_000_000;

/// Options of `cwndlab run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Summary format on stdout: JSON (with every resolved setting) or CSV (one row per flow)
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
    /// Also write the trace to DIR as CSV files (time series, event log, queues, window
    /// validation) plus summary.json and scenario.json, streamed as the run goes
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Also compute the trace digest of a summary-only run: a 64-bit hash of every trace
    /// row, the value the web app and the golden tests show, for checking that two runs
    /// are the same (about a sixth of the run's time; without it the summary's `digest` is
    /// null). A run with --out always computes it
    #[arg(long, conflicts_with = "no_digest")]
    pub digest: bool,
    /// Accepted for scripts written before --digest: a summary-only run now skips the
    /// digest unless asked
    #[arg(long, hide = true)]
    pub no_digest: bool,
    /// No progress bar on stderr
    #[arg(long, short)]
    pub quiet: bool,
}

/// Runs `cwndlab run`.
pub fn run(a: &RunArgs) -> Result<String, Fail> {
    let (source, doc) = a.scenario.load()?;
    let scenario = Scenario::from_value(&doc).map_err(|p| problems_error(&source, &p))?;
    let est = scenario.estimated_packets();
    if est > LARGE_RUN && !a.quiet {
        eprintln!(
            "note: this run may simulate up to {:.0} million packets (several minutes)",
            est as f64 / 1e6
        );
    }
    if a.no_digest && a.out.is_some() {
        return Err(Fail::usage("--no-digest applies to summary-only runs (without --out)"));
    }
    let mut sim = Simulation::new(&scenario);
    let mut files = match &a.out {
        Some(dir) => Some(
            TraceFiles::create(dir, &sim)
                .map_err(|e| Fail::invalid(format!("cannot write to {}: {e}", dir.display())))?,
        ),
        None => {
            // Only the summary is asked for: keep no trace at all.
            sim.set_recording(Recording::Summary { digest: a.digest });
            None
        }
    };
    let end_ms = sim.end() / 1_000_000;
    let mut progress = Progress::new(end_ms, "ms simulated", a.quiet);
    loop {
        let done = sim.run_events(SLICE_EVENTS);
        if let (Some(f), Some(dir)) = (files.as_mut(), &a.out) {
            f.append(&sim.take_rows())
                .map_err(|e| Fail::invalid(format!("cannot write to {}: {e}", dir.display())))?;
        }
        progress.set(sim.now() / 1_000_000);
        if done {
            break;
        }
    }
    progress.finish();
    let summary = sim.summary();
    let mut json = serde_json::to_value(&summary).expect("json");
    json["scenario"] = scenario.to_value();
    if let (Some(f), Some(dir)) = (files, &a.out) {
        f.finish(&sim, &json)
            .map_err(|e| Fail::invalid(format!("cannot write to {}: {e}", dir.display())))?;
    }
    Ok(match a.format {
        Format::Json => serde_json::to_string_pretty(&json).expect("json"),
        Format::Csv => summary_csv(&summary),
    })
}
