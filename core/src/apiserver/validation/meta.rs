//! `ObjectMeta`, labels, annotations and label selectors
//! (`k8s.io/apimachinery/pkg/api/validation/objectmeta.go`, `apis/meta/v1/validation`).

use super::names::{self, NameRule};
use super::*;
use crate::json;

/// `ValidateObjectMeta` (the core wrapper, with finalizer names checked per index).
pub(super) fn validate_object_meta(obj: &Value, namespaced: bool, rule: NameRule) -> Errs {
    let meta = field(obj, "metadata");
    let p = Path::new("metadata");
    let mut errs = vec![];
    let generate_name = str_at(meta, "generateName");
    if !generate_name.is_empty() {
        for m in names::name_errors(rule, generate_name, true) {
            errs.push(invalid(&p.child("generateName"), json!(generate_name), &m));
        }
    }
    let name = str_at(meta, "name");
    if name.is_empty() {
        errs.push(required(
            &p.child("name"),
            "name or generateName is required",
        ));
    } else {
        for m in names::name_errors(rule, name, false) {
            errs.push(invalid(&p.child("name"), json!(name), &m));
        }
    }
    errs.extend(common(meta, namespaced, &p));
    errs
}

/// `validateObjectMetaAccessorWithOptsCommon`. A namespaced object always has its namespace
/// by now (the request's), and a cluster-scoped one has had it cleared, so only its format is
/// checked.
fn common(meta: &Value, namespaced: bool, p: &Path) -> Errs {
    let mut errs = vec![];
    if namespaced {
        let ns = str_at(meta, "namespace");
        if !ns.is_empty() {
            for m in names::dns1123_label(ns) {
                errs.push(invalid(&p.child("namespace"), json!(ns), &m));
            }
        }
    }
    if let Some(g) = int_at(meta, "generation") {
        errs.extend(nonnegative(g, &p.child("generation")));
    }
    errs.extend(validate_labels(field(meta, "labels"), &p.child("labels")));
    errs.extend(validate_annotations(
        field(meta, "annotations"),
        &p.child("annotations"),
    ));
    errs.extend(owner_references(
        arr(meta, "ownerReferences"),
        &p.child("ownerReferences"),
    ));
    errs.extend(finalizers(meta, p));
    errs
}

fn finalizers(meta: &Value, p: &Path) -> Errs {
    let mut errs = vec![];
    let list = strings(meta, "finalizers");
    let fp = p.child("finalizers");
    for f in &list {
        for m in names::qualified_name(f) {
            errs.push(invalid(&fp, json!(f), &m));
        }
    }
    if list.iter().any(|f| f == "orphan") && list.iter().any(|f| f == "foregroundDeletion") {
        errs.push(invalid(
            &fp,
            json!(list),
            "finalizer orphan and foregroundDeletion cannot be both set",
        ));
    }
    for (i, f) in list.iter().enumerate() {
        errs.extend(kube_finalizer_name(f, &fp.index(i)));
    }
    errs
}

/// `validateKubeFinalizerName`.
pub(super) fn kube_finalizer_name(f: &str, p: &Path) -> Errs {
    let standard = ["kubernetes", "orphan", "foregroundDeletion"];
    if !f.contains('/') && !standard.contains(&f) {
        vec![invalid(
            p,
            json!(f),
            "name is neither a standard finalizer name nor is it fully qualified",
        )]
    } else {
        vec![]
    }
}

fn owner_references(refs: &[Value], p: &Path) -> Errs {
    let mut errs = vec![];
    let mut first_controller: Option<String> = None;
    for r in refs {
        let api_version = str_at(r, "apiVersion");
        let kind = str_at(r, "kind");
        let version = api_version.rsplit('/').next().unwrap_or("");
        if version.is_empty() {
            errs.push(invalid(
                &p.child("apiVersion"),
                json!(api_version),
                "version must not be empty",
            ));
        }
        if kind.is_empty() {
            errs.push(invalid(&p.child("kind"), json!(kind), "must not be empty"));
        }
        if str_at(r, "name").is_empty() {
            errs.push(invalid(&p.child("name"), json!(""), "must not be empty"));
        }
        if str_at(r, "uid").is_empty() {
            errs.push(invalid(&p.child("uid"), json!(""), "must not be empty"));
        }
        if api_version == "v1" && kind == "Event" {
            errs.push(invalid(
                p,
                r.clone(),
                "/v1, Kind=Event is disallowed from being an owner",
            ));
        }
        if bool_at(r, "controller") == Some(true) {
            let this = format!("{kind}/{}", str_at(r, "name"));
            match &first_controller {
                Some(first) => errs.push(invalid(
                    p,
                    Value::Array(refs.to_vec()),
                    &format!(
                        "Only one reference can have Controller set to true. Found \"true\" in references for {first} and {this}"
                    ),
                )),
                None => first_controller = Some(this),
            }
        }
    }
    errs
}

/// `ValidateObjectMetaUpdate`. The server restores `uid` and `creationTimestamp` when a
/// request omits them and manages `generation` and `resourceVersion`, so those are not
/// checked here.
pub(super) fn validate_object_meta_update(new: &Value, old: &Value) -> Errs {
    let (nm, om) = (field(new, "metadata"), field(old, "metadata"));
    let p = Path::new("metadata");
    let mut errs = vec![];
    if present(om, "deletionTimestamp") {
        let old_f = strings(om, "finalizers");
        let mut extra: Vec<String> = strings(nm, "finalizers")
            .into_iter()
            .filter(|f| !old_f.contains(f))
            .collect();
        crate::api::sorting::sort(&mut extra);
        extra.dedup();
        if !extra.is_empty() {
            let list: Vec<String> = extra
                .iter()
                .map(|f| crate::api::error::go_quote(f))
                .collect();
            errs.push(forbidden(
                &p.child("finalizers"),
                &format!(
                    "no new finalizers can be added if the object is being deleted, found new finalizers []string{{{}}}",
                    list.join(", ")
                ),
            ));
        }
    }
    for key in ["name", "namespace"] {
        errs.extend(immutable(field(nm, key), field(om, key), &p.child(key)));
    }
    if !str_at(nm, "uid").is_empty() {
        errs.extend(immutable(
            field(nm, "uid"),
            field(om, "uid"),
            &p.child("uid"),
        ));
    }
    errs.extend(validate_labels(field(nm, "labels"), &p.child("labels")));
    errs.extend(validate_annotations(
        field(nm, "annotations"),
        &p.child("annotations"),
    ));
    errs.extend(owner_references(
        arr(nm, "ownerReferences"),
        &p.child("ownerReferences"),
    ));
    for (i, f) in strings(nm, "finalizers").iter().enumerate() {
        errs.extend(kube_finalizer_name(f, &p.child("finalizers").index(i)));
    }
    errs
}

/// `ValidateLabelName`.
pub(super) fn validate_label_name(k: &str, p: &Path) -> Errs {
    names::qualified_name(k)
        .into_iter()
        .map(|m| invalid(p, json!(k), &m))
        .collect()
}

/// `ValidateLabels`: each bad key or value, at the map's path.
pub(super) fn validate_labels(labels: &Value, p: &Path) -> Errs {
    let mut errs = vec![];
    let Some(m) = labels.as_object() else {
        return errs;
    };
    for (k, v) in m {
        errs.extend(validate_label_name(k, p));
        let v = v.as_str().unwrap_or("");
        for m in names::label_value(v) {
            errs.push(invalid(p, json!(v), &m));
        }
    }
    errs
}

/// `ValidateAnnotations`.
pub(super) fn validate_annotations(annotations: &Value, p: &Path) -> Errs {
    let mut errs = vec![];
    let Some(m) = annotations.as_object() else {
        return errs;
    };
    let mut size = 0usize;
    for (k, v) in m {
        // ASCII lowercase (the Unicode tables cost the page's wasm 16 KB compressed): a key
        // with another letter is invalid either way, except the Kelvin sign, which Go's
        // strings.ToLower turns into a valid `k`.
        for msg in names::qualified_name(&k.to_ascii_lowercase()) {
            errs.push(invalid(p, json!(k), &msg));
        }
        size += k.len() + v.as_str().map(str::len).unwrap_or(0);
    }
    if size > 256 * 1024 {
        errs.push(too_long(p, 256 * 1024));
    }
    errs
}

/// `ValidateLabelSelector`.
pub(super) fn validate_label_selector(sel: &Value, p: &Path) -> Errs {
    let mut errs = vec![];
    if sel.is_null() {
        return errs;
    }
    errs.extend(validate_labels(
        field(sel, "matchLabels"),
        &p.child("matchLabels"),
    ));
    for (i, e) in arr(sel, "matchExpressions").iter().enumerate() {
        let ep = p.child("matchExpressions").index(i);
        let values = strings(e, "values");
        match str_at(e, "operator") {
            "In" | "NotIn" => {
                if values.is_empty() {
                    errs.push(required(
                        &ep.child("values"),
                        "must be specified when `operator` is 'In' or 'NotIn'",
                    ));
                }
            }
            "Exists" | "DoesNotExist" => {
                if !values.is_empty() {
                    errs.push(forbidden(
                        &ep.child("values"),
                        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                    ));
                }
            }
            op => errs.push(invalid(
                &ep.child("operator"),
                json!(op),
                "not a valid selector operator",
            )),
        }
        errs.extend(validate_label_name(str_at(e, "key"), &ep.child("key")));
        for (j, v) in values.iter().enumerate() {
            for m in names::label_value(v) {
                errs.push(invalid(&ep.child("values").index(j), json!(v), &m));
            }
        }
    }
    errs
}

/// A `labels.Selector` made by `metav1.LabelSelectorAsSelector`.
pub(super) enum Selector {
    /// A nil selector: matches nothing, and is not "empty".
    Nothing,
    /// `{}`: matches everything, and is "empty".
    Everything,
    Requirements(Vec<(String, String, Vec<String>)>),
}

impl Selector {
    /// `LabelSelectorAsSelector`; `Err` where Go returns an error.
    pub fn from(sel: &Value) -> Result<Selector, ()> {
        if sel.is_null() {
            return Ok(Selector::Nothing);
        }
        let labels = string_map(sel, "matchLabels");
        let exprs = arr(sel, "matchExpressions");
        if labels.is_empty() && exprs.is_empty() {
            return Ok(Selector::Everything);
        }
        let mut reqs = vec![];
        for (k, v) in labels {
            if !names::qualified_name(k).is_empty() || !names::label_value(v).is_empty() {
                return Err(());
            }
            reqs.push((k.to_string(), "In".to_string(), vec![v.to_string()]));
        }
        for e in exprs {
            let key = str_at(e, "key");
            let op = str_at(e, "operator");
            let values = strings(e, "values");
            let ok = match op {
                "In" | "NotIn" => !values.is_empty(),
                "Exists" | "DoesNotExist" => values.is_empty(),
                _ => false,
            };
            if !ok
                || !names::qualified_name(key).is_empty()
                || values.iter().any(|v| !names::label_value(v).is_empty())
            {
                return Err(());
            }
            reqs.push((key.to_string(), op.to_string(), values));
        }
        Ok(Selector::Requirements(reqs))
    }

    pub fn is_empty(&self) -> bool {
        matches!(self, Selector::Everything)
    }

    pub fn matches(&self, labels: &Value) -> bool {
        let get = |k: &str| labels.get(k).and_then(Value::as_str);
        match self {
            Selector::Nothing => false,
            Selector::Everything => true,
            Selector::Requirements(reqs) => reqs.iter().all(|(k, op, vals)| match op.as_str() {
                "In" => get(k).is_some_and(|v| vals.iter().any(|x| x == v)),
                "NotIn" => get(k).is_none_or(|v| !vals.iter().any(|x| x == v)),
                "Exists" => get(k).is_some(),
                _ => get(k).is_none(),
            }),
        }
    }
}
