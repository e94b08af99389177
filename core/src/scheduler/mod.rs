//! kube-scheduler (`pkg/scheduler`): watches pods and nodes, takes unscheduled pods off its
//! queue one at a time, runs the framework's plugins over the nodes (PreFilter, Filter,
//! PostFilter, PreScore, Score, NormalizeScore), picks the best node and binds the pod to it
//! through kube-apiserver. Each decision is one `schedule` trace record with the
//! node-by-plugin table.

pub mod config;
pub mod framework;
pub mod plugins;
pub mod queue;

use crate::api::value::{json, Value};
use crate::api::{meta, resources::for_kind, selector::Selector, Object};
use crate::apiserver::{Credentials, PatchType, Verb};
use crate::cluster::component::{Component, Ctx, InformerSpec, Input};
use crate::cluster::informer::{key_of, Informer};
use crate::cluster::memo::VersionMemo;
use crate::controllers::events::{EventType, Recorder};
use crate::controllers::podutil::At;
use crate::kernel::{time::rfc3339, Millis};
use crate::trace::{Component as Lane, FilterCell, NodeRow, ScoreCell};
use framework::{
    count_image_spread, Code, CycleState, FilterPlugin, NodeInfo, PodInfo, PodLabelIndex, Status,
    POD_LABEL_INDEX,
};
use plugins::{default_preemption::fit_error_message, pod_topology_spread, Profile};
use queue::{Place, SchedulingQueue};
use std::collections::BTreeMap;
use std::rc::Rc;

/// The profile's name, which pods ask for in `spec.schedulerName`.
pub const SCHEDULER_NAME: &str = "default-scheduler";
/// How long one scheduling cycle takes to start after a pod is queued.
pub const CYCLE_MS: Millis = 1;

const PODS: usize = 0;
const NODES: usize = 1;
const REPLICASETS: usize = 2;
const SERVICES: usize = 3;

const TAG_SCHEDULE: u64 = 0;
const TAG_BACKOFF: u64 = 1;
const TAG_FLUSH: u64 = 2;
const TAG_PUT_NODES: u64 = 3;

/// How many nodes of the informers' initial list are put in the cache in one step; the rest
/// follow in steps at the same virtual time. 5,000 nodes put in one step took over 50 ms in the
/// page, which can only yield between steps. (The real scheduler's informer also hands its
/// handlers the initial list one object at a time.)
pub const NODES_PUT_PER_STEP: usize = 500;

/// How often unschedulable pods that waited too long are retried (`flushUnschedulablePodsLeftover`).
pub const FLUSH_INTERVAL_MS: Millis = 30_000;
/// `podMaxInUnschedulablePodsDuration`: after this long a pod is retried without an event.
pub const MAX_UNSCHEDULABLE_MS: Millis = 5 * 60_000;

/// `minFeasibleNodesToFind`.
pub const MIN_FEASIBLE_NODES_TO_FIND: usize = 100;
/// `minFeasibleNodesPercentageToFind`.
pub const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND: i64 = 5;

/// `numFeasibleNodesToFind`: how many feasible nodes the Filter phase looks for before it
/// stops; `percentage` is `percentageOfNodesToScore` (0: adaptive).
pub fn num_feasible_nodes_to_find(num_all_nodes: usize, percentage: i64) -> usize {
    if num_all_nodes < MIN_FEASIBLE_NODES_TO_FIND || percentage >= 100 {
        return num_all_nodes;
    }
    let mut pct = percentage;
    if pct <= 0 {
        pct = (50 - num_all_nodes as i64 / 125).max(MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND);
    }
    let n = (num_all_nodes as i64 * pct / 100) as usize;
    n.max(MIN_FEASIBLE_NODES_TO_FIND)
}

/// Whether this scheduler should schedule the pod.
fn responsible(pod: &Object) -> bool {
    let unassigned = pod
        .at(&["spec", "nodeName"])
        .and_then(Value::as_str)
        .is_none_or(str::is_empty);
    let ours = pod
        .at(&["spec", "schedulerName"])
        .and_then(Value::as_str)
        .is_none_or(|s| s == SCHEDULER_NAME);
    unassigned && ours && pod.at(&["metadata", "deletionTimestamp"]).is_none() && !terminal(pod)
}

/// `spec.schedulingGates` not yet removed.
fn gated(pod: &Object) -> bool {
    pod.at(&["spec", "schedulingGates"])
        .and_then(Value::as_array)
        .is_some_and(|g| !g.is_empty())
}

/// The longest message an event note or condition gets (`truncateMessage`).
pub const NOTE_LENGTH_LIMIT: usize = 1024;

/// Cuts a long FitError to 1024 bytes, ending in ` ...`.
pub fn truncate_message(message: &str) -> String {
    if message.len() <= NOTE_LENGTH_LIMIT {
        return message.to_string();
    }
    let mut end = NOTE_LENGTH_LIMIT - 4;
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    format!("{} ...", &message[..end])
}

fn terminal(pod: &Object) -> bool {
    matches!(
        pod.at(&["status", "phase"]).and_then(Value::as_str),
        Some("Succeeded" | "Failed")
    )
}

fn pod_fingerprint(pod: &Object) -> Value {
    json!({"spec": pod.get("spec"), "labels": pod.at(&["metadata", "labels"])})
}

fn node_fingerprint(node: &Object) -> Value {
    let conditions: Value = node
        .at(&["status", "conditions"])
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| {
            Some((
                c.get("type")?.as_str()?.to_string(),
                c.get("status")?.clone(),
            ))
        })
        .collect();
    json!({
        "labels": node.at(&["metadata", "labels"]),
        "taints": node.at(&["spec", "taints"]),
        "unschedulable": node.at(&["spec", "unschedulable"]),
        "allocatable": node.at(&["status", "allocatable"]),
        "images": node.at(&["status", "images"]),
        "conditions": conditions,
    })
}

/// A Service's selector as a default spreading selector (none if it selects nothing).
fn service_selector(svc: &Object) -> Option<Selector> {
    let sel = svc
        .at(&["spec", "selector"])
        .filter(|s| s.as_object().is_some_and(|m| !m.is_empty()))?;
    Selector::from_label_selector(Some(&json!({ "matchLabels": sel }))).ok()
}

/// A ReplicaSet's selector as a default spreading selector (none if empty or invalid).
fn replicaset_selector(rs: &Object) -> Option<Selector> {
    Selector::from_label_selector(rs.at(&["spec", "selector"]))
        .ok()
        .filter(|s| !s.is_empty())
}

/// Services and ReplicaSets by a label their default spreading selector requires
/// (`namespace/key=value`), or by `namespace/` when it requires none: a pod can only match the
/// owners filed under one of its labels and those under `namespace/`, so finding its default
/// selectors does not look at every owner of the namespace.
const SELECTOR_LABEL_INDEX: &str = "defaultSelectorLabel";

fn selector_label_entry(owner: &Object, selector: Option<Selector>) -> Vec<String> {
    let ns = meta::namespace(owner).unwrap_or("");
    match selector {
        None => Vec::new(),
        Some(s) => match s.required_label() {
            Some((k, v)) => vec![format!("{ns}/{k}={v}")],
            None => vec![format!("{ns}/")],
        },
    }
}

fn service_selector_label(svc: &Object) -> Vec<String> {
    selector_label_entry(svc, service_selector(svc))
}

fn replicaset_selector_label(rs: &Object) -> Vec<String> {
    selector_label_entry(rs, replicaset_selector(rs))
}

/// The selectors of the Services, then the ReplicaSets, of namespace `ns` that select a pod
/// with `labels`, each kind in key order (what a scan of the namespace finds), from the
/// informers' [`SELECTOR_LABEL_INDEX`].
fn default_selectors(
    ns: &str,
    labels: Option<&crate::api::value::Map>,
    services: &Informer,
    rss: &Informer,
    parsed: &mut VersionMemo<Option<Selector>>,
) -> Vec<Selector> {
    let mut index_values = vec![format!("{ns}/")];
    for (k, v) in labels.into_iter().flatten() {
        if let Some(v) = v.as_str() {
            index_values.push(format!("{ns}/{k}={v}"));
        }
    }
    let candidates = |informer: &Informer| -> Vec<Rc<Object>> {
        let found: BTreeMap<&str, &Rc<Object>> = index_values
            .iter()
            .flat_map(|value| informer.by_index_keyed(SELECTOR_LABEL_INDEX, value))
            .collect();
        found.into_values().cloned().collect()
    };
    let owners = candidates(services)
        .into_iter()
        .map(|o| (o, service_selector as fn(&Object) -> Option<Selector>))
        .chain(
            candidates(rss)
                .into_iter()
                .map(|o| (o, replicaset_selector as fn(&Object) -> Option<Selector>)),
        );
    let mut out = Vec::new();
    for (owner, parse) in owners {
        if let Some(s) = parsed.get(&owner, parse).as_ref() {
            if s.matches(labels) {
                out.push(s.clone());
            }
        }
    }
    out
}

pub struct Scheduler {
    profile: Profile,
    queue: SchedulingQueue,
    recorder: Recorder,
    /// Where the next Filter phase starts (`nextStartNodeIndex`).
    next_start_node_index: usize,
    /// `percentageOfNodesToScore` (0: adaptive).
    pub percentage_of_nodes_to_score: i64,
    /// The cache's nodes with their pods, in name order (`internalcache` and its snapshot).
    snapshot: Vec<NodeInfo>,
    /// The snapshot's pods by label (shared with the cycle's state, changed between cycles).
    pod_labels: Rc<PodLabelIndex>,
    /// Pod `namespace/name` to the node it is counted on.
    pod_node: BTreeMap<String, String>,
    /// Pods bound by this scheduler that the informer has not shown bound yet.
    assumed: BTreeMap<String, String>,
    node_fingerprints: BTreeMap<String, Value>,
    /// A scheduling-cycle timer is pending.
    armed: bool,
    /// The parsed selectors of cached Services and ReplicaSets, per object version.
    selectors: VersionMemo<Option<Selector>>,
    /// What of the informers' initial list is not handled yet (see [`NODES_PUT_PER_STEP`]).
    initial: Option<InitialList>,
}

/// The informers' initial nodes and pods, as listed when the scheduler started: the nodes not
/// put in the cache yet (last first), then every pod.
struct InitialList {
    nodes: Vec<Rc<Object>>,
    pods: Vec<Rc<Object>>,
    recount: bool,
}

impl Default for Scheduler {
    fn default() -> Self {
        Scheduler::new()
    }
}

impl Scheduler {
    pub fn new() -> Self {
        Scheduler::with_config(&config::SchedulerConfig::default())
    }

    /// A scheduler as a `KubeSchedulerConfiguration` sets it up.
    pub fn with_config(config: &config::SchedulerConfig) -> Self {
        Scheduler {
            profile: plugins::profile(config),
            queue: SchedulingQueue::default(),
            recorder: Recorder::new(SCHEDULER_NAME),
            next_start_node_index: 0,
            percentage_of_nodes_to_score: config.percentage_of_nodes_to_score,
            snapshot: Vec::new(),
            pod_labels: Rc::default(),
            pod_node: BTreeMap::new(),
            assumed: BTreeMap::new(),
            node_fingerprints: BTreeMap::new(),
            armed: false,
            selectors: VersionMemo::default(),
            initial: None,
        }
    }

    /// Puts up to `limit` more of the initial nodes in the cache; after the last, counts the
    /// image spread and adds the initial pods. Until then, a timer asks for the next step.
    fn handle_initial_list(&mut self, ctx: &mut Ctx<'_>, limit: usize) {
        let Some(mut initial) = self.initial.take() else {
            return;
        };
        for _ in 0..limit {
            let Some(node) = initial.nodes.pop() else {
                break;
            };
            initial.recount |= self.put_node(ctx, &node);
        }
        if !initial.nodes.is_empty() {
            self.initial = Some(initial);
            ctx.after(0, TAG_PUT_NODES, false);
            return;
        }
        if initial.recount {
            count_image_spread(&mut self.snapshot);
        }
        for p in &initial.pods {
            self.on_pod(ctx, "ADDED", p);
        }
    }

    fn node_index(&self, name: &str) -> Option<usize> {
        self.snapshot
            .binary_search_by(|n| n.name.as_str().cmp(name))
            .ok()
    }

    /// `spec.priority`, as the Priority admission plugin set it (0 without a class).
    fn priority(pod: &Object) -> i64 {
        pod.at(&["spec", "priority"])
            .and_then(Value::as_i64)
            .unwrap_or(0)
    }

    /// Puts the pod on the node it runs on (or takes it off when it is gone or finished).
    fn place_pod(&mut self, key: &str, pod: Option<&Rc<Object>>) {
        // What the pod was on its node, with the node's count generation before it left.
        let mut was: Option<(usize, PodInfo, u64)> = None;
        if let Some(old) = self.pod_node.remove(key) {
            if let Some(i) = self.node_index(&old) {
                let before = self.snapshot[i].count_generation;
                if let Some(info) = self.snapshot[i].remove_pod(key) {
                    Rc::make_mut(&mut self.pod_labels).remove(&old, &info);
                    was = Some((i, info, before));
                }
            }
        }
        let Some(pod) = pod.filter(|p| !terminal(p)) else {
            return;
        };
        let node = match pod.at(&["spec", "nodeName"]).and_then(Value::as_str) {
            Some(n) if !n.is_empty() => n.to_string(),
            _ => match self.assumed.get(key) {
                Some(n) => n.clone(),
                None => return,
            },
        };
        if let Some(i) = self.node_index(&node) {
            let info = PodInfo::shared(pod.clone());
            // Back on the same node with the same namespace, labels and deletion state: the
            // label-selector counts cached for the node still hold.
            let same = was.as_ref().is_some_and(|(j, old, _)| {
                *j == i
                    && old.key == info.key
                    && old.deleting == info.deleting
                    && meta::labels(&old.pod) == meta::labels(&info.pod)
            });
            Rc::make_mut(&mut self.pod_labels).add(&node, &info);
            self.snapshot[i].add_pod(info);
            if let (true, Some((_, _, before))) = (same, was) {
                self.snapshot[i].count_generation = before;
            }
        }
        self.pod_node.insert(key.to_string(), node);
    }

    fn upsert_node(&mut self, ctx: &Ctx<'_>, node: &Object) {
        if self.put_node(ctx, node) {
            count_image_spread(&mut self.snapshot);
        }
    }

    /// [`Scheduler::upsert_node`] without counting the image spread again: true when it must
    /// be (the node is new, or its images changed). The initial list counts once for all nodes.
    fn put_node(&mut self, ctx: &Ctx<'_>, node: &Object) -> bool {
        let name = meta::name(node).to_string();
        let recount = match self.node_index(&name) {
            Some(i) => {
                let old = std::mem::take(&mut self.snapshot[i].image_states);
                self.snapshot[i].set_node(node);
                let same = old.keys().eq(self.snapshot[i].image_states.keys());
                if same {
                    for (k, st) in self.snapshot[i].image_states.iter_mut() {
                        st.num_nodes = old[k].num_nodes;
                    }
                }
                !same
            }
            None => {
                let pos = self.snapshot.partition_point(|n| n.name < name);
                self.snapshot.insert(pos, NodeInfo::new(node));
                let pods: Vec<(String, Rc<Object>)> = ctx
                    .cache(PODS)
                    .list_shared()
                    .filter(|p| p.at(&["spec", "nodeName"]).and_then(Value::as_str) == Some(&name))
                    .map(|p| (key_of(&p), p))
                    .collect();
                for (k, p) in pods {
                    self.place_pod(&k, Some(&p));
                }
                true
            }
        };
        self.node_fingerprints.insert(name, node_fingerprint(node));
        recount
    }

    fn remove_node(&mut self, name: &str) {
        if let Some(i) = self.node_index(name) {
            let gone = self.snapshot.remove(i);
            let index = Rc::make_mut(&mut self.pod_labels);
            for p in &gone.pods {
                index.remove(name, p);
            }
        }
        self.pod_node.retain(|_, n| n != name);
        self.node_fingerprints.remove(name);
        count_image_spread(&mut self.snapshot);
    }

    /// A cluster event that may make unschedulable pods fit.
    fn move_all(&mut self, ctx: &mut Ctx<'_>) {
        if let Some(until) = self.queue.move_all_to_active_or_backoff(ctx.now()) {
            ctx.after(until - ctx.now(), TAG_BACKOFF, false);
        }
    }

    fn arm(&mut self, ctx: &mut Ctx<'_>) {
        if !self.armed && self.queue.has_active() {
            ctx.after(CYCLE_MS, TAG_SCHEDULE, false);
            self.armed = true;
        }
    }

    fn on_pod(&mut self, ctx: &mut Ctx<'_>, kind: &str, pod: &Rc<Object>) {
        let key = key_of(pod);
        if kind == "DELETED" {
            self.queue.delete(&key);
            self.assumed.remove(&key);
            let was_placed = self.pod_node.contains_key(&key);
            self.place_pod(&key, None);
            if was_placed {
                self.move_all(ctx);
            }
            return;
        }
        if responsible(pod) && gated(pod) {
            // PreEnqueue (SchedulingGates): it waits outside the queue until its gates go.
            self.queue.delete(&key);
            return;
        }
        if responsible(pod) && !self.assumed.contains_key(&key) {
            match self.queue.place(&key) {
                None => self.queue.add(&key, Self::priority(pod)),
                Some(Place::Unschedulable) if self.queue.changed(&key, &pod_fingerprint(pod)) => {
                    if let Some(until) = self.queue.move_one(&key, ctx.now()) {
                        ctx.after(until - ctx.now(), TAG_BACKOFF, false);
                    }
                }
                _ => {}
            }
            return;
        }
        // Assigned (by us or anyone), finished, or being deleted.
        self.queue.delete(&key);
        if pod
            .at(&["spec", "nodeName"])
            .and_then(Value::as_str)
            .is_some_and(|n| !n.is_empty())
        {
            self.assumed.remove(&key);
        }
        let freed = terminal(pod) && self.pod_node.contains_key(&key);
        self.place_pod(&key, Some(pod));
        if freed {
            self.move_all(ctx);
        }
    }

    /// The selectors of the Services and ReplicaSets that select the pod (`DefaultSelector`).
    fn default_selectors(&mut self, ctx: &Ctx<'_>, pod: &PodInfo) -> Vec<Selector> {
        let labels = meta::labels(&pod.pod);
        let ns = pod.namespace();
        let (services, rss) = (ctx.cache(SERVICES), ctx.cache(REPLICASETS));
        default_selectors(ns, labels, services, rss, &mut self.selectors)
    }

    fn schedule_one(&mut self, ctx: &mut Ctx<'_>, key: &str) {
        let Some(mut pod_obj) = ctx.cache(PODS).get_shared(key) else {
            self.queue.delete(key);
            return;
        };
        if !responsible(&pod_obj) || self.assumed.contains_key(key) {
            self.queue.delete(key);
            return;
        }
        // A copy of the cached pod only if it lacks its type (the snapshot shares it).
        if pod_obj.get("apiVersion").and_then(Value::as_str) != Some("v1")
            || pod_obj.get("kind").and_then(Value::as_str) != Some("Pod")
        {
            let p = Rc::make_mut(&mut pod_obj);
            p["apiVersion"] = json!("v1");
            p["kind"] = json!("Pod");
        }
        // A sampled trace of a big run drops this pod's record: no per-node table to build.
        let detailed = ctx.traced(&format!("Pod {key}"));
        let pod = PodInfo::shared(Rc::clone(&pod_obj));
        let mut state = CycleState::default();
        state.write(
            pod_topology_spread::DEFAULT_SELECTORS,
            self.default_selectors(ctx, &pod),
        );
        state.write(POD_LABEL_INDEX, Rc::clone(&self.pod_labels));
        let nodes = &self.snapshot;
        let n = nodes.len();
        let mut rows: BTreeMap<usize, NodeRow> = BTreeMap::new();
        let mut statuses: BTreeMap<String, Status> = BTreeMap::new();
        let mut feasible: Vec<usize> = Vec::new();

        // PreFilter.
        let mut pre_filter_reject: Option<Status> = None;
        for pl in &self.profile.pre_filter {
            let s = pl.pre_filter(&mut state, &pod, nodes);
            match s.code {
                Code::Success => {}
                Code::Skip => state.skip_filter.push(pl.name()),
                _ => {
                    pre_filter_reject = Some(s);
                    break;
                }
            }
        }

        // Filter: first the node a preemption nominated, if it fits now; otherwise from the
        // rotating start index until enough feasible nodes are found.
        // The Filter plugins whose PreFilter did not skip them, looked up once per cycle.
        let filters: Vec<&dyn FilterPlugin> = self
            .profile
            .filter
            .iter()
            .filter(|pl| !state.skip_filter.contains(&pl.name()))
            .map(|pl| pl.as_ref())
            .collect();
        let filter_node = |idx: usize| -> (NodeRow, Status) {
            let mut row = NodeRow {
                node: if detailed {
                    nodes[idx].name.clone()
                } else {
                    String::new()
                },
                filters: vec![],
                scores: vec![],
                total: None,
            };
            for pl in &filters {
                let s = pl.filter(&state, &pod, &nodes[idx]);
                let ok = s.is_success();
                if !detailed && ok {
                    continue;
                }
                row.filters.push(FilterCell {
                    plugin: pl.name(),
                    ok,
                    reason: (!ok).then(|| s.message()),
                });
                if !ok {
                    return (row, s);
                }
            }
            (row, Status::success())
        };
        let nominated = pod
            .pod
            .at(&["status", "nominatedNodeName"])
            .and_then(Value::as_str)
            .and_then(|name| nodes.iter().position(|n| n.name == name));
        if let (None, Some(idx)) = (&pre_filter_reject, nominated) {
            let (row, verdict) = filter_node(idx);
            if verdict.is_success() {
                feasible.push(idx);
                if detailed {
                    rows.insert(idx, row);
                }
            }
        }
        if pre_filter_reject.is_none() && n > 0 && feasible.is_empty() {
            let to_find = num_feasible_nodes_to_find(n, self.percentage_of_nodes_to_score);
            let start = self.next_start_node_index % n;
            let mut processed = 0;
            for i in 0..n {
                if feasible.len() >= to_find {
                    break;
                }
                let idx = (start + i) % n;
                processed += 1;
                let (row, verdict) = filter_node(idx);
                if verdict.is_success() {
                    feasible.push(idx);
                } else {
                    statuses.insert(nodes[idx].name.clone(), verdict);
                }
                // The per-node table is only for the trace's record.
                if detailed {
                    rows.insert(idx, row);
                }
            }
            self.next_start_node_index = (start + processed) % n;
        }

        let selected: Option<(usize, Option<i64>)> = match feasible.len() {
            0 => None,
            // One feasible node: no need to score.
            1 => Some((feasible[0], None)),
            _ => {
                let fnodes: Vec<&NodeInfo> = feasible.iter().map(|&i| &nodes[i]).collect();
                for pl in &self.profile.pre_score {
                    let s = pl.pre_score(&mut state, &pod, &fnodes, nodes);
                    if s.code == Code::Skip {
                        state.skip_score.push(pl.name());
                    }
                }
                let mut totals = vec![0i64; feasible.len()];
                for (pl, weight) in &self.profile.score {
                    if state.skip_score.contains(&pl.name()) {
                        continue;
                    }
                    let mut scores: Vec<i64> = fnodes
                        .iter()
                        .map(|node| pl.score(&state, &pod, node).unwrap_or(0))
                        .collect();
                    pl.normalize_score(&state, &pod, &mut scores);
                    for (j, &idx) in feasible.iter().enumerate() {
                        totals[j] += scores[j] * weight;
                        if let Some(r) = rows.get_mut(&idx).filter(|_| detailed) {
                            r.scores.push(ScoreCell {
                                plugin: pl.name(),
                                score: scores[j],
                                weight: *weight,
                            });
                        }
                    }
                }
                for (j, &idx) in feasible.iter().enumerate() {
                    if let Some(r) = rows.get_mut(&idx) {
                        r.total = Some(totals[j]);
                    }
                }
                // selectHost: the highest total, ties broken by reservoir sampling.
                let mut best = 0;
                let mut ties = 1;
                for j in 1..feasible.len() {
                    if totals[j] > totals[best] {
                        best = j;
                        ties = 1;
                    } else if totals[j] == totals[best] {
                        ties += 1;
                        if ctx.rng().below(ties) == 0 {
                            best = j;
                        }
                    }
                }
                Some((feasible[best], Some(totals[best])))
            }
        };

        let table: Vec<NodeRow> = rows.into_values().collect();
        let ns = pod.namespace().to_string();
        let name = meta::name(&pod_obj).to_string();
        let object = format!("Pod {ns}/{name}");
        match selected {
            Some((idx, total)) => {
                let node = nodes[idx].name.clone();
                let summary = match total {
                    Some(t) => format!("{name} -> {node} (score {t})"),
                    None => format!("{name} -> {node} (the only feasible node)"),
                };
                let rec = ctx
                    .new_record("schedule", summary)
                    .object(object)
                    .node(node.clone())
                    .detail("pod", json!(key))
                    .detail("selected", json!(node))
                    .nodes(table);
                ctx.push(rec);
                // The cycle is over: its state lets go of the label index before it changes.
                drop(state);
                match self.profile.binder.bind(ctx, &pod_obj, &node) {
                    Ok(_) => {
                        self.queue.delete(key);
                        self.assumed.insert(key.to_string(), node.clone());
                        self.place_pod(key, Some(&pod.pod));
                        let msg = format!("Successfully assigned {ns}/{name} to {node}");
                        self.recorder.event(
                            ctx,
                            &pod_obj,
                            None,
                            EventType::Normal,
                            "Scheduled",
                            &msg,
                        );
                    }
                    Err(_) => {
                        let until = self.queue.requeue_failed(
                            key,
                            pod.priority(),
                            pod_fingerprint(&pod_obj),
                            ctx.now(),
                            false,
                        );
                        ctx.after(until - ctx.now(), TAG_BACKOFF, false);
                    }
                }
            }
            None => {
                let mut preemption: Option<(String, Vec<PodInfo>)> = None;
                let message = if n == 0 {
                    "no nodes available to schedule pods".to_string()
                } else {
                    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
                    for s in statuses.values() {
                        for r in &s.reasons {
                            *counts.entry(r.as_str()).or_default() += 1;
                        }
                    }
                    let pre = pre_filter_reject.as_ref().map(Status::message);
                    let mut msg = fit_error_message(n, pre.as_deref(), &counts);
                    if pre_filter_reject.is_none() {
                        let filters = &self.profile.filter;
                        let st = &state;
                        let pod_ref = &pod;
                        let fits = |node: &NodeInfo| {
                            filters
                                .iter()
                                .filter(|pl| !st.skip_filter.contains(&pl.name()))
                                .all(|pl| pl.filter(st, pod_ref, node).is_success())
                        };
                        for pl in &self.profile.post_filter {
                            let r = pl.post_filter(&state, &pod, nodes, &statuses, &fits);
                            if let Some(m) = r.message {
                                msg.push(' ');
                                msg.push_str(&m);
                                if !m.ends_with('.') {
                                    msg.push('.');
                                }
                            }
                            if let Some(node) = r.nominated_node {
                                preemption = Some((node, r.victims));
                                break;
                            }
                        }
                    }
                    msg
                };
                let rec = ctx
                    .new_record(
                        "schedule",
                        match &preemption {
                            Some((node, v)) => format!(
                                "{name}: {message} Preempting {} lower-priority pod(s) on {node}",
                                v.len()
                            ),
                            None => format!("{name}: {message}"),
                        },
                    )
                    .object(object)
                    .detail("pod", json!(key))
                    .detail("selected", Value::Null)
                    .nodes(table);
                let rec = match &preemption {
                    Some((node, victims)) => rec.detail("nominatedNode", json!(node)).detail(
                        "victims",
                        json!(victims.iter().map(|v| v.key.clone()).collect::<Vec<_>>()),
                    ),
                    None => rec,
                };
                ctx.push(rec);
                let message = truncate_message(&message);
                self.recorder.event(
                    ctx,
                    &pod_obj,
                    None,
                    EventType::Warning,
                    "FailedScheduling",
                    &message,
                );
                if let Some((node, victims)) = &preemption {
                    self.preempt(ctx, &pod_obj, node, victims);
                }
                Self::mark_unschedulable(ctx, &pod_obj, &message);
                let unschedulable = pre_filter_reject
                    .as_ref()
                    .is_none_or(|s| s.code != Code::Error)
                    && statuses.values().all(|s| s.code != Code::Error);
                let until = self.queue.requeue_failed(
                    key,
                    pod.priority(),
                    pod_fingerprint(&pod_obj),
                    ctx.now(),
                    unschedulable,
                );
                if !unschedulable {
                    ctx.after(until - ctx.now(), TAG_BACKOFF, false);
                }
            }
        }
    }

    /// Evicts the victims (a `DisruptionTarget` condition, then a graceful delete) and
    /// nominates the node for the preemptor (`prepareCandidate`).
    fn preempt(&mut self, ctx: &mut Ctx<'_>, preemptor: &Object, node: &str, victims: &[PodInfo]) {
        let info = for_kind("v1", "Pod").expect("pods");
        let uid = meta::uid(preemptor).to_string();
        for v in victims {
            let mut victim = Object::clone(&v.pod);
            victim["apiVersion"] = json!("v1");
            victim["kind"] = json!("Pod");
            let patch = json!({"status": {"conditions": [{
                "type": "DisruptionTarget",
                "status": "True",
                "reason": "PreemptionByScheduler",
                "message": format!("{SCHEDULER_NAME}: preempting to accommodate a higher priority pod"),
                "lastProbeTime": null,
                "lastTransitionTime": rfc3339(ctx.now()),
            }]}});
            let req = ctx
                .request(Verb::Patch(PatchType::Strategic), info)
                .namespace(meta::namespace(&victim))
                .name(meta::name(&victim))
                .subresource("status")
                .body(patch);
            let _ = ctx.send_owned(req);
            let req = ctx
                .request(Verb::Delete, info)
                .namespace(meta::namespace(&victim))
                .name(meta::name(&victim));
            let _ = ctx.send_owned(req);
            let msg = format!("Preempted by pod {uid} on node {node}");
            self.recorder
                .event(ctx, &victim, None, EventType::Normal, "Preempted", &msg);
        }
        let req = ctx
            .request(Verb::Patch(PatchType::Strategic), info)
            .namespace(meta::namespace(preemptor))
            .name(meta::name(preemptor))
            .subresource("status")
            .body(json!({"status": {"nominatedNodeName": node}}));
        let _ = ctx.send_owned(req);
    }

    /// `PodScheduled=False`, reason `Unschedulable`, unless the pod already says so.
    fn mark_unschedulable(ctx: &mut Ctx<'_>, pod: &Object, message: &str) {
        let current = pod
            .at(&["status", "conditions"])
            .and_then(Value::as_array)
            .and_then(|cs| {
                cs.iter()
                    .find(|c| c.get("type").and_then(Value::as_str) == Some("PodScheduled"))
            });
        if let Some(c) = current {
            if c.get("status").and_then(Value::as_str) == Some("False")
                && c.get("reason").and_then(Value::as_str) == Some("Unschedulable")
                && c.get("message").and_then(Value::as_str) == Some(message)
            {
                return;
            }
        }
        let patch = json!({"status": {"conditions": [{
            "type": "PodScheduled",
            "status": "False",
            "reason": "Unschedulable",
            "message": message,
            "lastProbeTime": null,
            "lastTransitionTime": rfc3339(ctx.now()),
        }]}});
        let info = for_kind("v1", "Pod").expect("pods");
        let req = ctx
            .request(Verb::Patch(PatchType::Strategic), info)
            .namespace(meta::namespace(pod))
            .name(meta::name(pod))
            .subresource("status")
            .body(patch);
        let _ = ctx.send_owned(req);
    }
}

impl Component for Scheduler {
    fn name(&self) -> String {
        SCHEDULER_NAME.to_string()
    }
    fn lane(&self) -> Lane {
        Lane::KubeScheduler
    }
    fn credentials(&self) -> Credentials {
        Credentials::ClientCertificate {
            common_name: "system:kube-scheduler".into(),
            organizations: vec![],
        }
    }
    fn informers(&self) -> Vec<InformerSpec> {
        vec![
            InformerSpec::all(for_kind("v1", "Pod").expect("pods")),
            InformerSpec::all(for_kind("v1", "Node").expect("nodes")),
            InformerSpec::all(for_kind("apps/v1", "ReplicaSet").expect("replicasets"))
                .indexed(SELECTOR_LABEL_INDEX, replicaset_selector_label),
            InformerSpec::all(for_kind("v1", "Service").expect("services"))
                .indexed(SELECTOR_LABEL_INDEX, service_selector_label),
        ]
    }
    fn handle(&mut self, ctx: &mut Ctx<'_>, input: Input) {
        // Anything else that happens sees the whole initial list handled first.
        if !matches!(input, Input::Timer(TAG_PUT_NODES)) {
            self.handle_initial_list(ctx, usize::MAX);
        }
        match input {
            Input::Started => {
                ctx.after(FLUSH_INTERVAL_MS, TAG_FLUSH, true);
                let mut nodes: Vec<Rc<Object>> = ctx.cache(NODES).list_shared().collect();
                nodes.reverse();
                let pods = ctx.cache(PODS).list_shared().collect();
                self.initial = Some(InitialList {
                    nodes,
                    pods,
                    recount: false,
                });
                self.handle_initial_list(ctx, NODES_PUT_PER_STEP);
            }
            Input::Timer(TAG_PUT_NODES) => self.handle_initial_list(ctx, NODES_PUT_PER_STEP),
            Input::Watch { informer, event } => match informer {
                PODS => self.on_pod(ctx, event.kind, &event.object),
                NODES => match event.kind {
                    "DELETED" => self.remove_node(meta::name(&event.object)),
                    kind => {
                        let name = meta::name(&event.object).to_string();
                        let changed = self.node_fingerprints.get(&name)
                            != Some(&node_fingerprint(&event.object));
                        self.upsert_node(ctx, &event.object);
                        if kind == "ADDED" || changed {
                            self.move_all(ctx);
                        }
                    }
                },
                _ => {}
            },
            Input::Timer(TAG_SCHEDULE) => {
                self.armed = false;
                self.queue.flush_backoff(ctx.now());
                if let Some(key) = self.queue.pop() {
                    self.schedule_one(ctx, &key);
                }
            }
            Input::Timer(TAG_FLUSH) => {
                ctx.after(FLUSH_INTERVAL_MS, TAG_FLUSH, true);
                self.queue.flush_backoff(ctx.now());
                if let Some(until) = self
                    .queue
                    .flush_unschedulable_leftover(ctx.now(), MAX_UNSCHEDULABLE_MS)
                {
                    ctx.after(until - ctx.now(), TAG_BACKOFF, false);
                }
            }
            Input::Timer(_) => self.queue.flush_backoff(ctx.now()),
        }
        self.arm(ctx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_selectors_from_the_index_are_those_a_namespace_scan_finds() {
        let svc = |name: &str, ns: &str, sel: Value| json!({"metadata": {"name": name, "namespace": ns}, "spec": {"selector": sel}});
        let rs = |name: &str, ns: &str, sel: Value| json!({"metadata": {"name": name, "namespace": ns}, "spec": {"selector": sel}});
        let mut services = Informer::from_list(
            vec![
                svc("web", "default", json!({"app": "web"})),
                svc("all", "default", json!({})),
                svc(
                    "web-tier",
                    "default",
                    json!({"app": "web", "tier": "front"}),
                ),
                svc("other-ns", "prod", json!({"app": "web"})),
            ],
            1,
        );
        services.add_index(SELECTOR_LABEL_INDEX, service_selector_label);
        let mut rss = Informer::from_list(
            vec![
                rs("web-1", "default", json!({"matchLabels": {"app": "web"}})),
                rs(
                    "tiers",
                    "default",
                    json!({"matchExpressions": [{"key": "tier", "operator": "In", "values": ["front", "back"]}]}),
                ),
                rs(
                    "not-db",
                    "default",
                    json!({"matchExpressions": [{"key": "app", "operator": "NotIn", "values": ["db"]}]}),
                ),
                rs("db", "default", json!({"matchLabels": {"app": "db"}})),
                rs("empty", "default", json!({})),
            ],
            1,
        );
        rss.add_index(SELECTOR_LABEL_INDEX, replicaset_selector_label);
        let scan = |ns: &str, labels: Option<&crate::api::value::Map>| -> Vec<String> {
            let found = services
                .in_namespace(ns)
                .filter_map(service_selector)
                .chain(rss.in_namespace(ns).filter_map(replicaset_selector));
            found
                .filter(|s| s.matches(labels))
                .map(|s| s.to_string_form())
                .collect()
        };
        let mut parsed = VersionMemo::default();
        for (ns, labels) in [
            ("default", json!({"app": "web", "tier": "front"})),
            ("default", json!({"app": "web"})),
            ("default", json!({"app": "db", "tier": "back"})),
            ("default", json!({})),
            ("prod", json!({"app": "web"})),
        ] {
            let labels = labels.as_object();
            let got: Vec<String> = default_selectors(ns, labels, &services, &rss, &mut parsed)
                .iter()
                .map(Selector::to_string_form)
                .collect();
            assert_eq!(got, scan(ns, labels), "{ns} {labels:?}");
        }
        // The index leaves out what cannot match: a pod of app=db meets neither web owner.
        let db = json!({"app": "db"});
        let got = default_selectors("default", db.as_object(), &services, &rss, &mut parsed);
        assert_eq!(
            got.iter().map(Selector::to_string_form).collect::<Vec<_>>(),
            vec!["app=db".to_string()]
        );
    }

    #[test]
    fn num_feasible_nodes_worked_values() {
        let table = [
            (50, 50),
            (100, 100),
            (101, 100),
            (500, 230),
            (1000, 420),
            (3000, 780),
            (5000, 500),
            (6000, 300),
            (10000, 500),
        ];
        for (nodes, want) in table {
            assert_eq!(num_feasible_nodes_to_find(nodes, 0), want, "{nodes} nodes");
        }
        assert_eq!(num_feasible_nodes_to_find(1000, 100), 1000);
        assert_eq!(num_feasible_nodes_to_find(1000, 30), 300);
        assert_eq!(num_feasible_nodes_to_find(1000, 1), 100);
    }

    #[test]
    fn long_messages_are_truncated() {
        let long = "x".repeat(2000);
        let t = truncate_message(&long);
        assert_eq!(t.len(), 1024);
        assert!(t.ends_with("x ..."));
        assert_eq!(truncate_message("short"), "short");
    }
}
