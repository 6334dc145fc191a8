//! The event queue, ordered by (time, insertion sequence), so events at the same instant
//! run in the order they were scheduled. Events are plain data; timers are cancelled by
//! generation counters held by their owners (a stale event is ignored).
//!
//! Packets in flight do not sit in the queue: each link is FIFO with non-decreasing arrival
//! times, so it keeps its own queue of packets on the wire and the event queue holds one
//! entry for that queue's head. It stays as small as the number of links plus timers. A
//! packet that enters its next link early (see `net.rs`) needs no entry at that hop at all.
//! A link with delay variation is not FIFO on the wire: each packet given an extra delay
//! has an entry of its own (`LinkLate`).

use crate::time::Ns;

/// Something that happens at an instant.
#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// The first packet on the wire of a link reaches the far end.
    LinkHead { link: u32 },
    /// A packet with an extra delay (delay variation, see `net.rs`) reaches the far end of a
    /// link: one event per such packet, at its own arrival.
    LinkLate { link: u32 },
    /// A sender's retransmission timer fires (ignored unless `gen` is current).
    Rto { flow: u32, gen: u32 },
    /// A receiver's delayed-ACK timer fires (ignored unless `gen` is current).
    DelAck { flow: u32, gen: u32 },
    /// An application writes its next chunk.
    AppWrite { flow: u32 },
    /// A flow opens its connection (SYN) or starts sending.
    FlowStart { flow: u32 },
    /// A timeline entry changes a parameter.
    Timeline { index: u32 },
    /// A scheduled link finishes a transmission or may start one (ignored unless `gen` is
    /// current).
    LinkService { link: u32, gen: u32 },
    /// A cross-traffic source sends its next packet.
    CrossSend { source: u32 },
    /// A paced sender's next departure time has come.
    Pace { flow: u32 },
    /// A SACK sender's loss timer (RACK's reordering timer or the tail loss probe) fires
    /// (ignored unless `gen` is current).
    LossTimer { flow: u32, gen: u32 },
    /// A short transfer of the flow is due (`sim/transfers.rs`).
    TransferDue { flow: u32 },
}

/// A queue entry: `key` packs (time, insertion sequence) so one integer comparison orders
/// entries.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u128,
    event: Event,
}

/// Pending events, earliest first; ties broken by insertion order. Kept as a vector sorted
/// by descending key, so the next event is popped from the end. The queue holds one entry
/// per link with packets on the wire plus a few timers — three or four for one flow — and a
/// new event usually runs after all but one or two of them, so it is placed by stepping
/// back from the end, moving those one or two entries up by hand. (A binary search and
/// `Vec::insert` did the same work with a call to `memmove` per event: 3 % of a NetSim
/// run's time.) Past a few steps a binary search takes over, for queues of many flows.
#[derive(Debug, Default)]
pub struct EventQueue {
    sorted: Vec<Entry>,
    next_seq: u64,
}

/// The place in the order of scheduling of `push_after_instant`'s entries: rank 0 and up,
/// after any number of `push` calls a run can make.
pub const AFTER_INSTANT: u64 = u64::MAX - u32::MAX as u64;

/// Entries moved by hand before a binary search and a block move place a new one.
const STEPS: usize = 4;

impl EventQueue {
    /// Schedules `event` at `time`.
    #[inline]
    pub fn push(&mut self, time: Ns, event: Event) {
        let key = ((time as u128) << 64) | self.next_seq as u128;
        self.next_seq += 1;
        self.insert(key, event);
    }

    #[inline(always)]
    fn insert(&mut self, key: u128, event: Event) {
        let entry = Entry { key, event };
        let v = &mut self.sorted;
        // Most often it runs before every pending event: it goes last, nothing moves.
        if v.last().is_none_or(|e| e.key > key) {
            v.push(entry);
            return;
        }
        let len = v.len();
        v.push(entry);
        // Step back over the entries that run before this one (smaller keys), moving each
        // up by one.
        let stop = len.saturating_sub(STEPS);
        let mut i = len;
        while i > stop && v[i - 1].key < key {
            v[i] = v[i - 1];
            i -= 1;
        }
        if i == stop && i > 0 && v[i - 1].key < key {
            let j = v[..i].partition_point(|e| e.key > key);
            v.copy_within(j..i, j + 1);
            i = j;
        }
        v[i] = entry;
    }

    /// Schedules `event` at `time`, after every other event at that instant (whenever it
    /// was scheduled). Timeline changes use this, so a change recorded live at time t and the
    /// same change replayed from the scenario take effect at the same point. `rank` orders
    /// several such events at one instant.
    pub fn push_after_instant(&mut self, time: Ns, rank: u32, event: Event) {
        let key = ((time as u128) << 64) | (AFTER_INSTANT + rank as u64) as u128;
        self.insert(key, event);
    }

    /// Time of the next event, if any.
    pub fn peek_time(&self) -> Option<Ns> {
        self.sorted.last().map(|e| (e.key >> 64) as Ns)
    }

    /// Removes and returns the next event.
    pub fn pop(&mut self) -> Option<(Ns, Event)> {
        self.pop_keyed().map(|(t, _, e)| (t, e))
    }

    /// Removes and returns the next event with its place in the order of scheduling: the
    /// number of `push` calls before it (far above the others for `push_after_instant`).
    #[inline]
    pub fn pop_keyed(&mut self) -> Option<(Ns, u64, Event)> {
        self.sorted.pop().map(|e| ((e.key >> 64) as Ns, e.key as u64, e.event))
    }

    /// Number of `push` calls so far.
    pub fn pushed(&self) -> u64 {
        self.next_seq
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_time_events_keep_insertion_order() {
        let mut q = EventQueue::default();
        q.push(10, Event::AppWrite { flow: 1 });
        q.push(5, Event::AppWrite { flow: 2 });
        q.push(10, Event::AppWrite { flow: 3 });
        q.push(5, Event::AppWrite { flow: 4 });
        let order: Vec<u32> = std::iter::from_fn(|| q.pop())
            .map(|(_, e)| match e {
                Event::AppWrite { flow } => flow,
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(order, vec![2, 4, 1, 3]);
    }

    #[test]
    fn pops_in_key_order_for_many_entries() {
        let mut q = EventQueue::default();
        let times: Vec<u64> = (0..500u64).map(|i| (i * 7919) % 211).collect();
        for (i, &t) in times.iter().enumerate() {
            q.push(t, Event::AppWrite { flow: i as u32 });
        }
        let mut last = (0u64, 0u32);
        let mut n = 0;
        while let Some((t, Event::AppWrite { flow })) = q.pop() {
            assert!(
                t > last.0 || (t == last.0 && flow >= last.1) || n == 0,
                "{t} {flow} after {last:?}"
            );
            assert_eq!(times[flow as usize], t);
            last = (t, flow);
            n += 1;
        }
        assert_eq!(n, 500);
    }

    #[test]
    fn interleaved_pushes_and_pops_match_a_sorted_reference() {
        // Pushes anywhere in the order (front, middle, back), pops between them, through
        // growth and wrap-around of the ring; every pop must be the reference's minimum.
        let mut q = EventQueue::default();
        let mut reference: Vec<(u64, u64, u32)> = Vec::new(); // (time, seq, id)
        let (mut seq, mut now, mut x) = (0u64, 0u64, 99u64);
        for id in 0..30_000u32 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let r = x >> 33;
            if r % 5 < 3 || reference.is_empty() {
                let t = now + r % [3, 50, 4000][(id % 3) as usize];
                q.push(t, Event::AppWrite { flow: id });
                reference.push((t, seq, id));
                seq += 1;
            } else {
                let k = (0..reference.len())
                    .min_by_key(|&k| (reference[k].0, reference[k].1))
                    .unwrap();
                let (t, _, id) = reference.swap_remove(k);
                assert_eq!(q.peek_time(), Some(t));
                match q.pop() {
                    Some((qt, Event::AppWrite { flow })) => assert_eq!((qt, flow), (t, id)),
                    other => panic!("{other:?}"),
                }
                now = t;
            }
        }
        assert!(reference.len() > 100, "the queue held many entries at once");
    }
}
