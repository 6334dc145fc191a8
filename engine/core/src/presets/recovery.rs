//! Loss recovery as deployed today: Fall & Floyd's SACK variant (RFC 6675) beside Reno and
//! NewReno, a lost tail repaired by a probe (RACK-TLP) instead of the timer, and CUBIC
//! sharing a bottleneck with the recovery Linux runs it with. docs/lessons/recovery.md is the
//! guide; the numbers are the presets' (seed 1), pinned by tests/sack.rs.

use super::{lesson, Preset, Step, FF_DROPS};
use serde_json::{json, Value};

/// Where the family's lessons lead.
pub(super) const SACK_RECOVERY: Step = Step {
    label: "Step to the start of SACK recovery",
    rules: &["sack.recovery"],
};

pub(super) const NEXT_SEG: Step = Step {
    label: "Step to a hole NextSeg resends",
    rules: &["sack.next_seg"],
};

pub(super) const PRR: Step = Step {
    label: "Step to PRR's first sending budget",
    rules: &["prr.sndcnt"],
};

pub(super) const TLP: Step = Step {
    label: "Step to the tail loss probe",
    rules: &["tlp.probe"],
};

pub(super) const RACK: Step = Step {
    label: "Step to RACK deeming a segment lost",
    rules: &["rack.lost"],
};

const SOURCE: &str = "RFC 2018 (SACK), RFC 6675 (SACK-based recovery), RFC 6937 (PRR), RFC 8985 (RACK-TLP)";

/// The Fall & Floyd lesson with SACK for `n` drops.
fn fall_floyd_sack_lesson(n: usize) -> Option<super::Lesson> {
    let look = "The time–sequence plot from 2.0 to 3.0 s: the SACK blocks each duplicate ACK carries above the hole at packet 14, the holes resent as the blocks reveal them, and the window plot's fast recovery. Compare with NewReno (one hole per round trip) and Reno (a timeout from two drops on).";
    let source = "Fall & Floyd 1996, Simulation-based Comparisons of Tahoe, Reno and SACK TCP, §5 (SACK), as ns-2's test-suite-tcpVariants sets it up; RFC 2018, RFC 6675 §4–5; docs/validation.md §2.";
    let (happens, question) = match n {
        1 => (
            "Packet 14 is dropped. Each duplicate ACK now carries a SACK block: 15–15, 15–16, 15–17… At the third, at 2.069 s, the sender starts SACK recovery: ssthresh = cwnd = 7 packets and 14 is resent at once. There is no inflation: the sender counts what is still in the network (pipe = 15 outstanding − 3 SACKed − 1 lost + 1 resent = 12) and sends new data once pipe is below cwnd, at the 9th duplicate (2.132 s), exactly when NewReno's inflated window allows it. The ACK of the retransmission at 2.281 s ends recovery with cwnd 7. With one loss SACK, Reno and NewReno trace the same packets.",
            "With a single loss SACK changes nothing. What does the sender know from the blocks that Reno's duplicate ACKs do not tell it?",
        ),
        2 => (
            "Packets 14 and 28 are dropped. 14 is resent at 2.069 s as with one drop. The blocks then show 29, 30, 31 (sent in recovery) arriving above a hole at 28: with three SACKed packets above it, 28 is deemed lost (IsLost) and resent at 2.364 s, before the ACK of 14 has even come back, and recovery ends at 2.576 s without a timeout. Reno's recovery ended on the partial ACK and it waits for its timer until 3.281 s; NewReno resends 28 only when the partial ACK arrives at 2.281 s.",
            "Why does SACK wait for three SACKed packets above 28 before resending it, instead of resending it as soon as one block shows a gap?",
        ),
        3 => (
            "Packets 14, 26 and 28 are dropped. From 2.069 s the blocks report 15–25, then 27 on its own: two holes. Each is resent once three packets above it are SACKed: 26 at 2.354 s and 28 at 2.364 s, and recovery ends at 2.587 s. Reno times out at 3.281 s and resends by go-back-N what the receiver already holds; NewReno needs a round trip per hole and leaves at 2.705 s.",
            "Count the round trips each variant needs to repair three holes. Which information lets SACK repair them all in one?",
        ),
        _ => (
            "Packets 14, 24, 26 and 28 are dropped. 14 is resent at 2.069 s; the blocks show three holes above it, and 24, 26 and 28 are resent 21 ms apart (2.343, 2.364, 2.385 s) as the packets sent in recovery are SACKed above them. Recovery ends at 2.597 s, one fast retransmit and no timeout. NewReno leaves at 2.917 s, three round trips after its fast retransmit; Reno times out at 3.281 s.",
            "NewReno needs a round trip per hole. What does SACK need, and what limits how fast it can resend the holes it knows about?",
        ),
    };
    lesson(look, happens, source, question, &["newreno_sack", "newreno", "reno"])
}

/// Fall & Floyd's path with SACK (RFC 6675) on NewReno's settings; the compared runs take
/// Reno and NewReno without it (the algorithm choice owns `sack.*`).
fn fall_floyd_sack(drops: &[u64]) -> Value {
    let mut v = super::fall_floyd("newreno", drops);
    v["flows"][0]["algorithm"] = json!("newreno_sack");
    v
}

/// A 20-segment transfer over a 10 Mbit/s, 40 ms path whose last two segments are lost.
fn tail_loss() -> Value {
    json!({
        "duration": 3.0,
        "seed": 1,
        "network": {"bottleneck": {"bandwidth": 10_000_000u64, "delay": 0.02, "queue_packets": 100,
                                   "loss": {"model": "none"}, "reverse_loss": {"model": "none"}}},
        "flows": [{
            "algorithm": "newreno_rack_tlp",
            "tcp": {"mss": 1460, "rwnd": 1_000_000u64, "initial_window": 10, "syn": true},
            "rto": {"min": 0.2, "initial": 1.0},
            "receiver": {"delayed_ack": true, "delack_timeout": 0.04},
            "app": {"kind": "bulk", "bytes": 29_200u64},
            "drops": [{"segment": 19, "attempt": 1}, {"segment": 20, "attempt": 1}]
        }]
    })
}

/// The family, in menu order.
pub(super) fn presets() -> Vec<Preset> {
    let mut out: Vec<Preset> = FF_DROPS
        .iter()
        .enumerate()
        .map(|(n, drops)| {
            let list: Vec<String> = drops.iter().map(u64::to_string).collect();
            Preset {
                steps: &[],
                family: "",
                focus: Some("newreno_sack".into()),
                name: format!("fall-floyd-sack-{}drops", n + 1),
                title: format!(
                    "SACK against NewReno and Reno: {} in one window",
                    ["one drop", "two drops", "three drops", "four drops"][n]
                ),
                description: format!(
                    "Fall & Floyd 1996: SACK (RFC 6675), 800 kb/s 100 ms bottleneck, 8-packet queue, packets {} dropped from one window",
                    list.join(", ")
                ),
                overrides: fall_floyd_sack(drops),
                lesson: fall_floyd_sack_lesson(n + 1),
            }
        })
        .collect();
    out.push(Preset {
        steps: &[],
        family: "",
        focus: Some("newreno_rack_tlp".into()),
        name: "tail-loss-tlp".into(),
        title: "A lost tail: the retransmission timer against a tail loss probe".into(),
        description: "A 20-segment transfer (29 200 B) over a 10 Mbit/s, 40 ms path; its last two segments are lost".into(),
        overrides: tail_loss(),
        lesson: lesson(
            "The time–sequence plot after 0.14 s, the last ACK before the silence: the probe, the SACK block it draws and the resent segment 19; then the summary's completion time.",
            "Segments 19 and 20, the last two of the transfer, are lost: no later segment can arrive to cause duplicate ACKs, so neither NewReno nor SACK has anything to recover from. They wait for the retransmission timer (200 ms minimum): it fires at 0.345 s, resends 19, then 20 one round trip later, and the transfer completes at 0.516 s. With RACK-TLP the sender arms a probe timeout of 2·SRTT (89 ms) after the last ACK: at 0.234 s it resends the last segment, 20. The receiver reports it in a SACK block above the hole at 19; RACK sees that 20 was delivered though 19, sent earlier, was not, deems 19 lost and starts recovery at 0.279 s. The transfer completes at 0.325 s, 191 ms sooner.",
            &format!("{SOURCE} §7 (TLP) and §6 (RACK); Dukkipati et al., Tail Loss Probe, draft-dukkipati-tcpm-tcp-loss-probe-01 (2013)"),
            "Why can't fast retransmit repair the last segments of a transfer? What does the probe make the receiver say?",
            &["newreno_rack_tlp", "newreno_sack_prr", "newreno"],
        ),
    });
    let mut reorder = super::internet::reorder_path();
    reorder["flows"][0]["algorithm"] = json!("newreno_rack_tlp");
    out.push(Preset {
        steps: &[],
        family: "",
        focus: Some("newreno_rack_tlp".into()),
        name: "reorder-rack".into(),
        title: "A path that reorders: DupThresh against RACK's patience".into(),
        description: "The reordering path of reorder-dupthresh (10 Mbit/s, 40 ms RTT, 0–10 ms added to each packet on the bottleneck, nothing lost) with SACK: counting duplicates against RACK's time window".into(),
        overrides: reorder,
        lesson: lesson(
            "The time–sequence plot's D-SACK blocks (each one a retransmission the receiver did not need), the window plot, and the summary's goodput and retransmissions of the three runs.",
            "Nothing is lost on this path; 3.4 % of the segments arrive three or more places late. Counting duplicates, SACK or not, takes each of those for a loss: NewReno with SACK and PRR starts 26 recoveries, resends 28 segments that had arrived, and each recovery halves the window: 1.68 Mbit/s (NewReno without SACK: 29 fast retransmits, 181 spurious retransmissions, 1.94). The receiver reports every one of those duplicates in a D-SACK block. RACK waits instead: a segment is lost only when a segment sent after it was delivered more than RACK.rtt + min RTT/4 (about 11 ms) ago, and a 0–10 ms variation never lasts that long. Two segments were later still; the D-SACKs that showed it widened the window (RFC 8985 §6.2 step 4), and RACK made no other mistake: 2 recoveries, 2 spurious retransmissions, 7.51 Mbit/s.",
            &format!("{SOURCE} §6.2 (the reordering window and its D-SACK adaptation); RFC 2883 (D-SACK); RFC 4653 (reordering and DupThresh)"),
            "How late may a segment be before RACK calls it lost, and what would it cost RACK to wait that long for a segment that really was lost?",
            &["newreno_rack_tlp", "newreno_sack_prr", "newreno"],
        ),
    });
    let mut share = super::internet::sharing(
        "cubic-two-rtts-linux",
        "Two CUBIC flows with round trips of 40 and 120 ms, as Linux runs them",
        "Two flows as Linux sends (CUBIC, HyStart++, SACK with PRR, RACK-TLP, delayed ACKs) with round trips of 40 and 120 ms share a 100 Mbit/s bottleneck (400-packet buffer; a little random cross traffic)",
        ["cubic_linux_today", "cubic_linux_today"],
        [0.001, 0.041],
        "The share plot, and the summary's timeouts and retransmissions against cubic-two-rtts (the same path without SACK).",
        "Without SACK (cubic-two-rtts) each overflow of the buffer costs the flows hundreds of losses in one window, and NewReno's recovery repairs one per round trip: 23 and 13 timeouts, 24 000 retransmissions, 61.0 against 19.6 Mbit/s. With the recovery Linux uses, SACK repairs every hole of a window in one recovery and PRR sends in step with the ACKs: no timeout at all, 731 and 112 retransmissions, and the 120 ms flow gets 32.9 Mbit/s against 62.3 (ratio 1.89; seeds 1–5: 1.89–2.42, mean 2.11). ns-3 with SACK on the same path gives 2.12 (docs/validation.md §3e).",
        "The longer round trip still gets less. How much of the gap without SACK was CUBIC, and how much the recovery?",
    );
    if let Some(l) = share.lesson.as_mut() {
        l.source = format!("{SOURCE}; RFC 9438 §5.2 (RTT fairness); docs/validation.md §3e");
    }
    out.push(share);
    out
}
