//! The course path (issue 41): the lessons in a teaching order, from slow start to fairness.
//! Each stop opens one preset with its lesson; the page's Course bar, its `course=<id>` link
//! key and `cwndlab presets --course` all read this list, so the order, the ids and the
//! wording live here once.

use serde::Serialize;

/// One stop on the course path.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Stop {
    /// Stable id, used in links (`course=<id>`) and in the page's saved progress: never
    /// rename one; a new stop gets a new id.
    pub id: &'static str,
    /// The stop's title in the course list ("Slow start").
    pub title: &'static str,
    /// The preset it opens (`super::find`), which has a lesson.
    pub preset: &'static str,
    /// One line on what this stop teaches.
    pub teaches: &'static str,
}

const fn stop(id: &'static str, title: &'static str, preset: &'static str, teaches: &'static str) -> Stop {
    Stop {
        id,
        title,
        preset,
        teaches,
    }
}

/// The course, in teaching order: slow start and AIMD, fast retransmit and recovery, Reno
/// against NewReno, SACK, timers, CWV, CUBIC, bufferbloat, BBR, fairness.
pub const COURSE: [Stop; 15] = [
    stop("slow-start", "Slow start", "jacobson-startup",
        "Why a sender starts with one segment and doubles per round trip instead of sending its whole window at once."),
    stop("aimd", "AIMD, round by round", "textbook-reno",
        "Slow start up to ssthresh, then one segment more per round, and half the window on a loss: the textbook exercise."),
    stop("fast-retransmit", "Fast retransmit", "netsim-reno",
        "Three duplicate ACKs resend a lost segment at once instead of waiting a whole retransmission timeout."),
    stop("fast-recovery", "Fast recovery", "fall-floyd-tahoe-1drops",
        "After a fast retransmit Tahoe slow-starts from one segment; Reno halves its window and keeps sending."),
    stop("reno-newreno", "Reno against NewReno", "fall-floyd-reno-3drops",
        "Several losses in one window: Reno leaves recovery on a partial ACK and times out; NewReno stays until all are repaired."),
    stop("sack", "Selective acknowledgements", "fall-floyd-sack-3drops",
        "SACK blocks tell the sender which segments arrived, so it resends every hole in one round trip."),
    stop("timers", "Retransmission timers", "jacobson-timers",
        "A timer from the mean RTT alone fires on delayed data; mean plus four deviations does not."),
    stop("tail-loss", "A lost tail", "tail-loss-tlp",
        "Losses at the end of a transfer cause no duplicate ACKs: the timer against a tail loss probe."),
    stop("cwv", "The window after a silence (CWV)", "cwv-quiescent-100ms",
        "What a sender may do with a window it has not used: keep it, restart, or let it decay (CWV, new CWV)."),
    stop("cubic", "CUBIC on a long fat path", "cubic-long-fat-path",
        "NewReno needs minutes to regrow a large window one segment per round trip; CUBIC's cubic curve takes seconds."),
    stop("bufferbloat", "Bufferbloat", "cubic-bufferbloat",
        "Loss-based senders fill a deep buffer and add its whole delay to every round trip."),
    stop("aqm", "A queue that manages itself", "aqm-bufferbloat-cured",
        "An AQM drops or marks early, so the same senders keep the queue, and the delay, short."),
    stop("bbr", "BBR under random loss", "bbr-random-loss",
        "A model of bandwidth and RTT instead of loss as the signal: BBR fills a path that random loss starves NewReno and CUBIC on."),
    stop("fairness-rtt", "Fairness and round-trip time", "cubic-two-rtts",
        "Two flows through one bottleneck: the shorter round trip takes the larger share."),
    stop("fair-queueing", "Fair queueing protects a thin stream", "aqm-fq-codel-thin",
        "A thin interactive stream beside a bulk transfer: one shared queue against a queue per flow."),
];

/// Looks a stop up by its id.
pub fn stop_named(id: &str) -> Option<&'static Stop> {
    COURSE.iter().find(|s| s.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn every_stop_opens_a_preset_with_a_lesson_and_ids_are_unique() {
        let mut ids = BTreeSet::new();
        let mut presets = BTreeSet::new();
        for s in &COURSE {
            assert!(ids.insert(s.id), "{}: id used twice", s.id);
            assert!(presets.insert(s.preset), "{}: preset {} used twice", s.id, s.preset);
            assert!(
                !s.id.is_empty()
                    && s.id
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{}: an id is lowercase letters, digits and hyphens (it goes into links)",
                s.id
            );
            assert!(
                !s.title.trim().is_empty() && !s.teaches.trim().is_empty(),
                "{}: empty text",
                s.id
            );
            let p = super::super::find(s.preset).unwrap_or_else(|| panic!("{}: no preset {}", s.id, s.preset));
            assert!(p.lesson.is_some(), "{}: preset {} has no lesson", s.id, s.preset);
            assert_eq!(stop_named(s.id).map(|f| f.preset), Some(s.preset));
        }
        assert!(stop_named("no-such-stop").is_none());
    }

    #[test]
    fn the_course_follows_the_issues_teaching_order() {
        // Slow start and AIMD first, fairness last (issue 41).
        let ids: Vec<&str> = COURSE.iter().map(|s| s.id).collect();
        assert_eq!(ids.first(), Some(&"slow-start"));
        let at = |id: &str| ids.iter().position(|i| *i == id).unwrap();
        let order = [
            "aimd",
            "fast-retransmit",
            "reno-newreno",
            "sack",
            "timers",
            "cwv",
            "cubic",
            "bufferbloat",
            "bbr",
            "fairness-rtt",
        ];
        for w in order.windows(2) {
            assert!(at(w[0]) < at(w[1]), "{} should come before {}", w[0], w[1]);
        }
    }
}
