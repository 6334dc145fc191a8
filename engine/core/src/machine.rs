//! The state machine of each algorithm: its congestion-control states (the plotted phases)
//! and the transitions between them, each naming the rules (`crate::explain`) whose
//! decisions take it. The page draws these; it never keeps a copy of its own.
//!
//! Each mechanism declares its own edges beside its rules (`fn edges` in its file under
//! `tcp/cc/`, with the types in `tcp/cc/edges.rs`); this module only assembles them for a
//! flow's settings and writes the machine as JSON with each phase's description.
//!
//! A decision's `from` and `to` phase codes, together with its rule, say which transition
//! it took: the transition whose `rules` hold the rule and whose `from` holds the phase
//! before (self-loops have `to == from`). New CWV's validated and non-validated phases are
//! an overlay (`overlay`) beside the phases, read from the window-validation series.

use crate::explain::Rule;
use crate::scenario::{CcCfg, Controller, Variant};
use crate::tcp::cc::edges::Overlay;
pub use crate::tcp::cc::edges::{OverlayTransition, Transition};
use crate::tcp::cc::{bbr, hystart, increase, recovery, validation, Phase};
use serde_json::{json, Map, Value};

/// An algorithm's states and transitions.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    /// The phases it can be in.
    pub states: Vec<Phase>,
    /// Its transitions.
    pub transitions: Vec<Transition>,
    /// New CWV's phases and transitions, when the idle policy is RFC 7661.
    pub overlay: Option<&'static Overlay>,
}

/// What each phase means, one line.
pub fn phase_description(p: Phase) -> &'static str {
    match p {
        Phase::Handshake => "before data: the SYN exchange",
        Phase::SlowStart => "cwnd < ssthresh: cwnd grows by about one SMSS per ACK, doubling each RTT",
        Phase::CongestionAvoidance => "cwnd ≥ ssthresh: cwnd grows by about one SMSS per RTT",
        Phase::FastRecovery => {
            "after a fast retransmit, until the loss is repaired: Reno and NewReno inflate the window by duplicate ACKs; SACK recovery sends by the pipe estimate (RFC 6675)"
        }
        Phase::TimeoutRecovery => {
            "after a timeout: cwnd restarts from one segment until everything outstanding then is acknowledged"
        }
        Phase::BbrStartup => "BBR Startup: pacing and cwnd at 2.885 × the model, doubling the rate each round until the bandwidth stops growing",
        Phase::BbrDrain => "BBR Drain: pacing at 1/2.885 of the bandwidth until the queue Startup built is gone",
        Phase::BbrProbeBw => "BBR ProbeBW: pacing at 1.25, 0.75, then 1 × the bandwidth, one phase per RTprop; cwnd = 2 × BDP",
        Phase::BbrProbeRtt => "BBR ProbeRTT: 4 segments in flight for 200 ms and a round, to measure the path's own RTT",
    }
}

/// The machine of a flow from its settings: with SACK, SACK recovery's states and edges take
/// the place of the variant's duplicate-ACK recovery (the timeout's edges stay).
pub fn machine_of_flow(f: &crate::scenario::FlowCfg) -> Machine {
    let mut m = machine(f.variant, &f.cc);
    if f.sack.enabled && f.cc.controller != Controller::Bbr {
        // Keep the increase and HyStart edges and the timeout's own; drop the variant's
        // duplicate-ACK edges (fast retransmit, inflation, partial and full ACKs).
        let dupack_rules = [
            Rule::FastRetransmit,
            Rule::FastRetransmitTahoe,
            Rule::FastRetransmitBr,
            Rule::FastRetransmitSuppressed,
            Rule::Inflate,
            Rule::RenoExit,
            Rule::PartialDeflate,
            Rule::PartialReset,
            Rule::FullAckMinFlight,
            Rule::FullAckSsthresh,
        ];
        m.transitions
            .retain(|t| !t.rules.iter().any(|r| dupack_rules.contains(r)));
        let at = m
            .transitions
            .iter()
            .position(|t| t.rules.contains(&Rule::Timeout))
            .unwrap_or(m.transitions.len());
        let sack = crate::tcp::recovery::sack::edges::edges(&f.sack);
        m.transitions.splice(at..at, sack);
        m.states
            .retain(|p| !crate::tcp::recovery::sack::edges::states().contains(p));
        m.states.extend(crate::tcp::recovery::sack::edges::states());
        for t in m.transitions.iter_mut() {
            if t.rules.contains(&Rule::Timeout) && !t.from.contains(&Phase::FastRecovery) {
                t.from.insert(2, Phase::FastRecovery);
            }
        }
    }
    if f.sack.enabled && f.cc.controller == Controller::Bbr {
        bbr_with_sack(&mut m, &f.sack);
    }
    m
}

/// BBR over SACK recovery: SACK's edges replace NewReno's duplicate-ACK ones, leaving from
/// (and returning to) BBR's four states, where a window controller's leave from slow start
/// and congestion avoidance; recovery ends with BBR's window restored.
fn bbr_with_sack(m: &mut Machine, cfg: &crate::scenario::SackCfg) {
    use Phase::{BbrDrain, BbrProbeBw, BbrProbeRtt, BbrStartup, CongestionAvoidance, SlowStart};
    let open = [BbrStartup, BbrDrain, BbrProbeBw, BbrProbeRtt];
    let newreno = [
        Rule::FastRetransmitBbr,
        Rule::FastRetransmitSuppressed,
        Rule::BbrPartialAck,
    ];
    m.transitions.retain(|t| !t.rules.iter().any(|r| newreno.contains(r)));
    let mut sack = Vec::new();
    for mut t in crate::tcp::recovery::sack::edges::edges(cfg) {
        let from_open = t.from.iter().any(|p| matches!(p, SlowStart | CongestionAvoidance));
        t.from.retain(|p| !matches!(p, SlowStart | CongestionAvoidance));
        if from_open {
            t.from.splice(0..0, open);
        }
        if t.rules.contains(&Rule::SackRecoveryExit) {
            for s in open {
                let mut u = t.clone();
                u.to = Some(s);
                u.label = "the cumulative ACK reaches RecoveryPoint: recovery over, cwnd restored";
                u.rules.push(Rule::BbrRestore);
                sack.push(u);
            }
            continue;
        }
        if t.to == Some(CongestionAvoidance) {
            // A repaired probe only saves BBR's cwnd: no phase change.
            t.to = None;
            t.label = "the probe repaired a loss: cwnd saved";
        }
        sack.push(t);
    }
    let at = m
        .transitions
        .iter()
        .position(|t| t.rules.contains(&Rule::BbrRestore))
        .unwrap_or(m.transitions.len());
    m.transitions.splice(at..at, sack);
    for t in m.transitions.iter_mut() {
        if t.rules.contains(&Rule::Timeout) {
            t.label = "retransmission timeout: cwnd = 1 segment, resend what the receiver lacks";
        }
    }
}

/// The machine of a flow with `variant` and congestion-control settings `cc`: the states and
/// edges each of its mechanisms gives for these settings, in a fixed order (increase,
/// HyStart++, loss recovery, idle policy).
pub fn machine(variant: Variant, cc: &CcCfg) -> Machine {
    if cc.controller == Controller::Bbr {
        return Machine {
            states: bbr::STATES.to_vec(),
            transitions: bbr::edges(),
            overlay: None,
        };
    }
    let mut states = increase::STATES.to_vec();
    states.extend(recovery::states(variant, cc));
    let mut transitions = increase::edges(cc);
    transitions.extend(hystart::edges(cc));
    transitions.extend(recovery::edges(variant, cc));
    transitions.extend(validation::edges(cc));
    Machine {
        states,
        transitions,
        overlay: validation::overlay(cc),
    }
}

impl Machine {
    /// The transition a decision took, by index: the first whose rules hold `rule` and
    /// whose `from` holds the phase before, entering `to` (or staying, for a self-loop).
    /// Failing that (an exit that lands in slow start because cwnd ended below ssthresh),
    /// the first with the rule and the phase before.
    pub fn transition_of(&self, rule: Rule, from: u8, to: u8) -> Option<usize> {
        let takes = |tr: &&Transition| tr.rules.contains(&rule) && tr.from.iter().any(|&p| p as u8 == from);
        let exact = self
            .transitions
            .iter()
            .position(|tr| takes(&tr) && tr.to.map_or(from == to, |p| p as u8 == to));
        exact.or_else(|| self.transitions.iter().position(|tr| takes(&tr)))
    }

    /// The transition of new CWV's overlay (`to_json`'s `overlay.transitions`, by index) a
    /// decision took; None for rules outside the overlay, or without one.
    pub fn overlay_transition_of(&self, rule: Rule) -> Option<usize> {
        self.overlay?.transitions.iter().position(|tr| tr.rules.contains(&rule))
    }

    /// As JSON (the page matches a decision to a transition as [`Machine::transition_of`]
    /// does): `{states: [{code, id, description}], transitions: [{from: [codes], to:
    /// code | null, label, rules: [ids]}], overlay: null | {states, transitions}}`.
    pub fn to_json(&self) -> Value {
        let overlay = self.overlay.map(|o| {
            json!({
                "states": o.states.iter().map(|(id, description)| json!({
                    "id": id, "description": description,
                })).collect::<Vec<_>>(),
                "transitions": o.transitions.iter().map(|tr| json!({
                    "from": tr.from, "to": tr.to, "label": tr.label,
                    "rules": tr.rules.iter().map(|r| r.info().id).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            })
        });
        json!({
            "states": self.states.iter().map(|&p| json!({
                "code": p as u8, "id": p.name(), "description": phase_description(p),
            })).collect::<Vec<_>>(),
            "transitions": self.transitions.iter().map(|tr| json!({
                "from": tr.from.iter().map(|&p| p as u8).collect::<Vec<_>>(),
                "to": tr.to.map(|p| p as u8),
                "label": tr.label,
                "rules": tr.rules.iter().map(|r| r.info().id).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "overlay": overlay,
        })
    }
}

/// The state machine of catalogue entry `name`, as JSON.
fn machine_of(name: &str) -> Value {
    let text = format!(r#"{{"flows": [{{"algorithm": "{name}"}}]}}"#);
    match crate::Scenario::from_json_str(&text) {
        Ok(s) => machine_of_flow(&s.flows[0]).to_json(),
        Err(_) => Value::Null,
    }
}

/// The catalogue as JSON: `[{name, label, group, description, settings: {path: value},
/// rules: {path: value}, machine}]`, `rules` the settings that make the entry an algorithm
/// (`catalogue::rules`: none for a profile), `machine` the entry's states and transitions.
pub fn catalogue_json() -> Value {
    Value::Array(
        crate::catalogue::CATALOGUE
            .iter()
            .map(|a| {
                let settings: Map<String, Value> =
                    a.settings.iter().map(|(p, v)| (p.to_string(), v.to_json())).collect();
                let rules: Map<String, Value> = crate::catalogue::rules(a)
                    .into_iter()
                    .map(|(p, v)| (p.to_string(), v))
                    .collect();
                json!({"name": a.name, "label": a.label, "group": a.group,
                       "description": a.description, "settings": settings, "rules": rules,
                       "machine": machine_of(a.name)})
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    fn of(name: &str) -> Machine {
        let s = Scenario::from_json_str(&format!(r#"{{"flows": [{{"algorithm": "{name}"}}]}}"#)).unwrap();
        machine(s.flows[0].variant, &s.flows[0].cc)
    }

    #[test]
    fn each_variant_has_its_own_transitions() {
        let has = |m: &Machine, r: Rule| m.transitions.iter().any(|t| t.rules.contains(&r));
        let old = of("old_tahoe");
        assert!(!has(&old, Rule::FastRetransmit) && !has(&old, Rule::FastRetransmitTahoe));
        assert!(!old.states.contains(&Phase::FastRecovery));
        assert!(has(&of("tahoe"), Rule::FastRetransmitTahoe));
        let reno = of("reno");
        assert!(has(&reno, Rule::RenoExit) && !has(&reno, Rule::PartialDeflate));
        let nr = of("newreno");
        assert!(has(&nr, Rule::PartialDeflate) && has(&nr, Rule::FullAckMinFlight) && !has(&nr, Rule::RenoExit));
        // A partial ACK is a self-loop on fast recovery; a full ACK leaves it.
        let fr = Phase::FastRecovery as u8;
        let p = nr.transition_of(Rule::PartialDeflate, fr, fr).unwrap();
        assert_eq!(nr.transitions[p].to, None);
        let f = nr.transition_of(Rule::FullAckMinFlight, fr, 2).unwrap();
        assert_eq!(nr.transitions[f].to, Some(Phase::CongestionAvoidance));
    }

    #[test]
    fn the_overlay_comes_with_rfc7661_only_and_bbr_has_its_own_states() {
        let mut s = Scenario::from_json_str(r#"{"flows": [{"algorithm": "newreno"}]}"#).unwrap();
        let cc = &mut s.flows[0].cc;
        assert!(machine(Variant::Newreno, cc).overlay.is_none());
        assert_eq!(
            machine(Variant::Newreno, cc).overlay_transition_of(Rule::NvpEnter),
            None
        );
        cc.idle_policy = crate::scenario::IdlePolicy::Rfc7661;
        let m = machine(Variant::Newreno, cc);
        assert_eq!(m.overlay_transition_of(Rule::NvpEnter), Some(0));
        assert_eq!(m.overlay_transition_of(Rule::NewCwvRecoveryEnd), Some(3));
        assert_eq!(m.overlay_transition_of(Rule::Timeout), None);
        assert!(m.to_json()["overlay"]["states"][1]["id"] == "non_validated");
        let bbr = of("bbr");
        assert_eq!(bbr.states[0], Phase::BbrStartup);
        assert!(bbr.overlay.is_none() && !bbr.states.contains(&Phase::SlowStart));
    }
}
