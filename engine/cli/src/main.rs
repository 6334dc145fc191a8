//! `cwndlab`: run, sweep, validate and inspect cwndlab scenarios from the command line.
//!
//! Exit codes: 0 success; 1 the scenario (or a file it needs) is invalid or unreadable, or
//! an output cannot be written; 2 bad usage (an unknown command or option, a missing or
//! malformed argument); 3 an internal error (a bug: reported without a backtrace, with
//! what to send us); 130 (143) `run` or `sweep` stopped by Ctrl-C (SIGTERM), nothing
//! written.

mod exercise;
mod explain;
mod input;
mod interrupt;
mod output;
mod progress;
mod run;
mod sweep;
mod textbook;

use clap::{Parser, Subcommand, ValueEnum};
use cwndlab_core::catalogue;
use cwndlab_core::presets;
use cwndlab_core::scenario::Scenario;
use cwndlab_core::schema;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

const EXIT_CODES: &str = "\
Exit codes: 0 success · 1 invalid scenario, unreadable input or unwritable output ·
2 bad usage · 3 internal error (a bug in cwndlab: please report it) · 130 (143) interrupted
by Ctrl-C (SIGTERM): no output written.

Docs: docs/cli.md (every command, option and output column), docs/parameters.md (every
scenario parameter).";

/// A deterministic, packet-level TCP congestion-control simulator.
#[derive(Parser, Debug)]
#[command(name = "cwndlab", version, about = "cwndlab: a deterministic, packet-level TCP congestion-control simulator", after_help = EXIT_CODES, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Simulate one scenario and print its summary (per-flow goodput, retransmissions, …)
    Run(run::RunArgs),
    /// Print why the run did what it did: every decision with its rule, numbers and source
    Explain(explain::ExplainArgs),
    /// An exercise sheet about a run with its answer key (each answer from the run's record,
    /// with the rule behind it): Markdown or JSON; --sheet N chooses the questions
    Exercise(exercise::ExerciseArgs),
    /// The textbook's round model in a convention (Kurose & Ross, RFC 5681 read per round;
    /// Reno or Tahoe): each round's cwnd, ssthresh, phase, segments and rule; --segment K
    /// says in which round segment K is sent
    Textbook(textbook::TextbookArgs),
    /// List the rules an explained decision can name (ids for `explain --rule`)
    Rules {
        /// As JSON, with each rule's formula, inputs and outputs, and the glossary
        #[arg(long)]
        json: bool,
    },
    /// Run every combination of parameter values, algorithms and seeds, in parallel
    Sweep(Box<sweep::SweepArgs>),
    /// Merge the JSON outputs of a sharded sweep into what the whole sweep prints
    SweepMerge(sweep::MergeArgs),
    /// Check a scenario file and list every problem at once
    Validate {
        /// The scenario file
        #[arg(value_name = "FILE.json")]
        file: PathBuf,
    },
    /// List the built-in scenarios
    Presets {
        /// The course path instead: the lessons in teaching order (stop id, preset, title,
        /// what it teaches), as the page's Course bar walks them
        #[arg(long)]
        course: bool,
    },
    /// List the named algorithms (values of flows[].algorithm) and the settings each means
    Algorithms {
        /// As JSON, with each entry's settings
        #[arg(long)]
        json: bool,
    },
    /// Print every scenario parameter with its unit, default and allowed range
    Schema {
        /// As a Markdown table (docs/parameters.md) instead of JSON
        #[arg(long)]
        markdown: bool,
    },
}

/// Output format of `run` and `sweep`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// JSON
    Json,
    /// CSV
    Csv,
}

/// A user-facing failure: message and exit code.
#[derive(Debug)]
pub struct Fail(pub String, pub u8);

impl Fail {
    /// Bad usage (exit 2).
    pub fn usage(msg: impl Into<String>) -> Fail {
        Fail(format!("{}\n\nFor more information, try '--help'.", msg.into()), 2)
    }

    /// Invalid input or unusable output (exit 1).
    pub fn invalid(msg: impl Into<String>) -> Fail {
        Fail(msg.into(), 1)
    }
}

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        output::remove_temps();
        eprintln!(
            "cwndlab: internal error: {info}\n\
             This is a bug in cwndlab {}, not a problem with your input. Please report it with the \
             command line and the scenario file (or preset) that caused it.",
            env!("CARGO_PKG_VERSION")
        );
        std::process::exit(3);
    }));
    // A way for the test suite to check what a user sees when cwndlab has a bug.
    if std::env::var_os("CWNDLAB_TEST_PANIC").is_some() {
        panic!("test panic requested by CWNDLAB_TEST_PANIC");
    }
    let cli = Cli::parse();
    interrupt::catch_file_size_limit();
    match dispatch(&cli.command) {
        Ok(out) => {
            if !out.is_empty() {
                use std::io::Write;
                // Printed only now that everything is done, in one write: stdout never holds
                // half an output.
                let mut stdout = std::io::stdout().lock();
                if let Err(e) = stdout
                    .write_all(format!("{out}\n").as_bytes())
                    .and_then(|_| stdout.flush())
                {
                    // A reader that stopped early (`cwndlab run … | head`) is not an error.
                    if e.kind() != std::io::ErrorKind::BrokenPipe {
                        eprintln!("error: writing the output: {e}");
                        return ExitCode::from(1);
                    }
                }
            }
            ExitCode::SUCCESS
        }
        // Ctrl-C or SIGTERM: the message says so itself.
        Err(Fail(msg, code)) if code >= 128 => {
            eprintln!("{msg}");
            ExitCode::from(code)
        }
        Err(Fail(msg, code)) => {
            eprintln!("error: {msg}");
            ExitCode::from(code)
        }
    }
}

fn dispatch(c: &Command) -> Result<String, Fail> {
    match c {
        Command::Run(a) => run::run(a),
        Command::Explain(a) => explain::explain(a),
        Command::Exercise(a) => exercise::exercise(a),
        Command::Textbook(a) => textbook::textbook(a),
        Command::Rules { json } => Ok(if *json {
            serde_json::to_string_pretty(&cwndlab_core::explain::rules_json()).expect("json")
        } else {
            explain::list_rules()
        }),
        Command::Sweep(a) => sweep::sweep(a),
        Command::SweepMerge(a) => sweep::merge(a),
        Command::Validate { file } => validate(file),
        Command::Presets { course } => Ok(if *course { course_list() } else { presets_list() }),
        Command::Algorithms { json } => Ok(if *json {
            serde_json::to_string_pretty(&cwndlab_core::machine::catalogue_json()).expect("json")
        } else {
            algorithms_list()
        }),
        Command::Schema { markdown } => Ok(if *markdown {
            schema::markdown().trim_end().to_string()
        } else {
            serde_json::to_string_pretty(&schema::schema_json()).expect("json")
        }),
    }
}

fn validate(file: &std::path::Path) -> Result<String, Fail> {
    let v = input::read_json_file(file)?;
    let name = file.display().to_string();
    match Scenario::from_value(&v) {
        Ok(s) => Ok(format!(
            "{name}: valid ({} flow{}, {} s)",
            s.flows.len(),
            if s.flows.len() == 1 { "" } else { "s" },
            s.duration
        )),
        Err(p) => Err(input::problems_error(&name, &p)),
    }
}

/// One line per preset, in menu order: its name, its title, and its family's title.
fn presets_list() -> String {
    let all = presets::all();
    let width = all.iter().map(|p| p.name.len()).max().unwrap_or(0);
    let family = |name: &str| {
        presets::FAMILIES
            .iter()
            .find(|f| f.name == name)
            .map_or("", |f| f.title)
    };
    all.iter()
        .map(|p| format!("{:width$}  {} · {}", p.name, p.title, family(p.family)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The course path, one stop a line: number, id (`course=<id>` in a link), preset, title,
/// and what it teaches.
fn course_list() -> String {
    let course = &presets::course::COURSE;
    let id = course.iter().map(|s| s.id.len()).max().unwrap_or(0);
    let preset = course.iter().map(|s| s.preset.len()).max().unwrap_or(0);
    course
        .iter()
        .enumerate()
        .map(|(i, s)| {
            format!(
                "{:2}. {:id$}  {:preset$}  {}: {}",
                i + 1,
                s.id,
                s.preset,
                s.title,
                s.teaches
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn algorithms_list() -> String {
    let width = catalogue::CATALOGUE.iter().map(|a| a.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    let mut group = "";
    for a in catalogue::CATALOGUE {
        if a.group != group {
            group = a.group;
            let _ = writeln!(out, "{}{group}:", if out.is_empty() { "" } else { "\n" });
        }
        let settings: Vec<String> = a.settings.iter().map(|(p, v)| format!("{p}={v}")).collect();
        let _ = writeln!(out, "  {:width$}  {} — {}", a.name, a.label, a.description);
        let _ = writeln!(out, "  {:width$}  ({})", "", settings.join(", "));
    }
    out.trim_end().to_string()
}
