//! BBR's state machine: its four states beside NewReno's recovery and the timeout, and the
//! edges between them, each naming the rules (in `mod.rs`) whose decisions take it.

use crate::explain::Rule;
use crate::tcp::cc::edges::{edge as t, Transition};
use crate::tcp::cc::Phase;

/// BBR's phases, with NewReno's recovery and the timeout beside them.
pub(crate) const STATES: [Phase; 6] = [
    Phase::BbrStartup,
    Phase::BbrDrain,
    Phase::BbrProbeBw,
    Phase::BbrProbeRtt,
    Phase::FastRecovery,
    Phase::TimeoutRecovery,
];

/// BBR's state-machine edges: its four states, its part in recovery, and the timeout.
pub(crate) fn edges() -> Vec<Transition> {
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
    vec![
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
    ]
}
