//! Benchmark: big clusters from `kubectl apply` to every pod scheduled and every pod Running.
//!
//! Run with `cargo bench -p kubeplay-core --bench scale` (medium and large), or name the sizes:
//! `cargo bench -p kubeplay-core --bench scale -- medium large limits`.
//!
//! Each size is a generated scenario: N nodes (8 CPU, 32 GiB, 110 pods) and Deployments of 100
//! nginx replicas requesting 10m CPU and 16 MiB. The whole cluster runs: apiserver, etcd,
//! controllers, scheduler, kubelets, CNI. Progress is read the way a client would, from a
//! watch on pods opened before the apply; the run is cut into one-second slices of virtual time
//! and the wall clock is read at the end of the first slice where all pods are bound, and where
//! all are Running.

use kubeplay_core::api::resources::for_kind;
use kubeplay_core::apiserver::{Request, Verb};
use kubeplay_core::cluster::{admin_credentials, Cluster};
use std::collections::BTreeMap;
use std::time::Instant;

struct Size {
    name: &'static str,
    nodes: usize,
    deployments: usize,
    replicas: usize,
}

const SIZES: [Size; 4] = [
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

fn scenario(size: &Size) -> String {
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

/// Peak resident memory of this process so far, in MiB (Linux).
fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

struct Outcome {
    scheduled_s: Option<f64>,
    running_s: Option<f64>,
    virtual_running_s: Option<f64>,
    records: usize,
    counted: u64,
}

fn run(size: &Size) -> Outcome {
    let total = size.deployments * size.replicas;
    let text = scenario(size);
    let start = Instant::now();
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
    // Pod key to (bound, running).
    let mut pods: BTreeMap<String, (bool, bool)> = BTreeMap::new();
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
        c.run(Some(t));
        for e in c.api.take_watch_events(id) {
            let key = format!(
                "{}/{}",
                e.object["metadata"]["namespace"].as_str().unwrap_or(""),
                e.object["metadata"]["name"].as_str().unwrap_or("")
            );
            if e.kind == "DELETED" {
                pods.remove(&key);
                continue;
            }
            let bound = e.object["spec"]["nodeName"].as_str().is_some();
            let running = e.object["status"]["phase"] == "Running";
            pods.insert(key, (bound, running));
        }
        let bound = pods.values().filter(|p| p.0).count();
        let running = pods.values().filter(|p| p.1).count();
        if out.scheduled_s.is_none() && bound >= total {
            out.scheduled_s = Some(start.elapsed().as_secs_f64());
        }
        if running >= total {
            out.running_s = Some(start.elapsed().as_secs_f64());
            out.virtual_running_s = Some(t as f64 / 1000.0);
            break;
        }
    }
    out.records = c.trace.records.len();
    out.counted = c.trace.counted_total();
    out
}

fn main() {
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wanted: Vec<&str> = if wanted.is_empty() {
        vec!["medium", "large"]
    } else {
        wanted.iter().map(String::as_str).collect()
    };
    println!("| size | nodes | pods | all scheduled (wall) | all Running (wall) | virtual time to Running | pods/s | trace records kept / counted | peak memory |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for size in SIZES.iter().filter(|s| wanted.contains(&s.name)) {
        let pods = size.deployments * size.replicas;
        let o = run(size);
        let fmt = |v: Option<f64>| v.map_or("not reached".to_string(), |s| format!("{s:.2} s"));
        let rate = o
            .running_s
            .map_or("-".to_string(), |s| format!("{:.0}", pods as f64 / s));
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} / {} | {} |",
            size.name,
            size.nodes,
            pods,
            fmt(o.scheduled_s),
            fmt(o.running_s),
            fmt(o.virtual_running_s),
            rate,
            o.records,
            o.counted,
            peak_rss_mib().map_or("-".to_string(), |m| format!("{m:.0} MiB")),
        );
    }
}
