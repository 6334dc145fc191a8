//! Delay measurements of a flow for the summary: the queueing delay its data packets met at
//! the bottleneck and the RTT samples its sender took (docs/algorithms.md, "Delay metrics").
//!
//! Each is a count, an exact sum (u128 ns: no overflow however long the run) and the
//! log-linear histogram of [`crate::thin::Histogram`] (1/512 relative resolution), so the
//! mean is exact, the 95th percentile within 0.2 % below the exact value, and memory stays
//! flat in simulated time: at most one counter per histogram bucket used (about 11 000 for
//! values up to a second), nothing per packet.

use crate::thin::Histogram;
use crate::time::Ns;

/// The percentile the summary reports.
pub const PERCENTILE: f64 = 95.0;

/// Values (ns) counted into an exact sum and a histogram.
#[derive(Clone, Debug, Default)]
pub struct Delays {
    sum: u128,
    hist: Histogram,
}

impl Delays {
    /// Counts one value.
    #[inline]
    pub fn add(&mut self, v: Ns) {
        self.sum += v as u128;
        self.hist.add(v);
    }

    /// Values counted.
    pub fn count(&self) -> u64 {
        self.hist.count()
    }

    /// The mean, ns (exact up to the f64 division); None when nothing was counted.
    pub fn mean_ns(&self) -> Option<f64> {
        let n = self.count();
        (n > 0).then(|| self.sum as f64 / n as f64)
    }

    /// The nearest-rank p-th percentile (0 < p ≤ 100), ns: its histogram bucket's lower
    /// bound, at most 0.2 % below the exact value; None when nothing was counted.
    pub fn percentile_ns(&self, p: f64) -> Option<u64> {
        self.hist.percentile(p)
    }

    /// The mean in ms.
    pub fn mean_ms(&self) -> Option<f64> {
        self.mean_ns().map(|ns| ns / 1e6)
    }

    /// The [`PERCENTILE`]th percentile in ms.
    pub fn p95_ms(&self) -> Option<f64> {
        self.percentile_ns(PERCENTILE).map(|ns| ns as f64 / 1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_is_exact_and_the_95th_percentile_is_the_nearest_rank() {
        let mut d = Delays::default();
        assert_eq!((d.count(), d.mean_ms(), d.p95_ms()), (0, None, None));
        // 1, 2, …, 100 ms: mean 50.5 ms; the 95th of 100 values is 95 ms (to 0.2 %).
        for v in 1..=100u64 {
            d.add(v * 1_000_000);
        }
        assert_eq!(d.count(), 100);
        assert_eq!(d.mean_ms(), Some(50.5));
        let p95 = d.percentile_ns(PERCENTILE).unwrap();
        assert!(
            p95 <= 95_000_000 && p95 as f64 >= 95_000_000.0 * (1.0 - 1.0 / 512.0),
            "{p95}"
        );
        // Small values are exact: 20 zeros and 80 of 400 ns put the 95th at 400 ns.
        let mut e = Delays::default();
        (0..20).for_each(|_| e.add(0));
        (0..80).for_each(|_| e.add(400));
        assert_eq!(e.percentile_ns(PERCENTILE), Some(400));
        assert_eq!(e.mean_ns(), Some(320.0));
    }

    #[test]
    fn the_sum_does_not_overflow_on_long_runs() {
        let mut d = Delays::default();
        for _ in 0..4 {
            d.add(u64::MAX / 2);
        }
        assert_eq!(d.mean_ns(), Some((u64::MAX / 2) as f64));
    }
}
