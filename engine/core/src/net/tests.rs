use super::*;
use crate::scenario::{LossCfg, LossModel};
use crate::trace::Table;

fn sized(size: u32) -> Packet {
    Packet { size, ..data(1, 1) }
}

#[test]
fn capacity_counts_the_packet_in_service() {
    // 1000 B at 8 kbit/s = 1 s each; capacity 3 = 1 in service + 2 waiting.
    let mut l = Link::new("t", 8_000, 0, 3, Hop::Receiver);
    assert_eq!(l.enqueue(0, sized(1000)), Enqueue::Arrives(1_000_000_000));
    assert_eq!(l.enqueue(0, sized(1000)), Enqueue::Arrives(2_000_000_000));
    assert_eq!(l.enqueue(0, sized(1000)), Enqueue::Arrives(3_000_000_000));
    assert_eq!(l.enqueue(0, sized(1000)), Enqueue::Dropped);
    // At t = 1 s the first has left: room for one more, served after the third.
    assert_eq!(l.enqueue(1_000_000_000, sized(1000)), Enqueue::Arrives(4_000_000_000));
    assert_eq!(l.occupancy(), 3);
}

#[test]
fn a_new_rate_serialises_the_next_packet_at_that_rate_whatever_its_size() {
    // 1000 B at 8 kbit/s = 1 s; at 16 kbit/s (a timeline change) the same size takes 0.5 s:
    // the serialisation time cached for that size goes with the old rate.
    let mut l = Link::new("t", 8_000, 0, 10, Hop::Receiver);
    assert_eq!(l.enqueue(0, sized(1000)), Enqueue::Arrives(1_000_000_000));
    l.set_bandwidth(16_000);
    assert_eq!(l.bandwidth(), 16_000);
    assert_eq!(l.enqueue(1_000_000_000, sized(1000)), Enqueue::Arrives(1_500_000_000));
    assert_eq!(l.last_service_time(), 500_000_000);
    // Back to the first rate, then another size: each computed anew.
    l.set_bandwidth(8_000);
    assert_eq!(l.enqueue(2_000_000_000, sized(1000)), Enqueue::Arrives(3_000_000_000));
    assert_eq!(l.enqueue(3_000_000_000, sized(500)), Enqueue::Arrives(3_500_000_000));
}

fn data(seg: u32, tx: u32) -> Packet {
    Packet {
        flow: 0,
        kind: PktKind::Data,
        seq: (seg as u64 - 1) * 1460,
        len: 1460,
        seg,
        tx,
        size: 1500,
        fate: Fate::Ok,
        ecn: 0,
    }
}

#[test]
fn ber_loss_rate_matches_its_probability_on_real_packet_identities() {
    for (ber, seed) in [(1e-7, 1u64), (1e-6, 2), (1e-5, 3)] {
        let mut l = LinkLoss::from_cfg(&LossCfg {
            model: LossModel::Ber,
            ber,
            probability: 0.0,
        });
        let n = 400_000u32;
        let lost = (1..=n).filter(|&k| l.corrupts(seed, 0, &data(k, 1))).count() as f64;
        let p = ber_packet_loss(ber, 1500);
        let expect = p * n as f64;
        let sd = (expect * (1.0 - p)).sqrt();
        assert!(
            (lost - expect).abs() < 4.0 * sd,
            "ber {ber}: {lost} lost, expected {expect:.0} ± {sd:.0}"
        );
    }
}

#[test]
fn retransmissions_and_seeds_draw_independently() {
    let mut l = LinkLoss::from_cfg(&LossCfg {
        model: LossModel::Bernoulli,
        ber: 0.0,
        probability: 0.5,
    });
    let n = 100_000u32;
    let same_tx = (1..=n)
        .filter(|&k| l.corrupts(1, 0, &data(k, 1)) == l.corrupts(1, 0, &data(k, 2)))
        .count();
    let same_seed = (1..=n)
        .filter(|&k| l.corrupts(1, 0, &data(k, 1)) == l.corrupts(2, 0, &data(k, 1)))
        .count();
    for agree in [same_tx, same_seed] {
        assert!(
            (agree as f64 - 50_000.0).abs() < 800.0,
            "{agree} of {n} agree; independent draws agree half the time"
        );
    }
}

#[test]
fn byte_capacity_applies_when_set() {
    let mut l = Link::new("t", 8_000, 5, 100, Hop::Receiver);
    l.cap_bytes = 2500;
    assert!(matches!(l.enqueue(0, sized(1000)), Enqueue::Arrives(_)));
    assert!(matches!(l.enqueue(0, sized(1000)), Enqueue::Arrives(_)));
    assert_eq!(l.enqueue(0, sized(1000)), Enqueue::Dropped);
    assert!(matches!(l.enqueue(0, sized(500)), Enqueue::Arrives(_)));
}

#[test]
fn a_passed_packet_counts_in_the_queue_until_its_transmission_ends() {
    // 8 kbit/s: a 1000-byte packet takes 1 s. Packets 1 and 3 wait for their far-end
    // event, packet 2 goes on to the next link at once (passed).
    let mut l = Link::new("t", 8_000, 0, 3, Hop::Receiver);
    l.series = Some(QueueSeries::default());
    l.enqueue(0, sized(1000));
    assert!(l.admits(0, 1000));
    let (done, arrival) = l.serve(0, 1000);
    assert_eq!((done, arrival), (2_000_000_000, 2_000_000_000));
    l.pass(0, done, 1000);
    l.enqueue(0, sized(1000));
    assert_eq!(l.occupancy(), 3);
    assert!(!l.admits(0, 1000), "the passed packet still takes a place");
    assert!(l.admits(1_000_000_000, 1000), "the first has left");
    l.drain(5_000_000_000);
    assert_eq!(l.occupancy(), 0, "all three transmitted");
    assert_eq!(l.in_flight(), 2, "packets 1 and 3 wait for their far-end events");
    // Departures are traced in time order, the passed one between the others.
    let s = l.series.as_ref().unwrap();
    assert_eq!(s.column("t", 0).unwrap(), vec![0.0, 0.0, 0.0, 1.0, 2.0, 3.0]);
    assert_eq!(s.column("packets", 0).unwrap(), vec![1.0, 2.0, 3.0, 2.0, 1.0, 0.0]);
    assert_eq!(s.rows_until(1_000_000_000), 4);
    // Untraced, the same counts without rows.
    let mut u = Link::new("u", 8_000, 0, 2, Hop::Receiver);
    let (done, _) = u.serve(0, 1000);
    u.pass(0, done, 1000);
    u.enqueue(0, sized(1000));
    assert!(!u.admits(500_000_000, 1000));
    assert!(u.admits(1_000_000_000, 1000));
    assert_eq!(u.occupancy(), 1);
}

#[test]
fn departures_are_traced_at_their_own_times() {
    let mut l = Link::new("t", 8_000, 0, 10, Hop::Receiver);
    l.series = Some(QueueSeries::default());
    l.enqueue(0, sized(1000));
    l.enqueue(0, sized(1000));
    l.drain(5_000_000_000);
    let s = l.series.unwrap();
    assert_eq!(s.column("t", 0).unwrap(), vec![0.0, 0.0, 1.0, 2.0]);
    assert_eq!(s.column("packets", 0).unwrap(), vec![1.0, 2.0, 1.0, 0.0]);
}

/// Serves `n` packets of 1000 B entering at 0 on a link of 8 kbit/s (1 s each), delay
/// 0.5 s and variation `v` ns, as the simulation does (`World::offer_at`): their
/// arrival times, in the order they reach the far end, with their entry indices.
fn arrivals(seed: u64, v: Ns, n: u32) -> Vec<(u32, Ns)> {
    let mut l = Link::new("t", 8_000, 500_000_000, 1000, Hop::Receiver);
    l.variation = v;
    l.series = Some(QueueSeries::default());
    let mut out = Vec::new();
    for k in 1..=n {
        assert!(l.admits(0, 1000));
        let (done, arrival) = l.serve(0, 1000);
        let pkt = Packet {
            size: 1000,
            ..data(k, 1)
        };
        match l.draw_variation(seed, 7) {
            Some((d, extra)) => l.hold_late(0, done, done + l.delay + extra, d, pkt),
            None => l.hold(0, done, arrival, pkt),
        }
    }
    // Far-end events in time order: the FIFO head, or the earliest late packet.
    while l.in_flight() + l.late_in_flight() > 0 {
        let late = l.late.peek().map(|r| r.0.arrival);
        let head = l.head_arrival();
        let pkt = match (head, late) {
            (Some(h), Some(t)) if t < h => l.arrive_late(t),
            (Some(h), _) => {
                out.push((0, h));
                l.arrive(h)
            }
            (None, Some(t)) => {
                out.push((0, t));
                l.arrive_late(t)
            }
            (None, None) => unreachable!(),
        };
        out.last_mut().unwrap().0 = pkt.seg;
    }
    out
}

#[test]
fn a_packet_overtakes_another_exactly_when_the_draws_say_so() {
    // Variation 3 s against 1 s between transmissions: packet k (k = 1..4) ends its
    // transmission at k s and arrives at k s + 0.5 s + draw(k − 1).
    let v = 3_000_000_000;
    let seed = 11;
    let expect: Vec<Ns> = (0..4u64)
        .map(|k| (k + 1) * 1_000_000_000 + 500_000_000 + variation_draw(seed, 7, k, v))
        .collect();
    let mut by_time: Vec<(u32, Ns)> = (0..4).map(|k| (k as u32 + 1, expect[k])).collect();
    by_time.sort_by_key(|&(seg, t)| (t, seg));
    let got = arrivals(seed, v, 4);
    assert_eq!(got, by_time);
    // This seed's draws make some packet overtake an earlier one, and the order is not
    // the order of sending; check the hand computation says so too.
    let overtakes = (0..4).any(|i| (i + 1..4).any(|j| expect[j] < expect[i]));
    assert!(overtakes, "draws {expect:?}");
    assert_ne!(got.iter().map(|a| a.0).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    // The draws themselves, by hand: the high word of hash × (v + 1).
    let h = hash_words(&[seed, 7, VARIATION_WORD, 2]);
    assert_eq!(
        variation_draw(seed, 7, 2, v),
        ((h as u128 * (v as u128 + 1)) >> 64) as Ns
    );
}

#[test]
fn variation_draws_stay_within_their_bound_and_spread_over_it() {
    for max in [1, 999, 5_000_000, 10_000_000_000] {
        let draws: Vec<Ns> = (0..10_000u64).map(|n| variation_draw(3, 0, n, max)).collect();
        assert!(draws.iter().all(|&d| d <= max), "max {max}");
        let mean = draws.iter().map(|&d| d as f64).sum::<f64>() / draws.len() as f64;
        // Uniform over [0, max]: mean max/2, sd of the mean max/√12/100.
        assert!(
            (mean - max as f64 / 2.0).abs() < 4.0 * max as f64 / 346.0 + 0.5,
            "max {max}: mean {mean}"
        );
        if max > 1000 {
            assert!(*draws.iter().min().unwrap() < max / 100, "max {max}: low end reached");
            assert!(
                *draws.iter().max().unwrap() > max - max / 100,
                "max {max}: high end reached"
            );
        }
    }
    assert_eq!(variation_draw(3, 0, 5, 0), 0);
}

#[test]
fn zero_variation_draws_nothing_and_keeps_the_fifo_arrivals() {
    let mut l = Link::new("t", 8_000, 500_000_000, 10, Hop::Receiver);
    assert_eq!(l.draw_variation(1, 0), None);
    assert_eq!(l.draws, 0);
    let got = arrivals(1, 0, 4);
    let fifo: Vec<(u32, Ns)> = (1..=4u32)
        .map(|k| (k, k as u64 * 1_000_000_000 + 500_000_000))
        .collect();
    assert_eq!(got, fifo);
    assert_eq!(l.enqueue(0, sized(1000)), Enqueue::Arrives(1_500_000_000));
}

#[test]
fn the_same_seed_gives_the_same_arrivals_and_another_seed_others() {
    let v = 2_000_000_000;
    assert_eq!(arrivals(5, v, 20), arrivals(5, v, 20));
    assert_ne!(arrivals(5, v, 20), arrivals(6, v, 20));
    // Other links and the loss draws of the same link draw apart.
    assert_ne!(variation_draw(5, 0, 0, v), variation_draw(5, 1, 0, v));
}

#[test]
fn variation_leaves_the_queue_as_it_was() {
    // Serialisation stays FIFO: the occupancy rows are the same with and without it.
    let rows = |v: Ns| {
        let mut l = Link::new("t", 8_000, 500_000_000, 3, Hop::Receiver);
        l.variation = v;
        l.series = Some(QueueSeries::default());
        let mut admitted = 0;
        for k in 0..6u64 {
            let now = k * 400_000_000;
            if !l.admits(now, 1000) {
                continue;
            }
            admitted += 1;
            let (done, arrival) = l.serve(now, 1000);
            let pkt = Packet {
                size: 1000,
                ..data(k as u32 + 1, 1)
            };
            match l.draw_variation(9, 0) {
                Some((n, extra)) => l.hold_late(now, done, done + l.delay + extra, n, pkt),
                None => l.hold(now, done, arrival, pkt),
            }
        }
        l.drain(20_000_000_000);
        (admitted, l.series.unwrap().rows)
    };
    assert_eq!(rows(0), rows(3_000_000_000));
    assert_eq!(rows(0).0, 5, "the queue of 3 refused the packet at 1.6 s");
}

#[test]
fn a_packet_stays_32_bytes_and_copy_with_its_ecn_byte() {
    fn copy<T: Copy>() {}
    copy::<Packet>();
    assert_eq!(std::mem::size_of::<Packet>(), 32);
    // RFC 3168 §5's codepoints and the TCP flags sit in one byte apart from each other.
    assert_eq!((Packet::ECT0, Packet::ECT1, Packet::CE), (0b10, 0b01, 0b11));
    assert_eq!(Packet::ECN_MASK & (Packet::ECE | Packet::CWR), 0);
}
