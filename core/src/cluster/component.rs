//! Components as actors: each receives its informers' watch events and its timers, and answers
//! with API requests and new timers through [`Ctx`]. No component calls another or reads etcd.

use super::informer::Informer;
use crate::api::json::JsonPointer;
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
    /// Indexes the cache keeps besides the key (client-go's `Indexers`).
    pub indexes: Vec<(&'static str, super::informer::IndexFn)>,
}

impl InformerSpec {
    /// The same informer with one more index.
    pub fn indexed(mut self, name: &'static str, f: super::informer::IndexFn) -> Self {
        self.indexes.push((name, f));
        self
    }

    pub fn all(resource: &'static ResourceInfo) -> Self {
        InformerSpec {
            resource,
            namespace: None,
            label_selector: None,
            field_selector: None,
            indexes: Vec::new(),
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

    /// Draws a request's arrow to kube-apiserver; returns the trace mark to settle once the
    /// apiserver has answered.
    fn start_request(&mut self, req: &Request) -> usize {
        let mut rec =
            Record::new(self.now, self.lane, "request", req.line()).peer("kube-apiserver");
        if let Some(n) = &req.name {
            rec = rec.object(object_label(req.resource.kind, req.namespace.as_deref(), n));
        }
        let mark = self.trace.mark();
        self.trace.push(rec);
        mark
    }

    /// Sends a request through kube-apiserver, drawing the arrow.
    pub fn send(&mut self, req: &Request) -> Result<Object, ApiError> {
        let mark = self.start_request(req);
        let before = subject_before(req);
        let now = self.now;
        let api = &mut *self.api;
        let result = self
            .trace
            .about(before.as_deref(), |trace| api.handle(now, req, trace));
        let subject = before.or_else(|| trace_subject(req, result.as_ref().ok()));
        self.trace.settle(mark, subject.as_deref());
        result
    }

    /// [`Ctx::send`] for a request not needed afterwards (its body is handed over, not copied);
    /// the answer is shared with the apiserver's watch cache, not copied.
    pub fn send_owned(&mut self, req: Request) -> crate::apiserver::Reply {
        let mark = self.start_request(&req);
        let before = subject_before(&req);
        let (resource, namespace, name) = (req.resource, req.namespace.clone(), req.name.clone());
        let now = self.now;
        let api = &mut *self.api;
        let result = self
            .trace
            .about(before.as_deref(), |trace| api.handle_owned(now, req, trace));
        let subject = before.or_else(|| {
            subject_of(
                resource,
                namespace.as_deref(),
                name.as_deref(),
                result.as_deref().ok(),
            )
        });
        self.trace.settle(mark, subject.as_deref());
        result
    }

    /// Whether the trace keeps full records about this object (a sampled big run may not):
    /// lets a component skip building a detail nobody will see.
    pub fn traced(&mut self, label: &str) -> bool {
        self.trace.keeps(label)
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

/// What a request's trace records are about, for the trace's sampling: the object it names
/// or creates (`Kind namespace/name`), or the pod an Event is about.
fn trace_subject(req: &Request, response: Option<&Object>) -> Option<String> {
    subject_of(
        req.resource,
        req.namespace.as_deref(),
        req.name.as_deref(),
        response,
    )
}

/// What a request is about when that is known before it is sent: the object it names, or the
/// pod an Event it creates is about. (A create with generateName learns its object's name
/// from the response.) A request about an object the trace only counts is handled muted.
fn subject_before(req: &Request) -> Option<String> {
    if let Some(n) = &req.name {
        return Some(object_label(req.resource.kind, req.namespace.as_deref(), n));
    }
    if req.verb != Verb::Create || req.resource.kind != "Event" {
        return None;
    }
    let ns = req.namespace.as_deref()?;
    let involved = req.body.as_ref()?.get("involvedObject")?;
    match (
        involved.get("kind")?.as_str()?,
        involved.get("name")?.as_str()?,
    ) {
        ("Pod", pod) => Some(object_label("Pod", Some(ns), pod)),
        _ => None,
    }
}

fn subject_of(
    resource: &ResourceInfo,
    namespace: Option<&str>,
    name: Option<&str>,
    response: Option<&Object>,
) -> Option<String> {
    if let Some(n) = name {
        return Some(object_label(resource.kind, namespace, n));
    }
    // A create names its object only in the response (generateName, Events).
    let obj = response?;
    let kind = obj.get("kind").and_then(|k| k.as_str())?;
    let name = obj.lookup("/metadata/name").and_then(|n| n.as_str())?;
    let ns = obj.lookup("/metadata/namespace").and_then(|n| n.as_str());
    match (kind, ns) {
        ("Event", Some(ns)) => {
            let involved = obj.get("involvedObject").or_else(|| obj.get("regarding"))?;
            Some(match involved["kind"].as_str() {
                Some("Pod") => format!("Pod {ns}/{}", involved["name"].as_str().unwrap_or("")),
                _ => format!("Event {ns}/{name}"),
            })
        }
        (kind, ns) => Some(object_label(kind, ns, name)),
    }
}

/// A trace record's object: `Kind namespace/name`, or `Kind name` for a cluster-scoped one.
fn object_label(kind: &str, namespace: Option<&str>, name: &str) -> String {
    match namespace {
        Some(ns) => format!("{kind} {ns}/{name}"),
        None => format!("{kind} {name}"),
    }
}
