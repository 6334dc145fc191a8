//! The sender alone, on a fake network (`tcp::testnet`): ACKs fed and timers fired at
//! explicit times, every number derived from the rule it tests.

use super::*;
use crate::scenario::Variant;
use crate::tcp::testnet::{ack, flow, syn_ack, FakeNet, MS};

/// A sender of `f` with `app` bytes written, on a fresh fake network.
fn sender(f: &FlowCfg, app: u64) -> (Sender, FakeNet) {
    let mut s = Sender::new(0, 2, f);
    s.app_written = app;
    (s, FakeNet::default())
}

/// Fires the sender's latest retransmission-timer entry at its due time.
fn fire_rto(s: &mut Sender, n: &mut FakeNet) {
    let (at, gen) = n.last_rto().expect("a timer entry");
    n.now = at;
    s.on_rto_event(n, gen);
}

fn ack_at(s: &mut Sender, n: &mut FakeNet, t: Ns, a: u64) {
    n.now = t;
    s.on_ack(n, &ack(a, 0));
}

#[test]
fn start_sends_the_initial_window_and_arms_the_timer_at_the_initial_rto() {
    let (mut s, mut n) = sender(&flow(), 100_000);
    s.start(&mut n);
    let sent = n.take_sent();
    assert_eq!(
        sent.iter().map(|p| (p.seg, p.tx, p.seq, p.size)).collect::<Vec<_>>(),
        [(1, 1, 0, 1040), (2, 1, 1000, 1040)]
    );
    assert_eq!(n.sent.len(), 0);
    // RFC 6298 (5.1): one timer, started by the first segment, at the initial RTO (2.1).
    assert_eq!(n.timers.len(), 1);
    assert_eq!(n.last_rto().map(|t| t.0), Some(1000 * MS));
    assert_eq!(n.kinds(), [EventKind::DataSend, EventKind::DataSend]);
    assert_eq!(n.copies_sent, [(1, 1), (2, 1)]);
    assert_eq!((s.snd_una, s.snd_nxt, s.snd_max), (0, 2000, 2000));
}

#[test]
fn the_first_rtt_sample_sets_srtt_rttvar_and_the_rto_rfc6298_2_2() {
    let (mut s, mut n) = sender(&flow(), 100_000);
    s.start(&mut n);
    ack_at(&mut s, &mut n, 100 * MS, 1000);
    // SRTT = R = 100 ms, RTTVAR = R/2 = 50 ms, RTO = max(200 ms, SRTT + 4·RTTVAR) = 300 ms.
    assert_eq!(
        (s.rtt.srtt(), s.rtt.rttvar(), s.rtt.rto()),
        (100 * MS, 50 * MS, 300 * MS)
    );
    assert!(n
        .log
        .contains(&(100 * MS, EventKind::RttSample, 100 * MS, 100_000, 1, 1)));
    // Slow start: one SMSS per ACK, so segments 3 and 4 leave.
    assert_eq!(s.cc.cwnd(), 3000);
    assert_eq!(n.take_segments(), [(1, 1), (2, 1), (3, 1), (4, 1)]);
    // RFC 6298 (5.3): restarted at 100 + 300 ms: earlier than the pending entry, so a new one.
    assert_eq!(n.last_rto().map(|t| t.0), Some(400 * MS));
}

#[test]
fn later_samples_update_srtt_and_rttvar_with_one_eighth_and_one_quarter_rfc6298_2_3() {
    let (mut s, mut n) = sender(&flow(), 100_000);
    s.start(&mut n);
    ack_at(&mut s, &mut n, 100 * MS, 1000); // sample 100 ms; segment 3 is timed from 100 ms
    ack_at(&mut s, &mut n, 150 * MS, 2000); // covers segment 2 only: no sample
    assert_eq!(s.rtt.srtt(), 100 * MS);
    ack_at(&mut s, &mut n, 260 * MS, 3000); // segment 3: R' = 160 ms
                                            // RTTVAR = 3/4·50 + 1/4·|100 − 160| = 52.5 ms; SRTT = 7/8·100 + 1/8·160 = 107.5 ms;
                                            // RTO = 107.5 + 4·52.5 = 317.5 ms.
    assert_eq!(
        (s.rtt.srtt(), s.rtt.rttvar(), s.rtt.rto()),
        (107_500_000, 52_500_000, 317_500_000)
    );
}

#[test]
fn the_timer_expires_backs_off_and_resends_the_first_segment_rfc6298_5_4_to_5_6() {
    let (mut s, mut n) = sender(&flow(), 100_000);
    s.start(&mut n);
    n.take_sent();
    fire_rto(&mut s, &mut n);
    assert_eq!(n.now, 1000 * MS);
    assert_eq!(s.stats.timeouts, 1);
    // (5.4) the earliest segment again; RFC 5681 (4): ssthresh = max(FlightSize/2, 2·SMSS)
    // = max(1000, 2000); (5.5) RTO doubled; (5.6) the timer restarted with it.
    assert_eq!(n.take_segments(), [(1, 2)]);
    assert_eq!((s.cc.cwnd(), s.cc.ssthresh()), (1000, 2000));
    assert_eq!(s.rtt.rto(), 2000 * MS);
    assert_eq!(n.last_rto().map(|t| t.0), Some(3000 * MS));
    assert!(n.log.contains(&(1000 * MS, EventKind::Timeout, 0, 0, 1, 1)));
    // Each further expiry doubles again: 4 s from 3 s, 8 s from 7 s.
    fire_rto(&mut s, &mut n);
    assert_eq!(
        (n.now, s.rtt.rto(), n.last_rto().map(|t| t.0)),
        (3000 * MS, 4000 * MS, Some(7000 * MS))
    );
    fire_rto(&mut s, &mut n);
    assert_eq!(
        (n.now, s.rtt.rto(), n.last_rto().map(|t| t.0)),
        (7000 * MS, 8000 * MS, Some(15_000 * MS))
    );
    assert_eq!(n.take_segments(), [(1, 3), (1, 4)]);
    assert_eq!(s.stats.timeouts, 3);
}

#[test]
fn the_backed_off_rto_stops_at_the_maximum_rfc6298_2_5() {
    let mut f = flow();
    f.rto.max = 5.0;
    let (mut s, mut n) = sender(&f, 100_000);
    s.start(&mut n);
    let mut expiries = vec![];
    for _ in 0..5 {
        fire_rto(&mut s, &mut n);
        expiries.push(n.now / MS);
    }
    assert_eq!(expiries, [1000, 3000, 7000, 12_000, 17_000]);
    assert_eq!(s.rtt.rto(), 5000 * MS);
}

#[test]
fn karn_takes_no_sample_from_a_resent_segment_and_the_backoff_stays_until_a_new_one() {
    let (mut s, mut n) = sender(&flow(), 100_000);
    s.start(&mut n);
    fire_rto(&mut s, &mut n); // 1 s: segment 1 resent, RTO 2 s
    n.take_sent();
    ack_at(&mut s, &mut n, 1100 * MS, 1000);
    // The ACK covers a resent segment: no sample, the doubled RTO stays (Karn & Partridge).
    assert_eq!((s.rtt.srtt(), s.rtt.rto()), (0, 2000 * MS));
    assert!(!n.kinds().contains(&EventKind::RttSample));
    // Restarted at 1.1 + 2 s; the entry at 3 s stays and moves the timer on when it fires.
    assert_eq!(s.rto_deadline, Some(3100 * MS));
    assert_eq!(n.last_rto().map(|t| t.0), Some(3000 * MS));
    // Go back N: cwnd 2 segments after the ACK (slow start from 1), so segment 2 is sent
    // again and segment 3 for the first time; only segment 3 may be timed.
    assert_eq!(s.cc.cwnd(), 2000);
    assert_eq!(n.take_segments(), [(2, 2), (3, 1)]);
    ack_at(&mut s, &mut n, 1200 * MS, 3000);
    // A sample from segment 3 (100 ms) ends the backoff: RTO = max(200, 100 + 4·50) ms.
    assert_eq!(
        (s.rtt.srtt(), s.rtt.rto(), s.rtt.backoff_count()),
        (100 * MS, 300 * MS, 0)
    );
}

#[test]
fn new_data_acknowledged_restarts_the_timer_and_a_stale_entry_only_reschedules_rfc6298_5_3() {
    let (mut s, mut n) = sender(&flow(), 100_000);
    s.start(&mut n);
    let (_, first_gen) = n.last_rto().unwrap();
    ack_at(&mut s, &mut n, 100 * MS, 1000); // RTO 300 ms: deadline 400 ms, a new entry
    let (at, gen) = n.last_rto().unwrap();
    assert_eq!(at, 400 * MS);
    ack_at(&mut s, &mut n, 150 * MS, 2000); // deadline 450 ms: later, so no new entry
    assert_eq!(n.last_rto(), Some((at, gen)));
    // The entry of the old generation is ignored.
    n.now = 1000 * MS;
    s.on_rto_event(&mut n, first_gen);
    assert_eq!(s.stats.timeouts, 0);
    // The entry at 400 ms finds the deadline at 450 ms: it moves there, no timeout.
    n.now = 400 * MS;
    s.on_rto_event(&mut n, gen);
    assert_eq!(s.stats.timeouts, 0);
    assert_eq!(n.last_rto().map(|t| t.0), Some(450 * MS));
    fire_rto(&mut s, &mut n);
    assert_eq!((n.now, s.stats.timeouts), (450 * MS, 1));
}

#[test]
fn the_timer_stops_when_everything_is_acknowledged_rfc6298_5_2() {
    let (mut s, mut n) = sender(&flow(), 2000);
    s.start(&mut n);
    ack_at(&mut s, &mut n, 100 * MS, 2000);
    n.take_sent();
    fire_rto(&mut s, &mut n);
    assert_eq!(s.stats.timeouts, 0);
    assert!(n.sent.is_empty());
    assert!(!n.kinds().contains(&EventKind::Timeout));
}

#[test]
fn the_send_loop_stops_at_the_receiver_window() {
    let mut f = flow();
    f.tcp.rwnd = 1500;
    f.tcp.initial_window = 4;
    let (mut s, mut n) = sender(&f, 100_000);
    s.start(&mut n);
    // A second segment would put 2000 bytes in flight, past rwnd = 1500.
    assert_eq!(n.take_segments(), [(1, 1)]);
    ack_at(&mut s, &mut n, 100 * MS, 1000);
    assert_eq!(n.take_segments(), [(2, 1)]);
}

#[test]
fn the_send_loop_sends_what_the_application_wrote_ending_with_a_short_segment() {
    let mut f = flow();
    f.tcp.initial_window = 4;
    let (mut s, mut n) = sender(&f, 2500);
    s.start(&mut n);
    let lens: Vec<u32> = n.take_sent().iter().map(|p| p.len).collect();
    assert_eq!(lens, [1000, 1000, 500]);
    assert_eq!(s.snd_max, 2500);
}

#[test]
fn a_write_into_an_open_window_leaves_at_once() {
    let (mut s, mut n) = sender(&flow(), 0);
    s.start(&mut n);
    assert!(n.sent.is_empty(), "nothing written yet");
    n.now = 5 * MS;
    assert!(s.app_write(&mut n, 1500));
    let sent: Vec<(Ns, u32)> = n.sent.iter().map(|&(t, _, p)| (t, p.len)).collect();
    assert_eq!(sent, [(5 * MS, 1000), (5 * MS, 500)]);
}

#[test]
fn a_write_behind_a_waiting_full_segment_changes_nothing() {
    let (mut s, mut n) = sender(&flow(), 3000);
    s.start(&mut n);
    // Two segments fill cwnd; a full third one waits.
    assert!(s.write_changes_nothing());
    n.take_sent();
    assert!(!s.app_write(&mut n, 1000));
    assert!(n.sent.is_empty());
    assert_eq!(s.app_written, 4000);
}

#[test]
fn nagle_holds_a_small_segment_while_data_is_unacknowledged_rfc896() {
    let mut f = flow();
    f.tcp.nagle = true;
    f.tcp.initial_window = 4;
    let (mut s, mut n) = sender(&f, 1500);
    s.cc.why.on = true;
    s.start(&mut n);
    assert_eq!(n.take_sent().iter().map(|p| p.len).collect::<Vec<_>>(), [1000]);
    let log = &s.cc.why.log;
    let nagle = (0..log.len())
        .filter_map(|i| log.get(i, 0))
        .find(|e| e.d.rule == Rule::Nagle);
    assert_eq!(
        nagle.map(|e| e.d.values[..3].to_vec()),
        Some(vec![500, 1000, 1000]),
        "len, SMSS, unacknowledged"
    );
    ack_at(&mut s, &mut n, 100 * MS, 1000);
    // Nothing unacknowledged: the small segment goes.
    assert_eq!(
        n.take_sent().iter().map(|p| (p.seq, p.len)).collect::<Vec<_>>(),
        [(1000, 500)]
    );
}

#[test]
fn a_huge_window_leaves_in_passes_of_max_pass_segments_at_the_same_instant() {
    let mut f = flow();
    f.tcp.mss = 1;
    f.tcp.initial_window = 10_000;
    let (mut s, mut n) = sender(&f, 100_000);
    n.now = 7 * MS;
    s.start(&mut n);
    assert_eq!(n.sent.len(), MAX_PASS_SEGMENTS as usize);
    // The rest waits for a pacing entry at this very instant.
    let pace: Vec<Ns> = n
        .timers
        .iter()
        .filter(|(_, e)| matches!(e, Event::Pace { .. }))
        .map(|t| t.0)
        .collect();
    assert_eq!(pace, [7 * MS]);
    s.on_pace_event(&mut n);
    assert_eq!(n.sent.len(), 2 * MAX_PASS_SEGMENTS as usize);
    s.on_pace_event(&mut n);
    assert_eq!(n.sent.len(), 10_000);
    assert!(n.sent.iter().all(|&(t, _, _)| t == 7 * MS));
}

/// A NewReno sender with IW 10 that has sent segments 1–10.
fn ten_out(variant: Variant) -> (Sender, FakeNet) {
    let mut f = flow();
    f.variant = variant;
    f.tcp.initial_window = 10;
    let (mut s, mut n) = sender(&f, 100_000);
    s.start(&mut n);
    assert_eq!(n.take_sent().len(), 10);
    (s, n)
}

fn dupacks(s: &mut Sender, n: &mut FakeNet, t: Ns, a: u64, k: u32) {
    n.now = t;
    for d in 1..=k {
        s.on_ack(n, &ack(a, d));
    }
}

#[test]
fn three_duplicate_acks_resend_the_first_segment_and_halve_the_window_rfc5681_3_2() {
    let (mut s, mut n) = ten_out(Variant::Newreno);
    dupacks(&mut s, &mut n, 100 * MS, 0, 2);
    assert!(n.sent.is_empty(), "two duplicates: counted only");
    assert_eq!(s.cc.dupacks(), 2);
    dupacks(&mut s, &mut n, 100 * MS, 0, 1);
    // ssthresh = max(FlightSize/2, 2·SMSS) = 5000; the window in force ssthresh + 3·SMSS.
    assert_eq!(n.take_segments(), [(1, 2)]);
    assert_eq!((s.cc.ssthresh(), s.cc.cwnd(), s.cc.window()), (5000, 5000, 8000));
    assert_eq!(s.stats.fast_retransmits, 1);
    assert!(n.log.contains(&(100 * MS, EventKind::FastRetransmit, 0, 0, 1, 0)));
    // Each further duplicate inflates it by one SMSS; from 11 000 new data fits beside the
    // 10 000 in flight: the 6th and 7th duplicates send segments 11 and 12.
    dupacks(&mut s, &mut n, 110 * MS, 0, 4);
    assert_eq!(s.cc.window(), 12_000);
    assert_eq!(n.take_segments(), [(11, 1), (12, 1)]);
}

#[test]
fn the_duplicate_ack_threshold_is_a_setting() {
    let mut f = flow();
    f.tcp.dupack_threshold = 2;
    f.tcp.initial_window = 10;
    let (mut s, mut n) = sender(&f, 100_000);
    s.start(&mut n);
    n.take_sent();
    dupacks(&mut s, &mut n, 100 * MS, 0, 2);
    assert_eq!(n.take_segments(), [(1, 2)]);
}

#[test]
fn a_partial_ack_resends_the_next_hole_and_a_full_ack_ends_recovery_rfc6582() {
    // Segments 1 and 4 lost: 8 duplicates (segments 2, 3, 5–10).
    let (mut s, mut n) = ten_out(Variant::Newreno);
    dupacks(&mut s, &mut n, 100 * MS, 0, 8);
    // Fast retransmit of 1, then the window 8 000 + 5 SMSS = 13 000: segments 11–13.
    assert_eq!(n.take_segments(), [(1, 2), (11, 1), (12, 1), (13, 1)]);
    // The retransmission's ACK covers 1–3: a partial ACK (3 000 < recover 10 000). It
    // resends segment 4 and deflates the window by the 3 000 acknowledged, plus one SMSS:
    // 13 000 − 3 000 + 1 000 = 11 000 against 10 000 in flight, so segment 14 leaves too.
    ack_at(&mut s, &mut n, 200 * MS, 3000);
    assert_eq!(s.cc.window(), 11_000);
    assert_eq!(n.take_segments(), [(4, 2), (14, 1)]);
    assert_eq!(s.stats.partial_acks, 1);
    assert!(n.log.contains(&(200 * MS, EventKind::PartialAck, 3000, 0, 4, 0)));
    assert_eq!(s.cc.phase(), Phase::FastRecovery);
    // Its ACK covers everything through 13: past recover, recovery ends with
    // cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS) = min(5000, 1000 + 1000), segment
    // 14 still in flight, so one more leaves.
    ack_at(&mut s, &mut n, 300 * MS, 13_000);
    assert!(n.log.iter().any(|r| r.1 == EventKind::RecoveryExit && r.2 == 13_000));
    assert_eq!(
        (s.cc.cwnd(), s.cc.ssthresh(), s.cc.phase()),
        (2000, 5000, Phase::SlowStart)
    );
    assert_eq!(n.take_segments(), [(15, 1)]);
}

#[test]
fn tahoe_goes_back_n_from_one_segment_after_three_duplicate_acks() {
    let (mut s, mut n) = ten_out(Variant::Tahoe);
    dupacks(&mut s, &mut n, 100 * MS, 0, 3);
    assert_eq!((s.cc.cwnd(), s.cc.ssthresh()), (1000, 5000));
    assert_eq!(n.take_segments(), [(1, 2)]);
    assert_eq!(s.snd_nxt, 1000, "snd_nxt back at snd_una, one segment resent");
    // The ACK for it (segments 1–3 arrived): cwnd 2, so segments 4 and 5 go again.
    ack_at(&mut s, &mut n, 200 * MS, 3000);
    assert_eq!(n.take_segments(), [(4, 2), (5, 2)]);
}

#[test]
fn the_handshake_takes_the_first_sample_from_the_syn() {
    let mut f = flow();
    f.tcp.syn = true;
    let (mut s, mut n) = sender(&f, 100_000);
    s.start(&mut n);
    assert_eq!(s.state, ConnState::SynSent);
    let syn = n.take_sent();
    assert_eq!(
        syn.iter().map(|p| (p.kind, p.tx, p.size)).collect::<Vec<_>>(),
        [(PktKind::Syn, 1, 40)]
    );
    assert_eq!(n.last_rto().map(|t| t.0), Some(1000 * MS));
    n.now = 80 * MS;
    s.on_ack(&mut n, &syn_ack());
    assert_eq!(s.state, ConnState::Established);
    // R = 80 ms: SRTT 80, RTTVAR 40, RTO = max(200, 80 + 160) = 240 ms.
    assert_eq!(
        (s.rtt.srtt(), s.rtt.rttvar(), s.rtt.rto()),
        (80 * MS, 40 * MS, 240 * MS)
    );
    assert_eq!(n.take_segments(), [(1, 1), (2, 1)]);
    assert_eq!(n.last_rto().map(|t| t.0), Some(320 * MS));
    // A second SYN-ACK (a duplicate) changes nothing.
    s.on_ack(&mut n, &syn_ack());
    assert!(n.sent.is_empty());
}

#[test]
fn a_lost_syn_is_resent_with_backoff_and_data_starts_with_a_3_s_rto_rfc6298_5_7() {
    let mut f = flow();
    f.tcp.syn = true;
    let (mut s, mut n) = sender(&f, 100_000);
    s.start(&mut n);
    fire_rto(&mut s, &mut n);
    let syn = n.take_sent();
    assert_eq!(
        syn.iter().map(|p| (p.kind, p.tx)).collect::<Vec<_>>(),
        [(PktKind::Syn, 1), (PktKind::Syn, 2)]
    );
    assert_eq!(n.last_rto().map(|t| t.0), Some(3000 * MS));
    n.now = 1050 * MS;
    s.on_ack(&mut n, &syn_ack());
    // Karn: no sample from the resent SYN; (5.7): the RTO is at least 3 s for the data.
    assert_eq!((s.rtt.srtt(), s.rtt.rto(), s.rtt.backoff_count()), (0, 3000 * MS, 0));
    assert_eq!(s.rto_deadline, Some(4050 * MS));
    assert_eq!(n.take_segments(), [(1, 1), (2, 1)]);
}

#[test]
fn an_ack_outside_the_window_is_ignored() {
    let (mut s, mut n) = sender(&flow(), 100_000);
    s.start(&mut n);
    n.take_sent();
    ack_at(&mut s, &mut n, 100 * MS, 5000); // beyond snd_max = 2000
    assert_eq!((s.snd_una, s.stats.dupacks), (0, 0));
    assert!(n.sent.is_empty());
}
