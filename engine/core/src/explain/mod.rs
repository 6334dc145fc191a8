//! Explanations: why each congestion-control and timer decision was made.
//!
//! The code that makes a decision records it at that moment, as a [`Decision`]: a stable
//! [`Rule`] (whose static [`RuleInfo`] names the source — RFC and section, paper, or the
//! kernel function of a Linux/FreeBSD profile — the formula, and the names and units of
//! its inputs and outputs), the values of those inputs (the state before) and outputs (the
//! state after), and the phase before and after. The wording of every rule lives here once
//! ([`Decision::text`]); the CLI, the wasm API and the page all read it from here.
//!
//! Recording is off unless asked for ([`Why::on`]): every call site tests one bool before it
//! gathers anything, so a run without explanations does no other work (`set_explain` on
//! `Simulation`). Entries are buffered where they are made (the congestion controller of a
//! sender, a receiver) and stamped with the time and flow by the simulation as it drains
//! them at the end of the endpoint's event, so their order is the order the rules ran in.
//!
//! This file holds the record types; beside it, one job each: `rules/` the rules by
//! mechanism, each file holding its rules' rows (id, kind, source, formula, inputs and
//! outputs, from which come [`Rule`], [`RULES`] and each rule's typed values in [`view`])
//! and their sentences (reading those typed values: a misspelt name does not compile),
//! `text.rs` the sentence with its source, `format.rs` how values are written, `log.rs` where records are kept and read back
//! (`DecisionLog`, `Why`), `json.rs` records and the rule table as JSON, `glossary.rs` the
//! terms, `doc.rs` docs/rules.md.

use crate::time::Ns;

/// The unit of a recorded value, for formatting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Bytes (`u64::MAX` = unlimited).
    Bytes,
    /// Nanoseconds, shown as seconds or milliseconds.
    Ns,
    /// A plain count.
    Count,
    /// A segment number (1 = first data segment).
    Seg,
    /// A sequence number (byte offset).
    Seq,
    /// Bits per second.
    Bps,
    /// 0 or 1.
    Flag,
    /// Thousandths (a real parameter such as binomial k, shown as k/1000).
    Milli,
    /// Packets.
    Packets,
}

impl Unit {
    /// Name used in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Bytes => "B",
            Unit::Ns => "ns",
            Unit::Count => "count",
            Unit::Seg => "segment",
            Unit::Seq => "seq",
            Unit::Bps => "bit/s",
            Unit::Flag => "flag",
            Unit::Milli => "milli",
            Unit::Packets => "packets",
        }
    }
}

/// What part of TCP a rule belongs to (the CLI's `--kind` and the page's filters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Slow start and congestion avoidance.
    Increase,
    /// A growth gate refusing growth.
    Gate,
    /// A loss response on duplicate ACKs (and the ssthresh it computes).
    Loss,
    /// Fast recovery: inflation, partial and full ACKs, exit.
    Recovery,
    /// The retransmission timer expiring, and its backoff.
    Timeout,
    /// An RTT sample and the RTO computed from it (or refused).
    Rtt,
    /// Idle and application-limited periods (restart, CWV, new CWV).
    Idle,
    /// What the sender holds or sends beyond the window (Nagle, Limited Transmit).
    Send,
    /// The receiver's acknowledgment policy (delayed ACKs).
    Ack,
    /// BBR's model of the path: its filters, states, pacing rate and cwnd.
    Model,
    /// A bottleneck queue discipline's drop (RED, CoDel).
    Queue,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 11] = [
        Kind::Increase,
        Kind::Gate,
        Kind::Loss,
        Kind::Recovery,
        Kind::Timeout,
        Kind::Rtt,
        Kind::Idle,
        Kind::Send,
        Kind::Ack,
        Kind::Model,
        Kind::Queue,
    ];

    /// Name used in JSON and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Increase => "increase",
            Kind::Gate => "gate",
            Kind::Loss => "loss",
            Kind::Recovery => "recovery",
            Kind::Timeout => "timeout",
            Kind::Rtt => "rtt",
            Kind::Idle => "idle",
            Kind::Send => "send",
            Kind::Ack => "ack",
            Kind::Model => "model",
            Kind::Queue => "queue",
        }
    }

    /// What the kind covers, one line.
    pub fn description(self) -> &'static str {
        match self {
            Kind::Increase => "slow-start and congestion-avoidance increases",
            Kind::Gate => "a growth gate refusing to grow cwnd",
            Kind::Loss => "loss responses on duplicate ACKs and the ssthresh they set",
            Kind::Recovery => "fast recovery: window inflation, partial and full ACKs, leaving it",
            Kind::Timeout => "the retransmission timer expiring and backing off",
            Kind::Rtt => "RTT samples, the RTO computed from them, Karn's rule refusing one",
            Kind::Idle => "restart after idle, CWV decays, new CWV's phases",
            Kind::Send => "data held by Nagle or sent by Limited Transmit",
            Kind::Ack => "the receiver's delayed ACKs",
            Kind::Model => "BBR's model: bandwidth and RTT filters, its states, pacing rate and cwnd",
            Kind::Queue => "a bottleneck queue discipline dropping a packet (RED at arrival, CoDel at dequeue)",
        }
    }

    /// The kind named `s`.
    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// Static description of a rule.
#[derive(Debug)]
pub struct RuleInfo {
    /// Stable id (never renamed: links and saved files refer to it).
    pub id: &'static str,
    /// Its kind.
    pub kind: Kind,
    /// Short title.
    pub title: &'static str,
    /// Where the rule comes from.
    pub source: &'static str,
    /// The formula, in the names of the inputs and outputs.
    pub formula: &'static str,
    /// Inputs: name and unit, in recording order.
    pub inputs: &'static [(&'static str, Unit)],
    /// Outputs: name and unit, in recording order (after the inputs).
    pub outputs: &'static [(&'static str, Unit)],
}

mod rules;
pub use rules::{view, Rule, RULES};

impl Rule {
    /// The rule's description.
    pub fn info(self) -> &'static RuleInfo {
        &RULES[self as usize]
    }

    /// The rule with id `id`.
    pub fn parse(id: &str) -> Option<Rule> {
        Rule::ALL.iter().copied().find(|r| r.info().id == id)
    }
}

/// Most values (inputs and outputs) a decision records.
pub const MAX_VALUES: usize = 12;

/// One decision, as recorded by the rule that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The rule.
    pub rule: Rule,
    /// Phase code before (see `Phase`).
    pub from: u8,
    /// Phase code after.
    pub to: u8,
    /// Inputs then outputs, in the rule's order.
    pub values: [u64; MAX_VALUES],
}

/// A decision with its time and flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// When.
    pub t: Ns,
    /// Which flow.
    pub flow: u32,
    /// What.
    pub d: Decision,
}

mod doc;
mod format;
mod glossary;
mod json;
mod log;
mod text;

pub use doc::markdown;
pub use format::{format_ns, format_segments, format_value, ByteUnit, ShownUnit};
pub use glossary::GLOSSARY;
pub use json::rules_json;
pub use log::{DecisionLog, Decisions, Order, Why};

impl Decision {
    /// The rule's description.
    pub fn info(&self) -> &'static RuleInfo {
        self.rule.info()
    }

    /// The inputs as (name, unit, value).
    pub fn inputs(&self) -> impl Iterator<Item = (&'static str, Unit, u64)> + '_ {
        self.info()
            .inputs
            .iter()
            .enumerate()
            .map(|(i, &(n, u))| (n, u, self.values[i]))
    }

    /// The outputs as (name, unit, value).
    pub fn outputs(&self) -> impl Iterator<Item = (&'static str, Unit, u64)> + '_ {
        let k = self.info().inputs.len();
        self.info()
            .outputs
            .iter()
            .enumerate()
            .map(move |(i, &(n, u))| (n, u, self.values[k + i]))
    }
}

#[cfg(test)]
mod tests {
    use super::format::ordinal;
    use super::*;
    use serde_json::json;

    #[test]
    fn byte_counts_in_segments_to_the_hundredth() {
        assert_eq!(format_segments(7_000, 1_000), "7 segments");
        assert_eq!(format_segments(1_000, 1_000), "1 segment");
        assert_eq!(format_segments(10_950, 1_460), "7.5 segments");
        assert_eq!(format_segments(1_461, 1_460), "1 segment");
        assert_eq!(format_segments(14_600 * 1_000, 1_460), "10 000 segments");
        assert_eq!(format_segments(1_000, 3_000), "0.33 segments");
        assert_eq!(format_segments(u64::MAX, 1_460), "∞");
        assert_eq!(format_segments(500, 0), "500 B");
    }

    #[test]
    fn a_sentence_in_segments_names_the_same_counts() {
        // Fall & Floyd's Reno at its timeout (3.281 s): 7 segments of 1 000 B in flight.
        let mut values = [0u64; MAX_VALUES];
        values[..7].copy_from_slice(&[26, 7_000, 7_000, 7_000, 1_000, 3_000, 32_000]);
        let d = Decision {
            rule: Rule::Timeout,
            from: 1,
            to: 4,
            values,
        };
        assert!(d.text().starts_with(
            "Retransmission timer expired with 7 000 B in flight: ssthresh 7 000 B → 3 000 B; cwnd = 1 000 B (loss window); resend segment 26"
        ));
        assert!(d.text_in(ByteUnit::Segments(1_000)).starts_with(
            "Retransmission timer expired with 7 segments in flight: ssthresh 7 segments → 3 segments; cwnd = 1 segment (loss window); resend segment 26"
        ));
        assert_eq!(d.text_in(ByteUnit::Bytes), d.text());
        // The JSON has both: the decision's own SMSS when it records one, else the flow's.
        let e = Entry {
            t: 3_281_080_000,
            flow: 0,
            d,
        };
        let v = e.to_json_with_segments(1_000);
        assert_eq!(v["text"], json!(d.text()));
        assert_eq!(v["text_segments"], json!(d.text_in(ByteUnit::Segments(1_000))));
    }

    #[test]
    fn the_rule_reference_is_up_to_date() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/rules.md");
        if std::env::var_os("CWNDLAB_UPDATE_DOCS").is_some() {
            std::fs::write(path, markdown()).unwrap();
        }
        let doc = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            doc == markdown(),
            "docs/rules.md is stale: run `CWNDLAB_UPDATE_DOCS=1 cargo test -p cwndlab-core --lib explain`"
        );
    }

    #[test]
    fn rule_ids_are_unique_and_fit_the_value_array() {
        let mut ids: Vec<_> = RULES.iter().map(|r| r.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), RULES.len());
        assert_eq!(Rule::ALL.len(), RULES.len());
        for r in RULES {
            assert!(r.inputs.len() + r.outputs.len() <= MAX_VALUES, "{}", r.id);
        }
        for &r in Rule::ALL {
            assert_eq!(Rule::parse(r.info().id), Some(r));
        }
    }

    #[test]
    fn a_log_keeps_each_decisions_values_read_in_the_runs_order() {
        let mut log = DecisionLog::default();
        log.push_array(Rule::CaPerAck, 2, 2, [10, 5, 1, 11]);
        log.push_array(Rule::Karn, 2, 2, [7, 8]);
        assert_eq!(log.stamp(), Some((0, 2)));
        assert_eq!(log.stamp(), None, "nothing open");
        log.push_array(Rule::SsthreshNone, 1, 1, [9, 9]);
        assert_eq!(log.stamp(), Some((2, 1)));
        let e: Vec<Entry> = (0..3).map(|i| log.get(i, 3).unwrap()).collect();
        assert_eq!((e[0].flow, &e[0].d.values[..5]), (3, &[10, 5, 1, 11, 0][..]));
        assert_eq!((e[1].d.rule, &e[1].d.values[..3]), (Rule::Karn, &[7, 8, 0][..]));
        assert_eq!(&e[2].d.values[..3], &[9, 9, 0][..]);
        // Read through an order of batches, as a run's decisions are.
        let order = [
            Order {
                t: 200,
                cum: 0,
                endpoint: 7,
                first: 2,
            },
            Order {
                t: 100,
                cum: 1,
                endpoint: 7,
                first: 0,
            },
        ];
        let d = Decisions {
            order: &order,
            logs: vec![&log; 8],
            queue_from: 8,
            total: 3,
        };
        let all: Vec<Entry> = d.iter().collect();
        assert_eq!(
            (all[0].t, all[0].flow, all[1].t, all[2].d.rule),
            (200, 3, 100, Rule::Karn)
        );
        assert_eq!(d.time_flow(2), Some((100, 3, Rule::Karn)));
        assert_eq!(d.range(1, 99).count(), 2);
        // Many decisions cross chunk boundaries whole.
        let mut big = DecisionLog::default();
        for k in 0..5000u64 {
            big.push_array(Rule::RttUpdate, 2, 2, [k; 11]);
        }
        assert_eq!(big.get(4999, 0).unwrap().d.values[10], 4999);
        assert_eq!(
            big.get(745, 0).unwrap().d.values,
            [745, 745, 745, 745, 745, 745, 745, 745, 745, 745, 745, 0]
        );
    }

    #[test]
    fn values_format_in_the_docs_style() {
        assert_eq!(format_value(14_600, Unit::Bytes), "14 600 B");
        assert_eq!(format_value(u64::MAX, Unit::Bytes), "∞");
        assert_eq!(format_value(1_500, Unit::Milli), "1.5");
        assert_eq!(format_ns(200_000_000), "200 ms");
        assert_eq!(format_ns(1_234_567), "1.235 ms");
        assert_eq!(format_ns(64_000_000_000), "64 s");
        assert_eq!(ordinal(3), "3rd");
        assert_eq!(ordinal(12), "12th");
    }

    #[test]
    fn the_fast_retransmit_text_shows_the_arithmetic() {
        let mut w = Why {
            on: true,
            log: DecisionLog::default(),
        };
        w.push(Rule::SsthreshHalfFlight, 2, 2, &[14_600, 1_460, 20_000, 7_300]);
        let d = w.log.get(0, 0).unwrap().d;
        assert_eq!(
            d.text(),
            "ssthresh = max(FlightSize/2, 2·SMSS) = max(14 600/2, 2 920) = 7 300 B (RFC 5681 §3.1 eq. (4))"
        );
        let (i, o) = view::SsthreshHalfFlight::of(&d);
        assert_eq!(
            (i.flight_size, i.smss, i.ssthresh, o.ssthresh),
            (14_600, 1_460, 20_000, 7_300)
        );
    }

    #[test]
    #[should_panic(expected = "a ssthresh.half_flight decision read as ssthresh.half_cwnd")]
    fn a_decision_read_as_another_rule_panics() {
        let d = Decision {
            rule: Rule::SsthreshHalfFlight,
            from: 2,
            to: 2,
            values: [0; MAX_VALUES],
        };
        let _ = view::SsthreshHalfCwnd::of(&d);
    }

    #[test]
    fn a_rules_view_reads_its_values_in_recording_order() {
        let mut values = [0u64; MAX_VALUES];
        for (k, v) in values.iter_mut().enumerate() {
            *v = k as u64 + 1;
        }
        let d = Decision {
            rule: Rule::CaCubic,
            from: 2,
            to: 2,
            values,
        };
        let (i, o) = view::CaCubic::of(&d);
        assert_eq!(
            (i.cwnd, i.ssthresh, i.acked, i.t, i.rtt, i.k, i.w_max),
            (1, 2, 3, 4, 5, 6, 7)
        );
        assert_eq!((i.w_cubic_t_rtt, i.w_cubic_t, i.w_est), (8, 9, 10));
        assert_eq!((o.cwnd, o.region), (11, 12));
        // The display names stay the table's.
        let names: Vec<&str> = d.inputs().map(|(n, _, _)| n).collect();
        assert_eq!(
            names[4..].to_vec(),
            ["RTT", "K", "W_max", "W_cubic(t+RTT)", "W_cubic(t)", "W_est"]
        );
    }
}
