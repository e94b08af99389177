//! Object validation as the apiserver's registry strategies run it (`pkg/apis/*/validation`),
//! with real field paths and messages, plus the decoding step that comes before it.
//!
//! The entry points take any JSON: a field of the wrong type is the decoder's business
//! ([`decode`]), so here it reads as absent. Errors come in the apiserver's order (metadata
//! first, then the spec in field order); Go iterates maps in random order, so within a map
//! (labels, resources) errors come in key order. Duplicate texts are dropped, as the message
//! of a 422 does (`ErrorList.ToAggregate`).

mod apps;
mod batch;
mod core;
mod decode;
mod go_time;
mod meta;
pub mod names;
mod pod;
mod rbac;
// Generated (see schema_gen.rs): kept byte-identical to the generator's output.
#[rustfmt::skip]
mod schema;
#[cfg(test)]
mod decode_equivalence;
#[cfg(test)]
mod schema_gen;
#[cfg(test)]
mod serde_decode;

pub use decode::{decode, decode_with_field_validation, FieldValidation};

use crate::api::value::{Map, Value};
use crate::api::{FieldError, FieldErrorType, Object, RESOURCES};
use names::NameRule;

/// Validates a new object of `kind` (after defaulting and name generation).
pub fn validate_create(kind: &str, obj: &Object) -> Vec<FieldError> {
    let errs = match kind {
        "Pod" => pod::validate_pod_create(obj),
        "PodTemplate" => pod::validate_pod_template_object(obj),
        "ReplicationController" => apps::validate_replication_controller(obj),
        "Deployment" => apps::validate_deployment(obj),
        "ReplicaSet" => apps::validate_replica_set(obj),
        "StatefulSet" => apps::validate_stateful_set(obj),
        "DaemonSet" => apps::validate_daemon_set(obj),
        "Job" => batch::validate_job(obj),
        "CronJob" => batch::validate_cron_job(obj),
        "Service" => core::validate_service(obj),
        "ConfigMap" => core::validate_config_map(obj),
        "Secret" => core::validate_secret(obj),
        "Namespace" => core::validate_namespace(obj),
        "ResourceQuota" => core::validate_resource_quota(obj),
        "LimitRange" => core::validate_limit_range(obj),
        "Node" => core::validate_node(obj),
        "Role" | "ClusterRole" => rbac::validate_role(obj, kind == "Role"),
        "RoleBinding" | "ClusterRoleBinding" => {
            rbac::validate_role_binding(obj, kind == "RoleBinding")
        }
        _ => meta::validate_object_meta(obj, namespaced(kind), name_rule(kind)),
    };
    dedup(crate::scenario::limits::with_workload_limits(
        kind, obj, errs,
    ))
}

/// Validates an update of `old` to `new`: the create rules on `new` plus what may not change.
/// The validation of a write to the status subresource (`pods/status` has its own,
/// `ValidatePodStatusUpdate`; the other kinds are validated as a whole).
pub fn validate_status_update(kind: &str, old: &Object, new: &Object) -> Vec<FieldError> {
    match kind {
        "Pod" => dedup(pod::validate_pod_status_update(new, old)),
        _ => validate_update(kind, old, new),
    }
}

pub fn validate_update(kind: &str, old: &Object, new: &Object) -> Vec<FieldError> {
    let meta_update = || meta::validate_object_meta_update(new, old);
    let errs = match kind {
        "Pod" => pod::validate_pod_update(new, old),
        "Deployment" | "ReplicaSet" | "DaemonSet" => {
            let mut e = match kind {
                "Deployment" => apps::validate_deployment_update(new, old),
                "ReplicaSet" => apps::validate_replica_set_update(new, old),
                _ => apps::validate_daemon_set_update(new, old),
            };
            e.extend(immutable(
                get(new, &["spec", "selector"]),
                get(old, &["spec", "selector"]),
                &Path::new("spec").child("selector"),
            ));
            e
        }
        "StatefulSet" => apps::validate_stateful_set_update(new, old),
        "Job" => batch::validate_job_update(new, old),
        "Service" => core::validate_service_update(new, old),
        "ConfigMap" => core::validate_config_map_update(new, old),
        "Secret" => core::validate_secret_update(new, old),
        "Namespace" => meta_update(),
        "ResourceQuota" => core::validate_resource_quota_update(new, old),
        "Role" | "ClusterRole" => {
            let mut e = rbac::validate_role(new, kind == "Role");
            e.extend(meta_update());
            e
        }
        "RoleBinding" | "ClusterRoleBinding" => {
            rbac::validate_role_binding_update(new, old, kind == "RoleBinding")
        }
        _ => {
            let mut e = meta_update();
            e.extend(validate_create(kind, new).into_iter().filter(|e| {
                // ObjectMeta was checked by the update rules already.
                !e.field.starts_with("metadata.")
            }));
            e
        }
    };
    dedup(crate::scenario::limits::with_workload_limits(
        kind, new, errs,
    ))
}

fn namespaced(kind: &str) -> bool {
    RESOURCES
        .iter()
        .find(|r| r.kind == kind)
        .map(|r| r.namespaced)
        .unwrap_or(true)
}

/// The name rule of each kind (`ValidateXName`).
fn name_rule(kind: &str) -> NameRule {
    match kind {
        "Service" => NameRule::Dns1035,
        "Namespace" | "StatefulSet" => NameRule::Label,
        "Role" | "ClusterRole" | "RoleBinding" | "ClusterRoleBinding" => NameRule::PathSegment,
        _ => NameRule::Subdomain,
    }
}

fn dedup(errs: Vec<FieldError>) -> Vec<FieldError> {
    let mut seen = std::collections::BTreeSet::new();
    errs.into_iter()
        .filter(|e| seen.insert(e.to_string()))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Field paths, as `field.Path` renders them: `spec.containers[0].resources.limits[cpu]`.

/// A field path built without allocating (segments are kept inline, up to 16); it is rendered
/// only when an error needs it.
#[derive(Clone, Copy)]
pub(crate) struct Path<'a> {
    segs: [Seg<'a>; MAX_SEGS],
    len: usize,
}

const MAX_SEGS: usize = 16;

#[derive(Clone, Copy)]
enum Seg<'a> {
    Field(&'a str),
    Index(usize),
    Key(&'a str),
}

impl<'a> Path<'a> {
    pub fn new(root: &'a str) -> Path<'a> {
        let p = Path {
            segs: [Seg::Index(0); MAX_SEGS],
            len: 0,
        };
        if root.is_empty() {
            p
        } else {
            p.push(Seg::Field(root))
        }
    }
    fn push<'b>(&self, seg: Seg<'b>) -> Path<'b>
    where
        'a: 'b,
    {
        let mut p: Path<'b> = *self;
        if p.len < MAX_SEGS {
            p.segs[p.len] = seg;
            p.len += 1;
        }
        p
    }
    pub fn child<'b>(&self, name: &'b str) -> Path<'b>
    where
        'a: 'b,
    {
        self.push(Seg::Field(name))
    }
    pub fn index(&self, i: usize) -> Path<'a> {
        self.push(Seg::Index(i))
    }
    pub fn key<'b>(&self, k: &'b str) -> Path<'b>
    where
        'a: 'b,
    {
        self.push(Seg::Key(k))
    }
    /// `field.Path.String()`: `spec.containers[0].resources.limits[cpu]`.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for seg in &self.segs[..self.len] {
            match seg {
                Seg::Field(f) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(f);
                }
                Seg::Index(i) => out.push_str(&format!("[{i}]")),
                Seg::Key(k) => {
                    out.push('[');
                    out.push_str(k);
                    out.push(']');
                }
            }
        }
        out
    }
}

type Errs = Vec<FieldError>;

fn required(p: &Path, detail: &str) -> FieldError {
    FieldError::required(p.render(), detail)
}

fn invalid(p: &Path, value: Value, detail: &str) -> FieldError {
    FieldError::invalid(p.render(), value, detail)
}

fn not_supported(p: &Path, value: Value, supported: &[&str]) -> FieldError {
    FieldError::not_supported(p.render(), value, supported)
}

fn forbidden(p: &Path, detail: &str) -> FieldError {
    FieldError::forbidden(p.render(), detail)
}

fn duplicate(p: &Path, value: Value) -> FieldError {
    FieldError::duplicate(p.render(), value)
}

fn not_found(p: &Path, value: Value) -> FieldError {
    FieldError::not_found(p.render(), value)
}

fn too_long(p: &Path, max: usize) -> FieldError {
    FieldError::too_long(p.render(), max)
}

/// `ValidateNonnegativeField`.
fn nonnegative(v: i64, p: &Path) -> Errs {
    if v < 0 {
        vec![invalid(
            p,
            Value::from(v),
            "must be greater than or equal to 0",
        )]
    } else {
        vec![]
    }
}

/// `ValidateImmutableField`, with Go's semantic equality (nil equals empty).
fn immutable(new: &Value, old: &Value, p: &Path) -> Errs {
    if semantic_eq(new, old) {
        vec![]
    } else {
        vec![FieldError::new(
            FieldErrorType::Invalid,
            p.render(),
            Some(new.clone()),
            "field is immutable",
        )]
    }
}

/// Go's `apiequality.Semantic.DeepEqual` on JSON: null, absent, empty maps and empty lists
/// are the same. (Stored quantities are canonical, so comparing their strings is enough.)
pub(crate) fn semantic_eq(a: &Value, b: &Value) -> bool {
    fn empty(v: &Value) -> bool {
        match v {
            Value::Null => true,
            Value::Object(m) => m.is_empty(),
            Value::Array(a) => a.is_empty(),
            _ => false,
        }
    }
    match (a, b) {
        _ if empty(a) && empty(b) => true,
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&str> =
                x.keys().chain(y.keys()).map(|k| k.as_str()).collect();
            keys.into_iter().all(|k| {
                semantic_eq(
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                )
            })
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| semantic_eq(a, b))
        }
        _ => a == b,
    }
}

// ---------------------------------------------------------------------------------------------
// Reading JSON leniently: a field of the wrong type reads as absent.

fn get<'a>(v: &'a Value, path: &[&str]) -> &'a Value {
    let mut cur = v;
    for p in path {
        cur = cur.get(p).unwrap_or(crate::api::value::null());
    }
    cur
}

fn field<'a>(v: &'a Value, key: &str) -> &'a Value {
    v.get(key).unwrap_or(crate::api::value::null())
}

fn str_at<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn opt_str<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

fn int_at(v: &Value, key: &str) -> Option<i64> {
    v.get(key).and_then(Value::as_i64)
}

fn bool_at(v: &Value, key: &str) -> Option<bool> {
    v.get(key).and_then(Value::as_bool)
}

fn arr<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

fn obj<'a>(v: &'a Value, key: &str) -> Option<&'a Map> {
    v.get(key).and_then(Value::as_object)
}

fn present(v: &Value, key: &str) -> bool {
    v.get(key).is_some_and(|x| !x.is_null())
}

/// A `map[string]string` field, in key order; non-string values read as "".
fn string_map<'a>(v: &'a Value, key: &str) -> Vec<(&'a str, &'a str)> {
    obj(v, key)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.as_str(), v.as_str().unwrap_or("")))
                .collect()
        })
        .unwrap_or_default()
}

fn strings(v: &Value, key: &str) -> Vec<String> {
    arr(v, key)
        .iter()
        .map(|x| x.as_str().unwrap_or("").to_string())
        .collect()
}

#[cfg(test)]
mod tests;
