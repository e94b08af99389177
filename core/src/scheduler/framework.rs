//! The scheduling framework (`pkg/scheduler/framework`): statuses, the per-node snapshot the
//! plugins read, the cycle state they share, and one trait per extension point. A plugin
//! implements only the extension points it uses; [`super::plugins`] lists them.

use crate::api::quantity::Quantity;
use crate::api::value::Value;
use crate::api::{meta, Object};
use crate::controllers::podutil::At;
use std::any::Any;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The highest score a plugin may give a node (`framework.MaxNodeScore`).
pub const MAX_NODE_SCORE: i64 = 100;
/// What a container without a cpu request counts as when scoring (`DefaultMilliCPURequest`).
pub const DEFAULT_MILLI_CPU_REQUEST: i64 = 100;
/// What a container without a memory request counts as when scoring (`DefaultMemoryRequest`).
pub const DEFAULT_MEMORY_REQUEST: i64 = 200 * 1024 * 1024;

/// A status code (`framework.Code`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    Success,
    /// The pod does not fit now; preemption may help.
    Unschedulable,
    /// The pod does not fit and preemption cannot help (a taint, an affinity mismatch).
    UnschedulableAndUnresolvable,
    Error,
    /// The plugin has nothing to do for this pod: its later extension points are skipped.
    Skip,
}

/// A plugin's verdict with its reasons (`framework.Status`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    pub code: Code,
    pub reasons: Vec<String>,
}

impl Status {
    pub fn success() -> Self {
        Status {
            code: Code::Success,
            reasons: vec![],
        }
    }
    pub fn skip() -> Self {
        Status {
            code: Code::Skip,
            reasons: vec![],
        }
    }
    pub fn new(code: Code, reasons: &[&str]) -> Self {
        Status {
            code,
            reasons: reasons.iter().map(|r| r.to_string()).collect(),
        }
    }
    pub fn unschedulable(reason: &str) -> Self {
        Status::new(Code::Unschedulable, &[reason])
    }
    pub fn unresolvable(reason: &str) -> Self {
        Status::new(Code::UnschedulableAndUnresolvable, &[reason])
    }
    pub fn error(message: impl Into<String>) -> Self {
        Status {
            code: Code::Error,
            reasons: vec![message.into()],
        }
    }
    pub fn is_success(&self) -> bool {
        self.code == Code::Success
    }
    pub fn is_rejected(&self) -> bool {
        matches!(
            self.code,
            Code::Unschedulable | Code::UnschedulableAndUnresolvable
        )
    }
    /// The reasons joined, as the trace shows them.
    pub fn message(&self) -> String {
        self.reasons.join(", ")
    }
}

/// Amounts of the resources the scheduler accounts for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Resource {
    pub milli_cpu: i64,
    /// Bytes.
    pub memory: i64,
    pub pods: i64,
}

impl Resource {
    fn add(&mut self, o: &Resource) {
        self.milli_cpu += o.milli_cpu;
        self.memory += o.memory;
        self.pods += o.pods;
    }
    fn sub(&mut self, o: &Resource) {
        self.milli_cpu -= o.milli_cpu;
        self.memory -= o.memory;
        self.pods -= o.pods;
    }
    fn max(&mut self, o: &Resource) {
        self.milli_cpu = self.milli_cpu.max(o.milli_cpu);
        self.memory = self.memory.max(o.memory);
    }
}

fn quantity(v: Option<&Value>) -> Option<Quantity> {
    v.and_then(|v| Quantity::from_json(v).ok())
}

/// A host port a pod asks for: (hostIP, protocol, port).
pub type HostPort = (String, String, i64);

/// A pod with what the scheduler computes from it once (`framework.PodInfo`).
#[derive(Clone, Debug)]
pub struct PodInfo {
    /// Shared with the informer's cache: the snapshot holds thousands of pods.
    pub pod: Rc<Object>,
    /// `namespace/name`.
    pub key: String,
    /// The real requests (max of init containers and the sum of containers, plus overhead).
    pub requests: Resource,
    /// The requests with the 100m / 200Mi defaults for containers that set none, for scoring.
    pub non_zero: Resource,
    pub host_ports: Vec<HostPort>,
    /// It has pod affinity or anti-affinity terms of any kind.
    pub has_affinity: bool,
    /// It has required pod anti-affinity terms.
    pub has_required_anti_affinity: bool,
    /// It has a deletionTimestamp (spreading and affinity no longer count it).
    pub deleting: bool,
    /// It names its node (`spec.nodeName`): NodeName asks for every node it filters.
    pub names_node: bool,
    /// It has a `nodeSelector` or required node affinity: NodeAffinity and PodTopologySpread
    /// ask for every node they look at, and most pods have neither.
    pub selects_nodes: bool,
    /// A hash of its namespace and labels: pods of one template share it, so what a label
    /// selector says of one of them it says of all (PodTopologySpread remembers it by this).
    pub label_set: u64,
    /// Its images, normalized: read on first use (ImageLocality asks once per scored node).
    images: std::sync::OnceLock<Vec<String>>,
}

fn container_requests(c: &Value) -> (Resource, Resource) {
    let req = c.at(&["resources", "requests"]);
    let cpu = quantity(req.and_then(|r| r.get("cpu")));
    let mem = quantity(req.and_then(|r| r.get("memory")));
    let real = Resource {
        milli_cpu: cpu.as_ref().map(|q| q.milli_value()).unwrap_or(0),
        memory: mem.as_ref().map(|q| q.value()).unwrap_or(0),
        pods: 0,
    };
    let non_zero = Resource {
        milli_cpu: cpu
            .map(|q| q.milli_value())
            .unwrap_or(DEFAULT_MILLI_CPU_REQUEST),
        memory: mem.map(|q| q.value()).unwrap_or(DEFAULT_MEMORY_REQUEST),
        pods: 0,
    };
    (real, non_zero)
}

impl PodInfo {
    pub fn new(pod: &Object) -> Self {
        Self::shared(Rc::new(pod.clone()))
    }

    pub fn shared(shared: Rc<Object>) -> Self {
        let pod: &Object = &shared;
        let spec = pod.get("spec");
        let list = |field: &str| -> &[Value] {
            spec.and_then(|s| s.get(field))
                .and_then(Value::as_array)
                .map_or(&[], Vec::as_slice)
        };
        let (mut requests, mut non_zero) = (Resource::default(), Resource::default());
        let mut host_ports = Vec::new();
        for c in list("containers") {
            let (r, n) = container_requests(c);
            requests.add(&r);
            non_zero.add(&n);
            for p in c
                .get("ports")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let port = p.get("hostPort").and_then(Value::as_i64).unwrap_or(0);
                if port > 0 {
                    let ip = p.get("hostIP").and_then(Value::as_str).unwrap_or("0.0.0.0");
                    let proto = p.get("protocol").and_then(Value::as_str).unwrap_or("TCP");
                    host_ports.push((ip.to_string(), proto.to_string(), port));
                }
            }
        }
        for c in list("initContainers") {
            let (r, n) = container_requests(c);
            requests.max(&r);
            non_zero.max(&n);
        }
        if let Some(o) = spec.and_then(|s| s.get("overhead")) {
            let over = Resource {
                milli_cpu: quantity(o.get("cpu")).map(|q| q.milli_value()).unwrap_or(0),
                memory: quantity(o.get("memory")).map(|q| q.value()).unwrap_or(0),
                pods: 0,
            };
            requests.add(&over);
            non_zero.add(&over);
        }
        requests.pods = 1;
        non_zero.pods = 1;
        let key = format!(
            "{}/{}",
            meta::namespace(pod).unwrap_or("default"),
            meta::name(pod)
        );
        let affinity = pod.at(&["spec", "affinity"]).and_then(Value::as_object);
        let has_affinity = affinity
            .is_some_and(|a| a.contains_key("podAffinity") || a.contains_key("podAntiAffinity"));
        let has_required_anti_affinity = pod
            .at(&[
                "spec",
                "affinity",
                "podAntiAffinity",
                "requiredDuringSchedulingIgnoredDuringExecution",
            ])
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty());
        let deleting = pod.at(&["metadata", "deletionTimestamp"]).is_some();
        let names_node = spec
            .and_then(|s| s.get("nodeName"))
            .and_then(Value::as_str)
            .is_some_and(|n| !n.is_empty());
        let selects_nodes = spec.is_some_and(|s| s.get("nodeSelector").is_some())
            || affinity.is_some_and(|a| a.contains_key("nodeAffinity"));
        let label_set = {
            use std::hash::{Hash, Hasher};
            // SipHash with fixed keys: the same on every run and platform.
            let mut h = std::collections::hash_map::DefaultHasher::new();
            meta::namespace(pod).unwrap_or("default").hash(&mut h);
            for (k, v) in meta::labels(pod).into_iter().flatten() {
                k.hash(&mut h);
                match v.as_str() {
                    Some(v) => v.hash(&mut h),
                    None => v.to_string().hash(&mut h),
                }
            }
            h.finish()
        };
        PodInfo {
            pod: shared,
            key,
            requests,
            non_zero,
            host_ports,
            has_affinity,
            has_required_anti_affinity,
            deleting,
            names_node,
            selects_nodes,
            label_set,
            images: std::sync::OnceLock::new(),
        }
    }

    pub fn namespace(&self) -> &str {
        // The key is `namespace/name`, and namespaces hold no '/'.
        self.key.split_once('/').map_or("default", |(ns, _)| ns)
    }

    pub fn spec(&self, field: &str) -> Option<&Value> {
        self.pod.get("spec").and_then(|s| s.get(field))
    }

    /// `spec.priority` (set by the Priority admission plugin; 0 without a class).
    pub fn priority(&self) -> i64 {
        self.spec("priority").and_then(Value::as_i64).unwrap_or(0)
    }

    /// The images of its init and regular containers, normalized (`normalized_image_name`).
    pub fn images(&self) -> &[String] {
        self.images.get_or_init(|| {
            ["initContainers", "containers"]
                .iter()
                .flat_map(|f| {
                    self.spec(f)
                        .and_then(Value::as_array)
                        .map_or(&[][..], Vec::as_slice)
                })
                .filter_map(|c| c.get("image").and_then(Value::as_str))
                .map(normalized_image_name)
                .collect()
        })
    }
}

/// An image present on a node, with how many nodes have it (`framework.ImageStateSummary`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImageState {
    pub size: i64,
    pub num_nodes: usize,
}

/// A node's labels packed in one text, with each key's and value's place in it, in key order.
/// A scheduling cycle reads a label of every node it looks at: beside the node's other facts
/// that is a cache line or two, where the node object is a walk through three maps.
#[derive(Clone, Debug, Default)]
pub struct PackedLabels {
    text: String,
    /// Key start, key end (the value's start), value end.
    spans: Vec<(u32, u32, u32)>,
}

impl PackedLabels {
    pub fn of(labels: Option<&crate::api::value::Map>) -> Self {
        let mut packed = PackedLabels::default();
        // A map's keys come in order, so the spans are sorted by key.
        for (k, v) in labels.into_iter().flatten() {
            let Some(v) = v.as_str() else { continue };
            let start = packed.text.len() as u32;
            packed.text.push_str(k);
            let mid = packed.text.len() as u32;
            packed.text.push_str(v);
            packed.spans.push((start, mid, packed.text.len() as u32));
        }
        packed
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        // A node has a dozen labels or so, most of them sharing `kubernetes.io/`: comparing
        // lengths first finds the one to compare in full quicker than a binary search does.
        let text = self.text.as_str();
        let &(_, m, e) = self.spans.iter().find(|&&(s, m, _)| {
            (m - s) as usize == key.len() && &text[s as usize..m as usize] == key
        })?;
        Some(&text[m as usize..e as usize])
    }
}

/// One node as the scheduler's snapshot holds it (`framework.NodeInfo`).
#[derive(Clone, Debug)]
pub struct NodeInfo {
    pub name: String,
    /// Read from the node object once, for the plugins that look at every node: its labels,
    /// `spec.unschedulable` and `spec.taints`. (The object itself is not kept: a copy per node
    /// of every status it reports, and the kubelet builds one for each pod it admits.)
    labels: PackedLabels,
    pub unschedulable: bool,
    taints: Vec<Value>,
    pub pods: Vec<PodInfo>,
    /// Sum of the real requests of its pods.
    pub requested: Resource,
    /// Sum of the requests with the scoring defaults.
    pub non_zero_requested: Resource,
    pub allocatable: Resource,
    pub used_ports: Vec<HostPort>,
    /// Normalized image name to its size and spread.
    pub image_states: BTreeMap<String, ImageState>,
    /// How many nodes the snapshot has (ImageLocality's spread denominator).
    pub total_nodes: usize,
    /// How many of its pods have pod affinity terms, and required anti-affinity terms.
    pub pods_with_affinity: usize,
    pub pods_with_required_anti_affinity: usize,
    /// Changes whenever its pods change, never repeats: lets plugins cache per-node counts.
    pub generation: u64,
    /// Like `generation`, but kept when a pod is replaced by a version with the same
    /// namespace, labels and deletion state: what label-selector counts depend on.
    pub count_generation: u64,
}

/// A fresh [`NodeInfo::generation`].
fn next_generation() -> u64 {
    static GENERATION: AtomicU64 = AtomicU64::new(1);
    GENERATION.fetch_add(1, Ordering::Relaxed)
}

/// `nginx` is `nginx:latest`; a name with a tag or digest is kept.
pub fn normalized_image_name(name: &str) -> String {
    let last = name.rsplit('/').next().unwrap_or(name);
    if last.contains(':') || last.contains('@') {
        name.to_string()
    } else {
        format!("{name}:latest")
    }
}

impl NodeInfo {
    pub fn new(node: &Object) -> Self {
        let alloc = node.at(&["status", "allocatable"]);
        let allocatable = Resource {
            milli_cpu: quantity(alloc.and_then(|a| a.get("cpu")))
                .map(|q| q.milli_value())
                .unwrap_or(0),
            memory: quantity(alloc.and_then(|a| a.get("memory")))
                .map(|q| q.value())
                .unwrap_or(0),
            pods: quantity(alloc.and_then(|a| a.get("pods")))
                .map(|q| q.value())
                .unwrap_or(0),
        };
        let mut image_states = BTreeMap::new();
        for img in node
            .at(&["status", "images"])
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let size = img.get("sizeBytes").and_then(Value::as_i64).unwrap_or(0);
            for n in img
                .get("names")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                image_states.insert(normalized_image_name(n), ImageState { size, num_nodes: 1 });
            }
        }
        NodeInfo {
            name: meta::name(node).to_string(),
            labels: PackedLabels::of(meta::labels(node)),
            unschedulable: node
                .at(&["spec", "unschedulable"])
                .and_then(Value::as_bool)
                .unwrap_or(false),
            taints: node
                .at(&["spec", "taints"])
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default(),
            pods: vec![],
            requested: Resource::default(),
            non_zero_requested: Resource::default(),
            allocatable,
            used_ports: vec![],
            image_states,
            total_nodes: 1,
            pods_with_affinity: 0,
            pods_with_required_anti_affinity: 0,
            generation: next_generation(),
            count_generation: next_generation(),
        }
    }

    /// A node with only allocatable cpu (millicores), memory (bytes) and 110 pods, for tests.
    pub fn with_allocatable(name: &str, milli_cpu: i64, memory: i64) -> Self {
        let mut n = NodeInfo::new(&crate::json!({"metadata": {"name": name}}));
        n.allocatable = Resource {
            milli_cpu,
            memory,
            pods: 110,
        };
        n
    }

    pub fn add_pod(&mut self, pod: PodInfo) {
        self.requested.add(&pod.requests);
        self.non_zero_requested.add(&pod.non_zero);
        self.used_ports.extend(pod.host_ports.iter().cloned());
        self.pods_with_affinity += usize::from(pod.has_affinity);
        self.pods_with_required_anti_affinity += usize::from(pod.has_required_anti_affinity);
        self.pods.push(pod);
        self.generation = next_generation();
        self.count_generation = next_generation();
    }

    /// Takes a pod off the node (by `namespace/name`).
    pub fn remove_pod(&mut self, key: &str) -> Option<PodInfo> {
        let i = self.pods.iter().position(|p| p.key == key)?;
        let pod = self.pods.remove(i);
        self.generation = next_generation();
        self.count_generation = next_generation();
        self.pods_with_affinity -= usize::from(pod.has_affinity);
        self.pods_with_required_anti_affinity -= usize::from(pod.has_required_anti_affinity);
        self.requested.sub(&pod.requests);
        self.non_zero_requested.sub(&pod.non_zero);
        for hp in &pod.host_ports {
            if let Some(j) = self.used_ports.iter().position(|u| u == hp) {
                self.used_ports.remove(j);
            }
        }
        Some(pod)
    }

    /// The node object changed: new labels, taints, allocatable, images; same pods.
    pub fn set_node(&mut self, node: &Object) {
        let fresh = NodeInfo::new(node);
        self.labels = fresh.labels;
        self.unschedulable = fresh.unschedulable;
        self.taints = fresh.taints;
        self.allocatable = fresh.allocatable;
        self.image_states = fresh.image_states;
    }

    pub fn has_labels(&self) -> bool {
        !self.labels.spans.is_empty()
    }

    pub fn label(&self, key: &str) -> Option<&str> {
        self.labels.get(key)
    }

    pub fn taints(&self) -> &[Value] {
        &self.taints
    }
}

/// Fills each node's image states with how many nodes hold each image.
pub fn count_image_spread(nodes: &mut [NodeInfo]) {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for n in nodes.iter() {
        for k in n.image_states.keys() {
            *counts.entry(k.clone()).or_default() += 1;
        }
    }
    let total = nodes.len();
    for n in nodes.iter_mut() {
        n.total_nodes = total;
        for (k, s) in n.image_states.iter_mut() {
            s.num_nodes = counts[k];
        }
    }
}

/// CycleState key of the snapshot's [`PodLabelIndex`] (an `Rc<PodLabelIndex>`).
pub const POD_LABEL_INDEX: &str = "podLabelIndex";

/// Which nodes hold pods with a given label, by namespace, key and value, with how many
/// such pods each holds. A plugin counting the pods a selector matches over every node visits
/// only the nodes that can hold one: the real scheduler walks all nodes in 16 goroutines, a
/// browser tab has one thread and 5,000 nodes.
#[derive(Clone, Debug, Default)]
pub struct PodLabelIndex {
    /// By [`PodLabelIndex::key`]: one map type, not three nested ones (the page's wasm pays
    /// for every map type).
    nodes: BTreeMap<String, BTreeMap<String, u32>>,
}

impl PodLabelIndex {
    /// The index's key for pods of `namespace` labelled `key=value` (namespaces hold no `/`,
    /// label keys no `=`).
    pub fn key(namespace: &str, key: &str, value: &str) -> String {
        format!("{namespace}/{key}={value}")
    }

    fn keys(pod: &PodInfo) -> impl Iterator<Item = String> + '_ {
        let ns = pod.namespace();
        meta::labels(&pod.pod)
            .into_iter()
            .flatten()
            .filter_map(move |(k, v)| Some(Self::key(ns, k, v.as_str()?)))
    }

    /// `pod` is now on `node`.
    pub fn add(&mut self, node: &str, pod: &PodInfo) {
        for key in Self::keys(pod) {
            *self
                .nodes
                .entry(key)
                .or_default()
                .entry(node.to_string())
                .or_default() += 1;
        }
    }

    /// `pod` left `node`.
    pub fn remove(&mut self, node: &str, pod: &PodInfo) {
        for key in Self::keys(pod) {
            let Some(by_node) = self.nodes.get_mut(&key) else {
                continue;
            };
            if let Some(n) = by_node.get_mut(node) {
                *n -= 1;
                if *n == 0 {
                    by_node.remove(node);
                }
            }
            if by_node.is_empty() {
                self.nodes.remove(&key);
            }
        }
    }

    /// The nodes, in name order, holding pods under `key` ([`PodLabelIndex::key`]).
    pub fn nodes_with<'a>(&'a self, key: &str) -> impl Iterator<Item = &'a str> + 'a {
        self.nodes
            .get(key)
            .into_iter()
            .flat_map(|by_node| by_node.keys().map(String::as_str))
    }

    /// How many pods under `key` ([`PodLabelIndex::key`]) are on `node`.
    pub fn count_on(&self, key: &str, node: &str) -> u32 {
        self.nodes
            .get(key)
            .and_then(|by_node| by_node.get(node))
            .copied()
            .unwrap_or(0)
    }
}

/// Data plugins keep between extension points within one scheduling cycle.
#[derive(Default)]
pub struct CycleState {
    /// A handful of entries, read for every node a cycle looks at: a list whose keys are
    /// compared by length first is cheaper than an ordered map's string comparisons.
    data: Vec<(&'static str, Box<dyn Any>)>,
    /// Plugins whose PreFilter or PreScore returned Skip.
    pub skip_filter: Vec<&'static str>,
    pub skip_score: Vec<&'static str>,
}

impl CycleState {
    pub fn write<T: Any>(&mut self, key: &'static str, value: T) {
        match self.data.iter_mut().find(|(k, _)| same_key(k, key)) {
            Some((_, v)) => *v = Box::new(value),
            None => self.data.push((key, Box::new(value))),
        }
    }
    pub fn read<T: Any>(&self, key: &'static str) -> Option<&T> {
        self.data
            .iter()
            .find(|(k, _)| same_key(k, key))?
            .1
            .downcast_ref()
    }
}

fn same_key(a: &str, b: &str) -> bool {
    a.len() == b.len() && (std::ptr::eq(a.as_ptr(), b.as_ptr()) || a == b)
}

/// Every plugin has a name.
pub trait Plugin {
    fn name(&self) -> &'static str;
}

/// Runs once per cycle before the filters; may reject the pod outright or Skip its Filter.
pub trait PreFilterPlugin: Plugin {
    fn pre_filter(&self, state: &mut CycleState, pod: &PodInfo, nodes: &[NodeInfo]) -> Status;
}

/// Whether the pod may run on one node.
pub trait FilterPlugin: Plugin {
    fn filter(&self, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status;
}

/// Runs once per cycle over the feasible nodes before scoring; may Skip its Score.
pub trait PreScorePlugin: Plugin {
    fn pre_score(
        &self,
        state: &mut CycleState,
        pod: &PodInfo,
        feasible: &[&NodeInfo],
        all: &[NodeInfo],
    ) -> Status;
}

/// Ranks a feasible node; `normalize_score` then maps the raw scores to 0..=100.
pub trait ScorePlugin: Plugin {
    fn score(&self, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status>;
    fn normalize_score(&self, _state: &CycleState, _pod: &PodInfo, _scores: &mut [i64]) {}
}

/// What a PostFilter plugin found: a message for the FitError, or a node to nominate once
/// the victims are gone.
#[derive(Clone, Debug, Default)]
pub struct PostFilterResult {
    /// Appended to the FitError (`preemption: ...`) when nothing could be done.
    pub message: Option<String>,
    pub nominated_node: Option<String>,
    /// Pods to evict from the nominated node.
    pub victims: Vec<PodInfo>,
}

/// Runs when no node fits (preemption). `fits` runs the Filter plugins on a changed node.
pub trait PostFilterPlugin: Plugin {
    fn post_filter(
        &self,
        state: &CycleState,
        pod: &PodInfo,
        nodes: &[NodeInfo],
        statuses: &BTreeMap<String, Status>,
        fits: &dyn Fn(&NodeInfo) -> bool,
    ) -> PostFilterResult;
}

/// `DefaultNormalizeScore`: scale to 0..=max by the highest score, reversed if asked.
pub fn default_normalize_score(max_priority: i64, reverse: bool, scores: &mut [i64]) {
    let max_count = scores.iter().copied().max().unwrap_or(0).max(0);
    if max_count == 0 {
        if reverse {
            scores.iter_mut().for_each(|s| *s = max_priority);
        }
        return;
    }
    for s in scores.iter_mut() {
        let mut v = max_priority * *s / max_count;
        if reverse {
            v = max_priority - v;
        }
        *s = v;
    }
}

/// `v1helper.TolerationsTolerateTaint` for one toleration.
pub fn tolerates(toleration: &Value, taint: &Value) -> bool {
    fn s<'a>(v: &'a Value, k: &str) -> &'a str {
        v.get(k).and_then(Value::as_str).unwrap_or("")
    }
    let effect = s(toleration, "effect");
    if !effect.is_empty() && effect != s(taint, "effect") {
        return false;
    }
    let key = s(toleration, "key");
    if !key.is_empty() && key != s(taint, "key") {
        return false;
    }
    match s(toleration, "operator") {
        "Exists" => true,
        "" | "Equal" => s(toleration, "value") == s(taint, "value"),
        _ => false,
    }
}

/// The pod's tolerations.
pub fn tolerations(pod: &PodInfo) -> &[Value] {
    pod.spec("tolerations")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_labels_read_as_the_node_object_does() {
        let node = crate::json!({"metadata": {"name": "n", "labels": {
            "kubernetes.io/hostname": "n", "topology.kubernetes.io/zone": "zone-1",
            "a": "", "zz": "last", "日本": "語"}}, "spec": {"unschedulable": true,
            "taints": [{"key": "k", "effect": "NoSchedule"}]}});
        let info = NodeInfo::new(&node);
        for (k, v) in meta::labels(&node).unwrap() {
            assert_eq!(info.label(k), v.as_str(), "{k}");
        }
        for missing in [
            "",
            "b",
            "kubernetes.io",
            "zzz",
            "topology.kubernetes.io/region",
        ] {
            assert_eq!(info.label(missing), None, "{missing}");
        }
        assert!(info.unschedulable);
        assert_eq!(info.taints().len(), 1);
        // A changed node object replaces all of them.
        let mut info = info;
        info.set_node(&crate::json!({"metadata": {"name": "n", "labels": {"a": "b"}}}));
        assert_eq!(info.label("a"), Some("b"));
        assert_eq!(info.label("zz"), None);
        assert!(!info.unschedulable && info.taints().is_empty());
    }
    use crate::json;

    #[test]
    fn non_zero_requests_default_per_container() {
        let p = PodInfo::new(
            &json!({"metadata": {"name": "p", "namespace": "default"}, "spec": {"containers": [
                {"name": "a", "resources": {"requests": {"cpu": "250m"}}},
                {"name": "b"}
            ]}}),
        );
        assert_eq!(p.requests.milli_cpu, 250);
        assert_eq!(p.requests.memory, 0);
        assert_eq!(p.non_zero.milli_cpu, 350);
        assert_eq!(p.non_zero.memory, 2 * DEFAULT_MEMORY_REQUEST);
    }

    #[test]
    fn normalize_reverse_and_forward() {
        let mut s = [0, 1, 2];
        default_normalize_score(100, true, &mut s);
        assert_eq!(s, [100, 50, 0]);
        let mut s = [0, 0];
        default_normalize_score(100, true, &mut s);
        assert_eq!(s, [100, 100]);
        let mut s = [10, 30, 0];
        default_normalize_score(100, false, &mut s);
        assert_eq!(s, [33, 100, 0]);
        let mut s = [0, 0];
        default_normalize_score(100, false, &mut s);
        assert_eq!(s, [0, 0]);
    }

    #[test]
    fn image_names_get_latest() {
        assert_eq!(normalized_image_name("nginx"), "nginx:latest");
        assert_eq!(normalized_image_name("nginx:1.25"), "nginx:1.25");
        assert_eq!(
            normalized_image_name("localhost:5000/app"),
            "localhost:5000/app:latest"
        );
    }
}
