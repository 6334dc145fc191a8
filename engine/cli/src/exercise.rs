//! `cwndlab exercise`: an exercise sheet about one run, with its answer key (every answer
//! from the engine's record of the run, with the rule behind it): Markdown to print, or
//! JSON. The sheet number chooses the questions, so the same command gives the same sheet.

use crate::input::{problems_error, ScenarioArgs};
use crate::Fail;
use clap::{Args, ValueEnum};
use cwndlab_core::catalogue;
use cwndlab_core::exercise::{sheet_in, MAX_QUESTIONS};
use cwndlab_core::explain::ShownUnit;
use cwndlab_core::presets;
use cwndlab_core::scenario::Scenario;
use serde_json::json;

/// Output format of `exercise`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SheetFormat {
    /// Questions, then the answer key after a page break
    Markdown,
    /// Questions with answers, values and rules
    Json,
}

/// Options of `cwndlab exercise`.
#[derive(Args, Debug)]
pub struct ExerciseArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Which sheet: a number that chooses the questions (the same number, the same sheet)
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub sheet: u64,
    /// How many questions
    #[arg(long, value_name = "N", default_value_t = 6)]
    pub questions: usize,
    /// Algorithms to compare for the comparison question (comma-separated catalogue names;
    /// default: a preset's lesson's algorithms when it compares several)
    #[arg(long, value_name = "A,B,…", value_delimiter = ',')]
    pub compare: Vec<String>,
    /// Ask in the textbook's round model instead, in this convention (kurose_ross or
    /// rfc5681), with the run's losses by round (`cwndlab textbook --losses-from`)
    #[arg(long, value_name = "CONVENTION", conflicts_with = "compare")]
    pub textbook: Option<crate::textbook::ConventionArg>,
    /// Write windows and byte counts in this unit first, the other in brackets (segments or
    /// bytes; default: the run's own unit, or segments for a whole number of them)
    #[arg(long, value_name = "UNIT", value_parser = ShownUnit::parse)]
    pub unit: Option<ShownUnit>,
    /// Output format
    #[arg(long, value_enum, default_value_t = SheetFormat::Markdown)]
    pub format: SheetFormat,
}

/// The scenario with flow 0 running `alg` (the page's comparison builds its runs so).
fn with_algorithm(doc: &serde_json::Value, alg: &str) -> Result<Scenario, Fail> {
    let entry = catalogue::find(alg).ok_or_else(|| {
        let names: Vec<&str> = catalogue::CATALOGUE.iter().map(|a| a.name).collect();
        Fail::usage(format!(
            "--compare {alg}: unknown algorithm; allowed: {}",
            names.join(", ")
        ))
    })?;
    let mut d = doc.clone();
    let flow = &mut d["flows"][0];
    catalogue::switch_to(flow, entry);
    flow["algorithm"] = json!(alg);
    Scenario::from_value(&d).map_err(|p| problems_error(&format!("the scenario with {alg}"), &p))
}

/// Runs `cwndlab exercise`.
pub fn exercise(a: &ExerciseArgs) -> Result<String, Fail> {
    if a.questions == 0 || a.questions > MAX_QUESTIONS {
        return Err(Fail::usage(format!(
            "--questions {}: allowed 1 to {MAX_QUESTIONS}",
            a.questions
        )));
    }
    let (source, doc) = a.scenario.load()?;
    let scenario = Scenario::from_value(&doc).map_err(|p| problems_error(&source, &p))?;
    if let Some(c) = a.textbook {
        if a.unit == Some(ShownUnit::Bytes) {
            return Err(Fail::usage(
                "--unit bytes: the textbook's round model counts whole segments, as the conventions do; leave --unit out or use segments",
            ));
        }
        let variant = if scenario.flows[0].variant == cwndlab_core::scenario::Variant::Tahoe {
            cwndlab_core::textbook::Variant::Tahoe
        } else {
            cwndlab_core::textbook::Variant::Reno
        };
        let m = cwndlab_core::textbook::model_of_run(&scenario, crate::textbook::convention_of(c), variant)
            .map_err(Fail::invalid)?;
        let title = format!("Exam sheet: the textbook's round model of {source}");
        let s = cwndlab_core::textbook::sheet::sheet(&title, &m, a.sheet, a.questions).map_err(Fail::invalid)?;
        return Ok(match a.format {
            SheetFormat::Json => serde_json::to_string_pretty(&s.to_json()).expect("json"),
            SheetFormat::Markdown => {
                let cmd: Vec<String> = std::env::args().skip(1).collect();
                s.to_markdown(&format!("cwndlab {}", cmd.join(" ")))
                    .trim_end()
                    .to_string()
            }
        });
    }
    let compare: Vec<String> = if a.compare.is_empty() {
        a.scenario
            .preset
            .as_deref()
            .and_then(presets::find)
            .and_then(|p| p.lesson)
            .filter(|l| l.mode == "compare" && l.compare.len() >= 2)
            .map(|l| l.compare)
            .unwrap_or_default()
    } else {
        a.compare.clone()
    };
    if compare.len() == 1 {
        return Err(Fail::usage("--compare: name at least two algorithms"));
    }
    let others = compare
        .iter()
        .map(|alg| with_algorithm(&doc, alg).map(|s| (alg.clone(), s)))
        .collect::<Result<Vec<_>, _>>()?;
    let title = match &a.scenario.preset {
        Some(p) => format!("Exercise sheet: {p}"),
        None => "Exercise sheet".to_string(),
    };
    let s = sheet_in(&title, &scenario, a.sheet, a.questions, &others, a.unit).map_err(Fail::invalid)?;
    Ok(match a.format {
        SheetFormat::Json => serde_json::to_string_pretty(&s.to_json()).expect("json"),
        SheetFormat::Markdown => {
            let mut cmd: Vec<String> = std::env::args().skip(1).collect();
            if !cmd.iter().any(|c| c.starts_with("--sheet")) {
                cmd.push(format!("--sheet {}", a.sheet));
            }
            let regenerate = format!("cwndlab {}", cmd.join(" "));
            s.to_markdown(&regenerate).trim_end().to_string()
        }
    })
}
