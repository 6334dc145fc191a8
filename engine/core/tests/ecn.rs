//! ECN (RFC 3168) and DCTCP (RFC 8257) in whole runs on the bufferbloat path (one flow,
//! 10 Mbit/s, 40 ms RTT, a 1 000-packet buffer): marks instead of drops at CoDel, every
//! mark an event row and an explained decision, DCTCP on a step-marking queue, and
//! determinism.

mod common;

use common::{of, scenario};
use cwndlab_core::explain::Rule;
use cwndlab_core::sim::Simulation;
use cwndlab_core::trace::EventKind;

fn bloat(sets: &[(&str, &str)]) -> Simulation {
    let s = scenario("cubic-bufferbloat", sets);
    let mut sim = Simulation::new(&s).explained();
    sim.run_to_end();
    sim
}

#[test]
fn codel_marks_an_ecn_flow_where_it_drops_one_without() {
    let base = [
        ("flows[0].algorithm", "newreno"),
        ("network.bottleneck.qdisc", "codel"),
        ("duration", "20"),
    ];
    let drops = bloat(&base);
    let mut with = base.to_vec();
    with.push(("flows[0].ecn", "rfc3168"));
    let marks = bloat(&with);
    let (d, m) = (&drops.summary().flows[0], &marks.summary().flows[0]);
    assert!(d.drops.queue > 0 && d.drops.ce_marks == 0);
    // CoDel marks the ECT data it would drop: no AQM drop of new data, every signal a
    // mark, and no retransmission after slow start's overshoot is over.
    let ce = of(&marks, EventKind::CeMark);
    assert!(!ce.is_empty());
    assert_eq!(m.drops.ce_marks as usize, ce.len());
    assert!(
        of(&marks, EventKind::AqmDrop).iter().all(|r| r.tx > 1),
        "only resends (Not-ECT) are dropped"
    );
    // Each mark is explained with CoDel's arithmetic.
    let explained = marks.decisions().iter().filter(|e| e.d.rule == Rule::CodelMark).count();
    assert_eq!(explained, ce.len());
    // The sender answers with reductions (ecn_echo rows with seg = 1) and CWRs.
    let reductions = of(&marks, EventKind::EcnEcho).iter().filter(|r| r.seg == 1).count();
    assert!(reductions > 0);
    assert_eq!(reductions, of(&marks, EventKind::Cwr).len());
    assert!(m.goodput_bps > 7.0e6, "goodput {}", m.goodput_bps);
}

#[test]
fn dctcp_holds_the_step_queue_near_k_with_full_throughput() {
    // K = 20 packets (more than C·RTT/7 ≈ 5 here, RFC 8257 §3.1 / the DCTCP paper).
    let step = [
        ("network.bottleneck.qdisc", "step"),
        ("network.bottleneck.step.k", "20"),
        ("duration", "30"),
    ];
    let mut d = step.to_vec();
    d.push(("flows[0].algorithm", "dctcp"));
    let dctcp = bloat(&d);
    let mut c = step.to_vec();
    c.push(("flows[0].algorithm", "cubic"));
    c.push(("flows[0].ecn", "rfc3168"));
    let cubic = bloat(&c);
    let (ds, cs) = (&dctcp.summary().flows[0], &cubic.summary().flows[0]);
    eprintln!(
        "dctcp: goodput {} qdelay {:?} marks {} retx {}; cubic+ecn: goodput {} qdelay {:?} marks {}",
        ds.goodput_bps,
        ds.qdelay_mean_ms,
        ds.drops.ce_marks,
        ds.retransmits,
        cs.goodput_bps,
        cs.qdelay_mean_ms,
        cs.drops.ce_marks
    );
    // 20 packets of 1 500 B at 10 Mbit/s wait 24 ms.
    let q = ds.qdelay_mean_ms.unwrap();
    assert!((12.0..40.0).contains(&q), "DCTCP mean queueing delay {q} ms");
    assert!(ds.goodput_bps > 9.0e6, "DCTCP goodput {}", ds.goodput_bps);
    assert!(ds.drops.ce_marks > 0 && ds.drops.queue == 0);
    assert!(!of(&dctcp, EventKind::DctcpAlpha).is_empty());
    assert!(cs.drops.ce_marks > 0);
    // Same seed, same run.
    assert_eq!(bloat(&d).digest(), dctcp.digest());
}
