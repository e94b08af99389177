//! Watches for API clients, served as kube-apiserver's watch cache serves them: one etcd watch
//! per resource (the cacher), its changes decoded once and dispatched to the client watches
//! they concern as ADDED/MODIFIED/DELETED events, filtered by namespace, labels and fields.
//! Client watches selecting one pod node (`spec.nodeName=`, the kubelets) or one object name
//! (`metadata.name=`) are indexed by that value, so a change is offered only to the watches of
//! its node or name and to the unindexed ones, as the cacher's trigger function does.

use super::storage::Storage;
use crate::api::json::JsonPointer;
use crate::api::selector::Selector;
use crate::api::{meta, Object, ResourceInfo};
use crate::etcd::{EventKind, KeyValue, WatchId};
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeSet;
use std::rc::Rc;

/// One event as a client receives it. The object is shared: every watcher of a change gets the
/// same decoded value, as the apiserver's watch cache serves one decoded object to all of them.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchEvent {
    /// `ADDED`, `MODIFIED` or `DELETED`.
    pub kind: &'static str,
    pub object: Rc<Object>,
    pub revision: i64,
}

/// Decoded objects by key and revision, so a change watched by many clients is decoded once.
#[derive(Default)]
pub struct DecodeCache {
    objects: HashMap<(i64, String), Rc<Object>>,
}

impl DecodeCache {
    /// Enough for every change of one delivery round; older entries are dropped wholesale.
    const CAPACITY: usize = 8192;

    pub fn get(&mut self, kv: &KeyValue, storage: &Storage) -> Rc<Object> {
        if let Some(o) = storage.cached(kv) {
            return o;
        }
        if let Some(o) = self.objects.get(&(kv.mod_revision, kv.key.clone())) {
            return o.clone();
        }
        if self.objects.len() >= Self::CAPACITY {
            self.objects.clear();
        }
        let o = storage.decode_shared(kv);
        self.objects
            .insert((kv.mod_revision, kv.key.clone()), o.clone());
        o
    }
}

/// A field selector such as `spec.nodeName=node-1,status.phase!=Succeeded`.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldSelector {
    terms: Vec<(Vec<String>, bool, String)>,
}

impl FieldSelector {
    pub fn parse(s: &str) -> Result<FieldSelector, String> {
        let mut terms = Vec::new();
        for t in s.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            let (path, eq, value) = if let Some((p, v)) = t.split_once("!=") {
                (p, false, v)
            } else if let Some((p, v)) = t.split_once("==").or_else(|| t.split_once('=')) {
                (p, true, v)
            } else {
                return Err(format!("invalid selector: '{t}'; can't understand '{t}'"));
            };
            terms.push((
                path.trim().split('.').map(str::to_string).collect(),
                eq,
                value.trim().to_string(),
            ));
        }
        Ok(FieldSelector { terms })
    }

    /// The value a `path=value` term requires, if the selector has one; lets a list be
    /// answered from an index instead of a scan.
    pub fn required(&self, path: &str) -> Option<&str> {
        self.terms
            .iter()
            .find(|(p, eq, _)| *eq && p.iter().map(String::as_str).eq(path.split('.')))
            .map(|(_, _, v)| v.as_str())
    }

    pub fn matches(&self, obj: &Object) -> bool {
        self.terms.iter().all(|(path, eq, value)| {
            let mut cur = Some(obj);
            for p in path {
                cur = cur.and_then(|c| c.get(p));
            }
            let actual = match cur {
                Some(crate::api::value::Value::String(s)) => s.clone(),
                Some(crate::api::value::Value::Null) | None => String::new(),
                Some(other) => other.to_string(),
            };
            (actual == *value) == *eq
        })
    }
}

/// One client's watch: what it selects and the events waiting for it.
pub struct ClientWatch {
    pub resource: &'static ResourceInfo,
    pub namespace: Option<String>,
    pub labels: Selector,
    pub fields: Option<FieldSelector>,
    pub client: String,
    /// The keys it covers (the resource, or one namespace of it).
    key_prefix: String,
    /// Changes before this revision are not for this watch.
    start_revision: i64,
    /// The value of the cacher's trigger field this watch requires, if any.
    trigger: Option<String>,
    pending: Vec<WatchEvent>,
}

impl ClientWatch {
    pub fn new(
        resource: &'static ResourceInfo,
        namespace: Option<String>,
        labels: Selector,
        fields: Option<FieldSelector>,
        client: String,
        start_revision: i64,
    ) -> Self {
        let trigger = fields
            .as_ref()
            .and_then(|f| f.required(trigger_field(resource)))
            .map(str::to_string);
        ClientWatch {
            key_prefix: resource.etcd_list_prefix(namespace.as_deref()),
            resource,
            namespace,
            labels,
            fields,
            client,
            start_revision,
            trigger,
            pending: Vec::new(),
        }
    }

    fn selects(&self, obj: &Object) -> bool {
        self.labels.matches(meta::labels(obj))
            && self.fields.as_ref().is_none_or(|f| f.matches(obj))
    }

    /// Queues the client event one change means for this watch, if any: an object entering
    /// the selection is ADDED, leaving it DELETED, staying in it MODIFIED. True if it queued one.
    fn offer(&mut self, change: &Change) -> bool {
        if change.revision < self.start_revision || !change.key.starts_with(&self.key_prefix) {
            return false;
        }
        let prev_selected = change.prev.as_ref().is_some_and(|p| self.selects(p));
        let event = match &change.object {
            Some(obj) => {
                let now_selected = self.selects(obj);
                let kind = match (change.prev.is_some(), prev_selected, now_selected) {
                    (_, true, true) => "MODIFIED",
                    (_, false, true) => "ADDED",
                    (true, true, false) => "DELETED",
                    _ => return false,
                };
                WatchEvent {
                    kind,
                    object: obj.clone(),
                    revision: change.revision,
                }
            }
            None => match &change.deleted {
                Some(gone) if prev_selected => WatchEvent {
                    kind: "DELETED",
                    object: gone.clone(),
                    revision: change.revision,
                },
                _ => return false,
            },
        };
        self.pending.push(event);
        true
    }

    /// The events waiting, in revision order; each is handed out once.
    pub fn take(&mut self) -> Vec<WatchEvent> {
        std::mem::take(&mut self.pending)
    }

    pub fn has_events(&self) -> bool {
        !self.pending.is_empty()
    }
}

/// The field the cacher indexes client watches by: a pod's node, or any object's name.
fn trigger_field(resource: &ResourceInfo) -> &'static str {
    if resource.kind == "Pod" && resource.group.is_empty() {
        "spec.nodeName"
    } else {
        "metadata.name"
    }
}

fn trigger_value<'a>(resource: &ResourceInfo, obj: &'a Object) -> &'a str {
    if resource.kind == "Pod" && resource.group.is_empty() {
        obj.lookup("/spec/nodeName")
            .and_then(|v| v.as_str())
            .unwrap_or("")
    } else {
        meta::name(obj)
    }
}

/// One etcd change, decoded once for every client watch it is offered to.
struct Change {
    key: String,
    revision: i64,
    /// The object after a put; none after a delete.
    object: Option<Rc<Object>>,
    prev: Option<Rc<Object>>,
    /// After a delete, the last state stamped with the delete's revision.
    deleted: Option<Rc<Object>>,
}

impl Change {
    fn decode(e: crate::etcd::WatchEvent, cache: &mut DecodeCache, storage: &Storage) -> Change {
        let revision = e.revision();
        let prev = e.prev_kv.as_ref().map(|kv| cache.get(kv, storage));
        let (object, deleted) = match e.kind {
            EventKind::Put => (Some(cache.get(&e.kv, storage)), None),
            EventKind::Delete => {
                let gone = prev.as_ref().map(|p| {
                    let mut p = Object::clone(p);
                    meta::set_meta(&mut p, "resourceVersion", revision.to_string().into());
                    Rc::new(p)
                });
                (None, gone)
            }
        };
        Change {
            key: e.kv.key,
            revision,
            object,
            prev,
            deleted,
        }
    }
}

/// The watch cache of one resource: its etcd watch and the client watches it serves.
pub struct Cacher {
    resource: &'static ResourceInfo,
    etcd_watch: WatchId,
    by_trigger: HashMap<String, BTreeSet<u64>>,
    untriggered: BTreeSet<u64>,
}

impl Cacher {
    pub fn new(resource: &'static ResourceInfo, etcd_watch: WatchId) -> Self {
        Cacher {
            resource,
            etcd_watch,
            by_trigger: HashMap::default(),
            untriggered: BTreeSet::new(),
        }
    }

    pub fn etcd_watch(&self) -> WatchId {
        self.etcd_watch
    }

    pub fn add(&mut self, id: u64, watch: &ClientWatch) {
        match &watch.trigger {
            Some(t) => {
                self.by_trigger.entry(t.clone()).or_default().insert(id);
            }
            None => {
                self.untriggered.insert(id);
            }
        }
    }

    pub fn remove(&mut self, id: u64, watch: &ClientWatch) {
        match &watch.trigger {
            Some(t) => {
                if let Some(set) = self.by_trigger.get_mut(t) {
                    set.remove(&id);
                    if set.is_empty() {
                        self.by_trigger.remove(t);
                    }
                }
            }
            None => {
                self.untriggered.remove(&id);
            }
        }
    }

    /// Offers each etcd change to the client watches it may concern.
    pub fn dispatch(
        &self,
        events: Vec<crate::etcd::WatchEvent>,
        watches: &mut std::collections::BTreeMap<u64, ClientWatch>,
        ready: &mut BTreeSet<u64>,
        cache: &mut DecodeCache,
        storage: &Storage,
    ) {
        if self.by_trigger.is_empty() && self.untriggered.is_empty() {
            return;
        }
        for e in events {
            let change = Change::decode(e, cache, storage);
            // Each watch keeps its own queue, so the order they are offered in does not
            // matter; a watch is offered a change once even when the object's node or name is
            // the same before and after.
            let now = change
                .object
                .as_ref()
                .map(|o| trigger_value(self.resource, o));
            let before = change
                .prev
                .as_ref()
                .map(|o| trigger_value(self.resource, o));
            let mut values = vec![now, before.filter(|b| Some(*b) != now)];
            values.retain(Option::is_some);
            let triggered = values
                .into_iter()
                .flatten()
                .filter_map(|v| self.by_trigger.get(v))
                .flatten();
            for id in self.untriggered.iter().chain(triggered) {
                if watches.get_mut(id).is_some_and(|w| w.offer(&change)) {
                    ready.insert(*id);
                }
            }
        }
    }

    /// A client watch's history: the stored changes since `start`, as it would have seen them.
    pub fn replay(
        watch: &mut ClientWatch,
        history: Vec<crate::etcd::WatchEvent>,
        cache: &mut DecodeCache,
        storage: &Storage,
    ) {
        for e in history {
            let _ = watch.offer(&Change::decode(e, cache, storage));
        }
    }
}
