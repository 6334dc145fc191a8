//! What `cwndlab` leaves on disk when a run is interrupted or a write fails, and what it says
//! about long runs, tested on the real binary with real signals and real OS failures:
//! Ctrl-C (SIGINT) and SIGTERM, a file size limit (`ulimit -f`, EFBIG) and a full device
//! (/dev/full, ENOSPC). No output file is ever half-written: either a run's files are all in
//! place, complete, or none is, and files from before are kept.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_cwndlab");

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A fresh, empty directory for one test.
fn fresh_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cwndlab-outputs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Every name under `dir` (recursively) that is a temporary file of cwndlab's.
fn temps(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(temps(&p));
        } else if e.file_name().to_string_lossy().contains("cwndlab-tmp") {
            out.push(p.display().to_string());
        }
    }
    out
}

/// A child process killed if the test ends early (a failed assertion).
struct Running(Option<Child>);

impl Running {
    fn spawn(cmd: &mut Command) -> Running {
        Running(Some(
            cmd.stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start cwndlab"),
        ))
    }

    fn signal(&self, sig: &str) {
        let pid = self.0.as_ref().unwrap().id().to_string();
        let ok = Command::new("kill").args([sig, &pid]).status().unwrap();
        assert!(ok.success(), "kill {sig} {pid}");
    }

    /// Waits at most `limit` for the process to end.
    fn wait(mut self, limit: Duration) -> Output {
        let start = Instant::now();
        let child = self.0.as_mut().unwrap();
        while child.try_wait().unwrap().is_none() {
            assert!(start.elapsed() < limit, "cwndlab did not stop within {limit:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
        self.0.take().unwrap().wait_with_output().unwrap()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(c) = self.0.as_mut() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Waits (at most 60 s) until `cond` holds.
fn wait_until(what: &str, cond: impl Fn() -> bool) {
    let start = Instant::now();
    while !cond() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A run far too long to finish during a test: 10⁵ s of the NetSim lab.
const LONG: &[&str] = &["run", "--preset", "netsim-newreno", "--duration", "100000"];

#[test]
fn ctrl_c_stops_a_run_exits_130_and_leaves_no_output() {
    let dir = fresh_dir("sigint");
    let out = dir.join("trace");
    let pcap = dir.join("run.pcap");
    let qlog = dir.join("run.qlog");
    // A capture from before: kept as it was, since the run does not finish.
    std::fs::write(&pcap, "the capture of an earlier run").unwrap();
    let run = Running::spawn(Command::new(BIN).args(LONG).args([
        "--out",
        out.to_str().unwrap(),
        "--pcap",
        pcap.to_str().unwrap(),
        "--qlog",
        qlog.to_str().unwrap(),
    ]));
    // The run is under way once its temporary files exist (one per table, the capture and
    // the qlog; a version writing in place makes the files themselves); give it a moment
    // more to be inside the simulation loop.
    wait_until("the run to start", || {
        temps(&dir).len() >= 5 || out.join("events.csv").exists()
    });
    std::thread::sleep(Duration::from_millis(300));
    run.signal("-INT");
    let o = run.wait(Duration::from_secs(30));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted (SIGINT, Ctrl-C) at "), "{err}");
    assert!(err.contains("no output was written"), "{err}");
    assert!(
        err.contains(pcap.to_str().unwrap()),
        "the message names the files kept: {err}"
    );
    assert!(stdout(&o).is_empty(), "no summary for an interrupted run");
    // The long run was announced with its time and size.
    assert!(err.contains("may simulate up to 167 million packets"), "{err}");
    assert!(err.contains("takes up to about"), "{err}");
    // Nothing new at the final paths, the old capture intact, no temporary file left, and
    // the directory the run created for --out removed again.
    assert!(!out.exists(), "--out DIR was made by this run: removed");
    assert!(!qlog.exists());
    assert_eq!(std::fs::read_to_string(&pcap).unwrap(), "the capture of an earlier run");
    assert_eq!(temps(&dir), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_interrupted_run_keeps_the_files_of_an_earlier_run_and_a_finished_one_replaces_them() {
    let dir = fresh_dir("replace");
    let out = dir.join("trace");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("events.csv"), "old events").unwrap();
    std::fs::write(out.join("notes.txt"), "the user's own file").unwrap();
    let pcap = dir.join("run.pcap");
    std::fs::write(&pcap, "old capture").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&pcap, std::fs::Permissions::from_mode(0o640)).unwrap();
    }
    // SIGTERM (a job scheduler's stop) mid-run: exit 143, the old files intact.
    let run = Running::spawn(Command::new(BIN).args(LONG).args([
        "--out",
        out.to_str().unwrap(),
        "--pcap",
        pcap.to_str().unwrap(),
    ]));
    wait_until("the run to start", || {
        temps(&dir).len() >= 4 || std::fs::read(out.join("events.csv")).is_ok_and(|b| b != b"old events")
    });
    std::thread::sleep(Duration::from_millis(300));
    run.signal("-TERM");
    let o = run.wait(Duration::from_secs(30));
    assert_eq!(o.status.code(), Some(143), "{}", stderr(&o));
    assert!(stderr(&o).contains("terminated (SIGTERM)"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(out.join("events.csv")).unwrap(), "old events");
    assert_eq!(std::fs::read_to_string(&pcap).unwrap(), "old capture");
    assert_eq!(temps(&dir), Vec::<String>::new());
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["events.csv", "notes.txt"], "the directory as it was");
    // The same outputs from a run that finishes: replaced, the capture keeping its mode;
    // the user's other file untouched.
    let o = Command::new(BIN)
        .args(["run", "--preset", "fall-floyd-newreno-2drops", "--out"])
        .arg(&out)
        .arg("--pcap")
        .arg(&pcap)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(out.join("events.csv"))
        .unwrap()
        .starts_with("time_s,flow,kind,seq,len,seg,tx\n"));
    assert_eq!(
        std::fs::read(&pcap).unwrap()[..4],
        [0x4d, 0x3c, 0xb2, 0xa1],
        "a pcap (ns)"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "the user's own file"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&pcap).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640, "a replaced file keeps its permissions");
    }
    assert_eq!(temps(&dir), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_file_size_limit_fails_the_run_naming_the_file_and_leaves_nothing() {
    // A real EFBIG: the shell's file size limit (512-byte blocks in sh: 64 KB at most per
    // file). Without SIGXFSZ caught, the kernel would kill cwndlab with its files half done.
    let dir = fresh_dir("efbig");
    let out = dir.join("trace");
    let pcap = dir.join("run.pcap");
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f 128 && exec '{BIN}' run --preset netsim-newreno --duration 20 --out '{}' --pcap '{}'",
            out.display(),
            pcap.display()
        ))
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot write "), "{err}");
    assert!(err.contains("File too large"), "{err}");
    assert!(err.contains("ulimit -f"), "says what to do: {err}");
    assert!(err.contains("No output of this run was kept"), "{err}");
    assert!(!err.contains("internal error"), "{err}");
    assert!(!out.exists() && !pcap.exists(), "no partial file: {err}");
    assert_eq!(temps(&dir), Vec::<String>::new());
    // The same for sweep --out and sweep-merge --out: an existing output stays as it was.
    let file = dir.join("sweep.csv");
    std::fs::write(&file, "old sweep").unwrap();
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f 1 && exec '{BIN}' sweep --preset netsim-newreno --duration 1 --param seed --range 1:40:40 --out '{}'",
            file.display()
        ))
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("cannot write {}: File too large", file.display())),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "old sweep");
    assert_eq!(temps(&dir), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_full_device_fails_the_run_naming_it_and_the_run_s_other_files_are_removed() {
    // /dev/full answers every write with ENOSPC. It is not a regular file, so it is written
    // directly (it cannot be replaced by a rename); the run's other files are temporary
    // files until the end and go away with the failure.
    let dir = fresh_dir("enospc");
    let out = dir.join("trace");
    let o = Command::new(BIN)
        .args([
            "run",
            "--preset",
            "netsim-newreno",
            "--duration",
            "20",
            "--pcap",
            "/dev/full",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(!out.exists(), "no trace files from a failed run: {err}");
    assert_eq!(temps(&dir), Vec::<String>::new());
    assert!(
        err.contains("--pcap: cannot write /dev/full: No space left on device"),
        "{err}"
    );
    assert!(err.contains("the disk is full"), "{err}");
    // A directory where a file is wanted, a file where a directory is wanted, a directory
    // that does not exist: each named, exit 1, nothing written.
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let cases: Vec<(Vec<String>, String)> = vec![
        (
            vec!["--pcap".into(), dir.display().to_string()],
            format!("--pcap: cannot write {}: it is a directory", dir.display()),
        ),
        (
            vec!["--out".into(), file.display().to_string()],
            format!("--out: cannot create the directory {}", file.display()),
        ),
        (
            vec!["--qlog".into(), dir.join("no/such/dir/q.qlog").display().to_string()],
            format!("--qlog: cannot create {}", dir.join("no/such/dir/q.qlog").display()),
        ),
    ];
    for (extra, needle) in cases {
        let o = Command::new(BIN)
            .args(["run", "--preset", "fall-floyd-reno-1drops"])
            .args(&extra)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{extra:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(&needle), "{extra:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty());
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
    assert_eq!(temps(&dir), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_finished_run_writes_complete_files_and_no_temporary_ones() {
    let dir = fresh_dir("complete");
    let out = dir.join("trace");
    let (pcap, qlog) = (dir.join("run.pcap"), dir.join("run.qlog"));
    let args = ["run", "--preset", "fall-floyd-newreno-2drops"];
    let o = Command::new(BIN)
        .args(args)
        .arg("--out")
        .arg(&out)
        .arg("--pcap")
        .arg(&pcap)
        .arg("--qlog")
        .arg(&qlog)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    // summary.json is what stdout printed; every other output is what the same option
    // writes alone, byte for byte.
    let printed: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(printed, saved);
    let alone = dir.join("alone");
    std::fs::create_dir_all(&alone).unwrap();
    for (opt, name) in [("--pcap", "run.pcap"), ("--qlog", "run.qlog")] {
        let o = Command::new(BIN)
            .args(args)
            .arg(opt)
            .arg(alone.join(name))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let a = std::fs::read(alone.join(name)).unwrap();
        assert!(a.len() > 1000, "{name}: {} bytes", a.len());
        assert_eq!(std::fs::read(dir.join(name)).unwrap(), a, "{name}");
    }
    // The events table holds every data packet sent, through its last line.
    let events = std::fs::read_to_string(out.join("events.csv")).unwrap();
    assert!(events.ends_with('\n'));
    let sends = events
        .lines()
        .filter(|l| l.contains(",data_send,") || l.contains(",retransmit,"))
        .count();
    assert_eq!(sends as u64, printed["flows"][0]["data_packets_sent"].as_u64().unwrap());
    assert_eq!(temps(&dir), Vec::<String>::new());
    // Special files are written directly: /dev/null takes a capture, and a short run says
    // nothing on stderr but what the capture needs.
    let o = Command::new(BIN)
        .args(args)
        .args(["--pcap", "/dev/null", "--qlog", "/dev/null"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&Command::new(BIN).args(args).output().unwrap()));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ctrl_c_stops_a_sweep_and_writes_nothing() {
    let dir = fresh_dir("sweep-int");
    let file = dir.join("sweep.csv");
    std::fs::write(&file, "old sweep").unwrap();
    let run = Running::spawn(Command::new(BIN).args([
        "sweep",
        "--preset",
        "netsim-newreno",
        "--duration",
        "100000",
        "--param",
        "seed",
        "--values",
        "1,2,3,4",
        "--jobs",
        "2",
        "--out",
        file.to_str().unwrap(),
    ]));
    std::thread::sleep(Duration::from_millis(1500));
    run.signal("-INT");
    let o = run.wait(Duration::from_secs(30));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(
        err.contains("interrupted (SIGINT, Ctrl-C) after 0 of 4 runs: no output was written"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "old sweep");
    assert_eq!(temps(&dir), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).ok();
}

/// Progress lines as a CI log gets them (stderr not a terminal), every 0.2 s instead of 10.
fn with_lines(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("CWNDLAB_PROGRESS_INTERVAL", "0.2")
        .output()
        .unwrap()
}

#[test]
fn a_long_run_prints_progress_lines_when_stderr_is_not_a_terminal() {
    let args = ["run", "--preset", "netsim-newreno", "--duration", "20000"];
    let o = with_lines(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("cwndlab: ")).collect();
    assert!(
        lines.len() >= 2,
        "a line every 0.2 s of a run of a second or more:\n{err}"
    );
    // "cwndlab: 35 % (7000 of 20000 s simulated), about 2 s left", then "done".
    let (last, steps) = lines.split_last().unwrap();
    for l in steps {
        let (pct, rest) = l["cwndlab: ".len()..].split_once(" % (").expect(l);
        assert!(pct.parse::<u32>().unwrap() <= 100, "{l}");
        assert!(rest.contains(" of 20000 s simulated), about "), "{l}");
        assert!(rest.ends_with(" s left") || rest.ends_with(" min left"), "{l}");
    }
    assert!(
        last.starts_with("cwndlab: done (20000 of 20000 s simulated) in "),
        "{last}"
    );
    // stdout is the summary alone, as with --quiet, which prints no line at all.
    let mut quiet = args.to_vec();
    quiet.push("--quiet");
    let q = with_lines(&quiet);
    assert_eq!(stdout(&q), stdout(&o));
    assert_eq!(stderr(&q), "");
    serde_json::from_str::<serde_json::Value>(&stdout(&o)).unwrap();
    // Without the test's interval (10 s), a short run prints nothing on stderr.
    let short = Command::new(BIN)
        .args(["run", "--preset", "netsim-newreno"])
        .output()
        .unwrap();
    assert_eq!(stderr(&short), "");
}

#[test]
fn a_long_sweep_prints_progress_lines_with_the_runs_done() {
    let o = with_lines(&[
        "sweep",
        "--preset",
        "netsim-newreno",
        "--duration",
        "2000",
        "--param",
        "seed",
        "--range",
        "1:8:8",
        "--jobs",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("cwndlab: ")).collect();
    assert!(lines.len() >= 2, "{err}");
    assert!(lines[0].contains(" of 8 runs done), about "), "{err}");
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("cwndlab: done (8 of 8 runs done) in "),
        "{err}"
    );
    assert!(stdout(&o).starts_with("kind,run,seed,"), "stdout is the CSV alone");
}

#[test]
fn two_outputs_naming_one_file_are_refused_before_the_run() {
    let dir = fresh_dir("same-file");
    let out = dir.join("trace");
    let o = Command::new(BIN)
        .args(["run", "--preset", "fall-floyd-reno-1drops", "--out"])
        .arg(&out)
        .arg("--pcap")
        .arg(out.join("events.csv"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("(its events.csv) writes that file too"),
        "{}",
        stderr(&o)
    );
    let x = dir.join("x");
    let o = Command::new(BIN)
        .args(["run", "--preset", "fall-floyd-reno-1drops", "--pcap"])
        .arg(&x)
        .arg("--qlog")
        .arg(dir.join(".").join("x"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("writes that file too"), "{}", stderr(&o));
    assert!(!out.exists() && !x.exists());
    assert_eq!(temps(&dir), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).ok();
}
