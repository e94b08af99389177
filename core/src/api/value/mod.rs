//! The JSON value every object of the simulation is: `serde_json::Value`'s shape and
//! interface, with objects held in shared maps ([`Map`]), so copying an object copies no map
//! and a write copies only the maps on its path. Numbers are `serde_json`'s, and the text a
//! value is written as is `serde_json`'s too (see [`serde`]).

pub mod convert;
mod from;
mod index;
mod map;
mod partial_eq;
mod serde;

pub use self::serde::{from_value, to_value};
pub use index::Index;
pub use map::{Entry, IntoIter, Iter, IterMut, Key, Map, OccupiedEntry, VacantEntry};
pub use serde_json::Number;

use std::fmt;

#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Value>),
    Object(Map),
}

/// `Value::Null` for lookups that find nothing. (A `Value` is not `Sync`, as its maps are
/// shared by reference counts within one thread; `Null` holds none, so sharing it is safe.)
struct SharedNull(Value);
// SAFETY: the static only ever holds `Value::Null`, which owns no reference count and is
// never written through this reference.
unsafe impl Sync for SharedNull {}
static NULL: SharedNull = SharedNull(Value::Null);

/// A reference to `Value::Null` that lives as long as anything.
pub fn null() -> &'static Value {
    &NULL.0
}

impl Value {
    pub fn get<I: Index>(&self, index: I) -> Option<&Value> {
        index.index_into(self)
    }

    pub fn get_mut<I: Index>(&mut self, index: I) -> Option<&mut Value> {
        index.index_into_mut(self)
    }

    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }

    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    pub fn is_i64(&self) -> bool {
        matches!(self, Value::Number(n) if n.is_i64())
    }

    pub fn is_u64(&self) -> bool {
        matches!(self, Value::Number(n) if n.is_u64())
    }

    pub fn is_f64(&self) -> bool {
        matches!(self, Value::Number(n) if n.is_f64())
    }

    pub fn as_i64(&self) -> Option<i64> {
        self.as_number()?.as_i64()
    }

    pub fn as_u64(&self) -> Option<u64> {
        self.as_number()?.as_u64()
    }

    pub fn as_f64(&self) -> Option<f64> {
        self.as_number()?.as_f64()
    }

    pub fn is_boolean(&self) -> bool {
        matches!(self, Value::Bool(_))
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    pub fn as_null(&self) -> Option<()> {
        self.is_null().then_some(())
    }

    /// The value, leaving `Null` in its place.
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }

    /// `serde_json::Value::pointer` (RFC 6901).
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        crate::api::json::JsonPointer::lookup(self, pointer)
    }

    /// `serde_json::Value::pointer_mut` (RFC 6901).
    pub fn pointer_mut(&mut self, pointer: &str) -> Option<&mut Value> {
        crate::api::json::JsonPointer::lookup_mut(self, pointer)
    }

    /// Whether `other` is this value without looking inside shared maps: equal scalars and
    /// texts, and maps that are the same shared map. `false` says nothing (the two may still
    /// be equal); a write that would leave a map as it is uses it to skip the copy.
    pub fn same_as(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Number(a), Value::Number(b)) => a == b,
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Object(a), Value::Object(b)) => a.ptr_eq(b),
            (Value::Array(a), Value::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_as(y))
            }
            _ => false,
        }
    }
}

/// Compact JSON, as `serde_json::Value` prints (`{:#}`: indented with two spaces).
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = if f.alternate() {
            serde_json::to_string_pretty(self)
        } else {
            serde_json::to_string(self)
        };
        f.write_str(&text.map_err(|_| fmt::Error)?)
    }
}

/// As `serde_json::Value` shows itself: `Null`, `Bool(true)`, `String("x")`, `Object {..}`.
impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("Null"),
            Value::Bool(b) => write!(f, "Bool({b})"),
            Value::Number(n) => write!(f, "Number({n})"),
            Value::String(s) => write!(f, "String({s:?})"),
            Value::Array(a) => {
                f.write_str("Array ")?;
                fmt::Debug::fmt(a, f)
            }
            Value::Object(m) => {
                f.write_str("Object ")?;
                fmt::Debug::fmt(m, f)
            }
        }
    }
}

impl std::str::FromStr for Value {
    type Err = serde_json::Error;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        serde_json::from_str(s)
    }
}

/// `serde_json::json!`, building a [`Value`] directly: `null`, `true`, `false`, `[...]`,
/// `{"key": ...}` (a key is any expression that makes a [`Key`]), and any other expression,
/// which is converted without being moved: by `Into<Value>` from a copy where it has that
/// (cheap for values, texts and numbers), else through its `Serialize`.
#[macro_export]
macro_rules! json {
    (null) => {
        $crate::api::value::Value::Null
    };
    (true) => {
        $crate::api::value::Value::Bool(true)
    };
    (false) => {
        $crate::api::value::Value::Bool(false)
    };
    ([]) => {
        $crate::api::value::Value::Array(::std::vec::Vec::new())
    };
    ([ $($tt:tt)+ ]) => {
        $crate::api::value::Value::Array({
            let mut items = $crate::api::value::convert::items();
            $crate::json_items!(items () ($($tt)+));
            items
        })
    };
    ({}) => {
        $crate::api::value::Value::Object($crate::api::value::Map::new())
    };
    ({ $($tt:tt)+ }) => {
        $crate::api::value::Value::Object({
            let mut entries = $crate::api::value::convert::entries();
            $crate::json_entries!(entries () ($($tt)+));
            entries.into_iter().collect::<$crate::api::value::Map>()
        })
    };
    ($other:expr) => {{
        #[allow(unused_imports)]
        use $crate::api::value::convert::{ViaInto as _, ViaSerialize as _};
        (&$crate::api::value::convert::Wrap(&$other)).to_json()
    }};
}

/// `json!`'s array items: the tokens up to each top-level comma are one item.
#[doc(hidden)]
#[macro_export]
macro_rules! json_items {
    ($items:ident () ()) => {};
    ($items:ident ($($item:tt)+) ()) => {
        $items.push($crate::json!($($item)+));
    };
    ($items:ident ($($item:tt)+) (, $($rest:tt)*)) => {
        $items.push($crate::json!($($item)+));
        $crate::json_items!($items () ($($rest)*));
    };
    ($items:ident ($($item:tt)*) ($next:tt $($rest:tt)*)) => {
        $crate::json_items!($items ($($item)* $next) ($($rest)*));
    };
}

/// `json!`'s object entries: the tokens up to a top-level colon are the key, those up to the
/// next top-level comma its value.
#[doc(hidden)]
#[macro_export]
macro_rules! json_entries {
    ($entries:ident () ()) => {};
    ($entries:ident ($($key:tt)+) (: $($rest:tt)*)) => {
        $crate::json_value!($entries ($($key)+) () ($($rest)*));
    };
    ($entries:ident ($($key:tt)*) ($next:tt $($rest:tt)*)) => {
        $crate::json_entries!($entries ($($key)* $next) ($($rest)*));
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! json_value {
    ($entries:ident ($($key:tt)+) ($($value:tt)+) ()) => {
        $entries.push(($crate::api::value::Key::from($($key)+), $crate::json!($($value)+)));
    };
    ($entries:ident ($($key:tt)+) ($($value:tt)+) (, $($rest:tt)*)) => {
        $entries.push(($crate::api::value::Key::from($($key)+), $crate::json!($($value)+)));
        $crate::json_entries!($entries () ($($rest)*));
    };
    ($entries:ident ($($key:tt)+) ($($value:tt)*) ($next:tt $($rest:tt)*)) => {
        $crate::json_value!($entries ($($key)+) ($($value)* $next) ($($rest)*));
    };
}

pub use crate::json;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_like_serde_json() {
        let v = json!({"a": {"b": [1, "two", null, true]}, "n": -3, "f": 1.5});
        assert_eq!(v["a"]["b"][1], "two");
        assert_eq!(v["a"]["b"][0], 1);
        assert!(v["a"]["b"][2].is_null());
        assert_eq!(v["a"]["b"][3], true);
        assert!(v["missing"]["deeper"][7].is_null());
        assert_eq!(v["n"].as_i64(), Some(-3));
        assert_eq!(v["f"].as_f64(), Some(1.5));
        assert_eq!(v.pointer("/a/b/1").and_then(Value::as_str), Some("two"));
        assert_eq!(
            v.to_string(),
            r#"{"a":{"b":[1,"two",null,true]},"f":1.5,"n":-3}"#
        );
        assert_eq!(
            format!("{:?}", json!({"k": [null, "s"]})),
            r#"Object {"k": Array [Null, String("s")]}"#
        );
    }

    #[test]
    fn index_mut_makes_objects_of_null_and_copies_only_what_it_writes() {
        let original = json!({"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c"}]}});
        let mut copy = original.clone();
        copy["status"]["phase"] = json!("Running");
        assert_eq!(copy["status"]["phase"], "Running");
        assert!(original["status"].is_null());
        // The untouched maps are still the original's.
        let (Value::Object(a), Value::Object(b)) = (&original["spec"], &copy["spec"]) else {
            panic!("objects")
        };
        assert!(a.ptr_eq(b));
        let mut v = Value::Null;
        v["x"] = json!(1);
        assert_eq!(v, json!({"x": 1}));
    }

    #[test]
    fn prints_and_parses_as_serde_json_does() {
        let text = r#"{"b":[1,2.5,"x\"y",{"z":null}],"a":false,"c":18446744073709551615,"d":-1}"#;
        let ours: Value = text.parse().unwrap();
        let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(ours.to_string(), theirs.to_string());
        assert_eq!(format!("{ours:#}"), format!("{theirs:#}"));
        assert_eq!(serde_json::Value::from(ours.clone()), theirs);
        assert_eq!(Value::from(theirs), ours);
    }
}
