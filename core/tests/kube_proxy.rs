//! kube-proxy end to end: one per node, watching Services and EndpointSlices through the
//! apiserver and programming the node's nat table; the tests read the rules from each node's
//! last `iptables.sync` record, as `iptables-save -t nat` would print them there.

use kubeplay_core::api::value::Value;
use kubeplay_core::cluster::Cluster;
use kubeplay_core::kubeproxy::iptables::{endpoint_chain, saved_probability, service_chain};

/// A 3-replica nginx Deployment, a Service over it, and a fourth pod with the same labels
/// whose readiness probe has not run yet (an hour of initial delay): not ready.
const SCENARIO: &str = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports:
        - containerPort: 80
---
apiVersion: v1
kind: Pod
metadata:
  name: warming-up
  labels: {app: web}
spec:
  containers:
  - name: nginx
    image: nginx:1.27
    readinessProbe:
      httpGet: {path: /, port: 80}
      initialDelaySeconds: 3600
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
  - port: 80
    targetPort: 80
";

const NODES: [&str; 3] = ["node-1", "node-2", "node-3"];

fn kubectl(c: &mut Cluster, args: &[&str]) -> String {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let out = kubeplay_core::kubectl::run(c, &args);
    assert_eq!(out.exit_code, 0, "{}", out.stderr);
    out.stdout
}

fn json_of(c: &mut Cluster, args: &[&str]) -> Value {
    serde_json::from_str(&kubectl(c, args)).unwrap()
}

fn run(text: &str) -> Cluster {
    let mut c = Cluster::from_text("scenario.yaml", text).unwrap();
    c.run(None);
    c
}

/// The `iptables.sync` records of one node, in order.
fn syncs<'a>(c: &'a Cluster, node: &str) -> Vec<&'a kubeplay_core::trace::Record> {
    c.trace
        .records
        .iter()
        .filter(|r| r.action == "iptables.sync" && r.node.as_deref() == Some(node))
        .collect()
}

/// The nat table of a node as its kube-proxy last restored it.
fn rules(c: &Cluster, node: &str) -> String {
    let last = *syncs(c, node).last().expect("a sync");
    last.detail.as_ref().unwrap()["rules"]
        .as_str()
        .unwrap()
        .to_string()
}

/// `(ready IPs, unready IPs)` of the pods labelled app=web.
fn pod_ips(c: &mut Cluster) -> (Vec<String>, Vec<String>) {
    let pods = json_of(c, &["get", "pods", "-l", "app=web", "-o", "json"]);
    let (mut ready, mut unready) = (Vec::new(), Vec::new());
    for p in pods["items"].as_array().unwrap() {
        let ip = p["status"]["podIP"].as_str().unwrap().to_string();
        let is_ready = p["status"]["conditions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["type"] == "Ready" && c["status"] == "True");
        if is_ready {
            ready.push(ip);
        } else {
            unready.push(ip);
        }
    }
    // kube-proxy orders endpoints by their `ip:port` string.
    ready.sort_by_key(|ip| format!("{ip}:80"));
    (ready, unready)
}

#[test]
fn every_node_load_balances_the_cluster_ip_over_the_ready_pods() {
    let mut c = run(SCENARIO);
    let (ready, unready) = pod_ips(&mut c);
    assert_eq!(ready.len(), 3, "{ready:?}");
    assert_eq!(unready.len(), 1, "{unready:?}");
    let svc = json_of(&mut c, &["get", "svc", "web", "-o", "json"]);
    let cluster_ip = svc["spec"]["clusterIP"].as_str().unwrap().to_string();
    let chain = service_chain("default/web", "TCP");

    for node in NODES {
        let nat = rules(&c, node);
        assert!(nat.starts_with("*nat\n:PREROUTING ACCEPT [0:0]\n"), "{nat}");
        assert!(nat.ends_with("COMMIT\n"), "{nat}");
        assert!(
            nat.contains(&format!(
                "-A KUBE-SERVICES -d {cluster_ip}/32 -p tcp -m comment --comment \"default/web cluster IP\" -m tcp --dport 80 -j {chain}\n"
            )),
            "{node}:\n{nat}"
        );
        assert!(nat.contains(&format!(":{chain} - [0:0]\n")));
        // One rule per ready endpoint: 1/3, then 1/2 of the rest, then the rest.
        let lb: Vec<&str> = nat
            .lines()
            .filter(|l| {
                l.starts_with(&format!(
                    "-A {chain} -m comment --comment \"default/web -> "
                ))
            })
            .collect();
        assert_eq!(lb.len(), 3, "{node}:\n{nat}");
        // What kube-proxy writes (`%0.10f` of 1/(n-i)), as iptables-save reads it back.
        let probabilities = ["0.3333333333", "0.5000000000"];
        for (i, ip) in ready.iter().enumerate() {
            let sep = endpoint_chain("default/web", "TCP", &format!("{ip}:80"));
            let expected = match probabilities.get(i) {
                Some(p) => format!(
                    "-A {chain} -m comment --comment \"default/web -> {ip}:80\" -m statistic --mode random --probability {} -j {sep}",
                    saved_probability(p)
                ),
                None => {
                    format!("-A {chain} -m comment --comment \"default/web -> {ip}:80\" -j {sep}")
                }
            };
            assert_eq!(lb[i], expected);
            assert!(
                nat.contains(&format!(
                    "-A {sep} -p tcp -m comment --comment \"default/web\" -m tcp -j DNAT --to-destination {ip}:80\n"
                )),
                "{nat}"
            );
            assert!(nat.contains(&format!(
                "-A {sep} -s {ip}/32 -m comment --comment \"default/web\" -j KUBE-MARK-MASQ\n"
            )));
        }
        // iptables-save shows the kernel's fixed-point value of what kube-proxy wrote.
        assert!(lb[0].contains("--probability 0.33333333349 "), "{}", lb[0]);
        assert!(lb[1].contains("--probability 0.50000000000 "), "{}", lb[1]);
        assert!(!lb[2].contains("statistic"));
        // The pod that is not ready is in the EndpointSlice but not in the rules.
        assert!(!nat.contains(&unready[0]), "{node}:\n{nat}");
        // The `kubernetes` Service is there too, under its well-known chain.
        assert!(nat.contains("-A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -m comment --comment \"default/kubernetes:https cluster IP\" -m tcp --dport 443 -j KUBE-SVC-NPX46M4PTMTKRN6Y\n"));
        // The nodeports jump stays the last rule of KUBE-SERVICES.
        let services: Vec<&str> = nat
            .lines()
            .filter(|l| l.starts_with("-A KUBE-SERVICES "))
            .collect();
        assert!(services.last().unwrap().ends_with("-j KUBE-NODEPORTS"));
    }

    let slice = json_of(
        &mut c,
        &[
            "get",
            "endpointslices",
            "-l",
            "kubernetes.io/service-name=web",
            "-o",
            "json",
        ],
    );
    let eps = slice["items"][0]["endpoints"].as_array().unwrap();
    assert_eq!(eps.len(), 4, "the unready pod is listed, with ready: false");
    assert!(eps
        .iter()
        .any(|e| e["addresses"][0] == unready[0].as_str() && e["conditions"]["ready"] == false));
}

#[test]
fn syncs_are_a_second_apart_and_say_what_changed() {
    let c = run(SCENARIO);
    for node in NODES {
        let s = syncs(&c, node);
        assert!(!s.is_empty());
        for pair in s.windows(2) {
            assert!(
                pair[1].t_ms >= pair[0].t_ms + 1000,
                "{node}: syncs at {} and {} ms",
                pair[0].t_ms,
                pair[1].t_ms
            );
        }
        for r in &s {
            assert_eq!(r.component.as_str(), "kube-proxy");
            assert!(
                r.summary
                    .starts_with(&format!("iptables-restore on {node}: ")),
                "{}",
                r.summary
            );
        }
        assert!(
            s[0].summary.contains("+default/web (10.96."),
            "{}",
            s[0].summary
        );
        let last = &s.last().unwrap().summary;
        assert!(last.contains("default/web"), "{last}");
        // Three pods become ready within a few seconds: far fewer syncs than endpoint changes.
        assert!(s.len() <= 4, "{node}: {} syncs", s.len());
    }
}

#[test]
fn deleting_the_service_removes_its_chains() {
    let steps = "---\napiVersion: kubeplay/v1alpha1\nkind: Scenario\nsteps:\n- at: 30s\n  kubectl: delete service web\n";
    let c = run(&format!("{SCENARIO}{steps}"));
    let chain = service_chain("default/web", "TCP");
    for node in NODES {
        let s = syncs(&c, node);
        let last = s.last().unwrap();
        assert!(last.t_ms >= 30_000, "{node}: last sync at {}", last.t_ms);
        assert!(
            last.summary.contains("-default/web (10.96.")
                && last.summary.contains("its chains are removed"),
            "{}",
            last.summary
        );
        let nat = rules(&c, node);
        assert!(!nat.contains(&chain), "{node}:\n{nat}");
        assert!(!nat.contains("default/web"), "{node}:\n{nat}");
        assert!(!nat.contains("KUBE-SEP-") || nat.contains("default/kubernetes:https\""));
        assert!(nat.contains("KUBE-SVC-NPX46M4PTMTKRN6Y"));
    }
}

#[test]
fn node_ports_jump_from_kube_nodeports() {
    let svc = "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web-np\nspec:\n  type: NodePort\n  selector: {app: web}\n  ports:\n  - name: http\n    port: 8080\n    targetPort: 80\n    nodePort: 30080\n";
    let c = run(&format!("{SCENARIO}{svc}"));
    let chain = service_chain("default/web-np:http", "TCP");
    let ext = chain.replace("KUBE-SVC-", "KUBE-EXT-");
    for node in NODES {
        let nat = rules(&c, node);
        assert!(nat.contains(&format!(
            "-A KUBE-NODEPORTS -p tcp -m comment --comment \"default/web-np:http\" -m tcp --dport 30080 -j {ext}\n"
        )), "{nat}");
        assert!(nat.contains(&format!(
            "-A {ext} -m comment --comment \"masquerade traffic for default/web-np:http external destinations\" -j KUBE-MARK-MASQ\n-A {ext} -j {chain}\n"
        )));
        // Service port 8080, endpoints on the pods' port 80.
        assert!(nat.contains("--dport 8080 -j KUBE-SVC-"));
        assert!(nat.contains("\"default/web-np:http -> 10.244."));
    }
}

#[test]
fn kube_proxy_may_read_what_it_watches() {
    let mut c = run(SCENARIO);
    for (verb, resource) in [
        ("list", "services"),
        ("watch", "services"),
        ("list", "endpointslices.discovery.k8s.io"),
        ("watch", "endpointslices.discovery.k8s.io"),
    ] {
        let out = kubectl(
            &mut c,
            &[
                "auth",
                "can-i",
                verb,
                resource,
                "--as",
                "system:kube-proxy",
                "-A",
            ],
        );
        assert_eq!(out, "yes\n", "{verb} {resource}");
    }
}
