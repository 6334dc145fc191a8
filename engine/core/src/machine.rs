//! The state machine of each algorithm: its congestion-control states (the plotted phases)
//! and the transitions between them, each naming the rules (`crate::explain`) whose
//! decisions take it. The page draws these; it never keeps a copy of its own.
//!
//! A decision's `from` and `to` phase codes, together with its rule, say which transition
//! it took: the transition whose `rules` hold the rule and whose `from` holds the phase
//! before (self-loops have `to == from`). New CWV's validated and non-validated phases are
//! an overlay (`overlay`) beside the phases, read from the window-validation series.

use crate::explain::Rule;
use crate::scenario::{BrRecovery, CcCfg, IdlePolicy, SlowStartRule, Variant};
use crate::tcp::cc::Phase;
use serde_json::{json, Map, Value};

/// New CWV's overlay transitions: (from, to, label, rules), beside the phases.
const OVERLAY: [(&str, &str, &str, &[Rule]); 4] = [
    (
        "validated",
        "non_validated",
        "pipeACK drops below ½·cwnd",
        &[Rule::NvpEnter],
    ),
    (
        "non_validated",
        "validated",
        "pipeACK ≥ ½·cwnd, or after a recovery or timeout",
        &[Rule::NvpExit],
    ),
    (
        "non_validated",
        "non_validated",
        "the phase outlasts its limit: cwnd halves toward IW",
        &[Rule::NvpExpiry],
    ),
    (
        "non_validated",
        "non_validated",
        "a loss: cwnd from pipeACK",
        &[Rule::NewCwvLoss, Rule::NewCwvRecoveryEnd],
    ),
];

/// One transition.
#[derive(Clone, Debug, PartialEq)]
pub struct Transition {
    /// Phases it leaves from.
    pub from: Vec<Phase>,
    /// Phase it enters; None: the phase it left (a self-loop).
    pub to: Option<Phase>,
    /// What a student sees happen, one short line.
    pub label: &'static str,
    /// The rules whose decisions take it.
    pub rules: Vec<Rule>,
}

/// An algorithm's states and transitions.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    /// The phases it can be in.
    pub states: Vec<Phase>,
    /// Its transitions.
    pub transitions: Vec<Transition>,
    /// New CWV's phases, when the idle policy is RFC 7661.
    pub nvp_overlay: bool,
}

fn t(from: &[Phase], to: Option<Phase>, label: &'static str, rules: &[Rule]) -> Transition {
    Transition {
        from: from.to_vec(),
        to,
        label,
        rules: rules.to_vec(),
    }
}

/// What each phase means, one line.
pub fn phase_description(p: Phase) -> &'static str {
    match p {
        Phase::Handshake => "before data: the SYN exchange",
        Phase::SlowStart => "cwnd < ssthresh: cwnd grows by about one SMSS per ACK, doubling each RTT",
        Phase::CongestionAvoidance => "cwnd ≥ ssthresh: cwnd grows by about one SMSS per RTT",
        Phase::FastRecovery => {
            "after a fast retransmit: the window is inflated by duplicate ACKs until the loss is repaired"
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

/// The machine of a flow with `variant` and congestion-control settings `cc`.
pub fn machine(variant: Variant, cc: &CcCfg) -> Machine {
    if cc.controller == crate::scenario::Controller::Bbr {
        return bbr_machine();
    }
    use Phase::{CongestionAvoidance as Ca, FastRecovery as Fr, SlowStart as Ss, TimeoutRecovery as Tr};
    let ss_rules: &[Rule] = match cc.slow_start {
        SlowStartRule::AckCounting => &[Rule::SsAckCounting],
        SlowStartRule::Abc => &[Rule::SsAbc],
        SlowStartRule::Linux => &[Rule::SsLinux],
        SlowStartRule::None => &[Rule::SsNone],
        SlowStartRule::HystartPp => &[Rule::SsHystart, Rule::HystartCssEnter, Rule::HystartCssResume],
    };
    let ca_rules: &[Rule] = if cc.binomial {
        &[Rule::CaBinomial]
    } else {
        match cc.congestion_avoidance {
            crate::scenario::CongAvoidRule::PerAck => &[Rule::CaPerAck],
            crate::scenario::CongAvoidRule::ByteCounting => &[Rule::CaByteCounting],
            crate::scenario::CongAvoidRule::LinuxCounter => &[Rule::CaLinux],
            crate::scenario::CongAvoidRule::Cubic => &[Rule::CaCubic, Rule::CubicEpoch],
        }
    };
    let fast_recovery = matches!(variant, Variant::Reno | Variant::Newreno)
        || (variant == Variant::BrTcp && cc.br_recovery == BrRecovery::Newreno);
    let mut states = vec![Ss, Ca];
    let mut tr = vec![
        t(&[Ss], None, "ACK: slow-start increase", ss_rules),
        t(&[Ss], Some(Ca), "cwnd reaches ssthresh", ss_rules),
        t(&[Ca], None, "ACK: congestion-avoidance increase", ca_rules),
    ];
    if cc.slow_start == SlowStartRule::HystartPp {
        tr.push(t(
            &[Ss],
            Some(Ca),
            "HyStart++: the RTT rose for 5 rounds, ssthresh = cwnd",
            &[Rule::HystartExit],
        ));
    }
    match variant {
        Variant::OldTahoe => {}
        Variant::Tahoe => tr.push(t(
            &[Ss, Ca],
            Some(Ss),
            "3 duplicate ACKs: fast retransmit, cwnd = 1 segment",
            &[Rule::FastRetransmitTahoe],
        )),
        _ if fast_recovery => {
            states.push(Fr);
            tr.push(t(
                &[Ss, Ca],
                Some(Fr),
                "3 duplicate ACKs: fast retransmit, enter fast recovery",
                &[Rule::FastRetransmit],
            ));
            tr.push(t(&[Fr], None, "duplicate ACK: inflate the window", &[Rule::Inflate]));
            if variant == Variant::Reno {
                tr.push(t(
                    &[Fr],
                    Some(Ca),
                    "first new ACK: deflate to ssthresh, leave",
                    &[Rule::RenoExit],
                ));
            } else {
                tr.push(t(
                    &[Fr],
                    None,
                    "partial ACK: resend the next hole, stay",
                    &[Rule::PartialDeflate, Rule::PartialReset],
                ));
                tr.push(t(
                    &[Fr],
                    Some(Ca),
                    "full ACK: leave fast recovery",
                    &[Rule::FullAckMinFlight, Rule::FullAckSsthresh],
                ));
            }
        }
        _ => tr.push(t(
            &[Ss, Ca],
            Some(Ca),
            "3 duplicate ACKs: fast retransmit, cwnd = ssthresh from the reserved rate",
            &[Rule::FastRetransmitBr],
        )),
    }
    if variant != Variant::OldTahoe {
        tr.push(t(
            &[Ss, Ca],
            None,
            "3 duplicate ACKs below recover: no second reduction",
            &[Rule::FastRetransmitSuppressed],
        ));
    }
    states.push(Tr);
    let mut timeout_from = vec![Ss, Ca, Tr];
    if fast_recovery {
        timeout_from.insert(2, Fr);
    }
    tr.push(t(
        &timeout_from,
        Some(Tr),
        "retransmission timeout: cwnd = 1 segment, go back N",
        &[Rule::Timeout],
    ));
    tr.push(t(&[Tr], None, "ACK: slow start again", ss_rules));
    tr.push(t(
        &[Tr],
        Some(Ss),
        "everything outstanding at the timeout is acknowledged",
        ss_rules,
    ));
    tr.push(t(
        &[Tr],
        Some(Ca),
        "everything outstanding at the timeout is acknowledged",
        ca_rules,
    ));
    match cc.idle_policy {
        IdlePolicy::None => {}
        IdlePolicy::Restart => tr.push(t(
            &[Ss, Ca],
            Some(Ss),
            "idle longer than the RTO: restart",
            &[Rule::Restart],
        )),
        IdlePolicy::Rfc2861 => {
            tr.push(t(&[Ss, Ca], Some(Ss), "idle: cwnd halves per RTO", &[Rule::CwvIdle]));
            tr.push(t(
                &[Ss, Ca],
                Some(Ss),
                "application-limited: cwnd decays toward the window used",
                &[Rule::CwvAppLimited],
            ));
        }
        IdlePolicy::Rfc7661 => {}
    }
    Machine {
        states,
        transitions: tr,
        nvp_overlay: cc.idle_policy == IdlePolicy::Rfc7661,
    }
}

/// BBR's states, with NewReno's recovery and the timeout beside them.
fn bbr_machine() -> Machine {
    use Phase::{
        BbrDrain as Dr, BbrProbeBw as Bw, BbrProbeRtt as Pr, BbrStartup as St, FastRecovery as Fr,
        TimeoutRecovery as Tr,
    };
    let model: &[Rule] = &[
        Rule::BbrMaxBw,
        Rule::BbrMinRtt,
        Rule::BbrPacing,
        Rule::BbrCwnd,
        Rule::BbrFullBwCheck,
    ];
    let tr = vec![
        t(
            &[St],
            None,
            "ACK: BtlBw and RTprop update, cwnd and pacing at 2.885 × the model",
            model,
        ),
        t(
            &[St],
            Some(Dr),
            "3 rounds without 25 % more bandwidth: the pipe is full",
            &[Rule::BbrFullPipe],
        ),
        t(&[Dr], None, "ACK: pacing at 1/2.885 × BtlBw drains the queue", model),
        t(
            &[Dr],
            Some(Bw),
            "in flight ≤ BDP: the queue is drained",
            &[Rule::BbrDrainDone],
        ),
        t(
            &[Bw],
            None,
            "one RTprop per phase: pacing gain 1.25, 0.75, 1 × 6",
            &[Rule::BbrCycle],
        ),
        t(&[Bw], None, "ACK: BtlBw and RTprop update, cwnd toward 2 × BDP", model),
        t(
            &[St, Dr, Bw],
            Some(Pr),
            "RTprop not refreshed for 10 s",
            &[Rule::BbrProbeRttEnter],
        ),
        t(&[Pr], None, "ACK: cwnd stays at 4 segments", model),
        t(
            &[Pr],
            Some(Bw),
            "200 ms and a round at 4 segments: back to ProbeBW",
            &[Rule::BbrProbeRttExit],
        ),
        t(
            &[Pr],
            Some(St),
            "200 ms and a round at 4 segments: back to Startup (pipe never full)",
            &[Rule::BbrProbeRttExit],
        ),
        t(
            &[St, Dr, Bw, Pr],
            Some(Fr),
            "3 duplicate ACKs: fast retransmit, cwnd saved, packet conservation",
            &[Rule::FastRetransmitBbr],
        ),
        t(
            &[St, Dr, Bw, Pr],
            None,
            "3 duplicate ACKs below recover: no new recovery",
            &[Rule::FastRetransmitSuppressed],
        ),
        t(&[Fr], None, "partial ACK: resend the next hole", &[Rule::BbrPartialAck]),
        t(
            &[Fr],
            None,
            "ACK: packet conservation, then growth toward the target",
            &[
                Rule::BbrConservation,
                Rule::BbrCwnd,
                Rule::BbrMaxBw,
                Rule::BbrMinRtt,
                Rule::BbrPacing,
            ],
        ),
        t(&[Fr, Tr], Some(St), "recovery over: cwnd restored", &[Rule::BbrRestore]),
        t(&[Fr, Tr], Some(Dr), "recovery over: cwnd restored", &[Rule::BbrRestore]),
        t(&[Fr, Tr], Some(Bw), "recovery over: cwnd restored", &[Rule::BbrRestore]),
        t(&[Fr, Tr], Some(Pr), "recovery over: cwnd restored", &[Rule::BbrRestore]),
        t(
            &[St, Dr, Bw, Pr, Fr, Tr],
            Some(Tr),
            "retransmission timeout: cwnd = 1 segment, go back N",
            &[Rule::Timeout],
        ),
        t(
            &[Tr],
            None,
            "ACK: cwnd grows by what is delivered, toward the target",
            model,
        ),
    ];
    Machine {
        states: vec![St, Dr, Bw, Pr, Fr, Tr],
        transitions: tr,
        nvp_overlay: false,
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
        if !self.nvp_overlay {
            return None;
        }
        OVERLAY.iter().position(|(_, _, _, rules)| rules.contains(&rule))
    }

    /// As JSON (the page matches a decision to a transition as [`Machine::transition_of`]
    /// does): `{states: [{code, id, description}], transitions: [{from: [codes], to:
    /// code | null, label, rules: [ids]}], overlay: null | {states, transitions}}`.
    pub fn to_json(&self) -> Value {
        let overlay = self.nvp_overlay.then(|| {
            json!({
                "states": [
                    {"id": "validated", "description": "pipeACK ≥ ½·cwnd (or undefined): the window is in use"},
                    {"id": "non_validated", "description": "pipeACK < ½·cwnd: cwnd is kept but not grown unless cwnd-limited (RFC 7661)"},
                ],
                "transitions": OVERLAY.iter().map(|(from, to, label, rules)| json!({
                    "from": from, "to": to, "label": label,
                    "rules": rules.iter().map(|r| r.info().id).collect::<Vec<_>>(),
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
        Ok(s) => machine(s.flows[0].variant, &s.flows[0].cc).to_json(),
        Err(_) => Value::Null,
    }
}

/// The catalogue as JSON: `[{name, label, group, description, settings: {path: value},
/// machine}]`, `machine` the entry's states and transitions.
pub fn catalogue_json() -> Value {
    Value::Array(
        crate::catalogue::CATALOGUE
            .iter()
            .map(|a| {
                let settings: Map<String, Value> =
                    a.settings.iter().map(|(p, v)| (p.to_string(), v.to_json())).collect();
                json!({"name": a.name, "label": a.label, "group": a.group,
                       "description": a.description, "settings": settings,
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
}
