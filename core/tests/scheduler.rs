//! kube-scheduler through the real cluster: scenarios with `kind: Node` documents and bare
//! Pods, the `schedule` trace record's node-by-plugin table, the FitError text on Pending pods,
//! retries on cluster events, taints, selectors, affinity and determinism.

use kubeplay_core::api::value::Value;

mod common;
use common::scheduling::*;

fn node(name: &str, cpu: &str, memory: &str, extra_meta: &str, spec: &str) -> String {
    format!(
        "apiVersion: v1
kind: Node
metadata:
  name: {name}
{extra_meta}spec:
{spec}  podCIDR: 10.244.0.0/24
status:
  capacity: {{cpu: \"{cpu}\", memory: {memory}, pods: \"110\"}}
  allocatable: {{cpu: \"{cpu}\", memory: {memory}, pods: \"110\"}}
---
"
    )
}

fn pod(name: &str, requests: &[(&str, &str)], spec: &str) -> String {
    let containers: String = requests
        .iter()
        .enumerate()
        .map(|(i, (cpu, mem))| {
            format!(
                "  - name: c{i}\n    image: nginx:1.27\n    resources:\n      requests: {{cpu: \"{cpu}\", memory: {mem}}}\n"
            )
        })
        .collect();
    format!(
        "apiVersion: v1
kind: Pod
metadata:
  name: {name}
  namespace: default
spec:
{spec}  containers:
{containers}---
"
    )
}

#[test]
fn least_allocated_case_1_scores_37_and_50() {
    // facts 5.2 case 1: two containers (1 + 2 cpu, 2 + 3 Gi) on nodes of 4 and 6 cpu, 10Gi.
    let text = node("node-1", "4", "10Gi", "", "")
        + &node("node-2", "6", "10Gi", "", "")
        + &pod("web", &[("1", "2Gi"), ("2", "3Gi")], "");
    let mut c = run(&text);
    let d = decisions(&c, "web");
    assert_eq!(d.len(), 1, "one decision");
    let d = &d[0];
    assert_eq!(d["component"], "kube-scheduler");
    assert_eq!(d["explain"], "schedule");
    let (n1, n2) = (row(d, "node-1"), row(d, "node-2"));
    assert_eq!(score(n1, "NodeResourcesFit"), Some(37));
    assert_eq!(score(n2, "NodeResourcesFit"), Some(50));
    assert_eq!(score(n1, "NodeResourcesBalancedAllocation"), Some(87));
    assert_eq!(score(n2, "NodeResourcesBalancedAllocation"), Some(100));
    assert_eq!(score(n1, "TaintToleration"), Some(100));
    // Weighted: TaintToleration 3 x 100 + Fit + Balanced.
    assert_eq!(n1["total"], 300 + 37 + 87);
    assert_eq!(n2["total"], 300 + 50 + 100);
    let weight = n1["scores"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["plugin"] == "TaintToleration")
        .unwrap()["weight"]
        .clone();
    assert_eq!(weight, 3);
    assert!(n1["filters"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f["ok"] == true && f["reason"].is_null()));
    assert_eq!(d["selected"], "node-2");
    assert_eq!(d["summary"], "web -> node-2 (score 450)");
    assert_eq!(d["object"], "Pod default/web");
    assert_eq!(node_of(&mut c, "web").as_deref(), Some("node-2"));
    let p = pod_named(&mut c, "web");
    assert_eq!(pod_scheduled(&p)["status"], "True");
    // The binding went through the API as the scheduler, and so did the Scheduled event.
    let bind = c
        .trace
        .records
        .iter()
        .find(|r| r.action == "request" && r.summary.ends_with("/pods/web/binding"))
        .expect("binding request");
    assert_eq!(
        bind.summary,
        "POST /api/v1/namespaces/default/pods/web/binding"
    );
    let ev = kubeplay_core::kubectl::run(
        &mut c,
        &["get".into(), "events".into(), "-o".into(), "json".into()],
    );
    let events: Value = serde_json::from_str(&ev.stdout).unwrap();
    let scheduled = events["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["reason"] == "Scheduled")
        .expect("Scheduled event");
    assert_eq!(
        scheduled["message"],
        "Successfully assigned default/web to node-2"
    );
    assert_eq!(scheduled["source"]["component"], "default-scheduler");
    assert_eq!(scheduled["type"], "Normal");
}

const FIT_ERROR: &str = "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.";

#[test]
fn a_pod_that_fits_nowhere_waits_then_lands_on_a_bigger_node() {
    let big = "apiVersion: v1
    kind: Node
    metadata:
      name: node-big
    spec:
      podCIDR: 10.244.9.0/24
    status:
      capacity: {cpu: \"16\", memory: 32Gi, pods: \"110\"}
      allocatable: {cpu: \"16\", memory: 32Gi, pods: \"110\"}
";
    let text = node("node-1", "4", "8Gi", "", "")
        + &node("node-2", "4", "8Gi", "", "")
        + &node("node-3", "4", "8Gi", "", "")
        + &pod("huge", &[("8", "1Gi")], "")
        + "apiVersion: kubeplay/v1alpha1\nkind: Scenario\nsteps:\n- at: 30s\n  kubectl: apply -f -\n  stdin: |\n    "
        + big;
    let mut c = cluster(&text);
    c.run(Some(20_000));
    let p = pod_named(&mut c, "huge");
    assert!(p["spec"]["nodeName"].is_null());
    assert_eq!(p["status"]["phase"], "Pending");
    let cond = pod_scheduled(&p);
    assert_eq!(cond["status"], "False");
    assert_eq!(cond["reason"], "Unschedulable");
    assert_eq!(cond["message"], FIT_ERROR);
    let d = decisions(&c, "huge");
    assert_eq!(d.len(), 1, "no retries without a cluster event: {d:?}");
    assert!(d[0]["selected"].is_null());
    assert_eq!(d[0]["summary"], format!("huge: {FIT_ERROR}"));
    let r = row(&d[0], "node-1");
    let fit = r["filters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["plugin"] == "NodeResourcesFit")
        .unwrap();
    assert_eq!(fit["ok"], false);
    assert_eq!(fit["reason"], "Insufficient cpu");
    assert!(r["total"].is_null());
    let ev = kubeplay_core::kubectl::run(
        &mut c,
        &["get".into(), "events".into(), "-o".into(), "json".into()],
    );
    let events: Value = serde_json::from_str(&ev.stdout).unwrap();
    let failed = events["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["reason"] == "FailedScheduling")
        .expect("FailedScheduling event");
    assert_eq!(failed["type"], "Warning");
    assert_eq!(failed["message"], FIT_ERROR);
    assert_eq!(failed["source"]["component"], "default-scheduler");
    // The new node is a cluster event: the pod is retried and fits.
    c.run(None);
    assert_eq!(node_of(&mut c, "huge").as_deref(), Some("node-big"));
    let d = decisions(&c, "huge");
    assert_eq!(d.len(), 2);
    assert_eq!(d[1]["selected"], "node-big");
    assert!(d[1]["t_ms"].as_u64().unwrap() >= 30_000);
    assert_eq!(pod_scheduled(&pod_named(&mut c, "huge"))["status"], "True");
}

const TAINT: &str = "  taints:\n  - {key: dedicated, value: gpu, effect: NoSchedule}\n";

#[test]
fn taints_keep_out_pods_that_do_not_tolerate_them() {
    let text = node("node-1", "8", "16Gi", "", TAINT)
        + &node("node-2", "4", "8Gi", "", "")
        + &pod("plain", &[("100m", "64Mi")], "")
        + &pod(
            "tolerant",
            &[("100m", "64Mi")],
            "  nodeSelector: {kubernetes.io/hostname: node-1}\n  tolerations:\n  - {key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}\n",
        );
    let mut c = run(&text);
    assert_eq!(node_of(&mut c, "plain").as_deref(), Some("node-2"));
    assert_eq!(node_of(&mut c, "tolerant").as_deref(), Some("node-1"));
    let d = &decisions(&c, "plain")[0];
    let tainted = row(d, "node-1");
    let tt = tainted["filters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["plugin"] == "TaintToleration")
        .unwrap();
    assert_eq!(tt["ok"], false);
    assert_eq!(tt["reason"], "node(s) had untolerated taint(s)");
    // One feasible node: chosen without scoring.
    assert_eq!(d["summary"], "plain -> node-2 (the only feasible node)");
    assert!(row(d, "node-2")["scores"].as_array().unwrap().is_empty());
}

#[test]
fn fit_error_counts_each_reason_and_preemption_says_why_not() {
    let text = node("node-1", "4", "8Gi", "", TAINT)
        + &node("node-2", "2", "8Gi", "", "")
        + &node("node-3", "2", "8Gi", "", "")
        + &pod("big", &[("3", "1Gi")], "");
    let mut c = run(&text);
    let cond = pod_scheduled(&pod_named(&mut c, "big"));
    assert_eq!(
        cond["message"],
        "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."
    );
}

#[test]
fn node_selector_picks_the_labelled_node() {
    let ssd = "  labels: {disk: ssd}\n";
    let text = node("node-1", "4", "8Gi", "", "")
        + &node("node-2", "4", "8Gi", "", "")
        + &node("node-3", "4", "8Gi", ssd, "")
        + &pod("db", &[("500m", "1Gi")], "  nodeSelector: {disk: ssd}\n")
        + &pod(
            "nowhere",
            &[("500m", "1Gi")],
            "  nodeSelector: {disk: nvme}\n",
        );
    let mut c = run(&text);
    assert_eq!(node_of(&mut c, "db").as_deref(), Some("node-3"));
    let d = &decisions(&c, "db")[0];
    let na = row(d, "node-1")["filters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["plugin"] == "NodeAffinity")
        .unwrap()
        .clone();
    assert_eq!(
        na["reason"],
        "node(s) didn't match Pod's node affinity/selector"
    );
    assert_eq!(
        pod_scheduled(&pod_named(&mut c, "nowhere"))["message"],
        "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
    );
}

#[test]
fn preferred_node_affinity_wins_on_equal_nodes() {
    let zone = |z: &str| format!("  labels: {{topology.kubernetes.io/zone: {z}}}\n");
    let affinity = "  affinity:
    nodeAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 80
        preference:
          matchExpressions:
          - {key: topology.kubernetes.io/zone, operator: In, values: [zone-b]}
";
    let text = node("node-1", "4", "8Gi", &zone("zone-a"), "")
        + &node("node-2", "4", "8Gi", &zone("zone-b"), "")
        + &node("node-3", "4", "8Gi", &zone("zone-c"), "")
        + &pod("web", &[("500m", "1Gi")], affinity);
    let mut c = run(&text);
    assert_eq!(node_of(&mut c, "web").as_deref(), Some("node-2"));
    let d = &decisions(&c, "web")[0];
    assert_eq!(score(row(d, "node-2"), "NodeAffinity"), Some(100));
    assert_eq!(score(row(d, "node-1"), "NodeAffinity"), Some(0));
    let t2 = row(d, "node-2")["total"].as_i64().unwrap();
    let t1 = row(d, "node-1")["total"].as_i64().unwrap();
    assert_eq!(t2 - t1, 200, "NodeAffinity weighs 2");
}

#[test]
fn later_pods_see_earlier_ones_and_the_same_seed_places_alike() {
    let mut text = node("node-1", "4", "8Gi", "", "")
        + &node("node-2", "4", "8Gi", "", "")
        + &node("node-3", "4", "8Gi", "", "");
    for i in 0..6 {
        text += &pod(&format!("p{i}"), &[("1", "1Gi")], "");
    }
    let placement = |seed: u64| {
        let mut c = run(&format!(
            "{text}apiVersion: kubeplay/v1alpha1\nkind: Scenario\nseed: {seed}\n"
        ));
        let mut out = Vec::new();
        for i in 0..6 {
            out.push(node_of(&mut c, &format!("p{i}")).expect("scheduled"));
        }
        let trace: Vec<Value> = c
            .trace
            .records
            .iter()
            .filter(|r| r.action == "schedule")
            .map(|r| r.to_json())
            .collect();
        (out, trace)
    };
    let (a, ta) = placement(7);
    let (b, tb) = placement(7);
    assert_eq!(a, b);
    assert_eq!(ta, tb);
    // Least allocated spreads them: each node gets two.
    for n in ["node-1", "node-2", "node-3"] {
        assert_eq!(a.iter().filter(|x| *x == n).count(), 2, "{a:?}");
    }
    // Across seeds the tie-breaks may differ, but the spread never does.
    for seed in [1, 2, 3] {
        let (p, _) = placement(seed);
        for n in ["node-1", "node-2", "node-3"] {
            assert_eq!(p.iter().filter(|x| *x == n).count(), 2, "{p:?}");
        }
    }
}

#[test]
fn required_anti_affinity_spreads_replicas() {
    let anti = "  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: web}}
        topologyKey: kubernetes.io/hostname
";
    let mut text = node("node-1", "4", "8Gi", "", "") + &node("node-2", "4", "8Gi", "", "");
    for i in 0..3 {
        text += &pod(&format!("web-{i}"), &[("100m", "64Mi")], anti).replace(
            "  namespace: default\n",
            "  namespace: default\n  labels: {app: web}\n",
        );
    }
    let mut c = run(&text);
    let placed: Vec<Option<String>> = (0..3)
        .map(|i| node_of(&mut c, &format!("web-{i}")))
        .collect();
    assert_eq!(
        placed.iter().filter(|p| p.is_some()).count(),
        2,
        "{placed:?}"
    );
    let pending = (0..3).find(|i| placed[*i].is_none()).unwrap();
    let msg = pod_scheduled(&pod_named(&mut c, &format!("web-{pending}")))["message"].clone();
    assert_eq!(
        msg,
        "0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod."
    );
}

#[test]
fn a_higher_priority_pod_preempts_and_lands_once_the_victim_is_gone() {
    let classes = "apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: high
value: 1000
---
";
    // The victim's shell ignores SIGTERM, so its kubelet waits out the 30 s grace period and
    // the victim is still there, terminating, until the forced delete.
    let low = pod("low", &[("3", "1Gi")], "").replace(
        "    image: nginx:1.27\n",
        "    image: busybox:1.36\n    command: [\"sh\", \"-c\", \"while true; do sleep 1; done\"]\n",
    );
    let high = pod("high", &[("3", "1Gi")], "  priorityClassName: high\n");
    let indented: String = high
        .trim_end_matches("---\n")
        .lines()
        .map(|l| format!("    {l}\n"))
        .collect();
    let text = node("node-1", "4", "8Gi", "", "")
        + classes
        + &low
        + &format!(
            "apiVersion: kubeplay/v1alpha1\nkind: Scenario\nsteps:\n- at: 5s\n  kubectl: apply -f -\n  stdin: |\n{indented}- at: 10s\n  kubectl: delete pod low --force\n"
        );
    let mut c = cluster(&text);
    c.run(Some(8_000));
    assert_eq!(node_of(&mut c, "low").as_deref(), Some("node-1"));
    let victim = pod_named(&mut c, "low");
    assert!(
        victim["metadata"]["deletionTimestamp"].is_string(),
        "the victim is being deleted"
    );
    let dt = victim["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "DisruptionTarget")
        .expect("DisruptionTarget")
        .clone();
    assert_eq!(dt["reason"], "PreemptionByScheduler");
    let preemptor = pod_named(&mut c, "high");
    assert_eq!(preemptor["status"]["nominatedNodeName"], "node-1");
    assert!(preemptor["spec"]["nodeName"].is_null());
    assert_eq!(
        pod_scheduled(&preemptor)["message"],
        "0/1 nodes are available: 1 Insufficient cpu."
    );
    let d = decisions(&c, "high");
    assert_eq!(d[0]["nominatedNode"], "node-1");
    assert_eq!(d[0]["victims"], kubeplay_core::json!(["default/low"]));
    // The kubelet's final delete (here forced): the preemptor lands on its nominated node.
    c.run(None);
    assert_eq!(node_of(&mut c, "high").as_deref(), Some("node-1"));
    assert!(pods_json(&mut c)
        .iter()
        .all(|p| p["metadata"]["name"] != "low"));
}

#[test]
fn replicaset_pods_are_spread_by_the_system_default_constraints() {
    let deployment = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        resources:
          requests: {cpu: 100m, memory: 128Mi}
";
    let text = node("node-1", "4", "8Gi", "", "")
        + &node("node-2", "4", "8Gi", "", "")
        + &node("node-3", "4", "8Gi", "", "")
        + deployment;
    let mut c = run(&text);
    let pods = pods_json(&mut c);
    assert_eq!(
        pods.len(),
        3,
        "the ReplicaSet controller creates the replicas"
    );
    let mut nodes: Vec<String> = pods
        .iter()
        .map(|p| {
            p["spec"]["nodeName"]
                .as_str()
                .expect("scheduled")
                .to_string()
        })
        .collect();
    nodes.sort();
    assert_eq!(nodes, ["node-1", "node-2", "node-3"]);
    let records: Vec<Value> = c
        .trace
        .records
        .iter()
        .filter(|r| r.action == "schedule")
        .map(|r| r.to_json())
        .collect();
    // From the second replica on, the spread score prefers the emptier nodes.
    let last = records.last().unwrap();
    let spread: Vec<i64> = last["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| score(n, "PodTopologySpread"))
        .collect();
    assert_eq!(spread.len(), 3, "{last}");
    assert_eq!(
        spread.iter().filter(|s| **s == 100).count(),
        1,
        "{spread:?}"
    );
}

#[test]
fn scheduling_gates_hold_a_pod_until_removed() {
    let gated = pod(
        "gated",
        &[("100m", "64Mi")],
        "  schedulingGates:\n  - name: example.com/wait\n",
    );
    let text = node("node-1", "4", "8Gi", "", "")
        + &gated
        + "apiVersion: kubeplay/v1alpha1\nkind: Scenario\nsteps:\n- at: 5s\n  kubectl: patch pod gated --type=json -p '[{\"op\":\"remove\",\"path\":\"/spec/schedulingGates\"}]'\n";
    let mut c = cluster(&text);
    c.run(Some(4_000));
    assert!(decisions(&c, "gated").is_empty());
    assert!(node_of(&mut c, "gated").is_none());
    c.run(None);
    let out = c
        .outputs
        .iter()
        .find(|o| o.command.contains("patch"))
        .unwrap();
    assert_eq!(out.exit_code, 0, "{}", out.stderr);
    assert_eq!(node_of(&mut c, "gated").as_deref(), Some("node-1"));
    assert_eq!(decisions(&c, "gated").len(), 1);
}

#[test]
fn a_deleted_pod_frees_room_for_a_waiting_one() {
    let text = node("node-1", "4", "8Gi", "", "")
        + &pod("first", &[("3", "1Gi")], "")
        + &pod("second", &[("3", "1Gi")], "")
        + "apiVersion: kubeplay/v1alpha1\nkind: Scenario\nsteps:\n- at: 20s\n  kubectl: delete pod first --force\n";
    let mut c = cluster(&text);
    c.run(Some(15_000));
    assert_eq!(node_of(&mut c, "first").as_deref(), Some("node-1"));
    assert!(node_of(&mut c, "second").is_none());
    assert_eq!(
        pod_scheduled(&pod_named(&mut c, "second"))["message"],
        "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."
    );
    c.run(None);
    assert_eq!(node_of(&mut c, "second").as_deref(), Some("node-1"));
    let d = decisions(&c, "second");
    assert_eq!(d.len(), 2, "retried once, on the deletion");
    assert!(d[1]["t_ms"].as_u64().unwrap() >= 20_000);
}

#[test]
fn the_scheduler_identity_may_do_what_it_does() {
    // `can-i` reads `pods/binding` as the pod named "binding", as kubectl does; the binding and
    // status writes are shown to succeed by the scheduling tests (201 and 200 responses).
    let mut c = cluster(&node("node-1", "4", "8Gi", "", ""));
    for args in [
        "list pods",
        "watch pods",
        "list nodes",
        "watch nodes",
        "list replicasets.apps",
        "list services",
        "create events",
        "delete pods",
    ] {
        let mut argv: Vec<String> = vec!["auth".into(), "can-i".into()];
        argv.extend(args.split(' ').map(String::from));
        argv.push("--as=system:kube-scheduler".into());
        let out = kubeplay_core::kubectl::run(&mut c, &argv);
        assert_eq!(out.stdout.trim(), "yes", "can-i {args}: {}", out.stderr);
    }
    let mut argv: Vec<String> = ["auth", "can-i", "create", "deployments.apps"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    argv.push("--as=system:kube-scheduler".into());
    assert_eq!(
        kubeplay_core::kubectl::run(&mut c, &argv).stdout.trim(),
        "no"
    );
}

#[test]
fn big_clusters_stop_after_enough_feasible_nodes_and_rotate_the_start() {
    // 150 nodes: numFeasibleNodesToFind is 100, and the next search starts where this one ended.
    let mut text = String::new();
    for i in 0..150 {
        text += &node(&format!("n{i:03}"), "4", "8Gi", "", "");
    }
    text += &pod("a", &[("100m", "64Mi")], "");
    text += &pod("b", &[("100m", "64Mi")], "");
    let c = run(&text);
    let names = |pod: &str| -> Vec<String> {
        decisions(&c, pod)[0]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["node"].as_str().unwrap().to_string())
            .collect()
    };
    let a = names("a");
    assert_eq!(a.len(), 100);
    assert_eq!(a.first().map(String::as_str), Some("n000"));
    assert_eq!(a.last().map(String::as_str), Some("n099"));
    let b = names("b");
    assert_eq!(b.len(), 100);
    // Rows are in node order: n000..n049 (the wrap-around) and n100..n149.
    assert!(b.contains(&"n100".to_string()) && b.contains(&"n149".to_string()));
    assert!(b.contains(&"n049".to_string()) && !b.contains(&"n050".to_string()));
}
