//! Columnar outputs: per-flow time series (one row whenever a plotted value changes), the
//! event log (one row per packet or congestion event) and the 64-bit trace digest.
//! Rows are appended only while events are processed, so any slicing of a run into
//! `advance` calls produces the same rows in the same order.

use crate::scenario::EventFilter;
use crate::time::{ns_to_secs, Ns};

mod qdisc;
mod recovery;
mod window;
pub use qdisc::{QdiscRow, QdiscSeries, QDISC_COLUMNS};
pub use recovery::{RecoveryRow, RecoverySeries, LOSS_TIMER_KINDS, RECOVERY_COLUMNS};
pub use window::{FlowSeries, FlowState, SERIES_COLUMNS};

/// Kinds of event-log rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum EventKind {
    /// First transmission of a data segment.
    DataSend = 0,
    /// Any later transmission of a data segment (timeout, fast retransmit, go-back-N).
    Retransmit = 1,
    /// Data packet dropped by a full queue.
    QueueDrop = 2,
    /// Data packet lost to random errors.
    ErrorDrop = 3,
    /// Data packet dropped by the script.
    ScriptedDrop = 4,
    /// Data segment reached the receiver.
    DataReceived = 5,
    /// Receiver sent an ACK.
    AckSent = 6,
    /// Sender received an ACK (new or duplicate).
    AckReceived = 7,
    /// Sender counted a duplicate ACK (`len` holds the count).
    DupAck = 8,
    /// Fast retransmit (3rd duplicate ACK): loss response started.
    FastRetransmit = 9,
    /// NewReno partial ACK.
    PartialAck = 10,
    /// Fast recovery ended.
    RecoveryExit = 11,
    /// Retransmission timer expired.
    Timeout = 12,
    /// SYN sent (`tx` = attempt).
    SynSend = 13,
    /// SYN-ACK received: data transfer starts.
    SynAckReceived = 14,
    /// ACK dropped by a full queue.
    AckQueueDrop = 15,
    /// ACK lost to random errors.
    AckErrorDrop = 16,
    /// A 3rd duplicate ACK that `recover` says belongs to a loss already handled.
    FastRetransmitSuppressed = 17,
    /// A timeline entry changed a parameter (`seq` = entry index).
    ParamChange = 18,
    /// A finite application's data is all acknowledged.
    FlowComplete = 19,
    /// RFC 2861: cwnd halved per RTO idle. This and the next six kinds carry the window:
    /// `seq` = cwnd before, `len` = cwnd after, `seg` = ssthresh before, `tx` = ssthresh
    /// after (bytes; the u32 fields saturate, 4294967295 = unlimited).
    IdleDecay = 20,
    /// RFC 2861: cwnd decayed toward W_used after an RTO application-limited.
    AppLimitedDecay = 21,
    /// RFC 5681 §4.1: cwnd = min(cwnd, IW) after idle.
    IdleRestart = 22,
    /// RFC 7661: entered the non-validated phase.
    NvpEnter = 23,
    /// RFC 7661: validated again.
    NvpExit = 24,
    /// RFC 7661 §4.4.3: the non-validated phase reached its time limit.
    NvpExpiry = 25,
    /// RFC 7661 §4.4.1: cwnd set from pipeACK after a loss in the non-validated phase.
    NvpLossResponse = 26,
    /// A Karn-valid RTT sample: `seq` = the sample the estimator took (quantised to the TCP
    /// clock tick), ns; `len` = the exact elapsed time, µs; `seg` = the timed segment (0 =
    /// the SYN). Derived from the send and ACK rows, so it is not part of the digest.
    RttSample = 27,
    /// A retransmission found spurious: an earlier copy of the segment reached the receiver
    /// (`seq`, `len`, `seg` = the segment, `tx` = the spurious attempt). Logged when it
    /// becomes known: at its send if an earlier copy had arrived, else when one arrives.
    /// Derived from the send and receive rows, so it is not part of the digest.
    SpuriousRetransmit = 28,
    /// A CUBIC congestion-avoidance epoch began (RFC 9438 §4.2): `seq` = W_max, bytes;
    /// `len` = cwnd_epoch, bytes (saturating); `seg` = K, µs (saturating). What the window
    /// plot draws its references from.
    CubicEpoch = 29,
    /// BBR's model changed: `seq` = BtlBw, bit/s; `len` = RTprop, µs (0: none yet); `seg` =
    /// BDP = BtlBw·RTprop, bytes; `tx` = state·16 + ProbeBW phase (state 0 Startup, 1 Drain,
    /// 2 ProbeBW, 3 ProbeRTT).
    BbrModel = 30,
    /// BBR's pacing at the same instant: `seq` = pacing rate, bit/s; `len` = pacing gain,
    /// `seg` = cwnd gain (both in 1/256); `tx` as `bbr_model`.
    BbrPacing = 31,
    /// A SACK block the ACK just received carried (RFC 2018), logged after its
    /// `ack_received` row, in the option's order: `seq` = left edge, `len` = bytes (right −
    /// left, saturating), `seg` = its place (0 = first), `tx` = 1 for a D-SACK block (RFC
    /// 2883: data received twice), else 0.
    SackBlock = 32,
    /// The scoreboard deemed a segment lost (`seq`, `len`, `seg` = the segment; `tx` = how:
    /// 1 IsLost (DupThresh SACKed above it, RFC 6675 §4), 2 RACK (RFC 8985 §6), 3 the first
    /// segment at the start of recovery).
    MarkedLost = 33,
    /// A tail loss probe left (RFC 8985 §7): `seq`, `len`, `seg` = the segment, `tx` = its
    /// attempt (1 = new data).
    TailLossProbe = 34,
    /// A queue discipline (RED, CoDel) dropped a data packet (`net/qdisc`): `seq`, `len`,
    /// `seg`, `tx` as `queue_drop`. A full buffer's drop stays `queue_drop`.
    AqmDrop = 35,
    /// A queue discipline dropped an ACK.
    AckAqmDrop = 36,
    /// A queue discipline marked an ECN-capable data packet CE instead of dropping it
    /// (RFC 3168 §5): `seq`, `len`, `seg`, `tx` as `aqm_drop`.
    CeMark = 37,
    /// The sender received an ACK with ECN-Echo: `seq` = the ACK, `seg` = 1 when it reduced
    /// the window (the first of a window of data), 0 otherwise.
    EcnEcho = 38,
    /// A new data segment carried CWR (the first after a reduction): `seq`, `len`, `seg`,
    /// `tx` as `data_send`.
    Cwr = 39,
    /// DCTCP's α at the end of a window of data: `seq` = α after (1/1024), `len` = bytes
    /// acknowledged with ECE, `seg` = bytes acknowledged, `tx` = α before.
    DctcpAlpha = 40,
    /// A short transfer began on a fresh connection (`sim/transfers.rs`): `seq` = its first
    /// byte, `len` = its bytes (saturating), `seg` = its number in the flow (from 0), `tx`
    /// = how long it waited for the transfer before it, µs (saturating).
    TransferStart = 41,
    /// A short transfer's last byte was acknowledged: `seq` = its end, `len` = its
    /// completion time (from when it was due), µs (saturating), `seg` = its number.
    TransferEnd = 42,
}

impl EventKind {
    /// Every kind, in code order.
    pub const ALL: [EventKind; 43] = [
        EventKind::DataSend,
        EventKind::Retransmit,
        EventKind::QueueDrop,
        EventKind::ErrorDrop,
        EventKind::ScriptedDrop,
        EventKind::DataReceived,
        EventKind::AckSent,
        EventKind::AckReceived,
        EventKind::DupAck,
        EventKind::FastRetransmit,
        EventKind::PartialAck,
        EventKind::RecoveryExit,
        EventKind::Timeout,
        EventKind::SynSend,
        EventKind::SynAckReceived,
        EventKind::AckQueueDrop,
        EventKind::AckErrorDrop,
        EventKind::FastRetransmitSuppressed,
        EventKind::ParamChange,
        EventKind::FlowComplete,
        EventKind::IdleDecay,
        EventKind::AppLimitedDecay,
        EventKind::IdleRestart,
        EventKind::NvpEnter,
        EventKind::NvpExit,
        EventKind::NvpExpiry,
        EventKind::NvpLossResponse,
        EventKind::RttSample,
        EventKind::SpuriousRetransmit,
        EventKind::CubicEpoch,
        EventKind::BbrModel,
        EventKind::BbrPacing,
        EventKind::SackBlock,
        EventKind::MarkedLost,
        EventKind::TailLossProbe,
        EventKind::AqmDrop,
        EventKind::AckAqmDrop,
        EventKind::CeMark,
        EventKind::EcnEcho,
        EventKind::Cwr,
        EventKind::DctcpAlpha,
        EventKind::TransferStart,
        EventKind::TransferEnd,
    ];

    /// Name used in CSV and JSON.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::DataSend => "data_send",
            EventKind::Retransmit => "retransmit",
            EventKind::QueueDrop => "queue_drop",
            EventKind::ErrorDrop => "error_drop",
            EventKind::ScriptedDrop => "scripted_drop",
            EventKind::DataReceived => "data_received",
            EventKind::AckSent => "ack_sent",
            EventKind::AckReceived => "ack_received",
            EventKind::DupAck => "dup_ack",
            EventKind::FastRetransmit => "fast_retransmit",
            EventKind::PartialAck => "partial_ack",
            EventKind::RecoveryExit => "recovery_exit",
            EventKind::Timeout => "timeout",
            EventKind::SynSend => "syn_send",
            EventKind::SynAckReceived => "syn_ack_received",
            EventKind::AckQueueDrop => "ack_queue_drop",
            EventKind::AckErrorDrop => "ack_error_drop",
            EventKind::FastRetransmitSuppressed => "fast_retransmit_suppressed",
            EventKind::ParamChange => "param_change",
            EventKind::FlowComplete => "flow_complete",
            EventKind::IdleDecay => "idle_decay",
            EventKind::AppLimitedDecay => "app_limited_decay",
            EventKind::IdleRestart => "idle_restart",
            EventKind::NvpEnter => "nvp_enter",
            EventKind::NvpExit => "nvp_exit",
            EventKind::NvpExpiry => "nvp_expiry",
            EventKind::NvpLossResponse => "nvp_loss_response",
            EventKind::RttSample => "rtt_sample",
            EventKind::SpuriousRetransmit => "spurious_retransmit",
            EventKind::CubicEpoch => "cubic_epoch",
            EventKind::BbrModel => "bbr_model",
            EventKind::BbrPacing => "bbr_pacing",
            EventKind::SackBlock => "sack_block",
            EventKind::MarkedLost => "marked_lost",
            EventKind::TailLossProbe => "tail_loss_probe",
            EventKind::AqmDrop => "aqm_drop",
            EventKind::AckAqmDrop => "ack_aqm_drop",
            EventKind::CeMark => "ce_mark",
            EventKind::EcnEcho => "ecn_echo",
            EventKind::Cwr => "cwr",
            EventKind::DctcpAlpha => "dctcp_alpha",
            EventKind::TransferStart => "transfer_start",
            EventKind::TransferEnd => "transfer_end",
        }
    }

    /// 0: congestion-level (always kept), 1: sender side, 2: receiver side.
    fn level(self) -> u8 {
        match self {
            EventKind::DataReceived | EventKind::AckSent => 2,
            EventKind::DataSend
            | EventKind::AckReceived
            | EventKind::DupAck
            | EventKind::SynSend
            | EventKind::RttSample => 1,
            _ => 0,
        }
    }

    /// Rows computed from other rows (RTT samples from sends and ACKs, spurious
    /// retransmissions from sends and arrivals): kept out of the digest, which therefore
    /// keeps the value it had before these kinds existed.
    pub fn derived(self) -> bool {
        matches!(self, EventKind::RttSample | EventKind::SpuriousRetransmit)
    }
}

/// One event-log row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventRow {
    /// Time.
    pub t: Ns,
    /// Data: first byte of the segment. ACK rows: the acknowledgment number. Timeline rows:
    /// the entry index.
    pub seq: u64,
    /// Payload bytes (DupAck rows: the duplicate count).
    pub len: u32,
    /// Segment number (SYN = 0, data from 1); ACK rows: duplicate index of that ACK value.
    pub seg: u32,
    /// Transmission attempt (1 = original); Timeout rows: backoff count after the timeout.
    pub tx: u32,
    /// Flow index.
    pub flow: u16,
    /// [`EventKind`] code.
    pub kind: u8,
}

/// Column names of the event log, in output order.
pub const EVENT_COLUMNS: [&str; 7] = ["t", "flow", "kind", "seq", "len", "seg", "tx"];

/// The event log: one row per packet or congestion event (filtered by level).
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    /// The rows, in time order.
    pub rows: Vec<EventRow>,
    /// Rows of a level below this are kept (0: none, see [`EventLog::silence`]).
    keep_below: u8,
    /// Whether rows are stored or dropped (see [`Stream`]).
    pub stream: Stream,
}

impl EventLog {
    /// An empty log keeping the rows `filter` allows.
    pub fn new(filter: EventFilter) -> EventLog {
        EventLog {
            rows: Vec::new(),
            keep_below: match filter {
                EventFilter::All => 3,
                EventFilter::Sender => 2,
                EventFilter::Congestion => 1,
            },
            stream: Stream::default(),
        }
    }

    /// Appends a row if the filter keeps this kind.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn push(&mut self, now: Ns, flow: u32, kind: EventKind, seq: u64, len: u32, seg: u32, tx: u32) {
        if kind.level() < self.keep_below {
            let row = EventRow {
                t: now,
                seq,
                len,
                seg,
                tx,
                flow: flow as u16,
                kind: kind as u8,
            };
            if self.stream.take(&row) {
                self.rows.push(row);
            }
        }
    }

    /// Keeps no row at all, not even for the digest: for runs whose rows nobody stores or
    /// hashes (the summary reads its counters elsewhere).
    pub fn silence(&mut self) {
        self.keep_below = 0;
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// One column (see [`EVENT_COLUMNS`]) from row `from`, as numbers (time in seconds).
    pub fn column(&self, name: &str, from: usize) -> Option<Vec<f64>> {
        let f = event_field(name)?;
        Some(self.rows[from.min(self.rows.len())..].iter().map(f).collect())
    }
}

/// Reads one output column from a row, as a number.
pub type Field<Row> = fn(&Row) -> f64;

/// How to read one [`EVENT_COLUMNS`] column from a row, as a number (time in seconds).
fn event_field(name: &str) -> Option<Field<EventRow>> {
    Some(match name {
        "t" => |r| ns_to_secs(r.t),
        "flow" => |r| r.flow as f64,
        "kind" => |r| r.kind as f64,
        "seq" => |r| r.seq as f64,
        "len" => |r| r.len as f64,
        "seg" => |r| r.seg as f64,
        "tx" => |r| r.tx as f64,
        _ => return None,
    })
}

impl EventLog {
    /// Rows from `from` whose kind is in `kinds` (bit k = [`EventKind`] code k) and, if given,
    /// of flow `flow`, as the [`EVENT_COLUMNS`] selected by `columns` (bit i = column i), one
    /// after another (column-major, time in seconds): a front end reads everything new that
    /// it draws in one call.
    pub fn select(&self, from: usize, kinds: u64, flow: Option<u16>, columns: u32) -> Vec<f64> {
        let rows: Vec<&EventRow> = self.rows[from.min(self.rows.len())..]
            .iter()
            .filter(|r| kinds & (1u64 << r.kind) != 0 && flow.is_none_or(|f| r.flow == f))
            .collect();
        masked_columns(&rows, &EVENT_COLUMNS, event_field, columns)
    }
}

/// The columns of `rows` named in `names` and selected by `columns` (bit i = `names[i]`),
/// one after another (column-major), each read with `field`.
pub(crate) fn masked_columns<Row, R: std::borrow::Borrow<Row>>(
    rows: &[R],
    names: &[&str],
    field: fn(&str) -> Option<Field<Row>>,
    columns: u32,
) -> Vec<f64> {
    let mut out = Vec::with_capacity(rows.len() * columns.count_ones() as usize);
    for (i, name) in names.iter().enumerate() {
        if columns & (1 << i) == 0 {
            continue;
        }
        let f = field(name).expect("every listed column has a field");
        out.extend(rows.iter().map(|r| f(r.borrow())));
    }
    out
}

/// A table of rows with named columns, which front ends read from a cursor (row `from` on),
/// a column at a time or several selected by a bit mask.
pub trait Table {
    /// One row.
    type Row;
    /// Column names, in output order.
    const COLUMNS: &'static [&'static str];
    /// The stored rows.
    fn rows(&self) -> &[Self::Row];
    /// How to read one column from a row, in output units.
    fn field(name: &str) -> Option<Field<Self::Row>>;

    /// Number of rows.
    fn len(&self) -> usize {
        self.rows().len()
    }

    /// True when there are no rows.
    fn is_empty(&self) -> bool {
        self.rows().is_empty()
    }

    /// The columns selected by `columns` (bit i = column i) from row `from`, one after
    /// another (column-major), in output units.
    fn columns(&self, from: usize, columns: u32) -> Vec<f64> {
        self.columns_to(from, self.len(), columns)
    }

    /// The same, of rows `from..to` only.
    fn columns_to(&self, from: usize, to: usize, columns: u32) -> Vec<f64> {
        let rows = self.rows();
        let to = to.min(rows.len());
        masked_columns(&rows[from.min(to)..to], Self::COLUMNS, Self::field, columns)
    }

    /// One column from row `from`, in output units.
    fn column(&self, name: &str, from: usize) -> Option<Vec<f64>> {
        self.column_to(name, from, self.len())
    }

    /// The same, of rows `from..to` only.
    fn column_to(&self, name: &str, from: usize, to: usize) -> Option<Vec<f64>> {
        let f = Self::field(name)?;
        let rows = self.rows();
        let to = to.min(rows.len());
        Some(rows[from.min(to)..to].iter().map(f).collect())
    }
}

/// The traced state of a flow's idle policy (`tcp::cc::validation` fills it in).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValidationRow {
    /// TCP-clock time of the last data send, ns (`u64::MAX` before the first).
    pub t_last: Ns,
    /// RFC 2861 T_prev, ns (`u64::MAX` when the policy has none).
    pub t_prev: Ns,
    /// RFC 2861 W_used, bytes.
    pub w_used: u64,
    /// RFC 7661 pipeACK, bytes (`u64::MAX` while undefined or not used).
    pub pipeack: u64,
    /// RFC 7661 phase: 0 validated (or not new CWV), 1 non-validated.
    pub nvp: u8,
}

/// Column names of a flow's window-validation series, in output order. Units: t, t_last,
/// t_prev in seconds (NaN while unset); w_used, pipeack in bytes (pipeack NaN while
/// undefined); nvp 1 in RFC 7661's non-validated phase, else 0.
pub const VALIDATION_COLUMNS: [&str; 6] = ["t", "t_last", "t_prev", "w_used", "pipeack", "nvp"];

/// The row of a state that a series records only when it changes: its columns and how to
/// read each one ([`ChangeSeries`]).
pub trait ChangeRow: Copy + PartialEq {
    /// Column names, in output order (`t` first).
    const COLUMNS: &'static [&'static str];
    /// How to read one column from a row, in output units.
    fn field(name: &str) -> Option<Field<(Ns, Self)>>;
}

/// A state over time, a row whenever it changes: the window-validation, SACK recovery and
/// queue-discipline series are one of these each.
#[derive(Clone, Debug)]
pub struct ChangeSeries<R> {
    /// (time, state) rows in time order.
    pub rows: Vec<(Ns, R)>,
    /// The last row recorded (stored or not).
    last: Option<R>,
    /// Whether rows are stored or dropped (see [`Stream`]).
    pub stream: Stream,
}

impl<R> Default for ChangeSeries<R> {
    fn default() -> Self {
        ChangeSeries {
            rows: Vec::new(),
            last: None,
            stream: Stream::default(),
        }
    }
}

impl<R: ChangeRow> ChangeSeries<R>
where
    (Ns, R): DigestRow,
{
    /// Whether rows are neither stored nor hashed (`Recording::Summary` without digest,
    /// chosen before the run): a row that is costly to make need not be made.
    #[inline]
    pub fn silent(&self) -> bool {
        self.stream.drop && !self.stream.hash
    }

    /// Appends a row if the state changed since the last one.
    #[inline]
    pub fn record(&mut self, now: Ns, r: R) {
        if self.last == Some(r) {
            return;
        }
        self.last = Some(r);
        let row = (now, r);
        if self.stream.take(&row) {
            self.rows.push(row);
        }
    }
}

impl<R: ChangeRow> Table for ChangeSeries<R> {
    type Row = (Ns, R);
    const COLUMNS: &'static [&'static str] = R::COLUMNS;
    fn rows(&self) -> &[Self::Row] {
        &self.rows
    }
    fn field(name: &str) -> Option<Field<Self::Row>> {
        R::field(name)
    }
}

/// Window-validation state of one flow over time (only for flows whose idle policy keeps
/// state): a row whenever it changes.
pub type ValidationSeries = ChangeSeries<ValidationRow>;

impl ChangeRow for ValidationRow {
    const COLUMNS: &'static [&'static str] = &VALIDATION_COLUMNS;
    fn field(name: &str) -> Option<Field<(Ns, ValidationRow)>> {
        validation_field(name)
    }
}

/// A count whose `u64::MAX` stands for "none yet" as an output value: `none` then (∞ for an
/// ssthresh not yet set, NaN for a pipeACK not yet measured), the count otherwise.
fn count_or(v: u64, none: f64) -> f64 {
    if v == u64::MAX {
        none
    } else {
        v as f64
    }
}

fn opt_secs(ns: Ns) -> f64 {
    if ns == u64::MAX {
        f64::NAN
    } else {
        ns_to_secs(ns)
    }
}

/// How to read one [`VALIDATION_COLUMNS`] column from a row, in output units.
fn validation_field(name: &str) -> Option<Field<(Ns, ValidationRow)>> {
    Some(match name {
        "t" => |r| ns_to_secs(r.0),
        "t_last" => |r| opt_secs(r.1.t_last),
        "t_prev" => |r| opt_secs(r.1.t_prev),
        "w_used" => |r| r.1.w_used as f64,
        "pipeack" => |r| count_or(r.1.pipeack, f64::NAN),
        "nvp" => |r| r.1.nvp as f64,
        _ => return None,
    })
}

/// A row's contribution to the trace digest: the same words whether the row is stored and
/// hashed later or hashed as it is produced and dropped.
pub trait DigestRow {
    /// Mixes the row's words into `d`.
    fn digest_into(&self, d: &mut Digest);
    /// Whether the row is part of the digest (and its row count) at all.
    #[inline]
    fn digested(&self) -> bool {
        true
    }
}

impl DigestRow for EventRow {
    #[inline]
    fn digested(&self) -> bool {
        !EventKind::ALL[self.kind as usize].derived()
    }

    #[inline]
    fn digest_into(&self, d: &mut Digest) {
        d.words(&[
            self.t,
            self.flow as u64,
            self.kind as u64,
            self.seq,
            self.len as u64,
            self.seg as u64,
            self.tx as u64,
        ]);
    }
}

impl DigestRow for (Ns, u32, u64) {
    #[inline]
    fn digest_into(&self, d: &mut Digest) {
        d.words(&[self.0, self.1 as u64, self.2]);
    }
}

impl DigestRow for (Ns, ValidationRow) {
    #[inline]
    fn digest_into(&self, d: &mut Digest) {
        let (t, r) = self;
        d.words(&[*t, r.t_last, r.t_prev, r.w_used, r.pipeack, r.nvp as u64]);
    }
}

/// How a table keeps its rows: stored (the default: front ends read them), or dropped as
/// they are produced, counted and, unless turned off, hashed into the table's digest — a
/// run that needs only its summary then keeps no trace at all.
#[derive(Clone, Debug, Default)]
pub struct Stream {
    /// Rows are dropped instead of stored.
    pub drop: bool,
    /// Dropped rows are still hashed (the digest stays available).
    pub hash: bool,
    /// Rows dropped that count towards the digest (see [`DigestRow::digested`]).
    pub count: u64,
    /// Digest of the dropped rows.
    pub digest: Digest,
}

impl Stream {
    /// Takes a row: true if the caller should store it.
    #[inline]
    pub fn take<R: DigestRow>(&mut self, row: &R) -> bool {
        if !self.drop {
            return true;
        }
        if row.digested() {
            self.count += 1;
            if self.hash {
                row.digest_into(&mut self.digest);
            }
        }
        false
    }
}

/// Running 64-bit hash of trace rows, for determinism checks (native vs wasm, slicing). One
/// multiply-xorshift round per 64-bit word: cheap enough to run over every row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Digest(u64);

impl Default for Digest {
    fn default() -> Digest {
        Digest(0xcbf2_9ce4_8422_2325)
    }
}

impl Digest {
    /// Mixes in one 64-bit word.
    #[inline]
    pub fn word(&mut self, w: u64) {
        let x = (self.0 ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = x ^ (x >> 29);
    }

    /// Mixes in a list of words.
    #[inline]
    pub fn words(&mut self, ws: &[u64]) {
        for &w in ws {
            self.word(w);
        }
    }

    /// The digest value.
    pub fn finish(self) -> u64 {
        crate::rng::mix64(self.0)
    }
}

/// Digests of append-only row sections, extended from where they stopped: digesting a
/// growing trace costs only the rows added since the last call. Rows already hashed may be
/// taken away (streamed out); the section keeps counting.
#[derive(Clone, Debug, Default)]
pub struct SectionDigests {
    /// (rows counted so far, rows of the current vector hashed, running digest) per section.
    pub sections: Vec<(u64, usize, Digest)>,
}

impl SectionDigests {
    /// Extends section `i` over the rows of `rows` not yet hashed.
    pub fn extend<T: DigestRow>(&mut self, i: usize, rows: &[T]) {
        if self.sections.len() <= i {
            self.sections.resize(i + 1, (0, 0, Digest::default()));
        }
        let (count, done, d) = &mut self.sections[i];
        for r in rows[*done..].iter().filter(|r| r.digested()) {
            r.digest_into(d);
            *count += 1;
        }
        *done = rows.len();
    }

    /// Sets section `i` from a stream that hashed its rows as they were produced.
    pub fn set(&mut self, i: usize, s: &Stream) {
        if self.sections.len() <= i {
            self.sections.resize(i + 1, (0, 0, Digest::default()));
        }
        self.sections[i] = (s.count, 0, s.digest);
    }

    /// The rows of every section were taken away after being hashed.
    pub fn rows_taken(&mut self) {
        for s in &mut self.sections {
            s.1 = 0;
        }
    }

    /// Section `i` (for each length given) was hashed up to its first `lens[i]` rows:
    /// bounded recording replaced the rows after those already hashed with rows it kept
    /// of them (see `bounded.rs`), which are not hashed twice.
    pub fn mark_hashed(&mut self, lens: &[usize]) {
        if self.sections.len() < lens.len() {
            self.sections.resize(lens.len(), (0, 0, Digest::default()));
        }
        for (s, &n) in self.sections.iter_mut().zip(lens) {
            s.1 = n;
        }
    }

    /// Combines every section (its row count and digest) into one value.
    pub fn finish(&self) -> u64 {
        let mut d = Digest::default();
        for (n, _, s) in &self.sections {
            d.word(*n);
            d.word(s.finish());
        }
        d.finish()
    }
}
