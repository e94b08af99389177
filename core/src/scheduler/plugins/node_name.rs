//! NodeName: a pod that names its node (`spec.nodeName`) fits only there.

use crate::scheduler::framework::*;
use serde_json::Value;

pub const NAME: &str = "NodeName";
pub const REASON: &str = "node(s) didn't match the requested node name";

pub struct NodeName;

impl Plugin for NodeName {
    fn name(&self) -> &'static str {
        NAME
    }
}

impl FilterPlugin for NodeName {
    fn filter(&self, _: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        match pod.spec("nodeName").and_then(Value::as_str) {
            Some(n) if !n.is_empty() && n != node.name => Status::unresolvable(REASON),
            _ => Status::success(),
        }
    }
}
