//! Comparing a value with a plain one, as `serde_json::Value` does: `v == "x"`, `v == 3`,
//! `v == true`, either way round.

use super::Value;

impl PartialEq<str> for Value {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<&str> for Value {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl PartialEq<Value> for str {
    fn eq(&self, other: &Value) -> bool {
        other.as_str() == Some(self)
    }
}

impl PartialEq<Value> for &str {
    fn eq(&self, other: &Value) -> bool {
        other.as_str() == Some(*self)
    }
}

impl PartialEq<String> for Value {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == Some(other.as_str())
    }
}

impl PartialEq<Value> for String {
    fn eq(&self, other: &Value) -> bool {
        other.as_str() == Some(self.as_str())
    }
}

macro_rules! eq_plain {
    ($($ty:ty => $as:ident as $wide:ty),* $(,)?) => {$(
        impl PartialEq<$ty> for Value {
            fn eq(&self, other: &$ty) -> bool {
                self.$as().is_some_and(|v| v == *other as $wide)
            }
        }
        impl PartialEq<Value> for $ty {
            fn eq(&self, other: &Value) -> bool {
                other == self
            }
        }
        impl PartialEq<$ty> for &Value {
            fn eq(&self, other: &$ty) -> bool {
                *self == other
            }
        }
        impl PartialEq<$ty> for &mut Value {
            fn eq(&self, other: &$ty) -> bool {
                **self == *other
            }
        }
    )*};
}

eq_plain! {
    i8 => as_i64 as i64, i16 => as_i64 as i64, i32 => as_i64 as i64, i64 => as_i64 as i64,
    isize => as_i64 as i64,
    u8 => as_u64 as u64, u16 => as_u64 as u64, u32 => as_u64 as u64, u64 => as_u64 as u64,
    usize => as_u64 as u64,
    f32 => as_f64 as f64, f64 => as_f64 as f64,
    bool => as_bool as bool,
}
