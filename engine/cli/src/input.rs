//! Where a scenario comes from: a file or a preset, then `--seed`, `--duration` and `--set`
//! changes, in that order. Shared by `run` and `sweep`.

use crate::Fail;
use clap::Args;
use cwndlab_core::presets;
use cwndlab_core::scenario::{parse_set_value, resolve, set_path, Problem};
use serde_json::{json, Value};
use std::path::PathBuf;

/// The scenario options of `run` and `sweep`.
#[derive(Args, Debug, Clone)]
pub struct ScenarioArgs {
    /// Scenario file: a JSON object holding what differs from the defaults
    /// (docs/parameters.md lists every parameter)
    #[arg(value_name = "FILE.json", required_unless_present = "preset")]
    pub file: Option<PathBuf>,
    /// A built-in scenario instead of a file (`cwndlab presets` lists them)
    #[arg(long, value_name = "NAME", conflicts_with = "file")]
    pub preset: Option<String>,
    /// Seed of every random decision
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Simulated time, seconds
    #[arg(long, value_name = "SECONDS")]
    pub duration: Option<f64>,
    /// Change one parameter, e.g. `--set flows[0].algorithm=newreno_cwv` or
    /// `--set network.bottleneck.loss.ber=1e-6` (`flows[].x` changes every flow); repeatable
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub sets: Vec<String>,
}

/// Problems found in a scenario, listed one per line under `context` (exit 1).
pub fn problems_error(context: &str, problems: &[Problem]) -> Fail {
    let mut s = format!(
        "{context}: {} problem{}",
        problems.len(),
        if problems.len() == 1 { "" } else { "s" }
    );
    for p in problems {
        s.push_str(&format!("\n  - {p}"));
    }
    Fail::invalid(s)
}

/// Reads a JSON file (exit 1 if it cannot be read or parsed).
pub fn read_json_file(path: &std::path::Path) -> Result<Value, Fail> {
    let text =
        std::fs::read_to_string(path).map_err(|e| Fail::invalid(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| Fail::invalid(format!("{} is not valid JSON: {e}", path.display())))
}

impl ScenarioArgs {
    /// The scenario document (every setting resolved, the changes applied) and a name for
    /// messages. Not yet checked as a whole: callers build the `Scenario`.
    pub fn load(&self) -> Result<(String, Value), Fail> {
        let (source, doc) = match (&self.file, &self.preset) {
            (Some(f), _) => (f.display().to_string(), read_json_file(f)?),
            (None, Some(name)) => {
                let p = presets::find(name).ok_or_else(|| {
                    let names: Vec<String> = presets::all().into_iter().map(|p| p.name).collect();
                    Fail::usage(format!("unknown preset `{name}`; available: {}", names.join(", ")))
                })?;
                (format!("preset {name}"), p.overrides)
            }
            (None, None) => return Err(Fail::usage("give a scenario FILE.json or --preset NAME")),
        };
        // Resolve first so `--set` on a flow field applies to every flow the scenario has.
        let mut doc = resolve(&doc).map_err(|p| problems_error(&source, &p))?;
        // Each change with the option it came from, so a problem names that option.
        let mut changes: Vec<(&str, String, Value)> = Vec::new();
        if let Some(s) = self.seed {
            changes.push(("--seed", "seed".into(), json!(s)));
        }
        if let Some(d) = self.duration {
            changes.push(("--duration", "duration".into(), json!(d)));
        }
        for s in &self.sets {
            let (path, value) = s
                .split_once('=')
                .ok_or_else(|| Fail::usage(format!("--set {s}: expected PATH=VALUE")))?;
            changes.push(("--set", path.trim().to_string(), parse_set_value(value.trim())));
        }
        let mut options: Vec<&str> = Vec::new();
        let problems: Vec<Problem> = changes
            .into_iter()
            .filter_map(|(option, p, v)| {
                let e = set_path(&mut doc, &p, v).err()?;
                if !options.contains(&option) {
                    options.push(option);
                }
                Some(e)
            })
            .collect();
        if !problems.is_empty() {
            return Err(problems_error(&options.join(", "), &problems));
        }
        Ok((source, doc))
    }
}
