//! Property tests over random valid scenarios: invariants every run must keep, determinism,
//! and independence from how a run is sliced into `advance`/`step` calls.

mod common;

use cwndlab_core::scenario::Scenario;
use cwndlab_core::sim::Simulation;
use cwndlab_core::trace::EventKind;
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
        app in pick(&["bulk", "bulk_finite", "cbr", "thin", "on_off", "poisson"]),
        idle in pick(&["none", "restart", "rfc2861", "rfc7661"]),
        gate in pick(&["always", "window_full", "linux_3_15", "linux_3_16"]),
        slack in pick(&["one_mss", "none"]),
        nvp_limit in pick(&[0.5, 2.0, 300.0]),
        algorithm in pick(&["", "bbr", "cubic", "cubic_linux", "newreno_cwv", "newreno_newcwv", "newreno_restart", "linux_3_15", "linux_3_18", "freebsd_10", "bsd_4_3", "bsd_4_3_ss", "bsd_4_3_ca", "jacobson_88"]),
        write_size in 10u64..3000, write_ms in 1u64..50,
        drops in prop::collection::vec((1u64..60, 1u64..3), 0..4),
        start_ms in 0u64..300,
        bbr in pick(&[false, false, true]),
    ) -> Value {
        let (kind, bytes) = match app { "bulk_finite" => ("bulk", 50_000), k => (k, 0) };
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
                    "write_interval": write_ms as f64 / 1000.0, "on": 0.3, "off": 0.2},
            "drops": drops,
        });
        // BBR (the controller) with the settings it accepts.
        if bbr && algorithm.is_empty() {
            f["variant"] = json!("newreno");
            f["cc"]["controller"] = json!("bbr");
            f["cc"]["idle_policy"] = json!("none");
            f["cc"]["binomial"] = json!(false);
        }
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
        kind in pick(&["cbr", "poisson", "on_off"]),
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
               "reverse": reverse})
    }
}

prop_compose! {
    fn scenario()(
        seed in 0u64..1_000_000,
        duration in 1u64..4,
        bw in 200_000u64..8_000_000,
        delay_ms in 0u64..60,
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
    ) -> Value {
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
            "network": {"bottleneck": {"bandwidth": bw, "delay": delay_ms as f64 / 1000.0,
                "queue_packets": queue, "queue_bytes": queue_bytes,
                "loss": {"model": loss, "probability": p, "ber": ber},
                "reverse_loss": {"model": "bernoulli", "probability": rloss},
                "scheduler": scheduler, "borrow": borrow}},
            "flows": flows,
            "timeline": timeline,
        })
    }
}

/// Checks the invariants of a finished run.
fn check(s: &Scenario, sim: &Simulation) -> Result<(), TestCaseError> {
    for (i, f) in s.flows.iter().enumerate() {
        let mss = f.tcp.mss;
        for &(t, r) in &sim.series(i).rows {
            prop_assert!(r.cwnd >= mss, "flow {i} t={t}: cwnd {} < 1 SMSS", r.cwnd);
            prop_assert!(r.inflated >= mss, "flow {i} t={t}: window {} < 1 SMSS", r.inflated);
            // RFC 5681 eq. (4) floors ssthresh at 2 SMSS; RFC 7661 §4.4.1 sets ssthresh = cwnd
            // after a loss in the non-validated phase, which may be one SMSS.
            let floor = if f.cc.idle_policy == cwndlab_core::scenario::IdlePolicy::Rfc7661 {
                mss
            } else {
                2 * mss
            };
            prop_assert!(
                r.ssthresh == u64::MAX || r.ssthresh >= floor,
                "flow {i} t={t}: ssthresh {}",
                r.ssthresh
            );
            prop_assert!(r.flight <= f.tcp.rwnd, "flow {i} t={t}: flight {} above rwnd", r.flight);
        }
        let (snd, rcv) = (sim.sender(i), sim.receiver(i));
        prop_assert_eq!(
            rcv.delivered,
            rcv.rcv_nxt,
            "flow {}: delivered bytes counted once each",
            i
        );
        prop_assert!(snd.snd_una <= rcv.rcv_nxt && rcv.rcv_nxt <= snd.snd_max && snd.snd_max <= snd.app_written);
    }
    // Rebuild each receiver's in-order prefix from the log (when it keeps receiver rows)
    // and check every received segment was sent with that sequence and length.
    if s.trace.events == cwndlab_core::scenario::EventFilter::All {
        for i in 0..s.flows.len() {
            let rows: Vec<_> = sim.events().rows.iter().filter(|r| r.flow as usize == i).collect();
            let sent: std::collections::BTreeSet<(u64, u32)> = rows
                .iter()
                .filter(|r| r.kind == EventKind::DataSend as u8 || r.kind == EventKind::Retransmit as u8)
                .map(|r| (r.seq, r.len))
                .collect();
            let mut got: Vec<(u64, u64)> = rows
                .iter()
                .filter(|r| r.kind == EventKind::DataReceived as u8)
                .map(|r| {
                    assert!(sent.contains(&(r.seq, r.len)), "received a segment that was never sent");
                    (r.seq, r.seq + r.len as u64)
                })
                .collect();
            got.sort_unstable();
            let mut prefix = 0;
            for (a, b) in got {
                if a <= prefix {
                    prefix = prefix.max(b);
                }
            }
            prop_assert_eq!(prefix, sim.receiver(i).rcv_nxt, "flow {}: in-order prefix", i);
        }
    }
    // Queue capacities: each bottleneck class (the whole link under FIFO) holds at most
    // queue_packets; a scheduled link's total is the sum over its classes; access links
    // their own.
    let b = &s.network.bottleneck;
    let classes = 1 + s.flows.iter().filter(|f| f.reserved_bandwidth > 0).count() as u64;
    for (name, q) in sim.queues() {
        let cap = if name.starts_with("bottleneck · ") {
            b.queue_packets
        } else if name.starts_with("bottleneck") {
            match b.scheduler {
                cwndlab_core::scenario::SchedulerKind::Fifo => b.queue_packets,
                cwndlab_core::scenario::SchedulerKind::Reservation => b.queue_packets * classes,
            }
        } else {
            let i: usize = name["flow ".len()..].split(' ').next().unwrap().parse().unwrap();
            s.flows[i].access.queue_packets
        };
        prop_assert!(q.rows.iter().all(|r| r.1 as u64 <= cap), "{} above {}", name, cap);
        prop_assert!(q.rows.windows(2).all(|w| w[0].0 <= w[1].0), "{} time order", name);
    }
    prop_assert!(
        sim.events().rows.windows(2).all(|w| w[0].t <= w[1].t),
        "event log time order"
    );
    // Window validation: a decay or restart never raises cwnd and never lowers ssthresh
    // (RFC 2861 §2, RFC 5681 §4.1, RFC 7661 §4.4.3); events only for the policy that makes them.
    for r in &sim.events().rows {
        let f = &s.flows[r.flow as usize];
        let kind = EventKind::ALL[r.kind as usize];
        use cwndlab_core::scenario::IdlePolicy as P;
        let allowed = match kind {
            EventKind::IdleDecay | EventKind::AppLimitedDecay => f.cc.idle_policy == P::Rfc2861,
            EventKind::IdleRestart => f.cc.idle_policy == P::Restart,
            EventKind::NvpEnter | EventKind::NvpExit | EventKind::NvpExpiry | EventKind::NvpLossResponse => {
                f.cc.idle_policy == P::Rfc7661
            }
            _ => continue,
        };
        prop_assert!(allowed, "{:?} under {:?}", kind, f.cc.idle_policy);
        if matches!(
            kind,
            EventKind::IdleDecay | EventKind::AppLimitedDecay | EventKind::IdleRestart | EventKind::NvpExpiry
        ) {
            prop_assert!(r.len as u64 <= r.seq, "{:?} raised cwnd {} → {}", kind, r.seq, r.len);
            prop_assert!(r.tx >= r.seg, "{:?} lowered ssthresh {} → {}", kind, r.seg, r.tx);
            prop_assert!(r.len as u64 >= f.tcp.mss.min(r.seq), "{:?} below one segment", kind);
        }
    }
    // Cross traffic: no packet is counted twice; the throughput table adds up to the
    // summary (every bin is written by the end of the run).
    let sum = sim.summary();
    let total = |class: usize, delivered: bool| -> u64 {
        sim.throughput()
            .rows
            .iter()
            .filter(|r| r.1 as usize == class)
            .map(|r| if delivered { r.3 } else { r.2 })
            .sum()
    };
    for (k, c) in sum.cross.iter().enumerate() {
        let st = c.stats;
        prop_assert!(st.delivered_packets + st.queue_drops + st.error_drops <= st.sent_packets);
        prop_assert_eq!(total(s.flows.len() + k, true), st.delivered_bytes);
        if s.cross[k].reverse {
            prop_assert_eq!(total(s.flows.len() + k, false), 0);
        }
    }
    for (i, f) in sum.flows.iter().enumerate() {
        prop_assert_eq!(total(i, true), f.delivered_bytes, "flow {} delivered", i);
    }
    // Writes: delivered in the order written, never delivered before they were sent.
    for i in 0..s.flows.len() {
        if let Some(log) = sim.writes(i) {
            prop_assert!(log.rows.iter().all(|r| r.2 <= r.3), "flow {}: sojourn above latency", i);
            prop_assert!(log.rows.windows(2).all(|w| w[0].0 <= w[1].0), "flow {}: write order", i);
            prop_assert!(log.rows.len() as u64 <= log.writes);
            prop_assert_eq!(log.latency.count(), log.rows.len() as u64);
        }
    }
    prop_assert!(sim
        .throughput()
        .rows
        .windows(2)
        .all(|w| (w[0].0, w[0].1) < (w[1].0, w[1].1)));
    for (i, f) in s.flows.iter().enumerate() {
        let has = sim.validation_series(i).is_some();
        prop_assert_eq!(has, f.cc.idle_policy != cwndlab_core::scenario::IdlePolicy::None);
        let sum = sim.summary();
        prop_assert!(sum.flows[i].max_burst_packets <= sum.flows[i].data_packets_sent);
        // Spurious retransmissions: each is a retransmission logged at or after its send,
        // counted once.
        let rows: Vec<_> = sim.events().rows.iter().filter(|r| r.flow as usize == i).collect();
        let spurious: Vec<_> = rows
            .iter()
            .filter(|r| r.kind == EventKind::SpuriousRetransmit as u8)
            .collect();
        prop_assert_eq!(spurious.len() as u64, sum.flows[i].spurious_retransmits);
        prop_assert!(sum.flows[i].spurious_retransmits <= sum.flows[i].retransmits);
        let mut seen = std::collections::HashSet::new();
        for sp in &spurious {
            prop_assert!(sp.tx >= 2 && seen.insert((sp.seg, sp.tx)), "spurious {:?}", sp);
            prop_assert!(rows
                .iter()
                .any(|r| r.kind == EventKind::Retransmit as u8 && r.seg == sp.seg && r.tx == sp.tx && r.t <= sp.t));
        }
        // RTT samples are whole clock ticks, at least one.
        let tick = (f.rto.clock_tick * 1e9).round() as u64;
        for r in rows.iter().filter(|r| r.kind == EventKind::RttSample as u8) {
            prop_assert!(r.seq >= tick && r.seq % tick == 0, "sample {} tick {}", r.seq, tick);
        }
    }
    Ok(())
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
        for (dt, steps) in cuts {
            sliced.advance(dt);
            for _ in 0..steps {
                sliced.step();
            }
            let _ = sliced.summary();
            sliced.run_events(7);
        }
        sliced.run_to_end();
        prop_assert_eq!(whole.digest(), sliced.digest());
        prop_assert_eq!(whole.validation_digest(), sliced.validation_digest());
        let mut explained = Simulation::new(&s).explained();
        explained.run_to_end();
        prop_assert_eq!(explained.decisions_digest(), sliced.decisions_digest(), "slicing changed the decisions");
        prop_assert_eq!(
            serde_json::to_value(whole.summary()).unwrap(),
            serde_json::to_value(sliced.summary()).unwrap()
        );
    }
}
