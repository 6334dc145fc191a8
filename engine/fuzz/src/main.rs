//! cwndlab-fuzz: draws scenarios from the engine's parameter table, runs each under an event
//! budget and checks the engine's invariants (see the library's doc).
//!
//! ```text
//! cwndlab-fuzz [--cases N] [--seed S] [--threads T] [--budget EVENTS] [--failures DIR] [--hang SECONDS]
//! cwndlab-fuzz --replay FILE [--budget EVENTS]
//! cwndlab-fuzz --emit N FILE [--seed S] [--budget EVENTS]
//! ```
//!
//! Cases run in worker processes (`--worker FROM TO`, one per thread, 20 000 cases each)
//! under `ulimit -v` (6 GiB): a case that runs longer than `--hang` seconds is killed, one
//! that exhausts memory or aborts ends its worker; either is reported with its scenario
//! and a new worker goes on with the next case. Hangs and crashes in the class of a known
//! engine issue (`cwndlab_fuzz::known_issue`) are counted apart, not as failures.
//!
//! A failure is written to DIR as `seed<S>-case<I>.json` (the scenario, a plain scenario
//! file: `cwndlab run` and `cwndlab-fuzz --replay` take it) and `.txt` (what failed).
//! `--emit` writes N accepted scenarios that finish within the budget, one JSON line each
//! with its native trace and decisions digests (engine/wasm/tests/fuzz-determinism.mjs
//! runs them in the wasm builds).

use cwndlab_core::{Scenario, Simulation};
use cwndlab_fuzz::{case_doc, quiet_panics, run_case, run_doc, Config, Tally};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

struct Args {
    cases: u64,
    seed: u64,
    threads: usize,
    budget: u64,
    failures: PathBuf,
    hang: u64,
    replay: Option<PathBuf>,
    emit: Option<(u64, PathBuf)>,
    worker: Option<(u64, u64)>,
    quiet: bool,
}

const USAGE: &str = "usage: cwndlab-fuzz [--cases N] [--seed S] [--threads T] [--budget EVENTS] [--failures DIR] [--hang SECONDS] [--quiet]
       cwndlab-fuzz --replay FILE [--budget EVENTS]
       cwndlab-fuzz --emit N FILE [--seed S] [--budget EVENTS]";

fn parse() -> Result<Args, String> {
    let mut a = Args {
        cases: 10_000,
        seed: 1,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        budget: 2_000,
        failures: PathBuf::from("fuzz-failures"),
        hang: 10,
        replay: None,
        emit: None,
        worker: None,
        quiet: false,
    };
    let mut it = std::env::args().skip(1);
    let num = |v: Option<String>, name: &str| -> Result<u64, String> {
        let v = v.ok_or(format!("{name} needs a value"))?;
        v.replace('_', "")
            .parse()
            .map_err(|_| format!("{name}: `{v}` is not a whole number"))
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--cases" => a.cases = num(it.next(), "--cases")?,
            "--seed" => a.seed = num(it.next(), "--seed")?,
            "--threads" => a.threads = num(it.next(), "--threads")?.max(1) as usize,
            "--budget" => a.budget = num(it.next(), "--budget")?.max(1),
            "--hang" => a.hang = num(it.next(), "--hang")?.max(1),
            "--failures" => a.failures = it.next().ok_or("--failures needs a folder")?.into(),
            "--replay" => a.replay = Some(it.next().ok_or("--replay needs a file")?.into()),
            "--emit" => {
                let n = num(it.next(), "--emit")?;
                a.emit = Some((n, it.next().ok_or("--emit needs N and a file")?.into()));
            }
            "--worker" => {
                let from = num(it.next(), "--worker")?;
                a.worker = Some((from, num(it.next(), "--worker")?));
            }
            "--quiet" | "-q" => a.quiet = true,
            "--help" | "-h" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            _ => return Err(format!("unknown argument `{arg}`\n{USAGE}")),
        }
    }
    Ok(a)
}

fn main() {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    quiet_panics();
    let code = if let Some((from, to)) = args.worker {
        worker(&args, from, to)
    } else if let Some(file) = &args.replay {
        replay(file, args.budget)
    } else if let Some((n, file)) = &args.emit {
        emit(*n, file, args.seed, args.budget)
    } else {
        campaign(&args)
    };
    std::process::exit(code);
}

/// Re-checks one scenario file, plainly and explained.
fn replay(file: &Path, budget: u64) -> i32 {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            return 2;
        }
    };
    let doc: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("{}: not JSON: {e}", file.display());
            return 2;
        }
    };
    if let Some(known) = Scenario::from_value(&doc)
        .ok()
        .as_ref()
        .and_then(cwndlab_fuzz::known_issue)
    {
        println!("{}: in the class of {known}", file.display());
    }
    let cfg = Config { budget };
    let mut code = 0;
    // Salts as `run_doc` reads them: 0 plain, 3 explained, 5 also run whole against sliced.
    for (label, salt) in [("plain", 0), ("explained", 3), ("whole against sliced", 5)] {
        let o = run_doc(&doc, &[], false, salt, &cfg);
        let state = if o.refused {
            "refused by the validation".to_string()
        } else {
            format!(
                "{} flows, {} events, {}",
                o.flows,
                o.events,
                if o.finished {
                    "finished"
                } else {
                    "stopped by the budget"
                }
            )
        };
        match &o.failure {
            None => println!("{} ({label}): ok — {state}", file.display()),
            Some(f) => {
                println!("{} ({label}): FAILED — {state}\n  {f}", file.display());
                code = 1;
            }
        }
    }
    code
}

/// Writes `n` accepted scenarios that finish within the budget, with their digests.
fn emit(n: u64, file: &Path, seed: u64, budget: u64) -> i32 {
    let started = Instant::now();
    let mut out = Vec::new();
    let (mut case, mut tried) = (0u64, 0u64);
    while (out.len() as u64) < n && tried < n * 1000 {
        let doc = case_doc(seed, case);
        case += 1;
        tried += 1;
        let Ok(s) = Scenario::from_value(&doc) else {
            continue;
        };
        // A case in a known issue's class may not be bounded by the budget (one event can
        // take all memory): left out here, where cases run in this process.
        if cwndlab_fuzz::known_issue(&s).is_some() {
            continue;
        }
        let mut sim = Simulation::new(&s);
        if !sim.run_events(budget) {
            continue;
        }
        let mut why = Simulation::new(&s).explained();
        why.run_to_end();
        out.push(serde_json::json!({
            "seed": seed,
            "case": case - 1,
            "events": sim.events_processed(),
            "digest": format!("{:016x}", sim.digest()),
            "decisions": format!("{:016x}", why.decisions_digest()),
            "decisions_len": why.decisions().len(),
            "scenario": doc,
        }));
    }
    let mut text = String::new();
    for line in &out {
        text.push_str(&line.to_string());
        text.push('\n');
    }
    if let Err(e) = std::fs::write(file, text) {
        eprintln!("{}: {e}", file.display());
        return 2;
    }
    eprintln!(
        "cwndlab-fuzz: {} scenarios that finish within {budget} events (of {tried} cases of seed {seed}) → {} in {:.1} s",
        out.len(),
        file.display(),
        started.elapsed().as_secs_f64()
    );
    if (out.len() as u64) < n {
        1
    } else {
        0
    }
}

/// Most failure files written per campaign (every failure is counted).
const MAX_FILES: u64 = 200;

/// Cases a worker process runs before the next one starts.
const CHUNK: u64 = 20_000;

/// Memory a worker process may map (`ulimit -v`, KiB): a case that needs more is reported
/// as a crash instead of taking the machine down.
const WORKER_MEMORY_KIB: u64 = 6 << 20;

/// A worker process: runs cases `from..to` of the seed, one line per case on stdout
/// (`c CASE` as it starts, then `o CASE …` with its outcome, `f CASE MESSAGE` if it
/// failed). The campaign reads these lines, so that a case that hangs, runs out of memory
/// or aborts is known by its number and the campaign goes on with the next.
fn worker(args: &Args, from: u64, to: u64) -> i32 {
    let cfg = Config { budget: args.budget };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for case in from..to {
        let _ = writeln!(out, "c {case}");
        let _ = out.flush();
        let o = run_case(args.seed, case, &cfg);
        let _ = writeln!(
            out,
            "o {case} {} {} {} {} {} {} {} {}",
            o.refused as u8,
            o.repaired as u8,
            o.poisoned as u8,
            o.finished as u8,
            o.budget_hit as u8,
            o.events,
            o.flows,
            if o.algorithms.is_empty() {
                "-".into()
            } else {
                o.algorithms.join(",")
            }
        );
        if let Some(f) = &o.failure {
            let _ = writeln!(out, "f {case} {}", serde_json::Value::String(f.clone()));
        }
    }
    let _ = out.flush();
    0
}

/// Reads an `o` line back into an outcome (the failure comes on its own line).
fn outcome(line: &str) -> Option<cwndlab_fuzz::Outcome> {
    let w: Vec<&str> = line.split(' ').collect();
    if w.len() != 10 {
        return None;
    }
    let b = |k: usize| w[k] == "1";
    Some(cwndlab_fuzz::Outcome {
        refused: b(2),
        repaired: b(3),
        poisoned: b(4),
        finished: b(5),
        budget_hit: b(6),
        events: w[7].parse().ok()?,
        flows: w[8].parse().ok()?,
        algorithms: if w[9] == "-" {
            vec![]
        } else {
            w[9].split(',').map(String::from).collect()
        },
        failure: None,
    })
}

struct Shared {
    tally: Mutex<Tally>,
    failures: Mutex<Vec<String>>,
    files: AtomicU64,
    hangs: AtomicU64,
    crashes: AtomicU64,
    known: AtomicU64,
    next_chunk: AtomicU64,
}

fn write_failure(args: &Args, case: u64, what: &str) -> String {
    let _ = std::fs::create_dir_all(&args.failures);
    let base = args.failures.join(format!("seed{}-case{case}", args.seed));
    let json = base.with_extension("json");
    let doc = case_doc(args.seed, case);
    let d = cwndlab_fuzz::draw::draw(args.seed, case);
    let _ = std::fs::write(&json, serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n");
    let _ = std::fs::write(
        base.with_extension("txt"),
        format!(
            "cwndlab-fuzz seed {} case {case} (budget {} events)\n{what}\npoisoned: {:?}\nreplay: cwndlab-fuzz --replay {} --budget {}\n   or: cwndlab run {}\n",
            args.seed,
            args.budget,
            d.poisoned,
            json.display(),
            args.budget,
            json.display()
        ),
    );
    json.display().to_string()
}

/// A hang or crash: a failure, or known (see `known_issue`) and counted as such.
fn report_stop(args: &Args, shared: &Shared, case: u64, what: &str) {
    match cwndlab_fuzz::known_for(args.seed, case) {
        Some(known) => {
            shared.known.fetch_add(1, Ordering::Relaxed);
            let n = shared.files.fetch_add(1, Ordering::Relaxed);
            let file = if n < MAX_FILES {
                write_failure(args, case, &format!("{what}\n{known}"))
            } else {
                "(not written)".into()
            };
            if !args.quiet {
                eprintln!("known: seed {} case {case}: {what} ({known}): {file}", args.seed);
            }
        }
        None => {
            shared.tally.lock().unwrap().failures += 1;
            report(args, shared, case, what);
        }
    }
}

fn report(args: &Args, shared: &Shared, case: u64, what: &str) {
    let file = if shared.files.fetch_add(1, Ordering::Relaxed) < MAX_FILES {
        write_failure(args, case, what)
    } else {
        "(not written: too many failures)".into()
    };
    let line = format!("FAIL seed {} case {case}: {what}\n  scenario: {file}", args.seed);
    eprintln!("{line}");
    shared.failures.lock().unwrap().push(line);
}

/// Runs cases `from..to` in worker processes, one after another, restarting after a case
/// that hangs or crashes its process.
fn supervise(args: &Args, shared: &Shared, mut from: u64, to: u64) {
    let exe = std::env::current_exe().expect("the driver's own path");
    while from < to {
        let mut child = match std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v {WORKER_MEMORY_KIB} 2>/dev/null; exec \"$0\" \"$@\""))
            .arg(&exe)
            .args(["--worker", &from.to_string(), &to.to_string()])
            .args(["--seed", &args.seed.to_string(), "--budget", &args.budget.to_string()])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
        {
            Ok(c) => c,
            Err(e) => {
                report(args, shared, from, &format!("cannot start a worker process: {e}"));
                return;
            }
        };
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        let err_text = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = std::io::Read::read_to_string(&mut std::io::BufReader::new(stderr), &mut s);
            s
        });
        // The case running and since when (ms since the epoch of `clock`), read by the
        // watchdog below.
        let clock = Instant::now();
        let current = std::sync::Arc::new((AtomicU64::new(u64::MAX), AtomicU64::new(0)));
        let reader = {
            let current = current.clone();
            std::thread::scope(|scope| {
                let h = scope.spawn(|| {
                    use std::io::BufRead;
                    let mut last_done = None;
                    for line in std::io::BufReader::new(stdout).lines() {
                        let Ok(line) = line else { break };
                        match line.as_bytes().first() {
                            Some(b'c') => {
                                current.1.store(clock.elapsed().as_millis() as u64, Ordering::Relaxed);
                                current
                                    .0
                                    .store(line[2..].parse().unwrap_or(u64::MAX), Ordering::Relaxed);
                            }
                            Some(b'o') => {
                                if let Some(o) = outcome(&line) {
                                    shared.tally.lock().unwrap().add(&o);
                                }
                                let case: u64 = line.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
                                last_done = Some(case);
                                current.0.store(u64::MAX, Ordering::Relaxed);
                            }
                            Some(b'f') => {
                                let mut w = line.splitn(3, ' ');
                                w.next();
                                let case: u64 = w.next().and_then(|c| c.parse().ok()).unwrap_or(0);
                                let msg: String = w
                                    .next()
                                    .and_then(|m| serde_json::from_str(m).ok())
                                    .unwrap_or_else(|| line.clone());
                                shared.tally.lock().unwrap().failures += 1;
                                report(args, shared, case, &msg);
                            }
                            _ => {}
                        }
                    }
                    last_done
                });
                // Watchdog: a case running longer than --hang seconds is killed.
                let mut killed = None;
                while !h.is_finished() {
                    std::thread::sleep(Duration::from_millis(100));
                    let c = current.0.load(Ordering::Relaxed);
                    let since = current.1.load(Ordering::Relaxed);
                    let took = (clock.elapsed().as_millis() as u64).saturating_sub(since);
                    if c != u64::MAX && killed.is_none() && took > args.hang * 1000 {
                        let _ = child.kill();
                        killed = Some((c, took));
                    }
                }
                (h.join().unwrap_or(None), killed)
            })
        };
        let status = child.wait();
        let err = err_text.join().unwrap_or_default();
        let (last_done, killed) = reader;
        let running = current.0.load(Ordering::Relaxed);
        let next = match (killed, running) {
            (Some((c, took)), _) => {
                shared.hangs.fetch_add(1, Ordering::Relaxed);
                shared.tally.lock().unwrap().cases += 1;
                report_stop(
                    args,
                    shared,
                    c,
                    &format!(
                        "hang: still running after {:.1} s (watchdog --hang {}); stopped",
                        took as f64 / 1000.0,
                        args.hang
                    ),
                );
                c + 1
            }
            (None, c) if c != u64::MAX => {
                shared.crashes.fetch_add(1, Ordering::Relaxed);
                shared.tally.lock().unwrap().cases += 1;
                // The first lines say why (an allocation refused, an abort); a backtrace follows.
                let head: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).take(2).collect();
                report_stop(
                    args,
                    shared,
                    c,
                    &format!(
                        "crash: the worker process ended ({}) during the case: {}",
                        status.map_or("unknown status".into(), |s| s.to_string()),
                        head.join(" | ")
                    ),
                );
                c + 1
            }
            _ => {
                let done = last_done.map_or(from, |c| c + 1);
                if done < to {
                    report(
                        args,
                        shared,
                        done,
                        &format!("the worker process stopped early: {}", err.trim()),
                    );
                    return;
                }
                done
            }
        };
        from = next;
    }
}

fn campaign(args: &Args) -> i32 {
    let started = Instant::now();
    let shared = Shared {
        tally: Mutex::new(Tally::default()),
        failures: Mutex::new(Vec::new()),
        files: AtomicU64::new(0),
        hangs: AtomicU64::new(0),
        crashes: AtomicU64::new(0),
        known: AtomicU64::new(0),
        next_chunk: AtomicU64::new(0),
    };
    let active = AtomicU64::new(args.threads as u64);
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| {
                loop {
                    let from = shared.next_chunk.fetch_add(CHUNK, Ordering::Relaxed);
                    if from >= args.cases {
                        break;
                    }
                    supervise(args, &shared, from, (from + CHUNK).min(args.cases));
                }
                active.fetch_sub(1, Ordering::Relaxed);
            });
        }
        scope.spawn(|| {
            let mut last = Instant::now();
            while active.load(Ordering::Relaxed) > 0 {
                std::thread::sleep(Duration::from_millis(200));
                if !args.quiet && last.elapsed() >= Duration::from_secs(10) {
                    last = Instant::now();
                    let t = shared.tally.lock().unwrap().clone();
                    let secs = started.elapsed().as_secs_f64();
                    eprintln!(
                        "… {} / {} cases, {:.0} cases/s, {:.0} s, {} failures",
                        t.cases,
                        args.cases,
                        t.cases as f64 / secs,
                        secs,
                        t.failures
                    );
                }
            }
        });
    });
    let t = shared.tally.lock().unwrap().clone();
    summary(args, &t, &shared, started)
}

fn summary(args: &Args, t: &Tally, shared: &Shared, started: Instant) -> i32 {
    let secs = started.elapsed().as_secs_f64();
    let failures = shared.failures.lock().unwrap();
    let mut o = std::io::stdout().lock();
    let pct = |n: u64| 100.0 * n as f64 / t.cases.max(1) as f64;
    let _ = writeln!(
        o,
        "cwndlab-fuzz: seed {}, {} cases in {:.1} s: {:.0} cases/s ({} worker processes, budget {} events per run)",
        args.seed,
        t.cases,
        secs,
        t.cases as f64 / secs.max(1e-9),
        args.threads,
        args.budget,
    );
    let _ = writeln!(
        o,
        "  accepted {} ({:.1} %; {} after taking out values a rule between parameters refused): finished {} ({:.1} %), stopped by the budget {} ({:.1} %)",
        t.accepted(),
        pct(t.accepted()),
        t.repaired,
        t.finished,
        pct(t.finished),
        t.budget_hit,
        pct(t.budget_hit)
    );
    let _ = writeln!(
        o,
        "  refused {} ({:.1} %), of which {} poisoned on purpose ({} poisoned cases in all)",
        t.refused,
        pct(t.refused),
        t.poisoned.min(t.refused),
        t.poisoned
    );
    let most = t.by_flows.iter().rposition(|&n| n > 0).unwrap_or(0);
    let many = t.by_flows.iter().skip(17).sum::<u64>();
    let _ = writeln!(
        o,
        "  {:.3e} events; flows per accepted run 1..{most} ({} runs with 17 to 64 flows); catalogue entries run: {} of {}",
        t.events as f64,
        many,
        t.by_algorithm.len(),
        cwndlab_fuzz::draw::algorithms().len()
    );
    let _ = writeln!(
        o,
        "  failures: {}; cases stopped by the watchdog (over {} s) {}, crashed {}: {} of them in a known engine issue's class (cwndlab_fuzz::known_issue, not counted as failures)",
        failures.len(),
        args.hang,
        shared.hangs.load(Ordering::Relaxed),
        shared.crashes.load(Ordering::Relaxed),
        shared.known.load(Ordering::Relaxed)
    );
    for f in failures.iter().take(50) {
        let _ = writeln!(o, "  {f}");
    }
    if failures.is_empty() && t.cases >= args.cases {
        0
    } else {
        1
    }
}
