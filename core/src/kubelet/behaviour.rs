//! What a container does once started, read from its spec: servers run until stopped;
//! `sh -c "...; exit N"`, `exit N`, `sleep N` end as written (how crash loops, jobs and init
//! containers are shown).

use crate::api::value::Value;
use crate::kernel::Millis;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behaviour {
    /// Runs until stopped (a server, `sleep infinity`, a `while true` loop).
    Runs,
    /// Exits with `code` after `after` milliseconds.
    Exits { after: Millis, code: i64 },
}

/// Whether the main process is a shell (which, as PID 1, ignores SIGTERM: a stop then waits
/// for the grace period).
pub fn is_shell(container: &Value) -> bool {
    let words = words(container);
    words
        .first()
        .is_some_and(|w| matches!(w.rsplit('/').next(), Some("sh" | "bash" | "ash" | "dash")))
}

fn words(container: &Value) -> Vec<String> {
    let list = |k: &str| -> Vec<String> {
        container
            .get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut w = list("command");
    w.extend(list("args"));
    w
}

/// Images whose default command exits at once (a shell with no terminal).
fn exits_by_default(image: &str) -> bool {
    let repo = super::images::ImageRef::parse(image).repository;
    matches!(
        repo.as_str(),
        "docker.io/library/busybox"
            | "docker.io/library/alpine"
            | "docker.io/library/ubuntu"
            | "docker.io/library/debian"
    )
}

fn seconds(word: &str) -> Option<Millis> {
    let w = word.trim_end_matches('s');
    if let Ok(n) = w.parse::<u64>() {
        return Some(n * 1000);
    }
    w.parse::<f64>()
        .ok()
        .filter(|f| *f >= 0.0)
        .map(|f| (f * 1000.0) as Millis)
}

/// Runs a shell script's statements: `sleep N` adds time, `exit N` ends, a loop or
/// `sleep infinity` runs forever; the end of the script exits 0.
fn script(text: &str) -> Behaviour {
    let mut t: Millis = 0;
    let normalized = text
        .replace("&&", ";")
        .replace("||", ";")
        .replace('\n', ";");
    for stmt in normalized.split(';') {
        let w: Vec<&str> = stmt.split_whitespace().collect();
        match w.as_slice() {
            [] => {}
            ["while", ..] | ["until", ..] | ["tail", "-f", ..] => return Behaviour::Runs,
            ["sleep", "infinity"] => return Behaviour::Runs,
            ["sleep", n, ..] => t += seconds(n).unwrap_or(0),
            ["exit"] => return Behaviour::Exits { after: t, code: 0 },
            ["exit", n, ..] => {
                return Behaviour::Exits {
                    after: t,
                    code: n.parse().unwrap_or(1),
                };
            }
            ["false"] => {}
            [cmd, ..] if cmd.starts_with("nginx") || cmd.starts_with("httpd") => {
                return Behaviour::Runs;
            }
            _ => {}
        }
    }
    Behaviour::Exits { after: t, code: 0 }
}

/// The behaviour of a container spec.
pub fn of(container: &Value) -> Behaviour {
    let w = words(container);
    let image = container.get("image").and_then(Value::as_str).unwrap_or("");
    match w.first().map(|s| s.rsplit('/').next().unwrap_or(s)) {
        None => {
            if exits_by_default(image) {
                Behaviour::Exits { after: 0, code: 0 }
            } else {
                Behaviour::Runs
            }
        }
        Some("sh" | "bash" | "ash" | "dash") => {
            match w.iter().position(|x| x == "-c").and_then(|i| w.get(i + 1)) {
                Some(text) => script(text),
                None if w.len() == 1 && exits_by_default(image) => {
                    Behaviour::Exits { after: 0, code: 0 }
                }
                None => Behaviour::Runs,
            }
        }
        Some("sleep") => match w.get(1).map(String::as_str) {
            Some("infinity") | None => Behaviour::Runs,
            Some(n) => Behaviour::Exits {
                after: seconds(n).unwrap_or(0),
                code: 0,
            },
        },
        Some("exit") => Behaviour::Exits {
            after: 0,
            code: w.get(1).and_then(|n| n.parse().ok()).unwrap_or(0),
        },
        Some("true" | "echo" | "date" | "env" | "printenv" | "cat" | "ls") => {
            Behaviour::Exits { after: 0, code: 0 }
        }
        Some("false") => Behaviour::Exits { after: 0, code: 1 },
        Some(_) => Behaviour::Runs,
    }
}

/// What a command run inside a running container (an exec probe or lifecycle hook) does: how
/// long it takes and its exit code, or `None` when it never ends (`sleep infinity`, a loop).
/// Programs the simulation does not know (`cat /tmp/healthy`, `pg_isready`) succeed at once.
pub fn exec_outcome(command: &[String]) -> Option<(Millis, i64)> {
    let spec = crate::json!({ "command": command });
    let first = command
        .first()
        .map(|s| s.rsplit('/').next().unwrap_or(s).to_string());
    match of(&spec) {
        Behaviour::Exits { after, code } => Some((after, code)),
        Behaviour::Runs => {
            let endless = match first.as_deref() {
                Some("sleep") => true,
                Some("sh" | "bash" | "ash" | "dash") => command.iter().any(|w| w == "-c"),
                Some("tail") => command.iter().any(|w| w == "-f"),
                _ => false,
            };
            if endless {
                None
            } else {
                Some((0, 0))
            }
        }
    }
}

/// The ports a known server image listens on without being told (`containerPort` is
/// informational; the process decides).
pub fn default_ports(image: &str) -> &'static [u16] {
    let repo = super::images::ImageRef::parse(image).repository;
    match repo.as_str() {
        "docker.io/library/nginx" | "docker.io/library/httpd" => &[80],
        "docker.io/library/redis" => &[6379],
        "docker.io/library/postgres" => &[5432],
        "docker.io/library/mysql" => &[3306, 33060],
        _ => &[],
    }
}

/// The paths a known web server answers with 200 out of the box (anything else is a 404), or
/// `None` when the image's content is not known (every path answers 200).
pub fn served_paths(image: &str) -> Option<&'static [&'static str]> {
    let repo = super::images::ImageRef::parse(image).repository;
    match repo.as_str() {
        "docker.io/library/nginx" => Some(&["/", "/index.html", "/50x.html"]),
        "docker.io/library/httpd" => Some(&["/", "/index.html"]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn commands_run_in_a_container_end_as_written() {
        let cmd = |w: &[&str]| -> Vec<String> { w.iter().map(|s| s.to_string()).collect() };
        assert_eq!(exec_outcome(&cmd(&["cat", "/tmp/healthy"])), Some((0, 0)));
        assert_eq!(exec_outcome(&cmd(&["sh", "-c", "exit 1"])), Some((0, 1)));
        assert_eq!(exec_outcome(&cmd(&["sleep", "5"])), Some((5000, 0)));
        assert_eq!(exec_outcome(&cmd(&["sleep", "infinity"])), None);
        assert_eq!(exec_outcome(&cmd(&["pg_isready", "-U", "x"])), Some((0, 0)));
        assert_eq!(exec_outcome(&cmd(&["false"])), Some((0, 1)));
        assert_eq!(served_paths("nginx:1.27").unwrap()[0], "/");
        assert!(served_paths("ghcr.io/acme/app:1").is_none());
        assert_eq!(default_ports("nginx"), &[80]);
    }

    #[test]
    fn reads_what_the_spec_says() {
        let c = |v: Value| of(&v);
        assert_eq!(c(json!({"image": "nginx"})), Behaviour::Runs);
        assert_eq!(
            c(json!({"image": "busybox", "command": ["sh", "-c", "exit 1"]})),
            Behaviour::Exits { after: 0, code: 1 }
        );
        assert_eq!(
            c(json!({"image": "busybox", "command": ["sh", "-c", "echo hi; sleep 5; exit 3"]})),
            Behaviour::Exits {
                after: 5000,
                code: 3
            }
        );
        assert_eq!(
            c(json!({"image": "busybox", "command": ["sleep", "30"]})),
            Behaviour::Exits {
                after: 30000,
                code: 0
            }
        );
        assert_eq!(
            c(
                json!({"image": "busybox", "command": ["sh", "-c"], "args": ["while true; do sleep 1; done"]})
            ),
            Behaviour::Runs
        );
        assert_eq!(
            c(json!({"image": "busybox"})),
            Behaviour::Exits { after: 0, code: 0 }
        );
    }
}
