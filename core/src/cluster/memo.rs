//! Facts derived from cached objects, remembered per object version: a cache's objects are
//! shared `Rc`s replaced on every change, so the address of one names that version. Each
//! entry holds a weak reference, which keeps the allocation (not the object), so an address is
//! not reused while its entry is here.

use crate::api::Object;
use rustc_hash::FxHashMap as HashMap;
use std::rc::{Rc, Weak};

pub struct VersionMemo<T> {
    entries: HashMap<usize, (Weak<Object>, T)>,
}

impl<T> Default for VersionMemo<T> {
    fn default() -> Self {
        VersionMemo {
            entries: HashMap::default(),
        }
    }
}

impl<T> VersionMemo<T> {
    /// What `derive` says of this version of `obj`, derived once.
    pub fn get(&mut self, obj: &Rc<Object>, derive: impl FnOnce(&Object) -> T) -> &T {
        self.get_mut(obj, derive)
    }

    /// The same, for a caller that adds to what it knows of this version later.
    pub fn get_mut(&mut self, obj: &Rc<Object>, derive: impl FnOnce(&Object) -> T) -> &mut T {
        &mut self
            .entries
            .entry(Rc::as_ptr(obj) as usize)
            .or_insert_with(|| (Rc::downgrade(obj), derive(obj)))
            .1
    }

    /// Above `limit` entries, forgets the versions nobody holds any more (and everything, if
    /// that still leaves more than half).
    pub fn trim(&mut self, limit: usize) {
        if self.entries.len() > limit {
            self.entries.retain(|_, (w, _)| w.strong_count() > 0);
            if self.entries.len() > limit / 2 {
                self.entries.clear();
            }
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn a_version_is_derived_once_and_a_new_version_again() {
        let mut memo = VersionMemo::default();
        let mut calls = 0;
        let v1 = Rc::new(json!({"n": 1}));
        let mut n = |o: &Object| {
            calls += 1;
            o["n"].as_i64()
        };
        assert_eq!(*memo.get(&v1, &mut n), Some(1));
        assert_eq!(*memo.get(&v1, &mut n), Some(1));
        let v2 = Rc::new(json!({"n": 2}));
        assert_eq!(*memo.get(&v2, &mut n), Some(2));
        let v3 = Rc::new(json!({"n": 3}));
        assert_eq!(*memo.get(&v3, &mut n), Some(3));
        assert_eq!(calls, 3);
        drop((v1, v2));
        memo.trim(3);
        assert_eq!(memo.len(), 3, "within the limit nothing is forgotten");
        memo.trim(2);
        assert_eq!(memo.len(), 1, "only the version still held is kept");
        assert_eq!(*memo.get(&v3, |_| unreachable!()), Some(3));
    }
}
