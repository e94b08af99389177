//! `kubectl logs` through the apiserver's `pods/log` (proxied to the node's kubelet), its
//! errors in kubectl's words, and the `kill-container` fault.

use kubeplay_core::api::value::Value;
use kubeplay_core::cluster::{Cluster, CommandOutput};

const PODS: &str = "\
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  nodeName: node-2
  containers:
  - name: nginx
    image: nginx:1.27
---
apiVersion: v1
kind: Pod
metadata:
  name: crash
spec:
  containers:
  - name: app
    image: busybox:1.36
    command: [\"sh\", \"-c\", \"echo hi; exit 1\"]
---
apiVersion: v1
kind: Pod
metadata:
  name: two
spec:
  initContainers:
  - name: setup
    image: busybox:1.36
    command: [\"sh\", \"-c\", \"echo set up\"]
  containers:
  - name: a
    image: busybox:1.36
    command: [\"sleep\", \"3600\"]
  - name: b
    image: nginx:1.27
";

fn kubectl(c: &mut Cluster, line: &str) -> CommandOutput {
    let args = kubeplay_core::shell::split(line).unwrap();
    kubeplay_core::kubectl::run(c, &args)
}

fn ok(c: &mut Cluster, line: &str) -> String {
    let out = kubectl(c, line);
    assert_eq!(out.exit_code, 0, "{line}: {}", out.stderr);
    out.stdout
}

fn fails(c: &mut Cluster, line: &str) -> String {
    let out = kubectl(c, line);
    assert_eq!(out.exit_code, 1, "{line}: {}", out.stdout);
    assert_eq!(out.stdout, "", "{line}");
    out.stderr
}

fn cluster(text: &str, until_ms: u64) -> Cluster {
    let mut c = Cluster::from_text("scenario.yaml", text).unwrap();
    c.run(Some(until_ms));
    c
}

fn pod(c: &mut Cluster, name: &str) -> Value {
    serde_json::from_str(&ok(c, &format!("get pod {name} -o json"))).unwrap()
}

#[test]
fn nginx_logs_its_start_up() {
    let mut c = cluster(PODS, 30_000);
    let out = ok(&mut c, "logs web");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration"
    );
    assert!(lines.contains(&"/docker-entrypoint.sh: Configuration complete; ready for start up"));
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with(" [notice] 1#1: nginx/1.27.5")),
        "{out}"
    );
    // One worker per CPU of the 4-CPU node.
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains("start worker process "))
            .count(),
        4
    );
    assert!(lines[9].starts_with("2026/01/01 00:00:"), "{}", lines[9]);
    assert_eq!(
        ok(&mut c, "logs pod/web --tail 1"),
        format!("{}\n", lines.last().unwrap())
    );
    assert_eq!(ok(&mut c, "logs web -c nginx --tail=2").lines().count(), 2);
    let stamped = ok(&mut c, "logs web --timestamps --tail 1");
    assert!(stamped.starts_with("2026-01-01T00:00:"), "{stamped}");
    assert!(stamped.contains("Z 2026/01/01 "), "{stamped}");

    // The request goes to the apiserver's pods/log, which connects to the node's kubelet.
    let t = c.trace.to_text();
    assert!(
        t.contains("GET /api/v1/namespaces/default/pods/web/log?container=nginx&tailLines=1&timestamps=true"),
        "{t}"
    );
    assert!(t.contains(
        "GET https://10.0.0.12:10250/containerLogs/default/web/nginx?tailLines=1&timestamps=true"
    ));
    let served = c
        .trace
        .records
        .iter()
        .rfind(|r| r.action == "kubelet.logs")
        .unwrap();
    assert_eq!(served.node.as_deref(), Some("node-2"));
    assert!(served.summary.contains("1 line(s)"), "{}", served.summary);
}

#[test]
fn a_crashing_shell_and_its_previous_instance() {
    let mut c = cluster(PODS, 30_000);
    let p = pod(&mut c, "crash");
    assert!(
        p["status"]["containerStatuses"][0]["restartCount"]
            .as_i64()
            .unwrap()
            >= 1
    );
    assert_eq!(ok(&mut c, "logs crash"), "hi\n");
    assert_eq!(ok(&mut c, "logs crash --previous"), "hi\n");
    assert_eq!(ok(&mut c, "logs crash -p -c app"), "hi\n");
    // A container that never ran before has no previous instance.
    assert_eq!(
        fails(&mut c, "logs web --previous"),
        "Error from server (BadRequest): previous terminated container \"nginx\" in pod \"web\" not found\n"
    );
}

#[test]
fn kubectl_picks_the_first_container_and_says_so() {
    let mut c = cluster(PODS, 30_000);
    let out = kubectl(&mut c, "logs two");
    assert_eq!(out.exit_code, 0, "{}", out.stderr);
    assert_eq!(
        out.stderr,
        "Defaulted container \"a\" out of: a, b, setup (init)\n"
    );
    assert_eq!(out.stdout, "", "sleep prints nothing");
    assert_eq!(ok(&mut c, "logs two -c setup"), "set up\n");
    assert!(ok(&mut c, "logs two b").contains("nginx/1.27.5"));
    assert_eq!(
        fails(&mut c, "logs two -c x"),
        "error: container x is not valid for pod two\n"
    );
}

#[test]
fn errors_read_as_kubectl_prints_them() {
    // Half a second in: web is on node-2, its sandbox up, nginx's image still being pulled.
    let mut c = cluster(PODS, 500);
    assert_eq!(
        fails(&mut c, "logs web"),
        "Error from server (BadRequest): container \"nginx\" in pod \"web\" is waiting to start: ContainerCreating\n"
    );
    assert_eq!(
        fails(&mut c, "logs nope"),
        "Error from server (NotFound): pods \"nope\" not found\n"
    );
    assert_eq!(
        fails(&mut c, "logs"),
        "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples\n"
    );
    assert!(fails(&mut c, "logs web --tail x")
        .starts_with("error: invalid argument \"x\" for \"--tail\" flag"));
}

#[test]
fn pods_log_needs_its_own_rbac_permission() {
    let mut c = cluster(PODS, 30_000);
    ok(&mut c, "create role pod-reader --verb=get --resource=pods");
    ok(
        &mut c,
        "create rolebinding jane-reads --role=pod-reader --user=jane",
    );
    assert_eq!(
        fails(&mut c, "logs web --as jane"),
        "Error from server (Forbidden): pods \"web\" is forbidden: User \"jane\" cannot get resource \"pods/log\" in API group \"\" in the namespace \"default\"\n"
    );
    let role = "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: log-reader\nrules:\n- apiGroups: [\"\"]\n  resources: [pods/log]\n  verbs: [get]\n";
    let args: Vec<String> = ["apply", "-f", "-"].iter().map(|s| s.to_string()).collect();
    let out = kubeplay_core::kubectl::run_with_source(&mut c, &args, Some(("-", role)));
    assert_eq!(out.exit_code, 0, "{}", out.stderr);
    ok(
        &mut c,
        "create rolebinding jane-logs --role=log-reader --user=jane",
    );
    assert!(ok(&mut c, "logs web --as jane").contains("nginx/1.27.5"));
}

#[test]
fn a_stopped_kubelet_does_not_answer() {
    let steps = "---\napiVersion: kubeplay/v1alpha1\nkind: Scenario\nsteps:\n- at: 20s\n  fault: stop-node node-2\n";
    let mut c = cluster(&format!("{PODS}{steps}"), 25_000);
    assert_eq!(
        fails(&mut c, "logs web"),
        "Error from server: Get \"https://10.0.0.12:10250/containerLogs/default/web/nginx\": dial tcp 10.0.0.12:10250: connect: connection refused\n"
    );
}

#[test]
fn killing_a_container_restarts_it() {
    let steps = "---\napiVersion: kubeplay/v1alpha1\nkind: Scenario\nsteps:\n- at: 20s\n  fault: kill-container web/nginx\n- at: 21s\n  fault: kill-container web/nope\n- at: 22s\n  fault: kill-container nope/nginx\n- at: 23s\n  fault: kill-container web\n";
    let mut c = cluster(&format!("{PODS}{steps}"), 40_000);

    let p = pod(&mut c, "web");
    let s = &p["status"]["containerStatuses"][0];
    assert_eq!(s["restartCount"], 1, "{s}");
    assert!(s["state"]["running"].is_object(), "{s}");
    let last = &s["lastState"]["terminated"];
    assert_eq!(last["exitCode"], 137, "{s}");
    assert_eq!(last["reason"], "Error", "{s}");
    assert_eq!(last["finishedAt"], "2026-01-01T00:00:20Z");
    assert_eq!(p["status"]["phase"], "Running");

    let table = ok(&mut c, "get pod web");
    let row = table.lines().nth(1).unwrap();
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&cols[..4], ["web", "1/1", "Running", "1"], "{table}");
    assert!(row.contains("1 (20s ago)"), "{table}");

    // The first instance's log is the previous one now; the new one started again.
    assert!(ok(&mut c, "logs web --previous").contains("00:00:0"));
    assert!(ok(&mut c, "logs web").contains("2026/01/01 00:00:21 [notice] 1#1: nginx/1.27.5"));

    let t = c.trace.to_text();
    assert!(t.contains("fault kill-container web/nginx: the container runtime on node-2 sends SIGKILL to the main process of container nginx of pod default/web"), "{t}");
    assert!(t.contains("container-runtime        runtime.exit        container nginx ("));
    assert!(t.contains("was killed by SIGKILL: exited with code 137"));

    // Unknown containers and pods are error steps, as kubectl words them.
    let errors: Vec<&str> = c
        .outputs
        .iter()
        .filter(|o| o.command.starts_with("fault "))
        .map(|o| o.stderr.as_str())
        .collect();
    assert_eq!(
        errors,
        [
            "error: fault \"kill-container web/nope\": container nope is not valid for pod web\n",
            "error: fault \"kill-container nope/nginx\": pods \"nope\" not found\n",
            "error: fault \"kill-container web\": kill-container needs POD/CONTAINER\n",
        ]
    );
    assert!(
        t.contains("fault kill-container web/nope: error: container nope is not valid for pod web")
    );
}

#[test]
fn logs_of_a_workload_and_of_a_selector() {
    let deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: echo\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: echo}\n  template:\n    metadata:\n      labels: {app: echo}\n    spec:\n      containers:\n      - name: echo\n        image: busybox:1.36\n        command: [\"sh\", \"-c\", \"while true; do echo tick; sleep 10; done\"]\n";
    let mut c = cluster(deploy, 60_000);
    let out = kubectl(&mut c, "logs deployment/echo");
    assert_eq!(out.exit_code, 0, "{}", out.stderr);
    assert!(
        out.stderr.starts_with("Found 2 pods, using pod/echo-"),
        "{}",
        out.stderr
    );
    // Started a few seconds in, a line every 10 s since.
    let n = out.stdout.lines().count();
    assert!((5..=6).contains(&n), "{}", out.stdout);
    assert!(out.stdout.lines().all(|l| l == "tick"));
    // A selector shows every pod, ten lines each by default.
    let all = ok(&mut c, "logs -l app=echo");
    assert_eq!(all.lines().count(), 2 * n);
    assert_eq!(ok(&mut c, "logs -l app=echo --tail 1"), "tick\ntick\n");
}

#[test]
fn the_api_wants_a_container_name_for_a_pod_of_several() {
    use kubeplay_core::api::resources::for_kind;
    use kubeplay_core::apiserver::{Request, Verb};
    let mut c = cluster(PODS, 30_000);
    let req = |name: &str| {
        Request::new(
            Verb::Get,
            for_kind("v1", "Pod").unwrap(),
            kubeplay_core::cluster::admin_credentials(),
            "curl",
        )
        .namespace(Some("default"))
        .name(name)
        .subresource("log")
        .body(kubeplay_core::json!({}))
    };
    let e = c.request(&req("two")).unwrap_err();
    assert_eq!(e.code, 400);
    assert_eq!(
        e.message,
        "a container name must be specified for pod two, choose one of: [a b] or one of the init containers: [setup]"
    );
    // A pod of one container needs no name.
    let body = c.request(&req("crash")).unwrap();
    assert_eq!(body.as_str(), Some("hi\n"));
}
