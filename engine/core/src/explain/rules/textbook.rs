//! The textbook's round model (`textbook.rs`), apart from the per-packet engine: one rule per
//! step a round can take, in the conventions courses use. Windows are counted in segments,
//! recorded in thousandths (`Milli`: 14.5 segments is 14 500) so that a convention that
//! halves exactly (W/2) keeps its half segment; an ssthresh not set yet is `u64::MAX` (∞).

use super::*;

/// Segments as a student writes them: "32", "14.5", "∞".
fn sg(v: u64) -> String {
    format_value(v, Unit::Milli)
}

/// The name of a convention by its code (`textbook::Convention`).
fn convention(code: u64) -> &'static str {
    match code {
        1 => "Kurose & Ross",
        2 => "RFC 5681 read per round",
        _ => "?",
    }
}

rule! {
    TextbookStart = "textbook.start", Increase, "Textbook model: the first round",
        "Kurose & Ross, Computer Networking §3.7; RFC 5681 §3.1 (IW, initial ssthresh), read per round",
        "round 1: cwnd = the initial window; ssthresh = its given initial value",
        [convention: Count, round: Count] => [cwnd: Milli, ssthresh: Milli]
}

impl TextbookStart::In {
    pub(crate) fn words(i: &Self, o: &TextbookStart::Out, _w: &W) -> String {
        format!(
            "Textbook model ({}), round {}: the sender starts with cwnd = {} segment(s) and ssthresh = {}, in slow start",
            convention(i.convention),
            i.round,
            sg(o.cwnd),
            sg(o.ssthresh)
        )
    }
}

rule! {
    TextbookSlowStart = "textbook.slow_start", Increase, "Textbook model: slow start doubles cwnd each round",
        "Kurose & Ross §3.7 (slow start); RFC 5681 §3.1 read per round (one SMSS per ACK, a window of ACKs per round)",
        "cwnd < ssthresh: cwnd = 2·cwnd, or min(2·cwnd, ssthresh) when slow start stops at ssthresh",
        [round: Count, cwnd_before = "cwnd before": Milli, ssthresh: Milli, capped = "stops at ssthresh": Flag] => [cwnd: Milli]
}

impl TextbookSlowStart::In {
    pub(crate) fn words(i: &Self, o: &TextbookSlowStart::Out, _w: &W) -> String {
        let doubled = i.cwnd_before.saturating_mul(2);
        let how = if o.cwnd < doubled {
            format!(
                "min(2 × {}, ssthresh {}) = {}: slow start stops at ssthresh",
                sg(i.cwnd_before),
                sg(i.ssthresh),
                sg(o.cwnd)
            )
        } else {
            format!("2 × {} = {}", sg(i.cwnd_before), sg(o.cwnd))
        };
        format!(
            "Round {}, slow start (cwnd {} < ssthresh {}): every segment of the last round was acknowledged and each ACK added one segment, so cwnd = {}",
            i.round,
            sg(i.cwnd_before),
            sg(i.ssthresh),
            how
        )
    }
}

rule! {
    TextbookCongestionAvoidance = "textbook.congestion_avoidance", Increase, "Textbook model: congestion avoidance adds one segment each round",
        "Kurose & Ross §3.7 (congestion avoidance); RFC 5681 §3.1 read per round (one SMSS per RTT)",
        "cwnd ≥ ssthresh: cwnd = cwnd + 1",
        [round: Count, cwnd_before = "cwnd before": Milli, ssthresh: Milli] => [cwnd: Milli]
}

impl TextbookCongestionAvoidance::In {
    pub(crate) fn words(i: &Self, o: &TextbookCongestionAvoidance::Out, _w: &W) -> String {
        format!(
            "Round {}, congestion avoidance (cwnd {} ≥ ssthresh {}): one segment more per round, cwnd = {} + 1 = {}",
            i.round,
            sg(i.cwnd_before),
            sg(i.ssthresh),
            sg(i.cwnd_before),
            sg(o.cwnd)
        )
    }
}

rule! {
    TextbookTripleDupKr = "textbook.triple_dup_kr", Loss, "Textbook model (Kurose & Ross): a triple duplicate ACK",
        "Kurose & Ross §3.7 (fast recovery; their Reno figure draws cwnd = ssthresh + 3 and grows it by one per round from there)",
        "ssthresh = cwnd/2; cwnd = ssthresh + 3 (three segments left the network); no deflation: +1 per round from there",
        [round: Count, cwnd_before = "cwnd at the loss": Milli, exact = "exact halving": Flag] => [ssthresh: Milli, cwnd: Milli]
}

impl TextbookTripleDupKr::In {
    pub(crate) fn words(i: &Self, o: &TextbookTripleDupKr::Out, _w: &W) -> String {
        format!(
            "Round {} (Kurose & Ross): a triple duplicate ACK ended the last round at cwnd {}, so ssthresh = {}/2 = {}{} and cwnd = ssthresh + 3 = {}; the figure keeps those 3 and grows by one segment per round from here",
            i.round,
            sg(i.cwnd_before),
            sg(i.cwnd_before),
            sg(o.ssthresh),
            if i.exact == 0 { " (rounded down)" } else { "" },
            sg(o.cwnd)
        )
    }
}

rule! {
    TextbookTripleDupRfc = "textbook.triple_dup_rfc", Loss, "Textbook model (RFC 5681): a triple duplicate ACK",
        "RFC 5681 §3.2 steps 2 and 6, read per round: fast recovery's inflation lasts less than a round and is deflated when the loss is repaired",
        "ssthresh = max(cwnd/2, 2); cwnd = ssthresh in the next round; +1 per round from there",
        [round: Count, cwnd_before = "cwnd at the loss": Milli, exact = "exact halving": Flag] => [ssthresh: Milli, cwnd: Milli]
}

impl TextbookTripleDupRfc::In {
    pub(crate) fn words(i: &Self, o: &TextbookTripleDupRfc::Out, _w: &W) -> String {
        format!(
            "Round {} (RFC 5681 read per round): a triple duplicate ACK ended the last round at cwnd {}, so ssthresh = max({}/2, 2) = {}{}; fast recovery's inflation ends when the loss is repaired, within the round, so this round starts at cwnd = ssthresh = {}",
            i.round,
            sg(i.cwnd_before),
            sg(i.cwnd_before),
            sg(o.ssthresh),
            if i.exact == 0 { " (rounded down)" } else { "" },
            sg(o.cwnd)
        )
    }
}

rule! {
    TextbookTripleDupTahoe = "textbook.triple_dup_tahoe", Loss, "Textbook model (Tahoe): a triple duplicate ACK",
        "Kurose & Ross §3.7 (TCP Tahoe); Jacobson 1988 with fast retransmit (4.3BSD Tahoe)",
        "ssthresh = cwnd/2; cwnd = 1; slow start",
        [convention: Count, round: Count, cwnd_before = "cwnd at the loss": Milli, exact = "exact halving": Flag] => [ssthresh: Milli, cwnd: Milli]
}

impl TextbookTripleDupTahoe::In {
    pub(crate) fn words(i: &Self, o: &TextbookTripleDupTahoe::Out, _w: &W) -> String {
        format!(
            "Round {} (Tahoe, {}): a triple duplicate ACK ended the last round at cwnd {}; Tahoe has no fast recovery, so ssthresh = {}/2 = {}{} and cwnd = {}: slow start again",
            i.round,
            convention(i.convention),
            sg(i.cwnd_before),
            sg(i.cwnd_before),
            sg(o.ssthresh),
            if i.exact == 0 { " (rounded down)" } else { "" },
            sg(o.cwnd)
        )
    }
}

rule! {
    TextbookTimeout = "textbook.timeout", Loss, "Textbook model: a timeout",
        "Kurose & Ross §3.7; RFC 5681 §3.1 (equation 4, loss window of one segment)",
        "ssthresh = cwnd/2 (at least 2 by RFC 5681); cwnd = 1; slow start",
        [convention: Count, round: Count, cwnd_before = "cwnd at the loss": Milli, exact = "exact halving": Flag] => [ssthresh: Milli, cwnd: Milli]
}

impl TextbookTimeout::In {
    pub(crate) fn words(i: &Self, o: &TextbookTimeout::Out, _w: &W) -> String {
        format!(
            "Round {} ({}): a timeout ended the last round at cwnd {}, so ssthresh = {}/2 = {}{} and cwnd = {} segment: slow start again",
            i.round,
            convention(i.convention),
            sg(i.cwnd_before),
            sg(i.cwnd_before),
            sg(o.ssthresh),
            if i.exact == 0 { " (rounded down)" } else { "" },
            sg(o.cwnd)
        )
    }
}
