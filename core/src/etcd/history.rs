//! How the versions of a key are held: the latest whole, each older one as its difference from
//! the version after it.
//!
//! A write of a Kubernetes object changes one region of its JSON text (a status, a spec
//! field) and leaves the rest as it was, so the version it replaces is kept as that region and
//! the lengths of the text before and after it, which the new version has too. A big run's
//! history (every status update of every pod) then costs a fraction of its text. The latest
//! version, which reads and watches want, stays whole and shared; an older one is rebuilt from
//! the versions after it, which only reads at an old revision need.

use std::rc::Rc;

use super::Rev;

/// One version's value.
#[derive(Clone, Debug)]
pub(super) enum Stored {
    Whole(Rc<str>),
    /// The text is the next version's first `prefix` bytes, then `middle`, then its last
    /// `suffix` bytes.
    Delta {
        len: usize,
        prefix: usize,
        suffix: usize,
        middle: Box<str>,
    },
}

/// An old version is kept as a difference only when that saves at least a quarter of it.
const MIN_SAVING_DIVISOR: usize = 4;

impl Stored {
    /// The text's length in bytes.
    pub(super) fn len(&self) -> usize {
        match self {
            Stored::Whole(text) => text.len(),
            Stored::Delta { len, .. } => *len,
        }
    }

    /// The value, when whole.
    pub(super) fn whole(&self) -> Option<&Rc<str>> {
        match self {
            Stored::Whole(text) => Some(text),
            Stored::Delta { .. } => None,
        }
    }

    /// `old`, superseded by `new`: as its difference from `new` when that is much smaller.
    pub(super) fn superseded(old: Rc<str>, new: &str) -> Stored {
        let (a, b) = (old.as_bytes(), new.as_bytes());
        let mut prefix = common_prefix(a, b);
        // At most what the prefix left of the shorter text.
        let mut suffix = common_suffix(&a[prefix..], &b[prefix..]);
        // Cut between characters, so that every piece is text of its own.
        while !(old.is_char_boundary(prefix) && new.is_char_boundary(prefix)) {
            prefix -= 1;
        }
        while !old.is_char_boundary(a.len() - suffix) {
            suffix -= 1;
        }
        let middle = &old[prefix..a.len() - suffix];
        if middle.len() > a.len() - a.len() / MIN_SAVING_DIVISOR {
            return Stored::Whole(old);
        }
        Stored::Delta {
            len: a.len(),
            prefix,
            suffix,
            middle: middle.into(),
        }
    }
}

/// How many bytes `a` and `b` share at their start, compared eight at a time (every write of
/// a big run compares a few kilobytes of text this way).
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let word = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"));
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
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let word =
        |s: &[u8], end: usize| u64::from_le_bytes(s[end - 8..end].try_into().expect("8 bytes"));
    let most = a.len().min(b.len());
    let mut n = 0;
    while n + 8 <= most {
        let diff = word(a, a.len() - n) ^ word(b, b.len() - n);
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

/// The text of `revs[idx]`, `None` for a tombstone: whole, or rebuilt from the first whole
/// version after it (a difference always has a live version after it: the one it was taken
/// against).
pub(super) fn text_at(revs: &[Rev], idx: usize) -> Option<Rc<str>> {
    let stored = revs[idx].value.as_ref()?;
    if let Some(text) = stored.whole() {
        return Some(text.clone());
    }
    let base = (idx + 1..revs.len())
        .find(|&j| revs[j].value.as_ref().is_some_and(|v| v.whole().is_some()))
        .expect("a difference is followed by a whole version");
    let mut text: String = revs[base].value.as_ref()?.whole()?.to_string();
    for r in revs[idx..base].iter().rev() {
        let Some(Stored::Delta {
            len,
            prefix,
            suffix,
            middle,
        }) = &r.value
        else {
            unreachable!("the versions between a difference and its base are differences");
        };
        let mut older = String::with_capacity(*len);
        older.push_str(&text[..*prefix]);
        older.push_str(middle);
        older.push_str(&text[text.len() - suffix..]);
        text = older;
    }
    Some(Rc::from(text))
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn rev(value: Option<Stored>) -> Rev {
        Rev {
            mod_revision: 0,
            create_revision: 0,
            version: 0,
            lease: 0,
            value,
        }
    }

    /// The versions of one key written in order, as `apply_put` keeps them.
    fn chain(texts: &[&str]) -> Vec<Rev> {
        let mut revs: Vec<Rev> = Vec::new();
        for t in texts {
            if let Some(last) = revs.last_mut() {
                let old = last.value.take().and_then(|v| v.whole().cloned()).unwrap();
                last.value = Some(Stored::superseded(old, t));
            }
            revs.push(rev(Some(Stored::Whole(Rc::from(*t)))));
        }
        revs
    }

    #[test]
    fn every_version_reads_back_exactly() {
        let texts = [
            r#"{"metadata":{"name":"web-1"},"spec":{"containers":[{"image":"nginx"}]},"status":{"phase":"Pending"}}"#,
            r#"{"metadata":{"name":"web-1"},"spec":{"containers":[{"image":"nginx"}],"nodeName":"node-1"},"status":{"phase":"Pending"}}"#,
            r#"{"metadata":{"name":"web-1"},"spec":{"containers":[{"image":"nginx"}],"nodeName":"node-1"},"status":{"phase":"Running","podIP":"10.244.1.2"}}"#,
            r#"{"metadata":{"name":"web-1"},"spec":{"containers":[{"image":"nginx"}],"nodeName":"node-1"},"status":{"phase":"Running","podIP":"10.244.1.2"}}"#,
            r#"{"a":"é"}"#,
            r#"{"a":"è"}"#,
            r#"{"a":"è"}x"#,
            "",
            r#"{"a":"日本語","b":1}"#,
        ];
        let revs = chain(&texts);
        for (i, t) in texts.iter().enumerate() {
            assert_eq!(text_at(&revs, i).as_deref(), Some(*t), "version {i}");
            assert_eq!(revs[i].value.as_ref().unwrap().len(), t.len());
        }
        // The versions that differ in a small region are held as that region.
        assert!(matches!(revs[1].value, Some(Stored::Delta { .. })));
        assert!(matches!(revs[2].value, Some(Stored::Delta { .. })));
        assert!(revs
            .last()
            .unwrap()
            .value
            .as_ref()
            .unwrap()
            .whole()
            .is_some());
    }

    #[test]
    fn a_version_unlike_the_next_stays_whole() {
        let revs = chain(&["abcdefgh", "12345678"]);
        assert!(revs[0].value.as_ref().unwrap().whole().is_some());
        assert_eq!(text_at(&revs, 0).as_deref(), Some("abcdefgh"));
    }

    #[test]
    fn a_tombstone_reads_as_none_and_ends_a_chain() {
        let mut revs = chain(&["{\"v\":1,\"long\":\"same same same\"}"]);
        revs.push(rev(None));
        revs.extend(chain(&[
            "{\"v\":2,\"long\":\"same same same\"}",
            "{\"v\":3,\"long\":\"same same same\"}",
        ]));
        assert_eq!(text_at(&revs, 1), None);
        assert_eq!(
            text_at(&revs, 0).as_deref(),
            Some("{\"v\":1,\"long\":\"same same same\"}")
        );
        assert_eq!(
            text_at(&revs, 2).as_deref(),
            Some("{\"v\":2,\"long\":\"same same same\"}")
        );
    }
}
