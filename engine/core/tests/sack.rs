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
