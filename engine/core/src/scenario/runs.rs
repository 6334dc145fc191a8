//! The scenario one run of a comparison simulates: the page's scenario with one catalogue
//! entry's settings on flow 0. The page sends a comparison's scenario to the engine once; the
//! engine makes each compared run from it here (no JSON text per algorithm).

use serde_json::{Map, Value};

use crate::catalogue::{self, CATALOGUE};
use crate::scenario::{Problem, Scenario};

/// Settings that choose the congestion controller or the loss recovery rather than tune a
/// sender: the algorithm choice owns them even though only some entries set them (only BBR's
/// entry sets `cc.controller`, only the SACK entries and the profiles set `sack.*`; were
/// they scenario settings, a base made from a BBR or SACK flow would keep BBR or SACK under
/// every compared name). The page reads this list from the engine's vocabulary.
pub const SELECTOR_KEYS: [&str; 6] = [
    "cc.controller",
    "sack.enabled",
    "sack.budget",
    "sack.rack",
    "sack.tlp",
    "sack.early_retransmit",
];

/// The settings every catalogue entry sets (`variant`, `cc.idle_policy`, `cc.growth_gate`).
fn common_keys() -> Vec<&'static str> {
    let Some(first) = CATALOGUE.first() else {
        return Vec::new();
    };
    first
        .settings
        .iter()
        .map(|(k, _)| *k)
        .filter(|k| CATALOGUE.iter().all(|e| e.settings.iter().any(|(q, _)| q == k)))
        .collect()
}

/// Paths inside a flow the algorithm choice owns: the common keys, plus the selector keys
/// that some entry sets. Settings only some entries set (a sender profile's initial window)
/// stay scenario settings: a run of such an entry takes the entry's values, every other run
/// the scenario's.
pub fn controlled_keys() -> Vec<&'static str> {
    let mut keys = common_keys();
    for k in SELECTOR_KEYS {
        if !keys.contains(&k) && CATALOGUE.iter().any(|e| e.settings.iter().any(|(q, _)| *q == k)) {
            keys.push(k);
        }
    }
    keys
}

/// Writes `key` (a dotted path) inside `flow`, making an object of anything in the way.
fn put(flow: &mut Value, key: &str, value: Value) {
    let mut cur = flow;
    for part in key.split('.') {
        if !cur.is_object() {
            *cur = Value::Object(Map::new());
        }
        let Value::Object(o) = cur else { return };
        cur = o.entry(part.to_string()).or_insert(Value::Null);
    }
    *cur = value;
}

/// The scenario a run of catalogue entry `name` simulates on `base` (a scenario object,
/// partial or complete, as the page holds it): flow 0's algorithm and the settings the
/// algorithm choice owns go back to their defaults (and, when flow 0 names an entry, every
/// setting of that entry: the comparison base of a preset, `base_value`; and every setting
/// of an algorithm whose rules flow 0 carries in full, `catalogue::carried`: a `custom` base
/// that is CUBIC with C = 0.2), then `name`'s settings and name are written. Any other
/// name (`custom`): `base` as it is. The result is checked where it is read
/// (`Scenario::from_value`): an entry may not suit the path (BR-TCP without a reservation).
pub fn run_value(base: &Value, name: &str) -> Value {
    let Some(entry) = catalogue::find(name) else {
        return base.clone();
    };
    let defaults = crate::schema::flow_defaults_ref();
    let default_of = |k: &str| crate::scenario::get_path(defaults, k).cloned().unwrap_or(Value::Null);
    let mut out = base.clone();
    if !out.is_object() {
        out = Value::Object(Map::new());
    }
    let Value::Object(top) = &mut out else {
        return out;
    };
    let flows = top.entry("flows").or_insert(Value::Null);
    if !flows.is_array() {
        *flows = Value::Array(Vec::new());
    }
    let Value::Array(list) = flows else {
        return out;
    };
    if list.is_empty() {
        list.push(Value::Object(Map::new()));
    }
    let flow = &mut list[0];
    if !flow.is_object() {
        *flow = Value::Object(Map::new());
    }
    // The algorithms whose rules the base carries in full (a changed CUBIC), read before
    // anything is written: their settings go back to the defaults below.
    let carried = catalogue::carried(flow);
    let default_name = default_of("algorithm");
    let old = flow
        .get("algorithm")
        .and_then(Value::as_str)
        .filter(|n| Some(*n) != default_name.as_str())
        .and_then(catalogue::find);
    put(flow, "algorithm", default_name.clone());
    for k in common_keys() {
        put(flow, k, default_of(k));
    }
    // A flow named after an entry loses all of that entry's settings, as a rename does
    // (`catalogue::switch_to`): a base made from a Linux or 4.3BSD profile keeps none of
    // its timers or counters under another name (the engine would name such a run `custom`).
    // A base that carries an algorithm's rules without its name (`custom`: CUBIC with C =
    // 0.2) loses that algorithm's settings too, so each compared run is its entry, not the
    // entry's variant on CUBIC's congestion avoidance; a profile's settings (timers,
    // counters) stay, as every setting no algorithm owns does (`catalogue::rules`).
    for old in old.into_iter().chain(carried) {
        for (k, _) in old.settings {
            put(flow, k, default_of(k));
        }
    }
    for k in controlled_keys() {
        put(flow, k, default_of(k));
    }
    for (k, v) in entry.settings {
        put(flow, k, v.to_json());
    }
    put(flow, "algorithm", Value::String(entry.name.to_string()));
    out
}

/// The typed scenario a run of `name` simulates on `base`, a scenario the engine has
/// validated (the page's one validation of the step; `name` none: `base` as it is). Only the
/// rules that relate several settings are checked (`Scenario::from_checked_value`): the
/// entry's values are the catalogue's, every other value was checked with `base`. The same
/// result as `Scenario::from_value(&run_value(base, name))` for a valid `base` (tested).
pub fn run_scenario(base: &Value, name: Option<&str>) -> Result<Scenario, Vec<Problem>> {
    match name {
        Some(name) => Scenario::from_checked_value(&run_value(base, name)),
        None => Scenario::from_checked_value(base),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Scenario;
    use serde_json::json;

    #[test]
    fn a_run_takes_the_entry_and_keeps_the_rest() {
        let base = json!({"duration": 3, "flows": [{"algorithm": "cubic", "tcp": {"mss": 1000}}]});
        let v = run_value(&base, "reno");
        assert_eq!(v["duration"], json!(3));
        assert_eq!(v["flows"][0]["tcp"]["mss"], json!(1000));
        assert_eq!(v["flows"][0]["algorithm"], json!("reno"));
        let s = Scenario::from_value(&v).unwrap();
        assert_eq!(s.flows[0].algorithm, "reno");
        assert_eq!(s.flows[0].tcp.mss, 1000);
    }

    #[test]
    fn every_entry_on_the_default_scenario_reads_as_that_entry() {
        for e in CATALOGUE {
            let v = run_value(&json!({}), e.name);
            let s = Scenario::from_value(&v);
            // BR-TCP needs a reservation the default path does not have: refused, not run.
            if let Ok(s) = s {
                assert_eq!(s.flows[0].algorithm, e.name, "{}", e.name);
            } else {
                assert_eq!(e.name, "br_tcp", "{} was refused", e.name);
            }
        }
    }

    #[test]
    fn every_catalogue_value_is_allowed_by_its_parameter() {
        let params = crate::schema::params();
        for e in CATALOGUE {
            for (path, v) in e.settings {
                let full = format!("flows[].{path}");
                let def = params.iter().find(|p| p.path == full);
                let def = def.unwrap_or_else(|| panic!("{}: {full} is not a parameter", e.name));
                assert_eq!(
                    crate::scenario::check_leaf(def, &v.to_json()),
                    None,
                    "{} {full}",
                    e.name
                );
            }
        }
    }

    #[test]
    fn a_run_checked_once_is_the_run_checked_twice() {
        let bases: Vec<Value> = crate::presets::all()
            .iter()
            .flat_map(|p| [p.overrides.clone(), p.scenario().expect("a preset is valid").to_value()])
            .chain([
                json!({}),
                json!({"flows": [{"variant": "reno", "cc": {"controller": "bbr"}}]}),
            ])
            .collect();
        let mut refused = 0;
        let mut compared = 0;
        // Only a scenario the engine validated is ever read this way.
        for base in bases.iter().filter(|b| Scenario::from_value(b).is_ok()) {
            compared += 1;
            for name in CATALOGUE.iter().map(|e| e.name).chain(["custom"]) {
                let twice = Scenario::from_value(&run_value(base, name));
                let once = run_scenario(base, Some(name));
                match (twice, once) {
                    (Ok(a), Ok(b)) => assert_eq!(a.to_value(), b.to_value(), "{name}"),
                    (Err(a), Err(b)) => {
                        refused += 1;
                        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{name}");
                    }
                    (a, b) => panic!("{name}: {:?} against {:?}", a.is_ok(), b.is_ok()),
                }
            }
            assert_eq!(
                run_scenario(base, None).map(|s| s.to_value()).ok(),
                Scenario::from_value(base).map(|s| s.to_value()).ok()
            );
        }
        assert!(compared > bases.len() / 2, "{compared} of {}", bases.len());
        // BR-TCP needs a reservation most bases lack: the rule relating the two still refuses.
        assert!(refused > 0);
    }

    /// The page compares a one-flow preset from its base: flow 0 renamed to the default
    /// entry (`run_value(scenario, "newreno")`, web/src/scenario/algorithms.ts `presetBase`),
    /// or the preset as it is when flow 0 is custom. Every run of an entry on that base is
    /// that entry as the catalogue defines it, and the engine names it so: the base of a
    /// thin-stream preset keeps no Linux timers under `newreno`, that of a 4.3BSD preset no
    /// 4.3BSD timers (either would be a changed profile: `custom`).
    #[test]
    fn every_run_on_a_preset_base_is_named_its_entry() {
        let default_name = crate::schema::flow_defaults()["algorithm"]
            .as_str()
            .unwrap()
            .to_string();
        let mut bad = Vec::new();
        let mut checked = 0;
        for p in crate::presets::all() {
            let s = p.scenario().expect("a preset is valid");
            if s.flows.len() != 1 || s.flows[0].algorithm == catalogue::CUSTOM {
                continue;
            }
            let base = Scenario::from_value(&run_value(&s.to_value(), &default_name)).unwrap();
            if base.flows[0].algorithm != default_name {
                bad.push(format!("{}: base {}", p.name, base.flows[0].algorithm));
            }
            let base = base.to_value();
            for e in CATALOGUE {
                match Scenario::from_value(&run_value(&base, e.name)) {
                    Ok(run) if run.flows[0].algorithm == e.name => checked += 1,
                    Ok(run) => bad.push(format!("{} -> {}: {}", p.name, e.name, run.flows[0].algorithm)),
                    Err(_) => assert_eq!(e.name, "br_tcp", "{}: {} refused", p.name, e.name),
                }
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn a_profile_base_keeps_none_of_the_profile() {
        // A thin-stream preset's flow 0 is Linux 3.15: its base is NewReno with the schema's
        // initial window and timers, as renaming the flow (`switch_to`) gives; the thin
        // stream (the preset's own setting) stays.
        let p = crate::presets::all()
            .into_iter()
            .find(|p| p.name == "thin-50b-10ms")
            .unwrap();
        let s = p.scenario().unwrap().to_value();
        let base = run_value(&s, "newreno");
        let mut renamed = s.clone();
        catalogue::switch_to(&mut renamed["flows"][0], catalogue::find("newreno").unwrap());
        let (a, b) = (
            Scenario::from_value(&base).unwrap(),
            Scenario::from_value(&renamed).unwrap(),
        );
        assert_eq!(a.to_value(), b.to_value());
        let d = Scenario::default();
        assert_eq!(a.flows[0].tcp.initial_window, d.flows[0].tcp.initial_window);
        assert_eq!(a.flows[0].rto.min, d.flows[0].rto.min);
        assert_eq!(a.flows[0].algorithm, "newreno");
        assert_eq!(a.flows[0].app, Scenario::from_value(&s).unwrap().flows[0].app);
    }

    #[test]
    fn custom_and_unknown_names_leave_the_scenario_as_it_is() {
        let base = json!({"flows": [{"variant": "reno", "cc": {"controller": "bbr"}}]});
        assert_eq!(run_value(&base, "custom"), base);
    }

    /// A `custom` base that carries an algorithm's rules (CUBIC with C = 0.2; Binomial IIAD
    /// with α = 2) gives each compared entry its own rules: the Reno run is Reno (it was Reno's
    /// variant on CUBIC's congestion avoidance, which the engine named `custom`), and the
    /// custom run is the base as it is.
    #[test]
    fn a_changed_algorithm_base_gives_every_entry_its_own_rules() {
        use crate::scenario::{CongAvoidRule, SsthreshRule};
        let bases = [
            json!({"flows": [{"algorithm": "cubic", "cc": {"cubic_c": 0.2}}]}),
            json!({"flows": [{"algorithm": "binomial_iiad", "cc": {"binomial_alpha": 2}}]}),
        ];
        for base in bases {
            let base = Scenario::from_value(&base).unwrap();
            assert_eq!(base.flows[0].algorithm, catalogue::CUSTOM);
            let base = base.to_value();
            for e in CATALOGUE {
                match Scenario::from_value(&run_value(&base, e.name)) {
                    Ok(run) => assert_eq!(run.flows[0].algorithm, e.name, "{base}"),
                    Err(_) => assert_eq!(e.name, "br_tcp", "{} refused", e.name),
                }
            }
            let own = Scenario::from_value(&run_value(&base, "custom")).unwrap();
            assert_eq!(own.to_value(), Scenario::from_value(&base).unwrap().to_value());
        }
        let base = json!({"flows": [{"algorithm": "cubic", "cc": {"cubic_c": 0.2}}]});
        let reno = Scenario::from_value(&run_value(&base, "reno")).unwrap();
        let d = Scenario::default();
        assert_eq!(
            reno.flows[0].cc.congestion_avoidance,
            d.flows[0].cc.congestion_avoidance
        );
        assert_eq!(reno.flows[0].cc.ssthresh_rule, d.flows[0].cc.ssthresh_rule);
        assert_ne!(reno.flows[0].cc.congestion_avoidance, CongAvoidRule::Cubic);
        assert_ne!(reno.flows[0].cc.ssthresh_rule, SsthreshRule::Cubic);
        // The CUBIC run is the catalogue's CUBIC (C = 0.4), not the base's changed one.
        let cubic = Scenario::from_value(&run_value(&base, "cubic")).unwrap();
        assert_eq!(cubic.flows[0].cc.cubic_c, 0.4);
    }

    /// A `custom` base made from an operating system's profile keeps the profile's settings
    /// under every compared name: a profile has no rules (`catalogue::rules`), its timers and
    /// counters are the sender the scenario is about (the CWV lessons' ns-2 timers).
    #[test]
    fn a_changed_profile_base_keeps_the_profile() {
        let base = json!({"flows": [{"algorithm": "linux_3_15", "rto": {"min": 0.3}}]});
        let base = Scenario::from_value(&base).unwrap();
        assert_eq!(base.flows[0].algorithm, catalogue::CUSTOM);
        let run = Scenario::from_value(&run_value(&base.to_value(), "newreno")).unwrap();
        assert_eq!(run.flows[0].rto.min, base.flows[0].rto.min);
        assert_eq!(run.flows[0].tcp.initial_window, 10);
        assert_eq!(
            run.flows[0].cc.congestion_avoidance,
            base.flows[0].cc.congestion_avoidance
        );
    }

    #[test]
    fn a_bbr_base_does_not_keep_bbr_under_another_name() {
        let base = json!({"flows": [{"cc": {"controller": "bbr"}}]});
        let v = run_value(&base, "newreno");
        let s = Scenario::from_value(&v).unwrap();
        assert_eq!(s.flows[0].algorithm, "newreno");
    }
}
