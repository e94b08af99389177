//! The node's CNI plugin (a bridge plugin with host-local IPAM): `ADD` creates the veth pair
//! into the sandbox's network namespace and hands out the next free address of the node's
//! podCIDR, `DEL` removes them and frees the address.

use crate::api::value::{json, Value};
use crate::controllers::podutil::At;
use std::collections::BTreeSet;

/// The kubelet's `clusterDNS` (the kube-dns Service's ClusterIP in a kubeadm cluster, the
/// tenth address of the `10.96.0.0/12` service range) and `clusterDomain`.
pub const CLUSTER_DNS: &str = "10.96.0.10";
pub const CLUSTER_DOMAIN: &str = "cluster.local";
/// The node's own resolver (its `resolv.conf`), which `dnsPolicy: Default` and host-network
/// pods use.
pub const HOST_DNS: &str = "10.0.0.2";

/// The pod's `resolv.conf` as the kubelet computes it (`pkg/kubelet/network/dns`) and hands it
/// to the runtime with the sandbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DnsConfig {
    pub nameservers: Vec<String>,
    pub searches: Vec<String>,
    pub options: Vec<String>,
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn push_unique(list: &mut Vec<String>, more: Vec<String>) {
    for m in more {
        if !list.contains(&m) {
            list.push(m);
        }
    }
}

impl DnsConfig {
    /// `GetPodDNS`: the policy picks cluster DNS, the host's resolver or nothing, then
    /// `spec.dnsConfig` adds nameservers and searches and overrides options by name.
    pub fn of(pod: &Value) -> DnsConfig {
        let spec = &pod["spec"];
        let host_network = spec["hostNetwork"].as_bool().unwrap_or(false);
        let policy = spec["dnsPolicy"].as_str().unwrap_or("ClusterFirst");
        let cluster = match policy {
            "ClusterFirstWithHostNet" => true,
            "ClusterFirst" => !host_network,
            _ => false,
        };
        let mut dns = if cluster {
            let ns = pod
                .at(&["metadata", "namespace"])
                .and_then(Value::as_str)
                .unwrap_or("default");
            DnsConfig {
                nameservers: vec![CLUSTER_DNS.into()],
                searches: vec![
                    format!("{ns}.svc.{CLUSTER_DOMAIN}"),
                    format!("svc.{CLUSTER_DOMAIN}"),
                    CLUSTER_DOMAIN.into(),
                ],
                options: vec!["ndots:5".into()],
            }
        } else if policy == "None" {
            DnsConfig {
                nameservers: vec![],
                searches: vec![],
                options: vec![],
            }
        } else {
            DnsConfig {
                nameservers: vec![HOST_DNS.into()],
                searches: vec![],
                options: vec![],
            }
        };
        if let Some(cfg) = spec.get("dnsConfig").filter(|c| c.is_object()) {
            push_unique(&mut dns.nameservers, strings(cfg.get("nameservers")));
            push_unique(&mut dns.searches, strings(cfg.get("searches")));
            for o in cfg
                .get("options")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let Some(name) = o.get("name").and_then(Value::as_str) else {
                    continue;
                };
                let opt = match o.get("value").and_then(Value::as_str) {
                    Some(v) => format!("{name}:{v}"),
                    None => name.to_string(),
                };
                dns.options.retain(|x| x.split(':').next() != Some(name));
                dns.options.push(opt);
            }
        }
        dns
    }

    pub fn to_json(&self) -> Value {
        json!({"nameservers": self.nameservers, "searches": self.searches, "options": self.options})
    }

    /// One line per directive, joined with `; ` for a trace summary.
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if !self.nameservers.is_empty() {
            parts.push(format!("nameserver {}", self.nameservers.join(" ")));
        }
        if !self.searches.is_empty() {
            parts.push(format!("search {}", self.searches.join(" ")));
        }
        if !self.options.is_empty() {
            parts.push(format!("options {}", self.options.join(" ")));
        }
        parts.join("; ")
    }
}

/// host-local IPAM over one IPv4 range: addresses from `.2` (the bridge holds `.1`) up to the
/// last before the broadcast, handed out round-robin and never twice while in use.
#[derive(Clone, Debug)]
pub struct Ipam {
    pub cidr: String,
    network: u32,
    prefix: u32,
    first: u32,
    last: u32,
    /// The last address handed out (the next search starts after it).
    last_reserved: Option<u32>,
    in_use: BTreeSet<u32>,
}

fn parse_ipv4(s: &str) -> Option<u32> {
    let mut out = 0u32;
    let mut n = 0;
    for part in s.split('.') {
        out = (out << 8) | part.parse::<u8>().ok()? as u32;
        n += 1;
    }
    (n == 4).then_some(out)
}

fn format_ipv4(ip: u32) -> String {
    format!(
        "{}.{}.{}.{}",
        ip >> 24,
        (ip >> 16) & 255,
        (ip >> 8) & 255,
        ip & 255
    )
}

impl Ipam {
    /// The range of a podCIDR such as `10.244.1.0/24` (a bad one falls back to that).
    pub fn new(cidr: &str) -> Ipam {
        let parsed = cidr.split_once('/').and_then(|(ip, len)| {
            let len: u32 = len.parse().ok().filter(|l| (8..=30).contains(l))?;
            Some((parse_ipv4(ip)?, len))
        });
        let (ip, prefix) = parsed.unwrap_or((parse_ipv4("10.244.1.0").expect("ip"), 24));
        let mask = u32::MAX << (32 - prefix);
        let network = ip & mask;
        let broadcast = network | !mask;
        Ipam {
            cidr: format!("{}/{prefix}", format_ipv4(network)),
            network,
            prefix,
            first: network + 2,
            last: broadcast - 1,
            last_reserved: None,
            in_use: BTreeSet::new(),
        }
    }

    /// The bridge's address (the pods' gateway).
    pub fn gateway(&self) -> String {
        format_ipv4(self.network + 1)
    }

    pub fn prefix(&self) -> u32 {
        self.prefix
    }

    /// The next free address, or `None` when the range is exhausted.
    pub fn allocate(&mut self) -> Option<String> {
        let size = self.last - self.first + 1;
        let start = match self.last_reserved {
            Some(l) if l < self.last => l + 1,
            _ => self.first,
        };
        for i in 0..size {
            let ip = self.first + (start - self.first + i) % size;
            if self.in_use.insert(ip) {
                self.last_reserved = Some(ip);
                return Some(format_ipv4(ip));
            }
        }
        None
    }

    pub fn release(&mut self, ip: &str) {
        if let Some(v) = parse_ipv4(ip) {
            self.in_use.remove(&v);
        }
    }

    pub fn in_use(&self) -> usize {
        self.in_use.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cluster_first_points_at_the_cluster_dns() {
        let pod = json!({"metadata": {"namespace": "shop"}, "spec": {}});
        let dns = DnsConfig::of(&pod);
        assert_eq!(dns.nameservers, ["10.96.0.10"]);
        assert_eq!(
            dns.searches,
            [
                "shop.svc.cluster.local",
                "svc.cluster.local",
                "cluster.local"
            ]
        );
        assert_eq!(dns.options, ["ndots:5"]);
        let custom = json!({"metadata": {"namespace": "a"}, "spec": {"dnsConfig": {
            "nameservers": ["1.1.1.1"], "options": [{"name": "ndots", "value": "2"}, {"name": "edns0"}]}}});
        let dns = DnsConfig::of(&custom);
        assert_eq!(dns.nameservers, ["10.96.0.10", "1.1.1.1"]);
        assert_eq!(dns.options, ["ndots:2", "edns0"]);
        let none =
            json!({"spec": {"dnsPolicy": "None", "dnsConfig": {"nameservers": ["8.8.8.8"]}}});
        assert_eq!(DnsConfig::of(&none).summary(), "nameserver 8.8.8.8");
        let host = json!({"spec": {"hostNetwork": true}});
        assert_eq!(DnsConfig::of(&host).nameservers, [HOST_DNS]);
    }

    #[test]
    fn hands_out_addresses_from_dot_two_and_never_twice() {
        let mut ipam = Ipam::new("10.244.2.0/24");
        assert_eq!(ipam.gateway(), "10.244.2.1");
        assert_eq!(ipam.allocate().as_deref(), Some("10.244.2.2"));
        assert_eq!(ipam.allocate().as_deref(), Some("10.244.2.3"));
        ipam.release("10.244.2.2");
        assert_eq!(ipam.allocate().as_deref(), Some("10.244.2.4"));
        let mut small = Ipam::new("10.0.0.0/30");
        assert_eq!(small.allocate().as_deref(), Some("10.0.0.2"));
        assert_eq!(small.allocate(), None);
        small.release("10.0.0.2");
        assert_eq!(small.allocate().as_deref(), Some("10.0.0.2"));
    }
}
