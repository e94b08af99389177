//! Inputs that crashed a fuzz target (`scripts/fuzz.sh`, the targets in `fuzz/`), minimized with
//! `cargo fuzz tmin`, replayed through the very calls the targets make (`fuzz_harness`, which
//! the targets include): each must now return without a panic. A new crash becomes a test here.

mod fuzz_harness;

use fuzz_harness as harness;
use kubeplay_core::cluster::Cluster;
use kubeplay_core::share;

/// The harness itself works on ordinary input: each target on one of its seeds.
#[test]
fn every_target_runs_on_a_seed() {
    harness::scenario_parse(harness::DEFAULT_SCENARIO.as_bytes());
    harness::apply_objects(harness::DEFAULT_SCENARIO.as_bytes());
    let mut cli = harness::CliHarness::new();
    cli.run(b"get pods -o wide\netcdctl get /registry/pods --prefix --keys-only\n");
    // A write makes the next input start from a fresh cluster.
    cli.run(b"scale deployment nginx --replicas=1\netcdctl put /registry/x y\n");
    cli.run(b"get deployment nginx\n");
    let link = share::link("http://127.0.0.1:8080/", harness::DEFAULT_SCENARIO);
    harness::share_link(link.as_bytes());
}

/// `apply_objects` (crash-ac6f41cc, 37 bytes after tmin): a Node whose `spec` is a string. Completing the node
/// as its kubelet registers it indexed the string as a mapping (serde_json panics: "cannot
/// access key \"podCIDR\" in JSON string"); now the node is left for kube-apiserver to refuse.
#[test]
fn node_with_a_string_spec() {
    harness::apply_objects(b"#.\napiVersion: v1\nkind: Node\nspec: eT");
}

/// The same for `status` and `status.capacity`, which were indexed the same way; kube-apiserver
/// refuses each such node as the real one does.
#[test]
fn node_with_a_string_status_or_capacity() {
    for doc in [
        "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: x\n",
        "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {capacity: 4}\n",
        "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec: [a]\nstatus: [b]\n",
    ] {
        harness::apply_objects(doc.as_bytes());
        let mut c = Cluster::from_text("node.yaml", doc).expect("the scenario parses");
        c.run(Some(harness::RUN_MS));
        let refused: String = c.outputs.iter().map(|o| o.stderr.as_str()).collect();
        assert!(
            refused.contains("cannot be handled as a Node: json: cannot unmarshal"),
            "kube-apiserver refuses the malformed node: {doc}\n{refused}"
        );
    }
}
