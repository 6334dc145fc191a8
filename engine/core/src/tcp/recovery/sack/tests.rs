//! SACK recovery alone, through a fake connection (`tcp::recovery::fake`): no sender and no
//! network, only the mechanism, its controller and the ACKs fed to it. Every number is
//! derived from the rule it tests.

use crate::net::sack::SackBlocks;
use crate::tcp::recovery::fake::{flow, FakeConn};
use crate::tcp::recovery::{Conn, Count, Recovery};
use crate::trace::EventKind;

/// A duplicate ACK of `ack` carrying the blocks `b` (bytes, most recent first).
fn blocks(b: &[(u64, u64)]) -> SackBlocks {
    let mut s = SackBlocks::default();
    for &(l, r) in b {
        s.push(l, r);
    }
    s
}

fn mechanism() -> (Recovery, FakeConn) {
    let f = flow();
    let mut r = *Recovery::for_flow(&f).expect("SACK is on");
    // Ten 1 000-byte segments written, cwnd 10 segments: the send loop sends them all
    // (numbers 1–10, bytes 0–10 000).
    let mut c = FakeConn::with_written(&f, 10, 10);
    assert_eq!(r.send_loop(&mut c), 10);
    assert_eq!(c.max(), 10_000);
    c.sent.clear();
    (r, c)
}

#[test]
fn the_catalogue_gives_a_mechanism_only_to_a_flow_that_chose_one() {
    let mut f = flow();
    assert!(Recovery::for_flow(&f).is_some());
    f.sack.enabled = false;
    assert!(Recovery::for_flow(&f).is_none());
}

#[test]
fn the_third_duplicate_ack_with_new_sack_information_starts_recovery_rfc6675_5() {
    let (mut r, mut c) = mechanism();
    // Segment 1 (bytes 0–1 000) is lost; segments 2, 3, 4 arrive and are SACKed.
    c.now = 100;
    r.on_ack(&mut c, 0, Some(&blocks(&[(1000, 2000)])));
    r.on_ack(&mut c, 0, Some(&blocks(&[(1000, 3000)])));
    assert!(c.sent.is_empty(), "two duplicate ACKs start nothing (DupThresh = 3)");
    // A duplicate ACK without new SACK information does not count (RFC 6675 §2).
    r.on_ack(&mut c, 0, Some(&blocks(&[(1000, 3000)])));
    assert!(c.sent.is_empty());
    r.on_ack(&mut c, 0, Some(&blocks(&[(1000, 4000)])));
    // Step 4: segment 1 is resent at once, and counted as a fast retransmit.
    assert_eq!(c.sent_nos(), [(1, 2)]);
    assert!(c.log.contains(&(EventKind::FastRetransmit, 0, 0, 1, 0)));
    assert_eq!(c.counts.iter().filter(|&&k| k == Count::FastRetransmit).count(), 1);
    assert_eq!(c.counts.iter().filter(|&&k| k == Count::DupAck).count(), 4);
    // ssthresh from pipe (NewReno's FlightSize/2): before the resend pipe counts segments
    // 5–10, neither SACKed nor lost (segment 1 is lost: 3 SACKed segments above it),
    // 6 000 bytes, so ssthresh = cwnd = 3 000 bytes.
    assert_eq!((c.cc().ssthresh(), c.cc().cwnd()), (3000, 3000));
    // The resend adds segment 1 to pipe (7 000 bytes): cwnd − pipe < 1 SMSS, nothing more.
    assert_eq!(r.send_loop(&mut c), 0);
    // The retransmission timer restarts with the fast retransmit.
    assert_eq!(c.rto_restarts, 1);
}

#[test]
fn after_a_timeout_only_what_was_not_sacked_is_resent_in_order_rfc6675_5_1() {
    let (mut r, mut c) = mechanism();
    // Segments 3 and 4 SACKed, then the timer expires.
    r.on_ack(&mut c, 0, Some(&blocks(&[(2000, 4000)])));
    let (flight, max) = (r.loss_flight(), c.max());
    c.cc_mut().on_timeout(flight, max, 1);
    r.on_timeout(&mut c);
    // cwnd = 1 segment after the timeout (RFC 5681 §3.1): segment 1 only.
    assert_eq!(r.send_loop(&mut c), 1);
    assert_eq!(c.sent_nos(), [(1, 2)]);
    // Its ACK empties pipe (the fake's window stays at one segment: growth is the
    // controller's business, not the mechanism's): segment 2 goes.
    c.now = 200;
    r.on_ack(&mut c, 1000, None);
    assert_eq!(r.send_loop(&mut c), 1);
    // Segment 2's ACK covers the SACKed 3 and 4 too: segment 5 next, 3 and 4 never resent.
    c.now = 300;
    r.on_ack(&mut c, 4000, None);
    assert_eq!(r.send_loop(&mut c), 1);
    assert_eq!(c.sent_nos(), [(1, 2), (2, 2), (5, 2)]);
}
