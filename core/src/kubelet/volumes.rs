//! The volume manager (`pkg/kubelet/volumemanager`) and the kubelet's reads of ConfigMaps and
//! Secrets. Its reconciler passes over the pod's volumes every 100 ms and sets each up:
//! `configMap` and `secret` volumes (and the `projected` kube-api-access volume) read their
//! object through kube-apiserver as the node, which the Node authorizer allows for objects
//! its pods reference; `emptyDir`, `hostPath` and `downwardAPI` need nothing; a
//! `persistentVolumeClaim` needs its claim Bound to a PersistentVolume. The pod sync waits
//! (`WaitForAttachAndMount`, polling every 300 ms for 2m3s at a time) until all are mounted;
//! meanwhile the pod is `ContainerCreating`. A failed set-up is a `FailedMount` event and is
//! retried with the operation executor's back-off (500 ms, doubling up to 2m2s).
//!
//! The same reads serve a container's environment (`env[].valueFrom`, `envFrom`): a missing
//! object there is `CreateContainerConfigError`, retried with the next pod sync.

use super::{Action, EventType, Kubelet, Lane, State, Which, POD_SYNC_BACKOFF_MS};
use crate::api::value::{json, Value};
use crate::api::{meta, resources::for_kind, Object};
use crate::apiserver::Verb;
use crate::cluster::component::Ctx;
use crate::controllers::podutil::At;
use crate::kernel::Millis;

/// The reconciler's loop period (`reconcilerLoopSleepPeriod`).
pub const RECONCILE_MS: Millis = 100;
/// `podAttachAndMountRetryInterval` and `podAttachAndMountTimeout`.
pub const MOUNT_POLL_MS: Millis = 300;
pub const MOUNT_WAIT_MS: Millis = 123_000;
/// The mount operation's exponential back-off (`exponentialbackoff`).
pub const MOUNT_BACKOFF_INITIAL_MS: Millis = 500;
pub const MOUNT_BACKOFF_MAX_MS: Millis = 122_000;

/// One volume of the pod, as the volume manager tracks it; its spec is the pod's
/// `spec.volumes[i]`, read from the pod when needed.
#[derive(Clone, Debug)]
pub struct Vol {
    pub name: String,
    pub mounted: bool,
    pub backoff: Millis,
    /// No retry before this time.
    pub next_try: Millis,
}

/// The pod's volumes, in `spec.volumes` order.
pub fn of(pod: &Object) -> Vec<Vol> {
    pod.at(&["spec", "volumes"])
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|v| Vol {
            name: v["name"].as_str().unwrap_or("").to_string(),
            mounted: false,
            backoff: 0,
            next_try: 0,
        })
        .collect()
}

/// The volume's type: the field of its source (`configMap`, `secret`, `emptyDir`, ...).
pub fn kind(spec: &Value) -> String {
    spec.as_object()
        .and_then(|m| m.keys().find(|k| *k != "name").map(|k| k.to_string()))
        .unwrap_or_else(|| "emptyDir".into())
}

enum MountError {
    /// `MountVolume.SetUp failed`: retried with back-off.
    SetUp(String),
    /// The desired-state populator could not process the volume (a claim not bound).
    Process(String),
}

/// Go's `%v` of a `[]string`.
fn list(names: &[String]) -> String {
    format!("[{}]", names.join(" "))
}

/// `utilerrors.NewAggregate(errs).Error()`.
fn aggregate(errs: &[String]) -> String {
    match errs {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

impl Kubelet {
    /// A ConfigMap or Secret, read through kube-apiserver as the node. A missing one is the
    /// kubelet's manager's error, which names the kind in the singular: `configmap "x" not
    /// found`. The kubelet's manager watches each object its pods reference, so only the first
    /// read of an object goes to the apiserver; later pods on the node use its copy (a
    /// missing object is asked for again at each try).
    pub(super) fn read_object(
        &mut self,
        ctx: &mut Ctx<'_>,
        kind: &str,
        ns: &str,
        name: &str,
    ) -> Result<Object, (u16, String)> {
        let cache_key = format!("{kind}/{ns}/{name}");
        if let Some(o) = self.objects.get(&cache_key) {
            return Ok(o.clone());
        }
        let info = for_kind("v1", kind).expect("core kind");
        let req = ctx.request(Verb::Get, info).namespace(Some(ns)).name(name);
        let obj = ctx.send(&req).map_err(|e| {
            if e.code == 404 {
                (
                    404,
                    format!("{} {name:?} not found", kind.to_ascii_lowercase()),
                )
            } else {
                (e.code, e.message)
            }
        })?;
        self.objects.insert(cache_key, obj.clone());
        Ok(obj)
    }

    /// The pod sync's first step after admission: the volume manager takes the pod's volumes.
    pub(super) fn start_volumes(&mut self, ctx: &mut Ctx<'_>, key: &str) {
        let w = &self.workers[key];
        let uid = w.uid.clone();
        if w.volumes.is_empty() {
            self.volumes_ready(ctx, key);
        } else {
            self.after(ctx, RECONCILE_MS, key, &uid, Action::Mount);
        }
    }

    fn mount_one(
        &mut self,
        ctx: &mut Ctx<'_>,
        pod: &Object,
        v: &Value,
    ) -> Result<String, MountError> {
        let ns = meta::namespace(pod).unwrap_or("default").to_string();
        let optional = |src: &Value| src.get("optional").and_then(Value::as_bool) == Some(true);
        let check_items = |obj: &Object, src: &Value, what: &str| -> Result<usize, String> {
            let has = |k: &str| {
                ["data", "binaryData", "stringData"]
                    .iter()
                    .any(|f| obj.get(*f).and_then(|d| d.get(k)).is_some())
            };
            for item in src
                .get("items")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let key = item["key"].as_str().unwrap_or("");
                if !has(key) && !optional(src) {
                    return Err(match what {
                        "ConfigMap" => {
                            format!("configmap references non-existent config key: {key}")
                        }
                        _ => format!("references non-existent secret key: {key}"),
                    });
                }
            }
            Ok(["data", "binaryData"]
                .iter()
                .filter_map(|f| obj.get(*f).and_then(Value::as_object))
                .map(|m| m.len())
                .sum())
        };
        let kind = kind(v);
        match kind.as_str() {
            "configMap" | "secret" => {
                let src = &v[kind.as_str()];
                let (api_kind, name) = if kind == "configMap" {
                    ("ConfigMap", src["name"].as_str().unwrap_or(""))
                } else {
                    ("Secret", src["secretName"].as_str().unwrap_or(""))
                };
                match self.read_object(ctx, api_kind, &ns, name) {
                    Ok(obj) => {
                        let n = check_items(&obj, src, api_kind).map_err(MountError::SetUp)?;
                        Ok(format!("{kind} {name}, {n} key(s)"))
                    }
                    Err((404, _)) if optional(src) => Ok(format!(
                        "{kind} {name} is optional and missing: the volume is empty"
                    )),
                    Err((_, msg)) => Err(MountError::SetUp(msg)),
                }
            }
            "projected" => {
                let mut parts = Vec::new();
                let mut errs = Vec::new();
                for s in v
                    .at(&["projected", "sources"])
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    for (field, api_kind) in [("configMap", "ConfigMap"), ("secret", "Secret")] {
                        let Some(src) = s.get(field) else {
                            continue;
                        };
                        let name = src["name"].as_str().unwrap_or("");
                        match self.read_object(ctx, api_kind, &ns, name) {
                            Ok(obj) => match check_items(&obj, src, api_kind) {
                                Ok(_) => parts.push(format!("{field} {name}")),
                                Err(e) => errs.push(e),
                            },
                            Err((404, _)) if optional(src) => {}
                            Err((_, msg)) => errs.push(msg),
                        }
                    }
                    if s.get("serviceAccountToken").is_some() {
                        let sa = pod
                            .at(&["spec", "serviceAccountName"])
                            .and_then(Value::as_str)
                            .unwrap_or("default");
                        parts.push(format!("token of ServiceAccount {sa}"));
                    }
                    if s.get("downwardAPI").is_some() {
                        parts.push("downwardAPI".into());
                    }
                }
                if errs.is_empty() {
                    Ok(format!("projected: {}", parts.join(", ")))
                } else {
                    Err(MountError::SetUp(aggregate(&errs)))
                }
            }
            "persistentVolumeClaim" => {
                let claim = v
                    .at(&["persistentVolumeClaim", "claimName"])
                    .and_then(Value::as_str)
                    .unwrap_or("");
                let wrap = |e: String| {
                    MountError::Process(format!("error processing PVC {ns}/{claim}: {e}"))
                };
                let pvc = self
                    .read_claim(ctx, "PersistentVolumeClaim", Some(&ns), claim)
                    .map_err(|e| wrap(format!("failed to fetch PVC from API server: {e}")))?;
                if pvc.at(&["metadata", "deletionTimestamp"]).is_some() {
                    return Err(wrap("PVC is being deleted".into()));
                }
                if pvc.at(&["status", "phase"]).and_then(Value::as_str) != Some("Bound") {
                    return Err(wrap("PVC is not bound".into()));
                }
                let pv_name = pvc
                    .at(&["spec", "volumeName"])
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                if pv_name.is_empty() {
                    return Err(wrap("PVC has empty pvc.Spec.VolumeName".into()));
                }
                let pv = self
                    .read_claim(ctx, "PersistentVolume", None, &pv_name)
                    .map_err(|e| {
                        wrap(format!("failed to fetch PV {pv_name} from API server: {e}"))
                    })?;
                match pv.at(&["spec", "claimRef", "uid"]).and_then(Value::as_str) {
                    None => Err(wrap(format!(
                        "found PV object {pv_name} but it has a nil pv.Spec.ClaimRef indicating it is not yet bound to the claim"
                    ))),
                    Some(u) if u != meta::uid(&pvc) => Err(wrap(format!(
                        "found PV object {pv_name} but its pv.Spec.ClaimRef.UID ({u}) does not point to claim.UID ({})",
                        meta::uid(&pvc)
                    ))),
                    Some(_) => Ok(format!(
                        "persistentVolumeClaim {claim}, bound to PersistentVolume {pv_name}"
                    )),
                }
            }
            "emptyDir" => Ok(
                match v.at(&["emptyDir", "medium"]).and_then(Value::as_str) {
                    Some("Memory") => "emptyDir in memory (tmpfs)".into(),
                    _ => "emptyDir on the node's disk".into(),
                },
            ),
            "hostPath" => Ok(format!(
                "hostPath {}",
                v.at(&["hostPath", "path"])
                    .and_then(Value::as_str)
                    .unwrap_or("")
            )),
            other => Ok(other.to_string()),
        }
    }

    fn read_claim(
        &self,
        ctx: &mut Ctx<'_>,
        kind: &str,
        ns: Option<&str>,
        name: &str,
    ) -> Result<Object, String> {
        let info = for_kind("v1", kind).expect("core kind");
        let req = ctx.request(Verb::Get, info).namespace(ns).name(name);
        ctx.send(&req).map_err(|e| e.message)
    }

    /// One reconciler pass: sets up the volumes whose back-off allows a try.
    pub(super) fn mount_pass(&mut self, ctx: &mut Ctx<'_>, key: &str) {
        let now = ctx.now();
        let w = &self.workers[key];
        if w.mounted {
            return;
        }
        let pod = w.pod.clone();
        let uid = w.uid.clone();
        let due: Vec<usize> = (0..w.volumes.len())
            .filter(|&i| !w.volumes[i].mounted && w.volumes[i].next_try <= now)
            .collect();
        let mut process_errors: Vec<(String, String)> = Vec::new();
        for i in due {
            // Read from the pod (its volumes cannot change): a copy per worker would cost more
            // memory than the rest of the worker.
            let spec = &pod["spec"]["volumes"][i];
            let name = self.workers[key].volumes[i].name.clone();
            let ty = kind(spec);
            let result = self.mount_one(ctx, &pod, spec);
            let v = &mut self.workers.get_mut(key).expect("worker").volumes[i];
            match result {
                Ok(desc) => {
                    v.mounted = true;
                    let rec = ctx
                        .new_record(
                            "volume.mount",
                            format!("MountVolume.SetUp succeeded for volume \"{name}\" ({desc})"),
                        )
                        .node(self.node.clone())
                        .object(crate::apiserver::object_label(&pod))
                        .detail("volume", json!(name))
                        .detail("type", json!(ty));
                    ctx.push(rec);
                }
                Err(MountError::SetUp(msg)) => {
                    v.backoff = if v.backoff == 0 {
                        MOUNT_BACKOFF_INITIAL_MS
                    } else {
                        (v.backoff * 2).min(MOUNT_BACKOFF_MAX_MS)
                    };
                    v.next_try = now + v.backoff;
                    let backoff = v.backoff;
                    let rec = ctx
                        .new_record(
                            "volume.mount",
                            format!(
                                "MountVolume.SetUp failed for volume \"{name}\" : {msg}; no retry for {}",
                                super::images::go_duration(backoff)
                            ),
                        )
                        .node(self.node.clone())
                        .object(crate::apiserver::object_label(&pod))
                        .detail("volume", json!(name))
                        .detail("type", json!(ty));
                    ctx.push(rec);
                    self.event(
                        ctx,
                        &pod,
                        None,
                        EventType::Warning,
                        "FailedMount",
                        &format!("MountVolume.SetUp failed for volume \"{name}\" : {msg}"),
                    );
                }
                Err(MountError::Process(msg)) => {
                    let jitter = ctx.rng().next_u64() % (POD_SYNC_BACKOFF_MS / 2);
                    let v = &mut self.workers.get_mut(key).expect("worker").volumes[i];
                    v.next_try = now + POD_SYNC_BACKOFF_MS + jitter;
                    let rec = ctx
                        .new_record(
                            "volume.mount",
                            format!("volume \"{name}\" cannot be mounted yet: {msg}"),
                        )
                        .node(self.node.clone())
                        .object(crate::apiserver::object_label(&pod))
                        .detail("volume", json!(name))
                        .detail("type", json!(ty));
                    ctx.push(rec);
                    process_errors.push((name, msg));
                }
            }
        }
        let w = &self.workers[key];
        if !process_errors.is_empty() {
            let unmounted: Vec<String> = w
                .volumes
                .iter()
                .filter(|v| !v.mounted)
                .map(|v| v.name.clone())
                .collect();
            let failed: Vec<String> = process_errors.iter().map(|(n, _)| n.clone()).collect();
            let errs: Vec<String> = process_errors.into_iter().map(|(_, e)| e).collect();
            let msg = format!(
                "Unable to attach or mount volumes: unmounted volumes={}, unattached volumes=[], failed to process volumes={}: {}",
                list(&unmounted),
                list(&failed),
                errs.join("; ")
            );
            self.event(ctx, &pod, None, EventType::Warning, "FailedMount", &msg);
        }
        let w = &self.workers[key];
        match w
            .volumes
            .iter()
            .filter(|v| !v.mounted)
            .map(|v| v.next_try)
            .min()
        {
            None => {
                // `WaitForAttachAndMount` polls every 300 ms in windows of 2m3s; after a
                // window times out the pod worker tries again 10 s later.
                let cycle = MOUNT_WAIT_MS + POD_SYNC_BACKOFF_MS;
                let off = (now - w.admitted_at) % cycle;
                let base = now - off;
                let poll = off.div_ceil(MOUNT_POLL_MS) * MOUNT_POLL_MS;
                let at = if poll <= MOUNT_WAIT_MS {
                    base + poll
                } else {
                    base + cycle
                };
                self.after(ctx, at - now, key, &uid, Action::Proceed);
            }
            Some(next) => {
                // The next reconciler pass after the back-off has passed.
                let ticks = (next.max(now) - w.admitted_at) / RECONCILE_MS + 1;
                let at = w.admitted_at + ticks * RECONCILE_MS;
                self.after(ctx, at - now, key, &uid, Action::Mount);
            }
        }
    }

    /// Every volume is mounted: the pod sync reads the pull secrets, starts the probe workers
    /// and creates the sandbox.
    pub(super) fn volumes_ready(&mut self, ctx: &mut Ctx<'_>, key: &str) {
        let now = ctx.now();
        let w = self.workers.get_mut(key).expect("worker");
        if w.mounted {
            return;
        }
        w.mounted = true;
        w.probe_t0 = now;
        let names: Vec<String> = w
            .pod
            .at(&["spec", "imagePullSecrets"])
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|s| s["name"].as_str().filter(|n| !n.is_empty()))
            .map(str::to_string)
            .collect();
        w.missing_pull_secrets = names;
        if !self.workers[key].missing_pull_secrets.is_empty() {
            self.pull_secrets(ctx, key);
        }
        self.create_sandbox(ctx, key);
    }

    /// `getPullSecretsForPod`: reads the pull secrets not read yet; the missing ones are an
    /// event, and the image pull goes on without them (public images need none).
    pub(super) fn pull_secrets(&mut self, ctx: &mut Ctx<'_>, key: &str) {
        let w = &self.workers[key];
        let (pod, names) = (w.pod.clone(), w.missing_pull_secrets.clone());
        let ns = meta::namespace(&pod).unwrap_or("default").to_string();
        let mut missing = Vec::new();
        for n in names {
            if self.read_object(ctx, "Secret", &ns, &n).is_err() {
                missing.push(n);
            }
        }
        if !missing.is_empty() {
            let msg = format!(
                "Unable to retrieve some image pull secrets ({}); attempting to pull the image may not succeed.",
                missing.join(", ")
            );
            self.event(
                ctx,
                &pod,
                None,
                EventType::Warning,
                "FailedToRetrieveImagePullSecret",
                &msg,
            );
        }
        self.workers
            .get_mut(key)
            .expect("worker")
            .missing_pull_secrets = missing;
    }

    /// `makeEnvironmentVariables`: `envFrom`, then `env[].valueFrom` of ConfigMaps and
    /// Secrets. The error is what `CreateContainerConfigError` shows.
    pub(super) fn container_config(
        &mut self,
        ctx: &mut Ctx<'_>,
        key: &str,
        which: Which,
    ) -> Result<(), String> {
        let w = &self.workers[key];
        let ns = meta::namespace(&w.pod).unwrap_or("default").to_string();
        let pod = w.pod.clone();
        let spec = match which {
            Which::Init(i) => w.init[i].spec(&pod),
            Which::App(i) => w.app[i].spec(&pod),
        };
        let mut cache: Vec<((String, String), Result<Object, String>)> = Vec::new();
        let mut get = |this: &mut Self, ctx: &mut Ctx<'_>, kind: &str, name: &str| {
            let k = (kind.to_string(), name.to_string());
            if let Some((_, r)) = cache.iter().find(|(ck, _)| *ck == k) {
                return r.clone();
            }
            let r = this.read_object(ctx, kind, &ns, name).map_err(|(_, m)| m);
            cache.push((k, r.clone()));
            r
        };
        let optional = |v: &Value| v.get("optional").and_then(Value::as_bool) == Some(true);
        for e in spec
            .get("envFrom")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            for (field, kind) in [("configMapRef", "ConfigMap"), ("secretRef", "Secret")] {
                let Some(r) = e.get(field) else {
                    continue;
                };
                let name = r["name"].as_str().unwrap_or("");
                match get(self, ctx, kind, name) {
                    Ok(_) => {}
                    Err(_) if optional(r) => {}
                    Err(msg) => return Err(msg),
                }
            }
        }
        for e in spec
            .get("env")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            for (field, kind) in [("configMapKeyRef", "ConfigMap"), ("secretKeyRef", "Secret")] {
                let Some(r) = e.get("valueFrom").and_then(|v| v.get(field)) else {
                    continue;
                };
                let name = r["name"].as_str().unwrap_or("");
                let k = r["key"].as_str().unwrap_or("");
                let obj = match get(self, ctx, kind, name) {
                    Ok(o) => o,
                    Err(_) if optional(r) => continue,
                    Err(msg) => return Err(msg),
                };
                let has = ["data", "binaryData"]
                    .iter()
                    .any(|f| obj.get(*f).and_then(|d| d.get(k)).is_some());
                if !has && !optional(r) {
                    return Err(format!("couldn't find key {k} in {kind} {ns}/{name}"));
                }
            }
        }
        Ok(())
    }

    /// The container could not be configured: `CreateContainerConfigError` until the next
    /// pod sync tries again.
    pub(super) fn config_error(&mut self, ctx: &mut Ctx<'_>, key: &str, which: Which, msg: String) {
        let jitter = ctx.rng().next_u64() % (POD_SYNC_BACKOFF_MS / 2);
        let w = self.workers.get_mut(key).expect("worker");
        let (uid, pod) = (w.uid.clone(), w.pod.clone());
        let c = w.ctr(which);
        let name = c.name.clone();
        c.state = State::Waiting {
            reason: "CreateContainerConfigError".into(),
            message: Some(msg.clone()),
        };
        self.lane_record(
            ctx,
            Lane::Kubelet,
            "kubelet.config_error",
            &pod,
            format!("container {name} cannot be created: {msg}; the next pod sync tries again"),
        );
        self.ctr_event(
            ctx,
            key,
            which,
            EventType::Warning,
            "Failed",
            &format!("Error: {msg}"),
        );
        self.sync_status(ctx, key);
        self.after(
            ctx,
            POD_SYNC_BACKOFF_MS + jitter,
            key,
            &uid,
            Action::Pull(which),
        );
        if let Which::App(_) = which {
            self.launch_next_app(ctx, key);
        }
    }
}
