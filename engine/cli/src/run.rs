//! `cwndlab run`: one simulation, its summary on stdout, optionally its trace as CSV files.

use crate::input::{problems_error, ScenarioArgs};
use crate::interrupt;
use crate::output::{free_bytes, OutError, OutFile, Outputs, PcapFile, TraceFiles};
use crate::progress::{human_duration, simulated, Progress};
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

/// Wall-clock cost of one simulated packet, nanoseconds, fastest and slowest, as measured
/// in release builds on a shared 2-core AMD EPYC (load average about 10) with the NetSim,
/// CUBIC/NewReno-share (100 Mbit/s, cross traffic), BBR/CUBIC, BR-TCP and long-fat-path
/// presets run for 60–2 000 s: summary only 3.3–6.5 M packets/s. Each output adds its
/// own cost per packet (`--out` 0.26–0.35 M packets/s in all, `--pcap` 1.1–1.25 M,
/// `--qlog`, a second pass recording every event, 0.12–0.29 M). docs/cli.md "Long runs".
const NS_PER_PACKET: (f64, f64) = (150.0, 300.0);
/// With `--digest` (and `--out`, which always computes it).
const NS_DIGEST: (f64, f64) = (20.0, 60.0);
/// With `--out`: the CSV rows and their writes.
const NS_OUT: (f64, f64) = (2_600.0, 3_600.0);
/// With `--pcap`.
const NS_PCAP: (f64, f64) = (600.0, 650.0);
/// With `--qlog`.
const NS_QLOG: (f64, f64) = (3_300.0, 8_500.0);
/// Bytes per simulated packet of `--out`'s files (158–197 measured), `--pcap` (83 at the
/// default snap length) and `--qlog` (117–287).
const BYTES_OUT: f64 = 200.0;
const BYTES_PCAP: f64 = 85.0;
const BYTES_QLOG: f64 = 290.0;

/// A run whose estimated time reaches this (at the slow end) gets a note before it starts.
const LONG_RUN_S: f64 = 60.0;

/// Options of `cwndlab run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Summary format on stdout: JSON (with every resolved setting) or CSV (one row per flow)
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
    /// Also write the trace to DIR as CSV files (time series, event log, queues, window
    /// validation) plus summary.json and scenario.json, streamed as the run goes into
    /// temporary files that take their names only when the run succeeds
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
    /// No progress on stderr (a bar on a terminal, else a line every 10 s) and no notes
    #[arg(long, short)]
    pub quiet: bool,
}

fn capture_point(s: &str) -> Result<CapturePoint, String> {
    CapturePoint::parse(s).ok_or_else(|| {
        let names: Vec<&str> = CapturePoint::ALL.iter().map(|p| p.name()).collect();
        format!("unknown capture point '{s}'; allowed: {}", names.join(", "))
    })
}

/// The note of a long run: how many packets at most, how long that takes here, and how
/// much it writes; None for a run expected to take less than [`LONG_RUN_S`].
fn long_run_note(a: &RunArgs, est: u64) -> Option<String> {
    let mut ns = NS_PER_PACKET;
    let mut add = |c: (f64, f64)| {
        ns.0 += c.0;
        ns.1 += c.1;
    };
    if a.digest || a.out.is_some() {
        add(NS_DIGEST);
    }
    if a.out.is_some() {
        add(NS_OUT);
    }
    if a.pcap.is_some() {
        add(NS_PCAP);
    }
    if a.qlog.is_some() {
        add(NS_QLOG);
    }
    let p = est as f64;
    let (fast, slow) = (p * ns.0 / 1e9, p * ns.1 / 1e9);
    if slow < LONG_RUN_S {
        return None;
    }
    let files = |o: &Option<std::path::PathBuf>| o.as_deref().is_some_and(|p| !is_special(p));
    let bytes = [
        (files(&a.out), BYTES_OUT),
        (files(&a.pcap), BYTES_PCAP),
        (files(&a.qlog), BYTES_QLOG),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|(_, b)| b * p)
    .sum::<f64>();
    let size = if bytes > 0.0 {
        format!(" and write up to about {}", gigabytes(bytes))
    } else {
        String::new()
    };
    let (f, s) = (human_duration(fast), human_duration(slow));
    let range = match (f.split_once(' '), s.split_once(' ')) {
        _ if f == s => s,
        (Some((a, u)), Some((b, v))) if u == v => format!("{a}–{b} {u}"),
        _ => format!("{f} to {s}"),
    };
    Some(format!(
        "note: this run may simulate up to {:.0} million packets{size}; at the {}–{} million \
         packets/s measured with these outputs, that takes up to about {range}; progress is \
         shown as it runs",
        p / 1e6,
        two_digits(1e3 / ns.1),
        two_digits(1e3 / ns.0),
    ))
}

/// Bytes as "96 GB", "4.2 GB" or "0.35 GB".
fn gigabytes(b: f64) -> String {
    format!("{} GB", two_digits(b / 1e9))
}

/// A rate with two significant digits: "0.076", "0.15", "3.3".
fn two_digits(x: f64) -> String {
    let decimals = if x >= 10.0 || x <= 0.0 {
        0
    } else {
        (1.0 - x.log10().floor()).max(1.0) as usize
    };
    format!("{x:.decimals$}")
}

/// A note for each output whose files may not fit on its disk: the estimate (an upper
/// bound) against the space free there. The run goes ahead (the estimate assumes a full
/// link); if the disk fills, it fails cleanly, keeping nothing.
fn space_notes(a: &RunArgs, est: u64) -> Vec<String> {
    let outputs = [
        ("--out", a.out.as_deref(), BYTES_OUT, true),
        ("--pcap", a.pcap.as_deref(), BYTES_PCAP, false),
        ("--qlog", a.qlog.as_deref(), BYTES_QLOG, false),
    ];
    let mut notes = Vec::new();
    for (option, path, per_packet, is_dir) in outputs {
        let Some(path) = path.filter(|p| !is_special(p)) else {
            continue;
        };
        let need = per_packet * est as f64;
        // Where the files go: the directory itself, or the file's directory.
        let place = match path.parent() {
            _ if is_dir => path,
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => std::path::Path::new("."),
        };
        if let Some(free) = free_bytes(place) {
            if need > free as f64 && need > 1e6 {
                notes.push(format!(
                    "note: {option} {} may need up to {}, and its disk has {} free; if it fills, \
                     the run stops and keeps nothing",
                    path.display(),
                    gigabytes(need),
                    gigabytes(free as f64)
                ));
            }
        }
    }
    notes
}

/// True for a path that exists and is neither a file nor a directory (/dev/null, a FIFO):
/// written directly, not through a temporary file.
fn is_special(p: &std::path::Path) -> bool {
    std::fs::metadata(p).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// The outputs of a run kept as they were by a failure, for messages: `--out DIR`,
/// `--pcap FILE`, `--qlog FILE` (not special files, which are written directly).
fn targets(a: &RunArgs) -> Vec<String> {
    [&a.out, &a.pcap, &a.qlog]
        .into_iter()
        .flatten()
        .filter(|p| !is_special(p))
        .map(|p| p.display().to_string())
        .collect()
}

/// Two outputs of one run that are the same file would garble each other: refused (exit 2).
/// Special files (/dev/null) may be named twice.
fn one_file_each(a: &RunArgs, sim: &Simulation) -> Result<(), Fail> {
    let abs = |p: &std::path::Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut seen: Vec<(std::path::PathBuf, String)> = Vec::new();
    if let Some(dir) = &a.out {
        for name in TraceFiles::names(sim) {
            seen.push((abs(&dir.join(&name)), format!("--out {} (its {name})", dir.display())));
        }
    }
    for (option, path) in [("--pcap", &a.pcap), ("--qlog", &a.qlog)] {
        let Some(path) = path.as_deref().filter(|p| !is_special(p)) else {
            continue;
        };
        let p = abs(path);
        if let Some((_, other)) = seen.iter().find(|(q, _)| *q == p) {
            return Err(Fail::usage(format!(
                "{option} {}: {other} writes that file too; give each output its own name",
                path.display()
            )));
        }
        seen.push((p, format!("{option} {}", path.display())));
    }
    Ok(())
}

/// A failed write: the option, the file, what failed and what to do; nothing is kept.
fn write_failed(a: &RunArgs, option: &str, e: OutError) -> Fail {
    let others = [&a.out, &a.pcap, &a.qlog].into_iter().flatten().count() > 1;
    Fail::invalid(format!(
        "{option}: {}.\nNo output of this run was kept{}.",
        e.describe(),
        if others {
            " (its other files were not written either)"
        } else {
            ""
        }
    ))
}

/// Ctrl-C or SIGTERM: where the run was, and that nothing was written.
fn interrupted(a: &RunArgs, signal: (&str, u8), at: String, direct: &[&OutFile]) -> Fail {
    let t = targets(a);
    let mut msg = format!("cwndlab: {} {at}: no output was written", signal.0);
    if !t.is_empty() {
        msg.push_str(&format!(" ({}: as before this run)", t.join(", ")));
    }
    for f in direct {
        msg.push_str(&format!(
            "; {} is not a regular file and received part of its data",
            f.path().display()
        ));
    }
    Fail(msg, signal.1)
}

/// Runs `cwndlab run`.
pub fn run(a: &RunArgs) -> Result<String, Fail> {
    let (source, doc) = a.scenario.load()?;
    let scenario = Scenario::from_value(&doc).map_err(|p| problems_error(&source, &p))?;
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
    if !a.quiet {
        let est = scenario.estimated_packets();
        if let Some(note) = long_run_note(a, est) {
            eprintln!("{note}");
        }
        for note in space_notes(a, est) {
            eprintln!("{note}");
        }
    }
    let mut sim = Simulation::new(&scenario);
    one_file_each(a, &sim)?;
    interrupt::install();
    // Every output file is opened (as a temporary file) before the run, so a place that
    // cannot be written to is reported at once.
    let mut files = match &a.out {
        Some(dir) => Some(TraceFiles::create(dir, &sim).map_err(|e| write_failed(a, "--out", e))?),
        None => {
            // Only the summary is asked for: keep no trace at all.
            sim.set_recording(Recording::Summary { digest: a.digest });
            None
        }
    };
    let mut capture = match &a.pcap {
        Some(path) => {
            sim.set_capture(Some(Capture::new(a.pcap_point)));
            Some(PcapFile::create(path, &sim, a.snaplen).map_err(|e| write_failed(a, "--pcap", e))?)
        }
        None => None,
    };
    let qlog = match &a.qlog {
        Some(path) => Some(OutFile::create(path).map_err(|e| write_failed(a, "--qlog", e))?),
        None => None,
    };
    let end_ms = sim.end() / 1_000_000;
    let mut progress = Progress::new(end_ms, "", a.quiet);
    loop {
        let done = sim.run_events(SLICE_EVENTS);
        if let Some(f) = files.as_mut() {
            f.append(&mut sim).map_err(|e| write_failed(a, "--out", e))?;
        }
        if let Some(c) = capture.as_mut() {
            let now = sim.now();
            c.append(&mut sim, now).map_err(|e| write_failed(a, "--pcap", e))?;
        }
        let now_ms = sim.now() / 1_000_000;
        if let Some(sig) = interrupt::requested() {
            let pct = now_ms as f64 / end_ms.max(1) as f64 * 100.0;
            let at = format!("at {pct:.0} % ({})", simulated(now_ms, end_ms));
            return Err(interrupted(a, sig, at, &direct_files(&capture, &qlog)));
        }
        progress.set(now_ms, || simulated(now_ms, end_ms));
        if done {
            break;
        }
    }
    progress.finish(|| simulated(end_ms, end_ms));
    let summary = sim.summary();
    let json = summary_value(&summary, &scenario);
    let mut outputs = Outputs::default();
    if let Some(f) = files {
        outputs = f.finish(&sim, &json).map_err(|e| write_failed(a, "--out", e))?;
    }
    let mut captured = None;
    if let Some(c) = capture {
        let (f, n) = c.finish(&mut sim).map_err(|e| write_failed(a, "--pcap", e))?;
        outputs.push(f);
        captured = Some(n);
    }
    if let Some(mut out) = qlog {
        // The qlog needs every event recorded: its own pass over the same run.
        let req = Request::Qlog { flow: a.qlog_flow };
        let mut ex = Exporter::new(&scenario, &req, None).map_err(Fail::usage)?;
        let mut progress = Progress::new(end_ms, "qlog pass: ", a.quiet);
        loop {
            let done = ex.step(SLICE_EVENTS);
            out.write(&ex.take(0)).map_err(|e| write_failed(a, "--qlog", e))?;
            let pos = (ex.progress() * end_ms as f64) as u64;
            if let Some(sig) = interrupt::requested() {
                let at = format!("in the qlog pass ({})", simulated(pos, end_ms));
                let d: Vec<&OutFile> = std::iter::once(&out).filter(|f| f.is_direct()).collect();
                return Err(interrupted(a, sig, at, &d));
            }
            progress.set(pos, || simulated(pos, end_ms));
            if done {
                break;
            }
        }
        progress.finish(|| simulated(end_ms, end_ms));
        out.finish().map_err(|e| write_failed(a, "--qlog", e))?;
        outputs.push(out);
    }
    if let Some(sig) = interrupt::requested() {
        return Err(interrupted(a, sig, "at the end".into(), &[]));
    }
    outputs.commit().map_err(|(e, done)| {
        Fail::invalid(format!(
            "{}.\n{}",
            e.describe(),
            if done == 0 {
                "No output of this run was kept.".to_string()
            } else {
                format!("{done} file(s) of this run were already in place; the others were not written.")
            }
        ))
    })?;
    if let (Some(n), Some(path)) = (captured, &a.pcap) {
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
    Ok(match a.format {
        Format::Json => serde_json::to_string_pretty(&json).expect("json"),
        Format::Csv => summary_csv(&summary),
    })
}

fn direct_files<'a>(capture: &'a Option<PcapFile>, qlog: &'a Option<OutFile>) -> Vec<&'a OutFile> {
    capture
        .iter()
        .map(PcapFile::file)
        .chain(qlog.iter())
        .filter(|f| f.is_direct())
        .collect()
}
