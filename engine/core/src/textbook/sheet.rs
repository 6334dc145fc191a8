//! Exam questions in the textbook's round model: the ones Kurose & Ross's exercise and exam
//! boards ask (the intervals of slow start and congestion avoidance, which signal ended a
//! round, the initial ssthresh, ssthresh and cwnd at a round, in which round segment k is
//! sent, what a further loss would do, Tahoe instead of Reno), each answered from the
//! model's rounds with the rule of the convention that decides it. A sheet number chooses
//! the questions, as for the per-packet sheets (`exercise.rs`).

use super::{segments_text, LossKind, Model, TextbookRound, Variant};
use crate::exercise::{Question, Sheet, MAX_QUESTIONS};
use crate::explain::Rule;
use crate::tcp::cc::Phase;
use serde_json::json;

/// What a round is, in the model.
pub const DEFINITION: &str = "In the textbook's round model a transmission round is one round trip: the sender sends a window of cwnd segments, and every one of them is acknowledged before the next round unless a loss ends the round (a triple duplicate ACK or a timeout). cwnd changes once per round, by the rule of the convention.";

/// Runs of consecutive rounds in `phase`, as (first, last); a loss ends a run (Kurose &
/// Ross answer with two intervals of congestion avoidance either side of a triple
/// duplicate ACK).
fn intervals(rounds: &[TextbookRound], phase: Phase) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    let mut broken = true;
    for r in rounds {
        if r.phase == phase {
            match out.last_mut() {
                Some(last) if !broken && last.1 + 1 == r.round => last.1 = r.round,
                _ => out.push((r.round, r.round)),
            }
            broken = false;
        } else {
            broken = true;
        }
        if r.ended_by.is_some() {
            broken = true;
        }
    }
    out
}

fn intervals_text(v: &[(u32, u32)]) -> String {
    let parts: Vec<String> = v
        .iter()
        .map(|&(a, b)| {
            if a == b {
                format!("round {a}")
            } else {
                format!("rounds {a}–{b}")
            }
        })
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

fn question(kind: &'static str, text: String, answer: String, values: serde_json::Value, rules: Vec<Rule>) -> Question {
    Question {
        kind,
        text,
        answer,
        values,
        rules,
        at: None,
    }
}

/// Every question the model can be asked.
fn candidates(m: &Model, rounds: &[TextbookRound], number: u64) -> Vec<Question> {
    let mut out = Vec::new();
    let n = rounds.len() as u32;
    let ss = intervals(rounds, Phase::SlowStart);
    let ca = intervals(rounds, Phase::CongestionAvoidance);
    out.push(question(
        "slow_start_rounds",
        "Identify the transmission rounds in which TCP is in slow start.".into(),
        format!("{}: each of these rounds' cwnd was set by slow start's doubling (textbook.slow_start) or by the start of the connection or a timeout (cwnd = 1).", intervals_text(&ss)),
        json!(ss),
        vec![Rule::TextbookSlowStart],
    ));
    out.push(question(
        "ca_rounds",
        "Identify the transmission rounds in which TCP is in congestion avoidance.".into(),
        format!(
            "{}: cwnd had reached ssthresh, so it grows by one segment per round (textbook.congestion_avoidance).",
            intervals_text(&ca)
        ),
        json!(ca),
        vec![Rule::TextbookCongestionAvoidance],
    ));
    for r in rounds.iter().filter(|r| r.ended_by.is_some()) {
        let kind = r.ended_by.expect("a loss");
        let next = rounds.get(r.round as usize);
        let evidence = match (kind, next) {
            (LossKind::TripleDup, Some(x)) => format!(
                "cwnd does not fall to 1 in round {} ({}): only a triple duplicate ACK keeps the pipe going. {}",
                x.round,
                segments_text(x.cwnd),
                x.decision.text()
            ),
            (LossKind::Timeout, Some(x)) => {
                format!("cwnd falls to 1 in round {}: a timeout. {}", x.round, x.decision.text())
            }
            _ => "the model ends here.".into(),
        };
        out.push(question(
            "loss_signal",
            format!(
                "After round {}, is the loss detected by a triple duplicate ACK or by a timeout?",
                r.round
            ),
            format!(
                "By a {}: {evidence}",
                if kind == LossKind::TripleDup {
                    "triple duplicate ACK"
                } else {
                    "timeout"
                }
            ),
            json!({"round": r.round, "kind": kind.name()}),
            next.map(|x| vec![x.decision.rule]).unwrap_or_default(),
        ));
    }
    if let Some(first) = rounds.first() {
        out.push(question(
            "initial_ssthresh",
            "What is the value of ssthresh at the first transmission round?".into(),
            format!(
                "{} segments: it is given (textbook.start), and slow start doubles cwnd until it reaches it.",
                segments_text(first.ssthresh)
            ),
            json!(segments_text(first.ssthresh)),
            vec![Rule::TextbookStart],
        ));
    }
    // A round chosen by the number, after the first loss when there is one.
    let pick = |salt: u64, from: u32| -> u32 {
        let span = n.saturating_sub(from).max(1) as u64;
        from + (crate::rng::hash_words(&[number, salt]) % span) as u32 + 1
    };
    let after = m
        .losses
        .iter()
        .map(|l| l.round)
        .min()
        .unwrap_or(0)
        .min(n.saturating_sub(1));
    for (salt, kind) in [(0x55, "ssthresh_at"), (0xc3, "cwnd_at")] {
        let k = pick(salt, after).min(n);
        let r = &rounds[(k - 1) as usize];
        // ssthresh was set by the start or the last loss before round k: cite that round.
        let setter = if kind == "ssthresh_at" {
            rounds[..k as usize]
                .iter()
                .rev()
                .find(|x| x.round == 1 || rounds[(x.round - 2) as usize].ended_by.is_some())
                .unwrap_or(r)
        } else {
            r
        };
        let (what, v) = if kind == "ssthresh_at" {
            ("ssthresh", r.ssthresh)
        } else {
            ("cwnd", r.cwnd)
        };
        out.push(question(
            kind,
            format!("What is the value of {what} at transmission round {k}?"),
            format!("{} segments. {}", segments_text(v), setter.decision.text()),
            json!(segments_text(v)),
            vec![setter.decision.rule],
        ));
    }
    // A segment chosen by the number, within the rounds.
    if let Some(last) = rounds.last() {
        let k = 1 + crate::rng::hash_words(&[number, 0x5e9]) % last.last;
        let r = rounds
            .iter()
            .find(|r| (r.first..=r.last).contains(&k))
            .expect("within the rounds");
        out.push(question(
            "segment_round",
            format!("During which transmission round is segment {k} sent?"),
            format!(
                "Round {}: each round sends ⌊cwnd⌋ new segments, numbered on from the last round's, and round {} sends segments {}–{}.",
                r.round, r.round, r.first, r.last
            ),
            json!({"segment": k, "round": r.round}),
            vec![Rule::TextbookSlowStart, Rule::TextbookCongestionAvoidance],
        ));
    }
    // A further loss after the last round.
    if let Some(last) = rounds.last() {
        let mut hyp = m.clone();
        hyp.losses.retain(|l| l.round != last.round);
        hyp.losses.push(super::Loss {
            round: last.round,
            kind: LossKind::TripleDup,
        });
        hyp.rounds = last.round + 1;
        let next = *hyp.run().last().expect("a round");
        out.push(question(
            "hypothetical",
            format!(
                "Suppose a loss is detected after round {} by a triple duplicate ACK. What are ssthresh and cwnd then?",
                last.round
            ),
            format!(
                "ssthresh {} and cwnd {} segments. {}",
                segments_text(next.ssthresh),
                segments_text(next.cwnd),
                next.decision.text()
            ),
            json!({"ssthresh": segments_text(next.ssthresh), "cwnd": segments_text(next.cwnd)}),
            vec![next.decision.rule],
        ));
    }
    // Tahoe instead of Reno, at the first triple duplicate ACK.
    if m.variant == Variant::Reno {
        if let Some(l) = m
            .losses
            .iter()
            .filter(|l| l.kind == LossKind::TripleDup)
            .min_by_key(|l| l.round)
        {
            if l.round < n {
                let tahoe = Model {
                    variant: Variant::Tahoe,
                    ..m.clone()
                };
                let x = tahoe.run()[l.round as usize];
                out.push(question(
                    "tahoe",
                    format!("Suppose TCP Tahoe is used instead of Reno, with the same triple duplicate ACK after round {}. What are ssthresh and cwnd in round {}?", l.round, l.round + 1),
                    format!("ssthresh {} and cwnd {} segment: {}", segments_text(x.ssthresh), segments_text(x.cwnd), x.decision.text()),
                    json!({"ssthresh": segments_text(x.ssthresh), "cwnd": segments_text(x.cwnd)}),
                    vec![Rule::TextbookTripleDupTahoe],
                ));
            }
        }
    }
    out
}

/// The sheet `number` of `count` questions about model `m` (the kinds first, each once, in
/// an order the number chooses; then the rest).
pub fn sheet(title: &str, m: &Model, number: u64, count: usize) -> Result<Sheet, String> {
    if count == 0 || count > MAX_QUESTIONS {
        return Err(format!("questions: {count} is not from 1 to {MAX_QUESTIONS}"));
    }
    let rounds = m.run();
    let all = candidates(m, &rounds, number);
    let mut chosen = crate::exercise::choose(&all, number, 0x7e_b0, count);
    // In the order of the exercise: the candidates' own order.
    chosen.sort_unstable();
    let mut s = Sheet {
        title: title.to_string(),
        scenario_line: super::describe(m),
        number,
        definition: DEFINITION,
        questions: chosen.into_iter().map(|i| all[i].clone()).collect(),
    };
    s.title = title.to_string();
    Ok(s)
}
