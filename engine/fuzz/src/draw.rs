//! Drawing scenarios from the parameter table (`cwndlab_core::schema`).
//!
//! Case `i` of seed `S` is a pure function of (S, i): every draw comes from the engine's
//! counter-based hash (`rng::hash_words`, SplitMix64), so a case replays without a file.
//!
//! A case is either valid-minded (four in five: every value inside its range, at an edge,
//! its default or anywhere inside, log-uniformly across wide ranges; starts, stops and
//! timeline times inside the run) or poisoned (one in five: besides valid values, one to
//! three leaves get a value the table refuses: min − 1, max + 1, 2 × max, a fraction for an
//! integer, a bogus choice, the wrong type; or a list item with a bad field). Each poisoned
//! path is recorded: the validation must name it.

use cwndlab_core::rng::{hash_words, mix64};
use cwndlab_core::schema::{self, ItemField, ItemKind, Kind, ParamDef};
use serde_json::{json, Map, Value};

/// Counter-based random draws for one case.
pub struct Rng(u64);

impl Rng {
    /// The draws of case `case` of seed `seed`.
    pub fn new(seed: u64, case: u64) -> Rng {
        Rng(hash_words(&[0x6675_7a7a, seed, case]))
    }

    /// A uniform 64-bit word.
    pub fn word(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix64(self.0)
    }

    /// Uniform in 0..n (0 for n = 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.word() as u128 * n as u128) >> 64) as u64
    }

    /// Uniform in lo..=hi.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability num/den.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.word() >> 11) as f64 / 9_007_199_254_740_992.0
    }

    /// One of the items.
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

/// A drawn scenario and what was deliberately wrong in it.
#[derive(Clone, Debug)]
pub struct Drawn {
    /// The scenario document (a partial scenario: the engine fills in the defaults).
    pub doc: Value,
    /// Paths given a value the table refuses; the validation must name each.
    pub poisoned: Vec<String>,
}

/// Whether the case is poisoned, and its duration (which the times inside it follow).
struct Ctx {
    poison: bool,
    duration: f64,
    flows: usize,
    poisoned: Vec<String>,
}

/// Float in [lo, hi]: log-uniform when the range spans decades above 0, else uniform.
fn inside_f(r: &mut Rng, lo: f64, hi: f64) -> f64 {
    let lo_pos = if lo > 0.0 { lo } else { (hi * 1e-9).max(1e-12) };
    if hi / lo_pos > 1e3 && r.chance(2, 3) {
        let (a, b) = (lo_pos.ln(), hi.ln());
        (a + (b - a) * r.unit()).exp().clamp(lo, hi)
    } else {
        (lo + (hi - lo) * r.unit()).clamp(lo, hi)
    }
}

/// Integer in [lo, hi]: log-uniform when the range spans decades, else uniform.
fn inside_i(r: &mut Rng, lo: u64, hi: u64) -> u64 {
    if hi - lo > 1000 && r.chance(2, 3) {
        let a = ((lo.max(1)) as f64).ln();
        let b = (hi as f64).ln();
        ((a + (b - a) * r.unit()).exp() as u64).clamp(lo, hi)
    } else {
        r.range(lo, hi)
    }
}

/// A valid integer: an edge, the default or inside.
fn int_value(r: &mut Rng, lo: u64, hi: u64, default: Option<u64>) -> u64 {
    match r.below(10) {
        0 => lo,
        1 => hi,
        2 => lo.saturating_add(1).min(hi),
        3 => hi.saturating_sub(1).max(lo),
        4 => lo + (hi - lo) / 2,
        5 => default.unwrap_or(lo),
        _ => inside_i(r, lo, hi),
    }
}

/// A valid float: an edge, the default or inside.
fn float_value(r: &mut Rng, lo: f64, hi: f64, default: Option<f64>) -> f64 {
    match r.below(10) {
        0 => lo,
        1 => hi,
        2 => (lo + (hi - lo) * 1e-6).min(hi),
        3 => (hi - (hi - lo) * 1e-6).max(lo),
        4 => (lo + hi) / 2.0,
        5 => default.unwrap_or(lo),
        _ => inside_f(r, lo, hi),
    }
}

/// A value the table refuses for an integer in [lo, hi].
fn bad_int(r: &mut Rng, lo: u64, hi: u64) -> Value {
    match r.below(8) {
        0 if lo > 0 => json!(lo - 1),
        0 | 1 => json!(-1),
        2 if hi < u64::MAX => json!(hi + 1),
        3 if hi < u64::MAX / 2 => json!(hi * 2 + 1),
        4 => json!(lo as f64 + 0.5),
        5 => json!("12"),
        6 => Value::Null,
        _ => json!([lo]),
    }
}

/// A value the table refuses for a float in [lo, hi].
fn bad_float(r: &mut Rng, lo: f64, hi: f64) -> Value {
    match r.below(7) {
        0 => json!(lo - 1.0 - lo.abs()),
        1 => json!(hi + 1.0 + hi.abs()),
        2 if hi > 0.0 => json!(hi * 2.0 + 1e-9),
        3 => json!("0.5"),
        4 => Value::Bool(true),
        5 => json!({}),
        _ => json!(-1e300),
    }
}

impl Ctx {
    /// Whether this leaf is poisoned (in a poisoned case, now and then).
    fn poison_here(&mut self, r: &mut Rng, path: &str) -> bool {
        if self.poison && r.chance(1, 25) {
            self.poisoned.push(path.to_string());
            true
        } else {
            false
        }
    }

    /// A value for a leaf parameter (`path` as written in the document).
    fn leaf(&mut self, r: &mut Rng, def: &ParamDef, path: &str) -> Value {
        let poison = self.poison_here(r, path);
        let name = def.path;
        match &def.kind {
            Kind::Int { min, max, default } => {
                if poison {
                    bad_int(r, *min, *max)
                } else {
                    json!(int_value(r, *min, *max, Some(*default)))
                }
            }
            Kind::Float { min, max, default, .. } => {
                if poison {
                    return bad_float(r, *min, *max);
                }
                // Times inside the run, so that the run reaches them.
                if name == "flows[].start" && r.chance(9, 10) {
                    return json!(self.duration * r.unit() * 0.9);
                }
                let mut x = float_value(r, *min, *max, Some(*default));
                if name.starts_with("flows[].cc.binomial_") {
                    // Binomial powers are whole or half numbers.
                    x = ((x * 2.0).round() / 2.0).clamp(*min, *max);
                }
                json!(x)
            }
            Kind::Enum { options, .. } => {
                if poison {
                    return r.pick(&[json!("bogus"), json!(3), Value::Null, json!("")]).clone();
                }
                json!(r.pick(options).value)
            }
            Kind::Bool { .. } => {
                if poison {
                    return r.pick(&[json!(0), json!("true"), Value::Null]).clone();
                }
                json!(r.chance(1, 2))
            }
            Kind::List { items } => {
                if poison && r.chance(1, 2) {
                    return r.pick(&[json!("none"), json!(5), Value::Null, json!({})]).clone();
                }
                self.poison_undo(poison, path);
                self.list(r, name, items, path)
            }
        }
    }

    /// A list poisoned item by item instead: forget the whole-list poison.
    fn poison_undo(&mut self, poison: bool, path: &str) {
        if poison && self.poisoned.last().map(String::as_str) == Some(path) {
            self.poisoned.pop();
        }
    }

    /// A value for one field of a list item.
    fn item_field(&mut self, r: &mut Rng, list: &str, f: &ItemField, path: &str) -> Value {
        let poison = self.poison_here(r, path);
        match &f.kind {
            ItemKind::Int { min, max } => {
                if poison {
                    return bad_int(r, *min, *max);
                }
                let (lo, hi) = match (list, f.name) {
                    // Scripted drops on the segments a short run sends, mostly.
                    ("flows[].drops", "segment") if r.chance(4, 5) => (1, 60),
                    ("flows[].drops", "attempt") if r.chance(4, 5) => (1, 4),
                    _ => (*min, *max),
                };
                json!(int_value(r, lo, hi, f.default.map(|d| d as u64)))
            }
            ItemKind::Float { min, max } => {
                if poison {
                    return bad_float(r, *min, *max);
                }
                match f.name {
                    "at" | "start" if r.chance(9, 10) => json!(self.duration * r.unit()),
                    "stop" if r.chance(1, 2) => json!(0.0),
                    "stop" => json!((self.duration * (0.2 + r.unit())).min(*max)),
                    _ => json!(float_value(r, *min, *max, f.default)),
                }
            }
            ItemKind::Enum { options, .. } => {
                if poison {
                    return json!("bogus");
                }
                json!(r.pick(options).value)
            }
            ItemKind::Bool { .. } => {
                if poison {
                    return json!("yes");
                }
                json!(r.chance(1, 2))
            }
            // Timeline entries are drawn whole (`timeline_entry`).
            ItemKind::Path | ItemKind::Value => Value::Null,
        }
    }

    /// A list of items drawn field by field.
    fn list(&mut self, r: &mut Rng, name: &str, items: &[ItemField], path: &str) -> Value {
        if name == "timeline" {
            let n = if r.chance(1, 2) { 0 } else { r.range(1, 8) };
            return Value::Array(
                (0..n)
                    .map(|k| self.timeline_entry(r, &format!("{path}[{k}]")))
                    .collect(),
            );
        }
        let n = match (name, r.below(20)) {
            (_, 0..=9) => 0,
            ("cross", 19) => r.range(4, 16),
            (_, 19) => r.range(6, 40),
            _ => r.range(1, 3),
        };
        let mut list = Vec::new();
        for k in 0..n {
            let at = format!("{path}[{k}]");
            let mut o = Map::new();
            for f in items {
                // Optional fields left out now and then; required ones always there.
                let required = f.default.is_none() && f.kind.own_default().is_none();
                if !required && r.chance(1, 4) {
                    continue;
                }
                let v = self.item_field(r, name, f, &format!("{at}.{}", f.name));
                o.insert(f.name.to_string(), v);
            }
            if self.poison && r.chance(1, 40) {
                o.insert("colour".into(), json!(1));
                self.poisoned.push(format!("{at}.colour"));
            }
            list.push(Value::Object(o));
        }
        Value::Array(list)
    }

    /// A timeline entry: a live parameter (of every flow, one flow or the network) and a
    /// value for it.
    fn timeline_entry(&mut self, r: &mut Rng, at_path: &str) -> Value {
        let live: Vec<&ParamDef> = schema::params().iter().filter(|p| p.live).collect();
        let def = *r.pick(&live);
        let poison_set = self.poison_here(r, &format!("{at_path}.set"));
        let set = if poison_set {
            r.pick(&["flows[0].tcp.mss", "no.such", "flows[99].app.write_size", "duration"])
                .to_string()
        } else if let Some(rest) = def.path.strip_prefix("flows[].") {
            if r.chance(1, 3) {
                def.path.to_string()
            } else {
                format!("flows[{}].{rest}", r.below(self.flows as u64))
            }
        } else {
            def.path.to_string()
        };
        let value = self.leaf(r, def, &format!("{at_path}.value"));
        let at = if self.poison_here(r, &format!("{at_path}.at")) {
            json!(self.duration * 2.0 + 1.0)
        } else {
            json!(self.duration * r.unit())
        };
        json!({"at": at, "set": set, "value": value})
    }
}

/// Writes `value` at a dotted path inside an object, creating objects on the way.
pub fn put(doc: &mut Value, path: &str, value: Value) {
    let mut cur = doc;
    let mut parts = path.split('.').peekable();
    while let Some(p) = parts.next() {
        let o = cur.as_object_mut().expect("an object");
        if parts.peek().is_none() {
            o.insert(p.to_string(), value);
            return;
        }
        cur = o.entry(p.to_string()).or_insert_with(|| Value::Object(Map::new()));
    }
}

/// The names of the catalogue entries and `custom` (the choices of `flows[].algorithm`).
pub fn algorithms() -> Vec<&'static str> {
    match &schema::find("flows[].algorithm").expect("in the table").kind {
        Kind::Enum { options, .. } => options.iter().map(|c| c.value).collect(),
        _ => unreachable!("an enum"),
    }
}

/// Draws case `case` of seed `seed`.
pub fn draw(seed: u64, case: u64) -> Drawn {
    let mut r = Rng::new(seed, case);
    let poison = r.chance(1, 5);
    // How many parameters are set: a few (most cases) to many.
    let density = *r.pick(&[1u64, 3, 6, 12, 25]);
    let mut doc = Value::Object(Map::new());
    let duration = match r.below(10) {
        0..=5 => 0.05 + 3.0 * r.unit(),
        6..=7 => float_value(&mut r, 0.001, 100_000.0, Some(20.0)),
        _ => 20.0,
    };
    let flows = match r.below(100) {
        0..=44 => 1,
        45..=74 => r.range(2, 4) as usize,
        75..=89 => r.range(5, 16) as usize,
        90..=97 => r.range(17, 63) as usize,
        _ => 64,
    };
    let mut ctx = Ctx {
        poison,
        duration,
        flows,
        poisoned: Vec::new(),
    };
    if duration != 20.0 {
        put(&mut doc, "duration", json!(duration));
    }
    let mut flow_docs: Vec<Value> = (0..flows).map(|_| Value::Object(Map::new())).collect();
    let algs = algorithms();
    for (i, f) in flow_docs.iter_mut().enumerate() {
        // A named algorithm on most flows (every catalogue entry, and `custom`).
        if r.chance(2, 3) {
            let poison = ctx.poison_here(&mut r, &format!("flows[{i}].algorithm"));
            put(
                f,
                "algorithm",
                if poison { json!("vegas") } else { json!(r.pick(&algs)) },
            );
        }
    }
    for def in schema::params() {
        if def.path == "duration" || def.path == "flows[].algorithm" {
            continue;
        }
        if let Some(rest) = def.path.strip_prefix("flows[].") {
            // Per-flow parameters on random flows.
            for (i, f) in flow_docs.iter_mut().enumerate() {
                if r.below(100) < density * 2 {
                    let v = ctx.leaf(&mut r, def, &format!("flows[{i}].{rest}"));
                    put(f, rest, v);
                }
            }
            // A scripted application needs its writes (flows[].app.writes comes later in
            // the table than app.kind).
            if rest == "app.writes" {
                for (i, f) in flow_docs.iter_mut().enumerate() {
                    let scripted = f.pointer("/app/kind").and_then(Value::as_str) == Some("scripted");
                    let empty = f
                        .pointer("/app/writes")
                        .and_then(Value::as_array)
                        .is_none_or(|w| w.is_empty());
                    if scripted && empty && !ctx.poison {
                        let items = match &def.kind {
                            Kind::List { items } => *items,
                            _ => unreachable!(),
                        };
                        let mut w = ctx.list(&mut r, "flows[].app.writes", items, &format!("flows[{i}].app.writes"));
                        if w.as_array().is_some_and(|a| a.is_empty()) {
                            w = json!([{"at": duration * r.unit(), "bytes": inside_i(&mut r, 1, 1 << 20)}]);
                        }
                        put(f, "app.writes", w);
                    }
                }
            }
        } else if def.path == "timeline" || def.path == "cross" {
            if r.chance(1, 2) {
                let v = ctx.leaf(&mut r, def, def.path);
                put(&mut doc, def.path, v);
            }
        } else if r.below(100) < density * 3 {
            let v = ctx.leaf(&mut r, def, def.path);
            put(&mut doc, def.path, v);
        }
    }
    // Flows as a list, or left out (the default single flow) now and then; a poisoned
    // case may have none or too many.
    if ctx.poison && r.chance(1, 30) {
        let n = if r.chance(1, 2) { 0 } else { 65 };
        flow_docs = (0..n).map(|_| json!({})).collect();
        // What was poisoned in the flows drawn is gone with them.
        ctx.poisoned.retain(|p| !p.starts_with("flows["));
        ctx.poisoned.push("flows".into());
    }
    if !(flow_docs.len() == 1 && flow_docs[0].as_object().is_some_and(Map::is_empty) && r.chance(1, 2)) {
        put(&mut doc, "flows", Value::Array(flow_docs));
    }
    Drawn {
        doc,
        poisoned: ctx.poisoned,
    }
}

/// Removes what a problem names from a valid-minded draw the validation refused for a
/// rule between parameters (a flow starting after the end, rto.min above rto.max, …): the
/// named leaf, or the whole list item a path inside a list names. Returns false when the
/// path cannot be found.
pub fn remove(doc: &mut Value, path: &str) -> bool {
    // Inside an item of a list parameter (timeline, cross, drops, writes; not a flow):
    // drop the item.
    let mut parts: Vec<&str> = path.split('.').collect();
    for (k, p) in parts.iter().enumerate() {
        if p.ends_with(']') && !p.ends_with("[]") && !p.starts_with("flows[") {
            parts.truncate(k + 1);
            break;
        }
    }
    fn walk<'a>(v: &'a mut Value, part: &str) -> Option<&'a mut Value> {
        match part.split_once('[') {
            None => v.get_mut(part),
            Some((name, idx)) => {
                let idx: usize = idx.trim_end_matches(']').parse().ok()?;
                v.get_mut(name)?.get_mut(idx)
            }
        }
    }
    let (last, parents) = parts.split_last().expect("a path");
    // `flows[].x`: every flow.
    if let Some(i) = parents.iter().position(|p| *p == "flows[]") {
        let rest = parts[i + 1..].join(".");
        let Some(list) = doc.get_mut("flows").and_then(Value::as_array_mut) else {
            return false;
        };
        let mut any = false;
        for f in list {
            any |= remove(f, &rest);
        }
        return any;
    }
    let mut cur = doc;
    for p in parents {
        match walk(cur, p) {
            Some(v) => cur = v,
            None => return false,
        }
    }
    match last.split_once('[') {
        Some((name, idx)) => {
            let Ok(idx) = idx.trim_end_matches(']').parse::<usize>() else {
                return false;
            };
            match cur.get_mut(name).and_then(Value::as_array_mut) {
                Some(a) if idx < a.len() => {
                    a.remove(idx);
                    true
                }
                _ => false,
            }
        }
        None => match *last {
            "flows" => match doc_list(cur, "flows") {
                Some(a) if a.len() > 64 => {
                    a.truncate(64);
                    true
                }
                _ => false,
            },
            "cross" => match doc_list(cur, "cross") {
                Some(a) if a.len() > 16 => {
                    a.truncate(16);
                    true
                }
                _ => false,
            },
            leaf => cur.as_object_mut().and_then(|o| o.remove(leaf)).is_some(),
        },
    }
}

fn doc_list<'a>(v: &'a mut Value, name: &str) -> Option<&'a mut Vec<Value>> {
    v.get_mut(name).and_then(Value::as_array_mut)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_is_a_function_of_seed_and_index() {
        for i in 0..50 {
            assert_eq!(draw(7, i).doc, draw(7, i).doc);
        }
        assert_ne!(draw(7, 1).doc, draw(8, 1).doc);
    }

    #[test]
    fn removal_reaches_leaves_items_and_every_flow() {
        let mut d = json!({"flows": [{"rto": {"min": 1, "max": 2}}, {"rto": {"min": 3}}],
                           "timeline": [{"at": 1}, {"at": 2}], "seed": 3});
        assert!(remove(&mut d, "flows[1].rto.min"));
        assert!(remove(&mut d, "timeline[0].at"));
        assert!(remove(&mut d, "seed"));
        assert!(remove(&mut d, "flows[].rto.max"));
        assert_eq!(
            d,
            json!({"flows": [{"rto": {"min": 1}}, {"rto": {}}], "timeline": [{"at": 2}]})
        );
        assert!(!remove(&mut d, "flows[5].rto.min"));
    }
}
