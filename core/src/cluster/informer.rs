//! Informers: a component's local cache of one resource, filled by a LIST and kept current by
//! a WATCH from the list's resourceVersion (client-go's reflector; kube-rs' `reflector::Store`).

use crate::api::json::JsonPointer;
use crate::api::{meta, Object};
use crate::apiserver::WatchEvent;
use std::collections::btree_map::Entry;
use std::collections::BTreeMap;
use std::rc::Rc;

/// An index function (client-go's `IndexFunc`): the index values an object is filed under.
pub type IndexFn = fn(&Object) -> Vec<String>;

/// client-go's `PodControllerUIDIndex`: pods by their controller's uid, orphans under
/// [`orphan_index_key`] of their namespace.
pub const CONTROLLER_UID_INDEX: &str = "podControllerUID";
/// Pods by `spec.nodeName` (the kubelet's and the scheduler's view of a node's pods).
pub const NODE_NAME_INDEX: &str = "spec.nodeName";

pub fn orphan_index_key(namespace: &str) -> String {
    format!("_ORPHAN_POD/{namespace}")
}

pub fn controller_uid_index(obj: &Object) -> Vec<String> {
    match meta::controller_ref(obj).and_then(|r| r["uid"].as_str()) {
        Some(uid) => vec![uid.to_string()],
        None => vec![orphan_index_key(meta::namespace(obj).unwrap_or(""))],
    }
}

pub fn node_name_index(obj: &Object) -> Vec<String> {
    match obj.lookup("/spec/nodeName").and_then(|v| v.as_str()) {
        Some(n) if !n.is_empty() => vec![n.to_string()],
        _ => Vec::new(),
    }
}

#[derive(Clone, Debug, Default)]
pub struct Informer {
    /// `namespace/name` (or `name`) to the latest object seen, shared with the watch event
    /// that brought it.
    objects: BTreeMap<String, Rc<Object>>,
    /// The resourceVersion the cache reflects.
    pub resource_version: i64,
    /// The apiserver watch feeding it.
    pub watch_id: u64,
    /// Index name to its function and its entries: index value to the objects filed under
    /// it, by key. The entries hold the objects themselves, so reading an index does not look
    /// each key up again in `objects` (a large map whose keys share long prefixes).
    indexes: BTreeMap<&'static str, (IndexFn, IndexEntries)>,
}

type IndexEntries = BTreeMap<String, BTreeMap<String, Rc<Object>>>;

/// The cache key client-go uses (`MetaNamespaceKeyFunc`).
pub fn key_of(obj: &Object) -> String {
    match meta::namespace(obj) {
        Some(ns) => [ns, "/", meta::name(obj)].concat(),
        None => meta::name(obj).to_string(),
    }
}

impl Informer {
    pub fn from_list(items: Vec<Object>, resource_version: i64) -> Self {
        Self::from_shared(items.into_iter().map(Rc::new).collect(), resource_version)
    }

    /// [`Informer::from_list`] of objects shared with the apiserver's watch cache.
    pub fn from_shared(items: Vec<Rc<Object>>, resource_version: i64) -> Self {
        Informer {
            objects: items.into_iter().map(|o| (key_of(&o), o)).collect(),
            resource_version,
            watch_id: 0,
            indexes: BTreeMap::new(),
        }
    }

    /// Adds an index and files every cached object in it.
    pub fn add_index(&mut self, name: &'static str, f: IndexFn) {
        let mut entries = IndexEntries::new();
        for (key, obj) in &self.objects {
            for v in f(obj) {
                entries
                    .entry(v)
                    .or_default()
                    .insert(key.clone(), Rc::clone(obj));
            }
        }
        self.indexes.insert(name, (f, entries));
    }

    /// The cached objects filed under `value` in index `name`, in key order. An unknown index
    /// gives nothing.
    pub fn by_index<'a>(
        &'a self,
        name: &str,
        value: &str,
    ) -> impl Iterator<Item = &'a Object> + 'a {
        self.indexes
            .get(name)
            .and_then(|(_, e)| e.get(value))
            .into_iter()
            .flat_map(|set| set.values())
            .map(|o| &**o)
    }

    /// [`Informer::by_index`] as shared copies.
    pub fn by_index_shared<'a>(
        &'a self,
        name: &str,
        value: &str,
    ) -> impl Iterator<Item = Rc<Object>> + 'a {
        self.indexes
            .get(name)
            .and_then(|(_, e)| e.get(value))
            .into_iter()
            .flat_map(|set| set.values())
            .cloned()
    }

    /// [`Informer::by_index`] with each object's cache key (in key order), so callers can
    /// sort or merge by it without formatting keys again.
    pub fn by_index_keyed<'a>(
        &'a self,
        name: &str,
        value: &str,
    ) -> impl Iterator<Item = (&'a str, &'a Rc<Object>)> + 'a {
        self.indexes
            .get(name)
            .and_then(|(_, e)| e.get(value))
            .into_iter()
            .flatten()
            .map(|(k, o)| (k.as_str(), o))
    }

    fn unindex(&mut self, key: &str) {
        let Some(old) = self.objects.get(key) else {
            return;
        };
        for (f, entries) in self.indexes.values_mut() {
            for v in f(old) {
                if let Some(set) = entries.get_mut(&v) {
                    set.remove(key);
                    if set.is_empty() {
                        entries.remove(&v);
                    }
                }
            }
        }
    }

    /// Applies one watch event to the cache.
    pub fn apply(&mut self, event: &WatchEvent) {
        let key = key_of(&event.object);
        match event.kind {
            "DELETED" => {
                self.unindex(&key);
                self.objects.remove(&key);
            }
            _ => {
                // One lookup for both the old version and the new one's slot.
                let slot = self.objects.entry(key);
                let (key, old) = match &slot {
                    Entry::Occupied(o) => (o.key(), Some(o.get())),
                    Entry::Vacant(v) => (v.key(), None),
                };
                for (f, entries) in self.indexes.values_mut() {
                    let now = f(&event.object);
                    let before = old.map(|o| f(o)).unwrap_or_default();
                    if old.is_some() && before == now {
                        // Filed under the same values: they hold the new version from now on.
                        for v in &now {
                            if let Some(o) = entries.get_mut(v).and_then(|set| set.get_mut(key)) {
                                *o = Rc::clone(&event.object);
                            }
                        }
                        continue;
                    }
                    for v in before {
                        if let Some(set) = entries.get_mut(&v) {
                            set.remove(key);
                            if set.is_empty() {
                                entries.remove(&v);
                            }
                        }
                    }
                    for v in now {
                        entries
                            .entry(v)
                            .or_default()
                            .insert(key.clone(), Rc::clone(&event.object));
                    }
                }
                match slot {
                    Entry::Occupied(mut o) => {
                        o.insert(Rc::clone(&event.object));
                    }
                    Entry::Vacant(v) => {
                        v.insert(Rc::clone(&event.object));
                    }
                }
            }
        }
        self.resource_version = self.resource_version.max(event.revision);
    }

    pub fn get(&self, key: &str) -> Option<&Object> {
        self.objects.get(key).map(|o| &**o)
    }

    /// The shared copy of a cached object: cheap to keep past the next event.
    pub fn get_shared(&self, key: &str) -> Option<Rc<Object>> {
        self.objects.get(key).cloned()
    }

    /// Every cached object, in key order.
    pub fn list(&self) -> impl Iterator<Item = &Object> {
        self.objects.values().map(|o| &**o)
    }

    /// Every cached object as a shared copy, in key order.
    pub fn list_shared(&self) -> impl Iterator<Item = Rc<Object>> + '_ {
        self.objects.values().cloned()
    }

    /// The cached objects of one namespace, in key order: a range of the `namespace/name`
    /// keys, not a scan of the whole cache.
    pub fn in_namespace<'a>(&'a self, ns: &'a str) -> impl Iterator<Item = &'a Object> + 'a {
        // '0' is the character after '/', so the range holds exactly the keys `ns/...`.
        self.objects
            .range(format!("{ns}/")..format!("{ns}0"))
            .map(|(_, o)| &**o)
            .filter(move |o| meta::namespace(o) == Some(ns))
    }

    /// [`Informer::in_namespace`] as the shared copies.
    pub fn in_namespace_shared<'a>(
        &'a self,
        ns: &'a str,
    ) -> impl Iterator<Item = &'a Rc<Object>> + 'a {
        self.objects
            .range(format!("{ns}/")..format!("{ns}0"))
            .map(|(_, o)| o)
            .filter(move |o| meta::namespace(o) == Some(ns))
    }

    pub fn len(&self) -> usize {
        self.objects.len()
    }

    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn applies_watch_events_in_order() {
        let mut inf = Informer::from_list(
            vec![json!({"metadata": {"name": "a", "namespace": "x"}})],
            5,
        );
        inf.apply(&WatchEvent {
            kind: "ADDED",
            object: Rc::new(json!({"metadata": {"name": "b", "namespace": "x"}})),
            revision: 6,
        });
        inf.apply(&WatchEvent {
            kind: "DELETED",
            object: Rc::new(json!({"metadata": {"name": "a", "namespace": "x"}})),
            revision: 7,
        });
        assert_eq!(inf.list().map(key_of).collect::<Vec<_>>(), vec!["x/b"]);
        assert_eq!(inf.resource_version, 7);
        assert!(inf.get("x/b").is_some());
    }

    #[test]
    fn indexes_follow_adds_changes_and_deletes() {
        let pod = |name: &str, node: &str| json!({"metadata": {"name": name, "namespace": "x"}, "spec": {"nodeName": node}});
        let mut inf = Informer::from_list(vec![pod("a", "n1"), pod("b", "n2")], 1);
        inf.add_index(NODE_NAME_INDEX, node_name_index);
        let on = |inf: &Informer, n: &str| {
            inf.by_index(NODE_NAME_INDEX, n)
                .map(key_of)
                .collect::<Vec<_>>()
        };
        assert_eq!(on(&inf, "n1"), vec!["x/a"]);
        inf.apply(&WatchEvent {
            kind: "MODIFIED",
            object: Rc::new(pod("b", "n1")),
            revision: 2,
        });
        assert_eq!(on(&inf, "n1"), vec!["x/a", "x/b"]);
        assert!(on(&inf, "n2").is_empty());
        inf.apply(&WatchEvent {
            kind: "DELETED",
            object: Rc::new(pod("a", "n1")),
            revision: 3,
        });
        assert_eq!(on(&inf, "n1"), vec!["x/b"]);
        assert!(inf.by_index("no-such-index", "n1").next().is_none());
        let orphan = json!({"metadata": {"name": "o", "namespace": "x"}});
        assert_eq!(controller_uid_index(&orphan), vec![orphan_index_key("x")]);
    }

    #[test]
    fn an_index_serves_the_latest_version_of_an_object_filed_under_the_same_value() {
        let pod = |phase: &str| json!({"metadata": {"name": "a", "namespace": "x"}, "spec": {"nodeName": "n1"}, "status": {"phase": phase}});
        let mut inf = Informer::from_list(vec![pod("Pending")], 1);
        inf.add_index(NODE_NAME_INDEX, node_name_index);
        inf.apply(&WatchEvent {
            kind: "MODIFIED",
            object: Rc::new(pod("Running")),
            revision: 2,
        });
        let phases = |inf: &Informer| {
            let by_index: Vec<_> = inf.by_index(NODE_NAME_INDEX, "n1").collect();
            let shared: Vec<_> = inf.by_index_shared(NODE_NAME_INDEX, "n1").collect();
            let keyed: Vec<_> = inf.by_index_keyed(NODE_NAME_INDEX, "n1").collect();
            assert_eq!(keyed[0].0, "x/a");
            [by_index[0], &*shared[0], &**keyed[0].1].map(|p| p["status"]["phase"].clone())
        };
        assert_eq!(
            phases(&inf),
            [json!("Running"), json!("Running"), json!("Running")]
        );
    }
}
