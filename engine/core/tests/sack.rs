//! SACK-based recovery on scripted drops, pinned to the nanosecond: which segment each
//! decision resends and when (RFC 6675's IsLost and NextSeg on the Fall & Floyd path), PRR's
//! budget, the tail loss probe against the retransmission timer, and the option's blocks.
//!
//! The Fall & Floyd path (tests/loss_recovery.rs has its constants): ACKs of back-to-back
//! packets arrive 10.4 ms apart and a data round trip is 211.880088 ms. Packet 14 is the
//! first drop; the third duplicate ACK for it arrives at 2.069200360 s in every variant.

mod common;
use common::*;
use cwndlab_core::trace::EventKind::{self, *};

const K: u64 = 1000;
const FR: u64 = 2_069_200_360;
const GAP: u64 = 10_400_000;

fn sack(preset: &str, extra: &[(&str, &str)]) -> cwndlab_core::Simulation {
    let mut sets = vec![("flows[].sack.enabled", "true")];
    sets.extend_from_slice(extra);
    run(&scenario(preset, &sets))
}

/// (segment, attempt, time) of every retransmission before `until`.
fn resends(sim: &cwndlab_core::Simulation, until: u64) -> Vec<(u32, u32, u64)> {
    of(sim, Retransmit)
        .into_iter()
        .filter(|e| e.t < until)
        .map(|e| (e.seg, e.tx, e.t))
        .collect()
}

fn first(sim: &cwndlab_core::Simulation, kind: EventKind) -> Option<u64> {
    of(sim, kind).first().map(|e| e.t)
}

#[test]
fn one_drop_resends_at_the_third_duplicate_and_ends_one_rtt_later() {
    let sim = sack("fall-floyd-newreno-1drops", &[]);
    // RFC 6675 §5 step 4: the third duplicate ACK (each carrying a new block) starts
    // recovery, segment 14 is resent at once, cwnd = ssthresh = ⌊15/2⌋ = 7 segments.
    assert_eq!(resends(&sim, 3 * SEC), vec![(14, 2, FR)]);
    assert_eq!(first(&sim, FastRetransmit), Some(FR));
    let s = state_at(&sim, 0, FR);
    assert_eq!((s.cwnd, s.ssthresh), (7 * K, 7 * K));
    // pipe then falls by one per duplicate: 15 out − 3 SACKed − 1 lost + 1 resent = 12; new
    // data leaves when pipe < 7, at the 9th duplicate (as NewReno's inflation: ns-2's Sack1
    // sends it at 2.131688 s, 88 µs later because its ACKs carry the option's bytes).
    let d29 = of(&sim, DataSend).into_iter().find(|e| e.seg == 29).unwrap();
    assert_eq!(d29.t, FR + 6 * GAP);
    // The ACK of the retransmission covers everything sent before recovery (28 000): out
    // of recovery at 2.281080448 s, cwnd = ssthresh, no timeout.
    assert_eq!(first(&sim, RecoveryExit), Some(2_281_080_448));
    assert!(of(&sim, Timeout).is_empty());
}

#[test]
fn is_lost_waits_for_three_sacked_segments_above_a_hole() {
    // Two drops (14 and 28): 28 is deemed lost only once 29, 30 and 31, sent during the
    // recovery, are SACKed above it (IsLost), so it is resent at 2.364280448 s, 2 packets
    // after the first SACK above it (ns-2's Sack1, which resends any hole below a SACK
    // block, sends it at 2.343656 s).
    let sim = sack("fall-floyd-newreno-2drops", &[]);
    let r = resends(&sim, 3 * SEC);
    assert_eq!(r, vec![(14, 2, FR), (28, 2, 2_364_280_448)]);
    let lost: Vec<(u32, u32)> = of(&sim, MarkedLost)
        .into_iter()
        .filter(|e| e.t < 3 * SEC)
        .map(|e| (e.seg, e.tx))
        .collect();
    assert_eq!(lost, vec![(14, 1), (28, 1)], "both by IsLost (tx = 1)");
    assert_eq!(first(&sim, RecoveryExit), Some(2_576_160_536));
    assert!(of(&sim, Timeout).is_empty());
}

#[test]
fn four_drops_are_repaired_in_one_recovery_without_a_timeout() {
    // NewReno needs a round trip per hole (exit at 2.916720 s); SACK resends 24, 26 and 28
    // within 42 ms of each other as IsLost marks them, and leaves at 2.596960536 s.
    let sim = sack("fall-floyd-newreno-4drops", &[]);
    let r = resends(&sim, 3 * SEC);
    assert_eq!(
        r,
        vec![
            (14, 2, FR),
            (24, 2, 2_343_480_448),
            (26, 2, 2_364_280_448),
            (28, 2, 2_385_080_448)
        ]
    );
    assert_eq!(first(&sim, RecoveryExit), Some(2_596_960_536));
    assert!(of(&sim, Timeout).is_empty());
    assert_eq!(of(&sim, FastRetransmit).iter().filter(|e| e.t < 3 * SEC).count(), 1);
}

#[test]
fn the_blocks_of_each_ack_are_most_recent_first_rfc2018_4() {
    // Three drops (14, 26, 28): the duplicate ACKs for 14 report 15–25 growing; once 27
    // arrives it is reported first, its own block, then 15–25.
    let sim = sack("fall-floyd-newreno-3drops", &[]);
    let blocks = events(&sim, &[AckReceived, SackBlock]);
    // The ACK after 27 arrived (the first with two blocks).
    let i = blocks
        .windows(3)
        .position(|w| w[0].kind == AckReceived && w[1].kind == SackBlock && w[2].kind == SackBlock)
        .unwrap();
    let (a, b1, b2) = (blocks[i], blocks[i + 1], blocks[i + 2]);
    assert_eq!(a.seq, 13 * K);
    assert_eq!((b1.seq, b1.len, b1.seg), (26 * K, K as u32, 0));
    assert_eq!((b2.seq, b2.len, b2.seg), (14 * K, 11 * K as u32, 1));
}

#[test]
fn prr_spreads_the_reduction_over_the_recovery_rfc6937() {
    // One drop, PRR: instead of a silence until pipe falls below cwnd = 7, every second
    // duplicate ACK lets a segment out (⌈prr_delivered · 7 / 15⌉ − prr_out).
    let sim = sack("fall-floyd-newreno-1drops", &[("flows[].sack.budget", "prr_ssrb")]);
    assert_eq!(resends(&sim, 3 * SEC), vec![(14, 2, FR)]);
    let sends: Vec<(u32, u64)> = of(&sim, DataSend)
        .into_iter()
        .filter(|e| e.t > FR && e.t < 2_281_000_000)
        .map(|e| (e.seg, (e.t - FR) / GAP))
        .collect();
    // Duplicates after the FR arrive GAP apart. While pipe > ssthresh PRR sends on every
    // second one (the 2nd, 4th, 6th: ⌈delivered · 7/15⌉ − prr_out); once pipe is down to
    // ssthresh, the slow-start bound sends on each (9th, 10th, 11th). In all the recovery
    // sends 7 segments, ssthresh's worth: 14 and six new ones.
    let gaps: Vec<u64> = sends.iter().map(|s| s.1).collect();
    assert_eq!(gaps, vec![2, 4, 6, 9, 10, 11]);
    assert_eq!(sends.first().map(|s| s.0), Some(29));
    // At the end of recovery cwnd = ssthresh.
    let exit = first(&sim, RecoveryExit).unwrap();
    let s = state_at(&sim, 0, exit);
    assert_eq!((s.cwnd, s.ssthresh), (7 * K, 7 * K));
}

/// Fall & Floyd's path with eight consecutive segments lost (14–21) out of a window of 15:
/// recovery starts with pipe already under ssthresh, where the three PRR bounds differ.
fn eight_lost(budget: &str) -> cwndlab_core::Simulation {
    let drops: Vec<String> = (14..=21)
        .map(|n| format!(r#"{{"segment": {n}, "attempt": 1}}"#))
        .collect();
    let drops = format!("[{}]", drops.join(", "));
    let s = scenario(
        "fall-floyd-newreno-1drops",
        &[
            ("flows[].sack.enabled", "true"),
            ("flows[].sack.budget", budget),
            ("flows[0].drops", &drops),
        ],
    );
    let mut sim = cwndlab_core::Simulation::new(&s).explained();
    sim.run_to_end();
    sim
}

/// (segment, attempt, ns after `from`) of each segment sent in the 0.3 s after `from`.
fn sent_after(sim: &cwndlab_core::Simulation, from: u64) -> Vec<(u32, u32, u64)> {
    let mut v: Vec<(u32, u32, u64)> = of(sim, DataSend)
        .into_iter()
        .chain(of(sim, Retransmit))
        .filter(|e| e.t >= from && e.t < from + 300_000_000)
        .map(|e| (e.seg, e.tx, e.t - from))
        .collect();
    v.sort_by_key(|&(seg, _, t)| (t, seg));
    v
}

#[test]
fn after_heavy_loss_the_prr_bounds_differ_rfc6937_rfc9937() {
    // The third duplicate ACK (SACKing 24) arrives at 2.142000360 s: IsLost marks 14–21
    // (three segments SACKed above each), so pipe = 15 − 3 SACKed − 8 lost = 4 segments,
    // under ssthresh = 7 from the start. Duplicates then come GAP apart (25–28), and the
    // retransmissions' ACKs one round trip (RTT) after them.
    const FR8: u64 = 2_142_000_360;
    const RTT: u64 = 211_880_088;
    let (ssrb, crb, prr) = (eight_lost("prr_ssrb"), eight_lost("prr_crb"), eight_lost("prr_rfc9937"));
    for sim in [&ssrb, &crb, &prr] {
        assert_eq!(first(sim, FastRetransmit), Some(FR8));
        assert!(of(sim, Timeout).is_empty());
    }
    // Slow-start bound (RFC 6937, Linux 3.2–4.1): max(prr_delivered − prr_out,
    // DeliveredData) + 1 on every ACK: two at the start (min(7 − 4, max(1, 1) + 1) = 2), two on
    // the next duplicate, then one each; all eight holes resent within the first round.
    assert_eq!(
        sent_after(&ssrb, FR8)[..8],
        [
            (14, 2, 0),
            (15, 2, 0),
            (16, 2, GAP),
            (17, 2, GAP),
            (18, 2, 2 * GAP),
            (19, 2, 3 * GAP),
            (20, 2, 4 * GAP),
            (21, 2, RTT),
        ]
    );
    assert_eq!(first(&ssrb, RecoveryExit), Some(2_565_760_536));
    // Conservative bound: what was delivered, one segment an ACK; the last three holes wait
    // for the retransmissions' ACKs, recovery ends 20.8 ms later.
    // One hole a duplicate ACK in the first round, as RFC 9937's bound below.
    let one_a_duplicate: Vec<(u32, u32, u64)> = (0..5).map(|k| (14 + k as u32, 2, k * GAP)).collect();
    let crb_sent = sent_after(&crb, FR8);
    assert_eq!(crb_sent[..5], one_a_duplicate[..]);
    assert_eq!(
        crb_sent[5..8],
        [(19, 2, RTT), (20, 2, RTT + GAP), (21, 2, RTT + 2 * GAP)]
    );
    assert_eq!(first(&crb, RecoveryExit), Some(2_586_560_536));
    // RFC 9937: duplicates do not advance snd.una, so in the first round it sends as the
    // conservative bound; the ACK of 14's retransmission advances it and shows no new loss
    // (a safe ACK): max(6 − 5, 1) + 1 = 2 segments, 19 and 20 together; the next safe ACK
    // sends 21 and new data (29).
    let prr_sent = sent_after(&prr, FR8);
    assert_eq!(prr_sent[..5], one_a_duplicate[..]);
    assert_eq!(
        prr_sent[5..9],
        [(19, 2, RTT), (20, 2, RTT), (21, 2, RTT + GAP), (29, 1, RTT + GAP)]
    );
    assert_eq!(first(&prr, RecoveryExit), Some(2_586_560_536));
    // The engine's explanation of that ACK names the bound and its numbers.
    // PRR's explanations at `t`.
    let prr_at = |t: u64| -> Vec<String> {
        prr.decisions()
            .iter()
            .filter(|e| e.d.rule == cwndlab_core::explain::Rule::PrrSend && e.t == t)
            .map(|e| e.d.text())
            .collect()
    };
    let why = prr_at(FR8 + RTT);
    assert_eq!(why.len(), 1, "{why:?}");
    assert!(why[0].contains("the limit is RFC 9937's on a safe ACK"), "{}", why[0]);
    assert!(why[0].contains("sndcnt 2 000 B"), "{}", why[0]);
    let first_dup = prr_at(FR8 + GAP);
    assert!(first_dup[0].contains("this ACK is not safe"), "{}", first_dup[0]);
}

#[test]
fn a_tail_loss_probe_repairs_a_lost_tail_without_the_timer_rfc8985_7() {
    // tail-loss-tlp: segments 19 and 20 (the last) are lost. The last ACK (26 280) arrives
    // at 144.6336 ms; 2·SRTT later (SRTT 44.59 ms) the probe resends 20.
    let sim = run(&scenario("tail-loss-tlp", &[]));
    let probe = of(&sim, TailLossProbe);
    assert_eq!(probe.len(), 1);
    assert_eq!((probe[0].seg, probe[0].tx, probe[0].t), (20, 2, 233_821_100));
    // Its ACK SACKs 20 above the hole at 19: RACK deems 19 lost (sent before 20's resend,
    // RACK.rtt + min RTT/4 ago) and recovery resends it at once.
    let lost = of(&sim, MarkedLost);
    assert_eq!((lost[0].seg, lost[0].tx, lost[0].t), (19, 2, 279_299_500));
    assert_eq!(resends(&sim, SEC), vec![(20, 2, 233_821_100), (19, 2, 279_299_500)]);
    assert!(of(&sim, Timeout).is_empty());
    assert_eq!(first(&sim, FlowComplete), Some(324_777_900));
    // The same transfer without the probe waits for the timer (200 ms minimum RTO): 19 at
    // 344.6336 ms, 20 one round trip later, complete at 515.5904 ms.
    let rto = run(&scenario(
        "tail-loss-tlp",
        &[("flows[0].algorithm", "newreno_sack_prr")],
    ));
    assert_eq!(first(&rto, Timeout), Some(344_633_600));
    assert_eq!(first(&rto, FlowComplete), Some(515_590_400));
    assert!(of(&rto, TailLossProbe).is_empty());
}

#[test]
fn early_retransmit_repairs_a_short_transfer_on_one_sacked_segment_rfc5827() {
    // A 3-segment transfer (the tail-loss path) whose second segment is lost: the receiver's
    // one ACK (1 460, SACKing 3) cannot make three duplicates. With 2 segments outstanding
    // and nothing new to send, early retransmit lowers the threshold to 1: 2 is resent on
    // that ACK at 91.9552 ms and the transfer completes at 137.4336 ms; without it the
    // timer resends 2 at 291.9552 ms (200 ms minimum RTO) and it completes at 337.4336 ms.
    let sets = |er: &'static str| {
        vec![
            ("flows[0].algorithm", "newreno_sack_prr"),
            ("flows[0].app.bytes", "4380"),
            ("flows[0].drops", r#"[{"segment": 2, "attempt": 1}]"#),
            ("flows[0].sack.early_retransmit", er),
        ]
    };
    let er = run(&scenario("tail-loss-tlp", &sets("true")));
    assert_eq!(resends(&er, SEC), vec![(2, 2, 91_955_200)]);
    assert_eq!(first(&er, FlowComplete), Some(137_433_600));
    assert!(of(&er, Timeout).is_empty());
    let plain = run(&scenario("tail-loss-tlp", &sets("false")));
    assert_eq!(resends(&plain, SEC), vec![(2, 2, 291_955_200)]);
    assert_eq!(first(&plain, Timeout), Some(291_955_200));
    assert_eq!(first(&plain, FlowComplete), Some(337_433_600));
}

#[test]
fn after_a_timeout_only_what_the_receiver_lacks_is_resent_rfc6675_5_1() {
    // Fall & Floyd, four drops, with the timer as the only repair (DupThresh 64: no fast
    // retransmit). When it fires, every segment not SACKed is deemed lost and resent in
    // order from one segment of window: the holes 14, 24, 26, 28 and nothing the receiver
    // holds (NewReno's go-back-N would resend 15–23 too).
    let sim = sack("fall-floyd-newreno-4drops", &[("flows[].tcp.dupack_threshold", "64")]);
    let to = first(&sim, Timeout).expect("a timeout");
    let r: Vec<u32> = resends(&sim, to + 3 * SEC).into_iter().map(|(s, _, _)| s).collect();
    assert_eq!(&r[..4], &[14, 24, 26, 28], "{r:?}");
    assert!(of(&sim, SpuriousRetransmit).iter().all(|e| e.t > to + 3 * SEC));
}

#[test]
fn rack_waits_out_reordering_where_dupthresh_retransmits_rfc8985_6() {
    // reorder-rack: nothing is lost, 3.4 % of segments arrive three or more places late.
    // Counting duplicates (SACK, PRR) resends 28 segments that had arrived, each reported
    // back in a D-SACK block; RACK's window (min RTT/4) outlasts the variation but twice.
    let count = |sim: &cwndlab_core::Simulation, k: EventKind| of(sim, k).len();
    let dsacks = |sim: &cwndlab_core::Simulation| of(sim, SackBlock).iter().filter(|e| e.tx == 1).count();
    let dup = run(&scenario("reorder-rack", &[("flows[0].algorithm", "newreno_sack_prr")]));
    let rack = run(&scenario("reorder-rack", &[]));
    for (sim, rtx, fr) in [(&dup, 28, 26), (&rack, 2, 2)] {
        assert_eq!(count(sim, Retransmit), rtx);
        assert_eq!(count(sim, FastRetransmit), fr);
        assert_eq!(
            count(sim, SpuriousRetransmit),
            rtx,
            "nothing is lost: every resend is spurious"
        );
        assert_eq!(dsacks(sim), rtx, "the receiver reports each duplicate");
        assert!(of(sim, Timeout).is_empty());
    }
    let rack_marks = of(&rack, MarkedLost);
    assert!(rack_marks.iter().all(|e| e.tx == 2), "RACK deemed them lost");
}
