//! kube-apiserver: authentication, authorization, admission, validation, persistence in etcd,
//! and watch fan-out. Every other component reaches the cluster only through it.

pub mod admission;
pub mod auth;
pub mod bootstrap;
pub mod defaults;
pub mod deprecation;
pub mod limitranger;
pub mod patch;
pub mod quota;
pub mod rbac;
pub mod registry;
pub mod request;
pub mod storage;
pub mod validation;
pub mod watch;

pub use auth::UserInfo;
pub use request::{Credentials, PatchType, Propagation, Request, Verb};
pub use watch::WatchEvent;

use crate::api::json::JsonPointer;
use crate::api::resources::RESOURCES;
use crate::api::{meta, ApiError, Object, ResourceInfo};
use crate::kernel::{Millis, Rng};
use crate::trace::{Component, Record, Trace};
use std::collections::BTreeMap;
use std::rc::Rc;
use storage::Storage;
use watch::{Cacher, ClientWatch, FieldSelector};

/// What a request gets back: the object, shared with the watch cache when it is a stored one
/// (a client that needs it for itself copies it), or the error.
pub type Reply = Result<Rc<Object>, ApiError>;

/// Read access to the objects the apiserver stores, as admission plugins and the RBAC
/// authorizer see them (the real ones read informer caches; the view is the same).
pub trait ObjectLister {
    /// Every object of `resource`, in one namespace or (with `None`) in all of them, in key order.
    fn list(&self, resource: &'static ResourceInfo, namespace: Option<&str>) -> Vec<Object>;

    /// [`ObjectLister::list`] as shared objects (a store that keeps decoded objects need not
    /// copy them).
    fn list_shared(
        &self,
        resource: &'static ResourceInfo,
        namespace: Option<&str>,
    ) -> Vec<std::rc::Rc<Object>> {
        self.list(resource, namespace)
            .into_iter()
            .map(std::rc::Rc::new)
            .collect()
    }

    /// One object by name.
    fn get(
        &self,
        resource: &'static ResourceInfo,
        namespace: Option<&str>,
        name: &str,
    ) -> Option<Object> {
        self.list(resource, namespace)
            .into_iter()
            .find(|o| meta::name(o) == name)
    }

    /// [`ObjectLister::get`] as a shared object (a store that keeps decoded objects need not
    /// copy it just to be looked at).
    fn get_shared(
        &self,
        resource: &'static ResourceInfo,
        namespace: Option<&str>,
        name: &str,
    ) -> Option<std::rc::Rc<Object>> {
        self.get(resource, namespace, name).map(std::rc::Rc::new)
    }

    /// The pods bound to `node` (in one namespace or all), in key order: the Node authorizer's
    /// graph edges from a node to its pods.
    fn pods_on_node(&self, namespace: Option<&str>, node: &str) -> Vec<Object> {
        let Some(pods) = crate::api::resources::for_kind("v1", "Pod") else {
            return Vec::new();
        };
        self.list(pods, namespace)
            .into_iter()
            .filter(|p| p.lookup("/spec/nodeName").and_then(|n| n.as_str()) == Some(node))
            .collect()
    }
}

/// `k8s.io/apimachinery/pkg/util/rand`'s alphabet for generated names: no vowels, no 0, 1 or 3.
pub const NAME_SUFFIX_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// The apiserver, owning its etcd.
pub struct ApiServer {
    pub storage: Storage,
    rng: Rng,
    watches: BTreeMap<u64, ClientWatch>,
    /// The client watches that may have events waiting (a superset: `watches_with_events`
    /// checks), so a delivery round looks at those, not at every watch.
    ready: std::collections::BTreeSet<u64>,
    /// The watch cache: one etcd watch per watched resource, by its key prefix.
    cachers: BTreeMap<String, Cacher>,
    decoded: watch::DecodeCache,
    next_watch: u64,
    /// Index of the next ClusterIP in 10.96.0.0/12 (.1 is the `kubernetes` Service).
    next_service_ip: u32,
    /// Events are attached to a one-hour lease; one lease is shared per minute, as the
    /// apiserver's lease manager reuses them.
    event_lease: Option<(i64, Millis)>,
    /// RBAC's parsed policy, refreshed when Roles or bindings change.
    authorizer: rbac::Authorizer,
    /// The `Warning` headers of the last response.
    warnings: Vec<String>,
    /// The items of the last list asked for with [`Request::share_items`].
    list_items: Vec<Rc<Object>>,
}

/// Who the request is from, after authentication and impersonation.
pub struct Authenticated {
    pub user: UserInfo,
}

impl ApiServer {
    pub fn new(seed: u64) -> Self {
        let mut storage = Storage::new();
        // The RBAC authorizer and the admission plugins read these resources from informers:
        // keep them decoded, so reading them after a write does not parse them again.
        let policy = RESOURCES.iter().filter(|r| rbac::is_policy_resource(r));
        for r in policy.chain(admission::informer_resources()) {
            storage.watch_prefix(&r.etcd_list_prefix(None));
        }
        ApiServer {
            storage,
            rng: Rng::stream(seed, "kube-apiserver"),
            watches: BTreeMap::new(),
            ready: Default::default(),
            cachers: BTreeMap::new(),
            decoded: watch::DecodeCache::default(),
            next_watch: 1,
            next_service_ip: 1,
            event_lease: None,
            authorizer: rbac::Authorizer::new(),
            warnings: Vec::new(),
            list_items: Vec::new(),
        }
    }

    /// The `Warning` headers of the last response (`299 - "..."`), for its client to show.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The items of the last list whose request set [`Request::share_items`] (its response's
    /// `items` is left empty): the stored objects themselves, not copies.
    pub fn take_list_items(&mut self) -> Vec<Rc<Object>> {
        std::mem::take(&mut self.list_items)
    }

    /// Forgets the last response's warnings (a request answered elsewhere has none).
    pub fn clear_warnings(&mut self) {
        self.warnings.clear();
    }

    /// Handles one request, recording each stage in `trace`.
    pub fn handle(
        &mut self,
        now: Millis,
        req: &Request,
        trace: &mut Trace,
    ) -> Result<Object, ApiError> {
        // A deprecated type's handlers add their warning before they run.
        self.warnings = deprecation::warning(req.resource).into_iter().collect();
        let result = self.handle_inner(now, req, trace);
        self.respond(now, req, result, trace)
            .map(Rc::unwrap_or_clone)
    }

    /// [`ApiServer::handle`] for a request the caller is done with (its body is used, not
    /// copied), answered with the object shared, not copied.
    pub fn handle_owned(&mut self, now: Millis, mut req: Request, trace: &mut Trace) -> Reply {
        self.warnings = deprecation::warning(req.resource).into_iter().collect();
        let result = match self.authenticate(now, &req, trace) {
            Ok(auth) => self
                .authorize(now, &req, &auth.user, trace)
                .and_then(|()| registry::dispatch_owned(self, now, &mut req, &auth.user, trace)),
            Err(e) => Err(e),
        };
        self.respond(now, &req, result, trace)
    }

    /// The response record of a request, and its result.
    fn respond(&mut self, now: Millis, req: &Request, result: Reply, trace: &mut Trace) -> Reply {
        if result.is_ok() && !matches!(req.verb, Verb::Get | Verb::List | Verb::Watch) {
            self.authorizer.observe_write(req.resource);
        }
        // Not built while nothing is recorded (the cluster's own bootstrap), or only counted (a
        // request about an object the trace leaves out).
        let warnings = &self.warnings;
        trace.push_with(Component::KubeApiserver, "response", || {
            let (code, text) = match &result {
                Ok(_) => match req.verb {
                    Verb::Create => (201, "Created".to_string()),
                    _ => (200, "OK".to_string()),
                },
                Err(e) => (e.code, e.reason.to_string()),
            };
            let mut summary = format!("{code} {text}");
            match &result {
                Ok(obj)
                    if obj.get("metadata").is_some() && !meta::resource_version(obj).is_empty() =>
                {
                    let label = object_label(obj);
                    if !label.trim().is_empty() && req.verb != Verb::List {
                        summary.push_str(&format!(" {label}"));
                    }
                    summary.push_str(&format!(
                        " (resourceVersion {})",
                        meta::resource_version(obj)
                    ));
                }
                Err(e) => summary.push_str(&format!(": {}", e.message)),
                _ => {}
            }
            let mut rec = Record::new(now, Component::KubeApiserver, "response", summary)
                .peer(req.client.clone())
                .detail("code", code.into());
            if !warnings.is_empty() {
                rec = rec.detail("warnings", warnings.clone().into());
            }
            rec
        });
        result
    }

    /// The apiserver's own writes (its post-start hooks create the bootstrap namespaces, RBAC
    /// policy and the `kubernetes` Service through a privileged loopback client): admission,
    /// validation and storage as usual, without authentication and authorization.
    pub fn handle_loopback(
        &mut self,
        now: Millis,
        req: &Request,
        trace: &mut Trace,
    ) -> Result<Object, ApiError> {
        let user = UserInfo::new(
            "system:apiserver",
            &["system:masters", "system:authenticated"],
        );
        let result = registry::dispatch(self, now, req, &user, trace);
        if result.is_ok() {
            self.authorizer.observe_write(req.resource);
        }
        result.map(Rc::unwrap_or_clone)
    }

    /// [`ApiServer::handle_loopback`] for a request the caller is done with, answered with the
    /// object shared, not copied.
    pub fn handle_loopback_owned(
        &mut self,
        now: Millis,
        mut req: Request,
        trace: &mut Trace,
    ) -> Reply {
        let user = UserInfo::new(
            "system:apiserver",
            &["system:masters", "system:authenticated"],
        );
        let result = registry::dispatch_owned(self, now, &mut req, &user, trace);
        if result.is_ok() {
            self.authorizer.observe_write(req.resource);
        }
        result
    }

    fn handle_inner(&mut self, now: Millis, req: &Request, trace: &mut Trace) -> Reply {
        let auth = self.authenticate(now, req, trace)?;
        self.authorize(now, req, &auth.user, trace)?;
        registry::dispatch(self, now, req, &auth.user, trace)
    }

    /// Step 5: authentication, then impersonation (`kubectl --as`), which must itself be allowed.
    pub fn authenticate(
        &mut self,
        now: Millis,
        req: &Request,
        trace: &mut Trace,
    ) -> Result<Authenticated, ApiError> {
        let (user, how) = match &req.credentials {
            Credentials::ClientCertificate {
                common_name,
                organizations,
            } => {
                let mut groups = organizations.clone();
                groups.push("system:authenticated".into());
                (
                    UserInfo {
                        name: common_name.clone(),
                        groups,
                    },
                    "x509 client certificate",
                )
            }
            Credentials::ServiceAccountToken { namespace, name } => (
                UserInfo {
                    name: format!("system:serviceaccount:{namespace}:{name}"),
                    groups: vec![
                        "system:serviceaccounts".into(),
                        format!("system:serviceaccounts:{namespace}"),
                        "system:authenticated".into(),
                    ],
                },
                "service account token",
            ),
            Credentials::None => {
                trace.push(Record::new(
                    now,
                    Component::KubeApiserver,
                    "authenticate",
                    "no credentials: 401 Unauthorized",
                ));
                return Err(ApiError::unauthorized());
            }
        };
        trace.push_with(Component::KubeApiserver, "authenticate", || {
            Record::new(
                now,
                Component::KubeApiserver,
                "authenticate",
                format!(
                    "user {:?} (groups: {}) by {how}",
                    user.name,
                    user.groups.join(", ")
                ),
            )
        });
        let Some(target) = &req.impersonate_user else {
            return Ok(Authenticated { user });
        };
        let attrs = rbac::Attributes {
            user: &user,
            verb: "impersonate",
            group: "",
            resource: "users",
            subresource: "",
            namespace: "",
            name: target,
            path: "",
            resource_request: true,
        };
        if let rbac::Decision::Deny { reason } = rbac::authorize(&attrs, &self.storage) {
            trace.push(Record::new(
                now,
                Component::KubeApiserver,
                "impersonate",
                format!("{:?} may not impersonate {target:?}", user.name),
            ));
            return Err(rbac::forbidden_error(&attrs, &reason));
        }
        let mut groups = req.impersonate_groups.clone();
        if let Some(rest) = target.strip_prefix("system:serviceaccount:") {
            let ns = rest.split(':').next().unwrap_or_default();
            groups.push("system:serviceaccounts".into());
            groups.push(format!("system:serviceaccounts:{ns}"));
        }
        groups.push("system:authenticated".into());
        let impersonated = UserInfo {
            name: target.clone(),
            groups,
        };
        trace.push(Record::new(
            now,
            Component::KubeApiserver,
            "impersonate",
            format!(
                "{:?} acts as user {:?} (groups: {})",
                user.name,
                impersonated.name,
                impersonated.groups.join(", ")
            ),
        ));
        Ok(Authenticated { user: impersonated })
    }

    /// Step 6: RBAC.
    fn authorize(
        &mut self,
        now: Millis,
        req: &Request,
        user: &UserInfo,
        trace: &mut Trace,
    ) -> Result<(), ApiError> {
        let name = match req.verb {
            Verb::Create if req.subresource.is_none() => "",
            _ => req.name.as_deref().unwrap_or(""),
        };
        let attrs = rbac::Attributes {
            user,
            verb: req.verb.rbac(),
            group: req.resource.group,
            resource: req.resource.plural,
            subresource: req.subresource.as_deref().unwrap_or(""),
            namespace: req.namespace.as_deref().unwrap_or(""),
            name,
            path: "",
            resource_request: true,
        };
        match self
            .authorizer
            .authorize(&attrs, req.field_selector.as_deref(), &self.storage)
        {
            rbac::Decision::Allow { reason } => {
                trace.push_with(Component::KubeApiserver, "authorize", || {
                    Record::new(now, Component::KubeApiserver, "authorize", reason)
                });
                Ok(())
            }
            rbac::Decision::Deny { reason } => {
                let err = rbac::forbidden_error(&attrs, &reason);
                trace.push(Record::new(
                    now,
                    Component::KubeApiserver,
                    "authorize",
                    format!("denied: {}", err.message),
                ));
                Err(err)
            }
        }
    }

    /// A SelfSubjectAccessReview (`kubectl auth can-i`): may the requesting user do `verb` on
    /// the request's resource? Authentication and impersonation apply as for any request.
    pub fn access_review(
        &mut self,
        now: Millis,
        req: &Request,
        verb: &str,
        trace: &mut Trace,
    ) -> Result<bool, ApiError> {
        let auth = self.authenticate(now, req, trace)?;
        let attrs = rbac::Attributes {
            user: &auth.user,
            verb,
            group: req.resource.group,
            resource: req.resource.plural,
            subresource: req.subresource.as_deref().unwrap_or(""),
            namespace: req.namespace.as_deref().unwrap_or(""),
            name: req.name.as_deref().unwrap_or(""),
            path: "",
            resource_request: true,
        };
        let (allowed, reason) = match rbac::authorize(&attrs, &self.storage) {
            rbac::Decision::Allow { reason } => (true, reason),
            rbac::Decision::Deny { reason } => (
                false,
                if reason.is_empty() {
                    "no RBAC rule allows it".to_string()
                } else {
                    reason
                },
            ),
        };
        trace.push(Record::new(
            now,
            Component::KubeApiserver,
            "authorize",
            format!(
                "SelfSubjectAccessReview: {} {verb} {}: {reason}",
                auth.user.name,
                req.resource.group_resource()
            ),
        ));
        trace.push(
            Record::new(
                now,
                Component::KubeApiserver,
                "response",
                format!("201 Created SelfSubjectAccessReview (allowed: {allowed})"),
            )
            .peer(req.client.clone())
            .detail("code", 201.into()),
        );
        Ok(allowed)
    }

    /// Starts a watch for a client; events are collected with [`ApiServer::take_watch_events`].
    pub fn watch(
        &mut self,
        now: Millis,
        req: &Request,
        trace: &mut Trace,
    ) -> Result<u64, ApiError> {
        let auth = self.authenticate(now, req, trace)?;
        self.authorize(now, req, &auth.user, trace)?;
        let labels = match &req.label_selector {
            Some(s) => crate::api::selector::Selector::parse(s).map_err(ApiError::bad_request)?,
            None => crate::api::selector::Selector::everything(),
        };
        let fields = match &req.field_selector {
            Some(s) => Some(FieldSelector::parse(s).map_err(ApiError::bad_request)?),
            None => None,
        };
        let start = match req.resource_version.as_deref() {
            None | Some("") | Some("0") => 0,
            Some(rv) => {
                rv.parse::<i64>()
                    .map_err(|_| ApiError::bad_request(format!("invalid resource version: {rv}")))?
                    + 1
            }
        };
        let expired = |e: crate::etcd::EtcdError| {
            let mut err = ApiError::bad_request(format!("too old resource version: {}", start - 1));
            err.code = 410;
            err.reason = "Expired";
            if !matches!(e, crate::etcd::EtcdError::Compacted) {
                err.message = e.to_string();
            }
            err
        };
        // Existing watches are brought up to date first, so the new one's history ends exactly
        // where the cacher's dispatch goes on.
        self.pump();
        let key_prefix = req.resource.etcd_list_prefix(req.namespace.as_deref());
        let history = if start > 0 {
            self.storage
                .etcd
                .changes(&key_prefix, true, start)
                .map_err(expired)?
        } else {
            Vec::new()
        };
        let resource_prefix = req.resource.etcd_list_prefix(None);
        if !self.cachers.contains_key(&resource_prefix) {
            self.storage.watch_prefix(&resource_prefix);
            let etcd_watch = self
                .storage
                .etcd
                .watch(&resource_prefix, true, 0)
                .map_err(expired)?;
            self.cachers.insert(
                resource_prefix.clone(),
                Cacher::new(req.resource, etcd_watch),
            );
        }
        let from = if start > 0 {
            start
        } else {
            self.storage.etcd.revision() + 1
        };
        let mut client = ClientWatch::new(
            req.resource,
            req.namespace.clone(),
            labels,
            fields,
            req.client.clone(),
            from,
        );
        Cacher::replay(&mut client, history, &mut self.decoded, &self.storage);
        let id = self.next_watch;
        self.next_watch += 1;
        if let Some(c) = self.cachers.get_mut(&resource_prefix) {
            c.add(id, &client);
        }
        if client.has_events() {
            self.ready.insert(id);
        }
        self.watches.insert(id, client);
        trace.push(
            Record::new(
                now,
                Component::KubeApiserver,
                "watch.start",
                format!("{} watches {}", req.client, req.line()),
            )
            .peer(req.client.clone()),
        );
        Ok(id)
    }

    /// Hands the changes etcd has for the watch cache to the client watches they concern.
    fn pump(&mut self) {
        if !self.storage.etcd.events_waiting() {
            return;
        }
        for cacher in self.cachers.values() {
            let events = self.storage.etcd.take_events(cacher.etcd_watch());
            if !events.is_empty() {
                cacher.dispatch(
                    events,
                    &mut self.watches,
                    &mut self.ready,
                    &mut self.decoded,
                    &self.storage,
                );
            }
        }
    }

    /// The events waiting for client watch `id`, in revision order.
    pub fn take_watch_events(&mut self, id: u64) -> Vec<WatchEvent> {
        self.pump();
        self.ready.remove(&id);
        self.watches
            .get_mut(&id)
            .map(ClientWatch::take)
            .unwrap_or_default()
    }

    /// Forgets the objects decoded for the last delivery round (they live on in the events
    /// and caches that hold them).
    pub fn end_watch_round(&mut self) {
        self.decoded = watch::DecodeCache::default();
        self.storage.end_watch_round();
    }

    /// Ends a client watch; undelivered events are dropped.
    pub fn stop_watch(&mut self, id: u64) {
        self.ready.remove(&id);
        if let Some(w) = self.watches.remove(&id) {
            let prefix = w.resource.etcd_list_prefix(None);
            if let Some(c) = self.cachers.get_mut(&prefix) {
                c.remove(id, &w);
            }
        }
    }

    /// The client watches with events waiting, in the order they were started.
    pub fn watches_with_events(&mut self) -> Vec<u64> {
        self.pump();
        let watches = &self.watches;
        self.ready
            .retain(|id| watches.get(id).is_some_and(ClientWatch::has_events));
        self.ready.iter().copied().collect()
    }

    pub(crate) fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }

    /// The next free ClusterIP in the default service CIDR 10.96.0.0/12.
    pub(crate) fn allocate_cluster_ip(&mut self) -> String {
        let existing: std::collections::BTreeSet<String> = self
            .storage
            .list(
                crate::api::resources::for_kind("v1", "Service").expect("services"),
                None,
            )
            .0
            .iter()
            .filter_map(|s| {
                s.lookup("/spec/clusterIP")
                    .and_then(|v| v.as_str())
                    .map(str::to_string)
            })
            .collect();
        loop {
            let i = self.next_service_ip;
            self.next_service_ip += 1;
            let ip = format!("10.{}.{}.{}", 96 + (i >> 16), (i >> 8) & 0xff, i & 0xff);
            if !existing.contains(&ip) {
                return ip;
            }
        }
    }

    /// The lease new Events are attached to (one hour, `--event-ttl`).
    pub(crate) fn event_lease(&mut self, now: Millis) -> i64 {
        match self.event_lease {
            Some((id, granted)) if now < granted + 60_000 => id,
            _ => {
                let id = self.storage.etcd.lease_grant(3600, now);
                self.event_lease = Some((id, now));
                id
            }
        }
    }
}

/// `Deployment default/web`, `Node node-1`: how the trace names an object.
pub fn object_label(obj: &Object) -> String {
    match meta::namespace(obj) {
        Some(ns) => [meta::kind(obj), " ", ns, "/", meta::name(obj)].concat(),
        None => [meta::kind(obj), " ", meta::name(obj)].concat(),
    }
}
