//! Explicit Congestion Notification for a flow (`flows[].ecn`): whether the flow negotiates
//! it, and which response the sender makes to an ECN-Echo (RFC 3168's, or DCTCP's). Part
//! of the settings layer: it names no rule, and the scenario reads it.

use crate::schema::{p, Choice, Kind, ParamDef};

/// What a flow does with ECN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EcnMode {
    /// No ECN: packets are Not-ECT, an AQM drops them (the engine before ECN).
    Off,
    /// RFC 3168: data is ECT(0); the receiver echoes CE with ECE until CWR; the sender
    /// makes the loss response once per window of data, without resending.
    Rfc3168,
    /// RFC 8257 (DCTCP): ECN on; the receiver echoes the CE state exactly; the sender cuts
    /// cwnd by α/2 once per window, α the smoothed fraction of marked bytes.
    Dctcp,
}
crate::scenario::json::names!(EcnMode { Off = "off", Rfc3168 = "rfc3168", Dctcp = "dctcp" });

impl EcnMode {
    /// Whether the flow is ECN-capable.
    #[inline]
    pub fn on(self) -> bool {
        self != EcnMode::Off
    }
}

/// What ECN cannot be combined with, as (setting, problem).
pub fn clashes(flow: &crate::scenario::FlowCfg) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if flow.ecn == EcnMode::Dctcp && flow.cc.controller == crate::scenario::Controller::Bbr {
        out.push((
            "ecn",
            "= \"dctcp\" cannot be combined with cc.controller = \"bbr\": DCTCP's response sets cwnd from α, BBR sets cwnd from its model (use ecn = \"rfc3168\", which BBR ignores as Linux's tcp_bbr.c does, or the window controller)".to_string(),
        ));
    }
    out
}

/// The schema's row for the setting (`schema::params` places it).
pub(crate) fn params() -> Vec<ParamDef> {
    vec![p!("flows[].ecn", "ECN", "tcp", "", Kind::Enum { options: &[
        Choice { value: "off", label: "Off", help: help!("Not ECN-capable: every packet is Not-ECT, so an AQM that would mark drops it instead.") },
        Choice { value: "rfc3168", label: "ECN (RFC 3168)", help: help!("Negotiated in the handshake (SYN with ECE+CWR, SYN-ACK with ECE; without a handshake both ends are configured). New data is ECT(0); an AQM marks it CE instead of dropping; the receiver sets ECE on every ACK until a segment with CWR arrives; the sender makes its loss response (the flow's ssthresh rule, cwnd = ssthresh) at most once per window of data, without a retransmission, and sets CWR on its next new segment.") },
        Choice { value: "dctcp", label: "DCTCP (RFC 8257)", help: help!("ECN with DCTCP's rules: the receiver echoes each segment's CE state exactly (an immediate ACK when it changes); the sender keeps α, the smoothed fraction of bytes marked per window of data (gain dctcp.g), and once per window with marks sets cwnd ← cwnd·(1 − α/2). A loss still gets the flow's loss response.") },
    ], default: "off" }, false, None,
        "Explicit Congestion Notification: whether the flow is ECN-capable and how its sender answers a congestion mark.")]
}
