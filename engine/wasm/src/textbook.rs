//! The textbook's round model for the page (`cwndlab_core::textbook`): its conventions (for
//! tables.json), the model beside a per-packet run with the round where they part, and exam
//! sheets in a convention (the same sheet as `cwndlab exercise --textbook`). Beside lib.rs.

use super::*;
use cwndlab_core::textbook::{self, Convention};

/// The conventions: `[{name, label, short, description}]` (what scripts/setup.mjs puts in
/// tables.json as `textbookConventions`).
#[cfg(feature = "tools")]
#[wasm_bindgen]
pub fn textbook_conventions_json() -> String {
    textbook::conventions_json().to_string()
}

fn convention(name: &str) -> Result<Convention, JsError> {
    Convention::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Convention::ALL.iter().map(|c| c.name()).collect();
        JsError::new(&format!("convention {name}: allowed {}", names.join(", ")))
    })
}

/// The textbook model of flow 0 of a scenario, in convention `name`, beside its per-packet
/// run (`cwndlab_core::textbook::divergence::beside_run_json`): `{convention, label, short,
/// model, rounds: [{round, cwnd, ssthresh, phase, first_segment, last_segment, ended_by,
/// rule, why}], divergence: {round, per_packet, textbook, why}|null}`, windows in segments.
/// Throws with the reason. Runs the scenario to the end: call it from a worker.
#[cfg(feature = "tools")]
#[wasm_bindgen]
pub fn textbook_beside_json(scenario_json: &str, name: &str) -> Result<String, JsError> {
    let c = convention(name)?;
    let s = Scenario::from_json_str(scenario_json).map_err(|p| JsError::new(&problems_json(&p)))?;
    textbook::divergence::beside_run_json(&s, c)
        .map(|v| v.to_string())
        .map_err(|e| JsError::new(&e))
}

/// An exam sheet in the textbook's round model of flow 0 of a scenario, in convention
/// `name` (the sheet of `cwndlab exercise --textbook NAME`): the same JSON as
/// `exercise_json`. Throws with the reason. Runs the scenario: call it from a worker.
#[cfg(feature = "tools")]
#[wasm_bindgen]
pub fn textbook_exercise_json(
    scenario_json: &str,
    title: &str,
    number: f64,
    count: u32,
    name: &str,
) -> Result<String, JsError> {
    let c = convention(name)?;
    let s = Scenario::from_json_str(scenario_json).map_err(|p| JsError::new(&problems_json(&p)))?;
    let variant = if s.flows[0].variant == cwndlab_core::scenario::Variant::Tahoe {
        textbook::Variant::Tahoe
    } else {
        textbook::Variant::Reno
    };
    let m = textbook::model_of_run(&s, c, variant).map_err(|e| JsError::new(&e))?;
    let number = if number.is_finite() && number >= 0.0 {
        number as u64
    } else {
        1
    };
    textbook::sheet::sheet(title, &m, number, count as usize)
        .map(|sheet| sheet.to_json().to_string())
        .map_err(|e| JsError::new(&e))
}
