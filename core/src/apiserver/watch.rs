//! Watches for API clients: an etcd watch on a resource's key prefix, turned into
//! ADDED/MODIFIED/DELETED events of objects, filtered by label and field selectors.

use super::storage::decode;
use crate::api::selector::Selector;
use crate::api::{meta, Object, ResourceInfo};
use crate::etcd::{EventKind, KeyValue, WatchId};
use std::collections::HashMap;
use std::sync::Arc;

/// One event as a client receives it. The object is shared: every watcher of a change gets the
/// same decoded value, as the apiserver's watch cache serves one decoded object to all of them.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchEvent {
    /// `ADDED`, `MODIFIED` or `DELETED`.
    pub kind: &'static str,
    pub object: Arc<Object>,
    pub revision: i64,
}

/// Decoded objects by key and revision, so a change watched by many clients is decoded once.
#[derive(Default)]
pub struct DecodeCache {
    objects: HashMap<(i64, String), Arc<Object>>,
}

impl DecodeCache {
    /// Enough for every change of one delivery round; older entries are dropped wholesale.
    const CAPACITY: usize = 8192;

    pub fn get(&mut self, kv: &KeyValue) -> Arc<Object> {
        if let Some(o) = self.objects.get(&(kv.mod_revision, kv.key.clone())) {
            return o.clone();
        }
        if self.objects.len() >= Self::CAPACITY {
            self.objects.clear();
        }
        let o = Arc::new(decode(kv));
        self.objects
            .insert((kv.mod_revision, kv.key.clone()), o.clone());
        o
    }
}

pub struct ClientWatch {
    pub resource: &'static ResourceInfo,
    pub namespace: Option<String>,
    pub labels: Selector,
    pub fields: Option<FieldSelector>,
    pub etcd_watch: WatchId,
    pub client: String,
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

    pub fn matches(&self, obj: &Object) -> bool {
        self.terms.iter().all(|(path, eq, value)| {
            let mut cur = Some(obj);
            for p in path {
                cur = cur.and_then(|c| c.get(p));
            }
            let actual = match cur {
                Some(serde_json::Value::String(s)) => s.clone(),
                Some(serde_json::Value::Null) | None => String::new(),
                Some(other) => other.to_string(),
            };
            (actual == *value) == *eq
        })
    }
}

impl ClientWatch {
    fn selects(&self, obj: &Object) -> bool {
        self.labels.matches(meta::labels(obj))
            && self.fields.as_ref().is_none_or(|f| f.matches(obj))
    }

    /// Turns the etcd events of this watch into API watch events.
    pub fn translate(
        &self,
        events: Vec<crate::etcd::WatchEvent>,
        cache: &mut DecodeCache,
    ) -> Vec<WatchEvent> {
        let mut out = Vec::new();
        for e in events {
            let rev = e.revision();
            let prev = e.prev_kv.as_ref().map(|kv| cache.get(kv));
            let prev_selected = prev.as_ref().is_some_and(|p| self.selects(p));
            match e.kind {
                EventKind::Put => {
                    let obj = cache.get(&e.kv);
                    let now_selected = self.selects(&obj);
                    let kind = match (prev.is_some(), prev_selected, now_selected) {
                        (_, true, true) => "MODIFIED",
                        (_, false, true) => "ADDED",
                        (true, true, false) => "DELETED",
                        _ => continue,
                    };
                    out.push(WatchEvent {
                        kind,
                        object: obj,
                        revision: rev,
                    });
                }
                EventKind::Delete => {
                    if let Some(mut p) = prev {
                        if prev_selected {
                            meta::set_meta(
                                Arc::make_mut(&mut p),
                                "resourceVersion",
                                rev.to_string().into(),
                            );
                            out.push(WatchEvent {
                                kind: "DELETED",
                                object: p,
                                revision: rev,
                            });
                        }
                    }
                }
            }
        }
        out
    }
}
