//! The scenario: a multi-document YAML file of ordinary Kubernetes objects. `kind: Node`
//! documents define the nodes; an optional `kubeplay/v1alpha1` `Scenario` document sets the
//! seed and timed steps; everything else is applied at time 0 by `kubernetes-admin`.

pub mod documents;
pub mod limits;

pub use documents::SourceError;
pub use limits::{
    MAX_DOCUMENTS, MAX_NODES, MAX_PODS, MAX_SCENARIO_BYTES, MAX_YAML_DEPTH, MAX_YAML_NODES,
};

use crate::api::value::Value;
use crate::api::{meta, Object};
use crate::kernel::{time::parse_duration, Millis};

pub const SCENARIO_API_VERSION: &str = "kubeplay/v1alpha1";

/// An object as written in the scenario, with where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceObject {
    pub object: Object,
    /// 1-based line of the document's first line.
    pub line: usize,
    /// The document's text, as `kubectl apply -f` would send it.
    pub text: String,
}

impl SourceObject {
    /// `Deployment/nginx`, as the page lists objects.
    pub fn label(&self) -> String {
        format!("{}/{}", meta::kind(&self.object), meta::name(&self.object))
    }
}

/// What a timed step does.
#[derive(Clone, Debug, PartialEq)]
pub enum StepAction {
    /// A kubectl command line (without the leading `kubectl`), with text for `-f -`.
    Kubectl {
        command: String,
        stdin: Option<String>,
    },
    /// A fault such as `stop-node node-1`.
    Fault(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub at: Millis,
    pub action: StepAction,
    pub line: usize,
}

/// A parsed scenario.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Scenario {
    pub file: String,
    pub seed: u64,
    pub nodes: Vec<SourceObject>,
    pub objects: Vec<SourceObject>,
    pub steps: Vec<Step>,
    /// A `KubeSchedulerConfiguration` document, or kube-scheduler's defaults.
    pub scheduler: crate::scheduler::config::SchedulerConfig,
}

/// The seed when the scenario sets none.
pub const DEFAULT_SEED: u64 = 1;

fn err(file: &str, line: usize, column: usize, message: impl Into<String>) -> SourceError {
    SourceError {
        file: file.to_string(),
        line,
        column,
        message: message.into(),
    }
}

/// Parses a scenario file read as bytes: [`parse`] after checking that they are UTF-8 text.
pub fn parse_bytes(file: &str, bytes: &[u8]) -> Result<Scenario, SourceError> {
    if bytes.len() > MAX_SCENARIO_BYTES {
        return Err(limits::too_large(file, bytes.len(), true));
    }
    parse(file, limits::decode_utf8(file, bytes)?)
}

/// Parses a scenario file. Documents are only parsed here, not validated: validation is the
/// apiserver's job and shows up in the run as kubectl's output. What the playground can hold
/// is checked here ([`limits`]): the size, the documents, YAML nesting and aliases, the nodes,
/// the pods the workloads ask for, the steps' command lines.
pub fn parse(file: &str, text: &str) -> Result<Scenario, SourceError> {
    if text.len() > MAX_SCENARIO_BYTES {
        return Err(limits::too_large(file, text.len(), true));
    }
    let docs = documents::split(text);
    if docs.is_empty() {
        return Err(err(
            file,
            0,
            0,
            "the scenario is empty: it holds no Kubernetes objects",
        ));
    }
    if docs.len() > MAX_DOCUMENTS {
        return Err(err(
            file,
            first_content_line(&docs[MAX_DOCUMENTS]),
            1,
            format!(
                "too many documents: {}; kubeplay accepts at most {MAX_DOCUMENTS}",
                docs.len()
            ),
        ));
    }
    let mut scenario = Scenario {
        file: file.to_string(),
        seed: DEFAULT_SEED,
        ..Default::default()
    };
    let mut seen_settings = false;
    let mut budget = MAX_YAML_NODES;
    for doc in &docs {
        let value = documents::parse_document_within(file, doc, &mut budget)?;
        if value.is_null() {
            continue;
        }
        if !value.is_object() {
            return Err(err(
                file,
                doc.start_line,
                1,
                format!(
                    "a document must be a Kubernetes object (a mapping), not {}",
                    json_type(&value)
                ),
            ));
        }
        let line = first_content_line(doc);
        if meta::api_version(&value) == SCENARIO_API_VERSION {
            if meta::kind(&value) != "Scenario" {
                return Err(err(
                    file,
                    line,
                    1,
                    format!(
                        "unknown kind {:?} in {SCENARIO_API_VERSION}: the only kind is Scenario",
                        meta::kind(&value)
                    ),
                ));
            }
            if seen_settings {
                return Err(err(file, line, 1, "only one Scenario document is allowed"));
            }
            seen_settings = true;
            parse_settings(file, doc, &value, &mut scenario)?;
            continue;
        }
        if meta::api_version(&value) == crate::scheduler::config::API_VERSION
            && meta::kind(&value) == crate::scheduler::config::KIND
        {
            scenario.scheduler =
                crate::scheduler::config::parse(&value).map_err(|m| err(file, line, 1, m))?;
            continue;
        }
        let source = SourceObject {
            object: value,
            line,
            text: doc.text.to_string(),
        };
        if meta::kind(&source.object) == "Node" && meta::api_version(&source.object) == "v1" {
            scenario.nodes.push(source);
        } else {
            scenario.objects.push(source);
        }
    }
    check_capacity(file, &scenario)?;
    Ok(scenario)
}

/// At most [`MAX_NODES`] nodes, and workloads asking for at most [`MAX_PODS`] pods in all (a
/// single workload over the limit is kube-apiserver's to refuse, in the run).
fn check_capacity(file: &str, scenario: &Scenario) -> Result<(), SourceError> {
    if let Some(extra) = scenario.nodes.get(MAX_NODES) {
        return Err(err(
            file,
            extra.line,
            1,
            format!(
                "too many nodes: {}; kubeplay runs at most {MAX_NODES} nodes (Kubernetes' tested limit)",
                scenario.nodes.len()
            ),
        ));
    }
    let mut total = 0i64;
    for o in &scenario.objects {
        let v = &o.object;
        let Some(n) = limits::pods_asked(meta::api_version(v), meta::kind(v), v) else {
            continue;
        };
        total += n;
        if total > MAX_PODS {
            return Err(err(
                file,
                o.line,
                1,
                format!(
                    "too many pods: with {} the scenario's workloads ask for {total} pods; kubeplay runs at most {MAX_PODS} pods (Kubernetes' tested limit)",
                    o.label()
                ),
            ));
        }
    }
    Ok(())
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

fn first_content_line(doc: &documents::Document<'_>) -> usize {
    doc.content_line()
}

/// The line (in the file) of the first line of `doc` that starts with `needle` after indentation.
fn line_of(doc: &documents::Document<'_>, needle: &str, nth: usize) -> usize {
    doc.text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().trim_start_matches("- ").starts_with(needle))
        .nth(nth)
        .map(|(i, _)| doc.start_line + i)
        .unwrap_or(doc.start_line)
}

fn parse_settings(
    file: &str,
    doc: &documents::Document<'_>,
    value: &Value,
    scenario: &mut Scenario,
) -> Result<(), SourceError> {
    if let Some(seed) = value.get("seed") {
        scenario.seed = seed.as_u64().ok_or_else(|| {
            err(
                file,
                line_of(doc, "seed:", 0),
                1,
                "seed must be a non-negative integer",
            )
        })?;
    }
    let Some(steps) = value.get("steps") else {
        return Ok(());
    };
    let steps = steps
        .as_array()
        .ok_or_else(|| err(file, line_of(doc, "steps:", 0), 1, "steps must be a list"))?;
    let mut last_at = 0;
    let mut kubectl_steps = 0;
    for (i, step) in steps.iter().enumerate() {
        let line = line_of(doc, "at:", i);
        let at_text = match step.get("at") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Number(n)) if n.as_u64() == Some(0) => "0".to_string(),
            _ => {
                return Err(err(
                    file,
                    line,
                    1,
                    format!("steps[{i}].at is required: a duration such as 30s"),
                ))
            }
        };
        let at = parse_duration(&at_text)
            .map_err(|e| err(file, line, 1, format!("steps[{i}].at: {e}")))?;
        if at < last_at {
            return Err(err(file, line, 1, format!("steps[{i}].at: steps must be in time order ({at_text} is earlier than the step before)")));
        }
        last_at = at;
        let action = match (step.get("kubectl"), step.get("fault")) {
            (Some(Value::String(c)), None) => {
                let command = c
                    .trim()
                    .strip_prefix("kubectl ")
                    .unwrap_or(c.trim())
                    .to_string();
                // A command line a shell could not split never reaches kubectl.
                if let Err(e) = crate::shell::split(&command) {
                    let kubectl_line = line_of(doc, "kubectl:", kubectl_steps);
                    return Err(err(
                        file,
                        kubectl_line.max(line),
                        1,
                        format!("steps[{i}].kubectl: {e}: {c:?}"),
                    ));
                }
                kubectl_steps += 1;
                let stdin = match step.get("stdin") {
                    None => None,
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(_) => {
                        return Err(err(file, line, 1, format!("steps[{i}].stdin must be text")))
                    }
                };
                StepAction::Kubectl { command, stdin }
            }
            (None, Some(Value::String(f))) => StepAction::Fault(f.trim().to_string()),
            (Some(_), Some(_)) => {
                return Err(err(
                    file,
                    line,
                    1,
                    format!("steps[{i}] has both kubectl and fault: give one"),
                ))
            }
            _ => {
                return Err(err(
                    file,
                    line,
                    1,
                    format!("steps[{i}] needs `kubectl: <command>` or `fault: <fault>`"),
                ))
            }
        };
        scenario.steps.push(Step { at, action, line });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENARIO: &str = "\
apiVersion: v1
kind: Node
metadata:
  name: node-1
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
---
apiVersion: kubeplay/v1alpha1
kind: Scenario
seed: 42
steps:
- at: 30s
  kubectl: scale deployment web --replicas=5
- at: 1m
  fault: stop-node node-1
";

    #[test]
    fn parses_nodes_objects_and_steps() {
        let s = parse("s.yaml", SCENARIO).unwrap();
        assert_eq!(s.seed, 42);
        assert_eq!(s.nodes.len(), 1);
        assert_eq!(s.objects[0].label(), "Deployment/web");
        assert_eq!(s.objects[0].line, 6);
        assert_eq!(s.steps.len(), 2);
        assert_eq!(s.steps[0].at, 30_000);
        assert_eq!(
            s.steps[0].action,
            StepAction::Kubectl {
                command: "scale deployment web --replicas=5".into(),
                stdin: None
            }
        );
        assert_eq!(
            s.steps[1].action,
            StepAction::Fault("stop-node node-1".into())
        );
        assert_eq!(s.steps[1].line, 17);
    }

    #[test]
    fn refuses_empty_huge_and_malformed_input() {
        assert!(parse("e.yaml", "").unwrap_err().message.contains("empty"));
        let big = "a".repeat(MAX_SCENARIO_BYTES + 1);
        let e = parse("big.yaml", &big).unwrap_err();
        assert!(e.message.contains("too large"), "{e}");
        let e = parse("bad.yaml", "kind: Pod\nmetadata: [\n").unwrap_err();
        assert_eq!(e.file, "bad.yaml");
        assert!(e.line >= 2);
        let e = parse("list.yaml", "- a\n- b\n").unwrap_err();
        assert!(e.message.contains("not a list"), "{e}");
        let e = parse(
            "s.yaml",
            "apiVersion: kubeplay/v1alpha1\nkind: Scenario\nsteps:\n- at: soon\n  fault: x\n",
        )
        .unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.message.contains("invalid duration"), "{e}");
    }
}
