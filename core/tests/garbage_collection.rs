//! The garbage collector's foreground and orphan propagation, end to end with the real
//! kubelets: `kubectl delete deployment --cascade=foreground|orphan`. (Background propagation,
//! the default, is covered in `controllers.rs`.)

use kubeplay_core::api::value::Value;
use kubeplay_core::api::{meta, resources::for_kind, Object};
use kubeplay_core::apiserver::{Request, Verb};
use kubeplay_core::cluster::{admin_credentials, Cluster};

const NGINX: &str = include_str!("../../public/scenarios/default.yaml");

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

fn names(objs: &[Object]) -> Vec<String> {
    objs.iter().map(|o| meta::name(o).to_string()).collect()
}

fn running_default() -> (Cluster, String, Vec<String>) {
    let mut c = Cluster::from_text("default.yaml", NGINX).unwrap();
    run(&mut c);
    let rss = list(&mut c, "apps/v1", "ReplicaSet");
    assert_eq!(rss.len(), 1);
    let pods = list(&mut c, "v1", "Pod");
    assert_eq!(pods.len(), 3);
    assert!(pods
        .iter()
        .all(|p| p.pointer("/status/phase").and_then(Value::as_str) == Some("Running")));
    (c, meta::name(&rss[0]).to_string(), names(&pods))
}

fn finalizers(o: &Object) -> Vec<String> {
    o.pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn foreground_deletion_removes_pods_then_the_replicaset_then_the_deployment() {
    let (mut c, rs, pods) = running_default();
    let out = kubectl(
        &mut c,
        &["delete", "deployment", "nginx", "--cascade=foreground"],
    );
    assert_eq!(
        out,
        "deployment.apps \"nginx\" deleted from default namespace\n"
    );
    // The Deployment stays, with its deletionTimestamp and the finalizer.
    let d = get(&mut c, "apps/v1", "Deployment", "nginx").expect("still there");
    assert!(d.pointer("/metadata/deletionTimestamp").is_some());
    assert_eq!(finalizers(&d), vec!["foregroundDeletion"]);
    let start = c.now();
    c.run(Some(start));

    // Step through every event, checking the order of disappearance after each.
    let mut saw_rs_waiting = false;
    let mut saw_deployment_waiting_with_pods = false;
    let mut gone_at: [Option<u64>; 3] = [None; 3];
    let mut steps = 0;
    loop {
        let d = get(&mut c, "apps/v1", "Deployment", "nginx");
        let r = get(&mut c, "apps/v1", "ReplicaSet", &rs);
        let p = list(&mut c, "v1", "Pod");
        if let Some(r) = &r {
            assert!(d.is_some(), "the ReplicaSet outlived the Deployment");
            if r.pointer("/metadata/deletionTimestamp").is_some() {
                assert_eq!(finalizers(r), vec!["foregroundDeletion"]);
                saw_rs_waiting = true;
            }
        }
        if !p.is_empty() {
            assert!(
                r.is_some(),
                "pods outlived their ReplicaSet: {:?}",
                names(&p)
            );
            if d.is_some() {
                saw_deployment_waiting_with_pods = true;
            }
        }
        let now = c.now();
        for (i, alive) in [d.is_some(), r.is_some(), !p.is_empty()]
            .into_iter()
            .enumerate()
        {
            if !alive && gone_at[i].is_none() {
                gone_at[i] = Some(now);
            }
        }
        if d.is_none() {
            break;
        }
        assert!(
            c.step_one(),
            "the queue ran dry with the Deployment still there"
        );
        steps += 1;
        assert!(steps < 100_000, "never finished");
    }
    assert!(
        saw_rs_waiting,
        "the ReplicaSet was never deleted in the foreground"
    );
    assert!(saw_deployment_waiting_with_pods);
    let [d_gone, rs_gone, pods_gone] = gone_at.map(Option::unwrap);
    assert!(pods_gone <= rs_gone && rs_gone <= d_gone);
    // The pods were deleted gracefully: their kubelets stopped the containers first.
    assert!(pods_gone > start);
    run(&mut c);
    assert!(list(&mut c, "apps/v1", "ReplicaSet").is_empty());
    assert!(list(&mut c, "v1", "Pod").is_empty());

    // The trace tells the same story through the API: the GC deletes the ReplicaSet with
    // propagationPolicy Foreground, the pods, then removes each finalizer by a PATCH.
    let text = c.trace.to_text();
    let lines: Vec<&str> = text.lines().filter(|l| l.contains("gc.")).collect();
    let pos = |needle: &str| {
        text.lines()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no {needle:?} in\n{}", lines.join("\n")))
    };
    let rs_fg = pos(&format!(
        "the owner of ReplicaSet default/{rs} (Deployment nginx) is being deleted in the foreground and ReplicaSet default/{rs} has dependents of its own"
    ));
    let pod_fg = pos(&format!(
        "the owner of Pod default/{} (ReplicaSet {rs}) is being deleted in the foreground",
        pods[0]
    ));
    let rs_done = pos(&format!(
        "no dependent of ReplicaSet default/{rs} blocks its deletion any more: removing the foregroundDeletion finalizer"
    ));
    let d_done = pos(
        "no dependent of Deployment default/nginx blocks its deletion any more: removing the foregroundDeletion finalizer",
    );
    assert!(rs_fg < pod_fg && pod_fg < rs_done && rs_done < d_done);
    let rs_removed = pos(&format!(
        "last finalizer removed: DELETE /registry/replicasets/default/{rs}"
    ));
    let d_removed = pos("last finalizer removed: DELETE /registry/deployments/default/nginx");
    assert!(rs_done < rs_removed && rs_removed < d_done && d_done < d_removed);
    for p in &pods {
        assert!(pos(&format!("DELETE /registry/pods/default/{p} ")) < rs_removed);
    }
    assert!(text.contains(&format!(
        "PATCH /apis/apps/v1/namespaces/default/replicasets/{rs}"
    )));
    assert!(text.contains("PATCH /apis/apps/v1/namespaces/default/deployments/nginx"));
}

#[test]
fn orphan_deletion_keeps_the_replicaset_and_its_pods() {
    let (mut c, rs, pods) = running_default();
    let rs_obj = get(&mut c, "apps/v1", "ReplicaSet", &rs).unwrap();
    assert_eq!(
        rs_obj["metadata"]["ownerReferences"][0]["kind"],
        "Deployment"
    );
    kubectl(
        &mut c,
        &["delete", "deployment", "nginx", "--cascade=orphan"],
    );
    let d = get(&mut c, "apps/v1", "Deployment", "nginx").expect("still there");
    assert_eq!(finalizers(&d), vec!["orphan"]);
    run(&mut c);
    assert!(get(&mut c, "apps/v1", "Deployment", "nginx").is_none());
    // The ReplicaSet stays, without an owner, and keeps its pods, which still name it.
    let rs_obj = get(&mut c, "apps/v1", "ReplicaSet", &rs).expect("ReplicaSet kept");
    let refs = rs_obj.pointer("/metadata/ownerReferences");
    assert!(
        refs.is_none_or(|r| r.as_array().is_some_and(|a| a.is_empty())),
        "{refs:?}"
    );
    assert!(rs_obj.pointer("/metadata/deletionTimestamp").is_none());
    assert_eq!(rs_obj["spec"]["replicas"], 3);
    assert_eq!(rs_obj["status"]["readyReplicas"], 3);
    let left = list(&mut c, "v1", "Pod");
    assert_eq!(names(&left), pods);
    for p in &left {
        assert!(p.pointer("/metadata/deletionTimestamp").is_none());
        assert_eq!(p["metadata"]["ownerReferences"][0]["name"], rs.as_str());
        assert_eq!(p["status"]["phase"], "Running");
    }
    let text = c.trace.to_text();
    let orphan = text
        .lines()
        .position(|l| {
            l.contains(&format!(
                "Deployment default/nginx was deleted with propagationPolicy Orphan: removing its ownerReference from ReplicaSet default/{rs}, then the orphan finalizer"
            ))
        })
        .expect("the GC's orphan step");
    let after: Vec<&str> = text.lines().skip(orphan).collect();
    let patch_rs = after
        .iter()
        .position(|l| {
            l.contains(&format!(
                "PATCH /apis/apps/v1/namespaces/default/replicasets/{rs}"
            ))
        })
        .expect("the ReplicaSet is patched");
    let removed = after
        .iter()
        .position(|l| {
            l.contains("last finalizer removed: DELETE /registry/deployments/default/nginx")
        })
        .expect("the Deployment goes once the finalizer is removed");
    assert!(patch_rs < removed);

    // An orphan is just a ReplicaSet: it still replaces a pod that goes away.
    kubectl(&mut c, &["delete", "pod", &pods[0]]);
    run(&mut c);
    let now: Vec<String> = names(&list(&mut c, "v1", "Pod"));
    assert_eq!(now.len(), 3, "{now:?}");
    assert!(!now.contains(&pods[0]));
    assert!(now.iter().all(|n| n.starts_with(&format!("{rs}-"))));
    // Deleting the ReplicaSet now (background) takes its pods with it.
    kubectl(&mut c, &["delete", "replicaset", &rs]);
    run(&mut c);
    assert!(list(&mut c, "v1", "Pod").is_empty());
}

#[test]
fn orphaning_a_replicaset_leaves_its_pods_ownerless() {
    let (mut c, rs, pods) = running_default();
    kubectl(
        &mut c,
        &["delete", "deployment", "nginx", "--cascade=orphan"],
    );
    run(&mut c);
    kubectl(&mut c, &["delete", "replicaset", &rs, "--cascade=orphan"]);
    run(&mut c);
    assert!(get(&mut c, "apps/v1", "ReplicaSet", &rs).is_none());
    let left = list(&mut c, "v1", "Pod");
    assert_eq!(names(&left), pods);
    for p in &left {
        let refs = p.pointer("/metadata/ownerReferences");
        assert!(
            refs.is_none_or(|r| r.as_array().is_some_and(|a| a.is_empty())),
            "{refs:?}"
        );
        assert!(p.pointer("/metadata/deletionTimestamp").is_none());
    }
}

fn apply(c: &mut Cluster, text: &str) {
    let out = kubeplay_core::kubectl::run_with_source(
        c,
        &["apply".into(), "-f".into(), "-".into()],
        Some(("-", text)),
    );
    assert_eq!(out.exit_code, 0, "{}", out.stderr);
}

fn idle_replicaset(name: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: {name}\nspec:\n  replicas: 0\n  selector:\n    matchLabels:\n      rs: {name}\n  template:\n    metadata:\n      labels:\n        rs: {name}\n    spec:\n      containers:\n      - name: c\n        image: nginx:1.27\n"
    )
}

/// A pod no scheduler takes, owned (not controlled) by the given owners.
fn owned_pod(name: &str, owners: &[(&str, &str, &str)]) -> String {
    let refs: String = owners
        .iter()
        .map(|(kind, n, uid)| {
            let api = if *kind == "ReplicaSet" {
                "apps/v1"
            } else {
                "v1"
            };
            format!("  - apiVersion: {api}\n    kind: {kind}\n    name: {n}\n    uid: {uid}\n")
        })
        .collect();
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  ownerReferences:\n{refs}spec:\n  schedulerName: manual\n  containers:\n  - name: c\n    image: nginx:1.27\n"
    )
}

#[test]
fn a_dependent_with_another_owner_only_loses_the_reference() {
    let mut c = Cluster::from_text("a.yaml", &idle_replicaset("a")).unwrap();
    apply(&mut c, &idle_replicaset("b"));
    run(&mut c);
    let a = get(&mut c, "apps/v1", "ReplicaSet", "a").unwrap();
    let b = get(&mut c, "apps/v1", "ReplicaSet", "b").unwrap();
    let pod = owned_pod(
        "shared",
        &[
            ("ReplicaSet", "a", meta::uid(&a)),
            ("ReplicaSet", "b", meta::uid(&b)),
        ],
    );
    apply(&mut c, &pod);
    run(&mut c);
    assert!(get(&mut c, "v1", "Pod", "shared").is_some());
    kubectl(&mut c, &["delete", "replicaset", "a"]);
    run(&mut c);
    let p = get(&mut c, "v1", "Pod", "shared").expect("b still owns it");
    let refs = p["metadata"]["ownerReferences"].as_array().unwrap();
    assert_eq!(refs.len(), 1, "{refs:?}");
    assert_eq!(refs[0]["name"], "b");
    assert!(c.trace.to_text().contains(
        "garbage-collector: Pod default/shared still has an owner (ReplicaSet b): removing its ownerReference(s) to ReplicaSet a"
    ));
    kubectl(&mut c, &["delete", "replicaset", "b"]);
    run(&mut c);
    assert!(get(&mut c, "v1", "Pod", "shared").is_none());
}

#[test]
fn a_dependent_of_an_owner_that_never_existed_is_deleted() {
    let text = owned_pod(
        "stray",
        &[(
            "ReplicaSet",
            "ghost",
            "00000000-0000-0000-0000-000000000000",
        )],
    );
    let mut c = Cluster::from_text("p.yaml", &text).unwrap();
    run(&mut c);
    assert!(get(&mut c, "v1", "Pod", "stray").is_none());
    let text = c.trace.to_text();
    assert!(text.contains("GET /apis/apps/v1/namespaces/default/replicasets/ghost"));
    assert!(text.contains(
        "garbage-collector: every owner of Pod default/stray is gone: deleting it (propagationPolicy Background)"
    ));
}
