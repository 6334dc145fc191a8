//! The throughput table: for every traffic class (each flow, then each cross-traffic
//! source), the bytes that crossed the forward bottleneck intact and the bytes delivered,
//! summed over fixed bins of `trace.throughput_bin`. Plots of throughput over time add whole
//! bins together, so any multiple of the bin is exact.
//!
//! - `bottleneck_bytes`: wire bytes of the class's packets that reached the far end of the
//!   forward bottleneck (retransmissions and duplicates included): its share of the link.
//! - `delivered_bytes`: for a flow, payload handed in order to the receiving application
//!   (goodput); for a cross source, bytes that reached its sink (either direction).
//!
//! Rows are written when a bin closes (the first record made once the run's clock is past
//! it) and at the end of the run; only bins in which a class moved bytes have a row. A
//! record may be dated up to one hop ahead of the clock (a packet that crosses the
//! bottleneck without an event of its own), so the table keeps a few bins open; the rows do
//! not depend on the order in which the records arrive. A record dated far ahead (a hop of
//! many bins: a large packet on a slow link) waits in a bin of its own, apart from the open
//! window, so the work and memory of a record never grow with how far ahead it is (found by
//! the fuzzing driver: one 64 KB packet at 1 kbit/s is 524 s ahead, 524 000 bins of 1 ms).

use crate::time::Ns;
use crate::trace::{Digest, DigestRow, Field, Stream, Table};

/// Column names: bin start (s), class, bytes across the bottleneck, bytes delivered.
pub const THROUGHPUT_COLUMNS: [&str; 4] = ["t", "class", "bottleneck_bytes", "delivered_bytes"];

/// One row: (bin start, class, bottleneck bytes, delivered bytes).
pub type ThroughputRow = (Ns, u32, u64, u64);

impl DigestRow for ThroughputRow {
    #[inline]
    fn digest_into(&self, d: &mut Digest) {
        d.words(&[self.0, self.1 as u64, self.2, self.3]);
    }
}

/// Which column a record adds to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Col {
    /// Crossed the forward bottleneck.
    Bottleneck = 0,
    /// Delivered.
    Delivered = 1,
}

/// Bins the open window holds at most: a record further ahead than this goes to `far`.
const NEAR: u64 = 64;

/// Bytes per class per bin.
#[derive(Clone, Debug)]
pub struct ThroughputTable {
    bin: Ns,
    classes: usize,
    /// Index of the oldest open bin.
    first: u64,
    /// End of the oldest open bin: one comparison finds that the clock has left it.
    edge: Ns,
    /// The open bins, oldest first (bin `first + k` is `open[k]`). A packet that crosses
    /// the bottleneck without an event of its own (see `net.rs`) is counted at its far-end
    /// instant, up to one hop ahead of the clock, so a few bins may be open at once.
    open: std::collections::VecDeque<Bin>,
    /// Bins at least `NEAR` bins after `first` that hold a count, by index: they join `open`
    /// as the clock comes within `NEAR` bins of them (every index here is above `open`'s).
    far: std::collections::BTreeMap<u64, Bin>,
    /// Emptied bins, reused.
    spare: Vec<Bin>,
    /// Completed rows, in time then class order.
    pub rows: Vec<ThroughputRow>,
    /// Whether rows are stored or dropped.
    pub stream: Stream,
    /// Nothing is counted at all (see [`ThroughputTable::silence`]).
    silent: bool,
}

/// One open bin: bytes per class and column.
#[derive(Clone, Debug)]
struct Bin {
    acc: Vec<[u64; 2]>,
    touched: bool,
}

impl Bin {
    fn new(classes: usize) -> Bin {
        Bin {
            acc: vec![[0; 2]; classes],
            touched: false,
        }
    }

    /// Writes the rows of this bin, which starts at `t`, and empties it.
    fn write(&mut self, t: Ns, rows: &mut Vec<ThroughputRow>, stream: &mut Stream) {
        if !self.touched {
            return;
        }
        for (c, a) in self.acc.iter_mut().enumerate() {
            if *a != [0, 0] {
                let row = (t, c as u32, a[0], a[1]);
                if stream.take(&row) {
                    rows.push(row);
                }
                *a = [0, 0];
            }
        }
        self.touched = false;
    }
}

impl ThroughputTable {
    /// A table of `classes` classes with bins of `bin` ns.
    pub fn new(classes: usize, bin: Ns) -> ThroughputTable {
        let bin = bin.max(1);
        let mut open = std::collections::VecDeque::with_capacity(4);
        open.push_back(Bin::new(classes));
        ThroughputTable {
            bin,
            classes,
            first: 0,
            edge: bin,
            open,
            far: std::collections::BTreeMap::new(),
            spare: Vec::new(),
            rows: Vec::new(),
            stream: Stream::default(),
            silent: false,
        }
    }

    /// Counts nothing from now on: for runs whose rows nobody stores or hashes (the summary
    /// reads no bin), so a summary-only run pays one test per record, not the bins' work.
    pub fn silence(&mut self) {
        self.silent = true;
    }

    /// Bin width, ns.
    pub fn bin(&self) -> Ns {
        self.bin
    }

    /// Adds `bytes` to `class`'s column at time `at`, with the run's clock at `now`
    /// (`at >= now`: nothing is ever counted in the past). Bins that end at or before `now`
    /// are complete: they are written first. Nothing, once silenced.
    #[inline(always)]
    pub fn add(&mut self, now: Ns, at: Ns, class: usize, col: Col, bytes: u64) {
        if !self.silent {
            self.count(now, at, class, col, bytes);
        }
    }

    /// [`ThroughputTable::add`]'s work.
    #[inline(never)]
    fn count(&mut self, now: Ns, at: Ns, class: usize, col: Col, bytes: u64) {
        debug_assert!(at >= now, "a count in the past: {at} < {now}");
        if now >= self.edge {
            self.close_until(now);
        }
        let k = if at < self.edge { 0 } else { at / self.bin - self.first };
        let b = if k < NEAR {
            let k = k as usize;
            while self.open.len() <= k {
                self.open_bin();
            }
            &mut self.open[k]
        } else {
            self.far_bin(self.first + k)
        };
        b.acc[class][col as usize] += bytes;
        b.touched = true;
    }

    /// Opens the bin after the newest open one.
    #[cold]
    fn open_bin(&mut self) {
        let b = self.spare.pop().unwrap_or_else(|| Bin::new(self.classes));
        self.open.push_back(b);
    }

    /// The far bin of index `i`, made if it has none yet.
    #[cold]
    fn far_bin(&mut self, i: u64) -> &mut Bin {
        let (spare, classes) = (&mut self.spare, self.classes);
        self.far
            .entry(i)
            .or_insert_with(|| spare.pop().unwrap_or_else(|| Bin::new(classes)))
    }

    /// Moves the far bins now within `NEAR` bins of `first` into the open window, at their
    /// places (the bins between them opened empty).
    fn bring_near(&mut self) {
        while let Some(entry) = self.far.first_entry() {
            let k = *entry.key() - self.first;
            if k >= NEAR {
                break;
            }
            let b = entry.remove();
            while (self.open.len() as u64) < k {
                self.open_bin();
            }
            self.open.push_back(b);
        }
    }

    /// Writes and closes every open bin that ends at or before `now`.
    #[cold]
    fn close_until(&mut self, now: Ns) {
        while self.edge <= now {
            let mut b = self.open.pop_front().expect("one bin is always open");
            b.write(self.first * self.bin, &mut self.rows, &mut self.stream);
            self.spare.push(b);
            self.first += 1;
            self.edge += self.bin;
            self.bring_near();
            if self.open.is_empty() {
                // No count in the window: jump to the clock's bin, or to the next far bin if
                // that comes first (it is written in turn).
                let next = self.far.keys().next().copied().unwrap_or(u64::MAX);
                self.first = self.first.max((now / self.bin).min(next));
                self.edge = (self.first + 1) * self.bin;
                self.bring_near();
                if self.open.is_empty() {
                    self.open_bin();
                }
            }
        }
    }

    /// Writes the rows of every open bin (the end of the run).
    pub fn flush(&mut self) {
        if self.silent {
            return;
        }
        for (k, b) in self.open.iter_mut().enumerate() {
            b.write((self.first + k as u64) * self.bin, &mut self.rows, &mut self.stream);
        }
        for (&i, b) in self.far.iter_mut() {
            b.write(i * self.bin, &mut self.rows, &mut self.stream);
        }
    }
}

impl Table for ThroughputTable {
    type Row = ThroughputRow;
    const COLUMNS: &'static [&'static str] = &THROUGHPUT_COLUMNS;
    fn rows(&self) -> &[Self::Row] {
        &self.rows
    }
    fn field(name: &str) -> Option<Field<Self::Row>> {
        Some(match name {
            "t" => |r| crate::time::ns_to_secs(r.0),
            "class" => |r| r.1 as f64,
            "bottleneck_bytes" => |r| r.2 as f64,
            "delivered_bytes" => |r| r.3 as f64,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_close_when_time_moves_on_and_at_the_end() {
        let mut t = ThroughputTable::new(2, 10);
        t.add(1, 1, 0, Col::Bottleneck, 100);
        t.add(9, 9, 0, Col::Delivered, 40);
        t.add(9, 9, 1, Col::Delivered, 7);
        assert!(t.rows.is_empty());
        t.add(35, 35, 1, Col::Bottleneck, 5);
        assert_eq!(t.rows, vec![(0, 0, 100, 40), (0, 1, 0, 7)]);
        t.flush();
        assert_eq!(t.rows[2], (30, 1, 5, 0));
        t.flush();
        assert_eq!(t.rows.len(), 3, "flushing twice adds nothing");
        assert_eq!(t.column("t", 0).unwrap(), vec![0.0, 0.0, 3e-8]);
    }

    #[test]
    fn a_silenced_table_counts_nothing() {
        let mut t = ThroughputTable::new(1, 10);
        t.add(1, 1, 0, Col::Bottleneck, 100);
        t.silence();
        t.add(2, 2, 0, Col::Delivered, 5);
        t.add(35, 35, 0, Col::Delivered, 5);
        t.flush();
        assert_eq!(t.rows, vec![], "no bin is written, not even the one counted before");
    }

    #[test]
    fn counts_ahead_of_the_clock_land_in_their_own_bins() {
        // The same records in time order, and with some dated ahead of the clock.
        let mut ordered = ThroughputTable::new(2, 10);
        for (at, c, col, b) in [
            (3, 0, Col::Delivered, 1),
            (8, 1, Col::Bottleneck, 2),
            (12, 0, Col::Bottleneck, 4),
            (14, 0, Col::Delivered, 8),
            (31, 1, Col::Delivered, 16),
        ] {
            ordered.add(at, at, c, col, b);
        }
        ordered.flush();
        let mut ahead = ThroughputTable::new(2, 10);
        ahead.add(3, 3, 0, Col::Delivered, 1);
        ahead.add(4, 12, 0, Col::Bottleneck, 4);
        ahead.add(5, 31, 1, Col::Delivered, 16);
        ahead.add(8, 8, 1, Col::Bottleneck, 2);
        assert!(ahead.rows.is_empty(), "no bin closes before the clock leaves it");
        ahead.add(11, 14, 0, Col::Delivered, 8);
        assert_eq!(ahead.rows, vec![(0, 0, 0, 1), (0, 1, 2, 0)]);
        ahead.flush();
        assert_eq!(ahead.rows, ordered.rows);
        assert_eq!(ahead.rows[2..], [(10, 0, 4, 8), (30, 1, 0, 16)]);
    }

    /// What the table must write: every (bin, class) with a count, in time then class order.
    fn reference(bin: Ns, records: &[(Ns, Ns, usize, Col, u64)]) -> Vec<ThroughputRow> {
        let mut m = std::collections::BTreeMap::<(Ns, u32), (u64, u64)>::new();
        for &(_, at, c, col, b) in records {
            let e = m.entry((at / bin * bin, c as u32)).or_default();
            match col {
                Col::Bottleneck => e.0 += b,
                Col::Delivered => e.1 += b,
            }
        }
        m.into_iter().map(|((t, c), (x, y))| (t, c, x, y)).collect()
    }

    #[test]
    fn a_count_far_ahead_costs_one_bin_not_one_per_bin_between() {
        // A 64 KB packet at 1 kbit/s is 524 s ahead: 524 288 bins of 1 ms.
        let bin = 1_000_000;
        let far = 524_288 * bin + 17;
        let records = [
            (0, 0, 0, Col::Bottleneck, 100),
            (5, far, 1, Col::Delivered, 65_535),
            (bin, bin + 3, 0, Col::Delivered, 7),
            (10 * bin, far + 70 * bin, 0, Col::Bottleneck, 1),
            (far - 5 * bin, far - 5 * bin, 1, Col::Bottleneck, 2),
            (far + 100 * bin, far + 100 * bin, 1, Col::Bottleneck, 3),
        ];
        let mut t = ThroughputTable::new(2, bin);
        for (i, &(now, at, c, col, b)) in records.iter().enumerate() {
            t.add(now, at, c, col, b);
            if i == 1 {
                assert!(
                    t.open.len() <= NEAR as usize && t.far.len() == 1,
                    "one far bin, a small window"
                );
            }
        }
        t.flush();
        assert_eq!(t.rows, reference(bin, &records));
        assert_eq!(t.rows.len(), 6);
    }

    #[test]
    fn any_order_of_counts_ahead_writes_the_reference_rows() {
        // Counts up to 200 bins ahead of a clock that moves forward by random steps.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for case in 0..200 {
            let bin = 1 + next(20);
            let classes = 1 + next(3) as usize;
            let mut now = 0;
            let mut records = Vec::new();
            let mut t = ThroughputTable::new(classes, bin);
            for _ in 0..(1 + next(300)) {
                now += next(if case % 3 == 0 { 400 * bin } else { 3 * bin });
                let at = now + next(200 * bin);
                let c = next(classes as u64) as usize;
                let col = if next(2) == 0 { Col::Bottleneck } else { Col::Delivered };
                let b = 1 + next(1500);
                t.add(now, at, c, col, b);
                records.push((now, at, c, col, b));
                // Rows written so far are a prefix of the reference (bins the clock has left).
                let r = reference(bin, &records);
                assert_eq!(t.rows[..], r[..t.rows.len()], "case {case}");
            }
            t.flush();
            assert_eq!(t.rows, reference(bin, &records), "case {case}");
        }
    }
}
