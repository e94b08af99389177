//! What a new cluster holds before anyone applies anything: its namespaces, the bootstrap RBAC
//! policy, priority classes, default service accounts, the root CA ConfigMaps, the `kubernetes`
//! Service, and the nodes with their heartbeat Leases.

use crate::api::value::{json, Map, Value};
use crate::api::Object;
use crate::kernel::time::rfc3339_micro;

pub const NAMESPACES: [&str; 4] = ["default", "kube-system", "kube-public", "kube-node-lease"];

/// The address kube-apiserver advertises (the `kubernetes` Service's endpoint).
pub const APISERVER_ADDRESS: &str = "10.0.0.10";
pub const KUBELET_VERSION: &str = "v1.35.0";

const ROOT_CA: &str = "-----BEGIN CERTIFICATE-----\nMIIDBTCCAe2gAwIBAgIIkubeplayAAAwDQYJKoZIhvcNAQELBQAwFTETMBEGA1UE\nAxMKa3ViZXJuZXRlczAeFw0yNjAxMDEwMDAwMDBaFw0zNjAxMDEwMDAwMDBaMBUx\n-----END CERTIFICATE-----\n";

/// The `kube-root-ca.crt` ConfigMap every namespace holds.
pub fn root_ca_configmap(ns: &str) -> Object {
    json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "kube-root-ca.crt", "namespace": ns,
                     "annotations": {"kubernetes.io/description": "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters."}},
        "data": {"ca.crt": ROOT_CA}
    })
}

/// Objects created before the scenario, in creation order (namespaces first).
pub fn initial_objects() -> Vec<Object> {
    let mut objs: Vec<Object> = NAMESPACES
        .iter()
        .map(|ns| json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}))
        .collect();
    objs.extend(crate::apiserver::bootstrap::bootstrap_policy());
    for (name, value, description) in [
        ("system-cluster-critical", 2_000_000_000i64, "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."),
        ("system-node-critical", 2_000_001_000, "Used for system critical pods that must not be moved from their current node."),
    ] {
        objs.push(json!({
            "apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
            "metadata": {"name": name}, "value": value, "globalDefault": false,
            "description": description, "preemptionPolicy": "PreemptLowerPriority"
        }));
    }
    for ns in NAMESPACES {
        objs.push(json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "default", "namespace": ns}}));
        objs.push(root_ca_configmap(ns));
    }
    for sa in crate::apiserver::bootstrap::controller_names() {
        objs.push(json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": sa, "namespace": "kube-system"}}));
    }
    objs.push(json!({
        "apiVersion": "v1", "kind": "Service",
        "metadata": {"name": "kubernetes", "namespace": "default", "labels": {"component": "apiserver", "provider": "kubernetes"}},
        "spec": {"clusterIP": "10.96.0.1", "ports": [{"name": "https", "port": 443, "protocol": "TCP", "targetPort": 6443}], "type": "ClusterIP", "sessionAffinity": "None"}
    }));
    objs.push(json!({
        "apiVersion": "v1", "kind": "Endpoints",
        "metadata": {"name": "kubernetes", "namespace": "default", "labels": {"endpointslice.kubernetes.io/skip-mirror": "true"}},
        "subsets": [{"addresses": [{"ip": APISERVER_ADDRESS}], "ports": [{"name": "https", "port": 6443, "protocol": "TCP"}]}]
    }));
    objs.push(json!({
        "apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
        "metadata": {"name": "kubernetes", "namespace": "default", "labels": {"kubernetes.io/service-name": "kubernetes"}},
        "addressType": "IPv4",
        "endpoints": [{"addresses": [APISERVER_ADDRESS], "conditions": {"ready": true}}],
        "ports": [{"name": "https", "port": 6443, "protocol": "TCP"}]
    }));
    // kubeadm's kube-dns Service at the kubelets' clusterDNS address. The CoreDNS pods behind
    // it are not simulated, so it has no endpoints.
    objs.push(json!({
        "apiVersion": "v1", "kind": "Service",
        "metadata": {"name": "kube-dns", "namespace": "kube-system", "labels": {"k8s-app": "kube-dns", "kubernetes.io/cluster-service": "true", "kubernetes.io/name": "CoreDNS"}},
        "spec": {"clusterIP": crate::kubelet::cni::CLUSTER_DNS, "selector": {"k8s-app": "kube-dns"}, "type": "ClusterIP", "sessionAffinity": "None", "ports": [
            {"name": "dns", "port": 53, "protocol": "UDP", "targetPort": 53},
            {"name": "dns-tcp", "port": 53, "protocol": "TCP", "targetPort": 53},
            {"name": "metrics", "port": 9153, "protocol": "TCP", "targetPort": 9153}
        ]}
    }));
    objs
}

/// The default cluster: three workers `node-1`..`node-3`, 4 CPU, 8Gi, 110 pods, zones a..c.
pub fn default_nodes() -> Vec<Object> {
    (1..=3)
        .map(|i| {
            json!({
                "apiVersion": "v1", "kind": "Node",
                "metadata": {"name": format!("node-{i}"), "labels": {"topology.kubernetes.io/zone": format!("zone-{}", (b'a' + i as u8 - 1) as char)}},
                "status": {"capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"}}
            })
        })
        .collect()
}

/// Completes a scenario's Node with what a registering kubelet reports: standard labels,
/// podCIDR, capacity and allocatable, addresses, node info and conditions.
pub fn complete_node(node: &Object, index: usize, now_ms: u64) -> Object {
    let mut n = node.clone();
    let name = crate::api::meta::name(node).to_string();
    let meta = crate::api::meta::metadata_mut(&mut n);
    let labels = meta.entry("labels").or_insert_with(|| json!({}));
    if let Some(l) = labels.as_object_mut() {
        for (k, v) in [
            ("beta.kubernetes.io/arch", "amd64"),
            ("beta.kubernetes.io/os", "linux"),
            ("kubernetes.io/arch", "amd64"),
            ("kubernetes.io/hostname", name.as_str()),
            ("kubernetes.io/os", "linux"),
        ] {
            l.entry(k).or_insert_with(|| json!(v));
        }
    }
    for k in ["uid", "resourceVersion", "creationTimestamp"] {
        meta.remove(k);
    }
    let cidr = format!("10.244.{}.0/24", index + 1);
    // A spec, status or capacity that is not a mapping (`spec: x`) is left as written, for
    // kube-apiserver to refuse when the node registers.
    if let Some(spec) = mapping_at(&mut n, "spec") {
        if spec.get("podCIDR").is_none() {
            spec.insert("podCIDR", json!(cidr));
            spec.insert("podCIDRs", json!([cidr]));
        }
    }
    let Some(status) = mapping_at(&mut n, "status") else {
        return n;
    };
    let mut capacity = status.get("capacity").cloned().unwrap_or_else(|| json!({}));
    if let Some(c) = capacity.as_object_mut() {
        for (k, v) in [
            ("cpu", "4"),
            ("memory", "8Gi"),
            ("pods", "110"),
            ("ephemeral-storage", "100Gi"),
            ("hugepages-1Gi", "0"),
            ("hugepages-2Mi", "0"),
        ] {
            c.entry(k).or_insert_with(|| json!(v));
        }
    }
    status.insert("capacity", capacity.clone());
    if status.get("allocatable").is_none() {
        status.insert("allocatable", capacity);
    }
    let ip = format!("10.0.0.{}", 11 + index);
    status.insert(
        "addresses",
        json!([{"type": "InternalIP", "address": ip}, {"type": "Hostname", "address": name}]),
    );
    status.insert(
        "daemonEndpoints",
        json!({"kubeletEndpoint": {"Port": 10250}}),
    );
    status.insert("nodeInfo", json!({
        "architecture": "amd64", "bootID": format!("00000000-0000-4000-8000-{:012x}", index + 1),
        "containerRuntimeVersion": "containerd://2.1.4", "kernelVersion": "6.8.0-60-generic",
        "kubeProxyVersion": "", "kubeletVersion": KUBELET_VERSION,
        "machineID": format!("{:032x}", index + 1), "operatingSystem": "linux",
        "osImage": "Ubuntu 24.04.3 LTS", "systemUUID": format!("00000000-0000-4000-8000-{:012x}", index + 1)
    }));
    let t = crate::kernel::time::rfc3339(now_ms);
    let cond = |ty: &str, st: &str, reason: &str, msg: &str| -> Value {
        json!({"type": ty, "status": st, "reason": reason, "message": msg, "lastHeartbeatTime": t, "lastTransitionTime": t})
    };
    status.insert(
        "conditions",
        json!([
            cond(
                "MemoryPressure",
                "False",
                "KubeletHasSufficientMemory",
                "kubelet has sufficient memory available"
            ),
            cond(
                "DiskPressure",
                "False",
                "KubeletHasNoDiskPressure",
                "kubelet has no disk pressure"
            ),
            cond(
                "PIDPressure",
                "False",
                "KubeletHasSufficientPID",
                "kubelet has sufficient PID available"
            ),
            cond(
                "Ready",
                "True",
                "KubeletReady",
                "kubelet is posting ready status"
            ),
        ]),
    );
    n
}

/// The mapping at `obj[field]`, made one if the field is missing or null; `None` if it holds
/// something else (a string, a list).
fn mapping_at<'a>(obj: &'a mut Object, field: &str) -> Option<&'a mut Map> {
    let v = crate::api::meta::ensure_path(obj, &[field]);
    if v.is_null() {
        *v = Value::Object(Map::new());
    }
    v.as_object_mut()
}

/// A node's heartbeat Lease in `kube-node-lease`.
pub fn node_lease(node: &str, now_ms: u64) -> Object {
    json!({
        "apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
        "metadata": {"name": node, "namespace": "kube-node-lease"},
        "spec": {"holderIdentity": node, "leaseDurationSeconds": 40, "renewTime": rfc3339_micro(now_ms)}
    })
}
