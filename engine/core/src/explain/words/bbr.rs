//! BBR: its model of the path (filters, states, pacing rate, cwnd) and its loss recovery.
//!
//! Each rule's sentence, with the arithmetic on its recorded values: `i` its inputs, `o` its
//! outputs (fields of its [`view`] module, so a misspelt name does not compile), `w` how
//! values are written.

use super::*;

impl BbrMaxBw::In {
    pub(crate) fn words(i: &Self, o: &BbrMaxBw::Out, w: &W) -> String {
        let al = if i.app_limited == 1 {
            " (application-limited, taken because it is higher)"
        } else {
            ""
        };
        if o.btl_bw >= i.btl_bw_before {
            format!(
                "BBR delivery-rate sample: {} delivered in {} = {}{} in round {}: the highest of the last 10 rounds, BtlBw {} → {}",
                w.b(i.delivered), w.t(i.interval), format_bps(i.rate), al, i.round, format_bps(i.btl_bw_before), format_bps(o.btl_bw)
            )
        } else {
            format!(
                "BBR: round {}: the old maximum is more than 10 rounds old, so BtlBw falls to the best newer sample, {} → {} (this sample: {} in {} = {})",
                i.round, format_bps(i.btl_bw_before), format_bps(o.btl_bw), w.b(i.delivered), w.t(i.interval), format_bps(i.rate)
            )
        }
    }
}

impl BbrMinRtt::In {
    pub(crate) fn words(i: &Self, o: &BbrMinRtt::Out, w: &W) -> String {
        if i.expired == 1 && i.rtprop_before != u64::MAX && i.rtt > i.rtprop_before {
            format!(
                "BBR: RTprop {} is {} old (over 10 s): it takes the new sample, {}, even though it is higher",
                w.t(i.rtprop_before),
                w.t(i.age),
                w.t(o.rtprop)
            )
        } else if i.rtprop_before == u64::MAX {
            format!("BBR's first RTT sample: RTprop = {}", w.t(o.rtprop))
        } else {
            format!(
                "BBR: an RTT sample of {} is below the current RTprop: RTprop {} → {}",
                w.t(i.rtt),
                w.t(i.rtprop_before),
                w.t(o.rtprop)
            )
        }
    }
}

impl BbrFullBwCheck::In {
    pub(crate) fn words(i: &Self, o: &BbrFullBwCheck::Out, _w: &W) -> String {
        if o.count == 0 {
            format!(
                "BBR Startup, round {}: BtlBw {} ≥ 1.25 × {} = {}: still growing, count reset",
                i.round,
                format_bps(i.btl_bw),
                format_bps(i.full_bw),
                format_bps(i.full_bw_x1_25)
            )
        } else {
            format!(
                "BBR Startup, round {}: BtlBw {} < 1.25 × {} = {}: {} of 3 rounds without 25 % growth{}",
                i.round,
                format_bps(i.btl_bw),
                format_bps(i.full_bw),
                format_bps(i.full_bw_x1_25),
                o.count,
                if o.filled_pipe == 1 { ": the pipe is full" } else { "" }
            )
        }
    }
}

impl BbrFullPipe::In {
    pub(crate) fn words(i: &Self, o: &BbrFullPipe::Out, w: &W) -> String {
        format!(
            "BBR: the bandwidth stopped growing for {} rounds at BtlBw = {} (RTprop {}, BDP {}): Startup → Drain, pacing at 1/2.885 of BtlBw to empty the queue Startup built; ssthresh = {}",
            i.rounds, format_bps(i.btl_bw), w.t(i.rtprop),
            w.b((i.btl_bw as u128 * i.rtprop as u128).div_ceil(8_000_000_000u128) as u64), w.b(o.ssthresh)
        )
    }
}

impl BbrDrainDone::In {
    pub(crate) fn words(i: &Self, o: &BbrDrainDone::Out, w: &W) -> String {
        format!(
            "BBR: {} in flight ≤ BBRInflight(1) = {}: the queue is drained, Drain → ProbeBW, starting at phase {} of the gain cycle (pacing gain {})",
            w.b(i.in_flight), w.b(i.bbr_inflight_1), o.phase, format_value(o.pacing_gain, Unit::Milli)
        )
    }
}

impl BbrCycle::In {
    pub(crate) fn words(i: &Self, o: &BbrCycle::Out, w: &W) -> String {
        let why = if i.gain_before > 1000 {
            format!(
                "after {} (> RTprop {}) {}",
                w.t(i.elapsed),
                w.t(i.rtprop),
                if i.losses > 0 {
                    "and a loss".to_string()
                } else {
                    format!("and {} in flight ≥ {}", w.b(i.in_flight), w.b(i.target))
                }
            )
        } else if i.gain_before < 1000 && i.elapsed <= i.rtprop {
            format!(
                "early: {} in flight ≤ BBRInflight(1) = {}, the queue is drained",
                w.b(i.in_flight),
                w.b(i.target)
            )
        } else {
            format!("after {} (> RTprop {})", w.t(i.elapsed), w.t(i.rtprop))
        };
        format!(
            "BBR ProbeBW: phase {} (gain {}) ends {}: phase {}, pacing gain {}",
            i.phase_before,
            format_value(i.gain_before, Unit::Milli),
            why,
            o.phase,
            format_value(o.pacing_gain, Unit::Milli)
        )
    }
}

impl BbrProbeRttEnter::In {
    pub(crate) fn words(i: &Self, o: &BbrProbeRttEnter::Out, w: &W) -> String {
        format!(
            "BBR: RTprop {} was measured {} ago, more than 10 s: ProbeRTT — cwnd drops to 4 segments for at least 200 ms and a round trip so the queue empties and the path's own RTT shows; cwnd {} saved",
            w.t(i.rtprop), w.t(i.age), w.b(o.saved_cwnd)
        )
    }
}

impl BbrProbeRttExit::In {
    pub(crate) fn words(i: &Self, o: &BbrProbeRttExit::Out, w: &W) -> String {
        format!(
            "BBR: 200 ms (until {}) and a round trip at 4 segments are over: RTprop is fresh again; cwnd = max({}, saved {}) = {}; {}",
            w.t(i.done_at), w.b(i.cwnd_before), w.b(i.saved_cwnd), w.b(o.cwnd),
            if i.filled_pipe == 1 { format!("back to ProbeBW at phase {}", o.phase) } else { "back to Startup (the pipe was never full)".to_string() }
        )
    }
}

impl BbrPacing::In {
    pub(crate) fn words(i: &Self, o: &BbrPacing::Out, _w: &W) -> String {
        format!(
            "BBR pacing rate = pacing gain × BtlBw = {} × {} = {} (was {})",
            format_value(i.pacing_gain, Unit::Milli),
            format_bps(i.btl_bw),
            format_bps(o.pacing_rate),
            format_bps(i.rate_before)
        )
    }
}

impl BbrCwnd::In {
    pub(crate) fn words(i: &Self, o: &BbrCwnd::Out, w: &W) -> String {
        let how = if i.probe_rtt_cap == 1 {
            "ProbeRTT caps it at 4 segments".to_string()
        } else if i.filled_pipe == 1 {
            format!(
                "cwnd = min(cwnd + acked, target) = min({} + {}, {})",
                w.b(i.cwnd_before),
                w.b(i.acked),
                w.b(i.target)
            )
        } else {
            format!(
                "Startup: cwnd + acked = {} + {} while below the target {}",
                w.b(i.cwnd_before),
                w.b(i.acked),
                w.b(i.target)
            )
        };
        format!(
            "BBR cwnd: target = {} × BtlBw {} × RTprop {} + 3 send quanta = {}; {}; cwnd {} → {}",
            format_value(i.cwnd_gain, Unit::Milli),
            format_bps(i.btl_bw),
            w.t(i.rtprop),
            w.b(i.target),
            how,
            w.b(i.cwnd_before),
            w.b(o.cwnd)
        )
    }
}

impl BbrConservation::In {
    pub(crate) fn words(i: &Self, o: &BbrConservation::Out, w: &W) -> String {
        format!(
            "BBR, first round of recovery: packet conservation, cwnd = max(cwnd{}, in flight + delivered) = max({}, {} + {}) = {}: a segment leaves only as one is delivered",
            if i.losses > 0 { " − losses" } else { "" }, w.b(i.cwnd_before), w.b(i.in_flight), w.b(i.delivered), w.b(o.cwnd)
        )
    }
}

impl BbrRestore::In {
    pub(crate) fn words(i: &Self, o: &BbrRestore::Out, w: &W) -> String {
        format!(
            "BBR: recovery is over, cwnd = max({}, the {} saved when it began) = {}",
            w.b(i.cwnd_before),
            w.b(i.saved_cwnd),
            w.b(o.cwnd)
        )
    }
}

impl FastRetransmitBbr::In {
    pub(crate) fn words(i: &Self, _o: &FastRetransmitBbr::Out, w: &W) -> String {
        format!(
            "Fast retransmit under BBR: duplicate ACK {} resends segment {} ({} in flight); BBR does not cut ssthresh or halve cwnd ({}): it conserves packets for a round and keeps pacing at its model's rate; recovery lasts until {} is acknowledged",
            i.dupacks, group(i.segment), w.b(i.flight_size), w.b(i.cwnd), group(i.recover)
        )
    }
}

impl BbrPartialAck::In {
    pub(crate) fn words(i: &Self, _o: &BbrPartialAck::Out, _w: &W) -> String {
        format!(
            "Partial ACK {} (recover {}): resend segment {} and stay in recovery{}; BBR sets cwnd",
            group(i.ack),
            group(i.recover),
            group(i.segment),
            if i.restart_timer == 1 {
                ", restarting the timer"
            } else {
                ""
            }
        )
    }
}

impl SsthreshBbr::In {
    pub(crate) fn words(_i: &Self, o: &SsthreshBbr::Out, w: &W) -> String {
        format!(
            "BBR on a loss: ssthresh stays {}; cwnd {} is saved to restore when recovery ends",
            w.b(o.ssthresh),
            w.b(o.saved_cwnd)
        )
    }
}
