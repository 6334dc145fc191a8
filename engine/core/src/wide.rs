//! Exact 64 × 64 → 128-bit products. WebAssembly has no such multiply: there a 128-bit
//! product is a call (`__multi3`, 2 % of a traced NetSim run in the page's build before it
//! was avoided), so it is taken in 64 bits when it fits. The value is the same either way
//! (native code multiplies in one instruction and skips the test).

/// `a · b`, exactly.
#[inline(always)]
pub fn mul(a: u64, b: u64) -> u128 {
    if cfg!(target_arch = "wasm32") && fits_64(a, b) {
        (a * b) as u128
    } else {
        a as u128 * b as u128
    }
}

/// `c² · d`, exactly (`c²` in 64 bits when `c` is below 2³²).
#[inline(always)]
pub fn square_mul(c: u64, d: u64) -> u128 {
    if cfg!(target_arch = "wasm32") && c >> 32 == 0 {
        mul(c * c, d)
    } else {
        c as u128 * c as u128 * d as u128
    }
}

/// Whether `a · b` fits 64 bits, by the factors' bit lengths (which add up to 64 at most).
#[inline(always)]
fn fits_64(a: u64, b: u64) -> bool {
    a.leading_zeros() + b.leading_zeros() >= 64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_short_product_is_taken_only_when_it_fits() {
        // (a, b, whether the bit lengths add up to 64 at most): a sufficient test, so
        // 2 · (2^63 − 1) and 2^32 · 2^31 fit but take the long product.
        let cases = [
            (0, u64::MAX, true),
            (1, u64::MAX, false),
            (1, u64::MAX >> 1, true),
            (2, u64::MAX >> 1, false),
            (u32::MAX as u64, u32::MAX as u64, true),
            (1 << 31, 1 << 32, false),
            (1 << 31, (1 << 32) - 1, true),
            (62_798, 1_198_080, true),
            (62_798 * 62_798, 1_198_080, true),
            (u64::MAX, u64::MAX, false),
        ];
        for (a, b, fits) in cases {
            assert_eq!(fits_64(a, b), fits, "{a} · {b}");
            if fits {
                assert_eq!(a.checked_mul(b).map(u128::from), Some(a as u128 * b as u128));
            }
            assert_eq!(mul(a, b), a as u128 * b as u128);
            assert_eq!(mul(b, a), a as u128 * b as u128);
        }
        for (c, d) in [
            (0, 5),
            (62_798, 1_198_080),
            (u32::MAX as u64, u64::MAX),
            (1 << 40, 1 << 20),
        ] {
            assert_eq!(square_mul(c, d), c as u128 * c as u128 * d as u128);
        }
    }
}
