//! The scenario's reading, checking and writing, end to end.

use super::*;
use serde_json::json;

#[test]
fn empty_object_gives_the_defaults() {
    let s = Scenario::default();
    assert_eq!(s.flows.len(), 1);
    assert_eq!(s.flows[0].variant, Variant::Newreno);
    assert_eq!(s.network.bottleneck.bandwidth, 2_000_000);
}

#[test]
fn every_problem_is_reported_at_once() {
    let v = json!({
        "duration": -1,
        "network": {"bottleneck": {"bandwidth": 0, "delay": "fast", "colour": 3}},
        "flows": [{"variant": "vegas", "tcp": {"mss": 0}}]
    });
    let problems = Scenario::from_value(&v).unwrap_err();
    let text: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(problems.len(), 6, "{text:#?}");
    assert!(
        text[0]
            .starts_with("network.bottleneck.colour: unknown parameter; known here: bandwidth, borrow, codel, delay"),
        "{text:#?}"
    );
    assert!(
        text.iter()
            .any(|t| t.starts_with("duration = -1 s is out of range; allowed 0.001 to 100000 s")),
        "{text:#?}"
    );
    assert!(
        text.iter()
            .any(|t| t.contains("network.bottleneck.bandwidth = 0 bit/s is out of range")),
        "{text:#?}"
    );
    assert!(
        text.iter()
            .any(|t| t.contains("network.bottleneck.delay = \"fast\" is a string, not a number")),
        "{text:#?}"
    );
    assert!(
        text.iter()
            .any(|t| t.contains("flows[0].variant = \"vegas\" is not one of: old_tahoe, tahoe, reno, newreno")),
        "{text:#?}"
    );
    assert!(
        text.iter()
            .any(|t| t.contains("flows[0].tcp.mss = 0 B is out of range; allowed 1 to 65495 B")),
        "{text:#?}"
    );
}

#[test]
fn set_path_reaches_flows_and_checks_ranges() {
    let mut doc = json!({});
    set_path(&mut doc, "flows[0].variant", parse_set_value("reno")).unwrap();
    set_path(&mut doc, "network.bottleneck.delay", parse_set_value("0.05")).unwrap();
    let s = Scenario::from_value(&doc).unwrap();
    assert_eq!(s.flows[0].variant, Variant::Reno);
    assert_eq!(s.network.bottleneck.delay, 0.05);
    let err = set_path(&mut doc, "network.bottleneck.delay", json!(99)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "network.bottleneck.delay = 99 s is out of range; allowed 0 to 10 s"
    );
    // Front ends show `text`, the same line as Display.
    assert_eq!(
        serde_json::to_value(&err).unwrap(),
        json!({"path": "network.bottleneck.delay", "message": "= 99 s is out of range; allowed 0 to 10 s",
               "text": "network.bottleneck.delay = 99 s is out of range; allowed 0 to 10 s"})
    );
    let err = set_path(&mut doc, "network.bottlenek.delay", json!(1)).unwrap_err();
    assert!(err
        .to_string()
        .starts_with("network.bottlenek.delay: unknown parameter"));
    let err = set_path(&mut doc, "flows[5].variant", json!("reno")).unwrap_err();
    assert!(err.to_string().contains("there is no flow 5"));
}

#[test]
fn timeline_paths_must_be_live() {
    let v = json!({"timeline": [
        {"at": 1, "set": "network.bottleneck.loss.ber", "value": 1e-5},
        {"at": 2, "set": "flows[0].tcp.mss", "value": 500},
        {"at": 3, "set": "flows[3].app.write_size", "value": 5},
        {"at": 4, "set": "network.bottleneck.bandwidth", "value": -5}
    ]});
    let problems = Scenario::from_value(&v).unwrap_err();
    let text: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(problems.len(), 3, "{text:#?}");
    assert!(text[0].starts_with("timeline[1].set: `flows[0].tcp.mss` cannot change during a run"));
    assert!(text[1].starts_with("timeline[2].set: `flows[3].app.write_size`: there is no flow 3"));
    assert!(text[2].contains("timeline[3].value: for network.bottleneck.bandwidth = -5 is not a whole number"));
}

#[test]
fn packet_estimates_bound_the_run() {
    // Defaults: 2 Mbit/s of 1500-byte packets for 20 s ≈ 3333 data packets + ACKs.
    assert_eq!(Scenario::default().estimated_packets(), 6667);
    let mut s = Scenario::default();
    s.flows[0].app.kind = AppKind::Thin;
    s.flows[0].app.write_size = 50;
    s.flows[0].app.write_interval = 0.01;
    assert_eq!(s.estimated_packets(), 4000, "100 writes/s for 20 s, each with an ACK");
    // Without slow start the whole receiver window leaves at once, whatever the path: a
    // 1 GiB window of 24-byte segments is 44 739 242 segments, and their ACKs.
    let mut s = Scenario::default();
    s.flows[0].cc.slow_start = SlowStartRule::None;
    s.flows[0].tcp.rwnd = 1 << 30;
    s.flows[0].tcp.mss = 24;
    s.network.bottleneck.bandwidth = 1000;
    assert!(s.estimated_packets() >= 2 * 44_739_242, "{}", s.estimated_packets());
}

#[test]
fn malformed_json_is_reported_not_panicked() {
    let e = Scenario::from_json_str("{\"seed\": 1,").unwrap_err();
    assert!(e[0].message.starts_with("not valid JSON"), "{e:?}");
    let e = Scenario::from_json_str("[1,2]").unwrap_err();
    assert!(e[0].message.contains("must be a JSON object"));
    let e = Scenario::from_json_str("{\"flows\": 3}").unwrap_err();
    assert_eq!(e[0].path, "flows");
}
