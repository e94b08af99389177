//! The garbage collector (`pkg/controller/garbagecollector/`). Its graph builder keeps, from
//! watch events, a graph of every watched object and the owners its ownerReferences name
//! (`uidToNode`); its workers act on two queues, as API clients like any controller:
//! - `attemptToDelete`: a dependent whose owners are all gone is deleted (background
//!   propagation); one whose owner is being deleted in the foreground is deleted too, itself in
//!   the foreground when it has dependents of its own; an owner waiting for its dependents
//!   (`foregroundDeletion` finalizer) loses the finalizer once no dependent with
//!   `blockOwnerDeletion: true` is left, and the apiserver then removes it;
//! - `attemptToOrphan`: an owner deleted with the `orphan` finalizer has its ownerReference
//!   removed from each dependent, then loses the finalizer.

use super::workqueue::{Delayed, WorkQueue};
use super::{controller_credentials, manager_credentials, WORKER_DELAY_MS};
use crate::api::value::{json, Value};
use crate::api::{meta, resources::for_kind, Object, ResourceInfo};
use crate::apiserver::{Credentials, PatchType, Propagation, Verb};
use crate::cluster::component::{Component, Ctx, InformerSpec, Input};
use crate::controllers::podutil::At;
use crate::trace::Component as Lane;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The kinds it watches, as owners and as dependents.
const KINDS: &[(&str, &str)] = &[
    ("apps/v1", "Deployment"),
    ("apps/v1", "ReplicaSet"),
    ("v1", "Pod"),
];

/// `metav1.FinalizerDeleteDependents`.
pub const FOREGROUND: &str = "foregroundDeletion";
/// `metav1.FinalizerOrphanDependents`.
pub const ORPHAN: &str = "orphan";

/// How many owners known to be absent it remembers (`absentOwnerCache`, an LRU of 500).
const ABSENT_CACHE_SIZE: usize = 500;

fn info(i: usize) -> &'static ResourceInfo {
    for_kind(KINDS[i].0, KINDS[i].1).expect("served")
}

fn watched(api_version: &str, kind: &str) -> bool {
    KINDS.iter().any(|(v, k)| *v == api_version && *k == kind)
}

/// One entry of `metadata.ownerReferences`.
#[derive(Clone, Debug, PartialEq)]
struct OwnerRef {
    api_version: String,
    kind: String,
    name: String,
    uid: String,
    block: bool,
}

fn owner_refs(o: &Object) -> Vec<OwnerRef> {
    o.at(&["metadata", "ownerReferences"])
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|r| OwnerRef {
                    api_version: r["apiVersion"].as_str().unwrap_or("").to_string(),
                    kind: r["kind"].as_str().unwrap_or("").to_string(),
                    name: r["name"].as_str().unwrap_or("").to_string(),
                    uid: r["uid"].as_str().unwrap_or("").to_string(),
                    block: r["blockOwnerDeletion"].as_bool() == Some(true),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn finalizers(o: &Object) -> Vec<String> {
    o.at(&["metadata", "finalizers"])
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn being_deleted(o: &Object) -> bool {
    o.at(&["metadata", "deletionTimestamp"]).is_some()
}

fn has_finalizer(o: &Object, f: &str) -> bool {
    finalizers(o).iter().any(|x| x == f)
}

/// An object of the graph.
#[derive(Clone, Debug)]
struct Node {
    informer: usize,
    namespace: Option<String>,
    name: String,
    owners: Vec<OwnerRef>,
    /// It has a deletionTimestamp.
    being_deleted: bool,
    /// It has a deletionTimestamp and the `foregroundDeletion` finalizer.
    deleting_dependents: bool,
    /// It has a deletionTimestamp and the `orphan` finalizer.
    orphaning: bool,
}

impl Node {
    fn label(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{} {ns}/{}", KINDS[self.informer].1, self.name),
            None => format!("{} {}", KINDS[self.informer].1, self.name),
        }
    }
}

/// A failed request: the item goes back on its queue with back-off.
struct Retry;

/// What the owners of a dependent turned out to be (`classifyReferences`).
#[derive(Default)]
struct Classified {
    solid: Vec<OwnerRef>,
    dangling: Vec<OwnerRef>,
    waiting: Vec<OwnerRef>,
}

#[derive(Default)]
pub struct GarbageCollector {
    /// uid -> object.
    nodes: BTreeMap<String, Node>,
    /// owner uid -> the uids of the objects naming it, whether the owner is known or not.
    dependents: BTreeMap<String, BTreeSet<String>>,
    /// `delete|<uid>` (attemptToDelete) and `orphan|<uid>` (attemptToOrphan).
    queue: WorkQueue,
    delayed: Delayed,
    /// Whether the worker's timer is set.
    timer_set: bool,
    /// uids of owners known to be gone.
    absent: VecDeque<String>,
}

impl GarbageCollector {
    fn enqueue(&mut self, ctx: &mut Ctx<'_>, key: String) {
        self.queue.add(key);
        if !self.timer_set {
            self.timer_set = true;
            ctx.after(WORKER_DELAY_MS, 0, false);
        }
    }

    fn attempt_to_delete(&mut self, ctx: &mut Ctx<'_>, uid: &str) {
        self.enqueue(ctx, format!("delete|{uid}"));
    }

    fn mark_absent(&mut self, uid: &str) {
        if self.absent.iter().any(|u| u == uid) {
            return;
        }
        if self.absent.len() >= ABSENT_CACHE_SIZE {
            self.absent.pop_front();
        }
        self.absent.push_back(uid.to_string());
    }

    fn dependents_of(&self, uid: &str) -> Vec<String> {
        self.dependents
            .get(uid)
            .map(|s| s.iter().cloned().collect())
            .unwrap_or_default()
    }

    fn link(&mut self, owner: &str, dependent: &str) {
        self.dependents
            .entry(owner.to_string())
            .or_default()
            .insert(dependent.to_string());
    }

    fn unlink(&mut self, owner: &str, dependent: &str) {
        if let Some(s) = self.dependents.get_mut(owner) {
            s.remove(dependent);
            if s.is_empty() {
                self.dependents.remove(owner);
            }
        }
    }

    /// The graph builder's `processGraphChanges` for an added or modified object.
    fn observe(&mut self, ctx: &mut Ctx<'_>, informer: usize, obj: &Object, initial: bool) {
        let uid = meta::uid(obj).to_string();
        if uid.is_empty() {
            return;
        }
        let deleting = being_deleted(obj);
        let node = Node {
            informer,
            namespace: meta::namespace(obj).map(str::to_string),
            name: meta::name(obj).to_string(),
            owners: owner_refs(obj),
            being_deleted: deleting,
            deleting_dependents: deleting && has_finalizer(obj, FOREGROUND),
            orphaning: deleting && has_finalizer(obj, ORPHAN),
        };
        let old = self.nodes.insert(uid.clone(), node.clone());
        let old_owners = old.as_ref().map(|o| o.owners.clone()).unwrap_or_default();
        if old_owners != node.owners {
            for r in &old_owners {
                let now = node.owners.iter().find(|n| n.uid == r.uid);
                if now.is_none() {
                    self.unlink(&r.uid, &uid);
                }
                // An owner waiting for its blocking dependents may be free to go now
                // (`addUnblockedOwnersToDeleteQueue`).
                let unblocked = r.block && now.is_none_or(|n| !n.block);
                if unblocked
                    && self
                        .nodes
                        .get(&r.uid)
                        .is_some_and(|o| o.deleting_dependents)
                {
                    self.attempt_to_delete(ctx, &r.uid);
                }
            }
            let mut virtual_owner = false;
            for r in &node.owners {
                if !old_owners.iter().any(|o| o.uid == r.uid) {
                    self.link(&r.uid, &uid);
                    virtual_owner |= !initial
                        && watched(&r.api_version, &r.kind)
                        && !self.nodes.contains_key(&r.uid);
                }
            }
            // An owner it has never seen: check whether it exists at all.
            if virtual_owner {
                self.attempt_to_delete(ctx, &uid);
            }
        }
        if initial {
            return;
        }
        let (was_orphaning, was_deleting_dependents) = old
            .as_ref()
            .map(|o| (o.orphaning, o.deleting_dependents))
            .unwrap_or((false, false));
        self.transitions(ctx, &uid, &node, was_orphaning, was_deleting_dependents);
    }

    /// `processTransitions`: a deletion with the `orphan` or `foregroundDeletion` finalizer
    /// has begun.
    fn transitions(
        &mut self,
        ctx: &mut Ctx<'_>,
        uid: &str,
        node: &Node,
        was_orphaning: bool,
        was_deleting_dependents: bool,
    ) {
        // `startsWaitingForDependentsOrphaned`.
        if node.orphaning && !was_orphaning {
            self.enqueue(ctx, format!("orphan|{uid}"));
        }
        // `startsWaitingForDependentsDeleted`: its dependents first, then itself.
        if node.deleting_dependents && !was_deleting_dependents {
            for d in self.dependents_of(uid) {
                self.attempt_to_delete(ctx, &d);
            }
            self.attempt_to_delete(ctx, uid);
        }
    }

    /// The graph builder for a deleted object: its dependents are checked, and so are its owners
    /// that wait for their dependents to go.
    fn forget(&mut self, ctx: &mut Ctx<'_>, uid: &str) {
        let Some(node) = self.nodes.remove(uid) else {
            return;
        };
        let deps = self.dependents_of(uid);
        if !deps.is_empty() {
            self.mark_absent(uid);
        }
        for d in deps {
            self.attempt_to_delete(ctx, &d);
        }
        for r in &node.owners {
            self.unlink(&r.uid, uid);
            if self
                .nodes
                .get(&r.uid)
                .is_some_and(|o| o.deleting_dependents)
            {
                self.attempt_to_delete(ctx, &r.uid);
            }
        }
    }

    /// `isDangling`: whether the owner is gone, and if not, the owner as the apiserver has it.
    /// `None` when it cannot tell (a kind it does not know).
    fn is_dangling(
        &mut self,
        ctx: &mut Ctx<'_>,
        r: &OwnerRef,
        namespace: Option<&str>,
    ) -> Result<Option<(bool, Option<Object>)>, Retry> {
        if self.absent.iter().any(|u| *u == r.uid) {
            return Ok(Some((true, None)));
        }
        let Some(owner_info) = for_kind(&r.api_version, &r.kind) else {
            return Ok(None);
        };
        if namespace.is_none() && owner_info.namespaced {
            // A cluster-scoped object cannot be owned by a namespaced one.
            return Ok(None);
        }
        let req = ctx
            .request(Verb::Get, owner_info)
            .namespace(namespace)
            .name(&r.name);
        match ctx.send(&req) {
            Ok(o) if meta::uid(&o) == r.uid => Ok(Some((false, Some(o)))),
            Ok(_) => {
                self.mark_absent(&r.uid);
                Ok(Some((true, None)))
            }
            Err(e) if e.code == 404 => {
                self.mark_absent(&r.uid);
                Ok(Some((true, None)))
            }
            Err(_) => Err(Retry),
        }
    }

    /// `classifyReferences`; `None` when some owner cannot be judged (then it is left alone).
    fn classify(
        &mut self,
        ctx: &mut Ctx<'_>,
        refs: &[OwnerRef],
        namespace: Option<&str>,
    ) -> Result<Option<Classified>, Retry> {
        let mut c = Classified::default();
        for r in refs {
            match self.is_dangling(ctx, r, namespace)? {
                None => return Ok(None),
                Some((true, _)) => c.dangling.push(r.clone()),
                Some((false, owner)) => {
                    let waiting = owner
                        .as_ref()
                        .is_some_and(|o| being_deleted(o) && has_finalizer(o, FOREGROUND));
                    if waiting {
                        c.waiting.push(r.clone());
                    } else {
                        c.solid.push(r.clone());
                    }
                }
            }
        }
        Ok(Some(c))
    }

    /// The latest copy of a node's object from the apiserver (`getObject`); `None` when it is
    /// gone (its DELETED event is on the way).
    fn get_latest(
        &mut self,
        ctx: &mut Ctx<'_>,
        uid: &str,
        n: &Node,
    ) -> Result<Option<Object>, Retry> {
        let req = ctx
            .request(Verb::Get, info(n.informer))
            .namespace(n.namespace.as_deref())
            .name(&n.name);
        match ctx.send(&req) {
            Ok(o) if meta::uid(&o) == uid => Ok(Some(o)),
            Ok(_) => Ok(None),
            Err(e) if e.code == 404 => Ok(None),
            Err(_) => Err(Retry),
        }
    }

    /// `attemptToDeleteItem`.
    fn attempt_to_delete_item(&mut self, ctx: &mut Ctx<'_>, uid: &str) -> Result<(), Retry> {
        let Some(n) = self.nodes.get(uid).cloned() else {
            return Ok(());
        };
        // Being deleted is a one-way trip: wait for the DELETED event.
        if n.being_deleted && !n.deleting_dependents {
            return Ok(());
        }
        let Some(latest) = self.get_latest(ctx, uid, &n)? else {
            return Ok(());
        };
        // The graph may not have seen a deletion this worker asked for a moment ago.
        if n.deleting_dependents || (being_deleted(&latest) && has_finalizer(&latest, FOREGROUND)) {
            return self.process_deleting_dependents(ctx, uid, &n, &latest);
        }
        if being_deleted(&latest) {
            return Ok(());
        }
        let refs = owner_refs(&latest);
        if refs.is_empty() {
            return Ok(());
        }
        let Some(c) = self.classify(ctx, &refs, n.namespace.as_deref())? else {
            return Ok(());
        };
        let label = n.label();
        if !c.solid.is_empty() {
            if c.dangling.is_empty() && c.waiting.is_empty() {
                return Ok(());
            }
            // Still owned: only the references to owners that are gone or going are dropped,
            // or a foreground owner would wait for it forever.
            let gone: Vec<&OwnerRef> = c.dangling.iter().chain(&c.waiting).collect();
            let names: Vec<String> = gone
                .iter()
                .map(|r| format!("{} {}", r.kind, r.name))
                .collect();
            ctx.record(
                "gc.orphan",
                format!(
                    "garbage-collector: {label} still has an owner ({} {}): removing its ownerReference(s) to {}",
                    c.solid[0].kind,
                    c.solid[0].name,
                    names.join(", ")
                ),
            );
            let uids: Vec<&str> = gone.iter().map(|r| r.uid.as_str()).collect();
            return self.delete_owner_refs(ctx, uid, &n, &uids);
        }
        let has_dependents = self.dependents.get(uid).is_some_and(|s| !s.is_empty());
        if !c.waiting.is_empty() && has_dependents {
            let owner = &c.waiting[0];
            // A dependent that itself waits for its dependents could be waiting for this one:
            // the references stop blocking, to break the cycle.
            let cycle = self
                .dependents_of(uid)
                .iter()
                .any(|d| self.nodes.get(d).is_some_and(|x| x.deleting_dependents));
            if cycle {
                self.unblock_owner_refs(ctx, uid, &n, &refs)?;
            }
            ctx.record(
                "gc.foreground",
                format!(
                    "garbage-collector: the owner of {label} ({} {}) is being deleted in the foreground and {label} has dependents of its own: deleting it in the foreground too",
                    owner.kind, owner.name
                ),
            );
            return self.delete(ctx, &n, Propagation::Foreground);
        }
        // No owner left to keep it: delete it, keeping a propagation already asked for.
        let policy = if has_finalizer(&latest, ORPHAN) {
            Propagation::Orphan
        } else if has_finalizer(&latest, FOREGROUND) {
            Propagation::Foreground
        } else {
            Propagation::Background
        };
        if let Some(owner) = c.waiting.first() {
            ctx.record(
                "gc.foreground",
                format!(
                    "garbage-collector: the owner of {label} ({} {}) is being deleted in the foreground: deleting {label} first",
                    owner.kind, owner.name
                ),
            );
        } else {
            ctx.record(
                "gc.background",
                format!(
                    "garbage-collector: every owner of {label} is gone: deleting it (propagationPolicy {})",
                    policy.as_str()
                ),
            );
        }
        self.delete(ctx, &n, policy)
    }

    /// Patches the node's object; an object already gone needs nothing more.
    fn patch(ctx: &mut Ctx<'_>, n: &Node, kind: PatchType, body: Value) -> Result<(), Retry> {
        let req = ctx
            .request(Verb::Patch(kind), info(n.informer))
            .namespace(n.namespace.as_deref())
            .name(&n.name)
            .body(body);
        match ctx.send(&req) {
            Ok(_) => Ok(()),
            Err(e) if e.code == 404 => Ok(()),
            Err(_) => Err(Retry),
        }
    }

    fn delete(&mut self, ctx: &mut Ctx<'_>, n: &Node, policy: Propagation) -> Result<(), Retry> {
        let mut req = ctx
            .request(Verb::Delete, info(n.informer))
            .namespace(n.namespace.as_deref())
            .name(&n.name);
        req.propagation = policy;
        match ctx.send(&req) {
            Ok(_) => Ok(()),
            Err(e) if e.code == 404 => Ok(()),
            Err(_) => Err(Retry),
        }
    }

    /// `processDeletingDependentsItem`: the finalizer goes once no dependent blocks the owner;
    /// until then, each blocking dependent is (re)considered for deletion.
    fn process_deleting_dependents(
        &mut self,
        ctx: &mut Ctx<'_>,
        uid: &str,
        n: &Node,
        latest: &Object,
    ) -> Result<(), Retry> {
        let blocking: Vec<String> = self
            .dependents_of(uid)
            .into_iter()
            .filter(|d| {
                self.nodes
                    .get(d)
                    .is_some_and(|x| x.owners.iter().any(|r| r.uid == uid && r.block))
            })
            .collect();
        if blocking.is_empty() {
            ctx.record(
                "gc.foreground",
                format!(
                    "garbage-collector: no dependent of {} blocks its deletion any more: removing the {FOREGROUND} finalizer",
                    n.label()
                ),
            );
            return self.remove_finalizer(ctx, uid, n, Some(latest), FOREGROUND);
        }
        for d in blocking {
            if !self.nodes.get(&d).is_some_and(|x| x.deleting_dependents) {
                self.attempt_to_delete(ctx, &d);
            }
        }
        Ok(())
    }

    /// `removeFinalizer`: a JSON merge patch of the finalizers, with the resourceVersion read,
    /// so that a concurrent change makes it fail with 409 and try again.
    fn remove_finalizer(
        &mut self,
        ctx: &mut Ctx<'_>,
        uid: &str,
        n: &Node,
        latest: Option<&Object>,
        finalizer: &str,
    ) -> Result<(), Retry> {
        let latest = match latest {
            Some(o) => o.clone(),
            None => match self.get_latest(ctx, uid, n)? {
                Some(o) => o,
                None => return Ok(()),
            },
        };
        let current = finalizers(&latest);
        if !current.iter().any(|f| f == finalizer) {
            return Ok(());
        }
        let rest: Vec<&String> = current.iter().filter(|f| *f != finalizer).collect();
        let fins = if rest.is_empty() {
            Value::Null
        } else {
            json!(rest)
        };
        let body = json!({"metadata": {
            "resourceVersion": meta::resource_version(&latest),
            "finalizers": fins,
        }});
        Self::patch(ctx, n, PatchType::Merge, body)
    }

    /// The strategic merge patch that deletes ownerReferences by uid
    /// (`GenerateDeleteOwnerRefStrategicMergeBytes`).
    fn delete_owner_refs(
        &mut self,
        ctx: &mut Ctx<'_>,
        uid: &str,
        n: &Node,
        owners: &[&str],
    ) -> Result<(), Retry> {
        let refs: Vec<Value> = owners
            .iter()
            .map(|u| json!({"$patch": "delete", "uid": u}))
            .collect();
        let body = json!({"metadata": {"ownerReferences": refs, "uid": uid}});
        Self::patch(ctx, n, PatchType::Strategic, body)
    }

    /// `unblockOwnerReferencesStrategicMergePatch`: blockOwnerDeletion becomes false.
    fn unblock_owner_refs(
        &mut self,
        ctx: &mut Ctx<'_>,
        uid: &str,
        n: &Node,
        refs: &[OwnerRef],
    ) -> Result<(), Retry> {
        let list: Vec<Value> = refs
            .iter()
            .filter(|r| r.block)
            .map(|r| {
                json!({"apiVersion": r.api_version, "kind": r.kind, "name": r.name,
                    "uid": r.uid, "blockOwnerDeletion": false})
            })
            .collect();
        if list.is_empty() {
            return Ok(());
        }
        let body = json!({"metadata": {"ownerReferences": list, "uid": uid}});
        Self::patch(ctx, n, PatchType::Strategic, body)
    }

    /// `attemptToOrphanWorker`: every dependent loses its reference to the owner, then the owner
    /// loses the `orphan` finalizer.
    fn attempt_to_orphan(&mut self, ctx: &mut Ctx<'_>, uid: &str) -> Result<(), Retry> {
        let Some(n) = self.nodes.get(uid).cloned() else {
            return Ok(());
        };
        let deps: Vec<(String, Node)> = self
            .dependents_of(uid)
            .into_iter()
            .filter_map(|d| self.nodes.get(&d).cloned().map(|x| (d, x)))
            .collect();
        let label = n.label();
        if deps.is_empty() {
            ctx.record(
                "gc.orphan",
                format!(
                    "garbage-collector: {label} was deleted with propagationPolicy Orphan and has no dependents: removing the {ORPHAN} finalizer"
                ),
            );
        } else {
            let names: Vec<String> = deps.iter().map(|(_, d)| d.label()).collect();
            ctx.record(
                "gc.orphan",
                format!(
                    "garbage-collector: {label} was deleted with propagationPolicy Orphan: removing its ownerReference from {}, then the {ORPHAN} finalizer",
                    names.join(", ")
                ),
            );
        }
        let mut failed = false;
        for (d, dn) in &deps {
            failed |= self.delete_owner_refs(ctx, d, dn, &[uid]).is_err();
        }
        if failed {
            return Err(Retry);
        }
        self.remove_finalizer(ctx, uid, &n, None, ORPHAN)
    }

    fn work(&mut self, ctx: &mut Ctx<'_>, key: &str) -> Result<(), Retry> {
        match key.split_once('|') {
            Some(("delete", uid)) => self.attempt_to_delete_item(ctx, uid),
            Some(("orphan", uid)) => self.attempt_to_orphan(ctx, uid),
            _ => Ok(()),
        }
    }
}

impl Component for GarbageCollector {
    fn name(&self) -> String {
        "generic-garbage-collector".into()
    }
    fn lane(&self) -> Lane {
        Lane::KubeControllerManager
    }
    fn credentials(&self) -> Credentials {
        controller_credentials("generic-garbage-collector")
    }
    fn informer_credentials(&self) -> Credentials {
        manager_credentials()
    }
    fn informers(&self) -> Vec<InformerSpec> {
        (0..KINDS.len())
            .map(|i| InformerSpec::all(info(i)))
            .collect()
    }
    fn handle(&mut self, ctx: &mut Ctx<'_>, input: Input) {
        match input {
            Input::Started => {
                // The graph from the full caches: every object first, then what is pending
                // (owners it never saw, deletions already under way).
                self.nodes.clear();
                self.dependents.clear();
                let objects: Vec<(usize, Object)> = (0..KINDS.len())
                    .flat_map(|i| ctx.cache(i).list().cloned().map(move |o| (i, o)))
                    .collect();
                for (i, o) in &objects {
                    self.observe(ctx, *i, o, true);
                }
                for (_, o) in &objects {
                    let uid = meta::uid(o).to_string();
                    let Some(n) = self.nodes.get(&uid).cloned() else {
                        continue;
                    };
                    if n.owners.iter().any(|r| {
                        watched(&r.api_version, &r.kind) && !self.nodes.contains_key(&r.uid)
                    }) {
                        self.attempt_to_delete(ctx, &uid);
                    }
                    self.transitions(ctx, &uid, &n, false, false);
                }
            }
            Input::Watch { informer, event } => {
                if event.kind == "DELETED" {
                    self.forget(ctx, meta::uid(&event.object));
                } else {
                    self.observe(ctx, informer, &event.object, false);
                }
            }
            Input::Timer(0) => {
                self.timer_set = false;
                // The keys waiting now; what they add waits for the next round.
                for _ in 0..self.queue.len() {
                    let Some(key) = self.queue.pop() else {
                        break;
                    };
                    match self.work(ctx, &key) {
                        Ok(()) => self.delayed.forget(&key),
                        Err(Retry) => {
                            let d = self.delayed.backoff_ms(&key);
                            let tag = self.delayed.add(key);
                            ctx.after(d.max(1), tag, false);
                        }
                    }
                }
                if !self.queue.is_empty() && !self.timer_set {
                    self.timer_set = true;
                    ctx.after(WORKER_DELAY_MS, 0, false);
                }
            }
            Input::Timer(tag) => {
                if let Some(key) = self.delayed.take(tag) {
                    self.enqueue(ctx, key);
                }
            }
        }
    }
}
