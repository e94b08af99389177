//! Status and conditions (`progress.go`, `sync.go` `calculateStatus`, `syncRolloutStatus`):
//! `Available` from the minimum availability, `Progressing` from what the rollout did.

use super::{max_unavailable, DeploymentController, Retry};
use crate::api::{meta, Object};
use crate::apiserver::Verb;
use crate::cluster::component::Ctx;
use crate::controllers::podutil::{replicas, status_i64};
use crate::kernel::time::rfc3339;
use serde_json::{json, Value};

pub fn condition<'a>(status: &'a Value, ty: &str) -> Option<&'a Value> {
    status
        .get("conditions")?
        .as_array()?
        .iter()
        .find(|c| c["type"] == ty)
}

/// `SetDeploymentCondition`: nothing changes when status and reason are the same; otherwise the
/// old condition of that type is replaced (keeping its transition time if the status is equal)
/// and the new one goes last.
pub fn set_condition(
    status: &mut Value,
    ty: &str,
    st: &str,
    reason: &str,
    message: &str,
    now: &str,
) {
    let mut cond = json!({"type": ty, "status": st, "lastUpdateTime": now,
        "lastTransitionTime": now, "reason": reason, "message": message});
    if let Some(cur) = condition(status, ty) {
        if cur["status"] == st && cur["reason"] == reason {
            return;
        }
        if cur["status"] == st {
            cond["lastTransitionTime"] = cur["lastTransitionTime"].clone();
        }
    }
    replace_condition(status, ty, cond);
}

fn replace_condition(status: &mut Value, ty: &str, cond: Value) {
    let mut list: Vec<Value> = status
        .get("conditions")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter(|c| c["type"] != ty).cloned().collect())
        .unwrap_or_default();
    list.push(cond);
    status["conditions"] = Value::Array(list);
}

/// `calculateStatus`.
pub fn calculate_status(d: &Object, all: &[Object], new: Option<&Object>, now: &str) -> Value {
    let sum = |f: &str| all.iter().map(|rs| status_i64(rs, f)).sum::<i64>();
    let available = sum("availableReplicas");
    let total = sum("replicas");
    let ready = sum("readyReplicas");
    let updated = new.map(|n| status_i64(n, "replicas")).unwrap_or(0);
    let unavailable = (replicas(d) - available).max(0);
    let mut status = d.get("status").cloned().unwrap_or(json!({}));
    if !status.is_object() {
        status = json!({});
    }
    if let Some(g) = d.pointer("/metadata/generation") {
        status["observedGeneration"] = g.clone();
    }
    for (f, v) in [
        ("replicas", total),
        ("updatedReplicas", updated),
        ("readyReplicas", ready),
        ("availableReplicas", available),
        ("unavailableReplicas", unavailable),
    ] {
        if v != 0 {
            status[f] = json!(v);
        } else if let Some(m) = status.as_object_mut() {
            m.remove(f);
        }
    }
    if available >= replicas(d) - max_unavailable(d) {
        set_condition(
            &mut status,
            "Available",
            "True",
            "MinimumReplicasAvailable",
            "Deployment has minimum availability.",
            now,
        );
    } else {
        set_condition(
            &mut status,
            "Available",
            "False",
            "MinimumReplicasUnavailable",
            "Deployment does not have minimum availability.",
            now,
        );
    }
    status
}

fn int(s: &Value, f: &str) -> i64 {
    s.get(f).and_then(Value::as_i64).unwrap_or(0)
}

/// `DeploymentComplete`.
pub fn complete(d: &Object, status: &Value) -> bool {
    let r = replicas(d);
    int(status, "updatedReplicas") == r
        && int(status, "replicas") == r
        && int(status, "availableReplicas") == r
        && int(status, "observedGeneration")
            >= d.pointer("/metadata/generation")
                .and_then(Value::as_i64)
                .unwrap_or(0)
}

/// `DeploymentProgressing`: more updated, ready or available pods, or fewer old ones.
fn progressing(old: &Value, new: &Value) -> bool {
    let old_old = int(old, "replicas") - int(old, "updatedReplicas");
    let new_old = int(new, "replicas") - int(new, "updatedReplicas");
    int(new, "updatedReplicas") > int(old, "updatedReplicas")
        || new_old < old_old
        || int(new, "readyReplicas") > int(old, "readyReplicas")
        || int(new, "availableReplicas") > int(old, "availableReplicas")
}

fn write_status(ctx: &mut Ctx<'_>, d: &Object, status: Value) -> Result<(), Retry> {
    if d.get("status") == Some(&status) {
        return Ok(());
    }
    let mut body = d.clone();
    body["status"] = status;
    let req = ctx
        .request(Verb::Update, super::deploy_info())
        .namespace(meta::namespace(d))
        .name(meta::name(d))
        .subresource("status")
        .body(body);
    match ctx.send(&req) {
        Ok(_) => Ok(()),
        Err(e) if e.code == 404 => Ok(()),
        Err(_) => Err(Retry),
    }
}

/// `syncDeploymentStatus`: status without touching Progressing (scaling, paused).
pub fn sync_deployment_status(
    _dc: &mut DeploymentController,
    ctx: &mut Ctx<'_>,
    d: Object,
    all: &[Object],
    new: Option<&Object>,
) -> Result<(), Retry> {
    let now = rfc3339(ctx.now());
    let status = calculate_status(&d, all, new, &now);
    write_status(ctx, &d, status)
}

/// `syncRolloutStatus`: status plus the Progressing condition.
pub fn sync_rollout_status(
    _dc: &mut DeploymentController,
    ctx: &mut Ctx<'_>,
    d: Object,
    all: &[Object],
    new: Option<&Object>,
) -> Result<(), Retry> {
    let now = rfc3339(ctx.now());
    let mut status = calculate_status(&d, all, new, &now);
    let paused = d.pointer("/spec/paused").and_then(Value::as_bool) == Some(true);
    let old_status = d.get("status").cloned().unwrap_or(json!({}));
    if !paused {
        let rs_name = new.map(meta::name).unwrap_or("");
        if complete(&d, &status) {
            set_condition(
                &mut status,
                "Progressing",
                "True",
                "NewReplicaSetAvailable",
                &format!("ReplicaSet \"{rs_name}\" has successfully progressed."),
                &now,
            );
        } else if progressing(&old_status, &status) {
            let msg = match new {
                Some(_) => format!("ReplicaSet \"{rs_name}\" is progressing."),
                None => format!("Deployment \"{}\" is progressing.", meta::name(&d)),
            };
            let mut cond = json!({"type": "Progressing", "status": "True", "lastUpdateTime": now,
                "lastTransitionTime": now, "reason": "ReplicaSetUpdated", "message": msg});
            if let Some(cur) = condition(&status, "Progressing") {
                if cur["status"] == "True" {
                    cond["lastTransitionTime"] = cur["lastTransitionTime"].clone();
                }
            }
            replace_condition(&mut status, "Progressing", cond);
        }
    }
    write_status(ctx, &d, status)
}

/// `checkPausedConditions`: Progressing Unknown while paused, and again when resumed.
pub fn check_paused_conditions(
    _dc: &mut DeploymentController,
    ctx: &mut Ctx<'_>,
    d: Object,
    paused: bool,
) -> Result<Object, Retry> {
    let status = d.get("status").cloned().unwrap_or(json!({}));
    let cond = condition(&status, "Progressing");
    let reason = cond.and_then(|c| c["reason"].as_str()).unwrap_or("");
    let now = rfc3339(ctx.now());
    let mut new_status = status.clone();
    if paused && cond.is_some() && reason != "DeploymentPaused" {
        set_condition(
            &mut new_status,
            "Progressing",
            "Unknown",
            "DeploymentPaused",
            "Deployment is paused",
            &now,
        );
    } else if !paused && reason == "DeploymentPaused" {
        set_condition(
            &mut new_status,
            "Progressing",
            "Unknown",
            "DeploymentResumed",
            "Deployment is resumed",
            &now,
        );
    } else {
        return Ok(d);
    }
    let mut body = d.clone();
    body["status"] = new_status;
    let req = ctx
        .request(Verb::Update, super::deploy_info())
        .namespace(meta::namespace(&d))
        .name(meta::name(&d))
        .subresource("status")
        .body(body);
    ctx.send(&req).map_err(|_| Retry)
}
