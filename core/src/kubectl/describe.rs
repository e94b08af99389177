//! `kubectl describe`, following `k8s.io/kubectl/pkg/describe/describe.go` (v0.35): the same
//! lines in the same order through a `PrefixWriter` (two spaces per level) into Go's
//! `text/tabwriter` (minimum width 0, padding 2), so columns line up per block of consecutive
//! lines that contain tabs, exactly as kubectl's do (trailing spaces included).
//!
//! Pods, Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs, Nodes, Services, Endpoints,
//! Namespaces, ConfigMaps, Secrets, ServiceAccounts and ResourceQuotas have their own layout;
//! everything else gets the generic describer (`Name`, `Namespace`, `Labels`, `Annotations`,
//! then the object's fields).
//! Times are printed in UTC (`Thu, 01 Jan 2026 00:00:00 +0000`).

use super::printers::{
    age, at, av, bv, escape_terminal, format_label_selector, format_labels, go_sort, int_or_string,
    int_value, iv, join_host_port, mv, node_roles, opt_str, rfc1123z, scalar_text, selector_string,
    sv, tabwrite, unix_ms,
};
use crate::api::value::{Map, Value};
use crate::api::{meta, Object, ResourceInfo};

/// Objects that some describers show besides the described object itself, as kubectl fetches
/// them: a Deployment's ReplicaSets, a ReplicaSet's pods, a Node's pods and Lease, a Service's
/// EndpointSlices, a Namespace's ResourceQuotas and LimitRanges. Pass whole lists; the describer
/// picks what belongs (owner references, `spec.nodeName`, the service-name label).
#[derive(Clone, Copy, Debug, Default)]
pub struct Related<'a> {
    pub replica_sets: &'a [Object],
    pub pods: &'a [Object],
    pub endpoint_slices: &'a [Object],
    /// The node's Lease in `kube-node-lease`.
    pub lease: Option<&'a Object>,
    pub resource_quotas: &'a [Object],
    pub limit_ranges: &'a [Object],
}

/// `kubectl describe` of one object, with the events about it (the ones whose `involvedObject`
/// is this object are kept; others are ignored). Describers that need other objects show what
/// kubectl shows when it finds none; see [`describe_with`].
pub fn describe(resource: &ResourceInfo, obj: &Object, events: &[Object], now_ms: u64) -> String {
    describe_with(resource, obj, &Related::default(), events, now_ms)
}

/// [`describe`] with the related objects kubectl would also fetch.
pub fn describe_with(
    resource: &ResourceInfo,
    obj: &Object,
    related: &Related,
    events: &[Object],
    now_ms: u64,
) -> String {
    let mut d = Describer {
        w: W::default(),
        now: now_ms,
    };
    let evs = events_for(resource, obj, events);
    match (resource.group, resource.kind) {
        ("", "Pod") => d.pod(obj, &evs),
        ("apps", "Deployment") => d.deployment(obj, related, &evs),
        ("apps", "ReplicaSet") => d.replica_set(obj, related, &evs),
        ("", "Node") => d.node(obj, related, &evs),
        ("", "Service") => d.service(obj, related, &evs),
        ("", "Namespace") => d.namespace(obj, related),
        ("", "ConfigMap") => d.config_map(obj, &evs),
        ("", "Secret") => d.secret(obj),
        ("", "ServiceAccount") => d.service_account(obj, &evs),
        ("", "ResourceQuota") => d.quota(obj),
        ("apps", "DaemonSet") => d.daemon_set(obj, related, &evs),
        ("apps", "StatefulSet") => d.stateful_set(obj, related, &evs),
        ("batch", "Job") => d.job(obj, &evs),
        ("", "Endpoints") => d.endpoints(obj, &evs),
        _ => d.generic(obj, &evs),
    }
    tabwrite(&d.w.buf, 0, 2)
}

// ---------------------------------------------------------------------------------------------
// Writer
// ---------------------------------------------------------------------------------------------

#[derive(Default)]
struct W {
    buf: String,
}

impl W {
    /// `PrefixWriter.Write(level, ...)`: two spaces per level, terminal escapes made visible.
    fn write(&mut self, level: usize, s: &str) {
        for _ in 0..level {
            self.buf.push_str("  ");
        }
        self.buf.push_str(&escape_terminal(s));
    }

    /// `PrefixWriter.WriteLine`.
    fn line(&mut self, s: &str) {
        self.buf.push_str(&escape_terminal(s));
        self.buf.push('\n');
    }
}

struct Describer {
    w: W,
    now: u64,
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn or_none(s: &str) -> String {
    if s.is_empty() {
        "<none>".to_string()
    } else {
        s.to_string()
    }
}

fn print_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// The events whose `involvedObject` is `obj` (kubectl's field selector on name, namespace, UID
/// and, except for pods, kind; node events from the kubelet carry the node's name as UID).
fn events_for<'a>(resource: &ResourceInfo, obj: &Object, events: &'a [Object]) -> Vec<&'a Object> {
    let name = meta::name(obj);
    let ns = meta::namespace(obj).unwrap_or("");
    let uid = meta::uid(obj);
    events
        .iter()
        .filter(|e| {
            let io = at(e, &["involvedObject"]).unwrap_or(&Value::Null);
            let ev_uid = sv(io, &["uid"]);
            let ev_kind = sv(io, &["kind"]);
            sv(io, &["name"]) == name
                && sv(io, &["namespace"]) == ns
                && (ev_uid.is_empty()
                    || uid.is_empty()
                    || ev_uid == uid
                    || (resource.kind == "Node" && ev_uid == name))
                && (ev_kind.is_empty() || resource.kind == "Pod" || ev_kind == resource.kind)
        })
        .collect()
}

/// `printLabelsMultilineWithIndent(w, initialIndent, title, innerIndent, labels, {})`.
fn print_labels(w: &mut W, initial: &str, title: &str, labels: Option<&Map>) {
    w.write(0, &format!("{initial}{title}:\t"));
    let Some(labels) = labels.filter(|l| !l.is_empty()) else {
        w.line("<none>");
        return;
    };
    let mut keys: Vec<&str> = labels.keys().map(|k| k.as_str()).collect();
    crate::api::sorting::sort(&mut keys);
    for (i, k) in keys.iter().enumerate() {
        if i != 0 {
            w.write(0, initial);
            w.write(0, "\t");
        }
        w.write(0, &format!("{}={}\n", k, scalar_text(&labels[*k])));
    }
}

const MAX_ANNOTATION_LEN: usize = 140;

fn shorten(s: &str, max: usize) -> String {
    if s.len() > max {
        let mut end = max;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &s[..end])
    } else {
        s.to_string()
    }
}

/// `printAnnotationsMultiline`: the last-applied-configuration annotation is skipped; long or
/// multi-line values go on their own lines.
fn print_annotations(w: &mut W, title: &str, annotations: Option<&Map>) {
    w.write(0, &format!("{title}:\t"));
    let mut keys: Vec<&str> = annotations
        .map(|a| {
            a.keys()
                .map(|k| k.as_str())
                .filter(|k| *k != "kubectl.kubernetes.io/last-applied-configuration")
                .collect()
        })
        .unwrap_or_default();
    if keys.is_empty() {
        w.line("<none>");
        return;
    }
    crate::api::sorting::sort(&mut keys);
    let annotations = annotations.expect("non-empty");
    for (i, k) in keys.iter().enumerate() {
        if i != 0 {
            w.write(0, "\t");
        }
        let full = scalar_text(&annotations[*k]);
        let value = full.strip_suffix('\n').unwrap_or(&full);
        if value.len() + k.len() + 2 > MAX_ANNOTATION_LEN || value.contains('\n') {
            w.write(0, &format!("{k}:\n"));
            for s in value.split('\n') {
                w.write(0, &format!("\t  {}\n", shorten(s, MAX_ANNOTATION_LEN - 2)));
            }
        } else {
            w.write(0, &format!("{k}: {value}\n"));
        }
    }
}

/// `printTolerationsMultilineWithIndent`.
fn print_tolerations(w: &mut W, initial: &str, title: &str, tolerations: &[Value]) {
    w.write(0, &format!("{initial}{title}:\t"));
    if tolerations.is_empty() {
        w.line("<none>");
        return;
    }
    let mut sorted: Vec<&Value> = tolerations.iter().collect();
    go_sort(&mut sorted, |a, b| sv(a, &["key"]) < sv(b, &["key"]));
    for (i, t) in sorted.iter().enumerate() {
        if i != 0 {
            w.write(0, initial);
            w.write(0, "\t");
        }
        let key = sv(t, &["key"]);
        let value = sv(t, &["value"]);
        let effect = sv(t, &["effect"]);
        let mut s = key.to_string();
        if !value.is_empty() {
            s.push_str(&format!("={value}"));
        }
        if !effect.is_empty() {
            s.push_str(&format!(":{effect}"));
        }
        if sv(t, &["operator"]) == "Exists" && value.is_empty() {
            if !key.is_empty() || !effect.is_empty() {
                s.push_str(" op=Exists");
            } else {
                s.push_str("op=Exists");
            }
        }
        if let Some(secs) = at(t, &["tolerationSeconds"]).and_then(int_value) {
            s.push_str(&format!(" for {secs}s"));
        }
        s.push('\n');
        w.write(0, &s);
    }
}

/// `printTaintsMultilineWithIndent` with `Taint.ToString()`.
fn print_taints(w: &mut W, title: &str, taints: &[Value]) {
    w.write(0, &format!("{title}:\t"));
    if taints.is_empty() {
        w.line("<none>");
        return;
    }
    let mut sorted: Vec<&Value> = taints.iter().collect();
    let key = |t: &Value| format!("{},{}", sv(t, &["effect"]), sv(t, &["key"]));
    go_sort(&mut sorted, |a, b| key(a) < key(b));
    for (i, t) in sorted.iter().enumerate() {
        if i != 0 {
            w.write(0, "\t");
        }
        let value = sv(t, &["value"]);
        let s = if value.is_empty() {
            format!("{}:{}", sv(t, &["key"]), sv(t, &["effect"]))
        } else {
            format!("{}={}:{}", sv(t, &["key"]), value, sv(t, &["effect"]))
        };
        w.write(0, &format!("{s}\n"));
    }
}

fn controlled_by(obj: &Object) -> Option<String> {
    meta::controller_ref(obj).map(|r| format!("{}/{}", sv(r, &["kind"]), sv(r, &["name"])))
}

// ---------------------------------------------------------------------------------------------
// Quantities (`k8s.io/apimachinery/pkg/api/resource`), enough to sum and print them
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum QFormat {
    DecimalSI,
    BinarySI,
    DecimalExponent,
}

/// A quantity as an exact count of nano-units (values are rounded up to nano precision when
/// parsed, like `resource.ParseQuantity`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Quantity {
    nanos: i128,
    format: QFormat,
}

const NANO: i128 = 1_000_000_000;

impl Quantity {
    fn zero() -> Self {
        Quantity {
            nanos: 0,
            format: QFormat::DecimalSI,
        }
    }

    pub(crate) fn parse(s: &str) -> Option<Quantity> {
        let s = s.trim();
        let (neg, body) = match s.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, s.strip_prefix('+').unwrap_or(s)),
        };
        let num_end = body
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(body.len());
        let (num, suffix) = body.split_at(num_end);
        if num.is_empty() || num == "." || num.matches('.').count() > 1 {
            return None;
        }
        let (int_part, frac_part) = num.split_once('.').unwrap_or((num, ""));
        let digits = format!("{int_part}{frac_part}");
        let mantissa: i128 = digits.parse().ok()?;
        let mut exp10: i32 = -(frac_part.len() as i32);
        let mut pow1024: u32 = 0;
        let format = match suffix {
            "" => QFormat::DecimalSI,
            "n" => {
                exp10 -= 9;
                QFormat::DecimalSI
            }
            "u" => {
                exp10 -= 6;
                QFormat::DecimalSI
            }
            "m" => {
                exp10 -= 3;
                QFormat::DecimalSI
            }
            "k" => {
                exp10 += 3;
                QFormat::DecimalSI
            }
            "M" => {
                exp10 += 6;
                QFormat::DecimalSI
            }
            "G" => {
                exp10 += 9;
                QFormat::DecimalSI
            }
            "T" => {
                exp10 += 12;
                QFormat::DecimalSI
            }
            "P" => {
                exp10 += 15;
                QFormat::DecimalSI
            }
            "E" => {
                exp10 += 18;
                QFormat::DecimalSI
            }
            "Ki" | "Mi" | "Gi" | "Ti" | "Pi" | "Ei" => {
                pow1024 = match suffix {
                    "Ki" => 1,
                    "Mi" => 2,
                    "Gi" => 3,
                    "Ti" => 4,
                    "Pi" => 5,
                    _ => 6,
                };
                QFormat::BinarySI
            }
            _ => {
                let e = suffix
                    .strip_prefix('e')
                    .or_else(|| suffix.strip_prefix('E'))?;
                exp10 += e.parse::<i32>().ok()?;
                QFormat::DecimalExponent
            }
        };
        let mut value = mantissa.checked_mul(1024i128.checked_pow(pow1024)?)?;
        let e = exp10 + 9;
        if e >= 0 {
            value = value.checked_mul(10i128.checked_pow(e as u32)?)?;
        } else {
            let div = 10i128.checked_pow((-e) as u32)?;
            // Round up (away from zero for the magnitude, as Ceil on positive values).
            value = (value + div - 1) / div;
        }
        Some(Quantity {
            nanos: if neg { -value } else { value },
            format,
        })
    }

    fn add(&mut self, other: &Quantity) {
        if self.nanos == 0 && self.format == QFormat::DecimalSI {
            self.format = other.format;
        }
        self.nanos += other.nanos;
    }

    /// `MilliValue()`, rounded up.
    fn milli_value(&self) -> i64 {
        ceil_div(self.nanos, 1_000_000) as i64
    }

    /// `Value()`, rounded up.
    fn value(&self) -> i64 {
        ceil_div(self.nanos, NANO) as i64
    }
}

fn ceil_div(a: i128, b: i128) -> i128 {
    let q = a.div_euclid(b);
    if a.rem_euclid(b) != 0 {
        q + 1
    } else {
        q
    }
}

impl std::fmt::Display for Quantity {
    /// `Quantity.String()`: the canonical form.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.nanos == 0 {
            return write!(f, "0");
        }
        let mut format = self.format;
        if format == QFormat::BinarySI && (self.nanos.abs() < 1024 * NANO || self.nanos % NANO != 0)
        {
            format = QFormat::DecimalSI;
        }
        if format == QFormat::BinarySI {
            let mut v = self.nanos / NANO;
            let mut k = 0;
            while v % 1024 == 0 && k < 6 {
                v /= 1024;
                k += 1;
            }
            let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][k];
            return write!(f, "{v}{suffix}");
        }
        let mut mantissa = self.nanos;
        let mut exponent: i32 = -9;
        while mantissa % 10 == 0 {
            mantissa /= 10;
            exponent += 1;
        }
        match exponent % 3 {
            1 | -2 => {
                mantissa *= 10;
                exponent -= 1;
            }
            2 | -1 => {
                mantissa *= 100;
                exponent -= 2;
            }
            _ => {}
        }
        let suffix = match (format, exponent) {
            (QFormat::DecimalExponent, 0) => String::new(),
            (QFormat::DecimalExponent, e) => format!("e{e}"),
            (_, -9) => "n".into(),
            (_, -6) => "u".into(),
            (_, -3) => "m".into(),
            (_, 0) => String::new(),
            (_, 3) => "k".into(),
            (_, 6) => "M".into(),
            (_, 9) => "G".into(),
            (_, 12) => "T".into(),
            (_, 15) => "P".into(),
            (_, 18) => "E".into(),
            (_, e) => format!("e{e}"),
        };
        write!(f, "{mantissa}{suffix}")
    }
}

/// A quantity string in canonical form (unparseable strings are returned as they are).
pub(crate) fn canonical_quantity(s: &str) -> String {
    match Quantity::parse(s) {
        Some(q) => q.to_string(),
        None => s.to_string(),
    }
}

type ResourceList = Vec<(String, Quantity)>;

fn resource_list(v: Option<&Map>) -> ResourceList {
    let mut out: ResourceList = Vec::new();
    if let Some(m) = v {
        for (k, q) in m {
            if let Some(q) = Quantity::parse(&scalar_text(q)) {
                out.push((k.to_string(), q));
            }
        }
    }
    out
}

fn rl_get<'a>(l: &'a ResourceList, name: &str) -> Option<&'a Quantity> {
    l.iter().find(|(k, _)| k == name).map(|(_, q)| q)
}

fn add_resource_list(list: &mut ResourceList, new: &ResourceList) {
    for (k, q) in new {
        match list.iter_mut().find(|(n, _)| n == k) {
            Some((_, v)) => v.add(q),
            None => list.push((k.clone(), *q)),
        }
    }
}

fn max_resource_list(list: &mut ResourceList, new: &ResourceList) {
    for (k, q) in new {
        match list.iter_mut().find(|(n, _)| n == k) {
            Some((_, v)) => {
                if q.nanos > v.nanos {
                    *v = *q;
                }
            }
            None => list.push((k.clone(), *q)),
        }
    }
}

/// `resourcehelper.PodRequestsAndLimits` (restartable init containers and in-place resize
/// included, pod-level resources not).
fn pod_requests_and_limits(pod: &Object) -> (ResourceList, ResourceList) {
    let statuses: Vec<&Value> = av(pod, &["status", "containerStatuses"])
        .iter()
        .chain(av(pod, &["status", "initContainerStatuses"]))
        .collect();
    let container_reqs = |c: &Value| -> ResourceList {
        let mut reqs = resource_list(mv(c, &["resources", "requests"]));
        if let Some(cs) = statuses
            .iter()
            .find(|s| sv(s, &["name"]) == sv(c, &["name"]))
        {
            if at(cs, &["resources"]).is_some() {
                max_resource_list(
                    &mut reqs,
                    &resource_list(mv(cs, &["resources", "requests"])),
                );
                max_resource_list(&mut reqs, &resource_list(mv(cs, &["allocatedResources"])));
            }
        }
        reqs
    };
    let mut reqs: ResourceList = Vec::new();
    let mut limits: ResourceList = Vec::new();
    for c in av(pod, &["spec", "containers"]) {
        add_resource_list(&mut reqs, &container_reqs(c));
        add_resource_list(&mut limits, &resource_list(mv(c, &["resources", "limits"])));
    }
    let (mut restartable_reqs, mut init_reqs) = (Vec::new(), Vec::new());
    let (mut restartable_limits, mut init_limits) = (Vec::new(), Vec::new());
    for c in av(pod, &["spec", "initContainers"]) {
        let creqs = container_reqs(c);
        let climits = resource_list(mv(c, &["resources", "limits"]));
        if sv(c, &["restartPolicy"]) == "Always" {
            add_resource_list(&mut reqs, &creqs);
            add_resource_list(&mut restartable_reqs, &creqs);
            max_resource_list(&mut init_reqs, &restartable_reqs.clone());
            add_resource_list(&mut limits, &climits);
            add_resource_list(&mut restartable_limits, &climits);
            max_resource_list(&mut init_limits, &restartable_limits.clone());
        } else {
            let mut tmp = Vec::new();
            add_resource_list(&mut tmp, &creqs);
            add_resource_list(&mut tmp, &restartable_reqs);
            max_resource_list(&mut init_reqs, &tmp);
            let mut tmp = Vec::new();
            add_resource_list(&mut tmp, &climits);
            add_resource_list(&mut tmp, &restartable_limits);
            max_resource_list(&mut init_limits, &tmp);
        }
    }
    max_resource_list(&mut reqs, &init_reqs);
    max_resource_list(&mut limits, &init_limits);
    let overhead = resource_list(mv(pod, &["spec", "overhead"]));
    add_resource_list(&mut reqs, &overhead);
    for (k, q) in &overhead {
        if let Some((_, v)) = limits.iter_mut().find(|(n, _)| n == k) {
            if v.nanos != 0 {
                v.add(q);
            }
        }
    }
    (reqs, limits)
}

/// `qos.GetPodQOS`.
fn pod_qos(pod: &Object) -> String {
    let class = sv(pod, &["status", "qosClass"]);
    if !class.is_empty() {
        return class.to_string();
    }
    let supported = |n: &str| n == "cpu" || n == "memory";
    let mut requests: ResourceList = Vec::new();
    let mut limits: ResourceList = Vec::new();
    let mut guaranteed = true;
    let process = |list: &mut ResourceList, new: &ResourceList| {
        for (k, q) in new {
            if supported(k) && q.nanos > 0 {
                add_resource_list(list, &vec![(k.clone(), *q)]);
            }
        }
    };
    let containers: Vec<&Value> = av(pod, &["spec", "containers"])
        .iter()
        .chain(av(pod, &["spec", "initContainers"]))
        .collect();
    let pod_level = at(pod, &["spec", "resources"]);
    let sources: Vec<&Value> = match pod_level {
        Some(r) => vec![r],
        None => containers
            .iter()
            .filter_map(|c| at(c, &["resources"]).or(Some(&Value::Null)))
            .collect(),
    };
    for r in sources {
        let reqs = resource_list(mv(r, &["requests"]));
        let lims = resource_list(mv(r, &["limits"]));
        process(&mut requests, &reqs);
        process(&mut limits, &lims);
        let has = |n: &str| lims.iter().any(|(k, q)| k == n && q.nanos > 0);
        if (pod_level.is_none() || at(r, &["limits"]).is_some()) && !(has("memory") && has("cpu")) {
            guaranteed = false;
        }
    }
    if requests.is_empty() && limits.is_empty() {
        return "BestEffort".to_string();
    }
    if guaranteed {
        for (k, q) in &requests {
            if rl_get(&limits, k).is_none_or(|l| l.nanos != q.nanos) {
                guaranteed = false;
                break;
            }
        }
    }
    if guaranteed && requests.len() == limits.len() {
        "Guaranteed".to_string()
    } else {
        "Burstable".to_string()
    }
}

// ---------------------------------------------------------------------------------------------
// Sections shared by several describers
// ---------------------------------------------------------------------------------------------

impl Describer {
    fn age(&self, ts: Option<&str>) -> String {
        age(self.now, ts)
    }

    /// `DescribeEvents`.
    fn events(&mut self, events: &[&Object]) {
        if events.is_empty() {
            self.w.write(0, "Events:\t<none>\n");
            return;
        }
        // sort.Sort(event.SortableEvents): by lastTimestamp, not stable.
        let mut sorted: Vec<(i64, &Object)> = events
            .iter()
            .map(|e| {
                let t = opt_str(e, &["lastTimestamp"])
                    .and_then(unix_ms)
                    .unwrap_or(i64::MIN);
                (t, *e)
            })
            .collect();
        go_sort(&mut sorted, |a, b| a.0 < b.0);
        let sorted: Vec<&Object> = sorted.into_iter().map(|(_, e)| e).collect();
        self.w
            .write(0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n");
        self.w.write(1, "----\t------\t----\t----\t-------\n");
        for e in sorted {
            let first = match opt_str(e, &["eventTime"]) {
                Some(t) => self.age(Some(t)),
                None => self.age(opt_str(e, &["firstTimestamp"])),
            };
            let count = iv(e, &["count"]);
            let interval = if at(e, &["series"]).is_some() {
                format!(
                    "{} (x{} over {})",
                    self.age(opt_str(e, &["series", "lastObservedTime"])),
                    iv(e, &["series", "count"]),
                    first
                )
            } else if count > 1 {
                format!(
                    "{} (x{} over {})",
                    self.age(opt_str(e, &["lastTimestamp"])),
                    count,
                    first
                )
            } else {
                first
            };
            let source = match sv(e, &["source", "component"]) {
                "" => sv(e, &["reportingComponent"]),
                s => s,
            };
            let mut message = sv(e, &["message"]).trim().to_string();
            let field_path = sv(e, &["involvedObject", "fieldPath"]);
            if !field_path.is_empty() {
                message = format!("{field_path}: {message}");
            }
            self.w.write(
                1,
                &format!(
                    "{}\t{}\t{}\t{}\t{}\n",
                    sv(e, &["type"]),
                    sv(e, &["reason"]),
                    interval,
                    source,
                    message
                ),
            );
        }
    }

    /// `describeResources`.
    fn resources(&mut self, resources: Option<&Value>, level: usize) {
        let Some(r) = resources else { return };
        for (title, key) in [("Limits", "limits"), ("Requests", "requests")] {
            let Some(list) = mv(r, &[key]).filter(|l| !l.is_empty()) else {
                continue;
            };
            self.w.write(level, &format!("{title}:\n"));
            let mut names: Vec<&str> = list.keys().map(|k| k.as_str()).collect();
            crate::api::sorting::sort(&mut names);
            for n in names {
                let q = canonical_quantity(&scalar_text(&list[n]));
                self.w.write(level + 1, &format!("{n}:\t{q}\n"));
            }
        }
    }

    /// `describeContainers`.
    fn containers(
        &mut self,
        label: &str,
        containers: &[Value],
        statuses: Option<&[Value]>,
        pod: Option<&Object>,
        space: &str,
    ) {
        let none = if containers.is_empty() { " <none>" } else { "" };
        self.w.write(0, &format!("{space}{label}:{none}\n"));
        for c in containers {
            let name = sv(c, &["name"]);
            let status = statuses.and_then(|s| s.iter().find(|st| sv(st, &["name"]) == name));
            let name_indent = if space.is_empty() { "" } else { " " };
            self.w.write(1, &format!("{name_indent}{name}:\n"));
            if let Some(st) = status {
                self.w
                    .write(2, &format!("Container ID:\t{}\n", sv(st, &["containerID"])));
            }
            self.w.write(2, &format!("Image:\t{}\n", sv(c, &["image"])));
            if let Some(st) = status {
                self.w
                    .write(2, &format!("Image ID:\t{}\n", sv(st, &["imageID"])));
            }
            let ports = av(c, &["ports"]);
            let fmt_ports = |field: &str| -> String {
                ports
                    .iter()
                    .map(|p| {
                        let s = format!("{}/{}", iv(p, &[field]), sv(p, &["protocol"]));
                        match sv(p, &["name"]) {
                            "" => s,
                            n => format!("{s} ({n})"),
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let port_string = fmt_ports("containerPort");
            if port_string.contains(',') {
                self.w.write(2, &format!("Ports:\t{port_string}\n"));
            } else {
                self.w
                    .write(2, &format!("Port:\t{}\n", or_none(&port_string)));
            }
            let host_port_string = fmt_ports("hostPort");
            if host_port_string.contains(',') {
                self.w
                    .write(2, &format!("Host Ports:\t{host_port_string}\n"));
            } else {
                self.w
                    .write(2, &format!("Host Port:\t{}\n", or_none(&host_port_string)));
            }
            if let Some(sp) = at(c, &["securityContext", "seccompProfile"]) {
                self.w
                    .write(2, &format!("SeccompProfile:\t{}\n", sv(sp, &["type"])));
                if sv(sp, &["type"]) == "Localhost" {
                    self.w.write(
                        3,
                        &format!("LocalhostProfile:\t{}\n", sv(sp, &["localhostProfile"])),
                    );
                }
            }
            for (title, key) in [("Command", "command"), ("Args", "args")] {
                let items = av(c, &[key]);
                if items.is_empty() {
                    continue;
                }
                self.w.write(2, &format!("{title}:\n"));
                for item in items {
                    for s in scalar_text(item).split('\n') {
                        self.w.write(3, &format!("{s}\n"));
                    }
                }
            }
            if let Some(st) = status {
                self.container_state("State", at(st, &["state"]));
                if at(st, &["lastState", "terminated"]).is_some() {
                    self.container_state("Last State", at(st, &["lastState"]));
                }
                self.w
                    .write(2, &format!("Ready:\t{}\n", print_bool(bv(st, &["ready"]))));
                self.w.write(
                    2,
                    &format!("Restart Count:\t{}\n", iv(st, &["restartCount"])),
                );
            }
            self.resources(at(c, &["resources"]), 2);
            for (title, key) in [
                ("Liveness", "livenessProbe"),
                ("Readiness", "readinessProbe"),
                ("Startup", "startupProbe"),
            ] {
                if let Some(p) = at(c, &[key]) {
                    self.w
                        .write(2, &format!("{title}:\t{}\n", describe_probe(p)));
                }
            }
            let env_from = av(c, &["envFrom"]);
            if !env_from.is_empty() {
                self.w.write(2, "Environment Variables from:\n");
                for e in env_from {
                    let (from, name, optional) = if let Some(r) = at(e, &["configMapRef"]) {
                        ("ConfigMap", sv(r, &["name"]), bv(r, &["optional"]))
                    } else if let Some(r) = at(e, &["secretRef"]) {
                        ("Secret", sv(r, &["name"]), bv(r, &["optional"]))
                    } else {
                        ("", "", false)
                    };
                    let prefix = sv(e, &["prefix"]);
                    if prefix.is_empty() {
                        self.w
                            .write(3, &format!("{name}\t{from}\tOptional: {optional}\n"));
                    } else {
                        self.w.write(
                            3,
                            &format!(
                                "{name}\t{from} with prefix '{prefix}'\tOptional: {optional}\n"
                            ),
                        );
                    }
                }
            }
            self.env_vars(c, pod);
            self.mounts(c);
        }
    }

    fn env_vars(&mut self, c: &Value, pod: Option<&Object>) {
        let env = av(c, &["env"]);
        let none = if env.is_empty() { "\t<none>" } else { "" };
        self.w.write(2, &format!("Environment:{none}\n"));
        for e in env {
            let name = sv(e, &["name"]);
            let Some(from) = at(e, &["valueFrom"]) else {
                for (i, s) in sv(e, &["value"]).split('\n').enumerate() {
                    if i == 0 {
                        self.w.write(3, &format!("{name}:\t{s}\n"));
                    } else {
                        self.w.write(3, &format!("\t{s}\n"));
                    }
                }
                continue;
            };
            if let Some(f) = at(from, &["fieldRef"]) {
                let path = sv(f, &["fieldPath"]);
                let value = pod.map(|p| field_path_value(p, path)).unwrap_or_default();
                self.w.write(
                    3,
                    &format!("{name}:\t{value} ({}:{path})\n", sv(f, &["apiVersion"])),
                );
            } else if let Some(r) = at(from, &["resourceFieldRef"]) {
                let resource = sv(r, &["resource"]);
                let mut value = container_resource_value(c, r);
                if value == "0" && (resource == "limits.cpu" || resource == "limits.memory") {
                    value = "node allocatable".to_string();
                }
                self.w.write(3, &format!("{name}:\t{value} ({resource})\n"));
            } else if let Some(r) = at(from, &["secretKeyRef"]) {
                self.w.write(
                    3,
                    &format!(
                        "{name}:\t<set to the key '{}' in secret '{}'>\tOptional: {}\n",
                        sv(r, &["key"]),
                        sv(r, &["name"]),
                        bv(r, &["optional"])
                    ),
                );
            } else if let Some(r) = at(from, &["configMapKeyRef"]) {
                self.w.write(
                    3,
                    &format!(
                        "{name}:\t<set to the key '{}' of config map '{}'>\tOptional: {}\n",
                        sv(r, &["key"]),
                        sv(r, &["name"]),
                        bv(r, &["optional"])
                    ),
                );
            }
        }
    }

    fn mounts(&mut self, c: &Value) {
        let mounts = av(c, &["volumeMounts"]);
        let none = if mounts.is_empty() { "\t<none>" } else { "" };
        self.w.write(2, &format!("Mounts:{none}\n"));
        let mut sorted: Vec<&Value> = mounts.iter().collect();
        go_sort(&mut sorted, |a, b| {
            sv(a, &["mountPath"]) < sv(b, &["mountPath"])
        });
        for m in sorted {
            let mut flags = vec![if bv(m, &["readOnly"]) { "ro" } else { "rw" }.to_string()];
            let sub = sv(m, &["subPath"]);
            if !sub.is_empty() {
                flags.push(format!("path={sub:?}"));
            }
            self.w.write(
                3,
                &format!(
                    "{} from {} ({})\n",
                    sv(m, &["mountPath"]),
                    sv(m, &["name"]),
                    flags.join(",")
                ),
            );
        }
        let devices = av(c, &["volumeDevices"]);
        if !devices.is_empty() {
            self.w.write(2, "Devices:\n");
            let mut sorted: Vec<&Value> = devices.iter().collect();
            go_sort(&mut sorted, |a, b| {
                sv(a, &["devicePath"]) < sv(b, &["devicePath"])
            });
            for d in sorted {
                self.w.write(
                    3,
                    &format!("{} from {}\n", sv(d, &["devicePath"]), sv(d, &["name"])),
                );
            }
        }
    }

    /// `describeStatus`.
    fn container_state(&mut self, title: &str, state: Option<&Value>) {
        let state = state.unwrap_or(&Value::Null);
        if let Some(r) = at(state, &["running"]) {
            self.w.write(2, &format!("{title}:\tRunning\n"));
            self.w.write(
                3,
                &format!("Started:\t{}\n", rfc1123z(opt_str(r, &["startedAt"]))),
            );
        } else if let Some(wt) = at(state, &["waiting"]) {
            self.w.write(2, &format!("{title}:\tWaiting\n"));
            let reason = sv(wt, &["reason"]);
            if !reason.is_empty() {
                self.w.write(3, &format!("Reason:\t{reason}\n"));
            }
        } else if let Some(t) = at(state, &["terminated"]) {
            self.w.write(2, &format!("{title}:\tTerminated\n"));
            let reason = sv(t, &["reason"]);
            if !reason.is_empty() {
                self.w.write(3, &format!("Reason:\t{reason}\n"));
            }
            let message = sv(t, &["message"]);
            if !message.is_empty() {
                self.w.write(3, &format!("Message:\t{message}\n"));
            }
            self.w
                .write(3, &format!("Exit Code:\t{}\n", iv(t, &["exitCode"])));
            if iv(t, &["signal"]) > 0 {
                self.w
                    .write(3, &format!("Signal:\t{}\n", iv(t, &["signal"])));
            }
            self.w.write(
                3,
                &format!("Started:\t{}\n", rfc1123z(opt_str(t, &["startedAt"]))),
            );
            self.w.write(
                3,
                &format!("Finished:\t{}\n", rfc1123z(opt_str(t, &["finishedAt"]))),
            );
        } else {
            self.w.write(2, &format!("{title}:\tWaiting\n"));
        }
    }

    /// `describeVolumes`.
    fn volumes(&mut self, volumes: &[Value], space: &str) {
        if volumes.is_empty() {
            self.w.write(0, &format!("{space}Volumes:\t<none>\n"));
            return;
        }
        self.w.write(0, &format!("{space}Volumes:\n"));
        let name_indent = if space.is_empty() { "" } else { " " };
        for v in volumes {
            self.w
                .write(1, &format!("{name_indent}{}:\n", sv(v, &["name"])));
            if let Some(h) = at(v, &["hostPath"]) {
                self.w.write(
                    2,
                    &format!(
                        "Type:\tHostPath (bare host directory volume)\n    Path:\t{}\n    HostPathType:\t{}\n",
                        sv(h, &["path"]),
                        opt_str(h, &["type"]).unwrap_or("<none>")
                    ),
                );
            } else if let Some(e) = at(v, &["emptyDir"]) {
                let size = opt_str(e, &["sizeLimit"])
                    .and_then(Quantity::parse)
                    .filter(|q| q.nanos > 0)
                    .map_or("<unset>".to_string(), |q| q.to_string());
                self.w.write(
                    2,
                    &format!(
                        "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t{}\n    SizeLimit:\t{}\n",
                        sv(e, &["medium"]),
                        size
                    ),
                );
            } else if let Some(s) = at(v, &["secret"]) {
                self.w.write(
                    2,
                    &format!(
                        "Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t{}\n    Optional:\t{}\n",
                        sv(s, &["secretName"]),
                        bv(s, &["optional"])
                    ),
                );
            } else if let Some(cm) = at(v, &["configMap"]) {
                self.w.write(
                    2,
                    &format!(
                        "Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t{}\n    Optional:\t{}\n",
                        sv(cm, &["name"]),
                        bv(cm, &["optional"])
                    ),
                );
            } else if let Some(p) = at(v, &["persistentVolumeClaim"]) {
                self.w.write(
                    2,
                    &format!(
                        "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t{}\n    ReadOnly:\t{}\n",
                        sv(p, &["claimName"]),
                        bv(p, &["readOnly"])
                    ),
                );
            } else if let Some(d) = at(v, &["downwardAPI"]) {
                self.w.write(
                    2,
                    "Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n",
                );
                for item in av(d, &["items"]) {
                    if let Some(f) = at(item, &["fieldRef"]) {
                        self.w.write(
                            3,
                            &format!("{} -> {}\n", sv(f, &["fieldPath"]), sv(item, &["path"])),
                        );
                    }
                    if let Some(r) = at(item, &["resourceFieldRef"]) {
                        self.w.write(
                            3,
                            &format!("{} -> {}\n", sv(r, &["resource"]), sv(item, &["path"])),
                        );
                    }
                }
            } else if let Some(p) = at(v, &["projected"]) {
                self.w.write(
                    2,
                    "Type:\tProjected (a volume that contains injected data from multiple sources)\n",
                );
                for src in av(p, &["sources"]) {
                    if let Some(s) = at(src, &["secret"]) {
                        self.w.write(
                            2,
                            &format!(
                                "SecretName:\t{}\n    Optional:\t{}\n",
                                sv(s, &["name"]),
                                bv(s, &["optional"])
                            ),
                        );
                    } else if at(src, &["downwardAPI"]).is_some() {
                        self.w.write(2, "DownwardAPI:\ttrue\n");
                    } else if let Some(cm) = at(src, &["configMap"]) {
                        self.w.write(
                            2,
                            &format!(
                                "ConfigMapName:\t{}\n    Optional:\t{}\n",
                                sv(cm, &["name"]),
                                bv(cm, &["optional"])
                            ),
                        );
                    } else if let Some(t) = at(src, &["serviceAccountToken"]) {
                        self.w.write(
                            2,
                            &format!(
                                "TokenExpirationSeconds:\t{}\n",
                                iv(t, &["expirationSeconds"])
                            ),
                        );
                    }
                }
            } else if let Some(img) = at(v, &["image"]) {
                self.w.write(
                    2,
                    &format!(
                        "Type:\tImage (a container image or OCI artifact)\n    Reference:\t{}\n    PullPolicy:\t{}\n",
                        sv(img, &["reference"]),
                        sv(img, &["pullPolicy"])
                    ),
                );
            } else if let Some(e) = at(v, &["ephemeral"]) {
                let _ = e;
                self.w.write(
                    2,
                    "Type:\tEphemeralVolume (an inline specification for a volume that gets created and deleted with the pod)\n",
                );
            } else {
                self.w.write(1, "<unknown>\n");
            }
        }
    }

    /// `describeTopologySpreadConstraints`.
    fn topology_spread(&mut self, tscs: &[Value], space: &str) {
        if tscs.is_empty() {
            return;
        }
        let mut sorted: Vec<&Value> = tscs.iter().collect();
        go_sort(&mut sorted, |a, b| {
            sv(a, &["topologyKey"]) < sv(b, &["topologyKey"])
        });
        self.w
            .write(0, &format!("{space}Topology Spread Constraints:\t"));
        for (i, t) in sorted.iter().enumerate() {
            if i != 0 {
                self.w.write(0, space);
                self.w.write(0, "\t");
            }
            let mut s = format!(
                "{}:{} when max skew {} is exceeded",
                sv(t, &["topologyKey"]),
                sv(t, &["whenUnsatisfiable"]),
                iv(t, &["maxSkew"])
            );
            if let Some(sel) = at(t, &["labelSelector"]) {
                s.push_str(&format!(
                    " for selector {}",
                    format_label_selector(Some(sel))
                ));
            }
            s.push('\n');
            self.w.write(0, &s);
        }
    }

    /// `DescribePodTemplate`.
    fn pod_template(&mut self, template: Option<&Value>) {
        self.w.write(0, "Pod Template:\n");
        let Some(t) = template else {
            self.w.write(1, "<unset>");
            return;
        };
        print_labels(&mut self.w, "", "  Labels", mv(t, &["metadata", "labels"]));
        if mv(t, &["metadata", "annotations"]).is_some_and(|a| !a.is_empty()) {
            print_annotations(
                &mut self.w,
                "  Annotations",
                mv(t, &["metadata", "annotations"]),
            );
        }
        let sa = sv(t, &["spec", "serviceAccountName"]);
        if !sa.is_empty() {
            self.w.write(1, &format!("Service Account:\t{sa}\n"));
        }
        let init = av(t, &["spec", "initContainers"]);
        if !init.is_empty() {
            self.containers("Init Containers", init, None, None, "  ");
        }
        self.containers(
            "Containers",
            av(t, &["spec", "containers"]),
            None,
            None,
            "  ",
        );
        self.volumes(av(t, &["spec", "volumes"]), "  ");
        self.topology_spread(av(t, &["spec", "topologySpreadConstraints"]), "  ");
        let pc = sv(t, &["spec", "priorityClassName"]);
        if !pc.is_empty() {
            self.w.write(1, &format!("Priority Class Name:\t{pc}\n"));
        }
        print_labels(
            &mut self.w,
            "",
            "  Node-Selectors",
            mv(t, &["spec", "nodeSelector"]),
        );
        print_tolerations(
            &mut self.w,
            "",
            "  Tolerations",
            av(t, &["spec", "tolerations"]),
        );
    }

    fn conditions_type_status_reason(&mut self, obj: &Object) {
        let conds = av(obj, &["status", "conditions"]);
        if conds.is_empty() {
            return;
        }
        self.w.write(0, "Conditions:\n  Type\tStatus\tReason\n");
        self.w.write(1, "----\t------\t------\n");
        for c in conds {
            self.w.write(
                1,
                &format!(
                    "{} \t{}\t{}\n",
                    sv(c, &["type"]),
                    sv(c, &["status"]),
                    sv(c, &["reason"])
                ),
            );
        }
    }

    fn name_namespace(&mut self, obj: &Object) {
        self.w.write(0, &format!("Name:\t{}\n", meta::name(obj)));
        self.w.write(
            0,
            &format!("Namespace:\t{}\n", meta::namespace(obj).unwrap_or("")),
        );
    }
}

/// `DescribeProbe`.
fn describe_probe(p: &Value) -> String {
    let attrs = format!(
        "delay={}s timeout={}s period={}s #success={} #failure={}",
        iv(p, &["initialDelaySeconds"]),
        iv(p, &["timeoutSeconds"]),
        iv(p, &["periodSeconds"]),
        iv(p, &["successThreshold"]),
        iv(p, &["failureThreshold"])
    );
    if let Some(e) = at(p, &["exec"]) {
        let cmd: Vec<String> = av(e, &["command"]).iter().map(scalar_text).collect();
        return format!("exec [{}] {attrs}", cmd.join(" "));
    }
    if let Some(h) = at(p, &["httpGet"]) {
        let scheme = sv(h, &["scheme"]).to_ascii_lowercase();
        let port = int_or_string(at(h, &["port"]));
        let host = sv(h, &["host"]);
        let host = if port.is_empty() {
            host.to_string()
        } else if let Ok(n) = port.parse::<i64>() {
            join_host_port(host, n)
        } else if host.contains(':') {
            format!("[{host}]:{port}")
        } else {
            format!("{host}:{port}")
        };
        let mut path = sv(h, &["path"]).to_string();
        if !path.is_empty() && !path.starts_with('/') {
            path.insert(0, '/');
        }
        let url = if scheme.is_empty() {
            format!("//{host}{path}")
        } else {
            format!("{scheme}://{host}{path}")
        };
        return format!("http-get {url} {attrs}");
    }
    if let Some(t) = at(p, &["tcpSocket"]) {
        return format!(
            "tcp-socket {}:{} {attrs}",
            sv(t, &["host"]),
            int_or_string(at(t, &["port"]))
        );
    }
    if let Some(g) = at(p, &["grpc"]) {
        return format!(
            "grpc <pod>:{} {} {attrs}",
            iv(g, &["port"]),
            sv(g, &["service"])
        );
    }
    format!("unknown {attrs}")
}

/// What `fieldpath.ExtractFieldPathAsString` gives for the fields a pod's env can reference.
fn field_path_value(pod: &Object, path: &str) -> String {
    if let Some(rest) = path
        .strip_prefix("metadata.labels['")
        .and_then(|r| r.strip_suffix("']"))
    {
        return meta::labels(pod)
            .and_then(|l| l.get(rest))
            .map(scalar_text)
            .unwrap_or_default();
    }
    if let Some(rest) = path
        .strip_prefix("metadata.annotations['")
        .and_then(|r| r.strip_suffix("']"))
    {
        return meta::annotations(pod)
            .and_then(|l| l.get(rest))
            .map(scalar_text)
            .unwrap_or_default();
    }
    match path {
        "metadata.name" => meta::name(pod).to_string(),
        "metadata.namespace" => meta::namespace(pod).unwrap_or("").to_string(),
        "metadata.uid" => meta::uid(pod).to_string(),
        "metadata.labels" => join_kv_lines(meta::labels(pod)),
        "metadata.annotations" => join_kv_lines(meta::annotations(pod)),
        "spec.nodeName" => sv(pod, &["spec", "nodeName"]).to_string(),
        "spec.serviceAccountName" => sv(pod, &["spec", "serviceAccountName"]).to_string(),
        "status.hostIP" => sv(pod, &["status", "hostIP"]).to_string(),
        "status.podIP" => sv(pod, &["status", "podIP"]).to_string(),
        "status.hostIPs" => ips(pod, "hostIPs"),
        "status.podIPs" => ips(pod, "podIPs"),
        _ => String::new(),
    }
}

fn ips(pod: &Object, field: &str) -> String {
    av(pod, &["status", field])
        .iter()
        .map(|i| sv(i, &["ip"]))
        .collect::<Vec<_>>()
        .join(",")
}

fn join_kv_lines(m: Option<&Map>) -> String {
    let Some(m) = m else { return String::new() };
    let mut keys: Vec<&str> = m.keys().map(|k| k.as_str()).collect();
    crate::api::sorting::sort(&mut keys);
    keys.iter()
        .map(|k| format!("{}=\"{}\"", k, scalar_text(&m[*k])))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `resourcehelper.ExtractContainerResourceValue` for limits/requests of cpu and memory.
fn container_resource_value(c: &Value, r: &Value) -> String {
    let resource = sv(r, &["resource"]);
    let divisor = opt_str(r, &["divisor"])
        .and_then(Quantity::parse)
        .filter(|q| q.nanos != 0);
    let (kind, name) = match resource.split_once('.') {
        Some(x) => x,
        None => return String::new(),
    };
    let q = mv(c, &["resources", kind])
        .and_then(|m| m.get(name))
        .and_then(|v| Quantity::parse(&scalar_text(v)))
        .unwrap_or_else(Quantity::zero);
    match name {
        "cpu" => {
            let d = divisor.map_or(1000, |d| d.milli_value().max(1));
            (((q.milli_value() as f64) / (d as f64)).ceil() as i64).to_string()
        }
        _ => {
            let d = divisor.map_or(1, |d| d.value().max(1));
            (((q.value() as f64) / (d as f64)).ceil() as i64).to_string()
        }
    }
}

/// The byte length of base64 data (`Secret.data` values).
fn base64_len(s: &str) -> usize {
    let trimmed = s.trim_end_matches('=');
    trimmed.len() * 3 / 4
}

fn base64_decode(s: &str) -> Option<String> {
    String::from_utf8(crate::base64::decode(s).ok()?).ok()
}

/// `smartLabelFor`: `creationTimestamp` → `Creation Timestamp`, `apiVersion` → `API Version`.
fn smart_label_for(field: &str) -> String {
    if field.chars().any(|c| !c.is_alphabetic() && c != '-') {
        return field.to_string();
    }
    // fatih/camelcase.Split
    let class = |c: char| {
        if c.is_lowercase() {
            1
        } else if c.is_uppercase() {
            2
        } else if c.is_numeric() {
            3
        } else {
            4
        }
    };
    let mut runs: Vec<Vec<char>> = Vec::new();
    let mut last = 0;
    for c in field.chars() {
        let k = class(c);
        if k == last {
            runs.last_mut().expect("run").push(c);
        } else {
            runs.push(vec![c]);
        }
        last = k;
    }
    for i in 0..runs.len().saturating_sub(1) {
        if runs[i][0].is_uppercase() && runs[i + 1][0].is_lowercase() {
            let moved = runs[i].pop().expect("non-empty");
            runs[i + 1].insert(0, moved);
        }
    }
    const ACRONYMS: [&str; 5] = ["API", "URL", "UID", "OSB", "GUID"];
    let mut parts: Vec<String> = Vec::new();
    for run in runs.into_iter().filter(|r| !r.is_empty()) {
        let part: String = run.into_iter().collect();
        if part == "_" {
            continue;
        }
        let upper = part.to_ascii_uppercase();
        if ACRONYMS.contains(&upper.as_str()) {
            parts.push(upper);
        } else {
            let mut chars = part.chars();
            let first = chars.next().map(|c| c.to_ascii_uppercase().to_string());
            parts.push(format!(
                "{}{}",
                first.unwrap_or_default(),
                chars.as_str().to_ascii_lowercase()
            ));
        }
    }
    parts.join(" ")
}

// ---------------------------------------------------------------------------------------------
// The describers
// ---------------------------------------------------------------------------------------------

impl Describer {
    fn pod(&mut self, pod: &Object, events: &[&Object]) {
        self.name_namespace(pod);
        if let Some(p) = at(pod, &["spec", "priority"]).and_then(int_value) {
            self.w.write(0, &format!("Priority:\t{p}\n"));
        }
        let pcn = sv(pod, &["spec", "priorityClassName"]);
        if !pcn.is_empty() {
            self.w.write(0, &format!("Priority Class Name:\t{pcn}\n"));
        }
        let rcn = sv(pod, &["spec", "runtimeClassName"]);
        if !rcn.is_empty() {
            self.w.write(0, &format!("Runtime Class Name:\t{rcn}\n"));
        }
        let sa = sv(pod, &["spec", "serviceAccountName"]);
        if !sa.is_empty() {
            self.w.write(0, &format!("Service Account:\t{sa}\n"));
        }
        let node = sv(pod, &["spec", "nodeName"]);
        if node.is_empty() {
            self.w.write(0, "Node:\t<none>\n");
        } else {
            self.w.write(
                0,
                &format!("Node:\t{}/{}\n", node, sv(pod, &["status", "hostIP"])),
            );
        }
        if let Some(t) = opt_str(pod, &["status", "startTime"]) {
            self.w
                .write(0, &format!("Start Time:\t{}\n", rfc1123z(Some(t))));
        }
        print_labels(&mut self.w, "", "Labels", meta::labels(pod));
        print_annotations(&mut self.w, "Annotations", meta::annotations(pod));
        let phase = sv(pod, &["status", "phase"]);
        if let Some(del) = opt_str(pod, &["metadata", "deletionTimestamp"])
            .filter(|_| phase != "Failed" && phase != "Succeeded")
        {
            self.w.write(
                0,
                &format!("Status:\tTerminating (lasts {})\n", self.age(Some(del))),
            );
            self.w.write(
                0,
                &format!(
                    "Termination Grace Period:\t{}s\n",
                    iv(pod, &["metadata", "deletionGracePeriodSeconds"])
                ),
            );
        } else {
            self.w.write(0, &format!("Status:\t{phase}\n"));
        }
        let reason = sv(pod, &["status", "reason"]);
        if !reason.is_empty() {
            self.w.write(0, &format!("Reason:\t{reason}\n"));
        }
        let message = sv(pod, &["status", "message"]);
        if !message.is_empty() {
            self.w.write(0, &format!("Message:\t{message}\n"));
        }
        if let Some(sp) = at(pod, &["spec", "securityContext", "seccompProfile"]) {
            self.w
                .write(0, &format!("SeccompProfile:\t{}\n", sv(sp, &["type"])));
            if sv(sp, &["type"]) == "Localhost" {
                self.w.write(
                    0,
                    &format!("LocalhostProfile:\t{}\n", sv(sp, &["localhostProfile"])),
                );
            }
        }
        self.w
            .write(0, &format!("IP:\t{}\n", sv(pod, &["status", "podIP"])));
        let pod_ips = av(pod, &["status", "podIPs"]);
        if pod_ips.is_empty() {
            self.w.write(0, "IPs:\t<none>\n");
        } else {
            self.w.write(0, "IPs:\n");
            for ip in pod_ips {
                self.w.write(1, &format!("IP:\t{}\n", sv(ip, &["ip"])));
            }
        }
        if let Some(c) = controlled_by(pod) {
            self.w.write(0, &format!("Controlled By:\t{c}\n"));
        }
        let nominated = sv(pod, &["status", "nominatedNodeName"]);
        if !nominated.is_empty() {
            self.w
                .write(0, &format!("NominatedNodeName:\t{nominated}\n"));
        }
        if let Some(r) = at(pod, &["spec", "resources"]) {
            self.w.write(0, "Resources:\n");
            self.resources(Some(r), 1);
        }
        let init = av(pod, &["spec", "initContainers"]);
        if !init.is_empty() {
            self.containers(
                "Init Containers",
                init,
                Some(av(pod, &["status", "initContainerStatuses"])),
                Some(pod),
                "",
            );
        }
        self.containers(
            "Containers",
            av(pod, &["spec", "containers"]),
            Some(av(pod, &["status", "containerStatuses"])),
            Some(pod),
            "",
        );
        let ephemeral = av(pod, &["spec", "ephemeralContainers"]);
        if !ephemeral.is_empty() {
            self.containers(
                "Ephemeral Containers",
                ephemeral,
                Some(av(pod, &["status", "ephemeralContainerStatuses"])),
                Some(pod),
                "",
            );
        }
        let conditions = av(pod, &["status", "conditions"]);
        let gates = av(pod, &["spec", "readinessGates"]);
        if !gates.is_empty() {
            self.w.write(0, "Readiness Gates:\n  Type\tStatus\n");
            for g in gates {
                let t = sv(g, &["conditionType"]);
                let status = conditions
                    .iter()
                    .find(|c| sv(c, &["type"]) == t)
                    .map_or("<none>".to_string(), |c| sv(c, &["status"]).to_string());
                self.w.write(1, &format!("{t} \t{status} \n"));
            }
        }
        if !conditions.is_empty() {
            self.w.write(0, "Conditions:\n  Type\tStatus\n");
            for c in conditions {
                self.w.write(
                    1,
                    &format!("{} \t{} \n", sv(c, &["type"]), sv(c, &["status"])),
                );
            }
        }
        self.volumes(av(pod, &["spec", "volumes"]), "");
        self.w.write(0, &format!("QoS Class:\t{}\n", pod_qos(pod)));
        print_labels(
            &mut self.w,
            "",
            "Node-Selectors",
            mv(pod, &["spec", "nodeSelector"]),
        );
        print_tolerations(
            &mut self.w,
            "",
            "Tolerations",
            av(pod, &["spec", "tolerations"]),
        );
        self.topology_spread(av(pod, &["spec", "topologySpreadConstraints"]), "");
        if let Some(wr) = at(pod, &["spec", "workloadRef"]) {
            self.w.write(0, "WorkloadRef:\n");
            self.w.write(1, &format!("Name:\t{}\n", sv(wr, &["name"])));
            self.w
                .write(1, &format!("PodGroup:\t{}\n", sv(wr, &["podGroup"])));
            let key = sv(wr, &["podGroupReplicaKey"]);
            if !key.is_empty() {
                self.w.write(1, &format!("PodGroupReplicaKey:\t{key}\n"));
            }
        }
        self.events(events);
    }

    fn deployment(&mut self, d: &Object, related: &Related, events: &[&Object]) {
        self.name_namespace(d);
        self.w.write(
            0,
            &format!(
                "CreationTimestamp:\t{}\n",
                rfc1123z(opt_str(d, &["metadata", "creationTimestamp"]))
            ),
        );
        print_labels(&mut self.w, "", "Labels", meta::labels(d));
        print_annotations(&mut self.w, "Annotations", meta::annotations(d));
        self.w.write(
            0,
            &format!(
                "Selector:\t{}\n",
                selector_string(at(d, &["spec", "selector"]))
            ),
        );
        let replicas = at(d, &["spec", "replicas"])
            .and_then(int_value)
            .unwrap_or(1);
        self.w.write(
            0,
            &format!(
                "Replicas:\t{} desired | {} updated | {} total | {} available | {} unavailable\n",
                replicas,
                iv(d, &["status", "updatedReplicas"]),
                iv(d, &["status", "replicas"]),
                iv(d, &["status", "availableReplicas"]),
                iv(d, &["status", "unavailableReplicas"])
            ),
        );
        self.w.write(
            0,
            &format!("StrategyType:\t{}\n", sv(d, &["spec", "strategy", "type"])),
        );
        self.w.write(
            0,
            &format!(
                "MinReadySeconds:\t{}\n",
                iv(d, &["spec", "minReadySeconds"])
            ),
        );
        if let Some(ru) = at(d, &["spec", "strategy", "rollingUpdate"]) {
            self.w.write(
                0,
                &format!(
                    "RollingUpdateStrategy:\t{} max unavailable, {} max surge\n",
                    int_or_string(at(ru, &["maxUnavailable"])),
                    int_or_string(at(ru, &["maxSurge"]))
                ),
            );
        }
        self.pod_template(at(d, &["spec", "template"]));
        self.conditions_type_status_reason(d);

        // deploymentutil.GetAllReplicaSets: the ReplicaSets this Deployment controls, by
        // creation time; the new one has the Deployment's template (ignoring the hash label).
        let uid = meta::uid(d);
        let ns = meta::namespace(d);
        let mut owned: Vec<&Object> = related
            .replica_sets
            .iter()
            .filter(|rs| {
                meta::namespace(rs) == ns
                    && meta::controller_ref(rs).is_some_and(|r| sv(r, &["uid"]) == uid)
            })
            .collect();
        crate::api::sorting::sort_by(&mut owned, &|a, b| {
            let ta = opt_str(a, &["metadata", "creationTimestamp"]).and_then(unix_ms);
            let tb = opt_str(b, &["metadata", "creationTimestamp"]).and_then(unix_ms);
            ta.cmp(&tb).then_with(|| meta::name(a).cmp(meta::name(b)))
        });
        let strip_hash = |t: Option<&Value>| -> Value {
            let mut t = t.cloned().unwrap_or(Value::Null);
            if let Some(l) = t
                .get_mut("metadata")
                .and_then(|m| m.get_mut("labels"))
                .and_then(Value::as_object_mut)
            {
                l.remove("pod-template-hash");
            }
            t
        };
        let want = strip_hash(at(d, &["spec", "template"]));
        let new_rs = owned
            .iter()
            .find(|rs| strip_hash(at(rs, &["spec", "template"])) == want)
            .copied();
        let old: Vec<&Object> = owned
            .iter()
            .filter(|rs| new_rs.is_none_or(|n| meta::uid(n) != meta::uid(rs)))
            .copied()
            .collect();
        if !owned.is_empty() {
            let fmt = |list: &[&Object]| -> String {
                let s: Vec<String> = list
                    .iter()
                    .map(|rs| {
                        format!(
                            "{} ({}/{} replicas created)",
                            meta::name(rs),
                            iv(rs, &["status", "replicas"]),
                            iv(rs, &["spec", "replicas"])
                        )
                    })
                    .collect();
                if s.is_empty() {
                    "<none>".to_string()
                } else {
                    s.join(", ")
                }
            };
            let new_list: Vec<&Object> = new_rs.into_iter().collect();
            self.w
                .write(0, &format!("OldReplicaSets:\t{}\n", fmt(&old)));
            self.w
                .write(0, &format!("NewReplicaSet:\t{}\n", fmt(&new_list)));
        }
        self.events(events);
    }

    fn replica_set(&mut self, rs: &Object, related: &Related, events: &[&Object]) {
        self.name_namespace(rs);
        self.w.write(
            0,
            &format!(
                "Selector:\t{}\n",
                format_label_selector(at(rs, &["spec", "selector"]))
            ),
        );
        print_labels(&mut self.w, "", "Labels", meta::labels(rs));
        print_annotations(&mut self.w, "Annotations", meta::annotations(rs));
        if let Some(c) = controlled_by(rs) {
            self.w.write(0, &format!("Controlled By:\t{c}\n"));
        }
        self.w.write(
            0,
            &format!(
                "Replicas:\t{} current / {} desired\n",
                iv(rs, &["status", "replicas"]),
                at(rs, &["spec", "replicas"])
                    .and_then(int_value)
                    .unwrap_or(1)
            ),
        );
        self.w.write(0, "Pods Status:\t");
        self.w
            .write(0, &format!("{}\n", pods_status(rs, related.pods)));
        self.pod_template(at(rs, &["spec", "template"]));
        self.conditions_type_status_reason(rs);
        self.events(events);
    }

    fn node(&mut self, node: &Object, related: &Related, events: &[&Object]) {
        let name = meta::name(node);
        self.w.write(0, &format!("Name:\t{name}\n"));
        let roles = node_roles(node);
        self.w.write(
            0,
            &format!(
                "Roles:\t{}\n",
                if roles.is_empty() {
                    "<none>".to_string()
                } else {
                    roles.join(",")
                }
            ),
        );
        print_labels(&mut self.w, "", "Labels", meta::labels(node));
        print_annotations(&mut self.w, "Annotations", meta::annotations(node));
        self.w.write(
            0,
            &format!(
                "CreationTimestamp:\t{}\n",
                rfc1123z(opt_str(node, &["metadata", "creationTimestamp"]))
            ),
        );
        print_taints(&mut self.w, "Taints", av(node, &["spec", "taints"]));
        self.w.write(
            0,
            &format!("Unschedulable:\t{}\n", bv(node, &["spec", "unschedulable"])),
        );
        match related.lease {
            Some(lease) => {
                self.w.write(0, "Lease:\n");
                let holder = opt_str(lease, &["spec", "holderIdentity"]).unwrap_or("<unset>");
                self.w.write(1, &format!("HolderIdentity:\t{holder}\n"));
                for (title, field) in [("AcquireTime", "acquireTime"), ("RenewTime", "renewTime")] {
                    let t = opt_str(lease, &["spec", field])
                        .map_or("<unset>".to_string(), |t| rfc1123z(Some(t)));
                    self.w.write(1, &format!("{title}:\t{t}\n"));
                }
            }
            None => self.w.write(
                0,
                &format!(
                    "Lease:\tFailed to get lease: leases.coordination.k8s.io \"{name}\" not found\n"
                ),
            ),
        }
        let conds = av(node, &["status", "conditions"]);
        if !conds.is_empty() {
            self.w.write(
                0,
                "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n",
            );
            self.w.write(
                1,
                "----\t------\t-----------------\t------------------\t------\t-------\n",
            );
            for c in conds {
                self.w.write(
                    1,
                    &format!(
                        "{} \t{} \t{} \t{} \t{} \t{}\n",
                        sv(c, &["type"]),
                        sv(c, &["status"]),
                        rfc1123z(opt_str(c, &["lastHeartbeatTime"])),
                        rfc1123z(opt_str(c, &["lastTransitionTime"])),
                        sv(c, &["reason"]),
                        sv(c, &["message"])
                    ),
                );
            }
        }
        self.w.write(0, "Addresses:\n");
        for a in av(node, &["status", "addresses"]) {
            self.w.write(
                1,
                &format!("{}:\t{}\n", sv(a, &["type"]), sv(a, &["address"])),
            );
        }
        for (title, field) in [("Capacity", "capacity"), ("Allocatable", "allocatable")] {
            let Some(list) = mv(node, &["status", field]).filter(|l| !l.is_empty()) else {
                continue;
            };
            self.w.write(0, &format!("{title}:\n"));
            let mut names: Vec<&str> = list.keys().map(|k| k.as_str()).collect();
            crate::api::sorting::sort(&mut names);
            for n in names {
                self.w.write(
                    0,
                    &format!("  {n}:\t{}\n", canonical_quantity(&scalar_text(&list[n]))),
                );
            }
        }
        self.w.write(0, "System Info:\n");
        for (title, field) in [
            ("Machine ID", "machineID"),
            ("System UUID", "systemUUID"),
            ("Boot ID", "bootID"),
            ("Kernel Version", "kernelVersion"),
            ("OS Image", "osImage"),
            ("Operating System", "operatingSystem"),
            ("Architecture", "architecture"),
            ("Container Runtime Version", "containerRuntimeVersion"),
            ("Kubelet Version", "kubeletVersion"),
            ("Kube-Proxy Version", "kubeProxyVersion"),
        ] {
            self.w.write(
                0,
                &format!("  {title}:\t{}\n", sv(node, &["status", "nodeInfo", field])),
            );
        }
        let pod_cidr = sv(node, &["spec", "podCIDR"]);
        if !pod_cidr.is_empty() {
            self.w.write(0, &format!("PodCIDR:\t{pod_cidr}\n"));
        }
        let cidrs: Vec<String> = av(node, &["spec", "podCIDRs"])
            .iter()
            .map(scalar_text)
            .collect();
        if !cidrs.is_empty() {
            self.w
                .write(0, &format!("PodCIDRs:\t{}\n", cidrs.join(",")));
        }
        let provider = sv(node, &["spec", "providerID"]);
        if !provider.is_empty() {
            self.w.write(0, &format!("ProviderID:\t{provider}\n"));
        }
        let pods: Vec<&Object> = related
            .pods
            .iter()
            .filter(|p| {
                sv(p, &["spec", "nodeName"]) == name
                    && !matches!(sv(p, &["status", "phase"]), "Succeeded" | "Failed")
            })
            .collect();
        self.node_resources(node, &pods);
        self.events(events);
    }

    /// `describeNodeResource`.
    fn node_resources(&mut self, node: &Object, pods: &[&Object]) {
        self.w.write(
            0,
            &format!("Non-terminated Pods:\t({} in total)\n", pods.len()),
        );
        self.w.write(
            1,
            "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n",
        );
        self.w.write(
            1,
            "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n",
        );
        let allocatable = match mv(node, &["status", "allocatable"]).filter(|a| !a.is_empty()) {
            Some(a) => resource_list(Some(a)),
            None => resource_list(mv(node, &["status", "capacity"])),
        };
        let alloc = |n: &str| {
            rl_get(&allocatable, n)
                .copied()
                .unwrap_or_else(Quantity::zero)
        };
        let pct = |a: i64, b: i64| -> i64 {
            if b == 0 {
                0
            } else {
                ((a as f64) / (b as f64) * 100.0) as i64
            }
        };
        let get = |l: &ResourceList, n: &str| rl_get(l, n).copied().unwrap_or_else(Quantity::zero);
        let mut total_reqs: ResourceList = Vec::new();
        let mut total_limits: ResourceList = Vec::new();
        for p in pods {
            let (reqs, limits) = pod_requests_and_limits(p);
            let (cr, cl) = (get(&reqs, "cpu"), get(&limits, "cpu"));
            let (mr, ml) = (get(&reqs, "memory"), get(&limits, "memory"));
            let acpu = alloc("cpu").milli_value();
            let amem = alloc("memory").value();
            self.w.write(
                1,
                &format!(
                    "{}\t{}\t\t{} ({}%)\t{} ({}%)\t{} ({}%)\t{} ({}%)\t{}\n",
                    meta::namespace(p).unwrap_or(""),
                    meta::name(p),
                    cr,
                    pct(cr.milli_value(), acpu),
                    cl,
                    pct(cl.milli_value(), acpu),
                    mr,
                    pct(mr.value(), amem),
                    ml,
                    pct(ml.value(), amem),
                    self.age(opt_str(p, &["metadata", "creationTimestamp"]))
                ),
            );
            add_resource_list(&mut total_reqs, &reqs);
            add_resource_list(&mut total_limits, &limits);
        }
        self.w.write(
            0,
            "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n",
        );
        self.w.write(1, "Resource\tRequests\tLimits\n");
        self.w.write(1, "--------\t--------\t------\n");
        for (name, milli) in [
            ("cpu", true),
            ("memory", false),
            ("ephemeral-storage", false),
        ] {
            let (r, l) = (get(&total_reqs, name), get(&total_limits, name));
            let (rv, lv, av_) = if milli {
                (r.milli_value(), l.milli_value(), alloc(name).milli_value())
            } else {
                (r.value(), l.value(), alloc(name).value())
            };
            self.w.write(
                1,
                &format!("{name}\t{r} ({}%)\t{l} ({}%)\n", pct(rv, av_), pct(lv, av_)),
            );
        }
        let mut huge: Vec<&String> = Vec::new();
        let mut ext: Vec<&String> = Vec::new();
        for (n, _) in &allocatable {
            if n.starts_with("hugepages-") {
                huge.push(n);
            } else if !matches!(n.as_str(), "cpu" | "memory" | "ephemeral-storage" | "pods")
                && !n.starts_with("requests.hugepages-")
            {
                ext.push(n);
            }
        }
        crate::api::sorting::sort(&mut huge);
        crate::api::sorting::sort(&mut ext);
        for n in huge {
            let (r, l) = (get(&total_reqs, n), get(&total_limits, n));
            let a = alloc(n).value();
            self.w.write(
                1,
                &format!(
                    "{n}\t{r} ({}%)\t{l} ({}%)\n",
                    pct(r.value(), a),
                    pct(l.value(), a)
                ),
            );
        }
        for n in ext {
            self.w.write(
                1,
                &format!("{n}\t{}\t{}\n", get(&total_reqs, n), get(&total_limits, n)),
            );
        }
    }

    fn service(&mut self, svc: &Object, related: &Related, events: &[&Object]) {
        self.name_namespace(svc);
        print_labels(&mut self.w, "", "Labels", meta::labels(svc));
        print_annotations(&mut self.w, "Annotations", meta::annotations(svc));
        self.w.write(
            0,
            &format!(
                "Selector:\t{}\n",
                format_labels(mv(svc, &["spec", "selector"]))
            ),
        );
        self.w
            .write(0, &format!("Type:\t{}\n", sv(svc, &["spec", "type"])));
        if let Some(p) = opt_str(svc, &["spec", "ipFamilyPolicy"]) {
            self.w.write(0, &format!("IP Family Policy:\t{p}\n"));
        }
        let families: Vec<String> = av(svc, &["spec", "ipFamilies"])
            .iter()
            .map(scalar_text)
            .collect();
        self.w.write(
            0,
            &format!(
                "IP Families:\t{}\n",
                if families.is_empty() {
                    "<none>".to_string()
                } else {
                    families.join(",")
                }
            ),
        );
        self.w
            .write(0, &format!("IP:\t{}\n", sv(svc, &["spec", "clusterIP"])));
        let ips: Vec<String> = av(svc, &["spec", "clusterIPs"])
            .iter()
            .map(scalar_text)
            .collect();
        self.w.write(
            0,
            &format!(
                "IPs:\t{}\n",
                if ips.is_empty() {
                    "<none>".to_string()
                } else {
                    ips.join(",")
                }
            ),
        );
        let external: Vec<String> = av(svc, &["spec", "externalIPs"])
            .iter()
            .map(scalar_text)
            .collect();
        if !external.is_empty() {
            self.w
                .write(0, &format!("External IPs:\t{}\n", external.join(",")));
        }
        let lb_ip = sv(svc, &["spec", "loadBalancerIP"]);
        if !lb_ip.is_empty() {
            self.w
                .write(0, &format!("Desired LoadBalancer IP:\t{lb_ip}\n"));
        }
        let ext_name = sv(svc, &["spec", "externalName"]);
        if !ext_name.is_empty() {
            self.w.write(0, &format!("External Name:\t{ext_name}\n"));
        }
        let ingress = av(svc, &["status", "loadBalancer", "ingress"]);
        if !ingress.is_empty() {
            let list: Vec<String> = ingress
                .iter()
                .map(|i| {
                    let ip = sv(i, &["ip"]);
                    if ip.is_empty() {
                        sv(i, &["hostname"]).to_string()
                    } else if let Some(mode) = opt_str(i, &["ipMode"]) {
                        format!("{ip} ({mode})")
                    } else {
                        ip.to_string()
                    }
                })
                .collect();
            self.w
                .write(0, &format!("LoadBalancer Ingress:\t{}\n", list.join(", ")));
        }
        let svc_name = meta::name(svc);
        let slices: Vec<&Object> = related
            .endpoint_slices
            .iter()
            .filter(|s| {
                meta::namespace(s) == meta::namespace(svc)
                    && meta::labels(s)
                        .and_then(|l| l.get("kubernetes.io/service-name"))
                        .and_then(Value::as_str)
                        == Some(svc_name)
            })
            .collect();
        for sp in av(svc, &["spec", "ports"]) {
            let port_name = sv(sp, &["name"]);
            let name = if port_name.is_empty() {
                "<unset>"
            } else {
                port_name
            };
            let proto = sv(sp, &["protocol"]);
            self.w.write(
                0,
                &format!("Port:\t{name}\t{}/{proto}\n", iv(sp, &["port"])),
            );
            self.w.write(
                0,
                &format!(
                    "TargetPort:\t{}/{proto}\n",
                    int_or_string(at(sp, &["targetPort"]))
                ),
            );
            let node_port = iv(sp, &["nodePort"]);
            if node_port != 0 {
                self.w
                    .write(0, &format!("NodePort:\t{name}\t{node_port}/{proto}\n"));
            }
            self.w.write(
                0,
                &format!(
                    "Endpoints:\t{}\n",
                    format_endpoint_slices(&slices, port_name)
                ),
            );
        }
        self.w.write(
            0,
            &format!(
                "Session Affinity:\t{}\n",
                sv(svc, &["spec", "sessionAffinity"])
            ),
        );
        let etp = sv(svc, &["spec", "externalTrafficPolicy"]);
        if !etp.is_empty() {
            self.w
                .write(0, &format!("External Traffic Policy:\t{etp}\n"));
        }
        if let Some(itp) = opt_str(svc, &["spec", "internalTrafficPolicy"]) {
            self.w
                .write(0, &format!("Internal Traffic Policy:\t{itp}\n"));
        }
        let hc = iv(svc, &["spec", "healthCheckNodePort"]);
        if hc != 0 {
            self.w.write(0, &format!("HealthCheck NodePort:\t{hc}\n"));
        }
        let ranges: Vec<String> = av(svc, &["spec", "loadBalancerSourceRanges"])
            .iter()
            .map(scalar_text)
            .collect();
        if !ranges.is_empty() {
            self.w.write(
                0,
                &format!("LoadBalancer Source Ranges:\t{}\n", ranges.join(",")),
            );
        }
        if let Some(td) = opt_str(svc, &["spec", "trafficDistribution"]) {
            self.w.write(0, &format!("Traffic Distribution:\t{td}\n"));
        }
        self.events(events);
    }

    fn namespace(&mut self, ns: &Object, related: &Related) {
        self.w.write(0, &format!("Name:\t{}\n", meta::name(ns)));
        print_labels(&mut self.w, "", "Labels", meta::labels(ns));
        print_annotations(&mut self.w, "Annotations", meta::annotations(ns));
        self.w
            .write(0, &format!("Status:\t{}\n", sv(ns, &["status", "phase"])));
        let conds = av(ns, &["status", "conditions"]);
        if !conds.is_empty() {
            self.w.write(0, "Conditions:\n");
            self.w
                .write(1, "Type\tStatus\tLastTransitionTime\tReason\tMessage\n");
            self.w
                .write(1, "----\t------\t------------------\t------\t-------\n");
            for c in conds {
                self.w.write(
                    1,
                    &format!(
                        "{}\t{}\t{}\t{}\t{}\n",
                        sv(c, &["type"]),
                        sv(c, &["status"]),
                        rfc1123z(opt_str(c, &["lastTransitionTime"])),
                        sv(c, &["reason"]),
                        sv(c, &["message"])
                    ),
                );
            }
        }
        let name = meta::name(ns);
        let mut quotas: Vec<&Object> = related
            .resource_quotas
            .iter()
            .filter(|q| meta::namespace(q) == Some(name))
            .collect();
        crate::api::sorting::sort_by(&mut quotas, &|a, b| meta::name(a).cmp(meta::name(b)));
        self.w.write(0, "\n");
        if quotas.is_empty() {
            self.w.write(0, "No resource quota.\n");
        } else {
            self.w.write(0, "Resource Quotas\n");
            for q in quotas {
                self.w.write(1, &format!("Name:\t{}\n", meta::name(q)));
                let mut scopes: Vec<String> =
                    av(q, &["spec", "scopes"]).iter().map(scalar_text).collect();
                if !scopes.is_empty() {
                    crate::api::sorting::sort(&mut scopes);
                    self.w
                        .write(1, &format!("Scopes:\t{}\n", scopes.join(", ")));
                    for s in &scopes {
                        if let Some(h) = quota_scope_help(s) {
                            self.w.write(1, &format!("* {h}\n"));
                        }
                    }
                }
                self.w.write(1, "Resource\tUsed\tHard\n");
                self.w.write(1, "--------\t---\t---\n");
                for (r, used, hard) in quota_rows(q) {
                    self.w.write(1, &format!("{r}\t{used}\t{hard}\n"));
                }
            }
        }
        let limit_ranges: Vec<&Object> = related
            .limit_ranges
            .iter()
            .filter(|l| meta::namespace(l) == Some(name))
            .collect();
        self.w.write(0, "\n");
        if limit_ranges.is_empty() {
            self.w.write(0, "No LimitRange resource.\n");
        } else {
            self.w.write(
                0,
                "Resource Limits\n Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n",
            );
            self.w.write(
                0,
                " ----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n",
            );
            for lr in limit_ranges {
                for item in av(lr, &["spec", "limits"]) {
                    let fields = [
                        "min",
                        "max",
                        "defaultRequest",
                        "default",
                        "maxLimitRequestRatio",
                    ];
                    let mut names: Vec<String> = Vec::new();
                    for f in [
                        "max",
                        "min",
                        "default",
                        "defaultRequest",
                        "maxLimitRequestRatio",
                    ] {
                        if let Some(m) = mv(item, &[f]) {
                            for k in m.keys() {
                                if !names.iter().any(|n| n == k) {
                                    names.push(k.to_string());
                                }
                            }
                        }
                    }
                    // Go iterates a map here; sorted is the stable choice.
                    crate::api::sorting::sort(&mut names);
                    for n in names {
                        let vals: Vec<String> = fields
                            .iter()
                            .map(|f| {
                                mv(item, &[f])
                                    .and_then(|m| m.get(&n))
                                    .map_or("-".to_string(), |v| {
                                        canonical_quantity(&scalar_text(v))
                                    })
                            })
                            .collect();
                        self.w.write(
                            0,
                            &format!(" {}\t{}\t{}\n", sv(item, &["type"]), n, vals.join("\t")),
                        );
                    }
                }
            }
        }
    }

    fn config_map(&mut self, cm: &Object, events: &[&Object]) {
        self.name_namespace(cm);
        print_labels(&mut self.w, "", "Labels", meta::labels(cm));
        print_annotations(&mut self.w, "Annotations", meta::annotations(cm));
        self.w.write(0, "\nData\n====\n");
        if let Some(data) = mv(cm, &["data"]) {
            let mut keys: Vec<&str> = data.keys().map(|k| k.as_str()).collect();
            crate::api::sorting::sort(&mut keys);
            for k in keys {
                self.w.write(0, &format!("{k}:\n----\n"));
                self.w.write(0, &format!("{}\n", scalar_text(&data[k])));
                self.w.write(0, "\n");
            }
        }
        self.w.write(0, "\nBinaryData\n====\n");
        if let Some(data) = mv(cm, &["binaryData"]) {
            let mut keys: Vec<&str> = data.keys().map(|k| k.as_str()).collect();
            crate::api::sorting::sort(&mut keys);
            for k in keys {
                self.w.write(
                    0,
                    &format!("{k}: {} bytes\n", base64_len(&scalar_text(&data[k]))),
                );
            }
        }
        self.w.write(0, "\n");
        self.events(events);
    }

    fn secret(&mut self, s: &Object) {
        self.name_namespace(s);
        print_labels(&mut self.w, "", "Labels", meta::labels(s));
        print_annotations(&mut self.w, "Annotations", meta::annotations(s));
        let t = sv(s, &["type"]);
        self.w.write(0, &format!("\nType:\t{t}\n"));
        self.w.write(0, "\nData\n====\n");
        if let Some(data) = mv(s, &["data"]) {
            let mut keys: Vec<&str> = data.keys().map(|k| k.as_str()).collect();
            crate::api::sorting::sort(&mut keys);
            for k in keys {
                let raw = scalar_text(&data[k]);
                if k == "token" && t == "kubernetes.io/service-account-token" {
                    let text = base64_decode(&raw).unwrap_or_default();
                    self.w.write(0, &format!("{k}:\t{text}\n"));
                } else {
                    self.w
                        .write(0, &format!("{k}:\t{} bytes\n", base64_len(&raw)));
                }
            }
        }
    }

    fn service_account(&mut self, sa: &Object, events: &[&Object]) {
        self.name_namespace(sa);
        print_labels(&mut self.w, "", "Labels", meta::labels(sa));
        print_annotations(&mut self.w, "Annotations", meta::annotations(sa));
        let pull: Vec<&str> = av(sa, &["imagePullSecrets"])
            .iter()
            .map(|s| sv(s, &["name"]))
            .collect();
        let header = "Image pull secrets:";
        if pull.is_empty() {
            self.w.write(0, &format!("{header}\t<none>\n"));
        } else {
            let mut prefix = header;
            for n in pull {
                self.w.write(0, &format!("{prefix}\t{n}\n"));
                prefix = "                   ";
            }
        }
        self.events(events);
    }

    fn quota(&mut self, q: &Object) {
        self.name_namespace(q);
        let mut scopes: Vec<String> = av(q, &["spec", "scopes"]).iter().map(scalar_text).collect();
        if !scopes.is_empty() {
            crate::api::sorting::sort(&mut scopes);
            self.w
                .write(0, &format!("Scopes:\t{}\n", scopes.join(", ")));
            for s in &scopes {
                if let Some(h) = quota_scope_help(s) {
                    self.w.write(0, &format!(" * {h}\n"));
                }
            }
        }
        self.w.write(0, "Resource\tUsed\tHard\n");
        self.w.write(0, "--------\t----\t----\n");
        for (r, used, hard) in quota_rows(q) {
            self.w.write(0, &format!("{r}\t{used}\t{hard}\n"));
        }
    }

    fn daemon_set(&mut self, ds: &Object, related: &Related, events: &[&Object]) {
        self.name_namespace(ds);
        self.w.write(
            0,
            &format!(
                "Selector:\t{}\n",
                selector_string(at(ds, &["spec", "selector"]))
            ),
        );
        self.w.write(
            0,
            &format!(
                "Node-Selector:\t{}\n",
                format_labels(mv(ds, &["spec", "template", "spec", "nodeSelector"]))
            ),
        );
        print_labels(&mut self.w, "", "Labels", meta::labels(ds));
        print_annotations(&mut self.w, "Annotations", meta::annotations(ds));
        for (title, field) in [
            (
                "Desired Number of Nodes Scheduled",
                "desiredNumberScheduled",
            ),
            (
                "Current Number of Nodes Scheduled",
                "currentNumberScheduled",
            ),
            (
                "Number of Nodes Scheduled with Up-to-date Pods",
                "updatedNumberScheduled",
            ),
            (
                "Number of Nodes Scheduled with Available Pods",
                "numberAvailable",
            ),
            ("Number of Nodes Misscheduled", "numberMisscheduled"),
        ] {
            self.w
                .write(0, &format!("{title}: {}\n", iv(ds, &["status", field])));
        }
        self.w.write(
            0,
            &format!("Pods Status:\t{}\n", pods_status(ds, related.pods)),
        );
        self.pod_template(at(ds, &["spec", "template"]));
        self.events(events);
    }

    fn stateful_set(&mut self, sts: &Object, related: &Related, events: &[&Object]) {
        self.name_namespace(sts);
        self.w.write(
            0,
            &format!(
                "CreationTimestamp:\t{}\n",
                rfc1123z(opt_str(sts, &["metadata", "creationTimestamp"]))
            ),
        );
        self.w.write(
            0,
            &format!(
                "Selector:\t{}\n",
                selector_string(at(sts, &["spec", "selector"]))
            ),
        );
        print_labels(&mut self.w, "", "Labels", meta::labels(sts));
        print_annotations(&mut self.w, "Annotations", meta::annotations(sts));
        self.w.write(
            0,
            &format!(
                "Replicas:\t{} desired | {} total\n",
                at(sts, &["spec", "replicas"])
                    .and_then(int_value)
                    .unwrap_or(1),
                iv(sts, &["status", "replicas"])
            ),
        );
        self.w.write(
            0,
            &format!(
                "Update Strategy:\t{}\n",
                sv(sts, &["spec", "updateStrategy", "type"])
            ),
        );
        if let Some(ru) = at(sts, &["spec", "updateStrategy", "rollingUpdate"]) {
            if let Some(p) = at(ru, &["partition"]).and_then(int_value) {
                self.w.write(1, &format!("Partition:\t{p}\n"));
                if let Some(mu) = at(ru, &["maxUnavailable"]) {
                    self.w.write(
                        1,
                        &format!("MaxUnavailable:\t{}\n", int_or_string(Some(mu))),
                    );
                }
            }
        }
        self.w.write(
            0,
            &format!("Pods Status:\t{}\n", pods_status(sts, related.pods)),
        );
        self.pod_template(at(sts, &["spec", "template"]));
        let claims = av(sts, &["spec", "volumeClaimTemplates"]);
        if claims.is_empty() {
            self.w.write(0, "Volume Claims:\t<none>\n");
        } else {
            self.w.write(0, "Volume Claims:\n");
            for pvc in claims {
                self.w.write(1, &format!("Name:\t{}\n", meta::name(pvc)));
                let class = meta::annotations(pvc)
                    .and_then(|a| a.get("volume.beta.kubernetes.io/storage-class"))
                    .map(scalar_text)
                    .unwrap_or_else(|| sv(pvc, &["spec", "storageClassName"]).to_string());
                self.w.write(1, &format!("StorageClass:\t{class}\n"));
                print_labels(&mut self.w, "  ", "Labels", meta::labels(pvc));
                print_labels(&mut self.w, "  ", "Annotations", meta::annotations(pvc));
                let capacity = opt_str(pvc, &["spec", "resources", "requests", "storage"])
                    .map_or("<default>".to_string(), canonical_quantity);
                self.w.write(1, &format!("Capacity:\t{capacity}\n"));
                let modes: Vec<String> = av(pvc, &["spec", "accessModes"])
                    .iter()
                    .map(scalar_text)
                    .collect();
                self.w
                    .write(1, &format!("Access Modes:\t[{}]\n", modes.join(" ")));
            }
        }
        self.events(events);
    }

    fn job(&mut self, job: &Object, events: &[&Object]) {
        self.name_namespace(job);
        self.w.write(
            0,
            &format!(
                "Selector:\t{}\n",
                selector_string(at(job, &["spec", "selector"]))
            ),
        );
        print_labels(&mut self.w, "", "Labels", meta::labels(job));
        print_annotations(&mut self.w, "Annotations", meta::annotations(job));
        if let Some(c) = controlled_by(job) {
            self.w.write(0, &format!("Controlled By:\t{c}\n"));
        }
        if let Some(p) = at(job, &["spec", "parallelism"]).and_then(int_value) {
            self.w.write(0, &format!("Parallelism:\t{p}\n"));
        }
        match at(job, &["spec", "completions"]).and_then(int_value) {
            Some(c) => self.w.write(0, &format!("Completions:\t{c}\n")),
            None => self.w.write(0, "Completions:\t<unset>\n"),
        }
        let mode = opt_str(job, &["spec", "completionMode"]);
        if let Some(m) = mode {
            self.w.write(0, &format!("Completion Mode:\t{m}\n"));
        }
        if let Some(b) = at(job, &["spec", "suspend"]).and_then(Value::as_bool) {
            self.w.write(0, &format!("Suspend:\t{b}\n"));
        }
        if let Some(b) = at(job, &["spec", "backoffLimit"]).and_then(int_value) {
            self.w.write(0, &format!("Backoff Limit:\t{b}\n"));
        }
        if let Some(t) = at(job, &["spec", "ttlSecondsAfterFinished"]).and_then(int_value) {
            self.w
                .write(0, &format!("TTL Seconds After Finished:\t{t}\n"));
        }
        let start = opt_str(job, &["status", "startTime"]);
        let done = opt_str(job, &["status", "completionTime"]);
        if let Some(t) = start {
            self.w
                .write(0, &format!("Start Time:\t{}\n", rfc1123z(Some(t))));
        }
        if let Some(t) = done {
            self.w
                .write(0, &format!("Completed At:\t{}\n", rfc1123z(Some(t))));
        }
        if let (Some(s), Some(c)) = (start.and_then(unix_ms), done.and_then(unix_ms)) {
            self.w.write(
                0,
                &format!(
                    "Duration:\t{}\n",
                    super::printers::human_duration_signed(c - s)
                ),
            );
        }
        if let Some(a) = at(job, &["spec", "activeDeadlineSeconds"]).and_then(int_value) {
            self.w
                .write(0, &format!("Active Deadline Seconds:\t{a}s\n"));
        }
        let (active, succeeded, failed) = (
            iv(job, &["status", "active"]),
            iv(job, &["status", "succeeded"]),
            iv(job, &["status", "failed"]),
        );
        match at(job, &["status", "ready"]).and_then(int_value) {
            Some(ready) => self.w.write(
                0,
                &format!(
                    "Pods Statuses:\t{active} Active ({ready} Ready) / {succeeded} Succeeded / {failed} Failed\n"
                ),
            ),
            None => self.w.write(
                0,
                &format!(
                    "Pods Statuses:\t{active} Active / {succeeded} Succeeded / {failed} Failed\n"
                ),
            ),
        }
        if mode == Some("Indexed") {
            let indexes = sv(job, &["status", "completedIndexes"]);
            let text = if indexes.is_empty() {
                "<none>".to_string()
            } else {
                match indexes[50.min(indexes.len())..].find(',') {
                    Some(i) => format!("{}...", &indexes[..50 + i + 1]),
                    None => indexes.to_string(),
                }
            };
            self.w.write(0, &format!("Completed Indexes:\t{text}\n"));
        }
        self.pod_template(at(job, &["spec", "template"]));
        self.events(events);
    }

    fn endpoints(&mut self, ep: &Object, events: &[&Object]) {
        self.name_namespace(ep);
        print_labels(&mut self.w, "", "Labels", meta::labels(ep));
        print_annotations(&mut self.w, "Annotations", meta::annotations(ep));
        self.w.write(0, "Subsets:\n");
        for subset in av(ep, &["subsets"]) {
            for (title, field) in [
                ("Addresses", "addresses"),
                ("NotReadyAddresses", "notReadyAddresses"),
            ] {
                let ips: Vec<&str> = av(subset, &[field])
                    .iter()
                    .map(|a| sv(a, &["ip"]))
                    .collect();
                self.w
                    .write(1, &format!("{title}:\t{}\n", or_none(&ips.join(","))));
            }
            let ports = av(subset, &["ports"]);
            if !ports.is_empty() {
                self.w.write(1, "Ports:\n");
                self.w.write(2, "Name\tPort\tProtocol\n");
                self.w.write(2, "----\t----\t--------\n");
                for p in ports {
                    let name = match sv(p, &["name"]) {
                        "" => "<unset>",
                        n => n,
                    };
                    self.w.write(
                        2,
                        &format!("{name}\t{}\t{}\n", iv(p, &["port"]), sv(p, &["protocol"])),
                    );
                }
            }
            self.w.write(0, "\n");
        }
        self.events(events);
    }

    /// The generic describer: metadata, then every field (`printUnstructuredContent`).
    fn generic(&mut self, obj: &Object, events: &[&Object]) {
        self.name_namespace(obj);
        print_labels(&mut self.w, "", "Labels", meta::labels(obj));
        print_annotations(&mut self.w, "Annotations", meta::annotations(obj));
        if let Some(m) = obj.as_object() {
            self.unstructured(0, m, "");
        }
        self.events(events);
    }

    fn unstructured(&mut self, level: usize, content: &Map, prefix: &str) {
        const SKIP: [&str; 5] = [
            ".metadata.managedFields",
            ".metadata.name",
            ".metadata.namespace",
            ".metadata.labels",
            ".metadata.annotations",
        ];
        let mut fields: Vec<&str> = content.keys().map(|k| k.as_str()).collect();
        crate::api::sorting::sort(&mut fields);
        for field in fields {
            let value = &content[field];
            let skip_expr = format!("{prefix}.{field}");
            if SKIP.contains(&skip_expr.as_str()) {
                continue;
            }
            match value {
                Value::Object(m) => {
                    self.w
                        .write(level, &format!("{}:\n", smart_label_for(field)));
                    self.unstructured(level + 1, m, &skip_expr);
                }
                Value::Array(items) => {
                    self.w
                        .write(level, &format!("{}:\n", smart_label_for(field)));
                    for child in items {
                        match child {
                            Value::Object(m) => self.unstructured(level + 1, m, &skip_expr),
                            other => self
                                .w
                                .write(level + 1, &format!("{}\n", super::output::go_fmt_v(other))),
                        }
                    }
                }
                other => self.w.write(
                    level,
                    &format!(
                        "{}:\t{}\n",
                        smart_label_for(field),
                        super::output::go_fmt_v(other)
                    ),
                ),
            }
        }
    }
}

/// `getPodStatusForController`: the controller's pods by phase.
fn pods_status(owner: &Object, pods: &[Object]) -> String {
    let uid = meta::uid(owner);
    let (mut running, mut waiting, mut succeeded, mut failed) = (0, 0, 0, 0);
    for p in pods.iter().filter(|p| {
        meta::namespace(p) == meta::namespace(owner)
            && meta::controller_ref(p).is_some_and(|r| sv(r, &["uid"]) == uid)
    }) {
        match sv(p, &["status", "phase"]) {
            "Running" => running += 1,
            "Pending" => waiting += 1,
            "Succeeded" => succeeded += 1,
            "Failed" => failed += 1,
            _ => {}
        }
    }
    format!("{running} Running / {waiting} Waiting / {succeeded} Succeeded / {failed} Failed")
}

fn quota_scope_help(scope: &str) -> Option<&'static str> {
    Some(match scope {
        "Terminating" => "Matches all pods that have an active deadline. These pods have a limited lifespan on a node before being actively terminated by the system.",
        "NotTerminating" => "Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.",
        "BestEffort" => "Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.",
        "NotBestEffort" => "Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service.",
        _ => return None,
    })
}

/// Resource, used and hard of a quota, sorted by resource name; a used value is shown in the
/// hard value's format.
fn quota_rows(q: &Object) -> Vec<(String, String, String)> {
    let hard = mv(q, &["status", "hard"]);
    let used = mv(q, &["status", "used"]);
    let mut names: Vec<&str> = hard
        .map(|h| h.keys().map(|k| k.as_str()).collect())
        .unwrap_or_default();
    crate::api::sorting::sort(&mut names);
    names
        .into_iter()
        .map(|r| {
            let h = hard
                .and_then(|h| h.get(r))
                .and_then(|v| Quantity::parse(&scalar_text(v)))
                .unwrap_or_else(Quantity::zero);
            let mut u = used
                .and_then(|u| u.get(r))
                .and_then(|v| Quantity::parse(&scalar_text(v)))
                .unwrap_or_else(Quantity::zero);
            if u.format != h.format {
                u = Quantity {
                    nanos: u.value() as i128 * NANO,
                    format: h.format,
                };
            }
            (r.to_string(), u.to_string(), h.to_string())
        })
        .collect()
}

/// `formatEndpointSlices(slices, {portName})`: ready endpoints only, at most three shown.
fn format_endpoint_slices(slices: &[&Object], port_name: &str) -> String {
    if slices.is_empty() {
        return "<none>".to_string();
    }
    let max = 3usize;
    let mut list: Vec<String> = Vec::new();
    let mut more = false;
    let mut count = 0usize;
    let ready = |e: &Value| at(e, &["conditions", "ready"]).and_then(Value::as_bool) != Some(false);
    for s in slices {
        let ports = av(s, &["ports"]);
        let endpoints = av(s, &["endpoints"]);
        if ports.is_empty() {
            for e in endpoints {
                if list.len() == max {
                    more = true;
                }
                if !ready(e) {
                    continue;
                }
                if !more {
                    list.push(
                        av(e, &["addresses"])
                            .first()
                            .map(scalar_text)
                            .unwrap_or_default(),
                    );
                }
                count += 1;
            }
        } else {
            for p in ports {
                if sv(p, &["name"]) != port_name {
                    continue;
                }
                for e in endpoints {
                    if list.len() == max {
                        more = true;
                    }
                    if !ready(e) {
                        continue;
                    }
                    if !more {
                        let addr = av(e, &["addresses"])
                            .first()
                            .map(scalar_text)
                            .unwrap_or_default();
                        list.push(join_host_port(&addr, iv(p, &["port"])));
                    }
                    count += 1;
                }
            }
        }
    }
    let ret = list.join(",");
    if more {
        format!("{} + {} more...", ret, count - max)
    } else {
        ret
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::resources::lookup;
    use crate::json;

    fn nginx_pod() -> Value {
        json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "web-7c5ddbdf54-x2k9p", "namespace": "default", "uid": "pod-uid",
                "creationTimestamp": "2026-01-01T00:00:01Z",
                "labels": {"app": "web", "pod-template-hash": "7c5ddbdf54"},
                "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7c5ddbdf54",
                    "uid": "rs-uid", "controller": true, "blockOwnerDeletion": true}]},
            "spec": {
                "containers": [{"name": "nginx", "image": "nginx:1.25", "imagePullPolicy": "IfNotPresent",
                    "ports": [{"containerPort": 80, "protocol": "TCP"}],
                    "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}},
                    "volumeMounts": [{"name": "kube-api-access-abcde", "readOnly": true,
                        "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"}]}],
                "nodeName": "node-1", "priority": 0, "serviceAccountName": "default",
                "tolerations": [
                    {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
                    {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}],
                "volumes": [{"name": "kube-api-access-abcde", "projected": {"defaultMode": 420, "sources": [
                    {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                    {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
                    {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}}]}}]
            },
            "status": {
                "phase": "Running", "hostIP": "172.18.0.3", "podIP": "10.244.1.2",
                "podIPs": [{"ip": "10.244.1.2"}], "startTime": "2026-01-01T00:00:02Z", "qosClass": "Burstable",
                "conditions": [
                    {"type": "PodReadyToStartContainers", "status": "True"},
                    {"type": "Initialized", "status": "True"},
                    {"type": "Ready", "status": "True"},
                    {"type": "ContainersReady", "status": "True"},
                    {"type": "PodScheduled", "status": "True"}],
                "containerStatuses": [{"name": "nginx", "ready": true, "restartCount": 0, "started": true,
                    "image": "docker.io/library/nginx:1.25", "imageID": "docker.io/library/nginx@sha256:abc",
                    "containerID": "containerd://c1",
                    "state": {"running": {"startedAt": "2026-01-01T00:00:07Z"}}}]
            }
        })
    }

    fn event(reason: &str, from: &str, msg: &str, at_s: u64, field_path: Option<&str>) -> Value {
        let ts = crate::kernel::time::rfc3339(at_s * 1000);
        let mut io = json!({"kind": "Pod", "name": "web-7c5ddbdf54-x2k9p", "namespace": "default", "uid": "pod-uid"});
        if let Some(fp) = field_path {
            io["fieldPath"] = json!(fp);
        }
        json!({"metadata": {"name": format!("e-{reason}"), "namespace": "default"},
            "involvedObject": io, "reason": reason, "type": "Normal", "message": msg,
            "source": {"component": from}, "firstTimestamp": ts, "lastTimestamp": ts, "count": 1})
    }

    #[test]
    fn describes_a_pod_like_kubectl() {
        let events = vec![
            event(
                "Scheduled",
                "default-scheduler",
                "Successfully assigned default/web-7c5ddbdf54-x2k9p to node-1",
                1,
                None,
            ),
            event(
                "Pulled",
                "kubelet",
                "Container image \"nginx:1.25\" already present on machine",
                3,
                Some("spec.containers{nginx}"),
            ),
            // Not about this pod.
            json!({"involvedObject": {"kind": "Pod", "name": "other", "namespace": "default"}, "reason": "X"}),
        ];
        let want = "\
Name:             web-7c5ddbdf54-x2k9p
Namespace:        default
Priority:         0
Service Account:  default
Node:             node-1/172.18.0.3
Start Time:       Thu, 01 Jan 2026 00:00:02 +0000
Labels:           app=web
                  pod-template-hash=7c5ddbdf54
Annotations:      <none>
Status:           Running
IP:               10.244.1.2
IPs:
  IP:           10.244.1.2
Controlled By:  ReplicaSet/web-7c5ddbdf54
Containers:
  nginx:
    Container ID:   containerd://c1
    Image:          nginx:1.25
    Image ID:       docker.io/library/nginx@sha256:abc
    Port:           80/TCP
    Host Port:      0/TCP
    State:          Running
      Started:      Thu, 01 Jan 2026 00:00:07 +0000
    Ready:          True
    Restart Count:  0
    Requests:
      cpu:        100m
      memory:     128Mi
    Environment:  <none>
    Mounts:
      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-abcde (ro)
Conditions:
  Type                        Status
  PodReadyToStartContainers   True 
  Initialized                 True 
  Ready                       True 
  ContainersReady             True 
  PodScheduled                True 
Volumes:
  kube-api-access-abcde:
    Type:                    Projected (a volume that contains injected data from multiple sources)
    TokenExpirationSeconds:  3607
    ConfigMapName:           kube-root-ca.crt
    Optional:                false
    DownwardAPI:             true
QoS Class:                   Burstable
Node-Selectors:              <none>
Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s
Events:
  Type    Reason     Age   From               Message
  ----    ------     ----  ----               -------
  Normal  Scheduled  9s    default-scheduler  Successfully assigned default/web-7c5ddbdf54-x2k9p to node-1
  Normal  Pulled     7s    kubelet            spec.containers{nginx}: Container image \"nginx:1.25\" already present on machine
";
        let got = describe(lookup("pods").unwrap(), &nginx_pod(), &events, 10_000);
        assert_eq!(got, want, "\n{got}");
    }

    #[test]
    fn describes_a_pending_crashing_pod() {
        let mut p = nginx_pod();
        p["status"] = json!({"phase": "Pending", "conditions": [
            {"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]});
        p["spec"]["nodeName"] = Value::Null;
        p["spec"]["containers"][0]["command"] = json!(["sh", "-c", "exit 1"]);
        p["spec"]["containers"][0]["env"] = json!([{"name": "A", "value": "1"},
            {"name": "POD", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}}]);
        p["spec"]["containers"][0]["livenessProbe"] = json!({"httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"},
            "initialDelaySeconds": 0, "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3});
        p["spec"]["volumes"] = json!([]);
        p["spec"]["containers"][0]["volumeMounts"] = json!([]);
        p["spec"]["tolerations"] = json!([]);
        p["metadata"]["ownerReferences"] = Value::Null;
        let got = describe(lookup("pods").unwrap(), &p, &[], 10_000);
        let want = "\
Name:             web-7c5ddbdf54-x2k9p
Namespace:        default
Priority:         0
Service Account:  default
Node:             <none>
Labels:           app=web
                  pod-template-hash=7c5ddbdf54
Annotations:      <none>
Status:           Pending
IP:               
IPs:              <none>
Containers:
  nginx:
    Image:      nginx:1.25
    Port:       80/TCP
    Host Port:  0/TCP
    Command:
      sh
      -c
      exit 1
    Requests:
      cpu:     100m
      memory:  128Mi
    Liveness:  http-get http://:8080/healthz delay=0s timeout=1s period=10s #success=1 #failure=3
    Environment:
      A:     1
      POD:   web-7c5ddbdf54-x2k9p (v1:metadata.name)
    Mounts:  <none>
Conditions:
  Type           Status
  PodScheduled   False 
Volumes:         <none>
QoS Class:       Burstable
Node-Selectors:  <none>
Tolerations:     <none>
Events:          <none>
";
        assert_eq!(got, want, "\n{got}");
    }

    fn deployment() -> Value {
        json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "default", "uid": "dep-uid",
                "creationTimestamp": "2026-01-01T00:00:00Z", "labels": {"app": "web"},
                "annotations": {"deployment.kubernetes.io/revision": "1",
                    "kubectl.kubernetes.io/last-applied-configuration": "{}\n"}},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
                "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}},
                "template": {"metadata": {"labels": {"app": "web"}},
                    "spec": {"containers": [{"name": "nginx", "image": "nginx:1.25",
                        "ports": [{"containerPort": 80, "protocol": "TCP"}]}]}}},
            "status": {"replicas": 3, "updatedReplicas": 3, "readyReplicas": 3, "availableReplicas": 3,
                "conditions": [
                    {"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable"},
                    {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable"}]}
        })
    }

    #[test]
    fn describes_a_deployment_like_kubectl() {
        let rs = json!({"metadata": {"name": "web-7c5ddbdf54", "namespace": "default", "uid": "rs-uid",
                "creationTimestamp": "2026-01-01T00:00:00Z",
                "ownerReferences": [{"kind": "Deployment", "name": "web", "uid": "dep-uid", "controller": true}]},
            "spec": {"replicas": 3, "template": {"metadata": {"labels": {"app": "web", "pod-template-hash": "7c5ddbdf54"}},
                "spec": {"containers": [{"name": "nginx", "image": "nginx:1.25",
                    "ports": [{"containerPort": 80, "protocol": "TCP"}]}]}}},
            "status": {"replicas": 3}});
        let ev = json!({"involvedObject": {"kind": "Deployment", "name": "web", "namespace": "default", "uid": "dep-uid"},
            "type": "Normal", "reason": "ScalingReplicaSet", "source": {"component": "deployment-controller"},
            "message": "Scaled up replica set web-7c5ddbdf54 from 0 to 3",
            "firstTimestamp": "2026-01-01T00:00:00Z", "lastTimestamp": "2026-01-01T00:00:00Z", "count": 1});
        let rss = [rs];
        let related = Related {
            replica_sets: &rss,
            ..Related::default()
        };
        let got = describe_with(
            lookup("deploy").unwrap(),
            &deployment(),
            &related,
            &[ev],
            89_000,
        );
        let want = "\
Name:                   web
Namespace:              default
CreationTimestamp:      Thu, 01 Jan 2026 00:00:00 +0000
Labels:                 app=web
Annotations:            deployment.kubernetes.io/revision: 1
Selector:               app=web
Replicas:               3 desired | 3 updated | 3 total | 3 available | 0 unavailable
StrategyType:           RollingUpdate
MinReadySeconds:        0
RollingUpdateStrategy:  25% max unavailable, 25% max surge
Pod Template:
  Labels:  app=web
  Containers:
   nginx:
    Image:         nginx:1.25
    Port:          80/TCP
    Host Port:     0/TCP
    Environment:   <none>
    Mounts:        <none>
  Volumes:         <none>
  Node-Selectors:  <none>
  Tolerations:     <none>
Conditions:
  Type           Status  Reason
  ----           ------  ------
  Available      True    MinimumReplicasAvailable
  Progressing    True    NewReplicaSetAvailable
OldReplicaSets:  <none>
NewReplicaSet:   web-7c5ddbdf54 (3/3 replicas created)
Events:
  Type    Reason             Age   From                   Message
  ----    ------             ----  ----                   -------
  Normal  ScalingReplicaSet  89s   deployment-controller  Scaled up replica set web-7c5ddbdf54 from 0 to 3
";
        assert_eq!(got, want, "\n{got}");
        // Without the ReplicaSets the two lines are left out, as kubectl does when it finds none.
        let got = describe(lookup("deploy").unwrap(), &deployment(), &[], 89_000);
        assert!(!got.contains("NewReplicaSet:"));
        assert!(got.ends_with("Events:         <none>\n"), "{got}");
    }

    #[test]
    fn describes_a_replicaset() {
        let rs = json!({"metadata": {"name": "web-7c5ddbdf54", "namespace": "default", "uid": "rs-uid",
                "labels": {"app": "web", "pod-template-hash": "7c5ddbdf54"},
                "annotations": {"deployment.kubernetes.io/desired-replicas": "3", "deployment.kubernetes.io/max-replicas": "4",
                    "deployment.kubernetes.io/revision": "1"},
                "ownerReferences": [{"kind": "Deployment", "name": "web", "uid": "dep-uid", "controller": true}]},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web", "pod-template-hash": "7c5ddbdf54"}},
                "template": {"metadata": {"labels": {"app": "web", "pod-template-hash": "7c5ddbdf54"}},
                "spec": {"containers": [{"name": "nginx", "image": "nginx:1.25"}]}}},
            "status": {"replicas": 3}});
        let pods = [nginx_pod()];
        let related = Related {
            pods: &pods,
            ..Related::default()
        };
        let got = describe_with(lookup("rs").unwrap(), &rs, &related, &[], 0);
        let want = "\
Name:           web-7c5ddbdf54
Namespace:      default
Selector:       app=web,pod-template-hash=7c5ddbdf54
Labels:         app=web
                pod-template-hash=7c5ddbdf54
Annotations:    deployment.kubernetes.io/desired-replicas: 3
                deployment.kubernetes.io/max-replicas: 4
                deployment.kubernetes.io/revision: 1
Controlled By:  Deployment/web
Replicas:       3 current / 3 desired
Pods Status:    1 Running / 0 Waiting / 0 Succeeded / 0 Failed
Pod Template:
  Labels:  app=web
           pod-template-hash=7c5ddbdf54
  Containers:
   nginx:
    Image:         nginx:1.25
    Port:          <none>
    Host Port:     <none>
    Environment:   <none>
    Mounts:        <none>
  Volumes:         <none>
  Node-Selectors:  <none>
  Tolerations:     <none>
Events:            <none>
";
        assert_eq!(got, want, "\n{got}");
    }

    #[test]
    fn describes_a_node_with_allocated_resources() {
        let node = json!({"metadata": {"name": "node-1", "uid": "node-uid", "creationTimestamp": "2026-01-01T00:00:00Z",
                "labels": {"kubernetes.io/hostname": "node-1"},
                "annotations": {"node.alpha.kubernetes.io/ttl": "0"}},
            "spec": {"podCIDR": "10.244.1.0/24", "podCIDRs": ["10.244.1.0/24"],
                "taints": [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]},
            "status": {"capacity": {"cpu": "4", "memory": "8Gi", "pods": "110", "ephemeral-storage": "100Gi"},
                "allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110", "ephemeral-storage": "100Gi"},
                "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady", "message": "kubelet is posting ready status",
                    "lastHeartbeatTime": "2026-01-01T00:00:10Z", "lastTransitionTime": "2026-01-01T00:00:00Z"}],
                "addresses": [{"type": "InternalIP", "address": "172.18.0.3"}, {"type": "Hostname", "address": "node-1"}],
                "nodeInfo": {"machineID": "m", "systemUUID": "s", "bootID": "b", "kernelVersion": "6.8.0",
                    "osImage": "Debian GNU/Linux 12 (bookworm)", "operatingSystem": "linux", "architecture": "amd64",
                    "containerRuntimeVersion": "containerd://2.1.0", "kubeletVersion": "v1.35.0", "kubeProxyVersion": ""}}});
        let lease = json!({"spec": {"holderIdentity": "node-1", "renewTime": "2026-01-01T00:00:10.000000Z"}});
        let mut other = nginx_pod();
        other["spec"]["nodeName"] = json!("node-2");
        let pods = [nginx_pod(), other];
        let related = Related {
            pods: &pods,
            lease: Some(&lease),
            ..Related::default()
        };
        let got = describe_with(lookup("nodes").unwrap(), &node, &related, &[], 10_000);
        let want = "\
Name:               node-1
Roles:              <none>
Labels:             kubernetes.io/hostname=node-1
Annotations:        node.alpha.kubernetes.io/ttl: 0
CreationTimestamp:  Thu, 01 Jan 2026 00:00:00 +0000
Taints:             dedicated=gpu:NoSchedule
Unschedulable:      false
Lease:
  HolderIdentity:  node-1
  AcquireTime:     <unset>
  RenewTime:       Thu, 01 Jan 2026 00:00:10 +0000
Conditions:
  Type    Status  LastHeartbeatTime                 LastTransitionTime                Reason         Message
  ----    ------  -----------------                 ------------------                ------         -------
  Ready   True    Thu, 01 Jan 2026 00:00:10 +0000   Thu, 01 Jan 2026 00:00:00 +0000   KubeletReady   kubelet is posting ready status
Addresses:
  InternalIP:  172.18.0.3
  Hostname:    node-1
Capacity:
  cpu:                4
  ephemeral-storage:  100Gi
  memory:             8Gi
  pods:               110
Allocatable:
  cpu:                4
  ephemeral-storage:  100Gi
  memory:             8Gi
  pods:               110
System Info:
  Machine ID:                 m
  System UUID:                s
  Boot ID:                    b
  Kernel Version:             6.8.0
  OS Image:                   Debian GNU/Linux 12 (bookworm)
  Operating System:           linux
  Architecture:               amd64
  Container Runtime Version:  containerd://2.1.0
  Kubelet Version:            v1.35.0
  Kube-Proxy Version:         
PodCIDR:                      10.244.1.0/24
PodCIDRs:                     10.244.1.0/24
Non-terminated Pods:          (1 in total)
  Namespace                   Name                    CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
  ---------                   ----                    ------------  ----------  ---------------  -------------  ---
  default                     web-7c5ddbdf54-x2k9p    100m (2%)     0 (0%)      128Mi (1%)       0 (0%)         9s
Allocated resources:
  (Total limits may be over 100 percent, i.e., overcommitted.)
  Resource           Requests    Limits
  --------           --------    ------
  cpu                100m (2%)   0 (0%)
  memory             128Mi (1%)  0 (0%)
  ephemeral-storage  0 (0%)      0 (0%)
Events:              <none>
";
        assert_eq!(got, want, "\n{got}");
    }

    #[test]
    fn describes_a_service() {
        let svc = json!({"metadata": {"name": "web", "namespace": "default", "uid": "svc-uid"},
            "spec": {"type": "ClusterIP", "selector": {"app": "web"}, "clusterIP": "10.96.12.7", "clusterIPs": ["10.96.12.7"],
                "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack", "sessionAffinity": "None",
                "internalTrafficPolicy": "Cluster",
                "ports": [{"port": 80, "protocol": "TCP", "targetPort": 80}]}});
        let slice = json!({"metadata": {"name": "web-abcde", "namespace": "default",
                "labels": {"kubernetes.io/service-name": "web"}},
            "addressType": "IPv4", "ports": [{"name": "", "port": 80, "protocol": "TCP"}],
            "endpoints": [{"addresses": ["10.244.1.2"], "conditions": {"ready": true}},
                          {"addresses": ["10.244.2.3"], "conditions": {"ready": false}}]});
        let slices = [slice];
        let related = Related {
            endpoint_slices: &slices,
            ..Related::default()
        };
        let got = describe_with(lookup("svc").unwrap(), &svc, &related, &[], 0);
        let want = "\
Name:                     web
Namespace:                default
Labels:                   <none>
Annotations:              <none>
Selector:                 app=web
Type:                     ClusterIP
IP Family Policy:         SingleStack
IP Families:              IPv4
IP:                       10.96.12.7
IPs:                      10.96.12.7
Port:                     <unset>  80/TCP
TargetPort:               80/TCP
Endpoints:                10.244.1.2:80
Session Affinity:         None
Internal Traffic Policy:  Cluster
Events:                   <none>
";
        assert_eq!(got, want, "\n{got}");
    }

    #[test]
    fn describes_namespaces_configmaps_secrets_and_serviceaccounts() {
        let ns = json!({"metadata": {"name": "default", "labels": {"kubernetes.io/metadata.name": "default"}},
            "status": {"phase": "Active"}});
        assert_eq!(
            describe(lookup("ns").unwrap(), &ns, &[], 0),
            "Name:         default\nLabels:       kubernetes.io/metadata.name=default\nAnnotations:  <none>\nStatus:       Active\n\nNo resource quota.\n\nNo LimitRange resource.\n"
        );
        let cm = json!({"metadata": {"name": "game", "namespace": "default"}, "data": {"lives": "3", "b": "x\ny"}});
        assert_eq!(
            describe(lookup("cm").unwrap(), &cm, &[], 0),
            "Name:         game\nNamespace:    default\nLabels:       <none>\nAnnotations:  <none>\n\nData\n====\nb:\n----\nx\ny\n\nlives:\n----\n3\n\n\nBinaryData\n====\n\nEvents:  <none>\n"
        );
        let secret = json!({"metadata": {"name": "creds", "namespace": "default"}, "type": "Opaque",
            "data": {"password": "czNjcjN0", "user": "YWRtaW4="}});
        assert_eq!(
            describe(lookup("secrets").unwrap(), &secret, &[], 0),
            "Name:         creds\nNamespace:    default\nLabels:       <none>\nAnnotations:  <none>\n\nType:  Opaque\n\nData\n====\npassword:  6 bytes\nuser:      5 bytes\n"
        );
        let sa = json!({"metadata": {"name": "default", "namespace": "default"}});
        assert_eq!(
            describe(lookup("sa").unwrap(), &sa, &[], 0),
            "Name:                default\nNamespace:           default\nLabels:              <none>\nAnnotations:         <none>\nImage pull secrets:  <none>\nEvents:              <none>\n"
        );
    }

    #[test]
    fn generic_describer_prints_fields() {
        let lease = json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
            "metadata": {"name": "node-1", "namespace": "kube-node-lease", "uid": "u", "resourceVersion": "7",
                "creationTimestamp": "2026-01-01T00:00:00Z",
                "ownerReferences": [{"apiVersion": "v1", "kind": "Node", "name": "node-1", "uid": "n"}]},
            "spec": {"holderIdentity": "node-1", "leaseDurationSeconds": 40}});
        let got = describe(lookup("leases").unwrap(), &lease, &[], 0);
        let want = "\
Name:         node-1
Namespace:    kube-node-lease
Labels:       <none>
Annotations:  <none>
API Version:  coordination.k8s.io/v1
Kind:         Lease
Metadata:
  Creation Timestamp:  2026-01-01T00:00:00Z
  Owner References:
    API Version:     v1
    Kind:            Node
    Name:            node-1
    UID:             n
  Resource Version:  7
  UID:               u
Spec:
  Holder Identity:         node-1
  Lease Duration Seconds:  40
Events:                    <none>
";
        assert_eq!(got, want, "\n{got}");
    }

    // The cases below are ported from kubectl's own pkg/describe/describe_test.go (v0.35).

    #[test]
    fn upstream_describe_service_test1() {
        let svc = json!({"metadata": {"name": "bar", "namespace": "foo"},
            "spec": {"type": "LoadBalancer", "selector": {"blah": "heh"}, "clusterIP": "1.2.3.4",
                "ipFamilies": ["IPv4"], "loadBalancerIP": "5.6.7.8", "sessionAffinity": "None",
                "externalTrafficPolicy": "Local", "internalTrafficPolicy": "Cluster", "healthCheckNodePort": 32222,
                "ports": [{"name": "port-tcp", "port": 8080, "protocol": "TCP", "targetPort": 9527, "nodePort": 31111}]},
            "status": {"loadBalancer": {"ingress": [{"ip": "5.6.7.8", "ipMode": "VIP"}]}}});
        let slice = json!({"metadata": {"name": "bar-abcde", "namespace": "foo", "labels": {"kubernetes.io/service-name": "bar"}},
            "endpoints": [{"addresses": ["10.244.0.1"], "conditions": {"ready": true}},
                          {"addresses": ["10.244.0.2"], "conditions": {"ready": true}},
                          {"addresses": ["10.244.0.3"], "conditions": {"ready": true}}],
            "ports": [{"name": "port-tcp", "port": 9527, "protocol": "TCP"}]});
        let slices = [slice];
        let related = Related {
            endpoint_slices: &slices,
            ..Related::default()
        };
        let want = "\
Name:                     bar
Namespace:                foo
Labels:                   <none>
Annotations:              <none>
Selector:                 blah=heh
Type:                     LoadBalancer
IP Families:              IPv4
IP:                       1.2.3.4
IPs:                      <none>
Desired LoadBalancer IP:  5.6.7.8
LoadBalancer Ingress:     5.6.7.8 (VIP)
Port:                     port-tcp  8080/TCP
TargetPort:               9527/TCP
NodePort:                 port-tcp  31111/TCP
Endpoints:                10.244.0.1:9527,10.244.0.2:9527,10.244.0.3:9527
Session Affinity:         None
External Traffic Policy:  Local
Internal Traffic Policy:  Cluster
HealthCheck NodePort:     32222
Events:                   <none>
";
        assert_eq!(
            describe_with(lookup("svc").unwrap(), &svc, &related, &[], 0),
            want
        );
    }

    #[test]
    fn upstream_describe_node_allocated_resources() {
        let node = json!({"metadata": {"name": "bar", "uid": "uid"}, "spec": {"unschedulable": true},
            "status": {"capacity": {"hugepages-2Mi": "4Gi", "cpu": "8", "memory": "24Gi", "hugepages-1Gi": "0"},
                       "allocatable": {"hugepages-2Mi": "2Gi", "cpu": "4", "memory": "12Gi", "hugepages-1Gi": "0"}}});
        let lease = json!({"spec": {"holderIdentity": "holder"}});
        let pod = json!({"metadata": {"name": "pod-with-resources", "namespace": "foo"},
            "spec": {"nodeName": "bar", "containers": [
                {"name": "cpu-mem", "image": "image:latest",
                 "resources": {"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"cpu": "2", "memory": "2Gi"}}},
                {"name": "hugepages", "image": "image:latest",
                 "resources": {"requests": {"hugepages-2Mi": "512Mi"}, "limits": {"hugepages-2Mi": "512Mi"}}}]},
            "status": {"phase": "Running"}});
        let pods = [pod];
        let related = Related {
            pods: &pods,
            lease: Some(&lease),
            ..Related::default()
        };
        let out = describe_with(lookup("nodes").unwrap(), &node, &related, &[], 0);
        for want in [
            "Unschedulable:      true",
            "HolderIdentity:  holder",
            "Allocated resources:
  (Total limits may be over 100 percent, i.e., overcommitted.)
  Resource           Requests     Limits
  --------           --------     ------
  cpu                1 (25%)      2 (50%)
  memory             1Gi (8%)     2Gi (16%)
  ephemeral-storage  0 (0%)       0 (0%)
  hugepages-1Gi      0 (0%)       0 (0%)
  hugepages-2Mi      512Mi (25%)  512Mi (25%)",
        ] {
            assert!(out.contains(want), "{want:?} not in\n{out}");
        }
    }

    #[test]
    fn upstream_describe_deployment_with_two_mounted_volumes() {
        let template = json!({"metadata": {"name": "bar", "namespace": "foo", "labels": {"k8s-app": "bar"}},
            "spec": {"containers": [{"image": "mytest-image:latest", "volumeMounts": [
                {"name": "vol-foo", "mountPath": "/tmp/vol-foo"}, {"name": "vol-bar", "mountPath": "/tmp/vol-bar"}]}],
                "volumes": [{"name": "vol-foo", "emptyDir": {}}, {"name": "vol-bar", "emptyDir": {}}]}});
        let d = json!({"metadata": {"name": "bar", "namespace": "foo", "labels": {"k8s-app": "bar"},
                "uid": "00000000-0000-0000-0000-000000000001", "creationTimestamp": "2021-01-01T00:00:00Z"},
            "spec": {"replicas": 1, "selector": {"matchLabels": {"k8s-app": "bar"}}, "template": template.clone()}});
        let rs = json!({"metadata": {"name": "bar-001", "namespace": "foo", "labels": {"k8s-app": "bar"},
                "ownerReferences": [{"controller": true, "uid": "00000000-0000-0000-0000-000000000001"}]},
            "spec": {"replicas": 1, "selector": {"matchLabels": {"k8s-app": "bar"}}, "template": template},
            "status": {"replicas": 1, "readyReplicas": 1, "availableReplicas": 1}});
        let rss = [rs];
        let related = Related {
            replica_sets: &rss,
            ..Related::default()
        };
        let out = describe_with(lookup("deploy").unwrap(), &d, &related, &[], 0);
        for want in [
            "Name:               bar\nNamespace:          foo",
            "CreationTimestamp:  Fri, 01 Jan 2021 00:00:00 +0000",
            "Labels:             k8s-app=bar",
            "Selector:           k8s-app=bar",
            "Replicas:           1 desired | 0 updated | 0 total | 0 available | 0 unavailable",
            "Image:        mytest-image:latest",
            "Mounts:\n      /tmp/vol-bar from vol-bar (rw)\n      /tmp/vol-foo from vol-foo (rw)",
            "OldReplicaSets:    <none>",
            "NewReplicaSet:     bar-001 (1/1 replicas created)",
            "Events:            <none>",
            "Node-Selectors:  <none>",
            "Tolerations:     <none>",
        ] {
            assert!(out.contains(want), "{want:?} not in\n{out}");
        }
    }

    #[test]
    fn upstream_print_annotations_multiline() {
        let key = "MaxLenAnnotation";
        let value = "a".repeat(MAX_ANNOTATION_LEN - key.len() - 2);
        let cases: Vec<(Value, String)> = vec![
            (
                json!({"col1": "asd", "COL2": "zxc"}),
                "Annotations:\tCOL2: zxc\n\tcol1: asd\n".into(),
            ),
            (
                json!({ key: value }),
                format!("Annotations:\t{key}: {value}\n"),
            ),
            (
                json!({ key: format!("{value}1") }),
                format!("Annotations:\t{key}:\n\t  {value}1\n"),
            ),
            (
                json!({ key: format!("{value}{value}") }),
                format!(
                    "Annotations:\t{key}:\n\t  {}...\n",
                    "a".repeat(MAX_ANNOTATION_LEN - 2)
                ),
            ),
            (
                json!({"key": "value\nwith\nnewlines\n"}),
                "Annotations:\tkey:\n\t  value\n\t  with\n\t  newlines\n".into(),
            ),
            (json!({}), "Annotations:\t<none>\n".into()),
        ];
        for (annotations, want) in cases {
            let mut w = W::default();
            print_annotations(&mut w, "Annotations", annotations.as_object());
            assert_eq!(w.buf, want);
        }
    }

    #[test]
    fn upstream_unstructured_labels() {
        for (field, want) in [
            ("apiVersion", "API Version"),
            ("dummy-dummy", "Dummy - Dummy"),
            ("dummy-dummy@dummy", "dummy-dummy@dummy"),
            ("dummy/dummy", "dummy/dummy"),
            ("dummy2", "dummy2"),
            ("dummyDummy", "Dummy Dummy"),
            ("itemBool", "Item Bool"),
            ("url", "URL"),
            ("resourceVersion", "Resource Version"),
        ] {
            assert_eq!(smart_label_for(field), want, "{field}");
        }
        let mut d = Describer {
            w: W::default(),
            now: 0,
        };
        let obj = json!({"apiVersion": "v1", "kind": "Test", "items": [{"itemBool": true, "itemInt": 42}],
            "metadata": {"creationTimestamp": "2017-04-01T00:00:00Z", "resourceVersion": 123, "uid": "u"},
            "status": "ok", "url": "http://localhost"});
        d.unstructured(0, obj.as_object().unwrap(), "");
        assert_eq!(
            d.w.buf,
            "API Version:\tv1\nItems:\n  Item Bool:\ttrue\n  Item Int:\t42\nKind:\tTest\nMetadata:\n  Creation Timestamp:\t2017-04-01T00:00:00Z\n  Resource Version:\t123\n  UID:\tu\nStatus:\tok\nURL:\thttp://localhost\n"
        );
    }

    #[test]
    fn describes_workloads_and_endpoints() {
        let pods = [nginx_pod()];
        let related = Related {
            pods: &pods,
            ..Related::default()
        };
        let ds = json!({"metadata": {"name": "kube-proxy", "namespace": "kube-system", "uid": "rs-uid"},
            "spec": {"selector": {"matchLabels": {"k8s-app": "kube-proxy"}},
                "template": {"metadata": {"labels": {"k8s-app": "kube-proxy"}},
                    "spec": {"nodeSelector": {"kubernetes.io/os": "linux"},
                        "containers": [{"name": "kube-proxy", "image": "registry.k8s.io/kube-proxy:v1.35.0"}]}}},
            "status": {"desiredNumberScheduled": 3, "currentNumberScheduled": 3, "updatedNumberScheduled": 3,
                "numberAvailable": 3, "numberMisscheduled": 0}});
        let out = describe_with(lookup("ds").unwrap(), &ds, &related, &[], 0);
        assert!(out.starts_with("Name:           kube-proxy\nNamespace:      kube-system\nSelector:       k8s-app=kube-proxy\nNode-Selector:  kubernetes.io/os=linux\nLabels:         <none>\nAnnotations:    <none>\nDesired Number of Nodes Scheduled: 3\n"), "{out}");
        // The pod is in another namespace, so it is not counted.
        assert!(out.contains("Number of Nodes Misscheduled: 0\nPods Status:  0 Running / 0 Waiting / 0 Succeeded / 0 Failed\nPod Template:\n"), "{out}");

        let sts = json!({"metadata": {"name": "db", "namespace": "default", "uid": "rs-uid", "creationTimestamp": "2026-01-01T00:00:00Z"},
            "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "db"}}, "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 0}},
                "template": {"metadata": {"labels": {"app": "db"}}, "spec": {"containers": [{"name": "pg", "image": "postgres:16"}]}},
                "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}]},
            "status": {"replicas": 1}});
        let out = describe_with(lookup("sts").unwrap(), &sts, &related, &[], 0);
        assert!(out.contains("Replicas:           2 desired | 1 total\nUpdate Strategy:    RollingUpdate\n  Partition:        0\nPods Status:        1 Running / 0 Waiting / 0 Succeeded / 0 Failed\n"), "{out}");
        assert!(out.contains("Volume Claims:\n  Name:          data\n  StorageClass:  \n  Labels:        <none>\n  Annotations:   <none>\n  Capacity:      1Gi\n  Access Modes:  [ReadWriteOnce]\nEvents:          <none>\n"), "{out}");

        let job = json!({"metadata": {"name": "pi", "namespace": "default"},
            "spec": {"parallelism": 1, "completions": 1, "completionMode": "NonIndexed", "suspend": false, "backoffLimit": 6,
                "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": "u"}},
                "template": {"spec": {"containers": [{"name": "pi", "image": "perl:5.34"}]}}},
            "status": {"startTime": "2026-01-01T00:00:00Z", "completionTime": "2026-01-01T00:00:12Z", "succeeded": 1, "ready": 0}});
        let out = describe(lookup("jobs").unwrap(), &job, &[], 0);
        assert!(out.contains("Completion Mode:  NonIndexed\nSuspend:          false\nBackoff Limit:    6\nStart Time:       Thu, 01 Jan 2026 00:00:00 +0000\nCompleted At:     Thu, 01 Jan 2026 00:00:12 +0000\nDuration:         12s\nPods Statuses:    0 Active (0 Ready) / 1 Succeeded / 0 Failed\n"), "{out}");

        let ep = json!({"metadata": {"name": "web", "namespace": "default"},
            "subsets": [{"addresses": [{"ip": "10.244.1.2"}, {"ip": "10.244.2.3"}], "ports": [{"port": 80, "protocol": "TCP"}]}]});
        assert_eq!(
            describe(lookup("ep").unwrap(), &ep, &[], 0),
            "Name:         web\nNamespace:    default\nLabels:       <none>\nAnnotations:  <none>\nSubsets:\n  Addresses:          10.244.1.2,10.244.2.3\n  NotReadyAddresses:  <none>\n  Ports:\n    Name     Port  Protocol\n    ----     ----  --------\n    <unset>  80    TCP\n\nEvents:  <none>\n"
        );
    }

    #[test]
    fn quantities_are_canonical() {
        for (s, want) in [
            ("100m", "100m"),
            ("0.5", "500m"),
            ("1", "1"),
            ("1000", "1k"),
            ("128Mi", "128Mi"),
            ("0.5Gi", "512Mi"),
            ("1536Mi", "1536Mi"),
            ("100", "100"),
            ("1e3", "1e3"),
            ("0", "0"),
            ("2G", "2G"),
        ] {
            assert_eq!(canonical_quantity(s), want, "{s}");
        }
        let mut a = Quantity::parse("1Gi").unwrap();
        a.add(&Quantity::parse("512Mi").unwrap());
        assert_eq!(a.to_string(), "1536Mi");
        let mut c = Quantity::parse("1").unwrap();
        c.add(&Quantity::parse("500m").unwrap());
        assert_eq!(c.to_string(), "1500m");
        assert_eq!(Quantity::parse("1.5").unwrap().milli_value(), 1500);
    }

    #[test]
    fn helpers() {
        assert_eq!(
            rfc1123z(Some("2026-01-01T00:00:00Z")),
            "Thu, 01 Jan 2026 00:00:00 +0000"
        );
        assert_eq!(
            rfc1123z(Some("2026-03-01T13:04:05Z")),
            "Sun, 01 Mar 2026 13:04:05 +0000"
        );
        assert_eq!(smart_label_for("creationTimestamp"), "Creation Timestamp");
        assert_eq!(smart_label_for("apiVersion"), "API Version");
        assert_eq!(smart_label_for("podIP"), "Pod Ip");
        assert_eq!(smart_label_for("uid"), "UID");
        assert_eq!(smart_label_for("v1beta1"), "v1beta1");
        assert_eq!(base64_decode("YWRtaW4=").as_deref(), Some("admin"));
        let p = nginx_pod();
        assert_eq!(
            pod_qos(&json!({"spec": {"containers": [{"name": "a"}]}})),
            "BestEffort"
        );
        let mut g = p.clone();
        g["status"]["qosClass"] = Value::Null;
        g["spec"]["containers"][0]["resources"] = json!({"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "1", "memory": "1Gi"}});
        assert_eq!(pod_qos(&g), "Guaranteed");
        g["spec"]["containers"][0]["resources"] = json!({"requests": {"cpu": "1"}});
        assert_eq!(pod_qos(&g), "Burstable");
    }
}
