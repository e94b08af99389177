//! What every namespace gets: the `default` ServiceAccount (serviceaccounts-controller,
//! `pkg/controller/serviceaccount`) and the `kube-root-ca.crt` ConfigMap
//! (root-ca-cert-publisher, `pkg/controller/certificates/rootcacertpublisher`).

use super::{controller_credentials, workqueue::WorkQueue, WORKER_DELAY_MS};
use crate::api::{meta, resources::for_kind, Object};
use crate::apiserver::{Credentials, Verb};
use crate::cluster::component::{Component, Ctx, InformerSpec, Input};
use crate::controllers::podutil::At;
use crate::json;
use crate::trace::Component as Lane;

const NAMESPACES: usize = 0;
const OWNED: usize = 1;

fn active(ns: &Object) -> bool {
    ns.at(&["metadata", "deletionTimestamp"]).is_none()
}

/// The shared reconcile loop: for each active namespace, make sure one object exists.
trait EnsureInNamespace {
    const NAME: &'static str;
    const SERVICE_ACCOUNT: &'static str;
    fn kind(&self) -> (&'static str, &'static str);
    fn object_name(&self) -> &'static str;
    fn object(&self, ns: &str) -> Object;
    fn queue(&mut self) -> &mut WorkQueue;
}

fn handle<T: EnsureInNamespace>(c: &mut T, ctx: &mut Ctx<'_>, input: Input) {
    match input {
        Input::Started => {
            let keys: Vec<String> = ctx
                .cache(NAMESPACES)
                .list()
                .map(|n| meta::name(n).to_string())
                .collect();
            enqueue_all(c, ctx, keys);
        }
        Input::Watch { informer, event } => {
            // Handlers only compute the key and enqueue it.
            let key = if informer == NAMESPACES {
                (event.kind != "DELETED").then(|| meta::name(&event.object).to_string())
            } else {
                (event.kind == "DELETED" && meta::name(&event.object) == c.object_name())
                    .then(|| meta::namespace(&event.object).unwrap_or("").to_string())
            };
            if let Some(k) = key {
                enqueue_all(c, ctx, vec![k]);
            }
        }
        Input::Timer(_) => {
            while let Some(ns) = c.queue().pop() {
                sync(c, ctx, &ns);
            }
        }
    }
}

fn enqueue_all<T: EnsureInNamespace>(c: &mut T, ctx: &mut Ctx<'_>, keys: Vec<String>) {
    let was_empty = c.queue().is_empty();
    for k in keys {
        c.queue().add(k);
    }
    if was_empty && !c.queue().is_empty() {
        ctx.after(WORKER_DELAY_MS, 0, false);
    }
}

fn sync<T: EnsureInNamespace>(c: &mut T, ctx: &mut Ctx<'_>, ns: &str) {
    let Some(namespace) = ctx.cache(NAMESPACES).get(ns) else {
        return;
    };
    if !active(namespace) {
        return;
    }
    if ctx
        .cache(OWNED)
        .get(&format!("{ns}/{}", c.object_name()))
        .is_some()
    {
        return;
    }
    let (api_version, kind) = c.kind();
    let info = for_kind(api_version, kind).expect("served");
    ctx.record(
        "reconcile",
        format!(
            "{}: namespace {ns:?} has no {kind} {:?}: creating it",
            T::NAME,
            c.object_name()
        ),
    );
    let req = ctx
        .request(Verb::Create, info)
        .namespace(Some(ns))
        .body(c.object(ns));
    // AlreadyExists means a stale cache; the watch event will catch the cache up.
    let _ = ctx.send_owned(req);
}

#[derive(Default)]
pub struct ServiceAccountController {
    queue: WorkQueue,
}

impl EnsureInNamespace for ServiceAccountController {
    const NAME: &'static str = "serviceaccount-controller";
    const SERVICE_ACCOUNT: &'static str = "service-account-controller";
    fn kind(&self) -> (&'static str, &'static str) {
        ("v1", "ServiceAccount")
    }
    fn object_name(&self) -> &'static str {
        "default"
    }
    fn object(&self, ns: &str) -> Object {
        json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "default", "namespace": ns}})
    }
    fn queue(&mut self) -> &mut WorkQueue {
        &mut self.queue
    }
}

#[derive(Default)]
pub struct RootCaPublisher {
    queue: WorkQueue,
}

impl EnsureInNamespace for RootCaPublisher {
    const NAME: &'static str = "root-ca-cert-publisher";
    const SERVICE_ACCOUNT: &'static str = "root-ca-cert-publisher";
    fn kind(&self) -> (&'static str, &'static str) {
        ("v1", "ConfigMap")
    }
    fn object_name(&self) -> &'static str {
        "kube-root-ca.crt"
    }
    fn object(&self, ns: &str) -> Object {
        let mut cm = crate::cluster::bootstrap::root_ca_configmap(ns);
        cm["apiVersion"] = json!("v1");
        cm
    }
    fn queue(&mut self) -> &mut WorkQueue {
        &mut self.queue
    }
}

macro_rules! component {
    ($t:ty, $owned:expr) => {
        impl Component for $t {
            fn name(&self) -> String {
                <$t as EnsureInNamespace>::NAME.to_string()
            }
            fn lane(&self) -> Lane {
                Lane::KubeControllerManager
            }
            fn credentials(&self) -> Credentials {
                controller_credentials(<$t as EnsureInNamespace>::SERVICE_ACCOUNT)
            }
            fn informer_credentials(&self) -> Credentials {
                super::manager_credentials()
            }
            fn informers(&self) -> Vec<InformerSpec> {
                vec![
                    InformerSpec::all(for_kind("v1", "Namespace").expect("namespaces")),
                    InformerSpec::all(for_kind("v1", $owned).expect("served")),
                ]
            }
            fn handle(&mut self, ctx: &mut Ctx<'_>, input: Input) {
                handle(self, ctx, input)
            }
        }
    };
}

component!(ServiceAccountController, "ServiceAccount");
component!(RootCaPublisher, "ConfigMap");
