//! A simulated cluster: the kernel's clock and queue, kube-apiserver with its etcd, the trace,
//! and the scenario driving it. Components reach the cluster only through [`Cluster::request`].

pub mod bootstrap;
pub mod component;
pub mod informer;

use crate::api::{meta, resources, ApiError, Object};
use crate::apiserver::{ApiServer, Credentials, Request, Verb};
use crate::kernel::{EventQueue, Millis, Rng};
use crate::scenario::{Scenario, StepAction};
use crate::trace::{Component, Record, Trace};
pub use component::Component as Actor;
use component::{Command, Ctx, Input};
use informer::Informer;
use std::collections::BTreeMap;

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
        let seed = scenario.seed;
        let mut cluster = Cluster {
            api: ApiServer::new(seed),
            queue: EventQueue::new(),
            trace: Trace::default(),
            seed,
            scenario,
            outputs: Vec::new(),
            slots: Vec::new(),
            watch_owner: BTreeMap::new(),
            pending_work: 0,
        };
        cluster.bootstrap();
        // The control plane was running before anyone arrived: its informers' initial lists
        // and watches are not part of the story.
        for c in crate::controllers::control_plane() {
            cluster.add_component(c);
        }
        for k in crate::kubelet::kubelets(&cluster.scenario) {
            cluster.add_component(k);
        }
        cluster.flush_watches();
        cluster.trace.enabled = true;
        if !cluster.scenario.objects.is_empty() {
            cluster.schedule(0, Event::Step(None), false);
        }
        for i in 0..cluster.scenario.steps.len() {
            let at = cluster.scenario.steps[i].at;
            cluster.schedule(at, Event::Step(Some(i)), false);
        }
        cluster
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
            self.trace.push(
                Record::new(now, component.lane(), "request", list.line()).peer("kube-apiserver"),
            );
            let (items, rv) = match self.api.handle(now, &list, &mut self.trace) {
                Ok(l) => (
                    l["items"].as_array().cloned().unwrap_or_default(),
                    l.pointer("/metadata/resourceVersion")
                        .and_then(|v| v.as_str())
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(0),
                ),
                Err(_) => (Vec::new(), 0),
            };
            let mut inf = Informer::from_list(items, rv);
            let mut watch = list.clone();
            watch.verb = Verb::Watch;
            watch.resource_version = Some(rv.to_string());
            self.trace.push(
                Record::new(now, component.lane(), "request", watch.line()).peer("kube-apiserver"),
            );
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
            "kill-container" => {
                self.record(
                    Component::Kubeplay,
                    "fault",
                    format!(
                        "fault {fault}: recorded only; killing a container is not simulated yet"
                    ),
                );
                Ok(())
            }
            "" => Err("empty fault".into()),
            other => Err(format!(
                "unknown fault {other:?} (known: stop-node, start-node, kill-container)"
            )),
        }
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
        for (id, _) in self.api.watches_with_events() {
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
    }

    /// Parses and builds a cluster in one go.
    pub fn from_text(file: &str, text: &str) -> Result<Self, crate::scenario::SourceError> {
        Ok(Cluster::new(crate::scenario::parse(file, text)?))
    }

    pub fn now(&self) -> Millis {
        self.queue.now()
    }

    fn bootstrap(&mut self) {
        let mut objects = bootstrap::initial_objects();
        let nodes = if self.scenario.nodes.is_empty() {
            bootstrap::default_nodes()
        } else {
            self.scenario
                .nodes
                .iter()
                .map(|n| n.object.clone())
                .collect()
        };
        for (i, n) in nodes.iter().enumerate() {
            objects.push(bootstrap::complete_node(n, i, 0));
            objects.push(bootstrap::node_lease(meta::name(n), 0));
        }
        for obj in objects {
            let Some(info) = resources::for_kind(meta::api_version(&obj), meta::kind(&obj)) else {
                continue;
            };
            let req = Request::new(Verb::Create, info, admin_credentials(), "kubeplay")
                .namespace(meta::namespace(&obj))
                .body(obj);
            // The built-in objects always pass; a scenario's Node may not (a bad name, say), and
            // the run says so instead of silently leaving the node out.
            if let Err(e) = self.api.handle_loopback(0, &req, &mut self.trace) {
                self.outputs.push(CommandOutput {
                    command: "register node".into(),
                    stderr: format!("{}\n", crate::kubectl::format_error(&e, "")),
                    exit_code: 1,
                    ..Default::default()
                });
            }
        }
    }

    /// Sends one request through kube-apiserver at the current virtual time.
    pub fn request(&mut self, req: &Request) -> Result<Object, ApiError> {
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
        self.pending_work == 0
    }

    /// Runs until quiet (nothing left but periodic work) or, with `until`, to exactly that time.
    pub fn run(&mut self, until: Option<Millis>) {
        let limit = until.unwrap_or(MAX_RUN_MS);
        while let Some(t) = self.queue.peek_time() {
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

    /// Fires the next event; false when the queue is empty.
    pub fn step_one(&mut self) -> bool {
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
                    let name = self.slots[slot]
                        .component
                        .as_ref()
                        .map(|c| c.name())
                        .unwrap_or_default();
                    let now = self.now();
                    self.trace.push(
                        Record::new(
                            now,
                            Component::KubeApiserver,
                            "watch",
                            format!(
                                "WATCH {} {}",
                                e.kind,
                                crate::apiserver::object_label(&e.object)
                            ),
                        )
                        .peer(name)
                        .object(crate::apiserver::object_label(&e.object))
                        .revision(e.revision),
                    );
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
                let out = crate::kubectl::run_with_source(
                    self,
                    &["apply".into(), "-f".into(), file.clone()],
                    Some((&file, &text)),
                );
                self.outputs.push(CommandOutput {
                    command: format!("kubectl apply -f {file}"),
                    ..out
                });
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
