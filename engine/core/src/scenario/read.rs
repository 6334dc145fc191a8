//! Reading the typed [`Scenario`](super::Scenario) out of its merged and checked JSON object.
//!
//! By the time this runs, every key is known and every value has the type and range the
//! table allows (`check_values`), so reading is a walk: one small function per setting
//! type, each struct's fields named once beside its definition (`read_struct!`), which the
//! compiler holds to the struct (a field left out or unknown does not build).
//!
//! This replaced `serde_json::from_value` with derived `Deserialize` impls, whose generic
//! deserializer, instantiated for every setting type, made ~110 KiB of the page's engine
//! (docs/performance.md, "What the lite engine is made of"). The values read are the same:
//! `as_u64` and `as_f64` are what serde's visitors do with a JSON number, so no number the
//! engine computes changes (the preset digests pin it).

use serde::de::{value::StrDeserializer, DeserializeOwned};
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

/// A unit-only enum from its name, by the enum's own `serde` names (`rename_all`,
/// `rename`), so each name is written once, on the enum, for reading and writing alike.
/// Instantiated for a `&str` only, which costs little (no JSON deserializer involved).
pub(crate) fn unit_enum<T: DeserializeOwned>(v: &Value) -> Result<T, ReadError> {
    let name = v.as_str().ok_or_else(|| ReadError::expected("a name"))?;
    T::deserialize(StrDeserializer::<serde::de::value::Error>::new(name))
        .map_err(|_| ReadError::expected("one of the allowed names"))
}

/// `impl Read` for a struct: its fields, each read from the key of the same name. List
/// every field (the compiler refuses a missing or unknown one).
macro_rules! read_struct {
    ($t:ident { $($f:ident),* $(,)? }) => {
        impl $crate::scenario::read::Read for $t {
            fn read(v: &serde_json::Value) -> Result<$t, $crate::scenario::read::ReadError> {
                $crate::scenario::read::object(v)?;
                Ok($t { $($f: $crate::scenario::read::field(v, stringify!($f))?,)* })
            }
        }
    };
}

/// `impl Read` for unit-only enums, by their serde names.
macro_rules! read_enums {
    ($($t:ty),* $(,)?) => {
        $(impl $crate::scenario::read::Read for $t {
            fn read(v: &serde_json::Value) -> Result<$t, $crate::scenario::read::ReadError> {
                $crate::scenario::read::unit_enum(v)
            }
        })*
    };
}

pub(crate) use {read_enums, read_struct};

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
    fn enums_read_their_serde_names() {
        assert_eq!(LossModel::read(&json!("bernoulli")).unwrap(), LossModel::Bernoulli);
        assert_eq!(
            crate::scenario::GrowthGate::read(&json!("linux_3_16")).unwrap(),
            crate::scenario::GrowthGate::Linux316
        );
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
    fn what_is_written_reads_back_the_same() {
        // Every preset: the complete object the engine writes reads back to an equal scenario.
        for p in crate::presets::all() {
            let s = p.scenario().unwrap();
            assert_eq!(Scenario::read(&s.to_value()).unwrap(), s, "{}", p.name);
        }
    }
}
