//! Recreate (`recreate.go`): scale every old ReplicaSet to 0, wait until their pods are gone,
//! then create or scale up the new one to the full replica count.

use super::progress;
use super::sync::{cleanup, get_all_and_sync_revision};
use super::*;

pub fn rollout(
    dc: &mut DeploymentController,
    ctx: &mut Ctx<'_>,
    d: Object,
    rss: Vec<Object>,
) -> Result<(), Retry> {
    let (d, new, mut old) = get_all_and_sync_revision(dc, ctx, d, &rss, false)?;
    let mut scaled_down = false;
    for rs in old.iter_mut() {
        if spec_replicas(rs) > 0 {
            *rs = dc.scale_rs(ctx, rs, 0, &d)?.1;
            scaled_down = true;
        }
    }
    let mut all = old.clone();
    all.extend(new.iter().cloned());
    if scaled_down {
        return progress::sync_rollout_status(dc, ctx, d, &all, new.as_ref());
    }
    if dc.pods_running(ctx, &d, &old) {
        ctx.record(
            "reconcile",
            format!(
                "deployment-controller: Deployment {} (Recreate) waits for the old pods to be gone",
                meta::name(&d)
            ),
        );
        return progress::sync_rollout_status(dc, ctx, d, &all, new.as_ref());
    }
    let (d, new, old) = if new.is_none() {
        get_all_and_sync_revision(dc, ctx, d, &rss, true)?
    } else {
        (d, new, old)
    };
    let Some(mut new) = new else {
        return Ok(());
    };
    if spec_replicas(&new) != replicas(&d) {
        new = dc.scale_rs(ctx, &new, replicas(&d), &d)?.1;
    }
    if progress::complete(&d, d.get("status").unwrap_or(&Value::Null)) {
        cleanup(dc, ctx, &d, &old)?;
    }
    let mut all = old;
    all.push(new.clone());
    progress::sync_rollout_status(dc, ctx, d, &all, Some(&new))
}
