//! NodeName: a pod that names its node (`spec.nodeName`) fits only there.

use crate::api::value::Value;
use crate::scheduler::framework::*;

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
        // Most pods name no node: PodInfo read that once, not for every node filtered.
        if !pod.names_node {
            return Status::success();
        }
        match pod.spec("nodeName").and_then(Value::as_str) {
            Some(n) if n != node.name => Status::unresolvable(REASON),
            _ => Status::success(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn a_pod_naming_a_node_fits_only_there() {
        let st = CycleState::default();
        let named = PodInfo::new(&json!({"metadata": {"name": "p"}, "spec": {"nodeName": "b"}}));
        let free = PodInfo::new(&json!({"metadata": {"name": "q"}, "spec": {"nodeName": ""}}));
        let (a, b) = (
            NodeInfo::new(&json!({"metadata": {"name": "a"}})),
            NodeInfo::new(&json!({"metadata": {"name": "b"}})),
        );
        assert_eq!(
            NodeName.filter(&st, &named, &a),
            Status::unresolvable(REASON)
        );
        assert!(NodeName.filter(&st, &named, &b).is_success());
        assert!(NodeName.filter(&st, &free, &a).is_success());
    }
}
