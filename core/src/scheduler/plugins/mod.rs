//! The plugin registry and the default profile (`plugins/registry.go`,
//! `apis/config/v1/default_plugins.go`): which plugins run at each extension point, in order,
//! and the weight of each score plugin.

pub mod balanced_allocation;
pub mod default_binder;
pub mod default_preemption;
pub mod image_locality;
pub mod inter_pod_affinity;
pub mod node_affinity;
pub mod node_name;
pub mod node_ports;
pub mod node_resources_fit;
pub mod node_unschedulable;
pub mod pod_topology_spread;
pub mod taint_toleration;

use super::framework::*;

/// Every plugin of the default profile, in `getDefaultPlugins` order (SchedulingGates,
/// PrioritySort and the volume plugins have no work in this simulation and are not listed).
pub const DEFAULT_PLUGINS: &[&str] = &[
    node_unschedulable::NAME,
    node_name::NAME,
    taint_toleration::NAME,
    node_affinity::NAME,
    node_ports::NAME,
    node_resources_fit::NAME,
    pod_topology_spread::NAME,
    inter_pod_affinity::NAME,
    default_preemption::NAME,
    balanced_allocation::NAME,
    image_locality::NAME,
    default_binder::NAME,
];

/// A scheduling profile: the plugins of each extension point.
pub struct Profile {
    pub name: &'static str,
    pub pre_filter: Vec<Box<dyn PreFilterPlugin>>,
    pub filter: Vec<Box<dyn FilterPlugin>>,
    pub post_filter: Vec<Box<dyn PostFilterPlugin>>,
    pub pre_score: Vec<Box<dyn PreScorePlugin>>,
    /// Score plugins with their weights.
    pub score: Vec<(Box<dyn ScorePlugin>, i64)>,
    pub binder: default_binder::DefaultBinder,
}

/// The `default-scheduler` profile with kube-scheduler's default configuration.
pub fn default_profile() -> Profile {
    profile(&crate::scheduler::config::SchedulerConfig::default())
}

/// The `default-scheduler` profile, with the plugin arguments of `config`.
pub fn profile(config: &crate::scheduler::config::SchedulerConfig) -> Profile {
    use balanced_allocation::BalancedAllocation;
    use image_locality::ImageLocality;
    use inter_pod_affinity::InterPodAffinity;
    use node_affinity::NodeAffinity;
    use node_name::NodeName;
    use node_ports::NodePorts;
    use node_resources_fit::NodeResourcesFit;
    use node_unschedulable::NodeUnschedulable;
    use pod_topology_spread::PodTopologySpread;
    use taint_toleration::TaintToleration;
    Profile {
        name: "default-scheduler",
        pre_filter: vec![
            Box::new(NodePorts),
            Box::new(NodeResourcesFit::default()),
            Box::new(PodTopologySpread),
            Box::new(InterPodAffinity),
        ],
        filter: vec![
            Box::new(NodeUnschedulable),
            Box::new(NodeName),
            Box::new(TaintToleration),
            Box::new(NodeAffinity),
            Box::new(NodePorts),
            Box::new(NodeResourcesFit::default()),
            Box::new(PodTopologySpread),
            Box::new(InterPodAffinity),
        ],
        post_filter: vec![Box::new(default_preemption::DefaultPreemption)],
        pre_score: vec![
            Box::new(TaintToleration),
            Box::new(NodeAffinity),
            Box::new(PodTopologySpread),
            Box::new(InterPodAffinity),
            Box::new(BalancedAllocation),
        ],
        score: vec![
            (Box::new(TaintToleration), 3),
            (Box::new(NodeAffinity), 2),
            (
                Box::new(NodeResourcesFit {
                    resources: config.fit_resources.clone(),
                }),
                1,
            ),
            (Box::new(PodTopologySpread), 2),
            (Box::new(InterPodAffinity), 2),
            (Box::new(BalancedAllocation), 1),
            (Box::new(ImageLocality), 1),
        ],
        binder: default_binder::DefaultBinder,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_weights_follow_the_defaults() {
        let p = default_profile();
        let w: Vec<(&str, i64)> = p.score.iter().map(|(s, w)| (s.name(), *w)).collect();
        assert_eq!(
            w,
            [
                ("TaintToleration", 3),
                ("NodeAffinity", 2),
                ("NodeResourcesFit", 1),
                ("PodTopologySpread", 2),
                ("InterPodAffinity", 2),
                ("NodeResourcesBalancedAllocation", 1),
                ("ImageLocality", 1)
            ]
        );
    }
}
