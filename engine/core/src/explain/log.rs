//! Where decisions are kept as they are made (`DecisionLog`, per endpoint, in chunks that
//! never move), the run's order of them (`Order`), reading them back (`Decisions`) and the
//! switch that turns recording on (`Why`).

use super::*;

/// Elements per chunk of a [`Chunked`] store.
const CHUNK: usize = 1 << 13;

/// A growing store of `Copy` elements in fixed-size chunks: growing never moves what is
/// stored (a `Vec` would copy everything at each doubling), and a slice pushed at once
/// stays contiguous (it starts a new chunk if the current one lacks room).
#[derive(Clone, Debug)]
struct Chunked<T> {
    chunks: Vec<Vec<T>>,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked { chunks: Vec::new() }
    }
}

impl<T: Copy> Chunked<T> {
    /// Appends `items` contiguously; returns the global index of the first.
    #[inline(always)]
    fn push_all<const N: usize>(&mut self, items: [T; N]) -> usize {
        if self.chunks.last().is_none_or(|c| c.len() + N > CHUNK) {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        let k = self.chunks.len() - 1;
        let c = &mut self.chunks[k];
        let at = k * CHUNK + c.len();
        c.extend(items);
        at
    }

    /// Element `i` (global index).
    #[inline]
    fn get(&self, i: usize) -> T {
        self.chunks[i / CHUNK][i % CHUNK]
    }

    /// `n` elements from global index `i`.
    fn slice(&self, i: usize, n: usize) -> &[T] {
        &self.chunks[i / CHUNK][i % CHUNK..i % CHUNK + n]
    }

    fn clear(&mut self) {
        self.chunks.truncate(1);
        if let Some(c) = self.chunks.first_mut() {
            c.clear();
        }
    }
}

/// One endpoint's decisions, stored compactly and never moved: an 8-byte head per
/// decision and only the values its rule names (most name 4 to 7 of the [`MAX_VALUES`] a
/// [`Decision`] can hold). The time is kept once per batch (the decisions one endpoint
/// made in one event) by the run's [`Order`]; decisions pushed since the last
/// [`DecisionLog::stamp`] form the open batch.
#[derive(Clone, Debug, Default)]
pub struct DecisionLog {
    heads: Chunked<Head>,
    values: Chunked<u64>,
    /// Decisions in all.
    len: u32,
    /// Where the open batch starts (a decision index).
    open: u32,
}

/// A decision's rule, phases and where its values start.
#[derive(Clone, Copy, Debug)]
struct Head {
    start: u32,
    rule: Rule,
    from: u8,
    to: u8,
}

impl DecisionLog {
    /// Appends a decision of `N` values to the open batch.
    #[inline(always)]
    pub fn push_array<const N: usize>(&mut self, rule: Rule, from: u8, to: u8, values: [u64; N]) {
        let start = self.values.push_all(values) as u32;
        self.heads.push_all([Head { start, rule, from, to }]);
        self.len += 1;
    }

    /// Whether decisions wait to be stamped.
    #[inline]
    pub fn has_open(&self) -> bool {
        self.len > self.open
    }

    /// Closes the open batch; returns its first decision and how many it holds, or None
    /// when it is empty.
    #[inline]
    pub fn stamp(&mut self) -> Option<(u32, u32)> {
        if !self.has_open() {
            return None;
        }
        let first = self.open;
        self.open = self.len;
        Some((first, self.len - first))
    }

    /// How many decisions (stamped or not).
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Decision `i`'s rule.
    fn rule(&self, i: usize) -> Rule {
        self.heads.get(i).rule
    }

    /// Decision `i`'s rule and its phases before and after.
    fn rule_phases(&self, i: usize) -> (Rule, u8, u8) {
        let h = self.heads.get(i);
        (h.rule, h.from, h.to)
    }

    /// Decision `i`, made at `t` by `flow`.
    fn get_in(&self, i: usize, t: Ns, flow: u32) -> Entry {
        let h = self.heads.get(i);
        let info = h.rule.info();
        let n = info.inputs.len() + info.outputs.len();
        let mut values = [0u64; MAX_VALUES];
        values[..n].copy_from_slice(self.values.slice(h.start as usize, n));
        Entry {
            t,
            flow,
            d: Decision {
                rule: h.rule,
                from: h.from,
                to: h.to,
                values,
            },
        }
    }

    /// Decision `i` of this log, by `flow`, with time 0 (the run's [`Order`] knows when).
    pub fn get(&self, i: usize, flow: u32) -> Option<Entry> {
        (i < self.len()).then(|| self.get_in(i, 0, flow))
    }

    /// Forgets every decision (keeping some memory).
    pub fn clear(&mut self) {
        self.heads.clear();
        self.values.clear();
        self.len = 0;
        self.open = 0;
    }
}

/// Which endpoint's batch came next: decisions `cum..` (in the run's order) were made at
/// `t` by endpoint `endpoint` (2·flow for a sender, 2·flow + 1 for its receiver), from its
/// decision `first` on.
#[derive(Clone, Copy, Debug)]
pub struct Order {
    /// When.
    pub t: Ns,
    /// Index of the batch's first decision among all the run's decisions.
    pub cum: u32,
    /// 2·flow (sender) or 2·flow + 1 (receiver); from 2·flows on, the bottleneck queues'
    /// decisions about flow `endpoint − 2·flows` (see [`Decisions::queue_from`]).
    pub endpoint: u32,
    /// The batch's first decision, in the endpoint's log.
    pub first: u32,
}

/// A run's decisions in the order they were made: the endpoints' logs read through the
/// order of their batches (`Simulation::decisions`).
pub struct Decisions<'a> {
    /// The batches in order.
    pub order: &'a [Order],
    /// The logs, by endpoint: each flow's sender and receiver (2·flow, 2·flow + 1), then from
    /// `queue_from` on each flow's bottleneck queue decisions (`queue_from + flow`).
    pub logs: Vec<&'a DecisionLog>,
    /// Where the queues' logs begin.
    pub queue_from: usize,
    /// Decisions in all.
    pub total: usize,
}

impl Decisions<'_> {
    /// The flow whose log `endpoint` is.
    fn flow_of(&self, endpoint: u32) -> u32 {
        let e = endpoint as usize;
        if e < self.queue_from {
            endpoint / 2
        } else {
            (e - self.queue_from) as u32
        }
    }

    /// How many decisions.
    pub fn len(&self) -> usize {
        self.total
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    fn locate(&self, i: usize) -> Option<(&Order, usize)> {
        if i >= self.total {
            return None;
        }
        let k = self.order.partition_point(|o| o.cum as usize <= i) - 1;
        let o = &self.order[k];
        Some((o, o.first as usize + (i - o.cum as usize)))
    }

    /// Decision `i`.
    pub fn get(&self, i: usize) -> Option<Entry> {
        let (o, local) = self.locate(i)?;
        Some(self.logs[o.endpoint as usize].get_in(local, o.t, self.flow_of(o.endpoint)))
    }

    /// Decision `i`'s time, flow and rule (without copying its values).
    pub fn time_flow(&self, i: usize) -> Option<(Ns, u32, Rule)> {
        let (o, local) = self.locate(i)?;
        let log = self.logs[o.endpoint as usize];
        Some((o.t, self.flow_of(o.endpoint), log.rule(local)))
    }

    /// Flow `flow`'s decisions from the run's decision `from` on, in order, without copying
    /// their values: `(index in the run, time, rule, phase before, phase after)`. Walks the
    /// batches once (the page's index of a run: times to step through, rules to filter by,
    /// phases for the state machine).
    pub fn heads_of(&self, flow: u32, from: usize) -> impl Iterator<Item = (usize, Ns, Rule, u8, u8)> + '_ {
        let start = self
            .order
            .partition_point(|o| (o.cum as usize) <= from)
            .saturating_sub(1);
        self.order[start.min(self.order.len())..]
            .iter()
            .enumerate()
            .filter(move |(_, o)| self.flow_of(o.endpoint) == flow)
            .flat_map(move |(k, o)| {
                let end = self.order.get(start + k + 1).map_or(self.total, |n| n.cum as usize);
                let log = self.logs[o.endpoint as usize];
                (o.cum as usize..end).filter(move |&i| i >= from).map(move |i| {
                    let (rule, a, b) = log.rule_phases(o.first as usize + (i - o.cum as usize));
                    (i, o.t, rule, a, b)
                })
            })
    }

    /// The decisions `from..to` (clamped), in order.
    pub fn range(&self, from: usize, to: usize) -> impl Iterator<Item = Entry> + '_ {
        let to = to.min(self.len());
        (from.min(to)..to).map(|i| self.get(i).expect("in range"))
    }

    /// Every decision, in order.
    pub fn iter(&self) -> impl Iterator<Item = Entry> + '_ {
        self.range(0, self.len())
    }
}

/// Where an endpoint records its decisions until the simulation stamps them.
#[derive(Clone, Debug, Default)]
pub struct Why {
    /// Whether to record at all.
    pub on: bool,
    /// Decisions since the last drain (time and flow not yet stamped).
    pub log: DecisionLog,
}

impl Why {
    /// Records a decision (call only when `on`). `values` are the inputs then the outputs,
    /// exactly as many as the rule names.
    #[cold]
    pub fn push<const N: usize>(&mut self, rule: Rule, from: u8, to: u8, values: &[u64; N]) {
        let info = rule.info();
        debug_assert_eq!(
            values.len(),
            info.inputs.len() + info.outputs.len(),
            "rule {} records {} values",
            info.id,
            values.len()
        );
        const { assert!(N <= MAX_VALUES) };
        self.log.push_array(rule, from, to, *values);
    }
}
