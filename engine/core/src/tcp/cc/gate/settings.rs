//! The growth gate's settings (`cc.growth_gate`, `cc.full_window_slack`). Part of the
//! settings layer: it names no rule, and the scenario reads it.

use crate::schema::{p, Choice, Kind, ParamDef};

/// When an ACK may grow cwnd.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrowthGate {
    /// Every new ACK (outside recovery) may grow cwnd.
    Always,
    /// RFC 2861 §2: only if the window was full when the ACK arrived.
    WindowFull,
    /// Linux up to 3.15 (`tcp_is_cwnd_limited(sk, in_flight)`): the packets in flight when
    /// the ACK arrived reach cwnd, or leave at most 3 of it unused (or less than a third,
    /// with GSO).
    Linux315,
    /// Linux 3.16 (commit ca8a22634381): the largest flight of the current window and
    /// whether the sender was cwnd-limited when it sent it; slow start while cwnd < 2 × that
    /// flight, congestion avoidance only when cwnd-limited.
    Linux316,
}
crate::scenario::json::names!(GrowthGate { Always = "always", WindowFull = "window_full", Linux315 = "linux_3_15", Linux316 = "linux_3_16" });

/// How full "a full window" must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FullWindowSlack {
    /// Full when less than one SMSS of the window is unused (the paper's §5 Nagle fix).
    OneMss,
    /// Full only when the flight reaches the window exactly (the literal test).
    None,
}
crate::scenario::json::names!(FullWindowSlack { OneMss = "one_mss", None = "none" });

/// The schema's rows for the growth gate's settings (`schema::params` places them).
pub(crate) fn params() -> [ParamDef; 2] {
    [
        p!("flows[].cc.growth_gate", "Growth gate", "cc", "", Kind::Enum { options: &[
            Choice { value: "always", label: "Always", help: help!("Every new ACK may grow cwnd (slow start or congestion avoidance).") },
            Choice { value: "window_full", label: "Window full", help: help!("RFC 2861 §2: an ACK grows cwnd only if the window (min(cwnd, rwnd)) was full when it arrived.") },
            Choice { value: "linux_3_15", label: "Linux ≤ 3.15", help: help!("tcp_is_cwnd_limited(sk, in_flight): grow if the packets in flight when the ACK arrived reach cwnd, or at most 3 of cwnd are unused, or (GSO) the unused part is under a third of cwnd and 64 KB.") },
            Choice { value: "linux_3_16", label: "Linux 3.16 (ca8a22)", help: help!("Measurement-based: after each send pass, track the largest flight of the current window and whether the sender was cwnd-limited then; grow in slow start while cwnd < 2 × that flight, in congestion avoidance only if cwnd-limited.") },
        ], default: "always" }, false, None,
            "When ACKs may grow cwnd. New CWV (idle_policy rfc7661) has its own rule and needs always."),
        p!("flows[].cc.full_window_slack", "Full-window slack", "cc", "", Kind::Enum { options: &[
            Choice { value: "one_mss", label: "Less than 1 SMSS unused", help: help!("The window counts as full when less than one SMSS of it is unused (the paper's §5 fix for Nagle and whole segments).") },
            Choice { value: "none", label: "None (literal)", help: help!("Full only when the flight reaches the window exactly.") },
        ], default: "one_mss" }, false, None,
            "Tolerance of the window-full test used by the growth gate and by RFC 2861's decay."),
    ]
}
