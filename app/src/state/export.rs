//! What the page exports: the trace as JSON Lines (what `kubeplay run --trace json` prints) and
//! the scenario's manifests, ready for `kubectl apply` on a real cluster.

use kubeplay_core::cluster::Cluster;
use kubeplay_core::scenario::{Scenario, StepAction};

/// The file names the downloads are offered under.
pub const SCENARIO_FILE: &str = "scenario.yaml";
pub const TRACE_FILE: &str = "trace.jsonl";

/// The whole run's trace as `kubeplay run --trace json` prints it for the same scenario and
/// seed: a fresh run to quiet, whatever the page's playback position or console commands.
pub fn trace_json_lines(scenario: &Scenario) -> String {
    let mut cluster = Cluster::new(scenario.clone());
    cluster.run(None);
    cluster.trace.to_json_lines()
}

/// `30s`, `1500ms`: a step's time as the scenario format writes it.
fn duration(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

/// The objects kubectl applies at the start (not the simulated Nodes, the scheduler's
/// configuration or the `Scenario` document), each as written, after `note` (comment lines on
/// running them on a real cluster); the timed steps follow as comments to run by hand.
pub fn manifests(scenario: &Scenario, note: &str) -> String {
    let mut out = String::new();
    for line in note.lines() {
        out.push_str("# ");
        out.push_str(line);
        out.push('\n');
    }
    for (i, o) in scenario.objects.iter().enumerate() {
        if i > 0 {
            out.push_str("---\n");
        }
        out.push_str(o.text.trim_matches(|c| c == '\n' || c == '\r'));
        out.push('\n');
    }
    let steps: Vec<String> = scenario
        .steps
        .iter()
        .map(|s| match &s.action {
            StepAction::Kubectl { command, stdin } => {
                let mut l = format!("#   at {}: kubectl {command}", duration(s.at));
                if let Some(stdin) = stdin {
                    for line in stdin.lines() {
                        l.push_str(&format!("\n#     {line}"));
                    }
                }
                l
            }
            StepAction::Fault(f) => format!("#   at {}: (fault) {f}", duration(s.at)),
        })
        .collect();
    if !steps.is_empty() {
        out.push_str("# The scenario's timed steps:\n");
        for s in steps {
            out.push_str(&s);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::scenario::{parse, DEFAULT_SCENARIO};

    #[test]
    fn the_trace_export_is_what_the_command_line_prints() {
        let s = parse(DEFAULT_SCENARIO).unwrap();
        let mut cli = Cluster::new(s.clone());
        cli.run(None);
        let jsonl = trace_json_lines(&s);
        assert_eq!(jsonl, cli.trace.to_json_lines());
        assert_eq!(jsonl.lines().count(), cli.trace.records.len());
        let first: kubeplay_core::api::value::Value =
            serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
        assert_eq!(first["component"], "kubectl");
    }

    #[test]
    fn manifests_keep_the_objects_and_leave_out_what_only_kubeplay_reads() {
        let text = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\n\
                    apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n\
                    apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n---\n\
                    apiVersion: kubeplay/v1alpha1\nkind: Scenario\nsteps:\n\
                    - at: 1500ms\n  fault: stop-node n1\n\
                    - at: 30s\n  kubectl: delete configmap a\n";
        let m = manifests(&parse(text).unwrap(), "Run these\non kind");
        assert!(
            m.starts_with("# Run these\n# on kind\napiVersion: v1\nkind: ConfigMap\n"),
            "{m}"
        );
        assert!(
            m.contains("name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n"),
            "{m}"
        );
        assert!(
            !m.contains("kind: Node") && !m.contains("kind: Scenario"),
            "{m}"
        );
        assert!(
            m.contains("#   at 30s: kubectl delete configmap a\n"),
            "{m}"
        );
        assert!(m.contains("#   at 1500ms: (fault) stop-node n1\n"), "{m}");
    }
}
