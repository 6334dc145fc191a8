//! Explanations: each rule's entry holds the state before as its inputs and the state after
//! as its outputs, with the run's exact numbers; explaining changes nothing in the run; every
//! rule is explained by some run below; and the first divergence of two algorithms is where
//! the sources say they part.

mod common;

use common::{check_chain, run, scenario, scenario_from, SEC};
use cwndlab_core::divergence::first_divergence;
use cwndlab_core::explain::{view, Entry, Kind, Rule};
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
            "red",
            scenario(
                "cubic-bufferbloat",
                &[("network.bottleneck.qdisc", "red"), ("duration", "10")],
            ),
        ),
        (
            "codel",
            scenario(
                "cubic-bufferbloat",
                &[("network.bottleneck.qdisc", "codel"), ("duration", "10")],
            ),
        ),
        (
            "fq_codel",
            scenario(
                "cubic-bufferbloat",
                &[
                    ("network.bottleneck.qdisc", "fq_codel"),
                    ("network.bottleneck.fq_codel.limit", "60"),
                    ("duration", "10"),
                ],
            ),
        ),
        (
            "pie",
            scenario(
                "cubic-bufferbloat",
                &[("network.bottleneck.qdisc", "pie"), ("duration", "10")],
            ),
        ),
        (
            "red with ecn",
            scenario(
                "cubic-bufferbloat",
                &[
                    ("network.bottleneck.qdisc", "red"),
                    ("flows[0].ecn", "rfc3168"),
                    ("duration", "10"),
                ],
            ),
        ),
        (
            "codel with ecn",
            scenario(
                "cubic-bufferbloat",
                &[
                    ("network.bottleneck.qdisc", "codel"),
                    ("flows[0].ecn", "rfc3168"),
                    ("duration", "10"),
                ],
            ),
        ),
        (
            "fq_codel with ecn",
            scenario(
                "cubic-bufferbloat",
                &[
                    ("network.bottleneck.qdisc", "fq_codel"),
                    ("flows[0].ecn", "rfc3168"),
                    ("duration", "10"),
                ],
            ),
        ),
        (
            "pie with ecn",
            scenario(
                "cubic-bufferbloat",
                &[
                    ("network.bottleneck.qdisc", "pie"),
                    ("flows[0].ecn", "rfc3168"),
                    ("duration", "10"),
                ],
            ),
        ),
        (
            "dctcp on a step queue",
            scenario(
                "cubic-bufferbloat",
                &[
                    ("network.bottleneck.qdisc", "step"),
                    ("flows[0].algorithm", "dctcp"),
                    ("duration", "10"),
                ],
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
        assert_eq!(plain.recovery_digest(), why.recovery_digest(), "{}", p.name);
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
    // The textbook's round model records its own rules (not a simulation's): Kurose &
    // Ross's figure in each convention and variant.
    use cwndlab_core::textbook::{Convention, Loss, LossKind, Model, Variant};
    for (convention, variant) in [
        (Convention::KuroseRoss, Variant::Reno),
        (Convention::Rfc5681, Variant::Reno),
        (Convention::KuroseRoss, Variant::Tahoe),
    ] {
        let m = Model {
            convention,
            variant,
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
        };
        seen.extend(m.run().iter().map(|r| r.decision.rule));
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
    let (fi, fo) = view::FastRetransmit::of(&d);
    assert_eq!(fr[0].t, 2_069_200_360);
    // Segment units: ssthresh = max(⌊min(cwnd 15, rwnd 28)/2⌋, 2) = 7 segments.
    assert_eq!((fi.segment, fi.cwnd, fi.dupacks), (14, 15_000, 3));
    assert_eq!((fo.ssthresh, fo.cwnd, fo.window), (7_000, 7_000, 10_000));
    assert_eq!(
        (d.from, d.to),
        (1, 3),
        "slow start (cwnd 15 < ssthresh 28) → fast recovery"
    );
    let ss = of(&sim, Rule::SsthreshHalfCwnd);
    let (si, so) = view::SsthreshHalfCwnd::of(&ss[0].d);
    assert_eq!((ss[0].t, si.cwnd, so.ssthresh), (fr[0].t, 15_000, 7_000));
    // Nine more duplicate ACKs inflate the window one segment each: 11 … 19 segments.
    let inflate: Vec<u64> = of(&sim, Rule::Inflate)
        .iter()
        .map(|e| view::Inflate::of(&e.d).1.window / 1000)
        .collect();
    assert_eq!(inflate, (11..=19).collect::<Vec<_>>());
    let exit = of(&sim, Rule::RenoExit);
    assert_eq!(exit.len(), 1);
    let (xi, xo) = view::RenoExit::of(&exit[0].d);
    assert_eq!((xi.ack, xi.recover), (25_000, 28_000));
    assert_eq!((xo.cwnd, exit[0].d.from, exit[0].d.to), (7_000, 3, 2));
    let guard = of(&sim, Rule::FastRetransmitSuppressed);
    let (gi, _) = view::FastRetransmitSuppressed::of(&guard[0].d);
    assert_eq!((gi.ack, gi.recover), (25_000, 28_000));
    let to = of(&sim, Rule::Timeout);
    assert_eq!(to.len(), 1);
    let (ti, tout) = view::Timeout::of(&to[0].d);
    assert_eq!(to[0].t, 3_281_080_448);
    assert_eq!(
        (ti.segment, ti.cwnd, tout.cwnd, tout.ssthresh),
        (26, 7_000, 1_000, 3_000)
    );
    // The timer had doubled: RTO 1 s → 2 s.
    let b = of(&sim, Rule::Backoff);
    let (bi, bo) = view::Backoff::of(&b[0].d);
    assert_eq!((b[0].t, bi.rto, bo.rto), (to[0].t, SEC, 2 * SEC));
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
    let resent: Vec<u64> = partial
        .iter()
        .take(2)
        .map(|e| view::PartialReset::of(&e.d).0.segment)
        .collect();
    assert_eq!(resent, vec![26, 28], "the second and third drops, one per round trip");
    for p in &partial[..2] {
        let (_, po) = view::PartialReset::of(&p.d);
        // ns-2 without partial_window_deflation_: the window goes back to cwnd = 7 segments.
        assert_eq!((po.window, po.timer_restarted, p.d.from, p.d.to), (7_000, 1, 3, 3));
    }
    let full = of(&sim, Rule::FullAckSsthresh);
    let (ui, uo) = view::FullAckSsthresh::of(&full[0].d);
    assert_eq!((ui.recover, uo.cwnd), (28_000, 7_000));
    assert!(ui.ack >= 28_000);
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
        let (pi, po) = view::PartialDeflate::of(&p.d);
        let (w, acked, s) = (pi.window, pi.acked, pi.smss);
        assert_eq!(po.window, (w - acked + if acked >= s { s } else { 0 }).max(s));
    }
}

#[test]
fn tahoe_goes_back_to_one_segment_on_the_third_duplicate() {
    let sim = explained(&scenario("fall-floyd-tahoe-1drops", &[]));
    let fr = of(&sim, Rule::FastRetransmitTahoe);
    let (_, fo) = view::FastRetransmitTahoe::of(&fr[0].d);
    assert_eq!((fo.cwnd, fo.ssthresh, fr[0].d.to), (1_000, 7_000, 1));
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
    let (fi, fo) = view::RttFirst::of(&first[0].d);
    let r = fi.r;
    assert_eq!((fo.srtt, fo.rttvar), (r, r / 2));
    let mut n = 0;
    for e in of(&sim, Rule::RttUpdate) {
        let (i, o) = view::RttUpdate::of(&e.d);
        let (r, s, v, g) = (i.r, i.srtt, i.rttvar, i.g);
        let v1 = (3 * v + s.abs_diff(r)) / 4;
        let s1 = (7 * s + r) / 8;
        assert_eq!((o.srtt, o.rttvar), (s1, v1));
        let rto = (s1 + g.max(4 * v1)).clamp(i.min_rto, i.max_rto);
        assert_eq!(o.rto, rto);
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
    let (bi, bo) = view::Backoff::of(&b[0].d);
    assert_eq!((b[0].d.from, bi.rto, bo.rto), (0, 6 * SEC, 12 * SEC));
    let syn = of(&sim, Rule::SynTimeout);
    assert_eq!(syn.len(), 1);
    assert!(view::SynTimeout::of(&syn[0].d).1.rto >= 3 * SEC);
}

#[test]
fn idle_policies_explain_their_decays() {
    let sim = explained(&scenario("cwv-quiescent-100ms-fine", &[]));
    for e in of(&sim, Rule::CwvIdle) {
        let (i, o) = view::CwvIdle::of(&e.d);
        // ssthresh keeps ¾ of cwnd; cwnd at least halved once, never below one segment.
        let (c, s) = (i.cwnd, i.ssthresh);
        assert!(o.ssthresh >= s.max(3 * (c / 4)) - 100);
        assert!(o.cwnd <= c / 2 + 100 && i.idle >= i.rto);
    }
    assert!(!of(&sim, Rule::CwvIdle).is_empty());
    let sim = explained(&scenario("cwv-underutilized-100ms-q", &[]));
    let app = of(&sim, Rule::CwvAppLimited);
    assert!(!app.is_empty());
    for e in app {
        let (i, o) = view::CwvAppLimited::of(&e.d);
        let want = ((i.cwnd + i.w_used) / 2).min(i.cwnd);
        // Segment units: whole packets.
        assert!(o.cwnd <= want && want - o.cwnd < 100, "{}", e.d.text());
    }
    let sim = explained(&scenario("cwv-quiescent-100ms", &[]));
    for e in of(&sim, Rule::Restart) {
        let (i, o) = view::Restart::of(&e.d);
        assert!(i.idle > i.rto);
        assert_eq!(o.cwnd, i.cwnd.min(i.iw));
    }
}

#[test]
fn new_cwv_enters_and_leaves_the_non_validated_phase_by_pipeack() {
    let (_, s) = extra_scenarios().into_iter().find(|(n, _)| *n == "new cwv").unwrap();
    let sim = explained(&s);
    let enter = of(&sim, Rule::NvpEnter);
    assert!(!enter.is_empty());
    for e in enter {
        let (i, _) = view::NvpEnter::of(&e.d);
        assert!(2 * i.pipe_ack < i.cwnd, "{}", e.d.text());
    }
    for e in of(&sim, Rule::NvpExit) {
        let (i, _) = view::NvpExit::of(&e.d);
        let p = i.pipe_ack;
        assert!(p == u64::MAX || 2 * p >= i.cwnd, "{}", e.d.text());
    }
}

#[test]
fn receivers_and_senders_hold_data_and_acks_by_their_rules() {
    let sim = explained(&scenario("thin-50b-10ms", &[("duration", "5")]));
    for e in of(&sim, Rule::DelAckHold) {
        let (i, _) = view::DelAckHold::of(&e.d);
        assert!(i.unacknowledged < 2 * i.smss);
        assert_eq!(e.d.from, 255, "a receiver's decision has no phase");
    }
    let timer = of(&sim, Rule::DelAckTimer);
    assert!(!timer.is_empty());
    assert_eq!(
        view::DelAckTimer::of(&timer[0].d).0.timeout,
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
        let (i, _) = view::Nagle::of(&e.d);
        assert!(i.length < i.smss && i.unacknowledged > 0);
    }
    let (_, s) = extra_scenarios()
        .into_iter()
        .find(|(n, _)| *n == "limited transmit")
        .unwrap();
    let sim = explained(&s);
    let lt = of(&sim, Rule::LimitedTransmit);
    assert!(!lt.is_empty());
    for e in lt {
        let (i, _) = view::LimitedTransmit::of(&e.d);
        assert!((1..=2).contains(&i.dupacks), "{}", e.d.text());
    }
}

#[test]
fn gates_explain_refused_growth() {
    let sim = explained(&scenario("cwv-quiescent-100ms-fine", &[]));
    let g = of(&sim, Rule::GateWindowFull);
    assert!(!g.is_empty());
    for e in g {
        let (i, _) = view::GateWindowFull::of(&e.d);
        // Not full: more than one SMSS of min(cwnd, rwnd) unused (one_mss slack).
        assert!(i.window - i.flight >= i.smss || i.slack_one_mss == 0);
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
    assert_eq!(view::RenoExit::of(&d.a[0].d).0.ack, 25_000);
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
    use cwndlab_core::machine::machine_of_flow;
    for p in presets::all() {
        let s = p.scenario().unwrap();
        let sim = explained(&s);
        for e in sim.decisions().iter() {
            if e.d.from == e.d.to || e.d.from == 255 {
                continue;
            }
            let f = &s.flows[e.flow as usize];
            let m = machine_of_flow(f);
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
