//! `cwndlab run`: one simulation, its summary on stdout, optionally its trace as CSV files.

use crate::input::{problems_error, ScenarioArgs};
use crate::output::{PcapFile, TraceFiles};
use crate::progress::Progress;
use crate::{Fail, Format};
use clap::Args;
use cwndlab_core::capture::{Capture, CapturePoint};
use cwndlab_core::export::tables::{summary_csv, summary_value};
use cwndlab_core::export::{pcap, Exporter, Request};
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
    /// Also write a packet capture of the run to FILE (pcap with nanosecond timestamps, raw
    /// IPv4; Wireshark, tshark and tcpdump open it): see docs/export.md
    #[arg(long, value_name = "FILE")]
    pub pcap: Option<PathBuf>,
    /// Where --pcap captures: sender (every transmission as it leaves, every ACK as it
    /// arrives), receiver, or bottleneck (each packet as its transmission onto the
    /// bottleneck starts, after the queue)
    #[arg(long, value_name = "POINT", default_value = "sender", value_parser = capture_point, requires = "pcap")]
    pub pcap_point: CapturePoint,
    /// Bytes kept of each captured packet (headers are 40 or more)
    #[arg(long, value_name = "BYTES", default_value_t = pcap::DEFAULT_SNAPLEN, value_parser = clap::value_parser!(u32).range(pcap::SNAPLEN_MIN as i64..=pcap::SNAPLEN_MAX as i64), requires = "pcap")]
    pub snaplen: u32,
    /// Also write one flow's qlog (JSON-SEQ, qlog 0.3, the events qvis's congestion graph
    /// reads) to FILE: see docs/export.md
    #[arg(long, value_name = "FILE")]
    pub qlog: Option<PathBuf>,
    /// The flow --qlog describes
    #[arg(long, value_name = "N", default_value_t = 0, requires = "qlog")]
    pub qlog_flow: usize,
    /// No progress bar on stderr
    #[arg(long, short)]
    pub quiet: bool,
}

fn capture_point(s: &str) -> Result<CapturePoint, String> {
    CapturePoint::parse(s).ok_or_else(|| {
        let names: Vec<&str> = CapturePoint::ALL.iter().map(|p| p.name()).collect();
        format!("unknown capture point '{s}'; allowed: {}", names.join(", "))
    })
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
    if a.qlog.is_some() && a.qlog_flow >= scenario.flows.len() {
        return Err(Fail::usage(format!(
            "--qlog-flow {}: the scenario has {} flow(s); allowed: 0 to {}",
            a.qlog_flow,
            scenario.flows.len(),
            scenario.flows.len() - 1
        )));
    }
    let cannot =
        |path: &std::path::Path, e: std::io::Error| Fail::invalid(format!("cannot write to {}: {e}", path.display()));
    let mut sim = Simulation::new(&scenario);
    let mut files = match &a.out {
        Some(dir) => Some(TraceFiles::create(dir, &sim).map_err(|e| cannot(dir, e))?),
        None => {
            // Only the summary is asked for: keep no trace at all.
            sim.set_recording(Recording::Summary { digest: a.digest });
            None
        }
    };
    let mut capture = match &a.pcap {
        Some(path) => {
            sim.set_capture(Some(Capture::new(a.pcap_point)));
            Some(PcapFile::create(path, &sim, a.snaplen).map_err(|e| cannot(path, e))?)
        }
        None => None,
    };
    let end_ms = sim.end() / 1_000_000;
    let mut progress = Progress::new(end_ms, "ms simulated", a.quiet);
    loop {
        let done = sim.run_events(SLICE_EVENTS);
        if let (Some(f), Some(dir)) = (files.as_mut(), &a.out) {
            f.append(&mut sim).map_err(|e| cannot(dir, e))?;
        }
        if let (Some(c), Some(path)) = (capture.as_mut(), &a.pcap) {
            let now = sim.now();
            c.append(&mut sim, now).map_err(|e| cannot(path, e))?;
        }
        progress.set(sim.now() / 1_000_000);
        if done {
            break;
        }
    }
    progress.finish();
    let summary = sim.summary();
    let json = summary_value(&summary, &scenario);
    if let (Some(f), Some(dir)) = (files, &a.out) {
        f.finish(&sim, &json).map_err(|e| cannot(dir, e))?;
    }
    if let (Some(c), Some(path)) = (capture, &a.pcap) {
        let n = c.finish(&mut sim).map_err(|e| cannot(path, e))?;
        if !a.quiet {
            eprintln!(
                "wrote {n} packets captured at the {} to {}",
                a.pcap_point.name(),
                path.display()
            );
            if let Some(note) = pcap::window_scale_note(&scenario) {
                eprintln!("note: {note}");
            }
        }
    }
    if let Some(path) = &a.qlog {
        // The qlog needs every event recorded: its own pass over the same run.
        let req = Request::Qlog { flow: a.qlog_flow };
        let mut ex = Exporter::new(&scenario, &req, None).map_err(Fail::usage)?;
        let mut out = std::io::BufWriter::new(std::fs::File::create(path).map_err(|e| cannot(path, e))?);
        let mut progress = Progress::new(end_ms, "ms simulated (qlog)", a.quiet);
        loop {
            let done = ex.step(SLICE_EVENTS);
            std::io::Write::write_all(&mut out, &ex.take(0)).map_err(|e| cannot(path, e))?;
            progress.set((ex.progress() * end_ms as f64) as u64);
            if done {
                break;
            }
        }
        progress.finish();
        std::io::Write::flush(&mut out).map_err(|e| cannot(path, e))?;
    }
    Ok(match a.format {
        Format::Json => serde_json::to_string_pretty(&json).expect("json"),
        Format::Csv => summary_csv(&summary),
    })
}
