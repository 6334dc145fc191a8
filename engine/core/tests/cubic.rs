//! CUBIC (RFC 9438) in whole runs, its numbers pinned: on Fall & Floyd's one-drop path the
//! fast retransmit sets ssthresh = 0.7 of the flight and W_max = the window before it; the
//! first ACK in congestion avoidance starts an epoch with K = ∛((W_max − cwnd)/C); every
//! increase moves cwnd toward W_cubic(t + RTT) by the RFC's step, checked against the same
//! formula in floating point; the window regains W_max about K after the epoch began; fast
//! convergence lowers W_max on a second loss; a timeout makes the next epoch start at K = 0.

mod common;

use common::{run, scenario, scenario_from};
use cwndlab_core::explain::{view, Entry, Rule};
use cwndlab_core::scenario::Scenario;
use cwndlab_core::sim::Simulation;

fn explained(s: &Scenario) -> Vec<Entry> {
    let mut sim = Simulation::new(s).explained();
    sim.run_to_end();
    sim.decisions().iter().collect()
}

fn of(list: &[Entry], rule: Rule) -> Vec<&Entry> {
    list.iter().filter(|e| e.d.rule == rule).collect()
}

/// W_cubic(t) in floating point (bytes, t and K in seconds).
fn w(t: f64, k: f64, w_max: f64, smss: f64) -> f64 {
    0.4 * smss * (t - k).powi(3) + w_max
}

#[test]
fn one_drop_ssthresh_epoch_k_and_every_increase_follow_the_rfc() {
    let s = scenario("fall-floyd-newreno-1drops", &[("flows[0].algorithm", "cubic")]);
    let smss = s.flows[0].tcp.mss as f64;
    let all = explained(&s);
    // The loss: ssthresh = max(⌊FlightSize·0.7⌋, 2) in whole segments (the preset counts
    // cwnd in segments), W_max = cwnd before the reduction.
    // The first reduction is the scripted drop's (queue losses follow later: CUBIC fills
    // the 8-packet queue).
    let loss = of(&all, Rule::SsthreshCubic);
    let (li, lo) = view::SsthreshCubic::of(&loss[0].d);
    assert!((loss[0].t as f64 / 1e9 - 2.0692).abs() < 1e-4);
    let flight = li.flight_size;
    assert_eq!(lo.ssthresh, (flight * 7 / 10 / 1000).max(2) * 1000);
    assert_eq!(lo.w_max, li.cwnd);
    assert_eq!(li.beta, 700);
    // The epoch: at the first ACK in congestion avoidance after recovery, from cwnd = ssthresh.
    let epochs = of(&all, Rule::CubicEpoch);
    let e = epochs[0];
    let (ei, eo) = view::CubicEpoch::of(&e.d);
    assert!(e.t > loss[0].t && e.t < loss[1].t);
    assert_eq!(ei.cwnd, lo.ssthresh, "NewReno's full ACK leaves cwnd = ssthresh");
    let (w_max, cw0) = (eo.w_max as f64, ei.cwnd as f64);
    let k = ((w_max - cw0) / smss / 0.4).cbrt();
    let k_engine = eo.k as f64 / 1e9;
    assert!((k - k_engine).abs() < 2e-6, "K = {k} s, engine {k_engine} s");
    assert_eq!(eo.w_est, ei.cwnd);
    // Every increase of that epoch: W_cubic at t + RTT and the step, recomputed.
    let incs: Vec<_> = of(&all, Rule::CaCubic)
        .into_iter()
        .filter(|x| x.t >= e.t && x.t < loss[1].t)
        .collect();
    assert!(incs.len() > 20);
    for x in &incs {
        let (di, dout) = view::CaCubic::of(&x.d);
        let (t, rtt) = (di.t as f64 / 1e9, di.rtt as f64 / 1e9);
        let ahead = w(t + rtt, k_engine, w_max, smss);
        assert!(
            (di.w_cubic_t_rtt as f64 - ahead).abs() <= 1.0,
            "{} vs {ahead}",
            di.w_cubic_t_rtt
        );
        let cw = di.cwnd as f64;
        let region = dout.region;
        if region == 2 {
            assert_eq!(dout.cwnd, di.w_est.max(di.cwnd));
            assert!(di.w_cubic_t < di.w_est);
        } else {
            // The step, with the fractions of earlier steps carried: ⌊x⌋ or ⌊x⌋ + 1.
            let target = (di.w_cubic_t_rtt as f64).clamp(cw, cw * 1.5).floor();
            let step = ((target - cw) * di.acked as f64 / cw).floor();
            let got = dout.cwnd as f64 - cw;
            assert!(
                got == step || got == step + 1.0,
                "at t = {t}: step {got}, formula {step}"
            );
            assert_eq!(region, if cw < w_max { 0 } else { 1 });
        }
    }
    // The window regains W_max about K after the epoch began (it aims one RTT ahead).
    let back = incs
        .iter()
        .find(|x| view::CaCubic::of(&x.d).1.cwnd as f64 >= w_max)
        .expect("regains W_max");
    let after = (back.t - e.t) as f64 / 1e9;
    let rtt = view::CaCubic::of(&back.d).0.rtt as f64 / 1e9;
    assert!(
        after > k_engine - 2.0 * rtt && after < k_engine + rtt,
        "{after} s vs K = {k_engine} s"
    );
}

#[test]
fn each_reduction_remembers_w_max_with_fast_convergence_when_the_window_fell_short() {
    // The netsim path with CUBIC: many losses, some before the window regains W_max.
    let s = scenario("netsim-newreno", &[("flows[0].algorithm", "cubic"), ("duration", "60")]);
    let check = |s: &Scenario, fast: bool| {
        let all = explained(s);
        let loss = of(&all, Rule::SsthreshCubic);
        assert!(loss.len() > 10);
        let mut short = 0;
        for pair in loss.windows(2) {
            let (_, a) = view::SsthreshCubic::of(&pair[0].d);
            let (bi, bo) = view::SsthreshCubic::of(&pair[1].d);
            assert_eq!(bi.w_max_before, a.w_max);
            let (cw, before) = (bi.cwnd, bi.w_max_before);
            if fast && cw < before {
                short += 1;
                // W_max = cwnd·(1 + 0.7)/2 = 0.85·cwnd.
                assert_eq!(bo.w_max, cw * 1700 / 2000);
            } else {
                assert_eq!(bo.w_max, cw);
            }
            // ssthresh = ⌊FlightSize·0.7⌋, at least 2 segments (bytes here).
            assert_eq!(bo.ssthresh, (bi.flight_size * 7 / 10).max(2 * 1460));
        }
        short
    };
    assert!(check(&s, true) > 0, "some loss came before W_max was regained");
    let mut t = s.clone();
    t.flows[0].cc.cubic_fast_convergence = false;
    check(&t, false);
}

#[test]
fn after_a_timeout_the_next_epoch_starts_at_k_zero_from_the_window_it_finds() {
    // The fast retransmission of segment 14 is lost too: only the timer repairs it.
    let s = scenario(
        "fall-floyd-newreno-1drops",
        &[
            ("flows[0].algorithm", "cubic"),
            ("flows[0].drops", r#"[{"segment": 14}, {"segment": 14, "attempt": 2}]"#),
        ],
    );
    let all = explained(&s);
    let timeout = all.iter().find(|e| e.d.rule == Rule::Timeout).expect("a timeout");
    let epoch = all
        .iter()
        .find(|e| e.d.rule == Rule::CubicEpoch && e.t > timeout.t)
        .expect("an epoch after it");
    let (ei, eo) = view::CubicEpoch::of(&epoch.d);
    assert_eq!(eo.k, 0);
    assert_eq!(eo.w_max, ei.cwnd);
    // The ssthresh the timeout set is CUBIC's: 0.7 of the flight.
    let cut = all
        .iter()
        .rev()
        .find(|e| e.d.rule == Rule::SsthreshCubic && e.t <= timeout.t)
        .unwrap();
    assert_eq!(cut.t, timeout.t);
}

/// docs/algorithms.md, "What the RFC's flight_size does on a small path": on the default
/// path a timeout after a long NewReno recovery takes 0.7 of a flight that the recovery's
/// new data swelled, so every slow start overshoots again and the run never reaches
/// congestion avoidance; ssthresh from cwnd (Linux, ns-3) breaks the cycle.
#[test]
fn on_the_default_path_ssthresh_from_the_flight_keeps_cubic_out_of_congestion_avoidance() {
    let default_path = |sets: &[(&str, &str)]| {
        let mut all = vec![("flows[0].algorithm", "cubic"), ("duration", "30")];
        all.extend_from_slice(sets);
        scenario_from(serde_json::json!({}), &all)
    };
    let s = default_path(&[]);
    let all = explained(&s);
    let timeouts = of(&all, Rule::Timeout);
    assert_eq!(timeouts.len(), 14);
    assert_eq!(timeouts[0].t, 1_883_625_600);
    let cut = |list: &[Entry], rule: Rule, t: u64| -> Entry {
        list.iter()
            .find(|e| e.d.rule == rule && e.t == t)
            .cloned()
            .expect("the timeout's ssthresh")
    };
    let (ci, co) = view::SsthreshCubic::of(&cut(&all, Rule::SsthreshCubic, timeouts[0].t).d);
    assert_eq!((ci.flight_size, co.ssthresh), (332_880, 233_016));
    // Never in congestion avoidance: no cubic increase at all, so C changes nothing.
    assert!(of(&all, Rule::CaCubic).is_empty());
    let digest = run(&s).digest();
    for c in ["0.2", "1", "4"] {
        assert_eq!(
            run(&default_path(&[("flows[0].cc.cubic_c", c)])).digest(),
            digest,
            "C = {c}"
        );
    }
    // From cwnd: the same first timeout, ssthresh 0.7 of the recovery's 48-segment window.
    let linux = explained(&default_path(&[("flows[0].cc.cubic_ssthresh_from", "cwnd")]));
    let timeouts = of(&linux, Rule::Timeout);
    assert_eq!(timeouts.len(), 2);
    assert_eq!(timeouts[0].t, 1_883_625_600);
    let (ci, co) = view::SsthreshCubicCwnd::of(&cut(&linux, Rule::SsthreshCubicCwnd, timeouts[0].t).d);
    assert_eq!((ci.cwnd, co.ssthresh), (70_518, 49_362));
    assert!(!of(&linux, Rule::CaCubic).is_empty());
}

#[test]
fn the_linux_like_profile_cuts_from_cwnd_reads_a_min_rtt_ahead_and_grows_five_percent_before_a_loss() {
    let s = scenario("cubic-long-fat-path", &[("flows[0].algorithm", "cubic_linux")]);
    let all = explained(&s);
    // The first epoch, with no W_max known: every step at least (cwnd/20)·acked/cwnd, give
    // or take the carried byte; the look-ahead is the smallest RTT sample so far.
    let first = of(&all, Rule::CubicEpoch)[0];
    assert_eq!(view::CubicEpoch::of(&first.d).0.w_max_before, 0);
    let cut = of(&all, Rule::SsthreshCubicCwnd)[0];
    let mut min_rtt = u64::MAX;
    let mut steps = 0;
    for e in &all {
        // Data segments' samples (the SYN's is not one CUBIC reads).
        let (segment, r) = match e.d.rule {
            Rule::RttFirst => (view::RttFirst::of(&e.d).0.segment, view::RttFirst::of(&e.d).0.r),
            Rule::RttUpdate => (view::RttUpdate::of(&e.d).0.segment, view::RttUpdate::of(&e.d).0.r),
            _ => (0, 0),
        };
        if segment != 0 {
            min_rtt = min_rtt.min(r);
        }
        if e.d.rule != Rule::CaCubic || e.t < first.t || e.t >= cut.t {
            continue;
        }
        let (di, dout) = view::CaCubic::of(&e.d);
        let (cw, acked) = (di.cwnd as u128, di.acked as u128);
        let floor = (cw / 20) * acked / cw;
        assert!(
            dout.cwnd as u128 + 1 >= cw + floor,
            "at {}: {} < {} + {floor}",
            e.t,
            dout.cwnd,
            cw
        );
        // RTT samples are µs-exact here; the look-ahead is the minimum, in µs.
        assert_eq!(di.rtt / 1000, min_rtt / 1000, "at {}", e.t);
        steps += 1;
    }
    assert!(steps > 1000);
    // The reduction: ssthresh = ⌊cwnd·0.700⌋ (β = 0.7002, used to three decimals), W_max =
    // cwnd.
    let (ci, co) = view::SsthreshCubicCwnd::of(&cut.d);
    assert_eq!(co.ssthresh, ci.cwnd * 700 / 1000);
    assert_eq!(co.w_max, ci.cwnd);
    // With no growth floor the RFC's CUBIC never gets there before the scripted drop.
    let rfc = explained(&scenario("cubic-long-fat-path", &[("flows[0].algorithm", "cubic")]));
    let rfc_cut = of(&rfc, Rule::SsthreshCubic)[0];
    assert!(view::SsthreshCubic::of(&rfc_cut.d).0.cwnd < ci.cwnd);
}

#[test]
fn hystart_pp_turns_conservative_when_the_round_minimum_rises_and_ends_slow_start_after_five_rounds() {
    use cwndlab_core::tcp::cc::hystart::{rtt_thresh, CSS_ROUNDS};
    let s = scenario(
        "cubic-bufferbloat",
        &[
            ("flows[0].algorithm", "cubic"),
            ("flows[0].cc.slow_start", "hystart_pp"),
        ],
    );
    let all = explained(&s);
    let enter = *of(&all, Rule::HystartCssEnter)[0];
    let exit = *of(&all, Rule::HystartExit)[0];
    // RFC 9406 §4.2: the threshold and the test, on the run's numbers.
    let (ni, _) = view::HystartCssEnter::of(&enter.d);
    let (xi, xo) = view::HystartExit::of(&exit.d);
    let (last, cur, thresh) = (ni.last_round_min_rtt, ni.current_round_min_rtt, ni.rtt_thresh);
    assert_eq!(thresh, rtt_thresh(last));
    assert!(cur >= last + thresh);
    assert!(exit.t > enter.t);
    assert_eq!(xi.css_rounds, CSS_ROUNDS as u64);
    assert_eq!(xo.ssthresh, xi.cwnd);
    // Between them every increase is a quarter of min(acked, 8·SMSS); before, the whole of it.
    for e in of(&all, Rule::SsHystart) {
        let (di, dout) = view::SsHystart::of(&e.d);
        let full = di.acked.min(8 * di.smss);
        let grown = dout.cwnd - di.cwnd;
        if e.t > enter.t && e.t < exit.t {
            assert_eq!((di.css, grown), (1, full / 4), "at {}", e.t);
        } else if e.t < enter.t {
            assert_eq!((di.css, grown), (0, full), "at {}", e.t);
        }
    }
    assert!(
        of(&all, Rule::SsHystart).iter().all(|e| e.t < exit.t),
        "no HyStart++ after it ended"
    );
    // It spares the buffer slow start's overshoot: the first loss comes later (CUBIC fills
    // the buffer in the end anyway) and fewer packets are lost.
    let plain_all = explained(&scenario("cubic-bufferbloat", &[("flows[0].algorithm", "cubic")]));
    let first_loss = |list: &[Entry]| of(list, Rule::SsthreshCubic)[0].t;
    assert!(first_loss(&all) > first_loss(&plain_all) + 1_000_000_000);
    let drops = |s: &Scenario| {
        let mut sim = Simulation::new(s);
        sim.run_to_end();
        sim.summary().flows[0].drops.queue
    };
    let plain = scenario("cubic-bufferbloat", &[("flows[0].algorithm", "cubic")]);
    assert!(drops(&s) < drops(&plain), "{} vs {}", drops(&s), drops(&plain));
}
