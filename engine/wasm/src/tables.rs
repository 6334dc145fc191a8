//! The engine's vocabulary for the page: the default scenario, the catalogue, the presets
//! and their families, the codes and column names of every table (what scripts/setup.mjs
//! turns into tables.json and vocabulary.ts).

use super::*;

/// The default scenario (every setting) as JSON.
#[wasm_bindgen]
pub fn default_scenario_json() -> String {
    Scenario::default().to_value().to_string()
}

/// The catalogue of named algorithms: `[{name, label, group, description, settings}]`,
/// `settings` mapping a path inside a flow (e.g. `cc.idle_policy`) to its value.
#[cfg(feature = "tools")]
#[wasm_bindgen]
pub fn catalogue_json() -> String {
    cwndlab_core::machine::catalogue_json().to_string()
}

/// Every preset: `[{name, title, family, focus, description, scenario, lesson, steps}]`,
/// in menu order, each scenario complete; `family` a family's name (`preset_families_json`);
/// `focus` the run its lesson is about (a catalogue name, `flow<i>` in a competition) or
/// null; `lesson` null or `{look, happens, source, question, compare, mode, sweep}` (`compare`:
/// catalogue names to select; `sweep`: null or the link keys of a sweep it opens); `steps`
/// where explanation tools lead: `[{label, rules}]` (rule ids; offered when a run explains one).
#[cfg(feature = "tools")]
#[wasm_bindgen]
pub fn presets_json() -> String {
    let list: Vec<_> = presets::all()
        .into_iter()
        .filter_map(|p| {
            let s = p.scenario().ok()?;
            Some(
                json!({"name": p.name, "title": p.title, "family": p.family, "focus": p.focus,
                        "description": p.description, "scenario": s.to_value(),
                        "lesson": p.lesson, "steps": p.steps}),
            )
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// The course path (`presets::course`), in teaching order: `[{id, title, preset, teaches}]`.
#[cfg(feature = "tools")]
#[wasm_bindgen]
pub fn course_json() -> String {
    serde_json::to_string(&presets::course::COURSE).expect("json")
}

/// The preset families, in menu order: `[{name, title}]`.
#[cfg(feature = "tools")]
#[wasm_bindgen]
pub fn preset_families_json() -> String {
    let list: Vec<_> = presets::FAMILIES
        .iter()
        .map(|f| json!({"name": f.name, "title": f.title}))
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// Event kinds, phases and the loss timer's kinds by code, and each table's column names:
/// `{"events", "phases", "loss_timer_kinds", "series_columns", "event_columns",
/// "validation_columns", "recovery_columns", "throughput_columns", "write_columns",
/// "decision_index_columns", "queue_columns", "qdisc_columns"}`, each an array of names, and
/// `"textbook_conventions"`: the textbook model's conventions, `[{name, label, short,
/// description}]` (`cwndlab_core::textbook::conventions_json`).
#[wasm_bindgen]
pub fn codes_json() -> String {
    let events: Vec<&str> = EventKind::ALL.iter().map(|k| k.name()).collect();
    let phases: Vec<&str> = Phase::ALL.iter().map(|p| p.name()).collect();
    json!({"events": events, "phases": phases, "series_columns": SERIES_COLUMNS,
           "event_columns": EVENT_COLUMNS, "validation_columns": VALIDATION_COLUMNS,
           "recovery_columns": RECOVERY_COLUMNS, "loss_timer_kinds": LOSS_TIMER_KINDS,
           "throughput_columns": THROUGHPUT_COLUMNS, "write_columns": WRITE_COLUMNS,
           "decision_index_columns": DECISION_INDEX_COLUMNS, "queue_columns": QUEUE_COLUMNS, "qdisc_columns": cwndlab_core::trace::QDISC_COLUMNS,
           "transfer_columns": cwndlab_core::sim::transfers::TRANSFER_COLUMNS,
           "ping_columns": cwndlab_core::sim::ping::PING_COLUMNS,
           "transfer_summary_columns": cwndlab_core::summary::TRANSFER_SUMMARY_COLUMNS,
           "ping_summary_fields": cwndlab_core::summary::PING_SUMMARY_FIELDS,
           "textbook_conventions": cwndlab_core::textbook::conventions_json()})
    .to_string()
}

/// What the page's types are generated from (scripts/setup.mjs writes
/// web/src/engine/pkg/vocabulary.ts): `{"trace_tables": [{name, source, columns, kinds}],
/// "selector_keys": [paths], "limits": {"max_flows", "event_mask_bits"}}` (the page's trace
/// tables, and the settings the algorithm choice owns beside the common ones:
/// `cwndlab_core::export::vocabulary`).
#[cfg(feature = "tools")]
#[wasm_bindgen]
pub fn vocabulary_json() -> String {
    use cwndlab_core::export::vocabulary::{trace_tables_json, EVENT_MASK_BITS};
    json!({"trace_tables": trace_tables_json(),
           "selector_keys": cwndlab_core::scenario::runs::SELECTOR_KEYS,
           "limits": {"max_flows": cwndlab_core::scenario::MAX_FLOWS, "event_mask_bits": EVENT_MASK_BITS}})
    .to_string()
}
