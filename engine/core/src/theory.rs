//! Theory beside the run: the throughput that the two classic models of loss-based TCP give
//! for a flow's path and loss rate, with their inputs stated, so that a class can set a run
//! against the formula (the page's reference lines, sweeps, validation).
//!
//! - Mathis, Semke, Mahdavi, Ott 1997 ("The macroscopic behavior of the TCP congestion
//!   avoidance algorithm", eq. 3): B = MSS/RTT · C/√p with C = √(3/2) ≈ 1.22 (periodic
//!   loss, one ACK per segment, no timeouts).
//! - Padhye, Firoiu, Towsley, Kurose 1998 ("Modeling TCP throughput", eq. 32, the "full
//!   model"): B = min(W_max/RTT, 1 / (RTT·√(2bp/3) + T0·min(1, 3·√(3bp/8))·p·(1 + 32p²)))
//!   segments per second, which adds timeouts and the receiver's window.
//!
//! Inputs, each from the scenario: p, the probability that a data segment is lost on the
//! bottleneck (the Bernoulli probability, or 1 − (1 − BER)^(8·(MSS + header)) for a bit
//! error rate; the same computation the loss model makes); RTT, the path's round trip as
//! built (propagation both ways plus one data packet and one ACK serialised on every link,
//! no queueing); MSS; b, segments acknowledged per ACK (2 with delayed ACKs, else 1); T0,
//! the timeout, max(rto.min, 3·RTT) (RFC 6298's RTO after a first sample R: R + 4·R/2);
//! W_max = rwnd/MSS. Results are payload bit/s (goodput). Floats are fine here: nothing in
//! the model reads them.

use crate::scenario::{LossModel, Scenario};
use crate::time::ns_to_secs;
use serde_json::{json, Value};

/// The models' inputs for one flow.
#[derive(Clone, Debug, PartialEq)]
pub struct Inputs {
    /// Loss probability of a data segment.
    pub p: f64,
    /// How p was found, in words.
    pub p_from: String,
    /// Round trip, s.
    pub rtt: f64,
    /// Segment payload, bytes.
    pub mss: u64,
    /// Segments acknowledged per ACK.
    pub b: u32,
    /// Timeout, s.
    pub t0: f64,
    /// The receiver window in segments.
    pub w_max: f64,
}

/// The inputs for flow `flow`, or why there are none (no random loss on the path).
pub fn inputs(s: &Scenario, flow: usize) -> Result<Inputs, String> {
    let f = s
        .flows
        .get(flow)
        .ok_or_else(|| format!("flow: the scenario has {} flow(s)", s.flows.len()))?;
    let loss = &s.network.bottleneck.loss;
    let wire = f.tcp.mss + f.tcp.header;
    let (p, p_from) = match loss.model {
        LossModel::None => return Err("no random loss on the bottleneck: the models need a loss rate p > 0".into()),
        LossModel::Bernoulli => (
            loss.probability,
            format!("the bottleneck's loss probability, {}", loss.probability),
        ),
        LossModel::Ber => (
            crate::rng::ber_packet_loss(loss.ber, wire),
            format!("1 − (1 − BER)^(8·{wire}) with BER = {}", loss.ber),
        ),
    };
    if p <= 0.0 {
        return Err("the loss rate is 0: the models need p > 0".into());
    }
    let rtt = ns_to_secs(crate::net::path_rtt(s, f));
    Ok(Inputs {
        p,
        p_from,
        rtt,
        mss: f.tcp.mss,
        b: if f.receiver.delayed_ack { 2 } else { 1 },
        t0: f.rto.min.max(3.0 * rtt),
        w_max: f.tcp.rwnd as f64 / f.tcp.mss as f64,
    })
}

/// Mathis et al.'s throughput, payload bit/s.
pub fn mathis_bps(i: &Inputs) -> f64 {
    8.0 * i.mss as f64 / i.rtt * (1.5f64).sqrt() / i.p.sqrt()
}

/// Padhye et al.'s full-model throughput, payload bit/s.
pub fn padhye_bps(i: &Inputs) -> f64 {
    let (p, b) = (i.p, i.b as f64);
    let denom = i.rtt * (2.0 * b * p / 3.0).sqrt()
        + i.t0 * (3.0 * (3.0 * b * p / 8.0).sqrt()).min(1.0) * p * (1.0 + 32.0 * p * p);
    let segments = (i.w_max / i.rtt).min(1.0 / denom);
    8.0 * i.mss as f64 * segments
}

/// For the page and the CLI: `{"inputs": {p, p_from, rtt_s, mss, b, t0_s, w_max}, "mathis":
/// {bps, formula, source}, "padhye": {bps, formula, source}}`, or `{"unavailable": reason}`.
pub fn theory_json(s: &Scenario, flow: usize) -> Value {
    match inputs(s, flow) {
        Ok(i) => json!({
            "inputs": { "p": i.p, "p_from": i.p_from, "rtt_s": i.rtt, "mss": i.mss, "b": i.b, "t0_s": i.t0, "w_max": i.w_max },
            "mathis": {
                "bps": mathis_bps(&i),
                "formula": "MSS/RTT · √(3/2)/√p",
                "source": "Mathis, Semke, Mahdavi, Ott 1997, eq. (3)",
            },
            "padhye": {
                "bps": padhye_bps(&i),
                "formula": "min(W_max/RTT, 1/(RTT·√(2bp/3) + T0·min(1, 3·√(3bp/8))·p·(1 + 32p²))) segments/s",
                "source": "Padhye, Firoiu, Towsley, Kurose 1998, eq. (32)",
            },
        }),
        Err(reason) => json!({ "unavailable": reason }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs_of(p: f64, rtt: f64) -> Inputs {
        Inputs {
            p,
            p_from: String::new(),
            rtt,
            mss: 1460,
            b: 1,
            t0: 1.0,
            w_max: 1e9,
        }
    }

    #[test]
    fn mathis_is_mss_over_rtt_times_1_22_over_root_p() {
        // 1 % loss, 100 ms: 1460·8/0.1 · 1.22474/0.1 = 116 800 · 12.2474 = 1.4305 Mbit/s.
        let b = mathis_bps(&inputs_of(0.01, 0.1));
        assert!((b - 1_430_502.0).abs() < 1.0, "{b}");
    }

    #[test]
    fn padhye_falls_below_mathis_once_timeouts_count_and_caps_at_the_window() {
        let i = inputs_of(0.01, 0.1);
        // Denominator: 0.1·√(0.02/3) + 1·min(1, 3·√(0.03/8))·0.01·(1 + 0.0032)
        //            = 0.0081650 + 0.18371·0.010032 = 0.0100080 s per segment.
        let b = padhye_bps(&i);
        assert!((b - 8.0 * 1460.0 / 0.010_008_0).abs() < 50.0, "{b}");
        assert!(b < mathis_bps(&i));
        // 1/denominator is 99.9 segments/s: a window of 5 segments per 100 ms caps it at 50.
        let capped = Inputs { w_max: 5.0, ..i };
        assert!(
            (padhye_bps(&capped) - 8.0 * 1460.0 * 50.0).abs() < 1e-6,
            "5 segments per 100 ms"
        );
    }

    #[test]
    fn the_inputs_come_from_the_scenario() {
        // bbr-random-loss: 1 % Bernoulli loss on a 10 Mbit/s path of 45.48 ms as built (40 ms
        // of bottleneck propagation, the access links and serialisation: BBR's RTprop there);
        // its lesson quotes Mathis at 3.1 Mbit/s.
        let s = crate::presets::find("bbr-random-loss").unwrap().scenario().unwrap();
        let i = inputs(&s, 0).unwrap();
        assert_eq!((i.p, i.b, i.mss), (0.01, 1, 1460));
        assert!((i.rtt - 0.045_478_4).abs() < 1e-9, "{}", i.rtt);
        let m = mathis_bps(&i) / 1e6;
        assert!((m - 3.1).abs() < 0.05, "{m}");
        // A bit error rate becomes a per-packet probability over the wire size.
        let netsim = crate::presets::find("netsim-reno").unwrap().scenario().unwrap();
        let n = inputs(&netsim, 0).unwrap();
        assert!((n.p - (1.0 - (1.0 - 1e-7f64).powi(8 * 1500))).abs() < 1e-12, "{}", n.p);
        assert_eq!(n.t0, 1.0);
        let none = crate::presets::find("textbook-reno").unwrap().scenario().unwrap();
        assert!(theory_json(&none, 0)["unavailable"]
            .as_str()
            .unwrap()
            .contains("no random loss"));
    }
}
