//! A simulated cluster: the kernel's clock and queue, kube-apiserver with its etcd, the trace,
//! and the scenario driving it. Components reach the cluster only through [`Cluster::request`].

pub mod bootstrap;

use crate::api::{meta, resources, ApiError, Object};
use crate::apiserver::{ApiServer, Credentials, Request, Verb};
use crate::kernel::{EventQueue, Millis};
use crate::scenario::{Scenario, StepAction};
use crate::trace::{Component, Record, Trace};

/// Runs without `--until` stop here at the latest (a crash loop is never quiet).
pub const MAX_RUN_MS: Millis = 10 * 60 * 1000;

/// What the queue holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Run scenario step `index` (the apply of the scenario's objects is step `None`).
    Step(Option<usize>),
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

pub struct Cluster {
    pub api: ApiServer,
    pub queue: EventQueue<Event>,
    pub trace: Trace,
    pub seed: u64,
    pub scenario: Scenario,
    /// What each scenario step printed, in order.
    pub outputs: Vec<CommandOutput>,
}

/// The kubeconfig user of the playground.
pub fn admin_credentials() -> Credentials {
    Credentials::ClientCertificate { common_name: "kubernetes-admin".into(), organizations: vec!["system:masters".into()] }
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
        };
        cluster.bootstrap();
        cluster.trace.enabled = true;
        if !cluster.scenario.objects.is_empty() {
            cluster.queue.schedule_at(0, Event::Step(None));
        }
        for (i, step) in cluster.scenario.steps.iter().enumerate() {
            cluster.queue.schedule_at(step.at, Event::Step(Some(i)));
        }
        cluster
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
            self.scenario.nodes.iter().map(|n| n.object.clone()).collect()
        };
        for (i, n) in nodes.iter().enumerate() {
            objects.push(bootstrap::complete_node(n, i, 0));
            objects.push(bootstrap::node_lease(meta::name(n), 0));
        }
        for obj in objects {
            let Some(info) = resources::for_kind(meta::api_version(&obj), meta::kind(&obj)) else { continue };
            let req = Request::new(Verb::Create, info, admin_credentials(), "kubeplay").namespace(meta::namespace(&obj)).body(obj);
            // The bootstrap objects are ours: a failure here is a bug, reported loudly in tests.
            if let Err(e) = self.api.handle(0, &req, &mut self.trace) {
                debug_assert!(false, "bootstrap object refused: {e}");
            }
        }
    }

    /// Sends one request through kube-apiserver at the current virtual time.
    pub fn request(&mut self, req: &Request) -> Result<Object, ApiError> {
        let now = self.now();
        self.api.handle(now, req, &mut self.trace)
    }

    /// Records a step in the trace at the current time.
    pub fn record(&mut self, component: Component, action: &'static str, summary: impl Into<String>) {
        let now = self.now();
        self.trace.push(Record::new(now, component, action, summary));
    }

    /// Runs until quiet (nothing left but periodic work) or, with `until`, to exactly that time.
    pub fn run(&mut self, until: Option<Millis>) {
        let limit = until.unwrap_or(MAX_RUN_MS);
        while let Some(t) = self.queue.peek_time() {
            if t > limit {
                break;
            }
            let Some((_, event)) = self.queue.pop() else { break };
            self.dispatch(event);
        }
        if let Some(u) = until {
            self.queue.advance_to(u);
        }
    }

    fn dispatch(&mut self, event: Event) {
        match event {
            Event::Step(None) => {
                let file = self.scenario.file.clone();
                let text: String = self
                    .scenario
                    .objects
                    .iter()
                    .map(|o| o.text.as_str())
                    .collect::<Vec<_>>()
                    .join("\n---\n");
                let out = crate::kubectl::run_with_source(self, &["apply".into(), "-f".into(), file.clone()], Some((&file, &text)));
                self.outputs.push(CommandOutput { command: format!("kubectl apply -f {file}"), ..out });
            }
            Event::Step(Some(i)) => {
                let step = self.scenario.steps[i].clone();
                match step.action {
                    StepAction::Kubectl { command, stdin } => {
                        let out = match crate::shell::split(&command) {
                            Ok(args) => crate::kubectl::run_with_source(self, &args, stdin.as_deref().map(|s| ("-", s))),
                            Err(e) => CommandOutput { stderr: format!("error: {e}\n"), exit_code: 1, ..Default::default() },
                        };
                        self.outputs.push(CommandOutput { command: format!("kubectl {command}"), t_ms: self.now(), ..out });
                    }
                    StepAction::Fault(f) => {
                        self.record(Component::Kubeplay, "fault", format!("fault {f:?}: not simulated yet (no kubelets in this build)"));
                    }
                }
            }
        }
    }
}
