//! What the sender holds or sends beyond the window (Nagle, Limited Transmit) and the receiver's delayed ACKs.
//!
//! Each rule's sentence, with the arithmetic on its recorded values: `i` its inputs, `o` its
//! outputs (fields of its [`view`] module, so a misspelt name does not compile), `w` how
//! values are written.

use super::*;

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

impl DelAckSecond::In {
    pub(crate) fn words(i: &Self, _o: &DelAckSecond::Out, w: &W) -> String {
        format!(
            "Delayed ACK: {} unacknowledged reaches 2·SMSS = {}, ACK at once",
            w.b(i.unacknowledged),
            w.b(2 * i.smss)
        )
    }
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
