//! Round-trip time estimation and the retransmission timeout (RTO).
//!
//! Three estimators share one interface: RFC 6298 (in integer nanoseconds), Jacobson &
//! Karels 1988 appendix A (scaled integers in clock ticks) and RFC 793 §3.7 (a smoothed
//! mean times β, in parts per million). Samples are first quantised to the TCP clock tick:
//! a sample counts the tick boundaries crossed between send and ACK, at least one.
//! Backoff doubles the RTO and persists until a valid new sample (Karn and Partridge).

use crate::explain::{Rule, Why};
use crate::scenario::{Estimator, RtoCfg};
use crate::time::{secs_to_ns, Ns};

const PPM: u128 = 1_000_000;

#[derive(Clone, Debug)]
enum State {
    /// RFC 6298: SRTT and RTTVAR in ns; None before the first sample.
    Rfc6298 { srtt: Option<(u64, u64)> },
    /// Jacobson 88: sa = 8·A and sv = 4·D in ticks; None before the first sample.
    Jacobson { sa_sv: Option<(i64, i64)> },
    /// RFC 793: SRTT in ns.
    Rfc793 { srtt: Option<u64> },
}

/// An RTT estimator with its backoff state.
#[derive(Clone, Debug)]
pub struct RttEstimator {
    state: State,
    tick: Ns,
    min: Ns,
    max: Ns,
    alpha_ppm: u64,
    beta_ppm: u64,
    /// RTO from the last sample (or the initial RTO), clamped to [min, max], before backoff.
    base: Ns,
    /// Number of doublings since the last valid sample.
    backoff: u32,
    /// Current RTO (base with backoff, bounded), SRTT and RTTVAR in ns, kept up to date so
    /// reading them (once per trace row) costs nothing.
    rto: Ns,
    srtt: Ns,
    rttvar: Ns,
}

impl RttEstimator {
    /// Builds the estimator from scenario settings.
    pub fn new(cfg: &RtoCfg) -> RttEstimator {
        let state = match cfg.estimator {
            Estimator::Rfc6298 => State::Rfc6298 { srtt: None },
            Estimator::Jacobson88 => State::Jacobson { sa_sv: None },
            Estimator::Rfc793 => State::Rfc793 { srtt: None },
        };
        let min = secs_to_ns(cfg.min);
        let max = secs_to_ns(cfg.max);
        let mut e = RttEstimator {
            state,
            tick: secs_to_ns(cfg.clock_tick).max(1),
            min,
            max,
            alpha_ppm: (cfg.rfc793_alpha * 1e6).round() as u64,
            beta_ppm: (cfg.rfc793_beta * 1e6).round() as u64,
            // RFC 6298 (2.1): the initial RTO (not clamped by min; clamped by max).
            base: secs_to_ns(cfg.initial).min(max),
            backoff: 0,
            rto: 0,
            srtt: 0,
            rttvar: 0,
        };
        e.refresh();
        e
    }

    /// Recomputes the cached RTO, SRTT and RTTVAR after any change.
    fn refresh(&mut self) {
        let shift = self.backoff.min(40);
        self.rto = ((self.base as u128) << shift).min(self.max as u128) as u64;
        (self.srtt, self.rttvar) = match &self.state {
            State::Rfc6298 { srtt } => srtt.unwrap_or((0, 0)),
            State::Jacobson { sa_sv } => sa_sv.map_or((0, 0), |(sa, sv)| {
                ((sa as u64 * self.tick) / 8, (sv as u64 * self.tick) / 4)
            }),
            State::Rfc793 { srtt } => (srtt.unwrap_or(0), 0),
        };
    }

    /// The TCP clock tick, ns.
    pub fn tick(&self) -> Ns {
        self.tick
    }

    /// Quantises a measurement to whole ticks crossed (at least one), in ns.
    pub fn quantise(&self, sent: Ns, now: Ns) -> Ns {
        let ticks = (now / self.tick).saturating_sub(sent / self.tick).max(1);
        ticks * self.tick
    }

    /// Feeds one RTT measurement (send time and ACK time) of segment `seg`; resets the
    /// backoff. Returns the sample taken (quantised to the tick). The estimate is
    /// explained in `why` (phase code `phase`), when on.
    pub fn on_measurement(&mut self, sent: Ns, now: Ns, seg: u32, why: &mut Why, phase: u8) -> Ns {
        let r = self.quantise(sent, now);
        let first = match &self.state {
            State::Rfc6298 { srtt } => srtt.is_none(),
            State::Jacobson { sa_sv } => sa_sv.is_none(),
            State::Rfc793 { srtt } => srtt.is_none(),
        };
        let (s0, v0) = (self.srtt, self.rttvar);
        self.on_sample(r);
        if why.on {
            let (e, seg, g) = (now - sent, seg as u64, self.tick);
            let (lo, hi, s1, v1, rto) = (self.min, self.max, self.srtt, self.rttvar, self.rto);
            match &self.state {
                State::Rfc6298 { .. } if first => {
                    why.push(Rule::RttFirst, phase, phase, &[r, e, seg, g, lo, hi, s1, v1, rto])
                }
                State::Rfc6298 { .. } => why.push(
                    Rule::RttUpdate,
                    phase,
                    phase,
                    &[r, e, seg, s0, v0, g, lo, hi, s1, v1, rto],
                ),
                State::Jacobson { .. } => why.push(
                    Rule::RttJacobson,
                    phase,
                    phase,
                    &[r, e, seg, s0, v0, g, lo, hi, s1, v1, rto],
                ),
                State::Rfc793 { .. } => {
                    let (a, b) = (self.alpha_ppm / 1000, self.beta_ppm / 1000);
                    why.push(Rule::RttRfc793, phase, phase, &[r, e, seg, s0, a, b, lo, hi, s1, rto])
                }
            }
        }
        r
    }

    /// Feeds one RTT sample `r` (already quantised), updating the estimate and the RTO.
    pub fn on_sample(&mut self, r: Ns) {
        self.backoff = 0;
        let raw = match &mut self.state {
            State::Rfc6298 { srtt } => {
                let (s, v) = match *srtt {
                    // RFC 6298 (2.2): first sample.
                    None => (r, r / 2),
                    // RFC 6298 (2.3): RTTVAR first (with the old SRTT), then SRTT.
                    Some((s, v)) => {
                        let err = s.abs_diff(r);
                        let v = (3 * v + err) / 4;
                        let s = (7 * s + r) / 8;
                        (s, v)
                    }
                };
                *srtt = Some((s, v));
                // RTO = SRTT + max(G, K·RTTVAR), K = 4.
                s + self.tick.max(4 * v)
            }
            State::Jacobson { sa_sv } => {
                let m = (r / self.tick) as i64;
                let (sa, sv) = match *sa_sv {
                    // First sample: A = m, D = m/2.
                    None => (m << 3, m << 1),
                    Some((mut sa, mut sv)) => {
                        // Jacobson 88 App. A: err = m − A; A += err/8; D += (|err| − D)/4.
                        let mut m = m - (sa >> 3);
                        sa += m;
                        if sa <= 0 {
                            sa = 1;
                        }
                        if m < 0 {
                            m = -m;
                        }
                        m -= sv >> 2;
                        sv += m;
                        if sv <= 0 {
                            sv = 1;
                        }
                        (sa, sv)
                    }
                };
                *sa_sv = Some((sa, sv));
                // rto = A + 4D = (sa >> 3) + sv, in ticks.
                ((sa >> 3) + sv).max(1) as u64 * self.tick
            }
            State::Rfc793 { srtt } => {
                let s = match *srtt {
                    None => r,
                    // RFC 793 §3.7: SRTT = α·SRTT + (1 − α)·RTT.
                    Some(s) => {
                        let a = self.alpha_ppm as u128;
                        ((a * s as u128 + (PPM - a) * r as u128) / PPM) as u64
                    }
                };
                *srtt = Some(s);
                // RTO = β·SRTT (then bounded).
                ((self.beta_ppm as u128 * s as u128) / PPM) as u64
            }
        };
        // RFC 6298 (2.4) lower bound, (2.5) upper bound.
        self.base = raw.max(self.min).min(self.max);
        self.refresh();
    }

    /// RFC 6298 (5.5): doubles the RTO for the next expiry, up to the maximum; explained in
    /// `why` when on.
    pub fn back_off(&mut self, why: &mut Why, phase: u8) {
        let (rto, n) = (self.rto, self.backoff);
        if self.rto < self.max {
            self.backoff += 1;
        }
        self.refresh();
        if why.on {
            why.push(
                Rule::Backoff,
                phase,
                phase,
                &[rto, n as u64, self.max, self.rto, self.backoff as u64],
            );
        }
    }

    /// Current RTO, backoff included.
    pub fn rto(&self) -> Ns {
        self.rto
    }

    /// Smoothed RTT in ns (0 before the first sample).
    pub fn srtt(&self) -> Ns {
        self.srtt
    }

    /// RTT variation in ns (0 before the first sample, and always for RFC 793).
    pub fn rttvar(&self) -> Ns {
        self.rttvar
    }

    /// RFC 6298 (5.7): a SYN timed out, so data transfer starts with an RTO of at least 3 s
    /// (there is no sample yet: Karn forbids taking one from the retransmitted SYN).
    pub fn after_syn_timeout(&mut self, why: &mut Why, phase: u8) {
        let rto = self.rto;
        self.backoff = 0;
        self.base = self.base.max(3 * crate::time::NS_PER_S).min(self.max);
        self.refresh();
        if why.on {
            why.push(Rule::SynTimeout, phase, phase, &[rto, self.rto]);
        }
    }

    /// Number of doublings in force.
    pub fn backoff_count(&self) -> u32 {
        self.backoff
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(estimator: Estimator, tick: f64, min: f64) -> RtoCfg {
        RtoCfg {
            estimator,
            clock_tick: tick,
            initial: 1.0,
            min,
            max: 60.0,
            rfc793_alpha: 0.9,
            rfc793_beta: 2.0,
        }
    }

    const MS: u64 = 1_000_000;

    #[test]
    fn rfc6298_vector() {
        // Rulebook §3.16: samples 100, 120, 80 ms, G = 1 ms, no floor.
        let mut e = RttEstimator::new(&cfg(Estimator::Rfc6298, 0.001, 0.0));
        assert_eq!(e.rto(), 1000 * MS, "RFC 6298 (2.1) initial RTO");
        e.on_sample(100 * MS);
        assert_eq!((e.srtt(), e.rttvar(), e.rto()), (100 * MS, 50 * MS, 300 * MS));
        e.on_sample(120 * MS);
        assert_eq!((e.srtt(), e.rttvar(), e.rto()), (102_500_000, 42_500_000, 272_500_000));
        e.on_sample(80 * MS);
        assert_eq!((e.srtt(), e.rttvar(), e.rto()), (99_687_500, 37_500_000, 249_687_500));
    }

    #[test]
    fn jacobson88_integer_vector() {
        // Rulebook §3.16: 1 ms ticks, samples 100, 120, 80 → rto 300, 272, 249 ms.
        let mut e = RttEstimator::new(&cfg(Estimator::Jacobson88, 0.001, 0.0));
        let mut rtos = vec![];
        for s in [100, 120, 80] {
            e.on_sample(s * MS);
            rtos.push(e.rto() / MS);
        }
        assert_eq!(rtos, vec![300, 272, 249]);
    }

    #[test]
    fn rfc793_vector_and_floor() {
        // α = 0.9, β = 2: β·SRTT = 200, 204, 199.6 ms.
        let mut e = RttEstimator::new(&cfg(Estimator::Rfc793, 0.001, 0.0));
        let mut rtos = vec![];
        for s in [100, 120, 80] {
            e.on_sample(s * MS);
            rtos.push(e.rto());
        }
        assert_eq!(rtos, vec![200 * MS, 204 * MS, 199_600_000]);
        // With a 1 s lower bound every value shows 1 s.
        let mut e = RttEstimator::new(&cfg(Estimator::Rfc793, 0.001, 1.0));
        e.on_sample(100 * MS);
        assert_eq!(e.rto(), 1000 * MS);
    }

    #[test]
    fn backoff_doubles_until_max_and_a_sample_collapses_it() {
        let mut e = RttEstimator::new(&cfg(Estimator::Rfc6298, 0.001, 1.0));
        e.on_sample(100 * MS); // RTO 300 ms → floored to 1 s
        assert_eq!(e.rto(), 1000 * MS);
        let mut seen = vec![];
        for _ in 0..8 {
            e.back_off(&mut Why::default(), 0);
            seen.push(e.rto() / MS);
        }
        assert_eq!(seen, vec![2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
        e.on_sample(100 * MS);
        assert_eq!(e.rto(), 1000 * MS);
    }

    #[test]
    fn samples_count_tick_boundaries() {
        let e = RttEstimator::new(&cfg(Estimator::Rfc6298, 0.5, 1.0));
        // Sent at 0.4 s, acked at 0.6 s: one boundary (0.5 s) crossed.
        assert_eq!(e.quantise(400 * MS, 600 * MS), 500 * MS);
        // Sent at 0.1 s, acked at 0.3 s: no boundary, counted as one tick.
        assert_eq!(e.quantise(100 * MS, 300 * MS), 500 * MS);
        // Sent at 0.1 s, acked at 1.2 s: two boundaries.
        assert_eq!(e.quantise(100 * MS, 1200 * MS), 1000 * MS);
    }
}
