//! Bounded recording: what a long, fast run keeps of its trace for a page that draws it.
//!
//! The rule, once: a run records in full until its stored rows (window series, event log,
//! queue occupancy) exceed a budget; from then on, rows are reduced as they are produced.
//! Time is cut into buckets of `width` (the run's duration / the bucket count, buckets
//! starting at 0). In each bucket, for each group (a flow's window series; one flow's
//! routine events of one kind; a queue), the reduction keeps the group's first and last row
//! and, for every value column, the first row holding its minimum and the first holding its
//! maximum. Notable events (every kind but the routine ones: losses, retransmissions,
//! timeouts, fast retransmits, recovery, parameter changes, window-validation and model
//! events) are kept in full. Kept rows stay in their original order: the reduced table is a
//! subsequence of the full one, so a plot that draws the minimum and maximum of each
//! device-pixel column draws the same envelope from it whenever its pixel columns are no
//! narrower than a bucket. The rows dropped are hashed first, so the run's digest and
//! summary are those of a full run.

use crate::time::Ns;
use crate::trace::{EventKind, EventRow, FlowState};

/// Buckets over a run's duration the page asks for (4 per device pixel of a 1 000-pixel plot).
pub const DEFAULT_BUCKETS: u64 = 4096;

/// Stored rows of one run above which the page's recording is reduced.
pub const DEFAULT_BUDGET_ROWS: u64 = 300_000;

/// Event kinds produced per packet or per ACK, which the reduction thins out (every other
/// kind is kept in full).
pub fn routine(kind: u8) -> bool {
    const ROUTINE: [EventKind; 7] = [
        EventKind::DataSend,
        EventKind::DataReceived,
        EventKind::AckSent,
        EventKind::AckReceived,
        EventKind::DupAck,
        EventKind::RttSample,
        EventKind::SynSend,
    ];
    ROUTINE.iter().any(|k| *k as u8 == kind)
}

/// A row the reduction can bucket.
pub trait Reducible: Copy {
    /// Number of value columns whose extremes are kept.
    const VALUES: usize;
    /// The row's time.
    fn t(&self) -> Ns;
    /// The group it is reduced in; None: kept in full.
    fn group(&self) -> Option<u32>;
    /// Value column `i` (< VALUES), in an order that matches the plotted numbers' (an
    /// unlimited ssthresh, u64::MAX, is the largest, as +∞ is).
    fn value(&self, i: usize) -> u64;
}

impl Reducible for (Ns, FlowState) {
    const VALUES: usize = 8;
    fn t(&self) -> Ns {
        self.0
    }
    fn group(&self) -> Option<u32> {
        Some(0)
    }
    fn value(&self, i: usize) -> u64 {
        let s = &self.1;
        [
            s.cwnd,
            s.inflated,
            s.ssthresh,
            s.flight,
            s.srtt,
            s.rttvar,
            s.rto,
            s.phase as u64,
        ][i]
    }
}

impl Reducible for EventRow {
    const VALUES: usize = 4;
    fn t(&self) -> Ns {
        self.t
    }
    fn group(&self) -> Option<u32> {
        routine(self.kind).then_some(((self.flow as u32) << 8) | self.kind as u32)
    }
    fn value(&self, i: usize) -> u64 {
        [self.seq, self.len as u64, self.seg as u64, self.tx as u64][i]
    }
}

impl Reducible for (Ns, u32, u64) {
    const VALUES: usize = 2;
    fn t(&self) -> Ns {
        self.0
    }
    fn group(&self) -> Option<u32> {
        Some(0)
    }
    fn value(&self, i: usize) -> u64 {
        [self.1 as u64, self.2][i]
    }
}

/// Rows kept so far in the open bucket for one group: (order, row) of its first and last
/// row and of the first row at each value column's minimum and maximum.
#[derive(Clone, Debug)]
struct Group<R> {
    first: (u64, R),
    last: (u64, R),
    min: Vec<(u64, u64, R)>,
    max: Vec<(u64, u64, R)>,
}

/// Reduces one table's rows, fed in time order, bucket by bucket.
#[derive(Clone, Debug)]
pub struct Reducer<R: Reducible> {
    width: Ns,
    /// The open bucket's index (None: no row fed since the last one was sealed).
    bucket: Option<u64>,
    /// Groups of the open bucket, by group id.
    groups: Vec<(u32, Group<R>)>,
    /// Rows kept in full in the open bucket.
    whole: Vec<(u64, R)>,
    /// Rows fed so far (their order).
    fed: u64,
}

impl<R: Reducible> Reducer<R> {
    /// A reducer with buckets of `width` (at least 1 ns).
    pub fn new(width: Ns) -> Reducer<R> {
        Reducer {
            width: width.max(1),
            bucket: None,
            groups: Vec::new(),
            whole: Vec::new(),
            fed: 0,
        }
    }

    /// Feeds rows; the rows of every bucket that ended are appended to `out`.
    pub fn feed(&mut self, rows: &[R], out: &mut Vec<R>) {
        for &r in rows {
            let b = r.t() / self.width;
            if self.bucket.is_some_and(|open| open != b) {
                self.seal(out);
            }
            self.bucket = Some(b);
            let order = self.fed;
            self.fed += 1;
            let Some(g) = r.group() else {
                self.whole.push((order, r));
                continue;
            };
            match self.groups.iter_mut().find(|(id, _)| *id == g) {
                Some((_, grp)) => {
                    grp.last = (order, r);
                    for i in 0..R::VALUES {
                        let v = r.value(i);
                        if v < grp.min[i].0 {
                            grp.min[i] = (v, order, r);
                        }
                        if v > grp.max[i].0 {
                            grp.max[i] = (v, order, r);
                        }
                    }
                }
                None => {
                    let ext: Vec<(u64, u64, R)> = (0..R::VALUES).map(|i| (r.value(i), order, r)).collect();
                    self.groups.push((
                        g,
                        Group {
                            first: (order, r),
                            last: (order, r),
                            min: ext.clone(),
                            max: ext,
                        },
                    ));
                }
            }
        }
    }

    /// Seals the open bucket if it ends at or before `t` (no row dated before `t` can come).
    pub fn seal_before(&mut self, t: Ns, out: &mut Vec<R>) {
        if self.bucket.is_some_and(|b| (b + 1).saturating_mul(self.width) <= t) {
            self.seal(out);
        }
    }

    /// Seals the open bucket (the end of the run).
    pub fn finish(&mut self, out: &mut Vec<R>) {
        self.seal(out);
    }

    fn seal(&mut self, out: &mut Vec<R>) {
        let mut kept: Vec<(u64, R)> = std::mem::take(&mut self.whole);
        for (_, g) in self.groups.drain(..) {
            kept.push(g.first);
            kept.push(g.last);
            kept.extend(g.min.iter().chain(&g.max).map(|&(_, o, r)| (o, r)));
        }
        kept.sort_unstable_by_key(|&(o, _)| o);
        kept.dedup_by_key(|&mut (o, _)| o);
        out.extend(kept.into_iter().map(|(_, r)| r));
        self.bucket = None;
    }
}

/// Reduces a whole table at once: what bounded recording keeps of `rows` (all of them
/// produced after the reduction began).
pub fn reduce<R: Reducible>(rows: &[R], width: Ns) -> Vec<R> {
    let mut r = Reducer::new(width);
    let mut out = Vec::new();
    r.feed(rows, &mut out);
    r.finish(&mut out);
    out
}

/// The bucket width for `buckets` buckets over a run of `duration`.
pub fn width(duration: Ns, buckets: u64) -> Ns {
    duration.div_ceil(buckets.max(1)).max(1)
}

/// Where a run's reduction began (see [`crate::sim::Simulation::reduction`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Began {
    /// The simulated time when it began: rows produced before it are kept in full.
    pub at: Ns,
    /// Bucket width.
    pub width: Ns,
    /// Rows of each table kept in full: each flow's series, then the event log, then each
    /// traced queue (in [`crate::sim::Simulation::queues`] order).
    pub full_rows: Vec<usize>,
}

/// A simulation's bounded-recording state (see [`crate::sim::Simulation::set_bounded`]).
#[derive(Clone, Debug)]
pub struct Bounded {
    /// Stored rows above which the reduction begins.
    pub budget: u64,
    /// Bucket width.
    pub width: Ns,
    /// Set once the reduction has begun.
    pub began: Option<Began>,
    /// Per table (as in [`Began::full_rows`]): rows stored, i.e. already reduced or kept.
    pub kept: Vec<usize>,
    /// Per flow's series.
    pub series: Vec<Reducer<(Ns, FlowState)>>,
    /// The event log.
    pub events: Reducer<EventRow>,
    /// Per traced queue.
    pub queues: Vec<Reducer<(Ns, u32, u64)>>,
    /// Per flow: its rounds, counted from every row before reduction (see `rounds.rs`), and
    /// those that ended.
    pub rounds: Vec<(crate::rounds::RoundTracker, Vec<crate::rounds::Round>)>,
}

impl Bounded {
    /// A state for `flows` flows and `queues` traced queues.
    pub fn new(budget: u64, width: Ns, flows: usize, queues: usize) -> Bounded {
        Bounded {
            budget,
            width,
            began: None,
            kept: Vec::new(),
            series: (0..flows).map(|_| Reducer::new(width)).collect(),
            events: Reducer::new(width),
            queues: (0..queues).map(|_| Reducer::new(width)).collect(),
            rounds: (0..flows as u32)
                .map(|f| (crate::rounds::RoundTracker::new(f), Vec::new()))
                .collect(),
        }
    }
}
