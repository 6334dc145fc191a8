//! Changes made during a run (a slider moved during playback), and the timeline entries
//! that replay them.

use super::Simulation;
use crate::event::Event;
use crate::net::{flow_base, Link};
use crate::scenario::{FlowSel, LossModel, Problem};
use crate::tcp::env::Env;
use crate::time::{ns_to_secs, secs_to_ns, Ns};
use crate::trace::EventKind;
use serde_json::Value;

impl Simulation {
    /// Changes a live parameter now, during the run (a slider moved during playback). The
    /// change is appended to the scenario's timeline at the current time, after every event
    /// at this instant has been processed, so replaying the resulting scenario from the start
    /// reproduces this run exactly. Returns that time.
    pub fn apply_change(&mut self, path: &str, value: Value) -> Result<Ns, Problem> {
        let (def, _) = crate::scenario::live_target(path, self.flows.len()).map_err(|m| Problem {
            path: path.to_string(),
            message: m,
        })?;
        if let Some(msg) = crate::scenario::check_leaf(def, &value) {
            return Err(Problem {
                path: path.to_string(),
                message: msg,
            });
        }
        if self.finished {
            return Err(Problem {
                path: path.to_string(),
                message: "the run has ended; change the scenario instead".into(),
            });
        }
        let now = self.world.now;
        let at = ns_to_secs(now);
        // Round-trip the time through seconds so the replay schedules it at the same ns.
        debug_assert_eq!(secs_to_ns(at), now);
        self.scenario.timeline.push(crate::scenario::TimelineEntry {
            at,
            set: path.to_string(),
            value,
        });
        let index = (self.scenario.timeline.len() - 1) as u32;
        // Scheduled as `new` schedules the timeline, so it runs after every event at this
        // instant (after `step`, some may remain) and the loop counts it, as in a replay.
        self.world
            .events
            .push_after_instant(now, index, Event::Timeline { index });
        self.run_until(now, u64::MAX);
        Ok(now)
    }

    /// Applies timeline entry `index` (validated at load: a live parameter and a valid value).
    pub(super) fn apply_timeline(&mut self, index: u32) {
        let entry = &self.scenario.timeline[index as usize];
        let Ok((table_path, sel)) = crate::scenario::normalise_path(&entry.set) else {
            return;
        };
        let v = entry.value.clone();
        let flows: Vec<u32> = match sel {
            FlowSel::Global => vec![],
            FlowSel::All => (0..self.flows.len() as u32).collect(),
            FlowSel::One(i) => vec![i as u32],
        };
        let applied = apply_live(&mut self.world.links, &mut self.flows, &table_path, &flows, &v);
        debug_assert!(applied, "live parameter without a handler: {table_path}");
        let flow = flows.first().copied().unwrap_or(0);
        self.world.log(flow, EventKind::ParamChange, index as u64, 0, 0, 0);
    }
}

/// Applies a live parameter change. Returns false if `table_path` has no handler (a bug
/// caught by the test that walks every live parameter).
pub(super) fn apply_live(
    links: &mut [Link],
    fl: &mut [super::flow::Flow],
    table_path: &str,
    flows: &[u32],
    v: &Value,
) -> bool {
    let f = v.as_f64().unwrap_or(0.0);
    let u = v.as_u64().unwrap_or(f as u64);
    // The value was checked against the table before it came here.
    let model = v.as_str().and_then(LossModel::from_name).unwrap_or(LossModel::None);
    let bottleneck = |links: &mut [Link], apply: &dyn Fn(&mut Link)| {
        apply(&mut links[0]);
        apply(&mut links[1]);
    };
    match table_path {
        "network.bottleneck.bandwidth" => bottleneck(links, &|l| {
            l.set_bandwidth(u);
            if let Some(s) = l.sched.as_mut() {
                s.set_bandwidth(u);
            }
        }),
        "network.bottleneck.delay" => bottleneck(links, &|l| l.delay = secs_to_ns(f)),
        "network.bottleneck.delay_variation" => bottleneck(links, &|l| l.variation = secs_to_ns(f)),
        "network.bottleneck.queue_packets" => bottleneck(links, &|l| l.cap_packets = u),
        "network.bottleneck.queue_bytes" => bottleneck(links, &|l| l.cap_bytes = u),
        "network.bottleneck.loss.model" => links[0].loss.set_model(model),
        "network.bottleneck.loss.ber" => links[0].loss.set_ber(f),
        "network.bottleneck.loss.probability" => links[0].loss.set_probability(f),
        "network.bottleneck.reverse_loss.model" => links[1].loss.set_model(model),
        "network.bottleneck.reverse_loss.ber" => links[1].loss.set_ber(f),
        "network.bottleneck.reverse_loss.probability" => links[1].loss.set_probability(f),
        _ => {
            let Some(rest) = table_path.strip_prefix("flows[].") else {
                return false;
            };
            for &i in flows {
                let base = flow_base(i) as usize;
                match rest {
                    "access.bandwidth" => {
                        links[base].set_bandwidth(u);
                        links[base + 3].set_bandwidth(u);
                    }
                    "access.delay" => {
                        links[base].delay = secs_to_ns(f);
                        links[base + 3].delay = secs_to_ns(f);
                    }
                    "receiver_access.bandwidth" => {
                        links[base + 1].set_bandwidth(u);
                        links[base + 2].set_bandwidth(u);
                    }
                    "receiver_access.delay" => {
                        links[base + 1].delay = secs_to_ns(f);
                        links[base + 2].delay = secs_to_ns(f);
                    }
                    "app.write_size" => fl[i as usize].app.write_size = u,
                    "app.write_interval" => fl[i as usize].app.write_interval = secs_to_ns(f).max(1),
                    _ => return false,
                }
            }
        }
    }
    true
}
