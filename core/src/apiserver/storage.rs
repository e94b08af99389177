//! The apiserver's storage layer over etcd (`staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go`):
//! objects are stored as JSON without `resourceVersion`; reads set it to the key's mod_revision.

use super::ObjectLister;
use crate::api::{meta, ApiError, Object, ResourceInfo};
use crate::etcd::{Compare, CompareResult, Etcd, EtcdError, KeyValue, Op, Txn};
use serde_json::Value;
use std::sync::Arc;

/// The result of a write: the object as stored (with its new resourceVersion) and the revision.
pub struct Written {
    pub object: Object,
    pub revision: i64,
    pub key: String,
}

pub struct Storage {
    pub etcd: Etcd,
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

fn encode(obj: &Object) -> Arc<str> {
    let mut stored = obj.clone();
    if let Some(m) = stored.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("resourceVersion");
    }
    Arc::from(serde_json::to_string(&stored).unwrap_or_default())
}

fn etcd_error(e: EtcdError) -> ApiError {
    match e {
        EtcdError::RequestTooLarge => ApiError::too_large(e.to_string()),
        other => ApiError::internal(other.to_string()),
    }
}

impl Storage {
    pub fn new() -> Self {
        Storage { etcd: Etcd::new() }
    }

    pub fn get(
        &self,
        info: &ResourceInfo,
        ns: Option<&str>,
        name: &str,
    ) -> Result<Object, ApiError> {
        let key = info.etcd_key(ns, name);
        match self.etcd.get(&key, None).map_err(etcd_error)? {
            Some(kv) => Ok(decode(&kv)),
            None => Err(ApiError::not_found(info.plural, info.group, name)),
        }
    }

    /// Every object under the list prefix, and the store revision the list was read at.
    pub fn list(&self, info: &ResourceInfo, ns: Option<&str>) -> (Vec<Object>, i64) {
        let prefix = info.etcd_list_prefix(ns);
        match self.etcd.range_prefix(&prefix, None, 0) {
            Ok(r) => (r.kvs.iter().map(decode).collect(), r.revision),
            Err(_) => (Vec::new(), self.etcd.revision()),
        }
    }

    /// One write as etcd3's store does it: a transaction whose compare is the key's
    /// mod_revision (`0` = the key must not exist), stamping the new resourceVersion.
    fn write(
        &mut self,
        key: String,
        expected_rev: i64,
        op: Op,
        obj: Object,
    ) -> Result<Option<Written>, ApiError> {
        let txn = Txn {
            compare: vec![Compare::mod_revision(
                key.clone(),
                CompareResult::Equal,
                expected_rev,
            )],
            success: vec![op],
            failure: vec![],
        };
        let resp = self.etcd.txn(txn).map_err(etcd_error)?;
        if !resp.succeeded {
            return Ok(None);
        }
        let mut object = obj;
        meta::set_meta(
            &mut object,
            "resourceVersion",
            Value::String(resp.revision.to_string()),
        );
        Ok(Some(Written {
            object,
            revision: resp.revision,
            key,
        }))
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
        let key = Self::key_of(info, &obj);
        let op = Op::Put {
            key: key.clone(),
            value: encode(&obj),
            lease,
        };
        let name = meta::name(&obj).to_string();
        self.write(key, 0, op, obj)?
            .ok_or_else(|| ApiError::already_exists(info.plural, info.group, &name))
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
        let op = Op::Put {
            key: key.clone(),
            value: encode(&obj),
            lease,
        };
        let name = meta::name(&obj).to_string();
        self.write(key, expected_rev, op, obj)?.ok_or_else(|| {
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
            .ok_or_else(|| {
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
}
