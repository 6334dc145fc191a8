//! When a setting acts: the conditions each mechanism declares beside its settings
//! (`applies_when` in the schema's JSON, docs/parameters.md's "Applies only when", the
//! page's notes and the controls it shows).

/// A setting that acts only while another setting has one of some values: the page shows it
/// only then (or says it is idle), and docs/parameters.md says when it applies. Each
/// mechanism declares its own beside its settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Applies {
    /// The setting (a schema path).
    pub path: &'static str,
    /// The setting it depends on.
    pub when: &'static str,
    /// The values of `when` under which `path` acts (enum values, or "true"/"false").
    pub values: &'static [&'static str],
    /// Other settings of the same values, any of which at one of `values` also makes
    /// `path` act (a discipline's parameters act when either bottleneck direction runs it).
    pub also: &'static [&'static str],
}

/// The application fields each kind reads (`app.rs`).
const APP_APPLIES: [Applies; 6] = {
    const KIND: &str = "flows[].app.kind";
    const WRITES: &[&str] = &["cbr", "thin", "on_off", "poisson", "transfers"];
    [
        Applies::new("flows[].app.bytes", KIND, &["bulk"]),
        Applies::new("flows[].app.write_size", KIND, WRITES),
        Applies::new("flows[].app.write_interval", KIND, WRITES),
        Applies::new("flows[].app.on", KIND, &["on_off"]),
        Applies::new("flows[].app.off", KIND, &["on_off"]),
        Applies::new("flows[].app.writes", KIND, &["scripted", "transfers"]),
    ]
};

impl Applies {
    /// `path` acts only while `when` has one of `values`.
    pub const fn new(path: &'static str, when: &'static str, values: &'static [&'static str]) -> Applies {
        Applies {
            path,
            when,
            values,
            also: &[],
        }
    }
}

/// Every conditional setting (see [`Applies`]).
pub fn applies() -> Vec<Applies> {
    let mut v = APP_APPLIES.to_vec();
    v.extend(crate::tcp::recovery::sack::settings::APPLIES);
    v.extend(crate::tcp::cc::dctcp::settings::APPLIES);
    v.extend(crate::net::qdisc::settings::applies());
    v
}

/// When `path` acts, if only under a condition.
pub fn applies_to(path: &str) -> Option<Applies> {
    applies().into_iter().find(|a| a.path == path)
}
