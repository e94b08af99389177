//! The kubelet's own admission of a pod, before its pod worker does anything
//! (`pkg/kubelet/lifecycle/predicate.go`): the node's OS, then the scheduler's admission checks
//! run again against what the kubelet already runs (resources, required node affinity, host
//! ports) and the node's `NoExecute` taints. A pod bound with `spec.nodeName` never met the
//! scheduler, so this is where it is turned away: phase `Failed`, reason `OutOfcpu` and the
//! message `Pod was rejected: Node didn't have enough resource: cpu, requested: ...`.

use crate::api::value::Value;
use crate::api::Object;
use crate::cluster::component::Ctx;
use crate::controllers::podutil::At;
use crate::json;
use crate::scheduler::framework::{tolerates, tolerations, HostPort, NodeInfo, PodInfo, Resource};
use crate::scheduler::plugins::{node_affinity, node_ports, taint_toleration};
use std::rc::Rc;

/// Why the pod may not run here (`PodAdmitResult` with `Admit: false`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// The event reason and `status.reason`: `OutOfcpu`, `OutOfmemory`, `OutOfpods`,
    /// `NodeAffinity`, `TaintToleration`, ...
    pub reason: String,
    /// The event message (`status.message` is `Pod was rejected: ` and this).
    pub message: String,
}

fn rejection(reason: &str, message: String) -> Rejection {
    Rejection {
        reason: reason.to_string(),
        message,
    }
}

/// `InsufficientResourceError.Error()`.
fn insufficient(resource: &str, requested: i64, used: i64, capacity: i64) -> Rejection {
    let reason = match resource {
        "cpu" => "OutOfcpu".to_string(),
        "memory" => "OutOfmemory".to_string(),
        "pods" => "OutOfpods".to_string(),
        other => format!("OutOf{other}"),
    };
    Rejection {
        reason,
        message: format!(
            "Node didn't have enough resource: {resource}, requested: {requested}, used: {used}, capacity: {capacity}"
        ),
    }
}

/// `PredicateFailureError.Error()`.
fn predicate(name: &str, desc: &str) -> Rejection {
    rejection(name, format!("Predicate {name} failed: {desc}"))
}

fn ports_conflict(pod: &PodInfo, node: &NodeInfo) -> bool {
    pod.host_ports.iter().any(|(ip, proto, port)| {
        node.used_ports.iter().any(|(uip, uproto, uport)| {
            uport == port && uproto == proto && (ip == uip || ip == "0.0.0.0" || uip == "0.0.0.0")
        })
    })
}

/// What admission remembers of a pod it admitted: its requests and host ports.
#[derive(Clone, Debug, Default)]
pub struct Admitted {
    pub requests: Resource,
    pub host_ports: Vec<HostPort>,
}

impl Admitted {
    #[cfg(test)]
    pub fn of(pod: &Object) -> Admitted {
        Self::of_info(PodInfo::new(pod))
    }

    /// What admission remembers of the shared cached pod (no copy of it).
    pub fn of_shared(pod: &Rc<Object>) -> Admitted {
        Self::of_info(PodInfo::shared(Rc::clone(pod)))
    }

    fn of_info(info: PodInfo) -> Admitted {
        Admitted {
            requests: info.requests,
            host_ports: info.host_ports,
        }
    }
}

/// `admit_info` for a pod on its own (the tests').
#[cfg(test)]
pub fn admit(pod: &Object, node: &Object, others: &[&Admitted]) -> Result<(), Rejection> {
    admit_info(pod, &PodInfo::new(pod), node, others)
}

/// Admits `pod` (`me` is its scheduler view) on `node`, which already runs `others` (the pods
/// this kubelet admitted and that have not finished). The first failed check is the answer,
/// as the kubelet reports only `reasons[0]`.
fn admit_info(
    pod: &Object,
    me: &PodInfo,
    node: &Object,
    others: &[&Admitted],
) -> Result<(), Rejection> {
    let os_label = "kubernetes.io/os";
    if let Some(want) = pod
        .at(&["metadata", "labels"])
        .and_then(|l| l.get(os_label))
        .and_then(Value::as_str)
    {
        let have = node
            .at(&["metadata", "labels"])
            .and_then(|l| l.get(os_label))
            .and_then(Value::as_str)
            .unwrap_or("linux");
        if want != have {
            return Err(rejection(
                "PodOSSelectorNodeLabelDoesNotMatch",
                "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label"
                    .into(),
            ));
        }
    }
    if let Some(os) = pod.at(&["spec", "os", "name"]).and_then(Value::as_str) {
        if os != "linux" {
            return Err(rejection(
                "PodOSNotSupported",
                "Failed to admit pod as the OS field doesn't match node OS".into(),
            ));
        }
    }
    let mut info = NodeInfo::new(node);
    for o in others {
        info.requested.milli_cpu += o.requests.milli_cpu;
        info.requested.memory += o.requests.memory;
        info.used_ports.extend(o.host_ports.iter().cloned());
    }
    let running = others.len() as i64;
    let mut reasons = Vec::new();
    let allowed = info.allocatable.pods;
    if running + 1 > allowed {
        reasons.push(insufficient("pods", 1, running, allowed));
    }
    let (req, used, alloc) = (me.requests, info.requested, info.allocatable);
    if req.milli_cpu > 0 && req.milli_cpu > alloc.milli_cpu - used.milli_cpu {
        reasons.push(insufficient(
            "cpu",
            req.milli_cpu,
            used.milli_cpu,
            alloc.milli_cpu,
        ));
    }
    if req.memory > 0 && req.memory > alloc.memory - used.memory {
        reasons.push(insufficient(
            "memory",
            req.memory,
            used.memory,
            alloc.memory,
        ));
    }
    if !node_affinity::required_matches(me, &info) {
        reasons.push(predicate(node_affinity::NAME, node_affinity::REASON));
    }
    if ports_conflict(me, &info) {
        reasons.push(predicate(node_ports::NAME, node_ports::REASON));
    }
    let tols = tolerations(me);
    let untolerated = info.taints().iter().any(|t| {
        t.get("effect").and_then(Value::as_str) == Some("NoExecute")
            && !tols.iter().any(|tol| tolerates(tol, t))
    });
    if untolerated {
        reasons.push(predicate(taint_toleration::NAME, taint_toleration::REASON));
    }
    match reasons.into_iter().next() {
        Some(r) => Err(r),
        None => Ok(()),
    }
}

impl super::Kubelet {
    /// `canAdmitPod` with the pods this kubelet runs that have not finished.
    pub(super) fn admission(&self, ctx: &Ctx<'_>, pod: &Rc<Object>) -> Result<(), Rejection> {
        let Some(node) = ctx.cache(super::NODE).get(&self.node) else {
            return Ok(());
        };
        let others: Vec<&Admitted> = self
            .workers
            .values()
            .filter(|w| !matches!(super::status::phase(w), "Succeeded" | "Failed"))
            .map(|w| &w.admitted)
            .collect();
        admit_info(pod, &PodInfo::shared(Rc::clone(pod)), node, &others)
    }

    /// `rejectPod`: a Warning event with the reason, and the status `Failed` with
    /// `Pod was rejected: <message>`. The pod never gets a sandbox.
    pub(super) fn reject(&mut self, ctx: &mut Ctx<'_>, pod: &Object, r: Rejection) {
        let key = crate::cluster::informer::key_of(pod);
        self.rejected.insert(crate::api::meta::uid(pod).to_string());
        self.lane_record(
            ctx,
            super::Lane::Kubelet,
            "kubelet.reject",
            pod,
            format!(
                "SyncPod {key}: rejected on {}: {}: {}",
                self.node, r.reason, r.message
            ),
        );
        self.event(
            ctx,
            pod,
            None,
            super::EventType::Warning,
            &r.reason,
            &r.message,
        );
        let start = pod
            .at(&["status", "startTime"])
            .cloned()
            .unwrap_or_else(|| json!(crate::kernel::time::rfc3339(ctx.now())));
        let body = json!({
            "metadata": {"uid": crate::api::meta::uid(pod)},
            "status": {"phase": "Failed", "reason": r.reason,
                       "message": format!("Pod was rejected: {}", r.message), "startTime": start}
        });
        let req = ctx
            .request(
                crate::apiserver::Verb::Patch(crate::apiserver::PatchType::Merge),
                super::pods(),
            )
            .namespace(crate::api::meta::namespace(pod))
            .name(crate::api::meta::name(pod))
            .subresource("status")
            .body(body);
        let _ = ctx.send_owned(req);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(cpu: &str, mem: &str) -> Object {
        json!({"metadata": {"name": "p", "namespace": "default"},
               "spec": {"nodeName": "node-1", "containers": [{"name": "c", "image": "nginx",
                 "resources": {"requests": {"cpu": cpu, "memory": mem}}}]}})
    }

    fn node() -> Object {
        json!({"metadata": {"name": "node-1", "labels": {"kubernetes.io/os": "linux"}},
               "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"}}})
    }

    #[test]
    fn rejects_what_does_not_fit_with_the_kubelets_message() {
        let other = Admitted::of(&pod("200m", "100Mi"));
        assert_eq!(admit(&pod("1", "1Gi"), &node(), &[&other]), Ok(()));
        let r = admit(&pod("3", "1Gi"), &node(), &[&other]).unwrap_err();
        assert_eq!(r.reason, "OutOfcpu");
        assert_eq!(
            r.message,
            "Node didn't have enough resource: cpu, requested: 3000, used: 200, capacity: 2000"
        );
        let r = admit(&pod("100m", "5Gi"), &node(), &[&other]).unwrap_err();
        assert_eq!(r.reason, "OutOfmemory");
        assert_eq!(
            r.message,
            "Node didn't have enough resource: memory, requested: 5368709120, used: 104857600, capacity: 4294967296"
        );
        let mut tainted = node();
        tainted["spec"] = json!({"taints": [{"key": "k", "effect": "NoExecute"}]});
        let r = admit(&pod("100m", "1Mi"), &tainted, &[]).unwrap_err();
        assert_eq!(r.reason, "TaintToleration");
        assert_eq!(
            r.message,
            "Predicate TaintToleration failed: node(s) had untolerated taint(s)"
        );
    }
}
