//! The scheduler's configuration file, `KubeSchedulerConfiguration`
//! (`kubescheduler.config.k8s.io/v1`), as a scenario document: the part of it kubeplay models.
//! `percentageOfNodesToScore` and NodeResourcesFit's `scoringStrategy.resources` weights
//! (`LeastAllocated`); anything else is refused by name rather than silently ignored.

use super::plugins::node_resources_fit::ResourceName;
use crate::api::value::Value;

pub const API_VERSION: &str = "kubescheduler.config.k8s.io/v1";
pub const KIND: &str = "KubeSchedulerConfiguration";

/// What the scheduler runs with; the defaults are kube-scheduler's.
#[derive(Clone, Debug, PartialEq)]
pub struct SchedulerConfig {
    /// 0 = adaptive (`50 - nodes/125`, at least 5).
    pub percentage_of_nodes_to_score: i64,
    /// NodeResourcesFit's `scoringStrategy.resources`.
    pub fit_resources: Vec<(ResourceName, i64)>,
}

impl Default for SchedulerConfig {
    fn default() -> Self {
        SchedulerConfig {
            percentage_of_nodes_to_score: 0,
            fit_resources: vec![(ResourceName::Cpu, 1), (ResourceName::Memory, 1)],
        }
    }
}

fn unsupported(path: &str) -> String {
    format!("{path}: not supported by kubeplay (it models percentageOfNodesToScore and NodeResourcesFit's scoringStrategy.resources)")
}

fn invalid(path: &str, value: &Value, why: &str) -> String {
    format!("{path}: Invalid value: {value}: {why}")
}

/// Reads a `KubeSchedulerConfiguration`; an error names the field, as kube-scheduler's
/// validation does.
pub fn parse(doc: &Value) -> Result<SchedulerConfig, String> {
    let mut config = SchedulerConfig::default();
    let Some(top) = doc.as_object() else {
        return Err("a KubeSchedulerConfiguration must be a mapping".into());
    };
    for (k, v) in top {
        match k.as_str() {
            "apiVersion" | "kind" => {}
            "percentageOfNodesToScore" => {
                let p = v
                    .as_i64()
                    .filter(|p| (0..=100).contains(p))
                    .ok_or_else(|| {
                        invalid("percentageOfNodesToScore", v, "not in valid range [0-100]")
                    })?;
                config.percentage_of_nodes_to_score = p;
            }
            "profiles" => parse_profiles(v, &mut config)?,
            other => return Err(unsupported(other)),
        }
    }
    Ok(config)
}

fn parse_profiles(v: &Value, config: &mut SchedulerConfig) -> Result<(), String> {
    let profiles = v.as_array().ok_or("profiles: must be a list")?;
    if profiles.len() > 1 {
        return Err(unsupported("profiles[1]"));
    }
    let Some(profile) = profiles.first() else {
        return Ok(());
    };
    let profile = profile
        .as_object()
        .ok_or("profiles[0]: must be a mapping")?;
    for (k, v) in profile {
        match k.as_str() {
            "schedulerName" if v.as_str() == Some("default-scheduler") => {}
            "schedulerName" => {
                return Err(format!(
                    "profiles[0].schedulerName: Invalid value: {v}: kubeplay runs the default-scheduler profile only"
                ))
            }
            "percentageOfNodesToScore" => {
                let p = v.as_i64().filter(|p| (0..=100).contains(p)).ok_or_else(|| {
                    invalid(
                        "profiles[0].percentageOfNodesToScore",
                        v,
                        "not in valid range [0-100]",
                    )
                })?;
                config.percentage_of_nodes_to_score = p;
            }
            "pluginConfig" => {
                let list = v.as_array().ok_or("profiles[0].pluginConfig: must be a list")?;
                for (i, pc) in list.iter().enumerate() {
                    let path = format!("profiles[0].pluginConfig[{i}]");
                    match pc.get("name").and_then(Value::as_str) {
                        Some("NodeResourcesFit") => {
                            parse_fit_args(&format!("{path}.args"), &pc["args"], config)?
                        }
                        Some(other) => return Err(unsupported(&format!("{path} ({other})"))),
                        None => return Err(format!("{path}.name: Required value")),
                    }
                }
            }
            other => return Err(unsupported(&format!("profiles[0].{other}"))),
        }
    }
    Ok(())
}

fn parse_fit_args(path: &str, args: &Value, config: &mut SchedulerConfig) -> Result<(), String> {
    let Some(args) = args.as_object() else {
        return Ok(());
    };
    for (k, v) in args {
        if k == "apiVersion" || k == "kind" {
            continue;
        }
        if k != "scoringStrategy" {
            return Err(unsupported(&format!("{path}.{k}")));
        }
        let strategy = v
            .as_object()
            .ok_or(format!("{path}.scoringStrategy: must be a mapping"))?;
        for (sk, sv) in strategy {
            let p = format!("{path}.scoringStrategy.{sk}");
            match sk.as_str() {
                "type" if sv.as_str() == Some("LeastAllocated") => {}
                "type" => return Err(unsupported(&format!("{p} {sv}"))),
                "resources" => {
                    let list = sv.as_array().ok_or(format!("{p}: must be a list"))?;
                    let mut resources = Vec::new();
                    for (i, r) in list.iter().enumerate() {
                        let rp = format!("{p}[{i}]");
                        let name = r.get("name").and_then(Value::as_str).unwrap_or("");
                        let resource = match name {
                            "cpu" => ResourceName::Cpu,
                            "memory" => ResourceName::Memory,
                            _ => return Err(unsupported(&format!("{rp}.name {name:?}"))),
                        };
                        let weight = &r["weight"];
                        let w = weight
                            .as_i64()
                            .filter(|w| (1..=100).contains(w))
                            .ok_or_else(|| {
                                invalid(
                                    &format!("{rp}.weight"),
                                    weight,
                                    &format!(
                                        "resource weight of {name} not in valid range [1, 100]"
                                    ),
                                )
                            })?;
                        resources.push((resource, w));
                    }
                    config.fit_resources = resources;
                }
                _ => return Err(unsupported(&p)),
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn reads_weights_and_percentage() {
        let c = parse(&json!({
            "apiVersion": API_VERSION, "kind": KIND, "percentageOfNodesToScore": 50,
            "profiles": [{"schedulerName": "default-scheduler", "pluginConfig": [{
                "name": "NodeResourcesFit", "args": {"scoringStrategy": {"type": "LeastAllocated",
                "resources": [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 2}]}}}]}]
        }))
        .unwrap();
        assert_eq!(c.percentage_of_nodes_to_score, 50);
        assert_eq!(
            c.fit_resources,
            [(ResourceName::Cpu, 1), (ResourceName::Memory, 2)]
        );
        assert_eq!(
            parse(&json!({"kind": KIND})).unwrap(),
            SchedulerConfig::default()
        );
    }

    #[test]
    fn refuses_bad_weights_and_what_it_does_not_model() {
        let weight = |w: Value| {
            parse(
                &json!({"profiles": [{"pluginConfig": [{"name": "NodeResourcesFit",
                "args": {"scoringStrategy": {"resources": [{"name": "memory", "weight": w}]}}}]}]}),
            )
            .unwrap_err()
        };
        for w in [json!(0), json!(-1), json!(101)] {
            assert_eq!(
                weight(w.clone()),
                format!("profiles[0].pluginConfig[0].args.scoringStrategy.resources[0].weight: Invalid value: {w}: resource weight of memory not in valid range [1, 100]")
            );
        }
        assert!(parse(&json!({"leaderElection": {}}))
            .unwrap_err()
            .starts_with("leaderElection: not supported by kubeplay"));
    }
}
