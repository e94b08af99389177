//! Defaulting, as the `SetDefaults_*` functions of `pkg/apis/*/v1/defaults.go` (and the
//! generated `SetObjectDefaults_*` that walk into nested types) do while the apiserver decodes a
//! request. Quantities are rewritten in canonical form, rounded up to milli-units as
//! `SetDefaults_ResourceList` does, because the apiserver round-trips every object through its
//! Go types; for the same reason a container without `resources` gets `resources: {}`.
//!
//! Fields of the wrong JSON type are left alone (decoding reports them); nothing here panics.

use crate::api::quantity::Quantity;
use crate::api::value::{json, Map, Value};
use crate::api::Object;

type Obj = Map;

/// Applies the defaults of `kind` to `obj` in place.
pub fn apply_defaults(kind: &str, obj: &mut Object) {
    let Some(o) = obj.as_object_mut() else {
        return;
    };
    match kind {
        "Pod" => pod(o),
        "PodTemplate" => {
            if let Some(t) = child(o, "template") {
                pod_template(t);
            }
        }
        "ReplicationController" => replication_controller(o),
        "Deployment" => deployment(o),
        "ReplicaSet" => replica_set(o),
        "StatefulSet" => stateful_set(o),
        "DaemonSet" => daemon_set(o),
        "Job" => job(o),
        "CronJob" => cron_job(o),
        "Service" => service(o),
        "Namespace" => namespace(o),
        "Secret" => {
            default_str(o, "type", "Opaque");
        }
        "Node" => node(o),
        "Endpoints" => endpoints(o),
        "EndpointSlice" => endpoint_slice(o),
        "PersistentVolume" => persistent_volume(o),
        "PersistentVolumeClaim" => persistent_volume_claim(o),
        "ResourceQuota" => {
            for path in [["spec", "hard"], ["status", "hard"], ["status", "used"]] {
                if let Some(list) = child_path(o, &path) {
                    resource_list(list);
                }
            }
        }
        "LimitRange" => limit_range(o),
        "RoleBinding" | "ClusterRoleBinding" => role_binding(o),
        "NetworkPolicy" => network_policy(o),
        "PriorityClass" => {
            default_str(o, "preemptionPolicy", "PreemptLowerPriority");
        }
        "StorageClass" => {
            default_str(o, "reclaimPolicy", "Delete");
            default_str(o, "volumeBindingMode", "Immediate");
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------------
// JSON helpers: each one touches a field only when it is absent, null, or of the right type.

/// The child object at `key`, if it is one.
fn child<'a>(o: &'a mut Obj, key: &str) -> Option<&'a mut Obj> {
    o.get_mut(key).and_then(Value::as_object_mut)
}

fn child_path<'a>(o: &'a mut Obj, path: &[&str]) -> Option<&'a mut Obj> {
    let mut cur = o;
    for p in path {
        cur = child(cur, p)?;
    }
    Some(cur)
}

/// The child object at `key`, created empty when absent or null.
fn ensure<'a>(o: &'a mut Obj, key: &str) -> Option<&'a mut Obj> {
    if unset(o, key) {
        o.insert(key.to_string(), Value::Object(Map::new()));
    }
    o.get_mut(key).and_then(Value::as_object_mut)
}

/// The objects of the array at `key`.
fn items<'a>(o: &'a mut Obj, key: &str) -> impl Iterator<Item = &'a mut Obj> {
    o.get_mut(key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}

fn unset(o: &Obj, key: &str) -> bool {
    matches!(o.get(key), None | Some(Value::Null))
}

/// A Go string field: empty counts as unset.
fn default_str(o: &mut Obj, key: &str, value: &str) {
    if unset(o, key) || o.get(key).and_then(Value::as_str) == Some("") {
        o.insert(key.to_string(), Value::String(value.to_string()));
    }
}

/// A Go pointer field: only nil counts as unset.
fn default_ptr(o: &mut Obj, key: &str, value: Value) {
    if unset(o, key) {
        o.insert(key.to_string(), value);
    }
}

/// A Go integer field: zero counts as unset.
fn default_int(o: &mut Obj, key: &str, value: i64) {
    if unset(o, key) || o.get(key).and_then(Value::as_i64) == Some(0) {
        o.insert(key.to_string(), json!(value));
    }
}

fn str_of<'a>(o: &'a Obj, key: &str) -> &'a str {
    o.get(key).and_then(Value::as_str).unwrap_or("")
}

/// Rewrites one quantity in canonical form, optionally rounded up to milli-units.
fn quantity(v: &mut Value, round_milli: bool) {
    if v.is_null() {
        return;
    }
    if let Ok(mut q) = Quantity::from_json(v) {
        if round_milli {
            q.round_up_milli();
        }
        let s = q.to_string();
        if v.as_str() != Some(s.as_str()) {
            *v = Value::String(s);
        }
    }
}

/// `SetDefaults_ResourceList`: every quantity rounded up to milli-units, in canonical form.
fn resource_list(list: &mut Obj) {
    for v in list.values_mut() {
        quantity(v, true);
    }
}

fn resource_lists_in(o: &mut Obj, keys: &[&str]) {
    for k in keys {
        if let Some(list) = child(o, k) {
            resource_list(list);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Pods and pod templates

/// `SetDefaults_Pod` plus everything a PodSpec gets.
fn pod(o: &mut Obj) {
    if let Some(spec) = child(o, "spec") {
        // Requests default to limits, per resource (Pod objects only, not templates).
        for key in ["containers", "initContainers"] {
            for c in items(spec, key) {
                let limits = match c.get("resources").and_then(|r| r.get("limits")) {
                    Some(Value::Object(l)) => l.clone(),
                    _ => continue,
                };
                let Some(res) = child(c, "resources") else {
                    continue;
                };
                let Some(requests) = ensure(res, "requests") else {
                    continue;
                };
                for (k, v) in limits {
                    requests.entry(k).or_insert(v);
                }
            }
        }
        default_ptr(spec, "enableServiceLinks", json!(true));
        if spec.get("hostNetwork").and_then(Value::as_bool) == Some(true) {
            for key in ["containers", "initContainers"] {
                for c in items(spec, key) {
                    for p in items(c, "ports") {
                        let cp = p.get("containerPort").cloned().unwrap_or(Value::Null);
                        if cp.is_i64() && matches!(p.get("hostPort"), None | Some(Value::Null))
                            || p.get("hostPort").and_then(Value::as_i64) == Some(0)
                        {
                            p.insert("hostPort", cp);
                        }
                    }
                }
            }
        }
    }
    if let Some(spec) = ensure(o, "spec") {
        pod_spec(spec);
    }
}

/// A `PodTemplateSpec` inside a workload: PodSpec defaults only.
fn pod_template(t: &mut Obj) {
    if let Some(spec) = ensure(t, "spec") {
        pod_spec(spec);
    }
}

/// `SetDefaults_PodSpec` and the defaults of everything inside a PodSpec.
pub(crate) fn pod_spec(spec: &mut Obj) {
    default_str(spec, "dnsPolicy", "ClusterFirst");
    default_str(spec, "restartPolicy", "Always");
    default_ptr(spec, "securityContext", json!({}));
    default_ptr(spec, "terminationGracePeriodSeconds", json!(30));
    default_str(spec, "schedulerName", "default-scheduler");
    for key in ["containers", "initContainers", "ephemeralContainers"] {
        for c in items(spec, key) {
            container(c);
        }
    }
    for v in items(spec, "volumes") {
        volume(v);
    }
    resource_lists_in(spec, &["overhead"]);
    if let Some(r) = child(spec, "resources") {
        resource_lists_in(r, &["limits", "requests"]);
    }
}

/// `SetDefaults_Container` with its ports, probes, lifecycle handlers, env and resources.
fn container(c: &mut Obj) {
    let always = image_tag_is_latest(str_of(c, "image"));
    default_str(
        c,
        "imagePullPolicy",
        if always { "Always" } else { "IfNotPresent" },
    );
    default_str(c, "terminationMessagePath", "/dev/termination-log");
    default_str(c, "terminationMessagePolicy", "File");
    for p in items(c, "ports") {
        default_str(p, "protocol", "TCP");
    }
    for key in ["livenessProbe", "readinessProbe", "startupProbe"] {
        if let Some(p) = child(c, key) {
            probe(p);
        }
    }
    if let Some(l) = child(c, "lifecycle") {
        for key in ["postStart", "preStop"] {
            if let Some(h) = child(l, key) {
                if let Some(g) = child(h, "httpGet") {
                    http_get(g);
                }
            }
        }
    }
    for e in items(c, "env") {
        if let Some(f) = child_path(e, &["valueFrom", "fieldRef"]) {
            default_str(f, "apiVersion", "v1");
        }
        if let Some(r) = child_path(e, &["valueFrom", "resourceFieldRef"]) {
            if let Some(d) = r.get_mut("divisor") {
                quantity(d, false);
            }
        }
    }
    if let Some(r) = ensure(c, "resources") {
        resource_lists_in(r, &["limits", "requests"]);
    }
}

/// `SetDefaults_Probe` and its handler's defaults.
fn probe(p: &mut Obj) {
    default_int(p, "timeoutSeconds", 1);
    default_int(p, "periodSeconds", 10);
    default_int(p, "successThreshold", 1);
    default_int(p, "failureThreshold", 3);
    if let Some(g) = child(p, "httpGet") {
        http_get(g);
    }
    if let Some(g) = child(p, "grpc") {
        default_ptr(g, "service", json!(""));
    }
}

/// `SetDefaults_HTTPGetAction`.
fn http_get(g: &mut Obj) {
    default_str(g, "path", "/");
    default_str(g, "scheme", "HTTP");
}

const VOLUME_SOURCES: &[&str] = &[
    "hostPath",
    "emptyDir",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "gitRepo",
    "secret",
    "nfs",
    "iscsi",
    "glusterfs",
    "persistentVolumeClaim",
    "rbd",
    "flexVolume",
    "cinder",
    "cephfs",
    "flocker",
    "downwardAPI",
    "fc",
    "azureFile",
    "configMap",
    "vsphereVolume",
    "quobyte",
    "azureDisk",
    "photonPersistentDisk",
    "projected",
    "portworxVolume",
    "scaleIO",
    "storageos",
    "csi",
    "ephemeral",
    "image",
];

/// `SetDefaults_Volume` and the defaults of its source.
fn volume(v: &mut Obj) {
    if VOLUME_SOURCES.iter().all(|k| unset(v, k)) {
        v.insert("emptyDir", json!({}));
    }
    if let Some(s) = child(v, "secret") {
        default_ptr(s, "defaultMode", json!(420));
    }
    if let Some(s) = child(v, "configMap") {
        default_ptr(s, "defaultMode", json!(420));
    }
    if let Some(s) = child(v, "downwardAPI") {
        default_ptr(s, "defaultMode", json!(420));
        downward_items(s);
    }
    if let Some(s) = child(v, "projected") {
        default_ptr(s, "defaultMode", json!(420));
        for src in items(s, "sources") {
            if let Some(t) = child(src, "serviceAccountToken") {
                default_ptr(t, "expirationSeconds", json!(3600));
            }
            if let Some(d) = child(src, "downwardAPI") {
                downward_items(d);
            }
        }
    }
    if let Some(h) = child(v, "hostPath") {
        default_ptr(h, "type", json!(""));
    }
    if let Some(e) = child(v, "emptyDir") {
        if let Some(q) = e.get_mut("sizeLimit") {
            quantity(q, false);
        }
    }
    if let Some(i) = child(v, "image") {
        let always = image_tag_is_latest(str_of(i, "reference"));
        default_str(
            i,
            "pullPolicy",
            if always { "Always" } else { "IfNotPresent" },
        );
    }
    if let Some(spec) = child_path(v, &["ephemeral", "volumeClaimTemplate", "spec"]) {
        pvc_spec(spec);
    }
}

fn downward_items(d: &mut Obj) {
    for it in items(d, "items") {
        if let Some(f) = child(it, "fieldRef") {
            default_str(f, "apiVersion", "v1");
        }
        if let Some(r) = child(it, "resourceFieldRef") {
            if let Some(q) = r.get_mut("divisor") {
                quantity(q, false);
            }
        }
    }
}

/// `parsers.ParseImageName` returns the tag `latest` for an image with neither tag nor digest;
/// an image that is not a valid reference has no tag at all.
pub fn image_tag_is_latest(image: &str) -> bool {
    let (name_tag, digest) = match image.split_once('@') {
        Some((n, d)) => (n, Some(d)),
        None => (image, None),
    };
    let last_slash = name_tag.rfind('/').map(|i| i + 1).unwrap_or(0);
    let (name, tag) = match name_tag[last_slash..].rfind(':') {
        Some(i) => (
            &name_tag[..last_slash + i],
            Some(&name_tag[last_slash + i + 1..]),
        ),
        None => (name_tag, None),
    };
    if !valid_image_name(name)
        || tag.is_some_and(|t| !valid_tag(t))
        || digest.is_some_and(|d| !valid_digest(d))
    {
        return false;
    }
    match tag {
        Some(t) => t == "latest",
        None => digest.is_none(),
    }
}

fn valid_image_name(name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    let parts: Vec<&str> = name.split('/').collect();
    let first_is_domain = parts.len() > 1
        && (parts[0].contains('.') || parts[0].contains(':') || parts[0] == "localhost");
    let path = if first_is_domain {
        let domain = parts[0];
        if domain.is_empty()
            || !domain
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || b".-:[]".contains(&c))
        {
            return false;
        }
        &parts[1..]
    } else {
        &parts[..]
    };
    path.iter().all(|c| valid_path_component(c))
}

/// `[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*`
fn valid_path_component(c: &str) -> bool {
    let b = c.as_bytes();
    if b.is_empty() || !is_lower_alnum(b[0]) || !is_lower_alnum(b[b.len() - 1]) {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        if is_lower_alnum(b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && !is_lower_alnum(b[i]) {
            i += 1;
        }
        let sep = &c[start..i];
        let ok = sep == "." || sep == "_" || sep == "__" || sep.bytes().all(|x| x == b'-');
        if !ok {
            return false;
        }
    }
    true
}

fn is_lower_alnum(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

/// `[\w][\w.-]{0,127}`
fn valid_tag(t: &str) -> bool {
    let b = t.as_bytes();
    !b.is_empty()
        && b.len() <= 128
        && (b[0].is_ascii_alphanumeric() || b[0] == b'_')
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || b"_.-".contains(c))
}

fn valid_digest(d: &str) -> bool {
    match d.split_once(':') {
        Some((alg, hex)) => {
            !alg.is_empty()
                && hex.len() >= 32
                && hex.bytes().all(|c| c.is_ascii_hexdigit())
                && alg
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || b"+._-".contains(&c))
        }
        None => false,
    }
}

// ---------------------------------------------------------------------------------------------
// Workloads

fn replication_controller(o: &mut Obj) {
    let labels = o
        .get("spec")
        .and_then(|s| s.get("template"))
        .and_then(|t| t.get("metadata"))
        .and_then(|m| m.get("labels"))
        .filter(|l| l.is_object())
        .cloned();
    if let Some(labels) = labels {
        if let Some(spec) = child(o, "spec") {
            let empty = match spec.get("selector") {
                None | Some(Value::Null) => true,
                Some(Value::Object(m)) => m.is_empty(),
                _ => false,
            };
            if empty {
                spec.insert("selector", labels.clone());
            }
        }
        copy_labels_if_empty(o, labels);
    }
    if let Some(spec) = ensure(o, "spec") {
        default_ptr(spec, "replicas", json!(1));
        if let Some(t) = child(spec, "template") {
            pod_template(t);
        }
    }
}

fn copy_labels_if_empty(o: &mut Obj, labels: Value) {
    let Some(meta) = ensure(o, "metadata") else {
        return;
    };
    let empty = match meta.get("labels") {
        None | Some(Value::Null) => true,
        Some(Value::Object(m)) => m.is_empty(),
        _ => false,
    };
    if empty {
        meta.insert("labels", labels);
    }
}

/// `SetDefaults_Deployment` (apps/v1).
fn deployment(o: &mut Obj) {
    let Some(spec) = ensure(o, "spec") else {
        return;
    };
    default_ptr(spec, "replicas", json!(1));
    if let Some(strategy) = ensure(spec, "strategy") {
        default_str(strategy, "type", "RollingUpdate");
        if str_of(strategy, "type") == "RollingUpdate" {
            if let Some(ru) = ensure(strategy, "rollingUpdate") {
                default_ptr(ru, "maxUnavailable", json!("25%"));
                default_ptr(ru, "maxSurge", json!("25%"));
            }
        }
    }
    default_ptr(spec, "revisionHistoryLimit", json!(10));
    default_ptr(spec, "progressDeadlineSeconds", json!(600));
    if let Some(t) = ensure(spec, "template") {
        pod_template(t);
    }
}

/// `SetDefaults_ReplicaSet`.
fn replica_set(o: &mut Obj) {
    let Some(spec) = ensure(o, "spec") else {
        return;
    };
    default_ptr(spec, "replicas", json!(1));
    if let Some(t) = ensure(spec, "template") {
        pod_template(t);
    }
}

/// `SetDefaults_StatefulSet`.
fn stateful_set(o: &mut Obj) {
    let Some(spec) = ensure(o, "spec") else {
        return;
    };
    default_str(spec, "podManagementPolicy", "OrderedReady");
    if let Some(us) = ensure(spec, "updateStrategy") {
        if str_of(us, "type").is_empty() {
            us.insert("type", json!("RollingUpdate"));
            default_ptr(us, "rollingUpdate", json!({}));
        }
        if str_of(us, "type") == "RollingUpdate" {
            if let Some(ru) = child(us, "rollingUpdate") {
                default_ptr(ru, "partition", json!(0));
            }
        }
    }
    if let Some(p) = ensure(spec, "persistentVolumeClaimRetentionPolicy") {
        default_str(p, "whenDeleted", "Retain");
        default_str(p, "whenScaled", "Retain");
    }
    default_ptr(spec, "replicas", json!(1));
    default_ptr(spec, "revisionHistoryLimit", json!(10));
    if let Some(t) = ensure(spec, "template") {
        pod_template(t);
    }
    for pvc in items(spec, "volumeClaimTemplates") {
        persistent_volume_claim(pvc);
    }
}

/// `SetDefaults_DaemonSet`.
fn daemon_set(o: &mut Obj) {
    let Some(spec) = ensure(o, "spec") else {
        return;
    };
    if let Some(us) = ensure(spec, "updateStrategy") {
        default_str(us, "type", "RollingUpdate");
        if str_of(us, "type") == "RollingUpdate" {
            if let Some(ru) = ensure(us, "rollingUpdate") {
                default_ptr(ru, "maxUnavailable", json!(1));
                default_ptr(ru, "maxSurge", json!(0));
            }
        }
    }
    default_ptr(spec, "revisionHistoryLimit", json!(10));
    if let Some(t) = ensure(spec, "template") {
        pod_template(t);
    }
}

/// `SetDefaults_Job` (batch/v1, with PodReplacementPolicy now GA).
fn job(o: &mut Obj) {
    let labels = o
        .get("spec")
        .and_then(|s| s.get("template"))
        .and_then(|t| t.get("metadata"))
        .and_then(|m| m.get("labels"))
        .filter(|l| l.is_object())
        .cloned();
    if let Some(spec) = ensure(o, "spec") {
        job_spec(spec);
    }
    if let Some(labels) = labels {
        copy_labels_if_empty(o, labels);
    }
}

fn job_spec(spec: &mut Obj) {
    if unset(spec, "completions") && unset(spec, "parallelism") {
        spec.insert("completions", json!(1));
        spec.insert("parallelism", json!(1));
    }
    default_ptr(spec, "parallelism", json!(1));
    if unset(spec, "backoffLimit") {
        let limit = if unset(spec, "backoffLimitPerIndex") {
            6
        } else {
            i32::MAX as i64
        };
        spec.insert("backoffLimit", json!(limit));
    }
    default_ptr(spec, "completionMode", json!("NonIndexed"));
    default_ptr(spec, "suspend", json!(false));
    let replacement = if unset(spec, "podFailurePolicy") {
        "TerminatingOrFailed"
    } else {
        "Failed"
    };
    default_ptr(spec, "podReplacementPolicy", json!(replacement));
    if let Some(t) = ensure(spec, "template") {
        pod_template(t);
    }
}

/// `SetDefaults_CronJob`.
fn cron_job(o: &mut Obj) {
    let Some(spec) = ensure(o, "spec") else {
        return;
    };
    default_str(spec, "concurrencyPolicy", "Allow");
    default_ptr(spec, "suspend", json!(false));
    default_ptr(spec, "successfulJobsHistoryLimit", json!(3));
    default_ptr(spec, "failedJobsHistoryLimit", json!(1));
    if let Some(t) = child_path(spec, &["jobTemplate", "spec", "template"]) {
        pod_template(t);
    }
}

// ---------------------------------------------------------------------------------------------
// Core objects

/// `SetDefaults_Service`.
fn service(o: &mut Obj) {
    if let Some(spec) = ensure(o, "spec") {
        default_str(spec, "sessionAffinity", "None");
        match str_of(spec, "sessionAffinity") {
            "None" => {
                spec.remove("sessionAffinityConfig");
            }
            "ClientIP" => {
                let has_timeout = spec
                    .get("sessionAffinityConfig")
                    .and_then(|c| c.get("clientIP"))
                    .and_then(|c| c.get("timeoutSeconds"))
                    .is_some_and(|t| !t.is_null());
                if !has_timeout {
                    spec.insert(
                        "sessionAffinityConfig",
                        json!({"clientIP": {"timeoutSeconds": 10800}}),
                    );
                }
            }
            _ => {}
        }
        default_str(spec, "type", "ClusterIP");
        for p in items(spec, "ports") {
            default_str(p, "protocol", "TCP");
            let unset_target = match p.get("targetPort") {
                None | Some(Value::Null) => true,
                Some(Value::String(s)) => s.is_empty(),
                Some(v) => v.as_i64() == Some(0),
            };
            if unset_target {
                if let Some(port) = p.get("port").filter(|v| v.is_i64()).cloned() {
                    p.insert("targetPort", port);
                } else if !p.contains_key("port") {
                    p.insert("targetPort", json!(0));
                }
            }
        }
        let ty = str_of(spec, "type").to_string();
        let has_external_ips = spec
            .get("externalIPs")
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty());
        let externally_accessible =
            ty == "LoadBalancer" || ty == "NodePort" || (ty == "ClusterIP" && has_external_ips);
        if externally_accessible {
            default_str(spec, "externalTrafficPolicy", "Cluster");
        }
        if matches!(ty.as_str(), "ClusterIP" | "NodePort" | "LoadBalancer") {
            default_ptr(spec, "internalTrafficPolicy", json!("Cluster"));
        }
        if ty == "LoadBalancer" {
            default_ptr(spec, "allocateLoadBalancerNodePorts", json!(true));
        }
    }
    if let Some(status) = ensure(o, "status") {
        default_ptr(status, "loadBalancer", json!({}));
    }
}

/// `SetDefaults_Namespace` and `SetDefaults_NamespaceStatus`.
fn namespace(o: &mut Obj) {
    let name = o
        .get("metadata")
        .and_then(|m| m.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if !name.is_empty() {
        if let Some(meta) = ensure(o, "metadata") {
            if let Some(labels) = ensure(meta, "labels") {
                labels.insert("kubernetes.io/metadata.name", json!(name));
            }
        }
    }
    if let Some(status) = ensure(o, "status") {
        default_str(status, "phase", "Active");
    }
}

/// `SetDefaults_NodeStatus`: allocatable defaults to capacity.
fn node(o: &mut Obj) {
    let Some(status) = child(o, "status") else {
        return;
    };
    resource_lists_in(status, &["capacity", "allocatable"]);
    if unset(status, "allocatable") {
        if let Some(cap) = status.get("capacity").filter(|c| c.is_object()).cloned() {
            status.insert("allocatable", cap);
        }
    }
}

fn endpoints(o: &mut Obj) {
    for ss in items(o, "subsets") {
        for p in items(ss, "ports") {
            default_str(p, "protocol", "TCP");
        }
    }
}

/// discovery/v1 `SetDefaults_EndpointPort`.
fn endpoint_slice(o: &mut Obj) {
    for p in items(o, "ports") {
        default_ptr(p, "name", json!(""));
        default_ptr(p, "protocol", json!("TCP"));
    }
}

/// `SetDefaults_PersistentVolume`.
fn persistent_volume(o: &mut Obj) {
    if let Some(spec) = ensure(o, "spec") {
        default_str(spec, "persistentVolumeReclaimPolicy", "Retain");
        default_ptr(spec, "volumeMode", json!("Filesystem"));
        resource_lists_in(spec, &["capacity"]);
    }
    if let Some(status) = ensure(o, "status") {
        default_str(status, "phase", "Pending");
    }
}

/// `SetDefaults_PersistentVolumeClaim` and `SetDefaults_PersistentVolumeClaimSpec`.
fn persistent_volume_claim(o: &mut Obj) {
    if let Some(spec) = ensure(o, "spec") {
        pvc_spec(spec);
    }
    if let Some(status) = ensure(o, "status") {
        default_str(status, "phase", "Pending");
        resource_lists_in(status, &["capacity", "allocatedResources"]);
    }
}

fn pvc_spec(spec: &mut Obj) {
    default_ptr(spec, "volumeMode", json!("Filesystem"));
    if let Some(r) = child(spec, "resources") {
        resource_lists_in(r, &["limits", "requests"]);
    }
}

/// `SetDefaults_LimitRangeItem`: for `Container` limits, default limit from max, default
/// request from the default limit, then from min.
fn limit_range(o: &mut Obj) {
    let Some(spec) = child(o, "spec") else {
        return;
    };
    for item in items(spec, "limits") {
        if str_of(item, "type") == "Container" {
            let max = item.get("max").and_then(Value::as_object).cloned();
            let min = item.get("min").and_then(Value::as_object).cloned();
            if let Some(default) = ensure(item, "default") {
                for (k, v) in max.into_iter().flatten() {
                    default.entry(k).or_insert(v);
                }
            }
            let default = item.get("default").and_then(Value::as_object).cloned();
            if let Some(req) = ensure(item, "defaultRequest") {
                for (k, v) in default.into_iter().flatten() {
                    req.entry(k).or_insert(v);
                }
                for (k, v) in min.into_iter().flatten() {
                    req.entry(k).or_insert(v);
                }
            }
            for key in ["default", "defaultRequest"] {
                if item
                    .get(key)
                    .and_then(Value::as_object)
                    .is_some_and(Map::is_empty)
                {
                    item.remove(key);
                }
            }
        }
        resource_lists_in(
            item,
            &[
                "max",
                "min",
                "default",
                "defaultRequest",
                "maxLimitRequestRatio",
            ],
        );
    }
}

/// rbac/v1 `SetDefaults_RoleBinding`/`ClusterRoleBinding` and `SetDefaults_Subject`.
fn role_binding(o: &mut Obj) {
    if let Some(r) = child(o, "roleRef") {
        default_str(r, "apiGroup", "rbac.authorization.k8s.io");
    }
    for s in items(o, "subjects") {
        if str_of(s, "apiGroup").is_empty() {
            match str_of(s, "kind") {
                "ServiceAccount" => {
                    s.insert("apiGroup", json!(""));
                }
                "User" | "Group" => {
                    s.insert("apiGroup", json!("rbac.authorization.k8s.io"));
                }
                _ => {}
            }
        }
    }
}

/// networking/v1 `SetDefaults_NetworkPolicy` and `SetDefaults_NetworkPolicyPort`.
fn network_policy(o: &mut Obj) {
    let Some(spec) = child(o, "spec") else {
        return;
    };
    for key in ["ingress", "egress"] {
        for rule in items(spec, key) {
            for p in items(rule, "ports") {
                default_ptr(p, "protocol", json!("TCP"));
            }
        }
    }
    let no_types = match spec.get("policyTypes") {
        None | Some(Value::Null) => true,
        Some(Value::Array(a)) => a.is_empty(),
        _ => false,
    };
    if no_types {
        let has_egress = spec
            .get("egress")
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty());
        let types = if has_egress {
            json!(["Ingress", "Egress"])
        } else {
            json!(["Ingress"])
        };
        spec.insert("policyTypes", types);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaulted(kind: &str, mut obj: Value) -> Value {
        apply_defaults(kind, &mut obj);
        obj
    }

    const CONTAINER_DEFAULTS: &str = r#"{"image":"nginx:1.25","imagePullPolicy":"IfNotPresent","name":"web","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}"#;

    #[test]
    fn deployment_defaults() {
        let d = defaulted(
            "Deployment",
            json!({
                "apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "web"},
                "spec": {
                    "selector": {"matchLabels": {"app": "web"}},
                    "template": {
                        "metadata": {"labels": {"app": "web"}},
                        "spec": {"containers": [{"name": "web", "image": "nginx:1.25"}]}
                    }
                }
            }),
        );
        let spec = &d["spec"];
        assert_eq!(spec["replicas"], 1);
        assert_eq!(
            spec["strategy"],
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}})
        );
        assert_eq!(spec["revisionHistoryLimit"], 10);
        assert_eq!(spec["progressDeadlineSeconds"], 600);
        let pod = &spec["template"]["spec"];
        assert_eq!(pod["dnsPolicy"], "ClusterFirst");
        assert_eq!(pod["restartPolicy"], "Always");
        assert_eq!(pod["securityContext"], json!({}));
        assert_eq!(pod["terminationGracePeriodSeconds"], 30);
        assert_eq!(pod["schedulerName"], "default-scheduler");
        // Template pods get no Pod-only defaults.
        assert!(pod.get("enableServiceLinks").is_none());
        assert_eq!(pod["containers"][0].to_string(), CONTAINER_DEFAULTS);
    }

    #[test]
    fn recreate_strategy_gets_no_rolling_update() {
        let d = defaulted(
            "Deployment",
            json!({"spec": {"strategy": {"type": "Recreate"}}}),
        );
        assert_eq!(d["spec"]["strategy"], json!({"type": "Recreate"}));
        let d = defaulted(
            "Deployment",
            json!({"spec": {"strategy": {"rollingUpdate": {"maxSurge": 1}}}}),
        );
        assert_eq!(
            d["spec"]["strategy"],
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": "25%"}})
        );
    }

    #[test]
    fn image_pull_policy_follows_the_tag() {
        for (image, policy) in [
            ("nginx", "Always"),
            ("nginx:latest", "Always"),
            ("nginx:1.25", "IfNotPresent"),
            (
                "nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
                "IfNotPresent",
            ),
            (
                "nginx:latest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
                "Always",
            ),
            ("registry.example.com:5000/team/app", "Always"),
            ("registry.example.com:5000/team/app:v2", "IfNotPresent"),
            ("localhost/app", "Always"),
            ("NGINX", "IfNotPresent"),
            ("", "IfNotPresent"),
        ] {
            let mut c = json!({"name": "c", "image": image});
            container(c.as_object_mut().unwrap());
            assert_eq!(c["imagePullPolicy"], policy, "{image}");
        }
        let mut c = json!({"name": "c", "image": "nginx", "imagePullPolicy": "Never"});
        container(c.as_object_mut().unwrap());
        assert_eq!(c["imagePullPolicy"], "Never");
    }

    #[test]
    fn pod_defaults() {
        let p = defaulted(
            "Pod",
            json!({
                "metadata": {"name": "p"},
                "spec": {
                    "containers": [{
                        "name": "app", "image": "busybox",
                        "ports": [{"containerPort": 8080}],
                        "resources": {"limits": {"cpu": "0.5", "memory": "128974848"}, "requests": {"memory": "64Mi"}},
                        "livenessProbe": {"httpGet": {"port": 8080}},
                        "readinessProbe": {"tcpSocket": {"port": 8080}, "periodSeconds": 5},
                        "env": [{"name": "NODE", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}}]
                    }],
                    "initContainers": [{"name": "init", "image": "busybox:1.36", "resources": {"limits": {"cpu": "1000m"}}}],
                    "volumes": [
                        {"name": "cfg", "configMap": {"name": "cfg"}},
                        {"name": "sec", "secret": {"secretName": "s"}},
                        {"name": "scratch"},
                        {"name": "host", "hostPath": {"path": "/tmp"}}
                    ]
                }
            }),
        );
        let spec = &p["spec"];
        assert_eq!(spec["enableServiceLinks"], true);
        let c = &spec["containers"][0];
        assert_eq!(c["imagePullPolicy"], "Always");
        assert_eq!(
            c["ports"][0],
            json!({"containerPort": 8080, "protocol": "TCP"})
        );
        assert_eq!(
            c["resources"],
            json!({"limits": {"cpu": "500m", "memory": "128974848"}, "requests": {"cpu": "500m", "memory": "64Mi"}})
        );
        assert_eq!(
            c["livenessProbe"],
            json!({"httpGet": {"path": "/", "port": 8080, "scheme": "HTTP"}, "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3})
        );
        assert_eq!(c["readinessProbe"]["periodSeconds"], 5);
        assert_eq!(c["readinessProbe"]["timeoutSeconds"], 1);
        assert_eq!(c["env"][0]["valueFrom"]["fieldRef"]["apiVersion"], "v1");
        let init = &spec["initContainers"][0];
        assert_eq!(init["imagePullPolicy"], "IfNotPresent");
        assert_eq!(init["resources"]["requests"], json!({"cpu": "1"}));
        assert_eq!(init["resources"]["limits"], json!({"cpu": "1"}));
        assert_eq!(
            spec["volumes"],
            json!([
                {"name": "cfg", "configMap": {"name": "cfg", "defaultMode": 420}},
                {"name": "sec", "secret": {"secretName": "s", "defaultMode": 420}},
                {"name": "scratch", "emptyDir": {}},
                {"name": "host", "hostPath": {"path": "/tmp", "type": ""}}
            ])
        );
    }

    #[test]
    fn host_network_copies_container_ports() {
        let p = defaulted(
            "Pod",
            json!({"spec": {"hostNetwork": true, "containers": [{"name": "c", "image": "x", "ports": [{"containerPort": 53}]}]}}),
        );
        assert_eq!(p["spec"]["containers"][0]["ports"][0]["hostPort"], 53);
    }

    #[test]
    fn service_defaults() {
        let s = defaulted(
            "Service",
            json!({"metadata": {"name": "web"}, "spec": {"selector": {"app": "web"}, "ports": [{"port": 80}, {"port": 443, "targetPort": "https"}]}}),
        );
        assert_eq!(
            s["spec"],
            json!({
                "internalTrafficPolicy": "Cluster",
                "ports": [
                    {"port": 80, "protocol": "TCP", "targetPort": 80},
                    {"port": 443, "protocol": "TCP", "targetPort": "https"}
                ],
                "selector": {"app": "web"},
                "sessionAffinity": "None",
                "type": "ClusterIP"
            })
        );
        assert_eq!(s["status"], json!({"loadBalancer": {}}));
        let lb = defaulted(
            "Service",
            json!({"spec": {"type": "LoadBalancer", "ports": [{"port": 80, "targetPort": 0}]}}),
        );
        assert_eq!(lb["spec"]["externalTrafficPolicy"], "Cluster");
        assert_eq!(lb["spec"]["internalTrafficPolicy"], "Cluster");
        assert_eq!(lb["spec"]["allocateLoadBalancerNodePorts"], true);
        assert_eq!(lb["spec"]["ports"][0]["targetPort"], 80);
        let np = defaulted("Service", json!({"spec": {"type": "NodePort"}}));
        assert_eq!(np["spec"]["externalTrafficPolicy"], "Cluster");
        assert!(np["spec"].get("allocateLoadBalancerNodePorts").is_none());
        let en = defaulted(
            "Service",
            json!({"spec": {"type": "ExternalName", "externalName": "x.example.com"}}),
        );
        assert!(en["spec"].get("internalTrafficPolicy").is_none());
        assert!(en["spec"].get("externalTrafficPolicy").is_none());
        let ci = defaulted("Service", json!({"spec": {"sessionAffinity": "ClientIP"}}));
        assert_eq!(
            ci["spec"]["sessionAffinityConfig"],
            json!({"clientIP": {"timeoutSeconds": 10800}})
        );
    }

    #[test]
    fn namespace_secret_and_friends() {
        let ns = defaulted("Namespace", json!({"metadata": {"name": "team-a"}}));
        assert_eq!(
            ns["metadata"]["labels"]["kubernetes.io/metadata.name"],
            "team-a"
        );
        assert_eq!(ns["status"]["phase"], "Active");
        let s = defaulted("Secret", json!({"metadata": {"name": "s"}}));
        assert_eq!(s["type"], "Opaque");
        let s = defaulted("Secret", json!({"type": "kubernetes.io/tls"}));
        assert_eq!(s["type"], "kubernetes.io/tls");
        let rb = defaulted(
            "RoleBinding",
            json!({"roleRef": {"kind": "Role", "name": "r"}, "subjects": [{"kind": "User", "name": "jane"}, {"kind": "ServiceAccount", "name": "sa"}]}),
        );
        assert_eq!(rb["roleRef"]["apiGroup"], "rbac.authorization.k8s.io");
        assert_eq!(rb["subjects"][0]["apiGroup"], "rbac.authorization.k8s.io");
        assert_eq!(rb["subjects"][1]["apiGroup"], "");
    }

    #[test]
    fn workload_defaults() {
        let rs = defaulted("ReplicaSet", json!({"spec": {}}));
        assert_eq!(rs["spec"]["replicas"], 1);
        let sts = defaulted(
            "StatefulSet",
            json!({"spec": {"volumeClaimTemplates": [{"spec": {"resources": {"requests": {"storage": "1Gi"}}}}]}}),
        );
        let spec = &sts["spec"];
        assert_eq!(spec["podManagementPolicy"], "OrderedReady");
        assert_eq!(
            spec["updateStrategy"],
            json!({"type": "RollingUpdate", "rollingUpdate": {"partition": 0}})
        );
        assert_eq!(
            spec["persistentVolumeClaimRetentionPolicy"],
            json!({"whenDeleted": "Retain", "whenScaled": "Retain"})
        );
        assert_eq!(spec["replicas"], 1);
        assert_eq!(spec["revisionHistoryLimit"], 10);
        assert_eq!(
            spec["volumeClaimTemplates"][0]["spec"]["volumeMode"],
            "Filesystem"
        );
        assert_eq!(
            spec["volumeClaimTemplates"][0]["status"]["phase"],
            "Pending"
        );
        let ds = defaulted("DaemonSet", json!({"spec": {}}));
        assert_eq!(
            ds["spec"]["updateStrategy"],
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1}})
        );
        assert_eq!(ds["spec"]["revisionHistoryLimit"], 10);
        let job = defaulted(
            "Job",
            json!({"spec": {"template": {"metadata": {"labels": {"app": "pi"}}, "spec": {"restartPolicy": "Never", "containers": [{"name": "pi", "image": "perl:5.34"}]}}}}),
        );
        let spec = &job["spec"];
        assert_eq!(spec["completions"], 1);
        assert_eq!(spec["parallelism"], 1);
        assert_eq!(spec["backoffLimit"], 6);
        assert_eq!(spec["completionMode"], "NonIndexed");
        assert_eq!(spec["suspend"], false);
        assert_eq!(spec["podReplacementPolicy"], "TerminatingOrFailed");
        assert_eq!(spec["template"]["spec"]["restartPolicy"], "Never");
        assert_eq!(job["metadata"]["labels"], json!({"app": "pi"}));
        let cj = defaulted("CronJob", json!({"spec": {"schedule": "* * * * *"}}));
        assert_eq!(cj["spec"]["concurrencyPolicy"], "Allow");
        assert_eq!(cj["spec"]["successfulJobsHistoryLimit"], 3);
        assert_eq!(cj["spec"]["failedJobsHistoryLimit"], 1);
    }

    #[test]
    fn quantities_are_canonicalized_everywhere() {
        let n = defaulted(
            "Node",
            json!({"status": {"capacity": {"cpu": "4", "memory": "8192Mi", "pods": "110"}}}),
        );
        assert_eq!(
            n["status"]["allocatable"],
            json!({"cpu": "4", "memory": "8Gi", "pods": "110"})
        );
        let rq = defaulted(
            "ResourceQuota",
            json!({"spec": {"hard": {"requests.cpu": "0.5", "pods": 10}}}),
        );
        assert_eq!(
            rq["spec"]["hard"],
            json!({"pods": "10", "requests.cpu": "500m"})
        );
        let lr = defaulted(
            "LimitRange",
            json!({"spec": {"limits": [{"type": "Container", "max": {"cpu": "2"}, "min": {"memory": "64Mi"}}]}}),
        );
        assert_eq!(
            lr["spec"]["limits"][0],
            json!({"type": "Container", "max": {"cpu": "2"}, "min": {"memory": "64Mi"}, "default": {"cpu": "2"}, "defaultRequest": {"cpu": "2", "memory": "64Mi"}})
        );
        // A malformed quantity is left for decoding to report.
        let p = defaulted(
            "Pod",
            json!({"spec": {"containers": [{"name": "c", "image": "x", "resources": {"limits": {"cpu": "lots"}}}]}}),
        );
        assert_eq!(
            p["spec"]["containers"][0]["resources"]["limits"]["cpu"],
            "lots"
        );
    }

    #[test]
    fn defaulting_is_idempotent() {
        for (kind, obj) in [
            (
                "Deployment",
                json!({"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "nginx", "resources": {"limits": {"cpu": "0.5"}}}]}}}}),
            ),
            (
                "Pod",
                json!({"spec": {"containers": [{"name": "c", "image": "nginx", "resources": {"limits": {"memory": "1024Mi"}}}]}}),
            ),
            (
                "Service",
                json!({"spec": {"type": "LoadBalancer", "ports": [{"port": 80}]}}),
            ),
            ("StatefulSet", json!({"spec": {}})),
            (
                "Job",
                json!({"spec": {"template": {"spec": {"restartPolicy": "Never"}}}}),
            ),
        ] {
            let once = defaulted(kind, obj);
            assert_eq!(defaulted(kind, once.clone()), once, "{kind}");
        }
    }

    #[test]
    fn wrong_types_never_panic() {
        for kind in [
            "Pod",
            "Deployment",
            "ReplicaSet",
            "StatefulSet",
            "DaemonSet",
            "Job",
            "CronJob",
            "Service",
            "Namespace",
            "Secret",
            "Node",
            "LimitRange",
            "ResourceQuota",
            "RoleBinding",
            "NetworkPolicy",
            "PersistentVolumeClaim",
            "ReplicationController",
        ] {
            for v in [
                json!(null),
                json!("x"),
                json!({"spec": 3, "metadata": "m", "status": []}),
                json!({"spec": {"template": 1, "containers": "c", "volumes": [1, "x", null], "ports": {}, "strategy": 2, "updateStrategy": [], "limits": 5}}),
                json!({"spec": {"template": {"spec": {"containers": [{"ports": [3], "resources": 1, "livenessProbe": "p", "env": [{"valueFrom": 1}]}], "volumes": [{"secret": 1}]}}}}),
                json!({"spec": {"containers": [{"resources": {"limits": {"cpu": {}}}}]}}),
            ] {
                let mut obj = v.clone();
                apply_defaults(kind, &mut obj);
            }
        }
    }
}
