//! The engine-computed tables of docs/validation.md (issue 26). Prints one JSON object,
//! `{block name: Markdown}`, for the blocks named on the command line (every block without
//! arguments); `scripts/validate.mjs` writes them between the doc's
//! `<!-- validate:begin NAME -->` / `<!-- validate:end NAME -->` markers.
//!
//! Every number is the engine's (runs of presets, several seeds where the experiment is
//! random) or `cwndlab_core::theory`'s; the external references (the sources' figures, ns-2
//! and ns-3 outputs) are constants below, marked as such. Numbers are printed with fixed
//! decimals, so the same build gives the same bytes. Runs go in parallel (one thread per
//! core); the order of results never depends on it.
//!
//! `cargo run --release -p cwndlab-core --example validate -- [NAME ...]`

#[path = "../tests/shared/theory_grid.rs"]
mod theory_grid;
use cwndlab_core::presets;
use cwndlab_core::scenario::{parse_set_value, resolve, set_path, Scenario};
use cwndlab_core::sim::{Recording, Simulation};
use cwndlab_core::summary::Summary;
use cwndlab_core::theory;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// A scenario from a preset with `path=value` overrides (as `cwndlab run --set`).
fn scenario(preset: &str, sets: &[(&str, String)]) -> Scenario {
    let base = presets::find(preset)
        .unwrap_or_else(|| panic!("no preset {preset}"))
        .overrides;
    let mut doc = resolve(&base).expect("preset resolves");
    for (p, v) in sets {
        set_path(&mut doc, p, parse_set_value(v)).unwrap_or_else(|e| panic!("{p}={v}: {e}"));
    }
    Scenario::from_value(&doc).unwrap_or_else(|e| panic!("{preset} {sets:?}: {e:?}"))
}

/// What one run gives back: its summary and, when asked, cwnd samples after a time.
#[derive(Clone)]
struct Out {
    summary: Summary,
    /// (time ns, cwnd bytes) from `after_ns` on, with the time of the run's end last.
    cwnd: Vec<(u64, u64)>,
}

struct Job {
    s: Scenario,
    /// Keep the cwnd series from this time (ns) on; `None`: the summary only.
    series_after: Option<u64>,
}

/// Runs every job, in parallel, results in job order.
fn run_all(jobs: Vec<Job>) -> Vec<Out> {
    let n = jobs.len();
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<Out>>> = Mutex::new(vec![None; n]);
    let threads = std::thread::available_parallelism().map_or(2, |x| x.get());
    std::thread::scope(|sc| {
        for _ in 0..threads {
            sc.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let job = &jobs[i];
                let mut sim = Simulation::new(&job.s);
                if job.series_after.is_none() {
                    sim.set_recording(Recording::Summary { digest: false });
                }
                sim.run_to_end();
                let cwnd = match job.series_after {
                    Some(t0) => {
                        let rows = &sim.series(0).rows;
                        let mut v: Vec<(u64, u64)> = vec![];
                        // The state in force at t0, then every change after it.
                        if let Some(r) = rows.iter().rev().find(|(t, _)| *t <= t0) {
                            v.push((t0, r.1.cwnd));
                        }
                        v.extend(rows.iter().filter(|(t, _)| *t > t0).map(|(t, st)| (*t, st.cwnd)));
                        v.push((sim.now(), v.last().map_or(0, |x| x.1)));
                        v
                    }
                    None => vec![],
                };
                let o = Out {
                    summary: sim.summary(),
                    cwnd,
                };
                out.lock().unwrap()[i] = Some(o);
            });
        }
    });
    out.into_inner().unwrap().into_iter().map(|o| o.unwrap()).collect()
}

fn summaries(jobs: Vec<Scenario>) -> Vec<Summary> {
    run_all(jobs.into_iter().map(|s| Job { s, series_after: None }).collect())
        .into_iter()
        .map(|o| o.summary)
        .collect()
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

/// Sample standard deviation (n − 1).
fn sd(x: &[f64]) -> f64 {
    if x.len() < 2 {
        return 0.0;
    }
    let m = mean(x);
    (x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (x.len() - 1) as f64).sqrt()
}

fn min(x: &[f64]) -> f64 {
    x.iter().cloned().fold(f64::INFINITY, f64::min)
}

fn max(x: &[f64]) -> f64 {
    x.iter().cloned().fold(f64::NEG_INFINITY, f64::max)
}

/// Fixed decimals; "-0" never appears.
fn f(v: f64, d: usize) -> String {
    let s = format!("{v:.d$}");
    if s.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') {
        s.trim_start_matches('-').to_string()
    } else {
        s
    }
}

/// An integer with thin-space-free thousands separators as the doc writes them ("12 156").
fn n(v: f64) -> String {
    // Rounded as `format!` rounds (to nearest, ties to even), so 0.5 → "0" as in f().
    let r: i64 = format!("{v:.0}").parse().unwrap_or(0);
    let digits = r.abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    if r < 0 {
        format!("-{out}")
    } else {
        out
    }
}

fn pm(x: &[f64], d: usize) -> String {
    format!("{} ± {}", f(mean(x), d), f(sd(x), d))
}

fn pm_n(x: &[f64]) -> String {
    format!("{} ± {}", n(mean(x)), n(sd(x)))
}

fn seeds(k: u64) -> Vec<u64> {
    (1..=k).collect()
}

fn sets(pairs: &[(&str, &str)]) -> Vec<(&'static str, String)> {
    pairs
        .iter()
        .map(|(p, v)| (&*Box::leak(p.to_string().into_boxed_str()), v.to_string()))
        .collect()
}

fn with_seed(mut v: Vec<(&'static str, String)>, seed: u64) -> Vec<(&'static str, String)> {
    v.push(("seed", seed.to_string()));
    v
}

// ---------------------------------------------------------------------------------------
// §3 NetSim

const NETSIM: [(&str, &str, &str); 4] = [
    // (preset suffix, label, the lab's one run: an external reference, source 001's table)
    ("old-tahoe", "Old Tahoe", "2.98 Mbit/s"),
    ("tahoe", "Tahoe", "2.62 Mbit/s"),
    ("reno", "Reno", "—"),
    ("newreno", "NewReno", "4.12 Mbit/s"),
];

fn netsim() -> String {
    let mut jobs = vec![];
    for (v, _, _) in NETSIM {
        for s in seeds(20) {
            jobs.push(scenario(&format!("netsim-{v}"), &with_seed(vec![], s)));
        }
        for s in seeds(5) {
            jobs.push(scenario(
                &format!("netsim-{v}"),
                &with_seed(sets(&[("duration", "400")]), s),
            ));
        }
    }
    let res = summaries(jobs);
    let mut t = String::from(
        "| variant | NetSim lab (1 run) | cwndlab, 20 s, 20 seeds: mean ± sd (min–max) | cwndlab, 400 s, 5 seeds |\n|---|---|---|---|\n",
    );
    let mut steady = String::from(
        "| variant, 400 s, 5 seeds | loss rate of data packets | SRTT at the end | Mathis et al. at that p and SRTT | cwndlab | timeouts / fast retransmits per run |\n|---|---|---|---|---|---|\n",
    );
    for (k, (_, label, lab)) in NETSIM.iter().enumerate() {
        let r = &res[k * 25..k * 25 + 25];
        let g20: Vec<f64> = r[..20].iter().map(|s| s.flows[0].goodput_bps / 1e6).collect();
        let g400: Vec<f64> = r[20..].iter().map(|s| s.flows[0].goodput_bps / 1e6).collect();
        t += &format!(
            "| {label} | {lab} | {} ({}–{}) | {} |\n",
            pm(&g20, 2),
            f(min(&g20), 2),
            f(max(&g20), 2),
            pm(&g400, 2)
        );
        let long = &r[20..];
        let p: Vec<f64> = long
            .iter()
            .map(|s| s.flows[0].drops.error as f64 / s.flows[0].data_packets_sent as f64)
            .collect();
        let srtt: Vec<f64> = long.iter().map(|s| s.flows[0].srtt_s).collect();
        let mut i = theory::inputs(&scenario(&format!("netsim-{}", NETSIM[k].0), &[]), 0).expect("BER path");
        i.p = mean(&p);
        i.rtt = mean(&srtt);
        let to: Vec<f64> = long.iter().map(|s| s.flows[0].timeouts as f64).collect();
        let fr: Vec<f64> = long.iter().map(|s| s.flows[0].fast_retransmits as f64).collect();
        steady += &format!(
            "| {label} | {} % | {} ms | {} Mbit/s | {} Mbit/s | {} / {} |\n",
            f(100.0 * i.p, 3),
            f(1e3 * i.rtt, 1),
            f(theory::mathis_bps(&i) / 1e6, 2),
            f(mean(&g400), 2),
            f(mean(&to), 0),
            f(mean(&fr), 0)
        );
    }
    let model = theory::inputs(&scenario("netsim-newreno", &[]), 0).expect("BER path");
    steady += &format!(
        "\nThe BER model's loss rate for a 1 500-byte packet: 1 − (1 − 10⁻⁷)^12000 = {} %.\n",
        f(100.0 * model.p, 3)
    );
    format!("{t}\n<!-- validate:end netsim -->\n\n<!-- validate:begin netsim-steady -->\n{steady}")
}

// ---------------------------------------------------------------------------------------
// §3a CWV

fn cwv_underutilized() -> String {
    let cases = [
        ("neither (standard ns TCP)", "always", "restart"),
        ("gate only", "window_full", "restart"),
        ("decay only", "always", "rfc2861"),
        ("both (CWV)", "window_full", "rfc2861"),
    ];
    let mut jobs = vec![];
    for (_, gate, idle) in cases {
        for s in seeds(20) {
            jobs.push(scenario(
                "cwv-underutilized-100ms",
                &with_seed(
                    sets(&[("flows[0].cc.growth_gate", gate), ("flows[0].cc.idle_policy", idle)]),
                    s,
                ),
            ));
        }
    }
    let res = summaries(jobs);
    let mut t = String::from(
        "| gate / decay | retransmissions | mean cwnd (segments) | goodput (kbit/s) | application-limited decays |\n|---|---|---|---|---|\n",
    );
    let mut fewer = 0;
    for (k, (label, _, _)) in cases.iter().enumerate() {
        let r = &res[k * 20..k * 20 + 20];
        let re: Vec<f64> = r.iter().map(|s| s.flows[0].retransmits as f64).collect();
        let cw: Vec<f64> = r.iter().map(|s| s.flows[0].mean_cwnd_segments).collect();
        let g: Vec<f64> = r.iter().map(|s| s.flows[0].goodput_bps / 1e3).collect();
        let d: Vec<f64> = r.iter().map(|s| s.flows[0].window_decays as f64).collect();
        t += &format!(
            "| {label} | {} [{}–{}] | {} | {} | {} |\n",
            pm(&re, 1),
            f(min(&re), 0),
            f(max(&re), 0),
            pm(&cw, 1),
            pm(&g, 0),
            f(mean(&d), 1)
        );
    }
    for s in 0..20 {
        let (a, b) = (&res[s].flows[0], &res[60 + s].flows[0]);
        if b.retransmits <= a.retransmits && b.mean_cwnd_segments < a.mean_cwnd_segments {
            fewer += 1;
        }
    }
    t += &format!(
        "\nSeeds (of 20) in which CWV (both) retransmits no more than the standard sender and keeps a smaller mean cwnd: {fewer}.\n"
    );
    t
}

fn cwv_classroom() -> String {
    let algs = ["newreno", "newreno_restart", "newreno_cwv", "newreno_newcwv"];
    let res = summaries(
        algs.iter()
            .map(|a| scenario("cwv-classroom-onoff", &sets(&[("flows[0].algorithm", a)])))
            .collect(),
    );
    let mut t = String::from(
        "| algorithm | delivered in 20 s | retransmissions | max burst | window decays |\n|---|---|---|---|---|\n",
    );
    for (a, s) in algs.iter().zip(&res) {
        let fl = &s.flows[0];
        let note = if *a == "newreno_newcwv" {
            " (NVP loss responses)"
        } else {
            ""
        };
        t += &format!(
            "| `{a}` | {} B | {} | {} | {}{note} |\n",
            n(fl.delivered_bytes as f64),
            fl.retransmits,
            fl.max_burst_packets,
            fl.window_decays
        );
    }
    t
}

// ---------------------------------------------------------------------------------------
// §3b BR-TCP figures 4–8

fn br_tcp_figures() -> String {
    let rows = [
        ("NewReno (lab: RFC 6582, impatient timer)", "newreno", vec![]),
        (
            "NewReno, ns-2's timer (`cc.newreno_timer = every_partial`)",
            "newreno",
            vec![("flows[0].cc.newreno_timer", "every_partial")],
        ),
        (
            "BR-TCP (`br_recovery = newreno`, default)",
            "br_tcp",
            vec![("flows[0].cc.br_recovery", "newreno")],
        ),
        (
            "BR-TCP (`br_recovery = set_cwnd`, the text read literally)",
            "br_tcp",
            vec![("flows[0].cc.br_recovery", "set_cwnd")],
        ),
    ];
    let jobs = rows
        .iter()
        .map(|(_, alg, extra)| {
            let mut v = sets(&[("flows[0].algorithm", alg)]);
            v.extend(sets(extra));
            Job {
                s: scenario("br-tcp-komuro", &v),
                series_after: Some(15_000_000_000),
            }
        })
        .collect();
    let res = run_all(jobs);
    let mut t = String::from(
        "| | goodput | timeouts | cwnd after 15 s (packets) | cwnd CV after 15 s |\n|---|---|---|---|---|\n",
    );
    for ((label, _, _), o) in rows.iter().zip(&res) {
        let fl = &o.summary.flows[0];
        let mss = 1460.0;
        // Time-weighted mean and standard deviation of cwnd from 15 s to the end.
        let (mut w, mut s1, mut s2) = (0.0, 0.0, 0.0);
        for pair in o.cwnd.windows(2) {
            let dt = (pair[1].0 - pair[0].0) as f64;
            let c = pair[0].1 as f64;
            w += dt;
            s1 += dt * c;
            s2 += dt * c * c;
        }
        let m = s1 / w;
        let cv = (s2 / w - m * m).max(0.0).sqrt() / m;
        let lo = o.cwnd.iter().map(|x| x.1).min().unwrap() as f64 / mss;
        let hi = (o.cwnd.iter().map(|x| x.1).max().unwrap() as f64 / mss).round();
        t += &format!(
            "| {label} | {} Mbit/s | {} | {}–{} | {} |\n",
            f(fl.goodput_bps / 1e6, 1),
            fl.timeouts,
            f(lo.floor(), 0),
            f(hi, 0),
            f(cv, 2)
        );
    }
    t
}

// ---------------------------------------------------------------------------------------
// §3c thin streams

const THIN: [(&str, &str, &str); 5] = [
    ("thin-20b-10ms", "20 B every 10 ms (fig. 5)", "20 B / 10 ms"),
    ("thin-50b-10ms", "50 B every 10 ms (fig. 2)", "50 B / 10 ms"),
    ("thin-50b-20ms", "50 B every 20 ms (fig. 3)", "50 B / 20 ms"),
    ("thin-50b-50ms", "50 B every 50 ms (fig. 4)", "50 B / 50 ms"),
    ("thin-20b-1ms", "20 B every 1 ms (fig. 7)", "20 B / 1 ms"),
];
const THIN_SENDERS: [(&str, &str); 3] = [
    ("freebsd_10", "FreeBSD 10"),
    ("linux_3_15", "Linux 3.15"),
    ("linux_3_18", "Linux 3.18"),
];

fn thin_runs() -> Vec<Summary> {
    let mut jobs = vec![];
    for (p, _, _) in THIN {
        for (a, _) in THIN_SENDERS {
            for s in seeds(10) {
                jobs.push(scenario(p, &with_seed(sets(&[("flows[0].algorithm", a)]), s)));
            }
        }
    }
    summaries(jobs)
}

fn ms(v: Option<f64>) -> f64 {
    1e3 * v.unwrap_or(f64::NAN)
}

fn thin(res: &[Summary], seed1: bool) -> String {
    let mut t = if seed1 {
        String::from("| preset | sender | packets sent | mean payload (B) | sojourn p50 / p90 (ms) | latency p50 / p90 / p99 (ms) | timeouts |\n|---|---|---|---|---|---|---|\n")
    } else {
        String::from("| preset | sender | packets sent | sojourn p50 (ms) | latency p50 (ms) | latency p99 (ms) | timeouts |\n|---|---|---|---|---|---|---|\n")
    };
    for (pi, (_, long, short)) in THIN.iter().enumerate() {
        for (ai, (_, sender)) in THIN_SENDERS.iter().enumerate() {
            let r = &res[(pi * 3 + ai) * 10..(pi * 3 + ai) * 10 + 10];
            let label = match (ai, seed1) {
                (0, true) => format!("| {long} |"),
                (0, false) => format!("| {short} |"),
                _ => "| |".to_string(),
            };
            if seed1 {
                let fl = &r[0].flows[0];
                t += &format!(
                    "{label} {sender} | {} | {} | {} / {} | {} / {} / {} | {} |\n",
                    n(fl.data_packets_sent as f64),
                    n(fl.mean_payload_bytes),
                    n(ms(fl.sojourn_p50_s)),
                    n(ms(fl.sojourn_p90_s)),
                    n(ms(fl.latency_p50_s)),
                    n(ms(fl.latency_p90_s)),
                    n(ms(fl.latency_p99_s)),
                    fl.timeouts
                );
            } else {
                let col = |g: &dyn Fn(&cwndlab_core::summary::FlowSummary) -> f64| -> Vec<f64> {
                    r.iter().map(|s| g(&s.flows[0])).collect()
                };
                t += &format!(
                    "{label} {sender} | {} | {} | {} | {} | {} |\n",
                    pm_n(&col(&|x| x.data_packets_sent as f64)),
                    pm_n(&col(&|x| ms(x.sojourn_p50_s))),
                    pm_n(&col(&|x| ms(x.latency_p50_s))),
                    pm_n(&col(&|x| ms(x.latency_p99_s))),
                    pm_n(&col(&|x| x.timeouts as f64)),
                );
            }
        }
    }
    t
}

// ---------------------------------------------------------------------------------------
// §3d Jacobson's timers

fn jacobson_timers() -> String {
    let algs = [
        ("bsd_4_3_ss_ca", "`bsd_4_3_ss_ca` (RFC 793, β = 2)"),
        ("jacobson_88", "`jacobson_88` (mean + 4·deviation)"),
    ];
    let mut jobs = vec![];
    for (a, _) in algs {
        for s in seeds(10) {
            jobs.push(scenario(
                "jacobson-timers",
                &with_seed(sets(&[("flows[0].algorithm", a)]), s),
            ));
        }
    }
    let res = summaries(jobs);
    let mut t = String::from(
        "| sender | spurious retransmissions per 300 s (seeds 1…10) | mean | retransmissions, all seeds | timeouts |\n|---|---|---|---|---|\n",
    );
    for (k, (_, label)) in algs.iter().enumerate() {
        let r = &res[k * 10..k * 10 + 10];
        let sp: Vec<f64> = r.iter().map(|s| s.flows[0].spurious_retransmits as f64).collect();
        let all: u64 = r.iter().map(|s| s.flows[0].retransmits).sum();
        let spur: u64 = r.iter().map(|s| s.flows[0].spurious_retransmits).sum();
        let to: Vec<f64> = r.iter().map(|s| s.flows[0].timeouts as f64).collect();
        let list: Vec<String> = sp.iter().map(|v| f(*v, 0)).collect();
        t += &format!(
            "| {label} | {} | {} | {all} ({spur} spurious) | {}–{} |\n",
            list.join(", "),
            f(mean(&sp), 1),
            f(min(&to), 0),
            f(max(&to), 0)
        );
    }
    t
}

/// The 230.4 kbit/s link's data rate for 512-byte segments with 40-byte headers, bytes/s
/// (as tests/jacobson.rs computes it).
const JACOBSON_LINK_DATA: f64 = 230_400.0 / 8.0 * 512.0 / 552.0;

/// A percentage: no decimals from 10 % up, one below.
fn pct(x: f64) -> String {
    if x >= 0.1 {
        f(100.0 * x, 0)
    } else {
        f(100.0 * x, 1)
    }
}

fn jacobson_startup() -> String {
    let res = summaries(vec![
        scenario("jacobson-startup", &sets(&[("flows[0].algorithm", "bsd_4_3")])),
        scenario("jacobson-startup", &sets(&[("flows[0].algorithm", "bsd_4_3_ss")])),
    ]);
    let kbs = |x: &Summary| x.flows[0].goodput_bps / 8.0 / 1e3;
    let share = |x: &Summary| f(100.0 * x.flows[0].goodput_bps / 8.0 / JACOBSON_LINK_DATA, 1);
    let (old, ss) = (&res[0].flows[0], &res[1].flows[0]);
    let mut t = String::from("| sender | paper | ours |\n|---|---|---|\n");
    // The paper's column is a stored reference (source 003, figures 3 and 4).
    t += &format!(
        "| `bsd_4_3` (no slow start) | 35 % of the 20 KB/s available used (7 KB/s); almost everything resent at least once | {} KB/s = {} % of the link's data rate; {} of {} packets are retransmissions ({} %), {} of them spurious (go-back-N resends of data the receiver held); {} timeouts |\n",
        f(kbs(&res[0]), 1),
        f((100.0 * old.goodput_bps / 8.0 / JACOBSON_LINK_DATA).round(), 0),
        old.retransmits,
        old.data_packets_sent,
        pct(old.retransmit_fraction),
        old.spurious_retransmits,
        old.timeouts
    );
    let retx = if ss.retransmits == 0 {
        "no retransmissions".to_string()
    } else {
        format!("{} retransmissions", ss.retransmits)
    };
    t += &format!(
        "| `bsd_4_3_ss` (slow start) | no retransmissions; 16 KB/s over the trace, slope 20 KB/s (the available rate) | {retx}; {} KB/s, {} % of the link's data rate |\n",
        f(kbs(&res[1]), 1),
        share(&res[1])
    );
    t
}

fn jacobson_four() -> String {
    let res = summaries(vec![
        scenario("jacobson-four-old", &[]),
        scenario("jacobson-four-new", &[]),
    ]);
    struct Four {
        sent: u64,
        retx: u64,
        spur: u64,
        end: f64,
        alone: f64,
        used: f64,
        per: String,
        jain: f64,
    }
    let four = |s: &Summary| {
        let fl = &s.flows;
        let mut ends: Vec<f64> = fl
            .iter()
            .map(|x| x.completion_time_s.expect("every transfer completes"))
            .collect();
        ends.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let end = ends[ends.len() - 1];
        let delivered: u64 = fl.iter().map(|x| x.delivered_bytes).sum();
        Four {
            sent: fl.iter().map(|x| x.data_packets_sent).sum(),
            retx: fl.iter().map(|x| x.retransmits).sum(),
            spur: fl.iter().map(|x| x.spurious_retransmits).sum(),
            end,
            alone: end - ends[ends.len() - 2],
            used: delivered as f64 / end / JACOBSON_LINK_DATA,
            per: fl
                .iter()
                .map(|x| f(x.transfer_goodput_bps / 8.0 / 1e3, 1))
                .collect::<Vec<_>>()
                .join(", "),
            jain: s.jain_index.unwrap_or(f64::NAN),
        }
    };
    let (o, w) = (four(&res[0]), four(&res[1]));
    let mb = |x: &Summary| (x.flows.iter().map(|f| f.delivered_bytes).sum::<u64>() as f64 / 1_048_576.0).round();
    // The paper's columns are stored references (source 003, figures 8, 9 and 11).
    let mut t = String::from(
        "| | paper, without CA (fig. 8) | ours, `bsd_4_3` ×4 | paper, with CA (fig. 9) | ours, `jacobson_88` ×4 |\n|---|---|---|---|---|\n",
    );
    t += &format!(
        "| packets sent | 11 000 | {} | 8 281 | {} |\n",
        n(o.sent as f64),
        n(w.sent as f64)
    );
    t += &format!(
        "| retransmitted | 4 000 (36 %) | {} ({} %; {} spurious) | 89 (1.1 %) | {} ({} %; {} spurious) |\n",
        n(o.retx as f64),
        pct(o.retx as f64 / o.sent as f64),
        n(o.spur as f64),
        n(w.retx as f64),
        pct(w.retx as f64 / w.sent as f64),
        n(w.spur as f64)
    );
    t += &format!(
        "| delivered bandwidth (fig. 11) | 75 % of the link | {} % ({} MB by {} s) | ≈ 100 % | {} % ({} MB by {} s; the last {} s one flow alone) |\n",
        f(100.0 * o.used, 0),
        f(mb(&res[0]), 0),
        f(o.end, 1),
        f(100.0 * w.used, 0),
        f(mb(&res[1]), 0),
        f(w.end, 1),
        f(w.alone, 1)
    );
    t += &format!(
        "| per conversation (KB/s) | 8, 5, 5, 0.5 | {} (over each transfer) | 8, 8, 4.5, 4.5 | {} |\n",
        o.per, w.per
    );
    t += &format!(
        "| Jain's index (transfer goodputs) | 0.75 (from the shares above) | {} | 0.93 | {} |\n",
        f(o.jain, 2),
        f(w.jain, 2)
    );
    t
}

// ---------------------------------------------------------------------------------------
// §3e CUBIC against ns-3 (the ns-3 rows are stored references: scripts/ns3/run.sh, ns-3 3.37)

fn cubic_bufferbloat() -> String {
    let res = summaries(vec![
        scenario("cubic-bufferbloat", &sets(&[("flows[0].algorithm", "cubic")])),
        scenario("cubic-bufferbloat", &sets(&[("flows[0].algorithm", "newreno")])),
    ]);
    let ours = |s: &Summary| {
        let fl = &s.flows[0];
        format!(
            "{} Mbit/s | {} | {} | {} segments",
            f(fl.goodput_bps / 1e6, 2),
            n(fl.drops.queue as f64),
            fl.timeouts,
            n(fl.mean_cwnd_segments)
        )
    };
    let mut t = String::from("| | goodput | bottleneck drops | timeouts | mean cwnd |\n|---|---|---|---|---|\n");
    t += &format!("| ours, CUBIC | {} |\n", ours(&res[0]));
    // Stored: ns-3 3.37 outputs (scripts/ns3/run.sh); not rerun here.
    t += "| ns-3, CUBIC, HyStart off | 6.67 Mbit/s | 4 546 | 6 | 572 segments |\n";
    t += "| ns-3, CUBIC, HyStart on | 8.11 Mbit/s | 1 752 | 3 | 471 segments |\n";
    t += &format!("| ours, NewReno | {} |\n", ours(&res[1]));
    t += "| ns-3, NewReno | 6.30 Mbit/s | 2 081 | 2 | 277 segments |\n";
    t
}

fn sharing() -> String {
    let cases = [
        (
            "`cubic-newreno-share`: CUBIC / NewReno, 40 ms",
            "cubic-newreno-share",
            None,
            "58.2 / 36.9 (1.58) | 57.0 / 38.0 (1.51) | 39.0 / 18.9 (2.08)",
        ),
        (
            "`cubic-two-rtts`: CUBIC 40 / 120 ms",
            "cubic-two-rtts",
            None,
            "59.9 / 34.7 (1.90) | 63.9 / 30.9 (2.12) | 45.3 / 8.5 (5.60)",
        ),
        (
            "the same path, NewReno 40 / 120 ms",
            "cubic-two-rtts",
            Some("newreno"),
            "77.2 / 16.4 (4.81) | 75.8 / 17.6 (4.39) | 40.6 / 5.6 (7.33)",
        ),
    ];
    // Each case twice: as the preset has it (no SACK), then with SACK, PRR and RACK-TLP on
    // both flows (the recovery Linux runs; RACK repairs a lost retransmission without the
    // timer, which RFC 6675 alone cannot: docs/validation.md §3e).
    let sack = [
        ("flows[].sack.enabled", "true"),
        ("flows[].sack.budget", "prr_ssrb"),
        ("flows[].sack.rack", "true"),
        ("flows[].sack.tlp", "true"),
    ];
    let mut jobs = vec![];
    for with_sack in [false, true] {
        for (_, p, alg, _) in &cases {
            for s in seeds(5) {
                let mut v: Vec<(&str, &str)> = vec![];
                if let Some(a) = alg {
                    v.push(("flows[].algorithm", a));
                }
                if with_sack {
                    v.extend(sack);
                }
                jobs.push(scenario(p, &with_seed(sets(&v), s)));
            }
        }
    }
    let res = summaries(jobs);
    let cell = |r: &[Summary]| {
        let a: Vec<f64> = r.iter().map(|s| s.flows[0].goodput_bps / 1e6).collect();
        let b: Vec<f64> = r.iter().map(|s| s.flows[1].goodput_bps / 1e6).collect();
        let ratio: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x / y).collect();
        format!("{} / {} ({})", f(mean(&a), 1), f(mean(&b), 1), f(mean(&ratio), 2))
    };
    let n = cases.len() * 5;
    let mut t = String::from(
        "| case | cwndlab (no SACK) | cwndlab, SACK + PRR + RACK-TLP | ns-3 3.37, SACK on | ns-3 3.44, SACK on (seeds 1–3) | ns-3 3.37, SACK off |\n|---|---|---|---|---|---|\n",
    );
    for (k, (label, _, _, ns3)) in cases.iter().enumerate() {
        let plain = cell(&res[k * 5..k * 5 + 5]);
        let sacked = cell(&res[n + k * 5..n + k * 5 + 5]);
        t += &format!("| {label} | {plain} | {sacked} | {ns3} |\n");
    }
    t
}

// ---------------------------------------------------------------------------------------
// §3h theory

fn theory_runs() -> String {
    let runs: [(&str, &str, Option<&str>); 5] = [
        ("netsim-old-tahoe (20 s)", "netsim-old-tahoe", None),
        ("netsim-tahoe", "netsim-tahoe", None),
        ("netsim-reno", "netsim-reno", None),
        ("netsim-newreno", "netsim-newreno", None),
        ("bbr-random-loss, NewReno (30 s)", "bbr-random-loss", Some("newreno")),
    ];
    let scen: Vec<Scenario> = runs
        .iter()
        .map(|(_, p, a)| match a {
            Some(a) => scenario(p, &sets(&[("flows[0].algorithm", a)])),
            None => scenario(p, &[]),
        })
        .collect();
    let res = summaries(scen.clone());
    let mut t = String::from("| run | p | RTT | Mathis | Padhye | run |\n| --- | --- | --- | --- | --- | --- |\n");
    let mut last_p = f64::NAN;
    let mut unit = " Mbit/s";
    for (((label, _, _), s), r) in runs.iter().zip(&scen).zip(&res) {
        let i = theory::inputs(s, 0).expect("random loss");
        let g = f(r.flows[0].goodput_bps / 1e6, 2);
        if i.p == last_p {
            t += &format!("| {label} | | | | | {g} |\n");
        } else {
            let (mant, exp) = sci(i.p);
            t += &format!(
                "| {label} | {mant}·10{exp} | {} ms | {}{unit} | {} | {g} |\n",
                f(i.rtt * 1e3, 2),
                f(theory::mathis_bps(&i) / 1e6, 2),
                f(theory::padhye_bps(&i) / 1e6, 2),
            );
            unit = "";
        }
        last_p = i.p;
    }
    t
}

/// p as "1.199" and "⁻³" (or "1" and "⁻²" for a round mantissa).
fn sci(p: f64) -> (String, String) {
    let e = p.log10().floor() as i32;
    let m = p / 10f64.powi(e);
    let mant = if (m - m.round()).abs() < 1e-9 { f(m, 0) } else { f(m, 3) };
    let sup: String = e
        .to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            d => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'][d.to_digit(10).unwrap() as usize],
        })
        .collect();
    (mant, sup)
}

/// The theory grid's scenario (tests/shared/theory_grid.rs).
pub fn grid_scenario(rtt_ms: f64, p: f64, seed: u64) -> Scenario {
    scenario(theory_grid::GRID_PRESET, &theory_grid::grid_settings(rtt_ms, p, seed))
}

const GRID_RTT: [f64; 4] = [20.0, 50.0, 100.0, 200.0];
const GRID_P: [f64; 7] = [0.0001, 0.0003, 0.001, 0.003, 0.01, 0.03, 0.05];
const GRID_SEEDS: u64 = 5;

fn theory_grid() -> String {
    let mut jobs = vec![];
    for r in GRID_RTT {
        for p in GRID_P {
            for s in seeds(GRID_SEEDS) {
                jobs.push(grid_scenario(r, p, s));
            }
        }
    }
    let res = summaries(jobs);
    let mut t = String::from(
        "| RTT (as built) | p | run length | NewReno, 5 seeds (Mbit/s) | timeouts per loss | SRTT measured | Mathis at that SRTT | run / Mathis | Padhye at that SRTT | run / Padhye |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut k = 0;
    for r in GRID_RTT {
        for p in GRID_P {
            let rs = &res[k..k + GRID_SEEDS as usize];
            k += GRID_SEEDS as usize;
            let s = grid_scenario(r, p, 1);
            let mut i = theory::inputs(&s, 0).expect("loss");
            let built = i.rtt;
            let g: Vec<f64> = rs.iter().map(|s| s.flows[0].goodput_bps / 1e6).collect();
            let srtt = mean(&rs.iter().map(|s| s.flows[0].srtt_s).collect::<Vec<_>>());
            let tpl = mean(
                &rs.iter()
                    .map(|s| s.flows[0].timeouts as f64 / (s.flows[0].drops.error as f64).max(1.0))
                    .collect::<Vec<_>>(),
            );
            i.rtt = srtt;
            let m = theory::mathis_bps(&i) / 1e6;
            let pa = theory::padhye_bps(&i) / 1e6;
            t += &format!(
                "| {} ms | {} | {} s | {} | {} | {} ms | {} | {} | {} | {} |\n",
                f(built * 1e3, 2),
                p,
                f(s.duration, 0),
                pm(&g, 3),
                f(tpl, 3),
                f(srtt * 1e3, 2),
                f(m, 3),
                f(mean(&g) / m, 2),
                f(pa, 3),
                f(mean(&g) / pa, 2)
            );
        }
    }
    t
}

// ---------------------------------------------------------------------------------------

const BLOCKS: [&str; 13] = [
    "netsim",
    "cwv-underutilized",
    "cwv-classroom",
    "br-tcp-figures",
    "thin-seed1",
    "thin-seeds",
    "jacobson-startup",
    "jacobson-timers",
    "jacobson-four",
    "cubic-bufferbloat",
    "sharing",
    "theory-runs",
    "theory-grid",
];

fn main() {
    let mut want: Vec<String> = std::env::args().skip(1).collect();
    if want.is_empty() {
        want = BLOCKS.iter().map(|s| s.to_string()).collect();
    }
    // "netsim-steady" comes with "netsim" (same runs).
    for w in want.iter_mut() {
        if w == "netsim-steady" {
            *w = "netsim".into();
        }
        assert!(BLOCKS.contains(&w.as_str()), "unknown block {w}; blocks: {BLOCKS:?}");
    }
    want.dedup();
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    let mut thin_res: Option<Vec<Summary>> = None;
    for w in &want {
        let t0 = std::time::Instant::now();
        let md = match w.as_str() {
            "netsim" => {
                let both = netsim();
                let (a, b) = both
                    .split_once("\n<!-- validate:end netsim -->\n\n<!-- validate:begin netsim-steady -->\n")
                    .unwrap();
                out.insert("netsim-steady".into(), b.to_string());
                a.trim_end().to_string() + "\n"
            }
            "cwv-underutilized" => cwv_underutilized(),
            "cwv-classroom" => cwv_classroom(),
            "br-tcp-figures" => br_tcp_figures(),
            "thin-seed1" | "thin-seeds" => {
                let r = thin_res.get_or_insert_with(thin_runs);
                thin(r, w == "thin-seed1")
            }
            "jacobson-startup" => jacobson_startup(),
            "jacobson-timers" => jacobson_timers(),
            "jacobson-four" => jacobson_four(),
            "cubic-bufferbloat" => cubic_bufferbloat(),
            "sharing" => sharing(),
            "theory-runs" => theory_runs(),
            "theory-grid" => theory_grid(),
            _ => unreachable!(),
        };
        eprintln!("{w}: {:.1} s", t0.elapsed().as_secs_f64());
        out.insert(w.clone(), md);
    }
    let m: Map<String, Value> = out.into_iter().map(|(k, v)| (k, Value::String(v))).collect();
    println!("{}", serde_json::to_string_pretty(&Value::Object(m)).unwrap());
}
