//! What selects BBR (`cc.controller`) and the settings it cannot run with. Part of the
//! settings layer: it names no rule, and the scenario reads it.

use crate::schema::{p, Choice, Kind, ParamDef};

/// What sets the window and the sending rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Controller {
    /// The window rules (slow start, congestion avoidance, ssthresh, recovery): the sender
    /// sends as the window allows, unpaced.
    Window,
    /// BBR v1: a model of the path sets a pacing rate and cwnd; the variant's loss recovery
    /// still decides what is resent.
    Bbr,
}
crate::scenario::json::names!(Controller { Window = "window", Bbr = "bbr" });

/// Why `flow` cannot run under BBR, if it cannot: BBR sets cwnd itself on every ACK, so
/// the window rules that would also set it are refused rather than silently overridden.
pub fn clashes(flow: &crate::scenario::FlowCfg) -> Option<String> {
    use crate::scenario::{IdlePolicy, Variant};
    if flow.cc.controller != Controller::Bbr {
        return None;
    }
    let mut clash = Vec::new();
    if flow.variant != Variant::Newreno {
        clash.push("variant = \"newreno\" (BBR v1 keeps NewReno's loss recovery, as Linux without SACK)");
    }
    if flow.cc.idle_policy != IdlePolicy::None {
        clash.push("cc.idle_policy = \"none\" (BBR handles idle and application-limited periods in its own model)");
    }
    if flow.cc.binomial {
        clash.push("cc.binomial = false");
    }
    (!clash.is_empty()).then(|| format!("= \"bbr\" needs {}", clash.join(" and ")))
}

/// The schema's rows for these settings (`schema::params` places them).
pub(crate) fn params() -> Vec<ParamDef> {
    vec![
        p!("flows[].cc.controller", "Controller", "cc", "", Kind::Enum { options: &[
            Choice { value: "window", label: "Window rules", help: help!("Slow start, congestion avoidance and the ssthresh rule set cwnd; the sender sends as soon as the window allows (no pacing).") },
            Choice { value: "bbr", label: "BBR v1 model", help: help!("draft-cardwell-iccrg-bbr-congestion-control-00 / Linux 4.9 tcp_bbr.c: the bottleneck bandwidth (max delivery rate over 10 rounds) and the minimum RTT (over 10 s) set a pacing rate and cwnd = gain × BDP; the sender paces its segments. The variant's loss recovery still decides what is resent; the window rules above are not used.") },
        ], default: "window" }, false, None,
            "What sets the window and the sending rate."),
    ]
}
