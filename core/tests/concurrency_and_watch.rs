//! Optimistic concurrency and watches, through the apiserver as components use it.

use kubeplay_core::api::resources::for_kind;
use kubeplay_core::apiserver::{Request, Verb};
use kubeplay_core::cluster::{admin_credentials, Cluster};
use kubeplay_core::json;

fn cluster() -> Cluster {
    let mut c = Cluster::from_text(
        "empty.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: seed\n",
    )
    .unwrap();
    c.run(None);
    c
}

fn cm_request(verb: Verb) -> Request {
    Request::new(
        verb,
        for_kind("v1", "ConfigMap").unwrap(),
        admin_credentials(),
        "test",
    )
    .namespace(Some("default"))
}

#[test]
fn a_stale_update_gets_409_conflict_with_the_real_text() {
    let mut c = cluster();
    let created = c
        .request(&cm_request(Verb::Create).body(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cfg"}, "data": {"a": "1"}})))
        .unwrap();
    let mut first = created.clone();
    first["data"]["a"] = json!("2");
    c.request(&cm_request(Verb::Update).name("cfg").body(first))
        .expect("fresh update succeeds");
    let mut stale = created;
    stale["data"]["a"] = json!("3");
    let err = c
        .request(&cm_request(Verb::Update).name("cfg").body(stale))
        .unwrap_err();
    assert_eq!(err.code, 409);
    assert_eq!(err.reason, "Conflict");
    assert_eq!(
        err.message,
        "Operation cannot be fulfilled on configmaps \"cfg\": the object has been modified; please apply your changes to the latest version and try again"
    );
    let now = c.request(&cm_request(Verb::Get).name("cfg")).unwrap();
    assert_eq!(now["data"]["a"], "2", "the stale write changed nothing");
}

#[test]
fn a_watch_from_revision_r_sees_every_later_change_once_in_order() {
    let mut c = cluster();
    let base = c.request(&cm_request(Verb::Create).body(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "w"}, "data": {"n": "0"}}))).unwrap();
    let r: i64 = base["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    for i in 1..=3 {
        let mut cur = c.request(&cm_request(Verb::Get).name("w")).unwrap();
        cur["data"]["n"] = json!(i.to_string());
        c.request(&cm_request(Verb::Update).name("w").body(cur))
            .unwrap();
    }
    let mut watch = Request::new(
        Verb::Watch,
        for_kind("v1", "ConfigMap").unwrap(),
        admin_credentials(),
        "watcher",
    )
    .namespace(Some("default"));
    watch.resource_version = Some(r.to_string());
    let now = c.now();
    let id = c.api.watch(now, &watch, &mut c.trace).unwrap();
    // A change after the watch started arrives too.
    c.request(&cm_request(Verb::Delete).name("w")).unwrap();
    let events = c.api.take_watch_events(id);
    let seen: Vec<(String, String)> = events
        .iter()
        .map(|e| {
            (
                e.kind.to_string(),
                e.object["data"]["n"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        vec![
            ("MODIFIED".into(), "1".into()),
            ("MODIFIED".into(), "2".into()),
            ("MODIFIED".into(), "3".into()),
            ("DELETED".into(), "3".into())
        ]
    );
    let revs: Vec<i64> = events.iter().map(|e| e.revision).collect();
    assert!(revs.windows(2).all(|w| w[0] < w[1]), "{revs:?}");
    assert!(revs[0] > r);
    assert!(
        c.api.take_watch_events(id).is_empty(),
        "each change is delivered once"
    );
}

#[test]
fn an_informers_list_hands_over_the_watch_caches_objects_not_copies() {
    let mut c = cluster();
    let nodes = for_kind("v1", "Node").unwrap();
    let mut list = Request::new(Verb::List, nodes, admin_credentials(), "test");
    let copied = c.request(&list).unwrap();
    let copied = copied["items"].as_array().expect("items").clone();
    assert_eq!(copied.len(), 3, "the default scenario's three nodes");

    list.share_items = true;
    let response = c.request(&list).unwrap();
    assert_eq!(response["items"], json!([]), "the items are not copied in");
    let shared = c.api.take_list_items();
    assert_eq!(shared.len(), copied.len());
    for (item, copy) in shared.iter().zip(&copied) {
        assert_eq!(**item, *copy, "the same objects, in the same order");
        let name = item["metadata"]["name"].as_str().unwrap();
        let stored = c.api.storage.get_shared(nodes, None, name).unwrap();
        assert!(
            std::rc::Rc::ptr_eq(item, &stored),
            "{name}: the stored object itself"
        );
    }
    assert!(c.api.take_list_items().is_empty(), "taken once");
}
