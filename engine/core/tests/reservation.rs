//! The reservation scheduler, cross traffic and the claims of source 002 (Komuro et al.
//! 2006) on its own setup: a TCP flow with a reserved class at a class-based router,
//! competing with non-reactive UDP.

mod common;

use common::*;
use cwndlab_core::scenario::Scenario;
use cwndlab_core::sim::Simulation;
use serde_json::{json, Value};

const MBIT: f64 = 1e6;

/// A 100 Mbit/s bottleneck (5 ms) with `scheduler`, one NewReno flow reserving 40 Mbit/s
/// behind a 400-packet buffer (deep enough that halving never empties the class), and the
/// given cross traffic.
fn shared(scheduler: &str, borrow: bool, cross: Value) -> Scenario {
    let access = json!({"bandwidth": 1_000_000_000u64, "delay": 0.002, "queue_packets": 1000});
    scenario_from(
        json!({"duration": 30, "network": {"bottleneck": {"bandwidth": 100_000_000u64, "delay": 0.005,
            "queue_packets": 400, "loss": {"model": "none"}, "reverse_loss": {"model": "none"},
            "scheduler": scheduler, "borrow": borrow}},
          "flows": [{"algorithm": "newreno", "reserved_bandwidth": 40_000_000u64,
            "access": access, "receiver_access": access, "tcp": {"rwnd": 10_000_000}}],
          "cross": cross}),
        &[],
    )
}

fn udp(rate: u64) -> Value {
    json!([{"kind": "cbr", "rate": rate, "packet_size": 1500}])
}

/// Bytes of throughput-table class `class` (column: 2 = bottleneck, 3 = delivered) in
/// bins starting in [from, to) seconds, as a rate in bit/s.
fn rate(sim: &Simulation, class: u32, col: usize, from: f64, to: f64) -> f64 {
    let (a, b) = ((from * 1e9) as u64, (to * 1e9) as u64);
    let bytes: u64 = sim
        .throughput()
        .rows
        .iter()
        .filter(|r| r.1 == class && r.0 >= a && r.0 < b)
        .map(|r| if col == 2 { r.2 } else { r.3 })
        .sum();
    bytes as f64 * 8.0 / (to - from)
}

#[test]
fn a_reserved_class_gets_its_rate_under_saturating_udp() {
    // UDP offers 100 Mbit/s; the reserved class is held to exactly 40 Mbit/s and best effort
    // to the remaining 60, with or without borrowing (both are backlogged all the time).
    for borrow in [false, true] {
        let sim = run(&shared("reservation", borrow, udp(100_000_000)));
        let tcp = rate(&sim, 0, 2, 10.0, 30.0);
        let cross = rate(&sim, 1, 2, 10.0, 30.0);
        // Within one 1500-byte packet over 20 s (600 bit/s) of the reserved rate; a
        // packet in flight at either end of the window may count on one side or the other.
        assert!(
            (tcp - 40.0 * MBIT).abs() <= 12_000.0 / 20.0 + 1.0,
            "{borrow}: TCP {tcp}"
        );
        assert!(
            (cross - 60.0 * MBIT).abs() <= 2.0 * 12_000.0 / 20.0,
            "{borrow}: UDP {cross}"
        );
        let s = sim.summary();
        assert!(s.cross[0].stats.queue_drops > 0, "UDP overflows its class");
    }
}

#[test]
fn with_a_fifo_router_the_same_udp_load_starves_tcp() {
    let fifo = run(&shared("fifo", false, udp(100_000_000)));
    let reserved = run(&shared("reservation", false, udp(100_000_000)));
    let (f, r) = (fifo.summary(), reserved.summary());
    let (gf, gr) = (f.flows[0].goodput_bps, r.flows[0].goodput_bps);
    assert!(gr > 35.0 * MBIT, "reserved: {gr}");
    assert!(
        gf < 0.05 * gr,
        "FIFO: TCP gets {gf} bit/s against {gr} with the reservation"
    );
    assert!(f.cross[0].delivered_bps > 95.0 * MBIT, "{}", f.cross[0].delivered_bps);
    assert!(f.flows[0].timeouts > 0);
}

#[test]
fn borrowing_lends_capacity_the_udp_source_leaves_idle() {
    // UDP stops at 10 s. Bounded (no borrowing): TCP stays at 40 Mbit/s on an idle link.
    // With borrowing it takes the whole 100 Mbit/s (as far as its window allows).
    let cross = json!([{"kind": "cbr", "rate": 100_000_000u64, "packet_size": 1500, "stop": 10.0}]);
    let bounded = run(&shared("reservation", false, cross.clone()));
    let lent = run(&shared("reservation", true, cross));
    let b = rate(&bounded, 0, 2, 15.0, 30.0);
    let l = rate(&lent, 0, 2, 15.0, 30.0);
    assert!(b <= 40.0 * MBIT + 12_000.0 / 15.0, "bounded: {b}");
    assert!(l > 80.0 * MBIT, "borrowing: {l}");
}

#[test]
fn cross_traffic_packets_are_all_accounted_for() {
    // Sources stop before the end, so nothing is left in flight: every packet sent was
    // delivered, dropped at the tail, or lost on the wire.
    let mut doc = shared("fifo", false, json!([])).to_value();
    doc["cross"] = json!([
        {"kind": "cbr", "rate": 70_000_000u64, "stop": 20.0},
        {"kind": "poisson", "rate": 30_000_000u64, "packet_size": 500, "stop": 20.0},
        {"kind": "on_off", "rate": 50_000_000u64, "on": 0.5, "off": 0.5, "stop": 20.0},
        {"kind": "cbr", "rate": 5_000_000u64, "reverse": true, "stop": 20.0}
    ]);
    doc["network"]["bottleneck"]["loss"] = json!({"model": "bernoulli", "ber": 0.0, "probability": 0.01});
    let s = Scenario::from_value(&doc).unwrap();
    let sim = run(&s);
    let sum = sim.summary();
    for c in &sum.cross {
        let st = c.stats;
        assert_eq!(
            st.sent_packets,
            st.delivered_packets + st.queue_drops + st.error_drops,
            "source {}",
            c.source
        );
        assert!(st.sent_packets > 0);
    }
    assert!(sum.cross[0].stats.queue_drops > 0 && sum.cross[0].stats.error_drops > 0);
    assert_eq!(sum.cross[3].stats.error_drops, 0, "no random loss on the ACK direction");
    // CBR: 70 Mbit/s for 20 s of 1500-byte packets = 116 666.7 → 116 667 packets.
    assert_eq!(sum.cross[0].stats.sent_packets, 116_667);
    // On/off: on half the time at 50 Mbit/s → 20 × 0.5 × 50e6 / 12 000 = 41 666.7.
    assert_eq!(sum.cross[2].stats.sent_packets, 41_667);
    // The throughput table adds up to the summary, flow and sources alike.
    let total = |class: u32, col: usize| -> u64 {
        sim.throughput()
            .rows
            .iter()
            .filter(|r| r.1 == class)
            .map(|r| if col == 2 { r.2 } else { r.3 })
            .sum()
    };
    assert_eq!(total(0, 3), sum.flows[0].delivered_bytes);
    for (k, c) in sum.cross.iter().enumerate() {
        assert_eq!(total(1 + k as u32, 3), c.stats.delivered_bytes, "source {k}");
    }
    assert_eq!(total(4, 2), 0, "reverse traffic never crosses the forward bottleneck");
}

#[test]
fn reverse_udp_competes_with_the_acks() {
    let mut s = shared(
        "fifo",
        false,
        json!([{"kind": "cbr", "rate": 100_000_000u64, "reverse": true}]),
    );
    s.network.bottleneck.queue_packets = 50;
    let sum = run(&s).summary();
    assert!(sum.flows[0].drops.ack_queue > 0, "{:?}", sum.flows[0].drops);
    assert!(sum.cross[0].stats.queue_drops > 0);
}

#[test]
fn bad_reservation_and_cross_settings_are_refused_with_their_paths() {
    let bad = |v: Value| -> Vec<String> {
        Scenario::from_value(&v)
            .unwrap_err()
            .iter()
            .map(|p| p.to_string())
            .collect()
    };
    let over = bad(
        json!({"network": {"bottleneck": {"bandwidth": 10_000_000u64, "scheduler": "reservation"}},
        "flows": [{"reserved_bandwidth": 6_000_000u64}, {"reserved_bandwidth": 5_000_000u64}]}),
    );
    assert!(
        over[0].starts_with(
            "flows[].reserved_bandwidth: reservations add up to 11000000 bit/s, above the bottleneck's 10000000 bit/s"
        ),
        "{over:?}"
    );
    // The same reservations on a FIFO bottleneck are not enforced, so not refused.
    assert!(
        Scenario::from_value(&json!({"network": {"bottleneck": {"bandwidth": 10_000_000u64}},
        "flows": [{"reserved_bandwidth": 6_000_000u64}, {"reserved_bandwidth": 5_000_000u64}]}))
        .is_ok()
    );
    let items = bad(json!({"duration": 10, "cross": [
        {"kind": "vbr"}, {"rate": 0}, {"kind": "cbr", "colour": 1}, {"start": 4, "stop": 2}, {"start": 10},
        {"reverse": "yes"}]}));
    let want = [
        "cross[0].kind = \"vbr\" is not allowed; allowed: \"cbr\", \"poisson\", \"on_off\", \"ping\"",
        "cross[1].rate = 0 is not allowed; allowed whole numbers 1000 to 100000000000 bit/s",
        "cross[2].colour: unknown field; expected: kind, rate, packet_size, start, stop, on, off, reverse, interval",
        "cross[5].reverse = \"yes\" is a string; expected true or false",
    ];
    for w in want {
        assert!(items.iter().any(|t| t == w), "missing {w:?} in {items:#?}");
    }
    // Value checks come first; the rules across fields once each value is valid.
    let rules = bad(json!({"duration": 10, "cross": [{"start": 4, "stop": 2}, {"start": 10}]}));
    assert_eq!(
        rules,
        [
            "cross[0].stop = 2 s is not after start = 4 s (0 means until the end)",
            "cross[1].start = 10 s is not before the end of the run (duration = 10 s)"
        ]
    );
}

/// Goodput (Mbit/s), coefficient of variation of cwnd from `steady` s to the end (time
/// weighted) and timeouts on a BR-TCP preset.
fn komuro(preset: &str, alg: &str, sets: &[(&str, &str)], steady: f64) -> (f64, f64, u64) {
    let mut all = vec![("flows[0].algorithm", alg)];
    all.extend_from_slice(sets);
    let sim = run(&scenario(preset, &all));
    let f = sim.summary().flows[0].clone();
    let end = sim.now();
    let from = (steady * 1e9) as u64;
    let rows = &sim.series(0).rows;
    let (mut w, mut s1, mut s2) = (0.0, 0.0, 0.0);
    for (k, (t, st)) in rows.iter().enumerate() {
        let next = rows.get(k + 1).map_or(end, |r| r.0);
        let (a, b) = ((*t).max(from), next.min(end));
        if b > a {
            let (dt, c) = ((b - a) as f64, st.cwnd as f64);
            w += dt;
            s1 += c * dt;
            s2 += c * c * dt;
        }
    }
    let mean = s1 / w;
    let cv = (s2 / w - mean * mean).max(0.0).sqrt() / mean;
    (f.goodput_bps / MBIT, cv, f.timeouts)
}

#[test]
fn on_the_papers_setup_br_tcp_beats_newreno_with_a_steadier_window() {
    // Figures 4–8: 40 Mbit/s reserved, RTT 58 ms, 100-packet buffers, 100 Mbit/s of UDP.
    let nr = komuro("br-tcp-komuro", "newreno", &[], 15.0);
    let br = komuro("br-tcp-komuro", "br_tcp", &[], 15.0);
    assert!(br.0 >= nr.0, "BR-TCP {br:?} vs NewReno {nr:?}");
    assert!(br.1 < nr.1, "cwnd CV after 15 s: BR-TCP {br:?} vs NewReno {nr:?}");
    // Pinned (30 s): after its first slow-start overshoot, RFC 6582 NewReno (impatient
    // timer) falls into a cycle of timeouts, each slow start overshooting the 100-packet
    // class queue again; BR-TCP's ssthresh (193 packets) stops slow start below the point
    // of overflow (293), so it recovers once and stays between 193 and 296 packets.
    assert_eq!(((nr.0 * 10.0).round() / 10.0, nr.2), (7.7, 16));
    assert_eq!(((br.0 * 10.0).round() / 10.0, br.2), (36.3, 1));
    // UDP keeps exactly the unreserved 60 Mbit/s either way.
    let s = run(&scenario("br-tcp-komuro", &[])).summary();
    assert!((s.cross[0].delivered_bps - 60.0 * MBIT).abs() < 0.1 * MBIT);
}

#[test]
fn the_steady_state_gain_grows_with_rtt_and_with_the_reservation() {
    // Figures 13–14, with ns-2's NewReno timer (restarted on every partial ACK, as
    // tcp-newreno.cc does by default) over 120 s, so neither variant times out and the
    // difference is the window each keeps after a loss. NewReno halves from BDP + 100
    // packets, BR-TCP falls to the BDP: the pipe stays full for both while the reserved
    // BDP is at most the buffer (40 Mbit/s at RTT 28 ms: 93 packets), and BR-TCP gains
    // more the further the BDP exceeds it.
    let gain = |delay: &str, res: &str| {
        let sets = [
            ("duration", "120"),
            ("network.bottleneck.delay", delay),
            ("flows[0].reserved_bandwidth", res),
            ("flows[0].cc.newreno_timer", "every_partial"),
        ];
        komuro("br-tcp-komuro", "br_tcp", &sets, 0.0).0 / komuro("br-tcp-komuro", "newreno", &sets, 0.0).0
    };
    let by_rtt: Vec<f64> = ["0.010", "0.015", "0.020", "0.025"]
        .iter()
        .map(|d| gain(d, "40000000"))
        .collect();
    assert!((by_rtt[0] - 1.0).abs() < 0.005, "{by_rtt:?}");
    assert!(by_rtt.windows(2).all(|w| w[1] > w[0]), "{by_rtt:?}");
    let by_res: Vec<f64> = ["10000000", "20000000", "30000000", "40000000"]
        .iter()
        .map(|r| gain("0.025", r))
        .collect();
    assert!(by_res.windows(2).all(|w| w[1] >= w[0] - 0.001), "{by_res:?}");
    assert!(by_res[3] > by_res[1] + 0.02, "{by_res:?}");
}

#[test]
fn without_the_reservation_neither_variant_gets_anywhere() {
    let nr = komuro("br-tcp-komuro-fifo", "newreno", &[], 0.0);
    let br = komuro("br-tcp-komuro-fifo", "br_tcp", &[], 0.0);
    assert!(nr.0 < 1.0 && br.0 < 1.0, "{nr:?} {br:?}");
}
