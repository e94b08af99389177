//! kube-controller-manager's controllers, each a reconcile loop over informers and a work
//! queue: event handlers only enqueue keys; `sync(key)` reads the caches, writes through the
//! apiserver and is safe to repeat (`pkg/controller/`).

pub mod deployment;
pub mod endpoints;
pub mod endpointslice;
pub mod events;
pub mod expectations;
pub mod garbage_collector;
pub mod namespace_defaults;
pub mod node_lifecycle;
pub mod podutil;
pub mod replicaset;
pub mod workqueue;

use crate::apiserver::Credentials;
use crate::cluster::component::Component;

/// How long a worker takes to pick a key off its queue.
pub const WORKER_DELAY_MS: u64 = 1;

/// A controller's identity with `--use-service-account-credentials`.
pub fn controller_credentials(service_account: &str) -> Credentials {
    Credentials::ServiceAccountToken {
        namespace: "kube-system".into(),
        name: service_account.into(),
    }
}

/// kube-controller-manager's own identity, used by its shared informers.
pub fn manager_credentials() -> Credentials {
    Credentials::ClientCertificate {
        common_name: "system:kube-controller-manager".into(),
        organizations: vec![],
    }
}

/// The components that run from the start.
pub fn control_plane(
    scheduler: &crate::scheduler::config::SchedulerConfig,
) -> Vec<Box<dyn Component>> {
    vec![
        Box::new(namespace_defaults::ServiceAccountController::default()),
        Box::new(namespace_defaults::RootCaPublisher::default()),
        Box::new(deployment::DeploymentController::default()),
        Box::new(replicaset::ReplicaSetController::default()),
        Box::new(garbage_collector::GarbageCollector::default()),
        Box::new(endpointslice::EndpointSliceController::default()),
        Box::new(endpoints::EndpointsController::default()),
        Box::new(node_lifecycle::NodeLifecycleController::default()),
        Box::new(crate::scheduler::Scheduler::with_config(scheduler)),
    ]
}
