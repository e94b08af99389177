//! PodTopologySpread: spreads matching pods over topology domains. Explicit `DoNotSchedule`
//! constraints filter; `ScheduleAnyway` constraints, or the system defaults (hostname maxSkew 3,
//! zone maxSkew 5) for pods owned by a ReplicaSet or selected by a Service, score
//! (`plugins/podtopologyspread`).

use super::node_affinity::required_matches;
use crate::api::selector::Selector;
use crate::api::value::Value;
use crate::scheduler::framework::*;
use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

pub const NAME: &str = "PodTopologySpread";
pub const REASON: &str = "node(s) didn't match pod topology spread constraints";
pub const REASON_MISSING_LABEL: &str =
    "node(s) didn't match pod topology spread constraints (missing required label)";
pub const HOSTNAME: &str = "kubernetes.io/hostname";
pub const ZONE: &str = "topology.kubernetes.io/zone";
/// CycleState key under which the scheduler leaves the selectors of the Services and
/// ReplicaSets that select the pod (the system default constraints' selector).
pub const DEFAULT_SELECTORS: &str = "PodTopologySpread/defaultSelectors";

pub struct PodTopologySpread;

impl Plugin for PodTopologySpread {
    fn name(&self) -> &'static str {
        NAME
    }
}

/// One constraint with its selector parsed.
#[derive(Clone, Debug)]
pub struct Constraint {
    pub max_skew: i64,
    pub topology_key: String,
    /// All must match (a default constraint ANDs the selectors of every owner).
    pub selectors: Vec<Selector>,
    /// A hash of the namespace and the selectors in string form, the count cache's key.
    signature: OnceCell<u64>,
    /// The label index's key for the label a selector requires, if one does.
    index_key: OnceCell<Option<String>>,
}

thread_local! {
    /// Matching-pod counts by node generation and selectors: consecutive pods of one owner
    /// ask the same question of every node, and only the node that got the last pod changed.
    /// Two generations: when the current one is full it becomes the previous one, whose
    /// entries move back when asked for again (so a full cache keeps what is still used).
    static COUNTS: RefCell<[HashMap<(u64, u64), i64>; 2]> =
        RefCell::new([HashMap::new(), HashMap::new()]);
    /// Whether pods with a label set ([`PodInfo::label_set`]) match a constraint's selectors
    /// (by its signature), as 1 or 0: a node's count is taken again each time it gets a pod,
    /// and its pods come from a few templates, so the selectors are evaluated once per
    /// template. (The map type is COUNTS': one more would cost the page's wasm its code.)
    static MATCHES: RefCell<HashMap<(u64, u64), i64>> = RefCell::new(HashMap::new());
}

impl Constraint {
    fn new(max_skew: i64, topology_key: String, selectors: Vec<Selector>) -> Self {
        Constraint {
            max_skew,
            topology_key,
            selectors,
            signature: OnceCell::new(),
            index_key: OnceCell::new(),
        }
    }

    /// The [`PodLabelIndex`] key of the label the selectors require (the constraint is
    /// always asked about one namespace, the incoming pod's).
    fn index_key(&self, namespace: &str) -> Option<&str> {
        self.index_key
            .get_or_init(|| {
                let (key, value) = self.selectors.iter().find_map(Selector::required_label)?;
                Some(PodLabelIndex::key(namespace, key, value))
            })
            .as_deref()
    }

    fn matches(&self, pod: &PodInfo, namespace: &str) -> bool {
        !pod.deleting && self.selects(pod, namespace)
    }

    /// Whether the pod's namespace and labels are the ones counted (deleting or not).
    fn selects(&self, pod: &PodInfo, namespace: &str) -> bool {
        pod.namespace() == namespace
            && self
                .selectors
                .iter()
                .all(|s| s.matches(crate::api::meta::labels(&pod.pod)))
    }
    /// Pods on `node` the constraint counts; `index` (the snapshot's, if at hand) answers
    /// 0 without looking at the node's pods when none carries the label a selector requires.
    fn count(&self, node: &NodeInfo, namespace: &str, index: Option<&PodLabelIndex>) -> i64 {
        if let (Some(index), Some(key)) = (index, self.index_key(namespace)) {
            if index.count_on(key, &node.name) == 0 {
                return 0;
            }
        }
        let signature = *self.signature.get_or_init(|| {
            use std::hash::{Hash, Hasher};
            // SipHash with fixed keys: the same on every run and platform.
            let mut h = std::collections::hash_map::DefaultHasher::new();
            namespace.hash(&mut h);
            for s in &self.selectors {
                s.to_string_form().hash(&mut h);
            }
            h.finish()
        });
        let key = (node.count_generation, signature);
        let hit = COUNTS.with(|c| {
            let mut c = c.borrow_mut();
            if let Some(n) = c[0].get(&key).copied() {
                return Some(n);
            }
            let n = c[1].remove(&key)?;
            c[0].insert(key, n);
            Some(n)
        });
        if let Some(n) = hit {
            return n;
        }
        let n = MATCHES.with(|m| {
            let mut m = m.borrow_mut();
            if m.len() >= 100_000 {
                m.clear();
            }
            node.pods
                .iter()
                .filter(|p| !p.deleting)
                .map(|p| {
                    *m.entry((p.label_set, signature))
                        .or_insert_with(|| i64::from(self.selects(p, namespace)))
                })
                .sum::<i64>()
        });
        COUNTS.with(|c| {
            let mut c = c.borrow_mut();
            if c[0].len() >= 100_000 {
                c[1] = std::mem::take(&mut c[0]);
            }
            c[0].insert(key, n);
        });
        n
    }
}

/// The pod's explicit constraints with this `whenUnsatisfiable`.
pub fn explicit(pod: &PodInfo, when: &str) -> Vec<Constraint> {
    pod.spec("topologySpreadConstraints")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|c| c.get("whenUnsatisfiable").and_then(Value::as_str) == Some(when))
        .filter_map(|c| {
            Some(Constraint::new(
                c.get("maxSkew").and_then(Value::as_i64).unwrap_or(1),
                c.get("topologyKey")?.as_str()?.to_string(),
                vec![Selector::from_label_selector(c.get("labelSelector")).ok()?],
            ))
        })
        .collect()
}

fn has_explicit(pod: &PodInfo) -> bool {
    pod.spec("topologySpreadConstraints")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
}

fn has_keys(node: &NodeInfo, cs: &[Constraint]) -> bool {
    cs.iter().all(|c| node.label(&c.topology_key).is_some())
}

// ---- Filter (DoNotSchedule) ----

const PRE_FILTER: &str = "PreFilterPodTopologySpread";

struct FilterState {
    constraints: Vec<Constraint>,
    /// Per constraint: domain value to matching pods.
    counts: Vec<BTreeMap<String, i64>>,
}

impl PreFilterPlugin for PodTopologySpread {
    fn pre_filter(&self, state: &mut CycleState, pod: &PodInfo, nodes: &[NodeInfo]) -> Status {
        let constraints = explicit(pod, "DoNotSchedule");
        if constraints.is_empty() {
            return Status::skip();
        }
        let mut counts = vec![BTreeMap::new(); constraints.len()];
        for n in nodes {
            if !required_matches(pod, n) || !has_keys(n, &constraints) {
                continue;
            }
            for (i, c) in constraints.iter().enumerate() {
                let v = n.label(&c.topology_key).unwrap_or("").to_string();
                *counts[i].entry(v).or_insert(0) += c.count(n, pod.namespace(), label_index(state));
            }
        }
        state.write(
            PRE_FILTER,
            FilterState {
                constraints,
                counts,
            },
        );
        Status::success()
    }
}

impl FilterPlugin for PodTopologySpread {
    fn filter(&self, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        let Some(s) = state.read::<FilterState>(PRE_FILTER) else {
            return Status::success();
        };
        if !has_keys(node, &s.constraints) {
            return Status::unresolvable(REASON_MISSING_LABEL);
        }
        for (i, c) in s.constraints.iter().enumerate() {
            let value = node.label(&c.topology_key).unwrap_or("");
            let self_match = i64::from(c.matches(pod, pod.namespace()));
            let here = s.counts[i].get(value).copied().unwrap_or(0);
            let min = s.counts[i].values().copied().min().unwrap_or(0);
            if here + self_match - min > c.max_skew {
                return Status::unschedulable(REASON);
            }
        }
        Status::success()
    }
}

// ---- Score (ScheduleAnyway and system defaults) ----

const PRE_SCORE: &str = "PreScorePodTopologySpread";
/// The score of a node the plugin ignores, replaced by 0 when normalizing.
const INVALID_SCORE: i64 = -1;

struct ScoreState {
    constraints: Vec<Constraint>,
    ignored: BTreeSet<String>,
    /// Per constraint, matching pods by topology value (hostname constraints count per node).
    pair_counts: Vec<HashMap<String, i64>>,
    weights: Vec<f64>,
    /// The system default hostname constraint's counts, taken in PreScore on the nodes that
    /// hold the owner's pods (every other node counts 0), when the label index named them:
    /// Score then looks the scored node up here instead of asking the index (most of the
    /// hundreds of nodes scored per pod hold none). By [`NodeInfo::generation`], which no two
    /// nodes share and which stays put while a cycle runs: an integer to compare, not a name.
    hosts: Option<Vec<(u64, i64)>>,
}

/// The system default constraints for a pod selected by `selectors`.
pub fn system_defaults(selectors: &[Selector]) -> Vec<Constraint> {
    if selectors.is_empty() {
        return vec![];
    }
    [(HOSTNAME, 3), (ZONE, 5)]
        .iter()
        .map(|(k, s)| Constraint::new(*s, k.to_string(), selectors.to_vec()))
        .collect()
}

impl PreScorePlugin for PodTopologySpread {
    fn pre_score(
        &self,
        state: &mut CycleState,
        pod: &PodInfo,
        feasible: &[&NodeInfo],
        all: &[NodeInfo],
    ) -> Status {
        let require_all = has_explicit(pod);
        let constraints = if require_all {
            explicit(pod, "ScheduleAnyway")
        } else {
            system_defaults(
                state
                    .read::<Vec<Selector>>(DEFAULT_SELECTORS)
                    .map(Vec::as_slice)
                    .unwrap_or(&[]),
            )
        };
        if constraints.is_empty() {
            return Status::skip();
        }
        let mut ignored = BTreeSet::new();
        let mut pair_counts: Vec<HashMap<String, i64>> = vec![HashMap::new(); constraints.len()];
        let mut topo_size = vec![0usize; constraints.len()];
        for n in feasible {
            if require_all && !has_keys(n, &constraints) {
                ignored.insert(n.name.clone());
                continue;
            }
            for (i, c) in constraints.iter().enumerate() {
                if c.topology_key == HOSTNAME {
                    continue;
                }
                let Some(v) = n.label(&c.topology_key) else {
                    continue;
                };
                if !pair_counts[i].contains_key(v) {
                    pair_counts[i].insert(v.to_string(), 0);
                    topo_size[i] += 1;
                }
            }
        }
        let weights = constraints
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let size = if c.topology_key == HOSTNAME {
                    feasible.len() - ignored.len()
                } else {
                    topo_size[i]
                };
                ((size + 2) as f64).ln()
            })
            .collect();
        // Counts per topology value over every node; a hostname constraint is counted on the
        // scored node itself.
        let by_domain = constraints.iter().any(|c| c.topology_key != HOSTNAME);
        let candidates = match by_domain {
            true => domain_candidates(state, pod, &constraints, all),
            false => Some(Vec::new()),
        };
        let hostname = constraints.iter().position(|c| c.topology_key == HOSTNAME);
        // The candidates are the nodes with the owner's pods; the defaults'
        // constraints share their selectors, so they are the hostname constraint's too.
        let mut hosts = match (&candidates, hostname, require_all) {
            (Some(_), Some(_), false) => Some(Vec::new()),
            _ => None,
        };
        let visited: Box<dyn Iterator<Item = &NodeInfo>> = match &candidates {
            Some(indices) => Box::new(indices.iter().map(|&i| &all[i])),
            None => Box::new(all.iter()),
        };
        for n in visited {
            // The defaults' constraints have the same selectors, so they count the same pods
            // on a node: counted once, for both.
            let counted = match (&mut hosts, hostname) {
                (Some(hosts), Some(h)) => {
                    // The index named the node for holding such pods: no need to ask it again.
                    let count = constraints[h].count(n, pod.namespace(), None);
                    if count > 0 {
                        hosts.push((n.generation, count));
                    }
                    Some(count)
                }
                _ => None,
            };
            if !required_matches(pod, n) || (require_all && !has_keys(n, &constraints)) {
                continue;
            }
            for (i, c) in constraints.iter().enumerate() {
                if c.topology_key == HOSTNAME {
                    continue;
                }
                let Some(v) = n.label(&c.topology_key) else {
                    continue;
                };
                if let Some(cnt) = pair_counts[i].get_mut(v) {
                    *cnt +=
                        counted.unwrap_or_else(|| c.count(n, pod.namespace(), label_index(state)));
                }
            }
        }
        state.write(
            PRE_SCORE,
            ScoreState {
                constraints,
                ignored,
                pair_counts,
                weights,
                hosts: hosts.map(|mut h| {
                    crate::api::sorting::sort_by_key(&mut h, &|&(generation, _)| generation);
                    h
                }),
            },
        );
        Status::success()
    }
}

/// The snapshot's label index, when the scheduler left it in the cycle state.
fn label_index(state: &CycleState) -> Option<&PodLabelIndex> {
    state
        .read::<Rc<PodLabelIndex>>(POD_LABEL_INDEX)
        .map(|i| &**i)
}

/// The nodes (indices into `all`, which is in name order) that can hold a pod matching a
/// zone-like constraint, from the snapshot's label index: the others count 0. `None` when
/// there is no index or a constraint's selectors require no label: then every node is visited.
fn domain_candidates(
    state: &CycleState,
    pod: &PodInfo,
    constraints: &[Constraint],
    all: &[NodeInfo],
) -> Option<Vec<usize>> {
    let index = label_index(state)?;
    let mut found = BTreeSet::new();
    for c in constraints.iter().filter(|c| c.topology_key != HOSTNAME) {
        // The index names the nodes in name order, as `all` is: each is searched for from
        // the one before (a few compares where they are dense, not a search of every node).
        let mut from = 0;
        for name in index.nodes_with(c.index_key(pod.namespace())?) {
            let i =
                search_from(all, from, name).or_else(|| all.iter().position(|n| n.name == name))?;
            found.insert(i);
            from = i + 1;
        }
    }
    Some(found.into_iter().collect())
}

/// The index of the node named `name` in `all[from..]` (in name order), by an exponential
/// search from `from`.
fn search_from(all: &[NodeInfo], from: usize, name: &str) -> Option<usize> {
    let rest = all.get(from..)?;
    let mut end = 1;
    while end < rest.len() && rest[end - 1].name.as_str() < name {
        end *= 2;
    }
    let start = end / 2;
    let at = rest[start..end.min(rest.len())]
        .binary_search_by(|n| n.name.as_str().cmp(name))
        .ok()?;
    Some(from + start + at)
}

impl ScorePlugin for PodTopologySpread {
    fn score(&self, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
        let Some(s) = state.read::<ScoreState>(PRE_SCORE) else {
            return Ok(0);
        };
        if s.ignored.contains(&node.name) {
            return Ok(INVALID_SCORE);
        }
        let mut score = 0.0;
        for (i, c) in s.constraints.iter().enumerate() {
            let Some(v) = node.label(&c.topology_key) else {
                continue;
            };
            let cnt = if c.topology_key == HOSTNAME {
                match &s.hosts {
                    Some(hosts) => hosts
                        .binary_search_by_key(&node.generation, |&(generation, _)| generation)
                        .map_or(0, |at| hosts[at].1),
                    None => c.count(node, pod.namespace(), label_index(state)),
                }
            } else {
                s.pair_counts[i].get(v).copied().unwrap_or(0)
            };
            score += cnt as f64 * s.weights[i] + (c.max_skew - 1) as f64;
        }
        Ok(score.round() as i64)
    }

    fn normalize_score(&self, _: &CycleState, _: &PodInfo, scores: &mut [i64]) {
        let valid = scores.iter().copied().filter(|s| *s != INVALID_SCORE);
        let min = valid.clone().min().unwrap_or(0);
        let max = valid.max().unwrap_or(0);
        for s in scores.iter_mut() {
            *s = if *s == INVALID_SCORE {
                0
            } else if max == 0 {
                MAX_NODE_SCORE
            } else {
                MAX_NODE_SCORE * (max + min - *s) / max
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn node(name: &str, zone: &str) -> NodeInfo {
        let mut n = NodeInfo::new(&json!({"metadata": {"name": name, "labels": {
            HOSTNAME: name, ZONE: zone}}}));
        n.allocatable = Resource {
            milli_cpu: 4000,
            memory: 1 << 33,
            pods: 110,
        };
        n
    }
    fn pod(name: &str, labels: Value, spec: Value) -> PodInfo {
        PodInfo::new(
            &json!({"metadata": {"name": name, "namespace": "default", "labels": labels}, "spec": spec}),
        )
    }

    #[test]
    fn system_defaults_prefer_emptier_nodes() {
        let mut nodes = vec![node("a", "z1"), node("b", "z1"), node("c", "z2")];
        for i in 0..2 {
            nodes[0].add_pod(pod(&format!("w{i}"), json!({"app": "web"}), json!({})));
        }
        nodes[2].add_pod(pod("other", json!({"app": "db"}), json!({})));
        let incoming = pod("new", json!({"app": "web"}), json!({}));
        let mut st = CycleState::default();
        st.write(DEFAULT_SELECTORS, vec![Selector::parse("app=web").unwrap()]);
        let feasible: Vec<&NodeInfo> = nodes.iter().collect();
        assert!(PodTopologySpread
            .pre_score(&mut st, &incoming, &feasible, &nodes)
            .is_success());
        let mut s: Vec<i64> = nodes
            .iter()
            .map(|n| PodTopologySpread.score(&st, &incoming, n).unwrap())
            .collect();
        // hostname weight ln(5), zone weight ln(4): a = 2*1.609+2 + 2*1.386+4 = 12; b = 2+2*1.386+4 = 9; c = 6.
        assert_eq!(s, [12, 9, 6]);
        PodTopologySpread.normalize_score(&st, &incoming, &mut s);
        assert_eq!(s, [50, 75, 100]);
        // No owner: nothing to spread.
        let mut st = CycleState::default();
        assert_eq!(
            PodTopologySpread.pre_score(&mut st, &incoming, &feasible, &nodes),
            Status::skip()
        );
    }

    /// The cycle state after PreScore of `incoming` spread by `selector` over every node, with
    /// or without the snapshot's label index.
    fn prescored(
        nodes: &[NodeInfo],
        incoming: &PodInfo,
        selector: &str,
        indexed: bool,
    ) -> CycleState {
        let mut st = CycleState::default();
        st.write(DEFAULT_SELECTORS, vec![Selector::parse(selector).unwrap()]);
        if indexed {
            let mut index = PodLabelIndex::default();
            for n in nodes {
                for p in &n.pods {
                    index.add(&n.name, p);
                }
            }
            st.write(POD_LABEL_INDEX, Rc::new(index));
        }
        let feasible: Vec<&NodeInfo> = nodes.iter().collect();
        assert!(PodTopologySpread
            .pre_score(&mut st, incoming, &feasible, nodes)
            .is_success());
        st
    }

    /// The scores of every node for `incoming` spread by `selector`, with or without the
    /// snapshot's label index.
    fn scores(nodes: &[NodeInfo], incoming: &PodInfo, selector: &str, indexed: bool) -> Vec<i64> {
        let st = prescored(nodes, incoming, selector, indexed);
        let mut s: Vec<i64> = nodes
            .iter()
            .map(|n| PodTopologySpread.score(&st, incoming, n).unwrap())
            .collect();
        PodTopologySpread.normalize_score(&st, incoming, &mut s);
        s
    }

    #[test]
    fn the_label_index_visits_fewer_nodes_and_scores_the_same() {
        let zones = ["z1", "z2", "z3"];
        let mut nodes: Vec<NodeInfo> = (0..9)
            .map(|i| node(&format!("n{i}"), zones[i % 3]))
            .collect();
        // Web pods on some nodes, one of them being deleted, a db pod, a web pod elsewhere.
        for (i, n) in [0, 0, 1, 4, 7].iter().enumerate() {
            nodes[*n].add_pod(pod(&format!("w{i}"), json!({"app": "web"}), json!({})));
        }
        let mut gone = pod("w-gone", json!({"app": "web"}), json!({}));
        gone.deleting = true;
        nodes[2].add_pod(gone);
        nodes[5].add_pod(pod("db", json!({"app": "db", "tier": "x"}), json!({})));
        let incoming = pod("new", json!({"app": "web"}), json!({}));
        for selector in ["app=web", "app in (web)", "app in (web,db)", "app,tier!=x"] {
            assert_eq!(
                scores(&nodes, &incoming, selector, true),
                scores(&nodes, &incoming, selector, false),
                "{selector}"
            );
        }
        // Only the web pods' nodes are candidates.
        let mut st = CycleState::default();
        let mut index = PodLabelIndex::default();
        for n in &nodes {
            for p in &n.pods {
                index.add(&n.name, p);
            }
        }
        index.remove("n7", &nodes[7].pods[0]);
        st.write(POD_LABEL_INDEX, Rc::new(index));
        let cs = system_defaults(&[Selector::parse("app=web").unwrap()]);
        assert_eq!(
            domain_candidates(&st, &incoming, &cs, &nodes),
            Some(vec![0, 1, 2, 4])
        );
        let cs = system_defaults(&[Selector::parse("app").unwrap()]);
        assert_eq!(domain_candidates(&st, &incoming, &cs, &nodes), None);
    }

    #[test]
    fn hostname_counts_are_taken_in_prescore_from_the_nodes_with_the_owners_pods() {
        let mut nodes: Vec<NodeInfo> = (0..6).map(|i| node(&format!("n{i}"), "z1")).collect();
        for n in [0, 0, 3] {
            nodes[n].add_pod(pod(&format!("w{n}"), json!({"app": "web"}), json!({})));
        }
        let mut gone = pod("w-gone", json!({"app": "web"}), json!({}));
        gone.deleting = true;
        nodes[5].add_pod(gone);
        let incoming = pod("new", json!({"app": "web"}), json!({}));
        let hosts = |all: &[NodeInfo]| {
            let st = prescored(all, &incoming, "app=web", true);
            st.read::<ScoreState>(PRE_SCORE).unwrap().hosts.clone()
        };
        // The pod being deleted is not counted, and its node is not listed.
        let mut expected = vec![(nodes[0].generation, 2), (nodes[3].generation, 1)];
        expected.sort();
        assert_eq!(hosts(&nodes), Some(expected.clone()));
        // The same with the nodes out of name order.
        nodes.swap(0, 3);
        assert_eq!(hosts(&nodes), Some(expected));
        // Scored, every node counts as it does without the index.
        let incoming_scores = |indexed| scores(&nodes, &incoming, "app=web", indexed);
        assert_eq!(incoming_scores(true), incoming_scores(false));
    }

    #[test]
    fn pods_of_one_template_count_alike_but_a_deleting_one_never_counts() {
        let mut gone = pod("gone", json!({"app": "web"}), json!({}));
        gone.deleting = true;
        let mut first = node("n1", "z1");
        first.add_pod(gone);
        first.add_pod(pod("w1", json!({"app": "web"}), json!({})));
        first.add_pod(pod("db", json!({"app": "db"}), json!({})));
        let mut second = node("n2", "z1");
        second.add_pod(pod("w2", json!({"app": "web"}), json!({})));
        second.add_pod(pod("w3", json!({"app": "web"}), json!({})));
        // Another namespace's pod with the same labels is another label set.
        second.add_pod(PodInfo::new(&json!({"metadata": {"name": "w4",
            "namespace": "other", "labels": {"app": "web"}}})));
        let web = Constraint::new(
            1,
            HOSTNAME.into(),
            vec![Selector::parse("app=web").unwrap()],
        );
        // The deleting pod is met first: what it says of its label set must not stick.
        assert_eq!(web.count(&first, "default", None), 1);
        assert_eq!(web.count(&second, "default", None), 2);
        // A constraint is asked about one namespace (its signature holds it): a new one.
        let web_other = Constraint::new(
            1,
            HOSTNAME.into(),
            vec![Selector::parse("app=web").unwrap()],
        );
        assert_eq!(web_other.count(&second, "other", None), 1);
        let db = Constraint::new(1, HOSTNAME.into(), vec![Selector::parse("app=db").unwrap()]);
        assert_eq!(db.count(&first, "default", None), 1);
        assert_eq!(db.count(&second, "default", None), 0);
    }

    #[test]
    fn a_node_is_found_from_any_position_before_it() {
        let all: Vec<NodeInfo> = (0..37).map(|i| node(&format!("n{i:02}"), "z")).collect();
        for from in 0..=all.len() {
            for (i, n) in all.iter().enumerate() {
                let want = (i >= from).then_some(i);
                assert_eq!(
                    search_from(&all, from, &n.name),
                    want,
                    "from {from}, n{i:02}"
                );
            }
            assert_eq!(search_from(&all, from, "n99"), None);
            assert_eq!(search_from(&all, from, "a"), None);
        }
    }

    #[test]
    fn do_not_schedule_filters_by_skew() {
        let mut nodes = vec![node("a", "z1"), node("b", "z2")];
        nodes[0].add_pod(pod("w0", json!({"app": "web"}), json!({})));
        let incoming = pod(
            "new",
            json!({"app": "web"}),
            json!({"topologySpreadConstraints": [
            {"maxSkew": 1, "topologyKey": ZONE, "whenUnsatisfiable": "DoNotSchedule",
             "labelSelector": {"matchLabels": {"app": "web"}}}]}),
        );
        let mut st = CycleState::default();
        assert!(PodTopologySpread
            .pre_filter(&mut st, &incoming, &nodes)
            .is_success());
        assert_eq!(
            PodTopologySpread.filter(&st, &incoming, &nodes[0]),
            Status::unschedulable(REASON)
        );
        assert!(PodTopologySpread
            .filter(&st, &incoming, &nodes[1])
            .is_success());
    }
}
