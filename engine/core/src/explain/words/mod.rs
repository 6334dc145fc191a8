//! The wording of every rule, by mechanism: each file holds the sentences of one family of
//! rules, one `words` function per rule on its [`view`] inputs (`impl SsAckCounting::In`),
//! reading the recorded values as typed fields (`i.cwnd`, `o.ssthresh`): a value the rule
//! does not record does not compile. The rule table (`table.rs`) calls each rule's
//! `words`, so a rule without wording does not compile either.

use super::format::{format_bps, group, ordinal, target_name};
use super::view::*;
use super::{format_ns, format_segments, format_value, ByteUnit, Unit};

mod bbr;
mod cubic;
mod endpoint;
mod increase;
mod loss;
mod timer;
mod validation;

/// How a sentence writes the values it names.
pub(crate) struct W {
    /// The unit of the byte counts it names.
    pub(crate) unit: ByteUnit,
}

impl W {
    /// A byte count, in bytes or segments.
    pub(crate) fn b(&self, v: u64) -> String {
        match self.unit {
            ByteUnit::Bytes => format_value(v, Unit::Bytes),
            ByteUnit::Segments(smss) => format_segments(v, smss),
        }
    }

    /// A duration.
    pub(crate) fn t(&self, v: u64) -> String {
        format_ns(v)
    }
}
