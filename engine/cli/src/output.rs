//! What `run` writes: the summary (JSON or CSV) and, with `--out DIR`, the trace as CSV files
//! written as the run goes (rows are taken out of the simulation slice by slice and
//! appended through bounded buffers, so memory does not grow with simulated time).

use cwndlab_core::sim::{Simulation, TakenRows};
use cwndlab_core::tcp::cc::Phase;
use cwndlab_core::time::ns_to_secs;
use cwndlab_core::trace::EventKind;
use cwndlab_core::Summary;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Buffer of each CSV file.
const BUF: usize = 1 << 16;

/// The summary as CSV: one row per flow.
pub fn summary_csv(s: &Summary) -> String {
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

/// A file name from a link name: `bottleneck (ACK direction)` → `bottleneck_ack_direction`.
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

fn opt_secs(ns: u64) -> String {
    if ns == u64::MAX {
        String::new()
    } else {
        ns_to_secs(ns).to_string()
    }
}

/// The trace files of `--out DIR`, open for appending.
pub struct TraceFiles {
    dir: PathBuf,
    series: Vec<BufWriter<File>>,
    events: BufWriter<File>,
    queues: Vec<BufWriter<File>>,
    validation: Vec<Option<BufWriter<File>>>,
    throughput: BufWriter<File>,
    writes: Vec<Option<BufWriter<File>>>,
    /// Class names of the throughput table ("flow 0", "cross 0", …).
    classes: Vec<String>,
}

fn create(path: &Path, header: &str) -> std::io::Result<BufWriter<File>> {
    let mut w = BufWriter::with_capacity(BUF, File::create(path)?);
    w.write_all(header.as_bytes())?;
    Ok(w)
}

impl TraceFiles {
    /// Creates the directory and every file with its header.
    pub fn create(dir: &Path, sim: &Simulation) -> std::io::Result<TraceFiles> {
        std::fs::create_dir_all(dir)?;
        let series = (0..sim.flow_count())
            .map(|i| {
                create(
                    &dir.join(format!("series_flow{i}.csv")),
                    "time_s,cwnd_bytes,inflated_bytes,ssthresh_bytes,flight_bytes,srtt_s,rttvar_s,rto_s,phase\n",
                )
            })
            .collect::<std::io::Result<_>>()?;
        let events = create(&dir.join("events.csv"), "time_s,flow,kind,seq,len,seg,tx\n")?;
        let queues = sim
            .queues()
            .iter()
            .map(|(name, _)| create(&dir.join(format!("queue_{}.csv", slug(name))), "time_s,packets,bytes\n"))
            .collect::<std::io::Result<_>>()?;
        let validation = (0..sim.flow_count())
            .map(|i| {
                sim.validation_series(i)
                    .map(|_| {
                        create(
                            &dir.join(format!("validation_flow{i}.csv")),
                            "time_s,t_last_s,t_prev_s,w_used_bytes,pipeack_bytes,nvp\n",
                        )
                    })
                    .transpose()
            })
            .collect::<std::io::Result<_>>()?;
        let writes = (0..sim.flow_count())
            .map(|i| {
                sim.writes(i)
                    .map(|_| {
                        create(
                            &dir.join(format!("writes_flow{i}.csv")),
                            "written_s,bytes,sojourn_s,latency_s\n",
                        )
                    })
                    .transpose()
            })
            .collect::<std::io::Result<_>>()?;
        let throughput = create(
            &dir.join("throughput.csv"),
            "bin_start_s,class,bottleneck_bytes,delivered_bytes\n",
        )?;
        Ok(TraceFiles {
            dir: dir.to_path_buf(),
            series,
            events,
            queues,
            validation,
            throughput,
            writes,
            classes: sim.throughput_classes(),
        })
    }

    /// Appends rows taken out of the simulation.
    pub fn append(&mut self, rows: &TakenRows) -> std::io::Result<()> {
        for (w, rows) in self.series.iter_mut().zip(&rows.series) {
            for &(t, r) in rows {
                let ssthresh = if r.ssthresh == u64::MAX {
                    "inf".to_string()
                } else {
                    r.ssthresh.to_string()
                };
                writeln!(
                    w,
                    "{},{},{},{},{},{},{},{},{}",
                    ns_to_secs(t),
                    r.cwnd,
                    r.inflated,
                    ssthresh,
                    r.flight,
                    ns_to_secs(r.srtt),
                    ns_to_secs(r.rttvar),
                    ns_to_secs(r.rto),
                    Phase::ALL.get(r.phase as usize).map_or("?", |p| p.name())
                )?;
            }
        }
        for r in &rows.events {
            let kind = EventKind::ALL.get(r.kind as usize).map_or("?", |k| k.name());
            writeln!(
                self.events,
                "{},{},{},{},{},{},{}",
                ns_to_secs(r.t),
                r.flow,
                kind,
                r.seq,
                r.len,
                r.seg,
                r.tx
            )?;
        }
        for (w, rows) in self.queues.iter_mut().zip(&rows.queues) {
            for &(t, p, b) in rows {
                writeln!(w, "{},{},{}", ns_to_secs(t), p, b)?;
            }
        }
        for (w, rows) in self.writes.iter_mut().zip(&rows.writes) {
            if let (Some(w), Some(rows)) = (w.as_mut(), rows) {
                for &(t, bytes, sojourn, latency) in rows {
                    writeln!(
                        w,
                        "{},{},{},{}",
                        ns_to_secs(t),
                        bytes,
                        ns_to_secs(sojourn),
                        ns_to_secs(latency)
                    )?;
                }
            }
        }
        for &(t, c, b, d) in &rows.throughput {
            let class = self.classes.get(c as usize).map_or("?", String::as_str);
            writeln!(self.throughput, "{},{},{},{}", ns_to_secs(t), class, b, d)?;
        }
        for (w, rows) in self.validation.iter_mut().zip(&rows.validation) {
            if let (Some(w), Some(rows)) = (w.as_mut(), rows) {
                for &(t, r) in rows {
                    let pipeack = if r.pipeack == u64::MAX {
                        String::new()
                    } else {
                        r.pipeack.to_string()
                    };
                    writeln!(
                        w,
                        "{},{},{},{},{},{}",
                        ns_to_secs(t),
                        opt_secs(r.t_last),
                        opt_secs(r.t_prev),
                        r.w_used,
                        pipeack,
                        r.nvp
                    )?;
                }
            }
        }
        Ok(())
    }

    /// Flushes every file and writes summary.json and scenario.json.
    pub fn finish(mut self, sim: &Simulation, summary: &serde_json::Value) -> std::io::Result<()> {
        for w in self
            .series
            .iter_mut()
            .chain(self.queues.iter_mut())
            .chain(self.validation.iter_mut().flatten())
            .chain(self.writes.iter_mut().flatten())
        {
            w.flush()?;
        }
        self.events.flush()?;
        self.throughput.flush()?;
        std::fs::write(
            self.dir.join("summary.json"),
            serde_json::to_string_pretty(summary).expect("json"),
        )?;
        std::fs::write(
            self.dir.join("scenario.json"),
            serde_json::to_string_pretty(&sim.scenario().to_value()).expect("json"),
        )?;
        Ok(())
    }
}
