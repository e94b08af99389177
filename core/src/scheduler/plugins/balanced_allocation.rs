//! NodeResourcesBalancedAllocation: favours nodes whose cpu and memory would be used in
//! similar proportions (`plugins/noderesources/balanced_allocation.go`).

use crate::scheduler::framework::*;

pub const NAME: &str = "NodeResourcesBalancedAllocation";

pub struct BalancedAllocation;

impl Plugin for BalancedAllocation {
    fn name(&self) -> &'static str {
        NAME
    }
}

impl PreScorePlugin for BalancedAllocation {
    fn pre_score(
        &self,
        _: &mut CycleState,
        pod: &PodInfo,
        _: &[&NodeInfo],
        _: &[NodeInfo],
    ) -> Status {
        // Best-effort pods are not scored, so they do not all pile onto one node.
        if pod.requests.milli_cpu == 0 && pod.requests.memory == 0 {
            Status::skip()
        } else {
            Status::success()
        }
    }
}

/// `balancedResourceScorer` over (requested, allocatable) pairs.
pub fn balanced_score(pairs: &[(i64, i64)]) -> i64 {
    let fractions: Vec<f64> = pairs
        .iter()
        .filter(|(_, a)| *a != 0)
        .map(|&(r, a)| (r as f64 / a as f64).min(1.0))
        .collect();
    let std = match fractions.len() {
        0 | 1 => 0.0,
        2 => ((fractions[0] - fractions[1]) / 2.0).abs(),
        n => {
            let mean = fractions.iter().sum::<f64>() / n as f64;
            (fractions
                .iter()
                .map(|f| (f - mean) * (f - mean))
                .sum::<f64>()
                / n as f64)
                .sqrt()
        }
    };
    ((1.0 - std) * MAX_NODE_SCORE as f64) as i64
}

impl ScorePlugin for BalancedAllocation {
    fn score(&self, _: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
        // Real requests (useRequested), the incoming pod included.
        Ok(balanced_score(&[
            (
                node.requested.milli_cpu + pod.requests.milli_cpu,
                node.allocatable.milli_cpu,
            ),
            (
                node.requested.memory + pod.requests.memory,
                node.allocatable.memory,
            ),
        ]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scheduler::plugins::node_resources_fit::tests::{node, pod};

    const CPU_AND_MEMORY: &[(i64, i64)] = &[(1000, 2000), (2000, 3000)];
    const CPU_ONLY: &[(i64, i64)] = &[(1000, 0), (2000, 0)];

    fn scores(p: &PodInfo, nodes: &[NodeInfo]) -> Vec<i64> {
        nodes
            .iter()
            .map(|n| {
                BalancedAllocation
                    .score(&CycleState::default(), p, n)
                    .unwrap()
            })
            .collect()
    }

    #[test]
    fn balanced_allocation_table() {
        let p = pod(CPU_AND_MEMORY);
        // 1.
        assert_eq!(
            scores(&p, &[node(4000, 10000, &[]), node(6000, 10000, &[])]),
            [87, 100]
        );
        // 2.
        let n1 = node(10000, 20000, &[CPU_ONLY]);
        let n2 = node(10000, 20000, &[CPU_AND_MEMORY]);
        assert_eq!(scores(&p, &[n1.clone(), n2]), [82, 95]);
        // 3.
        let n2 = node(10000, 50000, &[CPU_AND_MEMORY]);
        assert_eq!(scores(&p, &[n1, n2]), [82, 80]);
        // 4.
        let n1 = node(6000, 10000, &[CPU_ONLY]);
        let n2 = node(6000, 10000, &[CPU_AND_MEMORY]);
        assert_eq!(scores(&pod(CPU_ONLY), &[n1, n2]), [50, 75]);
        // 5. Nothing requested: PreScore skips.
        let mut st = CycleState::default();
        assert_eq!(
            BalancedAllocation.pre_score(&mut st, &pod(&[]), &[], &[]),
            Status::skip()
        );
        assert!(BalancedAllocation
            .pre_score(&mut st, &p, &[], &[])
            .is_success());
    }
}
