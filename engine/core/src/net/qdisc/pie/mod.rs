//! PIE, Proportional Integral controller Enhanced (RFC 8033; Linux's net/sched/sch_pie.c and
//! include/net/pie.h): an arrival is dropped with probability p, and p is updated every
//! `tupdate` from the queueing delay and its trend.
//!
//! - Queueing delay by timestamps (Linux's default; RFC 8033 §5.2 allows it in place of the
//!   departure-rate estimate): each departing packet's time since it entered; 0 when it
//!   leaves nothing waiting (Linux). The managed queue knows every entry time exactly, so
//!   this is the delay itself rather than an estimate from a measured drain rate.
//! - Every tupdate (at k·tupdate, k ≥ 1): with qdelay the latest measurement and qdelay_old
//!   the one the previous update used, α and β are halved while p < 10 %, then quartered
//!   again for each decade p lies below 1 %, 0.1 %, … 0.0001 % (RFC 8033 §4.2's table:
//!   ÷2, ÷8, ÷32, ÷128, ÷512, ÷2048); Δp = α·(qdelay − target) + β·(qdelay − qdelay_old);
//!   Δp is held to 2 % when p ≥ 10 %; 2 % more when qdelay > 250 ms; p = clamp(p + Δp, 0,
//!   1); when qdelay and qdelay_old are both 0, p −= p/64 (Linux; the RFC's ×0.98) unless
//!   the measurement was 0 with packets waiting (Linux's update_prob). When p is 0 and both
//!   delays are below target/2 the burst allowance is re-armed to max_burst (Linux's
//!   pie_vars_init; RFC 8033 §4.4).
//! - The burst allowance runs down by the time between departures (Linux's
//!   pie_process_dequeue; the first departure after re-arming only starts the clock), so it
//!   is spent only while packets flow; the RFC's pseudocode takes tupdate off at every
//!   update instead, which also runs it down while the queue is idle.
//! - At an arrival: no early drop while burst allowance is left, or while the latest delay
//!   is below target/2 and p < 20 %, or while fewer than 2·mtu bytes wait (RFC 8033 §5.1,
//!   Linux); otherwise drop when the draw u < p, "mark if ECT" while p ≤ 10 % (Linux).
//! - The update is lazy: the engine has no timer event for it. Before each arrival and each
//!   departure every update due at or before now is applied in order, with the state as it
//!   was (nothing that an update reads changes between arrivals and departures), so the
//!   result is the one a timer firing at k·tupdate just before any packet at the same
//!   instant would give. A run of updates that changes nothing is skipped at once.
//! - Integers only: p in units of 2⁻⁵⁶ (Linux's MAX_PROB scale), α and β in 2⁻⁵⁶ per ns,
//!   each turned once from its setting by an IEEE multiply, divide and truncation; the
//!   draw is the top 56 bits of the link's counter-based hash.

pub mod settings;

use crate::time::{secs_to_ns, Ns};
use settings::PieCfg;

/// 1.0 in PIE's fixed point (2⁵⁶).
pub const ONE: u64 = 1 << 56;

/// One PIE drop's arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieWhy {
    /// The latest queueing delay, ns.
    pub qdelay: Ns,
    /// Bytes waiting at the arrival.
    pub backlog: u64,
    /// The drop probability, 2⁻⁵⁶.
    pub p: u64,
    /// The draw, 2⁻⁵⁶.
    pub u: u64,
}

/// A PIE queue's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pie {
    /// Target delay, ns.
    pub target: Ns,
    /// Update interval, ns.
    pub tupdate: Ns,
    alpha: u64,
    beta: u64,
    max_burst: Ns,
    mtu: u64,
    /// The drop probability, 2⁻⁵⁶.
    pub p: u64,
    /// The latest measured queueing delay, ns.
    pub qdelay: Ns,
    /// The delay the last update used, ns.
    pub qdelay_old: Ns,
    /// Burst allowance left, ns.
    pub burst: Ns,
    /// The next update's time.
    pub next: Ns,
    /// The last departure's time (`u64::MAX`: none since the allowance was armed).
    dq_last: Ns,
    draws: u64,
}

/// α or β per second as 2⁻⁵⁶ per ns (truncated).
fn per_ns(x: f64) -> u64 {
    (x * ONE as f64 / 1e9) as u64
}

impl Pie {
    /// A PIE queue from its settings.
    pub fn new(c: &PieCfg) -> Pie {
        let tupdate = secs_to_ns(c.tupdate).max(1);
        Pie {
            target: secs_to_ns(c.target),
            tupdate,
            alpha: per_ns(c.alpha),
            beta: per_ns(c.beta),
            max_burst: secs_to_ns(c.max_burst),
            mtu: c.mtu,
            p: 0,
            qdelay: 0,
            qdelay_old: 0,
            burst: secs_to_ns(c.max_burst),
            next: tupdate,
            dq_last: u64::MAX,
            draws: 0,
        }
    }

    /// α and β scaled for the current p (RFC 8033 §4.2's table, Linux's shifts).
    pub fn scaled(&self) -> (u64, u64) {
        let (mut a, mut b) = (self.alpha, self.beta);
        if self.p < ONE / 10 {
            a >>= 1;
            b >>= 1;
            let mut power = 100;
            while self.p < ONE / power && power <= 1_000_000 {
                a >>= 2;
                b >>= 2;
                power *= 10;
            }
        }
        (a, b)
    }

    /// One update, with `backlog` bytes waiting.
    pub fn update(&mut self, backlog: u64) {
        let (qdelay, old) = (self.qdelay, self.qdelay_old);
        let (a, b) = self.scaled();
        let mut delta = a as i128 * (qdelay as i128 - self.target as i128) + b as i128 * (qdelay as i128 - old as i128);
        let two = (ONE / 50) as i128;
        if delta > two && self.p >= ONE / 10 {
            delta = two;
        }
        if qdelay > 250_000_000 {
            delta += two;
        }
        let mut decay = !(qdelay == 0 && backlog != 0);
        let p = self.p as i128 + delta;
        self.p = if p > ONE as i128 {
            decay = false;
            ONE
        } else {
            p.max(0) as u64
        };
        if qdelay == 0 && old == 0 && decay {
            self.p -= self.p / 64;
        }
        if qdelay < self.target / 2 && old < self.target / 2 && self.p == 0 {
            self.burst = self.max_burst;
            self.dq_last = u64::MAX;
        }
        self.qdelay_old = qdelay;
    }

    /// Applies every update due at or before `now` (`backlog` bytes waiting throughout),
    /// calling `row(t, self)` after each.
    pub fn advance(&mut self, now: Ns, backlog: u64, mut row: impl FnMut(Ns, &Pie)) {
        while self.next <= now {
            let before = (self.p, self.qdelay_old, self.burst, self.dq_last);
            self.update(backlog);
            row(self.next, self);
            self.next += self.tupdate;
            if (self.p, self.qdelay_old, self.burst, self.dq_last) == before && self.next <= now {
                // A fixed point: the remaining updates change nothing.
                self.next += (now - self.next) / self.tupdate * self.tupdate + self.tupdate;
            }
        }
    }

    /// A packet that entered at `entered` departs at `now`, leaving `backlog` bytes.
    pub fn measure(&mut self, now: Ns, entered: Ns, backlog: u64) {
        self.qdelay = if backlog == 0 { 0 } else { now - entered };
        if self.dq_last != u64::MAX {
            self.burst = self.burst.saturating_sub(now - self.dq_last);
        }
        self.dq_last = now;
    }

    /// The decision on an arrival finding `backlog` bytes waiting: Some(arithmetic) when it
    /// is dropped. `draw(n)` gives the link's n-th draw when one is needed.
    pub fn decide(&mut self, backlog: u64, draw: impl FnOnce(u64) -> u64) -> Option<PieWhy> {
        if self.burst > 0 || (self.qdelay < self.target / 2 && self.p < ONE / 5) || backlog < 2 * self.mtu {
            return None;
        }
        let n = self.draws;
        self.draws += 1;
        let u = draw(n) >> 8;
        (u < self.p).then_some(PieWhy {
            qdelay: self.qdelay,
            backlog,
            p: self.p,
            u,
        })
    }
}

#[cfg(test)]
mod tests;
