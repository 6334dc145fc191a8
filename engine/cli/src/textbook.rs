//! `cwndlab textbook`: the textbook's round model in a chosen convention (Kurose & Ross, or
//! RFC 5681 read per round; Reno or Tahoe; the halving and where slow start stops), apart
//! from the per-packet engine: each round's cwnd, ssthresh, phase, the segments sent in it
//! and the rule that set it, with the rule's arithmetic and source. `--segment K` says in
//! which round segment K is sent; `--losses-from PRESET` replays a preset's per-packet
//! losses in the model.

use crate::Fail;
use clap::{Args, ValueEnum};
use cwndlab_core::presets;
use cwndlab_core::textbook::{
    self, describe, segments_text, Convention, Halving, Loss, LossKind, Model, SsExit, Variant,
};
use serde_json::json;
use std::fmt::Write as _;

/// The textbook's rules.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConventionArg {
    /// Kurose & Ross's figure: cwnd = ssthresh + 3 after a triple duplicate ACK, kept
    #[value(name = "kurose_ross")]
    KuroseRoss,
    /// RFC 5681 read per round: cwnd = ssthresh after a triple duplicate ACK; ssthresh ≥ 2
    #[value(name = "rfc5681")]
    Rfc5681,
}

/// Reno or Tahoe.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariantArg {
    /// Fast recovery after a triple duplicate ACK
    Reno,
    /// A triple duplicate ACK acts as a timeout: cwnd = 1
    Tahoe,
}

/// How a window is halved.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum HalvingArg {
    /// ⌊W/2⌋ in whole segments
    Floor,
    /// W/2 exactly (29 → 14.5)
    Exact,
}

/// Where slow start stops.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SsExitArg {
    /// cwnd = min(2·cwnd, ssthresh)
    Cap,
    /// cwnd = 2·cwnd, even past ssthresh
    Overshoot,
}

/// Output format of `textbook`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextbookFormat {
    /// A table, one round per line, with the rule of each
    Table,
    /// The rounds with each rule's sentence
    Json,
}

/// Options of `cwndlab textbook`.
#[derive(Args, Debug)]
pub struct TextbookArgs {
    /// The textbook's rules
    #[arg(long, value_enum, default_value_t = ConventionArg::KuroseRoss)]
    pub convention: ConventionArg,
    /// Reno or Tahoe
    #[arg(long, value_enum, default_value_t = VariantArg::Reno)]
    pub variant: VariantArg,
    /// How a window is halved on a loss
    #[arg(long, value_enum, default_value_t = HalvingArg::Floor)]
    pub halving: HalvingArg,
    /// Where slow start stops
    #[arg(long = "slow-start-exit", value_enum, default_value_t = SsExitArg::Cap)]
    pub ss_exit: SsExitArg,
    /// Initial cwnd, segments
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub initial_cwnd: u64,
    /// Initial ssthresh, segments, or `none` for no limit (32: Kurose & Ross's figure)
    #[arg(long, value_name = "N|none", default_value = "32")]
    pub initial_ssthresh: String,
    /// A loss ending a round: ROUND:triple-dup or ROUND:timeout (repeat for several)
    #[arg(long = "loss", value_name = "ROUND:KIND")]
    pub losses: Vec<String>,
    /// Take the initial window, ssthresh, losses and rounds from a preset's per-packet run
    /// (its rounds that end with a fast retransmit or a timeout)
    #[arg(long, value_name = "PRESET", conflicts_with_all = ["losses"])]
    pub losses_from: Option<String>,
    /// Rounds to show
    #[arg(long, value_name = "N")]
    pub rounds: Option<u32>,
    /// Say in which round segment K is sent
    #[arg(long, value_name = "K")]
    pub segment: Option<u64>,
    /// Print exam sheet N on the model instead (questions, then the answer key; the same
    /// number gives the same sheet): Markdown, or JSON with --format json
    #[arg(long, value_name = "N")]
    pub sheet: Option<u64>,
    /// Questions on the sheet
    #[arg(long, value_name = "N", default_value_t = 8, requires = "sheet")]
    pub questions: usize,
    /// Output format
    #[arg(long, value_enum, default_value_t = TextbookFormat::Table)]
    pub format: TextbookFormat,
}

/// Most rounds the model shows.
const MAX_ROUNDS: u32 = 10_000;

fn parse_loss(text: &str, rounds: u32) -> Result<Loss, Fail> {
    let bad = || {
        Fail::usage(format!(
            "--loss {text}: expected ROUND:KIND with ROUND from 1 to {rounds} and KIND triple-dup or timeout (e.g. --loss 16:triple-dup)"
        ))
    };
    let (r, k) = text.split_once(':').ok_or_else(bad)?;
    let round: u32 = r.trim().parse().map_err(|_| bad())?;
    if round == 0 || round > rounds {
        return Err(bad());
    }
    let kind = match k.trim() {
        "triple-dup" | "triple_dup" | "tdack" | "3dup" => LossKind::TripleDup,
        "timeout" | "rto" => LossKind::Timeout,
        _ => return Err(bad()),
    };
    Ok(Loss { round, kind })
}

/// The engine's convention for the option's.
pub fn convention_of(c: ConventionArg) -> Convention {
    match c {
        ConventionArg::KuroseRoss => Convention::KuroseRoss,
        ConventionArg::Rfc5681 => Convention::Rfc5681,
    }
}

fn model_of(a: &TextbookArgs) -> Result<Model, Fail> {
    let convention = convention_of(a.convention);
    let variant = match a.variant {
        VariantArg::Reno => Variant::Reno,
        VariantArg::Tahoe => Variant::Tahoe,
    };
    let mut m = if let Some(name) = &a.losses_from {
        let p = presets::find(name).ok_or_else(|| {
            let names: Vec<String> = presets::all().iter().map(|p| p.name.clone()).collect();
            Fail::usage(format!(
                "--losses-from {name}: unknown preset; allowed: {}",
                names.join(", ")
            ))
        })?;
        let s = p
            .scenario()
            .map_err(|e| Fail::invalid(format!("preset {name}: {e:?}")))?;
        textbook::model_of_run(&s, convention, variant)
            .map_err(|e| Fail::invalid(format!("--losses-from {name}: {e}")))?
    } else {
        let rounds = a.rounds.unwrap_or(26);
        Model {
            convention,
            variant,
            initial_cwnd: a.initial_cwnd,
            rounds,
            ..Model::default()
        }
    };
    if let Some(r) = a.rounds {
        if r == 0 || r > MAX_ROUNDS {
            return Err(Fail::usage(format!("--rounds {r}: allowed 1 to {MAX_ROUNDS}")));
        }
        m.rounds = r;
    }
    m.halving = match a.halving {
        HalvingArg::Floor => Halving::Floor,
        HalvingArg::Exact => Halving::Exact,
    };
    m.ss_exit = match a.ss_exit {
        SsExitArg::Cap => SsExit::Cap,
        SsExitArg::Overshoot => SsExit::Overshoot,
    };
    if a.losses_from.is_none() {
        if !(1..=1_000_000).contains(&a.initial_cwnd) {
            return Err(Fail::usage(format!(
                "--initial-cwnd {}: allowed 1 to 1000000 segments",
                a.initial_cwnd
            )));
        }
        m.initial_ssthresh = match a.initial_ssthresh.trim() {
            "none" | "inf" | "∞" => None,
            t => match t.parse::<u64>() {
                Ok(n) if (1..=1_000_000).contains(&n) => Some(n),
                _ => {
                    return Err(Fail::usage(format!(
                        "--initial-ssthresh {t}: allowed 1 to 1000000 segments, or none"
                    )))
                }
            },
        };
        for l in &a.losses {
            let loss = parse_loss(l, m.rounds)?;
            if m.losses.iter().any(|x| x.round == loss.round) {
                return Err(Fail::usage(format!(
                    "--loss {l}: round {} already ends with a loss",
                    loss.round
                )));
            }
            m.losses.push(loss);
        }
    }
    Ok(m)
}

/// Runs `cwndlab textbook`.
pub fn textbook(a: &TextbookArgs) -> Result<String, Fail> {
    let m = model_of(a)?;
    if let Some(number) = a.sheet {
        if a.questions == 0 || a.questions > cwndlab_core::exercise::MAX_QUESTIONS {
            return Err(Fail::usage(format!(
                "--questions {}: allowed 1 to {}",
                a.questions,
                cwndlab_core::exercise::MAX_QUESTIONS
            )));
        }
        let s = textbook::sheet::sheet("Exam sheet: the textbook's round model", &m, number, a.questions)
            .map_err(Fail::invalid)?;
        return Ok(match a.format {
            TextbookFormat::Json => serde_json::to_string_pretty(&s.to_json()).expect("json"),
            TextbookFormat::Table => {
                let cmd: Vec<String> = std::env::args().skip(1).collect();
                s.to_markdown(&format!("cwndlab {}", cmd.join(" ")))
                    .trim_end()
                    .to_string()
            }
        });
    }
    let rounds = m.run();
    let seg = match a.segment {
        Some(0) => return Err(Fail::usage("--segment 0: segments are numbered from 1".to_string())),
        Some(k) => Some((k, m.round_of_segment(k))),
        None => None,
    };
    if a.format == TextbookFormat::Json {
        let doc = json!({
            "model": {
                "convention": m.convention.name(),
                "variant": if m.variant == Variant::Reno { "reno" } else { "tahoe" },
                "halving": if m.halving == Halving::Floor { "floor" } else { "exact" },
                "slow_start_exit": if m.ss_exit == SsExit::Cap { "cap" } else { "overshoot" },
                "initial_cwnd": m.initial_cwnd,
                "initial_ssthresh": m.initial_ssthresh,
                "losses": m.losses.iter().map(|l| json!({"round": l.round, "kind": l.kind.name()})).collect::<Vec<_>>(),
                "description": describe(&m),
            },
            "rounds": rounds.iter().map(|r| r.to_json()).collect::<Vec<_>>(),
            "segment": seg.map(|(k, r)| json!({"segment": k, "round": r})),
        });
        return Ok(serde_json::to_string_pretty(&doc).expect("json"));
    }
    let mut out = describe(&m);
    out.push_str("\n\nround  cwnd  ssthresh  phase                 segments      ended by    rule\n");
    for r in &rounds {
        let _ = writeln!(
            out,
            "{:>5}  {:>4}  {:>8}  {:<20}  {:>12}  {:<10}  {}",
            r.round,
            segments_text(r.cwnd),
            segments_text(r.ssthresh),
            r.phase.name(),
            format!("{}–{}", r.first, r.last),
            r.ended_by.map_or("", |k| k.name()),
            r.decision.info().id
        );
    }
    if let Some((k, r)) = seg {
        match r {
            Some(r) => {
                let _ = writeln!(out, "\nSegment {k} is sent in round {r}.");
            }
            None => {
                let _ = writeln!(out, "\nSegment {k} is not sent within the {} rounds shown.", m.rounds);
            }
        }
    }
    Ok(out.trim_end().to_string())
}
