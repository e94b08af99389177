//! The commands that change objects: delete, scale, set image, patch, label, annotate,
//! cordon, uncordon and drain.

use super::{format_error, get::targets, kind_name, kind_string, Ctx};
use crate::api::json::JsonPointer;
use crate::api::value::{json, Value};
use crate::api::{meta, resources, Object, ResourceInfo};
use crate::apiserver::{PatchType, Propagation, Verb};

/// Objects named by `TYPE NAME...`, `TYPE/NAME`, `-l` or `--all`, fetched or listed.
fn select(
    ctx: &mut Ctx<'_>,
    args: &[String],
) -> Result<Vec<(&'static ResourceInfo, String)>, String> {
    let mut out = Vec::new();
    for (info, names) in targets(ctx, args)? {
        if names.is_empty() {
            if ctx.flags.value("selector").is_none() && !ctx.flags.switch("all") {
                return Err("error: resource(s) were provided, but no name was specified".into());
            }
            let ns = ctx.ns_for(info);
            let req = ctx
                .request(Verb::List, info)
                .namespace(ns.as_deref())
                .labels(ctx.flags.value("selector"));
            let list = ctx.send(&req).map_err(|e| format_error(&e, ""))?;
            for o in list["items"].as_array().cloned().unwrap_or_default() {
                out.push((info, meta::name(&o).to_string()));
            }
        } else {
            out.extend(names.into_iter().map(|n| (info, n)));
        }
    }
    Ok(out)
}

pub fn delete(ctx: &mut Ctx<'_>, args: &[String]) -> Result<(), String> {
    let propagation = match ctx.flags.value("cascade").unwrap_or("background") {
        "background" | "true" => Propagation::Background,
        "foreground" => Propagation::Foreground,
        "orphan" | "false" => Propagation::Orphan,
        other => return Err(format!("error: invalid cascade value ({other}). Must be \"background\", \"foreground\", or \"orphan\"")),
    };
    let grace =
        match (ctx.flags.switch("now"), ctx.flags.value("grace-period")) {
            (true, _) => Some(1),
            (_, Some(g)) => Some(g.parse::<i64>().map_err(|_| {
                format!("error: invalid argument {g:?} for \"--grace-period\" flag")
            })?),
            _ => None,
        };
    let grace = if ctx.flags.switch("force") {
        Some(0)
    } else {
        grace
    };
    if ctx.flags.switch("force") && grace == Some(0) {
        ctx.err.push_str("Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n");
    }
    let items: Vec<(&'static ResourceInfo, String)> = if ctx.flags.value("filename").is_some() {
        let (_, objs) = super::apply::read_objects(ctx)?;
        objs.into_iter()
            .map(|(o, i)| (i, meta::name(&o).to_string()))
            .collect()
    } else {
        select(ctx, args)?
    };
    if items.is_empty() {
        let ns = ctx.namespace.clone();
        ctx.err
            .push_str(&super::printers::no_resources_found(Some(&ns)));
        ctx.err.push('\n');
    }
    for (info, name) in items {
        let ns = ctx.ns_for(info);
        let mut req = ctx
            .request(Verb::Delete, info)
            .namespace(ns.as_deref())
            .name(&name);
        req.propagation = propagation;
        req.grace_period_seconds = grace;
        match ctx.send(&req) {
            Ok(_) => {
                let what = format!(
                    "{} {}",
                    kind_string(info),
                    crate::api::error::go_quote(&name)
                );
                match &ns {
                    Some(ns) => ctx
                        .out
                        .push_str(&format!("{what} deleted from {ns} namespace\n")),
                    None => ctx.out.push_str(&format!("{what} deleted\n")),
                }
            }
            Err(e) => ctx.fail(&format_error(&e, "")),
        }
    }
    Ok(())
}

pub fn scale(ctx: &mut Ctx<'_>, args: &[String]) -> Result<(), String> {
    let replicas = ctx
        .flags
        .value("replicas")
        .ok_or("error: required flag(s) \"replicas\" not set")?
        .to_string();
    let n: i64 = replicas.parse().map_err(|_| format!("error: invalid argument {replicas:?} for \"--replicas\" flag: strconv.ParseInt: parsing {replicas:?}: invalid syntax"))?;
    if n < 0 {
        return Err("error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0".into());
    }
    for (info, name) in select(ctx, args)? {
        let ns = ctx.ns_for(info);
        let req = ctx
            .request(Verb::Patch(PatchType::Merge), info)
            .namespace(ns.as_deref())
            .name(&name)
            .subresource("scale")
            .body(json!({"spec": {"replicas": n}}));
        match ctx.send(&req) {
            Ok(_) => ctx
                .out
                .push_str(&format!("{} scaled\n", kind_name(info, &name))),
            Err(e) => ctx.fail(&format_error(&e, "")),
        }
    }
    Ok(())
}

/// `kubectl set image TYPE/NAME CONTAINER=IMAGE...`.
pub fn set(ctx: &mut Ctx<'_>, args: &[String]) -> Result<(), String> {
    if args.first().map(String::as_str) != Some("image") {
        return Err("error: only `kubectl set image` is supported".into());
    }
    let (objs, pairs): (Vec<String>, Vec<String>) =
        args[1..].iter().cloned().partition(|a| !a.contains('='));
    if pairs.is_empty() {
        return Err("error: at least one image update is required".into());
    }
    for (info, name) in select(ctx, &objs)? {
        let ns = ctx.ns_for(info);
        let get = ctx
            .request(Verb::Get, info)
            .namespace(ns.as_deref())
            .name(&name);
        let obj = ctx.send(&get).map_err(|e| format_error(&e, ""))?;
        let path = if info.kind == "Pod" {
            "/spec/containers"
        } else {
            "/spec/template/spec/containers"
        };
        let containers = obj
            .lookup(path)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let mut updates = Vec::new();
        for p in &pairs {
            let (c, image) = p.split_once('=').expect("partitioned on '='");
            if c == "*" {
                updates.extend(
                    containers
                        .iter()
                        .map(|x| json!({"name": x["name"], "image": image})),
                );
            } else if containers.iter().any(|x| x["name"] == c) {
                updates.push(json!({"name": c, "image": image}));
            } else {
                return Err(format!("error: unable to find container named {c:?}"));
            }
        }
        let body = if info.kind == "Pod" {
            json!({"spec": {"containers": updates}})
        } else {
            json!({"spec": {"template": {"spec": {"containers": updates}}}})
        };
        let req = ctx
            .request(Verb::Patch(PatchType::Strategic), info)
            .namespace(ns.as_deref())
            .name(&name)
            .body(body);
        match ctx.send(&req) {
            Ok(_) => ctx
                .out
                .push_str(&format!("{} image updated\n", kind_name(info, &name))),
            Err(e) => ctx.fail(&format_error(&e, "")),
        }
    }
    Ok(())
}

pub fn patch(ctx: &mut Ctx<'_>, args: &[String]) -> Result<(), String> {
    let body = ctx
        .flags
        .value("patch")
        .ok_or("error: must specify -p to patch")?
        .to_string();
    let pt = match ctx.flags.value("type").unwrap_or("strategic") {
        "strategic" => PatchType::Strategic,
        "merge" => PatchType::Merge,
        "json" => PatchType::Json,
        other => {
            return Err(format!(
                "error: --type must be one of [json merge strategic], not {other:?}"
            ))
        }
    };
    let patch: Value = serde_yaml::from_str::<Value>(&body)
        .map_err(|e| format!("error: unable to parse {body:?}: {e}"))?;
    for (info, name) in select(ctx, args)? {
        let ns = ctx.ns_for(info);
        let get = ctx
            .request(Verb::Get, info)
            .namespace(ns.as_deref())
            .name(&name);
        let before = ctx.send(&get).map_err(|e| format_error(&e, ""))?;
        let mut req = ctx
            .request(Verb::Patch(pt), info)
            .namespace(ns.as_deref())
            .name(&name)
            .body(patch.clone());
        req.subresource = None;
        match ctx.send(&req) {
            Ok(after) if meta::resource_version(&after) == meta::resource_version(&before) => ctx
                .out
                .push_str(&format!("{} patched (no change)\n", kind_name(info, &name))),
            Ok(_) => ctx
                .out
                .push_str(&format!("{} patched\n", kind_name(info, &name))),
            Err(e) => ctx.fail(&format_error(&e, "")),
        }
    }
    Ok(())
}

/// `kubectl label|annotate TYPE NAME key=value key-`.
pub fn label(ctx: &mut Ctx<'_>, args: &[String], field: &str) -> Result<(), String> {
    let mut objs = Vec::new();
    let mut changes = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if i > 0 && (a.contains('=') || a.ends_with('-')) {
            changes.push(a.clone());
        } else {
            objs.push(a.clone());
        }
    }
    if changes.is_empty() {
        return Err(format!(
            "error: at least one {} update is required",
            if field == "labels" {
                "label"
            } else {
                "annotation"
            }
        ));
    }
    let verb = if field == "labels" {
        "labeled"
    } else {
        "annotated"
    };
    for (info, name) in select(ctx, &objs)? {
        let ns = ctx.ns_for(info);
        let get = ctx
            .request(Verb::Get, info)
            .namespace(ns.as_deref())
            .name(&name);
        let obj = ctx.send(&get).map_err(|e| format_error(&e, ""))?;
        let mut map = crate::api::value::Map::new();
        for c in &changes {
            if let Some((k, v)) = c.split_once('=') {
                let existing = obj.lookup(&format!("/metadata/{field}/{}", k.replace('/', "~1")));
                if existing.is_some_and(|e| e != v) && !ctx.flags.switch("overwrite") {
                    return Err(format!(
                        "error: '{k}' already has a value ({}), and --overwrite is false",
                        existing.and_then(Value::as_str).unwrap_or("")
                    ));
                }
                map.insert(k.to_string(), json!(v));
            } else {
                map.insert(c.trim_end_matches('-').to_string(), Value::Null);
            }
        }
        let req = ctx
            .request(Verb::Patch(PatchType::Merge), info)
            .namespace(ns.as_deref())
            .name(&name)
            .body(json!({"metadata": {field: map}}));
        match ctx.send(&req) {
            Ok(after) if meta::resource_version(&after) == meta::resource_version(&obj) => ctx
                .out
                .push_str(&format!("{} not {verb}\n", kind_name(info, &name))),
            Ok(_) => ctx
                .out
                .push_str(&format!("{} {verb}\n", kind_name(info, &name))),
            Err(e) => ctx.fail(&format_error(&e, "")),
        }
    }
    Ok(())
}

fn node_info() -> &'static ResourceInfo {
    resources::for_kind("v1", "Node").expect("nodes")
}

fn set_unschedulable(ctx: &mut Ctx<'_>, node: &str, on: bool) -> Result<bool, String> {
    let info = node_info();
    let get = ctx.request(Verb::Get, info).name(node);
    let obj = ctx.send(&get).map_err(|e| format_error(&e, ""))?;
    let current = obj
        .lookup("/spec/unschedulable")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    if current == on {
        return Ok(false);
    }
    let body = if on {
        json!({"spec": {"unschedulable": true}})
    } else {
        json!({"spec": {"unschedulable": null}})
    };
    let req = ctx
        .request(Verb::Patch(PatchType::Strategic), info)
        .name(node)
        .body(body);
    ctx.send(&req).map_err(|e| format_error(&e, ""))?;
    Ok(true)
}

pub fn cordon(ctx: &mut Ctx<'_>, args: &[String], on: bool) -> Result<(), String> {
    let node = args
        .first()
        .ok_or("error: USAGE: cordon NODE [flags]")?
        .clone();
    let changed = set_unschedulable(ctx, &node, on)?;
    let word = if on { "cordoned" } else { "uncordoned" };
    ctx.out.push_str(&if changed {
        format!("node/{node} {word}\n")
    } else {
        format!("node/{node} already {word}\n")
    });
    Ok(())
}

/// `kubectl drain NODE`: cordon, then evict every pod on the node (DaemonSet pods need
/// `--ignore-daemonsets`; pods without a controller need `--force`).
pub fn drain(ctx: &mut Ctx<'_>, args: &[String]) -> Result<(), String> {
    let node = args
        .first()
        .ok_or("error: USAGE: drain NODE [flags]")?
        .clone();
    let changed = set_unschedulable(ctx, &node, true)?;
    ctx.out.push_str(&if changed {
        format!("node/{node} cordoned\n")
    } else {
        format!("node/{node} already cordoned\n")
    });
    let pods_info = resources::for_kind("v1", "Pod").expect("pods");
    let mut req = ctx.request(Verb::List, pods_info);
    req.field_selector = Some(format!("spec.nodeName={node}"));
    let list = ctx.send(&req).map_err(|e| format_error(&e, ""))?;
    let pods: Vec<Object> = list["items"].as_array().cloned().unwrap_or_default();
    let mut blockers = Vec::new();
    let mut ignored = Vec::new();
    let mut evict = Vec::new();
    for p in &pods {
        let owner = meta::controller_ref(p)
            .and_then(|r| r["kind"].as_str())
            .unwrap_or("");
        let id = format!(
            "{}/{}",
            meta::namespace(p).unwrap_or("default"),
            meta::name(p)
        );
        if owner == "DaemonSet" {
            if ctx.flags.switch("ignore-daemonsets") {
                ignored.push(id);
            } else {
                blockers.push((
                    "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore)",
                    id,
                ));
            }
        } else if owner.is_empty() && !ctx.flags.switch("force") {
            blockers.push((
                "cannot delete Pods that declare no controller (use --force to override)",
                id,
            ));
        } else {
            evict.push(p.clone());
        }
    }
    if !blockers.is_empty() {
        let mut by_reason: Vec<(&str, Vec<String>)> = Vec::new();
        for (r, id) in blockers {
            match by_reason.iter_mut().find(|(x, _)| *x == r) {
                Some((_, ids)) => ids.push(id),
                None => by_reason.push((r, vec![id])),
            }
        }
        let parts: Vec<String> = by_reason
            .iter()
            .map(|(r, ids)| format!("{r}: {}", ids.join(", ")))
            .collect();
        return Err(format!("error: unable to drain node {node:?} due to error: [{}], continuing command...\nThere are pending nodes to be drained:\n {node}\n{}", parts.join(", "), parts.join("\n")));
    }
    if !ignored.is_empty() {
        ctx.err.push_str(&format!(
            "Warning: ignoring DaemonSet-managed Pods: {}\n",
            ignored.join(", ")
        ));
    }
    for p in evict {
        let (ns, name) = (
            meta::namespace(&p).unwrap_or("default").to_string(),
            meta::name(&p).to_string(),
        );
        ctx.out.push_str(&format!("evicting pod {ns}/{name}\n"));
        let req = ctx
            .request(Verb::Delete, pods_info)
            .namespace(Some(&ns))
            .name(&name);
        match ctx.send(&req) {
            Ok(_) => ctx.out.push_str(&format!("pod/{name} evicted\n")),
            Err(e) => ctx.fail(&format_error(&e, "")),
        }
    }
    ctx.out.push_str(&format!("node/{node} drained\n"));
    Ok(())
}
