//! Transmission rounds, the way textbooks count them: the sender's cwnd and ssthresh round
//! by round, read from a run's event log and window series after the fact (nothing is
//! added to the event loop, so a run that does not ask pays nothing).
//!
//! A round starts with the first segment the sender transmits while no round is open, and
//! ends when an ACK acknowledges that segment, or when the sender resends because it
//! detected a loss (a fast retransmit or a timeout): that retransmission starts the next
//! round, as textbooks draw it ("a timeout in round 22: cwnd is 1 in round 23"). A round's
//! cwnd, ssthresh and phase are the sender's just before the event that ends it: the window
//! the round filled (1, 2, 4, 8, … segments in slow start, as many as the round sent while
//! the window limits it). A timeout that comes after the last round ended, the sender idle
//! waiting for its timer, belongs to that round. While the application has nothing to send
//! no round is open.

use crate::tcp::cc::Phase;
use crate::time::Ns;
use crate::trace::{EventKind, EventRow, FlowState};

/// The definition, in one sentence (shown under the rounds view and in exercises).
pub const DEFINITION: &str = "A round starts with the first segment the sender transmits while no round is open, and ends when an ACK acknowledges that segment, or when the sender resends because it detected a loss (fast retransmit or timeout), which starts the next round; a round's cwnd and ssthresh are the sender's just before it ends (the window the round filled).";

/// One transmission round of one flow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// 1, 2, 3, … in order.
    pub round: u32,
    /// Its first transmission.
    pub start: Ns,
    /// When it ended (None: still open at the end of the record).
    pub end: Option<Ns>,
    /// cwnd just before the round ended, bytes.
    pub cwnd: u64,
    /// ssthresh then, bytes (`u64::MAX` = unlimited).
    pub ssthresh: u64,
    /// The sender's phase then ([`Phase`] code).
    pub phase: u8,
    /// Segments transmitted in the round (the SYN counts).
    pub sent: u32,
    /// Of those, retransmissions.
    pub retransmitted: u32,
    /// Congestion events during the round, in order: fast retransmit, timeout (these end
    /// it), partial ACK, recovery exit, suppressed fast retransmit.
    pub events: Vec<EventKind>,
}

impl Round {
    /// The phase's name.
    pub fn phase_name(&self) -> &'static str {
        Phase::ALL.get(self.phase as usize).map_or("?", |p| p.name())
    }
}

/// Counts the rounds of one flow from its rows as they come, slice by slice (the event
/// rows and window-series rows a run produced, each in time order): what `--out` and the
/// page's exports use while streaming, and [`rounds`] on a whole record.
#[derive(Clone, Debug)]
pub struct RoundTracker {
    flow: u32,
    /// The window state as of the series rows applied so far.
    state: FlowState,
    /// Rounds not yet handed out (the open one last, if any).
    rounds: Vec<Round>,
    /// Rounds handed out so far.
    done: u32,
    /// The open round's index in `rounds` and the byte its first segment ends at.
    open: Option<(usize, u64)>,
    /// Series rows not yet applied (they may be dated after the events fed so far).
    series: std::collections::VecDeque<(Ns, FlowState)>,
}

impl RoundTracker {
    /// A tracker for flow `flow`.
    pub fn new(flow: u32) -> RoundTracker {
        RoundTracker {
            flow,
            state: FlowState::default(),
            rounds: Vec::new(),
            done: 0,
            open: None,
            series: std::collections::VecDeque::new(),
        }
    }

    /// Applies the series rows dated before `t`: the state just before an event at `t`.
    fn apply_before(&mut self, t: Ns) {
        while let Some(&(rt, st)) = self.series.front() {
            if rt >= t {
                break;
            }
            self.state = st;
            self.series.pop_front();
        }
    }

    /// Ends round `i` at `t` with the state just before `t`.
    fn close(&mut self, i: usize, t: Ns) {
        let st = self.state;
        let r = &mut self.rounds[i];
        r.end = Some(t);
        r.cwnd = st.cwnd;
        r.ssthresh = st.ssthresh;
        r.phase = st.phase;
        self.open = None;
    }

    /// Feeds one slice of rows (the flow's own are picked out of `events`).
    pub fn feed(&mut self, events: &[EventRow], series: &[(Ns, FlowState)]) {
        self.series.extend(series.iter().copied());
        let flow = self.flow;
        for r in events.iter().filter(|r| r.flow as u32 == flow) {
            self.apply_before(r.t);
            self.event(r);
        }
    }

    fn event(&mut self, r: &EventRow) {
        let Some(&kind) = EventKind::ALL.get(r.kind as usize) else {
            return;
        };
        match kind {
            EventKind::DataSend | EventKind::Retransmit | EventKind::SynSend => {
                let i = match self.open {
                    Some((i, _)) => i,
                    None => {
                        self.rounds.push(Round {
                            round: self.done + self.rounds.len() as u32 + 1,
                            start: r.t,
                            end: None,
                            cwnd: 0,
                            ssthresh: u64::MAX,
                            phase: 0,
                            sent: 0,
                            retransmitted: 0,
                            events: Vec::new(),
                        });
                        let i = self.rounds.len() - 1;
                        self.open = Some((i, r.seq + r.len as u64));
                        i
                    }
                };
                self.rounds[i].sent += 1;
                if kind == EventKind::Retransmit {
                    self.rounds[i].retransmitted += 1;
                }
            }
            EventKind::AckReceived | EventKind::SynAckReceived => {
                if let Some((i, first_end)) = self.open {
                    // A SYN (0 bytes) is acknowledged by the SYN-ACK; data by an ACK past it.
                    let acked = match kind {
                        EventKind::SynAckReceived => true,
                        _ => first_end > 0 && r.seq >= first_end,
                    };
                    if acked {
                        self.close(i, r.t);
                    }
                }
            }
            EventKind::FastRetransmit | EventKind::Timeout => {
                if let Some((i, _)) = self.open {
                    self.rounds[i].events.push(kind);
                    self.close(i, r.t);
                } else if let Some(last) = self.rounds.last_mut() {
                    // The sender sat idle waiting for its timer after the last round ended:
                    // the timeout belongs to that round (its retransmission starts the next).
                    last.events.push(kind);
                }
            }
            EventKind::PartialAck | EventKind::RecoveryExit | EventKind::FastRetransmitSuppressed => {
                if let Some((i, _)) = self.open {
                    self.rounds[i].events.push(kind);
                }
            }
            _ => {}
        }
    }

    /// The rounds that ended, taken out in order (the last one stays while no round is
    /// open: a timeout may still come that belongs to it).
    pub fn take_ended(&mut self) -> Vec<Round> {
        let mut keep_from = self
            .rounds
            .iter()
            .position(|r| r.end.is_none())
            .unwrap_or(self.rounds.len());
        if self.open.is_none() && keep_from == self.rounds.len() && keep_from > 0 {
            keep_from -= 1;
        }
        let out: Vec<Round> = self.rounds.drain(..keep_from).collect();
        self.done += out.len() as u32;
        if let Some((i, _)) = self.open.as_mut() {
            *i -= keep_from;
        }
        out
    }

    /// The rounds not yet taken out, without consuming them: one still open shows the
    /// latest state (every series row fed so far) and no end.
    pub fn snapshot(&self) -> Vec<Round> {
        let latest = self.series.back().map_or(self.state, |r| r.1);
        let mut out = self.rounds.clone();
        if let Some((i, _)) = self.open {
            let r = &mut out[i];
            r.cwnd = latest.cwnd;
            r.ssthresh = latest.ssthresh;
            r.phase = latest.phase;
        }
        out
    }

    /// Every round left (the end of the record): one still open gets the latest state and
    /// no end.
    pub fn finish(&mut self) -> Vec<Round> {
        while let Some((_, st)) = self.series.pop_front() {
            self.state = st;
        }
        if let Some((i, _)) = self.open {
            let st = self.state;
            let r = &mut self.rounds[i];
            r.cwnd = st.cwnd;
            r.ssthresh = st.ssthresh;
            r.phase = st.phase;
            self.open = None;
        }
        let out: Vec<Round> = std::mem::take(&mut self.rounds);
        self.done += out.len() as u32;
        out
    }
}

/// Reads one flow's rounds from rows that are stored and keep growing (a running
/// simulation's), each call reading on from where the last stopped: a page asking while a
/// run plays pays for the new rows only.
#[derive(Clone, Debug)]
pub struct RoundsReader {
    tracker: RoundTracker,
    /// Event and series rows read so far.
    events: usize,
    series: usize,
    /// The rounds that ended.
    ended: Vec<Round>,
}

impl RoundsReader {
    /// A reader for flow `flow`.
    pub fn new(flow: u32) -> RoundsReader {
        RoundsReader {
            tracker: RoundTracker::new(flow),
            events: 0,
            series: 0,
            ended: Vec::new(),
        }
    }

    /// The rounds of the rows so far (all of them, each time): the ended ones, then the
    /// open one with the latest state and no end. If rows were taken out since the last
    /// call, it starts again from what is stored.
    pub fn read(&mut self, events: &[EventRow], series: &[(Ns, FlowState)]) -> Vec<Round> {
        if self.events > events.len() || self.series > series.len() {
            *self = RoundsReader::new(self.tracker.flow);
        }
        self.tracker.feed(&events[self.events..], &series[self.series..]);
        (self.events, self.series) = (events.len(), series.len());
        let ended = self.tracker.take_ended();
        self.ended.extend(ended);
        let mut out = self.ended.clone();
        out.extend(self.tracker.snapshot());
        out
    }
}

/// The rounds of flow `flow` from its whole record: its event rows (which must include the
/// sender's: data sends and ACK arrivals) and its window series, both in time order.
pub fn rounds(events: &[EventRow], series: &[(Ns, FlowState)], flow: u32) -> Vec<Round> {
    RoundsReader::new(flow).read(events, series)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(t: Ns, kind: EventKind, seq: u64, len: u32) -> EventRow {
        EventRow {
            t,
            seq,
            len,
            seg: 0,
            tx: 1,
            flow: 0,
            kind: kind as u8,
        }
    }

    fn st(cwnd: u64, ssthresh: u64, phase: Phase) -> FlowState {
        FlowState {
            cwnd,
            ssthresh,
            phase: phase as u8,
            ..Default::default()
        }
    }

    #[test]
    fn a_round_ends_when_its_first_segment_is_acknowledged_or_a_loss_is_resent() {
        use EventKind::*;
        let series = vec![
            (0, st(1000, u64::MAX, Phase::SlowStart)),
            (10, st(2000, u64::MAX, Phase::SlowStart)),
            (20, st(3000, u64::MAX, Phase::SlowStart)),
            (30, st(1500, 1500, Phase::FastRecovery)),
            (40, st(1500, 1500, Phase::CongestionAvoidance)),
        ];
        let ev = vec![
            row(0, DataSend, 0, 1000),
            row(10, AckReceived, 1000, 0),
            row(10, DataSend, 1000, 1000),
            row(10, DataSend, 2000, 1000),
            // An ACK for the second segment only does not end round 2 early: its first did.
            row(20, AckReceived, 2000, 0),
            row(20, DataSend, 3000, 1000),
            row(25, AckReceived, 3000, 0),
            row(30, FastRetransmit, 3000, 0),
            row(30, Retransmit, 3000, 1000),
            row(40, AckReceived, 4000, 0),
            row(40, RecoveryExit, 4000, 0),
        ];
        let r = rounds(&ev, &series, 0);
        let summary: Vec<(u32, Ns, Option<Ns>, u64, u32, u32)> = r
            .iter()
            .map(|r| (r.round, r.start, r.end, r.cwnd, r.sent, r.retransmitted))
            .collect();
        assert_eq!(
            summary,
            vec![
                (1, 0, Some(10), 1000, 1, 0),
                (2, 10, Some(20), 2000, 2, 0),
                (3, 20, Some(30), 3000, 1, 0),
                (4, 30, Some(40), 1500, 1, 1),
            ]
        );
        assert_eq!(r[2].events, vec![FastRetransmit]);
        assert_eq!(r[3].phase_name(), "fast_recovery");
        assert_eq!(r[3].ssthresh, 1500);
        assert_eq!(r[0].ssthresh, u64::MAX);
    }

    #[test]
    fn slices_give_the_same_rounds_as_the_whole_record() {
        let s = crate::scenario::Scenario::from_json_str(
            r#"{"duration": 4, "flows": [{"algorithm": "reno", "drops": [{"segment": 40}, {"segment": 120}, {"segment": 121}]}]}"#,
        )
        .unwrap();
        let mut whole = crate::sim::Simulation::new(&s);
        whole.run_to_end();
        let all = whole.rounds(0).unwrap();
        assert!(all.len() > 10);
        for slice in [1u64, 7, 100, 5_000] {
            let mut sim = crate::sim::Simulation::new(&s);
            let mut t = RoundTracker::new(0);
            let mut got = Vec::new();
            loop {
                let done = sim.run_events(slice);
                let rows = sim.take_rows();
                t.feed(&rows.events, &rows.series[0]);
                got.extend(t.take_ended());
                if done {
                    break;
                }
            }
            got.extend(t.finish());
            assert_eq!(got, all, "slices of {slice} events");
        }
    }

    #[test]
    fn asking_while_the_run_goes_gives_the_rounds_of_the_whole_record() {
        let s = crate::scenario::Scenario::from_json_str(
            r#"{"duration": 4, "flows": [{"algorithm": "reno", "drops": [{"segment": 40}, {"segment": 120}, {"segment": 121}]}]}"#,
        )
        .unwrap();
        let mut sim = crate::sim::Simulation::new(&s);
        let mut asked = 0;
        while !sim.run_events(5) {
            let so_far = sim.rounds(0).unwrap();
            let fresh = rounds(&sim.events().rows, &sim.series(0).rows, 0);
            assert_eq!(so_far, fresh);
            asked += 1;
        }
        assert!(asked > 10, "asked {asked} times, {} events", sim.events_processed());
        assert_eq!(
            sim.rounds(0).unwrap(),
            rounds(&sim.events().rows, &sim.series(0).rows, 0)
        );
    }

    #[test]
    fn a_handshake_is_round_one_and_other_flows_are_ignored() {
        use EventKind::*;
        let series = vec![(0, st(1000, u64::MAX, Phase::Handshake))];
        let mut other = row(5, DataSend, 0, 1000);
        other.flow = 1;
        let ev = vec![
            row(0, SynSend, 0, 0),
            other,
            row(100, SynAckReceived, 0, 0),
            row(100, DataSend, 0, 1000),
        ];
        let r = rounds(&ev, &series, 0);
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].start, r[0].end, r[0].sent), (0, Some(100), 1));
        assert_eq!((r[1].start, r[1].end), (100, None));
    }
}
