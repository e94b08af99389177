//! Property tests (issue 8): randomly generated scenarios — nodes (cpu, memory, pod count, a
//! zone, a NoSchedule taint), Deployments (replicas, requests, maxSurge/maxUnavailable, a
//! nodeSelector, a toleration) and timed steps (scale, set image, rollout undo and restart,
//! delete the pods or the Deployment, stop and start a node) — with the cluster's invariants
//! checked after every event the simulation processes (`Cluster::step_one`), from etcd's own
//! state as a watch on `/registry/` delivers it (each changed object decoded once):
//!
//! 1. no node holds pods (bound to it, not terminated) whose requests exceed its allocatable
//!    cpu, memory or pod count; and a pod is bound only to a node its nodeSelector matches and
//!    whose (the scenario's) taint it tolerates;
//! 2. a pod is bound at most once and never moves: once `spec.nodeName` is set for a uid it
//!    never changes nor goes away, it names a node that exists, and the pod has at most one
//!    Scheduled Event;
//! 3. etcd revisions strictly increase, one per write: the watch on `/registry/` opened at the
//!    start sees every revision once and in order, each key's versions coherent with the
//!    previous event (`prev_kv`, version, create_revision), and at the end exactly what
//!    `Etcd::changes` and each key's `Etcd::history` hold; kube-apiserver watches on Pods,
//!    ReplicaSets, Deployments and Nodes opened at the start deliver exactly those changes,
//!    as ADDED/MODIFIED/DELETED with the change's resourceVersion, in order;
//! 4. every pod carries exactly one controller ownerReference, to the ReplicaSet that made it
//!    (kind ReplicaSet, `controller: true`, the ReplicaSet's uid and name), and every
//!    ReplicaSet one to its Deployment;
//! 5. a Deployment's pods (not terminating) never exceed `replicas + maxSurge`, and its
//!    available (Ready) pods never fall below `replicas - maxUnavailable`, as
//!    tests/rollout.rs counts them. Kubernetes promises this of a rollout at a fixed replica
//!    count (a scale is proportional), so a change of replicas or strategy disarms both
//!    bounds, and so does deleting its pods, until the Deployment has settled at its spec
//!    within the bound (see `Checker::check_rollouts`); the lower one is also off while a node
//!    is stopped or not yet Ready and untainted again, and during a rollover (more than two
//!    ReplicaSets in play), where Kubernetes counts on ReplicaSet statuses that may lag (see
//!    the regression tests at the end);
//! 6. no two running pods on a node share an IP, and each pod IP lies in its node's podCIDR;
//! 7. the simulation is quiet at most 15 virtual minutes after the last step.
//!
//! `KUBEPLAY_PROPTEST_CASES` (default 1000) sets how many scenarios a run generates, split
//! across two tests that run in parallel. `KUBEPLAY_PROPTEST_SIZE=full` (the default in release
//! builds) generates the ranges of the issue: 1–6 nodes, 1–4 Deployments of 0–12 replicas, up to
//! 6 steps with gaps of up to 400 s; `small` (the default in debug builds, so that the 1,000
//! cases of `cargo test --workspace` take about 40 s on two free cores) up to 2 nodes, 2
//! Deployments of 0–4 replicas and 3 steps with gaps of up to 60 s. Without
//! `PROPTEST_RNG_SEED` the seed is a fixed one, so CI runs the same cases every time;
//! `scripts/nightly.sh` runs 20,000 full-size cases in release from a fresh seed. Each run
//! prints its seed, and `PROPTEST_RNG_SEED` replays it. A failure prints the shrunk scenario as YAML, which `kubeplay run` takes as it is;
//! shrunk failures become plain tests at the end of this file.

use kubeplay_core::api::quantity::Quantity;
use kubeplay_core::api::value::Value;
use kubeplay_core::api::{meta, resources::for_kind, ResourceInfo};
use kubeplay_core::apiserver::{Request, Verb};
use kubeplay_core::cluster::{admin_credentials, Cluster};
use kubeplay_core::etcd::{EventKind, WatchId};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fmt::{self, Write as _};

// ---------------------------------------------------------------------------------------------
// The generated scenario
// ---------------------------------------------------------------------------------------------

const TAINT_KEY: &str = "dedicated";
const TAINT_VALUE: &str = "batch";
const ZONE_LABEL: &str = "topology.kubernetes.io/zone";
const TAGS: [&str; 3] = ["1.25", "1.26", "1.27"];
/// How long after its last step a scenario must be quiet.
const QUIET_WITHIN_MS: u64 = 15 * 60 * 1000;
/// Events one case may process at most (a hot loop at one virtual instant would never end).
const MAX_STEPS: usize = 400_000;

#[derive(Clone, Debug, PartialEq)]
struct NodeGen {
    cpu: u32,
    memory_gi: u32,
    pods: u32,
    zone: Option<u8>,
    tainted: bool,
}

/// `maxSurge` / `maxUnavailable`: an absolute number or a percentage.
#[derive(Clone, Copy, Debug, PartialEq)]
enum IntOrPercent {
    Int(u32),
    Percent(u32),
}

impl IntOrPercent {
    fn is_zero(self) -> bool {
        matches!(self, IntOrPercent::Int(0) | IntOrPercent::Percent(0))
    }
    fn yaml(self) -> String {
        match self {
            IntOrPercent::Int(n) => n.to_string(),
            IntOrPercent::Percent(p) => format!("\"{p}%\""),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
struct DeploymentGen {
    replicas: u32,
    cpu_milli: Option<u32>,
    memory_mi: Option<u32>,
    max_surge: Option<IntOrPercent>,
    max_unavailable: Option<IntOrPercent>,
    /// A nodeSelector on this zone.
    zone: Option<u8>,
    tolerates: bool,
}

/// Deployments and nodes are named by index, taken modulo their count (so shrinking the lists
/// keeps the steps meaningful).
#[derive(Clone, Debug, PartialEq)]
enum Action {
    Scale(usize, u32),
    SetImage(usize, usize),
    Undo(usize),
    Restart(usize),
    /// `delete pods -l app=NAME`: its pods go, its ReplicaSet makes new ones.
    DeletePods(usize),
    Delete(usize),
    StopNode(usize),
    StartNode(usize),
}

#[derive(Clone, Debug, PartialEq)]
struct StepGen {
    /// Seconds after the step before (the first: after time 0).
    gap_s: u64,
    action: Action,
}

#[derive(Clone, PartialEq)]
struct Case {
    seed: u64,
    nodes: Vec<NodeGen>,
    deployments: Vec<DeploymentGen>,
    steps: Vec<StepGen>,
}

fn zone_name(z: u8) -> String {
    format!("zone-{}", (b'a' + z) as char)
}

fn node_name(i: usize) -> String {
    format!("node-{}", i + 1)
}

fn deployment_name(i: usize) -> String {
    format!("d{i}")
}

impl Case {
    /// The steps as (virtual ms, kubectl command or fault).
    fn timed_steps(&self) -> Vec<(u64, Result<String, String>)> {
        let mut at = 0;
        let nd = self.deployments.len().max(1);
        let nn = self.nodes.len().max(1);
        self.steps
            .iter()
            .map(|s| {
                at += s.gap_s * 1000;
                let step = match &s.action {
                    Action::Scale(d, r) => Ok(format!(
                        "scale deployment/{} --replicas={r}",
                        deployment_name(d % nd)
                    )),
                    Action::SetImage(d, t) => Ok(format!(
                        "set image deployment/{} c=nginx:{}",
                        deployment_name(d % nd),
                        TAGS[t % TAGS.len()]
                    )),
                    Action::Undo(d) => Ok(format!(
                        "rollout undo deployment/{}",
                        deployment_name(d % nd)
                    )),
                    Action::Restart(d) => Ok(format!(
                        "rollout restart deployment/{}",
                        deployment_name(d % nd)
                    )),
                    Action::DeletePods(d) => {
                        Ok(format!("delete pods -l app={}", deployment_name(d % nd)))
                    }
                    Action::Delete(d) => {
                        Ok(format!("delete deployment {}", deployment_name(d % nd)))
                    }
                    Action::StopNode(n) => Err(format!("stop-node {}", node_name(n % nn))),
                    Action::StartNode(n) => Err(format!("start-node {}", node_name(n % nn))),
                };
                (at, step)
            })
            .collect()
    }

    fn last_step_ms(&self) -> u64 {
        self.timed_steps().last().map_or(0, |s| s.0)
    }

    /// The scenario file.
    fn yaml(&self) -> String {
        let mut y = String::new();
        for (i, n) in self.nodes.iter().enumerate() {
            let _ = write!(
                y,
                "apiVersion: v1\nkind: Node\nmetadata:\n  name: {}\n",
                node_name(i)
            );
            if let Some(z) = n.zone {
                let _ = write!(y, "  labels:\n    {ZONE_LABEL}: {}\n", zone_name(z));
            }
            if n.tainted {
                let _ = write!(
                    y,
                    "spec:\n  taints:\n  - key: {TAINT_KEY}\n    value: {TAINT_VALUE}\n    effect: NoSchedule\n"
                );
            }
            let _ = write!(
                y,
                "status:\n  capacity:\n    cpu: \"{}\"\n    memory: {}Gi\n    pods: \"{}\"\n---\n",
                n.cpu, n.memory_gi, n.pods
            );
        }
        for (i, d) in self.deployments.iter().enumerate() {
            let name = deployment_name(i);
            let _ = write!(
                y,
                "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  replicas: {}\n",
                d.replicas
            );
            if d.max_surge.is_some() || d.max_unavailable.is_some() {
                y.push_str("  strategy:\n    type: RollingUpdate\n    rollingUpdate:\n");
                if let Some(s) = d.max_surge {
                    let _ = writeln!(y, "      maxSurge: {}", s.yaml());
                }
                if let Some(u) = d.max_unavailable {
                    let _ = writeln!(y, "      maxUnavailable: {}", u.yaml());
                }
            }
            let _ = write!(
                y,
                "  selector:\n    matchLabels:\n      app: {name}\n  template:\n    metadata:\n      labels:\n        app: {name}\n    spec:\n"
            );
            if let Some(z) = d.zone {
                let _ = write!(
                    y,
                    "      nodeSelector:\n        {ZONE_LABEL}: {}\n",
                    zone_name(z)
                );
            }
            if d.tolerates {
                let _ = write!(
                    y,
                    "      tolerations:\n      - key: {TAINT_KEY}\n        operator: Equal\n        value: {TAINT_VALUE}\n        effect: NoSchedule\n"
                );
            }
            y.push_str("      containers:\n      - name: c\n        image: nginx:1.27\n");
            if d.cpu_milli.is_some() || d.memory_mi.is_some() {
                y.push_str("        resources:\n          requests:\n");
                if let Some(c) = d.cpu_milli {
                    let _ = writeln!(y, "            cpu: {c}m");
                }
                if let Some(m) = d.memory_mi {
                    let _ = writeln!(y, "            memory: {m}Mi");
                }
            }
            y.push_str("---\n");
        }
        let _ = write!(
            y,
            "apiVersion: kubeplay/v1alpha1\nkind: Scenario\nseed: {}\n",
            self.seed
        );
        let steps = self.timed_steps();
        if steps.is_empty() {
            y.push_str("steps: []\n");
        } else {
            y.push_str("steps:\n");
            for (at, step) in steps {
                match step {
                    Ok(k) => {
                        let _ = write!(y, "- at: {}s\n  kubectl: {k}\n", at / 1000);
                    }
                    Err(f) => {
                        let _ = write!(y, "- at: {}s\n  fault: {f}\n", at / 1000);
                    }
                }
            }
        }
        y
    }
}

/// A failure report shows the scenario itself.
impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "scenario:\n---\n{}", self.yaml())
    }
}

/// How big the generated scenarios are.
#[derive(Clone, Copy)]
struct Size {
    name: &'static str,
    nodes: u32,
    deployments: u32,
    replicas: u32,
    steps: u32,
    /// The longest of the ordinary gaps between steps, in seconds.
    long_gap_s: u64,
    /// How often a gap is 300–400 s (out of 8 + this).
    evict_gap_weight: u32,
}

const FULL: Size = Size {
    name: "full",
    nodes: 6,
    deployments: 4,
    replicas: 12,
    steps: 6,
    long_gap_s: 120,
    evict_gap_weight: 1,
};
const SMALL: Size = Size {
    name: "small",
    nodes: 2,
    deployments: 2,
    replicas: 4,
    steps: 3,
    long_gap_s: 60,
    evict_gap_weight: 0,
};

fn size() -> Size {
    match std::env::var("KUBEPLAY_PROPTEST_SIZE").as_deref() {
        Ok("full") => FULL,
        Ok("small") => SMALL,
        Ok(other) => panic!("KUBEPLAY_PROPTEST_SIZE={other:?}: expected small or full"),
        Err(_) if cfg!(debug_assertions) => SMALL,
        Err(_) => FULL,
    }
}

fn node_gen() -> impl Strategy<Value = NodeGen> {
    (
        1u32..=8,
        2u32..=16,
        10u32..=110,
        proptest::option::weighted(0.6, 0u8..3),
        proptest::bool::weighted(0.25),
    )
        .prop_map(|(cpu, memory_gi, pods, zone, tainted)| NodeGen {
            cpu,
            memory_gi,
            pods,
            zone,
            tainted,
        })
}

fn int_or_percent() -> impl Strategy<Value = IntOrPercent> {
    prop_oneof![
        (0u32..=3).prop_map(IntOrPercent::Int),
        prop::sample::select(vec![0u32, 10, 25, 50, 100]).prop_map(IntOrPercent::Percent),
    ]
}

fn deployment_gen(max_replicas: u32) -> impl Strategy<Value = DeploymentGen> {
    (
        0..=max_replicas,
        proptest::option::weighted(
            0.8,
            prop::sample::select(vec![50u32, 100, 250, 500, 1000, 2000]),
        ),
        proptest::option::weighted(
            0.7,
            prop::sample::select(vec![64u32, 128, 256, 512, 1024, 2048]),
        ),
        proptest::option::weighted(0.5, int_or_percent()),
        proptest::option::weighted(0.5, int_or_percent()),
        proptest::option::weighted(0.2, 0u8..3),
        proptest::bool::weighted(0.3),
    )
        .prop_map(
            |(replicas, cpu_milli, memory_mi, max_surge, mut max_unavailable, zone, tolerates)| {
                // The API refuses maxSurge and maxUnavailable both 0.
                if max_surge.is_some_and(IntOrPercent::is_zero)
                    && max_unavailable.is_some_and(IntOrPercent::is_zero)
                {
                    max_unavailable = Some(IntOrPercent::Int(1));
                }
                DeploymentGen {
                    replicas,
                    cpu_milli,
                    memory_mi,
                    max_surge,
                    max_unavailable,
                    zone,
                    tolerates,
                }
            },
        )
}

fn action(max_replicas: u32) -> impl Strategy<Value = Action> {
    prop_oneof![
        4 => (0usize..4, 0..=max_replicas).prop_map(|(d, r)| Action::Scale(d, r)),
        5 => (0usize..4, 0usize..3).prop_map(|(d, t)| Action::SetImage(d, t)),
        3 => (0usize..4).prop_map(Action::Undo),
        1 => (0usize..4).prop_map(Action::Restart),
        1 => (0usize..4).prop_map(Action::DeletePods),
        1 => (0usize..4).prop_map(Action::Delete),
        2 => (0usize..6).prop_map(Action::StopNode),
        2 => (0usize..6).prop_map(Action::StartNode),
    ]
}

fn step_gen(size: Size) -> impl Strategy<Value = StepGen> {
    let gap = prop_oneof![
        3 => 0u64..=3,
        3 => 4u64..=30,
        2 => 31u64..=size.long_gap_s,
        // Past the 300 s NoExecute toleration: a stopped node's pods are evicted before the
        // next step. (Without it they are too, while the cluster runs on to quiet.)
        size.evict_gap_weight => 300u64..=400,
    ];
    (gap, action(size.replicas)).prop_map(|(gap_s, action)| StepGen { gap_s, action })
}

fn case_gen(size: Size) -> impl Strategy<Value = Case> {
    (
        0u64..1000,
        prop::collection::vec(node_gen(), 1..=size.nodes as usize),
        prop::collection::vec(deployment_gen(size.replicas), 1..=size.deployments as usize),
        prop::collection::vec(step_gen(size), 0..=size.steps as usize),
    )
        .prop_map(|(seed, nodes, deployments, steps)| Case {
            seed,
            nodes,
            deployments,
            steps,
        })
}

// ---------------------------------------------------------------------------------------------
// What the checker keeps of the cluster's objects
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct PodView {
    name: String,
    node: Option<String>,
    phase: String,
    terminating: bool,
    ready: bool,
    ip: Option<String>,
    /// The uid of its controller (a ReplicaSet).
    controller: String,
    cpu_milli: i64,
    memory: i64,
}

impl PodView {
    fn terminated(&self) -> bool {
        matches!(self.phase.as_str(), "Succeeded" | "Failed")
    }
    /// Counted by the rollout bounds (as tests/rollout.rs counts).
    fn live(&self) -> bool {
        !self.terminating && !self.terminated()
    }
}

#[derive(Clone, Debug)]
struct NodeView {
    cpu_milli: i64,
    memory: i64,
    pods: i64,
    /// The podCIDR as (network, mask).
    cidr: Option<(u32, u32)>,
    cidr_text: String,
    labels: kubeplay_core::api::value::Map,
    /// Whether it carries the scenario's own `dedicated=batch:NoSchedule` taint.
    tainted: bool,
    /// Since when it has been Ready and without the node lifecycle controller's taints
    /// (`node.kubernetes.io/...`), if it is.
    healthy_since: Option<u64>,
}

#[derive(Clone, Debug)]
struct DeploymentView {
    uid: String,
    name: String,
    replicas: i64,
    max_surge: i64,
    max_unavailable: i64,
    generation: i64,
    observed_generation: i64,
}

#[derive(Clone, Debug)]
struct ReplicaSetView {
    uid: String,
    /// The uid of its Deployment.
    owner: String,
    replicas: i64,
    /// Until when it counts as in play: while it asks for pods or its status (as the
    /// ReplicaSet controller last wrote it) counts available ones, and `SETTLE_MS` after (a
    /// controller's cache may still hold that).
    in_play_until: u64,
}

/// Whether a rollout bound of one Deployment is in force.
#[derive(Clone, Debug, Default)]
struct Armed {
    spec: (i64, i64, i64),
    upper: bool,
    lower: bool,
    /// Since when the Deployment has been settled at `spec`, as far as the checks saw.
    settled_since: Option<u64>,
}

/// How long a Deployment must have been settled before its bounds are armed: longer than any
/// controller acts on what its informer cache held before (the watch latency and the worker
/// delay are a millisecond each).
const SETTLE_MS: u64 = 100;

fn str_at<'a>(v: &'a Value, ptr: &str) -> Option<&'a str> {
    v.pointer(ptr).and_then(Value::as_str)
}

fn quantity(v: &Value, milli: bool) -> Result<i64, String> {
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Null => return Ok(0),
        other => return Err(format!("not a quantity: {other}")),
    };
    let q = Quantity::parse(&text).map_err(|e| format!("quantity {text:?}: {e}"))?;
    Ok(if milli { q.milli_value() } else { q.value() })
}

fn parse_ipv4(s: &str) -> Option<u32> {
    let mut out = 0u32;
    let mut parts = 0;
    for p in s.split('.') {
        out = (out << 8) | p.parse::<u8>().ok()? as u32;
        parts += 1;
    }
    (parts == 4).then_some(out)
}

fn parse_cidr(s: &str) -> Option<(u32, u32)> {
    let (ip, len) = s.split_once('/')?;
    let len: u32 = len.parse().ok().filter(|l| *l <= 32)?;
    let mask = if len == 0 { 0 } else { u32::MAX << (32 - len) };
    Some((parse_ipv4(ip)? & mask, mask))
}

/// `maxSurge`/`maxUnavailable` of a stored Deployment resolved against its replicas, as
/// `ResolveFenceposts` does (surge rounds up, unavailable down; both 0 means unavailable 1).
fn fenceposts(d: &Value, replicas: i64) -> Result<(i64, i64), String> {
    let ru = d.pointer("/spec/strategy/rollingUpdate");
    let resolve = |field: &str, round_up: bool| -> Result<i64, String> {
        let v = ru.and_then(|r| r.get(field)).cloned();
        match v {
            None | Some(Value::Null) => Err(format!("{field} not defaulted: {d}")),
            Some(Value::Number(n)) => n.as_i64().ok_or_else(|| format!("{field}: {n}")),
            Some(Value::String(s)) => {
                let p: i64 = s
                    .strip_suffix('%')
                    .and_then(|p| p.parse().ok())
                    .ok_or_else(|| format!("{field}: {s:?}"))?;
                Ok(if round_up {
                    (p * replicas + 99) / 100
                } else {
                    p * replicas / 100
                })
            }
            Some(other) => Err(format!("{field}: {other}")),
        }
    };
    let surge = resolve("maxSurge", true)?;
    let mut unavailable = resolve("maxUnavailable", false)?;
    if surge == 0 && unavailable == 0 {
        unavailable = 1;
    }
    Ok((surge, unavailable))
}

/// Whether a pod tolerates `dedicated=batch:NoSchedule` (`ToleratesTaint`).
fn tolerates_scenario_taint(pod: &Value) -> bool {
    pod.pointer("/spec/tolerations")
        .and_then(Value::as_array)
        .is_some_and(|ts| {
            ts.iter().any(|t| {
                let key = t["key"].as_str().unwrap_or("");
                let effect = t["effect"].as_str().unwrap_or("");
                let exists = t["operator"] == "Exists";
                (key.is_empty() && exists || key == TAINT_KEY)
                    && (effect.is_empty() || effect == "NoSchedule")
                    && (exists || t["value"].as_str().unwrap_or("") == TAINT_VALUE)
            })
        })
}

fn controller_refs(obj: &Value) -> Vec<&Value> {
    obj.pointer("/metadata/ownerReferences")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter(|r| r["controller"] == true).collect())
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// The checker
// ---------------------------------------------------------------------------------------------

/// One change as a watcher of `/registry/` saw it.
#[derive(Clone, Debug, PartialEq)]
struct Seen {
    revision: i64,
    key: String,
    kind: EventKind,
    version: i64,
    create_revision: i64,
}

/// A kube-apiserver watch of one resource, and the events it still owes.
struct ApiWatch {
    id: u64,
    info: &'static ResourceInfo,
    prefix: String,
    expected: VecDeque<(&'static str, String, i64)>,
    received: usize,
}

struct Checker {
    etcd_watch: WatchId,
    api_watches: Vec<ApiWatch>,
    seen: Vec<Seen>,
    /// Each key's last state as the watch saw it: (mod_revision, version, create_revision), or
    /// `None` after a delete.
    last: HashMap<String, Option<(i64, i64, i64)>>,
    revision: i64,
    /// Whether the last drained batch touched anything the state invariants look at.
    dirty: bool,
    pods: BTreeMap<String, PodView>,
    nodes: BTreeMap<String, NodeView>,
    deployments: BTreeMap<String, DeploymentView>,
    /// Every Deployment ever seen: uid -> name.
    deployment_uids: HashMap<String, String>,
    /// Every ReplicaSet ever seen: uid -> (name, the uid of its Deployment).
    replicasets: HashMap<String, (String, String)>,
    /// The ReplicaSets there are now, by key.
    current_replicasets: BTreeMap<String, ReplicaSetView>,
    /// Every pod uid ever seen -> (its key, its node once bound).
    pod_uids: HashMap<String, (String, Option<String>)>,
    armed: BTreeMap<String, Armed>,
    /// Node faults: (virtual ms, node, stop?).
    faults: Vec<(u64, String, bool)>,
    /// `delete pods -l app=NAME` steps: (virtual ms, NAME).
    pod_deletions: Vec<(u64, String)>,
    /// Pods with a `Scheduled` Event, by uid.
    scheduled: BTreeSet<String>,
    /// The virtual time of the events being drained.
    now: u64,
    /// Checks of a Deployment mid-rollout (live pods in two ReplicaSets or more) with both
    /// bounds armed: how much invariant 5 was put to the test.
    rollout_checks: usize,
}

type Check = Result<(), String>;

fn watch_request(info: &'static ResourceInfo) -> Request {
    let mut req = Request::new(Verb::Watch, info, admin_credentials(), "invariants");
    // From the very first revision: the watch replays everything since the bootstrap.
    req.resource_version = Some("1".into());
    req
}

impl Checker {
    fn new(c: &mut Cluster, case: &Case) -> Result<Checker, String> {
        let etcd_watch = c
            .api
            .storage
            .etcd
            .watch("/registry/", true, 2)
            .map_err(|e| format!("etcd watch: {e}"))?;
        let mut api_watches = Vec::new();
        for (av, kind) in [
            ("v1", "Pod"),
            ("apps/v1", "ReplicaSet"),
            ("apps/v1", "Deployment"),
            ("v1", "Node"),
        ] {
            let info = for_kind(av, kind).ok_or("no resource")?;
            let now = c.now();
            let id = c
                .api
                .watch(now, &watch_request(info), &mut c.trace)
                .map_err(|e| format!("watch {kind}: {}", e.message))?;
            api_watches.push(ApiWatch {
                id,
                info,
                prefix: info.etcd_list_prefix(None),
                expected: VecDeque::new(),
                received: 0,
            });
        }
        let faults = case
            .timed_steps()
            .into_iter()
            .filter_map(|(at, s)| {
                let f = s.err()?;
                let (verb, node) = f.split_once(' ')?;
                Some((at, node.to_string(), verb == "stop-node"))
            })
            .collect();
        let pod_deletions = case
            .timed_steps()
            .into_iter()
            .filter_map(|(at, s)| {
                let d = s.ok()?.strip_prefix("delete pods -l app=")?.to_string();
                Some((at, d))
            })
            .collect();
        Ok(Checker {
            etcd_watch,
            api_watches,
            seen: Vec::new(),
            last: HashMap::new(),
            revision: 1,
            dirty: false,
            pods: BTreeMap::new(),
            nodes: BTreeMap::new(),
            deployments: BTreeMap::new(),
            deployment_uids: HashMap::new(),
            replicasets: HashMap::new(),
            current_replicasets: BTreeMap::new(),
            pod_uids: HashMap::new(),
            armed: BTreeMap::new(),
            faults,
            pod_deletions,
            scheduled: BTreeSet::new(),
            rollout_checks: 0,
            now: 0,
        })
    }

    /// Whether a node may be stopped at `now` (a step at `now` may or may not have run yet, so
    /// a node counts as stopped from its stop step through its start step, inclusive).
    fn any_node_stopped(&self, now: u64) -> bool {
        let mut stopped = BTreeSet::new();
        for (at, node, stop) in &self.faults {
            if *stop && *at <= now {
                stopped.insert(node.clone());
            } else if !*stop && *at < now {
                stopped.remove(node);
            }
        }
        !stopped.is_empty()
    }

    /// Everything, after one step of the cluster.
    fn check(&mut self, c: &mut Cluster) -> Check {
        self.drain_etcd(c)?;
        self.drain_api(c)?;
        if self.dirty {
            self.dirty = false;
            let now = c.now();
            self.check_nodes()?;
            self.check_rollouts(now)?;
        }
        Ok(())
    }

    /// Invariant 3 (etcd side): every revision once, in order, each key's versions coherent;
    /// and the objects' mirror for the other invariants.
    fn drain_etcd(&mut self, c: &mut Cluster) -> Check {
        self.now = c.now();
        let etcd = &mut c.api.storage.etcd;
        let now_rev = etcd.revision();
        if now_rev < self.revision {
            return Err(format!(
                "etcd revision went back from {} to {now_rev}",
                self.revision
            ));
        }
        let events = etcd.take_events(self.etcd_watch);
        let mut batch_keys: BTreeSet<String> = BTreeSet::new();
        let mut last_rev = self.seen.last().map_or(1, |s| s.revision);
        for e in events {
            let rev = e.kv.mod_revision;
            let key = e.kv.key.clone();
            if rev == last_rev && !self.seen.is_empty() {
                if !batch_keys.insert(key.clone()) {
                    return Err(format!("watch saw {key} twice at revision {rev}"));
                }
            } else if rev == last_rev + 1 {
                batch_keys.clear();
                batch_keys.insert(key.clone());
            } else {
                return Err(format!(
                    "watch saw revision {rev} after {last_rev} ({key}): revisions must go up by one"
                ));
            }
            last_rev = rev;
            let before = self.last.get(&key).cloned().flatten();
            let prev = e
                .prev_kv
                .as_ref()
                .map(|p| (p.mod_revision, p.version, p.create_revision));
            if prev != before {
                return Err(format!(
                    "{:?} {key} at {rev}: prev_kv {prev:?}, but the watch last saw {before:?}",
                    e.kind
                ));
            }
            match e.kind {
                EventKind::Put => {
                    let (want_version, want_create) = match before {
                        Some((_, v, cr)) => (v + 1, cr),
                        None => (1, rev),
                    };
                    if (e.kv.version, e.kv.create_revision) != (want_version, want_create) {
                        return Err(format!(
                            "PUT {key} at {rev}: version {} create_revision {}, expected {want_version} and {want_create}",
                            e.kv.version, e.kv.create_revision
                        ));
                    }
                    self.last
                        .insert(key.clone(), Some((rev, e.kv.version, e.kv.create_revision)));
                }
                EventKind::Delete => {
                    if before.is_none() {
                        return Err(format!("DELETE of {key} at {rev}, which did not exist"));
                    }
                    self.last.insert(key.clone(), None);
                }
            }
            for w in &mut self.api_watches {
                if key.starts_with(&w.prefix) {
                    let kind = match (e.kind, before) {
                        (EventKind::Delete, _) => "DELETED",
                        (EventKind::Put, None) => "ADDED",
                        (EventKind::Put, Some(_)) => "MODIFIED",
                    };
                    w.expected.push_back((kind, key.clone(), rev));
                }
            }
            let value = match e.kind {
                EventKind::Put => Some(&*e.kv.value),
                EventKind::Delete => None,
            };
            self.mirror(&key, value, before.is_none())?;
            self.seen.push(Seen {
                revision: rev,
                key,
                kind: e.kind,
                version: e.kv.version,
                create_revision: e.kv.create_revision,
            });
        }
        if last_rev != now_rev {
            return Err(format!(
                "etcd is at revision {now_rev} but the watch on /registry/ saw up to {last_rev}"
            ));
        }
        self.revision = now_rev;
        Ok(())
    }

    /// Invariant 3 (kube-apiserver side): each watch gets exactly the changes of its resource.
    fn drain_api(&mut self, c: &mut Cluster) -> Check {
        for w in &mut self.api_watches {
            for ev in c.api.take_watch_events(w.id) {
                w.received += 1;
                let obj = &*ev.object;
                let key = w.info.etcd_key(meta::namespace(obj), meta::name(obj));
                let got = (ev.kind, key, ev.revision);
                match w.expected.pop_front() {
                    Some(want) if want == got => {}
                    want => {
                        return Err(format!(
                            "{} watch event #{}: got {got:?}, expected {want:?}",
                            w.info.kind, w.received
                        ))
                    }
                }
                if meta::resource_version(obj) != ev.revision.to_string() {
                    return Err(format!(
                        "{} watch event {:?}: resourceVersion {} at revision {}",
                        w.info.kind,
                        got.1,
                        meta::resource_version(obj),
                        ev.revision
                    ));
                }
            }
            if let Some(missing) = w.expected.front() {
                return Err(format!(
                    "{} watch did not deliver {missing:?} ({} owed)",
                    w.info.kind,
                    w.expected.len()
                ));
            }
        }
        Ok(())
    }

    /// Keeps the decoded pods, nodes, ReplicaSets and Deployments; checks invariants 2 and 4 on
    /// each pod and ReplicaSet write.
    fn mirror(&mut self, key: &str, value: Option<&str>, created: bool) -> Check {
        let parse = |v: &str| -> Result<Value, String> {
            serde_json::from_str(v).map_err(|e| format!("{key}: stored value is not JSON: {e}"))
        };
        if let Some(rest) = key.strip_prefix("/registry/pods/") {
            self.dirty = true;
            let Some(v) = value else {
                self.pods.remove(rest);
                return Ok(());
            };
            let obj = parse(v)?;
            let pod = self.pod_view(rest, &obj)?;
            self.pods.insert(rest.to_string(), pod);
        } else if let Some(name) = key.strip_prefix("/registry/minions/") {
            self.node_write(name, value, parse)?;
        } else if let Some(name) = key.strip_prefix("/registry/nodes/") {
            self.node_write(name, value, parse)?;
        } else if let Some(rest) = key.strip_prefix("/registry/replicasets/") {
            self.dirty = true;
            let Some(v) = value else {
                self.current_replicasets.remove(rest);
                return Ok(());
            };
            let obj = parse(v)?;
            let refs = controller_refs(&obj);
            let owner = match refs.as_slice() {
                [r] if r["kind"] == "Deployment" && r["apiVersion"] == "apps/v1" => r["uid"]
                    .as_str()
                    .and_then(|uid| self.deployment_uids.get(uid).map(|n| (uid, n))),
                _ => None,
            };
            let Some((owner_uid, owner_name)) = owner else {
                return Err(format!(
                    "ReplicaSet {rest} has controller references {refs:?}, not one to a Deployment of the scenario"
                ));
            };
            if !meta::name(&obj).starts_with(&format!("{owner_name}-"))
                || refs[0]["name"] != owner_name.as_str()
            {
                return Err(format!(
                    "ReplicaSet {rest} is owned by Deployment {owner_name}"
                ));
            }
            let uid = meta::uid(&obj).to_string();
            let owner_uid = owner_uid.to_string();
            let replicas = obj
                .pointer("/spec/replicas")
                .and_then(Value::as_i64)
                .ok_or_else(|| format!("ReplicaSet {rest} without spec.replicas"))?;
            let available = obj
                .pointer("/status/availableReplicas")
                .and_then(Value::as_i64)
                .unwrap_or(0);
            let before = self
                .current_replicasets
                .get(rest)
                .map_or(0, |r| r.in_play_until);
            let in_play_until = if replicas > 0 || available > 0 {
                u64::MAX
            } else if before == u64::MAX {
                self.now + SETTLE_MS
            } else {
                before
            };
            self.current_replicasets.insert(
                rest.to_string(),
                ReplicaSetView {
                    uid: uid.clone(),
                    owner: owner_uid.clone(),
                    replicas,
                    in_play_until,
                },
            );
            self.replicasets
                .insert(uid, (meta::name(&obj).to_string(), owner_uid));
        } else if key.starts_with("/registry/events/") {
            let Some(v) = value else { return Ok(()) };
            // Cheap first: only Scheduled events are decoded.
            if !v.contains("\"Scheduled\"") {
                return Ok(());
            }
            let ev = parse(v)?;
            if ev["reason"] != "Scheduled" {
                return Ok(());
            }
            let uid = ev
                .pointer("/involvedObject/uid")
                .or_else(|| ev.pointer("/regarding/uid"))
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let count = ev
                .pointer("/count")
                .or_else(|| ev.pointer("/series/count"))
                .and_then(Value::as_i64)
                .unwrap_or(1);
            if count > 1 || (created && !self.scheduled.insert(uid.clone())) {
                return Err(format!("pod {uid} was scheduled twice: {ev}"));
            }
        } else if let Some(rest) = key.strip_prefix("/registry/deployments/") {
            self.dirty = true;
            let Some(v) = value else {
                self.deployments.remove(rest);
                return Ok(());
            };
            let obj = parse(v)?;
            let replicas = obj
                .pointer("/spec/replicas")
                .and_then(Value::as_i64)
                .ok_or_else(|| format!("Deployment {rest} without spec.replicas"))?;
            let (max_surge, max_unavailable) = fenceposts(&obj, replicas)?;
            self.deployment_uids
                .insert(meta::uid(&obj).to_string(), meta::name(&obj).to_string());
            self.deployments.insert(
                rest.to_string(),
                DeploymentView {
                    uid: meta::uid(&obj).to_string(),
                    name: meta::name(&obj).to_string(),
                    replicas,
                    max_surge,
                    max_unavailable,
                    generation: obj
                        .pointer("/metadata/generation")
                        .and_then(Value::as_i64)
                        .unwrap_or(0),
                    observed_generation: obj
                        .pointer("/status/observedGeneration")
                        .and_then(Value::as_i64)
                        .unwrap_or(0),
                },
            );
        }
        Ok(())
    }

    fn node_write(
        &mut self,
        name: &str,
        value: Option<&str>,
        parse: impl Fn(&str) -> Result<Value, String>,
    ) -> Check {
        self.dirty = true;
        let Some(v) = value else {
            self.nodes.remove(name);
            return Ok(());
        };
        let obj = parse(v)?;
        let alloc = obj
            .pointer("/status/allocatable")
            .ok_or_else(|| format!("node {name} without allocatable"))?;
        let cidr_text = str_at(&obj, "/spec/podCIDR").unwrap_or("").to_string();
        let healthy = obj
            .pointer("/status/conditions")
            .and_then(Value::as_array)
            .is_some_and(|c| {
                c.iter()
                    .any(|c| c["type"] == "Ready" && c["status"] == "True")
            })
            && !obj
                .pointer("/spec/taints")
                .and_then(Value::as_array)
                .is_some_and(|t| {
                    t.iter().any(|t| {
                        t["key"]
                            .as_str()
                            .is_some_and(|k| k.starts_with("node.kubernetes.io/"))
                    })
                });
        self.nodes.insert(
            name.to_string(),
            NodeView {
                cpu_milli: quantity(&alloc["cpu"], true)?,
                memory: quantity(&alloc["memory"], false)?,
                pods: quantity(&alloc["pods"], false)?,
                cidr: parse_cidr(&cidr_text),
                cidr_text,
                labels: meta::labels(&obj).cloned().unwrap_or_default(),
                tainted: obj
                    .pointer("/spec/taints")
                    .and_then(Value::as_array)
                    .is_some_and(|t| {
                        t.iter()
                            .any(|t| t["key"] == TAINT_KEY && t["effect"] == "NoSchedule")
                    }),
                healthy_since: healthy.then(|| {
                    self.nodes
                        .get(name)
                        .and_then(|n| n.healthy_since)
                        .unwrap_or(self.now)
                }),
            },
        );
        Ok(())
    }

    /// Invariants 2 and 4 for one stored pod.
    fn pod_view(&mut self, key: &str, obj: &Value) -> Result<PodView, String> {
        let uid = meta::uid(obj).to_string();
        let node = str_at(obj, "/spec/nodeName")
            .filter(|n| !n.is_empty())
            .map(str::to_string);
        // 2: bound at most once, never moved.
        let mut newly_bound = node.is_some();
        match self.pod_uids.get_mut(&uid) {
            None => {
                self.pod_uids
                    .insert(uid.clone(), (key.to_string(), node.clone()));
            }
            Some((k, bound)) => {
                if k != key {
                    return Err(format!("uid {uid} is pod {k} and pod {key}"));
                }
                match (bound.as_deref(), node.as_deref()) {
                    (Some(a), Some(b)) if a != b => {
                        return Err(format!("pod {key} moved from node {a} to node {b}"))
                    }
                    (Some(a), None) => {
                        return Err(format!("pod {key} was bound to {a} and is now unbound"))
                    }
                    (Some(_), Some(_)) => newly_bound = false,
                    _ => *bound = node.clone(),
                }
            }
        }
        if let Some(n) = &node {
            let Some(nv) = self.nodes.get(n) else {
                return Err(format!("pod {key} is bound to {n}, which does not exist"));
            };
            // The scheduler's filters, where they cannot race: the node's labels and the
            // scenario's taint never change.
            if newly_bound {
                let selector = obj.pointer("/spec/nodeSelector").and_then(Value::as_object);
                for (k, v) in selector.into_iter().flatten() {
                    if nv.labels.get(k) != Some(v) {
                        return Err(format!(
                            "pod {key} with nodeSelector {k}={v} is bound to {n}, labelled {:?}",
                            nv.labels
                        ));
                    }
                }
                if nv.tainted && !tolerates_scenario_taint(obj) {
                    return Err(format!(
                        "pod {key} is bound to {n}, whose taint {TAINT_KEY}={TAINT_VALUE}:NoSchedule it does not tolerate"
                    ));
                }
            }
        }
        // 4: one controller reference, to the ReplicaSet that made it.
        let refs = controller_refs(obj);
        let [r] = refs.as_slice() else {
            return Err(format!(
                "pod {key} has {} controller references: {refs:?}",
                refs.len()
            ));
        };
        let controller = r["uid"].as_str().unwrap_or("").to_string();
        let Some((rs_name, _)) = self.replicasets.get(&controller) else {
            return Err(format!(
                "pod {key}'s controller {r} is no ReplicaSet the cluster ever had"
            ));
        };
        if r["kind"] != "ReplicaSet"
            || r["apiVersion"] != "apps/v1"
            || r["name"] != rs_name.as_str()
            || !meta::name(obj).starts_with(&format!("{rs_name}-"))
        {
            return Err(format!(
                "pod {key}'s controller reference {r} does not name its ReplicaSet {rs_name}"
            ));
        }
        let mut cpu_milli = 0;
        let mut memory = 0;
        for ctr in obj
            .pointer("/spec/containers")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let req = &ctr["resources"]["requests"];
            cpu_milli += quantity(&req["cpu"], true)?;
            memory += quantity(&req["memory"], false)?;
        }
        let ready = obj
            .pointer("/status/conditions")
            .and_then(Value::as_array)
            .is_some_and(|a| {
                a.iter()
                    .any(|c| c["type"] == "Ready" && c["status"] == "True")
            });
        Ok(PodView {
            name: meta::name(obj).to_string(),
            node,
            phase: str_at(obj, "/status/phase").unwrap_or("").to_string(),
            terminating: obj.pointer("/metadata/deletionTimestamp").is_some(),
            ready,
            ip: str_at(obj, "/status/podIP")
                .filter(|s| !s.is_empty())
                .map(str::to_string),
            controller,
            cpu_milli,
            memory,
        })
    }

    /// Invariants 1 and 6.
    fn check_nodes(&self) -> Check {
        let mut on_node: BTreeMap<&str, Vec<&PodView>> = BTreeMap::new();
        for p in self.pods.values() {
            if let Some(n) = &p.node {
                if !p.terminated() {
                    on_node.entry(n).or_default().push(p);
                }
            }
        }
        for (name, pods) in on_node {
            let Some(node) = self.nodes.get(name) else {
                return Err(format!("pods on node {name}, which does not exist"));
            };
            let cpu: i64 = pods.iter().map(|p| p.cpu_milli).sum();
            let memory: i64 = pods.iter().map(|p| p.memory).sum();
            let names = || pods.iter().map(|p| p.name.as_str()).collect::<Vec<_>>();
            if cpu > node.cpu_milli || memory > node.memory || pods.len() as i64 > node.pods {
                return Err(format!(
                    "node {name} (allocatable cpu {}m, memory {}, pods {}) holds pods asking for cpu {cpu}m, memory {memory}, {} pods: {:?}",
                    node.cpu_milli,
                    node.memory,
                    node.pods,
                    pods.len(),
                    names()
                ));
            }
            let mut ips: BTreeMap<&str, &str> = BTreeMap::new();
            for p in pods.iter().filter(|p| p.phase == "Running") {
                let Some(ip) = p.ip.as_deref() else { continue };
                if let Some(other) = ips.insert(ip, &p.name) {
                    return Err(format!(
                        "pods {other} and {} on node {name} share IP {ip}",
                        p.name
                    ));
                }
                let inside = node
                    .cidr
                    .is_some_and(|(net, mask)| parse_ipv4(ip).is_some_and(|a| a & mask == net));
                if !inside {
                    return Err(format!(
                        "pod {} on node {name} has IP {ip}, outside the node's podCIDR {:?}",
                        p.name, node.cidr_text
                    ));
                }
            }
        }
        Ok(())
    }

    /// Invariant 5. The bounds hold for a rollout at a fixed replica count: a scale is handled
    /// proportionally (every ReplicaSet scaled at once, without regard to the bounds), so a
    /// change of replicas or strategy disarms both bounds. Each is armed again once the
    /// Deployment has been settled at its new spec for `SETTLE_MS` (the deployment controller
    /// has observed it and each ReplicaSet has as many pods as it asks for) and is within the
    /// bound; the lower one never while a node is stopped or has not been healthy (Ready,
    /// untainted) for `SETTLE_MS`. Until the ReplicaSet controller has
    /// seen the deployment controller's scale, it keeps the old counts, replacing pods that go.
    fn check_rollouts(&mut self, now: u64) -> Check {
        // A stopped node's pods become unavailable, and are evicted 300 s after its taint was
        // added, which may be after it started again but before the taint is gone.
        let stopped = self.any_node_stopped(now)
            || self
                .nodes
                .values()
                .any(|n| n.healthy_since.is_none_or(|t| now < t + SETTLE_MS));
        // Per Deployment uid: (pods not terminating, of which available).
        let mut counts: HashMap<&str, (i64, i64)> = HashMap::new();
        // Per ReplicaSet uid: pods not terminating.
        let mut rs_live: HashMap<&str, i64> = HashMap::new();
        // Per Deployment uid: the ReplicaSets with pods not terminating.
        let mut rs_of: HashMap<&str, BTreeSet<&str>> = HashMap::new();
        for p in self.pods.values() {
            let Some((_, d)) = self.replicasets.get(&p.controller) else {
                continue;
            };
            let e = counts.entry(d.as_str()).or_default();
            if p.live() {
                e.0 += 1;
                *rs_live.entry(p.controller.as_str()).or_default() += 1;
                rs_of
                    .entry(d.as_str())
                    .or_default()
                    .insert(p.controller.as_str());
                if p.ready {
                    e.1 += 1;
                }
            }
        }
        self.armed
            .retain(|uid, _| self.deployments.values().any(|d| d.uid == *uid));
        for d in self.deployments.values() {
            let (live, available) = counts.get(d.uid.as_str()).copied().unwrap_or_default();
            let max_total = d.replicas + d.max_surge;
            let min_available = (d.replicas - d.max_unavailable).max(0);
            let spec = (d.replicas, d.max_surge, d.max_unavailable);
            let own = || {
                self.current_replicasets
                    .values()
                    .filter(|rs| rs.owner == d.uid)
            };
            let settled = d.observed_generation >= d.generation
                && own()
                    .all(|rs| rs_live.get(rs.uid.as_str()).copied().unwrap_or(0) == rs.replicas);
            // A rollover (a new template while an older rollout still drains): Kubernetes'
            // lower bound rests on the ReplicaSets' status.availableReplicas, and the status of
            // one being drained can still count a pod that is already going (the
            // deployment controller may sync before the ReplicaSet controller has written it),
            // so with more than two ReplicaSets in play `scaleDownOldReplicaSetsForRollingUpdate`
            // can scale below minAvailable. Not a bound Kubernetes keeps; checked with two.
            let rollover = own().filter(|rs| now < rs.in_play_until).count() > 2;
            let a = self.armed.entry(d.uid.clone()).or_default();
            if a.spec != spec {
                *a = Armed {
                    spec,
                    ..Default::default()
                };
            }
            // Deleting a Deployment's pods makes them unavailable, as it should, and its
            // ReplicaSets replace them from what their controller's cache holds, which may lag
            // a scale by the deployment controller: both bounds are off at the instant of the
            // step (which may run after other events of that instant) and armed again once
            // the Deployment has settled.
            let deleting = self
                .pod_deletions
                .iter()
                .any(|(at, name)| *at == now && *name == d.name);
            if deleting {
                a.upper = false;
                a.lower = false;
            }
            a.settled_since = match (settled && !deleting, a.settled_since) {
                (false, _) => None,
                (true, None) => Some(now),
                (true, since) => since,
            };
            let settled = a.settled_since.is_some_and(|t| now >= t + SETTLE_MS);
            if a.upper {
                if live > max_total {
                    return Err(format!(
                        "t={now}ms: Deployment {} has {live} pods not terminating, more than replicas {} + maxSurge {}",
                        d.name, d.replicas, d.max_surge
                    ));
                }
            } else if settled && live <= max_total {
                a.upper = true;
            }
            if stopped || deleting || rollover {
                a.lower = false;
            } else if a.lower {
                if available < min_available {
                    return Err(format!(
                        "t={now}ms: Deployment {} has {available} pods available, fewer than replicas {} - maxUnavailable {}",
                        d.name, d.replicas, d.max_unavailable
                    ));
                }
            } else if settled && available >= min_available {
                a.lower = true;
            }
            if a.lower && a.upper && rs_of.get(d.uid.as_str()).is_some_and(|r| r.len() > 1) {
                self.rollout_checks += 1;
            }
        }
        Ok(())
    }

    /// At the end: the watch's whole story against etcd's own record of it.
    fn finish(&mut self, c: &mut Cluster) -> Check {
        self.check(c)?;
        let etcd = &c.api.storage.etcd;
        let stored = etcd
            .changes("/registry/", true, 2)
            .map_err(|e| format!("changes: {e}"))?;
        if stored.len() != self.seen.len() {
            return Err(format!(
                "etcd holds {} changes under /registry/, the watch saw {}",
                stored.len(),
                self.seen.len()
            ));
        }
        for (i, (s, e)) in self.seen.iter().zip(&stored).enumerate() {
            let want = Seen {
                revision: e.kv.mod_revision,
                key: e.kv.key.clone(),
                kind: e.kind,
                version: e.kv.version,
                create_revision: e.kv.create_revision,
            };
            if *s != want {
                return Err(format!(
                    "change #{i}: the watch saw {s:?}, etcd has {want:?}"
                ));
            }
        }
        let mut by_key: BTreeMap<&str, Vec<&Seen>> = BTreeMap::new();
        for s in &self.seen {
            by_key.entry(&s.key).or_default().push(s);
        }
        for (key, seen) in by_key {
            let history = etcd.history(key);
            let got: Vec<(i64, i64)> = seen.iter().map(|s| (s.revision, s.version)).collect();
            let want: Vec<(i64, i64)> = history
                .iter()
                .filter(|kv| kv.mod_revision >= 2)
                .map(|kv| (kv.mod_revision, kv.version))
                .collect();
            if got != want {
                return Err(format!(
                    "{key}: the watch saw (revision, version) {got:?}, its history is {want:?}"
                ));
            }
        }
        for kv in etcd
            .range_prefix("/registry/", None, 0)
            .map_err(|e| e.to_string())?
            .kvs
        {
            if self.last.get(&kv.key)
                != Some(&Some((kv.mod_revision, kv.version, kv.create_revision)))
            {
                return Err(format!(
                    "{} is at revision {} in etcd, the watch last saw {:?}",
                    kv.key,
                    kv.mod_revision,
                    self.last.get(&kv.key)
                ));
            }
        }
        Ok(())
    }
}

/// What one case did, for the curious.
#[derive(Debug, Default, Clone, Copy)]
struct Stats {
    steps: usize,
    pods: usize,
    /// Pods that were bound, and pods with a Scheduled Event.
    bound: usize,
    scheduled: usize,
    rollout_checks: usize,
    virtual_ms: u64,
}

/// Runs one scenario, checking every invariant after every event.
fn run_case(case: &Case) -> Result<Stats, String> {
    let text = case.yaml();
    let mut c = Cluster::from_text("invariants.yaml", &text)
        .map_err(|e| format!("the scenario does not parse: {e:?}"))?;
    if let Some(bad) = c.outputs.iter().find(|o| o.exit_code != 0) {
        return Err(format!("bootstrap failed: {bad:?}"));
    }
    let mut chk = Checker::new(&mut c, case)?;
    chk.check(&mut c)?;
    let deadline = case.last_step_ms() + QUIET_WITHIN_MS;
    let mut steps = 0;
    while !c.is_quiet() {
        if c.now() > deadline {
            return Err(format!(
                "not quiet at t={}ms, 15 virtual minutes after the last step",
                c.now()
            ));
        }
        if !c.step_one() {
            return Err("the queue ran empty before the cluster was quiet".into());
        }
        steps += 1;
        if steps > MAX_STEPS {
            return Err(format!(
                "{MAX_STEPS} events and still not quiet at t={}ms",
                c.now()
            ));
        }
        chk.check(&mut c)
            .map_err(|e| format!("after event {steps} (t={}ms): {e}", c.now()))?;
    }
    chk.finish(&mut c)?;
    // The scenario's own apply must have worked: the invariants are about a running workload.
    if let Some(apply) = c
        .outputs
        .iter()
        .find(|o| o.command.starts_with("kubectl apply"))
    {
        if apply.exit_code != 0 {
            return Err(format!("the apply failed: {}", apply.stderr));
        }
    }
    Ok(Stats {
        steps,
        pods: chk.pod_uids.len(),
        bound: chk.pod_uids.values().filter(|(_, n)| n.is_some()).count(),
        scheduled: chk.scheduled.len(),
        rollout_checks: chk.rollout_checks,
        virtual_ms: c.now(),
    })
}

// ---------------------------------------------------------------------------------------------
// The properties
// ---------------------------------------------------------------------------------------------

fn total_cases() -> u32 {
    match std::env::var("KUBEPLAY_PROPTEST_CASES") {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("KUBEPLAY_PROPTEST_CASES={v:?} is not a number")),
        Err(_) => 1000,
    }
}

/// The seed of this run (of both parts): `PROPTEST_RNG_SEED`, or a fixed one (printed, so that
/// a failure can be replayed).
fn base_seed() -> u64 {
    static SEED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SEED.get_or_init(|| match std::env::var("PROPTEST_RNG_SEED") {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("PROPTEST_RNG_SEED={v:?} is not a number")),
        // A fixed default keeps CI deterministic (same scenarios every run); the nightly
        // script passes a fresh seed.
        Err(_) => 20_261_201,
    })
}

/// Runs part `part` (of `parts`) of the cases; the parts run as separate tests, in parallel,
/// each from its own seed.
fn run_part(part: u32, parts: u32) {
    let total = total_cases();
    let cases = total / parts + u32::from(part < total % parts);
    if cases == 0 {
        return;
    }
    let seed = base_seed();
    let mut config = Config {
        cases,
        rng_seed: RngSeed::Fixed(seed ^ u64::from(part).wrapping_mul(0x9e37_79b9_7f4a_7c15)),
        // Shrunk failures become regression tests in this file, not files next to it.
        failure_persistence: None,
        ..Config::default()
    };
    if std::env::var_os("PROPTEST_MAX_SHRINK_TIME").is_none() {
        config.max_shrink_time = 300_000;
    }
    let size = size();
    let started = std::time::Instant::now();
    let mut runner = TestRunner::new(config);
    let totals = std::cell::Cell::new(Stats::default());
    let result = runner.run(&case_gen(size), |case| {
        let s = run_case(&case).map_err(TestCaseError::fail)?;
        let t = totals.get();
        totals.set(Stats {
            steps: t.steps + s.steps,
            pods: t.pods + s.pods,
            bound: t.bound + s.bound,
            scheduled: t.scheduled + s.scheduled,
            rollout_checks: t.rollout_checks + s.rollout_checks,
            virtual_ms: t.virtual_ms + s.virtual_ms,
        });
        Ok(())
    });
    if let Err(e) = result {
        panic!(
            "{e}\nreplay: PROPTEST_RNG_SEED={seed} KUBEPLAY_PROPTEST_CASES={total} KUBEPLAY_PROPTEST_SIZE={} (part {})",
            size.name,
            part + 1
        );
    }
    let t = totals.get();
    eprintln!(
        "invariants part {}/{parts} (seed {seed}, {} size): {cases} scenarios, {} events, {} pods, {} checks mid-rollout, {} virtual s, in {:.1?}",
        part + 1,
        size.name,
        t.steps,
        t.pods,
        t.rollout_checks,
        t.virtual_ms / 1000,
        started.elapsed()
    );
}

#[test]
fn invariants_hold_over_generated_scenarios_part_1() {
    run_part(0, 2);
}

#[test]
fn invariants_hold_over_generated_scenarios_part_2() {
    run_part(1, 2);
}

// ---------------------------------------------------------------------------------------------
// Plain tests: the checker itself, and regressions from shrunk failures
// ---------------------------------------------------------------------------------------------

fn node(cpu: u32, memory_gi: u32, pods: u32) -> NodeGen {
    NodeGen {
        cpu,
        memory_gi,
        pods,
        zone: None,
        tainted: false,
    }
}

fn deployment(replicas: u32, cpu_milli: Option<u32>) -> DeploymentGen {
    DeploymentGen {
        replicas,
        cpu_milli,
        memory_mi: Some(128),
        max_surge: None,
        max_unavailable: None,
        zone: None,
        tolerates: false,
    }
}

fn step(gap_s: u64, action: Action) -> StepGen {
    StepGen { gap_s, action }
}

#[test]
fn a_rollout_with_a_scale_an_undo_and_a_node_fault_keeps_every_invariant() {
    let case = Case {
        seed: 1,
        nodes: vec![node(4, 8, 110), node(2, 4, 20), node(8, 16, 110)],
        deployments: vec![
            deployment(3, Some(250)),
            DeploymentGen {
                max_surge: Some(IntOrPercent::Int(0)),
                max_unavailable: Some(IntOrPercent::Percent(50)),
                ..deployment(4, Some(500))
            },
        ],
        steps: vec![
            step(5, Action::SetImage(0, 1)),
            step(1, Action::Scale(1, 6)),
            step(20, Action::StopNode(0)),
            step(20, Action::Undo(0)),
            step(330, Action::StartNode(0)),
            step(30, Action::Delete(1)),
        ],
    };
    let stats = run_case(&case).unwrap_or_else(|e| panic!("{e}\n{case:?}"));
    assert!(stats.steps > 500, "{stats:?}");
    assert!(stats.bound >= 14, "{stats:?}");
    assert_eq!(stats.scheduled, stats.bound, "{stats:?}");
    assert!(stats.rollout_checks > 20, "{stats:?}");
}

#[test]
fn the_scenario_text_is_what_the_failure_report_shows() {
    let case = Case {
        seed: 9,
        nodes: vec![NodeGen {
            zone: Some(1),
            tainted: true,
            ..node(2, 4, 10)
        }],
        deployments: vec![DeploymentGen {
            max_surge: Some(IntOrPercent::Percent(25)),
            zone: Some(1),
            tolerates: true,
            ..deployment(2, None)
        }],
        steps: vec![step(3, Action::Scale(0, 1)), step(0, Action::StopNode(4))],
    };
    let text = format!("{case:?}");
    assert!(
        text.starts_with("scenario:\n---\napiVersion: v1\nkind: Node\n"),
        "{text}"
    );
    assert!(
        text.contains("    topology.kubernetes.io/zone: zone-b\n"),
        "{text}"
    );
    assert!(text.contains("      maxSurge: \"25%\"\n"), "{text}");
    assert!(
        text.contains("- at: 3s\n  kubectl: scale deployment/d0 --replicas=1\n"),
        "{text}"
    );
    assert!(
        text.contains("- at: 3s\n  fault: stop-node node-1\n"),
        "{text}"
    );
    run_case(&case).unwrap_or_else(|e| panic!("{e}\n{case:?}"));
}

/// Shrunk from the first failure the generator found, which was the checker's: scaled down
/// mid-rollout (4 -> 2 replicas, so maxUnavailable 25% goes from 1 to 0), the deployment
/// controller scales its ReplicaSets proportionally and a second after the scale only 1 pod is
/// available. Kubernetes bounds a rollout at a fixed replica count, not a scale, so the lower
/// bound waits until the Deployment has settled at its new size.
#[test]
fn a_scale_down_mid_rollout_is_proportional_not_bounded() {
    let case = Case {
        seed: 0,
        nodes: vec![node(1, 2, 10)],
        deployments: vec![DeploymentGen {
            memory_mi: None,
            ..deployment(4, None)
        }],
        steps: vec![
            step(4, Action::SetImage(0, 0)),
            step(1, Action::Scale(0, 2)),
        ],
    };
    let stats = run_case(&case).unwrap_or_else(|e| panic!("{e}\n{case:?}"));
    assert!(stats.rollout_checks > 0, "{stats:?}");
}

/// Shrunk from the second failure the generator found, again the checker's: scaled to 0 and
/// its pods deleted in the same instant, a Deployment has no pod left for a moment; its
/// ReplicaSets, not yet scaled down by the deployment controller, replace them. The upper
/// bound too waits until the Deployment has settled at its new spec.
#[test]
fn pods_deleted_right_after_a_scale_are_replaced_until_the_replicasets_are_scaled() {
    let case = Case {
        seed: 0,
        nodes: vec![node(1, 2, 10)],
        deployments: vec![DeploymentGen {
            memory_mi: None,
            ..deployment(10, Some(250))
        }],
        steps: vec![
            step(1, Action::SetImage(0, 0)),
            step(1, Action::Scale(0, 0)),
            step(0, Action::DeletePods(0)),
        ],
    };
    run_case(&case).unwrap_or_else(|e| panic!("{e}\n{case:?}"));
}

/// Shrunk from the third failure the generator found: a new template while the rollout of the
/// last one finishes (a rollover). The ReplicaSet being drained has scaled to 0 and its last pod
/// is going, but its status still counts it available when the deployment controller syncs; so
/// `scaleDownOldReplicaSetsForRollingUpdate` (which, in Kubernetes as here, sums the
/// ReplicaSets' status.availableReplicas) scales the other old one down one pod too far and 2
/// of 4 pods are available with maxUnavailable 1. Kubernetes does the same with a stale
/// status, so the lower bound is not checked with more than two ReplicaSets in play.
#[test]
fn a_rollover_may_count_a_pod_that_is_going_as_available() {
    let case = Case {
        seed: 0,
        nodes: vec![node(6, 2, 10)],
        deployments: vec![DeploymentGen {
            memory_mi: None,
            ..deployment(4, None)
        }],
        steps: vec![step(3, Action::Restart(0)), step(3, Action::SetImage(0, 0))],
    };
    let stats = run_case(&case).unwrap_or_else(|e| panic!("{e}\n{case:?}"));
    assert!(stats.rollout_checks > 0, "{stats:?}");
    let case = Case {
        nodes: vec![node(1, 2, 10)],
        deployments: vec![DeploymentGen {
            memory_mi: None,
            ..deployment(5, None)
        }],
        steps: vec![step(4, Action::Restart(0)), step(1, Action::Restart(0))],
        ..case
    };
    run_case(&case).unwrap_or_else(|e| panic!("{e}\n{case:?}"));
}

/// Shrunk from the fourth failure the generator found: a node stopped at 17 s is tainted
/// unreachable at about 67 s; started again at 360 s, it is Ready, but its pod is evicted at
/// 365.001 s (300 s after the taint), a millisecond after the node lifecycle controller removed
/// the taint, before the taint-eviction controller has seen that. A fault's consequence, and
/// the same race in Kubernetes: the lower bound stays off until every node has been Ready and
/// untainted for `SETTLE_MS`.
#[test]
fn a_node_started_again_may_still_have_its_pods_evicted() {
    let case = Case {
        seed: 0,
        nodes: vec![node(3, 9, 10), node(1, 2, 10)],
        deployments: vec![
            DeploymentGen {
                memory_mi: None,
                ..deployment(0, None)
            },
            DeploymentGen {
                memory_mi: None,
                ..deployment(1, None)
            },
        ],
        steps: vec![
            step(17, Action::StopNode(0)),
            step(10, Action::Scale(0, 0)),
            step(333, Action::StartNode(0)),
        ],
    };
    run_case(&case).unwrap_or_else(|e| panic!("{e}\n{case:?}"));
}

/// A settled one-pod cluster with its checker, and the pod's key and stored value.
fn settled_one_pod_cluster(case: &Case) -> (Cluster, Checker, String, Value) {
    let mut c = Cluster::from_text("invariants.yaml", &case.yaml()).unwrap();
    let mut chk = Checker::new(&mut c, case).unwrap();
    while !c.is_quiet() {
        c.step_one();
        chk.check(&mut c).unwrap();
    }
    let r = c
        .api
        .storage
        .etcd
        .range_prefix("/registry/pods/default/", None, 0)
        .unwrap();
    assert_eq!(r.kvs.len(), 1);
    let pod = serde_json::from_str(&r.kvs[0].value).unwrap();
    (c, chk, r.kvs[0].key.clone(), pod)
}

/// The checker is no rubber stamp: writes behind the cluster's back that break invariants 1,
/// 2 and 4 are reported.
#[test]
fn the_checker_reports_a_moved_pod_an_overcommitted_node_and_an_orphan() {
    let case = Case {
        seed: 2,
        nodes: vec![node(2, 4, 10), node(2, 4, 10)],
        deployments: vec![deployment(1, Some(500))],
        steps: vec![],
    };
    let put = |c: &mut Cluster, key: &str, v: &Value| {
        c.api
            .storage
            .etcd
            .put(key, serde_json::to_string(v).unwrap().into(), 0)
            .unwrap();
    };

    let (mut c, mut chk, key, mut pod) = settled_one_pod_cluster(&case);
    let on = pod["spec"]["nodeName"].as_str().unwrap().to_string();
    let other = if on == "node-1" { "node-2" } else { "node-1" };
    pod["spec"]["nodeName"] = other.into();
    put(&mut c, &key, &pod);
    let err = chk.check(&mut c).unwrap_err();
    assert!(
        err.contains(&format!("moved from node {on} to node {other}")),
        "{err}"
    );

    let (mut c, mut chk, key, mut pod) = settled_one_pod_cluster(&case);
    pod["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "3".into();
    put(&mut c, &key, &pod);
    let err = chk.check(&mut c).unwrap_err();
    assert!(
        err.contains(&format!("node {on} (allocatable cpu 2000m")),
        "{err}"
    );

    let (mut c, mut chk, key, mut pod) = settled_one_pod_cluster(&case);
    pod["metadata"]["ownerReferences"][0]["controller"] = false.into();
    put(&mut c, &key, &pod);
    let err = chk.check(&mut c).unwrap_err();
    assert!(err.contains("has 0 controller references"), "{err}");
}

/// Known issue (not an invariant of the issue, found by the generator as a case that took 10 s
/// in debug): a Deployment whose rollout completed (Progressing reason NewReplicaSetAvailable)
/// and that later lost availability (a stopped node) is, once `lastUpdateTime +
/// progressDeadlineSeconds` has passed, requeued rate-limited on every sync
/// (`requeueStuckDeployment`), as in Kubernetes. But the sim's rate limiter
/// (`controllers::workqueue::Delayed::backoff_ms`) is only the per-item exponential back-off,
/// which `Forget` resets after each clean sync, so the key comes back every 5 ms + 1 ms; client-go's
/// `DefaultControllerRateLimiter` is the max of that and a 10 qps (burst 100) token bucket, so
/// Kubernetes syncs it 10 times a second, not 166.
#[test]
#[ignore = "the deployment controller re-syncs a stuck Deployment every 6 ms (no 10 qps bucket limiter)"]
fn a_deployment_that_lost_availability_is_not_resynced_more_than_10_times_a_second() {
    let case = Case {
        seed: 3,
        nodes: vec![node(4, 8, 110), node(4, 8, 110)],
        deployments: vec![deployment(2, Some(100))],
        steps: vec![step(300, Action::StopNode(1))],
    };
    let mut c = Cluster::from_text("stuck.yaml", &case.yaml()).unwrap();
    c.run(Some(610_000));
    let mut events = 0;
    while c.now() < 640_000 && c.step_one() {
        events += 1;
    }
    // 30 s at 10 syncs a second, each a timer and a worker run, and the heartbeats.
    assert!(events < 1_000, "{events} events in 30 virtual seconds");
}
