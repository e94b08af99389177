//! Components as actors: each receives its informers' watch events and its timers, and answers
//! with API requests and new timers through [`Ctx`]. No component calls another or reads etcd.

use super::informer::Informer;
use crate::api::{ApiError, Object, ResourceInfo};
use crate::apiserver::{Credentials, Request, Verb, WatchEvent};
use crate::kernel::{Millis, Rng};
use crate::trace::{Component as Lane, Record, Trace};

/// What a component is told.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// Its informers have listed and are watching: the caches are full.
    Started,
    /// One change seen by informer `informer` (its cache already holds the new state).
    Watch { informer: usize, event: WatchEvent },
    /// A timer it set, with its tag.
    Timer(u64),
}

/// What an informer of a component lists and watches.
#[derive(Clone, Debug)]
pub struct InformerSpec {
    pub resource: &'static ResourceInfo,
    pub namespace: Option<String>,
    pub label_selector: Option<String>,
    pub field_selector: Option<String>,
}

impl InformerSpec {
    pub fn all(resource: &'static ResourceInfo) -> Self {
        InformerSpec {
            resource,
            namespace: None,
            label_selector: None,
            field_selector: None,
        }
    }
}

/// A simulated process: a controller, the scheduler, a kubelet.
pub trait Component {
    /// The client name shown on arrows: `serviceaccount-controller`, `kubelet/node-1`.
    fn name(&self) -> String;
    /// The lane it is drawn in.
    fn lane(&self) -> Lane;
    /// How it authenticates its writes.
    fn credentials(&self) -> Credentials;
    /// How its informers authenticate. kube-controller-manager's shared informers list and
    /// watch as the manager itself, while each controller writes as its own service account.
    fn informer_credentials(&self) -> Credentials {
        self.credentials()
    }
    /// What it lists and watches, in the order `Input::Watch::informer` counts.
    fn informers(&self) -> Vec<InformerSpec>;
    fn handle(&mut self, ctx: &mut Ctx<'_>, input: Input);
}

/// A timer or request a component asked for, carried out by the cluster after `handle` returns.
pub(crate) enum Command {
    Timer {
        delay: Millis,
        tag: u64,
        periodic: bool,
    },
}

/// A component's view of the world while it handles one input.
pub struct Ctx<'a> {
    pub(crate) now: Millis,
    pub(crate) api: &'a mut crate::apiserver::ApiServer,
    pub(crate) trace: &'a mut Trace,
    pub(crate) informers: &'a [Informer],
    pub(crate) rng: &'a mut Rng,
    pub(crate) commands: Vec<Command>,
    pub(crate) name: String,
    pub(crate) lane: Lane,
    pub(crate) credentials: Credentials,
}

impl Ctx<'_> {
    pub fn now(&self) -> Millis {
        self.now
    }

    /// The local cache of informer `i`.
    pub fn cache(&self, i: usize) -> &Informer {
        &self.informers[i]
    }

    pub fn rng(&mut self) -> &mut Rng {
        self.rng
    }

    /// A request with this component's identity.
    pub fn request(&self, verb: Verb, resource: &'static ResourceInfo) -> Request {
        Request::new(verb, resource, self.credentials.clone(), &self.name)
    }

    /// Sends a request through kube-apiserver, drawing the arrow.
    pub fn send(&mut self, req: &Request) -> Result<Object, ApiError> {
        let mut rec =
            Record::new(self.now, self.lane, "request", req.line()).peer("kube-apiserver");
        if let Some(n) = &req.name {
            rec = rec.object(match &req.namespace {
                Some(ns) => format!("{} {ns}/{n}", req.resource.kind),
                None => format!("{} {n}", req.resource.kind),
            });
        }
        self.trace.push(rec);
        self.api.handle(self.now, req, self.trace)
    }

    /// Records a step of this component (a reconcile decision, a filter verdict).
    pub fn record(&mut self, action: &'static str, summary: impl Into<String>) {
        self.trace
            .push(Record::new(self.now, self.lane, action, summary));
    }

    /// Records a step built by the component (with object, node or detail).
    pub fn push(&mut self, record: Record) {
        self.trace.push(record);
    }

    /// A record of this component at the current time, to fill in and [`Ctx::push`].
    pub fn new_record(&self, action: &'static str, summary: impl Into<String>) -> Record {
        Record::new(self.now, self.lane, action, summary)
    }

    /// Fires `Input::Timer(tag)` after `delay`. Periodic timers (resyncs, heartbeats) do not
    /// keep the cluster from being quiet.
    pub fn after(&mut self, delay: Millis, tag: u64, periodic: bool) {
        self.commands.push(Command::Timer {
            delay,
            tag,
            periodic,
        });
    }
}
