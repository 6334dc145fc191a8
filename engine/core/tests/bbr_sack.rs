//! BBR over SACK recovery (catalogue entry `bbr_sack`), as Linux runs BBR with SACK: a
//! segment counts as delivered when first SACKed, the model's sample comes once the whole
//! ACK is read, its in-flight figure is the scoreboard's pipe, and in recovery BBR sets the
//! window itself (packet conservation for a round, then the window it saved), never PRR.
//! On the random-loss path (10 Mbit/s, 1 % loss) every retransmission is of a lost copy.

mod common;

use common::{of, scenario, SEC};
use cwndlab_core::explain::{view, Entry, Rule};
use cwndlab_core::scenario::Scenario;
use cwndlab_core::sim::Simulation;
use cwndlab_core::trace::EventKind;

fn run(s: &Scenario) -> Simulation {
    let mut sim = Simulation::new(s).explained();
    sim.run_to_end();
    sim
}

fn rule(sim: &Simulation, r: Rule) -> Vec<Entry> {
    sim.decisions().iter().filter(|e| e.d.rule == r).collect()
}

fn random_loss(algorithm: &str) -> Simulation {
    run(&scenario("bbr-random-loss", &[("flows[0].algorithm", algorithm)]))
}

#[test]
fn with_sack_bbr_resends_only_what_was_lost_and_never_times_out() {
    let sim = random_loss("bbr_sack");
    let f = &sim.summary().flows[0];
    // Every drop of a data copy is known from the blocks above it and resent once; nothing
    // that arrived is resent, so nothing is spurious, and no timer is needed.
    let drops = of(&sim, EventKind::ErrorDrop).len() + of(&sim, EventKind::QueueDrop).len();
    assert_eq!(f.spurious_retransmits, 0);
    assert_eq!(f.timeouts, 0);
    assert!(drops > 150, "{drops}");
    // Drops in the last round trip may not be resent before the end.
    assert!(
        f.retransmits as usize <= drops && f.retransmits as usize + 5 >= drops,
        "{} of {drops}",
        f.retransmits
    );
    // Without SACK, BBR (NewReno's recovery, duplicate ACKs standing in for blocks) resends
    // segments that had arrived.
    let plain = random_loss("bbr");
    let p = &plain.summary().flows[0];
    assert!(p.spurious_retransmits > 100, "{}", p.spurious_retransmits);
    assert!(p.retransmits > f.retransmits);
}

#[test]
fn in_sack_recovery_bbr_conserves_packets_then_restores_the_window_it_saved() {
    let sim = random_loss("bbr_sack");
    let starts = rule(&sim, Rule::SackRecovery);
    assert!(starts.len() > 50, "{}", starts.len());
    let start = starts[0];
    let (rin, rout) = view::SackRecovery::of(&start.d);
    // BBR keeps ssthresh and cwnd at the start (the ACK's sample sets cwnd) and saves cwnd.
    assert_eq!((rout.ssthresh, rout.cwnd), (rin.ssthresh, rin.cwnd));
    let save = rule(&sim, Rule::SsthreshBbr)
        .into_iter()
        .find(|e| e.t == start.t)
        .expect("a save");
    let (save_in, save_out) = view::SsthreshBbr::of(&save.d);
    assert_eq!(save_out.saved_cwnd, rin.cwnd);
    assert_eq!(save_in.cwnd, rin.cwnd);
    // The same ACK: packet conservation, cwnd = in flight + delivered, in flight being the
    // scoreboard's pipe before the fast retransmit left (one 1 460 B segment fewer than
    // the recovery series records after it).
    let cons = rule(&sim, Rule::BbrConservation)
        .into_iter()
        .find(|e| e.t == start.t)
        .expect("conservation");
    let (ci, co) = view::BbrConservation::of(&cons.d);
    assert_eq!(co.cwnd, ci.in_flight + ci.delivered);
    let rec = sim.recovery_series(0).expect("a SACK flow's series");
    let row = rec.rows.iter().rev().find(|r| r.0 <= start.t).expect("a row").1;
    assert!(row.in_recovery);
    assert_eq!(ci.in_flight + 1460, row.pipe);
    // The end: cwnd = max(cwnd, the saved cwnd), on the ACK that reaches RecoveryPoint.
    let exit = rule(&sim, Rule::SackRecoveryExit)
        .into_iter()
        .find(|e| e.t > start.t)
        .expect("an exit");
    let restore = rule(&sim, Rule::BbrRestore)
        .into_iter()
        .find(|e| e.t == exit.t)
        .expect("a restore");
    let (ri, ro) = view::BbrRestore::of(&restore.d);
    assert_eq!(ri.saved_cwnd, save_out.saved_cwnd);
    assert_eq!(ro.cwnd, ri.cwnd_before.max(ri.saved_cwnd));
    // PRR never sets BBR's window.
    assert!(rule(&sim, Rule::PrrSend).is_empty());
    assert!(exit.t - start.t < SEC);
}

#[test]
fn bbr_refuses_prr_and_explains_why() {
    let mut s = cwndlab_core::scenario::resolve(&serde_json::json!({"flows": [{"algorithm": "bbr_sack"}]})).unwrap();
    cwndlab_core::scenario::set_path(&mut s, "flows[0].sack.budget", serde_json::json!("prr_ssrb")).unwrap();
    let err = Scenario::from_value(&s).expect_err("refused");
    let text = format!("{err:?}");
    assert!(
        text.contains("sack.budget") && text.contains("BBR sets its own window"),
        "{text}"
    );
}

#[test]
fn every_state_change_of_bbr_with_sack_is_an_edge_of_its_machine() {
    // SACK's edges leave from and return to BBR's four states: recovery begins with
    // sack.recovery, ends with sack.recovery_exit and BBR's restore, and no NewReno edge is left.
    let s = scenario("bbr-random-loss", &[("flows[0].algorithm", "bbr_sack")]);
    let sim = run(&s);
    let m = cwndlab_core::machine::machine_of_flow(&s.flows[0]);
    assert!(!m.transitions.iter().any(|t| t.rules.contains(&Rule::BbrPartialAck)));
    let mut changes = 0;
    for e in sim.decisions().iter() {
        if e.d.from == e.d.to || e.d.from == 255 {
            continue;
        }
        changes += 1;
        let tr = m.transition_of(e.d.rule, e.d.from, e.d.to);
        assert!(tr.is_some(), "{} from {} to {}", e.d.rule.info().id, e.d.from, e.d.to);
    }
    assert!(changes > 100, "{changes}");
}
