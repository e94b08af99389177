//! RBAC objects (`pkg/apis/rbac/validation/validation.go`).

use super::meta::{validate_label_selector, Selector};
use super::names::{self, NameRule};
use super::*;
use crate::json;

const GROUP: &str = "rbac.authorization.k8s.io";

/// `ValidateRole` / `ValidateClusterRole`.
pub(super) fn validate_role(role: &Value, namespaced: bool) -> Errs {
    let mut errs = meta::validate_object_meta(role, namespaced, NameRule::PathSegment);
    for (i, rule) in arr(role, "rules").iter().enumerate() {
        errs.extend(policy_rule(rule, namespaced, &Path::new("rules").index(i)));
    }
    if !namespaced {
        let agg = field(role, "aggregationRule");
        if !agg.is_null() {
            let sp = Path::new("aggregationRule").child("clusterRoleSelectors");
            let selectors = arr(agg, "clusterRoleSelectors");
            if selectors.is_empty() {
                errs.push(required(
                    &sp,
                    "at least one clusterRoleSelector required if aggregationRule is non-nil",
                ));
            }
            for (i, s) in selectors.iter().enumerate() {
                errs.extend(validate_label_selector(s, &sp.index(i)));
                if Selector::from(s).is_err() {
                    errs.push(invalid(&sp.index(i), s.clone(), "invalid label selector."));
                }
            }
        }
    }
    errs
}

/// `ValidatePolicyRule`.
fn policy_rule(rule: &Value, namespaced: bool, p: &Path) -> Errs {
    let mut errs = vec![];
    if arr(rule, "verbs").is_empty() {
        errs.push(required(
            &p.child("verbs"),
            "verbs must contain at least one value",
        ));
    }
    let urls = arr(rule, "nonResourceURLs");
    if !urls.is_empty() {
        let value = Value::Array(urls.to_vec());
        if namespaced {
            errs.push(invalid(
                &p.child("nonResourceURLs"),
                value.clone(),
                "namespaced rules cannot apply to non-resource URLs",
            ));
        }
        if !arr(rule, "apiGroups").is_empty()
            || !arr(rule, "resources").is_empty()
            || !arr(rule, "resourceNames").is_empty()
        {
            errs.push(invalid(
                &p.child("nonResourceURLs"),
                value,
                "rules cannot apply to both regular resources and non-resource URLs",
            ));
        }
        return errs;
    }
    if arr(rule, "apiGroups").is_empty() {
        errs.push(required(
            &p.child("apiGroups"),
            "resource rules must supply at least one api group",
        ));
    }
    if arr(rule, "resources").is_empty() {
        errs.push(required(
            &p.child("resources"),
            "resource rules must supply at least one resource",
        ));
    }
    errs
}

/// `ValidateRoleBinding` / `ValidateClusterRoleBinding`.
pub(super) fn validate_role_binding(rb: &Value, namespaced: bool) -> Errs {
    let mut errs = meta::validate_object_meta(rb, namespaced, NameRule::PathSegment);
    let role_ref = field(rb, "roleRef");
    let rp = Path::new("roleRef");
    let api_group = str_at(role_ref, "apiGroup");
    if api_group != GROUP {
        errs.push(not_supported(
            &rp.child("apiGroup"),
            json!(api_group),
            &[GROUP],
        ));
    }
    let kind = str_at(role_ref, "kind");
    let kinds: &[&str] = if namespaced {
        &["Role", "ClusterRole"]
    } else {
        &["ClusterRole"]
    };
    if !kinds.contains(&kind) {
        errs.push(not_supported(&rp.child("kind"), json!(kind), kinds));
    }
    let name = str_at(role_ref, "name");
    if name.is_empty() {
        errs.push(required(&rp.child("name"), ""));
    } else {
        for m in names::path_segment_name(name) {
            errs.push(invalid(&rp.child("name"), json!(name), &m));
        }
    }
    for (i, s) in arr(rb, "subjects").iter().enumerate() {
        errs.extend(subject(s, namespaced, &Path::new("subjects").index(i)));
    }
    errs
}

/// `ValidateRoleBindingSubject`.
fn subject(s: &Value, namespaced: bool, p: &Path) -> Errs {
    let mut errs = vec![];
    let name = str_at(s, "name");
    if name.is_empty() {
        errs.push(required(&p.child("name"), ""));
    }
    let api_group = str_at(s, "apiGroup");
    match str_at(s, "kind") {
        "ServiceAccount" => {
            if !name.is_empty() {
                for m in names::dns1123_subdomain(name) {
                    errs.push(invalid(&p.child("name"), json!(name), &m));
                }
            }
            if !api_group.is_empty() {
                errs.push(not_supported(&p.child("apiGroup"), json!(api_group), &[""]));
            }
            if !namespaced && str_at(s, "namespace").is_empty() {
                errs.push(required(&p.child("namespace"), ""));
            }
        }
        "User" | "Group" => {
            if api_group != GROUP {
                errs.push(not_supported(
                    &p.child("apiGroup"),
                    json!(api_group),
                    &[GROUP],
                ));
            }
        }
        other => errs.push(not_supported(
            &p.child("kind"),
            json!(other),
            &["ServiceAccount", "User", "Group"],
        )),
    }
    errs
}

/// `ValidateRoleBindingUpdate`: the role reference may not change.
pub(super) fn validate_role_binding_update(new: &Value, old: &Value, namespaced: bool) -> Errs {
    let mut errs = validate_role_binding(new, namespaced);
    errs.extend(meta::validate_object_meta_update(new, old));
    let (nr, or) = (field(new, "roleRef"), field(old, "roleRef"));
    if !semantic_eq(nr, or) {
        // Go renders the internal rbac.RoleRef, which has no JSON tags.
        errs.push(invalid(
            &Path::new("roleRef"),
            json!({"APIGroup": str_at(nr, "apiGroup"), "Kind": str_at(nr, "kind"), "Name": str_at(nr, "name")}),
            "cannot change roleRef",
        ));
    }
    errs
}
