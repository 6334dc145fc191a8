//! Cross traffic: non-reactive (UDP-like) sources that enter the bottleneck at the first
//! router and leave it at the second. They never slow down, whatever happens to their
//! packets, which is what makes them the competing load of Komuro et al. 2006.
//!
//! Packet times are exact integers: a CBR source's k-th packet leaves at
//! `start + ⌊k · size · 8 · 10⁹ / rate⌋` ns (no drift however long the run); an on/off source
//! runs the same clock during its on periods only; a Poisson source's k-th gap is a pure
//! function of (seed, source, k), so the same seed gives the same packets on every platform.
//! A ping source's k-th probe leaves at `start + k · interval`; the far end echoes it
//! (`sim/ping.rs`).

use crate::net::{Fate, Packet, PktKind};
use crate::rng::{hash_words, ln_det, unit_open0};
use crate::scenario::{CrossCfg, CrossKind};
use crate::time::{secs_to_ns, Ns, NS_PER_S};
use serde::Serialize;

/// Stream tag of the Poisson cross-traffic gaps in the counter-based randomness.
const CROSS_STREAM: u64 = 0x6372_6f73;

/// What became of a source's packets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CrossStats {
    /// Packets sent.
    pub sent_packets: u64,
    /// Packets that reached the far end of the bottleneck intact.
    pub delivered_packets: u64,
    /// Their bytes.
    pub delivered_bytes: u64,
    /// Dropped at the tail of a full queue.
    pub queue_drops: u64,
    /// Lost to random (BER or per-packet) loss on the bottleneck.
    pub error_drops: u64,
}

/// One running source.
#[derive(Clone, Debug)]
pub struct CrossSource {
    kind: CrossKind,
    size: u32,
    rate: u64,
    start: Ns,
    /// No packet at or after this time.
    stop: Ns,
    on: Ns,
    period: Ns,
    /// Time between probes (ping).
    interval: Ns,
    /// Whether it sends on the ACK direction.
    pub reverse: bool,
    seed: u64,
    index: u32,
    /// Packets sent so far (the next packet's number).
    sent: u64,
    /// Time of the next packet.
    next: Ns,
}

impl CrossSource {
    /// Source `index` of a scenario with this seed and end.
    pub fn new(cfg: &CrossCfg, index: u32, seed: u64, end: Ns) -> CrossSource {
        let stop = if cfg.stop > 0.0 {
            secs_to_ns(cfg.stop).min(end)
        } else {
            end
        };
        let on = secs_to_ns(cfg.on).max(1);
        let mut s = CrossSource {
            kind: cfg.kind,
            size: cfg.packet_size as u32,
            rate: cfg.rate.max(1),
            start: secs_to_ns(cfg.start),
            stop,
            on,
            period: on + secs_to_ns(cfg.off),
            interval: secs_to_ns(cfg.interval).max(1),
            reverse: cfg.reverse,
            seed,
            index,
            sent: 0,
            next: 0,
        };
        s.next = s.time_of(0, s.start);
        s
    }

    /// Mean gap between packets, ns (exact rational: `size · 8 · 10⁹ / rate`).
    fn clock(&self, k: u64) -> Ns {
        ((k as u128 * self.size as u128 * 8 * NS_PER_S as u128) / self.rate as u128) as Ns
    }

    /// When packet `k` leaves; `prev` is the time of packet k − 1 (Poisson only).
    fn time_of(&self, k: u64, prev: Ns) -> Ns {
        match self.kind {
            CrossKind::Cbr => self.start + self.clock(k),
            CrossKind::Ping => self.start.saturating_add(self.interval.saturating_mul(k)),
            CrossKind::OnOff => {
                // The CBR clock runs only while on: on-time τ maps to whole periods plus the
                // offset into the current on period.
                let tau = self.clock(k);
                // In u128, saturated: with short on periods and long off ones the time of a
                // packet far ahead can lie beyond u64 nanoseconds (past any end of run).
                let t = self.start as u128 + (tau / self.on) as u128 * self.period as u128 + (tau % self.on) as u128;
                t.min(Ns::MAX as u128) as Ns
            }
            CrossKind::Poisson => {
                let u = unit_open0(hash_words(&[self.seed, CROSS_STREAM, self.index as u64, k]));
                let mean = self.clock(1).max(1) as f64;
                prev + ((-ln_det(u) * mean).round() as u64).max(1)
            }
        }
    }

    /// When probe `k` of a ping source was sent.
    pub fn sent_at(&self, k: u64) -> Ns {
        self.time_of(k, 0)
    }

    /// Whether it is a ping source.
    pub fn is_ping(&self) -> bool {
        self.kind == CrossKind::Ping
    }

    /// Time of the next packet, if the source has one before it stops.
    pub fn next_time(&self) -> Option<Ns> {
        (self.next < self.stop).then_some(self.next)
    }

    /// Sends the packet due now and schedules the one after.
    pub fn emit(&mut self) -> Packet {
        let k = self.sent;
        self.sent += 1;
        self.next = self.time_of(self.sent, self.next);
        Packet {
            flow: self.index,
            kind: PktKind::Udp,
            seq: k,
            len: self.size,
            seg: k as u32,
            tx: 1,
            size: self.size,
            fate: Fate::Ok,
            ecn: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(kind: CrossKind, rate: u64) -> CrossCfg {
        CrossCfg {
            kind,
            rate,
            packet_size: 1500,
            start: 1.0,
            stop: 0.0,
            on: 0.5,
            off: 1.5,
            reverse: false,
            interval: 0.1,
        }
    }

    fn times(s: &mut CrossSource) -> Vec<Ns> {
        std::iter::from_fn(|| {
            let t = s.next_time()?;
            s.emit();
            Some(t)
        })
        .collect()
    }

    #[test]
    fn cbr_spacing_is_exact_and_does_not_drift() {
        // 1500 B at 7 Mbit/s: 12000/7e6 s = 1 714 285.714… ns per packet.
        let mut s = CrossSource::new(&cfg(CrossKind::Cbr, 7_000_000), 0, 1, 11 * NS_PER_S);
        let t = times(&mut s);
        assert_eq!(t[0], NS_PER_S);
        assert_eq!(t[1], NS_PER_S + 1_714_285);
        assert_eq!(t[7], NS_PER_S + 12_000_000);
        // 10 s at 7 Mbit/s = 70 Mbit = 5833.33 packets: 5834 start before the end.
        assert_eq!(t.len(), 5834);
        assert_eq!(t[5833], NS_PER_S + (5833u64 * 12_000 * NS_PER_S) / 7_000_000);
    }

    #[test]
    fn an_on_off_source_whose_next_packet_lies_beyond_any_time_sends_no_more() {
        // Found by the fuzzing driver (engine/fuzz): 65 535 B at 1 kbit/s is 524 s of
        // on-time per packet; with 1 µs on periods and 100 000 s off ones, the second packet
        // would leave 5.2e11 periods later (5e25 ns), beyond u64 nanoseconds. Its time
        // overflowed (a panic with overflow checks, a wrapped time without): it is past
        // the end, so the source sends its first packet only.
        let mut c = cfg(CrossKind::OnOff, 1_000);
        c.packet_size = 65_535;
        c.on = 1e-6;
        c.off = 100_000.0;
        let mut s = CrossSource::new(&c, 0, 1, 100_000 * NS_PER_S);
        assert_eq!(times(&mut s), vec![NS_PER_S]);
    }

    #[test]
    fn on_off_sends_only_while_on() {
        // 12 Mbit/s, 1500 B: one packet per ms; on 0.5 s, off 1.5 s from t = 1 s.
        let mut s = CrossSource::new(&cfg(CrossKind::OnOff, 12_000_000), 0, 1, 5 * NS_PER_S);
        let t = times(&mut s);
        assert_eq!(t.len(), 1000, "two on periods of 500 packets before 5 s");
        assert_eq!(t[499], NS_PER_S + 499_000_000);
        assert_eq!(t[500], 3 * NS_PER_S, "the second on period starts at 1 + 2 s");
        assert!(t.iter().all(|&x| (x - NS_PER_S) % (2 * NS_PER_S) < NS_PER_S / 2));
    }

    #[test]
    fn poisson_has_the_mean_rate_and_depends_only_on_seed_and_source() {
        let c = cfg(CrossKind::Poisson, 12_000_000);
        let end = 101 * NS_PER_S;
        let a = times(&mut CrossSource::new(&c, 0, 7, end));
        let b = times(&mut CrossSource::new(&c, 0, 7, end));
        let other = times(&mut CrossSource::new(&c, 1, 7, end));
        assert_eq!(a, b);
        assert_ne!(a[..10], other[..10]);
        // 100 s at a mean of 1000 packets/s: 100 000 ± 4·√100 000.
        let n = a.len() as f64;
        assert!((n - 100_000.0).abs() < 4.0 * 100_000f64.sqrt(), "{n}");
        assert!(a.windows(2).all(|w| w[1] > w[0]));
    }

    #[test]
    fn stop_ends_the_source() {
        let mut c = cfg(CrossKind::Cbr, 12_000_000);
        c.stop = 1.01;
        let t = times(&mut CrossSource::new(&c, 0, 1, 5 * NS_PER_S));
        assert_eq!(t.len(), 10, "packets at 1.000 … 1.009 s");
    }
}
