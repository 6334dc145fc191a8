//! SACK-based loss recovery: when it begins (RFC 6675 §5, RFC 5827, RFC 8985 §6), which
//! segment NextSeg sends (RFC 6675 §4), PRR's budget (RFC 6937 §3), the end of recovery,
//! RACK's loss marking and the tail loss probe (RFC 8985 §6–7).
//!
//! Each rule's row, then its sentence with the arithmetic on its recorded values: `i` its
//! inputs, `o` its outputs (fields of the module its row makes, so a misspelt name does not
//! compile), `w` how values are written.

use super::*;

/// What started a recovery, by its code (`tcp::recovery::sack::Trigger`).
fn trigger(code: u64, threshold: u64, dupacks: u64) -> String {
    match code {
        1 => format!("{} duplicate ACKs carrying new SACK information reached DupThresh = {}", dupacks, threshold),
        2 => format!("IsLost(HighACK + 1): {} or more segments (or more than {} − 1 segments' bytes) SACKed above the first hole", threshold, threshold),
        3 => "RACK deemed a segment lost: a segment sent after it was delivered more than RACK.rtt + the reordering window ago".into(),
        4 => format!("early retransmit: with fewer than 4 segments outstanding and nothing new to send, {} duplicate ACK(s) or SACKed segment(s) suffice instead of 3", threshold),
        _ => "a loss".into(),
    }
}

rule! {
    SackRecovery = "sack.recovery", Loss, "SACK recovery begins",
        "RFC 6675 §5 step 4; RFC 5827 §3; RFC 8985 §6", "RecoveryPoint = HighData; ssthresh by the flow's rule on pipe; cwnd = ssthresh (BBR keeps cwnd: its model sets it, conserving packets); resend HighACK + 1",
        [trigger: Count, threshold: Count, dupacks: Count, sacked: Bytes, head = "resent": Seg, pipe: Bytes, cwnd: Bytes, ssthresh: Bytes]
        => [ssthresh: Bytes, cwnd: Bytes, recovery_point = "RecoveryPoint": Seq]
}

impl SackRecovery::In {
    pub(crate) fn words(i: &Self, o: &SackRecovery::Out, w: &W) -> String {
        format!(
            "SACK recovery: {}. {} SACKed, pipe {} (the data still in the network, which the ssthresh rule takes as its flight): ssthresh {} → {}, cwnd {} → {}; segment {} is resent; recovery lasts until everything below {} is acknowledged",
            trigger(i.trigger, i.threshold, i.dupacks),
            w.b(i.sacked),
            w.b(i.pipe),
            w.b(i.ssthresh),
            w.b(o.ssthresh),
            w.b(i.cwnd),
            w.b(o.cwnd),
            group(i.head),
            group(o.recovery_point)
        )
    }
}

rule! {
    SackNextSeg = "sack.next_seg", Send, "NextSeg: which segment SACK recovery sends",
        "RFC 6675 §4 NextSeg (rules 1, 3, 4)", "1: first lost, not resent; 2: new data; 3: first un-SACKed below the highest SACK; 4: one rescue of the highest un-SACKed",
        [rule: Count, segment: Seg, pipe: Bytes, cwnd: Bytes] => []
}

impl SackNextSeg::In {
    pub(crate) fn words(i: &Self, _o: &SackNextSeg::Out, w: &W) -> String {
        let why = match i.rule {
            1 => "rule 1: the first segment deemed lost (IsLost, RACK or the timeout) and not yet resent",
            3 => "rule 3: no segment is deemed lost and no new data may go, so the first un-SACKed segment below the highest SACKed byte",
            4 => "rule 4: the one rescue retransmission of this recovery, the highest un-SACKed segment",
            _ => "a resend",
        };
        format!(
            "NextSeg {}: segment {} is resent (pipe {} < cwnd {})",
            why,
            group(i.segment),
            w.b(i.pipe),
            w.b(i.cwnd)
        )
    }
}

rule! {
    PrrSend = "prr.sndcnt", Recovery, "PRR: how much this ACK lets out",
        "RFC 6937 §3; RFC 9937", "pipe > ssthresh: sndcnt = ⌈prr_delivered·ssthresh/RecoverFS⌉ − prr_out; else sndcnt = min(ssthresh − pipe, limit), the limit by the bound (0 conservative: prr_delivered − prr_out; 1 slow start: max(prr_delivered − prr_out, DeliveredData) + SMSS; RFC 9937: max(prr_delivered − prr_out, DeliveredData), + SMSS on a safe ACK, 3, not on another, 2)",
        [delivered_data = "DeliveredData": Bytes, prr_delivered: Bytes, prr_out: Bytes, recover_fs = "RecoverFS": Bytes, pipe: Bytes, ssthresh: Bytes, proportional: Flag, limit: Bytes, bound: Count]
        => [sndcnt: Bytes, cwnd: Bytes]
}

impl PrrSend::In {
    pub(crate) fn words(i: &Self, o: &PrrSend::Out, w: &W) -> String {
        let how = if i.proportional == 1 {
            format!(
                "pipe {} > ssthresh {}: proportional, ⌈{} · {} / {}⌉ − {}",
                w.b(i.pipe),
                w.b(i.ssthresh),
                group(i.prr_delivered),
                group(i.ssthresh),
                group(i.recover_fs),
                group(i.prr_out)
            )
        } else {
            let bound = match i.bound {
                0 => "the conservative bound, prr_delivered − prr_out",
                1 => "the slow-start bound, max(prr_delivered − prr_out, DeliveredData) + SMSS",
                2 => "RFC 9937's, max(prr_delivered − prr_out, DeliveredData), without its extra segment: this ACK is not safe (snd.una did not advance, or it shows a new loss)",
                _ => "RFC 9937's on a safe ACK (snd.una advanced, no new loss), max(prr_delivered − prr_out, DeliveredData) + SMSS",
            };
            format!(
                "pipe {} ≤ ssthresh {}: min(ssthresh − pipe, limit {}); the limit is {}",
                w.b(i.pipe),
                w.b(i.ssthresh),
                w.b(i.limit),
                bound
            )
        };
        format!(
            "PRR: this ACK delivered {} ({} since recovery began, {} sent); {} → sndcnt {}, so cwnd = pipe + sndcnt = {}",
            w.b(i.delivered_data),
            w.b(i.prr_delivered),
            w.b(i.prr_out),
            how,
            w.b(o.sndcnt),
            w.b(o.cwnd)
        )
    }
}

rule! {
    SackRecoveryExit = "sack.recovery_exit", Recovery, "SACK recovery ends",
        "RFC 6675 §5 (RecoveryPoint); RFC 6937 §3", "a cumulative ACK at or past RecoveryPoint ends recovery; cwnd = ssthresh",
        [ack: Seq, recovery_point = "RecoveryPoint": Seq, cwnd: Bytes, ssthresh: Bytes] => [cwnd: Bytes]
}

impl SackRecoveryExit::In {
    pub(crate) fn words(i: &Self, o: &SackRecoveryExit::Out, w: &W) -> String {
        format!(
            "ACK {} reaches RecoveryPoint {}: SACK recovery ends, cwnd {} → ssthresh {}",
            group(i.ack),
            group(i.recovery_point),
            w.b(i.cwnd),
            w.b(o.cwnd)
        )
    }
}

rule! {
    RackLost = "rack.lost", Loss, "RACK: a segment is lost by time",
        "RFC 8985 §6.2 step 5", "lost when sent before RACK's segment and now ≥ its send time + RACK.rtt + reo_wnd",
        [segment: Seg, sent: Ns, rack_rtt = "RACK.rtt": Ns, reo_wnd: Ns, now: Ns] => []
}

impl RackLost::In {
    pub(crate) fn words(i: &Self, _o: &RackLost::Out, w: &W) -> String {
        format!(
            "RACK: segment {} was last sent at {}; a segment sent after it has been delivered, and {} + RACK.rtt {} + reo_wnd {} = {} ≤ now ({}): it is lost",
            group(i.segment),
            w.t(i.sent),
            w.t(i.sent),
            w.t(i.rack_rtt),
            w.t(i.reo_wnd),
            w.t(i.sent + i.rack_rtt + i.reo_wnd),
            w.t(i.now)
        )
    }
}

rule! {
    TlpProbe = "tlp.probe", Timeout, "Tail loss probe",
        "RFC 8985 §7.2–7.3", "PTO = 2·SRTT (+ WCDelAckT with one segment out); send new data if allowed, else resend the last segment",
        [pto = "PTO": Ns, srtt = "SRTT": Ns, outstanding: Count, new_data: Flag] => [segment: Seg]
}

impl TlpProbe::In {
    pub(crate) fn words(i: &Self, o: &TlpProbe::Out, w: &W) -> String {
        let what = if i.new_data == 1 {
            format!("new segment {}", group(o.segment))
        } else {
            format!("segment {} again (nothing new may go)", group(o.segment))
        };
        format!(
            "Tail loss probe: no ACK for PTO {} (SRTT {}, {} segment(s) outstanding), so {} is sent to draw an ACK whose SACK blocks show what is missing",
            w.t(i.pto),
            w.t(i.srtt),
            i.outstanding,
            what
        )
    }
}

rule! {
    TlpRepaired = "tlp.repaired", Loss, "The probe repaired a loss",
        "RFC 8985 §7.4.2", "the probe's retransmission was acknowledged without a D-SACK: ssthresh by the flow's rule, cwnd = ssthresh",
        [segment: Seg, probe_end = "TLP.end_seq": Seq, cwnd: Bytes, ssthresh: Bytes] => [ssthresh: Bytes, cwnd: Bytes]
}

impl TlpRepaired::In {
    pub(crate) fn words(i: &Self, o: &TlpRepaired::Out, w: &W) -> String {
        format!(
            "The probe (segment {}) was acknowledged past {} without a D-SACK: it repaired a loss, so the window is reduced once: ssthresh {} → {}, cwnd {} → {}",
            group(i.segment),
            group(i.probe_end),
            w.b(i.ssthresh),
            w.b(o.ssthresh),
            w.b(i.cwnd),
            w.b(o.cwnd)
        )
    }
}
