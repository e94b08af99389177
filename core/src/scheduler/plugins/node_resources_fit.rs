//! NodeResourcesFit: the pod's cpu, memory and pod-count requests must fit in what the
//! node's pods leave of its allocatable; feasible nodes are scored with the LeastAllocated
//! strategy (`plugins/noderesources/fit.go`, `least_allocated.go`).

use crate::scheduler::framework::*;

pub const NAME: &str = "NodeResourcesFit";

/// A resource the scoring strategy weighs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceName {
    Cpu,
    Memory,
}

pub struct NodeResourcesFit {
    /// `scoringStrategy.resources`: cpu 1 and memory 1 by default.
    pub resources: Vec<(ResourceName, i64)>,
}

impl Default for NodeResourcesFit {
    fn default() -> Self {
        NodeResourcesFit {
            resources: vec![(ResourceName::Cpu, 1), (ResourceName::Memory, 1)],
        }
    }
}

impl Plugin for NodeResourcesFit {
    fn name(&self) -> &'static str {
        NAME
    }
}

impl PreFilterPlugin for NodeResourcesFit {
    fn pre_filter(&self, _: &mut CycleState, _: &PodInfo, _: &[NodeInfo]) -> Status {
        // The pod's requests are computed once, in PodInfo.
        Status::success()
    }
}

/// The reasons the pod does not fit on the node (`fitsRequest`), in Kubernetes' order.
pub fn insufficient(pod: &PodInfo, node: &NodeInfo) -> Vec<&'static str> {
    let mut out = Vec::new();
    if node.pods.len() as i64 + 1 > node.allocatable.pods {
        out.push("Too many pods");
    }
    let r = &pod.requests;
    if r.milli_cpu > 0 && r.milli_cpu > node.allocatable.milli_cpu - node.requested.milli_cpu {
        out.push("Insufficient cpu");
    }
    if r.memory > 0 && r.memory > node.allocatable.memory - node.requested.memory {
        out.push("Insufficient memory");
    }
    out
}

impl FilterPlugin for NodeResourcesFit {
    fn filter(&self, _: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        let reasons = insufficient(pod, node);
        if reasons.is_empty() {
            Status::success()
        } else {
            Status::new(Code::Unschedulable, &reasons)
        }
    }
}

/// `leastRequestedScore`: the free share of one resource, 0..=100, integer division.
pub fn least_requested_score(requested: i64, capacity: i64) -> i64 {
    if capacity == 0 || requested > capacity {
        return 0;
    }
    (capacity - requested) * MAX_NODE_SCORE / capacity
}

impl NodeResourcesFit {
    /// LeastAllocated over the non-zero requests of the node's pods plus the incoming pod.
    pub fn least_allocated(&self, pod: &PodInfo, node: &NodeInfo) -> i64 {
        let (mut score, mut weights) = (0, 0);
        for &(r, w) in &self.resources {
            let (alloc, req) = match r {
                ResourceName::Cpu => (
                    node.allocatable.milli_cpu,
                    node.non_zero_requested.milli_cpu + pod.non_zero.milli_cpu,
                ),
                ResourceName::Memory => (
                    node.allocatable.memory,
                    node.non_zero_requested.memory + pod.non_zero.memory,
                ),
            };
            if alloc == 0 {
                continue;
            }
            score += least_requested_score(req, alloc) * w;
            weights += w;
        }
        if weights == 0 {
            0
        } else {
            score / weights
        }
    }
}

impl ScorePlugin for NodeResourcesFit {
    fn score(&self, _: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
        Ok(self.least_allocated(pod, node))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::api::value::{json, Value};

    /// A pod whose containers request these (cpu millicores, memory bytes); none: no containers.
    pub fn pod(containers: &[(i64, i64)]) -> PodInfo {
        let cs: Vec<Value> = containers
            .iter()
            .enumerate()
            .map(|(i, (c, m))| {
                json!({"name": format!("c{i}"), "resources": {"requests": {"cpu": format!("{c}m"), "memory": format!("{m}")}}})
            })
            .collect();
        PodInfo::new(
            &json!({"metadata": {"name": "p", "namespace": "default"}, "spec": {"containers": cs}}),
        )
    }

    pub fn node(cpu: i64, mem: i64, existing: &[&[(i64, i64)]]) -> NodeInfo {
        let mut n = NodeInfo::with_allocatable("n", cpu, mem);
        for e in existing {
            n.add_pod(pod(e));
        }
        n
    }

    const CPU_AND_MEMORY: &[(i64, i64)] = &[(1000, 2000), (2000, 3000)];
    const CPU_ONLY: &[(i64, i64)] = &[(1000, 0), (2000, 0)];

    fn scores(fit: &NodeResourcesFit, p: &PodInfo, nodes: &[NodeInfo]) -> Vec<i64> {
        nodes.iter().map(|n| fit.least_allocated(p, n)).collect()
    }

    #[test]
    fn least_allocated_table() {
        let fit = NodeResourcesFit::default();
        // 1. cpuAndMemory on empty nodes.
        let p = pod(CPU_AND_MEMORY);
        assert_eq!(
            scores(&fit, &p, &[node(4000, 10000, &[]), node(6000, 10000, &[])]),
            [37, 50]
        );
        // 2. Nothing requested; existing cpuOnly x2 and cpuOnly + cpuAndMemory.
        let none = pod(&[]);
        let n1 = node(10000, 20000, &[CPU_ONLY, CPU_ONLY]);
        let n2 = node(10000, 20000, &[CPU_ONLY, CPU_AND_MEMORY]);
        assert_eq!(scores(&fit, &none, &[n1, n2]), [70, 57]);
        // 3. cpuAndMemory; existing cpuOnly and cpuAndMemory.
        let n1 = node(10000, 20000, &[CPU_ONLY]);
        let n2 = node(10000, 20000, &[CPU_AND_MEMORY]);
        assert_eq!(scores(&fit, &p, &[n1.clone(), n2]), [57, 45]);
        // 4. As 3, node2 with 50000 memory.
        let n2 = node(10000, 50000, &[CPU_AND_MEMORY]);
        assert_eq!(scores(&fit, &p, &[n1, n2]), [57, 60]);
        // 5. Requests over capacity.
        let cpu_only = pod(CPU_ONLY);
        let n1 = node(4000, 10000, &[CPU_ONLY]);
        let n2 = node(4000, 10000, &[CPU_AND_MEMORY]);
        assert_eq!(scores(&fit, &cpu_only, &[n1, n2]), [50, 25]);
        // 6. Memory weighs 2.
        let weighted = NodeResourcesFit {
            resources: vec![(ResourceName::Cpu, 1), (ResourceName::Memory, 2)],
        };
        assert_eq!(
            scores(
                &weighted,
                &p,
                &[node(4000, 10000, &[]), node(6000, 10000, &[])]
            ),
            [41, 50]
        );
        // 7. Nothing requested on empty nodes.
        assert_eq!(
            scores(
                &fit,
                &none,
                &[node(4000, 10000, &[]), node(4000, 10000, &[])]
            ),
            [100, 100]
        );
    }

    #[test]
    fn filter_reasons() {
        let fit = NodeResourcesFit::default();
        let st = CycleState::default();
        let big = pod(&[(5000, 20000)]);
        let s = fit.filter(&st, &big, &node(4000, 10000, &[]));
        assert_eq!(s.code, Code::Unschedulable);
        assert_eq!(s.reasons, ["Insufficient cpu", "Insufficient memory"]);
        let mut full = node(4000, 10000, &[]);
        full.allocatable.pods = 0;
        assert_eq!(fit.filter(&st, &pod(&[]), &full).reasons, ["Too many pods"]);
        assert!(fit
            .filter(&st, &pod(&[(4000, 10000)]), &node(4000, 10000, &[]))
            .is_success());
    }
}
