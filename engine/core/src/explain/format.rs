//! How recorded values are written in sentences and tables: bytes or segments, durations,
//! rates, counts with their thousands grouped.

use super::*;

/// How a sentence writes the byte counts it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ByteUnit {
    /// In bytes: "7 000 B" (the CLI, the logs, the JSON's `text`).
    Bytes,
    /// In segments of this many bytes: "7 segments" (the JSON's `text_segments`).
    Segments(u64),
}

/// The unit a reader chooses to see windows and byte counts in: the page's unit choice (its
/// plots, readouts, inspector, practice, rounds view and sheets; `unit=` in its links) and
/// `cwndlab exercise --unit`. Segments first, as textbooks count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShownUnit {
    /// Windows in segments of the flow's SMSS.
    Segments,
    /// Windows in bytes.
    Bytes,
}

impl ShownUnit {
    /// Every choice, the default first.
    pub const ALL: [ShownUnit; 2] = [ShownUnit::Segments, ShownUnit::Bytes];

    /// The name links and the command line use.
    pub fn name(self) -> &'static str {
        match self {
            ShownUnit::Segments => "segments",
            ShownUnit::Bytes => "bytes",
        }
    }

    /// The word for one ("segment", "byte").
    pub fn singular(self) -> &'static str {
        match self {
            ShownUnit::Segments => "segment",
            ShownUnit::Bytes => "byte",
        }
    }

    /// Its short symbol after a number ("seg", "B").
    pub fn symbol(self) -> &'static str {
        match self {
            ShownUnit::Segments => "seg",
            ShownUnit::Bytes => "B",
        }
    }

    /// What choosing it means, for the choice's help text.
    pub fn description(self) -> &'static str {
        match self {
            ShownUnit::Segments => {
                "Windows and byte counts in segments of the flow's SMSS (bytes ÷ SMSS), as textbooks count."
            }
            ShownUnit::Bytes => {
                "Windows and byte counts in bytes, as the engine keeps them and RFC 5681 states its rules."
            }
        }
    }

    /// The choice named `name`, or a message naming the allowed ones.
    pub fn parse(name: &str) -> Result<ShownUnit, String> {
        ShownUnit::ALL.into_iter().find(|u| u.name() == name).ok_or_else(|| {
            let all: Vec<&str> = ShownUnit::ALL.iter().map(|u| u.name()).collect();
            format!(
                "unit: {name:?} is not a unit windows are shown in (allowed: {})",
                all.join(", ")
            )
        })
    }

    /// How sentences write byte counts in this unit, with segments of `smss` bytes.
    pub fn byte_unit(self, smss: u64) -> ByteUnit {
        match self {
            ShownUnit::Segments => ByteUnit::Segments(smss),
            ShownUnit::Bytes => ByteUnit::Bytes,
        }
    }

    /// The vocabulary entry: `{name, label, singular, symbol, description}`.
    pub fn to_json(self) -> serde_json::Value {
        serde_json::json!({
            "name": self.name(),
            "label": self.name(),
            "singular": self.singular(),
            "symbol": self.symbol(),
            "description": self.description(),
        })
    }
}

/// A byte count in segments of `smss` bytes, to the hundredth (rounded half up, integer
/// arithmetic): "7 segments", "1 segment", "7.5 segments", "∞" for unlimited.
pub fn format_segments(v: u64, smss: u64) -> String {
    if v == u64::MAX {
        return "∞".into();
    }
    if smss == 0 {
        return format_value(v, Unit::Bytes);
    }
    let hundredths = (u128::from(v) * 100 + u128::from(smss) / 2) / u128::from(smss);
    let whole = u64::try_from(hundredths / 100).unwrap_or(u64::MAX);
    let frac = hundredths % 100;
    let n = if frac == 0 {
        group(whole)
    } else {
        let f = format!("{frac:02}");
        format!("{}.{}", group(whole), f.trim_end_matches('0'))
    };
    let word = if hundredths == 100 { "segment" } else { "segments" };
    format!("{n} {word}")
}

/// Formats a value of a unit for text.
pub fn format_value(v: u64, unit: Unit) -> String {
    match unit {
        Unit::Bytes if v == u64::MAX => "∞".into(),
        Unit::Bytes => format!("{} B", group(v)),
        Unit::Ns => format_ns(v),
        Unit::Count | Unit::Packets => group(v),
        Unit::Seg => group(v),
        Unit::Seq if v == u64::MAX => "none".into(),
        Unit::Seq => group(v),
        Unit::Bps => format_bps(v),
        Unit::Flag => if v != 0 { "yes" } else { "no" }.into(),
        Unit::Milli if v == u64::MAX => "∞".into(),
        Unit::Milli => {
            let s = format!("{}.{:03}", v / 1000, v % 1000);
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        }
    }
}

/// Thousands separated by a space (the docs' style): 14600 → "14 600".
pub(super) fn group(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// A duration: ms with up to three decimals below 10 s, else seconds.
pub fn format_ns(ns: u64) -> String {
    if ns == u64::MAX {
        return "∞".into();
    }
    if ns < 10_000_000_000 {
        let ms = ns as f64 / 1e6;
        let s = format!("{ms:.3}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        format!("{s} ms")
    } else {
        let s = format!("{:.3}", ns as f64 / 1e9);
        let s = s.trim_end_matches('0').trim_end_matches('.');
        format!("{s} s")
    }
}

pub(super) fn format_bps(v: u64) -> String {
    let (x, u) = if v >= 1_000_000_000 {
        (v as f64 / 1e9, "Gbit/s")
    } else if v >= 1_000_000 {
        (v as f64 / 1e6, "Mbit/s")
    } else if v >= 1_000 {
        (v as f64 / 1e3, "kbit/s")
    } else {
        (v as f64, "bit/s")
    };
    let s = format!("{x:.3}");
    format!("{} {u}", s.trim_end_matches('0').trim_end_matches('.'))
}

/// What fast recovery worked around: ssthresh, or (no multiplicative decrease) the window
/// the loss found.
pub(super) fn target_name(ssthresh: u64, target: u64) -> &'static str {
    if ssthresh == target {
        "ssthresh"
    } else {
        "the window at the loss (no decrease: min(cwnd, ssthresh))"
    }
}

pub(super) fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
