use super::*;

const MS: Ns = 1_000_000;

fn pie() -> Pie {
    Pie::new(&PieCfg::default())
}

#[test]
fn p_after_k_updates_of_a_constant_delay_follows_the_auto_tuning_table() {
    // qdelay held at 30 ms, target 15 ms, α 0.125/s, β 1.25/s, from p = 0 and
    // qdelay_old = 0. Update 1: p < 0.0001 % so α and β are ÷2048:
    // 0.125·0.015/2048 + 1.25·0.030/2048 = 1.9226e-5. Updates 2–7: the delay no longer
    // changes, and 0.001 % ≤ p < 0.01 % gives ÷128: + 0.125·0.015/128 = 1.4648e-5 each, so
    // p7 = 1.9226e-5 + 6·1.4648e-5 = 1.0711e-4. From update 8 p ≥ 0.01 %: ÷32, + 5.859e-5.
    // In the fixed point (2⁻⁵⁶; α = 9 007 199 and β = 90 071 992 per ns, shifted right 11,
    // 7 and 5 places) the same steps are exact integers.
    let mut q = pie();
    q.qdelay = 30 * MS;
    let mut ps = Vec::new();
    for _ in 0..8 {
        q.update(100_000);
        ps.push(q.p);
    }
    assert_eq!(ps[0], 4398 * 15 * MS + 43_980 * 30 * MS);
    assert_eq!(ps[0], 1_385_370_000_000);
    assert_eq!(ps[1], ps[0] + 70_368 * 15 * MS);
    assert_eq!(ps[6], 7_718_490_000_000);
    assert_eq!(ps[7], ps[6] + 281_474 * 15 * MS);
    let real = |p: u64| p as f64 / ONE as f64;
    for (k, want) in [(0, 1.9226e-5), (1, 3.3874e-5), (6, 1.0711e-4), (7, 1.6571e-4)] {
        assert!((real(ps[k]) - want).abs() < 1e-8, "update {}: {}", k + 1, real(ps[k]));
    }
}

#[test]
fn no_early_drop_within_the_burst_allowance() {
    // A standing 30 ms delay from t = 0 with 100 kB waiting and a departure every 1 ms:
    // the first departure starts the clock, and each later one takes 1 ms off the 150 ms
    // allowance, which the departure at 150 ms spends. Before it, even a draw of 0 drops
    // nothing; from it, the first arrival with u < p is dropped (p > 0 from the first
    // update at 15 ms).
    let mut q = pie();
    let mut first = None;
    for t in (0..=200).map(|k| k * MS) {
        q.advance(t, 100_000, |_, _| {});
        q.measure(t, t.saturating_sub(30 * MS), 100_000);
        if first.is_none() && q.decide(100_000, |_| 0).is_some() {
            first = Some(t);
        }
    }
    assert_eq!(first, Some(150 * MS));
}

#[test]
fn the_safeguards_hold_back_early_drops() {
    let mut q = pie();
    q.burst = 0;
    q.qdelay = 5 * MS; // below target/2 = 7.5 ms
    q.p = ONE / 100 * 15;
    assert_eq!(q.decide(100_000, |_| 0), None, "qdelay < target/2 and p < 20 %");
    q.p = ONE / 100 * 25;
    assert!(
        q.decide(100_000, |_| 0).is_some(),
        "p ≥ 20 %: the delay test no longer holds"
    );
    q.qdelay = 20 * MS;
    q.p = ONE / 100;
    assert_eq!(q.decide(2999, |_| 0), None, "fewer than 2 MTU (3 000 B) waiting");
    assert!(q.decide(3000, |_| 0).is_some());
    // The draw: u is its top 56 bits; a drop when u < p (p = 1 %).
    let at = |u: u64| u << 8;
    assert!(q.decide(100_000, |_| at(ONE / 100 - 1)).is_some());
    assert_eq!(q.decide(100_000, |_| at(ONE / 100)), None);
}

#[test]
fn an_idle_queue_decays_and_re_arms_its_burst_allowance() {
    // An update with delay 0 (qdelay and qdelay_old both 0) steps by α·(0 − target),
    // then p −= p/64 on top. Once p reaches 0 with both delays below target/2, the burst
    // allowance is re-armed, and stays armed while the queue is idle.
    let mut q = pie();
    q.p = ONE / 10;
    q.qdelay_old = 0;
    q.qdelay = 0;
    q.burst = 0;
    let (a, _) = q.scaled();
    let stepped = ONE / 10 - a * 15 * MS;
    q.update(0);
    assert_eq!(q.p, stepped - stepped / 64);
    for _ in 0..10_000 {
        q.update(0);
    }
    assert_eq!((q.p, q.burst), (0, 150 * MS));
}

#[test]
fn lazy_updates_equal_one_update_per_tupdate() {
    // A queue that built p, then went idle for 10 s: advancing in one call (which skips the
    // updates once they change nothing) gives the state of 666 updates one by one.
    let mut lazy = pie();
    lazy.qdelay = 40 * MS;
    lazy.burst = 0;
    for _ in 0..20 {
        lazy.update(50_000);
    }
    lazy.next = 21 * 15 * MS;
    lazy.qdelay = 0;
    let mut steps = lazy.clone();
    let mut rows = 0;
    lazy.advance(10_000 * MS, 0, |_, _| rows += 1);
    while steps.next <= 10_000 * MS {
        steps.update(0);
        steps.next += steps.tupdate;
    }
    assert_eq!(lazy, steps);
    assert!(rows < 666, "{rows} rows: the fixed point is skipped");
}

#[test]
fn a_delay_sequence_moves_p_by_the_integral_and_proportional_terms_with_the_caps() {
    // RFC 8033 §4.2 by hand, α = 0.125/s, β = 1.25/s, target 15 ms, from p = 5 % with
    // qdelay_old = 20 ms. While p < 10 % both are halved (α' = 0.0625, β' = 0.625); from
    // 10 % on they are whole, and Δp is held to 2 % (+2 % more above 250 ms of delay):
    //   1. 10 ms:  0.0625·(−0.005) + 0.625·(−0.010) = −0.0065625 → p = 0.0434375
    //   2. 40 ms:  0.0625·0.025 + 0.625·0.030 = 0.0203125 (p < 10 %: no cap) → 0.06375
    //   3. 60 ms:  0.0625·0.045 + 0.625·0.020 = 0.0153125 → 0.0790625
    //   4. 80 ms:  0.0625·0.065 + 0.625·0.020 = 0.0165625 → 0.095625
    //   5. 100 ms: 0.0625·0.085 + 0.625·0.020 = 0.0178125 → 0.1134375
    //   6. 120 ms: 0.125·0.105 + 1.25·0.020 = 0.038125, held to 0.02 → 0.1334375
    //   7. 300 ms: 0.125·0.285 + 1.25·0.180 = 0.260625, held to 0.02, + 0.02 → 0.1734375
    //   8. 100 ms: 0.125·0.085 + 1.25·(−0.200) = −0.239375 → below 0: p = 0
    // The fixed point truncates α and β per ns (9 007 199 and 90 071 992 in 2⁻⁵⁶), a
    // relative error of 3e-8: every step within 1e-8 of the paper's, and the held steps
    // exactly 2 % (ONE/50) and 4 %.
    let mut q = pie();
    q.p = ONE / 20;
    q.qdelay_old = 20 * MS;
    let mut ps = Vec::new();
    for d in [10, 40, 60, 80, 100, 120, 300, 100] {
        q.qdelay = d * MS;
        q.update(100_000);
        ps.push(q.p);
        assert_eq!(q.qdelay_old, d * MS, "the update keeps the delay it used");
    }
    let real = |p: u64| p as f64 / ONE as f64;
    let want = [
        0.0434375, 0.06375, 0.0790625, 0.095625, 0.1134375, 0.1334375, 0.1734375, 0.0,
    ];
    for (k, (&p, w)) in ps.iter().zip(want).enumerate() {
        assert!((real(p) - w).abs() < 1e-8, "update {}: {} against {w}", k + 1, real(p));
    }
    assert_eq!(ps[5], ps[4] + ONE / 50, "held to 2 %");
    assert_eq!(ps[6], ps[5] + 2 * (ONE / 50), "held to 2 %, and 2 % more above 250 ms");
}
