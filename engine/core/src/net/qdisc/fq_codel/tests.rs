use super::*;
use crate::net::Fate;

fn pkt(flow: u32, seg: u32, size: u32) -> Packet {
    Packet {
        flow,
        kind: PktKind::Data,
        seq: 0,
        len: size - 40,
        seg,
        tx: 1,
        size,
        fate: Fate::Ok,
        ecn: 0,
    }
}

fn fq(limit: u64, batch: u64) -> FqCodel {
    let c = FqCodelCfg {
        limit,
        drop_batch_size: batch,
        ..FqCodelCfg::default()
    };
    let f = FqCodel::new(&c, 1, 0);
    assert_ne!(
        f.classify(&pkt(0, 0, 40)),
        f.classify(&pkt(1, 0, 40)),
        "flows 0 and 1 share a queue"
    );
    assert_ne!(f.classify(&pkt(1, 0, 40)), f.classify(&pkt(2, 0, 40)));
    assert_ne!(f.classify(&pkt(0, 0, 40)), f.classify(&pkt(2, 0, 40)));
    f
}

fn never(_: usize, _: u64) -> bool {
    false
}

/// Dequeues everything at `now` (no sojourn, so CoDel never drops): (flow, seg) in order.
fn drain(f: &mut FqCodel, now: Ns) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut dropped = Vec::new();
    while let Some((p, _)) = f.dequeue(now, &mut dropped) {
        out.push((p.flow, p.seg));
    }
    assert!(dropped.is_empty());
    out
}

#[test]
fn the_hash_is_deterministic_and_tells_tcp_from_udp() {
    let f = fq(10_240, 64);
    let g = FqCodel::new(&FqCodelCfg::default(), 1, 0);
    let udp = Packet {
        kind: PktKind::Udp,
        ..pkt(0, 0, 40)
    };
    assert_eq!(
        f.classify(&pkt(0, 5, 1500)),
        g.classify(&pkt(0, 9, 40)),
        "the flow, not the packet"
    );
    assert_ne!(
        f.classify(&pkt(0, 0, 1500)),
        f.classify(&udp),
        "TCP flow 0 and UDP source 0"
    );
    assert!((0..64).all(|k| f.classify(&pkt(k, 0, 40)) < 1024));
}

#[test]
fn deficit_round_robin_with_a_1514_byte_quantum() {
    // Flow 0 queues three 1 500 B packets, then flow 1 forty 40 B packets, all at t = 0.
    // Both queues join the new list with deficit 1 514. Flow 0 sends a1 (deficit 14 > 0,
    // so it may still send) and a2 (−1 486); its deficit is spent: + 1 514 = 28, to the old
    // list. Flow 1 sends while its deficit is positive: 1 514 − 40·37 = 34 > 0, so 38
    // packets (the 38th overdraws to −6), then + 1 514 = 1 508 and to the old list behind
    // flow 0. Flow 0 (28 > 0) sends a3 (−1 472); next turn + 1 514 = 42 and to the tail;
    // flow 1 sends b39 and b40.
    let mut f = fq(10_240, 64);
    for s in 1..=3 {
        f.enqueue(0, pkt(0, s, 1500), never, &mut Vec::new());
    }
    for s in 1..=40 {
        f.enqueue(0, pkt(1, s, 40), never, &mut Vec::new());
    }
    assert_eq!(f.lists(), (2, 0));
    let order = drain(&mut f, 0);
    let mut want = vec![(0, 1), (0, 2)];
    want.extend((1..=38).map(|s| (1, s)));
    want.extend([(0, 3), (1, 39), (1, 40)]);
    assert_eq!(order, want);
    assert_eq!(
        (f.len, f.bytes, f.lists()),
        (0, 0, (0, 0)),
        "empty queues leave the lists"
    );
}

#[test]
fn a_new_flow_is_served_before_an_old_one() {
    // Flow 0 is backlogged and has spent its first quantum (on the old list). Flow 1's
    // single packet arrives: its queue joins the new list and goes next, ahead of flow 0's
    // waiting packets. Emptied, it moves from new to old behind flow 0 (RFC 8290 §4.2):
    // flow 0's spent deficit (−1 472) sends it to the tail with 42, and flow 1's old-list
    // turn finds it empty, so it leaves the lists; flow 0 sends.
    let mut f = fq(10_240, 64);
    for s in 1..=6 {
        f.enqueue(0, pkt(0, s, 1500), never, &mut Vec::new());
    }
    let mut d = Vec::new();
    let first: Vec<u32> = (0..3).map(|_| f.dequeue(0, &mut d).unwrap().0.seg).collect();
    assert_eq!(first, vec![1, 2, 3]);
    assert_eq!(f.lists(), (0, 1));
    f.enqueue(0, pkt(1, 1, 1500), never, &mut d);
    assert_eq!(f.lists(), (1, 1));
    assert_eq!(f.dequeue(0, &mut d).unwrap().0.flow, 1, "the new flow goes first");
    // Flow 1's queue is empty but still on the new list (deficit 14 > 0).
    assert_eq!(f.lists(), (1, 1));
    let p = f.dequeue(0, &mut d).unwrap().0;
    assert_eq!((p.flow, p.seg), (0, 4));
    assert_eq!(f.lists(), (0, 1));
    assert_eq!(drain(&mut f, 0), vec![(0, 5), (0, 6)]);
    assert!(d.is_empty());
}

#[test]
fn an_overflow_cuts_the_fattest_queue_from_its_head() {
    // Limit 10: flow 0 holds 7 × 1 500 B (10 500 B), flow 1 3 × 1 500 B; flow 2's arrival
    // is the 11th. The fattest queue is flow 0's: it drops from its head until half its
    // backlog (5 250 B) is gone: 4 packets (6 000 B), and its CoDel count grows by 4. With a
    // batch of 1, one packet.
    for (batch, gone) in [(64, 4u32), (1, 1)] {
        let mut f = fq(10, batch);
        let mut d = Vec::new();
        for s in 1..=7 {
            f.enqueue(0, pkt(0, s, 1500), never, &mut d);
        }
        for s in 1..=3 {
            f.enqueue(0, pkt(1, s, 1500), never, &mut d);
        }
        assert!(d.is_empty());
        f.enqueue(0, pkt(2, 1, 1500), never, &mut d);
        let q0 = f.classify(&pkt(0, 0, 1500));
        let segs: Vec<u32> = d.iter().map(|(p, _)| p.seg).collect();
        assert_eq!(segs, (1..=gone).collect::<Vec<_>>(), "batch {batch}");
        assert!(d.iter().all(|(p, _)| p.flow == 0));
        let (_, why) = d[d.len() - 1];
        assert_eq!(
            why,
            FqWhy {
                queue: q0,
                cause: FqCause::Overflow {
                    backlog: 10_500,
                    waiting: 11,
                    nth: gone
                }
            }
        );
        assert_eq!(f.len, 11 - gone as usize);
        assert_eq!(f.codel(q0).count, gone);
    }
    // The buffer's capacity cuts too: a byte cap of 4 000 B with two 1 500 B packets
    // waiting takes the third by cutting the fattest (flow 0's two packets, 3 000 B: half
    // is 1 500 B, one packet).
    let mut f = fq(10_240, 64);
    let mut d = Vec::new();
    let cap = |_: usize, b: u64| b > 4000;
    f.enqueue(0, pkt(0, 1, 1500), cap, &mut d);
    f.enqueue(0, pkt(0, 2, 1500), cap, &mut d);
    f.enqueue(0, pkt(1, 1, 1500), cap, &mut d);
    assert_eq!(d.iter().map(|(p, _)| (p.flow, p.seg)).collect::<Vec<_>>(), vec![(0, 1)]);
    // A batch that does not make room is followed by another: with batches of one, forty
    // 50 B packets of flow 0 (2 000 B, the fattest) and a byte cap of 2 800 B, a 1 000 B
    // arrival of flow 1 (3 000 B in all) cuts flow 0's head four times: 2 800 B then hold.
    let mut f = fq(10_240, 1);
    let mut d = Vec::new();
    let cap = |_: usize, b: u64| b > 2800;
    for k in 1..=40 {
        f.enqueue(0, pkt(0, k, 50), cap, &mut d);
    }
    assert!(d.is_empty());
    f.enqueue(0, pkt(1, 1, 1000), cap, &mut d);
    assert_eq!(
        d.iter().map(|(p, _)| (p.flow, p.seg)).collect::<Vec<_>>(),
        vec![(0, 1), (0, 2), (0, 3), (0, 4)]
    );
    assert_eq!((f.len, f.bytes), (37, 2800));
}

#[test]
fn each_queue_runs_its_own_codel() {
    // Flow 0's packets waited 20 ms with ten behind; flow 1 sends one packet at a time,
    // refilled at each tick once its queue is empty: only flow 0's CoDel ever drops. Its
    // first_above is set at its first dequeue past target (t = 1 s + 100 ms), and its first
    // drop comes at the first dequeue after that.
    let ms = 1_000_000;
    let mut f = fq(10_240, 64);
    let mut d = Vec::new();
    let mut t = 1000 * ms;
    let mut seg = 0;
    while t <= 1200 * ms {
        while f.backlog(f.classify(&pkt(0, 0, 1500))) < 15_000 {
            seg += 1;
            f.enqueue(t - 20 * ms, pkt(0, seg, 1500), never, &mut d);
        }
        if f.backlog(f.classify(&pkt(1, 0, 1500))) == 0 {
            seg += 1;
            f.enqueue(t, pkt(1, seg, 1500), never, &mut d);
        }
        f.dequeue(t, &mut d);
        t += ms;
    }
    assert!(!d.is_empty());
    assert!(d
        .iter()
        .all(|(p, w)| p.flow == 0 && matches!(w.cause, FqCause::Codel(_))));
    let FqCause::Codel(c) = d[0].1.cause else {
        unreachable!()
    };
    assert_eq!((c.first_above, c.count, c.entered), (1100 * ms, 1, 1));
}

#[test]
fn an_overflow_of_packets_of_zero_bytes_still_cuts_one() {
    // tcp.header = 0 makes a SYN or a pure ACK a packet of 0 bytes. With only such packets
    // waiting every queue's backlog is 0 bytes; the fattest must still be one that holds a
    // packet (the fuzzing driver, seed 8 case 53 437: an empty queue was cut forever).
    let mut f = fq(1, 64);
    let zero = |flow: u32| Packet {
        len: 0,
        ..pkt(flow, 0, 40)
    };
    let (a, b) = (f.classify(&zero(0)), f.classify(&zero(1)));
    let mut dropped = Vec::new();
    f.enqueue(0, Packet { size: 0, ..zero(1) }, never, &mut dropped);
    let (active, backlog, at) = f.fattest();
    assert_eq!(
        (active, backlog, at),
        (0, 0, b),
        "queue {a} is empty, {b} holds the packet"
    );
    // Over a one-packet limit: the second zero-byte arrival makes an overflow cut one.
    f.enqueue(0, Packet { size: 0, ..zero(0) }, never, &mut dropped);
    assert_eq!(dropped.len(), 1);
    assert_eq!(drain(&mut f, 0).len(), 1);
}
