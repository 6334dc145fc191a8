//! The bottleneck's queue discipline, per direction (`network.bottleneck.qdisc`,
//! `network.bottleneck.reverse_qdisc`), and what it cannot be combined with. Each
//! discipline's own parameters live beside its rules (`red/settings.rs`,
//! `codel/settings.rs`). Part of the settings layer: it names no rule, and the scenario
//! reads it.

use crate::schema::{p, Applies, Choice, Kind, ParamDef};

/// What decides which packets a bottleneck direction's queue drops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QdiscKind {
    /// Drop an arrival only when the buffer is full (the engine's FIFO link, unchanged).
    DropTail,
    /// Random Early Detection (Floyd & Jacobson 1993): drops at arrival with a probability
    /// that grows with the average queue.
    Red,
    /// Controlled Delay (RFC 8289): drops at dequeue while packets have waited longer than
    /// the target for at least an interval.
    Codel,
    /// Flow queueing with CoDel (RFC 8290): the flows hashed into queues served by deficit
    /// round robin, each with its own CoDel.
    FqCodel,
    /// Proportional Integral controller Enhanced (RFC 8033): drops at arrival with a
    /// probability updated from the queueing delay and its trend.
    Pie,
    /// Step marking (RFC 8257 §3.1): CE on an ECN-capable arrival that finds more than K
    /// packets queued; drop-tail otherwise.
    Step,
}
crate::scenario::json::names!(QdiscKind { DropTail = "droptail", Red = "red", Codel = "codel", FqCodel = "fq_codel", Pie = "pie", Step = "step" });

/// What the bottleneck's disciplines cannot be combined with, as (setting, problem).
pub fn clashes(b: &crate::scenario::BottleneckCfg) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let managed = [
        ("network.bottleneck.qdisc", b.qdisc),
        ("network.bottleneck.reverse_qdisc", b.reverse_qdisc),
    ];
    for (name, q) in managed {
        if q != QdiscKind::DropTail && b.scheduler == crate::scenario::SchedulerKind::Reservation {
            out.push((
                name,
                format!(
                    "= \"{}\" cannot be combined with network.bottleneck.scheduler = \"reservation\": the scheduler keeps a drop-tail queue per class (use the fifo scheduler with a queue discipline)",
                    q.name()
                ),
            ));
        }
    }
    if b.qdisc == QdiscKind::Red || b.reverse_qdisc == QdiscKind::Red {
        out.extend(super::red::settings::clashes(&b.red));
    }
    out
}

const QDISCS: &[Choice] = &[
    Choice { value: "droptail", label: "Drop-tail", help: help!("Drop an arriving packet only when the buffer (queue_packets, queue_bytes) is full.") },
    Choice { value: "red", label: "RED", help: help!("Random Early Detection (Floyd & Jacobson 1993): an average of the queue, and drops at arrival with a probability rising from 0 at red.min_th to red.max_p at red.max_th, spaced by the count since the last drop.") },
    Choice { value: "codel", label: "CoDel", help: help!("Controlled Delay (RFC 8289): each packet's time in the queue is measured as it leaves; once it has stayed above codel.target for codel.interval, packets are dropped at intervals of interval/√count until it falls below.") },
    Choice { value: "fq_codel", label: "FQ-CoDel", help: help!("Flow queueing with CoDel (RFC 8290): flows are hashed into fq_codel.flows queues served by deficit round robin (fq_codel.quantum bytes a turn, new queues first), each with its own CoDel; when full, the queue with the largest backlog loses packets from its head.") },
    Choice { value: "pie", label: "PIE", help: help!("Proportional Integral controller Enhanced (RFC 8033): every pie.tupdate the drop probability moves by α·(delay − pie.target) + β·(delay − previous delay); arrivals are dropped with that probability after a burst allowance.") },
    Choice { value: "step", label: "Step marking", help: help!("DCTCP's switch queue (RFC 8257 §3.1): an ECN-capable arrival that finds more than step.k packets queued is marked CE; nothing is dropped but by the full buffer.") },
];

/// Each discipline's parameters act only while a bottleneck direction runs it: the page
/// shows them only then and docs/parameters.md says so (`schema::Applies`). Read from each
/// discipline's own schema rows, so a parameter added there is covered.
pub(crate) fn applies() -> Vec<Applies> {
    const WHEN: &str = "network.bottleneck.qdisc";
    const ALSO: &[&str] = &["network.bottleneck.reverse_qdisc"];
    let own: [(&'static [&'static str], Vec<ParamDef>); 5] = [
        (&["red"], super::red::settings::params()),
        (&["codel"], super::codel::settings::params()),
        (&["fq_codel"], super::fq_codel::settings::params()),
        (&["pie"], super::pie::settings::params()),
        (&["step"], super::step::settings::params()),
    ];
    own.into_iter()
        .flat_map(|(values, rows)| {
            rows.into_iter().map(move |p| Applies {
                path: p.path,
                when: WHEN,
                values,
                also: ALSO,
            })
        })
        .collect()
}

/// The schema's rows for the discipline choice (`schema::params` places them).
pub(crate) fn params() -> Vec<ParamDef> {
    vec![
        p!("network.bottleneck.qdisc", "Queue discipline", "network", "", Kind::Enum { options: QDISCS, default: "droptail" }, false, None,
            "What decides which packets the data direction of the bottleneck drops. The buffer's capacity (queue_packets, queue_bytes) still applies under every discipline. Needs the fifo scheduler."),
        p!("network.bottleneck.reverse_qdisc", "Queue discipline (ACK direction)", "network", "", Kind::Enum { options: QDISCS, default: "droptail" }, false, None,
            "The same for the ACK direction of the bottleneck, with its own state and the same parameters."),
    ]
}
