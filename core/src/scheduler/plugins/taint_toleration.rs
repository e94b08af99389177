//! TaintToleration: a node's `NoSchedule` and `NoExecute` taints keep out pods that do not
//! tolerate them; `PreferNoSchedule` taints only lower the node's score
//! (`pkg/scheduler/framework/plugins/tainttoleration`).

use crate::api::value::Value;
use crate::scheduler::framework::*;

pub const NAME: &str = "TaintToleration";
/// The 1.35 reason (PR #134740): no longer names the taint.
pub const REASON: &str = "node(s) had untolerated taint(s)";

pub struct TaintToleration;

impl Plugin for TaintToleration {
    fn name(&self) -> &'static str {
        NAME
    }
}

fn effect(t: &Value) -> &str {
    t.get("effect").and_then(Value::as_str).unwrap_or("")
}

impl FilterPlugin for TaintToleration {
    fn filter(&self, _: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        // The pod's tolerations are read only for a node with taints (most have none).
        let untolerated = node
            .taints()
            .iter()
            .filter(|t| matches!(effect(t), "NoSchedule" | "NoExecute"))
            .any(|t| !tolerations(pod).iter().any(|tol| tolerates(tol, t)));
        if untolerated {
            Status::unresolvable(REASON)
        } else {
            Status::success()
        }
    }
}

const STATE: &str = "PreScoreTaintToleration";

impl PreScorePlugin for TaintToleration {
    fn pre_score(
        &self,
        state: &mut CycleState,
        pod: &PodInfo,
        _: &[&NodeInfo],
        _: &[NodeInfo],
    ) -> Status {
        let prefer: Vec<Value> = tolerations(pod)
            .iter()
            .filter(|t| matches!(effect(t), "" | "PreferNoSchedule"))
            .cloned()
            .collect();
        state.write(STATE, prefer);
        Status::success()
    }
}

/// How many `PreferNoSchedule` taints of the node the tolerations do not tolerate.
pub fn count_intolerable(node: &NodeInfo, tolerations: &[Value]) -> i64 {
    node.taints()
        .iter()
        .filter(|t| effect(t) == "PreferNoSchedule")
        .filter(|t| !tolerations.iter().any(|tol| tolerates(tol, t)))
        .count() as i64
}

impl ScorePlugin for TaintToleration {
    fn score(&self, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
        let tols = match state.read::<Vec<Value>>(STATE) {
            Some(t) => t.as_slice(),
            None => tolerations(pod),
        };
        Ok(count_intolerable(node, tols))
    }
    fn normalize_score(&self, _: &CycleState, _: &PodInfo, scores: &mut [i64]) {
        default_normalize_score(MAX_NODE_SCORE, true, scores)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn node(taints: Value) -> NodeInfo {
        NodeInfo::new(&json!({"metadata": {"name": "n"}, "spec": {"taints": taints}}))
    }
    fn pod(tolerations: Value) -> PodInfo {
        PodInfo::new(&json!({"metadata": {"name": "p"}, "spec": {"tolerations": tolerations}}))
    }

    #[test]
    fn filter_considers_no_schedule_and_no_execute_only() {
        let st = CycleState::default();
        let n = node(json!([{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]));
        assert_eq!(
            TaintToleration.filter(&st, &pod(json!([])), &n),
            Status::unresolvable(REASON)
        );
        let ok = pod(
            json!([{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}]),
        );
        assert!(TaintToleration.filter(&st, &ok, &n).is_success());
        let wrong_value = pod(json!([{"key": "dedicated", "value": "cpu"}]));
        assert!(!TaintToleration.filter(&st, &wrong_value, &n).is_success());
        let exists_all = pod(json!([{"operator": "Exists"}]));
        assert!(TaintToleration.filter(&st, &exists_all, &n).is_success());
        let soft = node(json!([{"key": "a", "effect": "PreferNoSchedule"}]));
        assert!(TaintToleration
            .filter(&st, &pod(json!([])), &soft)
            .is_success());
        let exec = node(json!([{"key": "a", "effect": "NoExecute"}]));
        assert!(!TaintToleration
            .filter(&st, &pod(json!([])), &exec)
            .is_success());
    }

    #[test]
    fn score_counts_prefer_no_schedule_and_reverses() {
        // From taint_toleration_test.go: nodes with 0, 1 and 2 intolerable soft taints.
        let nodes = [
            node(json!([])),
            node(json!([{"key": "cpu-type", "value": "arm64", "effect": "PreferNoSchedule"}])),
            node(json!([
                {"key": "cpu-type", "value": "arm64", "effect": "PreferNoSchedule"},
                {"key": "disk-type", "value": "ssd", "effect": "PreferNoSchedule"}
            ])),
        ];
        let p = pod(
            json!([{"key": "foo", "operator": "Equal", "value": "bar", "effect": "PreferNoSchedule"}]),
        );
        let mut st = CycleState::default();
        TaintToleration.pre_score(&mut st, &p, &[], &[]);
        let mut scores: Vec<i64> = nodes
            .iter()
            .map(|n| TaintToleration.score(&st, &p, n).unwrap())
            .collect();
        assert_eq!(scores, [0, 1, 2]);
        TaintToleration.normalize_score(&st, &p, &mut scores);
        assert_eq!(scores, [100, 50, 0]);
        // A tolerated soft taint does not count; all zero means all 100.
        let tol =
            pod(json!([{"key": "cpu-type", "operator": "Exists", "effect": "PreferNoSchedule"}]));
        let mut st = CycleState::default();
        TaintToleration.pre_score(&mut st, &tol, &[], &[]);
        let mut s: Vec<i64> = nodes[..2]
            .iter()
            .map(|n| TaintToleration.score(&st, &tol, n).unwrap())
            .collect();
        TaintToleration.normalize_score(&st, &tol, &mut s);
        assert_eq!(s, [100, 100]);
    }
}
