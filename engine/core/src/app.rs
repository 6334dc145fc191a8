//! Sending applications: bulk, CBR, thin stream, on/off, scripted and Poisson writes, and
//! short transfers. An application only decides when and how many bytes it hands to TCP;
//! TCP decides when they leave.

use crate::rng::{hash_words, ln_det, unit_open0};
use crate::scenario::{AppCfg, AppKind};
use crate::time::{secs_to_ns, Ns};

/// Stream tag of the Poisson application's gaps in the counter-based randomness.
const POISSON_STREAM: u64 = 0x706f_6973;

/// "Unbounded" bulk data: more than any run can send.
pub const UNBOUNDED: u64 = 1 << 62;

/// One application.
#[derive(Clone, Debug)]
pub struct App {
    kind: AppKind,
    bulk_bytes: u64,
    /// Bytes per periodic write (changeable by the timeline).
    pub write_size: u64,
    /// Time between periodic writes (changeable by the timeline).
    pub write_interval: Ns,
    on: Ns,
    off: Ns,
    start: Ns,
    writes: Vec<(Ns, u64)>,
    next_write: u32,
    /// Seed and flow index: the k-th Poisson gap is a pure function of (seed, flow, k).
    seed: u64,
    flow: u32,
    draws: u64,
}

impl App {
    /// Builds the application of flow `flow` that starts at `start`.
    pub fn new(cfg: &AppCfg, start: Ns, seed: u64, flow: u32) -> App {
        let mut writes: Vec<(Ns, u64)> = cfg.writes.iter().map(|w| (secs_to_ns(w.at), w.bytes)).collect();
        writes.sort_by_key(|w| w.0);
        App {
            kind: cfg.kind,
            bulk_bytes: if cfg.bytes == 0 { UNBOUNDED } else { cfg.bytes },
            write_size: cfg.write_size,
            write_interval: secs_to_ns(cfg.write_interval).max(1),
            on: secs_to_ns(cfg.on).max(1),
            off: secs_to_ns(cfg.off),
            start,
            writes,
            next_write: 0,
            seed,
            flow,
            draws: 0,
        }
    }

    /// The next Poisson gap: exponential with mean `write_interval`, from the k-th draw of
    /// this flow's stream, at least 1 ns.
    fn poisson_gap(&mut self) -> Ns {
        let u = unit_open0(hash_words(&[self.seed, POISSON_STREAM, self.flow as u64, self.draws]));
        self.draws += 1;
        let gap = -ln_det(u) * self.write_interval as f64;
        (gap.round() as u64).max(1)
    }

    /// Bytes available when the flow starts (bulk), and when the first write event is due.
    /// A Poisson source's first write comes one random gap after the start.
    pub fn first(&mut self) -> (u64, Option<Ns>) {
        match self.kind {
            AppKind::Bulk => (self.bulk_bytes, None),
            AppKind::Cbr | AppKind::Thin | AppKind::OnOff => (0, Some(self.start)),
            AppKind::Scripted => (0, self.writes.first().map(|w| w.0)),
            AppKind::Poisson => {
                let at = self.start + self.poisson_gap();
                (0, Some(at))
            }
            AppKind::Transfers if self.writes.is_empty() => {
                let at = self.start + self.poisson_gap();
                (0, Some(at))
            }
            AppKind::Transfers => (0, self.writes.first().map(|w| w.0)),
        }
    }

    fn in_on_period(&self, t: Ns) -> bool {
        self.off == 0 || (t - self.start) % (self.on + self.off) < self.on
    }

    /// A write event at `now`: bytes written, and when the next write event is due.
    pub fn on_write(&mut self, now: Ns) -> (u64, Option<Ns>) {
        match self.kind {
            AppKind::Bulk => (0, None),
            AppKind::Cbr | AppKind::Thin => (self.write_size, Some(now + self.write_interval)),
            AppKind::Poisson => (self.write_size, Some(now + self.poisson_gap())),
            AppKind::Transfers => self.on_transfer_due(now),
            AppKind::OnOff => {
                let bytes = if self.in_on_period(now) { self.write_size } else { 0 };
                let mut next = now + self.write_interval;
                if !self.in_on_period(next) {
                    // Skip to the start of the next on period.
                    let period = self.on + self.off;
                    next = self.start + ((next - self.start) / period + 1) * period;
                }
                (bytes, Some(next))
            }
            AppKind::Scripted => {
                let mut bytes = 0u64;
                while let Some(&(at, b)) = self.writes.get(self.next_write as usize) {
                    if at > now {
                        break;
                    }
                    bytes = bytes.saturating_add(b);
                    self.next_write += 1;
                }
                (bytes, self.writes.get(self.next_write as usize).map(|w| w.0))
            }
        }
    }

    /// A short transfer is due at `now`: its bytes, and when the next one is due. Drawn
    /// transfers are Poisson arrivals, as the Poisson writes; listed ones come one at a
    /// time, even two due at one instant.
    #[cold]
    #[inline(never)]
    fn on_transfer_due(&mut self, now: Ns) -> (u64, Option<Ns>) {
        if self.writes.is_empty() {
            return (self.write_size, Some(now + self.poisson_gap()));
        }
        match self.writes.get(self.next_write as usize) {
            Some(&(at, b)) if at <= now => {
                self.next_write += 1;
                (b, self.writes.get(self.next_write as usize).map(|w| w.0))
            }
            w => (0, w.map(|w| w.0)),
        }
    }

    /// Whether every write is `write_size` bytes, `write_interval` after the one before
    /// (CBR and thin-stream applications), so that a stretch of writes is known in advance.
    pub fn periodic(&self) -> bool {
        matches!(self.kind, AppKind::Cbr | AppKind::Thin)
    }

    /// True once the application will write nothing more (finite bulk, or scripted writes
    /// all done). Always true of short transfers: once all they were handed is
    /// acknowledged, the simulation asks them (`sim/transfers.rs`, [`App::all_written`]).
    pub fn exhausted(&self) -> bool {
        match self.kind {
            AppKind::Bulk => self.bulk_bytes < UNBOUNDED,
            AppKind::Scripted => self.next_write as usize >= self.writes.len(),
            AppKind::Transfers => true,
            _ => false,
        }
    }

    /// Short transfers: every listed transfer has been due (never, for drawn ones).
    pub fn all_written(&self) -> bool {
        !self.writes.is_empty() && self.next_write as usize >= self.writes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    #[test]
    fn on_off_skips_the_off_period() {
        let mut cfg = Scenario::default().flows[0].app.clone();
        cfg.kind = AppKind::OnOff;
        cfg.on = 0.025;
        cfg.off = 0.05;
        cfg.write_interval = 0.01;
        let mut a = App::new(&cfg, 1_000_000_000, 1, 0);
        let (_, mut t) = a.first();
        let mut times = vec![];
        for _ in 0..5 {
            let now = t.unwrap();
            let (b, next) = a.on_write(now);
            times.push((now - 1_000_000_000) / 1_000_000);
            assert_eq!(b, 1460);
            t = next;
        }
        // Writes at 0, 10, 20 ms (on), then the next on period starts at 75 ms.
        assert_eq!(times, vec![0, 10, 20, 75, 85]);
    }

    #[test]
    fn poisson_gaps_are_exponential_with_the_mean_interval_and_reproducible() {
        let mut cfg = Scenario::default().flows[0].app.clone();
        cfg.kind = AppKind::Poisson;
        cfg.write_interval = 0.05;
        let gaps = |seed: u64| {
            let mut a = App::new(&cfg, 0, seed, 2);
            let (_, mut t) = a.first();
            let mut last = 0;
            let mut out = vec![];
            for _ in 0..20_000 {
                let now = t.unwrap();
                out.push(now - last);
                last = now;
                let (b, next) = a.on_write(now);
                assert_eq!(b, 1460);
                t = next;
            }
            out
        };
        let g = gaps(7);
        assert_eq!(g, gaps(7), "same seed, same gaps");
        assert_ne!(g, gaps(8));
        let n = g.len() as f64;
        let mean = g.iter().sum::<u64>() as f64 / n / 1e9;
        let var = g.iter().map(|&x| (x as f64 / 1e9 - mean).powi(2)).sum::<f64>() / n;
        assert!((mean - 0.05).abs() < 0.0015, "mean {mean}");
        // Exponential: standard deviation = mean.
        assert!((var.sqrt() - 0.05).abs() < 0.002, "sd {}", var.sqrt());
    }
}
