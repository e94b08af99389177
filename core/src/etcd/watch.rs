//! Watches: the event history since the last compaction, and pull-based delivery.

use super::{Etcd, EtcdError, KeyValue};

/// A watch, numbered in creation order from 0 (as etcd numbers the watches of a stream).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WatchId(pub i64);

/// What happened to a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    Put,
    Delete,
}

impl EventKind {
    /// `PUT` or `DELETE`, as etcd prints the event type.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Put => "PUT",
            EventKind::Delete => "DELETE",
        }
    }
}

/// One change. For a delete, `kv` has the key, `mod_revision` = the delete's revision, an
/// empty value, version 0 and create revision 0; `prev_kv` is what the key held before (always
/// filled, as kube-apiserver asks for it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WatchEvent {
    pub kind: EventKind,
    pub kv: KeyValue,
    pub prev_kv: Option<KeyValue>,
}

impl WatchEvent {
    /// The revision of the change.
    pub fn revision(&self) -> i64 {
        self.kv.mod_revision
    }
}

#[derive(Clone, Debug)]
pub(super) struct Watcher {
    key: String,
    prefix: bool,
    /// Changes before this revision are not for this watch.
    start_revision: i64,
    pending: Vec<WatchEvent>,
}

impl Watcher {
    fn matches(&self, key: &str) -> bool {
        if self.prefix {
            key.starts_with(&self.key)
        } else {
            key == self.key
        }
    }
}

impl Etcd {
    /// Starts a watch on one key (or, with `prefix`, every key under it) from `start_revision`
    /// (0 = changes after now). The watch first receives every stored change with a revision
    /// `>= start_revision`, then every later one, each once and in revision order. A start below
    /// the compacted revision is [`EtcdError::Compacted`]; a future start simply waits.
    pub fn watch(
        &mut self,
        key_or_prefix: &str,
        prefix: bool,
        start_revision: i64,
    ) -> Result<WatchId, EtcdError> {
        let start = if start_revision <= 0 {
            self.revision + 1
        } else {
            start_revision
        };
        let pending = self.changes(key_or_prefix, prefix, start)?;
        self.events_waiting += pending.len();
        let id = WatchId(self.next_watch_id);
        self.next_watch_id += 1;
        self.watchers.insert(
            id,
            Watcher {
                key: key_or_prefix.to_string(),
                prefix,
                start_revision: start,
                pending,
            },
        );
        Ok(id)
    }

    /// Ends a watch; false if there was none with that id. Undelivered events are dropped.
    pub fn cancel_watch(&mut self, id: WatchId) -> bool {
        match self.watchers.remove(&id) {
            Some(w) => {
                self.events_waiting -= w.pending.len();
                true
            }
            None => false,
        }
    }

    /// The events waiting for watch `id`, in revision order (empty for an unknown watch).
    pub fn take_events(&mut self, id: WatchId) -> Vec<WatchEvent> {
        if self.events_waiting == 0 {
            return Vec::new();
        }
        let taken = self
            .watchers
            .get_mut(&id)
            .map(|w| std::mem::take(&mut w.pending))
            .unwrap_or_default();
        self.events_waiting -= taken.len();
        taken
    }

    /// Whether any watch has events waiting.
    pub fn events_waiting(&self) -> bool {
        self.events_waiting > 0
    }

    /// The watches with events waiting, in creation order.
    pub fn pending_watches(&self) -> Vec<WatchId> {
        self.watchers
            .iter()
            .filter(|(_, w)| !w.pending.is_empty())
            .map(|(id, _)| *id)
            .collect()
    }

    /// The number of open watches.
    pub fn watch_count(&self) -> usize {
        self.watchers.len()
    }

    /// Read-only: the stored changes to `key_or_prefix` with a revision `>= start_revision`, in
    /// revision order, as a watch started there would first receive them (etcdctl's
    /// `watch --rev` on a finished run). Below the compacted revision: [`EtcdError::Compacted`].
    pub fn changes(
        &self,
        key_or_prefix: &str,
        prefix: bool,
        start_revision: i64,
    ) -> Result<Vec<WatchEvent>, EtcdError> {
        if start_revision > 0 && start_revision < self.compact_revision {
            return Err(EtcdError::Compacted);
        }
        let from = self.events.partition_point(|(r, _)| *r < start_revision);
        let matches = |k: &str| {
            if prefix {
                k.starts_with(key_or_prefix)
            } else {
                k == key_or_prefix
            }
        };
        Ok(self.events[from..]
            .iter()
            .filter(|(_, k)| matches(k))
            .filter_map(|(r, k)| self.event_at(k, *r))
            .collect())
    }

    /// Read-only: the keys starting with `prefix` written (put or deleted) at a revision in
    /// `(from, to]`, in revision order and repeated when written more than once: the keys whose
    /// values differ between the two revisions, so a reader holding a view at one can move it
    /// to the other without reading every key. Below the compacted revision the log no longer
    /// holds every change: [`EtcdError::Compacted`].
    pub fn keys_changed<'a>(
        &'a self,
        prefix: &'a str,
        from: i64,
        to: i64,
    ) -> Result<impl Iterator<Item = &'a str> + 'a, EtcdError> {
        if from < self.compact_revision {
            return Err(EtcdError::Compacted);
        }
        let start = self.events.partition_point(|(r, _)| *r <= from);
        let end = self.events.partition_point(|(r, _)| *r <= to);
        Ok(self.events[start..end.max(start)]
            .iter()
            .map(|(_, k)| &**k)
            .filter(move |k| k.starts_with(prefix)))
    }

    /// Whether any watch is interested in changes to `key`.
    pub(super) fn watched(&self, key: &str) -> bool {
        self.watchers.values().any(|w| w.matches(key))
    }

    /// Hands a change to every watch it concerns.
    pub(super) fn deliver(&mut self, event: WatchEvent) {
        let rev = event.kv.mod_revision;
        for w in self.watchers.values_mut() {
            if rev >= w.start_revision && w.matches(&event.kv.key) {
                w.pending.push(event.clone());
                self.events_waiting += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;

    fn v(s: &str) -> Rc<str> {
        Rc::from(s)
    }

    #[test]
    fn events_waiting_counts_what_every_watch_has_not_taken() {
        let mut e = Etcd::new();
        assert!(!e.events_waiting());
        let a = e.watch("/p/", true, 0).unwrap();
        let b = e.watch("/p/a", false, 0).unwrap();
        e.put("/q", v("x"), 0).unwrap();
        assert!(!e.events_waiting(), "nobody watches /q");
        e.put("/p/a", v("1"), 0).unwrap();
        assert!(e.events_waiting());
        assert_eq!(e.take_events(a).len(), 1);
        assert!(e.events_waiting(), "b has not taken its event");
        assert!(e.cancel_watch(b));
        assert!(!e.events_waiting(), "b's event went with it");
        // A watch started in the past has its history waiting from the start.
        let c = e.watch("/p/", true, 1).unwrap();
        assert!(e.events_waiting());
        assert_eq!(e.take_events(c).len(), 1);
        assert!(!e.events_waiting());
        assert!(e.take_events(a).is_empty());
    }

    #[test]
    fn keys_changed_lists_the_keys_written_between_two_revisions() {
        let mut e = Etcd::new();
        e.put("/p/a", v("1"), 0).unwrap(); // 2
        e.put("/q", v("x"), 0).unwrap(); // 3
        e.put("/p/b", v("1"), 0).unwrap(); // 4
        e.put("/p/a", v("2"), 0).unwrap(); // 5
        e.delete("/p/b"); // 6
        fn between(e: &Etcd, from: i64, to: i64) -> Vec<&str> {
            e.keys_changed("/p/", from, to).unwrap().collect()
        }
        assert_eq!(between(&e, 1, 6), ["/p/a", "/p/b", "/p/a", "/p/b"]);
        assert_eq!(between(&e, 3, 5), ["/p/b", "/p/a"]);
        assert!(between(&e, 5, 5).is_empty());
        assert!(between(&e, 6, 3).is_empty(), "an empty range, not a panic");
        e.compact(4).unwrap();
        assert!(matches!(
            e.keys_changed("/p/", 3, 6).map(|_| ()),
            Err(EtcdError::Compacted)
        ));
        assert_eq!(between(&e, 4, 6), ["/p/a", "/p/b"]);
    }

    #[test]
    fn watch_from_an_old_revision_gets_each_change_once_in_order() {
        let mut e = Etcd::new();
        e.put("/p/a", v("1"), 0).unwrap(); // 2
        e.put("/q", v("x"), 0).unwrap(); // 3
        e.put("/p/b", v("1"), 0).unwrap(); // 4
        e.put("/p/a", v("2"), 0).unwrap(); // 5
        let w = e.watch("/p/", true, 3).unwrap();
        assert_eq!(e.pending_watches(), vec![w]);
        e.delete("/p/b"); // 6
        e.put("/q", v("y"), 0).unwrap(); // 7, not under the prefix
        let evs = e.take_events(w);
        let got: Vec<(EventKind, &str, i64)> = evs
            .iter()
            .map(|ev| (ev.kind, ev.kv.key.as_str(), ev.revision()))
            .collect();
        assert_eq!(
            got,
            [
                (EventKind::Put, "/p/b", 4),
                (EventKind::Put, "/p/a", 5),
                (EventKind::Delete, "/p/b", 6)
            ]
        );
        assert_eq!(&*evs[1].prev_kv.as_ref().unwrap().value, "1");
        let del = &evs[2].kv;
        assert_eq!((&*del.value, del.version, del.create_revision), ("", 0, 0));
        assert_eq!(evs[2].prev_kv.as_ref().unwrap().mod_revision, 4);
        assert!(e.take_events(w).is_empty(), "each event exactly once");
        assert!(e.pending_watches().is_empty());
        e.put("/p/c", v("1"), 0).unwrap(); // 8
        assert_eq!(
            e.take_events(w)
                .iter()
                .map(|ev| ev.revision())
                .collect::<Vec<_>>(),
            [8]
        );
    }

    #[test]
    fn two_watchers_both_receive() {
        let mut e = Etcd::new();
        let a = e.watch("/k", false, 0).unwrap();
        let b = e.watch("/", true, 0).unwrap();
        let exact = e.watch("/k2", false, 0).unwrap();
        e.put("/k", v("1"), 0).unwrap();
        assert_eq!(e.pending_watches(), vec![a, b]);
        e.txn(Txn {
            success: vec![Op::put("/k", v("2")), Op::put("/k2", v("2"))],
            ..Default::default()
        })
        .unwrap();
        assert_eq!(e.pending_watches(), vec![a, b, exact]);
        assert_eq!(e.take_events(a).len(), 2);
        let evs = e.take_events(b);
        assert_eq!(
            evs.iter().map(|ev| ev.revision()).collect::<Vec<_>>(),
            [2, 3, 3]
        );
        assert_eq!(e.take_events(exact).len(), 1);
        assert!(e.cancel_watch(a));
        assert!(!e.cancel_watch(a));
        e.put("/k", v("3"), 0).unwrap();
        assert_eq!(e.pending_watches(), vec![b]);
        assert!(e.take_events(a).is_empty());
        assert_eq!(e.watch_count(), 2);
    }

    #[test]
    fn watch_start_revisions() {
        let mut e = Etcd::new();
        e.put("/a", v("1"), 0).unwrap(); // 2
                                         // A future start waits for its revision.
        let w = e.watch("/a", false, 4).unwrap();
        e.put("/a", v("2"), 0).unwrap(); // 3
        assert!(e.take_events(w).is_empty());
        e.put("/a", v("3"), 0).unwrap(); // 4
        assert_eq!(e.take_events(w)[0].revision(), 4);
        e.compact(3).unwrap();
        assert_eq!(e.watch("/a", false, 2), Err(EtcdError::Compacted));
        assert_eq!(e.changes("/a", false, 3).unwrap().len(), 2);
    }
}
