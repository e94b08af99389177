//! Test-only: extracts the decode table (`schema.rs`) from the `k8s-openapi` types.
//!
//! A probing deserializer drives each type's `Deserialize` impl and records what it asks for:
//! a struct's Go name and fields, and for each field whether its value is read as a bool, an
//! int, a string, an option, a list or map of something, a `Quantity`, a `Time`, base64 bytes,
//! an `IntOrString`, any JSON, or a nested struct. The Go type names for errors are the ones the
//! reference decoder derives, so the table carries them instead of the heuristics.
//!
//! `schema_is_up_to_date` fails when the checked-in table differs from a fresh extraction;
//! `UPDATE_SCHEMA=1 cargo test -p kubeplay-core schema` rewrites it.

use super::serde_decode::{go_container_type, go_type_from_expected};
use serde::de::{self, DeserializeSeed, Deserializer, Expected, MapAccess, SeqAccess, Visitor};
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::{self, Write};

/// The kinds with a Go type, with their `k8s-openapi` types.
fn probe_kinds(p: &Probing) -> Vec<(&'static str, usize)> {
    use k8s_openapi::api::{
        apps::v1 as apps, batch::v1 as batch, coordination::v1 as coordination, core::v1 as core,
        discovery::v1 as discovery, networking::v1 as networking, policy::v1 as policy,
        rbac::v1 as rbac, scheduling::v1 as scheduling, storage::v1 as storage,
    };
    vec![
        ("Namespace", p.root::<core::Namespace>()),
        ("Node", p.root::<core::Node>()),
        ("Pod", p.root::<core::Pod>()),
        ("PodTemplate", p.root::<core::PodTemplate>()),
        ("Service", p.root::<core::Service>()),
        ("Endpoints", p.root::<core::Endpoints>()),
        ("ConfigMap", p.root::<core::ConfigMap>()),
        ("Secret", p.root::<core::Secret>()),
        ("Event", p.root::<core::Event>()),
        ("ServiceAccount", p.root::<core::ServiceAccount>()),
        ("PersistentVolume", p.root::<core::PersistentVolume>()),
        (
            "PersistentVolumeClaim",
            p.root::<core::PersistentVolumeClaim>(),
        ),
        ("ResourceQuota", p.root::<core::ResourceQuota>()),
        ("LimitRange", p.root::<core::LimitRange>()),
        (
            "ReplicationController",
            p.root::<core::ReplicationController>(),
        ),
        ("Deployment", p.root::<apps::Deployment>()),
        ("ReplicaSet", p.root::<apps::ReplicaSet>()),
        ("StatefulSet", p.root::<apps::StatefulSet>()),
        ("DaemonSet", p.root::<apps::DaemonSet>()),
        ("ControllerRevision", p.root::<apps::ControllerRevision>()),
        ("Job", p.root::<batch::Job>()),
        ("CronJob", p.root::<batch::CronJob>()),
        ("Lease", p.root::<coordination::Lease>()),
        ("EndpointSlice", p.root::<discovery::EndpointSlice>()),
        ("Ingress", p.root::<networking::Ingress>()),
        ("NetworkPolicy", p.root::<networking::NetworkPolicy>()),
        (
            "PodDisruptionBudget",
            p.root::<policy::PodDisruptionBudget>(),
        ),
        ("Role", p.root::<rbac::Role>()),
        ("RoleBinding", p.root::<rbac::RoleBinding>()),
        ("ClusterRole", p.root::<rbac::ClusterRole>()),
        ("ClusterRoleBinding", p.root::<rbac::ClusterRoleBinding>()),
        ("PriorityClass", p.root::<scheduling::PriorityClass>()),
        ("StorageClass", p.root::<storage::StorageClass>()),
    ]
}

/// What a `Deserialize` impl asked of one value.
#[derive(Clone, Debug)]
enum Shape {
    Bool,
    Int32,
    Int64,
    String,
    /// A string checked against a fixed text after it is read.
    Const(String),
    Quantity,
    Time,
    Bytes,
    IntOrString,
    Any,
    Opt(Box<Shape>),
    Struct(usize),
    Seq(Box<Shape>),
    Map(Box<Shape>),
}

struct StructShape {
    rust_type: &'static str,
    name: &'static str,
    fields: Vec<(&'static str, Shape)>,
}

/// What the passes learn from the visitors' errors: a struct's checked strings (`apiVersion`,
/// `kind`, from `invalid_value`) and its fields without a zero value (from `missing_field`,
/// when a pass leaves a field out). Structs are named by their Rust type: a struct's index
/// depends on the pass.
#[derive(Default, Clone)]
struct Learned {
    answers: HashMap<(&'static str, &'static str), String>,
    required: HashMap<&'static str, Vec<&'static str>>,
}

/// One extraction pass.
#[derive(Default)]
struct Probing {
    structs: RefCell<Vec<StructShape>>,
    /// A struct's Rust type (the visitor's type name) to its index.
    index: RefCell<HashMap<&'static str, usize>>,
    known: RefCell<Learned>,
    /// Leave out the field at this position of every struct (unless known to be required).
    skip: Option<usize>,
    learned: RefCell<bool>,
}

impl Probing {
    /// Learns from a struct visitor's error: `last` is the field read last.
    fn learn<T>(
        &self,
        r: Result<T, ProbeError>,
        rust_type: &'static str,
        last: Option<&'static str>,
    ) -> Result<T, ProbeError> {
        let mut known = self.known.borrow_mut();
        match r {
            // A checked string: the field just read wants `expected`.
            Err(ProbeError(msg, Some(expected), _)) => {
                let field = last.expect("the checked field was read");
                known.answers.insert((rust_type, field), expected);
                *self.learned.borrow_mut() = true;
                Err(ProbeError(msg, None, None))
            }
            Err(ProbeError(msg, None, Some(field))) => {
                let required = known.required.entry(rust_type).or_default();
                if !required.contains(&field) {
                    required.push(field);
                }
                *self.learned.borrow_mut() = true;
                Err(ProbeError(msg, None, None))
            }
            r => r,
        }
    }

    fn is_required(&self, rust_type: &'static str, field: &str) -> bool {
        let known = self.known.borrow();
        known
            .required
            .get(rust_type)
            .is_some_and(|r| r.contains(&field))
    }
}

impl Probing {
    fn root<T: for<'de> de::Deserialize<'de>>(&self) -> usize {
        let slot = RefCell::new(None);
        let r = T::deserialize(Probe {
            p: self,
            at: None,
            slot: &slot,
        });
        match (r, slot.into_inner()) {
            (Ok(_), Some(Shape::Struct(i))) => i,
            // A learned answer: the next pass gets it right.
            (Err(_), Some(Shape::Struct(i))) if *self.learned.borrow() => i,
            (Err(e), _) => panic!("probe failed: {}", e.0),
            (Ok(_), other) => panic!("not a struct: {other:?}"),
        }
    }
}

/// The message, and what `invalid_value` expected or which field `missing_field` named.
#[derive(Debug)]
struct ProbeError(String, Option<String>, Option<&'static str>);

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProbeError {}

impl de::Error for ProbeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        ProbeError(msg.to_string(), None, None)
    }
    fn invalid_value(unexp: de::Unexpected, exp: &dyn Expected) -> Self {
        ProbeError(
            format!("invalid value: {unexp}"),
            Some(exp.to_string()),
            None,
        )
    }
    fn missing_field(field: &'static str) -> Self {
        ProbeError(format!("missing field `{field}`"), None, Some(field))
    }
}

fn expecting(v: &dyn Expected) -> String {
    v.to_string()
}

/// Deserializes one value, recording its shape in `slot`. `at` is the struct field it is in.
struct Probe<'p> {
    p: &'p Probing,
    at: Option<(&'static str, &'static str)>,
    slot: &'p RefCell<Option<Shape>>,
}

impl<'p> Probe<'p> {
    fn set(&self, shape: Shape) {
        *self.slot.borrow_mut() = Some(shape);
    }
    fn inner(&self, slot: &'p RefCell<Option<Shape>>) -> Probe<'p> {
        Probe {
            p: self.p,
            at: self.at,
            slot,
        }
    }
}

fn taken(slot: RefCell<Option<Shape>>) -> Box<Shape> {
    Box::new(slot.into_inner().expect("the element was read"))
}

macro_rules! unexpected {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, ProbeError> {
                panic!("unexpected {} at {:?}", stringify!($method), self.at)
            }
        )*
    };
}

impl<'de, 'p> Deserializer<'de> for Probe<'p> {
    type Error = ProbeError;

    // No decoded Go type reads these: one that does needs a `Ty` of its own.
    unexpected! {
        deserialize_i8 deserialize_i16 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_f32 deserialize_f64 deserialize_char deserialize_bytes deserialize_byte_buf
        deserialize_unit deserialize_identifier
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ProbeError> {
        match expecting(&visitor).as_str() {
            "IntOrString" => {
                self.set(Shape::IntOrString);
                visitor.visit_i64(0)
            }
            "any valid JSON value" => {
                self.set(Shape::Any);
                visitor.visit_unit()
            }
            other => panic!("deserialize_any for {other} at {:?}", self.at),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ProbeError> {
        self.set(Shape::Bool);
        visitor.visit_bool(false)
    }

    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ProbeError> {
        self.set(Shape::Int32);
        visitor.visit_i32(0)
    }

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ProbeError> {
        self.set(Shape::Int64);
        visitor.visit_i64(0)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ProbeError> {
        self.deserialize_string(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ProbeError> {
        let answer = self
            .at
            .and_then(|at| self.p.known.borrow().answers.get(&at).cloned());
        match answer {
            Some(text) => {
                self.set(Shape::Const(text.clone()));
                visitor.visit_string(text)
            }
            None => {
                self.set(Shape::String);
                visitor.visit_str("")
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ProbeError> {
        match expecting(&visitor).as_str() {
            "option" => {
                let slot = RefCell::new(None);
                let r = visitor.visit_some(self.inner(&slot));
                self.set(Shape::Opt(taken(slot)));
                r
            }
            // ByteString reads null as empty bytes.
            "a base64-encoded string" => {
                self.set(Shape::Bytes);
                visitor.visit_none()
            }
            other => panic!("deserialize_option for {other} at {:?}", self.at),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _visitor: V,
    ) -> Result<V::Value, ProbeError> {
        panic!("unexpected unit struct {name} at {:?}", self.at)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, ProbeError> {
        use de::value::BorrowedStrDeserializer;
        match name {
            "Quantity" => {
                self.set(Shape::Quantity);
                visitor.visit_newtype_struct(BorrowedStrDeserializer::new("0"))
            }
            "Time" | "MicroTime" => {
                self.set(Shape::Time);
                let epoch = BorrowedStrDeserializer::new("1970-01-01T00:00:00Z");
                visitor.visit_newtype_struct(epoch)
            }
            // Other newtypes (`RawExtension`, `FieldsV1`) are decoded as what they wrap.
            _ => visitor.visit_newtype_struct(self),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ProbeError> {
        let slot = RefCell::new(None);
        let r = visitor.visit_seq(OneElement(Some(self.inner(&slot))));
        self.set(Shape::Seq(taken(slot)));
        r
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        _visitor: V,
    ) -> Result<V::Value, ProbeError> {
        panic!("unexpected tuple of {len} at {:?}", self.at)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _len: usize,
        _visitor: V,
    ) -> Result<V::Value, ProbeError> {
        panic!("unexpected tuple struct {name} at {:?}", self.at)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ProbeError> {
        let slot = RefCell::new(None);
        let r = visitor.visit_map(OneEntry(Some(self.inner(&slot))));
        self.set(Shape::Map(taken(slot)));
        r
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ProbeError> {
        let p = self.p;
        // The visitor's type names the Rust type: Go names repeat across API groups.
        let rust_type = std::any::type_name::<V>();
        let seen = p.index.borrow().get(rust_type).copied();
        if let Some(i) = seen {
            // Already recorded (or being recorded: a recursive type): referenced by index, and
            // given only the fields it cannot do without.
            self.set(Shape::Struct(i));
            let required = p.known.borrow().required.get(rust_type).cloned();
            let fields: &'static [&'static str] = required.map_or(&[], |r| r.leak());
            let r = visitor.visit_map(Fields {
                p,
                strukt: i,
                rust_type,
                fields,
                next: 0,
                record: false,
            });
            return p.learn(r, rust_type, None);
        }
        let i = {
            let mut structs = p.structs.borrow_mut();
            structs.push(StructShape {
                rust_type,
                name,
                fields: vec![],
            });
            structs.len() - 1
        };
        p.index.borrow_mut().insert(rust_type, i);
        self.set(Shape::Struct(i));
        let r = visitor.visit_map(Fields {
            p,
            strukt: i,
            rust_type,
            fields,
            next: 0,
            record: true,
        });
        let last = p.structs.borrow()[i].fields.last().map(|(f, _)| *f);
        p.learn(r, rust_type, last)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        _variants: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, ProbeError> {
        panic!("unexpected enum {name} at {:?}", self.at)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, ProbeError> {
        panic!("a declared field is ignored at {:?}", self.at)
    }
}

/// A list of one probed element.
struct OneElement<'p>(Option<Probe<'p>>);

impl<'de, 'p> SeqAccess<'de> for OneElement<'p> {
    type Error = ProbeError;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, ProbeError> {
        self.0
            .take()
            .map(|probe| seed.deserialize(probe))
            .transpose()
    }
}

/// A map of one probed entry.
struct OneEntry<'p>(Option<Probe<'p>>);

impl<'de, 'p> MapAccess<'de> for OneEntry<'p> {
    type Error = ProbeError;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, ProbeError> {
        if self.0.is_none() {
            return Ok(None);
        }
        seed.deserialize(de::value::BorrowedStrDeserializer::new("key"))
            .map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, ProbeError> {
        seed.deserialize(self.0.take().expect("a key first"))
    }
}

/// A struct's fields, each with a probed value.
struct Fields<'p> {
    p: &'p Probing,
    strukt: usize,
    rust_type: &'static str,
    fields: &'static [&'static str],
    next: usize,
    /// Record the fields' shapes (not for a struct already recorded).
    record: bool,
}

impl<'de, 'p> MapAccess<'de> for Fields<'p> {
    type Error = ProbeError;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, ProbeError> {
        if self.record && self.p.skip == Some(self.next) {
            let field = self.fields.get(self.next).copied().unwrap_or_default();
            if !self.p.is_required(self.rust_type, field) {
                self.next += 1;
            }
        }
        let Some(field) = self.fields.get(self.next) else {
            return Ok(None);
        };
        seed.deserialize(de::value::BorrowedStrDeserializer::new(field))
            .map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, ProbeError> {
        let field = self.fields[self.next];
        self.next += 1;
        let slot = RefCell::new(None);
        let probe = Probe {
            p: self.p,
            at: Some((self.rust_type, field)),
            slot: &slot,
        };
        let r = seed.deserialize(probe);
        let shape = slot.into_inner().expect("the field's value was read");
        if self.record {
            let mut structs = self.p.structs.borrow_mut();
            structs[self.strukt].fields.push((field, shape));
        }
        r
    }
}

/// The table: every struct reachable from the kinds, each kind's root, and what was learned.
struct Extracted {
    structs: Vec<StructShape>,
    kinds: Vec<(&'static str, usize)>,
    known: Learned,
}

fn pass(known: Learned, skip: Option<usize>) -> (Extracted, bool) {
    let p = Probing {
        known: RefCell::new(known),
        skip,
        ..Probing::default()
    };
    let kinds = probe_kinds(&p);
    let learned = p.learned.into_inner();
    let x = Extracted {
        structs: p.structs.into_inner(),
        kinds,
        known: p.known.into_inner(),
    };
    (x, learned)
}

/// Passes until nothing more is learned: one leaving out each field position in turn (to find
/// the fields without a zero value), then a full one for the shapes.
fn extract() -> Extracted {
    let (mut x, _) = pass(Learned::default(), None);
    let widest = x.structs.iter().map(|s| s.fields.len()).max().unwrap_or(0);
    for skip in (0..widest).map(Some).chain([None]) {
        loop {
            let (next, learned) = pass(x.known.clone(), skip);
            x = next;
            if !learned {
                break;
            }
        }
    }
    x
}

// ---------------------------------------------------------------------------------------------
// Emitting `schema.rs`

fn emit(x: &Extracted) -> String {
    let mut out = String::new();
    out.push_str(
        "//! The decode table: every Go struct the apiserver decodes, with its JSON fields and what\n\
         //! each holds. GENERATED from the `k8s-openapi` types by `schema_gen.rs`: do not edit.\n\
         //! Regenerate with `UPDATE_SCHEMA=1 cargo test -p kubeplay-core schema`.\n\n\
         use super::decode::{Field, Struct, Ty};\n\
         use Ty::*;\n\n",
    );
    out.push_str("/// The root struct of each kind the apiserver has a Go type for.\n");
    out.push_str("pub(super) fn root_of(kind: &str) -> Option<u16> {\n    Some(match kind {\n");
    for (kind, i) in &x.kinds {
        let _ = writeln!(out, "        {kind:?} => {i},");
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");
    let _ = writeln!(
        out,
        "pub(super) static STRUCTS: [Struct; {}] = [",
        x.structs.len()
    );
    for (i, s) in x.structs.iter().enumerate() {
        // In declaration order, the order the impls check them in.
        let known = x.known.required.get(s.rust_type);
        let required: Vec<&str> = (s.fields.iter().map(|(f, _)| *f))
            .filter(|f| known.is_some_and(|r| r.contains(f)))
            .collect();
        let _ = writeln!(
            out,
            "    // {i}\n    Struct {{ name: {:?}, required: &{required:?}, fields: &[",
            s.name
        );
        for (field, shape) in &s.fields {
            let ty = ty_expr(&without_needless_options(shape), s.name, field);
            let _ = writeln!(out, "        Field {{ name: {field:?}, ty: {ty} }},");
        }
        out.push_str("    ] },\n");
    }
    out.push_str("];\n");
    out
}

/// A pointer only matters where null is not the zero value of what it points to.
fn without_needless_options(shape: &Shape) -> Shape {
    match shape {
        Shape::Opt(inner) => match without_needless_options(inner) {
            keep @ (Shape::Time | Shape::IntOrString) => Shape::Opt(Box::new(keep)),
            other => other,
        },
        Shape::Seq(e) => Shape::Seq(Box::new(without_needless_options(e))),
        Shape::Map(e) => Shape::Map(Box::new(without_needless_options(e))),
        other => other.clone(),
    }
}

/// The shape as a `Ty` expression. Containers carry the Go type the reference decoder names
/// for them, which depends on the struct field they are in.
fn ty_expr(shape: &Shape, strukt: &str, field: &str) -> String {
    match shape {
        Shape::Bool => "Bool".into(),
        Shape::Int32 => "Int32".into(),
        Shape::Int64 => "Int64".into(),
        Shape::String => "String".into(),
        Shape::Const(text) => {
            let go_type = go_type_from_expected(text);
            format!("Const {{ text: {text:?}, go_type: {go_type:?} }}")
        }
        Shape::Quantity => "Quantity".into(),
        Shape::Time => "Time".into(),
        Shape::Bytes => "Bytes".into(),
        Shape::IntOrString => "IntOrString".into(),
        Shape::Any => "Any".into(),
        Shape::Opt(inner) => format!("Opt(&{})", ty_expr(inner, strukt, field)),
        Shape::Struct(i) => format!("Struct({i})"),
        Shape::Seq(e) => format!(
            "Seq({:?}, &{})",
            go_container_type(strukt, field, true),
            ty_expr(e, strukt, field)
        ),
        Shape::Map(e) => format!(
            "Map({:?}, &{})",
            go_container_type(strukt, field, false),
            ty_expr(e, strukt, field)
        ),
    }
}

const SCHEMA_PATH: &str = "src/apiserver/validation/schema.rs";

#[test]
fn schema_is_up_to_date() {
    let fresh = emit(&extract());
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SCHEMA_PATH);
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &fresh).expect("write schema.rs");
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == fresh,
        "{SCHEMA_PATH} is stale: regenerate with UPDATE_SCHEMA=1 cargo test -p kubeplay-core schema"
    );
}
