//! The pod status the kubelet computes (`generateAPIPodStatus`, `getPhase`, `status/generate.go`).

use super::{Ctr, State, Worker};
use crate::api::value::{json, Map, Value};
use crate::controllers::podutil::At;
use crate::kernel::time::rfc3339;
use crate::kernel::Millis;

/// The conditions the kubelet owns, in the order it writes them.
pub(super) const CONDITIONS: [&str; 4] = [
    "PodReadyToStartContainers",
    "Initialized",
    "Ready",
    "ContainersReady",
];

fn state_json(s: &State) -> Value {
    match s {
        State::Waiting { reason, message } => {
            let mut w = json!({"reason": reason});
            if let Some(m) = message {
                w["message"] = json!(m);
            }
            let mut m = Map::new();
            m.insert("waiting", w);
            Value::Object(m)
        }
        State::Running { started_at } => json!({"running": {"startedAt": rfc3339(*started_at)}}),
        State::Terminated {
            code,
            reason,
            started_at,
            finished_at,
            id,
        } => json!({"terminated": {
            "exitCode": code, "reason": reason, "startedAt": rfc3339(*started_at),
            "finishedAt": rfc3339(*finished_at), "containerID": format!("containerd://{id}")
        }}),
    }
}

fn ctr_json(c: &Ctr) -> Value {
    let mut m = Map::new();
    m.insert("name", json!(c.name));
    m.insert("state", state_json(&c.state));
    m.insert(
        "lastState",
        c.last.as_ref().map(state_json).unwrap_or_else(|| json!({})),
    );
    m.insert("ready", json!(c.ready));
    m.insert("restartCount", json!(c.restarts));
    let image = if c.id.is_some() {
        super::images::ImageRef::parse(&c.image).full()
    } else {
        c.image.clone()
    };
    m.insert("image", json!(image));
    m.insert("imageID", json!(c.image_id));
    if let Some(id) = &c.id {
        m.insert("containerID", json!(format!("containerd://{id}")));
    }
    m.insert("started", json!(c.started));
    Value::Object(m)
}

/// The phase from the containers (`getPhase`).
pub(super) fn phase(w: &Worker) -> &'static str {
    if w.next_init < w.init.len() {
        let failed = w
            .init
            .iter()
            .any(|c| matches!(c.state, State::Terminated { code, .. } if code != 0));
        return if failed && w.restart_policy() == "Never" {
            "Failed"
        } else {
            "Pending"
        };
    }
    let (mut running, mut waiting, mut stopped, mut succeeded) = (0, 0, 0, 0);
    for c in &w.app {
        match &c.state {
            State::Running { .. } => running += 1,
            State::Terminated { code, .. } => {
                stopped += 1;
                if *code == 0 {
                    succeeded += 1;
                }
            }
            State::Waiting { .. } if c.last.is_some() => stopped += 1,
            State::Waiting { .. } => waiting += 1,
        }
    }
    if waiting > 0 {
        return "Pending";
    }
    if running > 0 {
        return "Running";
    }
    if stopped == 0 {
        return "Pending";
    }
    match w.restart_policy() {
        "Always" => "Running",
        "OnFailure" if succeeded < stopped => "Running",
        _ if succeeded == stopped => "Succeeded",
        _ => "Failed",
    }
}

fn names(list: &[&Ctr]) -> String {
    let n: Vec<&str> = list.iter().map(|c| c.name.as_str()).collect();
    format!("[{}]", n.join(" "))
}

/// The whole status the kubelet reports for a pod worker.
pub(super) fn build(w: &mut Worker, host_ip: &str, now: Millis) -> Value {
    let phase = phase(w);
    let incomplete: Vec<&Ctr> = w.init.iter().skip(w.next_init).collect();
    let unready: Vec<&Ctr> = w.app.iter().filter(|c| !c.ready).collect();
    let mut conds: Vec<(&'static str, bool, Option<&str>, Option<String>)> = Vec::new();
    conds.push(("PodReadyToStartContainers", w.net_ready, None, None));
    if incomplete.is_empty() {
        conds.push(("Initialized", true, None, None));
    } else {
        conds.push((
            "Initialized",
            false,
            Some("ContainersNotInitialized"),
            Some(format!(
                "containers with incomplete status: {}",
                names(&incomplete)
            )),
        ));
    }
    let ready = unready.is_empty() && !w.app.is_empty();
    let (reason, message) = if ready {
        (None, None)
    } else if phase == "Succeeded" {
        (Some("PodCompleted"), None)
    } else {
        (
            Some("ContainersNotReady"),
            Some(format!(
                "containers with unready status: {}",
                names(&unready)
            )),
        )
    };
    conds.push(("Ready", ready, reason, message.clone()));
    conds.push(("ContainersReady", ready, reason, message));
    let mut out = Vec::new();
    for (ty, ok, reason, message) in conds {
        let entry = w.transitions.entry(ty).or_insert((ok, now));
        if entry.0 != ok {
            *entry = (ok, now);
        }
        let mut c = json!({"type": ty, "status": if ok {"True"} else {"False"},
            "lastProbeTime": null, "lastTransitionTime": rfc3339(entry.1)});
        if let Some(r) = reason {
            c["reason"] = json!(r);
        }
        if let Some(m) = message {
            c["message"] = json!(m);
        }
        out.push(c);
    }
    let scheduled = w
        .pod
        .at(&["status", "conditions"])
        .and_then(Value::as_array)
        .and_then(|l| l.iter().find(|c| c["type"] == "PodScheduled").cloned())
        .unwrap_or_else(|| json!({"type": "PodScheduled", "status": "True", "lastProbeTime": null, "lastTransitionTime": rfc3339(w.start_time)}));
    out.push(scheduled);
    // Built by hand: `json!` would copy the lists.
    let mut s = Map::new();
    s.insert("phase", json!(phase));
    s.insert("conditions", Value::Array(out));
    s.insert("hostIP", json!(host_ip));
    s.insert("hostIPs", json!([{"ip": host_ip}]));
    s.insert("startTime", Value::String(rfc3339(w.start_time)));
    s.insert(
        "containerStatuses",
        Value::Array(w.app.iter().map(ctr_json).collect()),
    );
    if let Some(ip) = &w.ip {
        s.insert("podIP", json!(ip));
        s.insert("podIPs", json!([{"ip": ip}]));
    }
    if !w.init.is_empty() {
        s.insert(
            "initContainerStatuses",
            Value::Array(w.init.iter().map(ctr_json).collect()),
        );
    }
    Value::Object(s)
}
