//! Deployments rolling out on the real kubelets: the rolling-update bounds checked after every
//! event the cluster processes, the ScalingReplicaSet sequence, revisions and rollback, the
//! progress deadline, and the order of the events of the default scenario.

use kubeplay_core::api::value::Value;
use kubeplay_core::api::{meta, resources::for_kind, Object};
use kubeplay_core::apiserver::{Request, Verb};
use kubeplay_core::cluster::{admin_credentials, Cluster};
use kubeplay_core::kernel::time::parse_rfc3339;

const NGINX: &str = include_str!("../../public/scenarios/default.yaml");
const REVISION: &str = "deployment.kubernetes.io/revision";

fn deployment(name: &str, replicas: i64, image: &str, extra: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  replicas: {replicas}\n{extra}  selector:\n    matchLabels:\n      app: {name}\n  template:\n    metadata:\n      labels:\n        app: {name}\n    spec:\n      containers:\n      - name: {name}\n        image: {image}\n"
    )
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

fn get(c: &mut Cluster, api_version: &str, kind: &str, name: &str) -> Option<Object> {
    let info = for_kind(api_version, kind).unwrap();
    let req = Request::new(Verb::Get, info, admin_credentials(), "test")
        .namespace(Some("default"))
        .name(name);
    c.request(&req).ok()
}

fn kubectl(c: &mut Cluster, args: &[&str]) -> String {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let out = kubeplay_core::kubectl::run(c, &args);
    assert_eq!(out.exit_code, 0, "{}", out.stderr);
    out.stdout
}

/// Runs until quiet. Writes made from the test reach the watchers only when the cluster next
/// moves its watch events onto the queue, which `run(Some(now))` does.
fn run(c: &mut Cluster) {
    let now = c.now();
    c.run(Some(now));
    c.run(None);
}

/// An Event as the test looks at it.
#[derive(Clone, Debug)]
struct Ev {
    reason: String,
    message: String,
    source: String,
    host: String,
    kind: String,
    object: String,
    field_path: String,
    ty: String,
}

/// Every Event, in the order the apiserver stored them (their resourceVersion).
fn events(c: &mut Cluster) -> Vec<Ev> {
    let mut ev = list(c, "v1", "Event");
    ev.sort_by_key(|e| meta::resource_version(e).parse::<u64>().unwrap_or(0));
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    ev.iter()
        .map(|e| Ev {
            reason: s(&e["reason"]),
            message: s(&e["message"]),
            source: s(&e["source"]["component"]),
            host: s(&e["source"]["host"]),
            kind: s(&e["involvedObject"]["kind"]),
            object: s(&e["involvedObject"]["name"]),
            field_path: s(&e["involvedObject"]["fieldPath"]),
            ty: s(&e["type"]),
        })
        .collect()
}

fn annotation(o: &Object, k: &str) -> Option<String> {
    o.pointer("/metadata/annotations")
        .and_then(|a| a.get(k))
        .and_then(Value::as_str)
        .map(str::to_string)
}

fn condition(d: &Object, ty: &str) -> Value {
    d["status"]["conditions"]
        .as_array()
        .and_then(|a| a.iter().find(|c| c["type"] == ty))
        .cloned()
        .unwrap_or(Value::Null)
}

fn is_ready(p: &Object) -> bool {
    p["status"]["conditions"].as_array().is_some_and(|a| {
        a.iter()
            .any(|c| c["type"] == "Ready" && c["status"] == "True")
    })
}

fn terminating(p: &Object) -> bool {
    p.pointer("/metadata/deletionTimestamp").is_some()
}

fn image(p: &Object) -> &str {
    p["spec"]["containers"][0]["image"].as_str().unwrap_or("")
}

/// Steps the cluster one event at a time until it is quiet, checking after each event that
/// the Deployment's pods stay within `replicas + maxSurge` (not counting terminating ones)
/// and that `replicas - maxUnavailable` of them stay available. Returns how many steps it took.
fn step_checking(c: &mut Cluster, max_total: usize, min_available: usize) -> usize {
    let now = c.now();
    c.run(Some(now));
    let mut steps = 0;
    while !c.is_quiet() {
        assert!(c.step_one(), "queue empty before quiet");
        steps += 1;
        assert!(steps < 200_000, "never quiet");
        let pods = list(c, "v1", "Pod");
        let live: Vec<&Object> = pods.iter().filter(|p| !terminating(p)).collect();
        let available = live.iter().filter(|p| is_ready(p)).count();
        let t = c.now();
        assert!(
            live.len() <= max_total,
            "t={t}ms: {} pods not terminating (max {max_total})",
            live.len()
        );
        assert!(
            available >= min_available,
            "t={t}ms: {available} pods available (min {min_available})"
        );
    }
    steps
}

fn scaling_events(c: &mut Cluster, from: usize) -> Vec<String> {
    events(c)[from..]
        .iter()
        .filter(|e| e.reason == "ScalingReplicaSet")
        .inspect(|e| {
            assert_eq!(e.source, "deployment-controller");
            assert_eq!(e.kind, "Deployment");
            assert_eq!(e.ty, "Normal");
        })
        .map(|e| e.message.clone())
        .collect()
}

#[test]
fn rolling_update_and_undo_stay_within_surge_and_unavailability() {
    let mut c = Cluster::from_text("d.yaml", &deployment("nginx", 3, "nginx:1.26", "")).unwrap();
    run(&mut c);
    let pods = list(&mut c, "v1", "Pod");
    assert_eq!(pods.len(), 3);
    assert!(pods.iter().all(|p| is_ready(p) && image(p) == "nginx:1.26"));
    let rss = list(&mut c, "apps/v1", "ReplicaSet");
    assert_eq!(rss.len(), 1);
    let old_rs = meta::name(&rss[0]).to_string();
    let before = events(&mut c).len();

    // 3 replicas with the 25%/25% defaults: maxSurge 1 (rounded up), maxUnavailable 0
    // (rounded down), so at most 4 pods and never fewer than 3 available.
    kubectl(
        &mut c,
        &["set", "image", "deployment/nginx", "nginx=nginx:1.27"],
    );
    let steps = step_checking(&mut c, 4, 3);
    assert!(steps > 100, "{steps} steps");

    let rss = list(&mut c, "apps/v1", "ReplicaSet");
    assert_eq!(rss.len(), 2, "the old ReplicaSet is kept");
    let new_rs = rss
        .iter()
        .map(|r| meta::name(r).to_string())
        .find(|n| *n != old_rs)
        .unwrap();
    assert_eq!(
        scaling_events(&mut c, before),
        vec![
            format!("Scaled up replica set {new_rs} from 0 to 1"),
            format!("Scaled down replica set {old_rs} from 3 to 2"),
            format!("Scaled up replica set {new_rs} from 1 to 2"),
            format!("Scaled down replica set {old_rs} from 2 to 1"),
            format!("Scaled up replica set {new_rs} from 2 to 3"),
            format!("Scaled down replica set {old_rs} from 1 to 0"),
        ]
    );
    let old = get(&mut c, "apps/v1", "ReplicaSet", &old_rs).unwrap();
    assert_eq!(old["spec"]["replicas"], 0);
    assert_eq!(annotation(&old, REVISION).as_deref(), Some("1"));
    let new = get(&mut c, "apps/v1", "ReplicaSet", &new_rs).unwrap();
    assert_eq!(new["spec"]["replicas"], 3);
    assert_eq!(new["status"]["availableReplicas"], 3);
    assert_eq!(annotation(&new, REVISION).as_deref(), Some("2"));
    let d = get(&mut c, "apps/v1", "Deployment", "nginx").unwrap();
    assert_eq!(annotation(&d, REVISION).as_deref(), Some("2"));
    assert_eq!(d["metadata"]["generation"], 2);
    assert_eq!(d["status"]["observedGeneration"], 2);
    assert_eq!(d["status"]["updatedReplicas"], 3);
    assert_eq!(
        condition(&d, "Progressing")["reason"],
        "NewReplicaSetAvailable"
    );
    let pods = list(&mut c, "v1", "Pod");
    assert_eq!(pods.len(), 3);
    assert!(pods
        .iter()
        .all(|p| meta::name(p).starts_with(&format!("{new_rs}-")) && image(p) == "nginx:1.27"));

    // Undo: the old template comes back, so does its ReplicaSet, as revision 3.
    let before = events(&mut c).len();
    let out = kubectl(&mut c, &["rollout", "undo", "deployment/nginx"]);
    assert_eq!(out, "deployment.apps/nginx rolled back\n");
    step_checking(&mut c, 4, 3);
    assert_eq!(
        scaling_events(&mut c, before),
        vec![
            format!("Scaled up replica set {old_rs} from 0 to 1"),
            format!("Scaled down replica set {new_rs} from 3 to 2"),
            format!("Scaled up replica set {old_rs} from 1 to 2"),
            format!("Scaled down replica set {new_rs} from 2 to 1"),
            format!("Scaled up replica set {old_rs} from 2 to 3"),
            format!("Scaled down replica set {new_rs} from 1 to 0"),
        ]
    );
    assert_eq!(list(&mut c, "apps/v1", "ReplicaSet").len(), 2);
    let old = get(&mut c, "apps/v1", "ReplicaSet", &old_rs).unwrap();
    assert_eq!(old["spec"]["replicas"], 3);
    assert_eq!(annotation(&old, REVISION).as_deref(), Some("3"));
    assert_eq!(
        annotation(&old, "deployment.kubernetes.io/revision-history").as_deref(),
        Some("1")
    );
    let new = get(&mut c, "apps/v1", "ReplicaSet", &new_rs).unwrap();
    assert_eq!(new["spec"]["replicas"], 0);
    assert_eq!(annotation(&new, REVISION).as_deref(), Some("2"));
    let d = get(&mut c, "apps/v1", "Deployment", "nginx").unwrap();
    assert_eq!(annotation(&d, REVISION).as_deref(), Some("3"));
    assert_eq!(
        d["spec"]["template"]["spec"]["containers"][0]["image"],
        "nginx:1.26"
    );
    assert_eq!(
        condition(&d, "Progressing")["reason"],
        "NewReplicaSetAvailable"
    );
    assert_eq!(
        condition(&d, "Progressing")["message"],
        format!("ReplicaSet \"{old_rs}\" has successfully progressed.")
    );
    let pods = list(&mut c, "v1", "Pod");
    assert_eq!(pods.len(), 3);
    for p in &pods {
        assert!(meta::name(p).starts_with(&format!("{old_rs}-")));
        assert_eq!(image(p), "nginx:1.26");
        assert!(is_ready(p));
        assert_eq!(
            p["status"]["containerStatuses"][0]["image"],
            "docker.io/library/nginx:1.26"
        );
    }
    let history = kubectl(&mut c, &["rollout", "history", "deployment/nginx"]);
    assert!(
        history.contains("2 ") && history.contains("3 "),
        "{history}"
    );
}

#[test]
fn a_rollout_that_cannot_progress_exceeds_its_deadline() {
    let extra = "  progressDeadlineSeconds: 30\n";
    let text = deployment("web", 2, "nginx:does-not-exist", extra);
    let mut c = Cluster::from_text("d.yaml", &text).unwrap();
    c.run(Some(25_000));
    let rs = meta::name(&list(&mut c, "apps/v1", "ReplicaSet")[0]).to_string();
    let d = get(&mut c, "apps/v1", "Deployment", "web").unwrap();
    let prog = condition(&d, "Progressing");
    assert_eq!(prog["status"], "True", "{prog}");
    assert_eq!(prog["reason"], "ReplicaSetUpdated");
    let last_update = parse_rfc3339(prog["lastUpdateTime"].as_str().unwrap()).unwrap();
    assert!(last_update < 5_000, "{prog}");
    let pods = list(&mut c, "v1", "Pod");
    assert_eq!(pods.len(), 2);
    assert!(pods.iter().all(|p| !is_ready(p)));
    let waiting = pods[0]["status"]["containerStatuses"][0]["state"]["waiting"]["reason"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(
        waiting == "ErrImagePull" || waiting == "ImagePullBackOff",
        "{waiting}"
    );

    // The controller comes back by itself once the deadline has passed: a second after
    // lastUpdateTime + 30s, not at some later resync.
    c.run(Some(60_000));
    let d = get(&mut c, "apps/v1", "Deployment", "web").unwrap();
    let prog = condition(&d, "Progressing");
    assert_eq!(prog["type"], "Progressing");
    assert_eq!(prog["status"], "False");
    assert_eq!(prog["reason"], "ProgressDeadlineExceeded");
    assert_eq!(
        prog["message"],
        format!("ReplicaSet \"{rs}\" has timed out progressing.")
    );
    let at = parse_rfc3339(prog["lastTransitionTime"].as_str().unwrap()).unwrap();
    assert_eq!(prog["lastUpdateTime"], prog["lastTransitionTime"]);
    assert!(
        at >= last_update + 30_000 && at <= last_update + 32_000,
        "timed out at {at} ms, last progress at {last_update} ms"
    );
    let avail = condition(&d, "Available");
    assert_eq!(avail["status"], "False");
    assert_eq!(avail["reason"], "MinimumReplicasUnavailable");
    assert_eq!(d["status"]["unavailableReplicas"], 2);
    // The deployment controller records no Event for it, only the condition.
    let ev = events(&mut c);
    assert!(ev
        .iter()
        .filter(|e| e.source == "deployment-controller")
        .all(|e| e.reason == "ScalingReplicaSet"));
    assert!(ev
        .iter()
        .any(|e| e.reason == "Failed" && e.message == "Error: ErrImagePull"));
    // What kubectl makes of it.
    let args: Vec<String> = ["rollout", "status", "deployment/web"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let out = kubeplay_core::kubectl::run(&mut c, &args);
    assert_ne!(out.exit_code, 0);
    assert!(
        out.stderr
            .contains("error: deployment \"web\" exceeded its progress deadline"),
        "{out:?}"
    );

    // The trace shows the controller's decision at that moment.
    let text = c.trace.to_text();
    assert!(text.contains(
        "deployment-controller: Deployment web made no progress for 30s (progressDeadlineSeconds): Progressing=False, reason ProgressDeadlineExceeded"
    ));

    // Fixing the image is progress again.
    kubectl(
        &mut c,
        &["set", "image", "deployment/web", "web=nginx:1.27"],
    );
    run(&mut c);
    let d = get(&mut c, "apps/v1", "Deployment", "web").unwrap();
    let prog = condition(&d, "Progressing");
    assert_eq!(prog["status"], "True");
    assert_eq!(prog["reason"], "NewReplicaSetAvailable");
}

#[test]
fn the_default_scenario_records_its_events_in_causal_order() {
    let mut c = Cluster::from_text("default.yaml", NGINX).unwrap();
    run(&mut c);
    let ev = events(&mut c);
    let rs = meta::name(&list(&mut c, "apps/v1", "ReplicaSet")[0]).to_string();
    let pods: Vec<Object> = list(&mut c, "v1", "Pod");
    assert_eq!(pods.len(), 3);
    let pos = |pred: &dyn Fn(&Ev) -> bool| -> usize {
        let found: Vec<usize> = (0..ev.len()).filter(|&i| pred(&ev[i])).collect();
        assert_eq!(found.len(), 1, "{found:?} in {ev:#?}");
        found[0]
    };

    // 1. The deployment controller scales its new ReplicaSet up, in one step.
    assert_eq!(ev[0].reason, "ScalingReplicaSet");
    assert_eq!(ev[0].source, "deployment-controller");
    assert_eq!(
        (ev[0].kind.as_str(), ev[0].object.as_str()),
        ("Deployment", "nginx")
    );
    assert_eq!(
        ev[0].message,
        format!("Scaled up replica set {rs} from 0 to 3")
    );
    assert_eq!(
        ev.iter()
            .filter(|e| e.reason == "ScalingReplicaSet")
            .count(),
        1
    );
    for p in &pods {
        let name = meta::name(p).to_string();
        let node = p["spec"]["nodeName"].as_str().unwrap().to_string();
        // 2. The ReplicaSet controller creates it.
        let created =
            pos(&|e| e.reason == "SuccessfulCreate" && e.message == format!("Created pod: {name}"));
        assert_eq!(ev[created].source, "replicaset-controller");
        assert_eq!(
            (ev[created].kind.as_str(), ev[created].object.as_str()),
            ("ReplicaSet", rs.as_str())
        );
        // 3. The scheduler binds it.
        let scheduled = pos(&|e| e.reason == "Scheduled" && e.object == name);
        assert_eq!(ev[scheduled].source, "default-scheduler");
        assert_eq!(
            ev[scheduled].message,
            format!("Successfully assigned default/{name} to {node}")
        );
        // 4. Its kubelet pulls the image and starts the container.
        let kubelet = |reason: &str| {
            let i = pos(&|e: &Ev| e.reason == reason && e.object == name);
            let e = &ev[i];
            assert_eq!(e.source, "kubelet", "{e:?}");
            assert_eq!(e.host, node, "{e:?}");
            assert_eq!(e.kind, "Pod");
            assert_eq!(e.field_path, "spec.containers{nginx}", "{e:?}");
            assert_eq!(e.ty, "Normal");
            (i, e.message.clone())
        };
        let (pulling, m) = kubelet("Pulling");
        assert_eq!(m, "Pulling image \"nginx:1.27\"");
        let (pulled, m) = kubelet("Pulled");
        assert!(
            m.starts_with("Successfully pulled image \"nginx:1.27\" in ") && m.ends_with(" bytes."),
            "{m}"
        );
        let (started_c, m) = kubelet("Created");
        assert_eq!(m, "Container created");
        let (started, m) = kubelet("Started");
        assert_eq!(m, "Container started");
        assert!(0 < created && created < scheduled, "{name}");
        assert!(scheduled < pulling && pulling < pulled, "{name}");
        assert!(pulled < started_c && started_c < started, "{name}");
    }
    // The three creations come before any pod is scheduled (the slow-start batches of 1 and 2
    // are sent before the scheduler gets the first pod).
    let last_create = ev
        .iter()
        .rposition(|e| e.reason == "SuccessfulCreate")
        .unwrap();
    let first_sched = ev.iter().position(|e| e.reason == "Scheduled").unwrap();
    assert!(last_create < first_sched, "{ev:#?}");
    // Nothing else happened: 1 + 3 + 3 x 5 events, none a warning.
    assert_eq!(ev.len(), 19, "{ev:#?}");
    assert!(ev.iter().all(|e| e.ty == "Normal"));
    let table = kubectl(&mut c, &["get", "events"]);
    assert!(table.starts_with("LAST SEEN"), "{table}");
    assert!(
        table.lines().any(|l| l.contains("ScalingReplicaSet")
            && l.contains("deployment/nginx")
            && l.contains(&format!("Scaled up replica set {rs} from 0 to 3"))),
        "{table}"
    );
}
