//! The scenario: a multi-document YAML file of Kubernetes objects, with an optional
//! `kubeplay/v1alpha1` `Scenario` document (being written).
