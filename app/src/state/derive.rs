//! What the views show, computed from the player at the position shown: plain data, so it is
//! tested natively and the components only lay it out.

use crate::state::player::Player;
use crate::state::prefix_view::PrefixView;
use kubeplay_core::api::json::JsonPointer;
use kubeplay_core::api::meta;
use kubeplay_core::api::quantity::Quantity;
use kubeplay_core::api::resources::lookup;
use kubeplay_core::api::value::Value;
use kubeplay_core::api::Object;
use kubeplay_core::apiserver::storage::decode;
use kubeplay_core::kubectl::get::event_time;
use kubeplay_core::kubectl::printers::{self, pod_status, TableOptions};
use kubeplay_core::trace::{Component, NodeRow, Record};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A pod as the Cluster view draws it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PodChip {
    /// `namespace/name`.
    pub key: String,
    pub name: String,
    pub status: String,
    pub node: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NodeCard {
    pub name: String,
    pub ready: String,
    pub cpu_requested_m: i64,
    pub cpu_allocatable_m: i64,
    pub memory_requested: i64,
    pub memory_allocatable: i64,
    pub pods_allocatable: i64,
    pub taints: Vec<String>,
    pub labels: Vec<String>,
    pub unschedulable: bool,
    /// Shared with the memo of pod facts: a redraw copies no chip.
    pub pods: Vec<Arc<PodChip>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ServiceCard {
    pub key: String,
    pub cluster_ip: String,
    pub ports: String,
    /// `(ip, pod, ready)`.
    pub endpoints: Vec<(String, String, bool)>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClusterModel {
    /// Shared with the memo: a redraw rebuilds only the cards of nodes whose node or pods
    /// changed, and copies none.
    pub nodes: Vec<Arc<NodeCard>>,
    /// The pods waiting for a node, listed only when the view draws a chip per pod (see
    /// [`ClusterModel::counts_pods`]): a big run's tens of thousands would be listed again at
    /// every redraw only to be counted. Shared with the memo.
    pub unscheduled: Arc<[Arc<PodChip>]>,
    pub services: Vec<ServiceCard>,
    /// How many pods wait, listed or not.
    unscheduled_len: usize,
    /// The waiting pods counted by STATUS.
    unscheduled_counts: Arc<[(String, usize)]>,
    /// Every pod, scheduled or not, counted by STATUS, in status order.
    totals: Vec<(String, usize)>,
}

/// Above this many pods the Cluster view counts each node's pods by status instead of drawing
/// one chip per pod: thousands of chips redrawn at every frame would stall the page.
pub const POD_CHIPS_MAX: usize = 300;

impl ClusterModel {
    pub fn pod_count(&self) -> usize {
        self.nodes.iter().map(|n| n.pods.len()).sum::<usize>() + self.unscheduled_len
    }

    /// How many pods wait for a node.
    pub fn unscheduled_len(&self) -> usize {
        self.unscheduled_len
    }

    /// Whether the view counts pods by status rather than drawing each.
    pub fn counts_pods(&self) -> bool {
        self.pod_count() > POD_CHIPS_MAX
    }

    /// Whether the view draws the nodes as a heat map rather than a card each.
    pub fn heat_map(&self) -> bool {
        self.nodes.len() > NODE_CARDS_MAX
    }

    /// Every pod, scheduled or not, counted by STATUS.
    pub fn status_totals(&self) -> Vec<(String, usize)> {
        self.totals.clone()
    }

    /// The pods not scheduled, counted by STATUS.
    pub fn unscheduled_counts(&self) -> Vec<(String, usize)> {
        self.unscheduled_counts.to_vec()
    }
}

/// Above this many nodes the Cluster view draws the nodes as a heat map, a cell each, with the
/// card of the node picked in it: hundreds of cards laid out at every redraw would stall the
/// page, and no one reads them all.
pub const NODE_CARDS_MAX: usize = 100;

impl NodeCard {
    /// How much of its allocatable CPU, memory or pod slots is requested, whichever is the
    /// most, in percent (0 when it has none to give).
    pub fn fill_percent(&self) -> i64 {
        let share = |used: i64, total: i64| if total > 0 { used * 100 / total } else { 0 };
        share(self.cpu_requested_m, self.cpu_allocatable_m)
            .max(share(self.memory_requested, self.memory_allocatable))
            .max(share(self.pods.len() as i64, self.pods_allocatable))
    }

    /// [`NodeCard::fill_percent`] in fifths, as the heat map colours it: 0 below 20%, 4 from
    /// 80%.
    pub fn fill_level(&self) -> u8 {
        (self.fill_percent() / 20).clamp(0, 4) as u8
    }
}

/// Pods counted by their STATUS column, in status order.
pub fn status_counts(pods: &[Arc<PodChip>]) -> Vec<(String, usize)> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for p in pods {
        *counts.entry(p.status.as_str()).or_default() += 1;
    }
    counts
        .into_iter()
        .map(|(s, n)| (s.to_string(), n))
        .collect()
}

fn prefix(resource: &str) -> String {
    lookup(resource)
        .map(|r| r.etcd_list_prefix(None))
        .unwrap_or_else(|| format!("/registry/{resource}/"))
}

fn quantity(v: &Value, milli: bool) -> i64 {
    match Quantity::from_json(v) {
        Ok(q) if milli => q.milli_value(),
        Ok(q) => q.value(),
        Err(_) => 0,
    }
}

/// A pod's requests, as the scheduler counts them: the sum of its containers' or the largest
/// init container's, whichever is more.
pub fn pod_requests(pod: &Object) -> (i64, i64) {
    let sum = |path: &str| -> (i64, i64) {
        pod.lookup(path)
            .and_then(Value::as_array)
            .map(|cs| {
                cs.iter().fold((0, 0), |(c, m), ctr| {
                    let r = &ctr["resources"]["requests"];
                    (
                        c + quantity(&r["cpu"], true),
                        m + quantity(&r["memory"], false),
                    )
                })
            })
            .unwrap_or((0, 0))
    };
    let (cpu, mem) = sum("/spec/containers");
    let (icpu, imem) = pod
        .lookup("/spec/initContainers")
        .and_then(Value::as_array)
        .map(|cs| {
            cs.iter().fold((0, 0), |(c, m), ctr| {
                let r = &ctr["resources"]["requests"];
                (
                    c.max(quantity(&r["cpu"], true)),
                    m.max(quantity(&r["memory"], false)),
                )
            })
        })
        .unwrap_or((0, 0));
    (cpu.max(icpu), mem.max(imem))
}

fn terminal(pod: &Object) -> bool {
    matches!(
        pod.lookup("/status/phase").and_then(Value::as_str),
        Some("Succeeded" | "Failed")
    )
}

pub fn pod_key(pod: &Object) -> String {
    format!(
        "{}/{}",
        meta::namespace(pod).unwrap_or("default"),
        meta::name(pod)
    )
}

/// What the Cluster view takes from one pod version.
pub struct PodFacts {
    chip: Arc<PodChip>,
    requests: (i64, i64),
    terminal: bool,
}

impl PodFacts {
    fn of(pod: &Object) -> Self {
        PodFacts {
            chip: Arc::new(PodChip {
                key: pod_key(pod),
                name: meta::name(pod).to_string(),
                status: pod_status(pod),
                node: pod["spec"]["nodeName"].as_str().map(str::to_string),
            }),
            requests: pod_requests(pod),
            terminal: terminal(pod),
        }
    }
}

/// What the Cluster view keeps between redraws: each node's card (without its pods) and each
/// pod's facts at the revision last drawn, the pods filed by node, and the cards drawn from
/// them.
pub struct ClusterMemo {
    nodes: RefCell<PrefixView<NodeCard>>,
    pods: RefCell<PrefixView<PodFacts>>,
    placed: RefCell<Placement>,
}

impl Default for ClusterMemo {
    fn default() -> Self {
        ClusterMemo {
            nodes: RefCell::new(PrefixView::new(&prefix("nodes"))),
            pods: RefCell::new(PrefixView::new(&prefix("pods"))),
            placed: RefCell::new(Placement::default()),
        }
    }
}

/// The pods filed by the node they name, kept up to date with each pod's changes, so a redraw
/// in a big run rebuilds the few nodes whose pods changed instead of placing every pod again.
#[derive(Default)]
struct Placement {
    /// Node name (`""`: none yet) to where in `filed` its pods and card are, in name order.
    /// (A map of indexes, the same type as a status count's: one copy of its code in the page.)
    names: BTreeMap<String, usize>,
    filed: Vec<Filed>,
    /// Counts the redraws, so the nodes drawn in the last one are known.
    redraw: u64,
    /// The pods waiting as last drawn.
    waiting: Option<Waiting>,
}

/// The pods filed under one node name, counted by status as they come and go (a big run's
/// waiting lane holds thousands, too many to count at every redraw), and the node's card.
#[derive(Default)]
struct Filed {
    /// By key. The same map type as a view's entries (the revision unused): one copy of its
    /// code in the page.
    pods: BTreeMap<Arc<str>, (i64, Arc<PodFacts>)>,
    /// Pods by status; a status none has any more stays, at zero.
    counts: BTreeMap<String, usize>,
    /// Whether its pods changed since it was last drawn.
    changed: bool,
    /// The redraw that last drew it as a node.
    drawn_in: u64,
    card: Option<DrawnCard>,
}

impl Filed {
    fn uncount(&mut self, status: &str) {
        if let Some(n) = self.counts.get_mut(status) {
            *n -= 1;
        }
    }

    /// The statuses its pods have, each with how many.
    fn counted(&self) -> impl Iterator<Item = (&String, &usize)> {
        self.counts.iter().filter(|(_, n)| **n > 0)
    }
}

/// The pods on no node, or on a node that does not exist.
struct Waiting {
    from: Vec<String>,
    /// Whether `pods` lists them (few pods in all) or is left empty (too many to draw).
    listed: bool,
    len: usize,
    pods: Arc<[Arc<PodChip>]>,
    counts: Arc<[(String, usize)]>,
}

/// A node's card with its pods, and the node facts it was drawn from.
struct DrawnCard {
    node: Arc<NodeCard>,
    card: Arc<NodeCard>,
}

impl Placement {
    /// What is filed under `node`, made when missing.
    fn lane(&mut self, node: &str) -> &mut Filed {
        let i = match self.names.get(node) {
            Some(&i) => i,
            None => {
                self.names.insert(node.to_string(), self.filed.len());
                self.filed.push(Filed::default());
                self.filed.len() - 1
            }
        };
        &mut self.filed[i]
    }

    /// What is filed under the pod's node, marked as changed.
    fn lane_of(&mut self, facts: &PodFacts) -> &mut Filed {
        let filed = self.lane(facts.chip.node.as_deref().unwrap_or(""));
        filed.changed = true;
        filed
    }

    /// Files a pod's change: out of its old node's list, into its new one's.
    fn change(&mut self, key: &str, old: Option<&Arc<PodFacts>>, new: Option<&Arc<PodFacts>>) {
        if let Some(old) = old {
            let filed = self.lane_of(old);
            if filed.pods.remove(key).is_some() {
                filed.uncount(&old.chip.status);
            }
        }
        if let Some(new) = new {
            let filed = self.lane_of(new);
            *filed.counts.entry(new.chip.status.clone()).or_default() += 1;
            if let Some((_, was)) = filed.pods.insert(Arc::from(key), (0, Arc::clone(new))) {
                filed.uncount(&was.chip.status);
            }
        }
    }

    /// The card of `node` with its pods: the one drawn before when neither changed.
    fn card(&mut self, node: &Arc<NodeCard>) -> Arc<NodeCard> {
        let redraw = self.redraw;
        let filed = self.lane(&node.name);
        filed.drawn_in = redraw;
        let kept = filed
            .card
            .as_ref()
            .filter(|d| !filed.changed && Arc::ptr_eq(&d.node, node));
        if let Some(drawn) = kept {
            return Arc::clone(&drawn.card);
        }
        let mut card = NodeCard::clone(node);
        for (_, facts) in filed.pods.values() {
            if !facts.terminal {
                let (cpu, mem) = facts.requests;
                card.cpu_requested_m += cpu;
                card.memory_requested += mem;
            }
            card.pods.push(Arc::clone(&facts.chip));
        }
        let card = Arc::new(card);
        filed.card = Some(DrawnCard {
            node: Arc::clone(node),
            card: Arc::clone(&card),
        });
        filed.changed = false;
        card
    }

    /// The pods that wait, in key order when there are few pods in all (else only counted):
    /// those drawn before when none of them changed.
    fn waiting(&mut self) -> &Waiting {
        let redraw = self.redraw;
        let mut from: Vec<String> = Vec::new();
        let mut changed = false;
        let pod_count: usize = self.filed.iter().map(|f| f.pods.len()).sum();
        let listed = pod_count <= POD_CHIPS_MAX;
        for (name, &i) in &self.names {
            let filed = &mut self.filed[i];
            if filed.drawn_in != redraw {
                // Not a node (any more): its pods wait, and it has no card.
                filed.card = None;
                if !filed.pods.is_empty() {
                    from.push(name.clone());
                    changed |= filed.changed;
                }
                filed.changed = false;
            }
        }
        let drawn = |w: &Waiting| w.from == from && w.listed == listed;
        if changed || !self.waiting.as_ref().is_some_and(drawn) {
            let lanes: Vec<&Filed> = from
                .iter()
                .map(|n| &self.filed[self.names[n.as_str()]])
                .collect();
            // Each lane is in key order; merged, they stay so. (Several lanes are rare: pods
            // naming nodes that do not exist.)
            // Not listed, none is merged.
            let listing = if listed { &lanes[..] } else { &[] };
            let mut heads: Vec<_> = listing.iter().map(|f| f.pods.iter().peekable()).collect();
            let mut pods: Vec<Arc<PodChip>> = Vec::new();
            loop {
                let next = heads
                    .iter_mut()
                    .filter_map(|h| h.peek().map(|(k, _)| Arc::clone(k)))
                    .min();
                let Some(next) = next else { break };
                for h in &mut heads {
                    if let Some((_, (_, facts))) = h.next_if(|(k, _)| **k == next) {
                        pods.push(Arc::clone(&facts.chip));
                    }
                }
            }
            let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
            for (status, n) in lanes.iter().flat_map(|f| f.counted()) {
                *counts.entry(status).or_default() += n;
            }
            let counts = counts
                .into_iter()
                .map(|(s, n)| (s.to_string(), n))
                .collect();
            self.waiting = Some(Waiting {
                from,
                listed,
                len: lanes.iter().map(|f| f.pods.len()).sum(),
                pods: pods.into(),
                counts,
            });
        }
        self.waiting.as_ref().expect("drawn above")
    }
}

impl NodeCard {
    /// A node's card, its pods not placed yet.
    fn of(n: &Object) -> Self {
        let alloc = &n["status"]["allocatable"];
        let ready = n
            .lookup("/status/conditions")
            .and_then(Value::as_array)
            .and_then(|cs| cs.iter().find(|c| c["type"] == "Ready"))
            .map(|c| match c["status"].as_str() {
                Some("True") => "Ready",
                Some("False") => "NotReady",
                _ => "Unknown",
            })
            .unwrap_or("Unknown")
            .to_string();
        let taints = n
            .lookup("/spec/taints")
            .and_then(Value::as_array)
            .map(|ts| {
                ts.iter()
                    .map(|t| {
                        let key = t["key"].as_str().unwrap_or("");
                        let effect = t["effect"].as_str().unwrap_or("");
                        match t["value"].as_str() {
                            Some(v) if !v.is_empty() => format!("{key}={v}:{effect}"),
                            _ => format!("{key}:{effect}"),
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        let labels = meta::labels(n)
            .map(|ls| {
                ls.iter()
                    .filter(|(k, _)| !k.starts_with("kubernetes.io/") && !k.starts_with("beta."))
                    .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
                    .collect()
            })
            .unwrap_or_default();
        NodeCard {
            name: meta::name(n).to_string(),
            ready,
            cpu_requested_m: 0,
            cpu_allocatable_m: quantity(&alloc["cpu"], true),
            memory_requested: 0,
            memory_allocatable: quantity(&alloc["memory"], false),
            pods_allocatable: quantity(&alloc["pods"], false),
            taints,
            labels,
            unschedulable: n["spec"]["unschedulable"] == true,
            pods: Vec::new(),
        }
    }
}

/// The Cluster view at revision `rev`.
pub fn cluster_model(p: &Player, rev: i64) -> ClusterModel {
    let mut model = ClusterModel::default();
    let mut placed = p.cluster_memo.placed.borrow_mut();
    let placed = &mut *placed;
    p.cluster_memo.pods.borrow_mut().update(
        p.etcd(),
        rev,
        &mut |kv| PodFacts::of(&p.object(kv)),
        &mut |key, old, new| placed.change(key, old, new),
    );
    let mut nodes = p.cluster_memo.nodes.borrow_mut();
    placed.redraw += 1;
    for node in nodes.at(p.etcd(), rev, &mut |kv| NodeCard::of(&p.object(kv))) {
        model.nodes.push(placed.card(node));
    }
    let waiting = placed.waiting();
    model.unscheduled = Arc::clone(&waiting.pods);
    model.unscheduled_len = waiting.len;
    model.unscheduled_counts = Arc::clone(&waiting.counts);
    let mut totals: BTreeMap<&str, usize> = BTreeMap::new();
    // Every pod is filed once, on a node or waiting.
    for (status, n) in placed.filed.iter().flat_map(Filed::counted) {
        *totals.entry(status).or_default() += n;
    }
    model.totals = totals
        .into_iter()
        .map(|(s, n)| (s.to_string(), n))
        .collect();
    let endpoints = p.objects_at(&prefix("endpoints"), rev);
    for svc in p.objects_at(&prefix("services"), rev) {
        let key = pod_key(&svc);
        let ports = svc
            .lookup("/spec/ports")
            .and_then(Value::as_array)
            .map(|ps| {
                ps.iter()
                    .map(|p| {
                        format!(
                            "{}/{}",
                            p["port"].as_i64().unwrap_or(0),
                            p["protocol"].as_str().unwrap_or("TCP")
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .unwrap_or_default();
        let mut eps = Vec::new();
        if let Some(ep) = endpoints.iter().find(|e| pod_key(e) == key) {
            for subset in ep["subsets"].as_array().into_iter().flatten() {
                for (field, ready) in [("addresses", true), ("notReadyAddresses", false)] {
                    for a in subset[field].as_array().into_iter().flatten() {
                        eps.push((
                            a["ip"].as_str().unwrap_or("").to_string(),
                            a["targetRef"]["name"].as_str().unwrap_or("").to_string(),
                            ready,
                        ));
                    }
                }
            }
        }
        model.services.push(ServiceCard {
            key,
            cluster_ip: svc["spec"]["clusterIP"].as_str().unwrap_or("").to_string(),
            ports,
            endpoints: eps,
        });
    }
    model
}

/// How a STATUS reads at a glance: `ok`, `wait`, `bad`, `done`, `gone`.
pub fn status_class(status: &str) -> &'static str {
    match status {
        "Running" => "ok",
        "Completed" | "Succeeded" => "done",
        "Terminating" => "gone",
        "Pending" | "ContainerCreating" | "PodInitializing" => "wait",
        s if s.starts_with("Init:") && !s.contains("Err") && !s.contains("BackOff") => "wait",
        _ => "bad",
    }
}

/// The etcd view's tree: keys grouped by the first segment under `/registry/`.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyGroup {
    pub name: String,
    pub keys: Vec<String>,
}

pub fn key_tree(p: &Player, rev: i64) -> Vec<KeyGroup> {
    let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if let Ok(r) = p.etcd().range_prefix("/registry/", Some(rev), 0) {
        for kv in &r.kvs {
            let rest = kv.key.strip_prefix("/registry/").unwrap_or(&kv.key);
            let group = rest.split('/').next().unwrap_or("").to_string();
            groups.entry(group).or_default().push(kv.key.clone());
        }
    }
    groups
        .into_iter()
        .map(|(name, keys)| KeyGroup { name, keys })
        .collect()
}

/// One stored version of a key.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyVersion {
    pub mod_revision: i64,
    pub version: i64,
    pub create_revision: i64,
    pub deleted: bool,
    /// When it was written (from the trace), if known.
    pub t_ms: Option<u64>,
}

/// The versions of a key up to revision `rev`, oldest first.
pub fn key_history(p: &Player, key: &str, rev: i64) -> Vec<KeyVersion> {
    p.etcd()
        .history(key)
        .into_iter()
        .filter(|kv| kv.mod_revision <= rev)
        .map(|kv| KeyVersion {
            mod_revision: kv.mod_revision,
            version: kv.version,
            create_revision: kv.create_revision,
            deleted: kv.version == 0,
            t_ms: p
                .records()
                .iter()
                .find(|r| r.component == Component::Etcd && r.revision == Some(kv.mod_revision))
                .map(|r| r.t_ms),
        })
        .collect()
}

/// A key's value at a revision, as YAML (etcd holds it as JSON), or none.
pub fn value_at(p: &Player, key: &str, rev: i64) -> Option<String> {
    let kv = p.etcd().get(key, Some(rev)).ok()??;
    Some(printers::to_yaml(&decode(&kv)))
}

/// A line diff: each line with `' '`, `'-'` or `'+'`.
pub fn diff(old: &str, new: &str) -> Vec<(char, String)> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let (n, m) = (a.len(), b.len());
    if n * m > 4_000_000 {
        return b.iter().map(|l| ('+', l.to_string())).collect();
    }
    // Longest common subsequence, from the end.
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            out.push((' ', a[i].to_string()));
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            out.push(('+', b[j].to_string()));
            j += 1;
        } else {
            out.push(('-', a[i].to_string()));
            i += 1;
        }
    }
    out
}

/// The pods that have a scheduling decision among the records, in order of first decision.
pub fn scheduled_pods(records: &[Record]) -> Vec<String> {
    let mut seen = Vec::new();
    for r in records.iter().filter(|r| r.action == "schedule") {
        if let Some(pod) = record_pod(r) {
            if !seen.contains(&pod) {
                seen.push(pod);
            }
        }
    }
    seen
}

/// `namespace/name` of the pod a record is about.
pub fn record_pod(r: &Record) -> Option<String> {
    r.object
        .as_deref()?
        .strip_prefix("Pod ")
        .map(str::to_string)
}

/// One scheduling attempt of a pod: the table of nodes by plugins.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub index: usize,
    pub t_ms: u64,
    pub summary: String,
    pub selected: Option<String>,
    pub filter_plugins: Vec<&'static str>,
    pub score_plugins: Vec<(&'static str, i64)>,
    pub rows: Vec<NodeRow>,
    /// The FailedScheduling message, when no node fits.
    pub failure: Option<String>,
}

/// Every scheduling decision about `pod` among the records, oldest first.
pub fn decisions(records: &[Record], pod: &str) -> Vec<Decision> {
    let object = format!("Pod {pod}");
    let mut out = Vec::new();
    for (i, r) in records.iter().enumerate() {
        if r.action != "schedule" || r.object.as_deref() != Some(object.as_str()) {
            continue;
        }
        let rows: Vec<NodeRow> = r
            .nodes
            .as_deref()
            .map(<[NodeRow]>::to_vec)
            .unwrap_or_default();
        let mut filter_plugins: Vec<&'static str> = Vec::new();
        let mut score_plugins: Vec<(&'static str, i64)> = Vec::new();
        for row in &rows {
            for f in &row.filters {
                if !filter_plugins.contains(&f.plugin) {
                    filter_plugins.push(f.plugin);
                }
            }
            for s in &row.scores {
                if !score_plugins.iter().any(|(p, _)| *p == s.plugin) {
                    score_plugins.push((s.plugin, s.weight));
                }
            }
        }
        let selected = r
            .detail
            .as_ref()
            .and_then(|d| d.get("selected"))
            .and_then(Value::as_str)
            .map(str::to_string);
        // The FailedScheduling event the scheduler records right after.
        let failure = if selected.is_none() {
            records[i + 1..]
                .iter()
                .take(40)
                .find(|e| {
                    e.action == "event"
                        && e.object.as_deref() == Some(object.as_str())
                        && e.summary.contains("FailedScheduling")
                })
                .map(|e| e.summary.clone())
                .or_else(|| Some(r.summary.clone()))
        } else {
            None
        };
        out.push(Decision {
            index: i,
            t_ms: r.t_ms,
            summary: r.summary.clone(),
            selected,
            filter_plugins,
            score_plugins,
            rows,
            failure,
        });
    }
    out
}

/// The kubelet's steps for a pod (and its scheduling and binding), as indexes into the records.
pub fn pod_steps(records: &[Record], pod: &str) -> Vec<usize> {
    let object = format!("Pod {pod}");
    records
        .iter()
        .enumerate()
        .filter(|(_, r)| r.object.as_deref() == Some(object.as_str()))
        .filter(|(_, r)| {
            matches!(
                r.component,
                Component::Kubelet | Component::ContainerRuntime | Component::Cni
            ) || r.action == "schedule"
                || (r.component == Component::KubeScheduler && r.action == "event")
        })
        .filter(|(_, r)| r.action != "request")
        .map(|(i, _)| i)
        .collect()
}

/// The pod's STATUS column each time it changed, up to revision `rev`: `(t_ms, revision, status)`.
pub fn status_history(p: &Player, pod: &str, rev: i64) -> Vec<(Option<u64>, i64, String)> {
    let Some((ns, name)) = pod.split_once('/') else {
        return Vec::new();
    };
    let key = format!("/registry/pods/{ns}/{name}");
    let mut out: Vec<(Option<u64>, i64, String)> = Vec::new();
    for kv in p.etcd().history(&key) {
        if kv.mod_revision > rev {
            break;
        }
        let status = if kv.version == 0 {
            "(deleted)".to_string()
        } else {
            pod_status(&decode(&kv))
        };
        if out.last().map(|l| &l.2) != Some(&status) {
            let t = p
                .records()
                .iter()
                .find(|r| r.component == Component::Etcd && r.revision == Some(kv.mod_revision))
                .map(|r| r.t_ms);
            out.push((t, kv.mod_revision, status));
        }
    }
    out
}

/// The most event rows the Events view prints: a big cluster has thousands, and printing and
/// laying out all of them at every frame would stall the page. The newest are kept.
pub const EVENT_ROWS: usize = 200;

/// The Events view's table: `kubectl get events` (namespace `default`) as it prints at
/// revision `rev` and time `now_ms`, its rows cut to the newest [`EVENT_ROWS`] containing
/// `filter` (case-insensitive; empty keeps every row).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventsTable {
    pub text: String,
    /// The rows matching the filter, and how many of them `text` prints.
    pub matching: usize,
    pub shown: usize,
}

pub fn events_table(p: &Player, rev: i64, now_ms: u64, filter: &str) -> EventsTable {
    let Some(info) = lookup("events") else {
        return EventsTable::default();
    };
    let mut events = p.objects_at(&info.etcd_list_prefix(Some("default")), rev);
    if events.is_empty() {
        return EventsTable {
            text: printers::no_resources_found(Some("default")) + "\n",
            ..EventsTable::default()
        };
    }
    kubeplay_core::api::sorting::sort_by_cached_key(&mut events, &|e| event_time(e));
    let filter = filter.trim().to_ascii_lowercase();
    // Without a filter only the rows shown are printed; a filter reads every row's text. The
    // columns are sized over the rows printed, as kubectl sizes them over the rows it gets.
    let rows: Vec<Object> = if filter.is_empty() {
        let from = events.len().saturating_sub(EVENT_ROWS);
        events[from..].iter().map(|e| (**e).clone()).collect()
    } else {
        let all: Vec<Object> = events.iter().map(|e| (**e).clone()).collect();
        let table = printers::print_table(info, &all, &TableOptions::default(), now_ms);
        let keep: Vec<bool> = table
            .lines()
            .skip(1)
            .map(|l| l.to_ascii_lowercase().contains(&filter))
            .collect();
        all.into_iter()
            .zip(keep)
            .filter_map(|(e, k)| k.then_some(e))
            .collect()
    };
    let matching = if filter.is_empty() {
        events.len()
    } else {
        rows.len()
    };
    let from = rows.len().saturating_sub(EVENT_ROWS);
    let rows = &rows[from..];
    let text = if rows.is_empty() {
        // The header alone, as a filter that matches nothing leaves it.
        printers::print_table(
            info,
            &[(*events[0]).clone()],
            &TableOptions::default(),
            now_ms,
        )
        .lines()
        .next()
        .map(|h| format!("{h}\n"))
        .unwrap_or_default()
    } else {
        printers::print_table(info, rows, &TableOptions::default(), now_ms)
    };
    EventsTable {
        text,
        matching,
        shown: rows.len(),
    }
}

/// The apiserver's refusals of the scenario's objects and steps, at the line of the document or
/// step they are about: `(line, column, message)`.
pub fn apply_errors(p: &Player) -> Vec<(usize, usize, String)> {
    let s = p.scenario();
    let mut out = Vec::new();
    for o in p.cluster().outputs.iter().filter(|o| o.exit_code != 0) {
        for line in o.stderr.lines().filter(|l| !l.trim().is_empty()) {
            let lower = line.to_ascii_lowercase();
            let object = s.nodes.iter().chain(s.objects.iter()).find(|obj| {
                let name = meta::name(&obj.object);
                let kind = meta::kind(&obj.object).to_ascii_lowercase();
                !name.is_empty() && line.contains(&format!("\"{name}\"")) && lower.contains(&kind)
            });
            let at = object.map(|obj| obj.line).or_else(|| {
                s.steps
                    .iter()
                    .find(|st| st.at == o.t_ms && st.at > 0)
                    .map(|st| st.line)
            });
            if let Some(l) = at {
                out.push((l, 0, line.to_string()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::scenario::{parse, DEFAULT_SCENARIO};

    fn ended(text: &str) -> Player {
        let mut p = Player::new(parse(text).unwrap());
        p.run_to_end(&mut || false);
        p
    }

    /// `n` nginx replicas on three nodes, run to the end.
    fn replicas(n: usize) -> Player {
        ended(&DEFAULT_SCENARIO.replace("replicas: 3", &format!("replicas: {n}")))
    }

    #[test]
    fn a_node_fills_by_its_most_requested_resource_in_fifths() {
        let mut n = NodeCard {
            name: "n".into(),
            ready: "Ready".into(),
            cpu_requested_m: 500,
            cpu_allocatable_m: 4000,
            memory_requested: 3 << 30,
            memory_allocatable: 8 << 30,
            pods_allocatable: 110,
            taints: vec![],
            labels: vec![],
            unschedulable: false,
            pods: vec![],
        };
        // cpu 12%, memory 37%: memory decides.
        assert_eq!((n.fill_percent(), n.fill_level()), (37, 1));
        n.cpu_requested_m = 4000;
        assert_eq!((n.fill_percent(), n.fill_level()), (100, 4));
        n.cpu_allocatable_m = 0;
        n.memory_requested = 0;
        assert_eq!((n.fill_percent(), n.fill_level()), (0, 0));
    }

    #[test]
    fn more_nodes_than_cards_are_a_heat_map_and_pods_are_totalled_by_status() {
        let three = replicas(3);
        let m = cluster_model(&three, three.revision());
        assert!(!m.heat_map());
        assert_eq!(m.status_totals(), vec![("Running".to_string(), 3)]);
        let nodes: String = (0..=NODE_CARDS_MAX)
            .map(|i| format!("apiVersion: v1\nkind: Node\nmetadata:\n  name: n-{i}\nstatus:\n  capacity: {{cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n---\n"))
            .collect();
        let many = ended(&(nodes + DEFAULT_SCENARIO));
        let m = cluster_model(&many, many.revision());
        assert_eq!(m.nodes.len(), NODE_CARDS_MAX + 1);
        assert!(m.heat_map());
        assert_eq!(m.status_totals(), vec![("Running".to_string(), 3)]);
    }

    #[test]
    fn a_redraw_reuses_the_facts_of_pods_that_did_not_change() {
        let text = DEFAULT_SCENARIO.replace("replicas: 3", "replicas: 12");
        let mut p = Player::new(parse(&text).unwrap());
        p.play_to(2_500, false, &mut || false);
        let rev = p.revision();
        let first_rev = rev;
        let first = cluster_model(&p, rev);
        let again = cluster_model(&p, rev);
        assert_eq!(first, again);
        let chips = |m: &ClusterModel| -> Vec<Arc<PodChip>> {
            m.nodes
                .iter()
                .flat_map(|n| n.pods.iter().cloned())
                .chain(m.unscheduled.iter().cloned())
                .collect()
        };
        assert!(!chips(&first).is_empty());
        assert!(
            chips(&first)
                .iter()
                .zip(chips(&again))
                .all(|(a, b)| Arc::ptr_eq(a, &b)),
            "the same pod versions are drawn from the memo"
        );
        // Later, what changed is worked out again: the model equals a fresh player's.
        p.run_to_end(&mut || false);
        let rev = p.revision();
        let mut fresh = Player::new(parse(&text).unwrap());
        fresh.run_to_end(&mut || false);
        assert_eq!(
            cluster_model(&p, rev),
            cluster_model(&fresh, fresh.revision())
        );
        assert!(chips(&cluster_model(&p, rev))
            .iter()
            .all(|c| c.status == "Running"));
        // Moved back to the first revision (the playback slider), it is drawn as it was then.
        assert_eq!(cluster_model(&p, first_rev), first);
    }

    #[test]
    fn a_redraw_rebuilds_only_the_cards_of_nodes_whose_pods_changed() {
        let text = DEFAULT_SCENARIO.replace("replicas: 3", "replicas: 9");
        let mut p = Player::new(parse(&text).unwrap());
        p.run_to_end(&mut || false);
        let n = p.records().len();
        // Forward through the run, then back (the playback slider).
        let forward: Vec<usize> = (0..=n).step_by((n / 60).max(1)).collect();
        let positions = forward.iter().chain(forward.iter().rev().step_by(7));
        let (mut shared, mut rebuilt) = (0, 0);
        let mut last: Option<(i64, ClusterModel)> = None;
        for &pos in positions {
            let rev = p.revision_at(pos);
            let model = cluster_model(&p, rev);
            let kept = std::mem::take(&mut p.cluster_memo);
            let fresh = cluster_model(&p, rev);
            p.cluster_memo = kept;
            assert_eq!(
                model, fresh,
                "at revision {rev}, as worked out from scratch"
            );
            // Counted as they come and go, the totals are what counting every chip gives.
            let chips: Vec<Arc<PodChip>> = model
                .nodes
                .iter()
                .flat_map(|n| n.pods.iter().cloned())
                .chain(model.unscheduled.iter().cloned())
                .collect();
            assert_eq!(model.status_totals(), status_counts(&chips));
            assert_eq!(
                model.unscheduled_counts(),
                status_counts(&model.unscheduled)
            );
            if let Some((last_rev, last_model)) = &last {
                let changed: std::collections::BTreeSet<String> = p
                    .etcd()
                    .keys_changed("/registry/", *last_rev.min(&rev), *last_rev.max(&rev))
                    .unwrap()
                    .map(str::to_string)
                    .collect();
                for (b, a) in last_model.nodes.iter().zip(&model.nodes) {
                    let touched = changed.contains(&format!("{}{}", prefix("nodes"), b.name))
                        || b.pods
                            .iter()
                            .chain(&a.pods)
                            .any(|c| changed.contains(&format!("{}{}", prefix("pods"), c.key)));
                    if !touched {
                        assert!(Arc::ptr_eq(b, a), "{} drawn again unchanged", b.name);
                        shared += 1;
                    } else if !Arc::ptr_eq(b, a) {
                        rebuilt += 1;
                    }
                }
            }
            last = Some((rev, model));
        }
        assert!(
            shared > 0 && rebuilt > 0,
            "shared {shared}, rebuilt {rebuilt}"
        );
    }

    #[test]
    fn pods_on_no_node_and_on_a_missing_node_wait_together_in_key_order() {
        let pod = |name: &str, extra: &str| {
            format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\nspec:\n{extra}  containers:\n  - name: c\n    image: nginx:1.27\n    resources: {{requests: {{cpu: \"64\"}}}}\n")
        };
        let text = [
            pod("a", "  nodeName: ghost\n"),
            pod("b", ""),
            pod("c", "  nodeName: ghost\n"),
        ]
        .join("---\n");
        let p = ended(&text);
        let m = cluster_model(&p, p.revision());
        let waiting: Vec<&str> = m.unscheduled.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(waiting, ["default/a", "default/b", "default/c"]);
        assert!(m.nodes.iter().all(|n| n.pods.is_empty()));
        let total: usize = m.unscheduled_counts().iter().map(|(_, n)| n).sum();
        assert_eq!(total, 3);
        assert_eq!(m.status_totals(), m.unscheduled_counts());
    }

    #[test]
    fn a_big_cluster_counts_its_pods_by_status_instead_of_drawing_each() {
        let small = replicas(3);
        assert!(!cluster_model(&small, small.revision()).counts_pods());
        let big = replicas(POD_CHIPS_MAX + 1);
        let m = cluster_model(&big, big.revision());
        assert_eq!(m.pod_count(), POD_CHIPS_MAX + 1);
        assert!(m.counts_pods());
        let counted: usize = m
            .nodes
            .iter()
            .flat_map(|n| status_counts(&n.pods))
            .map(|(_, n)| n)
            .sum::<usize>()
            + m.unscheduled_len();
        assert_eq!(counted, POD_CHIPS_MAX + 1);
        // Three nodes of 110 pods at most: the rest wait, counted too.
        for n in &m.nodes {
            assert_eq!(
                status_counts(&n.pods),
                vec![("Running".to_string(), n.pods.len())]
            );
        }
    }

    #[test]
    fn a_big_cluster_counts_its_waiting_pods_without_listing_them() {
        // Three nodes, full before 400 pods fit: the rest wait.
        let p = replicas(400);
        let m = cluster_model(&p, p.revision());
        assert!(m.counts_pods());
        let placed: usize = m.nodes.iter().map(|n| n.pods.len()).sum();
        let waiting = 400 - placed;
        assert!(waiting > 0);
        assert_eq!(m.unscheduled_len(), waiting);
        assert!(m.unscheduled.is_empty(), "{} listed", m.unscheduled.len());
        assert_eq!(
            m.unscheduled_counts(),
            vec![("Pending".to_string(), waiting)]
        );
        assert_eq!(m.pod_count(), 400);
        // The same pods, few enough to draw (the playback slider back near the start), are
        // listed again.
        let early = (0..p.records().len())
            .map(|i| p.revision_at(i))
            .find(|&rev| {
                let m = cluster_model(&p, rev);
                m.unscheduled_len() > 0 && !m.counts_pods()
            })
            .expect("a revision with a few pods waiting");
        let m = cluster_model(&p, early);
        assert_eq!(m.unscheduled.len(), m.unscheduled_len());
    }

    #[test]
    fn the_events_table_keeps_the_newest_rows_and_filters_them_all() {
        let p = replicas(60);
        let all = events_table(&p, p.revision(), p.clock(), "");
        assert!(all.matching > EVENT_ROWS, "{}", all.matching);
        assert_eq!(all.shown, EVENT_ROWS);
        assert_eq!(all.text.lines().count(), EVENT_ROWS + 1);
        assert!(all.text.starts_with("LAST SEEN"));
        let pulled = events_table(&p, p.revision(), p.clock(), "pulled");
        assert!(pulled.matching > 0 && pulled.matching < all.matching);
        assert!(pulled
            .text
            .lines()
            .skip(1)
            .all(|l| l.to_lowercase().contains("pulled")));
        let none = events_table(&p, p.revision(), p.clock(), "no-such-thing");
        assert_eq!((none.matching, none.shown), (0, 0));
        assert_eq!(none.text.lines().count(), 1, "{}", none.text);
    }

    #[test]
    fn the_cluster_model_has_three_nodes_with_one_running_nginx_each() {
        let p = ended(DEFAULT_SCENARIO);
        let m = cluster_model(&p, p.revision());
        assert_eq!(m.nodes.len(), 3);
        assert!(m.unscheduled.is_empty());
        let mut running = 0;
        for n in &m.nodes {
            assert_eq!(n.ready, "Ready");
            assert_eq!(n.cpu_allocatable_m, 4000);
            assert_eq!(n.pods_allocatable, 110);
            for pod in &n.pods {
                assert!(pod.name.starts_with("nginx-"));
                assert_eq!(pod.status, "Running");
                running += 1;
            }
            assert_eq!(n.cpu_requested_m, 100 * n.pods.len() as i64);
        }
        assert_eq!(running, 3);
        assert!(m.services.iter().any(|s| s.key == "default/kubernetes"));
        // Before the apply nothing is scheduled.
        let m0 = cluster_model(&p, p.revision_at(0));
        assert!(m0.nodes.iter().all(|n| n.pods.is_empty()));
    }

    #[test]
    fn the_scheduler_table_lists_every_node_and_the_choice() {
        let p = ended(DEFAULT_SCENARIO);
        let pods = scheduled_pods(p.records());
        assert_eq!(pods.len(), 3);
        let d = decisions(p.records(), &pods[0]);
        assert_eq!(d.len(), 1);
        let d = &d[0];
        assert_eq!(d.rows.len(), 3);
        assert!(d.filter_plugins.contains(&"NodeResourcesFit"));
        assert!(d
            .score_plugins
            .iter()
            .any(|(p, w)| *p == "TaintToleration" && *w == 3));
        assert!(d
            .selected
            .as_deref()
            .is_some_and(|s| s.starts_with("node-")));
        assert!(d.failure.is_none());
    }

    #[test]
    fn a_pod_that_fits_nowhere_shows_the_failed_scheduling_message() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: huge\nspec:\n  containers:\n  - name: c\n    image: nginx:1.27\n    resources:\n      requests:\n        cpu: \"64\"\n";
        let p = ended(text);
        let d = decisions(p.records(), "default/huge");
        assert!(!d.is_empty());
        assert!(d[0].selected.is_none());
        let msg = d[0].failure.as_deref().unwrap();
        assert!(msg.contains("Insufficient cpu"), "{msg}");
        let m = cluster_model(&p, p.revision());
        assert_eq!(m.unscheduled.len(), 1);
        assert_eq!(m.unscheduled[0].status, "Pending");
    }

    #[test]
    fn apiserver_refusals_are_marked_at_their_document() {
        let text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: other}}\n    spec:\n      containers: [{name: nginx, image: \"nginx:1.27\"}]\n";
        let p = ended(text);
        let errs = apply_errors(&p);
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].0, 6);
        assert!(errs[0].2.contains("is invalid"), "{}", errs[0].2);
    }

    #[test]
    fn etcd_tree_history_and_values() {
        let p = ended(DEFAULT_SCENARIO);
        let tree = key_tree(&p, p.revision());
        let deployments = tree.iter().find(|g| g.name == "deployments").unwrap();
        assert_eq!(deployments.keys, ["/registry/deployments/default/nginx"]);
        let key = "/registry/deployments/default/nginx";
        let history = key_history(&p, key, p.revision());
        assert!(history.len() >= 2);
        assert!(history.iter().all(|v| v.t_ms.is_some()));
        let first = value_at(&p, key, history[0].mod_revision).unwrap();
        let last = value_at(&p, key, p.revision()).unwrap();
        assert!(
            first.contains("name: nginx") && first.contains("replicas: 3"),
            "{first}"
        );
        let d = diff(&first, &last);
        assert!(d.iter().any(|(c, _)| *c == '+'));
        assert!(d.iter().any(|(c, _)| *c == ' '));
    }

    #[test]
    fn pod_steps_status_history_and_events() {
        let p = ended(DEFAULT_SCENARIO);
        let pod = &scheduled_pods(p.records())[0];
        let steps = pod_steps(p.records(), pod);
        let actions: Vec<&str> = steps.iter().map(|&i| p.records()[i].action).collect();
        for a in [
            "schedule",
            "kubelet.admit",
            "runtime.sandbox",
            "cni.add",
            "runtime.start",
        ] {
            assert!(actions.contains(&a), "{a} in {actions:?}");
        }
        let statuses: Vec<String> = status_history(&p, pod, p.revision())
            .into_iter()
            .map(|s| s.2)
            .collect();
        assert_eq!(statuses.first().map(String::as_str), Some("Pending"));
        assert_eq!(statuses.last().map(String::as_str), Some("Running"));
        let events = events_table(&p, p.revision(), p.clock(), "").text;
        assert!(events.starts_with("LAST SEEN"), "{events}");
        assert!(events.contains("Scheduled"), "{events}");
        assert_eq!(status_class("Running"), "ok");
        assert_eq!(status_class("CrashLoopBackOff"), "bad");
        assert_eq!(status_class("ContainerCreating"), "wait");
    }
}
