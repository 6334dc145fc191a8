//! Window validation: the growth gates, restart after idle, CWV (RFC 2861) and new CWV (RFC 7661).
//!
//! Each rule's sentence, with the arithmetic on its recorded values: `i` its inputs, `o` its
//! outputs (fields of its [`view`] module, so a misspelt name does not compile), `w` how
//! values are written.

use super::*;

impl GateWindowFull::In {
    pub(crate) fn words(i: &Self, _o: &GateWindowFull::Out, w: &W) -> String {
        format!(
            "No growth: {} of min(cwnd, rwnd) = {} was in flight when the ACK came, so the window was not full ({})",
            w.b(i.flight),
            w.b(i.window),
            if i.slack_one_mss != 0 {
                "one SMSS of slack allowed"
            } else {
                "no slack"
            }
        )
    }
}

impl GateLinux315::In {
    pub(crate) fn words(i: &Self, _o: &GateLinux315::Out, _w: &W) -> String {
        format!(
            "No growth: {} of cwnd {} packets in flight, and the {} unused are too many for TSO to defer: not cwnd-limited",
            i.in_flight, i.cwnd_packets, i.cwnd_packets.saturating_sub(i.in_flight)
        )
    }
}

impl GateLinux316::In {
    pub(crate) fn words(i: &Self, _o: &GateLinux316::Out, _w: &W) -> String {
        if i.cwnd <= i.ssthresh {
            format!(
                "No growth: in slow start cwnd {} packets is not below 2·max_packets_out = 2·{}",
                i.cwnd_packets, i.max_packets_out
            )
        } else {
            "No growth: the last send pass was not stopped by cwnd (is_cwnd_limited = 0)".to_string()
        }
    }
}

impl GateNewCwv::In {
    pub(crate) fn words(i: &Self, _o: &GateNewCwv::Out, w: &W) -> String {
        format!(
            "No growth: in the non-validated phase and not cwnd-limited ({} in flight, cwnd {})",
            w.b(i.flight),
            w.b(i.cwnd)
        )
    }
}

impl Restart::In {
    pub(crate) fn words(i: &Self, o: &Restart::Out, w: &W) -> String {
        format!(
            "Idle for {} > RTO {}: restart with cwnd = min(IW {}, cwnd {}) = {}",
            w.t(i.idle),
            w.t(i.rto),
            w.b(i.iw),
            w.b(i.cwnd),
            w.b(o.cwnd)
        )
    }
}

impl CwvIdle::In {
    pub(crate) fn words(i: &Self, o: &CwvIdle::Out, w: &W) -> String {
        format!(
            "Idle for {} (≥ RTO {}): ssthresh = max({}, ¾·{}) = {}; cwnd halved per RTO elapsed: {} → {}",
            w.t(i.idle),
            w.t(i.rto),
            w.b(i.ssthresh),
            w.b(i.cwnd),
            w.b(o.ssthresh),
            w.b(i.cwnd),
            w.b(o.cwnd)
        )
    }
}

impl CwvAppLimited::In {
    pub(crate) fn words(i: &Self, o: &CwvAppLimited::Out, w: &W) -> String {
        format!(
            "Application-limited for {} (≥ RTO {}): ssthresh = max({}, ¾·{}) = {}; cwnd = (cwnd + W_used)/2 = ({} + {})/2 = {}",
            w.t(i.since_t_prev), w.t(i.rto), w.b(i.ssthresh), w.b(i.cwnd), w.b(o.ssthresh),
            group(i.cwnd), group(i.w_used), w.b(o.cwnd)
        )
    }
}

impl NvpEnter::In {
    pub(crate) fn words(i: &Self, _o: &NvpEnter::Out, w: &W) -> String {
        format!(
            "pipeACK {} is less than half of cwnd {}: the window is not validated (non-validated phase)",
            w.b(i.pipe_ack),
            w.b(i.cwnd)
        )
    }
}

impl NvpExit::In {
    pub(crate) fn words(i: &Self, _o: &NvpExit::Out, w: &W) -> String {
        if i.pipe_ack == u64::MAX {
            format!(
                "pipeACK is undefined after a recovery or a timeout: the window (cwnd {}) counts as validated",
                w.b(i.cwnd)
            )
        } else {
            format!(
                "pipeACK {} is at least half of cwnd {}: the window is validated again",
                w.b(i.pipe_ack),
                w.b(i.cwnd)
            )
        }
    }
}

impl NvpExpiry::In {
    pub(crate) fn words(i: &Self, o: &NvpExpiry::Out, w: &W) -> String {
        format!(
            "Non-validated for {} (limit {}): ssthresh = max({}, ¾·cwnd) = {}; cwnd = min(cwnd, max(cwnd/2, IW {})) = {}",
            w.t(i.in_nvp), w.t(i.nvp_limit), w.b(i.ssthresh), w.b(o.ssthresh), w.b(i.iw), w.b(o.cwnd)
        )
    }
}

impl NewCwvLoss::In {
    pub(crate) fn words(i: &Self, o: &NewCwvLoss::Out, w: &W) -> String {
        format!(
            "Loss in the non-validated phase: cwnd = max(pipeACK {}, LossFlightSize {})/2 = {}",
            w.b(i.pipe_ack),
            w.b(i.loss_flight_size),
            w.b(o.cwnd)
        )
    }
}

impl NewCwvRecoveryEnd::In {
    pub(crate) fn words(i: &Self, o: &NewCwvRecoveryEnd::Out, w: &W) -> String {
        format!(
            "Recovery from a loss in the non-validated phase ends: cwnd = ssthresh = (max(pipeACK {}, LossFlightSize {}) − R {})/2 = {}",
            w.b(i.pipe_ack), w.b(i.loss_flight_size), w.b(i.r), w.b(o.cwnd)
        )
    }
}
