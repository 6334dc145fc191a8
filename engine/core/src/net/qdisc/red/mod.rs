//! Random Early Detection (Floyd & Jacobson 1993, §4 and Figure 2): at each arrival the
//! average queue is updated, and between the thresholds the arrival is dropped with a
//! probability that grows with the average and with the arrivals since the last drop.
//!
//! - avg ← (1 − w_q)·avg + w_q·q at each arrival, q the packets (bytes) waiting, not
//!   counting the one being transmitted (ns-2's `q_->length()`, Linux's backlog).
//! - An arrival to an empty system first decays the average as if m packets of the
//!   reference size had arrived to an empty queue during the idle time:
//!   avg ← (1 − w_q)^m·avg, m = ⌊idle · rate / (8 · packet_size)⌋ (the paper's
//!   m = f(time − q_time); ns-2 computes the same m, then also applies the arrival's own
//!   step with q = 0, which this model does not: an arrival to an empty queue has q = 0 only
//!   in the paper's sense of "the queue was empty").
//! - avg < min_th: no drop, count = −1. min_th ≤ avg < max_th: count += 1,
//!   p_b = max_p·(avg − min_th)/(max_th − min_th) (byte mode: × size / packet_size),
//!   p_a = p_b / (1 − count·p_b) (1 once count·p_b ≥ 1), drop when the draw u < p_a, and then
//!   count = 0. avg ≥ max_th: drop, count = 0. Gentle (Floyd 2000): between max_th and
//!   2·max_th, p_b = max_p + (1 − max_p)·(avg − max_th)/max_th with the same spacing, and
//!   only at 2·max_th every arrival is dropped.
//!
//! Integers only, so native and wasm agree: avg is kept in units of 2⁻³² packets (bytes),
//! probabilities in units of 2⁻³², and the draw is the top 32 bits of a counter-based hash
//! of (seed, link, "red", the link's draw count) (`rng.rs`): never a global generator, and
//! independent of the order of events. w_q and max_p are turned into these units once, by
//! an IEEE multiply and truncation (exact on every platform).

pub mod settings;

use crate::rng::hash_words;
use settings::RedCfg;

/// 1.0 in the fixed-point units (2³²).
pub const ONE: u64 = 1 << 32;

/// Distinguishes RED's draws from every other draw keyed by (seed, link).
const RED_WORD: u64 = 0x0000_0000_0072_6564; // "red" in ASCII

/// A real number in [0, 2³²) as a count of 2⁻³² (truncated).
fn q32(x: f64) -> u64 {
    (x * ONE as f64) as u64
}

/// `base^exp` for a base in units of 2⁻³² (≤ 1), by repeated squaring, each product
/// truncated: a fixed sequence of integer operations.
pub fn pow_q32(base: u64, mut exp: u64) -> u64 {
    let mut result = ONE as u128;
    let mut b = base as u128;
    while exp > 0 {
        if exp & 1 == 1 {
            result = (result * b) >> 32;
        }
        b = (b * b) >> 32;
        exp >>= 1;
        if b == 0 {
            return if exp == 0 { result as u64 } else { 0 };
        }
    }
    result as u64
}

/// One arrival's RED arithmetic (what the explanation of a drop shows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RedWhy {
    /// The instantaneous queue q, packets or bytes.
    pub q: u64,
    /// Idle-time packets m (0 unless the arrival found the system empty).
    pub m: u64,
    /// The average after this arrival, in 2⁻³² units.
    pub avg: u128,
    /// count after this arrival (−1 below min_th).
    pub count: i64,
    /// p_b and p_a, in 2⁻³² units (ONE = certain).
    pub p_b: u64,
    pub p_a: u64,
    /// The draw (top 32 bits of the hash), u = draw / 2³²; `u64::MAX` when none was made.
    pub draw: u64,
    /// How the arrival fared: 0 passed, 1 dropped by the draw, 2 dropped because avg ≥ max_th
    /// (gentle: ≥ 2·max_th).
    pub verdict: u8,
}

/// A RED queue's state.
#[derive(Clone, Debug)]
pub struct Red {
    min_th: u128,
    max_th: u128,
    max_p: u64,
    w: u64,
    gentle: bool,
    /// Byte mode.
    pub bytes: bool,
    /// The reference packet size, bytes.
    pub packet_size: u64,
    /// Average queue, 2⁻³² packets (bytes).
    pub avg: u128,
    /// Arrivals since the last drop (−1: below min_th).
    pub count: i64,
    /// The last p_a computed (2⁻³² units; 0 below min_th).
    pub p: u64,
    draws: u64,
}

impl Red {
    /// A RED queue from its settings (thresholds in bytes in byte mode: × packet_size).
    pub fn new(c: &RedCfg) -> Red {
        let scale = if c.bytes { c.packet_size as f64 } else { 1.0 };
        Red {
            min_th: (q32(c.min_th * scale / 65_536.0) as u128) << 16,
            max_th: (q32(c.max_th * scale / 65_536.0) as u128) << 16,
            max_p: q32(c.max_p).min(ONE),
            w: q32(c.w_q).min(ONE),
            gentle: c.gentle,
            bytes: c.bytes,
            packet_size: c.packet_size,
            avg: 0,
            count: -1,
            p: 0,
            draws: 0,
        }
    }

    /// min_th and max_th in the queue's unit, 2⁻³² units.
    pub fn thresholds(&self) -> (u128, u128) {
        (self.min_th, self.max_th)
    }

    /// Idle-time packets: how many packets of the reference size the link could have sent
    /// in `idle` ns at `bandwidth` bit/s.
    pub fn idle_packets(&self, idle: crate::time::Ns, bandwidth: u64) -> u64 {
        (idle as u128 * bandwidth as u128 / (8 * self.packet_size as u128 * crate::time::NS_PER_S as u128)) as u64
    }

    /// Updates the average for an arrival that finds `q` waiting (packets or bytes), after
    /// `m` idle-time packets when it found the system empty (`empty`).
    pub fn average(&mut self, q: u64, empty: bool, m: u64) {
        if empty {
            self.avg = (self.avg * pow_q32(ONE - self.w, m) as u128) >> 32;
        } else {
            self.avg = (self.avg * (ONE - self.w) as u128 + ((q as u128) << 32) * self.w as u128) >> 32;
        }
    }

    /// p_b for the current average and a packet of `size` bytes (2⁻³² units).
    fn p_b(&self, size: u32) -> u64 {
        let p = if self.avg < self.max_th {
            let num = self.max_p as u128 * (self.avg - self.min_th);
            (num / (self.max_th - self.min_th)) as u64
        } else {
            // Gentle: from max_p at max_th to 1 at 2·max_th.
            let rise = (ONE - self.max_p) as u128 * (self.avg - self.max_th) / self.max_th.max(1);
            self.max_p + rise.min(ONE as u128) as u64
        };
        let p = if self.bytes {
            (p as u128 * size as u128 / self.packet_size as u128) as u64
        } else {
            p
        };
        p.min(ONE)
    }

    /// The decision for an arrival of `size` bytes finding `q` waiting (after `average`):
    /// `draw` gives the next 64-bit hash when a draw is needed.
    pub fn decide(&mut self, q: u64, m: u64, size: u32, draw: impl FnOnce(u64) -> u64) -> RedWhy {
        let mut why = RedWhy {
            q,
            m,
            avg: self.avg,
            count: self.count,
            p_b: 0,
            p_a: 0,
            draw: u64::MAX,
            verdict: 0,
        };
        let limit = if self.gentle { 2 * self.max_th } else { self.max_th };
        if self.avg >= limit {
            self.count = 0;
            self.p = ONE;
            why.p_b = ONE;
            why.p_a = ONE;
            why.verdict = 2;
        } else if self.avg >= self.min_th {
            self.count += 1;
            let p_b = self.p_b(size);
            // p_a = p_b / (1 − count·p_b); 1 once count·p_b reaches 1.
            let used = self.count as u128 * p_b as u128;
            let p_a = if used >= ONE as u128 {
                ONE
            } else {
                ((p_b as u128) << 32).div_ceil(ONE as u128 - used).min(ONE as u128) as u64
            };
            let n = self.draws;
            self.draws += 1;
            let u = draw(n) >> 32;
            why.p_b = p_b;
            why.p_a = p_a;
            why.draw = u;
            why.count = self.count;
            self.p = p_a;
            if u < p_a {
                self.count = 0;
                why.verdict = 1;
            }
        } else {
            self.count = -1;
            self.p = 0;
        }
        if why.verdict == 2 {
            why.count = 0;
        }
        why
    }
}

/// RED's draw `n` on link `link`: a pure function of (seed, link, n).
pub fn red_draw(seed: u64, link: u32, n: u64) -> u64 {
    hash_words(&[seed, link as u64, RED_WORD, n])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paper() -> Red {
        Red::new(&RedCfg::default())
    }

    fn packets(avg: u128) -> f64 {
        avg as f64 / ONE as f64
    }

    #[test]
    fn the_average_of_a_constant_queue_after_n_arrivals() {
        // avg_n = q·(1 − (1 − w_q)^n): q = 10, w_q = 0.002, n = 100 gives
        // 10·(1 − 0.998^100) = 10·(1 − 0.8185668) = 1.814332; n = 1000: 10·(1 − 0.1350645)
        // = 8.649355. The fixed point truncates w_q to 8 589 934 / 2³² (0.0019999999)
        // and each step by < 2⁻³²: within 1e-6 packets.
        let mut r = paper();
        for _ in 0..100 {
            r.average(10, false, 0);
        }
        assert!((packets(r.avg) - 1.814_332).abs() < 1e-6, "{}", packets(r.avg));
        for _ in 100..1000 {
            r.average(10, false, 0);
        }
        assert!((packets(r.avg) - 8.649_355).abs() < 1e-6, "{}", packets(r.avg));
    }

    #[test]
    fn an_idle_period_decays_the_average_by_m_packet_times() {
        // 10 Mbit/s, 500 B reference packets: 400 µs each, so 40 ms idle is m = 100, and
        // avg 8 decays to 8·0.998^100 = 6.548535.
        let mut r = paper();
        r.avg = 8 << 32;
        let m = r.idle_packets(40_000_000, 10_000_000);
        assert_eq!(m, 100);
        r.average(0, true, m);
        assert!((packets(r.avg) - 6.548_535).abs() < 1e-5, "{}", packets(r.avg));
        assert_eq!(pow_q32(ONE, 1_000_000), ONE, "(1 − 0)^m stays 1");
        assert_eq!(pow_q32(ONE / 2, 3), ONE / 8);
    }

    #[test]
    fn p_a_grows_with_the_count_since_the_last_drop() {
        // avg 10 between min_th 5 and max_th 15, max_p 1/50: p_b = 0.02·5/10 = 0.01.
        // count c gives p_a = 0.01 / (1 − c·0.01): c = 0 → 0.01, 50 → 0.02, 98 → 0.5,
        // 99 → 1 (and 1 from then on).
        let mut r = paper();
        r.avg = 10 << 32;
        let never = |_| u64::MAX;
        let mut seen = Vec::new();
        for c in 0..=100 {
            let why = r.decide(3, 0, 1500, never);
            assert_eq!(why.count, c);
            seen.push(why.p_a as f64 / ONE as f64);
        }
        assert!((seen[0] - 0.01).abs() < 1e-9, "{}", seen[0]);
        assert!((seen[50] - 0.02).abs() < 1e-9, "{}", seen[50]);
        // p_b is 0.01 truncated to 42 949 672 / 2³², so 1 − 98·p_b is off by ~1e-6 of
        // itself: p_a within 1e-6 of 0.5.
        assert!((seen[98] - 0.5).abs() < 1e-6, "{}", seen[98]);
        // At 99, 1 − 99·p_b is 0.01 exactly on paper; with p_b truncated it is 2e-8
        // more, so p_a = 0.999998 and the certain drop comes at 100.
        assert!(seen[99] > 0.999_99 && seen[99] <= 1.0, "{}", seen[99]);
        assert_eq!(seen[100], 1.0);
        // A draw of 0 drops at once and restarts the count.
        let why = r.decide(3, 0, 1500, |_| 0);
        assert_eq!((why.verdict, r.count), (1, 0));
    }

    #[test]
    fn below_min_th_nothing_is_dropped_and_at_max_th_everything_is() {
        let mut r = paper();
        r.avg = 4 << 32;
        let w = r.decide(20, 0, 1500, |_| 0);
        assert_eq!((w.verdict, r.count, w.draw), (0, -1, u64::MAX));
        r.avg = 15 << 32;
        assert_eq!(r.decide(20, 0, 1500, |_| u64::MAX).verdict, 2);
        // Gentle: at max_th p_b = max_p; at 1.5·max_th it is max_p + (1 − max_p)/2 = 0.51;
        // only 2·max_th drops every arrival.
        let mut g = Red::new(&RedCfg {
            gentle: true,
            ..RedCfg::default()
        });
        g.avg = 15 << 32;
        g.count = -1;
        let w = g.decide(20, 0, 1500, |_| u64::MAX);
        assert_eq!(w.verdict, 0);
        assert!((w.p_b as f64 / ONE as f64 - 0.02).abs() < 1e-9);
        g.avg = (45 << 32) / 2;
        g.count = -1;
        let w = g.decide(20, 0, 1500, |_| u64::MAX);
        assert!((w.p_b as f64 / ONE as f64 - 0.51).abs() < 1e-9, "{}", w.p_b);
        g.avg = 30 << 32;
        assert_eq!(g.decide(20, 0, 1500, |_| u64::MAX).verdict, 2);
    }

    #[test]
    fn byte_mode_scales_p_b_by_the_packet_size() {
        // Thresholds 5 and 15 packets of 500 B = 2 500 and 7 500 B; avg 5 000 B gives
        // p_b = 0.02·2 500/5 000 = 0.01 for a 500 B packet, 0.03 for 1 500 B, 0.0008 for 40 B.
        let mut r = Red::new(&RedCfg {
            bytes: true,
            ..RedCfg::default()
        });
        for (size, want) in [(500, 0.01), (1500, 0.03), (40, 0.0008)] {
            r.avg = 5000 << 32;
            r.count = -1;
            let w = r.decide(0, 0, size, |_| u64::MAX);
            assert!((w.p_b as f64 / ONE as f64 - want).abs() < 1e-9, "{size}: {}", w.p_b);
        }
    }

    #[test]
    fn drops_are_spaced_uniformly_between_one_and_one_over_p_b_arrivals() {
        // With p_b fixed at 0.01 the count-based p_a makes the gap between drops uniform
        // (Floyd & Jacobson 1993 §7): the n-th arrival after a drop has count n, and
        // P(gap = n) = Π_{c<n} (1 − p_a(c))·p_a(n) telescopes to p_b/(1 − p_b) = 1/99 for
        // n = 1..=99 (p_a(99) = 1): mean 50, never above 99 (100 with p_b truncated to
        // fixed point, with chance 2e-6).
        let mut r = paper();
        r.avg = 10 << 32;
        let (mut gaps, mut since) = (Vec::new(), 0u64);
        for _ in 0..200_000 {
            since += 1;
            if r.decide(3, 0, 1500, |n| red_draw(7, 0, n)).verdict == 1 {
                gaps.push(since);
                since = 0;
            }
        }
        let mean = gaps.iter().sum::<u64>() as f64 / gaps.len() as f64;
        assert!((mean - 50.0).abs() < 1.0, "mean gap {mean}");
        assert!(gaps.iter().all(|&g| (1..=100).contains(&g)));
        assert!(gaps.contains(&99) && gaps.contains(&1));
    }
}
