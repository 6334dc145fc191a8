//! Window validation: the growth gates, restart after idle, CWV (RFC 2861) and new CWV (RFC
//! 7661).
//!
//! Each rule's row, then its sentence with the arithmetic on its recorded values: `i` its
//! inputs, `o` its outputs (fields of the module its row makes, so a misspelt name does not
//! compile), `w` how values are written.

use super::*;

rule! {
    GateWindowFull = "gate.window_full", Gate, "No growth: the window was not full",
        "RFC 2861 §2 (Handley, Padhye, Floyd 1999 §2, slack from §5)", "grow only if flight ≥ min(cwnd, rwnd) (less than one SMSS unused counts as full under the one_mss slack)",
        [cwnd: Bytes, window: Bytes, flight: Bytes, flight_packets = "flight packets": Packets, smss = "SMSS": Bytes, slack_one_mss = "slack one_mss": Flag] => []
}

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

rule! {
    GateLinux315 = "gate.linux_3_15", Gate, "No growth: not cwnd-limited (Linux ≤ 3.15)",
        "Linux 3.15 tcp_is_cwnd_limited(sk, in_flight)", "limited if in_flight ≥ cwnd, or left = cwnd − in_flight with (3·left < cwnd and left·SMSS < 64 KiB) or left ≤ 3",
        [cwnd: Bytes, cwnd_packets = "cwnd packets": Packets, in_flight: Packets, smss = "SMSS": Bytes] => []
}

impl GateLinux315::In {
    pub(crate) fn words(i: &Self, _o: &GateLinux315::Out, _w: &W) -> String {
        format!(
            "No growth: {} of cwnd {} packets in flight, and the {} unused are too many for TSO to defer: not cwnd-limited",
            i.in_flight, i.cwnd_packets, i.cwnd_packets.saturating_sub(i.in_flight)
        )
    }
}

rule! {
    GateLinux316 = "gate.linux_3_16", Gate, "No growth: not cwnd-limited (Linux 3.16)",
        "Linux 3.16 tcp_is_cwnd_limited(sk) and tcp_cwnd_validate()", "slow start (cwnd ≤ ssthresh): cwnd < 2·max_packets_out; otherwise is_cwnd_limited",
        [cwnd: Bytes, ssthresh: Bytes, cwnd_packets = "cwnd packets": Packets, max_packets_out: Packets, is_cwnd_limited: Flag] => []
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

rule! {
    GateNewCwv = "gate.rfc7661", Gate, "No growth in the non-validated phase",
        "RFC 7661 §4.3", "in the NVP, grow only when cwnd-limited (flight fills cwnd)",
        [cwnd: Bytes, flight: Bytes] => []
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

rule! {
    Restart = "idle.restart", Idle, "Restart after idle",
        "RFC 5681 §4.1", "idle > RTO: cwnd = min(IW, cwnd)",
        [idle: Ns, rto = "RTO": Ns, iw = "IW": Bytes, cwnd: Bytes] => [cwnd: Bytes]
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

rule! {
    CwvIdle = "idle.rfc2861_idle", Idle, "Idle: cwnd halves once per RTO",
        "RFC 2861 §3 (Handley, Padhye, Floyd 1999 §2.2)", "ssthresh = max(ssthresh, ¾·cwnd); then, per whole RTO idle, cwnd = max(min(cwnd, rwnd)/2, SMSS)",
        [idle: Ns, rto = "RTO": Ns, cwnd: Bytes, ssthresh: Bytes] => [cwnd: Bytes, ssthresh: Bytes]
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

rule! {
    CwvAppLimited = "idle.rfc2861_app_limited", Idle, "Application-limited: cwnd decays toward the window used",
        "RFC 2861 §3 (Handley, Padhye, Floyd 1999 §2.2)", "ssthresh = max(ssthresh, ¾·cwnd); cwnd = (min(cwnd, rwnd) + W_used)/2",
        [since_t_prev = "since T_prev": Ns, rto = "RTO": Ns, w_used = "W_used": Bytes, cwnd: Bytes, ssthresh: Bytes] => [cwnd: Bytes, ssthresh: Bytes]
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

rule! {
    NvpEnter = "idle.rfc7661_nvp_enter", Idle, "Enter the non-validated phase",
        "RFC 7661 §4.3", "pipeACK < ½·cwnd: non-validated",
        [pipe_ack = "pipeACK": Bytes, cwnd: Bytes] => []
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

rule! {
    NvpExit = "idle.rfc7661_nvp_exit", Idle, "Leave the non-validated phase",
        "RFC 7661 §4.3 (and §4.2: pipeACK undefined after recovery or a timeout)", "pipeACK ≥ ½·cwnd, or pipeACK undefined: validated",
        [pipe_ack = "pipeACK": Bytes, cwnd: Bytes] => []
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

rule! {
    NvpExpiry = "idle.rfc7661_nvp_expiry", Idle, "The non-validated phase outlasted its limit",
        "RFC 7661 §4.4.3, §4.5.2", "per whole limit: ssthresh = max(ssthresh, ¾·cwnd); cwnd = min(cwnd, max(cwnd/2, IW))",
        [in_nvp = "in NVP": Ns, nvp_limit = "NVP limit": Ns, iw = "IW": Bytes, cwnd: Bytes, ssthresh: Bytes] => [cwnd: Bytes, ssthresh: Bytes]
}

impl NvpExpiry::In {
    pub(crate) fn words(i: &Self, o: &NvpExpiry::Out, w: &W) -> String {
        format!(
            "Non-validated for {} (limit {}): ssthresh = max({}, ¾·cwnd) = {}; cwnd = min(cwnd, max(cwnd/2, IW {})) = {}",
            w.t(i.in_nvp), w.t(i.nvp_limit), w.b(i.ssthresh), w.b(o.ssthresh), w.b(i.iw), w.b(o.cwnd)
        )
    }
}

rule! {
    NewCwvLoss = "loss.rfc7661_nvp", Loss, "Loss in the non-validated phase",
        "RFC 7661 §4.4.1", "cwnd = max(pipeACK, LossFlightSize)/2 (at least SMSS) for the recovery",
        [pipe_ack = "pipeACK": Bytes, loss_flight_size = "LossFlightSize": Bytes, cwnd: Bytes] => [cwnd: Bytes]
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

rule! {
    NewCwvRecoveryEnd = "recovery.rfc7661_end", Recovery, "End of recovery from a loss in the non-validated phase",
        "RFC 7661 §4.4.1", "cwnd = ssthresh = max((max(pipeACK, LossFlightSize) − R)/2, SMSS)",
        [pipe_ack = "pipeACK": Bytes, loss_flight_size = "LossFlightSize": Bytes, r = "R": Bytes, cwnd: Bytes, ssthresh: Bytes]
        => [cwnd: Bytes, ssthresh: Bytes]
}

impl NewCwvRecoveryEnd::In {
    pub(crate) fn words(i: &Self, o: &NewCwvRecoveryEnd::Out, w: &W) -> String {
        format!(
            "Recovery from a loss in the non-validated phase ends: cwnd = ssthresh = (max(pipeACK {}, LossFlightSize {}) − R {})/2 = {}",
            w.b(i.pipe_ack), w.b(i.loss_flight_size), w.b(i.r), w.b(o.cwnd)
        )
    }
}
