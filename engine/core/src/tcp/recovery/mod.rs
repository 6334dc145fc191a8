//! The loss-recovery interface: how a sender hands loss detection and retransmission to a
//! mechanism beside the congestion controller (as neqo's `recovery` sits beside its `cc`).
//!
//! A sender without a mechanism recovers on cumulative ACKs alone, through its controller's
//! duplicate-ACK hooks (RFC 5681, RFC 6582). A flow whose settings choose a mechanism gets
//! one here ([`Recovery::for_flow`], the catalogue), and the sender then calls it at four
//! points: its send loop, every ACK (after the ACK's header is read), the retransmission
//! timer's expiry and the mechanism's own loss timer. The mechanism acts on the connection
//! only through [`Conn`], the narrow door the sender implements, so it can be tested with a
//! fake one; the sender names no mechanism.
//!
//! A new mechanism is a module under this one, a variant of [`Recovery`] and a line in
//! [`Recovery::for_flow`].

#[cfg(test)]
pub(crate) mod fake;
pub mod sack;

use crate::net::sack::SackBlocks;
use crate::scenario::FlowCfg;
use crate::tcp::cc::{Cc, Flight};
use crate::time::Ns;
use crate::trace::{EventKind, RecoveryRow};

/// A segment the sender put on the wire for a mechanism.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sent {
    /// First byte.
    pub seq: u64,
    /// Payload bytes.
    pub len: u32,
    /// Segment number.
    pub no: u32,
    /// Transmission count (1 = first).
    pub tx: u32,
}

/// A counter of the sender's summary that a mechanism moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// A duplicate ACK arrived.
    DupAck,
    /// A loss response on duplicate ACKs or SACK information (a fast retransmit).
    FastRetransmit,
    /// A tail loss probe left.
    Probe,
}

/// What a recovery mechanism may read of and do to its connection: the sender implements
/// it, over the simulation's world. Indexes count the outstanding segments from snd.una.
pub trait Conn {
    /// The current simulated time.
    fn now(&self) -> Ns;
    /// Appends an event-log row for the flow at the current time.
    fn log(&mut self, kind: EventKind, seq: u64, len: u32, seg: u32, tx: u32);
    /// Schedules the mechanism's loss timer entry `gen` at `at` (`Event::LossTimer`).
    fn wake(&mut self, at: Ns, gen: u32);

    /// The oldest unacknowledged byte.
    fn una(&self) -> u64;
    /// One past the highest byte sent.
    fn max(&self) -> u64;
    /// snd.nxt − snd.una, in both units.
    fn flight(&self) -> Flight;
    /// Outstanding segments (sent, not cumulatively acknowledged).
    fn outstanding(&self) -> usize;
    /// The number the next new segment gets.
    fn next_seg_no(&self) -> u32;
    /// Payload bytes the next new segment would carry if the receiver's window and Nagle
    /// let it go now (0 otherwise).
    fn new_len(&self) -> u64;
    /// Whether the application has handed over bytes not yet sent.
    fn new_waits(&self) -> bool;
    /// A small segment Nagle holds (RFC 896): (its length, bytes unacknowledged), if that is
    /// all that holds it apart from the windows.
    fn nagle_held(&self) -> Option<(u64, u64)>;
    /// SMSS and header bytes per packet.
    fn mss(&self) -> u64;
    fn header(&self) -> u64;
    /// The smoothed RTT (0 before a sample) and the retransmission timer's deadline.
    fn srtt(&self) -> Ns;
    fn rto_deadline(&self) -> Option<Ns>;
    /// The congestion controller.
    fn cc(&self) -> &Cc;
    fn cc_mut(&mut self) -> &mut Cc;

    /// Sends a new segment of `len` bytes.
    fn send_new(&mut self, len: u64) -> Sent;
    /// Sends outstanding segment `i` again.
    fn resend(&mut self, i: usize) -> Sent;
    /// The cumulative part of an ACK that acknowledged new data (RTT, controller, timer).
    fn new_ack(&mut self, ack: u64);
    /// Moves a summary counter.
    fn count(&mut self, c: Count);
    /// Restarts the retransmission timer (RFC 6298 (5.3)).
    fn restart_rto(&mut self);
    /// Karn: segment `no` is resent, so the outstanding RTT measurement is dropped.
    fn forget_timing(&mut self, no: u32);
    /// Logs the window changes the controller made since the last call.
    fn trace_changes(&mut self);
    /// Once per send pass, before data leaves: the idle policy looks (RFC 5681 §4.1).
    fn before_send(&mut self);
    /// Whether a paced sender must wait for its next departure (the pacing timer is then
    /// armed).
    fn pacing_wait(&mut self) -> bool;
    /// The rest of a long pass goes in another pass at this instant (the sender's limit of
    /// segments per event).
    fn defer_pass(&mut self);
    /// Most segments one pass sends.
    fn pass_limit(&self) -> u32;
    /// Less than a segment of new data waits, so the send loop is out of data.
    fn out_of_data(&self) -> bool;
    /// A pass sent something; `cwnd_stop`: the window stopped it.
    fn pass_end(&mut self, cwnd_stop: bool);
}

/// The loss-recovery mechanism of a flow.
#[derive(Clone, Debug)]
pub enum Recovery {
    /// SACK-based recovery (RFC 2018, RFC 6675), with PRR, RACK-TLP and early retransmit
    /// as its settings choose.
    Sack(sack::SackSender),
}

impl Recovery {
    /// The catalogue: the mechanism a flow's settings choose, if any.
    pub fn for_flow(cfg: &FlowCfg) -> Option<Box<Recovery>> {
        if cfg.sack.enabled {
            let s = sack::SackSender::new(&cfg.sack, cfg.tcp.mss, cfg.tcp.dupack_threshold);
            return Some(Box::new(Recovery::Sack(s)));
        }
        None
    }

    /// The send loop: what goes next, while the windows allow. Returns how many left.
    pub fn send_loop(&mut self, c: &mut impl Conn) -> u32 {
        match self {
            Recovery::Sack(s) => s.send_loop(c),
        }
    }

    /// An ACK, with the options it carries (`blocks`).
    pub fn on_ack(&mut self, c: &mut impl Conn, ack: u64, blocks: Option<&SackBlocks>) {
        match self {
            Recovery::Sack(s) => s.on_ack(c, ack, blocks),
        }
    }

    /// The data a loss response sizes ssthresh from.
    pub fn loss_flight(&self) -> Flight {
        match self {
            Recovery::Sack(s) => s.loss_flight(),
        }
    }

    /// The retransmission timer expired (after the controller's response); the sender's
    /// send loop follows.
    pub fn on_timeout(&mut self, c: &mut impl Conn) {
        match self {
            Recovery::Sack(s) => {
                s.on_timeout(c.max());
            }
        }
    }

    /// The loss timer's entry `gen` fired.
    pub fn on_loss_timer(&mut self, c: &mut impl Conn, gen: u32) {
        match self {
            Recovery::Sack(s) => s.on_loss_timer(c, gen),
        }
    }

    /// The state the recovery series records.
    pub fn row(&self, srtt: Ns) -> RecoveryRow {
        match self {
            Recovery::Sack(s) => s.row(srtt),
        }
    }
}
