//! What `run` writes besides its summary: with `--out DIR` the trace tables as CSV files,
//! with `--pcap FILE` a packet capture, with `--qlog FILE` one flow's qlog; and the file of
//! `sweep --out` / `sweep-merge --out`. The bytes are made by the engine's exporters
//! (`cwndlab_core::export`, which the page uses too); this module only puts them in files,
//! slice by slice, through bounded buffers, so memory does not grow with simulated time.
//!
//! **No half-written output.** Every file is written to a temporary file beside its final
//! path (`.NAME.cwndlab-tmp-PID`, in the same directory, so the rename cannot cross file
//! systems), flushed, and renamed into place only when the whole command's work is done
//! ([`Outputs::commit`]). A temporary file that is not committed is removed when its
//! [`OutFile`] is dropped (an error, Ctrl-C), or by the panic hook ([`remove_temps`]). Only
//! SIGKILL can leave one behind; its name says what it is.
//!
//! Files are not fsynced: the rename protects against everything that can happen to the
//! process (Ctrl-C, SIGTERM, a failed write, a bug), which is what this is for. Syncing would
//! also guard against a power cut in the seconds after a run, at a measured cost of 50–90 %
//! more wall time for a run writing 330 MB (`--out` and `--pcap`, NetSim 2 000 s: 4.7–5.2 s
//! without, 7.8–9.5 s with `sync_data`), since the run would wait for the disk. Run `sync`
//! after the run if that matters.
//!
//! A path that exists and is not a regular file (`/dev/null`, `/dev/stdout`, a FIFO) cannot
//! be replaced by a rename: it is written directly, as the data comes.

use cwndlab_core::export::tables::TableWriter;
use cwndlab_core::export::{pcap::PcapWriter, FileInfo, Table, TableFormat};
use cwndlab_core::sim::Simulation;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Buffer of each file.
const BUF: usize = 1 << 16;

/// The tables `--out` writes (the summary and scenario go as JSON beside them).
pub const OUT_TABLES: [Table; 11] = [
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
];

/// Temporary files not yet committed nor removed, for the panic hook.
static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes every temporary file still open (the panic hook calls this before exiting).
pub fn remove_temps() {
    if let Ok(mut t) = TEMPS.try_lock() {
        for p in t.drain(..) {
            let _ = std::fs::remove_file(p);
        }
    }
}

fn forget_temp(p: &Path) {
    if let Ok(mut t) = TEMPS.lock() {
        t.retain(|q| q != p);
    }
}

/// What failed, on which file.
#[derive(Debug)]
pub struct OutError {
    /// The file as the user named it (or a file inside `--out DIR`).
    pub path: PathBuf,
    /// What was being done: "create", "write", "rename into place".
    pub doing: &'static str,
    /// The system's error.
    pub err: io::Error,
}

impl OutError {
    fn new(path: &Path, doing: &'static str) -> impl FnOnce(io::Error) -> OutError {
        let path = path.to_path_buf();
        move |err| OutError { path, doing, err }
    }

    /// The message: the file, what failed, what it means and what to do.
    pub fn describe(&self) -> String {
        let hint = hint(&self.err);
        format!(
            "cannot {} {}: {}{}{hint}",
            self.doing,
            self.path.display(),
            self.err,
            if hint.is_empty() { "" } else { ": " }
        )
    }
}

/// What an error means for the user and what to do, from its errno (Unix).
fn hint(e: &io::Error) -> String {
    #[cfg(unix)]
    if let Some(code) = e.raw_os_error() {
        let text = match code {
            libc::ENOSPC => "the disk is full; free some space or write to another disk",
            libc::EDQUOT => "the disk quota is used up; free some space or write elsewhere",
            libc::EFBIG if crate::interrupt::file_size_limit_hit() => {
                "the file reached this process's file size limit (ulimit -f); raise it \
                 (ulimit -f unlimited) or make the output smaller (a shorter --duration)"
            }
            libc::EFBIG => {
                "the file is larger than this file system allows; write to another file \
                 system or make the output smaller (a shorter --duration)"
            }
            libc::EACCES | libc::EPERM => "no permission to write there; choose another place",
            libc::EROFS => "the file system is read-only; choose another place",
            libc::ENOENT => "a directory on the path does not exist",
            libc::ENOTDIR => "a part of the path is a file, not a directory",
            libc::EISDIR => "that is a directory; give a file name",
            libc::ENAMETOOLONG => "the name is too long; choose a shorter one",
            libc::EEXIST => "a file of that name is in the way",
            _ => "",
        };
        return text.to_string();
    }
    let _ = e;
    String::new()
}

/// Bytes free to an unprivileged user on the file system holding `path` (or its nearest
/// existing ancestor); None where that cannot be found out.
pub fn free_bytes(path: &Path) -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let abs = std::path::absolute(path).ok()?;
        let existing = abs.ancestors().find(|a| a.exists())?;
        let c = std::ffi::CString::new(existing.as_os_str().as_bytes()).ok()?;
        let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
        // SAFETY: `c` is a NUL-terminated path and `st` a writable statvfs.
        if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
            return None;
        }
        #[allow(clippy::unnecessary_cast)]
        Some(st.f_bavail as u64 * st.f_frsize as u64)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// One output file: a temporary file until [`OutFile::finish`] and [`Outputs::commit`], or a
/// non-regular file written directly.
pub struct OutFile {
    /// The path as given.
    path: PathBuf,
    /// Where the rename goes: `path`, or its target if it is a symbolic link.
    target: PathBuf,
    /// The temporary file; None when writing directly, or once renamed.
    tmp: Option<PathBuf>,
    file: BufWriter<File>,
}

impl OutFile {
    /// Opens a temporary file beside `path` (or `path` itself if it is a device, FIFO, …).
    pub fn create(path: &Path) -> Result<OutFile, OutError> {
        let meta = std::fs::metadata(path).ok();
        if meta.as_ref().is_some_and(|m| !m.is_file() && !m.is_dir()) {
            let f = File::create(path).map_err(OutError::new(path, "open"))?;
            return Ok(OutFile {
                path: path.to_path_buf(),
                target: path.to_path_buf(),
                tmp: None,
                file: BufWriter::with_capacity(BUF, f),
            });
        }
        if meta.as_ref().is_some_and(|m| m.is_dir()) {
            return Err(OutError::new(path, "write")(io::Error::other(
                "it is a directory; give a file name",
            )));
        }
        // A symbolic link stays one: the file it points to is replaced.
        let target = match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
            _ => path.to_path_buf(),
        };
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        // Within the usual 255-byte limit on a name, whatever the final name's length.
        let mut short: String = name.chars().take(180).collect();
        while short.len() > 180 {
            short.pop();
        }
        let tmp = target.with_file_name(format!(".{short}.cwndlab-tmp-{}", std::process::id()));
        if let Ok(mut t) = TEMPS.lock() {
            t.push(tmp.clone());
        }
        let f = match File::create(&tmp) {
            Ok(f) => f,
            Err(e) => {
                forget_temp(&tmp);
                return Err(OutError::new(path, "create")(e));
            }
        };
        // A file that is replaced keeps its permissions.
        if let Some(m) = &meta {
            let _ = f.set_permissions(m.permissions());
        }
        Ok(OutFile {
            path: path.to_path_buf(),
            target,
            tmp: Some(tmp),
            file: BufWriter::with_capacity(BUF, f),
        })
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// True when the file is written directly (not a regular file: /dev/null, a FIFO, …).
    pub fn is_direct(&self) -> bool {
        self.tmp.is_none()
    }

    /// Appends bytes.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), OutError> {
        self.file.write_all(bytes).map_err(OutError::new(&self.path, "write"))
    }

    /// Flushes the buffer: after this only the rename is left (not synced: see the module's
    /// notes).
    pub fn finish(&mut self) -> Result<(), OutError> {
        self.file.flush().map_err(OutError::new(&self.path, "write"))
    }
}

impl Drop for OutFile {
    fn drop(&mut self) {
        if let Some(tmp) = self.tmp.take() {
            let _ = std::fs::remove_file(&tmp);
            forget_temp(&tmp);
        }
    }
}

/// The finished files of a command and the directories it made for them: renamed into place
/// together by [`Outputs::commit`]; if dropped before that (an error, Ctrl-C), the temporary
/// files are removed, and then the directories made for them if they are empty.
#[derive(Default)]
pub struct Outputs {
    files: Vec<OutFile>,
    dirs: Vec<PathBuf>,
}

impl Outputs {
    /// Adds a finished file.
    pub fn push(&mut self, f: OutFile) {
        self.files.push(f);
    }

    /// Renames every file into place, in order. If one rename fails, the files not yet
    /// renamed are removed and the error says how many were already in place.
    pub fn commit(mut self) -> Result<(), (OutError, usize)> {
        self.dirs.clear();
        for (done, mut f) in std::mem::take(&mut self.files).into_iter().enumerate() {
            if let Some(tmp) = f.tmp.take() {
                if let Err(e) = std::fs::rename(&tmp, &f.target) {
                    let _ = std::fs::remove_file(&tmp);
                    forget_temp(&tmp);
                    return Err((OutError::new(&f.path, "rename into place")(e), done));
                }
                forget_temp(&tmp);
            }
        }
        Ok(())
    }
}

impl Drop for Outputs {
    fn drop(&mut self) {
        self.files.clear();
        for d in &self.dirs {
            let _ = std::fs::remove_dir(d);
        }
    }
}

/// Writes `bytes` to `path` atomically: a temporary file, renamed when complete.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), OutError> {
    let mut f = OutFile::create(path)?;
    f.write(bytes)?;
    f.finish()?;
    let mut out = Outputs::default();
    out.push(f);
    out.commit().map_err(|(e, _)| e)
}

/// The trace files of `--out DIR`, open for appending (as temporary files in DIR).
pub struct TraceFiles {
    dir: PathBuf,
    writer: TableWriter,
    bufs: Vec<Vec<u8>>,
    /// The files so far and the directories made for them.
    out: Outputs,
}

impl TraceFiles {
    /// The names of the files `--out` writes for `sim`.
    pub fn names(sim: &Simulation) -> Vec<String> {
        let w = TableWriter::new(sim, TableFormat::Csv, &OUT_TABLES, &mut Vec::new());
        let mut names: Vec<String> = w.files.iter().map(|f| f.name.clone()).collect();
        names.extend(["summary.json".to_string(), "scenario.json".to_string()]);
        names
    }

    /// Creates the directory (if needed) and every file's temporary file with its header.
    pub fn create(dir: &Path, sim: &Simulation) -> Result<TraceFiles, OutError> {
        let mut bufs = Vec::new();
        let writer = TableWriter::new(sim, TableFormat::Csv, &OUT_TABLES, &mut bufs);
        let mut t = TraceFiles {
            dir: dir.to_path_buf(),
            writer,
            bufs,
            out: Outputs {
                files: Vec::new(),
                // Deepest first: removed in this order if the run does not finish.
                dirs: dir
                    .ancestors()
                    .filter(|a| !a.as_os_str().is_empty())
                    .take_while(|a| std::fs::symlink_metadata(a).is_err())
                    .map(Path::to_path_buf)
                    .collect(),
            },
        };
        std::fs::create_dir_all(dir).map_err(OutError::new(dir, "create the directory"))?;
        if !dir.is_dir() {
            return Err(OutError::new(dir, "write to")(io::Error::other(
                "it is not a directory",
            )));
        }
        for f in &t.writer.files {
            let f: &FileInfo = f;
            t.out.push(OutFile::create(&dir.join(&f.name))?);
        }
        t.flush_bufs()?;
        Ok(t)
    }

    fn flush_bufs(&mut self) -> Result<(), OutError> {
        for (w, b) in self.out.files.iter_mut().zip(self.bufs.iter_mut()) {
            w.write(b)?;
            b.clear();
        }
        Ok(())
    }

    /// Appends the rows the simulation made since the last call.
    pub fn append(&mut self, sim: &mut Simulation) -> Result<(), OutError> {
        let rows = sim.take_rows();
        self.writer.append(&rows, &mut self.bufs);
        self.flush_bufs()
    }

    /// Writes the last rows, summary.json (`summary`: `run`'s JSON) and scenario.json, and
    /// finishes every file: what is left is [`Outputs::commit`].
    pub fn finish(mut self, sim: &Simulation, summary: &serde_json::Value) -> Result<Outputs, OutError> {
        self.writer.finish(sim, &mut self.bufs);
        self.flush_bufs()?;
        let json = [
            ("summary.json", serde_json::to_string_pretty(summary).expect("json")),
            (
                "scenario.json",
                serde_json::to_string_pretty(&sim.scenario().to_value()).expect("json"),
            ),
        ];
        for (name, text) in json {
            let mut f = OutFile::create(&self.dir.join(name))?;
            f.write(text.as_bytes())?;
            self.out.push(f);
        }
        for f in self.out.files.iter_mut() {
            f.finish()?;
        }
        Ok(self.out)
    }
}

/// The capture file of `--pcap FILE`, open for appending.
pub struct PcapFile {
    writer: PcapWriter,
    file: OutFile,
    buf: Vec<u8>,
}

impl PcapFile {
    /// Creates the (temporary) file and writes its header.
    pub fn create(path: &Path, sim: &Simulation, snaplen: u32) -> Result<PcapFile, OutError> {
        let writer = PcapWriter::new(sim.scenario(), snaplen);
        let mut file = OutFile::create(path)?;
        let mut buf = Vec::new();
        writer.header(&mut buf);
        file.write(&buf)?;
        buf.clear();
        Ok(PcapFile { writer, file, buf })
    }

    /// The file.
    pub fn file(&self) -> &OutFile {
        &self.file
    }

    /// Appends the packets captured up to `until`.
    pub fn append(&mut self, sim: &mut Simulation, until: u64) -> Result<(), OutError> {
        let records = sim.take_captured(until);
        self.writer.write(&records, &mut self.buf);
        self.file.write(&self.buf)?;
        self.buf.clear();
        Ok(())
    }

    /// Writes the rest and finishes the file; returns it (for [`Outputs::commit`]) and the packets
    /// written.
    pub fn finish(mut self, sim: &mut Simulation) -> Result<(OutFile, u64), OutError> {
        self.append(sim, u64::MAX)?;
        self.file.finish()?;
        Ok((self.file, self.writer.packets))
    }
}
