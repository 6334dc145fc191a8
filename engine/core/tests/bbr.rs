//! BBR v1 in whole runs, its numbers pinned and derived from the rules: on the bufferbloat
//! path (10 Mbit/s, 40 ms, 1 000 packets of 1 500 B) the delivery rate is the payload's
//! share of the link, 10⁷ · 1 460/1 500 = 9 733 333 bit/s; RTprop is the first sample;
//! Startup ends after 3 rounds without 25 % growth; Drain ends when in flight ≤
//! BBRInflight(1); ProbeBW's phases last one RTprop (5/4 until in flight ≥ BBRInflight(5/4),
//! 3/4 until in flight ≤ BBRInflight(1)); segments leave one wire time at the pacing rate
//! apart; ProbeRTT comes 10 s after RTprop was last set, holds 4 segments for 200 ms and a
//! round; a loss keeps ssthresh, saves cwnd and conserves packets for a round.

mod common;

use common::{scenario, MS, SEC};
use cwndlab_core::explain::{view, Entry, Rule};
use cwndlab_core::scenario::Scenario;
use cwndlab_core::sim::Simulation;
use cwndlab_core::tcp::cc::bbr::{self, bdp_bytes, send_quantum};
use cwndlab_core::trace::EventKind;

fn run(s: &Scenario) -> Simulation {
    let mut sim = Simulation::new(s).explained();
    sim.run_to_end();
    sim
}

fn of(sim: &Simulation, rule: Rule) -> Vec<Entry> {
    sim.decisions().iter().filter(|e| e.d.rule == rule).collect()
}

fn bufferbloat() -> Scenario {
    scenario("cubic-bufferbloat", &[("flows[0].algorithm", "bbr")])
}

/// The payload rate of a 10 Mbit/s link carrying 1 460 B in 1 500 B packets, bytes/s.
const RATE: u64 = 10_000_000 / 8 * 1460 / 1500;

#[test]
fn startup_doubles_then_finds_the_full_pipe_after_three_flat_rounds() {
    let sim = run(&bufferbloat());
    let checks = of(&sim, Rule::BbrFullBwCheck);
    // Rounds 1–5 grow by at least 25 %; 6, 7, 8 do not; the pipe is full at round 8.
    let counts: Vec<u64> = checks.iter().map(|e| view::BbrFullBwCheck::of(&e.d).1.count).collect();
    assert_eq!(counts, vec![0, 0, 0, 0, 0, 1, 2, 3]);
    let (last, last_out) = view::BbrFullBwCheck::of(&checks.last().unwrap().d);
    assert_eq!(last.round, 8);
    assert_eq!(last_out.filled_pipe, 1);
    // BtlBw is the link's payload rate, to the byte per second.
    assert_eq!(last.btl_bw, RATE * 8);
    // Each flat round compares with 1.25 × the last growing one.
    assert_eq!(last.full_bw_x1_25, RATE * 5 / 4 * 8);
    let full = of(&sim, Rule::BbrFullPipe);
    assert_eq!(full.len(), 1);
    assert_eq!(full[0].t, checks.last().unwrap().t);
    assert_eq!((full[0].d.from, full[0].d.to), (5, 6), "Startup → Drain");
    // RTprop: the first RTT sample. 2 × (20 + 1 + 1) ms of propagation, a 1 500 B segment
    // serialised at 100, 10 and 100 Mbit/s (1.44 ms), its 40 B ACK likewise (38.4 µs).
    let (full_in, full_out) = view::BbrFullPipe::of(&full[0].d);
    let rtprop = full_in.rtprop;
    assert_eq!(rtprop, 44_000_000 + 1_440_000 + 38_400);
    // ssthresh = BBRInflight(1) = ⌈RATE · RTprop / SMSS⌉ SMSS + 3 send quanta, the quantum
    // at Startup's pacing rate (2.885 × RATE = 28.1 Mbit/s): 1 ms of it, 3 512 B.
    let bdp = bdp_bytes(RATE, rtprop, bbr::UNIT);
    assert_eq!(bdp, 55_333, "⌈1 216 666 B/s · 45.4784 ms⌉");
    let startup_rate = RATE * bbr::HIGH_GAIN / bbr::UNIT;
    assert_eq!(send_quantum(startup_rate, 1460), 3_512);
    let target = bdp.div_ceil(1460) * 1460 + 3 * 3_512;
    assert_eq!(target, 66_016);
    assert_eq!(full_out.ssthresh, target);
    // In ProbeBW at 9.7 Mbit/s the quantum is 2 segments: BBRInflight(1) = 55 480 + 8 760.
    assert_eq!(bdp.div_ceil(1460) * 1460 + 3 * send_quantum(RATE, 1460), 64_240);
}

#[test]
fn drain_ends_at_the_bdp_and_probe_bw_cycles_one_rtprop_per_phase() {
    let sim = run(&bufferbloat());
    let drained = of(&sim, Rule::BbrDrainDone);
    assert_eq!(drained.len(), 1);
    let d = drained[0].d;
    let (i, o) = view::BbrDrainDone::of(&d);
    assert!(i.in_flight <= i.bbr_inflight_1);
    assert_eq!(i.bbr_inflight_1, 64_240);
    assert_ne!(o.phase, 1, "never starts in the 3/4 phase");
    assert_eq!((d.from, d.to), (6, 7), "Drain → ProbeBW");
    let cycles = of(&sim, Rule::BbrCycle);
    assert!(cycles.len() > 300, "30 s of 45 ms phases");
    for e in &cycles {
        let (i, o) = view::BbrCycle::of(&e.d);
        let (g, elapsed, rtt) = (i.gain_before, i.elapsed, i.rtprop);
        assert_eq!(o.phase, (i.phase_before + 1) % 8);
        match g {
            // Cruising: exactly one RTprop (the first ACK after it).
            1000 => assert!(elapsed > rtt && elapsed < rtt + 2 * MS, "{elapsed} vs {rtt}"),
            // Probing: at least one RTprop and in flight up to BBRInflight(5/4) =
            // ⌈1.25 · 55 333 / 1 460⌉ · 1 460 + 8 760 = 78 840 B.
            1250 => {
                assert!(elapsed > rtt);
                assert_eq!(i.target, 78_840);
                assert!(i.in_flight >= 78_840);
            }
            // Draining: as soon as in flight is back to BBRInflight(1).
            750 => assert!(elapsed > rtt || i.in_flight <= 64_240),
            _ => panic!("gain {g}"),
        }
    }
    // The gains follow the cycle 1.25, 0.75, 1 × 6.
    let gains: Vec<u64> = cycles.iter().map(|e| view::BbrCycle::of(&e.d).1.pacing_gain).collect();
    let i = gains.iter().position(|&g| g == 1250).unwrap();
    assert_eq!(&gains[i..i + 8], &[1250, 750, 1000, 1000, 1000, 1000, 1000, 1000]);
    // No ProbeRTT: alone on the path, BBR sees RTprop again in every 3/4 phase.
    assert!(of(&sim, Rule::BbrProbeRttEnter).is_empty());
}

#[test]
fn segments_leave_one_wire_time_at_the_pacing_rate_apart() {
    let sim = run(&bufferbloat());
    let sum = sim.summary();
    assert_eq!(sum.flows[0].max_burst_packets, 1, "never two segments at one instant");
    assert_eq!(sum.flows[0].retransmits, 0, "no loss: the deep buffer never fills");
    // In ProbeBW's cruising phases the pacing rate is BtlBw: 1 500 B at RATE bytes/s.
    let pacing = of(&sim, Rule::BbrPacing);
    let cruise = pacing
        .iter()
        .rev()
        .find(|e| view::BbrPacing::of(&e.d).0.pacing_gain == 1000)
        .unwrap();
    assert_eq!(view::BbrPacing::of(&cruise.d).1.pacing_rate, RATE * 8);
    let gap = (1500u64 * SEC).div_ceil(RATE);
    assert_eq!(gap, 1_232_878, "⌈1 500 · 10⁹ / 1 216 666⌉ ns");
    let sends: Vec<u64> = sim
        .events()
        .rows
        .iter()
        .filter(|r| r.kind == EventKind::DataSend as u8 && r.t > cruise.t)
        .map(|r| r.t)
        .take(5)
        .collect();
    for w in sends.windows(2) {
        assert!(w[1] - w[0] >= gap, "{} ns apart", w[1] - w[0]);
    }
    // The queue never grows past what ProbeBW's 5/4 phase adds: BBRInflight(5/4) = 54
    // segments less the 37.9 of the path itself, 17 packets.
    let queues = sim.queues();
    let (_, q) = queues.iter().find(|(n, _)| n.contains("bottleneck")).unwrap();
    let late_max = q.rows.iter().filter(|r| r.0 > 2 * SEC).map(|r| r.1).max().unwrap();
    assert!(late_max <= 17, "queue {late_max} packets");
}

#[test]
fn probe_rtt_comes_ten_seconds_after_rtprop_and_holds_four_segments() {
    // Sharing with CUBIC in a deep buffer, RTprop never falls back to the empty path's.
    let s = scenario("bbr-cubic-deep", &[]);
    let sim = run(&s);
    let enter = of(&sim, Rule::BbrProbeRttEnter);
    let exit = of(&sim, Rule::BbrProbeRttExit);
    assert!(!enter.is_empty() && enter.len() == exit.len());
    for (en, ex) in enter.iter().zip(&exit) {
        assert_eq!(en.flow, 0);
        let age = view::BbrProbeRttEnter::of(&en.d).0.age;
        assert!(age > 10 * SEC && age < 10 * SEC + 2 * MS * 1000);
        // At least 200 ms at the minimum window, and the exit comes after it.
        let (exit_in, exit_out) = view::BbrProbeRttExit::of(&ex.d);
        let done = exit_in.done_at;
        assert!(done >= en.t + 200 * MS);
        assert!(ex.t > done);
        // cwnd is at most 4 segments in between.
        let cw: Vec<Entry> = sim
            .decisions()
            .iter()
            .filter(|e| e.flow == 0 && e.t > en.t && e.t < ex.t && e.d.rule == Rule::BbrCwnd)
            .collect();
        assert!(cw.iter().all(|e| view::BbrCwnd::of(&e.d).1.cwnd <= 4 * 1460));
        // Restored afterwards.
        assert_eq!(exit_out.cwnd, exit_in.cwnd_before.max(exit_in.saved_cwnd));
    }
}

#[test]
fn a_loss_keeps_ssthresh_saves_cwnd_and_conserves_packets() {
    let sim = run(&scenario("bbr-random-loss", &[("flows[0].algorithm", "bbr")]));
    let fr = of(&sim, Rule::FastRetransmitBbr);
    assert!(fr.len() > 50);
    let saves = of(&sim, Rule::SsthreshBbr);
    let first = fr[0];
    let save = saves.iter().find(|e| e.t == first.t).unwrap();
    let (save_in, save_out) = view::SsthreshBbr::of(&save.d);
    assert_eq!(save_out.ssthresh, save_in.ssthresh_before);
    assert_eq!(save_out.saved_cwnd, view::FastRetransmitBbr::of(&first.d).0.cwnd);
    // The same ACK: cwnd = in flight + the one segment the duplicate ACK delivered.
    let cons = of(&sim, Rule::BbrConservation);
    let c = cons.iter().find(|e| e.t == first.t).unwrap();
    let (i, o) = view::BbrConservation::of(&c.d);
    assert_eq!(i.delivered, 1460);
    assert_eq!(o.cwnd, (i.cwnd_before.saturating_sub(1460)).max(i.in_flight + 1460));
    // Goodput: BBR keeps most of the link at 1 % loss; NewReno follows 1/√p.
    let bbr_goodput = sim.summary().flows[0].goodput_bps;
    let nr = run(&scenario("bbr-random-loss", &[("flows[0].algorithm", "newreno")]));
    let nr_goodput = nr.summary().flows[0].goodput_bps;
    assert!(bbr_goodput > 8.0e6, "{bbr_goodput}");
    // Mathis et al.: MSS/RTT · √(3/2)/√p = 1 460·8/0.0455 · 12.25 ≈ 3.1 Mbit/s.
    assert!(nr_goodput > 2.4e6 && nr_goodput < 3.6e6, "{nr_goodput}");
}

#[test]
fn after_a_handshake_rtprop_starts_at_the_syns_rtt_and_expires_ten_seconds_on() {
    // Linux's bbr_init takes tcp_min_rtt: after a handshake, the SYN's RTT. Small packets
    // make it shorter than any data segment's (44 ms + 4 × 40 B serialised ≈ 44.07 ms
    // against 45.48 ms), so no data sample refreshes it and ProbeRTT comes 10 s later —
    // what ns-3's TcpBbr does on this path (docs/validation.md §3f).
    let s = scenario(
        "cubic-bufferbloat",
        &[("flows[0].algorithm", "bbr"), ("flows[0].tcp.syn", "true")],
    );
    let sim = run(&s);
    let full = of(&sim, Rule::BbrFullPipe);
    let syn_rtt = view::BbrFullPipe::of(&full[0].d).0.rtprop;
    assert!((44_000_000..45_478_400).contains(&syn_rtt), "{syn_rtt}");
    let enter = of(&sim, Rule::BbrProbeRttEnter);
    let (enter_in, _) = view::BbrProbeRttEnter::of(&enter[0].d);
    assert_eq!(enter_in.rtprop, syn_rtt);
    let age = enter_in.age;
    assert!(age > 10 * SEC && age < 10 * SEC + 50 * MS, "{age}");
    let exit = of(&sim, Rule::BbrProbeRttExit);
    assert!(exit[0].t - enter[0].t >= 200 * MS && exit[0].t - enter[0].t < 400 * MS);
}
