//! What `run` writes besides its summary: with `--out DIR` the trace tables as CSV files,
//! with `--pcap FILE` a packet capture, with `--qlog FILE` one flow's qlog. The bytes are
//! made by the engine's exporters (`cwndlab_core::export`, which the page uses too); this
//! module only puts them in files, slice by slice, through bounded buffers, so memory does
//! not grow with simulated time.

use cwndlab_core::export::tables::TableWriter;
use cwndlab_core::export::{pcap::PcapWriter, FileInfo, Table, TableFormat};
use cwndlab_core::sim::Simulation;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Buffer of each file.
const BUF: usize = 1 << 16;

/// The tables `--out` writes (the summary and scenario go as JSON beside them).
pub const OUT_TABLES: [Table; 7] = [
    Table::Series,
    Table::Events,
    Table::Queues,
    Table::Validation,
    Table::Writes,
    Table::Throughput,
    Table::Rounds,
];

/// The trace files of `--out DIR`, open for appending.
pub struct TraceFiles {
    dir: PathBuf,
    writer: TableWriter,
    bufs: Vec<Vec<u8>>,
    files: Vec<BufWriter<File>>,
}

impl TraceFiles {
    /// Creates the directory and every file with its header.
    pub fn create(dir: &Path, sim: &Simulation) -> std::io::Result<TraceFiles> {
        std::fs::create_dir_all(dir)?;
        let mut bufs = Vec::new();
        let writer = TableWriter::new(sim, TableFormat::Csv, &OUT_TABLES, &mut bufs);
        let files = writer
            .files
            .iter()
            .map(|f: &FileInfo| File::create(dir.join(&f.name)).map(|f| BufWriter::with_capacity(BUF, f)))
            .collect::<std::io::Result<_>>()?;
        let mut t = TraceFiles {
            dir: dir.to_path_buf(),
            writer,
            bufs,
            files,
        };
        t.flush_bufs()?;
        Ok(t)
    }

    fn flush_bufs(&mut self) -> std::io::Result<()> {
        for (w, b) in self.files.iter_mut().zip(self.bufs.iter_mut()) {
            w.write_all(b)?;
            b.clear();
        }
        Ok(())
    }

    /// Appends the rows the simulation made since the last call.
    pub fn append(&mut self, sim: &mut Simulation) -> std::io::Result<()> {
        let rows = sim.take_rows();
        self.writer.append(&rows, &mut self.bufs);
        self.flush_bufs()
    }

    /// Flushes every file and writes summary.json (`summary`: `run`'s JSON) and
    /// scenario.json.
    pub fn finish(mut self, sim: &Simulation, summary: &serde_json::Value) -> std::io::Result<()> {
        self.writer.finish(sim, &mut self.bufs);
        self.flush_bufs()?;
        for w in self.files.iter_mut() {
            w.flush()?;
        }
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

/// The capture file of `--pcap FILE`, open for appending.
pub struct PcapFile {
    writer: PcapWriter,
    file: BufWriter<File>,
    buf: Vec<u8>,
}

impl PcapFile {
    /// Creates the file and writes its header.
    pub fn create(path: &Path, sim: &Simulation, snaplen: u32) -> std::io::Result<PcapFile> {
        let writer = PcapWriter::new(sim.scenario(), snaplen);
        let mut file = BufWriter::with_capacity(BUF, File::create(path)?);
        let mut buf = Vec::new();
        writer.header(&mut buf);
        file.write_all(&buf)?;
        buf.clear();
        Ok(PcapFile { writer, file, buf })
    }

    /// Appends the packets captured up to `until`.
    pub fn append(&mut self, sim: &mut Simulation, until: u64) -> std::io::Result<()> {
        let records = sim.take_captured(until);
        self.writer.write(&records, &mut self.buf);
        self.file.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }

    /// Writes the rest and flushes; returns the packets written.
    pub fn finish(mut self, sim: &mut Simulation) -> std::io::Result<u64> {
        self.append(sim, u64::MAX)?;
        self.file.flush()?;
        Ok(self.writer.packets)
    }
}
