//! SACK blocks as an ACK carries them (RFC 2018 §3; D-SACK, RFC 2883 §4), and the store in
//! which they travel beside their ACK.
//!
//! A packet stays small and `Copy` (it travels inside events and queues), so an ACK does not
//! carry its blocks itself: the receiver puts them in the world's [`SackStore`] and the ACK
//! carries the handle in its `len`, which an ACK has no other use for
//! (`Packet::sack_handle`, 0 = none). The handle is released when the ACK reaches its
//! sender or is dropped. A flow without SACK never touches the store.

/// Most blocks one ACK carries: 4 fit the 40 bytes of TCP options without timestamps
/// (RFC 2018 §3: 2 + 8·n bytes), 3 with them.
pub const MAX_BLOCKS: usize = 4;

/// The SACK option of one ACK: its blocks in the order they are sent, each `[left, right)`
/// in the sender's sequence space (bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlocks {
    /// Blocks used, at most [`MAX_BLOCKS`].
    pub n: u8,
    /// Whether the first block reports duplicate data (RFC 2883 §4): it lies below the
    /// cumulative ACK, or inside the second block.
    pub dsack: bool,
    /// The blocks; only the first `n` are meaningful.
    pub blocks: [(u64, u64); MAX_BLOCKS],
    /// The timestamp echo (RFC 7323 §4.3) as far as the sender uses it: the end and the
    /// attempt (`Packet::tx`) of the data segment whose arrival sent this ACK, so the sender
    /// knows which transmission of it arrived.
    pub echo: (u64, u32),
}

impl SackBlocks {
    /// The blocks in order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.blocks[..self.n as usize].iter().copied()
    }

    /// Appends a block if there is room; false when full.
    pub fn push(&mut self, left: u64, right: u64) -> bool {
        if (self.n as usize) < MAX_BLOCKS {
            self.blocks[self.n as usize] = (left, right);
            self.n += 1;
            true
        } else {
            false
        }
    }

    /// Whether the option holds no block.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
}

/// The SACK options of the ACKs in flight, by handle.
#[derive(Clone, Debug, Default)]
pub struct SackStore {
    slots: Vec<SackBlocks>,
    free: Vec<u32>,
}

impl SackStore {
    /// Keeps `b` until its ACK arrives or is dropped; returns the ACK's handle (≥ 1).
    pub fn put(&mut self, b: SackBlocks) -> u32 {
        match self.free.pop() {
            Some(h) => {
                self.slots[h as usize - 1] = b;
                h
            }
            None => {
                self.slots.push(b);
                self.slots.len() as u32
            }
        }
    }

    /// The blocks of handle `h` (none for 0).
    pub fn get(&self, h: u32) -> Option<&SackBlocks> {
        (h != 0).then(|| &self.slots[h as usize - 1])
    }

    /// Takes the blocks of handle `h` and frees it (none for 0).
    pub fn take(&mut self, h: u32) -> Option<SackBlocks> {
        if h == 0 {
            return None;
        }
        self.free.push(h);
        Some(self.slots[h as usize - 1])
    }

    /// Handles in use (ACKs with blocks still travelling).
    pub fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_reused_after_they_are_taken() {
        let mut s = SackStore::default();
        let mut b = SackBlocks::default();
        assert!(b.push(3000, 4000));
        let h1 = s.put(b);
        let h2 = s.put(SackBlocks::default());
        assert_eq!((h1, h2, s.live()), (1, 2, 2));
        assert_eq!(s.take(h1).unwrap().iter().collect::<Vec<_>>(), vec![(3000, 4000)]);
        assert_eq!(s.live(), 1);
        assert_eq!(s.put(SackBlocks::default()), 1);
        assert_eq!(s.get(0), None);
        assert_eq!(s.take(0), None);
    }

    #[test]
    fn at_most_four_blocks() {
        let mut b = SackBlocks::default();
        for i in 0..4 {
            assert!(b.push(i * 10, i * 10 + 5));
        }
        assert!(!b.push(100, 105));
        assert_eq!(b.n, 4);
    }
}
