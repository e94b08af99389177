//! NodePorts: a pod's `hostPort`s must be free on the node (`plugins/nodeports`).

use crate::scheduler::framework::*;

pub const NAME: &str = "NodePorts";
pub const REASON: &str = "node(s) didn't have free ports for the requested pod ports";

pub struct NodePorts;

impl Plugin for NodePorts {
    fn name(&self) -> &'static str {
        NAME
    }
}

impl PreFilterPlugin for NodePorts {
    fn pre_filter(&self, _: &mut CycleState, pod: &PodInfo, _: &[NodeInfo]) -> Status {
        if pod.host_ports.is_empty() {
            Status::skip()
        } else {
            Status::success()
        }
    }
}

fn conflicts(a: &HostPort, b: &HostPort) -> bool {
    a.1 == b.1 && a.2 == b.2 && (a.0 == b.0 || a.0 == "0.0.0.0" || b.0 == "0.0.0.0")
}

impl FilterPlugin for NodePorts {
    fn filter(&self, _: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        if pod
            .host_ports
            .iter()
            .any(|p| node.used_ports.iter().any(|u| conflicts(p, u)))
        {
            Status::unschedulable(REASON)
        } else {
            Status::success()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn host_port_conflicts() {
        let p = |port: i64| {
            PodInfo::new(&json!({"metadata": {"name": "p"}, "spec": {"containers": [
                {"name": "c", "ports": [{"containerPort": 80, "hostPort": port}]}]}}))
        };
        let mut n = NodeInfo::with_allocatable("n", 1000, 1000);
        n.add_pod(p(8080));
        let st = CycleState::default();
        assert_eq!(
            NodePorts.filter(&st, &p(8080), &n),
            Status::unschedulable(REASON)
        );
        assert!(NodePorts.filter(&st, &p(8081), &n).is_success());
    }
}
