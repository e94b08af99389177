//! kube-proxy's iptables rules (`pkg/proxy/iptables/proxier.go`, `syncProxyRules`), rendered as
//! `iptables-save -t nat` prints them on the node: chains in the kernel's order (built-in
//! chains, then the others by name), each rule with its options normalised (`-s`, `-d`, `-p`
//! before the matches, addresses with their prefix length, comments quoted as
//! `xtables_save_string` does, the statistic match's probability read back from the kernel's
//! fixed-point value, `--or-mark`/`--xor-mark` shown as `--set-xmark`).
//!
//! Chain names are the real ones: `KUBE-SVC-` (and `KUBE-SVL-`, `KUBE-EXT-`) followed by the
//! first 16 characters of base32(sha256(servicePortName + protocol)); `KUBE-SEP-` hashes the
//! endpoint too. Only the nat table is rendered; a Service without endpoints has no nat rules
//! (kube-proxy REJECTs its traffic in the filter table).

use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// `KUBE-MARK-MASQ`'s mark (`--iptables-masquerade-bit` 14).
pub const MASQUERADE_MARK: &str = "0x4000";

/// One port of a Service, as kube-proxy's service change tracker keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServicePort {
    /// `ServicePortName.String()`: `namespace/name`, plus `:port-name` for a named port.
    pub name: String,
    /// `TCP`, `UDP` or `SCTP`.
    pub protocol: String,
    pub cluster_ip: String,
    pub port: i64,
    /// 0 when the Service has none.
    pub node_port: i64,
    pub external_ips: Vec<String>,
    pub load_balancer_ips: Vec<String>,
    /// `internalTrafficPolicy: Local`.
    pub internal_local: bool,
    /// `externalTrafficPolicy: Local` (only for externally accessible Services).
    pub external_local: bool,
    /// `sessionAffinity: ClientIP` with its timeout in seconds.
    pub affinity_seconds: Option<i64>,
}

impl ServicePort {
    fn externally_accessible(&self) -> bool {
        self.node_port != 0 || !self.external_ips.is_empty() || !self.load_balancer_ips.is_empty()
    }
    fn external_policy_local(&self) -> bool {
        self.external_local && self.externally_accessible()
    }
    fn uses_cluster_endpoints(&self) -> bool {
        !self.internal_local || (self.externally_accessible() && !self.external_policy_local())
    }
    fn uses_local_endpoints(&self) -> bool {
        self.internal_local || self.external_policy_local()
    }
    fn proto(&self) -> String {
        self.protocol.to_ascii_lowercase()
    }
    /// `host:port` of the ClusterIP, with the protocol: `10.96.0.12:80/TCP`.
    pub fn cluster_address(&self) -> String {
        format!("{}:{}/{}", self.cluster_ip, self.port, self.protocol)
    }
}

/// One endpoint of a Service port (an EndpointSlice endpoint's first address with the port).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Endpoint {
    pub ip: String,
    pub port: i64,
    pub ready: bool,
    pub serving: bool,
    pub terminating: bool,
    pub node: Option<String>,
}

impl Endpoint {
    /// `ip:port` (`net.JoinHostPort`), which also orders endpoints as kube-proxy does.
    pub fn address(&self) -> String {
        format!("{}:{}", self.ip, self.port)
    }
}

/// What a sync programmed for one Service port: the summary diffs these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Programmed {
    pub cluster_address: String,
    pub node_port: i64,
    /// The endpoints traffic to the ClusterIP goes to, as `ip:port`.
    pub endpoints: Vec<String>,
    /// Whether any endpoint is usable (otherwise the filter table REJECTs).
    pub has_endpoints: bool,
}

/// The result of one sync: the nat table and what it programs per Service port.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Rendered {
    pub nat: String,
    pub services: BTreeMap<String, Programmed>,
}

/// The first 16 characters of base32(sha256(input)) (`portProtoHash`).
pub fn hash16(input: &str) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let digest = Sha256::digest(input.as_bytes());
    // 10 bytes are exactly 80 bits: 16 base32 characters, no padding involved.
    let mut bits: u128 = 0;
    for b in &digest[..10] {
        bits = (bits << 8) | u128::from(*b);
    }
    (0..16)
        .rev()
        .map(|i| ALPHABET[((bits >> (i * 5)) & 31) as usize] as char)
        .collect()
}

/// `KUBE-SVC-...` of a Service port (`servicePortPolicyClusterChain`).
pub fn service_chain(port_name: &str, protocol: &str) -> String {
    format!(
        "KUBE-SVC-{}",
        hash16(&format!("{port_name}{}", protocol.to_ascii_lowercase()))
    )
}

fn local_chain(port_name: &str, protocol: &str) -> String {
    format!(
        "KUBE-SVL-{}",
        hash16(&format!("{port_name}{}", protocol.to_ascii_lowercase()))
    )
}

fn external_chain(port_name: &str, protocol: &str) -> String {
    format!(
        "KUBE-EXT-{}",
        hash16(&format!("{port_name}{}", protocol.to_ascii_lowercase()))
    )
}

/// `KUBE-SEP-...` of one endpoint of a Service port (`servicePortEndpointChainName`).
pub fn endpoint_chain(port_name: &str, protocol: &str, endpoint: &str) -> String {
    format!(
        "KUBE-SEP-{}",
        hash16(&format!(
            "{port_name}{}{endpoint}",
            protocol.to_ascii_lowercase()
        ))
    )
}

/// What kube-proxy writes for the n-th last endpoint: `1/n` as `%0.10f` (`computeProbability`).
pub fn probability(n: usize) -> String {
    format!("{:.10}", 1.0 / n as f64)
}

/// How `iptables-save` prints that probability: the statistic match keeps it as a fraction of
/// 2^31 (`lround(0x80000000 * p)`) and prints it back with `%.11f`.
pub fn saved_probability(written: &str) -> String {
    let p: f64 = written.parse().unwrap_or(0.0);
    let fixed = (2_147_483_648.0 * p).round();
    format!("{:.11}", fixed / 2_147_483_648.0)
}

/// A comment as `xtables_save_string` prints it: bare when it is only `[A-Za-z0-9_-]`, quoted
/// (with `"`, `\` and `'` escaped) otherwise.
fn quote(s: &str) -> String {
    let bare = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if bare {
        return s.to_string();
    }
    let mut out = String::from("\"");
    for c in s.chars() {
        if matches!(c, '"' | '\\' | '\'') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

fn host(ip: &str) -> String {
    if ip.contains('/') {
        ip.to_string()
    } else {
        format!("{ip}/32")
    }
}

/// One rule in `iptables-save`'s normal form.
#[derive(Default)]
struct Rule {
    chain: String,
    src: Option<(bool, String)>,
    dst: Option<String>,
    proto: Option<String>,
    matches: Vec<String>,
    target: String,
}

impl Rule {
    fn new(chain: &str) -> Rule {
        Rule {
            chain: chain.to_string(),
            ..Default::default()
        }
    }
    fn src(mut self, negated: bool, addr: &str) -> Rule {
        self.src = Some((negated, host(addr)));
        self
    }
    fn dst(mut self, addr: &str) -> Rule {
        self.dst = Some(host(addr));
        self
    }
    fn proto(mut self, p: &str) -> Rule {
        self.proto = Some(p.to_string());
        self
    }
    fn comment(mut self, c: &str) -> Rule {
        self.matches
            .push(format!("-m comment --comment {}", quote(c)));
        self
    }
    fn m(mut self, text: impl Into<String>) -> Rule {
        self.matches.push(text.into());
        self
    }
    fn jump(mut self, target: impl Into<String>) -> Rule {
        self.target = target.into();
        self
    }
    fn line(&self) -> String {
        let mut s = format!("-A {}", self.chain);
        if let Some((neg, a)) = &self.src {
            let _ = write!(s, "{} -s {a}", if *neg { " !" } else { "" });
        }
        if let Some(d) = &self.dst {
            let _ = write!(s, " -d {d}");
        }
        if let Some(p) = &self.proto {
            let _ = write!(s, " -p {p}");
        }
        for m in &self.matches {
            let _ = write!(s, " {m}");
        }
        if !self.target.is_empty() {
            let _ = write!(s, " -j {}", self.target);
        }
        s
    }
}

/// The nat table being built: chains (with their rules, in the order written).
#[derive(Default)]
struct Table {
    chains: BTreeMap<String, Vec<String>>,
}

impl Table {
    fn chain(&mut self, name: &str) {
        self.chains.entry(name.to_string()).or_default();
    }
    fn add(&mut self, rule: Rule) {
        let line = rule.line();
        self.chains.entry(rule.chain).or_default().push(line);
    }

    fn save(&self) -> String {
        const BUILTIN: [&str; 4] = ["PREROUTING", "INPUT", "OUTPUT", "POSTROUTING"];
        let mut out = String::from("*nat\n");
        for b in BUILTIN {
            let _ = writeln!(out, ":{b} ACCEPT [0:0]");
        }
        let custom: Vec<&String> = self
            .chains
            .keys()
            .filter(|c| !BUILTIN.contains(&c.as_str()))
            .collect();
        for c in &custom {
            let _ = writeln!(out, ":{c} - [0:0]");
        }
        for c in BUILTIN
            .iter()
            .map(|b| b.to_string())
            .chain(custom.into_iter().cloned())
        {
            for r in self.chains.get(&c).into_iter().flatten() {
                out.push_str(r);
                out.push('\n');
            }
        }
        out.push_str("COMMIT\n");
        out
    }
}

/// Splits a Service port's endpoints as `proxy.CategorizeEndpoints` does (topology hints left
/// out): ready endpoints, or serving-and-terminating ones when none is ready; the local ones
/// are those on `node`.
fn categorize<'a>(
    svc: &ServicePort,
    endpoints: &'a [Endpoint],
    node: &str,
) -> (Vec<&'a Endpoint>, Vec<&'a Endpoint>, bool) {
    let usable = |eps: Vec<&'a Endpoint>| -> Vec<&'a Endpoint> {
        let ready: Vec<&Endpoint> = eps.iter().copied().filter(|e| e.ready).collect();
        if !ready.is_empty() {
            return ready;
        }
        eps.into_iter()
            .filter(|e| e.serving && e.terminating)
            .collect()
    };
    let all: Vec<&Endpoint> = endpoints.iter().collect();
    let any = !usable(all.clone()).is_empty();
    let cluster = if svc.uses_cluster_endpoints() {
        usable(all.clone())
    } else {
        Vec::new()
    };
    let local = if svc.uses_local_endpoints() {
        usable(
            all.into_iter()
                .filter(|e| e.node.as_deref() == Some(node))
                .collect(),
        )
    } else {
        Vec::new()
    };
    (cluster, local, any)
}

/// Renders the nat table for every Service port with its endpoints, on `node`, with the
/// cluster's pod CIDR (`--cluster-cidr`, for `detect-local-mode: ClusterCIDR`).
pub fn render(
    services: &[(ServicePort, Vec<Endpoint>)],
    node: &str,
    cluster_cidr: &str,
) -> Rendered {
    let mut t = Table::default();
    let mut programmed = BTreeMap::new();
    // The jumps from the built-in chains (kube-proxy's `iptablesJumpChains`) and the canaries
    // kube-proxy and the kubelet keep to notice a flushed table.
    for c in [
        "KUBE-SERVICES",
        "KUBE-NODEPORTS",
        "KUBE-POSTROUTING",
        "KUBE-MARK-MASQ",
    ] {
        t.chain(c);
    }
    t.chain("KUBE-KUBELET-CANARY");
    t.chain("KUBE-PROXY-CANARY");
    for builtin in ["PREROUTING", "OUTPUT"] {
        t.add(
            Rule::new(builtin)
                .comment("kubernetes service portals")
                .jump("KUBE-SERVICES"),
        );
    }
    t.add(
        Rule::new("POSTROUTING")
            .comment("kubernetes postrouting rules")
            .jump("KUBE-POSTROUTING"),
    );
    t.add(
        Rule::new("KUBE-POSTROUTING")
            .m(format!(
                "-m mark ! --mark {MASQUERADE_MARK}/{MASQUERADE_MARK}"
            ))
            .jump("RETURN"),
    );
    t.add(Rule::new("KUBE-POSTROUTING").jump(format!("MARK --set-xmark {MASQUERADE_MARK}/0x0")));
    t.add(
        Rule::new("KUBE-POSTROUTING")
            .comment("kubernetes service traffic requiring SNAT")
            .jump("MASQUERADE --random-fully"),
    );
    t.add(Rule::new("KUBE-MARK-MASQ").jump(format!(
        "MARK --set-xmark {MASQUERADE_MARK}/{MASQUERADE_MARK}"
    )));

    let mut sorted: Vec<&(ServicePort, Vec<Endpoint>)> = services.iter().collect();
    crate::api::sorting::sort_by(&mut sorted, &|a, b| {
        (&a.0.name, &a.0.protocol).cmp(&(&b.0.name, &b.0.protocol))
    });
    for (svc, endpoints) in sorted {
        let mut endpoints: Vec<Endpoint> = endpoints.clone();
        crate::api::sorting::sort_by_key(&mut endpoints, &|x| Endpoint::address(x));
        endpoints.dedup_by_key(|e| e.address());
        let (cluster_eps, local_eps, has_endpoints) = categorize(svc, &endpoints, node);
        let proto = svc.proto();
        let name = svc.name.as_str();
        let svc_chain = service_chain(name, &svc.protocol);
        let svl_chain = local_chain(name, &svc.protocol);
        let ext_chain = external_chain(name, &svc.protocol);
        let uses_cluster_chain = !cluster_eps.is_empty() && svc.uses_cluster_endpoints();
        let uses_local_chain = !local_eps.is_empty() && svc.uses_local_endpoints();
        let (internal_chain, has_internal) = if svc.internal_local {
            (svl_chain.clone(), has_endpoints && !local_eps.is_empty())
        } else {
            (svc_chain.clone(), has_endpoints)
        };
        let (external_policy_chain, has_external) = if svc.external_policy_local() {
            (svl_chain.clone(), has_endpoints && !local_eps.is_empty())
        } else {
            (svc_chain.clone(), has_endpoints)
        };
        let uses_external_chain = has_endpoints && svc.externally_accessible();
        let cluster_ip_rule = |chain: &str| {
            Rule::new(chain)
                .dst(&svc.cluster_ip)
                .proto(&proto)
                .comment(&format!("{name} cluster IP"))
                .m(format!("-m {proto} --dport {}", svc.port))
        };
        let internal_eps: Vec<String> = if svc.internal_local {
            local_eps.iter().map(|e| e.address()).collect()
        } else {
            cluster_eps.iter().map(|e| e.address()).collect()
        };
        programmed.insert(
            name.to_string(),
            Programmed {
                cluster_address: svc.cluster_address(),
                node_port: svc.node_port,
                endpoints: if has_internal {
                    internal_eps
                } else {
                    Vec::new()
                },
                has_endpoints,
            },
        );

        if has_internal {
            t.add(cluster_ip_rule("KUBE-SERVICES").jump(internal_chain.clone()));
        }
        if has_endpoints {
            for ip in &svc.external_ips {
                t.add(
                    Rule::new("KUBE-SERVICES")
                        .dst(ip)
                        .proto(&proto)
                        .comment(&format!("{name} external IP"))
                        .m(format!("-m {proto} --dport {}", svc.port))
                        .jump(ext_chain.clone()),
                );
            }
            for ip in &svc.load_balancer_ips {
                t.add(
                    Rule::new("KUBE-SERVICES")
                        .dst(ip)
                        .proto(&proto)
                        .comment(&format!("{name} loadbalancer IP"))
                        .m(format!("-m {proto} --dport {}", svc.port))
                        .jump(ext_chain.clone()),
                );
            }
            if svc.node_port != 0 {
                t.add(
                    Rule::new("KUBE-NODEPORTS")
                        .proto(&proto)
                        .comment(name)
                        .m(format!("-m {proto} --dport {}", svc.node_port))
                        .jump(ext_chain.clone()),
                );
            }
        }
        if has_internal {
            t.chain(&internal_chain);
            t.add(
                cluster_ip_rule(&internal_chain)
                    .src(true, cluster_cidr)
                    .jump("KUBE-MARK-MASQ"),
            );
        }
        if uses_external_chain {
            t.chain(&ext_chain);
            if !svc.external_policy_local() {
                t.add(
                    Rule::new(&ext_chain)
                        .comment(&format!(
                            "masquerade traffic for {name} external destinations"
                        ))
                        .jump("KUBE-MARK-MASQ"),
                );
            } else {
                t.add(
                    Rule::new(&ext_chain)
                        .src(false, cluster_cidr)
                        .comment(&format!("pod traffic for {name} external destinations"))
                        .jump(svc_chain.clone()),
                );
                t.add(
                    Rule::new(&ext_chain)
                        .comment(&format!(
                            "masquerade LOCAL traffic for {name} external destinations"
                        ))
                        .m("-m addrtype --src-type LOCAL")
                        .jump("KUBE-MARK-MASQ"),
                );
                t.add(
                    Rule::new(&ext_chain)
                        .comment(&format!(
                            "route LOCAL traffic for {name} external destinations"
                        ))
                        .m("-m addrtype --src-type LOCAL")
                        .jump(svc_chain.clone()),
                );
            }
            if has_external {
                t.add(Rule::new(&ext_chain).jump(external_policy_chain.clone()));
            }
        }
        if uses_cluster_chain {
            t.chain(&svc_chain);
            load_balance(&mut t, svc, &svc_chain, &cluster_eps);
        }
        if uses_local_chain {
            t.chain(&svl_chain);
            load_balance(&mut t, svc, &svl_chain, &local_eps);
        }
        let mut reachable: BTreeSet<&Endpoint> = BTreeSet::new();
        if uses_cluster_chain {
            reachable.extend(cluster_eps.iter().copied());
        }
        if uses_local_chain {
            reachable.extend(local_eps.iter().copied());
        }
        let mut reachable: Vec<&Endpoint> = reachable.into_iter().collect();
        crate::api::sorting::sort_by_key(&mut reachable, &|e| e.address());
        for ep in reachable {
            let addr = ep.address();
            let sep = endpoint_chain(name, &svc.protocol, &addr);
            t.chain(&sep);
            t.add(
                Rule::new(&sep)
                    .src(false, &ep.ip)
                    .comment(name)
                    .jump("KUBE-MARK-MASQ"),
            );
            let mut dnat = Rule::new(&sep).proto(&proto).comment(name);
            if svc.affinity_seconds.is_some() {
                dnat = dnat.m(format!(
                    "-m recent --set --name {sep} --mask 255.255.255.255 --rsource"
                ));
            }
            t.add(
                dnat.m(format!("-m {proto}"))
                    .jump(format!("DNAT --to-destination {addr}")),
            );
        }
    }
    t.add(
        Rule::new("KUBE-SERVICES")
            .comment("kubernetes service nodeports; NOTE: this must be the last rule in this chain")
            .m("-m addrtype --dst-type LOCAL")
            .jump("KUBE-NODEPORTS"),
    );
    Rendered {
        nat: t.save(),
        services: programmed,
    }
}

/// `writeServiceToEndpointRules`: session affinity first, then one rule per endpoint, each
/// taking 1/(endpoints left) of what reaches it; the last one takes the rest.
fn load_balance(t: &mut Table, svc: &ServicePort, chain: &str, endpoints: &[&Endpoint]) {
    let name = &svc.name;
    if let Some(seconds) = svc.affinity_seconds {
        for ep in endpoints {
            let addr = ep.address();
            let sep = endpoint_chain(name, &svc.protocol, &addr);
            t.add(
                Rule::new(chain)
                    .comment(&format!("{name} -> {addr}"))
                    .m(format!(
                        "-m recent --rcheck --seconds {seconds} --reap --name {sep} --mask 255.255.255.255 --rsource"
                    ))
                    .jump(sep.clone()),
            );
        }
    }
    let n = endpoints.len();
    for (i, ep) in endpoints.iter().enumerate() {
        let addr = ep.address();
        let mut rule = Rule::new(chain).comment(&format!("{name} -> {addr}"));
        if i + 1 < n {
            rule = rule.m(format!(
                "-m statistic --mode random --probability {}",
                saved_probability(&probability(n - i))
            ));
        }
        t.add(rule.jump(endpoint_chain(name, &svc.protocol, &addr)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn port(name: &str, ip: &str, port: i64) -> ServicePort {
        ServicePort {
            name: name.into(),
            protocol: "TCP".into(),
            cluster_ip: ip.into(),
            port,
            node_port: 0,
            external_ips: vec![],
            load_balancer_ips: vec![],
            internal_local: false,
            external_local: false,
            affinity_seconds: None,
        }
    }

    fn ep(ip: &str, port: i64, ready: bool, node: &str) -> Endpoint {
        Endpoint {
            ip: ip.into(),
            port,
            ready,
            serving: ready,
            terminating: false,
            node: Some(node.into()),
        }
    }

    #[test]
    fn chain_names_are_the_real_hashes() {
        // Every cluster has these two: the `kubernetes` Service and kube-dns.
        assert_eq!(
            service_chain("default/kubernetes:https", "TCP"),
            "KUBE-SVC-NPX46M4PTMTKRN6Y"
        );
        assert_eq!(
            service_chain("kube-system/kube-dns:dns", "UDP"),
            "KUBE-SVC-TCOU7JCQXEZGVUNU"
        );
        assert_eq!(
            service_chain("kube-system/kube-dns:dns-tcp", "TCP"),
            "KUBE-SVC-ERIFXISQEP7F7OF4"
        );
    }

    #[test]
    fn probabilities_as_written_and_as_saved() {
        assert_eq!(probability(3), "0.3333333333");
        assert_eq!(probability(2), "0.5000000000");
        assert_eq!(saved_probability(&probability(3)), "0.33333333349");
        assert_eq!(saved_probability(&probability(2)), "0.50000000000");
        assert_eq!(saved_probability(&probability(4)), "0.25000000000");
        assert_eq!(saved_probability(&probability(5)), "0.20000000019");
    }

    #[test]
    fn a_service_with_three_endpoints() {
        let svc = port("default/web", "10.96.0.12", 80);
        let eps = vec![
            ep("10.244.2.2", 80, true, "node-2"),
            ep("10.244.1.2", 80, true, "node-1"),
            ep("10.244.3.2", 80, true, "node-3"),
            ep("10.244.3.3", 80, false, "node-3"),
        ];
        let r = render(&[(svc, eps)], "node-1", "10.244.0.0/16");
        let svc_chain = service_chain("default/web", "TCP");
        assert!(r.nat.contains(&format!(
            "-A KUBE-SERVICES -d 10.96.0.12/32 -p tcp -m comment --comment \"default/web cluster IP\" -m tcp --dport 80 -j {svc_chain}\n"
        )), "{}", r.nat);
        assert!(r.nat.contains(&format!(
            "-A {svc_chain} ! -s 10.244.0.0/16 -d 10.96.0.12/32 -p tcp -m comment --comment \"default/web cluster IP\" -m tcp --dport 80 -j KUBE-MARK-MASQ\n"
        )));
        let sep1 = endpoint_chain("default/web", "TCP", "10.244.1.2:80");
        assert!(r.nat.contains(&format!(
            "-A {svc_chain} -m comment --comment \"default/web -> 10.244.1.2:80\" -m statistic --mode random --probability 0.33333333349 -j {sep1}\n"
        )));
        assert!(r.nat.contains(&format!(
            "-A {sep1} -s 10.244.1.2/32 -m comment --comment \"default/web\" -j KUBE-MARK-MASQ\n-A {sep1} -p tcp -m comment --comment \"default/web\" -m tcp -j DNAT --to-destination 10.244.1.2:80\n"
        )));
        assert!(r.nat.contains("--probability 0.50000000000 -j KUBE-SEP-"));
        assert!(r.nat.contains(&format!(
            "-A {svc_chain} -m comment --comment \"default/web -> 10.244.3.2:80\" -j KUBE-SEP-"
        )));
        assert!(
            !r.nat.contains("10.244.3.3"),
            "the unready endpoint is left out"
        );
        let services: Vec<&str> = r
            .nat
            .lines()
            .filter(|l| l.starts_with("-A KUBE-SERVICES "))
            .collect();
        assert_eq!(
            services.last(),
            Some(
                &"-A KUBE-SERVICES -m comment --comment \"kubernetes service nodeports; NOTE: this must be the last rule in this chain\" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS"
            )
        );
        assert!(r.nat.ends_with("\nCOMMIT\n"));
        assert_eq!(
            r.services["default/web"].endpoints,
            vec!["10.244.1.2:80", "10.244.2.2:80", "10.244.3.2:80"]
        );
        // Chains are declared built-ins first, then by name.
        let decl: Vec<&str> = r.nat.lines().filter(|l| l.starts_with(':')).collect();
        assert_eq!(
            decl[..5],
            [
                ":PREROUTING ACCEPT [0:0]",
                ":INPUT ACCEPT [0:0]",
                ":OUTPUT ACCEPT [0:0]",
                ":POSTROUTING ACCEPT [0:0]",
                ":KUBE-KUBELET-CANARY - [0:0]"
            ]
        );
    }

    #[test]
    fn node_ports_and_local_policy() {
        let mut svc = port("default/web:http", "10.96.0.12", 80);
        svc.node_port = 30080;
        svc.external_local = true;
        let eps = vec![
            ep("10.244.1.2", 8080, true, "node-1"),
            ep("10.244.2.2", 8080, true, "node-2"),
        ];
        let on1 = render(&[(svc.clone(), eps.clone())], "node-1", "10.244.0.0/16");
        let ext = external_chain("default/web:http", "TCP");
        let svl = local_chain("default/web:http", "TCP");
        assert!(on1.nat.contains(&format!(
            "-A KUBE-NODEPORTS -p tcp -m comment --comment \"default/web:http\" -m tcp --dport 30080 -j {ext}\n"
        )));
        assert!(on1.nat.contains(&format!("-A {ext} -j {svl}\n")));
        assert!(on1.nat.contains(&format!(
            "-A {svl} -m comment --comment \"default/web:http -> 10.244.1.2:8080\" -j KUBE-SEP-"
        )));
        // Without a local endpoint the node drops external traffic: no jump to a KUBE-SVL chain.
        let on3 = render(&[(svc, eps)], "node-3", "10.244.0.0/16");
        assert!(!on3.nat.contains("KUBE-SVL-"));
        assert!(on3.nat.contains(&format!("-A {ext} -m comment --comment \"route LOCAL traffic for default/web:http external destinations\" -m addrtype --src-type LOCAL -j KUBE-SVC-")));
    }

    #[test]
    fn no_endpoints_no_nat_rules() {
        let svc = port("default/web", "10.96.0.12", 80);
        let r = render(
            &[(svc, vec![ep("10.244.1.2", 80, false, "node-1")])],
            "node-1",
            "10.244.0.0/16",
        );
        assert!(!r.nat.contains("KUBE-SVC-"));
        assert!(!r.services["default/web"].has_endpoints);
    }
}
