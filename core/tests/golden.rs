//! Golden traces: the default scenario's full text trace is checked in; any change to what the
//! simulation does shows up as a diff. `UPDATE_GOLDEN=1 cargo test --test golden` rewrites it.

mod common;
use common::*;

/// Runs the scenario from standard input, so the trace does not depend on where the checkout is.
fn check(scenario_path: &str, golden: &str, extra: &[&str]) {
    let mut args = vec!["run", "-", "--trace", "text"];
    args.extend_from_slice(extra);
    let text = std::fs::read_to_string(scenario_path).unwrap();
    let r = kubeplay_stdin(&args, Some(&text));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let path = format!("{}/tests/golden/{golden}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &r.stdout).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{path} missing: run with UPDATE_GOLDEN=1"));
    if expected != r.stdout {
        let first = expected
            .lines()
            .zip(r.stdout.lines())
            .position(|(a, b)| a != b);
        panic!("{golden} differs (first differing line {first:?}); rerun with UPDATE_GOLDEN=1 if the change is intended\n--- got ---\n{}", r.stdout);
    }
}

#[test]
fn default_scenario_trace_matches_golden() {
    let default = format!(
        "{}/../public/scenarios/default.yaml",
        env!("CARGO_MANIFEST_DIR")
    );
    check(
        &default,
        "default.trace.txt",
        &["--kubectl", "get deployments"],
    );
}

#[test]
fn timed_steps_trace_matches_golden() {
    check(
        &scenario("steps.yaml"),
        "steps.trace.txt",
        &["--kubectl", "get deployments,configmaps -n team"],
    );
}

#[test]
fn every_record_of_the_scenarios_has_an_explanation() {
    let scenarios = [
        format!(
            "{}/../public/scenarios/default.yaml",
            env!("CARGO_MANIFEST_DIR")
        ),
        scenario("web.yaml"),
        scenario("steps.yaml"),
    ];
    for s in &scenarios {
        let r = kubeplay(&["run", s, "--trace", "json"]);
        for rec in records(&r.stdout) {
            let key = rec["explain"].as_str().expect("explain key");
            assert!(
                kubeplay_core::explain::explain(key).is_some(),
                "no explanation for {key:?} ({rec})"
            );
        }
    }
}
