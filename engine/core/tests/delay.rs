//! The summary's delay metrics (issue 43): the queueing delay of a flow's data packets at the
//! bottleneck and the RTT samples its sender took, mean and 95th percentile, pinned on a
//! window-limited flow whose every timing is known to the nanosecond.
//!
//! The path: 1 Gbit/s access links and a 1 Mbit/s bottleneck, no propagation delay, 1 500-byte
//! data packets (12 µs on an access link, S = 12 ms on the bottleneck), 40-byte ACKs (320 ns
//! and 320 µs). The receiver window holds W = 5 segments and the first window is 5, so the
//! sender puts 5 packets on the wire at t = 0 and then one per ACK, 300 packets in all (the
//! transfer ends well before the run, so no packet still waits at the end).
//!
//! - The first 5: packet i reaches the bottleneck at (i + 1)·12 µs and starts at
//!   12 µs + i·S, so it waits i·(S − 12 µs).
//! - Every later one is sent when the ACK of the packet W before it arrives, ε = 344 640 ns
//!   after that packet's transmission ended (12 000 on the receiver's access link, the ACK's
//!   320 + 320 000 + 320, 12 000 on the sender's access link), and waits behind the W − 1
//!   packets queued before it: (W − 1)·S − ε = 47 655 360 ns.
//! - RTT: a packet sent on an ACK is acknowledged W·S = 60 ms later (the window takes W
//!   transmissions of the bottleneck to come round).

mod common;

use common::*;
use cwndlab_core::trace::EventKind;
use serde_json::json;

const S: u64 = 12 * MS;
const ACCESS: u64 = 12_000;
const EPSILON: u64 = 12_000 + 320 + 320_000 + 320 + 12_000;
const W: u64 = 5;

fn window_limited(scheduler: &str) -> cwndlab_core::sim::Simulation {
    let access = json!({"bandwidth": 1_000_000_000u64, "delay": 0.0, "queue_packets": 100});
    run(&scenario_from(
        json!({"duration": 5, "network": {"bottleneck": {"bandwidth": 1_000_000u64, "delay": 0.0,
                "queue_packets": 100, "scheduler": scheduler,
                "loss": {"model": "none"}, "reverse_loss": {"model": "none"}}},
               "flows": [{"algorithm": "newreno", "tcp": {"initial_window": W, "rwnd": W * 1460},
                          "rto": {"clock_tick": 1e-6},
                          "access": access, "receiver_access": access,
                          "app": {"kind": "bulk", "bytes": 300 * 1460}}]}),
        &[],
    ))
}

#[test]
fn queueing_delay_and_rtt_of_a_window_limited_flow_are_known_exactly() {
    let sim = window_limited("fifo");
    let f = &sim.summary().flows[0];
    assert_eq!((f.retransmits, f.drops.queue), (0, 0));
    let n = f.data_packets_sent;
    assert_eq!(n, 300);
    assert!(f.completion_time_s.is_some());
    // The first W wait i·(S − 12 µs), the rest (W − 1)·S − ε.
    let steady = (W - 1) * S - EPSILON;
    assert_eq!(steady, 47_655_360);
    let first: u64 = (0..W).map(|i| i * (S - ACCESS)).sum();
    let mean_ns = (first + (n - W) * steady) as f64 / n as f64;
    let got = f.qdelay_mean_ms.unwrap();
    assert!((got - mean_ns / 1e6).abs() < 1e-9, "{got} vs {}", mean_ns / 1e6);
    // The 95th percentile is the steady wait, as its histogram bucket's lower bound.
    let p95 = f.qdelay_p95_ms.unwrap() * 1e6;
    assert!(
        p95 <= steady as f64 && p95 >= steady as f64 * (1.0 - 1.0 / 512.0),
        "{p95}"
    );

    // The RTT metrics are those of the samples the RTT plot shows (its `rtt_sample` rows):
    // the first from the burst, then W·S each.
    let samples: Vec<u64> = events(&sim, &[EventKind::RttSample]).iter().map(|e| e.seq).collect();
    assert!(samples.len() > 40, "{}", samples.len());
    assert!(samples[1..].iter().all(|&r| r == W * S), "{samples:?}");
    let mean = samples.iter().sum::<u64>() as f64 / samples.len() as f64;
    assert!((f.rtt_mean_ms.unwrap() - mean / 1e6).abs() < 1e-9);
    let p95 = f.rtt_p95_ms.unwrap() * 1e6;
    assert!(
        p95 <= (W * S) as f64 && p95 >= (W * S) as f64 * (1.0 - 1.0 / 512.0),
        "{p95}"
    );
    // SRTT is not what is reported: it still carries the first sample's weight.
    assert_ne!(f.srtt_s * 1e3, f.rtt_mean_ms.unwrap());
}

#[test]
fn the_reservation_scheduler_measures_the_same_waits() {
    // With no reservation every packet is best effort at the link's full rate: the
    // scheduled bottleneck serves exactly as the FIFO one, and measures the same (it counts
    // a wait when the transmission starts, the FIFO link when the packet enters; the
    // transfer ends before the run, so both count every packet).
    let (fifo, sched) = (window_limited("fifo"), window_limited("reservation"));
    let (a, b) = (&fifo.summary().flows[0], &sched.summary().flows[0]);
    assert_eq!(a.data_packets_sent, b.data_packets_sent);
    assert_eq!(
        (a.qdelay_mean_ms, a.qdelay_p95_ms, a.rtt_mean_ms, a.rtt_p95_ms),
        (b.qdelay_mean_ms, b.qdelay_p95_ms, b.rtt_mean_ms, b.rtt_p95_ms)
    );
}

#[test]
fn the_delay_metrics_do_not_depend_on_what_is_recorded_or_how_the_run_is_sliced() {
    let s = scenario("cubic-bufferbloat", &[("duration", "8")]);
    let full = run(&s);
    let mut quiet = cwndlab_core::sim::Simulation::new(&s);
    quiet.set_recording(cwndlab_core::sim::Recording::Summary { digest: false });
    while !quiet.is_finished() {
        quiet.advance(37 * MS);
    }
    let (a, b) = (&full.summary().flows[0], &quiet.summary().flows[0]);
    assert_eq!(
        (a.qdelay_mean_ms, a.qdelay_p95_ms, a.rtt_mean_ms, a.rtt_p95_ms),
        (b.qdelay_mean_ms, b.qdelay_p95_ms, b.rtt_mean_ms, b.rtt_p95_ms)
    );
    // A deep buffer filled by NewReno: hundreds of ms of queueing, and RTT samples that
    // far above the path's 40 ms. (The means differ: the queueing delay is averaged over
    // packets, the RTT over samples, one per round trip, many more of them while the queue
    // was still short.)
    let (q, r) = (a.qdelay_mean_ms.unwrap(), a.rtt_mean_ms.unwrap());
    assert!(q > 100.0 && a.qdelay_p95_ms.unwrap() > q, "{q}");
    assert!(r > 40.0 && a.rtt_p95_ms.unwrap() > 40.0 + q, "rtt {r}, qdelay {q}");
}

#[test]
fn no_packet_no_delay() {
    // Before anything was sent there is nothing to average: null, not 0.
    let sim = cwndlab_core::sim::Simulation::new(&scenario("cubic-bufferbloat", &[]));
    let f = &sim.summary().flows[0];
    assert_eq!(
        (f.qdelay_mean_ms, f.qdelay_p95_ms, f.rtt_mean_ms, f.rtt_p95_ms),
        (None, None, None, None)
    );
}
