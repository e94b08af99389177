//! The command line's handling of bad input, determinism and share links.

mod common;
use common::*;

#[test]
fn invalid_yaml_points_at_file_line_and_column() {
    let path = temp_file(
        "broken.yaml",
        b"apiVersion: v1\nkind: Pod\nmetadata:\n  name: [oops\n",
    );
    let r = kubeplay(&["run", &path]);
    assert_eq!(r.code, 1);
    let first = r.stderr.lines().next().unwrap();
    assert!(
        first.starts_with(&format!("error: {path}:5:"))
            || first.starts_with(&format!("error: {path}:4:")),
        "{first}"
    );
    assert!(r.stdout.is_empty());
}

#[test]
fn an_empty_file_is_an_error() {
    let path = temp_file("empty.yaml", b"# nothing here\n");
    let r = kubeplay(&["run", &path]);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr.trim_end(),
        format!("error: {path}: the scenario is empty: it holds no Kubernetes objects")
    );
}

#[test]
fn a_20_mb_file_is_refused_without_a_panic() {
    let big = "# padding line for a very large scenario file\n".repeat(20 * 1024 * 1024 / 46);
    let path = temp_file("big.yaml", big.as_bytes());
    let r = kubeplay(&["run", &path]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("the scenario is too large"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("panicked"));
    let r = kubeplay_stdin(&["run", "-"], Some(&big));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("too large"), "{}", r.stderr);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(kubeplay(&["run"]).code, 2);
    assert_eq!(kubeplay(&["fly"]).code, 2);
    assert_eq!(kubeplay(&["run", "x.yaml", "--trace", "xml"]).code, 2);
    assert_eq!(kubeplay(&["run", "/no/such/file.yaml"]).code, 1);
}

const GENERATED: &str = "apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
---
apiVersion: kubeplay/v1alpha1
kind: Scenario
steps:
- at: 1s
  kubectl: create -f -
  stdin: |
    apiVersion: v1
    kind: Pod
    metadata:
      generateName: web-
    spec:
      containers:
      - name: nginx
        image: nginx
";

#[test]
fn apply_refuses_generate_name_like_kubectl() {
    let path = temp_file("gen-apply.yaml", b"apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: web-\nspec:\n  containers:\n  - name: c\n    image: nginx\n");
    let r = kubeplay(&["run", &path, "--trace", "none"]);
    assert_eq!(
        r.stderr.trim_end(),
        "error: from web-: cannot use generate name with apply"
    );
}

#[test]
fn same_seed_same_trace_and_another_seed_changes_generated_names() {
    let path = temp_file("gen.yaml", GENERATED.as_bytes());
    let a = kubeplay(&[
        "run",
        &path,
        "--trace",
        "json",
        "--seed",
        "7",
        "--kubectl",
        "get pods -o name",
    ]);
    let b = kubeplay(&[
        "run",
        &path,
        "--trace",
        "json",
        "--seed",
        "7",
        "--kubectl",
        "get pods -o name",
    ]);
    let c = kubeplay(&[
        "run",
        &path,
        "--trace",
        "json",
        "--seed",
        "8",
        "--kubectl",
        "get pods -o name",
    ]);
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert_eq!(a.stdout, b.stdout, "same seed, same trace byte for byte");
    let name = |r: &Run| {
        r.stdout
            .lines()
            .find(|l| l.starts_with("pod/web-") && !l.contains(" "))
            .map(str::to_string)
            .expect("generated pod")
    };
    assert_ne!(name(&a), name(&c));
    let suffix = name(&a).trim_start_matches("pod/web-").to_string();
    assert_eq!(suffix.len(), 5);
    assert!(
        suffix
            .chars()
            .all(|ch| "bcdfghjklmnpqrstvwxz2456789".contains(ch)),
        "{suffix}"
    );
}

#[test]
fn share_prints_a_link_that_decodes_to_the_scenario() {
    let path = scenario("web.yaml");
    let r = kubeplay(&["share", &path, "--base", "https://example.test/play/"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let link = r.stdout.trim();
    let (base, frag) = link.split_once('#').unwrap();
    assert_eq!(base, "https://example.test/play/");
    let decoded = kubeplay_core::share::decode_fragment(frag).unwrap();
    assert_eq!(decoded.scenario, std::fs::read_to_string(&path).unwrap());
}

#[test]
fn an_invalid_scenario_node_is_reported_not_dropped_or_panicking() {
    let path = temp_file(
        "bad-node.yaml",
        b"apiVersion: v1\nkind: Node\nmetadata:\n  name: Bad_Node\n",
    );
    let r = kubeplay(&["run", &path, "--trace", "none", "--kubectl", "get nodes"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert!(
        r.stderr.starts_with("The Node \"Bad_Node\" is invalid: metadata.name: Invalid value: \"Bad_Node\": a lowercase RFC 1123 subdomain"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.trim_end().ends_with("No resources found"),
        "{}",
        r.stderr
    );
}
