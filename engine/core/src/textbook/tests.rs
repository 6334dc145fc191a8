//! The round model against hand arithmetic, convention by convention. The first test is
//! Kurose & Ross's Reno figure: initial ssthresh 32, a triple duplicate ACK ending round 16,
//! a timeout ending round 22.

use super::*;
use serde_json::json;

fn kr_figure() -> Model {
    Model {
        losses: vec![
            Loss {
                round: 16,
                kind: LossKind::TripleDup,
            },
            Loss {
                round: 22,
                kind: LossKind::Timeout,
            },
        ],
        ..Model::default()
    }
}

fn cwnds(rounds: &[TextbookRound]) -> Vec<String> {
    rounds.iter().map(|r| segments_text(r.cwnd)).collect()
}

fn ssthreshes(rounds: &[TextbookRound]) -> Vec<String> {
    rounds.iter().map(|r| segments_text(r.ssthresh)).collect()
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn kurose_ross_figure_whole_trajectory() {
    let r = kr_figure().run();
    assert_eq!(r.len(), 26);
    // Slow start doubles from 1 to ssthresh = 32 (rounds 1–6), then one segment per round to
    // 42 (round 16); the triple duplicate ACK: ssthresh = 42/2 = 21, cwnd = 21 + 3 = 24, then
    // +1 per round to 29 (round 22); the timeout: ssthresh = ⌊29/2⌋ = 14, cwnd = 1, slow start.
    let want = "1 2 4 8 16 32 33 34 35 36 37 38 39 40 41 42 24 25 26 27 28 29 1 2 4 8";
    assert_eq!(cwnds(&r), strs(&want.split(' ').collect::<Vec<_>>()));
    let mut ss = vec!["32"; 16];
    ss.extend(["21"; 6]);
    ss.extend(["14"; 4]);
    assert_eq!(ssthreshes(&r), strs(&ss));
    let phases: Vec<Phase> = r.iter().map(|x| x.phase).collect();
    let (s, c) = (Phase::SlowStart, Phase::CongestionAvoidance);
    let mut want_p = vec![s; 6];
    want_p.extend([c; 16]);
    want_p.extend([s; 4]);
    assert_eq!(phases, want_p);
    // The rules that set each round.
    assert_eq!(r[0].decision.rule, Rule::TextbookStart);
    assert_eq!(r[5].decision.rule, Rule::TextbookSlowStart);
    assert_eq!(r[6].decision.rule, Rule::TextbookCongestionAvoidance);
    assert_eq!(r[16].decision.rule, Rule::TextbookTripleDupKr);
    assert_eq!(r[22].decision.rule, Rule::TextbookTimeout);
    assert_eq!(r[15].ended_by, Some(LossKind::TripleDup));
    assert_eq!(r[21].ended_by, Some(LossKind::Timeout));
    let why = r[16].decision.text();
    assert!(
        why.contains("ssthresh = 42/2 = 21") && why.contains("ssthresh + 3 = 24"),
        "{why}"
    );
    assert!(r[22].decision.text().contains("29/2 = 14 (rounded down)"));
}

#[test]
fn kurose_ross_answers_segment_70_in_round_7() {
    let m = kr_figure();
    let r = m.run();
    // Round k of slow start sends 2^(k−1) segments: 1, 2–3, 4–7, …, 32–63; round 7 sends 33
    // from 64, so segment 70 is in round 7.
    assert_eq!((r[5].first, r[5].last), (32, 63));
    assert_eq!((r[6].first, r[6].last), (64, 96));
    assert_eq!(m.round_of_segment(70), Some(7));
    assert_eq!(m.round_of_segment(1), Some(1));
    // Rounds 17 onward send 24, 25, … segments after the 666 of rounds 1–16.
    let before: u64 = r[..16].iter().map(|x| x.cwnd / SEG).sum();
    assert_eq!(before, 1 + 2 + 4 + 8 + 16 + 32 + (33..=42).sum::<u64>());
    assert_eq!(r[16].first, before + 1);
}

#[test]
fn a_hypothetical_triple_dup_after_round_26_halves_8_and_adds_3() {
    let mut m = kr_figure();
    m.losses.push(Loss {
        round: 26,
        kind: LossKind::TripleDup,
    });
    m.rounds = 27;
    let r = m.run();
    assert_eq!(
        (segments_text(r[26].ssthresh), segments_text(r[26].cwnd)),
        ("4".into(), "7".into())
    );
}

#[test]
fn rfc5681_deflates_to_ssthresh_and_keeps_two_segments_at_least() {
    let m = Model {
        convention: Convention::Rfc5681,
        ..kr_figure()
    };
    let r = m.run();
    // The round after the triple duplicate ACK starts at ssthresh = 21 (not 24): 21..26, then
    // the timeout at 26: ssthresh = 13.
    assert_eq!(cwnds(&r[16..22]), strs(&["21", "22", "23", "24", "25", "26"]));
    assert_eq!(r[16].decision.rule, Rule::TextbookTripleDupRfc);
    assert_eq!(segments_text(r[22].ssthresh), "13");
    // max(cwnd/2, 2): a loss at cwnd 2 leaves ssthresh 2 (Kurose & Ross's figure rule: 1).
    let small = |c| Model {
        convention: c,
        initial_ssthresh: Some(2),
        losses: vec![Loss {
            round: 1,
            kind: LossKind::Timeout,
        }],
        initial_cwnd: 2,
        rounds: 2,
        ..Model::default()
    };
    assert_eq!(segments_text(small(Convention::Rfc5681).run()[1].ssthresh), "2");
    assert_eq!(segments_text(small(Convention::KuroseRoss).run()[1].ssthresh), "1");
}

#[test]
fn tahoe_restarts_slow_start_on_a_triple_duplicate_ack() {
    let m = Model {
        variant: Variant::Tahoe,
        ..kr_figure()
    };
    let r = m.run();
    // After round 16: ssthresh 21, cwnd 1, 2, 4, 8, 16, then min(32, 21) = 21 at round 22,
    // whose timeout sets ssthresh = ⌊21/2⌋ = 10.
    assert_eq!(cwnds(&r[16..22]), strs(&["1", "2", "4", "8", "16", "21"]));
    assert_eq!(r[16].decision.rule, Rule::TextbookTripleDupTahoe);
    assert_eq!(r[16].phase, Phase::SlowStart);
    assert_eq!(segments_text(r[22].ssthresh), "10");
}

#[test]
fn exact_halving_keeps_half_a_segment_and_the_exit_choice_decides_the_last_doubling() {
    let m = Model {
        halving: Halving::Exact,
        rounds: 29,
        ..kr_figure()
    };
    let r = m.run();
    // ssthresh = 29/2 = 14.5: slow start 1, 2, 4, 8, then min(16, 14.5) = 14.5, then 15.5.
    assert_eq!(segments_text(r[22].ssthresh), "14.5");
    assert_eq!(cwnds(&r[22..29]), strs(&["1", "2", "4", "8", "14.5", "15.5", "16.5"]));
    // 14.5 segments send 14.
    assert_eq!(r[26].last - r[26].first + 1, 14);
    // Overshoot: the doubling to 16 is kept, then 17.
    let o = Model {
        ss_exit: SsExit::Overshoot,
        rounds: 28,
        ..kr_figure()
    };
    let r = o.run();
    assert_eq!(cwnds(&r[22..28]), strs(&["1", "2", "4", "8", "16", "17"]));
    assert_eq!(r[26].phase, Phase::SlowStart);
    assert_eq!(r[27].phase, Phase::CongestionAvoidance);
}

#[test]
fn no_initial_ssthresh_means_slow_start_until_the_first_loss() {
    let m = Model {
        initial_ssthresh: None,
        losses: vec![Loss {
            round: 5,
            kind: LossKind::TripleDup,
        }],
        rounds: 7,
        ..Model::default()
    };
    let r = m.run();
    assert_eq!(cwnds(&r), strs(&["1", "2", "4", "8", "16", "11", "12"]));
    assert_eq!(segments_text(r[0].ssthresh), "∞");
    assert!(r[0].decision.text().contains("ssthresh = ∞"));
}

#[test]
fn a_sheet_on_the_kurose_ross_figure_answers_as_the_exercise_does() {
    let s = sheet::sheet("K&R", &kr_figure(), 1, crate::exercise::MAX_QUESTIONS).unwrap();
    let by = |kind: &str| s.questions.iter().filter(|q| q.kind == kind).collect::<Vec<_>>();
    assert_eq!(by("slow_start_rounds")[0].values, json!([[1, 6], [23, 26]]));
    assert_eq!(by("ca_rounds")[0].values, json!([[7, 16], [17, 22]]));
    let signals: Vec<_> = by("loss_signal").iter().map(|q| q.values.clone()).collect();
    assert_eq!(
        signals,
        vec![
            json!({"round": 16, "kind": "triple-dup"}),
            json!({"round": 22, "kind": "timeout"})
        ]
    );
    assert_eq!(by("initial_ssthresh")[0].values, json!("32"));
    // A further triple duplicate ACK after round 26 (cwnd 8): ssthresh 4, cwnd 4 + 3 = 7.
    assert_eq!(by("hypothetical")[0].values, json!({"ssthresh": "4", "cwnd": "7"}));
    // Tahoe after round 16: ssthresh 21, cwnd 1.
    assert_eq!(by("tahoe")[0].values, json!({"ssthresh": "21", "cwnd": "1"}));
    assert!(by("tahoe")[0].answer.contains("Tahoe has no fast recovery"));
    // The asked round's answer is the model's, with its rule's sentence.
    for q in by("cwnd_at") {
        let k: u32 = q
            .text
            .split("round ")
            .nth(1)
            .unwrap()
            .trim_end_matches('?')
            .parse()
            .unwrap();
        let r = kr_figure().run()[(k - 1) as usize];
        assert_eq!(q.values, json!(segments_text(r.cwnd)));
        assert!(q.answer.contains(&r.decision.text()));
    }
    let seg = &by("segment_round")[0].values;
    let k = seg["segment"].as_u64().unwrap();
    assert_eq!(
        kr_figure().round_of_segment(k),
        Some(seg["round"].as_u64().unwrap() as u32)
    );
    // The same number gives the same sheet; another may choose other rounds.
    let again = sheet::sheet("K&R", &kr_figure(), 1, crate::exercise::MAX_QUESTIONS).unwrap();
    assert_eq!(
        s.questions.iter().map(|q| &q.text).collect::<Vec<_>>(),
        again.questions.iter().map(|q| &q.text).collect::<Vec<_>>()
    );
    assert!(sheet::sheet("K&R", &kr_figure(), 1, 0).is_err());
}
