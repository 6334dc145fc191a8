//! The parameter table written out: as JSON for the page and `cwndlab schema`
//! (`schema_json`), and as the Markdown reference docs/parameters.md (`markdown`).

use super::*;
use serde_json::{json, Map, Value};

fn kind_json(k: &Kind) -> Map<String, Value> {
    let mut m = Map::new();
    match k {
        Kind::Int { min, max, default } => {
            m.insert("type".into(), json!("int"));
            m.insert("min".into(), json!(min));
            m.insert("max".into(), json!(max));
            m.insert("default".into(), json!(default));
        }
        Kind::Float { min, max, default, log } => {
            m.insert("type".into(), json!("float"));
            m.insert("min".into(), json!(min));
            m.insert("max".into(), json!(max));
            m.insert("default".into(), json!(default));
            m.insert("scale".into(), json!(if *log { "log" } else { "linear" }));
        }
        Kind::Enum { options, default } => {
            m.insert("type".into(), json!("enum"));
            m.insert("default".into(), json!(default));
            m.insert(
                "options".into(),
                Value::Array(
                    options
                        .iter()
                        .map(|c| json!({"value": c.value, "label": c.label, "help": c.help}))
                        .collect(),
                ),
            );
        }
        Kind::Bool { default } => {
            m.insert("type".into(), json!("bool"));
            m.insert("default".into(), json!(default));
        }
        Kind::List { items } => {
            m.insert("type".into(), json!("list"));
            m.insert("default".into(), json!([]));
            m.insert(
                "items".into(),
                Value::Array(
                    items
                        .iter()
                        .map(|f| {
                            let mut o = json!({"name": f.name, "unit": f.unit, "help": f.help});
                            let (t, min, max) = match f.kind {
                                ItemKind::Int { min, max } => ("int", json!(min), json!(max)),
                                ItemKind::Float { min, max } => ("float", json!(min), json!(max)),
                                ItemKind::Path => ("path", Value::Null, Value::Null),
                                ItemKind::Value => ("value", Value::Null, Value::Null),
                                ItemKind::Enum { options, .. } => {
                                    o["options"] = Value::Array(
                                        options
                                            .iter()
                                            .map(|c| json!({"value": c.value, "label": c.label, "help": c.help}))
                                            .collect(),
                                    );
                                    ("enum", Value::Null, Value::Null)
                                }
                                ItemKind::Bool { .. } => ("bool", Value::Null, Value::Null),
                            };
                            o["type"] = json!(t);
                            if !min.is_null() {
                                o["min"] = min;
                                o["max"] = max;
                            }
                            if let Some(d) = f.default_value() {
                                o["default"] = d;
                            }
                            o
                        })
                        .collect(),
                ),
            );
        }
    }
    m
}

/// A condition as JSON: `{"path": the setting it depends on, "values": [its values under
/// which the setting acts]}`, the values typed as that setting's (booleans for a switch),
/// and `"also": [other settings]` when any of those at one of the values makes it act too.
fn applies_json(a: &Applies) -> Value {
    let boolean = params()
        .iter()
        .find(|p| p.path == a.when)
        .is_some_and(|p| matches!(p.kind, Kind::Bool { .. }));
    let values: Vec<Value> = a
        .values
        .iter()
        .map(|v| if boolean { json!(*v == "true") } else { json!(v) })
        .collect();
    let mut j = json!({"path": a.when, "values": values});
    if !a.also.is_empty() {
        j["also"] = json!(a.also);
    }
    j
}

/// How a condition reads in docs/parameters.md.
fn applies_text(a: &Applies) -> String {
    let values: Vec<String> = a.values.iter().map(|v| format!("`{v}`")).collect();
    let values = match values.as_slice() {
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        [] => String::new(),
    };
    let settings: Vec<String> = std::iter::once(a.when)
        .chain(a.also.iter().copied())
        .map(|w| format!("`{w}`"))
        .collect();
    format!(" Applies only when {} is {values}.", settings.join(" or "))
}

/// The parameter table as JSON: `{ "version": 1, "params": [ {path, label, group, unit, type,
/// default, min, max, scale, options, items, help, live, display, applies_when}, … ] }`
/// (`applies_when` only for a setting that acts under a condition: [`Applies`]).
pub fn schema_json() -> Value {
    let list: Vec<Value> = params()
        .iter()
        .map(|p| {
            let mut m = kind_json(&p.kind);
            m.insert("path".into(), json!(p.path));
            m.insert("label".into(), json!(p.label));
            m.insert("group".into(), json!(p.group));
            m.insert("unit".into(), json!(p.unit));
            m.insert("help".into(), json!(p.help));
            m.insert("live".into(), json!(p.live));
            if let Some(d) = p.display {
                m.insert("display".into(), json!({"unit": d.unit, "factor": d.factor}));
            }
            if let Some(a) = applies_to(p.path) {
                m.insert("applies_when".into(), applies_json(&a));
            }
            Value::Object(m)
        })
        .collect();
    json!({ "version": 1, "params": list })
}

/// The parameter table as a Markdown reference (docs/parameters.md is generated from it).
pub fn markdown() -> String {
    let esc = |t: &str| t.replace('|', "\\|");
    let mut out = String::from(
        "# Scenario parameters\n\n\
         Generated from the engine's parameter table (`cwndlab schema --markdown`); do not edit by hand.\n\
         Values are JSON numbers in the unit shown: seconds, bytes, bit/s. `flows[].x` is a field of\n\
         every flow; in paths given to `--set` or a timeline, write `flows[0].x` for one flow.\n\
         *Live* parameters may change during a run (a timeline entry, or a slider moved during playback).\n",
    );
    let mut group = "";
    for p in params() {
        if p.group != group {
            group = p.group;
            out.push_str(&format!("\n## {group}\n\n| parameter | unit | default | allowed | live | meaning |\n|---|---|---|---|---|---|\n"));
        }
        let (default, allowed) = match &p.kind {
            Kind::Int { min, max, default } => (default.to_string(), format!("{min} – {max}")),
            Kind::Float { min, max, default, log } => (
                default.to_string(),
                format!("{min} – {max}{}", if *log { " (log)" } else { "" }),
            ),
            Kind::Enum { options, default } => (
                format!("`{default}`"),
                options
                    .iter()
                    .map(|c| format!("`{}`", c.value))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            Kind::Bool { default } => (default.to_string(), "true, false".into()),
            Kind::List { items } => (
                "[]".into(),
                format!(
                    "list of {{{}}}",
                    items.iter().map(|f| f.name).collect::<Vec<_>>().join(", ")
                ),
            ),
        };
        let mut help = esc(p.help);
        if let Kind::Enum { options, .. } = &p.kind {
            for c in options.iter() {
                help.push_str(&format!(" `{}`: {}", c.value, esc(c.help)));
            }
        }
        if let Some(a) = applies_to(p.path) {
            help.push_str(&applies_text(&a));
        }
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            p.path,
            if p.unit.is_empty() { "—" } else { p.unit },
            default,
            allowed,
            if p.live { "yes" } else { "" },
            help
        ));
    }
    out
}
