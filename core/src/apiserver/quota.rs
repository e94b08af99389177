//! ResourceQuota: the validating admission plugin
//! (`staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go`, `CheckRequest`)
//! and the usage evaluators it shares with the resourcequota controller
//! (`pkg/quota/v1/evaluator/core/{pods,services,persistent_volume_claims}.go`, the generic object
//! count evaluator for everything else).
//!
//! Differences from the real plugin, both because kubeplay's store is always consistent:
//! - usage is computed from the objects in the store rather than read from `status.used` (the
//!   real plugin relies on the controller and on its own increments; the result is the same once
//!   the controller has synced, and a quota is never "status unknown");
//! - a quota whose `status.hard` is not yet set is enforced with its `spec.hard`.
//!
//! Run admission after the name of a `generateName` object has been generated (the real plugin
//! runs in the storage layer's `createValidation`, after `BeforeCreate`), so the refusal names the
//! pod as `pods "web-7c5d4-x8f2k" is forbidden: exceeded quota: ...`.

// `ApiError` is the crate's error type, returned by value everywhere.
#![allow(clippy::result_large_err)]

use crate::api::json::JsonPointer;
use std::collections::{BTreeMap, BTreeSet};

use crate::api::value::{json, Map, Value};

use super::ObjectLister;
use crate::api::error::group_resource;
use crate::api::quantity::Quantity;
use crate::api::resources::{ResourceInfo, RESOURCES};
use crate::api::{ApiError, Object};

/// A `corev1.ResourceList`, in name order.
pub type ResourceList = BTreeMap<String, Quantity>;

/// Resources quota never charges (`ignoredResources`: virtual resources and events).
const IGNORED: &[(&str, &str)] = &[
    ("", "events"),
    ("events.k8s.io", "events"),
    ("", "bindings"),
    ("", "componentstatuses"),
];

/// The compute resources a pod must declare when a quota tracks them (`validationSet`).
const VALIDATION_SET: &[&str] = &[
    "cpu",
    "memory",
    "requests.cpu",
    "requests.memory",
    "limits.cpu",
    "limits.memory",
];

/// The fixed resource names the pod evaluator tracks (`podResources`).
const POD_RESOURCES: &[&str] = &[
    "count/pods",
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
];

const STORAGE_CLASS_SUFFIX: &str = ".storageclass.storage.k8s.io/";

fn one() -> Quantity {
    Quantity::from_value(1)
}

/// `generic.ObjectCountQuotaResourceNameFor`: `count/pods`, `count/deployments.apps`.
pub fn object_count_name(info: &ResourceInfo) -> String {
    format!("count/{}", group_resource(info.plural, info.group))
}

/// The legacy names some resources are also counted under (`legacyObjectCountAliases` and the
/// service and claim evaluators).
fn legacy_count_name(info: &ResourceInfo) -> Option<&'static str> {
    if !info.group.is_empty() {
        return None;
    }
    match info.plural {
        "configmaps" => Some("configmaps"),
        "resourcequotas" => Some("resourcequotas"),
        "replicationcontrollers" => Some("replicationcontrollers"),
        "secrets" => Some("secrets"),
        "services" => Some("services"),
        "persistentvolumeclaims" => Some("persistentvolumeclaims"),
        _ => None,
    }
}

fn is_pods(info: &ResourceInfo) -> bool {
    info.group.is_empty() && info.plural == "pods"
}

/// `helper.IsExtendedResourceName`: a domain-qualified name outside `kubernetes.io`.
fn is_extended_resource(name: &str) -> bool {
    name.contains('/') && !name.contains("kubernetes.io/") && !name.starts_with("requests.")
}

/// `MatchingResources`: whether the evaluator for `info` produces usage for `name`.
fn evaluator_tracks(info: &ResourceInfo, name: &str) -> bool {
    if name == object_count_name(info) || legacy_count_name(info) == Some(name) {
        return true;
    }
    if info.group.is_empty() {
        match info.plural {
            "pods" => {
                return POD_RESOURCES.contains(&name)
                    || name.starts_with("hugepages-")
                    || name.starts_with("requests.hugepages-")
                    || name
                        .strip_prefix("requests.")
                        .is_some_and(is_extended_resource);
            }
            "services" => {
                return matches!(name, "services.loadbalancers" | "services.nodeports");
            }
            "persistentvolumeclaims" => {
                return name == "requests.storage"
                    || name.split_once(STORAGE_CLASS_SUFFIX).is_some_and(|(_, r)| {
                        r == "requests.storage" || r == "persistentvolumeclaims"
                    });
            }
            _ => {}
        }
    }
    false
}

fn quantity_at(v: Option<&Value>) -> Option<Quantity> {
    v.and_then(|q| Quantity::from_json(q).ok())
}

/// A `ResourceList` from JSON (`{"cpu": "500m"}`); unparsable values are skipped.
pub fn resource_list(v: Option<&Value>) -> ResourceList {
    v.and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, q)| Quantity::from_json(q).ok().map(|q| (k.to_string(), q)))
                .collect()
        })
        .unwrap_or_default()
}

/// A `ResourceList` as JSON, each quantity in its canonical form.
pub fn resource_list_json(list: &ResourceList) -> Value {
    Value::Object(list.iter().map(|(k, q)| (k.clone(), q.to_json())).collect())
}

/// `quota.Add`.
fn add_lists(a: &ResourceList, b: &ResourceList) -> ResourceList {
    let mut out = a.clone();
    for (k, q) in b {
        let e = out.entry(k.clone()).or_insert_with(Quantity::zero);
        *e += *q;
    }
    out
}

/// `quota.SubtractWithNonNegativeResult`.
fn subtract_non_negative(a: &ResourceList, b: &ResourceList) -> ResourceList {
    a.iter()
        .map(|(k, q)| {
            let mut r = *q;
            if let Some(o) = b.get(k) {
                r -= *o;
            }
            if r.is_negative() {
                r = Quantity::zero();
            }
            (k.clone(), r)
        })
        .collect()
}

/// `quota.Mask`.
fn mask<'a>(list: &ResourceList, names: impl IntoIterator<Item = &'a String>) -> ResourceList {
    names
        .into_iter()
        .filter_map(|n| list.get(n).map(|q| (n.clone(), *q)))
        .collect()
}

/// `prettyPrint`: `k=v` sorted by name, joined by commas.
fn pretty_print(list: &ResourceList) -> String {
    list.iter()
        .map(|(k, q)| format!("{k}={q}"))
        .collect::<Vec<_>>()
        .join(",")
}

// ---------------------------------------------------------------------------------------------
// Pods

fn containers<'v>(pod: &'v Value, list: &str) -> &'v [Value] {
    pod.lookup(&format!("/spec/{list}"))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

fn add_into(into: &mut ResourceList, from: &ResourceList) {
    for (k, q) in from {
        *into.entry(k.clone()).or_insert_with(Quantity::zero) += *q;
    }
}

fn max_into(into: &mut ResourceList, from: &ResourceList) {
    for (k, q) in from {
        match into.get(k) {
            Some(cur) if cur >= q => {}
            _ => {
                into.insert(k.clone(), *q);
            }
        }
    }
}

/// `resourcehelper.PodRequests` / `PodLimits`: the containers' sum, at least each init
/// container (sidecars, `restartPolicy: Always`, add to both), plus the pod overhead;
/// pod-level resources, when set, take precedence.
pub fn pod_resources(pod: &Value, field: &str) -> ResourceList {
    let mut total = ResourceList::new();
    for c in containers(pod, "containers") {
        add_into(
            &mut total,
            &resource_list(c.lookup(&format!("/resources/{field}"))),
        );
    }
    let mut sidecars = ResourceList::new();
    let mut init = ResourceList::new();
    for c in containers(pod, "initContainers") {
        let own = resource_list(c.lookup(&format!("/resources/{field}")));
        let effective = if c.get("restartPolicy").and_then(Value::as_str) == Some("Always") {
            add_into(&mut total, &own);
            add_into(&mut sidecars, &own);
            sidecars.clone()
        } else {
            add_lists(&own, &sidecars)
        };
        max_into(&mut init, &effective);
    }
    max_into(&mut total, &init);
    let pod_level = resource_list(pod.lookup(&format!("/spec/resources/{field}")));
    for (k, q) in pod_level {
        if k == "cpu" || k == "memory" || k.starts_with("hugepages-") {
            total.insert(k, q);
        }
    }
    if field == "requests" {
        add_into(&mut total, &resource_list(pod.lookup("/spec/overhead")));
    }
    total
}

/// `podComputeUsageHelper`.
fn compute_usage(requests: &ResourceList, limits: &ResourceList) -> ResourceList {
    let mut r = ResourceList::new();
    r.insert("pods".to_string(), one());
    for res in ["cpu", "memory", "ephemeral-storage"] {
        if let Some(q) = requests.get(res) {
            r.insert(res.to_string(), *q);
            r.insert(format!("requests.{res}"), *q);
        }
        if let Some(q) = limits.get(res) {
            r.insert(format!("limits.{res}"), *q);
        }
    }
    for (k, q) in requests {
        if k.starts_with("hugepages-") {
            r.insert(k.clone(), *q);
            r.insert(format!("requests.{k}"), *q);
        } else if is_extended_resource(k) {
            r.insert(format!("requests.{k}"), *q);
        }
    }
    r
}

/// Whether a pod no longer counts against compute quota (`QuotaV1Pod`): it has finished.
fn pod_is_terminal(pod: &Value) -> bool {
    matches!(
        pod.lookup("/status/phase").and_then(Value::as_str),
        Some("Succeeded" | "Failed")
    )
}

/// `PodUsageFunc`: `count/pods` always; compute resources and `pods` while it has not finished.
pub fn pod_usage(pod: &Value) -> ResourceList {
    let mut r = ResourceList::new();
    r.insert("count/pods".to_string(), one());
    if pod_is_terminal(pod) {
        return r;
    }
    let usage = compute_usage(
        &pod_resources(pod, "requests"),
        &pod_resources(pod, "limits"),
    );
    add_lists(&r, &usage)
}

fn is_best_effort(pod: &Value) -> bool {
    let none_set = |c: &Value| {
        ["requests", "limits"].iter().all(|f| {
            let l = resource_list(c.lookup(&format!("/resources/{f}")));
            !l.contains_key("cpu") && !l.contains_key("memory")
        })
    };
    containers(pod, "containers").iter().all(none_set)
        && containers(pod, "initContainers").iter().all(none_set)
        && none_set(pod.lookup("/spec").unwrap_or(&Value::Null))
}

fn uses_cross_namespace_affinity(pod: &Value) -> bool {
    let cross = |t: &Value| {
        t.get("namespaces")
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty())
            || t.get("namespaceSelector").is_some_and(|s| !s.is_null())
    };
    ["podAffinity", "podAntiAffinity"].iter().any(|k| {
        let Some(a) = pod.lookup(&format!("/spec/affinity/{k}")) else {
            return false;
        };
        let required = a
            .get("requiredDuringSchedulingIgnoredDuringExecution")
            .and_then(Value::as_array);
        let preferred = a
            .get("preferredDuringSchedulingIgnoredDuringExecution")
            .and_then(Value::as_array);
        required.into_iter().flatten().any(cross)
            || preferred
                .into_iter()
                .flatten()
                .any(|w| w.get("podAffinityTerm").is_some_and(cross))
    })
}

/// `podMatchesScopeFunc` for one scope selector requirement.
fn pod_matches_scope(pod: &Value, scope: &str, operator: &str, values: &[String]) -> bool {
    match scope {
        "Terminating" => pod
            .lookup("/spec/activeDeadlineSeconds")
            .and_then(Value::as_i64)
            .is_some_and(|s| s >= 0),
        "NotTerminating" => pod
            .lookup("/spec/activeDeadlineSeconds")
            .and_then(Value::as_i64)
            .is_none_or(|s| s < 0),
        "BestEffort" => is_best_effort(pod),
        "NotBestEffort" => !is_best_effort(pod),
        "PriorityClass" => {
            let class = pod
                .lookup("/spec/priorityClassName")
                .and_then(Value::as_str)
                .filter(|c| !c.is_empty());
            match operator {
                "Exists" => class.is_some(),
                "DoesNotExist" => class.is_none(),
                "In" => class.is_some_and(|c| values.iter().any(|v| v == c)),
                "NotIn" => !class.is_some_and(|c| values.iter().any(|v| v == c)),
                _ => false,
            }
        }
        "CrossNamespacePodAffinity" => uses_cross_namespace_affinity(pod),
        _ => false,
    }
}

/// The quota's scopes as `(scopeName, operator, values)` (`getScopeSelectorsFromQuota`).
fn quota_scopes(quota: &Value) -> Vec<(String, String, Vec<String>)> {
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let mut out: Vec<(String, String, Vec<String>)> = quota
        .lookup("/spec/scopes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|x| (x.to_string(), "Exists".to_string(), Vec::new()))
        .collect();
    for e in quota
        .lookup("/spec/scopeSelector/matchExpressions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let values = e
            .get("values")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        out.push((s(e, "scopeName"), s(e, "operator"), values));
    }
    out
}

/// Whether the quota's scopes select the object; objects other than pods match only unscoped quotas.
fn scopes_match(quota: &Value, info: &ResourceInfo, obj: &Value) -> bool {
    quota_scopes(quota)
        .iter()
        .all(|(scope, op, values)| is_pods(info) && pod_matches_scope(obj, scope, op, values))
}

/// `podEvaluator.Constraints`: when a quota tracks cpu or memory, every container must say.
fn pod_constraints(required: &BTreeSet<String>, pod: &Value) -> Result<(), String> {
    let required: BTreeSet<&str> = required
        .iter()
        .map(String::as_str)
        .filter(|r| VALIDATION_SET.contains(r))
        .collect();
    if required.is_empty() {
        return Ok(());
    }
    let mut missing: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for c in containers(pod, "containers")
        .iter()
        .chain(containers(pod, "initContainers"))
    {
        let usage = compute_usage(
            &resource_list(c.lookup("/resources/requests")),
            &resource_list(c.lookup("/resources/limits")),
        );
        for r in &required {
            if !usage.contains_key(*r) {
                let name = c.get("name").and_then(Value::as_str).unwrap_or("");
                missing.entry(r).or_default().insert(name.to_string());
            }
        }
    }
    if missing.is_empty() {
        return Ok(());
    }
    let parts: Vec<String> = missing
        .iter()
        .map(|(r, names)| {
            format!(
                "{r} for: {}",
                names.iter().cloned().collect::<Vec<_>>().join(",")
            )
        })
        .collect();
    Err(format!("must specify {}", parts.join("; ")))
}

// ---------------------------------------------------------------------------------------------
// Other evaluators

fn service_usage(svc: &Value) -> ResourceList {
    let mut r = ResourceList::new();
    r.insert("services".to_string(), one());
    let ports = svc
        .lookup("/spec/ports")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    match svc.lookup("/spec/type").and_then(Value::as_str) {
        Some("NodePort") => {
            r.insert(
                "services.nodeports".to_string(),
                Quantity::from_value(ports.len() as i64),
            );
        }
        Some("LoadBalancer") => {
            let n = if svc.lookup("/spec/allocateLoadBalancerNodePorts") == Some(&json!(false)) {
                ports
                    .iter()
                    .filter(|p| p.get("nodePort").and_then(Value::as_i64).unwrap_or(0) != 0)
                    .count()
            } else {
                ports.len()
            };
            r.insert(
                "services.nodeports".to_string(),
                Quantity::from_value(n as i64),
            );
            r.insert("services.loadbalancers".to_string(), one());
        }
        _ => {}
    }
    r
}

fn claim_usage(pvc: &Value) -> ResourceList {
    let mut r = ResourceList::new();
    r.insert("persistentvolumeclaims".to_string(), one());
    let class = pvc
        .lookup("/spec/storageClassName")
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty());
    if let Some(c) = class {
        r.insert(
            format!("{c}{STORAGE_CLASS_SUFFIX}persistentvolumeclaims"),
            one(),
        );
    }
    let mut storage = quantity_at(pvc.lookup("/spec/resources/requests/storage"));
    if let Some(allocated) = quantity_at(pvc.lookup("/status/allocatedResources/storage")) {
        storage = Some(storage.map_or(allocated, |s| s.max(allocated)));
    }
    if let Some(s) = storage {
        r.insert("requests.storage".to_string(), s);
        if let Some(c) = class {
            r.insert(format!("{c}{STORAGE_CLASS_SUFFIX}requests.storage"), s);
        }
    }
    r
}

/// `Evaluator.Usage`: what one object charges against quota.
pub fn usage(info: &ResourceInfo, obj: &Value) -> ResourceList {
    let mut r = if !info.group.is_empty() {
        ResourceList::new()
    } else {
        match info.plural {
            "pods" => return pod_usage(obj),
            "services" => service_usage(obj),
            "persistentvolumeclaims" => claim_usage(obj),
            _ => ResourceList::new(),
        }
    };
    r.insert(object_count_name(info), one());
    if let Some(alias) = legacy_count_name(info) {
        r.insert(alias.to_string(), one());
    }
    r
}

fn resource_for_name(name: &str) -> Option<&'static ResourceInfo> {
    let core = |plural: &str| {
        RESOURCES
            .iter()
            .find(|r| r.group.is_empty() && r.plural == plural)
    };
    if let Some(gr) = name.strip_prefix("count/") {
        let (plural, group) = gr.split_once('.').unwrap_or((gr, ""));
        return RESOURCES
            .iter()
            .find(|r| r.plural == plural && r.group == group && r.namespaced);
    }
    let plural = match name {
        "configmaps"
        | "resourcequotas"
        | "replicationcontrollers"
        | "secrets"
        | "services"
        | "persistentvolumeclaims" => name,
        "services.loadbalancers" | "services.nodeports" => "services",
        "requests.storage" => "persistentvolumeclaims",
        n if n.contains(STORAGE_CLASS_SUFFIX) => "persistentvolumeclaims",
        _ => "pods",
    };
    core(plural).filter(|r| evaluator_tracks(r, name))
}

/// The quota's hard limits: `status.hard` once the controller has set it, `spec.hard` before.
fn hard_of(quota: &Value) -> ResourceList {
    let status = resource_list(quota.lookup("/status/hard"));
    if status.is_empty() {
        resource_list(quota.lookup("/spec/hard"))
    } else {
        status
    }
}

/// The usage of every resource in `names` by the objects of the quota's namespace its scopes
/// select (`CalculateUsage`); names nothing charges are zero.
fn namespace_usage(
    quota: &Value,
    names: &BTreeSet<String>,
    store: &dyn ObjectLister,
) -> ResourceList {
    let ns = quota
        .lookup("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("");
    let mut by_resource: BTreeMap<&'static str, (&'static ResourceInfo, Vec<&String>)> =
        BTreeMap::new();
    let mut used = ResourceList::new();
    for n in names {
        used.insert(n.clone(), Quantity::zero());
        if let Some(info) = resource_for_name(n) {
            by_resource
                .entry(info.kind)
                .or_insert((info, Vec::new()))
                .1
                .push(n);
        }
    }
    for (info, tracked) in by_resource.values() {
        for obj in store.list(info, Some(ns)) {
            if !scopes_match(quota, info, &obj) {
                continue;
            }
            let u = usage(info, &obj);
            for n in tracked {
                if let Some(q) = u.get(*n) {
                    *used.get_mut(*n).expect("inserted") += *q;
                }
            }
        }
    }
    used
}

fn with_status(quota: &Value, hard: &ResourceList, used: &ResourceList) -> Object {
    let mut q = quota.clone();
    let status = json!({"hard": resource_list_json(hard), "used": resource_list_json(used)});
    match q.as_object_mut() {
        Some(m) => {
            m.insert("status", status);
        }
        None => {
            let mut m = Map::new();
            m.insert("status", status);
            q = Value::Object(m);
        }
    }
    q
}

/// The resourcequota controller's sync: `status.hard` is `spec.hard` and `status.used` the usage
/// of each hard resource by the objects in the quota's namespace.
pub fn recompute_status(quota: &Object, store: &dyn ObjectLister) -> Object {
    let hard = resource_list(quota.lookup("/spec/hard"));
    let names: BTreeSet<String> = hard.keys().cloned().collect();
    let used = namespace_usage(quota, &names, store);
    with_status(quota, &hard, &used)
}

fn object_name(obj: &Value) -> &str {
    let meta = |k: &str| {
        obj.lookup(&format!("/metadata/{k}"))
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    };
    meta("name").or_else(|| meta("generateName")).unwrap_or("")
}

/// ResourceQuota admission for a create (`old_obj` is `None`) or an update of `new_obj` in
/// `namespace`. On success, the quotas whose `status.used` changes, with their new status (the
/// apiserver writes them, as the real plugin does before the object is stored); on refusal the
/// 403 of `admission.NewForbidden`.
pub fn admit(
    resource: &ResourceInfo,
    namespace: &str,
    new_obj: &Object,
    old_obj: Option<&Object>,
    store: &dyn ObjectLister,
) -> Result<Vec<(String, Object)>, ApiError> {
    if !resource.namespaced
        || IGNORED
            .iter()
            .any(|(g, r)| *g == resource.group && *r == resource.plural)
    {
        return Ok(Vec::new());
    }
    // `Handles`: object counts change on create; services and claims may change on update
    // (type, size); a pod's charge is fixed at creation (resizes aside).
    let updatable = resource.group.is_empty()
        && matches!(resource.plural, "services" | "persistentvolumeclaims");
    if old_obj.is_some() && !updatable {
        return Ok(Vec::new());
    }
    let Some(quota_info) = RESOURCES
        .iter()
        .find(|r| r.group.is_empty() && r.plural == "resourcequotas")
    else {
        return Ok(Vec::new());
    };
    let quotas = store.list(quota_info, Some(namespace));
    if quotas.is_empty() {
        return Ok(Vec::new());
    }
    let forbidden = |msg: String| {
        ApiError::forbidden(resource.plural, resource.group, object_name(new_obj), &msg)
    };

    let mut interesting: Vec<(&Value, ResourceList)> = Vec::new();
    for q in &quotas {
        let hard = hard_of(q);
        let restricted: BTreeSet<String> = hard
            .keys()
            .filter(|n| evaluator_tracks(resource, n))
            .cloned()
            .collect();
        if restricted.is_empty() || !scopes_match(q, resource, new_obj) {
            continue;
        }
        if is_pods(resource) {
            if let Err(e) = pod_constraints(&restricted, new_obj) {
                let name = q["metadata"]["name"].as_str().unwrap_or("");
                return Err(forbidden(format!("failed quota: {name}: {e}")));
            }
        }
        interesting.push((q, hard));
    }

    let mut delta = usage(resource, new_obj);
    let negative: Vec<&String> = delta
        .iter()
        .filter(|(_, q)| q.is_negative())
        .map(|(k, _)| k)
        .collect();
    if !negative.is_empty() {
        let names: Vec<&str> = negative.iter().map(|s| s.as_str()).collect();
        return Err(forbidden(format!(
            "quota usage is negative for resource(s): {}",
            names.join(",")
        )));
    }
    if let Some(old) = old_obj {
        let has_rv = old
            .lookup("/metadata/resourceVersion")
            .and_then(Value::as_str)
            .is_some_and(|rv| !rv.is_empty());
        if has_rv {
            delta = subtract_non_negative(&delta, &usage(resource, old));
        }
    }
    if delta.values().all(Quantity::is_zero) || interesting.is_empty() {
        return Ok(Vec::new());
    }

    let mut changed = Vec::new();
    for (q, hard) in interesting {
        let name = q["metadata"]["name"].as_str().unwrap_or("").to_string();
        let hard_names: BTreeSet<String> = hard.keys().cloned().collect();
        let used = namespace_usage(q, &hard_names, store);
        let requested = mask(&delta, &hard_names);
        let new_usage = add_lists(&used, &requested);
        let masked = mask(&new_usage, requested.keys());
        let exceeded: Vec<String> = hard
            .iter()
            .filter(|(k, h)| masked.get(*k).is_some_and(|u| u > h))
            .map(|(k, _)| k.clone())
            .collect();
        if !exceeded.is_empty() {
            return Err(forbidden(format!(
                "exceeded quota: {name}, requested: {}, used: {}, limited: {}",
                pretty_print(&mask(&requested, &exceeded)),
                pretty_print(&mask(&used, &exceeded)),
                pretty_print(&mask(&hard, &exceeded)),
            )));
        }
        let reserved = mask(&new_usage, &hard_names);
        let current_used = resource_list(q.lookup("/status/used"));
        let current_hard = resource_list(q.lookup("/status/hard"));
        let same = |a: &ResourceList, b: &ResourceList| {
            a.len() == b.len() && a.iter().all(|(k, v)| b.get(k) == Some(v))
        };
        if same(&current_used, &reserved) && same(&current_hard, &hard) {
            continue;
        }
        changed.push((name, with_status(q, &hard, &reserved)));
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::resources::for_kind;

    struct Mem(Vec<Object>);

    impl ObjectLister for Mem {
        fn list(&self, resource: &'static ResourceInfo, namespace: Option<&str>) -> Vec<Object> {
            self.0
                .iter()
                .filter(|o| {
                    for_kind(
                        o["apiVersion"].as_str().unwrap_or(""),
                        o["kind"].as_str().unwrap_or(""),
                    )
                    .is_some_and(|r| std::ptr::eq(r, resource))
                        && namespace
                            .is_none_or(|ns| o["metadata"]["namespace"].as_str() == Some(ns))
                })
                .cloned()
                .collect()
        }
    }

    fn info(kind: &str, api_version: &str) -> &'static ResourceInfo {
        for_kind(api_version, kind).unwrap()
    }

    fn quota(name: &str, hard: Value) -> Object {
        json!({"apiVersion": "v1", "kind": "ResourceQuota",
               "metadata": {"name": name, "namespace": "default", "resourceVersion": "5"},
               "spec": {"hard": hard}})
    }

    fn pod(name: &str, requests: Value, limits: Value) -> Object {
        json!({"apiVersion": "v1", "kind": "Pod",
               "metadata": {"name": name, "namespace": "default"},
               "spec": {"containers": [{"name": "nginx", "image": "nginx",
                        "resources": {"requests": requests, "limits": limits}}]},
               "status": {"phase": "Running"}})
    }

    #[test]
    fn exceeded_quota_has_the_real_message() {
        let mut objs = vec![quota(
            "compute-quota",
            json!({"requests.cpu": "2", "pods": "10"}),
        )];
        for i in 0..3 {
            objs.push(pod(&format!("web-{i}"), json!({"cpu": "500m"}), json!({})));
        }
        let s = Mem(objs);
        let new = pod("web-abc", json!({"cpu": "500m"}), json!({}));
        let ok = admit(info("Pod", "v1"), "default", &new, None, &s).unwrap();
        assert_eq!(ok.len(), 1);
        assert_eq!(ok[0].0, "compute-quota");
        assert_eq!(
            ok[0].1["status"]["used"],
            json!({"pods": "4", "requests.cpu": "2"})
        );
        assert_eq!(
            ok[0].1["status"]["hard"],
            json!({"pods": "10", "requests.cpu": "2"})
        );

        let mut objs = s.0;
        objs.push(pod("web-3", json!({"cpu": "500m"}), json!({})));
        let s = Mem(objs);
        let e = admit(info("Pod", "v1"), "default", &new, None, &s).unwrap_err();
        assert_eq!(e.code, 403);
        assert_eq!(
            e.message,
            "pods \"web-abc\" is forbidden: exceeded quota: compute-quota, requested: requests.cpu=500m, used: requests.cpu=2, limited: requests.cpu=2"
        );
    }

    #[test]
    fn used_sums_in_canonical_form() {
        let s = Mem(vec![
            quota("q", json!({"requests.cpu": "2", "requests.memory": "1Gi"})),
            pod("a", json!({"cpu": "1", "memory": "256Mi"}), json!({})),
            pod("b", json!({"cpu": "500m", "memory": "256Mi"}), json!({})),
        ]);
        let new = pod(
            "web-abc",
            json!({"cpu": "500m", "memory": "128Mi"}),
            json!({}),
        );
        let ok = admit(info("Pod", "v1"), "default", &new, None, &s).unwrap();
        assert_eq!(
            ok[0].1["status"]["used"],
            json!({"requests.cpu": "2", "requests.memory": "640Mi"})
        );
        let big = pod(
            "web-abc",
            json!({"cpu": "600m", "memory": "1Gi"}),
            json!({}),
        );
        let e = admit(info("Pod", "v1"), "default", &big, None, &s).unwrap_err();
        assert_eq!(
            e.message,
            "pods \"web-abc\" is forbidden: exceeded quota: q, requested: requests.cpu=600m,requests.memory=1Gi, used: requests.cpu=1500m,requests.memory=512Mi, limited: requests.cpu=2,requests.memory=1Gi"
        );
    }

    #[test]
    fn terminal_pods_free_their_compute_quota() {
        let mut done = pod("done", json!({"cpu": "2"}), json!({}));
        done["status"]["phase"] = json!("Succeeded");
        let s = Mem(vec![
            quota("q", json!({"requests.cpu": "2", "count/pods": "2"})),
            done,
        ]);
        let q = recompute_status(&s.0[0], &s);
        assert_eq!(
            q["status"]["used"],
            json!({"count/pods": "1", "requests.cpu": "0"})
        );
        let new = pod("x", json!({"cpu": "2"}), json!({}));
        assert!(admit(info("Pod", "v1"), "default", &new, None, &s).is_ok());
    }

    #[test]
    fn missing_requests_and_limits_are_named_per_container() {
        let s = Mem(vec![quota(
            "compute-quota",
            json!({"requests.cpu": "2", "limits.cpu": "4", "requests.memory": "1Gi"}),
        )]);
        let mut p = pod("x", json!({"memory": "64Mi"}), json!({}));
        p["spec"]["containers"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "sidecar", "image": "busybox", "resources": {"requests": {"cpu": "100m"}}}));
        let e = admit(info("Pod", "v1"), "default", &p, None, &s).unwrap_err();
        assert_eq!(
            e.message,
            "pods \"x\" is forbidden: failed quota: compute-quota: must specify limits.cpu for: nginx,sidecar; requests.cpu for: nginx; requests.memory for: sidecar"
        );
    }

    #[test]
    fn generate_name_is_used_when_there_is_no_name() {
        let s = Mem(vec![quota("pods", json!({"pods": "0"}))]);
        let mut p = pod("", json!({}), json!({}));
        p["metadata"] = json!({"generateName": "web-7c5d4-", "namespace": "default"});
        let e = admit(info("Pod", "v1"), "default", &p, None, &s).unwrap_err();
        assert_eq!(
            e.message,
            "pods \"web-7c5d4-\" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=0, limited: pods=0"
        );
    }

    #[test]
    fn object_counts() {
        let s = Mem(vec![
            quota(
                "objects",
                json!({"count/deployments.apps": "1", "configmaps": "5", "services.nodeports": "1"}),
            ),
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "a", "namespace": "default"}}),
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "other", "namespace": "prod"}}),
        ]);
        let d = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "b", "namespace": "default"}});
        let e = admit(info("Deployment", "apps/v1"), "default", &d, None, &s).unwrap_err();
        assert_eq!(
            e.message,
            "deployments.apps \"b\" is forbidden: exceeded quota: objects, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1"
        );
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "default"}});
        let ok = admit(info("ConfigMap", "v1"), "default", &cm, None, &s).unwrap();
        assert_eq!(
            ok[0].1["status"]["used"],
            json!({"configmaps": "1", "count/deployments.apps": "1", "services.nodeports": "0"})
        );
        // Updates of a deployment do not change its count.
        assert!(
            admit(info("Deployment", "apps/v1"), "default", &d, Some(&d), &s)
                .unwrap()
                .is_empty()
        );
        // A NodePort service with two ports needs two node ports.
        let svc = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s", "namespace": "default"},
                         "spec": {"type": "NodePort", "ports": [{"port": 80}, {"port": 443}]}});
        let e = admit(info("Service", "v1"), "default", &svc, None, &s).unwrap_err();
        assert_eq!(
            e.message,
            "services \"s\" is forbidden: exceeded quota: objects, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1"
        );
    }

    #[test]
    fn scopes_select_pods() {
        let mut q = quota("best-effort", json!({"pods": "1"}));
        q["spec"]["scopes"] = json!(["BestEffort"]);
        let s = Mem(vec![q, pod("be", json!({}), json!({}))]);
        let guaranteed = pod("g", json!({"cpu": "1"}), json!({"cpu": "1"}));
        assert!(admit(info("Pod", "v1"), "default", &guaranteed, None, &s)
            .unwrap()
            .is_empty());
        let be = pod("be2", json!({}), json!({}));
        assert!(admit(info("Pod", "v1"), "default", &be, None, &s).is_err());
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "default"}});
        assert!(admit(info("ConfigMap", "v1"), "default", &cm, None, &s)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn init_containers_and_sidecars_count_like_pod_requests() {
        let p = json!({"spec": {
        "containers": [{"name": "a", "resources": {"requests": {"cpu": "1"}}}],
        "initContainers": [
            {"name": "setup", "resources": {"requests": {"cpu": "3"}}},
            {"name": "proxy", "restartPolicy": "Always", "resources": {"requests": {"cpu": "500m"}}}
        ]}});
        let r = pod_resources(&p, "requests");
        assert_eq!(r["cpu"].to_string(), "3");
        let p2 = json!({"spec": {
        "containers": [{"name": "a", "resources": {"requests": {"cpu": "1"}}}],
        "initContainers": [
            {"name": "proxy", "restartPolicy": "Always", "resources": {"requests": {"cpu": "500m"}}},
            {"name": "setup", "resources": {"requests": {"cpu": "1"}}}
        ]}});
        assert_eq!(pod_resources(&p2, "requests")["cpu"].to_string(), "1500m");
    }
}
