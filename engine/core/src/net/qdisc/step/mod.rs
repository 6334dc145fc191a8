//! The step-marking queue (RFC 8257 §3.1; Alizadeh et al., "Data Center TCP", SIGCOMM
//! 2010, §3.1): an arrival that finds more than K packets in the queue is marked CE if it
//! is ECN-capable; nothing else is dropped but by the buffer's capacity (drop-tail). The
//! queue counts the packet in service, as the engine's buffer does (`net/mod.rs`).

pub mod settings;

/// The step queue's state: its threshold.
#[derive(Clone, Debug)]
pub struct Step {
    /// K, packets.
    pub k: u64,
}

impl Step {
    /// A step queue with these settings.
    pub fn new(c: &settings::StepCfg) -> Step {
        Step { k: c.k }
    }

    /// Whether an arrival that finds `q` packets queued is to be marked (if ECN-capable).
    #[inline]
    pub fn marks(&self, q: u64) -> bool {
        q > self.k
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn marks_above_k_only() {
        let s = super::Step::new(&super::settings::StepCfg { k: 20 });
        assert!(!s.marks(20));
        assert!(s.marks(21));
    }
}
