//! DCTCP's parameters (`flows[].dctcp`, RFC 8257 §3.3; Linux net/ipv4/tcp_dctcp.c's module
//! parameters `dctcp_shift_g` and `dctcp_alpha_on_init`). They act with `flows[].ecn =
//! "dctcp"`. Part of the settings layer: it names no rule, and the scenario reads it.

use crate::schema::{p, Applies, Kind, ParamDef};

/// A flow's DCTCP parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct DctcpCfg {
    /// The estimation gain as a power of two: g = 1/2^g_shift (Linux `dctcp_shift_g` = 4,
    /// g = 1/16, RFC 8257 §4.2's recommended value).
    pub g_shift: u64,
    /// α's initial value in 1/1024 (Linux `dctcp_alpha_on_init` = 1024: α = 1, so the
    /// first marks halve cwnd).
    pub alpha_init: u64,
}
crate::scenario::json::json_struct!(DctcpCfg: g_shift, alpha_init);

impl Default for DctcpCfg {
    fn default() -> DctcpCfg {
        DctcpCfg {
            g_shift: 4,
            alpha_init: 1024,
        }
    }
}

/// The DCTCP settings that act only with DCTCP on (`schema::applies`).
pub(crate) const APPLIES: [Applies; 2] = {
    const ON: &[&str] = &["dctcp"];
    const WHEN: &str = "flows[].ecn";
    [
        Applies {
            path: "flows[].dctcp.g_shift",
            when: WHEN,
            values: ON,
            also: &[],
        },
        Applies {
            path: "flows[].dctcp.alpha_init",
            when: WHEN,
            values: ON,
            also: &[],
        },
    ]
};

/// The schema's rows (`schema::params` places them).
pub(crate) fn params() -> Vec<ParamDef> {
    vec![
        p!("flows[].dctcp.g_shift", "DCTCP gain shift", "tcp", "", Kind::Int { min: 0, max: 10, default: 4 }, false, None,
            "g = 1/2^g_shift, the weight of each window's marked fraction F in α ← (1 − g)·α + g·F (RFC 8257 §3.3; 4, g = 1/16, is the RFC's recommendation and Linux's dctcp_shift_g)."),
        p!("flows[].dctcp.alpha_init", "DCTCP initial α", "tcp", "1/1024", Kind::Int { min: 0, max: 1024, default: 1024 }, false, None,
            "α before any window is measured, in 1/1024 (Linux's dctcp_alpha_on_init, 1024 = α of 1: the first window with marks halves cwnd, as RFC 3168 would; RFC 8257 §3.3 leaves it to the implementation)."),
    ]
}
