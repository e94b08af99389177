//! Reading and writing values through serde, exactly as `serde_json::Value` does: the same
//! calls to the serializer (so the same JSON and YAML text), and the same visitor (keys read
//! as strings, the last of equal keys kept, floats that are not finite read as `null`).

use super::{Key, Map, Number, Value};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(n) => n.serialize(s),
            Value::String(t) => s.serialize_str(t),
            Value::Array(a) => {
                let mut seq = s.serialize_seq(Some(a.len()))?;
                for v in a {
                    seq.serialize_element(v)?;
                }
                seq.end()
            }
            Value::Object(m) => m.serialize(s),
        }
    }
}

impl Serialize for Map {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.len()))?;
        for (k, v) in self {
            map.serialize_entry(k.as_str(), v)?;
        }
        map.end()
    }
}

impl Serialize for Key {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_i128<E: de::Error>(self, n: i128) -> Result<Value, E> {
        // serde_json's own reading of a 128-bit integer (and its error past 64 bits).
        Number::deserialize(de::value::I128Deserializer::new(n)).map(Value::Number)
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_u128<E: de::Error>(self, n: u128) -> Result<Value, E> {
        Number::deserialize(de::value::U128Deserializer::new(n)).map(Value::Number)
    }

    fn visit_f64<E>(self, f: f64) -> Result<Value, E> {
        Ok(Number::from_f64(f).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_string()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Deserialize::deserialize(d)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut entries: Vec<(Key, Value)> = Vec::new();
        while let Some(key) = access.next_key_seed(KeySeed)? {
            let value: Value = access.next_value()?;
            entries.push((key, value));
        }
        Ok(Value::Object(entries.into_iter().collect::<Map>()))
    }
}

/// A map key, read as a string as serde_json's map keys are.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for KeySeed {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_str<E>(self, s: &str) -> Result<Key, E> {
        Ok(Key::from(s))
    }

    fn visit_string<E>(self, s: String) -> Result<Key, E> {
        Ok(Key::from(s))
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

impl<'de> Deserialize<'de> for Map {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Map, D::Error> {
        match Value::deserialize(d)? {
            Value::Object(m) => Ok(m),
            other => Err(de::Error::invalid_type(
                de::Unexpected::Other(&format!("{other}")),
                &"a JSON object",
            )),
        }
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        d.deserialize_str(KeySeed)
    }
}

/// Typed data read from a value (`serde_json::from_value`), through its `serde_json` form.
pub fn from_value<T: de::DeserializeOwned>(v: Value) -> Result<T, serde_json::Error> {
    serde_json::from_value(serde_json::Value::from(v))
}

/// Typed data as a value (`serde_json::to_value`).
pub fn to_value<T: Serialize>(t: T) -> Result<Value, serde_json::Error> {
    serde_json::to_value(t).map(Value::from)
}
