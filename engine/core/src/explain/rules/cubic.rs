//! CUBIC (RFC 9438): its epochs, its increase and its decrease.
//!
//! Each rule's row, then its sentence with the arithmetic on its recorded values: `i` its
//! inputs, `o` its outputs (fields of the module its row makes, so a misspelt name does not
//! compile), `w` how values are written.

use super::*;

rule! {
    CubicEpoch = "ca.cubic_epoch", Increase, "A CUBIC epoch begins: K and W_est",
        "RFC 9438 §4.2 eq. (2), §4.3 (§4.8, §4.10: K = 0 and W_max = cwnd_epoch after a timeout or with no loss yet)",
        "t_epoch = now; cwnd_epoch = cwnd; K = ∛((W_max − cwnd_epoch)/C); W_est = cwnd_epoch",
        [cwnd: Bytes, w_max_before = "W_max before": Bytes, c = "C": Milli, smss = "SMSS": Bytes] => [w_max = "W_max": Bytes, k = "K": Ns, w_est = "W_est": Bytes]
}

impl CubicEpoch::In {
    pub(crate) fn words(i: &Self, o: &CubicEpoch::Out, w: &W) -> String {
        if o.k == 0 {
            format!(
                "A CUBIC congestion-avoidance epoch begins at cwnd = {}{}: W_max = cwnd_epoch = {}, K = 0 (the cubic starts at its inflection point and only grows faster); W_est = {}",
                w.b(i.cwnd),
                if i.w_max_before == 0 { " with no loss yet" } else if i.w_max_before <= i.cwnd { ", at or above the last W_max" } else { " after a timeout" },
                w.b(o.w_max), w.b(o.w_est)
            )
        } else {
            format!(
                "A CUBIC congestion-avoidance epoch begins at cwnd = {}: K = ∛((W_max − cwnd_epoch)/C) = ∛(({} − {})/({} SMSS per s³)) = {} to regain W_max; W_est = {}",
                w.b(i.cwnd), w.b(o.w_max), w.b(i.cwnd),
                format_value(i.c, Unit::Milli),
                format_value(o.k, Unit::Ns), w.b(o.w_est)
            )
        }
    }
}

rule! {
    CaCubic = "ca.cubic", Increase, "CUBIC increase toward W_cubic(t + RTT)",
        "RFC 9438 §4.2–4.5",
        "W_cubic(t) = C·(t − K)³ + W_max; target = clamp(W_cubic(t + RTT), cwnd, 1.5·cwnd); cwnd += (target − cwnd)·acked/cwnd; if W_cubic(t) < W_est: cwnd = W_est",
        [cwnd: Bytes, ssthresh: Bytes, acked: Bytes, t: Ns, rtt = "RTT": Ns, k = "K": Ns, w_max = "W_max": Bytes, w_cubic_t_rtt = "W_cubic(t+RTT)": Bytes, w_cubic_t = "W_cubic(t)": Bytes, w_est = "W_est": Bytes]
        => [cwnd: Bytes, region: Count]
}

impl CaCubic::In {
    pub(crate) fn words(i: &Self, o: &CaCubic::Out, w: &W) -> String {
        let region = match o.region {
            2 if o.cwnd == i.w_est.max(i.cwnd) => format!("Reno-friendly region (W_cubic(t) = {} < W_est = {}): cwnd = W_est", w.b(i.w_cubic_t), w.b(i.w_est)),
            2 => format!("Reno-friendly region (W_cubic(t) = {} < W_est = {}): cwnd steps toward W_est, the larger of the two steps (Linux)", w.b(i.w_cubic_t), w.b(i.w_est)),
            1 => "convex region (cwnd ≥ W_max): probing beyond the last maximum".to_string(),
            _ => "concave region (cwnd < W_max): closing in on the last maximum".to_string(),
        };
        format!(
            "CUBIC, t = {} into the epoch (K = {}, W_max = {}): W_cubic(t + RTT {}) = {}, target = clamp(…, cwnd, 1.5·cwnd); {}; cwnd {} → {}",
            format_value(i.t, Unit::Ns), format_value(i.k, Unit::Ns), w.b(i.w_max),
            format_value(i.rtt, Unit::Ns), w.b(i.w_cubic_t_rtt), region, w.b(i.cwnd), w.b(o.cwnd)
        )
    }
}

rule! {
    SsthreshCubic = "ssthresh.cubic", Loss, "CUBIC decrease: β_cubic times the flight",
        "RFC 9438 §4.6 (decrease), §4.7 (fast convergence)",
        "ssthresh = max(FlightSize·β_cubic, 2·SMSS); W_max = cwnd, or cwnd·(1 + β_cubic)/2 if cwnd < the last W_max (fast convergence)",
        [flight_size = "FlightSize": Bytes, cwnd: Bytes, beta: Milli, w_max_before = "W_max before": Bytes, fast_convergence = "fast convergence": Flag, smss = "SMSS": Bytes, ssthresh: Bytes]
        => [ssthresh: Bytes, w_max = "W_max": Bytes]
}

impl SsthreshCubic::In {
    pub(crate) fn words(i: &Self, o: &SsthreshCubic::Out, w: &W) -> String {
        let (what, base, v) = ("CUBIC decrease", "FlightSize", i.flight_size);
        Cut {
            what,
            base,
            v,
            cwnd: i.cwnd,
            beta: i.beta,
            w_max_before: i.w_max_before,
            fast_convergence: i.fast_convergence,
            smss: i.smss,
            ssthresh: o.ssthresh,
            w_max: o.w_max,
        }
        .words(w)
    }
}

rule! {
    SsthreshCubicCwnd = "ssthresh.cubic_cwnd", Loss, "CUBIC decrease: β_cubic times cwnd (Linux)",
        "Linux tcp_cubic.c cubictcp_recalc_ssthresh(); RFC 9438 §4.7 (fast convergence)",
        "ssthresh = max(cwnd·β_cubic, 2·SMSS); W_max = cwnd, or cwnd·(1 + β_cubic)/2 if cwnd < the last W_max (fast convergence)",
        [cwnd: Bytes, beta: Milli, w_max_before = "W_max before": Bytes, fast_convergence = "fast convergence": Flag, smss = "SMSS": Bytes, ssthresh: Bytes]
        => [ssthresh: Bytes, w_max = "W_max": Bytes]
}

impl SsthreshCubicCwnd::In {
    pub(crate) fn words(i: &Self, o: &SsthreshCubicCwnd::Out, w: &W) -> String {
        let (what, base, v) = ("CUBIC decrease (Linux)", "cwnd", i.cwnd);
        Cut {
            what,
            base,
            v,
            cwnd: i.cwnd,
            beta: i.beta,
            w_max_before: i.w_max_before,
            fast_convergence: i.fast_convergence,
            smss: i.smss,
            ssthresh: o.ssthresh,
            w_max: o.w_max,
        }
        .words(w)
    }
}

/// What CUBIC's two decreases (from the flight, from cwnd) say alike: `v` is the value
/// named `base` that the decrease multiplies by β.
struct Cut {
    what: &'static str,
    base: &'static str,
    v: u64,
    cwnd: u64,
    beta: u64,
    w_max_before: u64,
    fast_convergence: u64,
    smss: u64,
    ssthresh: u64,
    w_max: u64,
}

impl Cut {
    fn words(&self, w: &W) -> String {
        // Fast convergence (RFC 9438 §4.7) said the same way for either base.
        let wmax = if self.fast_convergence == 1 && self.cwnd < self.w_max_before {
            format!(
                "fast convergence: cwnd {} is below the last W_max {}, so W_max = cwnd·(1 + β)/2 = {}",
                w.b(self.cwnd),
                w.b(self.w_max_before),
                w.b(self.w_max)
            )
        } else {
            format!("W_max = cwnd before the reduction = {}", w.b(self.w_max))
        };
        let (what, base) = (self.what, self.base);
        format!(
            "{what}: ssthresh = max({base}·β, 2·SMSS) = max({}·{}, {}) = {}; {}",
            w.b(self.v),
            format_value(self.beta, Unit::Milli),
            w.b(2 * self.smss),
            w.b(self.ssthresh),
            wmax
        )
    }
}
