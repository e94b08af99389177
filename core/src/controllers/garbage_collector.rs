//! The garbage collector (`pkg/controller/garbagecollector/`), background propagation only:
//! when an owner is gone, every dependent whose ownerReferences all name missing owners is
//! deleted, so deleting a Deployment removes its ReplicaSets and, through them, their pods.

use super::workqueue::WorkQueue;
use super::{controller_credentials, manager_credentials, WORKER_DELAY_MS};
use crate::api::{meta, resources::for_kind, Object, ResourceInfo};
use crate::apiserver::{Credentials, Verb};
use crate::cluster::component::{Component, Ctx, InformerSpec, Input};
use crate::cluster::informer::key_of;
use crate::trace::Component as Lane;
use serde_json::Value;

/// The kinds it watches, as owners and as dependents.
const KINDS: &[(&str, &str)] = &[
    ("apps/v1", "Deployment"),
    ("apps/v1", "ReplicaSet"),
    ("v1", "Pod"),
];

fn info(i: usize) -> &'static ResourceInfo {
    for_kind(KINDS[i].0, KINDS[i].1).expect("served")
}

#[derive(Default)]
pub struct GarbageCollector {
    /// `informer index|namespace/name` of dependents to check.
    queue: WorkQueue,
}

fn owner_uids(o: &Object) -> Vec<(String, String)> {
    o.pointer("/metadata/ownerReferences")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|r| {
                    (
                        r["kind"].as_str().unwrap_or("").to_string(),
                        r["uid"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

impl GarbageCollector {
    fn enqueue(&mut self, ctx: &mut Ctx<'_>, key: String) {
        let was_empty = self.queue.is_empty();
        self.queue.add(key);
        if was_empty {
            ctx.after(WORKER_DELAY_MS, 0, false);
        }
    }

    fn owner_exists(&self, ctx: &Ctx<'_>, ns: &str, kind: &str, uid: &str) -> Option<bool> {
        let i = KINDS.iter().position(|(_, k)| *k == kind)?;
        Some(ctx.cache(i).in_namespace(ns).any(|o| meta::uid(o) == uid))
    }

    fn sync(&mut self, ctx: &mut Ctx<'_>, key: &str) {
        let Some((i, k)) = key.split_once('|') else {
            return;
        };
        let i: usize = i.parse().unwrap_or(0);
        let Some(obj) = ctx.cache(i).get(k).cloned() else {
            return;
        };
        if obj.pointer("/metadata/deletionTimestamp").is_some() {
            return;
        }
        let ns = meta::namespace(&obj).unwrap_or("").to_string();
        let owners = owner_uids(&obj);
        if owners.is_empty() {
            return;
        }
        // Only owners of watched kinds can be judged; all of them must be gone.
        let all_gone = owners
            .iter()
            .all(|(kind, uid)| self.owner_exists(ctx, &ns, kind, uid) == Some(false));
        if !all_gone {
            return;
        }
        ctx.record(
            "reconcile",
            format!(
                "garbage-collector: every owner of {} {k} is gone: deleting it (background propagation)",
                KINDS[i].1
            ),
        );
        let req = ctx
            .request(Verb::Delete, info(i))
            .namespace(Some(&ns))
            .name(meta::name(&obj));
        let _ = ctx.send(&req);
    }
}

impl Component for GarbageCollector {
    fn name(&self) -> String {
        "generic-garbage-collector".into()
    }
    fn lane(&self) -> Lane {
        Lane::KubeControllerManager
    }
    fn credentials(&self) -> Credentials {
        controller_credentials("generic-garbage-collector")
    }
    fn informer_credentials(&self) -> Credentials {
        manager_credentials()
    }
    fn informers(&self) -> Vec<InformerSpec> {
        (0..KINDS.len())
            .map(|i| InformerSpec::all(info(i)))
            .collect()
    }
    fn handle(&mut self, ctx: &mut Ctx<'_>, input: Input) {
        match input {
            Input::Started => {}
            Input::Watch { informer, event } => {
                if event.kind != "DELETED" {
                    return;
                }
                // An owner went away: check the objects that named it.
                let uid = meta::uid(&event.object).to_string();
                let ns = meta::namespace(&event.object).unwrap_or("").to_string();
                let mut keys = Vec::new();
                for (i, _) in KINDS.iter().enumerate() {
                    for o in ctx.cache(i).in_namespace(&ns) {
                        if owner_uids(o).iter().any(|(_, u)| *u == uid) {
                            keys.push(format!("{i}|{}", key_of(o)));
                        }
                    }
                }
                let _ = informer;
                for k in keys {
                    self.enqueue(ctx, k);
                }
            }
            Input::Timer(_) => {
                while let Some(k) = self.queue.pop() {
                    self.sync(ctx, &k);
                }
            }
        }
    }
}
