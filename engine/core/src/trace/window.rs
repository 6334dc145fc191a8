//! A flow's window series (`Sender::state_row`): its row, its columns as the page and
//! `--out` read them, its digest, and the cwnd integrals the summary's mean cwnd and its
//! variation come from.

use super::*;

/// The values plotted for a flow at one instant, in model units (bytes, ns).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowState {
    /// Congestion window, bytes.
    pub cwnd: u64,
    /// Window in force (inflated during fast recovery), bytes.
    pub inflated: u64,
    /// Slow-start threshold, bytes (`u64::MAX` = unlimited).
    pub ssthresh: u64,
    /// snd_nxt − snd_una, bytes.
    pub flight: u64,
    /// Smoothed RTT, ns.
    pub srtt: u64,
    /// RTT variation, ns.
    pub rttvar: u64,
    /// Retransmission timeout (backoff included), ns.
    pub rto: u64,
    /// [`crate::tcp::cc::Phase`] code.
    pub phase: u8,
}

/// Column names of a flow's time series, in output order. Units: t, srtt, rttvar, rto in
/// seconds; cwnd, inflated, ssthresh, flight in bytes (ssthresh +∞ while unlimited); phase
/// a [`crate::tcp::cc::Phase`] code.
pub const SERIES_COLUMNS: [&str; 9] = [
    "t", "cwnd", "inflated", "ssthresh", "flight", "srtt", "rttvar", "rto", "phase",
];

/// Time series of one flow: a row whenever a plotted value changes.
#[derive(Clone, Debug, Default)]
pub struct FlowSeries {
    /// (time, state) rows in time order.
    pub rows: Vec<(Ns, FlowState)>,
    /// The last row recorded (stored or not).
    last: Option<FlowState>,
    /// Whether rows are stored or dropped (see [`Stream`]).
    pub stream: Stream,
    last_t: Ns,
    /// Only cwnd's changes are recorded (see [`FlowSeries::record_cwnd`]).
    pub(crate) cwnd_only: bool,
    cwnd_area: u128,
    cwnd_sq_area: u128,
    area_time: u128,
}

impl FlowSeries {
    /// Appends a row if anything changed since the last one, integrating cwnd over time.
    #[inline]
    pub fn record(&mut self, now: Ns, s: FlowState) {
        if self.last == Some(s) {
            return;
        }
        self.integrate_to(now);
        self.last = Some(s);
        let row = (now, s);
        if self.stream.take(&row) {
            self.rows.push(row);
        }
    }

    /// [`FlowSeries::record`] when only cwnd's changes are recorded (`cwnd_only`: a run whose
    /// rows nobody stores or hashes, whose summary reads only the cwnd integrals). The
    /// integrals are exact sums, so integrating at cwnd's changes only gives the same values.
    #[inline]
    pub fn record_cwnd(&mut self, now: Ns, cwnd: u64) {
        if self.last.is_none_or(|l| l.cwnd != cwnd) {
            self.integrate_to(now);
            // Only cwnd is read from here on (the integrals); the other columns keep
            // whatever they held.
            match self.last.as_mut() {
                Some(l) => l.cwnd = cwnd,
                None => {
                    self.last = Some(FlowState {
                        cwnd,
                        ..FlowState::default()
                    })
                }
            }
        }
    }

    /// Adds the time since the last integration to the cwnd integrals.
    #[cfg_attr(target_arch = "wasm32", inline(always))]
    pub fn integrate_to(&mut self, now: Ns) {
        (self.cwnd_area, self.cwnd_sq_area, self.area_time) = self.integrals_to(now);
        self.last_t = now;
    }

    /// (∫cwnd dt, ∫cwnd² dt, ∫dt) up to `now`, the last row's cwnd held since the last
    /// integration. Exact integers, so integrating in any number of steps gives the same sums.
    #[cfg_attr(target_arch = "wasm32", inline(always))]
    fn integrals_to(&self, now: Ns) -> (u128, u128, u128) {
        let (area, sq, time) = (self.cwnd_area, self.cwnd_sq_area, self.area_time);
        let Some(last) = self.last else {
            return (area, sq, time);
        };
        let dt = now.saturating_sub(self.last_t);
        let c = last.cwnd;
        use crate::wide::{mul, square_mul};
        (area + mul(c, dt), sq + square_mul(c, dt), time + dt as u128)
    }

    /// Time-weighted mean cwnd (bytes) and its coefficient of variation over the flow's
    /// rows up to `now` (the last value held until `now`).
    pub fn cwnd_stats(&self, now: Ns) -> (f64, f64) {
        let Some(last) = self.last else {
            return (0.0, 0.0);
        };
        let (area, sq, time) = self.integrals_to(now);
        if time == 0 {
            return (last.cwnd as f64, 0.0);
        }
        let t = time as f64;
        let mean = area as f64 / t;
        let var = (sq as f64 / t - mean * mean).max(0.0);
        let cv = if mean > 0.0 { var.sqrt() / mean } else { 0.0 };
        (mean, cv)
    }
}

impl Table for FlowSeries {
    type Row = (Ns, FlowState);
    const COLUMNS: &'static [&'static str] = &SERIES_COLUMNS;
    fn rows(&self) -> &[Self::Row] {
        &self.rows
    }
    fn field(name: &str) -> Option<Field<Self::Row>> {
        series_field(name)
    }
}

/// How to read one [`SERIES_COLUMNS`] column from a row, in output units.
fn series_field(name: &str) -> Option<Field<(Ns, FlowState)>> {
    Some(match name {
        "t" => |r| ns_to_secs(r.0),
        "cwnd" => |r| r.1.cwnd as f64,
        "inflated" => |r| r.1.inflated as f64,
        "ssthresh" => |r| count_or(r.1.ssthresh, f64::INFINITY),
        "flight" => |r| r.1.flight as f64,
        "srtt" => |r| ns_to_secs(r.1.srtt),
        "rttvar" => |r| ns_to_secs(r.1.rttvar),
        "rto" => |r| ns_to_secs(r.1.rto),
        "phase" => |r| r.1.phase as f64,
        _ => return None,
    })
}

impl DigestRow for (Ns, FlowState) {
    #[inline]
    fn digest_into(&self, d: &mut Digest) {
        let (t, r) = self;
        d.words(&[
            *t,
            r.cwnd,
            r.inflated,
            r.ssthresh,
            r.flight,
            r.srtt,
            r.rttvar,
            r.rto,
            r.phase as u64,
        ]);
    }
}
