//! ImageLocality: favours nodes that already hold the pod's images, scaled by how widely
//! each image is spread so one node does not attract everything (`plugins/imagelocality`).

use crate::scheduler::framework::*;

pub const NAME: &str = "ImageLocality";
const MB: i64 = 1024 * 1024;
pub const MIN_THRESHOLD: i64 = 23 * MB;
pub const MAX_CONTAINER_THRESHOLD: i64 = 1000 * MB;

pub struct ImageLocality;

impl Plugin for ImageLocality {
    fn name(&self) -> &'static str {
        NAME
    }
}

/// `calculatePriority`: the summed image score clamped and scaled to 0..=100.
pub fn calculate_priority(sum: i64, num_containers: usize) -> i64 {
    let max_threshold = MAX_CONTAINER_THRESHOLD * num_containers as i64;
    if max_threshold <= MIN_THRESHOLD {
        return 0;
    }
    let s = sum.clamp(MIN_THRESHOLD, max_threshold);
    MAX_NODE_SCORE * (s - MIN_THRESHOLD) / (max_threshold - MIN_THRESHOLD)
}

impl ScorePlugin for ImageLocality {
    fn score(&self, _: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
        // The spread is over all nodes of the snapshot (see `count_image_spread`).
        let total = node.total_nodes.max(1);
        let images = pod.images();
        let sum: i64 = images
            .iter()
            .filter_map(|i| node.image_states.get(i.as_str()))
            .map(|s| (s.size as f64 * (s.num_nodes as f64 / total as f64)) as i64)
            .sum();
        Ok(calculate_priority(sum, images.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn score_follows_size_and_spread() {
        let pod = PodInfo::new(&json!({"metadata": {"name": "p"}, "spec": {"containers": [
            {"name": "a", "image": "gcr.io/40"}, {"name": "b", "image": "gcr.io/300"}]}}));
        let mut n = NodeInfo::with_allocatable("n", 1, 1);
        n.total_nodes = 2;
        n.image_states.insert(
            "gcr.io/40:latest".into(),
            ImageState {
                size: 40 * MB,
                num_nodes: 1,
            },
        );
        n.image_states.insert(
            "gcr.io/300:latest".into(),
            ImageState {
                size: 300 * MB,
                num_nodes: 1,
            },
        );
        // sum = (40 + 300) / 2 MiB = 170 MiB; (170 - 23) * 100 / (2000 - 23) = 7.
        assert_eq!(
            ImageLocality
                .score(&CycleState::default(), &pod, &n)
                .unwrap(),
            7
        );
        n.image_states.clear();
        assert_eq!(
            ImageLocality
                .score(&CycleState::default(), &pod, &n)
                .unwrap(),
            0
        );
        assert_eq!(calculate_priority(2000 * MB, 1), 100);
    }
}
