//! The Deployment controller (`pkg/controller/deployment/`): owns ReplicaSets, one per pod
//! template, named `<deployment>-<pod-template-hash>`, and moves replicas from the old ones to
//! the new one by the strategy (`rolling.rs`, `recreate.rs`), scales proportionally
//! (`sync.rs`), finds the ReplicaSet of a rolled-back template (`rollback.rs`) and reports
//! status and conditions (`progress.rs`).

pub mod hash;
pub mod progress;
pub mod recreate;
pub mod rollback;
pub mod rolling;
pub mod sync;

use super::events::{EventType, Recorder};
use super::podutil::*;
use super::workqueue::{Delayed, WorkQueue};
use super::{controller_credentials, manager_credentials, WORKER_DELAY_MS};
use crate::api::value::{json, Value};
use crate::api::{meta, resources::for_kind, Object, ResourceInfo};
use crate::apiserver::{Credentials, Verb};
use crate::cluster::component::{Component, Ctx, InformerSpec, Input};
use crate::cluster::informer::{controller_uid_index, key_of, CONTROLLER_UID_INDEX};
use crate::kernel::Millis;
use crate::trace::Component as Lane;

pub const REVISION: &str = "deployment.kubernetes.io/revision";
pub const DESIRED_REPLICAS: &str = "deployment.kubernetes.io/desired-replicas";
pub const MAX_REPLICAS: &str = "deployment.kubernetes.io/max-replicas";
pub const HASH_LABEL: &str = "pod-template-hash";

const DEPLOYMENTS: usize = 0;
const REPLICASETS: usize = 1;
const PODS: usize = 2;

/// A failed write: the key goes back on the queue with back-off.
#[derive(Debug)]
pub struct Retry;

pub struct DeploymentController {
    queue: WorkQueue,
    pub(crate) delayed: Delayed,
    pub(crate) recorder: Recorder,
    /// When each Deployment's pending progress check is due (`AddAfter` keeps the earliest).
    progress_due: std::collections::BTreeMap<String, Millis>,
}

impl Default for DeploymentController {
    fn default() -> Self {
        DeploymentController {
            queue: WorkQueue::default(),
            delayed: Delayed::default(),
            recorder: Recorder::new("deployment-controller"),
            progress_due: Default::default(),
        }
    }
}

pub(crate) fn rs_info() -> &'static ResourceInfo {
    for_kind("apps/v1", "ReplicaSet").expect("replicasets")
}
pub(crate) fn deploy_info() -> &'static ResourceInfo {
    for_kind("apps/v1", "Deployment").expect("deployments")
}

/// `GetScaledValueFromIntOrPercent`.
pub fn scaled_value(v: Option<&Value>, total: i64, round_up: bool) -> i64 {
    match v {
        Some(Value::Number(n)) => n.as_i64().unwrap_or(0),
        Some(Value::String(s)) => match s.strip_suffix('%').and_then(|p| p.parse::<i64>().ok()) {
            Some(p) if round_up => (p * total + 99) / 100,
            Some(p) => p * total / 100,
            None => s.parse().unwrap_or(0),
        },
        _ => 0,
    }
}

pub fn is_rolling(d: &Object) -> bool {
    d.at(&["spec", "strategy", "type"]).and_then(Value::as_str) != Some("Recreate")
}

/// `ResolveFenceposts`: (maxSurge, maxUnavailable) for the Deployment's replicas.
pub fn fenceposts(d: &Object) -> (i64, i64) {
    let r = replicas(d);
    let ru = d.at(&["spec", "strategy", "rollingUpdate"]);
    let surge = scaled_value(
        ru.and_then(|x| x.get("maxSurge")).or(Some(&json!("25%"))),
        r,
        true,
    );
    let mut unavailable = scaled_value(
        ru.and_then(|x| x.get("maxUnavailable"))
            .or(Some(&json!("25%"))),
        r,
        false,
    );
    if surge == 0 && unavailable == 0 {
        unavailable = 1;
    }
    (surge, unavailable)
}

pub fn max_surge(d: &Object) -> i64 {
    if !is_rolling(d) {
        return 0;
    }
    fenceposts(d).0
}

/// `MaxUnavailable`: 0 for Recreate or no replicas, never above replicas.
pub fn max_unavailable(d: &Object) -> i64 {
    if !is_rolling(d) || replicas(d) == 0 {
        return 0;
    }
    fenceposts(d).1.min(replicas(d))
}

pub fn annotation<'a>(o: &'a Object, k: &str) -> Option<&'a str> {
    meta::annotations(o)
        .and_then(|a| a.get(k))
        .and_then(Value::as_str)
}

pub fn revision(rs: &Object) -> i64 {
    annotation(rs, REVISION)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

pub fn spec_replicas(rs: &Object) -> i64 {
    rs.at(&["spec", "replicas"])
        .and_then(Value::as_i64)
        .unwrap_or(0)
}

/// Oldest first (`ReplicaSetsByCreationTimestamp`), ties by name.
pub fn by_creation(rss: &mut [Object]) {
    crate::api::sorting::sort_by(rss, &|a, b| {
        let ca = a
            .at(&["metadata", "creationTimestamp"])
            .and_then(Value::as_str);
        let cb = b
            .at(&["metadata", "creationTimestamp"])
            .and_then(Value::as_str);
        ca.cmp(&cb).then_with(|| meta::name(a).cmp(meta::name(b)))
    });
}

impl DeploymentController {
    fn enqueue(&mut self, ctx: &mut Ctx<'_>, key: String) {
        if self.queue.add_for_worker(key) {
            ctx.after(WORKER_DELAY_MS, 0, false);
        }
    }

    pub(crate) fn enqueue_after(&mut self, ctx: &mut Ctx<'_>, key: String, delay: u64) {
        let tag = self.delayed.add(key);
        ctx.after(delay.max(1), tag, false);
    }

    /// Syncs `key` again after `delay` to check its progress deadline. Like a resync, the
    /// timer does not keep the cluster from being quiet.
    pub(crate) fn progress_check(&mut self, ctx: &mut Ctx<'_>, key: String, delay: u64) {
        let now = ctx.now();
        let due = now + delay.max(1);
        if let Some(&d) = self.progress_due.get(&key) {
            if d >= now && d <= due {
                return;
            }
        }
        self.progress_due.insert(key.clone(), due);
        let tag = self.delayed.add(key);
        ctx.after(delay.max(1), tag, true);
    }

    /// Sets an RS's replicas (and the desired/max annotations), with the ScalingReplicaSet event
    /// (`scaleReplicaSet`). Returns whether it scaled and the RS as written.
    pub(crate) fn scale_rs(
        &mut self,
        ctx: &mut Ctx<'_>,
        rs: &Object,
        new_size: i64,
        d: &Object,
    ) -> Result<(bool, Object), Retry> {
        let old_size = spec_replicas(rs);
        let size_changed = old_size != new_size;
        let desired = replicas(d).to_string();
        let max = (replicas(d) + max_surge(d)).to_string();
        let annotations_changed = annotation(rs, DESIRED_REPLICAS) != Some(desired.as_str())
            || annotation(rs, MAX_REPLICAS) != Some(max.as_str());
        if !size_changed && !annotations_changed {
            return Ok((false, rs.clone()));
        }
        let mut new = rs.clone();
        new["spec"]["replicas"] = json!(new_size);
        meta::set_annotation(&mut new, DESIRED_REPLICAS, &desired);
        meta::set_annotation(&mut new, MAX_REPLICAS, &max);
        let req = ctx
            .request(Verb::Update, rs_info())
            .namespace(meta::namespace(rs))
            .name(meta::name(rs))
            .body(new);
        let written = ctx.send(&req).map_err(|_| Retry)?;
        if size_changed {
            let dir = if new_size > old_size { "up" } else { "down" };
            self.recorder.event(
                ctx,
                d,
                None,
                EventType::Normal,
                "ScalingReplicaSet",
                &format!(
                    "Scaled {dir} replica set {} from {old_size} to {new_size}",
                    meta::name(rs)
                ),
            );
        }
        Ok((size_changed, written))
    }

    /// The ReplicaSets this Deployment controls, oldest first.
    pub(crate) fn owned_rss(&self, ctx: &Ctx<'_>, d: &Object) -> Vec<Object> {
        let ns = meta::namespace(d).unwrap_or("");
        let uid = meta::uid(d);
        // From the controller-uid index (in key order, as a namespace scan would give them).
        let mut v: Vec<Object> = ctx
            .cache(REPLICASETS)
            .by_index(CONTROLLER_UID_INDEX, uid)
            .filter(|rs| meta::namespace(rs) == Some(ns) && controller_uid(rs) == Some(uid))
            .cloned()
            .collect();
        by_creation(&mut v);
        v
    }

    /// Whether pods of these (old) ReplicaSets still exist and have not finished.
    pub(crate) fn pods_running(&self, ctx: &Ctx<'_>, d: &Object, old: &[Object]) -> bool {
        if old.iter().any(|rs| status_i64(rs, "replicas") > 0) {
            return true;
        }
        let ns = meta::namespace(d).unwrap_or("");
        ctx.cache(PODS).in_namespace(ns).any(|p| {
            controller_uid(p).is_some_and(|u| old.iter().any(|rs| meta::uid(rs) == u))
                && !matches!(phase(p), "Succeeded" | "Failed")
        })
    }

    fn sync(&mut self, ctx: &mut Ctx<'_>, key: &str) -> Result<(), Retry> {
        let Some(d) = ctx.cache(DEPLOYMENTS).get(key).cloned() else {
            return Ok(());
        };
        let rss = self.owned_rss(ctx, &d);
        if d.at(&["metadata", "deletionTimestamp"]).is_some() {
            return self.sync_status_only(ctx, &d, &rss);
        }
        let paused = d.at(&["spec", "paused"]).and_then(Value::as_bool) == Some(true);
        let d = progress::check_paused_conditions(self, ctx, d, paused)?;
        if paused {
            ctx.record(
                "reconcile",
                format!(
                    "deployment-controller: Deployment {key} is paused: scaling only, no rollout"
                ),
            );
            return sync::sync(self, ctx, d, rss);
        }
        if sync::is_scaling_event(&d, &rss) {
            ctx.record(
                "reconcile",
                format!(
                    "deployment-controller: Deployment {key} now wants {} replica(s): scaling its ReplicaSets",
                    replicas(&d)
                ),
            );
            return sync::sync(self, ctx, d, rss);
        }
        if is_rolling(&d) {
            rolling::rollout(self, ctx, d, rss)
        } else {
            recreate::rollout(self, ctx, d, rss)
        }
    }

    fn sync_status_only(
        &mut self,
        ctx: &mut Ctx<'_>,
        d: &Object,
        rss: &[Object],
    ) -> Result<(), Retry> {
        let new = rollback::find_new_rs(d, rss);
        progress::sync_deployment_status(self, ctx, d.clone(), rss, new.as_ref())
    }
}

impl Component for DeploymentController {
    fn name(&self) -> String {
        "deployment-controller".into()
    }
    fn lane(&self) -> Lane {
        Lane::KubeControllerManager
    }
    fn credentials(&self) -> Credentials {
        controller_credentials("deployment-controller")
    }
    fn informer_credentials(&self) -> Credentials {
        manager_credentials()
    }
    fn informers(&self) -> Vec<InformerSpec> {
        vec![
            InformerSpec::all(deploy_info()),
            InformerSpec::all(rs_info()).indexed(CONTROLLER_UID_INDEX, controller_uid_index),
            InformerSpec::all(for_kind("v1", "Pod").expect("pods")),
        ]
    }
    fn handle(&mut self, ctx: &mut Ctx<'_>, input: Input) {
        match input {
            Input::Started => {
                let keys: Vec<String> = ctx.cache(DEPLOYMENTS).list().map(key_of).collect();
                for k in keys {
                    self.enqueue(ctx, k);
                }
            }
            Input::Watch { informer, event } => {
                let o = &event.object;
                let ns = meta::namespace(o).unwrap_or("").to_string();
                let key = match informer {
                    DEPLOYMENTS => (event.kind != "DELETED").then(|| key_of(o)),
                    REPLICASETS => meta::controller_ref(o)
                        .filter(|r| r["kind"] == "Deployment")
                        .map(|r| format!("{ns}/{}", r["name"].as_str().unwrap_or(""))),
                    _ => {
                        // A pod gone: a Recreate rollout may be waiting for it.
                        if event.kind != "DELETED" {
                            None
                        } else {
                            meta::controller_ref(o)
                                .filter(|r| r["kind"] == "ReplicaSet")
                                .and_then(|r| {
                                    ctx.cache(REPLICASETS)
                                        .get(&format!("{ns}/{}", r["name"].as_str().unwrap_or("")))
                                })
                                .and_then(meta::controller_ref)
                                .filter(|r| r["kind"] == "Deployment")
                                .map(|r| format!("{ns}/{}", r["name"].as_str().unwrap_or("")))
                                .filter(|k| {
                                    ctx.cache(DEPLOYMENTS)
                                        .get(k)
                                        .is_some_and(|d| !is_rolling(d))
                                })
                        }
                    }
                };
                if let Some(k) = key {
                    self.enqueue(ctx, k);
                }
            }
            Input::Timer(0) => {
                if let Some(key) = self.queue.take_turn() {
                    match self.sync(ctx, &key) {
                        Ok(()) => self.delayed.forget(&key),
                        Err(Retry) => {
                            let d = self.delayed.backoff_ms(&key);
                            self.enqueue_after(ctx, key, d);
                        }
                    }
                }
                if self.queue.rearm(false) {
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
