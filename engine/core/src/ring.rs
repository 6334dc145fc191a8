//! A FIFO of `Copy` items in a power-of-two ring: the per-packet queues of the hot path
//! (packets on a link, segments in flight, writes awaiting delivery). Indexing is a mask
//! rather than `VecDeque`'s wrap test, and the ring only grows (by doubling), so a long run
//! settles into its largest window and never reallocates again.

/// First-in, first-out queue; `get(0)` is the oldest item.
#[derive(Clone, Debug)]
pub struct Ring<T: Copy> {
    buf: Vec<T>,
    /// Index of the oldest item (not wrapped: masked when used).
    head: usize,
    len: usize,
}

impl<T: Copy> Default for Ring<T> {
    fn default() -> Self {
        Ring {
            buf: Vec::new(),
            head: 0,
            len: 0,
        }
    }
}

impl<T: Copy> Ring<T> {
    /// Number of items.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn mask(&self) -> usize {
        self.buf.len().wrapping_sub(1)
    }

    /// Appends an item at the back.
    #[inline]
    pub fn push_back(&mut self, item: T) {
        if self.len == self.buf.len() {
            self.grow(item);
        }
        let i = (self.head + self.len) & self.mask();
        self.buf[i] = item;
        self.len += 1;
    }

    /// Doubles the capacity, keeping the order (`fill` pads the new slots).
    #[cold]
    fn grow(&mut self, fill: T) {
        let cap = (self.buf.len() * 2).max(8);
        let mut buf = Vec::with_capacity(cap);
        buf.extend((0..self.len).map(|k| self.buf[(self.head + k) & self.mask()]));
        buf.resize(cap, fill);
        self.buf = buf;
        self.head = 0;
    }

    /// Removes and returns the oldest item.
    #[inline]
    pub fn pop_front(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let item = self.buf[self.head & self.mask()];
        self.head = (self.head + 1) & self.mask();
        self.len -= 1;
        Some(item)
    }

    /// The oldest item.
    #[inline]
    pub fn front(&self) -> Option<&T> {
        self.get(0)
    }

    /// The `k`-th oldest item.
    #[inline]
    pub fn get(&self, k: usize) -> Option<&T> {
        if k < self.len {
            Some(&self.buf[(self.head + k) & self.mask()])
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    #[test]
    fn behaves_as_a_vecdeque_through_growth_and_wrap_around() {
        let mut r = Ring::default();
        let mut d = VecDeque::new();
        // A deterministic mix of pushes and pops that wraps the ring many times and grows
        // it from 8 to 64 slots.
        let mut x = 12345u64;
        for step in 0..20_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let push = !(x >> 33).is_multiple_of(3) || d.len() < (step / 500) as usize;
            if push && d.len() < 60 {
                r.push_back(step);
                d.push_back(step);
            } else {
                assert_eq!(r.pop_front(), d.pop_front());
            }
            assert_eq!(r.len(), d.len());
            assert_eq!(r.front(), d.front());
            if !d.is_empty() {
                let k = (x as usize) % d.len();
                assert_eq!(r.get(k), d.get(k));
            }
            assert_eq!(r.get(d.len()), None);
        }
        while let Some(v) = d.pop_front() {
            assert_eq!(r.pop_front(), Some(v));
        }
        assert!(r.is_empty() && r.pop_front().is_none() && r.front().is_none());
    }
}
