//! Exports (`cwndlab_core::export`): the tables as CSV and JSON, the pcap capture read back
//! byte by byte, the qlog file checked against the schema's event names and against the
//! run's own record; every export the same however the run is sliced.

mod common;

use common::{scenario, SEC};
use cwndlab_core::capture::CapturePoint;
use cwndlab_core::export::{Exporter, Request, Table, TableFormat, PAGE_LIMIT_BYTES};
use cwndlab_core::scenario::Scenario;
use cwndlab_core::sim::Simulation;
use cwndlab_core::trace::EventKind;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Runs an export to the end in slices of `slice` events; the files' bytes.
fn export(s: &Scenario, req: &Request, slice: u64) -> (Vec<String>, Vec<Vec<u8>>) {
    let mut ex = Exporter::new(s, req, None).expect("export starts");
    let names: Vec<String> = ex.files().iter().map(|f| f.name.clone()).collect();
    let mut out = vec![Vec::new(); names.len()];
    loop {
        let done = ex.step(slice);
        for (i, o) in out.iter_mut().enumerate() {
            o.extend(ex.take(i));
        }
        if done {
            break;
        }
    }
    assert!(ex.finished());
    assert_eq!(ex.progress(), 1.0);
    (names, out)
}

/// The event log of a full run (every event), counted by kind.
fn counts(s: &Scenario) -> BTreeMap<&'static str, u64> {
    let mut every = s.clone();
    every.trace.events = cwndlab_core::scenario::EventFilter::All;
    let mut sim = Simulation::new(&every);
    sim.run_to_end();
    let mut c = BTreeMap::new();
    for r in &sim.events().rows {
        *c.entry(EventKind::ALL[r.kind as usize].name()).or_insert(0) += 1;
    }
    c
}

/// The records of a pcap file: (time ns, captured bytes, original length).
fn pcap_records(b: &[u8]) -> Vec<(u64, Vec<u8>, u32)> {
    assert_eq!(&b[..4], &0xa1b2_3c4du32.to_le_bytes(), "nanosecond pcap");
    assert_eq!(u32::from_le_bytes(b[20..24].try_into().unwrap()), 101, "raw IPv4");
    let mut at = 24;
    let mut out = Vec::new();
    while at < b.len() {
        let w = |k: usize| u32::from_le_bytes(b[at + k..at + k + 4].try_into().unwrap());
        let t = w(0) as u64 * SEC + w(4) as u64;
        let (cap, len) = (w(8) as usize, w(12));
        out.push((t, b[at + 16..at + 16 + cap].to_vec(), len));
        at += 16 + cap;
    }
    assert_eq!(at, b.len(), "records fill the file exactly");
    out
}

/// Packets waiting in a queue (not in transmission) when the run ends: in the system at
/// the end by the queue's occupancy series, less the one being sent, if any.
fn waiting_at_end(s: &Scenario, queue: &str) -> u64 {
    let mut sim = Simulation::new(s);
    sim.run_to_end();
    let end = sim.end();
    let (_, q) = sim
        .queues()
        .into_iter()
        .find(|(n, _)| *n == queue)
        .expect("a traced queue");
    let in_system = q.rows.iter().take_while(|r| r.0 <= end).last().map_or(0, |r| r.1) as u64;
    in_system.saturating_sub(1)
}

/// The records of a bottleneck capture (snap length 80) of `s`.
fn bottleneck_capture(s: &Scenario) -> Vec<(u64, Vec<u8>, u32)> {
    let req = Request::Pcap {
        point: CapturePoint::Bottleneck,
        snaplen: 80,
    };
    pcap_records(&export(s, &req, 50_000).1[0])
}

#[test]
fn csv_and_json_tables_hold_the_same_rows() {
    let s = scenario("netsim-reno", &[("duration", "5")]);
    let tables = vec![
        Table::Series,
        Table::Events,
        Table::Throughput,
        Table::Summary,
        Table::Scenario,
    ];
    let (names, csv) = export(
        &s,
        &Request::Tables {
            format: TableFormat::Csv,
            tables: tables.clone(),
        },
        10_000,
    );
    assert_eq!(
        names,
        [
            "series_flow0.csv",
            "events.csv",
            "throughput.csv",
            "summary.csv",
            "scenario.json"
        ]
    );
    let (jnames, js) = export(
        &s,
        &Request::Tables {
            format: TableFormat::Json,
            tables,
        },
        10_000,
    );
    assert_eq!(
        jnames,
        [
            "series_flow0.json",
            "events.json",
            "throughput.json",
            "summary.json",
            "scenario.json"
        ]
    );
    for k in 0..3 {
        let text = String::from_utf8(csv[k].clone()).unwrap();
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
        let v: Value = serde_json::from_slice(&js[k]).expect("a JSON table");
        assert_eq!(v["columns"], json!(header), "{}", names[k]);
        let jrows = v["rows"].as_array().unwrap();
        assert_eq!(jrows.len(), rows.len(), "{}", names[k]);
        assert!(rows.len() > 10);
        for (c, j) in rows.iter().zip(jrows) {
            for (cell, jv) in c.iter().zip(j.as_array().unwrap()) {
                match jv {
                    Value::Number(n) => assert_eq!(cell.parse::<f64>().unwrap(), n.as_f64().unwrap()),
                    Value::String(t) => assert_eq!(cell, t),
                    Value::Null => assert_eq!(*cell, ""),
                    other => panic!("unexpected {other}"),
                }
            }
        }
    }
    // The summary JSON is `run`'s; the scenario file runs to the same digest.
    let summary: Value = serde_json::from_slice(&js[3]).unwrap();
    let scenario_file = String::from_utf8(js[4].clone()).unwrap();
    let mut again = Simulation::from_json(&scenario_file).expect("the scenario file is valid");
    again.run_to_end();
    assert_eq!(summary["digest"], json!(format!("{:016x}", again.digest())));
    let text = String::from_utf8(csv[3].clone()).unwrap();
    assert!(text.starts_with("flow,algorithm,variant,goodput_bps"));
    assert_eq!(text.lines().count(), 2);
}

#[test]
fn the_sender_capture_holds_every_transmission_and_every_ack_the_sender_gets() {
    // NetSim's 20 s Reno run: the capture stays under 2 MB.
    let s = scenario("netsim-reno", &[]);
    let (names, files) = export(
        &s,
        &Request::Pcap {
            point: CapturePoint::Sender,
            snaplen: 96,
        },
        7_777,
    );
    assert_eq!(names, ["sender.pcap"]);
    assert!(files[0].len() < 2_000_000, "{} bytes", files[0].len());
    let recs = pcap_records(&files[0]);
    let c = counts(&s);
    let data = recs.iter().filter(|(_, b, _)| b[12] == 10 && b[13] == 1).count() as u64;
    let acks = recs.len() as u64 - data;
    // Each segment is captured as its transmission onto the access link starts: all but
    // those still waiting in the access link's queue when the run ends.
    let sent = c["data_send"] + c["retransmit"];
    let waiting = waiting_at_end(&s, "flow 0 sender access");
    assert!(waiting >= 1, "NetSim's CBR sender outpaces its 10 Mbit/s link");
    assert_eq!(data, sent - waiting);
    assert_eq!(acks, c["ack_received"]);
    assert!(recs.windows(2).all(|w| w[0].0 <= w[1].0), "time order");
    // Segments start on the 10 Mbit/s access link one 1 500-byte wire time (1.2 ms) apart
    // at the closest, as a capture on the host would show them, never in a burst.
    let starts: Vec<u64> = recs
        .iter()
        .filter(|(_, b, _)| b[12] == 10 && b[13] == 1)
        .map(|r| r.0)
        .collect();
    assert_eq!(starts.windows(2).map(|w| w[1] - w[0]).min(), Some(1_200_000));
    // Snap length 96; original lengths are the wire sizes (1 460 + 40, ACKs 40).
    assert!(recs.iter().all(|(_, b, len)| b.len() == (*len as usize).min(96)));
    assert!(recs.iter().all(|(_, _, len)| *len == 1500 || *len == 40));
    // The first segment leaves at the flow's start, sequence number 1 (byte 0).
    let (t, b, _) = &recs[0];
    assert_eq!(*t, (s.flows[0].start * 1e9) as u64);
    assert_eq!(u32::from_be_bytes(b[24..28].try_into().unwrap()), 1);
    // Slicing changes nothing.
    let (_, again) = export(
        &s,
        &Request::Pcap {
            point: CapturePoint::Sender,
            snaplen: 96,
        },
        1_000_000,
    );
    assert_eq!(files, again);
}

#[test]
fn the_receiver_and_bottleneck_captures_see_what_reaches_them() {
    // Scripted drops on the bottleneck: the receiver never sees the dropped copies; the
    // bottleneck sees them start (the loss is on the wire) and, with a small queue, misses
    // what the queue refuses.
    let s = scenario("fall-floyd-reno-3drops", &[]);
    let c = counts(&s);
    let (_, rx) = export(
        &s,
        &Request::Pcap {
            point: CapturePoint::Receiver,
            snaplen: 80,
        },
        5_000,
    );
    let recs = pcap_records(&rx[0]);
    let fwd = |b: &[u8]| b[12] == 10 && b[13] == 1;
    // This preset opens with a handshake: the SYN arrives too, and the SYN-ACK leaves.
    let syn = |b: &[u8]| b[33] & 0x02 != 0;
    let data = recs.iter().filter(|(_, b, _)| fwd(b) && !syn(b)).count() as u64;
    assert_eq!(data, c["data_received"]);
    assert_eq!(recs.iter().filter(|(_, b, _)| fwd(b) && syn(b)).count(), 1);
    let acks = recs.iter().filter(|(_, b, _)| !fwd(b) && !syn(b)).count() as u64;
    assert_eq!(acks, c["ack_sent"]);
    let (_, bn) = export(
        &s,
        &Request::Pcap {
            point: CapturePoint::Bottleneck,
            snaplen: 80,
        },
        5_000,
    );
    let recs = pcap_records(&bn[0]);
    let data = recs.iter().filter(|(_, b, _)| fwd(b) && !syn(b)).count() as u64;
    let sent = c["data_send"] + c["retransmit"];
    let waiting = waiting_at_end(&s, "bottleneck");
    assert_eq!(data, sent - c.get("queue_drop").copied().unwrap_or(0) - waiting);
    assert!(recs.windows(2).all(|w| w[0].0 <= w[1].0), "time order");
}

#[test]
fn cross_traffic_appears_at_the_bottleneck_as_udp() {
    let s = scenario("cubic-two-rtts", &[("duration", "2")]);
    let recs = bottleneck_capture(&s);
    let udp = recs.iter().filter(|(_, b, _)| b[9] == 17).count();
    assert!(udp > 100, "{udp} cross-traffic datagrams");
    assert!(
        recs.iter().any(|(_, b, _)| b[9] == 6 && b[15] == 2),
        "flow 1's packets too"
    );
}

/// qlog 0.3's event types of the categories a TCP sender can log (the schema's names as
/// qvis's QlogSchema.ts lists them for draft-02/0.3: transport and recovery).
const SCHEMA_EVENTS: [&str; 17] = [
    "transport:parameters_set",
    "transport:datagrams_sent",
    "transport:datagrams_received",
    "transport:datagram_dropped",
    "transport:packet_sent",
    "transport:packet_received",
    "transport:packet_dropped",
    "transport:packet_buffered",
    "transport:frames_processed",
    "transport:stream_state_updated",
    "recovery:parameters_set",
    "recovery:metrics_updated",
    "recovery:congestion_state_updated",
    "recovery:loss_timer_set",
    "recovery:loss_timer_triggered",
    "recovery:packet_lost",
    "recovery:marked_for_retransmit",
];

fn qlog_records(b: &[u8]) -> Vec<Value> {
    assert_eq!(b[0], 0x1e, "JSON text sequence");
    b.split(|&c| c == 0x1e)
        .skip(1)
        .map(|r| {
            assert_eq!(r.last(), Some(&b'\n'));
            serde_json::from_slice(r).expect("each record is JSON")
        })
        .collect()
}

#[test]
fn the_qlog_uses_the_schemas_names_and_holds_the_runs_record() {
    for preset in [
        "fall-floyd-newreno-3drops",
        "fall-floyd-reno-4drops",
        "cubic-bufferbloat",
    ] {
        let mut s = scenario(preset, &[]);
        if preset == "cubic-bufferbloat" {
            s = scenario(preset, &[("flows[0].algorithm", "bbr"), ("duration", "6")]);
        }
        let (names, files) = export(&s, &Request::Qlog { flow: 0 }, 3_000);
        assert_eq!(names, ["flow0.sqlog"]);
        let recs = qlog_records(&files[0]);
        let head = &recs[0];
        assert_eq!(head["qlog_version"], "0.3");
        assert_eq!(head["qlog_format"], "JSON-SEQ");
        assert_eq!(head["trace"]["common_fields"]["protocol_type"], "TCP");
        assert_eq!(head["trace"]["vantage_point"]["type"], "client");
        let events = &recs[1..];
        let mut by: BTreeMap<String, u64> = BTreeMap::new();
        let mut last = 0.0;
        for e in events {
            let name = e["name"].as_str().unwrap();
            assert!(SCHEMA_EVENTS.contains(&name), "{name} is not a qlog 0.3 event");
            assert!(cwndlab_core::export::qlog::EVENT_NAMES.contains(&name));
            let t = e["time"].as_f64().unwrap();
            assert!(t >= last, "time order");
            last = t;
            *by.entry(name.to_string()).or_insert(0) += 1;
        }
        let c = counts(&s);
        let get = |k: &str| c.get(k).copied().unwrap_or(0);
        assert_eq!(
            by["transport:packet_sent"],
            get("data_send") + get("retransmit") + get("syn_send"),
            "{preset}"
        );
        assert_eq!(
            by["transport:packet_received"],
            get("ack_received") + get("syn_ack_received"),
            "{preset}"
        );
        // A resent segment declares the transmission it replaces lost (a resent SYN too).
        let lost = by.get("recovery:packet_lost").copied().unwrap_or(0);
        assert_eq!(lost, get("retransmit") + get("syn_send").saturating_sub(1), "{preset}");
        // The window's values are the series'.
        let mut sim = Simulation::new(&s);
        sim.run_to_end();
        let cwnds: Vec<u64> = sim.series(0).rows.iter().map(|(_, st)| st.cwnd).collect();
        let mut changes: Vec<u64> = cwnds.clone();
        changes.dedup();
        let q: Vec<u64> = events
            .iter()
            .filter_map(|e| e["data"]["congestion_window"].as_u64())
            .collect();
        assert_eq!(q, changes, "{preset}");
        // Every ACK's ranges name packets that were sent.
        let sent = by["transport:packet_sent"];
        for e in events.iter().filter(|e| e["name"] == "transport:packet_received") {
            for r in e["data"]["frames"][0]["acked_ranges"].as_array().unwrap() {
                assert!(r.as_array().unwrap().iter().all(|n| n.as_u64().unwrap() < sent));
            }
        }
        if preset == "cubic-bufferbloat" {
            assert!(events.iter().any(|e| e["data"]["pacing_rate"].is_u64()));
            assert!(events.iter().any(|e| e["data"]["new"] == "bbr_probe_bw"));
        }
        if preset == "fall-floyd-reno-4drops" {
            assert!(events.iter().any(|e| e["data"]["trigger"] == "pto_expired"));
        }
    }
}

/// Flow 0's event rows of a full run (every event): (t, kind, seq, len, tx).
fn rows0(s: &Scenario) -> Vec<(u64, &'static str, u64, u32, u32)> {
    let mut every = s.clone();
    every.trace.events = cwndlab_core::scenario::EventFilter::All;
    let mut sim = Simulation::new(&every);
    sim.run_to_end();
    sim.events()
        .rows
        .iter()
        .filter(|r| r.flow == 0)
        .map(|r| (r.t, EventKind::ALL[r.kind as usize].name(), r.seq, r.len, r.tx))
        .collect()
}

fn qlog_events(s: &Scenario, slice: u64) -> Vec<Value> {
    let (_, files) = export(s, &Request::Qlog { flow: 0 }, slice);
    qlog_records(&files[0])[1..].to_vec()
}

/// An ACK's number, its SACK blocks (ascending) and its D-SACK block, if any.
type AckBlocks = (u64, Vec<(u64, u64)>, Vec<(u64, u64)>);

fn pairs(v: &Value) -> Vec<(u64, u64)> {
    v.as_array().map_or(Vec::new(), |a| {
        a.iter()
            .map(|p| (p[0].as_u64().unwrap(), p[1].as_u64().unwrap()))
            .collect()
    })
}

#[test]
fn the_qlog_of_a_sack_flow_holds_its_blocks_its_losses_and_its_probes() {
    for rack in [false, true] {
        let r = if rack { "true" } else { "false" };
        let s = scenario(
            "fall-floyd-newreno-3drops",
            &[("flows[].sack.enabled", "true"), ("flows[].sack.rack", r)],
        );
        let events = qlog_events(&s, 3_000);
        // An ACK's rows travel together: slicing the run finely changes nothing.
        assert_eq!(events, qlog_events(&s, 7), "rack {rack}");
        let rows = rows0(&s);
        // The ACKs' blocks as the engine logged them: (ack, SACK blocks ascending, D-SACK).
        let mut engine: Vec<AckBlocks> = Vec::new();
        for &(_, kind, seq, len, tx) in &rows {
            match kind {
                "syn_ack_received" => engine.push((0, vec![], vec![])),
                "ack_received" => engine.push((seq, vec![], vec![])),
                "sack_block" => {
                    let a = engine.last_mut().unwrap();
                    if tx == 1 {
                        assert!(a.1.is_empty() && a.2.is_empty(), "a D-SACK comes first");
                        a.2.push((seq, seq + len as u64));
                    } else {
                        a.1.push((seq, seq + len as u64));
                    }
                }
                _ => {}
            }
        }
        for a in &mut engine {
            a.1.sort_unstable();
        }
        let received: Vec<&Value> = events
            .iter()
            .filter(|e| e["name"] == "transport:packet_received")
            .collect();
        let q: Vec<AckBlocks> = received
            .iter()
            .map(|e| {
                let f = &e["data"]["frames"][0];
                (
                    e["data"]["header"]["ack_number"].as_u64().unwrap(),
                    pairs(&f["sack"]),
                    pairs(&f["dsack"]),
                )
            })
            .collect();
        assert_eq!(q, engine, "rack {rack}");
        assert!(engine.iter().filter(|a| !a.1.is_empty()).count() >= 30);
        assert_eq!(engine.iter().filter(|a| !a.2.is_empty()).count(), 1, "one D-SACK");
        // acked_ranges: each transmission once, ascending, and only when the ACK covers
        // it, cumulatively or by a block; some only by a block.
        let mut sent: BTreeMap<u64, (u64, u64)> = BTreeMap::new();
        let mut acked: BTreeMap<u64, u64> = BTreeMap::new();
        let mut selective = 0;
        for e in &events {
            let d = &e["data"];
            if e["name"] == "transport:packet_sent" {
                let f = &d["frames"][0];
                let off = f["offset"].as_u64().unwrap_or(0);
                let len = f["length"].as_u64().unwrap_or(0);
                sent.insert(d["header"]["packet_number"].as_u64().unwrap(), (off, off + len));
            }
            if e["name"] != "transport:packet_received" {
                continue;
            }
            let f = &d["frames"][0];
            let ack = d["header"]["ack_number"].as_u64().unwrap();
            let blocks = pairs(&f["sack"]);
            let mut last = None;
            for r in f["acked_ranges"].as_array().unwrap() {
                let r: Vec<u64> = r.as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
                for pn in r[0]..=*r.last().unwrap() {
                    assert!(last.is_none_or(|l| l < pn), "ascending");
                    last = Some(pn);
                    assert!(acked.insert(pn, ack).is_none(), "{pn} acknowledged twice");
                    let (a, b) = sent[&pn];
                    let by_block = blocks.iter().any(|&(l, r)| l <= a && b <= r);
                    assert!(
                        b <= ack || by_block,
                        "{pn} [{a}, {b}) is not covered by {ack} {blocks:?}"
                    );
                    selective += (b > ack) as u32;
                }
            }
        }
        assert!(selective >= 10, "{selective} transmissions acknowledged by a block");
        // Losses: one per marked_lost row, at its instant, with its detector's trigger,
        // naming the segment's latest transmission; and one for the rescue retransmission
        // (RFC 6675 NextSeg rule 4), which nothing marked: as many as the retransmissions.
        // (time, offset, trigger, whether it names the segment's latest transmission)
        let mut latest: BTreeMap<u64, u64> = BTreeMap::new();
        let mut lost = Vec::new();
        for e in &events {
            let d = &e["data"];
            let pn = d["header"]["packet_number"].as_u64();
            if e["name"] == "transport:packet_sent" {
                latest.insert(sent[&pn.unwrap()].0, pn.unwrap());
            } else if e["name"] == "recovery:packet_lost" {
                let off = sent[&pn.unwrap()].0;
                let t = e["time"].as_f64().unwrap();
                lost.push((
                    t,
                    off,
                    d["trigger"].as_str().unwrap().to_string(),
                    latest[&off] == pn.unwrap(),
                ));
            }
        }
        let marked: Vec<_> = rows.iter().filter(|r| r.1 == "marked_lost").collect();
        let retx = rows.iter().filter(|r| r.1 == "retransmit").count();
        assert_eq!(lost.len(), retx, "rack {rack}");
        assert_eq!(marked.len() + 1, retx, "rack {rack}");
        assert!(lost.iter().all(|l| l.3), "a loss names the latest transmission");
        let trigger = if rack { "time_threshold" } else { "reordering_threshold" };
        for m in &marked {
            assert_eq!(m.4, if rack { 2 } else { 1 }, "{m:?}");
            let t = m.0 as f64 / 1e6;
            let hit = lost
                .iter()
                .any(|l| (l.0 - t).abs() < 1e-9 && l.1 == m.2 && l.2 == trigger);
            assert!(hit, "no packet_lost for {m:?}: {lost:?}");
        }
    }
}

#[test]
fn a_tail_loss_probe_is_the_pto_timer_and_a_probe_in_the_qlog() {
    // 14 segments, the last dropped once: the probe resends it, nothing is declared lost.
    let s = common::scenario_from(
        json!({"duration": 3, "flows": [{"app": {"kind": "bulk", "bytes": 20000},
            "drops": [{"segment": 14, "attempt": 1}], "tcp": {"syn": true},
            "sack": {"enabled": true, "rack": true, "tlp": true}}]}),
        &[],
    );
    let rows = rows0(&s);
    let probes: Vec<_> = rows.iter().filter(|r| r.1 == "tail_loss_probe").collect();
    assert_eq!(probes.len(), 1, "{rows:?}");
    let events = qlog_events(&s, 3_000);
    let at = events
        .iter()
        .position(|e| e["name"] == "recovery:loss_timer_triggered")
        .expect("the probe timer fires");
    assert_eq!(events[at]["data"]["timer_type"], "pto");
    assert_eq!(
        events
            .iter()
            .filter(|e| e["name"] == "recovery:loss_timer_triggered")
            .count(),
        1
    );
    let probe = &events[at + 1];
    assert_eq!(probe["name"], "transport:packet_sent");
    assert_eq!(probe["data"]["trigger"], "pto_probe");
    assert_eq!(probe["data"]["frames"][0]["offset"].as_u64(), Some(probes[0].2));
    assert!((probe["time"].as_f64().unwrap() - probes[0].0 as f64 / 1e6).abs() < 1e-9);
    assert!(!events.iter().any(|e| e["name"] == "recovery:packet_lost"));
    // Every other transmission has no trigger.
    let triggers = events
        .iter()
        .filter(|e| e["name"] == "transport:packet_sent" && !e["data"]["trigger"].is_null())
        .count();
    assert_eq!(triggers, 1);
}

#[test]
fn requests_name_the_field_and_the_allowed_values() {
    let err = |v: Value| Request::from_json(&v).unwrap_err();
    assert!(err(json!({"format": "xls"})).contains("allowed: csv, json, pcap, qlog"));
    assert!(err(json!({"format": "csv", "tables": ["cwnd"]})).contains("tables: unknown table \"cwnd\""));
    assert!(err(json!({"format": "pcap", "point": "router"})).contains("allowed: sender, receiver, bottleneck"));
    assert!(err(json!({"format": "pcap", "snaplen": 10}))
        .contains("snaplen: 10 is not a whole number of bytes from 80 to 65535"));
    let s = scenario("netsim-reno", &[]);
    let e = Exporter::new(&s, &Request::Qlog { flow: 3 }, None).unwrap_err();
    assert!(e.contains("flow: the scenario has 1 flow(s); allowed: 0 to 0"), "{e}");
    assert_eq!(
        Request::from_json(&json!({"format": "pcap"})).unwrap(),
        Request::Pcap {
            point: CapturePoint::Sender,
            snaplen: 96
        }
    );
}

#[test]
fn the_page_refuses_an_export_too_big_to_hold_and_says_what_to_do() {
    let s = scenario("cubic-newreno-share", &[("duration", "1000")]);
    let req = Request::Pcap {
        point: CapturePoint::Sender,
        snaplen: 96,
    };
    let e = Exporter::new(&s, &req, Some(PAGE_LIMIT_BYTES)).unwrap_err();
    assert!(e.contains("the page builds files up to 256 MB"), "{e}");
    assert!(
        e.contains("cwndlab run scenario.json --pcap run.pcap --pcap-point sender"),
        "{e}"
    );
    // A NetSim run fits.
    assert!(Exporter::new(&scenario("netsim-reno", &[]), &req, Some(PAGE_LIMIT_BYTES)).is_ok());
}

#[test]
fn a_capture_ends_with_the_run() {
    // A 1 000-packet queue still full at 3 s: what would start after the end is not captured.
    let s = scenario("cubic-bufferbloat", &[("duration", "3")]);
    let recs = bottleneck_capture(&s);
    let last = recs.last().unwrap().0;
    assert!(
        last <= 3 * SEC && last > 3 * SEC - 10_000_000,
        "last packet at {last} ns"
    );
}

#[test]
fn the_qlog_of_an_ecn_flow_counts_its_ce_marks_and_flags_ece_and_cwr() {
    // CUBIC with ECN under CoDel on the bufferbloat path: CoDel marks instead of dropping.
    let s = scenario(
        "aqm-ecn-vs-drops",
        &[("flows[0].algorithm", "cubic_linux_ecn"), ("duration", "10")],
    );
    let rows = rows0(&s);
    let count = |k: &str| rows.iter().filter(|r| r.1 == k).count() as u64;
    let (marks, echoes, cwrs) = (count("ce_mark"), count("ecn_echo"), count("cwr"));
    assert!(marks > 0 && echoes > 0 && cwrs > 0, "{marks} {echoes} {cwrs}");
    let events = qlog_events(&s, 3_000);
    assert_eq!(events, qlog_events(&s, 7), "an ACK's rows travel together");
    let acks: Vec<&Value> = events
        .iter()
        .filter(|e| e["name"] == "transport:packet_received")
        .map(|e| &e["data"]["frames"][0])
        .collect();
    // `ce` on every ACK after the handshake's, never falling, ending at the marks the ACKs
    // covered: each marked transmission reached the receiver (CoDel marks, it does not then
    // drop), so all but those still in flight at the end.
    let ce: Vec<u64> = acks[1..].iter().map(|f| f["ce"].as_u64().expect("ce")).collect();
    assert!(ce.windows(2).all(|w| w[0] <= w[1]));
    let last = *ce.last().unwrap();
    assert!(last <= marks && last + 5 >= marks, "{last} of {marks}");
    // ECE exactly on the ACKs that have an ecn_echo row; CWR exactly on the segments with a
    // cwr row, at the same instant and offset.
    assert_eq!(acks.iter().filter(|f| f["ece"] == json!(true)).count() as u64, echoes);
    let cwr_sent: Vec<(f64, u64)> = events
        .iter()
        .filter(|e| e["name"] == "transport:packet_sent" && e["data"]["header"]["cwr"] == json!(true))
        .map(|e| {
            (
                e["time"].as_f64().unwrap(),
                e["data"]["frames"][0]["offset"].as_u64().unwrap(),
            )
        })
        .collect();
    let cwr_rows: Vec<(f64, u64)> = rows
        .iter()
        .filter(|r| r.1 == "cwr")
        .map(|r| (r.0 as f64 / 1e6, r.2))
        .collect();
    assert_eq!(cwr_sent.len(), cwr_rows.len());
    for (a, b) in cwr_sent.iter().zip(&cwr_rows) {
        assert!((a.0 - b.0).abs() < 1e-9 && a.1 == b.1, "{a:?} {b:?}");
    }
    // A flow without ECN has no ECN fields.
    let plain = scenario("aqm-ecn-vs-drops", &[("duration", "3")]);
    let events = qlog_events(&plain, 3_000);
    assert!(events.iter().all(|e| e["data"]["frames"][0]["ce"].is_null()
        && e["data"]["frames"][0]["ece"].is_null()
        && e["data"]["header"]["cwr"].is_null()));
}

#[test]
fn a_queue_disciplines_state_is_a_file_of_its_own() {
    // CoDel on the bufferbloat path: one file for the managed data direction, none for the
    // drop-tail ACK direction, its rows the engine's series, the dropping state as 1/0 with
    // the next drop's time only while dropping.
    let s = scenario("aqm-bufferbloat-cured", &[("duration", "5")]);
    let (names, files) = export(
        &s,
        &Request::Tables {
            format: TableFormat::Csv,
            tables: vec![Table::Qdisc],
        },
        997,
    );
    assert_eq!(names, ["qdisc_bottleneck.csv"]);
    let text = String::from_utf8(files[0].clone()).unwrap();
    let mut lines = text.lines();
    let head = lines.next().unwrap();
    assert_eq!(head, cwndlab_core::export::tables::QDISC_FILE_COLUMNS.join(","));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let mut sim = Simulation::new(&s);
    sim.run_to_end();
    let series = sim.qdisc_series();
    assert_eq!(series.len(), 1);
    assert_eq!(rows.len(), series[0].1.rows.len());
    assert!(rows.iter().any(|r| r[5] == "1"), "CoDel drops in 5 s");
    for (r, (t, q)) in rows.iter().zip(&series[0].1.rows) {
        assert_eq!(r[0].parse::<f64>().unwrap(), *t as f64 / 1e9);
        assert_eq!(r[5], if q.dropping { "1" } else { "0" });
        assert_eq!(r[6].is_empty(), q.drop_next == u64::MAX);
    }
    // Drop-tail in both directions: no file.
    let plain = scenario("cubic-bufferbloat", &[("duration", "1")]);
    let req = Request::Tables {
        format: TableFormat::Csv,
        tables: vec![Table::Qdisc],
    };
    assert!(export(&plain, &req, 997).0.is_empty());
}
