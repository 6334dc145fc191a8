//! Ctrl-C (SIGINT) and SIGTERM during `run` and `sweep`: the signal only sets a flag, and
//! the work stops at its next slice boundary (a few milliseconds), removes its temporary
//! files and exits 130 (SIGINT) or 143 (SIGTERM) saying that no output was written. Other
//! commands keep the default (the process ends at once; they write no files).
//!
//! SIGXFSZ (a file grew past the file size limit, `ulimit -f`) is caught for every command,
//! so that the write fails with EFBIG and is reported with the file's name instead of the
//! process being killed with its temporary files left behind.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

struct Flags {
    int: Arc<AtomicBool>,
    term: Arc<AtomicBool>,
}

static FLAGS: OnceLock<Flags> = OnceLock::new();
static FILE_SIZE_LIMIT: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// From now on SIGINT and SIGTERM only set a flag: the caller must check [`requested`]
/// between slices of its work. Idempotent.
pub fn install() {
    FLAGS.get_or_init(|| {
        let int = Arc::new(AtomicBool::new(false));
        let term = Arc::new(AtomicBool::new(false));
        // If a handler cannot be installed the default stays: the signal ends the process
        // at once, as before (temporary files may then remain).
        let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, Arc::clone(&int));
        let _ = signal_hook::flag::register(signal_hook::consts::SIGTERM, Arc::clone(&term));
        Flags { int, term }
    });
}

/// Catches SIGXFSZ (Unix), so that a write past `ulimit -f` fails with EFBIG.
pub fn catch_file_size_limit() {
    #[cfg(unix)]
    FILE_SIZE_LIMIT.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let _ = signal_hook::flag::register(signal_hook::consts::SIGXFSZ, Arc::clone(&flag));
        flag
    });
}

/// True once SIGXFSZ arrived: a file reached the process's file size limit.
pub fn file_size_limit_hit() -> bool {
    FILE_SIZE_LIMIT.get().is_some_and(|f| f.load(Ordering::Relaxed))
}

/// The signal that asked the work to stop, if any: its name and the exit code to end with.
pub fn requested() -> Option<(&'static str, u8)> {
    let f = FLAGS.get()?;
    if f.int.load(Ordering::Relaxed) {
        Some(("interrupted (SIGINT, Ctrl-C)", 130))
    } else if f.term.load(Ordering::Relaxed) {
        Some(("terminated (SIGTERM)", 143))
    } else {
        None
    }
}
