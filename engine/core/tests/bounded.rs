//! Bounded recording (`bounded.rs`): a run reduced as it goes keeps a full run's digest,
//! summary and rounds; what it stores is the full run's rows up to where the reduction
//! began, then the reduction of the rest (`bounded::reduce` on the full rows); and what it
//! stores stays within its budget, however long the run.

mod common;

use common::scenario_from;
use cwndlab_core::bounded::{self, Reducible};
use cwndlab_core::presets;
use cwndlab_core::sim::Simulation;
use cwndlab_core::trace::EventRow;
use serde_json::json;

/// Runs `s` in slices of `slice` ns as the page's worker does, reducing after each.
fn bounded_run(s: &cwndlab_core::scenario::Scenario, budget: u64, buckets: u64, slice: u64) -> Simulation {
    let mut sim = Simulation::new(s);
    sim.set_bounded(budget, buckets);
    while !sim.is_finished() {
        sim.advance(slice);
        sim.reduce_rows();
    }
    sim
}

/// The rows of `full` up to `from`, then the reduction of the rest.
fn expected<R: Reducible + PartialEq + std::fmt::Debug>(full: &[R], from: usize, width: u64) -> Vec<R> {
    let mut out = full[..from].to_vec();
    out.extend(bounded::reduce(&full[from..], width));
    out
}

/// Compares every reduced table of `b` with the reduction of `full`'s rows.
fn same_as_reduced_full(full: &Simulation, b: &Simulation, name: &str) {
    let began = b.reduction().unwrap_or_else(|| panic!("{name}: the reduction began"));
    let n = full.flow_count();
    for f in 0..n {
        assert_eq!(
            b.series(f).rows,
            expected(&full.series(f).rows, began.full_rows[f], began.width),
            "{name}: series of flow {f}"
        );
    }
    let want: Vec<EventRow> = expected(&full.events().rows, began.full_rows[n], began.width);
    assert_eq!(b.events().rows.len(), want.len(), "{name}: event rows");
    assert_eq!(b.events().rows, want, "{name}: events");
    for (q, ((_, fq), (_, bq))) in full.queues().iter().zip(b.queues()).enumerate() {
        assert_eq!(
            bq.rows,
            expected(&fq.rows, began.full_rows[n + 1 + q], began.width),
            "{name}: queue {q}"
        );
    }
}

#[test]
fn every_preset_reduced_keeps_the_full_runs_digest_summary_rounds_and_reduces_its_rows() {
    for p in presets::all() {
        let s = p.scenario().expect("valid preset");
        let mut full = Simulation::new(&s);
        full.run_to_end();
        // Budget 0: the reduction begins after the first slice; 64 buckets: it drops rows.
        let b = bounded_run(&s, 0, 64, 250_000_000);
        assert_eq!(full.digest(), b.digest(), "{}: digest", p.name);
        assert_eq!(
            serde_json::to_value(full.summary()).unwrap(),
            serde_json::to_value(b.summary()).unwrap(),
            "{}: summary",
            p.name
        );
        for f in 0..full.flow_count() {
            assert_eq!(full.rounds(f), b.rounds(f), "{}: rounds of flow {f}", p.name);
        }
        same_as_reduced_full(&full, &b, &p.name);
    }
}

/// The page's case, shortened: the default scenario at 100 Mbit/s.
fn fast(duration: &str) -> cwndlab_core::scenario::Scenario {
    scenario_from(
        json!({}),
        &[("network.bottleneck.bandwidth", "100000000"), ("duration", duration)],
    )
}

#[test]
fn a_fast_run_stays_within_its_budget_and_reduces_like_the_full_rows() {
    let s = fast("6");
    let mut full = Simulation::new(&s);
    full.run_to_end();
    let (budget, buckets) = (20_000, 256);
    let b = bounded_run(&s, budget, buckets, 20_000_000);
    assert_eq!(full.digest(), b.digest());
    assert_eq!(
        serde_json::to_value(full.summary()).unwrap(),
        serde_json::to_value(b.summary()).unwrap()
    );
    assert_eq!(full.rounds(0), b.rounds(0));
    same_as_reduced_full(&full, &b, "fast");

    let began = b.reduction().expect("began").clone();
    let n = b.flow_count();
    let stored = |sim: &Simulation| -> usize {
        (0..n).map(|f| sim.series(f).rows.len()).sum::<usize>()
            + sim.events().rows.len()
            + sim.queues().iter().map(|(_, q)| q.rows.len()).sum::<usize>()
    };
    let full_rows: usize = began.full_rows.iter().sum();
    // Kept in full: the budget and at most one slice over it.
    assert!(
        full_rows as u64 > budget,
        "the budget was passed before the reduction began"
    );
    // Per bucket at most: per flow 2 + 2·8 series rows; per flow and routine kind 2 + 2·4
    // event rows; per queue 2 + 2·2 rows. Notable events are kept in full.
    let notable = full.events().rows[began.full_rows[n]..]
        .iter()
        .filter(|r| !bounded::routine(r.kind))
        .count();
    let kinds = 7;
    let per_bucket = n * 18 + n * kinds * 10 + b.queues().len() * 6;
    let reduced = stored(&b) - full_rows;
    assert!(
        reduced <= (buckets as usize + 1) * per_bucket + notable,
        "{reduced} rows for {buckets} buckets"
    );
    // And the reduction is real: the full run stores several times as many rows.
    let all = stored(&full);
    assert!(all > 5 * stored(&b), "full {all} rows, bounded {}", stored(&b));
}

#[test]
fn a_run_below_its_budget_is_recorded_in_full() {
    let s = fast("1");
    let mut full = Simulation::new(&s);
    full.run_to_end();
    let b = bounded_run(&s, 100_000_000, 4096, 20_000_000);
    assert!(b.reduction().is_none());
    assert_eq!(full.events().rows, b.events().rows);
    assert_eq!(full.series(0).rows, b.series(0).rows);
    assert_eq!(full.digest(), b.digest());
}

#[test]
fn a_reduced_bucket_keeps_first_last_and_each_columns_extremes_in_order() {
    use cwndlab_core::trace::FlowState;
    let row = |t: u64, cwnd: u64, srtt: u64| {
        (
            t,
            FlowState {
                cwnd,
                srtt,
                ..FlowState::default()
            },
        )
    };
    // One bucket of width 10: cwnd 5, 9 (max), 1 (min), 4, 6 (last); srtt 3 at the first,
    // 7 (max) at the fourth, 2 (min) at the fifth. Then one row in the next bucket.
    let rows = vec![
        row(0, 5, 3),
        row(1, 9, 3),
        row(2, 1, 3),
        row(3, 4, 7),
        row(4, 6, 2),
        row(5, 5, 3),
        row(12, 8, 8),
    ];
    let kept = bounded::reduce(&rows, 10);
    assert_eq!(
        kept,
        vec![rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6]]
    );
    // A bucket whose middle rows hold no extreme loses them.
    let flat = vec![
        row(0, 5, 3),
        row(1, 5, 3),
        row(2, 5, 3),
        row(3, 6, 3),
        row(4, 5, 3),
        row(9, 5, 3),
    ];
    assert_eq!(bounded::reduce(&flat, 10), vec![flat[0], flat[3], flat[5]]);
    // Events: notable kinds are all kept; routine ones per flow and kind.
    let ev = |t: u64, kind: u8, seq: u64, flow: u16| EventRow {
        t,
        seq,
        len: 1460,
        seg: 0,
        tx: 1,
        flow,
        kind,
    };
    let send = cwndlab_core::trace::EventKind::DataSend as u8;
    let drop = cwndlab_core::trace::EventKind::QueueDrop as u8;
    let evs = vec![
        ev(0, send, 0, 0),
        ev(1, send, 1460, 1),
        ev(2, send, 2920, 0),
        ev(3, drop, 2920, 0),
        ev(4, send, 4380, 0),
        ev(5, send, 5840, 0),
        ev(6, drop, 5840, 0),
    ];
    // Flow 0's sends: first (0, also min seq) and last (5, max seq); flow 1's only send;
    // both drops.
    assert_eq!(bounded::reduce(&evs, 10), vec![evs[0], evs[1], evs[3], evs[5], evs[6]]);
}
