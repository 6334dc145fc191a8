//! BBR's arithmetic and state, pinned.

use super::*;

#[test]
fn gains_are_linuxs_fixed_point_values() {
    assert_eq!((HIGH_GAIN, DRAIN_GAIN, CWND_GAIN), (739, 88, 512));
    assert_eq!(PACING_GAIN, [320, 192, 256, 256, 256, 256, 256, 256]);
    assert_eq!(BW_WINDOW_ROUNDS, 10);
    assert_eq!((MIN_RTT_WINDOW, PROBE_RTT_TIME), (10_000_000_000, 200_000_000));
}

#[test]
fn the_max_filter_keeps_the_best_of_ten_rounds() {
    let mut f = MaxFilter::default();
    assert_eq!(f.update(10, 1, 100), 100);
    assert_eq!(f.update(10, 2, 50), 100);
    // Round 11 is still within 10 rounds of round 1.
    assert_eq!(f.update(10, 11, 60), 100);
    // Round 12: the best (round 1) has aged out; the second choice (taken after a
    // quarter of the window without a new best) takes over.
    assert_eq!(f.update(10, 12, 40), 60);
    // A new maximum replaces everything at once.
    assert_eq!(f.update(10, 13, 500), 500);
    // Nothing left in the window: reset to the sample.
    assert_eq!(f.update(10, 40, 7), 7);
}

#[test]
fn bdp_and_quantum() {
    // 10 Mbit/s = 1.25 MB/s over 40 ms: 50 000 B, ×2.885 (739/256) = 144 336 B (ceil).
    assert_eq!(bdp_bytes(1_250_000, 40_000_000, UNIT), 50_000);
    assert_eq!(bdp_bytes(1_250_000, 40_000_000, HIGH_GAIN), 144_336);
    assert_eq!(send_quantum(100_000, 1448), 1448, "0.8 Mbit/s: one segment");
    assert_eq!(send_quantum(1_250_000, 1448), 2896, "10 Mbit/s: two");
    assert_eq!(send_quantum(12_500_000, 1448), 12_500, "100 Mbit/s: 1 ms of pacing");
    assert_eq!(send_quantum(125_000_000, 1448), 65_536, "1 Gbit/s: 64 KB");
    let b = Bbr {
        min_rtt: 40_000_000,
        pacing_rate: 1_250_000,
        bw: {
            let mut f = MaxFilter::default();
            f.update(10, 1, 1_250_000);
            f
        },
        ..Bbr::default()
    };
    // ⌈50 000 / 1 448⌉ = 35 segments = 50 680 B, + 3 quanta of 2 segments.
    assert_eq!(b.inflight(UNIT, 1448, 14480), 50_680 + 3 * 2896);
    assert_eq!(Bbr::default().inflight(UNIT, 1448, 14480), 14480, "no RTT yet: IW");
}

#[test]
fn the_initial_pacing_rate_is_high_gain_times_iw_over_rtt() {
    // 10 × 1 448 B / 40 ms × 739/256 = 1 044 992.19 → 1 044 992 B/s.
    assert_eq!(init_pacing(14_480, 40_000_000), 1_044_992);
    // No RTT: 1 ms.
    assert_eq!(init_pacing(14_480, 0), 41_799_687);
}

#[test]
fn probe_bw_never_starts_in_the_drain_phase() {
    let mut seen = [false; CYCLE_LEN];
    for key in 0..200u64 {
        let draw = crate::rng::hash_more(key, &[0]) % CYCLE_RAND;
        seen[(CYCLE_LEN - 1 - draw as usize + 1) % CYCLE_LEN] = true;
    }
    assert!(!seen[1], "3/4 is never the first phase");
    assert!(seen.iter().enumerate().all(|(i, &s)| s || i == 1));
}
