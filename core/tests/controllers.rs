//! The workload controllers end to end: Deployment -> ReplicaSet -> Pods, through the apiserver.

use kubeplay_core::api::value::{json, Value};
use kubeplay_core::api::{meta, resources::for_kind, Object};
use kubeplay_core::apiserver::{PatchType, Request, Verb};
use kubeplay_core::cluster::{admin_credentials, Cluster};

const NGINX: &str = include_str!("../../public/scenarios/default.yaml");

fn deployment(name: &str, replicas: i64, image: &str, extra: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  replicas: {replicas}\n{extra}  selector:\n    matchLabels:\n      app: {name}\n  template:\n    metadata:\n      labels:\n        app: {name}\n    spec:\n      containers:\n      - name: c\n        image: {image}\n"
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

/// What a kubelet would report once the pod's containers run and pass readiness.
fn make_ready(c: &mut Cluster, pod: &str) {
    let now = kubeplay_core::kernel::time::rfc3339(c.now());
    let body = json!({"status": {"phase": "Running", "conditions": [
        {"type": "Ready", "status": "True", "lastTransitionTime": now},
        {"type": "ContainersReady", "status": "True", "lastTransitionTime": now}]}});
    merge_patch(c, "v1", "Pod", pod, Some("status"), body);
}

fn pending_pods(c: &mut Cluster) -> Vec<String> {
    list(c, "v1", "Pod")
        .iter()
        .filter(|p| p.pointer("/status/phase").and_then(Value::as_str) != Some("Running"))
        .map(|p| meta::name(p).to_string())
        .collect()
}

fn events(c: &mut Cluster) -> Vec<(String, String, String)> {
    let mut ev = list(c, "v1", "Event");
    ev.sort_by_key(|e| {
        e["metadata"]["name"]
            .as_str()
            .unwrap_or("")
            .rsplit('.')
            .next()
            .map(|h| u128::from_str_radix(h, 16).unwrap_or(0))
            .unwrap_or(0)
    });
    ev.iter()
        .map(|e| {
            (
                e["reason"].as_str().unwrap_or("").to_string(),
                e["message"].as_str().unwrap_or("").to_string(),
                e["source"]["component"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// Runs until quiet. Writes made from the test with `Cluster::request` reach the watchers only
/// when the cluster next moves its watch events onto the queue, which `run(Some(now))` does.
fn run(c: &mut Cluster) {
    let now = c.now();
    c.run(Some(now));
    c.run(None);
}

fn replica_sets(c: &mut Cluster) -> Vec<Object> {
    list(c, "apps/v1", "ReplicaSet")
}

#[test]
fn default_deployment_makes_one_replicaset_and_three_pods() {
    let mut c = Cluster::from_text("default.yaml", NGINX).unwrap();
    // One second in: the controllers are done, the kubelets are still pulling nginx.
    c.run(Some(1_000));
    let rss = replica_sets(&mut c);
    assert_eq!(rss.len(), 1);
    let rs = &rss[0];
    let rs_name = meta::name(rs).to_string();
    let hash = rs_name.strip_prefix("nginx-").unwrap();
    assert!(
        hash.len() <= 10 && hash.chars().all(|ch| "456789bcdf".contains(ch)),
        "{hash}"
    );
    assert_eq!(rs["spec"]["replicas"], 3);
    assert_eq!(rs["metadata"]["labels"]["pod-template-hash"], hash);
    assert_eq!(
        rs["spec"]["selector"]["matchLabels"]["pod-template-hash"],
        hash
    );
    assert_eq!(
        rs["metadata"]["annotations"]["deployment.kubernetes.io/revision"],
        "1"
    );
    assert_eq!(
        rs["metadata"]["annotations"]["deployment.kubernetes.io/desired-replicas"],
        "3"
    );
    assert_eq!(
        rs["metadata"]["annotations"]["deployment.kubernetes.io/max-replicas"],
        "4"
    );
    assert_eq!(rs["metadata"]["ownerReferences"][0]["kind"], "Deployment");
    let pods = list(&mut c, "v1", "Pod");
    assert_eq!(pods.len(), 3);
    for p in &pods {
        let name = meta::name(p);
        let suffix = name.strip_prefix(&format!("{rs_name}-")).unwrap();
        assert_eq!(suffix.len(), 5);
        assert!(suffix
            .chars()
            .all(|ch| "bcdfghjklmnpqrstvwxz2456789".contains(ch)));
        let r = &p["metadata"]["ownerReferences"][0];
        assert_eq!(r["apiVersion"], "apps/v1");
        assert_eq!(r["kind"], "ReplicaSet");
        assert_eq!(r["name"], rs_name.as_str());
        assert_eq!(r["uid"], rs["metadata"]["uid"]);
        assert_eq!(r["controller"], true);
        assert_eq!(r["blockOwnerDeletion"], true);
        assert_eq!(p["metadata"]["labels"]["pod-template-hash"], hash);
    }
    let ev = events(&mut c);
    assert_eq!(
        ev[0],
        (
            "ScalingReplicaSet".into(),
            format!("Scaled up replica set {rs_name} from 0 to 3"),
            "deployment-controller".into()
        )
    );
    for e in &ev[1..4] {
        assert_eq!(e.0, "SuccessfulCreate");
        assert!(e.1.starts_with(&format!("Created pod: {rs_name}-")));
        assert_eq!(e.2, "replicaset-controller");
    }
    let d = get(&mut c, "apps/v1", "Deployment", "nginx").unwrap();
    assert_eq!(
        d["metadata"]["annotations"]["deployment.kubernetes.io/revision"],
        "1"
    );
    assert_eq!(d["status"]["replicas"], 3);
    assert_eq!(d["status"]["updatedReplicas"], 3);
    assert_eq!(d["status"]["unavailableReplicas"], 3);
    let rs_status = &replica_sets(&mut c)[0]["status"];
    assert_eq!(rs_status["replicas"], 3);
    assert_eq!(rs_status["fullyLabeledReplicas"], 3);
    assert_eq!(rs_status["observedGeneration"], 1);
    let out = kubectl(&mut c, &["get", "events"]);
    assert!(out.contains("ScalingReplicaSet"), "{out}");
}

#[test]
fn deployment_status_and_conditions_follow_readiness() {
    let mut c = Cluster::from_text("default.yaml", NGINX).unwrap();
    // One second in: the pods exist but the kubelets are still pulling nginx.
    c.run(Some(1_000));
    let d = get(&mut c, "apps/v1", "Deployment", "nginx").unwrap();
    let conds = d["status"]["conditions"].as_array().unwrap().clone();
    let avail = conds.iter().find(|x| x["type"] == "Available").unwrap();
    assert_eq!(avail["status"], "False");
    assert_eq!(avail["reason"], "MinimumReplicasUnavailable");
    assert_eq!(
        avail["message"],
        "Deployment does not have minimum availability."
    );
    let prog = conds.iter().find(|x| x["type"] == "Progressing").unwrap();
    assert_eq!(prog["reason"], "ReplicaSetUpdated");
    assert_eq!(pending_pods(&mut c).len(), 3);
    // The kubelets start the containers and report them ready.
    run(&mut c);
    assert!(pending_pods(&mut c).is_empty());
    let d = get(&mut c, "apps/v1", "Deployment", "nginx").unwrap();
    let rs = meta::name(&replica_sets(&mut c)[0]).to_string();
    assert_eq!(d["status"]["availableReplicas"], 3);
    assert_eq!(d["status"]["readyReplicas"], 3);
    assert!(d["status"].get("unavailableReplicas").is_none());
    let conds = d["status"]["conditions"].as_array().unwrap();
    assert_eq!(conds[0]["type"], "Available");
    assert_eq!(conds[0]["reason"], "MinimumReplicasAvailable");
    assert_eq!(conds[0]["message"], "Deployment has minimum availability.");
    assert_eq!(conds[1]["type"], "Progressing");
    assert_eq!(conds[1]["reason"], "NewReplicaSetAvailable");
    assert_eq!(
        conds[1]["message"],
        format!("ReplicaSet \"{rs}\" has successfully progressed.")
    );
}

/// Whether a trace line is a pod create (not the scheduler's `pods/<name>/binding`).
fn is_pod_post(line: &str) -> bool {
    line.split_once("POST /api/v1/namespaces/default/pods")
        .is_some_and(|(_, rest)| !rest.starts_with('/'))
}

#[test]
fn slow_start_batches_are_sent_16_creations_a_step_and_the_status_waits_for_the_last() {
    let mut c = Cluster::from_text("d.yaml", &deployment("web", 100, "nginx:1.27", "")).unwrap();
    // Pod creates per step of the simulation, for the steps that create any.
    let mut per_step = Vec::new();
    let mut seen = 0;
    while c.step_one() {
        let records = &c.trace.records;
        let creates = records[seen..]
            .iter()
            .filter(|r| is_pod_post(&r.summary))
            .count();
        if creates > 0 {
            per_step.push(creates);
        }
        seen = records.len();
        if c.is_quiet() {
            break;
        }
    }
    // Each batch starts in a step of its own; a batch of more than 16 takes several.
    assert_eq!(per_step, vec![1, 2, 4, 8, 16, 16, 16, 16, 16, 5]);
    let text = c.trace.to_text();
    let lines: Vec<&str> = text.lines().collect();
    let batches: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.split_once("slow-start batch of ").map(|(_, n)| n))
        .collect();
    assert_eq!(
        batches,
        [
            "1 pod(s)",
            "2 pod(s)",
            "4 pod(s)",
            "8 pod(s)",
            "16 pod(s)",
            "32 pod(s)",
            "37 pod(s)"
        ]
    );
    // The ReplicaSet's status write of that sync comes after its last batch.
    let first_status = lines
        .iter()
        .position(|l| {
            l.contains("PUT /apis/apps/v1/namespaces/default/replicasets/") && l.contains("/status")
        })
        .expect("a status write");
    let last_create = lines.iter().rposition(|l| is_pod_post(l)).unwrap();
    assert!(
        first_status > last_create,
        "status at line {first_status}, last create at {last_create}"
    );
}

#[test]
fn pods_are_created_in_slow_start_batches() {
    let mut c = Cluster::from_text("d.yaml", &deployment("web", 10, "nginx:1.27", "")).unwrap();
    run(&mut c);
    assert_eq!(list(&mut c, "v1", "Pod").len(), 10);
    let text = c.trace.to_text();
    let batches: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("slow-start batch of"))
        .collect();
    assert_eq!(batches.len(), 4, "{batches:?}");
    for (line, n) in batches.iter().zip([1, 2, 4, 3]) {
        assert!(line.contains(&format!("batch of {n} pod")), "{line}");
    }
    // Between two batch records, exactly that many pod POSTs.
    let mut counts = Vec::new();
    for l in text.lines() {
        if l.contains("slow-start batch of") {
            counts.push(0);
        } else if !counts.is_empty() && is_pod_post(l) {
            *counts.last_mut().unwrap() += 1;
        }
    }
    assert_eq!(counts, vec![1, 2, 4, 3]);
}

#[test]
fn scaling_down_deletes_the_lowest_ranked_pods() {
    // No scheduler takes these pods (`schedulerName: manual`), so no kubelet runs them and
    // the test alone decides which are ready.
    let text = deployment("web", 5, "nginx:1.27", "").replace(
        "    spec:\n      containers:",
        "    spec:\n      schedulerName: manual\n      containers:",
    );
    let mut c = Cluster::from_text("d.yaml", &text).unwrap();
    run(&mut c);
    let pods: Vec<String> = list(&mut c, "v1", "Pod")
        .iter()
        .map(|p| meta::name(p).to_string())
        .collect();
    assert_eq!(pods.len(), 5);
    let keep = [pods[1].clone(), pods[3].clone()];
    for p in &keep {
        make_ready(&mut c, p);
    }
    run(&mut c);
    kubectl(&mut c, &["scale", "deployment", "web", "--replicas=2"]);
    run(&mut c);
    let mut left: Vec<String> = list(&mut c, "v1", "Pod")
        .iter()
        .map(|p| meta::name(p).to_string())
        .collect();
    left.sort();
    let mut want = keep.to_vec();
    want.sort();
    assert_eq!(left, want);
    let ev = events(&mut c);
    let rs = meta::name(&replica_sets(&mut c)[0]).to_string();
    assert!(
        ev.iter()
            .any(|e| e.1 == format!("Scaled down replica set {rs} from 5 to 2")),
        "{ev:?}"
    );
    assert_eq!(ev.iter().filter(|e| e.0 == "SuccessfulDelete").count(), 3);
}

/// Runs until quiet, marks every Pending pod Running and Ready, again, until nothing changes,
/// checking the rolling-update bounds at every round.
fn settle(c: &mut Cluster, check: &mut dyn FnMut(&mut Cluster)) {
    for _ in 0..50 {
        run(c);
        check(c);
        let pending = pending_pods(c);
        if pending.is_empty() {
            return;
        }
        for p in pending {
            make_ready(c, &p);
        }
    }
    panic!("never settled");
}

#[test]
fn rolling_update_moves_one_pod_at_a_time() {
    let mut c = Cluster::from_text("d.yaml", &deployment("nginx", 3, "nginx:1.26", "")).unwrap();
    settle(&mut c, &mut |_| {});
    let old_rs = meta::name(&replica_sets(&mut c)[0]).to_string();
    let before = events(&mut c).len();
    kubectl(
        &mut c,
        &["set", "image", "deployment/nginx", "c=nginx:1.27"],
    );
    let mut check = |c: &mut Cluster| {
        let pods = list(c, "v1", "Pod");
        assert!(pods.len() <= 4, "{} pods", pods.len());
        let available = pods
            .iter()
            .filter(|p| p.pointer("/status/phase").and_then(Value::as_str) == Some("Running"))
            .count();
        assert!(available >= 3, "{available} available");
    };
    settle(&mut c, &mut check);
    let rss = replica_sets(&mut c);
    assert_eq!(rss.len(), 2);
    let new_rs = rss
        .iter()
        .map(|r| meta::name(r).to_string())
        .find(|n| *n != old_rs)
        .unwrap();
    let old = get(&mut c, "apps/v1", "ReplicaSet", &old_rs).unwrap();
    assert_eq!(old["spec"]["replicas"], 0);
    let scaling: Vec<String> = events(&mut c)[before..]
        .iter()
        .filter(|e| e.0 == "ScalingReplicaSet")
        .map(|e| e.1.clone())
        .collect();
    assert_eq!(
        scaling,
        vec![
            format!("Scaled up replica set {new_rs} from 0 to 1"),
            format!("Scaled down replica set {old_rs} from 3 to 2"),
            format!("Scaled up replica set {new_rs} from 1 to 2"),
            format!("Scaled down replica set {old_rs} from 2 to 1"),
            format!("Scaled up replica set {new_rs} from 2 to 3"),
            format!("Scaled down replica set {old_rs} from 1 to 0"),
        ]
    );
    let d = get(&mut c, "apps/v1", "Deployment", "nginx").unwrap();
    assert_eq!(
        d["metadata"]["annotations"]["deployment.kubernetes.io/revision"],
        "2"
    );
    let pods = list(&mut c, "v1", "Pod");
    assert_eq!(pods.len(), 3);
    assert!(pods.iter().all(|p| meta::name(p).starts_with(&new_rs)));
    // Roll back: the old ReplicaSet is found again and becomes revision 3.
    kubectl(&mut c, &["rollout", "undo", "deployment/nginx"]);
    settle(&mut c, &mut check);
    let old = get(&mut c, "apps/v1", "ReplicaSet", &old_rs).unwrap();
    assert_eq!(old["spec"]["replicas"], 3);
    assert_eq!(
        old["metadata"]["annotations"]["deployment.kubernetes.io/revision"],
        "3"
    );
    assert_eq!(replica_sets(&mut c).len(), 2);
}

#[test]
fn recreate_scales_old_to_zero_first() {
    let extra = "  strategy:\n    type: Recreate\n";
    let mut c = Cluster::from_text("d.yaml", &deployment("web", 2, "nginx:1.26", extra)).unwrap();
    settle(&mut c, &mut |_| {});
    let old_rs = meta::name(&replica_sets(&mut c)[0]).to_string();
    let before = events(&mut c).len();
    kubectl(&mut c, &["set", "image", "deployment/web", "c=nginx:1.27"]);
    settle(&mut c, &mut |_| {});
    let scaling: Vec<String> = events(&mut c)[before..]
        .iter()
        .filter(|e| e.0 == "ScalingReplicaSet")
        .map(|e| e.1.clone())
        .collect();
    assert_eq!(scaling.len(), 2, "{scaling:?}");
    assert_eq!(
        scaling[0],
        format!("Scaled down replica set {old_rs} from 2 to 0")
    );
    assert!(scaling[1].ends_with("from 0 to 2"), "{scaling:?}");
}

#[test]
fn paused_deployment_does_not_roll_out() {
    let mut c = Cluster::from_text("d.yaml", &deployment("web", 2, "nginx:1.26", "")).unwrap();
    settle(&mut c, &mut |_| {});
    kubectl(&mut c, &["rollout", "pause", "deployment/web"]);
    kubectl(&mut c, &["set", "image", "deployment/web", "c=nginx:1.27"]);
    settle(&mut c, &mut |_| {});
    assert_eq!(replica_sets(&mut c).len(), 1);
    let d = get(&mut c, "apps/v1", "Deployment", "web").unwrap();
    let prog = d["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["type"] == "Progressing")
        .unwrap()
        .clone();
    assert_eq!(prog["reason"], "DeploymentPaused");
    kubectl(&mut c, &["rollout", "resume", "deployment/web"]);
    settle(&mut c, &mut |_| {});
    assert_eq!(replica_sets(&mut c).len(), 2);
}

#[test]
fn deleting_the_deployment_removes_its_replicasets_and_pods() {
    let mut c = Cluster::from_text("default.yaml", NGINX).unwrap();
    run(&mut c);
    assert_eq!(list(&mut c, "v1", "Pod").len(), 3);
    kubectl(&mut c, &["delete", "deployment", "nginx"]);
    run(&mut c);
    assert!(replica_sets(&mut c).is_empty());
    assert!(list(&mut c, "v1", "Pod").is_empty());
}

/// A burst of ReplicaSets is synced one key per event, as a worker takes one key at a time:
/// no single step of the simulation creates the pods of two ReplicaSets (which kept the page
/// busy for hundreds of milliseconds when 30 Deployments were applied at once).
#[test]
fn the_replicaset_worker_syncs_one_replicaset_per_event() {
    let text = (0..4)
        .map(|i| deployment(&format!("app-{i}"), 3, "nginx:1.27", ""))
        .collect::<Vec<_>>()
        .join("---\n");
    let mut c = Cluster::from_text("burst.yaml", &text).unwrap();
    let mut owners_per_step = Vec::new();
    while c.now() < 5_000 {
        let before = c.trace.records.len();
        if !c.step_one() {
            break;
        }
        let creators: std::collections::BTreeSet<String> = c.trace.records[before..]
            .iter()
            .filter(|r| r.action == "reconcile" && r.summary.contains("creating"))
            .filter_map(|r| {
                let s = r.summary.split("ReplicaSet default/").nth(1)?;
                Some(s.split(' ').next()?.to_string())
            })
            .collect();
        if !creators.is_empty() {
            owners_per_step.push(creators);
        }
    }
    assert!(
        owners_per_step.len() >= 4,
        "every ReplicaSet creates its pods: {owners_per_step:?}"
    );
    assert!(
        owners_per_step.iter().all(|s| s.len() == 1),
        "a step created pods for several ReplicaSets: {owners_per_step:?}"
    );
    assert_eq!(list(&mut c, "v1", "Pod").len(), 12);
}

const BARE_REPLICASET: &str = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: c\n        image: nginx:1.27\n";

/// A JSON merge patch of an object in `default`, or of its `subresource`.
fn merge_patch(
    c: &mut Cluster,
    api_version: &str,
    kind: &str,
    name: &str,
    subresource: Option<&str>,
    body: Value,
) {
    let info = for_kind(api_version, kind).unwrap();
    let mut req = Request::new(
        Verb::Patch(PatchType::Merge),
        info,
        admin_credentials(),
        "test",
    )
    .namespace(Some("default"))
    .name(name);
    if let Some(sub) = subresource {
        req = req.subresource(sub);
    }
    c.request(&req.body(body)).unwrap();
}

/// The pods a ReplicaSet controls, by name.
fn controlled_by(c: &mut Cluster, rs: &str) -> Vec<String> {
    list(c, "v1", "Pod")
        .iter()
        .filter(|p| {
            meta::controller_ref(p).is_some_and(|r| r["kind"] == "ReplicaSet" && r["name"] == rs)
        })
        .map(|p| meta::name(p).to_string())
        .collect()
}

#[test]
fn a_pod_relabelled_out_of_the_selector_is_released_and_adopted_when_it_matches_again() {
    let mut c = Cluster::from_text("rs.yaml", BARE_REPLICASET).unwrap();
    run(&mut c);
    let first = controlled_by(&mut c, "web");
    assert_eq!(first.len(), 2);
    // Out of the selector: released (no owner any more) and replaced.
    merge_patch(
        &mut c,
        "v1",
        "Pod",
        &first[0],
        None,
        json!({"metadata": {"labels": {"app": "elsewhere"}}}),
    );
    run(&mut c);
    let pod = get(&mut c, "v1", "Pod", &first[0]).unwrap();
    assert!(meta::controller_ref(&pod).is_none(), "{pod}");
    let now = controlled_by(&mut c, "web");
    assert_eq!(now.len(), 2, "{now:?}");
    assert!(!now.contains(&first[0]));
    // Back in: the orphan is adopted, and one of three is deleted again.
    merge_patch(
        &mut c,
        "v1",
        "Pod",
        &first[0],
        None,
        json!({"metadata": {"labels": {"app": "web"}}}),
    );
    run(&mut c);
    let pod = get(&mut c, "v1", "Pod", &first[0]);
    let adopted = pod
        .as_ref()
        .and_then(|p| meta::controller_ref(p).map(|r| r["name"] == "web"));
    let names: Vec<(String, String)> = events(&mut c)
        .into_iter()
        .map(|(reason, message, _)| (reason, message))
        .collect();
    assert!(
        adopted == Some(true) || pod.is_none(),
        "the orphan is adopted (or adopted and then deleted): {pod:?}"
    );
    assert!(
        names.iter().any(|(r, _)| r == "SuccessfulDelete"),
        "{names:?}"
    );
    assert_eq!(controlled_by(&mut c, "web").len(), 2);
    let status = &get(&mut c, "apps/v1", "ReplicaSet", "web").unwrap()["status"];
    assert_eq!(status["replicas"], 2, "{status}");
}

#[test]
fn new_template_labels_are_counted_against_unchanged_pods() {
    let mut c = Cluster::from_text("rs.yaml", BARE_REPLICASET).unwrap();
    run(&mut c);
    let status = get(&mut c, "apps/v1", "ReplicaSet", "web").unwrap()["status"].clone();
    assert_eq!(status["fullyLabeledReplicas"], 2, "{status}");
    // The pods do not change; the labels they are measured against do.
    merge_patch(
        &mut c,
        "apps/v1",
        "ReplicaSet",
        "web",
        None,
        json!({"spec": {"template": {"metadata": {"labels": {"tier": "front"}}}}}),
    );
    run(&mut c);
    let status = get(&mut c, "apps/v1", "ReplicaSet", "web").unwrap()["status"].clone();
    assert_eq!(status["replicas"], 2, "{status}");
    assert!(status.get("fullyLabeledReplicas").is_none(), "{status}");
}
