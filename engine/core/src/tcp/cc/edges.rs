//! A state-machine edge, as each mechanism declares it beside its rules: the phases it leaves
//! from, the phase it enters, what a student sees happen, and the rules whose decisions take
//! it. Each mechanism's file gives its own edges for the flow's settings (`fn edges`,
//! `SS_RULES`, `CA_RULES`, `STATES`); `crate::machine` (teaching) only assembles them into
//! an algorithm's machine and writes it as JSON with the phases' descriptions.

use super::Phase;
use crate::explain::Rule;

/// One transition of an algorithm's state machine.
#[derive(Clone, Debug, PartialEq)]
pub struct Transition {
    /// Phases it leaves from.
    pub from: Vec<Phase>,
    /// Phase it enters; None: the phase it left (a self-loop).
    pub to: Option<Phase>,
    /// What a student sees happen, one short line.
    pub label: &'static str,
    /// The rules whose decisions take it.
    pub rules: Vec<Rule>,
}

/// The transition from `from` to `to` (None: a self-loop), labelled `label`, taken by `rules`.
pub(crate) fn edge(from: &[Phase], to: Option<Phase>, label: &'static str, rules: &[Rule]) -> Transition {
    Transition {
        from: from.to_vec(),
        to,
        label,
        rules: rules.to_vec(),
    }
}

/// One transition of new CWV's overlay (RFC 7661's validated and non-validated phases),
/// which sits beside the phases: its states are named, not phase codes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OverlayTransition {
    /// The overlay state it leaves.
    pub from: &'static str,
    /// The overlay state it enters.
    pub to: &'static str,
    /// What a student sees happen, one short line.
    pub label: &'static str,
    /// The rules whose decisions take it.
    pub rules: &'static [Rule],
}

/// New CWV's overlay: its states (id, description) and its transitions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Overlay {
    /// Its states: id and what it means, one line.
    pub states: &'static [(&'static str, &'static str)],
    /// Its transitions.
    pub transitions: &'static [OverlayTransition],
}
