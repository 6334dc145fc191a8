//! The increase rules' settings (`cc.slow_start`, `cc.abc_limit`,
//! `cc.congestion_avoidance`). Part of the settings layer: it names no rule, and the
//! scenario reads it.

use crate::schema::{p, Choice, Kind, ParamDef};

/// Slow-start increase rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlowStartRule {
    /// +1 SMSS per new ACK.
    AckCounting,
    /// + min(acked, L·SMSS) per new ACK (RFC 3465).
    Abc,
    /// Linux 3.x `tcp_slow_start`: + the packets the ACK acknowledges, capped at
    /// ssthresh + 1 packet; slow start while cwnd ≤ ssthresh.
    Linux,
    /// No slow start (before Jacobson 1988): cwnd opens at once to min(ssthresh, rwnd).
    None,
    /// HyStart++ (RFC 9406): + min(acked, 8·SMSS) per new ACK, a quarter of it in
    /// conservative slow start; the first slow start ends when the round's minimum RTT has
    /// risen for CSS_ROUNDS rounds.
    HystartPp,
}
crate::scenario::json::names!(SlowStartRule { AckCounting = "ack_counting", Abc = "abc", Linux = "linux", None = "none", HystartPp = "hystart_pp" });

/// Congestion-avoidance increase rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CongAvoidRule {
    /// + max(1, SMSS²/cwnd) per new ACK.
    PerAck,
    /// + SMSS per cwnd of acknowledged bytes (RFC 3465 §2.1).
    ByteCounting,
    /// Linux 3.x `tcp_cong_avoid_ai(tp, cwnd)`: a counter of ACKs; once it has reached
    /// cwnd (in packets), the next ACK adds one packet and clears it.
    LinuxCounter,
    /// CUBIC (RFC 9438 §4.2–4.5): toward W_cubic(t + RTT), at least Reno's W_est.
    Cubic,
}
crate::scenario::json::names!(CongAvoidRule { PerAck = "per_ack", ByteCounting = "byte_counting", LinuxCounter = "linux_counter", Cubic = "cubic" });

/// The schema's rows for the increase rules' settings (`schema::params` places them).
pub(crate) fn params() -> Vec<ParamDef> {
    vec![
        p!("flows[].cc.slow_start", "Slow-start increase", "cc", "", Kind::Enum { options: &[
            Choice { value: "ack_counting", label: "1 MSS per ACK", help: help!("Each new ACK adds one SMSS, however much it acknowledges (RFC 2581).") },
            Choice { value: "abc", label: "Byte counting (ABC)", help: help!("Each new ACK adds the bytes it acknowledges, at most L·SMSS (RFC 3465 §2.2); L = 1 after a timeout.") },
            Choice { value: "linux", label: "Linux 3.x (packets acked)", help: help!("tcp_slow_start of Linux 3.x: each new ACK adds the number of packets it acknowledges, whatever their size, up to ssthresh + 1 packet; slow start lasts while cwnd ≤ ssthresh.") },
            Choice { value: "hystart_pp", label: "HyStart++ (RFC 9406)", help: help!("RFC 9406: each new ACK adds min(acked, 8·SMSS); in the first slow start the smallest RTT of each round is watched, and once it has risen by max(4 ms, min(last round's/8, 16 ms)) growth drops to a quarter (conservative slow start) for 5 rounds and slow start then ends (ssthresh = cwnd), unless the RTT falls back. After a loss, standard slow start.") },
            Choice { value: "none", label: "None (before 1988)", help: help!("No slow start (Jacobson 1988 §1, 4.3BSD before it): cwnd opens at once to ssthresh, or to the receiver's window while ssthresh is unset, at the start and after every timeout, so the whole window leaves back to back.") },
        ], default: "ack_counting" }, false, None,
            "How slow start grows cwnd on a new ACK."),
        p!("flows[].cc.abc_limit", "ABC limit L", "cc", "segments", Kind::Int { min: 1, max: 2, default: 2 }, false, None,
            "RFC 3465 §2.3: the most one ACK may add in slow start under byte counting, in segments."),
        p!("flows[].cc.congestion_avoidance", "Congestion-avoidance increase", "cc", "", Kind::Enum { options: &[
            Choice { value: "per_ack", label: "SMSS²/cwnd per ACK", help: help!("Each new ACK adds SMSS·SMSS/cwnd bytes, at least 1 (RFC 5681 §3.1 eq. 3; ns-2's 1/cwnd).") },
            Choice { value: "byte_counting", label: "Byte counting", help: help!("Add one SMSS each time a full cwnd of bytes has been acknowledged (RFC 3465 §2.1).") },
            Choice { value: "linux_counter", label: "Linux 3.x ACK counter", help: help!("tcp_cong_avoid_ai of Linux 3.x (before the 2015 stretch-ACK change): count ACKs; when the count has reached cwnd in packets, the next ACK adds one packet and restarts the count.") },
            Choice { value: "cubic", label: "CUBIC", help: help!("RFC 9438 §4.2–4.5: each ACK moves cwnd toward W_cubic(t + RTT) = C·(t + RTT − K)³ + W_max (t: time since the congestion-avoidance epoch began; K: the time to regain W_max), by (target − cwnd)/cwnd per ACK, target at most 1.5·cwnd; never below W_est, the window Reno would have (the Reno-friendly region).") },
        ], default: "per_ack" }, false, None,
            "How congestion avoidance grows cwnd."),
    ]
}
