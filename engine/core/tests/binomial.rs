//! Binomial congestion control (source 004 §3.2, Bansal and Balakrishnan): the
//! TCP-compatible family k + l = 1 on NewReno's loss detection.

mod common;

use common::*;
use cwndlab_core::scenario::Scenario;
use serde_json::json;

/// (digest, cwnd coefficient of variation, goodput) on the NetSim lab's lossy path (BER
/// 1e-7), 100 s.
fn netsim(sets: &[(&str, &str)]) -> (u64, f64, f64) {
    let mut all = vec![("duration", "100")];
    all.extend_from_slice(sets);
    let sim = run(&scenario("netsim-newreno", &all));
    let f = sim.summary().flows[0].clone();
    (sim.digest(), f.cwnd_cv, f.goodput_bps)
}

#[test]
fn binomial_aimd_is_newreno_to_the_last_packet() {
    // k = 0, l = 1, α = 1, β = ½: SMSS²/cwnd per ACK and half of min(cwnd, rwnd) on a
    // loss, which is NewReno with the half-cwnd ssthresh rule.
    let tcp = netsim(&[
        ("flows[0].algorithm", "newreno"),
        ("flows[0].cc.ssthresh_rule", "half_cwnd"),
    ]);
    let aimd = netsim(&[("flows[0].algorithm", "binomial_aimd")]);
    assert_eq!(tcp, aimd);
}

#[test]
fn a_gentler_decrease_keeps_the_window_steadier_and_fuller_under_random_loss() {
    // Random (not congestion) loss: AIMD halves, SQRT takes ½·√w, IIAD half a packet.
    let aimd = netsim(&[("flows[0].algorithm", "binomial_aimd")]);
    let sqrt = netsim(&[("flows[0].algorithm", "binomial_sqrt")]);
    let iiad = netsim(&[("flows[0].algorithm", "binomial_iiad")]);
    assert!(aimd.1 > sqrt.1 && sqrt.1 > iiad.1, "cwnd CV {aimd:?} {sqrt:?} {iiad:?}");
    assert!(aimd.2 < sqrt.2 && sqrt.2 < iiad.2, "goodput {aimd:?} {sqrt:?} {iiad:?}");
}

#[test]
fn powers_must_be_whole_or_half_numbers() {
    let e = Scenario::from_value(&json!({"flows": [{"algorithm": "binomial_sqrt", "cc": {"binomial_k": 0.3}}]}))
        .unwrap_err();
    assert_eq!(
        e[0].to_string(),
        "flows[0].cc.binomial_k = 0.3 is not a whole or half number; binomial powers must be multiples of 0.5 (e.g. 0, 0.5, 1)"
    );
}
