//! Each invariant fails on doctored numbers: a check that cannot fail checks nothing.
use super::*;
use serde_json::json;

fn scenario(v: serde_json::Value) -> Scenario {
    Scenario::from_value(&v).unwrap()
}

fn row(cwnd: u64, ssthresh: u64, flight: u64) -> FlowState {
    FlowState {
        cwnd,
        inflated: cwnd,
        ssthresh,
        flight,
        ..FlowState::default()
    }
}

#[test]
fn a_real_run_passes_stopped_or_finished() {
    let s = scenario(json!({"duration": 3, "network": {"bottleneck": {"queue_packets": 5}},
        "flows": [{"algorithm": "reno"}, {"algorithm": "cubic", "start": 0.2}],
        "cross": [{"kind": "poisson", "rate": 300000}],
        "timeline": [{"at": 1, "set": "network.bottleneck.bandwidth", "value": 500000},
                     {"at": 1.5, "set": "network.bottleneck.queue_packets", "value": 2}]}));
    let mut sim = Simulation::new(&s);
    let mut p = Progress::default();
    while !sim.run_events(50) {
        p.observe(&sim).unwrap();
        check(&s, &sim).unwrap();
    }
    p.observe(&sim).unwrap();
    check(&s, &sim).unwrap();
    assert!(p.samples > 5);
}

#[test]
fn cwnd_below_one_segment_or_above_its_cap_fails() {
    let s = scenario(json!({"flows": [{"tcp": {"mss": 1000, "rwnd": 10000}, "cc": {"max_cwnd": 20000}}]}));
    let f = &s.flows[0];
    check_series(0, f, &[(0, row(2000, u64::MAX, 0)), (5, row(20000, 4000, 9000))]).unwrap();
    let e = check_series(0, f, &[(0, row(999, u64::MAX, 0))]).unwrap_err();
    assert!(e.contains("cwnd 999 < 1 SMSS"), "{e}");
    let e = check_series(0, f, &[(0, row(20001, u64::MAX, 0))]).unwrap_err();
    assert!(e.contains("above its bound 20000"), "{e}");
    let e = check_series(0, f, &[(0, row(4000, 1999, 0))]).unwrap_err();
    assert!(e.contains("ssthresh 1999 below its floor 2000"), "{e}");
    // The scenario's own initial ssthresh may be below the floor, and RFC 2861's decay
    // may raise it from there to anywhere.
    let s = scenario(json!({"flows": [{"tcp": {"mss": 1000, "initial_ssthresh": 1999}}]}));
    check_series(0, &s.flows[0], &[(0, row(4000, 1999, 0))]).unwrap();
    assert!(check_series(0, &s.flows[0], &[(0, row(4000, 1998, 0))]).is_err());
    let s = scenario(json!({"flows": [{"tcp": {"mss": 1000, "initial_ssthresh": 1},
        "cc": {"idle_policy": "rfc2861"}}]}));
    check_series(0, &s.flows[0], &[(0, row(4000, 1500, 0))]).unwrap();
    let e = check_series(0, f, &[(0, row(4000, 4000, 10001))]).unwrap_err();
    assert!(e.contains("flight 10001 above rwnd"), "{e}");
    let e = check_series(0, f, &[(5, row(4000, 4000, 0)), (4, row(4000, 4000, 0))]).unwrap_err();
    assert!(e.contains("after one at 5"), "{e}");
}

fn ev(t: Ns, kind: EventKind, seq: u64, len: u32) -> EventRow {
    EventRow {
        t,
        seq,
        len,
        seg: 0,
        tx: 1,
        flow: 0,
        kind: kind as u8,
    }
}

#[test]
fn sequence_numbers_going_back_fail() {
    use EventKind::*;
    let good = [
        ev(0, DataSend, 0, 100),
        ev(1, DataSend, 100, 100),
        ev(2, AckSent, 100, 0),
        ev(3, AckReceived, 100, 0),
        ev(4, AckSent, 100, 0),
        ev(5, Retransmit, 0, 100),
    ];
    check_forward(1, &good, false).unwrap();
    check_forward(1, &good, true).unwrap();
    for (bad, what) in [
        (ev(6, AckSent, 99, 0), "receiver acknowledged 99 after 100"),
        (ev(6, AckReceived, 50, 0), "ACK 50 reached the sender after 100"),
        (ev(6, DataSend, 150, 100), "first transmission of seq 150"),
    ] {
        let mut rows = good.to_vec();
        rows.push(bad);
        let e = check_forward(1, &rows, false).unwrap_err();
        assert!(e.contains(what), "{e}");
    }
    // Behind a varying link an older ACK may come after a newer one, but never one the
    // receiver has not sent.
    let mut rows = good.to_vec();
    rows.push(ev(6, AckReceived, 50, 0));
    check_forward(1, &rows, true).unwrap();
    rows.push(ev(7, AckReceived, 200, 0));
    let e = check_forward(1, &rows, true).unwrap_err();
    assert!(
        e.contains("ACK 200 reached the sender, the receiver acknowledged up to 100"),
        "{e}"
    );
    check_sample(0, 7, Some(&[1, 2, 3, 4]), &[1, 2, 3, 5]).unwrap();
    let e = check_sample(0, 7, Some(&[1, 2, 3, 4]), &[1, 1, 3, 4]).unwrap_err();
    assert!(e.contains("rcv_nxt went back from 2 to 1"), "{e}");
    let e = check_sample(0, 7, None, &[3, 2, 3, 4]).unwrap_err();
    assert!(e.contains("snd_una 3 ≤ rcv_nxt 2"), "{e}");
}

#[test]
fn goodput_above_capacity_fails() {
    // 1 Mbit/s = 125 000 B/s; 0.5 Mbit/s from t = 1 s.
    let s = scenario(json!({"duration": 2, "network": {"bottleneck": {"bandwidth": 1000000}},
        "timeline": [{"at": 1, "set": "network.bottleneck.bandwidth", "value": 500000}]}));
    assert_eq!(capacity_bit_ns(&s, 2 * NS_PER_S), 1_500_000 * NS_PER_S as u128);
    assert_eq!(capacity_allowance(&s, NS_PER_S), 0, "no decrease before 1 s");
    let allowance = capacity_allowance(&s, NS_PER_S + 1);
    assert_eq!(
        allowance,
        20 * 1500 + 1001 * 1500 + 12_500,
        "a full bottleneck queue (20 × 1500 B), and the access link's queue, packet and wire (1 000 + 1 packets, 100 Mbit/s × 1 ms)"
    );
    let bin = NS_PER_S / 2;
    // 62 500 B per half second up to 1 s, then 31 250: exactly the capacity.
    let mut rows = vec![(0, 0, 62_500, 62_000), (bin, 0, 62_500, 62_000)];
    rows.push((2 * bin, 0, 31_250 + allowance as u64, 31_000));
    check_capacity(&s, &rows, bin, 2 * NS_PER_S).unwrap();
    rows[2].2 += 1;
    let e = check_capacity(&s, &rows, bin, 2 * NS_PER_S).unwrap_err();
    assert!(e.contains("above its capacity"), "{e}");
    // The prefix counts: too much in the first bin alone fails there.
    let e = check_capacity(&s, &[(0, 0, 62_501, 0)], bin, 2 * NS_PER_S).unwrap_err();
    assert!(e.contains("by t=500000000 ns"), "{e}");
    // Delivered more than crossed.
    let e = check_capacity(&s, &[(0, 0, 1000, 1001)], bin, 2 * NS_PER_S).unwrap_err();
    assert!(e.contains("1001 B delivered"), "{e}");
    // A bin still open at the clock counts up to the clock only.
    let e = check_capacity(&s, &[(0, 0, 12_501, 0)], bin, NS_PER_S / 10).unwrap_err();
    assert!(e.contains("above its capacity 12500 B"), "{e}");
}

#[test]
fn queues_above_their_limits_fail() {
    let s = scenario(
        json!({"network": {"bottleneck": {"queue_packets": 4, "queue_bytes": 5000}},
        "flows": [{"access": {"queue_packets": 3}}],
        "timeline": [{"at": 1, "set": "network.bottleneck.queue_packets", "value": 6}]}),
    );
    let caps = QueueCaps::new(&s);
    let q = |rows: Vec<(Ns, u32, u64)>| QueueSeries {
        rows,
        ..QueueSeries::default()
    };
    check_queue("bottleneck", &q(vec![(0, 4, 4000), (NS_PER_S, 6, 5000)]), &caps).unwrap();
    let e = check_queue("bottleneck", &q(vec![(5, 5, 10)]), &caps).unwrap_err();
    assert!(e.contains("5 packets above the limit 4"), "{e}");
    let e = check_queue("bottleneck", &q(vec![(5, 1, 5001)]), &caps).unwrap_err();
    assert!(e.contains("5001 B above the limit 5000 B"), "{e}");
    let e = check_queue("flow 0 sender access", &q(vec![(5, 4, 10)]), &caps).unwrap_err();
    assert!(e.contains("4 packets above the limit 3"), "{e}");
    let e = check_queue("bottleneck", &q(vec![(5, 1, 1), (4, 1, 1)]), &caps).unwrap_err();
    assert!(e.contains("after one at 5"), "{e}");
}
