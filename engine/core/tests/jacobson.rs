//! Jacobson 1988 (source 003, issue 11): the pre-1988 sender and its mechanisms one at a
//! time, spurious retransmissions, RTT samples, and the paper's experiments pinned by the
//! numbers our model gives (docs/validation.md §3d puts them next to the paper's).

mod common;

use common::*;
use cwndlab_core::summary::FlowSummary;
use cwndlab_core::trace::EventKind;

/// The 230.4 kbit/s link's data rate for 512-byte segments with 40-byte headers, bytes/s.
const LINK_DATA_BPS: f64 = 230_400.0 / 8.0 * 512.0 / 552.0;

fn flow0(preset: &str, algorithm: &str) -> FlowSummary {
    let sim = run(&scenario(preset, &[("flows[0].algorithm", algorithm)]));
    sim.summary().flows[0].clone()
}

#[test]
fn without_slow_start_the_window_opens_at_once_and_a_timeout_reopens_it() {
    // One 16 KB window of 512-byte segments, a 30-packet buffer: the first send pass puts
    // all 32 segments out at once.
    let sim = run(&scenario("jacobson-startup", &[("duration", "2")]));
    let sends = events(&sim, &[EventKind::DataSend]);
    assert!(sends.len() >= 32);
    assert!(
        sends[..32].iter().all(|e| e.t == sends[0].t),
        "32 segments in one instant"
    );
    assert_eq!(sim.sender(0).cc.cwnd(), 16384);
    // No congestion avoidance: ssthresh stays unset through every timeout, so cwnd
    // returns to the receiver's window each time.
    let sim = run(&scenario("jacobson-startup", &[]));
    let s = &sim.summary().flows[0];
    assert!(s.timeouts >= 3, "{}", s.timeouts);
    assert_eq!(s.final_ssthresh_bytes, None);
    assert_eq!(sim.sender(0).cc.cwnd(), 16384);
}

#[test]
fn congestion_avoidance_without_slow_start_reopens_to_half_the_window() {
    let sim = run(&scenario(
        "jacobson-startup",
        &[("flows[0].algorithm", "bsd_4_3_ca"), ("duration", "10")],
    ));
    let s = &sim.summary().flows[0];
    assert_eq!(s.timeouts, 1);
    // The timeout halved min(cwnd, rwnd) = 16 KB: ssthresh 8 KB, and cwnd reopened to it at
    // once, then grew by about one segment per RTT (per_ack; cwnd is not capped at rwnd).
    assert_eq!(s.final_ssthresh_bytes, Some(8192));
    let cwnd = sim.sender(0).cc.cwnd();
    assert!(cwnd > 8192 + 4 * 512 && cwnd < 2 * 16384, "{cwnd}");
}

#[test]
fn without_congestion_avoidance_fast_recovery_keeps_the_window() {
    // Fall & Floyd's one drop with Reno: the usual response halves cwnd; with no decrease
    // Reno still resends the hole after three duplicate ACKs, inflates and deflates, but
    // cwnd after recovery is the window the loss found.
    let halved = run(&scenario("fall-floyd-reno-1drops", &[]));
    let kept = run(&scenario(
        "fall-floyd-reno-1drops",
        &[("flows[0].cc.ssthresh_rule", "none")],
    ));
    let fr = |sim: &cwndlab_core::sim::Simulation| events(sim, &[EventKind::FastRetransmit])[0].t;
    assert_eq!(fr(&halved), fr(&kept), "the same loss, detected at the same time");
    let at = |sim: &cwndlab_core::sim::Simulation, t: u64| {
        sim.series(0).rows.iter().take_while(|r| r.0 <= t).last().unwrap().1
    };
    let before = at(&halved, fr(&halved) - 1);
    let (h, k) = (at(&halved, fr(&halved)), at(&kept, fr(&kept)));
    assert_eq!(before.cwnd, at(&kept, fr(&kept) - 1).cwnd);
    assert_eq!(h.cwnd, before.cwnd / 2000 * 1000, "half of the window, whole segments");
    assert_eq!(k.cwnd, before.cwnd, "no decrease");
    assert_eq!(k.ssthresh, before.ssthresh, "ssthresh unchanged");
    // Never backing off, it overflows the 8-packet queue again and again: over the 10 s
    // run 21 queue drops instead of 6, and under half the goodput.
    let (h, k) = (&halved.summary().flows[0], &kept.summary().flows[0]);
    assert_eq!((h.drops.queue, k.drops.queue), (6, 21));
    assert!(k.goodput_bps < 0.5 * h.goodput_bps);
}

#[test]
fn startup_figures_3_and_4() {
    // Paper: without slow start 35 % of the available bandwidth, almost everything resent;
    // with slow start no retransmissions and the line at the link's slope.
    let old = flow0("jacobson-startup", "bsd_4_3");
    let ss = flow0("jacobson-startup", "bsd_4_3_ss");
    let share = |f: &FlowSummary| f.goodput_bps / 8.0 / LINK_DATA_BPS;
    assert!(share(&old) < 0.6, "{}", share(&old));
    assert!(old.retransmit_fraction > 0.3, "{}", old.retransmit_fraction);
    assert!(old.spurious_retransmits > old.retransmits / 2);
    assert_eq!(ss.retransmits, 0);
    assert!(share(&ss) > 0.95, "{}", share(&ss));
}

#[test]
fn the_rfc793_timer_retransmits_spuriously_where_mean_plus_deviation_does_not() {
    // Figures 5–6 over five seeds: the buffer never overflows, so every retransmission is
    // spurious.
    let (mut old, mut new) = (0, 0);
    for seed in 1..=5u64 {
        let s = seed.to_string();
        let a = run(&scenario("jacobson-timers", &[("seed", &s)]));
        let b = run(&scenario(
            "jacobson-timers",
            &[("seed", &s), ("flows[0].algorithm", "jacobson_88")],
        ));
        let (a, b) = (&a.summary().flows[0], &b.summary().flows[0]);
        assert_eq!(a.drops.queue + b.drops.queue, 0);
        assert_eq!(
            (a.spurious_retransmits, b.spurious_retransmits),
            (a.retransmits, b.retransmits)
        );
        assert!(a.spurious_retransmits > b.spurious_retransmits, "seed {seed}");
        old += a.spurious_retransmits;
        new += b.spurious_retransmits;
    }
    assert!(old >= 40 && new <= 4, "RFC 793 {old}, Jacobson {new}");
}

fn four(preset: &str) -> (f64, f64, Vec<FlowSummary>) {
    let sim = run(&scenario(preset, &[]));
    let sum = sim.summary();
    let flows = sum.flows.clone();
    let sent: u64 = flows.iter().map(|f| f.data_packets_sent).sum();
    let retx: u64 = flows.iter().map(|f| f.retransmits).sum();
    // Delivered bandwidth until the last transfer completed, as a share of the link.
    let end = flows
        .iter()
        .map(|f| f.completion_time_s.expect("all complete"))
        .fold(0.0, f64::max);
    let delivered: u64 = flows.iter().map(|f| f.delivered_bytes).sum();
    (retx as f64 / sent as f64, delivered as f64 / end / LINK_DATA_BPS, flows)
}

#[test]
fn four_conversations_without_and_with_congestion_avoidance() {
    // Paper: 4 000 of 11 000 packets retransmitted and 75 % of the link delivered without;
    // 89 of 8 281 (1 %) and the full link with.
    let (old_retx, old_used, old) = four("jacobson-four-old");
    let (new_retx, new_used, new) = four("jacobson-four-new");
    assert!(old_retx > 0.25, "{old_retx}");
    assert!(new_retx < 0.025, "{new_retx}");
    assert!(old_retx > 10.0 * new_retx);
    assert!(old_used < 0.8, "{old_used}");
    assert!(new_used > 0.9, "{new_used}");
    for f in old.iter().chain(&new) {
        assert_eq!(f.delivered_bytes, 1 << 20, "every 1 MB transfer completes");
    }
}

#[test]
fn a_go_back_n_resend_of_data_the_receiver_holds_is_spurious() {
    // Fall & Floyd's Reno with three drops: after the timeout, slow start resends 28 (lost)
    // and 29 (received long ago); only 29 is spurious, known as it is sent.
    let sim = run(&scenario("fall-floyd-reno-3drops", &[]));
    let sp = events(&sim, &[EventKind::SpuriousRetransmit]);
    assert_eq!(sp.len(), 1);
    assert_eq!((sp[0].seg, sp[0].tx, sp[0].seq, sp[0].len), (29, 2, 28_000, 1000));
    let resend = events(&sim, &[EventKind::Retransmit])
        .into_iter()
        .find(|e| e.seg == 29)
        .unwrap();
    assert_eq!(sp[0].t, resend.t);
    assert_eq!(sim.summary().flows[0].spurious_retransmits, 1);
}

#[test]
fn every_rtt_sample_is_logged_as_the_estimator_took_it() {
    // Figure 5's path, one window-limited flow: one timed segment per RTT (Karn: none
    // across a retransmission), each sample quantised to the 500 ms tick.
    let sim = run(&scenario("jacobson-timers", &[("duration", "60")]));
    let samples = events(&sim, &[EventKind::RttSample]);
    assert!(samples.len() > 20);
    for e in &samples {
        assert_eq!(e.seq % 500_000_000, 0, "whole ticks");
        assert!(e.seq >= 500_000_000);
        let exact = e.len as u64 * 1_000;
        assert!(exact + 1_000 > e.seq - 500_000_000 && exact < e.seq + 500_000_000);
    }
    // The first sample fixes SRTT (RFC 793 starts from it).
    assert_eq!(
        sim.series(0).rows.iter().find(|r| r.1.srtt > 0).unwrap().1.srtt,
        samples[0].seq
    );
}

#[test]
fn derived_rows_leave_the_digest_as_it_was() {
    // The presets' golden digests predate RTT-sample and spurious rows and still hold
    // (tests/golden.rs); here: a run that hashes rows as it drops them counts the same rows
    // as one that stores them and hashes later.
    let s = scenario("fall-floyd-reno-3drops", &[]);
    let full = run(&s);
    let mut lean = cwndlab_core::sim::Simulation::new(&s);
    lean.set_recording(cwndlab_core::sim::Recording::Summary { digest: true });
    lean.run_to_end();
    assert!(full.events().rows.iter().any(|r| r.kind == EventKind::RttSample as u8));
    assert_eq!(full.digest(), lean.digest());
}

#[test]
fn jain_index_of_the_four_conversations() {
    let sim = run(&scenario("jacobson-four-old", &[]));
    let s = sim.summary();
    let xs: Vec<f64> = s.flows.iter().map(|f| f.transfer_goodput_bps).collect();
    let j = cwndlab_core::summary::jain_index(&xs).unwrap();
    assert_eq!(s.jain_index, Some(j));
    assert!(j > 0.25 && j <= 1.0);
}

#[test]
fn identical_flows_share_fairly() {
    // Four NewReno bulk flows on identical paths, started together, a 10 Mbit/s bottleneck
    // with 0.1 % random loss, 120 s: Jain's index of their goodputs is 0.9997 (seed 1).
    let access = serde_json::json!({"bandwidth": 100_000_000u64, "delay": 0.001, "queue_packets": 1000});
    let flows: Vec<_> = (0..4)
        .map(|_| serde_json::json!({"algorithm": "newreno", "access": access, "app": {"kind": "bulk"}}))
        .collect();
    let s = scenario_from(
        serde_json::json!({"duration": 120, "network": {"bottleneck": {"bandwidth": 10_000_000u64,
            "delay": 0.02, "queue_packets": 50, "loss": {"model": "bernoulli", "probability": 0.001}}},
            "flows": flows}),
        &[],
    );
    let j = run(&s).summary().jain_index.unwrap();
    assert!(j > 0.99, "{j}");
}

#[test]
fn jain_index_mid_run_counts_only_the_flows_that_have_started() {
    // At 4 s of jacobson-four-new two conversations run (they started at 0 and 3 s); the
    // ones starting at 6 and 9 s are left out rather than counted as getting nothing.
    let mut sim = cwndlab_core::sim::Simulation::new(&scenario("jacobson-four-new", &[]));
    sim.advance(4 * SEC);
    let s = sim.summary();
    let xs: Vec<f64> = s.flows[..2].iter().map(|f| f.transfer_goodput_bps).collect();
    assert_eq!(s.jain_index, cwndlab_core::summary::jain_index(&xs));
    assert!(s.jain_index.unwrap() > 0.5, "two flows: at least 1/2");
}
