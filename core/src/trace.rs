//! The trace: every step of the simulation as a record. It is the product: the command line
//! prints it, the playground draws it, tests compare it.

use crate::api::json;
use crate::api::value::{Map, Value};
use crate::kernel::sharded::ShardedMap;
use crate::kernel::Millis;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Object keys, as a set (sharded: the pods' grows to 150,000 at the limits size).
type KeySet = ShardedMap<String, ()>;

/// The component a record belongs to (DESIGN.md's list, in lane order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Component {
    Kubectl,
    Etcdctl,
    KubeApiserver,
    Etcd,
    KubeControllerManager,
    KubeScheduler,
    Kubelet,
    ContainerRuntime,
    Cni,
    KubeProxy,
    Kubeplay,
}

impl Component {
    pub fn as_str(self) -> &'static str {
        match self {
            Component::Kubectl => "kubectl",
            Component::Etcdctl => "etcdctl",
            Component::KubeApiserver => "kube-apiserver",
            Component::Etcd => "etcd",
            Component::KubeControllerManager => "kube-controller-manager",
            Component::KubeScheduler => "kube-scheduler",
            Component::Kubelet => "kubelet",
            Component::ContainerRuntime => "container-runtime",
            Component::Cni => "cni",
            Component::KubeProxy => "kube-proxy",
            Component::Kubeplay => "kubeplay",
        }
    }
}

/// One step. `explain` is the key of the step's explanation (see [`crate::explain`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub t_ms: Millis,
    pub component: Component,
    pub action: &'static str,
    pub summary: String,
    /// The other end of an arrow in the flow diagram (a request's server, a response's client).
    pub peer: Option<String>,
    pub node: Option<String>,
    /// `Kind namespace/name` or `Kind name`.
    pub object: Option<String>,
    pub key: Option<String>,
    pub revision: Option<i64>,
    pub explain: &'static str,
    /// Structured extra data (a request's status code, a decision's pod).
    pub detail: Option<Map>,
    /// A scheduling decision's per-node table, written out as the `nodes` field. Kept typed:
    /// as JSON maps a 1,000-node table costs megabytes.
    pub nodes: Option<Box<[NodeRow]>>,
}

/// One node's row of a scheduling decision: the verdict of every filter plugin that ran and,
/// for a feasible node, every score plugin's normalized score and weight, and the total.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeRow {
    pub node: String,
    pub filters: Vec<FilterCell>,
    pub scores: Vec<ScoreCell>,
    pub total: Option<i64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FilterCell {
    pub plugin: &'static str,
    pub ok: bool,
    /// Why the node was filtered out (none when it passed).
    pub reason: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ScoreCell {
    pub plugin: &'static str,
    pub score: i64,
    pub weight: i64,
}

impl NodeRow {
    pub fn to_json(&self) -> Value {
        let filters: Vec<Value> = self
            .filters
            .iter()
            .map(|f| crate::json!({"plugin": f.plugin, "ok": f.ok, "reason": f.reason}))
            .collect();
        let scores: Vec<Value> = self
            .scores
            .iter()
            .map(|c| crate::json!({"plugin": c.plugin, "score": c.score, "weight": c.weight}))
            .collect();
        crate::json!({"node": self.node, "filters": filters, "scores": scores, "total": self.total})
    }
}

impl NodeRow {
    /// [`NodeRow::to_json`]'s compact text, written directly.
    fn write_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"filters\":[");
        for (i, f) in self.filters.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(if f.ok {
                b"{\"ok\":true,\"plugin\":"
            } else {
                b"{\"ok\":false,\"plugin\":"
            });
            json::write_str(out, f.plugin);
            out.extend_from_slice(b",\"reason\":");
            match &f.reason {
                Some(r) => json::write_str(out, r),
                None => out.extend_from_slice(b"null"),
            }
            out.push(b'}');
        }
        out.extend_from_slice(b"],\"node\":");
        json::write_str(out, &self.node);
        out.extend_from_slice(b",\"scores\":[");
        for (i, c) in self.scores.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(b"{\"plugin\":");
            json::write_str(out, c.plugin);
            let _ = std::io::Write::write_fmt(
                out,
                format_args!(",\"score\":{},\"weight\":{}}}", c.score, c.weight),
            );
        }
        out.extend_from_slice(b"],\"total\":");
        match self.total {
            Some(t) => {
                let _ = std::io::Write::write_fmt(out, format_args!("{t}"));
            }
            None => out.extend_from_slice(b"null"),
        }
        out.push(b'}');
    }
}

impl Record {
    pub fn new(
        t_ms: Millis,
        component: Component,
        action: &'static str,
        summary: impl Into<String>,
    ) -> Self {
        Record {
            t_ms,
            component,
            action,
            summary: summary.into(),
            peer: None,
            node: None,
            object: None,
            key: None,
            revision: None,
            explain: action,
            detail: None,
            nodes: None,
        }
    }
    pub fn peer(mut self, peer: impl Into<String>) -> Self {
        self.peer = Some(peer.into());
        self
    }
    pub fn node(mut self, node: impl Into<String>) -> Self {
        self.node = Some(node.into());
        self
    }
    pub fn object(mut self, object: impl Into<String>) -> Self {
        self.object = Some(object.into());
        self
    }
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
    pub fn revision(mut self, rev: i64) -> Self {
        self.revision = Some(rev);
        self
    }
    pub fn explain(mut self, key: &'static str) -> Self {
        self.explain = key;
        self
    }
    pub fn nodes(mut self, rows: Vec<NodeRow>) -> Self {
        self.nodes = Some(rows.into_boxed_slice());
        self
    }
    pub fn detail(mut self, field: &str, value: Value) -> Self {
        self.detail
            .get_or_insert_with(Map::new)
            .insert(field.to_string(), value);
        self
    }

    /// The JSON Lines form (`kubeplay run --trace json`).
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("t_ms", self.t_ms.into());
        m.insert("component", self.component.as_str().into());
        m.insert("action", self.action.into());
        m.insert("summary", self.summary.clone().into());
        for (k, v) in [
            ("peer", &self.peer),
            ("node", &self.node),
            ("object", &self.object),
            ("key", &self.key),
        ] {
            if let Some(v) = v {
                m.insert(k, v.clone().into());
            }
        }
        if let Some(r) = self.revision {
            m.insert("revision", r.into());
        }
        m.insert("explain", self.explain.into());
        if let Some(d) = &self.detail {
            for (k, v) in d {
                m.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        if let Some(rows) = &self.nodes {
            m.insert(
                "nodes",
                Value::Array(rows.iter().map(NodeRow::to_json).collect()),
            );
        }
        Value::Object(m)
    }

    /// Appends [`Record::to_json`]'s compact text to `out`, written field by field (in key
    /// order, as the JSON object prints) without building the object.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        enum Field<'a> {
            Int(i64),
            UInt(u64),
            Str(&'a str),
            Json(&'a Value),
            Nodes(&'a [NodeRow]),
        }
        fn optional<'a>(
            k: &'static str,
            v: &'a Option<String>,
        ) -> Option<(&'static str, Field<'a>)> {
            v.as_deref().map(|s| (k, Field::Str(s)))
        }
        // The record's own fields, in key order; the detail's keys (a sorted map) are merged
        // in, so nothing is sorted per record. A detail never replaces a record field.
        let mut own: Vec<(&str, Field<'_>)> = Vec::with_capacity(11);
        own.push(("action", Field::Str(self.action)));
        own.push(("component", Field::Str(self.component.as_str())));
        own.push(("explain", Field::Str(self.explain)));
        own.extend(optional("key", &self.key));
        own.extend(optional("node", &self.node));
        if let Some(rows) = &self.nodes {
            own.push(("nodes", Field::Nodes(rows)));
        }
        own.extend(optional("object", &self.object));
        own.extend(optional("peer", &self.peer));
        if let Some(r) = self.revision {
            own.push(("revision", Field::Int(r)));
        }
        own.push(("summary", Field::Str(&self.summary)));
        own.push(("t_ms", Field::UInt(self.t_ms)));
        let mut fields: Vec<(&str, Field<'_>)> =
            Vec::with_capacity(own.len() + self.detail.as_ref().map_or(0, Map::len));
        let mut own = own.into_iter().peekable();
        for (k, v) in self.detail.iter().flatten() {
            while let Some(next) = own.next_if(|(o, _)| *o <= k.as_str()) {
                fields.push(next);
            }
            if fields.last().is_none_or(|(f, _)| *f != k.as_str()) {
                fields.push((k, Field::Json(v)));
            }
        }
        fields.extend(own);
        out.push(b'{');
        for (i, (k, f)) in fields.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            json::write_str(out, k);
            out.push(b':');
            match f {
                Field::Int(n) => {
                    let _ = std::io::Write::write_fmt(out, format_args!("{n}"));
                }
                Field::UInt(n) => {
                    let _ = std::io::Write::write_fmt(out, format_args!("{n}"));
                }
                Field::Str(s) => json::write_str(out, s),
                Field::Json(v) => {
                    let _ = serde_json::to_writer(&mut *out, v);
                }
                Field::Nodes(rows) => {
                    out.push(b'[');
                    for (j, row) in rows.iter().enumerate() {
                        if j > 0 {
                            out.push(b',');
                        }
                        row.write_json(out);
                    }
                    out.push(b']');
                }
            }
        }
        out.push(b'}');
    }

    /// The text form: `00:00.012  kube-apiserver           authorize     RBAC: allowed ...`.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            "{}  {:<23}  {:<18}  {}",
            clock(self.t_ms),
            self.component.as_str(),
            self.action,
            self.summary
        );
        if self.action == "watch" {
            if let Some(p) = &self.peer {
                let _ = write!(s, " -> {p}");
            }
        }
        if let Some(r) = self.revision {
            let _ = write!(s, "  [rev {r}]");
        }
        s
    }
}

/// `mm:ss.mmm` (and `h:mm:ss.mmm` past an hour), as the playground's clock shows time.
pub fn clock(ms: Millis) -> String {
    let (h, m, s, milli) = (
        ms / 3_600_000,
        (ms / 60_000) % 60,
        (ms / 1000) % 60,
        ms % 1000,
    );
    if h > 0 {
        format!("{h}:{m:02}:{s:02}.{milli:03}")
    } else {
        format!("{m:02}:{s:02}.{milli:03}")
    }
}

/// The records of a run, in order.
///
/// A big run keeps full records only for a sample of its pods: the first `pod_budget` pods
/// the trace meets. Records about the other pods (their API requests, scheduling, kubelet and
/// CNI steps, their Events) are only counted, so memory stays bounded however many pods run.
/// ReplicaSets and Deployments, and nodes (their Node and node Lease), are sampled the same way.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub records: Vec<Record>,
    /// While false (the cluster's own bootstrap), nothing is recorded.
    pub enabled: bool,
    /// How many pods get full records; `None` keeps every record.
    pub pod_budget: Option<usize>,
    /// Pods (`namespace/name`) with full records, and pods beyond the budget. Hash sets: at
    /// the limits a tree of 150,000 names that share long prefixes costs dozens of string
    /// compares a lookup, and these are only asked, never listed.
    sampled_pods: KeySet,
    counted_pods: KeySet,
    /// ReplicaSets and Deployments (`Kind namespace/name`) with full records, and beyond.
    sampled_workloads: KeySet,
    counted_workloads: KeySet,
    /// Nodes (by name) whose Node and Lease have full records, and beyond.
    sampled_nodes: KeySet,
    counted_nodes: KeySet,
    /// Records not kept: a count per `component action`, in the order first counted
    /// ([`Trace::counted`] gives them by name).
    counts: Vec<usize>,
    /// Each `component action` and where its count is in `counts`.
    count_positions: BTreeMap<String, usize>,
    /// A few recently counted (component, action's address and length, position in
    /// `counts`): a big run counts millions of records (21.6 million at the limits size)
    /// under a few dozen names, and an action is a `&'static str`, so its address names its
    /// text without building the name and searching for it.
    count_cache: Vec<(Component, usize, usize, usize)>,
    /// [`Trace::count`]'s key, built here rather than allocated for each record.
    count_key: String,
    /// The object [`Trace::keeps`] last decided about, and its verdict: the records about one
    /// object come in runs, and only a decision about another object can change a verdict, so
    /// a run asks the sets once.
    last_label: String,
    last_kept: bool,
    /// Set while a request about an object the trace only counts is handled: every record of
    /// it would be counted when the request settles, so records are counted as they come, and
    /// [`Trace::push_with`] does not even build them.
    muted: bool,
    /// Never mute (tests compare a muted run with one that builds every record).
    pub(crate) never_mute: bool,
}

/// Where nodes' Leases live (`kube-node-lease`).
const NODE_LEASE_NAMESPACE: &str = "kube-node-lease";

impl Trace {
    /// A trace that keeps full records for the first `pods` pods.
    pub fn sampled(pods: usize) -> Self {
        Trace {
            pod_budget: Some(pods),
            ..Trace::default()
        }
    }

    pub fn push(&mut self, r: Record) {
        if !self.enabled {
            return;
        }
        if self.muted {
            // Asked all the same: the first record about an object decides its sampling.
            if let Some(label) = &r.object {
                self.keeps(label);
            }
            self.count(&r);
            return;
        }
        if let Some(label) = &r.object {
            if !self.keeps(label) {
                self.count(&r);
                return;
            }
        }
        self.records.push(r);
    }

    /// Whether records about the object `label` (`Pod default/web-1`) are kept in full. The
    /// first time an object is seen decides it for the whole run. Pods are sampled up to the
    /// budget, ReplicaSets and Deployments up to a tenth of it (their status churn grows with
    /// their pods), nodes up to a quarter of it (each renews its Lease every 10 s), and an
    /// Event follows the object it is about.
    pub fn keeps(&mut self, label: &str) -> bool {
        let Some(budget) = self.pod_budget else {
            return true;
        };
        if !self.last_label.is_empty() && self.last_label == label {
            return self.last_kept;
        }
        let Some((kind, key)) = label.split_once(' ') else {
            return true;
        };
        let kept = match kind {
            "Pod" => Self::sample(&mut self.sampled_pods, &mut self.counted_pods, key, budget),
            "ReplicaSet" | "Deployment" => Self::sample(
                &mut self.sampled_workloads,
                &mut self.counted_workloads,
                label,
                budget.div_ceil(10),
            ),
            "Node" => Self::sample(
                &mut self.sampled_nodes,
                &mut self.counted_nodes,
                key,
                budget.div_ceil(4),
            ),
            // A node's heartbeat: its Lease in kube-node-lease bears the node's name.
            "Lease" => match key.split_once('/') {
                Some((NODE_LEASE_NAMESPACE, node)) => Self::sample(
                    &mut self.sampled_nodes,
                    &mut self.counted_nodes,
                    node,
                    budget.div_ceil(4),
                ),
                _ => true,
            },
            // `<object name>.<hex>`: about a pod or a workload left out, it is left out too.
            "Event" => {
                let Some((about, _)) = key.rsplit_once('.') else {
                    return true;
                };
                // A node's Events are in `default`, named after the node.
                let node = about.strip_prefix("default/");
                !self.counted_pods.contains_key(about)
                    && !node.is_some_and(|n| self.counted_nodes.contains_key(n))
                    && !["ReplicaSet", "Deployment"]
                        .iter()
                        .any(|k| self.counted_workloads.contains_key(&format!("{k} {about}")))
            }
            _ => true,
        };
        self.last_label.clear();
        self.last_label.push_str(label);
        self.last_kept = kept;
        kept
    }

    fn sample(sampled: &mut KeySet, counted: &mut KeySet, key: &str, budget: usize) -> bool {
        if sampled.contains_key(key) {
            return true;
        }
        if counted.contains_key(key) {
            return false;
        }
        if sampled.len() < budget {
            sampled.insert(key.to_string(), ());
            true
        } else {
            counted.insert(key.to_string(), ());
            false
        }
    }

    /// [`Trace::push`] of the record `build` makes, which is not built while the trace is
    /// muted (only counted, by its `component` and `action`). For records with no object of
    /// their own, or about the muted request's object.
    pub fn push_with(
        &mut self,
        component: Component,
        action: &'static str,
        build: impl FnOnce() -> Record,
    ) {
        if !self.enabled {
            return;
        }
        if self.muted {
            self.count_as(component, action);
            return;
        }
        self.push(build());
    }

    /// Handles a request about `subject` (`Kind namespace/name`, known before it is sent) with
    /// the trace muted when records about it are only counted. Returns what `handle` returns.
    pub fn about<T>(&mut self, subject: Option<&str>, handle: impl FnOnce(&mut Trace) -> T) -> T {
        let mute = self.enabled
            && !self.never_mute
            && self.pod_budget.is_some()
            && !self.muted
            && subject.is_some_and(|s| !self.keeps(s));
        if !mute {
            return handle(self);
        }
        self.muted = true;
        let out = handle(self);
        self.muted = false;
        out
    }

    fn count(&mut self, r: &Record) {
        self.count_as(r.component, r.action);
    }

    fn count_as(&mut self, component: Component, action: &'static str) {
        // Most records of a big run end here: their key is built in a buffer kept for it, and
        // allocated only the first time it is counted.
        const CACHED: usize = 32;
        let address = action.as_ptr() as usize;
        let slot = ((address / 8) ^ component as usize) % CACHED;
        if let Some(&(c, a, len, at)) = self.count_cache.get(slot) {
            if c == component && a == address && len == action.len() {
                self.counts[at] += 1;
                return;
            }
        }
        self.count_key.clear();
        self.count_key.push_str(component.as_str());
        self.count_key.push(' ');
        self.count_key.push_str(action);
        let at = match self.count_positions.get(self.count_key.as_str()) {
            Some(&at) => at,
            None => {
                self.counts.push(0);
                self.count_positions
                    .insert(self.count_key.clone(), self.counts.len() - 1);
                self.counts.len() - 1
            }
        };
        self.counts[at] += 1;
        if self.count_cache.is_empty() {
            self.count_cache = vec![(component, 0, usize::MAX, 0); CACHED];
        }
        self.count_cache[slot] = (component, address, action.len(), at);
    }

    /// A position to [`Trace::settle`] later.
    pub fn mark(&self) -> usize {
        self.records.len()
    }

    /// The records since `mark` were about `label`: if that object's records are not kept,
    /// they become counts.
    pub fn settle(&mut self, mark: usize, label: Option<&str>) {
        let Some(label) = label else {
            return;
        };
        if mark >= self.records.len() || self.keeps(label) {
            return;
        }
        let dropped: Vec<Record> = self.records.drain(mark..).collect();
        for r in &dropped {
            self.count(r);
        }
    }

    /// How many pods have full records and how many only counts.
    pub fn sampling(&self) -> (usize, usize) {
        (self.sampled_pods.len(), self.counted_pods.len())
    }

    /// How many ReplicaSets and Deployments have full records and how many only counts.
    pub fn workload_sampling(&self) -> (usize, usize) {
        (self.sampled_workloads.len(), self.counted_workloads.len())
    }

    /// How many nodes have full records and how many only counts.
    pub fn node_sampling(&self) -> (usize, usize) {
        (self.sampled_nodes.len(), self.counted_nodes.len())
    }

    /// The records counted instead of kept, by `component action`.
    pub fn counted(&self) -> BTreeMap<String, u64> {
        self.count_positions
            .iter()
            .map(|(k, &at)| (k.clone(), self.counts[at] as u64))
            .collect()
    }

    /// The number of records counted instead of kept.
    pub fn counted_total(&self) -> u64 {
        self.counts.iter().map(|&n| n as u64).sum()
    }

    /// The SHA-256 (hex) of the JSON Lines form and the counted records: equal digests mean
    /// identical runs, which is how native and browser runs are compared.
    pub fn digest(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        let mut line = Vec::new();
        for r in &self.records {
            line.clear();
            r.write_json(&mut line);
            h.update(&line);
            h.update(b"\n");
        }
        for (k, n) in &self.counted() {
            h.update(format!("{k} {n}\n").as_bytes());
        }
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    pub fn to_json_lines(&self) -> String {
        let mut out = Vec::with_capacity(self.records.len() * 400);
        for r in &self.records {
            r.write_json(&mut out);
            out.push(b'\n');
        }
        String::from_utf8(out).expect("JSON is UTF-8")
    }

    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for r in &self.records {
            out.push_str(&r.to_text());
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_repeated_in_a_run_follows_the_decisions_in_between() {
        let mut t = Trace::sampled(1);
        let verdicts: Vec<bool> = [
            "Pod ns/a",
            "Pod ns/a",
            "Event ns/c.1",
            "Event ns/c.1",
            "Pod ns/c",
            "Pod ns/c",
            "Event ns/c.1",
            "Event ns/c.1",
            "Pod ns/a",
        ]
        .iter()
        .map(|l| t.keeps(l))
        .collect();
        // The Event about ns/c is kept until ns/c itself is decided (and counted).
        assert_eq!(
            verdicts,
            [true, true, true, true, false, false, false, false, true]
        );
    }

    #[test]
    fn a_sampled_trace_keeps_the_first_pods_and_counts_the_rest() {
        let mut t = Trace::sampled(2);
        t.enabled = true;
        let about = |pod: &str| {
            Record::new(1, Component::Kubelet, "container.start", "x").object(format!("Pod {pod}"))
        };
        for pod in ["ns/a", "ns/b", "ns/c", "ns/a", "ns/c"] {
            t.push(about(pod));
        }
        t.push(Record::new(
            2,
            Component::KubeScheduler,
            "queue",
            "no object",
        ));
        // A request's records about a counted pod are taken back once the pod is known.
        let mark = t.mark();
        t.push(Record::new(
            3,
            Component::KubeApiserver,
            "authenticate",
            "req",
        ));
        t.push(Record::new(3, Component::KubeApiserver, "response", "201"));
        t.settle(mark, Some("Pod ns/d"));
        let kept: Vec<_> = t.records.iter().map(|r| r.object.clone()).collect();
        assert_eq!(
            kept,
            vec![
                Some("Pod ns/a".to_string()),
                Some("Pod ns/b".to_string()),
                Some("Pod ns/a".to_string()),
                None
            ]
        );
        assert_eq!(t.sampling(), (2, 2));
        assert_eq!(t.counted_total(), 4);
        assert_eq!(t.counted()["kubelet container.start"], 2);
        assert_eq!(t.counted()["kube-apiserver response"], 1);
        // Without a budget every record stays.
        let mut full = Trace {
            enabled: true,
            ..Trace::default()
        };
        for pod in ["ns/a", "ns/b", "ns/c"] {
            full.push(about(pod));
        }
        assert_eq!(full.records.len(), 3);
    }

    #[test]
    fn workloads_are_sampled_at_a_tenth_and_events_follow_their_object() {
        let mut t = Trace::sampled(10);
        t.enabled = true;
        let about =
            |label: &str| Record::new(1, Component::KubeControllerManager, "x", "y").object(label);
        for rs in ["ReplicaSet ns/a", "ReplicaSet ns/b", "Deployment ns/d"] {
            t.push(about(rs));
        }
        for _ in 0..11 {
            t.keeps(&format!("Pod ns/p{}", t.sampling().0 + t.sampling().1));
        }
        t.push(about("Event ns/a.17f00"));
        t.push(about("Event ns/b.17f01"));
        t.push(about("Event ns/d.17f02"));
        t.push(about("Event ns/p10.17f03"));
        t.push(about("Event ns/p3.17f04"));
        t.push(about("Event ns/other.17f05"));
        let kept: Vec<_> = t.records.iter().filter_map(|r| r.object.clone()).collect();
        assert_eq!(
            kept,
            [
                "ReplicaSet ns/a",
                "Event ns/a.17f00",
                "Event ns/p3.17f04",
                "Event ns/other.17f05"
            ]
        );
        assert_eq!(t.workload_sampling(), (1, 2));
        assert_eq!(t.sampling(), (10, 1));
    }

    #[test]
    fn nodes_are_sampled_at_a_quarter_with_their_leases_and_events() {
        let mut t = Trace::sampled(8);
        t.enabled = true;
        let about = |label: &str| Record::new(1, Component::Kubelet, "x", "y").object(label);
        for n in 0..3 {
            t.push(about(&format!("Node node-{n}")));
        }
        t.push(about("Lease kube-node-lease/node-1"));
        t.push(about("Lease kube-node-lease/node-2"));
        t.push(about("Lease kube-node-lease/node-9"));
        t.push(about("Lease kube-system/kube-scheduler"));
        t.push(about("Event default/node-0.17f00"));
        t.push(about("Event default/node-2.17f01"));
        let kept: Vec<_> = t.records.iter().filter_map(|r| r.object.clone()).collect();
        assert_eq!(
            kept,
            [
                "Node node-0",
                "Node node-1",
                "Lease kube-node-lease/node-1",
                "Lease kube-system/kube-scheduler",
                "Event default/node-0.17f00"
            ]
        );
        assert_eq!(t.node_sampling(), (2, 2));
        assert_eq!(t.counted_total(), 4);
    }

    #[test]
    fn counts_add_up_by_name_however_the_action_text_is_held() {
        let mut t = Trace::default();
        // The same text at another address, and a hundred other actions reusing the cache.
        let elsewhere: &'static str = Box::leak(String::from("container.start").into_boxed_str());
        let others: Vec<&'static str> = (0..100)
            .map(|i| &*Box::leak(format!("a{i}").into_boxed_str()))
            .collect();
        for _ in 0..3 {
            t.count_as(Component::Kubelet, "container.start");
        }
        t.count_as(Component::Kubelet, elsewhere);
        for a in &others {
            t.count_as(Component::Etcd, a);
            t.count_as(Component::Kubelet, a);
        }
        t.count_as(Component::Kubelet, "container.start");
        t.count_as(Component::Etcd, "container.start");
        let counted = t.counted();
        assert_eq!(counted["kubelet container.start"], 5);
        assert_eq!(counted["etcd container.start"], 1);
        assert_eq!(counted["etcd a7"], 1);
        assert_eq!(counted["kubelet a99"], 1);
        assert_eq!(counted.len(), 202);
        assert_eq!(t.counted_total(), 206);
    }

    #[test]
    fn written_json_is_the_json_value_printed() {
        let row = NodeRow {
            node: "node-\"1\"".into(),
            filters: vec![
                FilterCell {
                    plugin: "NodeName",
                    ok: true,
                    reason: None,
                },
                FilterCell {
                    plugin: "Taint",
                    ok: false,
                    reason: Some("node had \u{1} taint \u{e9}".into()),
                },
            ],
            scores: vec![ScoreCell {
                plugin: "Fit",
                score: -3,
                weight: 2,
            }],
            total: Some(7),
        };
        let records = [
            Record::new(0, Component::Kubectl, "request", "GET \"x\"\n\t"),
            Record::new(12, Component::Etcd, "etcd.txn", "PUT")
                .key("/registry/a")
                .revision(-4)
                .object("Pod a/b")
                .peer("kube-apiserver")
                .node("n")
                .detail("code", 201.into())
                .detail("summary", "not this".into())
                .detail("zzz", crate::json!({"b": [1, 2.5, null], "a": "x"}))
                .detail("nodes", "a detail".into()),
            Record::new(99, Component::KubeScheduler, "decision", "d")
                .detail("nodes", "replaced".into())
                .detail("aaa", true.into())
                .nodes(vec![row.clone(), row]),
            Record::new(1, Component::Cni, "cni", "x").detail("nodes", 3.into()),
        ];
        for r in &records {
            let mut out = Vec::new();
            r.write_json(&mut out);
            assert_eq!(String::from_utf8(out).unwrap(), r.to_json().to_string());
        }
    }

    #[test]
    fn json_has_the_documented_fields() {
        let r = Record::new(
            12,
            Component::Etcd,
            "etcd.txn",
            "PUT /registry/deployments/default/web",
        )
        .key("/registry/deployments/default/web")
        .revision(412)
        .object("Deployment default/web");
        let j = r.to_json();
        assert_eq!(j["t_ms"], 12);
        assert_eq!(j["component"], "etcd");
        assert_eq!(j["revision"], 412);
        assert_eq!(j["explain"], "etcd.txn");
        assert!(j.get("node").is_none());
        assert_eq!(clock(7412), "00:07.412");
        assert_eq!(clock(3_600_000 + 61_001), "1:01:01.001");
    }
}
