//! Ping probes: a `ping` cross-traffic source sends a small packet every `interval` across
//! the bottleneck (the data direction, or the ACK direction with `reverse`); the far end
//! echoes it back across the other direction, and the echo's arrival is a round-trip-time
//! sample: now − the probe's send time (`start + k · interval`, exact integers). A probe
//! or echo lost on the way (a full queue, a queue discipline, random loss) gives none.
//! The source's packet counters count probes and echoes alike (sent, delivered, dropped);
//! its delivered bytes and the throughput table count the probes only.

use super::World;
use crate::net::{Fate, Packet, PktKind};
use crate::summary::PingSummary;
use crate::tcp::env::Env;
use crate::time::Ns;

/// Columns of the page's ping table (`Sim.pings_cols`): send time and RTT, seconds.
pub const PING_COLUMNS: [&str; 2] = ["t", "rtt"];

/// A ping source's clock and samples.
#[derive(Clone, Debug, Default)]
pub struct PingLog {
    /// First probe.
    pub start: Ns,
    /// Between probes.
    pub interval: Ns,
    /// (probe sent, RTT), in the order the echoes came back.
    pub rows: Vec<(Ns, Ns)>,
}

impl crate::trace::Table for PingLog {
    type Row = (Ns, Ns);
    const COLUMNS: &'static [&'static str] = &PING_COLUMNS;
    fn rows(&self) -> &[(Ns, Ns)] {
        &self.rows
    }
    fn field(name: &str) -> Option<crate::trace::Field<(Ns, Ns)>> {
        use crate::time::ns_to_secs;
        Some(match name {
            "t" => |r| ns_to_secs(r.0),
            "rtt" => |r| ns_to_secs(r.1),
            _ => return None,
        })
    }
}

impl PingSummary {
    /// The summary of a source's samples and losses.
    pub fn of(log: &PingLog, lost: u64) -> PingSummary {
        let mut sorted: Vec<Ns> = log.rows.iter().map(|r| r.1).collect();
        sorted.sort_unstable();
        let n = sorted.len();
        let q = |p| super::transfers::nearest_rank(&sorted, p).map(crate::time::ns_to_secs);
        PingSummary {
            samples: n as u64,
            lost,
            mean_s: (n > 0).then(|| sorted.iter().map(|&x| x as f64).sum::<f64>() / n as f64 / 1e9),
            p50_s: q(50),
            p90_s: q(90),
            p99_s: q(99),
        }
    }
}

/// Each cross-traffic source's ping log (None for the other kinds).
pub(super) fn logs(cross: &[crate::scenario::CrossCfg]) -> Vec<Option<Box<PingLog>>> {
    let ns = crate::time::secs_to_ns;
    let ping = |c: &crate::scenario::CrossCfg| {
        let (start, interval) = (ns(c.start), ns(c.interval).max(1));
        Box::new(PingLog {
            start,
            interval,
            rows: Vec::new(),
        })
    };
    cross
        .iter()
        .map(|c| (c.kind == crate::scenario::CrossKind::Ping).then(|| ping(c)))
        .collect()
}

impl World {
    /// A ping source's packet reached the far end of bottleneck direction `link`: dropped
    /// on the wire (as any cross packet), a probe (tx 1: its bytes delivered, echoed on the
    /// other direction) or an echo (tx 2: a sample; a packet, but not among the delivered
    /// bytes nor in the throughput table, the probe's are).
    #[cold]
    #[inline(never)]
    pub(super) fn ping_arrive(&mut self, link: u32, source: u32, seq: u64, tx: u32, size: u32, fate: Fate) {
        let k = source as usize;
        if fate != Fate::Ok {
            self.cross[k].error_drops += 1;
            return;
        }
        self.cross[k].delivered_packets += 1;
        if tx == 1 {
            self.cross_delivered(link, source, size);
            // The echo is a packet the source's far end sends (counted among its sent):
            // the probe again, as `CrossSource::emit` made it, with tx 2.
            self.cross[k].sent_packets += 1;
            let echo = Packet {
                flow: source,
                kind: PktKind::Udp,
                seq,
                len: size,
                seg: seq as u32,
                tx: 2,
                size,
                fate: Fate::Ok,
                ecn: 0,
            };
            self.transmit(link ^ 1, echo);
        } else if let Some(log) = self.pings[k].as_deref_mut() {
            let sent = log.start.saturating_add(log.interval.saturating_mul(seq));
            log.rows.push((sent, self.now - sent));
        }
    }
}
