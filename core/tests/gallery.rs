//! The scenario gallery (`public/scenarios/`): every file has its title and description header,
//! is listed in `index.json`, parses, and is applied cleanly; and each scenario's teaching point
//! actually happens when it runs.

use kubeplay_core::api::value::Value;
use kubeplay_core::cluster::{Cluster, CommandOutput};
use kubeplay_core::kernel::Millis;
use std::collections::{BTreeMap, BTreeSet};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../public/scenarios");

fn text(id: &str) -> String {
    std::fs::read_to_string(format!("{DIR}/{id}.yaml"))
        .unwrap_or_else(|e| panic!("read {id}.yaml: {e}"))
}

/// The gallery file `id`, ready to run; its apply at time 0 must succeed.
fn cluster(id: &str) -> Cluster {
    Cluster::from_text(&format!("{id}.yaml"), &text(id))
        .unwrap_or_else(|e| panic!("{id}.yaml: {e}"))
}

fn run(id: &str, until: Option<Millis>) -> Cluster {
    let mut c = cluster(id);
    c.run(until);
    assert_applied(&c);
    c
}

fn assert_applied(c: &Cluster) {
    let apply = c
        .outputs
        .iter()
        .find(|o| o.command.starts_with("kubectl apply -f "))
        .expect("the scenario's objects are applied at time 0");
    assert_eq!(apply.exit_code, 0, "{apply:?}");
    assert_eq!(apply.stderr, "", "{apply:?}");
}

fn kubectl_out(c: &mut Cluster, command: &str) -> CommandOutput {
    let args: Vec<String> = command.split_whitespace().map(str::to_string).collect();
    kubeplay_core::kubectl::run(c, &args)
}

fn kubectl(c: &mut Cluster, command: &str) -> String {
    let out = kubectl_out(c, command);
    assert_eq!(out.exit_code, 0, "kubectl {command}: {}", out.stderr);
    out.stdout
}

fn json(c: &mut Cluster, command: &str) -> Value {
    let out = kubectl(c, &format!("{command} -o json"));
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("kubectl {command}: {e}\n{out}"))
}

fn items(c: &mut Cluster, command: &str) -> Vec<Value> {
    json(c, command)["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn pods(c: &mut Cluster) -> Vec<Value> {
    items(c, "get pods")
}

fn pod(c: &mut Cluster, name: &str) -> Value {
    json(c, &format!("get pod {name}"))
}

fn name(o: &Value) -> &str {
    o["metadata"]["name"].as_str().unwrap_or("")
}

fn node_of(p: &Value) -> &str {
    p["spec"]["nodeName"].as_str().unwrap_or("")
}

fn phase(p: &Value) -> &str {
    p["status"]["phase"].as_str().unwrap_or("")
}

fn terminating(p: &Value) -> bool {
    p["metadata"]["deletionTimestamp"].is_string()
}

fn condition<'a>(o: &'a Value, ty: &str) -> &'a Value {
    o["status"]["conditions"]
        .as_array()
        .and_then(|cs| cs.iter().find(|c| c["type"] == ty))
        .unwrap_or(&Value::Null)
}

fn ready(p: &Value) -> bool {
    condition(p, "Ready")["status"] == "True"
}

fn running(pods: &[Value]) -> Vec<&Value> {
    pods.iter()
        .filter(|p| phase(p) == "Running" && ready(p) && !terminating(p))
        .collect()
}

/// The STATUS column of `kubectl get pods` for one pod.
fn status_column(c: &mut Cluster, pod: &str) -> String {
    kubectl(c, "get pods")
        .lines()
        .find(|l| l.split_whitespace().next() == Some(pod))
        .and_then(|l| l.split_whitespace().nth(2))
        .unwrap_or("")
        .to_string()
}

/// Events as (reason, involved kind/name, message), oldest first.
fn events(c: &mut Cluster) -> Vec<(String, String, String)> {
    let mut evs = items(c, "get events");
    evs.sort_by(|a, b| {
        a["firstTimestamp"]
            .as_str()
            .cmp(&b["firstTimestamp"].as_str())
    });
    evs.iter()
        .map(|e| {
            (
                e["reason"].as_str().unwrap_or("").to_string(),
                format!(
                    "{}/{}",
                    e["involvedObject"]["kind"].as_str().unwrap_or(""),
                    e["involvedObject"]["name"].as_str().unwrap_or("")
                ),
                e["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn messages(c: &mut Cluster, reason: &str, object: &str) -> Vec<String> {
    events(c)
        .into_iter()
        .filter(|(r, o, _)| r == reason && o == object)
        .map(|(_, _, m)| m)
        .collect()
}

/// The output of the scenario's kubectl step that starts with `command`.
fn step<'a>(c: &'a Cluster, command: &str) -> &'a CommandOutput {
    c.outputs
        .iter()
        .find(|o| o.command.starts_with(&format!("kubectl {command}")))
        .unwrap_or_else(|| panic!("no step `kubectl {command}` in {:?}", c.outputs))
}

fn container_image(p: &Value) -> &str {
    p["spec"]["containers"][0]["image"].as_str().unwrap_or("")
}

// --- the gallery as a whole ---

/// The gallery's ids: the `.yaml` files of `public/scenarios/`.
fn gallery_ids() -> BTreeSet<String> {
    std::fs::read_dir(DIR)
        .expect("public/scenarios/ exists")
        .map(|e| {
            e.expect("dir entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter_map(|f| f.strip_suffix(".yaml").map(str::to_string))
        .collect()
}

/// `(title, description)` from the header: `# The <id> scenario: <title>` then at least one
/// more comment line before the first document line.
fn header(id: &str, text: &str) -> (String, String) {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    let prefix = format!("# The {id} scenario: ");
    let title = first.strip_prefix(&prefix).unwrap_or_else(|| {
        panic!("{id}.yaml: the first line must be `{prefix}<title>`, not {first:?}")
    });
    assert!(!title.trim().is_empty(), "{id}.yaml: empty title");
    let description: Vec<&str> = lines
        .take_while(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim())
        .collect();
    let description = description.join(" ");
    assert!(
        description.split_whitespace().count() >= 12,
        "{id}.yaml: the title line must be followed by a paragraph saying what it teaches"
    );
    (title.to_string(), description)
}

#[test]
fn every_gallery_file_has_a_header_is_indexed_parses_and_has_a_test() {
    let ids = gallery_ids();
    assert!(ids.contains("default"), "{ids:?}");
    let index: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{DIR}/index.json")).expect("index.json exists"),
    )
    .expect("index.json is JSON");
    let entries = index["scenarios"]
        .as_array()
        .expect("index.json: {\"scenarios\": [...]}");
    assert_eq!(
        entries[0]["id"], "default",
        "the gallery starts with default"
    );
    let mut listed = BTreeMap::new();
    for e in entries {
        let id = e["id"].as_str().expect("id").to_string();
        assert_eq!(e["file"], format!("{id}.yaml"), "{e}");
        let summary = e["summary"].as_str().expect("summary");
        assert!(
            !summary.trim().is_empty() && !summary.contains('\n'),
            "{id}: one-line summary: {summary:?}"
        );
        assert!(
            listed.insert(id.clone(), e.clone()).is_none(),
            "{id} listed twice"
        );
    }
    assert_eq!(
        listed.keys().cloned().collect::<BTreeSet<_>>(),
        ids,
        "index.json lists exactly the files of public/scenarios/"
    );
    let this_file = include_str!("gallery.rs");
    for id in &ids {
        let text = text(id);
        let (title, _) = header(id, &text);
        assert_eq!(
            listed[id]["title"], title,
            "{id}: index title = header title"
        );
        let s = kubeplay_core::scenario::parse(&format!("{id}.yaml"), &text)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(!s.objects.is_empty(), "{id}.yaml applies no objects");
        // Everything in it is accepted by kube-apiserver at time 0.
        let mut c = cluster(id);
        c.run(Some(0));
        assert_applied(&c);
        let test = format!("fn {}(", id.replace('-', "_"));
        assert!(
            this_file.contains(&test),
            "{id}.yaml needs its own test `{test})` in core/tests/gallery.rs"
        );
    }
}

// --- one test per scenario ---

#[test]
fn default() {
    let mut c = run("default", None);
    let ps = pods(&mut c);
    assert_eq!(running(&ps).len(), 3, "{ps:?}");
    let nodes: BTreeSet<&str> = ps.iter().map(node_of).collect();
    assert_eq!(nodes.len(), 3, "spread over the three nodes: {nodes:?}");
    let d = json(&mut c, "get deployment nginx");
    assert_eq!(d["status"]["readyReplicas"], 3);
    let scaled = messages(&mut c, "ScalingReplicaSet", "Deployment/nginx");
    assert_eq!(scaled.len(), 1, "{scaled:?}");
    assert!(
        scaled[0].starts_with("Scaled up replica set nginx-")
            && scaled[0].ends_with(" from 0 to 3")
    );
    for p in &ps {
        let scheduled = messages(&mut c, "Scheduled", &format!("Pod/{}", name(p)));
        assert_eq!(
            scheduled,
            vec![format!(
                "Successfully assigned default/{} to {}",
                name(p),
                node_of(p)
            )]
        );
    }
}

#[test]
fn pending_cpu() {
    let mut c = run("pending-cpu", None);
    let ps = pods(&mut c);
    assert_eq!(ps.len(), 4);
    let up = running(&ps);
    assert_eq!(up.len(), 3, "{ps:?}");
    let nodes: BTreeSet<&str> = up.iter().map(|p| node_of(p)).collect();
    assert_eq!(nodes.len(), 3, "one 3-CPU replica per 4-CPU node");
    let pending: Vec<&Value> = ps.iter().filter(|p| phase(p) == "Pending").collect();
    assert_eq!(pending.len(), 1, "{ps:?}");
    let p = pending[0];
    assert_eq!(node_of(p), "");
    let scheduled = condition(p, "PodScheduled");
    assert_eq!(scheduled["status"], "False");
    assert_eq!(scheduled["reason"], "Unschedulable");
    assert_eq!(
        scheduled["message"],
        "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
    );
    let failed = messages(&mut c, "FailedScheduling", &format!("Pod/{}", name(p)));
    assert!(!failed.is_empty());
    assert!(
        failed.iter().all(|m| m.contains("3 Insufficient cpu")),
        "{failed:?}"
    );
    assert_eq!(status_column(&mut c, name(p)), "Pending");
}

#[test]
fn taints_tolerations() {
    let mut c = run("taints-tolerations", None);
    let n = json(&mut c, "get node node-1");
    assert_eq!(
        n["spec"]["taints"],
        kubeplay_core::json!([{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}])
    );
    let ps = pods(&mut c);
    let web: Vec<&Value> = ps.iter().filter(|p| name(p).starts_with("web-")).collect();
    assert_eq!(web.len(), 4);
    assert!(web.iter().all(|p| ready(p)), "{web:?}");
    let web_nodes: BTreeSet<&str> = web.iter().map(|p| node_of(p)).collect();
    assert_eq!(
        web_nodes,
        BTreeSet::from(["node-2", "node-3"]),
        "no web pod on the tainted node"
    );
    let trainer = pod(&mut c, "trainer");
    assert_eq!(node_of(&trainer), "node-1");
    assert!(ready(&trainer));
    let intruder = pod(&mut c, "intruder");
    assert_eq!(phase(&intruder), "Pending");
    assert_eq!(node_of(&intruder), "");
    let failed = messages(&mut c, "FailedScheduling", "Pod/intruder");
    assert!(!failed.is_empty());
    let m = &failed[0];
    assert!(
        m.starts_with("0/3 nodes are available: ")
            && m.contains("1 node(s) had untolerated taint")
            && m.contains("2 node(s) didn't match Pod's node affinity/selector")
            && m.contains("Preemption is not helpful for scheduling"),
        "{m}"
    );
}

#[test]
fn node_affinity() {
    let mut c = run("node-affinity", None);
    let ps = pods(&mut c);
    let web: Vec<&Value> = ps.iter().filter(|p| name(p).starts_with("web-")).collect();
    assert_eq!(web.len(), 4);
    assert!(web.iter().all(|p| ready(p)), "{web:?}");
    let nodes: BTreeSet<&str> = web.iter().map(|p| node_of(p)).collect();
    assert_eq!(
        nodes,
        BTreeSet::from(["node-1", "node-2"]),
        "zone-a and zone-b only"
    );
    let lost = pod(&mut c, "lost");
    assert_eq!(phase(&lost), "Pending");
    assert_eq!(
        condition(&lost, "PodScheduled")["message"],
        "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
    );
    assert!(!messages(&mut c, "FailedScheduling", "Pod/lost").is_empty());
}

#[test]
fn rolling_update() {
    let mut c = cluster("rolling-update");
    c.run(Some(29_000));
    assert_applied(&c);
    let before = pods(&mut c);
    assert_eq!(running(&before).len(), 3);
    assert!(before.iter().all(|p| container_image(p) == "nginx:1.26"));
    let old: BTreeSet<String> = before.iter().map(|p| name(p).to_string()).collect();

    // Through the rollout: never fewer than 3 Ready pods (maxUnavailable 0) and never more than
    // 4 pods (maxSurge 1).
    let mut t = 30_000;
    while t <= 80_000 {
        c.run(Some(t));
        let ps: Vec<Value> = pods(&mut c)
            .into_iter()
            .filter(|p| !terminating(p))
            .collect();
        assert!(ps.len() <= 4, "at {t} ms: {} pods", ps.len());
        assert!(
            running(&ps).len() >= 3,
            "at {t} ms: fewer than 3 Ready pods"
        );
        t += 500;
    }
    let out = step(&c, "set image deployment/web");
    assert_eq!(out.stdout, "deployment.apps/web image updated\n");

    c.run(None);
    let after = pods(&mut c);
    assert_eq!(after.len(), 3, "{after:?}");
    assert_eq!(running(&after).len(), 3);
    for p in &after {
        assert!(!old.contains(name(p)), "{} is an old pod", name(p));
        assert_eq!(container_image(p), "nginx:1.27");
        assert_eq!(
            p["status"]["containerStatuses"][0]["image"],
            "docker.io/library/nginx:1.27"
        );
    }
    let rss = items(&mut c, "get replicasets");
    assert_eq!(rss.len(), 2);
    let by_revision: BTreeMap<String, (i64, String)> = rss
        .iter()
        .map(|rs| {
            (
                rs["metadata"]["annotations"]["deployment.kubernetes.io/revision"]
                    .as_str()
                    .unwrap_or("")
                    .to_string(),
                (
                    rs["spec"]["replicas"].as_i64().unwrap_or(-1),
                    rs["spec"]["template"]["spec"]["containers"][0]["image"]
                        .as_str()
                        .unwrap_or("")
                        .to_string(),
                ),
            )
        })
        .collect();
    assert_eq!(by_revision["1"], (0, "nginx:1.26".to_string()));
    assert_eq!(by_revision["2"], (3, "nginx:1.27".to_string()));
    let scaled = messages(&mut c, "ScalingReplicaSet", "Deployment/web");
    let steps: Vec<String> = scaled
        .iter()
        .map(|m| m.rsplit(" replica set ").next().unwrap_or("").to_string())
        .map(|m| m.split_once(' ').map(|x| x.1.to_string()).unwrap_or(m))
        .collect();
    assert_eq!(
        steps,
        [
            "from 0 to 3",
            "from 0 to 1",
            "from 3 to 2",
            "from 1 to 2",
            "from 2 to 1",
            "from 2 to 3",
            "from 1 to 0"
        ],
        "{scaled:?}"
    );
    let history = step(&c, "rollout history deployment/web");
    assert_eq!(history.exit_code, 0, "{history:?}");
    let revisions: Vec<&str> = history
        .stdout
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.parse::<u32>().is_ok())
        .collect();
    assert_eq!(revisions, ["1", "2"], "{}", history.stdout);
}

#[test]
fn scale_down() {
    let mut c = cluster("scale-down");
    c.run(Some(29_000));
    assert_applied(&c);
    let before = pods(&mut c);
    assert_eq!(running(&before).len(), 5);
    let placed: BTreeMap<String, String> = before
        .iter()
        .map(|p| (name(p).to_string(), node_of(p).to_string()))
        .collect();
    c.run(None);
    assert_eq!(
        step(&c, "scale deployment web").stdout,
        "deployment.apps/web scaled\n"
    );
    let after = pods(&mut c);
    assert_eq!(after.len(), 2, "{after:?}");
    assert_eq!(running(&after).len(), 2);
    for p in &after {
        assert_eq!(
            placed.get(name(p)).map(String::as_str),
            Some(node_of(p)),
            "a survivor from before, where it was"
        );
    }
    let nodes: BTreeSet<&str> = after.iter().map(node_of).collect();
    assert_eq!(
        nodes.len(),
        2,
        "pods on the more crowded nodes go first: {nodes:?}"
    );
    let d = json(&mut c, "get deployment web");
    assert_eq!(d["spec"]["replicas"], 2);
    assert_eq!(d["status"]["readyReplicas"], 2);
    let scaled = messages(&mut c, "ScalingReplicaSet", "Deployment/web");
    assert!(
        scaled.last().unwrap().ends_with(" from 5 to 2"),
        "{scaled:?}"
    );
    let rs = format!(
        "ReplicaSet/{}",
        items(&mut c, "get replicasets")[0]["metadata"]["name"]
            .as_str()
            .unwrap()
    );
    let deleted = messages(&mut c, "SuccessfulDelete", &rs);
    assert_eq!(deleted.len(), 3, "{deleted:?}");
    for m in &deleted {
        let gone = m.strip_prefix("Deleted pod: ").expect(m);
        assert!(placed.contains_key(gone) && !after.iter().any(|p| name(p) == gone));
        assert_eq!(
            messages(&mut c, "Killing", &format!("Pod/{gone}")),
            ["Stopping container nginx"]
        );
    }
}

#[test]
fn init_configmap() {
    let mut c = cluster("init-configmap");
    c.run(Some(3_000));
    assert_applied(&c);
    assert_eq!(status_column(&mut c, "web"), "Init:0/1");
    let p = pod(&mut c, "web");
    assert_eq!(
        p["status"]["containerStatuses"][0]["state"]["waiting"]["reason"],
        "PodInitializing"
    );
    c.run(None);
    let p = pod(&mut c, "web");
    assert!(ready(&p), "{p}");
    assert_eq!(status_column(&mut c, "web"), "Running");
    let init = &p["status"]["initContainerStatuses"][0];
    assert_eq!(init["name"], "wait");
    assert_eq!(init["state"]["terminated"]["reason"], "Completed");
    assert_eq!(init["state"]["terminated"]["exitCode"], 0);
    let finished = init["state"]["terminated"]["finishedAt"].as_str().unwrap();
    let started = p["status"]["containerStatuses"][0]["state"]["running"]["startedAt"]
        .as_str()
        .unwrap();
    assert!(finished <= started, "init {finished} before app {started}");
    assert!(
        condition(&p, "Initialized")["lastTransitionTime"]
            .as_str()
            .unwrap()
            <= started
    );
    assert_eq!(
        kubectl(&mut c, "logs web -c wait"),
        "waiting for the database\n"
    );
    // The init container ran its `sleep 5`; nginx started only after it exited.
    let at = |action: &str, text: &str| {
        c.trace
            .records
            .iter()
            .find(|r| r.action == action && r.summary.contains(text))
            .unwrap_or_else(|| panic!("no {action} {text:?}"))
            .t_ms
    };
    let (init_start, init_exit) = (
        at("runtime.start", "StartContainer wait "),
        at("runtime.exit", "container wait exited with code 0"),
    );
    assert_eq!(init_exit - init_start, 5_000);
    assert!(at("runtime.start", "StartContainer nginx ") > init_exit);
    // The ConfigMap became the volume, before any container started.
    let mounts: Vec<(Millis, String)> = c
        .trace
        .records
        .iter()
        .filter(|r| r.action == "volume.mount")
        .map(|r| (r.t_ms, r.summary.clone()))
        .collect();
    let config = mounts
        .iter()
        .find(|(_, s)| s.contains("volume \"config\"") && s.contains("configMap web-config"))
        .unwrap_or_else(|| panic!("{mounts:?}"));
    let first_start = c
        .trace
        .records
        .iter()
        .find(|r| r.action == "runtime.start")
        .expect("a container started")
        .t_ms;
    assert!(config.0 < first_start);
    let cm = json(&mut c, "get configmap web-config");
    assert_eq!(cm["data"]["mode"], "demo");
}

#[test]
fn bad_image() {
    let mut c = cluster("bad-image");
    let mut seen = BTreeSet::new();
    let mut t = 0;
    while t <= 120_000 {
        c.run(Some(t));
        seen.insert(status_column(&mut c, "web"));
        t += 1_000;
    }
    assert_applied(&c);
    assert!(seen.contains("ErrImagePull"), "{seen:?}");
    assert!(seen.contains("ImagePullBackOff"), "{seen:?}");
    assert!(!seen.contains("Running"), "{seen:?}");
    let p = pod(&mut c, "web");
    assert_eq!(node_of(&p), "node-1");
    assert!(!ready(&p));
    let st = &p["status"]["containerStatuses"][0];
    assert_eq!(st["restartCount"], 0);
    let waiting = st["state"]["waiting"]["reason"].as_str().unwrap();
    assert!(
        ["ErrImagePull", "ImagePullBackOff"].contains(&waiting),
        "{st}"
    );
    let failed = messages(&mut c, "Failed", "Pod/web");
    assert!(
        failed
            .iter()
            .any(|m| m.starts_with(
                "Failed to pull image \"nginx:does-not-exist\": rpc error: code = NotFound"
            ) && m.ends_with("docker.io/library/nginx:does-not-exist: not found")),
        "{failed:?}"
    );
    assert!(
        failed.iter().any(|m| m == "Error: ErrImagePull"),
        "{failed:?}"
    );
    assert!(
        failed.iter().any(|m| m == "Error: ImagePullBackOff"),
        "{failed:?}"
    );
    assert!(messages(&mut c, "BackOff", "Pod/web")
        .iter()
        .any(|m| m == "Back-off pulling image \"nginx:does-not-exist\""));
}

/// The fix the description suggests: `kubectl set image` on the pod. The kubelet should see the
/// changed container spec, pull nginx:1.27 and start it.
#[test]
fn bad_image_is_fixed_by_set_image() {
    let fix = "---\napiVersion: kubeplay/v1alpha1\nkind: Scenario\nsteps:\n- at: 60s\n  kubectl: set image pod/web nginx=nginx:1.27\n";
    let mut c = Cluster::from_text("bad-image.yaml", &(text("bad-image") + fix)).unwrap();
    c.run(Some(120_000));
    let p = pod(&mut c, "web");
    assert_eq!(container_image(&p), "nginx:1.27");
    assert!(ready(&p), "{}", p["status"]);
    assert_eq!(
        p["status"]["containerStatuses"][0]["image"],
        "docker.io/library/nginx:1.27"
    );
    assert!(messages(&mut c, "Pulled", "Pod/web")
        .iter()
        .any(|m| m.contains("\"nginx:1.27\"")));
}

#[test]
fn crash_loop() {
    let mut c = cluster("crash-loop");
    let mut seen = BTreeSet::new();
    let mut t = 0;
    while t <= 180_000 {
        c.run(Some(t));
        seen.insert(status_column(&mut c, "crasher"));
        t += 1_000;
    }
    assert_applied(&c);
    assert!(seen.contains("CrashLoopBackOff"), "{seen:?}");
    assert!(seen.contains("Error"), "{seen:?}");
    let p = pod(&mut c, "crasher");
    assert!(!ready(&p));
    let st = &p["status"]["containerStatuses"][0];
    let restarts = st["restartCount"].as_i64().unwrap();
    assert!(
        (3..=6).contains(&restarts),
        "10s, 20s, 40s, 80s back-off: {restarts}"
    );
    assert_eq!(st["lastState"]["terminated"]["exitCode"], 1);
    assert_eq!(st["lastState"]["terminated"]["reason"], "Error");
    let backoff = messages(&mut c, "BackOff", "Pod/crasher");
    let uid = p["metadata"]["uid"].as_str().unwrap();
    assert_eq!(
        backoff,
        [format!(
            "Back-off restarting failed container app in pod crasher_default({uid})"
        )]
    );
}

#[test]
fn service_endpoints() {
    let mut c = run("service-endpoints", None);
    let svc = json(&mut c, "get service web");
    let ip = svc["spec"]["clusterIP"].as_str().unwrap();
    assert!(ip.starts_with("10.96."), "{ip}");
    let ps = pods(&mut c);
    assert_eq!(running(&ps).len(), 4);
    let web_ips: BTreeSet<String> = ps
        .iter()
        .filter(|p| p["metadata"]["labels"]["app"] == "web")
        .map(|p| p["status"]["podIP"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(web_ips.len(), 3);
    let other_ip = pod(&mut c, "other")["status"]["podIP"]
        .as_str()
        .unwrap()
        .to_string();
    let slices: Vec<Value> = items(
        &mut c,
        "get endpointslices -l kubernetes.io/service-name=web",
    );
    assert_eq!(slices.len(), 1, "{slices:?}");
    let s = &slices[0];
    assert!(name(s).starts_with("web-"));
    assert_eq!(s["addressType"], "IPv4");
    assert_eq!(s["metadata"]["ownerReferences"][0]["kind"], "Service");
    assert_eq!(s["metadata"]["ownerReferences"][0]["name"], "web");
    assert_eq!(
        s["ports"],
        kubeplay_core::json!([{"name": "http", "port": 80, "protocol": "TCP"}])
    );
    let eps = s["endpoints"].as_array().unwrap();
    let addrs: BTreeSet<String> = eps
        .iter()
        .map(|e| e["addresses"][0].as_str().unwrap().to_string())
        .collect();
    assert_eq!(addrs, web_ips);
    assert!(!addrs.contains(&other_ip));
    assert!(eps.iter().all(|e| e["conditions"]["ready"] == true
        && e["targetRef"]["kind"] == "Pod"
        && e["nodeName"].is_string()));
    let table = kubectl(&mut c, "get endpointslices");
    let row = table.lines().find(|l| l.starts_with("web-")).unwrap();
    for a in &web_ips {
        assert!(row.contains(a.as_str()), "{row}");
    }
    // The legacy Endpoints object says the same.
    let ep = json(&mut c, "get endpoints web");
    let legacy: BTreeSet<String> = ep["subsets"][0]["addresses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["ip"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(legacy, web_ips);
}

/// kube-apiserver 1.33+ answers requests for v1 Endpoints with a deprecation warning, which
/// kubectl prints on stderr.
#[test]
fn service_endpoints_legacy_endpoints_warn() {
    let mut c = run("service-endpoints", None);
    let out = kubectl_out(&mut c, "get endpoints web");
    assert_eq!(out.exit_code, 0);
    assert_eq!(
        out.stderr,
        "Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n"
    );
}

#[test]
fn node_failure() {
    let mut c = cluster("node-failure");
    c.run(Some(29_000));
    assert_applied(&c);
    let before = pods(&mut c);
    assert_eq!(running(&before).len(), 3);
    let victim = before
        .iter()
        .find(|p| node_of(p) == "node-2")
        .map(|p| name(p).to_string())
        .expect("a pod on node-2");

    // Lease not renewed for the grace period, then the next monitor pass: NotReady and tainted.
    c.run(Some(90_000));
    let nodes = step(&c, "get nodes").stdout.clone();
    let row = nodes.lines().find(|l| l.starts_with("node-2 ")).unwrap();
    assert_eq!(row.split_whitespace().nth(1), Some("NotReady"), "{nodes}");
    let n = json(&mut c, "get node node-2");
    let taints: BTreeSet<(String, String)> = n["spec"]["taints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["key"].as_str().unwrap().to_string(),
                t["effect"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        taints,
        BTreeSet::from([
            ("node.kubernetes.io/unreachable".into(), "NoExecute".into()),
            ("node.kubernetes.io/unreachable".into(), "NoSchedule".into()),
        ])
    );
    assert_eq!(condition(&n, "Ready")["status"], "Unknown");
    let p = pod(&mut c, &victim);
    assert!(!terminating(&p), "tolerated for 300 s");
    assert_eq!(condition(&p, "Ready")["status"], "False");

    c.run(None);
    assert!(c.now() >= 400_000);
    let after = pods(&mut c);
    assert_eq!(after.len(), 4, "{after:?}");
    let old = after.iter().find(|p| name(p) == victim).unwrap();
    assert!(
        terminating(old),
        "evicted, stuck Terminating on the dead node"
    );
    let up = running(&after);
    assert_eq!(up.len(), 3);
    assert!(up.iter().all(|p| node_of(p) != "node-2"));
    assert_eq!(
        messages(&mut c, "TaintManagerEviction", &format!("Pod/{victim}")),
        [format!("Marking for deletion Pod default/{victim}")]
    );
    let wide = &step(&c, "get pods -o wide").stdout;
    let row = wide.lines().find(|l| l.starts_with(&victim)).unwrap();
    assert!(
        row.contains("Terminating") && row.contains("node-2"),
        "{wide}"
    );
}

/// The node lifecycle controller's default `--node-monitor-grace-period` is 50 s since
/// Kubernetes 1.32 (kubernetes/kubernetes#126287; it was 40 s): node-2 is still Ready 50 s
/// after its last Lease renewal and NotReady by the monitor pass (every 5 s) after that.
#[test]
fn node_failure_waits_the_50s_node_monitor_grace_period() {
    let mut c = cluster("node-failure");
    c.run(Some(31_000));
    let lease = json(&mut c, "get lease node-2 -n kube-node-lease");
    let renewed = lease["spec"]["renewTime"].as_str().unwrap();
    // `2026-01-01T00:MM:SS.ffffffZ`, the epoch being 2026-01-01T00:00:00Z.
    let clock = renewed
        .strip_prefix("2026-01-01T00:")
        .and_then(|r| r.strip_suffix('Z'))
        .unwrap_or_else(|| panic!("{renewed}"));
    let (m, sec) = clock.split_once(':').unwrap();
    let renewed_ms =
        m.parse::<u64>().unwrap() * 60_000 + (sec.parse::<f64>().unwrap() * 1000.0) as u64;
    let status = |c: &mut Cluster| {
        condition(&json(c, "get node node-2"), "Ready")["status"]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    c.run(Some(renewed_ms + 50_000));
    assert_eq!(
        status(&mut c),
        "True",
        "still Ready 50 s after the last renewal at {renewed}"
    );
    c.run(Some(renewed_ms + 56_000));
    assert_eq!(status(&mut c), "Unknown");
}

/// The node lifecycle controller records a `NodeNotReady` event on the node ("Node node-2
/// status is now: NodeNotReady") and, from MarkPodsNotReady, a Warning `NodeNotReady` event
/// "Node is not ready" on each of its pods.
#[test]
fn node_failure_records_node_not_ready_events() {
    let mut c = cluster("node-failure");
    c.run(Some(90_000));
    assert_eq!(
        messages(&mut c, "NodeNotReady", "Node/node-2"),
        ["Node node-2 status is now: NodeNotReady"]
    );
    let victim = pods(&mut c)
        .into_iter()
        .find(|p| node_of(p) == "node-2")
        .unwrap();
    assert_eq!(
        messages(&mut c, "NodeNotReady", &format!("Pod/{}", name(&victim))),
        ["Node is not ready"]
    );
}

#[test]
fn rbac_denial() {
    let mut c = run("rbac-denial", None);
    let sa = "system:serviceaccount:dev:reader";
    let list = step(&c, "get pods -n dev");
    assert_eq!(list.exit_code, 0, "{list:?}");
    assert!(list.command.contains(&format!("--as={sa}")));
    let create = step(&c, "create deployment web");
    assert_eq!(create.exit_code, 1, "{create:?}");
    assert!(
        create.stderr.contains(&format!(
            "deployments.apps is forbidden: User \"{sa}\" cannot create resource \"deployments\" in API group \"apps\" in the namespace \"dev\""
        )),
        "{}",
        create.stderr
    );
    let can_i = step(&c, "auth can-i create deployments");
    assert_eq!(can_i.stdout, "no\n", "{can_i:?}");
    assert_eq!(can_i.exit_code, 1, "kubectl auth can-i exits 1 for no");
    // Nothing was stored.
    let out = kubectl_out(&mut c, "get deployments -n dev");
    assert_eq!(out.stdout, "");
    // The denial is kube-apiserver's RBAC authorizer's, at the authorize step.
    assert!(c.trace.records.iter().any(|r| r.action == "authorize"
        && r.t_ms == 6_000
        && r.summary.contains("cannot create resource \"deployments\"")));
}

#[test]
fn quota_refusal() {
    let mut c = run("quota-refusal", Some(60_000));
    let ps = pods(&mut c);
    assert_eq!(ps.len(), 2, "{ps:?}");
    assert_eq!(running(&ps).len(), 2);
    let d = json(&mut c, "get deployment web");
    assert_eq!(d["spec"]["replicas"], 3);
    assert_eq!(d["status"]["readyReplicas"], 2);
    let rs = items(&mut c, "get replicasets");
    let rs_name = name(&rs[0]).to_string();
    let failed = messages(&mut c, "FailedCreate", &format!("ReplicaSet/{rs_name}"));
    assert!(!failed.is_empty());
    for m in &failed {
        let rest = m
            .strip_prefix(&format!("Error creating: pods \"{rs_name}-"))
            .unwrap_or_else(|| panic!("{m}"));
        assert!(
            rest.ends_with("\" is forbidden: exceeded quota: compute, requested: requests.cpu=400m, used: requests.cpu=800m, limited: requests.cpu=1"),
            "{m}"
        );
    }
    let q = json(&mut c, "get resourcequota compute");
    assert_eq!(q["status"]["used"]["requests.cpu"], "800m");
    assert_eq!(q["status"]["hard"]["requests.cpu"], "1");
}

/// client-go's EventCorrelator: after 10 events that differ only in their message (one per
/// refused pod name) within 10 minutes, further ones become one event
/// "(combined from similar events): ..." whose count goes up.
#[test]
#[ignore = "core: controllers' event recorder (controllers/events.rs) has no EventCorrelator aggregation or spam filter; every FailedCreate is a new Event"]
fn quota_refusal_failed_creates_are_aggregated() {
    let mut c = run("quota-refusal", Some(600_000));
    let rs = name(&items(&mut c, "get replicasets")[0]).to_string();
    let failed = messages(&mut c, "FailedCreate", &format!("ReplicaSet/{rs}"));
    assert!(failed.len() <= 11, "{} FailedCreate events", failed.len());
    assert!(
        failed
            .iter()
            .any(|m| m.starts_with("(combined from similar events): Error creating: ")),
        "{failed:?}"
    );
}

#[test]
fn preemption() {
    let mut c = cluster("preemption");
    c.run(Some(29_000));
    assert_applied(&c);
    let batch = pods(&mut c);
    assert_eq!(running(&batch).len(), 3);
    assert!(batch.iter().all(|p| p["spec"]["priority"] == 100));
    c.run(None);
    let critical = pod(&mut c, "critical");
    assert_eq!(critical["spec"]["priority"], 1_000_000);
    assert!(ready(&critical), "{}", critical["status"]);
    let node = node_of(&critical).to_string();
    assert_eq!(critical["status"]["nominatedNodeName"], node.as_str());
    assert_eq!(
        messages(&mut c, "FailedScheduling", "Pod/critical"),
        ["0/3 nodes are available: 3 Insufficient cpu."]
    );
    let uid = critical["metadata"]["uid"].as_str().unwrap();
    let victim = batch.iter().find(|p| node_of(p) == node).unwrap();
    assert_eq!(
        messages(&mut c, "Preempted", &format!("Pod/{}", name(victim))),
        [format!("Preempted by pod {uid} on node {node}")]
    );
    let now = pods(&mut c);
    assert!(
        !now.iter().any(|p| name(p) == name(victim)),
        "the victim is gone"
    );
    let batch_now: Vec<&Value> = now
        .iter()
        .filter(|p| name(p).starts_with("batch-"))
        .collect();
    assert_eq!(batch_now.len(), 3);
    assert_eq!(running(&now).len(), 3, "two batch pods and critical");
    let pending: Vec<&&Value> = batch_now.iter().filter(|p| phase(p) == "Pending").collect();
    assert_eq!(pending.len(), 1, "the victim's replacement");
    assert_eq!(
        condition(pending[0], "PodScheduled")["message"],
        "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
    );
}
