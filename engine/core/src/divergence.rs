//! Where two runs first differ (`first_divergence`): the page's and the CLI's comparison
//! of two algorithms' decisions. It runs both simulations, so it sits above the simulation
//! (the teaching layer), not in `explain`, which the rules record into.

use crate::explain::{Decisions, Entry};
use crate::time::Ns;
use serde_json::{json, Value};

/// Where two runs first differ: the first decision, in the order made, that is not the
/// same in both (time, flow, rule, inputs and outputs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The instant: the earlier of the two differing decisions' times.
    pub t: Ns,
    /// How many decisions the runs share before it.
    pub common: usize,
    /// Run A's decisions at that instant, from the first that differs (empty: none then).
    pub a: Vec<Entry>,
    /// Run B's, likewise.
    pub b: Vec<Entry>,
}

impl Divergence {
    /// As JSON.
    pub fn to_json(&self) -> Value {
        json!({
            "t": crate::time::ns_to_secs(self.t),
            "common": self.common,
            "a": self.a.iter().map(Entry::to_json).collect::<Vec<_>>(),
            "b": self.b.iter().map(Entry::to_json).collect::<Vec<_>>(),
        })
    }
}

/// Runs `a` and `b` side by side with explanations and returns their first divergence,
/// or None when every decision of the two runs is the same. The runs advance together a
/// stretch of simulated time at a time and stop at the first difference, so an early
/// divergence costs little.
pub fn first_divergence(a: &crate::Scenario, b: &crate::Scenario) -> Option<Divergence> {
    use crate::sim::{Recording, Simulation};
    let mut sa = Simulation::new(a).explained();
    let mut sb = Simulation::new(b).explained();
    // Only the decisions are compared: keep no trace rows.
    sa.set_recording(Recording::Summary { digest: false });
    sb.set_recording(Recording::Summary { digest: false });
    let step = crate::time::NS_PER_S / 4;
    let mut compared = 0;
    loop {
        sa.advance(step);
        sb.advance(step);
        let (da, db) = (sa.decisions(), sb.decisions());
        let n = da.len().min(db.len());
        let done = sa.is_finished() && sb.is_finished();
        let common = compared
            + da.range(compared, n)
                .zip(db.range(compared, n))
                .take_while(|(x, y)| x == y)
                .count();
        compared = common;
        if common < n || (done && da.len() != db.len()) {
            let t = match (da.get(common), db.get(common)) {
                (Some(x), Some(y)) => x.t.min(y.t),
                (Some(x), None) => x.t,
                (None, Some(y)) => y.t,
                (None, None) => unreachable!("lengths differ"),
            };
            let at = |d: &Decisions| d.range(common, d.len()).take_while(|e| e.t == t).collect();
            return Some(Divergence {
                t,
                common,
                a: at(&da),
                b: at(&db),
            });
        }
        if done {
            return None;
        }
    }
}
