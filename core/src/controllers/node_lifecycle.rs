//! The node lifecycle controller (`pkg/controller/nodelifecycle/node_lifecycle_controller.go`)
//! and the taint-based eviction it drives (`pkg/controller/tainteviction/taint_eviction.go`).
//!
//! Every `--node-monitor-period` (5 s) it looks at each node's heartbeat Lease in
//! `kube-node-lease`. A node whose Lease was not renewed for `--node-monitor-grace-period`
//! (50 s) gets its conditions set to `Unknown` (`NodeStatusUnknown`, `Kubelet stopped posting
//! node status.`), the taints `node.kubernetes.io/unreachable:NoSchedule` and
//! `node.kubernetes.io/unreachable:NoExecute`, the event `NodeNotReady` on the node when it
//! was Ready (`RecordNodeStatusChange`), and its pods are marked not ready (`MarkPodsNotReady`,
//! with a Warning `NodeNotReady` event on each pod it changes). Pods on a NoExecute-tainted node are deleted when their toleration's
//! `tolerationSeconds` runs out (at once when they do not tolerate the taint at all). When the
//! kubelet posts Ready again, the unreachable taints are removed.

use super::events::{EventType, Recorder};
use super::{controller_credentials, manager_credentials};
use crate::api::value::{json, Value};
use crate::api::{meta, resources::for_kind, Object, ResourceInfo};
use crate::apiserver::{Credentials, PatchType, Verb};
use crate::cluster::component::{Component, Ctx, InformerSpec, Input};
use crate::cluster::informer::{key_of, node_name_index, NODE_NAME_INDEX};
use crate::controllers::podutil::At;
use crate::kernel::time::{parse_rfc3339, rfc3339};
use crate::kernel::Millis;
use crate::scheduler::framework::tolerates;
use crate::trace::Component as Lane;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

const NODES: usize = 0;
const LEASES: usize = 1;
const PODS: usize = 2;

/// `--node-monitor-period`.
pub const NODE_MONITOR_PERIOD_MS: Millis = 5_000;
/// `--node-monitor-grace-period` (50 s since 1.32; it was 40 s).
pub const NODE_MONITOR_GRACE_PERIOD_MS: Millis = 50_000;

pub const UNREACHABLE_TAINT: &str = "node.kubernetes.io/unreachable";
pub const NOT_READY_TAINT: &str = "node.kubernetes.io/not-ready";
pub const STATUS_UNKNOWN_REASON: &str = "NodeStatusUnknown";
pub const STATUS_UNKNOWN_MESSAGE: &str = "Kubelet stopped posting node status.";

const TAG_MONITOR: u64 = 0;

fn node_info() -> &'static ResourceInfo {
    for_kind("v1", "Node").expect("nodes")
}
fn lease_info() -> &'static ResourceInfo {
    for_kind("coordination.k8s.io/v1", "Lease").expect("leases")
}
fn pod_info() -> &'static ResourceInfo {
    for_kind("v1", "Pod").expect("pods")
}

/// The condition `ty` of a node or pod, if any.
fn condition<'a>(obj: &'a Object, ty: &str) -> Option<&'a Value> {
    obj.at(&["status", "conditions"])
        .and_then(Value::as_array)?
        .iter()
        .find(|c| c["type"] == ty)
}

/// The node's taints, borrowed: the monitor pass reads them for every node every 5 s.
fn taints(node: &Object) -> &[Value] {
    node.at(&["spec", "taints"])
        .and_then(Value::as_array)
        .map_or(&[], |t| t.as_slice())
}

fn is_no_execute(t: &Value) -> bool {
    t["effect"] == "NoExecute"
}

/// The node's taints with the NoExecute effect: what the taint-eviction controller acts on.
fn no_execute_taints(node: &Object) -> Vec<Value> {
    taints(node)
        .iter()
        .filter(|t| is_no_execute(t))
        .cloned()
        .collect()
}

fn is_unreachable_taint(t: &Value) -> bool {
    t["key"] == UNREACHABLE_TAINT || t["key"] == NOT_READY_TAINT
}

/// How long a pod tolerates all of a node's NoExecute taints: `None` forever, `Some(0)` not
/// at all (`getMinTolerationTime`).
fn min_toleration_ms(pod: &Object, no_execute: &[Value]) -> Option<Millis> {
    let tolerations: Vec<Value> = pod
        .at(&["spec", "tolerations"])
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut min: Option<Millis> = None;
    for taint in no_execute {
        let matching: Vec<&Value> = tolerations.iter().filter(|t| tolerates(t, taint)).collect();
        if matching.is_empty() {
            return Some(0);
        }
        for t in matching {
            if let Some(s) = t.get("tolerationSeconds").and_then(Value::as_i64) {
                let ms = (s.max(0) as Millis) * 1000;
                min = Some(min.map_or(ms, |m: Millis| m.min(ms)));
            }
        }
    }
    min
}

pub struct NodeLifecycleController {
    /// The node lifecycle part writes its events as `node-controller`.
    recorder: Recorder,
    /// The taint-eviction part writes its events as `taint-eviction-controller`.
    eviction_recorder: Recorder,
    /// Pods (by uid) waiting for eviction: key, the time they are due and the timer's tag.
    scheduled: BTreeMap<String, (String, Millis, u64)>,
    /// Timer tags of the evictions, to their pod uid.
    timers: BTreeMap<u64, String>,
    next_tag: u64,
}

/// Which pods a taint pass looks at.
enum TaintScope {
    Pod(Rc<Object>),
    Node(String),
    All,
}

impl Default for NodeLifecycleController {
    fn default() -> Self {
        NodeLifecycleController {
            recorder: Recorder::new("node-controller"),
            eviction_recorder: Recorder::new("taint-eviction-controller"),
            scheduled: BTreeMap::new(),
            timers: BTreeMap::new(),
            next_tag: 1,
        }
    }
}

impl NodeLifecycleController {
    /// `monitorNodeHealth`: one pass over the nodes.
    fn monitor(&mut self, ctx: &mut Ctx<'_>) {
        let now = ctx.now();
        let nodes: Vec<Rc<Object>> = ctx.cache(NODES).list_shared().collect();
        // Each node's Lease key, written into one buffer: 5,000 nodes every 5 s.
        let mut lease_key = format!("{}/", crate::apiserver::rbac::NODE_LEASE_NAMESPACE);
        let prefix = lease_key.len();
        for node in nodes {
            lease_key.truncate(prefix);
            lease_key.push_str(meta::name(&node));
            let renewed = ctx
                .cache(LEASES)
                .get(&lease_key)
                .and_then(|l| l.at(&["spec", "renewTime"]))
                .and_then(Value::as_str)
                .and_then(parse_rfc3339);
            let Some(renewed) = renewed else {
                continue;
            };
            let ready = condition(&node, "Ready")
                .and_then(|c| c["status"].as_str())
                .unwrap_or("Unknown");
            let stale = now.saturating_sub(renewed) > NODE_MONITOR_GRACE_PERIOD_MS;
            if stale && ready != "Unknown" {
                self.mark_unknown(ctx, &node, renewed, ready == "True");
            } else if ready == "True" && taints(&node).iter().any(is_unreachable_taint) {
                self.mark_reachable(ctx, &node);
            }
        }
        self.taint_pass(ctx, TaintScope::All);
    }

    /// The kubelet stopped renewing its Lease: conditions Unknown, taints, pods not ready.
    fn mark_unknown(&mut self, ctx: &mut Ctx<'_>, node: &Object, renewed: Millis, was_ready: bool) {
        let now = ctx.now();
        let name = meta::name(node).to_string();
        ctx.push(
            ctx.new_record(
                "node.unreachable",
                format!(
                    "node-controller: node {name}: Lease not renewed for {} s (grace period {} s): conditions Unknown, tainted {UNREACHABLE_TAINT}",
                    (now - renewed) / 1000,
                    NODE_MONITOR_GRACE_PERIOD_MS / 1000
                ),
            )
            .node(name.clone())
            .object(format!("Node {name}")),
        );
        let conditions: Vec<Value> = node
            .at(&["status", "conditions"])
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .map(|mut c| {
                if c["status"] != "Unknown" {
                    c["status"] = json!("Unknown");
                    c["reason"] = json!(STATUS_UNKNOWN_REASON);
                    c["message"] = json!(STATUS_UNKNOWN_MESSAGE);
                    c["lastTransitionTime"] = json!(rfc3339(now));
                }
                c
            })
            .collect();
        let req = ctx
            .request(Verb::Patch(PatchType::Merge), node_info())
            .name(&name)
            .subresource("status")
            .body(json!({"status": {"conditions": conditions}}));
        if ctx.send(&req).is_err() {
            return;
        }
        // doNoScheduleTaintingPass, then doNoExecuteTaintingPass (swapping a not-ready taint).
        let mut t: Vec<Value> = taints(node)
            .iter()
            .filter(|t| !is_unreachable_taint(t))
            .cloned()
            .collect();
        t.push(json!({"key": UNREACHABLE_TAINT, "effect": "NoSchedule"}));
        t.push(json!({"key": UNREACHABLE_TAINT, "effect": "NoExecute", "timeAdded": rfc3339(now)}));
        let req = ctx
            .request(Verb::Patch(PatchType::Merge), node_info())
            .name(&name)
            .body(json!({"spec": {"taints": t}}));
        let _ = ctx.send_owned(req);
        if was_ready {
            // RecordNodeStatusChange: once, when Ready turns into something else. Its reference
            // is built by hand, with the node's name as its uid.
            let node_ref = json!({
                "apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "uid": name},
            });
            self.recorder.event(
                ctx,
                &node_ref,
                None,
                EventType::Normal,
                "NodeNotReady",
                &format!("Node {name} status is now: NodeNotReady"),
            );
        }
        // MarkPodsNotReady.
        let pods: Vec<Object> = ctx
            .cache(PODS)
            .list()
            .filter(|p| p.at(&["spec", "nodeName"]).and_then(Value::as_str) == Some(&name))
            .cloned()
            .collect();
        for pod in pods {
            let Some(conds) = pod.at(&["status", "conditions"]).and_then(Value::as_array) else {
                continue;
            };
            if !conds
                .iter()
                .any(|c| c["type"] == "Ready" && c["status"] != "False")
            {
                continue;
            }
            let conds: Vec<Value> = conds
                .iter()
                .cloned()
                .map(|mut c| {
                    if c["type"] == "Ready" {
                        c["status"] = json!("False");
                        c["lastTransitionTime"] = json!(rfc3339(now));
                    }
                    c
                })
                .collect();
            let req = ctx
                .request(Verb::Patch(PatchType::Merge), pod_info())
                .namespace(meta::namespace(&pod))
                .name(meta::name(&pod))
                .subresource("status")
                .body(json!({"status": {"conditions": conds}}));
            // After the status update, so that the pod still exists.
            if ctx.send(&req).is_ok() {
                self.recorder.event(
                    ctx,
                    &pod,
                    None,
                    EventType::Warning,
                    "NodeNotReady",
                    "Node is not ready",
                );
            }
        }
    }

    /// The kubelet posts Ready again: the unreachable taints go.
    fn mark_reachable(&mut self, ctx: &mut Ctx<'_>, node: &Object) {
        let name = meta::name(node).to_string();
        ctx.push(
            ctx.new_record(
                "node.reachable",
                format!("node-controller: node {name} is Ready again: removing the {UNREACHABLE_TAINT} taints"),
            )
            .node(name.clone())
            .object(format!("Node {name}")),
        );
        let t: Vec<Value> = taints(node)
            .iter()
            .filter(|t| !is_unreachable_taint(t))
            .cloned()
            .collect();
        let body = if t.is_empty() {
            json!({"spec": {"taints": null}})
        } else {
            json!({"spec": {"taints": t}})
        };
        let req = ctx
            .request(Verb::Patch(PatchType::Merge), node_info())
            .name(&name)
            .body(body);
        let _ = ctx.send_owned(req);
    }

    /// The taint-eviction controller: schedules (or cancels) the eviction of the pods in
    /// `scope` that run on a node with NoExecute taints. Like the real one, a pod change looks
    /// at that pod and a node change at that node's pods.
    fn taint_pass(&mut self, ctx: &mut Ctx<'_>, scope: TaintScope) {
        let now = ctx.now();
        let no_execute = |ctx: &Ctx<'_>, node: &str| -> Vec<Value> {
            ctx.cache(NODES)
                .get(node)
                .map(no_execute_taints)
                .unwrap_or_default()
        };
        let node_of = |pod: &Object| -> String {
            pod.at(&["spec", "nodeName"])
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        let candidates: Vec<Rc<Object>> = match &scope {
            TaintScope::Pod(pod) => {
                // A deleted pod is no longer in the cache: its eviction, if any, is cancelled.
                match ctx.cache(PODS).get_shared(&key_of(pod)) {
                    Some(p) if meta::uid(&p) == meta::uid(pod) => vec![p],
                    _ => {
                        self.scheduled.remove(meta::uid(pod));
                        return;
                    }
                }
            }
            // The node's pods from the node-name index (in key order, as a scan gives them).
            TaintScope::Node(node) if !node.is_empty() => ctx
                .cache(PODS)
                .by_index_shared(NODE_NAME_INDEX, node)
                .collect(),
            TaintScope::Node(node) => ctx
                .cache(PODS)
                .list_shared()
                .filter(|p| node_of(p) == *node)
                .collect(),
            // Only a pod on a node with NoExecute taints can be due for eviction (the rest
            // are cancelled below, as pods on untainted nodes are), so the periodic pass reads
            // those nodes' pods from the index instead of every pod: it stays O(nodes) while a
            // big cluster is healthy. Merged in key order, as a scan gives them.
            TaintScope::All => {
                let pods = ctx.cache(PODS);
                let mut on_tainted: Vec<(&str, &Rc<Object>)> = ctx
                    .cache(NODES)
                    .list_shared()
                    .filter(|n| taints(n).iter().any(is_no_execute))
                    .flat_map(|n| {
                        pods.by_index_keyed(NODE_NAME_INDEX, meta::name(&n))
                            .collect::<Vec<_>>()
                    })
                    .collect();
                crate::api::sorting::sort_by(&mut on_tainted, &|a, b| a.0.cmp(b.0));
                on_tainted.into_iter().map(|(_, p)| Rc::clone(p)).collect()
            }
        };
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut live: BTreeSet<String> = BTreeSet::new();
        let mut taints_of: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        for pod in candidates {
            let uid = meta::uid(&pod).to_string();
            seen.insert(uid.clone());
            // Deleting, or marked by an eviction whose delete is still on its way.
            if pod.at(&["metadata", "deletionTimestamp"]).is_some()
                || condition(&pod, "DisruptionTarget")
                    .is_some_and(|c| c["reason"] == "DeletionByTaintManager")
            {
                continue;
            }
            let node = node_of(&pod);
            if node.is_empty() {
                continue;
            }
            let t = taints_of
                .entry(node.clone())
                .or_insert_with(|| no_execute(ctx, &node));
            if t.is_empty() {
                continue;
            }
            let Some(tolerated) = min_toleration_ms(&pod, t) else {
                continue;
            };
            live.insert(uid.clone());
            if self.scheduled.contains_key(&uid) {
                continue;
            }
            let due = now + tolerated;
            let tag = self.next_tag;
            self.next_tag += 1;
            self.scheduled.insert(uid.clone(), (key_of(&pod), due, tag));
            ctx.push(
                ctx.new_record(
                    "taint.eviction",
                    format!(
                        "taint-eviction-controller: pod {} on node {node} tolerates its NoExecute taints for {} s: deletion scheduled",
                        key_of(&pod),
                        tolerated / 1000
                    ),
                )
                .node(node.clone())
                .object(crate::apiserver::object_label(&pod)),
            );
            self.timers.insert(tag, uid);
            ctx.after(tolerated.max(1), tag, false);
        }
        // Taints removed, pod gone or deleting: the scheduled eviction is cancelled.
        match scope {
            TaintScope::All => self.scheduled.retain(|uid, _| live.contains(uid)),
            _ => self
                .scheduled
                .retain(|uid, _| !seen.contains(uid) || live.contains(uid)),
        }
    }

    fn evict(&mut self, ctx: &mut Ctx<'_>, tag: u64) {
        let Some(uid) = self.timers.remove(&tag) else {
            return;
        };
        if self.scheduled.get(&uid).map(|s| s.2) != Some(tag) {
            return;
        }
        let Some((key, _, _)) = self.scheduled.remove(&uid) else {
            return;
        };
        let Some(pod) = ctx.cache(PODS).get(&key).cloned() else {
            return;
        };
        if meta::uid(&pod) != uid || pod.at(&["metadata", "deletionTimestamp"]).is_some() {
            return;
        }
        self.eviction_recorder.event(
            ctx,
            &pod,
            None,
            EventType::Normal,
            "TaintManagerEviction",
            &format!("Marking for deletion Pod {key}"),
        );
        // addConditionAndDeletePod: a DisruptionTarget condition, then the delete.
        let mut conds: Vec<Value> = pod
            .at(&["status", "conditions"])
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        conds.retain(|c| c["type"] != "DisruptionTarget");
        conds.push(json!({
            "type": "DisruptionTarget", "status": "True", "reason": "DeletionByTaintManager",
            "message": "Taint manager: deleting due to NoExecute taint",
            "lastProbeTime": null, "lastTransitionTime": rfc3339(ctx.now()),
        }));
        let req = ctx
            .request(Verb::Patch(PatchType::Merge), pod_info())
            .namespace(meta::namespace(&pod))
            .name(meta::name(&pod))
            .subresource("status")
            .body(json!({"status": {"conditions": conds}}));
        let _ = ctx.send_owned(req);
        let req = ctx
            .request(Verb::Delete, pod_info())
            .namespace(meta::namespace(&pod))
            .name(meta::name(&pod));
        let _ = ctx.send_owned(req);
    }
}

impl Component for NodeLifecycleController {
    fn name(&self) -> String {
        "node-controller".into()
    }
    fn lane(&self) -> Lane {
        Lane::KubeControllerManager
    }
    fn credentials(&self) -> Credentials {
        controller_credentials("node-controller")
    }
    fn informer_credentials(&self) -> Credentials {
        manager_credentials()
    }
    fn informers(&self) -> Vec<InformerSpec> {
        let mut leases = InformerSpec::all(lease_info());
        leases.namespace = Some(crate::apiserver::rbac::NODE_LEASE_NAMESPACE.into());
        vec![
            InformerSpec::all(node_info()),
            leases,
            InformerSpec::all(pod_info()).indexed(NODE_NAME_INDEX, node_name_index),
        ]
    }
    fn handle(&mut self, ctx: &mut Ctx<'_>, input: Input) {
        match input {
            Input::Started => ctx.after(NODE_MONITOR_PERIOD_MS, TAG_MONITOR, true),
            // The monitor pass reads the Lease cache; the taint manager reacts to nodes and pods.
            Input::Watch {
                informer: PODS,
                event,
            } => self.taint_pass(ctx, TaintScope::Pod(event.object)),
            Input::Watch {
                informer: NODES,
                event,
            } => {
                let node = meta::name(&event.object).to_string();
                self.taint_pass(ctx, TaintScope::Node(node))
            }
            Input::Watch { .. } => {}
            Input::Timer(TAG_MONITOR) => {
                self.monitor(ctx);
                ctx.after(NODE_MONITOR_PERIOD_MS, TAG_MONITOR, true);
            }
            Input::Timer(tag) => self.evict(ctx, tag),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_tolerations_give_300_seconds() {
        let pod = json!({"spec": {"tolerations": [
            {"key": NOT_READY_TAINT, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
            {"key": UNREACHABLE_TAINT, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
        ]}});
        let taint = json!({"key": UNREACHABLE_TAINT, "effect": "NoExecute"});
        assert_eq!(
            min_toleration_ms(&pod, std::slice::from_ref(&taint)),
            Some(300_000)
        );
        assert_eq!(
            min_toleration_ms(&json!({"spec": {}}), std::slice::from_ref(&taint)),
            Some(0)
        );
        let forever = json!({"spec": {"tolerations": [{"operator": "Exists"}]}});
        assert_eq!(min_toleration_ms(&forever, &[taint]), None);
    }
}
