//! The scheduler's scores checked against Kubernetes' own test tables (facts 5.2 to 5.5), run
//! end to end: Nodes and Pods from a scenario text, existing pods bound with `spec.nodeName`,
//! the incoming pod scheduled by the real scheduler, and the `schedule` trace record's
//! per-node, per-plugin normalized scores read back. Then a few placement tests: a toleration
//! on the best node, required node affinity that matches nothing, explicit topology spread and
//! required pod affinity.
//!
//! Units follow the Kubernetes tables: cpu in millicores (`4000m`), memory in bytes (`10000`).
//! Only the ratios matter there, but here the 100m / 200Mi defaults for containers without a
//! request are real quantities, so the tables' request-less pods are written with explicit
//! zero requests (which Kubernetes keeps at zero, as the tables assume); the defaults have a
//! test of their own.

use kubeplay_core::api::value::Value;
use kubeplay_core::cluster::Cluster;

mod common;
use common::scheduling::*;

const FIT: &str = "NodeResourcesFit";
const BALANCED: &str = "NodeResourcesBalancedAllocation";
const TAINTS: &str = "TaintToleration";
const NODE_AFFINITY: &str = "NodeAffinity";

/// The tables' `cpuOnly` pod: 1000m + 2000m cpu, memory explicitly 0.
const CPU_ONLY: &[&str] = &["{cpu: 1000m, memory: \"0\"}", "{cpu: 2000m, memory: \"0\"}"];
/// The tables' `cpuAndMemory` pod: 1000m + 2000m cpu, 2000 + 3000 bytes.
const CPU_AND_MEMORY: &[&str] = &[
    "{cpu: 1000m, memory: \"2000\"}",
    "{cpu: 2000m, memory: \"3000\"}",
];
/// The tables' pod that requests nothing. The tables' numbers (cpu 40 in case 2, 100 in case 7)
/// mean that pod adds nothing, not the defaults: it has no containers. A real pod needs one,
/// and explicit zeros keep its requests at zero for scoring too (`applyNonMissing` only fills
/// in requests that are missing).
const NOTHING: &[&str] = &["{cpu: \"0\", memory: \"0\"}"];
/// One container without any `resources`: counts as 100m and 200Mi when scoring.
const NO_REQUESTS: &[&str] = &[""];

/// A Node with this allocatable cpu and memory (and room for 110 pods); `extra_meta` and
/// `spec` are indented YAML lines (labels, taints).
fn node(name: &str, cpu: &str, memory: &str, extra_meta: &str, spec: &str) -> String {
    format!(
        "apiVersion: v1
kind: Node
metadata:
  name: {name}
{extra_meta}spec:
{spec}  podCIDR: 10.244.0.0/24
status:
  capacity: {{cpu: \"{cpu}\", memory: \"{memory}\", pods: \"110\"}}
  allocatable: {{cpu: \"{cpu}\", memory: \"{memory}\", pods: \"110\"}}
---
"
    )
}

/// A Pod with one container per entry of `requests` (a YAML flow mapping for
/// `resources.requests`, or "" for a container without resources). `extra_meta` and `spec`
/// are indented YAML lines.
fn pod(name: &str, extra_meta: &str, requests: &[&str], spec: &str) -> String {
    let containers: String = requests
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let resources = if r.is_empty() {
                String::new()
            } else {
                format!("    resources:\n      requests: {r}\n")
            };
            format!("  - name: c{i}\n    image: nginx:1.27\n{resources}")
        })
        .collect();
    format!(
        "apiVersion: v1
kind: Pod
metadata:
  name: {name}
  namespace: default
{extra_meta}spec:
{spec}  containers:
{containers}---
"
    )
}

/// A pod already bound to `node` (`spec.nodeName`): the scheduler only counts it.
fn bound(name: &str, node: &str, requests: &[&str]) -> String {
    pod(name, "", requests, &format!("  nodeName: {node}\n"))
}

fn labels(l: &str) -> String {
    format!("  labels: {{{l}}}\n")
}

/// The one decision about the pod.
fn decision(c: &Cluster, pod: &str) -> Value {
    let d = decisions(c, pod);
    assert_eq!(d.len(), 1, "one decision about {pod}: {d:?}");
    d.into_iter().next().unwrap()
}

/// One plugin's normalized score on each of the nodes, in the given order.
fn scores(decision: &Value, plugin: &str, nodes: &[&str]) -> Vec<Option<i64>> {
    nodes
        .iter()
        .map(|n| score(row(decision, n), plugin))
        .collect()
}

/// The filter verdict of one plugin on one node's row: `None` if it passed.
fn filter_reason(row: &Value, plugin: &str) -> Option<String> {
    let f = row["filters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["plugin"] == plugin)
        .unwrap_or_else(|| panic!("no {plugin} filter in {row}"));
    f["reason"].as_str().map(str::to_string)
}

// ---- NodeResourcesFit, LeastAllocated (facts 5.2) ----

#[test]
fn least_allocated_case_1_in_raw_units_scores_37_and_50() {
    // scheduler.rs checks this case in cores and Gi; here in the table's own units.
    // node1: cpu (4000-3000)*100/4000 = 25, memory (10000-5000)*100/10000 = 50, (25+50)/2 = 37.
    // node2: cpu (6000-3000)*100/6000 = 50, memory 50: 50.
    let text = node("node1", "4000m", "10000", "", "")
        + &node("node2", "6000m", "10000", "", "")
        + &pod("incoming", "", CPU_AND_MEMORY, "");
    let c = run(&text);
    let d = decision(&c, "incoming");
    assert_eq!(scores(&d, FIT, &["node1", "node2"]), [Some(37), Some(50)]);
    // Balanced allocation case 1 on the same nodes: fractions 0.75/0.5 and 0.5/0.5.
    assert_eq!(
        scores(&d, BALANCED, &["node1", "node2"]),
        [Some(87), Some(100)]
    );
    assert_eq!(d["selected"], "node2");
}

#[test]
fn least_allocated_case_2_nothing_requested_scores_70_and_57() {
    // Existing pods: node1 cpuOnly x2, node2 cpuOnly + cpuAndMemory; nodes 10000m / 20000.
    // node1: cpu (10000-6000)*100/10000 = 40, memory 100: (40+100)/2 = 70.
    // node2: cpu 40, memory (20000-5000)*100/20000 = 75: (40+75)/2 = 57.
    let text = node("node1", "10000m", "20000", "", "")
        + &node("node2", "10000m", "20000", "", "")
        + &bound("existing-1a", "node1", CPU_ONLY)
        + &bound("existing-1b", "node1", CPU_ONLY)
        + &bound("existing-2a", "node2", CPU_ONLY)
        + &bound("existing-2b", "node2", CPU_AND_MEMORY)
        + &pod("incoming", "", NOTHING, "");
    let mut c = run(&text);
    let d = decision(&c, "incoming");
    assert_eq!(scores(&d, FIT, &["node1", "node2"]), [Some(70), Some(57)]);
    assert_eq!(node_of(&mut c, "incoming").as_deref(), Some("node1"));
    // The bound pods were admitted by their kubelets: they are counted, not rejected.
    for p in ["existing-1a", "existing-1b", "existing-2a", "existing-2b"] {
        assert_eq!(pod_named(&mut c, p)["status"]["phase"], "Running", "{p}");
    }
    // They were never scheduled: only the incoming pod has a decision.
    let all = c.trace.records.iter().filter(|r| r.action == "schedule");
    assert_eq!(all.count(), 1);
}

#[test]
fn least_allocated_case_3_scores_57_and_45() {
    // node1 has cpuOnly, node2 cpuAndMemory; the incoming pod is cpuAndMemory; 10000m / 20000.
    // node1: cpu (10000-6000)*100/10000 = 40, memory (20000-5000)*100/20000 = 75: 57.
    // node2: cpu 40, memory (20000-10000)*100/20000 = 50: 45.
    let text = node("node1", "10000m", "20000", "", "")
        + &node("node2", "10000m", "20000", "", "")
        + &bound("existing-1", "node1", CPU_ONLY)
        + &bound("existing-2", "node2", CPU_AND_MEMORY)
        + &pod("incoming", "", CPU_AND_MEMORY, "");
    let c = run(&text);
    let d = decision(&c, "incoming");
    assert_eq!(scores(&d, FIT, &["node1", "node2"]), [Some(57), Some(45)]);
}

#[test]
fn least_allocated_case_4_bigger_memory_scores_57_and_60() {
    // As case 3, but node2 has 50000 bytes: memory (50000-10000)*100/50000 = 80, (40+80)/2 = 60.
    let text = node("node1", "10000m", "20000", "", "")
        + &node("node2", "10000m", "50000", "", "")
        + &bound("existing-1", "node1", CPU_ONLY)
        + &bound("existing-2", "node2", CPU_AND_MEMORY)
        + &pod("incoming", "", CPU_AND_MEMORY, "");
    let mut c = run(&text);
    let d = decision(&c, "incoming");
    assert_eq!(scores(&d, FIT, &["node1", "node2"]), [Some(57), Some(60)]);
    assert_eq!(node_of(&mut c, "incoming").as_deref(), Some("node2"));
}

#[test]
fn least_allocated_case_5_requests_over_capacity_score_0_for_that_resource() {
    // The table (nodes 4000m / 10000, node1 has cpuOnly, node2 cpuAndMemory, incoming cpuOnly)
    // calls Score directly; through the scheduler that pod fails the Fit filter on both nodes
    // (3000m wanted, 1000m free), so it is never scored. In a real cluster the scored request
    // can only exceed allocatable through the 100m default for a container without a cpu
    // request, since Filter uses the real requests. So the incoming pod here really requests
    // 1000m (fits exactly) and has a second container without a cpu request: 1100m for
    // scoring. Memory is explicitly 0, as in the table.
    // node1: cpu 3000+1100 > 4000 gives 0, memory 100: (0+100)/2 = 50.
    // node2: cpu 0, memory (10000-5000)*100/10000 = 50: (0+50)/2 = 25.
    let incoming: &[&str] = &["{cpu: 1000m, memory: \"0\"}", "{memory: \"0\"}"];
    let text = node("node1", "4000m", "10000", "", "")
        + &node("node2", "4000m", "10000", "", "")
        + &bound("existing-1", "node1", CPU_ONLY)
        + &bound("existing-2", "node2", CPU_AND_MEMORY)
        + &pod("incoming", "", incoming, "");
    let mut c = run(&text);
    let d = decision(&c, "incoming");
    for n in ["node1", "node2"] {
        assert_eq!(filter_reason(row(&d, n), FIT), None, "fits on {n}");
    }
    assert_eq!(scores(&d, FIT, &["node1", "node2"]), [Some(50), Some(25)]);
    // Balanced allocation uses the real 1000m: cpu fraction 1.0 on both, memory 0 and 0.5.
    assert_eq!(
        scores(&d, BALANCED, &["node1", "node2"]),
        [Some(50), Some(75)]
    );
    // Both totals are 300 + 50 + 50 = 300 + 25 + 75: a tie, broken at random.
    assert_eq!(row(&d, "node1")["total"], row(&d, "node2")["total"]);
    assert!(node_of(&mut c, "incoming").is_some(), "it is bound");
}

#[test]
fn least_allocated_case_6_memory_weight_2_scores_41_and_50() {
    // The scheduler's own configuration file, as kube-scheduler --config reads it.
    // node1: (25*1 + 50*2)/3 = 41; node2: (50*1 + 50*2)/3 = 50.
    let config = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n\
        profiles:\n- schedulerName: default-scheduler\n  pluginConfig:\n  - name: NodeResourcesFit\n\
        \x20   args:\n      scoringStrategy:\n        type: LeastAllocated\n        resources:\n\
        \x20       - {name: cpu, weight: 1}\n        - {name: memory, weight: 2}\n---\n";
    let text = config.to_string()
        + &node("node1", "4000m", "10000", "", "")
        + &node("node2", "6000m", "10000", "", "")
        + &pod("incoming", "", CPU_AND_MEMORY, "");
    let c = run(&text);
    let d = decision(&c, "incoming");
    assert_eq!(scores(&d, FIT, &["node1", "node2"]), [Some(41), Some(50)]);
}

#[test]
fn a_resource_weight_out_of_range_is_refused_with_its_field() {
    let text = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n\
        profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n\
        \x20     scoringStrategy:\n        resources:\n        - {name: memory, weight: 0}\n";
    let e = Cluster::from_text("s.yaml", text).err().expect("refused");
    assert_eq!(
        e.to_string(),
        "s.yaml:1:1: profiles[0].pluginConfig[0].args.scoringStrategy.resources[0].weight: Invalid value: 0: resource weight of memory not in valid range [1, 100]"
    );
}

#[test]
fn least_allocated_case_7_nothing_requested_on_empty_nodes_scores_100() {
    let text = node("node1", "4000m", "10000", "", "")
        + &node("node2", "4000m", "10000", "", "")
        + &pod("incoming", "", NOTHING, "");
    let c = run(&text);
    let d = decision(&c, "incoming");
    assert_eq!(scores(&d, FIT, &["node1", "node2"]), [Some(100), Some(100)]);
}

#[test]
fn a_container_without_requests_counts_100m_and_200mi_for_scoring_only() {
    // Case 7's nodes with a pod whose container sets no requests: scoring counts 100m and
    // 200Mi, so cpu (4000-100)*100/4000 = 97 and memory 200Mi > 10000 bytes gives 0:
    // (97+0)/2 = 48. Filter uses the real (zero) requests, so the pod still fits.
    let text = node("node1", "4000m", "10000", "", "")
        + &node("node2", "4000m", "1000Mi", "", "")
        + &pod("incoming", "", NO_REQUESTS, "");
    let mut c = run(&text);
    let d = decision(&c, "incoming");
    assert_eq!(filter_reason(row(&d, "node1"), FIT), None);
    // node2: memory (1000Mi-200Mi)*100/1000Mi = 80: (97+80)/2 = 88.
    assert_eq!(scores(&d, FIT, &["node1", "node2"]), [Some(48), Some(88)]);
    // It requests nothing for real: best effort, BalancedAllocation skips it.
    assert_eq!(scores(&d, BALANCED, &["node1", "node2"]), [None, None]);
    assert_eq!(node_of(&mut c, "incoming").as_deref(), Some("node2"));
}

// ---- NodeResourcesBalancedAllocation (facts 5.3) ----
// Case 1 (87 and 100) is checked by scheduler.rs and by the raw-units LeastAllocated case 1.

#[test]
fn balanced_allocation_case_2_scores_82_and_95() {
    // Nodes 10000m / 20000; node1 has cpuOnly, node2 cpuAndMemory; incoming cpuAndMemory.
    // node1: 0.6 and 0.25, std 0.175: 82. node2: 0.6 and 0.5, std 0.05: 95.
    let text = node("node1", "10000m", "20000", "", "")
        + &node("node2", "10000m", "20000", "", "")
        + &bound("existing-1", "node1", CPU_ONLY)
        + &bound("existing-2", "node2", CPU_AND_MEMORY)
        + &pod("incoming", "", CPU_AND_MEMORY, "");
    let c = run(&text);
    let d = decision(&c, "incoming");
    assert_eq!(
        scores(&d, BALANCED, &["node1", "node2"]),
        [Some(82), Some(95)]
    );
}

#[test]
fn balanced_allocation_case_3_bigger_memory_scores_82_and_80() {
    // node2 with 50000 bytes: 0.6 and 0.2, std 0.2: 80.
    let text = node("node1", "10000m", "20000", "", "")
        + &node("node2", "10000m", "50000", "", "")
        + &bound("existing-1", "node1", CPU_ONLY)
        + &bound("existing-2", "node2", CPU_AND_MEMORY)
        + &pod("incoming", "", CPU_AND_MEMORY, "");
    let c = run(&text);
    let d = decision(&c, "incoming");
    assert_eq!(
        scores(&d, BALANCED, &["node1", "node2"]),
        [Some(82), Some(80)]
    );
}

#[test]
fn balanced_allocation_case_4_cpu_only_pod_scores_50_and_75() {
    // Nodes 6000m / 10000, same existing pods, incoming cpuOnly (it fills the cpu exactly).
    // node1: 1.0 and 0, std 0.5: 50. node2: 1.0 and 0.5, std 0.25: 75.
    let text = node("node1", "6000m", "10000", "", "")
        + &node("node2", "6000m", "10000", "", "")
        + &bound("existing-1", "node1", CPU_ONLY)
        + &bound("existing-2", "node2", CPU_AND_MEMORY)
        + &pod("incoming", "", CPU_ONLY, "");
    let c = run(&text);
    let d = decision(&c, "incoming");
    assert_eq!(
        scores(&d, BALANCED, &["node1", "node2"]),
        [Some(50), Some(75)]
    );
    // LeastAllocated on the same nodes: cpu 0 on both, memory 100 and 50.
    assert_eq!(scores(&d, FIT, &["node1", "node2"]), [Some(50), Some(25)]);
}

#[test]
fn balanced_allocation_case_5_pod_without_requests_is_not_scored() {
    // PreScore returns Skip for a pod that requests nothing: the plugin has no entry in the
    // score list of any node (and adds nothing to the total), while the others still score.
    let text = node("node1", "4000m", "10000", "", "")
        + &node("node2", "6000m", "10000", "", "")
        + &bound("existing-1", "node1", CPU_AND_MEMORY)
        + &pod("incoming", "", NOTHING, "");
    let c = run(&text);
    let d = decision(&c, "incoming");
    assert_eq!(scores(&d, BALANCED, &["node1", "node2"]), [None, None]);
    // node1: cpu (4000-3000)*100/4000 = 25, memory 50: 37; node2: 100 and 100.
    assert_eq!(scores(&d, FIT, &["node1", "node2"]), [Some(37), Some(100)]);
    let r = row(&d, "node1");
    let weighted: i64 = r["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["score"].as_i64().unwrap() * s["weight"].as_i64().unwrap())
        .sum();
    assert_eq!(r["total"], weighted);
}

// ---- TaintToleration normalization (facts 5.4) ----

/// A node spec with these PreferNoSchedule taint keys.
fn prefer_no_schedule(keys: &[&str]) -> String {
    if keys.is_empty() {
        return String::new();
    }
    let taints: String = keys
        .iter()
        .map(|k| format!("  - {{key: {k}, value: \"true\", effect: PreferNoSchedule}}\n"))
        .collect();
    format!("  taints:\n{taints}")
}

/// Nodes n0.. of equal size carrying the given PreferNoSchedule taints, then the pod.
fn tainted_nodes(taints: &[&[&str]], pod_spec: &str) -> String {
    let mut text = String::new();
    for (i, keys) in taints.iter().enumerate() {
        text += &node(&format!("n{i}"), "4", "8Gi", "", &prefer_no_schedule(keys));
    }
    text + &pod("incoming", "", &["{cpu: 100m, memory: 64Mi}"], pod_spec)
}

#[test]
fn taint_toleration_0_1_2_untolerated_taints_score_100_50_0() {
    let c = run(&tainted_nodes(&[&[], &["a"], &["a", "b"]], ""));
    let d = decision(&c, "incoming");
    assert_eq!(
        scores(&d, TAINTS, &["n0", "n1", "n2"]),
        [Some(100), Some(50), Some(0)]
    );
    // PreferNoSchedule does not filter: all three are feasible; weight 3 makes n0 win.
    assert_eq!(d["selected"], "n0");
    assert_eq!(filter_reason(row(&d, "n2"), TAINTS), None);
}

#[test]
fn taint_toleration_three_levels_use_integer_division_100_67_34_0() {
    // max 3: 100 - 100*1/3 = 67, 100 - 100*2/3 = 34, 0.
    let c = run(&tainted_nodes(
        &[&[], &["a"], &["a", "b"], &["a", "b", "c"]],
        "",
    ));
    let d = decision(&c, "incoming");
    assert_eq!(
        scores(&d, TAINTS, &["n0", "n1", "n2", "n3"]),
        [Some(100), Some(67), Some(34), Some(0)]
    );
}

#[test]
fn taint_toleration_no_untolerated_taints_scores_100_everywhere() {
    let c = run(&tainted_nodes(&[&[], &[], &[]], ""));
    let d = decision(&c, "incoming");
    assert_eq!(
        scores(&d, TAINTS, &["n0", "n1", "n2"]),
        [Some(100), Some(100), Some(100)]
    );
}

#[test]
fn taint_toleration_a_tolerated_taint_is_not_counted() {
    // Tolerating `a` leaves counts 0, 0, 1: max 1, so 100, 100, 0.
    let tol = "  tolerations:\n  - {key: a, operator: Exists, effect: PreferNoSchedule}\n";
    let c = run(&tainted_nodes(&[&[], &["a"], &["a", "b"]], tol));
    let d = decision(&c, "incoming");
    assert_eq!(
        scores(&d, TAINTS, &["n0", "n1", "n2"]),
        [Some(100), Some(100), Some(0)]
    );
    // A toleration without an effect counts too; tolerating both leaves all at 100.
    let tol = "  tolerations:\n  - {key: a, operator: Exists}\n  - {key: b, operator: Equal, value: \"true\"}\n";
    let c = run(&tainted_nodes(&[&[], &["a"], &["a", "b"]], tol));
    let d = decision(&c, "incoming");
    assert_eq!(
        scores(&d, TAINTS, &["n0", "n1", "n2"]),
        [Some(100), Some(100), Some(100)]
    );
}

#[test]
fn taint_toleration_a_no_schedule_toleration_does_not_soften_prefer_no_schedule() {
    // Only tolerations with effect PreferNoSchedule or none count when scoring.
    let tol = "  tolerations:\n  - {key: a, operator: Exists, effect: NoSchedule}\n";
    let c = run(&tainted_nodes(&[&[], &["a"], &["a", "b"]], tol));
    let d = decision(&c, "incoming");
    assert_eq!(
        scores(&d, TAINTS, &["n0", "n1", "n2"]),
        [Some(100), Some(50), Some(0)]
    );
}

// ---- NodeAffinity normalization (facts 5.5) ----

fn zone(z: &str) -> String {
    labels(&format!("topology.kubernetes.io/zone: {z}"))
}

/// Preferred node affinity terms, each (weight, zone).
fn preferred(terms: &[(i64, &str)]) -> String {
    let terms: String = terms
        .iter()
        .map(|(w, z)| {
            format!(
                "      - weight: {w}
        preference:
          matchExpressions:
          - {{key: topology.kubernetes.io/zone, operator: In, values: [{z}]}}
"
            )
        })
        .collect();
    format!("  affinity:\n    nodeAffinity:\n      preferredDuringSchedulingIgnoredDuringExecution:\n{terms}")
}

fn zoned_nodes() -> String {
    node("node-a", "4", "8Gi", &zone("zone-a"), "")
        + &node("node-b", "4", "8Gi", &zone("zone-b"), "")
        + &node("node-c", "4", "8Gi", &zone("zone-c"), "")
}

const ZONED: &[&str] = &["node-a", "node-b", "node-c"];

#[test]
fn node_affinity_weights_20_and_80_normalize_to_25_100_and_0() {
    let text = zoned_nodes()
        + &pod(
            "incoming",
            "",
            &["{cpu: 100m, memory: 64Mi}"],
            &preferred(&[(20, "zone-a"), (80, "zone-b")]),
        );
    let mut c = run(&text);
    let d = decision(&c, "incoming");
    // 100*20/80 = 25, 100*80/80 = 100, nothing matched: 0.
    assert_eq!(
        scores(&d, NODE_AFFINITY, ZONED),
        [Some(25), Some(100), Some(0)]
    );
    assert_eq!(node_of(&mut c, "incoming").as_deref(), Some("node-b"));
}

#[test]
fn node_affinity_a_node_matching_two_terms_sums_their_weights() {
    // Terms 20 (zone-a) and 80 (zone a or b): node-a has 100, node-b 80, node-c 0.
    let text = zoned_nodes()
        + &pod(
            "incoming",
            "",
            &["{cpu: 100m, memory: 64Mi}"],
            &preferred(&[(20, "zone-a"), (80, "zone-a, zone-b")]),
        );
    let mut c = run(&text);
    let d = decision(&c, "incoming");
    assert_eq!(
        scores(&d, NODE_AFFINITY, ZONED),
        [Some(100), Some(80), Some(0)]
    );
    assert_eq!(node_of(&mut c, "incoming").as_deref(), Some("node-a"));
}

#[test]
fn node_affinity_no_node_matching_scores_0_everywhere() {
    let text = zoned_nodes()
        + &pod(
            "incoming",
            "",
            &["{cpu: 100m, memory: 64Mi}"],
            &preferred(&[(20, "zone-x"), (80, "zone-y")]),
        );
    let c = run(&text);
    let d = decision(&c, "incoming");
    assert_eq!(
        scores(&d, NODE_AFFINITY, ZONED),
        [Some(0), Some(0), Some(0)]
    );
}

// ---- Placement ----

#[test]
fn a_tolerating_pod_lands_on_the_tainted_node_when_it_fits_best() {
    // node-big (NoSchedule taint) has the most room; only the tolerating pod may go there.
    let taint = "  taints:\n  - {key: dedicated, value: batch, effect: NoSchedule}\n";
    let tol =
        "  tolerations:\n  - {key: dedicated, operator: Equal, value: batch, effect: NoSchedule}\n";
    let req: &[&str] = &["{cpu: 500m, memory: 512Mi}"];
    let text = node("node-big", "16", "32Gi", "", taint)
        + &node("node-1", "4", "8Gi", "", "")
        + &node("node-2", "4", "8Gi", "", "")
        + &pod("tolerant", "", req, tol)
        + &pod("plain", "", req, "");
    let mut c = run(&text);
    assert_eq!(node_of(&mut c, "tolerant").as_deref(), Some("node-big"));
    let d = decision(&c, "tolerant");
    assert_eq!(filter_reason(row(&d, "node-big"), TAINTS), None);
    // A NoSchedule taint does not lower the score: all three are 100 for TaintToleration, and
    // LeastAllocated decides (cpu 96, memory 98: 97 against 87 and 93: 90).
    assert_eq!(
        scores(&d, TAINTS, &["node-big", "node-1", "node-2"]),
        [Some(100), Some(100), Some(100)]
    );
    assert_eq!(
        scores(&d, FIT, &["node-big", "node-1", "node-2"]),
        [Some(97), Some(90), Some(90)]
    );
    let plain = node_of(&mut c, "plain").expect("plain is scheduled");
    assert_ne!(plain, "node-big");
    let d = decision(&c, "plain");
    assert_eq!(
        filter_reason(row(&d, "node-big"), TAINTS).as_deref(),
        Some("node(s) had untolerated taint(s)")
    );
}

#[test]
fn a_prefer_no_schedule_taint_outweighs_a_better_fit_unless_tolerated() {
    // Weight 3 x 100 beats any LeastAllocated difference.
    let soft = "  taints:\n  - {key: spot, value: \"true\", effect: PreferNoSchedule}\n";
    let tol = "  tolerations:\n  - {key: spot, operator: Exists, effect: PreferNoSchedule}\n";
    let req: &[&str] = &["{cpu: 500m, memory: 512Mi}"];
    let text = node("node-big", "16", "32Gi", "", soft)
        + &node("node-small", "2", "4Gi", "", "")
        + &pod("plain", "", req, "")
        + &pod("tolerant", "", req, tol);
    let mut c = run(&text);
    assert_eq!(node_of(&mut c, "plain").as_deref(), Some("node-small"));
    let d = decision(&c, "plain");
    assert_eq!(
        scores(&d, TAINTS, &["node-big", "node-small"]),
        [Some(0), Some(100)]
    );
    assert_eq!(node_of(&mut c, "tolerant").as_deref(), Some("node-big"));
}

#[test]
fn required_node_affinity_matching_no_node_stays_pending_with_the_fit_error() {
    let required = "  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {key: topology.kubernetes.io/zone, operator: In, values: [zone-d]}
";
    let text = zoned_nodes() + &pod("nowhere", "", &["{cpu: 100m, memory: 64Mi}"], required);
    let mut c = run(&text);
    let msg = "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";
    let p = pod_named(&mut c, "nowhere");
    assert!(p["spec"]["nodeName"].is_null());
    assert_eq!(p["status"]["phase"], "Pending");
    let cond = pod_scheduled(&p);
    assert_eq!(cond["status"], "False");
    assert_eq!(cond["reason"], "Unschedulable");
    assert_eq!(cond["message"], msg);
    let d = decision(&c, "nowhere");
    assert!(d["selected"].is_null());
    assert_eq!(d["summary"], format!("nowhere: {msg}"));
    for n in ZONED {
        assert_eq!(
            filter_reason(row(&d, n), NODE_AFFINITY).as_deref(),
            Some("node(s) didn't match Pod's node affinity/selector")
        );
    }
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
    assert_eq!(failed["message"], msg);
}

#[test]
fn node_selector_and_required_node_affinity_must_both_match() {
    // The selector admits only node-a, the affinity only node-b: no node passes.
    let spec = "  nodeSelector: {topology.kubernetes.io/zone: zone-a}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {key: topology.kubernetes.io/zone, operator: In, values: [zone-b]}
";
    let ok = "  nodeSelector: {topology.kubernetes.io/zone: zone-b}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {key: topology.kubernetes.io/zone, operator: In, values: [zone-x]}
        - matchExpressions:
          - {key: topology.kubernetes.io/zone, operator: In, values: [zone-b, zone-c]}
";
    let req: &[&str] = &["{cpu: 100m, memory: 64Mi}"];
    let text = zoned_nodes() + &pod("conflict", "", req, spec) + &pod("either", "", req, ok);
    let mut c = run(&text);
    assert!(node_of(&mut c, "conflict").is_none());
    assert_eq!(
        pod_scheduled(&pod_named(&mut c, "conflict"))["message"],
        "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
    );
    // Terms are ORed; with the selector only node-b is left.
    assert_eq!(node_of(&mut c, "either").as_deref(), Some("node-b"));
}

fn spread_pod(name: &str, constrained: bool) -> String {
    let spec = if constrained {
        "  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: DoNotSchedule
    labelSelector: {matchLabels: {app: web}}
"
    } else {
        ""
    };
    pod(
        name,
        &labels("app: web"),
        &["{cpu: 500m, memory: 512Mi}"],
        spec,
    )
}

#[test]
fn topology_spread_max_skew_1_puts_4_replicas_2_and_2_over_2_zones() {
    // zone-a's node is far bigger: without the constraint LeastAllocated sends all four there.
    let nodes = node("node-a", "64", "256Gi", &zone("zone-a"), "")
        + &node("node-b", "4", "8Gi", &zone("zone-b"), "");
    let placed = |constrained: bool| {
        let mut text = nodes.clone();
        for i in 0..4 {
            text += &spread_pod(&format!("web-{i}"), constrained);
        }
        let mut c = run(&text);
        let nodes: Vec<String> = (0..4)
            .map(|i| node_of(&mut c, &format!("web-{i}")).expect("scheduled"))
            .collect();
        (c, nodes)
    };
    let (_, free) = placed(false);
    assert!(free.iter().all(|n| n == "node-a"), "{free:?}");
    let (c, spread) = placed(true);
    for n in ["node-a", "node-b"] {
        assert_eq!(spread.iter().filter(|x| *x == n).count(), 2, "{spread:?}");
    }
    // Whenever zone-a is one ahead, its node is filtered out.
    let rejected = c
        .trace
        .records
        .iter()
        .filter(|r| r.action == "schedule")
        .map(|r| r.to_json())
        .filter(|d| {
            filter_reason(row(d, "node-a"), "PodTopologySpread").as_deref()
                == Some("node(s) didn't match pod topology spread constraints")
        })
        .count();
    assert_eq!(rejected, 2);
}

#[test]
fn required_pod_affinity_follows_the_db_pod() {
    // node-1 (zone-a) is the biggest; the db pod runs on node-2, the smallest, in zone-b.
    let db = pod(
        "db",
        &labels("app: db"),
        &["{cpu: 100m, memory: 64Mi}"],
        "  nodeName: node-2\n",
    );
    let affinity = |key: &str| {
        format!(
            "  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {{matchLabels: {{app: db}}}}
        topologyKey: {key}
"
        )
    };
    let req: &[&str] = &["{cpu: 500m, memory: 512Mi}"];
    let text = node("node-1", "16", "32Gi", &zone("zone-a"), "")
        + &node("node-2", "2", "4Gi", &zone("zone-b"), "")
        + &node("node-3", "8", "16Gi", &zone("zone-b"), "")
        + &db
        + &pod(
            "same-zone",
            &labels("app: web"),
            req,
            &affinity("topology.kubernetes.io/zone"),
        )
        + &pod(
            "same-node",
            &labels("app: web"),
            req,
            &affinity("kubernetes.io/hostname"),
        );
    let mut c = run(&text);
    // Zone: node-2 and node-3 qualify, and node-3 has more room.
    assert_eq!(node_of(&mut c, "same-zone").as_deref(), Some("node-3"));
    let d = decision(&c, "same-zone");
    assert_eq!(
        filter_reason(row(&d, "node-1"), "InterPodAffinity").as_deref(),
        Some("node(s) didn't match pod affinity rules")
    );
    assert_eq!(filter_reason(row(&d, "node-2"), "InterPodAffinity"), None);
    // Hostname: only the db pod's own node.
    assert_eq!(node_of(&mut c, "same-node").as_deref(), Some("node-2"));
}

#[test]
fn required_pod_affinity_to_pods_that_do_not_exist_stays_pending() {
    // No pod is app=cache and the pod is not one itself, so no node qualifies.
    let spec = "  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: cache}}
        topologyKey: topology.kubernetes.io/zone
";
    let text = zoned_nodes()
        + &pod(
            "lonely",
            &labels("app: web"),
            &["{cpu: 100m, memory: 64Mi}"],
            spec,
        );
    let mut c = run(&text);
    assert!(node_of(&mut c, "lonely").is_none());
    assert_eq!(
        pod_scheduled(&pod_named(&mut c, "lonely"))["message"],
        "0/3 nodes are available: 3 node(s) didn't match pod affinity rules. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
    );
}
