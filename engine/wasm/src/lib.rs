//! wasm-bindgen wrapper of the cwndlab engine: the scenario goes in once as JSON; results
//! come out as typed-array columns (copied, JS-owned, transferable), rows from a cursor.
//!
//! Times are seconds (f64); sizes bytes; no u64/BigInt crosses the boundary.
//!
//! Feature `tools` (default) adds what only setup, the export and sheet workers and the
//! theory note call: the tables (schema, catalogue, presets, rules), `Exporter`,
//! `exercise_json`, `theory_json`, `export_tables_json`. scripts/setup.mjs also builds the
//! crate without it, a smaller wasm for the page's first view (docs/performance.md).

use cwndlab_core::net::QUEUE_COLUMNS;
use cwndlab_core::scenario::{Problem, Scenario};
use cwndlab_core::sim::Simulation;
use cwndlab_core::tcp::cc::Phase;
use cwndlab_core::thin::WRITE_COLUMNS;
use cwndlab_core::throughput::THROUGHPUT_COLUMNS;
use cwndlab_core::time::{ns_to_secs, secs_to_ns};
use cwndlab_core::trace::{
    EventKind, Table, EVENT_COLUMNS, LOSS_TIMER_KINDS, RECOVERY_COLUMNS, SERIES_COLUMNS, VALIDATION_COLUMNS,
};
#[cfg(feature = "tools")]
use cwndlab_core::{presets, schema};
use serde_json::json;
use wasm_bindgen::prelude::*;
mod qdisc;
mod tables;
#[cfg(feature = "tools")]
mod textbook;

fn problems_json(problems: &[Problem]) -> String {
    serde_json::to_string(problems).expect("json")
}

/// The parameter table (units, defaults, ranges) as JSON; see `cwndlab schema`.
#[cfg(feature = "tools")]
#[wasm_bindgen]
pub fn schema_json() -> String {
    schema::schema_json().to_string()
}

/// Test-only fault switch: panics inside the engine, so that the page's handling of a wasm
/// trap (a Rust panic becomes `RuntimeError: unreachable`, after which the instance must not
/// be used again) can be tested end to end. Nothing calls it in normal use: the engine worker
/// calls it only when a test armed a fault before the page loaded (web/src/engine/fault.ts).
#[wasm_bindgen]
pub fn debug_panic() {
    panic!("cwndlab test fault: debug_panic() was called");
}

/// Validates a (possibly partial) scenario: `{"ok": true, "scenario": {...},
/// "estimated_packets": n}` with every setting resolved and a rough upper bound on the
/// packets the run will simulate (warn before very large runs), or
/// `{"ok": false, "problems": [{path, message, text}]}` (`text`: the one line to show).
#[wasm_bindgen]
pub fn validate_json(text: &str) -> String {
    match Scenario::from_json_str(text) {
        Ok(s) => json!({
            "ok": true,
            "scenario": s.to_value(),
            "estimated_packets": s.estimated_packets(),
        })
        .to_string(),
        Err(p) => json!({"ok": false, "problems": p}).to_string(),
    }
}

/// A comparison's scenario, read once: the page sends it as JSON once per comparison (per
/// worker), and each compared run is made from it here (`sim`), its algorithm's settings
/// applied in the engine (`scenario::runs`), not as JSON text per algorithm. The scenario is
/// one the engine has validated (the page's `validate_json` of the step): only the rules
/// relating an algorithm to the rest of the scenario are checked per run.
#[wasm_bindgen]
pub struct Runs {
    base: serde_json::Value,
}

#[wasm_bindgen]
impl Runs {
    /// Reads a comparison's scenario (JSON text, partial or complete); throws an Error whose
    /// message is a JSON list of `{path, message, text}` problems if it is not JSON.
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: &str) -> Result<Runs, JsError> {
        serde_json::from_str(scenario_json)
            .map(|base| Runs { base })
            .map_err(|e| {
                let p = Problem {
                    path: String::new(),
                    message: format!("not valid JSON: {e}"),
                };
                JsError::new(&problems_json(&[p]))
            })
    }

    /// The run of catalogue entry `algorithm` (none, or `custom`: the scenario as it is):
    /// throws as `Sim`'s constructor does if that run's scenario is refused (an entry may
    /// not suit the path: BR-TCP without a reservation). The scenario must be one the
    /// engine validated (`validate_json`): its values are not checked again.
    pub fn sim(&self, algorithm: Option<String>) -> Result<Sim, JsError> {
        cwndlab_core::scenario::runs::run_scenario(&self.base, algorithm.as_deref())
            .map(|s| Sim {
                sim: Simulation::new(&s),
            })
            .map_err(|p| JsError::new(&problems_json(&p)))
    }
}

/// A simulation. Columns come out as fresh Float64Arrays holding rows `from..len`.
#[wasm_bindgen]
pub struct Sim {
    sim: Simulation,
}

fn boxed(col: Option<Vec<f64>>) -> Box<[f64]> {
    col.unwrap_or_default().into_boxed_slice()
}

#[wasm_bindgen]
impl Sim {
    /// Builds a simulation; throws an Error whose message is a JSON list of
    /// `{path, message, text}` problems if the scenario is invalid.
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: &str) -> Result<Sim, JsError> {
        Simulation::from_json(scenario_json)
            .map(|sim| Sim { sim })
            .map_err(|p| JsError::new(&problems_json(&p)))
    }

    /// Processes every event up to now + dt seconds; returns the number processed.
    pub fn advance(&mut self, dt_s: f64) -> u32 {
        self.sim.advance(secs_to_ns(dt_s)) as u32
    }

    /// Processes at most `max_events` events toward the end; true when finished.
    pub fn run_events(&mut self, max_events: u32) -> bool {
        self.sim.run_events(max_events as u64)
    }

    /// Runs to the end.
    pub fn run_to_end(&mut self) {
        self.sim.run_to_end();
    }

    /// Processes one event; false when there was none left (finished).
    pub fn step(&mut self) -> bool {
        self.sim.step()
    }

    /// Changes a live parameter now, during the run (a slider moved during playback). The
    /// change joins the scenario's timeline at the current time (see `scenario_json`), so the
    /// resulting scenario replays this run exactly. Returns that time, s. Throws with a JSON
    /// problem list if the path is not live or the value is out of range.
    pub fn apply_change(&mut self, path: &str, value_json: &str) -> Result<f64, JsError> {
        let value: serde_json::Value = serde_json::from_str(value_json).map_err(|e| {
            JsError::new(&problems_json(&[Problem {
                path: path.into(),
                message: format!("value is not JSON: {e}"),
            }]))
        })?;
        self.sim
            .apply_change(path, value)
            .map(|at| at as f64 / 1e9)
            .map_err(|p| JsError::new(&problems_json(&[p])))
    }

    /// Simulated time, s.
    pub fn now(&self) -> f64 {
        self.sim.now() as f64 / 1e9
    }

    /// Configured duration, s.
    pub fn duration(&self) -> f64 {
        self.sim.end() as f64 / 1e9
    }

    /// True once the run reached its end.
    pub fn finished(&self) -> bool {
        self.sim.is_finished()
    }

    /// Number of flows.
    pub fn flow_count(&self) -> u32 {
        self.sim.flow_count() as u32
    }

    /// Rows in a flow's time series.
    pub fn series_len(&self, flow: u32) -> u32 {
        self.sim.series(flow as usize).len() as u32
    }

    /// A time-series column from row `from`: t, cwnd, inflated, ssthresh, flight (bytes),
    /// srtt, rttvar, rto (s), phase (code). Unknown names give an empty array.
    pub fn series_col(&self, flow: u32, name: &str, from: u32) -> Box<[f64]> {
        if flow as usize >= self.sim.flow_count() {
            return Box::new([]);
        }
        boxed(self.sim.series(flow as usize).column(name, from as usize))
    }

    /// Time-series columns from row `from`, one after another, in the order t, cwnd,
    /// inflated, ssthresh, flight, srtt, rttvar, rto, phase; `columns` selects them (bit i =
    /// column i; 0x1ff = all): n rows and c selected columns give c·n numbers.
    pub fn series_cols(&self, flow: u32, from: u32, columns: u32) -> Box<[f64]> {
        if flow as usize >= self.sim.flow_count() {
            return Box::new([]);
        }
        self.sim
            .series(flow as usize)
            .columns(from as usize, columns)
            .into_boxed_slice()
    }

    /// Rows in a flow's window-validation series (0 when its idle policy keeps no state:
    /// `none`).
    pub fn validation_len(&self, flow: u32) -> u32 {
        self.sim.validation_series(flow as usize).map_or(0, |v| v.len() as u32)
    }

    /// Window-validation columns from row `from`, in the order t, t_last, t_prev (s; NaN
    /// while unset), w_used, pipeack (bytes; pipeack NaN while undefined), nvp (0/1);
    /// `columns` selects them (bit i = column i; 0x3f = all), one after another.
    pub fn validation_cols(&self, flow: u32, from: u32, columns: u32) -> Box<[f64]> {
        self.sim
            .validation_series(flow as usize)
            .map(|v| v.columns(from as usize, columns))
            .unwrap_or_default()
            .into_boxed_slice()
    }

    /// Rows in a flow's SACK loss-recovery series (0 for a flow without SACK).
    pub fn recovery_len(&self, flow: u32) -> u32 {
        self.sim.recovery_series(flow as usize).map_or(0, |v| v.len() as u32)
    }

    /// SACK loss-recovery columns from row `from`, in `RECOVERY_COLUMNS` order (t, pipe,
    /// sacked, lost, in_recovery, recovery_point, prr_delivered, prr_out, reo_wnd, timer_at,
    /// timer_kind, probe_out: seconds, bytes, NaN for none); `columns` selects them (bit i =
    /// column i; 0xfff = all), one after another.
    pub fn recovery_cols(&self, flow: u32, from: u32, columns: u32) -> Box<[f64]> {
        self.sim
            .recovery_series(flow as usize)
            .map(|v| v.columns(from as usize, columns))
            .unwrap_or_default()
            .into_boxed_slice()
    }

    /// Event-log rows from `from` whose kind code k has bit k set in `kinds` and whose flow is
    /// `flow` (any flow if negative), as the columns selected by `columns` (bit i of t, flow,
    /// kind, seq, len, seg, tx; 0x7f = all) one after another: m rows and c columns give c·m
    /// numbers. The next cursor is `events_len()`. `kinds` is a JavaScript number: its
    /// integers are exact to 2^53, so the page builds it by adding 2^k.
    pub fn events_select(&self, from: u32, kinds: f64, flow: i32, columns: u32) -> Box<[f64]> {
        let flow = u16::try_from(flow).ok();
        self.sim
            .events()
            .select(from as usize, kinds as u64, flow, columns)
            .into_boxed_slice()
    }

    /// Queue columns from row `from` selected by `columns` (bit i of t, packets, bytes; 0x7 =
    /// all), one after another, up to the current time (see `queue_now`).
    pub fn queue_cols(&self, queue: u32, from: u32, columns: u32) -> Box<[f64]> {
        boxed(
            self.queue_now(queue)
                .map(|(q, end)| q.columns_to(from as usize, end, columns)),
        )
    }

    /// Rows in the event log.
    pub fn events_len(&self) -> u32 {
        self.sim.events().len() as u32
    }

    /// An event-log column (t, flow, kind, seq, len, seg, tx) from row `from`.
    pub fn events_col(&self, name: &str, from: u32) -> Box<[f64]> {
        boxed(self.sim.events().column(name, from as usize))
    }

    /// Names of the traced queues, as a JSON list (index = queue id).
    pub fn queue_names(&self) -> String {
        let names: Vec<&str> = self.sim.queues().iter().map(|(n, _)| *n).collect();
        serde_json::to_string(&names).expect("json")
    }

    /// Rows in a traced queue's occupancy series, up to the current time.
    pub fn queue_len(&self, queue: u32) -> u32 {
        self.queue_now(queue).map_or(0, |(_, end)| end as u32)
    }

    /// A queue column (t, packets, bytes) from row `from`, up to the current time.
    pub fn queue_col(&self, queue: u32, name: &str, from: u32) -> Box<[f64]> {
        boxed(
            self.queue_now(queue)
                .and_then(|(q, end)| q.column_to(name, from as usize, end)),
        )
    }

    /// Rows in a flow's write table (0 for a bulk sender).
    pub fn writes_len(&self, flow: u32) -> u32 {
        self.sim.writes(flow as usize).map_or(0, |w| w.len() as u32)
    }

    /// Write-table columns of a flow from row `from` selected by `columns` (bit i of t,
    /// bytes, sojourn, latency; 0xf = all), one after another.
    pub fn writes_cols(&self, flow: u32, from: u32, columns: u32) -> Box<[f64]> {
        boxed(
            self.sim
                .writes(flow as usize)
                .map(|w| w.columns(from as usize, columns)),
        )
    }

    /// Rows in a flow's transfers table (0 unless its application is `transfers`).
    pub fn transfers_len(&self, flow: u32) -> u32 {
        self.sim.transfers(flow as usize).map_or(0, |t| t.len() as u32)
    }

    /// Transfers-table columns of a flow from row `from` selected by `columns` (bit i of t,
    /// bytes, began, completion; 0xf = all), one after another.
    pub fn transfers_cols(&self, flow: u32, from: u32, columns: u32) -> Box<[f64]> {
        boxed(
            self.sim
                .transfers(flow as usize)
                .map(|t| t.columns(from as usize, columns)),
        )
    }

    /// Rows in a cross-traffic source's ping table (0 unless it is a ping source).
    pub fn pings_len(&self, source: u32) -> u32 {
        self.sim.pings(source as usize).map_or(0, |p| p.len() as u32)
    }

    /// Ping-table columns of a source from row `from` selected by `columns` (bit i of t,
    /// rtt; 0x3 = both), one after another.
    pub fn pings_cols(&self, source: u32, from: u32, columns: u32) -> Box<[f64]> {
        boxed(
            self.sim
                .pings(source as usize)
                .map(|p| p.columns(from as usize, columns)),
        )
    }

    /// Rows in the throughput table (completed bins; the open bin is written at the end).
    pub fn throughput_len(&self) -> u32 {
        self.sim.throughput().len() as u32
    }

    /// Throughput-table columns from row `from` selected by `columns` (bit i of t, class,
    /// bottleneck_bytes, delivered_bytes; 0xf = all), one after another.
    pub fn throughput_cols(&self, from: u32, columns: u32) -> Box<[f64]> {
        self.sim.throughput().columns(from as usize, columns).into_boxed_slice()
    }

    /// The throughput table's class names as a JSON list ("flow 0", …, "cross 0", …).
    pub fn throughput_classes(&self) -> String {
        serde_json::to_string(&self.sim.throughput_classes()).expect("json")
    }

    /// Width of the throughput table's bins, s.
    pub fn throughput_bin(&self) -> f64 {
        ns_to_secs(self.sim.throughput().bin())
    }

    /// Metrics so far as JSON (see `cwndlab run --format json`).
    pub fn summary_json(&self) -> String {
        serde_json::to_string(&self.sim.summary()).expect("json")
    }

    /// 64-bit digest of every output column, as 16 hex digits.
    pub fn digest(&self) -> String {
        format!("{:016x}", self.sim.digest())
    }

    /// 64-bit digest of the window-validation series as 16 hex digits, or an empty string
    /// when no flow has one.
    pub fn validation_digest(&self) -> String {
        self.sim
            .validation_digest()
            .map_or(String::new(), |d| format!("{d:016x}"))
    }

    /// 64-bit digest of the SACK loss-recovery series as 16 hex digits, or an empty string
    /// when no flow has SACK on.
    pub fn recovery_digest(&self) -> String {
        self.sim
            .recovery_digest()
            .map_or(String::new(), |d| format!("{d:016x}"))
    }

    /// The scenario being run, every setting resolved, as JSON.
    pub fn scenario_json(&self) -> String {
        self.sim.scenario().to_value().to_string()
    }

    /// Explains every decision from now on (call before running to explain the whole run).
    pub fn set_explain(&mut self, on: bool) {
        self.sim.set_explain(on);
    }

    /// Decisions explained so far.
    pub fn decisions_len(&self) -> u32 {
        self.sim.decisions().len() as u32
    }

    /// Decisions `from..to` (clamped) as a JSON list of `{t, flow, rule, kind, title,
    /// source, formula, inputs: [{name, unit, value, text}], outputs, from, to, text,
    /// text_segments}`; `from`/`to` are phase codes (255: a receiver's decision), `text` the
    /// explanation, `text_segments` the same with its byte counts in segments (the page's
    /// unit; `Entry::to_json_with_segments`).
    pub fn decisions_json(&self, from: u32, to: u32) -> String {
        let d = self.sim.decisions();
        let flows = &self.sim.scenario().flows;
        let mss = |flow: u32| flows.get(flow as usize).or(flows.first()).map_or(0, |f| f.tcp.mss);
        let list = d
            .range(from as usize, to as usize)
            .map(|e| e.to_json_with_segments(mss(e.flow)))
            .collect();
        serde_json::Value::Array(list).to_string()
    }

    /// The decisions' times (s), flows and rule indices (into `rules_json().rules`) from
    /// `from` on, in one array: times, then flows, then rules (for marks and stepping
    /// without JSON per decision).
    pub fn decisions_cols(&self, from: u32) -> Box<[f64]> {
        let d = self.sim.decisions();
        let rows: Vec<_> = (from as usize..d.len()).filter_map(|i| d.time_flow(i)).collect();
        let mut out = Vec::with_capacity(3 * rows.len());
        out.extend(rows.iter().map(|r| ns_to_secs(r.0)));
        out.extend(rows.iter().map(|r| r.1 as f64));
        out.extend(rows.iter().map(|r| r.2 as u8 as f64));
        out.into_boxed_slice()
    }

    /// Flow `flow`'s decisions from the run's decision `from` on, for the page's index, in
    /// one array of `DECISION_INDEX_COLUMNS.len()` columns one after another: the decision's
    /// index in the run (for `decisions_json`), time (s), rule (index into
    /// `rules_json().rules`), phase codes before and after, the transition of
    /// `machine_json(flow)` it took (-1: none) and the overlay transition (-1: none).
    pub fn decisions_index(&self, flow: u32, from: u32) -> Box<[f64]> {
        let d = self.sim.decisions();
        let machine = self.machine(flow);
        let rows: Vec<_> = d.heads_of(flow, from as usize).collect();
        let mut out = vec![0.0; DECISION_INDEX_COLUMNS.len() * rows.len()];
        let n = rows.len();
        for (k, &(i, t, rule, a, b)) in rows.iter().enumerate() {
            let tr = machine.as_ref().and_then(|m| m.transition_of(rule, a, b));
            let ov = machine.as_ref().and_then(|m| m.overlay_transition_of(rule));
            out[k] = i as f64;
            out[n + k] = ns_to_secs(t);
            out[2 * n + k] = rule as u8 as f64;
            out[3 * n + k] = f64::from(a);
            out[4 * n + k] = f64::from(b);
            out[5 * n + k] = tr.map_or(-1.0, |x| x as f64);
            out[6 * n + k] = ov.map_or(-1.0, |x| x as f64);
        }
        out.into_boxed_slice()
    }

    /// The state machine of flow `flow`, for its own settings (`machine.rs`; the same as
    /// its catalogue entry's when it matches one), as JSON; `null` for no such flow.
    pub fn machine_json(&self, flow: u32) -> String {
        self.machine(flow)
            .map_or(serde_json::Value::Null, |m| m.to_json())
            .to_string()
    }

    /// Flow `flow`'s transmission rounds so far (see [`rounds_value`]) as JSON; an
    /// unknown flow gives no rounds.
    pub fn rounds_json(&self, flow: u32) -> String {
        if flow as usize >= self.sim.flow_count() {
            return json!({"definition": cwndlab_core::rounds::DEFINITION, "rounds": [], "unavailable": "no such flow"})
                .to_string();
        }
        rounds_value(&self.sim, flow as usize).to_string()
    }

    /// 64-bit digest of the explained decisions, as 16 hex digits.
    pub fn decisions_digest(&self) -> String {
        format!("{:016x}", self.sim.decisions_digest())
    }
}

/// The rules every decision names, their kinds and the glossary: `{kinds: [{id,
/// description}], rules: [{id, kind, title, source, formula, inputs: [{name, unit}],
/// outputs}], glossary: [{term, label, definition}]}`.
#[cfg(feature = "tools")]
#[wasm_bindgen]
pub fn rules_json() -> String {
    cwndlab_core::explain::rules_json().to_string()
}

/// The first divergence of two scenarios (`cwndlab explain --against`): null when every
/// decision is the same, else `{t, common, a: [decisions], b: [decisions]}` (each run's
/// decisions at that instant from the first that differs). Throws the problems of an
/// invalid scenario as `Sim::new` does.
#[wasm_bindgen]
pub fn first_divergence_json(a_json: &str, b_json: &str) -> Result<String, JsError> {
    let a = Scenario::from_json_str(a_json).map_err(|p| JsError::new(&problems_json(&p)))?;
    let b = Scenario::from_json_str(b_json).map_err(|p| JsError::new(&problems_json(&p)))?;
    Ok(cwndlab_core::divergence::first_divergence(&a, &b)
        .map_or(serde_json::Value::Null, |d| d.to_json())
        .to_string())
}

/// The columns of `Sim::decisions_index`, in order.
pub const DECISION_INDEX_COLUMNS: [&str; 7] = ["index", "t", "rule", "from", "to", "transition", "overlay"];

impl Sim {
    fn machine(&self, flow: u32) -> Option<cwndlab_core::machine::Machine> {
        let f = self.sim.scenario().flows.get(flow as usize)?;
        Some(cwndlab_core::machine::machine_of_flow(f))
    }

    /// Traced queue `queue` and how many of its rows are dated up to the current time: a
    /// packet may enter a link ahead of time, and its rows wait until the clock reaches them.
    fn queue_now(&self, queue: u32) -> Option<(&cwndlab_core::net::QueueSeries, usize)> {
        let now = self.sim.now();
        self.sim
            .queues()
            .get(queue as usize)
            .map(|&(_, q)| (q, q.rows_until(now)))
    }
}

/// Flow `flow`'s transmission rounds so far, as textbooks count them (see
/// `cwndlab_core::rounds`): `{"definition": "<when a round starts and ends>", "rounds":
/// [{"round": 1, "start": s, "end": s|null (null: open at the end of the record), "cwnd":
/// bytes, "ssthresh": bytes|null (null = unlimited), "mss": bytes, "phase": "<phase name>",
/// "sent": segments, "retransmitted": n, "events": ["fast_retransmit", …]}]}`, or with
/// `"rounds": []` and `"unavailable": "<the reason>"` when the run keeps no sender rows.
/// Reads the run so far (O(events)): call it at the end, or throttled while playing.
pub fn rounds_value(sim: &Simulation, flow: usize) -> serde_json::Value {
    let mss = sim.scenario().flows.get(flow).map_or(0, |f| f.tcp.mss);
    match sim.rounds(flow) {
        Ok(rounds) => {
            let list: Vec<_> = rounds
                .iter()
                .map(|r| {
                    json!({
                        "round": r.round,
                        "start": ns_to_secs(r.start),
                        "end": r.end.map(ns_to_secs),
                        "cwnd": r.cwnd,
                        "ssthresh": (r.ssthresh != u64::MAX).then_some(r.ssthresh),
                        "mss": mss,
                        "phase": r.phase_name(),
                        "sent": r.sent,
                        "retransmitted": r.retransmitted,
                        "events": r.events.iter().map(|k| k.name()).collect::<Vec<_>>(),
                    })
                })
                .collect();
            json!({"definition": cwndlab_core::rounds::DEFINITION, "rounds": list})
        }
        Err(reason) => json!({"definition": cwndlab_core::rounds::DEFINITION, "rounds": [], "unavailable": reason}),
    }
}

/// An exercise sheet about a scenario (see `cwndlab_core::exercise`; the same sheet as
/// `cwndlab exercise`): `number` chooses the questions, `count` how many (1 to 20);
/// `compare_json`: `[]` or `[{"algorithm": name, "scenario": {...}}, …]`, the runs of a
/// comparison for the comparison question. Returns the sheet's JSON (`{title, scenario,
/// number, definition, questions: [{number, kind, text, answer, values, rules, at_s}]}`);
/// throws with the reason (an invalid scenario as a JSON problem list, nothing to ask, a
/// count out of range). `unit`: the unit windows are written in first (`segments`, `bytes`;
/// empty: the run's own). Runs the scenario (and each compared one) to the end: call it from
/// a worker.
#[cfg(feature = "tools")]
#[wasm_bindgen]
pub fn exercise_json(
    scenario_json: &str,
    title: &str,
    number: f64,
    count: u32,
    compare_json: &str,
    unit: &str,
) -> Result<String, JsError> {
    let shown = match unit {
        "" => None,
        u => Some(cwndlab_core::explain::ShownUnit::parse(u).map_err(|e| JsError::new(&e))?),
    };
    let s = Scenario::from_json_str(scenario_json).map_err(|p| JsError::new(&problems_json(&p)))?;
    let list: Vec<serde_json::Value> =
        serde_json::from_str(compare_json).map_err(|e| JsError::new(&format!("compare: {e}")))?;
    let mut others = Vec::new();
    for v in list {
        let name = v["algorithm"].as_str().unwrap_or("?").to_string();
        let sc = Scenario::from_value(&v["scenario"]).map_err(|p| JsError::new(&problems_json(&p)))?;
        others.push((name, sc));
    }
    let number = if number.is_finite() && number >= 0.0 {
        number as u64
    } else {
        1
    };
    cwndlab_core::exercise::sheet_in(title, &s, number, count as usize, &others, shown)
        .map(|sheet| sheet.to_json().to_string())
        .map_err(|e| JsError::new(&e))
}

/// The throughput Mathis et al.'s and Padhye et al.'s models give for flow `flow` of a
/// scenario, with their inputs (`cwndlab_core::theory::theory_json`): `{"inputs": {p,
/// p_from, rtt_s, mss, b, t0_s, w_max}, "mathis": {bps, formula, source}, "padhye": {…}}` or
/// `{"unavailable": reason}` (no random loss, an invalid scenario).
#[cfg(feature = "tools")]
#[wasm_bindgen]
pub fn theory_json(scenario_json: &str, flow: u32) -> String {
    match Scenario::from_json_str(scenario_json) {
        Ok(s) => cwndlab_core::theory::theory_json(&s, flow as usize).to_string(),
        Err(p) => json!({"unavailable": format!("invalid scenario: {}", problems_json(&p))}).to_string(),
    }
}

/// What the page may export: `{"tables": [{name, description}], "capture_points": [{name,
/// description}], "snaplen": {default, min, max}, "page_limit_bytes": n, "qlog_events":
/// [...]}` (the names a request uses; the page never retypes them).
#[cfg(feature = "tools")]
#[wasm_bindgen]
pub fn export_tables_json() -> String {
    cwndlab_core::export::vocabulary_json().to_string()
}

/// A running export: the scenario run again from the start with a writer attached (see
/// `cwndlab_core::export`), its files' bytes taken slice by slice. Run it in a worker.
#[cfg(feature = "tools")]
#[wasm_bindgen]
pub struct Exporter {
    ex: cwndlab_core::export::Exporter,
}

#[cfg(feature = "tools")]
#[wasm_bindgen]
impl Exporter {
    /// Starts an export of a scenario (the resolved JSON a `Sim` gives, or any valid one).
    /// `request_json`: `{"format":"csv"|"json","tables":[...]}` (names from
    /// `export_tables_json`; all when absent), `{"format":"pcap","point":"sender"|"receiver"|
    /// "bottleneck","snaplen":96}`, or `{"format":"qlog","flow":0}`. Throws an Error whose
    /// message says why when the scenario is invalid (a JSON problem list, as `Sim`), the
    /// request is (it names the field and the allowed values), or the export would exceed
    /// the page's size limit (it says how big, the limit, and the CLI command to use).
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: &str, request_json: &str) -> Result<Exporter, JsError> {
        use cwndlab_core::export::{Request, PAGE_LIMIT_BYTES};
        let s = Scenario::from_json_str(scenario_json).map_err(|p| JsError::new(&problems_json(&p)))?;
        let v: serde_json::Value =
            serde_json::from_str(request_json).map_err(|e| JsError::new(&format!("export request: {e}")))?;
        let req = Request::from_json(&v).map_err(|e| JsError::new(&e))?;
        cwndlab_core::export::Exporter::new(&s, &req, Some(PAGE_LIMIT_BYTES))
            .map(|ex| Exporter { ex })
            .map_err(|e| JsError::new(&e))
    }

    /// The files, in index order: a JSON list of `{"name": "series_flow0.csv", "mime":
    /// "text/csv"}`.
    pub fn file_names(&self) -> String {
        let files: Vec<_> = self
            .ex
            .files()
            .iter()
            .map(|f| json!({"name": f.name, "mime": f.mime}))
            .collect();
        serde_json::Value::Array(files).to_string()
    }

    /// Runs up to `max_events` events and formats their rows; true once every file is
    /// complete.
    pub fn step(&mut self, max_events: u32) -> bool {
        self.ex.step(max_events.max(1) as u64)
    }

    /// The bytes of file `file` made since the last call (empty for an unknown index).
    pub fn take(&mut self, file: u32) -> Box<[u8]> {
        self.ex.take(file as usize).into_boxed_slice()
    }

    /// What the user should know to read the files ('' if nothing): for a capture without
    /// a handshake, the window scale to give Wireshark, in the engine's words.
    pub fn note(&self) -> String {
        self.ex.note().unwrap_or_default()
    }

    /// Simulated time done, 0 to 1.
    pub fn progress(&self) -> f64 {
        self.ex.progress()
    }
}

/// Bounded recording and windowed re-runs, for long, fast runs in the page (see
/// `cwndlab_core::bounded`).
#[wasm_bindgen]
impl Sim {
    /// Bounded recording: once the stored rows exceed `budget_rows`, the rows produced from
    /// then on are reduced to `buckets` buckets over the run by `reduce_rows`, which the
    /// caller runs after each slice (before reading). Call before running.
    pub fn set_bounded(&mut self, budget_rows: f64, buckets: u32) {
        self.sim.set_bounded(budget_rows.max(0.0) as u64, buckets as u64);
    }

    /// Bounded recording's step after a slice (see `set_bounded`); nothing without it.
    pub fn reduce_rows(&mut self) {
        self.sim.reduce_rows();
    }

    /// Where the reduction began: `{"at": s, "width": s}` (rows before `at` are stored in
    /// full; later ones per bucket of `width`), or null.
    pub fn reduction_json(&self) -> String {
        match self.sim.reduction() {
            Some(b) => json!({"at": ns_to_secs(b.at), "width": ns_to_secs(b.width)}).to_string(),
            None => "null".into(),
        }
    }

    /// Stores the rows produced from now on (true, the default) or drops them, hashed so the
    /// digest stays available (false): a re-run of a window of a long run keeps only the
    /// window's rows (false until its start, then true).
    pub fn keep_rows(&mut self, on: bool) {
        use cwndlab_core::sim::Recording;
        self.sim.set_recording(if on {
            Recording::Full
        } else {
            Recording::Summary { digest: true }
        });
    }
}

#[cfg(feature = "tools")]
/// Sweeps (`cwndlab_core::sweep`, the same plan, runs and output as `cwndlab sweep`).
/// `def_json`: `{"param": path, "values": [...] | "range": "FROM:TO:N[:log]", "algorithms":
/// [...], "seeds": N | "seed_list": [...], "metrics": [...], "source": name}` (optionally
/// `param2` with `values2`/`range2`; `source` names the base in the output, as the CLI names
/// its file or preset); `base_json`: the scenario (partial or resolved), as `cwndlab sweep
/// FILE.json` reads it.
fn sweep_plan(
    def_json: &str,
    base_json: &str,
) -> Result<(cwndlab_core::sweep::Plan, serde_json::Value), serde_json::Value> {
    use cwndlab_core::sweep::{range_len, Definition, Plan, PAGE_MAX_RUNS};
    let refuse =
        |field: &str, message: String| json!({"ok": false, "field": field, "message": message, "problems": []});
    let def: serde_json::Value =
        serde_json::from_str(def_json).map_err(|e| refuse("definition", format!("definition: {e}")))?;
    let def = Definition::from_json(&def).map_err(|e| refuse(e.field, e.message))?;
    for (field, range) in [("range", &def.range), ("range2", &def.range2)] {
        if let Some(n) = range.as_deref().and_then(range_len) {
            if n > PAGE_MAX_RUNS {
                return Err(refuse(
                    field,
                    format!("{field}: {n} points; at most {PAGE_MAX_RUNS} runs per sweep in the page"),
                ));
            }
        }
    }
    let base: serde_json::Value =
        serde_json::from_str(base_json).map_err(|e| refuse("scenario", format!("scenario: {e}")))?;
    let base = cwndlab_core::scenario::resolve(&base)
        .map_err(|p| json!({"ok": false, "field": "scenario", "message": "the scenario is invalid", "problems": p}))?;
    let plan =
        Plan::new(&def, def.source.as_deref().unwrap_or("page"), &base, "").map_err(|e| refuse(e.field, e.message))?;
    Ok((plan, base))
}

#[cfg(feature = "tools")]
/// A sweep's plan: `{"ok": true, "sweep": {source, params: [{path, values}], algorithms,
/// seeds, metrics, runs_total}, "runs": [{index, values: [text], algorithm, seed}]}`, every
/// run's scenario checked; or `{"ok": false, "field", "message", "problems": [{path, message,
/// text}]}` (the field of the definition, or the first run whose scenario is refused, with its
/// problems naming the parameter and the allowed values). At most `PAGE_MAX_RUNS` runs.
#[wasm_bindgen]
pub fn sweep_plan_json(def_json: &str, base_json: &str) -> String {
    use cwndlab_core::sweep::PAGE_MAX_RUNS;
    let (plan, base) = match sweep_plan(def_json, base_json) {
        Ok(p) => p,
        Err(v) => return v.to_string(),
    };
    let total = plan.runs_total();
    if total > PAGE_MAX_RUNS {
        return json!({"ok": false, "field": "runs", "problems": [],
            "message": format!("this sweep has {total} runs; at most {PAGE_MAX_RUNS} per sweep in the page (use fewer points, seeds or algorithms, or `cwndlab sweep`)")})
        .to_string();
    }
    let runs = plan.runs();
    for r in &runs {
        if let Err((run, problems)) = plan.scenario(&base, r) {
            return json!({"ok": false, "field": "param", "message": run, "problems": problems}).to_string();
        }
    }
    let list: Vec<_> = runs
        .iter()
        .map(|r| {
            json!({
                "index": r.index,
                "values": r.values.iter().zip(&plan.axes).map(|(&i, a)| a.values[i].0.clone()).collect::<Vec<_>>(),
                "algorithm": r.algorithm.map(|a| plan.algorithms[a].clone()),
                "seed": r.seed,
            })
        })
        .collect();
    json!({"ok": true, "sweep": plan.to_json(total), "runs": list}).to_string()
}

#[cfg(feature = "tools")]
/// Run `index` of a sweep's plan, to its end with a summary-only recording: `{"rows": [{run,
/// params: {path: "text"}, algorithm, seed, flow, metrics: {name: "text"|null}}]}` (a row per
/// flow, numbers as exact decimal text, as a shard file holds them), or `{"error": message}`.
#[wasm_bindgen]
pub fn sweep_run_json(def_json: &str, base_json: &str, index: u32) -> String {
    let (plan, base) = match sweep_plan(def_json, base_json) {
        Ok(p) => p,
        Err(v) => return json!({"error": v["message"]}).to_string(),
    };
    if index as usize >= plan.runs_total() {
        return json!({"error": format!("run {index}: the sweep has {} runs", plan.runs_total())}).to_string();
    }
    match plan.run_rows(&base, &plan.run(index as usize)) {
        Ok(rows) => json!({"rows": rows.iter().map(|r| plan.row_json(r, true)).collect::<Vec<_>>()}).to_string(),
        Err((run, problems)) => json!({"error": run, "problems": problems}).to_string(),
    }
}

#[cfg(feature = "tools")]
/// The sweep's output as `cwndlab sweep --format csv|json` prints it, from every run's rows
/// (`rows_json`: the rows `sweep_run_json` gave, in any order); throws when a row is
/// malformed or runs are missing.
#[wasm_bindgen]
pub fn sweep_output(def_json: &str, base_json: &str, rows_json: &str, format: &str) -> Result<String, JsError> {
    use cwndlab_core::sweep::Format;
    let (plan, _) = sweep_plan(def_json, base_json).map_err(|v| JsError::new(v["message"].as_str().unwrap_or("")))?;
    let format = match format {
        "csv" => Format::Csv,
        "json" => Format::Json,
        other => return Err(JsError::new(&format!("format {other}: allowed csv, json"))),
    };
    let list: Vec<serde_json::Value> =
        serde_json::from_str(rows_json).map_err(|e| JsError::new(&format!("rows: {e}")))?;
    let mut rows = list
        .iter()
        .map(|r| {
            plan.row_from_json(r)
                .ok_or_else(|| JsError::new(&format!("rows: malformed row {r}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    rows.sort_by_key(|r| (r.run, r.flow));
    let total = plan.runs_total();
    let mut runs: Vec<usize> = rows.iter().map(|r| r.run).collect();
    runs.dedup();
    if runs.len() != total || runs.iter().enumerate().any(|(i, &r)| i != r) {
        return Err(JsError::new(&format!(
            "rows: {} distinct runs of the sweep's {total}",
            runs.len()
        )));
    }
    Ok(plan.render(&rows, total, format))
}

/// The sweep vocabulary (`cwndlab_core::sweep::vocabulary_json`): the metrics with labels and
/// units, the run limits, what the spread columns are.
#[cfg(feature = "tools")]
#[wasm_bindgen]
pub fn sweep_vocabulary_json() -> String {
    cwndlab_core::sweep::vocabulary_json().to_string()
}
