//! The Endpoints controller (`pkg/controller/endpoint/endpoints_controller.go`), which keeps the
//! legacy v1 Endpoints object of every Service with a selector: one object named like the
//! Service whose subsets list the ready pods' addresses under `addresses`, the others under
//! `notReadyAddresses`, grouped by the ports they resolve (`RepackSubsets`). Terminating pods
//! are left out unless the Service publishes not-ready addresses. Still run in 1.35, although
//! kube-proxy reads EndpointSlices.

use super::endpointslice::{
    has_ip_and_not_terminal, is_terminating, pod_ip, resolved_ports, service_selector, target_ref,
};
use super::podutil::is_ready;
use super::workqueue::{Delayed, WorkQueue};
use super::{controller_credentials, manager_credentials, WORKER_DELAY_MS};
use crate::api::value::{json, Map, Value};
use crate::api::{meta, resources::for_kind, Object, ResourceInfo};
use crate::apiserver::{Credentials, Verb};
use crate::cluster::component::{Component, Ctx, InformerSpec, Input};
use crate::cluster::informer::key_of;
use crate::controllers::podutil::At;
use crate::trace::Component as Lane;
use std::collections::BTreeMap;

const SERVICES: usize = 0;
const PODS: usize = 1;
const ENDPOINTS: usize = 2;

fn svc_info() -> &'static ResourceInfo {
    for_kind("v1", "Service").expect("services")
}
fn pod_info() -> &'static ResourceInfo {
    for_kind("v1", "Pod").expect("pods")
}
fn endpoints_info() -> &'static ResourceInfo {
    for_kind("v1", "Endpoints").expect("endpoints")
}

/// One subset in the making: its ports, ready and not-ready addresses.
type Group = (Vec<Value>, Vec<Value>, Vec<Value>);

#[derive(Default)]
pub struct EndpointsController {
    queue: WorkQueue,
    delayed: Delayed,
}

/// Sorts addresses by IP, then pod uid (`SortSubsets`).
fn sort_addresses(a: &mut [Value]) {
    crate::api::sorting::sort_by(a, &|x, y| {
        let k = |v: &Value| {
            (
                v["ip"].as_str().unwrap_or("").to_string(),
                v["targetRef"]["uid"].as_str().unwrap_or("").to_string(),
            )
        };
        k(x).cmp(&k(y))
    });
}

impl EndpointsController {
    fn enqueue(&mut self, ctx: &mut Ctx<'_>, key: String) {
        let was_empty = self.queue.is_empty();
        self.queue.add(key);
        if was_empty {
            ctx.after(WORKER_DELAY_MS, 0, false);
        }
    }

    fn enqueue_after(&mut self, ctx: &mut Ctx<'_>, key: String, delay: u64) {
        let tag = self.delayed.add(key);
        ctx.after(delay.max(1), tag, false);
    }

    /// Services a pod event concerns: those whose selector matches it and those whose
    /// Endpoints list it.
    fn on_pod(&mut self, ctx: &mut Ctx<'_>, pod: &Object) {
        let ns = meta::namespace(pod).unwrap_or("").to_string();
        let uid = meta::uid(pod).to_string();
        let mut keys: Vec<String> = ctx
            .cache(SERVICES)
            .in_namespace(&ns)
            .filter(|s| service_selector(s).is_some_and(|sel| sel.matches(meta::labels(pod))))
            .map(key_of)
            .collect();
        for e in ctx.cache(ENDPOINTS).in_namespace(&ns) {
            let lists = e["subsets"].as_array().is_some_and(|ss| {
                ss.iter().any(|s| {
                    ["addresses", "notReadyAddresses"].iter().any(|f| {
                        s[*f].as_array().is_some_and(|a| {
                            a.iter().any(|x| x["targetRef"]["uid"] == uid.as_str())
                        })
                    })
                })
            });
            if lists {
                keys.push(key_of(e));
            }
        }
        for k in keys {
            self.enqueue(ctx, k);
        }
    }

    fn desired_subsets(&self, ctx: &Ctx<'_>, svc: &Object) -> Vec<Value> {
        let Some(sel) = service_selector(svc) else {
            return vec![];
        };
        let ns = meta::namespace(svc).unwrap_or("default");
        let publish_not_ready = svc
            .at(&["spec", "publishNotReadyAddresses"])
            .and_then(Value::as_bool)
            .unwrap_or(false);
        // Port set (as JSON text, for a stable order) -> (ports, ready, not ready).
        let mut groups: BTreeMap<String, Group> = BTreeMap::new();
        for pod in ctx.cache(PODS).in_namespace(ns) {
            if !sel.matches(meta::labels(pod)) || !has_ip_and_not_terminal(pod) {
                continue;
            }
            if is_terminating(pod) && !publish_not_ready {
                continue;
            }
            let ports: Vec<Value> = resolved_ports(svc, pod)
                .into_iter()
                .map(|(name, port, protocol, app)| {
                    let mut p = Map::new();
                    if !name.is_empty() {
                        p.insert("name", json!(name));
                    }
                    p.insert("port", json!(port));
                    p.insert("protocol", json!(protocol));
                    if let Some(a) = app {
                        p.insert("appProtocol", a);
                    }
                    Value::Object(p)
                })
                .collect();
            if ports.is_empty() {
                continue;
            }
            let mut addr = json!({"ip": pod_ip(pod), "targetRef": target_ref(pod)});
            if let Some(node) = pod.at(&["spec", "nodeName"]).and_then(Value::as_str) {
                addr["nodeName"] = json!(node);
            }
            let g = groups
                .entry(Value::Array(ports.clone()).to_string())
                .or_insert_with(|| (ports, vec![], vec![]));
            if publish_not_ready || is_ready(pod) {
                g.1.push(addr);
            } else {
                g.2.push(addr);
            }
        }
        groups
            .into_values()
            .map(|(ports, mut ready, mut not_ready)| {
                sort_addresses(&mut ready);
                sort_addresses(&mut not_ready);
                let mut s = Map::new();
                if !ready.is_empty() {
                    s.insert("addresses", Value::Array(ready));
                }
                if !not_ready.is_empty() {
                    s.insert("notReadyAddresses", Value::Array(not_ready));
                }
                s.insert("ports", Value::Array(ports));
                Value::Object(s)
            })
            .collect()
    }

    fn sync(&mut self, ctx: &mut Ctx<'_>, key: &str) -> Result<(), ()> {
        let (ns, name) = key.split_once('/').unwrap_or(("default", key));
        let (ns, name) = (ns.to_string(), name.to_string());
        let existing = ctx.cache(ENDPOINTS).get(key).cloned();
        let Some(svc) = ctx.cache(SERVICES).get(key).cloned() else {
            // The Service is gone: so are its Endpoints.
            let Some(ep) = existing else { return Ok(()) };
            ctx.record(
                "reconcile",
                format!("endpoint-controller: Service {key} is gone: deleting Endpoints {name}"),
            );
            let req = ctx
                .request(Verb::Delete, endpoints_info())
                .namespace(Some(&ns))
                .name(meta::name(&ep));
            return match ctx.send(&req) {
                Ok(_) => Ok(()),
                Err(e) if e.code == 404 => Ok(()),
                Err(_) => Err(()),
            };
        };
        if service_selector(&svc).is_none() {
            // Selectorless Services (`kubernetes`) have their Endpoints managed elsewhere.
            return Ok(());
        }
        let subsets = self.desired_subsets(ctx, &svc);
        let labels: Map = meta::labels(&svc).cloned().unwrap_or_default();
        let count = |f: &str| {
            subsets
                .iter()
                .filter_map(|s| s[f].as_array())
                .map(Vec::len)
                .sum::<usize>()
        };
        let (ready, not_ready) = (count("addresses"), count("notReadyAddresses"));
        let result = match existing {
            None => {
                ctx.record(
                    "reconcile",
                    format!(
                        "endpoint-controller: Service {key} has no Endpoints: creating them with {ready} ready and {not_ready} not-ready address(es)"
                    ),
                );
                let mut body = json!({
                    "apiVersion": "v1",
                    "kind": "Endpoints",
                    "metadata": {"name": name, "namespace": ns},
                });
                if !labels.is_empty() {
                    body["metadata"]["labels"] = json!(labels);
                }
                if !subsets.is_empty() {
                    body["subsets"] = json!(subsets);
                }
                let req = ctx
                    .request(Verb::Create, endpoints_info())
                    .namespace(Some(&ns))
                    .body(body);
                ctx.send(&req).map(|_| ())
            }
            Some(ep) => {
                let cur = ep
                    .get("subsets")
                    .cloned()
                    .filter(|s| !s.is_null())
                    .unwrap_or(json!([]));
                let cur_labels = meta::labels(&ep).cloned().unwrap_or_default();
                if cur == json!(subsets) && cur_labels == labels {
                    return Ok(());
                }
                ctx.record(
                    "reconcile",
                    format!(
                        "endpoint-controller: Service {key}: updating Endpoints to {ready} ready and {not_ready} not-ready address(es)"
                    ),
                );
                let mut fresh = ep.clone();
                if subsets.is_empty() {
                    if let Some(m) = fresh.as_object_mut() {
                        m.remove("subsets");
                    }
                } else {
                    fresh["subsets"] = json!(subsets);
                }
                meta::set_meta(&mut fresh, "labels", json!(labels));
                let req = ctx
                    .request(Verb::Update, endpoints_info())
                    .namespace(Some(&ns))
                    .name(&name)
                    .body(fresh);
                ctx.send(&req).map(|_| ())
            }
        };
        match result {
            Ok(()) => Ok(()),
            Err(e) if e.code == 404 => Ok(()),
            Err(_) => Err(()),
        }
    }
}

impl Component for EndpointsController {
    fn name(&self) -> String {
        "endpoint-controller".into()
    }
    fn lane(&self) -> Lane {
        Lane::KubeControllerManager
    }
    fn credentials(&self) -> Credentials {
        controller_credentials("endpoint-controller")
    }
    fn informer_credentials(&self) -> Credentials {
        manager_credentials()
    }
    fn informers(&self) -> Vec<InformerSpec> {
        vec![
            InformerSpec::all(svc_info()),
            InformerSpec::all(pod_info()),
            InformerSpec::all(endpoints_info()),
        ]
    }
    fn handle(&mut self, ctx: &mut Ctx<'_>, input: Input) {
        match input {
            Input::Started => {
                let keys: Vec<String> = ctx.cache(SERVICES).list().map(key_of).collect();
                for k in keys {
                    self.enqueue(ctx, k);
                }
            }
            Input::Watch { informer, event } => match informer {
                SERVICES => {
                    let key = key_of(&event.object);
                    self.enqueue(ctx, key);
                }
                PODS => self.on_pod(ctx, &event.object),
                ENDPOINTS => {
                    // Someone changed Endpoints we keep: put them back.
                    let key = key_of(&event.object);
                    if ctx.cache(SERVICES).get(&key).is_some() {
                        self.enqueue(ctx, key);
                    }
                }
                _ => {}
            },
            Input::Timer(0) => {
                while let Some(key) = self.queue.pop() {
                    match self.sync(ctx, &key) {
                        Ok(()) => self.delayed.forget(&key),
                        Err(()) => {
                            let d = self.delayed.backoff_ms(&key);
                            self.enqueue_after(ctx, key, d);
                        }
                    }
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
