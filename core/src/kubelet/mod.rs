//! The kubelet (`pkg/kubelet`): one per node, named `kubelet/<node>`. It watches the pods bound
//! to its node (`fieldSelector=spec.nodeName=<node>`) and runs a pod worker for each: admission
//! ([`admission`]), the volumes ([`volumes`]), the sandbox through the container runtime (CRI
//! `RunPodSandbox`), the network through the CNI plugin (`ADD`, with the pod's DNS), init
//! containers in order, image pulls through the node's image cache, the app containers with their
//! lifecycle hooks ([`hooks`]) and probes ([`probes`]), restarts with back-off, and graceful
//! termination; a changed container image restarts the container ([`update`]). The status
//! manager patches `pods/<name>/status`; heartbeats renew the node's Lease in `kube-node-lease`.
//!
//! The container runtime and the CNI plugin are not API clients: they are the kubelet's own
//! calls, drawn in their lanes (`container-runtime`, `cni`).

mod admission;
pub mod behaviour;
pub mod cni;
pub mod handlers;
mod hooks;
pub mod images;
mod kill;
pub mod logs;
mod probes;
mod status;
mod update;
mod volumes;

use crate::api::value::{json, Value};
use crate::api::{meta, resources::for_kind, Object, ResourceInfo};
use crate::apiserver::{Credentials, PatchType, Verb};
use crate::cluster::component::{Component, Ctx, InformerSpec, Input};
use crate::cluster::informer::key_of;
use crate::controllers::events::EventType;
use crate::controllers::podutil::At;
use crate::kernel::time::{rfc3339, rfc3339_micro, EPOCH_UNIX_SECONDS};
use crate::kernel::Millis;
use crate::trace::Component as Lane;
use behaviour::Behaviour;
use cni::Ipam;
use images::{go_duration, with_default_tag, ImageCache, PAUSE_IMAGE};
use std::collections::BTreeMap;
use std::rc::Rc;

const PODS: usize = 0;
const NODE: usize = 1;
const TAG_HEARTBEAT: u64 = 0;

/// `nodeLeaseDurationSeconds` is 40 s; the kubelet renews every quarter of it.
pub const LEASE_RENEW_MS: Millis = 10_000;
/// How long the runtime takes to create and start the pause container.
pub const RUN_SANDBOX_MS: Millis = 160;
/// How long the CNI plugin takes to wire the network.
pub const CNI_ADD_MS: Millis = 45;
pub const CREATE_CONTAINER_MS: Millis = 25;
pub const START_CONTAINER_MS: Millis = 60;
/// The next pod sync after a container exits or a pull fails (PLEG relists every second).
pub const RESYNC_MS: Millis = 1_000;
/// A server stops this fast on SIGTERM.
pub const STOP_SERVER_MS: Millis = 350;
pub const BACKOFF_INITIAL_MS: Millis = 10_000;
pub const BACKOFF_MAX_MS: Millis = 300_000;
/// A pod sync that failed (a container's config, a claim not bound) is retried after the pod
/// worker's back-off (`backOffPeriod`, 10 s, jittered up to half as much again).
pub const POD_SYNC_BACKOFF_MS: Millis = 10_000;
/// Client-go's event spam filter: a burst of 25 events per object, then one per 5 minutes.
const EVENT_SPAM_BURST: f64 = 25.0;
const EVENT_SPAM_REFILL_MS: f64 = 300_000.0;

/// One kubelet per node of the scenario (its `kind: Node` documents or the default three).
pub fn kubelets(scenario: &crate::scenario::Scenario) -> Vec<Box<dyn Component>> {
    let names: Vec<String> = if scenario.nodes.is_empty() {
        crate::cluster::bootstrap::default_nodes()
            .iter()
            .map(|n| meta::name(n).to_string())
            .collect()
    } else {
        scenario
            .nodes
            .iter()
            .map(|n| meta::name(&n.object).to_string())
            .collect()
    };
    names
        .into_iter()
        .map(|n| Box::new(Kubelet::new(&n)) as Box<dyn Component>)
        .collect()
}

fn pods() -> &'static ResourceInfo {
    for_kind("v1", "Pod").expect("pods")
}

/// Which container of a pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Which {
    Init(usize),
    App(usize),
}

/// What a pod worker's timer does when it fires.
#[derive(Clone, Debug)]
enum Action {
    /// A pass of the volume manager's reconciler over the pod's volumes.
    Mount,
    /// `WaitForAttachAndMount` saw every volume mounted: the pod sync goes on.
    Proceed,
    Sandbox,
    Network,
    Pull(Which),
    PullDone(Which),
    PullFailed(Which),
    PullBackOff(Which),
    Create(Which),
    Start(Which),
    Exit(Which, u32),
    /// A tick of a probe worker (or a manual trigger of the readiness probe).
    Probe(Which, probes::Kind, u32, bool),
    /// The postStart hook finished.
    PostStartDone(Which, u32),
    /// The preStop hook finished (or the grace period ran out): StopContainer.
    PreStopDone(Which, u32),
    /// A container the kubelet killed has stopped.
    Killed(Which, u32, hooks::KillCause),
    CrashBackOff(Which, u32),
    Restart(Which),
    Stopped,
}

#[derive(Clone, Debug, PartialEq)]
enum State {
    Waiting {
        reason: String,
        message: Option<String>,
    },
    Running {
        started_at: Millis,
    },
    Terminated {
        code: i64,
        reason: String,
        started_at: Millis,
        finished_at: Millis,
        id: String,
    },
}

/// One container of a worker's pod. Its spec is the pod's (`spec.containers[index]` or
/// `spec.initContainers[index]`), read from the worker's current pod: a container's fields
/// cannot change but for its image, and a copy per container would cost more memory than the
/// rest of the worker.
#[derive(Clone, Debug)]
struct Ctr {
    index: usize,
    /// The image of the spec the kubelet last acted on: the one input of the container's spec
    /// hash that can change (see `update.rs`).
    spec_image: String,
    name: String,
    image: String,
    init: bool,
    state: State,
    last: Option<State>,
    restarts: u32,
    id: Option<String>,
    image_id: String,
    ready: bool,
    started: bool,
    launched: bool,
    pull_backoff: Millis,
    crash_backoff: Millis,
    pull_error: String,
    pull_asked: Millis,
    pull_start: Millis,
    stop_code: Option<i64>,
    /// The startup, liveness and readiness probe workers' results.
    probes: probes::ProbeStates,
    /// Since when its postStart hook runs (the container is not reported running before).
    hook_started: Option<Millis>,
    /// The grace period (seconds) left for StopContainer after its preStop hook.
    stop_grace: u64,
}

impl Ctr {
    fn new(index: usize, spec: &Value, init: bool, waiting: &str) -> Ctr {
        Ctr {
            index,
            spec_image: spec["image"].as_str().unwrap_or("").to_string(),
            name: spec["name"].as_str().unwrap_or("").to_string(),
            image: spec["image"].as_str().unwrap_or("").to_string(),
            init,
            state: State::Waiting {
                reason: waiting.into(),
                message: None,
            },
            last: None,
            restarts: 0,
            id: None,
            image_id: String::new(),
            ready: false,
            started: false,
            launched: false,
            pull_backoff: 0,
            crash_backoff: 0,
            pull_error: String::new(),
            pull_asked: 0,
            pull_start: 0,
            stop_code: None,
            probes: probes::ProbeStates::default(),
            hook_started: None,
            stop_grace: 0,
        }
    }

    fn field_path(&self) -> String {
        if self.init {
            format!("spec.initContainers{{{}}}", self.name)
        } else {
            format!("spec.containers{{{}}}", self.name)
        }
    }

    fn running(&self) -> bool {
        matches!(self.state, State::Running { .. })
    }

    /// Its spec in `pod` (the worker's pod).
    fn spec<'p>(&self, pod: &'p Object) -> &'p Value {
        let field = if self.init {
            "initContainers"
        } else {
            "containers"
        };
        &pod["spec"][field][self.index]
    }

    fn pull_policy(&self, pod: &Object) -> String {
        match self.spec(pod)["imagePullPolicy"].as_str() {
            Some(p) => p.to_string(),
            None if with_default_tag(&self.image).ends_with(":latest") => "Always".into(),
            None => "IfNotPresent".into(),
        }
    }
}

/// One pod's worker.
#[derive(Clone, Debug)]
struct Worker {
    /// Shared with the informer's cache (and cheap to hand around while handling a timer).
    pod: Rc<Object>,
    uid: String,
    sandbox: Option<String>,
    veth: String,
    ip: Option<String>,
    start_time: Millis,
    init: Vec<Ctr>,
    app: Vec<Ctr>,
    next_init: usize,
    net_ready: bool,
    terminating: bool,
    deleted_sent: bool,
    /// The last status sent, as its fingerprint: its text cost 1.6 KB per pod, and a decoded
    /// copy several times the text.
    last_sent: Option<u64>,
    transitions: BTreeMap<&'static str, (bool, Millis)>,
    /// When the kubelet admitted the pod (its volume manager and mount wait count from here).
    admitted_at: Millis,
    /// The volume manager's view of the pod's volumes.
    volumes: Vec<volumes::Vol>,
    /// `WaitForAttachAndMount` passed: the sandbox may be created.
    mounted: bool,
    /// imagePullSecrets the kubelet could not read.
    missing_pull_secrets: Vec<String>,
    /// When its probe workers started (their tickers count from here).
    probe_t0: Millis,
    /// The conditions the trace last showed, to record only their changes.
    shown_conditions: BTreeMap<&'static str, bool>,
    /// Its requests and host ports, as admission counts them.
    admitted: admission::Admitted,
}

impl Worker {
    fn ctr(&mut self, w: Which) -> &mut Ctr {
        match w {
            Which::Init(i) => &mut self.init[i],
            Which::App(i) => &mut self.app[i],
        }
    }
    fn restart_policy(&self) -> &str {
        self.pod["spec"]["restartPolicy"]
            .as_str()
            .unwrap_or("Always")
    }
    fn pod_ref(&self) -> String {
        format!(
            "{}_{}({})",
            meta::name(&self.pod),
            meta::namespace(&self.pod).unwrap_or("default"),
            self.uid
        )
    }
}

/// The kubelet of one node.
pub struct Kubelet {
    node: String,
    ipam: Option<Ipam>,
    host_ip: String,
    images: ImageCache,
    workers: BTreeMap<String, Box<Worker>>,
    timers: BTreeMap<u64, (String, String, Action)>,
    next_tag: u64,
    event_seq: u64,
    /// Told `Started` before: a second `Started` is a restart after `fault: stop-node`.
    started: bool,
    /// Pods its admission rejected (by uid): they are not admitted again.
    rejected: std::collections::BTreeSet<String>,
    /// The event correlator's cache: events already sent (by their key), with their name and
    /// count, so a repeat only bumps `count`.
    seen_events: BTreeMap<String, (String, u64)>,
    /// The event spam filter's token bucket per involved object (by uid): tokens, last refill.
    spam: BTreeMap<String, (f64, Millis)>,
    /// The ConfigMaps and Secrets its pods use, as its managers keep them (`Kind/ns/name`).
    objects: BTreeMap<String, Object>,
}

fn short(id: &str) -> &str {
    &id[..id.len().min(13)]
}

impl Kubelet {
    pub fn new(node: &str) -> Kubelet {
        Kubelet {
            node: node.to_string(),
            ipam: None,
            host_ip: String::new(),
            images: ImageCache::default(),
            workers: BTreeMap::new(),
            timers: BTreeMap::new(),
            next_tag: 1,
            event_seq: 0,
            started: false,
            rejected: Default::default(),
            seen_events: BTreeMap::new(),
            spam: BTreeMap::new(),
            objects: BTreeMap::new(),
        }
    }

    fn hex64(ctx: &mut Ctx<'_>) -> String {
        (0..4)
            .map(|_| format!("{:016x}", ctx.rng().next_u64()))
            .collect()
    }

    fn lane_record(
        &self,
        ctx: &mut Ctx<'_>,
        lane: Lane,
        action: &'static str,
        pod: &Object,
        summary: String,
    ) {
        let mut r = ctx.new_record(action, summary).node(self.node.clone());
        r.component = lane;
        ctx.push(r.object(crate::apiserver::object_label(pod)));
    }

    fn after(&mut self, ctx: &mut Ctx<'_>, delay: Millis, key: &str, uid: &str, action: Action) {
        let tag = self.next_tag;
        self.next_tag += 1;
        self.timers
            .insert(tag, (key.to_string(), uid.to_string(), action));
        ctx.after(delay, tag, false);
    }

    /// An Event on the pod, as `client-go/tools/record` writes it, with `source.host` the node.
    fn event(
        &mut self,
        ctx: &mut Ctx<'_>,
        pod: &Object,
        field_path: Option<&str>,
        ty: EventType,
        reason: &str,
        message: &str,
    ) {
        let now = ctx.now();
        let uid = meta::uid(pod).to_string();
        let ns = meta::namespace(pod).unwrap_or("default").to_string();
        // The spam filter (`EventSourceObjectSpamFilter`): past the burst an object's events
        // are dropped until its bucket refills.
        let bucket = self
            .spam
            .entry(uid.clone())
            .or_insert((EVENT_SPAM_BURST, now));
        bucket.0 = (bucket.0 + now.saturating_sub(bucket.1) as f64 / EVENT_SPAM_REFILL_MS)
            .min(EVENT_SPAM_BURST);
        bucket.1 = now;
        if bucket.0 < 1.0 {
            return;
        }
        bucket.0 -= 1.0;
        // The correlator's de-duplication: the same event again only raises its count.
        // Keyed by the pod and a digest of the rest (`getEventKey`), to keep the cache small.
        let digest = fnv1a(&[field_path.unwrap_or(""), ty.as_str(), reason, message]);
        let seen_key = format!("{uid}\u{0}{digest:016x}");
        if let Some((name, count)) = self.seen_events.get_mut(&seen_key) {
            *count += 1;
            let (name, count) = (name.clone(), *count);
            let summary = format!(
                "{} {reason} Pod/{}: {message} (x{count})",
                ty.as_str(),
                meta::name(pod)
            );
            let rec = ctx
                .new_record("event", summary)
                .node(self.node.clone())
                .object(crate::apiserver::object_label(pod));
            ctx.push(rec);
            let info = for_kind("v1", "Event").expect("events");
            let req = ctx
                .request(Verb::Patch(PatchType::Strategic), info)
                .namespace(Some(&ns))
                .name(&name)
                .body(json!({"count": count, "lastTimestamp": rfc3339(now)}));
            let _ = ctx.send_owned(req);
            return;
        }
        self.event_seq += 1;
        let nanos = (EPOCH_UNIX_SECONDS as u128 * 1_000_000_000)
            + now as u128 * 1_000_000
            + self.event_seq as u128;
        self.seen_events
            .insert(seen_key, (format!("{}.{:x}", meta::name(pod), nanos), 1));
        let mut involved = json!({
            "apiVersion": "v1", "kind": "Pod", "namespace": ns,
            "name": meta::name(pod), "uid": meta::uid(pod),
            "resourceVersion": meta::resource_version(pod),
        });
        if let Some(f) = field_path {
            involved["fieldPath"] = json!(f);
        }
        let event = json!({
            "apiVersion": "v1", "kind": "Event",
            "metadata": {"name": format!("{}.{:x}", meta::name(pod), nanos), "namespace": ns},
            "involvedObject": involved,
            "reason": reason, "message": message,
            "source": {"component": "kubelet", "host": self.node},
            "firstTimestamp": rfc3339(now), "lastTimestamp": rfc3339(now),
            "count": 1, "type": ty.as_str(), "eventTime": Value::Null,
            "reportingComponent": "kubelet", "reportingInstance": self.node,
        });
        let summary = format!(
            "{} {reason} Pod/{}: {message}",
            ty.as_str(),
            meta::name(pod)
        );
        let rec = ctx
            .new_record("event", summary)
            .node(self.node.clone())
            .object(crate::apiserver::object_label(pod));
        ctx.push(rec);
        let info = for_kind("v1", "Event").expect("events");
        let req = ctx
            .request(Verb::Create, info)
            .namespace(Some(&ns))
            .body(event);
        let _ = ctx.send_owned(req);
    }

    fn ctr_event(
        &mut self,
        ctx: &mut Ctx<'_>,
        key: &str,
        which: Which,
        ty: EventType,
        reason: &str,
        message: &str,
    ) {
        let Some(w) = self.workers.get_mut(key) else {
            return;
        };
        let fp = w.ctr(which).field_path();
        let pod = w.pod.clone();
        self.event(ctx, &pod, Some(&fp), ty, reason, message);
    }

    fn heartbeat(&mut self, ctx: &mut Ctx<'_>) {
        let Some(info) = for_kind("coordination.k8s.io/v1", "Lease") else {
            return;
        };
        let req = ctx
            .request(Verb::Patch(PatchType::Merge), info)
            .namespace(Some(crate::apiserver::rbac::NODE_LEASE_NAMESPACE))
            .name(&self.node)
            .body(json!({"spec": {"renewTime": rfc3339_micro(ctx.now())}}));
        let _ = ctx.send_owned(req);
        ctx.after(LEASE_RENEW_MS, TAG_HEARTBEAT, true);
    }

    /// Back after `fault: stop-node`: the caches were listed afresh. The Lease is renewed at
    /// once, the node posts Ready, pods deleted meanwhile are torn down, and every pod's
    /// status is sent again (the node lifecycle controller marked them not ready).
    fn resume(&mut self, ctx: &mut Ctx<'_>) {
        self.read_node(ctx);
        self.heartbeat(ctx);
        self.post_node_ready(ctx);
        let gone: Vec<String> = self
            .workers
            .iter()
            .filter(|(k, w)| ctx.cache(PODS).get(k).is_none_or(|p| meta::uid(p) != w.uid))
            .map(|(k, _)| k.clone())
            .collect();
        for k in gone {
            self.forget(ctx, &k);
        }
        for w in self.workers.values_mut() {
            w.last_sent = None;
        }
        let pods: Vec<Rc<Object>> = ctx.cache(PODS).list_shared().collect();
        for p in pods {
            self.on_pod(ctx, &p);
        }
        let keys: Vec<String> = self
            .workers
            .iter()
            .filter(|(_, w)| !w.terminating)
            .map(|(k, _)| k.clone())
            .collect();
        for k in keys {
            self.sync_status(ctx, &k);
            self.resume_pod(ctx, &k);
        }
    }

    /// The node status update with the kubelet's conditions (`setNodeReadyCondition` and the
    /// pressure conditions), as after a restart.
    fn post_node_ready(&mut self, ctx: &mut Ctx<'_>) {
        let Some(node) = ctx.cache(NODE).get(&self.node) else {
            return;
        };
        let now = rfc3339(ctx.now());
        let conditions: Vec<Value> = node
            .at(&["status", "conditions"])
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .map(|mut c| {
                let (status, reason, message) = match c["type"].as_str().unwrap_or("") {
                    "Ready" => ("True", "KubeletReady", "kubelet is posting ready status"),
                    "MemoryPressure" => (
                        "False",
                        "KubeletHasSufficientMemory",
                        "kubelet has sufficient memory available",
                    ),
                    "DiskPressure" => (
                        "False",
                        "KubeletHasNoDiskPressure",
                        "kubelet has no disk pressure",
                    ),
                    "PIDPressure" => (
                        "False",
                        "KubeletHasSufficientPID",
                        "kubelet has sufficient PID available",
                    ),
                    _ => return c,
                };
                if c["status"] != status {
                    c["lastTransitionTime"] = json!(now);
                }
                c["status"] = json!(status);
                c["reason"] = json!(reason);
                c["message"] = json!(message);
                c["lastHeartbeatTime"] = json!(now);
                c
            })
            .collect();
        let Some(info) = for_kind("v1", "Node") else {
            return;
        };
        let req = ctx
            .request(Verb::Patch(PatchType::Merge), info)
            .name(&self.node)
            .subresource("status")
            .body(json!({"status": {"conditions": conditions}}));
        let _ = ctx.send_owned(req);
    }

    fn read_node(&mut self, ctx: &Ctx<'_>) {
        let Some(node) = ctx.cache(NODE).get(&self.node) else {
            return;
        };
        if self.ipam.is_none() {
            if let Some(cidr) = node.at(&["spec", "podCIDR"]).and_then(Value::as_str) {
                self.ipam = Some(Ipam::new(cidr));
            }
        }
        if let Some(ip) = node
            .at(&["status", "addresses"])
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .find(|a| a["type"] == "InternalIP")
            .and_then(|a| a["address"].as_str())
        {
            self.host_ip = ip.to_string();
        }
    }

    fn on_pod(&mut self, ctx: &mut Ctx<'_>, pod: &Rc<Object>) {
        let key = key_of(pod);
        let uid = meta::uid(pod).to_string();
        if self.workers.get(&key).is_some_and(|w| w.uid != uid) {
            self.forget(ctx, &key);
        }
        let deleting = pod.at(&["metadata", "deletionTimestamp"]).is_some();
        if let Some(w) = self.workers.get_mut(&key) {
            w.pod = pod.clone();
            if deleting && !w.terminating {
                self.terminate(ctx, &key);
            } else if !w.terminating {
                self.pod_updated(ctx, &key);
            }
            return;
        }
        let phase = pod.at(&["status", "phase"]).and_then(Value::as_str);
        if deleting {
            // Nothing of it runs here (it never ran, or finished, or was rejected): the final
            // delete is all that is left.
            self.final_delete(ctx, pod);
            return;
        }
        if matches!(phase, Some("Succeeded" | "Failed")) {
            return;
        }
        self.admit(ctx, pod);
    }

    fn admit(&mut self, ctx: &mut Ctx<'_>, pod: &Rc<Object>) {
        let key = key_of(pod);
        if self.rejected.contains(meta::uid(pod)) {
            return;
        }
        if let Err(r) = self.admission(ctx, pod) {
            self.reject(ctx, pod, r);
            return;
        }
        let has_init = pod["spec"]["initContainers"]
            .as_array()
            .is_some_and(|a| !a.is_empty());
        let waiting = if has_init {
            "PodInitializing"
        } else {
            "ContainerCreating"
        };
        // A slice's iterator knows its length, so each list is allocated at its size (a
        // flattened `Option` would start at four 400-byte containers for the usual one).
        let list = |k: &str| {
            pod["spec"][k]
                .as_array()
                .map_or(&[][..], |a| &a[..])
                .iter()
                .enumerate()
        };
        let w = Worker {
            pod: Rc::clone(pod),
            uid: meta::uid(pod).to_string(),
            sandbox: None,
            veth: String::new(),
            ip: None,
            start_time: ctx.now(),
            init: list("initContainers")
                .map(|(i, c)| Ctr::new(i, c, true, "PodInitializing"))
                .collect(),
            app: list("containers")
                .map(|(i, c)| Ctr::new(i, c, false, waiting))
                .collect(),
            next_init: 0,
            net_ready: false,
            terminating: false,
            deleted_sent: false,
            last_sent: None,
            transitions: BTreeMap::new(),
            admitted_at: ctx.now(),
            volumes: volumes::of(pod),
            mounted: false,
            missing_pull_secrets: Vec::new(),
            probe_t0: 0,
            shown_conditions: BTreeMap::new(),
            admitted: admission::Admitted::of_shared(pod),
        };
        let qos = pod
            .at(&["status", "qosClass"])
            .and_then(Value::as_str)
            .unwrap_or("BestEffort");
        self.workers.insert(key.clone(), Box::new(w));
        self.lane_record(
            ctx,
            Lane::Kubelet,
            "kubelet.admit",
            pod,
            format!(
                "SyncPod {key}: admitted on {} (QoS class {qos}); pod directories created",
                self.node
            ),
        );
        self.sync_status(ctx, &key);
        self.start_volumes(ctx, &key);
    }

    /// After the volumes and the pull secrets: `RunPodSandbox`, which needs the pause image.
    fn create_sandbox(&mut self, ctx: &mut Ctx<'_>, key: &str) {
        let w = &self.workers[key];
        let (pod, uid) = (w.pod.clone(), w.uid.clone());
        let pod = &pod;
        let key = key.to_string();
        let now = ctx.now();
        let ready_at = if self.images.has(PAUSE_IMAGE, now) {
            now
        } else if let Some(t) = self.images.ready_at(PAUSE_IMAGE) {
            t
        } else {
            let size = images::resolve(PAUSE_IMAGE).unwrap_or(320_368);
            let pull = self.images.queue(now, images::pull_ms(size));
            self.images.add(PAUSE_IMAGE, pull.done);
            self.lane_record(
                ctx,
                Lane::ContainerRuntime,
                "runtime.pull",
                pod,
                format!(
                    "PullImage {PAUSE_IMAGE} for the pod sandbox: {size} bytes in {}",
                    go_duration(pull.done - pull.start)
                ),
            );
            pull.done
        };
        self.after(
            ctx,
            ready_at - now + RUN_SANDBOX_MS,
            &key,
            &uid,
            Action::Sandbox,
        );
    }

    fn fire(&mut self, ctx: &mut Ctx<'_>, tag: u64) {
        let Some((key, uid, action)) = self.timers.remove(&tag) else {
            return;
        };
        let Some(w) = self.workers.get(&key) else {
            return;
        };
        if w.uid != uid
            || (w.terminating && !matches!(action, Action::Stopped | Action::PreStopDone(..)))
        {
            return;
        }
        let now = ctx.now();
        match action {
            Action::Sandbox => {
                let id = Self::hex64(ctx);
                let pod = w.pod.clone();
                self.workers.get_mut(&key).expect("worker").sandbox = Some(id.clone());
                self.lane_record(
                    ctx,
                    Lane::ContainerRuntime,
                    "runtime.sandbox",
                    &pod,
                    format!(
                        "RunPodSandbox {key} -> {}: the pause container holds the pod's network, IPC and PID namespaces",
                        short(&id)
                    ),
                );
                self.after(ctx, CNI_ADD_MS, &key, &uid, Action::Network);
            }
            Action::Network => self.network(ctx, &key),
            Action::Pull(which) => self.begin(ctx, &key, which),
            Action::PullDone(which) => {
                let w = self.workers.get_mut(&key).expect("worker");
                let pod = w.pod.clone();
                let c = w.ctr(which);
                c.pull_backoff = 0;
                let image = c.image.clone();
                let (asked, start) = (c.pull_asked, c.pull_start);
                let size = images::resolve(&image).unwrap_or(0);
                self.images.add(&image, now);
                self.lane_record(
                    ctx,
                    Lane::ContainerRuntime,
                    "runtime.pull",
                    &pod,
                    format!(
                        "PullImage {}: {size} bytes in {}",
                        images::ImageRef::parse(&image).full(),
                        go_duration(now - start)
                    ),
                );
                self.ctr_event(
                    ctx,
                    &key,
                    which,
                    EventType::Normal,
                    "Pulled",
                    &format!(
                        "Successfully pulled image \"{}\" in {} ({} including waiting). Image size: {size} bytes.",
                        with_default_tag(&image),
                        go_duration(now - start),
                        go_duration(now - asked)
                    ),
                );
                self.after(ctx, CREATE_CONTAINER_MS, &key, &uid, Action::Create(which));
            }
            Action::PullFailed(which) => {
                let w = self.workers.get_mut(&key).expect("worker");
                let pod = w.pod.clone();
                let c = w.ctr(which);
                let err = c.pull_error.clone();
                let image = with_default_tag(&c.image);
                c.state = State::Waiting {
                    reason: "ErrImagePull".into(),
                    message: Some(err.clone()),
                };
                c.pull_backoff = if c.pull_backoff == 0 {
                    BACKOFF_INITIAL_MS
                } else {
                    (c.pull_backoff * 2).min(BACKOFF_MAX_MS)
                };
                let backoff = c.pull_backoff;
                self.lane_record(
                    ctx,
                    Lane::ContainerRuntime,
                    "runtime.pull",
                    &pod,
                    format!("PullImage {image} failed: {err}"),
                );
                let fail = format!("Failed to pull image \"{image}\": {err}");
                self.ctr_event(ctx, &key, which, EventType::Warning, "Failed", &fail);
                self.ctr_event(
                    ctx,
                    &key,
                    which,
                    EventType::Warning,
                    "Failed",
                    "Error: ErrImagePull",
                );
                self.sync_status(ctx, &key);
                self.after(ctx, RESYNC_MS, &key, &uid, Action::PullBackOff(which));
                self.after(ctx, backoff, &key, &uid, Action::Pull(which));
                if let Which::App(_) = which {
                    self.launch_next_app(ctx, &key);
                }
            }
            Action::PullBackOff(which) => {
                let w = self.workers.get_mut(&key).expect("worker");
                let pod = w.pod.clone();
                let c = w.ctr(which);
                let image = with_default_tag(&c.image);
                if !matches!(&c.state, State::Waiting { reason, .. } if reason == "ErrImagePull") {
                    return;
                }
                c.state = State::Waiting {
                    reason: "ImagePullBackOff".into(),
                    message: Some(format!(
                        "Back-off pulling image \"{image}\": ErrImagePull: {}",
                        c.pull_error
                    )),
                };
                let backoff = c.pull_backoff;
                self.lane_record(
                    ctx,
                    Lane::Kubelet,
                    "kubelet.backoff",
                    &pod,
                    format!(
                        "image pull of {image} backs off {}: the next try is in {}",
                        go_duration(backoff),
                        go_duration(backoff.saturating_sub(RESYNC_MS))
                    ),
                );
                self.ctr_event(
                    ctx,
                    &key,
                    which,
                    EventType::Normal,
                    "BackOff",
                    &format!("Back-off pulling image \"{image}\""),
                );
                self.ctr_event(
                    ctx,
                    &key,
                    which,
                    EventType::Warning,
                    "Failed",
                    "Error: ImagePullBackOff",
                );
                self.sync_status(ctx, &key);
            }
            Action::Create(which) => {
                // `generateContainerConfig`: the environment from ConfigMaps and Secrets.
                if let Err(msg) = self.container_config(ctx, &key, which) {
                    self.config_error(ctx, &key, which, msg);
                    return;
                }
                let id = Self::hex64(ctx);
                let w = self.workers.get_mut(&key).expect("worker");
                let pod = w.pod.clone();
                let sandbox = w.sandbox.clone().unwrap_or_default();
                let c = w.ctr(which);
                c.id = Some(id.clone());
                c.image_id = images::image_id(&c.image);
                let name = c.name.clone();
                self.lane_record(
                    ctx,
                    Lane::ContainerRuntime,
                    "runtime.create",
                    &pod,
                    format!(
                        "CreateContainer {name} in sandbox {} -> {}",
                        short(&sandbox),
                        short(&id)
                    ),
                );
                self.ctr_event(
                    ctx,
                    &key,
                    which,
                    EventType::Normal,
                    "Created",
                    "Container created",
                );
                self.after(ctx, START_CONTAINER_MS, &key, &uid, Action::Start(which));
            }
            Action::Start(which) => self.start(ctx, &key, which),
            Action::Exit(which, epoch) => self.exit(ctx, &key, which, epoch),
            Action::Probe(which, kind, epoch, manual) => {
                self.probe_fired(ctx, &key, which, kind, epoch, manual)
            }
            Action::PostStartDone(which, epoch) => self.post_start_done(ctx, &key, which, epoch),
            Action::PreStopDone(which, epoch) => self.pre_stop_done(ctx, &key, which, epoch),
            Action::Killed(which, epoch, cause) => self.killed(ctx, &key, which, epoch, cause),
            Action::Mount => self.mount_pass(ctx, &key),
            Action::Proceed => self.volumes_ready(ctx, &key),
            Action::CrashBackOff(which, epoch) => {
                let w = self.workers.get_mut(&key).expect("worker");
                let pod_ref = w.pod_ref();
                let pod = w.pod.clone();
                let c = w.ctr(which);
                if c.restarts != epoch || c.running() {
                    return;
                }
                let name = c.name.clone();
                let backoff = c.crash_backoff;
                if matches!(c.state, State::Terminated { .. }) {
                    c.last = Some(c.state.clone());
                }
                c.state = State::Waiting {
                    reason: "CrashLoopBackOff".into(),
                    message: Some(format!(
                        "back-off {} restarting failed container={name} pod={pod_ref}",
                        go_duration(backoff)
                    )),
                };
                self.lane_record(
                    ctx,
                    Lane::Kubelet,
                    "kubelet.backoff",
                    &pod,
                    format!(
                        "container {name} keeps exiting: its restart backs off {}",
                        go_duration(backoff)
                    ),
                );
                self.ctr_event(
                    ctx,
                    &key,
                    which,
                    EventType::Warning,
                    "BackOff",
                    &format!("Back-off restarting failed container {name} in pod {pod_ref}"),
                );
                self.sync_status(ctx, &key);
            }
            Action::Restart(which) => {
                let w = self.workers.get_mut(&key).expect("worker");
                let c = w.ctr(which);
                if !matches!(c.state, State::Terminated { .. }) {
                    c.last = c.last.take();
                } else {
                    c.last = Some(c.state.clone());
                }
                c.restarts += 1;
                c.started = false;
                c.crash_backoff = if c.crash_backoff == 0 {
                    BACKOFF_INITIAL_MS
                } else {
                    (c.crash_backoff * 2).min(BACKOFF_MAX_MS)
                };
                self.begin(ctx, &key, which);
            }
            Action::Stopped => self.stopped(ctx, &key),
        }
    }

    fn network(&mut self, ctx: &mut Ctx<'_>, key: &str) {
        let veth = format!("veth{:08x}", ctx.rng().next_u64() as u32);
        let Some(ipam) = self.ipam.as_mut() else {
            return;
        };
        let Some(ip) = ipam.allocate() else {
            let pod = self.workers[key].pod.clone();
            self.lane_record(
                ctx,
                Lane::Cni,
                "cni.add",
                &pod,
                format!(
                    "ADD {key} failed: no free address left in {}",
                    ipam_cidr(&self.ipam)
                ),
            );
            return;
        };
        let (cidr, prefix, gw) = (ipam.cidr.clone(), ipam.prefix(), ipam.gateway());
        let w = self.workers.get_mut(key).expect("worker");
        w.ip = Some(ip.clone());
        w.veth = veth.clone();
        w.net_ready = true;
        let sandbox = w.sandbox.clone().unwrap_or_default();
        let pod = w.pod.clone();
        let dns = cni::DnsConfig::of(&pod);
        let rec = ctx
            .new_record(
                "cni.add",
                format!(
                    "ADD {key}: {veth} into the netns of sandbox {}, IP {ip}/{prefix} from podCIDR {cidr}, gateway {gw}; resolv.conf: {}",
                    short(&sandbox),
                    dns.summary()
                ),
            )
            .node(self.node.clone())
            .object(crate::apiserver::object_label(&pod))
            .detail("ip", json!(ip))
            .detail("dns", dns.to_json());
        let mut rec = rec;
        rec.component = Lane::Cni;
        ctx.push(rec);
        self.sync_status(ctx, key);
        self.proceed(ctx, key);
    }

    /// Runs the next init container, or the app containers once all init containers are done.
    fn proceed(&mut self, ctx: &mut Ctx<'_>, key: &str) {
        let w = &self.workers[key];
        if w.next_init < w.init.len() {
            let i = w.next_init;
            if !w.init[i].launched {
                self.begin(ctx, key, Which::Init(i));
            }
        } else {
            self.launch_next_app(ctx, key);
        }
    }

    /// App containers start one after another, as `SyncPod` walks them.
    fn launch_next_app(&mut self, ctx: &mut Ctx<'_>, key: &str) {
        let w = &self.workers[key];
        if w.next_init < w.init.len() {
            return;
        }
        if let Some(i) = w.app.iter().position(|c| !c.launched) {
            self.begin(ctx, key, Which::App(i));
        }
    }

    /// Image step of a container: honours imagePullPolicy and the node's image cache.
    fn begin(&mut self, ctx: &mut Ctx<'_>, key: &str, which: Which) {
        // Each pod sync reads the pull secrets again (`getPullSecretsForPod`).
        if !self.workers[key].missing_pull_secrets.is_empty() {
            self.pull_secrets(ctx, key);
        }
        let now = ctx.now();
        let w = self.workers.get_mut(key).expect("worker");
        let (uid, pod) = (w.uid.clone(), w.pod.clone());
        let c = w.ctr(which);
        c.launched = true;
        // Each start is from the pod's current spec (its image may have changed).
        c.image = c.spec_image.clone();
        let image = c.image.clone();
        let policy = c.pull_policy(&pod);
        let present = self.images.has(&image, now);
        let shown = with_default_tag(&image);
        if policy == "Never" && !present {
            let msg =
                format!("Container image \"{shown}\" is not present with pull policy of Never");
            c.state = State::Waiting {
                reason: "ErrImageNeverPull".into(),
                message: Some(msg.clone()),
            };
            self.ctr_event(
                ctx,
                key,
                which,
                EventType::Warning,
                "ErrImageNeverPull",
                &msg,
            );
            self.sync_status(ctx, key);
            if let Which::App(_) = which {
                self.launch_next_app(ctx, key);
            }
            return;
        }
        if present && policy != "Always" {
            self.ctr_event(
                ctx,
                key,
                which,
                EventType::Normal,
                "Pulled",
                &format!("Container image \"{shown}\" already present on machine"),
            );
            self.after(ctx, CREATE_CONTAINER_MS, key, &uid, Action::Create(which));
            return;
        }
        self.ctr_event(
            ctx,
            key,
            which,
            EventType::Normal,
            "Pulling",
            &format!("Pulling image \"{shown}\""),
        );
        let result = images::resolve(&image);
        let ms = match &result {
            // Present, or being pulled for another pod: once the puller gets to this one the
            // layers are there and only the manifest is checked.
            Ok(_) if present || self.images.ready_at(&image).is_some() => images::MANIFEST_CHECK_MS,
            Ok(size) => images::pull_ms(*size),
            Err(_) => images::PULL_FAIL_MS,
        };
        let pull = self.images.queue(now, ms);
        if result.is_ok() {
            self.images.add(&image, pull.done);
        }
        let c = self.workers.get_mut(key).expect("worker").ctr(which);
        c.pull_asked = now;
        c.pull_start = pull.start;
        let action = match result {
            Ok(_) => Action::PullDone(which),
            Err(e) => {
                c.pull_error = e;
                Action::PullFailed(which)
            }
        };
        self.after(ctx, pull.done - now, key, &uid, action);
    }

    fn start(&mut self, ctx: &mut Ctx<'_>, key: &str, which: Which) {
        let now = ctx.now();
        let w = self.workers.get_mut(key).expect("worker");
        let pod = w.pod.clone();
        let c = w.ctr(which);
        let name = c.name.clone();
        let id = c.id.clone().unwrap_or_default();
        let post_start = hooks::handler(c.spec(&pod), "postStart");
        self.lane_record(
            ctx,
            Lane::ContainerRuntime,
            "runtime.start",
            &pod,
            format!("StartContainer {name} ({})", short(&id)),
        );
        self.ctr_event(
            ctx,
            key,
            which,
            EventType::Normal,
            "Started",
            "Container started",
        );
        match post_start {
            // `startContainer` runs the hook before it returns: the pod sync waits for it.
            Some(_) => self.run_post_start(ctx, key, which),
            None => self.running(ctx, key, which, now),
        }
    }

    /// The container runs (its postStart hook, if any, succeeded): its probes start, its end
    /// is set, the next container starts.
    fn running(&mut self, ctx: &mut Ctx<'_>, key: &str, which: Which, started_at: Millis) {
        let now = ctx.now();
        let w = self.workers.get_mut(key).expect("worker");
        let (uid, pod) = (w.uid.clone(), w.pod.clone());
        let c = w.ctr(which);
        let spec = c.spec(&pod);
        c.state = State::Running { started_at };
        c.hook_started = None;
        let init = c.init;
        let startup = !init && probes::Probe::of(spec, probes::Kind::Startup).is_some();
        let readiness = probes::Probe::of(spec, probes::Kind::Readiness).is_some();
        c.started = !startup;
        if !init {
            c.ready = c.started && !readiness;
        }
        let epoch = c.restarts;
        if let Behaviour::Exits { after, code: _ } = behaviour::of(spec) {
            let at = started_at + after.max(5);
            self.after(
                ctx,
                at.saturating_sub(now).max(1),
                key,
                &uid,
                Action::Exit(which, epoch),
            );
        }
        if !init {
            self.start_probes(ctx, key, which);
        }
        self.sync_status(ctx, key);
        if let Which::App(_) = which {
            self.launch_next_app(ctx, key);
        }
    }

    fn exit(&mut self, ctx: &mut Ctx<'_>, key: &str, which: Which, epoch: u32) {
        let w = self.workers.get_mut(key).expect("worker");
        let pod = w.pod.clone();
        let c = w.ctr(which);
        if !c.running() || c.restarts != epoch {
            return;
        }
        let code = match behaviour::of(c.spec(&pod)) {
            Behaviour::Exits { code, .. } => code,
            Behaviour::Runs => 0,
        };
        self.exited(ctx, key, which, code, None);
    }

    /// A container ended with `code`: by itself, or killed by the kubelet for `cause` (a
    /// failed liveness or startup probe, a failed postStart hook). The restart policy decides
    /// what comes next; the kubelet restarts a container it killed unless the policy is Never.
    fn exited(
        &mut self,
        ctx: &mut Ctx<'_>,
        key: &str,
        which: Which,
        code: i64,
        cause: Option<hooks::KillCause>,
    ) {
        let now = ctx.now();
        let w = self.workers.get_mut(key).expect("worker");
        let uid = w.uid.clone();
        let policy = w.restart_policy().to_string();
        let pod = w.pod.clone();
        let c = w.ctr(which);
        let started_at = match c.state {
            State::Running { started_at } => started_at,
            _ => c.hook_started.unwrap_or(now),
        };
        c.hook_started = None;
        c.state = State::Terminated {
            code,
            reason: if code == 0 { "Completed" } else { "Error" }.into(),
            started_at,
            finished_at: now,
            id: c.id.clone().unwrap_or_default(),
        };
        c.ready = false;
        c.started = false;
        let name = c.name.clone();
        let backoff = c.crash_backoff;
        let epoch = c.restarts;
        let init_done = matches!(which, Which::Init(_)) && code == 0 && cause.is_none();
        let changed = cause == Some(hooks::KillCause::Changed);
        let restart = match (which, policy.as_str(), &cause) {
            // A changed spec is started again whatever the policy says.
            (_, _, Some(hooks::KillCause::Changed)) => true,
            (Which::Init(_), _, _) => !init_done && policy != "Never",
            (_, _, Some(_)) => policy != "Never",
            (_, "Always", _) => true,
            (_, "OnFailure", _) => code != 0,
            _ => false,
        };
        if init_done {
            c.ready = true;
        }
        if let (Some(hooks::KillCause::PostStart(msg)), true) = (&cause, restart) {
            // The failed start is remembered (`reasonCache`) until the next try.
            c.last = Some(c.state.clone());
            c.state = State::Waiting {
                reason: "PostStartHookError".into(),
                message: Some(msg.clone()),
            };
        }
        let summary = match cause {
            None => format!("container {name} exited with code {code}"),
            Some(_) => format!("container {name} stopped with exit code {code}"),
        };
        self.lane_record(ctx, Lane::ContainerRuntime, "runtime.exit", &pod, summary);
        if changed {
            // The pod sync that killed it starts the new spec, without a back-off (the spec
            // hash, which keys the back-off, is new).
            self.after(ctx, 0, key, &uid, Action::Restart(which));
            return;
        }
        if init_done {
            self.workers.get_mut(key).expect("worker").next_init += 1;
            self.sync_status(ctx, key);
            self.proceed(ctx, key);
            return;
        }
        self.sync_status(ctx, key);
        if matches!(status::phase(&self.workers[key]), "Succeeded" | "Failed") {
            // A finished pod keeps its object but not its sandbox or address.
            self.teardown(ctx, key);
            return;
        }
        if restart {
            if backoff == 0 {
                self.after(ctx, RESYNC_MS, key, &uid, Action::Restart(which));
            } else {
                self.after(
                    ctx,
                    RESYNC_MS,
                    key,
                    &uid,
                    Action::CrashBackOff(which, epoch),
                );
                self.after(ctx, backoff, key, &uid, Action::Restart(which));
            }
        }
    }

    /// Graceful termination: each running container's preStop hook, then SIGTERM, and
    /// SIGKILL once the grace period is over.
    fn terminate(&mut self, ctx: &mut Ctx<'_>, key: &str) {
        let w = self.workers.get_mut(key).expect("worker");
        w.terminating = true;
        let uid = w.uid.clone();
        let grace_s = w
            .pod
            .at(&["metadata", "deletionGracePeriodSeconds"])
            .and_then(Value::as_u64)
            .unwrap_or(30);
        let running: Vec<(Which, String)> = (0..w.init.len())
            .map(Which::Init)
            .chain((0..w.app.len()).map(Which::App))
            .filter_map(|which| {
                let c = w.ctr(which);
                (c.running() || c.hook_started.is_some()).then(|| (which, c.name.clone()))
            })
            .collect();
        let mut longest: Millis = 0;
        for (which, name) in running {
            let ms = self.stop_container(
                ctx,
                key,
                which,
                grace_s,
                &format!("Stopping container {name}"),
            );
            longest = longest.max(ms);
        }
        self.after(ctx, longest.max(1), key, &uid, Action::Stopped);
    }

    fn stopped(&mut self, ctx: &mut Ctx<'_>, key: &str) {
        let now = ctx.now();
        let w = self.workers.get_mut(key).expect("worker");
        for c in w.init.iter_mut().chain(w.app.iter_mut()) {
            let started = match c.state {
                State::Running { started_at } => Some(started_at),
                _ => c.hook_started.take(),
            };
            if let Some(started_at) = started {
                let code = c.stop_code.unwrap_or(0);
                c.state = State::Terminated {
                    code,
                    reason: if code == 0 { "Completed" } else { "Error" }.into(),
                    started_at,
                    finished_at: now,
                    id: c.id.clone().unwrap_or_default(),
                };
                c.ready = false;
                c.started = false;
            }
        }
        self.sync_status(ctx, key);
        self.teardown(ctx, key);
        let pod = self.workers[key].pod.clone();
        self.workers.get_mut(key).expect("worker").deleted_sent = true;
        self.final_delete(ctx, &pod);
    }

    /// StopPodSandbox, CNI DEL (the address is free again), RemovePodSandbox.
    fn teardown(&mut self, ctx: &mut Ctx<'_>, key: &str) {
        let w = self.workers.get_mut(key).expect("worker");
        let pod = w.pod.clone();
        let sandbox = w.sandbox.take();
        let ip = w.ip.take();
        let veth = w.veth.clone();
        w.net_ready = false;
        let Some(sandbox) = sandbox else {
            return;
        };
        self.lane_record(
            ctx,
            Lane::ContainerRuntime,
            "runtime.stop_sandbox",
            &pod,
            format!(
                "StopPodSandbox {}: the pause container stops",
                short(&sandbox)
            ),
        );
        if let Some(ip) = ip {
            if let Some(ipam) = self.ipam.as_mut() {
                ipam.release(&ip);
            }
            self.lane_record(
                ctx,
                Lane::Cni,
                "cni.del",
                &pod,
                format!("DEL {key}: {veth} removed, IP {ip} released"),
            );
        }
        self.lane_record(
            ctx,
            Lane::ContainerRuntime,
            "runtime.remove_sandbox",
            &pod,
            format!("RemovePodSandbox {}", short(&sandbox)),
        );
    }

    fn final_delete(&mut self, ctx: &mut Ctx<'_>, pod: &Object) {
        let mut req = ctx
            .request(Verb::Delete, pods())
            .namespace(meta::namespace(pod))
            .name(meta::name(pod));
        req.grace_period_seconds = Some(0);
        let _ = ctx.send_owned(req);
    }

    /// The pod is gone from the API: whatever still runs of it is torn down.
    fn forget(&mut self, ctx: &mut Ctx<'_>, key: &str) {
        let Some(w) = self.workers.get(key) else {
            return;
        };
        if !w.deleted_sent {
            let pod = w.pod.clone();
            let running: Vec<(String, String)> = w
                .init
                .iter()
                .chain(w.app.iter())
                .filter(|c| c.running())
                .map(|c| (c.name.clone(), c.id.clone().unwrap_or_default()))
                .collect();
            for (name, id) in running {
                self.lane_record(
                    ctx,
                    Lane::ContainerRuntime,
                    "runtime.stop",
                    &pod,
                    format!("StopContainer {name} ({}): the pod was deleted", short(&id)),
                );
            }
            self.teardown(ctx, key);
        }
        if let Some(w) = self.workers.remove(key) {
            self.forget_events(&w.uid);
        }
    }

    /// The event correlator's and spam filter's entries of a pod that is gone.
    fn forget_events(&mut self, uid: &str) {
        self.spam.remove(uid);
        let from = format!("{uid}\u{0}");
        let to = format!("{uid}\u{1}");
        let keys: Vec<String> = self
            .seen_events
            .range(from..to)
            .map(|(k, _)| k.clone())
            .collect();
        for k in keys {
            self.seen_events.remove(&k);
        }
    }

    /// The status manager: patches `pods/<name>/status` when the status changed.
    fn sync_status(&mut self, ctx: &mut Ctx<'_>, key: &str) {
        let now = ctx.now();
        let host_ip = self.host_ip.clone();
        let Some(w) = self.workers.get_mut(key) else {
            return;
        };
        let status = status::build(w, &host_ip, now);
        let sent = crate::api::json::fingerprint(&status);
        if w.last_sent == Some(sent) {
            return;
        }
        // The trace shows a condition when it becomes True, and when it falls back to False.
        let mut changes = Vec::new();
        for c in status["conditions"].as_array().into_iter().flatten() {
            let Some(ty) = status::CONDITIONS.iter().find(|t| c["type"] == **t) else {
                continue;
            };
            let ok = c["status"] == "True";
            let before = w.shown_conditions.insert(ty, ok);
            if before != Some(ok) && (ok || before == Some(true)) {
                changes.push(format!("{ty}={}", if ok { "True" } else { "False" }));
            }
        }
        if !changes.is_empty() {
            let pod = w.pod.clone();
            self.lane_record(
                ctx,
                Lane::Kubelet,
                "kubelet.condition",
                &pod,
                format!("pod {key}: {}", changes.join(", ")),
            );
        }
        let Some(w) = self.workers.get_mut(key) else {
            return;
        };
        w.last_sent = Some(sent);
        // The real kubelet sends a strategic merge patch with `$setElementOrder/conditions` so
        // the conditions end in its order; the apiserver here does not honour that directive
        // yet, so the status goes as a merge patch, whose lists replace (the same result).
        let body = status;
        let pod = w.pod.clone();
        let req = ctx
            .request(Verb::Patch(PatchType::Merge), pods())
            .namespace(meta::namespace(&pod))
            .name(meta::name(&pod))
            .subresource("status")
            .body({
                let mut b = json!({"metadata": {"uid": w.uid}});
                b["status"] = body;
                b
            });
        let _ = ctx.send_owned(req);
    }
}

/// FNV-1a over the parts, each ended by a NUL.
fn fnv1a(parts: &[&str]) -> u64 {
    use crate::kernel::hash::{fnv1a_from, FNV1A_START};
    parts.iter().fold(FNV1A_START, |h, p| {
        fnv1a_from(fnv1a_from(h, p.as_bytes()), &[0])
    })
}

fn ipam_cidr(ipam: &Option<Ipam>) -> String {
    ipam.as_ref().map(|i| i.cidr.clone()).unwrap_or_default()
}

impl Component for Kubelet {
    fn name(&self) -> String {
        format!("kubelet/{}", self.node)
    }
    fn lane(&self) -> Lane {
        Lane::Kubelet
    }
    fn credentials(&self) -> Credentials {
        Credentials::ClientCertificate {
            common_name: format!("system:node:{}", self.node),
            organizations: vec!["system:nodes".into()],
        }
    }
    fn informers(&self) -> Vec<InformerSpec> {
        let mut pods = InformerSpec::all(pods());
        pods.field_selector = Some(format!("spec.nodeName={}", self.node));
        let mut node = InformerSpec::all(for_kind("v1", "Node").expect("nodes"));
        node.field_selector = Some(format!("metadata.name={}", self.node));
        vec![pods, node]
    }
    fn handle(&mut self, ctx: &mut Ctx<'_>, input: Input) {
        match input {
            Input::Started if self.started => self.resume(ctx),
            Input::Started => {
                self.started = true;
                self.read_node(ctx);
                ctx.after(LEASE_RENEW_MS, TAG_HEARTBEAT, true);
                let pods: Vec<Rc<Object>> = ctx.cache(PODS).list_shared().collect();
                for p in pods {
                    self.on_pod(ctx, &p);
                }
            }
            Input::Watch { informer, event } => {
                if informer == NODE {
                    self.read_node(ctx);
                } else if event.kind == "DELETED" {
                    if self.rejected.remove(meta::uid(&event.object)) {
                        self.forget_events(meta::uid(&event.object));
                    }
                    let key = key_of(&event.object);
                    if self
                        .workers
                        .get(&key)
                        .is_some_and(|w| w.uid == meta::uid(&event.object))
                    {
                        self.forget(ctx, &key);
                    }
                } else {
                    self.on_pod(ctx, &event.object);
                }
            }
            Input::Timer(TAG_HEARTBEAT) => self.heartbeat(ctx),
            Input::Timer(tag) => self.fire(ctx, tag),
        }
    }
}
