//! Counter-based randomness. A loss decision is a pure function of (seed, link, packet
//! identity), so the same segment meets the same fate whichever algorithm sends it, and no
//! decision depends on how many draws happened before it.

/// SplitMix64 finaliser: a fast, well-mixed 64-bit bijection.
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Hashes a short list of words into one uniformly distributed 64-bit value.
pub fn hash_words(words: &[u64]) -> u64 {
    let mut h = 0x6A09_E667_F3BC_C908u64;
    for &w in words {
        h = mix64(h ^ w);
    }
    h
}

/// A probability as an integer threshold: an event with uniform draw `u` happens when
/// `u < threshold`. `None` means "always" (probability 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threshold(Option<u64>);

impl Threshold {
    /// Never happens.
    pub const NEVER: Threshold = Threshold(Some(0));

    /// Converts a probability in [0, 1] to a threshold (IEEE multiply and truncate: exact and
    /// reproducible).
    pub fn from_probability(p: f64) -> Threshold {
        if p.is_nan() || p <= 0.0 {
            Threshold::NEVER
        } else if p >= 1.0 {
            Threshold(None)
        } else {
            // 2^64 * p, computed in f64 then truncated; p < 1 keeps it below 2^64.
            Threshold(Some((p * 18_446_744_073_709_551_616.0) as u64))
        }
    }

    /// Whether a uniform 64-bit draw falls under the threshold.
    pub fn hit(self, draw: u64) -> bool {
        match self.0 {
            None => true,
            Some(t) => draw < t,
        }
    }

    /// True if this threshold can never be hit.
    pub fn is_never(self) -> bool {
        self.0 == Some(0)
    }
}

/// `base^exp` by repeated squaring: a fixed sequence of IEEE multiplications, so the result
/// is identical on every platform (unlike `f64::powi`/`powf`, whose precision is unspecified).
pub fn pow_by_squaring(base: f64, mut exp: u64) -> f64 {
    let mut result = 1.0f64;
    let mut b = base;
    while exp > 0 {
        if exp & 1 == 1 {
            result *= b;
        }
        b *= b;
        exp >>= 1;
    }
    result
}

/// Probability that a packet of `bytes` (whole packet, headers included) meets at least one
/// bit error: 1 − (1 − BER)^(8·bytes).
pub fn ber_packet_loss(ber: f64, bytes: u64) -> f64 {
    if ber <= 0.0 {
        return 0.0;
    }
    1.0 - pow_by_squaring(1.0 - ber, bytes * 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ber_loss_matches_closed_form() {
        // 1e-6 on 1500 B: 1 − (1 − 1e-6)^12000 ≈ 1.19 %.
        let p = ber_packet_loss(1e-6, 1500);
        assert!((p - 0.011928).abs() < 1e-5, "{p}");
        // 1e-7 on 1500 B ≈ 0.12 %.
        let p = ber_packet_loss(1e-7, 1500);
        assert!((p - 0.0011993).abs() < 1e-6, "{p}");
        assert_eq!(ber_packet_loss(0.0, 1500), 0.0);
    }

    #[test]
    fn thresholds_cover_the_extremes() {
        assert!(!Threshold::from_probability(0.0).hit(0));
        assert!(Threshold::from_probability(1.0).hit(u64::MAX));
        let half = Threshold::from_probability(0.5);
        assert!(half.hit(u64::MAX / 2 - 1));
        assert!(!half.hit(u64::MAX / 2 + 2));
    }

    #[test]
    fn hashes_are_spread_and_reproducible() {
        assert_eq!(hash_words(&[1, 2, 3]), hash_words(&[1, 2, 3]));
        assert_ne!(hash_words(&[1, 2, 3]), hash_words(&[1, 2, 4]));
        // Empirical rate of a 10 % threshold over 100k identities.
        let t = Threshold::from_probability(0.1);
        let hits = (0..100_000u64).filter(|&i| t.hit(hash_words(&[7, i]))).count();
        assert!((9_500..10_500).contains(&hits), "{hits}");
    }
}
