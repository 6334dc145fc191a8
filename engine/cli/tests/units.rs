//! `cwndlab exercise --unit`: the sheet's windows in the reader's unit first, the other in
//! brackets; the same questions whatever the unit; a bad unit named with the allowed ones.

use std::process::Output;

mod common;
use common::{cwndlab, stdout};

fn answers(unit: Option<&str>) -> Vec<(String, String)> {
    let mut args = vec![
        "exercise",
        "--preset",
        "textbook-reno",
        "--questions",
        "20",
        "--format",
        "json",
    ];
    if let Some(u) = unit {
        args.extend(["--unit", u]);
    }
    let o = cwndlab(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    v["questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            (
                q["kind"].as_str().unwrap().to_string(),
                q["answer"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_sheet_writes_windows_in_the_chosen_unit_first() {
    let default = answers(None);
    let segs = answers(Some("segments"));
    let bytes = answers(Some("bytes"));
    let kinds = |a: &[(String, String)]| a.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>();
    assert_eq!(kinds(&default), kinds(&bytes));
    assert_eq!(kinds(&segs), kinds(&bytes));
    // textbook-reno counts segments: its default is segments first, as --unit segments.
    assert_eq!(default, segs);
    let sized: Vec<&String> = bytes.iter().map(|(_, a)| a).filter(|a| a.contains(" B")).collect();
    assert!(sized.len() >= 3, "{bytes:?}");
    // Bytes first, the segments in brackets: "ssthresh = 8000 B (8 segments)".
    let (_, ss) = bytes
        .iter()
        .find(|(k, _)| k == "ssthresh_change")
        .expect("an ssthresh question");
    let (_, ss_seg) = segs.iter().find(|(k, _)| k == "ssthresh_change").unwrap();
    assert!(ss.contains(" B (") && ss.contains(" segment"), "{ss}");
    assert!(
        ss_seg.contains(" segments (") || ss_seg.contains(" segment ("),
        "{ss_seg}"
    );
    assert!(!ss.contains(" segments (") && !ss.contains(" segment ("), "{ss}");
}

#[test]
fn a_bad_unit_is_named_with_the_allowed_ones_and_the_textbook_model_counts_segments() {
    let o = cwndlab(&["exercise", "--preset", "textbook-reno", "--unit", "packets"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("packets") && err.contains("allowed: segments, bytes"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    let t = textbook_sheet(&["--unit", "bytes"]);
    assert!(!t.status.success());
    let err = String::from_utf8_lossy(&t.stderr);
    assert!(err.contains("--unit bytes") && err.contains("segments"), "{err}");
    // In segments it is the textbook sheet as without --unit.
    let a = textbook_sheet(&[]);
    let b = textbook_sheet(&["--unit", "segments"]);
    assert!(a.status.success() && b.status.success());
    let strip = |o: &Output| {
        stdout(o)
            .lines()
            .filter(|l| !l.contains("regenerate"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&a), strip(&b));
}

/// `cwndlab exercise` on textbook-reno in the Kurose & Ross round model, with `extra`.
fn textbook_sheet(extra: &[&str]) -> Output {
    let mut args = vec!["exercise", "--preset", "textbook-reno", "--textbook", "kurose_ross"];
    args.extend_from_slice(extra);
    cwndlab(&args)
}
