//! Core objects other than pods: Service, ConfigMap, Secret, Namespace, ResourceQuota,
//! LimitRange and Node (`pkg/apis/core/validation/validation.go`).

use super::meta::validate_labels;
use super::names::{self, NameRule};
use super::pod::{
    container_resource_name, port_num_or_name, protocol, quantity_value, resource_name,
};
use super::*;
use crate::api::quantity::Quantity;
use crate::json;
use std::collections::BTreeSet;

fn is_headless(spec: &Value) -> bool {
    str_at(spec, "clusterIP") == "None"
        || arr(spec, "clusterIPs").first().and_then(Value::as_str) == Some("None")
}

/// The cluster IPs as the service strategy normalizes them (`clusterIPs`, or `clusterIP`).
fn cluster_ips(spec: &Value) -> Vec<String> {
    let ips = strings(spec, "clusterIPs");
    if !ips.is_empty() {
        return ips;
    }
    match str_at(spec, "clusterIP") {
        "" => vec![],
        ip => vec![ip.to_string()],
    }
}

/// `ValidateService`.
pub(super) fn validate_service(svc: &Value) -> Errs {
    let mut errs = meta::validate_object_meta(svc, true, NameRule::Dns1035);
    let spec = field(svc, "spec");
    let p = Path::new("spec");
    let ty = str_at(spec, "type");
    let headless = is_headless(spec);
    let ports = arr(spec, "ports");
    if ports.is_empty() && !headless && ty != "ExternalName" {
        errs.push(required(&p.child("ports"), ""));
    }
    let ips = cluster_ips(spec);
    match ty {
        "LoadBalancer" | "NodePort" if headless => errs.push(invalid(
            &p.child("clusterIPs").index(0),
            json!(ips.first().cloned().unwrap_or_default()),
            &format!("may not be set to 'None' for {ty} services"),
        )),
        "ExternalName" => {
            if !ips.is_empty() {
                errs.push(forbidden(
                    &p.child("clusterIPs"),
                    "may not be set for ExternalName services",
                ));
            }
            if !arr(spec, "ipFamilies").is_empty() {
                errs.push(forbidden(
                    &p.child("ipFamilies"),
                    "may not be set for ExternalName services",
                ));
            }
            if present(spec, "ipFamilyPolicy") {
                errs.push(forbidden(
                    &p.child("ipFamilyPolicy"),
                    "may not be set for ExternalName services",
                ));
            }
            let cname = str_at(spec, "externalName").trim_end_matches('.');
            if cname.is_empty() {
                errs.push(required(&p.child("externalName"), ""));
            } else {
                for m in names::dns1123_subdomain(cname) {
                    errs.push(invalid(&p.child("externalName"), json!(cname), &m));
                }
            }
        }
        _ => {}
    }
    let mut port_names = BTreeSet::new();
    for (i, sp) in ports.iter().enumerate() {
        let pp = p.child("ports").index(i);
        let name = str_at(sp, "name");
        if ports.len() > 1 && name.is_empty() {
            errs.push(required(&pp.child("name"), ""));
        } else if !name.is_empty() {
            for m in names::dns1123_label(name) {
                errs.push(invalid(&pp.child("name"), json!(name), &m));
            }
            if !port_names.insert(name) {
                errs.push(duplicate(&pp.child("name"), json!(name)));
            }
        }
        let port = int_at(sp, "port").unwrap_or(0);
        for m in names::port_num(port) {
            errs.push(invalid(&pp.child("port"), json!(port), &m));
        }
        errs.extend(protocol(str_at(sp, "protocol"), &pp.child("protocol")));
        errs.extend(port_num_or_name(
            field(sp, "targetPort"),
            &pp.child("targetPort"),
        ));
        if let Some(ap) = opt_str(sp, "appProtocol") {
            for m in names::qualified_name(ap) {
                errs.push(invalid(&pp.child("appProtocol"), json!(ap), &m));
            }
        }
    }
    if present(spec, "selector") {
        errs.extend(validate_labels(
            field(spec, "selector"),
            &p.child("selector"),
        ));
    }
    let affinity = str_at(spec, "sessionAffinity");
    if affinity.is_empty() {
        errs.push(required(&p.child("sessionAffinity"), ""));
    } else if affinity != "ClientIP" && affinity != "None" {
        errs.push(not_supported(
            &p.child("sessionAffinity"),
            json!(affinity),
            &["ClientIP", "None"],
        ));
    }
    let cfg = field(spec, "sessionAffinityConfig");
    let cp = p.child("sessionAffinityConfig");
    if affinity == "ClientIP" {
        let timeout = get(cfg, &["clientIP", "timeoutSeconds"]);
        if cfg.is_null() {
            errs.push(required(&cp, "when session affinity type is ClientIP"));
        } else if field(cfg, "clientIP").is_null() {
            errs.push(required(
                &cp.child("clientIP"),
                "when session affinity type is ClientIP",
            ));
        } else if timeout.is_null() {
            errs.push(required(
                &cp.child("clientIP").child("timeoutSeconds"),
                "when session affinity type is ClientIP",
            ));
        } else {
            let t = timeout.as_i64().unwrap_or(0);
            if t <= 0 || t > 86400 {
                errs.push(invalid(
                    &cp.child("clientIP").child("timeoutSeconds"),
                    json!(t),
                    "must be greater than 0 and less than 86400",
                ));
            }
        }
    } else if affinity == "None" && !cfg.is_null() {
        errs.push(forbidden(
            &cp,
            "must not be set when session affinity is None",
        ));
    }
    for (i, ip) in ips.iter().enumerate() {
        if ip == "None" && i == 0 {
            continue;
        }
        for m in names::ip(ip) {
            errs.push(invalid(&p.child("clusterIPs").index(i), json!(ip), &m));
        }
    }
    for (i, ip) in strings(spec, "externalIPs").iter().enumerate() {
        for m in names::ip(ip) {
            errs.push(invalid(&p.child("externalIPs").index(i), json!(ip), &m));
        }
    }
    let types = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];
    if ty.is_empty() {
        errs.push(required(&p.child("type"), ""));
    } else if !types.contains(&ty) {
        errs.push(not_supported(&p.child("type"), json!(ty), &types));
    }
    if ty == "ClusterIP" {
        for (i, sp) in ports.iter().enumerate() {
            if int_at(sp, "nodePort").unwrap_or(0) != 0 {
                errs.push(forbidden(
                    &p.child("ports").index(i).child("nodePort"),
                    "may not be used when `type` is 'ClusterIP'",
                ));
            }
        }
    }
    let mut node_ports = BTreeSet::new();
    for (i, sp) in ports.iter().enumerate() {
        let np = int_at(sp, "nodePort").unwrap_or(0);
        if np != 0 && !node_ports.insert((str_at(sp, "protocol"), np)) {
            errs.push(duplicate(
                &p.child("ports").index(i).child("nodePort"),
                json!(np),
            ));
        }
    }
    let mut seen = BTreeSet::new();
    for (i, sp) in ports.iter().enumerate() {
        let key = (str_at(sp, "protocol"), int_at(sp, "port").unwrap_or(0));
        if !seen.insert(key) {
            // Go renders the internal core.ServicePort key, which has no JSON tags.
            errs.push(duplicate(
                &p.child("ports").index(i),
                json!({"Name": "", "Protocol": key.0, "AppProtocol": null, "Port": key.1, "TargetPort": 0, "NodePort": 0}),
            ));
        }
    }
    if !arr(spec, "loadBalancerSourceRanges").is_empty() && ty != "LoadBalancer" {
        errs.push(forbidden(
            &p.child("LoadBalancerSourceRanges"),
            "may only be used when `type` is 'LoadBalancer'",
        ));
    }
    if present(spec, "allocateLoadBalancerNodePorts") && ty != "LoadBalancer" {
        errs.push(forbidden(
            &p.child("allocateLoadBalancerNodePorts"),
            "may only be used when `type` is 'LoadBalancer'",
        ));
    }
    if ty == "LoadBalancer" && !present(spec, "allocateLoadBalancerNodePorts") {
        errs.push(required(&Path::new("allocateLoadBalancerNodePorts"), ""));
    }
    let externally_accessible = ty == "LoadBalancer"
        || ty == "NodePort"
        || (ty == "ClusterIP" && !arr(spec, "externalIPs").is_empty());
    let etp = str_at(spec, "externalTrafficPolicy");
    if !externally_accessible {
        if !etp.is_empty() {
            errs.push(invalid(
                &p.child("externalTrafficPolicy"),
                json!(etp),
                "may only be set for externally-accessible services",
            ));
        }
    } else if etp.is_empty() {
        errs.push(required(&p.child("externalTrafficPolicy"), ""));
    } else if etp != "Cluster" && etp != "Local" {
        errs.push(not_supported(
            &p.child("externalTrafficPolicy"),
            json!(etp),
            &["Cluster", "Local"],
        ));
    }
    let needs_health_check = ty == "LoadBalancer" && etp == "Local";
    let hc = int_at(spec, "healthCheckNodePort").unwrap_or(0);
    if !needs_health_check && hc != 0 {
        errs.push(invalid(
            &p.child("healthCheckNodePort"),
            json!(hc),
            "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
        ));
    }
    match opt_str(spec, "internalTrafficPolicy") {
        None if matches!(ty, "ClusterIP" | "NodePort" | "LoadBalancer") => {
            errs.push(required(&p.child("internalTrafficPolicy"), ""));
        }
        Some(itp) if itp != "Cluster" && itp != "Local" => errs.push(not_supported(
            &p.child("internalTrafficPolicy"),
            json!(itp),
            &["Cluster", "Local"],
        )),
        _ => {}
    }
    if let Some(td) = opt_str(spec, "trafficDistribution") {
        let supported = ["PreferClose", "PreferSameZone", "PreferSameNode"];
        if !supported.contains(&td) {
            errs.push(not_supported(
                &p.child("trafficDistribution"),
                json!(td),
                &supported,
            ));
        }
    }
    errs
}

/// `ValidateServiceUpdate`: a cluster IP may not change once set (a request that leaves it
/// out keeps the allocated one).
pub(super) fn validate_service_update(new: &Value, old: &Value) -> Errs {
    let mut errs = meta::validate_object_meta_update(new, old);
    let (ns, os) = (field(new, "spec"), field(old, "spec"));
    let external = str_at(ns, "type") == "ExternalName" || str_at(os, "type") == "ExternalName";
    if !(external || is_headless(ns) && is_headless(os)) {
        let old_ips = cluster_ips(os);
        let mut new_ips = cluster_ips(ns);
        if new_ips.is_empty() {
            new_ips = old_ips.clone();
        }
        let p = Path::new("spec").child("clusterIPs");
        if let (Some(o), Some(n)) = (old_ips.first(), new_ips.first()) {
            if o != n {
                errs.push(invalid(
                    &p.index(0),
                    json!(new_ips),
                    "may not change once set",
                ));
            }
        }
        if old_ips.len() == new_ips.len() {
            for i in 1..old_ips.len() {
                if old_ips[i] != new_ips[i] {
                    errs.push(invalid(
                        &p.index(i),
                        json!(new_ips),
                        "may not change once set",
                    ));
                }
            }
        }
    }
    errs.extend(validate_service(new));
    errs
}

/// `ValidateConfigMap`.
pub(super) fn validate_config_map(cm: &Value) -> Errs {
    let mut errs = meta::validate_object_meta(cm, true, NameRule::Subdomain);
    let mut total = 0;
    let binary = obj(cm, "binaryData");
    if let Some(data) = obj(cm, "data") {
        for (k, v) in data {
            let kp = Path::new("data").key(k);
            for m in names::config_map_key(k) {
                errs.push(invalid(&kp, json!(k), &m));
            }
            if binary.is_some_and(|b| b.contains_key(k)) {
                errs.push(invalid(
                    &kp,
                    json!(k),
                    "duplicate of key present in binaryData",
                ));
            }
            total += v.as_str().map(str::len).unwrap_or(0);
        }
    }
    if let Some(b) = binary {
        for (k, v) in b {
            for m in names::config_map_key(k) {
                errs.push(invalid(&Path::new("binaryData").key(k), json!(k), &m));
            }
            total += v.as_str().map(|s| s.len() * 3 / 4).unwrap_or(0);
        }
    }
    if total > 1024 * 1024 {
        errs.push(too_long(&Path::new(""), 1024 * 1024));
    }
    errs
}

fn immutable_data(new: &Value, old: &Value, keys: &[&str]) -> Errs {
    let mut errs = vec![];
    if bool_at(old, "immutable") == Some(true) {
        if bool_at(new, "immutable") != Some(true) {
            errs.push(forbidden(
                &Path::new("immutable"),
                "field is immutable when `immutable` is set",
            ));
        }
        for k in keys {
            if !semantic_eq(field(new, k), field(old, k)) {
                errs.push(forbidden(
                    &Path::new(k),
                    "field is immutable when `immutable` is set",
                ));
            }
        }
    }
    errs
}

pub(super) fn validate_config_map_update(new: &Value, old: &Value) -> Errs {
    let mut errs = meta::validate_object_meta_update(new, old);
    errs.extend(immutable_data(new, old, &["data", "binaryData"]));
    errs.extend(
        validate_config_map(new)
            .into_iter()
            .filter(|e| !e.field.starts_with("metadata.")),
    );
    errs
}

/// The keys of a Secret's data as the apiserver sees them: `stringData` is merged into `data`.
fn secret_keys(secret: &Value) -> Vec<(String, usize)> {
    let mut keys: std::collections::BTreeMap<String, usize> = Default::default();
    if let Some(d) = obj(secret, "data") {
        for (k, v) in d {
            keys.insert(
                k.to_string(),
                v.as_str().map(|s| s.len() * 3 / 4).unwrap_or(0),
            );
        }
    }
    if let Some(d) = obj(secret, "stringData") {
        for (k, v) in d {
            keys.insert(k.to_string(), v.as_str().map(str::len).unwrap_or(0));
        }
    }
    keys.into_iter().collect()
}

/// `ValidateSecret`.
pub(super) fn validate_secret(secret: &Value) -> Errs {
    let mut errs = meta::validate_object_meta(secret, true, NameRule::Subdomain);
    let dp = Path::new("data");
    let keys = secret_keys(secret);
    let mut total = 0;
    for (k, size) in &keys {
        for m in names::config_map_key(k) {
            errs.push(invalid(&dp.key(k), json!(k), &m));
        }
        total += size;
    }
    if total > 1024 * 1024 {
        errs.push(too_long(&dp, 1024 * 1024));
    }
    let has = |k: &str| keys.iter().any(|(x, _)| x == k);
    let sa_name = get(
        secret,
        &[
            "metadata",
            "annotations",
            "kubernetes.io/service-account.name",
        ],
    )
    .as_str()
    .unwrap_or("");
    let required_keys: &[&str] = match str_at(secret, "type") {
        "kubernetes.io/service-account-token" if sa_name.is_empty() => {
            errs.push(required(
                &Path::new("metadata")
                    .child("annotations")
                    .key("kubernetes.io/service-account.name"),
                "",
            ));
            &[]
        }
        "kubernetes.io/dockercfg" => &[".dockercfg"],
        "kubernetes.io/dockerconfigjson" => &[".dockerconfigjson"],
        "kubernetes.io/basic-auth" if !has("username") && !has("password") => {
            &["username", "password"]
        }
        "kubernetes.io/ssh-auth" if keys.iter().all(|(k, n)| k != "ssh-privatekey" || *n == 0) => {
            errs.push(required(&dp.key("ssh-privatekey"), ""));
            &[]
        }
        "kubernetes.io/tls" => &["tls.crt", "tls.key"],
        _ => &[],
    };
    for k in required_keys {
        if !has(k) || str_at(secret, "type") == "kubernetes.io/basic-auth" {
            errs.push(required(&dp.key(k), ""));
        }
    }
    errs
}

pub(super) fn validate_secret_update(new: &Value, old: &Value) -> Errs {
    let mut errs = meta::validate_object_meta_update(new, old);
    errs.extend(immutable(
        field(new, "type"),
        field(old, "type"),
        &Path::new("type"),
    ));
    errs.extend(immutable_data(new, old, &["data"]));
    errs.extend(
        validate_secret(new)
            .into_iter()
            .filter(|e| !e.field.starts_with("metadata.")),
    );
    errs
}

/// `ValidateNamespace`.
pub(super) fn validate_namespace(ns: &Value) -> Errs {
    let mut errs = meta::validate_object_meta(ns, false, NameRule::Label);
    let fp = Path::new("spec").child("finalizers");
    for f in strings(field(ns, "spec"), "finalizers") {
        for m in names::qualified_name(&f) {
            errs.push(invalid(&fp, json!(f), &m));
        }
        errs.extend(meta::kube_finalizer_name(&f, &fp));
    }
    errs
}

const QUOTA_RESOURCES: &[&str] = &[
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.storage",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "persistentvolumeclaims",
    "configmaps",
    "services.nodeports",
    "services.loadbalancers",
];

/// `ValidateResourceQuotaResourceName`.
fn quota_resource_name(name: &str, p: &Path) -> Errs {
    let mut errs = resource_name(name, p);
    let huge = name.starts_with("hugepages-") || name.starts_with("requests.hugepages-");
    if !name.contains('/') && !QUOTA_RESOURCES.contains(&name) && !huge {
        errs.push(invalid(
            p,
            json!(name),
            "must be a standard resource for quota",
        ));
    }
    errs
}

fn quota_list(list: &Value, p: &Path) -> Errs {
    let mut errs = vec![];
    let Some(m) = list.as_object() else {
        return errs;
    };
    for (k, v) in m {
        let kp = p.key(k);
        errs.extend(quota_resource_name(k, &kp));
        if let Ok(q) = Quantity::from_json(v) {
            errs.extend(quantity_value(k, &q, &kp));
        }
    }
    errs
}

const QUOTA_SCOPES: &[&str] = &[
    "Terminating",
    "NotTerminating",
    "BestEffort",
    "NotBestEffort",
    "PriorityClass",
    "CrossNamespacePodAffinity",
    "VolumeAttributesClass",
];

fn quota_spec(spec: &Value, p: &Path) -> Errs {
    let mut errs = quota_list(field(spec, "hard"), &p.child("hard"));
    let scopes = strings(spec, "scopes");
    let sp = p.child("scopes");
    for s in &scopes {
        if !QUOTA_SCOPES.contains(&s.as_str()) {
            errs.push(invalid(&sp, json!(scopes), "unsupported scope"));
        }
    }
    let has = |s: &str| scopes.iter().any(|x| x == s);
    if (has("BestEffort") && has("NotBestEffort")) || (has("Terminating") && has("NotTerminating"))
    {
        errs.push(invalid(&sp, json!(scopes), "conflicting scopes"));
    }
    errs
}

/// `ValidateResourceQuota`.
pub(super) fn validate_resource_quota(rq: &Value) -> Errs {
    let mut errs = meta::validate_object_meta(rq, true, NameRule::Subdomain);
    errs.extend(quota_spec(field(rq, "spec"), &Path::new("spec")));
    let status = field(rq, "status");
    let sp = Path::new("status");
    errs.extend(quota_list(field(status, "hard"), &sp.child("hard")));
    errs.extend(quota_list(field(status, "used"), &sp.child("used")));
    errs
}

pub(super) fn validate_resource_quota_update(new: &Value, old: &Value) -> Errs {
    let mut errs = meta::validate_object_meta_update(new, old);
    let p = Path::new("spec");
    errs.extend(quota_spec(field(new, "spec"), &p));
    let set = |v: &Value| -> BTreeSet<String> {
        strings(field(v, "spec"), "scopes").into_iter().collect()
    };
    if set(new) != set(old) {
        errs.push(invalid(
            &p.child("scopes"),
            json!(strings(field(new, "spec"), "scopes")),
            "field is immutable",
        ));
    }
    errs
}

/// `ValidateLimitRange`.
pub(super) fn validate_limit_range(lr: &Value) -> Errs {
    let mut errs = meta::validate_object_meta(lr, true, NameRule::Subdomain);
    let p = Path::new("spec").child("limits");
    let mut types = BTreeSet::new();
    for (i, limit) in arr(field(lr, "spec"), "limits").iter().enumerate() {
        let ip = p.index(i);
        let ty = str_at(limit, "type");
        let tp = ip.child("type");
        let type_errs: Errs = names::qualified_name(ty)
            .into_iter()
            .map(|m| invalid(&tp, json!(ty), &m))
            .collect();
        if !type_errs.is_empty() {
            errs.extend(type_errs);
        } else if !ty.contains('/') && !["Pod", "Container", "PersistentVolumeClaim"].contains(&ty)
        {
            errs.push(invalid(
                &tp,
                json!(ty),
                "must be a standard limit type or fully qualified",
            ));
        }
        if !types.insert(ty) {
            errs.push(duplicate(&tp, json!(ty)));
        }
        let name_check = |k: &str, kp: &Path| -> Errs {
            if ty == "Pod" || ty == "Container" {
                container_resource_name(k, kp)
            } else {
                resource_name(k, kp)
            }
        };
        let read = |key: &str| -> Vec<(String, Quantity)> {
            obj(limit, key)
                .map(|m| {
                    m.iter()
                        .filter_map(|(k, v)| {
                            Quantity::from_json(v).ok().map(|q| (k.to_string(), q))
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let mut keys = BTreeSet::new();
        for key in ["max", "min"] {
            for (k, _) in read(key) {
                errs.extend(name_check(&k, &ip.child(key).key(&k)));
                keys.insert(k);
            }
        }
        if ty == "Pod" {
            for key in ["default", "defaultRequest"] {
                if obj(limit, key).is_some_and(|m| !m.is_empty()) {
                    errs.push(forbidden(
                        &ip.child(key),
                        "may not be specified when `type` is 'Pod'",
                    ));
                }
            }
        } else {
            for key in ["default", "defaultRequest"] {
                for (k, _) in read(key) {
                    errs.extend(name_check(&k, &ip.child(key).key(&k)));
                    keys.insert(k);
                }
            }
        }
        if ty == "PersistentVolumeClaim" {
            let has_storage =
                |key: &str| obj(limit, key).is_some_and(|m| m.contains_key("storage"));
            if !has_storage("min") && !has_storage("max") {
                errs.push(required(
                    &ip.child("limits"),
                    "either minimum or maximum storage value is required, but neither was provided",
                ));
            }
        }
        for (k, _) in read("maxLimitRequestRatio") {
            errs.extend(name_check(&k, &ip.child("maxLimitRequestRatio").key(&k)));
            keys.insert(k);
        }
        let find = |key: &str, k: &str| read(key).into_iter().find(|(x, _)| x == k).map(|(_, q)| q);
        for k in &keys {
            let (min, max) = (find("min", k), find("max", k));
            let (def, def_req) = if ty == "Pod" {
                (None, None)
            } else {
                (find("default", k), find("defaultRequest", k))
            };
            let ratio = find("maxLimitRequestRatio", k);
            if let (Some(mn), Some(mx)) = (min, max) {
                if mn > mx {
                    errs.push(invalid(
                        &ip.child("min").key(k),
                        mn.to_json(),
                        &format!("min value {mn} is greater than max value {mx}"),
                    ));
                }
            }
            if let (Some(dr), Some(mn)) = (def_req, min) {
                if mn > dr {
                    errs.push(invalid(
                        &ip.child("defaultRequest").key(k),
                        dr.to_json(),
                        &format!("min value {mn} is greater than default request value {dr}"),
                    ));
                }
            }
            if let (Some(dr), Some(mx)) = (def_req, max) {
                if dr > mx {
                    errs.push(invalid(
                        &ip.child("defaultRequest").key(k),
                        dr.to_json(),
                        &format!("default request value {dr} is greater than max value {mx}"),
                    ));
                }
            }
            if let (Some(dr), Some(d)) = (def_req, def) {
                if dr > d {
                    errs.push(invalid(
                        &ip.child("defaultRequest").key(k),
                        dr.to_json(),
                        &format!(
                            "default request value {dr} is greater than default limit value {d}"
                        ),
                    ));
                }
            }
            if let (Some(d), Some(mn)) = (def, min) {
                if mn > d {
                    errs.push(invalid(
                        &ip.child("default").key(k),
                        mn.to_json(),
                        &format!("min value {mn} is greater than default value {d}"),
                    ));
                }
            }
            if let (Some(d), Some(mx)) = (def, max) {
                if d > mx {
                    errs.push(invalid(
                        &ip.child("default").key(k),
                        mx.to_json(),
                        &format!("default value {d} is greater than max value {mx}"),
                    ));
                }
            }
            if let Some(r) = ratio {
                if r.cmp_i64(1) == std::cmp::Ordering::Less {
                    errs.push(invalid(
                        &ip.child("maxLimitRequestRatio").key(k),
                        r.to_json(),
                        &format!("ratio {r} is less than 1"),
                    ));
                }
                if let (Some(mn), Some(mx)) = (min, max) {
                    let limit = mx.milli_value() as f64 / mn.milli_value() as f64;
                    let rv = r.milli_value() as f64 / 1000.0;
                    if rv > limit {
                        errs.push(invalid(
                            &ip.child("maxLimitRequestRatio").key(k),
                            r.to_json(),
                            &format!("ratio {r} is greater than max/min = {limit:.6}"),
                        ));
                    }
                }
            }
            let overcommit = super::pod::is_native_resource(k) && !super::pod::is_hugepages(k);
            if let (Some(d), Some(dr)) = (def, def_req) {
                if !overcommit && d != dr {
                    errs.push(invalid(
                        &ip.child("defaultRequest").key(k),
                        dr.to_json(),
                        &format!(
                            "default value {d} must equal to defaultRequest value {dr} in {k}"
                        ),
                    ));
                }
            }
        }
    }
    errs
}

/// `ValidateNode`: name, taints and resource quantities.
pub(super) fn validate_node(node: &Value) -> Errs {
    let mut errs = meta::validate_object_meta(node, false, NameRule::Subdomain);
    let mut unique = BTreeSet::new();
    let tp = Path::new("metadata").child("taints");
    for (i, t) in arr(field(node, "spec"), "taints").iter().enumerate() {
        let ip = tp.index(i);
        let key = str_at(t, "key");
        errs.extend(meta::validate_label_name(key, &ip.child("key")));
        let value = str_at(t, "value");
        let msgs = names::label_value(value);
        if !msgs.is_empty() {
            errs.push(invalid(&ip.child("value"), json!(value), &msgs.join(";")));
        }
        let effect = str_at(t, "effect");
        if effect.is_empty() {
            errs.push(required(&ip.child("effect"), ""));
        } else if !["NoSchedule", "PreferNoSchedule", "NoExecute"].contains(&effect) {
            errs.push(not_supported(
                &ip.child("effect"),
                json!(effect),
                &["NoSchedule", "PreferNoSchedule", "NoExecute"],
            ));
        }
        if !unique.insert((effect, key)) {
            let mut e = duplicate(&ip, t.clone());
            e.detail = "taints must be unique by key and effect pair".into();
            errs.push(e);
        }
    }
    let status = field(node, "status");
    for key in ["capacity", "allocatable"] {
        if let Some(m) = obj(status, key) {
            for (k, v) in m {
                if let Ok(q) = Quantity::from_json(v) {
                    errs.extend(quantity_value(
                        k,
                        &q,
                        &Path::new("status").child(key).child(k),
                    ));
                }
            }
        }
    }
    errs
}
