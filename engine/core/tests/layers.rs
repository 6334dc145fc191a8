//! The engine's imports point one way: settings ← records ← mechanisms ← endpoints ←
//! simulation ← teaching (docs/architecture.md). This test reads every source file of
//! engine/core/src, collects the `crate::…` paths each module names (comments and unit
//! tests aside) and fails on an arrow that points up a layer, on a cycle outside the
//! settings layer, and on a module no layer claims (a new module is placed on purpose).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each module's layer, lowest first. A module is a top-level module of the crate, or for
/// `tcp`, one of its children (`tcp::cc` counts as one, its settings files apart).
const LAYERS: &[(&str, &[&str])] = &[
    ("base", &["time", "rng", "ring", "wide", "event"]),
    // The settings read one another: the schema lists the catalogue's names, the
    // catalogue's entries are settings, the scenario checks against both, and a
    // mechanism's settings file names its choices for all of them.
    (
        "settings",
        &[
            "scenario",
            "schema",
            "catalogue",
            "presets",
            "tcp::cc::settings",
            "tcp::recovery::settings",
            "net::qdisc::settings",
        ],
    ),
    ("records", &["explain", "trace"]),
    (
        "mechanisms",
        &[
            "tcp::cc",
            "tcp::recovery",
            "tcp::rtt",
            "net",
            "app",
            "cross",
            "thin",
            "delay",
            "throughput",
            "spurious",
        ],
    ),
    ("endpoints", &["tcp", "tcp::env", "tcp::sender", "tcp::receiver"]),
    ("simulation", &["sim", "capture", "bounded", "rounds", "summary"]),
    (
        "teaching",
        &[
            "divergence",
            "exercise",
            "textbook",
            "export",
            "sweep",
            "theory",
            "machine",
            "invariants",
        ],
    ),
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, ms)| ms.contains(&module))
}

/// The module a path under `crate::` names: `tcp::cc::bbr::settings::X` →
/// `tcp::cc::settings`, `tcp::cc::…` → `tcp::cc`, `tcp::sender::…` → `tcp::sender`, else its
/// first segment.
fn module_of(segments: &[&str]) -> String {
    match segments {
        ["tcp", "cc", _, "settings", ..] => "tcp::cc::settings".into(),
        ["tcp", "cc", ..] => "tcp::cc".into(),
        ["tcp", "recovery", _, "settings", ..] => "tcp::recovery::settings".into(),
        ["tcp", "recovery", ..] => "tcp::recovery".into(),
        ["net", "qdisc", "settings", ..] | ["net", "qdisc", _, "settings", ..] => "net::qdisc::settings".into(),
        ["tcp", child, ..] if child.chars().next().is_some_and(|c| c.is_lowercase()) => format!("tcp::{child}"),
        [first, ..] => first.to_string(),
        [] => String::new(),
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("readable source folder") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The source without comments and without a trailing `#[cfg(test)] mod tests { … }`.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests {") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `crate::a::b::c` path in `code`, as segments.
fn crate_paths(code: &str) -> Vec<Vec<&str>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let tail = &rest[i + "crate::".len()..];
        let end = tail
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(tail.len());
        out.push(tail[..end].split("::").filter(|s| !s.is_empty()).collect());
        rest = &tail[end..];
    }
    out
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(&src).unwrap().with_extension("");
        let mut segs: Vec<&str> = rel.iter().map(|s| s.to_str().unwrap()).collect();
        if segs.last().is_some_and(|s| *s == "mod" || *s == "lib") {
            segs.pop();
        }
        // Unit-test files and the endpoints' fake network are tests, not modules' imports.
        if segs.last().is_some_and(|s| *s == "tests" || *s == "testnet") || segs.is_empty() {
            continue;
        }
        let from = module_of(&segs);
        let code = code_of(&std::fs::read_to_string(&f).unwrap());
        let to = edges.entry(from.clone()).or_default();
        for p in crate_paths(&code) {
            let m = module_of(&p);
            if m != from && !m.is_empty() && m.chars().next().unwrap().is_lowercase() {
                to.insert(m);
            }
        }
    }
    edges
}

#[test]
fn every_module_has_a_layer_and_every_import_points_down() {
    let edges = graph();
    let mut problems = Vec::new();
    for (from, tos) in &edges {
        let Some(lf) = layer_of(from) else {
            problems.push(format!("module {from} has no layer (add it to LAYERS)"));
            continue;
        };
        for to in tos {
            match layer_of(to) {
                None => problems.push(format!("{from} imports {to}, which has no layer")),
                Some(lt) if lt > lf => problems.push(format!(
                    "{from} ({}) imports {to} ({}): an arrow up a layer",
                    LAYERS[lf].0, LAYERS[lt].0
                )),
                _ => {}
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn modules_import_one_another_in_a_circle_only_inside_the_settings_layer() {
    let edges = graph();
    // Tarjan's strongly connected components.
    struct T<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<&'a str>>,
    }
    impl<'a> T<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on.insert(v);
            for w in self.edges.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let l = self.low[v].min(self.low[w]);
                    self.low.insert(v, l);
                } else if self.on.contains(w) {
                    let l = self.low[v].min(self.index[w]);
                    self.low.insert(v, l);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    self.out.push(comp);
                }
            }
        }
    }
    let mut t = T {
        edges: &edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    let settings = layer_of("scenario");
    let bad: Vec<_> = t
        .out
        .iter()
        .filter(|c| c.iter().any(|m| layer_of(m) != settings))
        .collect();
    assert!(bad.is_empty(), "import circles outside the settings layer: {bad:?}");
}

#[test]
fn the_checker_sees_an_arrow_up_a_layer() {
    // The parser finds the paths a module names, so a sender that reached into the
    // simulation would be caught.
    let code = code_of(
        "use crate::sim::World; // crate::export in a comment\nfn f() { crate::tcp::cc::bbr::settings::clashes(x); }",
    );
    let mods: Vec<String> = crate_paths(&code).iter().map(|p| module_of(p)).collect();
    assert_eq!(mods, ["sim", "tcp::cc::settings"]);
    assert!(layer_of("sim") > layer_of("tcp::sender"));
}

/// The sender reaches its controller and its loss-recovery mechanism through their
/// interfaces only (`tcp::cc`'s `Cc`, `tcp::recovery`'s `Recovery` and `Conn`): its code
/// names no module below either (a mechanism's own files), so a new mechanism is a new
/// file there and a catalogue entry, never a change to the sender.
#[test]
fn the_sender_names_no_mechanism() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tcp");
    let mut files = vec![dir.join("sender.rs")];
    rust_files(&dir.join("sender"), &mut files);
    files.retain(|f| !f.ends_with("tests.rs"));
    let mut found = Vec::new();
    for f in &files {
        let code = code_of(&std::fs::read_to_string(f).expect("readable"));
        for iface in ["cc::", "recovery::"] {
            let mut rest = code.as_str();
            while let Some(i) = rest.find(iface) {
                let tail = &rest[i + iface.len()..];
                let word: String = tail.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                let before = rest[..i].chars().next_back();
                let qualified = before.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
                if qualified && word.starts_with(|c: char| c.is_lowercase()) && tail[word.len()..].starts_with("::") {
                    found.push(format!("{}: {iface}{word}", f.display()));
                }
                rest = tail;
            }
        }
    }
    assert!(files.len() >= 2, "the sender's files were not found");
    assert!(found.is_empty(), "the sender names a mechanism's module: {found:?}");
}
