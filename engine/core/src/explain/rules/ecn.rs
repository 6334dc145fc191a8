//! ECN (RFC 3168) and DCTCP (RFC 8257): a queue's CE mark instead of a drop (RED and CoDel
//! with their drop arithmetic, the step queue with its threshold), the sender's reduction
//! on an ECN-Echo, and DCTCP's α and cut (α in 1/1024, as Linux's tcp_dctcp.c keeps it).

use super::*;

rule! {
    RedMark = "red.mark", Queue, "RED marks an arrival CE",
        "Floyd & Jacobson 1993 §4; RFC 3168 §5 (mark ECT packets instead of dropping)", "as red.drop; an ECT packet is marked CE and queued instead of dropped",
        [q: Count, m: Count, avg = "avg (milli)": Milli, min_th = "min_th (milli)": Milli, max_th = "max_th (milli)": Milli,
         count: Count, p_b = "p_b (ppm)": Count, p_a = "p_a (ppm)": Count, u = "u (ppm)": Count, forced: Flag, size: Bytes]
        => [count_after = "count": Count]
}

impl RedMark::In {
    pub(crate) fn words(i: &Self, o: &RedMark::Out, w: &W) -> String {
        let d = super::aqm::RedDrop::In {
            q: i.q,
            m: i.m,
            avg: i.avg,
            min_th: i.min_th,
            max_th: i.max_th,
            count: i.count,
            p_b: i.p_b,
            p_a: i.p_a,
            u: i.u,
            forced: i.forced,
            size: i.size,
        };
        let o = super::aqm::RedDrop::Out {
            count_after: o.count_after,
        };
        let text = super::aqm::RedDrop::In::words(&d, &o, w);
        format!(
            "{} (it is ECN-capable, so it is marked CE and queued instead: RFC 3168 §5)",
            text.replacen("RED drops this", "RED marks this", 1)
        )
    }
}

rule! {
    CodelMark = "codel.mark", Queue, "CoDel marks a departing packet CE",
        "RFC 8289 §5; Linux include/net/codel_impl.h (params->ecn: INET_ECN_set_ce instead of the drop)", "as codel.drop; an ECT packet is marked CE and sent instead of dropped, and the packet behind it is not examined",
        [sojourn: Ns, target: Ns, backlog: Bytes, first_above: Ns, entered: Flag, delta: Count, interval: Ns]
        => [count: Count, next = "next drop": Ns]
}

impl CodelMark::In {
    pub(crate) fn words(i: &Self, o: &CodelMark::Out, w: &W) -> String {
        let state = if i.entered == 1 {
            "CoDel enters the dropping state".to_string()
        } else {
            format!(
                "CoDel is dropping and the next signal's time has come: count = {}",
                group(o.count)
            )
        };
        format!(
            "CoDel marks this packet CE as it leaves, where it would drop a packet that is not ECN-capable: it waited {} (target {}) with {} behind it; {}; the next signal is due at {} (interval {}/√{})",
            w.t(i.sojourn),
            w.t(i.target),
            w.b(i.backlog),
            state,
            w.t(o.next),
            w.t(i.interval),
            group(o.count)
        )
    }
}

rule! {
    StepMark = "step.mark", Queue, "The step queue marks an arrival CE",
        "RFC 8257 §3.1; Alizadeh et al. 2010 §3.1 (mark when the instantaneous queue exceeds K)", "q > K on arrival and the packet is ECT → CE",
        [q: Count, k = "K": Count, size: Bytes] => []
}

impl StepMark::In {
    pub(crate) fn words(i: &Self, _o: &StepMark::Out, w: &W) -> String {
        format!(
            "The step queue marks this {} arrival CE: it finds {} packets in the queue, more than K = {}",
            w.b(i.size),
            group(i.q),
            group(i.k)
        )
    }
}

rule! {
    EcnReduce = "ecn.reduce", Loss, "An ECN-Echo reduces the window",
        "RFC 3168 §6.1.2", "first ECE with ack > high: ssthresh by the flow's rule (DCTCP: cwnd·(1 − α/2)), cwnd = ssthresh, no retransmission; high = snd_max; CWR on the next new segment",
        [ack: Seq, high = "previous high": Seq, flight: Bytes, cwnd: Bytes, ssthresh: Bytes]
        => [ssthresh: Bytes, cwnd: Bytes, high: Seq]
}

impl EcnReduce::In {
    pub(crate) fn words(i: &Self, o: &EcnReduce::Out, w: &W) -> String {
        let gate = if i.high == 0 {
            "the first congestion mark the flow has seen".to_string()
        } else {
            format!(
                "the ACK {} is past {}, the highest byte sent at the last reduction, so this mark belongs to a new window",
                group(i.ack),
                group(i.high)
            )
        };
        format!(
            "The ACK echoes a CE mark (ECE): {}. The window is reduced once, as for a loss but with nothing resent: ssthresh {} → {}, cwnd {} → {} (flight {}). No further ECE counts until the ACK passes {}; the next new segment carries CWR",
            gate,
            w.b(i.ssthresh),
            w.b(o.ssthresh),
            w.b(i.cwnd),
            w.b(o.cwnd),
            w.b(i.flight),
            group(o.high)
        )
    }
}

rule! {
    DctcpAlpha = "dctcp.alpha", Loss, "DCTCP updates α at the end of a window",
        "RFC 8257 §3.3; Linux net/ipv4/tcp_dctcp.c dctcp_update_alpha", "α ← α − (α >> g_shift) + (marked << (10 − g_shift)) / acked, capped at 1024 (α in 1/1024; α − α when α >> g_shift = 0)",
        [marked = "bytes marked": Bytes, acked = "bytes acked": Bytes, alpha = "α (1/1024)": Count, g_shift: Count]
        => [alpha = "α (1/1024)": Count]
}

impl DctcpAlpha::In {
    pub(crate) fn words(i: &Self, o: &DctcpAlpha::Out, w: &W) -> String {
        format!(
            "A window of data is acknowledged: {} of its {} came back with ECE, so F = {:.4}; α ← (1 − g)·α + g·F with g = 1/{}: {}/1024 → {}/1024",
            w.b(i.marked),
            w.b(i.acked),
            i.marked as f64 / i.acked.max(1) as f64,
            1u64 << i.g_shift.min(63),
            group(i.alpha),
            group(o.alpha)
        )
    }
}

rule! {
    DctcpCut = "ssthresh.dctcp", Loss, "DCTCP cuts the window by α/2",
        "RFC 8257 §3.3; Linux net/ipv4/tcp_dctcp.c dctcp_ssthresh", "ssthresh = max(cwnd − cwnd·α/2048, 2·SMSS) (α in 1/1024); cwnd = ssthresh",
        [cwnd: Bytes, alpha = "α (1/1024)": Count, smss = "SMSS": Bytes] => [ssthresh: Bytes]
}

impl DctcpCut::In {
    pub(crate) fn words(i: &Self, o: &DctcpCut::Out, w: &W) -> String {
        format!(
            "DCTCP's response to the window's first ECE: cwnd·(1 − α/2) with α = {}/1024: ssthresh = cwnd = {} (from {}, at least 2·SMSS)",
            group(i.alpha),
            w.b(o.ssthresh),
            w.b(i.cwnd)
        )
    }
}

rule! {
    PieMark = "pie.mark", Queue, "PIE marks an arrival CE",
        "RFC 8033 §5.1; Linux net/sched/sch_pie.c (pie_qdisc_enqueue: ECN marking while p ≤ 10 %)", "as pie.drop; an ECT arrival is marked CE and queued instead of dropped while p ≤ 10 % (above, it is dropped)",
        [qdelay: Ns, target: Ns, backlog: Bytes, p = "p (ppm)": Count, u = "u (ppm)": Count, size: Bytes] => []
}

impl PieMark::In {
    pub(crate) fn words(i: &Self, _: &PieMark::Out, w: &W) -> String {
        format!(
            "PIE marks this ECN-capable {} arrival CE where it would drop another: the latest queueing delay is {} (target {}) with {} waiting, p = {} ppm (at most 10 %, so a mark, not a drop), and the draw u = {} ppm < p",
            w.b(i.size),
            w.t(i.qdelay),
            w.t(i.target),
            w.b(i.backlog),
            group(i.p),
            group(i.u)
        )
    }
}

rule! {
    FqCodelMark = "fq_codel.mark", Queue, "FQ-CoDel's queue marks a departing packet CE",
        "RFC 8290 §4.2, §5; Linux net/sched/sch_fq_codel.c with include/net/codel_impl.h (params->ecn)", "as fq_codel.drop; an ECT packet is marked CE and sent instead of dropped",
        [queue: Count, sojourn: Ns, target: Ns, backlog: Bytes, first_above: Ns, entered: Flag, delta: Count, interval: Ns]
        => [count: Count, next = "next drop": Ns]
}

impl FqCodelMark::In {
    pub(crate) fn words(i: &Self, o: &FqCodelMark::Out, w: &W) -> String {
        format!(
            "FQ-CoDel's queue {} marks this packet CE as it leaves, where it would drop one that is not ECN-capable: it waited {} (target {}) with {} waiting in the discipline; count = {}, the next signal is due at {} (interval {}/√{})",
            group(i.queue),
            w.t(i.sojourn),
            w.t(i.target),
            w.b(i.backlog),
            group(o.count),
            w.t(o.next),
            w.t(i.interval),
            group(o.count)
        )
    }
}

rule! {
    EcnNoGrowth = "ecn.no_growth", Increase, "An ECN-Echo ACK does not grow the window",
        "RFC 3168 §6.1.2 (the sender does not increase cwnd in response to an ECN-Echo ACK); Linux tcp_may_raise_cwnd()", "an ACK with ECE: cwnd returns to its value before the ACK",
        [cwnd: Bytes, cwnd_before = "cwnd before the ACK": Bytes] => [cwnd: Bytes]
}

impl EcnNoGrowth::In {
    pub(crate) fn words(i: &Self, o: &EcnNoGrowth::Out, w: &W) -> String {
        format!(
            "The ACK echoes a CE mark (ECE), so it may not grow the window: cwnd {} goes back to {}, its value before the ACK",
            w.b(i.cwnd),
            w.b(o.cwnd)
        )
    }
}

rule! {
    EcnEchoStart = "ecn.echo_start", Ack, "A CE segment: the receiver starts echoing ECE",
        "RFC 3168 §6.1.3", "a data segment marked CE sets ECE on every ACK from now until a segment with CWR arrives",
        [segment: Seg, cwr: Flag] => []
}

impl EcnEchoStart::In {
    pub(crate) fn words(i: &Self, _: &EcnEchoStart::Out, _w: &W) -> String {
        format!(
            "Segment {} arrives marked CE{}: every ACK carries ECN-Echo from now until a segment with CWR arrives, so the sender learns of the mark even if ACKs are lost",
            group(i.segment),
            if i.cwr == 1 {
                " (it also carries CWR, which ends the old echo first: this mark starts a new one)"
            } else {
                ""
            }
        )
    }
}

rule! {
    EcnEchoStop = "ecn.echo_stop", Ack, "CWR: the receiver stops echoing ECE",
        "RFC 3168 §6.1.3", "a segment with CWR (the sender has reduced) clears ECE on the ACKs that follow",
        [segment: Seg] => []
}

impl EcnEchoStop::In {
    pub(crate) fn words(i: &Self, _: &EcnEchoStop::Out, _w: &W) -> String {
        format!(
            "Segment {} carries CWR: the sender has reduced its window for the mark, so the ACKs stop echoing ECE",
            group(i.segment)
        )
    }
}

rule! {
    DctcpEcho = "dctcp.echo", Ack, "DCTCP's receiver: the CE state changed",
        "RFC 8257 §3.2; Linux net/ipv4/tcp_dctcp.c dctcp_ece_ack_update", "echo each segment's CE exactly: on a change, a delayed ACK still pending leaves at once with the old state, and this segment is acknowledged at once with the new one",
        [segment: Seg, ce: Flag, pending = "delayed ACK pending": Flag] => []
}

impl DctcpEcho::In {
    pub(crate) fn words(i: &Self, _: &DctcpEcho::Out, _w: &W) -> String {
        format!(
            "Segment {} arrives {}, a change from the one before: {}this segment is acknowledged at once {} ECE, so the sender counts exactly the bytes that were marked",
            group(i.segment),
            if i.ce == 1 { "marked CE" } else { "not marked" },
            if i.pending == 1 {
                "the delayed ACK still pending leaves first with the old state, and "
            } else {
                ""
            },
            if i.ce == 1 { "with" } else { "without" }
        )
    }
}
