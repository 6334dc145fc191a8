//! Where the textbook's round model and the per-packet run it was made from part: the first
//! round whose cwnd or ssthresh (in whole segments) differs, and one sentence saying which
//! rule of which convention makes the difference. The page shows the sentence beside the
//! two lines of the rounds view; it is written here so that the page never retypes a rule.

use super::{describe, segments_json, segments_text, Convention, Model, TextbookRound, Variant, SEG};
use crate::explain::Rule;
use crate::rounds::Round;
use crate::trace::EventKind;
use serde_json::{json, Value};

/// The first round where the two differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    /// The round (1, 2, …).
    pub round: u32,
    /// The per-packet run's cwnd and ssthresh in that round, thousandths of a segment
    /// (`u64::MAX`: no limit), and its phase's name.
    pub per_packet_cwnd: u64,
    pub per_packet_ssthresh: u64,
    pub per_packet_phase: &'static str,
    /// The model's cwnd and ssthresh in that round, thousandths of a segment.
    pub textbook_cwnd: u64,
    pub textbook_ssthresh: u64,
    /// The id of the model's rule that set that round's cwnd.
    pub rule: &'static str,
    /// One sentence: which rule of which convention makes the difference.
    pub why: String,
}

/// Bytes as thousandths of a segment of `mss` bytes (`u64::MAX` stays no limit).
fn milli(bytes: u64, mss: u64) -> u64 {
    if bytes == u64::MAX {
        u64::MAX
    } else {
        (bytes as u128 * SEG as u128 / mss.max(1) as u128) as u64
    }
}

/// Whole segments, for the comparison (textbooks count whole segments).
fn whole(v: u64) -> u64 {
    if v == u64::MAX {
        v
    } else {
        v / SEG
    }
}

/// "cwnd 21, ssthresh 21" in whole segments (or with their fraction).
fn windows(cwnd: u64, ssthresh: u64) -> String {
    format!("cwnd {}, ssthresh {}", segments_text(cwnd), segments_text(ssthresh))
}

/// The reason a round's rule gives a different window than the per-packet sender's.
fn reason(m: &Model, t: &TextbookRound, r: &Round, before: Option<&Round>, mss: u64) -> String {
    let conv = m.convention.label();
    let in_recovery = r.phase_name() == "fast_recovery";
    let lossy = r
        .events
        .iter()
        .any(|e| matches!(e, EventKind::FastRetransmit | EventKind::Timeout));
    match t.decision.rule {
        Rule::TextbookTripleDupKr => format!(
            "per-packet Reno {}deflates cwnd to ssthresh when the loss is repaired, while the {conv} figure sets cwnd = ssthresh + 3 in the round after a triple duplicate ACK and keeps it (textbook.triple_dup_kr)",
            if in_recovery { "inflates cwnd by one segment per duplicate ACK in fast recovery, then " } else { "" }
        ),
        Rule::TextbookTripleDupRfc => format!(
            "per-packet Reno {}while the {conv} model starts the round after a triple duplicate ACK at cwnd = ssthresh, its inflation deflated within the round (textbook.triple_dup_rfc)",
            if in_recovery { "is still in fast recovery, its cwnd inflated by one segment per duplicate ACK, " } else { "counts its window per ACK, " }
        ),
        Rule::TextbookTripleDupTahoe => format!(
            "the {conv} model of Tahoe sets cwnd = 1 after a triple duplicate ACK, as after a timeout (textbook.triple_dup_tahoe), while the per-packet sender kept a larger window"
        ),
        Rule::TextbookTimeout => format!(
            "both set cwnd = 1 after the timeout and ssthresh to half the window before it, but the windows before it differed ({} in the {conv} model, {} per packet), so the halves differ (textbook.timeout)",
            segments_text(t.decision.values[2]),
            before.map_or("?".to_string(), |b| segments_text(milli(b.cwnd, mss)))
        ),
        Rule::TextbookSlowStart if whole(milli(r.ssthresh, mss)) != whole(t.ssthresh) => format!(
            "slow start stops at ssthresh in both, and ssthresh differs ({} in the {conv} model, {} per packet) since the last loss halved different windows (textbook.slow_start)",
            segments_text(t.ssthresh),
            segments_text(milli(r.ssthresh, mss))
        ),
        Rule::TextbookSlowStart => format!(
            "per-packet slow start adds one segment per ACK, so a round's window depends on the ACKs that arrived in it (delayed ACKs, losses), while the {conv} model doubles cwnd once per round (textbook.slow_start)"
        ),
        Rule::TextbookCongestionAvoidance if lossy => format!(
            "this round ends with a loss, and the per-packet sender grows cwnd only on ACKs of new data, so the duplicate ACKs of the round leave it as it was, while the {conv} model adds one segment in every round of congestion avoidance, the round that ends with the loss included (textbook.congestion_avoidance)"
        ),
        Rule::TextbookCongestionAvoidance => format!(
            "per-packet congestion avoidance adds MSS·MSS/cwnd bytes per ACK, about one segment per window acknowledged, while the {conv} model adds exactly one segment per round (textbook.congestion_avoidance)"
        ),
        _ => format!(
            "the per-packet sender's initial window and ssthresh differ from the {conv} model's start (textbook.start)"
        ),
    }
}

/// The first round of `model_rounds` (the model `m` replayed on the per-packet run's losses)
/// whose cwnd or ssthresh, in whole segments, differs from the per-packet `rounds` (complete
/// rounds of a flow with segments of `mss` bytes), or None where they agree in every round
/// both have.
pub fn first_divergence(m: &Model, model_rounds: &[TextbookRound], rounds: &[Round], mss: u64) -> Option<Divergence> {
    partings(m, model_rounds, rounds, mss).into_iter().next()
}

/// Every round where the model and the run part anew: the first round that differs, and
/// each later round where the difference (in cwnd or ssthresh, whole segments) changes to
/// another that is not zero, each with its sentence. The first is [`first_divergence`].
pub fn partings(m: &Model, model_rounds: &[TextbookRound], rounds: &[Round], mss: u64) -> Vec<Divergence> {
    let gap = |a: u64, b: u64| -> i128 {
        if a == u64::MAX || b == u64::MAX {
            if a == b {
                0
            } else {
                i128::MAX
            }
        } else {
            whole(a) as i128 - whole(b) as i128
        }
    };
    let mut out = Vec::new();
    let mut last = (0i128, 0i128);
    for (i, (t, r)) in model_rounds.iter().zip(rounds).enumerate() {
        let (pc, ps) = (milli(r.cwnd, mss), milli(r.ssthresh, mss));
        let now = (gap(t.cwnd, pc), gap(t.ssthresh, ps));
        let changed = now != last;
        last = now;
        if !changed || now == (0, 0) {
            continue;
        }
        let variant = match m.variant {
            Variant::Reno => "Reno",
            Variant::Tahoe => "Tahoe",
        };
        let phase = r.phase_name();
        let why = format!(
            "Round {}: per-packet {variant} has {} ({}), the textbook model ({}) {}: {}.",
            t.round,
            windows(pc, ps),
            phase.replace('_', " "),
            m.convention.short(),
            windows(t.cwnd, t.ssthresh),
            reason(m, t, r, i.checked_sub(1).and_then(|j| rounds.get(j)), mss)
        );
        out.push(Divergence {
            round: t.round,
            per_packet_cwnd: pc,
            per_packet_ssthresh: ps,
            per_packet_phase: phase,
            textbook_cwnd: t.cwnd,
            textbook_ssthresh: t.ssthresh,
            rule: t.decision.info().id,
            why,
        });
    }
    out
}

impl Divergence {
    /// As JSON: windows in segments (null: no limit).
    pub fn to_json(&self) -> Value {
        json!({
            "round": self.round,
            "per_packet": {"cwnd": segments_json(self.per_packet_cwnd), "ssthresh": segments_json(self.per_packet_ssthresh), "phase": self.per_packet_phase},
            "textbook": {"cwnd": segments_json(self.textbook_cwnd), "ssthresh": segments_json(self.textbook_ssthresh), "rule": self.rule},
            "why": self.why,
        })
    }
}

/// The textbook model beside a per-packet run of scenario `s` (flow 0; Tahoe where the flow
/// is): `{convention, label, short, model, rounds: [round JSON], divergence: {…}|null,
/// partings: [{…}]}` (the first divergence, and every round where they part anew).
/// Runs the scenario to the end. Errors: no complete round.
pub fn beside_run_json(s: &crate::scenario::Scenario, convention: Convention) -> Result<Value, String> {
    let variant = if s.flows.first().map(|f| f.variant) == Some(crate::scenario::Variant::Tahoe) {
        Variant::Tahoe
    } else {
        Variant::Reno
    };
    let rounds = super::run_rounds(s)?;
    let m = super::model_of_rounds(s, &rounds, convention, variant)?;
    let model_rounds = m.run();
    let mss = s.flows[0].tcp.mss;
    let all = partings(&m, &model_rounds, &rounds, mss);
    Ok(json!({
        "convention": convention.name(),
        "label": convention.label(),
        "short": convention.short(),
        "model": describe(&m),
        "rounds": model_rounds.iter().map(TextbookRound::to_json).collect::<Vec<_>>(),
        "divergence": all.first().map(Divergence::to_json),
        "partings": all.iter().map(Divergence::to_json).collect::<Vec<_>>(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    fn reno() -> crate::scenario::Scenario {
        presets::find("textbook-reno").unwrap().scenario().unwrap()
    }

    #[test]
    fn textbook_reno_parts_in_round_17_then_by_the_kr_rule_in_18() {
        let s = reno();
        let rounds = super::super::run_rounds(&s).unwrap();
        let m = super::super::model_of_rounds(&s, &rounds, Convention::KuroseRoss, Variant::Reno).unwrap();
        let mr = m.run();
        let d = first_divergence(&m, &mr, &rounds, s.flows[0].tcp.mss).expect("they part");
        // Round 17 ends with the triple duplicate ACK: per-packet Reno's duplicate ACKs do not
        // grow cwnd (42), the model adds its segment (43).
        assert_eq!(d.round, 17);
        assert_eq!(d.rule, "textbook.congestion_avoidance");
        assert_eq!((d.per_packet_cwnd, d.textbook_cwnd), (42 * SEG, 43 * SEG));
        assert_eq!((d.per_packet_ssthresh, d.textbook_ssthresh), (32 * SEG, 32 * SEG));
        assert_eq!(d.per_packet_phase, "congestion_avoidance");
        assert_eq!(
            d.why,
            "Round 17: per-packet Reno has cwnd 42, ssthresh 32 (congestion avoidance), the textbook model (K&R) cwnd 43, ssthresh 32: this round ends with a loss, and the per-packet sender grows cwnd only on ACKs of new data, so the duplicate ACKs of the round leave it as it was, while the Kurose & Ross model adds one segment in every round of congestion avoidance, the round that ends with the loss included (textbook.congestion_avoidance)."
        );
        // From round 18 on, the K&R rule: per-packet Reno in fast recovery at 21, the model
        // at ssthresh + 3 = 24.
        let (t18, r18) = (&mr[17], &rounds[17]);
        assert_eq!(
            (milli(r18.cwnd, s.flows[0].tcp.mss), r18.phase_name()),
            (21 * SEG, "fast_recovery")
        );
        assert_eq!(
            (t18.cwnd, t18.ssthresh, t18.decision.rule),
            (24 * SEG, 21 * SEG, Rule::TextbookTripleDupKr)
        );
        let all = partings(&m, &mr, &rounds, s.flows[0].tcp.mss);
        let at: Vec<(u32, &str)> = all.iter().map(|d| (d.round, d.rule)).collect();
        assert_eq!(
            &at[..2],
            &[(17, "textbook.congestion_avoidance"), (18, "textbook.triple_dup_kr")]
        );
        let later = &all[1];
        assert_eq!(
            (later.per_packet_cwnd, later.per_packet_phase),
            (21 * SEG, "fast_recovery")
        );
        // After the timeout (round 25): ssthresh 15 in the model (31/2), 13 per packet (27/2).
        let timeout = all
            .iter()
            .find(|d| d.rule == "textbook.timeout")
            .expect("the timeout parts them");
        assert_eq!(
            (timeout.round, timeout.textbook_ssthresh, timeout.per_packet_ssthresh),
            (26, 15 * SEG, 13 * SEG)
        );
        assert!(
            timeout.why.contains("(31 in the Kurose & Ross model, 27 per packet)"),
            "{}",
            timeout.why
        );
        assert!(
            later.why.contains("the textbook model (K&R) cwnd 24, ssthresh 21"),
            "{}",
            later.why
        );
        assert!(later.why.contains("sets cwnd = ssthresh + 3"), "{}", later.why);
        // Every earlier round agrees in whole segments.
        for (t, r) in mr.iter().zip(&rounds).take(16) {
            assert_eq!(
                whole(milli(r.cwnd, s.flows[0].tcp.mss)),
                whole(t.cwnd),
                "round {}",
                t.round
            );
        }
    }

    #[test]
    fn rfc5681_parts_elsewhere_with_its_own_rule() {
        let s = reno();
        let v = beside_run_json(&s, Convention::Rfc5681).unwrap();
        let d = &v["divergence"];
        assert_eq!(v["short"], "RFC 5681");
        assert!(d["why"].as_str().unwrap().contains("(RFC 5681)"), "{d}");
        assert_ne!(d["textbook"]["rule"], "textbook.triple_dup_kr");
    }

    #[test]
    fn identical_rounds_do_not_part() {
        let m = Model {
            rounds: 4,
            ..Model::default()
        };
        let mr = m.run();
        let rounds: Vec<Round> = mr
            .iter()
            .map(|t| Round {
                round: t.round,
                start: 0,
                end: Some(1),
                cwnd: t.cwnd / SEG * 1000,
                ssthresh: t.ssthresh / SEG * 1000,
                phase: t.phase as u8,
                sent: 0,
                retransmitted: 0,
                events: vec![],
            })
            .collect();
        assert_eq!(first_divergence(&m, &mr, &rounds, 1000), None);
        let mut late = rounds.clone();
        late[2].cwnd = 3000;
        let d = first_divergence(&m, &mr, &late, 1000).unwrap();
        assert_eq!(d.round, 3);
        assert!(
            d.why.contains("doubles cwnd once per round (textbook.slow_start)"),
            "{}",
            d.why
        );
    }

    #[test]
    fn conventions_have_names_labels_and_descriptions() {
        let v = super::super::conventions_json();
        assert_eq!(v[0]["name"], "kurose_ross");
        assert_eq!(v[0]["short"], "K&R");
        assert_eq!(Convention::from_name("rfc5681"), Some(Convention::Rfc5681));
        assert_eq!(Convention::from_name("nope"), None);
    }
}
