//! How `json!` turns an expression into a value without moving it: a copy converted by
//! `Into<Value>` where the type has that (a value is a reference count to copy, a text one
//! allocation), and `Serialize` for everything else. The choice is made by method lookup
//! (`ViaInto` is found on `&Wrap` itself, `ViaSerialize` only one reference further), so a
//! type with both takes the cheap way.

use super::Value;
use serde::Serialize;

/// The list `json!` pushes an array's items onto (a function, so lints do not ask the
/// macro's expansion to be a `vec![]` it cannot write).
#[doc(hidden)]
pub fn items() -> Vec<Value> {
    Vec::new()
}

/// The list `json!` pushes an object's entries onto, sorted into a map at the end.
#[doc(hidden)]
pub fn entries() -> Vec<(super::Key, Value)> {
    Vec::new()
}

#[doc(hidden)]
pub struct Wrap<'a, T: ?Sized>(pub &'a T);

#[doc(hidden)]
pub trait ViaInto {
    fn to_json(&self) -> Value;
}

impl<T: Clone + Into<Value>> ViaInto for Wrap<'_, T> {
    fn to_json(&self) -> Value {
        self.0.clone().into()
    }
}

#[doc(hidden)]
pub trait ViaSerialize {
    fn to_json(&self) -> Value;
}

impl<T: Serialize + ?Sized> ViaSerialize for &Wrap<'_, T> {
    fn to_json(&self) -> Value {
        super::to_value(self.0).unwrap_or(Value::Null)
    }
}

#[cfg(test)]
mod tests {
    use crate::api::value::Value;
    use crate::json;

    #[test]
    fn json_builds_what_serde_json_builds() {
        let name = String::from("web");
        let replicas = 3i32;
        let labels = json!({"app": name});
        let missing: Option<&str> = None;
        let built = json!({
            "kind": "Deployment",
            "metadata": {"name": name, "labels": labels, "annotations": {}},
            "spec": {"replicas": replicas + 1, "paused": false, "list": [1, "two", null, [], {}],
                     "ratio": 0.5, "none": missing, (format!("k{}", 1)): true,},
            "z": [labels["app"].clone(), name.len()],
        });
        let reference = serde_json::json!({
            "kind": "Deployment",
            "metadata": {"name": name, "labels": {"app": "web"}, "annotations": {}},
            "spec": {"replicas": 4, "paused": false, "list": [1, "two", null, [], {}],
                     "ratio": 0.5, "none": null, "k1": true},
            "z": ["web", 3],
        });
        assert_eq!(built, Value::from(reference));
        // Nothing was moved: the inputs are still there.
        assert_eq!(name, "web");
        assert_eq!(labels["app"], "web");
    }

    #[test]
    fn a_later_equal_key_wins_as_in_serde_json() {
        assert_eq!(
            json!({"a": 1, "b": 2, "a": 3}),
            Value::from(serde_json::json!({"a": 3, "b": 2}))
        );
    }

    #[test]
    fn types_without_into_go_through_serialize() {
        #[derive(serde::Serialize)]
        struct Point {
            x: i32,
        }
        assert_eq!(json!(Point { x: 2 }), json!({"x": 2}));
        assert_eq!(json!(vec!["a", "b"]), json!(["a", "b"]));
    }
}
