//! A simulated cluster: the kernel's clock and queue, kube-apiserver with its etcd, the trace,
//! and the scenario driving it. Components reach the cluster only through [`Cluster::request`].

pub mod bootstrap;
pub mod component;
pub mod informer;
pub mod memo;

use crate::api::json::JsonPointer;
use crate::api::{meta, resources, ApiError, Object};
use crate::apiserver::{ApiServer, Credentials, Request, Verb};
use crate::kernel::{EventQueue, Millis, Rng};
use crate::scenario::{Scenario, StepAction};
use crate::trace::{Component, Record, Trace};
pub use component::Component as Actor;
use component::{Command, Ctx, Input};
use informer::Informer;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Runs without `--until` stop here at the latest (a crash loop is never quiet).
pub const MAX_RUN_MS: Millis = 10 * 60 * 1000;

/// How long a change takes from etcd to a watching client.
pub const WATCH_LATENCY_MS: Millis = 1;

/// What the queue holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Run scenario step `index` (the apply of the scenario's objects is step `None`).
    Step(Option<usize>),
    /// Watch events for one informer of a component.
    Deliver {
        slot: usize,
        informer: usize,
        events: Vec<crate::apiserver::WatchEvent>,
    },
    /// A component's timer.
    Timer { slot: usize, tag: u64 },
}

/// A running component with its informers and random stream.
struct Slot {
    component: Option<Box<dyn Actor>>,
    informers: Vec<Informer>,
    rng: Rng,
    /// A stopped node's kubelet (`fault: stop-node`): it gets no watch events and no timers.
    stopped: bool,
    /// Re-listed after a restart: watch events the new lists already cover are skipped.
    relisted: bool,
}

/// Output of one kubectl invocation, as a terminal would show it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CommandOutput {
    pub t_ms: Millis,
    pub command: String,
    pub stdout: String,
    pub stderr: String,
    pub exit_code: i32,
}

/// A queued event and whether it is periodic work.
pub struct Queued {
    pub event: Event,
    pub periodic: bool,
}

impl From<(Event, bool)> for Queued {
    fn from((event, periodic): (Event, bool)) -> Self {
        Queued { event, periodic }
    }
}

pub struct Cluster {
    pub api: ApiServer,
    pub queue: EventQueue<Queued>,
    pub trace: Trace,
    pub seed: u64,
    pub scenario: Scenario,
    /// What each scenario step printed, in order.
    pub outputs: Vec<CommandOutput>,
    slots: Vec<Slot>,
    /// Which component informer each apiserver watch feeds.
    watch_owner: BTreeMap<u64, (usize, usize)>,
    /// Queued events that are real work (not periodic heartbeats or resyncs).
    pending_work: usize,
    /// Each node's kubelet, also reachable outside its actor loop: by kube-apiserver, which
    /// connects to it for `pods/log`, and by the node's container runtime
    /// (`fault: kill-container`).
    kubelets: BTreeMap<String, Rc<RefCell<crate::kubelet::Kubelet>>>,
    /// What is left of the cluster's start (last first); see [`Cluster::starting`]. `None`
    /// once it has started.
    to_start: Option<Vec<StartTask>>,
    /// The scenario's `kubectl apply` while it has objects left: each step applies a few and
    /// nothing else runs in between (see [`crate::kubectl::ScenarioApply`]).
    applying: Option<Box<crate::kubectl::ScenarioApply>>,
    /// How many objects of the scenario's manifest one step applies.
    apply_objects_per_step: usize,
}

/// How many objects of the scenario's manifest one step applies.
const APPLY_OBJECTS_PER_STEP: usize = 8;

/// One piece of a cluster's start, in the order they are done: the bootstrap objects and the
/// nodes are created, then the control plane starts, then each node's kubelet and kube-proxy.
enum StartTask {
    Create(Object),
    /// The scenario's node at this index (or the default one) registers: its Node and Lease,
    /// built when it is their turn (a thousand of them take a while to build).
    RegisterNode(usize),
    Start(Box<dyn Actor>),
    /// The kubelet, or the kube-proxy, of the node of this name starts, built when it is its
    /// turn (ten thousand components took most of the page's Apply to build at once).
    StartKubelet(String),
    StartKubeProxy(String),
}

/// The nodes of a scenario (its `kind: Node` documents or the default three), in order.
pub fn node_names(scenario: &Scenario) -> Vec<String> {
    if scenario.nodes.is_empty() {
        bootstrap::default_nodes()
            .iter()
            .map(|n| meta::name(n).to_string())
            .collect()
    } else {
        scenario
            .nodes
            .iter()
            .map(|n| meta::name(&n.object).to_string())
            .collect()
    }
}

/// How many pods a run traces in full; records about later pods are counted (see
/// [`Trace`]). Every scenario of the gallery stays far below it.
pub const FULL_TRACE_PODS: usize = 200;

/// A kubelet in its slot, shared with [`Cluster::kubelets`].
struct SharedKubelet(Rc<RefCell<crate::kubelet::Kubelet>>);

impl Actor for SharedKubelet {
    fn name(&self) -> String {
        self.0.borrow().name()
    }
    fn lane(&self) -> Component {
        self.0.borrow().lane()
    }
    fn credentials(&self) -> Credentials {
        self.0.borrow().credentials()
    }
    fn informer_credentials(&self) -> Credentials {
        self.0.borrow().informer_credentials()
    }
    fn informers(&self) -> Vec<component::InformerSpec> {
        self.0.borrow().informers()
    }
    fn handle(&mut self, ctx: &mut Ctx<'_>, input: Input) {
        self.0.borrow_mut().handle(ctx, input)
    }
}

/// The kubeconfig user of the playground.
pub fn admin_credentials() -> Credentials {
    Credentials::ClientCertificate {
        common_name: "kubernetes-admin".into(),
        organizations: vec!["system:masters".into()],
    }
}

impl Cluster {
    /// A new cluster with the bootstrap objects and the scenario's nodes (or the default three),
    /// and the scenario's apply and steps queued.
    pub fn new(scenario: Scenario) -> Self {
        let mut cluster = Cluster::starting(scenario);
        cluster.start_some(&mut || false);
        cluster
    }

    /// [`Cluster::new`] not started yet: a thousand nodes take a second or more to create and
    /// start, and the page does it in slices with [`Cluster::start_some`]. Nothing else may be
    /// asked of it until that has finished.
    pub fn starting(scenario: Scenario) -> Self {
        let seed = scenario.seed;
        let mut cluster = Cluster {
            api: ApiServer::new(seed),
            queue: EventQueue::new(),
            trace: Trace::sampled(FULL_TRACE_PODS),
            seed,
            scenario,
            outputs: Vec::new(),
            slots: Vec::new(),
            watch_owner: BTreeMap::new(),
            pending_work: 0,
            kubelets: BTreeMap::new(),
            to_start: None,
            applying: None,
            apply_objects_per_step: APPLY_OBJECTS_PER_STEP,
        };
        let mut to_start: Vec<StartTask> = bootstrap::initial_objects()
            .into_iter()
            .map(StartTask::Create)
            .collect();
        let node_count = match cluster.scenario.nodes.len() {
            0 => bootstrap::default_nodes().len(),
            n => n,
        };
        to_start.extend((0..node_count).map(StartTask::RegisterNode));
        // The control plane was running before anyone arrived: its informers' initial lists
        // and watches are not part of the story.
        for c in crate::controllers::control_plane(&cluster.scenario.scheduler) {
            to_start.push(StartTask::Start(c));
        }
        let nodes = node_names(&cluster.scenario);
        // The watch cache keeps what its informers will watch decoded from the first write, so
        // their initial lists read objects, not JSON text. Every node's kubelet and kube-proxy
        // watch the same resources as the first node's.
        let mut watched: Vec<Box<dyn Actor>> = Vec::new();
        if let Some(first) = nodes.first() {
            watched.push(Box::new(crate::kubelet::Kubelet::new(first)));
            watched.extend(crate::kubeproxy::kube_proxies(std::slice::from_ref(first)));
        }
        let control_plane = to_start.iter().filter_map(|task| match task {
            StartTask::Start(c) => Some(c),
            _ => None,
        });
        for c in control_plane.chain(watched.iter()) {
            for spec in c.informers() {
                let prefix = spec.resource.etcd_list_prefix(None);
                cluster.api.storage.watch_prefix(&prefix);
            }
        }
        to_start.extend(nodes.iter().cloned().map(StartTask::StartKubelet));
        to_start.extend(nodes.into_iter().map(StartTask::StartKubeProxy));
        to_start.reverse();
        cluster.to_start = Some(to_start);
        cluster
    }

    /// Goes on with a [`Cluster::starting`]'s start until `out_of_time()` (checked after each
    /// object and component); at its end, queues the scenario's apply and steps. True once
    /// the cluster has started.
    pub fn start_some(&mut self, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        let Some(mut to_start) = self.to_start.take() else {
            return true;
        };
        while let Some(task) = to_start.pop() {
            match task {
                StartTask::Create(obj) => self.create_bootstrap_object(obj),
                StartTask::RegisterNode(i) => {
                    let node = match self.scenario.nodes.get(i) {
                        Some(n) => bootstrap::complete_node(&n.object, i, 0),
                        None => bootstrap::complete_node(&bootstrap::default_nodes()[i], i, 0),
                    };
                    let lease = bootstrap::node_lease(meta::name(&node), 0);
                    self.create_bootstrap_object(node);
                    self.create_bootstrap_object(lease);
                }
                StartTask::Start(c) => self.add_component(c),
                StartTask::StartKubelet(name) => self.start_kubelet(name),
                StartTask::StartKubeProxy(name) => {
                    for p in crate::kubeproxy::kube_proxies(&[name]) {
                        self.add_component(p);
                    }
                }
            }
            if !to_start.is_empty() && out_of_time() {
                self.to_start = Some(to_start);
                return false;
            }
        }
        self.flush_watches();
        self.trace.enabled = true;
        if !self.scenario.objects.is_empty() {
            self.schedule(0, Event::Step(None), false);
        }
        for i in 0..self.scenario.steps.len() {
            let at = self.scenario.steps[i].at;
            self.schedule(at, Event::Step(Some(i)), false);
        }
        true
    }

    /// Starts a node's kubelet, kept in [`Cluster::kubelets`] too.
    fn start_kubelet(&mut self, name: String) {
        let kubelet = Rc::new(RefCell::new(crate::kubelet::Kubelet::new(&name)));
        self.kubelets.insert(name, Rc::clone(&kubelet));
        self.add_component(Box::new(SharedKubelet(kubelet)));
    }

    /// Whether every component has started (see [`Cluster::starting`]).
    pub fn started(&self) -> bool {
        self.to_start.is_none()
    }

    fn schedule(&mut self, at: Millis, event: Event, periodic: bool) {
        if !periodic {
            self.pending_work += 1;
        }
        self.queue.schedule_at(at, (event, periodic).into());
    }

    /// Starts a component: its informers list and watch, then it is told `Started`.
    pub fn add_component(&mut self, component: Box<dyn Actor>) {
        let slot = self.slots.len();
        let rng = Rng::stream(self.seed, &component.name());
        let informers = self.open_informers(component.as_ref(), slot);
        self.slots.push(Slot {
            component: Some(component),
            informers,
            rng,
            stopped: false,
            relisted: false,
        });
        self.handle(slot, Input::Started);
    }

    /// Lists and watches what a component's informers ask for, feeding slot `slot`.
    fn open_informers(&mut self, component: &dyn Actor, slot: usize) -> Vec<Informer> {
        let mut informers = Vec::new();
        for (i, spec) in component.informers().into_iter().enumerate() {
            let now = self.now();
            let mut list = Request::new(
                Verb::List,
                spec.resource,
                component.informer_credentials(),
                &component.name(),
            )
            .namespace(spec.namespace.as_deref())
            .labels(spec.label_selector.as_deref());
            list.field_selector = spec.field_selector.clone();
            list.share_items = true;
            if self.trace.enabled {
                self.trace.push(
                    Record::new(now, component.lane(), "request", list.line())
                        .peer("kube-apiserver"),
                );
            }
            // The items come shared: the informer holds the watch cache's objects, not copies.
            let (items, rv) = match self.api.handle(now, &list, &mut self.trace) {
                Ok(l) => (
                    self.api.take_list_items(),
                    l.lookup("/metadata/resourceVersion")
                        .and_then(|v| v.as_str())
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(0),
                ),
                Err(_) => (Vec::new(), 0),
            };
            let mut inf = Informer::from_shared(items, rv);
            for (name, f) in &spec.indexes {
                inf.add_index(name, *f);
            }
            let mut watch = list.clone();
            watch.verb = Verb::Watch;
            watch.share_items = false;
            watch.resource_version = Some(rv.to_string());
            if self.trace.enabled {
                self.trace.push(
                    Record::new(now, component.lane(), "request", watch.line())
                        .peer("kube-apiserver"),
                );
            }
            if let Ok(id) = self.api.watch(now, &watch, &mut self.trace) {
                inf.watch_id = id;
                self.watch_owner.insert(id, (slot, i));
            }
            informers.push(inf);
        }
        informers
    }

    /// The slot of a node's kubelet.
    fn kubelet_slot(&self, node: &str) -> Option<usize> {
        let name = format!("kubelet/{node}");
        self.slots
            .iter()
            .position(|s| s.component.as_ref().is_some_and(|c| c.name() == name))
    }

    /// Carries out a `fault` step; an error says what was wrong with it.
    fn fault(&mut self, fault: &str) -> Result<(), String> {
        let mut words = fault.split_whitespace();
        let verb = words.next().unwrap_or("");
        let arg = words.next().unwrap_or("");
        match verb {
            "stop-node" | "start-node" => {
                if arg.is_empty() {
                    return Err(format!("{verb} needs a node name"));
                }
                let slot = self
                    .kubelet_slot(arg)
                    .ok_or_else(|| format!("node {arg:?} not found"))?;
                let stop = verb == "stop-node";
                if self.slots[slot].stopped == stop {
                    let state = if stop { "stopped" } else { "running" };
                    self.record(
                        Component::Kubeplay,
                        "fault",
                        format!("fault {fault}: the kubelet of {arg} is already {state}"),
                    );
                    return Ok(());
                }
                if stop {
                    self.slots[slot].stopped = true;
                    self.record(
                        Component::Kubeplay,
                        "fault",
                        format!("fault {fault}: the kubelet of {arg} stops (no heartbeats, no pod work); its containers keep running"),
                    );
                } else {
                    self.record(
                        Component::Kubeplay,
                        "fault",
                        format!("fault {fault}: the kubelet of {arg} starts again: it re-lists its pods and renews its Lease"),
                    );
                    self.restart(slot);
                }
                Ok(())
            }
            "kill-container" => self.kill_container(fault, arg),
            "" => Err("empty fault".into()),
            other => Err(format!(
                "unknown fault {other:?} (known: stop-node, start-node, kill-container)"
            )),
        }
    }

    /// `fault: kill-container POD/CONTAINER` (`NAMESPACE/POD/CONTAINER` for another namespace
    /// than `default`): the node's container runtime kills the container's main process with
    /// SIGKILL; the kubelet sees it exit with 137 and applies the pod's restart policy.
    fn kill_container(&mut self, fault: &str, arg: &str) -> Result<(), String> {
        let parts: Vec<&str> = arg.split('/').collect();
        let (ns, pod, container) = match parts.as_slice() {
            [p, c] if !p.is_empty() && !c.is_empty() => ("default", *p, *c),
            [n, p, c] if !n.is_empty() && !p.is_empty() && !c.is_empty() => (*n, *p, *c),
            _ => return Err("kill-container needs POD/CONTAINER".into()),
        };
        let key = format!("{ns}/{pod}");
        let node = self
            .kubelets
            .iter()
            .find(|(_, k)| k.borrow().runs_pod(&key))
            .map(|(n, _)| n.clone());
        let Some(node) = node else {
            let pods = resources::for_kind("v1", "Pod").expect("pods");
            return Err(match self.api.storage.get(pods, Some(ns), pod) {
                Ok(_) => format!("container {container:?} in pod {pod:?} is not running"),
                Err(e) => e.message,
            });
        };
        let slot = self
            .kubelet_slot(&node)
            .ok_or_else(|| format!("node {node:?} not found"))?;
        if self.slots[slot].stopped {
            return Err(format!(
                "the kubelet of {node} is stopped: kubeplay does not simulate a container dying while its kubelet is down"
            ));
        }
        let mark = self.trace.records.len();
        self.record(
            Component::Kubeplay,
            "fault",
            format!("fault {fault}: the container runtime on {node} sends SIGKILL to the main process of container {container} of pod {key}"),
        );
        let kubelet = Rc::clone(&self.kubelets[&node]);
        let result = self.with_ctx(slot, |ctx| {
            kubelet.borrow_mut().kill_container(ctx, &key, container)
        });
        if result.is_err() {
            // Nothing was killed: the error step stands alone.
            self.trace.records.truncate(mark);
        }
        result
    }

    /// Runs `f` as component `slot` with its context (outside its inputs: a call from the
    /// cluster, as kube-apiserver's connection to a kubelet or a fault), carrying out the
    /// timers it asks for.
    fn with_ctx<R>(&mut self, slot: usize, f: impl FnOnce(&mut Ctx<'_>) -> R) -> R {
        let now = self.now();
        let (name, lane, credentials) = {
            let c = self.slots[slot].component.as_ref().expect("component");
            (c.name(), c.lane(), c.credentials())
        };
        let (result, commands) = {
            let Slot { informers, rng, .. } = &mut self.slots[slot];
            let mut ctx = Ctx {
                now,
                api: &mut self.api,
                trace: &mut self.trace,
                informers,
                rng,
                commands: Vec::new(),
                name,
                lane,
                credentials,
            };
            let r = f(&mut ctx);
            (r, ctx.commands)
        };
        for c in commands {
            match c {
                Command::Timer {
                    delay,
                    tag,
                    periodic,
                } => self.schedule(now + delay, Event::Timer { slot, tag }, periodic),
            }
        }
        result
    }

    /// `GET pods/<name>/log`. kube-apiserver authenticates and authorizes it like any request
    /// (RBAC's `get` on `pods/log`), reads the pod and checks the container
    /// (`pod.LogLocation`), then connects to the node's kubelet,
    /// `https://<InternalIP>:10250/containerLogs/<ns>/<pod>/<container>`, and streams its
    /// answer back: the one connection from kube-apiserver to a kubelet. The request's body
    /// carries its query parameters as a `PodLogOptions`; the answer is the log text.
    fn pod_log(&mut self, req: &Request) -> Result<Object, ApiError> {
        let now = self.now();
        let result = self.pod_log_inner(now, req);
        let summary = match &result {
            Ok(body) => {
                let lines = body.as_str().map_or(0, |b| b.lines().count());
                format!("200 OK: {lines} line(s) of log (text/plain)")
            }
            Err(e) if e.reason.is_empty() => format!("{}: {}", e.code, e.message),
            Err(e) => format!("{} {}: {}", e.code, e.reason, e.message),
        };
        let code = result.as_ref().map_or_else(|e| e.code, |_| 200);
        self.trace.push(
            Record::new(now, Component::KubeApiserver, "response", summary)
                .peer(req.client.clone())
                .detail("code", code.into()),
        );
        result
    }

    fn pod_log_inner(&mut self, now: Millis, req: &Request) -> Result<Object, ApiError> {
        use crate::apiserver::rbac;
        let auth = self.api.authenticate(now, req, &mut self.trace)?;
        let ns = req.namespace.clone().unwrap_or_else(|| "default".into());
        let name = req.name.clone().unwrap_or_default();
        let attrs = rbac::Attributes::resource(&auth.user, "get", "", "pods", "log", &ns, &name);
        match rbac::authorize(&attrs, &self.api.storage) {
            rbac::Decision::Allow { reason } => self.trace.push(Record::new(
                now,
                Component::KubeApiserver,
                "authorize",
                reason,
            )),
            rbac::Decision::Deny { reason } => {
                let err = rbac::forbidden_error(&attrs, &reason);
                self.trace.push(Record::new(
                    now,
                    Component::KubeApiserver,
                    "authorize",
                    format!("denied: {}", err.message),
                ));
                return Err(err);
            }
        }
        let pods = resources::for_kind("v1", "Pod").expect("pods");
        let get = Request::new(Verb::Get, pods, req.credentials.clone(), &req.client)
            .namespace(Some(&ns))
            .name(&name);
        let pod = crate::apiserver::registry::dispatch(
            &mut self.api,
            now,
            &get,
            &auth.user,
            &mut self.trace,
        )?;
        let options = req.body.clone().unwrap_or_default();
        let names = |k: &str| -> Vec<String> {
            pod["spec"][k]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| c["name"].as_str().map(str::to_string))
                .collect()
        };
        let (init, app, ephemeral) = (
            names("initContainers"),
            names("containers"),
            names("ephemeralContainers"),
        );
        // `validateContainer`: a given name must be one of the pod's; without one, a pod of
        // one container means that one.
        let container = match options["container"].as_str().unwrap_or("") {
            "" => match app.as_slice() {
                [only] => only.clone(),
                [] => {
                    return Err(ApiError::bad_request(format!(
                        "a container name must be specified for pod {name}"
                    )));
                }
                _ => {
                    let mut msg = format!(
                        "a container name must be specified for pod {name}, choose one of: [{}]",
                        app.join(" ")
                    );
                    if !init.is_empty() {
                        msg.push_str(&format!(
                            " or one of the init containers: [{}]",
                            init.join(" ")
                        ));
                    }
                    return Err(ApiError::bad_request(msg));
                }
            },
            c if init.iter().chain(&app).chain(&ephemeral).any(|n| n == c) => c.to_string(),
            c => {
                return Err(ApiError::bad_request(format!(
                    "container {c} is not valid for pod {name}"
                )));
            }
        };
        let Some(node_name) = pod.lookup("/spec/nodeName").and_then(|v| v.as_str()) else {
            // Not scheduled: no kubelet to ask, an empty log.
            return Ok(Object::String(String::new()));
        };
        let nodes = resources::for_kind("v1", "Node").expect("nodes");
        let node = self.api.storage.get(nodes, None, node_name)?;
        let ip = node
            .lookup("/status/addresses")
            .and_then(|a| a.as_array())
            .into_iter()
            .flatten()
            .find(|a| a["type"] == "InternalIP")
            .and_then(|a| a["address"].as_str())
            .unwrap_or(node_name)
            .to_string();
        let port = node
            .lookup("/status/daemonEndpoints/kubeletEndpoint/Port")
            .and_then(|p| p.as_i64())
            .unwrap_or(10250);
        let cpus: u32 = node
            .lookup("/status/capacity/cpu")
            .and_then(|c| c.as_str())
            .and_then(|c| c.parse().ok())
            .unwrap_or(1);
        let opts = crate::kubelet::logs::LogOptions {
            container: container.clone(),
            previous: options["previous"].as_bool().unwrap_or(false),
            tail_lines: options["tailLines"].as_u64().map(|n| n as usize),
            timestamps: options["timestamps"].as_bool().unwrap_or(false),
        };
        let mut query = Vec::new();
        if opts.previous {
            query.push("previous=true".to_string());
        }
        if let Some(n) = opts.tail_lines {
            query.push(format!("tailLines={n}"));
        }
        if opts.timestamps {
            query.push("timestamps=true".to_string());
        }
        let mut url = format!("https://{ip}:{port}/containerLogs/{ns}/{name}/{container}");
        let plain_url = url.clone();
        if !query.is_empty() {
            url = format!("{url}?{}", query.join("&"));
        }
        let kubelet_name = format!("kubelet/{node_name}");
        self.trace.push(
            Record::new(
                now,
                Component::KubeApiserver,
                "kubelet.proxy",
                format!("GET {url}"),
            )
            .peer(kubelet_name.clone())
            .node(node_name),
        );
        let reachable = self
            .kubelet_slot(node_name)
            .is_some_and(|slot| !self.slots[slot].stopped);
        let kubelet = self.kubelets.get(node_name).filter(|_| reachable).cloned();
        let Some(kubelet) = kubelet else {
            // A transport error, not a Status: reason `StatusReasonUnknown` (empty).
            let mut err = ApiError::internal("");
            err.reason = "";
            err.message =
                format!("Get {plain_url:?}: dial tcp {ip}:{port}: connect: connection refused");
            self.trace.push(
                Record::new(
                    now,
                    Component::KubeApiserver,
                    "kubelet.proxy",
                    format!("{kubelet_name} does not answer: connection refused"),
                )
                .node(node_name),
            );
            return Err(err);
        };
        let key = format!("{ns}/{name}");
        let served = kubelet.borrow().container_log(now, cpus, &key, &opts);
        let (summary, result) = match served {
            Ok(file) => (
                format!(
                    "containerLogs {key}/{container}: {} line(s) from the log of container {}",
                    file.lines,
                    &file.container_id[..file.container_id.len().min(13)]
                ),
                Ok(Object::String(file.body)),
            ),
            Err(crate::kubelet::logs::LogError::BadRequest(m)) => (
                format!("containerLogs {key}/{container}: 400 Bad Request: {m}"),
                Err(ApiError::bad_request(m)),
            ),
            Err(crate::kubelet::logs::LogError::NotFound(m)) => {
                let mut err = ApiError::not_found("pods", "", &name);
                err.message =
                    format!("the server could not find the requested resource ( pods/log {name})");
                (
                    format!("containerLogs {key}/{container}: 404 Not Found: {m}"),
                    Err(err),
                )
            }
        };
        self.trace.push(
            Record::new(now, Component::Kubelet, "kubelet.logs", summary)
                .peer("kube-apiserver")
                .node(node_name)
                .object(format!("Pod {key}")),
        );
        result
    }

    /// A stopped component starts again: fresh lists and watches, then `Started`.
    fn restart(&mut self, slot: usize) {
        let Some(component) = self.slots[slot].component.take() else {
            return;
        };
        for inf in &self.slots[slot].informers {
            self.api.stop_watch(inf.watch_id);
            self.watch_owner.remove(&inf.watch_id);
        }
        let informers = self.open_informers(component.as_ref(), slot);
        let s = &mut self.slots[slot];
        s.component = Some(component);
        s.informers = informers;
        s.stopped = false;
        s.relisted = true;
        self.handle(slot, Input::Started);
    }

    /// Runs one input through a component and carries out the timers it asked for.
    fn handle(&mut self, slot: usize, input: Input) {
        let Some(mut component) = self.slots[slot].component.take() else {
            return;
        };
        let now = self.now();
        let commands = {
            let Slot { informers, rng, .. } = &mut self.slots[slot];
            let mut ctx = Ctx {
                now,
                api: &mut self.api,
                trace: &mut self.trace,
                informers,
                rng,
                commands: Vec::new(),
                name: component.name(),
                lane: component.lane(),
                credentials: component.credentials(),
            };
            component.handle(&mut ctx, input);
            ctx.commands
        };
        self.slots[slot].component = Some(component);
        for c in commands {
            match c {
                Command::Timer {
                    delay,
                    tag,
                    periodic,
                } => self.schedule(now + delay, Event::Timer { slot, tag }, periodic),
            }
        }
    }

    /// Moves what etcd's watchers saw onto the queue, to arrive after the watch latency.
    fn flush_watches(&mut self) {
        for id in self.api.watches_with_events() {
            // Watches opened by someone else (a test, a console) are theirs to drain.
            let Some(&(slot, informer)) = self.watch_owner.get(&id) else {
                continue;
            };
            let events = self.api.take_watch_events(id);
            if !events.is_empty() {
                let at = self.now() + WATCH_LATENCY_MS;
                self.schedule(
                    at,
                    Event::Deliver {
                        slot,
                        informer,
                        events,
                    },
                    false,
                );
            }
        }
        self.api.end_watch_round();
    }

    /// Parses and builds a cluster in one go.
    pub fn from_text(file: &str, text: &str) -> Result<Self, crate::scenario::SourceError> {
        Ok(Cluster::new(crate::scenario::parse(file, text)?))
    }

    pub fn now(&self) -> Millis {
        self.queue.now()
    }

    /// The objects a cluster starts with: the built-in ones, then each node and its lease.
    fn create_bootstrap_object(&mut self, obj: Object) {
        let Some(info) = resources::for_kind(meta::api_version(&obj), meta::kind(&obj)) else {
            return;
        };
        let req = Request::new(Verb::Create, info, admin_credentials(), "kubeplay")
            .namespace(meta::namespace(&obj))
            .body(obj);
        // The built-in objects always pass; a scenario's Node may not (a bad name, say), and
        // the run says so instead of silently leaving the node out.
        if let Err(e) = self.api.handle_loopback_owned(0, req, &mut self.trace) {
            self.outputs.push(CommandOutput {
                command: "register node".into(),
                stderr: format!("{}\n", crate::kubectl::format_error(&e, "")),
                exit_code: 1,
                ..Default::default()
            });
        }
    }

    /// Sends one request through kube-apiserver at the current virtual time.
    pub fn request(&mut self, req: &Request) -> Result<Object, ApiError> {
        self.api.clear_warnings();
        if req.verb == Verb::Get
            && req.subresource.as_deref() == Some("log")
            && req.resource.kind == "Pod"
        {
            return self.pod_log(req);
        }
        let now = self.now();
        let result = self.api.handle(now, req, &mut self.trace);
        // Whoever watches sees the change, also when the request came from outside a run.
        self.flush_watches();
        result
    }

    /// Records a step in the trace at the current time.
    pub fn record(
        &mut self,
        component: Component,
        action: &'static str,
        summary: impl Into<String>,
    ) {
        let now = self.now();
        self.trace
            .push(Record::new(now, component, action, summary));
    }

    /// Whether nothing but periodic work (heartbeats, resyncs) is left.
    pub fn is_quiet(&self) -> bool {
        self.pending_work == 0 && self.applying.is_none()
    }

    /// When the next step happens: now while the scenario's apply has objects left, else
    /// the time of the queue's next event.
    pub fn next_time(&self) -> Option<Millis> {
        if self.applying.is_some() {
            return Some(self.now());
        }
        self.queue.peek_time()
    }

    /// Who the next step runs, and why: the component's name and "timer" or "watch"
    /// (the scenario's apply is "kubectl"). What the benchmarks time steps by.
    pub fn next_step_owner(&self) -> (String, &'static str) {
        let owner = |slot: usize| {
            self.slots[slot]
                .component
                .as_ref()
                .map(|c| c.name())
                .unwrap_or_default()
        };
        if self.applying.is_some() {
            return ("kubectl".into(), "apply");
        }
        match self.queue.peek().map(|q| &q.event) {
            Some(Event::Deliver { slot, .. }) => (owner(*slot), "watch"),
            Some(Event::Timer { slot, .. }) => (owner(*slot), "timer"),
            Some(Event::Step(_)) => ("kubectl".into(), "step"),
            None => (String::new(), ""),
        }
    }

    /// Runs until quiet (nothing left but periodic work) or, with `until`, to exactly that time.
    pub fn run(&mut self, until: Option<Millis>) {
        let limit = until.unwrap_or(MAX_RUN_MS);
        while let Some(t) = self.next_time() {
            if t > limit || (until.is_none() && self.is_quiet()) {
                break;
            }
            self.step_one();
        }
        if let Some(u) = until {
            self.expire_leases(u);
            self.queue.advance_to(u);
        }
    }

    /// Fires the next event (or applies the scenario's next objects); false when the queue is
    /// empty.
    pub fn step_one(&mut self) -> bool {
        if let Some(apply) = self.applying.take() {
            self.continue_apply(*apply);
            self.flush_watches();
            return true;
        }
        let Some(t) = self.queue.peek_time() else {
            return false;
        };
        self.expire_leases(t);
        let Some((_, queued)) = self.queue.pop() else {
            return false;
        };
        let Queued { event, periodic } = queued;
        if !periodic {
            self.pending_work -= 1;
        }
        self.dispatch(event);
        self.flush_watches();
        true
    }

    /// etcd drops keys whose lease ran out (Events after an hour) as time passes.
    fn expire_leases(&mut self, upto: Millis) {
        while let Some(at) = self.api.storage.etcd.next_lease_expiry() {
            if at > upto {
                break;
            }
            let expired = self.api.storage.etcd.expire_leases(at);
            if expired.is_empty() {
                break;
            }
            self.trace.push(Record::new(
                at,
                Component::Etcd,
                "etcd.lease",
                format!("{} lease(s) expired; their keys are deleted", expired.len()),
            ));
        }
        self.flush_watches();
    }

    /// Applies the scenario's next objects; its output once the last is applied.
    fn continue_apply(&mut self, apply: crate::kubectl::ScenarioApply) {
        match apply.step(self, self.apply_objects_per_step) {
            Ok(out) => self.outputs.push(out),
            Err(rest) => self.applying = Some(rest),
        }
    }

    fn dispatch(&mut self, event: Event) {
        match event {
            Event::Deliver {
                slot,
                informer,
                events,
            } => {
                if self.slots[slot].stopped {
                    return;
                }
                for e in events {
                    if self.slots[slot].relisted
                        && e.revision <= self.slots[slot].informers[informer].resource_version
                    {
                        continue;
                    }
                    if self.trace.enabled {
                        let now = self.now();
                        let label = crate::apiserver::object_label(&e.object);
                        // A delivery the trace only counts is not written out.
                        let record = if self.trace.keeps(&label) {
                            let name = self.slots[slot]
                                .component
                                .as_ref()
                                .map(|c| c.name())
                                .unwrap_or_default();
                            let summary = format!("WATCH {} {label}", e.kind);
                            Record::new(now, Component::KubeApiserver, "watch", summary)
                                .peer(name)
                                .revision(e.revision)
                        } else {
                            Record::new(now, Component::KubeApiserver, "watch", String::new())
                        };
                        self.trace.push(record.object(label));
                    }
                    self.slots[slot].informers[informer].apply(&e);
                    self.handle(slot, Input::Watch { informer, event: e });
                }
            }
            Event::Timer { slot, tag } => {
                if !self.slots[slot].stopped {
                    self.handle(slot, Input::Timer(tag));
                }
            }
            Event::Step(None) => {
                let file = self.scenario.file.clone();
                let text: String = self
                    .scenario
                    .objects
                    .iter()
                    .map(|o| o.text.as_str())
                    .collect::<Vec<_>>()
                    .join("\n---\n");
                match crate::kubectl::ScenarioApply::start(self, &file, &text) {
                    Ok(apply) => self.continue_apply(apply),
                    Err(out) => self.outputs.push(out),
                }
            }
            Event::Step(Some(i)) => {
                let step = self.scenario.steps[i].clone();
                match step.action {
                    StepAction::Kubectl { command, stdin } => {
                        let out = match crate::shell::split(&command) {
                            Ok(args) => crate::kubectl::run_with_source(
                                self,
                                &args,
                                stdin.as_deref().map(|s| ("-", s)),
                            ),
                            Err(e) => CommandOutput {
                                stderr: format!("error: {e}\n"),
                                exit_code: 1,
                                ..Default::default()
                            },
                        };
                        self.outputs.push(CommandOutput {
                            command: format!("kubectl {command}"),
                            t_ms: self.now(),
                            ..out
                        });
                    }
                    StepAction::Fault(f) => {
                        if let Err(e) = self.fault(&f) {
                            self.record(
                                Component::Kubeplay,
                                "fault",
                                format!("fault {f}: error: {e}"),
                            );
                            self.outputs.push(CommandOutput {
                                t_ms: self.now(),
                                command: format!("fault {f}"),
                                stderr: format!("error: fault {f:?}: {e}\n"),
                                exit_code: 1,
                                ..Default::default()
                            });
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Twenty Deployments and a step at time 0 queued after their apply.
    fn many_objects() -> String {
        let mut text = String::new();
        for i in 0..20 {
            text.push_str(&format!(
                "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web-{i}\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {{app: web-{i}}}\n  template:\n    metadata:\n      labels: {{app: web-{i}}}\n    spec:\n      containers:\n      - name: c\n        image: nginx:1.27\n---\n"
            ));
        }
        text.push_str("apiVersion: kubeplay/v1alpha1\nkind: Scenario\nsteps:\n- at: 0s\n  kubectl: get deployments -o name\n");
        text
    }

    #[test]
    fn a_big_manifest_is_applied_over_several_steps_with_the_trace_of_one() {
        let text = many_objects();
        let mut stepped = Cluster::from_text("many.yaml", &text).unwrap();
        let mut whole = Cluster::from_text("many.yaml", &text).unwrap();
        whole.apply_objects_per_step = usize::MAX;

        // The apply's first step applies 8 objects; two more steps apply the rest, and the
        // queue's next event (the step at time 0) waits for them.
        assert!(stepped.step_one());
        assert!(stepped.applying.is_some());
        assert!(stepped.outputs.is_empty());
        assert_eq!(stepped.next_time(), Some(stepped.now()));
        assert!(!stepped.is_quiet());
        assert!(stepped.step_one() && stepped.step_one());
        assert!(stepped.applying.is_none());
        assert_eq!(stepped.outputs.len(), 1);
        assert!(whole.step_one());
        assert!(whole.applying.is_none());

        stepped.run(None);
        whole.run(None);
        assert_eq!(stepped.outputs, whole.outputs);
        assert_eq!(stepped.trace.to_json_lines(), whole.trace.to_json_lines());
        let apply = &stepped.outputs[0];
        assert_eq!(apply.command, "kubectl apply -f many.yaml");
        assert_eq!(apply.stdout.lines().count(), 20, "{}", apply.stdout);
        assert!(apply.stdout.ends_with("deployment.apps/web-19 created\n"));
        // The step queued at time 0 ran after the whole manifest.
        assert_eq!(stepped.outputs[1].stdout.lines().count(), 20);
    }

    #[test]
    fn a_pod_can_go_to_a_node_the_scheduler_put_in_its_cache_last() {
        // More nodes than the scheduler puts in its cache in one step: node-999 is in the
        // initial list's last step, and a pod that fits only there is still bound to it.
        let nodes = crate::scheduler::NODES_PUT_PER_STEP * 2 + 100;
        let size = crate::benchmark::Size {
            name: "nodes",
            nodes,
            deployments: 0,
            replicas: 0,
        };
        let text = format!(
            "{}---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: pinned\nspec:\n  nodeSelector: {{kubernetes.io/hostname: node-999}}\n  containers:\n  - name: c\n    image: nginx:1.27\n",
            crate::benchmark::scenario(&size)
        );
        let mut c = Cluster::from_text("nodes.yaml", &text).unwrap();
        c.run(None);
        let pod = c
            .api
            .storage
            .etcd
            .get("/registry/pods/default/pinned", None)
            .unwrap()
            .map(|kv| crate::apiserver::storage::decode(&kv));
        let pod = pod.expect("the pod was created");
        assert_eq!(
            pod.lookup("/spec/nodeName").and_then(|v| v.as_str()),
            Some("node-999")
        );
        assert_eq!(
            pod.lookup("/status/phase").and_then(|v| v.as_str()),
            Some("Running")
        );
    }

    #[test]
    fn a_big_manifest_is_read_over_several_steps_with_the_trace_of_one() {
        let text = many_objects();
        let mut stepped = Cluster::from_text("many.yaml", &text).unwrap();
        let mut whole = Cluster::from_text("many.yaml", &text).unwrap();
        // Two objects a step: eight of the twenty documents are read in each of the first two
        // steps, and nothing is created until all are read.
        stepped.apply_objects_per_step = 2;
        whole.apply_objects_per_step = usize::MAX;
        let deployments = |c: &Cluster| {
            c.api
                .storage
                .etcd
                .range_prefix("/registry/deployments/", None, 0)
                .map_or(0, |r| r.count)
        };
        assert!(stepped.step_one() && stepped.step_one());
        assert!(stepped.applying.is_some());
        assert_eq!(deployments(&stepped), 0);
        assert!(stepped.step_one());
        assert_eq!(deployments(&stepped), 2);

        stepped.run(None);
        whole.run(None);
        assert_eq!(deployments(&stepped), 20);
        assert_eq!(stepped.outputs, whole.outputs);
        assert_eq!(stepped.trace.to_json_lines(), whole.trace.to_json_lines());
    }

    #[test]
    fn requests_about_objects_the_trace_only_counts_are_counted_the_same_without_their_records() {
        // 240 pods: past the trace's budget of 200, so later pods' requests are handled muted.
        let size = crate::benchmark::Size {
            name: "sampled",
            nodes: 3,
            deployments: 2,
            replicas: 120,
        };
        let text = crate::benchmark::scenario(&size);
        let mut muted = Cluster::from_text("sampled.yaml", &text).unwrap();
        let mut built = Cluster::from_text("sampled.yaml", &text).unwrap();
        built.trace.never_mute = true;
        muted.run(None);
        built.run(None);
        assert_eq!(muted.trace.sampling(), (FULL_TRACE_PODS, 40));
        assert_eq!(muted.trace.sampling(), built.trace.sampling());
        assert_eq!(muted.trace.counted(), built.trace.counted());
        assert!(muted.trace.counted()["kube-apiserver authenticate"] > 0);
        assert_eq!(muted.trace.digest(), built.trace.digest());
        assert_eq!(muted.now(), built.now());
    }
}
