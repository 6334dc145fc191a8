//! The queue-discipline series of a managed bottleneck direction (`net/qdisc`): its row,
//! its columns as `--out` and the page read them, and its digest.

use super::*;

/// A queue discipline's state at one instant. RED fills avg, p and count; CoDel fills
/// sojourn, dropping, count and drop_next; FQ-CoDel fills CoDel's fields from the queue it
/// served last, and active, new, old and fattest; PIE fills p, sojourn (its latest
/// queueing delay) and burst.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QdiscRow {
    /// RED's average queue, in 2⁻¹⁶ packets (bytes in byte mode).
    pub avg: u64,
    /// RED's last drop probability p_a, in 2⁻³² (0 below min_th).
    pub p: u64,
    /// RED: arrivals since the last drop (−1 below min_th). CoDel: drops in the dropping
    /// state.
    pub count: i64,
    /// CoDel: the last departing packet's sojourn, ns.
    pub sojourn: u64,
    /// CoDel: in the dropping state.
    pub dropping: bool,
    /// CoDel: the next drop's time, ns (`u64::MAX` when not dropping).
    pub drop_next: u64,
    /// FQ-CoDel: queues holding packets.
    pub active: u32,
    /// FQ-CoDel: queues on the new list.
    pub new: u32,
    /// FQ-CoDel: queues on the old list.
    pub old: u32,
    /// FQ-CoDel: the largest queue's backlog, bytes.
    pub fattest: u64,
    /// PIE: burst allowance left, ns.
    pub burst: u64,
}

impl Default for QdiscRow {
    fn default() -> QdiscRow {
        QdiscRow {
            avg: 0,
            p: 0,
            count: 0,
            sojourn: 0,
            dropping: false,
            drop_next: u64::MAX,
            active: 0,
            new: 0,
            old: 0,
            fattest: 0,
            burst: 0,
        }
    }
}

/// Column names of a queue-discipline series, in output order. Units: t, sojourn and
/// drop_next in seconds (drop_next NaN when not dropping); avg in packets (bytes in RED's
/// byte mode); p a probability; count a count (RED: −1 below min_th); dropping 1 or 0;
/// active, new and old counts of queues; fattest in bytes.
pub const QDISC_COLUMNS: [&str; 11] = [
    "t",
    "avg",
    "p",
    "count",
    "sojourn",
    "dropping",
    "drop_next",
    "active",
    "new",
    "old",
    "fattest",
];

/// A managed queue's discipline state over time: a row whenever it changes.
pub type QdiscSeries = ChangeSeries<QdiscRow>;

impl ChangeRow for QdiscRow {
    const COLUMNS: &'static [&'static str] = &QDISC_COLUMNS;
    fn field(name: &str) -> Option<Field<(Ns, QdiscRow)>> {
        qdisc_field(name)
    }
}

/// How to read one [`QDISC_COLUMNS`] column from a row, in output units.
fn qdisc_field(name: &str) -> Option<Field<(Ns, QdiscRow)>> {
    Some(match name {
        "t" => |r| ns_to_secs(r.0),
        "avg" => |r| r.1.avg as f64 / 65_536.0,
        "p" => |r| r.1.p as f64 / 4_294_967_296.0,
        "count" => |r| r.1.count as f64,
        "sojourn" => |r| ns_to_secs(r.1.sojourn),
        "dropping" => |r| r.1.dropping as u8 as f64,
        "drop_next" => |r| opt_secs(r.1.drop_next),
        "active" => |r| r.1.active as f64,
        "new" => |r| r.1.new as f64,
        "old" => |r| r.1.old as f64,
        "fattest" => |r| r.1.fattest as f64,
        "burst" => |r| ns_to_secs(r.1.burst),
        _ => return None,
    })
}

impl DigestRow for (Ns, QdiscRow) {
    #[inline]
    fn digest_into(&self, d: &mut Digest) {
        let (t, r) = self;
        d.words(&[
            *t,
            r.avg,
            r.p,
            r.count as u64,
            r.sojourn,
            r.dropping as u64,
            r.drop_next,
            r.active as u64 | (r.new as u64) << 32,
            r.old as u64,
            r.fattest,
            r.burst,
        ]);
    }
}
