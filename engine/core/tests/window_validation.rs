//! Window validation on the source 000 presets (Handley, Padhye, Floyd 1999 §3, as ns-2's
//! test-suite-tcp.tcl sets the runs up), and on the classroom preset: restart after idle
//! (RFC 5681 §4.1), CWV (RFC 2861) and new CWV (RFC 7661). The numbers are derived from the
//! rules in docs/algorithms.md and pinned here; docs/validation.md sets them next to the paper.

mod common;

use common::*;
use cwndlab_core::sim::Simulation;
use cwndlab_core::trace::EventKind;

/// Window-change events: (time, kind, cwnd before, cwnd after, ssthresh before, after).
fn changes(sim: &Simulation) -> Vec<(u64, EventKind, u64, u64, u64, u64)> {
    sim.events()
        .rows
        .iter()
        .filter(|r| (EventKind::IdleDecay as u8..=EventKind::NvpLossResponse as u8).contains(&r.kind))
        .map(|r| {
            (
                r.t,
                EventKind::ALL[r.kind as usize],
                r.seq,
                r.len as u64,
                r.seg as u64,
                r.tx as u64,
            )
        })
        .collect()
}

/// The flow's (cwnd, ssthresh, rto) at time `t` (the last row at or before it).
fn state_at(sim: &Simulation, t: u64) -> (u64, u64, u64) {
    let rows = &sim.series(0).rows;
    let (_, r) = rows.iter().rev().find(|(at, _)| *at <= t).expect("a row before t");
    (r.cwnd, r.ssthresh, r.rto)
}

const AT_2_4: u64 = 2_400 * MS;

#[test]
fn restart_after_idle_drops_to_the_initial_window_and_keeps_ssthresh() {
    // ns quiescent_100ms: the last packet of the first 100 left at 0.460 s; the application
    // writes again at 2.4 s, 1.94 s later, far more than the RTO (0.3 s): cwnd 27.29 packets
    // (grown past the 25-packet receiver window in congestion avoidance) drops to IW = 1.
    let sim = run(&scenario("cwv-quiescent-100ms", &[]));
    assert_eq!(
        changes(&sim),
        vec![(AT_2_4, EventKind::IdleRestart, 2729, 100, 2500, 2500)]
    );
    assert_eq!(
        sim.summary().flows[0].max_burst_packets,
        2,
        "slow start: 2 packets per ACK"
    );
}

#[test]
fn cwv_halves_once_per_idle_rto_and_keeps_three_quarters_in_ssthresh() {
    // quiescent_100ms_fine: TCP clock 100 ms, RTO = 3 ticks = 0.3 s (Jacobson's estimator on
    // one-tick samples). T_last = 0.4 s (the tick of the last send), tcp_now = 2.4 s: 2.0 s
    // = 6 whole RTOs. min(cwnd, rwnd) = 25 packets → 12 → 6 → 3 → 1 (floor). ssthresh =
    // max(25, ¾·26.57) keeps the initial 25.
    let sim = run(&scenario("cwv-quiescent-100ms-fine", &[]));
    assert_eq!(
        changes(&sim),
        vec![(AT_2_4, EventKind::IdleDecay, 2657, 100, 2500, 2500)]
    );
    assert_eq!(state_at(&sim, AT_2_4).2, 300 * MS);
    // The growth gate held cwnd back while the receiver window, not cwnd, limited the
    // sender: 26.57 packets against 27.29 without CWV.
}

#[test]
fn a_coarser_tick_means_a_larger_rto_and_a_slower_decay() {
    // Source 000 figure 2. 1 ms clock: RTO 80 ms, the 1.94 s silence is 24 RTOs: down to 1.
    let fine = run(&scenario("cwv-quiescent-1ms-fine", &[]));
    assert_eq!(
        changes(&fine),
        vec![(AT_2_4, EventKind::IdleDecay, 2657, 100, 2500, 2500)]
    );
    assert_eq!(state_at(&fine, AT_2_4).2, 80 * MS);
    // 500 ms clock: RTO = 3 ticks = 1.5 s; T_last = 0.0 s and tcp_now = 2.0 s on that clock,
    // so one RTO: 25 → 12 packets ("decayed only part of the way").
    let coarse = run(&scenario("cwv-quiescent-500ms-fine", &[]));
    assert_eq!(
        changes(&coarse),
        vec![(AT_2_4, EventKind::IdleDecay, 2657, 1200, 2500, 2500)]
    );
    assert_eq!(state_at(&coarse, AT_2_4).2, 1_500 * MS);
    assert_eq!(coarse.summary().flows[0].max_burst_packets, 12);
}

#[test]
fn without_validation_the_sender_dumps_its_whole_window_after_idle() {
    let none = run(&scenario("cwv-quiescent-100ms", &[("flows[0].algorithm", "newreno")]));
    assert!(changes(&none).is_empty());
    // The whole receiver window leaves at 2.4 s back to back.
    assert_eq!(none.summary().flows[0].max_burst_packets, 25);
    // New CWV keeps cwnd through the silence too (it enters the non-validated phase instead).
    let newcwv = run(&scenario(
        "cwv-quiescent-100ms",
        &[("flows[0].algorithm", "newreno_newcwv")],
    ));
    assert_eq!(newcwv.summary().flows[0].max_burst_packets, 25);
    assert!(changes(&newcwv)
        .iter()
        .any(|c| c.0 == AT_2_4 && c.1 == EventKind::NvpEnter));
}

#[test]
fn after_an_early_drop_cwv_ssthresh_reopens_the_window_faster() {
    // quiescentB: the third packet is dropped; the timeout at 0.424 s leaves ssthresh at 2
    // packets. Restart keeps that ssthresh; CWV raises it to ⌊¾·12.9⌋ = 9 packets first.
    let restart = run(&scenario("cwv-quiescentB", &[]));
    let cwv = run(&scenario("cwv-quiescentB-qoption", &[]));
    assert_eq!(
        changes(&restart),
        vec![(AT_2_4, EventKind::IdleRestart, 1367, 100, 200, 200)]
    );
    assert_eq!(changes(&cwv), vec![(AT_2_4, EventKind::IdleDecay, 1290, 100, 200, 900)]);
    // By the end (3 s) CWV has delivered 34 packets more.
    let (r, c) = (restart.summary(), cwv.summary());
    assert_eq!(
        (r.flows[0].delivered_bytes, c.flows[0].delivered_bytes),
        (14_300, 17_700)
    );
}

#[test]
fn an_application_limited_sender_keeps_cwnd_honest_with_the_gate_and_the_decay() {
    // underutilized_100ms: one packet per 10 ms on average from 0.045 s to 2.2 s, then a burst
    // at 0.5 ms per packet. cwnd at 2.2 s (bytes of 100-byte packets) and retransmissions:
    // neither mechanism lets cwnd pass the 100-packet receiver window; each one alone keeps
    // it near half of that; both keep it at 14 packets, and the burst then loses least.
    let at = 2_200 * MS - 1;
    let mut got = vec![];
    for p in [
        "cwv-underutilized-100ms",
        "cwv-underutilized-100ms-control",
        "cwv-underutilized-100ms-q",
        "cwv-underutilized-100ms-control-q",
    ] {
        let sim = run(&scenario(p, &[]));
        let s = sim.summary();
        let decays = changes(&sim)
            .iter()
            .filter(|c| c.1 == EventKind::AppLimitedDecay)
            .count();
        got.push((state_at(&sim, at).0, s.flows[0].retransmits, decays));
    }
    assert_eq!(
        got,
        vec![(10_174, 41, 0), (5_500, 39, 0), (5_950, 27, 6), (1_400, 18, 6)]
    );
}

#[test]
fn the_classroom_preset_separates_all_four() {
    // An on/off sender: 100 kB at the start of every 1.5 s cycle.
    let mut rows = vec![];
    for alg in ["newreno", "newreno_restart", "newreno_cwv", "newreno_newcwv"] {
        let sim = run(&scenario("cwv-classroom-onoff", &[("flows[0].algorithm", alg)]));
        let f = &sim.summary().flows[0];
        assert_eq!(f.algorithm, alg);
        rows.push((f.delivered_bytes, f.retransmits, f.max_burst_packets, f.window_decays));
    }
    assert_eq!(
        rows,
        vec![
            (1_394_900, 10, 23, 0),
            (1_323_360, 1, 2, 12),
            (1_339_420, 1, 5, 13),
            (1_390_520, 10, 23, 2),
        ]
    );
}

#[test]
fn new_cwv_answers_a_loss_in_the_non_validated_phase_from_pipeack() {
    let sim = run(&scenario(
        "cwv-classroom-onoff",
        &[("flows[0].algorithm", "newreno_newcwv")],
    ));
    let responses: Vec<_> = changes(&sim)
        .into_iter()
        .filter(|c| c.1 == EventKind::NvpLossResponse)
        .collect();
    assert_eq!(responses.len(), 2);
    for (_, _, _, cwnd, _, ssthresh) in responses {
        // RFC 7661 §4.4.1: ssthresh = cwnd = (max(pipeACK, LossFlightSize) − R)/2.
        assert_eq!(cwnd, ssthresh);
    }
}

#[test]
fn the_nvp_time_limit_reduces_a_long_unvalidated_window() {
    // A 2 s limit instead of 300 s: 400 kB sent at once (a buffer deep enough for no loss),
    // then silence until 9 s.
    let sim = run(&scenario_from(
        serde_json::json!({"duration": 12.0, "network": {"bottleneck": {"queue_packets": 1000}},
            "flows": [{"algorithm": "newreno_newcwv",
            "cc": {"nvp_limit": 2.0},
            "app": {"kind": "scripted", "writes": [{"at": 0.0, "bytes": 400_000}, {"at": 9.0, "bytes": 100_000}]}}]}),
        &[],
    ));
    let expiries: Vec<_> = changes(&sim)
        .into_iter()
        .filter(|c| c.1 == EventKind::NvpExpiry)
        .collect();
    assert_eq!(expiries.len(), 1, "one event for the whole-limit reductions at once");
    let (t, _, before, after, ss_before, ss_after) = expiries[0];
    assert_eq!(t, 9 * SEC);
    // The NVP counts from the last time the sender was judged validated, a round near the end
    // of the transfer (its last ACK came at 1.92 s), so 7.1 s of it hold three whole 2 s
    // limits. Each is one reduction: ssthresh = max(ssthresh, ¾·cwnd), then
    // cwnd = max(cwnd/2, IW).
    let last_ack = events(&sim, &[EventKind::AckReceived])
        .into_iter()
        .rfind(|e| e.t < t)
        .unwrap()
        .t;
    let k = (t - last_ack) / (2 * SEC);
    assert_eq!(k, 3, "last ACK at {last_ack} ns");
    let mut w = (before, ss_before);
    for _ in 0..k {
        w.1 = w.1.max(3 * (w.0 / 4) + 3 * (w.0 % 4) / 4);
        w.0 = w.0.min((w.0 / 2).max(2 * 1460));
    }
    assert_eq!((after, ss_after), w);
}
