//! What a client sends to kube-apiserver.

use crate::api::{Object, ResourceInfo};

/// The HTTP-level verb of a request, as RBAC names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    Get,
    List,
    Watch,
    Create,
    Update,
    Patch(PatchType),
    Delete,
}

/// How a PATCH body is interpreted (its Content-Type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchType {
    /// `application/merge-patch+json` (RFC 7386).
    Merge,
    /// `application/strategic-merge-patch+json`: lists with merge keys merge by key.
    Strategic,
    /// `application/json-patch+json` (RFC 6902).
    Json,
}

impl Verb {
    /// The RBAC verb.
    pub fn rbac(self) -> &'static str {
        match self {
            Verb::Get => "get",
            Verb::List => "list",
            Verb::Watch => "watch",
            Verb::Create => "create",
            Verb::Update => "update",
            Verb::Patch(_) => "patch",
            Verb::Delete => "delete",
        }
    }

    /// The HTTP method.
    pub fn method(self) -> &'static str {
        match self {
            Verb::Get | Verb::List | Verb::Watch => "GET",
            Verb::Create => "POST",
            Verb::Update => "PUT",
            Verb::Patch(_) => "PATCH",
            Verb::Delete => "DELETE",
        }
    }
}

/// What proves who the client is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Credentials {
    /// An x509 client certificate: CN is the user, O the groups (kubeconfig users, components).
    ClientCertificate {
        common_name: String,
        organizations: Vec<String>,
    },
    /// A service account's projected token, naming `namespace/name`.
    ServiceAccountToken { namespace: String, name: String },
    /// Nothing at all: the request is anonymous.
    None,
}

/// `propagationPolicy` of a delete.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Propagation {
    #[default]
    Background,
    Foreground,
    Orphan,
}

impl Propagation {
    pub fn as_str(self) -> &'static str {
        match self {
            Propagation::Background => "Background",
            Propagation::Foreground => "Foreground",
            Propagation::Orphan => "Orphan",
        }
    }
}

/// One API request.
#[derive(Clone, Debug)]
pub struct Request {
    pub verb: Verb,
    pub resource: &'static ResourceInfo,
    /// `status`, `scale`, `binding`, `eviction`.
    pub subresource: Option<String>,
    pub namespace: Option<String>,
    pub name: Option<String>,
    pub body: Option<Object>,
    pub label_selector: Option<String>,
    pub field_selector: Option<String>,
    /// For watch: start after this resourceVersion.
    pub resource_version: Option<String>,
    pub grace_period_seconds: Option<i64>,
    pub propagation: Propagation,
    pub dry_run: bool,
    pub credentials: Credentials,
    /// `Impersonate-User` (kubectl `--as`).
    pub impersonate_user: Option<String>,
    pub impersonate_groups: Vec<String>,
    /// Who sends it, for the trace: `kubectl`, `deployment-controller`, `kubelet/node-1`.
    pub client: String,
    /// `fieldManager` for the managedFields owner (kubectl's is `kubectl-client-side-apply`).
    pub field_manager: Option<String>,
    /// `fieldValidation`: what unknown fields in the body do (kubectl sends `Strict`).
    pub field_validation: super::validation::FieldValidation,
    /// An informer's list: the items are handed over shared with the watch cache
    /// ([`super::ApiServer::take_list_items`]) instead of copied into the response.
    pub share_items: bool,
}

impl Request {
    pub fn new(
        verb: Verb,
        resource: &'static ResourceInfo,
        credentials: Credentials,
        client: &str,
    ) -> Self {
        Request {
            verb,
            resource,
            subresource: None,
            namespace: None,
            name: None,
            body: None,
            label_selector: None,
            field_selector: None,
            resource_version: None,
            grace_period_seconds: None,
            propagation: Propagation::Background,
            dry_run: false,
            credentials,
            impersonate_user: None,
            impersonate_groups: Vec::new(),
            client: client.to_string(),
            field_manager: None,
            field_validation: Default::default(),
            share_items: false,
        }
    }
    pub fn namespace(mut self, ns: Option<&str>) -> Self {
        self.namespace = if self.resource.namespaced {
            ns.map(str::to_string)
        } else {
            None
        };
        self
    }
    pub fn name(mut self, name: &str) -> Self {
        self.name = Some(name.to_string());
        self
    }
    pub fn body(mut self, body: Object) -> Self {
        self.body = Some(body);
        self
    }
    pub fn subresource(mut self, sub: &str) -> Self {
        self.subresource = Some(sub.to_string());
        self
    }
    pub fn labels(mut self, selector: Option<&str>) -> Self {
        self.label_selector = selector.map(str::to_string);
        self
    }

    /// `POST /apis/apps/v1/namespaces/default/deployments`, as the flow diagram labels the arrow.
    pub fn line(&self) -> String {
        let name = match self.verb {
            Verb::Create if self.subresource.is_none() => None,
            _ => self.name.as_deref(),
        };
        let mut path = self.resource.path(self.namespace.as_deref(), name);
        if let Some(sub) = &self.subresource {
            path.push('/');
            path.push_str(sub);
        }
        let mut query = Vec::new();
        if let Some(l) = &self.label_selector {
            query.push(format!("labelSelector={l}"));
        }
        if self.verb == Verb::Watch {
            query.push("watch=true".to_string());
            if let Some(rv) = &self.resource_version {
                query.push(format!("resourceVersion={rv}"));
            }
        }
        if query.is_empty() {
            format!("{} {path}", self.verb.method())
        } else {
            format!("{} {path}?{}", self.verb.method(), query.join("&"))
        }
    }
}
