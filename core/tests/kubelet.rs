//! The kubelets end to end: the default scenario runs to Ready, bad images back off, crashing
//! containers loop, deleted pods terminate gracefully and are replaced, and runs repeat exactly.

use kubeplay_core::api::value::Value;
use kubeplay_core::api::{meta, resources::for_kind, Object};
use kubeplay_core::apiserver::{Request, Verb};
use kubeplay_core::cluster::{admin_credentials, Cluster};

const NGINX: &str = include_str!("../../public/scenarios/default.yaml");

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

/// `kubectl get pods` rows as (name, ready, status, restarts).
fn pod_rows(c: &mut Cluster) -> Vec<(String, String, String, String)> {
    kubectl(c, &["get", "pods"])
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].into(), f[1].into(), f[2].into(), f[3].into())
        })
        .collect()
}

fn one_pod(containers: &str) -> String {
    format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n{containers}")
}

fn ip_in_cidr(ip: &str, cidr: &str) -> bool {
    let net = cidr.split('/').next().unwrap();
    let prefix: Vec<&str> = net.split('.').take(3).collect();
    let parts: Vec<&str> = ip.split('.').collect();
    parts.len() == 4 && parts[..3] == prefix[..] && parts[3].parse::<u8>().unwrap() >= 2
}

#[test]
fn the_default_scenario_ends_with_three_ready_pods() {
    let mut c = Cluster::from_text("default.yaml", NGINX).unwrap();
    c.run(None);
    let nodes: Vec<Object> = {
        let info = for_kind("v1", "Node").unwrap();
        let req = Request::new(Verb::List, info, admin_credentials(), "test");
        c.request(&req).unwrap()["items"]
            .as_array()
            .unwrap()
            .clone()
    };
    let pods = list(&mut c, "v1", "Pod");
    assert_eq!(pods.len(), 3);
    let mut ips = Vec::new();
    for p in &pods {
        let st = &p["status"];
        assert_eq!(st["phase"], "Running");
        let node = p["spec"]["nodeName"].as_str().unwrap();
        let n = nodes.iter().find(|n| meta::name(n) == node).unwrap();
        let ip = st["podIP"].as_str().unwrap();
        assert!(
            ip_in_cidr(ip, n["spec"]["podCIDR"].as_str().unwrap()),
            "{ip} on {node}"
        );
        assert_eq!(st["podIPs"][0]["ip"], ip);
        assert_eq!(st["hostIP"], n["status"]["addresses"][0]["address"]);
        assert_eq!(st["qosClass"], "Burstable");
        let types: Vec<&str> = st["conditions"]
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
        assert!(st["conditions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["status"] == "True"));
        let cs = &st["containerStatuses"][0];
        assert_eq!(cs["ready"], true);
        assert_eq!(cs["started"], true);
        assert_eq!(cs["restartCount"], 0);
        assert_eq!(cs["image"], "docker.io/library/nginx:1.27");
        let id = cs["containerID"].as_str().unwrap();
        let hex = id.strip_prefix("containerd://").unwrap();
        assert_eq!(hex.len(), 64);
        assert!(hex.chars().all(|ch| ch.is_ascii_hexdigit()));
        assert!(cs["state"]["running"]["startedAt"].is_string());
        ips.push(ip.to_string());
    }
    ips.sort();
    ips.dedup();
    assert_eq!(ips.len(), 3, "{ips:?}");
    for (_, ready, status, restarts) in pod_rows(&mut c) {
        assert_eq!(
            (ready.as_str(), status.as_str(), restarts.as_str()),
            ("1/1", "Running", "0")
        );
    }
    let out = kubectl(&mut c, &["get", "deployment", "nginx"]);
    let row: Vec<&str> = out.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(&row[..4], ["nginx", "3/3", "3", "3"], "{out}");
    // One pod's events, in time order.
    let pod = meta::name(&pods[0]).to_string();
    let mut events: Vec<Object> = list(&mut c, "v1", "Event")
        .into_iter()
        .filter(|e| e["involvedObject"]["name"] == pod.as_str())
        .collect();
    events.sort_by_key(|e| {
        u128::from_str_radix(
            e["metadata"]["name"]
                .as_str()
                .unwrap()
                .rsplit('.')
                .next()
                .unwrap(),
            16,
        )
        .unwrap()
    });
    let reasons: Vec<&str> = events
        .iter()
        .map(|e| e["reason"].as_str().unwrap())
        .collect();
    assert_eq!(
        reasons,
        ["Scheduled", "Pulling", "Pulled", "Created", "Started"]
    );
    assert_eq!(events[1]["message"], "Pulling image \"nginx:1.27\"");
    let pulled = events[2]["message"].as_str().unwrap();
    assert!(
        pulled.starts_with("Successfully pulled image \"nginx:1.27\" in ")
            && pulled.ends_with(" bytes."),
        "{pulled}"
    );
    assert!(pulled.contains("Image size: "), "{pulled}");
    assert_eq!(events[3]["message"], "Container created");
    assert_eq!(events[4]["message"], "Container started");
    for e in &events[1..] {
        assert_eq!(e["source"]["component"], "kubelet");
        assert_eq!(e["source"]["host"], pods[0]["spec"]["nodeName"]);
        assert_eq!(e["involvedObject"]["fieldPath"], "spec.containers{nginx}");
    }
    // Every record of a kubelet names its node; the runtime and CNI have their lanes.
    let records: Vec<Value> = c
        .trace
        .to_json_lines()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for lane in ["container-runtime", "cni"] {
        assert!(records.iter().any(|r| r["component"] == lane), "{lane}");
    }
    for r in &records {
        if matches!(r["component"].as_str(), Some("container-runtime" | "cni"))
            || (r["component"] == "kubelet" && r["action"] != "request")
        {
            assert!(r["node"].is_string(), "{r}");
        }
    }
    let sandbox = records
        .iter()
        .filter(|r| r["action"] == "runtime.sandbox")
        .count();
    assert_eq!(sandbox, 3);
    assert_eq!(
        records
            .iter()
            .filter(|r| r["action"] == "runtime.pull"
                && r["summary"].as_str().unwrap().contains("pause:3.10"))
            .count(),
        3,
        "the pause image is pulled once per node"
    );
}

#[test]
fn a_missing_image_alternates_err_image_pull_and_back_off() {
    for image in ["nginx:does-not-exist", "example.com/nope:1"] {
        let text = one_pod(&format!("  - name: c\n    image: {image}\n"));
        let mut c = Cluster::from_text("bad.yaml", &text).unwrap();
        c.run(Some(2_000));
        let rows = pod_rows(&mut c);
        assert_eq!(rows[0].2, "ErrImagePull", "{image}: {rows:?}");
        c.run(Some(5_000));
        assert_eq!(pod_rows(&mut c)[0].2, "ImagePullBackOff");
        c.run(Some(60_000));
        let reasons: Vec<(String, String)> = list(&mut c, "v1", "Event")
            .iter()
            .filter(|e| e["source"]["component"] == "kubelet")
            .map(|e| {
                (
                    e["reason"].as_str().unwrap().to_string(),
                    e["message"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        assert!(reasons
            .iter()
            .any(|(r, m)| r == "Failed" && m == "Error: ErrImagePull"));
        assert!(reasons
            .iter()
            .any(|(r, m)| r == "Failed" && m == "Error: ImagePullBackOff"));
        assert!(reasons
            .iter()
            .any(|(r, m)| r == "Failed"
                && m.starts_with(&format!("Failed to pull image \"{image}\": "))));
        assert!(reasons
            .iter()
            .any(|(r, m)| r == "BackOff" && m == &format!("Back-off pulling image \"{image}\"")));
        // Retries at 10 s, 20 s: more than one pull within the minute, but not one a second.
        // The same event again is one Event whose count rises (the event correlator).
        let pulling: Vec<Object> = list(&mut c, "v1", "Event")
            .into_iter()
            .filter(|e| e["reason"] == "Pulling")
            .collect();
        assert_eq!(pulling.len(), 1);
        let pulls = pulling[0]["count"].as_u64().unwrap();
        assert!((3..=5).contains(&pulls), "{pulls} pulls");
        let pod = &list(&mut c, "v1", "Pod")[0];
        assert_eq!(pod["status"]["phase"], "Pending");
        let waiting = &pod["status"]["containerStatuses"][0]["state"]["waiting"];
        assert!(
            matches!(
                waiting["reason"].as_str(),
                Some("ErrImagePull" | "ImagePullBackOff")
            ),
            "{waiting}"
        );
    }
}

#[test]
fn a_crashing_container_loops_with_rising_restarts() {
    let text = one_pod(
        "  - name: c\n    image: busybox:1.36\n    command: [\"sh\", \"-c\", \"exit 1\"]\n",
    );
    let mut c = Cluster::from_text("crash.yaml", &text).unwrap();
    let mut seen = Vec::new();
    for t in [2_000, 5_000, 15_000, 40_000, 120_000] {
        c.run(Some(t));
        let row = pod_rows(&mut c).remove(0);
        let restarts: u32 = row.3.split_whitespace().next().unwrap().parse().unwrap();
        seen.push((row.2.clone(), restarts));
    }
    assert!(
        seen.iter().any(|(s, _)| s == "CrashLoopBackOff"),
        "{seen:?}"
    );
    assert!(seen.iter().any(|(s, _)| s == "Error"), "{seen:?}");
    let counts: Vec<u32> = seen.iter().map(|s| s.1).collect();
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    assert!(counts.last().unwrap() >= &3, "{seen:?}");
    let pod = &list(&mut c, "v1", "Pod")[0];
    assert_eq!(pod["status"]["phase"], "Running");
    let cs = &pod["status"]["containerStatuses"][0];
    assert_eq!(cs["lastState"]["terminated"]["exitCode"], 1);
    assert_eq!(cs["lastState"]["terminated"]["reason"], "Error");
    let uid = meta::uid(pod).to_string();
    let backoff = format!("Back-off restarting failed container c in pod p_default({uid})");
    let events = list(&mut c, "v1", "Event");
    assert!(events.iter().any(|e| e["reason"] == "BackOff"
        && e["type"] == "Warning"
        && e["message"] == backoff.as_str()));
}

#[test]
fn init_containers_run_first_and_readiness_waits_for_the_probe() {
    let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  initContainers:\n  - name: wait\n    image: busybox:1.36\n    command: [\"sh\", \"-c\", \"sleep 3\"]\n  containers:\n  - name: web\n    image: nginx:1.27\n    readinessProbe:\n      httpGet: {path: /, port: 80}\n      initialDelaySeconds: 5\n";
    let mut c = Cluster::from_text("init.yaml", text).unwrap();
    c.run(Some(2_000));
    assert_eq!(pod_rows(&mut c)[0].2, "Init:0/1");
    c.run(Some(5_000));
    assert_eq!(pod_rows(&mut c)[0].2, "PodInitializing");
    c.run(Some(12_000));
    let row = pod_rows(&mut c).remove(0);
    assert_eq!((row.1.as_str(), row.2.as_str()), ("0/1", "Running"));
    c.run(None);
    let row = pod_rows(&mut c).remove(0);
    assert_eq!((row.1.as_str(), row.2.as_str()), ("1/1", "Running"));
    let pod = &list(&mut c, "v1", "Pod")[0];
    let init = &pod["status"]["initContainerStatuses"][0];
    assert_eq!(init["state"]["terminated"]["reason"], "Completed");
    assert_eq!(init["ready"], true);
}

#[test]
fn a_deleted_pod_terminates_and_is_replaced() {
    let mut c = Cluster::from_text("default.yaml", NGINX).unwrap();
    c.run(None);
    let victim = pod_rows(&mut c)[0].0.clone();
    let victim_ip = list(&mut c, "v1", "Pod")
        .iter()
        .find(|p| meta::name(p) == victim)
        .unwrap()["status"]["podIP"]
        .as_str()
        .unwrap()
        .to_string();
    let out = kubectl(&mut c, &["delete", "pod", &victim]);
    assert!(out.contains("deleted"), "{out}");
    let now = c.now();
    c.run(Some(now + 100));
    let rows = pod_rows(&mut c);
    let row = rows.iter().find(|r| r.0 == victim).expect("still there");
    assert_eq!(row.2, "Terminating");
    c.run(None);
    let rows = pod_rows(&mut c);
    assert!(rows.iter().all(|r| r.0 != victim), "{rows:?}");
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(
        rows.iter().all(|r| r.1 == "1/1" && r.2 == "Running"),
        "{rows:?}"
    );
    let events = list(&mut c, "v1", "Event");
    assert!(events.iter().any(|e| e["reason"] == "Killing"
        && e["message"] == "Stopping container nginx"
        && e["involvedObject"]["name"] == victim.as_str()));
    let text = c.trace.to_text();
    for step in [
        "runtime.stop ",
        "runtime.stop_sandbox",
        "cni.del",
        "runtime.remove_sandbox",
    ] {
        assert!(text.contains(step), "{step}");
    }
    assert!(text.contains(&format!("IP {victim_ip} released")));
    // The final delete is the kubelet's, with a grace period of 0.
    assert!(text.lines().any(|l| l.contains("kubelet")
        && l.contains(&format!("DELETE /api/v1/namespaces/default/pods/{victim}"))));
}

#[test]
fn two_runs_give_the_same_trace() {
    let run = || {
        let mut c = Cluster::from_text("default.yaml", NGINX).unwrap();
        c.run(None);
        c.trace.to_json_lines()
    };
    let a = run();
    assert!(a.contains("\"component\":\"container-runtime\""));
    assert_eq!(a, run());
}
