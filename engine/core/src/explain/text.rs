//! The wording of every rule, once: the sentence a decision's record reads as, with the
//! arithmetic on its own numbers (`Decision::text`, `Decision::text_in`).

use super::format::{format_bps, group, ordinal, target_name};
use super::*;

impl Decision {
    /// The explanation in words, with the arithmetic on the recorded numbers (byte counts
    /// in bytes).
    pub fn text(&self) -> String {
        self.text_in(ByteUnit::Bytes)
    }

    /// The explanation in words with the byte counts it names written in `unit`: the page
    /// shows it in segments, the plots' unit. Only the counts the sentence names change;
    /// its arithmetic on raw byte values (FlightSize/2 and the like) stays in bytes.
    pub fn text_in(&self, unit: ByteUnit) -> String {
        let i = |n: &str| self.input(n);
        let o = |n: &str| self.output(n);
        let b = |v: u64| match unit {
            ByteUnit::Bytes => format_value(v, Unit::Bytes),
            ByteUnit::Segments(smss) => format_segments(v, smss),
        };
        let t = format_ns;
        let src = self.info().source;
        let body = match self.rule {
            Rule::SsAckCounting => format!(
                "Slow start (cwnd {} < ssthresh {}): a new ACK for {} adds one SMSS, cwnd = {} + {} = {}",
                b(i("cwnd")), b(i("ssthresh")), b(i("acked")), b(i("cwnd")), b(i("SMSS")), b(o("cwnd"))
            ),
            Rule::SsAbc => format!(
                "Slow start with byte counting: cwnd += min(acked, L·SMSS) = min({}, {}·{}) → cwnd = {}",
                b(i("acked")), i("L"), b(i("SMSS")), b(o("cwnd"))
            ),
            Rule::SsLinux => format!(
                "Slow start (Linux, cwnd {} ≤ ssthresh {}): {} packet(s) acknowledged, cwnd grows by min({}, ssthresh + 1 − cwnd) packets to {}",
                b(i("cwnd")), b(i("ssthresh")), i("packets acked"), i("packets acked"), b(o("cwnd"))
            ),
            Rule::SsNone => format!(
                "No slow start: the window opens at once to min(ssthresh {}, rwnd {}) in whole segments = {}",
                b(i("ssthresh")), b(i("rwnd")), b(o("cwnd"))
            ),
            Rule::CaPerAck => {
                let (c, s) = (i("cwnd"), i("SMSS"));
                format!(
                    "Congestion avoidance (cwnd {} ≥ ssthresh {}): cwnd += max(1, SMSS·SMSS/cwnd) = {}·{}/{} = {} B → cwnd = {}",
                    b(c), b(i("ssthresh")), group(s), group(s), group(c), group((s * s / c.max(1)).max(1)), b(o("cwnd"))
                )
            }
            Rule::CaByteCounting => format!(
                "Congestion avoidance with byte counting: bytes_acked {} + {} acknowledged = {} against cwnd {}: {}",
                b(i("bytes_acked")), b(i("acked")), b(i("bytes_acked").saturating_add(i("acked"))), b(i("cwnd")),
                if o("cwnd") > i("cwnd") {
                    format!("a whole window acknowledged, cwnd = {} + SMSS = {}", b(i("cwnd")), b(o("cwnd")))
                } else {
                    "less than a window, cwnd unchanged".to_string()
                }
            ),
            Rule::CaLinux => {
                let pk = i("cwnd") / i("SMSS").max(1);
                if o("cwnd") > i("cwnd") {
                    format!(
                        "Congestion avoidance (Linux): the ACK counter {} has reached cwnd {} packets: cwnd += 1 packet = {}, counter reset",
                        i("snd_cwnd_cnt"), pk, b(o("cwnd"))
                    )
                } else {
                    format!(
                        "Congestion avoidance (Linux): ACK counter {} < cwnd {} packets: counter = {}, cwnd unchanged",
                        i("snd_cwnd_cnt"), pk, o("snd_cwnd_cnt")
                    )
                }
            }
            Rule::CaBinomial => format!(
                "Binomial increase (k = {}, α = {}): cwnd {} grows by α/w^k per RTT, {} on this ACK → {}",
                format_value(i("k"), Unit::Milli), format_value(i("alpha"), Unit::Milli), b(i("cwnd")),
                b(o("cwnd").saturating_sub(i("cwnd"))), b(o("cwnd"))
            ),
            Rule::CubicEpoch => {
                if o("K") == 0 {
                    format!(
                        "A CUBIC congestion-avoidance epoch begins at cwnd = {}{}: W_max = cwnd_epoch = {}, K = 0 (the cubic starts at its inflection point and only grows faster); W_est = {}",
                        b(i("cwnd")),
                        if i("W_max before") == 0 { " with no loss yet" } else if i("W_max before") <= i("cwnd") { ", at or above the last W_max" } else { " after a timeout" },
                        b(o("W_max")), b(o("W_est"))
                    )
                } else {
                    format!(
                        "A CUBIC congestion-avoidance epoch begins at cwnd = {}: K = ∛((W_max − cwnd_epoch)/C) = ∛(({} − {})/({} SMSS per s³)) = {} to regain W_max; W_est = {}",
                        b(i("cwnd")), b(o("W_max")), b(i("cwnd")),
                        format_value(i("C"), Unit::Milli),
                        format_value(o("K"), Unit::Ns), b(o("W_est"))
                    )
                }
            }
            Rule::CaCubic => {
                let region = match o("region") {
                    2 if o("cwnd") == i("W_est").max(i("cwnd")) => format!("Reno-friendly region (W_cubic(t) = {} < W_est = {}): cwnd = W_est", b(i("W_cubic(t)")), b(i("W_est"))),
                    2 => format!("Reno-friendly region (W_cubic(t) = {} < W_est = {}): cwnd steps toward W_est, the larger of the two steps (Linux)", b(i("W_cubic(t)")), b(i("W_est"))),
                    1 => "convex region (cwnd ≥ W_max): probing beyond the last maximum".to_string(),
                    _ => "concave region (cwnd < W_max): closing in on the last maximum".to_string(),
                };
                format!(
                    "CUBIC, t = {} into the epoch (K = {}, W_max = {}): W_cubic(t + RTT {}) = {}, target = clamp(…, cwnd, 1.5·cwnd); {}; cwnd {} → {}",
                    format_value(i("t"), Unit::Ns), format_value(i("K"), Unit::Ns), b(i("W_max")),
                    format_value(i("RTT"), Unit::Ns), b(i("W_cubic(t+RTT)")), region, b(i("cwnd")), b(o("cwnd"))
                )
            }
            Rule::BbrMaxBw => {
                let al = if i("app-limited") == 1 { " (application-limited, taken because it is higher)" } else { "" };
                if o("BtlBw") >= i("BtlBw before") {
                    format!(
                        "BBR delivery-rate sample: {} delivered in {} = {}{} in round {}: the highest of the last 10 rounds, BtlBw {} → {}",
                        b(i("delivered")), t(i("interval")), format_bps(i("rate")), al, i("round"), format_bps(i("BtlBw before")), format_bps(o("BtlBw"))
                    )
                } else {
                    format!(
                        "BBR: round {}: the old maximum is more than 10 rounds old, so BtlBw falls to the best newer sample, {} → {} (this sample: {} in {} = {})",
                        i("round"), format_bps(i("BtlBw before")), format_bps(o("BtlBw")), b(i("delivered")), t(i("interval")), format_bps(i("rate"))
                    )
                }
            }
            Rule::BbrMinRtt => if i("expired") == 1 && i("RTprop before") != u64::MAX && i("rtt") > i("RTprop before") {
                format!(
                    "BBR: RTprop {} is {} old (over 10 s): it takes the new sample, {}, even though it is higher",
                    t(i("RTprop before")), t(i("age")), t(o("RTprop"))
                )
            } else if i("RTprop before") == u64::MAX {
                format!("BBR's first RTT sample: RTprop = {}", t(o("RTprop")))
            } else {
                format!("BBR: an RTT sample of {} is below the current RTprop: RTprop {} → {}", t(i("rtt")), t(i("RTprop before")), t(o("RTprop")))
            },
            Rule::BbrFullBwCheck => if o("count") == 0 {
                format!(
                    "BBR Startup, round {}: BtlBw {} ≥ 1.25 × {} = {}: still growing, count reset",
                    i("round"), format_bps(i("BtlBw")), format_bps(i("full_bw")), format_bps(i("1.25·full_bw"))
                )
            } else {
                format!(
                    "BBR Startup, round {}: BtlBw {} < 1.25 × {} = {}: {} of 3 rounds without 25 % growth{}",
                    i("round"), format_bps(i("BtlBw")), format_bps(i("full_bw")), format_bps(i("1.25·full_bw")), o("count"),
                    if o("filled pipe") == 1 { ": the pipe is full" } else { "" }
                )
            },
            Rule::BbrFullPipe => format!(
                "BBR: the bandwidth stopped growing for {} rounds at BtlBw = {} (RTprop {}, BDP {}): Startup → Drain, pacing at 1/2.885 of BtlBw to empty the queue Startup built; ssthresh = {}",
                i("rounds"), format_bps(i("BtlBw")), t(i("RTprop")),
                b((i("BtlBw") as u128 * i("RTprop") as u128).div_ceil(8_000_000_000u128) as u64), b(o("ssthresh"))
            ),
            Rule::BbrDrainDone => format!(
                "BBR: {} in flight ≤ BBRInflight(1) = {}: the queue is drained, Drain → ProbeBW, starting at phase {} of the gain cycle (pacing gain {})",
                b(i("in flight")), b(i("BBRInflight(1)")), o("phase"), format_value(o("pacing gain"), Unit::Milli)
            ),
            Rule::BbrCycle => {
                let why = if i("gain before") > 1000 {
                    format!("after {} (> RTprop {}) {}", t(i("elapsed")), t(i("RTprop")),
                        if i("losses") > 0 { "and a loss".to_string() } else { format!("and {} in flight ≥ {}", b(i("in flight")), b(i("target"))) })
                } else if i("gain before") < 1000 && i("elapsed") <= i("RTprop") {
                    format!("early: {} in flight ≤ BBRInflight(1) = {}, the queue is drained", b(i("in flight")), b(i("target")))
                } else {
                    format!("after {} (> RTprop {})", t(i("elapsed")), t(i("RTprop")))
                };
                format!(
                    "BBR ProbeBW: phase {} (gain {}) ends {}: phase {}, pacing gain {}",
                    i("phase before"), format_value(i("gain before"), Unit::Milli), why, o("phase"), format_value(o("pacing gain"), Unit::Milli)
                )
            }
            Rule::BbrProbeRttEnter => format!(
                "BBR: RTprop {} was measured {} ago, more than 10 s: ProbeRTT — cwnd drops to 4 segments for at least 200 ms and a round trip so the queue empties and the path's own RTT shows; cwnd {} saved",
                t(i("RTprop")), t(i("age")), b(o("saved cwnd"))
            ),
            Rule::BbrProbeRttExit => format!(
                "BBR: 200 ms (until {}) and a round trip at 4 segments are over: RTprop is fresh again; cwnd = max({}, saved {}) = {}; {}",
                t(i("done at")), b(i("cwnd before")), b(i("saved cwnd")), b(o("cwnd")),
                if i("filled pipe") == 1 { format!("back to ProbeBW at phase {}", o("phase")) } else { "back to Startup (the pipe was never full)".to_string() }
            ),
            Rule::BbrPacing => format!(
                "BBR pacing rate = pacing gain × BtlBw = {} × {} = {} (was {})",
                format_value(i("pacing gain"), Unit::Milli), format_bps(i("BtlBw")), format_bps(o("pacing rate")), format_bps(i("rate before"))
            ),
            Rule::BbrCwnd => {
                let how = if i("ProbeRTT cap") == 1 {
                    "ProbeRTT caps it at 4 segments".to_string()
                } else if i("filled pipe") == 1 {
                    format!("cwnd = min(cwnd + acked, target) = min({} + {}, {})", b(i("cwnd before")), b(i("acked")), b(i("target")))
                } else {
                    format!("Startup: cwnd + acked = {} + {} while below the target {}", b(i("cwnd before")), b(i("acked")), b(i("target")))
                };
                format!(
                    "BBR cwnd: target = {} × BtlBw {} × RTprop {} + 3 send quanta = {}; {}; cwnd {} → {}",
                    format_value(i("cwnd gain"), Unit::Milli), format_bps(i("BtlBw")), t(i("RTprop")), b(i("target")), how, b(i("cwnd before")), b(o("cwnd"))
                )
            }
            Rule::BbrConservation => format!(
                "BBR, first round of recovery: packet conservation, cwnd = max(cwnd{}, in flight + delivered) = max({}, {} + {}) = {}: a segment leaves only as one is delivered",
                if i("losses") > 0 { " − losses" } else { "" }, b(i("cwnd before")), b(i("in flight")), b(i("delivered")), b(o("cwnd"))
            ),
            Rule::BbrRestore => format!(
                "BBR: recovery is over, cwnd = max({}, the {} saved when it began) = {}",
                b(i("cwnd before")), b(i("saved cwnd")), b(o("cwnd"))
            ),
            Rule::FastRetransmitBbr => format!(
                "Fast retransmit under BBR: duplicate ACK {} resends segment {} ({} in flight); BBR does not cut ssthresh or halve cwnd ({}): it conserves packets for a round and keeps pacing at its model's rate; recovery lasts until {} is acknowledged",
                i("dupacks"), group(i("segment")), b(i("FlightSize")), b(i("cwnd")), group(i("recover"))
            ),
            Rule::BbrPartialAck => format!(
                "Partial ACK {} (recover {}): resend segment {} and stay in recovery{}; BBR sets cwnd",
                group(i("ack")), group(i("recover")), group(i("segment")), if i("restart timer") == 1 { ", restarting the timer" } else { "" }
            ),
            Rule::SsthreshBbr => format!(
                "BBR on a loss: ssthresh stays {}; cwnd {} is saved to restore when recovery ends",
                b(o("ssthresh")), b(o("saved cwnd"))
            ),
            Rule::CwndCap => format!(
                "cwnd would grow from {} to {} but is capped at max_cwnd {}: cwnd = {}",
                b(i("cwnd before")), b(i("cwnd")), b(i("max_cwnd")), b(o("cwnd"))
            ),
            Rule::GateWindowFull => format!(
                "No growth: {} of min(cwnd, rwnd) = {} was in flight when the ACK came, so the window was not full ({})",
                b(i("flight")), b(i("window")),
                if i("slack one_mss") != 0 { "one SMSS of slack allowed" } else { "no slack" }
            ),
            Rule::GateLinux315 => format!(
                "No growth: {} of cwnd {} packets in flight, and the {} unused are too many for TSO to defer: not cwnd-limited",
                i("in_flight"), i("cwnd packets"), i("cwnd packets").saturating_sub(i("in_flight"))
            ),
            Rule::GateLinux316 => if i("cwnd") <= i("ssthresh") {
                format!(
                    "No growth: in slow start cwnd {} packets is not below 2·max_packets_out = 2·{}",
                    i("cwnd packets"), i("max_packets_out")
                )
            } else {
                "No growth: the last send pass was not stopped by cwnd (is_cwnd_limited = 0)".to_string()
            },
            Rule::GateNewCwv => format!(
                "No growth: in the non-validated phase and not cwnd-limited ({} in flight, cwnd {})",
                b(i("flight")), b(i("cwnd"))
            ),
            Rule::SsthreshHalfFlight => format!(
                "ssthresh = max(FlightSize/2, 2·SMSS) = max({}/2, {}) = {}",
                group(i("FlightSize")), group(2 * i("SMSS")), b(o("ssthresh"))
            ),
            Rule::SsthreshHalfCwnd => format!(
                "ssthresh = max(min(cwnd, rwnd)/2, 2·SMSS) = max({}/2, {}) = {}",
                group(i("cwnd").min(i("rwnd"))), group(2 * i("SMSS")), b(o("ssthresh"))
            ),
            Rule::SsthreshNone => format!("No multiplicative decrease: ssthresh stays {}", b(o("ssthresh"))),
            Rule::SsthreshBrTcp => format!(
                "ssthresh from the reserved rate: ⌊{} · {} / (8 · {})⌋ packets (at least 2) · SMSS = {}",
                format_bps(i("reserved rate")), t(i("RTT")), b(i("size")), b(o("ssthresh"))
            ),
            Rule::SsthreshBinomial => format!(
                "Binomial decrease (l = {}, β = {}): ssthresh = w − β·w^l with w = {} → {}",
                format_value(i("l"), Unit::Milli), format_value(i("beta"), Unit::Milli), b(i("window")), b(o("ssthresh"))
            ),
            Rule::SsHystart => format!(
                "{}: cwnd += min(acked {}, 8·SMSS){} → {}",
                if i("CSS") == 1 { "Conservative slow start (HyStart++)" } else { "Slow start (HyStart++)" },
                b(i("acked")), if i("CSS") == 1 { "/4" } else { "" }, b(o("cwnd"))
            ),
            Rule::HystartCssEnter => format!(
                "HyStart++: this round's smallest RTT {} is at least the last round's {} + {} (max(4 ms, min(last/8, 16 ms))): a queue is building, so growth drops to a quarter (conservative slow start) at cwnd = {}",
                t(i("currentRoundMinRTT")), t(i("lastRoundMinRTT")), t(i("RttThresh")), b(i("cwnd"))
            ),
            Rule::HystartCssResume => format!(
                "HyStart++: this round's smallest RTT {} is below the baseline {} it rose from: the rise was noise, slow start resumes at cwnd = {}",
                t(i("currentRoundMinRTT")), t(i("cssBaselineMinRtt")), b(i("cwnd"))
            ),
            Rule::HystartExit => format!(
                "HyStart++: {} rounds of conservative slow start: slow start ends, ssthresh {} → cwnd = {}",
                i("CSS rounds"), b(i("ssthresh")), b(o("ssthresh"))
            ),
            Rule::SsthreshCubic | Rule::SsthreshCubicCwnd => {
                // Fast convergence (RFC 9438 §4.7) said the same way for either base.
                let wmax = if i("fast convergence") == 1 && i("cwnd") < i("W_max before") {
                    format!(
                        "fast convergence: cwnd {} is below the last W_max {}, so W_max = cwnd·(1 + β)/2 = {}",
                        b(i("cwnd")), b(i("W_max before")), b(o("W_max"))
                    )
                } else {
                    format!("W_max = cwnd before the reduction = {}", b(o("W_max")))
                };
                let (what, base, v) = if self.rule == Rule::SsthreshCubic {
                    ("CUBIC decrease", "FlightSize", i("FlightSize"))
                } else {
                    ("CUBIC decrease (Linux)", "cwnd", i("cwnd"))
                };
                format!(
                    "{what}: ssthresh = max({base}·β, 2·SMSS) = max({}·{}, {}) = {}; {}",
                    b(v), format_value(i("beta"), Unit::Milli), b(2 * i("SMSS")), b(o("ssthresh")), wmax
                )
            }
            Rule::SsthreshHold => format!(
                "The timer had already resent this segment: ssthresh stays {}",
                b(o("ssthresh"))
            ),
            Rule::FastRetransmitTahoe => format!(
                "{} duplicate ACKs for segment {}: fast retransmit. ssthresh {} → {}; cwnd = 1 SMSS = {}; resend from snd_una (go back N)",
                ordinal(i("dupacks")), group(i("segment")), b(i("ssthresh")), b(o("ssthresh")), b(o("cwnd"))
            ),
            Rule::FastRetransmit => format!(
                "{} duplicate ACK for segment {}: fast retransmit. ssthresh {} → {}; cwnd = ssthresh = {}; window in force = ssthresh + {}·SMSS = {}; recover = {}",
                ordinal(i("dupacks")), group(i("segment")), b(i("ssthresh")), b(o("ssthresh")), b(o("cwnd")),
                i("dupacks"), b(o("window")), group(o("recover"))
            ),
            Rule::FastRetransmitBr => format!(
                "{} duplicate ACK for segment {}: fast retransmit. ssthresh = {} from the reserved rate; cwnd = ssthresh = {}, no inflation",
                ordinal(i("dupacks")), group(i("segment")), b(o("ssthresh")), b(o("cwnd"))
            ),
            Rule::FastRetransmitSuppressed => format!(
                "{} duplicate ACK at {}, which does not cover more than recover = {}: this window's loss was already handled, no second reduction",
                ordinal(i("dupacks")), group(i("ack")), group(i("recover"))
            ),
            Rule::NewCwvLoss => format!(
                "Loss in the non-validated phase: cwnd = max(pipeACK {}, LossFlightSize {})/2 = {}",
                b(i("pipeACK")), b(i("LossFlightSize")), b(o("cwnd"))
            ),
            Rule::Inflate => format!(
                "Duplicate ACK {} in fast recovery: a segment left the network, window = {} + SMSS = {}",
                i("dupacks"), b(i("window")), b(o("window"))
            ),
            Rule::RenoExit => format!(
                "New ACK {} in fast recovery: Reno leaves it at once (even below recover = {}); cwnd = {} = {} (window {} deflated)",
                group(i("ack")), group(i("recover")), target_name(i("ssthresh"), i("target")), b(o("cwnd")), b(i("window"))
            ),
            Rule::PartialDeflate => format!(
                "Partial ACK {} (below recover = {}): resend segment {}; window = {} − {} acknowledged{} = {}{}",
                group(i("ack")), group(i("recover")), group(i("segment")), group(i("window")), group(i("acked")),
                if i("acked") >= i("SMSS") { format!(" + {}", group(i("SMSS"))) } else { String::new() },
                b(o("window")),
                if o("timer restarted") != 0 { "; timer restarted" } else { "" }
            ),
            Rule::PartialReset => format!(
                "Partial ACK {} (below recover = {}): resend segment {}; window back to cwnd = {}{}",
                group(i("ack")), group(i("recover")), group(i("segment")), b(o("window")),
                if o("timer restarted") != 0 { "; timer restarted" } else { "" }
            ),
            Rule::FullAckMinFlight => format!(
                "Full ACK {} (covers recover = {}): leave fast recovery; cwnd = min({}, max(FlightSize, SMSS) + SMSS) = min({}, max({}, {}) + {}) = {}",
                group(i("ack")), group(i("recover")), target_name(i("ssthresh"), i("target")), group(i("target")),
                group(i("FlightSize")), group(i("SMSS")), group(i("SMSS")), b(o("cwnd"))
            ),
            Rule::FullAckSsthresh => format!(
                "Full ACK {} (covers recover = {}): leave fast recovery; cwnd = {} = {}",
                group(i("ack")), group(i("recover")), target_name(i("ssthresh"), i("target")), b(o("cwnd"))
            ),
            Rule::NewCwvRecoveryEnd => format!(
                "Recovery from a loss in the non-validated phase ends: cwnd = ssthresh = (max(pipeACK {}, LossFlightSize {}) − R {})/2 = {}",
                b(i("pipeACK")), b(i("LossFlightSize")), b(i("R")), b(o("cwnd"))
            ),
            Rule::Timeout => format!(
                "Retransmission timer expired with {} in flight: ssthresh {} → {}; cwnd = {} (loss window); resend segment {} and go back N",
                b(i("FlightSize")), b(i("ssthresh")), b(o("ssthresh")), b(o("cwnd")), group(i("segment"))
            ),
            Rule::Backoff => format!(
                "RTO doubles for the next expiry: min(2·{}, {}) = {} (backoff {})",
                t(i("RTO")), t(i("max RTO")), t(o("RTO")), o("backoffs")
            ),
            Rule::SynTimeout => format!("A SYN was lost: RTO = max({}, 3 s) = {}", t(i("RTO")), t(o("RTO"))),
            Rule::RttFirst => format!(
                "First RTT sample R = {} (segment {}): SRTT = {}, RTTVAR = R/2 = {}, RTO = SRTT + max(G, 4·RTTVAR) = {}",
                t(i("R")), group(i("segment")), t(o("SRTT")), t(o("RTTVAR")), t(o("RTO"))
            ),
            Rule::RttUpdate => format!(
                "RTT sample R = {} (segment {}): RTTVAR = ¾·{} + ¼·|{} − {}| = {}; SRTT = ⅞·{} + ⅛·{} = {}; RTO = {}",
                t(i("R")), group(i("segment")), t(i("RTTVAR")), t(i("SRTT")), t(i("R")), t(o("RTTVAR")),
                t(i("SRTT")), t(i("R")), t(o("SRTT")), t(o("RTO"))
            ),
            Rule::RttJacobson if i("A") == 0 => format!(
                "First RTT sample R = {} (segment {}): mean A = R = {}, deviation D = R/2 = {}; RTO = A + 4·D = {}",
                t(i("R")), group(i("segment")), t(o("A")), t(o("D")), t(o("RTO"))
            ),
            Rule::RttJacobson => format!(
                "RTT sample R = {} (segment {}): mean A {} → {}, deviation D {} → {}; RTO = A + 4·D = {}",
                t(i("R")), group(i("segment")), t(i("A")), t(o("A")), t(i("D")), t(o("D")), t(o("RTO"))
            ),
            Rule::RttRfc793 if i("SRTT") == 0 => format!(
                "First RTT sample R = {} (segment {}): SRTT = R = {}; RTO = β·SRTT = {} (β = {})",
                t(i("R")), group(i("segment")), t(o("SRTT")), t(o("RTO")), format_value(i("beta"), Unit::Milli)
            ),
            Rule::RttRfc793 => format!(
                "RTT sample R = {} (segment {}): SRTT = α·{} + (1 − α)·R = {} (α = {}); RTO = β·SRTT = {} (β = {})",
                t(i("R")), group(i("segment")), t(i("SRTT")), t(o("SRTT")), format_value(i("alpha"), Unit::Milli),
                t(o("RTO")), format_value(i("beta"), Unit::Milli)
            ),
            Rule::Karn => format!(
                "Segment {} is resent while segment {} is being timed: no RTT sample from it (Karn's rule)",
                group(i("resent segment")), group(i("timed segment"))
            ),
            Rule::Restart => format!(
                "Idle for {} > RTO {}: restart with cwnd = min(IW {}, cwnd {}) = {}",
                t(i("idle")), t(i("RTO")), b(i("IW")), b(i("cwnd")), b(o("cwnd"))
            ),
            Rule::CwvIdle => format!(
                "Idle for {} (≥ RTO {}): ssthresh = max({}, ¾·{}) = {}; cwnd halved per RTO elapsed: {} → {}",
                t(i("idle")), t(i("RTO")), b(i("ssthresh")), b(i("cwnd")), b(o("ssthresh")), b(i("cwnd")), b(o("cwnd"))
            ),
            Rule::CwvAppLimited => format!(
                "Application-limited for {} (≥ RTO {}): ssthresh = max({}, ¾·{}) = {}; cwnd = (cwnd + W_used)/2 = ({} + {})/2 = {}",
                t(i("since T_prev")), t(i("RTO")), b(i("ssthresh")), b(i("cwnd")), b(o("ssthresh")),
                group(i("cwnd")), group(i("W_used")), b(o("cwnd"))
            ),
            Rule::NvpEnter => format!(
                "pipeACK {} is less than half of cwnd {}: the window is not validated (non-validated phase)",
                b(i("pipeACK")), b(i("cwnd"))
            ),
            Rule::NvpExit => if i("pipeACK") == u64::MAX {
                format!("pipeACK is undefined after a recovery or a timeout: the window (cwnd {}) counts as validated", b(i("cwnd")))
            } else {
                format!(
                    "pipeACK {} is at least half of cwnd {}: the window is validated again",
                    b(i("pipeACK")), b(i("cwnd"))
                )
            },
            Rule::NvpExpiry => format!(
                "Non-validated for {} (limit {}): ssthresh = max({}, ¾·cwnd) = {}; cwnd = min(cwnd, max(cwnd/2, IW {})) = {}",
                t(i("in NVP")), t(i("NVP limit")), b(i("ssthresh")), b(o("ssthresh")), b(i("IW")), b(o("cwnd"))
            ),
            Rule::Nagle => format!(
                "Nagle: a {} segment (< SMSS {}) waits while {} are unacknowledged",
                b(i("length")), b(i("SMSS")), b(i("unacknowledged"))
            ),
            Rule::LimitedTransmit => format!(
                "Limited Transmit: duplicate ACK {} lets new segment {} leave beyond cwnd {} ({} in flight)",
                i("dupacks"), group(i("segment")), b(i("cwnd")), b(i("flight"))
            ),
            Rule::DelAckHold => format!(
                "Delayed ACK: {} in order unacknowledged (< 2·SMSS = {}), the ACK waits up to {}",
                b(i("unacknowledged")), b(2 * i("SMSS")), t(i("timeout"))
            ),
            Rule::DelAckSecond => format!(
                "Delayed ACK: {} unacknowledged reaches 2·SMSS = {}, ACK at once",
                b(i("unacknowledged")), b(2 * i("SMSS"))
            ),
            Rule::DelAckTimer => format!(
                "Delayed-ACK timer ({}) fired: the ACK for {} leaves",
                t(i("timeout")), b(i("unacknowledged"))
            ),
        };
        format!("{body}{} ({src})", self.rto_bound_note())
    }

    /// For an RTT rule whose RTO came out at a bound: which one.
    fn rto_bound_note(&self) -> &'static str {
        let info = self.info();
        if info.kind != Kind::Rtt || !info.inputs.iter().any(|(n, _)| *n == "min RTO") {
            return "";
        }
        let (rto, lo, hi) = (self.output("RTO"), self.input("min RTO"), self.input("max RTO"));
        // The estimate before the bounds, as each estimator forms it.
        let raw = match self.rule {
            Rule::RttFirst | Rule::RttUpdate => self.output("SRTT") + self.input("G").max(4 * self.output("RTTVAR")),
            Rule::RttJacobson => self.output("A") + 4 * self.output("D"),
            _ => self.output("SRTT") * self.input("beta") / 1000,
        };
        if rto == lo && raw < lo {
            ", raised to the minimum RTO"
        } else if rto == hi && raw > hi {
            ", capped at the maximum RTO"
        } else {
            ""
        }
    }
}
