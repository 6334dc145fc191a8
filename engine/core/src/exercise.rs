//! Exercise sheets: questions about one run, each answered from the engine's record of that
//! run (its window series, event log, transmission rounds and explained decisions), with
//! the rule behind each answer. A sheet number chooses the questions (counter-based, so
//! the same number gives the same sheet everywhere); `cwndlab exercise` and the page print
//! the same sheet.
//!
//! Questions, where the run has what they ask about: what ssthresh and cwnd are after a
//! timeout, after a triple duplicate ACK; in which rounds the sender is in slow start, in
//! congestion avoidance; in which round ssthresh first changes and to what; cwnd in a given
//! round; and, when runs of several algorithms are given, which one delivered more and
//! which rule made the difference (the runs' first divergence).

use crate::catalogue;
use crate::explain::{Kind, Rule, ShownUnit};
use crate::rounds::Round;
use crate::scenario::{EventFilter, Scenario, Units};
use crate::sim::Simulation;
use crate::tcp::cc::Phase;
use crate::time::{ns_to_secs, Ns};
use crate::trace::{EventKind, FlowState};
use serde_json::{json, Value};

/// One question with its answer.
#[derive(Clone, Debug)]
pub struct Question {
    /// Which kind of question (`timeout`, `fast_retransmit`, `slow_start_rounds`,
    /// `ca_rounds`, `ssthresh_change`, `round_cwnd`, `compare`).
    pub kind: &'static str,
    /// The question.
    pub text: String,
    /// The answer, in words and numbers.
    pub answer: String,
    /// The answer's values, for checking (bytes, segments, round numbers, …).
    pub values: Value,
    /// The rules that decided it.
    pub rules: Vec<Rule>,
    /// When it happened (time questions), for ordering and for opening the run there.
    pub at: Option<Ns>,
}

/// A sheet: the questions chosen by `number`, in the order the run reaches them.
#[derive(Clone, Debug)]
pub struct Sheet {
    /// Its title.
    pub title: String,
    /// The scenario in one line.
    pub scenario_line: String,
    /// The sheet number that chose the questions.
    pub number: u64,
    /// What a round is (for the round questions).
    pub definition: &'static str,
    /// The questions.
    pub questions: Vec<Question>,
}

/// Most questions a sheet holds.
pub const MAX_QUESTIONS: usize = 20;

/// Which `count` of the candidate questions sheet `number` asks (indexes into `all`): one
/// of each kind first, in an order the number chooses (a counter-based draw under `salt`),
/// then the rest in that order.
pub(crate) fn choose(all: &[Question], number: u64, salt: u64, count: usize) -> Vec<usize> {
    let draw = |i: usize| crate::rng::hash_words(&[number, salt, i as u64]);
    let mut order: Vec<usize> = (0..all.len()).collect();
    order.sort_by_key(|&i| draw(i));
    let mut chosen: Vec<usize> = Vec::new();
    let mut kinds: Vec<&str> = Vec::new();
    for &i in &order {
        if !kinds.contains(&all[i].kind) {
            kinds.push(all[i].kind);
            chosen.push(i);
        }
    }
    for &i in &order {
        if !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    chosen.truncate(count);
    chosen
}

/// A count of segments: "1 segment", "21 segments", "19.83 segments".
fn segs(bytes: u64, mss: u64) -> String {
    if mss > 0 && bytes == mss {
        "1 segment".to_string()
    } else if mss > 0 && bytes.is_multiple_of(mss) {
        format!("{} segments", bytes / mss)
    } else {
        format!("{:.2} segments", bytes as f64 / mss.max(1) as f64)
    }
}

/// A window or a byte count as a student writes it, the other unit in brackets: in the
/// reader's chosen unit (`shown`: the page's unit choice, `cwndlab exercise --unit`), else in
/// segments when the run counts segments or the count is a whole number of segments ("21
/// segments (30660 B)"), else in bytes ("28954 B (19.83 segments)"); "unlimited" for an
/// ssthresh not set yet.
fn size(bytes: u64, mss: u64, units: Units, shown: Option<ShownUnit>) -> String {
    let segments_first = match shown {
        Some(u) => u == ShownUnit::Segments,
        None => units == Units::Segments || (mss > 0 && bytes.is_multiple_of(mss)),
    };
    if bytes == u64::MAX {
        "unlimited".to_string()
    } else if segments_first {
        format!("{} ({bytes} B)", segs(bytes, mss))
    } else {
        format!("{bytes} B ({})", segs(bytes, mss))
    }
}

/// A decimal with at most `places` places, trailing zeros dropped: 3.281, 2.5, 50.
fn decimal(x: f64, places: usize) -> String {
    let t = format!("{x:.places$}");
    if t.contains('.') {
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        t
    }
}

/// An instant as a student writes it: seconds to the millisecond ("3.281 s"); the exact
/// time stays in the JSON (`at_s`, `values.t`).
pub fn time_text(t: Ns) -> String {
    format!("{} s", decimal(ns_to_secs(t), 3))
}

/// An algorithm's display name from the catalogue ("Old Tahoe", "NewReno"); the name
/// itself when the catalogue has none (`custom`).
pub fn algorithm_label(name: &str) -> &str {
    catalogue::find(name).map_or(name, |a| a.label)
}

/// Rounds as ranges: `1–5, 26–30`.
fn ranges(rounds: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < rounds.len() {
        let mut j = i;
        while j + 1 < rounds.len() && rounds[j + 1] == rounds[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            rounds[i].to_string()
        } else {
            format!("{}–{}", rounds[i], rounds[j])
        });
        i = j + 1;
    }
    if out.is_empty() {
        "none".into()
    } else {
        out.join(", ")
    }
}

/// The scenario in one line: algorithms, the bottleneck, the duration, the seed.
pub fn scenario_line(s: &Scenario) -> String {
    let b = &s.network.bottleneck;
    let algs: Vec<&str> = s.flows.iter().map(|f| algorithm_label(&f.algorithm)).collect();
    format!(
        "{} · bottleneck {} Mbit/s, {} ms one way, {} packets · {} s · seed {}",
        algs.join(", "),
        decimal(b.bandwidth as f64 / 1e6, 3),
        decimal(b.delay * 1e3, 3),
        b.queue_packets,
        decimal(s.duration, 3),
        s.seed
    )
}

/// The state just after everything at instant `t` (the record's row for it).
fn state_after(series: &[(Ns, FlowState)], t: Ns) -> FlowState {
    let i = series.partition_point(|(st, _)| *st <= t);
    series[..i].last().map(|r| r.1).unwrap_or_default()
}

/// The rules of `kinds` flow `flow` decided at instant `t`, in order, each once.
fn rules_at(sim: &Simulation, flow: u32, t: Ns, kinds: &[Kind]) -> Vec<Rule> {
    let mut out: Vec<Rule> = Vec::new();
    for e in sim.decisions().iter().filter(|e| e.t == t && e.flow == flow) {
        if kinds.contains(&e.d.rule.info().kind) && !out.contains(&e.d.rule) {
            out.push(e.d.rule);
        }
    }
    out
}

/// Every rule of `kind` whose id starts with `prefix` that flow `flow` used in the run.
fn rules_used(sim: &Simulation, flow: u32, kind: Kind, prefix: &str) -> Vec<Rule> {
    let mut out: Vec<Rule> = Vec::new();
    for e in sim.decisions().iter().filter(|e| e.flow == flow) {
        let info = e.d.rule.info();
        if info.kind == kind && info.id.starts_with(prefix) && !out.contains(&e.d.rule) {
            out.push(e.d.rule);
        }
    }
    out
}

/// Every question this run can answer about flow 0 (and, with `others`, about the
/// algorithms compared), in the order the run reaches them.
fn candidates(
    s: &Scenario,
    sim: &Simulation,
    rounds: &[Round],
    others: &[(String, Scenario)],
    shown: Option<ShownUnit>,
) -> Vec<Question> {
    let mss = s.flows[0].tcp.mss;
    let units = s.flows[0].cc.units;
    let bytes_and_segs = |bytes: u64, mss: u64| size(bytes, mss, units, shown);
    let series = &sim.series(0).rows;
    let mut out = Vec::new();
    for r in sim.events().rows.iter().filter(|r| r.flow == 0) {
        let kind = EventKind::ALL[r.kind as usize];
        let (what, qkind, kinds): (&str, &'static str, &[Kind]) = match kind {
            EventKind::Timeout => (
                "the retransmission timer expires",
                "timeout",
                &[Kind::Timeout, Kind::Loss],
            ),
            EventKind::FastRetransmit => ("the third duplicate ACK arrives", "fast_retransmit", &[Kind::Loss]),
            _ => continue,
        };
        let st = state_after(series, r.t);
        let rules = rules_at(sim, 0, r.t, kinds);
        out.push(Question {
            kind: qkind,
            text: format!("At {} {what}. What are ssthresh and cwnd afterwards?", time_text(r.t)),
            answer: format!(
                "ssthresh = {}, cwnd = {}{}",
                bytes_and_segs(st.ssthresh, mss),
                bytes_and_segs(st.cwnd, mss),
                if st.inflated != st.cwnd {
                    format!(
                        "; the window in force, inflated by the duplicate ACKs during fast recovery: {}",
                        bytes_and_segs(st.inflated, mss)
                    )
                } else {
                    String::new()
                }
            ),
            values: json!({
                "t": ns_to_secs(r.t),
                "ssthresh_bytes": (st.ssthresh != u64::MAX).then_some(st.ssthresh),
                "cwnd_bytes": st.cwnd,
                "inflated_bytes": st.inflated,
                "mss": mss,
            }),
            rules,
            at: Some(r.t),
        });
    }
    if !rounds.is_empty() {
        let of = |p: Phase| -> Vec<u32> { rounds.iter().filter(|r| r.phase == p as u8).map(|r| r.round).collect() };
        let ss = of(Phase::SlowStart);
        let tr = of(Phase::TimeoutRecovery);
        let ca = of(Phase::CongestionAvoidance);
        let last = rounds.last().map_or(0, |r| r.round);
        if !ss.is_empty() {
            let mut answer = format!("Rounds {}", ranges(&ss));
            if !tr.is_empty() {
                answer.push_str(&format!(
                    "; after a timeout the sender also grows by slow start while it resends what was outstanding (timeout recovery): rounds {}",
                    ranges(&tr)
                ));
            }
            out.push(Question {
                kind: "slow_start_rounds",
                text: format!("In which of rounds 1–{last} is the sender in slow start?"),
                answer,
                values: json!({ "slow_start": ss, "timeout_recovery": tr }),
                rules: rules_used(sim, 0, Kind::Increase, "ss."),
                at: None,
            });
        }
        if !ca.is_empty() {
            out.push(Question {
                kind: "ca_rounds",
                text: format!("In which of rounds 1–{last} is the sender in congestion avoidance?"),
                answer: format!("Rounds {}", ranges(&ca)),
                values: json!({ "congestion_avoidance": ca }),
                rules: rules_used(sim, 0, Kind::Increase, "ca."),
                at: None,
            });
        }
        if let Some(first) = rounds.first() {
            if let Some(r) = rounds.iter().find(|r| r.ssthresh != first.ssthresh) {
                // The loss response just before this round set it.
                let set_at = rounds
                    .iter()
                    .take_while(|x| x.round < r.round)
                    .filter_map(|x| x.end)
                    .last()
                    .unwrap_or(r.start);
                let mut rules = rules_at(sim, 0, set_at, &[Kind::Loss, Kind::Timeout]);
                if rules.is_empty() {
                    rules = rules_used(sim, 0, Kind::Loss, "ssthresh.");
                }
                out.push(Question {
                    kind: "ssthresh_change",
                    text: format!(
                        "ssthresh starts at {}. In which round does it first change, and to what?",
                        bytes_and_segs(first.ssthresh, mss)
                    ),
                    answer: format!("In round {}: ssthresh = {}", r.round, bytes_and_segs(r.ssthresh, mss)),
                    values: json!({ "round": r.round, "ssthresh_bytes": (r.ssthresh != u64::MAX).then_some(r.ssthresh), "mss": mss }),
                    rules,
                    at: Some(r.start),
                });
            }
        }
        for r in rounds.iter().filter(|r| r.end.is_some() && r.round > 1) {
            let p = Phase::ALL.get(r.phase as usize).copied();
            let prefix = match p {
                Some(Phase::SlowStart) | Some(Phase::TimeoutRecovery) => "ss.",
                Some(Phase::CongestionAvoidance) => "ca.",
                _ => continue,
            };
            out.push(Question {
                kind: "round_cwnd",
                text: format!("What is cwnd in round {}?", r.round),
                answer: format!(
                    "cwnd = {}, in {}",
                    bytes_and_segs(r.cwnd, mss),
                    r.phase_name().replace('_', " ")
                ),
                values: json!({ "round": r.round, "cwnd_bytes": r.cwnd, "mss": mss, "phase": r.phase_name() }),
                rules: rules_used(sim, 0, Kind::Increase, prefix),
                at: Some(r.start),
            });
        }
    }
    if others.len() >= 2 {
        let delivered: Vec<(String, u64, Scenario)> = others
            .iter()
            .map(|(name, sc)| {
                let mut sim = Simulation::new(sc);
                sim.set_recording(crate::sim::Recording::Summary { digest: false });
                sim.run_to_end();
                (name.clone(), sim.summary().flows[0].delivered_bytes, sc.clone())
            })
            .collect();
        let best = delivered.iter().max_by_key(|d| d.1).expect("two runs");
        let worst = delivered.iter().min_by_key(|d| d.1).expect("two runs");
        if best.1 != worst.1 {
            let div = crate::divergence::first_divergence(&best.2, &worst.2);
            let (rules, when) = match &div {
                Some(d) => {
                    let mut r: Vec<Rule> = d.a.iter().chain(d.b.iter()).map(|e| e.d.rule).collect();
                    r.dedup();
                    (r, format!(" They first decide differently at {}.", time_text(d.t)))
                }
                None => (Vec::new(), String::new()),
            };
            let names: Vec<&str> = others.iter().map(|(n, _)| algorithm_label(n)).collect();
            out.push(Question {
                kind: "compare",
                text: format!(
                    "Of {}, which algorithm has delivered more by {} s, and which rule made the difference?",
                    names.join(", "),
                    decimal(s.duration, 3)
                ),
                answer: format!(
                    "{}: {} against {}'s {}.{when} The rules: {}",
                    algorithm_label(&best.0),
                    bytes_and_segs(best.1, mss),
                    algorithm_label(&worst.0),
                    bytes_and_segs(worst.1, mss),
                    rules.iter().map(|r| r.info().title).collect::<Vec<_>>().join("; ")
                ),
                values: json!({ "more": best.0, "delivered": delivered.iter().map(|d| json!({"algorithm": d.0, "bytes": d.1})).collect::<Vec<_>>(),
                                "diverge_s": div.as_ref().map(|d| ns_to_secs(d.t)) }),
                rules,
                at: None,
            });
        }
    }
    out
}

/// The sheet of `s` numbered `number` with up to `count` questions about flow 0; `others`:
/// (algorithm, scenario) runs to compare (the page's comparison, a lesson's list), for the
/// comparison question. Sizes are written in the run's own unit first (see `sheet_in`).
/// Errors say what is wrong (no questions, too many asked).
pub fn sheet(
    title: &str,
    s: &Scenario,
    number: u64,
    count: usize,
    others: &[(String, Scenario)],
) -> Result<Sheet, String> {
    sheet_in(title, s, number, count, others, None)
}

/// `sheet` with its windows and byte counts written in `shown` first (the other unit in
/// brackets), or in the run's own unit first for None. The questions asked are the same
/// whatever the unit.
pub fn sheet_in(
    title: &str,
    s: &Scenario,
    number: u64,
    count: usize,
    others: &[(String, Scenario)],
    shown: Option<ShownUnit>,
) -> Result<Sheet, String> {
    if count == 0 || count > MAX_QUESTIONS {
        return Err(format!("questions: {count} is not from 1 to {MAX_QUESTIONS}"));
    }
    let mut every = s.clone();
    every.trace.events = EventFilter::All;
    let mut sim = Simulation::new(&every).explained();
    sim.run_to_end();
    // Only rounds that ended: an open one's window is not known yet.
    let rounds: Vec<Round> = sim.rounds(0)?.into_iter().filter(|r| r.end.is_some()).collect();
    let all = candidates(s, &sim, &rounds, others, shown);
    if all.is_empty() {
        return Err(
            "this run has nothing to ask about: no timeout, no fast retransmit and no complete round (lengthen the run)"
                .into(),
        );
    }
    let mut chosen = choose(&all, number, 0x5e_e7, count);
    // In the order the run reaches them: time questions by time, round questions after.
    chosen.sort_by_key(|&i| (all[i].at.is_none(), all[i].at.unwrap_or(0), i));
    Ok(Sheet {
        title: title.to_string(),
        scenario_line: scenario_line(s),
        number,
        definition: crate::rounds::DEFINITION,
        questions: chosen.into_iter().map(|i| all[i].clone()).collect(),
    })
}

impl Question {
    fn rules_json(&self) -> Vec<Value> {
        self.rules
            .iter()
            .map(|r| {
                let i = r.info();
                json!({ "id": i.id, "title": i.title, "source": i.source, "formula": i.formula })
            })
            .collect()
    }
}

impl Sheet {
    /// As JSON: `{title, scenario, number, definition, questions: [{number, kind, text,
    /// answer, values, rules: [{id, title, source, formula}], at_s, at_text}]}`: `at_s`
    /// exact (for tools), `at_text` as the question writes it ("3.281 s").
    pub fn to_json(&self) -> Value {
        json!({
            "title": self.title,
            "scenario": self.scenario_line,
            "number": self.number,
            "definition": self.definition,
            "questions": self.questions.iter().enumerate().map(|(k, q)| json!({
                "number": k + 1,
                "kind": q.kind,
                "text": q.text,
                "answer": q.answer,
                "values": q.values,
                "rules": q.rules_json(),
                "at_s": q.at.map(ns_to_secs),
                "at_text": q.at.map(time_text),
            })).collect::<Vec<_>>(),
        })
    }

    /// As Markdown: the questions with room to answer, then the answer key after a page
    /// break.
    pub fn to_markdown(&self, regenerate: &str) -> String {
        let mut m = format!(
            "# {}\n\n{}  \nSheet {} · regenerate it with `{regenerate}`\n\n",
            self.title, self.scenario_line, self.number
        );
        if self.questions.iter().any(|q| q.kind.contains("round")) {
            m.push_str(&format!("*A round:* {}\n\n", self.definition));
        }
        for (k, q) in self.questions.iter().enumerate() {
            m.push_str(&format!(
                "{}. {}\n\n   Answer: ______________________________\n\n",
                k + 1,
                q.text
            ));
        }
        m.push_str("<div style=\"page-break-before: always\"></div>\n\n## Answer key\n\n");
        for (k, q) in self.questions.iter().enumerate() {
            m.push_str(&format!("{}. {}", k + 1, q.answer));
            let rules: Vec<String> = q
                .rules
                .iter()
                .map(|r| format!("{} ({}; `{}`)", r.info().title, r.info().source, r.info().id))
                .collect();
            if !rules.is_empty() {
                m.push_str(&format!("  \n   *Rule:* {}", rules.join("; ")));
            }
            m.push_str("\n\n");
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_read_as_ranges() {
        assert_eq!(ranges(&[1, 2, 3, 5, 7, 8]), "1–3, 5, 7–8");
        assert_eq!(ranges(&[]), "none");
    }

    #[test]
    fn sizes_in_the_runs_unit_with_the_other_in_brackets() {
        // A run counting segments: segments first.
        assert_eq!(size(30660, 1460, Units::Segments, None), "21 segments (30660 B)");
        assert_eq!(size(1460, 1460, Units::Segments, None), "1 segment (1460 B)");
        // A run counting bytes: segments first only for a whole number of them.
        assert_eq!(size(7000, 1000, Units::Bytes, None), "7 segments (7000 B)");
        assert_eq!(size(28954, 1460, Units::Bytes, None), "28954 B (19.83 segments)");
        assert_eq!(size(u64::MAX, 1460, Units::Bytes, None), "unlimited");
    }

    #[test]
    fn sizes_in_the_readers_unit_whatever_the_run_counts() {
        let seg = Some(ShownUnit::Segments);
        let b = Some(ShownUnit::Bytes);
        assert_eq!(size(28954, 1460, Units::Bytes, seg), "19.83 segments (28954 B)");
        assert_eq!(size(30660, 1460, Units::Segments, b), "30660 B (21 segments)");
        assert_eq!(size(1460, 1460, Units::Segments, b), "1460 B (1 segment)");
        assert_eq!(size(7000, 1000, Units::Bytes, seg), "7 segments (7000 B)");
        assert_eq!(size(u64::MAX, 1460, Units::Segments, b), "unlimited");
        assert_eq!(decimal(0.05 * 1e3, 3), "50");
        assert_eq!(decimal(0.1 * 3.0, 3), "0.3");
        assert_eq!(algorithm_label("old_tahoe"), "Old Tahoe");
        assert_eq!(algorithm_label("custom"), "custom");
    }
}
