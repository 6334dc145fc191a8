//! qlog: one flow's run, seen from its sender, as a qlog file (JSON text sequences,
//! RFC 7464: each record starts with the RS byte 0x1e and ends with a newline) in the
//! main schema's 0.3 form, the version qvis reads (`qlog_version` "0.3", `qlog_format`
//! "JSON-SEQ"). Later drafts renamed the events (`quic:packet_sent`, …); qvis does not
//! read those, so this file keeps the names below.
//!
//! How TCP maps onto the events (every value is the engine's own, as the trace has it):
//! - `transport:packet_sent`: every transmission the sender makes (SYN, first
//!   transmissions, retransmissions). Each gets a new packet number, as in QUIC, counted
//!   from 0; the stream frame's `offset` and `length` are the engine's byte offset and
//!   the payload (`raw.payload_length`); `raw.length` = payload + the flow's `tcp.header`.
//!   `header.sequence_number` (the byte offset again) is cwndlab's addition, as is
//!   `header.ack_number` below: qlog allows fields of one's own, and qvis ignores them.
//! - `transport:packet_received`: every ACK (and the SYN-ACK) reaching the sender, with an
//!   `ack` frame whose `acked_ranges` list, ascending, the packet numbers of the
//!   transmissions this ACK covers for the first time: those below the cumulative ACK and,
//!   for a SACK flow, those inside one of its SACK blocks (none for a duplicate ACK without
//!   new blocks); `header.ack_number` is the engine's acknowledgment number. A SACK flow's
//!   frame adds, as cwndlab's fields, the option's blocks in bytes (the engine's offsets,
//!   `[left, right)`, ascending): `sack`, and `dsack` for a first block reporting data
//!   received twice (RFC 2883); each only when the ACK has one.
//! - `recovery:packet_lost`: when the sender resends a segment, the transmission it
//!   replaces is declared lost, with trigger `reordering_threshold` (the duplicate-ACK
//!   threshold or a partial ACK started the resending) or `pto_expired` (the
//!   retransmission timer). A SACK flow's scoreboard declares a loss before the resend
//!   (`marked_lost`): the event comes then, with trigger `reordering_threshold` (RFC 6675's
//!   IsLost, or the first segment as recovery starts) or `time_threshold` (RACK, RFC 8985
//!   §6), and the resend declares nothing more. Losses in the network that the sender never
//!   learns of are not events of the sender.
//! - A tail loss probe (RFC 8985 §7): `recovery:loss_timer_triggered` (`timer_type` `pto`),
//!   then the probe's `transport:packet_sent` with trigger `pto_probe`; a probe that resends
//!   the last segment declares nothing lost.
//! - `recovery:metrics_updated`: the window series' changes (`congestion_window` = cwnd,
//!   `ssthresh` while finite, `bytes_in_flight`, `smoothed_rtt`, `rtt_variance`), each RTT
//!   sample (`latest_rtt`, and `min_rtt` the smallest so far), BBR's pacing rate
//!   (`pacing_rate`, bit/s); only the fields that changed.
//! - `recovery:congestion_state_updated`: the sender's phase (`old`, `new`: the engine's
//!   phase names, slow_start, congestion_avoidance, fast_recovery, timeout_recovery,
//!   bbr_startup, …).
//! - ECN (RFC 3168), for a flow with `ecn` on: each ACK's frame carries `ce`, the number of
//!   the flow's transmissions the queue marked CE that ACKs have covered so far (what a
//!   QUIC receiver's ECN counts report, RFC 9000 §19.3.2; TCP's ECE flag carries no count,
//!   so this is the engine's count of `ce_mark` rows), and, as cwndlab's fields, `ece: true`
//!   on an ACK with ECN-Echo and `header.cwr: true` on a segment carrying CWR. A CE mark
//!   itself is not an event: the sender learns of it only from the ACKs.
//! - `recovery:parameters_set` once at the start: `max_datagram_size` (MSS + header),
//!   `reordering_threshold` (the duplicate-ACK threshold).
//!
//! Times are milliseconds from the start of the run (`time_format` relative, reference 0).

use crate::scenario::Scenario;
use crate::sim::TakenRows;
use crate::tcp::cc::Phase;
use crate::time::Ns;
use crate::trace::{EventKind, EventRow, FlowState};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Every event name a cwndlab qlog holds (the test checks the file against this list and
/// this list against the schema's names).
pub const EVENT_NAMES: [&str; 7] = [
    "transport:packet_sent",
    "transport:packet_received",
    "recovery:packet_lost",
    "recovery:loss_timer_triggered",
    "recovery:metrics_updated",
    "recovery:congestion_state_updated",
    "recovery:parameters_set",
];

/// Milliseconds with nanosecond precision, as a JSON number.
fn ms(t: Ns) -> Value {
    let whole = t / 1_000_000;
    let frac = t % 1_000_000;
    if frac == 0 {
        return json!(whole);
    }
    let text = format!("{whole}.{frac:06}");
    let text = text.trim_end_matches('0');
    serde_json::from_str(text).expect("a number")
}

/// Writes one flow's qlog, record by record.
#[derive(Debug)]
pub struct QlogWriter {
    flow: u32,
    header_bytes: u64,
    next_pn: u64,
    next_ack_pn: u64,
    /// Transmissions not yet covered by an ACK: (first byte, packet number) → end byte.
    unacked: BTreeMap<(u64, u64), u64>,
    /// Transmissions already declared lost (a SACK flow's `marked_lost`), by number.
    declared: BTreeSet<u64>,
    /// The latest transmission of each segment still unacknowledged: first byte → number.
    latest: BTreeMap<u64, u64>,
    /// What resends segments now.
    trigger: &'static str,
    last: Option<FlowState>,
    min_rtt: Option<u64>,
    pacing: Option<u64>,
    /// ECN in force for the flow: its ACK frames carry `ce`.
    ecn: bool,
    /// Transmissions the queue marked CE, not yet covered by an ACK (by number).
    marked: BTreeSet<u64>,
    /// Marked transmissions covered by ACKs so far.
    ce: u64,
    /// A `cwr` row seen before its segment's `data_send`: that segment's first byte.
    cwr: Option<u64>,
    /// Events written.
    pub events: u64,
}

impl QlogWriter {
    /// A writer for flow `flow` of `s`.
    pub fn new(s: &Scenario, flow: usize) -> QlogWriter {
        QlogWriter {
            flow: flow as u32,
            header_bytes: s.flows[flow].tcp.header,
            next_pn: 0,
            next_ack_pn: 0,
            unacked: BTreeMap::new(),
            declared: BTreeSet::new(),
            latest: BTreeMap::new(),
            trigger: "reordering_threshold",
            last: None,
            min_rtt: None,
            pacing: None,
            ecn: s.flows[flow].ecn != crate::scenario::EcnMode::Off,
            marked: BTreeSet::new(),
            ce: 0,
            cwr: None,
            events: 0,
        }
    }

    fn record(&mut self, out: &mut Vec<u8>, v: &Value) {
        out.push(0x1e);
        out.extend_from_slice(serde_json::to_string(v).expect("json").as_bytes());
        out.push(b'\n');
    }

    fn event(&mut self, out: &mut Vec<u8>, t: Ns, name: &str, data: Value) {
        self.events += 1;
        self.record(out, &json!({ "time": ms(t), "name": name, "data": data }));
    }

    /// The file's header record and the parameters event.
    pub fn header(&mut self, s: &Scenario, out: &mut Vec<u8>) {
        let f = &s.flows[self.flow as usize];
        let title = format!("cwndlab flow {}: {}", self.flow, f.algorithm);
        let head = json!({
            "qlog_version": "0.3",
            "qlog_format": "JSON-SEQ",
            "title": title,
            "description": format!(
                "cwndlab {} simulation, seed {}, {} s, {} flow(s); the sender of flow {} (TCP)",
                env!("CARGO_PKG_VERSION"), s.seed, s.duration, s.flows.len(), self.flow
            ),
            "trace": {
                "title": title,
                "vantage_point": { "name": format!("flow {} sender", self.flow), "type": "client" },
                "common_fields": { "protocol_type": "TCP", "time_format": "relative", "reference_time": 0 },
                "configuration": { "time_offset": 0, "time_units": "ms" }
            }
        });
        self.record(out, &head);
        let data = json!({
            "max_datagram_size": f.tcp.mss + f.tcp.header,
            "reordering_threshold": f.tcp.dupack_threshold,
        });
        self.event(out, 0, "recovery:parameters_set", data);
    }

    /// Appends the events of one slice's rows (this flow's), in time order: at the same
    /// instant, packet events before the window's change they caused.
    pub fn append(&mut self, rows: &TakenRows, out: &mut Vec<u8>) {
        let events: Vec<&EventRow> = rows.events.iter().filter(|r| r.flow as u32 == self.flow).collect();
        let series: &[(Ns, FlowState)] = rows.series.get(self.flow as usize).map_or(&[], |v| v.as_slice());
        let (mut e, mut s) = (0, 0);
        while e < events.len() || s < series.len() {
            if s >= series.len() || (e < events.len() && events[e].t <= series[s].0) {
                e += self.on_event(&events[e..], out);
            } else {
                self.on_state(series[s].0, series[s].1, out);
                s += 1;
            }
        }
    }

    /// A transmission; `probe`: a tail loss probe (declares nothing lost); `cwr`: it
    /// carries CWR.
    fn sent(&mut self, out: &mut Vec<u8>, t: Ns, seq: u64, len: u32, probe: bool, cwr: bool) {
        let pn = self.next_pn;
        self.next_pn += 1;
        if let Some(prev) = self.latest.insert(seq, pn) {
            if !self.declared.remove(&prev) && !probe {
                let trigger = self.trigger;
                self.lost(out, t, prev, trigger);
            }
        }
        self.unacked.insert((seq, pn), seq + len as u64);
        let mut data = json!({
            "header": { "packet_type": "1RTT", "packet_number": pn, "sequence_number": seq },
            "raw": { "length": len as u64 + self.header_bytes, "payload_length": len },
            "frames": [{ "frame_type": "stream", "stream_id": 0, "offset": seq, "length": len }],
        });
        if probe {
            data["trigger"] = json!("pto_probe");
        }
        if cwr {
            data["header"]["cwr"] = json!(true);
        }
        self.event(out, t, "transport:packet_sent", data);
    }

    fn lost(&mut self, out: &mut Vec<u8>, t: Ns, pn: u64, trigger: &str) {
        let data = json!({
            "header": { "packet_type": "1RTT", "packet_number": pn },
            "trigger": trigger,
        });
        self.event(out, t, "recovery:packet_lost", data);
    }

    /// An ACK: `ack` cumulative, `blocks` its SACK blocks in the option's order, the
    /// first a D-SACK when `dsack`; `ece`: it carries ECN-Echo.
    fn received(&mut self, out: &mut Vec<u8>, t: Ns, ack: u64, blocks: &[(u64, u64)], dsack: bool, ece: bool) {
        let mut acked = Vec::new();
        let covered: Vec<(u64, u64)> = self
            .unacked
            .range(..=(ack, u64::MAX))
            .filter(|&(_, &end)| end <= ack)
            .map(|(&k, _)| k)
            .collect();
        let sack = &blocks[dsack as usize..];
        let mut in_blocks = Vec::new();
        for &(l, r) in sack {
            in_blocks.extend(
                self.unacked
                    .range((l, 0)..(r, 0))
                    .filter(|&(_, &end)| end <= r)
                    .map(|(&k, _)| k),
            );
        }
        for (seq, pn) in covered.into_iter().chain(in_blocks) {
            if self.unacked.remove(&(seq, pn)).is_none() {
                continue;
            }
            acked.push(pn);
            self.declared.remove(&pn);
            self.ce += self.marked.remove(&pn) as u64;
            if self.latest.get(&seq) == Some(&pn) {
                self.latest.remove(&seq);
            }
        }
        acked.sort_unstable();
        let mut ranges: Vec<Value> = Vec::new();
        let mut i = 0;
        while i < acked.len() {
            let mut j = i;
            while j + 1 < acked.len() && acked[j + 1] == acked[j] + 1 {
                j += 1;
            }
            ranges.push(if i == j {
                json!([acked[i]])
            } else {
                json!([acked[i], acked[j]])
            });
            i = j + 1;
        }
        let pn = self.next_ack_pn;
        self.next_ack_pn += 1;
        let mut frame = json!({ "frame_type": "ack", "acked_ranges": ranges });
        if !sack.is_empty() {
            let mut v = sack.to_vec();
            v.sort_unstable();
            frame["sack"] = json!(v.iter().map(|&(l, r)| json!([l, r])).collect::<Vec<_>>());
        }
        if dsack {
            frame["dsack"] = json!([[blocks[0].0, blocks[0].1]]);
        }
        if self.ecn {
            frame["ce"] = json!(self.ce);
        }
        if ece {
            frame["ece"] = json!(true);
        }
        let data = json!({
            "header": { "packet_type": "1RTT", "packet_number": pn, "ack_number": ack },
            "raw": { "length": self.header_bytes.max(1) },
            "frames": [frame],
        });
        self.event(out, t, "transport:packet_received", data);
    }

    /// Writes what `rows[0]` means (with the rows that belong to it: an ACK's
    /// `sack_block` rows, a probe's `tail_loss_probe` row); returns how many rows it took.
    fn on_event(&mut self, rows: &[&EventRow], out: &mut Vec<u8>) -> usize {
        let r = rows[0];
        let Some(&kind) = EventKind::ALL.get(r.kind as usize) else {
            return 1;
        };
        let next_is = |k: EventKind, i: usize| rows.get(i).is_some_and(|n| n.kind == k as u8 && n.t == r.t);
        // A row of kind `k` about `seq` later at the same instant (an ACK's `ecn_echo` comes
        // after what the ACK made the sender do).
        let at_instant = |k: EventKind, seq: u64| {
            rows[1..]
                .iter()
                .take_while(|n| n.t == r.t)
                .any(|n| n.kind == k as u8 && n.seq == seq)
        };
        match kind {
            EventKind::SynSend => self.sent(out, r.t, 0, 0, false, false),
            EventKind::DataSend | EventKind::Retransmit => {
                let probe = next_is(EventKind::TailLossProbe, 1) && rows[1].seq == r.seq;
                if probe {
                    let data = json!({ "timer_type": "pto" });
                    self.event(out, r.t, "recovery:loss_timer_triggered", data);
                }
                let cwr = self.cwr.take() == Some(r.seq);
                self.sent(out, r.t, r.seq, r.len, probe, cwr);
                return 1 + probe as usize;
            }
            // The sender logs a segment's `cwr` just before its `data_send`.
            EventKind::Cwr => self.cwr = Some(r.seq),
            EventKind::CeMark => {
                if let Some(&pn) = self.latest.get(&r.seq) {
                    self.marked.insert(pn);
                }
            }
            EventKind::SynAckReceived => self.received(out, r.t, 0, &[], false, false),
            EventKind::AckReceived => {
                let mut blocks = Vec::new();
                let mut dsack = false;
                while next_is(EventKind::SackBlock, 1 + blocks.len()) {
                    let b = rows[1 + blocks.len()];
                    dsack |= blocks.is_empty() && b.tx == 1;
                    blocks.push((b.seq, b.seq + b.len as u64));
                }
                let ece = self.ecn && at_instant(EventKind::EcnEcho, r.seq);
                self.received(out, r.t, r.seq, &blocks, dsack, ece);
                return 1 + blocks.len();
            }
            EventKind::MarkedLost => {
                if let Some(&pn) = self.latest.get(&r.seq) {
                    if self.declared.insert(pn) {
                        let trigger = if r.tx == 2 {
                            "time_threshold"
                        } else {
                            "reordering_threshold"
                        };
                        self.lost(out, r.t, pn, trigger);
                    }
                }
            }
            EventKind::FastRetransmit | EventKind::PartialAck => self.trigger = "reordering_threshold",
            EventKind::Timeout => self.trigger = "pto_expired",
            EventKind::RttSample => {
                let sample = r.seq;
                let min = self.min_rtt.map_or(sample, |m| m.min(sample));
                self.min_rtt = Some(min);
                let data = json!({ "latest_rtt": ms(sample), "min_rtt": ms(min) });
                self.event(out, r.t, "recovery:metrics_updated", data);
            }
            EventKind::BbrPacing if self.pacing != Some(r.seq) => {
                self.pacing = Some(r.seq);
                self.event(out, r.t, "recovery:metrics_updated", json!({ "pacing_rate": r.seq }));
            }
            _ => {}
        }
        1
    }

    fn on_state(&mut self, t: Ns, st: FlowState, out: &mut Vec<u8>) {
        let prev = self.last;
        let mut data = serde_json::Map::new();
        let changed = |f: fn(&FlowState) -> u64| prev.is_none_or(|p| f(&p) != f(&st));
        if changed(|s| s.cwnd) {
            data.insert("congestion_window".into(), json!(st.cwnd));
        }
        if changed(|s| s.ssthresh) && st.ssthresh != u64::MAX {
            data.insert("ssthresh".into(), json!(st.ssthresh));
        }
        if changed(|s| s.flight) {
            data.insert("bytes_in_flight".into(), json!(st.flight));
        }
        if changed(|s| s.srtt) && st.srtt > 0 {
            data.insert("smoothed_rtt".into(), ms(st.srtt));
        }
        if changed(|s| s.rttvar) && st.srtt > 0 {
            data.insert("rtt_variance".into(), ms(st.rttvar));
        }
        if !data.is_empty() {
            self.event(out, t, "recovery:metrics_updated", Value::Object(data));
        }
        if prev.is_none_or(|p| p.phase != st.phase) {
            let name = |c: u8| Phase::ALL.get(c as usize).map_or("?", |p| p.name());
            let mut d = serde_json::Map::new();
            if let Some(p) = prev {
                d.insert("old".into(), json!(name(p.phase)));
            }
            d.insert("new".into(), json!(name(st.phase)));
            self.event(out, t, "recovery:congestion_state_updated", Value::Object(d));
        }
        self.last = Some(st);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_milliseconds_with_nanosecond_digits() {
        assert_eq!(ms(0), json!(0));
        assert_eq!(ms(3_000_000), json!(3));
        assert_eq!(ms(1_234_567), json!(1.234567));
        assert_eq!(ms(1_230_000), json!(1.23));
        assert_eq!(ms(1), json!(0.000001));
    }
}
