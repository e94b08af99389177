//! `kubectl create <kind> NAME ...`: the generators that build an object from flags.

use super::{format_error, kind_name, Ctx};
use crate::api::resources;
use crate::api::value::{json, Map, Value};
use crate::apiserver::Verb;

fn literal_map(ctx: &Ctx<'_>) -> Result<Map, String> {
    let mut data = Map::new();
    for lit in ctx.flags.values("from-literal") {
        let (k, v) = lit
            .split_once('=')
            .ok_or_else(|| format!("error: invalid literal source {lit}, expected key=value"))?;
        data.insert(k.to_string(), json!(v));
    }
    Ok(data)
}

fn subjects(ctx: &Ctx<'_>) -> Result<Vec<Value>, String> {
    let mut s = Vec::new();
    for u in ctx.flags.list("user") {
        s.push(json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": u}));
    }
    for g in ctx.flags.list("group") {
        s.push(json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "Group", "name": g}));
    }
    for sa in ctx.flags.list("serviceaccount") {
        let (ns, name) = sa.split_once(':').ok_or_else(|| {
            format!("error: serviceaccount must be <namespace>:<name>, got {sa:?}")
        })?;
        s.push(json!({"kind": "ServiceAccount", "name": name, "namespace": ns}));
    }
    Ok(s)
}

fn rules(ctx: &mut Ctx<'_>) -> Result<Vec<Value>, String> {
    let verbs = ctx.flags.list("verb");
    if verbs.is_empty() {
        return Err("error: at least one verb must be specified".into());
    }
    let mut rules = Vec::new();
    for r in ctx.flags.list("resource") {
        let (res, group) = match resources::lookup(&r) {
            Some(info) => (info.plural.to_string(), info.group.to_string()),
            None => match r.split_once('.') {
                Some((res, g)) => (res.to_string(), g.to_string()),
                None => {
                    return Err(format!(
                        "error: the server doesn't have a resource type {r:?}"
                    ))
                }
            },
        };
        let mut rule = json!({"apiGroups": [group], "resources": [res], "verbs": verbs});
        let names = ctx.flags.list("resource-name");
        if !names.is_empty() {
            rule["resourceNames"] = json!(names);
        }
        rules.push(rule);
    }
    if rules.is_empty() {
        return Err("error: at least one resource must be specified".into());
    }
    Ok(rules)
}

pub fn create(ctx: &mut Ctx<'_>, args: &[String]) -> Result<(), String> {
    let what = args[0].as_str();
    let name = args.get(1).cloned().ok_or_else(|| format!("error: exactly one NAME is required, got 0\nSee 'kubectl create {what} -h' for help and examples"))?;
    let ns = ctx.namespace.clone();
    let (kind, api_version, obj) = match what {
        "deployment" | "deploy" => {
            let image = ctx
                .flags
                .value("image")
                .ok_or("error: required flag(s) \"image\" not set")?
                .to_string();
            let replicas: i64 = ctx
                .flags
                .value("replicas")
                .unwrap_or("1")
                .parse()
                .map_err(|_| "error: invalid argument for \"--replicas\" flag")?;
            let container = image
                .rsplit('/')
                .next()
                .unwrap_or(&image)
                .split([':', '@'])
                .next()
                .unwrap_or("app")
                .to_string();
            let mut c = json!({"name": container, "image": image, "resources": {}});
            if let Some(p) = ctx.flags.value("port") {
                c["ports"] = json!([{"containerPort": p.parse::<i64>().map_err(|_| "error: invalid argument for \"--port\" flag")?}]);
            }
            (
                "Deployment",
                "apps/v1",
                json!({
                    "metadata": {"name": name, "labels": {"app": name}},
                    "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": name}}, "strategy": {},
                             "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [c]}}},
                    "status": {}
                }),
            )
        }
        "namespace" | "ns" => (
            "Namespace",
            "v1",
            json!({"metadata": {"name": name}, "spec": {}, "status": {}}),
        ),
        "serviceaccount" | "sa" => ("ServiceAccount", "v1", json!({"metadata": {"name": name}})),
        "configmap" | "cm" => (
            "ConfigMap",
            "v1",
            json!({"metadata": {"name": name}, "data": literal_map(ctx)?}),
        ),
        "secret" => {
            if args.get(1).map(String::as_str) != Some("generic") {
                return Err("error: only `kubectl create secret generic NAME --from-literal=k=v` is supported".into());
            }
            let name = args
                .get(2)
                .cloned()
                .ok_or("error: exactly one NAME is required, got 0")?;
            let data: Map = literal_map(ctx)?
                .into_iter()
                .map(|(k, v)| {
                    (
                        k,
                        json!(crate::base64::encode(v.as_str().unwrap_or("").as_bytes())),
                    )
                })
                .collect();
            (
                "Secret",
                "v1",
                json!({"metadata": {"name": name}, "type": "Opaque", "data": data}),
            )
        }
        "role" => (
            "Role",
            "rbac.authorization.k8s.io/v1",
            json!({"metadata": {"name": name}, "rules": rules(ctx)?}),
        ),
        "clusterrole" => (
            "ClusterRole",
            "rbac.authorization.k8s.io/v1",
            json!({"metadata": {"name": name}, "rules": rules(ctx)?}),
        ),
        "rolebinding" | "clusterrolebinding" => {
            let (rk, rn) = match (ctx.flags.value("role"), ctx.flags.value("clusterrole")) {
                (Some(r), None) if what == "rolebinding" => ("Role", r.to_string()),
                (None, Some(r)) => ("ClusterRole", r.to_string()),
                _ => {
                    return Err(
                        "error: exactly one of clusterrole or role must be specified".to_string(),
                    )
                }
            };
            let kind = if what == "rolebinding" {
                "RoleBinding"
            } else {
                "ClusterRoleBinding"
            };
            (
                kind,
                "rbac.authorization.k8s.io/v1",
                json!({
                    "metadata": {"name": name},
                    "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": rk, "name": rn},
                    "subjects": subjects(ctx)?
                }),
            )
        }
        "quota" | "resourcequota" => {
            let mut hard = Map::new();
            for kv in ctx.flags.list("hard") {
                let (k, v) = kv.split_once('=').ok_or_else(|| {
                    format!("error: invalid --hard {kv:?}, expected resource=quantity")
                })?;
                hard.insert(k.to_string(), json!(v));
            }
            (
                "ResourceQuota",
                "v1",
                json!({"metadata": {"name": name}, "spec": {"hard": hard}}),
            )
        }
        "service" | "svc" => {
            let ty = match args.get(1).map(String::as_str) {
                Some("clusterip") => "ClusterIP",
                Some("nodeport") => "NodePort",
                Some("loadbalancer") => "LoadBalancer",
                _ => return Err("error: use `kubectl create service clusterip|nodeport|loadbalancer NAME --tcp=PORT:TARGET`".into()),
            };
            let name = args
                .get(2)
                .cloned()
                .ok_or("error: exactly one NAME is required, got 0")?;
            let mut ports = Vec::new();
            for t in ctx.flags.list("tcp") {
                let (p, target) = t.split_once(':').unwrap_or((&t, &t));
                let port: i64 = p
                    .parse()
                    .map_err(|_| format!("error: invalid port {p:?}"))?;
                let target: i64 = target
                    .parse()
                    .map_err(|_| format!("error: invalid target port {target:?}"))?;
                ports.push(json!({"name": format!("{port}-{target}"), "port": port, "protocol": "TCP", "targetPort": target}));
            }
            (
                "Service",
                "v1",
                json!({
                    "metadata": {"name": name, "labels": {"app": name}},
                    "spec": {"type": ty, "selector": {"app": name}, "ports": ports}
                }),
            )
        }
        other => {
            return Err(format!(
            "error: unknown resource {other:?} for `kubectl create`; try `kubectl create -f FILE`"
        ))
        }
    };
    let info = resources::for_kind(api_version, kind).expect("generator kinds are served");
    let mut obj = obj;
    obj["apiVersion"] = json!(api_version);
    obj["kind"] = json!(kind);
    let ns = info.namespaced.then_some(ns);
    let req = ctx
        .request(Verb::Create, info)
        .namespace(ns.as_deref())
        .body(obj);
    match ctx.send(&req) {
        Ok(created) => {
            ctx.out.push_str(&format!(
                "{} created\n",
                kind_name(info, crate::api::meta::name(&created))
            ));
            Ok(())
        }
        Err(e) if e.reason == "Invalid" => Err(format_error(&e, "")),
        Err(e) => Err(format!(
            "error: failed to create {}: {}",
            what_name(what),
            e.message
        )),
    }
}

/// The noun kubectl's generators use in `failed to create <noun>`.
fn what_name(what: &str) -> &str {
    match what {
        "deploy" => "deployment",
        "ns" => "namespace",
        "sa" => "serviceaccount",
        "cm" => "configmap",
        "svc" => "service",
        w => w,
    }
}
