//! The apiserver's decoding step: the request body is unmarshalled into the Go type of its kind,
//! and a type mismatch, a malformed quantity or (with `fieldValidation=Strict`) an unknown field
//! is a 400 `BadRequest` with the decoder's text, for instance
//! `Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string
//! into Go struct field DeploymentSpec.spec.replicas of type int32`.
//!
//! The decode walks the JSON value along the types' table in `schema.rs` (extracted from the
//! `k8s-openapi` types, which are only a test dependency: one typed decode per type was a
//! quarter of the wasm). Errors name the Go struct field as `encoding/json` does (the innermost
//! struct, then the JSON path from the root without list indices), and unknown fields as
//! `sigs.k8s.io/json` does (with list indices). Like Go's decoder, `null` anywhere is accepted
//! as the zero value.

use super::schema;
use crate::api::error::go_quote;
use crate::api::quantity::Quantity;
use crate::api::value::{Map, Value};
use crate::api::{ApiError, Object};

/// The `fieldValidation` directive of a create, update or patch request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FieldValidation {
    /// Unknown fields are dropped silently.
    Ignore,
    /// Unknown fields are dropped with a warning (the server's default).
    #[default]
    Warn,
    /// Unknown fields fail the request (kubectl's default, `--validate=strict`).
    Strict,
}

/// Decodes `obj` as `kind`, reporting type mismatches and malformed quantities; unknown fields
/// are ignored (see [`decode_with_field_validation`]). `api_version` is `apps/v1` or `v1`.
#[allow(clippy::result_large_err)]
pub fn decode(kind: &str, api_version: &str, obj: &Object) -> Result<(), ApiError> {
    decode_with_field_validation(kind, api_version, obj, FieldValidation::Ignore).map(|_| ())
}

/// Decodes `obj` as `kind` under a `fieldValidation` directive. Returns the warnings to send
/// (`unknown field "spec.foo"`, for `Warn`), or the 400 error.
#[allow(clippy::result_large_err)]
pub fn decode_with_field_validation(
    kind: &str,
    api_version: &str,
    obj: &Object,
    directive: FieldValidation,
) -> Result<Vec<String>, ApiError> {
    let version = api_version.rsplit('/').next().unwrap_or(api_version);
    let fail = |msg: String| {
        ApiError::bad_request(format!(
            "{kind} in version {} cannot be handled as a {kind}: {msg}",
            go_quote(version)
        ))
    };
    let Some(root) = schema::root_of(kind) else {
        return Ok(vec![]);
    };
    let mut walk = Walk::default();
    if let Err(msg) = walk.value(&Ty::Struct(root), obj, true) {
        return Err(fail(msg));
    }
    let texts: Vec<String> = walk
        .unknown
        .iter()
        .map(|f| format!("unknown field {}", go_quote(f)))
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

// ---------------------------------------------------------------------------------------------
// The table's vocabulary (the data is generated: see `schema.rs`)

/// A Go struct: its name (`DeploymentSpec`) and JSON fields, in declaration order.
pub(super) struct Struct {
    pub name: &'static str,
    /// The fields whose absence is an error (`missing field`): their Rust type has no zero
    /// value, in the order the decoder checks them.
    pub required: &'static [&'static str],
    pub fields: &'static [Field],
}

pub(super) struct Field {
    pub name: &'static str,
    pub ty: Ty,
}

/// What the Go decoder does with a JSON value. `null` is the zero value everywhere except where
/// the Go type says otherwise (a non-pointer `Time` or `IntOrString`; `Opt` is their pointer).
pub(super) enum Ty {
    Bool,
    Int32,
    Int64,
    String,
    /// A string that must equal the text: a nested object's `apiVersion` or `kind`. `go_type`
    /// is set when a mismatch reads as a type error of the object (`kind`).
    Const {
        text: &'static str,
        go_type: Option<&'static str>,
    },
    /// `resource.Quantity`: any JSON text that parses as a quantity.
    Quantity,
    /// `metav1.Time` or `metav1.MicroTime`: a string Go's `time.Parse(time.RFC3339, ..)` accepts.
    Time,
    /// `[]byte`: a base64 string.
    Bytes,
    /// `intstr.IntOrString`: an int32 or a string.
    IntOrString,
    /// Any JSON (`runtime.RawExtension`).
    Any,
    Opt(&'static Ty),
    /// An index into `schema::STRUCTS`.
    Struct(u16),
    /// A list, with its Go type for errors (`[]v1.Container`).
    Seq(&'static str, &'static Ty),
    /// A map with string keys, with its Go type for errors (`v1.ResourceList`).
    Map(&'static str, &'static Ty),
}

// ---------------------------------------------------------------------------------------------
// The walk

enum Seg<'a> {
    Field(&'a str),
    Index(usize),
}

#[derive(Default)]
struct Walk<'a> {
    /// (Go struct, JSON field) for every struct field entered, outermost first.
    fields: Vec<(&'static str, &'a str)>,
    /// The path with list indices and map keys, for unknown-field messages.
    path: Vec<Seg<'a>>,
    unknown: Vec<String>,
}

impl<'a> Walk<'a> {
    /// Checks `v` against `ty`: the first error's text, in document order. `top` is the request's
    /// object, whose `apiVersion` and `kind` are the request's business.
    fn value(&mut self, ty: &Ty, v: &'a Value, top: bool) -> Result<(), String> {
        match (ty, v) {
            (Ty::Opt(_), Value::Null) => Ok(()),
            (Ty::Opt(inner), _) => self.value(inner, v, false),
            (Ty::Bool, Value::Null | Value::Bool(_)) => Ok(()),
            (Ty::Bool, _) => Err(self.type_error(v, "bool")),
            (Ty::Int32 | Ty::IntOrString, Value::Number(n)) if fits_i32(n) => Ok(()),
            (Ty::Int32, Value::Null) => Ok(()),
            (Ty::Int32, _) => Err(self.type_error(v, "int32")),
            (Ty::Int64, Value::Number(n)) if n.is_i64() => Ok(()),
            (Ty::Int64, Value::Null) => Ok(()),
            (Ty::Int64, _) => Err(self.type_error(v, "int64")),
            (Ty::String | Ty::Const { .. }, Value::Null | Value::String(_)) => Ok(()),
            (Ty::String | Ty::Const { .. }, _) => Err(self.type_error(v, "string")),
            (Ty::Quantity, _) => self.quantity(v),
            (Ty::Time, Value::String(s)) => time_error(s).map_or(Ok(()), Err),
            // The zero `Time` is not decoded from null: the empty text fails to parse.
            // `Time.UnmarshalJSON`: null is the zero time.
            (Ty::Time, Value::Null) => Ok(()),
            (Ty::Time, _) => Err(self.type_error(v, "string")),
            (Ty::Bytes, Value::Null) => Ok(()),
            (Ty::Bytes, Value::String(s)) => match base64_valid(s.as_bytes()) {
                true => Ok(()),
                false => Err(format!(
                    "illegal base64 data at input byte {}",
                    base64_error_offset(s)
                )),
            },
            (Ty::Bytes, _) => Err(self.type_error(v, "[]uint8")),
            (Ty::IntOrString, Value::String(_)) => Ok(()),
            (Ty::IntOrString, _) => Err(self.type_error(v, "int32")),
            (Ty::Any, _) => Ok(()),
            (Ty::Struct(i), Value::Object(m)) => {
                // A map shared unchanged since it last decoded cleanly as this struct (most of
                // an object an update or patch leaves alone) decodes cleanly again.
                if !top && m.schema_mark() == Some(*i) {
                    return Ok(());
                }
                let unknown = self.unknown.len();
                self.strukt(&schema::STRUCTS[*i as usize], m, v, top)?;
                if !top && self.unknown.len() == unknown {
                    m.set_schema_mark(*i);
                }
                Ok(())
            }
            (Ty::Struct(i), Value::Null) => missing(&schema::STRUCTS[*i as usize], None),
            (Ty::Struct(i), _) => {
                let go = format!("v1.{}", schema::STRUCTS[*i as usize].name);
                Err(self.type_error(v, &go))
            }
            (Ty::Seq(_, elem), Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    self.path.push(Seg::Index(i));
                    self.value(elem, item, false)?;
                    self.path.pop();
                }
                Ok(())
            }
            (Ty::Map(_, elem), Value::Object(m)) => {
                for (k, item) in m {
                    self.path.push(Seg::Field(k));
                    self.value(elem, item, false)?;
                    self.path.pop();
                }
                Ok(())
            }
            (Ty::Seq(..) | Ty::Map(..), Value::Null) => Ok(()),
            (Ty::Seq(go, _) | Ty::Map(go, _), _) => Err(self.type_error(v, go)),
        }
    }

    fn strukt(
        &mut self,
        s: &'static Struct,
        m: &'a Map,
        v: &'a Value,
        top: bool,
    ) -> Result<(), String> {
        for (k, item) in m {
            if top && (k == "apiVersion" || k == "kind") {
                continue;
            }
            let Some(field) = s.fields.iter().find(|f| f.name == k) else {
                // An unknown field's value is skipped unread.
                let path = self.path_string(k);
                self.unknown.push(path);
                continue;
            };
            self.fields.push((s.name, k));
            self.path.push(Seg::Field(k));
            self.value(&field.ty, item, false)?;
            self.path.pop();
            self.fields.pop();
            if let Ty::Const { text, go_type } = field.ty {
                let got = item.as_str().unwrap_or("");
                if got != text {
                    // The mismatch is the object's error, reported where the object is.
                    return Err(match go_type {
                        Some(go) => self.type_error(v, go),
                        None => format!("invalid value: string {got:?}, expected {text}"),
                    });
                }
            }
        }
        missing(s, Some(m))
    }

    /// `resource.Quantity.UnmarshalJSON` parses whatever JSON text it is given; only a string
    /// or a number then makes a quantity.
    fn quantity(&self, v: &Value) -> Result<(), String> {
        let text = match v {
            Value::Null => return Ok(()),
            Value::String(s) => s.trim().to_string(),
            Value::Number(n) => n.to_string(),
            other => other.to_string(),
        };
        Quantity::parse(&text).map_err(|e| e.to_string())?;
        match v {
            Value::String(_) | Value::Number(_) => Ok(()),
            _ => Err(self.type_error(v, "resource.Quantity")),
        }
    }

    fn path_string(&self, last: &str) -> String {
        let mut s = String::new();
        for seg in &self.path {
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
    fn type_error(&self, v: &Value, go_type: &str) -> String {
        let what = match v {
            Value::Null => "null".to_string(),
            Value::Bool(_) => "bool".to_string(),
            Value::Number(n) if matches!(go_type, "int32" | "int64") => format!("number {n}"),
            Value::Number(_) => "number".to_string(),
            Value::String(_) => "string".to_string(),
            Value::Array(_) => "array".to_string(),
            Value::Object(_) => "object".to_string(),
        };
        match self.fields.last() {
            None => format!("json: cannot unmarshal {what} into Go value of type {go_type}"),
            Some((strukt, _)) => {
                let path: Vec<&str> = self.fields.iter().map(|(_, f)| *f).collect();
                format!(
                    "json: cannot unmarshal {what} into Go struct field {strukt}.{} of type {go_type}",
                    path.join(".")
                )
            }
        }
    }
}

/// The first required field absent from `m` (a null struct has none).
fn missing(s: &Struct, m: Option<&Map>) -> Result<(), String> {
    let present = |f: &&str| m.is_some_and(|m| m.contains_key(f));
    match s.required.iter().find(|f| !present(f)) {
        Some(f) => Err(format!("missing field `{f}`")),
        None => Ok(()),
    }
}

fn fits_i32(n: &serde_json::Number) -> bool {
    n.as_i64().is_some_and(|i| i32::try_from(i).is_ok())
}

/// A `Time` string that Go's RFC 3339 parse refuses: its error text.
fn time_error(s: &str) -> Option<String> {
    super::go_time::parse_error(s)
}

/// Whether `s` is canonical padded standard base64 (what `encoding/base64.StdEncoding` and
/// the `base64` crate's `STANDARD` engine accept): whole quanta, padding only at the end, and
/// no stray bits in the last symbol.
fn base64_valid(s: &[u8]) -> bool {
    fn sextet(c: u8) -> Option<u8> {
        match c {
            b'A'..=b'Z' => Some(c - b'A'),
            b'a'..=b'z' => Some(c - b'a' + 26),
            b'0'..=b'9' => Some(c - b'0' + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        }
    }
    if !s.len().is_multiple_of(4) {
        return false;
    }
    let pad = s.iter().rev().take_while(|c| **c == b'=').count();
    if pad > 2 {
        return false;
    }
    let data = &s[..s.len() - pad];
    let Some(values) = data.iter().map(|c| sextet(*c)).collect::<Option<Vec<u8>>>() else {
        return false;
    };
    match (pad, values.last()) {
        (1, Some(last)) => last & 0b11 == 0,
        (2, Some(last)) => last & 0b1111 == 0,
        _ => true,
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
#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn err(kind: &str, api_version: &str, obj: Value) -> String {
        decode(kind, api_version, &obj).unwrap_err().message
    }

    fn deployment(spec: Value) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": spec})
    }

    #[test]
    fn valid_objects_decode() {
        let d = deployment(json!({
            "replicas": 3,
            "selector": {"matchLabels": {"app": "web"}},
            "strategy": {"rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 0}},
            "template": {
                "metadata": {"labels": {"app": "web"}, "creationTimestamp": null},
                "spec": {"containers": [{"name": "web", "image": "nginx", "ports": [{"containerPort": 80}],
                    "resources": {"limits": {"cpu": 1, "memory": "128Mi"}, "requests": {"cpu": 0.5}}}]}
            }
        }));
        assert!(decode("Deployment", "apps/v1", &d).is_ok());
        assert!(decode("Unknown", "x/v1", &json!("anything")).is_ok());
        let s = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}, "data": {"a": "aGVsbG8="}});
        assert!(decode("Secret", "v1", &s).is_ok());
    }

    #[test]
    fn an_update_is_checked_where_it_changed_and_not_where_it_shares_a_checked_part() {
        let d = deployment(
            json!({"replicas": 3, "template": {"spec": {"containers": [{"name": "c"}]}}}),
        );
        assert!(decode("Deployment", "apps/v1", &d).is_ok());
        let Value::Object(spec) = &d["spec"] else {
            panic!("spec")
        };
        assert!(spec.schema_mark().is_some(), "a clean part is marked");
        // The copy shares the marked template; its changed field is still checked.
        let mut changed = d.clone();
        changed["spec"]["replicas"] = json!("3");
        assert_eq!(
            err("Deployment", "apps/v1", changed),
            "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"
        );
        // A part with an unknown field is not marked: its warning comes every time.
        let odd = deployment(json!({"replicas": 1, "bogus": true}));
        for _ in 0..2 {
            let warnings =
                decode_with_field_validation("Deployment", "apps/v1", &odd, FieldValidation::Warn);
            assert_eq!(
                warnings.unwrap(),
                vec!["unknown field \"spec.bogus\"".to_string()]
            );
        }
    }

    #[test]
    fn type_mismatch_names_the_go_struct_field() {
        let e = decode(
            "Deployment",
            "apps/v1",
            &deployment(json!({"replicas": "3"})),
        )
        .unwrap_err();
        assert_eq!(e.code, 400);
        assert_eq!(e.reason, "BadRequest");
        assert_eq!(
            e.message,
            "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"
        );
        assert_eq!(
            err("Deployment", "apps/v1", deployment(json!({"replicas": 1.5}))),
            "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32"
        );
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
            "spec": {"containers": [{"name": "c", "image": "busybox", "command": ["sleep", 1200]}]}});
        assert_eq!(
            err("Pod", "v1", pod),
            "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field Container.spec.containers.command of type string"
        );
        let d = deployment(
            json!({"template": {"spec": {"containers": [{"name": "c", "ports": {"containerPort": 80}}]}}}),
        );
        assert_eq!(
            err("Deployment", "apps/v1", d),
            "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal object into Go struct field Container.spec.template.spec.containers.ports of type []v1.ContainerPort"
        );
        let d = deployment(
            json!({"template": {"spec": {"containers": [{"name": "c", "ports": ["80"]}]}}}),
        );
        assert_eq!(
            err("Deployment", "apps/v1", d),
            "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field Container.spec.template.spec.containers.ports of type v1.ContainerPort"
        );
        let d = json!({"metadata": {"name": "web", "labels": {"tier": 1}}});
        assert_eq!(
            err("Deployment", "apps/v1", d),
            "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string"
        );
        assert_eq!(
            err("Deployment", "apps/v1", json!({"spec": "x"})),
            "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field Deployment.spec of type v1.DeploymentSpec"
        );
        let svc = json!({"spec": {"ports": [{"port": 80, "targetPort": 8080.5}]}});
        assert_eq!(
            err("Service", "v1", svc),
            "Service in version \"v1\" cannot be handled as a Service: json: cannot unmarshal number 8080.5 into Go struct field ServicePort.spec.ports.targetPort of type int32"
        );
        let svc = json!({"spec": {"ports": [{"port": true}]}});
        assert_eq!(
            err("Service", "v1", svc),
            "Service in version \"v1\" cannot be handled as a Service: json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.port of type int32"
        );
        let cm = json!({"data": {"n": 1}});
        assert_eq!(
            err("ConfigMap", "v1", cm),
            "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string"
        );
        let sec = json!({"data": {"k": "not base64!"}});
        assert_eq!(
            err("Secret", "v1", sec),
            "Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte 3"
        );
        let ts = json!({"metadata": {"creationTimestamp": 5}});
        assert_eq!(
            err("Pod", "v1", ts),
            "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string"
        );
    }

    #[test]
    fn malformed_quantity() {
        let pod = json!({"spec": {"containers": [{"name": "c", "image": "x", "resources": {"limits": {"memory": "1 Gi"}}}]}});
        assert_eq!(
            err("Pod", "v1", pod),
            "Pod in version \"v1\" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
        );
        let pod = json!({"spec": {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "1Gb"}}}]}});
        assert!(err("Pod", "v1", pod).ends_with("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
        let pod = json!({"spec": {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "1k3"}}}]}});
        assert_eq!(
            err("Pod", "v1", pod),
            "Pod in version \"v1\" cannot be handled as a Pod: unable to parse quantity's suffix"
        );
        let rq = json!({"spec": {"hard": {"pods": {"n": 1}}}});
        assert!(err("ResourceQuota", "v1", rq).ends_with("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
        let node = json!({"status": {"capacity": {"cpu": "four"}}});
        assert!(err("Node", "v1", node).starts_with(
            "Node in version \"v1\" cannot be handled as a Node: quantities must match"
        ));
    }

    #[test]
    fn first_error_in_document_order_wins() {
        let d = deployment(json!({"replicas": "3", "minReadySeconds": "x"}));
        assert!(err("Deployment", "apps/v1", d).contains("DeploymentSpec.spec.minReadySeconds"));
    }

    #[test]
    fn null_is_the_zero_value() {
        let d = deployment(
            json!({"replicas": null, "template": {"spec": {"containers": [{"name": null, "args": [null]}]}}}),
        );
        assert!(decode("Deployment", "apps/v1", &d).is_ok());
    }

    #[test]
    fn unknown_fields() {
        let d = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
            "spec": {"replicass": 3, "template": {"spec": {"containers": [{"name": "c", "imagee": "x"}]}}}});
        assert!(decode("Deployment", "apps/v1", &d).is_ok());
        let e = decode_with_field_validation("Deployment", "apps/v1", &d, FieldValidation::Strict)
            .unwrap_err();
        assert_eq!(
            e.message,
            "Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.replicass\", unknown field \"spec.template.spec.containers[0].imagee\""
        );
        let w = decode_with_field_validation("Deployment", "apps/v1", &d, FieldValidation::Warn)
            .unwrap();
        assert_eq!(
            w,
            vec![
                "unknown field \"spec.replicass\"",
                "unknown field \"spec.template.spec.containers[0].imagee\""
            ]
        );
        // A type error takes precedence over unknown fields.
        let d = json!({"spec": {"replicass": 3, "replicas": "x"}});
        let e = decode_with_field_validation("Deployment", "apps/v1", &d, FieldValidation::Strict)
            .unwrap_err();
        assert!(e.message.contains("json: cannot unmarshal string"));
        let ing = json!({"spec": {"rules": [{"http": {"paths": [{"path": "/", "backend": {"serviceName": "x"}}]}}]}});
        let e = decode_with_field_validation(
            "Ingress",
            "networking.k8s.io/v1",
            &ing,
            FieldValidation::Strict,
        )
        .unwrap_err();
        assert_eq!(
            e.message,
            "Ingress in version \"v1\" cannot be handled as a Ingress: strict decoding error: unknown field \"spec.rules[0].http.paths[0].backend.serviceName\""
        );
    }

    #[test]
    fn arbitrary_json_never_panics() {
        let shapes = [
            json!(null),
            json!(1),
            json!("s"),
            json!([1, 2]),
            json!({"metadata": [], "spec": {"template": {"spec": {"containers": {"a": 1}}}}}),
            json!({"spec": {"selector": 1, "strategy": {"type": 5}, "template": []}}),
            json!({"data": [1], "stringData": 2, "status": {"capacity": [1]}}),
            json!({"rules": [{"verbs": "get"}], "subjects": [1], "roleRef": []}),
            json!({"spec": {"ports": [{"port": {}, "targetPort": []}], "hard": {"cpu": null}}}),
        ];
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
            "ConfigMap",
            "Node",
            "LimitRange",
            "ResourceQuota",
            "Role",
            "ClusterRole",
            "RoleBinding",
            "ClusterRoleBinding",
            "Ingress",
            "NetworkPolicy",
            "PersistentVolumeClaim",
            "Endpoints",
            "EndpointSlice",
            "Lease",
            "Event",
        ] {
            for s in &shapes {
                let _ = decode_with_field_validation(kind, "v1", s, FieldValidation::Strict);
            }
        }
    }
}
