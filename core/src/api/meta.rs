//! Reading and writing `metadata` fields of JSON objects without a typed round trip.

use super::Object;
use crate::api::value::{Map, Value};

pub fn str_at<'a>(obj: &'a Object, path: &[&str]) -> Option<&'a str> {
    let mut cur = obj;
    for p in path {
        cur = cur.get(p)?;
    }
    cur.as_str()
}

pub fn name(obj: &Object) -> &str {
    str_at(obj, &["metadata", "name"]).unwrap_or("")
}

pub fn namespace(obj: &Object) -> Option<&str> {
    str_at(obj, &["metadata", "namespace"])
}

pub fn kind(obj: &Object) -> &str {
    obj.get("kind").and_then(Value::as_str).unwrap_or("")
}

pub fn api_version(obj: &Object) -> &str {
    obj.get("apiVersion").and_then(Value::as_str).unwrap_or("")
}

pub fn uid(obj: &Object) -> &str {
    str_at(obj, &["metadata", "uid"]).unwrap_or("")
}

pub fn resource_version(obj: &Object) -> &str {
    str_at(obj, &["metadata", "resourceVersion"]).unwrap_or("")
}

/// The object's `metadata`, created empty when missing (or replaced when not an object).
pub fn metadata_mut(obj: &mut Object) -> &mut Map {
    if !obj.is_object() {
        *obj = Value::Object(Map::new());
    }
    let map = obj.as_object_mut().expect("object");
    let meta = map
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if !meta.is_object() {
        *meta = Value::Object(Map::new());
    }
    meta.as_object_mut().expect("metadata object")
}

pub fn set_meta(obj: &mut Object, field: &str, value: Value) {
    metadata_mut(obj).insert(field.to_string(), value);
}

pub fn labels(obj: &Object) -> Option<&Map> {
    obj.get("metadata")?.get("labels")?.as_object()
}

pub fn annotations(obj: &Object) -> Option<&Map> {
    obj.get("metadata")?.get("annotations")?.as_object()
}

/// Sets `metadata.annotations[key]`.
pub fn set_annotation(obj: &mut Object, key: &str, value: &str) {
    let meta = metadata_mut(obj);
    let ann = meta
        .entry("annotations")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(m) = ann.as_object_mut() {
        m.insert(key.to_string(), Value::String(value.to_string()));
    }
}

/// A mutable reference to the value at `path`, creating empty objects on the way.
pub fn ensure_path<'a>(obj: &'a mut Object, path: &[&str]) -> &'a mut Value {
    let mut cur = obj;
    for p in path {
        if !cur.is_object() {
            *cur = Value::Object(Map::new());
        }
        cur = cur
            .as_object_mut()
            .expect("object")
            .entry(p.to_string())
            .or_insert(Value::Null);
    }
    cur
}

/// The controller ownerReference, if any.
pub fn controller_ref(obj: &Object) -> Option<&Value> {
    obj.get("metadata")?
        .get("ownerReferences")?
        .as_array()?
        .iter()
        .find(|r| r.get("controller").and_then(Value::as_bool) == Some(true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn reads_and_writes_metadata() {
        let mut o = json!({"kind": "Pod", "metadata": {"name": "p", "namespace": "default"}});
        assert_eq!(name(&o), "p");
        assert_eq!(namespace(&o), Some("default"));
        set_annotation(&mut o, "a", "b");
        assert_eq!(annotations(&o).unwrap()["a"], "b");
        *ensure_path(&mut o, &["spec", "nodeName"]) = json!("node-1");
        assert_eq!(str_at(&o, &["spec", "nodeName"]), Some("node-1"));
    }
}
