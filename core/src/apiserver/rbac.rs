//! Authorization, as kube-apiserver runs it with `--authorization-mode=Node,RBAC`: first the
//! privileged-group short cut for `system:masters`, then the Node authorizer for kubelets
//! (`plugin/pkg/auth/authorizer/node/node_authorizer.go`), then RBAC
//! (`plugin/pkg/auth/authorizer/rbac/rbac.go`, `pkg/registry/rbac/validation/rule.go`). The first
//! to allow wins; if none does, the request is refused with the reasons they gave, and
//! [`forbidden_error`] renders the 403 exactly as `responsewriters.Forbidden` does.
//!
//! The request attributes are those the apiserver's `RequestInfoFactory` derives: for list and
//! watch requests with a `metadata.name=<name>` field selector, `name` is that name (this is how
//! a kubelet reads its own Node and the secrets and config maps of its pods). The kubelet lists
//! its pods with `fieldSelector=spec.nodeName=<node>`; pass that selector through
//! [`authorize_request`], since the Node authorizer only lets a node list or watch pods that way.

use crate::api::json::JsonPointer;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use crate::api::value::Value;

use super::auth::UserInfo;
use super::ObjectLister;
use crate::api::error::go_quote;
use crate::api::resources::{ResourceInfo, RESOURCES};
use crate::api::{ApiError, Object};

pub const RBAC_GROUP: &str = "rbac.authorization.k8s.io";
/// `user.SystemPrivilegedGroup`.
pub const SYSTEM_MASTERS: &str = "system:masters";
/// `user.NodesGroup`.
pub const NODES_GROUP: &str = "system:nodes";
pub const NODE_USER_PREFIX: &str = "system:node:";
pub const AUTHENTICATED_GROUP: &str = "system:authenticated";
pub const UNAUTHENTICATED_GROUP: &str = "system:unauthenticated";
pub const ANONYMOUS_USER: &str = "system:anonymous";
pub const SERVICE_ACCOUNT_PREFIX: &str = "system:serviceaccount:";
pub const SERVICE_ACCOUNTS_GROUP: &str = "system:serviceaccounts";
/// `api.NamespaceNodeLease`.
pub const NODE_LEASE_NAMESPACE: &str = "kube-node-lease";

/// What is being asked (`authorizer.Attributes`).
#[derive(Clone, Copy, Debug)]
pub struct Attributes<'a> {
    pub user: &'a UserInfo,
    /// `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, `deletecollection`, ...
    pub verb: &'a str,
    /// API group; empty for the core group.
    pub group: &'a str,
    /// Plural resource name, e.g. `pods`.
    pub resource: &'a str,
    pub subresource: &'a str,
    /// Empty for cluster-scoped requests (and for lists across all namespaces).
    pub namespace: &'a str,
    pub name: &'a str,
    /// The URL path of a non-resource request, e.g. `/healthz`.
    pub path: &'a str,
    pub resource_request: bool,
}

impl<'a> Attributes<'a> {
    /// A resource request.
    pub fn resource(
        user: &'a UserInfo,
        verb: &'a str,
        group: &'a str,
        resource: &'a str,
        subresource: &'a str,
        namespace: &'a str,
        name: &'a str,
    ) -> Self {
        Attributes {
            user,
            verb,
            group,
            resource,
            subresource,
            namespace,
            name,
            path: "",
            resource_request: true,
        }
    }

    /// A non-resource request such as `GET /healthz`.
    pub fn non_resource(user: &'a UserInfo, verb: &'a str, path: &'a str) -> Self {
        Attributes {
            user,
            verb,
            group: "",
            resource: "",
            subresource: "",
            namespace: "",
            name: "",
            path,
            resource_request: false,
        }
    }
}

/// The outcome of authorization.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// `reason` reads like the audit annotation `authorization.k8s.io/reason`, e.g.
    /// `RBAC: allowed by ClusterRoleBinding "cluster-admin" of ClusterRole "cluster-admin" to Group "system:masters"`.
    /// (The real privileged-group and Node authorizers give no reason; kubeplay says who allowed.)
    Allow { reason: String },
    /// `reason` is what the authorizers said, possibly empty; it is appended to the Forbidden text.
    Deny { reason: String },
}

impl Decision {
    pub fn is_allowed(&self) -> bool {
        matches!(self, Decision::Allow { .. })
    }

    pub fn reason(&self) -> &str {
        match self {
            Decision::Allow { reason } | Decision::Deny { reason } => reason,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Rules

/// One `rbacv1.PolicyRule`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PolicyRule {
    pub verbs: Vec<String>,
    pub api_groups: Vec<String>,
    pub resources: Vec<String>,
    pub resource_names: Vec<String>,
    pub non_resource_urls: Vec<String>,
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

impl PolicyRule {
    /// Reads a rule as it appears in a Role or ClusterRole.
    pub fn from_json(v: &Value) -> Self {
        PolicyRule {
            verbs: strings(v.get("verbs")),
            api_groups: strings(v.get("apiGroups")),
            resources: strings(v.get("resources")),
            resource_names: strings(v.get("resourceNames")),
            non_resource_urls: strings(v.get("nonResourceURLs")),
        }
    }

    /// `rbac.RuleAllows`.
    pub fn allows(&self, attrs: &Attributes) -> bool {
        let verb = self.verbs.iter().any(|v| v == "*" || v == attrs.verb);
        if !verb {
            return false;
        }
        if attrs.resource_request {
            let combined;
            let requested = if attrs.subresource.is_empty() {
                attrs.resource
            } else {
                combined = format!("{}/{}", attrs.resource, attrs.subresource);
                &combined
            };
            self.api_groups.iter().any(|g| g == "*" || g == attrs.group)
                && self.resources.iter().any(|r| {
                    r == "*"
                        || r == requested
                        || (!attrs.subresource.is_empty()
                            && r.strip_prefix("*/") == Some(attrs.subresource))
                })
                && (self.resource_names.is_empty()
                    || self.resource_names.iter().any(|n| n == attrs.name))
        } else {
            self.non_resource_urls.iter().any(|u| {
                u == "*"
                    || u == attrs.path
                    || (u.ends_with('*') && attrs.path.starts_with(u.trim_end_matches('*')))
            })
        }
    }
}

fn rules_of(obj: &Object) -> Vec<PolicyRule> {
    obj.get("rules")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(PolicyRule::from_json).collect())
        .unwrap_or_default()
}

/// Whether `labels` satisfy a `metav1.LabelSelector` (matchLabels and matchExpressions).
pub fn label_selector_matches(selector: &Value, labels: Option<&crate::api::value::Map>) -> bool {
    let get = |k: &str| labels.and_then(|l| l.get(k)).and_then(Value::as_str);
    if let Some(ml) = selector.get("matchLabels").and_then(Value::as_object) {
        for (k, v) in ml {
            if get(k) != v.as_str() {
                return false;
            }
        }
    }
    if let Some(exprs) = selector.get("matchExpressions").and_then(Value::as_array) {
        for e in exprs {
            let key = e.get("key").and_then(Value::as_str).unwrap_or("");
            let values = strings(e.get("values"));
            let have = get(key);
            let ok = match e.get("operator").and_then(Value::as_str).unwrap_or("") {
                "In" => have.is_some_and(|h| values.iter().any(|v| v == h)),
                "NotIn" => !have.is_some_and(|h| values.iter().any(|v| v == h)),
                "Exists" => have.is_some(),
                "DoesNotExist" => have.is_none(),
                _ => false,
            };
            if !ok {
                return false;
            }
        }
    }
    true
}

// ---------------------------------------------------------------------------------------------
// Policy: roles and bindings

#[derive(Clone, Debug)]
struct Subject {
    kind: String,
    name: String,
    namespace: String,
}

#[derive(Clone, Debug)]
struct Binding {
    name: String,
    namespace: String,
    role_kind: String,
    role_name: String,
    subjects: Vec<Subject>,
}

impl Binding {
    fn from_json(obj: &Object) -> Self {
        let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let meta = &obj["metadata"];
        let role_ref = &obj["roleRef"];
        Binding {
            name: s(meta, "name"),
            namespace: s(meta, "namespace"),
            role_kind: s(role_ref, "kind"),
            role_name: s(role_ref, "name"),
            subjects: obj
                .get("subjects")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .map(|x| Subject {
                            kind: s(x, "kind"),
                            name: s(x, "name"),
                            namespace: s(x, "namespace"),
                        })
                        .collect()
                })
                .unwrap_or_default(),
        }
    }
}

/// The RBAC objects the authorizer reads, parsed, with aggregated ClusterRoles resolved. The
/// real authorizer reads informer caches; an apiserver that authorizes many requests can keep
/// one snapshot (from [`PolicySnapshot::load`]) and rebuild it whenever a Role, ClusterRole or
/// binding is written, then call [`authorize_request`] with it.
#[derive(Clone, Debug, Default)]
pub struct PolicySnapshot {
    cluster_roles: BTreeMap<String, Vec<PolicyRule>>,
    roles: BTreeMap<(String, String), Vec<PolicyRule>>,
    cluster_role_bindings: Vec<Binding>,
    role_bindings: BTreeMap<String, Vec<Binding>>,
}

fn rbac_resource(plural: &str) -> Option<&'static ResourceInfo> {
    RESOURCES
        .iter()
        .find(|r| r.group == RBAC_GROUP && r.plural == plural)
}

impl PolicySnapshot {
    /// Every ClusterRole, Role and binding in the store.
    pub fn load(store: &dyn ObjectLister) -> Self {
        Self::load_scoped(store, None)
    }

    /// The cluster-wide policy plus the Roles and RoleBindings of one namespace (none when
    /// `namespace` is empty): all that a request in that namespace can use.
    pub fn load_for_namespace(store: &dyn ObjectLister, namespace: &str) -> Self {
        Self::load_scoped(store, Some(namespace))
    }

    fn load_scoped(store: &dyn ObjectLister, namespace: Option<&str>) -> Self {
        let mut objects = Vec::new();
        for plural in ["clusterroles", "clusterrolebindings"] {
            if let Some(r) = rbac_resource(plural) {
                objects.extend(store.list_shared(r, None));
            }
        }
        if namespace != Some("") {
            for plural in ["roles", "rolebindings"] {
                if let Some(r) = rbac_resource(plural) {
                    objects.extend(store.list_shared(r, namespace));
                }
            }
        }
        Self::from_refs(objects.iter().map(|o| &**o))
    }

    /// Builds a snapshot from Role, ClusterRole, RoleBinding and ClusterRoleBinding objects
    /// (other kinds are ignored).
    pub fn from_objects(objects: &[Object]) -> Self {
        Self::from_refs(objects.iter())
    }

    fn from_refs<'a>(objects: impl Iterator<Item = &'a Object>) -> Self {
        let mut snap = PolicySnapshot::default();
        let mut cluster_roles: Vec<&Object> = Vec::new();
        for o in objects {
            let name = o["metadata"]["name"].as_str().unwrap_or("").to_string();
            match o.get("kind").and_then(Value::as_str).unwrap_or("") {
                "ClusterRole" => cluster_roles.push(o),
                "Role" => {
                    let ns = o["metadata"]["namespace"]
                        .as_str()
                        .unwrap_or("")
                        .to_string();
                    snap.roles.insert((ns, name), rules_of(o));
                }
                "ClusterRoleBinding" => snap.cluster_role_bindings.push(Binding::from_json(o)),
                "RoleBinding" => {
                    let b = Binding::from_json(o);
                    snap.role_bindings
                        .entry(b.namespace.clone())
                        .or_default()
                        .push(b);
                }
                _ => {}
            }
        }
        crate::api::sorting::sort_by(&mut snap.cluster_role_bindings, &|a, b| a.name.cmp(&b.name));
        for list in snap.role_bindings.values_mut() {
            crate::api::sorting::sort_by(list, &|a, b| a.name.cmp(&b.name));
        }
        crate::api::sorting::sort_by(&mut cluster_roles, &|a, b| {
            a["metadata"]["name"]
                .as_str()
                .cmp(&b["metadata"]["name"].as_str())
        });
        snap.cluster_roles = resolve_aggregation(&cluster_roles);
        snap
    }

    /// The effective rules of a ClusterRole (aggregation resolved).
    pub fn cluster_role_rules(&self, name: &str) -> Option<&[PolicyRule]> {
        self.cluster_roles.get(name).map(Vec::as_slice)
    }

    /// `GetRoleReferenceRules`.
    fn role_ref_rules(
        &self,
        kind: &str,
        name: &str,
        namespace: &str,
    ) -> Result<&[PolicyRule], String> {
        match kind {
            "Role" => self
                .roles
                .get(&(namespace.to_string(), name.to_string()))
                .map(Vec::as_slice)
                .ok_or_else(|| {
                    format!(
                        "role.rbac.authorization.k8s.io {} not found",
                        go_quote(name)
                    )
                }),
            "ClusterRole" => self.cluster_role_rules(name).ok_or_else(|| {
                format!(
                    "clusterrole.rbac.authorization.k8s.io {} not found",
                    go_quote(name)
                )
            }),
            other => Err(format!(
                "unsupported role reference kind: {}",
                go_quote(other)
            )),
        }
    }

    /// The RBAC authorizer alone: ClusterRoleBindings, then (for a namespaced request) the
    /// RoleBindings of the namespace; the first rule that allows wins.
    pub fn authorize_rbac(&self, attrs: &Attributes) -> Decision {
        let groups = effective_groups(attrs.user);
        let mut errors: Vec<String> = Vec::new();
        for b in &self.cluster_role_bindings {
            let Some(subject) = applies_to(attrs.user, &groups, &b.subjects, "") else {
                continue;
            };
            match self.role_ref_rules(&b.role_kind, &b.role_name, "") {
                Err(e) => errors.push(e),
                Ok(rules) => {
                    if rules.iter().any(|r| r.allows(attrs)) {
                        return Decision::Allow {
                            reason: format!(
                                "RBAC: allowed by ClusterRoleBinding {} of {} {} to {}",
                                go_quote(&b.name),
                                b.role_kind,
                                go_quote(&b.role_name),
                                describe_subject(subject, "")
                            ),
                        };
                    }
                }
            }
        }
        if !attrs.namespace.is_empty() {
            for b in self
                .role_bindings
                .get(attrs.namespace)
                .into_iter()
                .flatten()
            {
                let Some(subject) = applies_to(attrs.user, &groups, &b.subjects, attrs.namespace)
                else {
                    continue;
                };
                match self.role_ref_rules(&b.role_kind, &b.role_name, attrs.namespace) {
                    Err(e) => errors.push(e),
                    Ok(rules) => {
                        if rules.iter().any(|r| r.allows(attrs)) {
                            return Decision::Allow {
                                reason: format!(
                                    "RBAC: allowed by RoleBinding {} of {} {} to {}",
                                    go_quote(&format!("{}/{}", b.name, b.namespace)),
                                    b.role_kind,
                                    go_quote(&b.role_name),
                                    describe_subject(subject, &b.namespace)
                                ),
                            };
                        }
                    }
                }
            }
        }
        Decision::Deny {
            reason: if errors.is_empty() {
                String::new()
            } else {
                format!("RBAC: {}", aggregate(&errors))
            },
        }
    }
}

/// `utilerrors.NewAggregate(errs).Error()`: one message alone, several as `[a, b]`, duplicates once.
fn aggregate(errors: &[String]) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for e in errors {
        if !seen.contains(&e.as_str()) {
            seen.push(e);
        }
    }
    if seen.len() == 1 {
        seen[0].to_string()
    } else {
        format!("[{}]", seen.join(", "))
    }
}

/// The clusterrole-aggregation controller's result, computed on the spot: an aggregated role's
/// rules are those of the roles its selectors pick, each selector in turn, roles by name, rules
/// without duplicates, itself excluded; aggregated roles picked are themselves resolved.
fn resolve_aggregation(roles: &[&Object]) -> BTreeMap<String, Vec<PolicyRule>> {
    /// Resolves role `i` into `done[i]`; inside a cycle, gives the role's stored rules instead
    /// (not remembered).
    fn resolve(
        i: usize,
        roles: &[&Object],
        done: &mut Vec<Option<Vec<PolicyRule>>>,
        visiting: &mut BTreeSet<usize>,
    ) -> Option<Vec<PolicyRule>> {
        if done[i].is_some() {
            return None;
        }
        let role = roles[i];
        let selectors = role
            .lookup("/aggregationRule/clusterRoleSelectors")
            .and_then(Value::as_array);
        let Some(selectors) = selectors else {
            done[i] = Some(rules_of(role));
            return None;
        };
        if !visiting.insert(i) {
            // A cycle: use what is stored.
            return Some(rules_of(role));
        }
        let mut out: Vec<PolicyRule> = Vec::new();
        for sel in selectors {
            for j in 0..roles.len() {
                if j == i
                    || !label_selector_matches(sel, roles[j]["metadata"]["labels"].as_object())
                {
                    continue;
                }
                let add = |out: &mut Vec<PolicyRule>, r: &PolicyRule| {
                    if !out.contains(r) {
                        out.push(r.clone());
                    }
                };
                match resolve(j, roles, done, visiting) {
                    Some(rules) => rules.iter().for_each(|r| add(&mut out, r)),
                    None => done[j].iter().flatten().for_each(|r| add(&mut out, r)),
                }
            }
        }
        visiting.remove(&i);
        done[i] = Some(out);
        None
    }
    let mut done = vec![None; roles.len()];
    let mut visiting = BTreeSet::new();
    let mut resolved: Vec<Option<Vec<PolicyRule>>> = (0..roles.len())
        .map(|i| resolve(i, roles, &mut done, &mut visiting))
        .collect();
    let mut result = BTreeMap::new();
    for i in 0..roles.len() {
        let rules = resolved[i]
            .take()
            .or_else(|| done[i].take())
            .unwrap_or_default();
        let name = roles[i]["metadata"]["name"]
            .as_str()
            .unwrap_or("")
            .to_string();
        result.insert(name, rules);
    }
    result
}

/// The groups the authenticator chain gives a user: its own, plus `system:authenticated` for
/// every authenticated user and the service-account groups for service accounts (added here
/// too, so a `UserInfo` built with only a name is judged like the real request would be).
fn effective_groups(user: &UserInfo) -> Vec<String> {
    let mut groups = user.groups.clone();
    let mut add = |g: String| {
        if !groups.contains(&g) {
            groups.push(g);
        }
    };
    if user.name != ANONYMOUS_USER && !user.in_group(UNAUTHENTICATED_GROUP) {
        add(AUTHENTICATED_GROUP.to_string());
    }
    if let Some(rest) = user.name.strip_prefix(SERVICE_ACCOUNT_PREFIX) {
        if let Some((ns, _)) = rest.split_once(':') {
            add(SERVICE_ACCOUNTS_GROUP.to_string());
            add(format!("{SERVICE_ACCOUNTS_GROUP}:{ns}"));
        }
    }
    groups
}

/// `appliesTo`: the first subject of a binding that names the user.
fn applies_to<'s>(
    user: &UserInfo,
    groups: &[String],
    subjects: &'s [Subject],
    namespace: &str,
) -> Option<&'s Subject> {
    subjects.iter().find(|s| match s.kind.as_str() {
        "User" => s.name == user.name,
        "Group" => groups.contains(&s.name),
        "ServiceAccount" => {
            let ns = if s.namespace.is_empty() {
                namespace
            } else {
                &s.namespace
            };
            !ns.is_empty()
                && user
                    .name
                    .strip_prefix(SERVICE_ACCOUNT_PREFIX)
                    .and_then(|rest| rest.split_once(':'))
                    == Some((ns, s.name.as_str()))
        }
        _ => false,
    })
}

/// `describeSubject` (note the real `name/namespace` order for service accounts).
fn describe_subject(s: &Subject, binding_namespace: &str) -> String {
    if s.kind == "ServiceAccount" {
        let ns = if s.namespace.is_empty() {
            binding_namespace
        } else {
            &s.namespace
        };
        format!("{} {}", s.kind, go_quote(&format!("{}/{}", s.name, ns)))
    } else {
        format!("{} {}", s.kind, go_quote(&s.name))
    }
}

// ---------------------------------------------------------------------------------------------
// The Node authorizer

/// `nodeidentifier.NodeIdentity`: `Some(node name)` for a user named `system:node:<name>` in the
/// group `system:nodes` (the name may be empty), `None` for everyone else.
pub fn node_identity(user: &UserInfo) -> Option<&str> {
    let name = user.name.strip_prefix(NODE_USER_PREFIX)?;
    user.in_group(NODES_GROUP).then_some(name)
}

fn node_rules() -> &'static [PolicyRule] {
    static RULES: OnceLock<Vec<PolicyRule>> = OnceLock::new();
    RULES.get_or_init(|| {
        super::bootstrap::node_rules()
            .iter()
            .map(PolicyRule::from_json)
            .collect()
    })
}

enum NodeDecision {
    Allow,
    NoOpinion(String),
}

use NodeDecision::{Allow as NodeAllow, NoOpinion};

fn no_opinion(reason: &str) -> NodeDecision {
    NoOpinion(reason.to_string())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Vertex {
    Pod,
    Secret,
    ConfigMap,
    Pvc,
    Pv,
    ServiceAccount,
}

fn core_resource(plural: &str) -> Option<&'static ResourceInfo> {
    RESOURCES
        .iter()
        .find(|r| r.group.is_empty() && r.plural == plural)
}

fn pods_on_node(store: &dyn ObjectLister, namespace: Option<&str>, node: &str) -> Vec<Object> {
    store.pods_on_node(namespace, node)
}

fn str_at<'v>(v: &'v Value, path: &str) -> Option<&'v str> {
    v.lookup(path).and_then(Value::as_str)
}

fn all_containers(pod: &Value) -> impl Iterator<Item = &Value> {
    ["containers", "initContainers", "ephemeralContainers"]
        .into_iter()
        .flat_map(move |k| {
            pod.lookup(&format!("/spec/{k}"))
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
        })
}

/// The names of the objects of one kind a pod references (the Node authorizer's graph edges).
fn pod_references(pod: &Value, kind: Vertex) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |s: Option<&str>| {
        if let Some(s) = s {
            if !s.is_empty() {
                out.push(s.to_string());
            }
        }
    };
    let volumes = pod
        .lookup("/spec/volumes")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    match kind {
        Vertex::Secret => {
            for v in volumes {
                push(str_at(v, "/secret/secretName"));
                push(str_at(v, "/csi/nodePublishSecretRef/name"));
                for src in v
                    .lookup("/projected/sources")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    push(str_at(src, "/secret/name"));
                }
            }
            for s in pod
                .lookup("/spec/imagePullSecrets")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                push(str_at(s, "/name"));
            }
            for c in all_containers(pod) {
                for e in c.get("env").and_then(Value::as_array).into_iter().flatten() {
                    push(str_at(e, "/valueFrom/secretKeyRef/name"));
                }
                for e in c
                    .get("envFrom")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    push(str_at(e, "/secretRef/name"));
                }
            }
        }
        Vertex::ConfigMap => {
            for v in volumes {
                push(str_at(v, "/configMap/name"));
                for src in v
                    .lookup("/projected/sources")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    push(str_at(src, "/configMap/name"));
                }
            }
            for c in all_containers(pod) {
                for e in c.get("env").and_then(Value::as_array).into_iter().flatten() {
                    push(str_at(e, "/valueFrom/configMapKeyRef/name"));
                }
                for e in c
                    .get("envFrom")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    push(str_at(e, "/configMapRef/name"));
                }
            }
        }
        Vertex::Pvc => {
            let pod_name = str_at(pod, "/metadata/name").unwrap_or("");
            for v in volumes {
                push(str_at(v, "/persistentVolumeClaim/claimName"));
                if v.get("ephemeral").is_some() {
                    let vol = str_at(v, "/name").unwrap_or("");
                    push(Some(&format!("{pod_name}-{vol}")));
                }
            }
        }
        Vertex::ServiceAccount => {
            push(Some(
                str_at(pod, "/spec/serviceAccountName").unwrap_or("default"),
            ));
        }
        Vertex::Pod | Vertex::Pv => {}
    }
    out
}

/// `hasPathFrom`: whether the object is related to the node through the pods bound to it.
fn has_path(
    node: &str,
    kind: Vertex,
    namespace: &str,
    name: &str,
    store: &dyn ObjectLister,
) -> bool {
    match kind {
        Vertex::Pod => pods_on_node(store, Some(namespace), node)
            .iter()
            .any(|p| str_at(p, "/metadata/name") == Some(name)),
        Vertex::Pv => {
            let Some(pvcs) = core_resource("persistentvolumeclaims") else {
                return false;
            };
            pods_on_node(store, None, node).iter().any(|p| {
                let ns = str_at(p, "/metadata/namespace").unwrap_or("");
                let claims = pod_references(p, Vertex::Pvc);
                !claims.is_empty()
                    && store.list(pvcs, Some(ns)).iter().any(|c| {
                        claims
                            .iter()
                            .any(|n| str_at(c, "/metadata/name") == Some(n))
                            && str_at(c, "/spec/volumeName") == Some(name)
                    })
            })
        }
        _ => pods_on_node(store, Some(namespace), node)
            .iter()
            .any(|p| pod_references(p, kind).iter().any(|n| n == name)),
    }
}

fn related(node: &str, kind: Vertex, attrs: &Attributes, store: &dyn ObjectLister) -> NodeDecision {
    if attrs.name.is_empty() {
        return no_opinion("No Object name found");
    }
    if has_path(node, kind, attrs.namespace, attrs.name, store) {
        NodeAllow
    } else {
        NoOpinion(format!(
            "no relationship found between node '{node}' and this object"
        ))
    }
}

/// The value a field selector such as `spec.nodeName=node-1` requires of `field` (`=` or `==`).
fn selector_value<'s>(selector: &'s str, field: &str) -> Option<&'s str> {
    selector.split(',').find_map(|term| {
        let (k, v) = match term.split_once("==") {
            Some(kv) => kv,
            None => match term.split_once('=') {
                Some((k, _)) if k.ends_with('!') => return None,
                Some(kv) => kv,
                None => return None,
            },
        };
        (k.trim() == field).then(|| v.trim())
    })
}

/// What the authorizer knows of the request's field selector.
#[derive(Clone, Copy)]
enum Selector<'s> {
    /// [`authorize`] is not told: a node's list or watch is taken to carry the selector its
    /// kubelet always sends (`spec.nodeName=<node>` for pods, `metadata.name=<name>` for its
    /// own Node and for the secrets and config maps of its pods).
    Unknown,
    /// [`authorize_request`]: the request's `fieldSelector`, if any.
    Given(Option<&'s str>),
}

impl Selector<'_> {
    fn requires(self, field: &str, value: &str) -> bool {
        match self {
            Selector::Unknown => true,
            Selector::Given(s) => s.and_then(|s| selector_value(s, field)) == Some(value),
        }
    }
}

fn node_authorize(
    node: &str,
    attrs: &Attributes,
    selector: Selector,
    store: &dyn ObjectLister,
) -> NodeDecision {
    if node.is_empty() {
        return NoOpinion(format!(
            "unknown node for user {}",
            go_quote(&attrs.user.name)
        ));
    }
    let (verb, sub) = (attrs.verb, attrs.subresource);
    if attrs.resource_request {
        match (attrs.group, attrs.resource) {
            ("", "secrets") | ("", "configmaps") => {
                let kind = if attrs.resource == "secrets" {
                    Vertex::Secret
                } else {
                    Vertex::ConfigMap
                };
                if !matches!(verb, "get" | "list" | "watch") {
                    return no_opinion("can only read resources of this type");
                }
                if !sub.is_empty() {
                    return no_opinion("cannot read subresource");
                }
                if attrs.namespace.is_empty() {
                    return no_opinion("can only read namespaced object of this type");
                }
                if attrs.name.is_empty() && verb != "get" && matches!(selector, Selector::Unknown) {
                    return NodeAllow;
                }
                return related(node, kind, attrs, store);
            }
            ("", "persistentvolumeclaims") if sub == "status" => {
                if !matches!(verb, "update" | "patch") {
                    return no_opinion("can only get/update/patch this type");
                }
                return related(node, Vertex::Pvc, attrs, store);
            }
            ("", "persistentvolumeclaims") | ("", "persistentvolumes") => {
                let kind = if attrs.resource == "persistentvolumes" {
                    Vertex::Pv
                } else {
                    Vertex::Pvc
                };
                if verb != "get" {
                    return no_opinion("can only get individual resources of this type");
                }
                if !sub.is_empty() {
                    return no_opinion("cannot get subresource");
                }
                return related(node, kind, attrs, store);
            }
            ("", "serviceaccounts") => {
                if verb != "create" || attrs.name.is_empty() {
                    return no_opinion("can only create tokens for individual service accounts");
                }
                if sub != "token" {
                    return no_opinion("can only create token subresource of serviceaccount");
                }
                return if has_path(
                    node,
                    Vertex::ServiceAccount,
                    attrs.namespace,
                    attrs.name,
                    store,
                ) {
                    NodeAllow
                } else {
                    NoOpinion(format!(
                        "no relationship found between node '{node}' and this object"
                    ))
                };
            }
            ("coordination.k8s.io", "leases") => {
                if !matches!(verb, "get" | "create" | "update" | "patch" | "delete") {
                    return no_opinion(
                        "can only get, create, update, patch, or delete a node lease",
                    );
                }
                if attrs.namespace != NODE_LEASE_NAMESPACE {
                    return NoOpinion(format!(
                        "can only access leases in the {} system namespace",
                        go_quote(NODE_LEASE_NAMESPACE)
                    ));
                }
                if verb != "create" && attrs.name != node {
                    return no_opinion(
                        "can only access node lease with the same name as the requesting node",
                    );
                }
                return NodeAllow;
            }
            ("", "nodes") => {
                return match (sub, verb) {
                    ("", "create" | "update" | "patch") => NodeAllow,
                    ("", "get" | "list" | "watch") => {
                        if attrs.name == node
                            || (attrs.name.is_empty()
                                && verb != "get"
                                && matches!(selector, Selector::Unknown))
                        {
                            NodeAllow
                        } else if attrs.name.is_empty() {
                            NoOpinion(format!(
                                "node '{node}' cannot read all nodes, only its own Node object"
                            ))
                        } else {
                            NoOpinion(format!(
                                "node '{node}' cannot read '{}', only its own Node object",
                                attrs.name
                            ))
                        }
                    }
                    ("status", "update" | "patch") => NodeAllow,
                    _ => no_opinion(""),
                };
            }
            ("", "pods") => {
                return match (sub, verb) {
                    ("", "get") => related(node, Vertex::Pod, attrs, store),
                    ("", "list" | "watch") => {
                        if selector.requires("spec.nodeName", node) {
                            NodeAllow
                        } else if !attrs.name.is_empty() {
                            related(node, Vertex::Pod, attrs, store)
                        } else {
                            no_opinion("can only list/watch pods with spec.nodeName field selector")
                        }
                    }
                    ("", "create" | "delete") => NodeAllow,
                    ("status", "update" | "patch") => NodeAllow,
                    ("eviction", "create") => NodeAllow,
                    _ => no_opinion(""),
                };
            }
            _ => {}
        }
    }
    if node_rules().iter().any(|r| r.allows(attrs)) {
        NodeAllow
    } else {
        no_opinion("")
    }
}

// ---------------------------------------------------------------------------------------------
// The union

/// Authorizes a request against the store's current policy (`kubectl auth can-i` uses this too).
/// It does not see the request's field selector: a kubelet's list or watch is assumed to carry
/// the selector the kubelet always sends; [`authorize_request`] checks it.
pub fn authorize(attrs: &Attributes, store: &dyn ObjectLister) -> Decision {
    authorize_with(attrs, Selector::Unknown, None, store)
}

/// Authorizes a request: the privileged group, then Node, then RBAC.
/// `field_selector` is the request's `fieldSelector`: as the apiserver's `RequestInfoFactory`
/// does, a list or watch with `metadata.name=<name>` is authorized as a request for that name,
/// and the Node authorizer lets a kubelet list and watch pods only with `spec.nodeName=<its node>`.
/// `policy` is a pre-built snapshot of the RBAC objects (without one, the policy is read from
/// `store` for this request).
pub fn authorize_request(
    attrs: &Attributes,
    field_selector: Option<&str>,
    policy: Option<&PolicySnapshot>,
    store: &dyn ObjectLister,
) -> Decision {
    let named = match field_selector.and_then(|s| selector_value(s, "metadata.name")) {
        Some(name)
            if attrs.resource_request
                && attrs.name.is_empty()
                && matches!(attrs.verb, "list" | "watch") =>
        {
            Some(Attributes { name, ..*attrs })
        }
        _ => None,
    };
    authorize_with(
        named.as_ref().unwrap_or(attrs),
        Selector::Given(field_selector),
        policy,
        store,
    )
}

fn authorize_with(
    attrs: &Attributes,
    selector: Selector,
    policy: Option<&PolicySnapshot>,
    store: &dyn ObjectLister,
) -> Decision {
    let rbac = |attrs: &Attributes| match policy {
        Some(p) => p.authorize_rbac(attrs),
        None => PolicySnapshot::load_for_namespace(store, attrs.namespace).authorize_rbac(attrs),
    };

    // The privileged group authorizer comes before the configured modes.
    if attrs.user.in_group(SYSTEM_MASTERS) {
        return match rbac(attrs) {
            allow @ Decision::Allow { .. } => allow,
            Decision::Deny { .. } => Decision::Allow {
                reason: format!(
                    "allowed: member of the privileged group {}",
                    go_quote(SYSTEM_MASTERS)
                ),
            },
        };
    }

    let mut reasons: Vec<String> = Vec::new();
    if let Some(node) = node_identity(attrs.user) {
        match node_authorize(node, attrs, selector, store) {
            NodeAllow => {
                return Decision::Allow {
                    reason: format!("Node: allowed for node {}", go_quote(node)),
                }
            }
            NoOpinion(r) => {
                if !r.is_empty() {
                    reasons.push(r);
                }
            }
        }
    }
    match rbac(attrs) {
        allow @ Decision::Allow { .. } => allow,
        Decision::Deny { reason } => {
            if !reason.is_empty() {
                reasons.push(reason);
            }
            Decision::Deny {
                reason: reasons.join("\n"),
            }
        }
    }
}

/// Whether writes to `resource` change the RBAC policy (Roles, ClusterRoles and their bindings).
pub fn is_policy_resource(resource: &ResourceInfo) -> bool {
    resource.group == RBAC_GROUP
}

/// The authorizer with its policy kept between requests, as the real one keeps informer
/// caches: reading and parsing every ClusterRole and binding for each request would dominate
/// the apiserver's time. Tell it about every write with [`Authorizer::observe_write`] (or call
/// [`Authorizer::invalidate`]) so the next request reads the new policy.
#[derive(Clone, Debug, Default)]
pub struct Authorizer {
    policy: Option<PolicySnapshot>,
}

impl Authorizer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the cached policy.
    pub fn invalidate(&mut self) {
        self.policy = None;
    }

    /// Forgets the cached policy if `resource` is part of it.
    pub fn observe_write(&mut self, resource: &ResourceInfo) {
        if is_policy_resource(resource) {
            self.invalidate();
        }
    }

    /// [`authorize_request`] with the cached policy (loaded from `store` when there is none).
    pub fn authorize(
        &mut self,
        attrs: &Attributes,
        field_selector: Option<&str>,
        store: &dyn ObjectLister,
    ) -> Decision {
        let policy = self
            .policy
            .get_or_insert_with(|| PolicySnapshot::load(store));
        authorize_request(attrs, field_selector, Some(policy), store)
    }
}

/// `kubectl auth can-i`: whether the request would be allowed, and the line kubectl prints
/// (`yes`, `no`, or `no - <reason>`).
pub fn can_i(attrs: &Attributes, store: &dyn ObjectLister) -> (bool, String) {
    match authorize(attrs, store) {
        Decision::Allow { .. } => (true, "yes".to_string()),
        Decision::Deny { reason } if reason.is_empty() => (false, "no".to_string()),
        Decision::Deny { reason } => (false, format!("no - {reason}")),
    }
}

// ---------------------------------------------------------------------------------------------
// The Forbidden response

/// `forbiddenMessage`: `User "u" cannot <verb> resource "r" in API group "g" in the namespace "ns"`.
pub fn forbidden_message(attrs: &Attributes) -> String {
    let user = go_quote(&attrs.user.name);
    if !attrs.resource_request {
        return format!(
            "User {user} cannot {} path {}",
            attrs.verb,
            go_quote(attrs.path)
        );
    }
    let resource = if attrs.subresource.is_empty() {
        attrs.resource.to_string()
    } else {
        format!("{}/{}", attrs.resource, attrs.subresource)
    };
    if attrs.namespace.is_empty() {
        format!(
            "User {user} cannot {} resource {} in API group {} at the cluster scope",
            attrs.verb,
            go_quote(&resource),
            go_quote(attrs.group)
        )
    } else {
        format!(
            "User {user} cannot {} resource {} in API group {} in the namespace {}",
            attrs.verb,
            go_quote(&resource),
            go_quote(attrs.group),
            go_quote(attrs.namespace)
        )
    }
}

/// The 403 of `responsewriters.Forbidden`: the message (HTML-escaped as the real one), `: reason`
/// when there is one, wrapped by `apierrors.NewForbidden` with the request's group, resource and
/// name; a non-resource request reads `forbidden: User "u" cannot get path "/x"`.
pub fn forbidden_error(attrs: &Attributes, reason: &str) -> ApiError {
    let msg = forbidden_message(attrs)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let full = if reason.is_empty() {
        msg
    } else {
        format!("{msg}: {reason}")
    };
    if attrs.resource_request && !attrs.resource.is_empty() {
        ApiError::forbidden(attrs.resource, attrs.group, attrs.name, &full)
    } else {
        ApiError {
            code: 403,
            reason: "Forbidden",
            message: format!("forbidden: {full}"),
            details: Some(Box::default()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::resources::for_kind;
    use crate::json;

    /// An in-memory store: objects filtered by kind and namespace, in key order.
    struct Mem(Vec<Object>);

    impl ObjectLister for Mem {
        fn list(&self, resource: &'static ResourceInfo, namespace: Option<&str>) -> Vec<Object> {
            let mut out: Vec<Object> = self
                .0
                .iter()
                .filter(|o| {
                    for_kind(
                        o["apiVersion"].as_str().unwrap_or(""),
                        o["kind"].as_str().unwrap_or(""),
                    )
                    .is_some_and(|r| std::ptr::eq(r, resource))
                        && namespace
                            .is_none_or(|ns| o["metadata"]["namespace"].as_str() == Some(ns))
                })
                .cloned()
                .collect();
            out.sort_by(|a, b| {
                (
                    a["metadata"]["namespace"].as_str(),
                    a["metadata"]["name"].as_str(),
                )
                    .cmp(&(
                        b["metadata"]["namespace"].as_str(),
                        b["metadata"]["name"].as_str(),
                    ))
            });
            out
        }
    }

    fn store(extra: Vec<Object>) -> Mem {
        let mut objs = super::super::bootstrap::bootstrap_policy();
        objs.extend(extra);
        Mem(objs)
    }

    fn role(ns: &str, name: &str, rules: Value) -> Object {
        json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
               "metadata": {"name": name, "namespace": ns}, "rules": rules})
    }

    fn role_binding(ns: &str, name: &str, kind: &str, role: &str, subjects: Value) -> Object {
        json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
               "metadata": {"name": name, "namespace": ns},
               "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": kind, "name": role},
               "subjects": subjects})
    }

    fn dev() -> UserInfo {
        UserInfo::new("dev", &["system:authenticated"])
    }

    #[test]
    fn admin_is_allowed_by_the_cluster_admin_binding() {
        let s = store(vec![]);
        let admin = UserInfo::new(
            "kubernetes-admin",
            &["kubeadm:cluster-admins", "system:masters"],
        );
        let a = Attributes::resource(&admin, "create", "apps", "deployments", "", "default", "");
        assert_eq!(
            authorize(&a, &s),
            Decision::Allow {
                reason: "RBAC: allowed by ClusterRoleBinding \"cluster-admin\" of ClusterRole \"cluster-admin\" to Group \"system:masters\"".into()
            }
        );
        // Even without any policy objects, system:masters is privileged.
        let empty = Mem(vec![]);
        assert!(authorize(&a, &empty).is_allowed());
    }

    #[test]
    fn user_without_bindings_is_denied_with_the_real_text() {
        let s = store(vec![]);
        let u = dev();
        let a = Attributes::resource(&u, "create", "apps", "deployments", "", "default", "");
        let d = authorize(&a, &s);
        assert_eq!(
            d,
            Decision::Deny {
                reason: String::new()
            }
        );
        let e = forbidden_error(&a, d.reason());
        assert_eq!(
            e.message,
            "deployments.apps is forbidden: User \"dev\" cannot create resource \"deployments\" in API group \"apps\" in the namespace \"default\""
        );
        assert_eq!(e.code, 403);
        assert_eq!(e.reason, "Forbidden");
        assert_eq!(can_i(&a, &s), (false, "no".to_string()));
    }

    #[test]
    fn role_and_role_binding_allow_in_their_namespace_only() {
        let s = store(vec![
            role(
                "default",
                "deployer",
                json!([{"apiGroups": ["apps"], "resources": ["deployments"], "verbs": ["create", "get"]}]),
            ),
            role_binding(
                "default",
                "dev-deployer",
                "Role",
                "deployer",
                json!([{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "dev"}]),
            ),
        ]);
        let u = dev();
        let a = Attributes::resource(&u, "create", "apps", "deployments", "", "default", "");
        assert_eq!(
            authorize(&a, &s),
            Decision::Allow {
                reason: "RBAC: allowed by RoleBinding \"dev-deployer/default\" of Role \"deployer\" to User \"dev\"".into()
            }
        );
        let other = Attributes::resource(&u, "create", "apps", "deployments", "", "prod", "");
        assert!(!authorize(&other, &s).is_allowed());
        let delete =
            Attributes::resource(&u, "delete", "apps", "deployments", "", "default", "web");
        assert!(!authorize(&delete, &s).is_allowed());
        assert_eq!(can_i(&a, &s), (true, "yes".to_string()));
    }

    #[test]
    fn cluster_role_through_role_binding_is_scoped_to_the_namespace() {
        let s = store(vec![role_binding(
            "team-a",
            "dev-edit",
            "ClusterRole",
            "edit",
            json!([{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "dev"}]),
        )]);
        let u = dev();
        let a = Attributes::resource(&u, "create", "apps", "deployments", "", "team-a", "");
        assert!(
            authorize(&a, &s).is_allowed(),
            "edit aggregates deployments"
        );
        let view_part = Attributes::resource(&u, "list", "", "pods", "", "team-a", "");
        assert!(
            authorize(&view_part, &s).is_allowed(),
            "edit aggregates view"
        );
        let elsewhere =
            Attributes::resource(&u, "create", "apps", "deployments", "", "default", "");
        assert!(!authorize(&elsewhere, &s).is_allowed());
        let nodes = Attributes::resource(&u, "list", "", "nodes", "", "", "");
        assert!(!authorize(&nodes, &s).is_allowed());
    }

    #[test]
    fn missing_role_is_the_deny_reason() {
        let s = store(vec![role_binding(
            "default",
            "b",
            "ClusterRole",
            "nope",
            json!([{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "dev"}]),
        )]);
        let u = dev();
        let a = Attributes::resource(&u, "get", "", "pods", "", "default", "p");
        let d = authorize(&a, &s);
        assert_eq!(
            d.reason(),
            "RBAC: clusterrole.rbac.authorization.k8s.io \"nope\" not found"
        );
        assert_eq!(
            forbidden_error(&a, d.reason()).message,
            "pods \"p\" is forbidden: User \"dev\" cannot get resource \"pods\" in API group \"\" in the namespace \"default\": RBAC: clusterrole.rbac.authorization.k8s.io \"nope\" not found"
        );
    }

    #[test]
    fn service_account_subjects_and_groups() {
        let s = store(vec![
            role(
                "ci",
                "reader",
                json!([{"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get"]}]),
            ),
            // Namespace omitted: defaults to the binding's.
            role_binding(
                "ci",
                "sa",
                "Role",
                "reader",
                json!([{"kind": "ServiceAccount", "name": "builder"}]),
            ),
            role_binding(
                "ci",
                "view-all-sa",
                "ClusterRole",
                "view",
                json!([{"apiGroup": "rbac.authorization.k8s.io", "kind": "Group", "name": "system:serviceaccounts:ci"}]),
            ),
        ]);
        let sa = UserInfo::new("system:serviceaccount:ci:builder", &[]);
        let a = Attributes::resource(&sa, "get", "", "configmaps", "", "ci", "settings");
        assert_eq!(
            authorize(&a, &s).reason(),
            "RBAC: allowed by RoleBinding \"sa/ci\" of Role \"reader\" to ServiceAccount \"builder/ci\""
        );
        let other = UserInfo::new("system:serviceaccount:ci:deployer", &[]);
        let list = Attributes::resource(&other, "list", "", "pods", "", "ci", "");
        assert_eq!(
            authorize(&list, &s).reason(),
            "RBAC: allowed by RoleBinding \"view-all-sa/ci\" of ClusterRole \"view\" to Group \"system:serviceaccounts:ci\""
        );
        let cm = Attributes::resource(&other, "get", "", "configmaps", "", "ci", "settings");
        assert!(authorize(&cm, &s).is_allowed(), "view reads configmaps");
        let secret = Attributes::resource(&other, "get", "", "secrets", "", "ci", "x");
        assert!(
            !authorize(&secret, &s).is_allowed(),
            "view does not read secrets"
        );
    }

    #[test]
    fn cluster_role_bindings_apply_to_the_subjects_they_name_in_name_order() {
        let binding = |name: &str, role: &str, subject: Value| {
            json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
                   "metadata": {"name": name},
                   "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role},
                   "subjects": [subject]})
        };
        let s = store(vec![
            binding(
                "z-alice-edits",
                "edit",
                json!({"kind": "User", "name": "alice"}),
            ),
            binding(
                "a-readers-view",
                "view",
                json!({"kind": "Group", "name": "readers"}),
            ),
            binding(
                "m-builder-views",
                "view",
                json!({"kind": "ServiceAccount", "name": "builder", "namespace": "ci"}),
            ),
            // A ServiceAccount subject of a ClusterRoleBinding names no one without its namespace.
            binding(
                "b-builder-admin",
                "cluster-admin",
                json!({"kind": "ServiceAccount", "name": "builder"}),
            ),
        ]);
        let alice = UserInfo::new("alice", &["readers"]);
        let list = Attributes::resource(&alice, "list", "", "pods", "", "default", "");
        assert_eq!(
            authorize(&list, &s).reason(),
            "RBAC: allowed by ClusterRoleBinding \"a-readers-view\" of ClusterRole \"view\" to Group \"readers\""
        );
        let create =
            Attributes::resource(&alice, "create", "apps", "deployments", "", "default", "");
        assert_eq!(
            authorize(&create, &s).reason(),
            "RBAC: allowed by ClusterRoleBinding \"z-alice-edits\" of ClusterRole \"edit\" to User \"alice\""
        );
        let builder = UserInfo::new("system:serviceaccount:ci:builder", &[]);
        let get = Attributes::resource(&builder, "get", "", "pods", "", "default", "p");
        assert_eq!(
            authorize(&get, &s).reason(),
            "RBAC: allowed by ClusterRoleBinding \"m-builder-views\" of ClusterRole \"view\" to ServiceAccount \"builder/ci\""
        );
        let delete = Attributes::resource(&builder, "delete", "", "nodes", "", "", "n1");
        assert!(!authorize(&delete, &s).is_allowed());
        let bob = UserInfo::new("bob", &[]);
        assert!(!authorize(
            &Attributes::resource(&bob, "list", "", "pods", "", "default", ""),
            &s
        )
        .is_allowed());
    }

    #[test]
    fn controllers_are_authorized_by_their_bootstrap_roles() {
        let s = store(vec![]);
        let rs = UserInfo::new(
            "system:serviceaccount:kube-system:replicaset-controller",
            &[],
        );
        let a = Attributes::resource(&rs, "create", "", "pods", "", "default", "");
        assert_eq!(
            authorize(&a, &s).reason(),
            "RBAC: allowed by ClusterRoleBinding \"system:controller:replicaset-controller\" of ClusterRole \"system:controller:replicaset-controller\" to ServiceAccount \"replicaset-controller/kube-system\""
        );
        let sched = UserInfo::new("system:kube-scheduler", &["system:authenticated"]);
        let bind =
            Attributes::resource(&sched, "create", "", "pods", "binding", "default", "web-1");
        assert!(authorize(&bind, &s).is_allowed());
        let lease = Attributes::resource(
            &sched,
            "update",
            "coordination.k8s.io",
            "leases",
            "",
            "kube-system",
            "kube-scheduler",
        );
        assert!(authorize(&lease, &s).is_allowed());
        let other_lease = Attributes::resource(
            &sched,
            "update",
            "coordination.k8s.io",
            "leases",
            "",
            "kube-system",
            "x",
        );
        assert!(!authorize(&other_lease, &s).is_allowed());
        let proxy = UserInfo::new("system:kube-proxy", &[]);
        let slices = Attributes::resource(
            &proxy,
            "watch",
            "discovery.k8s.io",
            "endpointslices",
            "",
            "",
            "",
        );
        assert!(authorize(&slices, &s).is_allowed());
    }

    #[test]
    fn resource_names_limit_a_rule() {
        let s = store(vec![
            role(
                "default",
                "one-cm",
                json!([{"apiGroups": [""], "resources": ["configmaps"], "resourceNames": ["app-config"], "verbs": ["get", "update"]}]),
            ),
            role_binding(
                "default",
                "b",
                "Role",
                "one-cm",
                json!([{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "dev"}]),
            ),
        ]);
        let u = dev();
        let ok = Attributes::resource(&u, "get", "", "configmaps", "", "default", "app-config");
        assert!(authorize(&ok, &s).is_allowed());
        let other = Attributes::resource(&u, "get", "", "configmaps", "", "default", "other");
        assert!(!authorize(&other, &s).is_allowed());
        let list = Attributes::resource(&u, "list", "", "configmaps", "", "default", "");
        assert!(!authorize(&list, &s).is_allowed());
    }

    #[test]
    fn wildcards_and_subresources() {
        let s = store(vec![
            role(
                "default",
                "all-apps",
                json!([{"apiGroups": ["apps"], "resources": ["*"], "verbs": ["*"]},
                                               {"apiGroups": [""], "resources": ["*/status"], "verbs": ["get"]}]),
            ),
            role_binding(
                "default",
                "b",
                "Role",
                "all-apps",
                json!([{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "dev"}]),
            ),
        ]);
        let u = dev();
        let a = Attributes::resource(
            &u,
            "deletecollection",
            "apps",
            "replicasets",
            "",
            "default",
            "",
        );
        assert!(authorize(&a, &s).is_allowed());
        let scale = Attributes::resource(
            &u,
            "update",
            "apps",
            "deployments",
            "scale",
            "default",
            "web",
        );
        assert!(authorize(&scale, &s).is_allowed(), "* covers subresources");
        let status = Attributes::resource(&u, "get", "", "pods", "status", "default", "p");
        assert!(authorize(&status, &s).is_allowed(), "*/status");
        let pod = Attributes::resource(&u, "get", "", "pods", "", "default", "p");
        assert!(!authorize(&pod, &s).is_allowed());
        let log = Attributes::resource(&u, "get", "", "pods", "log", "default", "p");
        let e = forbidden_error(&log, authorize(&log, &s).reason());
        assert_eq!(
            e.message,
            "pods \"p\" is forbidden: User \"dev\" cannot get resource \"pods/log\" in API group \"\" in the namespace \"default\""
        );
    }

    #[test]
    fn cluster_scope_and_non_resource_texts() {
        let s = store(vec![]);
        let u = dev();
        let nodes = Attributes::resource(&u, "list", "", "nodes", "", "", "");
        assert_eq!(
            forbidden_error(&nodes, authorize(&nodes, &s).reason()).message,
            "nodes is forbidden: User \"dev\" cannot list resource \"nodes\" in API group \"\" at the cluster scope"
        );
        let health = Attributes::non_resource(&u, "get", "/healthz");
        assert!(
            authorize(&health, &s).is_allowed(),
            "system:public-info-viewer"
        );
        let api = Attributes::non_resource(&u, "get", "/apis/apps/v1");
        assert!(
            authorize(&api, &s).is_allowed(),
            "system:discovery with trailing *"
        );
        let metrics = Attributes::non_resource(&u, "get", "/metrics");
        let e = forbidden_error(&metrics, authorize(&metrics, &s).reason());
        assert_eq!(
            e.message,
            "forbidden: User \"dev\" cannot get path \"/metrics\""
        );
        assert_eq!(e.to_status()["details"], json!({}));
        let anon = UserInfo::new("system:anonymous", &["system:unauthenticated"]);
        let version = Attributes::non_resource(&anon, "get", "/version");
        assert!(authorize(&version, &s).is_allowed());
        let apis = Attributes::non_resource(&anon, "get", "/apis");
        assert!(
            !authorize(&apis, &s).is_allowed(),
            "discovery is for authenticated users"
        );
    }

    #[test]
    fn aggregation_picks_up_new_roles_by_label() {
        let s = store(vec![
            json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
                   "metadata": {"name": "widgets-view", "labels": {"rbac.authorization.k8s.io/aggregate-to-view": "true"}},
                   "rules": [{"apiGroups": ["example.com"], "resources": ["widgets"], "verbs": ["get"]}]}),
            role_binding(
                "default",
                "b",
                "ClusterRole",
                "admin",
                json!([{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "dev"}]),
            ),
        ]);
        let u = dev();
        let a = Attributes::resource(&u, "get", "example.com", "widgets", "", "default", "w");
        assert!(authorize(&a, &s).is_allowed(), "view -> edit -> admin");
        let rb = Attributes::resource(
            &u,
            "create",
            "rbac.authorization.k8s.io",
            "rolebindings",
            "",
            "default",
            "",
        );
        assert!(authorize(&rb, &s).is_allowed());
    }

    fn pod(ns: &str, name: &str, node: &str, spec_extra: Value) -> Object {
        let mut spec = json!({"nodeName": node, "serviceAccountName": "default",
                              "containers": [{"name": "c", "image": "nginx"}]});
        for (k, v) in spec_extra.as_object().unwrap() {
            spec[k] = v.clone();
        }
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": ns}, "spec": spec})
    }

    #[test]
    fn node_authorizer_limits_kubelets_to_their_node() {
        let s = store(vec![
            pod(
                "default",
                "web-1",
                "node-1",
                json!({"volumes": [{"name": "cfg", "configMap": {"name": "web-config"}}],
                "containers": [{"name": "c", "image": "nginx", "env": [{"name": "P", "valueFrom": {"secretKeyRef": {"name": "db-pass", "key": "p"}}}]}]}),
            ),
            pod(
                "default",
                "web-2",
                "node-2",
                json!({"volumes": [{"name": "s", "secret": {"secretName": "other"}}]}),
            ),
        ]);
        let k = UserInfo::new(
            "system:node:node-1",
            &["system:nodes", "system:authenticated"],
        );
        let allowed = |verb: &'static str,
                       group: &'static str,
                       res: &'static str,
                       sub: &'static str,
                       ns: &'static str,
                       name: &'static str| {
            authorize(
                &Attributes::resource(&k, verb, group, res, sub, ns, name),
                &s,
            )
            .is_allowed()
        };
        assert!(allowed("get", "", "nodes", "", "", "node-1"));
        assert!(allowed("patch", "", "nodes", "status", "", "node-1"));
        assert!(allowed("create", "", "nodes", "", "", ""));
        assert!(allowed("update", "", "pods", "status", "default", "web-1"));
        assert!(allowed("get", "", "pods", "", "default", "web-1"));
        assert!(!allowed("get", "", "pods", "", "default", "web-2"));
        assert!(allowed("watch", "", "services", "", "", ""));
        assert!(allowed("get", "", "endpoints", "", "default", "kubernetes"));
        assert!(allowed("create", "", "events", "", "default", ""));
        assert!(allowed(
            "get",
            "",
            "configmaps",
            "",
            "default",
            "web-config"
        ));
        assert!(allowed("watch", "", "secrets", "", "default", "db-pass"));
        assert!(!allowed("get", "", "secrets", "", "default", "other"));
        assert!(allowed(
            "create",
            "coordination.k8s.io",
            "leases",
            "",
            "kube-node-lease",
            ""
        ));
        assert!(allowed(
            "update",
            "coordination.k8s.io",
            "leases",
            "",
            "kube-node-lease",
            "node-1"
        ));
        assert!(!allowed(
            "update",
            "coordination.k8s.io",
            "leases",
            "",
            "kube-node-lease",
            "node-2"
        ));
        assert!(!allowed(
            "delete",
            "apps",
            "deployments",
            "",
            "default",
            "web"
        ));

        let watch = Attributes::resource(&k, "watch", "", "pods", "", "", "");
        assert!(authorize_request(&watch, Some("spec.nodeName=node-1"), None, &s).is_allowed());
        assert!(!authorize_request(&watch, Some("spec.nodeName=node-2"), None, &s).is_allowed());
        assert!(
            authorize(&watch, &s).is_allowed(),
            "selector unknown: assumed"
        );
        let d = authorize_request(&watch, None, None, &s);
        assert_eq!(
            forbidden_error(&watch, d.reason()).message,
            "pods is forbidden: User \"system:node:node-1\" cannot watch resource \"pods\" in API group \"\" at the cluster scope: can only list/watch pods with spec.nodeName field selector"
        );
        let all_nodes = Attributes::resource(&k, "list", "", "nodes", "", "", "");
        assert_eq!(
            authorize_request(&all_nodes, None, None, &s).reason(),
            "node 'node-1' cannot read all nodes, only its own Node object"
        );
        assert!(authorize_request(&all_nodes, Some("metadata.name=node-1"), None, &s).is_allowed());
        assert_eq!(
            authorize_request(&all_nodes, Some("metadata.name=node-2"), None, &s).reason(),
            "node 'node-1' cannot read 'node-2', only its own Node object"
        );
        let watch_cm = Attributes::resource(&k, "watch", "", "configmaps", "", "default", "");
        assert!(
            authorize_request(&watch_cm, Some("metadata.name=web-config"), None, &s).is_allowed()
        );
        assert_eq!(
            authorize_request(&watch_cm, None, None, &s).reason(),
            "No Object name found"
        );
        let secret = Attributes::resource(&k, "get", "", "secrets", "", "default", "other");
        assert_eq!(
            forbidden_error(&secret, authorize(&secret, &s).reason()).message,
            "secrets \"other\" is forbidden: User \"system:node:node-1\" cannot get resource \"secrets\" in API group \"\" in the namespace \"default\": no relationship found between node 'node-1' and this object"
        );
        // Not in system:nodes: just a user with a suggestive name.
        let fake = UserInfo::new("system:node:node-1", &[]);
        let a = Attributes::resource(&fake, "get", "", "nodes", "", "", "node-1");
        assert!(!authorize(&a, &s).is_allowed());
    }

    #[test]
    fn policy_snapshot_gives_the_same_answers() {
        let s = store(vec![role_binding(
            "team-a",
            "dev-view",
            "ClusterRole",
            "view",
            json!([{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "dev"}]),
        )]);
        let snap = PolicySnapshot::load(&s);
        let u = dev();
        for (verb, ns) in [
            ("list", "team-a"),
            ("create", "team-a"),
            ("list", "default"),
        ] {
            let a = Attributes::resource(&u, verb, "", "pods", "", ns, "");
            assert_eq!(
                authorize_request(&a, None, Some(&snap), &s),
                authorize(&a, &s)
            );
        }
        assert_eq!(
            snap.cluster_role_rules("view").unwrap().len(),
            snap.cluster_role_rules("system:aggregate-to-view")
                .unwrap()
                .len()
        );
    }

    #[test]
    fn cached_authorizer_sees_policy_writes_after_invalidation() {
        let mut s = store(vec![]);
        let mut authz = Authorizer::new();
        let u = dev();
        let a = Attributes::resource(&u, "list", "", "pods", "", "default", "");
        assert!(!authz.authorize(&a, None, &s).is_allowed());
        s.0.push(role_binding(
            "default",
            "dev-view",
            "ClusterRole",
            "view",
            json!([{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "dev"}]),
        ));
        assert!(!authz.authorize(&a, None, &s).is_allowed(), "still cached");
        authz.observe_write(for_kind("rbac.authorization.k8s.io/v1", "RoleBinding").unwrap());
        assert!(authz.authorize(&a, None, &s).is_allowed());
    }

    #[test]
    fn forbidden_message_is_html_escaped() {
        let u = UserInfo::new("<script>", &[]);
        let a = Attributes::resource(&u, "get", "", "pods", "", "default", "");
        assert_eq!(
            forbidden_error(&a, "").message,
            "pods is forbidden: User \"&lt;script&gt;\" cannot get resource \"pods\" in API group \"\" in the namespace \"default\""
        );
    }
}
