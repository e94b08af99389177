//! Hostile input: each ends at once with a clear error (file, line and column where they
//! apply; exit code 1 for the command line) and never with a panic or a hang. Each test drives
//! the core (`scenario::parse`, `Cluster::from_text`) and the `kubeplay` binary. The limits are
//! in `kubeplay_core::scenario::limits`.

mod common;
use common::*;
use kubeplay_core::cluster::Cluster;
use kubeplay_core::scenario::{self, limits, SourceError};
use std::time::Instant;

/// Runs `f`, reporting (not asserting) how long it took.
fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    eprintln!("{what}: {:?}", start.elapsed());
    out
}

fn parse_err(file: &str, text: &str) -> String {
    timed(file, || scenario::parse(file, text))
        .expect_err("hostile input is refused")
        .to_string()
}

/// The scenario's apply at time 0 and its steps, run on a cluster; what they printed to stderr.
fn run_stderr(file: &str, text: &str) -> String {
    let mut c = Cluster::from_text(file, text).expect("the scenario parses");
    timed(file, || c.run(None));
    c.outputs.iter().map(|o| o.stderr.as_str()).collect()
}

/// `kubeplay run FILE --trace none` with `text` in a fresh file: (path, run).
fn cli(name: &str, text: &[u8]) -> (String, Run) {
    let path = temp_file(name, text);
    let r = timed(name, || kubeplay(&["run", &path, "--trace", "none"]));
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    (path, r)
}

/// The input error of a `kubeplay run`: exit code 1, one line on stderr, nothing on stdout.
fn cli_error(name: &str, text: &[u8]) -> (String, String) {
    let (path, r) = cli(name, text);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    (path, r.stderr.trim_end().to_string())
}

fn deployment(name: &str, replicas: &str, cpu: &str) -> String {
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: web}}}}
  template:
    metadata: {{labels: {{app: web}}}}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        resources: {{requests: {{cpu: {cpu}}}}}
"
    )
}

/// `a0: &a0 ["x", ...]`, `a1: &a1 [*a0, ...]`, ... `a63`: ten to the 64th strings.
fn billion_laughs() -> String {
    let mut text = format!("a0: &a0 [{}]\n", ["\"x\""; 10].join(","));
    for i in 1..64 {
        text.push_str(&format!(
            "a{i}: &a{i} [{}]\n",
            vec![format!("*a{}", i - 1); 10].join(",")
        ));
    }
    text
}

#[test]
fn a_64_level_alias_bomb_is_refused() {
    let aliasing = limits::excessive_aliasing_message();
    assert_eq!(
        aliasing,
        "document contains excessive aliasing: its aliases expand to more than 100 times its own size"
    );
    let bomb = billion_laughs();
    assert_eq!(
        parse_err("bomb.yaml", &bomb),
        format!("bomb.yaml:1: {aliasing}")
    );
    // Inside a Kubernetes object, after other documents: the place is the bomb's document.
    let text = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\nlaughs:\n{}",
        bomb.lines().map(|l| format!("  {l}\n")).collect::<String>()
    );
    assert_eq!(
        Cluster::from_text("cm.yaml", &text)
            .err()
            .map(|e| e.to_string()),
        Some(format!("cm.yaml:6: {aliasing}"))
    );
    let (path, err) = cli_error("bomb.yaml", bomb.as_bytes());
    assert_eq!(err, format!("error: {path}:1: {aliasing}"));

    // A large document lets serde_yaml repeat more: kubeplay's budget of nodes stops it.
    let padded = format!("pad: [{}]\n{bomb}", vec!["1"; 200_000].join(","));
    let nodes = limits::too_many_nodes_message();
    assert_eq!(
        nodes,
        "too many YAML nodes: more than 1000000 lists, mappings, keys and scalars, aliases expanded; kubeplay accepts at most 1000000"
    );
    let e = timed("padded bomb", || scenario::parse("padded.yaml", &padded)).unwrap_err();
    assert_eq!((e.file.as_str(), e.line), ("padded.yaml", 2), "{e}");
    assert_eq!(e.message, nodes);

    // The budget is the scenario's: many documents, each under serde_yaml's repetition limit.
    let doc = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\nx:\n  a: &a [1,1,1,1,1,1,1,1,1,1]\n  b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n  c: [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n";
    let many = vec![doc; 2_000].join("---\n");
    let e = timed("many bombs", || scenario::parse("many.yaml", &many)).unwrap_err();
    assert_eq!(e.message, nodes);
    assert!(e.line > 1000, "{e}");

    // Through kubectl apply -f - in a step, kubectl's error.
    let step = format!(
        "apiVersion: kubeplay/v1alpha1\nkind: Scenario\nsteps:\n- at: 1s\n  kubectl: apply -f -\n  stdin: {}\n",
        serde_json::to_string(&bomb).unwrap()
    );
    assert_eq!(
        run_stderr("step.yaml", &step),
        format!(
            "error: error parsing STDIN: error converting YAML to JSON: yaml: line 1: {aliasing}\n"
        )
    );
}

#[test]
fn nesting_100000_deep_is_refused() {
    let deep = limits::too_deep_message();
    assert_eq!(
        deep,
        "the YAML is nested too deeply: more than 128 levels of lists and mappings; kubeplay accepts at most 128"
    );
    let n = 100_000;
    let lists = format!("{}{}\n", "[".repeat(n), "]".repeat(n));
    assert_eq!(
        parse_err("lists.yaml", &lists),
        format!("lists.yaml:1:129: {deep}")
    );
    let unclosed = "[".repeat(n);
    assert_eq!(
        parse_err("open.yaml", &unclosed),
        format!("open.yaml:1:129: {deep}")
    );
    // `a: {a: {a: ...`: the 129th `{` is at column 3 + 128 * 4 + 1.
    let maps = format!("a: {}1{}\n", "{a: ".repeat(n), "}".repeat(n));
    assert_eq!(
        parse_err("maps.yaml", &maps),
        format!("maps.yaml:1:516: {deep}")
    );
    // After a separator, in a later document: columns count the `--- ` before it.
    let later = format!("kind: A\n--- {}\n", "[".repeat(n));
    assert_eq!(
        parse_err("later.yaml", &later),
        format!("later.yaml:2:133: {deep}")
    );
    // Block nesting is serde_yaml's recursion limit, with the same message.
    let dashes = format!("{}x\n", "- ".repeat(n));
    assert_eq!(
        parse_err("dashes.yaml", &dashes),
        format!("dashes.yaml:1:257: {deep}")
    );
    // 128 levels are fine.
    let ok = format!("a: {}1{}\n", "[".repeat(127), "]".repeat(127));
    assert!(scenario::parse("ok.yaml", &ok).is_ok());

    let (path, err) = cli_error("maps.yaml", maps.as_bytes());
    assert_eq!(err, format!("error: {path}:1:516: {deep}"));
    let (path, err) = cli_error("lists.yaml", lists.as_bytes());
    assert_eq!(err, format!("error: {path}:1:129: {deep}"));
}

#[test]
fn a_50_mb_scenario_is_refused() {
    let line = "# fifty megabytes of a scenario, one comment line after another\n";
    let big = line.repeat(50 * 1024 * 1024 / line.len() + 1);
    let len = big.len();
    assert!(len > 50 * 1024 * 1024);
    let too_large = format!(
        "the scenario is too large: {len} bytes; kubeplay accepts at most 4194304 bytes (4 MiB)"
    );
    assert_eq!(
        parse_err("big.yaml", &big),
        format!("big.yaml: {too_large}")
    );
    assert_eq!(
        scenario::parse_bytes("big.yaml", big.as_bytes())
            .unwrap_err()
            .to_string(),
        format!("big.yaml: {too_large}")
    );
    let (path, err) = cli_error("big.yaml", big.as_bytes());
    assert_eq!(err, format!("error: {path}: {too_large}"));
    // From standard input kubeplay stops reading after the limit.
    let r = timed("stdin", || kubeplay_stdin(&["run", "-"], Some(&big)));
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr.trim_end(),
        "error: <stdin>: the scenario is too large: more than 4194304 bytes; kubeplay accepts at most 4194304 bytes (4 MiB)"
    );

    // Within the size, at most 10,000 documents.
    let docs = vec!["kind: A\n"; limits::MAX_DOCUMENTS + 1].join("---\n");
    assert_eq!(
        parse_err("docs.yaml", &docs),
        "docs.yaml:20001:1: too many documents: 10001; kubeplay accepts at most 10000"
    );
}

/// A fixed stream of pseudo-random bytes (xorshift).
fn garbage(len: usize) -> Vec<u8> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

#[test]
fn binary_garbage_is_refused() {
    let bytes = garbage(100_000);
    let bad = std::str::from_utf8(&bytes).unwrap_err().valid_up_to();
    let (line, column) = limits::line_column(std::str::from_utf8(&bytes[..bad]).unwrap(), bad);
    let not_utf8 = format!(
        "{line}:{column}: the scenario is not UTF-8 text: byte {bad} (0x{:02X}) is not part of a UTF-8 character",
        bytes[bad]
    );
    assert_eq!(
        scenario::parse_bytes("junk.bin", &bytes)
            .unwrap_err()
            .to_string(),
        format!("junk.bin:{not_utf8}")
    );
    let (path, err) = cli_error("junk.bin", &bytes);
    assert_eq!(err, format!("error: {path}:{not_utf8}"));

    // Latin-1 text: the place of the first non-UTF-8 byte.
    let latin1 = b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: caf\xe9\n";
    let (path, err) = cli_error("latin1.yaml", latin1);
    assert_eq!(
        err,
        format!("error: {path}:4:12: the scenario is not UTF-8 text: byte 52 (0xE9) is not part of a UTF-8 character")
    );
    // A file cut in the middle of a character.
    let cut = "name: \u{20ac}".as_bytes();
    let cut = &cut[..cut.len() - 1];
    assert_eq!(
        scenario::parse_bytes("cut.yaml", cut)
            .unwrap_err()
            .to_string(),
        "cut.yaml:1:7: the scenario is not UTF-8 text: it ends inside a character at byte 6"
    );

    // NULs and other control characters in UTF-8 text, with their place.
    let nul = "apiVersion: v1\nkind: Pod\0\0\nmetadata:\n  name: x\n";
    assert_eq!(
        parse_err("nul.yaml", nul),
        "nul.yaml:2:10: control characters are not allowed: found U+0000"
    );
    let (path, err) = cli_error("nul.yaml", nul.as_bytes());
    assert_eq!(
        err,
        format!("error: {path}:2:10: control characters are not allowed: found U+0000")
    );
    // The garbage as the page would hold it (invalid bytes replaced): an error, no panic.
    let lossy = String::from_utf8_lossy(&bytes);
    let e = parse_err("lossy.yaml", &lossy);
    assert!(e.starts_with("lossy.yaml:"), "{e}");
    // Printable garbage, several shapes: each an error or a scenario, never a panic.
    for (i, chunk) in bytes.chunks(997).take(40).enumerate() {
        let alphabet = b" -:[]{}'\"#&*!|>?,\nabc1";
        let text: String = chunk
            .iter()
            .map(|b| char::from(alphabet[*b as usize % alphabet.len()]))
            .collect();
        let _ = scenario::parse(&format!("g{i}.yaml"), &text);
    }
}

#[test]
fn a_billion_replicas_are_refused_by_the_apiserver() {
    let limit = "must be less than or equal to 150000 (kubeplay runs at most 150000 pods)";
    let text = deployment("web", "1000000000", "10m");
    assert_eq!(
        run_stderr("replicas.yaml", &text),
        format!("The Deployment \"web\" is invalid: spec.replicas: Invalid value: 1000000000: {limit}\n")
    );
    let (_, r) = cli("replicas.yaml", text.as_bytes());
    assert_eq!(r.code, 0, "a refused object is part of the run");
    assert_eq!(
        r.stderr.trim_end(),
        format!(
            "The Deployment \"web\" is invalid: spec.replicas: Invalid value: 1000000000: {limit}"
        )
    );
    // Scaling up later is refused the same way.
    let scaled = format!(
        "{}---\napiVersion: kubeplay/v1alpha1\nkind: Scenario\nsteps:\n- at: 1s\n  kubectl: scale deployment web --replicas=1000000000\n",
        deployment("web", "1", "10m")
    );
    assert_eq!(
        run_stderr("scale.yaml", &scaled),
        format!("The Deployment \"web\" is invalid: spec.replicas: Invalid value: 1000000000: {limit}\n")
    );
    // The workloads of a scenario ask for at most 150,000 pods in all.
    let two = format!(
        "{}---\n{}",
        deployment("a", "100000", "10m"),
        deployment("b", "100000", "10m")
    );
    assert_eq!(
        parse_err("two.yaml", &two),
        "two.yaml:16:1: too many pods: with Deployment/b the scenario's workloads ask for 200000 pods; kubeplay runs at most 150000 pods (Kubernetes' tested limit)"
    );
    let (path, err) = cli_error("two.yaml", two.as_bytes());
    assert!(
        err.starts_with(&format!("error: {path}:16:1: too many pods")),
        "{err}"
    );
    // And at most 5,000 nodes.
    let nodes: Vec<String> = (0..=limits::MAX_NODES)
        .map(|i| format!("apiVersion: v1\nkind: Node\nmetadata:\n  name: n{i}\n"))
        .collect();
    assert_eq!(
        parse_err("nodes.yaml", &nodes.join("---\n")),
        "nodes.yaml:25001:1: too many nodes: 5001; kubeplay runs at most 5000 nodes (Kubernetes' tested limit)"
    );
}

#[test]
fn a_10000_character_name_is_refused_by_name_validation() {
    let name = "a".repeat(10_000);
    let text = deployment(&name, "1", "10m");
    let want = format!(
        "The Deployment \"{name}\" is invalid: metadata.name: Invalid value: \"{name}\": must be no more than 253 characters"
    );
    assert_eq!(run_stderr("name.yaml", &text), format!("{want}\n"));
    let (_, r) = cli("name.yaml", text.as_bytes());
    assert_eq!(r.code, 0);
    assert_eq!(r.stderr.trim_end(), want);
}

#[test]
fn cpu_lots_is_refused_when_decoding() {
    let text = deployment("web", "1", "lots");
    let want = "Error from server (BadRequest): error when creating \"q.yaml\": Deployment in version \"v1\" cannot be handled as a Deployment: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    assert_eq!(run_stderr("q.yaml", &text), format!("{want}\n"));
    let (path, r) = cli("q.yaml", text.as_bytes());
    assert_eq!(r.code, 0);
    assert_eq!(r.stderr.trim_end(), want.replace("q.yaml", &path));
}

#[test]
fn an_unknown_kind_is_not_mapped() {
    let text = "apiVersion: v1\nkind: Foo\nmetadata:\n  name: x\n";
    let want = "error: resource mapping not found for name: \"x\" namespace: \"\" from \"foo.yaml\": no matches for kind \"Foo\" in version \"v1\"\nensure CRDs are installed first";
    assert_eq!(run_stderr("foo.yaml", text), format!("{want}\n"));
    let (path, r) = cli("foo.yaml", text.as_bytes());
    assert_eq!(r.code, 0);
    assert_eq!(r.stderr.trim_end(), want.replace("foo.yaml", &path));
}

#[test]
fn unbalanced_quotes_in_a_command_line_are_refused() {
    assert_eq!(
        kubeplay_core::shell::split("get pods -l 'app=x"),
        Err("unterminated single quote".to_string())
    );
    assert_eq!(
        kubeplay_core::shell::split("get pods -l \"app=x"),
        Err("unterminated double quote".to_string())
    );
    // In a scenario step: an input error at the step, before anything runs.
    let text = "apiVersion: kubeplay/v1alpha1\nkind: Scenario\nsteps:\n- at: 1s\n  kubectl: get pods -l 'app=x\n";
    let want =
        "steps.yaml:5:1: steps[0].kubectl: unterminated single quote: \"get pods -l 'app=x\"";
    assert_eq!(parse_err("steps.yaml", text), want);
    let (path, err) = cli_error("steps.yaml", text.as_bytes());
    assert_eq!(err, format!("error: {}", want.replace("steps.yaml", &path)));
    // In --kubectl: a usage error, exit code 2.
    let path = temp_file(
        "quotes.yaml",
        b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n",
    );
    let r = kubeplay(&["run", &path, "--kubectl", "get pods -l 'app=x"]);
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty());
    assert_eq!(
        r.stderr.lines().next(),
        Some("kubeplay: --kubectl \"get pods -l 'app=x\": unterminated single quote")
    );
    let r = kubeplay(&["run", &path, "--etcdctl", "get \"/registry"]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr.lines().next(),
        Some("kubeplay: --etcdctl \"get \\\"/registry\": unterminated double quote")
    );
}

#[test]
fn an_object_over_etcds_request_limit_is_refused() {
    // `kubectl create` sends no last-applied annotation, so the 1.6 MiB env value reaches etcd.
    let big = "x".repeat(1600 * 1024);
    let manifest = format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\nspec:\n  containers:\n  - name: c\n    image: nginx:1.27\n    env:\n    - name: BIG\n      value: {big}\n"
    );
    let text = format!(
        "apiVersion: kubeplay/v1alpha1\nkind: Scenario\nsteps:\n- at: 1s\n  kubectl: create -f -\n  stdin: {}\n",
        serde_json::to_string(&manifest).unwrap()
    );
    assert!(text.len() > kubeplay_core::etcd::MAX_REQUEST_BYTES);
    let want = "Error from server (RequestEntityTooLarge): error when creating \"STDIN\": etcdserver: request is too large";
    assert_eq!(run_stderr("etcd.yaml", &text), format!("{want}\n"));
    let (_, r) = cli("etcd.yaml", text.as_bytes());
    assert_eq!(r.code, 0);
    assert_eq!(r.stderr.trim_end(), want);
    // Nothing was stored.
    let path = temp_file("etcd2.yaml", text.as_bytes());
    let r = kubeplay(&[
        "run",
        &path,
        "--trace",
        "none",
        "--etcdctl",
        "get /registry/pods/default/big --keys-only",
    ]);
    assert_eq!(r.stdout, "");
}

/// Errors of the core carry their place as fields too, for the page's editor.
#[test]
fn source_errors_carry_line_and_column() {
    let e: SourceError =
        scenario::parse("x.yaml", &format!("a: {}", "{a: ".repeat(1000))).unwrap_err();
    assert_eq!((e.line, e.column), (1, 516));
    assert_eq!(e.message, limits::too_deep_message());
}
