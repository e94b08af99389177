//! The trace: every step of the simulation as a record. It is the product: the command line
//! prints it, the playground draws it, tests compare it.

use crate::kernel::Millis;
use serde_json::{Map, Value};
use std::fmt::Write as _;

/// The component a record belongs to (DESIGN.md's list, in lane order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Component {
    Kubectl,
    Etcdctl,
    KubeApiserver,
    Etcd,
    KubeControllerManager,
    KubeScheduler,
    Kubelet,
    ContainerRuntime,
    Cni,
    KubeProxy,
    Kubeplay,
}

impl Component {
    pub fn as_str(self) -> &'static str {
        match self {
            Component::Kubectl => "kubectl",
            Component::Etcdctl => "etcdctl",
            Component::KubeApiserver => "kube-apiserver",
            Component::Etcd => "etcd",
            Component::KubeControllerManager => "kube-controller-manager",
            Component::KubeScheduler => "kube-scheduler",
            Component::Kubelet => "kubelet",
            Component::ContainerRuntime => "container-runtime",
            Component::Cni => "cni",
            Component::KubeProxy => "kube-proxy",
            Component::Kubeplay => "kubeplay",
        }
    }
}

/// One step. `explain` is the key of the step's explanation (see [`crate::explain`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub t_ms: Millis,
    pub component: Component,
    pub action: &'static str,
    pub summary: String,
    /// The other end of an arrow in the flow diagram (a request's server, a response's client).
    pub peer: Option<String>,
    pub node: Option<String>,
    /// `Kind namespace/name` or `Kind name`.
    pub object: Option<String>,
    pub key: Option<String>,
    pub revision: Option<i64>,
    pub explain: &'static str,
    /// Structured extra data (a scheduling decision's per-node table, a request's status code).
    pub detail: Option<Map<String, Value>>,
}

impl Record {
    pub fn new(
        t_ms: Millis,
        component: Component,
        action: &'static str,
        summary: impl Into<String>,
    ) -> Self {
        Record {
            t_ms,
            component,
            action,
            summary: summary.into(),
            peer: None,
            node: None,
            object: None,
            key: None,
            revision: None,
            explain: action,
            detail: None,
        }
    }
    pub fn peer(mut self, peer: impl Into<String>) -> Self {
        self.peer = Some(peer.into());
        self
    }
    pub fn node(mut self, node: impl Into<String>) -> Self {
        self.node = Some(node.into());
        self
    }
    pub fn object(mut self, object: impl Into<String>) -> Self {
        self.object = Some(object.into());
        self
    }
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
    pub fn revision(mut self, rev: i64) -> Self {
        self.revision = Some(rev);
        self
    }
    pub fn explain(mut self, key: &'static str) -> Self {
        self.explain = key;
        self
    }
    pub fn detail(mut self, field: &str, value: Value) -> Self {
        self.detail
            .get_or_insert_with(Map::new)
            .insert(field.to_string(), value);
        self
    }

    /// The JSON Lines form (`kubeplay run --trace json`).
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("t_ms".into(), self.t_ms.into());
        m.insert("component".into(), self.component.as_str().into());
        m.insert("action".into(), self.action.into());
        m.insert("summary".into(), self.summary.clone().into());
        for (k, v) in [
            ("peer", &self.peer),
            ("node", &self.node),
            ("object", &self.object),
            ("key", &self.key),
        ] {
            if let Some(v) = v {
                m.insert(k.into(), v.clone().into());
            }
        }
        if let Some(r) = self.revision {
            m.insert("revision".into(), r.into());
        }
        m.insert("explain".into(), self.explain.into());
        if let Some(d) = &self.detail {
            for (k, v) in d {
                m.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        Value::Object(m)
    }

    /// The text form: `00:00.012  kube-apiserver           authorize     RBAC: allowed ...`.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            "{}  {:<23}  {:<18}  {}",
            clock(self.t_ms),
            self.component.as_str(),
            self.action,
            self.summary
        );
        if self.action == "watch" {
            if let Some(p) = &self.peer {
                let _ = write!(s, " -> {p}");
            }
        }
        if let Some(r) = self.revision {
            let _ = write!(s, "  [rev {r}]");
        }
        s
    }
}

/// `mm:ss.mmm` (and `h:mm:ss.mmm` past an hour), as the playground's clock shows time.
pub fn clock(ms: Millis) -> String {
    let (h, m, s, milli) = (
        ms / 3_600_000,
        (ms / 60_000) % 60,
        (ms / 1000) % 60,
        ms % 1000,
    );
    if h > 0 {
        format!("{h}:{m:02}:{s:02}.{milli:03}")
    } else {
        format!("{m:02}:{s:02}.{milli:03}")
    }
}

/// The records of a run, in order.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub records: Vec<Record>,
    /// While false (the cluster's own bootstrap), nothing is recorded.
    pub enabled: bool,
}

impl Trace {
    pub fn push(&mut self, r: Record) {
        if self.enabled {
            self.records.push(r);
        }
    }

    pub fn to_json_lines(&self) -> String {
        let mut out = String::new();
        for r in &self.records {
            out.push_str(&r.to_json().to_string());
            out.push('\n');
        }
        out
    }

    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for r in &self.records {
            out.push_str(&r.to_text());
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_has_the_documented_fields() {
        let r = Record::new(
            12,
            Component::Etcd,
            "etcd.txn",
            "PUT /registry/deployments/default/web",
        )
        .key("/registry/deployments/default/web")
        .revision(412)
        .object("Deployment default/web");
        let j = r.to_json();
        assert_eq!(j["t_ms"], 12);
        assert_eq!(j["component"], "etcd");
        assert_eq!(j["revision"], 412);
        assert_eq!(j["explain"], "etcd.txn");
        assert!(j.get("node").is_none());
        assert_eq!(clock(7412), "00:07.412");
        assert_eq!(clock(3_600_000 + 61_001), "1:01:01.001");
    }
}
