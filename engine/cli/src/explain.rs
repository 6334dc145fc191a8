//! `cwndlab explain`: a run's decisions as a narrative (one line each) or JSON Lines, and
//! with `--against` the first divergence from the same scenario run with another algorithm.
//! Every word comes from the engine (`cwndlab_core::explain`): this module only selects.

use crate::input::{problems_error, ScenarioArgs};
use crate::Fail;
use clap::{Args, ValueEnum};
use cwndlab_core::catalogue;
use cwndlab_core::divergence::first_divergence;
use cwndlab_core::explain::{Entry, Kind, Rule};
use cwndlab_core::scenario::Scenario;
use cwndlab_core::sim::{Recording, Simulation};
use cwndlab_core::time::{ns_to_secs, secs_to_ns};
use serde_json::json;
use std::fmt::Write as _;

/// Output of `explain`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExplainFormat {
    /// One line per decision: time, flow, the explanation with its arithmetic and source
    Text,
    /// One JSON object per decision per line (JSON Lines)
    Json,
}

/// Options of `cwndlab explain`.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Only decisions at or after this time, seconds
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub from: Option<f64>,
    /// Only decisions at or before this time, seconds
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub to: Option<f64>,
    /// Only this flow's decisions (0-based)
    #[arg(long, value_name = "N")]
    pub flow: Option<u32>,
    /// Only decisions of this kind (increase, gate, loss, recovery, timeout, rtt, idle,
    /// send, ack); repeatable
    #[arg(long = "kind", value_name = "KIND")]
    pub kinds: Vec<String>,
    /// Only decisions of this rule id (e.g. loss.fast_retransmit; `cwndlab rules` lists
    /// them); repeatable
    #[arg(long = "rule", value_name = "ID")]
    pub rules: Vec<String>,
    /// Output format
    #[arg(long, value_enum, default_value_t = ExplainFormat::Text)]
    pub format: ExplainFormat,
    /// Also run the scenario with ALGORITHM (every flow, or the flow of --flow) and print
    /// where the two runs first differ, with each run's decisions there
    #[arg(long, value_name = "ALGORITHM")]
    pub against: Option<String>,
}

/// Runs `cwndlab explain`.
pub fn explain(a: &ExplainArgs) -> Result<String, Fail> {
    let (source, doc) = a.scenario.load()?;
    let scenario = Scenario::from_value(&doc).map_err(|p| problems_error(&source, &p))?;
    let filter = Filter::new(a, &scenario)?;
    if let Some(alg) = &a.against {
        return against(a, &doc, &scenario, alg);
    }
    let mut sim = Simulation::new(&scenario).explained();
    // Only the decisions are wanted: keep no trace rows.
    sim.set_recording(Recording::Summary { digest: false });
    let mut out = String::new();
    let mut count = 0usize;
    let stop = filter.to.unwrap_or(u64::MAX);
    loop {
        let done = sim.run_events(50_000);
        for e in sim.decisions().iter().filter(|e| filter.keeps(e)) {
            count += 1;
            match a.format {
                ExplainFormat::Text => {
                    let _ = writeln!(out, "{}", e.line());
                }
                ExplainFormat::Json => {
                    let _ = writeln!(out, "{}", e.to_json());
                }
            }
        }
        // Printed: the memory is reused for the next slice's decisions.
        sim.clear_decisions();
        if done || sim.now() > stop {
            break;
        }
    }
    if count == 0 && a.format == ExplainFormat::Text {
        out.push_str("no decisions match (check --from/--to, --flow, --kind and --rule)");
    }
    Ok(out.trim_end().to_string())
}

/// What `explain` keeps.
struct Filter {
    from: u64,
    to: Option<u64>,
    flow: Option<u32>,
    kinds: Vec<Kind>,
    rules: Vec<Rule>,
}

impl Filter {
    fn new(a: &ExplainArgs, s: &Scenario) -> Result<Filter, Fail> {
        let secs = |name: &str, v: Option<f64>| -> Result<Option<u64>, Fail> {
            match v {
                Some(x) if !x.is_finite() || x < 0.0 => Err(Fail::usage(format!(
                    "--{name} {x}: a time in seconds, 0 or more (the run lasts {} s)",
                    s.duration
                ))),
                Some(x) => Ok(Some(secs_to_ns(x))),
                None => Ok(None),
            }
        };
        let from = secs("from", a.from)?.unwrap_or(0);
        let to = secs("to", a.to)?;
        if let Some(t) = to {
            if t < from {
                return Err(Fail::usage(format!(
                    "--from {} --to {}: the time range is empty (--from must not be after --to; the run lasts {} s)",
                    a.from.unwrap_or(0.0),
                    a.to.unwrap_or(0.0),
                    s.duration
                )));
            }
        }
        if from > secs_to_ns(s.duration) {
            return Err(Fail::usage(format!(
                "--from {}: the time range is empty (the run lasts {} s)",
                a.from.unwrap_or(0.0),
                s.duration
            )));
        }
        let n = s.flows.len() as u32;
        if let Some(f) = a.flow {
            if f >= n {
                return Err(Fail::usage(format!(
                    "--flow {f}: this scenario has {n} flow{}, so --flow takes 0{}",
                    if n == 1 { "" } else { "s" },
                    if n > 1 { format!(" to {}", n - 1) } else { String::new() }
                )));
            }
        }
        let mut kinds = Vec::new();
        for k in &a.kinds {
            let kind = Kind::parse(k).ok_or_else(|| {
                let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
                Fail::usage(format!("--kind {k}: unknown kind; allowed: {}", names.join(", ")))
            })?;
            kinds.push(kind);
        }
        let mut rules = Vec::new();
        for r in &a.rules {
            let rule = Rule::parse(r).ok_or_else(|| {
                Fail::usage(format!(
                    "--rule {r}: unknown rule id; `cwndlab rules` lists them (e.g. loss.fast_retransmit, timeout.expire)"
                ))
            })?;
            rules.push(rule);
        }
        Ok(Filter {
            from,
            to,
            flow: a.flow,
            kinds,
            rules,
        })
    }

    fn keeps(&self, e: &Entry) -> bool {
        e.t >= self.from
            && self.to.is_none_or(|t| e.t <= t)
            && self.flow.is_none_or(|f| e.flow == f)
            && (self.kinds.is_empty() || self.kinds.contains(&e.d.info().kind))
            && (self.rules.is_empty() || self.rules.contains(&e.d.rule))
    }
}

/// `--against`: the first divergence.
fn against(a: &ExplainArgs, doc: &serde_json::Value, scenario: &Scenario, alg: &str) -> Result<String, Fail> {
    if catalogue::find(alg).is_none() {
        let names: Vec<&str> = catalogue::CATALOGUE.iter().map(|a| a.name).collect();
        return Err(Fail::usage(format!(
            "--against {alg}: unknown algorithm; allowed: {}",
            names.join(", ")
        )));
    }
    let mut other = doc.clone();
    let flows = other["flows"].as_array_mut().expect("a resolved scenario has flows");
    for (i, f) in flows.iter_mut().enumerate() {
        if a.flow.is_none_or(|n| n as usize == i) {
            // The entry's name, expanded when the scenario loads; the flow's own settings of
            // the entry's axes give way to it.
            let alg_entry = catalogue::find(alg).expect("checked");
            catalogue::apply(f, alg_entry);
            f["algorithm"] = json!(alg);
        }
    }
    let b = Scenario::from_value(&other).map_err(|p| problems_error(&format!("the scenario with {alg}"), &p))?;
    let name_of = |s: &Scenario| -> String {
        let names: Vec<String> = s
            .flows
            .iter()
            .enumerate()
            .filter(|(i, _)| a.flow.is_none_or(|n| n as usize == *i))
            .map(|(_, f)| f.algorithm.clone())
            .collect();
        names.join("+")
    };
    let (na, nb) = (name_of(scenario), name_of(&b));
    let d = first_divergence(scenario, &b);
    Ok(match (a.format, d) {
        (ExplainFormat::Json, None) => json!({"a": na, "b": nb, "divergence": null}).to_string(),
        (ExplainFormat::Json, Some(d)) => json!({"a": na, "b": nb, "divergence": d.to_json()}).to_string(),
        (ExplainFormat::Text, None) => format!("{na} and {nb} make the same decisions for the whole run"),
        (ExplainFormat::Text, Some(d)) => {
            let mut out = format!(
                "{na} and {nb} first differ at {:.6} s, after {} identical decisions.\n",
                ns_to_secs(d.t),
                d.common
            );
            for (name, list) in [(&na, &d.a), (&nb, &d.b)] {
                let _ = writeln!(out, "{name}:");
                if list.is_empty() {
                    let _ = writeln!(out, "  (no decision at this instant)");
                }
                for e in list {
                    let _ = writeln!(out, "  {}", e.line());
                }
            }
            out.trim_end().to_string()
        }
    })
}

/// `cwndlab rules`: every rule with its kind and source.
pub fn list_rules() -> String {
    let mut out = String::new();
    for k in Kind::ALL {
        let _ = writeln!(out, "{} — {}:", k.name(), k.description());
        for r in cwndlab_core::explain::RULES.iter().filter(|r| r.kind == k) {
            let _ = writeln!(out, "  {:34} {} ({})", r.id, r.title, r.source);
        }
    }
    out.trim_end().to_string()
}
