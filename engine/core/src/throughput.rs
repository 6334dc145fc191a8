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
//! Rows are written when a bin closes (the first record in a later bin) and at the end of
//! the run; only bins in which a class moved bytes have a row.

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

/// Bytes per class per bin.
#[derive(Clone, Debug)]
pub struct ThroughputTable {
    bin: Ns,
    current: u64,
    /// End of the open bin: time only moves forward, so one comparison finds a new bin.
    edge: Ns,
    acc: Vec<[u64; 2]>,
    touched: bool,
    /// Completed rows, in time then class order.
    pub rows: Vec<ThroughputRow>,
    /// Whether rows are stored or dropped.
    pub stream: Stream,
}

impl ThroughputTable {
    /// A table of `classes` classes with bins of `bin` ns.
    pub fn new(classes: usize, bin: Ns) -> ThroughputTable {
        ThroughputTable {
            bin: bin.max(1),
            current: 0,
            edge: bin.max(1),
            acc: vec![[0; 2]; classes],
            touched: false,
            rows: Vec::new(),
            stream: Stream::default(),
        }
    }

    /// Bin width, ns.
    pub fn bin(&self) -> Ns {
        self.bin
    }

    /// Adds `bytes` to `class`'s column at time `now`.
    #[inline]
    pub fn add(&mut self, now: Ns, class: usize, col: Col, bytes: u64) {
        if now >= self.edge {
            self.flush();
            self.current = now / self.bin;
            self.edge = (self.current + 1) * self.bin;
        }
        self.acc[class][col as usize] += bytes;
        self.touched = true;
    }

    /// Writes the rows of the open bin (the end of the run).
    pub fn flush(&mut self) {
        if !self.touched {
            return;
        }
        let t = self.current * self.bin;
        for (c, a) in self.acc.iter_mut().enumerate() {
            if *a != [0, 0] {
                let row = (t, c as u32, a[0], a[1]);
                if self.stream.take(&row) {
                    self.rows.push(row);
                }
                *a = [0, 0];
            }
        }
        self.touched = false;
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
        t.add(1, 0, Col::Bottleneck, 100);
        t.add(9, 0, Col::Delivered, 40);
        t.add(9, 1, Col::Delivered, 7);
        assert!(t.rows.is_empty());
        t.add(35, 1, Col::Bottleneck, 5);
        assert_eq!(t.rows, vec![(0, 0, 100, 40), (0, 1, 0, 7)]);
        t.flush();
        assert_eq!(t.rows[2], (30, 1, 5, 0));
        t.flush();
        assert_eq!(t.rows.len(), 3, "flushing twice adds nothing");
        assert_eq!(t.column("t", 0).unwrap(), vec![0.0, 0.0, 3e-8]);
    }
}
