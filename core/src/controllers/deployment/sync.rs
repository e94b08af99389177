//! What every strategy shares (`sync.go`): find or create the new ReplicaSet and keep
//! revisions in order, scale proportionally when the Deployment's replicas change, clean up
//! old ReplicaSets beyond `revisionHistoryLimit`.

use super::hash::compute_hash;
use super::progress::{self, set_condition};
use super::rollback::{find_new_rs, max_revision};
use super::*;
use crate::controllers::podutil::At;
use crate::controllers::podutil::{controller_ref_to, min_ready_seconds};
use crate::kernel::time::rfc3339;

/// Annotations of the Deployment that are not copied to its ReplicaSets.
const SKIP_COPY: &[&str] = &[
    "kubectl.kubernetes.io/last-applied-configuration",
    REVISION,
    "deployment.kubernetes.io/revision-history",
    DESIRED_REPLICAS,
    MAX_REPLICAS,
    "deprecated.deployment.rollback.to",
];

/// `getAllReplicaSetsAndSyncRevision`: the new ReplicaSet (created if asked and missing) with
/// the next revision, the old ones, and the Deployment carrying the new revision.
pub fn get_all_and_sync_revision(
    dc: &mut DeploymentController,
    ctx: &mut Ctx<'_>,
    mut d: Object,
    rss: &[Object],
    create: bool,
) -> Result<(Object, Option<Object>, Vec<Object>), Retry> {
    let existing = find_new_rs(&d, rss);
    let old: Vec<Object> = rss
        .iter()
        .filter(|rs| {
            existing
                .as_ref()
                .is_none_or(|n| meta::uid(n) != meta::uid(rs))
        })
        .cloned()
        .collect();
    let new_revision = max_revision(&old) + 1;
    let mut rs_written = false;
    let new = match existing {
        Some(rs) => {
            // `SetNewReplicaSetAnnotations`: the Deployment's annotations, the next revision,
            // and on a rollback the revisions it had before in `revision-history`.
            let mut upd = rs.clone();
            let mut changed = copy_annotations(&d, &mut upd);
            let old_revision = revision(&rs);
            if old_revision < new_revision {
                meta::set_annotation(&mut upd, REVISION, &new_revision.to_string());
                changed = true;
                if annotation(&rs, REVISION).is_some() {
                    let history = annotation(&rs, REVISION_HISTORY).unwrap_or("");
                    if let Some(h) = append_history(history, &old_revision.to_string()) {
                        meta::set_annotation(&mut upd, REVISION_HISTORY, &h);
                    }
                    ctx.record(
                        "reconcile",
                        format!(
                            "deployment-controller: the template of Deployment {} is that of ReplicaSet {} again (a rollback): it becomes revision {new_revision}",
                            meta::name(&d),
                            meta::name(&rs)
                        ),
                    );
                }
            }
            if min_ready_seconds(&rs) != min_ready_seconds(&d) {
                upd["spec"]["minReadySeconds"] = json!(min_ready_seconds(&d));
                changed = true;
            }
            let rs = if changed {
                let req = ctx
                    .request(Verb::Update, rs_info())
                    .namespace(meta::namespace(&rs))
                    .name(meta::name(&rs))
                    .body(upd);
                rs_written = true;
                ctx.send(&req).map_err(|_| Retry)?
            } else {
                rs
            };
            if !rs_written
                && progress::has_progress_deadline(&d)
                && progress::condition(d.get("status").unwrap_or(&Value::Null), "Progressing")
                    .is_none()
            {
                let now = rfc3339(ctx.now());
                let mut status = d.get("status").cloned().unwrap_or(json!({}));
                set_condition(
                    &mut status,
                    "Progressing",
                    "True",
                    "FoundNewReplicaSet",
                    &format!("Found new replica set \"{}\"", meta::name(&rs)),
                    &now,
                );
                d["status"] = status;
            }
            Some(rs)
        }
        None if create => Some(create_new_rs(dc, ctx, &mut d, &old, new_revision)?),
        None => None,
    };
    // Having just written the ReplicaSet, the Deployment's revision follows on the next sync
    // (`getNewReplicaSet` returns at once).
    if let Some(n) = new.as_ref().filter(|_| !rs_written) {
        let rev = revision(n).to_string();
        if annotation(&d, REVISION) != Some(rev.as_str()) {
            let mut upd = d.clone();
            meta::set_annotation(&mut upd, REVISION, &rev);
            let req = ctx
                .request(Verb::Update, deploy_info())
                .namespace(meta::namespace(&d))
                .name(meta::name(&d))
                .body(upd);
            let written = ctx.send_owned(req).map_err(|_| Retry)?;
            let written = std::rc::Rc::unwrap_or_clone(written);
            // Keep the conditions worked out in this sync.
            let status = d.get("status").cloned();
            d = written;
            if let Some(s) = status {
                d["status"] = s;
            }
        }
    }
    Ok((d, new, old))
}

/// `deployment.kubernetes.io/revision-history`: the revisions a rolled-back ReplicaSet had.
pub const REVISION_HISTORY: &str = "deployment.kubernetes.io/revision-history";

/// How long `revision-history` may grow (`maxRevHistoryLengthInChars`).
const MAX_REV_HISTORY_CHARS: usize = 2000;

/// `history` with `old` appended, dropping the oldest entries to stay within the limit;
/// `None` when even that does not fit.
fn append_history(history: &str, old: &str) -> Option<String> {
    if history.is_empty() {
        return Some(old.to_string());
    }
    let parts: Vec<&str> = history.split(',').collect();
    let mut total = history.len() + old.len() + 1;
    let mut start = 0;
    while total > MAX_REV_HISTORY_CHARS && start < parts.len() {
        total -= parts[start].len() + 1;
        start += 1;
    }
    if total > MAX_REV_HISTORY_CHARS {
        return None;
    }
    let mut kept: Vec<&str> = parts[start..].to_vec();
    kept.push(old);
    Some(kept.join(","))
}

/// `copyDeploymentAnnotationsToReplicaSet`: whether any annotation changed.
fn copy_annotations(d: &Object, rs: &mut Object) -> bool {
    let Some(a) = meta::annotations(d) else {
        return false;
    };
    let mut changed = false;
    for (k, v) in a {
        if SKIP_COPY.contains(&k.as_str()) {
            continue;
        }
        if meta::annotations(rs).and_then(|x| x.get(k)) != Some(v) {
            if let Some(s) = v.as_str() {
                meta::set_annotation(rs, k, s);
                changed = true;
            }
        }
    }
    changed
}

/// `NewRSNewReplicas`.
pub fn new_rs_new_replicas(d: &Object, all: &[Object], new: Option<&Object>) -> i64 {
    if !is_rolling(d) {
        return replicas(d);
    }
    let new_size = new.map(spec_replicas).unwrap_or(0);
    let current: i64 = all.iter().map(spec_replicas).sum();
    let max_total = replicas(d) + max_surge(d);
    if current >= max_total {
        return new_size;
    }
    let up = (max_total - current).min(replicas(d) - new_size);
    new_size + up
}

fn create_new_rs(
    dc: &mut DeploymentController,
    ctx: &mut Ctx<'_>,
    d: &mut Object,
    old: &[Object],
    new_revision: i64,
) -> Result<Object, Retry> {
    let collision = d.at(&["status", "collisionCount"]).and_then(Value::as_i64);
    let mut template = d.at(&["spec", "template"]).cloned().unwrap_or(json!({}));
    let hash = compute_hash(&template, collision);
    *meta::ensure_path(&mut template, &["metadata", "labels", HASH_LABEL]) = json!(hash);
    let mut selector = d.at(&["spec", "selector"]).cloned().unwrap_or(json!({}));
    *meta::ensure_path(&mut selector, &["matchLabels", HASH_LABEL]) = json!(hash);
    let name = format!("{}-{hash}", meta::name(d));
    let size = new_rs_new_replicas(d, old, None);
    let mut annotations = crate::api::value::Map::new();
    if let Some(a) = meta::annotations(d) {
        for (k, v) in a {
            if !SKIP_COPY.contains(&k.as_str()) {
                annotations.insert(k.clone(), v.clone());
            }
        }
    }
    annotations.insert(DESIRED_REPLICAS, json!(replicas(d).to_string()));
    annotations.insert(
        MAX_REPLICAS,
        json!((replicas(d) + max_surge(d)).to_string()),
    );
    annotations.insert(REVISION, json!(new_revision.to_string()));
    let mut spec = json!({
        "replicas": size,
        "selector": selector,
        "template": template,
    });
    let mrs = min_ready_seconds(d);
    if mrs > 0 {
        spec["minReadySeconds"] = json!(mrs);
    }
    let rs = json!({
        "apiVersion": "apps/v1",
        "kind": "ReplicaSet",
        "metadata": {
            "name": name,
            "namespace": meta::namespace(d).unwrap_or("default"),
            "labels": template["metadata"]["labels"].clone(),
            "annotations": annotations,
            "ownerReferences": [controller_ref_to(d)],
        },
        "spec": spec,
    });
    ctx.record(
        "reconcile",
        format!(
            "deployment-controller: no ReplicaSet of Deployment {} has its pod template: creating {name} (pod-template-hash {hash}, revision {new_revision}) with {size} replica(s)",
            meta::name(d)
        ),
    );
    let req = ctx
        .request(Verb::Create, rs_info())
        .namespace(meta::namespace(d))
        .body(rs);
    let now = rfc3339(ctx.now());
    match ctx.send_owned(req) {
        Ok(created) => {
            if size > 0 {
                dc.recorder.event(
                    ctx,
                    d,
                    None,
                    EventType::Normal,
                    "ScalingReplicaSet",
                    &format!("Scaled up replica set {name} from 0 to {size}"),
                );
            }
            if progress::has_progress_deadline(d) {
                let mut status = d.get("status").cloned().unwrap_or(json!({}));
                set_condition(
                    &mut status,
                    "Progressing",
                    "True",
                    "NewReplicaSetCreated",
                    &format!("Created new replica set \"{name}\""),
                    &now,
                );
                d["status"] = status;
            }
            Ok(std::rc::Rc::unwrap_or_clone(created))
        }
        Err(e) if e.code == 409 => {
            // Someone else's ReplicaSet has this name: count the collision, hash again next time.
            let get = ctx
                .request(Verb::Get, rs_info())
                .namespace(meta::namespace(d))
                .name(&name);
            if let Ok(rs) = ctx.send(&get) {
                if controller_uid(&rs) == Some(meta::uid(d))
                    && rollback::equal_ignore_hash(
                        rs.at(&["spec", "template"]),
                        d.at(&["spec", "template"]),
                    )
                {
                    return Ok(rs);
                }
            }
            let mut status = d.get("status").cloned().unwrap_or(json!({}));
            status["collisionCount"] = json!(collision.unwrap_or(0) + 1);
            let mut body = d.clone();
            body["status"] = status;
            let req = ctx
                .request(Verb::Update, deploy_info())
                .namespace(meta::namespace(d))
                .name(meta::name(d))
                .subresource("status")
                .body(body);
            let _ = ctx.send_owned(req);
            Err(Retry)
        }
        Err(e) => {
            // `FailedRSCreateReason`, as the event's reason and the condition's.
            let msg = format!("Failed to create new replica set {name:?}: {}", e.message);
            if progress::has_progress_deadline(d) {
                let mut status = d.get("status").cloned().unwrap_or(json!({}));
                set_condition(
                    &mut status,
                    "Progressing",
                    "False",
                    "ReplicaSetCreateError",
                    &msg,
                    &now,
                );
                let mut body = d.clone();
                body["status"] = status;
                let req = ctx
                    .request(Verb::Update, deploy_info())
                    .namespace(meta::namespace(d))
                    .name(meta::name(d))
                    .subresource("status")
                    .body(body);
                let _ = ctx.send_owned(req);
            }
            dc.recorder.event(
                ctx,
                d,
                None,
                EventType::Warning,
                "ReplicaSetCreateError",
                &msg,
            );
            Err(Retry)
        }
    }
}

/// `isScalingEvent`: an active ReplicaSet was sized for another replica count.
pub fn is_scaling_event(d: &Object, rss: &[Object]) -> bool {
    let want = replicas(d).to_string();
    rss.iter()
        .filter(|rs| spec_replicas(rs) > 0)
        .any(|rs| annotation(rs, DESIRED_REPLICAS).is_some_and(|a| a != want))
}

/// `sync`: scaling (and paused Deployments): no new ReplicaSet is created.
pub fn sync(
    dc: &mut DeploymentController,
    ctx: &mut Ctx<'_>,
    d: Object,
    rss: Vec<Object>,
) -> Result<(), Retry> {
    let (d, new, old) = get_all_and_sync_revision(dc, ctx, d, &rss, false)?;
    let (new, old) = scale(dc, ctx, &d, new, old)?;
    let paused = d.at(&["spec", "paused"]).and_then(Value::as_bool) == Some(true);
    if paused {
        cleanup(dc, ctx, &d, &old)?;
    }
    let mut all = old.clone();
    all.extend(new.iter().cloned());
    progress::sync_deployment_status(dc, ctx, d, &all, new.as_ref())
}

/// `scale`: the new ReplicaSet alone, or proportional scaling across the active ones.
pub fn scale(
    dc: &mut DeploymentController,
    ctx: &mut Ctx<'_>,
    d: &Object,
    new: Option<Object>,
    mut old: Vec<Object>,
) -> Result<(Option<Object>, Vec<Object>), Retry> {
    let mut all: Vec<Object> = old.clone();
    all.extend(new.iter().cloned());
    let active: Vec<usize> = (0..all.len())
        .filter(|&i| spec_replicas(&all[i]) > 0)
        .collect();
    // One active (or none): it gets all the replicas.
    let target = if active.len() == 1 {
        Some(active[0])
    } else if active.is_empty() {
        // FindActiveOrLatest: the newest.
        if all.is_empty() {
            None
        } else {
            Some(all.len() - 1)
        }
    } else {
        None
    };
    if let Some(i) = target {
        if spec_replicas(&all[i]) != replicas(d) {
            let (_, w) = dc.scale_rs(ctx, &all[i], replicas(d), d)?;
            all[i] = w;
        }
        return Ok(split(all, new.is_some()));
    }
    // The new ReplicaSet is saturated: the old ones go to 0.
    if let Some(n) = &new {
        if spec_replicas(n) == replicas(d)
            && annotation(n, DESIRED_REPLICAS) == Some(replicas(d).to_string().as_str())
        {
            for rs in old.iter_mut() {
                if spec_replicas(rs) > 0 {
                    *rs = dc.scale_rs(ctx, rs, 0, d)?.1;
                }
            }
            return Ok((new, old));
        }
    }
    if !is_rolling(d) {
        return Ok((new, old));
    }
    let all_replicas: i64 = all.iter().map(spec_replicas).sum();
    let allowed = if replicas(d) > 0 {
        replicas(d) + max_surge(d)
    } else {
        0
    };
    let to_add = allowed - all_replicas;
    // Newer and larger first when adding, older and larger first when removing.
    let mut order: Vec<usize> = (0..all.len()).collect();
    let created = |i: usize| {
        all[i]
            .at(&["metadata", "creationTimestamp"])
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    crate::api::sorting::sort_by(&mut order, &|&a, &b| {
        spec_replicas(&all[b])
            .cmp(&spec_replicas(&all[a]))
            .then_with(|| {
                if to_add > 0 {
                    created(b).cmp(&created(a))
                } else {
                    created(a).cmp(&created(b))
                }
            })
    });
    let mut sizes: Vec<i64> = all.iter().map(spec_replicas).collect();
    let mut added = 0i64;
    if to_add != 0 {
        for &i in &order {
            let rs = &all[i];
            let frac = if replicas(d) == 0 {
                -spec_replicas(rs)
            } else {
                let max = replicas(d) + max_surge(d);
                let annotated = annotation(rs, MAX_REPLICAS)
                    .and_then(|s| s.parse::<i64>().ok())
                    .unwrap_or_else(|| status_i64(d, "replicas"));
                if annotated == 0 {
                    0
                } else {
                    let n = spec_replicas(rs) * max;
                    (n + annotated - 1).div_euclid(annotated) - spec_replicas(rs)
                }
            };
            let left = to_add - added;
            let p = if to_add > 0 {
                frac.min(left)
            } else {
                frac.max(left)
            };
            sizes[i] += p;
            added += p;
        }
        if let Some(&first) = order.first() {
            let leftover = to_add - added;
            if leftover != 0 {
                sizes[first] += leftover;
            }
        }
    }
    for i in 0..all.len() {
        let size = sizes[i].max(0);
        let (_, w) = dc.scale_rs(ctx, &all[i], size, d)?;
        all[i] = w;
    }
    Ok(split(all, new.is_some()))
}

fn split(mut all: Vec<Object>, has_new: bool) -> (Option<Object>, Vec<Object>) {
    let new = if has_new { all.pop() } else { None };
    (new, all)
}

/// `cleanupDeployment`: delete the oldest unused ReplicaSets beyond `revisionHistoryLimit`.
pub fn cleanup(
    _dc: &mut DeploymentController,
    ctx: &mut Ctx<'_>,
    d: &Object,
    old: &[Object],
) -> Result<(), Retry> {
    let limit = d
        .at(&["spec", "revisionHistoryLimit"])
        .and_then(Value::as_i64)
        .unwrap_or(10);
    let mut alive: Vec<&Object> = old
        .iter()
        .filter(|rs| rs.at(&["metadata", "deletionTimestamp"]).is_none())
        .collect();
    let diff = alive.len() as i64 - limit;
    if diff <= 0 {
        return Ok(());
    }
    crate::api::sorting::sort_by_key(&mut alive, &|rs| revision(rs));
    for rs in alive.into_iter().take(diff as usize) {
        let generation = rs
            .at(&["metadata", "generation"])
            .and_then(Value::as_i64)
            .unwrap_or(0);
        if status_i64(rs, "replicas") != 0
            || spec_replicas(rs) != 0
            || generation > status_i64(rs, "observedGeneration")
        {
            continue;
        }
        ctx.record(
            "reconcile",
            format!(
                "deployment-controller: Deployment {} keeps {limit} old ReplicaSet(s) (revisionHistoryLimit): deleting {}",
                meta::name(d),
                meta::name(rs)
            ),
        );
        let req = ctx
            .request(Verb::Delete, rs_info())
            .namespace(meta::namespace(rs))
            .name(meta::name(rs));
        match ctx.send(&req) {
            Ok(_) => {}
            Err(e) if e.code == 404 => {}
            Err(_) => return Err(Retry),
        }
    }
    Ok(())
}
