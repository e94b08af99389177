//! Running the scenario in the page: the core does all the work; this only keeps what the
//! views show.

use kubeplay_core::cluster::Cluster;
use kubeplay_core::scenario::Scenario;
use kubeplay_core::trace::{clock, Record};
use leptos::prelude::*;

/// One trace record as the views show it.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceLine {
    pub time: String,
    pub component: &'static str,
    pub action: &'static str,
    pub summary: String,
    pub peer: Option<String>,
}

impl From<&Record> for TraceLine {
    fn from(r: &Record) -> Self {
        TraceLine {
            time: clock(r.t_ms),
            component: r.component.as_str(),
            action: r.action,
            summary: r.summary.clone(),
            peer: r.peer.clone(),
        }
    }
}

/// The outcome of one Apply.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunResult {
    pub lines: Vec<TraceLine>,
    /// What kubectl printed, stdout and stderr, in order.
    pub kubectl: Vec<String>,
    pub end_ms: u64,
}

/// Runs a parsed scenario until the cluster is quiet.
pub fn run(scenario: Scenario) -> RunResult {
    let mut cluster = Cluster::new(scenario);
    cluster.run(None);
    RunResult {
        lines: cluster.trace.records.iter().map(TraceLine::from).collect(),
        kubectl: cluster
            .outputs
            .iter()
            .flat_map(|o| {
                o.stdout
                    .lines()
                    .chain(o.stderr.lines())
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .collect(),
        end_ms: cluster.now(),
    }
}

/// The last run, shared by the controls and the views.
#[derive(Clone, Copy)]
pub struct RunState {
    pub result: RwSignal<Option<RunResult>>,
}

impl RunState {
    pub fn new() -> Self {
        RunState {
            result: RwSignal::new(None),
        }
    }
}

impl Default for RunState {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::scenario::{parse, DEFAULT_SCENARIO};

    #[test]
    fn running_the_default_scenario_creates_the_deployment() {
        let r = run(parse(DEFAULT_SCENARIO).unwrap());
        assert_eq!(r.kubectl, vec!["deployment.apps/nginx created"]);
        assert!(r
            .lines
            .iter()
            .any(|l| l.summary == "POST /apis/apps/v1/namespaces/default/deployments"));
        assert!(r
            .lines
            .iter()
            .any(|l| l.component == "etcd" && l.action == "etcd.txn"));
    }
}
