//! Property tests over random valid scenarios: invariants every run must keep, determinism,
//! and independence from how a run is sliced into `advance`/`step` calls.

mod common;

use cwndlab_core::invariants;
use cwndlab_core::scenario::Scenario;
use cwndlab_core::sim::Simulation;
use proptest::prelude::*;
use serde_json::{json, Value};

fn pick<T: Clone + std::fmt::Debug + 'static>(xs: &'static [T]) -> impl Strategy<Value = T> {
    (0..xs.len()).prop_map(move |i| xs[i].clone())
}

prop_compose! {
    fn flow()(
        variant in pick(&["old_tahoe", "tahoe", "reno", "newreno", "br_tcp"]),
        reserved in 100_000u64..10_000_000,
        br_rtt in pick(&["min_rtt", "srtt"]),
        br_size in pick(&["wire", "mss"]),
        br_rec in pick(&["set_cwnd", "newreno"]),
        units in pick(&["bytes", "segments"]),
        ss in pick(&["ack_counting", "abc", "linux", "none", "hystart_pp"]),
        ca in pick(&["per_ack", "byte_counting", "linux_counter", "cubic"]),
        cubic_fc in any::<bool>(), cubic_rf in any::<bool>(),
        cubic_beta in pick(&[0.5, 0.7, 0.7002]), cubic_c in pick(&[0.1, 0.4, 2.0]),
        cubic_from in pick(&["flight", "cwnd"]), cubic_rtt in pick(&["srtt", "min_rtt"]),
        cubic_growth in pick(&["rfc", "linux"]),
        headers in any::<bool>(),
        binomial in any::<bool>(), bk in -2i32..5, bl in 0i32..3,
        rule in pick(&["half_flight", "half_cwnd", "none", "cubic"]),
        lt in any::<bool>(), guard in any::<bool>(), restart in any::<bool>(),
        nr_timer in pick(&["first_partial", "every_partial"]),
        nr_full in pick(&["min_flight", "ssthresh"]),
        nr_win in pick(&["deflate", "reset"]),
        rep in pick(&["hold", "halve_again"]),
        est in pick(&["rfc6298", "jacobson88", "rfc793"]),
        tick in pick(&[0.001, 0.01, 0.1, 0.5]),
        min_rto in pick(&[0.2, 1.0]),
        mss in 100u64..1461, iw in 1u64..11, syn in any::<bool>(), nagle in any::<bool>(),
        delack in any::<bool>(),
        app in pick(&["bulk", "bulk_finite", "cbr", "thin", "on_off", "poisson", "transfers", "transfers_listed"]),
        idle in pick(&["none", "restart", "rfc2861", "rfc7661"]),
        gate in pick(&["always", "window_full", "linux_3_15", "linux_3_16"]),
        slack in pick(&["one_mss", "none"]),
        nvp_limit in pick(&[0.5, 2.0, 300.0]),
        algorithm in pick(&["", "bbr", "cubic", "cubic_linux", "newreno_cwv", "newreno_newcwv", "newreno_restart", "linux_3_15", "linux_3_18", "freebsd_10", "bsd_4_3", "bsd_4_3_ss", "bsd_4_3_ca", "jacobson_88", "newreno_sack", "newreno_sack_prr", "newreno_rack_tlp", "cubic_linux_today"]),
        write_size in 10u64..3000, write_ms in 1u64..50,
        drops in prop::collection::vec((1u64..60, 1u64..3), 0..4),
        start_ms in 0u64..300,
        bbr in pick(&[false, false, true]),
        sack in any::<bool>(), sack_blocks in 1u64..5, dsack in any::<bool>(),
        budget in pick(&["rfc6675", "prr_ssrb", "prr_crb", "prr_rfc9937"]),
        rack in any::<bool>(), tlp in any::<bool>(), er in any::<bool>(),
        ecn in pick(&["off", "off", "rfc3168", "dctcp"]), g_shift in 0u64..11,
    ) -> Value {
        let (kind, bytes) = match app { "bulk_finite" => ("bulk", 50_000), "transfers_listed" => ("transfers", 0), k => (k, 0) };
        // Short transfers: listed (two due at once, so that one waits), or drawn (Poisson
        // arrivals of 10 write sizes).
        let writes = if app == "transfers_listed" {
            json!([{"at": 0.05, "bytes": 20_000}, {"at": 0.4, "bytes": 5_000}, {"at": 0.4, "bytes": write_size}])
        } else {
            json!([])
        };
        let write_size = if app == "transfers" { 10 * write_size } else { write_size };
        let drops: Vec<Value> = drops.iter().map(|(s, a)| json!({"segment": s, "attempt": a})).collect();
        // New CWV has its own growth rule: the window-full gate is refused with it.
        let gate = if idle == "rfc7661" { "always" } else { gate };
        let mut f = json!({
            "variant": variant, "start": start_ms as f64 / 1000.0, "reserved_bandwidth": reserved,
            "tcp": {"mss": mss, "initial_window": iw, "syn": syn, "nagle": nagle, "rwnd": 64 * 1460},
            "cc": {"units": units, "slow_start": ss, "congestion_avoidance": ca, "ssthresh_rule": rule,
                   "limited_transmit": lt, "recover_guard": guard, "fast_retransmit_restarts_timer": restart,
                   "newreno_timer": nr_timer, "newreno_full_ack": nr_full, "newreno_partial_window": nr_win,
                   "repeated_rto_ssthresh": rep, "idle_policy": idle, "growth_gate": gate,
                   "full_window_slack": slack, "nvp_limit": nvp_limit, "header_in_window": headers,
                   "binomial": binomial, "binomial_k": bk as f64 / 2.0, "binomial_l": bl as f64 / 2.0,
                   "br_rtt": br_rtt, "br_packet_size": br_size, "br_recovery": br_rec,
                   "cubic_c": cubic_c, "cubic_beta": cubic_beta, "cubic_fast_convergence": cubic_fc,
                   "cubic_reno_friendly": cubic_rf, "cubic_ssthresh_from": cubic_from,
                   "cubic_rtt": cubic_rtt, "cubic_growth": cubic_growth},
            "rto": {"estimator": est, "clock_tick": tick, "min": min_rto},
            "receiver": {"delayed_ack": delack},
            "app": {"kind": kind, "bytes": bytes, "write_size": write_size,
                    "write_interval": write_ms as f64 / 1000.0, "on": 0.3, "off": 0.2, "writes": writes},
            "drops": drops,
        });
        // BBR (the controller) with the settings it accepts.
        if bbr && algorithm.is_empty() {
            f["variant"] = json!("newreno");
            f["cc"]["controller"] = json!("bbr");
            f["cc"]["idle_policy"] = json!("none");
            f["cc"]["binomial"] = json!(false);
        }
        // SACK and its detectors, on the variants and controllers it combines with (the
        // scenario check refuses the others).
        if sack && algorithm.is_empty() && (bbr || !matches!(variant, "tahoe" | "old_tahoe")) {
            // BBR sets its own window in recovery: RFC 6675's budget only.
            let budget = if bbr { "rfc6675" } else { budget };
            f["sack"] = json!({"enabled": true, "blocks": sack_blocks, "dsack": dsack, "budget": budget,
                               "rack": rack, "tlp": tlp, "early_retransmit": er});
        }
        // ECN on any flow; DCTCP's cut is refused beside BBR's window.
        let ecn = if ecn == "dctcp" && (bbr || algorithm == "bbr") { "rfc3168" } else { ecn };
        f["ecn"] = json!(ecn);
        f["dctcp"] = json!({"g_shift": g_shift});
        // A named algorithm sets its axes first; the explicit keys above then override
        // them, except the ones it names (left to the entry).
        if !algorithm.is_empty() {
            f["algorithm"] = json!(algorithm);
            let cc = f["cc"].as_object_mut().unwrap();
            cc.remove("idle_policy");
            cc.remove("growth_gate");
            f.as_object_mut().unwrap().remove("variant");
            if algorithm == "bbr" {
                f["cc"]["binomial"] = json!(false);
            }
        }
        f
    }
}

prop_compose! {
    fn cross_source()(
        kind in pick(&["cbr", "poisson", "on_off", "ping"]),
        rate in 50_000u64..10_000_000,
        size in pick(&[64u64, 576, 1500]),
        start_ms in 0u64..800,
        stop_ms in pick(&[0u64, 900, 2500]),
        on_ms in 10u64..400, off_ms in 0u64..400,
        reverse in any::<bool>(),
    ) -> Value {
        let stop = if stop_ms > start_ms { stop_ms as f64 / 1000.0 } else { 0.0 };
        json!({"kind": kind, "rate": rate, "packet_size": size, "start": start_ms as f64 / 1000.0,
               "stop": stop, "on": on_ms as f64 / 1000.0, "off": off_ms as f64 / 1000.0,
               "reverse": reverse, "interval": on_ms as f64 / 10_000.0})
    }
}

prop_compose! {
    fn scenario()(
        seed in 0u64..1_000_000,
        duration in 1u64..4,
        bw in 200_000u64..8_000_000,
        delay_ms in 0u64..60,
        variation in pick(&[0.0, 0.0, 0.0005, 0.005, 0.03]),
        queue in 2u64..60,
        queue_bytes in pick(&[0u64, 20_000]),
        loss in pick(&["none", "ber", "bernoulli"]),
        p in 0.0f64..0.05, ber in 0.0f64..2e-5,
        rloss in 0.0f64..0.02,
        events in pick(&["all", "sender", "congestion"]),
        flows in prop::collection::vec(flow(), 1..3),
        change in any::<bool>(),
        scheduler in pick(&["fifo", "reservation"]),
        borrow in any::<bool>(),
        cross in prop::collection::vec(cross_source(), 0..3),
        bin in pick(&[0.001, 0.01, 0.25]),
        qdisc in pick(&["droptail", "droptail", "red", "codel", "fq_codel", "pie", "step"]),
        reverse_qdisc in pick(&["droptail", "droptail", "red", "codel", "fq_codel", "pie"]),
        red in (1u64..10, any::<bool>(), any::<bool>(), pick(&[0.02, 0.1, 0.5])),
        codel in (pick(&[0.001, 0.005, 0.02]), pick(&[0.02, 0.1])),
        fq in (pick(&[1u64, 4, 1024]), pick(&[300u64, 1514]), pick(&[1u64, 64]), pick(&[5u64, 10_240])),
        pie in (pick(&[0.002, 0.015]), pick(&[0.001, 0.015, 0.03]), pick(&[0.0, 0.15]), pick(&[0.125, 2.0])),
        step_k in 0u64..40,
    ) -> Value {
        // A queue discipline needs the fifo scheduler.
        let (qdisc, reverse_qdisc) = if scheduler == "reservation" { ("droptail", "droptail") } else { (qdisc, reverse_qdisc) };
        // The reservation scheduler refuses reservations above the link: keep each flow's
        // to a third of it (at most two flows), and above zero for BR-TCP.
        let mut flows = flows;
        if scheduler == "reservation" {
            for f in flows.iter_mut() {
                let r = f["reserved_bandwidth"].as_u64().unwrap();
                f["reserved_bandwidth"] = json!(r.min(bw / 3).max(1));
            }
        }
        let timeline = if change {
            json!([{"at": 0.5, "set": "network.bottleneck.bandwidth", "value": bw / 2 + 1000},
                   {"at": 0.7, "set": "flows[0].app.write_interval", "value": 0.005}])
        } else { json!([]) };
        json!({
            "seed": seed, "duration": duration as f64, "trace": {"events": events, "throughput_bin": bin},
            "cross": cross,
            "network": {"bottleneck": {"bandwidth": bw, "delay": delay_ms as f64 / 1000.0, "delay_variation": variation,
                "queue_packets": queue, "queue_bytes": queue_bytes,
                "loss": {"model": loss, "probability": p, "ber": ber},
                "reverse_loss": {"model": "bernoulli", "probability": rloss},
                "scheduler": scheduler, "borrow": borrow,
                "qdisc": qdisc, "reverse_qdisc": reverse_qdisc,
                "red": {"min_th": red.0 as f64, "max_th": (3 * red.0) as f64, "gentle": red.1, "bytes": red.2, "max_p": red.3},
                "codel": {"target": codel.0, "interval": codel.1},
                "fq_codel": {"flows": fq.0, "quantum": fq.1, "drop_batch_size": fq.2, "limit": fq.3,
                    "target": codel.0, "interval": codel.1},
                "pie": {"target": pie.0, "tupdate": pie.1, "max_burst": pie.2, "alpha": pie.3, "beta": 10.0 * pie.3},
                "step": {"k": step_k}}},
            "flows": flows,
            "timeline": timeline,
        })
    }
}

/// Checks the invariants of a run (`cwndlab_core::invariants`, shared with the fuzzing
/// driver in engine/fuzz).
fn check(s: &Scenario, sim: &Simulation) -> Result<(), TestCaseError> {
    invariants::check(s, sim).map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, max_shrink_iters: 200, ..ProptestConfig::default() })]

    #[test]
    fn invariants_hold_and_runs_are_reproducible(v in scenario()) {
        let s = Scenario::from_value(&v).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let mut a = Simulation::new(&s);
        a.run_to_end();
        check(&s, &a)?;
        let mut b = Simulation::new(&s);
        b.run_to_end();
        prop_assert_eq!(a.digest(), b.digest(), "same scenario and seed, different trace");
        prop_assert_eq!(a.validation_digest(), b.validation_digest());
        prop_assert_eq!(a.recovery_digest(), b.recovery_digest());
        prop_assert_eq!(a.qdisc_digest(), b.qdisc_digest());
        // A summary-only run (the CLI without --out) hashes its rows as they go: same digest.
        let mut c = Simulation::new(&s);
        c.set_recording(cwndlab_core::sim::Recording::Summary { digest: true });
        c.run_to_end();
        prop_assert_eq!(a.digest(), c.digest(), "summary-only recording changed the digest");
        // Explaining every decision changes nothing in the run, and every change to cwnd and
        // ssthresh is explained with its before and after.
        let mut e = Simulation::new(&s).explained();
        e.run_to_end();
        prop_assert_eq!(a.digest(), e.digest(), "explanations changed the trace");
        prop_assert_eq!(
            serde_json::to_value(a.summary()).unwrap(),
            serde_json::to_value(e.summary()).unwrap()
        );
        common::check_chain("random scenario", &e);
        // Packets crossing hops without events of their own (early entry) and writes made
        // in one step before the sender's next event (held writes) change only the order
        // of events that share an instant: without such ties, the same trace and summary.
        // (A change to a link's settings also applies one hop later to packets already on
        // their way to it, so runs whose timeline changes a link are left out.)
        let mut d = Simulation::new(&s).with_every_event();
        d.run_to_end();
        check(&s, &d)?;
        prop_assert!(d.events_processed() >= a.events_processed());
        let link_change = s.timeline.iter().any(|e| !e.set.contains(".app."));
        if d.tied_events() == 0 && !link_change {
            prop_assert_eq!(a.digest(), d.digest(), "early entry or held writes changed a run without ties");
            let summary = |sim: &Simulation| {
                let mut v = serde_json::to_value(sim.summary()).unwrap();
                v.as_object_mut().unwrap().remove("events_processed");
                v
            };
            prop_assert_eq!(summary(&a), summary(&d));
        }
    }

    #[test]
    fn slicing_a_run_never_changes_its_trace(v in scenario(), cuts in prop::collection::vec((0u64..400_000_000, 0u8..4), 1..40)) {
        let s = Scenario::from_value(&v).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let mut whole = Simulation::new(&s);
        whole.run_to_end();
        let mut sliced = Simulation::new(&s);
        // Explanations on in the sliced run only: its decisions must not depend on slicing
        // (compared with an explained whole run below), nor its trace on explanations.
        sliced.set_explain(true);
        // Between slices, the invariants of a run stopped part-way, and sequence numbers
        // that only move forward.
        let mut progress = invariants::Progress::default();
        for (dt, steps) in cuts {
            sliced.advance(dt);
            for _ in 0..steps {
                sliced.step();
            }
            let _ = sliced.summary();
            sliced.run_events(7);
            progress.observe(&sliced).map_err(TestCaseError::fail)?;
            check(&s, &sliced)?;
        }
        sliced.run_to_end();
        prop_assert_eq!(whole.digest(), sliced.digest());
        prop_assert_eq!(whole.validation_digest(), sliced.validation_digest());
        prop_assert_eq!(whole.recovery_digest(), sliced.recovery_digest());
        let mut explained = Simulation::new(&s).explained();
        explained.run_to_end();
        prop_assert_eq!(explained.decisions_digest(), sliced.decisions_digest(), "slicing changed the decisions");
        prop_assert_eq!(
            serde_json::to_value(whole.summary()).unwrap(),
            serde_json::to_value(sliced.summary()).unwrap()
        );
    }
}
