//! Binomial congestion control (Bansal and Balakrishnan 2001; source 004 §3.2): outside
//! slow start, the window grows by α / w^k packets per round trip and a loss takes it down
//! by β · w^l packets, w being the window in packets. k + l = 1 is the TCP-compatible
//! family: AIMD (k = 0, l = 1, TCP itself with α = 1, β = ½), IIAD (k = 1, l = 0) and SQRT
//! (k = l = ½). It replaces the congestion-avoidance increase and the ssthresh rule; loss
//! detection, recovery and slow start stay whatever the variant and axes say.
//!
//! k and l are whole or half numbers, so the powers need only multiplication, division and
//! a square root: IEEE-754 operations that round the same everywhere, so native and wasm
//! runs agree bit for bit (no `powf`). Model state stays integer bytes.

pub mod settings;

/// w^(h/2) for a whole number h: repeated products, and one square root for the half.
fn pow_half(w: f64, h: i32) -> f64 {
    let mut r = if h.rem_euclid(2) == 1 { w.sqrt() } else { 1.0 };
    let whole = h.div_euclid(2);
    for _ in 0..whole.unsigned_abs() {
        r = if whole > 0 { r * w } else { r / w };
    }
    r
}

/// Bytes to add to cwnd on one new ACK in congestion avoidance: α / w^k packets per round
/// trip spread over the w ACKs of a round trip, α · SMSS / w^(k+1) bytes, at least one.
pub fn increase_per_ack(cwnd: u64, smss: u64, k2: i32, alpha: f64) -> u64 {
    let w = cwnd as f64 / smss as f64;
    let inc = alpha * (smss as f64) / pow_half(w, k2 + 2);
    (inc.floor() as u64).max(1)
}

/// The window after a loss, bytes: w − β · w^l packets, at least two segments.
pub fn decreased(window: u64, smss: u64, l2: i32, beta: f64) -> u64 {
    let w = window as f64 / smss as f64;
    let after = (w - beta * pow_half(w, l2)) * smss as f64;
    (after.max(0.0).floor() as u64).max(2 * smss)
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: u64 = 1000;

    #[test]
    fn aimd_is_tcp() {
        // k = 0, l = 1, α = 1, β = ½: SMSS²/cwnd per ACK and half the window on a loss.
        for cwnd in [2_000u64, 7_300, 10_000, 123_456] {
            assert_eq!(increase_per_ack(cwnd, S, 0, 1.0), (S * S / cwnd).max(1), "{cwnd}");
            assert_eq!(decreased(cwnd, S, 2, 0.5), (cwnd / 2).max(2 * S), "{cwnd}");
        }
    }

    #[test]
    fn iiad_and_sqrt_follow_their_powers() {
        // w = 16 packets. IIAD (k = 1): α/w per RTT = 1/16 packet, over 16 ACKs:
        // 1000 / 256 = 3.9 → 3 bytes per ACK; decrease β·w^0 = ½ packet.
        assert_eq!(increase_per_ack(16 * S, S, 2, 1.0), 3);
        assert_eq!(decreased(16 * S, S, 0, 0.5), 15_500);
        // SQRT (k = l = ½): α/√w = ¼ packet per RTT → 1000/(16·4) = 15.6 → 15 bytes per
        // ACK; decrease β·√w = 2 packets.
        assert_eq!(increase_per_ack(16 * S, S, 1, 1.0), 15);
        assert_eq!(decreased(16 * S, S, 1, 0.5), 14_000);
        // Never below two segments.
        assert_eq!(decreased(2 * S, S, 2, 0.9), 2 * S);
        assert_eq!(pow_half(4.0, -3), 0.125);
    }
}
