//! Node failure: `fault: stop-node` stops a kubelet's heartbeats; the node lifecycle controller
//! marks the node NotReady and taints it `node.kubernetes.io/unreachable:NoExecute`; after the
//! pods' 300 s toleration the taint-eviction controller deletes the pod, which stays Terminating
//! on the stopped node while its replacement runs elsewhere; `fault: start-node` brings it back.

use kubeplay_core::api::value::Value;
use kubeplay_core::api::{resources::for_kind, Object};
use kubeplay_core::apiserver::{Request, Verb};
use kubeplay_core::cluster::{admin_credentials, Cluster};

const NGINX: &str = include_str!("../../public/scenarios/default.yaml");

fn kubectl(c: &mut Cluster, args: &[&str]) -> String {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let out = kubeplay_core::kubectl::run(c, &args);
    assert_eq!(out.exit_code, 0, "{}", out.stderr);
    out.stdout
}

fn node(c: &mut Cluster, name: &str) -> Object {
    let info = for_kind("v1", "Node").unwrap();
    let req = Request::new(Verb::Get, info, admin_credentials(), "test").name(name);
    c.request(&req).unwrap()
}

fn taints(n: &Object) -> Vec<(String, String)> {
    n.pointer("/spec/taints")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|t| {
            (
                t["key"].as_str().unwrap_or("").to_string(),
                t["effect"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// `kubectl get pods -o wide` rows as (name, status, node).
fn pods(c: &mut Cluster) -> Vec<(String, String, String)> {
    kubectl(c, &["get", "pods", "-o", "wide"])
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].into(), f[2].into(), f[6].into())
        })
        .collect()
}

/// The `STATUS` column of `kubectl get nodes` for one node.
fn node_status(c: &mut Cluster, name: &str) -> String {
    kubectl(c, &["get", "nodes"])
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or("")
        .to_string()
}

fn with_steps(steps: &str) -> String {
    format!("{NGINX}\n---\napiVersion: kubeplay/v1alpha1\nkind: Scenario\nsteps:\n{steps}")
}

#[test]
fn stopped_node_is_tainted_its_pod_evicted_and_replaced_then_it_recovers() {
    // Where the pods land (the run is deterministic, so the faulted run places them alike).
    let mut probe = Cluster::from_text("default.yaml", NGINX).unwrap();
    probe.run(Some(5_000));
    let placed = pods(&mut probe);
    assert_eq!(placed.len(), 3, "{placed:?}");
    let (victim_pod, _, victim) = placed[0].clone();

    let text = with_steps(&format!(
        "- at: 10s\n  fault: stop-node {victim}\n- at: 400s\n  fault: start-node {victim}\n"
    ));
    let mut c = Cluster::from_text("node-failure.yaml", &text).unwrap();
    c.run(Some(5_000));
    assert_eq!(pods(&mut c), placed, "same placement as without the fault");

    // 50 s without a Lease renewal, then the next 5 s monitor pass: NotReady and tainted.
    c.run(Some(70_000));
    assert_eq!(node_status(&mut c, &victim), "NotReady");
    let n = node(&mut c, &victim);
    let t = taints(&n);
    assert!(
        t.contains(&("node.kubernetes.io/unreachable".into(), "NoExecute".into())),
        "{t:?}"
    );
    assert!(
        t.contains(&("node.kubernetes.io/unreachable".into(), "NoSchedule".into())),
        "{t:?}"
    );
    let ready = n["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "Ready")
        .unwrap()
        .clone();
    assert_eq!(ready["status"], "Unknown");
    assert_eq!(ready["reason"], "NodeStatusUnknown");
    assert_eq!(ready["message"], "Kubelet stopped posting node status.");
    let timed = n["spec"]["taints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["effect"] == "NoExecute")
        .unwrap()
        .clone();
    assert!(timed["timeAdded"].is_string(), "{timed}");
    // MarkPodsNotReady: the pod's Ready condition is False; it is still there.
    let pod = kubectl(&mut c, &["get", "pod", &victim_pod, "-o", "json"]);
    let pod: Value = serde_json::from_str(&pod).unwrap();
    let pod_ready = pod["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "Ready")
        .unwrap()
        .clone();
    assert_eq!(pod_ready["status"], "False");
    assert_eq!(pods(&mut c).len(), 3);

    // Before the 300 s toleration runs out, nothing is evicted.
    c.run(Some(300_000));
    assert!(pods(&mut c).iter().all(|p| p.1 == "Running"));

    // Taint seen at about 50 s, tolerated 300 s: deleted at about 350 s. The kubelet cannot
    // finish the deletion, so the pod stays Terminating; its replacement runs elsewhere.
    c.run(Some(370_000));
    let rows = pods(&mut c);
    assert_eq!(rows.len(), 4, "{rows:?}");
    let old = rows.iter().find(|p| p.0 == victim_pod).unwrap();
    assert_eq!(old.1, "Terminating", "{rows:?}");
    let running: Vec<_> = rows.iter().filter(|p| p.1 == "Running").collect();
    assert_eq!(running.len(), 3, "{rows:?}");
    assert!(running.iter().all(|p| p.2 != victim), "{rows:?}");
    let events = kubectl(&mut c, &["get", "events"]);
    assert!(
        events.contains(&format!("Marking for deletion Pod default/{victim_pod}")),
        "{events}"
    );
    assert!(events.contains("TaintManagerEviction"), "{events}");

    // start-node at 400 s: Lease renewed, Ready posted, taints removed at the next pass; the
    // kubelet finishes the deletion it missed.
    c.run(Some(440_000));
    assert_eq!(node_status(&mut c, &victim), "Ready");
    assert!(taints(&node(&mut c, &victim)).is_empty());
    let rows = pods(&mut c);
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(rows.iter().all(|p| p.1 == "Running"), "{rows:?}");
    assert!(rows.iter().all(|p| p.0 != victim_pod), "{rows:?}");
}

#[test]
fn unknown_faults_and_nodes_are_error_steps() {
    let text =
        with_steps("- at: 1s\n  fault: stop-node node-9\n- at: 2s\n  fault: reboot-cluster now\n");
    let mut c = Cluster::from_text("bad-faults.yaml", &text).unwrap();
    c.run(Some(5_000));
    let errors: Vec<_> = c.outputs.iter().filter(|o| o.exit_code != 0).collect();
    assert_eq!(errors.len(), 2, "{:?}", c.outputs);
    assert!(
        errors[0].stderr.contains("node \"node-9\" not found"),
        "{:?}",
        errors[0]
    );
    assert!(
        errors[1]
            .stderr
            .contains("unknown fault \"reboot-cluster\""),
        "{:?}",
        errors[1]
    );
    // The rest of the run goes on.
    assert_eq!(pods(&mut c).len(), 3);
}

#[test]
fn a_short_stop_is_not_noticed() {
    let text =
        with_steps("- at: 10s\n  fault: stop-node node-1\n- at: 30s\n  fault: start-node node-1\n");
    let mut c = Cluster::from_text("short.yaml", &text).unwrap();
    c.run(Some(120_000));
    assert_eq!(node_status(&mut c, "node-1"), "Ready");
    assert!(taints(&node(&mut c, "node-1")).is_empty());
    assert!(pods(&mut c).iter().all(|p| p.1 == "Running"));
}
