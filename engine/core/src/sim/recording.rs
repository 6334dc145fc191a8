//! How a simulation keeps what it records: the trace digest, the recording mode (full,
//! summary-only, bounded: see `bounded.rs`), the rows' up-front reserve, taking rows out
//! as they are written (the CLI's `--out`), packet captures and the rounds read from the
//! stored rows. The `Simulation` methods here are the recording's whole wiring; the event
//! loop (`sim.rs`) calls `reserve_rows` once and appends rows.
use super::*;

impl Simulation {
    /// Reserves the trace space estimated at creation, before the first event: none when
    /// the run stores no rows, and at most about the budget's worth when its recording is
    /// bounded (in wasm, memory once grown stays grown: a reserve sized for the whole of a
    /// long run held tens of MB per simulation that a bounded run never fills).
    pub(super) fn reserve_rows(&mut self) {
        let mut est = std::mem::take(&mut self.reserve);
        if self.world.log.stream.drop {
            return;
        }
        if let Some(b) = self.bounded.as_deref() {
            est = est.min((b.budget / 8) as usize);
        }
        for l in self.world.links.iter_mut() {
            if let Some(q) = l.series.as_mut() {
                q.rows.reserve(2 * est);
            }
        }
        self.world.log.rows.reserve(5 * est);
        let n = self.flows.len().max(1);
        for f in self.flows.iter_mut().map(|f| &mut f.series) {
            f.rows.reserve(est / n + 16);
        }
    }

    /// 64-bit digest of every output row of the time series, event log and queues, in model
    /// units: what was sent and how the window moved. Incremental: only rows added since the previous call are
    /// hashed; tables that drop their rows ([`Recording::Summary`]) hash them as they go.
    pub fn digest(&self) -> u64 {
        let mut cache = self.digests.borrow_mut();
        fn section<R: crate::trace::DigestRow>(
            cache: &mut SectionDigests,
            k: usize,
            stream: &crate::trace::Stream,
            rows: &[R],
        ) {
            if stream.drop {
                cache.set(k, stream);
            } else {
                cache.extend(k, rows);
            }
        }
        let mut k = 0;
        for s in self.flows.iter().map(|f| &f.series) {
            section(&mut cache, k, &s.stream, &s.rows);
            k += 1;
        }
        section(&mut cache, k, &self.world.log.stream, &self.world.log.rows);
        for (_, q) in self.queues() {
            k += 1;
            section(&mut cache, k, &q.stream, &q.rows);
        }
        // Cross traffic's deliveries appear nowhere else; a scenario without cross traffic
        // keeps the digest it always had (the table is then derived from rows above).
        if !self.cross.is_empty() {
            k += 1;
            let t = &self.world.tput;
            section(&mut cache, k, &t.stream, &t.rows);
        }
        // The window-validation series (T_last, T_prev, W_used, pipeACK) is bookkeeping
        // derived from what is digested above; leaving it out means two runs that send the
        // same packets with the same windows (NewReno and NewReno + CWV on a bulk sender)
        // have the same digest. Its rows are checked by the validation-series tests instead.
        cache.finish()
    }

    /// Digest of the window-validation series (None when no flow has one): kept apart from
    /// [`Simulation::digest`], and checked natively and in wasm like it.
    pub fn validation_digest(&self) -> Option<u64> {
        if !self.keep.validation {
            return None;
        }
        let mut cache = SectionDigests::default();
        for (k, v) in self.flows.iter().filter_map(|f| f.validation.as_ref()).enumerate() {
            cache.extend(k, &v.rows);
        }
        Some(cache.finish())
    }

    /// Digest of the SACK recovery series (None when no flow has SACK on): kept apart from
    /// [`Simulation::digest`] like the window-validation series (it is bookkeeping derived
    /// from the packets and windows digested there), and checked natively and in wasm.
    pub fn recovery_digest(&self) -> Option<u64> {
        if !self.keep.recovery {
            return None;
        }
        let mut cache = SectionDigests::default();
        for (k, v) in self.flows.iter().filter_map(|f| f.recovery.as_ref()).enumerate() {
            cache.extend(k, &v.rows);
        }
        Some(cache.finish())
    }

    /// The queue disciplines' state series: (link name, series) of each managed bottleneck
    /// direction (none when both are drop-tail).
    pub fn qdisc_series(&self) -> Vec<(&str, &crate::trace::QdiscSeries)> {
        self.world
            .links
            .iter()
            .filter_map(|l| l.qdisc.as_deref().map(|m| (l.name.as_str(), &m.series)))
            .collect()
    }

    /// The data direction's queue-discipline series (None under drop-tail): the page's
    /// `qdisc` table.
    pub fn bottleneck_qdisc(&self) -> Option<&crate::trace::QdiscSeries> {
        self.world.links.first()?.qdisc.as_deref().map(|m| &m.series)
    }

    /// Digest of the queue disciplines' state series (None when both bottleneck directions
    /// are drop-tail): kept apart from [`Simulation::digest`] like the recovery series (the
    /// drops it leads to are `aqm_drop` rows, digested there).
    pub fn qdisc_digest(&self) -> Option<u64> {
        let series = self.qdisc_series();
        if series.is_empty() {
            return None;
        }
        let mut cache = SectionDigests::default();
        for (k, (_, q)) in series.iter().enumerate() {
            cache.extend(k, &q.rows);
        }
        Some(cache.finish())
    }

    /// Chooses what the run keeps; call before running. [`Recording::Full`] (the default)
    /// stores every row for the front ends; [`Recording::Summary`] stores none — the summary
    /// is accumulated as the run goes and memory stays flat however long the run — and, if
    /// asked, still hashes every row so the digest is the same as a full run's.
    pub fn set_recording(&mut self, r: Recording) {
        let (drop, hash) = match r {
            Recording::Full => (false, false),
            Recording::Summary { digest } => (true, digest),
        };
        let set = |st: &mut crate::trace::Stream| {
            st.drop = drop;
            st.hash = hash;
        };
        self.flows.iter_mut().for_each(|f| set(&mut f.series.stream));
        set(&mut self.world.log.stream);
        for l in self.world.links.iter_mut() {
            l.traced_mut().for_each(|q| set(&mut q.stream));
        }
        set(&mut self.world.tput.stream);
        for s in self.flows.iter_mut().map(|f| &mut f.sender) {
            if let Some(l) = s.writes.as_mut() {
                set(&mut l.stream);
                if drop {
                    l.rows = Vec::new();
                }
            }
        }
        self.flows
            .iter_mut()
            .filter_map(|f| f.validation.as_mut())
            .for_each(|v| set(&mut v.stream));
        self.flows
            .iter_mut()
            .filter_map(|f| f.recovery.as_mut())
            .for_each(|v| set(&mut v.stream));
        for m in self.world.links.iter_mut().filter_map(|l| l.qdisc.as_deref_mut()) {
            set(&mut m.series.stream);
            if drop {
                m.series.rows = Vec::new();
            }
        }
        if drop && !hash {
            // Rows neither stored nor hashed need not be made at all: the summary reads
            // counters, histograms and the cwnd integrals, never the event log, the queues,
            // the throughput table's bins or the window series' other columns. A link
            // without an occupancy trace also drains its queue only when it may be full.
            self.world.log.silence();
            self.world.tput.silence();
            self.flows.iter_mut().for_each(|f| f.series.cwnd_only = true);
            for l in self.world.links.iter_mut() {
                l.series = None;
            }
        }
        if drop {
            self.flows.iter_mut().for_each(|f| f.series.rows = Vec::new());
            self.world.log.rows = Vec::new();
            self.world.tput.rows = Vec::new();
            for l in self.world.links.iter_mut() {
                l.traced_mut().for_each(|q| q.rows = Vec::new());
            }
        }
    }

    /// Flow `flow`'s transmission rounds so far (see `rounds.rs`), read from the stored
    /// event log and window series: Err with the reason when the run keeps no sender rows
    /// (`trace.events = congestion`) or keeps no rows at all (a summary-only run).
    pub fn rounds(&self, flow: usize) -> Result<Vec<crate::rounds::Round>, String> {
        if self.scenario.trace.events == crate::scenario::EventFilter::Congestion {
            return Err("rounds need the sender's packet events, which this run does not keep (trace.events = congestion); set trace.events to sender or all".into());
        }
        if self.world.log.stream.drop {
            return Err("rounds need the run's event log, which a summary-only run does not keep".into());
        }
        if let Some(b) = self.bounded.as_deref().filter(|b| b.began.is_some()) {
            // The rows were counted before they were reduced (see `reduce_rows`).
            let (tracker, ended) = &b.rounds[flow];
            let mut out = ended.clone();
            out.extend(tracker.snapshot());
            return Ok(out);
        }
        Ok(self.rounds.borrow_mut()[flow].read(&self.world.log.rows, &self.flows[flow].series.rows))
    }

    /// Captures the packets passing a point from now on (see `capture.rs`); None stops.
    pub fn set_capture(&mut self, c: Option<crate::capture::Capture>) {
        self.world.capture = c.map(Box::new);
    }

    /// The captured packets dated at or before `until`, in time order, taken out of the
    /// simulation (none without a capture). Every packet captured later is dated at or after
    /// the clock, so `until = now()` after each slice, then `u64::MAX` at the end, takes
    /// every packet once, in order. Nothing dated after the end of the run is taken (a
    /// packet still queued at the bottleneck when the run ends never starts within it).
    pub fn take_captured(&mut self, until: Ns) -> Vec<crate::capture::Captured> {
        let until = until.min(self.world.end);
        self.world
            .capture
            .as_deref_mut()
            .map_or_else(Vec::new, |c| c.take_until(until))
    }

    /// Takes the rows recorded since the last call out of the simulation (hashing them
    /// first, so the digest is unchanged): a front end that writes rows as they come (the
    /// CLI's `--out`) keeps memory bounded by one slice of the run.
    pub fn take_rows(&mut self) -> TakenRows {
        self.digest();
        self.digests.borrow_mut().rows_taken();
        TakenRows {
            series: self
                .flows
                .iter_mut()
                .map(|f| std::mem::take(&mut f.series.rows))
                .collect(),
            events: std::mem::take(&mut self.world.log.rows),
            queues: self
                .world
                .links
                .iter_mut()
                .flat_map(|l| l.traced_mut().map(|q| std::mem::take(&mut q.rows)).collect::<Vec<_>>())
                .collect(),
            throughput: std::mem::take(&mut self.world.tput.rows),
            writes: self
                .flows
                .iter_mut()
                .map(|f| f.sender.writes.as_mut().map(|l| std::mem::take(&mut l.rows)))
                .collect(),
            validation: self
                .flows
                .iter_mut()
                .map(|f| f.validation.as_mut().map(|v| std::mem::take(&mut v.rows)))
                .collect(),
            recovery: self
                .flows
                .iter_mut()
                .map(|f| f.recovery.as_mut().map(|v| std::mem::take(&mut v.rows)))
                .collect(),
        }
    }

    /// Bounded recording (see `bounded.rs`): once the stored rows of the window series, the
    /// event log and the queues exceed `budget_rows`, the rows produced from then on are
    /// reduced to `buckets` buckets over the run's duration, by [`Simulation::reduce_rows`],
    /// which the caller runs after each slice. Call before running. Summary, digest and
    /// rounds stay those of a full run.
    pub fn set_bounded(&mut self, budget_rows: u64, buckets: u64) {
        let width = crate::bounded::width(self.world.end, buckets);
        let queues = self.queues().len();
        self.bounded = Some(Box::new(crate::bounded::Bounded::new(
            budget_rows,
            width,
            self.flows.len(),
            queues,
        )));
    }

    /// Where the reduction began (None: every row is stored so far, or no bounded recording).
    pub fn reduction(&self) -> Option<&crate::bounded::Began> {
        self.bounded.as_deref().and_then(|b| b.began.as_ref())
    }

    /// Rows stored per table: each flow's series, the event log, each traced queue.
    fn stored_rows(&self) -> Vec<usize> {
        let mut out: Vec<usize> = self.flows.iter().map(|f| f.series.rows.len()).collect();
        out.push(self.world.log.rows.len());
        out.extend(self.queues().iter().map(|(_, q)| q.rows.len()));
        out
    }

    /// Bounded recording's step, after each slice of the run (nothing without
    /// [`Simulation::set_bounded`]): begins the reduction once the stored rows exceed the
    /// budget (the rows stored until then stay), then reduces the rows produced since the
    /// last call, hashing them first (the digest is unchanged) and counting their rounds.
    /// Stored rows are only ever appended: a reader's cursors stay valid. The buckets that
    /// ended by now are sealed (all of them once the run is finished).
    pub fn reduce_rows(&mut self) {
        let Some(mut b) = self.bounded.take() else {
            return;
        };
        let stored = self.stored_rows();
        if b.began.is_none() {
            if stored.iter().sum::<usize>() as u64 > b.budget && !self.finished {
                b.began = Some(crate::bounded::Began {
                    at: self.world.now,
                    width: b.width,
                    full_rows: stored.clone(),
                });
                b.kept = stored;
                // The rounds are counted from every row, the ones stored in full too.
                for (f, (tracker, ended)) in b.rounds.iter_mut().enumerate() {
                    tracker.feed(&self.world.log.rows, &self.flows[f].series.rows);
                    ended.extend(tracker.take_ended());
                }
            }
            self.bounded = Some(b);
            return;
        }
        self.digest();
        let (now, finished) = (self.world.now, self.finished);
        let n = self.flows.len();
        let mut tails: Vec<Vec<(Ns, crate::trace::FlowState)>> = Vec::with_capacity(n);
        for (f, s) in self.flows.iter_mut().map(|f| &mut f.series).enumerate() {
            tails.push(s.rows.split_off(b.kept[f]));
        }
        let events = self.world.log.rows.split_off(b.kept[n]);
        for (f, (tracker, ended)) in b.rounds.iter_mut().enumerate() {
            tracker.feed(&events, &tails[f]);
            ended.extend(tracker.take_ended());
        }
        fn step<R: crate::bounded::Reducible>(
            r: &mut crate::bounded::Reducer<R>,
            tail: &[R],
            rows: &mut Vec<R>,
            now: Ns,
            finished: bool,
        ) {
            r.feed(tail, rows);
            if finished {
                r.finish(rows);
            } else {
                r.seal_before(now, rows);
            }
        }
        for (f, s) in self.flows.iter_mut().map(|f| &mut f.series).enumerate() {
            step(&mut b.series[f], &tails[f], &mut s.rows, now, finished);
        }
        step(&mut b.events, &events, &mut self.world.log.rows, now, finished);
        let queues = self.world.links.iter_mut().flat_map(|l| l.traced_mut());
        for (q, (r, queue)) in b.queues.iter_mut().zip(queues).enumerate() {
            let tail = queue.rows.split_off(b.kept[n + 1 + q]);
            step(r, &tail, &mut queue.rows, now, finished);
        }
        // What is stored now was hashed (the rows reduced away too): the digest goes on
        // from the rows appended after it.
        b.kept = self.stored_rows();
        self.digests.borrow_mut().mark_hashed(&b.kept);
        self.bounded = Some(b);
    }
}
