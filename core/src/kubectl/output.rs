//! `kubectl get -o yaml|json|name`.
//!
//! kubectl prints YAML with `sigs.k8s.io/yaml`: the object goes to JSON, is read back by go-yaml v2
//! (numbers keep their int or float type) and written by go-yaml v2's encoder, a port of libyaml's
//! emitter. [`to_yaml`] reproduces that encoder: go-yaml's key order (`sorter.go`: letters after
//! other characters, digit runs compared as numbers), its choice of quoting (`encode.go`
//! `stringv` + `resolve.go`: a string that would read back as a bool, number, null or timestamp is
//! double-quoted; one with a line break is a literal block), and the emitter's scalar analysis,
//! indentation (block sequences not indented under a mapping key) and line folding at 80 columns.
//!
//! JSON is `json.MarshalIndent(obj, "", "    ")` plus a newline, with Go's escaping of `<`, `>`, `&`.

use crate::api::value::{Map, Value};
use crate::api::{Object, ResourceInfo};

// ---------------------------------------------------------------------------------------------
// -o name, lists
// ---------------------------------------------------------------------------------------------

/// `-o name`: `deployment.apps/web`, `pod/web-x`, `service/kubernetes` (no trailing newline).
pub fn name_of(resource: &ResourceInfo, obj: &Object) -> String {
    let kind = resource.kind.to_ascii_lowercase();
    let name = crate::api::meta::name(obj);
    if resource.group.is_empty() {
        format!("{kind}/{name}")
    } else {
        format!("{kind}.{}/{name}", resource.group)
    }
}

/// What kubectl prints for several objects: a `v1` `List`.
pub fn as_list(items: Vec<Object>) -> Object {
    let mut m = Map::new();
    m.insert("apiVersion", Value::String("v1".into()));
    m.insert("items", Value::Array(items));
    m.insert("kind", Value::String("List".into()));
    let mut meta = Map::new();
    meta.insert("resourceVersion", Value::String(String::new()));
    m.insert("metadata", Value::Object(meta));
    Value::Object(m)
}

// ---------------------------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------------------------

/// `-o json`: four-space indentation, keys sorted, Go's string escaping, a trailing newline.
pub fn to_json(obj: &Object) -> String {
    let mut out = String::new();
    write_json(&mut out, obj, 0);
    out.push('\n');
    out
}

fn write_json(out: &mut String, v: &Value, depth: usize) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&json_number(n)),
        Value::String(s) => write_json_string(out, s),
        Value::Array(a) => {
            if a.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline_indent(out, depth + 1);
                write_json(out, item, depth + 1);
            }
            newline_indent(out, depth);
            out.push(']');
        }
        Value::Object(m) => {
            if m.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            let mut keys: Vec<&str> = m.keys().map(|k| k.as_str()).collect();
            crate::api::sorting::sort(&mut keys);
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline_indent(out, depth + 1);
                write_json_string(out, k);
                out.push_str(": ");
                write_json(out, &m[*k], depth + 1);
            }
            newline_indent(out, depth);
            out.push('}');
        }
    }
}

fn newline_indent(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("    ");
    }
}

/// `encoding/json`'s string encoder with HTML escaping (the default).
fn write_json_string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || c == '<' || c == '>' || c == '&' => {
                let b = c as u32;
                out.push_str("\\u00");
                out.push(HEX[(b >> 4) as usize] as char);
                out.push(HEX[(b & 0xf) as usize] as char);
            }
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Go's float64 JSON encoding: `'f'` format between 1e-6 and 1e21, else `'e'` with a short
/// exponent; integers as they are.
fn json_number(n: &serde_json::Number) -> String {
    if n.is_i64() || n.is_u64() {
        return n.to_string();
    }
    let f = n.as_f64().unwrap_or(0.0);
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let (digits, exp) = shortest_digits(f);
        let mut s = String::new();
        if f < 0.0 {
            s.push('-');
        }
        s.push_str(&digits[..1]);
        if digits.len() > 1 {
            s.push('.');
            s.push_str(&digits[1..]);
        }
        s.push('e');
        s.push(if exp < 0 { '-' } else { '+' });
        // Go writes at least two exponent digits, then trims "e-0X" to "e-X".
        let e = exp.unsigned_abs();
        if exp < 0 || e >= 10 {
            s.push_str(&e.to_string());
        } else {
            s.push_str(&format!("{e:02}"));
        }
        s
    } else {
        // Rust's Display is the shortest round-trip decimal without an exponent, like 'f', -1.
        format!("{f}")
    }
}

/// The shortest round-trip decimal digits of `f` and its exponent (`d.ddd × 10^exp`).
fn shortest_digits(f: f64) -> (String, i32) {
    let s = format!("{:e}", f.abs());
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    (digits, exp.parse().unwrap_or(0))
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 64)` (also what `%v` prints for a float64).
pub(crate) fn format_float_g(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let (digits, exp) = shortest_digits(f);
    let neg = if f < 0.0 { "-" } else { "" };
    // strconv: "%e is used if the exponent from the conversion is less than -4 or greater than
    // or equal to the precision. if precision was the shortest possible, use precision 6".
    if !(-4..6).contains(&exp) {
        let mut s = String::from(neg);
        s.push_str(&digits[..1]);
        if digits.len() > 1 {
            s.push('.');
            s.push_str(&digits[1..]);
        }
        s.push('e');
        s.push(if exp < 0 { '-' } else { '+' });
        s.push_str(&format!("{:02}", exp.unsigned_abs()));
        return s;
    }
    // Plain decimal.
    let mut s = String::from(neg);
    if exp < 0 {
        s.push_str("0.");
        for _ in 0..(-exp - 1) {
            s.push('0');
        }
        s.push_str(&digits);
    } else {
        let int_len = (exp + 1) as usize;
        if digits.len() <= int_len {
            s.push_str(&digits);
            for _ in digits.len()..int_len {
                s.push('0');
            }
        } else {
            s.push_str(&digits[..int_len]);
            s.push('.');
            s.push_str(&digits[int_len..]);
        }
    }
    s
}

/// Go's `%v` of a decoded JSON value (`map[k:v]`, `[a b]`, `<nil>`).
pub(crate) fn go_fmt_v(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => {
            if n.is_i64() || n.is_u64() {
                n.to_string()
            } else {
                format_float_g(n.as_f64().unwrap_or(0.0))
            }
        }
        Value::String(s) => s.clone(),
        Value::Array(a) => format!("[{}]", a.iter().map(go_fmt_v).collect::<Vec<_>>().join(" ")),
        Value::Object(m) => {
            let mut keys: Vec<&str> = m.keys().map(|k| k.as_str()).collect();
            crate::api::sorting::sort(&mut keys);
            format!(
                "map[{}]",
                keys.iter()
                    .map(|k| format!("{}:{}", k, go_fmt_v(&m[*k])))
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        }
    }
}

// ---------------------------------------------------------------------------------------------
// YAML
// ---------------------------------------------------------------------------------------------

/// `-o yaml`, as kubectl prints it (see the module documentation).
pub fn to_yaml(obj: &Object) -> String {
    let mut e = Emitter::new();
    e.emit_node(obj, true, false, false, false);
    // Document end (implicit): finish the last line.
    e.write_indent();
    e.out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
}

/// The result of `yaml_emitter_analyze_scalar`.
struct Analysis {
    multiline: bool,
    flow_plain_allowed: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

fn is_printable(c: char) -> bool {
    let u = c as u32;
    u == 0x0A
        || (0x20..=0x7E).contains(&u)
        || (0xA0..=0xD7FF).contains(&u)
        || ((0xE000..=0xFFFD).contains(&u) && u != 0xFEFF)
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

fn is_blankz(c: char) -> bool {
    is_blank(c) || is_break(c) || c == '\0'
}

fn analyze(value: &str) -> Analysis {
    if value.is_empty() {
        return Analysis {
            multiline: false,
            flow_plain_allowed: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let mut block_indicators = false;
    let mut flow_indicators = false;
    let mut line_breaks = false;
    let mut special_characters = false;
    let mut leading_space = false;
    let mut leading_break = false;
    let mut trailing_space = false;
    let mut trailing_break = false;
    let mut break_space = false;
    let mut space_break = false;
    let mut previous_space = false;
    let mut previous_break = false;

    if value.starts_with("---") || value.starts_with("...") {
        block_indicators = true;
        flow_indicators = true;
    }
    let chars: Vec<char> = value.chars().collect();
    let mut preceded_by_whitespace = true;
    for (i, &c) in chars.iter().enumerate() {
        let followed_by_whitespace = i + 1 >= chars.len() || is_blank(chars[i + 1]);
        if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => {
                    flow_indicators = true;
                    block_indicators = true;
                }
                '?' | ':' => {
                    flow_indicators = true;
                    if followed_by_whitespace {
                        block_indicators = true;
                    }
                }
                '-' if followed_by_whitespace => {
                    flow_indicators = true;
                    block_indicators = true;
                }
                _ => {}
            }
        } else {
            match c {
                ',' | '?' | '[' | ']' | '{' | '}' => flow_indicators = true,
                ':' => {
                    flow_indicators = true;
                    if followed_by_whitespace {
                        block_indicators = true;
                    }
                }
                '#' if preceded_by_whitespace => {
                    flow_indicators = true;
                    block_indicators = true;
                }
                _ => {}
            }
        }
        // The emitter is in unicode mode, so only unprintable characters are special.
        if !is_printable(c) {
            special_characters = true;
        }
        if c == ' ' {
            if i == 0 {
                leading_space = true;
            }
            if i + 1 == chars.len() {
                trailing_space = true;
            }
            if previous_break {
                break_space = true;
            }
            previous_space = true;
            previous_break = false;
        } else if is_break(c) {
            line_breaks = true;
            if i == 0 {
                leading_break = true;
            }
            if i + 1 == chars.len() {
                trailing_break = true;
            }
            if previous_space {
                space_break = true;
            }
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = is_blankz(c);
    }

    let mut a = Analysis {
        multiline: line_breaks,
        flow_plain_allowed: true,
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
    }
    if space_break || special_characters {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
        a.block_allowed = false;
    }
    if line_breaks {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
    }
    if flow_indicators {
        a.flow_plain_allowed = false;
    }
    if block_indicators {
        a.block_plain_allowed = false;
    }
    a
}

/// go-yaml v2 `resolve("", s)` returns a tag other than `!!str`, or `isBase60Float(s)`: the
/// string would not read back as a string if written plain.
pub(crate) fn resolves_to_non_string(s: &str) -> bool {
    if matches!(
        s,
        "y" | "Y"
            | "yes"
            | "Yes"
            | "YES"
            | "true"
            | "True"
            | "TRUE"
            | "on"
            | "On"
            | "ON"
            | "n"
            | "N"
            | "no"
            | "No"
            | "NO"
            | "false"
            | "False"
            | "FALSE"
            | "off"
            | "Off"
            | "OFF"
            | ""
            | "~"
            | "null"
            | "Null"
            | "NULL"
            | ".nan"
            | ".NaN"
            | ".NAN"
            | ".inf"
            | ".Inf"
            | ".INF"
            | "+.inf"
            | "+.Inf"
            | "+.INF"
            | "-.inf"
            | "-.Inf"
            | "-.INF"
            | "<<"
    ) {
        return true;
    }
    if is_base60_float(s) {
        return true;
    }
    let first = s.as_bytes()[0];
    match first {
        b'.' => go_parse_float(s),
        b'+' | b'-' | b'0'..=b'9' => {
            if is_yaml_timestamp(s) {
                return true;
            }
            let plain: String = s.chars().filter(|&c| c != '_').collect();
            if go_parse_int(&plain) || yaml_style_float(&plain) {
                return true;
            }
            if let Some(rest) = plain.strip_prefix("0b") {
                return !rest.is_empty() && rest.bytes().all(|b| b == b'0' || b == b'1');
            }
            if let Some(rest) = plain.strip_prefix("-0b") {
                return !rest.is_empty() && rest.bytes().all(|b| b == b'0' || b == b'1');
            }
            false
        }
        _ => false,
    }
}

/// `strconv.ParseInt(s, 0, 64)` or `ParseUint(s, 0, 64)` succeeds (range ignored: an
/// out-of-range number is still not a string... it fails in Go, but then reads as a float).
fn go_parse_int(s: &str) -> bool {
    let body = s
        .strip_prefix('+')
        .or_else(|| s.strip_prefix('-'))
        .unwrap_or(s);
    if body.is_empty() {
        return false;
    }
    let (digits, radix) =
        if let Some(r) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (r, 16)
        } else if let Some(r) = body.strip_prefix("0o").or_else(|| body.strip_prefix("0O")) {
            (r, 8)
        } else if let Some(r) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
            (r, 2)
        } else if body.len() > 1 && body.starts_with('0') {
            (&body[1..], 8)
        } else {
            (body, 10)
        };
    if digits.is_empty() {
        return false;
    }
    let Ok(v) = u128::from_str_radix(digits, radix) else {
        return false;
    };
    // Out-of-range values fail ParseInt and ParseUint in Go.
    if s.starts_with('-') {
        v <= (i64::MAX as u128) + 1
    } else {
        v <= u64::MAX as u128
    }
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
fn yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            digits(&mut i);
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// `strconv.ParseFloat(s, 64)` succeeds, for strings starting with '.' (the only case asked).
fn go_parse_float(s: &str) -> bool {
    // Go accepts decimal floats with optional exponent and underscores only between digits
    // when a base prefix is present; a leading '.' rules out prefixes, infinities and NaN.
    yaml_style_float(s)
}

/// `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`
fn is_base60_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    if i >= b.len() || !b[i].is_ascii_digit() {
        return false;
    }
    i += 1;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        i += 1;
    }
    let mut groups = 0;
    while i < b.len() && b[i] == b':' {
        i += 1;
        // [0-5]?[0-9]
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() && i - start < 2 {
            i += 1;
        }
        match i - start {
            1 => {}
            2 => {
                if b[start] > b'5' {
                    // "[0-5]?[0-9]" can still match one digit and leave the other: backtrack.
                    i = start + 1;
                }
            }
            _ => return false,
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
    }
    i == b.len()
}

/// go-yaml's `parseTimestamp`: `YYYY-M-D`, or that with `T`/`t`/space and `H:M:S[.frac]`
/// (then an optional `Z` or `±hh:mm` zone for the T forms), as `time.Parse` accepts them.
fn is_yaml_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let mut i = 5;
    // 1 or 2 digit month / day within range.
    let num = |i: &mut usize, max_digits: usize| -> Option<u32> {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() && *i - start < max_digits {
            *i += 1;
        }
        if *i == start {
            return None;
        }
        s[start..*i].parse().ok()
    };
    let Some(month) = num(&mut i, 2) else {
        return false;
    };
    if i >= b.len() || b[i] != b'-' {
        return false;
    }
    i += 1;
    let Some(day) = num(&mut i, 2) else {
        return false;
    };
    let year: u32 = s[..4].parse().unwrap_or(0);
    let leap = (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400);
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    if day < 1 || day > days_in_month {
        return false;
    }
    if i == b.len() {
        return true;
    }
    let sep = b[i];
    if sep != b'T' && sep != b't' && sep != b' ' {
        return false;
    }
    i += 1;
    let Some(h) = num(&mut i, 2) else {
        return false;
    };
    if i >= b.len() || b[i] != b':' {
        return false;
    }
    i += 1;
    let Some(m) = num(&mut i, 2) else {
        return false;
    };
    if i >= b.len() || b[i] != b':' {
        return false;
    }
    i += 1;
    let Some(sec) = num(&mut i, 2) else {
        return false;
    };
    if h > 23 || m > 59 || sec > 59 {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    if sep == b' ' {
        return i == b.len();
    }
    if i == b.len() {
        return false;
    }
    if b[i] == b'Z' {
        return i + 1 == b.len();
    }
    if b[i] == b'+' || b[i] == b'-' {
        let z = &s[i + 1..];
        let zb = z.as_bytes();
        return zb.len() == 5
            && zb[0].is_ascii_digit()
            && zb[1].is_ascii_digit()
            && zb[2] == b':'
            && zb[3].is_ascii_digit()
            && zb[4].is_ascii_digit();
    }
    false
}

/// go-yaml v2's map key order (`keyList.Less`) for string keys.
fn yaml_key_less(a: &str, b: &str) -> bool {
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    let mut i = 0;
    while i < ar.len() && i < br.len() {
        if ar[i] == br[i] {
            i += 1;
            continue;
        }
        let al = ar[i].is_alphabetic();
        let bl = br[i].is_alphabetic();
        if al && bl {
            return ar[i] < br[i];
        }
        if al || bl {
            return bl;
        }
        let mut an: i64 = 0;
        let mut bn: i64 = 0;
        if ar[i] == '0' || br[i] == '0' {
            let mut j = i as isize - 1;
            while j >= 0 && ar[j as usize].is_ascii_digit() {
                if ar[j as usize] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
                j -= 1;
            }
        }
        let mut ai = i;
        while ai < ar.len() && ar[ai].is_ascii_digit() {
            an = an.wrapping_mul(10).wrapping_add(ar[ai] as i64 - '0' as i64);
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && br[bi].is_ascii_digit() {
            bn = bn.wrapping_mul(10).wrapping_add(br[bi] as i64 - '0' as i64);
            bi += 1;
        }
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return ar[i] < br[i];
    }
    ar.len() < br.len()
}

pub(crate) fn yaml_sorted_keys(m: &Map) -> Vec<&str> {
    let mut keys: Vec<&str> = m.keys().map(|k| k.as_str()).collect();
    crate::api::sorting::sort_by(&mut keys, &|a, b| {
        if yaml_key_less(a, b) {
            std::cmp::Ordering::Less
        } else if yaml_key_less(b, a) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    keys
}

/// The subset of libyaml's emitter state that block output needs.
struct Emitter {
    out: String,
    column: usize,
    indent: i32,
    indents: Vec<i32>,
    whitespace: bool,
    indention: bool,
    flow_level: u32,
    mapping_context: bool,
    simple_key_context: bool,
}

const BEST_INDENT: i32 = 2;
const BEST_WIDTH: usize = 80;

impl Emitter {
    fn new() -> Self {
        Emitter {
            out: String::new(),
            column: 0,
            indent: -1,
            indents: Vec::new(),
            whitespace: true,
            indention: true,
            flow_level: 0,
            mapping_context: false,
            simple_key_context: false,
        }
    }

    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    /// `write_break`: a line feed is written as the configured break; other break characters
    /// (CR, NEL, LS, PS) are copied as they are, and start a new line all the same.
    fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.out.push(c);
            self.column = 0;
        }
    }

    fn write_str(&mut self, s: &str) {
        for c in s.chars() {
            self.put(c);
        }
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(
        &mut self,
        indicator: &str,
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        self.write_str(indicator);
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    fn emit_node(&mut self, v: &Value, _root: bool, _seq: bool, mapping: bool, simple_key: bool) {
        self.mapping_context = mapping;
        self.simple_key_context = simple_key;
        match v {
            Value::Object(m) if m.is_empty() || self.flow_level > 0 => {
                self.write_indicator("{", true, true, false);
                self.increase_indent(true, false);
                self.flow_level += 1;
                self.flow_level -= 1;
                self.pop_indent();
                self.write_indicator("}", false, false, false);
            }
            Value::Array(a) if a.is_empty() || self.flow_level > 0 => {
                self.write_indicator("[", true, true, false);
                self.increase_indent(true, false);
                self.flow_level += 1;
                self.flow_level -= 1;
                self.pop_indent();
                self.write_indicator("]", false, false, false);
            }
            Value::Object(m) => {
                self.increase_indent(false, false);
                for k in yaml_sorted_keys(m) {
                    self.write_indent();
                    let key = Value::String(k.to_string());
                    let ka = analyze(k);
                    if !ka.multiline && k.len() <= 128 {
                        self.emit_node(&key, false, false, true, true);
                        self.write_indicator(":", false, false, false);
                    } else {
                        self.write_indicator("?", true, false, true);
                        self.emit_node(&key, false, false, true, false);
                        self.write_indent();
                        self.write_indicator(":", true, false, true);
                    }
                    self.emit_node(&m[k], false, false, true, false);
                }
                self.pop_indent();
            }
            Value::Array(a) => {
                let indentless = self.mapping_context && !self.indention;
                self.increase_indent(false, indentless);
                for item in a {
                    self.write_indent();
                    self.write_indicator("-", true, false, true);
                    self.emit_node(item, false, true, false, false);
                }
                self.pop_indent();
            }
            Value::Null => self.emit_scalar("null", Style::Plain),
            Value::Bool(b) => self.emit_scalar(if *b { "true" } else { "false" }, Style::Plain),
            Value::Number(n) => {
                let s = if n.is_i64() || n.is_u64() {
                    n.to_string()
                } else {
                    let f = n.as_f64().unwrap_or(0.0);
                    // A JSON number such as 1.0 reads back as a float and is written by
                    // FormatFloat('g'); JSON has no infinities or NaN.
                    format_float_g(f)
                };
                self.emit_scalar(&s, Style::Plain)
            }
            Value::String(s) => {
                let style = if s.contains('\n') {
                    Style::Literal
                } else if resolves_to_non_string(s) {
                    Style::DoubleQuoted
                } else {
                    Style::Plain
                };
                self.emit_scalar(s, style)
            }
        }
    }

    fn emit_scalar(&mut self, value: &str, requested: Style) {
        let a = analyze(value);
        // yaml_emitter_select_scalar_style
        let mut style = requested;
        if self.simple_key_context && a.multiline {
            style = Style::DoubleQuoted;
        }
        if style == Style::Plain {
            if (self.flow_level > 0 && !a.flow_plain_allowed)
                || (self.flow_level == 0 && !a.block_plain_allowed)
            {
                style = Style::SingleQuoted;
            }
            if value.is_empty() && (self.flow_level > 0 || self.simple_key_context) {
                style = Style::SingleQuoted;
            }
        }
        if style == Style::SingleQuoted && !a.single_quoted_allowed {
            style = Style::DoubleQuoted;
        }
        if style == Style::Literal
            && (!a.block_allowed || self.flow_level > 0 || self.simple_key_context)
        {
            style = Style::DoubleQuoted;
        }
        self.increase_indent(true, false);
        let allow_breaks = !self.simple_key_context;
        match style {
            Style::Plain => self.write_plain(value, allow_breaks),
            Style::SingleQuoted => self.write_single_quoted(value, allow_breaks),
            Style::DoubleQuoted => self.write_double_quoted(value, allow_breaks),
            Style::Literal => self.write_literal(value),
        }
        self.pop_indent();
    }

    fn write_plain(&mut self, value: &str, allow_breaks: bool) {
        if !self.whitespace {
            self.put(' ');
        }
        let chars: Vec<char> = value.chars().collect();
        let mut spaces = false;
        let mut breaks = false;
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c == ' ' {
                let next_space = chars.get(i + 1) == Some(&' ');
                if allow_breaks && !spaces && self.column > BEST_WIDTH && !next_space {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
            i += 1;
        }
        self.whitespace = false;
        self.indention = false;
    }

    fn write_single_quoted(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("'", true, false, false);
        let chars: Vec<char> = value.chars().collect();
        let mut spaces = false;
        let mut breaks = false;
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                let next_space = chars.get(i + 1) == Some(&' ');
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i + 1 < chars.len()
                    && !next_space
                {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_double_quoted(&mut self, value: &str, allow_breaks: bool) {
        const HEX: &[u8; 16] = b"0123456789ABCDEF";
        self.write_indicator("\"", true, false, false);
        let starts_with_bom = value.starts_with('\u{FEFF}');
        let chars: Vec<char> = value.chars().collect();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if !is_printable(c) || starts_with_bom || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                let v = c as u32;
                match v {
                    0x00 => self.put('0'),
                    0x07 => self.put('a'),
                    0x08 => self.put('b'),
                    0x09 => self.put('t'),
                    0x0A => self.put('n'),
                    0x0B => self.put('v'),
                    0x0C => self.put('f'),
                    0x0D => self.put('r'),
                    0x1B => self.put('e'),
                    0x22 => self.put('"'),
                    0x5C => self.put('\\'),
                    0x85 => self.put('N'),
                    0xA0 => self.put('_'),
                    0x2028 => self.put('L'),
                    0x2029 => self.put('P'),
                    _ => {
                        let (ind, w) = if v <= 0xFF {
                            ('x', 2)
                        } else if v <= 0xFFFF {
                            ('u', 4)
                        } else {
                            ('U', 8)
                        };
                        self.put(ind);
                        for k in (0..w).rev() {
                            self.put(HEX[((v >> (k * 4)) & 0xF) as usize] as char);
                        }
                    }
                }
                spaces = false;
            } else if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i + 1 < chars.len()
                {
                    self.write_indent();
                    if chars.get(i + 1) == Some(&' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_literal(&mut self, value: &str) {
        self.write_indicator("|", true, false, false);
        // Block scalar hints.
        let chars: Vec<char> = value.chars().collect();
        if let Some(&first) = chars.first() {
            if first == ' ' || is_break(first) {
                self.write_indicator(&BEST_INDENT.to_string(), false, false, false);
            }
        }
        let chomp = match chars.len() {
            0 => Some("-"),
            n if !is_break(chars[n - 1]) => Some("-"),
            1 => Some("+"),
            n if is_break(chars[n - 2]) => Some("+"),
            _ => None,
        };
        if let Some(ch) = chomp {
            self.write_indicator(ch, false, false, false);
        }
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for &c in &chars {
            if is_break(c) {
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::resources::lookup;
    use crate::json;

    #[test]
    fn yaml_looks_like_kubectl() {
        let obj = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "default", "resourceVersion": "412", "generation": 1,
                "creationTimestamp": "2026-01-01T00:00:00Z", "labels": {"app": "web"},
                "annotations": {"deployment.kubernetes.io/revision": "1",
                    "kubectl.kubernetes.io/last-applied-configuration": "{\"apiVersion\":\"apps/v1\"}\n"}},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
                "strategy": {"rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}, "type": "RollingUpdate"},
                "template": {"metadata": {"creationTimestamp": null, "labels": {"app": "web"}},
                    "spec": {"containers": [{"image": "nginx:1.25", "name": "nginx",
                        "ports": [{"containerPort": 80, "protocol": "TCP"}], "resources": {},
                        "args": ["-c", "echo hi; sleep 10", "*", ""]}],
                        "dnsPolicy": "ClusterFirst", "nodeSelector": {"kubernetes.io/os": "linux"}}}},
            "status": {"conditions": [{"message": "Deployment has minimum availability.", "status": "True", "type": "Available"}]}
        });
        let want = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    deployment.kubernetes.io/revision: \"1\"
    kubectl.kubernetes.io/last-applied-configuration: |
      {\"apiVersion\":\"apps/v1\"}
  creationTimestamp: \"2026-01-01T00:00:00Z\"
  generation: 1
  labels:
    app: web
  name: web
  namespace: default
  resourceVersion: \"412\"
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  strategy:
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 25%
    type: RollingUpdate
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: web
    spec:
      containers:
      - args:
        - -c
        - echo hi; sleep 10
        - '*'
        - \"\"
        image: nginx:1.25
        name: nginx
        ports:
        - containerPort: 80
          protocol: TCP
        resources: {}
      dnsPolicy: ClusterFirst
      nodeSelector:
        kubernetes.io/os: linux
status:
  conditions:
  - message: Deployment has minimum availability.
    status: \"True\"
    type: Available
";
        assert_eq!(to_yaml(&obj), want);
    }

    #[test]
    fn yaml_folds_long_strings_and_quotes_like_go_yaml() {
        let msg = "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.";
        let obj = json!({"status": {"conditions": [{"message": msg, "reason": "Unschedulable"}]}});
        assert_eq!(
            to_yaml(&obj),
            "status:\n  conditions:\n  - message: '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are\n      available: 3 No preemption victims found for incoming pod.'\n    reason: Unschedulable\n"
        );
        let plain = "a plain sentence that is long enough to need folding because it goes past eighty columns";
        assert_eq!(
            to_yaml(&json!({ "k": plain })),
            "k: a plain sentence that is long enough to need folding because it goes past eighty\n  columns\n"
        );
        for (s, want) in [
            ("yes", "\"yes\""),
            ("on", "\"on\""),
            ("0755", "\"0755\""),
            ("1e3", "\"1e3\""),
            ("0x1F", "\"0x1F\""),
            ("1:20", "\"1:20\""),
            ("2026-01-01", "\"2026-01-01\""),
            ("2026-02-30", "2026-02-30"),
            ("2026-1-2T3:04:05+01:00", "\"2026-1-2T3:04:05+01:00\""),
            (
                "2026-01-01T00:00:00.123456Z",
                "\"2026-01-01T00:00:00.123456Z\"",
            ),
            (".5", "\".5\""),
            ("-", "'-'"),
            ("- a", "'- a'"),
            ("a: b", "'a: b'"),
            ("a #b", "'a #b'"),
            ("#x", "'#x'"),
            (" lead", "' lead'"),
            ("it's", "it's"),
            ("'q'", "'''q'''"),
            ("tab\there", "\"tab\\there\""),
            ("<none>", "<none>"),
            ("a:b", "a:b"),
            ("10.244.1.2", "10.244.1.2"),
            ("v1.35.0", "v1.35.0"),
            ("1.2.3", "1.2.3"),
            ("500m", "500m"),
            ("日本", "日本"),
            ("trailing\n\n", "|+\n  trailing\n"),
            ("no newline\nat end", "|-\n  no newline\n  at end"),
            ("bad \nspace", "\"bad \\nspace\""),
        ] {
            assert_eq!(to_yaml(&json!({ "k": s })), format!("k: {want}\n"), "{s:?}");
        }
        assert_eq!(
            to_yaml(&json!({"f": 1.5, "g": 1.0, "h": 1e7, "n": -3, "b": true})),
            "b: true\nf: 1.5\ng: 1\nh: 1e+07\n\"n\": -3\n"
        );
        assert_eq!(
            to_yaml(&json!({"l": [[1, 2], {"a": []}]})),
            "l:\n- - 1\n  - 2\n- a: []\n"
        );
    }

    #[test]
    fn yaml_key_order_is_go_yamls() {
        let obj = json!({"b": 1, "a_x": 1, "aZ": 1, "a10": 1, "a9": 1, "A": 1});
        assert_eq!(to_yaml(&obj), "A: 1\na_x: 1\na9: 1\na10: 1\naZ: 1\nb: 1\n");
    }

    #[test]
    fn json_looks_like_kubectl() {
        let obj = json!({"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "p", "labels": {}},
            "spec": {"containers": [{"name": "c", "args": ["<a&b>"]}], "volumes": []}, "n": 1.5});
        assert_eq!(
            to_json(&obj),
            "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"Pod\",\n    \"metadata\": {\n        \"labels\": {},\n        \"name\": \"p\"\n    },\n    \"n\": 1.5,\n    \"spec\": {\n        \"containers\": [\n            {\n                \"args\": [\n                    \"\\u003ca\\u0026b\\u003e\"\n                ],\n                \"name\": \"c\"\n            }\n        ],\n        \"volumes\": []\n    }\n}\n"
        );
        assert_eq!(to_json(&json!(1e-7)), "1e-7\n");
        assert_eq!(to_json(&json!(1e21)), "1e+21\n");
        assert_eq!(to_json(&json!(100000.0)), "100000\n");
    }

    #[test]
    fn lists_and_names() {
        let list = as_list(vec![json!({"kind": "Pod"})]);
        assert_eq!(
            to_json(&list),
            "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\n            \"kind\": \"Pod\"\n        }\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n"
        );
        assert_eq!(
            to_yaml(&as_list(vec![])),
            "apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"
        );
        let obj = json!({"metadata": {"name": "web"}});
        assert_eq!(
            name_of(lookup("deploy").unwrap(), &obj),
            "deployment.apps/web"
        );
        assert_eq!(name_of(lookup("svc").unwrap(), &obj), "service/web");
    }

    #[test]
    fn go_float_formatting() {
        for (f, want) in [
            (1.5, "1.5"),
            (1.0, "1"),
            (100000.0, "100000"),
            (1e6, "1e+06"),
            (123456.0, "123456"),
            (1234567.0, "1.234567e+06"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (-2.25, "-2.25"),
        ] {
            assert_eq!(format_float_g(f), want, "{f}");
        }
    }
}
