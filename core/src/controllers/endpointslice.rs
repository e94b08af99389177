//! The EndpointSlice controller (`pkg/controller/endpointslice/`, reconciler in
//! `staging/src/k8s.io/endpointslice/reconciler.go`): for every Service with a selector it keeps
//! one `IPv4` EndpointSlice listing the pods that match the selector and have an IP, with their
//! `ready`, `serving` and `terminating` conditions and the Service's ports resolved against each
//! pod's container ports. Slices of Services that are gone are deleted.
//!
//! Simplifications: one slice per Service (no 100-endpoint split and no grouping by port set:
//! the ports are those resolved on the first endpoint's pod), IPv4 only.

use super::podutil::{controller_ref_to, is_ready};
use super::workqueue::{Delayed, WorkQueue};
use super::{controller_credentials, manager_credentials, WORKER_DELAY_MS};
use crate::api::value::{json, Map, Value};
use crate::api::{meta, resources::for_kind, selector::Selector, Object, ResourceInfo};
use crate::apiserver::{Credentials, Verb};
use crate::cluster::component::{Component, Ctx, InformerSpec, Input};
use crate::cluster::informer::key_of;
use crate::controllers::podutil::At;
use crate::trace::Component as Lane;
use std::collections::BTreeMap;

const SERVICES: usize = 0;
const PODS: usize = 1;
const SLICES: usize = 2;
const NODES: usize = 3;

/// Label naming the Service a slice belongs to.
pub const SERVICE_NAME_LABEL: &str = "kubernetes.io/service-name";
/// Label naming the controller that manages a slice.
pub const MANAGED_BY_LABEL: &str = "endpointslice.kubernetes.io/managed-by";
/// This controller's value of [`MANAGED_BY_LABEL`].
pub const MANAGED_BY: &str = "endpointslice-controller.k8s.io";

fn svc_info() -> &'static ResourceInfo {
    for_kind("v1", "Service").expect("services")
}
fn pod_info() -> &'static ResourceInfo {
    for_kind("v1", "Pod").expect("pods")
}
fn slice_info() -> &'static ResourceInfo {
    for_kind("discovery.k8s.io/v1", "EndpointSlice").expect("endpointslices")
}
fn node_info() -> &'static ResourceInfo {
    for_kind("v1", "Node").expect("nodes")
}

/// The Service's selector when it has one (`spec.selector` is a plain label map); Services
/// without one (like `kubernetes`) have their endpoints managed by someone else.
pub(crate) fn service_selector(svc: &Object) -> Option<Selector> {
    if svc.at(&["spec", "type"]).and_then(Value::as_str) == Some("ExternalName") {
        return None;
    }
    let sel = svc.at(&["spec", "selector"])?.as_object()?;
    if sel.is_empty() {
        return None;
    }
    Selector::from_label_selector(Some(&json!({ "matchLabels": sel }))).ok()
}

/// Pods that can back a Service: an IP, not finished (`ShouldPodBeInEndpoints`).
pub(crate) fn has_ip_and_not_terminal(pod: &Object) -> bool {
    let phase = pod
        .at(&["status", "phase"])
        .and_then(Value::as_str)
        .unwrap_or("");
    let ip = pod
        .at(&["status", "podIP"])
        .and_then(Value::as_str)
        .unwrap_or("");
    !ip.is_empty() && !matches!(phase, "Succeeded" | "Failed")
}

pub(crate) fn is_terminating(pod: &Object) -> bool {
    pod.at(&["metadata", "deletionTimestamp"]).is_some()
}

/// `podutil.FindPort`: a numeric targetPort as is, a named one looked up among the pod's
/// container ports of the same protocol; a missing targetPort means the Service port.
pub(crate) fn find_port(pod: &Object, svc_port: &Value) -> Option<i64> {
    let protocol = svc_port["protocol"].as_str().unwrap_or("TCP");
    match &svc_port["targetPort"] {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => {
            if let Ok(n) = s.parse::<i64>() {
                return Some(n);
            }
            let containers = pod.at(&["spec", "containers"]).and_then(Value::as_array)?;
            containers
                .iter()
                .filter_map(|c| c["ports"].as_array())
                .flatten()
                .find(|p| {
                    p["name"].as_str() == Some(s.as_str())
                        && p["protocol"].as_str().unwrap_or("TCP") == protocol
                })
                .and_then(|p| p["containerPort"].as_i64())
        }
        _ => svc_port["port"].as_i64(),
    }
}

/// The Service's ports as seen on one pod: `(name, port, protocol, appProtocol)`, skipping those
/// the pod does not expose.
pub(crate) fn resolved_ports(
    svc: &Object,
    pod: &Object,
) -> Vec<(String, i64, String, Option<Value>)> {
    svc.at(&["spec", "ports"])
        .and_then(Value::as_array)
        .map(|ports| {
            ports
                .iter()
                .filter_map(|p| {
                    let port = find_port(pod, p)?;
                    Some((
                        p["name"].as_str().unwrap_or("").to_string(),
                        port,
                        p["protocol"].as_str().unwrap_or("TCP").to_string(),
                        p.get("appProtocol").cloned(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default()
}

pub(crate) fn pod_ip(pod: &Object) -> &str {
    pod.at(&["status", "podIP"])
        .and_then(Value::as_str)
        .unwrap_or("")
}

pub(crate) fn target_ref(pod: &Object) -> Value {
    json!({
        "kind": "Pod",
        "namespace": meta::namespace(pod).unwrap_or("default"),
        "name": meta::name(pod),
        "uid": meta::uid(pod),
    })
}

fn resource_version(o: &Object) -> i64 {
    meta::resource_version(o).parse().unwrap_or(0)
}

#[derive(Default)]
pub struct EndpointSliceController {
    queue: WorkQueue,
    delayed: Delayed,
    /// Per Service key, the slices this controller wrote and the resourceVersion it got back
    /// (`None`: deleted), until the informer shows them (`EndpointSliceTracker`): a sync on a
    /// cache that has not caught up would create a second slice.
    written: BTreeMap<String, BTreeMap<String, Option<i64>>>,
}

impl EndpointSliceController {
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

    /// This controller's slices of Service `ns/name`, by name.
    fn slices_of(ctx: &Ctx<'_>, ns: &str, name: &str) -> Vec<Object> {
        ctx.cache(SLICES)
            .in_namespace(ns)
            .filter(|s| {
                let l = meta::labels(s);
                l.and_then(|l| l.get(SERVICE_NAME_LABEL))
                    .and_then(Value::as_str)
                    == Some(name)
                    && l.and_then(|l| l.get(MANAGED_BY_LABEL))
                        .and_then(Value::as_str)
                        == Some(MANAGED_BY)
            })
            .cloned()
            .collect()
    }

    /// Services a pod event concerns: those whose selector matches it now, and those whose
    /// slice lists it (it may have stopped matching or be gone).
    fn on_pod(&mut self, ctx: &mut Ctx<'_>, pod: &Object) {
        let ns = meta::namespace(pod).unwrap_or("").to_string();
        let uid = meta::uid(pod).to_string();
        let mut keys: Vec<String> = ctx
            .cache(SERVICES)
            .in_namespace(&ns)
            .filter(|s| service_selector(s).is_some_and(|sel| sel.matches(meta::labels(pod))))
            .map(key_of)
            .collect();
        for s in ctx.cache(SLICES).in_namespace(&ns) {
            let lists = s["endpoints"]
                .as_array()
                .is_some_and(|eps| eps.iter().any(|e| e["targetRef"]["uid"] == uid.as_str()));
            if lists {
                if let Some(svc) = meta::labels(s)
                    .and_then(|l| l.get(SERVICE_NAME_LABEL))
                    .and_then(Value::as_str)
                {
                    keys.push(format!("{ns}/{svc}"));
                }
            }
        }
        for k in keys {
            self.enqueue(ctx, k);
        }
    }

    /// True when the cache shows every write this controller made for `key`.
    fn cache_caught_up(&mut self, ctx: &Ctx<'_>, key: &str, ns: &str) -> bool {
        let Some(w) = self.written.get_mut(key) else {
            return true;
        };
        w.retain(|name, rv| {
            let cached = ctx.cache(SLICES).get(&format!("{ns}/{name}"));
            match (rv, cached) {
                (Some(rv), Some(c)) => resource_version(c) < *rv,
                (Some(_), None) => true,
                (None, Some(_)) => true,
                (None, None) => false,
            }
        });
        let ok = w.is_empty();
        if ok {
            self.written.remove(key);
        }
        ok
    }

    fn note_write(&mut self, key: &str, name: &str, rv: Option<i64>) {
        self.written
            .entry(key.to_string())
            .or_default()
            .insert(name.to_string(), rv);
    }

    fn delete_slice(&mut self, ctx: &mut Ctx<'_>, key: &str, slice: &Object) -> Result<(), ()> {
        let req = ctx
            .request(Verb::Delete, slice_info())
            .namespace(meta::namespace(slice))
            .name(meta::name(slice));
        match ctx.send(&req) {
            Ok(_) => {
                self.note_write(key, meta::name(slice), None);
                Ok(())
            }
            Err(e) if e.code == 404 => Ok(()),
            Err(_) => Err(()),
        }
    }

    /// The endpoints and ports the Service's slice should list.
    fn desired(&self, ctx: &Ctx<'_>, svc: &Object, sel: &Selector) -> (Vec<Value>, Vec<Value>) {
        let ns = meta::namespace(svc).unwrap_or("default");
        let publish_not_ready = svc
            .at(&["spec", "publishNotReadyAddresses"])
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let mut pods: Vec<&Object> = ctx
            .cache(PODS)
            .in_namespace(ns)
            .filter(|p| sel.matches(meta::labels(p)) && has_ip_and_not_terminal(p))
            .collect();
        crate::api::sorting::sort_by(&mut pods, &|a, b| meta::name(a).cmp(meta::name(b)));
        let mut ports: Option<Vec<Value>> = None;
        let mut endpoints = Vec::new();
        for pod in pods {
            let resolved = resolved_ports(svc, pod);
            let port_json: Vec<Value> = resolved
                .into_iter()
                .map(|(name, port, protocol, app)| {
                    let mut p = json!({"name": name, "port": port, "protocol": protocol});
                    if let Some(a) = app {
                        p["appProtocol"] = a;
                    }
                    p
                })
                .collect();
            match &ports {
                None => ports = Some(port_json),
                Some(p) if *p != port_json => continue,
                Some(_) => {}
            }
            let terminating = is_terminating(pod);
            let serving = publish_not_ready || is_ready(pod);
            let mut ep = json!({
                "addresses": [pod_ip(pod)],
                "conditions": {
                    "ready": serving && (publish_not_ready || !terminating),
                    "serving": serving,
                    "terminating": terminating,
                },
                "targetRef": target_ref(pod),
            });
            if let Some(node) = pod.at(&["spec", "nodeName"]).and_then(Value::as_str) {
                ep["nodeName"] = json!(node);
                if let Some(zone) = ctx
                    .cache(NODES)
                    .get(node)
                    .and_then(|n| meta::labels(n))
                    .and_then(|l| l.get("topology.kubernetes.io/zone"))
                {
                    ep["zone"] = zone.clone();
                }
            }
            endpoints.push(ep);
        }
        (endpoints, ports.unwrap_or_default())
    }

    fn sync(&mut self, ctx: &mut Ctx<'_>, key: &str) -> Result<(), ()> {
        let (ns, name) = key.split_once('/').unwrap_or(("default", key));
        let (ns, name) = (ns.to_string(), name.to_string());
        if !self.cache_caught_up(ctx, key, &ns) {
            // The informer has not yet shown our last write; its watch event requeues us.
            return Ok(());
        }
        let existing = Self::slices_of(ctx, &ns, &name);
        let svc = ctx.cache(SERVICES).get(key).cloned();
        let Some(svc) = svc.filter(|s| s.at(&["metadata", "deletionTimestamp"]).is_none()) else {
            if !existing.is_empty() {
                ctx.record(
                    "reconcile",
                    format!(
                        "endpointslice-controller: Service {key} is gone: deleting its EndpointSlice(s) {}",
                        existing.iter().map(meta::name).collect::<Vec<_>>().join(", ")
                    ),
                );
            }
            let mut err = false;
            for s in &existing {
                err |= self.delete_slice(ctx, key, s).is_err();
            }
            return if err { Err(()) } else { Ok(()) };
        };
        let Some(sel) = service_selector(&svc) else {
            return Ok(());
        };
        let (endpoints, ports) = self.desired(ctx, &svc, &sel);
        let mut labels: Map = meta::labels(&svc).cloned().unwrap_or_default();
        labels.insert(SERVICE_NAME_LABEL, json!(name));
        labels.insert(MANAGED_BY_LABEL, json!(MANAGED_BY));
        let owner = json!([controller_ref_to(&svc)]);
        let ready = endpoints
            .iter()
            .filter(|e| e["conditions"]["ready"] == true)
            .count();
        let summary_ports = ports
            .iter()
            .map(|p| p["port"].to_string())
            .collect::<Vec<_>>()
            .join(",");

        let mut existing = existing;
        crate::api::sorting::sort_by(&mut existing, &|a, b| meta::name(a).cmp(meta::name(b)));
        let mut err = false;
        if existing.len() > 1 {
            // Keep the first, delete the rest.
            for s in existing.split_off(1) {
                err |= self.delete_slice(ctx, key, &s).is_err();
            }
        }
        match existing.into_iter().next() {
            None => {
                ctx.record(
                    "reconcile",
                    format!(
                        "endpointslice-controller: Service {key} has no EndpointSlice: creating one with {} endpoint(s) ({ready} ready), port(s) [{summary_ports}]",
                        endpoints.len()
                    ),
                );
                let mut body = json!({
                    "apiVersion": "discovery.k8s.io/v1",
                    "kind": "EndpointSlice",
                    "metadata": {
                        "generateName": format!("{name}-"),
                        "namespace": ns,
                        "labels": labels,
                        "ownerReferences": owner,
                    },
                    "addressType": "IPv4",
                    "endpoints": endpoints,
                });
                if !ports.is_empty() {
                    body["ports"] = json!(ports);
                }
                let req = ctx
                    .request(Verb::Create, slice_info())
                    .namespace(Some(&ns))
                    .body(body);
                match ctx.send(&req) {
                    Ok(created) => {
                        let rv = resource_version(&created);
                        self.note_write(key, meta::name(&created), Some(rv));
                    }
                    Err(_) => err = true,
                }
            }
            Some(slice) => {
                let cur_ports = slice
                    .get("ports")
                    .cloned()
                    .filter(|p| !p.is_null())
                    .unwrap_or(json!([]));
                let cur_eps = slice
                    .get("endpoints")
                    .cloned()
                    .filter(|p| !p.is_null())
                    .unwrap_or(json!([]));
                let same = cur_ports == json!(ports)
                    && cur_eps == json!(endpoints)
                    && meta::labels(&slice) == Some(&labels)
                    && slice.at(&["metadata", "ownerReferences"]) == Some(&owner);
                if !same {
                    ctx.record(
                        "reconcile",
                        format!(
                            "endpointslice-controller: Service {key}: updating EndpointSlice {} to {} endpoint(s) ({ready} ready), port(s) [{summary_ports}]",
                            meta::name(&slice),
                            endpoints.len()
                        ),
                    );
                    let mut fresh = slice.clone();
                    fresh["endpoints"] = json!(endpoints);
                    if ports.is_empty() {
                        if let Some(m) = fresh.as_object_mut() {
                            m.remove("ports");
                        }
                    } else {
                        fresh["ports"] = json!(ports);
                    }
                    meta::set_meta(&mut fresh, "labels", json!(labels));
                    meta::set_meta(&mut fresh, "ownerReferences", owner);
                    let req = ctx
                        .request(Verb::Update, slice_info())
                        .namespace(Some(&ns))
                        .name(meta::name(&slice))
                        .body(fresh);
                    match ctx.send(&req) {
                        Ok(updated) => {
                            let rv = resource_version(&updated);
                            self.note_write(key, meta::name(&updated), Some(rv));
                        }
                        Err(e) if e.code == 404 => {}
                        Err(_) => err = true,
                    }
                }
            }
        }
        if err {
            Err(())
        } else {
            Ok(())
        }
    }
}

impl Component for EndpointSliceController {
    fn name(&self) -> String {
        "endpointslice-controller".into()
    }
    fn lane(&self) -> Lane {
        Lane::KubeControllerManager
    }
    fn credentials(&self) -> Credentials {
        controller_credentials("endpointslice-controller")
    }
    fn informer_credentials(&self) -> Credentials {
        manager_credentials()
    }
    fn informers(&self) -> Vec<InformerSpec> {
        vec![
            InformerSpec::all(svc_info()),
            InformerSpec::all(pod_info()),
            InformerSpec::all(slice_info()),
            InformerSpec::all(node_info()),
        ]
    }
    fn handle(&mut self, ctx: &mut Ctx<'_>, input: Input) {
        match input {
            Input::Started => {
                let mut keys: Vec<String> = ctx.cache(SERVICES).list().map(key_of).collect();
                // Slices whose Service is gone are cleaned up too.
                for s in ctx.cache(SLICES).list() {
                    let l = meta::labels(s);
                    if l.and_then(|l| l.get(MANAGED_BY_LABEL))
                        .and_then(Value::as_str)
                        != Some(MANAGED_BY)
                    {
                        continue;
                    }
                    if let Some(svc) = l
                        .and_then(|l| l.get(SERVICE_NAME_LABEL))
                        .and_then(Value::as_str)
                    {
                        keys.push(format!("{}/{svc}", meta::namespace(s).unwrap_or("")));
                    }
                }
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
                SLICES => {
                    let l = meta::labels(&event.object);
                    if l.and_then(|l| l.get(MANAGED_BY_LABEL))
                        .and_then(Value::as_str)
                        == Some(MANAGED_BY)
                    {
                        if let Some(svc) = l
                            .and_then(|l| l.get(SERVICE_NAME_LABEL))
                            .and_then(Value::as_str)
                        {
                            let key =
                                format!("{}/{svc}", meta::namespace(&event.object).unwrap_or(""));
                            self.enqueue(ctx, key);
                        }
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
