//! Determinism: the same scenario and seed give the same trace. Each scenario of the share
//! vectors (the gallery and the test scenarios) is run twice here, and its trace digest is
//! checked in; `app/tests/determinism.rs` runs the same scenarios in headless Chromium and
//! must get the same digests. `UPDATE_GOLDEN=1 cargo test -p kubeplay-core --test determinism`
//! rewrites them.

use kubeplay_core::api::value::{json, Value};
use kubeplay_core::cluster::Cluster;

const VECTORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/share/vectors.json");
const DIGESTS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/share/trace_digests.json"
);

/// The run the browser test repeats: the scenario to quiet (at most 10 virtual minutes).
fn digest(name: &str, text: &str) -> (String, u64, usize) {
    let mut c = Cluster::from_text(name, text).unwrap();
    c.run(None);
    (c.trace.digest(), c.now(), c.trace.records.len())
}

#[test]
fn every_scenario_runs_identically_twice_and_matches_the_recorded_digest() {
    let vectors: Value = serde_json::from_str(&std::fs::read_to_string(VECTORS).unwrap()).unwrap();
    let mut digests = Vec::new();
    for v in vectors.as_array().unwrap() {
        let (name, text) = (v["name"].as_str().unwrap(), v["text"].as_str().unwrap());
        let first = digest(name, text);
        assert_eq!(first, digest(name, text), "{name}: two runs differ");
        digests
            .push(json!({"name": name, "digest": first.0, "end_ms": first.1, "records": first.2}));
    }
    let got = serde_json::to_string_pretty(&Value::Array(digests)).unwrap() + "\n";
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(DIGESTS, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(DIGESTS)
        .unwrap_or_else(|_| panic!("{DIGESTS} missing: run with UPDATE_GOLDEN=1"));
    assert_eq!(
        got, want,
        "a trace changed; rerun with UPDATE_GOLDEN=1 if the change is intended (the browser test reads the same file)"
    );
}

#[test]
fn a_cluster_started_in_slices_runs_as_one_started_at_once() {
    let vectors: Value = serde_json::from_str(&std::fs::read_to_string(VECTORS).unwrap()).unwrap();
    for v in vectors.as_array().unwrap() {
        let (name, text) = (v["name"].as_str().unwrap(), v["text"].as_str().unwrap());
        let scenario = kubeplay_core::scenario::parse(name, text).unwrap();
        let mut sliced = Cluster::starting(scenario.clone());
        let mut slices = 1;
        // Out of time after every component: one started per call.
        while !sliced.start_some(&mut || true) {
            assert!(!sliced.started(), "{name}");
            slices += 1;
        }
        assert!(sliced.started(), "{name}");
        let nodes = kubeplay_core::cluster::node_names(&scenario).len();
        assert!(
            slices > 4 * nodes,
            "{name}: {slices} slices; at least a Node, a Lease, a kubelet and a kube-proxy per node"
        );
        sliced.run(None);
        let mut whole = Cluster::new(scenario);
        whole.run(None);
        assert_eq!(sliced.trace.digest(), whole.trace.digest(), "{name}");
        assert_eq!(sliced.now(), whole.now(), "{name}");
    }
}
