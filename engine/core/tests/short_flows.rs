//! Short transfers and ping probes (issue 40, "short flows and latency"): completion times
//! and round-trip times derived by hand on paths whose timings are known to the nanosecond.

mod common;

use common::*;
use cwndlab_core::sim::Simulation;
use serde_json::{json, Value};

/// One flow on a path of `rate` bit/s everywhere (access links without delay), a 50 ms
/// bottleneck, 1 500-byte packets (1 460 + 40), IW 10, no delayed ACKs.
fn path(rate: u64, app: Value, syn: bool, seed: u64) -> Simulation {
    let access = json!({"bandwidth": rate, "delay": 0.0, "queue_packets": 1000});
    run(&scenario_from(
        json!({"duration": 3, "seed": seed,
               "network": {"bottleneck": {"bandwidth": rate, "delay": 0.05, "queue_packets": 1000,
                "loss": {"model": "none"}, "reverse_loss": {"model": "none"}}},
               "flows": [{"algorithm": "newreno", "tcp": {"initial_window": 10, "syn": syn, "rwnd": 100_000_000u64},
                          "access": access, "receiver_access": access, "app": app}]}),
        &[],
    ))
}

fn listed(sizes: &[(f64, u64)]) -> Value {
    let writes: Vec<Value> = sizes
        .iter()
        .map(|&(at, bytes)| json!({"at": at, "bytes": bytes}))
        .collect();
    json!({"kind": "transfers", "writes": writes})
}

fn fcts(sim: &Simulation) -> Vec<u64> {
    sim.transfers(0).unwrap().rows.iter().map(|r| r.completion).collect()
}

// Every link at 10 Mbit/s: 1.2 ms to serialise a 1 500-byte packet, 32 µs a 40-byte ACK.
// Ten segments leave the sender's access link 1.2 ms apart, the tenth done at 12 ms; the
// bottleneck and the receiver's access link each add 1.2 ms (the packets arrive exactly as
// fast as they leave) and the bottleneck 50 ms: the tenth reaches the receiver at
// 12 + 1.2 + 50 + 1.2 = 64.4 ms. Its ACK: 32 µs on each of three links and 50 ms: 50.096 ms.
const TEN_SEGMENTS_10M: u64 = 64_400_000 + 50_096_000;
// A SYN and a SYN-ACK (40 bytes each) cost 50.096 ms each way.
const HANDSHAKE_10M: u64 = 2 * 50_096_000;

#[test]
fn ten_segments_complete_in_one_round_trip_and_the_handshake_adds_one() {
    let sim = path(10_000_000, listed(&[(0.0, 14_600)]), false, 1);
    assert_eq!(fcts(&sim), vec![TEN_SEGMENTS_10M]);
    let sim = path(10_000_000, listed(&[(0.0, 14_600)]), true, 1);
    assert_eq!(fcts(&sim), vec![HANDSHAKE_10M + TEN_SEGMENTS_10M]);
    let s = sim.summary();
    let t = s.flows[0].transfers.as_ref().unwrap();
    assert_eq!((t.started, t.completed), (1, 1));
    assert_eq!(t.p50_s, Some((HANDSHAKE_10M + TEN_SEGMENTS_10M) as f64 / 1e9));
}

#[test]
fn each_transfer_is_a_fresh_connection_and_one_due_while_another_runs_waits() {
    // The second transfer, due at 1 s on an idle path, starts from the initial window again:
    // the same completion time as the first (a persistent connection would send it in one
    // window at the first one's cwnd).
    let sim = path(10_000_000, listed(&[(0.0, 14_600), (1.0, 14_600)]), true, 1);
    assert_eq!(fcts(&sim), vec![HANDSHAKE_10M + TEN_SEGMENTS_10M; 2]);
    // Two due at once: the second begins when the first completes, so its completion time
    // (from when it was due) is twice the first's.
    let sim = path(10_000_000, listed(&[(0.0, 14_600), (0.0, 14_600)]), false, 1);
    assert_eq!(fcts(&sim), vec![TEN_SEGMENTS_10M, 2 * TEN_SEGMENTS_10M]);
    let rows = &sim.transfers(0).unwrap().rows;
    assert_eq!((rows[1].due, rows[1].began), (0, TEN_SEGMENTS_10M));
}

/// Slow start from IW 10 sends 10, 20, 40, 80 segments in rounds 1–4 (each ACK adds a
/// segment and releases two): 70 segments need 3 round trips, 71 need 4. At 10 Gbit/s the
/// serialisation is negligible (1.2 µs a packet): each round trip is 100 ms and a little.
#[test]
fn a_transfer_of_n_segments_takes_the_round_trips_of_slow_start() {
    let rtt = 100_000_000u64;
    for (segments, rounds) in [(10u64, 1u64), (11, 2), (30, 2), (31, 3), (70, 3), (71, 4), (150, 4)] {
        for syn in [false, true] {
            let sim = path(10_000_000_000, listed(&[(0.0, segments * 1460)]), syn, 1);
            let fct = fcts(&sim)[0];
            let k = rounds + syn as u64;
            // Beyond k round trips, at most the serialisation of the window and a few
            // packets' worth of ACK clocking (well under a millisecond).
            assert!(
                fct > k * rtt && fct < k * rtt + 1_000_000,
                "{segments} segments, syn {syn}: {fct} ns"
            );
        }
    }
}

#[test]
fn drawn_transfers_are_reproducible_and_depend_on_the_seed() {
    let app = json!({"kind": "transfers", "writes": [], "write_size": 30_000, "write_interval": 0.4});
    let a = path(10_000_000, app.clone(), true, 7);
    let b = path(10_000_000, app.clone(), true, 7);
    let c = path(10_000_000, app, true, 8);
    assert_eq!(a.digest(), b.digest());
    assert_eq!(a.transfers(0).unwrap().rows, b.transfers(0).unwrap().rows);
    let due = |s: &Simulation| s.transfers(0).unwrap().rows.iter().map(|r| r.due).collect::<Vec<_>>();
    assert_ne!(due(&a), due(&c));
    assert!(a.transfers(0).unwrap().rows.len() >= 3, "about 7 transfers in 3 s");
    assert!(a.transfers(0).unwrap().rows.iter().all(|r| r.bytes == 30_000));
}

fn ping_path(bulk: bool) -> Simulation {
    let access = json!({"bandwidth": 100_000_000u64, "delay": 0.0, "queue_packets": 1000});
    let app = if bulk {
        json!({"kind": "bulk"})
    } else {
        json!({"kind": "transfers", "writes": [{"at": 100.0, "bytes": 1}]})
    };
    run(&scenario_from(
        json!({"duration": 20, "network": {"bottleneck": {"bandwidth": 10_000_000u64, "delay": 0.05,
                "queue_packets": 1000, "loss": {"model": "none"}, "reverse_loss": {"model": "none"}}},
               "flows": [{"algorithm": "newreno", "tcp": {"rwnd": 100_000_000u64},
                          "access": access, "receiver_access": access, "app": app}],
               "cross": [{"kind": "ping", "packet_size": 64, "interval": 0.05, "start": 0.01}]}),
        &[],
    ))
}

#[test]
fn ping_on_an_idle_path_sees_twice_the_propagation_and_two_serialisations() {
    // 64 bytes at 10 Mbit/s: 51.2 µs each way, plus 50 ms each way.
    let sim = ping_path(false);
    let log = sim.pings(0).unwrap();
    // Probes at 0.01 + 0.05k s up to 20 s: 400; the last ones' echoes are still out.
    assert!(log.rows.len() >= 397, "{}", log.rows.len());
    for (k, &(t, rtt)) in log.rows.iter().enumerate() {
        assert_eq!((t, rtt), (10_000_000 + k as u64 * 50_000_000, 100_102_400), "probe {k}");
    }
    let s = sim.summary();
    let p = s.cross[0].ping.as_ref().unwrap();
    assert_eq!((p.lost, p.p99_s), (0, Some(0.1001024)));
}

#[test]
fn ping_behind_a_full_thousand_packet_buffer_waits_for_the_queue_to_drain() {
    // A bulk NewReno flow fills the 1 000-packet drop-tail buffer: a probe that finds it
    // nearly full waits up to 1 000 × 1 500 B × 8 / 10 Mbit/s = 1.2 s behind it, on top of
    // the idle 100.1 ms; it can wait no longer than that.
    let sim = ping_path(true);
    let rtts: Vec<u64> = sim.pings(0).unwrap().rows.iter().map(|r| r.1).collect();
    let max = *rtts.iter().max().unwrap();
    assert!(max <= 100_102_400 + 1_200_000_000, "{max}");
    assert!(max >= 100_102_400 + 1_100_000_000, "{max}");
    let p = sim.summary().cross[0].ping.clone().unwrap();
    // Over the run, most probes wait behind a queue of hundreds of packets.
    assert!(p.p50_s.unwrap() > 0.5, "{p:?}");
    assert!(p.lost > 0, "probes arriving at the full buffer are dropped");
}

#[test]
fn the_summary_columns_the_page_names_are_the_csv_columns_and_the_summary_fields() {
    use cwndlab_core::export::tables::SUMMARY_FILE_COLUMNS;
    use cwndlab_core::summary::{PING_SUMMARY_FIELDS, TRANSFER_SUMMARY_COLUMNS};
    // The CSV's last five columns, in order.
    let tail = &SUMMARY_FILE_COLUMNS[SUMMARY_FILE_COLUMNS.len() - 5..];
    assert_eq!(tail, TRANSFER_SUMMARY_COLUMNS.map(|(c, _)| c));
    // Each named field is in the summary's JSON, with the value the summary holds.
    let sim = path(10_000_000, listed(&[(0.0, 14_600)]), true, 1);
    let s = sim.summary();
    let v = serde_json::to_value(&s).unwrap();
    let t = &v["flows"][0]["transfers"];
    for (_, field) in TRANSFER_SUMMARY_COLUMNS {
        assert!(t.get(field).is_some(), "{field} in {t}");
    }
    assert_eq!(t["completed"], json!(1));
    assert_eq!(t["p50_s"], json!((HANDSHAKE_10M + TEN_SEGMENTS_10M) as f64 / 1e9));
    let v = serde_json::to_value(ping_path(false).summary()).unwrap();
    let p = &v["cross"][0]["ping"];
    for field in PING_SUMMARY_FIELDS {
        assert!(p.get(field).is_some(), "{field} in {p}");
    }
    assert_eq!(p["p50_s"], json!(0.1001024));
}
