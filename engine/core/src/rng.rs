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
    hash_more(0x6A09_E667_F3BC_C908u64, words)
}

/// Continues a hash: `hash_more(hash_words(a), b) == hash_words(a ++ b)`, so a prefix that
/// repeats (seed, link) is hashed once.
#[inline]
pub fn hash_more(mut h: u64, words: &[u64]) -> u64 {
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

/// Natural logarithm of `x` > 0 from a fixed sequence of IEEE additions, multiplications
/// and divisions (std's `ln` has unspecified precision and can differ between the native
/// and wasm builds). x = m·2^e with m in [√½, √2); ln m = 2·atanh(s), s = (m − 1)/(m + 1),
/// |s| ≤ 0.172, summed to 14 odd powers (error below 1e-16 relative).
pub fn ln_det(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return f64::NAN;
    }
    let bits = x.to_bits();
    let mut e = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    if (bits >> 52) & 0x7ff == 0 {
        // Subnormal: scale into the normal range first.
        return ln_det(x * 18_014_398_509_481_984.0) - 54.0 * std::f64::consts::LN_2;
    }
    if m > std::f64::consts::SQRT_2 {
        m /= 2.0;
        e += 1;
    }
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut term = s;
    let mut sum = 0.0;
    let mut k = 1.0;
    for _ in 0..14 {
        sum += term / k;
        term *= s2;
        k += 2.0;
    }
    2.0 * sum + e as f64 * std::f64::consts::LN_2
}

/// A uniform draw in (0, 1] from a 64-bit hash (53 random bits).
pub fn unit_open0(h: u64) -> f64 {
    ((h >> 11) + 1) as f64 / 9_007_199_254_740_992.0
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
    fn a_hash_continues_from_its_prefix() {
        let w = [7u64, 1, 0, 3, 123_456, 89, 2];
        for k in 0..=w.len() {
            assert_eq!(hash_more(hash_words(&w[..k]), &w[k..]), hash_words(&w));
        }
    }

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
    fn deterministic_log_matches_the_library_log() {
        for &x in &[
            1e-300, 1e-9, 0.001, 0.3, 0.5, 0.707, 1.0, 1.415, 2.0, 10.0, 12345.678, 1e300,
        ] {
            let (a, b) = (ln_det(x), x.ln());
            assert!(
                (a - b).abs() <= 4.0 * f64::EPSILON * b.abs().max(1.0),
                "ln({x}): {a} vs {b}"
            );
        }
        assert_eq!(ln_det(1.0), 0.0);
        assert!(ln_det(0.0).is_nan() && ln_det(-1.0).is_nan());
        // Mean of -ln(U) over many draws is 1 (an exponential of mean 1).
        let n = 200_000u64;
        let mean: f64 = (0..n).map(|i| -ln_det(unit_open0(hash_words(&[3, i])))).sum::<f64>() / n as f64;
        assert!((mean - 1.0).abs() < 0.01, "{mean}");
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
