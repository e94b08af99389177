//! Pods, pod templates and everything in a PodSpec (`pkg/apis/core/validation/validation.go`).

use super::meta::{validate_annotations, validate_label_name, validate_labels};
use super::names::{self, NameRule};
use super::*;
use crate::api::quantity::Quantity;
use crate::json;
use std::collections::BTreeSet;

/// `ValidatePodCreate`.
pub(super) fn validate_pod_create(pod: &Value) -> Errs {
    let mut errs = validate_pod_metadata_and_spec(pod);
    let sp = Path::new("spec");
    let spec = field(pod, "spec");
    if !arr(spec, "ephemeralContainers").is_empty() {
        errs.push(forbidden(
            &sp.child("ephemeralContainers"),
            "cannot be set on create",
        ));
    }
    if !str_at(spec, "nodeName").is_empty() && !arr(spec, "schedulingGates").is_empty() {
        errs.push(forbidden(
            &sp.child("nodeName"),
            "cannot be set until all schedulingGates have been cleared",
        ));
    }
    errs
}

/// `validatePodMetadataAndSpec`.
fn validate_pod_metadata_and_spec(pod: &Value) -> Errs {
    let mut errs = meta::validate_object_meta(pod, true, NameRule::Subdomain);
    let spec = field(pod, "spec");
    let sp = Path::new("spec");
    errs.extend(pod_specific_annotations(
        get(pod, &["metadata", "annotations"]),
        spec,
        &Path::new("metadata").child("annotations"),
    ));
    errs.extend(validate_pod_spec(spec, &sp, true));
    if str_at(spec, "serviceAccountName").is_empty() {
        for (vi, v) in arr(spec, "volumes").iter().enumerate() {
            let pp = sp.child("volumes").index(vi).child("projected");
            for (si, s) in arr(field(v, "projected"), "sources").iter().enumerate() {
                if present(s, "serviceAccountToken") {
                    errs.push(forbidden(
                        &pp.child("sources").index(si).child("serviceAccountToken"),
                        "must not be specified when serviceAccountName is not set",
                    ));
                }
            }
        }
    }
    for key in ["containers", "initContainers"] {
        for (i, c) in arr(spec, key).iter().enumerate() {
            let image = str_at(c, "image");
            if image.len() != image.trim().len() {
                errs.push(invalid(
                    &sp.child(key).index(i).child("image"),
                    json!(image),
                    "must not have leading or trailing whitespace",
                ));
            }
        }
    }
    errs
}

/// `ValidatePodSpecificAnnotations`.
fn pod_specific_annotations(ann: &Value, spec: &Value, p: &Path) -> Errs {
    let mut errs = vec![];
    if let Some(v) = opt_str(ann, "kubernetes.io/config.mirror") {
        if str_at(spec, "nodeName").is_empty() {
            errs.push(invalid(
                &p.key("kubernetes.io/config.mirror"),
                json!(v),
                "must set spec.nodeName if mirror pod annotation is set",
            ));
        }
    }
    if let Some(v) = opt_str(ann, "controller.kubernetes.io/pod-deletion-cost") {
        if v.parse::<i32>().is_err() {
            errs.push(invalid(
                &p.key("controller.kubernetes.io/pod-deletion-cost"),
                json!(v),
                "must be a 32bit integer",
            ));
        }
    }
    errs
}

/// `ValidatePodTemplateSpec`: labels and annotations at `<path>.labels`, the spec at
/// `<path>.spec`.
pub(super) fn validate_pod_template_spec(t: &Value, p: &Path) -> Errs {
    let meta = field(t, "metadata");
    let spec = field(t, "spec");
    let mut errs = validate_labels(field(meta, "labels"), &p.child("labels"));
    errs.extend(validate_annotations(
        field(meta, "annotations"),
        &p.child("annotations"),
    ));
    errs.extend(pod_specific_annotations(
        field(meta, "annotations"),
        spec,
        &p.child("annotations"),
    ));
    errs.extend(validate_pod_spec(spec, &p.child("spec"), false));
    if !arr(spec, "ephemeralContainers").is_empty() {
        errs.push(forbidden(
            &p.child("spec").child("ephemeralContainers"),
            "ephemeral containers not allowed in pod template",
        ));
    }
    errs
}

/// A `PodTemplate` object.
pub(super) fn validate_pod_template_object(obj: &Value) -> Errs {
    let mut errs = meta::validate_object_meta(obj, true, NameRule::Subdomain);
    errs.extend(validate_pod_template_spec(
        field(obj, "template"),
        &Path::new("template"),
    ));
    errs
}

/// `ValidatePodSpec`; `is_pod` is `opts.ResourceIsPod`.
pub(super) fn validate_pod_spec(spec: &Value, p: &Path, is_pod: bool) -> Errs {
    let mut errs = vec![];
    if !present(spec, "terminationGracePeriodSeconds") {
        errs.push(required(&p.child("terminationGracePeriodSeconds"), ""));
    }
    let grace = int_at(spec, "terminationGracePeriodSeconds");
    let (volumes, verrs) = validate_volumes(arr(spec, "volumes"), &p.child("volumes"));
    errs.extend(verrs);
    let claims: BTreeSet<String> = arr(spec, "resourceClaims")
        .iter()
        .map(|c| str_at(c, "name").to_string())
        .filter(|n| !n.is_empty())
        .collect();
    errs.extend(validate_containers(
        arr(spec, "containers"),
        &volumes,
        &claims,
        grace,
        &p.child("containers"),
    ));
    errs.extend(validate_init_containers(
        arr(spec, "initContainers"),
        arr(spec, "containers"),
        &volumes,
        &claims,
        grace,
        &p.child("initContainers"),
    ));
    // validatePodHostNetworkDeps
    if bool_at(spec, "hostNetwork") == Some(true) {
        for (i, c) in arr(spec, "containers").iter().enumerate() {
            for (j, port) in arr(c, "ports").iter().enumerate() {
                let hp = int_at(port, "hostPort").unwrap_or(0);
                let cp = int_at(port, "containerPort").unwrap_or(0);
                if (is_pod || hp != 0) && hp != cp {
                    errs.push(invalid(
                        &p.child("containers")
                            .index(i)
                            .child("ports")
                            .index(j)
                            .child("hostPort"),
                        json!(hp),
                        "must match `containerPort` when `hostNetwork` is true",
                    ));
                }
            }
        }
    }
    errs.extend(one_of(
        str_at(spec, "restartPolicy"),
        &p.child("restartPolicy"),
        &["Always", "OnFailure", "Never"],
    ));
    errs.extend(one_of(
        str_at(spec, "dnsPolicy"),
        &p.child("dnsPolicy"),
        &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
    ));
    errs.extend(validate_labels(
        field(spec, "nodeSelector"),
        &p.child("nodeSelector"),
    ));
    errs.extend(pod_security_context(
        field(spec, "securityContext"),
        &p.child("securityContext"),
    ));
    for (i, s) in arr(spec, "imagePullSecrets").iter().enumerate() {
        if s.as_object().is_some_and(|m| m.keys().any(|k| k != "name")) {
            errs.push(invalid(
                &p.child("imagePullSecrets").index(i),
                s.clone(),
                "only name may be set",
            ));
        }
    }
    errs.extend(dns_config(spec, &p.child("dnsConfig")));
    for (i, g) in arr(spec, "readinessGates").iter().enumerate() {
        let ct = str_at(g, "conditionType");
        for m in names::qualified_name(ct) {
            errs.push(invalid(
                &p.child("readinessGates").index(i).child("conditionType"),
                json!(ct),
                &m,
            ));
        }
    }
    let mut gates = BTreeSet::new();
    for (i, g) in arr(spec, "schedulingGates").iter().enumerate() {
        let n = str_at(g, "name");
        let gp = p.child("schedulingGates").index(i);
        for m in names::qualified_name(n) {
            errs.push(invalid(&gp, json!(n), &m));
        }
        if !gates.insert(n) {
            errs.push(duplicate(&gp, json!(n)));
        }
    }
    errs.extend(topology_spread(
        arr(spec, "topologySpreadConstraints"),
        &p.child("topologySpreadConstraints"),
    ));
    for (key, rule) in [
        ("serviceAccountName", NameRule::Subdomain),
        ("nodeName", NameRule::Subdomain),
    ] {
        let v = str_at(spec, key);
        if !v.is_empty() {
            for m in names::name_errors(rule, v, false) {
                errs.push(invalid(&p.child(key), json!(v), &m));
            }
        }
    }
    if let Some(v) = int_at(spec, "activeDeadlineSeconds") {
        if !(1..=i32::MAX as i64).contains(&v) {
            errs.push(invalid(
                &p.child("activeDeadlineSeconds"),
                json!(v),
                &names::inclusive_range_error(1, i32::MAX as i64),
            ));
        }
    }
    for key in ["hostname", "subdomain"] {
        let v = str_at(spec, key);
        if !v.is_empty() {
            errs.extend(dns_label(v, &p.child(key)));
        }
    }
    errs.extend(validate_tolerations(
        arr(spec, "tolerations"),
        &p.child("tolerations"),
    ));
    for (i, h) in arr(spec, "hostAliases").iter().enumerate() {
        let hp = p.child("hostAliases").index(i);
        let ip = str_at(h, "ip");
        for m in names::ip(ip) {
            errs.push(invalid(&hp.child("ip"), json!(ip), &m));
        }
        for (j, name) in strings(h, "hostnames").iter().enumerate() {
            for m in names::dns1123_subdomain(name) {
                errs.push(invalid(&hp.child("hostnames").index(j), json!(name), &m));
            }
        }
    }
    let pc = str_at(spec, "priorityClassName");
    if !pc.is_empty() {
        for m in names::dns1123_subdomain(pc) {
            errs.push(invalid(&p.child("priorityClassName"), json!(pc), &m));
        }
    }
    if let Some(rc) = opt_str(spec, "runtimeClassName") {
        for m in names::dns1123_subdomain(rc) {
            errs.push(invalid(&p.child("runtimeClassName"), json!(rc), &m));
        }
    }
    if let Some(pp) = opt_str(spec, "preemptionPolicy") {
        errs.extend(one_of(
            pp,
            &p.child("preemptionPolicy"),
            &["PreemptLowerPriority", "Never"],
        ));
    }
    if let Some(o) = obj(spec, "overhead") {
        errs.extend(resource_list(o, &p.child("overhead").child("limits"), true));
    }
    if let Some(os) = opt_str(field(spec, "os"), "name") {
        if os != "linux" && os != "windows" {
            errs.push(not_supported(
                &p.child("os").child("name"),
                json!(os),
                &["linux", "windows"],
            ));
        }
    }
    errs
}

/// A required enumeration: `Required` when empty, `Unsupported value` when unknown.
fn one_of(v: &str, p: &Path, supported: &[&str]) -> Errs {
    if v.is_empty() {
        vec![required(p, "")]
    } else if !supported.contains(&v) {
        vec![not_supported(p, json!(v), supported)]
    } else {
        vec![]
    }
}

fn dns_label(v: &str, p: &Path) -> Errs {
    names::dns1123_label(v)
        .into_iter()
        .map(|m| invalid(p, json!(v), &m))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Volumes

/// The volume sources, in the order `validateVolumeSource` checks them.
const SOURCES: &[&str] = &[
    "emptyDir",
    "hostPath",
    "gitRepo",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "secret",
    "nfs",
    "iscsi",
    "glusterfs",
    "flocker",
    "persistentVolumeClaim",
    "rbd",
    "cinder",
    "cephfs",
    "quobyte",
    "downwardAPI",
    "fc",
    "flexVolume",
    "configMap",
    "azureFile",
    "vsphereVolume",
    "photonPersistentDisk",
    "portworxVolume",
    "azureDisk",
    "storageos",
    "projected",
    "scaleIO",
    "csi",
    "ephemeral",
    "image",
];

const FILE_MODE_MSG: &str = "must be a number between 0 and 0777 (octal), both inclusive";

/// `ValidateVolumes`: the errors, and the names of the valid volumes with their source.
fn validate_volumes<'a>(vols: &'a [Value], p: &Path) -> (Vec<(String, &'a str)>, Errs) {
    let mut errs = vec![];
    let mut names_seen = BTreeSet::new();
    let mut valid = vec![];
    for (i, v) in vols.iter().enumerate() {
        let ip = p.index(i);
        let name = str_at(v, "name");
        let mut el = volume_source(v, &ip);
        if name.is_empty() {
            el.push(required(&ip.child("name"), ""));
        } else {
            el.extend(dns_label(name, &ip.child("name")));
        }
        if names_seen.contains(name) {
            el.push(duplicate(&ip.child("name"), json!(name)));
        }
        if el.is_empty() {
            names_seen.insert(name);
            let source = SOURCES
                .iter()
                .find(|s| present(v, s))
                .copied()
                .unwrap_or("");
            valid.push((name.to_string(), source));
        } else {
            errs.extend(el);
        }
    }
    (valid, errs)
}

fn volume_source(v: &Value, p: &Path) -> Errs {
    let mut errs = vec![];
    let mut count = 0;
    for s in SOURCES {
        if !present(v, s) {
            continue;
        }
        let sp = p.child(s);
        if count > 0 {
            // Go's typo for downwardAPI is kept.
            let fp = if *s == "downwardAPI" {
                p.child("downwarAPI")
            } else {
                sp
            };
            errs.push(forbidden(&fp, "may not specify more than 1 volume type"));
            continue;
        }
        count += 1;
        let src = field(v, s);
        match *s {
            "emptyDir" => {
                if let Some(q) = src
                    .get("sizeLimit")
                    .and_then(|q| Quantity::from_json(q).ok())
                {
                    if q.is_negative() {
                        errs.push(forbidden(
                            &sp.child("sizeLimit"),
                            "SizeLimit field must be a valid resource quantity",
                        ));
                    }
                }
            }
            "hostPath" => {
                let path = str_at(src, "path");
                if path.is_empty() {
                    errs.push(required(&sp.child("path"), ""));
                } else {
                    errs.extend(no_backsteps(path, &sp.child("path")));
                    if let Some(t) = opt_str(src, "type") {
                        let types = [
                            "",
                            "DirectoryOrCreate",
                            "Directory",
                            "FileOrCreate",
                            "File",
                            "Socket",
                            "CharDevice",
                            "BlockDevice",
                        ];
                        if !types.contains(&t) {
                            errs.push(not_supported(&sp.child("type"), json!(t), &types));
                        }
                    }
                }
            }
            "secret" => {
                if str_at(src, "secretName").is_empty() {
                    errs.push(required(&sp.child("secretName"), ""));
                }
                errs.extend(file_mode(src, "defaultMode", &sp));
                for (j, kp) in arr(src, "items").iter().enumerate() {
                    errs.extend(key_to_path(kp, &sp.child("items").index(j)));
                }
            }
            "configMap" => {
                if str_at(src, "name").is_empty() {
                    errs.push(required(&sp.child("name"), ""));
                }
                errs.extend(file_mode(src, "defaultMode", &sp));
                for (j, kp) in arr(src, "items").iter().enumerate() {
                    errs.extend(key_to_path(kp, &sp.child("items").index(j)));
                }
            }
            "persistentVolumeClaim" if str_at(src, "claimName").is_empty() => {
                errs.push(required(&sp.child("claimName"), ""));
            }
            "nfs" => {
                if str_at(src, "server").is_empty() {
                    errs.push(required(&sp.child("server"), ""));
                }
                let path = str_at(src, "path");
                if path.is_empty() {
                    errs.push(required(&sp.child("path"), ""));
                }
                if !path.starts_with('/') {
                    errs.push(invalid(
                        &sp.child("path"),
                        json!(path),
                        "must be an absolute path",
                    ));
                }
            }
            "downwardAPI" => {
                errs.extend(file_mode(src, "defaultMode", &sp));
                for item in arr(src, "items") {
                    errs.extend(downward_file(item, &sp));
                }
            }
            "projected" => errs.extend(projected(src, &sp)),
            "csi" if str_at(src, "driver").is_empty() => {
                errs.push(required(&sp.child("driver"), ""));
            }
            _ => {}
        }
    }
    if count == 0 {
        errs.push(required(p, "must specify a volume type"));
    }
    errs
}

fn file_mode(src: &Value, key: &str, p: &Path) -> Errs {
    match int_at(src, key) {
        Some(m) if !(0..=0o777).contains(&m) => {
            vec![invalid(&p.child(key), json!(m), FILE_MODE_MSG)]
        }
        _ => vec![],
    }
}

/// `validatePathNoBacksteps`.
fn no_backsteps(path: &str, p: &Path) -> Errs {
    if path.split('/').any(|s| s == "..") {
        vec![invalid(p, json!(path), "must not contain '..'")]
    } else {
        vec![]
    }
}

/// `validateLocalDescendingPath`.
fn local_descending_path(path: &str, p: &Path) -> Errs {
    let mut errs = vec![];
    if path.starts_with('/') {
        errs.push(invalid(p, json!(path), "must be a relative path"));
    }
    errs.extend(no_backsteps(path, p));
    errs
}

/// `ValidateLocalNonReservedPath`.
fn local_non_reserved_path(path: &str, p: &Path) -> Errs {
    let mut errs = local_descending_path(path, p);
    if path.starts_with("..") {
        errs.push(invalid(p, json!(path), "must not start with '..'"));
    }
    errs
}

fn key_to_path(kp: &Value, p: &Path) -> Errs {
    let mut errs = vec![];
    if str_at(kp, "key").is_empty() {
        errs.push(required(&p.child("key"), ""));
    }
    let path = str_at(kp, "path");
    if path.is_empty() {
        errs.push(required(&p.child("path"), ""));
    }
    errs.extend(local_non_reserved_path(path, &p.child("path")));
    errs.extend(file_mode(kp, "mode", p));
    errs
}

fn downward_file(item: &Value, p: &Path) -> Errs {
    let mut errs = vec![];
    let path = str_at(item, "path");
    if path.is_empty() {
        errs.push(required(&p.child("path"), ""));
    }
    errs.extend(local_non_reserved_path(path, &p.child("path")));
    let has_field = present(item, "fieldRef");
    let has_res = present(item, "resourceFieldRef");
    if has_field {
        errs.extend(field_selector(
            field(item, "fieldRef"),
            &p.child("fieldRef"),
            VOLUME_FIELD_PATHS,
        ));
        if has_res {
            errs.push(invalid(
                p,
                json!("resource"),
                "fieldRef and resourceFieldRef can not be specified simultaneously",
            ));
        }
    } else if !has_res {
        errs.push(required(
            p,
            "one of fieldRef and resourceFieldRef is required",
        ));
    }
    errs.extend(file_mode(item, "mode", p));
    errs
}

fn projected(src: &Value, p: &Path) -> Errs {
    let mut errs = vec![];
    let mut paths = BTreeSet::new();
    for (i, s) in arr(src, "sources").iter().enumerate() {
        let sp = p.child("sources").index(i);
        let mut n = 0;
        for kind in ["secret", "configMap"] {
            let Some(x) = s.get(kind).filter(|x| !x.is_null()) else {
                continue;
            };
            n += 1;
            let kp = sp.child(kind);
            let name = str_at(x, "name");
            if name.is_empty() {
                errs.push(required(&kp.child("name"), ""));
            }
            for (j, item) in arr(x, "items").iter().enumerate() {
                errs.extend(key_to_path(item, &kp.child("items").index(j)));
                let path = str_at(item, "path");
                if !path.is_empty() && !paths.insert(path.to_string()) {
                    errs.push(invalid(p, json!(name), "conflicting duplicate paths"));
                }
            }
        }
        if let Some(d) = s.get("downwardAPI").filter(|x| !x.is_null()) {
            n += 1;
            for item in arr(d, "items") {
                errs.extend(downward_file(item, &sp.child("downwardAPI")));
            }
        }
        if let Some(t) = s.get("serviceAccountToken").filter(|x| !x.is_null()) {
            n += 1;
            let tp = sp.child("serviceAccountToken");
            if let Some(e) = int_at(t, "expirationSeconds") {
                if e < 600 {
                    errs.push(invalid(
                        &tp.child("expirationSeconds"),
                        json!(e),
                        "may not specify a duration less than 10 minutes",
                    ));
                } else if e > 1 << 32 {
                    errs.push(invalid(
                        &tp.child("expirationSeconds"),
                        json!(e),
                        "may not specify a duration larger than 2^32 seconds",
                    ));
                }
            }
            let path = str_at(t, "path");
            if path.is_empty() {
                errs.push(required(&tp.child("path"), ""));
            }
        }
        if present(s, "clusterTrustBundle") || present(s, "podCertificate") {
            n += 1;
        }
        if n > 1 {
            errs.push(forbidden(
                &sp,
                "may not specify more than 1 volume type per source",
            ));
        }
    }
    errs.extend(file_mode(src, "defaultMode", p));
    errs
}

// ---------------------------------------------------------------------------------------------
// Containers

fn validate_containers(
    containers: &[Value],
    volumes: &[(String, &str)],
    claims: &BTreeSet<String>,
    grace: Option<i64>,
    p: &Path,
) -> Errs {
    if containers.is_empty() {
        return vec![required(p, "")];
    }
    let mut errs = vec![];
    let mut seen = BTreeSet::new();
    for (i, c) in containers.iter().enumerate() {
        let cp = p.index(i);
        errs.extend(container_common(c, volumes, claims, &cp));
        let name = str_at(c, "name");
        if !seen.insert(name) {
            errs.push(duplicate(&cp.child("name"), json!(name)));
        }
        if let Some(l) = obj(c, "lifecycle") {
            errs.extend(lifecycle(l, grace, &cp.child("lifecycle")));
        }
        errs.extend(probes(c, grace, &cp));
        if present(c, "restartPolicy") {
            errs.push(forbidden(
                &cp.child("restartPolicy"),
                "may not be set for non-init containers",
            ));
        }
    }
    errs.extend(host_port_conflicts(containers, p));
    errs
}

fn validate_init_containers(
    inits: &[Value],
    regular: &[Value],
    volumes: &[(String, &str)],
    claims: &BTreeSet<String>,
    grace: Option<i64>,
    p: &Path,
) -> Errs {
    let mut errs = vec![];
    let mut names_seen: BTreeSet<&str> = regular.iter().map(|c| str_at(c, "name")).collect();
    for (i, c) in inits.iter().enumerate() {
        let cp = p.index(i);
        errs.extend(container_common(c, volumes, claims, &cp));
        let mut restart_always = false;
        if let Some(rp) = opt_str(c, "restartPolicy") {
            if rp != "Always" {
                errs.push(not_supported(
                    &cp.child("restartPolicy"),
                    json!(rp),
                    &["Always"],
                ));
            }
            restart_always = rp == "Always";
        }
        let name = str_at(c, "name");
        if names_seen.contains(name) {
            errs.push(duplicate(&cp.child("name"), json!(name)));
        } else if !name.is_empty() {
            names_seen.insert(name);
        }
        errs.extend(host_port_conflicts(std::slice::from_ref(c), p));
        if restart_always {
            if let Some(l) = obj(c, "lifecycle") {
                errs.extend(lifecycle(l, grace, &cp.child("lifecycle")));
            }
            errs.extend(probes(c, grace, &cp));
        } else {
            for key in [
                "lifecycle",
                "livenessProbe",
                "readinessProbe",
                "startupProbe",
            ] {
                if present(c, key) {
                    errs.push(forbidden(
                        &cp.child(key),
                        "may not be set for init containers without restartPolicy=Always",
                    ));
                }
            }
        }
    }
    errs
}

/// `validateContainerCommon`.
fn container_common(
    c: &Value,
    volumes: &[(String, &str)],
    claims: &BTreeSet<String>,
    p: &Path,
) -> Errs {
    let mut errs = vec![];
    let name = str_at(c, "name");
    if name.is_empty() {
        errs.push(required(&p.child("name"), ""));
    } else {
        errs.extend(dns_label(name, &p.child("name")));
    }
    if str_at(c, "image").is_empty() {
        errs.push(required(&p.child("image"), ""));
    }
    errs.extend(one_of(
        str_at(c, "terminationMessagePolicy"),
        &p.child("terminationMessagePolicy"),
        &["File", "FallbackToLogsOnError"],
    ));
    errs.extend(container_ports(arr(c, "ports"), &p.child("ports")));
    errs.extend(env(arr(c, "env"), &p.child("env")));
    errs.extend(env_from(arr(c, "envFrom"), &p.child("envFrom")));
    errs.extend(volume_mounts(c, volumes, &p.child("volumeMounts")));
    let pull = str_at(c, "imagePullPolicy");
    if pull.is_empty() {
        errs.push(required(&p.child("imagePullPolicy"), ""));
    } else if !["Always", "IfNotPresent", "Never"].contains(&pull) {
        errs.push(not_supported(
            &p.child("imagePullPolicy"),
            json!(pull),
            &["Always", "IfNotPresent", "Never"],
        ));
    }
    errs.extend(resource_requirements(
        field(c, "resources"),
        claims,
        &p.child("resources"),
    ));
    errs.extend(security_context(
        field(c, "securityContext"),
        &p.child("securityContext"),
    ));
    errs
}

fn container_ports(ports: &[Value], p: &Path) -> Errs {
    let mut errs = vec![];
    let mut names_seen = BTreeSet::new();
    for (i, port) in ports.iter().enumerate() {
        let ip = p.index(i);
        let name = str_at(port, "name");
        if !name.is_empty() {
            let msgs = names::port_name(name);
            if !msgs.is_empty() {
                for m in msgs {
                    errs.push(invalid(&ip.child("name"), json!(name), &m));
                }
            } else if !names_seen.insert(name) {
                errs.push(duplicate(&ip.child("name"), json!(name)));
            }
        }
        let cp = int_at(port, "containerPort").unwrap_or(0);
        if cp == 0 {
            errs.push(required(&ip.child("containerPort"), ""));
        } else {
            for m in names::port_num(cp) {
                errs.push(invalid(&ip.child("containerPort"), json!(cp), &m));
            }
        }
        let hp = int_at(port, "hostPort").unwrap_or(0);
        if hp != 0 {
            for m in names::port_num(hp) {
                errs.push(invalid(&ip.child("hostPort"), json!(hp), &m));
            }
        }
        errs.extend(protocol(str_at(port, "protocol"), &ip.child("protocol")));
    }
    errs
}

/// A port protocol: `supported values: "SCTP", "TCP", "UDP"` (a sorted set in Go).
pub(super) fn protocol(proto: &str, p: &Path) -> Errs {
    if proto.is_empty() {
        vec![required(p, "")]
    } else if !["TCP", "UDP", "SCTP"].contains(&proto) {
        vec![not_supported(p, json!(proto), &["SCTP", "TCP", "UDP"])]
    } else {
        vec![]
    }
}

const ENV_FIELD_PATHS: &[&str] = &[
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.serviceAccountName",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];

const VOLUME_FIELD_PATHS: &[&str] = &[
    "metadata.annotations",
    "metadata.labels",
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
];

fn env(vars: &[Value], p: &Path) -> Errs {
    let mut errs = vec![];
    for (i, ev) in vars.iter().enumerate() {
        let ip = p.index(i);
        let name = str_at(ev, "name");
        if name.is_empty() {
            errs.push(required(&ip.child("name"), ""));
        } else {
            for m in names::relaxed_env_var_name(name) {
                errs.push(invalid(&ip.child("name"), json!(name), &m));
            }
        }
        let Some(from) = ev.get("valueFrom").filter(|v| !v.is_null()) else {
            continue;
        };
        let fp = ip.child("valueFrom");
        let mut n = 0;
        if let Some(f) = from.get("fieldRef").filter(|v| !v.is_null()) {
            n += 1;
            errs.extend(field_selector(f, &fp.child("fieldRef"), ENV_FIELD_PATHS));
        }
        if let Some(r) = from.get("resourceFieldRef").filter(|v| !v.is_null()) {
            n += 1;
            let rp = fp.child("resourceFieldRef");
            let res = str_at(r, "resource");
            let supported = [
                "limits.cpu",
                "limits.ephemeral-storage",
                "limits.memory",
                "requests.cpu",
                "requests.ephemeral-storage",
                "requests.memory",
            ];
            if res.is_empty() {
                errs.push(required(&rp.child("resource"), ""));
            } else if !supported.contains(&res)
                && !res.starts_with("requests.hugepages-")
                && !res.starts_with("limits.hugepages-")
            {
                errs.push(not_supported(&rp.child("resource"), json!(res), &supported));
            }
        }
        for key in ["configMapKeyRef", "secretKeyRef"] {
            let Some(r) = from.get(key).filter(|v| !v.is_null()) else {
                continue;
            };
            n += 1;
            let rp = fp.child(key);
            let rname = str_at(r, "name");
            for m in names::dns1123_subdomain(rname) {
                errs.push(invalid(&rp.child("name"), json!(rname), &m));
            }
            let k = str_at(r, "key");
            if k.is_empty() {
                errs.push(required(&rp.child("key"), ""));
            } else {
                for m in names::config_map_key(k) {
                    errs.push(invalid(&rp.child("key"), json!(k), &m));
                }
            }
        }
        if n == 0 {
            errs.push(invalid(
                &fp,
                json!(""),
                "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
            ));
        } else if !str_at(ev, "value").is_empty() {
            errs.push(invalid(
                &fp,
                json!(""),
                "may not be specified when `value` is not empty",
            ));
        } else if n > 1 {
            errs.push(invalid(
                &fp,
                json!(""),
                "may not have more than one field specified at a time",
            ));
        }
    }
    errs
}

/// `validateObjectFieldSelector`.
fn field_selector(f: &Value, p: &Path, supported: &[&str]) -> Errs {
    let api_version = str_at(f, "apiVersion");
    if api_version.is_empty() {
        return vec![required(&p.child("apiVersion"), "")];
    }
    let fp = str_at(f, "fieldPath");
    if fp.is_empty() {
        return vec![required(&p.child("fieldPath"), "")];
    }
    if let Some(open) = fp.find('[') {
        let (path, rest) = fp.split_at(open);
        if let Some(sub) = rest.strip_prefix("['").and_then(|r| r.strip_suffix("']")) {
            let key = match path {
                "metadata.annotations" => sub.to_ascii_lowercase(),
                "metadata.labels" => sub.to_string(),
                _ => return vec![invalid(p, json!(path), "does not support subscript")],
            };
            return names::qualified_name(&key)
                .into_iter()
                .map(|m| invalid(p, json!(key), &m))
                .collect();
        }
    }
    if !supported.contains(&fp) {
        let mut list = supported.to_vec();
        crate::api::sorting::sort(&mut list);
        return vec![not_supported(&p.child("fieldPath"), json!(fp), &list)];
    }
    vec![]
}

fn env_from(sources: &[Value], p: &Path) -> Errs {
    let mut errs = vec![];
    for (i, ev) in sources.iter().enumerate() {
        let ip = p.index(i);
        let prefix = str_at(ev, "prefix");
        if !prefix.is_empty() {
            for m in names::relaxed_env_var_name(prefix) {
                errs.push(invalid(&ip.child("prefix"), json!(prefix), &m));
            }
        }
        let mut n = 0;
        for key in ["configMapRef", "secretRef"] {
            let Some(r) = ev.get(key).filter(|v| !v.is_null()) else {
                continue;
            };
            n += 1;
            let rp = ip.child(key);
            let name = str_at(r, "name");
            if name.is_empty() {
                errs.push(required(&rp.child("name"), ""));
            } else {
                for m in names::name_errors(NameRule::Subdomain, name, true) {
                    errs.push(invalid(&rp.child("name"), json!(name), &m));
                }
            }
        }
        if n == 0 {
            errs.push(invalid(
                p,
                json!(""),
                "must specify one of: `configMapRef` or `secretRef`",
            ));
        } else if n > 1 {
            errs.push(invalid(
                p,
                json!(""),
                "may not have more than one field specified at a time",
            ));
        }
    }
    errs
}

/// `ValidateVolumeMounts` (its odd `subPath` paths included).
fn volume_mounts(c: &Value, volumes: &[(String, &str)], p: &Path) -> Errs {
    let mut errs = vec![];
    let mut mount_points = BTreeSet::new();
    for (i, m) in arr(c, "volumeMounts").iter().enumerate() {
        let ip = p.index(i);
        let name = str_at(m, "name");
        if name.is_empty() {
            errs.push(required(&ip.child("name"), ""));
        }
        let source = volumes.iter().find(|(n, _)| n == name).map(|(_, s)| *s);
        if source.is_none() {
            errs.push(not_found(&ip.child("name"), json!(name)));
        }
        let mp = str_at(m, "mountPath");
        if mp.is_empty() {
            errs.push(required(&ip.child("mountPath"), ""));
        }
        if !mount_points.insert(mp) {
            errs.push(invalid(&ip.child("mountPath"), json!(mp), "must be unique"));
        }
        let sub = str_at(m, "subPath");
        let sub_expr = str_at(m, "subPathExpr");
        if source == Some("image") {
            if !sub.is_empty() {
                errs.push(invalid(
                    &ip.child("subPath"),
                    json!(sub),
                    "not allowed in image volume sources",
                ));
            }
            if !sub_expr.is_empty() {
                errs.push(invalid(
                    &ip.child("subPathExpr"),
                    json!(sub_expr),
                    "not allowed in image volume sources",
                ));
            }
        }
        if !sub.is_empty() {
            errs.extend(local_descending_path(sub, &p.child("subPath")));
        }
        if !sub_expr.is_empty() {
            if !sub.is_empty() {
                errs.push(invalid(
                    &ip.child("subPathExpr"),
                    json!(sub_expr),
                    "subPathExpr and subPath are mutually exclusive",
                ));
            }
            errs.extend(local_descending_path(sub_expr, &p.child("subPathExpr")));
        }
        if let Some(mprop) = opt_str(m, "mountPropagation") {
            let supported = ["None", "HostToContainer", "Bidirectional"];
            if !supported.contains(&mprop) {
                errs.push(not_supported(
                    &p.child("mountPropagation"),
                    json!(mprop),
                    &supported,
                ));
            }
        }
    }
    errs
}

fn probes(c: &Value, grace: Option<i64>, p: &Path) -> Errs {
    let mut errs = vec![];
    for key in ["livenessProbe", "readinessProbe", "startupProbe"] {
        let Some(pr) = c.get(key).filter(|v| !v.is_null()) else {
            continue;
        };
        let pp = p.child(key);
        errs.extend(probe(pr, grace, &pp));
        if key != "readinessProbe" {
            let st = int_at(pr, "successThreshold").unwrap_or(0);
            if st != 1 {
                errs.push(invalid(
                    &pp.child("successThreshold"),
                    json!(st),
                    "must be 1",
                ));
            }
        } else if present(pr, "terminationGracePeriodSeconds") {
            errs.push(invalid(
                &pp.child("terminationGracePeriodSeconds"),
                field(pr, "terminationGracePeriodSeconds").clone(),
                "must not be set for readinessProbes",
            ));
        }
    }
    errs
}

fn probe(pr: &Value, grace: Option<i64>, p: &Path) -> Errs {
    let mut errs = handler(pr, grace, p, &["exec", "httpGet", "tcpSocket", "grpc"]);
    for key in [
        "initialDelaySeconds",
        "timeoutSeconds",
        "periodSeconds",
        "successThreshold",
        "failureThreshold",
    ] {
        errs.extend(nonnegative(int_at(pr, key).unwrap_or(0), &p.child(key)));
    }
    if let Some(t) = int_at(pr, "terminationGracePeriodSeconds") {
        if t <= 0 {
            errs.push(invalid(
                &p.child("terminationGracePeriodSeconds"),
                json!(t),
                "must be greater than 0",
            ));
        }
    }
    errs
}

fn lifecycle(l: &Map, grace: Option<i64>, p: &Path) -> Errs {
    let mut errs = vec![];
    for key in ["postStart", "preStop"] {
        if let Some(h) = l.get(key).filter(|v| !v.is_null()) {
            errs.extend(handler(
                h,
                grace,
                &p.child(key),
                &["exec", "httpGet", "tcpSocket", "sleep"],
            ));
        }
    }
    errs
}

/// `validateHandler`: exactly one handler type.
fn handler(h: &Value, grace: Option<i64>, p: &Path, kinds: &[&str]) -> Errs {
    let mut errs = vec![];
    let mut n = 0;
    for kind in ["exec", "httpGet", "tcpSocket", "grpc", "sleep"] {
        if !kinds.contains(&kind) {
            continue;
        }
        let Some(a) = h.get(kind).filter(|v| !v.is_null()) else {
            continue;
        };
        let kp = p.child(kind);
        if n > 0 {
            errs.push(forbidden(&kp, "may not specify more than 1 handler type"));
            continue;
        }
        n += 1;
        match kind {
            "exec" => {
                if arr(a, "command").is_empty() {
                    errs.push(required(&kp.child("command"), ""));
                }
            }
            "httpGet" => {
                if str_at(a, "path").is_empty() {
                    errs.push(required(&kp.child("path"), ""));
                }
                errs.extend(port_num_or_name(field(a, "port"), &kp.child("port")));
                let scheme = str_at(a, "scheme");
                if scheme != "HTTP" && scheme != "HTTPS" {
                    errs.push(not_supported(
                        &kp.child("scheme"),
                        json!(scheme),
                        &["HTTP", "HTTPS"],
                    ));
                }
                for header in arr(a, "httpHeaders") {
                    let hn = str_at(header, "name");
                    for m in names::http_header_name(hn) {
                        errs.push(invalid(&kp.child("httpHeaders"), json!(hn), &m));
                    }
                }
            }
            "tcpSocket" => errs.extend(port_num_or_name(field(a, "port"), &kp.child("port"))),
            "grpc" => {
                let port = int_at(a, "port").unwrap_or(0);
                for m in names::port_num(port) {
                    errs.push(invalid(&kp.child("port"), json!(port), &m));
                }
            }
            _ => {
                let secs = int_at(a, "seconds").unwrap_or(0);
                if let Some(g) = grace {
                    if secs < 0 || secs > g {
                        errs.push(invalid(
                            &kp,
                            json!(secs),
                            &format!(
                                "must be non-negative and less than terminationGracePeriodSeconds ({g})"
                            ),
                        ));
                    }
                }
            }
        }
    }
    if n == 0 {
        errs.push(required(p, "must specify a handler type"));
    }
    errs
}

/// `ValidatePortNumOrName`.
pub(super) fn port_num_or_name(port: &Value, p: &Path) -> Errs {
    match port {
        Value::String(s) => names::port_name(s)
            .into_iter()
            .map(|m| invalid(p, json!(s), &m))
            .collect(),
        v => {
            let n = v.as_i64().unwrap_or(0);
            names::port_num(n)
                .into_iter()
                .map(|m| invalid(p, json!(n), &m))
                .collect()
        }
    }
}

fn host_port_conflicts(containers: &[Value], p: &Path) -> Errs {
    let mut errs = vec![];
    let mut seen = BTreeSet::new();
    for (ci, c) in containers.iter().enumerate() {
        for (pi, port) in arr(c, "ports").iter().enumerate() {
            let hp = int_at(port, "hostPort").unwrap_or(0);
            if hp == 0 {
                continue;
            }
            let key = format!(
                "{}/{}/{hp}",
                str_at(port, "protocol"),
                str_at(port, "hostIP")
            );
            if !seen.insert(key.clone()) {
                errs.push(duplicate(
                    &p.index(ci).child("ports").index(pi).child("hostPort"),
                    json!(key),
                ));
            }
        }
    }
    errs
}

fn security_context(sc: &Value, p: &Path) -> Errs {
    let mut errs = vec![];
    if !sc.is_object() {
        return errs;
    }
    for key in ["runAsUser", "runAsGroup"] {
        if let Some(id) = int_at(sc, key) {
            for m in names::unix_id(id) {
                errs.push(invalid(&p.child(key), json!(id), &m));
            }
        }
    }
    if let Some(pm) = opt_str(sc, "procMount") {
        if pm != "Default" && pm != "Unmasked" {
            errs.push(not_supported(
                &p.child("procMount"),
                json!(pm),
                &["Default", "Unmasked"],
            ));
        }
    }
    errs.extend(seccomp(
        field(sc, "seccompProfile"),
        &p.child("seccompProfile"),
    ));
    if bool_at(sc, "allowPrivilegeEscalation") == Some(false) {
        if bool_at(sc, "privileged") == Some(true) {
            errs.push(invalid(
                p,
                sc.clone(),
                "cannot set `allowPrivilegeEscalation` to false and `privileged` to true",
            ));
        }
        if strings(field(sc, "capabilities"), "add")
            .iter()
            .any(|c| c == "CAP_SYS_ADMIN")
        {
            errs.push(invalid(
                p,
                sc.clone(),
                "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
            ));
        }
    }
    errs
}

fn seccomp(sp: &Value, p: &Path) -> Errs {
    if sp.is_null() {
        return vec![];
    }
    let t = str_at(sp, "type");
    let types = ["Localhost", "RuntimeDefault", "Unconfined"];
    if t.is_empty() {
        vec![required(
            &p.child("type"),
            "type is required when seccompProfile is set",
        )]
    } else if !types.contains(&t) {
        vec![not_supported(&p.child("type"), json!(t), &types)]
    } else {
        vec![]
    }
}

fn pod_security_context(sc: &Value, p: &Path) -> Errs {
    let mut errs = vec![];
    if !sc.is_object() {
        return errs;
    }
    for key in ["fsGroup", "runAsUser", "runAsGroup"] {
        if let Some(id) = int_at(sc, key) {
            for m in names::unix_id(id) {
                errs.push(invalid(&p.child(key), json!(id), &m));
            }
        }
    }
    for (i, g) in arr(sc, "supplementalGroups").iter().enumerate() {
        let g = g.as_i64().unwrap_or(0);
        for m in names::unix_id(g) {
            errs.push(invalid(
                &p.child("supplementalGroups").index(i),
                json!(g),
                &m,
            ));
        }
    }
    let mut sysctls = BTreeSet::new();
    for (i, s) in arr(sc, "sysctls").iter().enumerate() {
        let n = str_at(s, "name");
        let np = p.child("sysctls").index(i).child("name");
        if n.is_empty() {
            errs.push(required(&np, ""));
        } else if !sysctls.insert(n) {
            errs.push(duplicate(&np, json!(n)));
        }
    }
    if let Some(f) = opt_str(sc, "fsGroupChangePolicy") {
        if f != "OnRootMismatch" && f != "Always" {
            errs.push(not_supported(
                &p.child("fsGroupChangePolicy"),
                json!(f),
                &["Always", "OnRootMismatch"],
            ));
        }
    }
    errs.extend(seccomp(
        field(sc, "seccompProfile"),
        &p.child("seccompProfile"),
    ));
    errs
}

fn dns_config(spec: &Value, p: &Path) -> Errs {
    let mut errs = vec![];
    let cfg = field(spec, "dnsConfig");
    if str_at(spec, "dnsPolicy") == "None" {
        if cfg.is_null() {
            return vec![required(
                p,
                "must provide `dnsConfig` when `dnsPolicy` is None",
            )];
        }
        if arr(cfg, "nameservers").is_empty() {
            return vec![required(
                &p.child("nameservers"),
                "must provide at least one DNS nameserver when `dnsPolicy` is None",
            )];
        }
    }
    if cfg.is_null() {
        return errs;
    }
    let ns = strings(cfg, "nameservers");
    if ns.len() > 3 {
        errs.push(invalid(
            &p.child("nameservers"),
            json!(ns),
            "must not have more than 3 nameservers",
        ));
    }
    for (i, n) in ns.iter().enumerate() {
        for m in names::ip(n) {
            errs.push(invalid(&p.child("nameservers").index(i), json!(n), &m));
        }
    }
    let searches = strings(cfg, "searches");
    if searches.len() > 32 {
        errs.push(invalid(
            &p.child("searches"),
            json!(searches),
            "must not have more than 32 search paths",
        ));
    }
    for (i, opt) in arr(cfg, "options").iter().enumerate() {
        if str_at(opt, "name").is_empty() {
            errs.push(required(&p.child("options").index(i), "must not be empty"));
        }
    }
    errs
}

fn topology_spread(constraints: &[Value], p: &Path) -> Errs {
    let mut errs = vec![];
    for (i, c) in constraints.iter().enumerate() {
        let cp = p.index(i);
        let skew = int_at(c, "maxSkew").unwrap_or(0);
        if skew <= 0 {
            errs.push(invalid(
                &cp.child("maxSkew"),
                json!(skew),
                "must be greater than zero",
            ));
        }
        if str_at(c, "topologyKey").is_empty() {
            errs.push(required(&cp.child("topologyKey"), "can not be empty"));
        }
        let w = str_at(c, "whenUnsatisfiable");
        if w != "DoNotSchedule" && w != "ScheduleAnyway" {
            errs.push(not_supported(
                &cp.child("whenUnsatisfiable"),
                json!(w),
                &["DoNotSchedule", "ScheduleAnyway"],
            ));
        }
    }
    errs
}

/// `ValidateTolerations`.
pub(super) fn validate_tolerations(tolerations: &[Value], p: &Path) -> Errs {
    let mut errs = vec![];
    for (i, t) in tolerations.iter().enumerate() {
        let tp = p.index(i);
        let key = str_at(t, "key");
        let op = str_at(t, "operator");
        let value = str_at(t, "value");
        let effect = str_at(t, "effect");
        if !key.is_empty() {
            errs.extend(validate_label_name(key, &tp.child("key")));
        }
        if key.is_empty() && op != "Exists" {
            errs.push(invalid(
                &tp.child("operator"),
                json!(op),
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            ));
        }
        if present(t, "tolerationSeconds") && effect != "NoExecute" {
            errs.push(invalid(
                &tp.child("effect"),
                json!(effect),
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            ));
        }
        match op {
            "Equal" | "" => {
                let msgs = names::label_value(value);
                if !msgs.is_empty() {
                    errs.push(invalid(
                        &tp.child("operator"),
                        json!(value),
                        &msgs.join(";"),
                    ));
                }
            }
            "Exists" => {
                if !value.is_empty() {
                    errs.push(invalid(
                        &tp.child("operator"),
                        json!(value),
                        "value must be empty when `operator` is 'Exists'",
                    ));
                }
            }
            _ => errs.push(not_supported(
                &tp.child("operator"),
                json!(op),
                &["Equal", "Exists"],
            )),
        }
        if !effect.is_empty() && !["NoSchedule", "PreferNoSchedule", "NoExecute"].contains(&effect)
        {
            errs.push(not_supported(
                &tp.child("effect"),
                json!(effect),
                &["NoSchedule", "PreferNoSchedule", "NoExecute"],
            ));
        }
    }
    errs
}

// ---------------------------------------------------------------------------------------------
// Resources

const STANDARD_RESOURCES: &[&str] = &[
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "services",
    "replicationcontrollers",
    "resourcequotas",
    "secrets",
    "persistentvolumeclaims",
    "configmaps",
    "storage",
    "requests.storage",
    "services.nodeports",
    "services.loadbalancers",
];

const INTEGER_RESOURCES: &[&str] = &[
    "pods",
    "services",
    "replicationcontrollers",
    "resourcequotas",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "services.nodeports",
    "services.loadbalancers",
];

pub(super) fn is_hugepages(name: &str) -> bool {
    name.starts_with("hugepages-")
}

fn is_quota_hugepages(name: &str) -> bool {
    name.starts_with("hugepages-") || name.starts_with("requests.hugepages-")
}

pub(super) fn is_standard_resource(name: &str) -> bool {
    STANDARD_RESOURCES.contains(&name) || is_quota_hugepages(name)
}

pub(super) fn is_native_resource(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

pub(super) fn is_extended_resource(name: &str) -> bool {
    !is_native_resource(name)
        && !name.starts_with("requests.")
        && names::qualified_name(&format!("requests.{name}")).is_empty()
}

fn is_integer_resource(name: &str) -> bool {
    INTEGER_RESOURCES.contains(&name) || is_extended_resource(name)
}

fn is_overcommit_allowed(name: &str) -> bool {
    is_native_resource(name) && !is_hugepages(name)
}

/// `validateResourceName`.
pub(super) fn resource_name(name: &str, p: &Path) -> Errs {
    let errs: Errs = names::qualified_name(name)
        .into_iter()
        .map(|m| invalid(p, json!(name), &m))
        .collect();
    if !errs.is_empty() {
        return errs;
    }
    if !name.contains('/') && !is_standard_resource(name) {
        return vec![invalid(
            p,
            json!(name),
            "must be a standard resource type or fully qualified",
        )];
    }
    errs
}

/// `validateContainerResourceName`.
pub(super) fn container_resource_name(name: &str, p: &Path) -> Errs {
    let mut errs = resource_name(name, p);
    if !name.contains('/') {
        if !["cpu", "memory", "ephemeral-storage"].contains(&name) && !is_hugepages(name) {
            errs.push(invalid(
                p,
                json!(name),
                "must be a standard resource for containers",
            ));
        }
    } else if !is_native_resource(name) && !is_extended_resource(name) {
        errs.push(invalid(
            p,
            json!(name),
            "doesn't follow extended resource name standard",
        ));
    }
    errs
}

/// `ValidateResourceQuantityValue`.
pub(super) fn quantity_value(name: &str, q: &Quantity, p: &Path) -> Errs {
    let mut errs = vec![];
    if q.is_negative() {
        errs.push(invalid(
            p,
            json!(q.to_string()),
            "must be greater than or equal to 0",
        ));
    }
    if is_integer_resource(name) && q.milli_value() % 1000 != 0 {
        errs.push(invalid(p, json!(q.to_string()), "must be an integer"));
    }
    errs
}

/// The quantities of a resource list, in key order; malformed ones are skipped (decoding
/// rejects them).
fn quantities(list: &Map) -> Vec<(&str, Quantity)> {
    list.iter()
        .filter_map(|(k, v)| Quantity::from_json(v).ok().map(|q| (k.as_str(), q)))
        .collect()
}

/// A resource list such as `overhead`, validated as container limits.
fn resource_list(list: &Map, p: &Path, container: bool) -> Errs {
    let mut errs = vec![];
    for (name, q) in quantities(list) {
        let kp = p.key(name);
        errs.extend(if container {
            container_resource_name(name, &kp)
        } else {
            resource_name(name, &kp)
        });
        errs.extend(quantity_value(name, &q, &kp));
    }
    errs
}

/// `ValidateContainerResourceRequirements`.
fn resource_requirements(r: &Value, claims: &BTreeSet<String>, p: &Path) -> Errs {
    let mut errs = vec![];
    let lim_path = p.child("limits");
    let req_path = p.child("requests");
    let empty = Map::new();
    let limits = quantities(obj(r, "limits").unwrap_or(&empty));
    let requests = quantities(obj(r, "requests").unwrap_or(&empty));
    let (mut lim_compute, mut req_compute, mut huge) = (false, false, false);
    for (name, q) in &limits {
        let kp = lim_path.key(name);
        errs.extend(container_resource_name(name, &kp));
        errs.extend(quantity_value(name, q, &kp));
        if is_hugepages(name) {
            huge = true;
        }
        if *name == "cpu" || *name == "memory" {
            lim_compute = true;
        }
    }
    for (name, q) in &requests {
        let kp = req_path.key(name);
        errs.extend(container_resource_name(name, &kp));
        errs.extend(quantity_value(name, q, &kp));
        match limits.iter().find(|(n, _)| n == name) {
            Some((_, lim)) => {
                if q != lim && !is_overcommit_allowed(name) {
                    errs.push(invalid(
                        &req_path,
                        json!(q.to_string()),
                        &format!("must be equal to {name} limit of {lim}"),
                    ));
                } else if q > lim {
                    errs.push(invalid(
                        &req_path,
                        json!(q.to_string()),
                        &format!("must be less than or equal to {name} limit of {lim}"),
                    ));
                }
            }
            None if !is_overcommit_allowed(name) => errs.push(required(
                &lim_path,
                "Limit must be set for non overcommitable resources",
            )),
            None => {}
        }
        if is_hugepages(name) {
            huge = true;
        }
        if *name == "cpu" || *name == "memory" {
            req_compute = true;
        }
    }
    if huge && !lim_compute && !req_compute {
        errs.push(forbidden(p, "HugePages require cpu or memory"));
    }
    let mut seen = BTreeSet::new();
    for (i, c) in arr(r, "claims").iter().enumerate() {
        let name = str_at(c, "name");
        let cp = p.child("claims").index(i);
        if name.is_empty() {
            errs.push(required(&cp, ""));
            continue;
        }
        if !seen.insert(name) {
            errs.push(duplicate(&cp, json!(name)));
        }
        if !claims.contains(name) {
            let mut e = not_found(&cp, json!(name));
            e.detail = if claims.is_empty() {
                "must be one of the names in pod.spec.resourceClaims which is empty".into()
            } else {
                format!(
                    "must be one of the names in pod.spec.resourceClaims: {}",
                    claims.iter().cloned().collect::<Vec<_>>().join(", ")
                )
            };
            errs.push(e);
        }
    }
    errs
}

// ---------------------------------------------------------------------------------------------
// Updates

const UPDATABLE_POD_SPEC_FIELDS: &str = "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

/// `ValidatePodStatusUpdate`, for writes to `pods/status`: the metadata update, the node name
/// and nominated node name, and no container leaving the terminated state unless the restart
/// policy starts it again. The spec, copied from the stored pod, is not validated again (the
/// checks of pod IPs, host IPs and resource claim statuses are not modelled).
pub(super) fn validate_pod_status_update(new: &Value, old: &Value) -> Errs {
    let mut errs = meta::validate_object_meta_update(new, old);
    errs.extend(pod_specific_annotations(
        get(new, &["metadata", "annotations"]),
        field(new, "spec"),
        &Path::new("metadata").child("annotations"),
    ));
    let sp = Path::new("status");
    let (ns, os) = (field(new, "spec"), field(old, "spec"));
    if str_at(ns, "nodeName") != str_at(os, "nodeName") {
        errs.push(forbidden(
            &sp.child("nodeName"),
            "may not be changed directly",
        ));
    }
    let (new_status, old_status) = (field(new, "status"), field(old, "status"));
    let nominated = str_at(new_status, "nominatedNodeName");
    if nominated != str_at(old_status, "nominatedNodeName") && !nominated.is_empty() {
        for msg in names::dns1123_subdomain(nominated) {
            errs.push(invalid(
                &sp.child("nominatedNodeName"),
                json!(nominated),
                &msg,
            ));
        }
    }
    let policy = str_at(os, "restartPolicy");
    for key in ["containerStatuses", "initContainerStatuses"] {
        errs.extend(container_state_transitions(
            arr(new_status, key),
            arr(old_status, key),
            &sp.child(key),
            policy,
        ));
    }
    errs
}

/// `ValidateContainerStateTransition`: under restartPolicy Never (or OnFailure, after a
/// success) a terminated container stays terminated.
fn container_state_transitions(new: &[Value], old: &[Value], p: &Path, policy: &str) -> Errs {
    let mut errs = vec![];
    if policy == "Always" {
        return errs;
    }
    for (i, o) in old.iter().enumerate() {
        let Some(terminated) = get(o, &["state", "terminated"]).as_object() else {
            continue;
        };
        let code = terminated
            .get("exitCode")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        if code != 0 && policy == "OnFailure" {
            continue;
        }
        for n in new {
            if n["name"] == o["name"] && get(n, &["state", "terminated"]).as_object().is_none() {
                errs.push(forbidden(
                    &p.index(i).child("state"),
                    "may not be transitioned to non-terminated state",
                ));
            }
        }
    }
    errs
}

/// `ValidatePodUpdate`. The spec diff Go appends to the last message is left out.
pub(super) fn validate_pod_update(new: &Value, old: &Value) -> Errs {
    let mut errs = meta::validate_object_meta_update(new, old);
    errs.extend(validate_pod_metadata_and_spec(new));
    let sp = Path::new("spec");
    let (ns, os) = (field(new, "spec"), field(old, "spec"));
    for key in ["containers", "initContainers"] {
        let (nc, oc) = (arr(ns, key), arr(os, key));
        if nc.len() != oc.len() {
            errs.push(forbidden(
                &sp.child(key),
                "pod updates may not add or remove containers",
            ));
            return errs;
        }
        for (i, c) in nc.iter().enumerate() {
            let image = str_at(c, "image");
            let ip = sp.child(key).index(i).child("image");
            if image.is_empty() {
                errs.push(required(&ip, ""));
            }
            if image.trim().len() != image.len() {
                errs.push(invalid(
                    &ip,
                    json!(image),
                    "must not have leading or trailing whitespace",
                ));
            }
        }
    }
    let ads = sp.child("activeDeadlineSeconds");
    match (
        int_at(ns, "activeDeadlineSeconds"),
        int_at(os, "activeDeadlineSeconds"),
    ) {
        (Some(n), old_ads) => {
            if !(0..=i32::MAX as i64).contains(&n) {
                errs.push(invalid(
                    &ads,
                    json!(n),
                    &names::inclusive_range_error(0, i32::MAX as i64),
                ));
                return errs;
            }
            if old_ads.is_some_and(|o| o < n) {
                errs.push(invalid(
                    &ads,
                    json!(n),
                    "must be less than or equal to previous value",
                ));
                return errs;
            }
        }
        (None, Some(_)) => errs.push(invalid(
            &ads,
            Value::Null,
            "must not update from a positive integer to nil value",
        )),
        (None, None) => {}
    }
    // Only additions to tolerations (tolerationSeconds may change).
    let strip_seconds = |t: &Value| {
        let mut t = t.clone();
        if let Some(m) = t.as_object_mut() {
            m.remove("tolerationSeconds");
        }
        t
    };
    let new_tols: Vec<Value> = arr(ns, "tolerations").iter().map(strip_seconds).collect();
    if arr(os, "tolerations")
        .iter()
        .any(|o| !new_tols.iter().any(|n| semantic_eq(n, &strip_seconds(o))))
    {
        errs.push(forbidden(
            &sp.child("tolerations"),
            "existing toleration can not be modified except its tolerationSeconds",
        ));
    } else {
        errs.extend(validate_tolerations(
            arr(ns, "tolerations"),
            &sp.child("tolerations"),
        ));
    }
    // Only deletions of scheduling gates.
    let old_gates: Vec<&str> = arr(os, "schedulingGates")
        .iter()
        .map(|g| str_at(g, "name"))
        .collect();
    let mut added: Vec<(usize, &str)> = vec![];
    for (i, g) in arr(ns, "schedulingGates").iter().enumerate() {
        let n = str_at(g, "name");
        if !old_gates.contains(&n) {
            added.retain(|(_, x)| *x != n);
            added.push((i, n));
        }
    }
    for (i, n) in added {
        errs.push(forbidden(
            &sp.child("schedulingGates").index(i).child("name"),
            &format!("only deletion is allowed, but found new scheduling gate '{n}'"),
        ));
    }
    if semantic_eq(ns, os) {
        return errs;
    }
    let mut munged = ns.clone();
    if let Some(m) = munged.as_object_mut() {
        for key in ["containers", "initContainers"] {
            if let Some(list) = m.get_mut(key).and_then(Value::as_array_mut) {
                for (i, c) in list.iter_mut().enumerate() {
                    if let Some(cm) = c.as_object_mut() {
                        let old_image = arr(os, key).get(i).map(|o| field(o, "image").clone());
                        match old_image {
                            Some(Value::Null) | None => {
                                cm.remove("image");
                            }
                            Some(img) => {
                                cm.insert("image", img);
                            }
                        }
                    }
                }
            }
        }
        for key in ["activeDeadlineSeconds", "schedulingGates", "tolerations"] {
            match os.get(key) {
                Some(v) => {
                    m.insert(key, v.clone());
                }
                None => {
                    m.remove(key);
                }
            }
        }
        let old_grace = int_at(os, "terminationGracePeriodSeconds");
        if old_grace.is_some_and(|g| g < 0)
            && int_at(ns, "terminationGracePeriodSeconds") == Some(1)
        {
            m.insert(
                "terminationGracePeriodSeconds",
                json!(old_grace.unwrap_or(0)),
            );
        }
    }
    if !semantic_eq(&munged, os) {
        errs.push(forbidden(
            &sp,
            &format!("pod updates may not change fields other than {UPDATABLE_POD_SPEC_FIELDS}"),
        ));
    }
    errs
}
