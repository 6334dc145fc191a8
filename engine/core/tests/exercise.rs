//! Exercise sheets: every answer is the engine's record of the run (the window series at the
//! instant asked about, the rounds, the explained decisions); the sheet number alone chooses
//! the questions; bad requests say what is wrong.

mod common;

use common::{run, scenario};
use cwndlab_core::exercise::sheet;
use cwndlab_core::explain::Rule;
use cwndlab_core::scenario::Scenario;
use cwndlab_core::trace::EventKind;

fn textbook() -> Scenario {
    scenario("textbook-reno", &[])
}

#[test]
fn every_answer_is_the_runs_record() {
    let s = textbook();
    let sim = run(&s);
    let rounds = sim.rounds(0).unwrap();
    let series = &sim.series(0).rows;
    let after = |t: u64| series.iter().rev().find(|r| r.0 <= t).unwrap().1;
    // Every question the run can give, over enough sheets to see each kind.
    let mut kinds = std::collections::BTreeSet::new();
    for number in 1..=12 {
        let sh = sheet("t", &s, number, 8, &[]).unwrap();
        assert_eq!(sh.questions.len(), 8);
        for q in &sh.questions {
            kinds.insert(q.kind);
            let v = &q.values;
            match q.kind {
                "timeout" | "fast_retransmit" => {
                    let t = q.at.unwrap();
                    let kind = if q.kind == "timeout" {
                        EventKind::Timeout
                    } else {
                        EventKind::FastRetransmit
                    };
                    assert!(sim.events().rows.iter().any(|r| r.t == t && r.kind == kind as u8));
                    let st = after(t);
                    assert_eq!(v["cwnd_bytes"], st.cwnd);
                    assert_eq!(v["ssthresh_bytes"], st.ssthresh);
                    assert!(!q.rules.is_empty(), "{}", q.text);
                }
                "round_cwnd" => {
                    let r = &rounds[v["round"].as_u64().unwrap() as usize - 1];
                    assert_eq!(v["cwnd_bytes"], r.cwnd);
                    assert_eq!(v["phase"], r.phase_name());
                }
                "slow_start_rounds" => {
                    assert_eq!(v["slow_start"], serde_json::json!([1, 2, 3, 4, 5]));
                    assert_eq!(v["timeout_recovery"], serde_json::json!([26, 27, 28, 29, 30]));
                    assert_eq!(q.rules, vec![Rule::SsAckCounting]);
                }
                "ca_rounds" => {
                    let ca: Vec<u64> = v["congestion_avoidance"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x.as_u64().unwrap())
                        .collect();
                    assert_eq!(ca.first(), Some(&6));
                    assert!(!ca.contains(&18) && !ca.contains(&26));
                    assert_eq!(q.rules, vec![Rule::CaByteCounting]);
                }
                "ssthresh_change" => {
                    assert_eq!(v["round"], 18);
                    assert_eq!(v["ssthresh_bytes"], 21 * 1460);
                    assert!(q.rules.contains(&Rule::SsthreshHalfFlight), "{:?}", q.rules);
                }
                other => panic!("unexpected kind {other}"),
            }
        }
    }
    assert_eq!(kinds.len(), 6, "{kinds:?}");
    // The textbook's two loss answers, in segments of 1 460 B.
    let sh = sheet("t", &s, 1, 20, &[]).unwrap();
    let fr = sh.questions.iter().find(|q| q.kind == "fast_retransmit").unwrap();
    // The run counts segments: the answers are in segments, the bytes in brackets.
    assert!(
        fr.answer
            .starts_with("ssthresh = 21 segments (30660 B), cwnd = 21 segments (30660 B)"),
        "{}",
        fr.answer
    );
    let to = sh.questions.iter().find(|q| q.kind == "timeout").unwrap();
    assert_eq!(to.answer, "ssthresh = 13 segments (18980 B), cwnd = 1 segment (1460 B)");
    assert!(to.rules.contains(&Rule::Timeout));
}

#[test]
fn the_sheet_speaks_as_a_student_writes_names_times_and_sizes() {
    let s = textbook();
    let sh = sheet("t", &s, 1, 20, &[]).unwrap();
    // The catalogue's display name, not the id.
    assert!(
        sh.scenario_line
            .starts_with("Reno · bottleneck 100 Mbit/s, 50 ms one way"),
        "{}",
        sh.scenario_line
    );
    for q in sh
        .questions
        .iter()
        .filter(|q| q.at.is_some() && q.kind != "ssthresh_change" && q.kind != "round_cwnd")
    {
        // Times to the millisecond in the text; the exact time in the values and the JSON.
        let t = q.at.unwrap();
        let ms = format!("At {} s ", cwndlab_core::exercise::time_text(t).trim_end_matches(" s"));
        assert!(q.text.starts_with(&ms), "{} / {ms}", q.text);
        let secs = q.text[3..].split(' ').next().unwrap();
        let decimals = secs.split_once('.').map_or(0, |(_, d)| d.len());
        assert!(decimals <= 3, "{}", q.text);
        assert!(
            (secs.parse::<f64>().unwrap() - t as f64 / 1e9).abs() <= 0.0005,
            "{}",
            q.text
        );
        assert_eq!(q.values["t"], t as f64 / 1e9);
        let j = sh.to_json();
        let jq = j["questions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["text"] == q.text.as_str())
            .unwrap();
        assert_eq!(jq["at_s"], t as f64 / 1e9);
        assert_eq!(jq["at_text"], format!("{secs} s"));
        // No id with an underscore and no nanoseconds anywhere in the words.
        assert!(!q.answer.contains("_"), "{}", q.answer);
    }
    assert_eq!(cwndlab_core::exercise::time_text(2_898_920_272), "2.899 s");
    assert_eq!(cwndlab_core::exercise::time_text(3_000_000_000), "3 s");
    assert_eq!(cwndlab_core::exercise::time_text(3_280_400_000), "3.28 s");
}

#[test]
fn the_comparison_names_the_algorithms_as_the_catalogue_does() {
    let base = scenario("fall-floyd-reno-3drops", &[]);
    let newreno = scenario("fall-floyd-reno-3drops", &[("flows[0].algorithm", "newreno")]);
    let old = scenario("fall-floyd-reno-3drops", &[("flows[0].algorithm", "old_tahoe")]);
    let others = vec![
        ("old_tahoe".to_string(), old),
        ("reno".to_string(), base.clone()),
        ("newreno".to_string(), newreno),
    ];
    let sh = sheet("t", &base, 1, 20, &others).unwrap();
    let q = sh.questions.iter().find(|q| q.kind == "compare").unwrap();
    assert!(
        q.text.starts_with("Of Old Tahoe, Reno, NewReno, which algorithm"),
        "{}",
        q.text
    );
    assert!(q.answer.starts_with("NewReno: "), "{}", q.answer);
    assert!(
        ["Old Tahoe", "Reno"]
            .iter()
            .any(|l| q.answer.contains(&format!(" against {l}'s "))),
        "{}",
        q.answer
    );
    assert!(
        !q.answer.contains("old_tahoe") && !q.answer.contains("newreno"),
        "{}",
        q.answer
    );
    // Tools keep the ids.
    assert_eq!(q.values["more"], "newreno");
    // The first divergence to the millisecond.
    let when = q.answer.split("first decide differently at ").nth(1).unwrap();
    let secs = when.split(' ').next().unwrap();
    assert!(secs.split_once('.').map_or(0, |(_, d)| d.len()) <= 3, "{}", q.answer);
}

#[test]
fn the_number_chooses_the_questions_and_gives_the_same_sheet_again() {
    let s = textbook();
    let texts = |n: u64| -> Vec<String> {
        sheet("t", &s, n, 5, &[])
            .unwrap()
            .questions
            .iter()
            .map(|q| q.text.clone())
            .collect()
    };
    assert_eq!(texts(3), texts(3));
    let distinct: std::collections::BTreeSet<Vec<String>> = (1..=6).map(texts).collect();
    assert!(distinct.len() >= 4, "{} distinct sheets of 6", distinct.len());
    // One question of each kind before any kind repeats.
    let kinds: Vec<&str> = sheet("t", &s, 2, 6, &[])
        .unwrap()
        .questions
        .iter()
        .map(|q| q.kind)
        .collect();
    let mut k = kinds.clone();
    k.sort();
    k.dedup();
    assert_eq!(k.len(), 6, "{kinds:?}");
}

#[test]
fn comparing_algorithms_names_the_winner_and_the_rule_that_made_the_difference() {
    let base = scenario("fall-floyd-reno-3drops", &[]);
    let newreno = scenario("fall-floyd-reno-3drops", &[("flows[0].algorithm", "newreno")]);
    let others = vec![("reno".to_string(), base.clone()), ("newreno".to_string(), newreno)];
    let sh = sheet("t", &base, 1, 20, &others).unwrap();
    let q = sh
        .questions
        .iter()
        .find(|q| q.kind == "compare")
        .expect("a comparison question");
    assert_eq!(q.values["more"], "newreno");
    // Reno leaves recovery on the first new ACK where NewReno sees a partial ACK.
    let ids: Vec<&str> = q.rules.iter().map(|r| r.info().id).collect();
    assert!(ids.iter().any(|i| i.starts_with("recovery.")), "{ids:?}");
}

#[test]
fn bad_requests_say_what_is_wrong() {
    let s = textbook();
    assert!(sheet("t", &s, 1, 0, &[])
        .unwrap_err()
        .contains("questions: 0 is not from 1 to 20"));
    assert!(sheet("t", &s, 1, 21, &[]).unwrap_err().contains("from 1 to 20"));
    let short = scenario("textbook-reno", &[("duration", "0.05")]);
    let e = sheet("t", &short, 1, 5, &[]).unwrap_err();
    assert!(e.contains("nothing to ask about"), "{e}");
    let congestion = scenario("textbook-reno", &[("trace.events", "congestion")]);
    // The sheet records every event itself: the scenario's filter does not matter.
    assert!(sheet("t", &congestion, 1, 5, &[]).is_ok());
}
