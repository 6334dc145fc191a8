//! The trace tables as files: what `cwndlab run --out DIR` writes and the page downloads,
//! formatted here once. CSV: a header line of column names, one line per row. JSON: the
//! same columns and rows, `{"columns": [...], "rows": [[...], ...]}`, numbers as numbers,
//! text as strings, an empty CSV cell as null.

use super::{FileInfo, Table, TableFormat};
use crate::sim::{Simulation, TakenRows};
use crate::summary::Summary;
use crate::tcp::cc::Phase;
use crate::time::ns_to_secs;
use crate::trace::EventKind;
use std::fmt::Write as _;

/// Columns of each flow's window series (`series_flowN`).
pub const SERIES_FILE_COLUMNS: [&str; 9] = [
    "time_s",
    "cwnd_bytes",
    "inflated_bytes",
    "ssthresh_bytes",
    "flight_bytes",
    "srtt_s",
    "rttvar_s",
    "rto_s",
    "phase",
];
/// Columns of the event log (`events`).
pub const EVENTS_FILE_COLUMNS: [&str; 7] = ["time_s", "flow", "kind", "seq", "len", "seg", "tx"];
/// Columns of each queue's occupancy (`queue_<link>`): packets and bytes in the system
/// (waiting plus in service), and `queueing_delay_ms`, what the queueing-delay plot draws:
/// those bytes drained at the link's rate as the run starts (bytes · 8 / rate), ms.
pub const QUEUE_FILE_COLUMNS: [&str; 4] = ["time_s", "packets", "bytes", "queueing_delay_ms"];
/// Columns of each flow's window-validation state (`validation_flowN`).
pub const VALIDATION_FILE_COLUMNS: [&str; 6] =
    ["time_s", "t_last_s", "t_prev_s", "w_used_bytes", "pipeack_bytes", "nvp"];
/// Columns of each flow's SACK recovery state (`recovery_flowN`; see
/// [`crate::trace::RECOVERY_COLUMNS`]): empty cells for "none" (recovery_point outside
/// recovery, reo_wnd without RACK, timer_at when the loss timer is not armed).
pub const RECOVERY_FILE_COLUMNS: [&str; 12] = [
    "time_s",
    "pipe_bytes",
    "sacked_bytes",
    "lost_bytes",
    "in_recovery",
    "recovery_point",
    "prr_delivered",
    "prr_out",
    "reo_wnd_s",
    "timer_at_s",
    "timer_kind",
    "probe_out",
];
/// Columns of each flow's delivered writes (`writes_flowN`).
pub const WRITES_FILE_COLUMNS: [&str; 4] = ["written_s", "bytes", "sojourn_s", "latency_s"];
/// Columns of each flow's completed short transfers (`transfers_flowN`).
pub const TRANSFERS_FILE_COLUMNS: [&str; 4] = ["due_s", "bytes", "began_s", "completion_s"];
/// Columns of each managed bottleneck direction's discipline state (`qdisc_<link>`; see
/// [`crate::trace::QdiscRow`]): RED's average queue (`avg`, packets, or bytes in byte mode),
/// its last drop probability `p` (PIE's probability too) and `count`; CoDel's last sojourn,
/// `dropping` (1/0) and next drop (empty when not dropping); FQ-CoDel's active, new and old
/// queues and its fattest queue's bytes; PIE's burst allowance left.
pub const QDISC_FILE_COLUMNS: [&str; 12] = [
    "time_s",
    "avg",
    "p",
    "count",
    "sojourn_s",
    "dropping",
    "drop_next_s",
    "active",
    "new",
    "old",
    "fattest_bytes",
    "burst_s",
];
/// Columns of each ping source's samples (`pings_crossN`).
pub const PINGS_FILE_COLUMNS: [&str; 2] = ["sent_s", "rtt_s"];
/// Columns of the throughput table (`throughput`).
pub const THROUGHPUT_FILE_COLUMNS: [&str; 4] = ["bin_start_s", "class", "bottleneck_bytes", "delivered_bytes"];
/// Columns of each flow's transmission rounds (`rounds_flowN`; see `rounds.rs`): `events`
/// lists the round's congestion events (event-kind names, space-separated).
pub const ROUNDS_FILE_COLUMNS: [&str; 9] = [
    "round",
    "start_s",
    "end_s",
    "cwnd_bytes",
    "ssthresh_bytes",
    "phase",
    "sent",
    "retransmitted",
    "events",
];
/// Columns of the summary (`summary.csv`, one row per flow).
pub const SUMMARY_FILE_COLUMNS: [&str; 28] = [
    "flow",
    "algorithm",
    "variant",
    "goodput_bps",
    "throughput_bps",
    "delivered_bytes",
    "data_packets_sent",
    "retransmits",
    "timeouts",
    "fast_retransmits",
    "partial_acks",
    "mean_cwnd_bytes",
    "cwnd_cv",
    "max_burst_packets",
    "window_decays",
    "queue_drops",
    "error_drops",
    "scripted_drops",
    "ce_marks",
    "qdelay_mean_ms",
    "qdelay_p95_ms",
    "rtt_mean_ms",
    "rtt_p95_ms",
    "transfers_completed",
    "transfer_mean_s",
    "transfer_p50_s",
    "transfer_p90_s",
    "transfer_p99_s",
];

/// One cell of a row.
#[derive(Clone, Copy, Debug)]
enum Cell<'a> {
    /// A number, written with Rust's shortest round-trip form.
    F(f64),
    /// An integer.
    U(u64),
    /// Text.
    T(&'a str),
    /// No value.
    Empty,
}

/// A file name from a link name: `bottleneck (ACK direction)` → `bottleneck_ack_direction`.
pub fn slug(name: &str) -> String {
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

/// Where a table's rows go.
#[derive(Clone, Copy, Debug)]
struct Out {
    file: usize,
    /// Rows written so far (a JSON row after the first is preceded by a comma).
    rows: u64,
}

/// Writes the chosen tables of a running simulation into one buffer per file.
#[derive(Debug)]
pub struct TableWriter {
    format: TableFormat,
    series: Vec<Option<Out>>,
    events: Option<Out>,
    /// Per queue file: where its rows go, and ms per byte in the system at its link's rate
    /// as the run starts.
    queues: Vec<(Out, f64)>,
    validation: Vec<Option<Out>>,
    recovery: Vec<Option<Out>>,
    writes: Vec<Option<Out>>,
    /// Short transfers and ping samples: written whole at the end (a row per transfer or
    /// probe, few beside the packet tables).
    transfers: Vec<Option<Out>>,
    pings: Vec<Option<Out>>,
    /// Each managed bottleneck direction's discipline state, written whole at the end.
    qdisc: Vec<Out>,
    throughput: Option<Out>,
    rounds: Vec<Option<(Out, crate::rounds::RoundTracker)>>,
    summary: Option<Out>,
    scenario: Option<Out>,
    /// Class names of the throughput table ("flow 0", "cross 0", …).
    classes: Vec<String>,
    /// Every file, in index order.
    pub files: Vec<FileInfo>,
}

impl TableWriter {
    /// The files of `tables` for `sim` (its flows, traced queues, validation and write
    /// logs), each started with its header in `bufs` (one buffer per file, pushed here).
    pub fn new(sim: &Simulation, format: TableFormat, tables: &[Table], bufs: &mut Vec<Vec<u8>>) -> TableWriter {
        let mut w = TableWriter {
            format,
            series: vec![None; sim.flow_count()],
            events: None,
            queues: Vec::new(),
            validation: vec![None; sim.flow_count()],
            recovery: vec![None; sim.flow_count()],
            writes: vec![None; sim.flow_count()],
            transfers: vec![None; sim.flow_count()],
            pings: vec![None; sim.scenario().cross.len()],
            qdisc: Vec::new(),
            throughput: None,
            rounds: (0..sim.flow_count()).map(|_| None).collect(),
            summary: None,
            scenario: None,
            classes: sim.throughput_classes(),
            files: Vec::new(),
        };
        let ext = format.extension();
        let mime = format.mime();
        let open = |w: &mut TableWriter, bufs: &mut Vec<Vec<u8>>, stem: String, columns: &[&str]| -> Out {
            let file = w.files.len();
            w.files.push(FileInfo {
                name: format!("{stem}.{ext}"),
                mime,
            });
            let mut b = Vec::with_capacity(1 << 12);
            match format {
                TableFormat::Csv => {
                    b.extend_from_slice(columns.join(",").as_bytes());
                    b.push(b'\n');
                }
                TableFormat::Json => {
                    b.extend_from_slice(b"{\"columns\":[");
                    let names: Vec<String> = columns.iter().map(|c| format!("\"{c}\"")).collect();
                    b.extend_from_slice(names.join(",").as_bytes());
                    b.extend_from_slice(b"],\"rows\":[\n");
                }
            }
            bufs.push(b);
            Out { file, rows: 0 }
        };
        for t in Table::ALL {
            if !tables.contains(&t) {
                continue;
            }
            match t {
                Table::Series => {
                    for i in 0..sim.flow_count() {
                        w.series[i] = Some(open(&mut w, bufs, format!("series_flow{i}"), &SERIES_FILE_COLUMNS));
                    }
                }
                Table::Events => w.events = Some(open(&mut w, bufs, "events".into(), &EVENTS_FILE_COLUMNS)),
                Table::Queues => {
                    for ((name, _), rate) in sim.queues().into_iter().zip(sim.queue_rates()) {
                        let o = open(&mut w, bufs, format!("queue_{}", slug(name)), &QUEUE_FILE_COLUMNS);
                        w.queues.push((o, 8e3 / rate.max(1) as f64));
                    }
                }
                Table::Validation => {
                    for i in 0..sim.flow_count() {
                        if sim.validation_series(i).is_some() {
                            w.validation[i] = Some(open(
                                &mut w,
                                bufs,
                                format!("validation_flow{i}"),
                                &VALIDATION_FILE_COLUMNS,
                            ));
                        }
                    }
                }
                Table::Recovery => {
                    for i in 0..sim.flow_count() {
                        if sim.recovery_series(i).is_some() {
                            w.recovery[i] =
                                Some(open(&mut w, bufs, format!("recovery_flow{i}"), &RECOVERY_FILE_COLUMNS));
                        }
                    }
                }
                Table::Writes => {
                    for i in 0..sim.flow_count() {
                        if sim.writes(i).is_some() {
                            w.writes[i] = Some(open(&mut w, bufs, format!("writes_flow{i}"), &WRITES_FILE_COLUMNS));
                        }
                    }
                }
                Table::Transfers => {
                    for i in 0..sim.flow_count() {
                        if sim.transfers(i).is_some() {
                            w.transfers[i] = Some(open(
                                &mut w,
                                bufs,
                                format!("transfers_flow{i}"),
                                &TRANSFERS_FILE_COLUMNS,
                            ));
                        }
                    }
                }
                Table::Pings => {
                    for k in 0..w.pings.len() {
                        if sim.pings(k).is_some() {
                            w.pings[k] = Some(open(&mut w, bufs, format!("pings_cross{k}"), &PINGS_FILE_COLUMNS));
                        }
                    }
                }
                Table::Qdisc => {
                    for (name, _) in sim.qdisc_series() {
                        let o = open(&mut w, bufs, format!("qdisc_{}", slug(name)), &QDISC_FILE_COLUMNS);
                        w.qdisc.push(o);
                    }
                }
                Table::Throughput => {
                    w.throughput = Some(open(&mut w, bufs, "throughput".into(), &THROUGHPUT_FILE_COLUMNS))
                }
                Table::Rounds => {
                    // Rounds are read from the sender's packet events: a run that does not
                    // keep them has none to write.
                    if sim.scenario().trace.events != crate::scenario::EventFilter::Congestion {
                        for i in 0..sim.flow_count() {
                            let o = open(&mut w, bufs, format!("rounds_flow{i}"), &ROUNDS_FILE_COLUMNS);
                            w.rounds[i] = Some((o, crate::rounds::RoundTracker::new(i as u32)));
                        }
                    }
                }
                Table::Summary => {
                    if format == TableFormat::Csv {
                        w.summary = Some(open(&mut w, bufs, "summary".into(), &SUMMARY_FILE_COLUMNS));
                    } else {
                        // The CLI's summary JSON (with the resolved scenario), written whole
                        // at the end.
                        w.summary = Some(Out {
                            file: w.files.len(),
                            rows: 0,
                        });
                        w.files.push(FileInfo {
                            name: "summary.json".into(),
                            mime: TableFormat::Json.mime(),
                        });
                        bufs.push(Vec::new());
                    }
                }
                Table::Scenario => {
                    w.scenario = Some(Out {
                        file: w.files.len(),
                        rows: 0,
                    });
                    w.files.push(FileInfo {
                        name: "scenario.json".into(),
                        mime: TableFormat::Json.mime(),
                    });
                    bufs.push(Vec::new());
                }
            }
        }
        w
    }

    fn row(&self, out: &mut Out, bufs: &mut [Vec<u8>], cells: &[Cell]) {
        let b = &mut bufs[out.file];
        let mut s = String::with_capacity(64);
        match self.format {
            TableFormat::Csv => {
                for (k, c) in cells.iter().enumerate() {
                    if k > 0 {
                        s.push(',');
                    }
                    let _ = match *c {
                        Cell::F(v) => write!(s, "{v}"),
                        Cell::U(v) => write!(s, "{v}"),
                        Cell::T(t) => write!(s, "{t}"),
                        Cell::Empty => Ok(()),
                    };
                }
                s.push('\n');
            }
            TableFormat::Json => {
                if out.rows > 0 {
                    s.push_str(",\n");
                }
                s.push('[');
                for (k, c) in cells.iter().enumerate() {
                    if k > 0 {
                        s.push(',');
                    }
                    let _ = match *c {
                        Cell::F(v) if v.is_finite() => write!(s, "{v}"),
                        Cell::F(_) | Cell::Empty => write!(s, "null"),
                        Cell::U(v) => write!(s, "{v}"),
                        Cell::T(t) => write!(s, "{}", serde_json::Value::from(t)),
                    };
                }
                s.push(']');
            }
        }
        out.rows += 1;
        b.extend_from_slice(s.as_bytes());
    }

    /// Appends rows taken out of the simulation.
    pub fn append(&mut self, rows: &TakenRows, bufs: &mut [Vec<u8>]) {
        for (i, rows) in rows.series.iter().enumerate() {
            let Some(mut out) = self.series[i] else { continue };
            for &(t, r) in rows {
                let ssthresh = if r.ssthresh == u64::MAX {
                    Cell::T("inf")
                } else {
                    Cell::U(r.ssthresh)
                };
                let phase = Phase::ALL.get(r.phase as usize).map_or("?", |p| p.name());
                self.row(
                    &mut out,
                    bufs,
                    &[
                        Cell::F(ns_to_secs(t)),
                        Cell::U(r.cwnd),
                        Cell::U(r.inflated),
                        ssthresh,
                        Cell::U(r.flight),
                        Cell::F(ns_to_secs(r.srtt)),
                        Cell::F(ns_to_secs(r.rttvar)),
                        Cell::F(ns_to_secs(r.rto)),
                        Cell::T(phase),
                    ],
                );
            }
            self.series[i] = Some(out);
        }
        if let Some(mut out) = self.events {
            for r in &rows.events {
                let kind = EventKind::ALL.get(r.kind as usize).map_or("?", |k| k.name());
                self.row(
                    &mut out,
                    bufs,
                    &[
                        Cell::F(ns_to_secs(r.t)),
                        Cell::U(r.flow as u64),
                        Cell::T(kind),
                        Cell::U(r.seq),
                        Cell::U(r.len as u64),
                        Cell::U(r.seg as u64),
                        Cell::U(r.tx as u64),
                    ],
                );
            }
            self.events = Some(out);
        }
        for (k, rows) in rows.queues.iter().enumerate() {
            let Some((mut out, ms_per_byte)) = self.queues.get(k).copied() else {
                continue;
            };
            for &(t, p, b) in rows {
                self.row(
                    &mut out,
                    bufs,
                    &[
                        Cell::F(ns_to_secs(t)),
                        Cell::U(p as u64),
                        Cell::U(b),
                        Cell::F(b as f64 * ms_per_byte),
                    ],
                );
            }
            self.queues[k].0 = out;
        }
        for (i, rows) in rows.writes.iter().enumerate() {
            let (Some(mut out), Some(rows)) = (self.writes[i], rows) else {
                continue;
            };
            for &(t, bytes, sojourn, latency) in rows {
                self.row(
                    &mut out,
                    bufs,
                    &[
                        Cell::F(ns_to_secs(t)),
                        Cell::U(bytes),
                        Cell::F(ns_to_secs(sojourn)),
                        Cell::F(ns_to_secs(latency)),
                    ],
                );
            }
            self.writes[i] = Some(out);
        }
        if let Some(mut out) = self.throughput {
            for &(t, c, b, d) in &rows.throughput {
                let class = self.classes.get(c as usize).map_or("?", String::as_str).to_string();
                self.row(
                    &mut out,
                    bufs,
                    &[Cell::F(ns_to_secs(t)), Cell::T(&class), Cell::U(b), Cell::U(d)],
                );
            }
            self.throughput = Some(out);
        }
        for i in 0..self.rounds.len() {
            let Some((mut out, mut tracker)) = self.rounds[i].take() else {
                continue;
            };
            tracker.feed(&rows.events, rows.series.get(i).map_or(&[], |v| v.as_slice()));
            for r in tracker.take_ended() {
                self.round_row(&mut out, bufs, &r);
            }
            self.rounds[i] = Some((out, tracker));
        }
        let opt_secs = |ns: u64| {
            if ns == u64::MAX {
                Cell::Empty
            } else {
                Cell::F(ns_to_secs(ns))
            }
        };
        for (i, rows) in rows.validation.iter().enumerate() {
            let (Some(mut out), Some(rows)) = (self.validation[i], rows) else {
                continue;
            };
            for &(t, r) in rows {
                let pipeack = if r.pipeack == u64::MAX {
                    Cell::Empty
                } else {
                    Cell::U(r.pipeack)
                };
                self.row(
                    &mut out,
                    bufs,
                    &[
                        Cell::F(ns_to_secs(t)),
                        opt_secs(r.t_last),
                        opt_secs(r.t_prev),
                        Cell::U(r.w_used),
                        pipeack,
                        Cell::U(r.nvp as u64),
                    ],
                );
            }
            self.validation[i] = Some(out);
        }
        for (i, rows) in rows.recovery.iter().enumerate() {
            let (Some(mut out), Some(rows)) = (self.recovery[i], rows) else {
                continue;
            };
            for &(t, r) in rows {
                let point = if r.in_recovery {
                    Cell::U(r.recovery_point)
                } else {
                    Cell::Empty
                };
                self.row(
                    &mut out,
                    bufs,
                    &[
                        Cell::F(ns_to_secs(t)),
                        Cell::U(r.pipe),
                        Cell::U(r.sacked),
                        Cell::U(r.lost),
                        Cell::U(r.in_recovery as u64),
                        point,
                        Cell::U(r.prr_delivered),
                        Cell::U(r.prr_out),
                        opt_secs(r.reo_wnd),
                        opt_secs(r.timer_at),
                        Cell::U(r.timer_kind as u64),
                        Cell::U(r.probe_out as u64),
                    ],
                );
            }
            self.recovery[i] = Some(out);
        }
    }

    fn round_row(&self, out: &mut Out, bufs: &mut [Vec<u8>], r: &crate::rounds::Round) {
        let events: Vec<&str> = r.events.iter().map(|k| k.name()).collect();
        let events = events.join(" ");
        let end = r.end.map_or(Cell::Empty, |t| Cell::F(ns_to_secs(t)));
        let ssthresh = if r.ssthresh == u64::MAX {
            Cell::T("inf")
        } else {
            Cell::U(r.ssthresh)
        };
        self.row(
            out,
            bufs,
            &[
                Cell::U(r.round as u64),
                Cell::F(ns_to_secs(r.start)),
                end,
                Cell::U(r.cwnd),
                ssthresh,
                Cell::T(r.phase_name()),
                Cell::U(r.sent as u64),
                Cell::U(r.retransmitted as u64),
                Cell::T(&events),
            ],
        );
    }

    /// The end of the run: the summary and scenario files, and each JSON table's closing.
    pub fn finish(&mut self, sim: &Simulation, bufs: &mut [Vec<u8>]) {
        for i in 0..self.rounds.len() {
            let Some((mut out, mut tracker)) = self.rounds[i].take() else {
                continue;
            };
            for r in tracker.finish() {
                self.round_row(&mut out, bufs, &r);
            }
            self.rounds[i] = Some((out, tracker));
        }
        for i in 0..self.transfers.len() {
            let (Some(mut out), Some(t)) = (self.transfers[i], sim.transfers(i)) else {
                continue;
            };
            for r in &t.rows {
                let cells = [
                    Cell::F(ns_to_secs(r.due)),
                    Cell::U(r.bytes),
                    Cell::F(ns_to_secs(r.began)),
                    Cell::F(ns_to_secs(r.completion)),
                ];
                self.row(&mut out, bufs, &cells);
            }
            self.transfers[i] = Some(out);
        }
        for k in 0..self.pings.len() {
            let (Some(mut out), Some(p)) = (self.pings[k], sim.pings(k)) else {
                continue;
            };
            for &(t, rtt) in &p.rows {
                self.row(&mut out, bufs, &[Cell::F(ns_to_secs(t)), Cell::F(ns_to_secs(rtt))]);
            }
            self.pings[k] = Some(out);
        }
        for (k, (_, q)) in sim.qdisc_series().into_iter().enumerate() {
            let Some(mut out) = self.qdisc.get(k).copied() else {
                continue;
            };
            for &(t, r) in &q.rows {
                let next = if r.drop_next == u64::MAX {
                    Cell::Empty
                } else {
                    Cell::F(ns_to_secs(r.drop_next))
                };
                let cells = [
                    Cell::F(ns_to_secs(t)),
                    Cell::F(r.avg as f64 / 65_536.0),
                    Cell::F(r.p as f64 / 4_294_967_296.0),
                    Cell::F(r.count as f64),
                    Cell::F(ns_to_secs(r.sojourn)),
                    Cell::U(r.dropping as u64),
                    next,
                    Cell::U(r.active as u64),
                    Cell::U(r.new as u64),
                    Cell::U(r.old as u64),
                    Cell::U(r.fattest),
                    Cell::F(ns_to_secs(r.burst)),
                ];
                self.row(&mut out, bufs, &cells);
            }
            self.qdisc[k] = out;
        }
        if let Some(mut out) = self.summary {
            match self.format {
                TableFormat::Csv => {
                    let s = sim.summary();
                    for row in summary_rows(&s) {
                        let cells: Vec<Cell> = row.iter().map(|c| Cell::T(c)).collect();
                        self.row(&mut out, bufs, &cells);
                    }
                }
                TableFormat::Json => {
                    bufs[out.file] = serde_json::to_string_pretty(&summary_json(sim))
                        .expect("json")
                        .into_bytes();
                }
            }
        }
        if let Some(out) = self.scenario {
            bufs[out.file] = serde_json::to_string_pretty(&sim.scenario().to_value())
                .expect("json")
                .into_bytes();
        }
        if self.format == TableFormat::Json {
            let tables = self
                .series
                .iter()
                .flatten()
                .chain(self.events.iter())
                .chain(self.queues.iter().map(|(o, _)| o));
            let tables = tables
                .chain(self.validation.iter().flatten())
                .chain(self.recovery.iter().flatten())
                .chain(self.writes.iter().flatten())
                .chain(self.transfers.iter().flatten())
                .chain(self.pings.iter().flatten())
                .chain(self.qdisc.iter())
                .chain(self.throughput.iter())
                .chain(self.rounds.iter().flatten().map(|(o, _)| o));
            let files: Vec<usize> = tables.map(|o| o.file).collect();
            for f in files {
                bufs[f].extend_from_slice(b"\n]}\n");
            }
        }
    }
}

/// The summary's rows as text cells, in [`SUMMARY_FILE_COLUMNS`] order (what `run --format
/// csv` prints and summary.csv holds).
pub fn summary_rows(s: &Summary) -> Vec<Vec<String>> {
    s.flows
        .iter()
        .map(|f| {
            vec![
                f.flow.to_string(),
                f.algorithm.to_string(),
                f.variant.to_string(),
                format!("{:.1}", f.goodput_bps),
                format!("{:.1}", f.throughput_bps),
                f.delivered_bytes.to_string(),
                f.data_packets_sent.to_string(),
                f.retransmits.to_string(),
                f.timeouts.to_string(),
                f.fast_retransmits.to_string(),
                f.partial_acks.to_string(),
                format!("{:.1}", f.mean_cwnd_bytes),
                format!("{:.4}", f.cwnd_cv),
                f.max_burst_packets.to_string(),
                f.window_decays.to_string(),
                f.drops.queue.to_string(),
                f.drops.error.to_string(),
                f.drops.scripted.to_string(),
                f.drops.ce_marks.to_string(),
                ms(f.qdelay_mean_ms),
                ms(f.qdelay_p95_ms),
                ms(f.rtt_mean_ms),
                ms(f.rtt_p95_ms),
                f.transfers.as_ref().map_or(String::new(), |t| t.completed.to_string()),
                secs(f.transfers.as_ref().and_then(|t| t.mean_s)),
                secs(f.transfers.as_ref().and_then(|t| t.p50_s)),
                secs(f.transfers.as_ref().and_then(|t| t.p90_s)),
                secs(f.transfers.as_ref().and_then(|t| t.p99_s)),
            ]
        })
        .collect()
}

/// A delay in ms to the µs, or an empty cell when there is none.
fn ms(v: Option<f64>) -> String {
    v.map_or(String::new(), |v| format!("{v:.3}"))
}

/// A time in s to the µs, or an empty cell when there is none.
fn secs(v: Option<f64>) -> String {
    v.map_or(String::new(), |v| format!("{v:.6}"))
}

/// The summary as CSV text, header included, without a final newline (`run --format csv`).
pub fn summary_csv(s: &Summary) -> String {
    let mut out = SUMMARY_FILE_COLUMNS.join(",");
    for row in summary_rows(s) {
        out.push('\n');
        out.push_str(&row.join(","));
    }
    out
}

/// The summary JSON of a finished run, with its resolved scenario (`run`'s output and
/// summary.json).
pub fn summary_json(sim: &Simulation) -> serde_json::Value {
    summary_value(&sim.summary(), sim.scenario())
}

/// [`summary_json`] from a summary already made.
pub fn summary_value(s: &Summary, scenario: &crate::scenario::Scenario) -> serde_json::Value {
    let mut json = serde_json::to_value(s).expect("json");
    json["scenario"] = scenario.to_value();
    json
}
