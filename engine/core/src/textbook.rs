//! The textbook's round model, apart from the per-packet engine: what students are examined
//! on. Time goes in transmission rounds; in each round the sender sends a window of
//! segments, all are acknowledged by the next round (unless the round ends with a loss),
//! and cwnd changes once per round by the rule of the convention the course uses:
//!
//! - **Kurose & Ross** (`kurose_ross`): their Reno figure. Slow start doubles cwnd each round;
//!   from ssthresh on, one segment more per round; after a triple duplicate ACK, ssthresh =
//!   cwnd/2 and cwnd = ssthresh + 3, growing by one per round from there (no deflation);
//!   after a timeout, ssthresh = cwnd/2 and cwnd = 1.
//! - **RFC 5681 read per round** (`rfc5681`): the same increases; after a triple duplicate
//!   ACK, ssthresh = max(cwnd/2, 2) and the next round starts at cwnd = ssthresh (fast
//!   recovery's inflation is deflated when the loss is repaired, within the round); after a
//!   timeout, ssthresh = max(cwnd/2, 2) and cwnd = 1.
//! - **Tahoe** (`--variant tahoe`, either convention): a triple duplicate ACK acts as a
//!   timeout does (cwnd = 1, slow start).
//!
//! Two choices that texts and exam boards make differently are settings of their own: the
//! halving (⌊W/2⌋ in whole segments, or W/2 exactly, which may leave half a segment) and
//! where slow start stops (at ssthresh exactly, or on the doubling that reaches or passes
//! it). Losses are given by the round they end and their kind, or read from a per-packet
//! run's rounds ([`losses_from_rounds`]).
//!
//! Every round records the rule that set its cwnd as an explanation record of the engine
//! (`textbook.*` rules, with the arithmetic and the source), so the CLI, the page and the
//! exercise sheets say the same thing. Segments are numbered from 1 and each round sends
//! ⌊cwnd⌋ new ones, as the textbook counts (retransmissions are not numbered: the model
//! has no sequence space).

use crate::explain::{Decision, Rule, MAX_VALUES};
use crate::rounds::Round;
use crate::tcp::cc::Phase;
use crate::trace::EventKind;
use serde_json::{json, Value};

/// One segment, in the model's unit (thousandths of a segment).
const SEG: u64 = 1000;

/// Which textbook's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    /// Kurose & Ross: cwnd = ssthresh + 3 after a triple duplicate ACK, kept.
    KuroseRoss = 1,
    /// RFC 5681 read per round: cwnd = ssthresh after a triple duplicate ACK.
    Rfc5681 = 2,
}

/// Reno (fast recovery) or Tahoe (none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Reno,
    Tahoe,
}

/// How a window is halved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halving {
    /// ⌊W/2⌋ in whole segments.
    Floor,
    /// W/2 exactly (14.5 for 29).
    Exact,
}

/// Where slow start stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SsExit {
    /// cwnd = min(2·cwnd, ssthresh): it stops at ssthresh exactly.
    Cap,
    /// cwnd = 2·cwnd: the doubling that reaches or passes ssthresh is kept.
    Overshoot,
}

/// What ended a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossKind {
    TripleDup,
    Timeout,
}

/// A loss at the end of `round`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loss {
    pub round: u32,
    pub kind: LossKind,
}

/// Names on the command line and in JSON.
impl Convention {
    pub const ALL: [Convention; 2] = [Convention::KuroseRoss, Convention::Rfc5681];
    pub fn name(self) -> &'static str {
        match self {
            Convention::KuroseRoss => "kurose_ross",
            Convention::Rfc5681 => "rfc5681",
        }
    }
    /// The convention by its name.
    pub fn from_name(name: &str) -> Option<Convention> {
        Convention::ALL.into_iter().find(|c| c.name() == name)
    }
    /// Its title: "Kurose & Ross".
    pub fn label(self) -> &'static str {
        match self {
            Convention::KuroseRoss => "Kurose & Ross",
            Convention::Rfc5681 => "RFC 5681 read per round",
        }
    }
    /// Its short name on a plot: "K&R".
    pub fn short(self) -> &'static str {
        match self {
            Convention::KuroseRoss => "K&R",
            Convention::Rfc5681 => "RFC 5681",
        }
    }
    /// What it does after a triple duplicate ACK, in one sentence.
    pub fn description(self) -> &'static str {
        match self {
            Convention::KuroseRoss => "Their Reno figure: after a triple duplicate ACK, ssthresh = cwnd/2 and cwnd = ssthresh + 3, growing by one segment per round from there (no deflation); after a timeout, cwnd = 1.",
            Convention::Rfc5681 => "After a triple duplicate ACK, ssthresh = max(cwnd/2, 2) and the next round starts at cwnd = ssthresh (fast recovery's inflation is deflated within the round); after a timeout, cwnd = 1.",
        }
    }
}

/// The conventions for the page and the CLI's help: `[{name, label, short, description}]`.
pub fn conventions_json() -> Value {
    Value::Array(
        Convention::ALL
            .iter()
            .map(|c| json!({"name": c.name(), "label": c.label(), "short": c.short(), "description": c.description()}))
            .collect(),
    )
}

impl LossKind {
    pub fn name(self) -> &'static str {
        match self {
            LossKind::TripleDup => "triple-dup",
            LossKind::Timeout => "timeout",
        }
    }
}

/// The model's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub convention: Convention,
    pub variant: Variant,
    pub halving: Halving,
    pub ss_exit: SsExit,
    /// Initial cwnd, segments.
    pub initial_cwnd: u64,
    /// Initial ssthresh, segments (None: no limit).
    pub initial_ssthresh: Option<u64>,
    /// Losses, by the round they end.
    pub losses: Vec<Loss>,
    /// Rounds to show.
    pub rounds: u32,
}

impl Default for Model {
    /// Kurose & Ross's figure: cwnd 1, ssthresh 32, ⌊W/2⌋, slow start stopping at ssthresh.
    fn default() -> Model {
        Model {
            convention: Convention::KuroseRoss,
            variant: Variant::Reno,
            halving: Halving::Floor,
            ss_exit: SsExit::Cap,
            initial_cwnd: 1,
            initial_ssthresh: Some(32),
            losses: Vec::new(),
            rounds: 26,
        }
    }
}

/// One round of the model. Windows in thousandths of a segment (`u64::MAX`: no limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextbookRound {
    /// 1, 2, 3, …
    pub round: u32,
    /// cwnd during the round.
    pub cwnd: u64,
    /// ssthresh during the round.
    pub ssthresh: u64,
    /// Slow start or congestion avoidance: the rule that set this round's cwnd.
    pub phase: Phase,
    /// The first and last segment sent in it.
    pub first: u64,
    pub last: u64,
    /// What ended it, if a loss did.
    pub ended_by: Option<LossKind>,
    /// The rule that set its cwnd, with its arithmetic.
    pub decision: Decision,
}

fn decision<const N: usize>(rule: Rule, from: Phase, to: Phase, values: [u64; N]) -> Decision {
    let mut v = [0u64; MAX_VALUES];
    v[..N].copy_from_slice(&values);
    Decision {
        rule,
        from: from as u8,
        to: to as u8,
        values: v,
    }
}

impl Model {
    fn half(&self, w: u64) -> u64 {
        let h = match self.halving {
            Halving::Floor => w / SEG / 2 * SEG,
            Halving::Exact => w / 2,
        };
        match self.convention {
            // RFC 5681 equations (3) and (4): at least 2 segments.
            Convention::Rfc5681 => h.max(2 * SEG),
            Convention::KuroseRoss => h,
        }
    }

    fn loss_at(&self, round: u32) -> Option<LossKind> {
        self.losses.iter().find(|l| l.round == round).map(|l| l.kind)
    }

    /// The rounds, 1 to `rounds`.
    pub fn run(&self) -> Vec<TextbookRound> {
        let mut out: Vec<TextbookRound> = Vec::with_capacity(self.rounds as usize);
        let exact = (self.halving == Halving::Exact) as u64;
        let conv = self.convention as u64;
        let mut next_seg = 1u64;
        for r in 1..=self.rounds {
            let (cwnd, ssthresh, phase, d) = match out.last() {
                None => {
                    let cwnd = self.initial_cwnd.max(1) * SEG;
                    let ss = self.initial_ssthresh.map_or(u64::MAX, |s| s * SEG);
                    let phase = if cwnd < ss {
                        Phase::SlowStart
                    } else {
                        Phase::CongestionAvoidance
                    };
                    let d = decision(Rule::TextbookStart, phase, phase, [conv, r as u64, cwnd, ss]);
                    (cwnd, ss, phase, d)
                }
                Some(p) => {
                    let (w, ss0, from) = (p.cwnd, p.ssthresh, p.phase);
                    match p.ended_by {
                        Some(LossKind::TripleDup) if self.variant == Variant::Reno => {
                            let ss = self.half(w);
                            let (rule, cwnd) = match self.convention {
                                Convention::KuroseRoss => (Rule::TextbookTripleDupKr, ss + 3 * SEG),
                                Convention::Rfc5681 => (Rule::TextbookTripleDupRfc, ss),
                            };
                            let to = Phase::CongestionAvoidance;
                            (cwnd, ss, to, decision(rule, from, to, [r as u64, w, exact, ss, cwnd]))
                        }
                        Some(kind) => {
                            let ss = self.half(w);
                            let rule = if kind == LossKind::Timeout {
                                Rule::TextbookTimeout
                            } else {
                                Rule::TextbookTripleDupTahoe
                            };
                            let to = Phase::SlowStart;
                            (
                                SEG,
                                ss,
                                to,
                                decision(rule, from, to, [conv, r as u64, w, exact, ss, SEG]),
                            )
                        }
                        None if w < ss0 => {
                            let doubled = w.saturating_mul(2);
                            let cap = self.ss_exit == SsExit::Cap;
                            let cwnd = if cap { doubled.min(ss0) } else { doubled };
                            let to = Phase::SlowStart;
                            let d = decision(Rule::TextbookSlowStart, from, to, [r as u64, w, ss0, cap as u64, cwnd]);
                            (cwnd, ss0, to, d)
                        }
                        None => {
                            let cwnd = w + SEG;
                            let to = Phase::CongestionAvoidance;
                            let d = decision(Rule::TextbookCongestionAvoidance, from, to, [r as u64, w, ss0, cwnd]);
                            (cwnd, ss0, to, d)
                        }
                    }
                }
            };
            let n = (cwnd / SEG).max(1);
            out.push(TextbookRound {
                round: r,
                cwnd,
                ssthresh,
                phase,
                first: next_seg,
                last: next_seg + n - 1,
                ended_by: self.loss_at(r),
                decision: d,
            });
            next_seg += n;
        }
        out
    }

    /// The round in which segment `k` is sent, within the rounds shown.
    pub fn round_of_segment(&self, k: u64) -> Option<u32> {
        self.run()
            .iter()
            .find(|r| (r.first..=r.last).contains(&k))
            .map(|r| r.round)
    }
}

/// The losses of a per-packet run, by the rounds its record ends with a fast retransmit or
/// a timeout (`rounds.rs`), for the model to replay in a convention.
pub fn losses_from_rounds(rounds: &[Round]) -> Vec<Loss> {
    rounds
        .iter()
        .filter_map(|r| {
            let kind = r.events.iter().find_map(|e| match e {
                EventKind::FastRetransmit => Some(LossKind::TripleDup),
                EventKind::Timeout => Some(LossKind::Timeout),
                _ => None,
            })?;
            Some(Loss { round: r.round, kind })
        })
        .collect()
}

/// The model of a per-packet run of scenario `s` (flow 0): its initial window and ssthresh
/// in segments, its losses by the rounds they ended, and as many rounds as it completed, in
/// `convention` and `variant`. Errors: a run with no complete round.
pub fn model_of_run(s: &crate::scenario::Scenario, convention: Convention, variant: Variant) -> Result<Model, String> {
    model_of_rounds(s, &run_rounds(s)?, convention, variant)
}

/// The complete rounds of flow 0 of a per-packet run of `s`, to its end. Errors: a run with
/// no complete round.
pub fn run_rounds(s: &crate::scenario::Scenario) -> Result<Vec<Round>, String> {
    let mut every = s.clone();
    every.trace.events = crate::scenario::EventFilter::All;
    let mut sim = crate::sim::Simulation::new(&every);
    sim.run_to_end();
    let rounds: Vec<Round> = sim.rounds(0)?.into_iter().filter(|r| r.end.is_some()).collect();
    if rounds.is_empty() {
        return Err("the run completed no transmission round (lengthen it)".into());
    }
    Ok(rounds)
}

/// The model of the per-packet rounds `rounds` of scenario `s` (flow 0): see [`model_of_run`].
pub fn model_of_rounds(
    s: &crate::scenario::Scenario,
    rounds: &[Round],
    convention: Convention,
    variant: Variant,
) -> Result<Model, String> {
    if rounds.is_empty() {
        return Err("the run completed no transmission round (lengthen it)".into());
    }
    let f = &s.flows[0];
    let mss = f.tcp.mss.max(1);
    Ok(Model {
        convention,
        variant,
        initial_cwnd: f.tcp.initial_window,
        initial_ssthresh: (f.tcp.initial_ssthresh > 0).then(|| (f.tcp.initial_ssthresh / mss).max(1)),
        losses: losses_from_rounds(rounds),
        rounds: rounds.len() as u32,
        ..Model::default()
    })
}

/// The model in one line: "Textbook round model (not the per-packet engine): Kurose & Ross,
/// Reno, ⌊W/2⌋, slow start stops at ssthresh; initial cwnd 1 segment(s), initial ssthresh 32".
pub fn describe(m: &Model) -> String {
    let conv = m.convention.label();
    let var = match m.variant {
        Variant::Reno => "Reno",
        Variant::Tahoe => "Tahoe",
    };
    let half = match m.halving {
        Halving::Floor => "⌊W/2⌋",
        Halving::Exact => "W/2",
    };
    let exit = match m.ss_exit {
        SsExit::Cap => "slow start stops at ssthresh",
        SsExit::Overshoot => "slow start keeps the doubling that passes ssthresh",
    };
    let ss = m.initial_ssthresh.map_or("none".to_string(), |s| s.to_string());
    format!(
        "Textbook round model (not the per-packet engine): {conv}, {var}, {half}, {exit}; initial cwnd {} segment(s), initial ssthresh {ss}",
        m.initial_cwnd
    )
}

/// A window in segments as text: "32", "14.5", "∞".
pub fn segments_text(v: u64) -> String {
    crate::explain::format_value(v, crate::explain::Unit::Milli)
}

/// A window as a JSON number of segments (null: no limit).
fn segments_json(v: u64) -> Value {
    if v == u64::MAX {
        Value::Null
    } else if v.is_multiple_of(SEG) {
        json!(v / SEG)
    } else {
        json!(v as f64 / SEG as f64)
    }
}

impl TextbookRound {
    /// The round as JSON: windows in segments, the rule's id and its sentence.
    pub fn to_json(&self) -> Value {
        json!({
            "round": self.round,
            "cwnd": segments_json(self.cwnd),
            "ssthresh": segments_json(self.ssthresh),
            "phase": self.phase.name(),
            "first_segment": self.first,
            "last_segment": self.last,
            "ended_by": self.ended_by.map(|k| k.name()),
            "rule": self.decision.info().id,
            "why": self.decision.text(),
        })
    }
}

pub mod divergence;
pub mod sheet;
#[cfg(test)]
mod tests;
