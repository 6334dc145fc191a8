//! Progress on stderr for anything that takes more than a few seconds, unless `--quiet`:
//!
//! - on a terminal, a bar that appears after one second of wall-clock time;
//! - otherwise (a CI log, a pipe, a file), a plain line every 10 s once the job has run for
//!   10 s — `cwndlab: 35 % (70 of 200 s simulated), about 40 s left` — and a last line when
//!   it is done, so a log never stops without a word for long.
//!
//! Output on stdout is never touched.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Interval of the plain lines. `CWNDLAB_PROGRESS_INTERVAL` (seconds) changes it: for the
/// test suite only, which cannot wait 10 s per check.
fn line_interval() -> Duration {
    std::env::var("CWNDLAB_PROGRESS_INTERVAL")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .map_or(Duration::from_secs(10), Duration::from_secs_f64)
}

enum Draw {
    None,
    Bar {
        bar: ProgressBar,
        shown: bool,
    },
    Lines {
        every: Duration,
        next: Instant,
        printed: bool,
    },
}

/// Progress of a job of `len` units (simulated milliseconds, say).
pub struct Progress {
    len: u64,
    pos: u64,
    label: &'static str,
    started: Instant,
    draw: Draw,
}

/// A duration for people: "45 s", "3 min", "1.5 h".
pub fn human_duration(secs: f64) -> String {
    if secs < 90.0 {
        format!("{:.0} s", secs.max(1.0))
    } else if secs < 90.0 * 60.0 {
        format!("{:.0} min", secs / 60.0)
    } else {
        format!("{:.1} h", secs / 3600.0)
    }
}

/// Simulated milliseconds as "70 of 200 s simulated".
pub fn simulated(pos_ms: u64, len_ms: u64) -> String {
    let s = |ms: u64| {
        let x = ms as f64 / 1000.0;
        if len_ms >= 100_000 {
            format!("{x:.0}")
        } else {
            format!("{x:.1}")
        }
    };
    format!("{} of {} s simulated", s(pos_ms), s(len_ms))
}

impl Progress {
    /// Progress of `len` units; `label` starts each line ("" or e.g. "qlog pass: ").
    pub fn new(len: u64, label: &'static str, quiet: bool) -> Progress {
        let started = Instant::now();
        let draw = if quiet {
            Draw::None
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
            bar.set_style(
                ProgressStyle::with_template(&format!(
                    "{label}{{spinner}} [{{elapsed_precise}}] {{wide_bar}} {{msg}} (eta {{eta}})"
                ))
                .expect("template"),
            );
            Draw::Bar { bar, shown: false }
        } else {
            let every = line_interval();
            Draw::Lines {
                every,
                next: started + every,
                printed: false,
            }
        };
        Progress {
            len: len.max(1),
            pos: 0,
            label,
            started,
            draw,
        }
    }

    fn line(&self, detail: &str) -> String {
        let f = (self.pos as f64 / self.len as f64).clamp(0.0, 1.0);
        let elapsed = self.started.elapsed().as_secs_f64();
        let left = if f > 0.0 {
            format!(", about {} left", human_duration(elapsed * (1.0 - f) / f))
        } else {
            String::new()
        };
        format!("cwndlab: {}{:.0} % ({detail}){left}", self.label, f * 100.0)
    }

    /// Moves to `pos`; `detail` says where that is ("70 of 200 s simulated"), asked only
    /// when something is drawn.
    pub fn set(&mut self, pos: u64, detail: impl FnOnce() -> String) {
        self.pos = pos;
        match &mut self.draw {
            Draw::None => {}
            Draw::Bar { bar, shown } => {
                if !*shown && self.started.elapsed() > Duration::from_secs(1) {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    *shown = true;
                }
                if *shown {
                    bar.set_message(detail());
                }
                bar.set_position(pos);
            }
            Draw::Lines { every, next, .. } => {
                let now = Instant::now();
                if now >= *next {
                    let every = *every;
                    // Whole intervals from the start, however late this call comes.
                    while *next <= now {
                        *next += every;
                    }
                    let text = self.line(&detail());
                    eprintln!("{text}");
                    if let Draw::Lines { printed, .. } = &mut self.draw {
                        *printed = true;
                    }
                }
            }
        }
    }

    /// Ends the progress: the bar is removed; after plain lines, one saying it is done.
    pub fn finish(mut self, detail: impl FnOnce() -> String) {
        if let Draw::Lines { printed: true, .. } = self.draw {
            eprintln!(
                "cwndlab: {}done ({}) in {}",
                self.label,
                detail(),
                human_duration(self.started.elapsed().as_secs_f64())
            );
        }
        self.clear();
    }

    fn clear(&mut self) {
        if let Draw::Bar { bar, .. } = &self.draw {
            bar.finish_and_clear();
        }
        self.draw = Draw::None;
    }
}

impl Drop for Progress {
    /// An unfinished job (an error, Ctrl-C) takes its bar away before the message.
    fn drop(&mut self) {
        self.clear();
    }
}
