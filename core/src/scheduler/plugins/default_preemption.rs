//! DefaultPreemption: when no node fits, looks for a node where evicting lower-priority pods
//! would make room, picks the one that hurts least, and names the victims
//! (`plugins/defaultpreemption`, `framework/preemption`). PodDisruptionBudgets are not
//! considered, and the Filter state computed before preemption is not updated for the
//! removed pods (Kubernetes' PreFilterExtensions).

use crate::api::value::Value;
use crate::controllers::podutil::At;
use crate::scheduler::framework::*;
use std::collections::BTreeMap;

pub const NAME: &str = "DefaultPreemption";
pub const NO_VICTIMS: &str = "No preemption victims found for incoming pod";
pub const NOT_HELPFUL: &str = "Preemption is not helpful for scheduling";
pub const POLICY_NEVER: &str = "not eligible due to preemptionPolicy=Never.";
pub const TERMINATING_ON_NOMINATED: &str =
    "not eligible due to a terminating pod on the nominated node.";

pub struct DefaultPreemption;

impl Plugin for DefaultPreemption {
    fn name(&self) -> &'static str {
        NAME
    }
}

/// `selectVictimsOnNode`: remove every lower-priority pod; if the pod then fits, put back as
/// many as possible, most important first. None: preemption cannot help on this node.
pub fn select_victims(
    pod: &PodInfo,
    node: &NodeInfo,
    fits: &dyn Fn(&NodeInfo) -> bool,
) -> Option<Vec<PodInfo>> {
    let mut lower: Vec<PodInfo> = node
        .pods
        .iter()
        .filter(|p| p.priority() < pod.priority())
        .cloned()
        .collect();
    if lower.is_empty() {
        return None;
    }
    let mut trimmed = node.clone();
    for v in &lower {
        trimmed.remove_pod(&v.key);
    }
    if !fits(&trimmed) {
        return None;
    }
    crate::api::sorting::sort_by(&mut lower, &|a, b| {
        b.priority().cmp(&a.priority()).then(a.key.cmp(&b.key))
    });
    let mut victims = Vec::new();
    for v in lower {
        trimmed.add_pod(v.clone());
        if !fits(&trimmed) {
            trimmed.remove_pod(&v.key);
            victims.push(v);
        }
    }
    Some(victims)
}

/// How much a candidate hurts (`pickOneNodeForPreemption`, without PodDisruptionBudgets):
/// the highest victim priority, the sum of their priorities, how many, then node order.
type Rank = (i64, i64, usize, usize);

fn terminating(p: &PodInfo) -> bool {
    p.pod.at(&["metadata", "deletionTimestamp"]).is_some()
}

impl PostFilterPlugin for DefaultPreemption {
    fn post_filter(
        &self,
        _: &CycleState,
        pod: &PodInfo,
        nodes: &[NodeInfo],
        statuses: &BTreeMap<String, Status>,
        fits: &dyn Fn(&NodeInfo) -> bool,
    ) -> PostFilterResult {
        let fail = |m: &str| PostFilterResult {
            message: Some(format!("preemption: {m}")),
            ..Default::default()
        };
        if pod.spec("preemptionPolicy").and_then(Value::as_str) == Some("Never") {
            return fail(POLICY_NEVER);
        }
        let nominated = pod
            .pod
            .at(&["status", "nominatedNodeName"])
            .and_then(Value::as_str)
            .unwrap_or("");
        if let Some(n) = nodes.iter().find(|n| n.name == nominated) {
            if n.pods
                .iter()
                .any(|p| terminating(p) && p.priority() < pod.priority())
            {
                return fail(TERMINATING_ON_NOMINATED);
            }
        }
        let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
        let mut best: Option<(Rank, Vec<PodInfo>)> = None;
        for (i, n) in nodes.iter().enumerate() {
            let unresolvable = statuses
                .get(&n.name)
                .is_none_or(|s| s.code == Code::UnschedulableAndUnresolvable);
            if unresolvable {
                *reasons.entry(NOT_HELPFUL).or_default() += 1;
                continue;
            }
            match select_victims(pod, n, fits) {
                None => *reasons.entry(NO_VICTIMS).or_default() += 1,
                Some(victims) => {
                    let rank = (
                        victims
                            .iter()
                            .map(PodInfo::priority)
                            .max()
                            .unwrap_or(i64::MIN),
                        victims.iter().map(PodInfo::priority).sum(),
                        victims.len(),
                        i,
                    );
                    if best.as_ref().is_none_or(|(r, _)| rank < *r) {
                        best = Some((rank, victims));
                    }
                }
            }
        }
        match best {
            Some(((_, _, _, i), victims)) => PostFilterResult {
                message: None,
                nominated_node: Some(nodes[i].name.clone()),
                victims,
            },
            None => fail(&fit_error_message(nodes.len(), None, &reasons)),
        }
    }
}

/// `FitError.Error()` without the postfilter part: `0/N nodes are available: <counts>.`
pub fn fit_error_message(
    num_nodes: usize,
    pre_filter: Option<&str>,
    reasons: &BTreeMap<&str, usize>,
) -> String {
    let mut msg = format!("0/{num_nodes} nodes are available:");
    match pre_filter {
        Some(p) => msg.push_str(&format!(" {p}.")),
        None => {
            let mut parts: Vec<String> = reasons.iter().map(|(r, c)| format!("{c} {r}")).collect();
            crate::api::sorting::sort(&mut parts);
            msg.push_str(&format!(" {}.", parts.join(", ")));
        }
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scheduler::plugins::node_resources_fit::{insufficient, tests::pod};

    #[test]
    fn fit_error_counts_sort_and_join() {
        let mut r = BTreeMap::new();
        r.insert("node(s) had untolerated taint(s)", 1);
        r.insert("Insufficient cpu", 2);
        assert_eq!(
            fit_error_message(3, None, &r),
            "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu."
        );
    }

    fn with_priority(mut p: PodInfo, name: &str, prio: i64) -> PodInfo {
        std::rc::Rc::make_mut(&mut p.pod)["spec"]["priority"] = prio.into();
        p.key = format!("default/{name}");
        p
    }

    #[test]
    fn evicts_the_fewest_lowest_priority_pods() {
        let fits = |n: &NodeInfo| {
            let incoming = with_priority(pod(&[(2000, 0)]), "hi", 100);
            insufficient(&incoming, n).is_empty()
        };
        let mut n = NodeInfo::with_allocatable("n", 4000, 1 << 30);
        n.add_pod(with_priority(pod(&[(2000, 0)]), "low", 0));
        n.add_pod(with_priority(pod(&[(1000, 0)]), "mid", 10));
        n.add_pod(with_priority(pod(&[(1000, 0)]), "top", 1000));
        let incoming = with_priority(pod(&[(2000, 0)]), "hi", 100);
        // Removing low and mid frees 3000m; putting mid back still fits: only low goes.
        let v = select_victims(&incoming, &n, &fits).unwrap();
        assert_eq!(
            v.iter().map(|p| p.key.as_str()).collect::<Vec<_>>(),
            ["default/low"]
        );
        let mut statuses = BTreeMap::new();
        statuses.insert("n".to_string(), Status::unschedulable("Insufficient cpu"));
        let r = DefaultPreemption.post_filter(
            &CycleState::default(),
            &incoming,
            &[n.clone()],
            &statuses,
            &fits,
        );
        assert_eq!(r.nominated_node.as_deref(), Some("n"));
        assert!(r.message.is_none());
        // Equal priority: nothing to evict.
        let same = with_priority(pod(&[(2000, 0)]), "same", 0);
        let r =
            DefaultPreemption.post_filter(&CycleState::default(), &same, &[n], &statuses, &fits);
        assert_eq!(
            r.message.as_deref(),
            Some("preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.")
        );
    }
}
