//! Informers: a component's local cache of one resource, filled by a LIST and kept current by
//! a WATCH from the list's resourceVersion (client-go's reflector; kube-rs' `reflector::Store`).

use crate::api::{meta, Object};
use crate::apiserver::WatchEvent;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default)]
pub struct Informer {
    /// `namespace/name` (or `name`) to the latest object seen.
    objects: BTreeMap<String, Object>,
    /// The resourceVersion the cache reflects.
    pub resource_version: i64,
    /// The apiserver watch feeding it.
    pub watch_id: u64,
}

/// The cache key client-go uses (`MetaNamespaceKeyFunc`).
pub fn key_of(obj: &Object) -> String {
    match meta::namespace(obj) {
        Some(ns) => format!("{ns}/{}", meta::name(obj)),
        None => meta::name(obj).to_string(),
    }
}

impl Informer {
    pub fn from_list(items: Vec<Object>, resource_version: i64) -> Self {
        Informer {
            objects: items.into_iter().map(|o| (key_of(&o), o)).collect(),
            resource_version,
            watch_id: 0,
        }
    }

    /// Applies one watch event to the cache.
    pub fn apply(&mut self, event: &WatchEvent) {
        let key = key_of(&event.object);
        match event.kind {
            "DELETED" => {
                self.objects.remove(&key);
            }
            _ => {
                self.objects.insert(key, event.object.clone());
            }
        }
        self.resource_version = self.resource_version.max(event.revision);
    }

    pub fn get(&self, key: &str) -> Option<&Object> {
        self.objects.get(key)
    }

    /// Every cached object, in key order.
    pub fn list(&self) -> impl Iterator<Item = &Object> {
        self.objects.values()
    }

    /// The cached objects of one namespace, in key order.
    pub fn in_namespace<'a>(&'a self, ns: &'a str) -> impl Iterator<Item = &'a Object> + 'a {
        self.objects
            .values()
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
    use serde_json::json;

    #[test]
    fn applies_watch_events_in_order() {
        let mut inf = Informer::from_list(
            vec![json!({"metadata": {"name": "a", "namespace": "x"}})],
            5,
        );
        inf.apply(&WatchEvent {
            kind: "ADDED",
            object: json!({"metadata": {"name": "b", "namespace": "x"}}),
            revision: 6,
        });
        inf.apply(&WatchEvent {
            kind: "DELETED",
            object: json!({"metadata": {"name": "a", "namespace": "x"}}),
            revision: 7,
        });
        assert_eq!(inf.list().map(key_of).collect::<Vec<_>>(), vec!["x/b"]);
        assert_eq!(inf.resource_version, 7);
        assert!(inf.get("x/b").is_some());
    }
}
