//! Scripted-drop scenarios on the Fall & Floyd path (800 kb/s, 100 ms, queue 8, rwnd 28,
//! 1000 B segments, SYN at 1.0 s, IW 2, 10 ms tick, min RTO 1 s, ns-2 arithmetic in
//! packets): the exact sequence of loss responses per variant — which segment is resent,
//! when, and cwnd/ssthresh after.
//!
//! Path constants used below: a data packet's RTT with empty queues is
//! 1.04 + 10.4 + 100 + 0.000084 ms (data) + 0.000004 + 0.4 + 100 + 0.04 ms (ACK)
//! = 211.880088 ms, and ACKs of back-to-back packets arrive 10.4 ms apart.

mod common;
use common::*;
use cwndlab_core::tcp::cc::Phase;
use cwndlab_core::trace::EventKind::{self, *};

const RTT: u64 = 211_880_088;
const K: u64 = 1000; // one segment, bytes

/// Loss-response events before `until`.
fn responses(sim: &cwndlab_core::Simulation, until: u64) -> Vec<Ev> {
    events(
        sim,
        &[
            FastRetransmit,
            PartialAck,
            RecoveryExit,
            Timeout,
            FastRetransmitSuppressed,
            Retransmit,
        ],
    )
    .into_iter()
    .filter(|e| e.t < until)
    .collect()
}

fn kinds(evs: &[Ev]) -> Vec<EventKind> {
    evs.iter().map(|e| e.kind).collect()
}

/// The events of one kind among `evs`.
fn only(evs: &[Ev], kind: EventKind) -> Vec<Ev> {
    evs.iter().copied().filter(|e| e.kind == kind).collect()
}

#[test]
fn the_connection_starts_with_a_syn_and_an_rtt_sample() {
    let sim = run(&scenario("fall-floyd-reno-1drops", &[]));
    let syn = of(&sim, SynSend);
    assert_eq!((syn.len(), syn[0].t), (1, SEC));
    // SYN (40 B) out and SYN-ACK back: 2 × (0.04 + 0.4 + 100 ms + 4 ns).
    let est = of(&sim, SynAckReceived)[0].t;
    assert_eq!(est, SEC + 200_880_008);
    let first = of(&sim, DataSend);
    assert_eq!(
        (first[0].t, first[0].seg, first[1].seg),
        (est, 1, 2),
        "IW = 2 segments at the SYN-ACK"
    );
    // 200.88 ms crosses 20 ticks of 10 ms: Jacobson A = 200 ms, D = 100 ms, rto = 600 ms
    // → the 1 s floor.
    let s = state_at(&sim, 0, est);
    assert_eq!((s.srtt, s.rttvar, s.rto), (200 * MS, 100 * MS, SEC));
}

#[test]
fn reno_one_drop_fast_recovery_with_inflation() {
    let sim = run(&scenario("fall-floyd-reno-1drops", &[]));
    let r = responses(&sim, 3 * SEC);
    assert_eq!(kinds(&r), vec![FastRetransmit, Retransmit, RecoveryExit]);
    let (fr, exit) = (r[0], r[2]);
    assert_eq!(
        (r[1].seg, r[1].tx, r[1].t),
        (14, 2, fr.t),
        "segment 14 resent at the 3rd dupack"
    );
    let dups: Vec<Ev> = of(&sim, DupAck).into_iter().filter(|e| e.t <= fr.t).collect();
    assert_eq!(dups.iter().map(|d| d.len).collect::<Vec<_>>(), vec![1, 2, 3]);
    assert!(dups.iter().all(|d| d.seq == 13 * K));
    // cwnd was 15 segments: ssthresh = floor(15/2) = 7, inflated = 7 + 3.
    let s = state_at(&sim, 0, fr.t);
    assert_eq!(
        (s.cwnd, s.ssthresh, s.inflated, s.phase),
        (7 * K, 7 * K, 10 * K, Phase::FastRecovery as u8)
    );
    // 15 in flight: new data flows once the inflated window exceeds it, at the 9th dupack.
    let first_new = of(&sim, DataSend).into_iter().find(|e| e.t > fr.t).unwrap();
    assert_eq!(first_new.seg, 29);
    assert_eq!(
        first_new.t,
        fr.t + 6 * 10_400_000,
        "6 dupacks after the 3rd, 10.4 ms apart"
    );
    let during: Vec<u32> = of(&sim, DataSend)
        .iter()
        .filter(|e| e.t > fr.t && e.t < exit.t)
        .map(|e| e.seg)
        .collect();
    assert_eq!(
        during,
        vec![29, 30, 31, 32, 33, 34],
        "one new segment per dupack from the 9th to the 14th"
    );
    // The retransmission's ACK covers all 28: deflate to ssthresh, leave recovery.
    assert_eq!((exit.seq, exit.t), (28 * K, fr.t + RTT));
    let s = state_at(&sim, 0, exit.t);
    assert_eq!(
        (s.cwnd, s.inflated, s.phase),
        (7 * K, 7 * K, Phase::CongestionAvoidance as u8)
    );
}

#[test]
fn reno_two_drops_halves_twice_without_the_recover_guard() {
    let sim = run(&scenario(
        "fall-floyd-reno-2drops",
        &[("flows[0].cc.recover_guard", "false")],
    ));
    let r = responses(&sim, 3 * SEC);
    assert_eq!(
        kinds(&r),
        vec![
            FastRetransmit,
            Retransmit,
            RecoveryExit,
            FastRetransmit,
            Retransmit,
            RecoveryExit
        ]
    );
    // The first exit is a partial ACK (hole at 28) that Reno treats as the end of recovery.
    assert_eq!(r[2].seq, 27 * K);
    assert_eq!((r[4].seg, r[4].tx), (28, 2));
    assert_eq!(state_at(&sim, 0, r[0].t).ssthresh, 7 * K);
    assert_eq!(state_at(&sim, 0, r[3].t).ssthresh, 3 * K, "halved again: floor(7/2)");
    assert!(of(&sim, Timeout).iter().all(|e| e.t > 3 * SEC));
}

#[test]
fn reno_two_drops_times_out_with_the_recover_guard() {
    let sim = run(&scenario("fall-floyd-reno-2drops", &[]));
    let r = responses(&sim, 4 * SEC);
    assert_eq!(
        kinds(&r),
        vec![
            FastRetransmit,
            Retransmit,
            RecoveryExit,
            FastRetransmitSuppressed,
            Timeout,
            Retransmit
        ]
    );
    let (exit, timeout) = (r[2], r[4]);
    assert_eq!(exit.seq, 27 * K);
    // RTO restarted by the exit ACK with RTO = 1 s (floor).
    assert_eq!(timeout.t, exit.t + SEC);
    assert_eq!((r[5].seg, r[5].tx), (28, 2));
    // ns-2 halves min(cwnd, rwnd) = 7 again and sets cwnd to one segment.
    let s = state_at(&sim, 0, timeout.t);
    assert_eq!(
        (s.cwnd, s.ssthresh, s.rto, s.phase),
        (K, 3 * K, 2 * SEC, Phase::TimeoutRecovery as u8)
    );
}

#[test]
fn reno_three_drops_times_out_then_goes_back_n() {
    let sim = run(&scenario("fall-floyd-reno-3drops", &[]));
    let r = responses(&sim, 4 * SEC);
    let ks = kinds(&r);
    assert_eq!(
        &ks[..6],
        &[
            FastRetransmit,
            Retransmit,
            RecoveryExit,
            FastRetransmitSuppressed,
            Timeout,
            Retransmit
        ]
    );
    assert_eq!(r[2].seq, 25 * K, "partial ACK stops at the hole at segment 26");
    assert_eq!(r[4].t, r[2].t + SEC);
    assert_eq!((r[5].seg, r[5].tx), (26, 2));
    // Go-back-N after the timeout resends 28 and also 29, which the receiver already holds.
    let resent: Vec<(u32, u32)> = only(&r[5..], Retransmit).iter().map(|e| (e.seg, e.tx)).collect();
    assert_eq!(resent, vec![(26, 2), (28, 2), (29, 2)]);
    assert_eq!(
        r[6].t,
        r[5].t + RTT,
        "cwnd 2 after the first ACK of the timeout recovery"
    );
}

#[test]
fn newreno_recovers_one_hole_per_rtt_without_a_timeout() {
    for (n, holes) in [(1, vec![]), (2, vec![28]), (3, vec![26, 28]), (4, vec![24, 26, 28])] {
        let sim = run(&scenario(&format!("fall-floyd-newreno-{n}drops"), &[]));
        let r = responses(&sim, 3 * SEC);
        let fr = r[0];
        assert_eq!((fr.kind, r[1].seg), (FastRetransmit, 14), "{n} drops");
        let partial = only(&r, PartialAck);
        assert_eq!(
            partial.iter().map(|p| p.seg).collect::<Vec<_>>(),
            holes,
            "{n} drops: holes resent in order"
        );
        for (i, p) in partial.iter().enumerate() {
            assert_eq!(
                p.t,
                fr.t + (i as u64 + 1) * RTT,
                "{n} drops: partial ACK {i} one RTT after the last resend"
            );
            let s = state_at(&sim, 0, p.t);
            assert_eq!((s.phase, s.ssthresh), (Phase::FastRecovery as u8, 7 * K));
            // ns-2 without partial-window deflation: the window falls back to cwnd.
            assert_eq!(s.inflated, 7 * K);
        }
        let exit = r.iter().find(|e| e.kind == RecoveryExit).unwrap();
        assert_eq!(exit.t, fr.t + n as u64 * RTT, "{n} drops: one RTT per hole");
        assert!(exit.seq >= 28 * K, "full ACK covers everything sent before the loss");
        assert_eq!(
            state_at(&sim, 0, exit.t).cwnd,
            7 * K,
            "{n} drops: full ACK option (b), cwnd = ssthresh"
        );
        assert!(of(&sim, Timeout).iter().all(|e| e.t > 3 * SEC), "{n} drops: no timeout");
    }
}

#[test]
fn newreno_partial_window_deflation_follows_rfc_6582() {
    let sim = run(&scenario(
        "fall-floyd-newreno-3drops",
        &[("flows[0].cc.newreno_partial_window", "deflate")],
    ));
    let r = responses(&sim, 3 * SEC);
    let p = only(&r, PartialAck);
    assert_eq!(p.len(), 2);
    // Before the first partial ACK the window was inflated to 7 + 3 + 11 = 21 segments
    // (14 dupacks) plus 2 more from dupacks of the segments sent during recovery…
    let before = state_at(&sim, 0, p[0].t - 1).inflated;
    // …the partial ACK acknowledges 25 − 13 = 12 segments: deflate by 12, add back one.
    assert_eq!(state_at(&sim, 0, p[0].t).inflated, before - 12 * K + K);
}

#[test]
fn tahoe_fast_retransmit_restarts_from_one_segment() {
    let sim = run(&scenario("fall-floyd-tahoe-2drops", &[]));
    let r = responses(&sim, 3 * SEC);
    assert_eq!(kinds(&r), vec![FastRetransmit, Retransmit, Retransmit]);
    let fr = r[0];
    let s = state_at(&sim, 0, fr.t);
    assert_eq!((s.cwnd, s.ssthresh, s.phase), (K, 7 * K, Phase::SlowStart as u8));
    // One RTT later the ACK jumps to the next hole; cwnd 2 sends it again (go-back-N) plus
    // one new segment.
    assert_eq!((r[2].seg, r[2].tx, r[2].t), (28, 2, fr.t + RTT));
    let next_new = of(&sim, DataSend).into_iter().find(|e| e.t > fr.t).unwrap();
    assert_eq!((next_new.seg, next_new.t), (29, fr.t + RTT));
    assert_eq!(state_at(&sim, 0, fr.t + RTT).cwnd, 2 * K);
}

#[test]
fn old_tahoe_ignores_duplicate_acks_and_waits_for_the_timer() {
    let sim = run(&scenario("fall-floyd-old-tahoe-1drops", &[]));
    let r = responses(&sim, 3 * SEC);
    assert_eq!(kinds(&r), vec![Timeout, Retransmit]);
    assert_eq!(of(&sim, FastRetransmit).len(), 0);
    let dups_before = of(&sim, DupAck).iter().filter(|e| e.t < r[0].t).count();
    assert_eq!(dups_before, 14, "segments 15–28 each produced a duplicate ACK");
    // The first ACK carrying 13000 is the last new one; the rest are its duplicates.
    let last_new_ack = of(&sim, AckReceived)
        .into_iter()
        .find(|e| e.t < r[0].t && e.seq == 13 * K)
        .unwrap();
    assert_eq!(r[0].t, last_new_ack.t + SEC, "the RTO (1 s) runs from the last new ACK");
    let s = state_at(&sim, 0, r[0].t);
    assert_eq!((s.cwnd, s.ssthresh), (K, 7 * K));
}

/// Segment 14 dropped on its first four transmissions: the fast retransmit and two
/// timeout retransmissions are lost too.
fn repeated_loss(sets: &[(&str, &str)]) -> cwndlab_core::Simulation {
    let drops = r#"[{"segment":14,"attempt":1},{"segment":14,"attempt":2},{"segment":14,"attempt":3},{"segment":14,"attempt":4}]"#;
    let mut all = vec![("flows[0].drops", drops), ("duration", "12")];
    all.extend_from_slice(sets);
    run(&scenario("fall-floyd-newreno-1drops", &all))
}

#[test]
fn repeated_timeouts_back_off_exponentially() {
    let sim = repeated_loss(&[]);
    let fr = of(&sim, FastRetransmit)[0];
    let t: Vec<u64> = of(&sim, Timeout).iter().map(|e| e.t).collect();
    assert_eq!(
        t,
        vec![fr.t + SEC, fr.t + 3 * SEC, fr.t + 7 * SEC],
        "1 s, then 2 s, then 4 s"
    );
    let rto: Vec<u64> = t.iter().map(|&x| state_at(&sim, 0, x).rto).collect();
    assert_eq!(rto, vec![2 * SEC, 4 * SEC, 8 * SEC]);
    let tries: Vec<u32> = of(&sim, Retransmit)
        .iter()
        .filter(|e| e.seg == 14)
        .map(|e| e.tx)
        .collect();
    assert_eq!(tries, vec![2, 3, 4, 5]);
    // ns-2 recomputes ssthresh each time: 7 → 3 (from cwnd 7) → 2 (from cwnd 1, floor 2).
    let ss: Vec<u64> = t.iter().map(|&x| state_at(&sim, 0, x).ssthresh).collect();
    assert_eq!(ss, vec![3 * K, 2 * K, 2 * K]);
}

#[test]
fn rfc_5681_holds_ssthresh_on_timer_retransmissions() {
    let sim = repeated_loss(&[("flows[0].cc.repeated_rto_ssthresh", "hold")]);
    let ss: Vec<u64> = of(&sim, Timeout)
        .iter()
        .map(|e| state_at(&sim, 0, e.t).ssthresh)
        .collect();
    assert_eq!(ss, vec![3 * K, 3 * K, 3 * K]);
}

#[test]
fn karn_keeps_the_backed_off_rto_until_a_fresh_sample() {
    let sim = repeated_loss(&[]);
    let last_timeout = *of(&sim, Timeout).last().unwrap();
    let srtt_before = state_at(&sim, 0, last_timeout.t).srtt;
    // The ACK of the 5th transmission of segment 14 arrives one RTT later and jumps over
    // everything buffered at the receiver. It gives no sample (the segment was resent).
    let ack = of(&sim, AckReceived)
        .into_iter()
        .find(|e| e.t > last_timeout.t)
        .unwrap();
    assert_eq!(ack.t, last_timeout.t + RTT);
    let s = state_at(&sim, 0, ack.t);
    assert_eq!((s.srtt, s.rto), (srtt_before, 8 * SEC));
    // The first new segment sent then is timed; its ACK collapses the RTO to the floor.
    let timed = of(&sim, DataSend).into_iter().find(|e| e.t >= ack.t).unwrap();
    assert_eq!(timed.t, ack.t);
    let next = of(&sim, AckReceived)
        .into_iter()
        .find(|e| e.t > ack.t && e.seq > timed.seq)
        .unwrap();
    let s = state_at(&sim, 0, next.t);
    assert_eq!(s.rto, SEC);
    assert_ne!(s.srtt, srtt_before);
}

#[test]
fn limited_transmit_sends_new_data_on_the_first_two_dupacks() {
    let sim = run(&scenario(
        "fall-floyd-reno-1drops",
        &[("flows[0].cc.limited_transmit", "true")],
    ));
    let dups: Vec<Ev> = of(&sim, DupAck).into_iter().take(3).collect();
    let sends: Vec<Ev> = of(&sim, DataSend)
        .into_iter()
        .filter(|e| e.t >= dups[0].t && e.t <= dups[2].t)
        .collect();
    assert_eq!(
        sends.iter().map(|e| (e.seg, e.t)).collect::<Vec<_>>(),
        vec![(29, dups[0].t), (30, dups[1].t)]
    );
    // cwnd itself is unchanged by Limited Transmit.
    assert_eq!(state_at(&sim, 0, dups[1].t).cwnd, state_at(&sim, 0, dups[0].t - 1).cwnd);
}

#[test]
fn the_bottleneck_queue_holds_at_most_its_limit_including_the_packet_in_service() {
    let sim = run(&scenario("fall-floyd-reno-1drops", &[]));
    let (_, q) = sim.queues()[0];
    let max = q.rows.iter().map(|r| r.1).max().unwrap();
    assert_eq!(max, 8);
    // Every queue drop happens while 8 packets are in the system.
    for d in of(&sim, QueueDrop) {
        let i = q.rows.partition_point(|r| r.0 <= d.t);
        assert_eq!(
            q.rows[i - 1].1,
            8,
            "drop at {} with {} in the system",
            d.t,
            q.rows[i - 1].1
        );
    }
}

/// Found by the fuzzing driver (engine/fuzz, seed 2 case 1582): with no multiplicative
/// decrease (ssthresh rule `none`, before Jacobson 1988 §3) ssthresh keeps the scenario's
/// initial value, which may be below one segment (tcp.initial_ssthresh = 1 B). Fast
/// recovery's window is then min(cwnd, ssthresh) = 1 B, and cwnd fell below one SMSS, the
/// least any sender holds (RFC 5681 §3.1's loss window). It is held at one SMSS.
#[test]
fn recovery_without_decrease_never_takes_cwnd_below_one_segment() {
    for variant in ["reno", "newreno"] {
        let s = scenario_from(
            serde_json::json!({"duration": 3, "flows": [{"variant": variant,
                "tcp": {"initial_ssthresh": 1, "initial_window": 10},
                "cc": {"ssthresh_rule": "none"},
                "drops": [{"segment": 2}]}]}),
            &[],
        );
        let sim = run(&s);
        assert!(!of(&sim, FastRetransmit).is_empty(), "{variant}: a fast retransmit");
        let low: Vec<_> = sim.series(0).rows.iter().filter(|r| r.1.cwnd < 1460).collect();
        assert!(
            low.is_empty(),
            "{variant}: cwnd below one SMSS: {:?}",
            &low[..low.len().min(3)]
        );
        cwndlab_core::invariants::check(&s, &sim).unwrap();
    }
}
