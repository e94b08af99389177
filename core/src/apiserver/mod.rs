//! kube-apiserver: authentication, authorization, admission, validation, persistence in etcd,
//! and watch fan-out. Every other component reaches the cluster only through it.

pub mod auth;
pub mod bootstrap;
pub mod defaults;
pub mod limitranger;
pub mod quota;
pub mod rbac;
pub mod validation;

use crate::api::{Object, ResourceInfo};

/// Read access to the objects the apiserver stores, as admission plugins and the RBAC
/// authorizer see them (the real ones read informer caches; the view is the same).
pub trait ObjectLister {
    /// Every object of `resource`, in one namespace or (with `None`) in all of them, in key order.
    fn list(&self, resource: &'static ResourceInfo, namespace: Option<&str>) -> Vec<Object>;
}
