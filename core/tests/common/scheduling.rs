//! Reading a scheduling run back: pods as `kubectl get pods -o json` prints them, and the
//! `schedule` trace records' node-by-plugin tables. Shared by scheduler.rs and scheduler_scores.rs.

use kubeplay_core::api::value::Value;
use kubeplay_core::cluster::Cluster;

/// A cluster from the scenario text (the control plane, scheduler included, runs from the start).
pub fn cluster(text: &str) -> Cluster {
    Cluster::from_text("s.yaml", text).expect("scenario parses")
}

/// The cluster, run until it is quiet.
pub fn run(text: &str) -> Cluster {
    let mut c = cluster(text);
    c.run(None);
    c
}

pub fn pods_json(c: &mut Cluster) -> Vec<Value> {
    let out = kubeplay_core::kubectl::run(
        c,
        &["get".into(), "pods".into(), "-o".into(), "json".into()],
    );
    assert_eq!(out.exit_code, 0, "{}", out.stderr);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    v["items"].as_array().cloned().unwrap_or_default()
}

pub fn pod_named(c: &mut Cluster, name: &str) -> Value {
    pods_json(c)
        .into_iter()
        .find(|p| p["metadata"]["name"] == name)
        .unwrap_or_else(|| panic!("pod {name} not found"))
}

pub fn node_of(c: &mut Cluster, name: &str) -> Option<String> {
    pod_named(c, name)["spec"]["nodeName"]
        .as_str()
        .map(str::to_string)
}

pub fn pod_scheduled(pod: &Value) -> Value {
    pod["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["type"] == "PodScheduled")
        .cloned()
        .unwrap_or(Value::Null)
}

/// The `schedule` records about one pod, as their JSON Lines form.
pub fn decisions(c: &Cluster, pod: &str) -> Vec<Value> {
    c.trace
        .records
        .iter()
        .filter(|r| r.action == "schedule")
        .map(|r| r.to_json())
        .filter(|r| r["pod"] == format!("default/{pod}"))
        .collect()
}

pub fn row<'a>(decision: &'a Value, node: &str) -> &'a Value {
    decision["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["node"] == node)
        .unwrap_or_else(|| panic!("no row for {node} in {decision}"))
}

pub fn score(row: &Value, plugin: &str) -> Option<i64> {
    row["scores"]
        .as_array()?
        .iter()
        .find(|s| s["plugin"] == plugin)?["score"]
        .as_i64()
}
