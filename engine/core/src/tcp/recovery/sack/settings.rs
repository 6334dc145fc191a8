//! SACK-based loss recovery's settings: the option itself (RFC 2018, D-SACK RFC 2883), how
//! much recovery sends (RFC 6675's cwnd − pipe, or PRR, RFC 6937), and the detectors beside
//! DupThresh (RACK-TLP, RFC 8985; early retransmit, RFC 5827). Part of the settings layer:
//! it names no rule, and the scenario reads it.

use crate::schema::{p, Applies, Choice, Kind, ParamDef};

/// How much a sender in SACK-based recovery may send on each ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecoveryBudget {
    /// RFC 6675 §5: cwnd = ssthresh at entry; send while cwnd − pipe ≥ 1 SMSS.
    Rfc6675,
    /// RFC 6937 PRR with the slow-start reduction bound (Linux).
    PrrSsrb,
    /// RFC 6937 PRR with the conservative reduction bound.
    PrrCrb,
    /// RFC 9937 PRR: the conservative bound with what this ACK delivered, and a segment more
    /// on a safe ACK (Linux since 2022).
    PrrRfc9937,
}
crate::scenario::json::names!(RecoveryBudget { Rfc6675 = "rfc6675", PrrSsrb = "prr_ssrb", PrrCrb = "prr_crb", PrrRfc9937 = "prr_rfc9937" });

/// A flow's SACK settings (`flows[].sack`).
#[derive(Clone, Debug, PartialEq)]
pub struct SackCfg {
    /// Both ends offer SACK-permitted: the receiver reports blocks, the sender keeps a
    /// scoreboard and recovers by RFC 6675.
    pub enabled: bool,
    /// Most blocks per ACK (3 with timestamps, 4 without).
    pub blocks: u64,
    /// The receiver reports duplicates (RFC 2883).
    pub dsack: bool,
    /// How much recovery sends.
    pub budget: RecoveryBudget,
    /// RACK: segments are lost by time (RFC 8985 §6).
    pub rack: bool,
    /// Tail loss probes (RFC 8985 §7).
    pub tlp: bool,
    /// Early retransmit (RFC 5827).
    pub early_retransmit: bool,
}
crate::scenario::json::json_struct!(SackCfg: enabled, blocks, dsack, budget, rack, tlp, early_retransmit);

impl Default for SackCfg {
    fn default() -> SackCfg {
        SackCfg {
            enabled: false,
            blocks: 3,
            dsack: true,
            budget: RecoveryBudget::Rfc6675,
            rack: false,
            tlp: false,
            early_retransmit: false,
        }
    }
}

/// What a flow's SACK settings cannot be combined with, as (setting, problem), so a scenario
/// never asks for something the engine would silently ignore.
pub fn clashes(flow: &crate::scenario::FlowCfg) -> Vec<(&'static str, String)> {
    use crate::scenario::{Controller, Variant};
    let s = &flow.sack;
    let mut out = Vec::new();
    if !s.enabled {
        let set: Vec<&str> = [
            ("sack.rack", s.rack),
            ("sack.tlp", s.tlp),
            ("sack.early_retransmit", s.early_retransmit),
            ("sack.budget", s.budget != RecoveryBudget::Rfc6675),
        ]
        .iter()
        .filter(|(_, on)| *on)
        .map(|(n, _)| *n)
        .collect();
        if let Some(first) = set.first() {
            out.push((
                *first,
                format!(
                    "needs sack.enabled = true: {} act on SACK information, which a flow without SACK never receives (set sack.enabled = true, or leave them at their defaults)",
                    set.join(", ")
                ),
            ));
        }
        return out;
    }
    if flow.cc.controller == Controller::Bbr && s.budget != RecoveryBudget::Rfc6675 {
        out.push((
            "sack.budget",
            format!(
                "= \"{}\" cannot be combined with cc.controller = \"bbr\": BBR sets its own window in recovery (packet conservation for a round, then the window before it), as Linux runs BBR instead of PRR; leave sack.budget at \"rfc6675\" (SACK's loss detection and NextSeg, BBR's window)",
                s.budget.name()
            ),
        ));
    }
    if matches!(flow.variant, Variant::OldTahoe | Variant::Tahoe) {
        out.push((
            "sack.enabled",
            format!(
                "= true cannot be combined with variant = \"{}\": SACK recovery (RFC 6675) replaces fast recovery, which {} does not have; use variant reno, newreno or br_tcp with SACK",
                flow.variant.name(),
                flow.variant.name()
            ),
        ));
    }
    out
}

/// The SACK settings that act only with SACK on (`schema::applies`).
pub(crate) const APPLIES: [Applies; 6] = {
    const ON: &[&str] = &["true"];
    const WHEN: &str = "flows[].sack.enabled";
    [
        Applies {
            path: "flows[].sack.blocks",
            when: WHEN,
            values: ON,
            also: &[],
        },
        Applies {
            path: "flows[].sack.dsack",
            when: WHEN,
            values: ON,
            also: &[],
        },
        Applies {
            path: "flows[].sack.budget",
            when: WHEN,
            values: ON,
            also: &[],
        },
        Applies {
            path: "flows[].sack.rack",
            when: WHEN,
            values: ON,
            also: &[],
        },
        Applies {
            path: "flows[].sack.tlp",
            when: WHEN,
            values: ON,
            also: &[],
        },
        Applies {
            path: "flows[].sack.early_retransmit",
            when: WHEN,
            values: ON,
            also: &[],
        },
    ]
};

/// The schema's rows for SACK-based recovery (`schema::params` places them).
pub(crate) fn params() -> Vec<ParamDef> {
    vec![
        p!("flows[].sack.enabled", "SACK", "tcp", "", Kind::Bool { default: false }, false, None,
            "RFC 2018: both ends offer SACK-permitted in the handshake. The receiver reports the blocks it holds above a gap in every ACK; the sender keeps a scoreboard and recovers by RFC 6675 (DupThresh or IsLost, the pipe estimate, NextSeg), whatever the increase and ssthresh rules."),
        p!("flows[].sack.blocks", "SACK blocks per ACK", "tcp", "blocks", Kind::Int { min: 1, max: 4, default: 3 }, false, None,
            "Most blocks one ACK reports (RFC 2018 §3): 3 when the timestamp option takes its 12 bytes of option space (Linux, FreeBSD), 4 without."),
        p!("flows[].sack.dsack", "D-SACK", "tcp", "", Kind::Bool { default: true }, false, None,
            "RFC 2883: a duplicate segment is reported in the first block, so the sender learns that a retransmission was not needed."),
        p!("flows[].sack.budget", "Sending in recovery", "tcp", "", Kind::Enum { options: &[
            Choice { value: "rfc6675", label: "RFC 6675 (cwnd − pipe)", help: help!("cwnd = ssthresh when recovery starts; each ACK sends while cwnd − pipe ≥ 1 SMSS (RFC 6675 §5).") },
            Choice { value: "prr_ssrb", label: "PRR, slow-start bound", help: help!("RFC 6937: sends in proportion to what is delivered until pipe falls to ssthresh, then up to ssthresh with the slow-start reduction bound on every ACK (Linux 3.2 to 4.1).") },
            Choice { value: "prr_crb", label: "PRR, conservative bound", help: help!("RFC 6937 with the conservative reduction bound: below ssthresh, never more than is delivered (packet conservation).") },
            Choice { value: "prr_rfc9937", label: "PRR, RFC 9937", help: help!("RFC 9937, which replaces RFC 6937 (Linux since 2022): below ssthresh, what has been delivered and not yet matched by a send, at least what this ACK delivered, and one segment more on a safe ACK (one that advances snd.una and shows no new loss). An ACK that delivers nothing leaves the window as it is.") },
        ], default: "rfc6675" }, false, None,
            "How much a sender in SACK-based recovery may send on each ACK."),
        p!("flows[].sack.rack", "RACK", "tcp", "", Kind::Bool { default: false }, false, None,
            "RFC 8985 §6: a segment is lost when a segment sent after it was (S)ACKed more than RACK.rtt + the reordering window ago (min RTT / 4, widened by D-SACKs), instead of DupThresh's count; a timer waits out the rest."),
        p!("flows[].sack.tlp", "Tail loss probe", "tcp", "", Kind::Bool { default: false }, false, None,
            "RFC 8985 §7: with data outstanding and no recovery, a probe (new data, else the last segment) after PTO = 2·SRTT (+ the delayed-ACK allowance when one segment is out), so a loss at the tail is repaired by SACK recovery rather than the retransmission timer."),
        p!("flows[].sack.early_retransmit", "Early retransmit", "tcp", "", Kind::Bool { default: false }, false, None,
            "RFC 5827: with fewer than 4 segments outstanding and nothing new to send, fast retransmit after outstanding − 1 duplicate ACKs instead of 3."),
    ]
}
