//! CUBIC (RFC 9438): outside slow start the window follows the cubic
//! W_cubic(t) = C·(t − K)³ + W_max of the time t since the current congestion-avoidance
//! epoch began, aiming one RTT ahead, never below what Reno would have reached (W_est, the
//! Reno-friendly region); a loss multiplies the window by β_cubic = 0.7 and, with fast
//! convergence, lowers W_max further when the window had not regained the last one.
//! Loss detection and recovery stay NewReno's (the variant's).
//!
//! Model state is integer: windows in bytes, times in microseconds, C and β in thousandths.
//! K is an integer cube root and (t − K)³ an integer product, so native and wasm runs agree
//! bit for bit (no `cbrt`, whose last bit differs between libms).

use super::{why, Cc};
use crate::explain::Rule;
use crate::scenario::Units;
use crate::time::Ns;

pub mod settings;
pub use settings::{CubicGrowth, CubicRtt, CubicSsthreshFrom};

/// 10¹⁸: µs³ per s³.
const US3_PER_S3: i128 = 1_000_000_000_000_000_000;

/// The largest |t − K| the cubic is evaluated at, µs (an hour): beyond it the window would
/// be absurd anyway, and the cube stays far inside i128.
const MAX_DT_US: i128 = 3_600_000_000;

/// ⌊∛n⌋ for a non-negative integer (bisection on integers).
pub fn icbrt(n: u128) -> u128 {
    if n == 0 {
        return 0;
    }
    // 2^43 cubed exceeds 2^128: the root of any u128 is below it.
    let (mut lo, mut hi) = (0u128, 1u128 << 43);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if mid
            .checked_mul(mid)
            .and_then(|m2| m2.checked_mul(mid))
            .is_some_and(|c| c <= n)
        {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// K, µs: the time the cubic takes from `cwnd_epoch` to `w_max` (RFC 9438 §4.2 eq. (2),
/// K = ∛((W_max − cwnd_epoch)/C) with windows in segments of `smss` bytes and C in
/// segments/s³ given as `c_milli` thousandths). Zero when cwnd_epoch ≥ W_max.
pub fn k_us(w_max: u64, cwnd_epoch: u64, smss: u64, c_milli: u64) -> u64 {
    let dw = w_max.saturating_sub(cwnd_epoch) as u128;
    if dw == 0 || smss == 0 || c_milli == 0 {
        return 0;
    }
    // K³ [µs³] = ΔW/SMSS / (C/1000) · 10¹⁸.
    let k3 = dw * 1000 * US3_PER_S3 as u128 / (smss as u128 * c_milli as u128);
    icbrt(k3) as u64
}

/// W_cubic(t), bytes, at `t_us` µs into the epoch (RFC 9438 §4.2 eq. (1)); at least 0.
pub fn w_cubic(t_us: u64, k_us: u64, w_max: u64, smss: u64, c_milli: u64) -> u64 {
    let d = (t_us as i128 - k_us as i128).clamp(-MAX_DT_US, MAX_DT_US);
    // C·(t − K)³ in bytes: C/1000 segments/s³ · SMSS bytes · d³ µs³ / 10¹⁸.
    let cube = d * d * d / 1_000_000; // µs³ / 10⁶: keeps the product below i128's range
    let delta = cube * (c_milli as i128) * (smss as i128) / (1000 * (US3_PER_S3 / 1_000_000));
    (w_max as i128 + delta).clamp(0, u64::MAX as i128) as u64
}

/// Ns to µs.
pub fn us(t: Ns) -> u64 {
    t / 1000
}

/// What CUBIC remembers between ACKs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CubicState {
    /// The window before the last reduction (after fast convergence), bytes; 0 = no loss
    /// yet.
    pub(super) w_max: u64,
    /// cwnd when the last reduction began (RFC 9438's cwnd_prior), bytes.
    pub(super) cwnd_prior: u64,
    /// When the current congestion-avoidance epoch began, µs; None = it begins at the next
    /// ACK in congestion avoidance.
    pub(super) epoch_start: Option<u64>,
    /// cwnd at the epoch's start, bytes.
    pub(super) cwnd_epoch: u64,
    /// K of the epoch, µs.
    pub(super) k: u64,
    /// W_est, the window Reno would have now, in 1/1024 bytes.
    pub(super) w_est_fine: u64,
    /// What the per-ACK steps left over, in bytes·cwnd (a step of (target − cwnd)·acked/cwnd
    /// bytes is mostly a fraction of a byte on a large window: the fractions add up here
    /// instead of being lost, as ns-3's and Linux's counters do).
    pub(super) carry: u128,
    /// The next epoch starts with K = 0 and W_max = cwnd_epoch (after a timeout, §4.8).
    pub(super) after_timeout: bool,
    /// The current epoch began with no W_max known (no loss yet, or after a timeout).
    pub(super) unknown_max: bool,
    /// The time at the ACK being processed, µs (from `Cc::on_ack_progress`).
    pub(super) now: u64,
    /// The smoothed RTT then, µs.
    pub(super) srtt: u64,
    /// The smallest RTT sample so far, µs (0: none yet).
    pub(super) min_rtt: u64,
}

/// Which part of the curve an increase was in (the explanation's `region`).
const CONCAVE: u64 = 0;
const CONVEX: u64 = 1;
const RENO_FRIENDLY: u64 = 2;

/// W_est is kept in 1/1024 bytes.
const FINE: u64 = 1024;

impl Cc {
    fn cubic_c(&self) -> u64 {
        super::increase::milli(self.cfg.cubic_c).max(1)
    }

    fn cubic_beta(&self) -> u64 {
        super::increase::milli(self.cfg.cubic_beta).clamp(1, 999)
    }

    /// A new congestion-avoidance epoch (RFC 9438 §4.2): t counts from now, K from the
    /// window to regain; W_est starts at cwnd_epoch (§4.3). After a timeout (§4.8), or with
    /// no W_max above the window (no loss yet, §4.10), K = 0 and W_max = cwnd_epoch.
    fn cubic_epoch(&mut self) {
        let (from, c) = (self.why_phase(), self.cubic_c());
        let cw = self.cwnd;
        let st = &mut self.cubic;
        let before = st.w_max;
        // W_max is unknown before the first loss, and (Linux resets its state) after a
        // timeout: then the growth floor applies.
        st.unknown_max = st.w_max == 0 || st.after_timeout;
        if st.after_timeout || st.w_max <= cw {
            st.w_max = cw;
            st.after_timeout = false;
        }
        st.epoch_start = Some(st.now);
        st.cwnd_epoch = cw;
        st.k = k_us(st.w_max, cw, self.smss, c);
        st.w_est_fine = cw * FINE;
        st.carry = 0;
        let (w_max, k) = (st.w_max, st.k);
        let sat = |x: u64| x.min(u32::MAX as u64) as u32;
        self.notes.push(super::Note {
            kind: crate::trace::EventKind::CubicEpoch,
            seq: w_max,
            len: sat(cw),
            seg: sat(k),
            tx: 0,
        });
        why!(
            self,
            Rule::CubicEpoch,
            from,
            [cw, before, c, self.smss, w_max, k * 1000, cw]
        );
    }

    /// CUBIC's increase on a new ACK in congestion avoidance that acknowledged `acked`
    /// bytes (RFC 9438 §4.2–4.5). The step toward the target is scaled by the bytes the ACK
    /// acknowledged (segments_acked, as W_est's eq. (4) is; Linux does the same), so a
    /// delayed ACK moves cwnd as far as two ACKs would.
    pub(super) fn cubic_increase(&mut self, acked: u64) {
        if self.cubic.epoch_start.is_none() {
            self.cubic_epoch();
        }
        let (from, c, b) = (self.why_phase(), self.cubic_c(), self.cubic_beta());
        let (smss, cw, ss) = (self.smss, self.cwnd, self.ssthresh);
        let st = &mut self.cubic;
        let t = st.now - st.epoch_start.unwrap_or(st.now);
        let ahead = match self.cfg.cubic_rtt {
            CubicRtt::Srtt => st.srtt,
            CubicRtt::MinRtt => st.min_rtt,
        };
        let linux = self.cfg.cubic_growth == CubicGrowth::Linux;
        let w_now = w_cubic(t, st.k, st.w_max, smss, c);
        let w_ahead = w_cubic(t + ahead, st.k, st.w_max, smss, c);
        // Linux: `if (last_max_cwnd == 0 && cnt > 20) cnt = 20`: while no W_max is known, one
        // segment per 20 acknowledged at least, a target 5 % above cwnd.
        let floor = if linux && st.unknown_max { cw + cw / 20 } else { 0 };
        // §4.3 eq. (4): W_est += α·segments_acked/cwnd, α = 3(1 − β)/(1 + β), 1 once
        // W_est ≥ cwnd_prior.
        let (an, ad) = if st.w_est_fine / FINE >= st.cwnd_prior {
            (1, 1)
        } else {
            (3 * (1000 - b), 1000 + b)
        };
        st.w_est_fine +=
            (an as u128 * smss as u128 * acked as u128 * FINE as u128 / (ad as u128 * cw.max(1) as u128)) as u64;
        let w_est = st.w_est_fine / FINE;
        // §4.2: target within [cwnd, 1.5·cwnd]; cwnd += (target − cwnd)/cwnd per segment
        // acknowledged, the fractions carried.
        let step = |st: &mut CubicState, target: u64| {
            st.carry += (target - cw) as u128 * acked as u128;
            let n = st.carry / cw.max(1) as u128;
            st.carry -= n * cw.max(1) as u128;
            n as u64
        };
        let friendly = self.cfg.cubic_reno_friendly && w_now < w_est;
        let (next, region) = if friendly && !linux {
            (w_est.max(cw), RENO_FRIENDLY)
        } else {
            let cubic_next = cw + step(st, w_ahead.max(floor).clamp(cw, cw + cw / 2));
            if friendly && w_est > cubic_next {
                // Linux: the Reno estimate's step when it is the larger (it approaches W_est
                // over about an RTT rather than jumping to it).
                let reno_next = cw + (((w_est - cw) as u128 * acked as u128) / cw.max(1) as u128) as u64;
                (reno_next.max(cubic_next), RENO_FRIENDLY)
            } else {
                (cubic_next, if cw < st.w_max { CONCAVE } else { CONVEX })
            }
        };
        let (k, w_max, srtt) = (st.k, st.w_max, ahead);
        self.cwnd = next;
        why!(
            self,
            Rule::CaCubic,
            from,
            [
                cw,
                ss,
                acked,
                t * 1000,
                srtt * 1000,
                k * 1000,
                w_max,
                w_ahead,
                w_now,
                w_est,
                next,
                region
            ]
        );
    }

    /// CUBIC's ssthresh on a loss (RFC 9438 §4.6), and W_max with fast convergence (§4.7):
    /// the epoch ends; the next begins at the first ACK in congestion avoidance.
    pub(super) fn cubic_ssthresh(&self, flight: u64) -> u64 {
        let b = self.cubic_beta();
        let base = match self.cfg.cubic_ssthresh_from {
            CubicSsthreshFrom::Flight => flight,
            CubicSsthreshFrom::Cwnd => self.cwnd,
        };
        let v = (base as u128 * b as u128 / 1000) as u64;
        match self.cfg.units {
            Units::Bytes => v.max(2 * self.smss),
            Units::Segments => (v / self.smss).max(2) * self.smss,
        }
    }

    /// The loss side of CUBIC's state: W_max (fast convergence), cwnd_prior, the epoch.
    /// Returns W_max before, for the explanation.
    pub(super) fn cubic_on_loss(&mut self) -> u64 {
        let b = self.cubic_beta();
        let cw = self.cwnd;
        let st = &mut self.cubic;
        let before = st.w_max;
        st.w_max = if self.cfg.cubic_fast_convergence && cw < before {
            (cw as u128 * (1000 + b) as u128 / 2000) as u64
        } else {
            cw
        };
        st.cwnd_prior = cw;
        st.epoch_start = None;
        before
    }

    /// A timeout (RFC 9438 §4.8): the next epoch, after slow start, starts with K = 0 and
    /// W_max = cwnd_epoch.
    pub(super) fn cubic_timeout(&mut self) {
        self.cubic.epoch_start = None;
        self.cubic.after_timeout = true;
    }

    /// An RTT sample (the minimum RTT a Linux-like target reads ahead by).
    pub(super) fn cubic_rtt_sample(&mut self, sample: Ns) {
        let s = us(sample);
        if s > 0 && (self.cubic.min_rtt == 0 || s < self.cubic.min_rtt) {
            self.cubic.min_rtt = s;
        }
    }

    /// The clock and smoothed RTT at an ACK (CUBIC's t and RTT).
    pub(super) fn cubic_clock(&mut self, now: Ns, srtt: Ns) {
        self.cubic.now = us(now);
        self.cubic.srtt = us(srtt);
    }
}

/// The rules whose decisions grow cwnd in congestion avoidance with CUBIC: the window
/// function, and the epoch that starts it (the state-machine edge is increase.rs's).
pub(crate) const CA_RULES: &[Rule] = &[Rule::CaCubic, Rule::CubicEpoch];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_cube_root_is_exact_at_cubes_and_floors_between() {
        for r in [0u128, 1, 2, 7, 1000, 123_456, 1 << 40] {
            assert_eq!(icbrt(r * r * r), r);
            if r > 1 {
                assert_eq!(icbrt(r * r * r - 1), r - 1);
            }
        }
        assert_eq!(icbrt(u128::MAX), 6_981_463_658_331);
    }

    #[test]
    fn k_from_the_rfc_formula() {
        // W_max = 100 segments, cwnd_epoch = 70 (β = 0.7): K = ∛(30/0.4) = ∛75 = 4.217163 s.
        let k = k_us(100 * 1460, 70 * 1460, 1460, 400);
        assert_eq!(k, 4_217_163);
        // Nothing to regain: K = 0.
        assert_eq!(k_us(70, 100, 1, 400), 0);
    }

    #[test]
    fn the_cubic_passes_w_max_at_k_and_is_symmetric_around_it() {
        let (s, c) = (1460, 400);
        let (w_max, k) = (100 * s, k_us(100 * s, 70 * s, s, c));
        assert_eq!(w_cubic(k, k, w_max, s, c), w_max);
        // At t = 0 it starts from cwnd_epoch (70 segments), within a byte of rounding.
        let w0 = w_cubic(0, k, w_max, s, c);
        assert!((70 * s).abs_diff(w0) <= 1, "{w0}");
        // One second either side of K: ±C·1³ = ±0.4 segment = ±584 bytes.
        assert_eq!(w_cubic(k + 1_000_000, k, w_max, s, c), w_max + 584);
        assert_eq!(w_cubic(k - 1_000_000, k, w_max, s, c), w_max - 584);
        // Ten seconds past K: +0.4·1000 = 400 segments.
        assert_eq!(w_cubic(k + 10_000_000, k, w_max, s, c), w_max + 400 * s);
    }
}
