//! A text written as pieces of a base text it resembles, and the bytes between them.
//!
//! Two versions of a Kubernetes object, or two Events of the same kind, are mostly the same
//! JSON: the code of one against the other is its runs of new bytes, each followed by a
//! `(length, offset)` copied from the base. Encoding is one pass over the text, looking up its
//! 8-byte windows in a hash table of the base's; decoding is a walk over the code.
//!
//! The code is a sequence of `literal length, literal bytes, copy length, copy offset`, lengths
//! and offsets as LEB128 varints; it may end after a literal.

/// The shortest run worth copying: an op costs about five bytes.
const WINDOW: usize = 8;

/// A hash table of a base text's 8-byte windows: slot to position plus one (0 = empty).
#[derive(Clone, Debug, Default)]
pub(super) struct Table {
    slots: Vec<u32>,
    bits: u32,
}

fn word(s: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"))
}

impl Table {
    /// Fills the table with the windows of `base[from..to]`, replacing what it held.
    pub(super) fn index(&mut self, base: &[u8], from: usize, to: usize) {
        let windows = to.saturating_sub(from + WINDOW - 1);
        // Twice as many slots as windows, so that few collide; within [2^6, 2^16].
        self.bits = (usize::BITS - (windows * 2).leading_zeros()).clamp(6, 16);
        self.slots.clear();
        self.slots.resize(1 << self.bits, 0);
        for i in from..from + windows {
            let slot = self.slot(word(base, i));
            self.slots[slot] = i as u32 + 1;
        }
    }

    fn slot(&self, w: u64) -> usize {
        (w.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize
    }

    fn lookup(&self, w: u64) -> Option<usize> {
        match self.slots.get(self.slot(w)) {
            Some(&p) if p > 0 => Some(p as usize - 1),
            _ => None,
        }
    }
}

fn put_varint(out: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn get_varint(code: &[u8], at: &mut usize) -> usize {
    let (mut n, mut shift) = (0usize, 0);
    loop {
        let b = code[*at];
        *at += 1;
        n |= usize::from(b & 0x7f) << shift;
        if b < 0x80 {
            return n;
        }
        shift += 7;
    }
}

/// The code of `text` against `base`, whose windows `table` holds (all of them, or those of
/// the part that differs from `text`), or `None` when it would be longer than `limit` bytes.
pub(super) fn encode(text: &[u8], base: &[u8], table: &Table, limit: usize) -> Option<Box<[u8]>> {
    let prefix = common_prefix(text, base);
    let suffix = common_suffix(&text[prefix..], &base[prefix..]);
    let end = text.len() - suffix;
    let mut out = Vec::with_capacity(64);
    let op = |out: &mut Vec<u8>, literal: &[u8], copy: (usize, usize)| {
        put_varint(out, literal.len());
        out.extend_from_slice(literal);
        put_varint(out, copy.0);
        put_varint(out, copy.1);
        out.len() <= limit
    };
    if prefix > 0 && !op(&mut out, &[], (prefix, 0)) {
        return None;
    }
    let (mut literal_from, mut at) = (prefix, prefix);
    while at + WINDOW <= end {
        let Some(from) = table
            .lookup(word(text, at))
            .filter(|&m| m + WINDOW <= base.len() && base[m..m + WINDOW] == text[at..at + WINDOW])
        else {
            at += 1;
            continue;
        };
        let mut len = WINDOW + common_prefix(&text[at + WINDOW..end], &base[from + WINDOW..]);
        // Take back into the match the literal's last bytes that the base has before it.
        let back = common_suffix(&text[literal_from..at], &base[..from]);
        len += back;
        if !op(&mut out, &text[literal_from..at - back], (len, from - back)) {
            return None;
        }
        at += len - back;
        literal_from = at;
    }
    if suffix > 0 {
        if !op(
            &mut out,
            &text[literal_from..end],
            (suffix, base.len() - suffix),
        ) {
            return None;
        }
    } else if literal_from < end {
        put_varint(&mut out, end - literal_from);
        out.extend_from_slice(&text[literal_from..end]);
        if out.len() > limit {
            return None;
        }
    }
    Some(out.into_boxed_slice())
}

/// The text `code` was encoded from, against the same `base`; `len` is its length.
pub(super) fn decode(code: &[u8], base: &str, len: usize) -> String {
    let base = base.as_bytes();
    let mut text = Vec::with_capacity(len);
    let mut at = 0;
    while at < code.len() {
        let n = get_varint(code, &mut at);
        text.extend_from_slice(&code[at..at + n]);
        at += n;
        if at == code.len() {
            break;
        }
        let n = get_varint(code, &mut at);
        let from = get_varint(code, &mut at);
        text.extend_from_slice(&base[from..from + n]);
    }
    // Pieces of two texts put back in the order they were cut from one.
    String::from_utf8(text).expect("a decoded text is the text it was encoded from")
}

/// How many bytes `a` and `b` share at their start, compared eight at a time (every write of
/// a big run compares a few kilobytes of text this way).
pub(super) fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let most = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= most {
        let diff = word(a, i) ^ word(b, i);
        if diff != 0 {
            return i + (diff.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i + a[i..most]
        .iter()
        .zip(&b[i..most])
        .take_while(|(x, y)| x == y)
        .count()
}

/// How many bytes `a` and `b` share at their end.
pub(super) fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let word_before = |s: &[u8], end: usize| word(s, end - 8);
    let most = a.len().min(b.len());
    let mut n = 0;
    while n + 8 <= most {
        let diff = word_before(a, a.len() - n) ^ word_before(b, b.len() - n);
        if diff != 0 {
            return n + (diff.leading_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + a[..a.len() - n]
        .iter()
        .rev()
        .zip(b[..b.len() - n].iter().rev())
        .take(most - n)
        .take_while(|(x, y)| x == y)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str, base: &str) -> Box<[u8]> {
        let mut table = Table::default();
        table.index(base.as_bytes(), 0, base.len());
        let code = encode(text.as_bytes(), base.as_bytes(), &table, usize::MAX).unwrap();
        assert_eq!(decode(&code, base, text.len()), text, "against {base:?}");
        code
    }

    #[test]
    fn common_ends_are_counted_as_byte_by_byte() {
        let naive_prefix = |a: &[u8], b: &[u8]| a.iter().zip(b).take_while(|(x, y)| x == y).count();
        let naive_suffix = |a: &[u8], b: &[u8]| {
            a.iter()
                .rev()
                .zip(b.iter().rev())
                .take_while(|(x, y)| x == y)
                .count()
        };
        let base: Vec<u8> = (0..40u8).map(|i| b'a' + i % 26).collect();
        for len in 0..base.len() {
            for at in 0..=len {
                let a = &base[..len];
                // Differs at `at` (or is a longer copy when `at == len`).
                let mut b = base[..len].to_vec();
                if at < len {
                    b[at] = b'#';
                } else {
                    b.push(b'!');
                }
                assert_eq!(common_prefix(a, &b), naive_prefix(a, &b), "{len} {at}");
                assert_eq!(common_suffix(a, &b), naive_suffix(a, &b), "{len} {at}");
                let mut c = b.clone();
                c.insert(0, b'^');
                assert_eq!(common_suffix(a, &c), naive_suffix(a, &c), "{len} {at}");
                assert_eq!(common_prefix(&c, a), naive_prefix(&c, a), "{len} {at}");
            }
        }
    }

    #[test]
    fn texts_decode_to_what_was_encoded() {
        let pod = r#"{"metadata":{"name":"web-1","uid":"1234"},"spec":{"containers":[{"image":"nginx"}]},"status":{"phase":"Pending"}}"#;
        for (text, base) in [
            (pod, pod),
            ("", pod),
            (pod, ""),
            ("short", "shorter"),
            (r#"{"a":"日本語","b":1}"#, r#"{"a":"日本","b":2}"#),
            (
                r#"{"metadata":{"name":"web-2","uid":"9876"},"spec":{"containers":[{"image":"nginx"}],"nodeName":"n1"},"status":{"phase":"Running"}}"#,
                pod,
            ),
        ] {
            round_trip(text, base);
        }
    }

    #[test]
    fn a_text_changed_in_several_places_codes_to_the_changes() {
        let base = format!(
            r#"{{"metadata":{{"name":"app-1-abcde","uid":"0000-1111"}},"spec":{}"status":{{"phase":"Pending"}}}}"#,
            r#"{"containers":[{"image":"nginx:1.27","name":"nginx","resources":{"requests":{"cpu":"10m"}}}]},"#
        );
        let text = base
            .replace("app-1-abcde", "app-1-fghij")
            .replace("Pending", "Running");
        let code = round_trip(&text, &base);
        // Two changed regions with the long spec between them copied, not written out.
        assert!(code.len() < 40, "{} bytes", code.len());
    }

    #[test]
    fn a_code_over_the_limit_is_refused() {
        let mut table = Table::default();
        table.index(b"abcdefghijklmnop", 0, 16);
        assert!(encode(b"0123456789012345", b"abcdefghijklmnop", &table, 8).is_none());
        assert!(encode(b"abcdefghijklmnop", b"abcdefghijklmnop", &table, 8).is_some());
    }
}
