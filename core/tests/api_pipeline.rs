//! Issue 3's acceptance: the apiserver pipeline, etcd, kubectl and etcdctl, through the
//! `kubeplay` command exactly as a user runs it.

mod common;
use common::*;
use kubeplay_core::api::value::Value;

#[test]
fn deployment_gets_the_apiserver_defaults_and_its_resource_version_is_the_etcd_mod_revision() {
    let web = scenario("web.yaml");
    let r = kubeplay(&[
        "run",
        &web,
        "--trace",
        "none",
        "--kubectl",
        "get deployment web -o yaml",
        "--etcdctl",
        "get /registry/deployments/default/web -w json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (yaml, etcd_json) = r
        .stdout
        .rsplit_once("\n{")
        .map(|(a, b)| (a, format!("{{{b}")))
        .expect("two outputs");
    let yaml = yaml
        .strip_prefix("deployment.apps/web created\n")
        .expect("apply output first");
    let d: Value = serde_yaml::from_str(yaml).expect("kubectl -o yaml is YAML");
    assert_eq!(d["spec"]["strategy"]["type"], "RollingUpdate");
    assert_eq!(d["spec"]["strategy"]["rollingUpdate"]["maxSurge"], "25%");
    assert_eq!(
        d["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"],
        "25%"
    );
    assert_eq!(d["spec"]["revisionHistoryLimit"], 10);
    assert_eq!(d["spec"]["progressDeadlineSeconds"], 600);
    let pod = &d["spec"]["template"]["spec"];
    assert_eq!(pod["dnsPolicy"], "ClusterFirst");
    assert_eq!(pod["restartPolicy"], "Always");
    assert_eq!(pod["schedulerName"], "default-scheduler");
    assert_eq!(pod["terminationGracePeriodSeconds"], 30);
    assert_eq!(pod["securityContext"], kubeplay_core::json!({}));
    let c = &pod["containers"][0];
    assert_eq!(c["imagePullPolicy"], "IfNotPresent");
    assert_eq!(c["terminationMessagePath"], "/dev/termination-log");
    assert_eq!(c["terminationMessagePolicy"], "File");
    let uid = d["metadata"]["uid"].as_str().expect("uid");
    assert_eq!(uid.len(), 36);
    assert!(d["metadata"]["creationTimestamp"]
        .as_str()
        .expect("creationTimestamp")
        .ends_with('Z'));
    assert_eq!(d["metadata"]["generation"], 1);
    // resourceVersion is quoted in YAML, as kubectl prints it.
    assert!(yaml.contains("resourceVersion: \""), "{yaml}");
    let e: Value = serde_json::from_str(etcd_json.trim()).expect("etcdctl -w json");
    let mod_rev = e["kvs"][0]["mod_revision"].as_i64().expect("mod_revision");
    assert_eq!(d["metadata"]["resourceVersion"], mod_rev.to_string());
    // The Deployment controller writes it too (revision annotation, status).
    assert!(e["kvs"][0]["version"].as_i64().unwrap() >= 1);
    assert!(e["header"]["revision"].as_i64().unwrap() >= mod_rev);
}

#[test]
fn keys_only_lists_a_new_clusters_keys_and_the_deployment() {
    let r = kubeplay(&[
        "run",
        &scenario("web.yaml"),
        "--trace",
        "none",
        "--etcdctl",
        "get /registry --prefix --keys-only",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let keys: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("/registry/"))
        .collect();
    for k in [
        "/registry/deployments/default/web",
        "/registry/namespaces/default",
        "/registry/namespaces/kube-system",
        "/registry/namespaces/kube-public",
        "/registry/namespaces/kube-node-lease",
        "/registry/services/specs/default/kubernetes",
        "/registry/minions/node-1",
        "/registry/minions/node-3",
        "/registry/leases/kube-node-lease/node-2",
        "/registry/serviceaccounts/default/default",
        "/registry/clusterroles/cluster-admin",
        "/registry/clusterrolebindings/cluster-admin",
        "/registry/configmaps/default/kube-root-ca.crt",
    ] {
        assert!(keys.contains(&k), "{k} missing from {keys:#?}");
    }
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted, "etcd lists keys in byte order");
    // --keys-only prints each key followed by an empty line.
    assert!(r.stdout.contains("/registry/deployments/default/web\n\n"));
}

#[test]
fn trace_json_shows_the_request_pipeline_in_order() {
    let r = kubeplay(&["run", &scenario("web.yaml"), "--trace", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let recs = records(&r.stdout);
    let pos = |pred: &dyn Fn(&Value) -> bool, from: usize| -> usize {
        from + recs[from..]
            .iter()
            .position(pred)
            .unwrap_or_else(|| panic!("record not found after {from}: {recs:#?}"))
    };
    let read = pos(&|r| r["action"] == "kubectl.read", 0);
    let kubeconfig = pos(&|r| r["action"] == "kubectl.kubeconfig", 0);
    let discovery = pos(&|r| r["action"] == "kubectl.discovery", read);
    let post = pos(
        &|r| {
            r["action"] == "request"
                && r["summary"]
                    .as_str()
                    .unwrap()
                    .starts_with("POST /apis/apps/v1/namespaces/default/deployments")
        },
        discovery,
    );
    let authn = pos(&|r| r["action"] == "authenticate", post);
    let authz = pos(&|r| r["action"] == "authorize", authn);
    let mutating = pos(&|r| r["action"] == "admission.mutating", authz);
    let validate = pos(&|r| r["action"] == "validate", mutating);
    let validating = pos(&|r| r["action"] == "admission.validating", validate);
    let write = pos(
        &|r| {
            r["component"] == "etcd"
                && r["key"] == "/registry/deployments/default/web"
                && r.get("revision").is_some()
        },
        validating,
    );
    let response = pos(
        &|r| r["action"] == "response" && r["summary"].as_str().unwrap().starts_with("201 Created"),
        write,
    );
    assert!(kubeconfig < read && read < discovery && discovery < post);
    assert!(
        post < authn
            && authn < authz
            && authz < mutating
            && mutating < validate
            && validate < validating
    );
    assert!(validating < write && write < response);
    assert_eq!(recs[authn]["component"], "kube-apiserver");
    assert!(recs[authn]["summary"]
        .as_str()
        .unwrap()
        .contains("kubernetes-admin"));
    for r in &recs {
        for field in ["t_ms", "component", "action", "summary"] {
            assert!(r.get(field).is_some(), "{field} missing in {r}");
        }
    }
}

fn run_with(text: &str, post: &[&str]) -> Run {
    let path = temp_file(&format!("s-{:x}.yaml", fxhash(text)), text.as_bytes());
    let mut args = vec!["run", path.as_str(), "--trace", "none"];
    for p in post {
        args.push(p);
    }
    kubeplay(&args)
}

fn fxhash(s: &str) -> u64 {
    s.bytes().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    })
}

const MISMATCH: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: other
    spec:
      containers:
      - name: nginx
        image: nginx
";

#[test]
fn selector_mismatch_is_refused_with_kubectls_text_and_nothing_is_written() {
    let r = run_with(
        MISMATCH,
        &[
            "--etcdctl",
            "get /registry/deployments --prefix --keys-only",
        ],
    );
    assert_eq!(r.code, 0, "a failed step is part of the story");
    assert_eq!(
        r.stderr.trim_end(),
        "The Deployment \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"other\"}: `selector` does not match template `labels`"
    );
    assert!(
        !r.stdout.contains("/registry/deployments/default/web"),
        "{}",
        r.stdout
    );
}

#[test]
fn bad_name_negative_replicas_and_unknown_kind_are_refused() {
    let bad_name = MISMATCH
        .replace("name: web", "name: My_App")
        .replace("app: other", "app: web");
    let r = run_with(
        &bad_name,
        &[
            "--etcdctl",
            "get /registry/deployments --prefix --keys-only",
        ],
    );
    assert_eq!(
        r.stderr.trim_end(),
        "The Deployment \"My_App\" is invalid: metadata.name: Invalid value: \"My_App\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
    );
    assert!(!r.stdout.contains("/registry/deployments/"));

    let negative = MISMATCH
        .replace("app: other", "app: web")
        .replace("spec:\n  selector", "spec:\n  replicas: -1\n  selector");
    let r = run_with(
        &negative,
        &[
            "--etcdctl",
            "get /registry/deployments --prefix --keys-only",
        ],
    );
    assert_eq!(
        r.stderr.trim_end(),
        "The Deployment \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0"
    );
    assert!(!r.stdout.contains("/registry/deployments/"));

    let unknown = "apiVersion: v1\nkind: Gadget\nmetadata:\n  name: g\n";
    let r = run_with(unknown, &[]);
    assert!(
        r.stderr
            .contains("no matches for kind \"Gadget\" in version \"v1\""),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .starts_with("error: resource mapping not found for name: \"g\" namespace: \"\" from "),
        "{}",
        r.stderr
    );
}

#[test]
fn impersonated_user_without_rbac_is_forbidden_until_a_role_grants_it() {
    let r = run_with(
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n",
        &[
            "--kubectl",
            "--as=dev create deployment api --image=nginx",
            "--kubectl",
            "create role deployer --verb=create,get,list --resource=deployments",
            "--kubectl",
            "create rolebinding dev-deployer --role=deployer --user=dev",
            "--kubectl",
            "--as=dev create deployment api --image=nginx",
            "--kubectl",
            "--as=dev auth can-i delete deployments",
        ],
    );
    let mut err_lines = r.stderr.lines();
    assert_eq!(
        err_lines.next(),
        Some("error: failed to create deployment: deployments.apps is forbidden: User \"dev\" cannot create resource \"deployments\" in API group \"apps\" in the namespace \"default\"")
    );
    let out: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        out,
        vec![
            "namespace/team created",
            "role.rbac.authorization.k8s.io/deployer created",
            "rolebinding.rbac.authorization.k8s.io/dev-deployer created",
            "deployment.apps/api created",
            "no",
        ]
    );
}

#[test]
fn a_new_namespace_gets_its_default_service_account_from_the_controller() {
    let r = run_with(
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n",
        &[
            "--kubectl",
            "get serviceaccounts,configmaps -n team -o name",
        ],
    );
    assert!(
        r.stdout.contains("serviceaccount/default\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("configmap/kube-root-ca.crt\n"),
        "{}",
        r.stdout
    );
    let traced = kubeplay(&[
        "run",
        &temp_file(
            "ns.yaml",
            b"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n",
        ),
        "--trace",
        "json",
    ]);
    let recs = records(&traced.stdout);
    let watch = recs.iter().position(|r| {
        r["action"] == "watch"
            && r["peer"] == "serviceaccount-controller"
            && r["summary"] == "WATCH ADDED Namespace team"
    });
    let create = recs.iter().position(|r| {
        r["component"] == "kube-controller-manager"
            && r["action"] == "request"
            && r["summary"] == "POST /api/v1/namespaces/team/serviceaccounts"
    });
    assert!(
        watch.is_some() && create.is_some() && watch < create,
        "{recs:#?}"
    );
    assert!(
        recs[watch.unwrap()]["t_ms"].as_u64().unwrap() >= 1,
        "watch delivery takes time"
    );
}

#[test]
fn unknown_fields_and_bad_quantities_are_refused_at_decoding() {
    let typo = MISMATCH
        .replace("app: other", "app: web")
        .replace("image: nginx", "imagee: nginx");
    let r = run_with(&typo, &[]);
    assert!(
        r.stderr
            .starts_with("Error from server (BadRequest): error when creating "),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.trim_end().ends_with(": Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.template.spec.containers[0].imagee\""),
        "{}",
        r.stderr
    );
    let lots = MISMATCH.replace("app: other", "app: web").replace(
        "image: nginx",
        "image: nginx\n        resources:\n          requests:\n            cpu: lots",
    );
    let r = run_with(&lots, &[]);
    assert!(
        r.stderr.trim_end().ends_with("cannot be handled as a Deployment: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
        "{}",
        r.stderr
    );
}

const QUOTA: &str = "apiVersion: v1
kind: ResourceQuota
metadata:
  name: compute
spec:
  hard:
    pods: \"1\"
---
apiVersion: v1
kind: LimitRange
metadata:
  name: defaults
spec:
  limits:
  - type: Container
    defaultRequest:
      cpu: 300m
    default:
      cpu: 500m
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
      name: a
    spec:
      containers:
      - name: c
        image: nginx
- at: 2s
  kubectl: create -f -
  stdin: |
    apiVersion: v1
    kind: Pod
    metadata:
      name: b
    spec:
      containers:
      - name: c
        image: nginx
";

#[test]
fn limit_ranger_defaults_resources_and_resource_quota_refuses_the_second_pod() {
    let r = run_with(
        QUOTA,
        &[
            "--kubectl",
            "get pod a -o json",
            "--kubectl",
            "get pods -o name",
        ],
    );
    assert_eq!(
        r.stderr.trim_end(),
        "Error from server (Forbidden): error when creating \"STDIN\": pods \"b\" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=1, limited: pods=1"
    );
    let json_start = r.stdout.find("{\n").expect("pod JSON");
    let json_end = r.stdout.rfind("}\n").expect("end of JSON") + 1;
    let pod: Value =
        serde_json::from_str(&r.stdout[json_start..json_end]).expect("kubectl -o json");
    let res = &pod["spec"]["containers"][0]["resources"];
    assert_eq!(res["requests"]["cpu"], "300m");
    assert_eq!(res["limits"]["cpu"], "500m");
    assert!(pod["metadata"]["annotations"]["kubernetes.io/limit-ranger"]
        .as_str()
        .unwrap()
        .contains("cpu request for container c"));
    assert!(
        r.stdout.trim_end().ends_with("pod/a"),
        "only pod a exists: {}",
        r.stdout
    );
}

#[test]
fn removing_the_last_finalizer_or_label_leaves_no_empty_field() {
    let dir = std::env::temp_dir().join(format!("kubeplay-omitempty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cm.yaml");
    std::fs::write(
        &file,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {a: b}\n  finalizers: [example.com/hold]\ndata: {k: v}\n",
    )
    .unwrap();
    let r = kubeplay(&[
        "run",
        file.to_str().unwrap(),
        "--trace",
        "none",
        "--kubectl",
        r#"patch configmap c --type=json -p '[{"op":"remove","path":"/metadata/finalizers/0"},{"op":"remove","path":"/metadata/labels/a"}]'"#,
        "--kubectl",
        "get configmap c -o json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let json = &r.stdout[r.stdout.find("{\n").expect("json output")..];
    let cm: Value = serde_json::from_str(json).expect("kubectl -o json");
    // ObjectMeta's fields are omitempty: the stored object has no `finalizers: []`.
    assert!(cm["metadata"].get("finalizers").is_none(), "{json}");
    assert!(cm["metadata"].get("labels").is_none(), "{json}");
    assert_eq!(cm["data"]["k"], "v");
}
