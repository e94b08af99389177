//! The admission chain (`--enable-admission-plugins` defaults of 1.35, in order):
//! mutating NamespaceLifecycle, LimitRanger, ServiceAccount, DefaultTolerationSeconds, Priority;
//! validating ResourceQuota. Defaulting (`SetDefaults_*`) runs first, as part of decoding.

use super::{defaults, limitranger, quota, ObjectLister};
use crate::api::json::JsonPointer;
use crate::api::value::{json, Value};
use crate::api::{meta, resources, ApiError, Object, ResourceInfo};
use crate::kernel::Rng;

/// What mutating admission did, for the trace.
#[derive(Default)]
pub struct MutationReport {
    pub plugins: Vec<String>,
}

fn res(kind: &str, api_version: &str) -> &'static ResourceInfo {
    resources::for_kind(api_version, kind).expect("built-in resource")
}

/// What the admission plugins read on every pod create (Priority, LimitRanger, ResourceQuota):
/// kube-apiserver reads them from informers, and so the watch cache keeps them decoded.
pub fn informer_resources() -> [&'static ResourceInfo; 3] {
    [
        res("PriorityClass", "scheduling.k8s.io/v1"),
        res("LimitRange", "v1"),
        res("ResourceQuota", "v1"),
    ]
}

/// NamespaceLifecycle: objects can only be created in a namespace that exists and is not terminating.
pub fn namespace_lifecycle(
    info: &ResourceInfo,
    ns: Option<&str>,
    store: &dyn ObjectLister,
) -> Result<(), ApiError> {
    let Some(ns) = ns.filter(|_| info.namespaced) else {
        return Ok(());
    };
    match store
        .get_shared(res("Namespace", "v1"), None, ns)
        .as_deref()
    {
        None => Err(ApiError::not_found("namespaces", "", ns)),
        Some(n) if n.lookup("/metadata/deletionTimestamp").is_some() => Err(ApiError::forbidden(
            info.plural,
            info.group,
            "",
            &format!(
                "unable to create new content in namespace {ns} because it is being terminated"
            ),
        )),
        Some(_) => Ok(()),
    }
}

/// Runs the mutating plugins on a new object.
pub fn mutate_create(
    info: &ResourceInfo,
    obj: &mut Object,
    store: &dyn ObjectLister,
    rng: &mut Rng,
) -> Result<MutationReport, ApiError> {
    let mut report = MutationReport::default();
    defaults::apply_defaults(info.kind, obj);
    report.plugins.push("defaulting".into());
    if info.kind != "Pod" {
        return Ok(report);
    }
    let ns = meta::namespace(obj).unwrap_or("default").to_string();
    let notes = limitranger::admit(obj, &ns, store)?;
    report.plugins.push(if notes.is_empty() {
        "LimitRanger".into()
    } else {
        format!("LimitRanger ({})", notes.join("; "))
    });
    service_account(obj, &ns, store, rng)?;
    report.plugins.push(format!(
        "ServiceAccount (serviceAccountName={})",
        obj.lookup("/spec/serviceAccountName")
            .and_then(Value::as_str)
            .unwrap_or("default")
    ));
    default_toleration_seconds(obj);
    report.plugins.push("DefaultTolerationSeconds".into());
    priority(obj, store)?;
    report.plugins.push(format!(
        "Priority (priority={})",
        obj.lookup("/spec/priority")
            .and_then(Value::as_i64)
            .unwrap_or(0)
    ));
    Ok(report)
}

/// ServiceAccount admission: the pod runs as `default` unless it says otherwise, the account
/// must exist, and its token is projected into every container.
fn service_account(
    pod: &mut Object,
    ns: &str,
    store: &dyn ObjectLister,
    rng: &mut Rng,
) -> Result<(), ApiError> {
    let name = meta::name(pod).to_string();
    let spec = meta::ensure_path(pod, &["spec"]);
    let sa = spec
        .get("serviceAccountName")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .unwrap_or("default")
        .to_string();
    if store
        .get_shared(res("ServiceAccount", "v1"), Some(ns), &sa)
        .is_none()
    {
        return Err(ApiError::forbidden(
            "pods",
            "",
            &name,
            &format!(
                "error looking up service account {ns}/{sa}: serviceaccount \"{sa}\" not found"
            ),
        ));
    }
    spec["serviceAccountName"] = json!(sa);
    spec["serviceAccount"] = json!(sa);
    if spec.get("automountServiceAccountToken") == Some(&json!(false)) {
        return Ok(());
    }
    let volumes = spec
        .get("volumes")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if volumes.iter().any(|v| {
        v["name"]
            .as_str()
            .is_some_and(|n| n.starts_with("kube-api-access-"))
    }) {
        return Ok(());
    }
    let vol_name = format!(
        "kube-api-access-{}",
        rng.string_from(crate::apiserver::NAME_SUFFIX_ALPHABET, 5)
    );
    let mut volumes = volumes;
    volumes.push(json!({
        "name": vol_name,
        "projected": {
            "defaultMode": 420,
            "sources": [
                {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
                {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}}
            ]
        }
    }));
    spec["volumes"] = Value::Array(volumes);
    let mount = json!({"name": vol_name, "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "readOnly": true});
    for list in ["initContainers", "containers"] {
        if let Some(cs) = spec.get_mut(list).and_then(Value::as_array_mut) {
            for c in cs {
                let mounts = meta::ensure_path(c, &["volumeMounts"]);
                if !mounts.is_array() {
                    *mounts = json!([]);
                }
                mounts.as_array_mut().expect("array").push(mount.clone());
            }
        }
    }
    Ok(())
}

/// DefaultTolerationSeconds: tolerate not-ready and unreachable nodes for 300 s.
fn default_toleration_seconds(pod: &mut Object) {
    let tolerations = meta::ensure_path(pod, &["spec", "tolerations"]);
    if !tolerations.is_array() {
        *tolerations = json!([]);
    }
    let list = tolerations.as_array_mut().expect("array");
    for key in [
        "node.kubernetes.io/not-ready",
        "node.kubernetes.io/unreachable",
    ] {
        let tolerated = list.iter().any(|t| {
            let k = t.get("key").and_then(Value::as_str).unwrap_or("");
            let e = t.get("effect").and_then(Value::as_str).unwrap_or("");
            (k == key || k.is_empty()) && (e == "NoExecute" || e.is_empty())
        });
        if !tolerated {
            list.push(json!({"key": key, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}));
        }
    }
}

/// Priority: resolve priorityClassName to a number (0 without one) and the preemption policy.
fn priority(pod: &mut Object, store: &dyn ObjectLister) -> Result<(), ApiError> {
    let name = meta::name(pod).to_string();
    let class = pod
        .lookup("/spec/priorityClassName")
        .and_then(Value::as_str)
        .map(str::to_string);
    let classes = store.list_shared(res("PriorityClass", "scheduling.k8s.io/v1"), None);
    let chosen = match &class {
        Some(c) if !c.is_empty() => Some(
            classes
                .iter()
                .find(|pc| meta::name(pc) == c)
                .ok_or_else(|| {
                    ApiError::forbidden(
                        "pods",
                        "",
                        &name,
                        &format!("no PriorityClass with name {c} was found"),
                    )
                })?,
        ),
        _ => classes
            .iter()
            .find(|pc| pc.get("globalDefault") == Some(&json!(true))),
    };
    let spec = meta::ensure_path(pod, &["spec"]);
    match chosen {
        Some(pc) => {
            spec["priority"] = pc.get("value").cloned().unwrap_or(json!(0));
            spec["priorityClassName"] = json!(meta::name(pc));
            spec["preemptionPolicy"] = pc
                .get("preemptionPolicy")
                .cloned()
                .unwrap_or(json!("PreemptLowerPriority"));
        }
        None => {
            spec["priority"] = json!(0);
            if spec.get("preemptionPolicy").is_none() {
                spec["preemptionPolicy"] = json!("PreemptLowerPriority");
            }
        }
    }
    Ok(())
}

/// Validating admission on create and update: ResourceQuota. Returns the quotas whose usage
/// changes, to be written after the object.
pub fn validate(
    info: &ResourceInfo,
    ns: Option<&str>,
    obj: &Object,
    old: Option<&Object>,
    store: &dyn ObjectLister,
) -> Result<Vec<(String, Object)>, ApiError> {
    match ns {
        Some(ns) if info.namespaced => quota::admit(info, ns, obj, old, store),
        _ => Ok(Vec::new()),
    }
}
