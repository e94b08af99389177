//! The Flow diagram's model: one lane per component and, for every trace record, an arrow
//! between two lanes (a request, a response, an etcd write or read, a watch delivery) or a
//! note on one lane (a step inside a component). Built incrementally as records appear.

use kubeplay_core::trace::{Component, Record};

/// What a row of the diagram draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// A client's request to kube-apiserver.
    Request,
    /// kube-apiserver's answer.
    Response,
    /// kube-apiserver reading or writing etcd.
    Etcd,
    /// A watch event delivered to a client.
    Watch,
    /// A step inside one component.
    Note,
}

impl RowKind {
    pub fn class(self) -> &'static str {
        match self {
            RowKind::Request => "request",
            RowKind::Response => "response",
            RowKind::Etcd => "etcd",
            RowKind::Watch => "watch",
            RowKind::Note => "note",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowRow {
    pub kind: RowKind,
    pub from: u16,
    /// The other end of the arrow (none for a note).
    pub to: Option<u16>,
    /// For a request, the record of its response (which names the client).
    pub pair: Option<u32>,
}

/// The lanes, left to right: kubectl, kube-apiserver, etcd, kube-controller-manager,
/// kube-scheduler, one `kubelet/<node>` per node (its container runtime and CNI steps are
/// drawn on it), and kube-proxy (all nodes'). Above [`MAX_NODE_LANES`] nodes the kubelets share
/// one lane, `kubelet/<first>…<last>`, and each row on it names its node.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowIndex {
    pub lanes: Vec<String>,
    pub rows: Vec<FlowRow>,
    /// Requests waiting for their response.
    open: Vec<usize>,
    /// Whether every node's kubelet is drawn on one lane.
    shared_kubelet_lane: bool,
}

/// The most nodes drawn as a lane each: beyond it a sequence diagram's columns are too narrow
/// to read (and a thousand lanes are a thousand columns to lay out).
pub const MAX_NODE_LANES: usize = 10;

pub const KUBECTL: u16 = 0;
pub const APISERVER: u16 = 1;
pub const ETCD: u16 = 2;
pub const CONTROLLERS: u16 = 3;
pub const SCHEDULER: u16 = 4;
const FIRST_KUBELET: u16 = 5;

impl FlowIndex {
    pub fn new(nodes: &[String]) -> Self {
        let mut lanes: Vec<String> = [
            "kubectl",
            "kube-apiserver",
            "etcd",
            "kube-controller-manager",
            "kube-scheduler",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let shared_kubelet_lane = nodes.len() > MAX_NODE_LANES;
        match (nodes.first(), nodes.last()) {
            (Some(first), Some(last)) if shared_kubelet_lane => {
                lanes.push(format!("kubelet/{first}…{last}"))
            }
            _ => lanes.extend(nodes.iter().map(|n| format!("kubelet/{n}"))),
        }
        lanes.push("kube-proxy".to_string());
        FlowIndex {
            lanes,
            rows: Vec::new(),
            open: Vec::new(),
            shared_kubelet_lane,
        }
    }

    fn proxy(&self) -> u16 {
        (self.lanes.len() - 1) as u16
    }

    fn node_lane(&self, node: Option<&str>) -> Option<u16> {
        let node = node?;
        if self.shared_kubelet_lane {
            return Some(FIRST_KUBELET);
        }
        self.lanes
            .iter()
            .position(|l| l.strip_prefix("kubelet/") == Some(node))
            .map(|i| i as u16)
    }

    /// The lane a component's record is drawn on.
    fn lane_of(&self, r: &Record) -> u16 {
        match r.component {
            Component::Kubectl | Component::Etcdctl => KUBECTL,
            Component::KubeApiserver => APISERVER,
            Component::Etcd => ETCD,
            Component::KubeControllerManager => CONTROLLERS,
            Component::KubeScheduler => SCHEDULER,
            Component::Kubelet | Component::ContainerRuntime | Component::Cni => self
                .node_lane(r.node.as_deref())
                .unwrap_or(FIRST_KUBELET.min(self.proxy())),
            Component::KubeProxy => self.proxy(),
            Component::Kubeplay => self.node_lane(r.node.as_deref()).unwrap_or(KUBECTL),
        }
    }

    /// The lane of a client named on an arrow (`kubectl`, `kubelet/node-1`,
    /// `default-scheduler`, `replicaset-controller`, ...).
    pub fn client_lane(&self, peer: &str) -> u16 {
        if peer == "kubectl" || peer == "kubeplay" || peer == "etcdctl" {
            KUBECTL
        } else if peer == "kube-apiserver" {
            APISERVER
        } else if peer == "etcd" {
            ETCD
        } else if let Some(node) = peer.strip_prefix("kubelet/") {
            self.node_lane(Some(node))
                .unwrap_or(FIRST_KUBELET.min(self.proxy()))
        } else if peer.starts_with("kube-proxy") {
            self.proxy()
        } else if peer.contains("scheduler") {
            SCHEDULER
        } else {
            CONTROLLERS
        }
    }

    /// Adds rows for the records not indexed yet.
    pub fn extend(&mut self, records: &[Record]) {
        // A rebuilt cluster has a shorter trace: start over.
        if records.len() < self.rows.len() {
            self.rows.clear();
            self.open.clear();
        }
        for (i, r) in records.iter().enumerate().skip(self.rows.len()) {
            let row = match r.action {
                "request" => {
                    self.open.push(i);
                    FlowRow {
                        kind: RowKind::Request,
                        from: self.lane_of(r),
                        to: Some(APISERVER),
                        pair: None,
                    }
                }
                "response" if r.component == Component::KubeApiserver => {
                    let to = r.peer.as_deref().map(|p| self.client_lane(p));
                    if let Some(req) = self.open.pop() {
                        self.rows[req].pair = Some(i as u32);
                        if let (Some(to), Component::Kubelet | Component::KubeProxy) =
                            (to, records[req].component)
                        {
                            self.rows[req].from = to;
                        }
                    }
                    FlowRow {
                        kind: RowKind::Response,
                        from: APISERVER,
                        to,
                        pair: None,
                    }
                }
                "watch" if r.component == Component::KubeApiserver && r.peer.is_some() => FlowRow {
                    kind: RowKind::Watch,
                    from: APISERVER,
                    to: r.peer.as_deref().map(|p| self.client_lane(p)),
                    pair: None,
                },
                a if r.component == Component::Etcd
                    && a.starts_with("etcd.")
                    && r.peer.as_deref() == Some("kube-apiserver") =>
                {
                    FlowRow {
                        kind: RowKind::Etcd,
                        from: APISERVER,
                        to: Some(ETCD),
                        pair: None,
                    }
                }
                _ => FlowRow {
                    kind: RowKind::Note,
                    from: self.lane_of(r),
                    to: None,
                    pair: None,
                },
            };
            self.rows.push(row);
        }
    }

    /// The client that sent request `i` (from its response), when known.
    pub fn client<'a>(&self, records: &'a [Record], i: usize) -> Option<&'a str> {
        let pair = self.rows.get(i)?.pair? as usize;
        records.get(pair)?.peer.as_deref()
    }

    /// How many arrows of the first `n` rows start or end on each lane.
    pub fn arrows_per_lane(&self, n: usize) -> Vec<usize> {
        let mut counts = vec![0; self.lanes.len()];
        for row in &self.rows[..n.min(self.rows.len())] {
            if let Some(to) = row.to {
                counts[row.from as usize] += 1;
                if to != row.from {
                    counts[to as usize] += 1;
                }
            }
        }
        counts
    }
}

/// The label of a record's arrow or note: what a diagram in a talk would write.
pub fn label(r: &Record, row: &FlowRow, client: Option<&str>, lanes: &[String]) -> String {
    match row.kind {
        RowKind::Etcd => match r.summary.find(" then ") {
            Some(i) => r.summary[i + 6..].to_string(),
            None => r.summary.clone(),
        },
        RowKind::Request => match client {
            Some(c) if lanes.get(row.from as usize).map(String::as_str) != Some(c) => {
                format!("{}  ({c})", r.summary)
            }
            _ => r.summary.clone(),
        },
        RowKind::Watch | RowKind::Response => match r.peer.as_deref() {
            Some(p)
                if row
                    .to
                    .and_then(|t| lanes.get(t as usize))
                    .map(String::as_str)
                    != Some(p) =>
            {
                format!("{}  → {p}", r.summary)
            }
            _ => r.summary.clone(),
        },
        RowKind::Note => match r.node.as_deref() {
            // On the kubelets' shared lane, a node's step says which node.
            Some(n)
                if lanes
                    .get(row.from as usize)
                    .and_then(|l| l.strip_prefix("kubelet/"))
                    .is_some_and(|l| l != n) =>
            {
                format!("{n} {}: {}", r.action, r.summary)
            }
            _ => format!("{}: {}", r.action, r.summary),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::player::Player;
    use crate::state::scenario::{parse, DEFAULT_SCENARIO};

    #[test]
    fn every_record_gets_a_row_and_kubelet_requests_find_their_node() {
        let mut p = Player::new(parse(DEFAULT_SCENARIO).unwrap());
        p.run_to_end(&mut || false);
        let f = p.flow();
        assert_eq!(f.rows.len(), p.records().len());
        assert_eq!(
            f.lanes,
            [
                "kubectl",
                "kube-apiserver",
                "etcd",
                "kube-controller-manager",
                "kube-scheduler",
                "kubelet/node-1",
                "kubelet/node-2",
                "kubelet/node-3",
                "kube-proxy"
            ]
        );
        let counts = f.arrows_per_lane(f.rows.len());
        for lane in [
            "kube-apiserver",
            "etcd",
            "kube-scheduler",
            "kubelet/node-1",
            "kubelet/node-3",
        ] {
            let i = f.lanes.iter().position(|l| l == lane).unwrap();
            assert!(counts[i] > 0, "{lane} has arrows");
        }
        // A kubelet's PATCH of its pod's status starts on its node's lane.
        let (i, _) = p
            .records()
            .iter()
            .enumerate()
            .find(|(_, r)| r.component == Component::Kubelet && r.action == "request")
            .unwrap();
        let client = f.client(p.records(), i).unwrap();
        assert!(client.starts_with("kubelet/node-"), "{client}");
        assert_eq!(f.lanes[f.rows[i].from as usize], client);
        // The etcd write is labelled with its key and revision.
        let (i, r) = p
            .records()
            .iter()
            .enumerate()
            .find(|(_, r)| r.action == "etcd.txn")
            .unwrap();
        assert_eq!(f.rows[i].kind, RowKind::Etcd);
        let l = label(r, &f.rows[i], None, &f.lanes);
        assert!(
            l.starts_with("PUT /registry/deployments/default/nginx -> revision "),
            "{l}"
        );
    }

    #[test]
    fn above_ten_nodes_the_kubelets_share_a_lane_and_each_row_names_its_node() {
        let mut text = String::new();
        for i in 1..=12 {
            text.push_str(&format!(
                "apiVersion: v1\nkind: Node\nmetadata:\n  name: worker-{i}\n---\n"
            ));
        }
        text.push_str(DEFAULT_SCENARIO);
        let mut p = Player::new(parse(&text).unwrap());
        p.run_to_end(&mut || false);
        let f = p.flow();
        assert_eq!(
            f.lanes,
            [
                "kubectl",
                "kube-apiserver",
                "etcd",
                "kube-controller-manager",
                "kube-scheduler",
                "kubelet/worker-1…worker-12",
                "kube-proxy"
            ]
        );
        let shared = FIRST_KUBELET;
        // A kubelet's request starts on the shared lane and names its client.
        let (i, r) = p
            .records()
            .iter()
            .enumerate()
            .find(|(_, r)| r.component == Component::Kubelet && r.action == "request")
            .unwrap();
        assert_eq!(f.rows[i].from, shared);
        let client = f.client(p.records(), i).unwrap();
        assert!(client.starts_with("kubelet/worker-"), "{client}");
        let l = label(r, &f.rows[i], Some(client), &f.lanes);
        assert!(l.ends_with(&format!("({client})")), "{l}");
        // A container runtime step on it says on which node.
        let (i, r) = p
            .records()
            .iter()
            .enumerate()
            .find(|(_, r)| r.component == Component::ContainerRuntime)
            .unwrap();
        assert_eq!((f.rows[i].kind, f.rows[i].from), (RowKind::Note, shared));
        let node = r.node.as_deref().unwrap();
        let l = label(r, &f.rows[i], None, &f.lanes);
        assert!(l.starts_with(&format!("{node} {}: ", r.action)), "{l}");
        assert!(f.arrows_per_lane(f.rows.len())[shared as usize] > 0);
    }
}
