//! LimitRanger admission (`plugin/pkg/admission/limitranger/admission.go`): the mutating half
//! gives containers the `defaultRequest` and `default` (limits) of the namespace's LimitRanges of
//! type `Container` and records what it set in the `kubernetes.io/limit-ranger` annotation; the
//! validating half enforces `min`, `max` and `maxLimitRequestRatio` per Container and per Pod.
//!
//! The real plugin ranges over Go maps, so with several violations the order of its messages
//! varies between runs; kubeplay lists them by resource name.

// `ApiError` is the crate's error type, returned by value everywhere.
#![allow(clippy::result_large_err)]

use crate::api::json::JsonPointer;
use crate::api::value::{Map, Value};

use super::quota::{pod_resources, resource_list, ResourceList};
use super::ObjectLister;
use crate::api::quantity::Quantity;
use crate::api::resources::RESOURCES;
use crate::api::{ApiError, Object};

/// The annotation recording what LimitRanger defaulted.
pub const LIMIT_RANGER_ANNOTATION: &str = "kubernetes.io/limit-ranger";

fn limit_ranges(namespace: &str, store: &dyn ObjectLister) -> Vec<Object> {
    match RESOURCES
        .iter()
        .find(|r| r.group.is_empty() && r.plural == "limitranges")
    {
        Some(info) => store.list(info, Some(namespace)),
        None => Vec::new(),
    }
}

fn items(lr: &Value) -> &[Value] {
    lr.lookup("/spec/limits")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

fn item_type(item: &Value) -> &str {
    item.get("type").and_then(Value::as_str).unwrap_or("")
}

/// `defaultContainerResourceRequirements`: (requests, limits) from the Container items.
fn default_requirements(lr: &Value) -> (ResourceList, ResourceList) {
    let mut requests = ResourceList::new();
    let mut limits = ResourceList::new();
    for item in items(lr).iter().filter(|i| item_type(i) == "Container") {
        requests.extend(resource_list(item.get("defaultRequest")));
        limits.extend(resource_list(item.get("default")));
    }
    (requests, limits)
}

/// `mergeContainerResources`: fills what a container lacks; returns the annotation parts.
fn merge_container(
    container: &mut Value,
    requests: &ResourceList,
    limits: &ResourceList,
    prefix: &str,
    parts: &mut Vec<String>,
) {
    let name = container
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let Some(c) = container.as_object_mut() else {
        return;
    };
    let resources = c
        .entry("resources")
        .or_insert_with(|| Value::Object(Map::new()));
    if !resources.is_object() {
        *resources = Value::Object(Map::new());
    }
    let resources = resources.as_object_mut().expect("object");
    let mut fill = |field: &str, defaults: &ResourceList| -> Vec<String> {
        if defaults.is_empty() {
            return Vec::new();
        }
        let list = resources
            .entry(field)
            .or_insert_with(|| Value::Object(Map::new()));
        if !list.is_object() {
            *list = Value::Object(Map::new());
        }
        let list = list.as_object_mut().expect("object");
        let mut set = Vec::new();
        for (k, q) in defaults {
            if !list.contains_key(k) {
                list.insert(k.clone(), q.to_json());
                set.push(k.clone());
            }
        }
        set
    };
    // Limits are filled first, as the real plugin does; the parts list requests first.
    let set_limits = fill("limits", limits);
    let set_requests = fill("requests", requests);
    if !set_requests.is_empty() {
        parts.push(format!(
            "{} request for {prefix} {name}",
            set_requests.join(", ")
        ));
    }
    if !set_limits.is_empty() {
        parts.push(format!(
            "{} limit for {prefix} {name}",
            set_limits.join(", ")
        ));
    }
}

/// `PodMutateLimitFunc` for one LimitRange: the annotation parts it produced.
fn mutate(pod: &mut Object, lr: &Value) -> Vec<String> {
    let (requests, limits) = default_requirements(lr);
    let mut parts = Vec::new();
    if requests.is_empty() && limits.is_empty() {
        return parts;
    }
    for (list, prefix) in [
        ("containers", "container"),
        ("initContainers", "init container"),
    ] {
        if let Some(cs) = pod
            .lookup_mut(&format!("/spec/{list}"))
            .and_then(Value::as_array_mut)
        {
            for c in cs {
                merge_container(c, &requests, &limits, prefix, &mut parts);
            }
        }
    }
    parts
}

/// `requestLimitEnforcedValues`: milli-units when all fit, units otherwise.
fn comparable(q: Option<&Quantity>, enforced: &Quantity, others: &[Option<&Quantity>]) -> i64 {
    let fits = |x: &Quantity| x.value() <= i64::MAX / 1000;
    let milli = fits(enforced) && others.iter().flatten().all(|x| fits(x));
    match q {
        Some(q) if milli => q.milli_value(),
        Some(q) => q.value(),
        None if milli => enforced.milli_value(),
        None => enforced.value(),
    }
}

fn min_constraint(
    kind: &str,
    resource: &str,
    enforced: &Quantity,
    requests: &ResourceList,
    limits: &ResourceList,
) -> Option<String> {
    let req = requests.get(resource);
    let lim = limits.get(resource);
    let all = [req, lim];
    let e = comparable(None, enforced, &all);
    let Some(r) = req else {
        return Some(format!(
            "minimum {resource} usage per {kind} is {enforced}.  No request is specified"
        ));
    };
    if comparable(Some(r), enforced, &all) < e {
        return Some(format!(
            "minimum {resource} usage per {kind} is {enforced}, but request is {r}"
        ));
    }
    if let Some(l) = lim {
        if comparable(Some(l), enforced, &all) < e {
            return Some(format!(
                "minimum {resource} usage per {kind} is {enforced}, but limit is {l}"
            ));
        }
    }
    None
}

fn max_constraint(
    kind: &str,
    resource: &str,
    enforced: &Quantity,
    requests: &ResourceList,
    limits: &ResourceList,
) -> Option<String> {
    let req = requests.get(resource);
    let lim = limits.get(resource);
    let all = [req, lim];
    let e = comparable(None, enforced, &all);
    let Some(l) = lim else {
        return Some(format!(
            "maximum {resource} usage per {kind} is {enforced}.  No limit is specified"
        ));
    };
    if comparable(Some(l), enforced, &all) > e {
        return Some(format!(
            "maximum {resource} usage per {kind} is {enforced}, but limit is {l}"
        ));
    }
    if let Some(r) = req {
        if comparable(Some(r), enforced, &all) > e {
            return Some(format!(
                "maximum {resource} usage per {kind} is {enforced}, but request is {r}"
            ));
        }
    }
    None
}

fn ratio_constraint(
    kind: &str,
    resource: &str,
    enforced: &Quantity,
    requests: &ResourceList,
    limits: &ResourceList,
) -> Option<String> {
    let req = requests.get(resource);
    let lim = limits.get(resource);
    let all = [req, lim];
    let r = req
        .map(|r| comparable(Some(r), enforced, &all))
        .unwrap_or(0);
    let l = lim
        .map(|l| comparable(Some(l), enforced, &all))
        .unwrap_or(0);
    if r == 0 {
        return Some(format!(
            "{resource} max limit to request ratio per {kind} is {enforced}, but no request is specified or request is 0"
        ));
    }
    if l == 0 {
        return Some(format!(
            "{resource} max limit to request ratio per {kind} is {enforced}, but no limit is specified or limit is 0"
        ));
    }
    let observed = l as f64 / r as f64;
    let (scaled, max) = if enforced.value() <= i64::MAX / 1000 {
        (observed * 1000.0, enforced.milli_value() as f64)
    } else {
        (observed, enforced.value() as f64)
    };
    (scaled > max).then(|| {
        format!(
            "{resource} max limit to request ratio per {kind} is {enforced}, but provided ratio is {observed:.6}"
        )
    })
}

/// A bound check: `(kind, resource, enforced, requests, limits)` to the violation, if any.
type Constraint = fn(&str, &str, &Quantity, &ResourceList, &ResourceList) -> Option<String>;

/// min, max and ratio of one item against one set of requests and limits.
fn check(
    kind: &str,
    item: &Value,
    requests: &ResourceList,
    limits: &ResourceList,
    errs: &mut Vec<String>,
) {
    let bounds: [(&str, Constraint); 3] = [
        ("min", min_constraint),
        ("max", max_constraint),
        ("maxLimitRequestRatio", ratio_constraint),
    ];
    for (field, f) in bounds {
        for (resource, enforced) in resource_list(item.get(field)) {
            if let Some(e) = f(kind, &resource, &enforced, requests, limits) {
                errs.push(e);
            }
        }
    }
}

/// `PodValidateLimitFunc` for one LimitRange.
fn validate(pod: &Value, lr: &Value) -> Vec<String> {
    let mut errs = Vec::new();
    for item in items(lr) {
        match item_type(item) {
            "Container" => {
                for list in ["containers", "initContainers"] {
                    for c in pod
                        .lookup(&format!("/spec/{list}"))
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                    {
                        let requests = resource_list(c.lookup("/resources/requests"));
                        let limits = resource_list(c.lookup("/resources/limits"));
                        check("Container", item, &requests, &limits, &mut errs);
                    }
                }
            }
            "Pod" => {
                // Without the overhead, as `podRequests` of the plugin computes it.
                let mut p = pod.clone();
                if let Some(spec) = p.get_mut("spec").and_then(Value::as_object_mut) {
                    spec.remove("overhead");
                }
                let requests = pod_resources(&p, "requests");
                let limits = pod_resources(&p, "limits");
                check("Pod", item, &requests, &limits, &mut errs);
            }
            _ => {}
        }
    }
    errs
}

/// `utilerrors.NewAggregate(errs).Error()`.
fn aggregate(errs: &[String]) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for e in errs {
        if !seen.contains(&e.as_str()) {
            seen.push(e);
        }
    }
    if seen.len() == 1 {
        seen[0].to_string()
    } else {
        format!("[{}]", seen.join(", "))
    }
}

fn object_name(obj: &Value) -> &str {
    let meta = |k: &str| {
        obj.lookup(&format!("/metadata/{k}"))
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    };
    meta("name")
        .or_else(|| meta("generateName"))
        .unwrap_or("Unknown")
}

/// The mutating half alone (`Admit`): defaults each container's requests and limits from the
/// namespace's LimitRanges and sets the `kubernetes.io/limit-ranger` annotation. Returns one
/// note per LimitRange that defaulted something, for the trace.
pub fn default_pod(pod: &mut Object, namespace: &str, store: &dyn ObjectLister) -> Vec<String> {
    let mut notes = Vec::new();
    for lr in &limit_ranges(namespace, store) {
        let parts = mutate(pod, lr);
        if parts.is_empty() {
            continue;
        }
        let text = format!("LimitRanger plugin set: {}", parts.join("; "));
        crate::api::meta::set_annotation(pod, LIMIT_RANGER_ANNOTATION, &text);
        let lr_name = lr
            .lookup("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("");
        notes.push(format!("LimitRange {lr_name:?} set {}", parts.join("; ")));
    }
    notes
}

/// The validating half alone (`Validate`): the pod against each LimitRange's Container and Pod
/// bounds; the first LimitRange violated gives the 403.
pub fn validate_pod(
    pod: &Object,
    namespace: &str,
    store: &dyn ObjectLister,
) -> Result<(), ApiError> {
    for lr in &limit_ranges(namespace, store) {
        let errs = validate(pod, lr);
        if !errs.is_empty() {
            return Err(ApiError::forbidden(
                "pods",
                "",
                object_name(pod),
                &aggregate(&errs),
            ));
        }
    }
    Ok(())
}

/// LimitRanger for a PersistentVolumeClaim (validation only: claims are never defaulted):
/// `min` and `max` of `PersistentVolumeClaim` items against `spec.resources.requests`.
pub fn validate_claim(
    pvc: &Object,
    namespace: &str,
    store: &dyn ObjectLister,
) -> Result<(), ApiError> {
    let requests = resource_list(pvc.lookup("/spec/resources/requests"));
    for lr in &limit_ranges(namespace, store) {
        let mut errs = Vec::new();
        for item in items(lr)
            .iter()
            .filter(|i| item_type(i) == "PersistentVolumeClaim")
        {
            let kind = "PersistentVolumeClaim";
            for (resource, enforced) in resource_list(item.get("min")) {
                if let Some(e) =
                    min_constraint(kind, &resource, &enforced, &requests, &ResourceList::new())
                {
                    errs.push(e);
                }
            }
            for (resource, enforced) in resource_list(item.get("max")) {
                let req = requests.get(&resource);
                let e = match req {
                    None => Some(format!(
                        "maximum {resource} usage per {kind} is {enforced}.  No request is specified"
                    )),
                    Some(r) if comparable(Some(r), &enforced, &[req]) > comparable(None, &enforced, &[req]) => {
                        Some(format!(
                            "maximum {resource} usage per {kind} is {enforced}, but request is {r}"
                        ))
                    }
                    Some(_) => None,
                };
                errs.extend(e);
            }
        }
        if !errs.is_empty() {
            return Err(ApiError::forbidden(
                "persistentvolumeclaims",
                "",
                object_name(pvc),
                &aggregate(&errs),
            ));
        }
    }
    Ok(())
}

/// LimitRanger for a new pod in `namespace`: [`default_pod`], then [`validate_pod`]. Returns
/// the notes of what was defaulted; a violation is the 403 of `admission.NewForbidden`, e.g.
/// `pods "x" is forbidden: maximum cpu usage per Container is 1, but limit is 2`. (The real
/// plugin validates after the name of a `generateName` pod is generated, so its message names
/// the pod; called before that, the message shows the `generateName` prefix.)
pub fn admit(
    pod: &mut Object,
    namespace: &str,
    store: &dyn ObjectLister,
) -> Result<Vec<String>, ApiError> {
    let notes = default_pod(pod, namespace, store);
    validate_pod(pod, namespace, store)?;
    Ok(notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::resources::{for_kind, ResourceInfo};
    use crate::json;

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

    fn limit_range(name: &str, limits: Value) -> Object {
        json!({"apiVersion": "v1", "kind": "LimitRange",
               "metadata": {"name": name, "namespace": "default"},
               "spec": {"limits": limits}})
    }

    fn pod(resources: Value) -> Object {
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x", "namespace": "default"},
               "spec": {"containers": [{"name": "nginx", "image": "nginx", "resources": resources}]}})
    }

    #[test]
    fn defaults_requests_and_limits_and_annotates() {
        let s = Mem(vec![limit_range(
            "defaults",
            json!([{"type": "Container",
                    "default": {"cpu": "500m", "memory": "256Mi"},
                    "defaultRequest": {"cpu": "0.25", "memory": "128Mi"}}]),
        )]);
        let mut p = pod(json!({}));
        let notes = admit(&mut p, "default", &s).unwrap();
        let c = &p["spec"]["containers"][0]["resources"];
        assert_eq!(c["requests"], json!({"cpu": "250m", "memory": "128Mi"}));
        assert_eq!(c["limits"], json!({"cpu": "500m", "memory": "256Mi"}));
        assert_eq!(
            p["metadata"]["annotations"]["kubernetes.io/limit-ranger"],
            "LimitRanger plugin set: cpu, memory request for container nginx; cpu, memory limit for container nginx"
        );
        assert_eq!(notes.len(), 1);

        // What the pod sets is kept; only the missing parts are defaulted.
        let mut p =
            pod(json!({"requests": {"cpu": "100m"}, "limits": {"cpu": "200m", "memory": "64Mi"}}));
        admit(&mut p, "default", &s).unwrap();
        assert_eq!(
            p["metadata"]["annotations"]["kubernetes.io/limit-ranger"],
            "LimitRanger plugin set: memory request for container nginx"
        );
        assert_eq!(
            p["spec"]["containers"][0]["resources"]["requests"]["cpu"],
            "100m"
        );
    }

    #[test]
    fn max_and_min_are_enforced_with_the_real_messages() {
        let s = Mem(vec![limit_range(
            "bounds",
            json!([{"type": "Container", "max": {"cpu": "1", "memory": "1Gi"}, "min": {"cpu": "100m"}}]),
        )]);
        let mut p =
            pod(json!({"requests": {"cpu": "500m"}, "limits": {"cpu": "2", "memory": "512Mi"}}));
        let e = admit(&mut p, "default", &s).unwrap_err();
        assert_eq!(e.code, 403);
        assert_eq!(
            e.message,
            "pods \"x\" is forbidden: maximum cpu usage per Container is 1, but limit is 2"
        );
        let mut p = pod(json!({"requests": {"cpu": "50m"}, "limits": {"cpu": "2"}}));
        let e = admit(&mut p, "default", &s).unwrap_err();
        assert_eq!(
            e.message,
            "pods \"x\" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi.  No limit is specified]"
        );
        let mut ok =
            pod(json!({"requests": {"cpu": "100m"}, "limits": {"cpu": "1", "memory": "1Gi"}}));
        assert!(admit(&mut ok, "default", &s).is_ok());
    }

    #[test]
    fn ratio_and_pod_limits() {
        let s = Mem(vec![limit_range(
            "ratio",
            json!([{"type": "Container", "maxLimitRequestRatio": {"cpu": "2"}},
                   {"type": "Pod", "max": {"memory": "1Gi"}}]),
        )]);
        let mut p =
            pod(json!({"requests": {"cpu": "100m"}, "limits": {"cpu": "500m", "memory": "2Gi"}}));
        let e = admit(&mut p, "default", &s).unwrap_err();
        assert_eq!(
            e.message,
            "pods \"x\" is forbidden: [cpu max limit to request ratio per Container is 2, but provided ratio is 5.000000, maximum memory usage per Pod is 1Gi, but limit is 2Gi]"
        );
    }

    #[test]
    fn claims_are_bounded_by_storage() {
        let s = Mem(vec![limit_range(
            "storage",
            json!([{"type": "PersistentVolumeClaim", "min": {"storage": "1Gi"}, "max": {"storage": "10Gi"}}]),
        )]);
        let pvc = |size: &str| {
            json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                   "metadata": {"name": "data", "namespace": "default"},
                   "spec": {"resources": {"requests": {"storage": size}}}})
        };
        assert!(validate_claim(&pvc("5Gi"), "default", &s).is_ok());
        assert_eq!(
            validate_claim(&pvc("20Gi"), "default", &s).unwrap_err().message,
            "persistentvolumeclaims \"data\" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi"
        );
        assert_eq!(
            validate_claim(&pvc("500Mi"), "default", &s).unwrap_err().message,
            "persistentvolumeclaims \"data\" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi"
        );
    }

    #[test]
    fn no_limit_ranges_no_change() {
        let s = Mem(vec![]);
        let mut p = pod(json!({}));
        let before = p.clone();
        assert!(admit(&mut p, "default", &s).unwrap().is_empty());
        assert_eq!(p, before);
    }
}
