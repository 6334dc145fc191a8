//! What the sender holds or sends beyond the window (Nagle, Limited Transmit) and the
//! receiver's delayed ACKs.
//!
//! Each rule's row, then its sentence with the arithmetic on its recorded values: `i` its
//! inputs, `o` its outputs (fields of the module its row makes, so a misspelt name does not
//! compile), `w` how values are written.

use super::*;

rule! {
    Nagle = "send.nagle", Send, "Nagle: a small segment waits",
        "RFC 896; RFC 1122 §4.2.3.4", "hold a segment shorter than SMSS while data is unacknowledged",
        [length: Bytes, smss = "SMSS": Bytes, unacknowledged: Bytes] => []
}

impl Nagle::In {
    pub(crate) fn words(i: &Self, _o: &Nagle::Out, w: &W) -> String {
        format!(
            "Nagle: a {} segment (< SMSS {}) waits while {} are unacknowledged",
            w.b(i.length),
            w.b(i.smss),
            w.b(i.unacknowledged)
        )
    }
}

rule! {
    LimitedTransmit = "send.limited_transmit", Send, "Limited Transmit: a new segment on a duplicate ACK",
        "RFC 3042; RFC 5681 §3.2 step 1", "on the 1st and 2nd duplicate ACK, send one new segment beyond cwnd",
        [dupacks: Count, cwnd: Bytes, flight: Bytes, segment: Seg] => []
}

impl LimitedTransmit::In {
    pub(crate) fn words(i: &Self, _o: &LimitedTransmit::Out, w: &W) -> String {
        format!(
            "Limited Transmit: duplicate ACK {} lets new segment {} leave beyond cwnd {} ({} in flight)",
            i.dupacks,
            group(i.segment),
            w.b(i.cwnd),
            w.b(i.flight)
        )
    }
}

rule! {
    DelAckHold = "ack.delay", Ack, "Delayed ACK: the ACK waits",
        "RFC 1122 §4.2.3.2; RFC 5681 §4.2", "in-order data, less than 2·SMSS unacknowledged: wait up to the delayed-ACK timeout",
        [unacknowledged: Bytes, smss = "SMSS": Bytes, timeout: Ns] => []
}

impl DelAckHold::In {
    pub(crate) fn words(i: &Self, _o: &DelAckHold::Out, w: &W) -> String {
        format!(
            "Delayed ACK: {} in order unacknowledged (< 2·SMSS = {}), the ACK waits up to {}",
            w.b(i.unacknowledged),
            w.b(2 * i.smss),
            w.t(i.timeout)
        )
    }
}

rule! {
    DelAckSecond = "ack.every_second", Ack, "Delayed ACK: every second full segment is acknowledged",
        "RFC 1122 §4.2.3.2; RFC 5681 §4.2", "ACK at once when 2·SMSS or more is unacknowledged",
        [unacknowledged: Bytes, smss = "SMSS": Bytes] => []
}

impl DelAckSecond::In {
    pub(crate) fn words(i: &Self, _o: &DelAckSecond::Out, w: &W) -> String {
        format!(
            "Delayed ACK: {} unacknowledged reaches 2·SMSS = {}, ACK at once",
            w.b(i.unacknowledged),
            w.b(2 * i.smss)
        )
    }
}

rule! {
    DelAckTimer = "ack.timer", Ack, "Delayed-ACK timer: the waiting ACK leaves",
        "RFC 1122 §4.2.3.2 (at most 500 ms)", "the timer fired: send the ACK",
        [unacknowledged: Bytes, timeout: Ns] => []
}

impl DelAckTimer::In {
    pub(crate) fn words(i: &Self, _o: &DelAckTimer::Out, w: &W) -> String {
        format!(
            "Delayed-ACK timer ({}) fired: the ACK for {} leaves",
            w.t(i.timeout),
            w.b(i.unacknowledged)
        )
    }
}
