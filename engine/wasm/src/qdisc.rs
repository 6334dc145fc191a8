//! The data direction's queue-discipline state for the page (`qdisc` trace table): its rows
//! from a cursor, as the other tables. Beside lib.rs, which keeps the rest of `Sim`.

use crate::Sim;
use cwndlab_core::trace::Table;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl Sim {
    /// Rows in the data direction's queue-discipline series (0 under drop-tail).
    pub fn qdisc_len(&self) -> u32 {
        self.sim.bottleneck_qdisc().map_or(0, |q| q.len() as u32)
    }

    /// Queue-discipline columns from row `from`, in `QDISC_COLUMNS` order (t, avg, p,
    /// count, sojourn, dropping, drop_next, active, new, old, fattest: seconds, packets
    /// (bytes in RED's byte mode), a probability, NaN for no next drop); `columns` selects
    /// them (bit i = column i; 0x7ff = all), one after another.
    pub fn qdisc_cols(&self, from: u32, columns: u32) -> Box<[f64]> {
        self.sim
            .bottleneck_qdisc()
            .map(|q| q.columns(from as usize, columns))
            .unwrap_or_default()
            .into_boxed_slice()
    }
}
