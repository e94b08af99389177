//! The REST registry: what each verb does to stored objects (`pkg/registry/...` strategies and
//! `staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go`).

use super::{
    admission, object_label, patch, validation, ApiServer, PatchType, Propagation, Reply, Request,
    UserInfo, Verb,
};
use crate::api::json::JsonPointer;
use crate::api::selector::Selector;
use crate::api::value::{json, Value};
use crate::api::{meta, resources, ApiError, FieldError, Object, ResourceInfo};
use crate::kernel::{time::rfc3339, Millis};
use crate::trace::{Component, Record, Trace};
use std::rc::Rc;

/// Kinds whose `metadata.generation` tracks spec changes.
fn has_generation(kind: &str) -> bool {
    matches!(
        kind,
        "Deployment"
            | "ReplicaSet"
            | "StatefulSet"
            | "DaemonSet"
            | "Job"
            | "CronJob"
            | "Pod"
            | "PodDisruptionBudget"
            | "ReplicationController"
            | "Ingress"
            | "NetworkPolicy"
    )
}

/// Kinds with a `status` subresource: writes to the main resource leave status alone.
fn has_status_subresource(kind: &str) -> bool {
    matches!(
        kind,
        "Deployment"
            | "ReplicaSet"
            | "StatefulSet"
            | "DaemonSet"
            | "Job"
            | "CronJob"
            | "Pod"
            | "Node"
            | "Service"
            | "Namespace"
            | "PersistentVolumeClaim"
            | "PersistentVolume"
            | "ResourceQuota"
            | "PodDisruptionBudget"
            | "ReplicationController"
            | "Ingress"
    )
}

fn has_scale(kind: &str) -> bool {
    matches!(
        kind,
        "Deployment" | "ReplicaSet" | "StatefulSet" | "ReplicationController"
    )
}

pub fn dispatch(
    api: &mut ApiServer,
    now: Millis,
    req: &Request,
    _user: &UserInfo,
    trace: &mut Trace,
) -> Reply {
    let info = req.resource;
    let sub = req.subresource.as_deref();
    match (req.verb, sub) {
        (Verb::Get, None) => get(api, now, req, trace),
        (Verb::List, None) => list(api, now, req, trace),
        (Verb::Create, None) => create(api, now, req, trace),
        (Verb::Update, None) => {
            let body = req
                .body
                .clone()
                .ok_or_else(|| ApiError::bad_request("the request has no body"))?;
            update(api, now, req, body, false, trace)
        }
        (Verb::Patch(pt), None) => patch_object(api, now, req, pt, false, trace),
        (Verb::Delete, None) => delete(api, now, req, trace),
        (Verb::Get, Some("status")) => get(api, now, req, trace),
        (Verb::Update, Some("status")) => {
            let body = req
                .body
                .clone()
                .ok_or_else(|| ApiError::bad_request("the request has no body"))?;
            update(api, now, req, body, true, trace)
        }
        (Verb::Patch(pt), Some("status")) => patch_object(api, now, req, pt, true, trace),
        (Verb::Get, Some("scale")) if has_scale(info.kind) => {
            let obj = get(api, now, req, trace)?;
            Ok(Rc::new(to_scale(&obj)))
        }
        (Verb::Update | Verb::Patch(_), Some("scale")) if has_scale(info.kind) => {
            scale(api, now, req, trace)
        }
        (Verb::Create, Some("binding")) if info.kind == "Pod" => bind(api, now, req, trace),
        _ => Err(ApiError::method_not_supported(
            &match sub {
                Some(s) => format!("{}/{s}", info.plural),
                None => info.plural.to_string(),
            },
            info.group,
            req.verb.rbac(),
        )),
    }
}

/// A step of kube-apiserver itself (admission, validation) at `now`.
fn apiserver_step(
    trace: &mut Trace,
    now: Millis,
    action: &'static str,
    summary: impl Into<String>,
) {
    apiserver_step_with(trace, now, action, || summary.into());
}

/// [`apiserver_step`] with the summary written only if the record is built (see
/// [`Trace::push_with`]): for the steps of every request.
fn apiserver_step_with(
    trace: &mut Trace,
    now: Millis,
    action: &'static str,
    summary: impl FnOnce() -> String,
) {
    trace.push_with(Component::KubeApiserver, action, || {
        Record::new(now, Component::KubeApiserver, action, summary())
    });
}

/// An etcd step; `action` (`etcd.range`, `etcd.txn`, `etcd.conflict`) is also its explanation key.
fn etcd_record(
    now: Millis,
    action: &'static str,
    summary: String,
    key: &str,
    rev: Option<i64>,
    obj: Option<&Object>,
) -> Record {
    let mut r = Record::new(now, Component::Etcd, action, summary)
        .peer("kube-apiserver")
        .key(key);
    if let Some(rev) = rev {
        r = r.revision(rev);
    }
    if let Some(o) = obj {
        r = r.object(object_label(o));
    }
    r
}

/// The `etcd.txn` record of a request's write of `obj` at `rev`, its summary written only if
/// the record is built (see [`Trace::push_with`]).
fn etcd_write(
    trace: &mut Trace,
    now: Millis,
    key: &str,
    rev: i64,
    obj: &Object,
    summary: impl FnOnce() -> String,
) {
    trace.push_with(Component::Etcd, "etcd.txn", || {
        etcd_record(now, "etcd.txn", summary(), key, Some(rev), Some(obj))
    });
}

fn name_of(req: &Request) -> Result<&str, ApiError> {
    req.name
        .as_deref()
        .filter(|n| !n.is_empty())
        .ok_or_else(|| ApiError::bad_request("resource name may not be empty"))
}

fn get(api: &mut ApiServer, now: Millis, req: &Request, trace: &mut Trace) -> Reply {
    let name = name_of(req)?;
    let key = req.resource.etcd_key(req.namespace.as_deref(), name);
    let result = api
        .storage
        .get_shared(req.resource, req.namespace.as_deref(), name);
    let summary = match &result {
        Ok(o) => format!("range {key} -> mod_revision {}", meta::resource_version(o)),
        Err(_) => format!("range {key} -> not found"),
    };
    trace.push(etcd_record(
        now,
        "etcd.range",
        summary,
        &key,
        None,
        result.as_deref().ok(),
    ));
    result
}

fn list(api: &mut ApiServer, now: Millis, req: &Request, trace: &mut Trace) -> Reply {
    let info = req.resource;
    let labels = match &req.label_selector {
        Some(s) => Selector::parse(s).map_err(ApiError::bad_request)?,
        None => Selector::everything(),
    };
    let fields = match &req.field_selector {
        Some(s) => Some(super::watch::FieldSelector::parse(s).map_err(ApiError::bad_request)?),
        None => None,
    };
    let ns = req.namespace.as_deref();
    let prefix = info.etcd_list_prefix(ns);
    // A selector on the name or on a pod's node reads only those keys, as the apiserver's
    // watch cache answers them from its indexes; anything else is a range over the prefix.
    let by_name = fields.as_ref().and_then(|f| f.required("metadata.name"));
    let by_node = fields
        .as_ref()
        .filter(|_| info.kind == "Pod" && info.group.is_empty())
        .and_then(|f| f.required("spec.nodeName"));
    let (items, rev, summary) = if let Some(name) =
        by_name.filter(|_| ns.is_some() || !info.namespaced)
    {
        let key = info.etcd_key(ns, name);
        let (items, rev) = api.storage.list_key(&key);
        let summary = format!("range {key} -> {} key(s) at revision {rev}", items.len());
        (items, rev, summary)
    } else if let Some(node) = by_node {
        let (items, rev) = api.storage.list_pods_on_node(ns, node);
        let summary = format!(
            "range {prefix} --prefix -> {} key(s) at revision {rev} (watch cache index spec.nodeName={node})",
            items.len()
        );
        (items, rev, summary)
    } else {
        let (items, rev) = api.storage.list(info, ns);
        let summary = format!(
            "range {prefix} --prefix -> {} key(s) at revision {rev}",
            items.len()
        );
        (items, rev, summary)
    };
    // Selected before they are copied into the response (or handed over shared).
    let items: Vec<Rc<Object>> = items
        .into_iter()
        .filter(|o| labels.matches(meta::labels(o)) && fields.as_ref().is_none_or(|f| f.matches(o)))
        .collect();
    trace.push(etcd_record(now, "etcd.range", summary, &prefix, None, None));
    let items = if req.share_items {
        api.list_items = items;
        Vec::new()
    } else {
        items.into_iter().map(Rc::unwrap_or_clone).collect()
    };
    // Built by hand: `json!` would copy every item.
    let mut list = crate::api::value::Map::new();
    list.insert("apiVersion", json!(info.api_version()));
    list.insert("kind", Value::String(format!("{}List", info.kind)));
    list.insert("metadata", json!({"resourceVersion": rev.to_string()}));
    list.insert("items", Value::Array(items));
    Ok(Rc::new(Value::Object(list)))
}

/// Generates `<base><5 random characters>` (base cut to 58 characters).
fn generate_name(api: &mut ApiServer, base: &str) -> String {
    let cut: String = base.chars().take(58).collect();
    let suffix = api.rng().string_from(super::NAME_SUFFIX_ALPHABET, 5);
    format!("{cut}{suffix}")
}

/// The pod's QoS class, as PrepareForCreate stores it in status.
pub fn qos_class(pod: &Object) -> &'static str {
    let containers: Vec<&Value> = ["containers", "initContainers"]
        .iter()
        .filter_map(|l| pod.lookup(&format!("/spec/{l}")).and_then(Value::as_array))
        .flatten()
        .collect();
    let mut any = false;
    let mut guaranteed = true;
    for c in &containers {
        let req = c.lookup("/resources/requests").and_then(Value::as_object);
        let lim = c.lookup("/resources/limits").and_then(Value::as_object);
        if req.is_some_and(|m| !m.is_empty()) || lim.is_some_and(|m| !m.is_empty()) {
            any = true;
        }
        for r in ["cpu", "memory"] {
            let l = lim.and_then(|m| m.get(r));
            let q = req.and_then(|m| m.get(r)).or(l);
            if l.is_none() || q != l {
                guaranteed = false;
            }
        }
    }
    if !any {
        "BestEffort"
    } else if guaranteed {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

/// The decoding step: the body must be the request's kind and decode as the typed object
/// (unknown fields are refused under `fieldValidation=Strict`, warned about otherwise).
fn decode(now: Millis, req: &Request, obj: &Object, trace: &mut Trace) -> Result<(), ApiError> {
    let info = req.resource;
    check_kind(info, obj)?;
    for warning in validation::decode_with_field_validation(
        info.kind,
        info.version,
        obj,
        req.field_validation,
    )? {
        apiserver_step(trace, now, "validate", format!("Warning: {warning}"));
    }
    Ok(())
}

fn check_kind(info: &ResourceInfo, body: &Object) -> Result<(), ApiError> {
    let kind = meta::kind(body);
    let av = meta::api_version(body);
    if (!kind.is_empty() && kind != info.kind) || (!av.is_empty() && av != info.api_version()) {
        return Err(ApiError::bad_request(format!(
            "the API version in the data ({av}) does not match the expected API version ({})",
            info.api_version()
        )));
    }
    Ok(())
}

fn trace_validation(now: Millis, trace: &mut Trace, errs: &[FieldError], what: &str) {
    apiserver_step_with(trace, now, "validate", || {
        if errs.is_empty() {
            format!("{what}: valid")
        } else {
            format!(
                "{what}: {} error(s): {}",
                errs.len(),
                errs.iter()
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        }
    });
}

/// [`dispatch`] for a request the caller is done with: a create or update uses its body
/// instead of a copy (the request is left without it).
pub fn dispatch_owned(
    api: &mut ApiServer,
    now: Millis,
    req: &mut Request,
    user: &UserInfo,
    trace: &mut Trace,
) -> Reply {
    match (req.verb, req.subresource.as_deref()) {
        (Verb::Create, None) => {
            let body = req.body.take();
            create_from(api, now, req, body, trace)
        }
        (Verb::Update, sub @ (None | Some("status"))) => {
            let status_only = sub.is_some();
            let body = req
                .body
                .take()
                .ok_or_else(|| ApiError::bad_request("the request has no body"))?;
            update(api, now, req, body, status_only, trace)
        }
        _ => dispatch(api, now, req, user, trace),
    }
}

fn create(api: &mut ApiServer, now: Millis, req: &Request, trace: &mut Trace) -> Reply {
    create_from(api, now, req, req.body.clone(), trace)
}

fn create_from(
    api: &mut ApiServer,
    now: Millis,
    req: &Request,
    body: Option<Object>,
    trace: &mut Trace,
) -> Reply {
    let info = req.resource;
    let mut obj = body.ok_or_else(|| ApiError::bad_request("the request has no body"))?;
    decode(now, req, &obj, trace)?;
    obj["apiVersion"] = json!(info.api_version());
    obj["kind"] = json!(info.kind);
    if !meta::resource_version(&obj).is_empty() {
        return Err(ApiError::bad_request(
            "resourceVersion should not be set on objects to be created",
        ));
    }
    // The namespace comes from the URL; a different one in the body is refused.
    if info.namespaced {
        let url_ns = req.namespace.clone().unwrap_or_else(|| "default".into());
        match meta::namespace(&obj) {
            Some(ns) if ns != url_ns => {
                return Err(ApiError::bad_request("the namespace of the provided object does not match the namespace sent on the request"))
            }
            _ => meta::set_meta(&mut obj, "namespace", json!(url_ns)),
        }
    } else if let Some(m) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("namespace");
    }

    // Step 7: mutating admission (defaulting first).
    admission::namespace_lifecycle(info, meta::namespace(&obj), &api.storage).inspect_err(|e| {
        apiserver_step(
            trace,
            now,
            "admission.mutating",
            format!("NamespaceLifecycle: {}", e.message),
        );
    })?;
    // Admission reads storage and draws from the apiserver's stream (generated volume names).
    let mutated = admission::mutate_create(info, &mut obj, &api.storage, &mut api.rng);
    let report = mutated.inspect_err(|e| {
        apiserver_step(
            trace,
            now,
            "admission.mutating",
            format!("refused: {}", e.message),
        );
    })?;
    apiserver_step_with(trace, now, "admission.mutating", || {
        format!("NamespaceLifecycle, {}", report.plugins.join(", "))
    });

    // BeforeCreate: name, uid, timestamps, generation, status.
    let generate = obj
        .lookup("/metadata/generateName")
        .and_then(Value::as_str)
        .map(str::to_string);
    let needs_name = meta::name(&obj).is_empty();
    if needs_name {
        if let Some(base) = &generate {
            let n = generate_name(api, base);
            meta::set_meta(&mut obj, "name", json!(n));
        }
    }
    let uid = api.rng().uuid();
    meta::set_meta(&mut obj, "uid", json!(uid));
    meta::set_meta(&mut obj, "creationTimestamp", json!(rfc3339(now)));
    if has_generation(info.kind) {
        meta::set_meta(&mut obj, "generation", json!(1));
    }
    if let Some(m) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("deletionTimestamp");
        m.remove("deletionGracePeriodSeconds");
    }
    prepare_for_create(api, info, &mut obj);

    // Step 8: validation.
    let errs = validation::validate_create(info.kind, &obj);
    trace_validation(now, trace, &errs, "validation");
    if !errs.is_empty() {
        let name = if meta::name(&obj).is_empty() {
            generate.unwrap_or_default()
        } else {
            meta::name(&obj).to_string()
        };
        return Err(ApiError::invalid(info.kind, info.group, &name, errs));
    }

    // Step 9: validating admission.
    let quotas = admission::validate(info, meta::namespace(&obj), &obj, None, &api.storage)
        .inspect_err(|e| {
            apiserver_step(
                trace,
                now,
                "admission.validating",
                format!("ResourceQuota: {}", e.message),
            );
        })?;
    apiserver_step_with(trace, now, "admission.validating", || {
        if quotas.is_empty() {
            "ResourceQuota: admitted".to_string()
        } else {
            format!(
                "ResourceQuota: admitted within {}",
                quotas
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    });
    if req.dry_run {
        return Ok(Rc::new(obj));
    }

    // Step 10: persist; a generated name that clashes is generated again (up to 7 tries).
    let lease = if info.kind == "Event" {
        api.event_lease(now)
    } else {
        0
    };
    let mut attempts = 0;
    let mut key;
    let written = loop {
        key = info.etcd_key(meta::namespace(&obj), meta::name(&obj));
        match api.storage.create_or_return(info, obj, lease) {
            Err((e, Some(back)))
                if e.reason == "AlreadyExists"
                    && needs_name
                    && generate.is_some()
                    && attempts < 7 =>
            {
                obj = back;
                attempts += 1;
                let n = generate_name(api, generate.as_deref().unwrap_or_default());
                meta::set_meta(&mut obj, "name", json!(n));
            }
            other => break other.map_err(|(e, _)| e),
        }
    };
    let written = written.inspect_err(|e| {
        trace.push(etcd_record(
            now,
            "etcd.txn",
            format!("txn create {key}: {}", e.message),
            &key,
            None,
            None,
        ));
    })?;
    etcd_write(
        trace,
        now,
        &written.key,
        written.revision,
        &written.object,
        || {
            format!(
                "txn if mod_revision({key}) == 0 then PUT {key} -> revision {}",
                written.revision
            )
        },
    );
    write_quotas(api, now, quotas, trace);
    Ok(written.object)
}

/// The strategy's PrepareForCreate: status starts empty (a Pod starts Pending with its QoS
/// class), Services get their ClusterIP, Namespaces start Active.
fn prepare_for_create(api: &mut ApiServer, info: &ResourceInfo, obj: &mut Object) {
    match info.kind {
        "Pod" => {
            let qos = qos_class(obj);
            obj["status"] = json!({"phase": "Pending", "qosClass": qos});
        }
        "Namespace" => obj["status"] = json!({"phase": "Active"}),
        "Service" => {
            let spec = meta::ensure_path(obj, &["spec"]);
            let headless = spec.get("clusterIP").and_then(Value::as_str) == Some("None");
            let ty = spec
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("ClusterIP")
                .to_string();
            if ty != "ExternalName" {
                let ip = if headless {
                    "None".to_string()
                } else {
                    match spec.get("clusterIP").and_then(Value::as_str) {
                        Some(ip) if !ip.is_empty() => ip.to_string(),
                        _ => api.allocate_cluster_ip(),
                    }
                };
                let spec = meta::ensure_path(obj, &["spec"]);
                spec["clusterIP"] = json!(ip);
                spec["clusterIPs"] = json!([ip]);
                spec["ipFamilies"] = json!(["IPv4"]);
                spec["ipFamilyPolicy"] = json!("SingleStack");
            }
            if ty == "NodePort" || ty == "LoadBalancer" {
                let spec = meta::ensure_path(obj, &["spec"]);
                let used = api_node_ports(api);
                if let Some(ports) = spec.get_mut("ports").and_then(Value::as_array_mut) {
                    let mut next = 30000 + (used.len() as i64 * 7919) % 2768;
                    for p in ports {
                        if p.get("nodePort").is_none() {
                            while used.contains(&next) {
                                next = 30000 + (next - 30000 + 1) % 2768;
                            }
                            p["nodePort"] = json!(next);
                            next = 30000 + (next - 30000 + 1) % 2768;
                        }
                    }
                }
            }
            obj["status"] = json!({"loadBalancer": {}});
        }
        // A registering kubelet sends the node's status with it; that is kept.
        "Node" => {}
        k if has_status_subresource(k) => {
            if let Some(m) = obj.as_object_mut() {
                m.remove("status");
            }
        }
        _ => {}
    }
}

fn api_node_ports(api: &ApiServer) -> Vec<i64> {
    let svc = resources::for_kind("v1", "Service").expect("services");
    api.storage
        .list(svc, None)
        .0
        .iter()
        .flat_map(|s| {
            s.lookup("/spec/ports")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        })
        .filter_map(|p| p.get("nodePort").and_then(Value::as_i64))
        .collect()
}

fn write_quotas(
    api: &mut ApiServer,
    now: Millis,
    quotas: Vec<(String, Object)>,
    trace: &mut Trace,
) {
    let info = resources::for_kind("v1", "ResourceQuota").expect("quota");
    for (_, q) in quotas {
        let rev: i64 = meta::resource_version(&q).parse().unwrap_or(0);
        if let Ok(w) = api.storage.update(info, q, rev) {
            trace.push(etcd_record(
                now,
                "etcd.txn",
                format!("PUT {} (quota usage) -> revision {}", w.key, w.revision),
                &w.key,
                Some(w.revision),
                Some(&w.object),
            ));
        }
    }
}

/// Whether `a` and `b` are objects that differ at most in `status`.
fn same_but_status(a: &Object, b: &Object) -> bool {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return false;
    };
    let a = a.iter().filter(|(k, _)| k.as_str() != "status");
    let b = b.iter().filter(|(k, _)| k.as_str() != "status");
    a.eq(b)
}

fn spec_changed(old: &Object, new: &Object) -> bool {
    old.get("spec") != new.get("spec")
}

/// PUT (and the second half of PATCH): optimistic concurrency on resourceVersion, immutable
/// metadata kept, status or spec kept depending on the subresource, generation bumped when
/// the spec changes, then validation and the compare-and-swap write.
fn update(
    api: &mut ApiServer,
    now: Millis,
    req: &Request,
    obj: Object,
    status_only: bool,
    trace: &mut Trace,
) -> Reply {
    update_from(api, now, req, obj, None, status_only, trace)
}

/// [`update`], with the stored object when the caller has just read it.
fn update_from(
    api: &mut ApiServer,
    now: Millis,
    req: &Request,
    mut obj: Object,
    current: Option<std::rc::Rc<Object>>,
    status_only: bool,
    trace: &mut Trace,
) -> Reply {
    let info = req.resource;
    let name = name_of(req)?.to_string();
    decode(now, req, &obj, trace)?;
    let current = match current {
        Some(c) => c,
        None => api
            .storage
            .get_shared(info, req.namespace.as_deref(), &name)?,
    };
    let current_rev: i64 = meta::resource_version(&current).parse().unwrap_or(0);
    let sent_rv = meta::resource_version(&obj).to_string();
    if !sent_rv.is_empty() && sent_rv != current_rev.to_string() {
        trace.push(etcd_record(
            now,
            "etcd.conflict",
            format!(
                "resourceVersion {sent_rv} is stale: {} is at mod_revision {current_rev}",
                info.etcd_key(req.namespace.as_deref(), &name)
            ),
            &info.etcd_key(req.namespace.as_deref(), &name),
            None,
            None,
        ));
        return Err(ApiError::conflict(
            info.plural,
            info.group,
            &name,
            ApiError::OPTIMISTIC_LOCK,
        ));
    }
    if meta::name(&obj) != name {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({}) does not match the name on the URL ({name})",
            meta::name(&obj)
        )));
    }
    obj["apiVersion"] = json!(info.api_version());
    obj["kind"] = json!(info.kind);
    for field in [
        "uid",
        "creationTimestamp",
        "namespace",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "generation",
    ] {
        match current.lookup(&format!("/metadata/{field}")) {
            Some(v) => meta::set_meta(&mut obj, field, v.clone()),
            None => {
                if let Some(m) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
                    m.remove(field);
                }
            }
        }
    }
    if status_only && same_but_status(&obj, &current) {
        // The status subresource changes status (and nothing else): here nothing else differs.
    } else if status_only {
        // The status subresource changes status (and nothing else).
        let status = obj.get("status").cloned();
        let mut merged = Object::clone(&current);
        match status {
            Some(s) => merged["status"] = s,
            None => {
                if let Some(m) = merged.as_object_mut() {
                    m.remove("status");
                }
            }
        }
        obj = merged;
    } else {
        if has_status_subresource(info.kind) {
            match current.get("status") {
                Some(s) => obj["status"] = s.clone(),
                None => {
                    if let Some(m) = obj.as_object_mut() {
                        m.remove("status");
                    }
                }
            }
        }
        super::defaults::apply_defaults(info.kind, &mut obj);
        if has_generation(info.kind) && spec_changed(&current, &obj) {
            let g = current
                .lookup("/metadata/generation")
                .and_then(Value::as_i64)
                .unwrap_or(0)
                + 1;
            meta::set_meta(&mut obj, "generation", json!(g));
        }
    }
    apiserver_step_with(trace, now, "admission.mutating", || {
        if status_only {
            "status update: only .status is taken".to_string()
        } else {
            "defaulting".to_string()
        }
    });
    let errs = if status_only {
        validation::validate_status_update(info.kind, &current, &obj)
    } else {
        validation::validate_update(info.kind, &current, &obj)
    };
    trace_validation(now, trace, &errs, "validation (update)");
    if !errs.is_empty() {
        return Err(ApiError::invalid(info.kind, info.group, &name, errs));
    }
    let quotas = if status_only {
        Vec::new()
    } else {
        admission::validate(
            info,
            meta::namespace(&obj),
            &obj,
            Some(&*current),
            &api.storage,
        )?
    };
    if req.dry_run {
        return Ok(Rc::new(obj));
    }
    let deleting = obj.lookup("/metadata/deletionTimestamp").is_some();
    let no_finalizers = obj
        .lookup("/metadata/finalizers")
        .and_then(Value::as_array)
        .is_none_or(|f| f.is_empty());
    let key = info.etcd_key(req.namespace.as_deref(), &name);
    if deleting
        && no_finalizers
        && current
            .lookup("/metadata/finalizers")
            .and_then(Value::as_array)
            .is_some_and(|f| !f.is_empty())
    {
        // The last finalizer is gone: the object goes away.
        let w = api.storage.delete(info, &obj, current_rev)?;
        trace.push(etcd_record(
            now,
            "etcd.txn",
            format!(
                "last finalizer removed: DELETE {key} -> revision {}",
                w.revision
            ),
            &key,
            Some(w.revision),
            Some(&w.object),
        ));
        return Ok(w.object);
    }
    let w = api.storage.update(info, obj, current_rev)?;
    etcd_write(trace, now, &key, w.revision, &w.object, || {
        format!(
            "txn if mod_revision({key}) == {current_rev} then PUT {key} -> revision {}",
            w.revision
        )
    });
    write_quotas(api, now, quotas, trace);
    Ok(w.object)
}

fn patch_object(
    api: &mut ApiServer,
    now: Millis,
    req: &Request,
    pt: PatchType,
    status_only: bool,
    trace: &mut Trace,
) -> Reply {
    let info = req.resource;
    let name = name_of(req)?.to_string();
    let body = req
        .body
        .as_ref()
        .ok_or_else(|| ApiError::bad_request("the request has no body"))?;
    let current = api
        .storage
        .get_shared(info, req.namespace.as_deref(), &name)?;
    let mut patched = Object::clone(&current);
    match pt {
        PatchType::Merge => patch::merge(&mut patched, body),
        PatchType::Strategic => patch::strategic_merge(&mut patched, body),
        PatchType::Json => patch::json_patch(&mut patched, body).map_err(|e| {
            let mut err = ApiError::invalid(info.kind, info.group, &name, vec![]);
            err.message = e;
            err
        })?,
    }
    // A patch that does not mention resourceVersion applies to the current object.
    if body.lookup("/metadata/resourceVersion").is_none() {
        meta::set_meta(
            &mut patched,
            "resourceVersion",
            json!(meta::resource_version(&current)),
        );
    }
    if patched == *current {
        apiserver_step(
            trace,
            now,
            "admission.mutating",
            "patch changes nothing: no write",
        );
        return Ok(current);
    }
    update_from(api, now, req, patched, Some(current), status_only, trace)
}

fn delete(api: &mut ApiServer, now: Millis, req: &Request, trace: &mut Trace) -> Reply {
    let info = req.resource;
    let name = name_of(req)?.to_string();
    let current = api.storage.get(info, req.namespace.as_deref(), &name)?;
    let rev: i64 = meta::resource_version(&current).parse().unwrap_or(0);
    let key = info.etcd_key(req.namespace.as_deref(), &name);
    let mut finalizers: Vec<Value> = current
        .lookup("/metadata/finalizers")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let extra = match req.propagation {
        Propagation::Foreground => Some("foregroundDeletion"),
        Propagation::Orphan => Some("orphan"),
        Propagation::Background => None,
    };
    if let Some(f) = extra {
        if !finalizers.iter().any(|x| x == f) {
            finalizers.push(json!(f));
        }
    }
    // Pods on a node are deleted gracefully: the kubelet stops the containers, then deletes.
    let grace = if info.kind == "Pod" {
        let bound = current
            .lookup("/spec/nodeName")
            .and_then(Value::as_str)
            .is_some_and(|n| !n.is_empty());
        let terminal = matches!(
            current.lookup("/status/phase").and_then(Value::as_str),
            Some("Succeeded" | "Failed")
        );
        let default = current
            .lookup("/spec/terminationGracePeriodSeconds")
            .and_then(Value::as_i64)
            .unwrap_or(30);
        if bound && !terminal {
            req.grace_period_seconds.unwrap_or(default).max(0)
        } else {
            0
        }
    } else {
        0
    };
    if current.lookup("/metadata/deletionTimestamp").is_some() {
        // Already being deleted: a grace period of 0 (the kubelet's final delete) removes it now.
        if grace == 0 && finalizers.is_empty() {
            let w = api.storage.delete(info, &current, rev)?;
            trace.push(etcd_record(
                now,
                "etcd.txn",
                format!("DELETE {key} -> revision {}", w.revision),
                &key,
                Some(w.revision),
                Some(&w.object),
            ));
            return Ok(w.object);
        }
        return Ok(Rc::new(current));
    }
    if grace > 0 || !finalizers.is_empty() {
        let mut obj = current.clone();
        meta::set_meta(
            &mut obj,
            "deletionTimestamp",
            json!(rfc3339(now + grace as Millis * 1000)),
        );
        meta::set_meta(&mut obj, "deletionGracePeriodSeconds", json!(grace));
        if !finalizers.is_empty() {
            meta::set_meta(&mut obj, "finalizers", Value::Array(finalizers));
        }
        let w = api.storage.update(info, obj, rev)?;
        trace.push(etcd_record(
            now,
            "etcd.txn",
            format!(
                "graceful delete: PUT {key} with deletionTimestamp (grace {grace}s) -> revision {}",
                w.revision
            ),
            &key,
            Some(w.revision),
            Some(&w.object),
        ));
        return Ok(w.object);
    }
    let w = api.storage.delete(info, &current, rev)?;
    trace.push(etcd_record(
        now,
        "etcd.txn",
        format!("DELETE {key} -> revision {}", w.revision),
        &key,
        Some(w.revision),
        Some(&w.object),
    ));
    Ok(w.object)
}

/// The `autoscaling/v1` Scale of a workload.
pub fn to_scale(obj: &Object) -> Object {
    let selector =
        crate::api::selector::Selector::from_label_selector(obj.lookup("/spec/selector"))
            .map(|s| s.to_string_form())
            .unwrap_or_default();
    json!({
        "apiVersion": "autoscaling/v1",
        "kind": "Scale",
        "metadata": {
            "name": meta::name(obj),
            "namespace": meta::namespace(obj),
            "uid": meta::uid(obj),
            "resourceVersion": meta::resource_version(obj),
            "creationTimestamp": obj.lookup("/metadata/creationTimestamp"),
        },
        "spec": {"replicas": obj.lookup("/spec/replicas").cloned().unwrap_or(json!(1))},
        "status": {"replicas": obj.lookup("/status/replicas").cloned().unwrap_or(json!(0)), "selector": selector},
    })
}

fn scale(api: &mut ApiServer, now: Millis, req: &Request, trace: &mut Trace) -> Reply {
    let info = req.resource;
    let name = name_of(req)?.to_string();
    let body = req
        .body
        .clone()
        .ok_or_else(|| ApiError::bad_request("the request has no body"))?;
    let mut current = api.storage.get(info, req.namespace.as_deref(), &name)?;
    let replicas = match req.verb {
        Verb::Patch(_) => {
            let mut scale = to_scale(&current);
            patch::merge(&mut scale, &body);
            scale.lookup("/spec/replicas").cloned()
        }
        _ => {
            let rv = body
                .lookup("/metadata/resourceVersion")
                .and_then(Value::as_str)
                .unwrap_or("");
            if !rv.is_empty() && rv != meta::resource_version(&current) {
                return Err(ApiError::conflict(
                    info.plural,
                    info.group,
                    &name,
                    ApiError::OPTIMISTIC_LOCK,
                ));
            }
            body.lookup("/spec/replicas").cloned()
        }
    };
    let replicas = replicas.and_then(|r| r.as_i64()).unwrap_or(0);
    if replicas < 0 {
        return Err(ApiError::invalid(
            "Scale",
            "autoscaling",
            &name,
            vec![FieldError::invalid(
                "spec.replicas",
                json!(replicas),
                "must be greater than or equal to 0",
            )],
        ));
    }
    current["spec"]["replicas"] = json!(replicas);
    let updated = update(
        api,
        now,
        &Request {
            subresource: None,
            ..req.clone()
        },
        current,
        false,
        trace,
    )?;
    Ok(Rc::new(to_scale(&updated)))
}

/// `POST pods/<name>/binding`: sets spec.nodeName and PodScheduled=True, once.
fn bind(api: &mut ApiServer, now: Millis, req: &Request, trace: &mut Trace) -> Reply {
    let info = req.resource;
    let name = name_of(req)?.to_string();
    let body = req
        .body
        .clone()
        .ok_or_else(|| ApiError::bad_request("the request has no body"))?;
    let node = body
        .lookup("/target/name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if node.is_empty() {
        return Err(ApiError::invalid(
            "Binding",
            "",
            &name,
            vec![FieldError::required("target.name", "")],
        ));
    }
    let mut pod = api.storage.get(info, req.namespace.as_deref(), &name)?;
    let rev: i64 = meta::resource_version(&pod).parse().unwrap_or(0);
    if let Some(existing) = pod
        .lookup("/spec/nodeName")
        .and_then(Value::as_str)
        .filter(|n| !n.is_empty())
    {
        return Err(ApiError::conflict(
            "pods/binding",
            "",
            &name,
            &format!("pod {name} is already assigned to node {existing:?}"),
        ));
    }
    if pod.lookup("/metadata/deletionTimestamp").is_some() {
        return Err(ApiError::conflict(
            "pods/binding",
            "",
            &name,
            &format!("pod {name} is being deleted, cannot be assigned to a host"),
        ));
    }
    pod["spec"]["nodeName"] = json!(node);
    let conditions = meta::ensure_path(&mut pod, &["status", "conditions"]);
    if !conditions.is_array() {
        *conditions = json!([]);
    }
    let list = conditions.as_array_mut().expect("array");
    list.retain(|c| c.get("type").and_then(Value::as_str) != Some("PodScheduled"));
    list.push(json!({"type": "PodScheduled", "status": "True", "lastProbeTime": null, "lastTransitionTime": rfc3339(now)}));
    let key = info.etcd_key(req.namespace.as_deref(), &name);
    let w = api.storage.update(info, pod, rev)?;
    etcd_write(trace, now, &key, w.revision, &w.object, || {
        format!(
            "bind: PUT {key} with spec.nodeName={node} -> revision {}",
            w.revision
        )
    });
    Ok(Rc::new(
        json!({"apiVersion": "v1", "kind": "Status", "metadata": {}, "status": "Success", "code": 201}),
    ))
}
