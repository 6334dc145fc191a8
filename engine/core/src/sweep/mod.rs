//! Sweeps, defined once for every front end (`cwndlab sweep`, the page's sweep view): one
//! or two parameter axes (values as exact text, or `FROM:TO:N[:log]` ranges), the
//! algorithms and seeds run at every point, the run list and its order, each run's scenario
//! (the base, then the axis values, the algorithm on every flow, the seed), the metrics a
//! sweep reports (per-flow summary fields, with labels and units) and the output (a row per
//! run and flow, then a row per point: mean, sample standard deviation, minimum and
//! maximum over the seeds) as CSV or JSON.
//!
//! Numbers that pass between processes (shard files, the page's workers) travel as their
//! exact decimal text ([`Plan::row_json`] with `exact_text`), so nothing is re-rounded: a
//! sweep run anywhere, in any order or split, gives the same bytes.

use crate::scenario::{normalise_path, parse_set_value, set_path, Problem, Scenario};
use crate::schema::{self, Kind};
use crate::sim::{Recording, Simulation};
use serde_json::{json, Map, Value};
use std::fmt::Write as _;

/// Most runs one sweep may hold (`cwndlab sweep`; split bigger ones with shards).
pub const MAX_RUNS: usize = 1_000_000;

/// Most runs one sweep may hold in the page (each runs in a browser tab's workers).
pub const PAGE_MAX_RUNS: usize = 2_000;

mod metrics;

pub use metrics::{metric, metric_names, vocabulary_json, Metric, METRIC_TABLE};

/// What is wrong with a sweep's definition: the field (`range`, `seeds`, `metrics`, …, as
/// the CLI's options and the page's definition name them) and the message.
#[derive(Clone, Debug, PartialEq)]
pub struct DefinitionError {
    /// The field of the definition.
    pub field: &'static str,
    /// What is wrong and what is allowed (options named with the caller's prefix).
    pub message: String,
}

/// One parameter axis: the path and its values (exact text and parsed value).
#[derive(Clone, Debug)]
pub struct Axis {
    /// The scenario path, as given.
    pub path: String,
    /// Each value as exact text and as the JSON value it sets.
    pub values: Vec<(String, Value)>,
}

/// Parses `FROM:TO:N[:log]` into N values as exact text, integers for an integer parameter.
/// The error is the reason alone (the caller names the option).
pub fn range_values(spec: &str, path: &str) -> Result<Vec<String>, String> {
    let parts: Vec<&str> = spec.split(':').collect();
    if !(3..=4).contains(&parts.len()) {
        return Err("wrong number of fields".into());
    }
    let from: f64 = parts[0].parse().map_err(|_| "FROM is not a number")?;
    let to: f64 = parts[1].parse().map_err(|_| "TO is not a number")?;
    let n: usize = parts[2].parse().map_err(|_| "N is not a whole number")?;
    let log = match parts.get(3) {
        None => false,
        Some(&"log") => true,
        Some(_) => return Err("the fourth field can only be `log`".into()),
    };
    if n == 0 || !from.is_finite() || !to.is_finite() {
        return Err("N must be at least 1 and FROM, TO finite".into());
    }
    if log && (from <= 0.0 || to <= 0.0) {
        return Err("a log range needs FROM and TO above 0".into());
    }
    let integer = normalise_path(path)
        .ok()
        .and_then(|(p, _)| schema::find(&p))
        .is_some_and(|d| matches!(d.kind, Kind::Int { .. }));
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let f = if n == 1 { 0.0 } else { i as f64 / (n - 1) as f64 };
        let x = if log {
            // from · (to/from)^f by exp/ln of the host: the values are written out exactly
            // and every run reads the same text, so this is reproducible per sweep file.
            (from.ln() + f * (to.ln() - from.ln())).exp()
        } else {
            from + f * (to - from)
        };
        let x = if i == 0 {
            from
        } else if i == n - 1 {
            to
        } else {
            // Ten significant digits: the text written is the value every run uses.
            format!("{x:.9e}").parse().unwrap_or(x)
        };
        out.push(if integer {
            format!("{}", x.round() as u64)
        } else {
            number_text(x)
        });
    }
    Ok(out)
}

/// The N of a `FROM:TO:N[:log]` range, read before its values are made (a front end with a
/// smaller limit refuses a huge N without building it); None when it is not a range.
pub fn range_len(spec: &str) -> Option<usize> {
    spec.split(':').nth(2)?.parse().ok()
}

/// An axis from a list of values or a range (`prefix`: how the caller's options are
/// written, `--` for the CLI's, `` for the page's definition keys).
pub fn axis(path: &str, values: &[String], range: Option<&str>, prefix: &str) -> Result<Axis, DefinitionError> {
    let texts = match range {
        Some(r) => range_values(r, path).map_err(|why| DefinitionError {
            field: "range",
            message: format!("{prefix}range {r}: {why}; expected FROM:TO:N or FROM:TO:N:log"),
        })?,
        None => values.iter().map(|s| s.trim().to_string()).collect(),
    };
    if texts.is_empty() || texts.iter().any(String::is_empty) {
        return Err(DefinitionError {
            field: "values",
            message: format!("{path}: give at least one value, none empty"),
        });
    }
    Ok(Axis {
        path: path.to_string(),
        values: texts.into_iter().map(|t| (t.clone(), parse_set_value(&t))).collect(),
    })
}

/// A sweep as asked for: the CLI's options, or the page's definition
/// (`{"param", "values"|"range", "param2", "values2"|"range2", "algorithms", "seeds"|"seed_list",
/// "metrics"}`, [`Definition::from_json`]).
#[derive(Clone, Debug, Default)]
pub struct Definition {
    /// The parameter to vary.
    pub param: String,
    /// Its values as text (when no range).
    pub values: Vec<String>,
    /// Its values as `FROM:TO:N[:log]`.
    pub range: Option<String>,
    /// A second parameter (every combination with the first is run).
    pub param2: Option<String>,
    /// Its values as text.
    pub values2: Vec<String>,
    /// Its values as a range.
    pub range2: Option<String>,
    /// Catalogue names run at every point, set on every flow (none: the scenario's own).
    pub algorithms: Vec<String>,
    /// Seeds 1 to N at every point.
    pub seeds: Option<u64>,
    /// These seeds at every point (neither: the scenario's seed).
    pub seed_list: Vec<u64>,
    /// Metrics to report (none: all).
    pub metrics: Vec<String>,
    /// Where the base scenario came from, as the output names it (the page's definition
    /// may say; the CLI names its file or preset).
    pub source: Option<String>,
}

impl Definition {
    /// Reads the page's definition; an error names the field and what it takes.
    pub fn from_json(v: &Value) -> Result<Definition, DefinitionError> {
        let bad = |field: &'static str, what: &str| DefinitionError {
            field,
            message: format!("{field}: expected {what}"),
        };
        let Some(obj) = v.as_object() else {
            return Err(bad("definition", "a JSON object"));
        };
        let text = |field: &'static str| -> Result<Option<String>, DefinitionError> {
            match obj.get(field) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(bad(field, "a string")),
            }
        };
        let texts = |field: &'static str| -> Result<Vec<String>, DefinitionError> {
            match obj.get(field) {
                None | Some(Value::Null) => Ok(vec![]),
                Some(Value::Array(a)) => a
                    .iter()
                    .map(|x| match x {
                        Value::String(s) => Ok(s.clone()),
                        Value::Number(n) => Ok(n.to_string()),
                        _ => Err(bad(field, "a list of values")),
                    })
                    .collect(),
                Some(_) => Err(bad(field, "a list of values")),
            }
        };
        let known = [
            "param",
            "values",
            "range",
            "param2",
            "values2",
            "range2",
            "algorithms",
            "seeds",
            "seed_list",
            "metrics",
            "source",
        ];
        if let Some(k) = obj.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(DefinitionError {
                field: "definition",
                message: format!("unknown field `{k}`; allowed: {}", known.join(", ")),
            });
        }
        let seeds = match obj.get("seeds") {
            None | Some(Value::Null) => None,
            Some(x) => Some(
                x.as_u64()
                    .ok_or_else(|| bad("seeds", "a whole number of seeds, at least 1"))?,
            ),
        };
        let seed_list = match obj.get("seed_list") {
            None | Some(Value::Null) => vec![],
            Some(Value::Array(a)) => a
                .iter()
                .map(|x| x.as_u64().ok_or_else(|| bad("seed_list", "a list of whole numbers")))
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(bad("seed_list", "a list of whole numbers")),
        };
        let def = Definition {
            param: text("param")?.ok_or_else(|| bad("param", "the scenario path of the parameter to vary"))?,
            values: texts("values")?,
            range: text("range")?,
            param2: text("param2")?,
            values2: texts("values2")?,
            range2: text("range2")?,
            algorithms: texts("algorithms")?,
            seeds,
            seed_list,
            metrics: texts("metrics")?,
            source: text("source")?,
        };
        if def.range.is_some() && !def.values.is_empty() {
            return Err(DefinitionError {
                field: "range",
                message: "give values or range, not both".into(),
            });
        }
        if def.seeds.is_some() && !def.seed_list.is_empty() {
            return Err(DefinitionError {
                field: "seeds",
                message: "give seeds or seed_list, not both".into(),
            });
        }
        Ok(def)
    }
}

/// The sweep as planned: what is varied, over what, and which metrics are reported.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Where the base scenario came from (a file, a preset, the page).
    pub source: String,
    /// The axes, the first varying slowest.
    pub axes: Vec<Axis>,
    /// Catalogue names (empty: the scenario's own algorithm).
    pub algorithms: Vec<String>,
    /// Seeds run at every point.
    pub seeds: Vec<u64>,
    /// Metrics reported.
    pub metrics: Vec<String>,
}

/// One run of the plan.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// Its place in the run list.
    pub index: usize,
    /// The value index on each axis.
    pub values: Vec<usize>,
    /// The algorithm's index in the plan (None: the scenario's own).
    pub algorithm: Option<usize>,
    /// The seed.
    pub seed: u64,
}

/// One result row: a run and one of its flows.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The run's index.
    pub run: usize,
    /// Each axis value as exact text.
    pub values: Vec<String>,
    /// The algorithm's name (the flow's own when the sweep names none).
    pub algorithm: String,
    /// The seed.
    pub seed: u64,
    /// The flow.
    pub flow: u32,
    /// Each reported metric (None: null in the summary).
    pub metrics: Vec<Option<f64>>,
}

/// Output format of [`Plan::render`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A row per run and flow, then per point.
    Csv,
    /// `{"sweep", "runs", "points"}`.
    Json,
}

impl Plan {
    /// Plans a sweep over a (resolved) base scenario; `prefix` is how the caller writes its
    /// options in messages (`--` for the CLI).
    pub fn new(def: &Definition, source: &str, base: &Value, prefix: &str) -> Result<Plan, DefinitionError> {
        let mut axes = vec![axis(&def.param, &def.values, def.range.as_deref(), prefix)?];
        if let Some(p2) = &def.param2 {
            if def.values2.is_empty() && def.range2.is_none() {
                return Err(DefinitionError {
                    field: "param2",
                    message: format!("{prefix}param2 needs {prefix}values2 or {prefix}range2"),
                });
            }
            axes.push(axis(p2, &def.values2, def.range2.as_deref(), prefix)?);
        }
        let base_seed = base["seed"].as_u64().unwrap_or(1);
        let seeds = match (def.seeds, def.seed_list.is_empty()) {
            (Some(0), _) => {
                return Err(DefinitionError {
                    field: "seeds",
                    message: format!("{prefix}seeds must be at least 1"),
                })
            }
            (Some(n), _) if n > MAX_RUNS as u64 => {
                return Err(DefinitionError {
                    field: "seeds",
                    message: format!("{prefix}seeds must be at most {MAX_RUNS}"),
                })
            }
            (Some(n), _) => (1..=n).collect(),
            (None, false) => def.seed_list.clone(),
            (None, true) => vec![base_seed],
        };
        let metrics: Vec<String> = if def.metrics.is_empty() {
            metric_names().iter().map(|m| m.to_string()).collect()
        } else {
            let names = metric_names();
            let bad: Vec<&String> = def.metrics.iter().filter(|m| !names.contains(&m.as_str())).collect();
            if !bad.is_empty() {
                return Err(DefinitionError {
                    field: "metrics",
                    message: format!(
                        "{prefix}metrics: unknown metric {}; allowed: {}",
                        bad.iter().map(|b| format!("`{b}`")).collect::<Vec<_>>().join(", "),
                        names.join(", ")
                    ),
                });
            }
            def.metrics.clone()
        };
        Ok(Plan {
            source: source.to_string(),
            axes,
            algorithms: def.algorithms.iter().map(|s| s.trim().to_string()).collect(),
            seeds,
            metrics,
        })
    }

    /// How many runs the plan holds (without listing them).
    pub fn runs_total(&self) -> usize {
        let algs = self.algorithms.len().max(1);
        self.axes
            .iter()
            .map(|a| a.values.len())
            .chain([algs, self.seeds.len()])
            .fold(1usize, |n, k| n.saturating_mul(k))
    }

    /// Every run, in order: the first axis varies slowest, then the second, the algorithm,
    /// the seed.
    pub fn runs(&self) -> Vec<RunSpec> {
        (0..self.runs_total()).map(|i| self.run(i)).collect()
    }

    /// Run `index` of [`Plan::runs`] (index below [`Plan::runs_total`]).
    pub fn run(&self, index: usize) -> RunSpec {
        let n_algs = self.algorithms.len().max(1);
        let n_seeds = self.seeds.len();
        let seed = self.seeds[index % n_seeds];
        let a = (index / n_seeds) % n_algs;
        let mut rest = index / n_seeds / n_algs;
        let mut values = vec![0; self.axes.len()];
        for (k, axis) in self.axes.iter().enumerate().rev() {
            let n = axis.values.len();
            values[k] = rest % n;
            rest /= n;
        }
        RunSpec {
            index,
            values,
            algorithm: (!self.algorithms.is_empty()).then_some(a),
            seed,
        }
    }

    /// The scenario of one run: the base, then each axis value, the algorithm, the seed.
    /// The error: the run described ([`Plan::describe`]) and its problems.
    pub fn scenario(&self, base: &Value, r: &RunSpec) -> Result<Scenario, (String, Vec<Problem>)> {
        let mut doc = base.clone();
        let mut problems = Vec::new();
        for (axis, &i) in self.axes.iter().zip(&r.values) {
            if let Err(p) = set_path(&mut doc, &axis.path, axis.values[i].1.clone()) {
                problems.push(p);
            }
        }
        if let Some(a) = r.algorithm {
            if let Err(p) = set_path(&mut doc, "flows[].algorithm", json!(self.algorithms[a])) {
                problems.push(p);
            }
        }
        if let Err(p) = set_path(&mut doc, "seed", json!(r.seed)) {
            problems.push(p);
        }
        if !problems.is_empty() {
            return Err((self.describe(r), problems));
        }
        Scenario::from_value(&doc).map_err(|p| (self.describe(r), p))
    }

    /// A run in words: `run 3, network.bottleneck.loss.ber = 1e-6, algorithm reno, seed 2`.
    pub fn describe(&self, r: &RunSpec) -> String {
        let mut s = format!("run {}", r.index);
        for (axis, &i) in self.axes.iter().zip(&r.values) {
            let _ = write!(s, ", {} = {}", axis.path, axis.values[i].0);
        }
        if let Some(a) = r.algorithm {
            let _ = write!(s, ", algorithm {}", self.algorithms[a]);
        }
        let _ = write!(s, ", seed {}", r.seed);
        s
    }

    /// The rows of a run from its summary: one per flow.
    pub fn rows(&self, r: &RunSpec, summary: &crate::summary::Summary) -> Vec<Row> {
        let summary = serde_json::to_value(summary).expect("json");
        let flows = summary["flows"].as_array().cloned().unwrap_or_default();
        flows
            .iter()
            .enumerate()
            .map(|(f, fv)| Row {
                run: r.index,
                values: r
                    .values
                    .iter()
                    .zip(&self.axes)
                    .map(|(&i, ax)| ax.values[i].0.clone())
                    .collect(),
                algorithm: r.algorithm.map_or_else(
                    || fv["algorithm"].as_str().unwrap_or("").to_string(),
                    |k| self.algorithms[k].clone(),
                ),
                seed: r.seed,
                flow: f as u32,
                metrics: self.metrics.iter().map(|m| metric(fv, m)).collect(),
            })
            .collect()
    }

    /// Runs one run to its end, summary only (what the CLI does in slices).
    pub fn run_rows(&self, base: &Value, r: &RunSpec) -> Result<Vec<Row>, (String, Vec<Problem>)> {
        let s = self.scenario(base, r)?;
        let mut sim = Simulation::new(&s);
        sim.set_recording(Recording::Summary { digest: false });
        sim.run_to_end();
        Ok(self.rows(r, &sim.summary()))
    }

    /// Reads back [`Plan::to_json`] (a shard file's `sweep`).
    pub fn from_json(def: &Value) -> Plan {
        let strings = |v: &Value| -> Vec<String> {
            v.as_array()
                .into_iter()
                .flatten()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        };
        Plan {
            source: def["source"].as_str().unwrap_or_default().to_string(),
            axes: def["params"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| Axis {
                    path: p["path"].as_str().unwrap_or_default().to_string(),
                    values: strings(&p["values"])
                        .into_iter()
                        .map(|t| {
                            let v = parse_set_value(&t);
                            (t, v)
                        })
                        .collect(),
                })
                .collect(),
            algorithms: strings(&def["algorithms"]),
            seeds: def["seeds"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_u64)
                .collect(),
            metrics: strings(&def["metrics"]),
        }
    }

    /// The sweep's definition as JSON: shards of one sweep carry the same.
    pub fn to_json(&self, runs_total: usize) -> Value {
        json!({
            "source": self.source,
            "params": self.axes.iter().map(|a| json!({
                "path": a.path,
                "values": a.values.iter().map(|(t, _)| t.clone()).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "algorithms": self.algorithms,
            "seeds": self.seeds,
            "metrics": self.metrics,
            "runs_total": runs_total,
        })
    }

    /// A row as JSON: `{run, params: {path: value}, algorithm, seed, flow, metrics: {name:
    /// value|null}}`; with `exact_text` the values and metrics are their exact decimal text
    /// (shards, the page's workers: read back by [`Plan::row_from_json`]).
    pub fn row_json(&self, r: &Row, exact_text: bool) -> Value {
        let params: Map<String, Value> = self
            .axes
            .iter()
            .zip(&r.values)
            .map(|(a, t)| (a.path.clone(), if exact_text { json!(t) } else { parse_set_value(t) }))
            .collect();
        let metrics: Map<String, Value> = self
            .metrics
            .iter()
            .zip(&r.metrics)
            .map(|(m, v)| {
                let v = match v {
                    None => Value::Null,
                    Some(x) if exact_text => json!(num(*x)),
                    Some(x) => json!(x),
                };
                (m.clone(), v)
            })
            .collect();
        json!({"run": r.run, "params": params, "algorithm": r.algorithm, "seed": r.seed, "flow": r.flow, "metrics": metrics})
    }

    /// Reads a row written by [`Plan::row_json`] with exact text; None when malformed.
    pub fn row_from_json(&self, r: &Value) -> Option<Row> {
        let text = |x: &Value| x.as_str().map(String::from);
        Some(Row {
            run: r["run"].as_u64()? as usize,
            values: self
                .axes
                .iter()
                .map(|a| text(&r["params"][&a.path]))
                .collect::<Option<Vec<_>>>()?,
            algorithm: r["algorithm"].as_str()?.to_string(),
            seed: r["seed"].as_u64()?,
            flow: r["flow"].as_u64()? as u32,
            metrics: self
                .metrics
                .iter()
                .map(|m| match &r["metrics"][m] {
                    Value::Null => Some(None),
                    Value::String(t) => t.parse::<f64>().ok().map(Some),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()?,
        })
    }

    /// The whole sweep's output: one row per run and flow, then one per point.
    pub fn render(&self, rows: &[Row], runs_total: usize, format: Format) -> String {
        let pts = points(rows);
        match format {
            Format::Json => {
                let points: Vec<Value> = pts
                    .iter()
                    .map(|p| {
                        let f = p.rows[0];
                        let params: Map<String, Value> = self
                            .axes
                            .iter()
                            .zip(&f.values)
                            .map(|(a, t)| (a.path.clone(), parse_set_value(t)))
                            .collect();
                        let metrics: Map<String, Value> = self
                            .metrics
                            .iter()
                            .enumerate()
                            .map(|(k, m)| {
                                let xs: Vec<f64> = p.rows.iter().filter_map(|r| r.metrics[k]).collect();
                                let v = stats(&xs).map_or(Value::Null, |(mean, sd, min, max)| {
                                    json!({"mean": mean, "std": sd, "min": min, "max": max})
                                });
                                (m.clone(), v)
                            })
                            .collect();
                        json!({"params": params, "algorithm": f.algorithm, "flow": f.flow, "n": p.rows.len(), "metrics": metrics})
                    })
                    .collect();
                let v = json!({
                    "sweep": self.to_json(runs_total),
                    "runs": rows.iter().map(|r| self.row_json(r, false)).collect::<Vec<_>>(),
                    "points": points,
                });
                serde_json::to_string_pretty(&v).expect("json")
            }
            Format::Csv => {
                let mut out = String::from("kind,run");
                for a in &self.axes {
                    out.push(',');
                    out.push_str(&csv_field(&a.path));
                }
                out.push_str(",algorithm,seed,flow,n");
                for m in &self.metrics {
                    let _ = write!(out, ",{m},{m}_std,{m}_min,{m}_max");
                }
                out.push('\n');
                let opt = |x: Option<f64>| x.map_or(String::new(), num);
                for r in rows {
                    let _ = write!(out, "run,{}", r.run);
                    for t in &r.values {
                        let _ = write!(out, ",{}", csv_field(t));
                    }
                    let _ = write!(out, ",{},{},{},1", csv_field(&r.algorithm), r.seed, r.flow);
                    for x in &r.metrics {
                        let _ = write!(out, ",{},,,", opt(*x));
                    }
                    out.push('\n');
                }
                for p in &pts {
                    let f = p.rows[0];
                    out.push_str("point,");
                    for t in &f.values {
                        let _ = write!(out, ",{}", csv_field(t));
                    }
                    let _ = write!(out, ",{},,{},{}", csv_field(&f.algorithm), f.flow, p.rows.len());
                    for k in 0..self.metrics.len() {
                        let xs: Vec<f64> = p.rows.iter().filter_map(|r| r.metrics[k]).collect();
                        match stats(&xs) {
                            Some((mean, sd, min, max)) => {
                                let _ = write!(out, ",{},{},{},{}", num(mean), num(sd), num(min), num(max));
                            }
                            None => out.push_str(",,,,"),
                        }
                    }
                    out.push('\n');
                }
                out.trim_end().to_string()
            }
        }
    }
}

/// A number as its shortest exact decimal text.
fn num(x: f64) -> String {
    format!("{x}")
}

/// A parameter value as readable exact text: plain decimals in [0.001, 10⁷), else
/// scientific (1e-7, not 0.0000001).
fn number_text(x: f64) -> String {
    if x == 0.0 || (1e-3..1e7).contains(&x.abs()) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// Mean, sample standard deviation, min and max of the values present.
fn stats(xs: &[f64]) -> Option<(f64, f64, f64, f64)> {
    if xs.is_empty() {
        return None;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let min = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Some((mean, var.sqrt(), min, max))
}

/// A point: the rows of one (parameter values, algorithm, flow) over seeds.
struct Point<'a> {
    rows: Vec<&'a Row>,
}

fn points(rows: &[Row]) -> Vec<Point<'_>> {
    let mut out: Vec<Point> = Vec::new();
    for r in rows {
        let same = |p: &Point| {
            let f = p.rows[0];
            f.values == r.values && f.algorithm == r.algorithm && f.flow == r.flow
        };
        match out.iter_mut().rev().find(|p| same(p)) {
            Some(p) => p.rows.push(r),
            None => out.push(Point { rows: vec![r] }),
        }
    }
    out
}

fn csv_field(t: &str) -> String {
    if t.contains([',', '"', '\n']) {
        format!("\"{}\"", t.replace('"', "\"\""))
    } else {
        t.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(param: &str, range: &str) -> Definition {
        Definition {
            param: param.into(),
            range: Some(range.into()),
            ..Definition::default()
        }
    }

    #[test]
    fn ranges_are_exact_text_integers_for_integer_parameters() {
        assert_eq!(
            range_values("1e-7:1e-5:3:log", "network.bottleneck.loss.ber").unwrap(),
            ["1e-7", "1e-6", "1e-5"]
        );
        assert_eq!(
            range_values("5:50:4", "network.bottleneck.queue_packets").unwrap(),
            ["5", "20", "35", "50"]
        );
        assert_eq!(
            range_values("0:1:3", "network.bottleneck.delay").unwrap(),
            ["0", "0.5", "1"]
        );
        assert_eq!(range_values("1:5", "seed").unwrap_err(), "wrong number of fields");
        assert!(range_values("0:5:3:log", "seed").unwrap_err().contains("above 0"));
        assert!(range_values("1:5:0", "seed").unwrap_err().contains("at least 1"));
    }

    #[test]
    fn the_run_list_varies_the_first_axis_slowest_then_algorithm_then_seed() {
        let base = crate::scenario::resolve(&json!({})).unwrap();
        let mut d = def("network.bottleneck.delay", "0.01:0.02:2");
        d.param2 = Some("network.bottleneck.queue_packets".into());
        d.values2 = vec!["10".into(), "20".into(), "30".into()];
        d.algorithms = vec!["reno".into(), "newreno".into()];
        d.seeds = Some(2);
        let plan = Plan::new(&d, "test", &base, "").unwrap();
        assert_eq!(plan.runs_total(), 24);
        let runs = plan.runs();
        let keys: Vec<(Vec<usize>, Option<usize>, u64)> =
            runs.iter().map(|r| (r.values.clone(), r.algorithm, r.seed)).collect();
        assert_eq!(keys[0], (vec![0, 0], Some(0), 1));
        assert_eq!(keys[1], (vec![0, 0], Some(0), 2));
        assert_eq!(keys[2], (vec![0, 0], Some(1), 1));
        assert_eq!(keys[4], (vec![0, 1], Some(0), 1));
        assert_eq!(keys[12], (vec![1, 0], Some(0), 1));
        assert_eq!(keys[23], (vec![1, 2], Some(1), 2));
        let s = plan.scenario(&base, &runs[23]).unwrap();
        assert_eq!(s.seed, 2);
        assert_eq!(s.flows[0].algorithm, "newreno");
    }

    #[test]
    fn a_bad_definition_names_its_field_and_what_is_allowed() {
        let base = crate::scenario::resolve(&json!({})).unwrap();
        let e = Plan::new(&def("seed", "1:5"), "t", &base, "").unwrap_err();
        assert_eq!(e.field, "range");
        assert_eq!(
            e.message,
            "range 1:5: wrong number of fields; expected FROM:TO:N or FROM:TO:N:log"
        );
        let mut d = def("seed", "1:5:2");
        d.metrics = vec!["speed".into()];
        let e = Plan::new(&d, "t", &base, "--").unwrap_err();
        assert_eq!(e.field, "metrics");
        assert!(e
            .message
            .starts_with("--metrics: unknown metric `speed`; allowed: goodput_bps,"));
        let e = Definition::from_json(&json!({"param": "seed", "seeds": -1})).unwrap_err();
        assert_eq!(e.field, "seeds");
        let e = Definition::from_json(&json!({"param": "seed", "colour": 1})).unwrap_err();
        assert!(e.message.contains("unknown field `colour`"));
        // A value the parameter refuses names the run, the parameter and the allowed range.
        let plan = Plan::new(&def("network.bottleneck.loss.ber", "0:1:2"), "t", &base, "").unwrap();
        let (run, problems) = plan.scenario(&base, &plan.run(1)).unwrap_err();
        assert_eq!(run, "run 1, network.bottleneck.loss.ber = 1, seed 1");
        assert!(problems[0].to_string().contains("allowed 0 to"), "{}", problems[0]);
    }

    #[test]
    fn rows_travel_as_exact_text_and_render_the_same() {
        let base = crate::scenario::resolve(&json!({"duration": 1})).unwrap();
        let mut d = def("network.bottleneck.loss.ber", "1e-6:1e-5:2:log");
        d.seeds = Some(2);
        let plan = Plan::new(&d, "t", &base, "").unwrap();
        let rows: Vec<Row> = plan
            .runs()
            .iter()
            .flat_map(|r| plan.run_rows(&base, r).unwrap())
            .collect();
        let back: Vec<Row> = rows
            .iter()
            .map(|r| plan.row_from_json(&plan.row_json(r, true)).unwrap())
            .collect();
        assert_eq!(back, rows);
        let csv = plan.render(&rows, 4, Format::Csv);
        assert_eq!(csv.lines().count(), 1 + 4 + 2);
        assert_eq!(METRIC_TABLE.len(), plan.metrics.len());
    }
}
