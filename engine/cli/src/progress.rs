//! Progress on stderr for anything that takes more than about a second: a bar that appears
//! after one second of wall-clock time, only when stderr is a terminal and `--quiet` was not
//! given. Output on stdout is never touched.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// A progress bar that shows itself only for long jobs on a terminal.
pub struct Progress {
    bar: Option<ProgressBar>,
    started: Instant,
    shown: bool,
}

impl Progress {
    /// A bar of `len` units (`unit`: what is counted), drawn only if wanted.
    pub fn new(len: u64, unit: &str, quiet: bool) -> Progress {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let b = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
            b.set_style(
                ProgressStyle::with_template(&format!(
                    "{{spinner}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {unit} (eta {{eta}})"
                ))
                .expect("template"),
            );
            b
        });
        Progress {
            bar,
            started: Instant::now(),
            shown: false,
        }
    }

    /// Moves the bar to `pos`.
    pub fn set(&mut self, pos: u64) {
        if let Some(b) = &self.bar {
            if !self.shown && self.started.elapsed() > Duration::from_secs(1) {
                b.set_draw_target(ProgressDrawTarget::stderr());
                self.shown = true;
            }
            b.set_position(pos);
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
