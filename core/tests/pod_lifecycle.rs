//! A pod's life on its node, step by step (issue #5): volumes before the sandbox, the
//! network, init containers, pulls, probes, lifecycle hooks and the kubelet's own admission,
//! with the events and STATUS column a 1.35 cluster shows.

use kubeplay_core::api::value::Value;
use kubeplay_core::api::{meta, resources::for_kind, Object};
use kubeplay_core::apiserver::{Request, Verb};
use kubeplay_core::cluster::{admin_credentials, Cluster};

fn kubectl(c: &mut Cluster, args: &[&str]) -> String {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let out = kubeplay_core::kubectl::run(c, &args);
    assert_eq!(out.exit_code, 0, "{}", out.stderr);
    out.stdout
}

fn list(c: &mut Cluster, api_version: &str, kind: &str) -> Vec<Object> {
    let info = for_kind(api_version, kind).unwrap();
    let req =
        Request::new(Verb::List, info, admin_credentials(), "test").namespace(Some("default"));
    c.request(&req).unwrap()["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn pod(c: &mut Cluster, name: &str) -> Object {
    list(c, "v1", "Pod")
        .into_iter()
        .find(|p| meta::name(p) == name)
        .unwrap_or_else(|| panic!("pod {name}"))
}

/// The `kubectl get pods` row of pod `name`: (READY, STATUS, RESTARTS).
fn row(c: &mut Cluster, name: &str) -> (String, String, String) {
    let out = kubectl(c, &["get", "pods"]);
    let line = out
        .lines()
        .skip(1)
        .find(|l| l.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("{name} in {out}"));
    let f: Vec<&str> = line.split_whitespace().collect();
    (f[1].into(), f[2].into(), f[3].into())
}

/// The pod's events as (reason, type, message, fieldPath, count), in the order they were
/// first recorded.
fn events(c: &mut Cluster, pod: &str) -> Vec<(String, String, String, String, u64)> {
    let mut evs: Vec<Object> = list(c, "v1", "Event")
        .into_iter()
        .filter(|e| e["involvedObject"]["name"] == pod)
        .collect();
    evs.sort_by_key(|e| {
        let name = e["metadata"]["name"].as_str().unwrap();
        u128::from_str_radix(name.rsplit('.').next().unwrap(), 16).unwrap()
    });
    evs.iter()
        .map(|e| {
            let s = |k: &str| e[k].as_str().unwrap_or("").to_string();
            (
                s("reason"),
                s("type"),
                s("message"),
                e["involvedObject"]["fieldPath"]
                    .as_str()
                    .unwrap_or("")
                    .to_string(),
                e["count"].as_u64().unwrap_or(1),
            )
        })
        .collect()
}

fn has_event(evs: &[(String, String, String, String, u64)], reason: &str, message: &str) -> bool {
    evs.iter().any(|e| e.0 == reason && e.2 == message)
}

fn records(c: &Cluster) -> Vec<Value> {
    c.trace
        .to_json_lines()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The node's steps for pod `name` (kubelet, runtime and CNI records that are not requests).
fn pod_steps(c: &Cluster, name: &str) -> Vec<Value> {
    let object = format!("Pod default/{name}");
    records(c)
        .into_iter()
        .filter(|r| r["object"] == object.as_str() && r["action"] != "request")
        .filter(|r| {
            matches!(
                r["component"].as_str(),
                Some("kubelet" | "container-runtime" | "cni")
            )
        })
        .collect()
}

fn ip_in_cidr(ip: &str, cidr: &str) -> bool {
    let net = cidr.split('/').next().unwrap();
    let prefix: Vec<&str> = net.split('.').take(3).collect();
    let parts: Vec<&str> = ip.split('.').collect();
    parts.len() == 4 && parts[..3] == prefix[..] && parts[3].parse::<u8>().unwrap() >= 2
}

const ACCEPTANCE: &str = r#"
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
data:
  index.html: "<h1>hello</h1>"
---
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  initContainers:
  - name: wait
    image: busybox:1.36
    command: ["sleep", "2"]
  containers:
  - name: nginx
    image: nginx:1.27
    ports:
    - containerPort: 80
    readinessProbe:
      httpGet: {path: /, port: 80}
    volumeMounts:
    - name: config
      mountPath: /usr/share/nginx/html
  volumes:
  - name: config
    configMap:
      name: web-config
"#;

#[test]
fn a_pod_with_an_init_container_a_probe_and_a_config_map_volume_starts_step_by_step() {
    let mut c = Cluster::from_text("web.yaml", ACCEPTANCE).unwrap();
    // The STATUS column while the cluster runs, sampled every 100 ms.
    let mut seen: Vec<(u64, String)> = Vec::new();
    let mut t = 0;
    while t <= 12_000 {
        c.run(Some(t));
        let status = row(&mut c, "web").1;
        if seen.last().is_none_or(|(_, s)| *s != status) {
            seen.push((t, status));
        }
        t += 100;
    }
    let statuses: Vec<&str> = seen.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(
        statuses,
        ["Pending", "Init:0/1", "PodInitializing", "Running"],
        "{seen:?}"
    );
    assert_eq!(row(&mut c, "web").0, "1/1");

    let steps = pod_steps(&c, "web");
    let find = |what: &str, pred: &dyn Fn(&Value) -> bool| -> (usize, u64) {
        let i = steps
            .iter()
            .position(pred)
            .unwrap_or_else(|| panic!("no step {what} in {steps:#?}"));
        (i, steps[i]["t_ms"].as_u64().unwrap())
    };
    let action = |a: &'static str, needle: &'static str| {
        move |r: &Value| r["action"] == a && r["summary"].as_str().unwrap().contains(needle)
    };
    let order = [
        find("volume mount", &action("volume.mount", "volume \"config\"")),
        find("pause pull", &action("runtime.pull", "pause:3.10")),
        find("RunPodSandbox", &action("runtime.sandbox", "RunPodSandbox")),
        find("CNI ADD", &action("cni.add", "ADD default/web")),
        find("init pull", &action("runtime.pull", "busybox:1.36")),
        find(
            "init create",
            &action("runtime.create", "CreateContainer wait"),
        ),
        find(
            "init start",
            &action("runtime.start", "StartContainer wait"),
        ),
        find(
            "init exit",
            &action("runtime.exit", "container wait exited with code 0"),
        ),
        find(
            "Initialized",
            &action("kubelet.condition", "Initialized=True"),
        ),
        find("app pull", &action("runtime.pull", "nginx:1.27")),
        find(
            "app create",
            &action("runtime.create", "CreateContainer nginx"),
        ),
        find(
            "app start",
            &action("runtime.start", "StartContainer nginx"),
        ),
        find(
            "readiness",
            &action("kubelet.probe", "readiness probe of nginx succeeded"),
        ),
        find("Ready", &action("kubelet.condition", "Ready=True")),
    ];
    assert!(
        order.windows(2).all(|w| w[0].0 < w[1].0),
        "out of order: {order:?}"
    );
    // Each step of the STATUS column at the time of the step that causes it.
    let first_seen = |s: &str| seen.iter().find(|(_, x)| x == s).unwrap().0;
    let at = |i: usize| order[i].1;
    assert!(first_seen("Init:0/1") <= 100, "{seen:?}");
    let within = |status: &str, t: u64| {
        let f = first_seen(status);
        assert!(f >= t && f < t + 100 + 10, "{status} at {f}, step at {t}");
    };
    within("PodInitializing", at(7));
    within("Running", at(11));
    // The volume manager ran before the sandbox; the init container slept its 2 s.
    assert!(at(0) < at(2));
    assert_eq!(at(7) - at(6), 2_000);

    // The pod's address is from its node's podCIDR, and its resolv.conf points at the
    // cluster DNS.
    let p = pod(&mut c, "web");
    let node_name = p["spec"]["nodeName"].as_str().unwrap().to_string();
    let nodes = {
        let info = for_kind("v1", "Node").unwrap();
        let req = Request::new(Verb::List, info, admin_credentials(), "test");
        c.request(&req).unwrap()["items"]
            .as_array()
            .unwrap()
            .clone()
    };
    let node = nodes.iter().find(|n| meta::name(n) == node_name).unwrap();
    let cidr = node["spec"]["podCIDR"].as_str().unwrap();
    let ip = p["status"]["podIP"].as_str().unwrap();
    assert!(ip_in_cidr(ip, cidr), "{ip} in {cidr}");
    let cni = &steps[order[3].0];
    assert_eq!(cni["ip"], ip);
    assert_eq!(cni["dns"]["nameservers"][0], "10.96.0.10");
    assert_eq!(
        cni["dns"]["searches"],
        kubeplay_core::json!([
            "default.svc.cluster.local",
            "svc.cluster.local",
            "cluster.local"
        ])
    );
    assert_eq!(cni["dns"]["options"][0], "ndots:5");
    assert_eq!(steps[order[0].0]["type"], "configMap");

    // The kubelet read the ConfigMap through the apiserver, as its node, and was allowed.
    let recs = records(&c);
    let get = recs
        .iter()
        .position(|r| {
            r["action"] == "request"
                && r["component"] == "kubelet"
                && r["summary"] == "GET /api/v1/namespaces/default/configmaps/web-config"
        })
        .expect("the kubelet GETs the ConfigMap");
    assert!(recs[get + 1]["summary"]
        .as_str()
        .unwrap()
        .contains(&format!("system:node:{node_name}")));
    assert!(recs[get + 2]["summary"]
        .as_str()
        .unwrap()
        .starts_with("Node: allowed"));

    // Conditions in the kubelet's order, all True.
    let types: Vec<&str> = p["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        types,
        [
            "PodReadyToStartContainers",
            "Initialized",
            "Ready",
            "ContainersReady",
            "PodScheduled"
        ]
    );

    // The kubelet's events in 1.35 wording.
    let evs = events(&mut c, "web");
    let kubelet: Vec<(&str, &str, &str)> = evs
        .iter()
        .filter(|e| e.0 != "Scheduled")
        .map(|e| (e.0.as_str(), e.3.as_str(), e.2.as_str()))
        .collect();
    let reasons: Vec<(&str, &str)> = kubelet.iter().map(|e| (e.0, e.1)).collect();
    assert_eq!(
        reasons,
        [
            ("Pulling", "spec.initContainers{wait}"),
            ("Pulled", "spec.initContainers{wait}"),
            ("Created", "spec.initContainers{wait}"),
            ("Started", "spec.initContainers{wait}"),
            ("Pulling", "spec.containers{nginx}"),
            ("Pulled", "spec.containers{nginx}"),
            ("Created", "spec.containers{nginx}"),
            ("Started", "spec.containers{nginx}"),
        ]
    );
    assert_eq!(kubelet[4].2, "Pulling image \"nginx:1.27\"");
    let pulled = kubelet[5].2;
    let rest = pulled
        .strip_prefix("Successfully pulled image \"nginx:1.27\" in ")
        .unwrap_or_else(|| panic!("{pulled}"));
    let (took, rest) = rest.split_once(" (").unwrap();
    let (waiting, size) = rest
        .split_once(" including waiting). Image size: ")
        .unwrap();
    assert_eq!(took, waiting, "{pulled}");
    assert!(took.ends_with('s'), "{pulled}");
    assert_eq!(size, "72195292 bytes.");
    assert_eq!(kubelet[6].2, "Container created");
    assert_eq!(kubelet[7].2, "Container started");
}

#[test]
fn a_second_pod_of_the_same_image_on_the_same_node_needs_no_pull() {
    let text = r#"
apiVersion: v1
kind: Pod
metadata:
  name: first
spec:
  nodeName: node-1
  containers:
  - name: nginx
    image: nginx:1.27
---
apiVersion: kubeplay/v1alpha1
kind: Scenario
steps:
- at: 20s
  kubectl: apply -f -
  stdin: |
    apiVersion: v1
    kind: Pod
    metadata:
      name: second
    spec:
      nodeName: node-1
      containers:
      - name: nginx
        image: nginx:1.27
"#;
    let mut c = Cluster::from_text("two.yaml", text).unwrap();
    c.run(Some(30_000));
    let first = events(&mut c, "first");
    assert!(first.iter().any(|e| e.0 == "Pulling"), "{first:?}");
    let second = events(&mut c, "second");
    let reasons: Vec<&str> = second.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(reasons, ["Pulled", "Created", "Started"], "{second:?}");
    assert_eq!(
        second[0].2,
        "Container image \"nginx:1.27\" already present on machine"
    );
    assert_eq!(
        row(&mut c, "second"),
        ("1/1".into(), "Running".into(), "0".into())
    );
    // Only the first pod pulled anything on node-1 (the pause image, then nginx).
    let pulls: Vec<String> = records(&c)
        .iter()
        .filter(|r| r["action"] == "runtime.pull" && r["node"] == "node-1")
        .map(|r| r["object"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(pulls, ["Pod default/first", "Pod default/first"]);
}

#[test]
fn a_missing_config_map_keeps_the_pod_creating_until_it_exists() {
    let text = r#"
apiVersion: v1
kind: Pod
metadata:
  name: app
spec:
  containers:
  - name: nginx
    image: nginx:1.27
    volumeMounts:
    - name: config
      mountPath: /etc/app
  volumes:
  - name: config
    configMap:
      name: app-config
---
apiVersion: kubeplay/v1alpha1
kind: Scenario
steps:
- at: 20s
  kubectl: create configmap app-config --from-literal=mode=demo
"#;
    let mut c = Cluster::from_text("missing.yaml", text).unwrap();
    c.run(Some(15_000));
    assert_eq!(
        row(&mut c, "app"),
        ("0/1".into(), "ContainerCreating".into(), "0".into())
    );
    let evs = events(&mut c, "app");
    let failed: Vec<_> = evs.iter().filter(|e| e.0 == "FailedMount").collect();
    assert_eq!(failed.len(), 1, "one event, counted: {evs:?}");
    assert_eq!(failed[0].1, "Warning");
    assert_eq!(
        failed[0].2,
        "MountVolume.SetUp failed for volume \"config\" : configmap \"app-config\" not found"
    );
    // Retried with back-off, 0.5 s, 1, 2, 4 s (at the next 100 ms pass): at 0.1, 0.7,
    // 1.8, 3.9 and 8.0 s; the next try waits 8 s more.
    assert_eq!(failed[0].4, 5, "{failed:?}");
    let steps = pod_steps(&c, "app");
    assert!(steps.iter().all(|r| r["action"] != "runtime.sandbox"));
    let p = pod(&mut c, "app");
    assert_eq!(p["status"]["phase"], "Pending");
    assert_eq!(
        p["status"]["containerStatuses"][0]["state"]["waiting"]["reason"],
        "ContainerCreating"
    );

    c.run(Some(60_000));
    assert_eq!(
        row(&mut c, "app"),
        ("1/1".into(), "Running".into(), "0".into())
    );
    let steps = pod_steps(&c, "app");
    let mounted = steps
        .iter()
        .find(|r| {
            r["action"] == "volume.mount"
                && r["summary"]
                    .as_str()
                    .unwrap()
                    .starts_with("MountVolume.SetUp succeeded for volume \"config\"")
        })
        .expect("mounted once the ConfigMap exists");
    let t = mounted["t_ms"].as_u64().unwrap();
    // The next retry after the ConfigMap appeared (the back-off had reached 16 s).
    assert!((20_000..=36_000).contains(&t), "mounted at {t}");
    let sandbox = steps
        .iter()
        .find(|r| r["action"] == "runtime.sandbox")
        .unwrap();
    assert!(sandbox["t_ms"].as_u64().unwrap() > t);
}

#[test]
fn a_failing_liveness_probe_restarts_the_container() {
    let text = r#"
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: nginx
    image: nginx:1.27
    livenessProbe:
      httpGet: {path: /healthz, port: 80}
      periodSeconds: 5
"#;
    let mut c = Cluster::from_text("live.yaml", text).unwrap();
    c.run(Some(60_000));
    let evs = events(&mut c, "web");
    let unhealthy = evs.iter().find(|e| e.0 == "Unhealthy").expect("Unhealthy");
    assert_eq!(unhealthy.1, "Warning");
    assert_eq!(
        unhealthy.2,
        "Liveness probe failed: HTTP probe failed with statuscode: 404"
    );
    assert_eq!(unhealthy.3, "spec.containers{nginx}");
    assert!(unhealthy.4 >= 3, "{evs:?}");
    assert!(has_event(
        &evs,
        "Killing",
        "Container nginx failed liveness probe, will be restarted"
    ));
    // The restart finds the image on the node.
    assert!(has_event(
        &evs,
        "Pulled",
        "Container image \"nginx:1.27\" already present on machine"
    ));
    let p = pod(&mut c, "web");
    let cs = &p["status"]["containerStatuses"][0];
    assert!(cs["restartCount"].as_u64().unwrap() >= 1, "{cs}");
    assert_eq!(cs["lastState"]["terminated"]["exitCode"], 0);
    assert_eq!(cs["lastState"]["terminated"]["reason"], "Completed");
    let steps = pod_steps(&c, "web");
    let kill = steps
        .iter()
        .position(|r| r["action"] == "kubelet.liveness")
        .expect("liveness step");
    assert!(steps[kill..].iter().any(|r| r["action"] == "runtime.stop"));
    // Three failures 5 s apart, then the kill: not before the third probe.
    let started = steps
        .iter()
        .find(|r| r["action"] == "runtime.start")
        .unwrap()["t_ms"]
        .as_u64()
        .unwrap();
    let killed = steps[kill]["t_ms"].as_u64().unwrap();
    assert!(
        killed - started >= 10_000 && killed - started <= 15_000,
        "{started} {killed}"
    );
}

/// `kubectl set image` on a running pod: the kubelet sees the container's spec hash change,
/// kills it (`definition changed, will be restarted`) and starts it again with the new image,
/// which counts as a restart.
#[test]
fn a_changed_image_restarts_the_running_container() {
    let text = r#"
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: nginx
    image: nginx:1.27
"#;
    let mut c = Cluster::from_text("image.yaml", text).unwrap();
    c.run(Some(30_000));
    let before = pod(&mut c, "web");
    let old_id = before["status"]["containerStatuses"][0]["imageID"].clone();
    assert_eq!(
        row(&mut c, "web"),
        ("1/1".into(), "Running".into(), "0".into())
    );
    kubectl(&mut c, &["set", "image", "pod/web", "nginx=nginx:1.28"]);
    c.run(Some(60_000));
    let evs = events(&mut c, "web");
    let killing = evs.iter().find(|e| e.0 == "Killing").expect("Killing");
    assert_eq!(
        (killing.1.as_str(), killing.2.as_str(), killing.3.as_str()),
        (
            "Normal",
            "Container nginx definition changed, will be restarted",
            "spec.containers{nginx}"
        )
    );
    assert!(has_event(&evs, "Pulling", "Pulling image \"nginx:1.28\""));
    assert!(
        evs.iter()
            .any(|e| e.0 == "Pulled" && e.2.starts_with("Successfully pulled image \"nginx:1.28\"")),
        "{evs:?}"
    );
    let started = evs.iter().find(|e| e.0 == "Started").unwrap();
    assert_eq!(started.4, 2, "started again: {evs:?}");
    // Killed, then pulled and started again: in this order.
    let at = |reason: &str, msg: &str| evs.iter().position(|e| e.0 == reason && e.2.contains(msg));
    assert!(at("Killing", "definition changed") < at("Pulling", "nginx:1.28"));
    let p = pod(&mut c, "web");
    assert_eq!(p["spec"]["containers"][0]["image"], "nginx:1.28");
    let cs = &p["status"]["containerStatuses"][0];
    assert_eq!(cs["restartCount"], 1, "{cs}");
    assert_eq!(cs["image"], "docker.io/library/nginx:1.28");
    assert_ne!(cs["imageID"], old_id);
    assert!(cs["state"]["running"].is_object(), "{cs}");
    assert_eq!(cs["ready"], true);
    assert_eq!(cs["lastState"]["terminated"]["exitCode"], 0);
    assert_eq!(cs["lastState"]["terminated"]["reason"], "Completed");
    assert_eq!(
        row(&mut c, "web"),
        ("1/1".into(), "Running".into(), "1".into())
    );
    let steps = pod_steps(&c, "web");
    let changed = steps
        .iter()
        .position(|r| r["action"] == "kubelet.changed")
        .expect("kubelet.changed step");
    // Promptly: the pod update is a pod sync of its own.
    let t = steps[changed]["t_ms"].as_u64().unwrap();
    assert!((30_000..30_100).contains(&t), "{t}");
    let rest: Vec<&str> = steps[changed..]
        .iter()
        .map(|r| r["action"].as_str().unwrap())
        .filter(|a| a.starts_with("runtime."))
        .collect();
    assert_eq!(
        rest,
        [
            "runtime.stop",
            "runtime.exit",
            "runtime.pull",
            "runtime.create",
            "runtime.start"
        ]
    );
}

#[test]
fn the_kubelet_rejects_a_pod_bound_to_a_node_without_room() {
    let text = r#"
apiVersion: v1
kind: Node
metadata:
  name: node-1
status:
  capacity:
    cpu: "2"
    memory: 4Gi
    pods: "110"
---
apiVersion: v1
kind: Pod
metadata:
  name: small
spec:
  nodeName: node-1
  containers:
  - name: c
    image: nginx:1.27
    resources:
      requests: {cpu: 200m}
---
apiVersion: v1
kind: Pod
metadata:
  name: big
spec:
  nodeName: node-1
  containers:
  - name: c
    image: nginx:1.27
    resources:
      requests: {cpu: "3"}
"#;
    let mut c = Cluster::from_text("big.yaml", text).unwrap();
    c.run(Some(10_000));
    let msg = "Node didn't have enough resource: cpu, requested: 3000, used: 200, capacity: 2000";
    let p = pod(&mut c, "big");
    assert_eq!(p["status"]["phase"], "Failed");
    assert_eq!(p["status"]["reason"], "OutOfcpu");
    assert_eq!(
        p["status"]["message"].as_str().unwrap(),
        format!("Pod was rejected: {msg}")
    );
    assert!(p["status"]["startTime"].is_string());
    let evs = events(&mut c, "big");
    let ev = evs.iter().find(|e| e.0 == "OutOfcpu").expect("event");
    assert_eq!(
        (ev.1.as_str(), ev.2.as_str(), ev.3.as_str()),
        ("Warning", msg, "")
    );
    assert_eq!(row(&mut c, "big").1, "OutOfcpu");
    assert_eq!(row(&mut c, "small").1, "Running");
    // Nothing of it ran.
    assert!(pod_steps(&c, "big")
        .iter()
        .all(|r| r["action"] == "kubelet.reject" || r["action"] == "event"));
    // Deleting it completes at once (the kubelet finishes the deletion).
    kubectl(&mut c, &["delete", "pod", "big"]);
    c.run(Some(12_000));
    assert!(list(&mut c, "v1", "Pod")
        .iter()
        .all(|p| meta::name(p) != "big"));
}

#[test]
fn a_failing_post_start_hook_kills_the_container() {
    let text = r#"
apiVersion: v1
kind: Pod
metadata:
  name: hooked
spec:
  containers:
  - name: nginx
    image: nginx:1.27
    lifecycle:
      postStart:
        exec:
          command: ["sh", "-c", "exit 1"]
"#;
    let mut c = Cluster::from_text("hook.yaml", text).unwrap();
    let mut statuses = Vec::new();
    let mut t = 0;
    while t <= 60_000 {
        c.run(Some(t));
        let s = row(&mut c, "hooked").1;
        if statuses.last() != Some(&s) {
            statuses.push(s);
        }
        t += 250;
    }
    assert!(
        statuses.iter().any(|s| s == "PostStartHookError"),
        "{statuses:?}"
    );
    assert!(
        statuses.iter().any(|s| s == "CrashLoopBackOff"),
        "{statuses:?}"
    );
    assert!(!statuses.iter().any(|s| s == "Running"), "{statuses:?}");
    let evs = events(&mut c, "hooked");
    let failed = evs
        .iter()
        .find(|e| e.0 == "FailedPostStartHook")
        .expect("FailedPostStartHook");
    assert_eq!(
        (failed.1.as_str(), failed.2.as_str(), failed.3.as_str()),
        ("Warning", "PostStartHook failed", "spec.containers{nginx}")
    );
    assert!(has_event(&evs, "Killing", "FailedPostStartHook"));
    // Started comes before the hook's failure: the container did start.
    let started = evs.iter().position(|e| e.0 == "Started").unwrap();
    let hook = evs
        .iter()
        .position(|e| e.0 == "FailedPostStartHook")
        .unwrap();
    assert!(started < hook);
    let p = pod(&mut c, "hooked");
    let cs = &p["status"]["containerStatuses"][0];
    assert!(cs["restartCount"].as_u64().unwrap() >= 2, "{cs}");
    // Between two tries the status keeps the hook runner's message.
    let uid = meta::uid(&p).to_string();
    let msg = format!(
        "Exec lifecycle hook ([sh -c exit 1]) for Container \"nginx\" in Pod \"hooked_default({uid})\" failed - error: command 'sh -c exit 1' exited with 1: , message: \"\""
    );
    let hook_steps: Vec<String> = pod_steps(&c, "hooked")
        .iter()
        .filter(|r| r["action"] == "kubelet.hook")
        .map(|r| r["summary"].as_str().unwrap().to_string())
        .collect();
    assert!(
        hook_steps.iter().any(|s| s.contains(&msg)),
        "{hook_steps:?}"
    );
}

#[test]
fn a_pre_stop_hook_runs_before_the_container_is_stopped() {
    let text = r#"
apiVersion: v1
kind: Pod
metadata:
  name: graceful
spec:
  containers:
  - name: nginx
    image: nginx:1.27
    lifecycle:
      preStop:
        exec:
          command: ["sleep", "5"]
"#;
    let mut c = Cluster::from_text("prestop.yaml", text).unwrap();
    c.run(Some(10_000));
    kubectl(&mut c, &["delete", "pod", "graceful"]);
    let deleted_at = c.now();
    c.run(Some(deleted_at + 4_000));
    assert_eq!(row(&mut c, "graceful").1, "Terminating");
    c.run(Some(deleted_at + 20_000));
    assert!(list(&mut c, "v1", "Pod").is_empty());
    let steps = pod_steps(&c, "graceful");
    let hook = steps
        .iter()
        .find(|r| r["action"] == "kubelet.hook")
        .expect("preStop step");
    let stop = steps
        .iter()
        .find(|r| r["action"] == "runtime.stop")
        .expect("StopContainer");
    let (h, s) = (
        hook["t_ms"].as_u64().unwrap(),
        stop["t_ms"].as_u64().unwrap(),
    );
    assert_eq!(s - h, 5_000, "StopContainer after the 5 s hook");
    assert!(stop["summary"].as_str().unwrap().ends_with("after 25s"));
}

#[test]
fn a_startup_probe_holds_the_other_probes_back() {
    let text = r#"
apiVersion: v1
kind: Pod
metadata:
  name: slow
spec:
  containers:
  - name: app
    image: nginx:1.27
    startupProbe:
      tcpSocket: {port: 80}
      initialDelaySeconds: 8
      periodSeconds: 2
    readinessProbe:
      httpGet: {path: /, port: 80}
"#;
    let mut c = Cluster::from_text("startup.yaml", text).unwrap();
    c.run(Some(8_000));
    let p = pod(&mut c, "slow");
    let cs = &p["status"]["containerStatuses"][0];
    assert_eq!(
        (cs["started"].as_bool(), cs["ready"].as_bool()),
        (Some(false), Some(false))
    );
    assert_eq!(
        row(&mut c, "slow"),
        ("0/1".into(), "Running".into(), "0".into())
    );
    c.run(Some(20_000));
    let p = pod(&mut c, "slow");
    let cs = &p["status"]["containerStatuses"][0];
    assert_eq!(
        (cs["started"].as_bool(), cs["ready"].as_bool()),
        (Some(true), Some(true))
    );
    let steps = pod_steps(&c, "slow");
    let started = steps
        .iter()
        .position(|r| r["action"] == "kubelet.startup")
        .expect("startup step");
    let ready = steps
        .iter()
        .position(|r| r["action"] == "kubelet.probe")
        .expect("ready step");
    assert!(started < ready);
}

#[test]
fn the_fail_probe_annotation_keeps_a_container_unready() {
    let text = r#"
apiVersion: v1
kind: Pod
metadata:
  name: flaky
  annotations:
    kubeplay.dev/fail-probe: readiness
spec:
  containers:
  - name: web
    image: nginx:1.27
    readinessProbe:
      httpGet: {path: /, port: 80}
"#;
    let mut c = Cluster::from_text("flaky.yaml", text).unwrap();
    // Only probes are left: the run ends by itself.
    c.run(None);
    assert!(c.now() < 120_000, "quiet at {}", c.now());
    assert_eq!(
        row(&mut c, "flaky"),
        ("0/1".into(), "Running".into(), "0".into())
    );
    let evs = events(&mut c, "flaky");
    assert!(has_event(
        &evs,
        "Unhealthy",
        "Readiness probe failed: HTTP probe failed with statuscode: 500"
    ));
}

#[test]
fn missing_pull_secrets_and_config_refs_are_reported_as_the_kubelet_does() {
    let text = r#"
apiVersion: v1
kind: Pod
metadata:
  name: envy
spec:
  imagePullSecrets:
  - name: regcred
  containers:
  - name: app
    image: nginx:1.27
    env:
    - name: MODE
      valueFrom:
        configMapKeyRef: {name: settings, key: mode}
---
apiVersion: kubeplay/v1alpha1
kind: Scenario
steps:
- at: 30s
  kubectl: create configmap settings --from-literal=mode=live
"#;
    let mut c = Cluster::from_text("envy.yaml", text).unwrap();
    c.run(Some(25_000));
    assert_eq!(row(&mut c, "envy").1, "CreateContainerConfigError");
    let p = pod(&mut c, "envy");
    let waiting = &p["status"]["containerStatuses"][0]["state"]["waiting"];
    assert_eq!(waiting["reason"], "CreateContainerConfigError");
    assert_eq!(waiting["message"], "configmap \"settings\" not found");
    let evs = events(&mut c, "envy");
    assert!(has_event(
        &evs,
        "FailedToRetrieveImagePullSecret",
        "Unable to retrieve some image pull secrets (regcred); attempting to pull the image may not succeed."
    ));
    let failed = evs.iter().find(|e| e.0 == "Failed").expect("Failed event");
    assert_eq!(
        (failed.1.as_str(), failed.2.as_str()),
        ("Warning", "Error: configmap \"settings\" not found")
    );
    assert!(failed.4 >= 2, "retried: {failed:?}");
    // The public image was pulled all the same; once the ConfigMap exists the container runs.
    assert!(evs.iter().any(|e| e.0 == "Pulled"));
    c.run(Some(60_000));
    assert_eq!(
        row(&mut c, "envy"),
        ("1/1".into(), "Running".into(), "0".into())
    );
}

#[test]
fn a_claim_that_is_not_bound_keeps_the_pod_waiting() {
    let text = r#"
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests: {storage: 1Gi}
---
apiVersion: v1
kind: Pod
metadata:
  name: db
spec:
  nodeName: node-1
  containers:
  - name: db
    image: postgres:16
    volumeMounts:
    - name: data
      mountPath: /var/lib/postgresql/data
  volumes:
  - name: data
    persistentVolumeClaim:
      claimName: data
"#;
    let mut c = Cluster::from_text("pvc.yaml", text).unwrap();
    c.run(Some(30_000));
    assert_eq!(row(&mut c, "db").1, "ContainerCreating");
    let evs = events(&mut c, "db");
    let ev = evs
        .iter()
        .find(|e| e.0 == "FailedMount")
        .expect("FailedMount");
    assert!(
        ev.2.starts_with("Unable to attach or mount volumes: unmounted volumes=[data"),
        "{}",
        ev.2
    );
    assert!(
        ev.2.ends_with(
            "unattached volumes=[], failed to process volumes=[data]: error processing PVC default/data: PVC is not bound"
        ),
        "{}",
        ev.2
    );
    assert!(pod_steps(&c, "db")
        .iter()
        .all(|r| r["action"] != "runtime.sandbox"));
}
