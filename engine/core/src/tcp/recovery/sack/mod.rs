//! SACK-based loss recovery, the sender's side: the scoreboard ([`scoreboard`], RFC 6675
//! §4), when recovery begins and ends (RFC 6675 §5, with early retransmit, RFC 5827, and
//! RACK, RFC 8985 §6), how much it sends ([`prr`], RFC 6937, or RFC 6675's cwnd − pipe),
//! and the tail loss probe ([`rack`], RFC 8985 §7).
//!
//! A flow that negotiated SACK gets it as its recovery mechanism (`tcp::recovery`): it runs
//! the send loop, reads every ACK (after the sender has read its header), owns the loss
//! timer and answers a timeout, all through the sender's door ([`wiring`]). The congestion
//! response itself (ssthresh, cwnd) is the controller's, so SACK recovery combines with
//! every increase and decrease rule.

pub mod edges;
pub mod prr;
pub mod rack;
pub mod scoreboard;
pub mod settings;
#[cfg(test)]
mod tests;
mod wiring;

use crate::net::sack::SackBlocks;
use crate::time::Ns;
use prr::Prr;
use rack::Rack;
use scoreboard::{Next, RackVerdict, SackUpdate, Scoreboard};
use settings::{RecoveryBudget, SackCfg};

/// What started a recovery (recorded with its explanation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Trigger {
    /// DupThresh duplicate ACKs (RFC 6675 §5 step 4).
    DupThresh = 1,
    /// IsLost(HighACK + 1) before DupThresh duplicates (RFC 6675 §5 step 4).
    IsLost = 2,
    /// RACK deemed a segment lost (RFC 8985 §6).
    Rack = 3,
    /// Early retransmit's lowered threshold (RFC 5827 §3).
    EarlyRetransmit = 4,
}

/// The tail loss probe in the network (RFC 8985 §7.3: TLP.end_seq, TLP.is_retrans).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// snd_max when it was sent.
    pub end: u64,
    /// It resent the last segment (no new data could go).
    pub retrans: bool,
    /// A D-SACK showed the probed segment had arrived before.
    pub dsacked: bool,
}

/// Which of the loss timer's uses is armed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossTimer {
    /// RACK waits for segments not yet due (RFC 8985 §6.3).
    Reorder,
    /// The probe timeout (RFC 8985 §7.2).
    Probe,
}

/// One SACK sender's loss-recovery state.
#[derive(Clone, Debug)]
pub struct SackSender {
    /// The scoreboard.
    pub sb: Scoreboard,
    /// SMSS, bytes.
    pub smss: u64,
    /// DupThresh.
    pub dupthresh: u64,
    /// How much recovery sends.
    pub budget: RecoveryBudget,
    /// Whether RACK, TLP and early retransmit are on.
    pub rack_on: bool,
    pub tlp_on: bool,
    pub er_on: bool,
    /// In SACK-based recovery.
    pub in_recovery: bool,
    /// RecoveryPoint (one past: snd_max when recovery began).
    pub recovery_point: u64,
    /// After a timeout, no recovery begins until the cumulative ACK reaches this (RFC 6675
    /// §5.1).
    pub rto_point: Option<u64>,
    /// Duplicate ACKs (each carrying new SACK information) since the last new ACK.
    pub dupacks: u64,
    /// PRR's state.
    pub prr: Prr,
    /// RACK's state.
    pub rack: Rack,
    /// The loss timer: its deadline and use.
    pub timer: Option<(Ns, LossTimer)>,
    /// The probe in the network.
    pub probe: Option<Probe>,
    /// Scratch: segments newly deemed lost.
    pub newly_lost: Vec<usize>,
    /// Scratch: segments the last ACK's blocks newly SACKed (indices).
    pub newly_sacked: Vec<usize>,
    /// Segments deemed lost while reading this ACK, and what its start of recovery resent
    /// (bytes, segments): what a controller that models the path is told
    /// (`Cc::on_ack_read`).
    lost_in_ack: u64,
    resent_in_ack: (u64, u64),
    /// The loss timer's pending queue entry and its generation.
    timer_event: Option<Ns>,
    timer_gen: u32,
}

impl SackSender {
    /// A sender's SACK state from its settings.
    pub fn new(cfg: &SackCfg, smss: u64, dupthresh: u64) -> SackSender {
        SackSender {
            sb: Scoreboard::default(),
            smss,
            dupthresh: dupthresh.max(1),
            budget: cfg.budget,
            rack_on: cfg.rack,
            tlp_on: cfg.tlp,
            er_on: cfg.early_retransmit,
            in_recovery: false,
            recovery_point: 0,
            rto_point: None,
            dupacks: 0,
            prr: Prr::default(),
            rack: Rack::new(),
            timer: None,
            probe: None,
            newly_lost: Vec::new(),
            newly_sacked: Vec::new(),
            lost_in_ack: 0,
            resent_in_ack: (0, 0),
            timer_event: None,
            timer_gen: 0,
        }
    }

    /// The duplicate-ACK threshold in force: early retransmit lowers it to outstanding − 1
    /// (at least 1) when fewer than 4 segments are outstanding and no new data may be sent
    /// (RFC 5827 §3.1, segment-based).
    pub fn threshold(&self, new_data_waits: bool) -> (u64, bool) {
        let out = self.sb.len() as u64;
        if self.er_on && out < 4 && !new_data_waits && out >= 2 {
            let er = (out - 1).min(self.dupthresh);
            (er, er < self.dupthresh)
        } else {
            (self.dupthresh, false)
        }
    }

    /// An ACK's SACK part: the blocks applied after the cumulative ACK `ack` (which may not
    /// have moved: `dup`), at `now`. Updates RACK from what it delivered (`cum_newest`: the
    /// newest segment the cumulative part delivered).
    pub fn on_blocks(
        &mut self,
        now: Ns,
        ack: u64,
        snd_max: u64,
        blocks: Option<&SackBlocks>,
        cum_newest: Option<(Ns, u64, u32)>,
    ) -> SackUpdate {
        self.newly_sacked.clear();
        let u = blocks
            .map(|b| self.sb.apply_into(ack, b, &mut self.newly_sacked))
            .unwrap_or_default();
        // The timestamp echo (RFC 7323 §4.3) says which transmission of the segment that
        // triggered this ACK arrived: a retransmission's delivery is then not ambiguous.
        let echo = blocks.map(|b| b.echo);
        for (xmit, end, tx) in [cum_newest, u.newest].into_iter().flatten() {
            let latest = echo.and_then(|(e_end, e_tx)| (e_end == end).then_some(e_tx == tx));
            self.rack.on_delivered(now, xmit, end, tx > 1, latest);
        }
        if let Some((l, r)) = u.dsack {
            if self.rack_on {
                self.rack.on_dsack(ack, snd_max);
            }
            if let Some(p) = self.probe.as_mut() {
                if p.retrans && r >= p.end && l < p.end {
                    p.dsacked = true;
                }
            }
        }
        u
    }

    /// RACK's loss detection (RFC 8985 §6.2 step 5): marks the segments due, returns the
    /// time until the next is due (for the RACK timer), if any waits.
    pub fn rack_detect(&mut self, now: Ns, srtt: Ns) -> Option<Ns> {
        let reo = self
            .rack
            .reo_wnd(self.in_recovery, self.sb.sacked_segs, self.dupthresh, srtt);
        let rack = self.rack;
        let mut out = std::mem::take(&mut self.newly_lost);
        let wait = self.sb.rack_walk(
            |e| match rack.remaining(now, e.xmit, e.end(), reo) {
                None => RackVerdict::Stop,
                Some(0) => RackVerdict::Lost,
                Some(t) => RackVerdict::Wait(t),
            },
            &mut out,
        );
        // Found in the order they were sent; logged in sequence order.
        out.sort_unstable();
        self.newly_lost = out;
        wait
    }

    /// What to send next, or None: in recovery NextSeg's four rules; outside it, segments
    /// deemed lost (after a timeout) first, then new data.
    pub fn next(&mut self, new_data: bool, high_ack: u64) -> Option<Next> {
        if self.in_recovery {
            return self.sb.next_seg(new_data, self.recovery_point, high_ack);
        }
        if self.sb.any_waiting() {
            return self.sb.next_seg(false, self.recovery_point, high_ack);
        }
        new_data.then_some(Next::New)
    }

    /// Recovery begins at the cumulative ACK `ack` with `flight` bytes outstanding and
    /// `snd_max` sent.
    pub fn enter(&mut self, flight: u64, snd_max: u64) {
        self.in_recovery = true;
        self.recovery_point = snd_max;
        self.prr = Prr::start(flight);
        self.sb.rescue_rxt = None;
        // RFC 6675 §5 step 4.3: the first segment is resent whatever IsLost says.
        if !self.sb.is_empty() && self.sb.mark_lost(0) {
            self.newly_lost.push(0);
        }
        self.probe = None;
        if self.timer.is_some_and(|(_, k)| k == LossTimer::Probe) {
            self.timer = None;
        }
    }

    /// Recovery ends (the cumulative ACK reached the recovery point).
    pub fn exit(&mut self) {
        self.in_recovery = false;
        if self.rack_on {
            self.rack.on_recovery_end();
        }
    }

    /// The retransmission timer expired: every segment not SACKed is deemed lost, recovery
    /// (if any) ends, and no new one begins before `snd_max` is acknowledged (RFC 6675
    /// §5.1). Returns the segments newly deemed lost.
    pub fn on_timeout(&mut self, snd_max: u64) -> u64 {
        self.in_recovery = false;
        self.rto_point = Some(snd_max);
        self.dupacks = 0;
        self.probe = None;
        self.timer = None;
        self.sb.on_timeout()
    }

    /// Whether the sender should arm a probe: TLP on, data outstanding, no recovery, no
    /// probe in the network and no timeout recovery under way (RFC 8985 §7.2).
    pub fn wants_probe(&self) -> bool {
        self.tlp_on && !self.in_recovery && self.probe.is_none() && !self.sb.is_empty() && self.rto_point.is_none()
    }
}
