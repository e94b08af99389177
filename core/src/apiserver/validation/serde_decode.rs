//! The reference decoder (test-only): the serde-driven decode into the `k8s-openapi` types that
//! the table-driven decoder in `decode.rs` replaced. The differential tests hold the two to
//! byte-identical results, and the schema extractor borrows its Go type names.
//!
//! The decode runs the `k8s-openapi` types' `Deserialize` impls through a deserializer over the
//! JSON value that tracks where it is, so the errors can name the Go struct field as
//! `encoding/json` does (the innermost struct, then the JSON path from the root without list
//! indices), and the unknown fields as `sigs.k8s.io/json` does (with list indices). Like Go's
//! decoder, `null` anywhere is accepted as the zero value.

use super::FieldValidation;
use crate::api::quantity::Quantity;
use crate::api::value::Value;
use crate::api::{ApiError, Object};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::cell::{Cell, RefCell};
use std::fmt;

/// Decodes `obj` as `kind` under a `fieldValidation` directive. Returns the warnings to send
/// (`unknown field "spec.foo"`, for `Warn`), or the 400 error.
#[allow(clippy::result_large_err)]
pub(super) fn decode_with_field_validation(
    kind: &str,
    api_version: &str,
    obj: &Object,
    directive: FieldValidation,
) -> Result<Vec<String>, ApiError> {
    let version = api_version.rsplit('/').next().unwrap_or(api_version);
    let fail = |msg: String| {
        ApiError::bad_request(format!(
            "{kind} in version {} cannot be handled as a {kind}: {msg}",
            crate::api::error::go_quote(version)
        ))
    };
    let unknown = match typed_decode(kind, obj) {
        None => return Ok(vec![]),
        Some(Err(msg)) => return Err(fail(msg)),
        Some(Ok(unknown)) => unknown,
    };
    let texts: Vec<String> = unknown
        .iter()
        .map(|f| format!("unknown field {}", crate::api::error::go_quote(f)))
        .collect();
    match directive {
        FieldValidation::Ignore => Ok(vec![]),
        FieldValidation::Warn => Ok(texts),
        FieldValidation::Strict if texts.is_empty() => Ok(vec![]),
        FieldValidation::Strict => {
            Err(fail(format!("strict decoding error: {}", texts.join(", "))))
        }
    }
}

/// Runs the typed decode for kinds kubeplay has a type for: `None` for other kinds, else the
/// first error's text or the unknown fields' paths.
fn typed_decode(kind: &str, obj: &Value) -> Option<Result<Vec<String>, String>> {
    use k8s_openapi::api::{
        apps::v1 as apps, batch::v1 as batch, coordination::v1 as coordination, core::v1 as core,
        discovery::v1 as discovery, networking::v1 as networking, policy::v1 as policy,
        rbac::v1 as rbac, scheduling::v1 as scheduling, storage::v1 as storage,
    };
    let cx = Ctx::default();
    let r = match kind {
        "Namespace" => run::<core::Namespace>(obj, &cx),
        "Node" => run::<core::Node>(obj, &cx),
        "Pod" => run::<core::Pod>(obj, &cx),
        "PodTemplate" => run::<core::PodTemplate>(obj, &cx),
        "Service" => run::<core::Service>(obj, &cx),
        "Endpoints" => run::<core::Endpoints>(obj, &cx),
        "ConfigMap" => run::<core::ConfigMap>(obj, &cx),
        "Secret" => run::<core::Secret>(obj, &cx),
        "Event" => run::<core::Event>(obj, &cx),
        "ServiceAccount" => run::<core::ServiceAccount>(obj, &cx),
        "PersistentVolume" => run::<core::PersistentVolume>(obj, &cx),
        "PersistentVolumeClaim" => run::<core::PersistentVolumeClaim>(obj, &cx),
        "ResourceQuota" => run::<core::ResourceQuota>(obj, &cx),
        "LimitRange" => run::<core::LimitRange>(obj, &cx),
        "ReplicationController" => run::<core::ReplicationController>(obj, &cx),
        "Deployment" => run::<apps::Deployment>(obj, &cx),
        "ReplicaSet" => run::<apps::ReplicaSet>(obj, &cx),
        "StatefulSet" => run::<apps::StatefulSet>(obj, &cx),
        "DaemonSet" => run::<apps::DaemonSet>(obj, &cx),
        "ControllerRevision" => run::<apps::ControllerRevision>(obj, &cx),
        "Job" => run::<batch::Job>(obj, &cx),
        "CronJob" => run::<batch::CronJob>(obj, &cx),
        "Lease" => run::<coordination::Lease>(obj, &cx),
        "EndpointSlice" => run::<discovery::EndpointSlice>(obj, &cx),
        "Ingress" => run::<networking::Ingress>(obj, &cx),
        "NetworkPolicy" => run::<networking::NetworkPolicy>(obj, &cx),
        "PodDisruptionBudget" => run::<policy::PodDisruptionBudget>(obj, &cx),
        "Role" => run::<rbac::Role>(obj, &cx),
        "RoleBinding" => run::<rbac::RoleBinding>(obj, &cx),
        "ClusterRole" => run::<rbac::ClusterRole>(obj, &cx),
        "ClusterRoleBinding" => run::<rbac::ClusterRoleBinding>(obj, &cx),
        "PriorityClass" => run::<scheduling::PriorityClass>(obj, &cx),
        "StorageClass" => run::<storage::StorageClass>(obj, &cx),
        _ => return None,
    };
    Some(match r {
        Ok(()) => Ok(cx.unknown.into_inner()),
        Err(e) => Err(e.msg),
    })
}

fn run<'a, T: de::Deserialize<'a>>(v: &'a Value, cx: &Ctx<'a>) -> Result<(), DeError> {
    cx.top.set(true);
    T::deserialize(De { v, cx }).map(|_| ())
}

// ---------------------------------------------------------------------------------------------
// Errors and position

#[derive(Debug)]
struct DeError {
    msg: String,
    /// What the visitor expected, when serde said (`i32`, `a string`, `IntOrString`, ...).
    expected: Option<String>,
    /// The message is final: it has been rendered as Go's.
    done: bool,
}

impl DeError {
    fn done(msg: String) -> DeError {
        DeError {
            msg,
            expected: None,
            done: true,
        }
    }
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError {
            msg: msg.to_string(),
            expected: None,
            done: false,
        }
    }
    fn invalid_type(unexp: de::Unexpected, exp: &dyn de::Expected) -> Self {
        DeError {
            msg: format!("invalid type: {unexp}, expected {exp}"),
            expected: Some(exp.to_string()),
            done: false,
        }
    }
    fn invalid_value(unexp: de::Unexpected, exp: &dyn de::Expected) -> Self {
        DeError {
            msg: format!("invalid value: {unexp}, expected {exp}"),
            expected: Some(exp.to_string()),
            done: false,
        }
    }
    fn invalid_length(len: usize, exp: &dyn de::Expected) -> Self {
        DeError {
            msg: format!("invalid length {len}, expected {exp}"),
            expected: Some(exp.to_string()),
            done: false,
        }
    }
}

#[derive(Clone, Copy)]
enum Seg<'a> {
    Field(&'a str),
    Index(usize),
}

#[derive(Default)]
struct Ctx<'a> {
    /// (Go struct, JSON field) for every struct field entered, outermost first.
    fields: RefCell<Vec<(&'static str, &'a str)>>,
    /// The path with list indices, for unknown-field messages.
    path: RefCell<Vec<Seg<'a>>>,
    unknown: RefCell<Vec<String>>,
    /// The next struct is the top-level object (its `apiVersion` and `kind` are the request's).
    top: Cell<bool>,
}

impl<'a> Ctx<'a> {
    fn path_string(&self, last: &str) -> String {
        let mut s = String::new();
        for seg in self.path.borrow().iter() {
            match seg {
                Seg::Field(f) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(f);
                }
                Seg::Index(i) => s.push_str(&format!("[{i}]")),
            }
        }
        if !s.is_empty() {
            s.push('.');
        }
        s.push_str(last);
        s
    }

    /// `json: cannot unmarshal <what> into Go struct field <Struct>.<path> of type <ty>`.
    fn type_error(&self, v: &Value, go_type: &str) -> DeError {
        let what = match v {
            Value::Null => "null".to_string(),
            Value::Bool(_) => "bool".to_string(),
            Value::Number(n) if is_go_int(go_type) => format!("number {n}"),
            Value::Number(_) => "number".to_string(),
            Value::String(_) => "string".to_string(),
            Value::Array(_) => "array".to_string(),
            Value::Object(_) => "object".to_string(),
        };
        let fields = self.fields.borrow();
        let msg = match fields.last() {
            None => format!("json: cannot unmarshal {what} into Go value of type {go_type}"),
            Some((strukt, _)) => {
                let path: Vec<&str> = fields.iter().map(|(_, f)| *f).collect();
                format!(
                    "json: cannot unmarshal {what} into Go struct field {strukt}.{} of type {go_type}",
                    path.join(".")
                )
            }
        };
        DeError::done(msg)
    }

    /// Turns a visitor's error at `v` into Go's text, unless that was already done deeper.
    fn locate(&self, e: DeError, v: &Value) -> DeError {
        if e.done {
            return e;
        }
        if let Some(exp) = &e.expected {
            if let Some(go) = go_type_from_expected(exp) {
                return self.type_error(v, &go);
            }
            if exp == "a sequence" || exp == "a map" {
                return self.type_error(v, &self.container_type(exp == "a sequence"));
            }
        }
        if let (Value::String(s), true) = (v, e.msg.starts_with("Invalid ")) {
            // base64 (ByteString): encoding/base64's CorruptInputError.
            return DeError::done(format!(
                "illegal base64 data at input byte {}",
                base64_error_offset(s)
            ));
        }
        DeError::done(e.msg)
    }

    /// The Go type of a list or map field, from the field it is in.
    fn container_type(&self, seq: bool) -> String {
        let fields = self.fields.borrow();
        let (strukt, field) = fields.last().copied().unwrap_or(("", ""));
        go_container_type(strukt, field, seq)
    }
}

fn is_go_int(t: &str) -> bool {
    matches!(
        t,
        "int"
            | "int8"
            | "int16"
            | "int32"
            | "int64"
            | "uint"
            | "uint8"
            | "uint16"
            | "uint32"
            | "uint64"
    )
}

/// The Go type behind what a serde visitor says it expected.
pub(super) fn go_type_from_expected(exp: &str) -> Option<String> {
    let t = match exp {
        "i8" => "int8",
        "i16" => "int16",
        "i32" | "a 32-bit integer" | "IntOrString" => "int32",
        "i64" => "int64",
        "u8" => "uint8",
        "u16" => "uint16",
        "u32" => "uint32",
        "u64" => "uint64",
        "f32" => "float32",
        "f64" => "float64",
        "a boolean" => "bool",
        "a string" | "a borrowed string" | "a character" => "string",
        "a base64-encoded string" => "[]uint8",
        "Quantity" => "resource.Quantity",
        _ => {
            let ident = exp.chars().next().is_some_and(|c| c.is_ascii_uppercase())
                && exp.chars().all(|c| c.is_ascii_alphanumeric());
            if ident {
                return Some(format!("v1.{exp}"));
            }
            return None;
        }
    };
    Some(t.to_string())
}

/// The Go type of a list or map field, by the field's name (the element type is not visible to
/// a serde visitor). Unlisted lists are taken to be `[]string`, maps `map[string]string`.
pub(super) fn go_container_type(strukt: &str, field: &str, seq: bool) -> String {
    if seq {
        let elem = match (strukt, field) {
            (_, "containers" | "initContainers") => "v1.Container",
            (_, "ephemeralContainers") => "v1.EphemeralContainer",
            ("ServiceSpec", "ports") => "v1.ServicePort",
            ("EndpointSubset", "ports") => "v1.EndpointPort",
            ("EndpointSlice", "ports") => "v1.EndpointPort",
            ("NetworkPolicyIngressRule" | "NetworkPolicyEgressRule", "ports") => {
                "v1.NetworkPolicyPort"
            }
            (_, "ports") => "v1.ContainerPort",
            (_, "env") => "v1.EnvVar",
            (_, "envFrom") => "v1.EnvFromSource",
            (_, "volumes") => "v1.Volume",
            (_, "volumeMounts") => "v1.VolumeMount",
            (_, "volumeDevices") => "v1.VolumeDevice",
            (_, "volumeClaimTemplates") => "v1.PersistentVolumeClaim",
            (_, "tolerations") => "v1.Toleration",
            (_, "taints") => "v1.Taint",
            (_, "imagePullSecrets") => "v1.LocalObjectReference",
            (_, "hostAliases") => "v1.HostAlias",
            (_, "topologySpreadConstraints") => "v1.TopologySpreadConstraint",
            (_, "readinessGates") => "v1.PodReadinessGate",
            (_, "schedulingGates") => "v1.PodSchedulingGate",
            (_, "matchExpressions") => "v1.LabelSelectorRequirement",
            (_, "nodeSelectorTerms") => "v1.NodeSelectorTerm",
            (_, "ownerReferences") => "v1.OwnerReference",
            (_, "managedFields") => "v1.ManagedFieldsEntry",
            (_, "conditions") => match strukt {
                "PodStatus" => "v1.PodCondition",
                "DeploymentStatus" => "v1.DeploymentCondition",
                "NodeStatus" => "v1.NodeCondition",
                _ => "v1.Condition",
            },
            (_, "items") => "v1.KeyToPath",
            (_, "sources") => "v1.VolumeProjection",
            ("PolicyRule" | "Role" | "ClusterRole", "rules") => "v1.PolicyRule",
            (_, "rules") if strukt == "Role" || strukt == "ClusterRole" => "v1.PolicyRule",
            ("IngressSpec", "rules") => "v1.IngressRule",
            (_, "subjects") => "v1.Subject",
            (_, "subsets") => "v1.EndpointSubset",
            (_, "addresses" | "notReadyAddresses") if strukt == "EndpointSubset" => {
                "v1.EndpointAddress"
            }
            (_, "addresses") if strukt == "NodeStatus" => "v1.NodeAddress",
            (_, "endpoints") => "v1.Endpoint",
            ("LimitRangeSpec", "limits") => "v1.LimitRangeItem",
            (_, "ingress") => "v1.NetworkPolicyIngressRule",
            (_, "egress") => "v1.NetworkPolicyEgressRule",
            (_, "secrets") => "v1.ObjectReference",
            (_, "containerStatuses" | "initContainerStatuses") => "v1.ContainerStatus",
            (_, "supplementalGroups") => "int64",
            (_, "podIPs") => "v1.PodIP",
            (_, "hostIPs") => "v1.HostIP",
            _ => "string",
        };
        format!("[]{elem}")
    } else {
        match field {
            "limits"
            | "requests"
            | "capacity"
            | "allocatable"
            | "hard"
            | "used"
            | "overhead"
            | "max"
            | "min"
            | "default"
            | "defaultRequest"
            | "maxLimitRequestRatio"
            | "allocatedResources" => "v1.ResourceList".to_string(),
            "data" if strukt == "Secret" => "map[string][]uint8".to_string(),
            "binaryData" => "map[string][]uint8".to_string(),
            _ => "map[string]string".to_string(),
        }
    }
}

/// Where `encoding/base64` reports a corrupt input: the first byte outside the alphabet, or
/// the start of an incomplete quantum.
fn base64_error_offset(s: &str) -> usize {
    let b = s.as_bytes();
    for (i, c) in b.iter().enumerate() {
        let ok = c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/' || *c == b'=';
        if !ok {
            return i;
        }
        if *c == b'=' && b[i..].iter().any(|x| *x != b'=') {
            return i;
        }
    }
    b.len() - b.len() % 4
}

// ---------------------------------------------------------------------------------------------
// The deserializer

struct De<'a, 'c> {
    v: &'a Value,
    cx: &'c Ctx<'a>,
}

impl<'a, 'c> De<'a, 'c> {
    fn any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        let (v, cx) = (self.v, self.cx);
        let r = match v {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    visitor.visit_u64(u)
                } else if let Some(i) = n.as_i64() {
                    visitor.visit_i64(i)
                } else {
                    visitor.visit_f64(n.as_f64().unwrap_or(0.0))
                }
            }
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(a) => visitor.visit_seq(Seq {
                iter: a.iter().enumerate(),
                cx,
            }),
            Value::Object(m) => visitor.visit_map(Map {
                iter: m.iter(),
                cx,
                pending: None,
                strukt: None,
                top: false,
            }),
        };
        r.map_err(|e| cx.locate(e, v))
    }
}

macro_rules! null_is_zero {
    ($($method:ident => $visit:ident($zero:expr);)*) => {
        $(
            fn $method<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
                if self.v.is_null() {
                    let (v, cx) = (self.v, self.cx);
                    visitor.$visit($zero).map_err(|e| cx.locate(e, v))
                } else {
                    self.any(visitor)
                }
            }
        )*
    };
}

impl<'a, 'c> Deserializer<'a> for De<'a, 'c> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.any(visitor)
    }

    null_is_zero! {
        deserialize_bool => visit_bool(false);
        deserialize_i8 => visit_i64(0);
        deserialize_i16 => visit_i64(0);
        deserialize_i32 => visit_i64(0);
        deserialize_i64 => visit_i64(0);
        deserialize_u8 => visit_u64(0);
        deserialize_u16 => visit_u64(0);
        deserialize_u32 => visit_u64(0);
        deserialize_u64 => visit_u64(0);
        deserialize_f32 => visit_f64(0.0);
        deserialize_f64 => visit_f64(0.0);
        deserialize_char => visit_borrowed_str("");
        deserialize_str => visit_borrowed_str("");
        deserialize_string => visit_borrowed_str("");
        deserialize_bytes => visit_borrowed_str("");
        deserialize_byte_buf => visit_borrowed_str("");
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        let (v, cx) = (self.v, self.cx);
        if v.is_null() {
            visitor.visit_none().map_err(|e| cx.locate(e, v))
        } else {
            visitor.visit_some(self).map_err(|e| cx.locate(e, v))
        }
    }

    fn deserialize_unit<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.any(visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.any(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        let (v, cx) = (self.v, self.cx);
        match name {
            // resource.Quantity.UnmarshalJSON parses whatever JSON text it is given.
            "Quantity" => {
                let text = match v {
                    Value::String(s) => s.trim().to_string(),
                    Value::Number(n) => n.to_string(),
                    // A null quantity is the zero quantity.
                    Value::Null => {
                        return visitor
                            .visit_newtype_struct(De {
                                v: ZERO.with(|z| *z),
                                cx,
                            })
                            .map_err(|e| cx.locate(e, v));
                    }
                    other => other.to_string(),
                };
                if let Err(e) = Quantity::parse(&text) {
                    return Err(DeError::done(e.to_string()));
                }
            }
            // metav1.Time.UnmarshalJSON: a JSON string holding an RFC 3339 time.
            // metav1.Time.UnmarshalJSON: null is the zero time, a string goes through Go's
            // RFC 3339 parse (the time crate behind k8s-openapi parses differently, so the
            // visitor is handed a time both accept).
            "Time" | "MicroTime" => match v {
                Value::Null => {
                    return visitor
                        .visit_newtype_struct(De {
                            v: EPOCH.with(|e| *e),
                            cx,
                        })
                        .map_err(|e| cx.locate(e, v));
                }
                Value::String(s) => {
                    if let Some(msg) = super::go_time::parse_error(s) {
                        return Err(DeError::done(msg));
                    }
                    return visitor
                        .visit_newtype_struct(De {
                            v: EPOCH.with(|e| *e),
                            cx,
                        })
                        .map_err(|e| cx.locate(e, v));
                }
                other => return Err(cx.type_error(other, "string")),
            },
            _ => {}
        }
        visitor
            .visit_newtype_struct(De { v, cx })
            .map_err(|e| cx.locate(e, v))
    }

    fn deserialize_seq<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        let (v, cx) = (self.v, self.cx);
        let empty: &'a [Value] = &[];
        let items = match v {
            Value::Array(a) => a.as_slice(),
            Value::Null => empty,
            other => return Err(cx.type_error(other, &cx.container_type(true))),
        };
        visitor
            .visit_seq(Seq {
                iter: items.iter().enumerate(),
                cx,
            })
            .map_err(|e| cx.locate(e, v))
    }

    fn deserialize_tuple<V: Visitor<'a>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        let (v, cx) = (self.v, self.cx);
        let r = match v {
            Value::Object(m) => visitor.visit_map(Map {
                iter: m.iter(),
                cx,
                pending: None,
                strukt: None,
                top: false,
            }),
            Value::Null => visitor.visit_map(Map {
                iter: EMPTY.with(|e| *e).iter(),
                cx,
                pending: None,
                strukt: None,
                top: false,
            }),
            other => return Err(cx.type_error(other, &cx.container_type(false))),
        };
        r.map_err(|e| cx.locate(e, v))
    }

    fn deserialize_struct<V: Visitor<'a>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        let (v, cx) = (self.v, self.cx);
        let top = cx.top.replace(false);
        let iter = match v {
            Value::Object(m) => m.iter(),
            Value::Null => EMPTY.with(|e| *e).iter(),
            other => return Err(cx.type_error(other, &format!("v1.{name}"))),
        };
        visitor
            .visit_map(Map {
                iter,
                cx,
                pending: None,
                strukt: Some((name, fields)),
                top,
            })
            .map_err(|e| cx.locate(e, v))
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        let (v, cx) = (self.v, self.cx);
        // Enums are few and small: serde_json's own deserializer, over a copy in its form.
        Deserializer::deserialize_enum(serde_json::Value::from(v.clone()), name, variants, visitor)
            .map_err(|e| cx.locate(de::Error::custom(e), v))
    }

    fn deserialize_identifier<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.any(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_unit()
    }
}

// Values are not `Sync` (their maps are shared within a thread): one leaked copy per thread.
thread_local! {
    static EPOCH: &'static Value = Box::leak(Box::new(Value::String("1970-01-01T00:00:00Z".into())));
    static ZERO: &'static Value = Box::leak(Box::new(Value::String("0".into())));
    static EMPTY: &'static crate::api::value::Map = Box::leak(Box::new(crate::api::value::Map::new()));
}

struct Seq<'a, 'c> {
    iter: std::iter::Enumerate<std::slice::Iter<'a, Value>>,
    cx: &'c Ctx<'a>,
}

impl<'a, 'c> SeqAccess<'a> for Seq<'a, 'c> {
    type Error = DeError;
    fn next_element_seed<T: DeserializeSeed<'a>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        let Some((i, v)) = self.iter.next() else {
            return Ok(None);
        };
        self.cx.path.borrow_mut().push(Seg::Index(i));
        let r = seed.deserialize(De { v, cx: self.cx });
        self.cx.path.borrow_mut().pop();
        r.map(Some)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

struct Map<'a, 'c> {
    iter: crate::api::value::Iter<'a>,
    cx: &'c Ctx<'a>,
    pending: Option<(&'a str, &'a Value)>,
    /// For a struct: its Go name and JSON fields.
    strukt: Option<(&'static str, &'static [&'static str])>,
    top: bool,
}

impl<'a, 'c> MapAccess<'a> for Map<'a, 'c> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'a>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        loop {
            let Some((k, v)) = self.iter.next() else {
                return Ok(None);
            };
            if self.top && (k == "apiVersion" || k == "kind") {
                continue;
            }
            if let Some((_, fields)) = self.strukt {
                if !fields.contains(&k.as_str()) {
                    let p = self.cx.path_string(k);
                    self.cx.unknown.borrow_mut().push(p);
                }
            }
            self.pending = Some((k, v));
            let key = de::value::BorrowedStrDeserializer::<DeError>::new(k);
            return seed.deserialize(key).map(Some);
        }
    }

    fn next_value_seed<S: DeserializeSeed<'a>>(&mut self, seed: S) -> Result<S::Value, DeError> {
        let Some((k, v)) = self.pending.take() else {
            return Err(de::Error::custom("value without key"));
        };
        let cx = self.cx;
        match self.strukt {
            Some((name, _)) => {
                cx.fields.borrow_mut().push((name, k));
                cx.path.borrow_mut().push(Seg::Field(k));
                let r = seed.deserialize(De { v, cx });
                cx.path.borrow_mut().pop();
                cx.fields.borrow_mut().pop();
                r
            }
            None => {
                cx.path.borrow_mut().push(Seg::Field(k));
                let r = seed.deserialize(De { v, cx });
                cx.path.borrow_mut().pop();
                r
            }
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}
