//! BBR: its model of the path (filters, states, pacing rate, cwnd) and its loss recovery.
//!
//! Each rule's row, then its sentence with the arithmetic on its recorded values: `i` its
//! inputs, `o` its outputs (fields of the module its row makes, so a misspelt name does not
//! compile), `w` how values are written.

use super::*;

rule! {
    BbrMaxBw = "bbr.max_bw", Model, "BBR: a new bottleneck-bandwidth estimate (BtlBw)",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.1.1 (BBRUpdateBtlBw); draft-cheng-iccrg-delivery-rate-estimation; Linux 4.9 bbr_update_bw()",
        "rate = delivered / max(send phase, ACK phase); BtlBw = max of the rates over the last 10 round trips (app-limited samples only if they raise it)",
        [delivered: Bytes, interval: Ns, rate: Bps, app_limited = "app-limited": Flag, round: Count, btl_bw_before = "BtlBw before": Bps] => [btl_bw = "BtlBw": Bps]
}

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

rule! {
    BbrMinRtt = "bbr.min_rtt", Model, "BBR: a new RTprop (minimum RTT)",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.1.2 (BBRUpdateRTprop); Linux 4.9 bbr_update_min_rtt()",
        "if rtt ≤ RTprop or RTprop is older than 10 s: RTprop = rtt",
        [rtt: Ns, rtprop_before = "RTprop before": Ns, age: Ns, expired: Flag] => [rtprop = "RTprop": Ns]
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

rule! {
    BbrFullBwCheck = "bbr.full_bw_check", Model, "BBR Startup: did the bandwidth grow by 25 % this round?",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.2.2 (BBRCheckFullPipe); Linux 4.9 bbr_check_full_bw_reached()",
        "if BtlBw ≥ 1.25·full_bw: full_bw = BtlBw, count = 0; else count += 1; the pipe is full after 3 rounds",
        [round: Count, btl_bw = "BtlBw": Bps, full_bw: Bps, count_before = "count before": Count, full_bw_x1_25 = "1.25·full_bw": Bps] => [count: Count, filled_pipe = "filled pipe": Flag]
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

rule! {
    BbrFullPipe = "bbr.full_pipe", Model, "BBR: the pipe is full, Startup → Drain",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.2.3 (BBRCheckDrain); Linux 4.9 bbr_check_drain()",
        "3 rounds without 25 % growth: mode = Drain, pacing gain = 1/2.885 (cwnd gain stays 2.885); ssthresh = BBRInflight(1) (Linux)",
        [btl_bw = "BtlBw": Bps, rtprop = "RTprop": Ns, rounds: Count, ssthresh_before = "ssthresh before": Bytes] => [ssthresh: Bytes]
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

rule! {
    BbrDrainDone = "bbr.drain_done", Model, "BBR: the queue is drained, Drain → ProbeBW",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.3 (BBREnterProbeBW); Linux 4.9 bbr_check_drain(), bbr_reset_probe_bw_mode()",
        "if in flight ≤ BBRInflight(1) = BtlBw·RTprop + 3·send quantum: mode = ProbeBW at a random phase of the gain cycle other than 3/4",
        [in_flight = "in flight": Bytes, bbr_inflight_1 = "BBRInflight(1)": Bytes] => [phase: Count, pacing_gain = "pacing gain": Milli]
}

impl BbrDrainDone::In {
    pub(crate) fn words(i: &Self, o: &BbrDrainDone::Out, w: &W) -> String {
        format!(
            "BBR: {} in flight ≤ BBRInflight(1) = {}: the queue is drained, Drain → ProbeBW, starting at phase {} of the gain cycle (pacing gain {})",
            w.b(i.in_flight), w.b(i.bbr_inflight_1), o.phase, format_value(o.pacing_gain, Unit::Milli)
        )
    }
}

rule! {
    BbrCycle = "bbr.cycle", Model, "BBR ProbeBW: next phase of the gain cycle",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.3 (BBRCheckCyclePhase, BBRIsNextCyclePhase); Linux 4.9 bbr_is_next_cycle_phase()",
        "after one RTprop; a 5/4 phase also waits for losses or in flight ≥ BBRInflight(5/4); a 3/4 phase ends early once in flight ≤ BBRInflight(1); gains 5/4, 3/4, 1, 1, 1, 1, 1, 1",
        [phase_before = "phase before": Count, gain_before = "gain before": Milli, elapsed: Ns, rtprop = "RTprop": Ns, in_flight = "in flight": Bytes, target: Bytes, losses: Count] => [phase: Count, pacing_gain = "pacing gain": Milli]
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

rule! {
    BbrProbeRttEnter = "bbr.probe_rtt_enter", Model, "BBR: RTprop is 10 s old, enter ProbeRTT",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.4 (BBRCheckProbeRTT); Linux 4.9 bbr_update_min_rtt()",
        "if no RTT ≤ RTprop for 10 s: save cwnd, mode = ProbeRTT, cwnd ≤ 4 segments for max(200 ms, one round)",
        [rtprop = "RTprop": Ns, age: Ns, window: Ns, cwnd: Bytes] => [saved_cwnd = "saved cwnd": Bytes]
}

impl BbrProbeRttEnter::In {
    pub(crate) fn words(i: &Self, o: &BbrProbeRttEnter::Out, w: &W) -> String {
        format!(
            "BBR: RTprop {} was measured {} ago, more than 10 s: ProbeRTT — cwnd drops to 4 segments for at least 200 ms and a round trip so the queue empties and the path's own RTT shows; cwnd {} saved",
            w.t(i.rtprop), w.t(i.age), w.b(o.saved_cwnd)
        )
    }
}

rule! {
    BbrProbeRttExit = "bbr.probe_rtt_exit", Model, "BBR: ProbeRTT done",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.4 (BBRHandleProbeRTT, BBRExitProbeRTT); Linux 4.9 bbr_check_probe_rtt_done()",
        "200 ms and a round at 4 segments: RTprop's stamp = now, cwnd = max(cwnd, saved cwnd), back to ProbeBW (Startup if the pipe was never full)",
        [done_at = "done at": Ns, cwnd_before = "cwnd before": Bytes, saved_cwnd = "saved cwnd": Bytes, filled_pipe = "filled pipe": Flag] => [cwnd: Bytes, phase: Count]
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

rule! {
    BbrPacing = "bbr.pacing", Model, "BBR sets its pacing rate",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.2.1 (BBRSetPacingRateWithGain); Linux 4.9 bbr_set_pacing_rate()",
        "rate = pacing_gain·BtlBw; taken once the pipe is full, or before that only if higher",
        [btl_bw = "BtlBw": Bps, pacing_gain = "pacing gain": Milli, rate_before = "rate before": Bps] => [pacing_rate = "pacing rate": Bps]
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

rule! {
    BbrCwnd = "bbr.cwnd", Model, "BBR sets cwnd toward cwnd_gain × BDP",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.2.3 (BBRSetCwnd, BBRInflight); Linux 4.9 bbr_set_cwnd()",
        "target = cwnd_gain·BtlBw·RTprop (whole segments) + 3·send quantum; full pipe: cwnd = min(cwnd + acked, target); before: cwnd += acked while below target; at least 4 segments; ProbeRTT: at most 4",
        [cwnd_before = "cwnd before": Bytes, acked: Bytes, btl_bw = "BtlBw": Bps, rtprop = "RTprop": Ns, cwnd_gain = "cwnd gain": Milli, target: Bytes, filled_pipe = "filled pipe": Flag, probe_rtt_cap = "ProbeRTT cap": Flag] => [cwnd: Bytes]
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

rule! {
    BbrConservation = "bbr.conservation", Recovery, "BBR in recovery: packet conservation",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.2.3.4 (BBRModulateCwndForRecovery); Linux 4.9 bbr_set_cwnd_to_recover_or_restore()",
        "first round of recovery: cwnd = max(cwnd − losses, in flight + delivered): one segment out per segment delivered",
        [cwnd_before = "cwnd before": Bytes, in_flight = "in flight": Bytes, delivered: Bytes, losses: Count] => [cwnd: Bytes]
}

impl BbrConservation::In {
    pub(crate) fn words(i: &Self, o: &BbrConservation::Out, w: &W) -> String {
        format!(
            "BBR, first round of recovery: packet conservation, cwnd = max(cwnd{}, in flight + delivered) = max({}, {} + {}) = {}: a segment leaves only as one is delivered",
            if i.losses > 0 { " − losses" } else { "" }, w.b(i.cwnd_before), w.b(i.in_flight), w.b(i.delivered), w.b(o.cwnd)
        )
    }
}

rule! {
    BbrRestore = "bbr.restore", Recovery, "BBR leaves recovery: cwnd restored",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.2.3.4 (BBRRestoreCwnd); Linux 4.9 bbr_set_cwnd_to_recover_or_restore()",
        "cwnd = max(cwnd, the cwnd saved when recovery began)",
        [cwnd_before = "cwnd before": Bytes, saved_cwnd = "saved cwnd": Bytes] => [cwnd: Bytes]
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

rule! {
    FastRetransmitBbr = "loss.fast_retransmit_bbr", Loss, "Fast retransmit under BBR",
        "RFC 6582 (loss recovery, as Linux without SACK); Linux 4.9 bbr_ssthresh(), bbr_set_cwnd_to_recover_or_restore()",
        "3rd duplicate ACK: resend the segment at snd_una, enter recovery; BBR keeps ssthresh and saves cwnd, then conserves packets",
        [dupacks: Count, segment: Seg, flight_size = "FlightSize": Bytes, cwnd: Bytes, recover: Seq] => []
}

impl FastRetransmitBbr::In {
    pub(crate) fn words(i: &Self, _o: &FastRetransmitBbr::Out, w: &W) -> String {
        format!(
            "Fast retransmit under BBR: duplicate ACK {} resends segment {} ({} in flight); BBR does not cut ssthresh or halve cwnd ({}): it conserves packets for a round and keeps pacing at its model's rate; recovery lasts until {} is acknowledged",
            i.dupacks, group(i.segment), w.b(i.flight_size), w.b(i.cwnd), group(i.recover)
        )
    }
}

rule! {
    BbrPartialAck = "recovery.partial_ack_bbr", Recovery, "Partial ACK under BBR: resend the next hole",
        "RFC 6582 §3.2 step 3 (as Linux without SACK); the window is BBR's",
        "ack < recover: resend the segment at snd_una, stay in recovery; cwnd is set by BBR (bbr.conservation, bbr.cwnd)",
        [ack: Seq, recover: Seq, segment: Seg, restart_timer = "restart timer": Flag] => []
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

rule! {
    SsthreshBbr = "ssthresh.bbr", Loss, "BBR keeps ssthresh and saves cwnd",
        "Linux 4.9 bbr_ssthresh(), bbr_save_cwnd(); draft-cardwell-iccrg-bbr-congestion-control-00 §4.2.3.4 (BBRSaveCwnd)",
        "saved cwnd = cwnd (the larger of the two if already recovering or in ProbeRTT); ssthresh unchanged",
        [cwnd: Bytes, saved_before = "saved before": Bytes, ssthresh_before = "ssthresh before": Bytes] => [saved_cwnd = "saved cwnd": Bytes, ssthresh: Bytes]
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
