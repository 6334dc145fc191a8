//! Short transfers: the `transfers` application's flow makes a series of finite transfers,
//! each on a fresh connection (`Sender::reopen`: handshake if `tcp.syn`, the initial window,
//! the RTO from scratch), as a browser fetching a page over a new connection does. A
//! transfer is due at its listed time or at a drawn one (`app.rs`); one due while the one
//! before is still running waits for it (one connection at a time per flow). Its completion
//! time runs from when it was due to when its last byte is acknowledged, so a wait counts
//! as a user would count it.

use super::Simulation;
use crate::summary::TransferSummary;
use crate::tcp::env::Env;
use crate::time::Ns;
use crate::trace::EventKind;
use std::collections::VecDeque;

/// Columns of the page's transfers table (`Sim.transfers_cols`): due time, bytes, when it
/// began (after any wait), completion time; seconds and bytes.
pub const TRANSFER_COLUMNS: [&str; 4] = ["t", "bytes", "began", "completion"];

/// One completed transfer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransferRow {
    /// When it was due.
    pub due: Ns,
    /// When its connection opened (later than `due` if it waited).
    pub began: Ns,
    /// Its bytes.
    pub bytes: u64,
    /// From `due` to its last byte acknowledged.
    pub completion: Ns,
}

/// A flow's transfers: those waiting, the one running, those done.
#[derive(Clone, Debug, Default)]
pub struct Transfers {
    /// Due but waiting for the running one: (due, bytes).
    waiting: VecDeque<(Ns, u64)>,
    /// The running one: (due, began, bytes, end sequence).
    running: Option<(Ns, Ns, u64, u64)>,
    /// Transfers begun so far.
    begun: u32,
    /// The completed transfers, in completion order.
    pub rows: Vec<TransferRow>,
}

impl Transfers {
    /// Transfers begun (completed or not).
    pub fn begun(&self) -> u32 {
        self.begun
    }
}

impl crate::trace::Table for Transfers {
    type Row = TransferRow;
    const COLUMNS: &'static [&'static str] = &TRANSFER_COLUMNS;
    fn rows(&self) -> &[TransferRow] {
        &self.rows
    }
    fn field(name: &str) -> Option<crate::trace::Field<TransferRow>> {
        use crate::time::ns_to_secs;
        Some(match name {
            "t" => |r| ns_to_secs(r.due),
            "bytes" => |r| r.bytes as f64,
            "began" => |r| ns_to_secs(r.began),
            "completion" => |r| ns_to_secs(r.completion),
            _ => return None,
        })
    }
}

/// The nearest-rank percentile p (0–100) of sorted values: the ⌈p·n/100⌉-th smallest.
pub fn nearest_rank(sorted: &[Ns], p: u64) -> Option<Ns> {
    let n = sorted.len() as u64;
    (n > 0).then(|| sorted[((p * n).div_ceil(100).max(1) - 1) as usize])
}

impl TransferSummary {
    /// The summary of `t`'s rows.
    pub fn of(t: &Transfers) -> TransferSummary {
        let times: Vec<Ns> = t.rows.iter().map(|r| r.completion).collect();
        let mut sorted = times.clone();
        sorted.sort_unstable();
        let secs = |v: Option<Ns>| v.map(crate::time::ns_to_secs);
        let n = times.len();
        TransferSummary {
            started: t.begun,
            completed: n as u32,
            mean_s: (n > 0).then(|| times.iter().map(|&x| x as f64).sum::<f64>() / n as f64 / 1e9),
            p50_s: secs(nearest_rank(&sorted, 50)),
            p90_s: secs(nearest_rank(&sorted, 90)),
            p99_s: secs(nearest_rank(&sorted, 99)),
            completion_times_s: times.into_iter().map(crate::time::ns_to_secs).collect(),
        }
    }
}

impl Simulation {
    /// A transfer of flow `flow` is due now (its application's write event): it begins, or
    /// waits for the running one; the next one is scheduled.
    #[cold]
    #[inline(never)]
    pub(super) fn on_transfer_due(&mut self, flow: u32) {
        let i = flow as usize;
        let (bytes, next) = self.flows[i].app.on_write(self.world.now);
        if let Some(at) = next {
            self.world.schedule(at, crate::event::Event::TransferDue { flow });
        }
        if bytes > 0 {
            self.transfer_due(i, bytes);
            self.record(flow);
        }
    }

    /// A transfer of flow `i` is due now: it begins, or waits for the running one.
    fn transfer_due(&mut self, i: usize, bytes: u64) {
        let now = self.world.now;
        let Some(t) = self.transfers[i].as_deref_mut() else {
            return;
        };
        if t.running.is_some() || !t.waiting.is_empty() {
            t.waiting.push_back((now, bytes));
            return;
        }
        self.begin_transfer(i, now, bytes);
    }

    /// Opens a fresh connection for a transfer due at `due` and hands it the bytes.
    fn begin_transfer(&mut self, i: usize, due: Ns, bytes: u64) {
        let now = self.world.now;
        let f = &self.scenario.flows[i];
        let rtt = crate::net::path_rtt(&self.scenario, f);
        let s = &mut self.flows[i].sender;
        s.reopen(f, rtt, self.scenario.seed);
        let first = s.app_written;
        s.app_written = first.saturating_add(bytes);
        let written = s.app_written;
        if let Some(log) = s.writes.as_mut() {
            log.write(now, bytes, written);
        }
        let t = self.transfers[i].as_deref_mut().expect("a transfers flow");
        let number = t.begun;
        t.begun += 1;
        t.running = Some((due, now, bytes, written));
        let sat = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
        let waited_us = sat((now - due) / 1_000);
        self.world
            .log(i as u32, EventKind::TransferStart, first, sat(bytes), number, waited_us);
        self.flows[i].sender.start(&mut self.world);
    }

    /// Everything flow `i`'s sender was handed is acknowledged: the running transfer (if
    /// any) completes, and the next waiting one begins at once. Returns whether the flow is
    /// done: its list of transfers all due, none waiting and none running.
    #[cold]
    #[inline(never)]
    pub(super) fn transfer_acked(&mut self, i: usize) -> bool {
        let una = self.flows[i].sender.snd_una;
        let Some(t) = self.transfers[i].as_deref_mut() else {
            return false;
        };
        if let Some((due, began, bytes, end)) = t.running.filter(|r| una >= r.3) {
            let now = self.world.now;
            t.running = None;
            t.rows.push(TransferRow {
                due,
                began,
                bytes,
                completion: now - due,
            });
            let number = t.begun - 1;
            let next = t.waiting.pop_front();
            let us = u32::try_from((now - due) / 1_000).unwrap_or(u32::MAX);
            self.world.log(i as u32, EventKind::TransferEnd, end, us, number, 0);
            if let Some((due, bytes)) = next {
                self.begin_transfer(i, due, bytes);
            }
        }
        let t = self.transfers[i].as_deref().expect("a transfers flow");
        t.running.is_none() && t.waiting.is_empty() && self.flows[i].app.all_written()
    }
}
