//! The RBAC objects a new cluster starts with: kube-apiserver's bootstrap policy
//! (`plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go` and `controller_policy.go`),
//! trimmed to the roles of the components kubeplay runs and the roles people bind to
//! (`cluster-admin`, `admin`, `edit`, `view`).
//!
//! As in the real policy every object carries the label `kubernetes.io/bootstrapping: rbac-defaults`
//! and the annotation `rbac.authorization.kubernetes.io/autoupdate: "true"`, rules have their verbs,
//! groups and resources sorted (`PolicyRuleBuilder.Rule`), and the aggregated roles `admin`, `edit`
//! and `view` already hold the rules the clusterrole-aggregation controller would give them.
//!
//! Identities these roles expect (as `kube-controller-manager --use-service-account-credentials`
//! and kubeadm set them up):
//! - each controller: `system:serviceaccount:kube-system:<controller>` (for example
//!   `deployment-controller`), groups `system:serviceaccounts`, `system:serviceaccounts:kube-system`,
//!   `system:authenticated`; the controller manager itself (leader election, shared informers):
//!   `system:kube-controller-manager`;
//! - the scheduler `system:kube-scheduler`; kube-proxy `system:kube-proxy`;
//! - kubelets `system:node:<node>` in group `system:nodes`, authorized by the Node authorizer
//!   (`rbac.rs`) with the rules of [`node_rules`]; the `system:node` binding has no subjects since 1.8;
//! - the cluster admin: any user in `system:masters` (kubeadm's `kubernetes-admin`).

use crate::api::json::JsonPointer;
use crate::api::value::{json, Map, Value};
use crate::api::Object;
use std::sync::OnceLock;

const CORE: &str = "";
const APPS: &str = "apps";
const AUTHENTICATION: &str = "authentication.k8s.io";
const AUTHORIZATION: &str = "authorization.k8s.io";
const AUTOSCALING: &str = "autoscaling";
const BATCH: &str = "batch";
const CERTIFICATES: &str = "certificates.k8s.io";
const COORDINATION: &str = "coordination.k8s.io";
const DISCOVERY: &str = "discovery.k8s.io";
const EVENTS: &str = "events.k8s.io";
const EXTENSIONS: &str = "extensions";
const NETWORKING: &str = "networking.k8s.io";
const NODE: &str = "node.k8s.io";
const POLICY: &str = "policy";
const RBAC: &str = "rbac.authorization.k8s.io";
const RESOURCE: &str = "resource.k8s.io";
const STORAGE: &str = "storage.k8s.io";

const READ: &[&str] = &["get", "list", "watch"];
const WRITE: &[&str] = &["create", "update", "patch", "delete", "deletecollection"];
const READ_WRITE: &[&str] = &[
    "get",
    "list",
    "watch",
    "create",
    "update",
    "patch",
    "delete",
    "deletecollection",
];
const READ_UPDATE: &[&str] = &["get", "list", "watch", "update", "patch"];

/// The label every bootstrap object carries.
pub const BOOTSTRAP_LABEL: (&str, &str) = ("kubernetes.io/bootstrapping", "rbac-defaults");
/// The annotation that lets the apiserver reconcile bootstrap objects at start-up.
pub const AUTOUPDATE_ANNOTATION: (&str, &str) =
    ("rbac.authorization.kubernetes.io/autoupdate", "true");

const AGGREGATE_TO_ADMIN: &str = "rbac.authorization.k8s.io/aggregate-to-admin";
const AGGREGATE_TO_EDIT: &str = "rbac.authorization.k8s.io/aggregate-to-edit";
const AGGREGATE_TO_VIEW: &str = "rbac.authorization.k8s.io/aggregate-to-view";

fn sorted(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    crate::api::sorting::sort(&mut v);
    v.dedup();
    v
}

/// `rbacv1helpers.NewRule(verbs...).Groups(groups...).Resources(resources...).RuleOrDie()`.
fn rule(verbs: &[&str], groups: &[&str], resources: &[&str]) -> Value {
    object([
        ("apiGroups", sorted(groups).into()),
        ("resources", sorted(resources).into()),
        ("verbs", sorted(verbs).into()),
    ])
}

/// A JSON object of the fields given, moved in (`json!` would copy each value).
fn object<const N: usize>(fields: [(&str, Value); N]) -> Value {
    Value::Object(
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// A rule restricted to named objects (`.Names(...)`).
fn named_rule(verbs: &[&str], groups: &[&str], resources: &[&str], names: &[&str]) -> Value {
    let mut r = rule(verbs, groups, resources);
    r["resourceNames"] = json!(sorted(names));
    r
}

/// A non-resource rule (`.URLs(...)`).
fn url_rule(verbs: &[&str], urls: &[&str]) -> Value {
    json!({"nonResourceURLs": sorted(urls), "verbs": sorted(verbs)})
}

/// `eventsRule()`: the events every component records.
fn events_rule() -> Value {
    rule(&["create", "update", "patch"], &[CORE, EVENTS], &["events"])
}

fn default_metadata(name: &str, extra_labels: &[(&str, &str)]) -> Value {
    let mut labels = Map::new();
    labels.insert(BOOTSTRAP_LABEL.0, BOOTSTRAP_LABEL.1.into());
    for (k, v) in extra_labels {
        labels.insert(k.to_string(), Value::String(v.to_string()));
    }
    object([
        ("name", name.into()),
        ("labels", Value::Object(labels)),
        (
            "annotations",
            json!({AUTOUPDATE_ANNOTATION.0: AUTOUPDATE_ANNOTATION.1}),
        ),
    ])
}

fn cluster_role(name: &str, rules: Vec<Value>) -> Object {
    labeled_cluster_role(name, &[], rules)
}

fn labeled_cluster_role(name: &str, labels: &[(&str, &str)], rules: Vec<Value>) -> Object {
    object([
        ("apiVersion", "rbac.authorization.k8s.io/v1".into()),
        ("kind", "ClusterRole".into()),
        ("metadata", default_metadata(name, labels)),
        ("rules", Value::Array(rules)),
    ])
}

/// A role whose rules the clusterrole-aggregation controller fills from the roles labelled
/// `<selector_label>: "true"` (filled in by [`bootstrap_policy`]).
fn aggregated_cluster_role(name: &str, labels: &[(&str, &str)], selector_label: &str) -> Object {
    json!({
        "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {selector_label: "true"}}]},
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRole",
        "metadata": default_metadata(name, labels),
        "rules": [],
    })
}

fn user(name: &str) -> Value {
    json!({"apiGroup": RBAC, "kind": "User", "name": name})
}

fn group(name: &str) -> Value {
    json!({"apiGroup": RBAC, "kind": "Group", "name": name})
}

fn service_account(namespace: &str, name: &str) -> Value {
    json!({"kind": "ServiceAccount", "name": name, "namespace": namespace})
}

/// `rbacv1helpers.NewClusterBinding(role)...`: a binding named after the ClusterRole it grants.
fn cluster_role_binding(role: &str, subjects: Vec<Value>) -> Object {
    let mut b = object([
        ("apiVersion", "rbac.authorization.k8s.io/v1".into()),
        ("kind", "ClusterRoleBinding".into()),
        ("metadata", default_metadata(role, &[])),
        (
            "roleRef",
            json!({"apiGroup": RBAC, "kind": "ClusterRole", "name": role}),
        ),
    ]);
    if !subjects.is_empty() {
        b["subjects"] = Value::Array(subjects);
    }
    b
}

/// `NodeRules()`: what every kubelet may do beyond the objects the Node authorizer relates to
/// its node. The Node authorizer evaluates these directly; no binding grants them.
pub fn node_rules() -> Vec<Value> {
    vec![
        // Needed to check API access. These creates are non-mutating.
        rule(&["create"], &[AUTHENTICATION], &["tokenreviews"]),
        rule(
            &["create"],
            &[AUTHORIZATION],
            &["subjectaccessreviews", "localsubjectaccessreviews"],
        ),
        // Needed to build serviceLister, to populate env vars for services.
        rule(READ, &[CORE], &["services"]),
        // Nodes can register Node API objects and report status.
        rule(&["create", "get", "list", "watch"], &[CORE], &["nodes"]),
        rule(&["update", "patch"], &[CORE], &["nodes/status"]),
        rule(&["update", "patch"], &[CORE], &["nodes"]),
        rule(&["create", "update", "patch"], &[CORE], &["events"]),
        rule(READ, &[CORE], &["pods"]),
        // Mirror pods.
        rule(&["create", "delete"], &[CORE], &["pods"]),
        // Status of the pods it runs.
        rule(&["update", "patch"], &[CORE], &["pods/status"]),
        rule(&["create"], &[CORE], &["pods/eviction"]),
        // Secrets and config maps of its pods (limited by the Node authorizer).
        rule(READ, &[CORE], &["secrets", "configmaps"]),
        rule(
            &["get"],
            &[CORE],
            &["persistentvolumeclaims", "persistentvolumes"],
        ),
        rule(&["get"], &[CORE], &["endpoints"]),
        rule(
            &["create", "get", "list", "watch"],
            &[CERTIFICATES],
            &["certificatesigningrequests"],
        ),
        // Node heartbeats.
        rule(
            &["get", "create", "update", "patch", "delete"],
            &[COORDINATION],
            &["leases"],
        ),
        rule(&["get"], &[STORAGE], &["volumeattachments"]),
        rule(&["create"], &[CORE], &["serviceaccounts/token"]),
        rule(
            &["get", "update", "patch"],
            &[CORE],
            &["persistentvolumeclaims/status"],
        ),
        rule(&["get", "watch", "list"], &[STORAGE], &["csidrivers"]),
        rule(
            &["get", "create", "update", "patch", "delete"],
            &[STORAGE],
            &["csinodes"],
        ),
        rule(&["get", "list", "watch"], &[NODE], &["runtimeclasses"]),
        // DynamicResourceAllocation is GA and on by default.
        rule(&["get"], &[RESOURCE], &["resourceclaims"]),
    ]
}

fn discovery_and_user_roles() -> Vec<Object> {
    vec![
        cluster_role(
            "cluster-admin",
            vec![rule(&["*"], &["*"], &["*"]), url_rule(&["*"], &["*"])],
        ),
        cluster_role(
            "system:discovery",
            vec![url_rule(
                &["get"],
                &[
                    "/livez",
                    "/readyz",
                    "/healthz",
                    "/version",
                    "/version/",
                    "/openapi",
                    "/openapi/*",
                    "/api",
                    "/api/*",
                    "/apis",
                    "/apis/*",
                ],
            )],
        ),
        cluster_role(
            "system:basic-user",
            vec![
                rule(
                    &["create"],
                    &[AUTHORIZATION],
                    &["selfsubjectaccessreviews", "selfsubjectrulesreviews"],
                ),
                rule(&["create"], &[AUTHENTICATION], &["selfsubjectreviews"]),
            ],
        ),
        cluster_role(
            "system:public-info-viewer",
            vec![url_rule(
                &["get"],
                &["/livez", "/readyz", "/healthz", "/version", "/version/"],
            )],
        ),
        aggregated_cluster_role("admin", &[], AGGREGATE_TO_ADMIN),
        aggregated_cluster_role("edit", &[(AGGREGATE_TO_ADMIN, "true")], AGGREGATE_TO_EDIT),
        aggregated_cluster_role("view", &[(AGGREGATE_TO_EDIT, "true")], AGGREGATE_TO_VIEW),
        labeled_cluster_role(
            "system:aggregate-to-admin",
            &[(AGGREGATE_TO_ADMIN, "true")],
            vec![
                rule(
                    &["create"],
                    &[AUTHORIZATION],
                    &["localsubjectaccessreviews"],
                ),
                rule(READ_WRITE, &[RBAC], &["roles", "rolebindings"]),
            ],
        ),
        labeled_cluster_role(
            "system:aggregate-to-edit",
            &[(AGGREGATE_TO_EDIT, "true")],
            vec![
                rule(
                    READ,
                    &[CORE],
                    &[
                        "pods/attach",
                        "pods/proxy",
                        "pods/exec",
                        "pods/portforward",
                        "secrets",
                        "services/proxy",
                    ],
                ),
                rule(&["impersonate"], &[CORE], &["serviceaccounts"]),
                rule(
                    WRITE,
                    &[CORE],
                    &[
                        "pods",
                        "pods/attach",
                        "pods/proxy",
                        "pods/exec",
                        "pods/portforward",
                    ],
                ),
                rule(&["create"], &[CORE], &["pods/eviction"]),
                rule(
                    WRITE,
                    &[CORE],
                    &[
                        "replicationcontrollers",
                        "replicationcontrollers/scale",
                        "serviceaccounts",
                        "services",
                        "services/proxy",
                        "persistentvolumeclaims",
                        "configmaps",
                        "secrets",
                    ],
                ),
                rule(&["create"], &[CORE], &["serviceaccounts/token"]),
                rule(
                    WRITE,
                    &[APPS],
                    &[
                        "statefulsets",
                        "statefulsets/scale",
                        "daemonsets",
                        "deployments",
                        "deployments/scale",
                        "deployments/rollback",
                        "replicasets",
                        "replicasets/scale",
                    ],
                ),
                rule(WRITE, &[AUTOSCALING], &["horizontalpodautoscalers"]),
                rule(WRITE, &[BATCH], &["jobs", "cronjobs"]),
                rule(
                    WRITE,
                    &[EXTENSIONS],
                    &[
                        "daemonsets",
                        "deployments",
                        "deployments/scale",
                        "deployments/rollback",
                        "ingresses",
                        "replicasets",
                        "replicasets/scale",
                        "replicationcontrollers/scale",
                        "networkpolicies",
                    ],
                ),
                rule(WRITE, &[POLICY], &["poddisruptionbudgets"]),
                rule(WRITE, &[NETWORKING], &["networkpolicies", "ingresses"]),
            ],
        ),
        labeled_cluster_role(
            "system:aggregate-to-view",
            &[(AGGREGATE_TO_VIEW, "true")],
            vec![
                rule(
                    READ,
                    &[CORE],
                    &[
                        "pods",
                        "replicationcontrollers",
                        "replicationcontrollers/scale",
                        "serviceaccounts",
                        "services",
                        "services/status",
                        "endpoints",
                        "persistentvolumeclaims",
                        "persistentvolumeclaims/status",
                        "configmaps",
                    ],
                ),
                rule(
                    READ,
                    &[CORE],
                    &[
                        "limitranges",
                        "resourcequotas",
                        "bindings",
                        "events",
                        "pods/status",
                        "resourcequotas/status",
                        "namespaces/status",
                        "replicationcontrollers/status",
                        "pods/log",
                    ],
                ),
                rule(READ, &[CORE], &["namespaces"]),
                rule(READ, &[DISCOVERY], &["endpointslices"]),
                rule(
                    READ,
                    &[APPS],
                    &[
                        "controllerrevisions",
                        "statefulsets",
                        "statefulsets/status",
                        "statefulsets/scale",
                        "daemonsets",
                        "daemonsets/status",
                        "deployments",
                        "deployments/status",
                        "deployments/scale",
                        "replicasets",
                        "replicasets/status",
                        "replicasets/scale",
                    ],
                ),
                rule(
                    READ,
                    &[AUTOSCALING],
                    &[
                        "horizontalpodautoscalers",
                        "horizontalpodautoscalers/status",
                    ],
                ),
                rule(
                    READ,
                    &[BATCH],
                    &["jobs", "cronjobs", "cronjobs/status", "jobs/status"],
                ),
                rule(
                    READ,
                    &[EXTENSIONS],
                    &[
                        "daemonsets",
                        "daemonsets/status",
                        "deployments",
                        "deployments/scale",
                        "deployments/status",
                        "ingresses",
                        "ingresses/status",
                        "replicasets",
                        "replicasets/scale",
                        "replicasets/status",
                        "replicationcontrollers/scale",
                        "networkpolicies",
                    ],
                ),
                rule(
                    READ,
                    &[POLICY],
                    &["poddisruptionbudgets", "poddisruptionbudgets/status"],
                ),
                rule(
                    READ,
                    &[NETWORKING],
                    &["networkpolicies", "ingresses", "ingresses/status"],
                ),
            ],
        ),
    ]
}

fn component_roles() -> Vec<Object> {
    vec![
        cluster_role("system:node", node_rules()),
        cluster_role(
            "system:node-proxier",
            vec![
                rule(&["list", "watch"], &[CORE], &["services", "endpoints"]),
                rule(&["get", "list", "watch"], &[CORE], &["nodes"]),
                events_rule(),
                rule(&["list", "watch"], &[NETWORKING], &["servicecidrs"]),
                rule(&["list", "watch"], &[DISCOVERY], &["endpointslices"]),
            ],
        ),
        cluster_role(
            "system:kube-scheduler",
            vec![
                events_rule(),
                // Leader election.
                rule(&["create"], &[COORDINATION], &["leases"]),
                named_rule(
                    &["get", "update"],
                    &[COORDINATION],
                    &["leases"],
                    &["kube-scheduler"],
                ),
                // Fundamental resources.
                rule(READ, &[CORE], &["nodes"]),
                rule(&["get", "list", "watch", "delete"], &[CORE], &["pods"]),
                rule(&["create"], &[CORE], &["pods/binding", "bindings"]),
                rule(&["patch", "update"], &[CORE], &["pods/status"]),
                // Things that select pods.
                rule(READ, &[CORE], &["services", "replicationcontrollers"]),
                rule(READ, &[APPS, EXTENSIONS], &["replicasets"]),
                rule(READ, &[APPS], &["statefulsets"]),
                // Things that pods use or that apply to them.
                rule(READ, &[POLICY], &["poddisruptionbudgets"]),
                rule(
                    READ,
                    &[CORE],
                    &["persistentvolumeclaims", "persistentvolumes"],
                ),
                rule(&["create"], &[AUTHENTICATION], &["tokenreviews"]),
                rule(&["create"], &[AUTHORIZATION], &["subjectaccessreviews"]),
                rule(READ, &[STORAGE], &["csinodes"]),
                rule(READ, &[CORE], &["namespaces"]),
                rule(READ, &[STORAGE], &["csidrivers"]),
                rule(READ, &[STORAGE], &["csistoragecapacities"]),
            ],
        ),
        cluster_role(
            "system:volume-scheduler",
            vec![
                rule(READ_UPDATE, &[CORE], &["persistentvolumes"]),
                rule(READ, &[STORAGE], &["storageclasses"]),
                rule(READ_UPDATE, &[CORE], &["persistentvolumeclaims"]),
            ],
        ),
        cluster_role(
            "system:kube-controller-manager",
            vec![
                events_rule(),
                // Leader election.
                rule(&["create"], &[COORDINATION], &["leases"]),
                named_rule(
                    &["get", "update"],
                    &[COORDINATION],
                    &["leases"],
                    &["kube-controller-manager"],
                ),
                // Fundamental resources.
                rule(&["create"], &[CORE], &["secrets", "serviceaccounts"]),
                rule(&["delete"], &[CORE], &["secrets"]),
                rule(
                    &["get"],
                    &[CORE],
                    &["namespaces", "secrets", "serviceaccounts", "configmaps"],
                ),
                rule(&["update"], &[CORE], &["secrets", "serviceaccounts"]),
                rule(&["create"], &[AUTHENTICATION], &["tokenreviews"]),
                rule(&["create"], &[AUTHORIZATION], &["subjectaccessreviews"]),
                // All shared informers.
                rule(&["list", "watch"], &["*"], &["*"]),
                rule(&["create"], &[CORE], &["serviceaccounts/token"]),
            ],
        ),
    ]
}

/// `(controller, rules)` for each controller kubeplay's kube-controller-manager may run, as in
/// `controller_policy.go`; each becomes ClusterRole `system:controller:<controller>` bound to
/// ServiceAccount `kube-system/<controller>`.
fn controller_roles() -> Vec<(&'static str, Vec<Value>)> {
    vec![
        (
            "cronjob-controller",
            vec![
                rule(&["get", "list", "watch", "update"], &[BATCH], &["cronjobs"]),
                rule(
                    &[
                        "get", "list", "watch", "create", "update", "delete", "patch",
                    ],
                    &[BATCH],
                    &["jobs"],
                ),
                rule(&["update"], &[BATCH], &["cronjobs/status"]),
                rule(&["update"], &[BATCH], &["cronjobs/finalizers"]),
                rule(&["list", "watch", "delete"], &[CORE], &["pods"]),
                events_rule(),
            ],
        ),
        (
            "daemon-set-controller",
            vec![
                rule(
                    &["get", "list", "watch"],
                    &[EXTENSIONS, APPS],
                    &["daemonsets"],
                ),
                rule(&["update"], &[EXTENSIONS, APPS], &["daemonsets/status"]),
                rule(&["update"], &[EXTENSIONS, APPS], &["daemonsets/finalizers"]),
                rule(&["list", "watch"], &[CORE], &["nodes"]),
                rule(
                    &["list", "watch", "create", "delete", "patch"],
                    &[CORE],
                    &["pods"],
                ),
                rule(&["create"], &[CORE], &["pods/binding"]),
                rule(
                    &[
                        "get", "list", "watch", "create", "delete", "update", "patch",
                    ],
                    &[APPS],
                    &["controllerrevisions"],
                ),
                events_rule(),
            ],
        ),
        (
            "deployment-controller",
            vec![
                rule(
                    &["get", "list", "watch", "update"],
                    &[EXTENSIONS, APPS],
                    &["deployments"],
                ),
                rule(&["update"], &[EXTENSIONS, APPS], &["deployments/status"]),
                rule(
                    &["update"],
                    &[EXTENSIONS, APPS],
                    &["deployments/finalizers"],
                ),
                rule(
                    &[
                        "get", "list", "watch", "create", "update", "patch", "delete",
                    ],
                    &[APPS, EXTENSIONS],
                    &["replicasets"],
                ),
                rule(&["get", "list", "watch", "update"], &[CORE], &["pods"]),
                events_rule(),
            ],
        ),
        (
            "disruption-controller",
            vec![
                rule(
                    &["get", "list", "watch"],
                    &[EXTENSIONS, APPS],
                    &["deployments"],
                ),
                rule(
                    &["get", "list", "watch"],
                    &[APPS, EXTENSIONS],
                    &["replicasets"],
                ),
                rule(
                    &["get", "list", "watch"],
                    &[CORE],
                    &["replicationcontrollers"],
                ),
                rule(
                    &["get", "list", "watch"],
                    &[POLICY],
                    &["poddisruptionbudgets"],
                ),
                rule(&["get", "list", "watch"], &[APPS], &["statefulsets"]),
                rule(&["update"], &[POLICY], &["poddisruptionbudgets/status"]),
                rule(&["patch", "update"], &[CORE], &["pods/status"]),
                rule(&["get"], &["*"], &["*/scale"]),
                events_rule(),
            ],
        ),
        (
            "endpoint-controller",
            vec![
                rule(&["get", "list", "watch"], &[CORE], &["services", "pods"]),
                rule(
                    &["get", "list", "watch", "create", "update", "delete"],
                    &[CORE],
                    &["endpoints"],
                ),
                rule(&["create"], &[CORE], &["endpoints/restricted"]),
                events_rule(),
            ],
        ),
        (
            "endpointslice-controller",
            vec![
                rule(
                    &["get", "list", "watch"],
                    &[CORE],
                    &["services", "pods", "nodes"],
                ),
                rule(&["update"], &[CORE], &["services/finalizers"]),
                rule(
                    &["get", "list", "watch", "create", "update", "delete"],
                    &[DISCOVERY],
                    &["endpointslices"],
                ),
                rule(&["create"], &[DISCOVERY], &["endpointslices/restricted"]),
                events_rule(),
            ],
        ),
        (
            "generic-garbage-collector",
            vec![
                rule(
                    &["get", "list", "watch", "patch", "update", "delete"],
                    &["*"],
                    &["*"],
                ),
                events_rule(),
            ],
        ),
        (
            "job-controller",
            vec![
                rule(
                    &["get", "list", "watch", "update", "patch"],
                    &[BATCH],
                    &["jobs"],
                ),
                rule(&["update"], &[BATCH], &["jobs/status"]),
                rule(&["update"], &[BATCH], &["jobs/finalizers"]),
                rule(
                    &["list", "watch", "create", "delete", "patch"],
                    &[CORE],
                    &["pods"],
                ),
                events_rule(),
            ],
        ),
        (
            "namespace-controller",
            vec![
                rule(
                    &["get", "list", "watch", "delete"],
                    &[CORE],
                    &["namespaces"],
                ),
                rule(
                    &["update"],
                    &[CORE],
                    &["namespaces/finalize", "namespaces/status"],
                ),
                rule(
                    &["get", "list", "watch", "delete", "deletecollection"],
                    &["*"],
                    &["*"],
                ),
            ],
        ),
        (
            "node-controller",
            vec![
                rule(
                    &["get", "list", "watch", "update", "delete", "patch"],
                    &[CORE],
                    &["nodes"],
                ),
                rule(&["patch", "update"], &[CORE], &["nodes/status"]),
                rule(&["patch", "update"], &[CORE], &["pods/status"]),
                rule(&["list", "watch", "get", "delete"], &[CORE], &["pods"]),
                rule(&["get", "list", "watch"], &[COORDINATION], &["leases"]),
                events_rule(),
            ],
        ),
        (
            "pod-garbage-collector",
            vec![
                rule(&["list", "watch", "delete"], &[CORE], &["pods"]),
                rule(&["get", "list", "watch"], &[CORE], &["nodes"]),
                rule(&["patch"], &[CORE], &["pods/status"]),
            ],
        ),
        (
            "replicaset-controller",
            vec![
                rule(
                    &["get", "list", "watch", "update"],
                    &[APPS, EXTENSIONS],
                    &["replicasets"],
                ),
                rule(&["update"], &[APPS, EXTENSIONS], &["replicasets/status"]),
                rule(
                    &["update"],
                    &[APPS, EXTENSIONS],
                    &["replicasets/finalizers"],
                ),
                rule(
                    &["list", "watch", "patch", "create", "delete"],
                    &[CORE],
                    &["pods"],
                ),
                events_rule(),
            ],
        ),
        (
            "resourcequota-controller",
            vec![
                rule(&["list", "watch"], &["*"], &["*"]),
                rule(&["update"], &[CORE], &["resourcequotas/status"]),
                events_rule(),
            ],
        ),
        (
            "root-ca-cert-publisher",
            vec![
                rule(&["create", "update"], &[CORE], &["configmaps"]),
                events_rule(),
            ],
        ),
        (
            "service-account-controller",
            vec![
                rule(&["create"], &[CORE], &["serviceaccounts"]),
                events_rule(),
            ],
        ),
        (
            "statefulset-controller",
            vec![
                rule(&["list", "watch"], &[CORE], &["pods"]),
                rule(&["get", "list", "watch"], &[APPS], &["statefulsets"]),
                rule(&["update"], &[APPS], &["statefulsets/status"]),
                rule(&["update"], &[APPS], &["statefulsets/finalizers"]),
                rule(
                    &["get", "create", "delete", "update", "patch"],
                    &[CORE],
                    &["pods"],
                ),
                rule(
                    &[
                        "get", "create", "delete", "update", "patch", "list", "watch",
                    ],
                    &[APPS],
                    &["controllerrevisions"],
                ),
                rule(
                    &["get", "create", "list", "watch"],
                    &[CORE],
                    &["persistentvolumeclaims"],
                ),
                rule(&["update", "delete"], &[CORE], &["persistentvolumeclaims"]),
                rule(&["update"], &[CORE], &["pods/finalizers"]),
                events_rule(),
            ],
        ),
        (
            "ttl-after-finished-controller",
            vec![
                rule(&["get", "list", "watch", "delete"], &[BATCH], &["jobs"]),
                events_rule(),
            ],
        ),
    ]
}

/// The prefix of the controllers' roles and bindings (`saRolePrefix`).
pub const CONTROLLER_ROLE_PREFIX: &str = "system:controller:";

/// The names of the controllers that have a `system:controller:<name>` role, which are also
/// the names of their ServiceAccounts in `kube-system`.
pub fn controller_names() -> Vec<&'static str> {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES
        .get_or_init(|| controller_roles().into_iter().map(|(n, _)| n).collect())
        .clone()
}

/// Every ClusterRole and ClusterRoleBinding of a new cluster, roles first, as JSON objects with
/// `apiVersion`, `kind` and `metadata` (no uid or resourceVersion: the apiserver sets those when
/// it stores them).
pub fn bootstrap_policy() -> Vec<Object> {
    // The same for every cluster, and every new cluster needs it: built once (per thread, as
    // objects share their maps within one), and handed out as copies that share them.
    thread_local! {
        static POLICY: Vec<Object> = build_bootstrap_policy();
    }
    POLICY.with(Vec::clone)
}

fn build_bootstrap_policy() -> Vec<Object> {
    let mut roles = discovery_and_user_roles();
    roles.extend(component_roles());
    let mut controllers = controller_roles();
    for (name, rules) in &mut controllers {
        roles.push(cluster_role(
            &format!("{CONTROLLER_ROLE_PREFIX}{name}"),
            std::mem::take(rules),
        ));
    }
    fill_aggregated_rules(&mut roles);

    let authenticated = "system:authenticated";
    let unauthenticated = "system:unauthenticated";
    let mut bindings = vec![
        cluster_role_binding("cluster-admin", vec![group("system:masters")]),
        cluster_role_binding("system:discovery", vec![group(authenticated)]),
        cluster_role_binding("system:basic-user", vec![group(authenticated)]),
        cluster_role_binding(
            "system:public-info-viewer",
            vec![group(authenticated), group(unauthenticated)],
        ),
        cluster_role_binding("system:node-proxier", vec![user("system:kube-proxy")]),
        cluster_role_binding(
            "system:kube-controller-manager",
            vec![user("system:kube-controller-manager")],
        ),
        cluster_role_binding("system:kube-scheduler", vec![user("system:kube-scheduler")]),
        cluster_role_binding(
            "system:volume-scheduler",
            vec![user("system:kube-scheduler")],
        ),
        // Deprecated in 1.7 with the Node authorizer: kept, without subjects.
        cluster_role_binding("system:node", vec![]),
    ];
    for (name, _) in &controllers {
        bindings.push(cluster_role_binding(
            &format!("{CONTROLLER_ROLE_PREFIX}{name}"),
            vec![service_account("kube-system", name)],
        ));
    }
    roles.extend(bindings);
    roles
}

/// What the clusterrole-aggregation controller does: an aggregated role's rules are the rules of
/// the roles its selectors pick (per selector, by name, without duplicates), itself excluded.
fn fill_aggregated_rules(roles: &mut [Object]) {
    // Resolve to a fixed point: view feeds edit, which feeds admin.
    loop {
        let mut changed = false;
        for i in 0..roles.len() {
            let Some(selectors) = roles[i]
                .lookup("/aggregationRule/clusterRoleSelectors")
                .and_then(Value::as_array)
                .cloned()
            else {
                continue;
            };
            let me = roles[i]["metadata"]["name"].clone();
            let mut rules: Vec<Value> = Vec::new();
            for sel in &selectors {
                let wanted = sel.get("matchLabels").and_then(Value::as_object);
                let mut picked: Vec<&Object> = roles
                    .iter()
                    .filter(|r| r["metadata"]["name"] != me)
                    .filter(|r| {
                        let labels = r["metadata"]["labels"].as_object();
                        wanted.is_some_and(|w| {
                            w.iter()
                                .all(|(k, v)| labels.and_then(|l| l.get(k)) == Some(v))
                        })
                    })
                    .collect();
                crate::api::sorting::sort_by(&mut picked, &|a, b| {
                    a["metadata"]["name"]
                        .as_str()
                        .cmp(&b["metadata"]["name"].as_str())
                });
                for r in picked {
                    for rule in r["rules"].as_array().into_iter().flatten() {
                        if !rules.contains(rule) {
                            rules.push(rule.clone());
                        }
                    }
                }
            }
            let new = Value::Array(rules);
            if roles[i]["rules"] != new {
                roles[i]["rules"] = new;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find<'a>(objs: &'a [Object], kind: &str, name: &str) -> &'a Object {
        objs.iter()
            .find(|o| o["kind"] == kind && o["metadata"]["name"] == name)
            .unwrap_or_else(|| panic!("{kind} {name}"))
    }

    #[test]
    fn roles_carry_the_bootstrap_label_and_annotation() {
        let p = bootstrap_policy();
        for o in &p {
            assert_eq!(
                o["metadata"]["labels"]["kubernetes.io/bootstrapping"],
                "rbac-defaults"
            );
            assert_eq!(
                o["metadata"]["annotations"]["rbac.authorization.kubernetes.io/autoupdate"],
                "true"
            );
        }
        let admin = find(&p, "ClusterRoleBinding", "cluster-admin");
        assert_eq!(admin["subjects"][0]["name"], "system:masters");
        let dc = find(
            &p,
            "ClusterRoleBinding",
            "system:controller:deployment-controller",
        );
        assert_eq!(dc["subjects"][0]["kind"], "ServiceAccount");
        assert_eq!(dc["subjects"][0]["namespace"], "kube-system");
        assert_eq!(dc["subjects"][0]["name"], "deployment-controller");
        assert!(find(&p, "ClusterRoleBinding", "system:node")
            .get("subjects")
            .is_none());
    }

    #[test]
    fn verbs_are_sorted_like_the_rule_builder() {
        let p = bootstrap_policy();
        let view = find(&p, "ClusterRole", "system:aggregate-to-view");
        assert_eq!(view["rules"][0]["verbs"], json!(["get", "list", "watch"]));
        let edit = find(&p, "ClusterRole", "system:aggregate-to-edit");
        assert_eq!(
            edit["rules"][2]["verbs"],
            json!(["create", "delete", "deletecollection", "patch", "update"])
        );
        assert_eq!(edit["rules"][0]["apiGroups"], json!([""]));
    }

    #[test]
    fn aggregated_roles_hold_their_parts_rules() {
        let p = bootstrap_policy();
        let agg_view = find(&p, "ClusterRole", "system:aggregate-to-view")["rules"].clone();
        let agg_edit = find(&p, "ClusterRole", "system:aggregate-to-edit")["rules"].clone();
        let agg_admin = find(&p, "ClusterRole", "system:aggregate-to-admin")["rules"].clone();
        let view = find(&p, "ClusterRole", "view");
        assert_eq!(view["rules"], agg_view);
        let edit = find(&p, "ClusterRole", "edit");
        let mut expect: Vec<Value> = agg_edit.as_array().unwrap().clone();
        for r in agg_view.as_array().unwrap() {
            if !expect.contains(r) {
                expect.push(r.clone());
            }
        }
        assert_eq!(edit["rules"], Value::Array(expect.clone()));
        let admin = find(&p, "ClusterRole", "admin");
        for r in agg_admin.as_array().unwrap() {
            if !expect.contains(r) {
                expect.push(r.clone());
            }
        }
        assert_eq!(admin["rules"], Value::Array(expect));
        assert_eq!(
            admin["aggregationRule"]["clusterRoleSelectors"][0]["matchLabels"]
                ["rbac.authorization.k8s.io/aggregate-to-admin"],
            "true"
        );
    }

    #[test]
    fn every_role_is_bound_where_it_should_be() {
        let p = bootstrap_policy();
        for n in controller_names() {
            find(&p, "ClusterRole", &format!("system:controller:{n}"));
            find(&p, "ClusterRoleBinding", &format!("system:controller:{n}"));
        }
        for b in p.iter().filter(|o| o["kind"] == "ClusterRoleBinding") {
            let role = b["roleRef"]["name"].as_str().unwrap();
            find(&p, "ClusterRole", role);
        }
    }
}
