//! kube-proxy (`cmd/kube-proxy`, `pkg/proxy/iptables`): one per node, named `kube-proxy/<node>`,
//! authenticating as `system:kube-proxy` (bound to the `system:node-proxier` ClusterRole). Its
//! informers list and watch Services and EndpointSlices (both without the
//! `service.kubernetes.io/headless` and `service.kubernetes.io/service-proxy-name` labels, as
//! the real one filters them); every change asks for a sync, and syncs are at least
//! `minSyncPeriod` (1 s) apart, so a burst of changes is programmed at once. A sync renders the
//! node's nat table (see [`iptables`]) and, when it differs from what the node has, restores it:
//! one `iptables.sync` trace record whose summary says what changed and whose `rules` field
//! holds the table as `iptables-save -t nat` prints it.

pub mod iptables;

use crate::api::json::JsonPointer;
use crate::api::value::Value;
use crate::api::{meta, resources::for_kind, Object};
use crate::apiserver::Credentials;
use crate::cluster::component::{Component, Ctx, InformerSpec, Input};
use crate::kernel::Millis;
use crate::trace::Component as Lane;
use iptables::{Endpoint, Programmed, Rendered, ServicePort};
use std::collections::BTreeMap;

const SERVICES: usize = 0;
const SLICES: usize = 1;
const TAG_SYNC: u64 = 1;

/// `iptables.minSyncPeriod`, kube-proxy's default.
pub const MIN_SYNC_PERIOD_MS: Millis = 1_000;
/// The pod network (`clusterCIDR`) that tells pod traffic from other traffic.
pub const CLUSTER_CIDR: &str = "10.244.0.0/16";
/// The label selector of both informers (`labels.Selector.String()` sorts the requirements).
pub const INFORMER_SELECTOR: &str =
    "!service.kubernetes.io/headless,!service.kubernetes.io/service-proxy-name";

/// One kube-proxy per node name.
pub fn kube_proxies(nodes: &[String]) -> Vec<Box<dyn Component>> {
    nodes
        .iter()
        .map(|n| Box::new(KubeProxy::new(n)) as Box<dyn Component>)
        .collect()
}

/// kube-proxy of one node.
pub struct KubeProxy {
    node: String,
    /// What the node's nat table holds (after the last restore).
    current: Option<Rendered>,
    last_sync: Option<Millis>,
    sync_pending: bool,
}

impl KubeProxy {
    pub fn new(node: &str) -> KubeProxy {
        KubeProxy {
            node: node.to_string(),
            current: None,
            last_sync: None,
            sync_pending: false,
        }
    }

    /// The Service ports and their endpoints, from the informer caches (the service and
    /// endpoint change trackers' view).
    fn collect(ctx: &Ctx<'_>) -> Vec<(ServicePort, Vec<Endpoint>)> {
        // EndpointSlices by `namespace/service`.
        let mut slices: BTreeMap<String, Vec<&Object>> = BTreeMap::new();
        for s in ctx.cache(SLICES).list() {
            if s["addressType"] != "IPv4" {
                continue;
            }
            let Some(svc) = meta::labels(s)
                .and_then(|l| l.get("kubernetes.io/service-name"))
                .and_then(Value::as_str)
            else {
                continue;
            };
            let ns = meta::namespace(s).unwrap_or("default");
            slices.entry(format!("{ns}/{svc}")).or_default().push(s);
        }
        let mut out = Vec::new();
        for svc in ctx.cache(SERVICES).list() {
            let spec = &svc["spec"];
            let ip = spec["clusterIP"].as_str().unwrap_or("");
            if ip.is_empty() || ip == "None" || spec["type"] == "ExternalName" {
                continue;
            }
            let ns = meta::namespace(svc).unwrap_or("default");
            let key = format!("{ns}/{}", meta::name(svc));
            let strings = |v: &Value| -> Vec<String> {
                v.as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            };
            let lb_ips: Vec<String> = svc
                .lookup("/status/loadBalancer/ingress")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|i| i["ip"].as_str().map(str::to_string))
                .collect();
            let affinity = (spec["sessionAffinity"] == "ClientIP").then(|| {
                spec.lookup("/sessionAffinityConfig/clientIP/timeoutSeconds")
                    .and_then(Value::as_i64)
                    .unwrap_or(10_800)
            });
            for p in spec["ports"].as_array().into_iter().flatten() {
                let port_name = p["name"].as_str().unwrap_or("");
                let protocol = p["protocol"].as_str().unwrap_or("TCP").to_string();
                let sp = ServicePort {
                    name: if port_name.is_empty() {
                        key.clone()
                    } else {
                        format!("{key}:{port_name}")
                    },
                    protocol: protocol.clone(),
                    cluster_ip: ip.to_string(),
                    port: p["port"].as_i64().unwrap_or(0),
                    node_port: p["nodePort"].as_i64().unwrap_or(0),
                    external_ips: strings(&spec["externalIPs"]),
                    load_balancer_ips: lb_ips.clone(),
                    internal_local: spec["internalTrafficPolicy"] == "Local",
                    external_local: spec["externalTrafficPolicy"] == "Local",
                    affinity_seconds: affinity,
                };
                let mut endpoints = Vec::new();
                for s in slices.get(&key).into_iter().flatten() {
                    let Some(sport) = s["ports"].as_array().into_iter().flatten().find(|sp| {
                        sp["name"].as_str().unwrap_or("") == port_name
                            && sp["protocol"].as_str().unwrap_or("TCP") == protocol
                    }) else {
                        continue;
                    };
                    let Some(number) = sport["port"].as_i64() else {
                        continue;
                    };
                    for e in s["endpoints"].as_array().into_iter().flatten() {
                        let Some(addr) = e["addresses"][0].as_str() else {
                            continue;
                        };
                        let c = &e["conditions"];
                        // Unset conditions: ready is assumed, serving follows ready.
                        let ready = c["ready"].as_bool().unwrap_or(true);
                        endpoints.push(Endpoint {
                            ip: addr.to_string(),
                            port: number,
                            ready,
                            serving: c["serving"].as_bool().unwrap_or(ready),
                            terminating: c["terminating"].as_bool().unwrap_or(false),
                            node: e["nodeName"].as_str().map(str::to_string),
                        });
                    }
                }
                out.push((sp, endpoints));
            }
        }
        out
    }

    /// `syncProxyRules`: renders the table and restores it when it changed.
    fn sync(&mut self, ctx: &mut Ctx<'_>) {
        self.last_sync = Some(ctx.now());
        let rendered = iptables::render(&Self::collect(ctx), &self.node, CLUSTER_CIDR);
        if self.current.as_ref() == Some(&rendered) {
            return;
        }
        let what = match &self.current {
            None => format!("{} service port(s) programmed", rendered.services.len()),
            Some(old) => changes(&old.services, &rendered.services),
        };
        let summary = format!("iptables-restore on {}: {what}", self.node);
        let rec = ctx
            .new_record("iptables.sync", summary)
            .node(self.node.clone())
            .detail("rules", Value::String(rendered.nat.clone()));
        ctx.push(rec);
        self.current = Some(rendered);
    }

    fn request_sync(&mut self, ctx: &mut Ctx<'_>) {
        if self.sync_pending {
            return;
        }
        self.sync_pending = true;
        let delay = match self.last_sync {
            Some(t) => (t + MIN_SYNC_PERIOD_MS).saturating_sub(ctx.now()),
            None => 0,
        };
        ctx.after(delay, TAG_SYNC, false);
    }
}

/// What changed between two syncs, one clause per Service port.
fn changes(old: &BTreeMap<String, Programmed>, new: &BTreeMap<String, Programmed>) -> String {
    let list = |eps: &[String]| eps.join(", ");
    let mut parts = Vec::new();
    for (name, p) in new {
        let reach = if p.endpoints.is_empty() {
            if p.has_endpoints {
                format!(
                    "{name} ({}) has no endpoints on this node for its traffic policy",
                    p.cluster_address
                )
            } else {
                format!(
                    "{name} ({}) has no ready endpoints: its traffic is rejected",
                    p.cluster_address
                )
            }
        } else {
            format!("{name} ({}) -> {}", p.cluster_address, list(&p.endpoints))
        };
        match old.get(name) {
            None => parts.push(format!("+{reach}")),
            Some(o) if o == p => {}
            Some(o) if o.endpoints != p.endpoints && o.cluster_address == p.cluster_address => {
                let added: Vec<String> = p
                    .endpoints
                    .iter()
                    .filter(|e| !o.endpoints.contains(e))
                    .map(|e| format!("+{e}"))
                    .collect();
                let removed: Vec<String> = o
                    .endpoints
                    .iter()
                    .filter(|e| !p.endpoints.contains(e))
                    .map(|e| format!("-{e}"))
                    .collect();
                if p.endpoints.is_empty() {
                    parts.push(format!("{reach} ({})", removed.join(", ")));
                } else {
                    let delta: Vec<String> = added.into_iter().chain(removed).collect();
                    parts.push(format!(
                        "{name}: {} (now {} endpoint(s))",
                        delta.join(", "),
                        p.endpoints.len()
                    ));
                }
            }
            Some(_) => parts.push(format!("~{reach}")),
        }
    }
    for (name, o) in old {
        if !new.contains_key(name) {
            parts.push(format!(
                "-{name} ({}): its chains are removed",
                o.cluster_address
            ));
        }
    }
    if parts.is_empty() {
        "rules rewritten".to_string()
    } else {
        parts.join("; ")
    }
}

impl Component for KubeProxy {
    fn name(&self) -> String {
        format!("kube-proxy/{}", self.node)
    }
    fn lane(&self) -> Lane {
        Lane::KubeProxy
    }
    fn credentials(&self) -> Credentials {
        Credentials::ClientCertificate {
            common_name: "system:kube-proxy".into(),
            organizations: Vec::new(),
        }
    }
    fn informers(&self) -> Vec<InformerSpec> {
        let mut services = InformerSpec::all(for_kind("v1", "Service").expect("services"));
        services.label_selector = Some(INFORMER_SELECTOR.into());
        let mut slices = InformerSpec::all(
            for_kind("discovery.k8s.io/v1", "EndpointSlice").expect("endpointslices"),
        );
        slices.label_selector = Some(INFORMER_SELECTOR.into());
        vec![services, slices]
    }
    fn handle(&mut self, ctx: &mut Ctx<'_>, input: Input) {
        match input {
            // OnServiceSynced / OnEndpointSlicesSynced: the first sync, unconditionally.
            Input::Started => self.sync(ctx),
            Input::Watch { .. } => self.request_sync(ctx),
            Input::Timer(TAG_SYNC) => {
                self.sync_pending = false;
                self.sync(ctx);
            }
            Input::Timer(_) => {}
        }
    }
}
