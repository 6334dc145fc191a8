//! The rule table: one row per rule, in [`Rule`] order (a rule's index is part of the
//! decision digests, so rules added later go last). Each row gives the rule's id, kind,
//! title, source, formula, and its inputs then outputs: an identifier (the field of its
//! [`view`] module), the display name when it differs (`smss = "SMSS"`: the name in JSON,
//! the CLI and docs/rules.md), and the unit. The wording of each rule is in `words/`.

use super::{words, Decision, Kind, RuleInfo, Unit};

rules! {
    /// Slow start, one SMSS per new ACK.
    SsAckCounting = "ss.ack_counting", Increase, "Slow start: one SMSS per ACK",
        "RFC 5681 §3.1 (RFC 2581 §3.1)", "cwnd += SMSS",
        [cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes, acked: Bytes] => [cwnd: Bytes];
    /// Slow start with RFC 3465 byte counting.
    SsAbc = "ss.abc", Increase, "Slow start with Appropriate Byte Counting",
        "RFC 3465 §2.2 (L = 1 after a timeout, §2.3)", "cwnd += min(acked, L·SMSS)",
        [cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes, acked: Bytes, l = "L": Count] => [cwnd: Bytes];
    /// Linux 3.x slow start.
    SsLinux = "ss.linux", Increase, "Slow start, Linux 3.x",
        "Linux 3.x tcp_slow_start()", "cwnd += min(packets acked, ssthresh + 1 − cwnd) packets",
        [cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes, packets_acked = "packets acked": Packets] => [cwnd: Bytes];
    /// No slow start (4.3BSD before Jacobson 1988).
    SsNone = "ss.none", Increase, "No slow start: the whole window at once",
        "Jacobson 1988 §1 (4.3BSD before slow start)", "cwnd = max(1, ⌊min(ssthresh, rwnd)/SMSS⌋)·SMSS",
        [cwnd: Bytes, ssthresh: Bytes, rwnd: Bytes, smss = "SMSS": Bytes] => [cwnd: Bytes];
    /// Congestion avoidance, SMSS²/cwnd per ACK.
    CaPerAck = "ca.per_ack", Increase, "Congestion avoidance: SMSS·SMSS/cwnd per ACK",
        "RFC 5681 §3.1 eq. (3)", "cwnd += max(1, ⌊SMSS·SMSS/cwnd⌋)",
        [cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes] => [cwnd: Bytes];
    /// Congestion avoidance with byte counting.
    CaByteCounting = "ca.byte_counting", Increase, "Congestion avoidance with byte counting",
        "RFC 3465 §2.1", "bytes_acked += acked; if bytes_acked ≥ cwnd: bytes_acked −= cwnd, cwnd += SMSS",
        [cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes, acked: Bytes, bytes_acked: Bytes]
        => [cwnd: Bytes, bytes_acked: Bytes];
    /// Linux 3.x congestion avoidance counter.
    CaLinux = "ca.linux_counter", Increase, "Congestion avoidance, Linux 3.x ACK counter",
        "Linux 3.x tcp_cong_avoid_ai()", "if snd_cwnd_cnt ≥ cwnd (packets): cwnd += 1 packet, snd_cwnd_cnt = 0; else snd_cwnd_cnt += 1",
        [cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes, snd_cwnd_cnt: Count] => [cwnd: Bytes, snd_cwnd_cnt: Count];
    /// Binomial increase.
    CaBinomial = "ca.binomial", Increase, "Binomial increase: α/w^k packets per RTT",
        "Bansal & Balakrishnan 2001 §3.2 eq. (1), I (source 004)", "cwnd += α/w^k · SMSS/w per ACK (w = cwnd in packets)",
        [cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes, k: Milli, alpha: Milli] => [cwnd: Bytes];
    /// The configured cwnd cap.
    CwndCap = "increase.max_cwnd", Increase, "cwnd held at its cap",
        "4.3BSD tcp_input (TCP_MAXWIN << snd_scale)", "cwnd = max(min(grown, max_cwnd), cwnd before)",
        [cwnd: Bytes, cwnd_before = "cwnd before": Bytes, max_cwnd: Bytes] => [cwnd: Bytes];
    /// RFC 2861 §2 gate refused growth.
    GateWindowFull = "gate.window_full", Gate, "No growth: the window was not full",
        "RFC 2861 §2 (Handley, Padhye, Floyd 1999 §2, slack from §5)", "grow only if flight ≥ min(cwnd, rwnd) (less than one SMSS unused counts as full under the one_mss slack)",
        [cwnd: Bytes, window: Bytes, flight: Bytes, flight_packets = "flight packets": Packets, smss = "SMSS": Bytes, slack_one_mss = "slack one_mss": Flag] => [];
    /// Linux ≤ 3.15 gate refused growth.
    GateLinux315 = "gate.linux_3_15", Gate, "No growth: not cwnd-limited (Linux ≤ 3.15)",
        "Linux 3.15 tcp_is_cwnd_limited(sk, in_flight)", "limited if in_flight ≥ cwnd, or left = cwnd − in_flight with (3·left < cwnd and left·SMSS < 64 KiB) or left ≤ 3",
        [cwnd: Bytes, cwnd_packets = "cwnd packets": Packets, in_flight: Packets, smss = "SMSS": Bytes] => [];
    /// Linux 3.16 gate refused growth.
    GateLinux316 = "gate.linux_3_16", Gate, "No growth: not cwnd-limited (Linux 3.16)",
        "Linux 3.16 tcp_is_cwnd_limited(sk) and tcp_cwnd_validate()", "slow start (cwnd ≤ ssthresh): cwnd < 2·max_packets_out; otherwise is_cwnd_limited",
        [cwnd: Bytes, ssthresh: Bytes, cwnd_packets = "cwnd packets": Packets, max_packets_out: Packets, is_cwnd_limited: Flag] => [];
    /// RFC 7661 refused growth in the non-validated phase.
    GateNewCwv = "gate.rfc7661", Gate, "No growth in the non-validated phase",
        "RFC 7661 §4.3", "in the NVP, grow only when cwnd-limited (flight fills cwnd)",
        [cwnd: Bytes, flight: Bytes] => [];
    /// ssthresh = max(FlightSize/2, 2·SMSS).
    SsthreshHalfFlight = "ssthresh.half_flight", Loss, "ssthresh from the flight size",
        "RFC 5681 §3.1 eq. (4)", "ssthresh = max(FlightSize/2, 2·SMSS)",
        [flight_size = "FlightSize": Bytes, smss = "SMSS": Bytes, ssthresh: Bytes] => [ssthresh: Bytes];
    /// ssthresh = max(min(cwnd, rwnd)/2, 2·SMSS).
    SsthreshHalfCwnd = "ssthresh.half_cwnd", Loss, "ssthresh from the window",
        "4.3BSD-Reno tcp_input / ns-2 (window_/2)", "ssthresh = max(min(cwnd, rwnd)/2, 2·SMSS)",
        [cwnd: Bytes, rwnd: Bytes, smss = "SMSS": Bytes, ssthresh: Bytes] => [ssthresh: Bytes];
    /// No multiplicative decrease.
    SsthreshNone = "ssthresh.none", Loss, "ssthresh unchanged (no multiplicative decrease)",
        "Jacobson 1988 §3 (the sender before it)", "ssthresh unchanged",
        [ssthresh: Bytes] => [ssthresh: Bytes];
    /// BR-TCP's reserved-rate ssthresh.
    SsthreshBrTcp = "ssthresh.br_tcp", Loss, "ssthresh from the reserved rate",
        "Komuro et al. 2006 (source 002) eqs. (1)–(2)", "ssthresh = max(2, ⌊r·RTT/(8·size)⌋)·SMSS",
        [reserved_rate = "reserved rate": Bps, rtt = "RTT": Ns, size: Bytes, smss = "SMSS": Bytes, ssthresh: Bytes] => [ssthresh: Bytes];
    /// Binomial decrease.
    SsthreshBinomial = "ssthresh.binomial", Loss, "Binomial decrease: w − β·w^l",
        "Bansal & Balakrishnan 2001 §3.2 eq. (1), D (source 004)", "ssthresh = w − β·w^l packets (w = min(cwnd, rwnd))",
        [window: Bytes, smss = "SMSS": Bytes, l: Milli, beta: Milli, ssthresh: Bytes] => [ssthresh: Bytes];
    /// A repeated timeout keeps ssthresh.
    SsthreshHold = "ssthresh.hold_repeated_rto", Loss, "ssthresh kept on a repeated timeout",
        "RFC 5681 §3.1 (the segment was already resent by the timer)", "ssthresh unchanged",
        [ssthresh: Bytes] => [ssthresh: Bytes];
    /// Tahoe's fast retransmit.
    FastRetransmitTahoe = "loss.fast_retransmit_tahoe", Loss, "Fast retransmit, then slow start (Tahoe)",
        "4.3BSD-Tahoe; RFC 5681 §3.2 steps 2–3 with cwnd = LW", "cwnd = 1 SMSS; resend from snd_una (go back N)",
        [dupacks: Count, segment: Seg, flight_size = "FlightSize": Bytes, cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes]
        => [ssthresh: Bytes, cwnd: Bytes, recover: Seq];
    /// Reno/NewReno fast retransmit and fast recovery.
    FastRetransmit = "loss.fast_retransmit", Loss, "Fast retransmit and fast recovery",
        "RFC 5681 §3.2 steps 2–3 (RFC 6582 §3.2 step 2: recover = highest sent)", "cwnd = ssthresh; window in force = ssthresh + dupthresh·SMSS; resend the segment at snd_una",
        [dupacks: Count, segment: Seg, flight_size = "FlightSize": Bytes, cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes]
        => [ssthresh: Bytes, cwnd: Bytes, window: Bytes, recover: Seq];
    /// BR-TCP's literal response.
    FastRetransmitBr = "loss.fast_retransmit_br_tcp", Loss, "Fast retransmit, cwnd = ssthresh (BR-TCP)",
        "Komuro et al. 2006 (source 002) §2 step 1", "cwnd = ssthresh; resend; continue in congestion avoidance",
        [dupacks: Count, segment: Seg, flight_size = "FlightSize": Bytes, cwnd: Bytes, ssthresh: Bytes]
        => [ssthresh: Bytes, cwnd: Bytes, recover: Seq];
    /// The recover guard suppressed a second response.
    FastRetransmitSuppressed = "loss.recover_guard", Loss, "No fast retransmit: this loss was already handled",
        "RFC 6582 §3.2 step 2 (Floyd's bugfix)", "act only if the duplicate ACKs cover more than recover",
        [dupacks: Count, ack: Seq, recover: Seq] => [];
    /// New CWV's loss response in the NVP.
    NewCwvLoss = "loss.rfc7661_nvp", Loss, "Loss in the non-validated phase",
        "RFC 7661 §4.4.1", "cwnd = max(pipeACK, LossFlightSize)/2 (at least SMSS) for the recovery",
        [pipe_ack = "pipeACK": Bytes, loss_flight_size = "LossFlightSize": Bytes, cwnd: Bytes] => [cwnd: Bytes];
    /// Window inflation in fast recovery.
    Inflate = "recovery.inflate", Recovery, "Fast recovery: the window inflates by one SMSS",
        "RFC 5681 §3.2 step 4", "window += SMSS for each further duplicate ACK",
        [dupacks: Count, window: Bytes, smss = "SMSS": Bytes] => [window: Bytes];
    /// Reno leaves fast recovery on the first new ACK.
    RenoExit = "recovery.reno_exit", Recovery, "Reno leaves fast recovery on the first new ACK",
        "RFC 5681 §3.2 step 6", "cwnd = target (deflate the window); target = ssthresh, or min(cwnd, ssthresh) with no multiplicative decrease",
        [ack: Seq, recover: Seq, window: Bytes, ssthresh: Bytes, target: Bytes] => [cwnd: Bytes];
    /// NewReno partial ACK, RFC 6582 deflation.
    PartialDeflate = "recovery.partial_ack_deflate", Recovery, "Partial ACK: resend the next hole, deflate",
        "RFC 6582 §3.2 step 3 (partial ACK)", "window = max(SMSS, window − acked) + (SMSS if acked ≥ SMSS); resend the segment at snd_una",
        [ack: Seq, recover: Seq, window: Bytes, acked: Bytes, smss = "SMSS": Bytes, segment: Seg]
        => [window: Bytes, timer_restarted = "timer restarted": Flag];
    /// NewReno partial ACK, ns-2 reset.
    PartialReset = "recovery.partial_ack_reset", Recovery, "Partial ACK: resend the next hole, window back to cwnd",
        "ns-2 NewReno without partial_window_deflation_", "window = cwnd; resend the segment at snd_una",
        [ack: Seq, recover: Seq, window: Bytes, cwnd: Bytes, segment: Seg]
        => [window: Bytes, timer_restarted = "timer restarted": Flag];
    /// NewReno full ACK, min with the flight.
    FullAckMinFlight = "recovery.full_ack_min_flight", Recovery, "Full ACK: leave fast recovery",
        "RFC 6582 §3.2 step 3 (full ACK), option (1)", "cwnd = min(target, max(FlightSize, SMSS) + SMSS); target = ssthresh, or min(cwnd, ssthresh) with no multiplicative decrease",
        [ack: Seq, recover: Seq, ssthresh: Bytes, target: Bytes, flight_size = "FlightSize": Bytes, smss = "SMSS": Bytes] => [cwnd: Bytes];
    /// NewReno full ACK, cwnd = ssthresh.
    FullAckSsthresh = "recovery.full_ack_ssthresh", Recovery, "Full ACK: leave fast recovery",
        "RFC 6582 §3.2 step 3 (full ACK), option (2)", "cwnd = target; target = ssthresh, or min(cwnd, ssthresh) with no multiplicative decrease",
        [ack: Seq, recover: Seq, ssthresh: Bytes, target: Bytes] => [cwnd: Bytes];
    /// New CWV's window at the end of a recovery from an NVP loss.
    NewCwvRecoveryEnd = "recovery.rfc7661_end", Recovery, "End of recovery from a loss in the non-validated phase",
        "RFC 7661 §4.4.1", "cwnd = ssthresh = max((max(pipeACK, LossFlightSize) − R)/2, SMSS)",
        [pipe_ack = "pipeACK": Bytes, loss_flight_size = "LossFlightSize": Bytes, r = "R": Bytes, cwnd: Bytes, ssthresh: Bytes]
        => [cwnd: Bytes, ssthresh: Bytes];
    /// A retransmission timeout.
    Timeout = "timeout.expire", Timeout, "Retransmission timeout",
        "RFC 5681 §3.1 (LW), RFC 6298 (5.4)", "cwnd = LW (1 SMSS); resend from snd_una (go back N); recover = highest sent",
        [segment: Seg, flight_size = "FlightSize": Bytes, cwnd: Bytes, ssthresh: Bytes]
        => [cwnd: Bytes, ssthresh: Bytes, recover: Seq];
    /// RTO backoff.
    Backoff = "timeout.backoff", Timeout, "The RTO doubles",
        "RFC 6298 (5.5)", "RTO = min(2·RTO, max RTO)",
        [rto = "RTO": Ns, backoffs: Count, max_rto = "max RTO": Ns] => [rto = "RTO": Ns, backoffs: Count];
    /// SYN lost: RTO at least 3 s.
    SynTimeout = "timeout.syn_rto", Timeout, "A SYN was lost: data starts with an RTO of at least 3 s",
        "RFC 6298 (5.7)", "RTO = max(RTO, 3 s)",
        [rto = "RTO": Ns] => [rto = "RTO": Ns];
    /// First RFC 6298 sample.
    RttFirst = "rtt.rfc6298_first", Rtt, "First RTT sample",
        "RFC 6298 (2.2), bounds (2.4)–(2.5)", "SRTT = R; RTTVAR = R/2; RTO = SRTT + max(G, 4·RTTVAR), within [min, max]",
        [r = "R": Ns, elapsed: Ns, segment: Seg, g = "G": Ns, min_rto = "min RTO": Ns, max_rto = "max RTO": Ns]
        => [srtt = "SRTT": Ns, rttvar = "RTTVAR": Ns, rto = "RTO": Ns];
    /// Later RFC 6298 sample.
    RttUpdate = "rtt.rfc6298", Rtt, "RTT sample",
        "RFC 6298 (2.3), bounds (2.4)–(2.5)", "RTTVAR = ¾·RTTVAR + ¼·|SRTT − R|; SRTT = ⅞·SRTT + ⅛·R; RTO = SRTT + max(G, 4·RTTVAR), within [min, max]",
        [r = "R": Ns, elapsed: Ns, segment: Seg, srtt = "SRTT": Ns, rttvar = "RTTVAR": Ns, g = "G": Ns, min_rto = "min RTO": Ns, max_rto = "max RTO": Ns]
        => [srtt = "SRTT": Ns, rttvar = "RTTVAR": Ns, rto = "RTO": Ns];
    /// Jacobson 1988 estimator.
    RttJacobson = "rtt.jacobson88", Rtt, "RTT sample (Jacobson 1988)",
        "Jacobson & Karels 1988 appendix A", "err = m − A; A += err/8; D += (|err| − D)/4; RTO = A + 4·D (in clock ticks)",
        [r = "R": Ns, elapsed: Ns, segment: Seg, a = "A": Ns, d = "D": Ns, tick: Ns, min_rto = "min RTO": Ns, max_rto = "max RTO": Ns]
        => [a = "A": Ns, d = "D": Ns, rto = "RTO": Ns];
    /// RFC 793 estimator.
    RttRfc793 = "rtt.rfc793", Rtt, "RTT sample (RFC 793)",
        "RFC 793 §3.7", "SRTT = α·SRTT + (1 − α)·R; RTO = min(UBOUND, max(LBOUND, β·SRTT))",
        [r = "R": Ns, elapsed: Ns, segment: Seg, srtt = "SRTT": Ns, alpha: Milli, beta: Milli, min_rto = "min RTO": Ns, max_rto = "max RTO": Ns]
        => [srtt = "SRTT": Ns, rto = "RTO": Ns];
    /// Karn's rule.
    Karn = "rtt.karn", Rtt, "No RTT sample from this round trip (Karn's rule)",
        "Karn & Partridge 1987; RFC 6298 §3", "a segment was retransmitted while being timed: its ACK would be ambiguous",
        [timed_segment = "timed segment": Seg, resent_segment = "resent segment": Seg] => [];
    /// Restart after idle.
    Restart = "idle.restart", Idle, "Restart after idle",
        "RFC 5681 §4.1", "idle > RTO: cwnd = min(IW, cwnd)",
        [idle: Ns, rto = "RTO": Ns, iw = "IW": Bytes, cwnd: Bytes] => [cwnd: Bytes];
    /// RFC 2861 idle decay.
    CwvIdle = "idle.rfc2861_idle", Idle, "Idle: cwnd halves once per RTO",
        "RFC 2861 §3 (Handley, Padhye, Floyd 1999 §2.2)", "ssthresh = max(ssthresh, ¾·cwnd); then, per whole RTO idle, cwnd = max(min(cwnd, rwnd)/2, SMSS)",
        [idle: Ns, rto = "RTO": Ns, cwnd: Bytes, ssthresh: Bytes] => [cwnd: Bytes, ssthresh: Bytes];
    /// RFC 2861 application-limited decay.
    CwvAppLimited = "idle.rfc2861_app_limited", Idle, "Application-limited: cwnd decays toward the window used",
        "RFC 2861 §3 (Handley, Padhye, Floyd 1999 §2.2)", "ssthresh = max(ssthresh, ¾·cwnd); cwnd = (min(cwnd, rwnd) + W_used)/2",
        [since_t_prev = "since T_prev": Ns, rto = "RTO": Ns, w_used = "W_used": Bytes, cwnd: Bytes, ssthresh: Bytes] => [cwnd: Bytes, ssthresh: Bytes];
    /// New CWV enters the NVP.
    NvpEnter = "idle.rfc7661_nvp_enter", Idle, "Enter the non-validated phase",
        "RFC 7661 §4.3", "pipeACK < ½·cwnd: non-validated",
        [pipe_ack = "pipeACK": Bytes, cwnd: Bytes] => [];
    /// New CWV leaves the NVP.
    NvpExit = "idle.rfc7661_nvp_exit", Idle, "Leave the non-validated phase",
        "RFC 7661 §4.3 (and §4.2: pipeACK undefined after recovery or a timeout)", "pipeACK ≥ ½·cwnd, or pipeACK undefined: validated",
        [pipe_ack = "pipeACK": Bytes, cwnd: Bytes] => [];
    /// New CWV's NVP time limit.
    NvpExpiry = "idle.rfc7661_nvp_expiry", Idle, "The non-validated phase outlasted its limit",
        "RFC 7661 §4.4.3, §4.5.2", "per whole limit: ssthresh = max(ssthresh, ¾·cwnd); cwnd = min(cwnd, max(cwnd/2, IW))",
        [in_nvp = "in NVP": Ns, nvp_limit = "NVP limit": Ns, iw = "IW": Bytes, cwnd: Bytes, ssthresh: Bytes] => [cwnd: Bytes, ssthresh: Bytes];
    /// Nagle holds a small segment.
    Nagle = "send.nagle", Send, "Nagle: a small segment waits",
        "RFC 896; RFC 1122 §4.2.3.4", "hold a segment shorter than SMSS while data is unacknowledged",
        [length: Bytes, smss = "SMSS": Bytes, unacknowledged: Bytes] => [];
    /// Limited Transmit sends beyond cwnd.
    LimitedTransmit = "send.limited_transmit", Send, "Limited Transmit: a new segment on a duplicate ACK",
        "RFC 3042; RFC 5681 §3.2 step 1", "on the 1st and 2nd duplicate ACK, send one new segment beyond cwnd",
        [dupacks: Count, cwnd: Bytes, flight: Bytes, segment: Seg] => [];
    /// Delayed ACK held.
    DelAckHold = "ack.delay", Ack, "Delayed ACK: the ACK waits",
        "RFC 1122 §4.2.3.2; RFC 5681 §4.2", "in-order data, less than 2·SMSS unacknowledged: wait up to the delayed-ACK timeout",
        [unacknowledged: Bytes, smss = "SMSS": Bytes, timeout: Ns] => [];
    /// Delayed ACK: every second segment.
    DelAckSecond = "ack.every_second", Ack, "Delayed ACK: every second full segment is acknowledged",
        "RFC 1122 §4.2.3.2; RFC 5681 §4.2", "ACK at once when 2·SMSS or more is unacknowledged",
        [unacknowledged: Bytes, smss = "SMSS": Bytes] => [];
    /// Delayed ACK timer fired.
    DelAckTimer = "ack.timer", Ack, "Delayed-ACK timer: the waiting ACK leaves",
        "RFC 1122 §4.2.3.2 (at most 500 ms)", "the timer fired: send the ACK",
        [unacknowledged: Bytes, timeout: Ns] => [];
    // Rules added later go last: a rule's index is part of the decision digests.
    /// HyStart++'s slow-start increase.
    SsHystart = "ss.hystart_pp", Increase, "Slow start under HyStart++",
        "RFC 9406 §4.2", "cwnd += min(acked, L·SMSS), L = 8; in conservative slow start (CSS) a quarter of it",
        [cwnd: Bytes, ssthresh: Bytes, smss = "SMSS": Bytes, acked: Bytes, css = "CSS": Flag] => [cwnd: Bytes];
    /// HyStart++ sees the RTT rise: conservative slow start.
    HystartCssEnter = "hystart.css_enter", Increase, "HyStart++: the RTT rose, conservative slow start",
        "RFC 9406 §4.2", "after N_RTT_SAMPLE samples: if currentRoundMinRTT ≥ lastRoundMinRTT + max(4 ms, min(lastRoundMinRTT/8, 16 ms)): enter CSS",
        [last_round_min_rtt = "lastRoundMinRTT": Ns, current_round_min_rtt = "currentRoundMinRTT": Ns, rtt_thresh = "RttThresh": Ns, cwnd: Bytes] => [];
    /// HyStart++: the rise was spurious.
    HystartCssResume = "hystart.css_resume", Increase, "HyStart++: the RTT fell back, slow start resumes",
        "RFC 9406 §4.2", "in CSS, after N_RTT_SAMPLE samples: if currentRoundMinRTT < cssBaselineMinRtt: back to slow start",
        [css_baseline_min_rtt = "cssBaselineMinRtt": Ns, current_round_min_rtt = "currentRoundMinRTT": Ns, cwnd: Bytes] => [];
    /// HyStart++ ends slow start.
    HystartExit = "hystart.exit", Increase, "HyStart++ ends slow start",
        "RFC 9406 §4.2 (RFC 9438 §4.10 for CUBIC)", "after CSS_ROUNDS rounds of CSS: ssthresh = cwnd",
        [cwnd: Bytes, ssthresh: Bytes, css_rounds = "CSS rounds": Count] => [ssthresh: Bytes];
    /// CUBIC's decrease from cwnd (Linux, ns-3).
    SsthreshCubicCwnd = "ssthresh.cubic_cwnd", Loss, "CUBIC decrease: β_cubic times cwnd (Linux)",
        "Linux tcp_cubic.c cubictcp_recalc_ssthresh(); RFC 9438 §4.7 (fast convergence)",
        "ssthresh = max(cwnd·β_cubic, 2·SMSS); W_max = cwnd, or cwnd·(1 + β_cubic)/2 if cwnd < the last W_max (fast convergence)",
        [cwnd: Bytes, beta: Milli, w_max_before = "W_max before": Bytes, fast_convergence = "fast convergence": Flag, smss = "SMSS": Bytes, ssthresh: Bytes]
        => [ssthresh: Bytes, w_max = "W_max": Bytes];
    /// A CUBIC congestion-avoidance epoch begins.
    CubicEpoch = "ca.cubic_epoch", Increase, "A CUBIC epoch begins: K and W_est",
        "RFC 9438 §4.2 eq. (2), §4.3 (§4.8, §4.10: K = 0 and W_max = cwnd_epoch after a timeout or with no loss yet)",
        "t_epoch = now; cwnd_epoch = cwnd; K = ∛((W_max − cwnd_epoch)/C); W_est = cwnd_epoch",
        [cwnd: Bytes, w_max_before = "W_max before": Bytes, c = "C": Milli, smss = "SMSS": Bytes] => [w_max = "W_max": Bytes, k = "K": Ns, w_est = "W_est": Bytes];
    /// CUBIC's window increase.
    CaCubic = "ca.cubic", Increase, "CUBIC increase toward W_cubic(t + RTT)",
        "RFC 9438 §4.2–4.5",
        "W_cubic(t) = C·(t − K)³ + W_max; target = clamp(W_cubic(t + RTT), cwnd, 1.5·cwnd); cwnd += (target − cwnd)·acked/cwnd; if W_cubic(t) < W_est: cwnd = W_est",
        [cwnd: Bytes, ssthresh: Bytes, acked: Bytes, t: Ns, rtt = "RTT": Ns, k = "K": Ns, w_max = "W_max": Bytes, w_cubic_t_rtt = "W_cubic(t+RTT)": Bytes, w_cubic_t = "W_cubic(t)": Bytes, w_est = "W_est": Bytes]
        => [cwnd: Bytes, region: Count];
    /// CUBIC's multiplicative decrease and W_max.
    SsthreshCubic = "ssthresh.cubic", Loss, "CUBIC decrease: β_cubic times the flight",
        "RFC 9438 §4.6 (decrease), §4.7 (fast convergence)",
        "ssthresh = max(FlightSize·β_cubic, 2·SMSS); W_max = cwnd, or cwnd·(1 + β_cubic)/2 if cwnd < the last W_max (fast convergence)",
        [flight_size = "FlightSize": Bytes, cwnd: Bytes, beta: Milli, w_max_before = "W_max before": Bytes, fast_convergence = "fast convergence": Flag, smss = "SMSS": Bytes, ssthresh: Bytes]
        => [ssthresh: Bytes, w_max = "W_max": Bytes];    /// BBR's bandwidth filter takes a new maximum (or loses an old one).
    BbrMaxBw = "bbr.max_bw", Model, "BBR: a new bottleneck-bandwidth estimate (BtlBw)",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.1.1 (BBRUpdateBtlBw); draft-cheng-iccrg-delivery-rate-estimation; Linux 4.9 bbr_update_bw()",
        "rate = delivered / max(send phase, ACK phase); BtlBw = max of the rates over the last 10 round trips (app-limited samples only if they raise it)",
        [delivered: Bytes, interval: Ns, rate: Bps, app_limited = "app-limited": Flag, round: Count, btl_bw_before = "BtlBw before": Bps] => [btl_bw = "BtlBw": Bps];
    /// BBR's minimum-RTT filter changes.
    BbrMinRtt = "bbr.min_rtt", Model, "BBR: a new RTprop (minimum RTT)",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.1.2 (BBRUpdateRTprop); Linux 4.9 bbr_update_min_rtt()",
        "if rtt ≤ RTprop or RTprop is older than 10 s: RTprop = rtt",
        [rtt: Ns, rtprop_before = "RTprop before": Ns, age: Ns, expired: Flag] => [rtprop = "RTprop": Ns];
    /// Once per round in Startup: has the bandwidth stopped growing?
    BbrFullBwCheck = "bbr.full_bw_check", Model, "BBR Startup: did the bandwidth grow by 25 % this round?",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.2.2 (BBRCheckFullPipe); Linux 4.9 bbr_check_full_bw_reached()",
        "if BtlBw ≥ 1.25·full_bw: full_bw = BtlBw, count = 0; else count += 1; the pipe is full after 3 rounds",
        [round: Count, btl_bw = "BtlBw": Bps, full_bw: Bps, count_before = "count before": Count, full_bw_x1_25 = "1.25·full_bw": Bps] => [count: Count, filled_pipe = "filled pipe": Flag];
    /// Startup ends: Drain.
    BbrFullPipe = "bbr.full_pipe", Model, "BBR: the pipe is full, Startup → Drain",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.2.3 (BBRCheckDrain); Linux 4.9 bbr_check_drain()",
        "3 rounds without 25 % growth: mode = Drain, pacing gain = 1/2.885 (cwnd gain stays 2.885); ssthresh = BBRInflight(1) (Linux)",
        [btl_bw = "BtlBw": Bps, rtprop = "RTprop": Ns, rounds: Count, ssthresh_before = "ssthresh before": Bytes] => [ssthresh: Bytes];
    /// Drain ends: ProbeBW.
    BbrDrainDone = "bbr.drain_done", Model, "BBR: the queue is drained, Drain → ProbeBW",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.3 (BBREnterProbeBW); Linux 4.9 bbr_check_drain(), bbr_reset_probe_bw_mode()",
        "if in flight ≤ BBRInflight(1) = BtlBw·RTprop + 3·send quantum: mode = ProbeBW at a random phase of the gain cycle other than 3/4",
        [in_flight = "in flight": Bytes, bbr_inflight_1 = "BBRInflight(1)": Bytes] => [phase: Count, pacing_gain = "pacing gain": Milli];
    /// ProbeBW's gain cycle moves on.
    BbrCycle = "bbr.cycle", Model, "BBR ProbeBW: next phase of the gain cycle",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.3 (BBRCheckCyclePhase, BBRIsNextCyclePhase); Linux 4.9 bbr_is_next_cycle_phase()",
        "after one RTprop; a 5/4 phase also waits for losses or in flight ≥ BBRInflight(5/4); a 3/4 phase ends early once in flight ≤ BBRInflight(1); gains 5/4, 3/4, 1, 1, 1, 1, 1, 1",
        [phase_before = "phase before": Count, gain_before = "gain before": Milli, elapsed: Ns, rtprop = "RTprop": Ns, in_flight = "in flight": Bytes, target: Bytes, losses: Count] => [phase: Count, pacing_gain = "pacing gain": Milli];
    /// RTprop is 10 s old: ProbeRTT.
    BbrProbeRttEnter = "bbr.probe_rtt_enter", Model, "BBR: RTprop is 10 s old, enter ProbeRTT",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.4 (BBRCheckProbeRTT); Linux 4.9 bbr_update_min_rtt()",
        "if no RTT ≤ RTprop for 10 s: save cwnd, mode = ProbeRTT, cwnd ≤ 4 segments for max(200 ms, one round)",
        [rtprop = "RTprop": Ns, age: Ns, window: Ns, cwnd: Bytes] => [saved_cwnd = "saved cwnd": Bytes];
    /// ProbeRTT ends.
    BbrProbeRttExit = "bbr.probe_rtt_exit", Model, "BBR: ProbeRTT done",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.4 (BBRHandleProbeRTT, BBRExitProbeRTT); Linux 4.9 bbr_check_probe_rtt_done()",
        "200 ms and a round at 4 segments: RTprop's stamp = now, cwnd = max(cwnd, saved cwnd), back to ProbeBW (Startup if the pipe was never full)",
        [done_at = "done at": Ns, cwnd_before = "cwnd before": Bytes, saved_cwnd = "saved cwnd": Bytes, filled_pipe = "filled pipe": Flag] => [cwnd: Bytes, phase: Count];
    /// The pacing rate changes.
    BbrPacing = "bbr.pacing", Model, "BBR sets its pacing rate",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.2.1 (BBRSetPacingRateWithGain); Linux 4.9 bbr_set_pacing_rate()",
        "rate = pacing_gain·BtlBw; taken once the pipe is full, or before that only if higher",
        [btl_bw = "BtlBw": Bps, pacing_gain = "pacing gain": Milli, rate_before = "rate before": Bps] => [pacing_rate = "pacing rate": Bps];
    /// cwnd toward gain × BDP.
    BbrCwnd = "bbr.cwnd", Model, "BBR sets cwnd toward cwnd_gain × BDP",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.2.3 (BBRSetCwnd, BBRInflight); Linux 4.9 bbr_set_cwnd()",
        "target = cwnd_gain·BtlBw·RTprop (whole segments) + 3·send quantum; full pipe: cwnd = min(cwnd + acked, target); before: cwnd += acked while below target; at least 4 segments; ProbeRTT: at most 4",
        [cwnd_before = "cwnd before": Bytes, acked: Bytes, btl_bw = "BtlBw": Bps, rtprop = "RTprop": Ns, cwnd_gain = "cwnd gain": Milli, target: Bytes, filled_pipe = "filled pipe": Flag, probe_rtt_cap = "ProbeRTT cap": Flag] => [cwnd: Bytes];
    /// Packet conservation in the first round of recovery.
    BbrConservation = "bbr.conservation", Recovery, "BBR in recovery: packet conservation",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.2.3.4 (BBRModulateCwndForRecovery); Linux 4.9 bbr_set_cwnd_to_recover_or_restore()",
        "first round of recovery: cwnd = max(cwnd − losses, in flight + delivered): one segment out per segment delivered",
        [cwnd_before = "cwnd before": Bytes, in_flight = "in flight": Bytes, delivered: Bytes, losses: Count] => [cwnd: Bytes];
    /// cwnd restored at the end of recovery.
    BbrRestore = "bbr.restore", Recovery, "BBR leaves recovery: cwnd restored",
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.2.3.4 (BBRRestoreCwnd); Linux 4.9 bbr_set_cwnd_to_recover_or_restore()",
        "cwnd = max(cwnd, the cwnd saved when recovery began)",
        [cwnd_before = "cwnd before": Bytes, saved_cwnd = "saved cwnd": Bytes] => [cwnd: Bytes];
    /// BBR's fast retransmit.
    FastRetransmitBbr = "loss.fast_retransmit_bbr", Loss, "Fast retransmit under BBR",
        "RFC 6582 (loss recovery, as Linux without SACK); Linux 4.9 bbr_ssthresh(), bbr_set_cwnd_to_recover_or_restore()",
        "3rd duplicate ACK: resend the segment at snd_una, enter recovery; BBR keeps ssthresh and saves cwnd, then conserves packets",
        [dupacks: Count, segment: Seg, flight_size = "FlightSize": Bytes, cwnd: Bytes, recover: Seq] => [];
    /// BBR's partial ACK.
    BbrPartialAck = "recovery.partial_ack_bbr", Recovery, "Partial ACK under BBR: resend the next hole",
        "RFC 6582 §3.2 step 3 (as Linux without SACK); the window is BBR's",
        "ack < recover: resend the segment at snd_una, stay in recovery; cwnd is set by BBR (bbr.conservation, bbr.cwnd)",
        [ack: Seq, recover: Seq, segment: Seg, restart_timer = "restart timer": Flag] => [];
    /// BBR's ssthresh on a loss: kept; cwnd saved.
    SsthreshBbr = "ssthresh.bbr", Loss, "BBR keeps ssthresh and saves cwnd",
        "Linux 4.9 bbr_ssthresh(), bbr_save_cwnd(); draft-cardwell-iccrg-bbr-congestion-control-00 §4.2.3.4 (BBRSaveCwnd)",
        "saved cwnd = cwnd (the larger of the two if already recovering or in ProbeRTT); ssthresh unchanged",
        [cwnd: Bytes, saved_before = "saved before": Bytes, ssthresh_before = "ssthresh before": Bytes] => [saved_cwnd = "saved cwnd": Bytes, ssthresh: Bytes];
}
