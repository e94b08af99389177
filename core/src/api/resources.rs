//! Discovery: which resources the apiserver serves, their kinds, scope and etcd prefix
//! (`pkg/kubeapiserver/default_storage_factory_builder.go` for the prefix exceptions).

/// One served resource.
#[derive(Debug, PartialEq, Eq)]
pub struct ResourceInfo {
    /// API group; empty for the core group.
    pub group: &'static str,
    pub version: &'static str,
    pub kind: &'static str,
    /// Plural resource name, as in URLs and RBAC rules.
    pub plural: &'static str,
    pub singular: &'static str,
    pub short_names: &'static [&'static str],
    pub namespaced: bool,
    /// The storage prefix under `/registry/`.
    pub etcd_prefix: &'static str,
}

macro_rules! res {
    ($group:expr, $version:expr, $kind:expr, $plural:expr, $singular:expr, [$($short:expr),*], $ns:expr, $prefix:expr) => {
        ResourceInfo {
            group: $group,
            version: $version,
            kind: $kind,
            plural: $plural,
            singular: $singular,
            short_names: &[$($short),*],
            namespaced: $ns,
            etcd_prefix: $prefix,
        }
    };
}

/// The resources kubeplay serves, in discovery order.
pub static RESOURCES: &[ResourceInfo] = &[
    res!(
        "",
        "v1",
        "Namespace",
        "namespaces",
        "namespace",
        ["ns"],
        false,
        "namespaces"
    ),
    res!("", "v1", "Node", "nodes", "node", ["no"], false, "minions"),
    res!("", "v1", "Pod", "pods", "pod", ["po"], true, "pods"),
    res!(
        "",
        "v1",
        "Service",
        "services",
        "service",
        ["svc"],
        true,
        "services/specs"
    ),
    res!(
        "",
        "v1",
        "Endpoints",
        "endpoints",
        "endpoints",
        ["ep"],
        true,
        "services/endpoints"
    ),
    res!(
        "",
        "v1",
        "ConfigMap",
        "configmaps",
        "configmap",
        ["cm"],
        true,
        "configmaps"
    ),
    res!("", "v1", "Secret", "secrets", "secret", [], true, "secrets"),
    res!(
        "",
        "v1",
        "ServiceAccount",
        "serviceaccounts",
        "serviceaccount",
        ["sa"],
        true,
        "serviceaccounts"
    ),
    res!("", "v1", "Event", "events", "event", ["ev"], true, "events"),
    res!(
        "",
        "v1",
        "ResourceQuota",
        "resourcequotas",
        "resourcequota",
        ["quota"],
        true,
        "resourcequotas"
    ),
    res!(
        "",
        "v1",
        "LimitRange",
        "limitranges",
        "limitrange",
        ["limits"],
        true,
        "limitranges"
    ),
    res!(
        "",
        "v1",
        "PersistentVolumeClaim",
        "persistentvolumeclaims",
        "persistentvolumeclaim",
        ["pvc"],
        true,
        "persistentvolumeclaims"
    ),
    res!(
        "",
        "v1",
        "PersistentVolume",
        "persistentvolumes",
        "persistentvolume",
        ["pv"],
        false,
        "persistentvolumes"
    ),
    res!(
        "",
        "v1",
        "ReplicationController",
        "replicationcontrollers",
        "replicationcontroller",
        ["rc"],
        true,
        "controllers"
    ),
    res!(
        "apps",
        "v1",
        "Deployment",
        "deployments",
        "deployment",
        ["deploy"],
        true,
        "deployments"
    ),
    res!(
        "apps",
        "v1",
        "ReplicaSet",
        "replicasets",
        "replicaset",
        ["rs"],
        true,
        "replicasets"
    ),
    res!(
        "apps",
        "v1",
        "StatefulSet",
        "statefulsets",
        "statefulset",
        ["sts"],
        true,
        "statefulsets"
    ),
    res!(
        "apps",
        "v1",
        "DaemonSet",
        "daemonsets",
        "daemonset",
        ["ds"],
        true,
        "daemonsets"
    ),
    res!(
        "apps",
        "v1",
        "ControllerRevision",
        "controllerrevisions",
        "controllerrevision",
        [],
        true,
        "controllerrevisions"
    ),
    res!("batch", "v1", "Job", "jobs", "job", [], true, "jobs"),
    res!(
        "batch",
        "v1",
        "CronJob",
        "cronjobs",
        "cronjob",
        ["cj"],
        true,
        "cronjobs"
    ),
    res!(
        "coordination.k8s.io",
        "v1",
        "Lease",
        "leases",
        "lease",
        [],
        true,
        "leases"
    ),
    res!(
        "discovery.k8s.io",
        "v1",
        "EndpointSlice",
        "endpointslices",
        "endpointslice",
        [],
        true,
        "endpointslices"
    ),
    res!(
        "networking.k8s.io",
        "v1",
        "Ingress",
        "ingresses",
        "ingress",
        ["ing"],
        true,
        "ingress"
    ),
    res!(
        "networking.k8s.io",
        "v1",
        "NetworkPolicy",
        "networkpolicies",
        "networkpolicy",
        ["netpol"],
        true,
        "networkpolicies"
    ),
    res!(
        "policy",
        "v1",
        "PodDisruptionBudget",
        "poddisruptionbudgets",
        "poddisruptionbudget",
        ["pdb"],
        true,
        "poddisruptionbudgets"
    ),
    res!(
        "rbac.authorization.k8s.io",
        "v1",
        "Role",
        "roles",
        "role",
        [],
        true,
        "roles"
    ),
    res!(
        "rbac.authorization.k8s.io",
        "v1",
        "RoleBinding",
        "rolebindings",
        "rolebinding",
        [],
        true,
        "rolebindings"
    ),
    res!(
        "rbac.authorization.k8s.io",
        "v1",
        "ClusterRole",
        "clusterroles",
        "clusterrole",
        [],
        false,
        "clusterroles"
    ),
    res!(
        "rbac.authorization.k8s.io",
        "v1",
        "ClusterRoleBinding",
        "clusterrolebindings",
        "clusterrolebinding",
        [],
        false,
        "clusterrolebindings"
    ),
    res!(
        "scheduling.k8s.io",
        "v1",
        "PriorityClass",
        "priorityclasses",
        "priorityclass",
        ["pc"],
        false,
        "priorityclasses"
    ),
    res!(
        "storage.k8s.io",
        "v1",
        "StorageClass",
        "storageclasses",
        "storageclass",
        ["sc"],
        false,
        "storageclasses"
    ),
];

impl ResourceInfo {
    /// `apps/v1`, or `v1` for the core group.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.to_string()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// `deployments.apps`, or `pods` for the core group.
    pub fn group_resource(&self) -> String {
        super::error::group_resource(self.plural, self.group)
    }

    /// The etcd key of one object: `/registry/<prefix>/<namespace>/<name>` or `/registry/<prefix>/<name>`.
    pub fn etcd_key(&self, namespace: Option<&str>, name: &str) -> String {
        match (self.namespaced, namespace) {
            // Built on every request: concat allocates once, format! walks its pieces.
            (true, Some(ns)) => ["/registry/", self.etcd_prefix, "/", ns, "/", name].concat(),
            _ => ["/registry/", self.etcd_prefix, "/", name].concat(),
        }
    }

    /// The key prefix of a list: all namespaces, one namespace, or the whole cluster-scoped resource.
    pub fn etcd_list_prefix(&self, namespace: Option<&str>) -> String {
        match (self.namespaced, namespace) {
            (true, Some(ns)) => ["/registry/", self.etcd_prefix, "/", ns, "/"].concat(),
            _ => ["/registry/", self.etcd_prefix, "/"].concat(),
        }
    }

    /// The request path kubectl uses: `/apis/apps/v1/namespaces/default/deployments[/name]`.
    pub fn path(&self, namespace: Option<&str>, name: Option<&str>) -> String {
        let mut p = if self.group.is_empty() {
            format!("/api/{}", self.version)
        } else {
            format!("/apis/{}/{}", self.group, self.version)
        };
        if self.namespaced {
            if let Some(ns) = namespace {
                p.push_str("/namespaces/");
                p.push_str(ns);
            }
        }
        p.push('/');
        p.push_str(self.plural);
        if let Some(n) = name {
            p.push('/');
            p.push_str(n);
        }
        p
    }
}

/// Maps `apiVersion` + `kind` to a resource, as kubectl's RESTMapper does.
pub fn for_kind(api_version: &str, kind: &str) -> Option<&'static ResourceInfo> {
    RESOURCES
        .iter()
        .find(|r| r.kind == kind && r.api_version() == api_version)
}

/// Resolves what a user types after `kubectl get`: plural, singular, short name or kind, optionally
/// qualified by group (`deployments.apps`).
pub fn lookup(name: &str) -> Option<&'static ResourceInfo> {
    let lower = name.to_ascii_lowercase();
    let (base, group) = match lower.split_once('.') {
        Some((b, g)) => (b.to_string(), Some(g.to_string())),
        None => (lower.clone(), None),
    };
    RESOURCES.iter().find(|r| {
        let name_matches = r.plural == base
            || r.singular == base
            || r.kind.eq_ignore_ascii_case(&base)
            || r.short_names.contains(&base.as_str());
        let group_matches = match &group {
            None => true,
            Some(g) => r.group == g || (r.group.is_empty() && g == "core"),
        };
        name_matches && group_matches
    })
}

/// The resource that owns a subtree of etcd, from a key such as `/registry/minions/node-1`.
pub fn for_etcd_key(key: &str) -> Option<&'static ResourceInfo> {
    let rest = key.strip_prefix("/registry/")?;
    // Longest prefix first: `services/specs` before a hypothetical `services`.
    RESOURCES
        .iter()
        .filter(|r| rest.starts_with(r.etcd_prefix) && rest[r.etcd_prefix.len()..].starts_with('/'))
        .max_by_key(|r| r.etcd_prefix.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etcd_keys_follow_the_apiserver_exceptions() {
        assert_eq!(
            for_kind("v1", "Node").unwrap().etcd_key(None, "node-1"),
            "/registry/minions/node-1"
        );
        assert_eq!(
            for_kind("v1", "Service")
                .unwrap()
                .etcd_key(Some("default"), "kubernetes"),
            "/registry/services/specs/default/kubernetes"
        );
        assert_eq!(
            for_kind("apps/v1", "Deployment")
                .unwrap()
                .etcd_key(Some("default"), "web"),
            "/registry/deployments/default/web"
        );
        assert_eq!(
            for_etcd_key("/registry/services/endpoints/default/x")
                .unwrap()
                .kind,
            "Endpoints"
        );
    }

    #[test]
    fn lookup_accepts_every_spelling() {
        for n in [
            "deploy",
            "deployment",
            "deployments",
            "Deployment",
            "deployments.apps",
        ] {
            assert_eq!(lookup(n).unwrap().kind, "Deployment", "{n}");
        }
        assert!(lookup("deployments.batch").is_none());
        assert_eq!(lookup("po").unwrap().plural, "pods");
    }

    #[test]
    fn paths_are_the_rest_paths() {
        let d = for_kind("apps/v1", "Deployment").unwrap();
        assert_eq!(
            d.path(Some("default"), None),
            "/apis/apps/v1/namespaces/default/deployments"
        );
        let n = for_kind("v1", "Node").unwrap();
        assert_eq!(n.path(None, Some("node-1")), "/api/v1/nodes/node-1");
    }
}
