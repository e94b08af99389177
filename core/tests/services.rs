//! Services end to end: the EndpointSlice and Endpoints controllers list the pods a Service
//! selects, with the IPs the kubelets reported, and follow them as they come and go.

use kubeplay_core::api::value::Value;
use kubeplay_core::cluster::Cluster;

const NGINX: &str = include_str!("../../public/scenarios/default.yaml");

const WEB_SERVICE: &str = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: nginx\n  ports:\n  - port: 80\n    targetPort: 80\n";

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

fn pod_ips(c: &mut Cluster) -> Vec<String> {
    let pods = json_of(c, &["get", "pods", "-l", "app=nginx", "-o", "json"]);
    let mut ips: Vec<String> = pods["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["status"]["podIP"].as_str().unwrap().to_string())
        .collect();
    ips.sort();
    ips
}

fn slices(c: &mut Cluster, svc: &str) -> Vec<Value> {
    let sel = format!("kubernetes.io/service-name={svc}");
    json_of(c, &["get", "endpointslices", "-l", &sel, "-o", "json"])["items"]
        .as_array()
        .unwrap()
        .clone()
}

fn slice_ips(slice: &Value) -> Vec<String> {
    let mut ips: Vec<String> = slice["endpoints"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| e["addresses"][0].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default();
    ips.sort();
    ips
}

#[test]
fn service_gets_a_slice_and_endpoints_with_the_ready_pods() {
    let mut c = run(&format!("{NGINX}---\n{WEB_SERVICE}"));
    let ips = pod_ips(&mut c);
    assert_eq!(ips.len(), 3);

    let web = slices(&mut c, "web");
    assert_eq!(web.len(), 1, "{web:#?}");
    let s = &web[0];
    let name = s["metadata"]["name"].as_str().unwrap();
    assert!(
        name.starts_with("web-") && name.len() == "web-".len() + 5,
        "{name}"
    );
    assert_eq!(s["addressType"], "IPv4");
    assert_eq!(
        s["metadata"]["labels"]["endpointslice.kubernetes.io/managed-by"],
        "endpointslice-controller.k8s.io"
    );
    let owner = &s["metadata"]["ownerReferences"][0];
    assert_eq!(owner["kind"], "Service");
    assert_eq!(owner["name"], "web");
    assert_eq!(owner["controller"], true);
    assert_eq!(owner["blockOwnerDeletion"], true);
    assert_eq!(s["ports"].as_array().unwrap().len(), 1);
    assert_eq!(s["ports"][0]["port"], 80);
    assert_eq!(s["ports"][0]["protocol"], "TCP");
    assert_eq!(slice_ips(s), ips);
    for e in s["endpoints"].as_array().unwrap() {
        assert_eq!(e["conditions"]["ready"], true, "{e}");
        assert_eq!(e["conditions"]["serving"], true, "{e}");
        assert_eq!(e["conditions"]["terminating"], false, "{e}");
        assert_eq!(e["targetRef"]["kind"], "Pod");
        assert!(e["nodeName"].as_str().unwrap().starts_with("node-"));
        assert!(e["zone"].as_str().unwrap().starts_with("zone-"));
    }

    let ep = kubectl(&mut c, &["get", "endpoints", "web"]);
    for ip in &ips {
        assert!(ep.contains(&format!("{ip}:80")), "{ep}");
    }
    let ep = json_of(&mut c, &["get", "endpoints", "web", "-o", "json"]);
    let addrs = ep["subsets"][0]["addresses"].as_array().unwrap();
    assert_eq!(addrs.len(), 3);
    assert!(ep["subsets"][0].get("notReadyAddresses").is_none());

    let svc = json_of(&mut c, &["get", "svc", "web", "-o", "json"]);
    let ip = svc["spec"]["clusterIP"].as_str().unwrap();
    let o: Vec<u32> = ip.split('.').map(|x| x.parse().unwrap()).collect();
    assert_eq!(o[0], 10);
    assert!((96..112).contains(&o[1]), "{ip} not in 10.96.0.0/12");
    let table = kubectl(&mut c, &["get", "svc", "web"]);
    assert!(table.contains(ip), "{table}");

    // The kubernetes Service's objects are left as bootstrap made them.
    let k = slices(&mut c, "kubernetes");
    assert_eq!(k.len(), 1);
    assert_eq!(k[0]["metadata"]["name"], "kubernetes");
}

#[test]
fn scaling_down_leaves_one_endpoint() {
    let steps = "apiVersion: kubeplay/v1alpha1\nkind: Scenario\nsteps:\n- at: 10s\n  kubectl: scale deployment nginx --replicas=1\n";
    let mut c = run(&format!("{NGINX}---\n{WEB_SERVICE}---\n{steps}"));
    let ips = pod_ips(&mut c);
    assert_eq!(ips.len(), 1);
    let s = slices(&mut c, "web");
    assert_eq!(s.len(), 1);
    assert_eq!(slice_ips(&s[0]), ips);
    let ep = json_of(&mut c, &["get", "endpoints", "web", "-o", "json"]);
    let addrs = ep["subsets"][0]["addresses"].as_array().unwrap();
    assert_eq!(addrs.len(), 1);
    assert_eq!(addrs[0]["ip"], ips[0].as_str());
}

#[test]
fn service_selecting_nothing_has_an_empty_slice_and_no_subsets() {
    let svc = "apiVersion: v1\nkind: Service\nmetadata:\n  name: nobody\nspec:\n  selector:\n    app: nobody\n  ports:\n  - port: 8080\n";
    let mut c = run(&format!("{NGINX}---\n{svc}"));
    let s = slices(&mut c, "nobody");
    assert_eq!(s.len(), 1, "{s:#?}");
    assert!(slice_ips(&s[0]).is_empty());
    let ep = json_of(&mut c, &["get", "endpoints", "nobody", "-o", "json"]);
    assert!(ep.get("subsets").is_none(), "{ep}");
    let table = kubectl(&mut c, &["get", "endpoints", "nobody"]);
    assert!(table.contains("<none>"), "{table}");
}

#[test]
fn named_target_port_resolves_to_the_container_port() {
    let dep = NGINX.replace(
        "- containerPort: 80",
        "- containerPort: 80\n          name: http",
    );
    let svc = "apiVersion: v1\nkind: Service\nmetadata:\n  name: named\nspec:\n  selector:\n    app: nginx\n  ports:\n  - name: web\n    port: 8080\n    targetPort: http\n";
    let mut c = run(&format!("{dep}---\n{svc}"));
    let s = slices(&mut c, "named");
    assert_eq!(s[0]["ports"][0]["port"], 80);
    assert_eq!(s[0]["ports"][0]["name"], "web");
    assert_eq!(slice_ips(&s[0]).len(), 3);
    let ep = json_of(&mut c, &["get", "endpoints", "named", "-o", "json"]);
    assert_eq!(ep["subsets"][0]["ports"][0]["port"], 80);
    assert_eq!(ep["subsets"][0]["ports"][0]["name"], "web");
}

#[test]
fn deleting_the_service_deletes_its_slice_and_endpoints() {
    let steps = "apiVersion: kubeplay/v1alpha1\nkind: Scenario\nsteps:\n- at: 10s\n  kubectl: delete service web\n";
    let mut c = run(&format!("{NGINX}---\n{WEB_SERVICE}---\n{steps}"));
    assert!(slices(&mut c, "web").is_empty());
    let args: Vec<String> = ["get", "endpoints", "web"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let out = kubeplay_core::kubectl::run(&mut c, &args);
    assert_ne!(out.exit_code, 0, "{}", out.stdout);
}
