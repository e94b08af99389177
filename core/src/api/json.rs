//! JSON operations the simulation does on every request, done cheaply: JSON Pointer lookups,
//! writing strings (the trace writes every record, and almost no string in it needs escaping,
//! so those strings are copied whole instead of byte by byte), writing whole values the same
//! way (etcd stores every object written as its JSON text), and fingerprints of values.

use crate::api::value::Value;

/// JSON Pointer lookups (RFC 6901) as `Value::pointer` does them, without its cost: serde_json
/// allocates two strings per path segment to undo `~` escapes, and the simulation looks up
/// paths such as `/metadata/name` on every request.
pub trait JsonPointer {
    /// `Value::pointer`.
    fn lookup(&self, pointer: &str) -> Option<&Value>;
    /// `Value::pointer_mut`.
    fn lookup_mut(&mut self, pointer: &str) -> Option<&mut Value>;
}

/// An array index as serde_json reads one: decimal, no sign, no leading zero.
fn array_index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
        return None;
    }
    token.parse().ok()
}

impl JsonPointer for Value {
    fn lookup(&self, pointer: &str) -> Option<&Value> {
        segments(pointer)?.try_fold(self, |target, token| match target {
            Value::Object(map) => map.get(&token),
            Value::Array(list) => array_index(&token).and_then(|i| list.get(i)),
            _ => None,
        })
    }

    fn lookup_mut(&mut self, pointer: &str) -> Option<&mut Value> {
        segments(pointer)?.try_fold(self, |target, token| match target {
            Value::Object(map) => map.get_mut(&token),
            Value::Array(list) => array_index(&token).and_then(move |i| list.get_mut(i)),
            _ => None,
        })
    }
}

/// A pointer's segments, unescaped: none for the empty pointer (the whole value), `None` for
/// a pointer that does not start with `/`.
fn segments(pointer: &str) -> Option<impl Iterator<Item = std::borrow::Cow<'_, str>>> {
    let rest = match pointer {
        "" => None,
        _ => Some(pointer.strip_prefix('/')?),
    };
    Some(rest.into_iter().flat_map(|r| r.split('/')).map(unescape))
}

/// A pointer segment with its `~1` (`/`) and `~0` (`~`) escapes undone, borrowed when it has
/// none (almost always).
fn unescape(token: &str) -> std::borrow::Cow<'_, str> {
    if token.contains('~') {
        token.replace("~1", "/").replace("~0", "~").into()
    } else {
        token.into()
    }
}

/// Whether `s` holds a byte JSON escapes: a control character, `"` or `\\`. Eight bytes are
/// tested at a time, without branches (a word's zero-byte test), as this runs over every
/// string written; the last few bytes are padded to a word.
fn needs_escape(s: &str) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte of x that is zero (exact as to whether any is).
    let zero_bytes = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    // A byte below 0x20 is one whose top three bits are clear.
    let flags = |x: u64| {
        zero_bytes(x & 0xe0e0_e0e0_e0e0_e0e0)
            | zero_bytes(x ^ (ONES * u64::from(b'"')))
            | zero_bytes(x ^ (ONES * u64::from(b'\\')))
    };
    let mut words = s.as_bytes().chunks_exact(8);
    let mut found = 0;
    for w in &mut words {
        found |= flags(u64::from_le_bytes([
            w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7],
        ]));
    }
    let rest = words.remainder();
    let mut last = [b' '; 8];
    last[..rest.len()].copy_from_slice(rest);
    found |= flags(u64::from_le_bytes(last));
    found != 0
}

/// Appends `s` as a JSON string: copied whole when nothing in it needs escaping (almost
/// always), escaped by serde_json otherwise.
pub fn write_str(out: &mut Vec<u8>, s: &str) {
    if needs_escape(s) {
        let _ = serde_json::to_writer(&mut *out, s);
    } else {
        out.reserve(s.len() + 2);
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    }
}

/// Appends `v` as compact JSON, byte for byte what `serde_json::to_writer` writes: strings and
/// keys go through [`write_str`], numbers through serde_json itself.
pub fn write_value(out: &mut Vec<u8>, v: &Value) {
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(n) => {
            let _ = serde_json::to_writer(&mut *out, n);
        }
        Value::String(s) => write_str(out, s),
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_value(out, item);
            }
            out.push(b']');
        }
        Value::Object(map) => {
            out.push(b'{');
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_str(out, k);
                out.push(b':');
                write_value(out, item);
            }
            out.push(b'}');
        }
    }
}

/// A 64-bit fingerprint of a value: FNV-1a over its JSON text (written into a buffer kept for
/// it). Equal values have equal fingerprints; different ones differ but with a chance of
/// 2^-64. For a caller that only asks "is this what I sent last time?" of a big value it keeps
/// for each object: the text or a decoded copy would cost kilobytes per object.
pub fn fingerprint(v: &Value) -> u64 {
    thread_local! {
        static TEXT: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    TEXT.with(|text| {
        let mut text = text.borrow_mut();
        text.clear();
        write_value(&mut text, v);
        crate::kernel::hash::fnv1a(&text)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn equal_values_have_equal_fingerprints_and_changed_ones_differ() {
        let a = json!({"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}], "n": 1});
        assert_eq!(fingerprint(&a), fingerprint(&a.clone()));
        for changed in [
            json!({"phase": "Pending", "conditions": [{"type": "Ready", "status": "True"}], "n": 1}),
            json!({"phase": "Running", "conditions": [{"type": "Ready", "status": "False"}], "n": 1}),
            json!({"phase": "Running", "conditions": [], "n": 1}),
            json!({"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}], "n": 2}),
            json!({"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}], "n": 1.0}),
            json!({"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}),
        ] {
            assert_ne!(fingerprint(&a), fingerprint(&changed), "{changed}");
        }
        // Where one string ends is part of the content.
        assert_ne!(
            fingerprint(&json!(["ab", "c"])),
            fingerprint(&json!(["a", "bc"]))
        );
        assert_ne!(
            fingerprint(&json!({"ab": "c"})),
            fingerprint(&json!({"a": "bc"}))
        );
        assert_ne!(fingerprint(&json!(null)), fingerprint(&json!(false)));
    }

    #[test]
    fn values_are_written_as_serde_json_writes_them() {
        for v in [
            json!(null),
            json!(true),
            json!([]),
            json!({}),
            json!({"metadata": {"name": "web", "labels": {"a/b": "c\"d", "": ""}}, "n": [1, -2, 3.5, 1e300, 18446744073709551615u64, -9223372036854775808i64], "f": [false, null, {"x": []}]}),
            json!({"unicode ✓": "tab\tnewline\ncontrol\u{1}", "nested": [[[{"deep": [0.1, 2.0e-7]}]]]}),
        ] {
            let mut out = Vec::new();
            write_value(&mut out, &v);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(&v).unwrap()
            );
        }
    }

    #[test]
    fn strings_are_written_as_serde_json_writes_them() {
        for s in [
            "",
            "plain text",
            "quote \" and backslash \\",
            "tab\tnewline\ncontrol\u{1}",
            "unicode: ✓ ü \u{7f}",
        ] {
            let mut out = Vec::new();
            write_str(&mut out, s);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(s).unwrap()
            );
        }
    }

    #[test]
    fn every_byte_is_escaped_as_serde_json_escapes_it_at_every_position() {
        for len in 0..20 {
            for at in 0..len {
                for c in (0u8..0x80).map(char::from).chain(['é', '✓']) {
                    let mut s: String = "ab".repeat(len).chars().take(len).collect();
                    s.replace_range(at..at + 1, &c.to_string());
                    s.push('"');
                    let mut out = Vec::new();
                    write_str(&mut out, &s);
                    assert_eq!(
                        String::from_utf8(out).unwrap(),
                        serde_json::to_string(&s).unwrap()
                    );
                }
            }
        }
    }

    #[test]
    fn pointers_find_what_serde_json_finds() {
        let mut v = json!({
            "metadata": {"name": "web", "labels": {"app.kubernetes.io/name": "web", "a~b": "x"}},
            "spec": {"containers": [{"name": "c0"}, {"name": "c1"}]},
            "": {"": 1},
        });
        for p in [
            "",
            "/",
            "//",
            "/metadata/name",
            "/metadata/labels/app.kubernetes.io~1name",
            "/metadata/labels/a~0b",
            "/spec/containers/1/name",
            "/spec/containers/01/name",
            "/spec/containers/+1/name",
            "/spec/containers/2",
            "/spec/containers/x",
            "/metadata/name/deeper",
            "metadata",
            "/missing",
        ] {
            assert_eq!(v.lookup(p), v.pointer(p), "{p:?}");
            let expected = v.clone().pointer_mut(p).map(|x| x.clone());
            assert_eq!(v.lookup_mut(p).map(|x| x.clone()), expected, "{p:?}");
        }
        *v.lookup_mut("/spec/containers/0/name").unwrap() = json!("renamed");
        assert_eq!(v["spec"]["containers"][0]["name"], "renamed");
    }
}
