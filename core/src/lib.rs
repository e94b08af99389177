//! kubeplay-core: a deterministic simulation of a Kubernetes 1.35 cluster.
//!
//! Every component talks only through kube-apiserver, as in a real cluster; the trace of API
//! requests, etcd writes and watch deliveries is the simulation's log.

pub mod api;
pub mod apiserver;
pub mod base64;
pub mod benchmark;
pub mod cluster;
pub mod controllers;
pub mod etcd;
pub mod etcdctl;
pub mod explain;
pub mod ftl_source;
pub mod kernel;
pub mod kubectl;
pub mod kubelet;
pub mod kubeproxy;
pub mod scenario;
pub mod scheduler;
pub mod share;
pub mod shell;
pub mod trace;
