//! The bottleneck's queue disciplines: RED's drop at arrival (Floyd & Jacobson 1993 §4,
//! Figure 2; gentle: Floyd 2000) and CoDel's drop at dequeue (RFC 8289 §5; Linux's
//! codel_impl.h). Probabilities are recorded in millionths and the average queue in
//! thousandths of a packet (byte mode: of a byte), rounded down from the fixed point the
//! rules compute in (`net/qdisc`).

use super::*;

/// A millionth count as a decimal probability.
fn ppm(v: u64) -> String {
    format!("{}.{:06}", v / 1_000_000, v % 1_000_000)
}

rule! {
    RedDrop = "red.drop", Queue, "RED drops an arrival",
        "Floyd & Jacobson 1993 §4 (Figure 2), §7; Floyd 2000 (gentle)", "avg ← (1 − w_q)·avg + w_q·q; p_b = max_p·(avg − min_th)/(max_th − min_th); p_a = p_b/(1 − count·p_b); drop if u < p_a (or avg ≥ max_th)",
        [q: Count, m: Count, avg = "avg (milli)": Milli, min_th = "min_th (milli)": Milli, max_th = "max_th (milli)": Milli,
         count: Count, p_b = "p_b (ppm)": Count, p_a = "p_a (ppm)": Count, u = "u (ppm)": Count, forced: Flag, size: Bytes]
        => [count_after = "count": Count]
}

impl RedDrop::In {
    pub(crate) fn words(i: &Self, o: &RedDrop::Out, w: &W) -> String {
        let idle = if i.m > 0 {
            format!(
                " after an idle period worth {} packets (avg × (1 − w_q)^{})",
                group(i.m),
                i.m
            )
        } else {
            String::new()
        };
        let how = if i.forced == 1 {
            format!("the average is at or above the drop-all threshold {} (max_th, or 2·max_th when gentle), so every arrival is dropped", format_value(i.max_th, Unit::Milli))
        } else {
            format!(
                "between min_th {} and max_th {}: p_b = {}, and {} arrivals since the last drop give p_a = p_b/(1 − count·p_b) = {}; the draw u = {} < p_a",
                format_value(i.min_th, Unit::Milli),
                format_value(i.max_th, Unit::Milli),
                ppm(i.p_b),
                group(i.count),
                ppm(i.p_a),
                ppm(i.u)
            )
        };
        format!(
            "RED drops this {} arrival: it finds {} waiting{}, and the average queue becomes {}; {}. count = {}",
            w.b(i.size),
            group(i.q),
            idle,
            format_value(i.avg, Unit::Milli),
            how,
            o.count_after
        )
    }
}

rule! {
    CodelDrop = "codel.drop", Queue, "CoDel drops a departing packet",
        "RFC 8289 §5.3–5.5; Linux include/net/codel_impl.h", "sojourn ≥ target and backlog > MTU since first_above; enter: count = 1 (or the re-entry delta), next = now + interval/√count; dropping: at next, count += 1, next += interval/√count",
        [sojourn: Ns, target: Ns, backlog: Bytes, first_above: Ns, entered: Flag, delta: Count, interval: Ns]
        => [count: Count, next = "next drop": Ns]
}

impl CodelDrop::In {
    pub(crate) fn words(i: &Self, o: &CodelDrop::Out, w: &W) -> String {
        let state = if i.entered == 1 {
            let count = if i.delta > 1 {
                format!("count = {} (the last dropping state ended less than 16 intervals ago, and the drops it added beyond its first carry over)", group(i.delta))
            } else {
                "count = 1".into()
            };
            format!(
                "the sojourn has stayed at or above target since before {} (one interval after it first rose), so CoDel enters the dropping state: {}",
                w.t(i.first_above),
                count
            )
        } else {
            format!(
                "CoDel is dropping and the next drop's time has come: count = {}",
                group(o.count)
            )
        };
        let next = if o.next == u64::MAX {
            "; the packet behind it is not above target, so the dropping state ends".to_string()
        } else {
            format!(
                "; the next drop is due at {} (interval {}/√{})",
                w.t(o.next),
                w.t(i.interval),
                group(o.count)
            )
        };
        format!(
            "CoDel drops this packet as it leaves: it waited {} (target {}) with {} behind it; {}{}",
            w.t(i.sojourn),
            w.t(i.target),
            w.b(i.backlog),
            state,
            next
        )
    }
}

rule! {
    FqCodelDrop = "fq_codel.drop", Queue, "FQ-CoDel's queue drops a departing packet",
        "RFC 8290 §4.2, §5; Linux net/sched/sch_fq_codel.c (fq_codel_dequeue), include/net/codel_impl.h", "the queue's turn (new queues first, deficit > 0); its CoDel: sojourn ≥ target and the discipline's backlog > MTU since first_above; count, next = interval/√count as CoDel",
        [queue: Count, sojourn: Ns, target: Ns, backlog: Bytes, first_above: Ns, entered: Flag, delta: Count, interval: Ns]
        => [count: Count, next = "next drop": Ns]
}

impl FqCodelDrop::In {
    pub(crate) fn words(i: &Self, o: &FqCodelDrop::Out, w: &W) -> String {
        let state = if i.entered == 1 {
            let count = if i.delta > 1 {
                format!("count = {} (carried over from its last dropping state)", group(i.delta))
            } else {
                format!("count = {}", group(o.count))
            };
            format!(
                "its sojourn has stayed at or above target since before {}, so the queue's CoDel enters the dropping state: {}",
                w.t(i.first_above),
                count
            )
        } else {
            format!(
                "the queue's CoDel is dropping and the next drop's time has come: count = {}",
                group(o.count)
            )
        };
        let next = if o.next == u64::MAX {
            "; the packet behind it is not above target, so the dropping state ends".to_string()
        } else {
            format!(
                "; the queue's next drop is due at {} (interval {}/√{})",
                w.t(o.next),
                w.t(i.interval),
                group(o.count)
            )
        };
        format!(
            "FQ-CoDel's queue {} has its turn, and its CoDel drops this packet as it leaves: it waited {} (target {}) with {} waiting in all queues; {}{}",
            group(i.queue),
            w.t(i.sojourn),
            w.t(i.target),
            w.b(i.backlog),
            state,
            next
        )
    }
}

rule! {
    FqCodelOverflow = "fq_codel.overflow", Queue, "FQ-CoDel cuts its fattest queue",
        "RFC 8290 §4.1; Linux net/sched/sch_fq_codel.c (fq_codel_drop)", "over limit or the buffer: the queue with the largest backlog drops from its head until half its backlog is gone or drop_batch_size packets are",
        [queue: Count, backlog: Bytes, waiting: Packets, limit: Packets, capacity: Packets, batch: Count, size: Bytes]
        => [nth = "drop in batch": Count]
}

impl FqCodelOverflow::In {
    pub(crate) fn words(i: &Self, o: &FqCodelOverflow::Out, w: &W) -> String {
        format!(
            "An arrival left {} waiting in FQ-CoDel's queues, over its limit {} or the buffer's {} packets: queue {} holds the largest backlog, {}, and loses packets from its head until half of it ({}) is gone or {} are dropped; this {} packet is drop {} of the cut",
            group(i.waiting),
            group(i.limit),
            group(i.capacity),
            group(i.queue),
            w.b(i.backlog),
            w.b(i.backlog / 2),
            group(i.batch),
            w.b(i.size),
            group(o.nth)
        )
    }
}

rule! {
    PieDrop = "pie.drop", Queue, "PIE drops an arrival",
        "RFC 8033 §4.1–4.4, §5.1; Linux net/sched/sch_pie.c (pie_drop_early, pie_calculate_probability)", "every tupdate: p += α·(qdelay − target) + β·(qdelay − qdelay_old) (α, β scaled down while p is small); drop if u < p, unless burst allowance is left, qdelay < target/2 with p < 20 %, or fewer than 2 MTU wait",
        [qdelay: Ns, target: Ns, backlog: Bytes, p = "p (ppm)": Count, u = "u (ppm)": Count, size: Bytes] => []
}

impl PieDrop::In {
    pub(crate) fn words(i: &Self, _: &PieDrop::Out, w: &W) -> String {
        format!(
            "PIE drops this {} arrival: the burst allowance is spent, the latest queueing delay is {} (target {}) with {} waiting, and the drop probability from its last update is p = {}; the draw u = {} < p",
            w.b(i.size),
            w.t(i.qdelay),
            w.t(i.target),
            w.b(i.backlog),
            ppm(i.p),
            ppm(i.u)
        )
    }
}
