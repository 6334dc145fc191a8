//! A decision's sentence: its rule's wording (in `rules/`, by mechanism) on the recorded
//! numbers, then the rule's source (`Decision::text`, `Decision::text_in`).

use super::rules::W;
use super::*;

impl Decision {
    /// The explanation in words, with the arithmetic on the recorded numbers (byte counts
    /// in bytes).
    pub fn text(&self) -> String {
        self.text_in(ByteUnit::Bytes)
    }

    /// The explanation in words with the byte counts it names written in `unit`: the page
    /// shows it in segments, the plots' unit. Only the counts the sentence names change;
    /// its arithmetic on raw byte values (FlightSize/2 and the like) stays in bytes.
    pub fn text_in(&self, unit: ByteUnit) -> String {
        let body = self.words(&W { unit });
        format!("{body} ({})", self.info().source)
    }
}
