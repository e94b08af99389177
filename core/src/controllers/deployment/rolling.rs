//! RollingUpdate (`rolling.go`): one step per sync, within maxSurge and maxUnavailable:
//! scale the new ReplicaSet up, or else the old ones down (unhealthy pods first).

use super::progress;
use super::sync::{cleanup, get_all_and_sync_revision, new_rs_new_replicas};
use super::*;

pub fn rollout(
    dc: &mut DeploymentController,
    ctx: &mut Ctx<'_>,
    d: Object,
    rss: Vec<Object>,
) -> Result<(), Retry> {
    let (d, new, old) = get_all_and_sync_revision(dc, ctx, d, &rss, true)?;
    let Some(mut new) = new else {
        return Ok(());
    };
    let mut all = old.clone();
    all.push(new.clone());
    // Scale up the new ReplicaSet if we can.
    let (scaled_up, w) = reconcile_new(dc, ctx, &d, &all, &new)?;
    new = w;
    if scaled_up {
        let mut all = old.clone();
        all.push(new.clone());
        return progress::sync_rollout_status(dc, ctx, d, &all, Some(&new));
    }
    // Scale down the old ones if we can.
    let (scaled_down, old) = reconcile_old(dc, ctx, &d, old, &new)?;
    let mut all = old.clone();
    all.push(new.clone());
    if scaled_down {
        return progress::sync_rollout_status(dc, ctx, d, &all, Some(&new));
    }
    if progress::complete(&d, d.get("status").unwrap_or(&Value::Null)) {
        cleanup(dc, ctx, &d, &old)?;
    }
    progress::sync_rollout_status(dc, ctx, d, &all, Some(&new))
}

/// `reconcileNewReplicaSet`.
fn reconcile_new(
    dc: &mut DeploymentController,
    ctx: &mut Ctx<'_>,
    d: &Object,
    all: &[Object],
    new: &Object,
) -> Result<(bool, Object), Retry> {
    let want = replicas(d);
    let have = spec_replicas(new);
    if have == want {
        return Ok((false, new.clone()));
    }
    if have > want {
        return dc.scale_rs(ctx, new, want, d);
    }
    let size = new_rs_new_replicas(d, all, Some(new));
    dc.scale_rs(ctx, new, size, d)
}

/// `reconcileOldReplicaSets`.
fn reconcile_old(
    dc: &mut DeploymentController,
    ctx: &mut Ctx<'_>,
    d: &Object,
    mut old: Vec<Object>,
    new: &Object,
) -> Result<(bool, Vec<Object>), Retry> {
    let old_pods: i64 = old.iter().map(spec_replicas).sum();
    if old_pods == 0 {
        return Ok((false, old));
    }
    let all_pods = old_pods + spec_replicas(new);
    let min_available = replicas(d) - max_unavailable(d);
    let new_unavailable = spec_replicas(new) - status_i64(new, "availableReplicas");
    let max_scaled_down = all_pods - min_available - new_unavailable;
    if max_scaled_down <= 0 {
        return Ok((false, old));
    }
    by_creation(&mut old);
    // a) Pods that are not available anyway go first.
    let mut cleaned = 0i64;
    for rs in old.iter_mut() {
        if cleaned >= max_scaled_down {
            break;
        }
        let size = spec_replicas(rs);
        let available = status_i64(rs, "availableReplicas");
        if size == 0 || size == available {
            continue;
        }
        let down = (max_scaled_down - cleaned).min(size - available);
        *rs = dc.scale_rs(ctx, rs, size - down, d)?.1;
        cleaned += down;
    }
    // b) Then as many available ones as minAvailable allows.
    let available: i64 = old
        .iter()
        .map(|rs| status_i64(rs, "availableReplicas"))
        .sum::<i64>()
        + status_i64(new, "availableReplicas");
    let mut scaled = 0i64;
    if available > min_available {
        let total = available - min_available;
        for rs in old.iter_mut() {
            if scaled >= total {
                break;
            }
            let size = spec_replicas(rs);
            if size == 0 {
                continue;
            }
            let down = size.min(total - scaled);
            *rs = dc.scale_rs(ctx, rs, size - down, d)?.1;
            scaled += down;
        }
    }
    Ok((cleaned + scaled > 0, old))
}
