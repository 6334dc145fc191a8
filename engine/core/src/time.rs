//! Simulated time: integer nanoseconds. Conversions to and from seconds happen only at the
//! edges (scenario load, output columns).

/// Nanoseconds since the start of the simulation.
pub type Ns = u64;

/// Nanoseconds in one second.
pub const NS_PER_S: u64 = 1_000_000_000;

/// Converts a configured duration in seconds to nanoseconds (rounded to the nearest ns).
/// Only used when loading a scenario; IEEE multiplication and rounding are exact and
/// reproducible on every platform.
pub fn secs_to_ns(s: f64) -> Ns {
    if s <= 0.0 {
        0
    } else {
        (s * 1e9).round() as u64
    }
}

/// Converts nanoseconds to seconds for output columns.
pub fn ns_to_secs(ns: Ns) -> f64 {
    ns as f64 / 1e9
}

/// Time to serialise `bytes` onto a link of `bps` bit/s, rounded up to a whole nanosecond.
pub fn tx_time(bytes: u64, bps: u64) -> Ns {
    let bps = bps.max(1);
    if bytes < (1 << 30) {
        // bytes · 8 · 10^9 < 2^63: plain 64-bit arithmetic (a u128 division is far slower).
        (bytes * 8 * NS_PER_S).div_ceil(bps)
    } else {
        (bytes as u128 * 8 * NS_PER_S as u128).div_ceil(bps as u128) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialisation_time_is_exact_or_rounded_up() {
        // 1500 B at 10 Mbit/s = 1.2 ms exactly.
        assert_eq!(tx_time(1500, 10_000_000), 1_200_000);
        // 1040 B at 800 kbit/s = 10.4 ms.
        assert_eq!(tx_time(1040, 800_000), 10_400_000);
        // 1 B at 3 bit/s = 2.666.. s, rounded up.
        assert_eq!(tx_time(1, 3), 2_666_666_667);
    }

    #[test]
    fn seconds_round_trip() {
        assert_eq!(secs_to_ns(0.001168), 1_168_000);
        assert_eq!(secs_to_ns(0.0001), 100_000);
        assert_eq!(ns_to_secs(1_500_000_000), 1.5);
    }
}
