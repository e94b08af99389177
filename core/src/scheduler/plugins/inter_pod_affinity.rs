//! InterPodAffinity: required pod affinity and anti-affinity, the incoming pod's and the
//! existing pods' (`plugins/interpodaffinity`); preferred terms, and existing pods' required
//! affinity (`hardPodAffinityWeight` 1), score.

use crate::api::json::JsonPointer;
use crate::api::selector::Selector;
use crate::api::value::Value;
use crate::scheduler::framework::*;

pub const NAME: &str = "InterPodAffinity";
pub const REASON_AFFINITY: &str = "node(s) didn't match pod affinity rules";
pub const REASON_ANTI_AFFINITY: &str = "node(s) didn't match pod anti-affinity rules";
pub const REASON_EXISTING_ANTI_AFFINITY: &str =
    "node(s) didn't satisfy existing pods anti-affinity rules";

pub struct InterPodAffinity;

impl Plugin for InterPodAffinity {
    fn name(&self) -> &'static str {
        NAME
    }
}

/// A `PodAffinityTerm` of some pod.
#[derive(Clone, Debug)]
struct Term {
    selector: Selector,
    /// None: every namespace (an empty `namespaceSelector`).
    namespaces: Option<Vec<String>>,
    topology_key: String,
}

impl Term {
    fn matches(&self, pod: &PodInfo) -> bool {
        self.namespaces
            .as_ref()
            .is_none_or(|ns| ns.iter().any(|n| n == pod.namespace()))
            && self.selector.matches(crate::api::meta::labels(&pod.pod))
    }
}

fn parse_term(pod: &PodInfo, t: &Value) -> Option<Term> {
    let listed: Vec<String> = t
        .get("namespaces")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let all = t
        .get("namespaceSelector")
        .and_then(Value::as_object)
        .is_some_and(|m| m.is_empty());
    Some(Term {
        selector: Selector::from_label_selector(t.get("labelSelector")).ok()?,
        namespaces: if all {
            None
        } else if listed.is_empty() {
            Some(vec![pod.namespace().to_string()])
        } else {
            Some(listed)
        },
        topology_key: t.get("topologyKey")?.as_str()?.to_string(),
    })
}

fn required_terms(pod: &PodInfo, kind: &str) -> Vec<Term> {
    let path = format!("/spec/affinity/{kind}/requiredDuringSchedulingIgnoredDuringExecution");
    pod.pod
        .lookup(&path)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| parse_term(pod, t))
        .collect()
}

/// `preferredDuringSchedulingIgnoredDuringExecution` terms with their weights.
fn preferred_terms(pod: &PodInfo, kind: &str) -> Vec<(Term, i64)> {
    let path = format!("/spec/affinity/{kind}/preferredDuringSchedulingIgnoredDuringExecution");
    pod.pod
        .lookup(&path)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|w| {
            let weight = w.get("weight").and_then(Value::as_i64).unwrap_or(0);
            Some((parse_term(pod, w.get("podAffinityTerm")?)?, weight))
        })
        .collect()
}

const STATE: &str = "PreFilterInterPodAffinity";

struct FilterState {
    affinity: Vec<Term>,
    anti_affinity: Vec<Term>,
    /// For each existing pod with required anti-affinity matching the incoming pod: the
    /// topology key and the value its node has.
    existing_anti: Vec<(String, String)>,
    /// Per affinity term: the domains (values) holding a matching pod.
    affinity_domains: Vec<Vec<String>>,
    /// Per anti-affinity term: the domains holding a matching pod.
    anti_domains: Vec<Vec<String>>,
}

impl PreFilterPlugin for InterPodAffinity {
    fn pre_filter(&self, state: &mut CycleState, pod: &PodInfo, nodes: &[NodeInfo]) -> Status {
        let affinity = required_terms(pod, "podAffinity");
        let anti_affinity = required_terms(pod, "podAntiAffinity");
        let mut existing_anti = Vec::new();
        let mut affinity_domains = vec![Vec::new(); affinity.len()];
        let mut anti_domains = vec![Vec::new(); anti_affinity.len()];
        let own_terms = !affinity.is_empty() || !anti_affinity.is_empty();
        for n in nodes {
            if !own_terms && n.pods_with_required_anti_affinity == 0 {
                continue;
            }
            for p in &n.pods {
                if !own_terms && !p.has_required_anti_affinity {
                    continue;
                }
                for t in required_terms(p, "podAntiAffinity") {
                    if t.matches(pod) {
                        if let Some(v) = n.label(&t.topology_key) {
                            existing_anti.push((t.topology_key.clone(), v.to_string()));
                        }
                    }
                }
                for (terms, domains) in [
                    (&affinity, &mut affinity_domains),
                    (&anti_affinity, &mut anti_domains),
                ] {
                    for (i, t) in terms.iter().enumerate() {
                        if let Some(v) = n.label(&t.topology_key) {
                            if t.matches(p) {
                                domains[i].push(v.to_string());
                            }
                        }
                    }
                }
            }
        }
        if affinity.is_empty() && anti_affinity.is_empty() && existing_anti.is_empty() {
            return Status::skip();
        }
        state.write(
            STATE,
            FilterState {
                affinity,
                anti_affinity,
                existing_anti,
                affinity_domains,
                anti_domains,
            },
        );
        Status::success()
    }
}

impl FilterPlugin for InterPodAffinity {
    fn filter(&self, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        let Some(s) = state.read::<FilterState>(STATE) else {
            return Status::success();
        };
        let in_domain = |key: &str, domains: &[String]| {
            node.label(key)
                .is_some_and(|v| domains.iter().any(|d| d == v))
        };
        // Required affinity: every term has a matching pod in this node's domain, unless no
        // pod matches anywhere and the pod matches its own terms (the first of a group).
        let no_match_anywhere = s.affinity_domains.iter().all(Vec::is_empty);
        let self_match = s.affinity.iter().all(|t| t.matches(pod));
        if !s.affinity.is_empty() {
            let ok = s
                .affinity
                .iter()
                .zip(&s.affinity_domains)
                .all(|(t, d)| in_domain(&t.topology_key, d));
            let first_of_group = no_match_anywhere
                && self_match
                && s.affinity
                    .iter()
                    .all(|t| node.label(&t.topology_key).is_some());
            if !ok && !first_of_group {
                return Status::unresolvable(REASON_AFFINITY);
            }
        }
        if s.anti_affinity
            .iter()
            .zip(&s.anti_domains)
            .any(|(t, d)| in_domain(&t.topology_key, d))
        {
            return Status::unschedulable(REASON_ANTI_AFFINITY);
        }
        if s.existing_anti
            .iter()
            .any(|(k, v)| node.label(k) == Some(v.as_str()))
        {
            return Status::unschedulable(REASON_EXISTING_ANTI_AFFINITY);
        }
        Status::success()
    }
}

// ---- Score ----

/// `hardPodAffinityWeight`: how much an existing pod's required affinity for the incoming pod
/// counts when scoring.
pub const HARD_POD_AFFINITY_WEIGHT: i64 = 1;
const PRE_SCORE: &str = "PreScoreInterPodAffinity";

/// Topology key to domain value to summed weight.
type TopologyScore = std::collections::BTreeMap<String, std::collections::BTreeMap<String, i64>>;

fn process_term(
    scores: &mut TopologyScore,
    term: &Term,
    weight: i64,
    pod: &PodInfo,
    node: &NodeInfo,
) {
    if term.matches(pod) {
        if let Some(v) = node.label(&term.topology_key) {
            *scores
                .entry(term.topology_key.clone())
                .or_default()
                .entry(v.to_string())
                .or_default() += weight;
        }
    }
}

impl PreScorePlugin for InterPodAffinity {
    fn pre_score(
        &self,
        state: &mut CycleState,
        pod: &PodInfo,
        _: &[&NodeInfo],
        all: &[NodeInfo],
    ) -> Status {
        let affinity = preferred_terms(pod, "podAffinity");
        let anti = preferred_terms(pod, "podAntiAffinity");
        let has_constraints = !affinity.is_empty() || !anti.is_empty();
        let any_existing = all.iter().any(|n| n.pods_with_affinity > 0);
        if !has_constraints && !any_existing {
            return Status::skip();
        }
        let mut scores = TopologyScore::new();
        for node in all {
            if !has_constraints && node.pods_with_affinity == 0 {
                continue;
            }
            for existing in &node.pods {
                if !has_constraints && !existing.has_affinity {
                    continue;
                }
                for (t, w) in &affinity {
                    process_term(&mut scores, t, *w, existing, node);
                }
                for (t, w) in &anti {
                    process_term(&mut scores, t, -*w, existing, node);
                }
                if !existing.has_affinity {
                    continue;
                }
                if node.has_labels() {
                    for t in required_terms(existing, "podAffinity") {
                        process_term(&mut scores, &t, HARD_POD_AFFINITY_WEIGHT, pod, node);
                    }
                }
                for (t, w) in preferred_terms(existing, "podAffinity") {
                    process_term(&mut scores, &t, w, pod, node);
                }
                for (t, w) in preferred_terms(existing, "podAntiAffinity") {
                    process_term(&mut scores, &t, -w, pod, node);
                }
            }
        }
        state.write(PRE_SCORE, scores);
        Status::success()
    }
}

impl ScorePlugin for InterPodAffinity {
    fn score(&self, state: &CycleState, _: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
        let Some(scores) = state.read::<TopologyScore>(PRE_SCORE) else {
            return Ok(0);
        };
        Ok(scores
            .iter()
            .filter_map(|(key, values)| values.get(node.label(key)?))
            .sum())
    }

    /// Min-max scaling to 0..=100 (scores may be negative).
    fn normalize_score(&self, _: &CycleState, _: &PodInfo, scores: &mut [i64]) {
        let min = scores.iter().copied().min().unwrap_or(0);
        let max = scores.iter().copied().max().unwrap_or(0);
        let diff = max - min;
        for s in scores.iter_mut() {
            *s = if diff > 0 {
                (MAX_NODE_SCORE as f64 * ((*s - min) as f64 / diff as f64)) as i64
            } else {
                0
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn node(name: &str) -> NodeInfo {
        NodeInfo::new(
            &json!({"metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}}}),
        )
    }
    fn pod(labels: Value, affinity: Value) -> PodInfo {
        PodInfo::new(
            &json!({"metadata": {"name": "p", "namespace": "default", "labels": labels},
            "spec": {"affinity": affinity}}),
        )
    }

    #[test]
    fn required_anti_affinity_keeps_replicas_apart() {
        let anti = json!({"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
            {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}]}});
        let mut nodes = vec![node("a"), node("b")];
        nodes[0].add_pod(pod(json!({"app": "web"}), json!({})));
        let incoming = pod(json!({"app": "web"}), anti.clone());
        let mut st = CycleState::default();
        assert!(InterPodAffinity
            .pre_filter(&mut st, &incoming, &nodes)
            .is_success());
        assert_eq!(
            InterPodAffinity.filter(&st, &incoming, &nodes[0]),
            Status::unschedulable(REASON_ANTI_AFFINITY)
        );
        assert!(InterPodAffinity
            .filter(&st, &incoming, &nodes[1])
            .is_success());
        // The existing pod's anti-affinity is honoured too.
        let mut nodes = vec![node("a"), node("b")];
        nodes[0].add_pod(pod(json!({"app": "web"}), anti));
        let plain = pod(json!({"app": "web"}), json!({}));
        let mut st = CycleState::default();
        assert!(InterPodAffinity
            .pre_filter(&mut st, &plain, &nodes)
            .is_success());
        assert_eq!(
            InterPodAffinity.filter(&st, &plain, &nodes[0]),
            Status::unschedulable(REASON_EXISTING_ANTI_AFFINITY)
        );
        assert!(InterPodAffinity.filter(&st, &plain, &nodes[1]).is_success());
        let mut st = CycleState::default();
        assert_eq!(
            InterPodAffinity.pre_filter(&mut st, &plain, &[node("c")]),
            Status::skip()
        );
    }

    #[test]
    fn preferred_terms_score_by_domain() {
        let web = pod(json!({"app": "web"}), json!({}));
        let cache = pod(json!({"app": "cache"}), json!({}));
        let mut nodes = vec![node("a"), node("b"), node("c")];
        nodes[0].add_pod(web.clone());
        nodes[1].add_pod(cache);
        let incoming = pod(
            json!({"app": "x"}),
            json!({
                "podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": 10, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}}]},
                "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": 5, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "cache"}}, "topologyKey": "kubernetes.io/hostname"}}]}
            }),
        );
        let mut st = CycleState::default();
        let feasible: Vec<&NodeInfo> = nodes.iter().collect();
        assert!(InterPodAffinity
            .pre_score(&mut st, &incoming, &feasible, &nodes)
            .is_success());
        let mut s: Vec<i64> = nodes
            .iter()
            .map(|n| InterPodAffinity.score(&st, &incoming, n).unwrap())
            .collect();
        assert_eq!(s, [10, -5, 0]);
        InterPodAffinity.normalize_score(&st, &incoming, &mut s);
        assert_eq!(s, [100, 0, 33]);
        // Nobody has affinity: skipped.
        let plain = pod(json!({"app": "x"}), json!({}));
        let mut st = CycleState::default();
        assert_eq!(
            InterPodAffinity.pre_score(&mut st, &plain, &feasible, &nodes),
            Status::skip()
        );
    }
}
