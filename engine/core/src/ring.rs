//! A FIFO of `Copy` items in a power-of-two ring: the per-packet queues of the hot path
//! (packets on a link, the sender's segments in flight, the copies the spurious-retransmission
//! tracker follows; the thin-stream write log's queues measured slower as rings and stay
//! `VecDeque`s). Indexing is a mask
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

    /// The oldest item, mutably.
    #[inline]
    pub fn front_mut(&mut self) -> Option<&mut T> {
        self.get_mut(0)
    }

    /// The newest item.
    #[inline]
    pub fn back(&self) -> Option<&T> {
        self.len.checked_sub(1).and_then(|k| self.get(k))
    }

    /// The `k`-th oldest item, mutably.
    #[inline]
    pub fn get_mut(&mut self, k: usize) -> Option<&mut T> {
        if k < self.len {
            let m = self.mask();
            Some(&mut self.buf[(self.head + k) & m])
        } else {
            None
        }
    }

    /// Lengthens the queue to `n` items with copies of `fill` at the back (never shortens).
    pub fn resize(&mut self, n: usize, fill: T) {
        while self.len < n {
            self.push_back(fill);
        }
    }

    /// How many of the first items satisfy `pred`, given that they come before every item
    /// that does not (as `slice::partition_point`): a bisection.
    #[inline]
    pub fn partition_point(&self, mut pred: impl FnMut(&T) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if pred(&self.buf[(self.head + mid) & self.mask()]) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Removes the `n` oldest items (all of them if there are fewer).
    #[inline]
    pub fn drop_front(&mut self, n: usize) {
        let n = n.min(self.len);
        self.head = (self.head + n) & self.mask();
        self.len -= n;
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

impl<T: Copy> std::ops::Index<usize> for Ring<T> {
    type Output = T;
    #[inline]
    fn index(&self, k: usize) -> &T {
        self.get(k).expect("ring index in range")
    }
}

impl<T: Copy> std::ops::IndexMut<usize> for Ring<T> {
    #[inline]
    fn index_mut(&mut self, k: usize) -> &mut T {
        self.get_mut(k).expect("ring index in range")
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
            assert_eq!(r.back(), d.back());
            if !d.is_empty() {
                let k = (x as usize) % d.len();
                assert_eq!(r.get(k), d.get(k));
                assert_eq!(r[k], d[k]);
                // The mutable accessors change the same item as VecDeque's.
                r[k] += 1;
                d[k] += 1;
                *r.front_mut().unwrap() += 2;
                *d.front_mut().unwrap() += 2;
                *r.get_mut(k).unwrap() += 5;
                *d.get_mut(k).unwrap() += 5;
                assert!((0..r.len()).map(|k| r[k]).eq(d.iter().copied()));
            }
            if step % 997 == 0 && d.len() < 50 {
                r.resize(d.len() + 3, 7);
                d.resize(d.len() + 3, 7);
            }
            assert_eq!(r.get(d.len()), None);
        }
        while let Some(v) = d.pop_front() {
            assert_eq!(r.pop_front(), Some(v));
        }
        assert!(r.is_empty() && r.pop_front().is_none() && r.front().is_none() && r.back().is_none());
    }

    #[test]
    fn bisection_and_dropping_the_front_match_a_vecdeque_across_the_wrap() {
        let mut r = Ring::default();
        let mut d = VecDeque::new();
        // Sorted items (ends of transmission never decrease), with repeats, pushed and
        // dropped so that the ring's head wraps around many times.
        let mut v = 0u64;
        for step in 0..5_000u64 {
            v += step % 3;
            r.push_back(v);
            d.push_back(v);
            if step % 7 == 0 {
                let bound = v.saturating_sub(step % 11);
                let k = r.partition_point(|&x| x <= bound);
                assert_eq!(k, d.partition_point(|&x| x <= bound));
                r.drop_front(k);
                d.drain(..k);
                assert!((0..r.len()).map(|k| r[k]).eq(d.iter().copied()));
            }
        }
        assert_eq!(r.partition_point(|_| true), r.len());
        r.drop_front(usize::MAX);
        assert!(r.is_empty() && r.partition_point(|_| true) == 0);
    }
}
