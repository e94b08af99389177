//! kubectl, as a client of the simulated kube-apiserver.

pub mod printers;
