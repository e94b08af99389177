//! The ReplicaSet controller (`pkg/controller/replicaset/replica_set.go`): keeps the number of
//! active pods that match a ReplicaSet's selector and are controlled by it at `spec.replicas`,
//! adopting orphans and releasing pods that stopped matching, creating in slow-start batches
//! and deleting by the documented ranking; then writes `status`.

use super::events::{EventType, Recorder};
use super::expectations::Expectations;
use super::podutil::*;
use super::workqueue::{Delayed, WorkQueue};
use super::{controller_credentials, manager_credentials, WORKER_DELAY_MS};
use crate::api::json::JsonPointer;
use crate::api::value::{json, Value};
use crate::api::{meta, resources::for_kind, ApiError, Object};
use crate::apiserver::{Credentials, PatchType, Verb};
use crate::cluster::component::{Component, Ctx, InformerSpec, Input};
use crate::cluster::informer::{
    controller_uid_index, key_of, orphan_index_key, CONTROLLER_UID_INDEX,
};
use crate::cluster::memo::VersionMemo;
use crate::trace::Component as Lane;
use std::collections::BTreeMap;
use std::rc::Rc;

const REPLICASETS: usize = 0;
const PODS: usize = 1;

/// At most this many pods are created or deleted in one sync (`BurstReplicas`).
pub const BURST_REPLICAS: i64 = 500;
/// The first slow-start batch (`SlowStartInitialBatchSize`).
pub const SLOW_START_INITIAL_BATCH: i64 = 1;

pub struct ReplicaSetController {
    queue: WorkQueue,
    delayed: Delayed,
    expectations: Expectations,
    recorder: Recorder,
    /// What a sync needs to know of each cached pod version, by its address: every sync asks
    /// about all of a ReplicaSet's pods, and most have not changed since the last one. The
    /// entry's weak reference keeps the allocation (not the object), so the address is not
    /// reused while the entry is here.
    facts: VersionMemo<PodFacts>,
    /// The sync whose slow-start batches are still being created: its worker is busy with it.
    creating: Option<Creating>,
}

/// A sync creating pods. The real worker waits on each slow-start batch while the rest of the
/// cluster goes on, so each batch after the first is a step of its own (one step of a hundred
/// creations would also hold the page for that long). The sync's status write waits for the
/// last batch, as in `syncReplicaSet`.
struct Creating {
    key: String,
    rs: Rc<Object>,
    pod: Object,
    remaining: i64,
    batch: i64,
    /// Of this batch, how many were sent and how many failed. The real worker sends a batch's
    /// creations at once; here a step sends at most [`CREATES_PER_STEP`] of them.
    sent: i64,
    failed: i64,
    found: Found,
}

/// How many creations of a slow-start batch one step sends: a batch of 64 in one step held the
/// page for about 100 ms at the large size.
const CREATES_PER_STEP: i64 = 16;

/// The pods a sync claimed, which its status counts.
struct Found {
    owned: Vec<Rc<Object>>,
    fully_labeled: usize,
    ready: usize,
}

/// A pod version's facts: its own, and how it stands with the ReplicaSet that last claimed it.
#[derive(Clone, Copy)]
struct PodFacts {
    active: bool,
    ready: bool,
    claim: Option<Claim>,
}

/// Whether a pod version matches a ReplicaSet's selector and carries all its template's
/// labels, for the selector and template labels whose fingerprint is `terms`.
#[derive(Clone, Copy)]
struct Claim {
    terms: u64,
    matches: bool,
    fully_labeled: bool,
}

/// What a sync does with a candidate pod.
#[derive(Clone, Copy)]
enum Claimed {
    /// Controlled and matching: one of its pods.
    Owned { fully_labeled: bool, ready: bool },
    /// Controlled but no longer matching.
    Release,
    /// An orphan that matches.
    Adopt,
}

/// What a sync compares each pod with: the selector and the template's labels.
struct ClaimTerms<'a> {
    selector: crate::api::selector::Selector,
    template_labels: Option<&'a crate::api::value::Map>,
    fingerprint: u64,
}

impl<'a> ClaimTerms<'a> {
    fn of(rs: &'a Object) -> Self {
        use std::hash::{Hash, Hasher};
        let selector = selector_of(rs);
        let template_labels = rs
            .at(&["spec", "template", "metadata", "labels"])
            .and_then(Value::as_object);
        // SipHash with fixed keys: the same on every run and platform.
        // The uid too: two ReplicaSets' terms never share a fingerprint.
        let mut h = std::collections::hash_map::DefaultHasher::new();
        meta::uid(rs).hash(&mut h);
        selector.to_string_form().hash(&mut h);
        for (k, v) in template_labels.into_iter().flatten() {
            (k, v.to_string()).hash(&mut h);
        }
        ClaimTerms {
            selector,
            template_labels,
            fingerprint: h.finish(),
        }
    }

    fn claim(&self, pod: &Object) -> Claim {
        let labels = meta::labels(pod);
        Claim {
            terms: self.fingerprint,
            matches: self.selector.matches(labels),
            fully_labeled: self
                .template_labels
                .into_iter()
                .flatten()
                .all(|(k, v)| labels.and_then(|l| l.get(k)) == Some(v)),
        }
    }
}

/// A pod version's facts, with its claim on the ReplicaSet whose terms are given.
fn pod_facts(
    memo: &mut VersionMemo<PodFacts>,
    pod: &Rc<Object>,
    terms: &ClaimTerms,
) -> (bool, bool, Claim) {
    let facts = memo.get_mut(pod, |p| PodFacts {
        active: is_active(p),
        ready: is_ready(p),
        claim: None,
    });
    let claim = match facts.claim {
        Some(c) if c.terms == terms.fingerprint => c,
        _ => *facts.claim.insert(terms.claim(pod)),
    };
    (facts.active, facts.ready, claim)
}

impl Default for ReplicaSetController {
    fn default() -> Self {
        ReplicaSetController {
            queue: WorkQueue::default(),
            delayed: Delayed::default(),
            expectations: Expectations::default(),
            recorder: Recorder::new("replicaset-controller"),
            facts: VersionMemo::default(),
            creating: None,
        }
    }
}

fn rs_info() -> &'static crate::api::ResourceInfo {
    for_kind("apps/v1", "ReplicaSet").expect("replicasets")
}
fn pod_info() -> &'static crate::api::ResourceInfo {
    for_kind("v1", "Pod").expect("pods")
}

impl ReplicaSetController {
    fn enqueue(&mut self, ctx: &mut Ctx<'_>, key: String) {
        if self.queue.add_for_worker(key) {
            ctx.after(WORKER_DELAY_MS, 0, false);
        }
    }

    fn enqueue_after(&mut self, ctx: &mut Ctx<'_>, key: String, delay: u64) {
        let tag = self.delayed.add(key);
        ctx.after(delay.max(1), tag, false);
    }

    /// The ReplicaSet key a pod event concerns: its controller, or for an orphan every
    /// ReplicaSet whose selector matches it (so one can adopt it).
    fn pod_keys(&self, ctx: &Ctx<'_>, pod: &Object) -> Vec<String> {
        let ns = meta::namespace(pod).unwrap_or("");
        if let Some(r) = meta::controller_ref(pod) {
            if r["kind"] == "ReplicaSet" {
                return vec![format!("{ns}/{}", r["name"].as_str().unwrap_or(""))];
            }
            return vec![];
        }
        ctx.cache(REPLICASETS)
            .in_namespace(ns)
            .filter(|rs| selector_of(rs).matches(meta::labels(pod)))
            .map(key_of)
            .collect()
    }

    fn on_pod(&mut self, ctx: &mut Ctx<'_>, kind: &str, pod: &Object) {
        let keys = self.pod_keys(ctx, pod);
        if let Some(r) = meta::controller_ref(pod) {
            if r["kind"] == "ReplicaSet" {
                let key = keys[0].clone();
                match kind {
                    "ADDED" if pod.at(&["metadata", "deletionTimestamp"]).is_none() => {
                        self.expectations.creation_observed(&key)
                    }
                    "DELETED" => self.expectations.deletion_observed(&key, meta::uid(pod)),
                    _ if pod.at(&["metadata", "deletionTimestamp"]).is_some() => {
                        self.expectations.deletion_observed(&key, meta::uid(pod))
                    }
                    _ => {}
                }
            }
        }
        for k in keys {
            self.enqueue(ctx, k);
        }
    }

    /// One sync; `None` while its slow-start batches go on in later steps.
    fn sync(&mut self, ctx: &mut Ctx<'_>, key: &str) -> Option<Result<(), ()>> {
        let Some(rs) = ctx.cache(REPLICASETS).get_shared(key) else {
            self.expectations.forget(key);
            return Some(Ok(()));
        };
        let ns = meta::namespace(&rs).unwrap_or("default").to_string();
        let terms = ClaimTerms::of(&rs);
        let uid = meta::uid(&rs).to_string();
        let deleting = rs.at(&["metadata", "deletionTimestamp"]).is_some();
        // Claim pods: controlled ones that still match, orphans that match (adopt), and
        // controlled ones that no longer match (release).
        let mut owned: Vec<Rc<Object>> = Vec::new();
        // Of the owned pods: how many carry the template's labels, and how many are Ready.
        let (mut fully, mut ready) = (0, 0);
        // Its own pods and the namespace's orphans, from the controller-uid index as the real
        // controller reads them; pods of other controllers are never looked at.
        // Both index entries are in key order: merged, they are the candidates in key order.
        // A pod filed under the uid is controlled by this ReplicaSet, an orphan by none.
        let candidates: Vec<(Claimed, Rc<Object>)> = {
            let pods = ctx.cache(PODS);
            let orphans_key = orphan_index_key(&ns);
            let mut mine = pods.by_index_keyed(CONTROLLER_UID_INDEX, &uid).peekable();
            let mut orphans = pods
                .by_index_keyed(CONTROLLER_UID_INDEX, &orphans_key)
                .peekable();
            let mut out = Vec::new();
            loop {
                let take_mine = match (mine.peek(), orphans.peek()) {
                    (Some(a), Some(b)) => a.0 <= b.0,
                    (Some(_), None) => true,
                    (None, Some(_)) => false,
                    (None, None) => break,
                };
                let (controlled, (_, pod)) = if take_mine {
                    (true, mine.next().expect("peeked"))
                } else {
                    (false, orphans.next().expect("peeked"))
                };
                let (active, is_ready, claim) = pod_facts(&mut self.facts, pod, &terms);
                let claimed = match (active, controlled, claim.matches) {
                    (false, _, _) => continue,
                    (true, true, true) => Claimed::Owned {
                        fully_labeled: claim.fully_labeled,
                        ready: is_ready,
                    },
                    (true, true, false) if !deleting => Claimed::Release,
                    (true, false, true) if !deleting => Claimed::Adopt,
                    _ => continue,
                };
                out.push((claimed, Rc::clone(pod)));
            }
            out
        };
        for (claimed, pod) in candidates {
            let (pod, fully_labeled, is_ready) = match claimed {
                Claimed::Owned {
                    fully_labeled,
                    ready,
                } => (pod, fully_labeled, ready),
                Claimed::Release => {
                    self.release(ctx, &rs, &pod);
                    continue;
                }
                Claimed::Adopt => {
                    let Some(p) = self.adopt(ctx, &rs, &pod) else {
                        continue;
                    };
                    let p = Rc::new(p);
                    let (_, is_ready, claim) = pod_facts(&mut self.facts, &p, &terms);
                    (p, claim.fully_labeled, is_ready)
                }
            };
            fully += usize::from(fully_labeled);
            ready += usize::from(is_ready);
            owned.push(pod);
        }
        let found = Found {
            owned,
            fully_labeled: fully,
            ready,
        };
        let satisfied = self.expectations.satisfied(key);
        let mut err = false;
        if !satisfied {
            let (a, d) = self.expectations.pending(key);
            ctx.record(
                "reconcile",
                format!(
                    "replicaset-controller: ReplicaSet {key} still expects {a} creation(s) and {d} deletion(s) to be observed: waiting"
                ),
            );
        } else if !deleting {
            match self.manage_replicas(ctx, key, &rs, &found.owned) {
                Ok(Some(n)) => {
                    let pod = pod_from_template(&rs);
                    return self.create_batch(
                        ctx,
                        Creating {
                            key: key.to_string(),
                            rs,
                            pod,
                            remaining: n,
                            batch: SLOW_START_INITIAL_BATCH.min(n),
                            sent: 0,
                            failed: 0,
                            found,
                        },
                    );
                }
                Ok(None) => {}
                Err(_) => err = true,
            }
        }
        Some(self.write_status(ctx, key, &rs, found, err))
    }

    /// The end of a sync: its status, always recomputed from the pods it found.
    fn write_status(
        &mut self,
        ctx: &mut Ctx<'_>,
        key: &str,
        rs: &Object,
        found: Found,
        mut err: bool,
    ) -> Result<(), ()> {
        let Found {
            owned,
            fully_labeled: fully,
            ready,
        } = found;
        let ns = meta::namespace(rs).unwrap_or("default").to_string();
        let min_ready = min_ready_seconds(rs);
        let now = ctx.now();
        // Without minReadySeconds, available is Ready (no transition time to parse).
        let available = if min_ready <= 0 {
            ready
        } else {
            owned
                .iter()
                .filter(|p| is_available(p, min_ready, now))
                .count()
        };
        let mut status = rs.get("status").cloned().unwrap_or(json!({}));
        if !status.is_object() {
            status = json!({});
        }
        for (field, v) in [
            ("replicas", owned.len()),
            ("fullyLabeledReplicas", fully),
            ("readyReplicas", ready),
            ("availableReplicas", available),
        ] {
            if v > 0 {
                status[field] = json!(v);
            } else if let Some(m) = status.as_object_mut() {
                m.remove(field);
            }
        }
        status["replicas"] = json!(owned.len());
        if let Some(g) = rs.at(&["metadata", "generation"]) {
            status["observedGeneration"] = g.clone();
        }
        if rs.get("status") != Some(&status) {
            let mut fresh = Object::clone(rs);
            fresh["status"] = status.clone();
            let req = ctx
                .request(Verb::Update, rs_info())
                .namespace(Some(&ns))
                .name(meta::name(rs))
                .subresource("status")
                .body(fresh);
            match ctx.send(&req) {
                Ok(_) => {}
                Err(e) if e.code == 409 => {
                    // A stale cache: read it again and retry once (`updateReplicaSetStatus`).
                    let get = ctx
                        .request(Verb::Get, rs_info())
                        .namespace(Some(&ns))
                        .name(meta::name(rs));
                    if let Ok(mut cur) = ctx.send(&get) {
                        cur["status"] = status;
                        let req = ctx
                            .request(Verb::Update, rs_info())
                            .namespace(Some(&ns))
                            .name(meta::name(rs))
                            .subresource("status")
                            .body(cur);
                        if ctx.send(&req).is_err() {
                            err = true;
                        }
                    }
                }
                Err(e) if e.code == 404 => {}
                Err(_) => err = true,
            }
        }
        // Pods that are Ready but not yet available: look again when they become so.
        if min_ready > 0 && !err {
            if let Some(at) = owned
                .iter()
                .filter(|p| !is_available(p, min_ready, now))
                .filter_map(|p| available_at(p, min_ready))
                .min()
            {
                self.enqueue_after(ctx, key.to_string(), at.saturating_sub(now) + 1);
            }
        }
        if err {
            Err(())
        } else {
            Ok(())
        }
    }

    fn adopt(&mut self, ctx: &mut Ctx<'_>, rs: &Object, pod: &Object) -> Option<Object> {
        ctx.record(
            "reconcile",
            format!(
                "replicaset-controller: orphan Pod {} matches ReplicaSet {}'s selector: adopting it",
                meta::name(pod),
                meta::name(rs)
            ),
        );
        let patch = json!({"metadata": {
            "ownerReferences": [controller_ref_to(rs)],
            "uid": meta::uid(pod),
        }});
        let req = ctx
            .request(Verb::Patch(PatchType::Strategic), pod_info())
            .namespace(meta::namespace(pod))
            .name(meta::name(pod))
            .body(patch);
        ctx.send(&req).ok()
    }

    fn release(&mut self, ctx: &mut Ctx<'_>, rs: &Object, pod: &Object) {
        ctx.record(
            "reconcile",
            format!(
                "replicaset-controller: Pod {} no longer matches ReplicaSet {}'s selector: releasing it",
                meta::name(pod),
                meta::name(rs)
            ),
        );
        let refs: Vec<Value> = pod
            .at(&["metadata", "ownerReferences"])
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter(|r| r["uid"] != meta::uid(rs))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        let patch = json!({"metadata": {"ownerReferences": refs, "uid": meta::uid(pod)}});
        let req = ctx
            .request(Verb::Patch(PatchType::Merge), pod_info())
            .namespace(meta::namespace(pod))
            .name(meta::name(pod))
            .body(patch);
        let _ = ctx.send_owned(req);
    }

    /// Deletes the pods over `spec.replicas`, or says how many to create (in slow-start
    /// batches, see [`Creating`]).
    fn manage_replicas(
        &mut self,
        ctx: &mut Ctx<'_>,
        key: &str,
        rs: &Object,
        owned: &[Rc<Object>],
    ) -> Result<Option<i64>, ApiError> {
        let want = replicas(rs);
        let have = owned.len() as i64;
        let diff = have - want;
        let ns = meta::namespace(rs).unwrap_or("default").to_string();
        if diff < 0 {
            let n = (-diff).min(BURST_REPLICAS);
            ctx.record(
                "reconcile",
                format!(
                    "replicaset-controller: ReplicaSet {key} wants {want} pod(s) and has {have}: creating {n} in slow-start batches"
                ),
            );
            self.expectations.expect_creations(key, n);
            return Ok(Some(n));
        } else if diff > 0 {
            let n = diff.min(BURST_REPLICAS) as usize;
            // Rank: how many of the owned pods share each pod's node.
            let mut per_node: BTreeMap<&str, usize> = BTreeMap::new();
            for p in owned {
                if let Some(nn) = p.at(&["spec", "nodeName"]).and_then(Value::as_str) {
                    *per_node.entry(nn).or_default() += 1;
                }
            }
            let rank = |p: &Object| {
                p.at(&["spec", "nodeName"])
                    .and_then(Value::as_str)
                    .and_then(|nn| per_node.get(nn).copied())
                    .unwrap_or(0)
            };
            let mut ranked: Vec<(&Object, usize)> = owned.iter().map(|p| (&**p, rank(p))).collect();
            crate::api::sorting::sort_by(&mut ranked, &|a, b| deletion_order(a.0, a.1, b.0, b.1));
            let victims: Vec<Object> = ranked.into_iter().take(n).map(|(p, _)| p.clone()).collect();
            ctx.record(
                "reconcile",
                format!(
                    "replicaset-controller: ReplicaSet {key} wants {want} pod(s) and has {have}: deleting {n} ({})",
                    victims.iter().map(meta::name).collect::<Vec<_>>().join(", ")
                ),
            );
            for v in &victims {
                self.expectations.expect_deletion(key, meta::uid(v));
            }
            for v in &victims {
                let req = ctx
                    .request(Verb::Delete, pod_info())
                    .namespace(Some(&ns))
                    .name(meta::name(v));
                match ctx.send(&req) {
                    Ok(_) => self.recorder.event(
                        ctx,
                        rs,
                        None,
                        EventType::Normal,
                        "SuccessfulDelete",
                        &format!("Deleted pod: {}", meta::name(v)),
                    ),
                    Err(e) if e.code == 404 => {
                        self.expectations.deletion_observed(key, meta::uid(v));
                    }
                    Err(e) => {
                        self.expectations.deletion_observed(key, meta::uid(v));
                        self.recorder.event(
                            ctx,
                            rs,
                            None,
                            EventType::Warning,
                            "FailedDelete",
                            &format!("Error deleting: {}", e.message),
                        );
                        return Err(e);
                    }
                }
            }
        }
        Ok(None)
    }

    /// Creates (the next creations of) one slow-start batch of a sync's pods; the sync's result
    /// once the last is done (or one failed: the batches not attempted are not), `None` while
    /// more are to come.
    fn create_batch(&mut self, ctx: &mut Ctx<'_>, mut job: Creating) -> Option<Result<(), ()>> {
        let key = job.key.as_str();
        let rs = &*job.rs;
        let ns = meta::namespace(rs).unwrap_or("default");
        if job.sent == 0 {
            ctx.record(
                "reconcile",
                format!(
                    "replicaset-controller: slow-start batch of {} pod(s)",
                    job.batch
                ),
            );
        }
        let this_step = (job.batch - job.sent).min(CREATES_PER_STEP);
        job.sent += this_step;
        for _ in 0..this_step {
            let req = ctx
                .request(Verb::Create, pod_info())
                .namespace(Some(ns))
                .body(job.pod.clone());
            match ctx.send_owned(req) {
                Ok(created) => self.recorder.event(
                    ctx,
                    rs,
                    None,
                    EventType::Normal,
                    "SuccessfulCreate",
                    &format!("Created pod: {}", meta::name(&created)),
                ),
                Err(e) => {
                    job.failed += 1;
                    self.expectations.creation_observed(key);
                    self.recorder.event(
                        ctx,
                        rs,
                        None,
                        EventType::Warning,
                        "FailedCreate",
                        &format!("Error creating: {}", e.message),
                    );
                }
            }
        }
        if job.sent < job.batch {
            self.creating = Some(job);
            return None;
        }
        let failed = job.failed;
        job.remaining -= job.batch;
        (job.sent, job.failed) = (0, 0);
        if failed > 0 {
            // The batches not attempted will not be observed either.
            for _ in 0..job.remaining {
                self.expectations.creation_observed(key);
            }
            job.remaining = 0;
        }
        job.batch = (2 * job.batch).min(job.remaining);
        if job.batch > 0 {
            self.creating = Some(job);
            return None;
        }
        // A job goes on only while every batch succeeded: this one's failures are the sync's.
        Some(self.write_status(ctx, &job.key, &job.rs, job.found, failed > 0))
    }
}

/// The pod a ReplicaSet creates (`GetPodFromTemplate`).
pub fn pod_from_template(rs: &Object) -> Object {
    let template = rs.at(&["spec", "template"]).cloned().unwrap_or(json!({}));
    let mut metadata = crate::api::value::Map::new();
    metadata.insert("generateName", json!(format!("{}-", meta::name(rs))));
    if let Some(ns) = meta::namespace(rs) {
        metadata.insert("namespace", json!(ns));
    }
    for f in ["labels", "annotations", "finalizers"] {
        if let Some(v) = template.lookup(&format!("/metadata/{f}")) {
            metadata.insert(f, v.clone());
        }
    }
    metadata.insert("ownerReferences", json!([controller_ref_to(rs)]));
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": metadata,
        "spec": template.get("spec").cloned().unwrap_or(json!({})),
    })
}

impl Component for ReplicaSetController {
    fn name(&self) -> String {
        "replicaset-controller".into()
    }
    fn lane(&self) -> Lane {
        Lane::KubeControllerManager
    }
    fn credentials(&self) -> Credentials {
        controller_credentials("replicaset-controller")
    }
    fn informer_credentials(&self) -> Credentials {
        manager_credentials()
    }
    fn informers(&self) -> Vec<InformerSpec> {
        vec![
            InformerSpec::all(rs_info()),
            InformerSpec::all(pod_info()).indexed(CONTROLLER_UID_INDEX, controller_uid_index),
        ]
    }
    fn handle(&mut self, ctx: &mut Ctx<'_>, input: Input) {
        match input {
            Input::Started => {
                let keys: Vec<String> = ctx.cache(REPLICASETS).list().map(key_of).collect();
                for k in keys {
                    self.enqueue(ctx, k);
                }
            }
            Input::Watch { informer, event } => {
                if informer == REPLICASETS {
                    let key = key_of(&event.object);
                    if event.kind == "DELETED" {
                        self.expectations.forget(&key);
                    } else {
                        self.enqueue(ctx, key);
                    }
                } else {
                    self.on_pod(ctx, event.kind, &event.object);
                }
            }
            Input::Timer(0) => {
                let done = match self.creating.take() {
                    Some(job) => {
                        self.queue.busy_turn();
                        let key = job.key.clone();
                        self.create_batch(ctx, job).map(|r| (key, r))
                    }
                    None => self
                        .queue
                        .take_turn()
                        .and_then(|key| self.sync(ctx, &key).map(|r| (key, r))),
                };
                match done {
                    Some((key, Ok(()))) => self.delayed.forget(&key),
                    Some((key, Err(()))) => {
                        let d = self.delayed.backoff_ms(&key);
                        self.enqueue_after(ctx, key, d);
                    }
                    None => {}
                }
                if self.queue.rearm(self.creating.is_some()) {
                    ctx.after(0, 0, false);
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
