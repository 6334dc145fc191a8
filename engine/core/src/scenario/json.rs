//! The typed [`Scenario`](super::Scenario) and JSON, both ways: reading it out of its merged
//! and checked JSON object, and writing it (`Scenario::to_value`).
//!
//! By the time reading runs, every key is known and every value has the type and range the
//! table allows (`check_values`), so reading is a walk: one small function per setting
//! type. Each struct's fields are listed once beside its definition (`json_struct!`; the
//! compiler holds the list to the struct), each enum's names once beside it (`names!`),
//! and both directions come from those lists.
//!
//! This replaced serde's derived `Deserialize` and `Serialize`, whose generic code,
//! instantiated for every setting type and `serde_json::Value`, was ~135 KiB of the page's
//! engine (docs/performance.md, "What the lite engine is made of"). The values are the
//! same: `as_u64` and `as_f64` are what serde's visitors do with a JSON number, numbers are
//! written as serde_json writes them, and an object's keys are sorted either way (serde_json's
//! `Map` without `preserve_order`), so no number the engine computes and no scenario it
//! writes changed: the preset digests pin the first; for the second, every preset's
//! written scenario was compared with serde's, byte for byte, when this replaced it, and
//! the tests below read back what is written.

use crate::schema::{self, ItemField, Kind};
use serde_json::Value;

/// What was expected where reading failed; the path is built on the way out, so a read
/// that succeeds allocates nothing for it.
#[derive(Debug)]
pub(crate) struct ReadError {
    /// Path segments, innermost first (`mss`, `tcp`, `[0]`, `flows`).
    rev_path: Vec<String>,
    expected: &'static str,
}

impl ReadError {
    fn expected(what: &'static str) -> ReadError {
        ReadError {
            rev_path: Vec::new(),
            expected: what,
        }
    }

    fn within(mut self, segment: String) -> ReadError {
        self.rev_path.push(segment);
        self
    }

    /// The parameter path, e.g. `flows[0].tcp.mss`.
    pub(crate) fn path(&self) -> String {
        let mut out = String::new();
        for seg in self.rev_path.iter().rev() {
            if !out.is_empty() && !seg.starts_with('[') {
                out.push('.');
            }
            out.push_str(seg);
        }
        out
    }

    /// What the value should have been.
    pub(crate) fn expected_text(&self) -> &'static str {
        self.expected
    }
}

/// Gives every item of every list parameter (cross traffic, the timeline, a flow's scripted
/// drops and writes) the table's default for each field it leaves out, so that reading
/// finds every field.
pub(super) fn complete_items(merged: &mut Value) {
    let complete = |list: Option<&mut Value>, items: &[ItemField]| {
        for item in list.and_then(Value::as_array_mut).into_iter().flatten() {
            let Some(obj) = item.as_object_mut() else { continue };
            for f in items {
                if !obj.contains_key(f.name) {
                    if let Some(d) = f.default_value() {
                        obj.insert(f.name.to_string(), d);
                    }
                }
            }
        }
    };
    for def in schema::params() {
        let Kind::List { items } = def.kind else { continue };
        if let Some(rest) = def.path.strip_prefix("flows[].") {
            let flows = merged.get_mut("flows").and_then(Value::as_array_mut);
            for f in flows.into_iter().flatten() {
                complete(super::get_path_mut(f, rest), items);
            }
        } else {
            complete(super::get_path_mut(merged, def.path), items);
        }
    }
}

/// A setting type read from a checked JSON value.
pub(crate) trait Read: Sized {
    fn read(v: &Value) -> Result<Self, ReadError>;
}

impl Read for u64 {
    fn read(v: &Value) -> Result<u64, ReadError> {
        v.as_u64().ok_or_else(|| ReadError::expected("a whole number"))
    }
}

impl Read for f64 {
    fn read(v: &Value) -> Result<f64, ReadError> {
        v.as_f64().ok_or_else(|| ReadError::expected("a number"))
    }
}

impl Read for bool {
    fn read(v: &Value) -> Result<bool, ReadError> {
        v.as_bool().ok_or_else(|| ReadError::expected("true or false"))
    }
}

impl Read for String {
    fn read(v: &Value) -> Result<String, ReadError> {
        v.as_str()
            .map(str::to_string)
            .ok_or_else(|| ReadError::expected("a string"))
    }
}

impl Read for Value {
    fn read(v: &Value) -> Result<Value, ReadError> {
        Ok(v.clone())
    }
}

impl<T: Read> Read for Vec<T> {
    fn read(v: &Value) -> Result<Vec<T>, ReadError> {
        let list = v.as_array().ok_or_else(|| ReadError::expected("a list"))?;
        list.iter()
            .enumerate()
            .map(|(i, item)| T::read(item).map_err(|e| e.within(format!("[{i}]"))))
            .collect()
    }
}

/// Field `name` of an object.
pub(crate) fn field<T: Read>(v: &Value, name: &'static str) -> Result<T, ReadError> {
    T::read(get(v, name)?).map_err(|e| in_field(e, name))
}

// The lookup and the failure path are kept out of `field`, which is instantiated once per
// setting type: in every copy they would be the bulk of its code.
#[inline(never)]
fn get<'a>(v: &'a Value, name: &'static str) -> Result<&'a Value, ReadError> {
    v.get(name)
        .ok_or_else(|| in_field(ReadError::expected("present"), name))
}

#[cold]
#[inline(never)]
fn in_field(e: ReadError, name: &'static str) -> ReadError {
    e.within(name.to_string())
}

/// Checks that `v` is an object (a struct's fields are then read one by one).
pub(crate) fn object(v: &Value) -> Result<(), ReadError> {
    if v.is_object() {
        Ok(())
    } else {
        Err(ReadError::expected("an object"))
    }
}

/// What writing a setting gives: the JSON value scenarios, links and outputs carry.
pub(crate) trait Write {
    fn write(&self) -> Value;
}

impl Write for u64 {
    fn write(&self) -> Value {
        Value::from(*self)
    }
}

impl Write for f64 {
    fn write(&self) -> Value {
        // As serde_json writes a float: a number, or null when it is not finite.
        Value::from(*self)
    }
}

impl Write for bool {
    fn write(&self) -> Value {
        Value::Bool(*self)
    }
}

impl Write for String {
    fn write(&self) -> Value {
        Value::String(self.clone())
    }
}

impl Write for Value {
    fn write(&self) -> Value {
        self.clone()
    }
}

impl<T: Write> Write for Vec<T> {
    fn write(&self) -> Value {
        Value::Array(self.iter().map(Write::write).collect())
    }
}

/// An object of the given keys and values (one copy of the map-building code for every
/// struct).
pub(crate) fn object_of(fields: &mut [(&'static str, Value)]) -> Value {
    let mut m = serde_json::Map::new();
    for (k, v) in fields {
        m.insert((*k).to_string(), std::mem::take(v));
    }
    Value::Object(m)
}

/// A unit-only enum that is not one of its names, naming the names allowed.
#[cold]
#[inline(never)]
pub(crate) fn not_a_name() -> ReadError {
    ReadError::expected("one of the allowed names")
}

/// A struct's JSON form, both ways: `Read` from an object with a key per field, `Write` to
/// one (and serde's `Serialize` through it). List every field (the compiler refuses a
/// missing or unknown one when reading).
macro_rules! json_struct {
    // `Type: field, field, …` (not `Type { … }`, which rustfmt would spread one field a line).
    ($t:ident: $($f:ident),* $(,)?) => {
        impl $crate::scenario::json::Read for $t {
            fn read(v: &serde_json::Value) -> Result<$t, $crate::scenario::json::ReadError> {
                $crate::scenario::json::object(v)?;
                Ok($t { $($f: $crate::scenario::json::field(v, stringify!($f))?,)* })
            }
        }
        impl $crate::scenario::json::Write for $t {
            fn write(&self) -> serde_json::Value {
                $crate::scenario::json::object_of(&mut [
                    $((stringify!($f), $crate::scenario::json::Write::write(&self.$f)),)*
                ])
            }
        }
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                serde::Serialize::serialize(&$crate::scenario::json::Write::write(self), s)
            }
        }
    };
}

/// The names of a unit-only enum, written once: `name()`, `from_name()`, `ALL`, and its JSON
/// form both ways (`Read`, `Write`, serde's `Serialize`).
macro_rules! names {
    ($t:ident { $($v:ident = $n:literal),* $(,)? }) => {
        impl $t {
            /// Every value, in the order of the definition.
            pub const ALL: &'static [$t] = &[$($t::$v),*];

            /// The name scenarios, links and outputs use.
            pub fn name(self) -> &'static str {
                match self {
                    $($t::$v => $n,)*
                }
            }

            /// The value of that name.
            pub fn from_name(name: &str) -> Option<$t> {
                match name {
                    $($n => Some($t::$v),)*
                    _ => None,
                }
            }
        }
        impl $crate::scenario::json::Read for $t {
            fn read(v: &serde_json::Value) -> Result<$t, $crate::scenario::json::ReadError> {
                v.as_str().and_then($t::from_name).ok_or_else($crate::scenario::json::not_a_name)
            }
        }
        impl $crate::scenario::json::Write for $t {
            fn write(&self) -> serde_json::Value {
                serde_json::Value::from(self.name())
            }
        }
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }
    };
}

pub(crate) use {json_struct, names};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{FlowCfg, LossModel, Scenario, TcpCfg};
    use serde_json::json;

    #[test]
    fn numbers_are_read_as_serde_read_them() {
        // Integers stay integers; a float where a whole number is expected is refused
        // (check_values refuses it first, with the allowed range).
        assert_eq!(u64::read(&json!(1460)).unwrap(), 1460);
        assert!(u64::read(&json!(1460.0)).is_err());
        assert!(u64::read(&json!(-1)).is_err());
        assert_eq!(f64::read(&json!(3)).unwrap(), 3.0);
        assert_eq!(f64::read(&json!(1e-7)).unwrap().to_bits(), 1e-7f64.to_bits());
        assert_eq!(f64::read(&json!(0.1)).unwrap().to_bits(), 0.1f64.to_bits());
    }

    #[test]
    fn enums_read_and_write_their_names() {
        assert_eq!(LossModel::read(&json!("bernoulli")).unwrap(), LossModel::Bernoulli);
        assert_eq!(
            crate::scenario::GrowthGate::read(&json!("linux_3_16")).unwrap(),
            crate::scenario::GrowthGate::Linux316
        );
        assert_eq!(LossModel::ALL.len(), 3);
        assert_eq!(crate::scenario::Variant::BrTcp.name(), "br_tcp");
        let e = LossModel::read(&json!("Bernoulli")).unwrap_err();
        assert_eq!(e.expected_text(), "one of the allowed names");
    }

    #[test]
    fn a_failure_names_the_path() {
        let good = Scenario::default().to_value()["flows"][0].clone();
        let mut flow = good.clone();
        flow["tcp"]["mss"] = json!("big");
        let e = FlowCfg::read(&flow)
            .unwrap_err()
            .within("[0]".into())
            .within("flows".into());
        assert_eq!(e.path(), "flows[0].tcp.mss");
        assert_eq!(e.expected_text(), "a whole number");
        let mut tcp = good["tcp"].clone();
        tcp.as_object_mut().unwrap().remove("rwnd");
        let e = TcpCfg::read(&tcp).unwrap_err();
        assert_eq!((e.path().as_str(), e.expected_text()), ("rwnd", "present"));
    }

    #[test]
    fn every_choice_the_table_offers_reads_and_writes_back() {
        // The table's choices (what the page and the CLI offer) and the enums' names are two
        // lists; every choice must be a name of the enum it sets.
        use crate::schema::{params, Kind};
        let base = Scenario::default().to_value();
        let mut checked = 0;
        for def in params() {
            let Kind::Enum { options, .. } = def.kind else { continue };
            if def.path == "flows[].algorithm" {
                continue; // a catalogue name (a string), not an enum
            }
            let path = def.path.replace("flows[]", "flows[0]");
            for c in options {
                let mut doc = base.clone();
                crate::scenario::set_path(&mut doc, &path, json!(c.value)).unwrap();
                let read = Scenario::read(&doc).unwrap_or_else(|e| panic!("{path} = {}: {}", c.value, e.path()));
                assert_eq!(read.to_value(), doc, "{path} = {}", c.value);
                checked += 1;
            }
        }
        assert!(checked > 60, "{checked} choices");
    }

    #[test]
    fn what_is_written_reads_back_the_same() {
        // Every preset: the complete object the engine writes reads back to an equal scenario.
        for p in crate::presets::all() {
            let s = p.scenario().unwrap();
            assert_eq!(Scenario::read(&s.to_value()).unwrap(), s, "{}", p.name);
        }
    }
}
