//! What a view works out of each object under one etcd prefix, held at the revision last
//! shown and moved to the next one through etcd's change log: a redraw reads only the keys
//! written in between, which in a big run is a few of thousands, instead of every object.
//!
//! It holds facts, not objects: an old object version held here would be freed by the redraw
//! that lets it go (tens of milliseconds for a few thousand pods), where the simulation step
//! that replaced it frees it otherwise.

use kubeplay_core::etcd::{Etcd, KeyValue};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

pub struct PrefixView<T> {
    prefix: Arc<str>,
    /// The revision `entries` describe; `None` before the first read.
    revision: Option<i64>,
    /// Each key under the prefix with the mod_revision its facts were worked out from.
    entries: BTreeMap<Arc<str>, (i64, Arc<T>)>,
}

impl<T> PrefixView<T> {
    pub fn new(prefix: &str) -> Self {
        PrefixView {
            prefix: Arc::from(prefix),
            revision: None,
            entries: BTreeMap::new(),
        }
    }

    /// The facts of every key under the prefix at revision `rev`, in key order (none when `rev`
    /// is compacted). `derive` works out those of a key written since the revision of the last
    /// call; the others are kept.
    pub fn at(
        &mut self,
        etcd: &Etcd,
        rev: i64,
        derive: &mut dyn FnMut(&KeyValue) -> T,
    ) -> impl Iterator<Item = &Arc<T>> {
        self.update(etcd, rev, derive, &mut |_, _, _| {});
        self.entries.values().map(|(_, facts)| facts)
    }

    /// Moves the view to revision `rev` (what [`PrefixView::at`] shows), telling `changed` of each
    /// key whose facts it replaces on the way: the key, its facts before (`None`: it was not
    /// there) and after (`None`: it is gone). A caller can then keep its own sums up to date
    /// instead of going over every key.
    pub fn update(
        &mut self,
        etcd: &Etcd,
        rev: i64,
        derive: &mut dyn FnMut(&KeyValue) -> T,
        changed: &mut Changed<'_, T>,
    ) {
        if self.revision == Some(rev) {
            return;
        }
        // The keys whose values differ between the two revisions are those written in
        // between, whichever way the view moves.
        let prefix = Arc::clone(&self.prefix);
        let keys: Option<BTreeSet<&str>> = self.revision.and_then(|from| {
            let (lo, hi) = (from.min(rev), from.max(rev));
            etcd.keys_changed(&prefix, lo, hi)
                .ok()
                .map(Iterator::collect)
        });
        // All read first: a compacted revision part way must not leave half the keys moved.
        let read: Option<Vec<(&str, Option<KeyValue>)>> = keys.and_then(|keys| {
            keys.into_iter()
                .map(|key| etcd.get(key, Some(rev)).ok().map(|kv| (key, kv)))
                .collect()
        });
        match read {
            Some(read) => {
                for (key, kv) in read {
                    match kv {
                        Some(kv) => self.keep(kv, derive, changed),
                        None => {
                            if let Some((key, (_, old))) = self.entries.remove_entry(key) {
                                changed(&key, Some(&old), None);
                            }
                        }
                    }
                }
            }
            None => self.reload(etcd, rev, derive, changed),
        }
        self.revision = Some(rev);
    }

    /// Every key read again (the first read, or a revision the change log no longer covers);
    /// facts of unchanged versions are kept.
    fn reload(
        &mut self,
        etcd: &Etcd,
        rev: i64,
        derive: &mut dyn FnMut(&KeyValue) -> T,
        changed: &mut Changed<'_, T>,
    ) {
        let mut old = std::mem::take(&mut self.entries);
        if let Ok(range) = etcd.range_prefix(&self.prefix, Some(rev), 0) {
            for kv in range.kvs {
                match old.remove_entry(kv.key.as_str()) {
                    Some((key, (at, facts))) if at == kv.mod_revision => {
                        self.entries.insert(key, (at, facts));
                    }
                    Some((key, entry)) => {
                        // Put back for `keep` to tell what it replaces.
                        self.entries.insert(key, entry);
                        self.keep(kv, derive, changed);
                    }
                    None => self.keep(kv, derive, changed),
                }
            }
        }
        for (key, (_, facts)) in old {
            changed(&key, Some(&facts), None);
        }
    }

    /// Records `kv`'s facts unless they were worked out from this very version.
    fn keep(
        &mut self,
        kv: KeyValue,
        derive: &mut dyn FnMut(&KeyValue) -> T,
        changed: &mut Changed<'_, T>,
    ) {
        if let Some((at, _)) = self.entries.get(kv.key.as_str()) {
            if *at == kv.mod_revision {
                return;
            }
        }
        let facts = Arc::new(derive(&kv));
        let key: Arc<str> = Arc::from(kv.key);
        let old = self
            .entries
            .insert(Arc::clone(&key), (kv.mod_revision, Arc::clone(&facts)));
        changed(&key, old.as_ref().map(|(_, f)| f), Some(&facts));
    }
}

/// What [`PrefixView::update`] calls for each key whose facts changed.
pub type Changed<'a, T> = dyn FnMut(&str, Option<&Arc<T>>, Option<&Arc<T>>) + 'a;

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> std::rc::Rc<str> {
        std::rc::Rc::from(s)
    }

    /// The view's (key, value) pairs at `rev`, counting how many values it worked out.
    fn read(view: &mut PrefixView<String>, e: &Etcd, rev: i64, derived: &mut usize) -> Vec<String> {
        view.at(e, rev, &mut |kv| {
            *derived += 1;
            format!("{}={}", kv.key, kv.value)
        })
        .map(|s| s.to_string())
        .collect()
    }

    #[test]
    fn moving_forward_and_back_works_out_only_the_keys_written_in_between() {
        let mut e = Etcd::new();
        for i in 0..50 {
            e.put(&format!("/p/{i:02}"), v("1"), 0).unwrap();
        }
        e.put("/q", v("other prefix"), 0).unwrap();
        let start = e.revision();
        e.put("/p/07", v("2"), 0).unwrap();
        e.delete("/p/08");
        e.put("/p/99", v("new"), 0).unwrap();
        e.put("/p/07", v("3"), 0).unwrap();
        let end = e.revision();

        let mut view = PrefixView::new("/p/");
        let mut derived = 0;
        let first = read(&mut view, &e, start, &mut derived);
        assert_eq!((first.len(), derived), (50, 50));

        derived = 0;
        let later = read(&mut view, &e, end, &mut derived);
        assert_eq!(
            derived, 2,
            "/p/07 and /p/99; the delete needs nothing worked out"
        );
        let fresh = read(&mut PrefixView::new("/p/"), &e, end, &mut 0);
        assert_eq!(later, fresh);
        assert!(
            later.contains(&"/p/07=3".to_string()) && !later.iter().any(|s| s.starts_with("/p/08"))
        );

        derived = 0;
        let back = read(&mut view, &e, start, &mut derived);
        assert_eq!(back, first, "back at the start, as it was");
        assert_eq!(derived, 2, "/p/07 and /p/08 as they were");

        derived = 0;
        read(&mut view, &e, start, &mut derived);
        assert_eq!(derived, 0, "the same revision again reads nothing");
    }

    /// The changes `update` reports on the way to `rev`, as `key: before -> after`.
    fn changes(view: &mut PrefixView<String>, e: &Etcd, rev: i64) -> Vec<String> {
        let mut seen = Vec::new();
        let show = |f: Option<&Arc<String>>| f.map_or("-".to_string(), |f| f.to_string());
        view.update(
            e,
            rev,
            &mut |kv| kv.value.to_string(),
            &mut |key, old, new| seen.push(format!("{key}: {} -> {}", show(old), show(new))),
        );
        seen
    }

    #[test]
    fn an_update_reports_each_key_whose_facts_it_replaced_both_ways() {
        let mut e = Etcd::new();
        e.put("/p/a", v("1"), 0).unwrap();
        e.put("/p/b", v("1"), 0).unwrap();
        let start = e.revision();
        e.put("/p/a", v("2"), 0).unwrap();
        e.delete("/p/b");
        e.put("/p/c", v("1"), 0).unwrap();
        let end = e.revision();

        let mut view = PrefixView::new("/p/");
        assert_eq!(
            changes(&mut view, &e, start),
            ["/p/a: - -> 1", "/p/b: - -> 1"]
        );
        assert_eq!(
            changes(&mut view, &e, end),
            ["/p/a: 1 -> 2", "/p/b: 1 -> -", "/p/c: - -> 1"]
        );
        assert!(changes(&mut view, &e, end).is_empty());
        assert_eq!(
            changes(&mut view, &e, start),
            ["/p/a: 2 -> 1", "/p/b: - -> 1", "/p/c: 1 -> -"]
        );
        // Read again from scratch (the change log compacted): only what differs is reported.
        changes(&mut view, &e, end);
        e.put("/p/c", v("2"), 0).unwrap();
        e.put("/p/d", v("1"), 0).unwrap();
        e.delete("/p/a");
        e.compact(e.revision()).unwrap();
        assert_eq!(
            changes(&mut view, &e, e.revision()),
            ["/p/c: 1 -> 2", "/p/d: - -> 1", "/p/a: 2 -> -"]
        );
    }

    #[test]
    fn a_compacted_change_log_reads_every_key_again_and_a_compacted_revision_shows_nothing() {
        let mut e = Etcd::new();
        e.put("/p/a", v("1"), 0).unwrap();
        e.put("/p/b", v("1"), 0).unwrap();
        let start = e.revision();
        let mut view = PrefixView::new("/p/");
        read(&mut view, &e, start, &mut 0);
        e.put("/p/a", v("2"), 0).unwrap();
        e.put("/p/c", v("1"), 0).unwrap();
        e.compact(e.revision()).unwrap();

        let mut derived = 0;
        let now = read(&mut view, &e, e.revision(), &mut derived);
        assert_eq!(now, ["/p/a=2", "/p/b=1", "/p/c=1"]);
        assert_eq!(
            derived, 2,
            "the unchanged /p/b is kept even when every key is read"
        );
        assert!(read(&mut view, &e, start, &mut 0).is_empty());
    }
}
