//! DefaultBinder: binds the pod by creating its `binding` subresource; kube-apiserver sets
//! `spec.nodeName` and `PodScheduled=True` (`plugins/defaultbinder`).

use crate::api::{meta, resources::for_kind, ApiError, Object};
use crate::apiserver::Verb;
use crate::cluster::component::Ctx;
use crate::json;

pub const NAME: &str = "DefaultBinder";

pub struct DefaultBinder;

/// The `Binding` object for `POST pods/<name>/binding`.
pub fn binding(pod: &Object, node: &str) -> Object {
    json!({
        "apiVersion": "v1",
        "kind": "Binding",
        "metadata": {"name": meta::name(pod), "namespace": meta::namespace(pod).unwrap_or("default")},
        "target": {"apiVersion": "v1", "kind": "Node", "name": node},
    })
}

impl DefaultBinder {
    pub fn bind(&self, ctx: &mut Ctx<'_>, pod: &Object, node: &str) -> Result<Object, ApiError> {
        let info = for_kind("v1", "Pod").expect("pods");
        let req = ctx
            .request(Verb::Create, info)
            .namespace(meta::namespace(pod))
            .name(meta::name(pod))
            .subresource("binding")
            .body(binding(pod, node));
        ctx.send(&req)
    }
}
