//! Status and conditions (`progress.go`, `sync.go` `calculateStatus`, `syncRolloutStatus`):
//! `Available` from the minimum availability, `Progressing` from what the rollout did.

use super::{max_unavailable, DeploymentController, Retry};
use crate::api::value::{json, Value};
use crate::api::{meta, Object};
use crate::apiserver::Verb;
use crate::cluster::component::Ctx;
use crate::controllers::podutil::At;
use crate::controllers::podutil::{replicas, status_i64};
use crate::kernel::time::{parse_rfc3339, rfc3339};
use crate::kernel::Millis;

/// `NewRSAvailableReason`.
pub const NEW_RS_AVAILABLE: &str = "NewReplicaSetAvailable";
/// `TimedOutReason`.
pub const TIMED_OUT: &str = "ProgressDeadlineExceeded";

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
    if let Some(g) = d.at(&["metadata", "generation"]) {
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
            >= d.at(&["metadata", "generation"])
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
    match ctx.send_owned(req) {
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

/// `HasProgressDeadline`: `progressDeadlineSeconds` is set (the apiserver defaults it to 600)
/// and is not `MaxInt32`.
pub fn has_progress_deadline(d: &Object) -> bool {
    progress_deadline_seconds(d).is_some_and(|s| s != i32::MAX as i64)
}

fn progress_deadline_seconds(d: &Object) -> Option<i64> {
    d.at(&["spec", "progressDeadlineSeconds"])
        .and_then(Value::as_i64)
}

fn remove_condition(status: &mut Value, ty: &str) {
    if let Some(list) = status.get_mut("conditions").and_then(Value::as_array_mut) {
        list.retain(|c| c["type"] != ty);
        if list.is_empty() {
            if let Some(m) = status.as_object_mut() {
                m.remove("conditions");
            }
        }
    }
}

/// `DeploymentTimedOut`: no progress reported for longer than `progressDeadlineSeconds`.
fn timed_out(d: &Object, status: &Value, now: Millis) -> bool {
    if !has_progress_deadline(d) {
        return false;
    }
    let Some(cond) = condition(status, "Progressing") else {
        return false;
    };
    match cond["reason"].as_str() {
        Some(NEW_RS_AVAILABLE) => return false,
        Some(TIMED_OUT) => return true,
        _ => {}
    }
    let Some(from) = cond["lastUpdateTime"].as_str().and_then(parse_rfc3339) else {
        return false;
    };
    let deadline = progress_deadline_seconds(d).unwrap_or(0).max(0) as Millis * 1000;
    from + deadline < now
}

/// `getReplicaFailures`: the new ReplicaSet's `ReplicaFailure` condition, else an old one's,
/// as a Deployment condition.
fn replica_failure(all: &[Object], new: Option<&Object>) -> Option<Value> {
    let of = |rs: &Object| -> Option<Value> {
        rs.at(&["status", "conditions"])?
            .as_array()?
            .iter()
            .find(|c| c["type"] == "ReplicaFailure")
            .map(|c| {
                json!({"type": "ReplicaFailure", "status": c["status"],
                    "lastUpdateTime": c["lastTransitionTime"],
                    "lastTransitionTime": c["lastTransitionTime"],
                    "reason": c["reason"], "message": c["message"]})
            })
    };
    new.and_then(of).or_else(|| all.iter().find_map(of))
}

/// `syncRolloutStatus`: status plus the Progressing condition; when nothing changed and the
/// rollout is neither complete nor timed out, the Deployment is looked at again when its
/// deadline passes (`requeueStuckDeployment`).
pub fn sync_rollout_status(
    dc: &mut DeploymentController,
    ctx: &mut Ctx<'_>,
    d: Object,
    all: &[Object],
    new: Option<&Object>,
) -> Result<(), Retry> {
    let now_ms = ctx.now();
    let now = rfc3339(now_ms);
    let mut status = calculate_status(&d, all, new, &now);
    let deadline = has_progress_deadline(&d);
    if !deadline {
        remove_condition(&mut status, "Progressing");
    }
    let old_status = d.get("status").cloned().unwrap_or(json!({}));
    let current = condition(&old_status, "Progressing").cloned();
    // A resync of a finished rollout estimates nothing.
    let finished = int(&status, "replicas") == int(&status, "updatedReplicas")
        && current
            .as_ref()
            .is_some_and(|c| c["reason"] == NEW_RS_AVAILABLE);
    if deadline && !finished {
        let rs_name = new.map(meta::name);
        if complete(&d, &status) {
            let msg = match rs_name {
                Some(n) => format!("ReplicaSet \"{n}\" has successfully progressed."),
                None => format!(
                    "Deployment \"{}\" has successfully progressed.",
                    meta::name(&d)
                ),
            };
            set_condition(
                &mut status,
                "Progressing",
                "True",
                NEW_RS_AVAILABLE,
                &msg,
                &now,
            );
        } else if progressing(&old_status, &status) {
            let msg = match rs_name {
                Some(n) => format!("ReplicaSet \"{n}\" is progressing."),
                None => format!("Deployment \"{}\" is progressing.", meta::name(&d)),
            };
            // Unlike other conditions, lastUpdateTime moves on with every sign of progress.
            let mut cond = json!({"type": "Progressing", "status": "True", "lastUpdateTime": now,
                "lastTransitionTime": now, "reason": "ReplicaSetUpdated", "message": msg});
            if let Some(cur) = condition(&status, "Progressing") {
                if cur["status"] == "True" {
                    cond["lastTransitionTime"] = cur["lastTransitionTime"].clone();
                }
            }
            replace_condition(&mut status, "Progressing", cond);
        } else if timed_out(&d, &status, now_ms) {
            let msg = match rs_name {
                Some(n) => format!("ReplicaSet \"{n}\" has timed out progressing."),
                None => format!(
                    "Deployment \"{}\" has timed out progressing.",
                    meta::name(&d)
                ),
            };
            if condition(&status, "Progressing").is_none_or(|c| c["reason"] != TIMED_OUT) {
                ctx.record(
                    "reconcile",
                    format!(
                        "deployment-controller: Deployment {} made no progress for {}s (progressDeadlineSeconds): Progressing=False, reason {TIMED_OUT}",
                        meta::name(&d),
                        progress_deadline_seconds(&d).unwrap_or(0)
                    ),
                );
            }
            set_condition(&mut status, "Progressing", "False", TIMED_OUT, &msg, &now);
        }
    }
    match replica_failure(all, new) {
        Some(c) => {
            let cur = condition(&status, "ReplicaFailure");
            if cur.is_none_or(|x| x["status"] != c["status"] || x["reason"] != c["reason"]) {
                replace_condition(&mut status, "ReplicaFailure", c);
            }
        }
        None => remove_condition(&mut status, "ReplicaFailure"),
    }
    if old_status == status {
        requeue_stuck(dc, ctx, &d, &status);
        return Ok(());
    }
    write_status(ctx, &d, status)
}

/// `requeueStuckDeployment`: a rollout that shows no progress is synced again once
/// `lastUpdateTime + progressDeadlineSeconds` has passed (plus a second against clock skew),
/// so that it times out on time rather than at the next resync.
fn requeue_stuck(dc: &mut DeploymentController, ctx: &mut Ctx<'_>, d: &Object, status: &Value) {
    let Some(cur) = condition(d.get("status").unwrap_or(&Value::Null), "Progressing") else {
        return;
    };
    if !has_progress_deadline(d) || complete(d, status) || cur["reason"] == TIMED_OUT {
        return;
    }
    let Some(from) = cur["lastUpdateTime"].as_str().and_then(parse_rfc3339) else {
        return;
    };
    let due = from + progress_deadline_seconds(d).unwrap_or(0).max(0) as Millis * 1000;
    let now = ctx.now();
    let key = crate::cluster::informer::key_of(d);
    if due < now + 1000 {
        // Less than a second left: now, rate-limited.
        let delay = dc.delayed.backoff_ms(&key);
        dc.progress_check(ctx, key, delay);
    } else {
        dc.progress_check(ctx, key, due - now + 1000);
    }
}

/// `checkPausedConditions`: Progressing Unknown while paused, and again when resumed.
pub fn check_paused_conditions(
    _dc: &mut DeploymentController,
    ctx: &mut Ctx<'_>,
    d: Object,
    paused: bool,
) -> Result<Object, Retry> {
    if !has_progress_deadline(&d) {
        return Ok(d);
    }
    let status = d.get("status").cloned().unwrap_or(json!({}));
    let cond = condition(&status, "Progressing");
    let reason = cond.and_then(|c| c["reason"].as_str()).unwrap_or("");
    // A reported lack of progress is not overwritten by a paused condition.
    if reason == TIMED_OUT {
        return Ok(d);
    }
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
    ctx.send_owned(req)
        .map(std::rc::Rc::unwrap_or_clone)
        .map_err(|_| Retry)
}
