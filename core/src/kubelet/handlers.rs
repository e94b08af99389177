//! What a probe or lifecycle-hook handler gets back from a simulated container
//! (`pkg/probe/{exec,http,tcp,grpc}`, `pkg/kubelet/lifecycle/handlers.go`). Nothing listens for
//! real, so the answer is read from the spec: a port is open when the container declares it as
//! a `containerPort` or its image listens there by default (nginx and httpd on 80, redis on
//! 6379, ...); nginx and httpd serve `/` and `/index.html` (nginx also `/50x.html`) and answer
//! 404 for any other path, while an image whose content is unknown answers 200 everywhere; an
//! exec command ends as [`super::behaviour::exec_outcome`] says. The pod annotation
//! [`FAIL_PROBE_ANNOTATION`] makes probes fail on purpose.

use super::behaviour;
use crate::api::value::Value;
use crate::controllers::podutil::At;
use crate::kernel::Millis;

/// `kubeplay.dev/fail-probe: "liveness"`, `"web/readiness"`, `"liveness@30s,startup"`: the
/// listed probes (of every container, or of the one named before `/`) fail, from the given
/// time after the container started (at once without `@`).
pub const FAIL_PROBE_ANNOTATION: &str = "kubeplay.dev/fail-probe";

/// How long an HTTP or TCP round trip to a pod takes.
pub const NETWORK_MS: Millis = 3;

/// The container a handler runs against.
pub struct Target<'a> {
    pub container: &'a Value,
    pub pod_ip: &'a str,
}

impl Target<'_> {
    fn image(&self) -> &str {
        self.container
            .get("image")
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    /// Whether something listens on `port` (TCP).
    pub fn open(&self, port: u16) -> bool {
        let declared = self
            .container
            .get("ports")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .any(|p| {
                p.get("containerPort").and_then(Value::as_u64) == Some(port as u64)
                    && p.get("protocol").and_then(Value::as_str).unwrap_or("TCP") == "TCP"
            });
        declared || behaviour::default_ports(self.image()).contains(&port)
    }

    /// `extractPort`: a number, or the name of one of the container's ports.
    pub fn port(&self, port: &Value) -> Result<u16, String> {
        let n: i64 = match port {
            Value::Number(n) => n.as_i64().unwrap_or(-1),
            Value::String(s) => {
                let named = self
                    .container
                    .get("ports")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .find(|p| p.get("name").and_then(Value::as_str) == Some(s))
                    .and_then(|p| p.get("containerPort").and_then(Value::as_i64));
                match named {
                    Some(n) => n,
                    None => s
                        .parse()
                        .map_err(|_| format!("strconv.Atoi: parsing {s:?}: invalid syntax"))?,
                }
            }
            _ => -1,
        };
        if (1..65536).contains(&n) {
            Ok(n as u16)
        } else {
            Err(format!("invalid port number: {n}"))
        }
    }

    fn host(&self, action: &Value) -> String {
        action
            .get("host")
            .and_then(Value::as_str)
            .filter(|h| !h.is_empty())
            .unwrap_or(self.pod_ip)
            .to_string()
    }

    fn refused(&self, host: &str, port: u16) -> String {
        format!("dial tcp {host}:{port}: connect: connection refused")
    }

    /// An HTTP GET as the prober and the hook runner send it: the status code, or the
    /// client's error (`Get "http://10.244.1.5:8080/healthz": dial tcp ...: connection refused`).
    pub fn http_get(&self, action: &Value) -> Result<Result<u16, String>, String> {
        let port = self.port(action.get("port").unwrap_or(&Value::Null))?;
        let host = self.host(action);
        let scheme = action
            .get("scheme")
            .and_then(Value::as_str)
            .unwrap_or("HTTP")
            .to_ascii_lowercase();
        let path = action.get("path").and_then(Value::as_str).unwrap_or("");
        let url = format!("{scheme}://{host}:{port}{path}");
        if !self.open(port) {
            return Ok(Err(format!("Get {url:?}: {}", self.refused(&host, port))));
        }
        let paths = behaviour::served_paths(self.image());
        if scheme == "https" && paths.is_some() {
            return Ok(Err(format!(
                "Get {url:?}: http: server gave HTTP response to HTTPS client"
            )));
        }
        let bare = path.split(['?', '#']).next().unwrap_or("");
        let bare = if bare.is_empty() { "/" } else { bare };
        Ok(Ok(match paths {
            Some(served) if !served.contains(&bare) => 404,
            _ => 200,
        }))
    }

    /// A TCP connect: `Ok` when something listens, the dial error otherwise.
    pub fn tcp(&self, action: &Value) -> Result<Result<(), String>, String> {
        let port = self.port(action.get("port").unwrap_or(&Value::Null))?;
        let host = self.host(action);
        Ok(if self.open(port) {
            Ok(())
        } else {
            Err(self.refused(&host, port))
        })
    }
}

/// The command of an exec handler.
pub fn command(exec: &Value) -> Vec<String> {
    exec.get("command")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Go's `%v` of a `[]string`: `[sh -c exit 1]`.
pub fn go_list(words: &[String]) -> String {
    format!("[{}]", words.join(" "))
}

/// Whether [`FAIL_PROBE_ANNOTATION`] makes probe `kind` (`liveness`, `readiness`, `startup`)
/// of `container` fail `since_start` after the container started.
pub fn forced_failure(pod: &Value, container: &str, kind: &str, since_start: Millis) -> bool {
    let Some(value) = pod
        .at(&["metadata", "annotations"])
        .and_then(|a| a.get(FAIL_PROBE_ANNOTATION))
        .and_then(Value::as_str)
    else {
        return false;
    };
    value.split(',').map(str::trim).any(|item| {
        let (what, from) = match item.split_once('@') {
            Some((w, d)) => (w.trim(), crate::kernel::time::parse_duration(d.trim()).ok()),
            None => (item, Some(0)),
        };
        let (ctr, k) = match what.split_once('/') {
            Some((c, k)) => (Some(c.trim()), k.trim()),
            None => (None, what),
        };
        k.eq_ignore_ascii_case(kind)
            && ctr.is_none_or(|c| c == container)
            && from.is_some_and(|f| since_start >= f)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn servers_answer_what_they_serve_on_the_ports_they_listen() {
        let c = json!({"name": "web", "image": "nginx:1.27", "ports": [{"name": "metrics", "containerPort": 9113}]});
        let t = Target {
            container: &c,
            pod_ip: "10.244.1.5",
        };
        let get = |v: Value| t.http_get(&v).unwrap();
        assert_eq!(get(json!({"path": "/", "port": 80})), Ok(200));
        assert_eq!(get(json!({"path": "/healthz", "port": 80})), Ok(404));
        assert_eq!(get(json!({"path": "/", "port": "metrics"})), Ok(200));
        assert_eq!(
            get(json!({"path": "/healthz", "port": 8080})),
            Err("Get \"http://10.244.1.5:8080/healthz\": dial tcp 10.244.1.5:8080: connect: connection refused".into())
        );
        assert_eq!(t.tcp(&json!({"port": 80})).unwrap(), Ok(()));
        assert!(t.tcp(&json!({"port": 81})).unwrap().is_err());
        assert_eq!(
            t.port(&json!("http")),
            Err("strconv.Atoi: parsing \"http\": invalid syntax".into())
        );
        let pod = json!({"metadata": {"annotations": {FAIL_PROBE_ANNOTATION: "web/liveness@30s, readiness"}}});
        assert!(!forced_failure(&pod, "web", "liveness", 29_999));
        assert!(forced_failure(&pod, "web", "liveness", 30_000));
        assert!(!forced_failure(&pod, "other", "liveness", 60_000));
        assert!(forced_failure(&pod, "other", "readiness", 0));
        assert!(!forced_failure(&pod, "web", "startup", 0));
    }
}
