//! The scale benchmark's scenarios and measurement, shared by the native benchmark
//! (`cargo bench -p kubeplay-core --bench scale`) and the browser one (`scripts/bench.sh`,
//! which calls the built site's wasm): the same generated text, the same run, the same
//! readings, so the two can be compared.
//!
//! Each size is a generated scenario: N nodes (8 CPU, 32 GiB, 110 pods) and Deployments of 100
//! nginx replicas requesting 10m CPU and 16 MiB. The whole cluster runs: apiserver, etcd,
//! controllers, scheduler, kubelets, CNI. Progress is read the way a client would, from a
//! watch on pods opened before the apply; the run is cut into one-second slices of virtual time
//! and the wall clock is read at the end of the first slice where all pods are bound, and where
//! all are Running.

use crate::api::resources::for_kind;
use crate::apiserver::{Request, Verb};
use crate::cluster::{admin_credentials, Cluster};
use crate::kernel::time::Millis;
use std::collections::{BTreeMap, HashMap};

pub struct Size {
    pub name: &'static str,
    pub nodes: usize,
    pub deployments: usize,
    pub replicas: usize,
}

pub const SIZES: [Size; 4] = [
    Size {
        name: "small",
        nodes: 3,
        deployments: 1,
        replicas: 3,
    },
    Size {
        name: "medium",
        nodes: 100,
        deployments: 30,
        replicas: 100,
    },
    Size {
        name: "large",
        nodes: 1_000,
        deployments: 300,
        replicas: 100,
    },
    Size {
        name: "limits",
        nodes: 5_000,
        deployments: 1_500,
        replicas: 100,
    },
];

/// The scenario of a size, as YAML text.
pub fn scenario(size: &Size) -> String {
    let mut docs = Vec::new();
    for i in 0..size.nodes {
        docs.push(format!(
            "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-{i}\n  labels:\n    topology.kubernetes.io/zone: zone-{}\nstatus:\n  capacity: {{cpu: \"8\", memory: 32Gi, pods: \"110\"}}\n",
            i % 3
        ));
    }
    for d in 0..size.deployments {
        docs.push(format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-{d}\nspec:\n  replicas: {r}\n  selector: {{matchLabels: {{app: app-{d}}}}}\n  template:\n    metadata: {{labels: {{app: app-{d}}}}}\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.27\n        resources: {{requests: {{cpu: 10m, memory: 16Mi}}}}\n",
            r = size.replicas
        ));
    }
    docs.join("---\n")
}

impl Size {
    pub fn pods(&self) -> usize {
        self.deployments * self.replicas
    }
}

/// The size named `name` (`small`, `medium`, `large`, `limits`).
pub fn size(name: &str) -> Option<&'static Size> {
    SIZES.iter().find(|s| s.name == name)
}

/// What a run measured: wall seconds (from before the parse) to all pods bound and all
/// Running, the virtual time to all Running, and the trace's size.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub scheduled_s: Option<f64>,
    pub running_s: Option<f64>,
    pub virtual_running_s: Option<f64>,
    pub records: usize,
    pub counted: u64,
}

/// How long single steps took, by who ran them (a kubelet counts as `kubelet` and a kube-proxy
/// as `kube-proxy`, whichever node's): what a page that runs the simulation in slices cannot cut, since a step longer
/// than a frame is a long task however the page paces itself.
#[derive(Debug, Default)]
pub struct StepTimes {
    /// (component, "timer", "watch" or "apply") to its steps, their total and the longest.
    pub by_owner: BTreeMap<(String, &'static str), OwnerSteps>,
}

#[derive(Debug, Default, Clone, Copy)]
pub struct OwnerSteps {
    pub steps: u64,
    pub total_s: f64,
    pub longest_s: f64,
    /// The virtual time of the longest step.
    pub longest_at: Millis,
    /// How many took longer than [`SLOW_STEP_S`].
    pub slow: u64,
}

/// A step this long natively is about a frame's whole budget in a browser tab (wasm runs at
/// about half native speed and a long task is one over 50 ms).
pub const SLOW_STEP_S: f64 = 0.025;

impl StepTimes {
    fn add(&mut self, owner: (String, &'static str), at: Millis, took: f64) {
        let name = match owner.0.split_once('/') {
            Some((per_node, _)) => per_node.to_string(),
            None => owner.0,
        };
        let o = self.by_owner.entry((name, owner.1)).or_default();
        o.steps += 1;
        o.total_s += took;
        if took > o.longest_s {
            o.longest_s = took;
            o.longest_at = at;
        }
        o.slow += u64::from(took > SLOW_STEP_S);
    }
}

/// Runs a size from the parse of its text to all pods Running (or 10 virtual minutes).
/// `seconds()` reads the wall clock (`Instant` natively, `performance.now()` in a browser).
pub fn run(size: &Size, seconds: &mut dyn FnMut() -> f64) -> Outcome {
    run_timing(size, seconds, None)
}

/// [`run`], also timing each step into `steps` when given (reading the clock around every
/// step costs a little of the run's speed).
pub fn run_timing(
    size: &Size,
    seconds: &mut dyn FnMut() -> f64,
    mut steps: Option<&mut StepTimes>,
) -> Outcome {
    let total = size.deployments * size.replicas;
    let text = scenario(size);
    let start = seconds();
    let mut c = Cluster::from_text("scale.yaml", &text).expect("generated scenario parses");
    let mut watch = Request::new(
        Verb::Watch,
        for_kind("v1", "Pod").expect("pods"),
        admin_credentials(),
        "benchmark",
    );
    watch.resource_version = Some("0".into());
    let now = c.now();
    let id = c.api.watch(now, &watch, &mut c.trace).expect("watch pods");
    // Pod key to whether it is bound (1) and Running (2), and how many are each: the
    // observer's own bookkeeping is a hash map kept counted, so it costs little next to the
    // cluster it watches. (The map type is one the scheduler has: another would cost the
    // page's wasm its code.)
    let mut pods: HashMap<String, i64> = HashMap::new();
    let (mut bound, mut running) = (0i64, 0i64);
    let mut out = Outcome {
        scheduled_s: None,
        running_s: None,
        virtual_running_s: None,
        records: 0,
        counted: 0,
    };
    let mut t = 0;
    while t < 600_000 {
        t += 1_000;
        if let Some(steps) = steps.as_deref_mut() {
            while c.next_time().is_some_and(|next| next <= t) {
                let owner = c.next_step_owner();
                let before = seconds();
                c.step_one();
                steps.add(owner, c.now(), seconds() - before);
            }
        }
        c.run(Some(t));
        for e in c.api.take_watch_events(id) {
            let key = crate::cluster::informer::key_of(&e.object);
            let now = match e.kind {
                "DELETED" => None,
                _ => Some(
                    i64::from(e.object["spec"]["nodeName"].as_str().is_some())
                        | i64::from(e.object["status"]["phase"] == "Running") << 1,
                ),
            };
            let before = match now {
                Some(state) => pods.insert(key, state),
                None => pods.remove(&key),
            };
            let (was, is) = (before.unwrap_or(0), now.unwrap_or(0));
            bound += (is & 1) - (was & 1);
            running += (is >> 1) - (was >> 1);
        }
        if out.scheduled_s.is_none() && bound >= total as i64 {
            out.scheduled_s = Some(seconds() - start);
        }
        if running >= total as i64 {
            out.running_s = Some(seconds() - start);
            out.virtual_running_s = Some(t as f64 / 1000.0);
            break;
        }
    }
    out.records = c.trace.records.len();
    out.counted = c.trace.counted_total();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_small_size_runs_to_all_pods_running() {
        let mut tick = 0.0;
        let o = run(size("small").unwrap(), &mut || {
            tick += 1.0;
            tick
        });
        assert!(o.scheduled_s.is_some() && o.running_s.is_some(), "{o:?}");
        assert!(o.virtual_running_s.unwrap() <= 10.0, "{o:?}");
        assert!(o.records > 100, "{o:?}");
        assert_eq!(size("small").unwrap().pods(), 3);
    }
}
