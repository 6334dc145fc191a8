//! The rule reference as Markdown: docs/rules.md is generated from the rule table.

use super::*;

/// The rule reference as Markdown (docs/rules.md is generated from it).
pub fn markdown() -> String {
    let fields = |f: &[(&str, Unit)]| -> String {
        if f.is_empty() {
            return "—".into();
        }
        f.iter()
            .map(|(n, u)| format!("{n} ({})", u.name()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = String::from(
        "# Rule reference\n\n<!-- Generated from engine/core/src/explain/ (each rule's row in rules/): run \
         `CWNDLAB_UPDATE_DOCS=1 cargo test -p cwndlab-core --lib explain` after changing a rule. -->\n\n\
         Every decision the engine explains names one of these rules (`cwndlab rules` lists them; \
         `cwndlab explain --rule ID` selects one). How explanations are made: \
         [explanations.md](explanations.md).\n",
    );
    for k in Kind::ALL {
        out.push_str(&format!("\n## {} — {}\n\n", k.name(), k.description()));
        out.push_str("| id | rule | source | formula | inputs | outputs |\n|---|---|---|---|---|---|\n");
        for r in RULES.iter().filter(|r| r.kind == k) {
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | {} | {} |\n",
                r.id,
                r.title,
                r.source,
                r.formula.replace('|', "\\|"),
                fields(r.inputs),
                fields(r.outputs)
            ));
        }
    }
    out.push_str("\n## Glossary\n\n| term | meaning |\n|---|---|\n");
    for (_, label, def) in GLOSSARY {
        out.push_str(&format!("| {label} | {def} |\n"));
    }
    out
}
