//! BR-TCP's settings (`cc.br_rtt`, `cc.br_packet_size`, `cc.br_recovery`; the reserved rate is
//! `flows[].reserved_bandwidth`). Part of the settings layer: it names no rule, and the
//! scenario reads it.

use crate::schema::{p, Choice, Kind, ParamDef};

/// The RTT of BR-TCP's ssthresh formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrRtt {
    /// The smallest RTT sample so far (source 002's simulations).
    MinRtt,
    /// The smoothed RTT.
    Srtt,
}
crate::scenario::json::names!(BrRtt { MinRtt = "min_rtt", Srtt = "srtt" });

/// The packet size of BR-TCP's ssthresh formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrPacketSize {
    /// SMSS plus headers: the whole packet on the wire.
    Wire,
    /// SMSS alone.
    Mss,
}
crate::scenario::json::names!(BrPacketSize { Wire = "wire", Mss = "mss" });

/// What BR-TCP does between the third duplicate ACK and the end of the loss episode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrRecovery {
    /// cwnd = ssthresh, resend the lost segment, continue in congestion avoidance.
    SetCwnd,
    /// RFC 6582 fast recovery (inflation, partial ACKs) around the same ssthresh.
    Newreno,
}
crate::scenario::json::names!(BrRecovery { SetCwnd = "set_cwnd", Newreno = "newreno" });

/// The schema's rows for BR-TCP's settings (`schema::params` places them).
pub(crate) fn params() -> Vec<ParamDef> {
    vec![
        p!("flows[].cc.br_rtt", "BR-TCP RTT", "cc", "", Kind::Enum { options: &[
            Choice { value: "min_rtt", label: "Minimum RTT", help: help!("The smallest RTT sample so far (what source 002's simulations used); before any sample, the path's round trip as built.") },
            Choice { value: "srtt", label: "Smoothed RTT", help: help!("The RTO estimator's SRTT at the loss.") },
        ], default: "min_rtt" }, false, None,
            "The RTT in BR-TCP's ssthresh = reserved_bandwidth / (8 · size) · RTT."),
        p!("flows[].cc.br_packet_size", "BR-TCP packet size", "cc", "", Kind::Enum { options: &[
            Choice { value: "wire", label: "Whole packet", help: help!("SMSS plus headers (source 002's 1500-byte packets are IP packets).") },
            Choice { value: "mss", label: "Payload (SMSS)", help: help!("The payload only.") },
        ], default: "wire" }, false, None,
            "The size in BR-TCP's formula; the result is whole packets, rounded down, at least 2, times SMSS."),
        p!("flows[].cc.br_recovery", "BR-TCP after 3 duplicate ACKs", "cc", "", Kind::Enum { options: &[
            Choice { value: "set_cwnd", label: "cwnd = ssthresh", help: help!("Source 002 read literally: cwnd = ssthresh, resend the lost segment, continue in congestion avoidance; no window inflation; later duplicate ACKs of the window change nothing.") },
            Choice { value: "newreno", label: "NewReno recovery", help: help!("RFC 6582 fast recovery (inflation, one hole resent per partial ACK) around BR-TCP's ssthresh and cwnd.") },
        ], default: "newreno" }, false, None,
            "What BR-TCP does between the third duplicate ACK and the end of the loss episode (source 002 does not say). Default newreno: the paper's figures show a steady window, which the literal reading cannot give on the paper's own setup (after each loss it stalls for an RTT, then bursts a whole reserved BDP at line rate into the reserved class and times out), and its ns-2 BR-TCP was built on NewReno."),
    ]
}
