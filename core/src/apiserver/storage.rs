//! The apiserver's storage layer over etcd (`staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go`):
//! objects are stored as JSON without `resourceVersion`; reads set it to the key's mod_revision.

use super::ObjectLister;
use crate::api::json::JsonPointer;
use crate::api::value::Value;
use crate::api::{meta, ApiError, Object, ResourceInfo};
use crate::etcd::{Compare, CompareResult, Etcd, EtcdError, KeyValue, Op, Txn};
use crate::kernel::sharded::ShardedMap;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// The result of a write: the object as stored (with its new resourceVersion) and the revision.
pub struct Written {
    /// The object as stored, with its new resourceVersion: the one the watch cache holds.
    pub object: Rc<Object>,
    pub revision: i64,
    pub key: String,
}

pub struct Storage {
    pub etcd: Etcd,
    /// Pod keys (`namespace/name`) by `spec.nodeName`, and each pod's node: the Node
    /// authorizer's graph, kept as pods are written (the real one is fed by informers).
    pods_by_node: BTreeMap<String, BTreeSet<String>>,
    node_of_pod: BTreeMap<String, String>,
    /// Decoded values, so a stored value is turned back into an object once (see
    /// [`Storage::decode_shared`]).
    decoded: RefCell<Decoded>,
    /// The key prefixes the watch cache watches: only their values are kept decoded (the
    /// others are seldom read again).
    watched: Vec<String>,
}

/// One stored value and the object it decodes to (resourceVersion stamped).
struct DecodedValue {
    value: Rc<str>,
    mod_revision: i64,
    object: Rc<Object>,
}

/// Each key's latest decoded value, and the one it replaced during the current watch round
/// (the watch cache decodes it once more as the change's previous state).
#[derive(Default)]
struct Decoded {
    latest: ShardedMap<String, DecodedValue>,
    previous: ShardedMap<String, DecodedValue>,
}

impl DecodedValue {
    fn decodes(&self, kv: &KeyValue) -> bool {
        self.mod_revision == kv.mod_revision && Rc::ptr_eq(&self.value, &kv.value)
    }
}

/// Whether the JSON text of `v` parses back to exactly `v`: not when it holds a float (the
/// parser may round differently from the printer) or nests deeper than the parser allows.
fn round_trips(v: &Value, depth: usize) -> bool {
    if depth > 100 {
        return false;
    }
    match v {
        Value::Number(n) => !n.is_f64(),
        Value::Array(a) => a.iter().all(|x| round_trips(x, depth + 1)),
        Value::Object(m) => m.values().all(|x| round_trips(x, depth + 1)),
        _ => true,
    }
}

/// Decodes a stored value and stamps its resourceVersion.
pub fn decode(kv: &KeyValue) -> Object {
    let mut obj: Object = serde_json::from_str(&kv.value).unwrap_or(Value::Null);
    meta::set_meta(
        &mut obj,
        "resourceVersion",
        Value::String(kv.mod_revision.to_string()),
    );
    obj
}

thread_local! {
    static ENCODE_BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The stored form of `obj` and its JSON text.
fn encode(mut stored: Object) -> (Rc<str>, Object) {
    if let Some(m) = stored.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("resourceVersion");
        // ObjectMeta's maps and lists are `omitempty`: a patch that removes the last owner
        // reference or finalizer leaves no empty field behind.
        for field in ["labels", "annotations", "finalizers", "ownerReferences"] {
            let empty = match m.get(field) {
                Some(Value::Array(a)) => a.is_empty(),
                Some(Value::Object(o)) => o.is_empty(),
                Some(Value::Null) => true,
                _ => false,
            };
            if empty {
                m.remove(field);
            }
        }
    }
    // One buffer for every write: the text is copied once, into the Rc etcd keeps.
    let text = ENCODE_BUFFER.with(|b| {
        let mut out = b.borrow_mut();
        out.clear();
        crate::api::json::write_value(&mut out, &stored);
        Rc::from(std::str::from_utf8(&out).unwrap_or_default())
    });
    (text, stored)
}

fn etcd_error(e: EtcdError) -> ApiError {
    match e {
        EtcdError::RequestTooLarge => ApiError::too_large(e.to_string()),
        other => ApiError::internal(other.to_string()),
    }
}

impl Storage {
    pub fn new() -> Self {
        Storage {
            etcd: Etcd::new(),
            pods_by_node: BTreeMap::new(),
            node_of_pod: BTreeMap::new(),
            decoded: RefCell::new(Decoded::default()),
            watched: Vec::new(),
        }
    }

    /// The object a stored value decodes to, shared: decoded once per value, as
    /// [`decode`] would decode it.
    pub fn decode_shared(&self, kv: &KeyValue) -> Rc<Object> {
        if let Some(o) = self.cached(kv) {
            return o;
        }
        let object = Rc::new(decode(kv));
        if !self.is_watched(&kv.key) {
            return object;
        }
        let mut d = self.decoded.borrow_mut();
        let newer = d
            .latest
            .get(&kv.key)
            .is_none_or(|l| l.mod_revision < kv.mod_revision);
        if newer {
            d.latest.insert(
                kv.key.clone(),
                DecodedValue {
                    value: kv.value.clone(),
                    mod_revision: kv.mod_revision,
                    object: object.clone(),
                },
            );
        }
        object
    }

    /// The decoded object of a stored value, if it is at hand.
    pub fn cached(&self, kv: &KeyValue) -> Option<Rc<Object>> {
        let d = self.decoded.borrow();
        let found = [d.latest.get(&kv.key), d.previous.get(&kv.key)]
            .into_iter()
            .flatten()
            .find(|v| v.decodes(kv))
            .map(|v| v.object.clone());
        found
    }

    /// Keeps the values under `prefix` decoded from now on (the watch cache watches it).
    pub fn watch_prefix(&mut self, prefix: &str) {
        if !self.watched.iter().any(|p| p == prefix) {
            self.watched.push(prefix.to_string());
            self.etcd.hold_latest(prefix);
        }
    }

    fn is_watched(&self, key: &str) -> bool {
        self.watched.iter().any(|p| key.starts_with(p.as_str()))
    }

    /// Forgets the values replaced during the watch round that ended.
    pub fn end_watch_round(&mut self) {
        let d = self.decoded.get_mut();
        if !d.previous.is_empty() {
            d.previous.clear();
        }
    }

    /// A write of `value` (decoding to `stored`, its resourceVersion stamped) at `key` and
    /// `revision`, or a delete (`None`): the written object is known without decoding it.
    fn remember(&mut self, key: &str, written: Option<(Rc<str>, &Rc<Object>)>, revision: i64) {
        let watched = self.is_watched(key);
        let d = self.decoded.get_mut();
        if let Some(old) = d.latest.remove(key) {
            d.previous.insert(key.to_string(), old);
        }
        let Some((value, stored)) = written else {
            return;
        };
        if !watched || !round_trips(stored, 0) {
            return;
        }
        d.latest.insert(
            key.to_string(),
            DecodedValue {
                value,
                mod_revision: revision,
                object: Rc::clone(stored),
            },
        );
    }

    fn decode(&self, kv: &KeyValue) -> Object {
        Object::clone(&self.decode_shared(kv))
    }

    /// [`Storage::get`], shared.
    pub fn get_shared(
        &self,
        info: &ResourceInfo,
        ns: Option<&str>,
        name: &str,
    ) -> Result<Rc<Object>, ApiError> {
        let key = info.etcd_key(ns, name);
        match self.etcd.get(&key, None).map_err(etcd_error)? {
            Some(kv) => Ok(self.decode_shared(&kv)),
            None => Err(ApiError::not_found(info.plural, info.group, name)),
        }
    }

    pub fn get(
        &self,
        info: &ResourceInfo,
        ns: Option<&str>,
        name: &str,
    ) -> Result<Object, ApiError> {
        let key = info.etcd_key(ns, name);
        match self.etcd.get(&key, None).map_err(etcd_error)? {
            Some(kv) => Ok(self.decode(&kv)),
            None => Err(ApiError::not_found(info.plural, info.group, name)),
        }
    }

    /// Every object under the list prefix, and the store revision the list was read at.
    pub fn list(&self, info: &ResourceInfo, ns: Option<&str>) -> (Vec<Rc<Object>>, i64) {
        let prefix = info.etcd_list_prefix(ns);
        match self.etcd.range_prefix(&prefix, None, 0) {
            Ok(r) => (
                r.kvs.iter().map(|kv| self.decode_shared(kv)).collect(),
                r.revision,
            ),
            Err(_) => (Vec::new(), self.etcd.revision()),
        }
    }

    /// The object at one key (none or one), and the store revision.
    pub fn list_key(&self, key: &str) -> (Vec<Rc<Object>>, i64) {
        match self.etcd.get(key, None) {
            Ok(kv) => (
                kv.iter().map(|kv| self.decode_shared(kv)).collect(),
                self.etcd.revision(),
            ),
            Err(_) => (Vec::new(), self.etcd.revision()),
        }
    }

    /// The pods bound to `node` (in `ns` when given), by the node index, and the store revision.
    pub fn list_pods_on_node(&self, ns: Option<&str>, node: &str) -> (Vec<Rc<Object>>, i64) {
        let Some(pods) = crate::api::resources::for_kind("v1", "Pod") else {
            return (Vec::new(), self.etcd.revision());
        };
        // Read back from etcd, so a pod changed behind the apiserver's back (etcdctl) is
        // seen as it is now.
        let on_node = self
            .pods_by_node
            .get(node)
            .into_iter()
            .flatten()
            .filter_map(|key| key.split_once('/'))
            .filter(|(pod_ns, _)| ns.is_none_or(|want| want == *pod_ns))
            .filter_map(|(pod_ns, name)| self.get_shared(pods, Some(pod_ns), name).ok())
            .filter(|p| p.lookup("/spec/nodeName").and_then(Value::as_str) == Some(node))
            .collect();
        (on_node, self.etcd.revision())
    }

    /// One write as etcd3's store does it: a transaction whose compare is the key's
    /// mod_revision (`0` = the key must not exist), stamping the new resourceVersion. `obj`
    /// is what a put stores (as [`encode`] left it) or what a delete removes; it is handed
    /// back when the compare fails.
    fn write(
        &mut self,
        key: String,
        expected_rev: i64,
        op: Op,
        obj: Object,
    ) -> Result<Result<Written, Object>, ApiError> {
        let value = match &op {
            Op::Put { value, .. } => Some(value.clone()),
            _ => None,
        };
        let txn = Txn {
            compare: vec![Compare::mod_revision(
                key.clone(),
                CompareResult::Equal,
                expected_rev,
            )],
            success: vec![op],
            failure: vec![],
        };
        let op_kind = match &txn.success[0] {
            Op::Delete(_) => OpKind::Delete,
            _ => OpKind::Put,
        };
        let resp = self.etcd.txn(txn).map_err(etcd_error)?;
        if !resp.succeeded {
            return Ok(Err(obj));
        }
        if key.starts_with(PODS_PREFIX) {
            let deleted = matches!(op_kind, OpKind::Delete);
            self.index_pod(&obj, deleted);
        }
        let mut object = obj;
        meta::set_meta(
            &mut object,
            "resourceVersion",
            Value::String(resp.revision.to_string()),
        );
        // The response and the watch cache share the written object (no copy of it).
        let object = Rc::new(object);
        self.remember(&key, value.map(|v| (v, &object)), resp.revision);
        Ok(Ok(Written {
            object,
            revision: resp.revision,
            key,
        }))
    }

    fn index_pod(&mut self, pod: &Object, deleted: bool) {
        let key = format!("{}/{}", meta::namespace(pod).unwrap_or(""), meta::name(pod));
        if let Some(old) = self.node_of_pod.remove(&key) {
            if let Some(set) = self.pods_by_node.get_mut(&old) {
                set.remove(&key);
                if set.is_empty() {
                    self.pods_by_node.remove(&old);
                }
            }
        }
        let node = pod.lookup("/spec/nodeName").and_then(Value::as_str);
        if let (false, Some(node)) = (deleted, node.filter(|n| !n.is_empty())) {
            self.pods_by_node
                .entry(node.to_string())
                .or_default()
                .insert(key.clone());
            self.node_of_pod.insert(key, node.to_string());
        }
    }

    fn key_of(info: &ResourceInfo, obj: &Object) -> String {
        info.etcd_key(meta::namespace(obj), meta::name(obj))
    }

    /// Create-if-absent: a transaction whose compare is "the key does not exist".
    pub fn create(
        &mut self,
        info: &ResourceInfo,
        obj: Object,
        lease: i64,
    ) -> Result<Written, ApiError> {
        self.create_or_return(info, obj, lease).map_err(|(e, _)| e)
    }

    /// [`Storage::create`], handing the object back when the key exists.
    pub fn create_or_return(
        &mut self,
        info: &ResourceInfo,
        obj: Object,
        lease: i64,
    ) -> Result<Written, (ApiError, Option<Object>)> {
        let key = Self::key_of(info, &obj);
        let (value, stored) = encode(obj);
        let op = Op::Put {
            key: key.clone(),
            value,
            lease,
        };
        match self.write(key, 0, op, stored) {
            Ok(Ok(w)) => Ok(w),
            Ok(Err(obj)) => Err((
                ApiError::already_exists(info.plural, info.group, meta::name(&obj)),
                Some(obj),
            )),
            Err(e) => Err((e, None)),
        }
    }

    /// Compare-and-swap on the key's mod_revision (`GuaranteedUpdate`); the key keeps its lease.
    pub fn update(
        &mut self,
        info: &ResourceInfo,
        obj: Object,
        expected_rev: i64,
    ) -> Result<Written, ApiError> {
        let key = Self::key_of(info, &obj);
        let lease = self
            .etcd
            .get(&key, None)
            .ok()
            .flatten()
            .map(|kv| kv.lease)
            .unwrap_or(0);
        let name = meta::name(&obj).to_string();
        let (value, stored) = encode(obj);
        let op = Op::Put {
            key: key.clone(),
            value,
            lease,
        };
        self.write(key, expected_rev, op, stored)?.map_err(|_| {
            ApiError::conflict(info.plural, info.group, &name, ApiError::OPTIMISTIC_LOCK)
        })
    }

    /// Deletes the key if its mod_revision is still `expected_rev`.
    pub fn delete(
        &mut self,
        info: &ResourceInfo,
        obj: &Object,
        expected_rev: i64,
    ) -> Result<Written, ApiError> {
        let key = Self::key_of(info, obj);
        let op = Op::Delete(key.clone());
        self.write(key, expected_rev, op, obj.clone())?
            .map_err(|_| {
                ApiError::conflict(
                    info.plural,
                    info.group,
                    meta::name(obj),
                    ApiError::OPTIMISTIC_LOCK,
                )
            })
    }
}

impl Default for Storage {
    fn default() -> Self {
        Self::new()
    }
}

impl ObjectLister for Storage {
    fn list(&self, resource: &'static ResourceInfo, namespace: Option<&str>) -> Vec<Object> {
        let items = Storage::list(self, resource, namespace).0;
        items.into_iter().map(Rc::unwrap_or_clone).collect()
    }

    fn list_shared(
        &self,
        resource: &'static ResourceInfo,
        namespace: Option<&str>,
    ) -> Vec<Rc<Object>> {
        Storage::list(self, resource, namespace).0
    }

    fn get(
        &self,
        resource: &'static ResourceInfo,
        namespace: Option<&str>,
        name: &str,
    ) -> Option<Object> {
        Storage::get(self, resource, namespace, name).ok()
    }

    fn get_shared(
        &self,
        resource: &'static ResourceInfo,
        namespace: Option<&str>,
        name: &str,
    ) -> Option<Rc<Object>> {
        Storage::get_shared(self, resource, namespace, name).ok()
    }

    fn pods_on_node(&self, namespace: Option<&str>, node: &str) -> Vec<Object> {
        let pods = self.list_pods_on_node(namespace, node).0;
        pods.into_iter().map(Rc::unwrap_or_clone).collect()
    }
}

const PODS_PREFIX: &str = "/registry/pods/";

enum OpKind {
    Put,
    Delete,
}
