//! The thin-stream family (source 004, Simula 2015): small writes at fixed intervals over a
//! lossy 150 ms path, Linux 3.15-, 3.18- and FreeBSD-like senders.

use super::{lesson, Preset};
use serde_json::{json, Value};

/// Source 004 §4's testbed as we rebuild it: a 150 ms round trip (75 ms each way on a
/// 10 Mbit/s bottleneck with a 100-packet buffer, 100 Mbit/s access links without delay),
/// 1 % random loss on the data direction, a thin stream of `size`-byte writes every
/// `interval` s, 120 s. The paper gives the RTT and the writes; the rest is ours: it reports
/// windows reduced by loss, which a thin stream cannot cause by filling a queue, so the loss
/// is random (as a netem testbed adds it).
fn thin(size: u64, interval: f64) -> Value {
    let access = json!({"bandwidth": 100_000_000u64, "delay": 0.0, "queue_packets": 1000});
    json!({
        "duration": 120.0,
        "seed": 1,
        "network": {"bottleneck": {"bandwidth": 10_000_000u64, "delay": 0.075, "queue_packets": 100,
                                   "loss": {"model": "bernoulli", "probability": 0.01},
                                   "reverse_loss": {"model": "none"}}},
        "flows": [{
            "algorithm": "linux_3_15",
            "access": access,
            "receiver_access": access,
            "app": {"kind": "thin", "write_size": size, "write_interval": interval}
        }]
    })
}

/// The thin-stream family (source 004).
pub(super) fn presets() -> Vec<Preset> {
    let three = ["linux_3_15", "linux_3_18", "freebsd_10"];
    let source = "Source 004 (Simula 2015) §4–5, figures 2–7; Linux commits ca8a22634381 (3.16) and the 3.15 tcp_is_cwnd_limited; FreeBSD's byte-based cwnd with ABC.";
    let mk = |name: &str, size: u64, ms: f64, desc: &str, look: &str, happens: &str, question: &str| Preset {
        steps: &[],
        family: "",
        focus: None,
        name: name.into(),
        title: format!("Thin stream: {size}-byte writes every {ms} ms"),
        description: desc.into(),
        overrides: thin(size, ms / 1000.0),
        lesson: lesson(look, happens, source, question, &three),
    };
    vec![
        mk("thin-50b-10ms", 50, 10.0,
            "Thin stream, figure 2: 50-byte writes every 10 ms over a 150 ms RTT with 1 % loss; Linux 3.15-like vs Linux 3.18-like vs FreeBSD-like",
            "The thin-stream plots (payload, inter-transmission time, sojourn and latency CDFs) and the summary's packets sent.",
            "The stream needs 15 packets in flight (150 ms / 10 ms). FreeBSD counts cwnd in bytes, so 50-byte segments hardly use it: every write leaves at once. Linux counts packets: once a loss has cut cwnd, writes wait and leave together, and the 3.16 growth test keeps cwnd from growing back, because a thin stream's send passes end for lack of data, not of cwnd.",
            "Why does counting cwnd in packets hurt a stream of small writes, when it is the fair choice for a bulk transfer?"),
        mk("thin-50b-20ms", 50, 20.0,
            "Thin stream, figure 3: 50-byte writes every 20 ms (150 ms RTT, 1 % loss); the three senders",
            "The sojourn-time CDF: how many writes wait in the send buffer, and for how long.",
            "Now the stream needs 7–8 packets in flight. Linux 3.15 grows its window back after a loss and the difference to FreeBSD shrinks; Linux 3.18 still does not.",
            "At what write frequency would the three senders behave the same?"),
        mk("thin-50b-50ms", 50, 50.0,
            "Thin stream, figure 4: 50-byte writes every 50 ms (150 ms RTT, 1 % loss); the three senders",
            "Packets sent and the latency CDF of the three senders.",
            "Three packets in flight are enough (150 ms / 50 ms), which every window here allows, so the three senders send almost the same packets.",
            "Which change to the application (write size or frequency) brings the Linux 3.18 problem back?"),
        mk("thin-20b-10ms", 20, 10.0,
            "Thin stream, figure 5: 20-byte writes every 10 ms (150 ms RTT, 1 % loss); segment- vs byte-based cwnd",
            "Packets sent and payload size in the summary; the sojourn CDF.",
            "FreeBSD sends each 20-byte write as its own packet; Linux 3.15 holds some back and sends bigger packets; Linux 3.18 holds back most of them, so its writes wait tens of milliseconds in the send buffer before they leave.",
            "Is sending every write at once free? Count the header bytes each sender puts on the wire."),
        mk("thin-20b-1ms", 20, 1.0,
            "Thin stream, figure 7: 20-byte writes every 1 ms (150 ms RTT, 1 % loss); more packets is not always lower latency",
            "Packets sent and the latency CDF: FreeBSD against the Linux senders.",
            "FreeBSD sends a packet per write, 1 000 packets a second, each losing 1 %; the Linux senders pack the writes into fewer, larger packets. Sending everything at once does not buy the lowest latency once losses and retransmissions of so many packets are counted.",
            "What would counting the headers of the packets in flight against cwnd (the paper's §5.1 fix, cc.header_in_window) change here?"),
    ]
}
