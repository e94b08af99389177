//! Test-only: the table-driven decoder (`decode.rs`) against the serde-driven reference
//! (`serde_decode.rs`), byte for byte, over a corpus: the scenarios' objects, a sample of every
//! struct in the table, and systematic mutations of both (every value replaced in turn by
//! values of every JSON type, an unknown field in every object, every object decoded as every
//! kind).

use super::decode::{FieldValidation, Ty};
use super::schema::{root_of, STRUCTS};
use super::{decode, serde_decode};
use crate::api::json::JsonPointer;
use crate::api::value::{json, Map, Value};
use std::path::Path;

const KINDS: [&str; 33] = [
    "Namespace",
    "Node",
    "Pod",
    "PodTemplate",
    "Service",
    "Endpoints",
    "ConfigMap",
    "Secret",
    "Event",
    "ServiceAccount",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "ResourceQuota",
    "LimitRange",
    "ReplicationController",
    "Deployment",
    "ReplicaSet",
    "StatefulSet",
    "DaemonSet",
    "ControllerRevision",
    "Job",
    "CronJob",
    "Lease",
    "EndpointSlice",
    "Ingress",
    "NetworkPolicy",
    "PodDisruptionBudget",
    "Role",
    "RoleBinding",
    "ClusterRole",
    "ClusterRoleBinding",
    "PriorityClass",
    "StorageClass",
];

/// What every scalar is replaced by in turn: every JSON type, ints around the int32 and int64
/// limits, floats, and strings that are (or are not) quantities, times and base64.
fn replacements() -> Vec<Value> {
    vec![
        json!(null),
        json!(true),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(3.0),
        json!(3000000000u64),
        json!(-3000000000i64),
        json!(9223372036854775808u64),
        json!(1e300),
        json!("x"),
        json!(""),
        json!("1Gi"),
        json!(" 100m "),
        json!("not-a-time"),
        json!("2024-01-02T03:04:05Z"),
        json!("aGVsbG8="),
        json!("AB=="),
        json!([]),
        json!({}),
        json!([1]),
        json!([null]),
        json!({"a": 1}),
        json!({"apiVersion": "x", "kind": "y"}),
    ]
}

/// What every list and object is replaced by in turn: every JSON type.
fn container_replacements() -> Vec<Value> {
    vec![
        json!(null),
        json!(true),
        json!(-1),
        json!(1.5),
        json!("x"),
        json!([]),
        json!({}),
        json!([1]),
        json!([null]),
        json!({"a": 1}),
    ]
}

/// Compares the two decoders on one case under `Warn` (which has the unknown fields; the other
/// directives only render them); returns 1 for counting.
fn check(kind: &str, api_version: &str, obj: &Value) -> usize {
    check_under(kind, api_version, obj, &[FieldValidation::Warn])
}

fn check_all_directives(kind: &str, api_version: &str, obj: &Value) -> usize {
    use FieldValidation::*;
    check_under(kind, api_version, obj, &[Ignore, Warn, Strict])
}

fn check_under(
    kind: &str,
    api_version: &str,
    obj: &Value,
    directives: &[FieldValidation],
) -> usize {
    for &directive in directives {
        let new = decode::decode_with_field_validation(kind, api_version, obj, directive);
        let old = serde_decode::decode_with_field_validation(kind, api_version, obj, directive);
        assert_eq!(new, old, "{kind} ({directive:?}): {obj}");
    }
    1
}

fn version_of(obj: &Value) -> &str {
    obj.get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("v1")
}

/// Every value in `obj` (at or under the JSON pointer `under`) replaced in turn by every
/// replacement, and an unknown field added to every object.
fn mutations(kind: &str, obj: &Value, under: &str) -> usize {
    let mut n = 0;
    let mut pointers = vec![];
    let start = obj.lookup(under).expect("a pointer into the object");
    collect_pointers(start, under.to_string(), &mut pointers);
    let (scalars, containers) = (replacements(), container_replacements());
    for p in &pointers {
        let node = obj.lookup(p).expect("a collected pointer");
        let replacements = match node.is_object() || node.is_array() {
            true => &containers,
            false => &scalars,
        };
        for r in replacements {
            let mut m = obj.clone();
            *m.lookup_mut(p).expect("a collected pointer") = r.clone();
            n += check(kind, version_of(obj), &m);
        }
        let mut m = obj.clone();
        if let Some(Value::Object(o)) = m.lookup_mut(p) {
            o.insert("zzUnknown", json!({"deeper": 1}));
            o.insert("aaUnknown", json!(1));
            n += check_all_directives(kind, version_of(obj), &m);
        }
    }
    n
}

fn collect_pointers(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let k = k.replace('~', "~0").replace('/', "~1");
                collect_pointers(x, format!("{at}/{k}"), out);
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                collect_pointers(x, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------------
// The corpus

/// The objects in the scenarios (and in the YAML they feed to kubectl).
fn scenario_objects() -> Vec<Value> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![];
    for dir in [
        root.join("../public/scenarios"),
        root.join("tests/scenarios"),
    ] {
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("a scenario directory")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .collect();
        files.sort();
        for f in files {
            yaml_objects(&std::fs::read_to_string(f).expect("readable"), &mut out);
        }
    }
    out
}

fn yaml_objects(text: &str, out: &mut Vec<Value>) {
    use serde::Deserialize;
    for doc in serde_yaml::Deserializer::from_str(text) {
        let Ok(v) = Value::deserialize(doc) else {
            continue;
        };
        embedded_yaml(&v, out);
        if v.get("kind").is_some() {
            out.push(v);
        }
    }
}

fn embedded_yaml(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::String(s) if s.contains("kind:") => yaml_objects(s, out),
        Value::Array(items) => items.iter().for_each(|x| embedded_yaml(x, out)),
        Value::Object(m) => m.values().for_each(|x| embedded_yaml(x, out)),
        _ => {}
    }
}

/// The objects of the decoder's unit tests.
fn unit_test_objects() -> Vec<(&'static str, Value)> {
    vec![
        (
            "Deployment",
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {
                "replicas": 3,
                "selector": {"matchLabels": {"app": "web"}},
                "strategy": {"rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 0}},
                "template": {
                    "metadata": {"labels": {"app": "web"}, "creationTimestamp": null},
                    "spec": {"containers": [{"name": "web", "image": "nginx", "ports": [{"containerPort": 80}],
                        "resources": {"limits": {"cpu": 1, "memory": "128Mi"}, "requests": {"cpu": 0.5}}}]}
                }
            }}),
        ),
        (
            "Secret",
            json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}, "data": {"a": "aGVsbG8="}}),
        ),
        (
            "Pod",
            json!({"spec": {"containers": [{"name": "c", "image": "busybox", "command": ["sleep", 1200]}]}}),
        ),
        (
            "Service",
            json!({"spec": {"ports": [{"port": 80, "targetPort": 8080.5}]}}),
        ),
        (
            "ResourceQuota",
            json!({"spec": {"hard": {"pods": {"n": 1}}}}),
        ),
        ("Node", json!({"status": {"capacity": {"cpu": "four"}}})),
        (
            "Deployment",
            json!({"spec": {"replicass": 3, "replicas": "x"}}),
        ),
        (
            "Ingress",
            json!({"spec": {"rules": [{"http": {"paths": [{"path": "/", "backend": {"serviceName": "x"}}]}}]}}),
        ),
        (
            "Deployment",
            json!({"metadata": [], "spec": {"template": {"spec": {"containers": {"a": 1}}}}}),
        ),
        (
            "Deployment",
            json!({"spec": {"selector": 1, "strategy": {"type": 5}, "template": []}}),
        ),
        (
            "Secret",
            json!({"data": [1], "stringData": 2, "status": {"capacity": [1]}}),
        ),
        (
            "Role",
            json!({"rules": [{"verbs": "get"}], "subjects": [1], "roleRef": []}),
        ),
        (
            "Service",
            json!({"spec": {"ports": [{"port": {}, "targetPort": []}], "hard": {"cpu": null}}}),
        ),
    ]
}

/// A valid value of `ty`; structs are sampled `depth` levels deep.
fn sample(ty: &Ty, depth: usize) -> Value {
    match ty {
        Ty::Bool => json!(true),
        Ty::Int32 => json!(1),
        Ty::Int64 => json!(2),
        Ty::String => json!("s"),
        Ty::Const { text, .. } => json!(text),
        Ty::Quantity => json!("1Gi"),
        Ty::Time => json!("2024-01-02T03:04:05Z"),
        Ty::Bytes => json!("aGVsbG8="),
        Ty::IntOrString => json!("http"),
        Ty::Any => json!({"a": [1, "b"]}),
        Ty::Opt(inner) => sample(inner, depth),
        Ty::Struct(i) if depth == 0 => required_only(*i as usize),
        Ty::Struct(i) => struct_sample(*i as usize, depth - 1),
        Ty::Seq(_, elem) => json!([sample(elem, depth)]),
        Ty::Map(_, elem) => json!({"k": sample(elem, depth)}),
    }
}

fn struct_sample(i: usize, depth: usize) -> Value {
    let mut m = Map::new();
    for f in STRUCTS[i].fields {
        m.insert(f.name, sample(&f.ty, depth));
    }
    Value::Object(m)
}

fn required_only(i: usize) -> Value {
    let mut m = Map::new();
    for f in STRUCTS[i].fields {
        if STRUCTS[i].required.contains(&f.name) {
            m.insert(f.name, sample(&f.ty, 0));
        }
    }
    Value::Object(m)
}

/// For every struct in the table: a kind, an object of that kind holding one sample of the
/// struct (found by a breadth-first search from the kinds' roots), and the sample's pointer.
fn struct_samples() -> Vec<(&'static str, Value, String)> {
    // How to wrap a value to put it where the struct is: the route from a root.
    #[derive(Clone)]
    enum Step {
        Field(&'static str),
        Elem,
        Entry,
    }
    let mut route: Vec<Option<(&'static str, Vec<Step>)>> = vec![None; STRUCTS.len()];
    let mut queue = std::collections::VecDeque::new();
    for kind in KINDS {
        let root = root_of(kind).expect("a kind in the table") as usize;
        if route[root].is_none() {
            route[root] = Some((kind, vec![]));
            queue.push_back(root);
        }
    }
    while let Some(i) = queue.pop_front() {
        let (kind, steps) = route[i].clone().expect("routed");
        for f in STRUCTS[i].fields {
            let mut steps = steps.clone();
            steps.push(Step::Field(f.name));
            let mut ty = &f.ty;
            loop {
                match ty {
                    Ty::Opt(inner) => ty = inner,
                    Ty::Seq(_, inner) => {
                        steps.push(Step::Elem);
                        ty = inner;
                    }
                    Ty::Map(_, inner) => {
                        steps.push(Step::Entry);
                        ty = inner;
                    }
                    _ => break,
                }
            }
            if let Ty::Struct(j) = ty {
                let j = *j as usize;
                if route[j].is_none() {
                    route[j] = Some((kind, steps));
                    queue.push_back(j);
                }
            }
        }
    }
    let mut out = vec![];
    for (i, r) in route.into_iter().enumerate() {
        let (kind, steps) = r.expect("every struct is reachable from a kind");
        let mut v = struct_sample(i, 0);
        let mut under = String::new();
        for step in &steps {
            match step {
                Step::Field(f) => under = format!("{under}/{f}"),
                Step::Elem => under.push_str("/0"),
                Step::Entry => under.push_str("/k"),
            }
        }
        for step in steps.iter().rev() {
            v = match step {
                Step::Field(f) => json!({ *f: v }),
                Step::Elem => json!([v]),
                Step::Entry => json!({"k": v}),
            };
        }
        out.push((kind, v, under));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The tests

#[test]
fn the_table_decoder_matches_serde_on_the_scenarios_and_their_mutations() {
    let objects = scenario_objects();
    assert!(
        objects.len() >= 15,
        "the scenarios' objects: {}",
        objects.len()
    );
    let mut n = 0;
    for obj in &objects {
        let kind = obj["kind"].as_str().unwrap_or("");
        n += mutations(kind, obj, "");
        for other in KINDS.iter().chain(&["Unknown"]) {
            n += check(other, version_of(obj), obj);
        }
    }
    for (kind, obj) in unit_test_objects() {
        n += mutations(kind, &obj, "");
    }
    println!("{n} cases");
}

#[test]
fn the_table_decoder_matches_serde_on_every_struct_and_its_mutations() {
    let samples = struct_samples();
    assert_eq!(samples.len(), STRUCTS.len());
    let mut n = 0;
    for (kind, obj, under) in &samples {
        n += mutations(kind, obj, under);
    }
    println!("{n} cases");
}

#[test]
fn the_table_decoder_matches_serde_on_every_kind_decoded_as_every_kind() {
    let mut n = 0;
    for kind in KINDS {
        let full = struct_sample(root_of(kind).expect("a kind") as usize, 3);
        for other in KINDS {
            n += check(other, "v1", &full);
        }
    }
    println!("{n} cases");
}

#[test]
fn the_table_decoder_matches_serde_on_times_and_base64() {
    let times = [
        "2024-01-02T03:04:05Z",
        "2024-01-02T03:04:05z",
        "2024-01-02t03:04:05Z",
        "2024-01-02 03:04:05Z",
        "2024-01-02T03:04:05.123456789Z",
        "2024-01-02T03:04:05.1234567891Z",
        "2024-01-02T03:04:05,5Z",
        "2024-01-02T03:04:05+01:00",
        "2024-01-02T03:04:05-0130",
        "2024-01-02T03:04:05+01",
        "2024-01-02T03:04:05+01:00[Europe/Paris]",
        "2024-01-02T03:04:05Z[u-ca=iso8601]",
        "2024-01-02T03:04Z",
        "2024-01-02T03Z",
        "20240102T030405Z",
        "2024-01-02T03:04:60Z",
        "2024-02-30T03:04:05Z",
        "2024-01-02T03:04:05",
        "2024-01-02",
        "+002024-01-02T03:04:05Z",
        "-000001-01-02T03:04:05Z",
        "9999-12-31T23:59:59Z",
        "0000-01-01T00:00:00Z",
        " 2024-01-02T03:04:05Z",
        "",
        "not-a-time",
    ];
    let mut n = 0;
    for t in times {
        let obj = json!({"metadata": {"creationTimestamp": t}, "status": {"conditions": [
            {"type": "X", "lastTransitionTime": t}, {"type": "Y", "lastTransitionTime": null}, {"type": "Z"}]}});
        n += check("PodDisruptionBudget", "policy/v1", &obj);
        let lease = json!({"spec": {"acquireTime": t, "renewTime": null}});
        n += check("Lease", "coordination.k8s.io/v1", &lease);
    }
    // Every string of up to four symbols from an alphabet that hits each base64 rule, and longer
    // ones with the faults at every position.
    let alphabet = ['A', 'B', 'Q', 'g', '+', '/', '=', '-', ' ', 'é'];
    let mut strings = vec![String::new()];
    let mut shorter = strings.clone();
    for _ in 0..4 {
        shorter = shorter
            .iter()
            .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
            .collect();
        strings.extend(shorter.iter().cloned());
    }
    for fault in ["=", "-", "A", "AA", "==", "Q="] {
        for i in 0..=8 {
            let mut s = "aGVsbG8gd29y".to_string();
            s.insert_str(i, fault);
            strings.push(s);
        }
    }
    for s in &strings {
        n += check("Secret", "v1", &json!({"data": {"k": s}}));
    }
    println!("{n} cases");
}
