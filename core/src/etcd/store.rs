//! The key space: reads at a revision, puts, deletes, transactions, history and compaction.

use std::collections::BTreeSet;
use std::ops::Bound;
use std::rc::Rc;

use super::history::{latest_text, text_at, Stored};
use super::{
    Compare, CompareResult, CompareTarget, DeleteRangeResponse, DeleteResponse, Etcd, EtcdError,
    EventKind, KeyValue, Op, OpResponse, PutResponse, RangeResponse, Rev, Txn, TxnResponse,
    WatchEvent, MAX_REQUEST_BYTES,
};

/// The key value stored at revision `at`, if the key existed then.
fn kv_at(key: &str, revs: &[Rev], at: i64) -> Option<KeyValue> {
    let idx = revs.partition_point(|r| r.mod_revision <= at);
    live_kv(key, revs, idx.checked_sub(1)?)
}

/// `revs[idx]` as a key value, unless it is a tombstone.
fn live_kv(key: &str, revs: &[Rev], idx: usize) -> Option<KeyValue> {
    let r = revs.get(idx)?;
    let value = text_at(revs, idx)?;
    Some(KeyValue {
        key: key.to_string(),
        value,
        create_revision: r.create_revision,
        mod_revision: r.mod_revision,
        version: r.version,
        lease: r.lease,
    })
}

fn compare_i64(a: i64, result: CompareResult, b: i64) -> bool {
    match result {
        CompareResult::Equal => a == b,
        CompareResult::NotEqual => a != b,
        CompareResult::Greater => a > b,
        CompareResult::Less => a < b,
    }
}

impl Etcd {
    /// The revision a read asks for: `None` (or a revision <= 0) is the current one.
    fn read_revision(&self, rev: Option<i64>) -> Result<i64, EtcdError> {
        match rev {
            Some(r) if r > 0 => {
                if r < self.compact_revision {
                    Err(EtcdError::Compacted)
                } else if r > self.revision {
                    Err(EtcdError::FutureRev)
                } else {
                    Ok(r)
                }
            }
            _ => Ok(self.revision),
        }
    }

    /// The latest version of `key` if it exists now.
    fn current(&self, key: &str) -> Option<&Rev> {
        self.keys.get(key)?.last().filter(|r| r.value.is_some())
    }

    /// [`Etcd::current`] as a key value.
    fn current_kv(&self, key: &str) -> Option<KeyValue> {
        let revs = self.keys.get(key)?;
        live_kv(key, revs, revs.len().checked_sub(1)?)
    }

    /// One key at revision `rev` (`None` = now).
    pub fn get(&self, key: &str, rev: Option<i64>) -> Result<Option<KeyValue>, EtcdError> {
        let at = self.read_revision(rev)?;
        Ok(self.keys.get(key).and_then(|revs| kv_at(key, revs, at)))
    }

    /// Every key starting with `prefix` at revision `rev` (`None` = now), in key order; at most
    /// `limit` of them (0 = all). An empty prefix is the whole key space.
    pub fn range_prefix(
        &self,
        prefix: &str,
        rev: Option<i64>,
        limit: usize,
    ) -> Result<RangeResponse, EtcdError> {
        let at = self.read_revision(rev)?;
        let iter = self
            .keys
            .range::<str, _>((Bound::Included(prefix), Bound::Unbounded))
            .take_while(|(k, _)| k.starts_with(prefix));
        Ok(self.collect_range(iter, at, limit))
    }

    /// etcd's range semantics: `range_end` empty is the single key `key`; `"\0"` is every key
    /// `>= key`; otherwise the keys in `[key, range_end)`. An empty `key` with `range_end`
    /// `"\0"` is the whole key space.
    pub fn range(
        &self,
        key: &str,
        range_end: &str,
        rev: Option<i64>,
        limit: usize,
    ) -> Result<RangeResponse, EtcdError> {
        let at = self.read_revision(rev)?;
        if range_end.is_empty() {
            let kvs: Vec<KeyValue> = self.get(key, Some(at))?.into_iter().collect();
            let count = kvs.len();
            return Ok(RangeResponse {
                kvs,
                count,
                more: false,
                revision: self.revision,
            });
        }
        if range_end == "\0" {
            let iter = self
                .keys
                .range::<str, _>((Bound::Included(key), Bound::Unbounded));
            return Ok(self.collect_range(iter, at, limit));
        }
        if range_end <= key {
            return Ok(RangeResponse {
                revision: self.revision,
                ..Default::default()
            });
        }
        let iter = self
            .keys
            .range::<str, _>((Bound::Included(key), Bound::Excluded(range_end)));
        Ok(self.collect_range(iter, at, limit))
    }

    fn collect_range<'a>(
        &self,
        iter: impl Iterator<Item = (&'a Rc<str>, &'a Vec<Rev>)>,
        at: i64,
        limit: usize,
    ) -> RangeResponse {
        let mut kvs = Vec::new();
        let mut count = 0;
        let current = at == self.revision;
        for (k, revs) in iter {
            let exists = if current {
                revs.last().is_some_and(|r| r.value.is_some())
            } else {
                let idx = revs.partition_point(|r| r.mod_revision <= at);
                idx > 0 && revs[idx - 1].value.is_some()
            };
            if !exists {
                continue;
            }
            count += 1;
            if limit == 0 || kvs.len() < limit {
                if let Some(kv) = kv_at(k, revs, at) {
                    kvs.push(kv);
                }
            }
        }
        let more = kvs.len() < count;
        RangeResponse {
            kvs,
            count,
            more,
            revision: self.revision,
        }
    }

    /// Every stored version of `key`, oldest first, deletes included (as etcd's watch shows
    /// them: empty value, version 0, `mod_revision` the delete's revision).
    pub fn history(&self, key: &str) -> Vec<KeyValue> {
        let Some(revs) = self.keys.get(key) else {
            return Vec::new();
        };
        revs.iter()
            .enumerate()
            .map(|(i, r)| match live_kv(key, revs, i) {
                Some(kv) => kv,
                None => self.tombstone(key, r.mod_revision),
            })
            .collect()
    }

    pub(super) fn tombstone(&self, key: &str, rev: i64) -> KeyValue {
        KeyValue {
            key: key.to_string(),
            value: self.empty.clone(),
            create_revision: 0,
            mod_revision: rev,
            version: 0,
            lease: 0,
        }
    }

    fn check_put(&self, key: &str, value: &str, lease: i64) -> Result<(), EtcdError> {
        if key.is_empty() {
            return Err(EtcdError::EmptyKey);
        }
        if key.len() + value.len() > MAX_REQUEST_BYTES {
            return Err(EtcdError::RequestTooLarge);
        }
        if lease != 0 && !self.leases.contains_key(&lease) {
            return Err(EtcdError::LeaseNotFound);
        }
        Ok(())
    }

    /// Writes `key`, attached to `lease` (0 = none): one new revision.
    pub fn put(&mut self, key: &str, value: Rc<str>, lease: i64) -> Result<PutResponse, EtcdError> {
        self.check_put(key, &value, lease)?;
        self.raft_index += 1;
        self.revision += 1;
        let rev = self.revision;
        let prev_kv = self.apply_put(rev, key, value, lease);
        self.note_size();
        Ok(PutResponse {
            revision: rev,
            prev_kv,
        })
    }

    /// Deletes `key`; a new revision only if it existed.
    pub fn delete(&mut self, key: &str) -> DeleteResponse {
        self.raft_index += 1;
        if self.current(key).is_none() {
            return DeleteResponse {
                revision: self.revision,
                prev_kv: None,
            };
        }
        self.revision += 1;
        let rev = self.revision;
        let prev_kv = self.apply_delete(rev, key);
        self.note_size();
        DeleteResponse {
            revision: rev,
            prev_kv,
        }
    }

    /// Deletes every key under `prefix` in one revision (none if nothing matched).
    pub fn delete_prefix(&mut self, prefix: &str) -> DeleteRangeResponse {
        let keys: Vec<Rc<str>> = self
            .keys
            .range::<str, _>((Bound::Included(prefix), Bound::Unbounded))
            .take_while(|(k, _)| k.starts_with(prefix))
            .filter(|(_, revs)| revs.last().is_some_and(|r| r.value.is_some()))
            .map(|(k, _)| k.clone())
            .collect();
        self.delete_keys(&keys)
    }

    /// etcd's range delete: `range_end` empty deletes the single key `key`, `"\0"` every key
    /// `>= key`, otherwise the keys in `[key, range_end)`; all in one revision (none if nothing
    /// matched).
    pub fn delete_range(&mut self, key: &str, range_end: &str) -> DeleteRangeResponse {
        let keys: Vec<Rc<str>> = if range_end.is_empty() {
            vec![Rc::from(key)]
        } else {
            let upper = if range_end == "\0" {
                Bound::Unbounded
            } else if range_end <= key {
                return self.delete_keys(&[]);
            } else {
                Bound::Excluded(range_end)
            };
            self.keys
                .range::<str, _>((Bound::Included(key), upper))
                .filter(|(_, revs)| revs.last().is_some_and(|r| r.value.is_some()))
                .map(|(k, _)| k.clone())
                .collect()
        };
        self.delete_keys(&keys)
    }

    /// Deletes the given existing keys in one revision.
    pub(super) fn delete_keys(&mut self, keys: &[Rc<str>]) -> DeleteRangeResponse {
        self.raft_index += 1;
        let live: Vec<&Rc<str>> = keys.iter().filter(|k| self.current(k).is_some()).collect();
        if live.is_empty() {
            return DeleteRangeResponse {
                revision: self.revision,
                deleted: 0,
                prev_kvs: Vec::new(),
            };
        }
        self.revision += 1;
        let rev = self.revision;
        let mut prev_kvs = Vec::with_capacity(live.len());
        for key in live {
            prev_kvs.extend(self.apply_delete(rev, key));
        }
        self.note_size();
        DeleteRangeResponse {
            revision: rev,
            deleted: prev_kvs.len(),
            prev_kvs,
        }
    }

    fn compare_holds(&self, c: &Compare) -> bool {
        let cur = self.current(&c.key);
        let (mod_rev, create_rev, version, lease) = match cur {
            Some(r) => (r.mod_revision, r.create_revision, r.version, r.lease),
            None => (0, 0, 0, 0),
        };
        match &c.target {
            CompareTarget::ModRevision(n) => compare_i64(mod_rev, c.result, *n),
            CompareTarget::CreateRevision(n) => compare_i64(create_rev, c.result, *n),
            CompareTarget::Version(n) => compare_i64(version, c.result, *n),
            CompareTarget::Lease(n) => compare_i64(lease, c.result, *n),
            CompareTarget::Value(v) => match cur.and_then(|r| r.value.as_ref()).map(latest_text) {
                None => false,
                Some(have) => match c.result {
                    CompareResult::Equal => *have == **v,
                    CompareResult::NotEqual => *have != **v,
                    CompareResult::Greater => *have > **v,
                    CompareResult::Less => *have < **v,
                },
            },
        }
    }

    /// A transaction: evaluates `compare` against the current state, then runs `success` or
    /// `failure` in one revision (none if the branch writes nothing). Fails as a whole, changing
    /// nothing, when a branch writes a key twice, a put is too large (the whole request counts)
    /// or the chosen branch names a missing lease.
    pub fn txn(&mut self, txn: Txn) -> Result<TxnResponse, EtcdError> {
        let mut size = 0usize;
        for branch in [&txn.success, &txn.failure] {
            let mut written = BTreeSet::new();
            for op in branch.iter() {
                let key = match op {
                    Op::Put { key, value, .. } => {
                        size += key.len() + value.len();
                        key
                    }
                    Op::Delete(key) => key,
                    Op::Get(_) | Op::GetPrefix(_) => continue,
                };
                if key.is_empty() {
                    return Err(EtcdError::EmptyKey);
                }
                if !written.insert(key.as_str()) {
                    return Err(EtcdError::DuplicateKey);
                }
            }
        }
        size += txn.compare.iter().map(|c| c.key.len()).sum::<usize>();
        if size > MAX_REQUEST_BYTES {
            return Err(EtcdError::RequestTooLarge);
        }
        let succeeded = txn.compare.iter().all(|c| self.compare_holds(c));
        let ops = if succeeded { txn.success } else { txn.failure };
        for op in &ops {
            if let Op::Put { lease, .. } = op {
                if *lease != 0 && !self.leases.contains_key(lease) {
                    return Err(EtcdError::LeaseNotFound);
                }
            }
        }
        self.raft_index += 1;
        let writes = ops.iter().any(|op| match op {
            Op::Put { .. } => true,
            Op::Delete(key) => self.current(key).is_some(),
            Op::Get(_) | Op::GetPrefix(_) => false,
        });
        if writes {
            self.revision += 1;
        }
        let rev = self.revision;
        let mut responses = Vec::with_capacity(ops.len());
        for op in ops {
            responses.push(match op {
                Op::Get(key) => {
                    let kvs: Vec<KeyValue> = self.current_kv(&key).into_iter().collect();
                    let count = kvs.len();
                    OpResponse::Get(RangeResponse {
                        kvs,
                        count,
                        more: false,
                        revision: rev,
                    })
                }
                Op::GetPrefix(prefix) => OpResponse::Get(self.range_prefix(&prefix, None, 0)?),
                Op::Put { key, value, lease } => {
                    let prev_kv = self.apply_put(rev, &key, value, lease);
                    OpResponse::Put(PutResponse {
                        revision: rev,
                        prev_kv,
                    })
                }
                Op::Delete(key) => {
                    let prev_kv = if self.current(&key).is_some() {
                        self.apply_delete(rev, &key)
                    } else {
                        None
                    };
                    OpResponse::Delete(DeleteResponse {
                        revision: rev,
                        prev_kv,
                    })
                }
            });
        }
        if writes {
            self.note_size();
        }
        Ok(TxnResponse {
            succeeded,
            revision: rev,
            responses,
        })
    }

    /// The shared key, as stored (or new).
    fn key_arc(&self, key: &str) -> Rc<str> {
        match self.keys.get_key_value(key) {
            Some((k, _)) => k.clone(),
            None => Rc::from(key),
        }
    }

    /// Stores a new version of `key` at revision `rev` and records the event.
    pub(super) fn apply_put(
        &mut self,
        rev: i64,
        key: &str,
        value: Rc<str>,
        lease: i64,
    ) -> Option<KeyValue> {
        let key = self.key_arc(key);
        let prev = self.current(&key).cloned();
        let prev_kv = self.current_kv(&key);
        let (create_revision, version) = match &prev {
            Some(p) => (p.create_revision, p.version + 1),
            None => (rev, 1),
        };
        let old_lease = prev.as_ref().map_or(0, |p| p.lease);
        if old_lease != lease {
            self.detach_lease(old_lease, &key);
        }
        if lease != 0 {
            self.attach_lease(lease, &key);
        }
        if prev.is_none() {
            self.live_keys += 1;
        }
        self.bytes_held += Self::rev_bytes(&key, value.len());
        if self.watched(&key) {
            let kv = KeyValue {
                key: key.to_string(),
                value: value.clone(),
                create_revision,
                mod_revision: rev,
                version,
                lease,
            };
            self.deliver(WatchEvent {
                kind: EventKind::Put,
                kv,
                prev_kv: prev_kv.clone(),
            });
        }
        self.events.push((rev, key.clone()));
        // A new key no watch holds the text of is coded against a like one (see `history.rs`).
        let held = |p: &String| key.starts_with(p.as_str());
        let stored =
            if prev.is_none() && !self.watched(&key) && !self.held_prefixes.iter().any(held) {
                self.references.first_version(&key, value)
            } else {
                Stored::Whole(value)
            };
        let new_text = match &stored {
            Stored::Whole(text) => Some(Rc::clone(text)),
            _ => None,
        };
        // Most keys (Events) are written once: room for one version until a second comes.
        let revs = self
            .keys
            .entry(key)
            .or_insert_with(|| Vec::with_capacity(1));
        // The version it replaces is kept as its code against this one.
        if let (Some(last), Some(new)) = (revs.last_mut(), &new_text) {
            if let Some(old) = last.value.take() {
                let old = latest_text(&old);
                last.value = Some(Stored::superseded(old, new, &mut self.scratch));
            }
        }
        revs.push(Rev {
            mod_revision: rev,
            create_revision,
            version,
            lease,
            value: Some(stored),
        });
        prev_kv
    }

    /// Leaves a tombstone for an existing `key` at revision `rev` and records the event.
    pub(super) fn apply_delete(&mut self, rev: i64, key: &str) -> Option<KeyValue> {
        let key = self.key_arc(key);
        let prev = self.current(&key)?.clone();
        let prev_kv = self.current_kv(&key);
        self.detach_lease(prev.lease, &key);
        self.live_keys -= 1;
        self.bytes_held += Self::rev_bytes(&key, 0);
        let tomb = Rev {
            mod_revision: rev,
            create_revision: 0,
            version: 0,
            lease: 0,
            value: None,
        };
        if self.watched(&key) {
            let kv = self.tombstone(&key, rev);
            self.deliver(WatchEvent {
                kind: EventKind::Delete,
                kv,
                prev_kv: prev_kv.clone(),
            });
        }
        self.events.push((rev, key.clone()));
        self.keys
            .get_mut(&*key)
            .expect("an existing key")
            .push(tomb);
        prev_kv
    }

    /// The change to `key` at revision `rev`, rebuilt from the key's stored versions.
    pub(super) fn event_at(&self, key: &str, rev: i64) -> Option<WatchEvent> {
        let revs = self.keys.get(key)?;
        let idx = revs.partition_point(|r| r.mod_revision < rev);
        revs.get(idx).filter(|r| r.mod_revision == rev)?;
        let prev_kv = idx.checked_sub(1).and_then(|i| live_kv(key, revs, i));
        Some(match live_kv(key, revs, idx) {
            Some(kv) => WatchEvent {
                kind: EventKind::Put,
                kv,
                prev_kv,
            },
            None => WatchEvent {
                kind: EventKind::Delete,
                kv: self.tombstone(key, rev),
                prev_kv,
            },
        })
    }

    /// Drops the history before `rev`: each key keeps its latest version at or below `rev`
    /// (a key whose latest was a delete goes entirely), and watch history before `rev` is
    /// trimmed. Reads below `rev` then fail with [`EtcdError::Compacted`]. Compacting at or
    /// below the last compaction is `Compacted`; above the current revision, `FutureRev`.
    pub fn compact(&mut self, rev: i64) -> Result<(), EtcdError> {
        if rev <= self.compact_revision {
            return Err(EtcdError::Compacted);
        }
        if rev > self.revision {
            return Err(EtcdError::FutureRev);
        }
        self.raft_index += 1;
        self.compact_revision = rev;
        let mut freed = 0u64;
        self.keys.retain(|key, revs| {
            let idx = revs.partition_point(|r| r.mod_revision <= rev);
            if idx == 0 {
                return true;
            }
            let keep_from = if revs[idx - 1].value.is_some() {
                idx - 1
            } else {
                idx
            };
            for r in &revs[..keep_from] {
                freed += Self::rev_bytes(key, r.value.as_ref().map_or(0, Stored::len));
            }
            revs.drain(..keep_from);
            !revs.is_empty()
        });
        self.bytes_held -= freed;
        // Events before `rev` go, and so do the deletes at `rev`: their tombstones were just
        // removed, as etcd's compaction removes them from the backend.
        let cut = self.events.partition_point(|(r, _)| *r < rev);
        self.events.drain(..cut);
        let at_rev = self.events.partition_point(|(r, _)| *r == rev);
        let keys = &self.keys;
        let kept: Vec<(i64, Rc<str>)> = self
            .events
            .drain(..at_rev)
            .filter(|(r, k)| {
                keys.get(&**k)
                    .and_then(|v| v.first())
                    .is_some_and(|f| f.mod_revision == *r)
            })
            .collect();
        self.events.splice(0..0, kept);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;

    fn v(s: &str) -> Rc<str> {
        Rc::from(s)
    }

    #[test]
    fn revisions_and_versions() {
        let mut e = Etcd::new();
        assert_eq!(e.revision(), 1);
        let r = e.put("/a", v("1"), 0).unwrap();
        assert_eq!((r.revision, r.prev_kv), (2, None));
        let r = e.put("/a", v("2"), 0).unwrap();
        assert_eq!(r.revision, 3);
        assert_eq!(&*r.prev_kv.unwrap().value, "1");
        let kv = e.get("/a", None).unwrap().unwrap();
        assert_eq!(
            (kv.create_revision, kv.mod_revision, kv.version, kv.lease),
            (2, 3, 2, 0)
        );
        e.put("/b", v("x"), 0).unwrap();
        assert_eq!(e.key_count(), 2);
        // Deleting a missing key does not bump the revision.
        let d = e.delete("/missing");
        assert_eq!((d.revision, d.prev_kv), (4, None));
        let d = e.delete("/a");
        assert_eq!(d.revision, 5);
        assert_eq!(d.prev_kv.unwrap().version, 2);
        assert_eq!(e.get("/a", None).unwrap(), None);
        // Recreated: a new generation, version starts again at 1.
        e.put("/a", v("3"), 0).unwrap();
        let kv = e.get("/a", None).unwrap().unwrap();
        assert_eq!((kv.create_revision, kv.mod_revision, kv.version), (6, 6, 1));
        assert_eq!(e.key_count(), 2);
    }

    #[test]
    fn a_key_written_once_holds_room_for_one_version_and_grows_when_written_again() {
        let mut e = Etcd::new();
        e.put("/events/default/e1", v("one"), 0).unwrap();
        assert_eq!(e.keys["/events/default/e1"].capacity(), 1);
        e.put("/events/default/e1", v("two"), 0).unwrap();
        e.put("/events/default/e1", v("three"), 0).unwrap();
        let values: Vec<_> = e
            .history("/events/default/e1")
            .into_iter()
            .map(|kv| kv.value.to_string())
            .collect();
        assert_eq!(values, ["one", "two", "three"]);
    }

    #[test]
    fn reads_at_old_revisions() {
        let mut e = Etcd::new();
        e.put("/r/a", v("a1"), 0).unwrap(); // 2
        e.put("/r/b", v("b1"), 0).unwrap(); // 3
        e.put("/r/a", v("a2"), 0).unwrap(); // 4
        e.delete("/r/b"); // 5
        e.put("/s", v("s"), 0).unwrap(); // 6
        assert_eq!(e.get("/r/a", Some(1)).unwrap(), None);
        assert_eq!(&*e.get("/r/a", Some(3)).unwrap().unwrap().value, "a1");
        assert_eq!(&*e.get("/r/a", Some(4)).unwrap().unwrap().value, "a2");
        assert_eq!(&*e.get("/r/b", Some(4)).unwrap().unwrap().value, "b1");
        assert_eq!(e.get("/r/b", Some(5)).unwrap(), None);
        let at3 = e.range_prefix("/r/", Some(3), 0).unwrap();
        assert_eq!(
            at3.kvs.iter().map(|k| &*k.value).collect::<Vec<_>>(),
            ["a1", "b1"]
        );
        assert_eq!(at3.revision, 6);
        let now = e.range_prefix("/r/", None, 0).unwrap();
        assert_eq!(now.count, 1);
        let all = e.range_prefix("", None, 1).unwrap();
        assert_eq!((all.kvs.len(), all.count, all.more), (1, 2, true));
        assert_eq!(e.get("/r/a", Some(7)), Err(EtcdError::FutureRev));
        assert_eq!(e.range("/r/a", "/r/c", None, 0).unwrap().kvs[0].key, "/r/a");
        assert_eq!(e.range("/r/", "\0", None, 0).unwrap().count, 2);
        assert_eq!(e.range("/r/a", "", None, 0).unwrap().count, 1);
        let h = e.history("/r/b");
        assert_eq!(
            h.iter()
                .map(|k| (k.mod_revision, k.version))
                .collect::<Vec<_>>(),
            [(3, 1), (5, 0)]
        );
    }

    #[test]
    fn txn_compare_and_swap() {
        let mut e = Etcd::new();
        let key = "/registry/pods/default/web";
        // Create if absent: mod_revision == 0.
        let create = |value: &str| Txn {
            compare: vec![Compare::mod_revision(key, CompareResult::Equal, 0)],
            success: vec![Op::put(key, v(value))],
            failure: vec![Op::Get(key.to_string())],
        };
        let r = e.txn(create("v1")).unwrap();
        assert!(r.succeeded);
        assert_eq!(r.revision, 2);
        let r = e.txn(create("again")).unwrap();
        assert!(!r.succeeded);
        assert_eq!(r.revision, 2, "a failed create writes nothing");
        match &r.responses[0] {
            OpResponse::Get(g) => assert_eq!(&*g.kvs[0].value, "v1"),
            other => panic!("{other:?}"),
        }
        // Update guarded by the resourceVersion the client read.
        let update = |rv: i64, value: &str| Txn {
            compare: vec![Compare::mod_revision(key, CompareResult::Equal, rv)],
            success: vec![Op::put(key, v(value))],
            failure: vec![Op::Get(key.to_string())],
        };
        let r = e.txn(update(2, "v2")).unwrap();
        assert!(r.succeeded);
        assert_eq!(r.revision, 3);
        // A second writer still holding resourceVersion 2 is stale.
        let r = e.txn(update(2, "stale")).unwrap();
        assert!(!r.succeeded);
        assert_eq!(e.revision(), 3);
        assert_eq!(&*e.get(key, None).unwrap().unwrap().value, "v2");
        // Other targets.
        let t = Txn {
            compare: vec![
                Compare::version(key, CompareResult::Equal, 2),
                Compare::create_revision(key, CompareResult::Equal, 2),
                Compare::mod_revision(key, CompareResult::Greater, 2),
                Compare::lease(key, CompareResult::Equal, 0),
                Compare::value(key, CompareResult::Equal, v("v2")),
                Compare::version("/nope", CompareResult::Less, 1),
            ],
            success: vec![Op::Delete(key.to_string()), Op::put("/other", v("o"))],
            failure: vec![],
        };
        let r = e.txn(t).unwrap();
        assert!(r.succeeded);
        assert_eq!(r.revision, 4, "all ops of a txn share one revision");
        assert_eq!(e.get("/other", None).unwrap().unwrap().mod_revision, 4);
        assert!(
            !e.txn(Txn {
                compare: vec![Compare::value("/nope", CompareResult::NotEqual, v("x"))],
                ..Default::default()
            })
            .unwrap()
            .succeeded
        );
        // A txn that deletes only missing keys writes nothing.
        let r = e
            .txn(Txn {
                success: vec![Op::Delete("/gone".into())],
                ..Default::default()
            })
            .unwrap();
        assert_eq!(r.revision, 4);
        let dup = Txn {
            success: vec![Op::put("/d", v("1")), Op::put("/d", v("2"))],
            ..Default::default()
        };
        assert_eq!(e.txn(dup), Err(EtcdError::DuplicateKey));
    }

    #[test]
    fn size_limit() {
        let mut e = Etcd::new();
        let big: String = "x".repeat(MAX_REQUEST_BYTES - 2);
        assert!(e.put("/k", v(&big), 0).is_ok());
        let too_big: String = "x".repeat(MAX_REQUEST_BYTES);
        let err = e.put("/k", v(&too_big), 0).unwrap_err();
        assert_eq!(err, EtcdError::RequestTooLarge);
        assert_eq!(err.to_string(), "etcdserver: request is too large");
        assert_eq!(e.revision(), 2);
        let t = Txn {
            success: vec![Op::put("/k", v(&too_big))],
            ..Default::default()
        };
        assert_eq!(e.txn(t), Err(EtcdError::RequestTooLarge));
        assert_eq!(e.put("", v("x"), 0), Err(EtcdError::EmptyKey));
    }

    #[test]
    fn compaction() {
        let mut e = Etcd::new();
        e.put("/a", v("1"), 0).unwrap(); // 2
        e.put("/a", v("2"), 0).unwrap(); // 3
        e.put("/b", v("1"), 0).unwrap(); // 4
        e.delete("/b"); // 5
        e.put("/c", v("1"), 0).unwrap(); // 6
        let before = e.db_size_in_use();
        e.compact(5).unwrap();
        assert_eq!(e.compact_revision(), 5);
        assert!(e.db_size_in_use() <= before);
        assert!(e.db_size() >= e.db_size_in_use());
        assert_eq!(e.get("/a", Some(4)), Err(EtcdError::Compacted));
        assert_eq!(
            e.get("/a", Some(4)).unwrap_err().to_string(),
            "etcdserver: mvcc: required revision has been compacted"
        );
        assert_eq!(
            e.range_prefix("/", Some(2), 0).unwrap_err().to_string(),
            "etcdserver: mvcc: required revision has been compacted"
        );
        // The latest version at or below the compaction stays readable.
        assert_eq!(&*e.get("/a", Some(5)).unwrap().unwrap().value, "2");
        assert_eq!(e.history("/a").len(), 1);
        assert!(
            e.history("/b").is_empty(),
            "a deleted key's history goes entirely"
        );
        assert_eq!(e.history("/c").len(), 1);
        assert_eq!(e.compact(5), Err(EtcdError::Compacted));
        assert_eq!(e.compact(9), Err(EtcdError::FutureRev));
        assert_eq!(
            EtcdError::FutureRev.to_string(),
            "etcdserver: mvcc: required revision is a future revision"
        );
        assert_eq!(e.watch("/a", false, 3), Err(EtcdError::Compacted));
        assert_eq!(e.changes("/", true, 4).unwrap_err(), EtcdError::Compacted);
        // The tombstone at 5 went with the compaction; the put at 6 remains.
        assert_eq!(e.changes("/", true, 5).unwrap().len(), 1);
    }
}
