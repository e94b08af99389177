//! Controller expectations (`pkg/controller/controller_utils.go` `ControllerExpectations`,
//! `UIDTrackingControllerExpectations`): after a controller creates or deletes pods it waits
//! until its informer has seen every one of those changes before it acts on that key again, so
//! a stale cache never makes it create or delete twice.

use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Expectation {
    adds: i64,
    /// UIDs of pods it deleted and has not yet seen go.
    deletes: BTreeSet<String>,
}

#[derive(Debug, Default)]
pub struct Expectations {
    by_key: BTreeMap<String, Expectation>,
}

impl Expectations {
    /// True when nothing is outstanding for `key` (or nothing was ever expected).
    pub fn satisfied(&self, key: &str) -> bool {
        self.by_key
            .get(key)
            .is_none_or(|e| e.adds <= 0 && e.deletes.is_empty())
    }

    pub fn expect_creations(&mut self, key: &str, n: i64) {
        self.by_key.entry(key.to_string()).or_default().adds = n;
    }

    /// One of the creations was seen (or failed and will never be seen).
    pub fn creation_observed(&mut self, key: &str) {
        if let Some(e) = self.by_key.get_mut(key) {
            e.adds -= 1;
        }
    }

    pub fn expect_deletion(&mut self, key: &str, uid: &str) {
        self.by_key
            .entry(key.to_string())
            .or_default()
            .deletes
            .insert(uid.to_string());
    }

    /// The deletion of pod `uid` was seen (its deletionTimestamp or its DELETED event).
    pub fn deletion_observed(&mut self, key: &str, uid: &str) {
        if let Some(e) = self.by_key.get_mut(key) {
            e.deletes.remove(uid);
        }
    }

    /// The owner is gone: forget it.
    pub fn forget(&mut self, key: &str) {
        self.by_key.remove(key);
    }

    /// Outstanding (creations, deletions), for the trace.
    pub fn pending(&self, key: &str) -> (i64, usize) {
        self.by_key
            .get(key)
            .map(|e| (e.adds.max(0), e.deletes.len()))
            .unwrap_or((0, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_for_every_creation_and_deletion() {
        let mut e = Expectations::default();
        assert!(e.satisfied("default/rs"));
        e.expect_creations("default/rs", 2);
        assert!(!e.satisfied("default/rs"));
        e.creation_observed("default/rs");
        assert!(!e.satisfied("default/rs"));
        e.creation_observed("default/rs");
        assert!(e.satisfied("default/rs"));
        e.expect_deletion("default/rs", "u1");
        e.deletion_observed("default/rs", "u2");
        assert!(!e.satisfied("default/rs"));
        e.deletion_observed("default/rs", "u1");
        e.deletion_observed("default/rs", "u1");
        assert!(e.satisfied("default/rs"));
    }
}
