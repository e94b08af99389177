//! `kubectl get`, `kubectl describe` and `kubectl auth can-i`.

use super::{format_error, printers, Ctx};
use crate::api::json::JsonPointer;
use crate::api::value::Value;
use crate::api::{meta, resources, Object, ResourceInfo};
use crate::apiserver::Verb;

/// `TYPE NAME...`, `TYPE/NAME...` or `TYPE,TYPE` into (resource, names) groups.
pub fn targets(
    ctx: &mut Ctx<'_>,
    args: &[String],
) -> Result<Vec<(&'static ResourceInfo, Vec<String>)>, String> {
    if args.is_empty() {
        return Err("error: you must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.".into());
    }
    let mut out: Vec<(&'static ResourceInfo, Vec<String>)> = Vec::new();
    if args[0].contains('/') {
        for a in args {
            let (t, n) = a.split_once('/').ok_or_else(|| "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'".to_string())?;
            let info = ctx.resolve(t)?;
            match out.iter_mut().find(|(i, _)| std::ptr::eq(*i, info)) {
                Some((_, names)) => names.push(n.to_string()),
                None => out.push((info, vec![n.to_string()])),
            }
        }
        return Ok(out);
    }
    let types: Vec<String> = if args[0] == "all" {
        vec![
            "pods".into(),
            "services".into(),
            "daemonsets".into(),
            "deployments".into(),
            "replicasets".into(),
            "statefulsets".into(),
            "jobs".into(),
        ]
    } else {
        args[0].split(',').map(str::to_string).collect()
    };
    for t in types {
        let info = ctx.resolve(&t)?;
        out.push((info, args[1..].to_vec()));
    }
    Ok(out)
}

pub fn get(ctx: &mut Ctx<'_>, args: &[String]) -> Result<(), String> {
    let groups = targets(ctx, args)?;
    let output = ctx.flags.value("output").unwrap_or("").to_string();
    let all_ns = ctx.flags.switch("all-namespaces");
    let now = ctx.cluster.now();
    let mut found: Vec<(&'static ResourceInfo, Vec<Object>)> = Vec::new();
    let multiple_types = groups.len() > 1;
    for (info, names) in groups {
        let ns = if all_ns { None } else { ctx.ns_for(info) };
        let mut objs = Vec::new();
        if names.is_empty() {
            let mut req = ctx
                .request(Verb::List, info)
                .namespace(ns.as_deref())
                .labels(ctx.flags.value("selector"));
            req.field_selector = ctx.flags.value("field-selector").map(str::to_string);
            match ctx.send(&req) {
                Ok(list) => objs = list["items"].as_array().cloned().unwrap_or_default(),
                Err(e) => {
                    ctx.fail(&format_error(&e, ""));
                    continue;
                }
            }
            if info.kind == "Event" {
                crate::api::sorting::sort_by_cached_key(&mut objs, &|x| event_time(x));
            }
        } else {
            for n in names {
                let req = ctx
                    .request(Verb::Get, info)
                    .namespace(ns.as_deref())
                    .name(&n);
                match ctx.send(&req) {
                    Ok(o) => objs.push(o),
                    Err(e) => ctx.fail(&format_error(&e, "")),
                }
            }
        }
        found.push((info, objs));
    }
    let total: usize = found.iter().map(|(_, o)| o.len()).sum();
    match output.as_str() {
        "yaml" | "json" => {
            let items: Vec<Object> = found.into_iter().flat_map(|(_, o)| o).collect();
            let single = items.len() == 1 && !args.is_empty() && (args.len() > 1 || args[0].contains('/')) && ctx.code == 0;
            let value = if single { items.into_iter().next().expect("one") } else { printers::as_list(items) };
            if total == 0 && ctx.code != 0 {
                return Ok(());
            }
            ctx.out.push_str(&if output == "yaml" { printers::to_yaml(&value) } else { printers::to_json(&value) });
        }
        "name" => {
            for (info, objs) in &found {
                for o in objs {
                    ctx.out.push_str(&printers::name_of(info, o));
                    ctx.out.push('\n');
                }
            }
        }
        "" | "wide" => {
            if total == 0 {
                if ctx.code == 0 {
                    let ns = (!all_ns).then(|| ctx.namespace.clone());
                    let ns = found.iter().all(|(i, _)| i.namespaced).then_some(ns).flatten();
                    ctx.err.push_str(&printers::no_resources_found(ns.as_deref()));
                    ctx.err.push('\n');
                }
                return Ok(());
            }
            let opts = printers::TableOptions {
                wide: output == "wide",
                with_namespace: all_ns,
                show_labels: ctx.flags.switch("show-labels"),
                no_headers: ctx.flags.switch("no-headers"),
                kind_prefix: None,
            };
            let mut first = true;
            for (info, objs) in found.iter().filter(|(_, o)| !o.is_empty()) {
                if !first {
                    ctx.out.push('\n');
                }
                first = false;
                let opts = printers::TableOptions {
                    kind_prefix: multiple_types.then(|| super::kind_string(info)),
                    ..opts.clone()
                };
                ctx.out.push_str(&printers::print_table(info, objs, &opts, now));
            }
        }
        other => return Err(format!("error: unable to match a printer suitable for the output format {other:?}, allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml")),
    }
    Ok(())
}

/// When an Event happened, as `kubectl get events` orders them (virtual ms).
pub fn event_time(e: &Object) -> u64 {
    ["lastTimestamp", "eventTime", "firstTimestamp"]
        .iter()
        .find_map(|k| {
            e.get(*k)
                .and_then(Value::as_str)
                .and_then(crate::kernel::time::parse_rfc3339)
        })
        .or_else(|| {
            e.lookup("/metadata/creationTimestamp")
                .and_then(Value::as_str)
                .and_then(crate::kernel::time::parse_rfc3339)
        })
        .unwrap_or(0)
}

pub fn describe(ctx: &mut Ctx<'_>, args: &[String]) -> Result<(), String> {
    let groups = targets(ctx, args)?;
    let now = ctx.cluster.now();
    let events_info = resources::for_kind("v1", "Event").expect("events");
    let mut first = true;
    for (info, names) in groups {
        let ns = ctx.ns_for(info);
        let objs = if names.is_empty() {
            let req = ctx
                .request(Verb::List, info)
                .namespace(ns.as_deref())
                .labels(ctx.flags.value("selector"));
            match ctx.send(&req) {
                Ok(l) => l["items"].as_array().cloned().unwrap_or_default(),
                Err(e) => return Err(format_error(&e, "")),
            }
        } else {
            let mut v = Vec::new();
            for n in names {
                let req = ctx
                    .request(Verb::Get, info)
                    .namespace(ns.as_deref())
                    .name(&n);
                match ctx.send(&req) {
                    Ok(o) => v.push(o),
                    Err(e) => ctx.fail(&format_error(&e, "")),
                }
            }
            v
        };
        for obj in objs {
            let ev_ns = meta::namespace(&obj).unwrap_or("default").to_string();
            let mut req = ctx.request(Verb::List, events_info).namespace(Some(&ev_ns));
            req.field_selector = Some(format!(
                "involvedObject.name={},involvedObject.uid={}",
                meta::name(&obj),
                meta::uid(&obj)
            ));
            // Events in API order, as kubectl receives them (the describer sorts them).
            let events = ctx
                .send(&req)
                .ok()
                .and_then(|l| l["items"].as_array().cloned())
                .unwrap_or_default();
            let related = related_objects(ctx, info, &obj);
            let r = printers::Related {
                replica_sets: &related.replica_sets,
                pods: &related.pods,
                endpoint_slices: &related.endpoint_slices,
                lease: related.lease.as_ref(),
                resource_quotas: &related.resource_quotas,
                limit_ranges: &related.limit_ranges,
            };
            if !first {
                ctx.out.push_str("\n\n");
            }
            first = false;
            ctx.out
                .push_str(&printers::describe_with(info, &obj, &r, &events, now));
            if !ctx.out.ends_with('\n') {
                ctx.out.push('\n');
            }
        }
    }
    Ok(())
}

#[derive(Default)]
struct RelatedObjects {
    replica_sets: Vec<Object>,
    pods: Vec<Object>,
    endpoint_slices: Vec<Object>,
    lease: Option<Object>,
    resource_quotas: Vec<Object>,
    limit_ranges: Vec<Object>,
}

/// What kubectl's describers fetch besides the object itself.
fn related_objects(ctx: &mut Ctx<'_>, info: &ResourceInfo, obj: &Object) -> RelatedObjects {
    let ns = meta::namespace(obj).map(str::to_string);
    let list = |ctx: &mut Ctx<'_>,
                kind: (&str, &str),
                ns: Option<&str>,
                field: Option<String>|
     -> Vec<Object> {
        let res = resources::for_kind(kind.0, kind.1).expect("served");
        let mut req = ctx.request(Verb::List, res).namespace(ns);
        req.field_selector = field;
        ctx.send(&req)
            .ok()
            .and_then(|l| l["items"].as_array().cloned())
            .unwrap_or_default()
    };
    let mut r = RelatedObjects::default();
    match info.kind {
        "Deployment" => r.replica_sets = list(ctx, ("apps/v1", "ReplicaSet"), ns.as_deref(), None),
        "ReplicaSet" | "StatefulSet" | "DaemonSet" | "Job" => {
            r.pods = list(ctx, ("v1", "Pod"), ns.as_deref(), None)
        }
        "Service" => {
            r.endpoint_slices = list(
                ctx,
                ("discovery.k8s.io/v1", "EndpointSlice"),
                ns.as_deref(),
                None,
            )
        }
        "Node" => {
            r.pods = list(
                ctx,
                ("v1", "Pod"),
                None,
                Some(format!("spec.nodeName={}", meta::name(obj))),
            );
            let lease = resources::for_kind("coordination.k8s.io/v1", "Lease").expect("leases");
            let req = ctx
                .request(Verb::Get, lease)
                .namespace(Some("kube-node-lease"))
                .name(meta::name(obj));
            r.lease = ctx.send(&req).ok();
        }
        "Namespace" => {
            r.resource_quotas = list(ctx, ("v1", "ResourceQuota"), Some(meta::name(obj)), None);
            r.limit_ranges = list(ctx, ("v1", "LimitRange"), Some(meta::name(obj)), None);
        }
        _ => {}
    }
    r
}

/// `kubectl auth can-i VERB RESOURCE [NAME]`: a SelfSubjectAccessReview.
pub fn auth(ctx: &mut Ctx<'_>, args: &[String]) -> Result<(), String> {
    if args.first().map(String::as_str) != Some("can-i") {
        return Err("error: only `kubectl auth can-i VERB RESOURCE` is supported".into());
    }
    let verb = args
        .get(1)
        .ok_or(
            "error: you must specify two arguments: verb resource or verb resource/resourceName.",
        )?
        .clone();
    let target = args
        .get(2)
        .ok_or(
            "error: you must specify two arguments: verb resource or verb resource/resourceName.",
        )?
        .clone();
    let (typed, name) = match target.split_once('/') {
        Some((t, n)) => (t.to_string(), n.to_string()),
        None => (target.clone(), args.get(3).cloned().unwrap_or_default()),
    };
    let (typed, sub) = match typed.split_once('/') {
        Some((t, s)) => (t.to_string(), s.to_string()),
        None => (typed, String::new()),
    };
    let info = ctx.resolve(&typed)?;
    let ns = if ctx.flags.switch("all-namespaces") {
        None
    } else {
        ctx.ns_for(info)
    };
    let mut req = ctx.request(Verb::Create, info).namespace(ns.as_deref());
    if !name.is_empty() {
        req = req.name(&name);
    }
    if !sub.is_empty() {
        req = req.subresource(&sub);
    }
    let now = ctx.cluster.now();
    ctx.cluster.trace.push(
        crate::trace::Record::new(
            now,
            crate::trace::Component::Kubectl,
            "request",
            "POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
        )
        .peer("kube-apiserver"),
    );
    let allowed = {
        let cluster = &mut *ctx.cluster;
        let t = cluster.now();
        cluster
            .api
            .access_review(t, &req, &verb, &mut cluster.trace)
            .map_err(|e| format_error(&e, ""))?
    };
    if allowed {
        ctx.out.push_str("yes\n");
    } else {
        ctx.out.push_str("no\n");
        ctx.code = 1;
    }
    Ok(())
}
