//! BR-TCP (source 002): ssthresh from the reserved rate, on a path whose bottleneck runs at
//! the reserved rate (40 Mbit/s, 2 ms + 25 ms + 2 ms, 100-packet buffer, 1500-byte packets:
//! the paper's numbers, with the reserved class standing alone). The class-based scheduler
//! and the competing UDP traffic of the paper's setup are in `reservation.rs`.

mod common;

use common::*;
use cwndlab_core::scenario::Scenario;
use cwndlab_core::trace::EventKind;
use serde_json::json;

fn path(algorithm: &str, recovery: &str) -> Scenario {
    scenario_from(
        json!({"duration": 30, "network": {"bottleneck": {"bandwidth": 40_000_000u64, "delay": 0.025,
            "queue_packets": 100, "loss": {"model": "none"}, "reverse_loss": {"model": "none"}}},
          "flows": [{"algorithm": algorithm, "reserved_bandwidth": 40_000_000u64,
            "cc": {"br_recovery": recovery},
            "access": {"bandwidth": 100_000_000u64, "delay": 0.002},
            "receiver_access": {"bandwidth": 100_000_000u64, "delay": 0.002},
            "tcp": {"rwnd": 10_000_000}}]}),
        &[],
    )
}

#[test]
fn the_first_loss_sets_ssthresh_to_the_reserved_bdp_and_cwnd_to_it() {
    // Minimum RTT sample: 58 ms (1 ms clock). 40e6 · 0.058 / (8 · 1500) = 193.3 → 193
    // packets of 1460 bytes = 281 780 B, and cwnd = ssthresh (no inflation).
    let sim = run(&path("br_tcp", "set_cwnd"));
    let fr = events(&sim, &[EventKind::FastRetransmit])[0];
    let after = sim.series(0).rows.iter().find(|(t, _)| *t >= fr.t).unwrap().1;
    assert_eq!(
        (after.ssthresh, after.cwnd, after.inflated),
        (281_780, 281_780, 281_780)
    );
    // A timeout takes the same ssthresh and one segment.
    let to = events(&sim, &[EventKind::Timeout])[0];
    let after = sim.series(0).rows.iter().find(|(t, _)| *t >= to.t).unwrap().1;
    assert_eq!((after.ssthresh, after.cwnd), (281_780, 1460));
    // The summary reports the reserved BDP the window plot draws as a reference line.
    assert_eq!(sim.summary().flows[0].reserved_bdp_bytes, Some(281_780));
    assert_eq!(
        run(&path("newreno", "set_cwnd")).summary().flows[0].reserved_bdp_bytes,
        None
    );
}

#[test]
fn br_tcp_keeps_the_reserved_pipe_fuller_and_its_window_steadier_than_newreno() {
    // Source 002 §3 (figures 4–8): NewReno halves on every loss; BR-TCP goes back to the
    // reserved rate's window. Goodput (Mbit/s) and cwnd's coefficient of variation:
    let mut got = vec![];
    for (alg, rec) in [("newreno", "set_cwnd"), ("br_tcp", "set_cwnd"), ("br_tcp", "newreno")] {
        let f = run(&path(alg, rec)).summary().flows[0].clone();
        got.push((
            (f.goodput_bps / 1e5).round() / 10.0,
            (f.cwnd_cv * 100.0).round() / 100.0,
        ));
    }
    assert_eq!(got, vec![(13.1, 0.67), (32.0, 0.29), (36.5, 0.22)]);
}

#[test]
fn a_br_tcp_flow_without_a_reservation_is_refused() {
    let e = Scenario::from_value(&json!({"flows": [{"algorithm": "br_tcp"}]})).unwrap_err();
    assert_eq!(e[0].path, "flows[0].reserved_bandwidth");
    assert!(
        e[0].message.contains("BR-TCP sets ssthresh from the reserved rate"),
        "{e:?}"
    );
}
