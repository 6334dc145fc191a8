//! The controller interface: everything the sender sees of congestion control. The sender
//! asks for the window and the pacing rate and calls the hooks below when a segment leaves,
//! a send pass ends, an ACK or a duplicate ACK arrives, the timer expires, an RTT sample is
//! taken or the sender may have been idle. It names no algorithm or mechanism: which rules
//! answer (Reno's recovery, CUBIC's growth, BBR's model, an idle policy) is decided here and
//! in the mechanisms' files, from the flow's settings.

use super::{Cc, DupAckAction, Flight};
use crate::scenario::{FlowCfg, Units};
use crate::time::Ns;
use crate::trace::EventKind;

/// A row a rule wants in the event log, as the sender logs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogRow {
    /// The event kind.
    pub kind: EventKind,
    /// The row's fields, as that kind defines them.
    pub seq: u64,
    pub len: u32,
    pub seg: u32,
    pub tx: u32,
    /// Whether the row is a reduction of cwnd by the idle policy (the summary's
    /// `window_decays`).
    pub decay: bool,
}

impl Cc {
    /// The controller of one flow, from its settings; `tick` is the TCP clock tick (the
    /// idle policies' time base).
    pub fn for_flow(cfg: &FlowCfg, tick: Ns) -> Cc {
        let mut cc = Cc::new(
            cfg.variant,
            cfg.cc.clone(),
            cfg.tcp.mss,
            cfg.tcp.rwnd,
            cfg.tcp.initial_window,
            cfg.tcp.initial_ssthresh,
            cfg.tcp.dupack_threshold,
        );
        cc.tick = tick;
        cc.header = cfg.tcp.header;
        cc.br.reserved_bps = cfg.reserved_bandwidth;
        cc.set_ecn(cfg.ecn, cfg.tcp.syn, &cfg.dctcp);
        if let Some(b) = cc.bbr.as_deref_mut() {
            // With SACK the recovery mechanism reports what each ACK delivered.
            b.scoreboard = cfg.sack.enabled;
        }
        cc
    }

    /// The round trip of the path as built (propagation and one packet's serialisation each
    /// way): for rules that need an RTT before any sample.
    pub fn set_path_rtt(&mut self, rtt: Ns) {
        self.br.path_rtt = rtt;
    }

    /// The time of the event being handled: the sender sets it before it calls a hook.
    #[inline]
    pub fn set_now(&mut self, now: Ns) {
        self.now = now;
    }

    /// Congestion window, bytes.
    #[inline]
    pub fn cwnd(&self) -> u64 {
        self.cwnd
    }

    /// Slow-start threshold, bytes (`u64::MAX` = arbitrarily high).
    #[inline]
    pub fn ssthresh(&self) -> u64 {
        self.ssthresh
    }

    /// Whether Limited Transmit (RFC 3042) is on.
    #[inline]
    pub fn limited_transmit(&self) -> bool {
        self.cfg.limited_transmit
    }

    /// The cwnd unit.
    #[inline]
    pub fn units(&self) -> Units {
        self.cfg.units
    }

    /// Consecutive duplicate ACKs counted.
    #[inline]
    pub fn dupacks(&self) -> u32 {
        self.dupacks
    }

    /// Whether the controller keeps a model of the path (BBR): with a recovery mechanism
    /// that reads SACK blocks it then sets the window itself on every ACK, in recovery too
    /// (no PRR), from the deliveries the mechanism reports ([`Cc::on_sack_delivered`],
    /// [`Cc::on_ack_read`]), and its window caps pipe at all times, as Linux counts packets
    /// in flight for such a controller.
    #[inline]
    pub fn models_path(&self) -> bool {
        self.bbr.is_some()
    }

    /// Whether the controller sets a pacing rate: the sender then spaces its segments and
    /// calls [`Cc::on_transmit`] for each.
    #[inline]
    pub fn paces(&self) -> bool {
        self.bbr.is_some()
    }

    /// Whether the controller watches idle and application-limited periods: the sender
    /// then calls [`Cc::before_send`] before a pass and [`Cc::on_data_sent`] after each
    /// segment.
    #[inline]
    pub fn watches_idle(&self) -> bool {
        self.validation.is_active()
    }

    /// Whether a data segment fits the window in force: `after` bytes in flight with it,
    /// `packets_out` segments in flight before it, `header` bytes of header per packet, and
    /// `extra` segments allowed beyond the window (Limited Transmit).
    #[inline]
    pub fn fits(&self, after: u64, packets_out: u64, header: u64, extra: u64) -> bool {
        match self.cfg.units {
            // Source 004 §5.1: the headers of the packets in flight, this one included,
            // count against cwnd too.
            Units::Bytes if self.cfg.header_in_window => {
                after + (packets_out + 1) * header <= self.window() + extra * self.smss
            }
            Units::Bytes => after <= self.window() + extra * self.smss,
            // One more packet must fit: packets in flight < floor(window / SMSS) + allowance.
            Units::Segments => packets_out < self.window() / self.smss + extra,
        }
    }

    /// A data segment [end − len, end) leaves at `now` (a resend if `retx`): `index` is its place
    /// among the segments outstanding, `outstanding` the bytes outstanding before it, `srtt`
    /// the smoothed RTT. Called only for a controller that [`Cc::paces`].
    #[inline]
    pub fn on_transmit(&mut self, now: Ns, index: usize, end: u64, retx: bool, outstanding: u64, srtt: Ns) {
        self.bbr_on_transmit(now, index, end, retx, outstanding, srtt);
    }

    /// A pass of the send loop that sent something ended, with `packets_out` segments in
    /// flight up to `snd_nxt` from `snd_una`; `cwnd_stopped` when the window stopped it
    /// while data waited.
    #[inline]
    pub fn on_send_pass_end(&mut self, packets_out: u64, snd_nxt: u64, snd_una: u64, cwnd_stopped: bool) {
        self.after_send_pass(packets_out, snd_nxt, snd_una, cwnd_stopped);
    }

    /// A paced sender's send loop ran out of data (less than a segment left, nothing to
    /// resend) with `flight` outstanding: a controller that samples the delivery rate marks
    /// the samples to come application-limited, if the window is not the limit. Called only
    /// for a controller that [`Cc::paces`].
    #[cold]
    pub fn on_out_of_data(&mut self, flight: Flight) {
        self.bbr_out_of_data(flight);
    }

    /// Whether rules have rows for the event log waiting (see [`Cc::drain_rows`]).
    #[inline]
    pub fn has_rows(&self) -> bool {
        !self.changes.is_empty() || !self.notes.is_empty()
    }

    /// Hands the rows rules wrote since the last call to `f`, in order: the idle policy's
    /// window changes, then the other notes (CUBIC's epochs).
    pub fn drain_rows(&mut self, mut f: impl FnMut(LogRow)) {
        let sat = |x: u64| x.min(u32::MAX as u64) as u32;
        for c in self.changes.drain(..) {
            f(LogRow {
                kind: c.kind,
                seq: c.before.cwnd,
                len: sat(c.after.cwnd),
                seg: sat(c.before.ssthresh),
                tx: sat(c.after.ssthresh),
                decay: !matches!(c.kind, EventKind::NvpEnter | EventKind::NvpExit),
            });
        }
        for n in self.notes.drain(..) {
            f(LogRow {
                kind: n.kind,
                seq: n.seq,
                len: n.len,
                seg: n.seg,
                tx: n.tx,
                decay: false,
            });
        }
    }

    /// The idle policy's traced state (None when it keeps none).
    pub fn validation_row(&self) -> Option<super::ValidationRow> {
        self.validation.row()
    }

    /// BR-TCP's ssthresh from the reserved rate with the flow's settings, bytes.
    pub fn reserved_bdp(&self) -> u64 {
        self.br
            .ssthresh(self.cfg.br_rtt, self.cfg.br_packet_size, self.smss, self.header)
    }

    /// What a fast retransmit asks of the sender: go back N (Tahoe) or resend the head, and
    /// whether the retransmission timer restarts.
    #[inline]
    pub(super) fn fast_retransmit(&self, go_back_n: bool) -> DupAckAction {
        DupAckAction::FastRetransmit {
            go_back_n,
            restart_timer: self.cfg.fast_retransmit_restarts_timer,
        }
    }
}
