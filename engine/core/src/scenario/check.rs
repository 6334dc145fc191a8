//! Reading and checking a partial scenario: parameter paths (`flows[2].tcp.mss`), each
//! value against the parameter table, list items against their fields, the merge over the
//! defaults that reports every unknown key, `--set`'s path and value, and the rules that
//! relate several settings (`Scenario::cross_checks`).

use super::*;

/// One thing wrong with a scenario: where, and what. Serialised as `{path, message, text}`,
/// `text` being the one-line form every front end shows (see `Display`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Parameter path, e.g. `flows[0].tcp.mss` (empty for the document itself).
    pub path: String,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl Problem {
    pub(super) fn new(path: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// Puts a subject before a message: `path = 2 s is out of range…` when the message states
/// the value, `path: unknown parameter…` otherwise.
pub(super) fn subject_then(subject: &str, message: &str) -> String {
    if subject.is_empty() {
        message.to_string()
    } else if message.starts_with("= ") {
        format!("{subject} {message}")
    } else {
        format!("{subject}: {message}")
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&subject_then(&self.path, &self.message))
    }
}

impl Serialize for Problem {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Problem", 3)?;
        st.serialize_field("path", &self.path)?;
        st.serialize_field("message", &self.message)?;
        st.serialize_field("text", &self.to_string())?;
        st.end()
    }
}

/// Which flows a path names: `flows[3].x` → Some(3), `flows[].x` → None (all), others → None.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowSel {
    /// Not a flow parameter.
    Global,
    /// Every flow.
    All,
    /// One flow.
    One(usize),
}

/// Splits a user path into its table path and flow selection: `flows[2].tcp.mss` →
/// (`flows[].tcp.mss`, One(2)).
pub fn normalise_path(path: &str) -> Result<(String, FlowSel), String> {
    if let Some(rest) = path.strip_prefix("flows[") {
        let close = rest.find(']').ok_or_else(|| format!("`{path}`: missing `]`"))?;
        let idx = &rest[..close];
        let tail = rest[close + 1..]
            .strip_prefix('.')
            .ok_or_else(|| format!("`{path}`: expected `.` after `]`"))?;
        let sel = if idx.is_empty() {
            FlowSel::All
        } else {
            FlowSel::One(
                idx.parse::<usize>()
                    .map_err(|_| format!("`{path}`: flow index `{idx}` is not a number"))?,
            )
        };
        Ok((format!("flows[].{tail}"), sel))
    } else {
        Ok((path.to_string(), FlowSel::Global))
    }
}

/// Resolves a timeline path to a live parameter.
pub fn live_target(path: &str, n_flows: usize) -> Result<(&'static ParamDef, FlowSel), String> {
    let (table_path, sel) = normalise_path(path)?;
    let def = schema::find(&table_path).ok_or_else(|| format!("unknown parameter `{path}`"))?;
    if !def.live {
        let live: Vec<&str> = schema::params().iter().filter(|p| p.live).map(|p| p.path).collect();
        return Err(format!(
            "`{path}` cannot change during a run; live parameters: {}",
            live.join(", ")
        ));
    }
    if let FlowSel::One(i) = sel {
        if i >= n_flows {
            return Err(format!("`{path}`: there is no flow {i} (the scenario has {n_flows})"));
        }
    }
    Ok((def, sel))
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn fmt_num(x: f64) -> String {
    if x != 0.0 && (x.abs() < 1e-3 || x.abs() >= 1e7) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

fn unit_suffix(unit: &str) -> String {
    if unit.is_empty() || unit == "1" {
        String::new()
    } else {
        format!(" {unit}")
    }
}

/// Checks one leaf value against its definition; returns what is wrong, if anything.
pub fn check_leaf(def: &ParamDef, v: &Value) -> Option<String> {
    let unit = unit_suffix(def.unit);
    match &def.kind {
        Kind::Int { min, max, .. } => {
            let ok_int = v.as_u64().or_else(|| {
                v.as_f64()
                    .filter(|x| x.fract() == 0.0 && *x >= 0.0 && *x <= 9.007_199_254_740_991e15)
                    .map(|x| x as u64)
            });
            match ok_int {
                Some(n) if n >= *min && n <= *max => None,
                Some(n) => Some(format!("= {n}{unit} is out of range; allowed {min} to {max}{unit}")),
                None => Some(format!("= {v} is not a whole number; allowed {min} to {max}{unit}")),
            }
        }
        Kind::Float { min, max, .. } => match v.as_f64() {
            Some(x) if x.is_finite() && x >= *min && x <= *max => None,
            Some(x) => Some(format!(
                "= {}{unit} is out of range; allowed {} to {}{unit}",
                fmt_num(x),
                fmt_num(*min),
                fmt_num(*max)
            )),
            None => Some(format!(
                "= {v} is {}, not a number; allowed {} to {}{unit}",
                type_name(v),
                fmt_num(*min),
                fmt_num(*max)
            )),
        },
        Kind::Enum { options, .. } => {
            let names: Vec<&str> = options.iter().map(|c| c.value).collect();
            match v.as_str() {
                Some(s) if names.contains(&s) => None,
                _ => Some(format!("= {v} is not one of: {}", names.join(", "))),
            }
        }
        Kind::Bool { .. } => match v {
            Value::Bool(_) => None,
            _ => Some(format!("= {v} is {}; allowed true or false", type_name(v))),
        },
        Kind::List { items } => match v.as_array() {
            None => Some(format!("= {v} is {}; expected a list", type_name(v))),
            Some(_) => {
                let _ = items;
                None
            }
        },
    }
}

fn check_item(path: &str, item: &Value, fields: &[ItemField], out: &mut Vec<Problem>) {
    let Some(obj) = item.as_object() else {
        out.push(Problem::new(
            path,
            format!("= {item} is {}; expected an object", type_name(item)),
        ));
        return;
    };
    for key in obj.keys() {
        if !fields.iter().any(|f| f.name == key) {
            let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
            out.push(Problem::new(
                format!("{path}.{key}"),
                format!("unknown field; expected: {}", names.join(", ")),
            ));
        }
    }
    for f in fields {
        let p = format!("{path}.{}", f.name);
        let Some(v) = obj.get(f.name) else {
            if f.default_value().is_none() {
                out.push(Problem::new(p, "is missing"));
            }
            continue;
        };
        let unit = unit_suffix(f.unit);
        match f.kind {
            ItemKind::Int { min, max } => match v.as_u64() {
                Some(n) if n >= min && n <= max => {}
                _ => out.push(Problem::new(
                    p,
                    format!("= {v} is not allowed; allowed whole numbers {min} to {max}{unit}"),
                )),
            },
            ItemKind::Float { min, max } => match v.as_f64() {
                Some(x) if x.is_finite() && x >= min && x <= max => {}
                _ => out.push(Problem::new(
                    p,
                    format!(
                        "= {v} is not allowed; allowed {} to {}{unit}",
                        fmt_num(min),
                        fmt_num(max)
                    ),
                )),
            },
            ItemKind::Path => {
                if !v.is_string() {
                    out.push(Problem::new(
                        p,
                        format!("= {v} is {}; expected a parameter path", type_name(v)),
                    ));
                }
            }
            ItemKind::Value => {}
            ItemKind::Enum { options, .. } => {
                if !options.iter().any(|c| v.as_str() == Some(c.value)) {
                    let names: Vec<String> = options.iter().map(|c| format!("\"{}\"", c.value)).collect();
                    out.push(Problem::new(
                        p,
                        format!("= {v} is not allowed; allowed: {}", names.join(", ")),
                    ));
                }
            }
            ItemKind::Bool { .. } => {
                if !v.is_boolean() {
                    out.push(Problem::new(
                        p,
                        format!("= {v} is {}; expected true or false", type_name(v)),
                    ));
                }
            }
        }
    }
}

/// Checks every parameter of a merged scenario object against the table.
pub(super) fn check_values(merged: &Value) -> Vec<Problem> {
    let mut out = Vec::new();
    let flows = merged
        .get("flows")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for def in schema::params() {
        let targets: Vec<(String, Option<&Value>)> = if let Some(rest) = def.path.strip_prefix("flows[].") {
            flows
                .iter()
                .enumerate()
                .map(|(i, f)| (format!("flows[{i}].{rest}"), get_path(f, rest)))
                .collect()
        } else {
            vec![(def.path.to_string(), get_path(merged, def.path))]
        };
        for (path, v) in targets {
            let Some(v) = v else {
                out.push(Problem::new(path, "is missing"));
                continue;
            };
            if let Some(msg) = check_leaf(def, v) {
                out.push(Problem::new(path.clone(), msg));
                continue;
            }
            if let (Kind::List { items }, Some(list)) = (&def.kind, v.as_array()) {
                for (j, item) in list.iter().enumerate() {
                    check_item(&format!("{path}[{j}]"), item, items, &mut out);
                }
            }
        }
    }
    out
}

/// Reads a dotted path inside a JSON value, for writing.
pub(crate) fn get_path_mut<'a>(v: &'a mut Value, path: &str) -> Option<&'a mut Value> {
    path.split('.').try_fold(v, |cur, key| cur.get_mut(key))
}

/// Reads a dotted path inside a JSON value.
pub fn get_path<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(v, |cur, key| cur.get(key))
}

/// Writes a dotted path inside a JSON object, creating the objects on the way; false (and
/// nothing written) when the path runs into something that is not an object.
pub fn set_dotted(v: &mut Value, path: &str, value: Value) -> bool {
    let (parents, leaf) = path.rsplit_once('.').map_or(("", path), |(p, l)| (p, l));
    let mut cur = v;
    for part in parents.split('.').filter(|p| !p.is_empty()) {
        let Some(o) = cur.as_object_mut() else {
            return false;
        };
        cur = o.entry(part.to_string()).or_insert_with(|| Value::Object(Map::new()));
    }
    match cur.as_object_mut() {
        Some(o) => {
            o.insert(leaf.to_string(), value);
            true
        }
        None => false,
    }
}

/// Merges `over` into `base`, which holds the defaults: known keys are merged (objects
/// recursively), unknown keys are reported with their full path and left out.
fn merge_known(base: &mut Value, over: &Value, path: &str, problems: &mut Vec<Problem>) {
    let (Some(b), Some(o)) = (base.as_object_mut(), over.as_object()) else {
        return;
    };
    for (k, v) in o {
        let p = if path.is_empty() {
            k.clone()
        } else {
            format!("{path}.{k}")
        };
        match b.get_mut(k) {
            None => {
                let known: Vec<&str> = b.keys().map(String::as_str).collect();
                problems.push(Problem::new(
                    p,
                    format!("unknown parameter; known here: {}", known.join(", ")),
                ));
            }
            Some(bv) if bv.is_object() => {
                if v.is_object() {
                    merge_known(bv, v, &p, problems);
                } else {
                    problems.push(Problem::new(
                        p,
                        format!("= {v} is {}; expected an object", type_name(v)),
                    ));
                }
            }
            Some(bv) => *bv = v.clone(),
        }
    }
}

/// Merges a partial scenario over the defaults (each flow over the flow defaults). Returns
/// the merged object and the structural problems found (unknown keys, non-objects); fails
/// outright only if the document is not an object at all.
pub(super) fn merge_over_defaults(user: &Value) -> Result<(Value, Vec<Problem>), Vec<Problem>> {
    let Some(obj) = user.as_object() else {
        return Err(vec![Problem::new(
            "",
            format!("a scenario must be a JSON object, not {}", type_name(user)),
        )]);
    };
    let mut problems = Vec::new();
    // Everything but the flows (copied without them: a scenario's flows are most of it).
    let top: Map<String, Value> = obj
        .iter()
        .filter(|(k, _)| k.as_str() != "flows")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let flows_user = obj.get("flows");
    let mut merged = schema::scenario_defaults();
    merge_known(&mut merged, &Value::Object(top), "", &mut problems);
    if let Some(fu) = flows_user {
        match fu.as_array() {
            None => problems.push(Problem::new(
                "flows",
                format!("= {fu} is {}; expected a list of flows", type_name(fu)),
            )),
            Some(list) => {
                let flow_defaults = schema::flow_defaults();
                let mut flows = Vec::new();
                for (i, f) in list.iter().enumerate() {
                    let mut fm = flow_defaults.clone();
                    // A named algorithm sets its axes first; explicit keys then override.
                    if let Some(alg) = f
                        .get("algorithm")
                        .and_then(Value::as_str)
                        .and_then(crate::catalogue::find)
                    {
                        crate::catalogue::apply(&mut fm, alg);
                    }
                    if f.is_object() {
                        merge_known(&mut fm, f, &format!("flows[{i}]"), &mut problems);
                    } else {
                        problems.push(Problem::new(
                            format!("flows[{i}]"),
                            format!("is {}; expected an object", type_name(f)),
                        ));
                    }
                    flows.push(fm);
                }
                merged["flows"] = Value::Array(flows);
            }
        }
    }
    Ok((merged, problems))
}

/// Merges a partial scenario over the defaults, as [`Scenario::from_value`] does before
/// checking values; fails if there are unknown keys or malformed structure.
pub fn resolve(user: &Value) -> Result<Value, Vec<Problem>> {
    let (merged, problems) = merge_over_defaults(user)?;
    if problems.is_empty() {
        Ok(merged)
    } else {
        Err(problems)
    }
}

/// Reads a `--set` value: JSON if it parses (numbers, booleans, quoted strings, lists),
/// otherwise the text as a string (so `--set flows[0].variant=reno` works unquoted).
pub fn parse_set_value(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_string()))
}

/// Sets a parameter in a (merged or partial) scenario object. `flows[i].x` sets one flow,
/// `flows[].x` every flow. The value is checked against the table.
pub fn set_path(doc: &mut Value, path: &str, value: Value) -> Result<(), Problem> {
    let (table_path, sel) = normalise_path(path).map_err(|m| Problem::new(path, m))?;
    let def = schema::find(&table_path)
        .ok_or_else(|| Problem::new(path, "unknown parameter (run `cwndlab schema` to list them)"))?;
    if let Some(msg) = check_leaf(def, &value) {
        return Err(Problem::new(path, msg));
    }
    // Setting a flow's named algorithm also sets the axes it names (as in a scenario file).
    let alg = (table_path == "flows[].algorithm")
        .then(|| value.as_str().and_then(crate::catalogue::find))
        .flatten();
    let set_in = |obj: &mut Value, rel: &str| -> Result<(), Problem> {
        if let Some(a) = alg {
            crate::catalogue::switch_to(obj, a);
        }
        if set_dotted(obj, rel, value.clone()) {
            Ok(())
        } else {
            Err(Problem::new(path, "cannot set inside a non-object"))
        }
    };
    match sel {
        FlowSel::Global => set_in(doc, &table_path),
        FlowSel::All | FlowSel::One(_) => {
            let rel = table_path.strip_prefix("flows[].").expect("flow path");
            let root = doc
                .as_object_mut()
                .ok_or_else(|| Problem::new(path, "scenario is not an object"))?;
            let flows = root
                .entry("flows")
                .or_insert_with(|| Value::Array(vec![Value::Object(Map::new())]));
            let list = flows
                .as_array_mut()
                .ok_or_else(|| Problem::new(path, "`flows` is not a list"))?;
            match sel {
                FlowSel::One(i) => {
                    if i >= list.len() {
                        if i > list.len() || i >= MAX_FLOWS {
                            return Err(Problem::new(
                                path,
                                format!(
                                    "there is no flow {i}; the scenario has {} (add flows in order)",
                                    list.len()
                                ),
                            ));
                        }
                        list.push(Value::Object(Map::new()));
                    }
                    set_in(&mut list[i], rel)
                }
                _ => list.iter_mut().try_for_each(|f| set_in(f, rel)),
            }
        }
    }
}

impl Scenario {
    /// The rules that relate several settings, checked once every value is valid (a flow
    /// count within limits, what an application may write, what BR-TCP, BBR and new CWV need
    /// of the rest).
    pub(super) fn cross_checks(&self) -> Vec<Problem> {
        /// Most bytes an application may write in one run: TCP stream offsets are u64.
        const MAX_STREAM_BYTES: u64 = 1 << 62;
        let mut out = Vec::new();
        if self.flows.is_empty() || self.flows.len() > MAX_FLOWS {
            out.push(Problem::new(
                "flows",
                format!("has {} flows; allowed 1 to {MAX_FLOWS}", self.flows.len()),
            ));
        }
        for (i, f) in self.flows.iter().enumerate() {
            let at = |s: &str| format!("flows[{i}].{s}");
            if f.tcp.rwnd < f.tcp.mss {
                out.push(Problem::new(
                    at("tcp.rwnd"),
                    format!(
                        "= {} B is smaller than the MSS ({} B); the receiver window must hold at least one full segment",
                        f.tcp.rwnd, f.tcp.mss
                    ),
                ));
            }
            if f.rto.min > f.rto.max {
                out.push(Problem::new(
                    at("rto.min"),
                    format!("= {} s is above rto.max = {} s", f.rto.min, f.rto.max),
                ));
            }
            if f.start >= self.duration {
                out.push(Problem::new(
                    at("start"),
                    format!(
                        "= {} s is not before the end of the run (duration = {} s)",
                        f.start, self.duration
                    ),
                ));
            }
            if f.cc.idle_policy == IdlePolicy::Rfc7661 && f.cc.growth_gate != GrowthGate::Always {
                out.push(Problem::new(
                    at("cc.growth_gate"),
                    format!(
                        "= \"{}\" cannot be combined with cc.idle_policy = \"rfc7661\": new CWV has its own growth rule (no growth in the non-validated phase, RFC 7661 §4.3); use growth_gate = \"always\" with rfc7661, or another idle policy with this gate",
                        f.cc.growth_gate.name()
                    ),
                ));
            }
            if let Some(problem) = crate::tcp::cc::bbr::settings::clashes(f) {
                out.push(Problem::new(at("cc.controller"), problem));
            }
            for (name, problem) in crate::tcp::cc::ecn::settings::clashes(f) {
                out.push(Problem::new(at(name), problem));
            }
            for (name, problem) in crate::tcp::recovery::sack::settings::clashes(f) {
                out.push(Problem::new(at(name), problem));
            }
            for (name, v) in [("cc.binomial_k", f.cc.binomial_k), ("cc.binomial_l", f.cc.binomial_l)] {
                if (v * 2.0).fract() != 0.0 {
                    out.push(Problem::new(
                        at(name),
                        format!("= {v} is not a whole or half number; binomial powers must be multiples of 0.5 (e.g. 0, 0.5, 1)"),
                    ));
                }
            }
            if f.variant == Variant::BrTcp && f.reserved_bandwidth == 0 {
                out.push(Problem::new(
                    at("reserved_bandwidth"),
                    "= 0 bit/s, but BR-TCP sets ssthresh from the reserved rate; give the flow's reserved bandwidth (e.g. 40000000 for 40 Mbit/s)",
                ));
            }
            // A periodic application's stream must fit its 64-bit offsets (found by the
            // fuzzing driver: 1 GB every microsecond for 43 060 s is 4.3·10^19 bytes). The
            // largest write size and the shortest interval the timeline gives it count.
            if !matches!(f.app.kind, AppKind::Bulk | AppKind::Scripted) {
                let mut size = f.app.write_size as f64;
                let mut gap = f.app.write_interval;
                for e in &self.timeline {
                    let Ok((path, sel)) = normalise_path(&e.set) else {
                        continue;
                    };
                    if matches!(sel, FlowSel::One(k) if k != i) {
                        continue;
                    }
                    match (path.as_str(), e.value.as_f64()) {
                        ("flows[].app.write_size", Some(v)) => size = size.max(v),
                        ("flows[].app.write_interval", Some(v)) if v > 0.0 => gap = gap.min(v),
                        _ => {}
                    }
                }
                let stream = size * (self.duration / gap).ceil();
                if stream > MAX_STREAM_BYTES as f64 {
                    out.push(Problem::new(
                        at("app.write_size"),
                        format!(
                            "× duration / app.write_interval = {stream:.3e} B: the application would write more than {MAX_STREAM_BYTES} B (2^62) in the run; use smaller writes, a longer interval or a shorter run"
                        ),
                    ));
                }
            }
            if f.app.kind == AppKind::Scripted && f.app.writes.is_empty() {
                out.push(Problem::new(
                    at("app.writes"),
                    "is empty, but app.kind is \"scripted\"; add at least one {at, bytes}",
                ));
            }
            for (j, d) in f.drops.iter().enumerate() {
                if d.segment == 0 && !f.tcp.syn {
                    out.push(Problem::new(
                        format!("flows[{i}].drops[{j}].segment"),
                        "= 0 names the SYN, but tcp.syn is off; data segments are numbered from 1",
                    ));
                }
            }
        }
        let b = &self.network.bottleneck;
        for (name, problem) in crate::net::qdisc::settings::clashes(b) {
            out.push(Problem::new(name, problem));
        }
        if b.scheduler == SchedulerKind::Reservation {
            let reserved: u64 = self.flows.iter().map(|f| f.reserved_bandwidth).sum();
            if reserved > b.bandwidth {
                out.push(Problem::new(
                    "flows[].reserved_bandwidth",
                    format!(
                        "reservations add up to {reserved} bit/s, above the bottleneck's {} bit/s (network.bottleneck.bandwidth); the reservation scheduler cannot guarantee more than the link carries",
                        b.bandwidth
                    ),
                ));
            }
        }
        if self.cross.len() > MAX_CROSS {
            out.push(Problem::new(
                "cross",
                format!("has {} sources; allowed at most {MAX_CROSS}", self.cross.len()),
            ));
        }
        for (k, c) in self.cross.iter().enumerate() {
            if c.start >= self.duration {
                out.push(Problem::new(
                    format!("cross[{k}].start"),
                    format!(
                        "= {} s is not before the end of the run (duration = {} s)",
                        c.start, self.duration
                    ),
                ));
            }
            if c.stop > 0.0 && c.stop <= c.start {
                out.push(Problem::new(
                    format!("cross[{k}].stop"),
                    format!(
                        "= {} s is not after start = {} s (0 means until the end)",
                        c.stop, c.start
                    ),
                ));
            }
        }
        for (k, e) in self.timeline.iter().enumerate() {
            let p = format!("timeline[{k}]");
            if e.at > self.duration {
                out.push(Problem::new(
                    format!("{p}.at"),
                    format!(
                        "= {} s is after the end of the run (duration = {} s)",
                        e.at, self.duration
                    ),
                ));
            }
            match live_target(&e.set, self.flows.len()) {
                Err(msg) => out.push(Problem::new(format!("{p}.set"), msg)),
                Ok((def, _)) => {
                    if let Some(msg) = check_leaf(def, &e.value) {
                        out.push(Problem::new(
                            format!("{p}.value"),
                            format!("for {}", subject_then(&e.set, &msg)),
                        ));
                    }
                }
            }
        }
        out
    }
}
