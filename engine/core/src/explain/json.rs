//! Records and the rule table as JSON, for the page, the wasm API and `cwndlab explain`.

use super::*;
use serde_json::{json, Value};

impl Decision {
    /// The decision as JSON (without time and flow).
    pub fn to_json(&self) -> Value {
        let info = self.info();
        let vals = |it: &mut dyn Iterator<Item = (&'static str, Unit, u64)>| -> Vec<Value> {
            it.map(|(n, u, v)| {
                let value = if v == u64::MAX && matches!(u, Unit::Bytes | Unit::Seq | Unit::Ns) {
                    Value::Null
                } else {
                    json!(v)
                };
                json!({"name": n, "unit": u.name(), "value": value, "text": format_value(v, u)})
            })
            .collect()
        };
        json!({
            "rule": info.id,
            "kind": info.kind.name(),
            "title": info.title,
            "source": info.source,
            "formula": info.formula,
            "inputs": vals(&mut self.inputs()),
            "outputs": vals(&mut self.outputs()),
            "from": self.from,
            "to": self.to,
            "text": self.text(),
        })
    }
}

impl Entry {
    /// The entry as JSON: time (s), flow, then the decision's fields.
    pub fn to_json(&self) -> Value {
        let mut v = self.d.to_json();
        let m = v.as_object_mut().expect("object");
        m.insert("t".into(), json!(crate::time::ns_to_secs(self.t)));
        m.insert("flow".into(), json!(self.flow));
        v
    }

    /// The entry as JSON with its sentence also in segments (`text_segments`): of the
    /// decision's own SMSS when it records one, else of `flow_mss` (the flow's).
    pub fn to_json_with_segments(&self, flow_mss: u64) -> Value {
        let smss = self
            .d
            .inputs()
            .find(|&(n, u, v)| n == "SMSS" && u == Unit::Bytes && v > 0)
            .map_or(flow_mss, |(_, _, v)| v);
        let mut v = self.to_json();
        if let Some(m) = v.as_object_mut() {
            m.insert("text_segments".into(), json!(self.d.text_in(ByteUnit::Segments(smss))));
        }
        v
    }

    /// One narrative line: `2.069 s  flow 0  …`.
    pub fn line(&self) -> String {
        format!(
            "{:.6} s  flow {}  {}",
            crate::time::ns_to_secs(self.t),
            self.flow,
            self.d.text()
        )
    }
}

/// The rule table as JSON (for the page and `cwndlab explain --rules`).
pub fn rules_json() -> Value {
    let fields =
        |f: &[(&str, Unit)]| -> Vec<Value> { f.iter().map(|(n, u)| json!({"name": n, "unit": u.name()})).collect() };
    json!({
        "glossary": GLOSSARY.iter().map(|(t, l, d)| json!({"term": t, "label": l, "definition": d})).collect::<Vec<_>>(),
        "units": super::ShownUnit::ALL.iter().map(|u| u.to_json()).collect::<Vec<_>>(),
        "kinds": Kind::ALL.iter().map(|k| json!({"id": k.name(), "description": k.description()})).collect::<Vec<_>>(),
        "rules": RULES.iter().map(|r| json!({
            "id": r.id,
            "kind": r.kind.name(),
            "title": r.title,
            "source": r.source,
            "formula": r.formula,
            "inputs": fields(r.inputs),
            "outputs": fields(r.outputs),
        })).collect::<Vec<_>>(),
    })
}
