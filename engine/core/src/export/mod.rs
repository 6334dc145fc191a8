//! The run as files, for every front end: the trace tables as CSV or JSON (what `cwndlab run
//! --out DIR` writes), a pcap capture (`--pcap`), a qlog file (`--qlog`). An [`Exporter`]
//! runs a scenario from the start with the writer its [`Request`] names, slice by slice,
//! and hands over each file's bytes as they are made, so neither the CLI nor the page holds
//! a whole long run in memory; the page runs it in a worker.
//!
//! An export runs the scenario again: a run is deterministic, so the files describe exactly
//! the run the page shows or `run` summarised (same digest), live changes included (they are
//! timeline entries of the resolved scenario).

pub mod pcap;
pub mod qlog;
pub mod tables;
pub mod vocabulary;

use crate::capture::{Capture, CapturePoint};
use crate::scenario::{EventFilter, Scenario};
use crate::sim::{Recording, Simulation};
use serde_json::{json, Value};

/// A trace table, as `--out` names its files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// `series_flowN`: each flow's window state, a row per change.
    Series,
    /// `events`: the event log.
    Events,
    /// `queue_<link>`: each traced queue's occupancy.
    Queues,
    /// `validation_flowN`: window validation (flows with an idle policy).
    Validation,
    /// `recovery_flowN`: SACK loss recovery (flows with SACK on).
    Recovery,
    /// `writes_flowN`: the application's writes (applications other than bulk).
    Writes,
    /// `transfers_flowN`: each completed short transfer (`transfers` applications).
    Transfers,
    /// `pings_crossN`: each ping source's RTT samples.
    Pings,
    /// `qdisc_<link>`: each managed bottleneck direction's queue-discipline state.
    Qdisc,
    /// `throughput`: bytes per bin and traffic class.
    Throughput,
    /// `rounds_flowN`: each flow's transmission rounds (cwnd, ssthresh, phase per round).
    Rounds,
    /// `summary`: per-flow metrics (CSV: one row per flow; JSON: `run`'s output).
    Summary,
    /// `scenario.json`: the resolved scenario, which `cwndlab run FILE` runs to the same
    /// digest.
    Scenario,
}

impl Table {
    /// Every table, in file order.
    pub const ALL: [Table; 13] = [
        Table::Series,
        Table::Events,
        Table::Queues,
        Table::Validation,
        Table::Recovery,
        Table::Writes,
        Table::Transfers,
        Table::Pings,
        Table::Qdisc,
        Table::Throughput,
        Table::Rounds,
        Table::Summary,
        Table::Scenario,
    ];

    /// Name in requests.
    pub fn name(self) -> &'static str {
        match self {
            Table::Series => "series",
            Table::Events => "events",
            Table::Queues => "queues",
            Table::Validation => "validation",
            Table::Recovery => "recovery",
            Table::Writes => "writes",
            Table::Transfers => "transfers",
            Table::Pings => "pings",
            Table::Qdisc => "qdisc",
            Table::Throughput => "throughput",
            Table::Rounds => "rounds",
            Table::Summary => "summary",
            Table::Scenario => "scenario",
        }
    }

    /// What its files hold, in a line.
    pub fn description(self) -> &'static str {
        match self {
            Table::Series => "series_flowN: each flow's cwnd, ssthresh, flight, SRTT, RTO and phase, a row per change",
            Table::Events => {
                "events: every packet and congestion event (sends, ACKs, drops, fast retransmits, timeouts, …)"
            }
            Table::Queues => "queue_<link>: packets and bytes in each traced queue, a row per change",
            Table::Validation => "validation_flowN: window validation state (flows with an idle policy)",
            Table::Recovery => {
                "recovery_flowN: SACK loss recovery: pipe, SACKed and lost bytes, PRR's counters, RACK's reordering window, the loss timer (flows with SACK on)"
            }
            Table::Writes => {
                "writes_flowN: each application write, its sojourn and latency (applications other than bulk)"
            }
            Table::Transfers => {
                "transfers_flowN: each completed short transfer: when it was due, its bytes, when it began, its completion time (transfers applications)"
            }
            Table::Pings => "pings_crossN: each ping probe's send time and round-trip time (ping sources)",
            Table::Qdisc => {
                "qdisc_<link>: the queue discipline's state, a row per change: RED's average queue, drop probability and count, CoDel's sojourn, dropping state and next drop, FQ-CoDel's queues, PIE's probability and burst allowance (bottleneck directions with a discipline other than drop-tail)"
            }
            Table::Throughput => "throughput: bytes per bin and traffic class at the bottleneck and delivered",
            Table::Rounds => "rounds_flowN: each flow's transmission rounds, as textbooks count them: cwnd, ssthresh and phase at each round's start, segments sent, loss events (runs that keep the sender's events)",
            Table::Summary => "summary: per-flow goodput, retransmissions, timeouts, drops, …",
            Table::Scenario => "scenario.json: the resolved scenario; `cwndlab run scenario.json` reproduces the run",
        }
    }

    /// The table named `s`.
    pub fn parse(s: &str) -> Option<Table> {
        Table::ALL.into_iter().find(|t| t.name() == s)
    }
}

/// Text format of the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    /// Comma-separated values with a header line.
    Csv,
    /// `{"columns": [...], "rows": [[...], ...]}`.
    Json,
}

impl TableFormat {
    /// File extension.
    pub fn extension(self) -> &'static str {
        match self {
            TableFormat::Csv => "csv",
            TableFormat::Json => "json",
        }
    }

    /// Media type.
    pub fn mime(self) -> &'static str {
        match self {
            TableFormat::Csv => "text/csv",
            TableFormat::Json => "application/json",
        }
    }
}

/// One output file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileInfo {
    /// File name (no directory).
    pub name: String,
    /// Media type.
    pub mime: &'static str,
}

/// What to export.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Trace tables.
    Tables {
        /// CSV or JSON.
        format: TableFormat,
        /// Which (file order is [`Table::ALL`]'s).
        tables: Vec<Table>,
    },
    /// A packet capture.
    Pcap {
        /// Where.
        point: CapturePoint,
        /// Bytes kept of each packet.
        snaplen: u32,
    },
    /// One flow's qlog.
    Qlog {
        /// Which flow.
        flow: usize,
    },
}

/// Bytes an export made in the page may reach (the browser holds the file until it is
/// saved); the CLI writes to disk and has no limit.
pub const PAGE_LIMIT_BYTES: u64 = 256 << 20;

impl Request {
    /// From the page's JSON: `{"format":"csv"|"json","tables":[...]}`,
    /// `{"format":"pcap","point":"sender","snaplen":96}` (both optional) or
    /// `{"format":"qlog","flow":0}`. Errors name the field and the allowed values.
    pub fn from_json(v: &Value) -> Result<Request, String> {
        let format = v.get("format").and_then(Value::as_str).unwrap_or("");
        match format {
            "csv" | "json" => {
                let names: Vec<&str> = Table::ALL.iter().map(|t| t.name()).collect();
                let tables = match v.get("tables") {
                    None => Table::ALL.to_vec(),
                    Some(Value::Array(a)) => a
                        .iter()
                        .map(|t| {
                            t.as_str()
                                .and_then(Table::parse)
                                .ok_or_else(|| format!("tables: unknown table {t}; allowed: {}", names.join(", ")))
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                    Some(other) => return Err(format!("tables: expected a list of {}, got {other}", names.join(", "))),
                };
                if tables.is_empty() {
                    return Err(format!("tables: name at least one of {}", names.join(", ")));
                }
                let format = if format == "csv" {
                    TableFormat::Csv
                } else {
                    TableFormat::Json
                };
                Ok(Request::Tables { format, tables })
            }
            "pcap" => {
                let points: Vec<&str> = CapturePoint::ALL.iter().map(|p| p.name()).collect();
                let point = match v.get("point") {
                    None => CapturePoint::Sender,
                    Some(p) => p
                        .as_str()
                        .and_then(CapturePoint::parse)
                        .ok_or_else(|| format!("point: unknown capture point {p}; allowed: {}", points.join(", ")))?,
                };
                let snaplen = match v.get("snaplen") {
                    None => pcap::DEFAULT_SNAPLEN,
                    Some(n) => n
                        .as_u64()
                        .filter(|n| (pcap::SNAPLEN_MIN as u64..=pcap::SNAPLEN_MAX as u64).contains(n))
                        .ok_or_else(|| {
                            format!(
                                "snaplen: {n} is not a whole number of bytes from {} to {}",
                                pcap::SNAPLEN_MIN,
                                pcap::SNAPLEN_MAX
                            )
                        })? as u32,
                };
                Ok(Request::Pcap { point, snaplen })
            }
            "qlog" => {
                let flow = match v.get("flow") {
                    None => 0,
                    Some(n) => n.as_u64().ok_or_else(|| format!("flow: {n} is not a flow index"))? as usize,
                };
                Ok(Request::Qlog { flow })
            }
            other => Err(format!(
                "format: unknown export format {}; allowed: csv, json, pcap, qlog",
                if other.is_empty() {
                    "(none)".to_string()
                } else {
                    format!("\"{other}\"")
                }
            )),
        }
    }

    /// About how many bytes the export of `s` makes (an upper estimate from the packets the
    /// run can carry).
    pub fn estimated_bytes(&self, s: &Scenario) -> u64 {
        let packets = s.estimated_packets();
        let per_packet: u64 = match self {
            // Data, ACK, series and queue rows: about 6 rows of 30 bytes per data packet.
            Request::Tables { format, tables } => {
                let rows = tables
                    .iter()
                    .filter(|t| !matches!(t, Table::Summary | Table::Scenario))
                    .count() as u64;
                rows * if *format == TableFormat::Json { 45 } else { 35 }
            }
            Request::Pcap { snaplen, .. } => 2 * pcap::RECORD_HEADER + (*snaplen as u64).min(1500) + 40,
            Request::Qlog { .. } => 600 / s.flows.len().max(1) as u64,
        };
        packets.saturating_mul(per_packet)
    }

    /// A file-name stem for downloads.
    pub fn label(&self) -> String {
        match self {
            Request::Tables { format, .. } => format.extension().to_string(),
            Request::Pcap { point, .. } => format!("{}.pcap", point.name()),
            Request::Qlog { flow } => format!("flow{flow}.sqlog"),
        }
    }
}

/// The writer an export feeds.
#[derive(Debug)]
enum Writer {
    Tables(Box<tables::TableWriter>),
    Pcap(pcap::PcapWriter),
    Qlog(Box<qlog::QlogWriter>),
}

/// A running export: a simulation of the scenario and the writer of its files.
#[derive(Debug)]
pub struct Exporter {
    sim: Simulation,
    writer: Writer,
    files: Vec<FileInfo>,
    bufs: Vec<Vec<u8>>,
    finished: bool,
}

impl Exporter {
    /// Starts an export of `s`. With `limit`, an export estimated above that many bytes is
    /// refused, saying why. A qlog export runs with every event recorded (it needs the
    /// sends and RTT samples), which changes no number of the run.
    pub fn new(s: &Scenario, req: &Request, limit: Option<u64>) -> Result<Exporter, String> {
        if let Some(limit) = limit {
            let est = req.estimated_bytes(s);
            if est > limit {
                return Err(format!(
                    "this export would be about {} MB (the run may carry {} packets); the page builds files up to {} MB. \
                     Shorten the run (duration) or use the command line, which streams to disk: cwndlab run scenario.json {}",
                    est >> 20,
                    s.estimated_packets(),
                    limit >> 20,
                    match req {
                        Request::Tables { .. } => "--out DIR".to_string(),
                        Request::Pcap { point, .. } => format!("--pcap run.pcap --pcap-point {}", point.name()),
                        Request::Qlog { flow } => format!("--qlog run.sqlog --qlog-flow {flow}"),
                    }
                ));
            }
        }
        let mut bufs = Vec::new();
        let (sim, writer, files) = match req {
            Request::Tables { format, tables } => {
                let sim = Simulation::new(s);
                let w = tables::TableWriter::new(&sim, *format, tables, &mut bufs);
                let files = w.files.clone();
                (sim, Writer::Tables(Box::new(w)), files)
            }
            Request::Pcap { point, snaplen } => {
                let mut sim = Simulation::new(s);
                sim.set_recording(Recording::Summary { digest: false });
                sim.set_capture(Some(Capture::new(*point)));
                let w = pcap::PcapWriter::new(s, *snaplen);
                let mut b = Vec::new();
                w.header(&mut b);
                bufs.push(b);
                let files = vec![FileInfo {
                    name: req.label(),
                    mime: "application/vnd.tcpdump.pcap",
                }];
                (sim, Writer::Pcap(w), files)
            }
            Request::Qlog { flow } => {
                if *flow >= s.flows.len() {
                    return Err(format!(
                        "flow: the scenario has {} flow(s); allowed: 0 to {}",
                        s.flows.len(),
                        s.flows.len().saturating_sub(1)
                    ));
                }
                let mut every = s.clone();
                every.trace.events = EventFilter::All;
                let sim = Simulation::new(&every);
                let mut w = qlog::QlogWriter::new(s, *flow);
                let mut b = Vec::new();
                w.header(s, &mut b);
                bufs.push(b);
                let files = vec![FileInfo {
                    name: req.label(),
                    mime: "application/qlog+json-seq",
                }];
                (sim, Writer::Qlog(Box::new(w)), files)
            }
        };
        Ok(Exporter {
            sim,
            writer,
            files,
            bufs,
            finished: false,
        })
    }

    /// The files, in index order.
    pub fn files(&self) -> &[FileInfo] {
        &self.files
    }

    /// Runs up to `budget` events and formats what they produced; true once the run and
    /// every file are complete.
    pub fn step(&mut self, budget: u64) -> bool {
        if self.finished {
            return true;
        }
        let done = self.sim.run_events(budget);
        match &mut self.writer {
            Writer::Tables(w) => {
                let rows = self.sim.take_rows();
                w.append(&rows, &mut self.bufs);
                if done {
                    w.finish(&self.sim, &mut self.bufs);
                }
            }
            Writer::Pcap(w) => {
                let now = self.sim.now();
                let records = self.sim.take_captured(if done { u64::MAX } else { now });
                w.write(&records, &mut self.bufs[0]);
            }
            Writer::Qlog(w) => {
                let rows = self.sim.take_rows();
                w.append(&rows, &mut self.bufs[0]);
            }
        }
        self.finished = done;
        done
    }

    /// The bytes of file `file` made since the last call.
    pub fn take(&mut self, file: usize) -> Vec<u8> {
        self.bufs.get_mut(file).map(std::mem::take).unwrap_or_default()
    }

    /// What the user should know to read the files, if anything (a capture without a
    /// handshake: the window scale to give Wireshark).
    pub fn note(&self) -> Option<String> {
        match self.writer {
            Writer::Pcap(_) => pcap::window_scale_note(self.sim.scenario()),
            _ => None,
        }
    }

    /// Simulated time done, 0 to 1.
    pub fn progress(&self) -> f64 {
        let end = self.sim.end().max(1);
        (self.sim.now().min(end) as f64 / end as f64).min(1.0)
    }

    /// Whether every file is complete.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// The simulation (its summary once finished).
    pub fn sim(&self) -> &Simulation {
        &self.sim
    }
}

/// The tables a request may name, with what each holds, and the capture points (the page
/// reads these; it never retypes them).
pub fn vocabulary_json() -> Value {
    json!({
        "tables": Table::ALL.iter().map(|t| json!({ "name": t.name(), "description": t.description() })).collect::<Vec<_>>(),
        "capture_points": CapturePoint::ALL.iter().map(|p| json!({ "name": p.name(), "description": p.description() })).collect::<Vec<_>>(),
        "snaplen": { "default": pcap::DEFAULT_SNAPLEN, "min": pcap::SNAPLEN_MIN, "max": pcap::SNAPLEN_MAX },
        "page_limit_bytes": PAGE_LIMIT_BYTES,
        "qlog_events": qlog::EVENT_NAMES,
    })
}
