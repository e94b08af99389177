//! NodeUnschedulable: a cordoned node (`spec.unschedulable`) takes no new pods unless they
//! tolerate `node.kubernetes.io/unschedulable:NoSchedule`.

use crate::json;
use crate::scheduler::framework::*;

pub const NAME: &str = "NodeUnschedulable";
pub const REASON: &str = "node(s) were unschedulable";

pub struct NodeUnschedulable;

impl Plugin for NodeUnschedulable {
    fn name(&self) -> &'static str {
        NAME
    }
}

impl FilterPlugin for NodeUnschedulable {
    fn filter(&self, _: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        if !node.unschedulable {
            return Status::success();
        }
        let taint = json!({"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"});
        if tolerations(pod).iter().any(|t| tolerates(t, &taint)) {
            Status::success()
        } else {
            Status::unresolvable(REASON)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cordoned_node_is_rejected_unless_tolerated() {
        let node =
            NodeInfo::new(&json!({"metadata": {"name": "n"}, "spec": {"unschedulable": true}}));
        let pod = PodInfo::new(&json!({"metadata": {"name": "p"}, "spec": {"containers": []}}));
        let s = NodeUnschedulable.filter(&CycleState::default(), &pod, &node);
        assert_eq!(s, Status::unresolvable(REASON));
        let tolerant = PodInfo::new(&json!({"metadata": {"name": "p"}, "spec": {"tolerations": [
            {"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"}]}}));
        assert!(NodeUnschedulable
            .filter(&CycleState::default(), &tolerant, &node)
            .is_success());
    }
}
