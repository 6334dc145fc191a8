//! The endpoints' one door to the world: the narrow interface a sender or a receiver acts
//! through (as smoltcp's sockets dispatch through a closure). The simulation's `World`
//! implements it; the endpoints' unit tests implement it with a fake network
//! (`tcp::testnet`). Every call is generic and monomorphised, so the seam costs nothing.

use crate::event::Event;
use crate::net::sack::SackBlocks;
use crate::net::Packet;
use crate::time::Ns;
use crate::trace::EventKind;

/// What an endpoint may do to the world, and all it may read of it.
pub trait Env {
    /// The current simulated time.
    fn now(&self) -> Ns;
    /// Schedules one of the endpoint's timers (`Event::Rto`, `Event::Pace`, `Event::DelAck`)
    /// at `at`; a timer is cancelled by its owner's generation counter.
    fn schedule(&mut self, at: Ns, ev: Event);
    /// Puts a new packet on the endpoint's first link.
    fn transmit(&mut self, link: u32, pkt: Packet);
    /// Puts a new ACK carrying the SACK option `blocks` on the endpoint's first link.
    fn transmit_sack(&mut self, link: u32, pkt: Packet, blocks: SackBlocks);
    /// Appends an event-log row at the current time.
    fn log(&mut self, flow: u32, kind: EventKind, seq: u64, len: u32, seg: u32, tx: u32);
    /// A data segment was sent (its `attempt`-th copy): the world tracks which copies reach
    /// the receiver, to tell spurious retransmissions.
    fn data_sent(&mut self, flow: u32, seq: u64, len: u32, seg: u32, attempt: u32);
    /// A data segment's `attempt`-th copy reached the receiver.
    fn data_arrived(&mut self, flow: u32, seg: u32, attempt: u32);
}
