//! A preset's lesson: its texts, what it compares, and the sweep it may open.

use serde::Serialize;

/// What a preset teaches, shown beside it in the app (docs/lessons/ has the full guides).
#[derive(Clone, Debug, Serialize)]
pub struct Lesson {
    /// What to look at.
    pub look: String,
    /// What happens, and why.
    pub happens: String,
    /// The source and section it reproduces.
    pub source: String,
    /// One question for the class.
    pub question: String,
    /// The algorithms to compare on it (catalogue names); empty in competition mode.
    pub compare: Vec<String>,
    /// `compare`: the scenario is run once per algorithm in `compare` (flow 0 takes each in
    /// turn). `compete`: the scenario is run once, its flows competing with the algorithms
    /// the scenario gives them.
    pub mode: &'static str,
    /// A sweep the lesson opens on its scenario, as the link's sweep keys
    /// (docs/scenario-url.md): `sweep=network.bottleneck.qdisc:droptail,codel&sweepm=
    /// qdelay_mean_ms&sweepalg=cubic`, for what one run per algorithm cannot show (a network
    /// setting side by side). None: the lesson opens no sweep. The page's link reader checks
    /// every preset's (web/src/sweep/link.test.ts).
    pub sweep: Option<String>,
}

impl Lesson {
    /// The lesson, opening the sweep of these link keys (`sweep=PATH:…&sweepm=…`).
    pub fn with_sweep(self, keys: &str) -> Lesson {
        Lesson {
            sweep: Some(keys.to_string()),
            ..self
        }
    }
}

/// A lesson comparing `compare` (catalogue names), one run each; it opens no sweep.
pub(super) fn lesson(look: &str, happens: &str, source: &str, question: &str, compare: &[&str]) -> Option<Lesson> {
    Some(Lesson {
        look: look.into(),
        happens: happens.into(),
        source: source.into(),
        question: question.into(),
        compare: compare.iter().map(|s| s.to_string()).collect(),
        mode: "compare",
        sweep: None,
    })
}

/// A lesson whose scenario's flows compete in one run.
pub(super) fn compete_lesson(look: &str, happens: &str, source: &str, question: &str) -> Option<Lesson> {
    Some(Lesson {
        mode: "compete",
        ..lesson(look, happens, source, question, &[])?
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lesson_opens_no_sweep_unless_it_is_given_one_and_says_so_in_its_json() {
        let l = lesson("l", "h", "s", "q", &["cubic"]).unwrap();
        assert_eq!(l.sweep, None);
        assert_eq!(serde_json::to_value(&l).unwrap()["sweep"], serde_json::Value::Null);
        assert_eq!(compete_lesson("l", "h", "s", "q").unwrap().sweep, None);
        let keys = "sweep=network.bottleneck.qdisc:droptail,codel&sweepalg=cubic";
        let s = l.with_sweep(keys);
        assert_eq!(s.sweep.as_deref(), Some(keys));
        assert_eq!(s.compare, ["cubic"]);
        assert_eq!(serde_json::to_value(&s).unwrap()["sweep"], keys);
        // A preset's sweep starts with its `sweep=` key (the page's reader checks the rest).
        for p in super::super::all() {
            let l = p.lesson.unwrap();
            assert!(l.sweep.as_deref().is_none_or(|k| k.starts_with("sweep=")), "{}", p.name);
        }
    }
}
