//! Facts derived from cached objects, remembered per object version: a cache's objects are
//! shared `Rc`s replaced on every change, so the address of one names that version. Each
//! entry holds a weak reference, which keeps the allocation (not the object), so an address is
//! not reused while its entry is here.

use crate::api::Object;
use crate::kernel::sharded::ShardedMap;
use std::collections::VecDeque;
use std::rc::{Rc, Weak};

/// How many older entries each new one looks at, forgetting those whose version nobody holds
/// any more. Two keeps the memo within about twice the versions still held, and the work is
/// spread over the inserts: forgetting them all at once (a pass over hundreds of thousands of
/// entries at the limits size) was a 50 ms step in the page.
const SWEEP_PER_INSERT: usize = 2;

pub struct VersionMemo<T> {
    entries: ShardedMap<usize, (Weak<Object>, T)>,
    /// The entries' keys, oldest first: the sweep goes round them.
    order: VecDeque<usize>,
}

impl<T> Default for VersionMemo<T> {
    fn default() -> Self {
        VersionMemo {
            entries: ShardedMap::default(),
            order: VecDeque::new(),
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
        let key = Rc::as_ptr(obj) as usize;
        if !self.entries.contains_key(&key) {
            self.sweep();
            self.entries.insert(key, (Rc::downgrade(obj), derive(obj)));
            self.order.push_back(key);
        }
        &mut self.entries.get_mut(&key).expect("just inserted").1
    }

    /// Looks at the oldest entries: a version still held goes round again, the rest are
    /// forgotten (which frees their allocations, kept by the weak references until now).
    fn sweep(&mut self) {
        for _ in 0..SWEEP_PER_INSERT.min(self.order.len()) {
            let Some(key) = self.order.pop_front() else {
                return;
            };
            let held = self
                .entries
                .get(&key)
                .is_some_and(|(w, _)| w.strong_count() > 0);
            if held {
                self.order.push_back(key);
            } else {
                self.entries.remove(&key);
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
        assert_eq!(*memo.get(&v3, |_| unreachable!()), Some(3));
    }

    #[test]
    fn versions_nobody_holds_are_forgotten_as_new_ones_come() {
        let mut memo = VersionMemo::default();
        let held: Vec<Rc<Object>> = (0..100).map(|n| Rc::new(json!({"n": n}))).collect();
        for v in &held {
            memo.get(v, |_| ());
        }
        // A thousand versions, each dropped as soon as it was looked at: the memo keeps the
        // hundred still held and only a few of the others.
        for n in 0..1000 {
            let v = Rc::new(json!({"n": n}));
            memo.get(&v, |_| ());
        }
        assert!(memo.len() <= 2 * held.len() + 2, "{}", memo.len());
        for v in &held {
            memo.get(v, |_| unreachable!("a held version is still known"));
        }
    }
}
