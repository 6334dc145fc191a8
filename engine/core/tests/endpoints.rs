//! Receiver, application and handshake behaviour: delayed ACKs, Nagle, the SYN and its
//! timer, timeline changes, finite transfers.

mod common;
use common::*;
use cwndlab_core::trace::EventKind::{self, *};
use cwndlab_core::trace::Table;
use serde_json::json;

/// A one-flow path with the defaults (2 Mbit/s, 40 ms bottleneck; 100 Mbit/s, 1 ms access)
/// and the given flow settings merged in.
fn path(flow: serde_json::Value, sets: &[(&str, &str)]) -> cwndlab_core::Scenario {
    scenario_from(json!({"duration": 3.0, "flows": [flow]}), sets)
}

#[test]
fn delayed_ack_covers_two_segments_or_waits_for_the_timer() {
    let s = path(
        json!({"tcp": {"mss": 1000, "initial_window": 10},
               "receiver": {"delayed_ack": true, "delack_timeout": 0.2},
               "app": {"kind": "scripted", "writes": [{"at": 0.0, "bytes": 3000}]}}),
        &[],
    );
    let sim = run(&s);
    let rx = of(&sim, DataReceived);
    let acks = of(&sim, AckSent);
    assert_eq!(rx.len(), 3);
    assert_eq!(acks.len(), 2);
    assert_eq!(
        (acks[0].seq, acks[0].t),
        (2000, rx[1].t),
        "ACK at once for the second full segment"
    );
    assert_eq!(
        (acks[1].seq, acks[1].t),
        (3000, rx[2].t + 200 * MS),
        "the odd segment waits 200 ms"
    );
    assert_eq!(of(&sim, FlowComplete).len(), 1);
}

#[test]
fn out_of_order_data_is_acknowledged_at_once_even_with_delayed_acks() {
    let s = path(
        json!({"tcp": {"mss": 1000, "initial_window": 10},
               "receiver": {"delayed_ack": true},
               "app": {"kind": "scripted", "writes": [{"at": 0.0, "bytes": 6000}]},
               "drops": [{"segment": 2}]}),
        &[],
    );
    let sim = run(&s);
    let rx = of(&sim, DataReceived);
    let acks = of(&sim, AckSent);
    let fill = rx.iter().find(|r| r.seg == 2 && r.tx == 2).unwrap();
    // Segment 1 waits (delayed); 3, 4, 5, 6 arrive above the gap: an immediate ACK each,
    // all carrying 1000, each at the arrival of its segment.
    let before: Vec<(u64, u64)> = acks.iter().filter(|a| a.t < fill.t).map(|a| (a.seq, a.t)).collect();
    let above: Vec<(u64, u64)> = rx
        .iter()
        .filter(|r| r.seg >= 3 && r.tx == 1)
        .map(|r| (1000, r.t))
        .collect();
    assert_eq!(before, above);
    // The retransmission fills the gap: acknowledged at once, covering everything.
    let ack = acks
        .iter()
        .find(|a| a.t == fill.t)
        .expect("immediate ACK for gap-filling data");
    assert_eq!(ack.seq, 6000);
}

#[test]
fn nagle_holds_small_segments_while_data_is_unacknowledged() {
    let thin = json!({"tcp": {"nagle": true}, "app": {"kind": "thin", "write_size": 100, "write_interval": 0.01}});
    let with = run(&path(thin.clone(), &[]));
    let without = run(&path(thin, &[("flows[0].tcp.nagle", "false")]));
    // Without Nagle every write leaves at once as its own 100-byte segment.
    let w = of(&without, DataSend);
    assert_eq!(
        w.len(),
        301,
        "writes at 0, 10, …, 3000 ms (the run includes its last instant)"
    );
    assert!(w
        .iter()
        .enumerate()
        .all(|(k, e)| e.len == 100 && e.t == k as u64 * 10 * MS));
    // With Nagle a small segment only leaves when nothing is outstanding: at time 0 and
    // then at ACK arrivals, carrying everything written meanwhile.
    let n = of(&with, DataSend);
    let acks: Vec<u64> = of(&with, AckReceived).iter().map(|a| a.t).collect();
    assert_eq!((n[0].t, n[0].len), (0, 100));
    for e in &n[1..] {
        assert!(
            e.len as u64 == 1460 || acks.contains(&e.t),
            "{e:?} sent while data was outstanding"
        );
    }
    assert!(n.len() < 50, "{} segments: about one per RTT", n.len());
    let sent: u64 = n.iter().map(|e| e.len as u64).sum();
    assert!(sent >= 29_000, "everything but the last RTT's writes got out: {sent}");
}

#[test]
fn a_lost_syn_is_resent_after_the_initial_rto_and_data_starts_with_rto_3s() {
    let s = path(
        json!({"tcp": {"syn": true}, "rto": {"initial": 1.0}, "drops": [{"segment": 0, "attempt": 1}]}),
        &[("duration", "5")],
    );
    let sim = run(&s);
    let syn = of(&sim, SynSend);
    assert_eq!(
        syn.iter().map(|e| (e.t, e.tx)).collect::<Vec<_>>(),
        vec![(0, 1), (SEC, 2)]
    );
    assert_eq!(of(&sim, ScriptedDrop)[0].seg, 0);
    assert_eq!(of(&sim, Timeout)[0].t, SEC);
    let est = of(&sim, SynAckReceived)[0].t;
    assert_eq!(of(&sim, DataSend)[0].t, est);
    // RFC 6298 (5.7): no sample from the retransmitted SYN; data starts with RTO = 3 s.
    let st = state_at(&sim, 0, est);
    assert_eq!((st.srtt, st.rto), (0, 3 * SEC));
}

#[test]
fn a_timeline_change_takes_effect_at_its_time() {
    let s = scenario_from(
        json!({"duration": 10.0, "timeline": [
            {"at": 5.0, "set": "network.bottleneck.loss.model", "value": "bernoulli"},
            {"at": 5.0, "set": "network.bottleneck.loss.probability", "value": 0.05}
        ]}),
        &[],
    );
    let sim = run(&s);
    let errs = of(&sim, ErrorDrop);
    assert!(!errs.is_empty());
    assert!(errs.iter().all(|e| e.t > 5 * SEC), "no random loss before 5 s");
    let changes = of(&sim, ParamChange);
    assert_eq!(
        changes.iter().map(|e| (e.t, e.seq)).collect::<Vec<_>>(),
        vec![(5 * SEC, 0), (5 * SEC, 1)]
    );
}

#[test]
fn a_finite_bulk_transfer_completes_and_stops() {
    let s = path(json!({"app": {"kind": "bulk", "bytes": 100_000}}), &[]);
    let sim = run(&s);
    let done = of(&sim, FlowComplete);
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].seq, 100_000);
    let r = sim.receiver(0);
    assert_eq!((r.delivered, r.rcv_nxt), (100_000, 100_000));
    let sum = sim.summary();
    assert_eq!(sum.flows[0].completion_time_s, Some(done[0].t as f64 / 1e9));
    // 100 kB = 69 segments of 1460 B (the last one 720 B).
    assert_eq!(of(&sim, DataSend).len(), 69);
}

#[test]
fn cbr_writes_set_the_offered_load() {
    // 1000 B every 10 ms = 800 kbit/s of payload over a 2 Mbit/s path: nothing queues up,
    // every write is one segment, and goodput equals the offered load.
    let s = path(
        json!({"tcp": {"mss": 1000}, "app": {"kind": "cbr", "write_size": 1000, "write_interval": 0.01}}),
        &[],
    );
    let sim = run(&s);
    let sends = of(&sim, DataSend);
    assert_eq!(sends.len(), 301, "writes at 0, 10, …, 3000 ms");
    assert!(sends.iter().all(|e| e.len == 1000));
    let g = sim.summary().flows[0].goodput_bps;
    assert!((g - 800_000.0).abs() < 20_000.0, "{g}");
}

#[test]
fn combined_column_reads_match_single_columns() {
    let s = scenario("fall-floyd-newreno-3drops", &[]);
    let sim = run(&s);
    let e = sim.events();
    let drops_and_timeouts = (1 << ScriptedDrop as u32) | (1 << PartialAck as u32);
    let sel = e.select(10, drops_and_timeouts, Some(0), 0x7f);
    let want: Vec<usize> = (10..e.len())
        .filter(|&i| matches!(EventKind::ALL[e.rows[i].kind as usize], ScriptedDrop | PartialAck))
        .collect();
    let m = want.len();
    let f0 = &sim.summary().flows[0];
    assert_eq!(
        m as u64,
        f0.drops.scripted + f0.partial_acks,
        "every scripted drop and partial ACK after row 10"
    );
    assert_eq!(sel.len(), 7 * m);
    for (j, &i) in want.iter().enumerate() {
        assert_eq!(sel[j], e.rows[i].t as f64 / 1e9);
        assert_eq!(sel[3 * m + j], e.rows[i].seq as f64);
        assert_eq!(sel[5 * m + j], e.rows[i].seg as f64);
    }
    assert!(e.select(0, u64::MAX, Some(1), 0x7f).is_empty(), "no flow 1");
    // Only t and seq (bits 0 and 3), in that order.
    let two = e.select(10, drops_and_timeouts, Some(0), 0b1001);
    assert_eq!(two.len(), 2 * m);
    assert_eq!(&two[..m], &sel[..m]);
    assert_eq!(&two[m..], &sel[3 * m..4 * m]);
    let f = sim.series(0);
    let cols = f.columns(3, 0x1ff);
    let n = f.len() - 3;
    assert_eq!(cols.len(), 9 * n);
    assert_eq!(&cols[n..2 * n], &f.column("cwnd", 3).unwrap()[..]);
    assert_eq!(&cols[8 * n..], &f.column("phase", 3).unwrap()[..]);
    // cwnd and phase only (bits 1 and 8).
    let sparse = f.columns(3, (1 << 1) | (1 << 8));
    assert_eq!(sparse, [&cols[n..2 * n], &cols[8 * n..]].concat());
}
