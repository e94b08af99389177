//! How the versions of a key are held: the latest whole, each older one as its code against
//! the version after it (see `code.rs`), and the first version of a key no one watches as its
//! code against a reference text of its prefix.
//!
//! A write of a Kubernetes object changes a few regions of its JSON text (a status, a spec
//! field, a timestamp) and leaves the rest as it was, so the version it replaces is kept as
//! those regions and where the rest is in the new version. A big run's history (every status
//! update of every pod) then costs a fraction of its text. The latest version, which reads and
//! watches want, stays whole and shared; an older one is rebuilt from the versions after it,
//! which only reads at an old revision need.
//!
//! Events are the other bulk: six or so per pod, each written once, each a 700-byte text much
//! like the Event before it of the same reason. A new key that no watch wants (a watch would
//! hold the whole text anyway) is kept as its code against one of a few reference texts of its
//! prefix ([`References`]), when that is much smaller.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::code::{self, Table};
use super::Rev;

/// One version's value.
#[derive(Clone, Debug)]
pub(super) enum Stored {
    Whole(Rc<str>),
    /// The text of `len` bytes that `code` rebuilds from a base: `reference` when there is
    /// one, else the next version.
    Coded {
        len: usize,
        reference: Option<Rc<str>>,
        code: Box<[u8]>,
    },
}

/// An old version is kept coded only when that saves at least a quarter of it.
const MIN_SAVING_DIVISOR: usize = 4;

/// The most bytes a code may take to be kept instead of its `len`-byte text.
fn code_limit(len: usize) -> usize {
    len - len / MIN_SAVING_DIVISOR
}

impl Stored {
    /// The text's length in bytes.
    pub(super) fn len(&self) -> usize {
        match self {
            Stored::Whole(text) => text.len(),
            Stored::Coded { len, .. } => *len,
        }
    }

    /// The value, when whole.
    pub(super) fn whole(&self) -> Option<&Rc<str>> {
        match self {
            Stored::Whole(text) => Some(text),
            Stored::Coded { .. } => None,
        }
    }

    /// `old`, superseded by `new`: as its code against `new` when that is much smaller.
    /// `table` is scratch space, reused across writes.
    pub(super) fn superseded(old: Rc<str>, new: &str, table: &mut Table) -> Stored {
        let (a, b) = (old.as_bytes(), new.as_bytes());
        // Only the part of `new` between what the two share at their ends is looked up.
        let prefix = code::common_prefix(a, b);
        let suffix = code::common_suffix(&a[prefix..], &b[prefix..]);
        table.index(b, prefix, b.len() - suffix);
        match code::encode(a, b, table, code_limit(a.len())) {
            Some(code) => Stored::Coded {
                len: a.len(),
                reference: None,
                code,
            },
            None => Stored::Whole(old),
        }
    }
}

/// The text of `revs[idx]`, `None` for a tombstone: whole, or rebuilt from its reference or
/// from the first version after it that is not coded against its next (such a code always has
/// a live version after it: the one it was taken against).
pub(super) fn text_at(revs: &[Rev], idx: usize) -> Option<Rc<str>> {
    let stored = revs[idx].value.as_ref()?;
    if let Some(text) = stored.whole() {
        return Some(text.clone());
    }
    let standalone = |s: &Stored| {
        !matches!(
            s,
            Stored::Coded {
                reference: None,
                ..
            }
        )
    };
    let base = (idx..revs.len())
        .find(|&j| revs[j].value.as_ref().is_some_and(standalone))
        .expect("a version coded against the next is followed by one that is not");
    let mut text: Rc<str> = match revs[base].value.as_ref()? {
        Stored::Whole(text) => text.clone(),
        coded => Rc::from(decode_standalone(coded)?),
    };
    for r in revs[idx..base].iter().rev() {
        let Some(Stored::Coded { len, code, .. }) = &r.value else {
            unreachable!("the versions before a standalone one are coded against their next");
        };
        text = Rc::from(code::decode(code, &text, *len));
    }
    Some(text)
}

/// The text of a version coded against a reference.
fn decode_standalone(stored: &Stored) -> Option<String> {
    match stored {
        Stored::Coded {
            len,
            reference: Some(reference),
            code,
        } => Some(code::decode(code, reference, *len)),
        _ => None,
    }
}

/// How many reference texts a key prefix keeps: one per kind of text its keys hold (an
/// Event's reason), about.
const REFERENCES_PER_PREFIX: usize = 8;

/// A reference text and the hash table of its windows.
#[derive(Clone, Debug)]
struct Reference {
    text: Rc<str>,
    table: Rc<Table>,
}

/// The reference texts new keys are coded against, by key prefix (the key up to its last
/// `/`: `/registry/events/default/`), most recently useful first.
#[derive(Clone, Debug, Default)]
pub(super) struct References {
    by_prefix: BTreeMap<Box<str>, Vec<Reference>>,
}

impl References {
    /// How the first version of `key`, `text`, is kept: coded against the first reference of
    /// its prefix that codes it in at most half its size, or whole, and then a reference
    /// itself (in place of the least recently useful one).
    pub(super) fn first_version(&mut self, key: &str, text: Rc<str>) -> Stored {
        let prefix = &key[..key.rfind('/').map_or(0, |i| i + 1)];
        if !self.by_prefix.contains_key(prefix) {
            self.by_prefix.insert(prefix.into(), Vec::new());
        }
        let refs = self.by_prefix.get_mut(prefix).expect("inserted");
        let found = refs.iter().enumerate().find_map(|(i, r)| {
            let code = code::encode(text.as_bytes(), r.text.as_bytes(), &r.table, text.len() / 2)?;
            Some((i, code))
        });
        if let Some((i, code)) = found {
            let reference = refs.remove(i);
            let text_of = Rc::clone(&reference.text);
            refs.insert(0, reference);
            return Stored::Coded {
                len: text.len(),
                reference: Some(text_of),
                code,
            };
        }
        let mut table = Table::default();
        table.index(text.as_bytes(), 0, text.len());
        refs.truncate(REFERENCES_PER_PREFIX - 1);
        refs.insert(
            0,
            Reference {
                text: Rc::clone(&text),
                table: Rc::new(table),
            },
        );
        Stored::Whole(text)
    }
}

/// The text a version holds, whole (for a key's latest version, which is never coded against
/// a next one).
pub(super) fn latest_text(stored: &Stored) -> Rc<str> {
    match stored {
        Stored::Whole(text) => text.clone(),
        coded => Rc::from(decode_standalone(coded).expect("the latest version is standalone")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                last.value = Some(Stored::superseded(old, t, &mut Table::default()));
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
        assert!(matches!(revs[1].value, Some(Stored::Coded { .. })));
        assert!(matches!(revs[2].value, Some(Stored::Coded { .. })));
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

    #[test]
    fn a_new_key_is_coded_against_a_reference_of_its_prefix() {
        let event = |pod: &str, reason: &str| {
            format!(
                r#"{{"apiVersion":"v1","involvedObject":{{"kind":"Pod","name":"{pod}","namespace":"default"}},"kind":"Event","message":"Successfully assigned default/{pod} to node-1","metadata":{{"name":"{pod}.187a3f","namespace":"default"}},"reason":"{reason}","source":{{"component":"default-scheduler"}},"type":"Normal"}}"#
            )
        };
        let mut refs = References::default();
        let first = refs.first_version(
            "/registry/events/default/a",
            Rc::from(event("web-1", "Scheduled")),
        );
        assert!(
            first.whole().is_some(),
            "the first of its prefix is a reference"
        );
        let text = event("web-2", "Scheduled");
        let second = refs.first_version("/registry/events/default/b", Rc::from(text.as_str()));
        let Stored::Coded { len, code, .. } = &second else {
            panic!("a like text is coded: {second:?}");
        };
        assert_eq!(*len, text.len());
        assert!(
            code.len() < text.len() / 4,
            "{} of {} bytes",
            code.len(),
            text.len()
        );
        assert_eq!(&*latest_text(&second), text);
        // Another prefix has references of its own.
        let other = refs.first_version("/registry/pods/default/b", Rc::from(text.as_str()));
        assert!(other.whole().is_some());
        // Only the last few unlike texts stay references.
        for i in 0..REFERENCES_PER_PREFIX + 2 {
            let unlike: String = (0..200)
                .map(|j| char::from(b'a' + ((i * 7 + j * j) % 26) as u8))
                .collect();
            refs.first_version("/registry/events/default/x", Rc::from(unlike));
        }
        assert_eq!(
            refs.by_prefix["/registry/events/default/"].len(),
            REFERENCES_PER_PREFIX
        );
    }

    #[test]
    fn a_referenced_version_reads_back_and_can_be_superseded() {
        let mut refs = References::default();
        let base = r#"{"kind":"Event","count":1,"message":"Pulling image \"nginx:1.27\"","metadata":{"name":"web-1.1"}}"#;
        refs.first_version("/e/a", Rc::from(base));
        let text = base.replace("web-1.1", "web-2.2");
        let mut revs = vec![rev(Some(
            refs.first_version("/e/b", Rc::from(text.as_str())),
        ))];
        assert!(matches!(
            revs[0].value,
            Some(Stored::Coded {
                reference: Some(_),
                ..
            })
        ));
        assert_eq!(text_at(&revs, 0).as_deref(), Some(text.as_str()));
        // A second version (the Event's count going up) supersedes the coded first.
        let newer = text.replace("\"count\":1", "\"count\":2");
        let old = latest_text(revs[0].value.as_ref().unwrap());
        revs[0].value = Some(Stored::superseded(old, &newer, &mut Table::default()));
        revs.push(rev(Some(Stored::Whole(Rc::from(newer.as_str())))));
        assert_eq!(text_at(&revs, 0).as_deref(), Some(text.as_str()));
        assert_eq!(text_at(&revs, 1).as_deref(), Some(newer.as_str()));
    }
}
