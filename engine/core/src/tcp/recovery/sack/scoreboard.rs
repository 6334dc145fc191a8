//! The sender's scoreboard (RFC 6675 §3–4): for each segment above the cumulative ACK,
//! whether the receiver holds it (SACKed), whether it is deemed lost, and whether a
//! retransmission of it is in the network; from these IsLost, the pipe estimate and
//! NextSeg's choice. Segments are the sender's own (fixed boundaries, numbered from 1); the
//! sender reports every transmission and every cumulative ACK.

use crate::net::sack::SackBlocks;
use crate::time::Ns;
use std::collections::{BTreeSet, VecDeque};

/// One outstanding segment as the scoreboard sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// First byte.
    pub seq: u64,
    /// Payload bytes.
    pub len: u32,
    /// Segment number.
    pub no: u32,
    /// Transmissions so far.
    pub tx: u32,
    /// When it was last sent.
    pub xmit: Ns,
    /// The receiver reported it in a SACK block.
    pub sacked: bool,
    /// Deemed lost (IsLost, RACK, or a timeout).
    pub lost: bool,
    /// A retransmission of it is in the network (sent since it was last deemed lost).
    pub rexmit: bool,
}

impl Entry {
    /// One past its last byte.
    pub fn end(&self) -> u64 {
        self.seq + self.len as u64
    }
}

/// What one ACK's SACK blocks told.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackUpdate {
    /// Bytes newly SACKed.
    pub newly_sacked: u64,
    /// Segments newly SACKed.
    pub newly_sacked_segs: u64,
    /// The first block reported a duplicate (RFC 2883): (left, right).
    pub dsack: Option<(u64, u64)>,
    /// The newly SACKed segment sent last: (last send time, end, transmissions), for RACK.
    pub newest: Option<(Ns, u64, u32)>,
}

/// NextSeg()'s answer (RFC 6675 §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Rule 1: the first segment deemed lost and not yet retransmitted (its index).
    Lost(usize),
    /// Rule 2: new data.
    New,
    /// Rule 3: the first un-SACKed segment below the highest SACKed byte not yet
    /// retransmitted, though not deemed lost (its index).
    Unsacked(usize),
    /// Rule 4: the rescue retransmission, the highest un-SACKed segment (its index).
    Rescue(usize),
}

/// The scoreboard. What the sender asks per ACK or per segment costs O(log n) or amortised
/// O(1) in the segments outstanding (a window of a million segments must not make every
/// ACK scan it): pipe and the byte counts are kept as entries change, the segments waiting
/// for their retransmission are a sorted set, the SACKed ranges are kept merged (a block
/// that every ACK repeats costs nothing after its first report), IsLost and NextSeg's rule
/// 3 move cursors forward, and RACK walks the transmissions in the order they left, from
/// the oldest still undecided.
#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    segs: VecDeque<Entry>,
    /// Bytes SACKed among the outstanding segments.
    pub sacked_bytes: u64,
    /// Segments SACKed.
    pub sacked_segs: u64,
    /// One past the highest SACKed byte (0: none).
    pub high_sacked: u64,
    /// RFC 6675 RescueRxt: the recovery point when the rescue retransmission was sent.
    pub rescue_rxt: Option<u64>,
    /// pipe (RFC 6675 SetPipe), bytes and segments.
    pipe_b: u64,
    pipe_s: u64,
    /// The SACKed byte ranges above the cumulative ACK, merged and sorted.
    ranges: VecDeque<(u64, u64)>,
    /// First bytes of the segments deemed lost and not resent since (NextSeg's rule 1).
    waiting: BTreeSet<u64>,
    /// Their bytes.
    waiting_bytes: u64,
    /// IsLost has decided every segment below this byte.
    islost_done: u64,
    /// No segment below this byte is a candidate for NextSeg's rule 3.
    rule3_from: u64,
    /// Every transmission in the order it left: (time, first byte, attempt). An entry is
    /// stale once its segment is gone, SACKed, deemed lost or sent again.
    tsorted: VecDeque<(Ns, u64, u32)>,
}

/// What RACK decides for one undecided transmission (`Scoreboard::rack_walk`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RackVerdict {
    /// Sent after RACK's segment: this and every later transmission are not judged.
    Stop,
    /// Lost now.
    Lost,
    /// Lost after this long unless delivered first.
    Wait(Ns),
}

impl Scoreboard {
    /// Outstanding segments, oldest first.
    pub fn entries(&self) -> &VecDeque<Entry> {
        &self.segs
    }

    /// Segment `i` (0 = the one at the cumulative ACK).
    pub fn get(&self, i: usize) -> Entry {
        self.segs[i]
    }

    /// Segments outstanding.
    pub fn len(&self) -> usize {
        self.segs.len()
    }

    /// Whether nothing is outstanding.
    pub fn is_empty(&self) -> bool {
        self.segs.is_empty()
    }

    /// Bytes deemed lost and not yet resent.
    pub fn waiting_bytes(&self) -> u64 {
        self.waiting_bytes
    }

    /// Whether a segment deemed lost waits for its retransmission.
    pub fn any_waiting(&self) -> bool {
        !self.waiting.is_empty()
    }

    /// The index of the first segment starting at or after byte `seq`.
    fn index_of(&self, seq: u64) -> usize {
        self.segs.partition_point(|e| e.seq < seq)
    }

    /// The index of the segment starting at `seq`, if it is outstanding.
    fn find(&self, seq: u64) -> Option<usize> {
        let i = self.index_of(seq);
        (i < self.segs.len() && self.segs[i].seq == seq).then_some(i)
    }

    /// An entry's share of pipe: (bytes, segments).
    fn share(e: &Entry) -> (u64, u64) {
        if e.sacked {
            return (0, 0);
        }
        let n = (!e.lost) as u64 + e.rexmit as u64;
        (n * e.len as u64, n)
    }

    fn waits(e: &Entry) -> bool {
        e.lost && !e.sacked && !e.rexmit
    }

    /// Changes entry `i` with `f`, keeping pipe, the SACKed counts and the waiting set.
    fn update(&mut self, i: usize, f: impl FnOnce(&mut Entry)) -> Entry {
        let before = self.segs[i];
        f(&mut self.segs[i]);
        let after = self.segs[i];
        let ((b, s), (b2, s2)) = (Self::share(&before), Self::share(&after));
        self.pipe_b = self.pipe_b - b + b2;
        self.pipe_s = self.pipe_s - s + s2;
        match (Self::waits(&before), Self::waits(&after)) {
            (false, true) => {
                self.waiting.insert(after.seq);
                self.waiting_bytes += after.len as u64;
            }
            (true, false) => {
                self.waiting.remove(&after.seq);
                self.waiting_bytes -= after.len as u64;
            }
            _ => {}
        }
        if after.sacked && !before.sacked {
            self.sacked_bytes += after.len as u64;
            self.sacked_segs += 1;
            self.high_sacked = self.high_sacked.max(after.end());
        }
        after
    }

    /// A new segment left at `now`.
    pub fn sent_new(&mut self, seq: u64, len: u32, no: u32, now: Ns) {
        self.segs.push_back(Entry {
            seq,
            len,
            no,
            tx: 1,
            xmit: now,
            sacked: false,
            lost: false,
            rexmit: false,
        });
        self.pipe_b += len as u64;
        self.pipe_s += 1;
        self.tsorted.push_back((now, seq, 1));
    }

    /// Segment `i` was sent again at `now`.
    pub fn resent(&mut self, i: usize, now: Ns) -> Entry {
        let e = self.update(i, |e| {
            e.tx += 1;
            e.xmit = now;
            e.rexmit = true;
        });
        self.tsorted.push_back((now, e.seq, e.tx));
        self.compact();
        e
    }

    /// Drops stale transmissions once they outnumber the segments (RACK skips them, but
    /// they must not pile up behind an undecided one).
    fn compact(&mut self) {
        if self.tsorted.len() > 2 * self.segs.len() + 64 {
            let mut t = std::mem::take(&mut self.tsorted);
            t.retain(|&(_, seq, tx)| self.live(seq, tx).is_some());
            self.tsorted = t;
        }
    }

    /// The index of the segment a transmission sent, while RACK may still judge it.
    fn live(&self, seq: u64, tx: u32) -> Option<usize> {
        let i = self.find(seq)?;
        let e = &self.segs[i];
        (e.tx == tx && !e.sacked && !Self::waits(e)).then_some(i)
    }

    /// The cumulative ACK moved to `ack`: the segments below it leave. Returns the bytes
    /// that were acknowledged for the first time (not SACKed before), and the newest of
    /// the segments that left: (last send time, end, transmissions).
    pub fn cum_ack(&mut self, ack: u64) -> (u64, Option<(Ns, u64, u32)>) {
        let mut fresh = 0;
        let mut newest: Option<(Ns, u64, u32)> = None;
        while self.segs.front().is_some_and(|e| e.end() <= ack) {
            // Out of pipe and of the waiting set first, as if SACKed.
            let was = self.segs[0].sacked;
            let e = self.update(0, |e| e.sacked = true);
            self.segs.pop_front();
            self.sacked_bytes -= e.len as u64;
            self.sacked_segs -= 1;
            if !was {
                fresh += e.len as u64;
                if newest.is_none_or(|(t, end, _)| (e.xmit, e.end()) > (t, end)) {
                    newest = Some((e.xmit, e.end(), e.tx));
                }
            }
        }
        while self.ranges.front().is_some_and(|r| r.1 <= ack) {
            self.ranges.pop_front();
        }
        if let Some(r) = self.ranges.front_mut() {
            r.0 = r.0.max(ack);
        }
        if self.high_sacked <= ack {
            self.high_sacked = 0;
        }
        while self.tsorted.front().is_some_and(|&(_, seq, _)| seq < ack) {
            self.tsorted.pop_front();
        }
        (fresh, newest)
    }

    /// Adds `[l, r)` to the SACKed ranges; returns the parts not SACKed before.
    fn add_range(&mut self, l: u64, r: u64, out: &mut Vec<(u64, u64)>) {
        let first = self.ranges.partition_point(|&(_, e)| e < l);
        let (mut cur, mut nl, mut nr, mut k) = (l, l, r, first);
        while k < self.ranges.len() && self.ranges[k].0 <= r {
            let (s, e) = self.ranges[k];
            if s > cur {
                out.push((cur, s.min(r)));
            }
            cur = cur.max(e);
            nl = nl.min(s);
            nr = nr.max(e);
            k += 1;
        }
        if cur < r {
            out.push((cur, r));
        }
        self.ranges.drain(first..k);
        self.ranges.insert(first, (nl, nr));
    }

    /// Applies an ACK's SACK blocks (cumulative ACK `ack`, already applied).
    pub fn apply(&mut self, ack: u64, blocks: &SackBlocks) -> SackUpdate {
        self.apply_into(ack, blocks, &mut Vec::new())
    }

    /// As [`Scoreboard::apply`], pushing the indices of the newly SACKed segments to `out`.
    pub fn apply_into(&mut self, ack: u64, blocks: &SackBlocks, out: &mut Vec<usize>) -> SackUpdate {
        let mut u = SackUpdate::default();
        let mut fresh = Vec::new();
        for (i, (l, r)) in blocks.iter().enumerate() {
            if i == 0 && blocks.dsack {
                u.dsack = Some((l, r));
                continue;
            }
            if r <= ack {
                continue;
            }
            fresh.clear();
            self.add_range(l.max(ack), r, &mut fresh);
            for &(a, b) in &fresh {
                let mut k = self.index_of(a);
                while k < self.segs.len() && self.segs[k].seq < b {
                    let e = self.segs[k];
                    if e.end() <= b && !e.sacked {
                        self.update(k, |e| e.sacked = true);
                        out.push(k);
                        u.newly_sacked += e.len as u64;
                        u.newly_sacked_segs += 1;
                        if u.newest.is_none_or(|(t, end, _)| (e.xmit, e.end()) > (t, end)) {
                            u.newest = Some((e.xmit, e.end(), e.tx));
                        }
                    }
                    k += 1;
                }
            }
        }
        u
    }

    /// RFC 6675 §4 IsLost for every segment: a segment is lost when DupThresh segments
    /// above it are SACKed, or more than (DupThresh − 1)·SMSS bytes above it are. Marks
    /// them; pushes the newly marked indices, in order, to `out`.
    pub fn mark_is_lost(&mut self, dupthresh: u64, smss: u64, out: &mut Vec<usize>) {
        // Every segment below the start of the k-th SACKed range from the top has the
        // ranges 1..k above it: find the first k that makes IsLost true.
        let (mut segs, mut bytes, mut boundary) = (0u64, 0u64, None);
        for &(s, e) in self.ranges.iter().rev() {
            segs += (self.index_of(e) - self.index_of(s)) as u64;
            bytes += e - s;
            if segs >= dupthresh || bytes > (dupthresh - 1) * smss {
                boundary = Some(s);
                break;
            }
        }
        let Some(boundary) = boundary else {
            return;
        };
        if boundary <= self.islost_done {
            return;
        }
        let (from, to) = (self.index_of(self.islost_done), self.index_of(boundary));
        for i in from..to {
            let e = self.segs[i];
            if !e.sacked && !e.lost {
                self.update(i, |e| {
                    e.lost = true;
                    e.rexmit = false;
                });
                out.push(i);
            }
        }
        self.islost_done = boundary;
    }

    /// Whether segment 0 (the one at the cumulative ACK) is lost by IsLost's rule.
    pub fn head_is_lost(&self, dupthresh: u64, smss: u64) -> bool {
        if self.segs.front().is_none_or(|e| e.sacked) {
            return false;
        }
        self.sacked_segs >= dupthresh || self.sacked_bytes > (dupthresh - 1) * smss
    }

    /// Marks segment `i` lost (RACK, a timeout); false if it was already, or SACKed.
    pub fn mark_lost(&mut self, i: usize) -> bool {
        let e = self.segs[i];
        if e.sacked || Self::waits(&e) {
            return false;
        }
        self.update(i, |e| {
            e.lost = true;
            e.rexmit = false;
        });
        true
    }

    /// RFC 6675 §4 SetPipe: over the outstanding segments, one for each not SACKed and not
    /// lost, one more for each whose retransmission is in the network: (bytes, segments).
    pub fn pipe(&self) -> (u64, u64) {
        (self.pipe_b, self.pipe_s)
    }

    /// RFC 6675 §4 NextSeg: what to send next. `new_data` says whether rule 2 may send new
    /// data (the application has some and the receiver's window allows it); `recovery_point`
    /// is the current recovery's, for the rescue retransmission; `high_ack` the cumulative
    /// ACK.
    pub fn next_seg(&mut self, new_data: bool, recovery_point: u64, high_ack: u64) -> Option<Next> {
        // Rule 1: lost, not SACKed, not retransmitted since it was deemed lost.
        if let Some(&seq) = self.waiting.first() {
            return Some(Next::Lost(self.index_of(seq)));
        }
        if new_data {
            return Some(Next::New);
        }
        // Rule 3: not SACKed, not retransmitted, below the highest SACKed byte. A segment
        // once passed is never a candidate again (it is SACKed, resent or lost for good).
        let mut k = self.index_of(self.rule3_from);
        while k < self.segs.len() && self.segs[k].end() <= self.high_sacked {
            let e = self.segs[k];
            if !e.sacked && !e.rexmit && !e.lost {
                self.rule3_from = e.seq;
                return Some(Next::Unsacked(k));
            }
            k += 1;
        }
        if let Some(e) = self.segs.get(k) {
            self.rule3_from = self.rule3_from.max(e.seq);
        }
        // Rule 4: one rescue retransmission per recovery, of the highest un-SACKed segment
        // (which it must include). Our reading: not when that segment's retransmission is
        // already in the network (the fast retransmit of a lone hole): the rescue would
        // only repeat it.
        if self.rescue_rxt.is_none_or(|r| high_ack > r) {
            if let Some(i) = self.segs.iter().rposition(|e| !e.sacked) {
                let _ = recovery_point;
                if !self.segs[i].rexmit {
                    return Some(Next::Rescue(i));
                }
            }
        }
        None
    }

    /// RACK's walk (RFC 8985 §6.2 step 5) over the transmissions not yet decided, oldest
    /// first: `judge` says for each whether it is lost, due later, or sent after RACK's
    /// segment (which ends the walk). Marks the lost, pushes their indices to `out`, and
    /// returns the longest wait (the RACK timer's).
    pub fn rack_walk(&mut self, mut judge: impl FnMut(&Entry) -> RackVerdict, out: &mut Vec<usize>) -> Option<Ns> {
        let mut wait: Option<Ns> = None;
        let mut k = 0;
        while k < self.tsorted.len() {
            let (_, seq, tx) = self.tsorted[k];
            let Some(i) = self.live(seq, tx) else {
                if k == 0 {
                    self.tsorted.pop_front();
                } else {
                    k += 1;
                }
                continue;
            };
            match judge(&self.segs[i]) {
                RackVerdict::Stop => break,
                RackVerdict::Lost => {
                    if self.mark_lost(i) {
                        out.push(i);
                    }
                    if k == 0 {
                        self.tsorted.pop_front();
                    } else {
                        k += 1;
                    }
                }
                RackVerdict::Wait(t) => {
                    wait = Some(wait.map_or(t, |w: Ns| w.max(t)));
                    k += 1;
                }
            }
        }
        wait
    }

    /// A timeout (RFC 6675 §5.1, Linux's tcp_enter_loss): every segment not SACKed is
    /// deemed lost and none is in the network as a retransmission any more.
    pub fn on_timeout(&mut self) -> u64 {
        let mut n = 0;
        for i in 0..self.segs.len() {
            let e = self.segs[i];
            if !e.sacked && !Self::waits(&e) {
                n += (!e.lost) as u64;
                self.update(i, |e| {
                    e.lost = true;
                    e.rexmit = false;
                });
            }
        }
        self.tsorted.clear();
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: u64 = 1000;

    /// Segments 1..=n of S bytes, sent at time 0.
    fn board(n: u32) -> Scoreboard {
        let mut b = Scoreboard::default();
        for no in 1..=n {
            b.sent_new((no as u64 - 1) * S, S as u32, no, 0);
        }
        b
    }

    fn blocks(v: &[(u64, u64)]) -> SackBlocks {
        let mut b = SackBlocks::default();
        for &(l, r) in v {
            b.push(l, r);
        }
        b
    }

    #[test]
    fn is_lost_needs_dupthresh_sacked_segments_above_rfc6675_4() {
        // Segment 1 lost, 2..=4 arrive one by one: after the third SACKed segment above it,
        // segment 1 is lost (DupThresh = 3), not before.
        let mut b = board(10);
        let mut lost = vec![];
        for k in 2..=4u64 {
            let u = b.apply(0, &blocks(&[(S, k * S)]));
            assert_eq!(u.newly_sacked, S);
            b.mark_is_lost(3, S, &mut lost);
            assert_eq!(lost.is_empty(), k < 4, "after segment {k}");
        }
        assert_eq!(lost, vec![0]);
        assert!(b.head_is_lost(3, S));
        // pipe: 10 outstanding, 3 SACKed, 1 lost: 6 segments.
        assert_eq!(b.pipe(), (6 * S, 6));
        // NextSeg rule 1 picks segment 1; once resent it counts in pipe again.
        assert_eq!(b.next_seg(true, 10 * S, 0), Some(Next::Lost(0)));
        b.resent(0, 5);
        assert_eq!(b.pipe(), (7 * S, 7));
        assert_eq!(b.next_seg(true, 10 * S, 0), Some(Next::New));
        // Without new data, rule 3 finds nothing below the highest SACKed byte (4000) that
        // is not SACKed or resent, so rule 4's rescue picks the highest un-SACKed: 10.
        assert_eq!(b.next_seg(false, 10 * S, 0), Some(Next::Rescue(9)));
    }

    #[test]
    fn bytes_rule_partial_segments_and_rule_three() {
        // Two holes (1 and 3): segments 2, 4, 5 SACKed. Segment 1 has 3 SACKed above: lost.
        // Segment 3 has 2 above (2000 bytes, not more than 2·SMSS): not lost, but below the
        // highest SACKed byte, so rule 3 offers it when no new data may go.
        let mut b = board(6);
        b.apply(0, &blocks(&[(4 * S, 5 * S), (S, 2 * S)]));
        b.apply(0, &blocks(&[(3 * S, 5 * S), (S, 2 * S)]));
        let mut lost = vec![];
        b.mark_is_lost(3, S, &mut lost);
        assert_eq!(lost, vec![0]);
        b.resent(0, 1);
        assert_eq!(b.next_seg(false, 6 * S, 0), Some(Next::Unsacked(2)));
        // Cumulative ACK of 2000 (segments 1, 2): the first was not SACKed before.
        let (fresh, newest) = b.cum_ack(2 * S);
        assert_eq!((fresh, newest), (S, Some((1, S, 2))));
        assert_eq!((b.sacked_segs, b.sacked_bytes), (2, 2 * S));
    }

    #[test]
    fn dsack_blocks_are_reported_and_do_not_mark() {
        let mut b = board(4);
        let mut d = blocks(&[(0, S), (2 * S, 3 * S)]);
        d.dsack = true;
        let u = b.apply(0, &d);
        assert_eq!(u.dsack, Some((0, S)));
        assert_eq!((u.newly_sacked, b.sacked_segs), (S, 1));
        // The same block again says nothing new.
        assert_eq!(b.apply(0, &blocks(&[(2 * S, 3 * S)])).newly_sacked, 0);
    }

    #[test]
    fn a_timeout_deems_every_unsacked_segment_lost() {
        let mut b = board(5);
        b.apply(0, &blocks(&[(2 * S, 3 * S)]));
        b.resent(0, 1);
        assert_eq!(b.on_timeout(), 4);
        assert_eq!(b.pipe(), (0, 0));
        assert_eq!(b.next_seg(false, 5 * S, 0), Some(Next::Lost(0)));
    }
}
