//! What the playground accepts, so that hostile input (a YAML alias bomb, nesting 100,000
//! deep, megabytes of binary garbage, a billion replicas) ends at once with an error naming the
//! limit instead of hanging the page or the command line. The command line, the playground's
//! editor and console, and kube-apiserver's validation all use these.
//!
//! The YAML limits are checked before the YAML parser runs ([`prescan`]: control characters
//! and nesting of `[` and `{`, which libyaml parses in time quadratic in their depth) and while
//! the documents are turned into JSON (a budget of nodes, aliases expanded; serde_yaml's own
//! recursion limit of 128 levels and repetition limit of 100 times the document's size).

use super::SourceError;
use crate::api::json::JsonPointer;
use crate::api::value::{Map, Value};
use crate::api::FieldError;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// Scenarios larger than this are refused before parsing (the playground keeps them in a
/// share link and in localStorage).
pub const MAX_SCENARIO_BYTES: usize = 4 * 1024 * 1024;
/// At most this many documents in one scenario.
pub const MAX_DOCUMENTS: usize = 10_000;
/// At most this many levels of lists and mappings in a document (serde_yaml's recursion limit).
pub const MAX_YAML_DEPTH: usize = 128;
/// At most this many YAML nodes (mappings, lists, keys and scalars, each alias counted as
/// what it expands to) in one scenario or one `kubectl apply -f` manifest.
pub const MAX_YAML_NODES: usize = 1_000_000;
/// At most this many `kind: Node` documents: Kubernetes' tested limit of nodes in a cluster.
pub const MAX_NODES: usize = 5_000;
/// Kubernetes' tested limit of pods in a cluster: the most one workload may ask for
/// (`spec.replicas`, a Job's `spec.parallelism`), checked by kube-apiserver, and the most a
/// scenario's workloads may ask for in all.
pub const MAX_PODS: i64 = 150_000;

/// `4 MiB` for a whole number of mebibytes, else the number of bytes.
fn size_text(bytes: usize) -> String {
    if bytes.is_multiple_of(1024 * 1024) {
        format!("{} MiB", bytes / (1024 * 1024))
    } else {
        format!("{bytes} bytes")
    }
}

/// The error for a scenario of `len` bytes (or, with `exact` false, of more than `len`).
pub fn too_large(file: &str, len: usize, exact: bool) -> SourceError {
    let size = if exact {
        format!("{len} bytes")
    } else {
        format!("more than {len} bytes")
    };
    SourceError {
        file: file.to_string(),
        line: 0,
        column: 0,
        message: format!(
            "the scenario is too large: {size}; kubeplay accepts at most {MAX_SCENARIO_BYTES} bytes ({})",
            size_text(MAX_SCENARIO_BYTES)
        ),
    }
}

/// 1-based line and column (in characters) of byte `offset` of `text`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..offset.min(text.len())];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    // Count characters, not bytes: UTF-8 continuation bytes do not start one.
    let column = 1 + before[line_start..]
        .iter()
        .filter(|&&b| b & 0xC0 != 0x80)
        .count();
    (line, column)
}

/// The scenario's bytes as text: a file that is not UTF-8 (binary garbage, Latin-1) is refused
/// with the place of the first bad byte.
pub fn decode_utf8<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, SourceError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let off = e.valid_up_to();
        // Everything before `off` is valid UTF-8.
        let valid = std::str::from_utf8(&bytes[..off]).unwrap_or_default();
        let (line, column) = line_column(valid, off);
        let message = match e.error_len() {
            Some(_) => format!(
                "the scenario is not UTF-8 text: byte {off} (0x{:02X}) is not part of a UTF-8 character",
                bytes[off]
            ),
            None => format!("the scenario is not UTF-8 text: it ends inside a character at byte {off}"),
        };
        SourceError {
            file: file.to_string(),
            line,
            column,
            message,
        }
    })
}

/// YAML's printable characters (`c-printable`), as libyaml's reader checks them.
fn printable(c: char) -> bool {
    matches!(c,
        '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}'
        | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

/// The message for nesting deeper than [`MAX_YAML_DEPTH`].
pub fn too_deep_message() -> String {
    format!(
        "the YAML is nested too deeply: more than {MAX_YAML_DEPTH} levels of lists and mappings; kubeplay accepts at most {MAX_YAML_DEPTH}"
    )
}

/// The message for serde_yaml's repetition limit (an alias bomb in a small document).
pub fn excessive_aliasing_message() -> String {
    "document contains excessive aliasing: its aliases expand to more than 100 times its own size"
        .to_string()
}

/// The message for more than [`MAX_YAML_NODES`] nodes.
pub fn too_many_nodes_message() -> String {
    format!(
        "too many YAML nodes: more than {MAX_YAML_NODES} lists, mappings, keys and scalars, aliases expanded; kubeplay accepts at most {MAX_YAML_NODES}"
    )
}

/// Checks a document's text before the YAML parser sees it: no control characters (NUL and
/// the like: libyaml refuses them too, but without their place), and `[` and `{` nested at most
/// [`MAX_YAML_DEPTH`] deep. Returns the byte offset of the problem in `text` and a message.
///
/// The nesting count follows YAML's tokens closely enough to skip quoted scalars, comments,
/// block scalars (`|`, `>`) and brackets inside plain scalars (`echo [x]`); it only guards the
/// parser's time, the exact depth limit is serde_yaml's.
pub fn prescan(text: &str) -> Result<(), (usize, String)> {
    if let Some((i, c)) = text.char_indices().find(|&(_, c)| !printable(c)) {
        return Err((
            i,
            format!(
                "control characters are not allowed: found U+{:04X}",
                c as u32
            ),
        ));
    }
    FlowScan::new(text.as_bytes()).run()
}

struct FlowScan<'a> {
    b: &'a [u8],
    i: usize,
    /// Depth of `[` and `{`; 0 in block context.
    depth: usize,
    /// Block context: the next token starts a node (so `[`, `{`, quotes, `|` and `>` are
    /// indicators, not text of a plain scalar).
    node_start: bool,
    /// Offset where the current line starts.
    line_start: usize,
    /// Column of the token being read (the key, when `: ` follows).
    token_col: usize,
    /// Column of the innermost block collection on this line (-1: none yet), the indentation a
    /// block scalar's content must exceed.
    parent_col: isize,
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

impl<'a> FlowScan<'a> {
    fn new(b: &'a [u8]) -> Self {
        FlowScan {
            b,
            i: 0,
            depth: 0,
            node_start: true,
            line_start: 0,
            token_col: 0,
            parent_col: -1,
        }
    }

    fn at(&self, j: usize) -> Option<u8> {
        self.b.get(j).copied()
    }

    fn ws_or_end(&self, j: usize) -> bool {
        self.at(j).is_none_or(is_ws)
    }

    fn col(&self) -> usize {
        self.i - self.line_start
    }

    fn run(mut self) -> Result<(), (usize, String)> {
        while let Some(c) = self.at(self.i) {
            let after_ws = self.i == 0 || is_ws(self.b[self.i - 1]);
            match c {
                b'\n' => {
                    self.i += 1;
                    self.line_start = self.i;
                    if self.depth == 0 {
                        self.node_start = true;
                        self.parent_col = -1;
                    }
                }
                b' ' | b'\t' | b'\r' => self.i += 1,
                b'#' if after_ws => self.skip_line(),
                _ if self.depth > 0 => self.flow(c)?,
                _ => self.block(c)?,
            }
        }
        Ok(())
    }

    fn skip_line(&mut self) {
        while self.at(self.i).is_some_and(|c| c != b'\n') {
            self.i += 1;
        }
    }

    fn open(&mut self) -> Result<(), (usize, String)> {
        self.depth += 1;
        if self.depth > MAX_YAML_DEPTH {
            return Err((self.i, too_deep_message()));
        }
        self.i += 1;
        Ok(())
    }

    fn flow(&mut self, c: u8) -> Result<(), (usize, String)> {
        let token_start = self.i == 0
            || matches!(
                self.b[self.i - 1],
                b' ' | b'\t' | b'\r' | b'\n' | b'[' | b'{' | b',' | b':'
            );
        match c {
            b'[' | b'{' => self.open()?,
            b']' | b'}' => {
                self.depth -= 1;
                self.i += 1;
                if self.depth == 0 {
                    self.node_start = false;
                }
            }
            b'\'' | b'"' if token_start => self.skip_quoted(c),
            _ => self.i += 1,
        }
        Ok(())
    }

    fn block(&mut self, c: u8) -> Result<(), (usize, String)> {
        if !self.node_start {
            // Inside a plain scalar or after a quoted one: only `: ` starts a value.
            if c == b':' && self.ws_or_end(self.i + 1) {
                self.parent_col = self.token_col as isize;
                self.node_start = true;
            }
            self.i += 1;
            return Ok(());
        }
        match c {
            b'[' | b'{' => {
                self.node_start = false;
                self.open()?;
            }
            b'\'' | b'"' => {
                self.token_col = self.col();
                self.node_start = false;
                self.skip_quoted(c);
            }
            b'|' | b'>' => self.skip_block_scalar(),
            b'-' | b'?' | b':' if self.ws_or_end(self.i + 1) => {
                self.parent_col = self.col() as isize;
                self.i += 1;
            }
            b'&' | b'!' => {
                // A property: the node follows.
                while self.at(self.i).is_some_and(|c| !is_ws(c)) {
                    self.i += 1;
                }
            }
            b'%' if self.col() == 0 => self.skip_line(),
            _ => {
                self.token_col = self.col();
                self.node_start = false;
                self.i += 1;
            }
        }
        Ok(())
    }

    fn skip_quoted(&mut self, q: u8) {
        self.i += 1;
        while let Some(c) = self.at(self.i) {
            self.i += 1;
            if c == b'\n' {
                self.line_start = self.i;
            } else if q == b'"' && c == b'\\' {
                if self.at(self.i) == Some(b'\n') {
                    self.line_start = self.i + 1;
                }
                self.i += 1;
            } else if c == q {
                if q == b'\'' && self.at(self.i) == Some(b'\'') {
                    self.i += 1;
                } else {
                    return;
                }
            }
        }
    }

    /// Skips a block scalar's header and content lines (more indented than its parent).
    fn skip_block_scalar(&mut self) {
        let parent = self.parent_col;
        self.i += 1;
        let mut explicit = None;
        while let Some(c) = self.at(self.i) {
            match c {
                b'1'..=b'9' => explicit = Some((c - b'0') as isize),
                b'+' | b'-' => {}
                _ => break,
            }
            self.i += 1;
        }
        self.skip_line();
        let mut content = explicit.map(|d| parent.max(0) + d);
        while self.i < self.b.len() {
            // At the '\n' ending the previous line.
            let start = self.i + 1;
            let mut j = start;
            while self.at(j) == Some(b' ') {
                j += 1;
            }
            let indent = (j - start) as isize;
            let blank = matches!(self.at(j), None | Some(b'\n') | Some(b'\r'));
            if !blank {
                let ci = *content.get_or_insert(indent.max(parent + 1));
                if indent < ci {
                    break;
                }
            }
            self.i = start;
            self.skip_line();
        }
    }
}

/// Turns one YAML document into JSON as `crate::api::value::Value::deserialize` does, spending one
/// unit of `budget` per node and failing when it runs out.
pub fn to_json<'de, D: de::Deserializer<'de>>(
    de: D,
    budget: &mut usize,
) -> Result<Value, D::Error> {
    Counted(budget).deserialize(de)
}

struct Counted<'b>(&'b mut usize);

impl Counted<'_> {
    fn take<E: de::Error>(&mut self) -> Result<(), E> {
        if *self.0 == 0 {
            return Err(E::custom(too_many_nodes_message()));
        }
        *self.0 -= 1;
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Counted<'_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

/// Scalars become what serde_json makes of them.
fn scalar<'de, E: de::Error>(d: impl de::Deserializer<'de, Error = E>) -> Result<Value, E> {
    use serde::Deserialize;
    Value::deserialize(d)
}

impl<'de> Visitor<'de> for Counted<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E: de::Error>(mut self, v: bool) -> Result<Value, E> {
        self.take()?;
        Ok(Value::Bool(v))
    }
    fn visit_i64<E: de::Error>(mut self, v: i64) -> Result<Value, E> {
        self.take()?;
        Ok(Value::from(v))
    }
    fn visit_u64<E: de::Error>(mut self, v: u64) -> Result<Value, E> {
        self.take()?;
        Ok(Value::from(v))
    }
    fn visit_i128<E: de::Error>(mut self, v: i128) -> Result<Value, E> {
        self.take()?;
        scalar(de::value::I128Deserializer::<E>::new(v))
    }
    fn visit_u128<E: de::Error>(mut self, v: u128) -> Result<Value, E> {
        self.take()?;
        scalar(de::value::U128Deserializer::<E>::new(v))
    }
    fn visit_f64<E: de::Error>(mut self, v: f64) -> Result<Value, E> {
        self.take()?;
        scalar(de::value::F64Deserializer::<E>::new(v))
    }
    fn visit_str<E: de::Error>(mut self, v: &str) -> Result<Value, E> {
        self.take()?;
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E: de::Error>(mut self, v: String) -> Result<Value, E> {
        self.take()?;
        Ok(Value::String(v))
    }
    fn visit_none<E: de::Error>(mut self) -> Result<Value, E> {
        self.take()?;
        Ok(Value::Null)
    }
    fn visit_unit<E: de::Error>(mut self) -> Result<Value, E> {
        self.take()?;
        Ok(Value::Null)
    }
    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Value, A::Error> {
        self.take()?;
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(Counted(&mut *self.0))? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Value, A::Error> {
        self.take()?;
        let mut out = Map::new();
        while let Some(k) = map.next_key_seed(Key(&mut *self.0))? {
            let v = map.next_value_seed(Counted(&mut *self.0))?;
            out.insert(k, v);
        }
        Ok(Value::Object(out))
    }
}

/// A mapping key: a string, as serde_json's `KeyClassifier` wants it.
struct Key<'b>(&'b mut usize);

impl<'de> DeserializeSeed<'de> for Key<'_> {
    type Value = String;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key<'_> {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string key")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Counted(self.0).take()?;
        Ok(v.to_string())
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<String, E> {
        Counted(self.0).take()?;
        Ok(v)
    }
}

/// Where a workload asks for pods, as a JSON pointer.
fn pods_field(kind: &str) -> Option<&'static str> {
    match kind {
        "Deployment" | "ReplicaSet" | "StatefulSet" | "ReplicationController" => {
            Some("/spec/replicas")
        }
        "Job" => Some("/spec/parallelism"),
        "CronJob" => Some("/spec/jobTemplate/spec/parallelism"),
        _ => None,
    }
}

/// kube-apiserver's check of [`MAX_PODS`] on a workload of `kind`, appended to the errors of
/// its validation: `spec.replicas: Invalid value: 1000000000: must be less than or equal to
/// 150000 (kubeplay runs at most 150000 pods)`. Real clusters take such a number and drown; the
/// playground says no instead of freezing.
pub fn with_workload_limits(kind: &str, obj: &Value, mut errs: Vec<FieldError>) -> Vec<FieldError> {
    if let Some(ptr) = pods_field(kind) {
        if let Some(n) = obj.lookup(ptr).and_then(Value::as_i64) {
            if n > MAX_PODS {
                errs.push(FieldError::invalid(
                    ptr[1..].replace('/', "."),
                    Value::from(n),
                    format!(
                        "must be less than or equal to {MAX_PODS} (kubeplay runs at most {MAX_PODS} pods)"
                    ),
                ));
            }
        }
    }
    errs
}

/// How many pods a scenario object asks for at once: replicas of a workload (default 1), a
/// Job's parallelism; `None` for other objects and for numbers the apiserver refuses anyway.
pub fn pods_asked(api_version: &str, kind: &str, obj: &Value) -> Option<i64> {
    let known = matches!(
        (api_version, kind),
        ("apps/v1", "Deployment" | "ReplicaSet" | "StatefulSet")
            | ("v1", "ReplicationController")
            | ("batch/v1", "Job")
    );
    if !known {
        return None;
    }
    let ptr = pods_field(kind)?;
    match obj.lookup(ptr) {
        None | Some(Value::Null) => Some(1),
        Some(v) => v.as_i64().filter(|n| (0..=MAX_PODS).contains(n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(text: &str) -> Result<(), (usize, String)> {
        prescan(text)
    }

    #[test]
    fn counts_flow_nesting_but_not_text() {
        let deep = format!("a: {}1{}\n", "[".repeat(200), "]".repeat(200));
        let (off, msg) = scan(&deep).unwrap_err();
        assert_eq!(off, 3 + MAX_YAML_DEPTH);
        assert_eq!(msg, too_deep_message());
        let ok = format!("a: {}1{}\n", "[".repeat(128), "]".repeat(128));
        assert!(scan(&ok).is_ok());
        // Brackets in plain, quoted and block scalars and comments are text.
        let many = "[".repeat(300);
        for text in [
            format!("command: echo {many}\n"),
            format!("a: '{many}'\nb: \"{many}\\\"\"\n"),
            format!("a: x # {many}\n"),
            format!("a: |\n  {many}\n  {many}\nb: 1\n"),
            format!("- key: >-\n    {many}\n\n    {many}\n- b\n"),
            format!("a: [don't, \"{many}\", '{many}']\n"),
        ] {
            assert!(scan(&text).is_ok(), "{text}");
        }
        // A line at the parent's indentation ends the block scalar.
        let text = format!("- key: |\n  other: {}\n", "{a: ".repeat(200));
        assert!(scan(&text).is_err());
        let text = format!("a: |\nb: {}\n", "[".repeat(200));
        assert!(scan(&text).is_err());
    }

    #[test]
    fn control_characters_are_placed() {
        let (off, msg) = scan("a: 1\nb: x\u{0}\n").unwrap_err();
        assert_eq!(off, 9);
        assert_eq!(msg, "control characters are not allowed: found U+0000");
        assert!(scan("\u{feff}a: é\t# ok\r\n").is_ok());
    }

    #[test]
    fn json_values_match_serde_json() {
        use serde::Deserialize;
        let text = "a: 1\nb: -2\nc: 1.5\nd: .nan\ne: ~\nf: [true, 'x', null]\n1: numeric key\n\
                    g: 18446744073709551615\nh: &x {y: 1}\ni: *x\nj:\n  <<: {k: 1}\nl: 0x1F\nm: !!str 3\n";
        let want = crate::api::value::Value::deserialize(serde_yaml::Deserializer::from_str(text));
        let mut budget = 100;
        let got = to_json(serde_yaml::Deserializer::from_str(text), &mut budget);
        assert_eq!(got.unwrap(), want.unwrap());
        for bad in ["? [a]\n: 1\n", "a: !Tag x\n"] {
            let want =
                crate::api::value::Value::deserialize(serde_yaml::Deserializer::from_str(bad));
            let got = to_json(serde_yaml::Deserializer::from_str(bad), &mut 100);
            assert_eq!(
                got.unwrap_err().to_string(),
                want.unwrap_err().to_string(),
                "{bad}"
            );
        }
        let mut budget = 3;
        let e = to_json(serde_yaml::Deserializer::from_str("[1, 2, 3]"), &mut budget).unwrap_err();
        assert!(e.to_string().contains(&too_many_nodes_message()), "{e}");
    }

    #[test]
    fn utf8_errors_name_the_byte_and_its_place() {
        let e = decode_utf8("f.yaml", b"a: 1\nname: caf\xe9\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "f.yaml:2:10: the scenario is not UTF-8 text: byte 14 (0xE9) is not part of a UTF-8 character"
        );
        let e = decode_utf8("f.yaml", "é\u{20ac}".as_bytes().split_last().unwrap().1).unwrap_err();
        assert_eq!(
            e.to_string(),
            "f.yaml:1:2: the scenario is not UTF-8 text: it ends inside a character at byte 2"
        );
    }

    #[test]
    fn workloads_are_capped_at_max_pods() {
        let d = crate::json!({"spec": {"replicas": 1_000_000_000}});
        let errs = with_workload_limits("Deployment", &d, vec![]);
        assert_eq!(
            errs[0].to_string(),
            "spec.replicas: Invalid value: 1000000000: must be less than or equal to 150000 (kubeplay runs at most 150000 pods)"
        );
        assert!(with_workload_limits("ConfigMap", &d, vec![]).is_empty());
        let ok = crate::json!({"spec": {"replicas": MAX_PODS}});
        assert!(with_workload_limits("ReplicaSet", &ok, vec![]).is_empty());
        assert_eq!(
            pods_asked("apps/v1", "Deployment", &crate::json!({})),
            Some(1)
        );
        assert_eq!(pods_asked("apps/v1", "Deployment", &d), None);
        assert_eq!(pods_asked("v1", "ConfigMap", &d), None);
    }
}
