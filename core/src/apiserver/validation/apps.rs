//! Workloads of apps/v1 (`pkg/apis/apps/validation/validation.go`) and ReplicationController.

use super::meta::{validate_annotations, validate_label_selector, validate_labels, Selector};
use super::names::{self, NameRule};
use super::pod::validate_pod_template_spec;
use super::*;
use crate::json;

pub(super) fn validate_deployment(obj: &Value) -> Errs {
    let mut errs = meta::validate_object_meta(obj, true, NameRule::Subdomain);
    errs.extend(deployment_spec(field(obj, "spec"), &Path::new("spec")));
    errs
}

pub(super) fn validate_deployment_update(new: &Value, old: &Value) -> Errs {
    let mut errs = meta::validate_object_meta_update(new, old);
    errs.extend(deployment_spec(field(new, "spec"), &Path::new("spec")));
    errs
}

pub(super) fn validate_replica_set(obj: &Value) -> Errs {
    let mut errs = meta::validate_object_meta(obj, true, NameRule::Subdomain);
    errs.extend(replica_set_spec(field(obj, "spec"), &Path::new("spec")));
    errs
}

pub(super) fn validate_replica_set_update(new: &Value, old: &Value) -> Errs {
    let mut errs = meta::validate_object_meta_update(new, old);
    errs.extend(replica_set_spec(field(new, "spec"), &Path::new("spec")));
    errs
}

/// The required selector of Deployments and ReplicaSets (`spec.selector`).
fn required_selector(spec: &Value, p: &Path, what: &str) -> Errs {
    let sel = field(spec, "selector");
    let sp = p.child("selector");
    if sel.is_null() {
        return vec![required(&sp, "")];
    }
    let mut errs = validate_label_selector(sel, &sp);
    if string_map(sel, "matchLabels").is_empty() && arr(sel, "matchExpressions").is_empty() {
        errs.push(invalid(
            &sp,
            sel.clone(),
            &format!("empty selector is invalid for {what}"),
        ));
    }
    errs
}

/// `ValidatePodTemplateSpecForReplicaSet` after `LabelSelectorAsSelector`.
fn template_for_selector(spec: &Value, p: &Path, owner: &str) -> Errs {
    let sel = field(spec, "selector");
    let selector = match Selector::from(sel) {
        Ok(s) => s,
        Err(()) => {
            return vec![invalid(
                &p.child("selector"),
                sel.clone(),
                "invalid label selector",
            )]
        }
    };
    let template = field(spec, "template");
    let tp = p.child("template");
    let mut errs = vec![];
    let labels = get(template, &["metadata", "labels"]);
    if !selector.is_empty() && !selector.matches(labels) {
        errs.push(invalid(
            &tp.child("metadata").child("labels"),
            labels.clone(),
            "`selector` does not match template `labels`",
        ));
    }
    errs.extend(validate_pod_template_spec(template, &tp));
    errs.extend(template_restart_always(template, &tp, owner));
    errs
}

fn template_restart_always(template: &Value, tp: &Path, owner: &str) -> Errs {
    let mut errs = vec![];
    let tspec = field(template, "spec");
    let rp = str_at(tspec, "restartPolicy");
    if rp != "Always" {
        errs.push(not_supported(
            &tp.child("spec").child("restartPolicy"),
            json!(rp),
            &["Always"],
        ));
    }
    if present(tspec, "activeDeadlineSeconds") {
        errs.push(forbidden(
            &tp.child("spec").child("activeDeadlineSeconds"),
            &format!("activeDeadlineSeconds in {owner} is not Supported"),
        ));
    }
    errs
}

/// `ValidateDeploymentSpec`.
fn deployment_spec(spec: &Value, p: &Path) -> Errs {
    let mut errs = nonnegative(int_at(spec, "replicas").unwrap_or(0), &p.child("replicas"));
    errs.extend(required_selector(spec, p, "deployment"));
    errs.extend(template_for_selector(spec, p, "ReplicaSet"));
    errs.extend(deployment_strategy(
        field(spec, "strategy"),
        &p.child("strategy"),
    ));
    let min_ready = int_at(spec, "minReadySeconds").unwrap_or(0);
    errs.extend(nonnegative(min_ready, &p.child("minReadySeconds")));
    if let Some(rhl) = int_at(spec, "revisionHistoryLimit") {
        errs.extend(nonnegative(rhl, &p.child("revisionHistoryLimit")));
    }
    if let Some(rev) = int_at(field(spec, "rollbackTo"), "revision") {
        errs.extend(nonnegative(rev, &p.child("rollback").child("version")));
    }
    if let Some(pds) = int_at(spec, "progressDeadlineSeconds") {
        let pp = p.child("progressDeadlineSeconds");
        errs.extend(nonnegative(pds, &pp));
        if pds <= min_ready {
            errs.push(invalid(
                &pp,
                json!(pds),
                "must be greater than minReadySeconds",
            ));
        }
    }
    errs
}

/// `ValidateDeploymentStrategy`. The bad strategy is shown as Go renders the internal struct.
fn deployment_strategy(s: &Value, p: &Path) -> Errs {
    let ru = field(s, "rollingUpdate");
    match str_at(s, "type") {
        "Recreate" => {
            if !ru.is_null() {
                return vec![forbidden(
                    &p.child("rollingUpdate"),
                    "may not be specified when strategy `type` is 'Recreate'",
                )];
            }
            vec![]
        }
        "RollingUpdate" => {
            let rp = p.child("rollingUpdate");
            if ru.is_null() {
                return vec![required(&rp, "this should be defaulted and never be nil")];
            }
            let (mu, ms) = (field(ru, "maxUnavailable"), field(ru, "maxSurge"));
            let mut errs = positive_int_or_percent(mu, &rp.child("maxUnavailable"));
            errs.extend(positive_int_or_percent(ms, &rp.child("maxSurge")));
            if int_or_percent_value(mu) == 0 && int_or_percent_value(ms) == 0 {
                errs.push(invalid(
                    &rp.child("maxUnavailable"),
                    mu.clone(),
                    "may not be 0 when `maxSurge` is 0",
                ));
            }
            errs.extend(not_more_than_100_percent(mu, &rp.child("maxUnavailable")));
            errs
        }
        _ => vec![not_supported(
            p,
            json!({"Type": str_at(s, "type"), "RollingUpdate": if ru.is_null() { Value::Null } else { ru.clone() }}),
            &["Recreate", "RollingUpdate"],
        )],
    }
}

/// `ValidatePositiveIntOrPercent`.
fn positive_int_or_percent(v: &Value, p: &Path) -> Errs {
    match v {
        Value::String(s) => names::percent(s)
            .into_iter()
            .map(|m| invalid(p, v.clone(), &m))
            .collect(),
        Value::Null => vec![],
        _ => nonnegative(v.as_i64().unwrap_or(0), p),
    }
}

fn percent_value(v: &Value) -> Option<i64> {
    let s = v.as_str()?;
    if !names::percent(s).is_empty() {
        return None;
    }
    s[..s.len() - 1].parse().ok()
}

/// `getIntOrPercentValue`: a string that is not a percentage reads as `Atoi` would.
fn int_or_percent_value(v: &Value) -> i64 {
    if let Some(p) = percent_value(v) {
        return p;
    }
    match v {
        Value::String(s) => s.parse().unwrap_or(0),
        _ => v.as_i64().unwrap_or(0),
    }
}

fn not_more_than_100_percent(v: &Value, p: &Path) -> Errs {
    match percent_value(v) {
        Some(n) if n > 100 => vec![invalid(p, v.clone(), "must not be greater than 100%")],
        _ => vec![],
    }
}

/// `ValidateReplicaSetSpec`.
fn replica_set_spec(spec: &Value, p: &Path) -> Errs {
    let mut errs = nonnegative(int_at(spec, "replicas").unwrap_or(0), &p.child("replicas"));
    errs.extend(nonnegative(
        int_at(spec, "minReadySeconds").unwrap_or(0),
        &p.child("minReadySeconds"),
    ));
    errs.extend(required_selector(spec, p, "deployment"));
    errs.extend(template_for_selector(spec, p, "ReplicaSet"));
    errs
}

pub(super) fn validate_stateful_set(obj: &Value) -> Errs {
    let mut errs = meta::validate_object_meta(obj, true, NameRule::Label);
    errs.extend(stateful_set_spec(field(obj, "spec"), &Path::new("spec")));
    errs
}

/// `ValidateStatefulSetUpdate`: besides replicas, ordinals, template, updateStrategy,
/// persistentVolumeClaimRetentionPolicy and minReadySeconds, the spec may not change.
pub(super) fn validate_stateful_set_update(new: &Value, old: &Value) -> Errs {
    let mut errs = meta::validate_object_meta_update(new, old);
    let p = Path::new("spec");
    errs.extend(stateful_set_spec(field(new, "spec"), &p));
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Some(m) = v.as_object_mut() {
            for k in [
                "replicas",
                "ordinals",
                "template",
                "updateStrategy",
                "persistentVolumeClaimRetentionPolicy",
                "minReadySeconds",
            ] {
                m.remove(k);
            }
        }
        v
    };
    if !semantic_eq(&strip(field(new, "spec")), &strip(field(old, "spec"))) {
        errs.push(forbidden(
            &p,
            "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
        ));
    }
    errs
}

/// `ValidateStatefulSetSpec`. As in 1.35, the pod template's spec is not validated here.
fn stateful_set_spec(spec: &Value, p: &Path) -> Errs {
    let mut errs = vec![];
    match str_at(spec, "podManagementPolicy") {
        "" => errs.push(required(&p.child("podManagementPolicy"), "")),
        "OrderedReady" | "Parallel" => {}
        other => errs.push(invalid(
            &p.child("podManagementPolicy"),
            json!(other),
            "must be 'OrderedReady' or 'Parallel'",
        )),
    }
    let us = field(spec, "updateStrategy");
    let up = p.child("updateStrategy");
    let ru = field(us, "rollingUpdate");
    match str_at(us, "type") {
        "" => errs.push(required(&up, "")),
        "OnDelete" => {
            if !ru.is_null() {
                errs.push(invalid(
                    &up.child("rollingUpdate"),
                    ru.clone(),
                    "only allowed for updateStrategy 'RollingUpdate'",
                ));
            }
        }
        "RollingUpdate" => {
            if !ru.is_null() {
                let rp = up.child("rollingUpdate");
                errs.extend(nonnegative(
                    int_at(ru, "partition").unwrap_or(0),
                    &rp.child("partition"),
                ));
                let mu = field(ru, "maxUnavailable");
                if !mu.is_null() {
                    let mp = rp.child("maxUnavailable");
                    errs.extend(positive_int_or_percent(mu, &mp));
                    if int_or_percent_value(mu) == 0 {
                        errs.push(invalid(&mp, mu.clone(), "cannot be 0"));
                    }
                    errs.extend(not_more_than_100_percent(mu, &mp));
                }
            }
        }
        _ => errs.push(invalid(
            &up,
            us.clone(),
            "must be 'RollingUpdate' or 'OnDelete'",
        )),
    }
    let policy = field(spec, "persistentVolumeClaimRetentionPolicy");
    if !policy.is_null() {
        let pp = p.child("persistentVolumeClaimRetentionPolicy");
        for key in ["whenDeleted", "whenScaled"] {
            let v = str_at(policy, key);
            if v != "Retain" && v != "Delete" {
                errs.push(not_supported(
                    &pp.child(key),
                    json!(v),
                    &["Retain", "Delete"],
                ));
            }
        }
    }
    errs.extend(nonnegative(
        int_at(spec, "replicas").unwrap_or(0),
        &p.child("replicas"),
    ));
    errs.extend(nonnegative(
        int_at(spec, "minReadySeconds").unwrap_or(0),
        &p.child("minReadySeconds"),
    ));
    if let Some(start) = int_at(field(spec, "ordinals"), "start") {
        errs.extend(nonnegative(start, &p.child("ordinals.start")));
    }
    let sel = field(spec, "selector");
    let sp = p.child("selector");
    if sel.is_null() {
        errs.push(required(&sp, ""));
    } else {
        errs.extend(validate_label_selector(sel, &sp));
        if string_map(sel, "matchLabels").is_empty() && arr(sel, "matchExpressions").is_empty() {
            errs.push(invalid(
                &sp,
                sel.clone(),
                "empty selector is invalid for statefulset",
            ));
        }
    }
    let template = field(spec, "template");
    let tp = p.child("template");
    match Selector::from(sel) {
        Err(()) => errs.push(invalid(&sp, sel.clone(), "")),
        Ok(selector) => {
            let meta = field(template, "metadata");
            let labels = field(meta, "labels");
            if !selector.is_empty() && !selector.matches(labels) {
                errs.push(invalid(
                    &tp.child("metadata").child("labels"),
                    labels.clone(),
                    "`selector` does not match template `labels`",
                ));
            }
            errs.extend(validate_labels(labels, &tp.child("labels")));
            errs.extend(validate_annotations(
                field(meta, "annotations"),
                &tp.child("annotations"),
            ));
        }
    }
    errs.extend(template_restart_always(template, &tp, "StatefulSet"));
    errs
}

pub(super) fn validate_daemon_set(obj: &Value) -> Errs {
    let mut errs = meta::validate_object_meta(obj, true, NameRule::Subdomain);
    errs.extend(daemon_set_spec(field(obj, "spec"), &Path::new("spec")));
    errs
}

pub(super) fn validate_daemon_set_update(new: &Value, old: &Value) -> Errs {
    let mut errs = meta::validate_object_meta_update(new, old);
    let p = Path::new("spec");
    let (ns, os) = (field(new, "spec"), field(old, "spec"));
    let (ng, og) = (
        int_at(ns, "templateGeneration").unwrap_or(0),
        int_at(os, "templateGeneration").unwrap_or(0),
    );
    let tg = p.child("templateGeneration");
    if ng < og {
        errs.push(invalid(&tg, json!(ng), "must not be decremented"));
    }
    let template_updated = !semantic_eq(field(ns, "template"), field(os, "template"));
    if present(ns, "templateGeneration") || present(os, "templateGeneration") {
        if ng == og && template_updated {
            errs.push(invalid(
                &tg,
                json!(ng),
                "must be incremented upon template update",
            ));
        } else if ng > og && !template_updated {
            errs.push(invalid(
                &tg,
                json!(ng),
                "must not be incremented without template update",
            ));
        }
    }
    errs.extend(daemon_set_spec(ns, &p));
    errs
}

/// `ValidateDaemonSetSpec`.
fn daemon_set_spec(spec: &Value, p: &Path) -> Errs {
    let sel = field(spec, "selector");
    let mut errs = validate_label_selector(sel, &p.child("selector"));
    let template = field(spec, "template");
    let tp = p.child("template");
    if let Ok(selector) = Selector::from(sel) {
        let labels = get(template, &["metadata", "labels"]);
        if !selector.matches(labels) {
            errs.push(invalid(
                &tp.child("metadata").child("labels"),
                labels.clone(),
                "`selector` does not match template `labels`",
            ));
        }
    }
    if !sel.is_null()
        && string_map(sel, "matchLabels").is_empty()
        && arr(sel, "matchExpressions").is_empty()
    {
        errs.push(invalid(
            &p.child("selector"),
            sel.clone(),
            "empty selector is invalid for daemonset",
        ));
    }
    errs.extend(validate_pod_template_spec(template, &tp));
    errs.extend(template_restart_always(template, &tp, "DaemonSet"));
    errs.extend(nonnegative(
        int_at(spec, "minReadySeconds").unwrap_or(0),
        &p.child("minReadySeconds"),
    ));
    errs.extend(nonnegative(
        int_at(spec, "templateGeneration").unwrap_or(0),
        &p.child("templateGeneration"),
    ));
    let us = field(spec, "updateStrategy");
    let up = p.child("updateStrategy");
    match str_at(us, "type") {
        "OnDelete" => {}
        "RollingUpdate" => {
            let ru = field(us, "rollingUpdate");
            let rp = up.child("rollingUpdate");
            if ru.is_null() {
                errs.push(required(&rp, ""));
            } else {
                let (mu, ms) = (field(ru, "maxUnavailable"), field(ru, "maxSurge"));
                errs.extend(positive_int_or_percent(mu, &rp.child("maxUnavailable")));
                errs.extend(positive_int_or_percent(ms, &rp.child("maxSurge")));
                errs.extend(not_more_than_100_percent(mu, &rp.child("maxUnavailable")));
                errs.extend(not_more_than_100_percent(ms, &rp.child("maxSurge")));
                let has_unavailable = int_or_percent_value(mu) != 0;
                let has_surge = int_or_percent_value(ms) != 0;
                if has_unavailable && has_surge {
                    errs.push(invalid(
                        &rp.child("maxSurge"),
                        ms.clone(),
                        "may not be set when maxUnavailable is non-zero",
                    ));
                } else if !has_unavailable && !has_surge {
                    errs.push(required(
                        &rp.child("maxUnavailable"),
                        "cannot be 0 when maxSurge is 0",
                    ));
                }
            }
        }
        _ => errs.push(not_supported(
            &up,
            json!({"Type": str_at(us, "type"), "RollingUpdate": field(us, "rollingUpdate").clone()}),
            &["RollingUpdate", "OnDelete"],
        )),
    }
    if let Some(rhl) = int_at(spec, "revisionHistoryLimit") {
        errs.extend(nonnegative(rhl, &p.child("revisionHistoryLimit")));
    }
    errs
}

/// `ValidateReplicationController`.
pub(super) fn validate_replication_controller(obj: &Value) -> Errs {
    let mut errs = meta::validate_object_meta(obj, true, NameRule::Subdomain);
    let spec = field(obj, "spec");
    let p = Path::new("spec");
    errs.extend(nonnegative(
        int_at(spec, "minReadySeconds").unwrap_or(0),
        &p.child("minReadySeconds"),
    ));
    let selector = string_map(spec, "selector");
    if selector.is_empty() {
        errs.push(required(&p.child("selector"), ""));
    }
    errs.extend(nonnegative(
        int_at(spec, "replicas").unwrap_or(0),
        &p.child("replicas"),
    ));
    let template = field(spec, "template");
    let tp = p.child("template");
    if template.is_null() {
        errs.push(required(&tp, ""));
        return errs;
    }
    let labels = get(template, &["metadata", "labels"]);
    if !selector.is_empty()
        && !selector
            .iter()
            .all(|(k, v)| labels.get(*k).and_then(Value::as_str) == Some(*v))
    {
        errs.push(invalid(
            &tp.child("metadata").child("labels"),
            labels.clone(),
            "`selector` does not match template `labels`",
        ));
    }
    errs.extend(validate_pod_template_spec(template, &tp));
    let tspec = field(template, "spec");
    let rp = str_at(tspec, "restartPolicy");
    if rp != "Always" {
        errs.push(not_supported(
            &tp.child("spec").child("restartPolicy"),
            json!(rp),
            &["Always"],
        ));
    }
    if present(tspec, "activeDeadlineSeconds") {
        errs.push(forbidden(
            &tp.child("spec").child("activeDeadlineSeconds"),
            "activeDeadlineSeconds in ReplicationController is not Supported",
        ));
    }
    errs
}
