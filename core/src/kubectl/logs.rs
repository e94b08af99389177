//! `kubectl logs (POD | TYPE/NAME) [CONTAINER] [-c CONTAINER] [-p|--previous] [--tail N]
//! [--timestamps] [-f]`: reads the pod (for a workload, its first active pod), picks the
//! container as kubectl 1.35 does (the `kubectl.kubernetes.io/default-container` annotation,
//! else the first container, saying so when there are others), then `GET pods/<name>/log`,
//! which kube-apiserver proxies to the node's kubelet. `-f` prints what is there: the stream
//! ends at the current virtual time.

use super::{format_error, Ctx};
use crate::api::json::JsonPointer;
use crate::api::value::{json, Value};
use crate::api::{meta, resources::for_kind, selector::Selector, Object};
use crate::apiserver::Verb;
use crate::trace::{Component, Record};

const USAGE: &str = "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples";

/// The flags only `logs` has (`-p` is `--previous` here, not `--patch`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogFlags {
    pub previous: bool,
    /// `--tail`; -1 (the default) is everything.
    pub tail: i64,
    pub timestamps: bool,
    pub follow: bool,
    pub all_containers: bool,
}

/// Whether `args` run `kubectl logs` (the first word that is not a global flag or its value).
pub fn is_logs(args: &[String]) -> bool {
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "-n" | "--namespace" | "--as" | "--as-group" => i += 2,
            _ if a.starts_with('-') => i += 1,
            _ => return a == "logs",
        }
    }
    false
}

/// Takes `logs`' own flags out of `args`, leaving the rest for the common parser.
pub fn split_flags(args: &[String]) -> Result<(Vec<String>, LogFlags), String> {
    let mut flags = LogFlags {
        tail: -1,
        ..Default::default()
    };
    let mut rest = Vec::new();
    let bool_value = |name: &str, v: Option<&str>| -> Result<bool, String> {
        match v {
            None | Some("true") => Ok(true),
            Some("false") => Ok(false),
            Some(other) => Err(format!(
                "invalid argument {other:?} for \"--{name}\" flag: strconv.ParseBool: parsing {other:?}: invalid syntax"
            )),
        }
    };
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        let (name, inline) = match a.strip_prefix("--") {
            Some(long) => match long.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (long.to_string(), None),
            },
            None => match a.as_str() {
                "-p" => ("previous".to_string(), None),
                "-f" => ("follow".to_string(), None),
                _ => {
                    rest.push(a.clone());
                    continue;
                }
            },
        };
        match name.as_str() {
            "previous" => flags.previous = bool_value(&name, inline.as_deref())?,
            "timestamps" => flags.timestamps = bool_value(&name, inline.as_deref())?,
            "follow" => flags.follow = bool_value(&name, inline.as_deref())?,
            "all-containers" => flags.all_containers = bool_value(&name, inline.as_deref())?,
            "tail" => {
                let v = match inline {
                    Some(v) => v,
                    None => {
                        let v = args
                            .get(i)
                            .cloned()
                            .ok_or_else(|| "flag needs an argument: --tail".to_string())?;
                        i += 1;
                        v
                    }
                };
                flags.tail = v.parse().map_err(|_| {
                    format!("invalid argument {v:?} for \"--tail\" flag: strconv.ParseInt: parsing {v:?}: invalid syntax")
                })?;
            }
            _ => rest.push(a.clone()),
        }
    }
    Ok((rest, flags))
}

/// `podcmd.AllContainerNames`: `a, b, init (init)`.
fn all_container_names(pod: &Object) -> String {
    let names = |k: &str, suffix: &str| -> Vec<String> {
        pod["spec"][k]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["name"].as_str().map(|n| format!("{n}{suffix}")))
            .collect()
    };
    let mut all = names("containers", "");
    all.extend(names("ephemeralContainers", " (ephem)"));
    all.extend(names("initContainers", " (init)"));
    all.join(", ")
}

fn has_container(pod: &Object, name: &str) -> bool {
    ["containers", "initContainers", "ephemeralContainers"]
        .iter()
        .flat_map(|k| pod["spec"][*k].as_array().cloned().unwrap_or_default())
        .any(|c| c["name"] == name)
}

pub fn logs(ctx: &mut Ctx<'_>, args: &[String], flags: &LogFlags) -> Result<(), String> {
    let selector = ctx.flags.value("selector").map(str::to_string);
    let inline_container = match (args, &selector) {
        ([], Some(_)) | ([_], None) => None,
        ([_, c], None) => Some(c.clone()),
        ([_, ..], Some(_)) => {
            return Err("error: only a selector (-l) or a POD name is allowed\nSee 'kubectl logs -h' for help and examples".into());
        }
        _ => return Err(USAGE.into()),
    };
    let named = ctx.flags.value("container").map(str::to_string);
    if inline_container.is_some() && named.is_some() {
        return Err("error: only one of -c or an inline [CONTAINER] arg is allowed\nSee 'kubectl logs -h' for help and examples".into());
    }
    let container = inline_container.or(named);
    let Some(selector) = selector else {
        let pod = find_pod(ctx, &args[0])?;
        return pod_logs(ctx, &pod, container, flags);
    };
    // With a selector: every matching pod, the last 10 lines of each unless --tail says.
    let mut flags = flags.clone();
    if flags.tail < 0 {
        flags.tail = 10;
    }
    let pods = for_kind("v1", "Pod").expect("pods");
    let ns = ctx.namespace.clone();
    let list = ctx
        .request(Verb::List, pods)
        .namespace(Some(&ns))
        .labels(Some(&selector));
    let list = ctx.send(&list).map_err(|e| format_error(&e, ""))?;
    let items = list["items"].as_array().cloned().unwrap_or_default();
    if items.is_empty() {
        ctx.err
            .push_str(&format!("No resources found in {ns} namespace.\n"));
    }
    for pod in items {
        pod_logs(ctx, &pod, container.clone(), &flags)?;
    }
    Ok(())
}

/// The logs of one pod: the container kubectl picks, then `pods/log`.
fn pod_logs(
    ctx: &mut Ctx<'_>,
    pod: &Object,
    container: Option<String>,
    flags: &LogFlags,
) -> Result<(), String> {
    let pod = pod.clone();
    let mut containers = Vec::new();
    match container {
        Some(c) => containers.push(c),
        None if flags.all_containers => {
            for k in ["initContainers", "containers"] {
                for c in pod["spec"][k].as_array().into_iter().flatten() {
                    if let Some(n) = c["name"].as_str() {
                        containers.push(n.to_string());
                    }
                }
            }
        }
        None => {
            let annotated = meta::annotations(&pod)
                .and_then(|a| a.get("kubectl.kubernetes.io/default-container"))
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(str::to_string);
            let chosen = match annotated {
                Some(d) if has_container(&pod, &d) => Some(d),
                Some(d) => {
                    ctx.err.push_str(&format!(
                        "Default container name {d:?} not found in pod {}\n",
                        meta::name(&pod)
                    ));
                    None
                }
                None => None,
            };
            let chosen = match chosen {
                Some(c) => c,
                None => {
                    let first = pod["spec"]["containers"][0]["name"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string();
                    let count = |k: &str| pod["spec"][k].as_array().map_or(0, Vec::len);
                    if count("containers") > 1
                        || count("initContainers") > 0
                        || count("ephemeralContainers") > 0
                    {
                        ctx.err.push_str(&format!(
                            "Defaulted container {first:?} out of: {}\n",
                            all_container_names(&pod)
                        ));
                    }
                    first
                }
            };
            containers.push(chosen);
        }
    }
    for c in &containers {
        if !has_container(&pod, c) {
            return Err(format!(
                "error: container {c} is not valid for pod {}",
                meta::name(&pod)
            ));
        }
    }
    for c in containers {
        let mut options = json!({"kind": "PodLogOptions", "apiVersion": "v1", "container": c});
        let mut query = vec![format!("container={c}")];
        if flags.follow {
            options["follow"] = json!(true);
            query.push("follow=true".into());
        }
        if flags.previous {
            options["previous"] = json!(true);
            query.push("previous=true".into());
        }
        if flags.tail >= 0 {
            options["tailLines"] = json!(flags.tail);
            query.push(format!("tailLines={}", flags.tail));
        }
        if flags.timestamps {
            options["timestamps"] = json!(true);
            query.push("timestamps=true".into());
        }
        let ns = meta::namespace(&pod).unwrap_or("default").to_string();
        let name = meta::name(&pod).to_string();
        let req = ctx
            .request(Verb::Get, for_kind("v1", "Pod").expect("pods"))
            .namespace(Some(&ns))
            .name(&name)
            .subresource("log")
            .body(options);
        let now = ctx.cluster.now();
        ctx.cluster.trace.push(
            Record::new(
                now,
                Component::Kubectl,
                "request",
                format!("{}?{}", req.line(), query.join("&")),
            )
            .peer("kube-apiserver")
            .object(format!("Pod {ns}/{name}")),
        );
        match ctx.cluster.request(&req) {
            Ok(body) => ctx.out.push_str(body.as_str().unwrap_or_default()),
            Err(e) => return Err(format_error(&e, "")),
        }
    }
    Ok(())
}

/// The pod a `logs` argument names: `NAME` and `pod/NAME` directly; a workload or Service by
/// its selector, taking the most active of its pods as kubectl's `GetFirstPod` does.
fn find_pod(ctx: &mut Ctx<'_>, arg: &str) -> Result<Object, String> {
    let (typed, name) = match arg.split_once('/') {
        Some((t, n)) => (t.to_string(), n.to_string()),
        None => ("pods".to_string(), arg.to_string()),
    };
    let info = ctx.resolve(&typed)?;
    let ns = ctx.ns_for(info);
    let req = ctx
        .request(Verb::Get, info)
        .namespace(ns.as_deref())
        .name(&name);
    let obj = ctx.send(&req).map_err(|e| format_error(&e, ""))?;
    if info.kind == "Pod" {
        return Ok(obj);
    }
    let selector = match info.kind {
        "Service" => obj["spec"]["selector"]
            .as_object()
            .filter(|m| !m.is_empty())
            .map(|m| {
                m.iter()
                    .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
                    .collect::<Vec<_>>()
                    .join(",")
            }),
        "Deployment"
        | "ReplicaSet"
        | "StatefulSet"
        | "DaemonSet"
        | "Job"
        | "ReplicationController" => {
            let sel = &obj["spec"]["selector"];
            if info.kind == "ReplicationController" {
                sel.as_object().map(|m| {
                    m.iter()
                        .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
                        .collect::<Vec<_>>()
                        .join(",")
                })
            } else {
                Selector::from_label_selector(Some(sel))
                    .ok()
                    .map(|s| s.to_string_form())
            }
        }
        _ => {
            return Err(format!(
                "error: cannot get the logs from *v1.{}: selector for *v1.{} not implemented",
                info.kind, info.kind
            ));
        }
    };
    let Some(selector) = selector else {
        return Err(format!(
            "error: cannot get the logs from *v1.{}: selector for *v1.{} not implemented",
            info.kind, info.kind
        ));
    };
    let pods = for_kind("v1", "Pod").expect("pods");
    let list = ctx
        .request(Verb::List, pods)
        .namespace(Some(&ctx.namespace.clone()))
        .labels(Some(&selector));
    let list = ctx.send(&list).map_err(|e| format_error(&e, ""))?;
    let mut items: Vec<Object> = list["items"].as_array().cloned().unwrap_or_default();
    if items.is_empty() {
        // kubectl waits `--pod-running-timeout` (20 s) for one to appear.
        return Err("error: timed out waiting for the condition".into());
    }
    // `sort.Reverse(podutils.ActivePods)`: assigned, running, ready (longest), fewest
    // restarts, oldest first.
    let rank = |p: &Object| {
        let assigned = p.lookup("/spec/nodeName").is_some();
        let phase = match p.lookup("/status/phase").and_then(Value::as_str) {
            Some("Running") => 2,
            Some("Unknown") => 1,
            _ => 0,
        };
        let ready = p
            .lookup("/status/conditions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .find(|c| c["type"] == "Ready");
        let is_ready = ready.is_some_and(|c| c["status"] == "True");
        let ready_since = ready
            .and_then(|c| c["lastTransitionTime"].as_str())
            .unwrap_or("")
            .to_string();
        let restarts: i64 = p
            .lookup("/status/containerStatuses")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|c| c["restartCount"].as_i64())
            .sum();
        let created = p
            .lookup("/metadata/creationTimestamp")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        (
            std::cmp::Reverse(assigned),
            std::cmp::Reverse(phase),
            std::cmp::Reverse(is_ready),
            ready_since,
            restarts,
            created,
            meta::name(p).to_string(),
        )
    };
    crate::api::sorting::sort_by_key(&mut items, &|x| rank(x));
    let n = items.len();
    let first = items.swap_remove(0);
    if n > 1 {
        ctx.err.push_str(&format!(
            "Found {n} pods, using pod/{}\n",
            meta::name(&first)
        ));
    }
    Ok(first)
}
