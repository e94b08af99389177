//! PATCH bodies: JSON merge patch (RFC 7386), strategic merge patch (lists with a merge key
//! merge element by element, as for containers), and JSON patch (RFC 6902).

use crate::api::json::JsonPointer;
use crate::api::value::{Map, Value};

/// The merge key of a list field in strategic merge patches (`patchMergeKey` in the API types).
fn merge_key(field: &str) -> Option<&'static str> {
    Some(match field {
        "containers"
        | "initContainers"
        | "ephemeralContainers"
        | "volumes"
        | "env"
        | "imagePullSecrets" => "name",
        "ports" => "containerPort",
        "volumeMounts" => "mountPath",
        "conditions" => "type",
        "ownerReferences" => "uid",
        "hostAliases" => "ip",
        _ => return None,
    })
}

/// RFC 7386: objects merge recursively, `null` deletes, anything else replaces.
pub fn merge(target: &mut Value, patch: &Value) {
    merge_inner(target, patch, false)
}

/// Strategic merge: as [`merge`], but lists with a known merge key merge by that key.
pub fn strategic_merge(target: &mut Value, patch: &Value) {
    merge_inner(target, patch, true)
}

fn merge_inner(target: &mut Value, patch: &Value, strategic: bool) {
    let Value::Object(p) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let t = target.as_object_mut().expect("object");
    for (k, v) in p {
        if k.starts_with("$setElementOrder/") || k == "$retainKeys" {
            continue;
        }
        if v.is_null() {
            t.remove(k);
            continue;
        }
        match (strategic.then(|| merge_key(k)).flatten(), v, t.get_mut(k)) {
            (Some(key), Value::Array(items), Some(Value::Array(existing))) => {
                merge_list(existing, items, key)
            }
            (_, Value::Object(_), Some(existing)) if existing.is_object() => {
                merge_inner(existing, v, strategic)
            }
            _ => {
                let mut fresh = Value::Null;
                merge_inner(&mut fresh, v, strategic);
                if !v.is_object() {
                    fresh = v.clone();
                }
                t.insert(k.clone(), fresh);
            }
        }
    }
}

fn merge_list(existing: &mut Vec<Value>, items: &[Value], key: &str) {
    for item in items {
        let id = item.get(key);
        let delete = item.get("$patch").and_then(Value::as_str) == Some("delete");
        match existing
            .iter()
            .position(|e| id.is_some() && e.get(key) == id)
        {
            Some(i) if delete => {
                existing.remove(i);
            }
            Some(i) => merge_inner(&mut existing[i], item, true),
            None if delete => {}
            None => existing.push(item.clone()),
        }
    }
}

/// The RFC 7386 patch that turns `from` into `to` (what client-side apply sends).
pub fn diff(from: &Value, to: &Value) -> Value {
    match (from, to) {
        (Value::Object(a), Value::Object(b)) => {
            let mut out = Map::new();
            for (k, bv) in b {
                match a.get(k) {
                    Some(av) if av == bv => {}
                    Some(av) if av.is_object() && bv.is_object() => {
                        out.insert(k.clone(), diff(av, bv));
                    }
                    _ => {
                        out.insert(k.clone(), bv.clone());
                    }
                }
            }
            for k in a.keys() {
                if !b.contains_key(k) {
                    out.insert(k.clone(), Value::Null);
                }
            }
            Value::Object(out)
        }
        _ => to.clone(),
    }
}

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

fn pointer_parent<'a>(doc: &'a mut Value, path: &str) -> Result<(&'a mut Value, String), String> {
    let (parent, last) = path
        .rsplit_once('/')
        .ok_or_else(|| format!("invalid JSON pointer {path:?}"))?;
    let target = if parent.is_empty() {
        Some(doc)
    } else {
        doc.lookup_mut(parent)
    };
    let target = target.ok_or_else(|| format!("doc is missing path: {path:?}"))?;
    Ok((target, unescape(last)))
}

/// RFC 6902 operations `add`, `remove`, `replace`, `test`, `copy`, `move`.
pub fn json_patch(doc: &mut Value, ops: &Value) -> Result<(), String> {
    let ops = ops
        .as_array()
        .ok_or("the patch must be a JSON array of operations")?;
    for op in ops {
        let kind = op
            .get("op")
            .and_then(Value::as_str)
            .ok_or("each operation needs an \"op\"")?;
        let path = op
            .get("path")
            .and_then(Value::as_str)
            .ok_or("each operation needs a \"path\"")?;
        match kind {
            "add" | "replace" => {
                let value = op.get("value").cloned().ok_or("missing value")?;
                if path.is_empty() {
                    *doc = value;
                    continue;
                }
                let (parent, last) = pointer_parent(doc, path)?;
                match parent {
                    Value::Object(m) => {
                        if kind == "replace" && !m.contains_key(&last) {
                            return Err(format!(
                                "replace operation does not apply: doc is missing key: {path}"
                            ));
                        }
                        m.insert(last, value);
                    }
                    Value::Array(a) => {
                        let idx = if last == "-" {
                            a.len()
                        } else {
                            last.parse()
                                .map_err(|_| format!("invalid index in {path:?}"))?
                        };
                        if kind == "replace" {
                            *a.get_mut(idx).ok_or_else(|| {
                                format!(
                                    "replace operation does not apply: doc is missing path: {path}"
                                )
                            })? = value;
                        } else if idx <= a.len() {
                            a.insert(idx, value);
                        } else {
                            return Err(format!(
                                "add operation does not apply: doc is missing path: {path}"
                            ));
                        }
                    }
                    _ => return Err(format!("doc is missing path: {path:?}")),
                }
            }
            "remove" => {
                let (parent, last) = pointer_parent(doc, path)?;
                let removed = match parent {
                    Value::Object(m) => m.remove(&last).is_some(),
                    Value::Array(a) => match last.parse::<usize>() {
                        Ok(i) if i < a.len() => {
                            a.remove(i);
                            true
                        }
                        _ => false,
                    },
                    _ => false,
                };
                if !removed {
                    return Err(format!(
                        "remove operation does not apply: doc is missing path: {path:?}"
                    ));
                }
            }
            "test" => {
                let expected = op.get("value").ok_or("missing value")?;
                if doc.lookup(path) != Some(expected) {
                    return Err(format!("testing value {path} failed: test failed"));
                }
            }
            "copy" | "move" => {
                let from = op
                    .get("from")
                    .and_then(Value::as_str)
                    .ok_or("missing from")?;
                let value = doc
                    .lookup(from)
                    .cloned()
                    .ok_or_else(|| format!("doc is missing from path: {from:?}"))?;
                if kind == "move" {
                    json_patch(doc, &crate::json!([{"op": "remove", "path": from}]))?;
                }
                json_patch(
                    doc,
                    &crate::json!([{"op": "add", "path": path, "value": value}]),
                )?;
            }
            other => return Err(format!("Unexpected kind: {other}")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn strategic_merge_merges_containers_by_name() {
        let mut d = json!({"spec": {"containers": [{"name": "a", "image": "x"}, {"name": "b", "image": "y"}], "replicas": 1}});
        strategic_merge(
            &mut d,
            &json!({"spec": {"containers": [{"name": "b", "image": "z"}], "replicas": null}}),
        );
        assert_eq!(
            d,
            json!({"spec": {"containers": [{"name": "a", "image": "x"}, {"name": "b", "image": "z"}]}})
        );
        let mut m = json!({"spec": {"containers": [{"name": "a"}, {"name": "b"}]}});
        merge(&mut m, &json!({"spec": {"containers": [{"name": "b"}]}}));
        assert_eq!(m, json!({"spec": {"containers": [{"name": "b"}]}}));
    }

    #[test]
    fn diff_then_merge_round_trips() {
        let a = json!({"a": 1, "b": {"c": 2, "d": 3}, "e": [1]});
        let b = json!({"a": 1, "b": {"c": 5}, "e": [2], "f": "new"});
        let p = diff(&a, &b);
        let mut x = a.clone();
        merge(&mut x, &p);
        assert_eq!(x, b);
    }

    #[test]
    fn json_patch_ops() {
        let mut d = json!({"spec": {"replicas": 1, "list": [1, 2]}});
        json_patch(
            &mut d,
            &json!([
                {"op": "replace", "path": "/spec/replicas", "value": 3},
                {"op": "add", "path": "/spec/list/-", "value": 3},
                {"op": "remove", "path": "/spec/list/0"},
                {"op": "test", "path": "/spec/replicas", "value": 3}
            ]),
        )
        .unwrap();
        assert_eq!(d, json!({"spec": {"replicas": 3, "list": [2, 3]}}));
        assert!(json_patch(&mut d, &json!([{"op": "remove", "path": "/nope"}])).is_err());
    }
}
