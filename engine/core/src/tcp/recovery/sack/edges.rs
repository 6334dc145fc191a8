//! The state-machine edges of SACK-based recovery, beside its rules: they replace the
//! variant's duplicate-ACK edges for a flow that negotiated SACK (the timeout's edges stay).

use super::settings::{RecoveryBudget, SackCfg};
use crate::explain::Rule;
use crate::tcp::cc::edges::{edge as t, Transition};
use crate::tcp::cc::Phase::{CongestionAvoidance as Ca, FastRecovery as Fr, SlowStart as Ss, TimeoutRecovery as Tr};

/// The phases SACK recovery adds (fast recovery, then timeout recovery).
pub(crate) fn states() -> Vec<crate::tcp::cc::Phase> {
    vec![Fr, Tr]
}

/// SACK recovery's edges for these settings.
pub(crate) fn edges(cfg: &SackCfg) -> Vec<Transition> {
    let mut tr = Vec::new();
    let entry = if cfg.rack {
        "RACK deems a segment lost: SACK recovery begins, the first hole is resent"
    } else if cfg.early_retransmit {
        "DupThresh duplicate ACKs (fewer with early retransmit), or IsLost: SACK recovery begins"
    } else {
        "DupThresh duplicate ACKs with new SACK blocks, or IsLost: SACK recovery begins"
    };
    tr.push(t(&[Ss, Ca], Some(Fr), entry, &[Rule::SackRecovery]));
    if cfg.rack {
        tr.push(t(
            &[Ss, Ca, Fr],
            None,
            "RACK: a segment is lost by time",
            &[Rule::RackLost],
        ));
    }
    tr.push(t(
        &[Fr],
        None,
        "NextSeg resends a hole (or the rescue)",
        &[Rule::SackNextSeg],
    ));
    if cfg.budget != RecoveryBudget::Rfc6675 {
        tr.push(t(&[Fr], None, "PRR sets this ACK's sending budget", &[Rule::PrrSend]));
    }
    tr.push(t(
        &[Fr],
        Some(Ca),
        "the cumulative ACK reaches RecoveryPoint: cwnd = ssthresh, leave",
        &[Rule::SackRecoveryExit],
    ));
    if cfg.tlp {
        tr.push(t(
            &[Ss, Ca],
            None,
            "no ACK for PTO: a tail loss probe",
            &[Rule::TlpProbe],
        ));
        tr.push(t(
            &[Ss, Ca],
            Some(Ca),
            "the probe repaired a loss: the window is reduced once",
            &[Rule::TlpRepaired],
        ));
    }
    tr
}
