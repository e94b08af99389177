//! NodeAffinity: `nodeSelector` and required node affinity filter; preferred terms score by
//! the sum of the weights of the terms a node matches (`plugins/nodeaffinity`).

use crate::api::value::Value;
use crate::controllers::podutil::At;
use crate::scheduler::framework::*;

pub const NAME: &str = "NodeAffinity";
pub const REASON: &str = "node(s) didn't match Pod's node affinity/selector";

pub struct NodeAffinity;

impl Plugin for NodeAffinity {
    fn name(&self) -> &'static str {
        NAME
    }
}

fn values(req: &Value) -> Vec<&str> {
    req.get("values")
        .and_then(Value::as_array)
        .map(|v| v.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// One `NodeSelectorRequirement` against a value that may be missing.
fn requirement_matches(req: &Value, value: Option<&str>) -> bool {
    let vals = values(req);
    match req.get("operator").and_then(Value::as_str).unwrap_or("") {
        "In" => value.is_some_and(|v| vals.contains(&v)),
        "NotIn" => !value.is_some_and(|v| vals.contains(&v)),
        "Exists" => value.is_some(),
        "DoesNotExist" => value.is_none(),
        op @ ("Gt" | "Lt") => {
            let (Some(v), [bound]) = (value.and_then(|v| v.parse::<i64>().ok()), vals.as_slice())
            else {
                return false;
            };
            let Ok(bound) = bound.parse::<i64>() else {
                return false;
            };
            if op == "Gt" {
                v > bound
            } else {
                v < bound
            }
        }
        _ => false,
    }
}

/// A `NodeSelectorTerm`: all its expressions and fields hold; an empty term matches nothing.
pub fn term_matches(term: &Value, node: &NodeInfo) -> bool {
    let exprs = term.get("matchExpressions").and_then(Value::as_array);
    let fields = term.get("matchFields").and_then(Value::as_array);
    let n = exprs.map_or(0, Vec::len) + fields.map_or(0, Vec::len);
    if n == 0 {
        return false;
    }
    exprs.into_iter().flatten().all(|r| {
        let key = r.get("key").and_then(Value::as_str).unwrap_or("");
        requirement_matches(r, node.label(key))
    }) && fields.into_iter().flatten().all(|r| {
        let key = r.get("key").and_then(Value::as_str).unwrap_or("");
        key == "metadata.name" && requirement_matches(r, Some(&node.name))
    })
}

/// Whether the pod's `nodeSelector` and required node affinity both admit the node.
pub fn required_matches(pod: &PodInfo, node: &NodeInfo) -> bool {
    if !pod.selects_nodes {
        return true;
    }
    if let Some(sel) = pod.spec("nodeSelector").and_then(Value::as_object) {
        if !sel.iter().all(|(k, v)| node.label(k) == v.as_str()) {
            return false;
        }
    }
    match pod.pod.at(&[
        "spec",
        "affinity",
        "nodeAffinity",
        "requiredDuringSchedulingIgnoredDuringExecution",
        "nodeSelectorTerms",
    ]) {
        Some(Value::Array(terms)) => terms.iter().any(|t| term_matches(t, node)),
        _ => true,
    }
}

impl FilterPlugin for NodeAffinity {
    fn filter(&self, _: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        if required_matches(pod, node) {
            Status::success()
        } else {
            Status::unresolvable(REASON)
        }
    }
}

impl PreScorePlugin for NodeAffinity {
    /// Nothing to score without preferred terms: the plugin is skipped for this pod.
    fn pre_score(
        &self,
        _: &mut CycleState,
        pod: &PodInfo,
        _: &[&NodeInfo],
        _: &[NodeInfo],
    ) -> Status {
        let preferred = pod.pod.at(&[
            "spec",
            "affinity",
            "nodeAffinity",
            "preferredDuringSchedulingIgnoredDuringExecution",
        ]);
        if preferred.is_none_or(Value::is_null) {
            Status::skip()
        } else {
            Status::success()
        }
    }
}

impl ScorePlugin for NodeAffinity {
    fn score(&self, _: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
        let terms = pod
            .pod
            .at(&[
                "spec",
                "affinity",
                "nodeAffinity",
                "preferredDuringSchedulingIgnoredDuringExecution",
            ])
            .and_then(Value::as_array);
        Ok(terms
            .into_iter()
            .flatten()
            .filter(|t| t.get("preference").is_some_and(|p| term_matches(p, node)))
            .map(|t| t.get("weight").and_then(Value::as_i64).unwrap_or(0))
            .sum())
    }
    fn normalize_score(&self, _: &CycleState, _: &PodInfo, scores: &mut [i64]) {
        default_normalize_score(MAX_NODE_SCORE, false, scores)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn node(name: &str, labels: Value) -> NodeInfo {
        NodeInfo::new(&json!({"metadata": {"name": name, "labels": labels}}))
    }

    #[test]
    fn pre_score_skips_pods_without_preferred_terms() {
        let mut st = CycleState::default();
        let plain = PodInfo::new(&json!({"metadata": {"name": "p"}, "spec": {}}));
        assert_eq!(
            NodeAffinity.pre_score(&mut st, &plain, &[], &[]).code,
            Code::Skip
        );
        let preferring = PodInfo::new(&json!({"metadata": {"name": "q"}, "spec": {"affinity": {
            "nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 10, "preference": {"matchExpressions": [
                    {"key": "disk", "operator": "In", "values": ["ssd"]}]}}]}}}}));
        assert!(NodeAffinity
            .pre_score(&mut st, &preferring, &[], &[])
            .is_success());
    }

    #[test]
    fn node_selector_and_required_terms() {
        let st = CycleState::default();
        let ssd = node("a", json!({"disk": "ssd", "gen": "5"}));
        let hdd = node("b", json!({"disk": "hdd"}));
        let p = PodInfo::new(
            &json!({"metadata": {"name": "p"}, "spec": {"nodeSelector": {"disk": "ssd"}}}),
        );
        assert!(NodeAffinity.filter(&st, &p, &ssd).is_success());
        assert_eq!(
            NodeAffinity.filter(&st, &p, &hdd),
            Status::unresolvable(REASON)
        );
        let req = PodInfo::new(
            &json!({"metadata": {"name": "p"}, "spec": {"affinity": {"nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "gen", "operator": "Gt", "values": ["4"]}]},
                {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["zzz"]}]}
            ]}}}}}),
        );
        assert!(NodeAffinity.filter(&st, &req, &ssd).is_success());
        assert!(!NodeAffinity.filter(&st, &req, &hdd).is_success());
    }

    #[test]
    fn preferred_weights_are_summed_and_normalized() {
        // node_affinity_test.go: weights 2 (foo=bar), 4 (key=value), 5 (foo=bar and key=value).
        let p = PodInfo::new(
            &json!({"metadata": {"name": "p"}, "spec": {"affinity": {"nodeAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 2, "preference": {"matchExpressions": [{"key": "foo", "operator": "In", "values": ["bar"]}]}},
                {"weight": 4, "preference": {"matchExpressions": [{"key": "key", "operator": "In", "values": ["value"]}]}},
                {"weight": 5, "preference": {"matchExpressions": [
                    {"key": "foo", "operator": "In", "values": ["bar"]},
                    {"key": "key", "operator": "In", "values": ["value"]}]}}
            ]}}}}),
        );
        let nodes = [
            node("1", json!({"foo": "bar"})),
            node("2", json!({"foo": "bar", "key": "value"})),
            node("3", json!({"key": "value"})),
        ];
        let st = CycleState::default();
        let mut s: Vec<i64> = nodes
            .iter()
            .map(|n| NodeAffinity.score(&st, &p, n).unwrap())
            .collect();
        assert_eq!(s, [2, 11, 4]);
        NodeAffinity.normalize_score(&st, &p, &mut s);
        assert_eq!(s, [18, 100, 36]);
    }
}
