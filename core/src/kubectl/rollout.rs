//! `kubectl rollout status|history|undo|restart|pause|resume` for Deployments.

use super::{format_error, get::targets, kind_name, Ctx};
use crate::api::json::JsonPointer;
use crate::api::value::{json, Value};
use crate::api::{meta, resources, Object};
use crate::apiserver::{PatchType, Verb};
use crate::kernel::time::rfc3339;

const REVISION: &str = "deployment.kubernetes.io/revision";
const CHANGE_CAUSE: &str = "kubernetes.io/change-cause";

fn int(o: &Object, path: &str) -> i64 {
    o.lookup(path).and_then(Value::as_i64).unwrap_or(0)
}

/// The text `rollout status` prints for the Deployment's current state
/// (`kubectl/pkg/polymorphichelpers/rollout_status.go`), and whether it is done.
pub fn deployment_status(d: &Object) -> (String, bool) {
    let name = meta::name(d);
    let generation = int(d, "/metadata/generation");
    let observed = int(d, "/status/observedGeneration");
    if generation > observed {
        return (
            "Waiting for deployment spec update to be observed...\n".into(),
            false,
        );
    }
    let conditions = d
        .lookup("/status/conditions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if conditions
        .iter()
        .any(|c| c["type"] == "Progressing" && c["reason"] == "ProgressDeadlineExceeded")
    {
        return (
            format!("error: deployment {name:?} exceeded its progress deadline\n"),
            true,
        );
    }
    let replicas = d
        .lookup("/spec/replicas")
        .and_then(Value::as_i64)
        .unwrap_or(1);
    let updated = int(d, "/status/updatedReplicas");
    let total = int(d, "/status/replicas");
    let available = int(d, "/status/availableReplicas");
    if updated < replicas {
        return (format!("Waiting for deployment {name:?} rollout to finish: {updated} out of {replicas} new replicas have been updated...\n"), false);
    }
    if total > updated {
        return (format!("Waiting for deployment {name:?} rollout to finish: {} old replicas are pending termination...\n", total - updated), false);
    }
    if available < updated {
        return (format!("Waiting for deployment {name:?} rollout to finish: {available} of {updated} updated replicas are available...\n"), false);
    }
    (
        format!("deployment {name:?} successfully rolled out\n"),
        true,
    )
}

fn owned_replicasets(ctx: &mut Ctx<'_>, d: &Object) -> Result<Vec<Object>, String> {
    let info = resources::for_kind("apps/v1", "ReplicaSet").expect("replicasets");
    let req = ctx.request(Verb::List, info).namespace(meta::namespace(d));
    let list = ctx.send(&req).map_err(|e| format_error(&e, ""))?;
    let mut rs: Vec<Object> = list["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|r| meta::controller_ref(r).is_some_and(|o| o["uid"] == meta::uid(d)))
        .collect();
    crate::api::sorting::sort_by_key(&mut rs, &|x| revision_of(x));
    Ok(rs)
}

fn revision_of(o: &Object) -> i64 {
    meta::annotations(o)
        .and_then(|a| a.get(REVISION))
        .and_then(Value::as_str)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

pub fn rollout(ctx: &mut Ctx<'_>, args: &[String]) -> Result<(), String> {
    let action = args
        .first()
        .ok_or("error: Required resource not specified.")?
        .clone();
    for (info, names) in targets(ctx, &args[1..])? {
        if info.kind != "Deployment" {
            return Err(format!(
                "error: no {action} for kind {:?}: kubeplay supports rollouts of Deployments",
                info.kind
            ));
        }
        for name in names {
            let ns = ctx.ns_for(info);
            let get = ctx
                .request(Verb::Get, info)
                .namespace(ns.as_deref())
                .name(&name);
            let d = ctx.send(&get).map_err(|e| format_error(&e, ""))?;
            match action.as_str() {
                "status" => {
                    let (text, _) = deployment_status(&d);
                    if text.starts_with("error:") {
                        ctx.fail(&text);
                    } else {
                        ctx.out.push_str(&text);
                    }
                }
                "history" => {
                    let rs = owned_replicasets(ctx, &d)?;
                    let mut out = format!("{}\nREVISION  CHANGE-CAUSE\n", kind_name(info, &name));
                    for r in rs {
                        let cause = meta::annotations(&r)
                            .and_then(|a| a.get(CHANGE_CAUSE))
                            .and_then(Value::as_str)
                            .unwrap_or("<none>");
                        out.push_str(&format!("{:<10}{cause}\n", revision_of(&r)));
                    }
                    out.push('\n');
                    ctx.out.push_str(&out);
                }
                "undo" => {
                    let rs = owned_replicasets(ctx, &d)?;
                    let current = revision_of(&d);
                    let wanted: Option<i64> = ctx
                        .flags
                        .value("to-revision")
                        .and_then(|v| v.parse().ok())
                        .filter(|v| *v != 0);
                    let target = match wanted {
                        Some(w) => rs.iter().find(|r| revision_of(r) == w).ok_or_else(|| {
                            format!("error: unable to find specified revision {w} in history")
                        })?,
                        None => rs.iter().rev().find(|r| revision_of(r) < current).ok_or(
                            "error: no rollout history found for deployment \"".to_string()
                                + &name
                                + "\"",
                        )?,
                    };
                    let mut template = target
                        .lookup("/spec/template")
                        .cloned()
                        .unwrap_or(json!({}));
                    if let Some(l) = template
                        .lookup_mut("/metadata/labels")
                        .and_then(Value::as_object_mut)
                    {
                        l.remove("pod-template-hash");
                    }
                    if template == d.lookup("/spec/template").cloned().unwrap_or_default() {
                        ctx.out.push_str(&format!(
                            "{} skipped rollback (current template already matches revision {})\n",
                            kind_name(info, &name),
                            revision_of(target)
                        ));
                        continue;
                    }
                    let body =
                        json!([{"op": "replace", "path": "/spec/template", "value": template}]);
                    let req = ctx
                        .request(Verb::Patch(PatchType::Json), info)
                        .namespace(ns.as_deref())
                        .name(&name)
                        .body(body);
                    ctx.send(&req).map_err(|e| format_error(&e, ""))?;
                    ctx.out
                        .push_str(&format!("{} rolled back\n", kind_name(info, &name)));
                }
                "restart" => {
                    if d.lookup("/spec/paused") == Some(&json!(true)) {
                        return Err(format!("error: deployments.apps {name:?} can't restart paused deployment (run rollout resume first)"));
                    }
                    let now = ctx.cluster.now();
                    let body = json!({"spec": {"template": {"metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": rfc3339(now)}}}}});
                    let req = ctx
                        .request(Verb::Patch(PatchType::Strategic), info)
                        .namespace(ns.as_deref())
                        .name(&name)
                        .body(body);
                    ctx.send(&req).map_err(|e| format_error(&e, ""))?;
                    ctx.out
                        .push_str(&format!("{} restarted\n", kind_name(info, &name)));
                }
                "pause" | "resume" => {
                    let pause = action == "pause";
                    if d.lookup("/spec/paused")
                        .and_then(Value::as_bool)
                        .unwrap_or(false)
                        == pause
                    {
                        return Err(format!(
                            "error: {} is {}",
                            kind_name(info, &name),
                            if pause {
                                "already paused"
                            } else {
                                "not paused"
                            }
                        ));
                    }
                    let body =
                        json!({"spec": {"paused": if pause { json!(true) } else { Value::Null }}});
                    let req = ctx
                        .request(Verb::Patch(PatchType::Strategic), info)
                        .namespace(ns.as_deref())
                        .name(&name)
                        .body(body);
                    ctx.send(&req).map_err(|e| format_error(&e, ""))?;
                    ctx.out.push_str(&format!(
                        "{} {}\n",
                        kind_name(info, &name),
                        if pause { "paused" } else { "resumed" }
                    ));
                }
                other => {
                    return Err(format!(
                        "error: unknown command {other:?} for \"kubectl rollout\""
                    ))
                }
            }
        }
    }
    Ok(())
}
