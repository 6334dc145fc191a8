//! Linux's growth gates (issue 10, source 004 §2.2): `linux_3_15` (`tcp_is_cwnd_limited`
//! with the packets in flight) and `linux_3_16` (commit ca8a22634381, measurement-based),
//! against RFC 5681's `always`, on the ccwg draft's packetdrill example
//! (slow-start-app-limited): IW 10, an application that writes exactly 10 segments, ACKs
//! for every second segment; later 4 more segments.

mod common;

use common::*;
use serde_json::json;

const MSS: u64 = 1460;

/// cwnd in segments after each change, for a gate.
fn cwnds(gate: &str) -> Vec<u64> {
    let s = scenario_from(
        json!({"duration": 3, "network": {"bottleneck": {"bandwidth": 10_000_000u64, "delay": 0.05,
                "queue_packets": 100, "loss": {"model": "none"}, "reverse_loss": {"model": "none"}}},
               "flows": [{"algorithm": "newreno", "tcp": {"initial_window": 10},
                          "cc": {"growth_gate": gate, "slow_start": "abc", "abc_limit": 2},
                          "receiver": {"delayed_ack": true},
                          "app": {"kind": "scripted", "writes": [{"at": 0.0, "bytes": 10 * MSS},
                                                                 {"at": 1.0, "bytes": 4 * MSS}]}}]}),
        &[],
    );
    let sim = run(&s);
    let mut out: Vec<u64> = vec![];
    for (_, r) in &sim.series(0).rows {
        let c = r.cwnd / MSS;
        if out.last() != Some(&c) {
            out.push(c);
        }
    }
    out
}

#[test]
fn rfc5681_grows_on_every_ack_even_for_an_application_limited_sender() {
    assert_eq!(cwnds("always"), vec![10, 12, 14, 16, 18, 20, 22, 24]);
}

#[test]
fn linux_3_16_grows_in_slow_start_to_twice_the_largest_flight_and_no_further() {
    // 10 packets out, cwnd-limited: grow while cwnd < 2 × 10. The 4-packet flight later is
    // the new record (the earlier window is acknowledged); 20 < 8 fails: no growth.
    assert_eq!(cwnds("linux_3_16"), vec![10, 12, 14, 16, 18, 20]);
}

#[test]
fn linux_3_15_grows_only_while_the_flight_fills_cwnd() {
    // The first ACK arrives with 10 of 10 out: 12. The next with 8 of 12 out: 4 unused,
    // more than 3 and not under a third of 12: no growth, nor later.
    assert_eq!(cwnds("linux_3_15"), vec![10, 12]);
}
