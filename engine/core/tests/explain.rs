//! Explanations: each rule's entry holds the state before as its inputs and the state after
//! as its outputs, with the run's exact numbers; explaining changes nothing in the run; every
//! rule is explained by some run below; and the first divergence of two algorithms is where
//! the sources say they part.

mod common;

use common::{check_chain, run, scenario, scenario_from, Named, SEC};
use cwndlab_core::explain::{first_divergence, Entry, Kind, Rule};
use cwndlab_core::presets;
use cwndlab_core::scenario::Scenario;
use cwndlab_core::sim::Simulation;
use serde_json::json;
use std::collections::BTreeSet;

fn explained(s: &Scenario) -> Simulation {
    let mut sim = Simulation::new(s).explained();
    sim.run_to_end();
    sim
}

fn of(sim: &Simulation, rule: Rule) -> Vec<Entry> {
    sim.decisions().iter().filter(|e| e.d.rule == rule).collect()
}

/// Scenarios that reach the rules no preset reaches (ABC, byte counting, binomial controls,
/// BR-TCP's literal response, new CWV, Nagle, Limited Transmit, a lost SYN).
fn extra_scenarios() -> Vec<(&'static str, Scenario)> {
    vec![
        (
            "abc",
            scenario("fall-floyd-newreno-3drops", &[("flows[0].cc.slow_start", "abc")]),
        ),
        (
            "byte counting",
            scenario(
                "fall-floyd-newreno-1drops",
                &[
                    ("flows[0].cc.congestion_avoidance", "byte_counting"),
                    ("flows[0].cc.units", "bytes"),
                ],
            ),
        ),
        (
            "binomial",
            scenario("fall-floyd-newreno-3drops", &[("flows[0].algorithm", "binomial_sqrt")]),
        ),
        (
            "br-tcp set_cwnd",
            scenario("br-tcp-komuro", &[("flows[0].cc.br_recovery", "set_cwnd")]),
        ),
        (
            "new cwv",
            scenario("cwv-underutilized-100ms-q", &[("flows[0].algorithm", "newreno_newcwv")]),
        ),
        (
            "new cwv expiry",
            scenario(
                "cwv-underutilized-100ms-q",
                &[
                    ("flows[0].algorithm", "newreno_newcwv"),
                    ("flows[0].cc.nvp_limit", "0.2"),
                    ("duration", "60"),
                ],
            ),
        ),
        (
            "new cwv loss",
            scenario(
                "cwv-underutilized-100ms",
                &[
                    ("flows[0].algorithm", "newreno_newcwv"),
                    ("flows[0].drops", r#"[{"segment": 50}]"#),
                ],
            ),
        ),
        ("nagle", scenario("thin-50b-10ms", &[("flows[0].tcp.nagle", "true")])),
        (
            "cubic",
            scenario("netsim-newreno", &[("flows[0].algorithm", "cubic"), ("duration", "30")]),
        ),
        (
            "hystart++ (and a spurious rise: the path's delay goes up, then down)",
            scenario(
                "cubic-bufferbloat",
                &[
                    ("flows[0].cc.slow_start", "hystart_pp"),
                    ("network.bottleneck.queue_packets", "100"),
                    (
                        "timeline",
                        r#"[{"at": 0.12, "set": "network.bottleneck.delay", "value": 0.04},
                            {"at": 0.3, "set": "network.bottleneck.delay", "value": 0.005}]"#,
                    ),
                ],
            ),
        ),
        (
            "hystart++ to its end",
            scenario("cubic-bufferbloat", &[("flows[0].cc.slow_start", "hystart_pp")]),
        ),
        (
            "cubic linux",
            scenario(
                "netsim-newreno",
                &[("flows[0].algorithm", "cubic_linux"), ("duration", "30")],
            ),
        ),
        (
            "limited transmit",
            scenario("fall-floyd-newreno-1drops", &[("flows[0].cc.limited_transmit", "true")]),
        ),
        (
            "lost syn",
            scenario_from(
                presets::find("fall-floyd-reno-1drops").unwrap().overrides,
                &[("flows[0].drops", r#"[{"segment": 0, "attempt": 1}]"#)],
            ),
        ),
    ]
}

#[test]
fn explaining_changes_nothing_in_the_run() {
    for p in presets::all() {
        let s = p.scenario().unwrap();
        let plain = run(&s);
        let why = explained(&s);
        assert_eq!(plain.digest(), why.digest(), "{}", p.name);
        assert_eq!(plain.validation_digest(), why.validation_digest(), "{}", p.name);
        assert_eq!(
            serde_json::to_value(plain.summary()).unwrap(),
            serde_json::to_value(why.summary()).unwrap(),
            "{}",
            p.name
        );
        assert!(plain.decisions().is_empty(), "off by default: {}", p.name);
        assert!(!why.decisions().is_empty(), "{}", p.name);
    }
}

#[test]
fn every_cwnd_and_ssthresh_change_is_explained_with_its_before_and_after() {
    for p in presets::all() {
        check_chain(&p.name, &explained(&p.scenario().unwrap()));
    }
    for (name, s) in extra_scenarios() {
        check_chain(name, &explained(&s));
    }
}

#[test]
fn every_rule_is_explained_by_some_run() {
    let mut seen = BTreeSet::new();
    for p in presets::all() {
        seen.extend(explained(&p.scenario().unwrap()).decisions().iter().map(|e| e.d.rule));
    }
    for (_, s) in extra_scenarios() {
        seen.extend(explained(&s).decisions().iter().map(|e| e.d.rule));
    }
    let missing: Vec<&str> = Rule::ALL
        .iter()
        .filter(|r| !seen.contains(r))
        .map(|r| r.info().id)
        .collect();
    assert!(missing.is_empty(), "rules no run explains: {missing:?}");
}

#[test]
fn fall_floyd_reno_three_drops_fast_retransmit_exit_and_timeout() {
    // Fall & Floyd 1996 figure 3: three drops in one window; Reno's second fast retransmit is
    // refused by recover, and the timer fires.
    let sim = explained(&scenario("fall-floyd-reno-3drops", &[]));
    let fr = of(&sim, Rule::FastRetransmit);
    assert_eq!(fr.len(), 1);
    let d = fr[0].d;
    assert_eq!(fr[0].t, 2_069_200_360);
    // Segment units: ssthresh = max(⌊min(cwnd 15, rwnd 28)/2⌋, 2) = 7 segments.
    assert_eq!(
        (d.input("segment"), d.input("cwnd"), d.input("dupacks")),
        (14, 15_000, 3)
    );
    assert_eq!(
        (d.output("ssthresh"), d.output("cwnd"), d.output("window")),
        (7_000, 7_000, 10_000)
    );
    assert_eq!(
        (d.from, d.to),
        (1, 3),
        "slow start (cwnd 15 < ssthresh 28) → fast recovery"
    );
    let ss = of(&sim, Rule::SsthreshHalfCwnd);
    assert_eq!(
        (ss[0].t, ss[0].d.input("cwnd"), ss[0].d.output("ssthresh")),
        (fr[0].t, 15_000, 7_000)
    );
    // Nine more duplicate ACKs inflate the window one segment each: 11 … 19 segments.
    let inflate: Vec<u64> = of(&sim, Rule::Inflate)
        .iter()
        .map(|e| e.d.output("window") / 1000)
        .collect();
    assert_eq!(inflate, (11..=19).collect::<Vec<_>>());
    let exit = of(&sim, Rule::RenoExit);
    assert_eq!(exit.len(), 1);
    assert_eq!((exit[0].d.input("ack"), exit[0].d.input("recover")), (25_000, 28_000));
    assert_eq!((exit[0].d.output("cwnd"), exit[0].d.from, exit[0].d.to), (7_000, 3, 2));
    let guard = of(&sim, Rule::FastRetransmitSuppressed);
    assert_eq!((guard[0].d.input("ack"), guard[0].d.input("recover")), (25_000, 28_000));
    let to = of(&sim, Rule::Timeout);
    assert_eq!(to.len(), 1);
    assert_eq!(to[0].t, 3_281_080_448);
    assert_eq!(
        (
            to[0].d.input("segment"),
            to[0].d.input("cwnd"),
            to[0].d.output("cwnd"),
            to[0].d.output("ssthresh")
        ),
        (26, 7_000, 1_000, 3_000)
    );
    // The timer had doubled: RTO 1 s → 2 s.
    let b = of(&sim, Rule::Backoff);
    assert_eq!(
        (b[0].t, b[0].d.input("RTO"), b[0].d.output("RTO")),
        (to[0].t, SEC, 2 * SEC)
    );
    // The explanation shows the arithmetic on these numbers.
    assert!(fr[0]
        .line()
        .starts_with("2.069200 s  flow 0  3rd duplicate ACK for segment 14: fast retransmit."));
    assert!(
        exit[0].d.text().contains("cwnd = ssthresh = 7 000 B"),
        "{}",
        exit[0].d.text()
    );
}

#[test]
fn fall_floyd_newreno_partial_acks_resend_each_hole_then_a_full_ack() {
    let sim = explained(&scenario("fall-floyd-newreno-3drops", &[]));
    let partial = of(&sim, Rule::PartialReset);
    let resent: Vec<u64> = partial.iter().take(2).map(|e| e.d.input("segment")).collect();
    assert_eq!(resent, vec![26, 28], "the second and third drops, one per round trip");
    for p in &partial[..2] {
        // ns-2 without partial_window_deflation_: the window goes back to cwnd = 7 segments.
        assert_eq!(
            (p.d.output("window"), p.d.output("timer restarted"), p.d.from, p.d.to),
            (7_000, 1, 3, 3)
        );
    }
    let full = of(&sim, Rule::FullAckSsthresh);
    assert_eq!((full[0].d.input("recover"), full[0].d.output("cwnd")), (28_000, 7_000));
    assert!(full[0].d.input("ack") >= 28_000);
    assert!(
        of(&sim, Rule::Timeout).iter().all(|t| t.t > full[0].t),
        "NewReno needs no timeout for these drops"
    );
    // RFC 6582's deflation, asked for instead: window − acked + SMSS.
    let sim = explained(&scenario(
        "fall-floyd-newreno-3drops",
        &[("flows[0].cc.newreno_partial_window", "deflate")],
    ));
    for p in of(&sim, Rule::PartialDeflate) {
        let (w, acked, s) = (p.d.input("window"), p.d.input("acked"), p.d.input("SMSS"));
        assert_eq!(
            p.d.output("window"),
            (w - acked + if acked >= s { s } else { 0 }).max(s)
        );
    }
}

#[test]
fn tahoe_goes_back_to_one_segment_on_the_third_duplicate() {
    let sim = explained(&scenario("fall-floyd-tahoe-1drops", &[]));
    let fr = of(&sim, Rule::FastRetransmitTahoe);
    assert_eq!(
        (fr[0].d.output("cwnd"), fr[0].d.output("ssthresh"), fr[0].d.to),
        (1_000, 7_000, 1)
    );
    // Old Tahoe never acts on duplicates: the timer does it.
    let old = explained(&scenario("fall-floyd-old-tahoe-1drops", &[]));
    assert!(of(&old, Rule::FastRetransmit).is_empty() && of(&old, Rule::FastRetransmitTahoe).is_empty());
    assert!(!of(&old, Rule::Timeout).is_empty());
}

#[test]
fn rtt_entries_follow_their_estimators_formulas() {
    let sim = explained(&scenario("netsim-newreno", &[("duration", "20")]));
    let first = of(&sim, Rule::RttFirst);
    assert_eq!(first.len(), 1);
    let r = first[0].d.input("R");
    assert_eq!((first[0].d.output("SRTT"), first[0].d.output("RTTVAR")), (r, r / 2));
    let mut n = 0;
    for e in of(&sim, Rule::RttUpdate) {
        let (r, s, v, g) = (e.d.input("R"), e.d.input("SRTT"), e.d.input("RTTVAR"), e.d.input("G"));
        let v1 = (3 * v + s.abs_diff(r)) / 4;
        let s1 = (7 * s + r) / 8;
        assert_eq!((e.d.output("SRTT"), e.d.output("RTTVAR")), (s1, v1));
        let rto = (s1 + g.max(4 * v1)).clamp(e.d.input("min RTO"), e.d.input("max RTO"));
        assert_eq!(e.d.output("RTO"), rto);
        n += 1;
    }
    assert!(n > 50);
    // Karn: a sample refused whenever the timed segment's round trip holds a resend.
    assert!(!of(&sim, Rule::Karn).is_empty());
}

#[test]
fn a_lost_syn_backs_off_and_starts_data_with_a_three_second_rto() {
    let (_, s) = extra_scenarios().into_iter().find(|(n, _)| *n == "lost syn").unwrap();
    let sim = explained(&s);
    let b = of(&sim, Rule::Backoff);
    assert_eq!(
        (b[0].d.from, b[0].d.input("RTO"), b[0].d.output("RTO")),
        (0, 6 * SEC, 12 * SEC)
    );
    let syn = of(&sim, Rule::SynTimeout);
    assert_eq!(syn.len(), 1);
    assert!(syn[0].d.output("RTO") >= 3 * SEC);
}

#[test]
fn idle_policies_explain_their_decays() {
    let sim = explained(&scenario("cwv-quiescent-100ms-fine", &[]));
    for e in of(&sim, Rule::CwvIdle) {
        // ssthresh keeps ¾ of cwnd; cwnd at least halved once, never below one segment.
        let (c, s) = (e.d.input("cwnd"), e.d.input("ssthresh"));
        assert!(e.d.output("ssthresh") >= s.max(3 * (c / 4)) - 100);
        assert!(e.d.output("cwnd") <= c / 2 + 100 && e.d.input("idle") >= e.d.input("RTO"));
    }
    assert!(!of(&sim, Rule::CwvIdle).is_empty());
    let sim = explained(&scenario("cwv-underutilized-100ms-q", &[]));
    let app = of(&sim, Rule::CwvAppLimited);
    assert!(!app.is_empty());
    for e in app {
        let want = ((e.d.input("cwnd") + e.d.input("W_used")) / 2).min(e.d.input("cwnd"));
        // Segment units: whole packets.
        assert!(
            e.d.output("cwnd") <= want && want - e.d.output("cwnd") < 100,
            "{}",
            e.d.text()
        );
    }
    let sim = explained(&scenario("cwv-quiescent-100ms", &[]));
    for e in of(&sim, Rule::Restart) {
        assert!(e.d.input("idle") > e.d.input("RTO"));
        assert_eq!(e.d.output("cwnd"), e.d.input("cwnd").min(e.d.input("IW")));
    }
}

#[test]
fn new_cwv_enters_and_leaves_the_non_validated_phase_by_pipeack() {
    let (_, s) = extra_scenarios().into_iter().find(|(n, _)| *n == "new cwv").unwrap();
    let sim = explained(&s);
    let enter = of(&sim, Rule::NvpEnter);
    assert!(!enter.is_empty());
    for e in enter {
        assert!(2 * e.d.input("pipeACK") < e.d.input("cwnd"), "{}", e.d.text());
    }
    for e in of(&sim, Rule::NvpExit) {
        let p = e.d.input("pipeACK");
        assert!(p == u64::MAX || 2 * p >= e.d.input("cwnd"), "{}", e.d.text());
    }
}

#[test]
fn receivers_and_senders_hold_data_and_acks_by_their_rules() {
    let sim = explained(&scenario("thin-50b-10ms", &[("duration", "5")]));
    for e in of(&sim, Rule::DelAckHold) {
        assert!(e.d.input("unacknowledged") < 2 * e.d.input("SMSS"));
        assert_eq!(e.d.from, 255, "a receiver's decision has no phase");
    }
    let timer = of(&sim, Rule::DelAckTimer);
    assert!(!timer.is_empty());
    assert_eq!(
        timer[0].d.input("timeout"),
        sim.scenario().flows[0]
            .receiver
            .delack_timeout
            .mul_add(1e9, 0.0)
            .round() as u64
    );
    let (_, s) = extra_scenarios().into_iter().find(|(n, _)| *n == "nagle").unwrap();
    let sim = explained(&s);
    let nagle = of(&sim, Rule::Nagle);
    assert!(!nagle.is_empty());
    for e in nagle {
        assert!(e.d.input("length") < e.d.input("SMSS") && e.d.input("unacknowledged") > 0);
    }
    let (_, s) = extra_scenarios()
        .into_iter()
        .find(|(n, _)| *n == "limited transmit")
        .unwrap();
    let sim = explained(&s);
    let lt = of(&sim, Rule::LimitedTransmit);
    assert!(!lt.is_empty());
    for e in lt {
        assert!((1..=2).contains(&e.d.input("dupacks")), "{}", e.d.text());
    }
}

#[test]
fn gates_explain_refused_growth() {
    let sim = explained(&scenario("cwv-quiescent-100ms-fine", &[]));
    let g = of(&sim, Rule::GateWindowFull);
    assert!(!g.is_empty());
    for e in g {
        // Not full: more than one SMSS of min(cwnd, rwnd) unused (one_mss slack).
        assert!(e.d.input("window") - e.d.input("flight") >= e.d.input("SMSS") || e.d.input("slack one_mss") == 0);
    }
}

#[test]
fn the_first_divergence_of_reno_and_newreno_is_the_partial_ack() {
    let reno = scenario("fall-floyd-reno-3drops", &[]);
    let newreno = scenario("fall-floyd-reno-3drops", &[("flows[0].variant", "newreno")]);
    let d = first_divergence(&reno, &newreno).expect("they differ");
    assert_eq!(d.t, 2_281_080_448);
    assert_eq!(d.a[0].d.rule, Rule::RenoExit);
    assert_eq!(d.b[0].d.rule, Rule::PartialReset);
    assert_eq!(d.a[0].d.input("ack"), 25_000);
    // Everything before it is shared: the same fast retransmit and inflation.
    assert!(d.common > 10);
    assert!(first_divergence(&reno, &reno).is_none());
    // Tahoe parts from Reno at the fast retransmit itself.
    let tahoe = scenario("fall-floyd-reno-3drops", &[("flows[0].variant", "tahoe")]);
    let d = first_divergence(&reno, &tahoe).unwrap();
    assert_eq!(
        (d.a[0].d.rule, d.b[0].d.rule),
        (Rule::FastRetransmit, Rule::FastRetransmitTahoe)
    );
    assert_eq!(d.t, 2_069_200_360);
}

#[test]
fn entries_are_json_with_rule_source_inputs_outputs_and_text() {
    let sim = explained(&scenario("fall-floyd-reno-3drops", &[]));
    let e = of(&sim, Rule::FastRetransmit)[0];
    let v = e.to_json();
    assert_eq!(v["rule"], json!("loss.fast_retransmit"));
    assert_eq!(v["kind"], json!("loss"));
    assert_eq!(v["t"], json!(2.06920036));
    assert_eq!(
        v["inputs"][1],
        json!({"name": "segment", "unit": "segment", "value": 14, "text": "14"})
    );
    assert_eq!(v["outputs"][0]["value"], json!(7000));
    assert!(v["source"].as_str().unwrap().contains("RFC 5681"));
    assert_eq!(v["text"], json!(e.d.text()));
    assert!(Kind::ALL.iter().any(|k| k.name() == v["kind"]));
}

#[test]
fn lesson_steps_lead_to_decisions_the_runs_make() {
    use std::collections::BTreeMap;
    // Per step label and family: whether some preset's run reaches it.
    // A family's presets share one step list: its address names the family.
    let mut reached: BTreeMap<(usize, &str), bool> = BTreeMap::new();
    for p in presets::all() {
        // The runs the page makes of it: the preset, and each algorithm its lesson compares
        // on the same scenario (the page offers a step when any run reaches it).
        let compared = p.lesson.as_ref().map(|l| l.compare.clone()).unwrap_or_default();
        let mut rules: BTreeSet<&str> = BTreeSet::new();
        for alg in std::iter::once(None).chain(compared.iter().map(Some)) {
            let mut o = p.overrides.clone();
            if let Some(alg) = alg {
                o["flows"][0]["algorithm"] = serde_json::json!(alg);
            }
            let sim = explained(&Scenario::from_value(&o).unwrap());
            rules.extend(sim.decisions().iter().map(|e| e.d.info().id));
        }
        let family = p.steps.as_ptr() as usize;
        let mut offered = 0;
        for step in p.steps {
            for r in step.rules {
                assert!(
                    Rule::parse(r).is_some(),
                    "{}: step {:?} names unknown rule {r}",
                    p.name,
                    step.label
                );
            }
            let here = step.rules.iter().any(|r| rules.contains(r));
            offered += here as usize;
            *reached.entry((family, step.label)).or_default() |= here;
        }
        if p.lesson.is_some() || p.name.starts_with("fall-floyd") {
            assert!(offered > 0, "{}: no step of its lesson is reached by its run", p.name);
        }
    }
    let dead: Vec<_> = reached.iter().filter(|(_, &r)| !r).map(|(k, _)| k).collect();
    assert!(dead.is_empty(), "steps no preset of their family reaches: {dead:?}");
}

#[test]
fn a_flows_heads_are_its_decisions_in_order_from_any_start() {
    // A competition (two flows) and a comparison preset: heads_of(flow, from) is exactly the
    // decisions of that flow from `from` on, with their time, rule and phases, and every
    // decision of the run belongs to one flow's heads.
    for name in ["jacobson-four-new", "fall-floyd-reno-3drops"] {
        let s = presets::find(name).expect(name).scenario().unwrap();
        let sim = explained(&s);
        let d = sim.decisions();
        let all: Vec<Entry> = d.iter().collect();
        let flows = s.flows.len() as u32;
        let mut seen = 0;
        for flow in 0..flows {
            for from in [0, 1, all.len() / 3, all.len() / 2 + 7, all.len()] {
                let heads: Vec<_> = d.heads_of(flow, from).collect();
                let want: Vec<_> = (from..all.len()).filter(|&i| all[i].flow == flow).collect();
                assert_eq!(
                    heads.iter().map(|h| h.0).collect::<Vec<_>>(),
                    want,
                    "{name} flow {flow} from {from}"
                );
                for &(i, t, rule, a, b) in &heads {
                    assert_eq!((t, rule, a, b), (all[i].t, all[i].d.rule, all[i].d.from, all[i].d.to));
                }
                if from == 0 {
                    seen += heads.len();
                }
            }
        }
        assert_eq!(seen, all.len(), "{name}");
        assert!(all.len() > 50, "{name} has decisions");
    }
}

#[test]
fn every_state_change_takes_a_transition_of_the_machine() {
    // Each decision that changes the phase is a transition of the flow's machine from the
    // phase before (what the page highlights), in every preset.
    use cwndlab_core::machine::machine;
    for p in presets::all() {
        let s = p.scenario().unwrap();
        let sim = explained(&s);
        for e in sim.decisions().iter() {
            if e.d.from == e.d.to || e.d.from == 255 {
                continue;
            }
            let f = &s.flows[e.flow as usize];
            let m = machine(f.variant, &f.cc);
            let tr = m.transition_of(e.d.rule, e.d.from, e.d.to);
            assert!(
                tr.is_some(),
                "{}: {} from {} to {} has no transition",
                p.name,
                e.d.rule.info().id,
                e.d.from,
                e.d.to
            );
        }
    }
}
