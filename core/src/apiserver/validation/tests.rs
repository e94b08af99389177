use super::*;
use crate::api::ApiError;
use crate::apiserver::defaults::apply_defaults;
use crate::json;

/// Defaults the object as the apiserver does, then validates it.
fn create(kind: &str, mut obj: Value) -> Vec<String> {
    apply_defaults(kind, &mut obj);
    validate_create(kind, &obj)
        .iter()
        .map(|e| e.to_string())
        .collect()
}

fn update(kind: &str, mut old: Value, mut new: Value) -> Vec<String> {
    apply_defaults(kind, &mut old);
    apply_defaults(kind, &mut new);
    validate_update(kind, &old, &new)
        .iter()
        .map(|e| e.to_string())
        .collect()
}

fn deployment(spec: Value) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default"}, "spec": spec})
}

fn valid_deployment_spec() -> Value {
    json!({
        "replicas": 3,
        "selector": {"matchLabels": {"app": "web"}},
        "template": {
            "metadata": {"labels": {"app": "web"}},
            "spec": {"containers": [{"name": "web", "image": "nginx:1.25"}]}
        }
    })
}

fn with(mut base: Value, pointer: &str, value: Value) -> Value {
    let parts: Vec<&str> = pointer.trim_start_matches('/').split('/').collect();
    let mut cur = &mut base;
    for part in parts {
        cur = match cur {
            Value::Array(a) => &mut a[part.parse::<usize>().unwrap()],
            other => {
                if !other.is_object() {
                    *other = json!({});
                }
                other
                    .as_object_mut()
                    .unwrap()
                    .entry(part)
                    .or_insert(Value::Null)
            }
        };
    }
    *cur = value;
    base
}

fn pod(spec: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"}, "spec": spec})
}

const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

#[test]
fn valid_objects_pass() {
    assert!(create("Deployment", deployment(valid_deployment_spec())).is_empty());
    assert!(create(
        "Pod",
        pod(json!({"containers": [{"name": "app", "image": "busybox", "ports": [{"containerPort": 80}],
            "resources": {"requests": {"cpu": "250m"}, "limits": {"cpu": "500m", "memory": "128Mi"}},
            "livenessProbe": {"httpGet": {"port": 80}}}]}))
    )
    .is_empty());
    let svc = json!({"metadata": {"name": "web", "namespace": "default"},
        "spec": {"selector": {"app": "web"}, "ports": [{"port": 80, "targetPort": "http"}]}});
    assert!(create("Service", svc).is_empty());
    assert!(create("Namespace", json!({"metadata": {"name": "team-a"}})).is_empty());
}

#[test]
fn deployment_without_selector_gives_two_errors() {
    let d = deployment(json!({
        "template": {"metadata": {"labels": {"app": "web"}},
            "spec": {"containers": [{"name": "web", "image": "nginx"}]}}
    }));
    assert_eq!(
        create("Deployment", d.clone()),
        vec![
            "spec.selector: Required value",
            "spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`",
        ]
    );
    let mut d = d;
    apply_defaults("Deployment", &mut d);
    let e = ApiError::invalid(
        "Deployment",
        "apps",
        "web",
        validate_create("Deployment", &d),
    );
    assert_eq!(
        e.message,
        "Deployment.apps \"web\" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`]"
    );
}

#[test]
fn metadata_names() {
    let d = with(
        deployment(valid_deployment_spec()),
        "/metadata/name",
        json!("My_App"),
    );
    assert_eq!(
        create("Deployment", d),
        vec![format!(
            "metadata.name: Invalid value: \"My_App\": {SUBDOMAIN_MSG}"
        )]
    );
    let d = with(
        deployment(valid_deployment_spec()),
        "/metadata/name",
        json!("a".repeat(254)),
    );
    assert_eq!(
        create("Deployment", d)[0],
        format!(
            "metadata.name: Invalid value: \"{}\": must be no more than 253 characters",
            "a".repeat(254)
        )
    );
    let d = with(
        deployment(valid_deployment_spec()),
        "/metadata",
        json!({"namespace": "default"}),
    );
    assert_eq!(
        create("Deployment", d),
        vec!["metadata.name: Required value: name or generateName is required"]
    );
    let svc = json!({"metadata": {"name": "1web"}, "spec": {"ports": [{"port": 80}]}});
    assert_eq!(
        create("Service", svc),
        vec!["metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"]
    );
    assert_eq!(
        create("Namespace", json!({"metadata": {"name": "Team.A"}})),
        vec![format!(
            "metadata.name: Invalid value: \"Team.A\": {LABEL_MSG}"
        )]
    );
    assert_eq!(
        create("Namespace", json!({"metadata": {"name": "team.a"}})),
        vec!["metadata.name: Invalid value: \"team.a\": must not contain dots"]
    );
    assert_eq!(
        create(
            "ConfigMap",
            json!({"metadata": {"generateName": "Cfg-", "name": "Cfg-x1"}})
        ),
        vec![
            format!("metadata.generateName: Invalid value: \"Cfg-\": {SUBDOMAIN_MSG}"),
            format!("metadata.name: Invalid value: \"Cfg-x1\": {SUBDOMAIN_MSG}"),
        ]
    );
}

#[test]
fn labels_and_annotations() {
    let d = with(
        deployment(valid_deployment_spec()),
        "/metadata/labels",
        json!({"bad key": "ok", "tier": "-front"}),
    );
    assert_eq!(
        create("Deployment", d),
        vec![
            "metadata.labels: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            "metadata.labels: Invalid value: \"-front\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        ]
    );
    let d = with(
        deployment(valid_deployment_spec()),
        "/metadata/annotations",
        json!({"example.com/a/b": "x", "Example.COM/Ok": "y"}),
    );
    assert_eq!(
        create("Deployment", d),
        vec!["metadata.annotations: Invalid value: \"example.com/a/b\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    );
    let d = with(
        deployment(valid_deployment_spec()),
        "/metadata/labels",
        json!({"Example.com/app": "x"}),
    );
    assert_eq!(
        create("Deployment", d),
        vec![format!(
            "metadata.labels: Invalid value: \"Example.com/app\": prefix part {SUBDOMAIN_MSG}"
        )]
    );
    // Template labels are reported at spec.template.labels.
    let d = with(
        deployment(valid_deployment_spec()),
        "/spec/template/metadata/labels",
        json!({"app": "web", "v": "1.0-"}),
    );
    assert_eq!(
        create("Deployment", d),
        vec!["spec.template.labels: Invalid value: \"1.0-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"]
    );
}

#[test]
fn deployment_spec_rules() {
    let base = deployment(valid_deployment_spec());
    assert_eq!(
        create(
            "Deployment",
            with(base.clone(), "/spec/replicas", json!(-1))
        ),
        vec!["spec.replicas: Invalid value: -1: must be greater than or equal to 0"]
    );
    assert_eq!(
        create(
            "Deployment",
            with(base.clone(), "/spec/selector", json!({}))
        ),
        vec!["spec.selector: Invalid value: {}: empty selector is invalid for deployment"]
    );
    assert_eq!(
        create(
            "Deployment",
            with(base.clone(), "/spec/template/metadata/labels", json!({"app": "y"}))
        ),
        vec!["spec.template.metadata.labels: Invalid value: {\"app\":\"y\"}: `selector` does not match template `labels`"]
    );
    let zero =
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 0}});
    assert_eq!(
        create("Deployment", with(base.clone(), "/spec/strategy", zero)),
        vec!["spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"]
    );
    let zero_pct = json!({"rollingUpdate": {"maxSurge": "0%", "maxUnavailable": 0}});
    assert_eq!(
        create("Deployment", with(base.clone(), "/spec/strategy", zero_pct)).len(),
        1
    );
    let bad = json!({"rollingUpdate": {"maxSurge": "30", "maxUnavailable": "150%"}});
    assert_eq!(
        create("Deployment", with(base.clone(), "/spec/strategy", bad)),
        vec![
            "spec.strategy.rollingUpdate.maxSurge: Invalid value: \"30\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
            "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"150%\": must not be greater than 100%",
        ]
    );
    let recreate = json!({"type": "Recreate", "rollingUpdate": {"maxSurge": 1}});
    assert_eq!(
        create("Deployment", with(base.clone(), "/spec/strategy", recreate)),
        vec!["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"]
    );
    let mut spec = valid_deployment_spec();
    spec["revisionHistoryLimit"] = json!(-2);
    spec["minReadySeconds"] = json!(-1);
    assert_eq!(
        create("Deployment", deployment(spec)),
        vec![
            "spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0",
            "spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0",
        ]
    );
    let mut spec = valid_deployment_spec();
    spec["minReadySeconds"] = json!(600);
    assert_eq!(
        create("Deployment", deployment(spec)),
        vec!["spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds"]
    );
    let never = with(
        base.clone(),
        "/spec/template/spec/restartPolicy",
        json!("Never"),
    );
    assert_eq!(
        create("Deployment", never),
        vec!["spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\""]
    );
    let bad_sel = with(
        base,
        "/spec/selector",
        json!({"matchExpressions": [{"key": "app", "operator": "Is", "values": ["web"]}]}),
    );
    assert_eq!(
        create("Deployment", bad_sel),
        vec![
            "spec.selector.matchExpressions[0].operator: Invalid value: \"Is\": not a valid selector operator",
            "spec.selector: Invalid value: {\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"Is\",\"values\":[\"web\"]}]}: invalid label selector",
        ]
    );
}

#[test]
fn template_paths_are_prefixed() {
    let d = with(
        deployment(valid_deployment_spec()),
        "/spec/template/spec/containers",
        json!([{"name": "Web"}, {"name": "Web", "image": "x", "ports": [{"containerPort": 70000}]}]),
    );
    assert_eq!(
        create("Deployment", d),
        vec![
            format!("spec.template.spec.containers[0].name: Invalid value: \"Web\": {LABEL_MSG}"),
            "spec.template.spec.containers[0].image: Required value".to_string(),
            format!("spec.template.spec.containers[1].name: Invalid value: \"Web\": {LABEL_MSG}"),
            "spec.template.spec.containers[1].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive".to_string(),
            "spec.template.spec.containers[1].name: Duplicate value: \"Web\"".to_string(),
        ]
    );
}

#[test]
fn replica_set_rules() {
    let rs = json!({"metadata": {"name": "web-abc", "namespace": "default"}, "spec": {"replicas": -1, "minReadySeconds": -5,
        "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}});
    assert_eq!(
        create("ReplicaSet", rs),
        vec![
            "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
            "spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0",
            "spec.selector: Required value",
            "spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`",
        ]
    );
    let rs = json!({"metadata": {"name": "web-abc"}, "spec": {"selector": {},
        "template": {"spec": {"containers": [{"name": "web", "image": "nginx"}]}}}});
    assert_eq!(
        create("ReplicaSet", rs),
        vec!["spec.selector: Invalid value: {}: empty selector is invalid for deployment"]
    );
}

#[test]
fn pod_spec_rules() {
    assert_eq!(
        create("Pod", pod(json!({}))),
        vec!["spec.containers: Required value"]
    );
    assert_eq!(
        create("Pod", pod(json!({"containers": [{"name": "app"}]}))),
        vec!["spec.containers[0].image: Required value"]
    );
    assert_eq!(
        create("Pod", pod(json!({"containers": [{"image": "x"}]}))),
        vec!["spec.containers[0].name: Required value"]
    );
    assert_eq!(
        create(
            "Pod",
            pod(json!({"containers": [{"name": "a", "image": "x"}, {"name": "a", "image": "y"}]}))
        ),
        vec!["spec.containers[1].name: Duplicate value: \"a\""]
    );
    assert_eq!(
        create(
            "Pod",
            pod(json!({"containers": [{"name": "a", "image": "x", "ports": [{"containerPort": 0, "hostPort": 70000, "protocol": "HTTP"}]}]}))
        ),
        vec![
            "spec.containers[0].ports[0].containerPort: Required value",
            "spec.containers[0].ports[0].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
            "spec.containers[0].ports[0].protocol: Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\"",
        ]
    );
    assert_eq!(
        create(
            "Pod",
            pod(json!({"restartPolicy": "Sometimes", "containers": [{"name": "a", "image": "x"}]}))
        ),
        vec!["spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\""]
    );
    assert_eq!(
        create(
            "Pod",
            pod(json!({"containers": [{"name": "a", "image": "x", "resources": {"requests": {"cpu": "1", "memory": "256Mi"}, "limits": {"cpu": "500m", "memory": "128Mi"}}}]}))
        ),
        vec![
            "spec.containers[0].resources.requests: Invalid value: \"1\": must be less than or equal to cpu limit of 500m",
            "spec.containers[0].resources.requests: Invalid value: \"256Mi\": must be less than or equal to memory limit of 128Mi",
        ]
    );
    assert_eq!(
        create(
            "Pod",
            pod(json!({"containers": [{"name": "a", "image": "x", "resources": {"limits": {"cpu": "-1"}, "requests": {"gpu": "1"}}}]}))
        ),
        vec![
            "spec.containers[0].resources.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0",
            "spec.containers[0].resources.requests[cpu]: Invalid value: \"-1\": must be greater than or equal to 0",
            "spec.containers[0].resources.requests[gpu]: Invalid value: \"gpu\": must be a standard resource type or fully qualified",
            "spec.containers[0].resources.requests[gpu]: Invalid value: \"gpu\": must be a standard resource for containers",
        ]
    );
    assert_eq!(
        create(
            "Pod",
            pod(json!({"containers": [{"name": "a", "image": "x", "resources": {"requests": {"nvidia.com/gpu": "1"}}}]}))
        ),
        vec!["spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources"]
    );
    assert_eq!(
        create(
            "Pod",
            pod(json!({"containers": [{"name": "a", "image": "x", "imagePullPolicy": "Sometimes", "livenessProbe": {"periodSeconds": -1}}]}))
        ),
        vec![
            "spec.containers[0].imagePullPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"IfNotPresent\", \"Never\"",
            "spec.containers[0].livenessProbe: Required value: must specify a handler type",
            "spec.containers[0].livenessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0",
        ]
    );
    assert_eq!(
        create(
            "Pod",
            pod(
                json!({"containers": [{"name": "a", "image": "x", "volumeMounts": [{"name": "data", "mountPath": "/data"}]}]})
            )
        ),
        vec!["spec.containers[0].volumeMounts[0].name: Not found: \"data\""]
    );
    assert_eq!(
        create(
            "Pod",
            pod(json!({"containers": [{"name": "a", "image": " x"}]}))
        ),
        vec!["spec.containers[0].image: Invalid value: \" x\": must not have leading or trailing whitespace"]
    );
    assert_eq!(
        create(
            "Pod",
            pod(json!({"dnsPolicy": "Google", "containers": [{"name": "a", "image": "x"}], "tolerations": [{"key": "k", "operator": "Exists", "value": "v"}]}))
        ),
        vec![
            "spec.dnsPolicy: Unsupported value: \"Google\": supported values: \"ClusterFirstWithHostNet\", \"ClusterFirst\", \"Default\", \"None\"",
            "spec.tolerations[0].operator: Invalid value: \"v\": value must be empty when `operator` is 'Exists'",
        ]
    );
    assert_eq!(
        create(
            "Pod",
            pod(
                json!({"containers": [{"name": "a", "image": "x"}], "volumes": [{"name": "v", "configMap": {}, "secret": {"secretName": "s"}}]})
            )
        ),
        vec!["spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type"]
    );
}

#[test]
fn service_rules() {
    let svc =
        |spec: Value| json!({"metadata": {"name": "web", "namespace": "default"}, "spec": spec});
    assert_eq!(
        create("Service", svc(json!({"selector": {"app": "web"}}))),
        vec!["spec.ports: Required value"]
    );
    assert_eq!(
        create(
            "Service",
            svc(json!({"ports": [{"port": 0, "targetPort": 80}]}))
        ),
        vec!["spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive"]
    );
    assert_eq!(
        create("Service", svc(json!({"ports": [{"port": 70000}]}))),
        vec![
            "spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
            "spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
        ]
    );
    assert_eq!(
        create(
            "Service",
            svc(json!({"type": "Internal", "ports": [{"port": 80}]}))
        ),
        vec!["spec.type: Unsupported value: \"Internal\": supported values: \"ClusterIP\", \"ExternalName\", \"LoadBalancer\", \"NodePort\""]
    );
    assert_eq!(
        create(
            "Service",
            svc(json!({"selector": {"app": "web/x"}, "ports": [{"port": 80}, {"port": 81}]}))
        ),
        vec![
            "spec.ports[0].name: Required value",
            "spec.ports[1].name: Required value",
            "spec.selector: Invalid value: \"web/x\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        ]
    );
    assert_eq!(
        create(
            "Service",
            svc(json!({"ports": [{"port": 80, "nodePort": 30080}]}))
        ),
        vec!["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]
    );
}

#[test]
fn config_map_and_secret_keys() {
    assert_eq!(
        create(
            "ConfigMap",
            json!({"metadata": {"name": "cfg", "namespace": "default"}, "data": {"app config": "x", "ok.key": "y"}})
        ),
        vec!["data[app config]: Invalid value: \"app config\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"]
    );
    assert_eq!(
        create(
            "Secret",
            json!({"metadata": {"name": "s", "namespace": "default"}, "stringData": {"..": "x"}})
        ),
        vec!["data[..]: Invalid value: \"..\": must not be '..'"]
    );
    assert_eq!(
        create(
            "Secret",
            json!({"metadata": {"name": "s"}, "type": "kubernetes.io/tls", "data": {"tls.crt": "eA=="}})
        ),
        vec!["data[tls.key]: Required value"]
    );
}

#[test]
fn rbac_rules() {
    assert_eq!(
        create(
            "Role",
            json!({"metadata": {"name": "reader", "namespace": "default"}, "rules": [{"apiGroups": [""], "resources": ["pods"]}, {"verbs": ["get"]}]})
        ),
        vec![
            "rules[0].verbs: Required value: verbs must contain at least one value",
            "rules[1].apiGroups: Required value: resource rules must supply at least one api group",
            "rules[1].resources: Required value: resource rules must supply at least one resource",
        ]
    );
    assert_eq!(
        create(
            "ClusterRole",
            json!({"metadata": {"name": "system:reader"}, "rules": [{"verbs": ["get"], "nonResourceURLs": ["/healthz"]}]})
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        create(
            "RoleBinding",
            json!({"metadata": {"name": "rb", "namespace": "default"}, "roleRef": {"kind": "Group", "name": "x"}, "subjects": [{"kind": "Robot", "name": "r2"}]})
        ),
        vec![
            "roleRef.kind: Unsupported value: \"Group\": supported values: \"Role\", \"ClusterRole\"",
            "subjects[0].kind: Unsupported value: \"Robot\": supported values: \"ServiceAccount\", \"User\", \"Group\"",
        ]
    );
}

#[test]
fn quota_and_limit_range_quantities() {
    assert_eq!(
        create(
            "ResourceQuota",
            json!({"metadata": {"name": "q", "namespace": "default"}, "spec": {"hard": {"pods": "1500m", "requests.cpu": "-1", "widgets": "3"}}})
        ),
        vec![
            "spec.hard[pods]: Invalid value: \"1500m\": must be an integer",
            "spec.hard[requests.cpu]: Invalid value: \"-1\": must be greater than or equal to 0",
            "spec.hard[widgets]: Invalid value: \"widgets\": must be a standard resource type or fully qualified",
            "spec.hard[widgets]: Invalid value: \"widgets\": must be a standard resource for quota",
        ]
    );
    assert_eq!(
        create(
            "LimitRange",
            json!({"metadata": {"name": "lr", "namespace": "default"}, "spec": {"limits": [{"type": "Container", "min": {"cpu": "2"}, "max": {"cpu": "1"}}]}})
        ),
        vec![
            "spec.limits[0].min[cpu]: Invalid value: \"2\": min value 2 is greater than max value 1",
            "spec.limits[0].defaultRequest[cpu]: Invalid value: \"1\": min value 2 is greater than default request value 1",
            "spec.limits[0].default[cpu]: Invalid value: \"2\": min value 2 is greater than default value 1",
        ]
    );
}

#[test]
fn job_rules() {
    let job = json!({"metadata": {"name": "pi", "namespace": "default"}, "spec": {"template": {"spec": {"containers": [{"name": "pi", "image": "perl"}]}}}});
    assert_eq!(
        create("Job", job),
        vec!["spec.template.spec.restartPolicy: Unsupported value: \"Always\": supported values: \"OnFailure\", \"Never\""]
    );
}

#[test]
fn updates() {
    let old = deployment(valid_deployment_spec());
    let new = with(
        with(
            old.clone(),
            "/spec/selector",
            json!({"matchLabels": {"app": "web", "tier": "backend"}}),
        ),
        "/spec/template/metadata/labels",
        json!({"app": "web", "tier": "backend"}),
    );
    assert_eq!(
        update("Deployment", old.clone(), new),
        vec!["spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"web\",\"tier\":\"backend\"}}: field is immutable"]
    );
    assert!(update(
        "Deployment",
        old.clone(),
        with(old.clone(), "/spec/replicas", json!(5))
    )
    .is_empty());
    assert_eq!(
        update(
            "Deployment",
            old.clone(),
            with(old.clone(), "/metadata/name", json!("other"))
        ),
        vec!["metadata.name: Invalid value: \"other\": field is immutable"]
    );

    let p = pod(json!({"containers": [{"name": "app", "image": "nginx:1.25"}]}));
    assert!(update(
        "Pod",
        p.clone(),
        with(p.clone(), "/spec/containers/0/image", json!("nginx:1.26"))
    )
    .is_empty());
    assert_eq!(
        update(
            "Pod",
            p.clone(),
            with(p.clone(), "/spec/containers/0/name", json!("web"))
        ),
        vec!["spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"]
    );
    assert_eq!(
        update(
            "Pod",
            p.clone(),
            with(
                p.clone(),
                "/spec/containers",
                json!([{"name": "a", "image": "x"}, {"name": "b", "image": "y"}])
            )
        ),
        vec!["spec.containers: Forbidden: pod updates may not add or remove containers"]
    );
    let tol = with(
        p.clone(),
        "/spec/tolerations",
        json!([{"key": "k", "operator": "Exists", "effect": "NoSchedule"}]),
    );
    assert!(update("Pod", p.clone(), tol.clone()).is_empty());
    assert_eq!(
        update("Pod", tol, p.clone()),
        vec!["spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds"]
    );

    let svc = json!({"metadata": {"name": "web", "namespace": "default"},
        "spec": {"clusterIP": "10.96.0.10", "clusterIPs": ["10.96.0.10"], "ports": [{"port": 80}]}});
    assert_eq!(
        update(
            "Service",
            svc.clone(),
            with(
                with(svc.clone(), "/spec/clusterIP", json!("10.96.0.11")),
                "/spec/clusterIPs",
                json!(["10.96.0.11"])
            )
        ),
        vec!["spec.clusterIPs[0]: Invalid value: [\"10.96.0.11\"]: may not change once set"]
    );
    let mut omitted = svc.clone();
    omitted["spec"].as_object_mut().unwrap().remove("clusterIP");
    omitted["spec"]
        .as_object_mut()
        .unwrap()
        .remove("clusterIPs");
    assert!(update("Service", svc, omitted).is_empty());

    let cm = json!({"metadata": {"name": "c", "namespace": "default"}, "immutable": true, "data": {"a": "1"}});
    assert_eq!(
        update("ConfigMap", cm.clone(), with(cm, "/data/a", json!("2"))),
        vec!["data: Forbidden: field is immutable when `immutable` is set"]
    );
    let ns = json!({"metadata": {"name": "team-a"}});
    assert!(update("Namespace", ns.clone(), ns).is_empty());
}

#[test]
fn arbitrary_json_never_panics() {
    let shapes = [
        json!(null),
        json!(7),
        json!("x"),
        json!([{"a": 1}]),
        json!({"metadata": 5, "spec": "s"}),
        json!({"metadata": {"name": 3, "labels": [1], "annotations": "a", "finalizers": {}, "ownerReferences": "o"}}),
        json!({"spec": {"selector": "x", "template": [], "strategy": 4, "replicas": "3", "containers": {"x": 1}}}),
        json!({"spec": {"template": {"metadata": {"labels": 1}, "spec": {"containers": [1, "x", {"ports": "p", "resources": {"limits": [1], "requests": {"cpu": {}}}, "env": 5, "livenessProbe": 1}], "volumes": {"a": 1}, "tolerations": [null]}}}}),
        json!({"spec": {"ports": [{"port": "80", "targetPort": {}}], "selector": [], "type": 1, "clusterIPs": "ip"}}),
        json!({"data": [1], "stringData": {"a": 1}, "rules": [{"verbs": "v"}], "roleRef": 1, "subjects": {}}),
        json!({"spec": {"hard": [1], "limits": [{"max": 1, "type": 3}], "scopes": "x", "jobTemplate": 1}}),
    ];
    let kinds = [
        "Pod",
        "PodTemplate",
        "Deployment",
        "ReplicaSet",
        "StatefulSet",
        "DaemonSet",
        "Job",
        "CronJob",
        "ReplicationController",
        "Service",
        "ConfigMap",
        "Secret",
        "Namespace",
        "ResourceQuota",
        "LimitRange",
        "Node",
        "Role",
        "ClusterRole",
        "RoleBinding",
        "ClusterRoleBinding",
        "Ingress",
        "Lease",
    ];
    for kind in kinds {
        for a in &shapes {
            let _ = validate_create(kind, a);
            for b in &shapes {
                let _ = validate_update(kind, a, b);
            }
            let mut d = a.clone();
            apply_defaults(kind, &mut d);
            let _ = validate_create(kind, &d);
        }
    }
}

#[test]
#[ignore]
fn timing_probe() {
    let mut p = pod(
        json!({"containers": [{"name": "app", "image": "nginx:1.25", "ports": [{"containerPort": 80}],
        "resources": {"requests": {"cpu": "250m", "memory": "64Mi"}, "limits": {"cpu": "500m", "memory": "128Mi"}},
        "readinessProbe": {"httpGet": {"port": 80}},
        "volumeMounts": [{"name": "kube-api-access-abcde", "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "readOnly": true}]}],
        "volumes": [{"name": "kube-api-access-abcde", "projected": {"sources": [{"serviceAccountToken": {"path": "token", "expirationSeconds": 3607}}, {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}}]}}],
        "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]}),
    );
    p["metadata"]["labels"] = json!({"app": "web", "pod-template-hash": "7c5d8f9b4"});
    p["metadata"]["ownerReferences"] = json!([{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7c5d8f9b4", "uid": "1617b439-bda2-4c0f-9050-fbae9c9cae8a", "controller": true, "blockOwnerDeletion": true}]);
    p["spec"]["serviceAccountName"] = json!("default");
    apply_defaults("Pod", &mut p);
    assert_eq!(create("Pod", p.clone()), Vec::<String>::new());
    let n = 20000;
    let t = std::time::Instant::now();
    for _ in 0..n {
        decode("Pod", "v1", &p).unwrap();
    }
    eprintln!("decode: {:?}/op", t.elapsed() / n);
    let t = std::time::Instant::now();
    for _ in 0..n {
        assert!(validate_create("Pod", &p).is_empty());
    }
    eprintln!("validate_create: {:?}/op", t.elapsed() / n);
    let t = std::time::Instant::now();
    for _ in 0..n {
        assert!(validate_update("Pod", &p, &p).is_empty());
    }
    eprintln!("validate_update: {:?}/op", t.elapsed() / n);
    let t = std::time::Instant::now();
    for _ in 0..n {
        let mut q = p.clone();
        apply_defaults("Pod", &mut q);
    }
    eprintln!("clone+defaults: {:?}/op", t.elapsed() / n);
}

fn status_update(old: &Value, new: &Value) -> Vec<String> {
    validate_status_update("Pod", old, new)
        .iter()
        .map(|e| e.to_string())
        .collect()
}

fn running_pod(restart_policy: &str, state: Value) -> Value {
    let mut p = json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "job-1", "namespace": "default", "uid": "u-1"},
        "spec": {"restartPolicy": restart_policy, "nodeName": "node-1",
            "containers": [{"name": "main", "image": "busybox"}]},
        "status": {"phase": "Running",
            "containerStatuses": [{"name": "main", "state": state}]}});
    apply_defaults("Pod", &mut p);
    p
}

#[test]
fn a_pod_status_update_checks_the_status_rules_not_the_spec() {
    let done = json!({"terminated": {"exitCode": 0}});
    let failed = json!({"terminated": {"exitCode": 1}});
    let running = json!({"running": {"startedAt": "2026-01-01T00:00:00Z"}});
    // Under Never, a terminated container may not run again; under Always it may.
    let old = running_pod("Never", done.clone());
    let new = running_pod("Never", running.clone());
    assert_eq!(
        status_update(&old, &new),
        vec!["status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state"]
    );
    assert!(status_update(
        &running_pod("Always", done),
        &running_pod("Always", running.clone())
    )
    .is_empty());
    // OnFailure restarts a failed container, not one that succeeded.
    assert!(status_update(
        &running_pod("OnFailure", failed),
        &running_pod("OnFailure", running.clone())
    )
    .is_empty());
    // The node name is the binding's to set.
    let mut moved = running_pod("Always", running.clone());
    moved["spec"]["nodeName"] = json!("node-2");
    assert_eq!(
        status_update(&running_pod("Always", running.clone()), &moved),
        vec!["status.nodeName: Forbidden: may not be changed directly"]
    );
    let mut nominated = running_pod("Always", running.clone());
    nominated["status"]["nominatedNodeName"] = json!("Node_2");
    assert_eq!(
        status_update(&running_pod("Always", running.clone()), &nominated).len(),
        1
    );
    // A spec the pod validation would refuse is not looked at: it is the stored one.
    let mut odd = running_pod("Always", running.clone());
    odd["spec"]["containers"][0]["terminationMessagePolicy"] = json!("Sometimes");
    assert!(status_update(&odd, &odd).is_empty());
    assert!(!validate_update("Pod", &odd, &odd).is_empty());
}
