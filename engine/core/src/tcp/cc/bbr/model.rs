//! BBR's measuring instruments: the windowed max filter, the per-segment delivery stamps and
//! the rate samples they yield (draft-cheng-iccrg-delivery-rate-estimation, Linux's
//! tcp_rate.c), and the BDP and send-quantum arithmetic. The state machine that reads them
//! is in `mod.rs`.

use super::{Bbr, HIGH_GAIN, QUANTUM_HIGH_BPS, QUANTUM_LOW_BPS, QUANTUM_MAX, UNIT};
use crate::time::Ns;

/// Kathleen Nichols' windowed running maximum (Linux's lib/win_minmax.c): the best, second
/// and third best samples of the window, each no older than the one before.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MaxFilter {
    /// (time, value), best first.
    s: [(u64, u64); 3],
}

impl MaxFilter {
    /// The windowed maximum.
    pub fn get(&self) -> u64 {
        self.s[0].1
    }

    fn reset(&mut self, t: u64, v: u64) -> u64 {
        self.s = [(t, v); 3];
        v
    }

    /// Takes sample `v` at time `t` with window `win`; returns the maximum.
    pub fn update(&mut self, win: u64, t: u64, v: u64) -> u64 {
        if v >= self.s[0].1 || t.wrapping_sub(self.s[2].0) > win {
            return self.reset(t, v);
        }
        if v >= self.s[1].1 {
            self.s[2] = (t, v);
            self.s[1] = (t, v);
        } else if v >= self.s[2].1 {
            self.s[2] = (t, v);
        }
        let dt = t.wrapping_sub(self.s[0].0);
        if dt > win {
            // The best has aged out: the second and third move up.
            self.s[0] = self.s[1];
            self.s[1] = self.s[2];
            self.s[2] = (t, v);
            if t.wrapping_sub(self.s[0].0) > win {
                self.s[0] = self.s[1];
                self.s[1] = self.s[2];
                self.s[2] = (t, v);
            }
        } else if self.s[1].0 == self.s[0].0 && dt > win / 4 {
            // A quarter of the window without a new best: take a second choice.
            self.s[2] = (t, v);
            self.s[1] = (t, v);
        } else if self.s[2].0 == self.s[1].0 && dt > win / 2 {
            self.s[2] = (t, v);
        }
        self.s[0].1
    }
}

/// What a segment carried away when it was (last) sent: the connection's delivery state
/// then (tcp_rate_skb_sent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct TxStamp {
    /// One past the segment's last byte.
    pub(super) end: u64,
    /// Bytes delivered when it was sent.
    pub(super) delivered: u64,
    /// When the last delivery before it happened.
    pub(super) delivered_time: Ns,
    /// Send time of the first segment of its sampling window.
    pub(super) first_sent: Ns,
    /// When it was sent.
    pub(super) sent: Ns,
    /// Sent while the application left the pipe unfilled.
    pub(super) app_limited: bool,
    /// A retransmission.
    pub(super) retx: bool,
    /// Counted delivered already (SACKed before the cumulative ACK covered it).
    pub(super) counted: bool,
}

/// One ACK's delivery-rate sample (Linux's `struct rate_sample`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RateSample {
    /// Bytes delivered over the interval; None: no valid sample.
    pub delivered: Option<u64>,
    /// The interval, ns (the longer of the send and ACK phases).
    pub interval: Ns,
    /// Bytes delivered when the sampled segment was sent.
    pub prior_delivered: u64,
    /// The sample's segment was sent while application-limited.
    pub app_limited: bool,
    /// Bytes newly acknowledged (or counted delivered by a duplicate ACK).
    pub acked: u64,
    /// The same in segments (what cwnd grows by, as Linux counts packets).
    pub acked_segs: u64,
    /// Segments newly presumed lost.
    pub losses: u64,
    /// RTT of the newest segment acknowledged that was sent once.
    pub rtt: Option<Ns>,
}

impl RateSample {
    /// The delivery rate, bytes per second; None without a valid sample.
    pub fn rate(&self) -> Option<u64> {
        let d = self.delivered?;
        (self.interval > 0).then(|| (d as u128 * 1_000_000_000 / self.interval as u128) as u64)
    }
}

/// bytes·gain/256 over `t` ns at `rate` bytes/s: `rate·t/10⁹·gain/256`, rounded up.
pub fn bdp_bytes(rate: u64, t: Ns, gain: u64) -> u64 {
    let num = rate as u128 * t as u128 * gain as u128;
    num.div_ceil(1_000_000_000u128 * UNIT as u128).min(u64::MAX as u128) as u64
}

/// The send quantum at pacing rate `rate` bytes/s (draft-00 §4.2.2.x BBRSetSendQuantum):
/// one SMSS below 1.2 Mbit/s, two below 24 Mbit/s, else one millisecond at the pacing
/// rate, at most 64 KB.
pub fn send_quantum(rate: u64, smss: u64) -> u64 {
    let bps = rate.saturating_mul(8);
    if bps < QUANTUM_LOW_BPS {
        smss
    } else if bps < QUANTUM_HIGH_BPS {
        2 * smss
    } else {
        (rate / 1000).min(QUANTUM_MAX)
    }
}

/// A gain in 1/256 as thousandths (what explanations show).
pub fn milli(gain: u64) -> u64 {
    gain * 1000 / UNIT
}

/// The initial pacing rate: high_gain · cwnd / RTT, with 1 ms before any RTT sample
/// (bbr_init_pacing_rate_from_rtt), bytes/s.
pub(super) fn init_pacing(cwnd: u64, rtt: Ns) -> u64 {
    let rtt = if rtt == 0 || rtt == u64::MAX { 1_000_000 } else { rtt };
    (cwnd as u128 * 1_000_000_000 * HIGH_GAIN as u128 / (rtt as u128 * UNIT as u128)) as u64
}

/// tcp_rate_gen: the connection's delivery state after an ACK, and this ACK's sample from
/// the newest segment it covers (`best`; None for a duplicate ACK).
pub(super) fn rate_gen(b: &mut Bbr, now: Ns, best: Option<TxStamp>, rs: &mut RateSample) {
    if b.app_limited != 0 && b.delivered > b.app_limited {
        b.app_limited = 0;
    }
    if rs.acked > 0 {
        b.delivered_time = now;
    }
    let Some(t) = best else {
        rs.delivered = None;
        return;
    };
    rs.prior_delivered = t.delivered;
    rs.app_limited = t.app_limited;
    let send_phase = t.sent.saturating_sub(t.first_sent);
    b.first_sent_time = t.sent;
    let ack_phase = now.saturating_sub(t.delivered_time);
    rs.interval = send_phase.max(ack_phase);
    rs.delivered = Some(b.delivered - t.delivered);
    // An interval shorter than the smallest RTT cannot be a whole window's delivery.
    if rs.interval < b.conn_min_rtt || b.conn_min_rtt == u64::MAX {
        rs.delivered = None;
    }
}
