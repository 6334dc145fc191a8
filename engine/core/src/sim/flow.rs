//! One flow's part of the simulation in one record: its endpoints, its application and
//! what the run keeps of it as it goes (window series, held writes, completion). An event
//! for the flow finds all of it with one index (the fifth round of issue 42 counted six
//! bounds tests on one ACK's path when these were parallel vectors).

use super::World;
use crate::app::App;
use crate::event::Event;
use crate::tcp::receiver::Receiver;
use crate::tcp::sender::Sender;
use crate::time::Ns;
use crate::trace::{FlowSeries, RecoverySeries, ValidationSeries};

/// What the run keeps after each event, the same for every flow: whether decisions are
/// explained, and whether any flow has a validation or a recovery series.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Keep {
    pub explain: bool,
    pub validation: bool,
    pub recovery: bool,
}

/// A flow's endpoints, application and per-flow records. Its number is its sender's
/// (`Sender::flow`), its index in the simulation's flows.
#[derive(Debug)]
pub(super) struct Flow {
    pub sender: Sender,
    pub receiver: Receiver,
    pub app: App,
    /// The window series.
    pub series: FlowSeries,
    /// Window-validation state (None when the idle policy keeps none).
    pub validation: Option<ValidationSeries>,
    /// SACK loss-recovery state (None without SACK).
    pub recovery: Option<RecoverySeries>,
    /// The time of the next write of a periodic application whose writes are held instead
    /// of queued (see [`Flow::release_writes`]); None while its next write is queued.
    pub held: Option<Ns>,
    /// When everything the application wrote was acknowledged and it writes no more.
    pub completion: Option<Ns>,
}

impl Flow {
    /// Makes the held writes due by `t`. A periodic application's write behind a full
    /// segment that waits changes nothing but the bytes written and the write log
    /// (`Sender::write_changes_nothing`), and that holds until the sender's next event. So
    /// such writes are not queued one by one: the sender's next event, a timeline change
    /// and the end of every stretch of the run first make the writes due by then, all at
    /// once (`Sender::held_writes`), each at its own time in the log. A held write due at
    /// the very instant of one of those runs before it.
    #[inline]
    pub fn release_writes(&mut self, t: Ns) {
        let Some(at) = self.held else { return };
        if at > t {
            return;
        }
        let (bytes, gap) = (self.app.write_size, self.app.write_interval);
        let n = (t - at) / gap + 1;
        self.held = Some(at + n * gap);
        if bytes > 0 {
            self.sender.held_writes(at, bytes, gap, n);
        }
    }

    /// After the sender's own event: once a write would change something again, the next
    /// write is queued as an event.
    #[inline(always)]
    pub fn resume_writes(&mut self, world: &mut World) {
        if let Some(at) = self.held {
            if !self.sender.write_changes_nothing() {
                self.queue_write(world, at);
            }
        }
    }

    /// The held write at `at` becomes an event again (out of line: most ACKs keep it held).
    #[cold]
    #[inline(never)]
    fn queue_write(&mut self, world: &mut World, at: Ns) {
        self.held = None;
        world.events.push(at, Event::AppWrite { flow: self.sender.flow });
    }

    /// Records the sender's state after an event at `now`: the window series, and the
    /// validation and recovery series where the run has any (`keep`).
    #[inline(always)]
    pub fn record(&mut self, now: Ns, keep: &Keep) {
        let series = &mut self.series;
        if series.cwnd_only {
            series.record_cwnd(now, self.sender.cc.cwnd());
        } else {
            series.record(now, self.sender.state_row());
        }
        if keep.validation {
            if let (Some(v), Some(row)) = (self.validation.as_mut(), self.sender.cc.validation_row()) {
                v.record(now, row);
            }
        }
        if keep.recovery {
            if let (Some(v), Some(row)) = (self.recovery.as_mut(), self.sender.recovery_row()) {
                v.record(now, row);
            }
        }
    }

    /// After an event that may have changed the sender: its decisions stamped when they
    /// are explained, then its state recorded.
    #[inline(always)]
    pub fn settle(&mut self, world: &mut World, keep: &Keep) {
        if keep.explain {
            self.drain_why(world);
        }
        self.record(world.now, keep);
    }

    /// Stamps the decisions made in this event with the time: each endpoint keeps its own,
    /// and the run keeps the order of their batches.
    #[inline]
    pub fn drain_why(&mut self, world: &mut World) {
        if self.sender.cc.why.log.has_open() || self.receiver.why.log.has_open() {
            self.stamp_why(world);
        }
    }

    #[cold]
    fn stamp_why(&mut self, world: &mut World) {
        let i = self.sender.flow;
        if let Some((first, n)) = self.sender.cc.why.log.stamp() {
            world.push_order(2 * i, first, n);
        }
        if let Some((first, n)) = self.receiver.why.log.stamp() {
            world.push_order(2 * i + 1, first, n);
        }
    }
}
