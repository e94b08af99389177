//! Pod helpers shared by the workload controllers (`pkg/api/v1/pod/util.go`,
//! `pkg/controller/controller_utils.go`).

use crate::api::json::JsonPointer;
use crate::api::value::{json, Value};
use crate::api::{meta, selector::Selector, Object};
use crate::kernel::{time::parse_rfc3339, Millis};
use std::cmp::Ordering;

/// `Value::pointer` for a path of object keys, without parsing a pointer string (which
/// allocates a `String` per segment): `pod.at(&["status", "phase"])`.
pub trait At {
    fn at(&self, path: &[&str]) -> Option<&Value>;
}

impl At for Value {
    #[inline]
    fn at(&self, path: &[&str]) -> Option<&Value> {
        let mut cur = self;
        for k in path {
            cur = cur.as_object()?.get(k)?;
        }
        Some(cur)
    }
}

/// Not finished and not being deleted (`FilterActivePods`).
pub fn is_active(pod: &Object) -> bool {
    !matches!(phase(pod), "Succeeded" | "Failed")
        && pod.at(&["metadata", "deletionTimestamp"]).is_none()
}

pub fn phase(pod: &Object) -> &str {
    pod.at(&["status", "phase"])
        .and_then(Value::as_str)
        .unwrap_or("")
}

fn ready_condition(pod: &Object) -> Option<&Value> {
    pod.at(&["status", "conditions"])?
        .as_array()?
        .iter()
        .find(|c| c["type"] == "Ready")
}

pub fn is_ready(pod: &Object) -> bool {
    ready_condition(pod).is_some_and(|c| c["status"] == "True")
}

/// When the pod last became Ready.
pub fn ready_since(pod: &Object) -> Option<Millis> {
    let c = ready_condition(pod)?;
    if c["status"] != "True" {
        return None;
    }
    Some(
        c["lastTransitionTime"]
            .as_str()
            .and_then(parse_rfc3339)
            .unwrap_or(0),
    )
}

/// Ready for at least `min_ready_seconds` (`IsPodAvailable`).
pub fn is_available(pod: &Object, min_ready_seconds: i64, now: Millis) -> bool {
    match ready_since(pod) {
        None => false,
        Some(_) if min_ready_seconds <= 0 => true,
        Some(t) => t + min_ready_seconds as Millis * 1000 <= now,
    }
}

/// When a Ready pod that is not yet available becomes so.
pub fn available_at(pod: &Object, min_ready_seconds: i64) -> Option<Millis> {
    ready_since(pod).map(|t| t + min_ready_seconds.max(0) as Millis * 1000)
}

pub fn selector_of(obj: &Object) -> Selector {
    Selector::from_label_selector(obj.at(&["spec", "selector"]))
        .unwrap_or_else(|_| Selector::nothing())
}

pub fn replicas(obj: &Object) -> i64 {
    obj.at(&["spec", "replicas"])
        .and_then(Value::as_i64)
        .unwrap_or(1)
}

pub fn status_i64(obj: &Object, field: &str) -> i64 {
    obj.lookup(&format!("/status/{field}"))
        .and_then(Value::as_i64)
        .unwrap_or(0)
}

pub fn min_ready_seconds(obj: &Object) -> i64 {
    obj.at(&["spec", "minReadySeconds"])
        .and_then(Value::as_i64)
        .unwrap_or(0)
}

/// The controller ownerReference's uid, if any.
pub fn controller_uid(obj: &Object) -> Option<&str> {
    meta::controller_ref(obj).and_then(|r| r["uid"].as_str())
}

/// An ownerReference naming `owner` as controller.
pub fn controller_ref_to(owner: &Object) -> Value {
    json!({
        "apiVersion": meta::api_version(owner),
        "kind": meta::kind(owner),
        "name": meta::name(owner),
        "uid": meta::uid(owner),
        "controller": true,
        "blockOwnerDeletion": true,
    })
}

fn creation_ms(pod: &Object) -> Option<Millis> {
    pod.at(&["metadata", "creationTimestamp"])
        .and_then(Value::as_str)
        .and_then(parse_rfc3339)
}

fn restarts(pod: &Object) -> i64 {
    pod.at(&["status", "containerStatuses"])
        .and_then(Value::as_array)
        .map(|cs| {
            cs.iter()
                .map(|c| c["restartCount"].as_i64().unwrap_or(0))
                .max()
                .unwrap_or(0)
        })
        .unwrap_or(0)
}

fn deletion_cost(pod: &Object) -> i64 {
    meta::annotations(pod)
        .and_then(|a| a.get("controller.kubernetes.io/pod-deletion-cost"))
        .and_then(Value::as_str)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

fn node(pod: &Object) -> &str {
    pod.at(&["spec", "nodeName"])
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// `ActivePodsWithRanks.Less`: the pod to delete first sorts first. `rank` is how many of the
/// related pods share the pod's node (doubled-up pods go first).
pub fn deletion_order(a: &Object, ra: usize, b: &Object, rb: usize) -> Ordering {
    // 1. Unassigned < assigned.
    let (na, nb) = (node(a).is_empty(), node(b).is_empty());
    if na != nb {
        return if na {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    // 2. Pending < Unknown < Running.
    let order = |p: &Object| match phase(p) {
        "Pending" | "" => 0,
        "Unknown" => 1,
        "Running" => 2,
        _ => 3,
    };
    if order(a) != order(b) {
        return order(a).cmp(&order(b));
    }
    // 3. Not ready < ready.
    if is_ready(a) != is_ready(b) {
        return if is_ready(a) {
            Ordering::Greater
        } else {
            Ordering::Less
        };
    }
    // 4. Lower pod-deletion-cost < higher.
    if deletion_cost(a) != deletion_cost(b) {
        return deletion_cost(a).cmp(&deletion_cost(b));
    }
    // 5. Doubled up < not.
    if ra != rb {
        return rb.cmp(&ra);
    }
    // 6. Ready for less time < ready for more time (both ready).
    if let (Some(ta), Some(tb)) = (ready_since(a), ready_since(b)) {
        if ta != tb {
            return tb.cmp(&ta);
        }
    }
    // 7. More restarts < fewer.
    if restarts(a) != restarts(b) {
        return restarts(b).cmp(&restarts(a));
    }
    // 8. Newer < older.
    match (creation_ms(a), creation_ms(b)) {
        (Some(x), Some(y)) if x != y => y.cmp(&x),
        _ => Ordering::Equal,
    }
}
